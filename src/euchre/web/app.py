"""The web table server (`euchre serve`): FastAPI routes, WebSocket play, bots.

The server is authoritative: the game lives here (:class:`euchre.web.tables.Game`)
and each client gets only its seat's view; a spectator only the public part
(RULES.md §6). Every accepted action is committed to the store **before** anyone
is told; the in-memory table is a cache refreshed from the store whenever the
store reports a change (another process sharing a PostgreSQL database, too), so
several processes can serve the same tables. See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import json
import logging
import random
import re
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..bots import DEFAULT_LEVEL, SEARCH_LEVELS, SearchBot
from ..review import review_hand
from ..rules import OPTIONS, VARIANTS, Rules, RulesError
from .store import Store, StoreConflict, open_store
from .tables import STOP_TEST_BOTS, Game, TableError, derive_seed, new_meta

__all__ = ["MAX_BODY", "MAX_MESSAGE", "RATE_PER_SECOND", "TableServer", "create_app"]

log = logging.getLogger("euchre.web")

#: The largest HTTP request body and WebSocket message accepted (bytes).
MAX_BODY: Final = 16 * 1024
MAX_MESSAGE: Final = 16 * 1024
#: WebSocket messages a socket may send per second (a burst of as many is allowed).
RATE_PER_SECOND: Final = 20.0
#: A table id: what ``secrets.token_urlsafe`` writes.
TABLE_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
STATIC_DIR: Final = Path(__file__).parent / "static"
#: The level of the search bot that gives hints: the players' default level.
HINT_LEVEL: Final = DEFAULT_LEVEL

#: The table this task is writing to the store right now: the store tells its
#: subscribers of a commit before the write returns, and a process need not catch
#: up with its own write (it applies it itself). A contextvar, so a notification
#: from another process (the PostgreSQL listener is a task of its own) is never
#: mistaken for one's own.
_WRITING: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "euchre_writing", default=None
)


@contextlib.contextmanager
def own_write(table_id: str) -> Iterator[None]:
    """Mark the store writes in this block as this task's own, for ``table_id``."""
    token = _WRITING.set(table_id)
    try:
        yield
    finally:
        _WRITING.reset(token)


#: The fields each client message type may (and must) have.
MESSAGE_FIELDS: Final = {
    "hello": {"type", "token"},
    "action": {"type", "token", "action", "seq"},
    "hint": {"type", "token"},
    "ping": {"type"},
}


# -- the clients ---------------------------------------------------------------------------


class Client:
    """One WebSocket: its seat (after ``hello``), its outbox and its rate budget."""

    def __init__(self, websocket: WebSocket) -> None:
        """A client not yet said hello."""
        self.websocket = websocket
        self.hello = False
        self.seat: int | None = None
        self.token: str | None = None
        self.last: str | None = None  # the last state sent, as JSON text without its seq
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.budget = RATE_PER_SECOND
        self.stamp = time.monotonic()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (the writer task sends them in order)."""
        self.outbox.put_nowait(json.dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON text."""
        self.outbox.put_nowait(text)

    def error(self, code: str, message: str) -> None:
        """Queue an ``error`` message for this client only."""
        self.send({"type": "error", "code": code, "message": message})

    def allow(self) -> bool:
        """Take one message from the rate budget (a token bucket); False when it is empty."""
        now = time.monotonic()
        self.budget = min(RATE_PER_SECOND, self.budget + (now - self.stamp) * RATE_PER_SECOND)
        self.stamp = now
        if self.budget < 1.0:
            return False
        self.budget -= 1.0
        return True

    async def writer(self) -> None:
        """Send queued messages until a None arrives or the socket fails."""
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            try:
                await self.websocket.send_text(text)
            except Exception:
                return


# -- one live table ------------------------------------------------------------------------


