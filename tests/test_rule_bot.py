"""The rule bot (``rule``): sensible decisions in set scenarios, a policy
that is a probability distribution over the legal actions, never an illegal
action, and clearly stronger than chance.

Deals are written out card by card (24-card deck); ``state`` applies the
actions before the decision under test.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Literal

import pytest

from euchre import Action, Card, Deal, HandState, Phase, Rules, Suit
from euchre.bots import Bot, RandomBot, RuleBot, decide
from euchre.bots.rule import strength
from euchre.cards import effective_suit
from euchre.view import View

Variant = Literal["cutthroat", "partnership"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def deal(hands: Sequence[str], kitty: str, dummy: str = "") -> Deal:
    return Deal(
        hands=tuple(cards(h) for h in hands),
        dummy=cards(dummy),
        kitty=cards(kitty),
    )


PART = Rules(variant="partnership")
CUT = Rules()


def state(rules: Rules, dealer: int, d: Deal, actions: Sequence[str] = ()) -> HandState:
    return HandState(rules, dealer, d).apply_all(actions)


def choice(st: HandState) -> Action:
    seat = st.to_act
    assert seat is not None
    return decide(RuleBot(random.Random(0)), st, seat)


# -- the count -----------------------------------------------------------------------


def test_strength_orders_hands_sensibly() -> None:
    h = Suit.HEARTS
    bowers = strength(cards("JH JD AH KS AC"), h)
    junk = strength(cards("9C TC 9S TS 9D"), h)
    assert bowers > 8 > 1 > junk
    # the right bower is worth more than the left, the left more than the ace
    assert strength(cards("JH"), h) > strength(cards("JD"), h) > strength(cards("AH"), h)
    # a dead card above counts as gone: with the right bower out of play the
    # left is the top trump
    assert strength(cards("JD"), h, dead=cards("JH")) == strength(cards("JH"), h)
    # the joker is the top trump of a 25-card deck; with it gone the right
    # bower is the top trump again
    assert strength(cards("JK"), h) > strength(cards("JH"), h, deck=25)
    assert strength(cards("JH"), h, deck=25, dead=cards("JK")) > strength(cards("JH"), h, deck=25)


# -- bidding -------------------------------------------------------------------------

# Partnership, dealer 0, up-card 9H; seat 1 holds both red jacks and two aces.
STRONG = deal(
    ["9C TC QC KC 9D", "JH JD AH KS AC", "TD QD KD AD 9S", "TS QS AS JC JS"], "9H TH QH KH"
)
# Seat 1 holds nothing.
JUNK = deal(["QC KC AC JC TD", "9C TC 9S TS 9D", "QD KD AD JD QS", "KS AS JS JH AH"], "9H TH QH KH")


def test_orders_with_strong_trump() -> None:
    assert choice(state(PART, 0, STRONG)) == Action.order()


def test_passes_with_junk_in_both_rounds() -> None:
    st = state(PART, 0, JUNK)
    assert choice(st) == Action.pass_()
    st = st.apply_all(["pass"] * 4)
    assert st.phase == Phase.BID2 and st.to_act == 1
    assert choice(st) == Action.pass_()


def test_round_two_calls_the_best_suit() -> None:
    d = deal(
        ["9C QC KC AC JC", "JS AS KS 9D TC", "TD QD KD AD JD", "9S TS QS JH AH"], "KH 9H TH QH"
    )
    st = state(PART, 0, d, ["pass"] * 4)
    assert choice(st) == Action.call(Suit.SPADES)


def test_round_two_prefers_next_left_of_the_dealer() -> None:
    """Equal holdings in diamonds and clubs after hearts were turned down: the
    seat left of the dealer names 'next' (diamonds, the colour of hearts)."""
    d = deal(
        ["TC QC KC AC TD", "JD 9D JC 9C AS", "QD KD AD 9S TS", "QS KS JS JH AH"], "KH 9H TH QH"
    )
    bot = RuleBot()
    view = View.of(state(PART, 0, d, ["pass"] * 4), 1)
    assert strength(view.hand, Suit.DIAMONDS) == strength(view.hand, Suit.CLUBS)
    assert bot.choose(view, view.legal) == Action.call(Suit.DIAMONDS)


def test_stick_the_dealer_names_its_best_suit() -> None:
    rules = PART.replace(stick_the_dealer=True)
    d = deal(
        ["9C TC QC 9S TS", "KC AC JC 9D TD", "QD KD AD JD QS", "KS AS JS JH AH"], "KH 9H TH QH"
    )
    st = state(rules, 0, d, ["pass"] * 4 + ["pass"] * 3)
    assert st.to_act == 0 and Action.pass_() not in st.legal_actions()
    assert choice(st) == Action.call(Suit.CLUBS)


def test_cutthroat_orders_a_strong_hand_and_merges() -> None:
    d = deal(
        ["TC KC AC QD 9D", "JH 9C 9S AD JD", "JC JS QS KS AS"],
        "9H TH QH TD",
        dummy="TS AH KH QC KD",
    )
    st = state(CUT, 0, d)
    assert choice(st) == Action.order()
    st = st.apply_all(["order", "pickup 9D"])
    assert st.phase == Phase.MAKER
    view = View.of(st, 1)
    # not a sure march: merging the dummy only adds cards
    assert RuleBot().choose(view, view.legal) == Action.merge()


# -- discards and keeps --------------------------------------------------------------


def test_discard_makes_a_void_and_keeps_trumps() -> None:
    d = deal(
        ["JH AH KC KS QS", "9C TC QC AC JC", "9D TD QD KD AD", "JD 9S TS AS JS"], "9H TH QH KH"
    )
    st = state(PART, 0, d, ["order"])
    assert st.phase == Phase.PICKUP and st.to_act == 0
    act = choice(st)
    assert act == Action.pickup(Card.parse("KC"))


def test_dummy_keep_picks_the_strongest_five() -> None:
    d = deal(
        ["TC KC AC QD 9D", "JH 9C 9S AD TS", "JC JS QS KS AS"],
        "9H TH QH TD",
        dummy="JD AH KH QC KD",
    )
    st = state(CUT, 0, d, ["order", "pickup 9D"])
    assert st.phase == Phase.MAKER and st.to_act == 1
    assert choice(st) == Action.merge()
    st = st.apply(Action.merge())
    assert st.phase == Phase.KEEP and st.to_act == 1
    act = choice(st)
    assert act.kind == "keep" and set(act.cards) == set(cards("JH JD AH KH AD"))
    # and leads the right bower
    st = st.apply(act).apply_all(["pass", "pass"])
    assert st.phase == Phase.PLAY and st.to_act == 1
    assert choice(st) == Action.play(Card.parse("JH"))


# -- play ----------------------------------------------------------------------------

# Partnership, dealer 0, up-card 9H; seat 1 orders; the dealer picks up.
PLAY_DEAL = deal(
    ["9C TC QC TH KD", "9S JH JD AH KH", "AS QS 9D TD QD", "TS JS AC KC JC"], "9H AD KS QH"
)


def test_defender_ducks_when_partner_wins() -> None:
    """Void in spades, last to play, partner's ace winning: no trump wasted."""
    st = state(
        PART,
        0,
        PLAY_DEAL,
        ["order", "pickup 9C"] + ["pass"] * 4 + ["play 9S", "play AS", "play TS"],
    )
    assert st.to_act == 0
    act = choice(st)
    assert act.card is not None and effective_suit(act.card, Suit.HEARTS) != Suit.HEARTS
    assert act == Action.play(Card.parse("TC"))  # the lowest card


