"""The double-dummy solver (``euchre.solver``) against a plain minimax.

Random positions (both variants; 24-, 25- and 32-card decks; two, three or
four active players; sitting-out seats; between tricks and inside one) are
reached by random bidding and random card play; on each, ``max_tricks``,
``can_take(k)`` for every k and ``move_values()`` must agree with the plain
minimax over the legal plays. Positions with four active players start a
trick or more into the play, where plain minimax is quick. A few hand-built
positions check known answers.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_deal, new_hand, run
from euchre import FastHand, HandState, Phase, Rules
from euchre.cards import Card
from euchre.solver import Solver, SolverError, can_take, max_tricks, minimax_tricks

PLAY = Phase.PLAY


def reference(h: FastHand) -> tuple[int, dict[int, int]]:
    """Plain minimax: the position's value and each legal card's value."""
    values: dict[int, int] = {}
    for code in h.legal_codes():
        child = h.copy()
        child.step(code)
        values[code >> 4] = minimax_tricks(child)
    maker = h.maker
    seat = h.turn
    mine = seat == maker or (not h.cut and (seat - maker) % 2 == 0)
    return (max(values.values()) if mine else min(values.values())), values


def random_position(seed: int, active: int, deck: int, plays: int) -> FastHand | None:
    """Random bidding (uniform legal actions) until the play starts with
    ``active`` players, then ``plays`` random cards; None if the hand ends."""
    rng = random.Random(seed)
    while True:
        cut = active < 4 and rng.random() < 0.5
        rules = Rules(variant="cutthroat" if cut else "partnership", deck=deck)
        h = FastHand.random(rules, rng.randrange(rules.seats), rng)
        while h.phase < PLAY:
            codes = h.legal_codes()
            h.step(codes[rng.randrange(len(codes))])
        if h.phase == PLAY and h.n - h.out.bit_count() == active:
            break
    for _ in range(plays):
        codes = h.legal_codes()
        h.step(codes[rng.randrange(len(codes))])
    return h if h.phase == PLAY else None


def check(h: FastHand) -> None:
    """Every query of the solver against plain minimax on ``h``."""
    want, want_moves = reference(h)
    s = Solver(h)
    assert s.max_tricks() == want
    assert s.move_values() == want_moves
    assert s.max_tricks() == want  # a reused solver answers the same
    assert max_tricks(h) == want
    for k in range(7):
        assert Solver(h).can_take(k) == (want >= k), k
        assert s.can_take(k) == (want >= k), k
        assert can_take(h, k) == (want >= k), k
    # a fresh solver answering move_values first
    assert Solver(h).move_values() == want_moves


DECKS = st.sampled_from((24, 25, 32))
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32), deck=DECKS, plays=st.integers(0, 9))
def test_two_active_players_match_minimax(seed: int, deck: int, plays: int) -> None:
    """A lone defender against the lone maker (partnership) or the maker
    (Cutthroat): from the first lead on."""
    h = random_position(seed, 2, deck, plays)
    if h is not None:
        check(h)


@SETTINGS
@given(seed=st.integers(0, 2**32), deck=DECKS, plays=st.integers(3, 14))
def test_three_active_players_match_minimax(seed: int, deck: int, plays: int) -> None:
    """Cutthroat with nobody out, partnership with one lone player."""
    h = random_position(seed, 3, deck, plays)
    if h is not None:
        check(h)


@SETTINGS
@given(seed=st.integers(0, 2**32), deck=DECKS, plays=st.integers(6, 19))
def test_four_active_players_match_minimax(seed: int, deck: int, plays: int) -> None:
    """Partnership with nobody alone, from the middle of the second trick on."""
    h = random_position(seed, 4, deck, plays)
    if h is not None:
        check(h)


@pytest.mark.parametrize("active", [3, 4])
def test_first_lead_agrees_with_a_few_minimax_values(active: int) -> None:
    """Whole hands at the first lead (slow for minimax: a few only, and for
    four players one position)."""
    for seed in range(1):
        h = random_position(1000 + seed, active, 24, 0 if active == 3 else 3)
        assert h is not None
        want = minimax_tricks(h)
        assert Solver(h).max_tricks() == want


def test_the_solver_does_not_change_the_hand() -> None:
    h = random_position(5, 4, 24, 2)
    assert h is not None
    before = (h.hands[:], h.trick[:], h.tricks[:], len(h.trick_log), h.turn, h.leader)
    s = Solver(h)
    s.max_tricks()
    s.move_values()
    assert (h.hands, h.trick, h.tricks, len(h.trick_log), h.turn, h.leader) == before


def test_not_in_play_phase_is_an_error() -> None:
    h = FastHand.random(Rules(), 0, random.Random(1))
    with pytest.raises(SolverError):
        Solver(h)
    with pytest.raises(SolverError):
        minimax_tricks(h)


# -- hand-built positions -----------------------------------------------------------


def partnership_play(hands: list[str], kitty: str) -> HandState:
    """Partnership, dealer 0; seat 1 orders the up-card's suit, the dealer
    declines it, nobody goes alone; seat 1 leads."""
    rules = Rules(variant="partnership")
    state = new_hand(rules, 0, make_deal(hands, kitty))
    return run(state, "1 order", "0 decline", "1 pass", "3 pass", "2 pass", "0 pass")


def test_maker_with_the_five_top_trumps_takes_five() -> None:
    state = partnership_play(
        ["9C TC QC KC AC", "JH JD AH KH QH", "9S TS QS KS AS", "9D TD QD KD AD"],
        "TH 9H JC JS",
    )
    assert state.phase is Phase.PLAY and state.to_act == 1
    h = state.fast()
    s = Solver(h)
    assert s.max_tricks() == 5
    assert s.can_take(5)
    assert set(s.move_values().values()) == {5}
    # mid-trick: seat 2, void in hearts, may play any card
    h = run(state, "1 play QH").fast()
    values = Solver(h).move_values()
    assert sorted(values) == sorted(c.id for c in map(Card.parse, ["9S", "TS", "QS", "KS", "AS"]))
    assert set(values.values()) == {5}


def test_defender_with_the_five_top_trumps_takes_all() -> None:
    state = partnership_play(
        ["JH JD AH KH QH", "9C TC QC KC AC", "9S TS QS KS AS", "9D TD QD KD AD"],
        "TH 9H JC JS",
    )
    h = state.fast()
    assert Solver(h).max_tricks() == 0
    assert not can_take(h, 1)
    assert can_take(h, 0)


def test_a_played_out_position_with_a_known_answer() -> None:
    """Hearts trump, makers 1 and 3. After three tricks (one each to seats 1,
    3 and 2) seat 2 leads with K♦ 9♣ against A♣ K♣ (seat 0), K♠ Q♠ (seat 1)
    and T♠ 9♠ (seat 3): the defenders take both tricks, the makers stay at 2."""
    state = partnership_play(
        ["9H AC KC QC TC", "JH AH KS QS 9D", "QH AS 9C AD KD", "JD KH TS 9S TD"],
        "TH QD JC JS",
    )
    state = run(
        state,
        *["1 play JH", "2 play QH", "3 play KH", "0 play 9H"],
        *["1 play AH", "2 play AS", "3 play JD", "0 play TC"],
        *["3 play TD", "0 play QC", "1 play 9D", "2 play AD"],
    )
    assert state.tricks_won == (0, 1, 1, 1)
    h = state.fast()
    want, values = reference(h)
    assert want == 2
    s = Solver(h)
    assert s.max_tricks() == 2
    assert not s.can_take(3)
    assert s.move_values() == values == {Card.parse("KD").id: 2, Card.parse("9C").id: 2}
    h = run(state, "2 play 9C", "3 play TS").fast()  # seat 0 wins with either club
    assert Solver(h).move_values() == {Card.parse("AC").id: 2, Card.parse("KC").id: 2}
