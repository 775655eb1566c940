"""The search bot (``search``) and the all-seeing ``cheat`` bot.

Always legal (both variants, every deck), deterministic with a seed, a
function of the view only, ``suggest`` consistent with ``choose``,
inference weighing down unlikely deals, easy cheaper than hard, the cheat
legal, and search:easy clearly ahead of random play.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any, Literal

import pytest

from euchre import Action, Card, Deal, HandState, Phase, Rules, Suit
from euchre.actions import PLAY
from euchre.bots import (
    ARENA_BOTS,
    BOT_NAMES,
    SEARCH_LEVELS,
    Bot,
    CheatBot,
    RandomBot,
    RuleBot,
    SearchBot,
    StateBot,
    act,
    compiled,
    decide,
    make_bot,
)
from euchre.bots.scoring import points_table, utility
from euchre.bots.search import (
    CUT_MIN_DEALS,
    LEVELS,
    CallEstimate,
    Level,
    best_response_tricks,
    finish_hand,
    greedy_keep,
    own_card,
    play_voids,
    rank_calls,
    side_of,
)
from euchre.cards import EFFECTIVE_SUIT, SUIT_MASK, mask_of
from euchre.hand import FastHand
from euchre.rules import VARIANTS as RULE_VARIANTS
from euchre.solver import Solver
from euchre.view import View

Variant = Literal["cutthroat", "partnership"]
VARIANTS: tuple[Variant, ...] = ("cutthroat", "partnership")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def play_hand(state: HandState, bots: list[Bot]) -> HandState:
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = decide(bots[seat], state, seat)
        assert action in state.legal_actions()
        state = state.apply(action)
    return state


def set_level(bot: SearchBot, rules: Rules, **changes: Any) -> None:
    """Change ``bot``'s level in the variant of ``rules`` (the other
    variant's is left as it is)."""
    level = dataclasses.replace(bot.level_for(rules), **changes)
    bot.levels = {**bot.levels, rules.variant: level}


def positions(rules: Rules, count: int, seed: int) -> list[tuple[HandState, int]]:
    """Decision points with a real choice, from hands played by rule bots."""
    rng = random.Random(seed)
    bot = RuleBot(random.Random(seed))
    out: list[tuple[HandState, int]] = []
    while len(out) < count:
        state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if len(state.legal_actions()) > 1 and rng.random() < 0.4:
                out.append((state, seat))
            state = state.apply(decide(bot, state, seat))
    return out[:count]


# -- names -------------------------------------------------------------------------------


def test_names_and_levels() -> None:
    assert "search" in BOT_NAMES and "cheat" not in BOT_NAMES
    assert "cheat" in ARENA_BOTS
    bot = make_bot("search", seed=1)
    assert isinstance(bot, SearchBot) and bot.name == "search" and bot.level == "hard"
    for level in SEARCH_LEVELS:
        by_name = make_bot(f"search:{level}", seed=1)
        by_arg = make_bot("search", seed=1, level=level)
        assert isinstance(by_name, SearchBot) and isinstance(by_arg, SearchBot)
        assert by_name.level == by_arg.level == level
        assert by_name.name == by_arg.name == f"search:{level}"
        for variant in VARIANTS:
            rules = Rules(variant=variant)
            assert by_name.level_for(rules) is LEVELS[variant][level]
    with pytest.raises(ValueError):
        make_bot("search:impossible")
    with pytest.raises(ValueError):
        make_bot("rule:hard")
    cheat = make_bot("cheat", seed=1)
    assert isinstance(cheat, StateBot) and isinstance(cheat, CheatBot)
    br = make_bot("cheat:br", seed=1)
    assert isinstance(br, CheatBot) and br.best_response and br.name == "cheat:br"
    assert "cheat:br" in ARENA_BOTS and "cheat:br" not in BOT_NAMES
    assert not cheat.best_response


def test_levels_by_variant() -> None:
    """``LEVELS`` has every level for every variant, each named as its key;
    the variants differ only at hard and expert, where both judge a card by
    the side's best response on 32x-weighed deals and partnership weighs a
    partner's card plays loosely, keeps a small margin and solves fewer
    deals a card in its own-play rollouts."""
    assert set(LEVELS) == set(RULE_VARIANTS)
    for table in LEVELS.values():
        assert tuple(table) == SEARCH_LEVELS
        assert all(level.name == name for name, level in table.items())
    cut, part = LEVELS["cutthroat"], LEVELS["partnership"]
    for name in SEARCH_LEVELS:
        assert cut[name].maker_edge == part[name].maker_edge == 0.0
        assert cut[name].play_own == part[name].play_own == 0
        if name in ("easy", "medium"):
            assert part[name] == cut[name]
            assert cut[name].play_oversample == cut[name].oversample
            assert not cut[name].play_best_response
            assert cut[name].own_samples == 0
        else:
            assert cut[name].oversample == 8
            for level in (cut[name], part[name]):
                assert level.play_oversample == 32 and level.play_best_response
            assert cut[name].own_samples >= part[name].own_samples > 0
            assert part[name].partner_eps() > cut[name].partner_eps()
            # both judge a card by the information-set best response;
            # partnership's partner plays the rule bot's cards in it, on more
            # deals (docs/strength.md, the ninth round)
            assert cut[name].play_infoset and part[name].play_infoset
            assert part[name].infoset_partner_rule and not cut[name].infoset_partner_rule
            assert part[name].play_samples > cut[name].play_samples
            same = dataclasses.replace(
                part[name],
                margin=cut[name].margin,
                se_factor=cut[name].se_factor,
                partner_epsilon=None,
                own_samples=cut[name].own_samples,
                play_samples=cut[name].play_samples,
                infoset_partner_rule=False,
            )
            assert same == cut[name]


