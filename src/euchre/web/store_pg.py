"""The PostgreSQL :class:`~euchre.web.store.Store`: several server processes, one database.

Every write commits in one transaction together with ``pg_notify('euchre_table',
table_id)``, so PostgreSQL delivers the notification when (and only when) the
write is committed. Each process holds one dedicated ``LISTEN euchre_table``
connection and awaits its subscribers' callbacks for every notification: a real
push from process to process, with no polling timer.

Subscribers of this process are called directly after each of its own writes
(exactly as with SQLite); the notifications this process's own connections sent
are then skipped by the listener (recognised by their backend pid).

A PostgreSQL restart is survived without help: an operation whose connection
fails (server shut down, restarting, connection lost) retries a bounded number
of times on a fresh connection, with backoff; the listener reconnects with
backoff forever (until :meth:`PostgresStore.close`) and, once it listens again,
calls every subscriber for every table, since any of them may have changed while
it could not hear. An ``append_action`` whose commit was cut off by the failure
is recognised on retry (the same entry is already stored at that seq) and counts
as done, not as a conflict.

Operations use a ``psycopg_pool.AsyncConnectionPool`` of autocommit connections
(explicit transactions); schema creation runs under a transaction-level advisory lock, so
processes opening the same database at once do not trip over each other.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from euchre.web.store import Callback, Store, StoreConflict

__all__ = ["CHANNEL", "PostgresStore"]

CHANNEL = "euchre_table"
"""The NOTIFY channel; the payload is the table id."""

_SCHEMA_LOCK = 0x6575636872650001
"""The advisory lock key taken while the schema is created ("euchre" + 1)."""

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS tables (
        table_id TEXT PRIMARY KEY,
        meta JSONB NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 0),
        entry JSONB NOT NULL,
        PRIMARY KEY (table_id, seq)
    )
    """,
)

# Connection defaults, used unless the URL sets them: fail fast when the server is
# down, and notice a dead TCP peer on the listener connection within seconds.
_CONN_DEFAULTS = {
    "connect_timeout": "5",
    "application_name": "euchre",
    "keepalives": "1",
    "keepalives_idle": "5",
    "keepalives_interval": "2",
    "keepalives_count": "3",
}

#: How long an operation waits for a pool connection (seconds), and how long the
#: pool keeps trying to open one after a failure before it lets the next request
#: try afresh: short, so that operations retry (with backoff, boundedly) while
#: the server is down and go on as soon as it is back.
_POOL_WAIT = 1.0

_log = logging.getLogger(__name__)

T = TypeVar("T")
Conn = psycopg.AsyncConnection[tuple[Any, ...]]


