"""ASGI middleware of the web server, and the protocol's HTTP error answer."""

from __future__ import annotations

from typing import Final

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "BodyLimit", "error_response"]

#: The largest HTTP request body accepted (bytes).
MAX_BODY: Final = 16 * 1024


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The protocol's HTTP error body."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class BodyLimit:
    """ASGI middleware: refuse HTTP request bodies over ``limit`` bytes (413 too_large)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        """Wrap ``app``."""
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, counting its body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_large = error_response(
            413, "too_large", f"a request body may have at most {self.limit} bytes"
        )
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_large(scope, receive, send)
            return
        seen = 0
        started = False

        class TooLarge(Exception):
            pass

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise TooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except TooLarge:
            if not started:
                await too_large(scope, receive, send)