# -- always legal --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deck", (24, 25, 32))
def test_search_bot_always_legal(variant: Variant, deck: int) -> None:
    rules = Rules(variant=variant, deck=deck)
    rng = random.Random(deck + len(variant))
    for i in range(4):
        bots: list[Bot] = [
            make_bot("search:easy", i * 10 + s) if (s + i) % 2 == 0 else RuleBot()
            for s in range(rules.seats)
        ]
        state = play_hand(HandState.deal_random(rules, i % rules.seats, rng), bots)
        assert state.result is not None


def test_search_bot_legal_under_other_options() -> None:
    rules = Rules(
        deck=25,
        stick_the_dealer=True,
        dealer_pickup="mandatory",
        may_name_turned_down_suit=True,
        dealer_may_discard_upcard=False,
        defenders_may_go_alone=False,
    )
    rng = random.Random(4)
    for i in range(4):
        bots: list[Bot] = [make_bot("search:easy", i * 3 + s) for s in range(3)]
        state = play_hand(HandState.deal_random(rules, i % 3, rng), bots)
        assert state.result is not None and not state.result.thrown_in


# -- determinism and views only -------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_deterministic_and_view_only(variant: Variant) -> None:
    """The same seed gives the same choice; two full states with the same
    view for the seat give the same choice."""
    rules = Rules(variant=variant)
    rng = random.Random(8)
    compared = 0
    for state, seat in positions(rules, 12, seed=3):
        view = View.of(state, seat)  # the maker's keep (phase KEEP): the dummy shown
        a = view.sample(random.Random(rng.random()))
        b = view.sample(random.Random(rng.random()))
        assert View.of(a, seat) == View.of(b, seat) == view
        got = [decide(make_bot("search:easy", 5), s, seat) for s in (state, a, b)]
        assert got[0] == got[1] == got[2]
        compared += 1
    assert compared == 12


def test_suggest_ranks_consistently_with_choose() -> None:
    for variant in VARIANTS:
        for state, seat in positions(Rules(variant=variant), 8, seed=11):
            view = View.of(state, seat)
            bot = make_bot("search:easy", 2)
            assert isinstance(bot, SearchBot)
            ranked = bot.suggest(view)
            assert {a for a, _ in ranked} == set(view.legal)
            values = [v for _, v in ranked]
            assert values[0] >= max(values) - bot.level_for(view.rules).margin
            assert bot.choose(view, view.legal) == ranked[0][0]


def penalty(e: CallEstimate, level: Level) -> float:
    """What a candidate must beat the rule bot's choice by (none for that choice)."""
    return 0.0 if e.prior else level.margin + level.se_factor * e.se


def test_estimates_record_the_last_call_and_make_it_again() -> None:
    """``SearchBot.estimates`` (measurement: bench/call_outcomes.py): after a
    decision before the play, every candidate suggest lists with its value,
    the rule bot's choice marked (standard error 0), and the level's rule on
    them picks the bot's choice."""
    seen = 0
    for variant in VARIANTS:
        rules = Rules(variant=variant)
        for state, seat in positions(rules, 12, seed=5):
            if state.phase == Phase.PLAY:
                continue
            seen += 1
            view = View.of(state, seat)
            bot = make_bot("search:medium", 4)
            assert isinstance(bot, SearchBot) and bot.estimates == []
            ranked = bot.suggest(view)
            est = bot.estimates
            assert {e.action: e.value for e in est} == dict(ranked)
            priors = [e for e in est if e.prior]
            assert len(priors) == 1 and priors[0].se == 0.0
            assert priors[0].action == bot.model.choose(view, view.legal)
            assert all(e.se >= 0.0 for e in est)
            level = bot.level_for(rules)
            # the highest value less its penalty, the earlier of equals
            keys = [(-round(e.value - penalty(e, level), 9), i) for i, e in enumerate(est)]
            assert est[min(keys)[1]].action == ranked[0][0]
    assert seen >= 6


def test_rank_calls_keeps_the_rule_bots_choice_unless_beaten_by_the_margin() -> None:
    """``rank_calls``: a candidate other than the rule bot's choice ranks
    above it only by more than the margin plus ``se_factor`` standard
    errors; equals keep their order."""
    pass_, order, alone = Action.pass_(), Action.order(), Action.alone()
    est = [
        CallEstimate(pass_, 1.0, 0.0, True),
        CallEstimate(order, 1.1, 0.1, False),
        CallEstimate(alone, 1.25, 0.2, False),
    ]
    # alone 1.25 - (0.05 + 0.5 x 0.2) = 1.1; order 1.1 - (0.05 + 0.5 x 0.1) =
    # 1.0 ties the rule bot's 1.0 (to 1e-9): the earlier first
    assert [e.action for e in rank_calls(est, 0.05, 0.5)] == [alone, pass_, order]
    # alone 1.15, order 1.05: both beat it
    assert [e.action for e in rank_calls(est, 0.0, 0.5)] == [alone, order, pass_]
    # a margin of 0.3: neither (order 0.8, alone 0.95)
    assert [e.action for e in rank_calls(est, 0.3, 0.0)] == [pass_, alone, order]
    assert rank_calls([], 0.0, 0.0) == []