def test_plays_the_lowest_winning_card() -> None:
    d = deal(
        ["KC AC 9D TD QD", "QC JH JD AH KH", "9C 9S TS QS KS", "TC JC AS JS KD"], "9H TH QH AD"
    )
    st = state(
        PART,
        0,
        d,
        ["order", "pickup 9D"] + ["pass"] * 4 + ["play QC", "play 9C", "play TC"],
    )
    assert st.to_act == 0
    assert choice(st) == Action.play(Card.parse("KC"))


def test_leads_around_a_shown_void() -> None:
    """Seat 3 threw a spade on clubs (void, may ruff): the defender on lead
    cashes the ace of spades, not the ace of clubs."""
    d = deal(
        ["KC AC AS TD QD", "QC JH JD AH KH", "9C TC JC TS QS", "9S KS JS 9D KD"], "9H TH QH AD"
    )
    st = state(
        PART,
        0,
        d,
        ["order", "pickup TD"] + ["pass"] * 4 + ["play QC", "play 9C", "play 9S", "play KC"],
    )
    assert st.to_act == 0 and st.current_trick == ()
    assert choice(st) == Action.play(Card.parse("AS"))


def test_cutthroat_defender_does_not_overtrump_its_partner() -> None:
    """The maker leads the ace of clubs; the first defender ruffs with the ace
    of trumps; the second defender, void in clubs too and last to play, holds
    the left bower but lets its fellow defender have the trick and throws its
    worst card."""
    d = deal(
        ["AC KC QC KH QH", "AH 9S TS QS 9D", "JD KS AS TD QD"],
        "9H JH KD AD",
        dummy="9C TC JC TH JS",
    )
    st = state(
        CUT,
        2,
        d,
        ["order", "pickup TD", "keep AC KC KH QH TH", "pass", "pass", "play AC", "play AH"],
    )
    assert st.to_act == 2
    assert choice(st) == Action.play(Card.parse("QD"))


