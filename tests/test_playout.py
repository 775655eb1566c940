"""The compiled random playouts (``euchre._cplayout`` through ``euchre.playout``)
against the engine and against the pure playouts, their reference.

The two paths use different random streams, so they are held to the engine
and to each other's statistics rather than hand by hand:

- every compiled hand (both variants, every deck, several option sets, many
  seeds) is a valid deal whose history replays legally through
  ``HandState.apply_recorded`` to the end, with the same points;
- over 20,000 hands each, the shares of thrown-in hands, of hands with a lone
  player and of each count of the maker side's tricks agree within five
  standard errors of the difference of two binomial shares (a chance failure
  about once in a million per comparison);
- replayed on ``FastHand``, every compiled decision with ``k`` legal actions
  takes each of them about equally often (five standard errors), the
  Cutthroat maker's choice counted as one of 253;
- shares with an exact value (thrown-in hands for several rule sets, the
  Cutthroat maker alone one time in 253) hold over 400,000 compiled hands;
- a batch is the sum of its hands (``playouts`` against ``random_hand`` with
  the seeds and dealers it documents), on both paths.

The compiled tests are skipped, with the reason, when the extension is not
built; ``EUCHRE_PURE=1`` is checked in a subprocess.
"""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from euchre import Action, FastHand, HandState, Phase, Rules
from euchre import playout as playout_module
from euchre.actions import ALONE, MERGE
from euchre.playout import (
    COMPILED,
    COMPILED_AVAILABLE,
    HandOutcome,
    PlayoutError,
    PlayoutTotals,
    compiled_playouts,
    compiled_random_hand,
    playouts,
    pure_playouts,
    pure_random_hand,
    random_hand,
)

ROOT = Path(__file__).resolve().parent.parent

needs_compiled = pytest.mark.skipif(
    not COMPILED_AVAILABLE,
    reason="the compiled playouts euchre._cplayout are not built (no C compiler at install?)",
)

#: Option sets that change what a random hand can do (every option of
#: ``rule_flags`` on and off in at least one of them).
OPTION_SETS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "stuck, mandatory, no lone defenders": {
        "stick_the_dealer": True,
        "dealer_pickup": "mandatory",
        "defenders_may_go_alone": False,
        "lone_lead": "left_of_dealer",
        "lone_defender_points": 4,
    },
    "turned-down suit, keep the up-card, redeal, dummy no alone": {
        "may_name_turned_down_suit": True,
        "dealer_may_discard_upcard": False,
        "joker_upcard": "redeal",
        "dummy_decline_is_alone": False,
        "lone_defender_points": 4,
    },
}


def make_rules(variant: str, deck: int, options: dict[str, Any]) -> Rules:
    """The rules of one case (options of the other variant dropped)."""
    opts = dict(options)
    if variant == "cutthroat":
        opts.pop("lone_defender_points", None)
    else:
        opts.pop("dummy_decline_is_alone", None)
    return Rules(variant=variant, deck=deck, **opts)  # type: ignore[arg-type]


CASES = [
    pytest.param(v, d, name, id=f"{v}-{d}-{name}")
    for v, d, name in itertools.product(("cutthroat", "partnership"), (24, 25, 32), OPTION_SETS)
]


def replay(rules: Rules, dealer: int, outcome: HandOutcome) -> HandState:
    """The hand replayed through the checked API (raises on any illegal step)."""
    deal, history, _ = outcome
    deal.check(rules)
    state = HandState(rules, dealer, deal)
    for seat, code in history:
        state = state.apply_recorded(Action(code), seat)
    return state


@needs_compiled
@pytest.mark.parametrize(("variant", "deck", "options"), CASES)
def test_compiled_hands_replay_through_the_engine(variant: str, deck: int, options: str) -> None:
    rules = make_rules(variant, deck, OPTION_SETS[options])
    thrown = alone = 0
    for seed in range(150):
        dealer = seed % rules.seats
        outcome = compiled_random_hand(rules, dealer, seed * 7919 + deck)
        state = replay(rules, dealer, outcome)
        assert state.is_over, f"seed {seed}: the history stops before the end"
        result = state.result
        assert result is not None
        assert result.points == outcome[2]
        assert [(s, a.code) for s, a in state.history] == outcome[1]
        thrown += result.thrown_in
        alone += bool(result.alone)
    # the hands are not all alike: some are played, some of those alone (but
    # a Cutthroat maker alone, 1 in 253, may not come up in 150 hands)
    assert thrown < 150
    assert alone > 0 or (rules.cutthroat and not rules.defenders_may_go_alone)


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_pure_hands_replay_through_the_engine(variant: str) -> None:
    rules = Rules(variant=variant, deck=25)  # type: ignore[arg-type]
    for seed in range(40):
        outcome = pure_random_hand(rules, seed % rules.seats, seed)
        state = replay(rules, seed % rules.seats, outcome)
        assert state.is_over
        assert state.result is not None and state.result.points == outcome[2]