def test_suggest_for_the_keep_lists_filtered_candidates() -> None:
    deal = Deal(
        hands=(cards("9C TD KS QD AC"), cards("JH JD AH 9D TS"), cards("AS JC QC KC QS")),
        dummy=cards("KH QH TH JS KD"),
        kitty=cards("9H 9S TC AD"),
    )
    state = HandState(Rules(), 0, deal).apply_all(["order", "decline"])
    assert state.phase == Phase.MAKER
    bot = make_bot("search:medium", 1)
    assert isinstance(bot, SearchBot)
    merged = state.apply(Action.merge())
    assert merged.phase == Phase.KEEP and merged.to_act == 1
    ranked = bot.suggest(View.of(merged, 1))
    assert 1 < len(ranked) <= bot.level_for(Rules()).keep_candidates + 1
    best = ranked[0][0]
    assert {Card.parse("JH"), Card.parse("JD"), Card.parse("AH")} <= set(best.cards)
    # before seeing the dummy: alone or merge
    first = bot.suggest(View.of(state, 1))
    assert {a for a, _ in first} == {Action.alone(), Action.merge()}


def test_strong_hand_orders_and_weak_hand_passes() -> None:
    strong = Deal(
        hands=(cards("9C TD KS QD AC"), cards("JH JD AH 9D TS"), cards("AS JC QC KC QS")),
        dummy=cards("KH QH TH JS KD"),
        kitty=cards("9H 9S TC AD"),
    )
    weak = Deal(
        hands=(cards("JH AH QD AC KS"), cards("9C 9D 9S 9H TD"), cards("AS JC QC KC QS")),
        dummy=cards("JD TH JS AD TS"),
        kitty=cards("KH QH TC KD"),
    )
    bot = make_bot("search:medium", 3)
    assert decide(bot, HandState(Rules(), 0, strong), 1) == Action.order()
    assert decide(bot, HandState(Rules(), 0, weak), 1) == Action.pass_()


# -- inference --------------------------------------------------------------------------------


def test_inference_weighs_down_unlikely_deals() -> None:
    """Seat 1 ordered hearts up: deals where it holds the bowers and hearts
    are far likelier under the rule bot's model than deals where it holds
    no trump at all."""
    rules = Rules()
    deal = Deal(
        hands=(cards("9C TD KS QD AC"), cards("JH JD AH KH 9D"), cards("AS JC QC KC QS")),
        dummy=cards("QH TH JS KD TS"),
        kitty=cards("9H 9S TC AD"),
    )
    state = HandState(rules, 0, deal).apply(Action.order())
    assert state.phase == Phase.PICKUP and state.to_act == 0
    view = View.of(state, 0)
    bot = make_bot("search:easy", 1)
    assert isinstance(bot, SearchBot)
    rng = random.Random(2)
    trumpy, bare = [], []
    for _ in range(300):
        sample = view.sample(rng)
        held = sample.hand(1)
        trumps = sum(1 for c in held if c.suit.letter == "H" or c == Card.parse("JD"))
        w = bot.weight(sample, 0)
        (trumpy if trumps >= 3 else bare if trumps == 0 else []).append(w)
    assert trumpy and bare
    mean_trumpy = sum(trumpy) / len(trumpy)
    mean_bare = sum(bare) / len(bare)
    assert mean_trumpy > 3 * mean_bare, (mean_trumpy, mean_bare)
    # the actual deal is as likely as any
    assert bot.weight(state, 0) == pytest.approx(max(trumpy))


def test_samples_give_a_merged_maker_the_models_keep() -> None:
    """RULES.md §2 (the dummy): seat 1 orders, merges and keeps five unseen.
    A defender's samples give the maker the five the rule bot keeps of its
    ten sampled cards (``rule_keep``) whenever the play so far allows it —
    and every sample still shows the defender exactly its own view."""
    rules = Rules()
    deal = Deal(
        hands=(cards("9C TD KS QD AC"), cards("JH JD AH KH 9D"), cards("AS JC QC KC QS")),
        dummy=cards("QH TH JS KD TS"),
        kitty=cards("9H 9S TC AD"),
    )
    model = RuleBot(random.Random(0))
    state = HandState(rules, 0, deal).apply(Action.order())
    state = state.apply(decide(model, state, 0))  # the dealer picks up and discards
    state = state.apply(decide(model, state, 1))  # the maker merges
    assert state.phase == Phase.KEEP and state.to_act == 1
    state = state.apply(decide(model, state, 1))  # and keeps five
    assert state.merged and state.maker == 1
    while state.phase != Phase.PLAY:
        state = state.apply(decide(model, state, state.to_act or 0))
    bot = make_bot("search:hard", 3)
    assert isinstance(bot, SearchBot)
    for seat in (0, 2):
        view = View.of(state, seat)
        samples = bot._samples(view, 40, random.Random(seat))
        kept_as_model = 0
        for sample, _ in samples:
            assert View.of(sample, seat) == view
            pool = mask_of(sample.hand(1)) | mask_of(sample.maker_discards)
            kept = model.keep_mask(pool, int(Suit.HEARTS), True, Card.parse("9H").id, 24)
            kept_as_model += mask_of(sample.hand(1)) == kept
        assert kept_as_model == len(samples)  # nothing has been played yet
    # the actual deal: the model's keep is the one made, so it is kept as is
    sample, factor = bot.rule_keep(state)
    assert sample is state and factor == pytest.approx(1 - model.epsilon)


