"""A throwaway PostgreSQL server for the test session.

``PgServer.create()`` runs ``initdb`` into a fresh temporary folder, starts the
server on a free TCP port of 127.0.0.1 with trust authentication, and gives a
``postgresql://postgres@127.0.0.1:PORT/postgres`` URL. ``restart()``,
``stop()`` and ``start()`` serve the fault tests; ``destroy()`` stops the server
and removes the folder.

PostgreSQL refuses to run as root. When the tests run as root (as CI does),
``initdb`` and ``pg_ctl`` run as the ``postgres`` user (``runuser``), in a
folder that user owns. If PostgreSQL is not installed, ``PostgresMissing`` says
what to install: ``make test`` installs Debian's ``postgresql`` package.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

INSTALL_HINT = (
    "PostgreSQL is needed by the web-table tests but initdb/pg_ctl were not found "
    "(looked on PATH and in /usr/lib/postgresql/*/bin). Install Debian's 'postgresql' "
    "package: `apt-get install -y --no-install-recommends postgresql` "
    "(`make test` does it when run as root)."
)


class PostgresMissing(RuntimeError):
    """initdb / pg_ctl cannot be found, or PostgreSQL cannot be run here."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: PATH first, then the
    newest ``/usr/lib/postgresql/*/bin`` (Debian does not put them on PATH)."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        real = Path(initdb).resolve().parent
        if (real / "pg_ctl").exists():
            return real
        return Path(initdb).parent

    def version(path: str) -> tuple[int, ...]:
        name = Path(path).parent.name
        return tuple(int(p) for p in name.split(".") if p.isdigit())

    candidates = [p for p in glob.glob("/usr/lib/postgresql/*/bin/initdb") if os.access(p, os.X_OK)]
    for found in sorted(candidates, key=lambda p: version(str(Path(p).parent)), reverse=True):
        bindir = Path(found).parent
        if (bindir / "pg_ctl").exists():
            return bindir
    raise PostgresMissing(INSTALL_HINT)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One PostgreSQL cluster in a temporary folder, listening on 127.0.0.1."""

    def __init__(self, base: Path, bindir: Path, port: int, run_as: str | None) -> None:
        self.base = base
        self.bindir = bindir
        self.port = port
        self.run_as = run_as
        self.data = base / "data"
        self.sockets = base / "sock"
        self.log = base / "postgres.log"
        self._db_counter = 0

    # -- life cycle ----------------------------------------------------------

    @classmethod
    def create(cls) -> PgServer:
        """initdb a new cluster in a fresh temporary folder and start it."""
        bindir = find_bindir()
        run_as: str | None = None
        base = Path(tempfile.mkdtemp(prefix="euchre-pg-"))
        if os.geteuid() == 0:
            run_as = "postgres"
            try:
                user = pwd.getpwnam(run_as)
            except KeyError as exc:
                shutil.rmtree(base, ignore_errors=True)
                raise PostgresMissing(
                    "running as root, PostgreSQL must run as the 'postgres' user, which "
                    "does not exist. " + INSTALL_HINT
                ) from exc
            os.chown(base, user.pw_uid, user.pw_gid)
        server = cls(base, bindir, free_port(), run_as)
        try:
            server._mkdir(server.sockets)
            server._initdb()
            server.start()
        except BaseException:
            server.destroy()
            raise
        return server

    def _mkdir(self, path: Path) -> None:
        path.mkdir(mode=0o700)
        if self.run_as:
            user = pwd.getpwnam(self.run_as)
            os.chown(path, user.pw_uid, user.pw_gid)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.run_as:
            cmd = ["runuser", "-u", self.run_as, "--", *cmd]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C"
        result = subprocess.run(
            cmd,
            cwd=self.base,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        if check and result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
                + self._log_tail()
            )
        return result

    def _log_tail(self) -> str:
        try:
            return "\n--- postgres.log ---\n" + self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def _initdb(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.sockets}'",
            # Speed without losing a commit when the tests crash the server (stop -m
            # immediate): only an OS crash could lose data, and this is throwaway.
            # synchronous_commit stays on: a crash must keep every commit.
            "fsync": "off",
            "full_page_writes": "off",
            "max_connections": "100",
            "shared_buffers": "16MB",
            "logging_collector": "off",
        }
        conf = "".join(f"{k} = {v}\n" for k, v in settings.items())
        self._run("sh", "-c", f"cat >> '{self.data}/postgresql.conf' <<'EOF'\n{conf}EOF\n")

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            "start",
        )
        self._wait_ready()

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: connections are told and closed;
        ``immediate``: the server dies at once, as in a crash)."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self, mode: str = "fast", down_for: float = 0.0) -> None:
        """Stop the server, stay down ``down_for`` seconds, start it again
        (same port, same data)."""
        self.stop(mode)
        if down_for:
            time.sleep(down_for)
        self.start()

    def running(self) -> bool:
        """Whether pg_ctl sees a running server."""
        return (
            self._run(
                str(self.bindir / "pg_ctl"), "-D", str(self.data), "status", check=False
            ).returncode
            == 0
        )

    def destroy(self) -> None:
        """Stop the server (if it runs) and delete its folder."""
        try:
            if self.data.exists() and self.running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"PostgreSQL did not listen on 127.0.0.1:{self.port}" + self._log_tail()
                    ) from None
                time.sleep(0.05)

    # -- URLs and databases -------------------------------------------------

    def url_for(self, dbname: str) -> str:
        """The URL of one database of this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` database."""
        return self.url_for("postgres")

    def new_database(self, prefix: str = "t") -> str:
        """Create an empty database (so tests do not see each other's
        tables) and return its URL."""
        self._db_counter += 1
        name = f"{prefix}_{os.getpid()}_{self._db_counter}"
        self.psql("postgres", f'CREATE DATABASE "{name}"')
        return self.url_for(name)

    def psql(self, dbname: str, sql: str) -> str:
        """Run SQL through psycopg (autocommit) and return the first column
        of the rows, one per line."""
        import psycopg

        with psycopg.connect(self.url_for(dbname), autocommit=True) as conn:
            cur = conn.execute(sql)
            if cur.description is None:
                return ""
            return "\n".join(str(row[0]) for row in cur.fetchall())


@contextlib.contextmanager
def throwaway_server() -> Iterator[PgServer]:
    """``PgServer.create()`` for a fixture: PostgreSQL missing fails the test
    with the install hint (never a silent skip); destroyed on leaving."""
    try:
        server = PgServer.create()
    except PostgresMissing as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.destroy()
