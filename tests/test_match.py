"""A match: dealing in turn, scores, the winner (RULES.md §2 Winning, §3, §5 Match record)."""

from __future__ import annotations

import random

import pytest

from conftest import make_deal
from euchre import Action, Deal, IllegalActionError, Match, Phase, Rules
from euchre.actions import parse_seat_action
from euchre.match import MatchOver, winners_of

CUT = Rules()
PART = Rules(variant="partnership")

# Scripted hands, written for dealer 0 and turned to any dealer by ``rotated``.
# Each is (deal, action lines); the comment gives the points for dealer 0.

#: seat 1 makes 3 tricks: (0, 1, 0)
THREE = (
    make_deal(
        ["AC KC QC JC TC", "JH JD AH 9C 9S", "AS KS QS JS TS"],
        dummy="AD KD QD TD 9D",
        kitty="9H TH KH QH",
    ),
    "1 order|0 decline|1 keep JH JD AH 9C 9S|2 pass|0 pass|1 play JH|2 play TS|0 play TC"
    "|1 play JD|2 play JS|0 play JC|1 play AH|2 play QS|0 play QC|1 play 9C|2 play KS"
    "|0 play AC|0 play KC|1 play 9S|2 play AS",
)
#: seat 1 marches: (0, 3, 0)
MARCH = (
    make_deal(
        ["AC KC QC JC TC", "JH JD AH KH QH", "AS KS QS JS TS"],
        dummy="AD KD QD TD 9D",
        kitty="9H TH 9C 9S",
    ),
    "1 order|0 decline|1 alone|2 pass|0 pass|2 play TS|0 play TC|1 play JH|1 play JD"
    "|2 play JS|0 play JC|1 play AH|2 play QS|0 play QC|1 play KH|2 play KS|0 play KC"
    "|1 play QH|2 play AS|0 play AC",
)
#: seat 1 euchred by the two defenders: (2, 0, 2)
EUCHRE = (
    make_deal(
        ["AC KC QC JC TC", "JH JD 9C 9S 9D", "AS KS QS JS TS"],
        dummy="AD KD QD TD AH",
        kitty="9H TH KH QH",
    ),
    "1 order|0 decline|1 keep JH JD 9C 9S 9D|2 pass|0 pass|1 play JH|2 play TS|0 play TC"
    "|1 play JD|2 play JS|0 play JC|1 play 9C|2 play QS|0 play AC|0 play KC|1 play 9S"
    "|2 play KS|0 play QC|1 play 9D|2 play AS",
)
#: seat 0 alone against a lone maker takes all 5: (4, 0, 4)
DEF5 = (
    make_deal(
        ["JH JD AH KH QH", "9C 9S 9D TD QD", "AS KS QS JS TS"],
        dummy="AC KC QC JC TC",
        kitty="9H TH AD KD",
    ),
    "1 order|0 decline|1 alone|2 pass|0 alone|0 play JH|1 play 9C|0 play JD|1 play 9S"
    "|0 play AH|1 play 9D|0 play KH|1 play TD|0 play QH|1 play QD",
)
THROWN = (THREE[0], "1 pass|2 pass|0 pass|1 pass|2 pass|0 pass")

#: partnership: seat 1 alone marches: (0, 4, 0, 4)
P_LONE_MARCH = (
    make_deal(
        ["AC KC QC JC TC", "JH JD AH KH QH", "AS KS QS JS TS", "AD KD QD TD 9D"],
        kitty="9H TH 9C 9S",
    ),
    "1 order|0 decline|1 alone|2 pass|0 pass|2 play TS|0 play TC|1 play JH|1 play JD"
    "|2 play JS|0 play JC|1 play AH|2 play QS|0 play QC|1 play KH|2 play KS|0 play KC"
    "|1 play QH|2 play AS|0 play AC",
)
P_THROWN = (P_LONE_MARCH[0], "|".join(f"{s} pass" for s in [1, 2, 3, 0, 1, 2, 3, 0]))


def rotated(script: tuple[Deal, str], dealer: int, seats: int) -> tuple[Deal, list[str]]:
    """The script with every seat turned ``dealer`` places to the left."""
    deal, lines = script
    hands = [deal.hands[(s - dealer) % seats] for s in range(seats)]
    out = []
    for line in lines.split("|"):
        seat, action = parse_seat_action(line)
        out.append(f"{(seat + dealer) % seats} {action}")
    return Deal(tuple(hands), deal.dummy, deal.kitty), out


def play_hand(match: Match, script: tuple[Deal, str]) -> Match:
    """Deal the scripted hand to the match's next dealer and play it out."""
    n = match.rules.seats
    dealer = match.next_dealer
    deal, lines = rotated(script, dealer, n)
    match = match.deal(deal)
    assert match.current is not None and match.current.dealer == dealer
    for line in lines:
        seat, action = parse_seat_action(line)
        if action.kind == "keep" and not action.is_merge:
            # a record's keep line is two steps: the merge (phase MAKER), the five (KEEP)
            assert match.current is not None and match.current.phase is Phase.MAKER
            match = match.apply(Action.merge(), seat)
            assert match.current is not None and match.current.phase is Phase.KEEP
        match = match.apply(action, seat)
    assert match.current is None, "the script did not finish the hand"
    return match


