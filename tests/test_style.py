"""How the other seats call (``bots.style``): a seat learns, from finished
hands only, by how much each other seat's making threshold differs from the
rule bot's; the search bot at a level that adapts shifts its model by it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from euchre import Action, HandState, Phase, Rules
from euchre.bots import Bot, RandomBot, RuleBot, SearchBot, compiled, decide, hand_over
from euchre.bots.style import PRIOR_SD, SHIFTS, CallStyles
from euchre.view import View


def play_hands(rules: Rules, bots: list[Bot], hands: int, seed: int) -> list[HandState]:
    """``hands`` finished hands of ``bots``, the deal passing to the left."""
    rng = random.Random(seed)
    out = []
    for i in range(hands):
        st = HandState.deal_random(rules, i % rules.seats, rng)
        while not st.is_over:
            seat = st.to_act
            assert seat is not None
            st = st.apply(decide(bots[seat], st, seat), seat)
        out.append(st)
    return out


def learnt(rules: Rules, others: float, hands: int, seed: int) -> CallStyles:
    """What seat 0 (a rule bot) learns of the others, rule bots shifted by
    ``others``."""
    bots: list[Bot] = [RuleBot()] + [RuleBot(make_shift=others) for _ in range(rules.seats - 1)]
    styles = CallStyles(rules, 0)
    for st in play_hands(rules, bots, hands, seed):
        styles.observe(View.of(st, 0))
    return styles


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
@pytest.mark.parametrize("shift", [-1.0, 0.0, 1.0])
def test_learns_how_the_others_call(variant: str, shift: float) -> None:
    """Over 60 hands each other seat's estimate is the shift it calls with,
    within one step of ``SHIFTS``; the seat itself stays at 0. But a bold
    Cutthroat caller is not seen to be bold: the hands it makes trump with
    and the rule bot would not are merged with the dummy and never shown,
    so it stays at 0 (and is never taken for timid)."""
    rules = Rules(variant=variant)
    styles = learnt(rules, shift, 60, seed=int(shift * 10) + len(variant))
    assert styles.shift(0) == 0.0 and styles.seen[0] == 0
    for s in range(1, rules.seats):
        assert styles.seen[s] >= 15, styles.seen
        if rules.cutthroat and shift < 0:
            assert styles.shift(s) <= 0.0, (s, styles.shifts())
        else:
            assert abs(styles.shift(s) - shift) <= 0.5, (s, styles.shifts())
    assert styles.shifts() == tuple(styles.shift(s) for s in range(rules.seats))


def test_a_seat_not_seen_stays_at_the_prior() -> None:
    styles = CallStyles(Rules(), 1)
    assert styles.shifts() == (0.0, 0.0, 0.0)
    assert 0.0 in SHIFTS and PRIOR_SD > 0


def test_only_hands_shown_in_the_play_are_learnt_from() -> None:
    """A dealer who picked up (its discard hidden), a Cutthroat maker who
    merged (it played from the dummy too) and a hand thrown in show no hand:
    their bids are not learnt from."""
    rng = random.Random(5)
    checked = {"picked": 0, "merged": 0, "thrown": 0}
    for variant in ("partnership", "cutthroat"):
        rules = Rules(variant=variant)
        bold: list[Bot] = [RuleBot(make_shift=-1.0) for _ in range(rules.seats)]
        timid: list[Bot] = [RuleBot(make_shift=2.0) for _ in range(rules.seats)]
        for i in range(120):
            bots = timid if i % 3 == 0 else bold  # timid callers throw hands in
            st = play_hands(rules, bots, 1, seed=rng.randrange(1 << 30))[0]
            view = View.of(st, i % rules.seats)
            styles = CallStyles(rules, view.seat)
            styles.observe(view)
            core = st.core
            if core.thrown_in:
                assert sum(styles.seen) == 0
                checked["thrown"] += 1
            if view.picked_up and view.dealer != view.seat:
                assert styles.seen[view.dealer] == 0
                checked["picked"] += 1
            if view.merged and view.maker != view.seat:
                assert view.maker is not None and styles.seen[view.maker] == 0
                checked["merged"] += 1
    assert all(n > 0 for n in checked.values()), checked


OPTION_SETS: list[dict[str, object]] = [
    {},
    {"stick_the_dealer": True, "may_name_turned_down_suit": True},
    {"dealer_pickup": "mandatory", "dealer_may_discard_upcard": False},
    {"joker_upcard": "redeal", "lone_lead": "left_of_dealer"},
]


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
@pytest.mark.parametrize("deck", [24, 25, 32])
def test_every_deck_and_option_is_learnt_from(variant: str, deck: int) -> None:
    """Finished hands of every deck and option set, played by rule bots of
    every style and random bots (odd bids, thrown-in hands, lone hands):
    learning from them never fails, from every seat, and learns."""
    rng = random.Random(f"{variant}-{deck}")
    learnt = 0
    for i, opts in enumerate(OPTION_SETS * 10):
        rules = Rules(variant=variant, deck=deck, **opts)  # type: ignore[arg-type]
        bots: list[Bot] = [
            RuleBot(make_shift=rng.choice((-1.0, 0.0, 1.0)))
            if rng.random() < 0.8
            else RandomBot(random.Random(i))
            for _ in range(rules.seats)
        ]
        st = play_hands(rules, bots, 1, seed=rng.randrange(1 << 30))[0]
        for seat in range(rules.seats):
            learnt += CallStyles(rules, seat).observe(View.of(st, seat))
    assert learnt > 40


def test_observe_wants_a_finished_hand_of_its_seat() -> None:
    rules = Rules()
    st = HandState.deal_random(rules, 0, random.Random(1))
    styles = CallStyles(rules, 1)
    with pytest.raises(ValueError, match="finished hand"):
        styles.observe(View.of(st, 1))
    done = play_hands(rules, [RuleBot(), RuleBot(), RuleBot()], 1, seed=2)[0]
    with pytest.raises(ValueError, match="this seat"):
        styles.observe(View.of(done, 0))
    with pytest.raises(ValueError, match="no seat"):
        CallStyles(rules, 3)
    with pytest.raises(ValueError, match="not over"):
        hand_over(SearchBot(random.Random(1), level="hard"), st, 0)


def test_learning_reads_only_the_view() -> None:
    """The same view of a finished hand teaches the same, whatever cards the
    hand's unseen places (a picked-up dealer's discard, the dummy, the
    kitty) held: it is learnt from the view alone."""
    rules = Rules(variant="partnership")
    bots: list[Bot] = [RuleBot(make_shift=-1.0) for _ in range(4)]
    compared = 0
    for st in play_hands(rules, bots, 40, seed=8):
        view = View.of(st, 1)
        a = CallStyles(rules, 1)
        a.observe(view)
        other = view.sample(random.Random(compared))
        assert View.of(other, 1) == view
        b = CallStyles(rules, 1)
        b.observe(View.of(other, 1))
        assert a.log_post == b.log_post
        compared += 1
    assert compared == 40


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_the_search_bot_adapts_its_model(variant: str) -> None:
    """At hard (``Level.adapt``) the search bot learns from ``hand_over`` and
    its model of each seat then makes trump at the learnt shift (in Python
    and in the compiled core's rules); at medium it learns nothing. (Timid
    callers in Cutthroat, where a bold one is not seen; bold ones in
    partnership.)"""
    rules = Rules(variant=variant)
    shift = 1.5 if rules.cutthroat else -1.5
    hands = play_hands(rules, [RuleBot(make_shift=shift) for _ in range(rules.seats)], 40, seed=3)
    hard = SearchBot(random.Random(1), level="hard")
    medium = SearchBot(random.Random(1), level="medium")
    for st in hands:
        hand_over(hard, st, 0)
        hand_over(medium, st, 0)
        hand_over(RuleBot(), st, 0)  # a bot that does not learn is left alone
    assert medium.styles is None
    assert hard.styles is not None and hard.styles.seat == 0
    st = HandState.deal_random(rules, 1, random.Random(9))
    view = View.of(st, st.to_act or 0)
    assert view.seat == 0 or hard.make_shifts(view) == ()  # another seat: nothing learnt
    st = HandState.deal_random(rules, rules.seats - 1, random.Random(9))
    view = View.of(st, 0)
    assert view.phase == Phase.BID1 and view.is_my_turn
    shifts = hard.make_shifts(view)
    assert shifts == hard.styles.shifts() and shifts[0] == 0.0
    assert all(x * shift >= 1.0 for x in shifts[1:]), shifts
    action = hard.choose(view, view.legal)
    assert action in view.legal
    assert hard.model.seat_shifts == shifts
    assert medium.make_shifts(view) == ()
    if compiled.COMPILED_AVAILABLE:  # the shifts reach the compiled core's rules
        compiled.known(view, make_shifts=shifts)
        with pytest.raises(ValueError, match="make_shifts"):
            compiled.known(view, make_shifts=(99.0,) * rules.seats)
    pure = SearchBot(random.Random(1), level="hard", compiled_core=False)
    pure.levels = {
        v: replace(lv, decision_rollouts=8, min_samples=4, max_rollouts=8)
        for v, lv in pure.levels.items()
    }
    pure.styles = hard.styles
    assert pure.choose(view, view.legal) in view.legal
    assert pure.model.seat_shifts == shifts
    other_rules = Rules(variant="partnership" if variant == "cutthroat" else "cutthroat")
    other = HandState.deal_random(other_rules, 1, random.Random(9))
    assert hard.make_shifts(View.of(other, 0)) == ()  # learnt in another variant


def test_a_learnt_shift_changes_the_model_calls() -> None:
    """The model's call for a seat the bot learnt is bold is the bold rule
    bot's: an order where the rule bot passes, on some hands."""
    rules = Rules(variant="partnership")
    model = RuleBot()
    model.seat_shifts = (0.0, -1.0, 0.0, -1.0)
    rng = random.Random(4)
    changed = 0
    for _ in range(300):
        st = HandState.deal_random(rules, 0, rng)
        view = View.of(st, 1)
        bold = RuleBot(make_shift=-1.0).choose(view, view.legal)
        assert model.choose(view, view.legal) == bold
        changed += bold != RuleBot().choose(view, view.legal)
        assert bold in (Action.order(), Action.pass_())
    assert changed > 0
