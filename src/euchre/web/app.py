"""The web table server (`euchre serve`): the FastAPI application and its routes.

The server is authoritative: the game lives here (:class:`euchre.web.tables.Game`)
and each client gets only its seat's view; a spectator only the public part
(RULES.md §6). Every accepted action is committed to the store **before** anyone
is told; the in-memory table is a cache refreshed from the store whenever the
store reports a change (another process sharing a PostgreSQL database, too), so
several processes can serve the same tables. See docs/protocol.md.

The parts: :mod:`~euchre.web.messages` (the protocol's messages as pydantic
models), :mod:`~euchre.web.middleware` (the body limit, the security headers,
the WebSocket Origin check, the error answer),
:mod:`~euchre.web.live` (a table's clients, cache and bots),
:mod:`~euchre.web.server` (all tables of the process, the WebSocket conversation).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from ..bots import DEFAULT_LEVEL, SEARCH_LEVELS
from ..record import RecordError, read_hand
from ..review import review_json
from ..rules import OPTIONS, VARIANTS, Rules, RulesError
from .limits import Limits
from .live import Client
from .messages import (
    CreateTable,
    ErrorBody,
    JoinSeat,
    RematchTable,
    StartTable,
    describe_errors,
)
from .middleware import BodyLimit, OriginCheck, SecurityHeaders, error_response
from .server import TableServer
from .store import open_store
from .tables import TableError, new_meta

__all__ = ["ERROR_RESPONSES", "create_app", "options_description"]

log = logging.getLogger("euchre.web")

STATIC_DIR: Final = Path(__file__).parent / "static"


#: The error answers every route may give, for the OpenAPI schema.
ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in [
        (400, "bad_request, bad_json or bad_record"),
        (403, "bad_token or not_host"),
        (404, "not_found"),
        (405, "method_not_allowed"),
        (408, "timeout (the request body did not arrive in time)"),
        (409, "seat_taken or not_over"),
        (410, "expired (the table waited too long for its start)"),
        (413, "too_large"),
        (429, "rate_limited (too many new tables from one address)"),
        (503, "busy (too many tables waiting or created)"),
    ]
}


def options_description() -> list[dict[str, Any]]:
    """Every ``Rules`` option but ``variant`` with its default and its choices
    (or type), and the variants it applies to when not all (``rules.OPTIONS``)."""
    out = []
    for opt in OPTIONS:
        if opt.name == "variant":
            continue
        item: dict[str, Any] = {"name": opt.name, "default": opt.default}
        if opt.kind == "choice":
            item["choices"] = list(opt.choices)
        elif opt.kind == "bool":
            item["type"] = "boolean"
        else:
            item.update(type="integer", minimum=1)
        if opt.variants != VARIANTS:
            item["variants"] = list(opt.variants)
        out.append(item)
    return out


class _SecuredApp(FastAPI):
    """FastAPI with :class:`~euchre.web.middleware.SecurityHeaders` outside
    everything, Starlette's error layer too, so that a 500 has the headers."""

    def build_middleware_stack(self) -> ASGIApp:
        """FastAPI's stack, wrapped in the security headers (the docs pages: their policy)."""
        docs = {self.docs_url, self.redoc_url, self.swagger_ui_oauth2_redirect_url}
        docs_paths = {path for path in docs if path} if self.openapi_url else set()
        return SecurityHeaders(super().build_middleware_stack(), docs_paths=docs_paths)


