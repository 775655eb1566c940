"""Durable storage of web tables: the :class:`Store` interface and its SQLite backend.

A table is stored as one ``meta`` JSON object (rules, seats, token hashes, status,
deal seeds ...) plus an append-only list of ``entries`` numbered ``seq = 0, 1, 2 ...``.
Every accepted action is appended (and committed) before any client hears of it, so a
restarted server replays ``meta`` + entries and resumes each table exactly.

Schema (both backends)::

    tables(table_id TEXT PRIMARY KEY, meta TEXT/JSONB, updated_at)
    actions(table_id TEXT, seq INTEGER, entry TEXT/JSONB, PRIMARY KEY (table_id, seq))

:func:`open_store` picks the backend from a URL: ``sqlite:///abs/path.db``,
``sqlite:relative.db`` or a plain file path give a :class:`SQLiteStore`;
``postgresql://...`` / ``postgres://...`` give the PostgreSQL store from
:mod:`euchre.web.store_pg` (imported lazily, so SQLite users never import psycopg).
"""

from __future__ import annotations

import abc
import asyncio
import importlib
import json
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

__all__ = ["SQLiteStore", "Store", "StoreConflict", "open_store", "sqlite_path"]

Callback = Callable[[str], Awaitable[None]]


class StoreConflict(Exception):
    """append_action: that (table_id, seq) is already taken (another process was first)."""


