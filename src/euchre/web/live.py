"""The live tables of a server process: each table's clients, its cache of the game, its bots.

A :class:`LiveTable` holds the replayed :class:`~euchre.web.tables.Game` of one
table and the WebSocket :class:`Client` s watching it. Every accepted action is
committed to the store **before** anyone is told; the table is a cache refreshed
from the store whenever the store reports a change (see docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import json
import logging
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from fastapi import WebSocket

from ..bots import DEFAULT_LEVEL
from ..review import review_hand
from ..view import View
from .store import Store, StoreConflict
from .tables import Game, TableError, derive_seed, expired_error, run_bot_job
from .workers import suggest, think

if TYPE_CHECKING:
    from .server import TableServer

__all__ = [
    "HINTS_PER_MINUTE",
    "HINT_BURST",
    "HINT_LEVEL",
    "RATE_PER_SECOND",
    "Client",
    "LiveTable",
    "is_own_write",
    "own_write",
]

log = logging.getLogger("euchre.web")

#: WebSocket messages a socket may send per second (a burst of as many is allowed).
RATE_PER_SECOND: Final = 20.0
#: The level of the search bot that gives hints: the players' default level.
HINT_LEVEL: Final = DEFAULT_LEVEL
#: The share of ``--bot-timeout`` a search bot (or a hint) thinks before it
#: answers with its best so far (``SearchBot.deadline``): the rest is margin
#: for the queue of the bot pool and the trip to a worker, so that the rule
#: bot takes over only from a bot that is stuck, not from one that is slow.
SEARCH_SHARE: Final = 0.5
#: The hints a table may have thought out per minute (all its seats together;
#: asking again for the same decision reuses the one computation), and how
#: many at most in a burst: past them a hint is ``rate_limited``.
HINTS_PER_MINUTE: Final = 30.0
HINT_BURST: Final = 10.0

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


def is_own_write(table_id: str) -> bool:
    """Whether this task is writing ``table_id`` right now (inside :func:`own_write`)."""
    return _WRITING.get() == table_id


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
        #: the same reviews as facts (``Review.to_json``) for the page's own language
        self.review_facts: dict[int, dict[str, Any] | None] = {}
        self.hints: dict[tuple[int, int], list[dict[str, Any]]] = {}
        #: the hint being thought out, by (seq, seat): later askers wait for it
        self._hint_tasks: dict[tuple[int, int], asyncio.Task[list[dict[str, Any]]]] = {}
        self._hint_budget = HINT_BURST
        self._hint_stamp = time.monotonic()
        #: seats whose bot failed (raised or took too long): the rule bot plays them
        #: for the rest of the match (in this process; what they played is stored);
        #: each with the ``notice`` message that told the table so
        self.fallback: dict[int, dict[str, Any]] = {}
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
                self.review_facts[index] = None if review is None else review.to_json()
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
            last = game.last_hand(review, self.review_facts.get(hands - 1))
            text = f'"table": {json.dumps(game.summary())}, "last_hand": {json.dumps(last)}'
            cached = self._shared = (game, key, text)
        return f'"public": {json.dumps(game.public())}, {cached[2]}'

    def connected(self) -> list[int]:
        """The seats with a socket open that said hello with their token (public)."""
        return sorted({c.seat for c in self.clients if c.hello and c.seat is not None})

    def state_body(self, client: Client, shared: str) -> str:
        """The ``state`` message for one client (only its seat's view), as JSON
        members without ``type`` and ``seq``: what decides whether it changed."""
        view = self.game.view(client.seat) if client.seat is not None else None
        view_text = "null" if view is None else json.dumps(view.to_json())
        return f'"seat": {json.dumps(client.seat)}, "view": {view_text}, {shared}'

    def _state_text(self, body: str, seat: int | None, connected: str) -> str:
        """The ``state`` message with the ``seq`` as ``seat`` knows it (``Game.seen_seq``)
        and the seats ``connected`` now (JSON text): not part of ``body``, so
        that a socket opening or closing never makes a state be sent (nor tells
        of a change a seat may not see, by the moment it is sent)."""
        return (
            f'{{"type": "state", "seq": {self.game.seen_seq(seat)}, '
            f'"connected": {connected}, {body}}}'
        )

    def send_state(self, client: Client, *, force: bool = False) -> None:
        """Send ``client`` the state, unless (``force`` off) it saw the same already."""
        body = self.state_body(client, self.shared_text())
        if force or body != client.last:
            client.last = body
            client.send_text(self._state_text(body, client.seat, json.dumps(self.connected())))

    def broadcast(self) -> None:
        """Send every client that said hello the state, if it changed for it.

        A change another seat may not see (the maker's bare ``keep``) leaves that
        seat's message as it was, so it is not sent: nothing leaks by its timing.
        The parts all clients share are written to JSON once, each view once."""
        clients = [c for c in self.clients if c.hello]
        if not clients:
            return
        shared = self.shared_text()
        connected = json.dumps(self.connected())
        for client in clients:
            body = self.state_body(client, shared)
            if body != client.last:
                client.last = body
                client.send_text(self._state_text(body, client.seat, connected))

    # -- people ---------------------------------------------------------------------------
    async def join(self, seat: int, name: str, reserved_for: str | None = None) -> str:
        """Seat a person (table waiting, not expired); the secret token
        (``reserved_for``: the hash a rematch kept the seat for, ``Game.join``)."""
        await self.server.check_expiry(self)
        async with self.lock:
            await self._refresh_locked()
            if self.game.status != "waiting":
                raise TableError("seat_taken", "the game has started", 409)
            game = Game(copy.deepcopy(self.game.meta))
            token = game.join(seat, name, reserved_for)
            with own_write(self.table_id):
                await self.store.save_meta(self.table_id, game.meta)
            self.game = game
        await self.after_change()
        return token

    async def start(self, token: str) -> None:
        """Start the game (a seated person's token): bots fill the empty seats, first deal.
        TableError ``expired`` if the table waited longer than ``--table-expiry``."""
        await self.server.check_expiry(self)
        async with self.lock:
            await self._refresh_locked()
            self.game.check_starter(token)
            if self.game.status == "expired":
                raise expired_error()
            if self.game.status == "waiting":
                game = Game(copy.deepcopy(self.game.meta))
                game.start()
                with own_write(self.table_id):
                    await self.store.save_meta(self.table_id, game.meta)
                self.game = game
        await self.after_change()

    async def rematch(self, token: str, address: str | None) -> tuple[LiveTable, int, str]:
        """The rematch of this finished match for the seat of ``token``: the new
        table (made by the first to ask: same rules, name and bot seats, each
        person's seat kept for them, the asker its host), that seat, and its
        new secret token. TableError ``bad_token`` (403), ``not_over`` (409),
        ``seat_taken`` (409: the seat was taken already, by this player), or
        the creation limits (429, 503)."""
        async with self.lock:
            await self._refresh_locked()
            game = self.game
            seat = game.seat_of(token)
            if seat is None:
                raise TableError("bad_token", "that is not the token of a seat here", 403)
            if game.status != "over":
                raise TableError("not_over", "the match is not over", 409)
            name = game.seats[seat]["name"] or f"seat {seat}"
            digest = game.seats[seat]["token_sha256"]
            known = game.meta.get("rematch")
            if known is None:
                table, made = await self.server.create_seated(
                    game.rematch_meta, address, (seat, name), digest
                )
                new_token = str(made)
                game.meta["rematch"] = table.table_id
                with own_write(self.table_id):
                    await self.store.save_meta(self.table_id, game.meta)
                self._shared = None
        if known is None:
            await self.after_change()
            return table, seat, new_token
        table = await self.server.need(str(known))
        return table, seat, await table.join(seat, name, digest)

    async def act(self, seat: int, text: str, seq: int) -> None:
        """``seat`` does the action written ``text`` on the state numbered ``seq``
        (as ``seat`` knows it: ``Game.seen_seq``).

        The turn is checked before the ``seq``, and a stale ``seq`` is answered
        with the seat's own, so no answer tells a seat of a change it may not
        see (the maker's bare ``keep``). Committed to the store before anyone is
        told; TableError if refused."""
        async with self.lock:
            game = self.game
            game.check_turn(seat)
            known = game.seen_seq(seat)
            if seq != known:
                raise TableError("stale", f"the table is at seq {known}, not {seq}")
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
        """The search bot's suggestions for ``seat``'s current decision.

        One computation per decision: asking again (from any socket of the seat)
        while it is thought out waits for the same answer, and the answer is
        kept until the next change. A table may start at most
        :data:`HINTS_PER_MINUTE` computations a minute (``rate_limited`` past
        that), and the hints of all tables take at most the server's hint
        slots of the bot pool (``TableServer.hint_slots``: half its workers),
        so hints never crowd out the bots; a hint not thought out within the
        time budget is ``busy``."""
        game = self.game
        view = game.view(seat)
        if view is None or game.status != "playing" or view.to_act != seat:
            raise TableError("not_your_turn", "a hint is for the seat to act")
        key = (game.seq, seat)
        cached = self.hints.get(key)
        if cached is not None:
            return cached
        task = self._hint_tasks.get(key)
        if task is None:
            if not self._take_hint():
                raise TableError(
                    "rate_limited",
                    f"this table may have at most {HINTS_PER_MINUTE:g} hints a minute",
                    429,
                )
            seed = derive_seed(game.seed, "hint", game.seq)
            task = asyncio.create_task(self._think_hint(key, view, seed))
            self._hint_tasks[key] = task
            task.add_done_callback(lambda done: self._hint_done(key, done))
        return await asyncio.shield(task)

    def _take_hint(self) -> bool:
        """Take one computation from the table's hint budget (a token bucket)."""
        now = time.monotonic()
        refill = (now - self._hint_stamp) * HINTS_PER_MINUTE / 60.0
        self._hint_budget = min(HINT_BURST, self._hint_budget + refill)
        self._hint_stamp = now
        if self._hint_budget < 1.0:
            return False
        self._hint_budget -= 1.0
        return True

    def _hint_done(self, key: tuple[int, int], task: asyncio.Task[list[dict[str, Any]]]) -> None:
        if self._hint_tasks.get(key) is task:
            del self._hint_tasks[key]
        if not task.cancelled():
            task.exception()  # retrieved: every asker may have gone

    async def _think_hint(
        self, key: tuple[int, int], view: View, seed: int
    ) -> list[dict[str, Any]]:
        """Think out the hint of ``view`` in a hint slot of the bot pool."""
        budget = self.server.bot_timeout
        busy = TableError("busy", f"the hint took over {budget:g}s; try again later", 503)
        slots = self.server.hint_slots
        try:
            await asyncio.wait_for(slots.acquire(), budget * SEARCH_SHARE)
        except TimeoutError:
            raise busy from None
        try:
            deadline = time.time() + budget * SEARCH_SHARE
            hint = await self.server.pool.run(suggest, view, seed, HINT_LEVEL, deadline)
        except TimeoutError:
            raise busy from None
        finally:
            slots.release()
        self.hints = {key: hint}  # only the latest decision's hint is worth keeping
        return hint

    # -- bots ------------------------------------------------------------------------------
    def wake_bots(self) -> None:
        """Start the bot task if a bot is to act and none runs."""
        if self.server.closing or self.game.bot_to_act() is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.create_task(self._run_bots())

    def think_seconds(self) -> float:
        """How long a search bot thinks before it answers with its best so far:
        within the pace (``bot_delay``, when there is one) and well within
        ``--bot-timeout`` (:data:`SEARCH_SHARE` of it)."""
        seconds = self.server.bot_timeout * SEARCH_SHARE
        if self.server.bot_delay > 0:
            seconds = min(seconds, self.server.bot_delay)
        return seconds

    async def _bot_decision(self, game: Game) -> dict[str, Any] | None:
        """The entry of the bot to act, thought out in the server's bot pool (worker
        processes); if the bot raises or takes longer than ``bot_timeout`` seconds,
        the rule bot decides on the same view and plays that seat from then on,
        and every client of the table is sent a ``notice`` of it. Only the chosen
        entry is stored, so a replay never runs a bot again and the fallback
        cannot change a replayed game.

        The rule bot itself decides in well under a millisecond: it runs here, on
        the event loop (a worker would cost more than the decision)."""
        job = game.bot_job()
        if job is None:
            return None
        seat, level = job.seat, job.level
        if level == "rule":
            return run_bot_job(job)
        if seat not in self.fallback:
            timeout = self.server.bot_timeout
            # the search answers with its best so far within the pace and the budget
            job = replace(job, deadline=time.time() + self.think_seconds())
            try:
                return await self.server.pool.run(think, job)
            except TimeoutError:
                why = f"took over {timeout:g}s"
                log.warning(
                    "table %s: the %s bot of seat %d %s at seq %d; "
                    "the rule bot plays that seat from now on",
                    self.table_id,
                    level,
                    seat,
                    why,
                    game.seq,
                )
            except Exception:
                why = "failed"
                log.exception(
                    "table %s: the %s bot of seat %d failed at seq %d; "
                    "the rule bot plays that seat from now on",
                    self.table_id,
                    level,
                    seat,
                    game.seq,
                )
            notice = {
                "type": "notice",
                "code": "bot_fallback",
                "seat": seat,
                "level": level,
                "seq": game.seen_seq(None),
                "message": f"the {level} bot of seat {seat} {why}: "
                "the rule bot plays that seat from now on",
            }
            self.fallback[seat] = notice
            self.tell(notice)
        return game.bot_entry("rule")

    def tell(self, message: dict[str, Any]) -> None:
        """Send every client that said hello ``message`` (not a state)."""
        text = json.dumps(message)
        for client in self.clients:
            if client.hello:
                client.send_text(text)

    def send_notices(self, client: Client) -> None:
        """Send ``client`` the notices still in force (after its hello)."""
        for seat in sorted(self.fallback):
            client.send(self.fallback[seat])

    async def _run_bots(self) -> None:
        """Play the bots' turns until a person is to act.

        Every bot move is paced alike: it is shown ``bot_delay`` seconds after
        the state it answers, however long the bot thought (a forced play or a
        rule bot at once, a search up to its deadline, which is within the
        pace), so the time a move takes tells nobody whether it was forced or
        what the bot weighed. Only a decision longer than the pace (a bot pool
        queue, a bot over its budget) shows later."""
        try:
            while not self.server.closing:
                game = self.game
                if game.bot_to_act() is None:
                    return
                seq = game.seq
                shown = time.monotonic() + self.server.bot_delay
                entry = await self._bot_decision(game)
                if entry is None:
                    continue
                wait = shown - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
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
