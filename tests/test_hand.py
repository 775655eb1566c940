"""One hand, scenario by scenario (RULES.md §1-§3, §5).

Every deal is explicit; every expectation (who acts, legal actions, trick
winners, points) was worked out by hand from RULES.md.
"""

from __future__ import annotations

import pickle
import random

import pytest

from conftest import act, cards, legal, make_deal, new_hand, run
from euchre import (
    Action,
    Card,
    Deal,
    DealError,
    HandState,
    IllegalActionError,
    Phase,
    Rules,
    Suit,
)

CUT = Rules()
PART = Rules(variant="partnership")

# --- deals ----------------------------------------------------------------------
# Cutthroat, dealer 0 unless said otherwise; seat 1 is left of the dealer.

#: A general deal; up-card Q♥.
DEAL_A = make_deal(
    ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
    dummy="JD TH 9H QD KC",
    kitty="QH JC JS AC",
)

#: Following with the left bower (hearts trump, up-card 9♥).
DEAL_F = make_deal(
    ["JD 9C TC QC KC", "AH 9D AS KS QS", "TH 9S TS JS AC"],
    dummy="KH QH JH TD QD",
    kitty="9H AD KD JC",
)
DEAL_G = make_deal(
    ["KD 9C TC QC KC", "AD AS KS QS AH", "JD 9D 9S TS JS"],
    dummy="KH QH JH TH TD",
    kitty="9H QD JC AC",
)
DEAL_H = make_deal(
    ["KD 9C TC QC KC", "AD AS KS QS AH", "JD KH 9S TS JS"],
    dummy="9D QH JH TH TD",
    kitty="9H QD JC AC",
)

#: Cutthroat scoring deals: seat 1 orders hearts (up-card 9♥), the dealer declines.
CUT_MARCH = make_deal(
    ["AC KC QC JC TC", "JH JD AH KH QH", "AS KS QS JS TS"],
    dummy="AD KD QD TD 9D",
    kitty="9H TH 9C 9S",
)
CUT_THREE = make_deal(
    ["AC KC QC JC TC", "JH JD AH 9C 9S", "AS KS QS JS TS"],
    dummy="AD KD QD TD 9D",
    kitty="9H TH KH QH",
)
CUT_FOUR = make_deal(
    ["AC KC QC JC TC", "JH JD AH KH 9S", "AS KS QS JS TS"],
    dummy="AD KD QD TD 9D",
    kitty="9H TH QH 9C",
)
CUT_EUCHRE = make_deal(
    ["AC KC QC JC TC", "JH JD 9C 9S 9D", "AS KS QS JS TS"],
    dummy="AD KD QD TD AH",
    kitty="9H TH KH QH",
)
CUT_ONE = make_deal(
    ["AC KC QC JC TC", "JH 9C 9S 9D TD", "AS KS QS JS TS"],
    dummy="AD KD QD JD AH",
    kitty="9H TH KH QH",
)
CUT_DEF5 = make_deal(
    ["JH JD AH KH QH", "9C 9S 9D TD QD", "AS KS QS JS TS"],
    dummy="AC KC QC JC TC",
    kitty="9H TH AD KD",
)

#: Partnership scoring deals (dealer 0; seat 1 orders hearts, up-card 9♥ or 10♥).
PART_MARCH = make_deal(
    ["AC KC QC JC TC", "JH JD AH KH QH", "AS KS QS JS TS", "AD KD QD TD 9D"],
    kitty="9H TH 9C 9S",
)
PART_THREE = make_deal(
    ["AC KC QC JC TC", "JH JD AH 9C 9S", "AS KS QS JS TS", "AD KD QD TD 9D"],
    kitty="9H TH KH QH",
)
PART_FOUR = make_deal(
    ["AC KC QC JC TC", "JH JD AH 9D 9S", "AS KS QS JS TS", "AD KD QD TD 9C"],
    kitty="9H TH KH QH",
)
PART_EUCHRE = make_deal(
    ["AC KC QC JC TC", "JH JD 9C 9S TD", "AS KS QS JS TS", "AD KD QD 9D 9H"],
    kitty="TH AH KH QH",
)
PART_DEF5 = make_deal(
    ["JH JD AH KH QH", "9C 9S 9D TD QD", "AS KS QS JS TS", "AC KC QC JC TC"],
    kitty="9H TH AD KD",
)
PART_PARTNER = make_deal(
    ["AC KC QC JC TC", "9C 9S 9D TD QD", "AS KS QS JS TS", "JH JD AH KH QH"],
    kitty="9H TH AD KD",
)

#: 25-card deals.
JOKER_UP = make_deal(
    ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
    dummy="JD TH 9H QD KC",
    kitty="JK QH JC JS AC",
)
JOKER_FOLLOW = make_deal(
    ["9C TC QC KC TD", "JH AS KS QS 9D", "JK 9S TS JS AC"],
    dummy="AH KH QH TH JD",
    kitty="9H AD KD QD JC",
)
JOKER_LED = make_deal(
    ["9C TC QC KC AH", "JK AS KS QS 9D", "JH 9S TS JS AC"],
    dummy="KH QH TH JD TD",
    kitty="9H AD KD QD JC",
)


def tricks_of(state: HandState) -> list[tuple[int, int]]:
    """(leader, winner) of each completed trick."""
    return [(t.leader, t.winner) for t in state.tricks]


def plays(*lines: str) -> tuple[str, ...]:
    """Expand ``"1 JH, 2 TS, 0 TC"`` into ``"1 play JH"`` lines."""
    out: list[str] = []
    for line in lines:
        for item in line.split(","):
            seat, card = item.split()
            out.append(f"{seat} play {card}")
    return tuple(out)


# --- the deal -------------------------------------------------------------------


def test_cutthroat_deal_and_first_bidder() -> None:
    """RULES.md §2 Deal and Bidding, round one: five cards each and to the dummy,
    the kitty's top card turned up; the player left of the dealer bids first."""
    s = new_hand(CUT, 0, DEAL_A)
    assert s.phase is Phase.BID1
    assert s.to_act == 1
    assert s.up_card == Card.parse("QH") and s.up_suit is Suit.HEARTS
    assert s.hand(0) == sorted(cards("9C TC QC KD AD"))
    assert s.dummy == sorted(cards("JD TH 9H QD KC"))
    assert s.trump is None and s.maker is None and s.picked_up is None
    assert legal(s) == {"pass", "order"}
    assert new_hand(CUT, 2, DEAL_A).to_act == 0
    assert new_hand(CUT, 1, DEAL_A).to_act == 2


@pytest.mark.parametrize(
    ("rules", "kitty_size"),
    [
        (Rules(), 4),
        (Rules(deck=25), 5),
        (Rules(deck=32), 12),
        (Rules(variant="partnership"), 4),
        (Rules(variant="partnership", deck=25), 5),
        (Rules(variant="partnership", deck=32), 12),
    ],
)
def test_kitty_sizes(rules: Rules, kitty_size: int) -> None:
    """RULES.md §2 Deal: the kitty is four of 24, five of 25, twelve of 32
    (partnership: the deck less 20)."""
    deal = Deal.random(rules, random.Random(7))
    assert len(deal.kitty) == kitty_size
    assert len(deal.dummy) == (5 if rules.cutthroat else 0)
    deal.check(rules)
    HandState(rules, 0, deal)


