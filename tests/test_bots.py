"""Computer players: the ``Bot`` protocol, ``decide``, ``RandomBot`` and ``RuleBot``.

Bots always return legal actions, play whole matches, decide on the seat's
view alone (RULES.md §6: two different full states with the same view get
the same answer), and the rule bot plays clearly better than chance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

import pytest

from euchre import Action, Card, Deal, HandState, Phase, Rules, Suit
from euchre.bots import (
    ARENA_BOTS,
    BOT_NAMES,
    DEFAULT_LEVEL,
    NAMED_SEARCH_LEVEL,
    RULE_STYLES,
    SEARCH_LEVELS,
    Bot,
    RandomBot,
    RuleBot,
    SearchBot,
    decide,
    make_bot,
)
from euchre.cards import effective_suit
from euchre.hand import IllegalActionError
from euchre.match import Match
from euchre.view import View

Variant = Literal["cutthroat", "partnership"]
VARIANTS: tuple[Variant, ...] = ("cutthroat", "partnership")
DECKS = (24, 25, 32)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def new_bots(rules: Rules, seed: int) -> list[Bot]:
    """A random mix of rule and random bots, one per seat."""
    rng = random.Random(seed)
    out: list[Bot] = []
    for i in range(rules.seats):
        kind = RuleBot if rng.random() < 0.5 else RandomBot
        out.append(kind(random.Random(seed * 10 + i)))
    return out


class Spy:
    """Wraps a bot and records what it is given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = "spy"
        self.calls: list[tuple[View, tuple[Action, ...]]] = []

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.calls.append((view, tuple(legal)))
        return self.inner.choose(view, legal)


# -- the protocol ----------------------------------------------------------------------


def test_protocol_and_names() -> None:
    assert isinstance(RandomBot(), Bot)
    assert isinstance(RuleBot(), Bot)
    assert set(BOT_NAMES) == {"random", "rule", "search"}
    assert "cheat" not in BOT_NAMES  # measurement only, never offered to players
    for name in BOT_NAMES:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(ValueError):
        make_bot("genius")


def test_the_arena_calling_styles_of_the_rule_bot() -> None:
    """``rule:bold`` and ``rule:timid``: rule bots whose calling threshold is
    shifted (``RULE_STYLES``), for the arena only, never offered to players."""
    for style, shift in RULE_STYLES.items():
        bot = make_bot(f"rule:{style}", seed=1)
        assert isinstance(bot, RuleBot) and bot.name == f"rule:{style}"
        assert bot.make_shift == shift
        assert f"rule:{style}" in ARENA_BOTS and f"rule:{style}" not in BOT_NAMES
    assert RULE_STYLES["bold"] < 0 < RULE_STYLES["timid"]
    with pytest.raises(ValueError, match="unknown bot 'rule:loud'"):
        make_bot("rule:loud")
    with pytest.raises(ValueError, match="has no levels"):
        make_bot("rule:bold", level="hard")


def test_the_two_default_levels() -> None:
    """Players get ``DEFAULT_LEVEL`` where they chose none; the bare name ``search``
    (the arena's label) is ``NAMED_SEARCH_LEVEL``; both are search levels."""
    assert DEFAULT_LEVEL in SEARCH_LEVELS and NAMED_SEARCH_LEVEL in SEARCH_LEVELS
    bot = make_bot("search", seed=1)
    assert isinstance(bot, SearchBot) and bot.level == NAMED_SEARCH_LEVEL
    bot = make_bot("search", seed=1, level=DEFAULT_LEVEL)
    assert isinstance(bot, SearchBot) and bot.name == f"search:{DEFAULT_LEVEL}"


def test_decide_checks_the_turn() -> None:
    state = HandState.deal_random(Rules(), 0, random.Random(1))
    with pytest.raises(IllegalActionError):
        decide(RandomBot(), state, 0)


class Cheat:
    """A broken bot: always plays the ace of spades."""

    name = "cheat"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return Action.play(Card.parse("AS"))


def test_decide_rejects_an_illegal_choice() -> None:
    state = HandState.deal_random(Rules(), 0, random.Random(1))
    with pytest.raises(IllegalActionError):
        decide(Cheat(), state, 1)