def test_scripts_score_as_commented() -> None:
    """RULES.md §2 Scoring: the scripted hands used below, for every dealer."""
    expected = {
        "THREE": (THREE, (0, 1, 0)),
        "MARCH": (MARCH, (0, 3, 0)),
        "EUCHRE": (EUCHRE, (2, 0, 2)),
        "DEF5": (DEF5, (4, 0, 4)),
        "THROWN": (THROWN, (0, 0, 0)),
    }
    for name, (script, points) in expected.items():
        for dealer in range(3):
            m = play_hand(Match.new(CUT, first_dealer=dealer), script)
            want = tuple(points[(s - dealer) % 3] for s in range(3))
            assert m.scores == want, (name, dealer)


def test_dealer_rotates_including_thrown_in() -> None:
    """RULES.md §2 Seats: the deal passes to the left after every hand, including a hand
    thrown in."""
    m = Match.new(CUT, first_dealer=2)
    assert m.next_dealer == 2 and m.needs_deal and m.scores == (0, 0, 0)
    dealers = []
    for _ in range(4):
        dealers.append(m.next_dealer)
        m = play_hand(m, THROWN)
    assert dealers == [2, 0, 1, 2]
    assert m.scores == (0, 0, 0) and len(m.hands) == 4
    assert all(h.result is not None and h.result.thrown_in for h in m.hands)
    assert not m.is_over


def test_partnership_dealer_rotates() -> None:
    """RULES.md §3 / §2 Seats: the deal passes to the left, over four seats."""
    m = Match.new(PART, first_dealer=1)
    dealers = []
    for _ in range(5):
        dealers.append(m.next_dealer)
        m = play_hand(m, P_THROWN)
    assert dealers == [1, 2, 3, 0, 1]


def test_joker_redeal_counts_as_a_hand() -> None:
    """RULES.md §4 joker_upcard="redeal" / §2 Seats: the thrown-in hand passes the deal."""
    rules = Rules(deck=25, joker_upcard="redeal")
    deal = make_deal(
        ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
        dummy="JD TH 9H QD KC",
        kitty="JK QH JC JS AC",
    )
    m = Match.new(rules, first_dealer=0).deal(deal)
    assert m.current is None and len(m.hands) == 1 and m.next_dealer == 1
    assert m.scores == (0, 0, 0)


def test_first_to_target_wins_and_no_hand_after() -> None:
    """RULES.md §2 Winning: the first player to reach the target wins; no hand follows a
    won match (MatchOver)."""
    m = Match.new(Rules(target=3), first_dealer=0)
    m = play_hand(m, MARCH)
    assert m.scores == (0, 3, 0)
    assert m.is_over and m.winners == (1,)
    assert not m.needs_deal
    with pytest.raises(MatchOver):
        m.deal(rng=random.Random(1))
    with pytest.raises(MatchOver):
        m.apply(parse_seat_action("1 pass")[1])
    assert issubclass(MatchOver, IllegalActionError)


def test_target_option() -> None:
    """RULES.md §4 points to win: any positive number."""
    m = play_hand(Match.new(Rules(target=1), first_dealer=0), THREE)
    assert m.winners == (1,)
    m = play_hand(Match.new(Rules(target=2), first_dealer=0), THREE)
    assert not m.is_over


def test_default_target_is_ten() -> None:
    """RULES.md §2 Winning: the first player to reach 10 points wins."""
    m = Match.new(CUT, first_dealer=1)
    for _ in range(3):  # dealer 1, 2, 0: the seat left of the dealer marches
        m = play_hand(m, MARCH)
    assert m.scores == (3, 3, 3) and not m.is_over
    m = play_hand(m, MARCH)  # dealer 1: seat 2 to 6
    m = play_hand(m, MARCH)  # dealer 2: seat 0 to 6
    m = play_hand(m, MARCH)  # dealer 0: seat 1 to 6
    m = play_hand(m, MARCH)  # dealer 1: seat 2 to 9
    assert m.scores == (6, 6, 9) and not m.is_over
    m = play_hand(m, THREE)  # dealer 2: seat 0 to 7
    m = play_hand(m, THREE)  # dealer 0: seat 1 to 7
    assert not m.is_over
    m = play_hand(m, THREE)  # dealer 1: seat 2 to 10
    assert m.scores == (7, 7, 10)
    assert m.winners == (2,)


def test_two_reach_target_on_one_hand_higher_wins() -> None:
    """RULES.md §2 Winning, Settled: if two players reach 10 on the same hand, the higher
    score wins."""
    m = Match.new(CUT, first_dealer=0)
    m = play_hand(m, THREE)  # dealer 0: seat 1 +1
    m = play_hand(m, DEF5)  # dealer 1: seats 1 and 0 +4
    m = play_hand(m, DEF5)  # dealer 2: seats 2 and 1 +4
    m = play_hand(m, DEF5)  # dealer 0: seats 0 and 2 +4
    assert m.scores == (8, 9, 8) and not m.is_over
    m = play_hand(m, DEF5)  # dealer 1: seats 1 and 0 +4
    assert m.scores == (12, 13, 8)
    assert m.winners == (1,) and m.is_over