@pytest.mark.parametrize("variant", VARIANTS)
def test_weighed_samples_give_back_the_view(variant: Variant) -> None:
    """Every sample the search bot weighs (a merged maker's keep remade as
    the model's) still shows the deciding seat exactly its view: random
    rule-bot hands, every seat, positions in the card play after a pick-up
    or a merge."""
    rules = Rules(variant=variant)
    bot = make_bot("search:hard", 4)
    assert isinstance(bot, SearchBot)
    model = RuleBot(random.Random(0))
    rng = random.Random(6)
    checked = 0
    for i in range(24):
        state = HandState.deal_random(rules, i % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if state.phase == Phase.PLAY and (state.picked_up or state.merged) and i % 3 == 0:
                for s in range(rules.seats):
                    view = View.of(state, s)
                    for sample, w in bot._samples(view, 4, random.Random(checked)):
                        assert View.of(sample, s) == view
                        assert w >= 0
                        checked += 1
            state = state.apply(decide(model, state, seat))
    assert checked > 100


def test_oversampling_resamples_by_weight() -> None:
    """Inference (``Level.oversample``): the hard bot draws 8x the deals it
    keeps and resamples them by weight, so far more of the deals it solves
    agree with every call and card the rule-bot players were seen to make
    (weight at least half the true deal's) than when it keeps its K uniform
    draws; the kept weights sum to 1 and each deal is listed once."""
    rules = Rules(variant="partnership")
    hard = make_bot("search:hard", 7)
    plain = make_bot("search:hard", 7)
    assert isinstance(hard, SearchBot) and isinstance(plain, SearchBot)
    assert hard.level_for(rules).oversample == 8
    set_level(plain, rules, oversample=1)
    model = RuleBot(random.Random(0))
    rng = random.Random(8)
    agree = {"hard": 0, "plain": 0}
    for i in range(12):
        state = HandState.deal_random(rules, i % 4, rng)
        while not state.is_over and len(state.tricks) < 2:
            state = state.apply(decide(model, state, state.to_act or 0))
        if state.is_over:
            continue
        seat = state.to_act
        assert seat is not None
        view = View.of(state, seat)
        truth = hard.weight(state, seat)
        for name, bot in (("hard", hard), ("plain", plain)):
            samples = bot._samples(view, 20, random.Random(i))
            assert len(samples) <= 20
            assert sum(w for _, w in samples) == pytest.approx(1.0)
            assert len({s.deal for s, _ in samples}) == len(samples) or name == "plain"
            agree[name] += sum(bot.weight(s, seat) >= truth / 2 for s, _ in samples)
    assert agree["hard"] > 2 * agree["plain"], agree


@pytest.mark.parametrize(
    ("variant", "knob", "per_play"),
    [
        ("cutthroat", None, 32),  # the default: hard's play_oversample
        ("partnership", None, 32),  # the same in partnership
        ("cutthroat", 8, 8),  # play_oversample set
        ("partnership", 16, 16),  # play_oversample set
    ],
)
def test_card_play_draws_its_own_oversample(
    variant: Literal["cutthroat", "partnership"], knob: int | None, per_play: int
) -> None:
    """``Level.play_oversample``: a bot's card play weighs that many deals
    per deal it judges (by default 32 at hard) while its decisions before
    the play keep ``Level.oversample``; the resampled deals still agree
    with the view."""
    bot = make_bot("search:hard", 3)
    assert isinstance(bot, SearchBot)
    rules = Rules(variant=variant)
    if knob is not None:
        set_level(bot, rules, play_oversample=knob)
    level = bot.level_for(rules)
    assert level.play_oversample == per_play and level.oversample == 8
    seen = {"play": 0, "before": 0}
    for state, seat in positions(rules, 6, seed=11):
        view = View.of(state, seat)
        before = bot.samples
        bot.choose(view, view.legal)
        drawn = bot.samples - before
        if view.phase == Phase.PLAY:
            assert drawn == level.play_samples * per_play
            seen["play"] += 1
        else:  # batches of k x 8
            assert drawn > 0 and drawn % (8 * level.decision_samples(len(view.legal))) == 0
            seen["before"] += 1
        for sample, _ in bot._samples(view, 4, random.Random(1), per_play):
            assert View.of(sample, seat) == view
    assert seen["play"] > 0 and seen["before"] > 0, seen


# -- work by level ------------------------------------------------------------------------------


def test_easy_does_less_work_than_hard() -> None:
    easy = make_bot("search:easy", 1)
    hard = make_bot("search:hard", 1)
    assert isinstance(easy, SearchBot) and isinstance(hard, SearchBot)
    for state, seat in positions(Rules(), 6, seed=5):
        decide(easy, state, seat)
        decide(hard, state, seat)
    assert easy.samples * 2 < hard.samples
    # hard judges Cutthroat card plays by rollouts, easy by solving
    assert easy.solves + easy.rollouts < hard.solves + hard.rollouts
    assert easy.rollouts < hard.rollouts


def test_open_decisions_draw_more_rollouts() -> None:
    """``Level.max_rollouts``: a decision before the play whose gain over
    the rule bot's choice is still within ``settle_z`` standard errors of
    the margin draws more batches of deals; a clear one stops at its first
    batch; none goes past the cap; with no cap every decision is one batch."""
    hard = make_bot("search:hard", 2)
    flat = make_bot("search:hard", 2)
    assert isinstance(hard, SearchBot) and isinstance(flat, SearchBot)
    # rule-bot rollouts: the batches are the point here, and they are quick
    set_level(hard, Rules(), own_samples=0)
    set_level(flat, Rules(), max_rollouts=0, own_samples=0)
    used: dict[str, list[int]] = {"hard": [], "flat": []}
    rng = random.Random(11)
    for i in range(16):
        state = HandState.deal_random(Rules(), i % 3, rng)
        assert state.phase == Phase.BID1  # two candidates: pass or order
        for name, bot in (("hard", hard), ("flat", flat)):
            before = bot.rollouts
            decide(bot, state, state.to_act or 0)
            used[name].append(bot.rollouts - before)
    level = hard.level_for(Rules())
    first = 2 * level.decision_samples(2)
    assert set(used["flat"]) == {first}
    assert min(used["hard"]) == first  # some are clear at once
    assert max(used["hard"]) > first  # some are not
    assert max(used["hard"]) <= level.max_rollouts
    assert all(u % first == 0 for u in used["hard"])


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_maker_edge_credits_rollouts_that_end_with_me_as_maker(variant: Variant) -> None:
    """``Level.maker_edge``: a rollout before the play that ends with the
    deciding seat on the maker's side gains the edge of the level in the
    view's variant. On the same deals, ordering up (which always makes the
    seat's side the makers) is worth exactly the edge more; passing gains
    between nothing and the edge; the other variant's edge changes nothing."""
    rules = Rules(variant=variant)
    other = Rules(variant="partnership" if rules.cutthroat else "cutthroat")
    plain = make_bot("search:hard", 4)
    edged = make_bot("search:hard", 4)
    unused = make_bot("search:hard", 4)
    assert isinstance(plain, SearchBot) and isinstance(edged, SearchBot)
    assert isinstance(unused, SearchBot)
    # the defaults: hard credits no maker (its own-play rollouts play the
    # bot's cards as the search does, the edge stood in for that)
    assert plain.level_for(rules).maker_edge == 0.0
    # one batch each, no edge in either variant
    for bot in (plain, edged, unused):  # rule-bot rollouts, for speed
        set_level(bot, rules, max_rollouts=0, maker_edge=0.0, own_samples=0)
        set_level(bot, other, max_rollouts=0, maker_edge=0.0, own_samples=0)
    set_level(edged, rules, maker_edge=0.5)
    set_level(unused, other, maker_edge=0.5)
    rng = random.Random(5)
    gained = 0.0
    for i in range(8):
        state = HandState.deal_random(rules, i % rules.seats, rng)
        view = View.of(state, state.to_act or 0)
        base, more, same = (dict(b.suggest(view)) for b in (plain, edged, unused))
        assert same == base
        order, pass_ = Action.order(), Action.pass_()
        assert more[order] == pytest.approx(base[order] + 0.5)
        assert base[pass_] - 1e-9 <= more[pass_] <= base[pass_] + 0.5 + 1e-9
        gained += more[pass_] - base[pass_]
    assert gained < 8 * 0.5 - 0.1  # a pass does not always end with the seat making


# -- the search's own card play in rollouts ------------------------------------------------------


def play_positions(rules: Rules, count: int, seed: int) -> list[tuple[HandState, int]]:
    """Card plays with a real choice before the last trick."""
    out = [
        (st, seat)
        for st, seat in positions(rules, 6 * count, seed)
        if st.phase == Phase.PLAY and len(st.core.trick_log) < 4
    ]
    assert len(out) >= count
    return out[:count]


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_card_sees_only_the_seats_view(variant: Variant) -> None:
    """``own_card`` (the card the own-play rollouts play for the bot's side)
    depends only on what the seat to act sees (RULES.md §6): on two deals
    that show the seat the same view it plays the same card with the same
    generator. The card is legal, and a seat never breaks a void it showed."""
    rules = Rules(variant=variant)
    differed = 0
    for state, seat in play_positions(rules, 12, 3):
        view = View.of(state, seat)
        draw = view.sampler()
        rng = random.Random(1)
        a, b = draw(rng), draw(rng)
        assert View.of(a, seat).to_json() == View.of(b, seat).to_json()
        differed += any(a.core.hands[s] != b.core.hands[s] for s in range(rules.seats))
        ca = own_card(a.core, seat, 8, random.Random(9))
        cb = own_card(b.core, seat, 8, random.Random(9))
        assert ca is not None and ca == cb
        assert ca in state.core.legal_codes()
    assert differed >= 6  # the hidden hands did differ


def test_play_voids_are_the_suits_not_followed() -> None:
    """``play_voids``: a seat that did not follow the suit led is void in all
    of it (the effective suit: the left bower is a trump), and holds none."""
    for rules in (Rules(), Rules(variant="partnership")):
        shown = 0
        for state, _seat in play_positions(rules, 30, 8):
            h = state.core
            voids = play_voids(h)
            eff, smask = EFFECTIVE_SUIT[h.trump], SUIT_MASK[h.trump]
            want = [0] * 4
            for leader, tcards, _ in [*h.trick_log, (h.leader, h.trick, -1)]:
                seat = leader
                for c in tcards[1:]:
                    seat = h.next_active(seat)
                    if eff[c] != eff[tcards[0]]:
                        want[seat] |= smask[eff[tcards[0]]]
            assert voids == want
            shown += sum(1 for v in want if v)
            for s in range(rules.seats):
                assert not h.hands[s] & voids[s]
        assert shown > 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_play_rollouts_finish_the_hand(variant: Variant) -> None:
    """``finish_hand`` with own play (``Level.own_samples``) plays every hand
    to its end with legal cards and the scoring table's points, and the
    bot's side plays as ``own_card`` chooses where it has a choice."""
    rules = Rules(variant=variant)
    model = RuleBot(random.Random(0))
    for state, seat in play_positions(rules, 10, 5):
        h = state.core.copy()
        done = finish_hand(h, state, model, "rule", None, seat, 4, random.Random(2))
        assert done is not None and h.over
        points, made = done
        assert list(points) == h.points_for(made)
        # replaying the history from the deal is legal throughout
        replay = FastHand.new(rules, state.dealer, state.deal)
        for _s, code in h.history:
            assert replay.step_recorded(code) is None
        assert replay.over and replay.points == h.points


@pytest.mark.parametrize("compiled_core", [True, False])
def test_play_own_judges_cards_by_own_play_rollouts(compiled_core: bool) -> None:
    """``Level.play_own`` (no level uses it now): a card play before the last
    trick plays each legal card out on each weighed deal by an own-play
    rollout, counted in ``rollouts``; the card is legal."""
    if compiled_core and not compiled.COMPILED_AVAILABLE:
        pytest.skip("the compiled search is not built")
    rules = Rules()
    bot = SearchBot(random.Random(2), level="medium", compiled_core=compiled_core)
    set_level(bot, rules, play_own=2, play_samples=4)
    played = 0
    for state, seat in play_positions(rules, 4, 6):
        view = View.of(state, seat)
        before = bot.rollouts
        a = bot.choose(view, view.legal)
        assert a in view.legal
        if len(view.legal) > 1:
            assert bot.rollouts - before >= len(view.legal)
            played += 1
    assert played > 0


# -- the card play against the model (Level.play_best_response) --------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_best_response_is_bounded_by_the_solved_and_the_rule_play(variant: Variant) -> None:
    """``best_response_tricks``: the side to act, seeing every card against
    rule-bot opponents, does at least as well as when the opponents see
    every card too (the double-dummy value) and as well as playing the rule
    bot's cards itself; and strictly better than the double-dummy value
    somewhere (the model's mistakes are there to be taken)."""
    rules = Rules(variant=variant)
    model = RuleBot(random.Random(0))
    better = checked = 0
    for state, seat in play_positions(rules, 30, 12):
        h = state.core
        side, most = side_of(h, seat), h.on_maker_side(seat)
        assert side >> seat & 1 and side.bit_count() == (1 if rules.cutthroat else 2)
        for code in h.legal_codes():
            child = h.copy()
            child.step(code)
            br = best_response_tricks(child.copy(), side, model, most)
            ruled = finish_hand(child.copy(), state, model, "rule", None, seat)
            assert ruled is not None
            solved = Solver(child).max_tricks()
            sign = 1 if most else -1
            assert sign * br >= sign * solved and sign * br >= sign * ruled[1]
            better += br != solved
            checked += 1
    assert checked > 60 and better > 0, (checked, better)


def test_best_response_card_play_sees_only_the_view() -> None:
    """Partnership hard judges its cards by the best response on the deals
    it draws: two full states that show the seat the same view give the
    same card (RULES.md §6), and the card is legal."""
    rules = Rules(variant="partnership")
    assert LEVELS["partnership"]["hard"].play_best_response
    for state, seat in play_positions(rules, 8, 14):
        view = View.of(state, seat)
        other = view.sample(random.Random(seat + 31))
        assert View.of(other, seat) == view
        got = [decide(make_bot("search:hard", 5), s, seat) for s in (state, other)]
        assert got[0] == got[1] and got[0] in view.legal


# -- scoring helpers ------------------------------------------------------------------------------


def test_points_table_and_utility() -> None:
    state = HandState.deal_random(Rules(), 0, random.Random(1))
    while state.phase != Phase.PLAY:
        seat = state.to_act
        assert seat is not None
        state = state.apply(decide(RuleBot(), state, seat))
        if state.is_over:
            state = HandState.deal_random(Rules(), 0, random.Random(seat + 7))
    table = points_table(state.core)
    m = state.maker
    assert m is not None
    assert table[3][m] == table[4][m] >= 1 and table[5][m] == 3
    assert all(table[2][s] == 2 for s in range(3) if s != m)
    # Cutthroat: own points minus the others' average
    assert utility((1, 0, 0), 0, CUT, (0, 0, 0)) == 1.0
    assert utility((0, 2, 2), 0, CUT, (0, 0, 0)) == -2.0
    # a point that wins the match is worth more; one that loses it, less
    assert utility((1, 0, 0), 0, CUT, (9, 5, 5)) > utility((1, 0, 0), 0, CUT, (0, 0, 0))
    assert utility((0, 2, 2), 0, CUT, (5, 8, 3)) < -2.0
    # partnership: side minus side
    assert utility((2, 0, 2, 0), 1, PART, (0, 0, 0, 0)) == -2.0
    assert utility((2, 0, 2, 0), 0, PART, (8, 0, 8, 0)) > 2.0
    # the match's own tie rule: level at the top plays on, or shares the win
    tied = (1, 1, 0)
    assert utility(tied, 0, CUT, (9, 9, 0)) == 0.5  # play on: nobody has won yet
    shared = Rules(tie="share")
    assert 0.5 < utility(tied, 0, shared, (9, 9, 0)) < utility((1, 0, 0), 0, shared, (9, 8, 0))
    assert utility(tied, 2, shared, (9, 9, 0)) < -1.0


CUT = Rules()
PART = Rules(variant="partnership")


def test_greedy_keep_keeps_trumps() -> None:
    pool = sum(1 << c.id for c in cards("JH JD AH 9D TS KH QH TH JS KD"))
    kept = greedy_keep(pool, 2)  # hearts
    assert kept.bit_count() == 5
    assert kept == sum(1 << c.id for c in cards("JH JD AH KH QH"))


# -- the cheat ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_cheat_bot_is_legal(variant: Variant) -> None:
    rules = Rules(variant=variant)
    rng = random.Random(9)
    for i in range(4):
        bots = [CheatBot() if s == i % rules.seats else RuleBot() for s in range(rules.seats)]
        state = HandState.deal_random(rules, i % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = act(bots[seat], state, seat)
            assert action in state.legal_actions()
            state = state.apply(action)
    with pytest.raises(TypeError):
        CheatBot().choose(View.of(state, 0), ())


@pytest.mark.parametrize("variant", VARIANTS)
def test_cheat_best_response_takes_at_least_the_solved_play(variant: Variant) -> None:
    """``cheat:br`` against rule bots: the same calls as ``cheat`` (its
    decisions before the play are cheat's), then on every deal at least as
    good a count of tricks for its side as ``cheat``'s double-dummy play
    takes (the rule bots are deterministic, so the best response on the
    true deal is the most any play can take), and better on some."""
    rules = Rules(variant=variant)
    rng = random.Random(21)
    better = 0
    for i in range(24):
        deal = Deal.random(rules, rng)
        dealer = i % rules.seats
        me = (dealer + 1 + i // rules.seats) % rules.seats
        ends = []
        for bot in (CheatBot(), CheatBot(best_response=True)):
            state = HandState(rules, dealer, deal)
            mine = {me} if rules.cutthroat else {me, me ^ 2}
            while not state.is_over:
                seat = state.to_act
                assert seat is not None
                who = bot if seat in mine else RuleBot()
                action = act(who, state, seat)
                assert action in state.legal_actions()
                state = state.apply(action)
            h = state.core
            if h.thrown_in:
                ends.append((h.history, 0))
                continue
            calls = [(t, code) for t, code in h.history if code & 15 != PLAY]
            sign = 1 if h.on_maker_side(me) else -1
            ends.append((calls, sign * h.side_tricks()))
        (calls_a, got_a), (calls_b, got_b) = ends
        assert calls_a == calls_b
        assert got_b >= got_a
        better += got_b > got_a
    assert better > 0


# -- strength smoke test --------------------------------------------------------------------------


def test_search_easy_beats_random() -> None:
    """Cutthroat, search:easy against two random bots, on the same deals
    with the seats rotated: clearly more points."""
    rules = Rules()
    rng = random.Random(12)
    mine = theirs = 0.0
    for k in range(12):
        deal = Deal.random(rules, rng)
        for s in range(3):
            bots: list[Bot] = [RandomBot(random.Random(k * 3 + i)) for i in range(3)]
            bots[s] = make_bot("search:easy", k * 3 + s)
            result = play_hand(HandState(rules, k % 3, deal), bots).result
            assert result is not None
            mine += result.points[s]
            theirs += (sum(result.points) - result.points[s]) / 2
    assert mine > theirs + 0.5 * 36, (mine, theirs)


@pytest.mark.parametrize("compiled_core", [False, True])
def test_a_deadline_cuts_the_search_short_with_its_best_so_far(compiled_core: bool) -> None:
    """Anytime search (``SearchBot.deadline``): past its deadline a bot still
    answers, legally, after its first batch of deals (the Python path after
    ``CUT_MIN_DEALS`` of them; an open decision before the play draws no
    further batch); a deadline that does not cut changes nothing (the web's
    workers decide as the server would)."""
    if compiled_core and not compiled.COMPILED_AVAILABLE:
        pytest.skip("the compiled search is not built")
    rng = random.Random(8)
    cut = 0
    for _ in range(30):
        state = HandState.deal_random(Rules(), rng.randrange(3), rng)
        while not state.is_over and state.phase != Phase.PLAY:
            seat = state.to_act
            assert seat is not None
            view = View.of(state, seat)
            free = SearchBot(random.Random(2), level="hard", compiled_core=compiled_core)
            late = SearchBot(random.Random(2), level="hard", compiled_core=compiled_core)
            roomy = SearchBot(random.Random(2), level="hard", compiled_core=compiled_core)
            late.deadline = 0.0  # long past
            roomy.deadline = time.time() + 3600
            a = late.choose(view, view.legal)
            assert a in view.legal
            b = free.choose(view, view.legal)
            assert roomy.choose(view, view.legal) == b
            assert roomy.rollouts == free.rollouts and roomy.cut_short == 0
            assert late.rollouts <= free.rollouts
            if late.cut_short:
                assert late.rollouts < free.rollouts
                cut += 1
            state = state.apply(b)
        if cut >= 2:
            break
    assert cut >= 2


def test_a_deadline_cuts_a_python_call_short_deal_by_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Python path a decision before the play is anytime within its
    batches (``SearchBot.deadline``): past the deadline in the first batch
    it answers on ``CUT_MIN_DEALS`` deals, no more; cut in a later batch, it
    answers on the batches before and the deals of that one judged so far."""
    rules = Rules()
    later = 0  # decisions that drew a second batch

    def bot() -> SearchBot:
        return SearchBot(random.Random(5), level="hard", compiled_core=False)

    for state, seat in positions(rules, 60, 21):
        if state.phase == Phase.PLAY:
            continue
        view = View.of(state, seat)
        # the first batch alone: a budget of no more
        once = bot()
        once.levels[rules.variant] = dataclasses.replace(once.level_for(rules), max_rollouts=0)
        once.suggest(view)
        candidates = len(once.estimates)
        first = once.rollouts
        if first < CUT_MIN_DEALS * candidates:
            continue  # fewer distinct deals than the minimum: nothing to cut
        # the time is up from the start: the minimum, then the answer
        hurried = bot()
        hurried.deadline = time.time() + 3600
        monkeypatch.setattr(hurried, "_past_deadline", lambda: True)
        assert hurried.choose(view, view.legal) in view.legal
        assert hurried.rollouts == CUT_MIN_DEALS * candidates < first
        assert hurried.cut_short == 1
        free = bot()
        free.suggest(view)
        if free.rollouts == first:
            continue  # settled after one batch
        # the time runs out one deal into the second batch: that deal counts
        late = bot()
        late.deadline = time.time() + 3600
        stop = first + candidates
        monkeypatch.setattr(late, "_past_deadline", lambda b=late, n=stop: b.rollouts >= n)
        assert late.choose(view, view.legal) in view.legal
        assert late.rollouts == stop and late.cut_short == 1
        assert [e.action for e in late.estimates] == [e.action for e in once.estimates]
        assert [e.value for e in late.estimates] != [e.value for e in once.estimates]
        later += 1
        if later >= 2:
            break
    assert later >= 2


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_a_deadline_cuts_a_python_card_play_short(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the Python path a card play is anytime too (``SearchBot.deadline``):
    past its deadline the bot draws one deal, no more, and plays a legal
    card judged on it; cut while judging, it answers with the deals judged
    so far, weighed anew; a deadline that does not cut changes nothing. (At
    hard the card play draws thousands of weighed deals, seconds in Python:
    docs/strength.md, "Decision time of the search bot".)"""
    rules = Rules(variant=variant)
    state, seat = play_positions(rules, 1, 12)[0]
    view = View.of(state, seat)
    late = SearchBot(random.Random(3), level="hard", compiled_core=False)
    late.deadline = 0.0  # long past
    assert late.choose(view, view.legal) in view.legal
    assert (late.samples, late.cut_short) == (1, 1)
    # (medium draws 24 deals where hard draws thousands: the same code)
    free = SearchBot(random.Random(3), level="medium", compiled_core=False)
    roomy = SearchBot(random.Random(3), level="medium", compiled_core=False)
    roomy.deadline = time.time() + 3600
    assert roomy.suggest(view) == free.suggest(view)
    level = free.level_for(rules)
    assert roomy.samples == free.samples == level.play_samples * level.play_oversample
    assert roomy.cut_short == 0
    # the time runs out while the deals are judged: the first one alone
    # decides, with weight 1, so each card is worth one of the hand's outcomes
    judged = SearchBot(random.Random(3), level="medium", compiled_core=False)
    judged.deadline = time.time() + 3600
    monkeypatch.setattr(judged, "_past_deadline", lambda: True)
    ranked = judged.suggest(view)
    assert judged.cut_short == 1 and {a for a, _ in ranked} == set(view.legal)
    outcomes = [utility(p, seat, rules, view.scores) for p in points_table(state.core)]
    for _, value in ranked:
        assert min(abs(value - u) for u in outcomes) < 1e-9, (value, outcomes)
