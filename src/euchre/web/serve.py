"""Running the web server (`euchre serve`): uvicorn on a socket bound here.

Binding the socket before uvicorn starts lets ``--port 0`` pick a free port
and still print the exact address to open.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import fastapi  # noqa: F401  (the web extra must be installed)
import uvicorn

from .app import create_app
from .store import sqlite_path
from .workers import default_workers

__all__ = ["bind", "serve_main", "shown_url"]

#: The largest WebSocket frame uvicorn accepts; the server answers ``too_large``
#: to anything over 16 KiB below this and uvicorn closes the socket above it.
WS_MAX_SIZE = 1024 * 1024


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def shown_url(url: str) -> str:
    """A database URL fit to print: scheme, host, port and database only —
    no user, password or query parameters (which may hold a password)."""
    u = urlsplit(url)
    host = u.hostname or ""
    port = f":{u.port}" if u.port else ""
    return f"{u.scheme}://{host}{port}{u.path}"


def serve_main(
    *,
    host: str,
    port: int,
    db: str | None,
    data: str,
    bot_delay: float,
    bot_timeout: float = 5.0,
    bot_workers: int | None = None,
    docs: bool = True,
    allow_origins: Sequence[str] = (),
) -> int:
    """Serve until interrupted (SIGINT/SIGTERM); returns the exit status.

    ``docs`` False: no API docs (``--no-docs``); ``allow_origins``: other
    sites whose pages may open WebSockets (``--allow-origin``)."""
    if db is None:
        folder = Path(data)
        db = f"sqlite:///{(folder / 'euchre.db').resolve()}"
    elif not db.startswith(("postgresql://", "postgres://")):
        path = sqlite_path(db)
        db = f"sqlite:///{path.resolve()}"
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"euchre serve: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 1
    actual = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    where = db if db.startswith("sqlite") else shown_url(db)
    print(f"euchre: serving tables from {where}", flush=True)
    workers = default_workers() if bot_workers is None else bot_workers
    thinking = f"{workers} worker processes" if workers else "threads of this process"
    print(f"euchre: bots think in {thinking}", flush=True)
    print(f"euchre: open http://{shown}:{actual}/ in a browser", flush=True)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(db, bot_delay, bot_timeout, bot_workers, docs=docs, allow_origins=allow_origins),
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        timeout_graceful_shutdown=3,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return 0