# -- the policy ----------------------------------------------------------------------


def test_policy_is_a_distribution_led_by_the_choice() -> None:
    rng = random.Random(4)
    checked = 0
    for i in range(30):
        rules = Rules(variant=("cutthroat", "partnership")[i % 2])
        st = HandState.deal_random(rules, i % rules.seats, rng)
        bot = RuleBot(random.Random(i))
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            view = View.of(st, seat)
            probs = bot.policy(view, view.legal)
            assert set(probs) == set(view.legal)
            assert abs(sum(probs.values()) - 1.0) < 1e-9
            chosen = bot.choose(view, view.legal)
            assert probs[chosen] == max(probs.values())
            assert all(p > 0 for p in probs.values())
            checked += 1
            st = st.apply(decide(bot, st, seat))
    assert checked > 300


# -- the arena's calling styles (rule:bold, rule:timid) ------------------------------


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_a_make_shift_moves_the_calls_and_only_the_calls(variant: Variant) -> None:
    """A bold rule bot (the arena's ``rule:bold``) makes trump with every
    hand the rule bot makes it with and with some it passes; a timid one
    the other way round; both play the same cards as the rule bot."""
    rules = Rules(variant=variant)
    rng = random.Random(11)
    plain, bold, timid = RuleBot(), RuleBot(make_shift=-1.0), RuleBot(make_shift=1.0)
    made = {"plain": 0, "bold": 0, "timid": 0}
    plays = 0
    for i in range(300):
        st = HandState.deal_random(rules, i % rules.seats, rng)
        seat = st.to_act
        assert seat is not None and st.phase == Phase.BID1
        view = View.of(st, seat)
        calls = {
            name: bot.choose(view, view.legal) != Action.pass_()
            for name, bot in (("plain", plain), ("bold", bold), ("timid", timid))
        }
        assert calls["bold"] >= calls["plain"] >= calls["timid"]
        for name, called in calls.items():
            made[name] += called
        while not st.is_over:  # the card play is the style's too: the same
            seat = st.to_act
            assert seat is not None
            view = View.of(st, seat)
            action = plain.choose(view, view.legal)
            if st.phase == Phase.PLAY:
                assert bold.choose(view, view.legal) == timid.choose(view, view.legal) == action
                plays += 1
            st = st.apply(action)
    assert made["bold"] > made["plain"] > made["timid"] > 0
    assert plays > 1000


# -- always legal --------------------------------------------------------------------

OPTION_SETS = [
    {},
    {"stick_the_dealer": True},
    {"dealer_pickup": "mandatory", "may_name_turned_down_suit": True},
    {"dealer_may_discard_upcard": False, "defenders_may_go_alone": False},
    {"lone_lead": "left_of_dealer", "dummy_decline_is_alone": False, "lone_defender_points": 4},
    {"joker_upcard": "redeal", "stick_the_dealer": True, "dealer_pickup": "mandatory"},
]


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
@pytest.mark.parametrize("deck", [24, 25, 32])
def test_never_an_illegal_action(variant: Variant, deck: int) -> None:
    rng = random.Random(deck * 7 + len(variant))
    for i, opts in enumerate(OPTION_SETS * 5):
        rules = Rules(variant=variant, deck=deck, **opts)  # type: ignore[arg-type]
        bots: list[Bot] = [RuleBot(random.Random(i)) for _ in range(rules.seats)]
        if i % 3 == 0:  # odd opponents lead to odd positions
            bots[i % rules.seats] = RandomBot(random.Random(i))
        st = HandState.deal_random(rules, i % rules.seats, rng)
        scores = [rng.randrange(rules.target) for _ in range(rules.seats)]
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            act = decide(bots[seat], st, seat, scores)  # raises on an illegal action
            st = st.apply(act)
        assert st.result is not None


# -- strength and speed --------------------------------------------------------------


def play_hand(rules: Rules, bots: Sequence[Bot], dealer: int, d: Deal) -> tuple[int, ...]:
    st = HandState(rules, dealer, d)
    while not st.is_over:
        seat = st.to_act
        assert seat is not None
        st = st.apply(decide(bots[seat], st, seat))
    assert st.result is not None
    return st.result.points


def test_beats_random_bots_in_partnership() -> None:
    """Duplicate: each deal played with the rule bots on either side."""
    rules = PART
    rng = random.Random(11)
    diff = 0.0
    n = 150
    for k in range(n):
        d = Deal.random(rules, rng)
        for side in (0, 1):
            bots: list[Bot] = [
                RuleBot(random.Random(s)) if s % 2 == side else RandomBot(random.Random(k + s))
                for s in range(4)
            ]
            pts = play_hand(rules, bots, k % 4, d)
            diff += (pts[side] - pts[1 - side]) / 2
    # measured about +1.5 points per hand; chance is 0
    assert diff / n > 0.8, diff / n