def test_decide_gives_the_bot_only_its_view() -> None:
    """``decide`` hands the bot the seat's view and that view's legal
    actions, once per engine step; the Cutthroat maker answers two phases
    (MAKER: alone or merge without the dummy, then KEEP: which five with it)."""
    rng = random.Random(3)
    merges = 0
    for i in range(200):
        rules = Rules(variant=VARIANTS[i % 2])
        state = HandState.deal_random(rules, i % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            spy = Spy(RandomBot(random.Random(i)))
            scores = tuple(range(rules.seats))
            action = decide(spy, state, seat, scores)
            assert len(spy.calls) == 1
            view, legal = spy.calls[0]
            assert view == View.of(state, seat, scores)
            assert legal == view.legal == tuple(state.legal_actions())
            if state.phase == Phase.MAKER:
                assert legal == (Action.alone(), Action.merge()) and not view.dummy
            elif state.phase == Phase.KEEP:
                merges += 1
                assert len(legal) == 252 and view.dummy and len(action.cards) == 5
            assert action in state.legal_actions()
            after = state.apply(action)
            if action.is_merge:  # the same seat is asked again, for the five
                assert after.phase == Phase.KEEP and after.to_act == seat
            state = after
    assert merges > 10


# -- always legal ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deck", DECKS)
def test_bots_always_choose_legal_actions(variant: Variant, deck: int) -> None:
    rules = Rules(variant=variant, deck=deck)
    rng = random.Random(deck * 3 + len(variant))
    for i in range(60):
        bots = new_bots(rules, rng.randrange(10**6))
        state = HandState.deal_random(rules, i % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = decide(bots[seat], state, seat)
            assert action in state.legal_actions(), (bots[seat].name, str(action))
            state = state.apply(action)
        assert state.result is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_legal_under_other_options(variant: Variant) -> None:
    rules = Rules(
        variant=variant,
        deck=25,
        stick_the_dealer=True,
        dealer_pickup="mandatory",
        may_name_turned_down_suit=True,
        dealer_may_discard_upcard=False,
        defenders_may_go_alone=False,
        lone_lead="left_of_dealer",
    )
    rng = random.Random(17)
    for i in range(60):
        bots: list[Bot] = [RuleBot(random.Random(i)) for _ in range(rules.seats)]
        if i % 2:
            bots = new_bots(rules, i)
        state = HandState.deal_random(rules, i % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = decide(bots[seat], state, seat)
            assert action in state.legal_actions()
            state = state.apply(action)
        result = state.result
        assert result is not None and not result.thrown_in  # stick the dealer


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_matches_complete(variant: Variant) -> None:
    rules = Rules(variant=variant)
    for seed in range(3):
        rng = random.Random(seed)
        bots = new_bots(rules, seed) if seed else [RuleBot(random.Random(s)) for s in range(4)]
        m = Match.new(rules, rng=rng)
        hands = 0
        while not m.is_over:
            m = m.deal(rng=rng)
            hands += 1
            assert hands < 200
            while m.current is not None:
                seat = m.current.to_act
                assert seat is not None
                m = m.apply(decide(bots[seat], m.current, seat, m.scores))
        assert m.winners
        assert max(m.scores) >= rules.target
        assert all(m.scores[w] == max(m.scores) for w in m.winners)


# -- the view is all a bot sees --------------------------------------------------------


def twins(state: HandState, seat: int, rng: random.Random) -> tuple[HandState, HandState] | None:
    """Two full states, with different deals, whose views for ``seat`` are
    the same as ``state``'s (for the maker's keep, phase KEEP: a view that
    shows the dummy, so that the dummy is the same)."""
    view = View.of(state, seat)
    first = view.sample(random.Random(rng.random()))
    for _ in range(20):
        second = view.sample(random.Random(rng.random()))
        if second.deal != first.deal:
            return first, second
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_choice_depends_only_on_the_view(variant: Variant) -> None:
    rules = Rules(variant=variant)
    rng = random.Random(21)
    compared = 0
    for i in range(25):
        state = HandState.deal_random(rules, i % rules.seats, rng)
        driver = new_bots(rules, i)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            pair = twins(state, seat, rng)
            if pair is not None:
                a, b = pair
                assert View.of(a, seat) == View.of(b, seat) == View.of(state, seat)
                for make in (RuleBot, RandomBot):
                    got_a = decide(make(random.Random(i)), a, seat)
                    got_b = decide(make(random.Random(i)), b, seat)
                    got = decide(make(random.Random(i)), state, seat)
                    assert got_a == got_b == got, (make.__name__, state.history)
                compared += 1
            state = state.apply(decide(driver[seat], state, seat))
    assert compared > 200


# -- the rule bot plays well -----------------------------------------------------------


def points_per_hand(rules: Rules, rule_seats: set[int], hands: int, seed: int) -> float:
    """Average points per hand of the rule bots' side minus the other side's."""
    rng = random.Random(seed)
    bots: list[Bot] = [
        RuleBot(random.Random(seed + s)) if s in rule_seats else RandomBot(random.Random(seed + s))
        for s in range(rules.seats)
    ]
    diff = 0
    for k in range(hands):
        state = HandState.deal_random(rules, k % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(decide(bots[seat], state, seat))
        result = state.result
        assert result is not None
        for s, p in enumerate(result.points):
            diff += p if s in rule_seats else -p
    return diff / hands / 2


def test_rule_bot_beats_random_bot_in_partnership() -> None:
    rules = Rules(variant="partnership")
    as_even = points_per_hand(rules, {0, 2}, 200, seed=1)
    as_odd = points_per_hand(rules, {1, 3}, 200, seed=2)
    # measured about +1.4 points per hand; chance would be 0
    assert as_even > 0.6 and as_odd > 0.6, (as_even, as_odd)


def test_rule_bot_beats_random_bots_in_cutthroat() -> None:
    rules = Rules()
    rng = random.Random(5)
    totals = [0, 0, 0]
    for k in range(150):
        bots: list[Bot] = [RuleBot(random.Random(k)), RandomBot(rng), RandomBot(rng)]
        state = HandState.deal_random(rules, k % 3, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(decide(bots[seat], state, seat))
        assert state.result is not None
        totals = [t + p for t, p in zip(totals, state.result.points, strict=True)]
    assert totals[0] > 1.3 * max(totals[1], totals[2]), totals


# Cutthroat, dealer 0, up-card 9H; seat 1 holds both red jacks and the ace of hearts.
STRONG = Deal(
    hands=(cards("9C TD KS QD AC"), cards("JH JD AH 9D TS"), cards("AS JC QC KC QS")),
    dummy=cards("KH QH TH JS KD"),
    kitty=cards("9H 9S TC AD"),
)
# Seat 1 holds nothing: four nines and a ten; up-card KH.
WEAK = Deal(
    hands=(cards("JH AH QD AC KS"), cards("9C 9D 9S 9H TD"), cards("AS JC QC KC QS")),
    dummy=cards("JD TH JS AD TS"),
    kitty=cards("KH QH TC KD"),
)


def test_rule_bot_orders_with_both_bowers_and_the_ace() -> None:
    state = HandState(Rules(), 0, STRONG)
    assert state.to_act == 1
    for seed in range(5):
        assert decide(RuleBot(random.Random(seed)), state, 1) == Action.order()


def test_rule_bot_passes_with_a_hand_of_nines() -> None:
    state = HandState(Rules(), 0, WEAK)
    assert decide(RuleBot(random.Random(0)), state, 1) == Action.pass_()
    # and in round two too
    state = state.apply_all(["pass"] * 3)
    assert state.phase == Phase.BID2 and state.to_act == 1
    assert decide(RuleBot(random.Random(0)), state, 1) == Action.pass_()


def test_rule_bot_as_maker() -> None:
    """After ordering, the dealer picks up without discarding a trump, and
    the maker keeps its bowers when merging."""
    state = HandState(Rules(), 0, STRONG).apply_all(["order"])
    assert state.phase == Phase.PICKUP and state.to_act == 0
    act = decide(RuleBot(random.Random(0)), state, 0)
    if act.kind == "pickup":
        assert act.card is not None
        assert effective_suit(act.card, Suit.HEARTS) != Suit.HEARTS
    state = state.apply(act)
    assert state.phase == Phase.MAKER and state.to_act == 1
    act = decide(RuleBot(random.Random(0)), state, 1)
    assert act in (Action.alone(), Action.merge())
    if act.is_merge:  # then the five, on the view that shows the dummy
        state = state.apply(act)
        assert state.phase == Phase.KEEP and state.to_act == 1
        act = decide(RuleBot(random.Random(0)), state, 1)
        assert act.kind == "keep" and len(act.cards) == 5
        assert {Card.parse("JH"), Card.parse("JD"), Card.parse("AH")} <= set(act.cards)
        # the dummy's hearts are worth keeping too
        assert Card.parse("KH") in act.cards and Card.parse("QH") in act.cards


def test_rule_bot_goes_alone_with_five_top_trumps() -> None:
    deal = Deal(
        hands=(cards("9C TD KS QD AC"), cards("JH JD AH KH QH"), cards("AS JC QC KC QS")),
        dummy=cards("9D TH JS AD TS"),
        kitty=cards("9H 9S TC KD"),
    )
    state = HandState(Rules(), 0, deal)
    bot = RuleBot(random.Random(0))
    assert decide(bot, state, 1) == Action.order()
    state = state.apply(Action.order())
    state = state.apply(decide(bot, state, 0))
    assert state.phase == Phase.MAKER
    assert decide(bot, state, 1) == Action.alone()


def test_rule_bot_trumps_with_the_lowest_winner() -> None:
    """Last to play, void in the suit led, holding the right bower and the
    ten of trumps: it wins with the ten."""
    deal = Deal(
        hands=(cards("AS KS 9D TD QD"), cards("9S TS QC KC AC"), cards("JH TH 9C TC JC")),
        dummy=cards("AH KH QH JD KD"),
        kitty=cards("9H AD JS QS"),
    )
    state = HandState(Rules(), 2, deal).apply_all(
        ["order", "decline", "keep AS KS AH KH QH", "pass", "pass", "play AS", "play 9S"]
    )
    assert state.to_act == 2
    assert decide(RuleBot(random.Random(0)), state, 2) == Action.parse("play TH")