DISTRIBUTION_RULES = {
    "cutthroat defaults": Rules(),
    "cutthroat 25, options": make_rules(
        "cutthroat", 25, OPTION_SETS["turned-down suit, keep the up-card, redeal, dummy no alone"]
    ),
    "partnership defaults": Rules(variant="partnership"),
    "partnership, OpenSpiel's rules": Rules(
        variant="partnership",
        stick_the_dealer=True,
        dealer_pickup="mandatory",
        lone_defender_points=4,
        dealer_may_discard_upcard=False,
        lone_lead="left_of_dealer",
    ),
    "partnership 32, stuck": make_rules(
        "partnership", 32, OPTION_SETS["stuck, mandatory, no lone defenders"]
    ),
}


def shares(t: PlayoutTotals) -> dict[str, int]:
    """The counts compared, by name (each a count of hands out of ``t.hands``)."""
    out = {"thrown in": t.thrown_in, "with a lone player": t.alone}
    out.update({f"maker side took {k}": c for k, c in enumerate(t.made)})
    return out


@needs_compiled
@pytest.mark.parametrize("name", list(DISTRIBUTION_RULES))
def test_compiled_and_pure_playouts_agree_in_distribution(name: str) -> None:
    rules = DISTRIBUTION_RULES[name]
    n = 20_000
    ours = compiled_playouts(rules, n, 12345)
    ref = pure_playouts(rules, n, 67890)
    assert ours.hands == ref.hands == n
    bad = []
    for key, a in shares(ours).items():
        b = shares(ref)[key]
        p = (a + b) / (2 * n)  # pooled share
        se = math.sqrt(max(p * (1 - p), 1 / n) * 2 / n)
        if abs(a - b) / n > 5 * se:
            bad.append(f"{key}: compiled {a / n:.4f}, pure {b / n:.4f} (5 SE = {5 * se:.4f})")
    # mean points per seat: each hand gives a seat 0 to 4 points (variance <= 4)
    bound = 5 * math.sqrt(4 * 2 / n)
    for seat, (a, b) in enumerate(zip(ours.points, ref.points, strict=True)):
        if abs(a - b) / n > bound:
            bad.append(f"seat {seat} points/hand: compiled {a / n:.3f}, pure {b / n:.3f}")
    assert bad == []


def choice_counts(rules: Rules, hands: int, seed: int) -> dict[int, list[int]]:
    """Replay compiled hands on ``FastHand``: for each decision, which of its
    legal actions was taken (its index in ``legal_codes``). Returns, per number
    of choices ``k``, how often each index was taken. The Cutthroat maker's
    choice counts as one of 253 (alone, or a keep: the index of the five in the
    keep phase's list, plus one), as ``FastHand.playout`` draws it."""
    counts: dict[int, list[int]] = {}
    for i in range(hands):
        dealer = i % rules.seats
        deal, history, _ = compiled_random_hand(rules, dealer, seed + i)
        h = FastHand.new(rules, dealer, deal)
        for _, code in history:
            if h.phase == Phase.MAKER:
                if code == ALONE:
                    k, index = 253, 0
                else:
                    h.step(MERGE)
                    k, index = 253, 1 + h.legal_codes().index(code)
            else:
                legal = h.legal_codes()
                k, index = len(legal), legal.index(code)
            counts.setdefault(k, [0] * k)[index] += 1
            h.step(code)
        assert h.over
    return counts


@needs_compiled
@pytest.mark.parametrize("name", list(DISTRIBUTION_RULES))
def test_compiled_choices_are_uniform_among_the_legal_actions(name: str) -> None:
    """At every decision with ``k`` legal actions each is taken with chance
    1/k: each index's count within 5 standard errors of its binomial mean
    (for the ``k`` seen often enough), and the maker's alone (1 in 253)."""
    rules = DISTRIBUTION_RULES[name]
    counts = choice_counts(rules, 3000, 555)
    bad = []
    for k, row in sorted(counts.items()):
        total = sum(row)
        if total < 20 * k:
            continue
        mean, sd = total / k, math.sqrt(total * (1 / k) * (1 - 1 / k))
        bad += [
            f"{k} choices: index {i} taken {c} times, expected {mean:.0f}"
            for i, c in enumerate(row)
            if abs(c - mean) > 5 * sd
        ]
    assert bad == []
    assert set(counts) >= ({2, 5, 253} if rules.cutthroat else {2, 4})


@needs_compiled
@pytest.mark.parametrize(
    ("rules", "exact"),
    [
        # all pass in both rounds: 1/2 each in round one, 1/4 in round two
        # (pass or one of the three other suits)
        (Rules(variant="partnership"), 1 / 2**4 / 4**4),
        (Rules(), 1 / 2**3 / 4**3),
        # the dealer is stuck: round two is never thrown in
        (Rules(variant="partnership", stick_the_dealer=True), 0.0),
        # any suit may be named: 1/5 a pass
        (Rules(may_name_turned_down_suit=True), 1 / 2**3 / 5**3),
    ],
    ids=["partnership", "cutthroat", "stuck", "any suit"],
)
def test_compiled_thrown_in_share_is_exact(rules: Rules, exact: float) -> None:
    n = 400_000
    t = compiled_playouts(rules, n, 31337)
    sd = math.sqrt(n * exact * (1 - exact))
    assert abs(t.thrown_in - n * exact) <= 5 * sd + 1e-9