class LiveTable:
    """A table held in memory: the replayed :class:`Game`, its clients and its bot task."""

    def __init__(self, server: TableServer, game: Game) -> None:
        """Wrap a replayed game."""
        self.server = server
        self.table_id = game.table_id
        self.game = game
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.reviews: dict[int, str | None] = {}
        self.hints: dict[tuple[int, int], list[dict[str, Any]]] = {}
        #: seats whose bot failed (raised or took too long): the rule bot plays them
        #: for the rest of the match (in this process; what they played is stored)
        self.fallback: set[int] = set()
        #: (game, what the summary and last hand depend on, their JSON text)
        self._shared: tuple[Game, tuple[object, ...], str] | None = None

    @property
    def store(self) -> Store:
        """The server's store."""
        return self.server.store

    # -- keeping the cache current ---------------------------------------------------
    async def _reload_locked(self) -> None:
        loaded = await self.store.load_table(self.table_id)
        if loaded is not None:
            self.game = Game.replay(*loaded)

    async def _refresh_locked(self) -> None:
        """Catch up with the store (call with the lock held)."""
        meta = await self.store.load_meta(self.table_id)
        if meta is None:
            return
        if meta != self.game.meta:
            await self._reload_locked()
            return
        entries = await self.store.entries_since(self.table_id, self.game.seq)
        try:
            for entry in entries:
                self.game.apply_entry(entry)
        except ValueError:
            log.exception("table %s: entries do not replay; reloading", self.table_id)
            await self._reload_locked()

    async def sync(self) -> None:
        """Catch up with the store and tell the clients (the store said it changed)."""
        async with self.lock:
            await self._refresh_locked()
        await self.after_change()

    async def after_change(self) -> None:
        """Review a newly finished hand, mark a won match, tell clients, wake the bots."""
        game = self.game
        hands = game.match.hands
        if hands and len(hands) - 1 not in self.reviews:
            index = len(hands) - 1
            state = hands[index]
            names = game.names
            try:
                review = await asyncio.to_thread(review_hand, state)
                self.reviews[index] = None if review is None else review.summary(names)
            except Exception:
                log.exception("table %s: review of hand %d failed", self.table_id, index)
                self.reviews[index] = None
        if game.match.is_over and game.meta["status"] != "over":
            async with self.lock:
                if self.game.match.is_over and self.game.meta["status"] != "over":
                    self.game.meta["status"] = "over"
                    with own_write(self.table_id):
                        await self.store.save_meta(self.table_id, self.game.meta)
        self.broadcast()
        self.wake_bots()

    # -- telling the clients -----------------------------------------------------------
    def shared_text(self) -> str:
        """The JSON members of a ``state`` message that every client gets alike
        (``table``, ``public``, ``last_hand``), written once per change; the summary
        and the last hand change only between hands, so they are kept till then."""
        game = self.game
        hands = len(game.match.hands)
        review = self.reviews.get(hands - 1)
        key = (game.status, game.meta["status"], hands, review)
        cached = self._shared
        if cached is None or cached[0] is not game or cached[1] != key:
            last = game.last_hand(review)
            text = f'"table": {json.dumps(game.summary())}, "last_hand": {json.dumps(last)}'
            cached = self._shared = (game, key, text)
        return f'"public": {json.dumps(game.public())}, {cached[2]}'

    def state_body(self, client: Client, shared: str) -> str:
        """The ``state`` message for one client (only its seat's view), as JSON
        members without ``type`` and ``seq``: what decides whether it changed."""
        view = self.game.view(client.seat) if client.seat is not None else None
        view_text = "null" if view is None else json.dumps(view.to_json())
        return f'"seat": {json.dumps(client.seat)}, "view": {view_text}, {shared}'

    def _state_text(self, body: str) -> str:
        return f'{{"type": "state", "seq": {self.game.seq}, {body}}}'

    def send_state(self, client: Client, *, force: bool = False) -> None:
        """Send ``client`` the state, unless (``force`` off) it saw the same already."""
        body = self.state_body(client, self.shared_text())
        if force or body != client.last:
            client.last = body
            client.send_text(self._state_text(body))

    def broadcast(self) -> None:
        """Send every client that said hello the state, if it changed for it.

        A change another seat may not see (the maker's bare ``keep``) leaves that
        seat's message as it was, so it is not sent: nothing leaks by its timing.
        The parts all clients share are written to JSON once, each view once."""
        clients = [c for c in self.clients if c.hello]
        if not clients:
            return
        shared = self.shared_text()
        for client in clients:
            body = self.state_body(client, shared)
            if body != client.last:
                client.last = body
                client.send_text(self._state_text(body))

    # -- people ---------------------------------------------------------------------------
    async def join(self, seat: int, name: str) -> str:
        """Seat a person (table waiting); the secret token."""
        async with self.lock:
            await self._refresh_locked()
            if self.game.status != "waiting":
                raise TableError("seat_taken", "the game has started", 409)
            game = Game(copy.deepcopy(self.game.meta))
            token = game.join(seat, name)
            with own_write(self.table_id):
                await self.store.save_meta(self.table_id, game.meta)
            self.game = game
        await self.after_change()
        return token

    async def start(self, token: str) -> None:
        """Start the game (a seated person's token): bots fill the empty seats, first deal."""
        async with self.lock:
            await self._refresh_locked()
            if self.game.seat_of(token) is None:
                raise TableError("bad_token", "that is not the token of a seat here", 403)
            if self.game.status == "waiting":
                game = Game(copy.deepcopy(self.game.meta))
                game.start()
                with own_write(self.table_id):
                    await self.store.save_meta(self.table_id, game.meta)
                self.game = game
        await self.after_change()

    async def act(self, seat: int, text: str, seq: int) -> None:
        """``seat`` does the action written ``text`` on the state numbered ``seq``.

        Committed to the store before anyone is told; TableError if refused."""
        async with self.lock:
            game = self.game
            if game.status == "waiting":
                raise TableError("not_started", "the game has not started")
            if seq != game.seq:
                raise TableError("stale", f"the table is at seq {game.seq}, not {seq}")
            action = game.parse(text)
            for _attempt in range(3):
                entry = self.game.check(seat, action)
                try:
                    with own_write(self.table_id):
                        await self.store.append_action(self.table_id, self.game.seq, entry)
                except StoreConflict:
                    # another process was first: catch up, then see if it still stands
                    await self._refresh_locked()
                    try:
                        self.game.check(seat, action)
                    except TableError as exc:
                        raise TableError(
                            "stale", f"another move came first: {exc.message}"
                        ) from exc
                    continue
                self.game.apply_entry(entry)
                break
            else:
                raise TableError("stale", "the table is busy; try again")
        await self.after_change()

    async def hint(self, seat: int) -> list[dict[str, Any]]:
        """The search bot's suggestions for ``seat``'s current decision."""
        game = self.game
        view = game.view(seat)
        if view is None or game.status != "playing" or view.to_act != seat:
            raise TableError("not_your_turn", "a hint is for the seat to act")
        key = (game.seq, seat)
        cached = self.hints.get(key)
        if cached is not None:
            return cached
        bot = SearchBot(random.Random(derive_seed(game.seed, "hint", game.seq)), level=HINT_LEVEL)
        ranked = await asyncio.to_thread(bot.suggest, view)
        hint = [{"action": str(a), "points": round(float(p), 3)} for a, p in ranked]
        self.hints = {key: hint}  # only the latest decision's hint is worth keeping
        return hint

    # -- bots ------------------------------------------------------------------------------
    def wake_bots(self) -> None:
        """Start the bot task if a bot is to act and none runs."""
        if self.server.closing or self.game.bot_to_act() is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.create_task(self._run_bots())

    async def _bot_decision(self, game: Game) -> dict[str, Any] | None:
        """The entry of the bot to act, in a worker thread; if the bot raises or takes
        longer than ``bot_timeout`` seconds, the rule bot decides on the same view and
        plays that seat from then on. Only the chosen entry is stored, so a replay
        never runs a bot again and the fallback cannot change a replayed game.

        The rule bot itself decides in well under a millisecond: it runs here, on
        the event loop (a worker thread would cost more than the decision)."""
        seat = game.bot_to_act()
        if seat is None:
            return None
        level = game.seats[seat]["level"]
        if level == "rule":
            return game.bot_entry()
        if seat not in self.fallback:
            try:
                return await asyncio.wait_for(
                    asyncio.to_thread(game.bot_entry), self.server.bot_timeout
                )
            except TimeoutError:
                log.warning(
                    "table %s: the %s bot of seat %d took over %gs at seq %d; "
                    "the rule bot plays that seat from now on",
                    self.table_id,
                    level,
                    seat,
                    self.server.bot_timeout,
                    game.seq,
                )
            except Exception:
                log.exception(
                    "table %s: the %s bot of seat %d failed at seq %d; "
                    "the rule bot plays that seat from now on",
                    self.table_id,
                    level,
                    seat,
                    game.seq,
                )
            self.fallback.add(seat)
        return game.bot_entry("rule")

    async def _run_bots(self) -> None:
        """Play the bots' turns (after the pace delay) until a person is to act."""
        try:
            while not self.server.closing:
                game = self.game
                if game.bot_to_act() is None:
                    return
                seq = game.seq
                await asyncio.sleep(self.server.bot_delay)
                if self.game is not game or game.seq != seq:
                    continue  # something changed meanwhile: look again
                entry = await self._bot_decision(game)
                if entry is None:
                    continue
                async with self.lock:
                    if self.game is not game or game.seq != seq:
                        continue
                    try:
                        with own_write(self.table_id):
                            await self.store.append_action(self.table_id, seq, entry)
                    except StoreConflict:
                        # another process played this move first: catch up
                        await self._refresh_locked()
                        continue
                    game.apply_entry(entry)
                await self.after_change()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bots stopped", self.table_id)


