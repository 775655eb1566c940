"""Faults: a server killed (SIGKILL) under load loses no acknowledged action, and a
bot that raises or thinks too long gives its seat to the rule bot.

- Several tables, one person each acting as fast as the server lets them (rule
  bots in the other seats, no pace): the server is killed mid-play; every action
  that was acknowledged (a ``state`` with a later ``seq`` reached the client) is
  in the database, as sent, and after a restart every table plays on from there.
- A seat whose bot raises (``test-raise``) or takes longer than ``--bot-timeout``
  (``test-slow``) is played by the rule bot from then on; the table goes on, the
  server says so in its log and in a ``notice`` to the table's clients (a
  worker stuck on the slow bot is replaced), and the stored moves are the rule bot's own
  (seeded from the table, the hand and the seq), so a restart replays the game.
  Those two levels exist only with ``EUCHRE_TEST_BOTS=1`` (test-only).
- PostgreSQL restarted under running servers: tests/test_web_pg.py
  (``test_servers_recover_when_postgres_restarts_under_them``) covers it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from euchre.web.tables import Game
from webserver import Api, TableClient, start_server

pytestmark = pytest.mark.timeout(120)

#: least time between two actions of one client (the server allows 20 a second)
GAP = 0.06


def stored(db_file: Path) -> tuple[dict[str, dict[str, Any]], dict[str, dict[int, dict[str, Any]]]]:
    """The metas and entries of every table, read straight from the SQLite file."""
    conn = sqlite3.connect(db_file)
    try:
        metas = {t: json.loads(m) for t, m in conn.execute("SELECT table_id, meta FROM tables")}
        entries: dict[str, dict[int, dict[str, Any]]] = {t: {} for t in metas}
        for table_id, seq, entry in conn.execute("SELECT table_id, seq, entry FROM actions"):
            entries[table_id][seq] = json.loads(entry)
    finally:
        conn.close()
    return metas, entries


class Player:
    """One person at a table acting at once on each turn, keeping what was acknowledged."""

    def __init__(self, client: TableClient, rng: random.Random) -> None:
        self.client = client
        self.rng = rng
        self.pending: tuple[int, str] | None = None
        self.acked: list[tuple[int, str]] = []
        self.top = 0  # the highest seq a state showed this client
        self.last_send = 0.0
        self.errors: list[dict[str, Any]] = []

    def take(self, message: dict[str, Any]) -> None:
        """Note an incoming message."""
        if message.get("type") == "error":
            self.errors.append(message)
        if message.get("type") != "state":
            return
        self.top = max(self.top, message["seq"])
        if self.pending is not None and message["seq"] > self.pending[0]:
            self.acked.append(self.pending)
            self.pending = None

    def step(self) -> None:
        """Read what arrived; act if it is this seat's turn."""
        for message in self.client.pump(0.001):
            self.take(message)
        st = self.client.latest
        if self.pending is not None or st is None or st["view"] is None:
            return
        if st["view"]["to_act"] != st["seat"] or not st["view"]["legal"]:
            return
        if st["table"]["status"] != "playing" or time.monotonic() - self.last_send < GAP:
            return
        action = self.rng.choice(st["view"]["legal"])
        self.pending = (st["seq"], action)
        self.last_send = time.monotonic()
        self.client.act(action)

    def drain(self) -> None:
        """Read every message still buffered (the server is gone)."""
        while True:
            try:
                raw = self.client.ws.recv(timeout=0.2)
            except Exception:
                return
            self.take(json.loads(raw))


def test_kill_under_load_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db_file = tmp_path / "euchre.db"
    db = f"sqlite:///{db_file}"
    rng = random.Random(11)
    tables: list[tuple[str, str]] = []
    with start_server(db) as first:
        api = Api(first.url)
        for _ in range(4):
            table_id = api.create({}, [None, "rule", "rule"])
            token = api.join(table_id, 0, "Ann")
            api.start(table_id, token)
            tables.append((table_id, token))
        players = [Player(TableClient(first.ws_url, t, tok), rng) for t, tok in tables]
        deadline = time.monotonic() + 2.0 + rng.random()
        while time.monotonic() < deadline:
            for player in players:
                player.step()
        first.kill()  # SIGKILL while the clients are acting
        api.close()
    for player in players:
        player.drain()
        player.client.close()
        assert not player.errors, player.errors
    assert sum(len(p.acked) for p in players) >= 20, "the clients hardly played"

    metas, entries = stored(db_file)
    for (table_id, _token), player in zip(tables, players, strict=True):
        have = entries[table_id]
        # every move shown to the client (the bots' too) is stored, in order
        assert all(seq in have for seq in range(player.top)), (table_id, player.top)
        for seq, action in player.acked:
            assert have[seq]["seat"] == 0 and have[seq]["action"] == action
        # and the stored entries replay
        Game.replay(metas[table_id], [have[s] for s in sorted(have)])

    with start_server(db) as second:
        again = []
        for (table_id, token), player in zip(tables, players, strict=True):
            client = TableClient(second.ws_url, table_id, token)
            st = client.state()
            assert st["seq"] >= player.top and st["seat"] == 0
            again.append(Player(client, rng))
        tops = [p.client.latest["seq"] for p in again if p.client.latest]
        deadline = time.monotonic() + 30

        def going(p: Player, top: int) -> bool:
            st = p.client.latest
            return p.top < top + 12 and not (st and st["table"]["status"] == "over")

        while any(going(p, top) for p, top in zip(again, tops, strict=True)):
            assert time.monotonic() < deadline, "play did not go on after the restart"
            for player in again:
                player.step()
        for player in again:
            assert not player.errors, player.errors
            player.client.close()