class Store(abc.ABC):
    """Where tables live: meta JSON per table plus an ordered list of entries.

    Implementations must commit before returning from :meth:`create_table`,
    :meth:`save_meta` and :meth:`append_action`, and then notify every subscriber
    (of every process sharing the database, where the backend allows it).
    """

    url: str

    def __init__(self) -> None:
        """Set up the local subscriber list (subclasses call ``super().__init__()``)."""
        self._callbacks: list[Callback] = []

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and create the schema if it is missing."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release the connection(s)."""

    @abc.abstractmethod
    async def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        """Store a new table with its meta and no entries (ValueError if it exists)."""

    @abc.abstractmethod
    async def save_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        """Replace a table's meta (committed, then subscribers are notified)."""

    @abc.abstractmethod
    async def append_action(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Append entry number ``seq``; committed before returning.

        Raises :class:`StoreConflict` if ``(table_id, seq)`` already exists.
        """

    @abc.abstractmethod
    async def load_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The meta and all entries ordered by seq, or None for an unknown table."""

    async def load_meta(self, table_id: str) -> dict[str, Any] | None:
        """The meta of a table, or None (backends may override this with a cheaper query)."""
        loaded = await self.load_table(table_id)
        return None if loaded is None else loaded[0]

    async def expire_waiting(self, table_id: str) -> bool:
        """Set the meta's ``status`` to ``expired`` if it is ``waiting``; whether it
        was (then subscribers are notified). The backends make the test and the
        write one atomic step, so a table started meanwhile stays started; this
        fallback (load, then save) does not."""
        meta = await self.load_meta(table_id)
        if meta is None or meta.get("status") != "waiting":
            return False
        await self.save_meta(table_id, {**meta, "status": "expired"})
        return True

    @abc.abstractmethod
    async def entries_since(self, table_id: str, seq: int) -> list[dict[str, Any]]:
        """The entries with ``seq >=`` the given seq, ordered."""

    @abc.abstractmethod
    async def list_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table as ``(table_id, meta)``."""

    async def subscribe(self, callback: Callback) -> None:
        """Have ``callback(table_id)`` awaited whenever a table's meta or entries change.

        The base implementation notifies this process only (enough for SQLite);
        a shared-database backend overrides it to hear other processes too.
        """
        self._callbacks.append(callback)

    async def _notify(self, table_id: str) -> None:
        """Await every subscriber's callback for ``table_id`` (errors do not propagate)."""
        for callback in list(self._callbacks):
            try:
                await callback(table_id)
            except Exception:  # a subscriber's failure must not undo a committed write
                logging.getLogger(__name__).exception("store subscriber failed")


def sqlite_path(url: str) -> Path:
    """The file path of a SQLite URL (``sqlite:///abs.db``, ``sqlite:rel.db``) or plain path."""
    if url.startswith("sqlite:///"):
        return Path("/" + url[len("sqlite:///") :].lstrip("/"))
    if url.startswith("sqlite://"):
        return Path(url[len("sqlite://") :])
    if url.startswith("sqlite:"):
        return Path(url[len("sqlite:") :])
    return Path(url)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


class SQLiteStore(Store):
    """A :class:`Store` in one SQLite file (one server process; notifications are local).

    The blocking ``sqlite3`` calls run in a worker thread under a lock, so the event
    loop is never blocked and calls are serialised on the single connection.
    """

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.path = sqlite_path(url)
        self._conn: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("store is not open")
        return self._conn

    async def _run(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        db = self._db()
        async with self._lock:
            return await asyncio.to_thread(fn, db)

    async def open(self) -> None:
        """Open (creating the folder and file if needed) and create the schema."""
        if self._conn is not None:
            return
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit is in the WAL file (the OS has it) before we
            # return, so a killed server process loses nothing; only an OS crash or
            # power cut may lose the last commits (FULL would fsync each: ~3 ms).
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            return conn

        self._conn = await asyncio.to_thread(connect)

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await asyncio.to_thread(conn.close)

    async def create_table(self, table_id: str, meta: dict[str, Any]) -> None:
        """Insert a new table; ValueError if the id is already used."""
        text = json.dumps(meta)

        def insert(db: sqlite3.Connection) -> None:
            try:
                with db:
                    db.execute(
                        "INSERT INTO tables (table_id, meta, updated_at) VALUES (?, ?, ?)",
                        (table_id, text, time.time()),
                    )
            except sqlite3.IntegrityError as exc:
                raise ValueError(f"table {table_id!r} already exists") from exc

        await self._run(insert)
        await self._notify(table_id)

    async def save_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        """Replace the meta of an existing table; KeyError if it is unknown."""
        text = json.dumps(meta)

        def update(db: sqlite3.Connection) -> None:
            with db:
                cur = db.execute(
                    "UPDATE tables SET meta = ?, updated_at = ? WHERE table_id = ?",
                    (text, time.time(), table_id),
                )
            if cur.rowcount == 0:
                raise KeyError(table_id)

        await self._run(update)
        await self._notify(table_id)

    async def append_action(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Append entry ``seq`` (committed); StoreConflict if that seq is taken."""
        text = json.dumps(entry)

        def insert(db: sqlite3.Connection) -> None:
            try:
                with db:
                    db.execute(
                        "INSERT INTO actions (table_id, seq, entry) VALUES (?, ?, ?)",
                        (table_id, seq, text),
                    )
                    db.execute(
                        "UPDATE tables SET updated_at = ? WHERE table_id = ?",
                        (time.time(), table_id),
                    )
            except sqlite3.IntegrityError as exc:
                raise StoreConflict(f"{table_id} seq {seq} is already taken") from exc

        await self._run(insert)
        await self._notify(table_id)

    async def expire_waiting(self, table_id: str) -> bool:
        """Set ``status`` to ``expired`` if it is ``waiting`` (one statement); whether it was."""

        def update(db: sqlite3.Connection) -> bool:
            with db:
                cur = db.execute(
                    "UPDATE tables SET meta = json_set(meta, '$.status', 'expired'), "
                    "updated_at = ? "
                    "WHERE table_id = ? AND json_extract(meta, '$.status') = 'waiting'",
                    (time.time(), table_id),
                )
            return cur.rowcount > 0

        changed: bool = await self._run(update)
        if changed:
            await self._notify(table_id)
        return changed

    async def load_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The meta and all entries of a table (ordered by seq), or None."""

        def load(db: sqlite3.Connection) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            row = db.execute("SELECT meta FROM tables WHERE table_id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            rows = db.execute(
                "SELECT entry FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
            return json.loads(row[0]), [json.loads(r[0]) for r in rows]

        result: tuple[dict[str, Any], list[dict[str, Any]]] | None = await self._run(load)
        return result

    async def load_meta(self, table_id: str) -> dict[str, Any] | None:
        """The meta of a table, or None."""

        def load(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute("SELECT meta FROM tables WHERE table_id = ?", (table_id,)).fetchone()
            return None if row is None else dict(json.loads(row[0]))

        result: dict[str, Any] | None = await self._run(load)
        return result

    async def entries_since(self, table_id: str, seq: int) -> list[dict[str, Any]]:
        """Entries with seq >= ``seq``, ordered."""

        def load(db: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = db.execute(
                "SELECT entry FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
                (table_id, seq),
            ).fetchall()
            return [json.loads(r[0]) for r in rows]

        result: list[dict[str, Any]] = await self._run(load)
        return result

    async def list_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table as (table_id, meta), most recently updated first."""

        def load(db: sqlite3.Connection) -> list[tuple[str, dict[str, Any]]]:
            rows = db.execute(
                "SELECT table_id, meta FROM tables ORDER BY updated_at DESC"
            ).fetchall()
            return [(r[0], json.loads(r[1])) for r in rows]

        result: list[tuple[str, dict[str, Any]]] = await self._run(load)
        return result


def open_store(url: str) -> Store:
    """The store for ``url`` (not yet opened: call ``await store.open()``).

    ``sqlite:///abs/path.db``, ``sqlite:relative.db`` or a plain path → SQLite;
    ``postgresql://...`` or ``postgres://...`` → PostgreSQL (lazy import).
    """
    if url.startswith(("postgresql://", "postgres://")):
        module = importlib.import_module("euchre.web.store_pg")
        store = module.PostgresStore(url)
        if not isinstance(store, Store):
            raise TypeError("euchre.web.store_pg.PostgresStore is not a Store")
        return store
    return SQLiteStore(url)
