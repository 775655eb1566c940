"""Properties of every hand, checked on random legal play (RULES.md §1-§5).

The checks use an independent oracle written from RULES.md (card ranking,
following, trick winner, scoring, who leads, legal actions) rather than the
engine's tables. Hypothesis runs derandomized, so CI is deterministic.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_deal
from euchre import (
    Action,
    Card,
    Deal,
    FastHand,
    HandState,
    IllegalActionError,
    Phase,
    Rules,
    Suit,
)
from euchre.cards import deck_cards

PROFILE: dict[str, Any] = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

# --- the oracle (RULES.md §1, §2, §3) --------------------------------------------------

_PLAIN = "789TJQKA"


def eff_suit(card: Card, trump: Suit) -> Suit:
    """RULES.md §1: the left bower and the joker belong to trump."""
    if card.is_joker:
        return trump
    assert card.suit is not None and card.rank is not None
    if str(card.rank) == "J" and card.suit.is_red == trump.is_red and card.suit != trump:
        return trump
    return card.suit


def trump_power(card: Card, trump: Suit) -> int:
    """RULES.md §1 Trump ranking: joker, right bower, left bower, A K Q 10 9 8 7."""
    if card.is_joker:
        return 100
    assert card.rank is not None
    if str(card.rank) == "J":
        return 99 if card.suit == trump else 98
    return _PLAIN.index(str(card.rank))


def trick_winner(plays: list[tuple[int, Card]], trump: Suit) -> int:
    """RULES.md §2 Play: the highest trump, else the highest card of the suit led."""
    trumps = [(trump_power(c, trump), s) for s, c in plays if eff_suit(c, trump) == trump]
    if trumps:
        return max(trumps)[1]
    led = eff_suit(plays[0][1], trump)
    return max((_PLAIN.index(str(c.rank)), s) for s, c in plays if eff_suit(c, trump) == led)[1]


def may_play(hand: list[Card], trick: list[Card], trump: Suit) -> set[Card]:
    """RULES.md §2 Play: follow the suit led if possible, else anything."""
    if not trick:
        return set(hand)
    led = eff_suit(trick[0], trump)
    follow = {c for c in hand if eff_suit(c, trump) == led}
    return follow or set(hand)


def is_maker_side(rules: Rules, seat: int, maker: int) -> bool:
    return seat == maker if rules.cutthroat else seat % 2 == maker % 2


def expected_points(
    rules: Rules, maker: int, alone: tuple[int, ...], tricks: tuple[int, ...]
) -> tuple[int, ...]:
    """RULES.md §2 Scoring and §3 Scoring, restated."""
    n = rules.seats
    made = sum(tricks[s] for s in range(n) if is_maker_side(rules, s, maker))
    lone_def = [s for s in alone if not is_maker_side(rules, s, maker)]
    lone_maker = any(is_maker_side(rules, s, maker) for s in alone)
    pts = [0] * n
    if made >= 3:
        if rules.cutthroat:
            value = 3 if made == 5 else 1
        else:
            value = (4 if lone_maker else 2) if made == 5 else 1
        winners = [s for s in range(n) if is_maker_side(rules, s, maker)]
    else:
        winners = [s for s in range(n) if not is_maker_side(rules, s, maker)]
        if lone_def and tricks[lone_def[0]] == 5:
            value = 4
        elif lone_def:
            value = 2 if rules.cutthroat else rules.lone_defender_points
        else:
            value = 2
    for s in winners:
        pts[s] = value
    return tuple(pts)


def next_active(seat: int, n: int, out: tuple[int, ...]) -> int:
    s = (seat + 1) % n
    while s in out:
        s = (s + 1) % n
    return s


def expected_first_leader(
    rules: Rules, dealer: int, maker: int, alone: tuple[int, ...], out: tuple[int, ...]
) -> int:
    """RULES.md §2 Play / §3 Play with the options lone_lead, dummy_decline_is_alone."""
    n = rules.seats
    lone = list(alone)
    if rules.cutthroat and not rules.dummy_decline_is_alone:
        lone = [s for s in lone if s != maker]
    if not lone or rules.lone_lead == "left_of_dealer":
        return next_active(dealer, n, out)
    if len(lone) == 2:
        (defender,) = [s for s in lone if not is_maker_side(rules, s, maker)]
        return defender
    return next_active(lone[0], n, out)


def expected_legal(s: HandState) -> set[str]:
    """RULES.md §2, §3: the legal actions from public facts only."""
    r = s.rules
    if s.phase is Phase.OVER:
        return set()
    if s.phase is Phase.JOKER_CALL:
        return {f"call {x}" for x in "CDHS"}
    if s.phase is Phase.BID1:
        return {"pass", "order"}
    if s.phase is Phase.PICKUP:
        pool = [*s.hand(s.dealer)]
        if r.dealer_may_discard_upcard:
            pool.append(s.up_card)
        out = {f"pickup {c}" for c in pool}
        if s.maker != s.dealer and r.dealer_pickup == "optional":
            out.add("decline")
        return out
    if s.phase is Phase.BID2:
        out = {f"call {x}" for x in "CDHS"}
        if not r.may_name_turned_down_suit:
            assert s.up_suit is not None
            out.discard(f"call {s.up_suit}")
        if not (r.stick_the_dealer and s.to_act == s.dealer):
            out.add("pass")
        return out
    if s.phase is Phase.MAKER:  # alone, or merge without seeing the dummy (bare keep)
        return {"alone", "keep"}
    if s.phase is Phase.KEEP:
        assert s.maker is not None
        pool = s.hand(s.maker) + s.dummy
        return {str(Action.keep(k)) for k in combinations(pool, 5)}
    if s.phase is Phase.ALONE:
        return {"pass", "alone"}
    assert s.phase is Phase.PLAY and s.trump is not None and s.to_act is not None
    trick = [c for _, c in s.current_trick]
    return {f"play {c}" for c in may_play(s.hand(s.to_act), trick, s.trump)}


# --- the checks -------------------------------------------------------------------------


def card_locations(s: HandState) -> list[Card]:
    """Every card, from where it is now: hands, dummy, kitty, discards, tricks."""
    out: list[Card] = []
    for seat in range(s.rules.seats):
        out += s.hand(seat)
    if s.rules.cutthroat and not s.merged:
        out += s.dummy
    if s.picked_up:
        out += s.deal.kitty[1:]
        assert s.dealer_discard is not None
        out.append(s.dealer_discard)
    else:
        assert s.dealer_discard is None
        out += s.deal.kitty
    out += s.maker_discards
    for t in s.tricks:
        out += [c for _, c in t.cards]
    out += [c for _, c in s.current_trick]
    return out


def check_state(s: HandState) -> None:
    """Invariants that hold at every step of every hand."""
    r = s.rules
    n = r.seats
    deck = Counter(deck_cards(r.deck))
    assert Counter(card_locations(s)) == deck
    if not r.cutthroat:
        assert s.dummy == [] and s.maker_discards == [] and not s.merged
    if s.merged:
        assert s.maker is not None and len(s.maker_discards) == 5
        assert s.alone == () or s.alone[0] != s.maker
    else:
        assert s.maker_discards == []
    # who acts
    assert (s.to_act is None) == s.is_over
    assert bool(s.legal_actions()) != s.is_over
    if s.to_act is not None:
        assert s.to_act not in s.sitting_out
    # going alone: at most one per side, partners sit out
    if s.alone:
        assert len(s.alone) <= 2
        assert s.maker is not None
        sides = [is_maker_side(r, a, s.maker) for a in s.alone]
        assert len(set(sides)) == len(sides)
        if r.cutthroat:
            assert len(s.sitting_out) == (1 if any(not x for x in sides) else 0)
        else:
            assert set(s.sitting_out) == {(a + 2) % 4 for a in s.alone}
    else:
        assert s.sitting_out == ()
    # tricks
    if s.phase in (Phase.PLAY, Phase.OVER) and s.trump is not None:
        assert s.maker is not None
        active = [x for x in range(n) if x not in s.sitting_out]
        leader = expected_first_leader(r, s.dealer, s.maker, s.alone, s.sitting_out)
        won = [0] * n
        for t in s.tricks:
            assert t.leader == leader
            seats = [x for x, _ in t.cards]
            assert seats[0] == leader and sorted(seats) == active
            for a, b in pairwise(seats):
                assert b == next_active(a, n, s.sitting_out)
            assert t.winner == trick_winner(list(t.cards), s.trump)
            won[t.winner] += 1
            leader = t.winner
        assert tuple(won) == s.tricks_won
        trick = s.current_trick
        if s.phase is Phase.PLAY:
            if trick:
                assert trick[0][0] == leader
                assert s.to_act == next_active(trick[-1][0], n, s.sitting_out)
            else:
                assert s.to_act == leader
        for x in range(n):
            in_trick = sum(1 for y, _ in trick if y == x)
            want = 5 if x in s.sitting_out else 5 - len(s.tricks) - in_trick
            assert len(s.hand(x)) == want
    if s.is_over:
        check_result(s)


def check_result(s: HandState) -> None:
    """A finished hand: five tricks, or thrown in with nothing scored."""
    res = s.result
    assert res is not None
    n = s.rules.seats
    if res.thrown_in:
        assert res.points == (0,) * n and res.tricks == (0,) * n
        assert res.trump is None and res.maker is None and s.tricks == ()
        return
    assert len(s.tricks) == 5 and s.current_trick == ()
    assert sum(res.tricks) == 5 and res.tricks == s.tricks_won
    assert res.maker == s.maker and res.trump == s.trump and res.alone == s.alone
    for x in s.sitting_out:
        assert res.tricks[x] == 0
    assert res.maker is not None
    assert res.points == expected_points(s.rules, res.maker, res.alone, res.tricks)


def snapshot(s: HandState) -> tuple[object, ...]:
    n = s.rules.seats
    return (
        s.phase,
        s.to_act,
        s.history,
        tuple(tuple(s.hand(x)) for x in range(n)),
        s.tricks,
        s.current_trick,
        s.trump,
        s.maker,
        s.alone,
        s.picked_up,
        s.merged,
    )


def action_universe(rules: Rules, rng: random.Random) -> list[Action]:
    """Every parseable kind of action: words, calls, pickups and plays of every card of
    the deck, and a few random keeps."""
    deck = deck_cards(rules.deck)
    out = [Action.parse(t) for t in ("pass", "order", "decline", "alone", "keep")]
    out += [Action.call(x) for x in Suit]
    out += [Action.pickup(c) for c in deck] + [Action.play(c) for c in deck]
    out += [Action.keep(rng.sample(deck, 5)) for _ in range(3)]
    return out


def check_actions(s: HandState, rng: random.Random) -> None:
    """Legal actions are exactly the oracle's; each applies; a non-legal action raises
    IllegalActionError and changes nothing; an action out of turn raises."""
    legal = s.legal_actions()
    names = [str(a) for a in legal]
    assert len(set(names)) == len(names)
    assert set(names) == expected_legal(s)
    for a in rng.sample(legal, min(4, len(legal))):
        s.apply(a)
    legal_set = set(legal)
    universe = action_universe(s.rules, rng)
    for a in universe:
        assert s.is_legal(a) == (a in legal_set), str(a)
    before = snapshot(s)
    for a in rng.sample([a for a in universe if a not in legal_set], 3):
        with pytest.raises(IllegalActionError):
            s.apply(a)
        assert snapshot(s) == before
    if s.to_act is not None and legal:
        wrong = (s.to_act + 1) % s.rules.seats
        with pytest.raises(IllegalActionError):
            s.apply(legal[0], seat=wrong)
        assert snapshot(s) == before


def choose(s: HandState, rng: random.Random) -> Action:
    """A random legal action: first a kind, then one of that kind (so that ``alone`` is
    not drowned by the 252 keeps)."""
    by_kind: dict[str, list[Action]] = {}
    for a in s.legal_actions():
        by_kind.setdefault(a.kind, []).append(a)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def walk(s: HandState, rng: random.Random, check: Callable[[HandState], None]) -> HandState:
    """Play random legal actions to the end, checking every state."""
    check(s)
    steps = 0
    while not s.is_over:
        s = s.apply(choose(s, rng), s.to_act)
        check(s)
        steps += 1
        assert steps < 60
    return s


# --- strategies -------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    rules: Rules
    dealer: int
    deal: Deal
    seed: int


_VARIANTS: tuple[Literal["cutthroat", "partnership"], ...] = ("cutthroat", "partnership")
_PICKUPS: tuple[Literal["optional", "mandatory"], ...] = ("optional", "mandatory")
_JOKERS: tuple[Literal["dealer_names", "redeal"], ...] = ("dealer_names", "redeal")
_LEADS: tuple[Literal["left_of_lone", "left_of_dealer"], ...] = ("left_of_lone", "left_of_dealer")


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    variant = draw(st.sampled_from(_VARIANTS))
    deck = draw(st.sampled_from([24, 32, 25]))
    rules = Rules(
        variant=variant,
        deck=deck,
        stick_the_dealer=draw(st.booleans()),
        dealer_pickup=draw(st.sampled_from(_PICKUPS)),
        may_name_turned_down_suit=draw(st.booleans()),
        lone_defender_points=draw(st.sampled_from([2, 4])),
        dealer_may_discard_upcard=draw(st.booleans()),
        joker_upcard=draw(st.sampled_from(_JOKERS)),
        defenders_may_go_alone=draw(st.booleans()),
        lone_lead=draw(st.sampled_from(_LEADS)),
        dummy_decline_is_alone=draw(st.booleans()),
    )
    seed = draw(st.integers(0, 2**32 - 1))
    dealer = draw(st.integers(0, rules.seats - 1))
    deal = Deal.random(rules, random.Random(seed))
    if deck == 25 and draw(st.booleans()):  # often turn the joker up
        deal = _joker_up(deal)
    return Setup(rules, dealer, deal, seed)


def _joker_up(deal: Deal) -> Deal:
    joker = Card.joker()
    up = deal.kitty[0]

    def swap(cs: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(up if c is joker else joker if c is up else c for c in cs)

    return Deal(tuple(swap(h) for h in deal.hands), swap(deal.dummy), swap(deal.kitty))


# --- the property tests -------------------------------------------------------------------


@settings(max_examples=250, **PROFILE)
@given(setups())
def test_random_hands_keep_every_invariant(setup: Setup) -> None:
    """RULES.md §1-§3: every card exactly once at every step; legal actions exactly as
    the rules say, never empty until over; every seat that takes part plays once per
    trick; trick winners and points as the tables say."""
    rng = random.Random(setup.seed)
    s = HandState(setup.rules, setup.dealer, setup.deal)
    end = walk(s, rng, check_state)
    check_result(end)


@settings(max_examples=120, **PROFILE)
@given(setups())
def test_random_hands_legality_and_errors(setup: Setup) -> None:
    """RULES.md §5 Hand record: legal actions apply; any other action raises
    IllegalActionError (with a reason) and leaves the state unchanged."""
    rng = random.Random(setup.seed ^ 0x5EED)
    s = HandState(setup.rules, setup.dealer, setup.deal)
    walk(s, rng, lambda st_: check_actions(st_, rng))


def replay(
    setup_rules: Rules, dealer: int, deal: Deal, history: list[tuple[int, int]]
) -> HandState:
    s = HandState(setup_rules, dealer, deal)
    for seat, code in history:
        s = s.apply_recorded(Action(code), seat)
        check_state(s)
    return s


def check_fast_end(f: FastHand, deal: Deal) -> None:
    """A FastHand played out: its history replays legally through HandState to the same
    end, which satisfies every invariant."""
    assert f.over
    end = replay(f.rules, f.dealer, deal, list(f.history))
    assert end.is_over
    res = end.result
    assert res is not None
    assert res.points == tuple(f.points)
    assert res.tricks == tuple(f.tricks)
    assert res.thrown_in == f.thrown_in
    check_result(end)


@settings(max_examples=120, **PROFILE)
@given(setups(), st.integers(0, 40))
def test_fast_playout_between_tricks(setup: Setup, steps: int) -> None:
    """RULES.md §1-§3: ``FastHand.playout`` from any state that is not in the middle of a
    trick ends in a state with the same invariants."""
    rng = random.Random(setup.seed)
    s = HandState(setup.rules, setup.dealer, setup.deal)
    for _ in range(steps):
        if s.is_over or s.current_trick:
            break
        s = s.apply(choose(s, rng))
    if s.current_trick:
        return
    f = s.fast()
    f.playout(random.Random(setup.seed + 1))
    check_fast_end(f, setup.deal)


@settings(max_examples=60, **PROFILE)
@given(setups(), st.integers(1, 3))
def test_fast_playout_mid_trick(setup: Setup, cards_in: int) -> None:
    """RULES.md §2 Play: ``FastHand.playout`` from the middle of a trick finishes that
    trick (and the hand) legally."""
    rng = random.Random(setup.seed)
    s = HandState(setup.rules, setup.dealer, setup.deal)
    while not s.is_over and s.phase is not Phase.PLAY:
        s = s.apply(choose(s, rng))
    if s.is_over:
        return
    active = s.rules.seats - len(s.sitting_out)
    for _ in range(min(cards_in, active - 1)):
        s = s.apply(choose(s, rng))
    assert s.current_trick
    f = s.fast()
    f.playout(random.Random(setup.seed + 1))
    check_fast_end(f, setup.deal)


def test_fast_playout_distribution_matches_uniform_walk() -> None:
    """RULES.md §2 Play: ``FastHand.playout`` chooses uniformly among the legal actions,
    like a uniform random walk on ``HandState``: the distributions of the maker's tricks
    agree."""
    deal = make_deal(
        ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
        dummy="JD TH 9H QD KC",
        kitty="QH JC JS AC",
    )
    start = HandState(Rules(), 0, deal).apply_all(["pass", "order", "decline"])
    start = start.apply_all(["keep JH JD AH KH TH", "pass", "pass"])
    n = 1500
    rng1, rng2 = random.Random(11), random.Random(12)
    fast: Counter[int] = Counter()
    slow: Counter[int] = Counter()
    for _ in range(n):
        f = start.fast()
        f.playout(rng1)
        fast[f.tricks[2]] += 1
        s = start
        while not s.is_over:
            s = s.apply(rng2.choice(s.legal_actions()))
        slow[s.tricks_won[2]] += 1
    tv = sum(abs(fast[k] - slow[k]) for k in range(6)) / (2 * n)
    assert tv < 0.06, (fast, slow)


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
@pytest.mark.parametrize("deck", [24, 32, 25])
def test_fast_random_deals_like_deal_random(variant: str, deck: int) -> None:
    """RULES.md §2 Deal: ``FastHand.random`` deals the same cards as ``Deal.random``
    from the same generator state."""
    rules = Rules.from_options(variant, {"deck": deck})
    for seed in range(20):
        deal = Deal.random(rules, random.Random(seed))
        f = FastHand.random(rules, 1, random.Random(seed))
        g = HandState(rules, 1, deal).fast()
        assert f.hands == g.hands and f.dummy == g.dummy and f.kitty == g.kitty
        assert f.phase == g.phase and f.turn == g.turn


# --- perft: counting action sequences through bidding and declarations --------------------


def perft(s: HandState, stop: Callable[[HandState], bool]) -> Counter[str]:
    """Count the leaves of the action tree below ``s`` (a leaf: ``stop`` holds), by
    kind of leaf."""
    leaves: Counter[str] = Counter()
    stack = [s]
    while stack:
        x = stack.pop()
        if stop(x):
            if x.is_over:
                leaves["thrown_in"] += 1
            else:
                leaves[f"alone{len(x.alone)}"] += 1
            continue
        stack.extend(x.apply(a) for a in x.legal_actions())
    return leaves


def _to_play(s: HandState) -> bool:
    return s.phase in (Phase.PLAY, Phase.OVER)


def _bidding_done(s: HandState) -> bool:
    return s.phase not in (Phase.JOKER_CALL, Phase.BID1, Phase.PICKUP, Phase.BID2)


_CUT_DEAL = make_deal(
    ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
    dummy="JD TH 9H QD KC",
    kitty="QH JC JS AC",
)
_PART_DEAL = make_deal(
    ["AC KC QC JC TC", "JH JD AH KH QH", "AS KS QS JS TS", "AD KD QD TD 9D"],
    kitty="9H TH 9C 9S",
)
_JOKER_DEAL = make_deal(
    ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
    dummy="JD TH 9H QD KC",
    kitty="JK QH JC JS AC",
)


def test_perft_cutthroat_to_first_lead() -> None:
    """RULES.md §2 Bidding and Settled order of decisions, counted by hand.

    Round one: seat 1 orders → the dealer picks up (5 cards + the up-card may be
    discarded: 6) or declines: 7; seat 2 orders: 7; the dealer accepts: 6 → 20 makers.
    Round two: 3 seats x 3 suits (not the turned-down one) = 9 makers, + 1 thrown in.
    Each maker: alone or one of C(10,5) = 252 keeps → 253; then the defenders from the
    maker's left: alone | pass-alone | pass-pass → 3. Total 29 x 253 x 3 + 1 = 22012.
    By number of lone players: 0 → 29 x 252 = 7308 (+ the thrown-in hand);
    1 → 29 x (252 x 2 + 1) = 14645; 2 → 29 x 2 = 58.
    """
    leaves = perft(HandState(Rules(), 0, _CUT_DEAL), _to_play)
    assert sum(leaves.values()) == 22012
    assert leaves == Counter({"alone0": 7308, "thrown_in": 1, "alone1": 14645, "alone2": 58})


def test_perft_cutthroat_no_defender_alone() -> None:
    """RULES.md §4 defenders_may_go_alone=False: 29 makers x 253 + 1 thrown in = 7338."""
    leaves = perft(HandState(Rules(defenders_may_go_alone=False), 2, _CUT_DEAL), _to_play)
    assert sum(leaves.values()) == 29 * 253 + 1 == 7338


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        # round one 7 + 7 + 6, round two 9 + thrown in
        (Rules(), 30),
        # mandatory pick-up: 6 + 6 + 6, + 10
        (Rules(dealer_pickup="mandatory"), 28),
        # stick the dealer: 20 + 9 (no thrown-in hand)
        (Rules(stick_the_dealer=True), 29),
        # may name the turned-down suit: 20 + 12 + 1
        (Rules(may_name_turned_down_suit=True), 33),
        # the up-card may not be discarded: 6 + 6 + 5, + 10
        (Rules(dealer_may_discard_upcard=False), 27),
        # all four: 5 + 5 + 5, + 12
        (
            Rules(
                dealer_pickup="mandatory",
                stick_the_dealer=True,
                may_name_turned_down_suit=True,
                dealer_may_discard_upcard=False,
            ),
            27,
        ),
        # 32 cards change nothing here
        (Rules(deck=32), 30),
    ],
)
def test_perft_cutthroat_bidding(rules: Rules, count: int) -> None:
    """RULES.md §2 Bidding rounds one and two with the §4 options, counted by hand."""
    deal = _CUT_DEAL if rules.deck == 24 else Deal.random(rules, random.Random(3))
    assert sum(perft(HandState(rules, 1, deal), _bidding_done).values()) == count


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        # the dealer names one of 4 suits, then 30 as above
        (Rules(deck=25), 4 * 30),
        # the named suit counts as turned down; with the option it may be named: 4 x 33
        (Rules(deck=25, may_name_turned_down_suit=True), 4 * 33),
        # redeal: the hand is over at once
        (Rules(deck=25, joker_upcard="redeal"), 1),
    ],
)
def test_perft_joker_up(rules: Rules, count: int) -> None:
    """RULES.md §1 Joker, Settled: the dealer first names a suit; round one as if that suit
    was turned; in round two the named suit counts as turned down."""
    assert sum(perft(HandState(rules, 0, _JOKER_DEAL), _bidding_done).values()) == count


def test_perft_partnership_to_first_lead() -> None:
    """RULES.md §3 Bidding and Settled order of the alone decisions, counted by hand.

    Round one: seats 1, 2, 3 order (the dealer may decline: 6 + 1 each = 21), the dealer
    accepts (6) → 27; round two: 4 seats x 3 suits = 12, + 1 thrown in.
    After trump: maker alone → defenders: alone | pass-alone | pass-pass (3); maker
    passes → partner alone (3) or pass (3) → 9. Total (27 + 12) x 9 + 1 = 352.
    """
    leaves = perft(HandState(Rules(variant="partnership"), 0, _PART_DEAL), _to_play)
    assert sum(leaves.values()) == 352
    # per maker: maker alone → 1 x one alone, 2 x two alone; partner alone → the same;
    # both pass → 2 x one (a defender) alone, 1 x nobody alone
    assert leaves == Counter({"alone0": 39, "alone1": 39 * 4, "alone2": 39 * 4, "thrown_in": 1})


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        # only the makers decide: alone, or pass then partner alone/pass → 3
        (Rules(variant="partnership", defenders_may_go_alone=False), 39 * 3 + 1),
        # mandatory pick-up and stick the dealer: (4 x 6 + 12) x 9
        (Rules(variant="partnership", dealer_pickup="mandatory", stick_the_dealer=True), 36 * 9),
    ],
)
def test_perft_partnership_options(rules: Rules, count: int) -> None:
    """RULES.md §3 and §4 options, counted by hand."""
    assert sum(perft(HandState(rules, 3, _PART_DEAL), _to_play).values()) == count
