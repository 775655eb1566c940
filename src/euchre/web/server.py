"""The tables of one server process: loading, creating and listing them, and
the WebSocket conversation (each client message validated, then answered).

Several processes may serve the same store: each one's :class:`TableServer`
catches up with the changes the store reports (see docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from typing import Any, Final

from ..rules import Rules
from .live import RATE_PER_SECOND, Client, LiveTable, is_own_write, own_write
from .messages import HelloMessage, HintMessage, PingMessage, parse_client_message
from .store import Store
from .tables import STOP_TEST_BOTS, Game, TableError, new_meta
from .workers import BotPool, default_workers

__all__ = ["MAX_MESSAGE", "TABLE_ID", "TableServer"]

log = logging.getLogger("euchre.web")

#: The largest WebSocket message accepted (bytes).
MAX_MESSAGE: Final = 16 * 1024
#: A table id: what ``secrets.token_urlsafe`` writes.
TABLE_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class TableServer:
    """The tables of one server process and the store they live in."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        bot_timeout: float = 5.0,
        bot_workers: int | None = None,
    ) -> None:
        """Serve the tables of ``store``; bots wait ``bot_delay`` seconds before acting
        and may think ``bot_timeout`` seconds (then the rule bot decides for them),
        in a pool of ``bot_workers`` processes (None: one per core; 0: threads)."""
        self.store = store
        self.bot_delay = bot_delay
        self.bot_timeout = bot_timeout
        workers = default_workers() if bot_workers is None else bot_workers
        #: where the bots and hints think (started and stopped with the server)
        self.pool = BotPool(workers, bot_timeout)
        #: the hints thought out at once, all tables together: half the workers
        #: (at least one), so that the bots always have workers to think in
        self.hint_slots = asyncio.Semaphore(max(1, workers // 2))
        self.tables: dict[str, LiveTable] = {}
        self.closing = False
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Open the store, listen for changes, and resume every table in play."""
        STOP_TEST_BOTS.clear()
        await self.pool.ready()
        await self.store.open()
        await self.store.subscribe(self._on_change)
        for table_id, meta in await self.store.list_tables():
            if meta.get("status") == "playing":
                try:
                    await self.get(table_id)
                except Exception:
                    log.exception("table %s does not replay", table_id)

    async def stop(self) -> None:
        """Stop the bots and their workers, and close the store."""
        self.closing = True
        STOP_TEST_BOTS.set()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.pool.stop()
        await self.store.close()
        log.info("stopped: every table is saved")

    async def _on_change(self, table_id: str) -> None:
        """The store says a table changed (maybe in another process): catch up, later."""
        if self.closing or is_own_write(table_id):
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
        message = parse_client_message(data)  # TableError bad_message unless well-formed
        if isinstance(message, PingMessage):
            client.send({"type": "pong"})
            return
        token = message.token
        if isinstance(message, HelloMessage):
            seat = None
            if token is not None:
                await table.sync()  # a seat taken in another process
                seat = table.game.seat_of(token)
                if seat is None:
                    # the socket loses any seat it had: as if it never said hello
                    client.seat, client.token, client.hello = None, None, False
                    raise TableError("bad_token", "that is not the token of a seat here")
            client.seat, client.token, client.hello = seat, token, True
            table.send_state(client, force=True)
            table.send_notices(client)
            return
        if not client.hello:
            raise TableError("bad_message", "say hello first")
        if client.token is None or token != client.token:
            raise TableError(
                "bad_token", "the token is not the one this connection said hello with"
            )
        assert client.seat is not None
        if isinstance(message, HintMessage):
            seq = table.game.seen_seq(client.seat)
            suggest = await table.hint(client.seat)
            client.send({"type": "hint", "seq": seq, "suggest": suggest})
            return
        if len(message.action) > 100:
            raise TableError("illegal", "that is not an action")
        await table.act(client.seat, message.action, message.seq)
