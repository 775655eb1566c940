"""The compiled search (euchre._csearch, bridged by euchre.bots.compiled)
against the Python reference (bots/search.py, view.py): the deals it samples
are consistent with the view and spread like the Python sampler's, and its
inference weights, re-keeps, rollouts and solved card values are exactly
the Python ones on the same deal. The rule bot's policy in C is held to
bots/rule.py in tests/test_csearch_rule.py."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from euchre import Card, Deal, HandState, Rules
from euchre.bots import compiled
from euchre.bots.rule import RuleBot
from euchre.bots.search import LEVELS, SearchBot, best_response_tricks, finish_hand, own_card
from euchre.cards import cards_of, mask_of
from euchre.hand import FastHand, Phase
from euchre.view import View

pytestmark = pytest.mark.skipif(
    not compiled.COMPILED_AVAILABLE, reason="the compiled search is not built"
)

RULE_SETS = [
    Rules(),
    Rules(variant="partnership"),
    Rules(deck=32),
    Rules(variant="partnership", deck=25, stick_the_dealer=True),
    Rules(deck=25, dealer_pickup="mandatory", defenders_may_go_alone=True),
    Rules(
        variant="partnership",
        defenders_may_go_alone=True,
        lone_lead="left_of_dealer",
        may_name_turned_down_suit=True,
    ),
    Rules(dummy_decline_is_alone=True, dealer_may_discard_upcard=False),
]


def position(rules: Rules, rng: random.Random) -> HandState | None:
    """A random position with a seat to act: the rule bot plays most actions
    (realistic bids and play), a random legal action now and then; None if
    the hand ended first."""
    state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
    bot = RuleBot(random.Random(0))
    stop = rng.randrange(0, 30)
    for _ in range(stop):
        if state.is_over:
            return None
        seat = state.to_act
        assert seat is not None
        if rng.random() < 0.2:
            action = rng.choice(state.legal_actions())
        else:
            v = View.of(state, seat)
            action = bot.choose(v, v.legal)
        state = state.apply(action)
    return None if state.is_over else state


def positions(n: int, seed: int) -> list[tuple[HandState, View]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rules = rng.choice(RULE_SETS)
        st = position(rules, rng)
        if st is None or st.to_act is None:
            continue
        out.append((st, View.of(st, st.to_act)))
    return out


def as_state(h: object, rules: Rules, dealer: int) -> HandState:
    """The compiled hand ``h`` as a ``HandState``: its deal, its history replayed."""
    st = h.state()  # type: ignore[attr-defined]
    deal = Deal(
        hands=tuple(tuple(cards_of(m)) for m in st["deal_hands"]),
        dummy=tuple(cards_of(st["dummy"])) if rules.cutthroat else (),
        kitty=tuple(Card(c) for c in st["kitty"]),
    )
    fast = FastHand.new(rules, dealer, deal)
    for _, code in st["calls"]:
        assert fast.step_recorded(code) is None
    for _, cards, _ in st["trick_log"]:
        for c in cards:
            assert fast.step_recorded(7 | c << 4) is None
    for c in st["trick"]:
        assert fast.step_recorded(7 | c << 4) is None
    if st["phase"] == Phase.KEEP:
        fast.step(8)
    return HandState.from_fast(fast, deal)


def test_sampled_deals_are_consistent_with_the_view() -> None:
    """Every deal drawn shows the deciding seat exactly its view (RULES.md §6:
    the sampler deals only the unseen cards), and is a legal deal."""
    for st, view in positions(120, seed=1):
        search = compiled.known(view)
        for h in search.draw(7, 12):
            sample = as_state(h, view.rules, view.dealer)
            sample.deal.check(view.rules)
            assert View.of(sample, view.seat).to_json() == view.to_json()
            assert h.state()["phase"] == st.core.phase


def test_sampler_spreads_the_cards_like_the_python_sampler() -> None:
    """Where each unseen card lands (which seat's hand, the dummy, the kitty)
    follows the same distribution on both paths: each frequency within five
    standard errors of the pure sampler's."""
    for _st, view in positions(6, seed=5):
        n = 1500
        seats = view.rules.seats
        ours: Counter[tuple[int, str]] = Counter()
        theirs: Counter[tuple[int, str]] = Counter()

        def where(sample: HandState, into: Counter[tuple[int, str]], seats: int = seats) -> None:
            for s in range(seats):
                for c in sample.hand(s):
                    into[c.id, f"hand{s}"] += 1
            for c in sample.deal.dummy:
                into[c.id, "dummy"] += 1

        for h in compiled.known(view).draw(11, n):
            where(as_state(h, view.rules, view.dealer), ours)
        draw = view.sampler()
        rng = random.Random(11)
        for _ in range(n):
            where(draw(rng), theirs)
        for key in set(ours) | set(theirs):
            p = theirs[key] / n
            se = max((p * (1 - p) / n) ** 0.5, 1 / n)
            assert abs(ours[key] / n - p) <= 5 * se + 2 / n, (key, ours[key], theirs[key])


def test_weights_rekeeps_rollouts_and_solves_match_python() -> None:
    """On the same deals the compiled inference weight, re-keep, rollout
    (finish_hand with the rule bot) and solved card values are exactly the
    Python ones."""
    bot = SearchBot(random.Random(3), level="hard", compiled_core=False)
    checked = 0
    for _st, view in positions(80, seed=9):
        seat = view.seat
        for h in compiled.known(view).draw(3, 4):
            sample = as_state(h, view.rules, view.dealer)
            for infer in (False, True):
                level = "hard" if infer else "medium"
                # a partner's card plays are weighed with the level's epsilon
                for peps in (None, 0.4):
                    bot.levels = {
                        v: dataclasses.replace(t[level], partner_epsilon=peps)
                        for v, t in LEVELS.items()
                    }
                    eps = bot.level_for(view.rules).partner_eps()
                    for floor in (0.0, 1e-5):
                        got = h.weight(seat, infer, floor, eps)
                        assert got == bot.weight(sample, seat, floor)
                        if peps is None:  # the model's epsilon by default
                            assert h.weight(seat, infer, floor) == got
            if view.merged and view.maker is not None and view.maker != seat:
                mine, p = h.rule_keep()
                theirs, q = bot.rule_keep(sample)
                assert p == q
                assert (
                    View.of(as_state(mine, view.rules, view.dealer), view.maker).to_json()
                    == View.of(theirs, view.maker).to_json()
                )
            for code in sample.core.legal_codes()[:3]:
                if sample.phase == Phase.KEEP:
                    continue
                fh = sample.core.copy()
                fh.step(code)
                c = h.copy()
                c.step(code)
                got = c.finish(seat)
                want = finish_hand(fh, sample, bot.model, "rule", None, seat)
                assert (None if got is None else (tuple(got[0]), got[1])) == want
            if sample.phase == Phase.PLAY:
                codes = sample.core.legal_codes()
                assert h.move_tricks(codes) == [
                    bot._move_tricks(sample.core, codes)[code] for code in codes
                ]
            checked += 1
    assert checked > 200


def test_best_response_matches_python() -> None:
    """The compiled best response (``Level.play_best_response``: the side to
    act seeing every card against the rule bot's cards) gives exactly the
    Python ``best_response_tricks`` after every legal card, on deals drawn
    for many views of both variants."""
    bot = SearchBot(random.Random(3), level="hard", compiled_core=False)
    checked = 0
    for _st, view in positions(300, seed=11):
        if view.phase != Phase.PLAY:
            continue
        for h in compiled.known(view).draw(5, 2):
            sample = as_state(h, view.rules, view.dealer)
            codes = sample.core.legal_codes()
            want = bot._best_response(sample.core, codes)
            assert h.best_response(codes) == [want[c] for c in codes]
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("rules", RULE_SETS[:4], ids=lambda r: f"{r.variant}-{r.deck}")
def test_compiled_search_bot_chooses_legal_actions(rules: Rules) -> None:
    """The compiled search plays whole hands: every choice legal, work counted."""
    rng = random.Random(4)
    bot = SearchBot(random.Random(1), level="easy", compiled_core=True)
    for _ in range(3):
        state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            v = View.of(state, seat)
            a = bot.choose(v, v.legal)
            assert a in v.legal
            state = state.apply(a)
    assert bot.samples > 0 and bot.rollouts > 0


def test_own_card_sees_only_the_seats_view_and_matches_python() -> None:
    """The compiled ``own_card`` (the own-play rollouts' card) depends only on
    the view of the seat to act: two deals drawn for one view give the same
    card from the same seed. It is the Python ``own_card``'s procedure: with
    64 deals a card the two paths agree about as often as each path agrees
    with itself on another seed (the choices are estimates of the same
    expectation; ties go to the lower card on both)."""
    same = cross = own = total = 0
    for _st, view in positions(400, seed=21):
        if view.phase != Phase.PLAY or len(view.tricks) == 4:
            continue
        h1, h2 = compiled.known(view).draw(5, 2)
        assert h1.own_card(8, 3) == h2.own_card(8, 3)
        fh = as_state(h1, view.rules, view.dealer).core
        if fh.follow_mask(fh.turn).bit_count() < 2:
            continue
        a = h1.own_card(64, 99)
        assert a in fh.legal_codes()
        total += 1
        same += a == h1.own_card(64, 7)
        b = own_card(fh.copy(), fh.turn, 64, random.Random(7))
        cross += a == b
        own += b == own_card(fh.copy(), fh.turn, 64, random.Random(99))
    assert total > 100
    assert cross >= min(same, own) - 0.08 * total, (cross, same, own, total)
    assert cross >= 0.7 * total


def test_infoset_response_bounded_by_the_per_deal_best_response() -> None:
    """The information-set best response (``Level.play_infoset``) plays the
    bot's later cards by what it will have seen, so on the same weighed
    deals it is worth at most the per-deal best response (which sees each
    deal) after every card, and exactly as much on a single deal; ``table``
    is the points table ``play`` reports."""
    checked = strict = 0
    for st, view in positions(300, seed=12):
        if view.phase != Phase.PLAY or len(view.tricks) >= 4:
            continue
        search = compiled.known(view)
        table = search.table()
        row = [float(p[view.seat] - sum(p) / len(p)) for p in table]
        codes = [a.code for a in st.legal_actions()]
        for k in (1, 12):
            ws, per_deal, _, table2 = search.play(9, k, 4, True, codes, 0, 0.5, True)
            ws_i, infoset, _, _ = search.play(9, k, 4, True, codes, 0, 0.5, True, row)
            assert table2 == table and ws_i == ws
            for i in range(len(codes)):
                br = sum(w * row[t[i]] for w, t in zip(ws, per_deal, strict=True))
                isr = sum(w * row[t[i]] for w, t in zip(ws, infoset, strict=True))
                if k == 1:
                    assert isr == pytest.approx(br)
                else:
                    assert isr <= br + 1e-9
                    strict += isr < br - 1e-9
            checked += 1
    assert checked > 100
    assert strict > 0  # seeing each deal is worth something somewhere


def test_infoset_response_with_a_rule_partner_is_the_bots_own_best_response() -> None:
    """With ``partner_rule`` (``Level.infoset_partner_rule``) a partner plays
    the rule bot's cards in the information-set best response instead of
    the side's per-deal best response. With every other hand revealed, so
    that every weighed deal is the true one, it is the bot's own best
    response with its partner playing the rule bot's cards
    (``best_response_tricks`` with the bot alone as the side) after every
    card, and never worth more to the bot than the partner who sees the
    deal. (Utility to the bot, not tricks: the search chooses its cards by
    utility, and some tricks are worth the same points.)"""
    rule = RuleBot(random.Random(0))
    checked = differ = 0
    for st, view in positions(600, seed=31):
        if view.rules.cutthroat or view.phase != Phase.PLAY or len(view.tricks) >= 4:
            continue
        seat = view.seat
        others = {s: mask_of(st.hand(s)) for s in range(4) if s != seat and st.hand(s)}
        search = compiled.known(view, others)
        row = [float(p[seat] - sum(p) / len(p)) for p in search.table()]
        codes = [a.code for a in st.legal_actions()]
        _, alone, _, _ = search.play(5, 6, 2, True, codes, 0, 0.5, True, row, True)
        _, fused, _, _ = search.play(5, 6, 2, True, codes, 0, 0.5, True, row)
        most = st.core.on_maker_side(seat)
        for i, code in enumerate(codes):
            child = st.core.copy()
            child.step(code)
            want = row[best_response_tricks(child, 1 << seat, rule, most)]
            assert [row[t[i]] for t in alone] == [want] * len(alone)
            assert all(row[f[i]] >= want for f in fused)
            differ += row[fused[0][i]] > want
        checked += 1
    assert checked > 40
    assert differ > 0  # a partner who sees the deal is worth something somewhere