# -- all tables ------------------------------------------------------------------------------


class TableServer:
    """The tables of one server process and the store they live in."""

    def __init__(self, store: Store, bot_delay: float = 0.6, bot_timeout: float = 5.0) -> None:
        """Serve the tables of ``store``; bots wait ``bot_delay`` seconds before acting
        and may think ``bot_timeout`` seconds (then the rule bot decides for them)."""
        self.store = store
        self.bot_delay = bot_delay
        self.bot_timeout = bot_timeout
        self.tables: dict[str, LiveTable] = {}
        self.closing = False
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Open the store, listen for changes, and resume every table in play."""
        STOP_TEST_BOTS.clear()
        await self.store.open()
        await self.store.subscribe(self._on_change)
        for table_id, meta in await self.store.list_tables():
            if meta.get("status") == "playing":
                try:
                    await self.get(table_id)
                except Exception:
                    log.exception("table %s does not replay", table_id)

    async def stop(self) -> None:
        """Stop the bots and close the store."""
        self.closing = True
        STOP_TEST_BOTS.set()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.store.close()
        log.info("stopped: every table is saved")

    async def _on_change(self, table_id: str) -> None:
        """The store says a table changed (maybe in another process): catch up, later."""
        if self.closing or _WRITING.get() == table_id:
            return  # closing, or this task's own write (it applies the change itself)
        task = asyncio.create_task(self._catch_up(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, table_id: str) -> None:
        try:
            table = self.tables.get(table_id)
            if table is None:
                await self.get(table_id)
            else:
                await table.sync()
        except Exception:
            log.exception("table %s: catching up failed", table_id)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (loaded and replayed on first use), or None if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not TABLE_ID.match(table_id):
            return None
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            loaded = await self.store.load_table(table_id)
            if loaded is None:
                return None
            table = LiveTable(self, Game.replay(*loaded))
            self.tables[table_id] = table
        await table.after_change()
        return table

    async def need(self, table_id: str) -> LiveTable:
        """The live table; TableError not_found if unknown."""
        table = await self.get(table_id)
        if table is None:
            raise TableError("not_found", f"no table {table_id!r}", 404)
        return table

    async def create(
        self, rules: Rules, levels: list[str | None] | None, name: str | None
    ) -> LiveTable:
        """A new table waiting for players."""
        for _ in range(5):
            table_id = secrets.token_urlsafe(6)
            meta = new_meta(table_id, rules, levels, name)
            try:
                with own_write(table_id):
                    await self.store.create_table(table_id, meta)
            except ValueError:
                continue  # the id was taken (very unlikely): draw another
            table = LiveTable(self, Game(meta))
            self.tables[table_id] = table
            return table
        raise TableError("busy", "could not find a free table id", 503)

    async def summaries(self) -> list[dict[str, Any]]:
        """The public summaries of the tables not finished (newest first)."""
        out = []
        for table_id, meta in await self.store.list_tables():
            if meta.get("status") == "over":
                continue
            table = self.tables.get(table_id)
            if table is None and meta.get("status") == "waiting":
                out.append(Game(meta).summary())
                continue
            table = table or await self.get(table_id)
            if table is not None and table.game.status != "over":
                out.append(table.game.summary())
            if len(out) >= 200:
                break
        return out

    # -- the WebSocket conversation ---------------------------------------------------------
    async def handle(self, table: LiveTable, client: Client, text: str) -> None:
        """One message from a client: answer it or send it an error (table unchanged)."""
        if not client.allow():
            client.error("rate_limited", f"at most {RATE_PER_SECOND:g} messages a second")
            return
        if len(text.encode()) > MAX_MESSAGE:
            client.error("too_large", f"a message may have at most {MAX_MESSAGE} bytes")
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            client.error("bad_json", "the message is not JSON")
            return
        try:
            await self._dispatch(table, client, data)
        except TableError as exc:
            client.error(exc.code, exc.message)

    async def _dispatch(self, table: LiveTable, client: Client, data: object) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise TableError("bad_message", 'a message is a JSON object with a string "type"')
        kind = data["type"]
        allowed = MESSAGE_FIELDS.get(kind)
        if allowed is None:
            raise TableError(
                "bad_message", f"unknown type {kind!r} (want one of {', '.join(MESSAGE_FIELDS)})"
            )
        missing = allowed - set(data)
        unknown = set(data) - allowed
        if missing or unknown:
            parts = []
            if missing:
                parts.append("missing " + ", ".join(sorted(missing)))
            if unknown:
                parts.append("unknown " + ", ".join(sorted(unknown)))
            raise TableError("bad_message", f"{kind}: {'; '.join(parts)}")
        if kind == "ping":
            client.send({"type": "pong"})
            return
        token = data["token"]
        if kind == "hello":
            if token is not None and not isinstance(token, str):
                raise TableError("bad_message", "hello: token must be a string or null")
            seat = None
            if token is not None:
                await table.sync()  # a seat taken in another process
                seat = table.game.seat_of(token)
                if seat is None:
                    raise TableError("bad_token", "that is not the token of a seat here")
            client.seat, client.token, client.hello = seat, token, True
            table.send_state(client, force=True)
            return
        if not isinstance(token, str):
            raise TableError("bad_message", f"{kind}: token must be a string")
        if not client.hello:
            raise TableError("bad_message", "say hello first")
        if client.token is None or token != client.token:
            raise TableError(
                "bad_token", "the token is not the one this connection said hello with"
            )
        assert client.seat is not None
        if kind == "hint":
            client.send(
                {"type": "hint", "seq": table.game.seq, "suggest": await table.hint(client.seat)}
            )
            return
        action, seq = data["action"], data["seq"]
        if not isinstance(action, str):
            raise TableError("bad_message", "action: action must be a string")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise TableError("bad_message", "action: seq must be an integer")
        if len(action) > 100:
            raise TableError("illegal", "that is not an action")
        await table.act(client.seat, action, seq)


# -- HTTP ------------------------------------------------------------------------------------


class CreateTable(BaseModel):
    """``POST /api/tables``: the rules (``variant`` and options), bot levels, a name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rules: dict[str, Any] = {}
    bots: list[str | None] | None = None
    name: str | None = None