def test_bad_deals() -> None:
    """RULES.md §5 Hand record: every card of the deck exactly once; a partnership
    deal has no dummy."""
    with pytest.raises(DealError):  # a card twice
        make_deal(
            ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
            dummy="JD TH 9H QD KC",
            kitty="QH JC JS 9C",
        ).check(CUT)
    with pytest.raises(DealError):  # the 7 is not in the 24-card deck
        make_deal(
            ["9C TC QC KD AD", "AS KS QS 9D TD", "JH AH KH 9S TS"],
            dummy="JD TH 9H QD KC",
            kitty="QH JC JS 7C",
        ).check(CUT)
    with pytest.raises(DealError):  # a dummy in partnership
        new_hand(PART, 0, DEAL_A)
    with pytest.raises(DealError):  # four cards in a hand
        make_deal(
            ["9C TC QC KD", "AD AS KS QS 9D TD", "JH AH KH 9S TS"],
            dummy="JD TH 9H QD KC",
            kitty="QH JC JS AC",
        ).check(CUT)
    with pytest.raises(DealError):  # no such dealer
        new_hand(CUT, 3, DEAL_A)


# --- round one, Cutthroat ---------------------------------------------------------


def test_round_one_order_by_left_of_dealer() -> None:
    """RULES.md §2 Bidding, round one: the first to order ends the bidding; the up-card's
    suit is trump and the dealer has the option to pick up or decline."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order")
    assert s.phase is Phase.PICKUP
    assert s.to_act == 0
    assert s.trump is Suit.HEARTS and s.maker == 1
    assert legal(s) == {
        "pickup 9C",
        "pickup TC",
        "pickup QC",
        "pickup KD",
        "pickup AD",
        "pickup QH",
        "decline",
    }


def test_round_one_assist() -> None:
    """RULES.md §2 Bidding, round one: the second player may assist (= order it up)."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass")
    assert s.to_act == 2 and legal(s) == {"pass", "order"}
    s = run(s, "2 order")
    assert s.phase is Phase.PICKUP and s.to_act == 0
    assert s.trump is Suit.HEARTS and s.maker == 2
    assert "decline" in legal(s)


def test_dealer_declines() -> None:
    """RULES.md §2 Bidding, round one: the dealer may leave the up-card in the kitty;
    trump is the up-card's suit either way."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 decline")
    assert s.picked_up is False
    assert s.trump is Suit.HEARTS and s.maker == 2
    assert s.hand(0) == sorted(cards("9C TC QC KD AD"))
    assert s.dealer_discard is None
    assert s.phase is Phase.MAKER and s.to_act == 2


def test_dealer_picks_up_when_ordered() -> None:
    """RULES.md §2 Bidding, round one: the dealer picks up the up-card and discards one."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 pickup 9C")
    assert s.picked_up is True
    assert s.hand(0) == sorted(cards("TC QC KD AD QH"))
    assert s.dealer_discard == Card.parse("9C")
    assert s.phase is Phase.MAKER and s.to_act == 1


def test_dealer_may_discard_the_up_card() -> None:
    """RULES.md §2 Bidding, round one, Settled: the discard may be the up-card itself."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 pickup QH")
    assert s.picked_up is True
    assert s.hand(0) == sorted(cards("9C TC QC KD AD"))
    assert s.dealer_discard == Card.parse("QH")


def test_option_dealer_may_not_discard_up_card() -> None:
    """RULES.md §4 / §2 Settled: with dealer_may_discard_upcard=False the up-card is
    not a legal discard."""
    s = run(new_hand(Rules(dealer_may_discard_upcard=False), 0, DEAL_A), "1 order")
    assert "pickup QH" not in legal(s)
    assert legal(s) == {"pickup 9C", "pickup TC", "pickup QC", "pickup KD", "pickup AD", "decline"}
    with pytest.raises(IllegalActionError):
        s.apply(act("pickup QH"))


def test_dealer_accepts_must_pick_up() -> None:
    """RULES.md §2 Bidding, round one: the dealer passes or accepts; a dealer who
    accepts must pick up."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 pass")
    assert s.to_act == 0 and legal(s) == {"pass", "order"}
    s = run(s, "0 order")
    assert s.phase is Phase.PICKUP and s.to_act == 0 and s.maker == 0
    assert "decline" not in legal(s)
    assert len(legal(s)) == 6
    with pytest.raises(IllegalActionError, match="must pick up"):
        s.apply(act("decline"))
    s = run(s, "0 pickup KD")
    assert s.hand(0) == sorted(cards("9C TC QC AD QH"))
    assert s.phase is Phase.MAKER and s.to_act == 0


def test_option_mandatory_pickup() -> None:
    """RULES.md §4: dealer's pick-up when ordered: mandatory — no decline."""
    s = run(new_hand(Rules(dealer_pickup="mandatory"), 0, DEAL_A), "1 order")
    assert "decline" not in legal(s)
    assert len(legal(s)) == 6
    with pytest.raises(IllegalActionError):
        s.apply(act("decline"))


def test_round_one_passes_to_round_two() -> None:
    """RULES.md §2 Bidding: if all three pass, round two follows from left of the dealer;
    the dummy never bids."""
    s = run(new_hand(CUT, 1, DEAL_A), "2 pass", "0 pass", "1 pass")
    assert s.phase is Phase.BID2
    assert s.to_act == 2
    assert s.trump is None


# --- round one, partnership ---------------------------------------------------------


def test_partnership_round_one_over_four_seats() -> None:
    """RULES.md §3: round one runs over all four seats, left of the dealer first."""
    s = new_hand(PART, 0, PART_MARCH)
    assert s.to_act == 1
    s = run(s, "1 pass", "2 pass", "3 pass")
    assert s.to_act == 0 and legal(s) == {"pass", "order"}
    s = run(s, "0 pass")
    assert s.phase is Phase.BID2 and s.to_act == 1


@pytest.mark.parametrize(
    ("lines", "maker", "may_decline"),
    [
        (("1 order",), 1, True),  # an opponent orders it up
        (("1 pass", "2 order"), 2, True),  # the dealer's partner assists
        (("1 pass", "2 pass", "3 order"), 3, True),  # the third player orders it up
        (("1 pass", "2 pass", "3 pass", "0 order"), 0, False),  # the dealer accepts
    ],
)
def test_partnership_order_assist_accept(
    lines: tuple[str, ...], maker: int, may_decline: bool
) -> None:
    """RULES.md §3: when an opponent orders it up or the dealer's partner assists, the
    dealer may pick up or decline; a dealer who accepts picks up."""
    s = run(new_hand(PART, 0, PART_MARCH), *lines)
    assert s.phase is Phase.PICKUP and s.to_act == 0
    assert s.maker == maker and s.trump is Suit.HEARTS
    assert ("decline" in legal(s)) is may_decline
    assert len(legal(s)) == 6 + may_decline


# --- round two -------------------------------------------------------------------


