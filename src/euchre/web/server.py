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
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from ..rules import Rules
from .limits import ALL, Buckets, Limits
from .live import RATE_PER_SECOND, Client, LiveTable, is_own_write, own_write
from .messages import HelloMessage, HintMessage, PingMessage, parse_client_message
from .store import Store
from .tables import STOP_TEST_BOTS, Game, TableError, expired_error, new_meta
from .workers import BotPool, default_workers

__all__ = ["LOBBY_SIZE", "MAX_MESSAGE", "TABLE_ID", "TableServer"]

log = logging.getLogger("euchre.web")

#: The largest WebSocket message accepted (bytes).
MAX_MESSAGE: Final = 16 * 1024
#: A table id: what ``secrets.token_urlsafe`` writes.
TABLE_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: The most tables the lobby lists.
LOBBY_SIZE: Final = 200


class TableServer:
    """The tables of one server process and the store they live in."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        bot_timeout: float = 5.0,
        bot_workers: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        """Serve the tables of ``store``; bots wait ``bot_delay`` seconds before acting
        and may think ``bot_timeout`` seconds (then the rule bot decides for them),
        in a pool of ``bot_workers`` processes (None: one per core; 0: threads);
        ``limits``: the resource limits (None: the defaults of :class:`Limits`)."""
        self.store = store
        self.limits = limits or Limits()
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
        #: table creation's rate limits: per peer address, and for all (key ``ALL``)
        self._per_address = Buckets(self.limits.create_rate, self.limits.create_burst)
        self._overall = Buckets(self.limits.create_rate_total, self.limits.total_burst)
        #: peer address -> the tables it created that may still be waiting
        self._created_by: dict[str, set[str]] = {}
        #: creations under way (stored, not yet answered) by address, and ``ALL``
        self._creating: Counter[str] = Counter()
        #: when this process started: the age of a waiting table stored without
        #: ``created`` (made before tables had it) counts from here
        self.started_at = time.time()
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Open the store, listen for changes, and resume every table in play."""
        STOP_TEST_BOTS.clear()
        await self.pool.ready()
        await self.store.open()
        await self.store.subscribe(self._on_change)
        for table_id, meta in await self.store.list_tables():
            # tables in play resume; waiting ones are held too, to count them
            if meta.get("status") == "playing" or (
                meta.get("status") == "waiting" and not self.past_expiry(meta)
            ):
                try:
                    await self.get(table_id)
                except Exception:
                    log.exception("table %s does not replay", table_id)
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="euchre-expiry")

    async def stop(self) -> None:
        """Stop the bots and their workers, and close the store."""
        self.closing = True
        STOP_TEST_BOTS.set()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += list(self._tasks)
        if self._sweeper is not None:
            tasks.append(self._sweeper)
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

    # -- limits ------------------------------------------------------------------------------
    def past_expiry(self, meta: dict[str, Any]) -> bool:
        """Whether a table of this meta is waiting and older than ``--table-expiry``."""
        if meta.get("status") != "waiting":
            return False
        created = meta.get("created")
        if not isinstance(created, (int, float)):
            created = self.started_at
        return time.time() - created > self.limits.table_expiry

    async def check_expiry(self, table: LiveTable) -> None:
        """Expire ``table`` if it waited too long (then TableError ``expired``, 410)."""
        if self.past_expiry(table.game.meta):
            await self.expire(table.table_id, table)
        if table.game.status == "expired":  # (not if another process started it)
            raise expired_error()

    async def expire(self, table_id: str, table: LiveTable | None = None) -> None:
        """Mark a table ``expired`` in the store if it is still waiting (the
        store checks that in the same write, so a table started meanwhile, in any
        process, is left alone), and bring its live copy (``table``, or the one
        held here) and its clients up to date."""
        with own_write(table_id):
            changed = await self.store.expire_waiting(table_id)
        table = table or self.tables.get(table_id)
        if table is not None:
            await table.sync()
            if not table.clients and self.tables.get(table_id) is table:
                del self.tables[table_id]  # nothing more will happen to it
        if changed:
            log.info("table %s expired: nobody started it in time", table_id)

    async def sweep(self) -> int:
        """Expire every waiting table older than ``--table-expiry``; how many."""
        stale = [tid for tid, meta in await self.store.list_tables() if self.past_expiry(meta)]
        for table_id in stale:
            await self.expire(table_id)
        for table_id, table in list(self.tables.items()):
            if table.game.status == "expired" and not table.clients:
                del self.tables[table_id]  # nothing more will happen to it
        for address, mine in list(self._created_by.items()):
            still = {
                t for t in mine if t in self.tables and self.tables[t].game.status == "waiting"
            }
            if still:
                self._created_by[address] = still
            else:
                del self._created_by[address]
        return len(stale)

    async def _sweep_forever(self) -> None:
        """Sweep now and then: a quarter of the expiry time, from 1 s to a minute."""
        period = min(60.0, max(1.0, self.limits.table_expiry / 4))
        while not self.closing:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("expiring waiting tables failed")

    def _waiting(self, table_ids: Iterable[str]) -> int:
        """How many of these tables (held here) are waiting and not past expiry."""
        count = 0
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is not None and table.game.status == "waiting":
                count += not self.past_expiry(table.game.meta)
        return count

    def _check_create(self, address: str | None) -> None:
        """Refuse a new table when a limit is reached (TableError 429 or 503);
        otherwise spend its tokens now, before any await, so that requests
        arriving together cannot all pass on the same tokens."""
        limits = self.limits
        if address is not None:
            mine = self._created_by.get(address, set())
            mine = {t for t in mine if t in self.tables and self.tables[t].game.status == "waiting"}
            if mine:
                self._created_by[address] = mine
            else:
                self._created_by.pop(address, None)
            cap = limits.max_waiting_per_address
            if cap and self._waiting(mine) + self._creating[address] >= cap:
                raise TableError(
                    "rate_limited",
                    f"you have {cap} tables waiting, the most allowed: "
                    "start one, or wait until one expires",
                    429,
                )
            wait = self._per_address.wait(address)
            if wait > 0:
                raise TableError(
                    "rate_limited",
                    f"at most {limits.create_rate:g} new tables a minute "
                    f"({limits.create_burst} at once) from one address: "
                    f"try again in {wait:.0f} s",
                    429,
                )
        waiting = self._waiting(self.tables) + self._creating[ALL]
        if limits.max_waiting and waiting >= limits.max_waiting:
            raise TableError(
                "busy", f"the server has {limits.max_waiting} tables waiting: try again later", 503
            )
        if self._overall.wait(ALL) > 0:
            raise TableError(
                "busy",
                f"the server takes at most {limits.create_rate_total:g} new tables "
                "a minute: try again later",
                503,
            )
        self._overall.take(ALL)
        if address is not None:
            self._per_address.take(address)

    async def create(
        self,
        rules: Rules,
        levels: list[str | None] | None,
        name: str | None,
        address: str | None = None,
        bot_seats: Sequence[int] = (),
    ) -> LiveTable:
        """A new table waiting for players, created by a client at peer ``address``
        (None: unknown, only the overall limits apply); TableError ``rate_limited``
        (429) or ``busy`` (503) when a creation limit is reached."""
        table, _token = await self.create_seated(
            lambda table_id: new_meta(table_id, rules, levels, name, bot_seats=bot_seats), address
        )
        return table

    async def create_seated(
        self,
        make_meta: Callable[[str], dict[str, Any]],
        address: str | None = None,
        player: tuple[int, str] | None = None,
        reserved_for: str | None = None,
    ) -> tuple[LiveTable, str | None]:
        """A new table of the meta ``make_meta(table_id)`` (the limits of
        :meth:`create` apply); with ``player`` (seat, name) that person is seated
        at once and is the table's host: the answer holds their seat token
        (``reserved_for``: the hash that seat is kept for, in a rematch)."""
        self._check_create(address)
        keys = [ALL] if address is None else [ALL, address]
        self._creating.update(keys)
        try:
            return await self._create(make_meta, address, player, reserved_for)
        finally:
            self._creating.subtract(keys)
            self._creating += Counter()  # drop the zero counts

    async def _create(
        self,
        make_meta: Callable[[str], dict[str, Any]],
        address: str | None,
        player: tuple[int, str] | None,
        reserved_for: str | None,
    ) -> tuple[LiveTable, str | None]:
        for _ in range(5):
            table_id = secrets.token_urlsafe(6)
            meta = make_meta(table_id)
            token = None
            if player is not None:
                game = Game(meta)
                token = game.join(player[0], player[1], reserved_for)
                meta = game.meta
                meta["host"] = player[0]
            try:
                with own_write(table_id):
                    await self.store.create_table(table_id, meta)
            except ValueError:
                continue  # the id was taken (very unlikely): draw another
            table = LiveTable(self, Game(meta))
            self.tables[table_id] = table
            if address is not None:
                self._created_by.setdefault(address, set()).add(table_id)
            return table, token
        raise TableError("busy", "could not find a free table id", 503)

    async def summaries(self) -> list[dict[str, Any]]:
        """The public summaries of the tables not finished nor expired, at most
        :data:`LOBBY_SIZE`: those with a person seated first, then the others
        (bots only, or nobody yet), each group most recently changed first. So
        tables nobody sits at (spam, say) never push out a table people use."""
        people: list[dict[str, Any]] = []
        others: list[dict[str, Any]] = []
        for table_id, meta in await self.store.list_tables():
            if meta.get("status") in ("over", "expired") or self.past_expiry(meta):
                continue
            table = self.tables.get(table_id)
            if table is None and meta.get("status") == "waiting":
                summary = Game(meta).summary()
            else:
                table = table or await self.get(table_id)
                if table is None or table.game.status not in ("waiting", "playing"):
                    continue
                summary = table.game.summary()
            seated = any(s["kind"] == "human" for s in summary["seats"])
            (people if seated else others).append(summary)
            if len(people) >= LOBBY_SIZE:
                break
        return (people + others)[:LOBBY_SIZE]

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