def _normalise(value: dict[str, Any]) -> Any:
    """The value as it comes back from JSONB (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))


class PostgresStore(Store):
    """Tables in a PostgreSQL database shared by any number of server processes.

    ``url`` is a libpq URL (``postgresql://user@host:port/dbname`` or
    ``postgres://...``). ``pool_size`` bounds the connections used for
    operations (the listener has one more); ``retries`` bounds the attempts of
    one operation when its connection fails.
    """

    def __init__(self, url: str, *, pool_size: int = 4, retries: int = 12) -> None:
        super().__init__()
        if pool_size < 1 or retries < 1:
            raise ValueError("pool_size and retries must be at least 1")
        self.url = url
        params = {k: v for k, v in _CONN_DEFAULTS.items() if k not in conninfo_to_dict(url)}
        self._params: dict[str, Any] = params
        self._pool_size = pool_size
        self._retries = retries
        self._pool: AsyncConnectionPool[Conn] | None = None
        # backend pid -> this process's pool connection (gone once it is collected)
        self._own: weakref.WeakValueDictionary[int, Conn] = weakref.WeakValueDictionary()
        self._listener: asyncio.Task[None] | None = None
        self._listen_conn: Conn | None = None
        self._closed = False

    # -- connections ----------------------------------------------------------

    async def _connect(self) -> Conn:
        conn: Conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, **self._params
        )
        return conn

    async def _configure(self, conn: Conn) -> None:
        """A new pool connection: remember its backend pid (its notifications are ours)."""
        self._own[conn.info.backend_pid] = conn

    def _is_own(self, pid: int) -> bool:
        """Whether ``pid`` is the backend of one of this process's open pool connections."""
        conn = self._own.get(pid)
        return conn is not None and not conn.closed

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Conn]:
        """A pooled connection (autocommit); returned to the pool, which keeps it
        if it is healthy. PoolTimeout (an OperationalError) if none comes in time."""
        if self._closed:
            raise RuntimeError("store is closed")
        if self._pool is None:
            raise RuntimeError("store is not open")
        async with self._pool.connection() as conn:
            yield conn

    async def _close_quietly(self, conn: Conn) -> None:
        try:
            await conn.close()
        except Exception:  # closing a dead connection may fail; it is gone either way
            _log.debug("closing a connection failed", exc_info=True)

    async def _reset_pool(self) -> None:
        """Forget every pool connection made so far (after a failure they are likely
        dead too): the idle ones are closed at once, those in use when they come
        back, and new ones are opened."""
        if self._pool is not None:
            await self._pool.drain()

    async def _run(self, op: Callable[[Conn, int], Awaitable[T]]) -> T:
        """Run ``op(conn, attempt)``; on a connection failure, retry on a fresh
        connection (bounded, with backoff). Other errors propagate at once."""
        delay = 0.05
        for attempt in range(self._retries):
            try:
                async with self._connection() as conn:
                    return await op(conn, attempt)
            except psycopg.OperationalError as exc:
                if self._closed or attempt == self._retries - 1:
                    raise
                _log.warning("PostgreSQL operation failed (%s); retrying", exc)
                await self._reset_pool()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- life cycle -------------------------------------------------------------

    async def open(self) -> None:
        """Connect and create the schema if it is missing (idempotent; safe when
        several processes open the same database at once)."""
        if self._closed:
            raise RuntimeError("store is closed")
        if self._pool is not None:
            return
        self._pool = AsyncConnectionPool(
            self.url,
            kwargs={"autocommit": True, **self._params},
            min_size=1,
            max_size=self._pool_size,
            open=False,
            configure=self._configure,
            name="euchre",
            timeout=_POOL_WAIT,
            reconnect_timeout=_POOL_WAIT,
        )
        await self._pool.open()

        async def create(conn: Conn, attempt: int) -> None:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in _SCHEMA:
                    await conn.execute(statement)

        try:
            await self._run(create)
        except BaseException:
            pool, self._pool = self._pool, None
            await pool.close()
            raise

    async def close(self) -> None:
        """Stop listening and close every connection (idempotent)."""
        if self._closed:
            return
        self._closed = True
        task, self._listener = self._listener, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        conn, self._listen_conn = self._listen_conn, None
        if conn is not None:
            await self._close_quietly(conn)
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- writes -------------------------------------------------------------------

    async def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        """Insert a new table (committed, then subscribers everywhere are told);
        ValueError if the id is already used."""

        async def insert(conn: Conn, attempt: int) -> None:
            try:
                async with conn.transaction():
                    await conn.execute(
                        "INSERT INTO tables (table_id, meta) VALUES (%s, %s)",
                        (table_id, Jsonb(meta)),
                    )
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table_id))
            except pg_errors.UniqueViolation as exc:
                if attempt > 0:  # our own earlier commit, cut off before its answer?
                    cur = await conn.execute(
                        "SELECT meta FROM tables WHERE table_id = %s", (table_id,)
                    )
                    row = await cur.fetchone()
                    if row is not None and row[0] == _normalise(meta):
                        return
                raise ValueError(f"table {table_id!r} already exists") from exc

        await self._run(insert)
        await self._notify(table_id)

    async def save_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        """Replace the meta of an existing table (committed, then subscribers
        everywhere are told); KeyError if the table is unknown."""

        async def update(conn: Conn, attempt: int) -> bool:
            async with conn.transaction():
                cur = await conn.execute(
                    "UPDATE tables SET meta = %s, updated_at = clock_timestamp() "
                    "WHERE table_id = %s",
                    (Jsonb(meta), table_id),
                )
                if cur.rowcount == 0:
                    return False
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table_id))
            return True

        if not await self._run(update):
            raise KeyError(table_id)
        await self._notify(table_id)

    async def append_action(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Append entry ``seq`` (committed before returning, then subscribers
        everywhere are told); StoreConflict if another writer took that seq."""

        async def insert(conn: Conn, attempt: int) -> None:
            try:
                # one statement (autocommit: its own transaction), one round trip:
                # the insert, the timestamp and the NOTIFY (sent at commit) together
                await conn.execute(
                    "WITH ins AS (INSERT INTO actions (table_id, seq, entry)"
                    " VALUES (%s, %s, %s)),"
                    " upd AS (UPDATE tables SET updated_at = clock_timestamp()"
                    " WHERE table_id = %s)"
                    " SELECT pg_notify(%s, %s)",
                    (table_id, seq, Jsonb(entry), table_id, CHANNEL, table_id),
                )
            except pg_errors.UniqueViolation as exc:
                if attempt > 0:  # our own earlier commit, cut off before its answer?
                    cur = await conn.execute(
                        "SELECT entry FROM actions WHERE table_id = %s AND seq = %s",
                        (table_id, seq),
                    )
                    row = await cur.fetchone()
                    if row is not None and row[0] == _normalise(entry):
                        return
                raise StoreConflict(f"{table_id} seq {seq} is already taken") from exc

        await self._run(insert)
        await self._notify(table_id)

    async def expire_waiting(self, table_id: str) -> bool:
        """Set ``status`` to ``expired`` if it is ``waiting``: the test, the write and
        the NOTIFY in one statement, so a table another process started meanwhile
        stays started. Whether it was waiting."""

        async def update(conn: Conn, attempt: int) -> bool:
            cur = await conn.execute(
                "WITH upd AS (UPDATE tables SET meta = jsonb_set(meta, '{status}', "
                "'\"expired\"'), updated_at = clock_timestamp()"
                " WHERE table_id = %s AND meta->>'status' = 'waiting' RETURNING table_id)"
                " SELECT pg_notify(%s, table_id) FROM upd",
                (table_id, CHANNEL),
            )
            return len(await cur.fetchall()) > 0

        changed = await self._run(update)
        if changed:
            await self._notify(table_id)
        return changed

    # -- reads ----------------------------------------------------------------------

    async def load_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The meta and all entries of a table (ordered by seq), or None."""

        async def load(conn: Conn, attempt: int) -> tuple[Any, list[Any]] | None:
            async with conn.transaction():
                cur = await conn.execute("SELECT meta FROM tables WHERE table_id = %s", (table_id,))
                row = await cur.fetchone()
                if row is None:
                    return None
                cur = await conn.execute(
                    "SELECT entry FROM actions WHERE table_id = %s ORDER BY seq", (table_id,)
                )
                return row[0], [r[0] for r in await cur.fetchall()]

        result = await self._run(load)
        if result is None:
            return None
        meta, entries = result
        return dict(meta), [dict(e) for e in entries]

    async def load_meta(self, table_id: str) -> dict[str, Any] | None:
        """The meta of a table, or None (one small query)."""

        async def load(conn: Conn, attempt: int) -> Any:
            cur = await conn.execute("SELECT meta FROM tables WHERE table_id = %s", (table_id,))
            row = await cur.fetchone()
            return None if row is None else row[0]

        meta = await self._run(load)
        return None if meta is None else dict(meta)

    async def entries_since(self, table_id: str, seq: int) -> list[dict[str, Any]]:
        """Entries with seq >= ``seq``, ordered."""

        async def load(conn: Conn, attempt: int) -> list[Any]:
            cur = await conn.execute(
                "SELECT entry FROM actions WHERE table_id = %s AND seq >= %s ORDER BY seq",
                (table_id, seq),
            )
            return [r[0] for r in await cur.fetchall()]

        return [dict(e) for e in await self._run(load)]

    async def list_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table as (table_id, meta), most recently updated first."""

        async def load(conn: Conn, attempt: int) -> list[tuple[Any, ...]]:
            cur = await conn.execute(
                "SELECT table_id, meta FROM tables ORDER BY updated_at DESC, table_id"
            )
            return await cur.fetchall()

        return [(str(tid), dict(meta)) for tid, meta in await self._run(load)]

    # -- notifications ----------------------------------------------------------------

    async def subscribe(self, callback: Callback) -> None:
        """Have ``callback(table_id)`` awaited whenever any process changes a
        table. The first call starts the ``LISTEN`` connection (listening when
        this returns)."""
        if self._closed:
            raise RuntimeError("store is closed")
        await super().subscribe(callback)
        if self._listener is None:
            self._listen_conn = await self._run_listen_connect(bounded=True)
            self._listener = asyncio.create_task(self._listen(), name="euchre-pg-listen")

    async def _listen_connect(self) -> Conn:
        conn = await self._connect()
        try:
            await conn.execute("LISTEN " + CHANNEL)
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _run_listen_connect(self, *, bounded: bool) -> Conn:
        """Open the LISTEN connection, retrying with backoff (``bounded``: as many
        times as an operation; otherwise until it works or the store closes)."""
        delay = 0.05
        attempt = 0
        while True:
            try:
                return await self._listen_connect()
            except psycopg.OperationalError as exc:
                attempt += 1
                if self._closed or (bounded and attempt >= self._retries):
                    raise
                _log.warning("PostgreSQL LISTEN connection failed (%s); retrying", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    async def _listen(self) -> None:
        """Await the callbacks for each notification; reconnect when the
        connection is lost, then call back for every table."""
        while not self._closed:
            conn = self._listen_conn
            if conn is not None:
                try:
                    async for note in conn.notifies():
                        if self._is_own(note.pid):
                            continue  # this process's write: its subscribers were told
                        await self._notify(note.payload)
                except psycopg.OperationalError as exc:
                    _log.warning("PostgreSQL LISTEN connection lost (%s); reconnecting", exc)
                self._listen_conn = None
                await self._close_quietly(conn)
            if self._closed:
                return
            self._listen_conn = await self._run_listen_connect(bounded=False)
            await self._reset_pool()
            try:
                # Deaf for a while: any table may have changed meanwhile.
                tables = await self.list_tables()
            except psycopg.OperationalError as exc:
                _log.warning("PostgreSQL still unavailable (%s)", exc)
                conn, self._listen_conn = self._listen_conn, None
                await self._close_quietly(conn)
                await asyncio.sleep(0.5)
                continue
            for table_id, _meta in tables:
                await self._notify(table_id)
