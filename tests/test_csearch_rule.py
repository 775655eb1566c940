"""The compiled rule bot (``_rule.h`` in ``euchre._csearch``) against the
Python one (``bots/rule.py``), its reference, and the compiled hand
(``_core.h``) against ``FastHand``.

Random hands of every variant, deck and option, played by random legal
actions mixed with the rule bot's own (so that deep, realistic positions
are reached): at every decision the compiled rule bot's action must be
``RuleBot.choose`` on the acting seat's ``View`` (and ``RuleBot.play_code``
in the play), and after every step the compiled hand's state must be the
``FastHand``'s. The counts (``_value``, ``_best_keep``) and
``search.greedy_keep`` are compared on random masks too. And the compiled
bot reads only the view: on a deal sampled from the view (the others'
cards dealt anew) it makes the same choice. Skipped, with the
reason, when the extension is not built.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from euchre import Card, Deal, FastHand, HandState, Phase, Rules
from euchre.actions import MERGE, Action
from euchre.bots.rule import RuleBot, _best_keep, _value
from euchre.bots.search import greedy_keep
from euchre.cards import JOKER_ID, SUIT_MASK, cards_of, deck_mask, ids_of
from euchre.playout import rule_flags
from euchre.view import View

try:
    from euchre import _csearch
except ImportError:  # pragma: no cover - the extension is not built
    _csearch = None

pytestmark = pytest.mark.skipif(
    _csearch is None, reason="the compiled search euchre._csearch is not built"
)

#: Option sets: together they turn every option of the hand both ways.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"stick_the_dealer": True},
    {"dealer_pickup": "mandatory", "may_name_turned_down_suit": True},
    {"dealer_may_discard_upcard": False, "defenders_may_go_alone": False},
    {"lone_lead": "left_of_dealer", "dummy_decline_is_alone": False, "lone_defender_points": 4},
    {"joker_upcard": "redeal", "stick_the_dealer": True, "dealer_pickup": "mandatory"},
    {
        "stick_the_dealer": True,
        "may_name_turned_down_suit": True,
        "dealer_may_discard_upcard": False,
        "lone_lead": "left_of_dealer",
    },
]

CASES = [
    pytest.param(v, d, i, id=f"{v}-{d}-{i}")
    for v, d, i in itertools.product(
        ("cutthroat", "partnership"), (24, 25, 32), range(len(OPTION_SETS))
    )
]

#: The FastHand attributes the compiled hand's ``state()`` has too.
STATE_KEYS = (
    "hands",
    "dummy",
    "phase",
    "turn",
    "trump",
    "maker",
    "upsuit",
    "picked",
    "may_decline",
    "dealer_discard",
    "maker_discards",
    "merged",
    "alone",
    "out",
    "ask",
    "leader",
    "trick",
    "nbid",
    "tricks",
    "trick_log",
    "calls",
    "points",
    "thrown_in",
    "winner",
    "kitty",
)

HANDS_PER_CASE = 40


def make_rules(variant: str, deck: int, options: dict[str, Any]) -> Rules:
    """The rules of one case (options of the other variant dropped)."""
    opts = dict(options)
    if variant == "cutthroat":
        opts.pop("lone_defender_points", None)
    else:
        opts.pop("dummy_decline_is_alone", None)
    return Rules(variant=variant, deck=deck, **opts)  # type: ignore[arg-type]


def c_rules(rules: Rules, shifts: tuple[float, ...] = ()) -> tuple[Any, ...]:
    """The rules as the C module takes them, with the model's shift of each
    seat's making threshold when ``shifts`` is given."""
    base = (rules.seats, rules.deck, rule_flags(rules), rules.lone_defender_points)
    return (*base, shifts) if shifts else base


