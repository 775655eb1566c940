"""Hand and match records (RULES.md §5): write, read, replay.

Writing then reading then writing gives the same record; the reader is
lenient where the rule book allows it (case, ``10`` for ``T``, absent keys)
and strict everywhere else: every bad action is reported by its 1-based
number and the reason, a bad deal or option as number 0, and nothing is
skipped. The sample records in ``examples/`` are checked here too.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from euchre import Action, Card, Deal, HandState, Phase, Rules
from euchre.bots import RandomBot, decide
from euchre.match import Match
from euchre.record import (
    RecordError,
    dumps,
    hand_record,
    match_record,
    read_hand,
    read_match,
    replay_result,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

RULE_SETS = [
    Rules(),
    Rules(deck=25),
    Rules(deck=32),
    Rules(variant="partnership"),
    Rules(variant="partnership", deck=25),
    Rules(variant="partnership", deck=32, lone_defender_points=4),
    Rules(stick_the_dealer=True, dealer_pickup="mandatory", may_name_turned_down_suit=True),
    Rules(variant="partnership", dealer_may_discard_upcard=False, lone_lead="left_of_dealer"),
    Rules(deck=25, joker_upcard="redeal", dummy_decline_is_alone=False, tie="share"),
]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def choose(state: HandState, rng: random.Random) -> Action:
    """A random legal action, biased towards the rarer decisions."""
    legal = state.legal_actions()
    if state.phase == Phase.MAKER:  # alone, or merge (the five come in phase KEEP)
        assert legal == [Action.alone(), Action.merge()]
        return Action.alone() if rng.random() < 0.3 else Action.merge()
    if state.phase == Phase.ALONE:
        return Action.alone() if rng.random() < 0.25 else Action.pass_()
    return rng.choice(legal)


def random_hand(rules: Rules, rng: random.Random, stop: float = 1.0) -> HandState:
    """A random hand, played to the end, or stopped part way (``stop`` < 1)."""
    state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
    while not state.is_over and rng.random() < stop:
        state = state.apply(choose(state, rng))
    return state


def random_match(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed * 10 + i)) for i in range(rules.seats)]
    m = Match.new(rules, rng=rng)
    while not m.is_over:
        m = m.deal(rng=rng)
        while m.current is not None:
            seat = m.current.to_act
            assert seat is not None
            m = m.apply(decide(bots[seat], m.current, seat, m.scores))
    return m


def error_of(record: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_hand(record)
    return info.value


def match_error_of(record: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_match(record)
    return info.value


# -- the RULES.md §5 example -----------------------------------------------------------

EXAMPLE_DEAL: dict[str, Any] = {
    "hands": [
        ["9C", "TD", "KS", "QD", "AC"],
        ["AS", "JC", "QC", "KC", "QS"],
        ["JH", "AH", "TC", "9D", "AD"],
    ],
    "dummy": ["JD", "KH", "9H", "TH", "JS"],
    "kitty": ["QH", "9S", "TS", "KD"],
}
EXAMPLE_ACTIONS = [
    "1 pass", "2 order", "0 pickup 9C", "2 keep JH JD AH KH TC",
    "0 pass", "1 pass", "1 play AS",
]  # fmt: skip


def example_record(**changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "variant": "cutthroat",
        "options": {
            "deck": 24,
            "stick_the_dealer": False,
            "dealer_pickup": "optional",
            "may_name_turned_down_suit": False,
            "lone_defender_points": 2,
            "target": 10,
        },
        "dealer": 0,
        "deal": copy.deepcopy(EXAMPLE_DEAL),
        "actions": list(EXAMPLE_ACTIONS),
    }
    rec.update(changes)
    return rec


def test_the_rule_book_example() -> None:
    """The §5 example: seat 1 passes, seat 2 orders hearts, the dealer takes
    the QH and discards the 9C, the maker merges, the defenders pass, seat 1
    leads."""
    s = read_hand(example_record())
    assert s.rules == Rules()
    assert s.dealer == 0
    assert s.trump is not None and s.trump.letter == "H"
    assert s.maker == 2
    assert s.picked_up is True and s.dealer_discard == Card.parse("9C")
    assert Card.parse("QH") in s.hand(0)
    assert s.merged and sorted(s.hand(2)) == sorted(cards("JH JD AH KH TC"))
    assert sorted(s.maker_discards) == sorted(cards("9D AD 9H TH JS"))
    assert s.alone == ()
    assert s.current_trick == ((1, Card.parse("AS")),)
    assert s.to_act == 2 and not s.is_over
    # written back canonically: the keep in card order, every option present
    rec = hand_record(s)
    assert rec["actions"][3] == "2 keep TC JD JH KH AH"
    assert rec["actions"][:3] == EXAMPLE_ACTIONS[:3]
    assert rec["options"] == Rules().options()
    assert rec["deal"] == EXAMPLE_DEAL


def test_result_objects() -> None:
    s = read_hand(example_record())
    r = replay_result(s)
    assert r == {
        "complete": False,
        "to_act": 2,
        "legal": ["play AH", "play JD", "play JH", "play KH", "play TC"],
    }
    # the cutthroat maker's keep choice: "alone" and the single word "keep"
    s = read_hand(example_record(actions=EXAMPLE_ACTIONS[:3]))
    assert replay_result(s) == {"complete": False, "to_act": 2, "legal": ["alone", "keep"]}
    # a merge without its keep writes no line: its record is the one before it
    merged = s.apply(Action.merge())
    assert merged.phase == Phase.KEEP and hand_record(merged) == hand_record(s)
    assert read_hand(hand_record(merged)).phase == Phase.MAKER
    s = read_hand(example_record(actions=EXAMPLE_ACTIONS[:2]))
    assert replay_result(s)["legal"] == [
        "decline", "pickup 9C", "pickup AC", "pickup KS", "pickup QD", "pickup QH", "pickup TD",
    ]  # fmt: skip
    thrown = ["1 pass", "2 pass", "0 pass"] * 2
    s = read_hand(example_record(actions=thrown))
    assert replay_result(s) == {
        "complete": True,
        "thrown_in": True,
        "trump": None,
        "maker": None,
        "alone": [],
        "tricks": [0, 0, 0],
        "points": [0, 0, 0],
    }


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_hand_round_trip(rules: Rules) -> None:
    """write → read → write is exact, for finished and unfinished hands."""
    rng = random.Random(hash(rules.describe()) & 0xFFFF)
    for i in range(60):
        state = random_hand(rules, rng, stop=1.0 if i % 2 else 0.93)
        rec = hand_record(state)
        text = dumps(rec)
        back = read_hand(json.loads(text))
        assert hand_record(back) == rec
        assert dumps(hand_record(back)) == text
        assert back.history == state.history
        assert back.result == state.result
        assert back.to_act == state.to_act
        assert back.deal == state.deal
        # records are plain JSON: the same through a compact dump
        assert hand_record(read_hand(json.loads(json.dumps(rec)))) == rec


@pytest.mark.parametrize(
    "rules",
    [Rules(target=5), Rules(variant="partnership", target=6), Rules(deck=25, target=4)],
    ids=lambda r: r.describe(),
)
def test_match_round_trip(rules: Rules) -> None:
    for seed in range(4):
        m = random_match(rules, seed)
        rec = match_record(m)
        text = dumps(rec)
        back = read_match(json.loads(text))
        assert match_record(back) == rec
        assert dumps(match_record(back)) == text
        assert back.scores == m.scores
        assert back.winners == m.winners and back.is_over
        assert back.first_dealer == m.first_dealer


def test_unfinished_match_round_trip() -> None:
    rules = Rules(variant="partnership")
    rng = random.Random(4)
    m = Match.new(rules, first_dealer=2)
    for _ in range(3):
        m = m.deal(rng=rng)
        while m.current is not None:
            m = m.apply(choose(m.current, rng))
    m = m.deal(rng=rng).apply(Action.pass_())
    rec = match_record(m)
    assert len(rec["hands"]) == 4
    back = read_match(json.loads(dumps(rec)))
    assert match_record(back) == rec
    assert back.current is not None and m.current is not None
    assert back.current.history == m.current.history
    assert back.scores == m.scores


# -- lenient reading -------------------------------------------------------------------


def lenient(text: str) -> str:
    return text.lower().replace("t", "10") if len(text) == 2 else text


def test_lower_case_and_ten() -> None:
    """Cards and action words in any case; ``10`` for ``T``."""
    deal = {k: [[lenient(c) for c in h] for h in v] if k == "hands" else [lenient(c) for c in v]
            for k, v in EXAMPLE_DEAL.items()}  # fmt: skip
    assert deal["hands"][0] == ["9c", "10d", "ks", "qd", "ac"]
    actions = ["1 PASS", "2 Order", "0 pickup 9c", "2 KEEP jh Jd ah kH 10c", "0 pass", "1 Pass",
               "1 play as"]  # fmt: skip
    s = read_hand(example_record(deal=deal, actions=actions))
    assert hand_record(s) == hand_record(read_hand(example_record()))


def test_absent_keys_take_defaults() -> None:
    """Only the deal is needed: cutthroat, the default options, dealer 0, no actions."""
    s = read_hand({"deal": copy.deepcopy(EXAMPLE_DEAL)})
    assert s.rules == Rules() and s.rules.variant == "cutthroat"
    assert s.dealer == 0 and s.history == () and s.to_act == 1
    rec = hand_record(s)
    assert rec["variant"] == "cutthroat" and rec["options"] == Rules().options()
    assert rec["actions"] == []
    # options may name only some keys
    s = read_hand({"options": {"stick_the_dealer": True}, "deal": copy.deepcopy(EXAMPLE_DEAL)})
    assert s.rules == Rules(stick_the_dealer=True)
    s = read_hand(
        {
            "variant": "partnership",
            "options": {"lone_defender_points": 4},
            "deal": {"hands": EXAMPLE_DEAL["hands"] + [EXAMPLE_DEAL["dummy"]],
                     "kitty": EXAMPLE_DEAL["kitty"]},
        }
    )  # fmt: skip
    assert s.rules == Rules(variant="partnership", lone_defender_points=4)
    # a match record with nothing but its hands
    hand = {"deal": copy.deepcopy(EXAMPLE_DEAL), "actions": ["1 pass", "2 pass", "0 pass"] * 2}
    m = read_match({"hands": [hand]})
    assert m.rules == Rules() and m.scores == (0, 0, 0) and len(m.hands) == 1


def test_whitespace_in_actions() -> None:
    s = read_hand(example_record(actions=["  1   pass ", "2 order"]))
    assert [f"{a}" for _, a in s.history] == ["pass", "order"]


# -- action errors: the number and the reason ------------------------------------------


@pytest.mark.parametrize(
    ("actions", "index", "words"),
    [
        # wrong seat
        (["2 pass"], 1, ["seat 1"]),
        (["1 pass", "0 order"], 2, ["seat 2"]),
        (["1 pass", "2 order", "1 pickup 9C"], 3, ["seat 0"]),
        # illegal actions
        (["1 call H"], 1, ["round one"]),
        (["1 pass", "2 pass", "0 pass", "1 call H"], 4, ["turned-down"]),
        (["1 pass", "2 order", "0 pickup AS"], 3, ["AS"]),
        (["1 order", "0 pickup 9C", "1 keep AS JC QC KC 9S"], 3, ["9S"]),
        (
            ["1 pass", "2 order", "0 pickup 9C", "2 alone", "0 pass", "1 pass", "0 play JH"],
            7,
            ["JH"],
        ),
        ([*EXAMPLE_ACTIONS, "2 play KH", "0 play AC"], 9, ["follow"]),
        (["1 pass", "2 pass", "0 order", "0 decline"], 4, ["pick up"]),
        (["1 play AS"], 1, ["play"]),
        # malformed text
        (["1 jump"], 1, ["jump"]),
        (["pass"], 1, ["seat"]),
        (["one pass"], 1, ["seat"]),
        ([""], 1, []),
        (["1"], 1, []),
        (["1 call"], 1, ["call"]),
        (["1 call X"], 1, ["X"]),
        (["1 pass", "2 order", "0 pickup ZZ"], 3, ["ZZ"]),
        (["1 pass", "2 order", "0 pickup 9C", "2 keep JH JD AH KH"], 4, []),
        (["1 pass", "2 order", "0 pickup 9C", "2 keep JH JD AH KH KH"], 4, []),
        (["1 pass extra"], 1, []),
        # the bare keep is an intent, never a record line
        (["1 pass", "2 order", "0 pickup 9C", "2 keep"], 4, ["keep"]),
        # after the hand is over
        (["1 pass", "2 pass", "0 pass"] * 2 + ["1 pass"], 7, ["over"]),
    ],
)
def test_action_errors(actions: list[str], index: int, words: list[str]) -> None:
    err = error_of(example_record(actions=actions))
    assert err.index == index
    assert err.action == actions[index - 1]
    assert err.hand is None
    for w in words:
        assert w.lower() in err.reason.lower(), err.reason
    assert err.to_json() == {
        "error": {"index": index, "action": actions[index - 1], "reason": err.reason}
    }
    assert err.reason


def test_action_after_a_played_out_hand() -> None:
    full = json.loads((EXAMPLES / "cutthroat_hand.json").read_text())
    n = len(full["actions"])
    full["actions"].append("1 play 9S")
    err = error_of(full)
    assert err.index == n + 1 and "over" in err.reason


@pytest.mark.parametrize("bad", [5, None, ["1", "pass"], {"seat": 1}, 1.5, True])
def test_non_string_action(bad: object) -> None:
    err = error_of(example_record(actions=["1 pass", bad]))
    assert err.index == 2
    assert err.reason
    assert isinstance(err.action, str)


def test_actions_not_a_list() -> None:
    err = error_of(example_record(actions="1 pass"))
    assert err.index == 0


def test_no_action_is_skipped() -> None:
    """An error in the middle stops the replay there: the later, legal
    actions do not hide it, and earlier errors come first."""
    actions = list(EXAMPLE_ACTIONS)
    actions[4] = "0 dance"
    err = error_of(example_record(actions=actions))
    assert err.index == 5
    actions[1] = "2 play AH"
    err = error_of(example_record(actions=actions))
    assert err.index == 2


# -- deal and option errors: number 0 --------------------------------------------------


def deal_with(**changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(EXAMPLE_DEAL)
    deal.update(changes)
    return example_record(deal=deal)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        # duplicate card
        (deal_with(kitty=["QH", "9S", "TS", "AS"]), ["AS"]),
        (deal_with(dummy=["JD", "KH", "9H", "TH", "jd"]), ["JD"]),
        # wrong sizes
        (deal_with(kitty=["QH", "9S", "TS"]), ["kitty"]),
        (deal_with(kitty=["QH", "9S", "TS", "KD", "JS"], dummy=["JD", "KH", "9H", "TH"]), []),
        (deal_with(hands=EXAMPLE_DEAL["hands"][:2]), ["hands"]),
        (deal_with(hands=[h[:4] for h in EXAMPLE_DEAL["hands"]]), []),
        (deal_with(dummy=[]), ["dummy"]),
        # a card not in the deck
        (deal_with(kitty=["QH", "9S", "TS", "7D"]), ["7D"]),
        (deal_with(kitty=["QH", "9S", "TS", "JK"]), ["JK"]),
        (deal_with(kitty=["QH", "9S", "TS", "XX"]), ["XX"]),
        (deal_with(kitty=["QH", "9S", "TS", 7]), []),
        (deal_with(kitty="QH 9S TS KD"), []),
        # no deal, unknown keys
        ({"actions": []}, ["deal"]),
        (deal_with(extra=[]), ["extra"]),
        (example_record(comment="hi"), ["comment"]),
        # a bad dealer
        (example_record(dealer=3), ["dealer"]),
        (example_record(dealer=-1), ["dealer"]),
        (example_record(dealer="0"), ["dealer"]),
        (example_record(dealer=True), ["dealer"]),
        # not an object
        ([], []),
        ("1 pass", []),
    ],
)
def test_deal_errors(record: object, words: list[str]) -> None:
    err = error_of(record)
    assert err.index == 0
    assert err.action == ""
    assert err.reason
    for w in words:
        assert w.lower() in err.reason.lower(), err.reason


def test_dummy_in_a_partnership_deal() -> None:
    """A partnership deal has no dummy, even with the right number of cards."""
    hands = [*EXAMPLE_DEAL["hands"], EXAMPLE_DEAL["dummy"]]
    good: dict[str, Any] = {
        "variant": "partnership",
        "deal": {"hands": hands, "kitty": EXAMPLE_DEAL["kitty"]},
    }
    read_hand(good)
    bad = copy.deepcopy(good)
    bad["deal"]["dummy"] = []
    err = error_of(bad)
    assert err.index == 0 and "dummy" in err.reason
    bad["deal"]["dummy"] = ["9C"]
    assert error_of(bad).index == 0


@pytest.mark.parametrize(
    ("variant", "options", "words"),
    [
        ("cutthroat", {"decks": 24}, ["decks"]),
        ("cutthroat", {"deck": 23}, ["deck"]),
        ("cutthroat", {"deck": "24"}, ["deck"]),
        ("cutthroat", {"target": 0}, ["target"]),
        ("cutthroat", {"target": -3}, ["target"]),
        ("cutthroat", {"target": "10"}, ["target"]),
        ("cutthroat", {"target": 10.5}, ["target"]),
        ("partnership", {"lone_defender_points": 3}, ["lone_defender_points"]),
        ("cutthroat", {"stick_the_dealer": "yes"}, ["stick_the_dealer"]),
        ("cutthroat", {"stick_the_dealer": 1}, ["stick_the_dealer"]),
        ("cutthroat", {"dealer_pickup": "sometimes"}, ["dealer_pickup"]),
        ("cutthroat", {"may_name_turned_down_suit": None}, ["may_name_turned_down_suit"]),
        ("threehanded", {}, ["variant"]),
        (3, {}, ["variant"]),
        ("cutthroat", [], ["options"]),
        ("cutthroat", "deck=24", ["options"]),
    ],
)
def test_option_errors(variant: object, options: object, words: list[str]) -> None:
    err = error_of(example_record(variant=variant, options=options))
    assert err.index == 0 and err.action == ""
    for w in words:
        assert w.lower() in err.reason.lower(), err.reason


def test_deal_must_fit_the_deck_option() -> None:
    """A 24-card deal under a 32-card option is a bad deal (index 0)."""
    err = error_of(example_record(options={"deck": 32}))
    assert err.index == 0 and "kitty" in err.reason


# -- match records ---------------------------------------------------------------------


SMALL_MATCH_SEED = 16


def small_match() -> tuple[Match, dict[str, Any]]:
    m = random_match(Rules(variant="partnership", target=5), seed=SMALL_MATCH_SEED)
    assert len(m.hands) >= 4
    return m, match_record(m)


def test_match_dealer_sequence_is_checked() -> None:
    """Each hand is dealt by the player left of the previous dealer."""
    _, rec = small_match()
    for wrong in (1, 2, 3):
        bad = copy.deepcopy(rec)
        bad["hands"] = bad["hands"][:2]
        bad["hands"][1]["dealer"] = (bad["hands"][1]["dealer"] + wrong) % 4
        bad["hands"][1]["actions"] = []
        err = match_error_of(bad)
        assert err.hand == 2 and err.index == 0 and "dealer" in err.reason
        assert err.to_json()["error"]["hand"] == 2


def test_match_first_dealer_is_free() -> None:
    for first in range(3):
        m = Match.new(Rules(target=3), first_dealer=first)
        rng = random.Random(first)
        while not m.is_over:
            m = m.deal(rng=rng)
            while m.current is not None:
                m = m.apply(choose(m.current, rng))
        back = read_match(match_record(m))
        assert back.first_dealer == first
        assert [h.dealer for h in back.hands] == [(first + i) % 3 for i in range(len(m.hands))]


def test_no_hand_after_a_won_match() -> None:
    m, rec = small_match()
    extra = copy.deepcopy(rec["hands"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 4
    extra["actions"] = []
    rec["hands"].append(extra)
    err = match_error_of(rec)
    assert err.hand == len(m.hands) + 1 and err.index == 0
    assert "won" in err.reason or "over" in err.reason


def test_no_hand_after_an_unfinished_one() -> None:
    _, rec = small_match()
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:3]
    err = match_error_of(rec)
    assert err.hand == 2 and err.index == 0


def test_match_hands_must_match_the_variant_and_options() -> None:
    _, rec = small_match()
    bad = copy.deepcopy(rec)
    bad["hands"][1]["options"]["target"] = 10
    err = match_error_of(bad)
    assert err.hand == 2 and err.index == 0
    bad = copy.deepcopy(rec)
    bad["hands"][2]["variant"] = "cutthroat"
    err = match_error_of(bad)
    assert err.hand == 3 and err.index == 0
    # hands may leave out variant and options: they take the match's
    ok = copy.deepcopy(rec)
    for h in ok["hands"]:
        del h["variant"]
        del h["options"]
    assert read_match(ok).scores == read_match(rec).scores


def test_match_action_error_names_hand_and_action() -> None:
    _, rec = small_match()
    rec["hands"][1]["actions"][2] = "9 pass"
    err = match_error_of(rec)
    assert err.hand == 2 and err.index == 3 and err.action == "9 pass"
    assert err.to_json() == {
        "error": {"index": 3, "action": "9 pass", "reason": err.reason, "hand": 2}
    }


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"variant": "cutthroat", "hands": {}},
        {"hands": [], "score": [1, 2, 3]},
        {"options": {"target": 0}, "hands": []},
        {"hands": [5]},
    ],
)
def test_match_record_errors(record: object) -> None:
    err = match_error_of(record)
    assert err.index == 0 and err.reason


def test_match_scores_follow_from_the_hands() -> None:
    m, rec = small_match()
    back = read_match(rec)
    expect = [0, 0, 0, 0]
    for h in rec["hands"]:
        r = replay_result(read_hand(h))
        expect = [a + b for a, b in zip(expect, r["points"], strict=True)]
    assert list(back.scores) == expect
    assert expect[0] == expect[2] and expect[1] == expect[3]
    assert back.winners == m.winners


# -- the sample records in examples/ ---------------------------------------------------


def test_example_cutthroat_hand() -> None:
    """examples/cutthroat_hand.json: the §5 example deal and actions, played out."""
    rec = json.loads((EXAMPLES / "cutthroat_hand.json").read_text())
    s = read_hand(rec)
    assert hand_record(s) == rec
    assert rec["deal"] == EXAMPLE_DEAL and rec["dealer"] == 0
    prefix = hand_record(read_hand(example_record()))["actions"]
    assert rec["actions"][: len(prefix)] == prefix
    assert replay_result(s) == {
        "complete": True,
        "thrown_in": False,
        "trump": "H",
        "maker": 2,
        "alone": [],
        "tricks": [1, 0, 4],
        "points": [0, 0, 1],
    }


def test_example_partnership_hand() -> None:
    rec = json.loads((EXAMPLES / "partnership_hand.json").read_text())
    s = read_hand(rec)
    assert hand_record(s) == rec
    assert s.rules.variant == "partnership"
    r = replay_result(s)
    assert r["complete"] and r["alone"] == [r["maker"]]
    assert r["points"] == [0, 1, 0, 1]


def test_example_match() -> None:
    rec = json.loads((EXAMPLES / "match.json").read_text())
    m = read_match(rec)
    assert match_record(m) == rec
    assert m.is_over and m.winners == (1,)
    assert m.scores == (5, 10, 2)


def test_deal_object_equality_after_reading() -> None:
    s = read_hand(example_record())
    assert s.deal == Deal(
        hands=tuple(cards(" ".join(h)) for h in EXAMPLE_DEAL["hands"]),
        dummy=cards(" ".join(EXAMPLE_DEAL["dummy"])),
        kitty=cards(" ".join(EXAMPLE_DEAL["kitty"])),
    )