def test_round_two_turned_down_suit_not_nameable() -> None:
    """RULES.md §2 Bidding, round two, Settled: the up-card's suit may not be named."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 pass", "0 pass")
    assert legal(s) == {"pass", "call C", "call D", "call S"}
    with pytest.raises(IllegalActionError, match="turned-down"):
        s.apply(act("call H"))
    with pytest.raises(IllegalActionError):
        s.apply(act("order"))
    s = run(s, "1 pass", "2 call S")
    assert s.trump is Suit.SPADES and s.maker == 2
    assert s.picked_up is None
    assert s.phase is Phase.MAKER and s.to_act == 2


def test_option_may_name_turned_down_suit() -> None:
    """RULES.md §4: may name the turned-down suit in round two: yes."""
    s = run(
        new_hand(Rules(may_name_turned_down_suit=True), 0, DEAL_A), "1 pass", "2 pass", "0 pass"
    )
    assert legal(s) == {"pass", "call C", "call D", "call H", "call S"}
    s = run(s, "1 call H")
    assert s.trump is Suit.HEARTS and s.maker == 1


def test_all_pass_throws_in() -> None:
    """RULES.md §2 Bidding, round two: if all pass the hand is thrown in; it scores
    nothing."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 pass", "0 pass", "1 pass", "2 pass")
    assert s.to_act == 0 and "pass" in legal(s)
    s = run(s, "0 pass")
    assert s.is_over and s.phase is Phase.OVER and s.to_act is None
    assert s.legal_actions() == []
    r = s.result
    assert r is not None
    assert r.thrown_in and r.points == (0, 0, 0) and r.trump is None and r.maker is None
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(act("pass"))


def test_partnership_all_pass_throws_in() -> None:
    """RULES.md §3: thrown-in hands as in section 2."""
    s = run(new_hand(PART, 3, PART_MARCH), *(f"{(i + 4) % 4} pass" for i in range(8)))
    assert s.result is not None and s.result.thrown_in
    assert s.result.points == (0, 0, 0, 0)


def test_stick_the_dealer() -> None:
    """RULES.md §2 Bidding, round two, option: the dealer may not pass and must name a suit."""
    s = new_hand(Rules(stick_the_dealer=True), 0, DEAL_A)
    s = run(s, "1 pass", "2 pass", "0 pass")
    assert "pass" in legal(s)  # the others may still pass
    s = run(s, "1 pass", "2 pass")
    assert s.to_act == 0
    assert legal(s) == {"call C", "call D", "call S"}
    with pytest.raises(IllegalActionError, match="stick the dealer"):
        s.apply(act("pass"))
    s = run(s, "0 call C")
    assert s.trump is Suit.CLUBS and s.maker == 0


def test_stick_the_dealer_partnership_with_turned_down_suit_allowed() -> None:
    """RULES.md §3/§4: stick the dealer in partnership; options combine."""
    rules = Rules(variant="partnership", stick_the_dealer=True, may_name_turned_down_suit=True)
    s = run(new_hand(rules, 1, PART_MARCH), *(f"{(i + 2) % 4} pass" for i in range(7)))
    assert s.to_act == 1
    assert legal(s) == {"call C", "call D", "call H", "call S"}


# --- the joker turned up ---------------------------------------------------------


def test_joker_up_dealer_names_a_suit_first() -> None:
    """RULES.md §1 Joker, Settled: if the joker is turned up the dealer first names a
    suit (``call S``) before anyone bids."""
    s = new_hand(Rules(deck=25), 0, JOKER_UP)
    assert s.phase is Phase.JOKER_CALL and s.to_act == 0
    assert s.up_card == Card.joker()
    assert legal(s) == {"call C", "call D", "call H", "call S"}
    for bad in ("pass", "order", "decline"):
        with pytest.raises(IllegalActionError):
            s.apply(act(bad))
    with pytest.raises(IllegalActionError):
        s.apply(act("call S"), seat=1)
    s = run(s, "0 call S")
    assert s.phase is Phase.BID1 and s.to_act == 1
    assert s.up_suit is Suit.SPADES and s.trump is None
    assert legal(s) == {"pass", "order"}


def test_joker_up_round_one_and_dealer_takes_joker() -> None:
    """RULES.md §1 Joker: round one is played as if a card of the named suit were
    turned; a dealer who picks it up takes the joker."""
    s = run(new_hand(Rules(deck=25), 0, JOKER_UP), "0 call S", "1 order")
    assert s.trump is Suit.SPADES and s.maker == 1
    assert "pickup JK" in legal(s) and "decline" in legal(s)
    s = run(s, "0 pickup 9C")
    assert Card.joker() in s.hand(0)
    assert s.hand(0) == sorted(cards("TC QC KD AD JK"))
    # the dealer accepting
    s = run(new_hand(Rules(deck=25), 0, JOKER_UP), "0 call D", "1 pass", "2 pass", "0 order")
    assert s.trump is Suit.DIAMONDS and s.maker == 0
    s = run(s, "0 pickup TC")
    assert Card.joker() in s.hand(0)


def test_joker_up_named_suit_is_turned_down_in_round_two() -> None:
    """RULES.md §1 Joker: in round two the named suit counts as the turned-down suit."""
    s = run(new_hand(Rules(deck=25), 0, JOKER_UP), "0 call S", "1 pass", "2 pass", "0 pass")
    assert s.phase is Phase.BID2
    assert legal(s) == {"pass", "call C", "call D", "call H"}
    s2 = run(
        new_hand(Rules(deck=25, may_name_turned_down_suit=True), 0, JOKER_UP),
        "0 call S",
        "1 pass",
        "2 pass",
        "0 pass",
    )
    assert legal(s2) == {"pass", "call C", "call D", "call H", "call S"}


def test_joker_up_redeal_option() -> None:
    """RULES.md §4 / §1 Settled: joker_upcard="redeal" throws the hand in at once."""
    s = new_hand(Rules(deck=25, joker_upcard="redeal"), 0, JOKER_UP)
    assert s.is_over and s.to_act is None
    assert s.result is not None and s.result.thrown_in
    assert s.result.points == (0, 0, 0)


def test_joker_is_highest_trump_and_must_follow() -> None:
    """RULES.md §1 Joker: the joker is the highest trump and of the trump suit for
    following: holding it as the only trump, a player must play it to a trump lead."""
    s = run(
        new_hand(Rules(deck=25), 0, JOKER_FOLLOW),
        "1 order",
        "0 decline",
        "1 keep JH AS KS QS 9D",
        "2 pass",
        "0 pass",
    )
    assert s.trump is Suit.HEARTS and s.to_act == 1
    s = run(s, "1 play JH")
    assert legal(s) == {"play JK"}
    s = run(s, "2 play JK")
    assert legal(s) == {"play 9C", "play TC", "play QC", "play KC", "play TD"}
    s = run(s, "0 play 9C")
    assert tricks_of(s) == [(1, 2)]  # the joker beats the right bower
    s = run(
        s, *plays("2 AC, 0 TC, 1 9D", "2 9S, 0 QC, 1 AS", "1 KS, 2 JS, 0 KC", "1 QS, 2 TS, 0 TD")
    )
    assert tricks_of(s) == [(1, 2), (2, 2), (2, 1), (1, 1), (1, 1)]
    assert s.result is not None
    assert s.result.tricks == (0, 3, 2) and s.result.points == (0, 1, 0)


def test_joker_led_is_trump_led() -> None:
    """RULES.md §1 Joker: the joker led is trump led; others must follow trump."""
    s = run(
        new_hand(Rules(deck=25), 0, JOKER_LED),
        "1 order",
        "0 decline",
        "1 keep JK AS KS QS 9D",
        "2 pass",
        "0 pass",
    )
    s = run(s, "1 play JK")
    assert legal(s) == {"play JH"}
    s = run(s, "2 play JH")
    assert legal(s) == {"play AH"}
    s = run(s, "0 play AH")
    assert tricks_of(s) == [(1, 1)]


# --- the Cutthroat maker's choice ----------------------------------------------------