def test_hidden_test_levels_and_the_rule_level(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'euchre.db'}"
    with start_server(db) as server:
        api = Api(server.url)
        answer = api.post("/api/tables", {"rules": {}, "bots": ["test-raise", None, None]})
        assert answer.status_code == 400, answer.text
        assert "test-raise" in answer.json()["error"]["message"]
        assert "test-" not in json.dumps(api.get("/api/options").json())
        table_id = api.create({}, ["rule", "rule", None])
        summary = api.get(f"/api/tables/{table_id}").json()
        assert [s["level"] for s in summary["seats"]] == ["rule", "rule", "medium"]
        api.close()


def test_failing_and_slow_bots_fall_back_to_the_rule_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EUCHRE_TEST_BOTS", "1")
    db_file = tmp_path / "euchre.db"
    db = f"sqlite:///{db_file}"
    rng = random.Random(5)
    with start_server(db, extra_args=["--bot-timeout", "0.5"]) as first:
        api = Api(first.url)
        table_id = api.create({}, ["test-raise", "test-slow", None])
        token = api.join(table_id, 2, "Ann")
        api.start(table_id, token)
        me = Player(TableClient(first.ws_url, table_id, token), rng)
        deadline = time.monotonic() + 40
        # a whole hand and the next one begun: both bot seats must have acted
        while me.client.latest is None or me.client.latest["table"]["hands_played"] < 1:
            assert time.monotonic() < deadline, "the table did not go on"
            me.step()
        assert not me.errors, me.errors
        before = me.client.latest
        # the players were told, once for each seat, which bot failed and how
        notices = [m for m in me.client.messages if m["type"] == "notice"]
        assert sorted((n["code"], n["seat"], n["level"]) for n in notices) == [
            ("bot_fallback", 0, "test-raise"),
            ("bot_fallback", 1, "test-slow"),
        ], notices
        by_seat = {n["seat"]: n for n in notices}
        assert "failed" in by_seat[0]["message"]
        assert "took over 0.5s" in by_seat[1]["message"]
        # a spectator coming later is told too, after its first state
        late = TableClient(first.ws_url, table_id, None)
        late.state()
        told = [late.wait_for(lambda m: m["type"] == "notice") for _ in range(2)]
        assert [n["seat"] for n in told] == [0, 1]
        assert told == [by_seat[0], by_seat[1]]
        late.close()
        # the worker stuck on the slow bot is replaced as soon as it is
        # abandoned (the tests run one worker)
        replaced = "the bot pool is replaced: 1 of its workers are stuck"
        deadline = time.monotonic() + 10
        while replaced not in first.log():
            assert time.monotonic() < deadline, first.log()
            time.sleep(0.05)
        log = first.log()
        api.close()
        first.kill()
    # each failure is logged once: the seat stays on the rule bot afterwards
    assert log.count("the test-raise bot of seat 0 failed") == 1, log
    assert log.count("the test-slow bot of seat 1 took over 0.5s") == 1, log
    assert "RuntimeError: test-raise" in log
    assert log.count(replaced) == 1, log

    # what the two seats played is the rule bot's own choice on the same state
    metas, entries = stored(db_file)
    meta, have = metas[table_id], entries[table_id]
    game = Game.replay(meta, [])
    fallbacks = 0
    for seq in sorted(have):
        entry = have[seq]
        if entry["seat"] in (0, 1):
            assert game.bot_entry("rule") == entry, (seq, entry)
            fallbacks += 1
        game.apply_entry(entry)
    assert fallbacks >= 6

    # a restart replays the same game and the table plays on
    with start_server(db, extra_args=["--bot-timeout", "0.5"]) as second:
        again = Player(TableClient(second.ws_url, table_id, token), rng)
        st = again.client.state()
        assert st["seq"] >= before["seq"]
        if st["seq"] == before["seq"]:
            for key in ("view", "public", "table"):
                assert st[key] == before[key], key
        deadline = time.monotonic() + 30
        while again.top < st["seq"] + 6:
            assert time.monotonic() < deadline, "the table did not go on after the restart"
            again.step()
        assert not again.errors, again.errors
        again.client.close()