@needs_compiled
def test_compiled_cutthroat_maker_goes_alone_one_time_in_253() -> None:
    rules = Rules(defenders_may_go_alone=False)  # the maker's alone is the only one
    n = 400_000
    t = compiled_playouts(rules, n, 4242)
    played = n - t.thrown_in
    p = 1 / 253
    assert abs(t.alone - played * p) <= 5 * math.sqrt(played * p * (1 - p))


def totals_of_hands(
    hand: Callable[[Rules, int, int], HandOutcome], rules: Rules, n: int, seed: int
) -> tuple[int, int, int, tuple[int, ...]]:
    """(decisions, thrown in, alone, points) summed over hands ``i`` dealt by
    ``i % seats`` from ``seed + i``: what a batch documents it sums."""
    decisions = thrown = alone = 0
    points = [0] * rules.seats
    for i in range(n):
        _, history, pts = hand(rules, i % rules.seats, seed + i)
        decisions += len(history)
        if sum(pts) == 0:  # only a thrown-in hand scores nothing
            thrown += 1
            continue
        alone += any(code & 15 == ALONE for _, code in history)
        points = [p + q for p, q in zip(points, pts, strict=True)]
    return decisions, thrown, alone, tuple(points)


@pytest.mark.parametrize(
    "rules",
    [Rules(deck=25), Rules(variant="partnership", deck=32)],
    ids=["cutthroat", "partnership"],
)
@pytest.mark.parametrize("path", ["compiled", "pure"])
def test_a_batch_is_the_sum_of_its_hands(rules: Rules, path: str) -> None:
    if path == "compiled" and not COMPILED_AVAILABLE:
        pytest.skip("the compiled playouts euchre._cplayout are not built")
    hand, batch = (
        (compiled_random_hand, compiled_playouts)
        if path == "compiled"
        else (pure_random_hand, pure_playouts)
    )
    n, seed = 300, 2024
    t = batch(rules, n, seed)
    assert (t.decisions, t.thrown_in, t.alone, t.points) == totals_of_hands(hand, rules, n, seed)
    assert sum(t.made) + t.thrown_in == n


@needs_compiled
def test_the_same_seed_gives_the_same_hand() -> None:
    rules = Rules(variant="partnership")
    a = compiled_random_hand(rules, 1, 99)
    assert compiled_random_hand(rules, 1, 99) == a
    assert compiled_random_hand(rules, 1, 99 + 2**64) == a  # seeds are taken modulo 2**64
    others = {compiled_random_hand(rules, 1, s)[0] for s in range(100, 120)}
    assert len(others) == 20
    assert compiled_playouts(rules, 50, 7) == compiled_playouts(rules, 50, 7)


@pytest.mark.parametrize("path", ["compiled", "pure"])
def test_bad_arguments_raise(path: str) -> None:
    if path == "compiled" and not COMPILED_AVAILABLE:
        pytest.skip("the compiled playouts euchre._cplayout are not built")
    hand, batch = (
        (compiled_random_hand, compiled_playouts)
        if path == "compiled"
        else (pure_random_hand, pure_playouts)
    )
    with pytest.raises(PlayoutError, match="dealer must be a seat from 0 to 2"):
        hand(Rules(), 3, 1)
    with pytest.raises(PlayoutError, match="number of hands"):
        batch(Rules(), -1, 1)
    assert batch(Rules(), 0, 1) == PlayoutTotals(0, 0, 0, 0, (0,) * 6, (0, 0, 0))


def test_the_switch_picks_the_path() -> None:
    """``random_hand``/``playouts`` are the compiled ones exactly when built and
    ``EUCHRE_PURE`` is not 1 (read at import)."""
    wanted = COMPILED_AVAILABLE and os.environ.get("EUCHRE_PURE") != "1"
    assert playout_module.COMPILED is wanted
    assert random_hand is (compiled_random_hand if COMPILED else pure_random_hand)
    assert playouts is (compiled_playouts if COMPILED else pure_playouts)


@pytest.mark.parametrize("pure", ["1", "0"])
def test_euchre_pure_in_a_fresh_process(pure: str) -> None:
    env = {**os.environ, "EUCHRE_PURE": pure, "PYTHONPATH": str(ROOT / "src")}
    code = (
        "import euchre.playout as p; "
        "print(p.COMPILED, p.COMPILED_AVAILABLE, p.random_hand.__name__, p.playouts.__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    compiled, available, hand, batch = out
    if pure == "1":
        assert (compiled, hand, batch) == ("False", "pure_random_hand", "pure_playouts")
    else:
        assert compiled == available
        prefix = "compiled" if available == "True" else "pure"
        assert (hand, batch) == (f"{prefix}_random_hand", f"{prefix}_playouts")