def test_maker_choice_alone_or_keep_five_of_ten() -> None:
    """RULES.md §2 The dummy, Settled order (b): the maker goes alone or merges the
    dummy (without seeing it: phase MAKER), then keeps five of the ten (phase KEEP)."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 decline")
    assert s.phase is Phase.MAKER and s.to_act == 2
    assert s.legal_actions() == [Action.alone(), Action.merge()]
    s = s.apply(Action.merge(), 2)
    assert s.phase is Phase.KEEP and s.to_act == 2 and not s.merged
    assert len(s.history) == 3  # the merge is written with the keep, as one line
    acts = s.legal_actions()
    pool = set(cards("JH AH KH 9S TS JD TH 9H QD KC"))
    assert len(set(acts)) == 252 and all(a.kind == "keep" for a in acts)
    assert all(len(a.cards) == 5 and set(a.cards) <= pool for a in acts)
    s = s.apply(act("keep JH JD AH KH TH"), 2)
    assert s.merged and s.phase is Phase.ALONE
    assert s.history[-1] == (2, act("keep JH JD AH KH TH"))


def test_keep_must_be_five_of_the_ten() -> None:
    """RULES.md §2 The dummy: keep only cards of the hand and the dummy."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 decline")
    with pytest.raises(IllegalActionError, match="first choose: alone, or merge"):
        s.apply(act("keep JH AH KH JD TH"))  # the five come after the merge
    with pytest.raises(IllegalActionError, match="not possible now"):
        s.apply(act("pass"))
    merged = s.apply(act("keep"))  # the bare keep: merge without seeing the dummy
    with pytest.raises(IllegalActionError, match="not AS"):
        merged.apply(act("keep JH AH KH JD AS"))
    with pytest.raises(IllegalActionError, match="chose to merge the dummy"):
        merged.apply(act("keep"))  # the bare merge again names no cards
    with pytest.raises(IllegalActionError, match="chose to merge the dummy"):
        merged.apply(act("alone"))
    s = run(s, "2 keep JH JD AH KH TH")
    assert s.merged
    assert s.hand(2) == sorted(cards("JH JD AH KH TH"))
    assert s.maker_discards == sorted(cards("9S TS 9H QD KC"))
    assert s.phase is Phase.ALONE and s.to_act == 0


def test_dealer_maker_keeps_from_picked_up_hand() -> None:
    """RULES.md §2 Settled order: (a) the dealer's pick-up, then (b) the maker's choice;
    a dealer-maker merges the hand that includes the up-card."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 pass", "0 order", "0 pickup 9C")
    assert s.to_act == 0 and s.phase is Phase.MAKER
    s = run(s, "0 keep QH JD TH 9H AD")
    assert s.hand(0) == sorted(cards("QH JD TH 9H AD"))
    assert s.maker_discards == sorted(cards("TC QC KD QD KC"))
    assert s.dealer_discard == Card.parse("9C")


def test_maker_alone_does_not_use_dummy() -> None:
    """RULES.md §2 The dummy: a maker who goes alone does not use the dummy."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 decline", "2 alone")
    assert s.alone == (2,) and not s.merged
    assert s.hand(2) == sorted(cards("JH AH KH 9S TS"))
    assert s.maker_discards == []
    assert s.dummy == sorted(cards("JD TH 9H QD KC"))
    assert s.sitting_out == ()


# --- going alone: order of the decisions ---------------------------------------------


def test_cutthroat_defenders_asked_from_makers_left() -> None:
    """RULES.md §2 Going alone, Settled order (c): the defenders in turn from the maker's
    left; a defender who passes may be followed by the other going alone."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 decline", "2 keep JH JD AH KH TH")
    assert s.to_act == 0 and legal(s) == {"pass", "alone"}
    s = run(s, "0 pass")
    assert s.to_act == 1 and legal(s) == {"pass", "alone"}
    s = run(s, "1 alone")
    assert s.alone == (1,) and s.sitting_out == (0,)
    assert s.phase is Phase.PLAY


def test_cutthroat_once_one_defender_alone_other_not_asked() -> None:
    """RULES.md §2 Settled order (c): once one defender goes alone the other sits out
    and is not asked."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 decline", "1 keep AS KS QS 9D TD", "2 alone")
    assert s.phase is Phase.PLAY
    assert s.alone == (2,) and s.sitting_out == (0,)
    assert [seat for seat, _ in s.history] == [1, 0, 1, 2]


