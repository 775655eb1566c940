"""Nothing is lost: a server killed (SIGKILL) mid-hand resumes every table exactly.

The same SQLite file is served again; a person reconnecting with their token
gets the same seat, seq and view, and the hand goes on to its end; bots that
were to act when the server died act after the restart without anyone asking.
Bots think in worker processes: their moves are the ones the bot makes in the
test's own process on the same state, and the workers die with the server.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import time
from pathlib import Path

import pytest

from euchre.record import read_hand
from euchre.web.tables import Game
from webserver import Api, TableClient, check_messages, play, random_policy, start_server

pytestmark = pytest.mark.timeout(120)


def test_killed_mid_hand_the_hand_goes_on(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'euchre.db'}"
    rng = random.Random(7)
    policy = random_policy(rng)
    with start_server(db) as first:
        api = Api(first.url)
        table_id = api.create({}, ["easy", "easy", "easy"])
        token = api.join(table_id, 1, "Ann")
        api.start(table_id, token)
        me = TableClient(first.ws_url, table_id, token)
        watcher = TableClient(first.ws_url, table_id, None)
        acted = 0

        def enough(st: dict[str, object]) -> bool:
            latest = me.latest
            return (
                acted >= 3
                and me.my_turn()
                and latest is not None
                and len(latest["view"]["history"]) >= 3
            )

        def count(_client: TableClient) -> bool:
            nonlocal acted
            acted += 1
            return False

        # play until the person has acted three times and is to act again, mid-hand
        play([me], watcher, enough, policy, on_turn=count)
        before = me.latest
        assert before is not None and before["view"]["to_act"] == 1 and before["seq"] >= 3
        hand = before["table"]["hands_played"]
        api.close()
        first.kill()

    with start_server(db) as second:
        api = Api(second.url)
        again = TableClient(second.ws_url, table_id, token)
        after = again.state()
        assert after["seat"] == 1
        for key in ("seq", "view", "public", "table", "last_hand"):
            assert after[key] == before[key], key
        spectator = TableClient(second.ws_url, table_id, None)
        play([again], spectator, lambda st: st["table"]["hands_played"] > hand, policy)
        records = {i: api.get(f"/api/tables/{table_id}/hands/{i}").json() for i in range(hand + 1)}
        record = records[hand]
        state = read_hand(record)
        assert state.is_over
        # the hand before and after the kill is one hand: the first socket's history
        # is a prefix of the record
        lines = [f"{s} {a}" for s, a in state.history]
        assert before["public"]["history"] == [
            line if line.split(" ")[1] not in ("pickup", "keep") else " ".join(line.split()[:2])
            for line in lines[: len(before["public"]["history"])]
        ]
        assert check_messages(me, records) > 0
        assert check_messages(again, records) > 0
        assert check_messages(spectator, records) > 0
        api.close()


def test_bots_to_act_when_killed_act_after_the_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'euchre.db'}"
    with start_server(db, bot_delay=60) as slow:
        api = Api(slow.url)
        table_id = api.create({}, ["easy", "easy", "easy"])
        token = api.join(table_id, 0, "Ann")
        me = TableClient(slow.ws_url, table_id, token)
        me.state()
        api.start(table_id, token)
        st = me.state()
        if st["view"]["to_act"] == 0:
            me.act("pass")  # the next to act is then a bot (bid1 goes on, or bid2 starts)
            st = me.wait_for(lambda m: m["type"] == "state" and m["seq"] == 1)
        assert st["view"]["to_act"] != 0  # a bot is to act, and waits a minute
        seq = st["seq"]
        api.close()
        slow.kill()

    with start_server(db, bot_delay=0) as fast:
        spectator = TableClient(fast.ws_url, table_id, None)
        moved = spectator.wait_for(lambda m: m["type"] == "state" and m["seq"] > seq)
        assert moved["seq"] > seq
        history = moved["public"]["history"]
        assert len(history) > len(st["public"]["history"])


def _group_alive(pgid: int) -> bool:
    """Whether any process of the process group ``pgid`` is still there."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_bots_think_in_worker_processes_and_replay_the_same(tmp_path: Path) -> None:
    db_file = tmp_path / "euchre.db"
    db = f"sqlite:///{db_file}"
    policy = random_policy(random.Random(3))
    with start_server(db, bot_workers=2) as first:
        assert "bots think in 2 worker processes" in first.log()
        api = Api(first.url)
        table_id = api.create({}, ["easy", "medium", None])
        token = api.join(table_id, 2, "Ann")
        api.start(table_id, token)
        me = TableClient(first.ws_url, table_id, token)
        watcher = TableClient(first.ws_url, table_id, None)
        # a whole hand, its bots thinking in the workers (the hint too)
        play([me], watcher, lambda st: st["table"]["hands_played"] >= 1, policy, timeout=60)
        st = play([me], watcher, lambda st: me.my_turn(), policy)
        me.send({"type": "hint", "token": token})
        hint = me.wait_for(lambda m: m["type"] == "hint")
        mine = me.latest
        assert mine is not None and mine["seq"] == st["seq"]
        assert hint["suggest"] and hint["seq"] == st["seq"]
        assert "the rule bot plays" not in first.log(), first.log()
        # the server and its workers (and their fork server) make one process group
        pgid = os.getpgid(first.pid)
        group = [p for p in Path("/proc").iterdir() if p.name.isdigit()]
        members = []
        for proc in group:
            with contextlib.suppress(OSError):
                if os.getpgid(int(proc.name)) == pgid and int(proc.name) != first.pid:
                    members.append(int(proc.name))
        assert len(members) >= 2, members  # the workers
        api.close()
        first.kill()
    # killed without a word, the server leaves no worker behind
    deadline = time.monotonic() + 10
    while _group_alive(pgid):
        assert time.monotonic() < deadline, "the workers outlived the killed server"
        time.sleep(0.1)

    # every bot move stored is the one the bot makes in this process, on the same state
    conn = sqlite3.connect(db_file)
    try:
        (meta_text,) = conn.execute(
            "SELECT meta FROM tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        rows = conn.execute(
            "SELECT seq, entry FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
    finally:
        conn.close()
    game = Game.replay(json.loads(meta_text), [])
    bot_moves = 0
    for seq, text in rows:
        entry = json.loads(text)
        assert seq == game.seq
        if entry["seat"] != 2:
            assert game.bot_entry() == entry, (seq, entry)
            bot_moves += 1
        game.apply_entry(entry)
    assert bot_moves >= 10

    # a restart replays the same game and the bots play on, in workers again
    with start_server(db, bot_workers=2) as second:
        again = TableClient(second.ws_url, table_id, token)
        after = again.state()
        assert after["seq"] == game.seq == st["seq"]
        for key in ("view", "public", "table"):
            assert after[key] == mine[key], key
        spectator = TableClient(second.ws_url, table_id, None)
        play([again], spectator, lambda s: s["table"]["hands_played"] >= 2, policy, timeout=60)
        again.close()
        spectator.close()
