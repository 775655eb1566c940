"""Load on the web table server: K concurrent tables played over WebSockets.

Starts ``euchre serve`` itself (a separate process, loopback only,
``--bot-delay 0``) on a fresh SQLite file or a throwaway PostgreSQL server
(tests/pgserver.py), then keeps ``--tables`` tables in play for ``--seconds``:
each table has one scripted person (seat 0, a WebSocket client choosing a
seeded random legal action as soon as it is its turn, after ``--think``
seconds) and bots of ``--bot-level`` in the other seats (default ``rule``; a
search level such as ``hard`` makes the server think: ``--bot-workers N`` is
passed to it, ``0`` for threads). A finished match is replaced by a new
table. Measured:

- ``actions_per_s``: accepted actions (the person's and the bots') per second;
- ``client_actions_per_s``: the people's actions per second;
- ``p50_ms`` / ``p99_ms``: round trip of a person's action — from sending it
  to receiving the state with the new ``seq``;
- ``errors``: error messages, failed connections and unanswered actions;
- ``fallbacks``: ``notice`` messages of a bot that did not decide within the
  server's ``--bot-timeout`` (or failed), so the rule bot played for it;
- ``lost``: acknowledged actions (a state with a later ``seq`` reached the
  client) missing from the database afterwards, or stored differently; read
  straight from the database once the server has stopped.

Everything stops by itself after ``--seconds`` (plus a few seconds to drain
and check). Usage::

    python bench/load.py --tables 500 --seconds 30 --db sqlite
    python bench/load.py --tables 500 --seconds 30 --db postgresql --json
    python bench/load.py --bot-level hard --tables 10 --think 3 --seconds 30

With ``--json`` exactly one JSON object is printed (``tables``,
``actions_per_s``, ``p50_ms``, ``p99_ms``, ``errors``, ``lost`` and more);
the progress line goes to standard error either way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # the tree the server is started from

from euchre.web.tables import BOT_LEVELS  # noqa: E402  (the server's bot levels)

sys.path.insert(0, str(ROOT / "tests"))
# one load client creates every table: lift the server's limits on table creation
from webserver import LOOSE_LIMITS  # noqa: E402

ADDRESS = re.compile(r"open (http://\S+?)/? in a browser")
#: The least time between two actions of one client (the server allows 20 a second).
MIN_GAP = 1 / 15


@dataclass
class Sent:
    """One action a client sent: the table, its seq, the text, when."""

    table_id: str
    seq: int
    action: str
    at: float


@dataclass
class Clock:
    """The start signal and the end of the measured time (set when all are ready)."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop_at: float = float("inf")
    ready: int = 0


@dataclass
class Stats:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)
    client_actions: int = 0
    errors: list[str] = field(default_factory=list)
    acked: list[Sent] = field(default_factory=list)
    #: the highest seq acknowledged per table (every entry below it is acknowledged)
    table_seq: dict[str, int] = field(default_factory=dict)
    #: the first seq each table showed its client (after the start signal)
    first_seq: dict[str, int] = field(default_factory=dict)
    tables_started: int = 0
    matches_over: int = 0
    #: bot_fallback notices (a bot over its time budget, or failed)
    fallbacks: int = 0


# -- the server ----------------------------------------------------------------------------


