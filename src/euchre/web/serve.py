"""Running the web server (`euchre serve`): uvicorn on a socket bound here.

Binding the socket before uvicorn starts lets ``--port 0`` pick a free port
and still print the exact address to open. uvicorn's HTTP protocol is
extended by :class:`HeaderTimeout` to close connections whose request
headers never arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import fastapi  # noqa: F401  (the web extra must be installed)
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .app import create_app
from .limits import Limits
from .store import sqlite_path
from .workers import default_workers

__all__ = ["HeaderTimeout", "bind", "header_timeout_protocol", "serve_main", "shown_url"]

#: The largest WebSocket frame uvicorn accepts; the server answers ``too_large``
#: to anything over 16 KiB below this and uvicorn closes the socket above it.
WS_MAX_SIZE = 1024 * 1024


_TIMEOUT_TEXT = b"the request headers did not arrive in time\n"
#: What a client whose request headers are late is told, before the connection closes.
_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_TIMEOUT_TEXT), _TIMEOUT_TEXT)
)


class HeaderTimeout(HttpToolsProtocol):
    """uvicorn's httptools HTTP protocol, closing a connection whose request
    headers are not complete within :attr:`header_timeout` seconds.

    uvicorn times out only an idle keep-alive connection *between* requests
    (and any byte received stops that timer); a connection that never sends
    a byte, or sends a request line and then headers a byte at a time, is held
    open for ever, so a few thousand such sockets exhaust the server's file
    descriptors (slowloris). Here a timer runs from the moment the connection
    opens, and again from the first byte of each further request, until that
    request's headers are complete; then it is stopped, so a request's body
    (see ``middleware.BodyLimit``), its answer, a long-lived WebSocket and the
    keep-alive wait between requests are not affected. On timeout the client
    gets a plain ``408 Request Timeout`` and the connection is closed.
    """

    #: seconds the headers of a request may take (set by :func:`header_timeout_protocol`)
    header_timeout: ClassVar[float] = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """As uvicorn makes it, with no timer yet."""
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._on_timeout)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _on_timeout(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.write(_TIMEOUT_ANSWER)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request's headers are due in time."""
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        """The first byte of a request: its headers are due in time."""
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        """The headers are in (a WebSocket upgrade too): no more timer."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: so is its timer."""
        self._disarm()
        super().connection_lost(exc)


def header_timeout_protocol(seconds: float) -> type[HeaderTimeout]:
    """A :class:`HeaderTimeout` protocol class whose headers are due within ``seconds``."""
    return type("HeaderTimeout", (HeaderTimeout,), {"header_timeout": seconds})


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
    limits: Limits | None = None,
    docs: bool = True,
    allow_origins: Sequence[str] = (),
) -> int:
    """Serve until interrupted (SIGINT/SIGTERM); returns the exit status.

    ``limits``: the resource limits (None: the defaults of :class:`Limits`);
    ``docs`` False: no API docs (``--no-docs``); ``allow_origins``: other
    sites whose pages may open WebSockets (``--allow-origin``)."""
    limits = limits or Limits()
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
        create_app(
            db,
            bot_delay,
            bot_timeout,
            bot_workers,
            limits,
            docs=docs,
            allow_origins=allow_origins,
        ),
        http=header_timeout_protocol(limits.request_timeout),
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        timeout_graceful_shutdown=3,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return 0
