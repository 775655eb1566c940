"""The SQLite store and the table game it replays (no server process).

- ``SQLiteStore``: schema created (and its folder), commits survive a reopen,
  ``append_action`` refuses a taken seq (``StoreConflict``), entries in order,
  subscribers hear every change; ``open_store`` reads the URL forms.
- ``Game``: a table replays exactly from meta and entries (deals from the table
  seed, bots deterministic), the bare ``keep`` entry, refused actions.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from euchre.bots import SearchBot
from euchre.bots.style import CallStyles
from euchre.hand import Phase
from euchre.record import hand_record
from euchre.rules import Rules
from euchre.view import View
from euchre.web.store import SQLiteStore, StoreConflict, open_store, sqlite_path
from euchre.web.tables import (
    Game,
    TableError,
    hash_token,
    make_level_bot,
    new_meta,
    run_bot_job,
)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- the store --------------------------------------------------------------------------------


def test_url_forms(tmp_path: Path) -> None:
    assert sqlite_path("sqlite:///tmp/x/e.db") == Path("/tmp/x/e.db")
    assert sqlite_path("sqlite:rel/e.db") == Path("rel/e.db")
    assert sqlite_path(str(tmp_path / "e.db")) == tmp_path / "e.db"
    store = open_store(f"sqlite:///{tmp_path / 'e.db'}")
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "e.db"


def test_store_round_trip_and_conflicts(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "e.db"

    async def scenario() -> None:
        store = open_store(f"sqlite:///{path}")
        await store.open()
        heard: list[str] = []

        async def listen(table_id: str) -> None:
            heard.append(table_id)

        await store.subscribe(listen)
        assert await store.load_table("t1") is None
        assert await store.load_meta("t1") is None
        await store.create_table("t1", {"a": 1})
        with pytest.raises(ValueError):
            await store.create_table("t1", {"a": 2})
        await store.create_table("t2", {"b": 1})
        for seq in range(3):
            await store.append_action("t1", seq, {"n": seq})
        with pytest.raises(StoreConflict):
            await store.append_action("t1", 1, {"n": "again"})
        await store.save_meta("t1", {"a": 3})
        with pytest.raises(KeyError):
            await store.save_meta("nope", {})
        assert await store.load_table("t1") == ({"a": 3}, [{"n": 0}, {"n": 1}, {"n": 2}])
        assert await store.load_meta("t1") == {"a": 3}
        assert await store.entries_since("t1", 1) == [{"n": 1}, {"n": 2}]
        assert await store.entries_since("t1", 3) == []
        assert await store.entries_since("t2", 0) == []
        assert sorted(t for t, _ in await store.list_tables()) == ["t1", "t2"]
        assert heard == ["t1", "t2", "t1", "t1", "t1", "t1"]
        await store.close()

        again = open_store(f"sqlite:///{path}")
        await again.open()
        assert await again.load_table("t1") == ({"a": 3}, [{"n": 0}, {"n": 1}, {"n": 2}])
        await again.close()

    run(scenario())
    conn = sqlite3.connect(path)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(actions)")}
    assert columns == {"table_id", "seq", "entry"}
    conn.close()


def test_expire_waiting_only_expires_a_waiting_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'e.db'}")
        await store.open()
        heard: list[str] = []

        async def listen(table_id: str) -> None:
            heard.append(table_id)

        await store.subscribe(listen)
        await store.create_table("w", {"status": "waiting", "created": 1.5, "seats": [1]})
        await store.create_table("p", {"status": "playing"})
        heard.clear()
        assert await store.expire_waiting("w") is True
        assert await store.load_meta("w") == {"status": "expired", "created": 1.5, "seats": [1]}
        assert await store.expire_waiting("w") is False
        assert await store.expire_waiting("p") is False
        assert await store.expire_waiting("nope") is False
        assert await store.load_meta("p") == {"status": "playing"}
        assert heard == ["w"]
        await store.close()

    run(scenario())


def test_an_expired_table_refuses_people() -> None:
    game = Game(new_meta("tbl", Rules(), None, "t"))
    assert game.status == "waiting" and isinstance(game.meta["created"], float)
    game.meta["status"] = "expired"
    game = Game(game.meta)
    assert game.status == "expired" and game.current is None
    assert game.summary()["status"] == "expired"
    for attempt in (lambda: game.join(0, "A"), lambda: game.check(0, game.parse("pass"))):
        with pytest.raises(TableError) as refused:
            attempt()
        assert (refused.value.code, refused.value.status) == ("expired", 410)


def test_a_closed_store_refuses(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'e.db'}")
    with pytest.raises(RuntimeError):
        run(store.load_table("t"))


# -- the game ---------------------------------------------------------------------------------


def started(variant: str = "cutthroat", humans: tuple[int, ...] = (0,), seed: int = 5) -> Game:
    rules = Rules(variant=variant)  # type: ignore[arg-type]
    meta = new_meta("tbl", rules, ["easy"] * rules.seats, "t", seed=seed)
    game = Game(meta)
    for seat in humans:
        game.join(seat, f"p{seat}")
    game.start()
    return game


def play_out(game: Game, entries: list[dict[str, Any]], hands: int = 1) -> None:
    """Bots for every seat (the humans' moves made by bots too) for ``hands`` hands."""
    while len(game.match.hands) < hands:
        seat = game.to_act
        assert seat is not None
        kind = game.seats[seat]["kind"]
        game.seats[seat]["kind"] = "bot"
        entry = game.bot_entry()
        game.seats[seat]["kind"] = kind
        assert entry is not None
        game.apply_entry(entry)
        entries.append(entry)


def test_a_table_replays_exactly() -> None:
    game = started("partnership", humans=(1,))
    entries: list[dict[str, Any]] = []
    play_out(game, entries, hands=2)
    copy_ = Game.replay(copy.deepcopy(game.meta), entries)
    assert copy_.seq == game.seq == len(entries)
    assert copy_.match_record() == game.match_record()
    assert copy_.match.scores == game.match.scores
    assert copy_.current is not None and game.current is not None
    assert hand_record(copy_.current) == hand_record(game.current)
    # the same seed deals the same cards and the bots choose the same
    other = started("partnership", humans=(1,))
    again: list[dict[str, Any]] = []
    play_out(other, again, hands=2)
    assert again == entries
    # another seed, another game
    third = started("partnership", humans=(1,), seed=6)
    assert third.current is not None and game.deal_for(0) != third.deal_for(0)


def test_bots_learn_the_others_calls_from_the_finished_hands() -> None:
    """A bot seat's job carries what the seat has seen of the others' calls
    in the match's finished hands, through its own views (``bots.style``):
    a hard bot models the others by it; a replayed table learns the same."""
    rules = Rules(variant="partnership")
    meta = new_meta("tbl", rules, ["hard"] * rules.seats, "t", seed=3)
    game = Game(meta)
    game.start()  # bots in every seat
    entries: list[dict[str, Any]] = []
    play_out(game, entries, hands=3)
    seat = game.to_act
    assert seat is not None and game.seats[seat]["kind"] == "bot"
    job = game.bot_job()
    assert job is not None and job.styles is not None
    want = CallStyles(rules, seat)
    for hand in game.match.hands:
        want.observe(View.of(hand, seat))
    assert job.styles.log_post == want.log_post and sum(want.seen) > 0
    again = Game.replay(copy.deepcopy(game.meta), entries).bot_job()
    assert again is not None and again.styles is not None
    assert again.styles.log_post == want.log_post
    # a level that does not learn is not given them (the fallback rule bot)
    fallback = game.bot_job("rule")
    assert fallback is not None and fallback.styles is None
    # the job's bot takes them (a copy: the bot cannot change the table's)
    assert job.styles is not game.styles_of(seat)
    bot = make_level_bot(job.level, job.seed)
    assert isinstance(bot, SearchBot)
    run_bot_job(job)  # a legal entry, with the styles in the bot's model


def test_meta_holds_token_hashes_only() -> None:
    rules = Rules()
    game = Game(new_meta("tbl", rules, None, None, seed=1))
    token = game.join(2, "Ann")
    assert token not in str(game.meta)
    assert game.seats[2]["token_sha256"] == hash_token(token)
    assert game.seat_of(token) == 2 and game.seat_of(token + "x") is None
    with pytest.raises(TableError) as info:
        game.join(2, "Bob")
    assert info.value.code == "seat_taken"
    with pytest.raises(TableError):
        game.join(0, "x" * 41)


def test_new_meta_validates_bot_levels() -> None:
    with pytest.raises(TableError, match="3 seats"):
        new_meta("t", Rules(), ["easy"], None)
    with pytest.raises(TableError, match="godlike"):
        new_meta("t", Rules(), ["easy", "godlike", None], None)


def find_maker_choice(seed_from: int) -> tuple[Game, list[dict[str, Any]]]:
    """A Cutthroat game at a person's maker choice (alone or merge)."""
    for seed in range(seed_from, seed_from + 200):
        game = started(seed=seed, humans=(0, 1, 2))
        entries: list[dict[str, Any]] = []
        while game.current is not None and len(game.match.hands) == 0:
            state = game.current
            if state.phase is Phase.MAKER:
                return game, entries
            seat = game.to_act
            assert seat is not None
            legal = [str(a) for a in state.legal_actions()]
            action = "order" if "order" in legal else legal[0]
            entry = game.check(seat, game.parse(action))
            game.apply_entry(entry)
            entries.append(entry)
    raise AssertionError("no maker choice found")


def test_the_bare_keep_entry() -> None:
    game, entries = find_maker_choice(0)
    maker = game.to_act
    assert maker is not None
    view = game.view(maker)
    assert view is not None and [str(a) for a in view.legal] == ["alone", "keep"]
    assert view.phase is Phase.MAKER and view.dummy == ()
    other = (maker + 1) % 3
    other_before = game.view(other)
    with pytest.raises(TableError, match="first choose: alone, or merge the dummy") as info:
        game.check(maker, game.parse("keep JH JD AH KH TH"))
    assert info.value.code == "illegal"
    entry = game.check(maker, game.parse("keep"))
    game.apply_entry(entry)
    entries.append(entry)
    assert game.current is not None and game.current.phase is Phase.KEEP
    assert game.to_act == maker and not game.current.merged
    view = game.view(maker)
    assert view is not None and view.phase is Phase.KEEP
    assert len(view.dummy) == 5 and len(view.legal) == 252
    with pytest.raises(TableError, match="merge") as info:
        game.check(maker, game.parse("alone"))
    assert info.value.code == "illegal"
    with pytest.raises(TableError):
        game.check(maker, game.parse("keep"))
    # another seat's view is as before the merge (phase MAKER, no dummy); the
    # replay keeps the choice
    other_after = game.view(other)
    assert other_after == other_before
    assert other_after is not None and other_after.phase is Phase.MAKER
    assert other_after.dummy == ()
    replayed = Game.replay(copy.deepcopy(game.meta), entries)
    assert replayed.current is not None and replayed.current.phase is Phase.KEEP
    assert replayed.to_act == maker
    assert replayed.view(maker) == game.view(maker)
    assert replayed.view(other) == game.view(other)
    keep = view.legal[0]
    game.apply_entry(game.check(maker, keep))
    assert game.current is not None and game.current.phase is not Phase.KEEP
    assert game.current.merged


def test_refusals() -> None:
    game = started(humans=(0, 1, 2))
    seat = game.to_act
    assert seat is not None
    with pytest.raises(TableError) as info:
        game.check((seat + 1) % 3, game.parse("pass"))
    assert info.value.code == "not_your_turn"
    with pytest.raises(TableError) as info:
        game.check(seat, game.parse("play 9C"))
    assert info.value.code == "illegal"
    with pytest.raises(TableError) as info:
        game.parse("jump")
    assert info.value.code == "illegal"
    waiting = Game(new_meta("tbl", Rules(), None, None, seed=1))
    with pytest.raises(TableError) as info:
        waiting.check(0, waiting.parse("pass"))
    assert info.value.code == "not_started"


def test_corrupt_entries_are_refused() -> None:
    game = started()
    with pytest.raises(ValueError):
        game.apply_entry({"hand": 3, "seat": game.to_act, "action": "pass"})
    with pytest.raises(ValueError):
        game.apply_entry({"hand": 0, "seat": game.to_act, "action": "play 9C"})


def test_the_printed_database_address_hides_passwords() -> None:
    from euchre.web.serve import shown_url

    assert shown_url("postgresql://u:secret@db.example:5433/euchre") == (
        "postgresql://db.example:5433/euchre"
    )
    assert "secret" not in shown_url("postgresql:///euchre?host=/run&password=secret")
