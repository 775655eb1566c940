"""The web table on PostgreSQL: the Store contract, push notifications between
processes, and surviving restarts (of a server process and of PostgreSQL).

Every test gets its own database on the session's throwaway PostgreSQL server
(tests/pgserver.py); the PostgreSQL-restart tests use a server of their own so
that other tests never see it go down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
from websockets.asyncio.client import connect as ws_connect

from euchre.web.store import Store, StoreConflict, open_store
from euchre.web.store_pg import PostgresStore
from pgserver import PgServer, PostgresMissing, throwaway_server
from webserver import ServerProcess, start_server

pytestmark = pytest.mark.timeout(120)

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one test coroutine on a fresh event loop."""
    return asyncio.run(coro)


@pytest.fixture
def db_url(pg_server: PgServer) -> str:
    """An empty database of its own for one test."""
    return pg_server.new_database("store")


@pytest.fixture(scope="module")
def pg_fault() -> Iterator[PgServer]:
    """A PostgreSQL server that the tests stop and restart."""
    with throwaway_server() as server:
        yield server


class Recorder:
    """A subscriber callback that records table ids with their arrival time."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []
        self.event = asyncio.Event()

    async def __call__(self, table_id: str) -> None:
        self.calls.append((table_id, time.monotonic()))
        self.event.set()

    def ids(self) -> list[str]:
        return [t for t, _ in self.calls]

    async def wait_for(self, table_id: str, timeout: float = 5.0) -> float:
        """Wait until ``table_id`` is heard of; the arrival time."""
        deadline = time.monotonic() + timeout
        while True:
            for t, at in self.calls:
                if t == table_id:
                    return at
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no notification for {table_id!r}; got {self.ids()}")
            self.event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.event.wait(), remaining)


async def opened(url: str) -> PostgresStore:
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    await store.open()
    return store


async def closing(*stores: Store) -> None:
    for store in stores:
        await store.close()


META = {"rules": {"variant": "cutthroat"}, "seats": [{"name": "Ann"}], "status": "waiting"}


# -- the throwaway server ---------------------------------------------------------------


def test_missing_postgres_is_a_clear_failure_not_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    import pgserver

    monkeypatch.setattr(pgserver.shutil, "which", lambda name: None)
    monkeypatch.setattr(pgserver.glob, "glob", lambda pattern: [])
    with pytest.raises(PostgresMissing, match="apt-get install -y --no-install-recommends"):
        PgServer.create()


def test_the_session_server_listens_on_loopback_with_trust(pg_server: PgServer) -> None:
    assert pg_server.url == f"postgresql://postgres@127.0.0.1:{pg_server.port}/postgres"
    assert pg_server.psql("postgres", "SHOW listen_addresses") == "127.0.0.1"
    assert pg_server.psql("postgres", "SELECT current_user") == "postgres"


# -- the Store contract ---------------------------------------------------------------


def test_open_store_picks_postgres_for_both_url_schemes(db_url: str) -> None:
    assert isinstance(open_store(db_url), PostgresStore)
    other = "postgres://" + db_url.removeprefix("postgresql://")
    assert isinstance(open_store(other), PostgresStore)

    async def go() -> None:
        store = await opened(other)  # libpq accepts the short scheme too
        await store.create_table("t1", META)
        await store.close()

    run(go())


def test_schema_is_jsonb_and_open_is_idempotent_even_when_concurrent(
    pg_server: PgServer, db_url: str
) -> None:
    async def go() -> None:
        stores = [PostgresStore(db_url) for _ in range(4)]
        await asyncio.gather(*(s.open() for s in stores))  # four processes at once
        await stores[0].open()  # again: nothing happens
        await stores[0].create_table("t1", META)
        again = await opened(db_url)  # schema exists: the data stays
        assert await again.load_table("t1") == (META, [])
        await closing(again, *stores)

    run(go())
    dbname = db_url.rsplit("/", 1)[1]
    types = pg_server.psql(
        dbname,
        "SELECT table_name || '.' || column_name || ':' || data_type FROM "
        "information_schema.columns WHERE table_schema = 'public' ORDER BY 1",
    ).splitlines()
    assert types == [
        "actions.entry:jsonb",
        "actions.seq:integer",
        "actions.table_id:text",
        "tables.meta:jsonb",
        "tables.table_id:text",
        "tables.updated_at:timestamp with time zone",
    ]


def test_create_load_and_meta(db_url: str) -> None:
    async def go() -> None:
        store = await opened(db_url)
        assert await store.load_table("nope") is None
        assert await store.load_meta("nope") is None
        assert await store.list_tables() == []
        await store.create_table("t1", META)
        await store.create_table("t2", {"status": "waiting", "n": [1, 2.5, None, True]})
        assert await store.load_table("t1") == (META, [])
        assert await store.load_table("t2") == (
            {"status": "waiting", "n": [1, 2.5, None, True]},
            [],
        )
        # A second create of the same id is refused and changes nothing.
        with pytest.raises(ValueError, match="t1"):
            await store.create_table("t1", {"status": "hijacked"})
        assert await store.load_table("t1") == (META, [])

        playing = {**META, "status": "playing", "seeds": [123456789012]}
        await store.save_meta("t1", playing)
        assert await store.load_table("t1") == (playing, [])
        assert await store.load_meta("t1") == playing
        with pytest.raises(KeyError):
            await store.save_meta("ghost", META)
        assert await store.load_table("ghost") is None

        # Most recently updated first.
        assert [t for t, _ in await store.list_tables()] == ["t1", "t2"]
        await store.save_meta("t2", {"status": "over"})
        assert await store.list_tables() == [("t2", {"status": "over"}), ("t1", playing)]
        await store.close()

    run(go())


def test_expire_waiting_only_expires_a_waiting_table(db_url: str) -> None:
    """One statement tests and writes the status: a started table stays started,
    and the change is pushed to another process like any other."""

    async def go() -> None:
        store, other = await opened(db_url), await opened(db_url)
        heard = Recorder()
        await other.subscribe(heard)
        await store.create_table("t1", META)
        await store.create_table("t2", {**META, "status": "playing"})
        assert await store.expire_waiting("t1") is True
        assert await store.load_meta("t1") == {**META, "status": "expired"}
        await heard.wait_for("t1")
        assert await store.expire_waiting("t1") is False
        assert await store.expire_waiting("t2") is False
        assert await store.expire_waiting("ghost") is False
        assert await store.load_meta("t2") == {**META, "status": "playing"}
        await closing(store, other)

    run(go())


def test_append_conflict_load_and_entries_since(db_url: str) -> None:
    async def go() -> None:
        store = await opened(db_url)
        await store.create_table("t1", META)
        entries = [{"seat": i % 3, "action": a} for i, a in enumerate(["pass", "order", "keep"])]
        for seq, entry in enumerate(entries):
            await store.append_action("t1", seq, entry)
        with pytest.raises(StoreConflict):
            await store.append_action("t1", 1, {"seat": 2, "action": "pass"})
        assert await store.load_table("t1") == (META, entries)
        assert await store.entries_since("t1", 0) == entries
        assert await store.entries_since("t1", 1) == entries[1:]
        assert await store.entries_since("t1", 3) == []
        assert await store.entries_since("other", 0) == []
        # Appending moves the table to the front of the list.
        await store.create_table("t2", META)
        await store.append_action("t1", 3, {"seat": 0, "action": "play JH"})
        assert [t for t, _ in await store.list_tables()] == ["t1", "t2"]
        await store.close()

    run(go())


def test_two_processes_racing_for_one_seq_exactly_one_wins(db_url: str) -> None:
    async def go() -> None:
        a, b = await opened(db_url), await opened(db_url)
        await a.create_table("t1", META)
        for seq in range(5):
            results = await asyncio.gather(
                a.append_action("t1", seq, {"by": "a", "seq": seq}),
                b.append_action("t1", seq, {"by": "b", "seq": seq}),
                return_exceptions=True,
            )
            conflicts = [r for r in results if isinstance(r, StoreConflict)]
            assert len(conflicts) == 1 and results.count(None) == 1, results
        loaded = await b.load_table("t1")
        assert loaded is not None
        assert [e["seq"] for e in loaded[1]] == [0, 1, 2, 3, 4]
        await closing(a, b)

    run(go())


def test_notifications_reach_another_store_at_once_and_only_on_commit(db_url: str) -> None:
    async def go() -> None:
        a, b = await opened(db_url), await opened(db_url)
        heard_a, heard_b = Recorder(), Recorder()
        await a.subscribe(heard_a)
        await b.subscribe(heard_b)

        started = time.monotonic()
        await a.create_table("t1", META)
        assert await heard_b.wait_for("t1") - started < 0.5
        heard_b.calls.clear()

        started = time.monotonic()
        await a.append_action("t1", 0, {"action": "pass"})
        assert await heard_b.wait_for("t1") - started < 0.5
        heard_b.calls.clear()

        heard_a.calls.clear()
        await b.save_meta("t1", {**META, "status": "playing"})
        await heard_a.wait_for("t1")

        # A refused write commits nothing and tells no one.
        heard_a.calls.clear()
        heard_b.calls.clear()
        with pytest.raises(StoreConflict):
            await b.append_action("t1", 0, {"action": "order"})
        with pytest.raises(KeyError):
            await b.save_meta("ghost", META)
        await asyncio.sleep(0.3)
        assert heard_a.ids() == [] and heard_b.ids() == []

        # The writer's own subscribers are told once, before the write returns.
        await a.append_action("t1", 1, {"action": "order"})
        assert heard_a.ids() == ["t1"]
        await heard_b.wait_for("t1")
        await asyncio.sleep(0.3)
        assert heard_a.ids() == ["t1"] and heard_b.ids() == ["t1"]
        await closing(a, b)

    run(go())


def test_a_lost_commit_answer_is_retried_without_a_false_conflict(db_url: str) -> None:
    """The connection dies after COMMIT but before its answer: the retry finds
    its own entry and succeeds; a different entry at that seq still conflicts."""

    class LossyStore(PostgresStore):
        lose_next = False

        async def _run(self, op: Callable[[Any, int], Awaitable[T]]) -> T:
            async def lossy(conn: Any, attempt: int) -> T:
                result = await op(conn, attempt)
                if self.lose_next:
                    self.lose_next = False
                    raise psycopg.OperationalError("simulated: the answer was lost")
                return result

            return await super()._run(lossy)

    async def go() -> None:
        store = LossyStore(db_url)
        await store.open()
        store.lose_next = True
        await store.create_table("t1", META)
        store.lose_next = True
        await store.append_action("t1", 0, {"action": "pass", "seat": 1})
        assert await store.load_table("t1") == (META, [{"action": "pass", "seat": 1}])
        with pytest.raises(StoreConflict):
            await store.append_action("t1", 0, {"action": "order", "seat": 1})
        with pytest.raises(ValueError):
            await store.create_table("t1", {"other": True})
        await store.close()

    run(go())


def test_closed_store_refuses_work(db_url: str) -> None:
    async def go() -> None:
        store = await opened(db_url)
        await store.close()
        await store.close()  # idempotent
        with pytest.raises(RuntimeError, match="closed"):
            await store.load_table("t1")

    run(go())


# -- PostgreSQL goes away and comes back ---------------------------------------------------


def test_store_survives_a_postgres_restart(pg_fault: PgServer) -> None:
    url = pg_fault.new_database("restart")

    async def go() -> None:
        a, b = await opened(url), await opened(url)
        heard = Recorder()
        await b.subscribe(heard)
        await a.create_table("t1", META)
        await a.create_table("t2", META)
        await a.append_action("t1", 0, {"action": "pass"})
        await heard.wait_for("t2")
        while heard.ids().count("t1") < 2:  # create and append: all heard, none pending
            await heard.wait_for("t1")
            await asyncio.sleep(0.05)
        heard.calls.clear()

        # Fast shutdown: every connection (pool and LISTEN) is cut.
        await asyncio.to_thread(pg_fault.restart, "fast")
        # The listener reconnects by itself and calls back for every table.
        await heard.wait_for("t1", timeout=15)
        await heard.wait_for("t2", timeout=15)
        heard.calls.clear()
        # The pool's dead connections are replaced: a write works and is pushed.
        await a.append_action("t1", 1, {"action": "order"})
        await heard.wait_for("t1")
        assert await b.entries_since("t1", 0) == [{"action": "pass"}, {"action": "order"}]

        # A crash (immediate stop), and writes made while PostgreSQL is down
        # wait for it to come back (bounded retries) instead of failing.
        await asyncio.to_thread(pg_fault.stop, "immediate")
        heard.calls.clear()
        pending = asyncio.create_task(a.append_action("t2", 0, {"action": "pass"}))
        await asyncio.sleep(0.8)
        assert not pending.done()
        await asyncio.to_thread(pg_fault.start)
        await asyncio.wait_for(pending, 15)
        await heard.wait_for("t2", timeout=15)
        assert await b.load_table("t2") == (META, [{"action": "pass"}])
        await closing(a, b)

    run(go())


def test_operations_give_up_after_bounded_retries(pg_fault: PgServer) -> None:
    url = pg_fault.new_database("down")

    async def go() -> None:
        store = PostgresStore(url, retries=3)
        await store.open()
        await asyncio.to_thread(pg_fault.stop, "fast")
        try:
            started = time.monotonic()
            with pytest.raises(psycopg.OperationalError):
                await store.load_table("t1")
            assert time.monotonic() - started < 5
        finally:
            await asyncio.to_thread(pg_fault.start)
        assert await store.load_table("t1") is None  # and it works again
        await store.close()

    run(go())


# -- real `euchre serve` processes on one PostgreSQL database ---------------------------


class SeatClient:
    """One WebSocket client of a table: records every message with its arrival time."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, server: ServerProcess, table_id: str, token: str | None) -> SeatClient:
        ws = await ws_connect(f"{server.ws_url}/ws/{table_id}")
        client = cls(ws, server.url)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        client.token = token
        await client.wait(lambda s: True)
        return client

    token: str | None = None

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                message["_at"] = time.monotonic()
                if message["type"] == "state":
                    self.states.append(message)
                elif message["type"] == "error":
                    self.errors.append(message)
                self.changed.set()

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    async def wait(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The first state (oldest first) that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for state in self.states[seen:]:
                if pred(state):
                    return state
            seen = len(self.states)
            assert not self.errors, f"{self.name}: {self.errors}"
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.reader.done():
                last = self.states[-1] if self.states else None
                closed = " (connection closed)" if self.reader.done() else ""
                raise AssertionError(f"{self.name}: no such state{closed}; last {last}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    async def act(self, action: str) -> int:
        """Send ``action`` on the latest state; that state's seq."""
        seq = int(self.state["seq"])
        await self.ws.send(
            json.dumps({"type": "action", "token": self.token, "action": action, "seq": seq})
        )
        return seq

    def choice(self) -> str:
        """A legal action of this seat (not the bare keep, which others cannot see)."""
        legal = [a for a in self.state["view"]["legal"] if a != "keep"]
        assert legal, self.state["view"]
        return legal[0]

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


def to_act(state: dict[str, Any]) -> int | None:
    public = state["public"]
    return None if public is None else public["to_act"]


def new_table(server: ServerProcess, bots: list[str | None]) -> str:
    reply = httpx.post(f"{server.url}/api/tables", json={"rules": {}, "bots": bots}, timeout=10)
    assert reply.status_code == 201, reply.text
    return str(reply.json()["table_id"])


def join(server: ServerProcess, table_id: str, seat: int, name: str) -> str:
    reply = httpx.post(
        f"{server.url}/api/tables/{table_id}/join", json={"seat": seat, "name": name}, timeout=10
    )
    assert reply.status_code == 200, reply.text
    return str(reply.json()["token"])


def start(server: ServerProcess, table_id: str, token: str) -> None:
    reply = httpx.post(
        f"{server.url}/api/tables/{table_id}/start", json={"token": token}, timeout=10
    )
    assert reply.status_code == 200, reply.text


def stored_action(server: PgServer, url: str, table_id: str, seq: int) -> str:
    """``"SEAT ACTION"`` of entry ``seq`` as stored in the database."""
    return server.psql(
        url.rsplit("/", 1)[1],
        "SELECT (entry->>'seat') || ' ' || (entry->>'action') FROM actions "
        f"WHERE table_id = '{table_id}' AND seq = {seq}",
    )


@pytest.fixture
def two_servers(pg_server: PgServer) -> Iterator[tuple[str, ServerProcess, ServerProcess]]:
    """Two `euchre serve` processes on one fresh PostgreSQL database."""
    url = pg_server.new_database("serve")
    with start_server(url) as a, start_server(url) as b:
        yield url, a, b
    print("--- server A ---\n" + a.log() + "\n--- server B ---\n" + b.log())


async def two_seat_table(a: ServerProcess, b: ServerProcess) -> tuple[str, SeatClient, SeatClient]:
    """A Cutthroat table made on A: seat 0 plays through B, seat 1 through A, seat 2
    is an easy bot; started, both clients connected."""
    table_id = await asyncio.to_thread(new_table, a, [None, None, "easy"])
    token0 = await asyncio.to_thread(join, b, table_id, 0, "Bea")
    token1 = await asyncio.to_thread(join, a, table_id, 1, "Al")
    on_b = await SeatClient.open(b, table_id, token0)
    on_a = await SeatClient.open(a, table_id, token1)
    await asyncio.to_thread(start, a, table_id, token1)
    for client in (on_a, on_b):
        await client.wait(lambda s: s["table"]["status"] == "playing" and s["public"] is not None)
    return table_id, on_a, on_b


async def step(on_a: SeatClient, on_b: SeatClient) -> tuple[int, float | None]:
    """Make the next human move (seat 1 through A, seat 0 through B), or wait for
    the bot's. Returns the seq reached and, for a move of seat 1 through A, how
    long it took to reach the client on B."""
    state = max(on_b.state, on_a.state, key=lambda s: (s["seq"], s["public"] is not None))
    seq = state["seq"]
    seat = to_act(state)
    if seat == 1:
        action = on_a.choice()
        sent = time.monotonic()
        await on_a.act(action)
        arrived = await on_b.wait(lambda s: s["seq"] > seq)
        await on_a.wait(lambda s: s["seq"] > seq)
        return arrived["seq"], arrived["_at"] - sent
    if seat == 0:
        await on_b.wait(lambda s: s["seq"] == seq)
        await on_b.act(on_b.choice())
    arrived = await on_b.wait(lambda s: s["seq"] > seq)
    await on_a.wait(lambda s: s["seq"] >= arrived["seq"])
    return arrived["seq"], None


def test_two_processes_one_table_moves_are_pushed_at_once(
    two_servers: tuple[str, ServerProcess, ServerProcess],
) -> None:
    _url, a, b = two_servers

    async def go() -> None:
        _table_id, on_a, on_b = await two_seat_table(a, b)
        latencies: list[float] = []
        # A whole hand (and more if seat 1 had too few moves in it): every move of
        # seat 1, made through A, reaches B at once.
        for _ in range(300):
            if on_b.state["table"]["hands_played"] >= 1 and len(latencies) >= 5:
                break
            _seq, latency = await step(on_a, on_b)
            if latency is not None:
                latencies.append(latency)
        assert len(latencies) >= 5, latencies
        assert max(latencies) < 0.5, latencies
        print("latencies A -> B:", [round(x, 3) for x in latencies])
        # Both processes agree on the table (once both clients have the last
        # move: a bot may just have acted), and each client saw only its own seat.
        last = max(on_a.state["seq"], on_b.state["seq"])
        await on_a.wait(lambda s: s["seq"] >= last)
        await on_b.wait(lambda s: s["seq"] >= last)
        assert on_a.state["public"] == on_b.state["public"]
        assert on_a.state["table"] == on_b.state["table"]
        for client, seat in ((on_a, 1), (on_b, 0)):
            assert {s["seat"] for s in client.states} == {seat}
            assert {s["view"]["seat"] for s in client.states if s["view"]} == {seat}
        await on_a.close()
        await on_b.close()

    run(go())
    assert "Traceback" not in a.log() + b.log(), a.log() + b.log()


def test_the_push_comes_from_notify_not_from_polling(
    pg_server: PgServer, two_servers: tuple[str, ServerProcess, ServerProcess]
) -> None:
    """An entry written straight into the database without NOTIFY reaches no one,
    however long we wait; NOTIFY alone then brings it to both processes at once."""
    url, a, b = two_servers
    dbname = url.rsplit("/", 1)[1]

    async def go() -> None:
        table_id, on_a, on_b = await two_seat_table(a, b)
        while to_act(on_a.state) != 1 or on_a.state["seq"] != on_b.state["seq"]:
            await step(on_a, on_b)
        seq = on_a.state["seq"]
        hand = on_a.state["table"]["hands_played"]
        action = on_a.choice()
        entry = json.dumps({"hand": hand, "seat": 1, "action": action})
        await asyncio.to_thread(
            pg_server.psql,
            dbname,
            f"INSERT INTO actions (table_id, seq, entry) VALUES ('{table_id}', {seq}, '{entry}')",
        )
        await asyncio.sleep(1.5)
        assert on_a.state["seq"] == seq and on_b.state["seq"] == seq  # nobody polled
        sent = time.monotonic()
        await asyncio.to_thread(
            pg_server.psql, dbname, f"SELECT pg_notify('euchre_table', '{table_id}')"
        )
        got_b = await on_b.wait(lambda s: s["seq"] > seq, timeout=5)
        got_a = await on_a.wait(lambda s: s["seq"] > seq, timeout=5)
        assert got_b["_at"] - sent < 0.5 and got_a["_at"] - sent < 0.5
        # The bot (seat 2) may answer the entry at once, so the first state after
        # it need not be the same on both; both then reach the further one.
        further = max(got_a["seq"], got_b["seq"])
        for client in (on_a, on_b):
            await client.wait(lambda s: s["seq"] >= further, timeout=5)
        await on_a.close()
        await on_b.close()

    run(go())


async def my_turn(me: SeatClient, after: int, hand: int, seat: int = 0) -> dict[str, Any]:
    """The next state (seq > ``after``) where ``seat`` is to act or hand ``hand`` is over."""
    return await me.wait(
        lambda s: s["seq"] > after and (to_act(s) == seat or s["table"]["hands_played"] > hand),
        timeout=30,
    )


def test_a_killed_server_restarts_and_the_hand_goes_on(pg_server: PgServer) -> None:
    url = pg_server.new_database("kill")
    logs: list[str] = []

    async def go() -> None:
        first = await asyncio.to_thread(start_server, url)
        try:
            table_id = await asyncio.to_thread(new_table, first, [None, "easy", "easy"])
            token = await asyncio.to_thread(join, first, table_id, 0, "Kim")
            me = await SeatClient.open(first, table_id, token)
            await asyncio.to_thread(start, first, table_id, token)
            # Play into a hand: two moves of ours, then our turn again, that hand not over.
            # The deal is the table's (random) own: a hand can end before our second
            # move (thrown in when all pass, say); then the two moves are made in the next.
            hand, moves = 0, 0
            state = await my_turn(me, -1, hand)
            while not (moves == 2 and state["table"]["hands_played"] == hand):
                if state["table"]["hands_played"] > hand:
                    hand, moves = state["table"]["hands_played"], 0
                    if to_act(state) != 0:
                        state = await my_turn(me, state["seq"], hand)
                        continue
                await me.act(me.choice())
                moves += 1
                state = await my_turn(me, state["seq"], hand)
            before = state
            assert before["table"]["hands_played"] == hand and to_act(before) == 0
            assert before["seq"] >= 2
        finally:
            await asyncio.to_thread(first.kill)  # SIGKILL mid-hand
        await me.close()

        second = await asyncio.to_thread(start_server, url)
        try:
            me = await SeatClient.open(second, table_id, token)
            after = me.state  # exactly where the killed process left it
            assert after["seq"] == before["seq"]
            assert after["view"] == before["view"] and after["public"] == before["public"]
            state = after
            while state["table"]["hands_played"] <= hand:  # the hand goes on to its end
                await me.act(me.choice())
                state = await my_turn(me, state["seq"], hand)
            reply = await asyncio.to_thread(
                httpx.get, f"{second.url}/api/tables/{table_id}/hands/{hand}", timeout=10
            )
            assert reply.status_code == 200, reply.text
            await me.close()
        finally:
            await asyncio.to_thread(second.stop)
            logs.append(second.log())

    run(go())
    assert "Traceback" not in logs[0], logs[0]


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_servers_recover_when_postgres_restarts_under_them(pg_fault: PgServer, mode: str) -> None:
    url = pg_fault.new_database(f"pgrestart_{mode}")

    logs: list[str] = []

    async def go() -> None:
        a = await asyncio.to_thread(start_server, url)
        b = await asyncio.to_thread(start_server, url)
        try:
            table_id, on_a, on_b = await two_seat_table(a, b)
            for _ in range(2):
                await step(on_a, on_b)
            while to_act(on_b.state) != 1 or on_a.state["seq"] != on_b.state["seq"]:
                await step(on_a, on_b)

            await asyncio.to_thread(pg_fault.restart, mode, 0.5)

            # No manual help: a move through A after the restart is stored and
            # pushed to the client on B (whose process had to LISTEN again).
            seq = on_a.state["seq"]
            action = on_a.choice()
            await on_a.act(action)
            await on_b.wait(lambda s: s["seq"] > seq, timeout=20)
            assert await asyncio.to_thread(stored_action, pg_fault, url, table_id, seq) == (
                f"1 {action}"
            )
            # And the table plays on normally, through both processes.
            for _ in range(4):
                await step(on_a, on_b)
            await on_a.close()
            await on_b.close()
        finally:
            await asyncio.to_thread(a.stop)
            await asyncio.to_thread(b.stop)
            logs.extend([a.log(), b.log()])

    run(go())
    assert "Traceback" not in "".join(logs), "".join(logs)