def test_level_at_target_hands_continue() -> None:
    """RULES.md §2 Winning, Settled: level at the top → hands continue until, at the end
    of a hand, one player alone has the highest score and it is at least 10."""
    m = Match.new(CUT, first_dealer=0)
    m = play_hand(m, DEF5)  # dealer 0: seats 0, 2
    m = play_hand(m, DEF5)  # dealer 1: seats 1, 0
    m = play_hand(m, DEF5)  # dealer 2: seats 2, 1
    assert m.scores == (8, 8, 8)
    m = play_hand(m, EUCHRE)  # dealer 0: seats 0, 2 +2
    assert m.scores == (10, 8, 10)
    assert not m.is_over and m.winners == () and m.needs_deal
    m = play_hand(m, THROWN)  # dealer 1: nothing changes
    assert not m.is_over
    m = play_hand(m, THREE)  # dealer 2: seat 0 +1
    assert m.scores == (11, 8, 10)
    assert m.winners == (0,)


def test_level_at_target_third_player_can_win() -> None:
    """RULES.md §2 Winning, Settled: after a level finish, whoever alone is highest at the
    end of a later hand (and at least 10) wins."""
    m = Match.new(CUT, first_dealer=0)
    for script in (DEF5, DEF5, DEF5, EUCHRE):
        m = play_hand(m, script)
    assert m.scores == (10, 8, 10)
    m = play_hand(m, DEF5)  # dealer 1: seats 1, 0 +4
    assert m.scores == (14, 12, 10)
    assert m.winners == (0,)


def test_tie_share_option() -> None:
    """RULES.md §4 (Settled point as option): tie="share" — the level leaders share the win."""
    m = Match.new(Rules(tie="share"), first_dealer=0)
    for script in (DEF5, DEF5, DEF5, EUCHRE):
        m = play_hand(m, script)
    assert m.scores == (10, 8, 10)
    assert m.is_over and set(m.winners) == {0, 2}
    with pytest.raises(MatchOver):
        m.deal(THREE[0])


def test_partnership_partners_carry_points_and_win_together() -> None:
    """RULES.md §3 / §5 Match record: both partners carry their side's points; the first
    partnership to reach 10 wins."""
    m = Match.new(PART, first_dealer=0)
    m = play_hand(m, P_LONE_MARCH)  # dealer 0: seat 1 alone, side 1-3 +4
    assert m.scores == (0, 4, 0, 4)
    m = play_hand(m, P_LONE_MARCH)  # dealer 1: seat 2 alone, side 0-2 +4
    assert m.scores == (4, 4, 4, 4)
    m = play_hand(m, P_LONE_MARCH)  # dealer 2: seat 3 alone
    m = play_hand(m, P_THROWN)  # dealer 3
    assert m.scores == (4, 8, 4, 8) and not m.is_over
    m = play_hand(m, P_LONE_MARCH)  # dealer 0: seat 1 alone
    assert m.scores == (4, 12, 4, 12)
    assert set(m.winners) == {1, 3}
    with pytest.raises(MatchOver):
        m.deal(rng=random.Random(2))


def test_winners_of() -> None:
    """RULES.md §2 Winning / §3: the winner rule on bare scores."""
    assert winners_of(CUT, (9, 9, 9)) == ()
    assert winners_of(CUT, (10, 9, 0)) == (0,)
    assert winners_of(CUT, (11, 12, 0)) == (1,)
    assert winners_of(CUT, (12, 12, 3)) == ()
    assert winners_of(CUT, (12, 12, 13)) == (2,)
    assert set(winners_of(Rules(tie="share"), (12, 12, 3))) == {0, 1}
    assert winners_of(Rules(target=15), (14, 0, 0)) == ()
    assert set(winners_of(PART, (10, 4, 10, 4))) == {0, 2}
    assert winners_of(PART, (9, 4, 9, 4)) == ()


def test_match_errors() -> None:
    """RULES.md §5 Match record: hands in order; an action needs a hand in progress."""
    m = Match.new(CUT, first_dealer=0)
    with pytest.raises(IllegalActionError):
        m.apply(parse_seat_action("1 pass")[1])
    m = m.deal(THREE[0])
    with pytest.raises(IllegalActionError):
        m.deal(THREE[0])
    with pytest.raises(IllegalActionError):
        m.apply(parse_seat_action("2 pass")[1], 2)
    with pytest.raises(ValueError):
        Match.new(CUT)
    with pytest.raises(ValueError):
        Match.new(CUT, first_dealer=3)
    m2 = Match.new(PART, rng=random.Random(5))
    assert 0 <= m2.first_dealer < 4


def test_match_is_immutable() -> None:
    """RULES.md §5: a match is a value; apply returns a new one."""
    m0 = Match.new(CUT, first_dealer=0).deal(THREE[0])
    m1 = m0.apply(parse_seat_action("1 order")[1])
    assert m0.current is not None and m0.current.history == ()
    assert m1.current is not None and len(m1.current.history) == 1