def test_cutthroat_maker_and_defender_both_alone() -> None:
    """RULES.md §2 Going alone: the maker and one defender may both go alone."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 decline", "1 alone", "2 pass", "0 alone")
    assert s.alone == (1, 0) and s.sitting_out == (2,)
    assert s.phase is Phase.PLAY and s.to_act == 0  # the lone defender leads


def test_option_defenders_may_not_go_alone() -> None:
    """RULES.md §4 (Settled point as option): defenders_may_go_alone=False skips (c)."""
    s = run(
        new_hand(Rules(defenders_may_go_alone=False), 0, DEAL_A),
        "1 order",
        "0 decline",
        "1 alone",
    )
    assert s.phase is Phase.PLAY and s.to_act == 2
    p = run(
        new_hand(Rules(variant="partnership", defenders_may_go_alone=False), 0, PART_MARCH),
        "1 order",
        "0 decline",
        "1 pass",
        "3 pass",
    )
    assert p.phase is Phase.PLAY and p.to_act == 1


def test_partnership_alone_order_maker_first() -> None:
    """RULES.md §3 Going alone, Settled order: the maker, then (if the maker passed) the
    maker's partner, then the defenders from the maker's left; at most one per side."""
    s = run(new_hand(PART, 0, PART_MARCH), "1 order", "0 decline")
    assert s.phase is Phase.ALONE and s.to_act == 1
    s = run(s, "1 pass")
    assert s.to_act == 3
    s = run(s, "3 pass")
    assert s.to_act == 2
    s = run(s, "2 pass")
    assert s.to_act == 0
    s = run(s, "0 pass")
    assert s.phase is Phase.PLAY and s.alone == () and s.sitting_out == ()
    assert s.to_act == 1


def test_partnership_maker_alone_partner_not_asked() -> None:
    """RULES.md §3 Settled order: at most one per partnership — after the maker's
    ``alone`` the partner is not asked; a defender may still go alone."""
    s = run(new_hand(PART, 0, PART_MARCH), "1 order", "0 decline", "1 alone")
    assert s.to_act == 2 and s.sitting_out == (3,)
    s = run(s, "2 alone")
    assert s.phase is Phase.PLAY
    assert s.alone == (1, 2) and s.sitting_out == (0, 3)
    assert s.to_act == 2  # both alone: the lone defender leads


def test_partnership_defender_alone_other_defender_not_asked() -> None:
    """RULES.md §3 Settled order: once a defender says alone, the other is not asked."""
    s = run(new_hand(PART, 0, PART_MARCH), "1 order", "0 decline", "1 pass", "3 pass", "2 alone")
    assert s.phase is Phase.PLAY
    assert s.alone == (2,) and s.sitting_out == (0,)
    assert s.to_act == 3  # left of the lone defender


def test_alone_out_of_order_is_wrong_seat() -> None:
    """RULES.md §5 Hand record: an ``alone`` out of the Settled order is an error of the
    wrong seat."""
    s = run(new_hand(PART, 0, PART_MARCH), "1 order", "0 decline")
    for seat in (0, 2, 3):
        with pytest.raises(IllegalActionError, match="turn"):
            s.apply(act("alone"), seat=seat)
    s = run(s, "1 pass")
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply(act("alone"), seat=2)
    c = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 decline")
    with pytest.raises(IllegalActionError, match="turn"):
        c.apply(act("alone"), seat=2)  # the maker decides first
    c = run(c, "1 keep AS KS QS 9D TD")
    with pytest.raises(IllegalActionError, match="turn"):
        c.apply(act("alone"), seat=0)  # seat 2, left of the maker, is asked first


def test_partnership_partner_alone() -> None:
    """RULES.md §3 Settled order: if the maker passed, the maker's partner may go alone;
    the maker then sits out."""
    s = run(new_hand(PART, 0, PART_MARCH), "1 order", "0 decline", "1 pass", "3 alone")
    assert s.sitting_out == (1,) and s.to_act == 2
    s = run(s, "2 pass", "0 pass")
    assert s.phase is Phase.PLAY and s.to_act == 0  # left of the lone player


# --- the lead -------------------------------------------------------------------------

# Cutthroat, DEAL_A, dealer 0. Seat 1 ordered ("1 order", "0 decline") or seat 2 did.
_M1 = ("1 order", "0 decline")
_M2 = ("1 pass", "2 order", "0 decline")
_K1 = "1 keep AS KS QS 9D TD"
_K2 = "2 keep JH AH KH 9S TS"


@pytest.mark.parametrize(
    ("rules", "lines", "leader", "out"),
    [
        # nobody alone: left of the dealer
        (CUT, (*_M2, _K2, "0 pass", "1 pass"), 1, ()),
        (CUT, (*_M1, _K1, "2 pass", "0 pass"), 1, ()),
        # the maker alone (declining the dummy is going alone): left of the maker
        (CUT, (*_M2, "2 alone", "0 pass", "1 pass"), 0, ()),
        (CUT, (*_M1, "1 alone", "2 pass", "0 pass"), 2, ()),
        # a defender alone: the first seat to their left that takes part
        (CUT, (*_M1, _K1, "2 alone"), 1, (0,)),  # left of 2 is 0, sitting out
        (CUT, (*_M1, _K1, "2 pass", "0 alone"), 1, (2,)),
        (CUT, (*_M2, _K2, "0 alone"), 2, (1,)),  # left of 0 is 1, sitting out
        (CUT, (*_M2, _K2, "0 pass", "1 alone"), 2, (0,)),
        # both alone: the lone defender leads
        (CUT, (*_M1, "1 alone", "2 alone"), 2, (0,)),
        (CUT, (*_M1, "1 alone", "2 pass", "0 alone"), 0, (2,)),
        (CUT, (*_M2, "2 alone", "0 pass", "1 alone"), 1, (0,)),
        # option lone_lead="left_of_dealer": the first active seat left of the dealer
        (Rules(lone_lead="left_of_dealer"), (*_M2, "2 alone", "0 pass", "1 pass"), 1, ()),
        (Rules(lone_lead="left_of_dealer"), (*_M2, _K2, "0 alone"), 2, (1,)),
        (Rules(lone_lead="left_of_dealer"), (*_M1, "1 alone", "2 alone"), 1, (0,)),
        # option dummy_decline_is_alone=False: the maker's alone does not move the lead
        (Rules(dummy_decline_is_alone=False), (*_M2, "2 alone", "0 pass", "1 pass"), 1, ()),
        (Rules(dummy_decline_is_alone=False), (*_M1, "1 alone", "2 pass", "0 pass"), 1, ()),
        # ... and then only the defender is alone: the first active seat to their left
        (Rules(dummy_decline_is_alone=False), (*_M2, "2 alone", "0 alone"), 2, (1,)),
        (Rules(dummy_decline_is_alone=False), (*_M1, "1 alone", "2 alone"), 1, (0,)),
        (Rules(dummy_decline_is_alone=False), (*_M1, _K1, "2 pass", "0 alone"), 1, (2,)),
    ],
)
def test_cutthroat_lead(
    rules: Rules, lines: tuple[str, ...], leader: int, out: tuple[int, ...]
) -> None:
    """RULES.md §2 Play: left of the dealer leads; if someone goes alone, the first
    player to their left who takes part leads (Settled); if the maker and a defender
    both go alone, the lone defender leads; options lone_lead and
    dummy_decline_is_alone (RULES.md §4)."""
    s = run(new_hand(rules, 0, DEAL_A), *lines)
    assert s.phase is Phase.PLAY
    assert s.sitting_out == out
    assert s.to_act == leader
    assert out == () or leader not in out


_P = ("1 order", "0 decline")


@pytest.mark.parametrize(
    ("rules", "lines", "leader", "out"),
    [
        (PART, (*_P, "1 pass", "3 pass", "2 pass", "0 pass"), 1, ()),
        (PART, (*_P, "1 alone", "2 pass", "0 pass"), 2, (3,)),
        (PART, (*_P, "1 pass", "3 alone", "2 pass", "0 pass"), 0, (1,)),
        (PART, (*_P, "1 pass", "3 pass", "2 alone"), 3, (0,)),
        (PART, (*_P, "1 pass", "3 pass", "2 pass", "0 alone"), 1, (2,)),
        (PART, (*_P, "1 alone", "2 pass", "0 alone"), 0, (2, 3)),
        (PART, (*_P, "1 pass", "3 alone", "2 alone"), 2, (0, 1)),
        (
            Rules(variant="partnership", lone_lead="left_of_dealer"),
            (*_P, "1 pass", "3 alone", "2 pass", "0 pass"),
            2,
            (1,),
        ),
        (
            Rules(variant="partnership", lone_lead="left_of_dealer"),
            (*_P, "1 alone", "2 pass", "0 pass"),
            1,
            (3,),
        ),
    ],
)
def test_partnership_lead(
    rules: Rules, lines: tuple[str, ...], leader: int, out: tuple[int]
) -> None:
    """RULES.md §3 Play: left of the dealer leads; if one player goes alone, the player
    to their left leads; if two go alone, the lone defender leads; option lone_lead."""
    s = run(new_hand(rules, 0, PART_MARCH), *lines)
    assert s.phase is Phase.PLAY
    assert s.sitting_out == out
    assert s.to_act == leader


# --- following suit and trick winners ----------------------------------------------------


def test_must_play_left_bower_when_trump_led() -> None:
    """RULES.md §1 Trump ranking / §2 Play: the left bower is trump — holding it as the
    only trump, a player must play it when trump is led; it beats the ace of trump."""
    s = run(
        new_hand(CUT, 0, DEAL_F),
        "1 order",
        "0 decline",
        "1 keep AH 9D AS KS QS",
        "2 pass",
        "0 pass",
    )
    assert s.to_act == 1 and s.phase is Phase.PLAY
    s = run(s, "1 play AH")
    assert legal(s) == {"play TH"}
    s = run(s, "2 play TH")
    assert legal(s) == {"play JD"}
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(act("play 9C"))
    s = run(s, "0 play JD")
    assert tricks_of(s) == [(1, 0)]
    assert s.to_act == 0
    # plain suits: the highest card of the suit led wins; an off-suit ace does not
    s = run(s, "0 play 9C")
    assert legal(s) == {"play 9D", "play AS", "play KS", "play QS"}  # void in clubs
    s = run(s, "1 play AS")
    assert legal(s) == {"play AC"}
    s = run(s, "2 play AC", *plays("2 9S, 0 TC, 1 KS", "1 9D, 2 JS, 0 QC", "1 QS, 2 TS, 0 KC"))
    assert tricks_of(s) == [(1, 0), (0, 2), (2, 1), (1, 1), (1, 1)]
    assert s.result is not None
    assert s.result.tricks == (1, 3, 1) and s.result.points == (0, 1, 0)


def test_left_bower_cannot_follow_its_printed_suit() -> None:
    """RULES.md §1 Trump ranking: the left bower belongs to trump for every purpose —
    it does not follow its printed suit; a real card of that suit must be played."""
    s = run(
        new_hand(CUT, 0, DEAL_G),
        "1 order",
        "0 decline",
        "1 keep AD AS KS QS AH",
        "2 pass",
        "0 pass",
    )
    s = run(s, "1 play AD")
    assert legal(s) == {"play 9D"}
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(act("play JD"))
    s = run(s, "2 play 9D")
    assert legal(s) == {"play KD"}
    s = run(s, "0 play KD", "1 play AS")
    assert legal(s) == {"play 9S", "play TS", "play JS"}
    s = run(s, "2 play 9S", "0 play 9C", "1 play AH")
    assert legal(s) == {"play JD"}  # the only trump left in seat 2's hand
    s = run(s, "2 play JD", "0 play TC")
    assert tricks_of(s) == [(1, 1), (1, 1), (1, 2)]
    s = run(s, *plays("2 TS, 0 QC, 1 KS", "1 QS, 2 JS, 0 KC"))
    assert tricks_of(s)[3:] == [(2, 1), (1, 1)]
    assert s.result is not None
    assert s.result.tricks == (0, 4, 1) and s.result.points == (0, 1, 0)


def test_left_bower_void_in_printed_suit_may_trump() -> None:
    """RULES.md §2 Play: void in the suit led (the left bower not counting), any card may
    be played; the left bower then wins as trump."""
    s = run(
        new_hand(CUT, 0, DEAL_H),
        "1 order",
        "0 decline",
        "1 keep AD AS KS QS AH",
        "2 pass",
        "0 pass",
    )
    s = run(s, "1 play AD")
    assert legal(s) == {"play JD", "play KH", "play 9S", "play TS", "play JS"}
    s = run(s, "2 play JD", "0 play KD")
    assert tricks_of(s) == [(1, 2)]


def test_leading_left_bower_is_leading_trump() -> None:
    """RULES.md §1 Trump ranking: the left bower belongs to trump for leading."""
    s = run(
        new_hand(CUT, 0, DEAL_H),
        "1 order",
        "0 decline",
        "1 keep AD AS KS QS AH",
        "2 pass",
        "0 pass",
    )
    s = run(s, "1 play AD", "2 play KH", "0 play KD")
    assert tricks_of(s) == [(1, 2)]  # the lowest trump beats the ace led
    s = run(s, "2 play JD")
    assert legal(s) == {"play 9C", "play TC", "play QC", "play KC"}  # seat 0: no trump
    s = run(s, "0 play 9C")
    assert legal(s) == {"play AH"}  # seat 1 must follow trump
    s = run(s, "1 play AH")
    assert tricks_of(s) == [(1, 2), (2, 2)]


# --- scoring: Cutthroat ------------------------------------------------------------------

_CUT_BID = ("1 order", "0 decline")


@pytest.mark.parametrize(
    ("deal", "lines", "tricks", "points", "alone", "out"),
    [
        # maker takes all 5 (a march): maker 3
        (
            CUT_MARCH,
            (
                *_CUT_BID,
                "1 keep JH JD AH KH QH",
                "2 pass",
                "0 pass",
                *plays("1 JH, 2 TS, 0 TC", "1 JD, 2 JS, 0 JC", "1 AH, 2 QS, 0 QC"),
                *plays("1 KH, 2 KS, 0 KC", "1 QH, 2 AS, 0 AC"),
            ),
            (0, 5, 0),
            (0, 3, 0),
            (),
            (),
        ),
        # a lone maker scores as above (no lone bonus)
        (
            CUT_MARCH,
            (
                *_CUT_BID,
                "1 alone",
                "2 pass",
                "0 pass",
                *plays("2 TS, 0 TC, 1 JH", "1 JD, 2 JS, 0 JC", "1 AH, 2 QS, 0 QC"),
                *plays("1 KH, 2 KS, 0 KC", "1 QH, 2 AS, 0 AC"),
            ),
            (0, 5, 0),
            (0, 3, 0),
            (1,),
            (),
        ),
        # maker takes 3: maker 1
        (
            CUT_THREE,
            (
                *_CUT_BID,
                "1 keep JH JD AH 9C 9S",
                "2 pass",
                "0 pass",
                *plays("1 JH, 2 TS, 0 TC", "1 JD, 2 JS, 0 JC", "1 AH, 2 QS, 0 QC"),
                *plays("1 9C, 2 KS, 0 AC", "0 KC, 1 9S, 2 AS"),
            ),
            (2, 3, 0),
            (0, 1, 0),
            (),
            (),
        ),
        # maker takes 4: maker 1
        (
            CUT_FOUR,
            (
                *_CUT_BID,
                "1 keep JH JD AH KH 9S",
                "2 pass",
                "0 pass",
                *plays("1 JH, 2 TS, 0 TC", "1 JD, 2 JS, 0 JC", "1 AH, 2 QS, 0 QC"),
                *plays("1 KH, 2 KS, 0 KC", "1 9S, 2 AS, 0 AC"),
            ),
            (0, 4, 1),
            (0, 1, 0),
            (),
            (),
        ),
        # maker euchred (2 tricks): each defender 2
        (
            CUT_EUCHRE,
            (
                *_CUT_BID,
                "1 keep JH JD 9C 9S 9D",
                "2 pass",
                "0 pass",
                *plays("1 JH, 2 TS, 0 TC", "1 JD, 2 JS, 0 JC", "1 9C, 2 QS, 0 AC"),
                *plays("0 KC, 1 9S, 2 KS", "0 QC, 1 9D, 2 AS"),
            ),
            (3, 2, 0),
            (2, 0, 2),
            (),
            (),
        ),
        # lone maker euchred: each defender 2
        (
            CUT_EUCHRE,
            (
                *_CUT_BID,
                "1 alone",
                "2 pass",
                "0 pass",
                *plays("2 TS, 0 TC, 1 9S", "2 JS, 0 JC, 1 JH", "1 JD, 2 QS, 0 QC"),
                *plays("1 9C, 2 KS, 0 AC", "0 KC, 1 9D, 2 AS"),
            ),
            (2, 2, 1),
            (2, 0, 2),
            (1,),
            (),
        ),
        # defenders (not alone) take all 5: still each defender 2
        (
            CUT_DEF5,
            (
                *_CUT_BID,
                "1 keep 9C 9S 9D TD QD",
                "2 pass",
                "0 pass",
                *plays("1 9C, 2 TS, 0 JH", "0 JD, 1 9S, 2 JS", "0 AH, 1 9D, 2 QS"),
                *plays("0 KH, 1 TD, 2 KS", "0 QH, 1 QD, 2 AS"),
            ),
            (5, 0, 0),
            (2, 0, 2),
            (),
            (),
        ),
        # a lone defender takes 3: each defender 2, the one sitting out included
        (
            CUT_EUCHRE,
            (
                *_CUT_BID,
                "1 keep JH JD 9C 9S 9D",
                "2 pass",
                "0 alone",
                *plays("1 JH, 0 TC", "1 JD, 0 JC", "1 9C, 0 AC", "0 KC, 1 9S", "0 QC, 1 9D"),
            ),
            (3, 2, 0),
            (2, 0, 2),
            (0,),
            (2,),
        ),
        # a lone defender takes 4: each defender 2
        (
            CUT_ONE,
            (
                *_CUT_BID,
                "1 keep JH 9C 9S 9D TD",
                "2 pass",
                "0 alone",
                *plays("1 JH, 0 TC", "1 9C, 0 AC", "0 KC, 1 9S", "0 QC, 1 9D", "0 JC, 1 TD"),
            ),
            (4, 1, 0),
            (2, 0, 2),
            (0,),
            (2,),
        ),
        # a lone defender takes all 5: each defender 4 (maker merged)
        (
            CUT_DEF5,
            (
                *_CUT_BID,
                "1 keep 9C 9S 9D TD QD",
                "2 pass",
                "0 alone",
                *plays("1 9C, 0 JH", "0 JD, 1 9S", "0 AH, 1 9D", "0 KH, 1 TD", "0 QH, 1 QD"),
            ),
            (5, 0, 0),
            (4, 0, 4),
            (0,),
            (2,),
        ),
        # ... and against a lone maker: the lone defender leads
        (
            CUT_DEF5,
            (
                *_CUT_BID,
                "1 alone",
                "2 pass",
                "0 alone",
                *plays("0 JH, 1 9C", "0 JD, 1 9S", "0 AH, 1 9D", "0 KH, 1 TD", "0 QH, 1 QD"),
            ),
            (5, 0, 0),
            (4, 0, 4),
            (1, 0),
            (2,),
        ),
        # a lone defender (seat 2) takes 1 against a lone maker's 4: maker 1
        (
            CUT_THREE,
            (
                *_CUT_BID,
                "1 alone",
                "2 alone",
                *plays("2 TS, 1 9S", "2 JS, 1 JH", "1 JD, 2 QS", "1 AH, 2 KS", "1 9C, 2 AS"),
            ),
            (0, 4, 1),
            (0, 1, 0),
            (1, 2),
            (0,),
        ),
    ],
)
def test_cutthroat_scoring(
    deal: Deal,
    lines: tuple[str, ...],
    tricks: tuple[int, ...],
    points: tuple[int, ...],
    alone: tuple[int, ...],
    out: tuple[int, ...],
) -> None:
    """RULES.md §2 Scoring: maker 3-4 → 1; march → 3; euchred → each defender 2; a lone
    defender 3-4 → each defender 2, all 5 → each 4; the sitting-out defender scores; a
    lone maker scores as the table."""
    s = run(new_hand(CUT, 0, deal), *lines)
    assert s.is_over
    r = s.result
    assert r is not None and not r.thrown_in
    assert r.trump is Suit.HEARTS and r.maker == 1
    assert r.tricks == tricks
    assert r.points == points
    assert r.alone == alone
    assert s.sitting_out == out
    assert len(s.tricks) == 5


# --- scoring: partnership ----------------------------------------------------------------

_PART_BID = ("1 order", "0 decline")
_PART_PASS = ("1 pass", "3 pass", "2 pass", "0 pass")


@pytest.mark.parametrize(
    ("rules", "deal", "lines", "tricks", "points", "out"),
    [
        # makers take 3: 1
        (
            PART,
            PART_THREE,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 JH, 2 TS, 3 9D, 0 TC", "1 JD, 2 JS, 3 TD, 0 JC"),
                *plays("1 AH, 2 QS, 3 QD, 0 QC", "1 9C, 2 KS, 3 KD, 0 AC"),
                *plays("0 KC, 1 9S, 2 AS, 3 AD"),
            ),
            (2, 3, 0, 0),
            (0, 1, 0, 1),
            (),
        ),
        # makers take 4 (one by the partner): 1
        (
            PART,
            PART_FOUR,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 JH, 2 TS, 3 TD, 0 TC", "1 JD, 2 JS, 3 QD, 0 JC"),
                *plays("1 AH, 2 QS, 3 KD, 0 QC", "1 9D, 2 KS, 3 AD, 0 KC"),
                *plays("3 9C, 0 AC, 1 9S, 2 AS"),
            ),
            (1, 3, 0, 1),
            (0, 1, 0, 1),
            (),
        ),
        # makers take all 5: 2
        (
            PART,
            PART_MARCH,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 JH, 2 TS, 3 9D, 0 TC", "1 JD, 2 JS, 3 TD, 0 JC"),
                *plays("1 AH, 2 QS, 3 QD, 0 QC", "1 KH, 2 KS, 3 KD, 0 KC"),
                *plays("1 QH, 2 AS, 3 AD, 0 AC"),
            ),
            (0, 5, 0, 0),
            (0, 2, 0, 2),
            (),
        ),
        # makers euchred: defenders 2
        (
            PART,
            PART_EUCHRE,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 JH, 2 TS, 3 9H, 0 TC", "1 JD, 2 JS, 3 9D, 0 JC"),
                *plays("1 9C, 2 QS, 3 QD, 0 AC", "0 KC, 1 9S, 2 KS, 3 KD"),
                *plays("0 QC, 1 TD, 2 AS, 3 AD"),
            ),
            (3, 2, 0, 0),
            (2, 0, 2, 0),
            (),
        ),
        # defenders (not alone) take all 5: still 2
        (
            PART,
            PART_DEF5,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 9C, 2 TS, 3 TC, 0 JH", "0 JD, 1 9S, 2 JS, 3 JC"),
                *plays("0 AH, 1 9D, 2 QS, 3 QC", "0 KH, 1 TD, 2 KS, 3 KC"),
                *plays("0 QH, 1 QD, 2 AS, 3 AC"),
            ),
            (5, 0, 0, 0),
            (2, 0, 2, 0),
            (),
        ),
        # lone maker takes 3: 1
        (
            PART,
            PART_THREE,
            (
                *_PART_BID,
                "1 alone",
                "2 pass",
                "0 pass",
                *plays("2 AS, 0 TC, 1 9S", "2 KS, 0 JC, 1 JH", "1 JD, 2 TS, 0 QC"),
                *plays("1 AH, 2 QS, 0 KC", "1 9C, 2 JS, 0 AC"),
            ),
            (1, 3, 1, 0),
            (0, 1, 0, 1),
            (3,),
        ),
        # lone maker takes all 5: 4
        (
            PART,
            PART_MARCH,
            (
                *_PART_BID,
                "1 alone",
                "2 pass",
                "0 pass",
                *plays("2 TS, 0 TC, 1 JH", "1 JD, 2 JS, 0 JC", "1 AH, 2 QS, 0 QC"),
                *plays("1 KH, 2 KS, 0 KC", "1 QH, 2 AS, 0 AC"),
            ),
            (0, 5, 0, 0),
            (0, 4, 0, 4),
            (3,),
        ),
        # the maker's partner alone counts as a lone maker: all 5 → 4
        (
            PART,
            PART_PARTNER,
            (
                *_PART_BID,
                "1 pass",
                "3 alone",
                "2 pass",
                "0 pass",
                *plays("0 AC, 2 AS, 3 JH", "3 JD, 0 KC, 2 KS", "3 AH, 0 QC, 2 QS"),
                *plays("3 KH, 0 JC, 2 JS", "3 QH, 0 TC, 2 TS"),
            ),
            (0, 0, 0, 5),
            (0, 4, 0, 4),
            (1,),
        ),
        # a lone defender takes 3: 2
        (
            PART,
            PART_EUCHRE,
            (
                *_PART_BID,
                "1 pass",
                "3 pass",
                "2 pass",
                "0 alone",
                *plays("1 JH, 3 9H, 0 TC", "1 JD, 3 9D, 0 JC", "1 9C, 3 QD, 0 AC"),
                *plays("0 KC, 1 9S, 3 KD", "0 QC, 1 TD, 3 AD"),
            ),
            (3, 2, 0, 0),
            (2, 0, 2, 0),
            (2,),
        ),
        # ... with the seed's option lone_defender_points=4: 4
        (
            Rules(variant="partnership", lone_defender_points=4),
            PART_EUCHRE,
            (
                *_PART_BID,
                "1 pass",
                "3 pass",
                "2 pass",
                "0 alone",
                *plays("1 JH, 3 9H, 0 TC", "1 JD, 3 9D, 0 JC", "1 9C, 3 QD, 0 AC"),
                *plays("0 KC, 1 9S, 3 KD", "0 QC, 1 TD, 3 AD"),
            ),
            (3, 2, 0, 0),
            (4, 0, 4, 0),
            (2,),
        ),
        # a lone defender takes all 5: 4
        (
            PART,
            PART_DEF5,
            (
                *_PART_BID,
                "1 pass",
                "3 pass",
                "2 pass",
                "0 alone",
                *plays("1 9C, 3 TC, 0 JH", "0 JD, 1 9S, 3 JC", "0 AH, 1 9D, 3 QC"),
                *plays("0 KH, 1 TD, 3 KC", "0 QH, 1 QD, 3 AC"),
            ),
            (5, 0, 0, 0),
            (4, 0, 4, 0),
            (2,),
        ),
        # makers 3 with the lone-defender option on: the option does not apply
        (
            Rules(variant="partnership", lone_defender_points=4),
            PART_THREE,
            (
                *_PART_BID,
                *_PART_PASS,
                *plays("1 JH, 2 TS, 3 9D, 0 TC", "1 JD, 2 JS, 3 TD, 0 JC"),
                *plays("1 AH, 2 QS, 3 QD, 0 QC", "1 9C, 2 KS, 3 KD, 0 AC"),
                *plays("0 KC, 1 9S, 2 AS, 3 AD"),
            ),
            (2, 3, 0, 0),
            (0, 1, 0, 1),
            (),
        ),
    ],
)
def test_partnership_scoring(
    rules: Rules,
    deal: Deal,
    lines: tuple[str, ...],
    tricks: tuple[int, ...],
    points: tuple[int, ...],
    out: tuple[int, ...],
) -> None:
    """RULES.md §3 Scoring: makers 3-4 → 1, 5 → 2; euchred → defenders 2; lone maker 3-4
    → 1, 5 → 4; lone defender 3-4 → 2 (option 4), 5 → 4; both partners carry the points."""
    s = run(new_hand(rules, 0, deal), *lines)
    r = s.result
    assert r is not None and not r.thrown_in
    assert r.trump is Suit.HEARTS and r.maker == 1
    assert r.tricks == tricks
    assert r.points == points
    assert s.sitting_out == out


# --- errors and immutability ------------------------------------------------------------


def test_illegal_action_reasons() -> None:
    """RULES.md §5 Hand record: an illegal action is reported with its reason: out of
    turn, wrong phase, card not held, must follow suit."""
    s = new_hand(CUT, 0, DEAL_A)
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply(act("pass"), seat=2)
    with pytest.raises(IllegalActionError, match="not possible now"):
        s.apply(act("call S"))
    with pytest.raises(IllegalActionError, match="not possible now"):
        s.apply(act("play AS"))
    s = run(s, "1 order")
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(act("pickup AS"))
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply(act("decline"), seat=1)
    s = run(s, "0 decline", "1 keep AS KS QS 9D TD", "2 pass", "0 pass")
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(act("play JH"))
    with pytest.raises(IllegalActionError, match="not possible now"):
        s.apply(act("pass"))
    s = run(s, "1 play AS")
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(act("play JH"))
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply(act("play 9S"), seat=1)


def test_apply_returns_new_state_old_unchanged() -> None:
    """RULES.md §5 Hand record (replay reproduces the hand exactly): a state is a value;
    ``apply`` returns a new one and leaves the old one as it was."""
    s0 = new_hand(CUT, 0, DEAL_A)
    s1 = s0.apply(act("order"))
    assert s0.phase is Phase.BID1 and s0.to_act == 1 and s0.history == ()
    assert s0.trump is None and s0.maker is None
    s2 = s1.apply(act("pickup 9C"))
    assert s1.hand(0) == sorted(cards("9C TC QC KD AD")) and s1.picked_up is None
    assert s2.hand(0) == sorted(cards("TC QC KD AD QH"))
    s3 = run(s2, "1 keep AS KS QS 9D TD", "2 pass", "0 pass")
    s4 = s3.apply(act("play AS"))
    assert s3.current_trick == () and s3.hand(1) == sorted(cards("AS KS QS 9D TD"))
    assert s4.current_trick == ((1, Card.parse("AS")),)
    with pytest.raises(IllegalActionError):
        s3.apply(act("play JH"))
    assert s3.to_act == 1 and len(s3.history) == 5
    with pytest.raises(AttributeError):
        s0.foo = 1


def test_history_records_every_action_with_its_seat() -> None:
    """RULES.md §5 Notation: every action with its seat."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 pass", "2 order", "0 pickup QH", "2 alone", "0 pass")
    assert [(seat, str(a)) for seat, a in s.history] == [
        (1, "pass"),
        (2, "order"),
        (0, "pickup QH"),
        (2, "alone"),
        (0, "pass"),
    ]
    assert s.to_act == 1 and s.phase is Phase.ALONE