def test_beats_random_bots_in_cutthroat() -> None:
    """Duplicate: each deal played with the rule bot in each seat."""
    rules = CUT
    rng = random.Random(12)
    diff = 0.0
    n = 120
    for k in range(n):
        d = Deal.random(rules, rng)
        for me in range(3):
            bots: list[Bot] = [
                RuleBot(random.Random(s)) if s == me else RandomBot(random.Random(k + s))
                for s in range(3)
            ]
            pts = play_hand(rules, bots, k % 3, d)
            diff += (pts[me] - (sum(pts) - pts[me]) / 2) / 3
    # measured about +1.3 points per hand; chance is 0
    assert diff / n > 0.6, diff / n


def test_decisions_are_fast() -> None:
    """Typically well under a millisecond (a generous bound for slow machines)."""
    rng = random.Random(13)
    total = 0.0
    count = 0
    for i in range(40):
        rules = Rules(variant=("cutthroat", "partnership")[i % 2], deck=(24, 25, 32)[i % 3])
        st = HandState.deal_random(rules, i % rules.seats, rng)
        bot = RuleBot()
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            view = View.of(st, seat)
            t0 = time.perf_counter()
            act = bot.choose(view, view.legal)
            total += time.perf_counter() - t0
            count += 1
            st = st.apply(decide(bot, st, seat))
        del act
    assert total / count < 0.003, total / count


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
@pytest.mark.parametrize("deck", [24, 25, 32])
def test_play_code_agrees_with_choose_on_the_view(variant: Variant, deck: int) -> None:
    """The fast play path (read off the state, for the search bot's
    rollouts) is the same decision as ``choose`` on the seat's view, in every
    variant, deck and option set, with random players making odd positions."""
    rng = random.Random(deck * 11 + len(variant))
    bot = RuleBot(random.Random(0))
    compared = 0
    for i, opts in enumerate(OPTION_SETS * 4):
        rules = Rules(variant=variant, deck=deck, **opts)  # type: ignore[arg-type]
        other = RandomBot(random.Random(i))
        st = HandState.deal_random(rules, i % rules.seats, rng)
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            if st.phase == Phase.PLAY:
                view = View.of(st, seat)
                assert bot.play_code(st.core, seat) == bot.choose(view, view.legal).code
                compared += 1
            chooser: Bot = bot if i % 2 else other
            st = st.apply(decide(chooser, st, seat))
    assert compared > 100


def _plain_best_keep(pool: int, t: int, n: int, dead: int, deck: int) -> tuple[float, int]:
    """Every choice of the non-trumps weighed by ``_value``, the first best
    kept: what ``_best_keep`` must agree with."""
    from itertools import combinations

    from euchre.bots.rule import _value, mask_of_ids
    from euchre.cards import POWER, SUIT_MASK, ids_of

    trumps = pool & SUIT_MASK[t][t]
    ntr = trumps.bit_count()
    if ntr >= n:
        top = sorted(ids_of(trumps), key=lambda c: -POWER[t][t][c])[:n]
        m = mask_of_ids(top)
        return _value(m, t, dead | (pool & ~m), deck), m
    best = (-1.0, 0)
    for combo in combinations(ids_of(pool & ~trumps), n - ntr):
        m = trumps | mask_of_ids(combo)
        tie = 0.0
        for c in combo:
            tie += 0.001 * (c & 7)
        v = _value(m, t, dead | (pool & ~m), deck) + tie
        if v > best[0]:
            best = (v, m)
    return best


@pytest.mark.parametrize("deck", [24, 25, 32])
def test_best_keep_is_the_best_of_every_choice(deck: int) -> None:
    # RULES.md §3.4 (the maker keeps five of ten) and §3.2 (the dealer's
    # discard): the per-suit search gives the plain search's keep and count
    from euchre.bots.rule import _best_keep
    from euchre.cards import deck_mask, ids_of

    rng = random.Random(deck)
    ids = ids_of(deck_mask(deck))
    for i in range(1500):
        size = rng.choice((6, 10, 10, 10))
        chosen = rng.sample(ids, size + 1)
        pool = sum(1 << c for c in chosen[:size])
        dead = 1 << chosen[size] if i % 2 else 0
        t = rng.randrange(4)
        assert _best_keep(pool, t, 5, dead, deck) == _plain_best_keep(pool, t, 5, dead, deck), (
            pool,
            t,
            dead,
        )
