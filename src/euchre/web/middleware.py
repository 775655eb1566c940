"""ASGI middleware of the web server, and the protocol's HTTP error answer."""

from __future__ import annotations

import asyncio
from typing import Final

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "REQUEST_TIMEOUT", "BodyLimit", "error_response"]

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