class Server:
    """``euchre serve`` in a process of its own."""

    def __init__(self, db: str, extra: list[str]) -> None:
        """Start serving ``db`` on a free loopback port."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"
        cmd = [sys.executable, "-m", "euchre", "serve", "--host", "127.0.0.1", "--port", "0"]
        cmd += ["--db", db, "--bot-delay", "0", *LOOSE_LIMITS, *extra]
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,
        )
        self.lines: list[str] = []
        found = threading.Event()
        box: list[str] = []

        def pump() -> None:
            assert self.proc.stdout is not None
            for line in iter(self.proc.stdout.readline, ""):
                self.lines.append(line)
                m = ADDRESS.search(line)
                if m and not box:
                    box.append(m.group(1))
                    found.set()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + 30
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("euchre serve did not start:\n" + "".join(self.lines))
        self.url = box[0].rstrip("/")
        self.ws_url = "ws" + self.url[len("http") :]

    def stop(self) -> None:
        """SIGTERM, then wait (SIGKILL after 15 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds of the server process so far (Linux), or None."""
        return _cpu_of(self.proc.pid)

    def workers_cpu_seconds(self) -> float:
        """User + system CPU seconds so far of the server's other processes (its
        bot workers and their fork server: its process group), those alive (Linux)."""
        total = 0.0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == self.proc.pid:
                continue
            try:
                if os.getpgid(int(entry.name)) != self.proc.pid:
                    continue
            except OSError:
                continue
            total += _cpu_of(int(entry.name)) or 0.0
        return total


def _cpu_of(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


# -- the clients ---------------------------------------------------------------------------


async def new_table(
    http: httpx.AsyncClient, variant: str, seats: int, level: str
) -> tuple[str, str]:
    """Create a table (seat 0 a person, the others bots of ``level``), join and start it."""
    bots: list[str | None] = [None] + [level] * (seats - 1)
    answer = await http.post("/api/tables", json={"rules": {"variant": variant}, "bots": bots})
    answer.raise_for_status()
    table_id = answer.json()["table_id"]
    joined = await http.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Load"})
    joined.raise_for_status()
    token = joined.json()["token"]
    started = await http.post(f"/api/tables/{table_id}/start", json={"token": token})
    started.raise_for_status()
    return table_id, token


async def one_table(
    http: httpx.AsyncClient,
    ws_url: str,
    variant: str,
    seats: int,
    level: str,
    rng: random.Random,
    think: float,
    clock: Clock,
    stats: Stats,
) -> None:
    """Play one table after another in this slot until ``clock.stop_at``; the first
    is set up before the clock starts."""
    first = True
    while first or time.monotonic() < clock.stop_at:
        try:
            table_id, token = await new_table(http, variant, seats, level)
        except (httpx.HTTPError, ValueError) as exc:
            stats.errors.append(f"create: {exc!r}")
            if first:
                clock.ready += 1
                return
            await asyncio.sleep(0.5)
            continue
        stats.tables_started += 1
        try:
            over = await play_table(
                ws_url, table_id, token, rng, think, clock, stats, wait_for_go=first
            )
        except Exception as exc:
            stats.errors.append(f"{table_id}: {exc!r}")
            if first:
                clock.ready += 1
            return
        first = False
        if not over:
            return
        stats.matches_over += 1


async def play_table(
    ws_url: str,
    table_id: str,
    token: str,
    rng: random.Random,
    think: float,
    clock: Clock,
    stats: Stats,
    *,
    wait_for_go: bool = False,
) -> bool:
    """Play seat 0 of a table until the match is over (True) or time is up (False)."""
    # no permessage-deflate on loopback: it would only cost CPU on both sides
    async with connect(f"{ws_url}/ws/{table_id}", max_size=4 * 1024 * 1024, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: Sent | None = None
        last_send = 0.0
        if wait_for_go:
            clock.ready += 1
            await clock.go.wait()
        while True:
            wait = clock.stop_at - time.monotonic()
            if pending is not None:
                wait = max(wait, pending.at + 10 - time.monotonic())
            if wait <= 0:
                return False
            try:
                raw = await asyncio.wait_for(ws.recv(), wait)
            except TimeoutError:
                if pending is not None:
                    stats.errors.append(f"{table_id}: no answer to {pending.action!r} in 10 s")
                return False
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                stats.errors.append(f"{table_id}: {message.get('code')}: {message.get('message')}")
                pending = None
                continue
            if kind == "notice" and message.get("code") == "bot_fallback":
                stats.fallbacks += 1
                continue
            if kind != "state":
                continue
            seq = message["seq"]
            stats.table_seq[table_id] = max(stats.table_seq.get(table_id, 0), seq)
            stats.first_seq.setdefault(table_id, seq)
            if pending is not None and seq > pending.seq:
                stats.latencies.append(now - pending.at)
                stats.acked.append(pending)
                stats.client_actions += 1
                pending = None
            if message["table"]["status"] == "over":
                return True
            view = message["view"]
            if pending is not None or view is None or view["to_act"] != message["seat"]:
                continue
            legal = view["legal"]
            if not legal or now >= clock.stop_at:
                continue
            if think > 0:
                await asyncio.sleep(think * (0.5 + rng.random()))
            # stay under the server's limit of 20 messages a second per socket
            gap = last_send + MIN_GAP - time.monotonic()
            if gap > 0:
                await asyncio.sleep(gap)
            last_send = time.monotonic()
            action = rng.choice(legal)
            pending = Sent(table_id, seq, action, time.monotonic())
            await ws.send(
                json.dumps({"type": "action", "token": token, "action": action, "seq": seq})
            )


# -- checking the store --------------------------------------------------------------------


def stored_entries(db: str, table_ids: list[str]) -> dict[str, dict[int, dict[str, Any]]]:
    """Every entry of these tables, read straight from the database."""
    out: dict[str, dict[int, dict[str, Any]]] = {t: {} for t in table_ids}
    if db.startswith("sqlite"):
        conn = sqlite3.connect(db[len("sqlite:///") - 1 :] if db.startswith("sqlite:///") else db)
        rows = conn.execute("SELECT table_id, seq, entry FROM actions").fetchall()
        conn.close()
        for table_id, seq, entry in rows:
            if table_id in out:
                out[table_id][seq] = json.loads(entry)
        return out
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        for table_id, seq, entry in conn.execute("SELECT table_id, seq, entry FROM actions"):
            if table_id in out:
                out[table_id][seq] = entry if isinstance(entry, dict) else json.loads(entry)
    return out


def count_lost(db: str, stats: Stats) -> tuple[int, int]:
    """(acknowledged actions missing or different in the store, entries checked)."""
    stored = stored_entries(db, list(stats.table_seq))
    lost = 0
    checked = 0
    for sent in stats.acked:
        entry = stored[sent.table_id].get(sent.seq)
        checked += 1
        if entry is None or entry.get("seat") != 0 or entry.get("action") != sent.action:
            lost += 1
    for table_id, top in stats.table_seq.items():
        # every entry below an acknowledged seq is acknowledged too (the bots' moves)
        have = stored[table_id]
        missing = [s for s in range(top) if s not in have]
        lost += len(missing)
        checked += top
    return lost, checked


# -- the run -------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values`` (0 if empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[rank]


def host_cpu() -> tuple[float, float] | None:
    """(busy, total) CPU jiffies of the whole machine so far (Linux), or None."""
    try:
        numbers = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = numbers[3] + (numbers[4] if len(numbers) > 4 else 0)
    return float(sum(numbers) - idle), float(sum(numbers))


def find_py_spy() -> str | None:
    """The py-spy program (on PATH or next to this Python), or None."""
    beside = Path(sys.executable).parent / "py-spy"
    return shutil.which("py-spy") or (str(beside) if beside.exists() else None)


def start_profiler(pid: int, seconds: float, out: str) -> subprocess.Popen[bytes]:
    """py-spy sampling process ``pid`` for ``seconds`` into ``out`` (collapsed stacks)."""
    spy = find_py_spy()
    assert spy is not None
    cmd = [spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds)))]
    cmd += ["--format", "raw", "--output", out, "--rate", "200"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def run_load(
    server: Server,
    tables: int,
    seconds: float,
    variant: str,
    think: float,
    seed: int,
    profile: str | None = None,
    level: str = "rule",
) -> tuple[Stats, float, dict[str, Any]]:
    """Run the clients; (stats, measured seconds, extra figures)."""
    seats = 3 if variant == "cutthroat" else 4
    stats = Stats()
    # Idle pooled connections are dropped before the server's keep-alive timeout
    # (uvicorn: 5 s), so a request never races the server closing its connection.
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64, keepalive_expiry=2.0)
    async with httpx.AsyncClient(
        base_url=server.url, timeout=60, limits=limits, trust_env=False
    ) as http:
        clock = Clock()
        tasks = [
            asyncio.create_task(
                one_table(
                    http,
                    server.ws_url,
                    variant,
                    seats,
                    level,
                    random.Random(seed * 100_003 + i),
                    think,
                    clock,
                    stats,
                )
            )
            for i in range(tables)
        ]
        setup = time.monotonic()
        while clock.ready < tables and not all(t.done() for t in tasks):
            await asyncio.sleep(0.1)
            print(
                f"\rsetting up: {clock.ready}/{tables} tables ready   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)
        setup = time.monotonic() - setup
        start = time.monotonic()
        clock.stop_at = start + seconds
        clock.go.set()
        spy = None if profile is None else start_profiler(server.proc.pid, seconds, profile)
        cpu0 = server.cpu_seconds()
        workers0 = server.workers_cpu_seconds()
        own0 = time.process_time()
        host0 = host_cpu()
        last = 0
        while not all(t.done() for t in tasks):
            await asyncio.wait(tasks, timeout=1.0)
            elapsed = time.monotonic() - start
            recent = stats.latencies[last:]
            last = len(stats.latencies)
            print(
                f"\r{elapsed:5.1f}s  tables {stats.tables_started}  "
                f"client actions {stats.client_actions}  "
                f"p99 (last second) {percentile(recent, 99) * 1000:.0f} ms  "
                f"errors {len(stats.errors)}   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)
        measured = min(time.monotonic(), clock.stop_at) - start
        cpu1 = server.cpu_seconds()
        workers1 = server.workers_cpu_seconds()
        own1 = time.process_time()
        host1 = host_cpu()
        if spy is not None:
            spy.wait(30)
    extra: dict[str, Any] = {
        "setup_s": round(setup, 2),
        "client_cpu_share": round((own1 - own0) / max(measured, 1e-9), 3),
    }
    if host0 is not None and host1 is not None and host1[1] > host0[1]:
        # how busy the whole machine was (server, clients, database, anything else)
        extra["host_cpu_busy"] = round((host1[0] - host0[0]) / (host1[1] - host0[1]), 3)
        extra["host_cores"] = os.cpu_count()
    if cpu0 is not None and cpu1 is not None:
        extra["server_cpu_share"] = round((cpu1 - cpu0) / max(measured, 1e-9), 3)
    # the bot workers (a worker replaced during the run takes its CPU time with it)
    extra["workers_cpu_share"] = round(max(0.0, workers1 - workers0) / max(measured, 1e-9), 3)
    return stats, measured, extra


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the figures (or one JSON object)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=50, help="concurrent tables (default 50)")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to play (default 10)")
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--variant", choices=("cutthroat", "partnership"), default="cutthroat")
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause of a person before acting, seconds (default 0: at once)",
    )
    ap.add_argument(
        "--bot-level",
        choices=BOT_LEVELS,
        default="rule",
        help="the bots in the other seats (default rule; a search level makes the server think)",
    )
    ap.add_argument(
        "--bot-workers",
        type=int,
        metavar="N",
        help="the server's --bot-workers (default: the server's, one per core; 0: threads)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--profile",
        metavar="FILE",
        help="sample the server with py-spy during the measured time (collapsed stacks to FILE)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if not 1 <= args.tables <= 2000:
        ap.error("--tables must be from 1 to 2000")
    if not 0 < args.seconds <= 600:
        ap.error("--seconds must be over 0 and at most 600")
    if not 0 <= args.think <= 30:
        ap.error("--think must be from 0 to 30")
    if args.bot_workers is not None and args.bot_workers < 0:
        ap.error("--bot-workers must be 0 or more")
    if args.profile and find_py_spy() is None:
        ap.error("--profile needs py-spy (pip install py-spy)")

    pg = None
    folder = tempfile.TemporaryDirectory(prefix="euchre-load-")
    try:
        if args.db == "sqlite":
            db = f"sqlite:///{Path(folder.name) / 'load.db'}"
        else:
            from pgserver import PgServer  # tests/ is on the path (above)

            pg = PgServer.create()
            db = pg.new_database("load")
        extra_args = [] if args.bot_workers is None else ["--bot-workers", str(args.bot_workers)]
        server = Server(db, extra_args)
        try:
            stats, measured, extra = asyncio.run(
                run_load(
                    server,
                    args.tables,
                    args.seconds,
                    args.variant,
                    args.think,
                    args.seed,
                    args.profile,
                    args.bot_level,
                )
            )
        finally:
            server.stop()
        lost, checked = count_lost(db, stats)
    finally:
        if pg is not None:
            pg.destroy()
        folder.cleanup()

    total = sum(top - stats.first_seq.get(t, 0) for t, top in stats.table_seq.items())
    result: dict[str, Any] = {
        "tables": args.tables,
        "seconds": round(measured, 2),
        "db": args.db,
        "variant": args.variant,
        "think_s": args.think,
        "bot_level": args.bot_level,
        "bot_workers": args.bot_workers,
        "actions_per_s": round(total / measured, 1),
        "client_actions_per_s": round(stats.client_actions / measured, 1),
        "p50_ms": round(percentile(stats.latencies, 50) * 1000, 2),
        "p99_ms": round(percentile(stats.latencies, 99) * 1000, 2),
        "max_ms": round(max(stats.latencies, default=0.0) * 1000, 2),
        "errors": len(stats.errors),
        "fallbacks": stats.fallbacks,
        "lost": lost,
        "entries_checked": checked,
        "tables_played": stats.tables_started,
        "matches_over": stats.matches_over,
        **extra,
    }
    if stats.errors:
        result["first_errors"] = stats.errors[:5]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:22} {value}")
    return 0 if not stats.errors and lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
