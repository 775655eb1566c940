"""ASGI middleware of the web server, and the protocol's HTTP error answer.

:class:`BodyLimit` caps request bodies; :class:`SecurityHeaders` puts the
security headers (Content-Security-Policy and friends) on every HTTP answer;
:class:`OriginCheck` refuses WebSocket handshakes from other sites' pages.
See docs/security.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "DOCS_POLICY",
    "MAX_BODY",
    "REQUEST_TIMEOUT",
    "BodyLimit",
    "OriginCheck",
    "SecurityHeaders",
    "error_response",
    "page_policy",
    "parse_origin",
]

log = logging.getLogger("euchre.web")

#: The largest HTTP request body accepted (bytes).
MAX_BODY: Final = 16 * 1024
#: The longest a request body may take to arrive (seconds; ``--request-timeout``).
REQUEST_TIMEOUT: Final = 10.0


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The protocol's HTTP error body."""
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


class _TooLarge(Exception):
    """The body went over the limit."""


class BodyLimit:
    """ASGI middleware: read an HTTP request's whole body before the app sees
    it, refusing one over ``limit`` bytes (413 ``too_large``), however it is
    sent (``Content-Length`` or chunked), and one that takes longer than
    ``timeout`` seconds to arrive (408 ``timeout``: a client that promised
    more than it sends). Both answers close the connection. The app then gets
    the body in one message, so nothing it does can outrun the limit."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, timeout: float = REQUEST_TIMEOUT
    ) -> None:
        """Wrap ``app``."""
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body (None: the client went away); _TooLarge over the limit."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            part = message.get("body", b"")
            size += len(part)
            if size > self.limit:
                raise _TooLarge
            parts.append(part)
            if not message.get("more_body", False):
                return b"".join(parts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body, then pass the request on with it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        close = {"Connection": "close"}
        too_large = error_response(
            413, "too_large", f"a request body may have at most {self.limit} bytes", close
        )
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_large(scope, receive, send)
            return
        try:
            body = await asyncio.wait_for(self._read(receive), self.timeout)
        except _TooLarge:
            await too_large(scope, receive, send)
            return
        except TimeoutError:
            slow = error_response(
                408, "timeout", f"the request body did not arrive within {self.timeout:g} s", close
            )
            await slow(scope, receive, send)
            return
        if body is None:
            return  # the client is gone: nobody to answer
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only http.disconnect comes

        await self.app(scope, replay, send)


# -- security headers -------------------------------------------------------------------------

#: The headers every HTTP answer gets besides the Content-Security-Policy:
#: no MIME sniffing, no framing by any page (old browsers; CSP
#: ``frame-ancestors`` for the others), and a Referer only to this site (its
#: own requests keep a meaningful ``Origin``, which ``no-referrer`` turns into
#: ``null`` on POSTs; other sites learn nothing, not even a table id).
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)

#: A Host header fit to name in the policy: a DNS name or IPv4 address, or a
#: bracketed IPv6 address, with an optional port (nothing that could end a directive).
_HOST: Final = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")


def page_policy(host: str | None = None) -> str:
    """The Content-Security-Policy of the pages (and of every answer but the docs).

    Scripts, styles and everything else come from this site only: no inline
    script, no inline style, no ``eval``. ``img-src`` also allows ``data:``
    (the pages' empty favicon). ``connect-src 'self'`` covers the page's own
    WebSocket in browsers following CSP 3 (Chromium, Firefox); ``host`` (the
    request's Host header) adds ``ws://host wss://host`` for older browsers,
    which match ``'self'`` to http(s) only — the same site either way, never
    any other WebSocket server."""
    connect = "'self'"
    if host is not None and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    )


#: The policy of the API docs pages (``/docs``, ``/redoc``): FastAPI's Swagger UI
#: and ReDoc pages load their scripts, styles and fonts from a CDN over https
#: and start with an inline script, so these pages allow https sources and
#: inline code; they hold no secret and run no game. ``euchre serve --no-docs``
#: removes them (docs/deployment.md).
DOCS_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https:; "
    "style-src 'self' 'unsafe-inline' https:; img-src 'self' data: https:; "
    "font-src 'self' https:; worker-src 'self' blob:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def _header(scope: Scope, name: bytes) -> str | None:
    """The first value of request header ``name`` (lower case), or None."""
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            text: str = value.decode("latin-1")
            return text
    return None


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer — pages,
    static files, the API, errors (a 500 too, when this is the outermost
    layer) and refused WebSocket handshakes. A header the answer already has
    is left alone. ``docs_paths`` get :data:`DOCS_POLICY`, the rest
    :func:`page_policy`."""

    def __init__(self, app: ASGIApp, docs_paths: Iterable[str] = ()) -> None:
        """Wrap ``app``."""
        self.app = app
        self.docs_paths = frozenset(docs_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, adding the headers to its answer."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope.get("path") in self.docs_paths:
            policy = DOCS_POLICY
        else:
            policy = page_policy(_header(scope, b"host"))
        extra = (*SECURITY_HEADERS, (b"content-security-policy", policy.encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers") or [])
                have = {bytes(key).lower() for key, _ in headers}
                headers.extend((key, value) for key, value in extra if key not in have)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- the WebSocket Origin check ---------------------------------------------------------------

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _origin_key(text: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an http(s) origin, the port made explicit;
    None if ``text`` is not one (``null``, another scheme, no host, a bad port)."""
    try:
        u = urlsplit(text.strip())
        port = u.port
    except ValueError:
        return None
    scheme = u.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not u.hostname:
        return None
    return scheme, u.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def parse_origin(text: str) -> str:
    """The canonical form (``scheme://host:port``) of an origin to allow, as
    ``euchre serve --allow-origin`` takes it: ``http`` or ``https``, a host,
    an optional port and nothing else (a trailing ``/`` is ignored).
    ValueError if it is not such a URL."""
    key = _origin_key(text)
    rest = urlsplit(text.strip())
    if key is None or rest.path not in ("", "/") or rest.query or rest.fragment or "@" in text:
        raise ValueError(f"want an origin such as https://cards.example.org, not {text!r}")
    scheme, host, port = key
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


class OriginCheck:
    """ASGI middleware: refuse a WebSocket handshake whose ``Origin`` header is
    present and is neither this server's own site nor in ``allowed``, before
    the socket is accepted: HTTP 403 with the protocol's error body
    (``bad_origin``). Its own site: an ``http`` or ``https`` origin whose host
    and port are those of the request's ``Host`` header. A handshake without
    ``Origin`` (not from a browser) is let through: the check keeps other
    sites' pages from driving a player's seat through their visitors' browsers.
    ``allowed``: origins as :func:`parse_origin` reads them."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        """Wrap ``app``."""
        self.app = app
        self.allowed = frozenset(_origin_key(parse_origin(text)) for text in allowed)

    def permits(self, origin: str, host: str | None) -> bool:
        """Whether a handshake with header ``Origin: origin`` and ``Host: host`` may go on."""
        key = _origin_key(origin)
        if key is None:
            return False
        if key in self.allowed:
            return True
        if host is None:
            return False
        try:
            served = urlsplit(f"//{host.strip()}")
            port = served.port
        except ValueError:
            return False
        scheme, name, origin_port = key
        return served.hostname == name and (port or _DEFAULT_PORTS[scheme]) == origin_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a foreign handshake; pass everything else on."""
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            host = _header(scope, b"host")
            if origin is not None and not self.permits(origin, host):
                log.info(
                    "refused a WebSocket from origin %r (Host %r): not this site "
                    "and not allowed (euchre serve --allow-origin)",
                    origin[:200],
                    (host or "")[:200],
                )
                await self._refuse(scope, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send) -> None:
        """HTTP 403 to the handshake (with the error body where the server can send one)."""
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 4403})  # the server answers 403
            return
        body = json.dumps(
            {
                "error": {
                    "code": "bad_origin",
                    "message": "a page of another site may not open this WebSocket",
                }
            }
        ).encode()
        await send(
            {
                "type": "websocket.http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})