class JoinSeat(BaseModel):
    """``POST /api/tables/{id}/join``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int
    name: str


class StartTable(BaseModel):
    """``POST /api/tables/{id}/start``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str


class ErrorDetail(BaseModel):
    """The ``error`` of an HTTP error answer: a protocol code and a message."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every HTTP error answer: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


#: The error answers every route may give, for the OpenAPI schema.
ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in [
        (400, "bad_request or bad_json"),
        (403, "bad_token"),
        (404, "not_found"),
        (405, "method_not_allowed"),
        (409, "seat_taken"),
        (413, "too_large"),
        (503, "busy"),
    ]
}


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


def create_app(db: str, bot_delay: float = 0.6, bot_timeout: float = 5.0) -> FastAPI:
    """The FastAPI application serving the tables of the store at URL ``db``."""
    server = TableServer(open_store(db), bot_delay, bot_timeout)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(
        title="euchre",
        summary="The Euchre web table",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
    )
    app.state.server = server
    app.add_middleware(BodyLimit)

    @app.exception_handler(TableError)
    async def on_table_error(_request: Request, exc: TableError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "bad_json", "the request body is not JSON")
        parts = []
        for e in errors[:3]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
        return error_response(400, "bad_request", "; ".join(parts))

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
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Create a table: rules (with ``variant``), a bot level per seat, a name."""
        options = dict(body.rules)
        variant = options.pop("variant", "cutthroat")
        try:
            rules = Rules.from_options(variant, options)
        except (RulesError, TypeError) as exc:
            raise TableError("bad_request", f"rules: {exc}") from exc
        table = await server.create(rules, body.bots, body.name)
        return {
            "table_id": table.table_id,
            "invite": f"/t/{table.table_id}",
            "table": table.game.summary(),
        }

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        """The public table summary."""
        return (await server.need(table_id)).game.summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinSeat) -> dict[str, Any]:
        """Take an empty seat; the answer holds the secret seat token."""
        table = await server.need(table_id)
        token = await table.join(body.seat, body.name)
        return {"seat": body.seat, "token": token}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, body: StartTable) -> dict[str, Any]:
        """Start the game (any seated person): bots fill the empty seats."""
        table = await server.need(table_id)
        await table.start(body.token)
        return table.game.summary()

    @app.get("/api/tables/{table_id}/hands/{index}")
    async def hand(table_id: str, index: int) -> dict[str, Any]:
        """The record of a finished hand (404 until it is over)."""
        return (await server.need(table_id)).game.hand_record(index)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The match record of the hands that are over."""
        return (await server.need(table_id)).game.match_record()

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        client = Client(websocket)
        writer = asyncio.create_task(client.writer())
        table = await server.get(table_id)
        try:
            if table is None:
                client.error("not_found", f"no table {table_id!r}")
                return
            table.clients.add(client)
            while True:
                message = await websocket.receive()
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
                await server.handle(table, client, text)
        except Exception:
            log.debug("websocket closed", exc_info=True)
        finally:
            if table is not None:
                table.clients.discard(client)
            client.outbox.put_nowait(None)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 2)
            if table is None:
                with contextlib.suppress(Exception):
                    await websocket.close(code=4404)

    return app