def deal_hand(rules: Rules, dealer: int, rng: random.Random) -> tuple[FastHand, Deal]:
    """A random hand (``FastHand.random``), with the joker turned up more
    often than chance in the 25-card deck, and its ``Deal``."""
    h = FastHand.random(rules, dealer, rng)
    hands, dummy, kitty = list(h.hands), h.dummy, list(h.kitty)
    if rules.deck == 25 and kitty[0] != JOKER_ID and rng.random() < 0.25:
        up = kitty[0]
        j = 1 << JOKER_ID
        swap = 1 << up | j
        if JOKER_ID in kitty:
            i = kitty.index(JOKER_ID)
            kitty[0], kitty[i] = JOKER_ID, up
        elif dummy & j:
            dummy ^= swap
            kitty[0] = JOKER_ID
        else:
            s = next(s for s in range(rules.seats) if hands[s] & j)
            hands[s] ^= swap
            kitty[0] = JOKER_ID
        h = FastHand.from_masks(rules, dealer, hands, dummy, kitty)
    deal = Deal(
        hands=tuple(tuple(cards_of(m)) for m in h.hands),
        dummy=tuple(cards_of(h.dummy)),
        kitty=tuple(Card(c) for c in h.kitty),
    )
    return h, deal


def c_hand(rules: Rules, dealer: int, fh: FastHand, shifts: tuple[float, ...] = ()) -> Any:
    """The same deal as a compiled hand. Its binding takes at most 8 kitty
    cards so far (the 32-card deck has 12): then the first 8 (only the
    up-card matters to the play)."""
    args = (c_rules(rules, shifts), dealer, list(fh.hands), fh.dummy)
    try:
        return _csearch.Hand(*args, list(fh.kitty))
    except TypeError:
        return _csearch.Hand(*args, list(fh.kitty[:8]))


def c_hand_of(rules: Rules, state: HandState, shifts: tuple[float, ...] = ()) -> Any:
    """A compiled hand at the position of ``state``: its deal, its history
    replayed (and the merge of a maker keeping five)."""
    h = state.core
    fh = FastHand.new(rules, h.dealer, state.deal)
    ch = c_hand(rules, h.dealer, fh, shifts)
    for _, code in h.history:
        assert ch.step_recorded(code)
    if h.phase == Phase.KEEP:
        ch.step(MERGE)
    return ch


def check_state(fh: FastHand, ch: Any, where: str) -> None:
    got = ch.state()
    for key in STATE_KEYS:
        want = getattr(fh, key)
        if key == "kitty":
            want = want[: len(got[key])]
        assert got[key] == want, f"{where}: state {key}: C {got[key]!r}, Python {want!r}"


def play_case(variant: str, deck: int, opts_index: int, shifts: tuple[float, ...] = ()) -> int:
    """Play the case's hands, comparing at every decision; returns the number
    of decisions compared. ``shifts``: the model's shift of each seat's
    making threshold, in both (``RuleBot.seat_shifts``, the C rules'
    ``make_shifts``)."""
    rules = make_rules(variant, deck, OPTION_SETS[opts_index])
    case = f"{variant}-{deck}-{opts_index}"
    rng = random.Random(case)
    bot = RuleBot(random.Random(0))
    bot.seat_shifts = shifts
    compared = 0
    for hand_no in range(HANDS_PER_CASE):
        dealer = rng.randrange(rules.seats)
        fh, deal = deal_hand(rules, dealer, rng)
        ch = c_hand(rules, dealer, fh, shifts)
        p_rule = (0.0, 0.5, 0.85, 1.0)[hand_no % 4]
        check_state(fh, ch, "dealt")
        step = 0
        while fh.phase != Phase.OVER:
            seat = fh.turn
            where = f"{case} dealer {dealer} hand {hand_no} step {step} seat {seat}"
            codes = fh.legal_codes()
            assert ch.legal_codes() == codes, where
            state = HandState.from_fast(fh, deal)
            view = View.of(state, seat)
            legal = list(view.legal)
            want = bot.choose(view, legal).code
            got = ch.rule_code()
            assert got == want, f"{where}: phase {fh.phase!r}: C {got}, Python {want}"
            if fh.phase == Phase.PLAY:
                assert bot.play_code(fh, seat) == want, where
            compared += 1
            if step % 5 == 2:
                # the same view on other cards dealt to the others: the same choice
                other = view.sample(rng)
                assert View.of(other, seat) == view, where
                assert c_hand_of(rules, other, shifts).rule_code() == got, f"{where}: on a sample"
            if fh.phase == Phase.BID1 and hand_no % 5 == 4:
                code = codes[0]  # pass: round two more often
            else:
                code = want if rng.random() < p_rule else rng.choice(codes)
            fh.step(code)
            ch.step(code)
            check_state(fh, ch, f"{where} after {Action(code)}")
            step += 1
    return compared