def test_reasons_for_a_person_and_with_suit_symbols() -> None:
    """RULES.md §2 Play (follow suit), §2 The dummy: ``why_illegal`` is the one source
    of reasons; ``you`` addresses the seat's player, ``pretty`` writes suit symbols."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 decline")
    assert s.why_illegal(act("keep AS KS QS 9D TD")) == (
        "first choose: alone, or merge the dummy without seeing it (keep); "
        "the five to keep come after"
    )
    merged = s.apply(Action.merge())
    assert merged.why_illegal(act("alone"), you=True) == (
        "you chose to merge the dummy: now keep five of the ten cards (keep C1 C2 C3 C4 C5)"
    )
    assert merged.why_illegal(act("pass"), 2, you=True) == ("it is not your turn: seat 1 is to act")
    s = run(s, "1 keep AS KS QS 9D TD", "2 pass", "0 pass", "1 play AS")
    assert s.why_illegal(act("play JH")) == "must follow suit: S was led (seat 2 may play 9S TS)"
    assert s.why_illegal(act("play JH"), you=True, pretty=True) == (
        "you must follow suit: ♠ was led (you may play 9♠ 10♠)"
    )
    assert s.why_illegal(act("play AD"), you=True) == "you don't hold AD"
    assert s.why_illegal(act("play 9S")) is None


def test_a_state_pickles_as_its_core_and_deal() -> None:
    """A state crosses to a worker process (the web's bots): pickled and back, it is
    the same hand at the same point, and plays on the same."""
    s = run(new_hand(CUT, 0, DEAL_A), "1 order", "0 decline", "1 keep AS KS QS 9D TD")
    back = pickle.loads(pickle.dumps(s))
    assert back.history == s.history and back.phase is s.phase and back.to_act == s.to_act
    assert back.deal == s.deal and back.hand(1) == s.hand(1)
    assert back.apply(act("pass")).history == s.apply(act("pass")).history
