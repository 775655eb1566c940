"""The after-hand review (issue: terminal game review) — the solver's judgement
of a finished hand's card play."""

from __future__ import annotations

import random

import pytest

from conftest import make_deal
from euchre import HandState, Rules
from euchre.bots import RandomBot, decide
from euchre.hand import FastHand
from euchre.review import play_values, review_hand, review_plays
from euchre.solver import Solver


def _random_hand(rules: Rules, seed: int) -> HandState:
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(rules.seats)]
    state = HandState.deal_random(rules, seed % rules.seats, rng)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(decide(bots[seat], state, seat))
    return state


def _first_lead(state: HandState) -> FastHand:
    h = FastHand.new(state.rules, state.dealer, state.deal)
    for _, code in state.fast().calls:
        h.step(code)
    return h


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_review_is_consistent_with_the_solver(variant: str) -> None:
    """No costly card ⇒ the makers took exactly the double-dummy value; a
    costly card really loses that many tricks against best play after it."""
    rules = Rules(variant=variant)
    checked = mistakes = 0
    for seed in range(60):
        state = _random_hand(rules, seed)
        review = review_hand(state)
        if state.result is not None and state.result.thrown_in:
            assert review is None
            continue
        assert review is not None
        checked += 1
        h = _first_lead(state)
        assert review.could_take == Solver(h).max_tricks()
        if review.first_mistake is None:
            assert review.took == review.could_take
            continue
        m = review.first_mistake
        mistakes += 1
        # replay to just before the costly card and compare the two cards
        history = state.fast().history
        for _, code in history[len(state.fast().calls) : m.number - 1]:
            h.step(code)
        assert h.turn == m.seat
        values = play_values(h)
        assert values[m.best.id] != values[m.played.id]
        assert abs(values[m.best.id] - values[m.played.id]) == m.cost
        # every earlier card kept the double-dummy value
        assert values[m.best.id] == review.could_take
    assert checked > 30 and mistakes > 10  # random play errs often


def test_review_of_a_maker_with_the_five_top_trumps() -> None:
    """RULES.md §2: the maker who merges into the five top trumps takes all
    five whatever anyone plays, so no card is costly."""
    rules = Rules()
    deal = make_deal(
        ["AC KC QC TC AD", "JH AH 9D TD QD", "9S TS QS KS AS"],
        dummy="JC JS JD KH QH",
        kitty="9C TH KD 9H",
    )
    state = HandState(rules, 2, deal).apply_all(
        ["order", "decline", "keep AC KC QC JC JS", "pass", "pass"]
    )
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])
    review = review_hand(state)
    assert review is not None
    assert review.maker == 0 and review.maker_side == (0,)
    assert review.could_take == 5 and review.took == 5
    assert review.first_mistake is None
    assert "the maker (seat 0) could take 5 of 5 tricks; took 5" in review.summary()


def test_review_of_a_thrown_in_hand_is_none() -> None:
    rules = Rules()
    state = HandState.deal_random(rules, 0, random.Random(1))
    for _ in range(6):
        state = state.apply_all(["pass"])
    assert state.is_over
    assert review_hand(state) is None


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_review_text_names_the_trick_the_cards_and_who_gains(variant: str) -> None:
    """Issue 19 §5: "Trick 3: West played 10♦; A♣ would have won one more trick
    for the defenders" — trick by number, cards with suit symbols, who gains,
    the cost in words; never an action number."""
    rules = Rules(variant=variant)
    names = ["You", "West", "North", "East"][: rules.seats]
    sides = set()
    for seed in range(60):
        state = _random_hand(rules, seed)
        review = review_hand(state)
        if review is None:
            continue
        text = review.summary(names)
        assert "action" not in text and "seat" not in text
        m = review.first_mistake
        if m is None:
            assert text.endswith("No card played cost a trick.")
            continue
        h = _first_lead(state)
        for _, code in state.fast().history[len(state.fast().calls) : m.number - 1]:
            h.step(code)
        assert m.trick == len(h.trick_log) + 1
        values = play_values(h)
        assert m.points == (
            h.points_for(values[m.best.id])[m.seat] - h.points_for(values[m.played.id])[m.seat]
        )
        assert m.side == ("maker" if h.on_maker_side(m.seat) else "defenders")
        sides.add(m.side)
        gainer = {"defenders": "the defenders", "maker": "the maker"}[m.side]
        if m.side == "maker" and variant == "partnership":
            gainer = "the makers"
        words = ["no", "one", "two", "three", "four", "five"]
        trick_words = f"{words[m.cost]} more trick{'s' * (m.cost != 1)}"
        sentence = (
            f"Trick {m.trick}: {names[m.seat]} played {m.played.pretty()}; "
            f"{m.best.pretty()} would have won {trick_words} for {gainer}"
        )
        assert sentence in text, text
        if m.points:
            assert f", {words[m.points]} more point" in text
        else:
            assert text.endswith("(no change in points).")
        assert any(s in text for s in "♣♦♥♠")
        facts = review.to_json()
        assert facts["mistake"] == {
            "number": m.number,
            "trick": m.trick,
            "seat": m.seat,
            "played": str(m.played),
            "best": str(m.best),
            "cost": m.cost,
            "points": m.points,
            "side": m.side,
        }
        assert facts["maker_side"] == list(review.maker_side)
        assert facts["team"] is (variant == "partnership")
    assert sides == {"maker", "defenders"}


def test_review_plays_steps_through_every_card() -> None:
    """``review_plays``: one step a card, the trick so far and the winner of
    each trick as the hand's own trick log says."""
    state = _random_hand(Rules(), 7)
    steps = review_plays(state)
    full = state.fast()
    assert len(steps) == len(full.history) - len(full.calls)
    winners = [w for _, _, w in full.trick_log]
    assert [s.won_by for s in steps if s.won_by is not None] == winners
    for i, step in enumerate(steps):
        assert step.played in step.hands[step.seat]
        assert step.played in {c for c, _ in step.values}
        earlier = [s for s in steps[:i] if s.trick == step.trick]
        assert list(step.table) == [(s.seat, s.played) for s in earlier]