@pytest.mark.parametrize(("variant", "deck", "opts_index"), CASES)
def test_rule_choices_and_states_agree(variant: str, deck: int, opts_index: int) -> None:
    compared = play_case(variant, deck, opts_index)
    assert compared >= HANDS_PER_CASE * 3


@pytest.mark.parametrize(
    ("variant", "deck"), list(itertools.product(("cutthroat", "partnership"), (24, 25, 32)))
)
def test_rule_choices_agree_with_shifted_thresholds(variant: str, deck: int) -> None:
    """The model of a search bot that adapts (``bots.style``): each seat's
    making threshold shifted its own way, in Python and in C alike; and the
    shifts change calls (a bold seat orders what the rule bot passes)."""
    seats = 3 if variant == "cutthroat" else 4
    shifts = (-1.0, 1.5, -2.0, 0.5)[:seats]
    assert play_case(variant, deck, 1, shifts) >= HANDS_PER_CASE * 3
    rules = make_rules(variant, deck, {})
    rng = random.Random(f"shifted-{variant}-{deck}")
    plain, shifted = RuleBot(), RuleBot()
    shifted.seat_shifts = shifts
    changed = 0
    for i in range(200):
        fh, deal = deal_hand(rules, i % seats, rng)
        view = View.of(HandState.from_fast(fh, deal), fh.turn)
        want = shifted.choose(view, list(view.legal)).code
        assert c_hand(rules, fh.dealer, fh, shifts).rule_code() == want
        changed += want != plain.choose(view, list(view.legal)).code
    assert changed > 0
    with pytest.raises(TypeError, match="make_shifts"):
        _csearch.Hand(c_rules(rules, (0.0,)), 0, [0] * seats, 0, [0])
    with pytest.raises(ValueError, match="make_shifts"):
        _csearch.Hand(c_rules(rules, (99.0,) * seats), 0, [0] * seats, 0, [0])


def random_mask(rng: random.Random, deck: int, k: int) -> int:
    ids = rng.sample(ids_of(deck_mask(deck)), k)
    m = 0
    for c in ids:
        m |= 1 << c
    return m


@pytest.mark.parametrize("deck", [24, 25, 32])
def test_counts_agree(deck: int) -> None:
    rng = random.Random(deck)
    full = deck_mask(deck)
    for i in range(1500):
        t = rng.randrange(4)
        hand = random_mask(rng, deck, rng.randint(0, 10))
        dead = random_mask(rng, deck, rng.randint(0, 8)) & ~hand
        if i % 5 == 0:
            dead |= ~full & ((1 << 33) - 1)  # cards out of the deck as dead
        assert _csearch.value(hand, t, dead, deck) == _value(hand, t, dead, deck), (hand, t)
        size = rng.choice((5, 6, 6, 10, 10, 10))
        n = rng.choice((5, 5, 5, 3, 4)) if size > 5 else 5
        pool = random_mask(rng, deck, size)
        dead = random_mask(rng, deck, rng.randint(0, 3)) & ~pool
        want = _best_keep(pool, t, n, dead, deck)
        assert _csearch.best_keep(pool, t, n, dead, deck) == want, (pool, t, n, dead)
        if size >= 5:
            assert _csearch.greedy_keep(pool, t) == greedy_keep(pool, t), (pool, t)


def test_keep_mask_trump_heavy_pools() -> None:
    """Pools with five trumps or more (the ``ntr >= n`` branch) and pools of
    one or two suits (the combining of suit sizes at its edges)."""
    rng = random.Random(7)
    for _ in range(600):
        deck = rng.choice((24, 25, 32))
        t = rng.randrange(4)
        full = deck_mask(deck)
        suits = rng.sample(range(4), rng.randint(1, 2))
        if t not in suits and rng.random() < 0.7:
            suits.append(t)
        allowed = 0
        for s in suits:
            allowed |= SUIT_MASK[t][s] & full
        ids = ids_of(allowed)
        if len(ids) < 10:
            continue
        pool = 0
        for c in rng.sample(ids, 10):
            pool |= 1 << c
        dead = 0 if rng.random() < 0.5 else 1 << rng.choice(ids_of(full & ~pool))
        assert _csearch.best_keep(pool, t, 5, dead, deck) == _best_keep(pool, t, 5, dead, deck)
        assert _csearch.greedy_keep(pool, t) == greedy_keep(pool, t)