def create_app(
    db: str,
    bot_delay: float = 0.6,
    bot_timeout: float = 5.0,
    bot_workers: int | None = None,
    limits: Limits | None = None,
    *,
    docs: bool = True,
    allow_origins: Sequence[str] = (),
) -> FastAPI:
    """The FastAPI application serving the tables of the store at URL ``db``
    (``bot_workers``: the bot pool's processes; None: one per core, 0: threads;
    ``limits``: the resource limits, None: the defaults).

    ``docs`` False: no ``/docs``, ``/redoc`` nor ``/openapi.json``.
    ``allow_origins``: the origins besides the served site whose pages may
    open a WebSocket (:class:`~euchre.web.middleware.OriginCheck`)."""
    limits = limits or Limits()
    server = TableServer(open_store(db), bot_delay, bot_timeout, bot_workers, limits)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    off: dict[str, Any] = {} if docs else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = _SecuredApp(
        title="euchre",
        summary="The Euchre web table",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
        **off,
    )
    app.state.server = server
    app.add_middleware(BodyLimit, timeout=limits.request_timeout)
    app.add_middleware(OriginCheck, allowed=allow_origins)

    @app.exception_handler(TableError)
    async def on_table_error(_request: Request, exc: TableError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "bad_json", "the request body is not JSON")
        return error_response(400, "bad_request", describe_errors(errors))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        return error_response(exc.status_code, code, str(exc.detail))

    def page(name: str) -> Response:
        path = STATIC_DIR / name
        if not path.is_file():
            return error_response(404, "not_found", f"the page {name} is not installed")
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page("table.html")

    @app.get("/review", include_in_schema=False)
    async def review_page() -> Response:
        return page("review.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up."""
        return {"ok": True}

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """Every rule option with the rule book's default; the bot levels; the variants."""
        return {
            "options": options_description(),
            "bot_levels": list(SEARCH_LEVELS),
            "default_bot_level": DEFAULT_LEVEL,
            "variants": list(VARIANTS),
        }

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        """The public summaries of the tables not finished."""
        return {"tables": await server.summaries()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table: rules (with ``variant``), a bot level per seat, a name.
        Limited per peer address and overall (429 ``rate_limited``, 503 ``busy``)."""
        options = dict(body.rules)
        variant = options.pop("variant", "cutthroat")
        try:
            rules = Rules.from_options(variant, options)
        except (RulesError, TypeError) as exc:
            raise TableError("bad_request", f"rules: {exc}") from exc
        address = request.client.host if request.client is not None else None
        bot_seats = body.bot_seats or []
        player = None if body.player is None else (body.player.seat, body.player.name)
        if player is not None and player[0] in bot_seats:
            raise TableError("bad_request", f"player: seat {player[0]} is one of the bot_seats")
        table, token = await server.create_seated(
            lambda table_id: new_meta(table_id, rules, body.bots, body.name, bot_seats=bot_seats),
            address,
            player,
        )
        answer: dict[str, Any] = {
            "table_id": table.table_id,
            "invite": f"/t/{table.table_id}",
            "table": table.game.summary(),
        }
        if player is not None:
            answer.update(seat=player[0], token=token)
        return answer

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        """The public table summary, with the seats connected now (``connected``)."""
        table = await server.need(table_id)
        return {**table.game.summary(), "connected": table.connected()}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinSeat) -> dict[str, Any]:
        """Take an empty seat; the answer holds the secret seat token."""
        table = await server.need(table_id)
        token = await table.join(body.seat, body.name)
        return {"seat": body.seat, "token": token}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, body: StartTable) -> dict[str, Any]:
        """Start the game (the host, or any seated person on a table without a
        host): bots fill the empty seats."""
        table = await server.need(table_id)
        await table.start(body.token)
        return table.game.summary()

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: RematchTable, request: Request) -> dict[str, Any]:
        """A new match with the same rules and seats, for a player of this finished
        one: the first to ask creates it (and hosts it), the others join their kept
        seats; the answer holds the asker's new secret seat token."""
        table = await server.need(table_id)
        address = request.client.host if request.client is not None else None
        new, seat, token = await table.rematch(body.token, address)
        return {
            "table_id": new.table_id,
            "invite": f"/t/{new.table_id}",
            "seat": seat,
            "token": token,
            "table": new.game.summary(),
        }

    @app.get("/api/tables/{table_id}/hands/{index}")
    async def hand(table_id: str, index: int) -> dict[str, Any]:
        """The record of a finished hand (404 until it is over)."""
        return (await server.need(table_id)).game.hand_record(index)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The match record of the hands that are over."""
        return (await server.need(table_id)).game.match_record()

    # -- the hand review (the solver's value of each card played) ---------------------
    #: at most two reviews solve at once (each takes milliseconds in C; the body
    #: limit bounds the record to one hand of five tricks)
    review_slots = asyncio.Semaphore(2)

    @app.post(
        "/api/review",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )
    async def review(request: Request) -> dict[str, Any]:
        """Review a finished hand record: its calls, the solver's review, and every
        card played with the value of each legal card (400 ``bad_record`` naming
        the action that does not replay)."""
        try:
            obj = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: too deep
            raise TableError("bad_json", "the request body is not JSON") from None
        try:
            state = read_hand(obj)
        except RecordError as exc:
            raise TableError("bad_record", str(exc)) from None
        if not state.is_over:
            raise TableError(
                "bad_record",
                f"the hand is not over ({len(state.history)} actions): nothing to review",
            )
        async with review_slots:
            return await asyncio.to_thread(review_json, state)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        client = Client(websocket)
        writer = asyncio.create_task(client.writer())
        table = await server.get(table_id)
        closing: int | None = None
        try:
            if table is None:
                client.error("not_found", f"no table {table_id!r}")
                return
            table.clients.add(client)
            deadline = time.monotonic() + limits.hello_timeout
            while True:
                if client.hello:
                    message = await websocket.receive()
                else:  # a socket must say hello (successfully) in time
                    try:
                        message = await asyncio.wait_for(
                            websocket.receive(), max(0.0, deadline - time.monotonic())
                        )
                    except TimeoutError:
                        client.error(
                            "timeout", f"no hello within {limits.hello_timeout:g} s: closing"
                        )
                        closing = 4408
                        break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    raw = message.get("bytes") or b""
                    try:
                        text = raw.decode()
                    except UnicodeDecodeError:
                        client.error("bad_json", "the message is not UTF-8 JSON text")
                        continue
                had_hello = client.hello
                await server.handle(table, client, text)
                if had_hello and not client.hello:
                    # a bad hello took its seat away: a new hello is due in time, from now
                    deadline = time.monotonic() + limits.hello_timeout
        except Exception:
            log.debug("websocket closed", exc_info=True)
        finally:
            if table is not None:
                table.clients.discard(client)
            client.outbox.put_nowait(None)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 2)
            if table is None:
                closing = 4404
            if closing is not None:
                with contextlib.suppress(Exception):
                    await websocket.close(code=closing)

    return app
