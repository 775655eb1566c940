"""Cards, decks, notation and the trump ranking (RULES.md §1 Cards, §5 Notation)."""

from __future__ import annotations

import pytest

from conftest import cards
from euchre import Card, CardError, Rank, Suit
from euchre.cards import POWER, SUIT_MASK, cards_of, deck_cards, deck_mask, mask_of

RANKS_24 = ["9", "T", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]


def power(card: str, trump: str, led: str) -> int:
    """The engine's trick-taking power of ``card`` (trump ``trump``, ``led`` led)."""
    return POWER[Suit.parse(trump)][Suit.parse(led)][Card.parse(card).id]


def in_suit(card: str, trump: str, suit: str) -> bool:
    """Whether ``card`` belongs to ``suit`` for following when ``trump`` is trump."""
    return bool(SUIT_MASK[Suit.parse(trump)][Suit.parse(suit)] & Card.parse(card).bit)


# -- decks -----------------------------------------------------------------------


def test_deck_24() -> None:
    """RULES.md §1 Cards, Deck: 24 cards, 9 10 J Q K A of each suit."""
    deck = deck_cards(24)
    assert len(deck) == 24
    assert {str(c) for c in deck} == {r + s for r in RANKS_24 for s in SUITS}
    assert Card.joker() not in deck


def test_deck_32() -> None:
    """RULES.md §1 Cards, Deck: the 32-card variant adds the 7 and 8 of each suit."""
    deck = deck_cards(32)
    assert len(deck) == 32
    assert {str(c) for c in deck} == {r + s for r in ["7", "8", *RANKS_24] for s in SUITS}


def test_deck_25_has_one_joker() -> None:
    """RULES.md §1 Cards, Deck: the 25-card deck is the 24 plus one joker."""
    deck = deck_cards(25)
    assert len(deck) == 25
    assert set(deck) == set(deck_cards(24)) | {Card.joker()}
    assert [c for c in deck if c.is_joker] == [Card.parse("JK")]


def test_no_other_deck() -> None:
    """RULES.md §1 Cards, Deck: only 24, 32 and 25 exist."""
    for size in (0, 20, 28, 33, 52):
        with pytest.raises(CardError):
            deck_mask(size)


def test_mask_roundtrip() -> None:
    """RULES.md §1 Cards: a set of cards survives mask conversion."""
    hand = cards("9C TD KS QD AC")
    assert cards_of(mask_of(hand)) == sorted(hand)
    assert mask_of(deck_cards(25)) == deck_mask(25)


# -- notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9C", "9C"),
        ("9c", "9C"),
        ("td", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("Jh", "JH"),
        ("as", "AS"),
        (" ks ", "KS"),
        ("7c", "7C"),
        ("8S", "8S"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("Jk", "JK"),
    ],
)
def test_card_parse_and_format(text: str, canonical: str) -> None:
    """RULES.md §5 Notation, Cards: input is case-insensitive and accepts 10 for T;
    output is the canonical upper-case form."""
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(canonical) is card


@pytest.mark.parametrize("text", ["", " ", "J", "1H", "11H", "JX", "ZZ", "AHH", "9", "H9", "KK"])
def test_card_parse_errors(text: str) -> None:
    """RULES.md §5 Notation, Cards: anything else is a CardError (a ValueError)."""
    with pytest.raises(CardError):
        Card.parse(text)
    assert issubclass(CardError, ValueError)


def test_card_repr_pastes_back() -> None:
    """RULES.md §5 Notation: a card's repr evaluates back to the same card."""
    for card in [*deck_cards(32), Card.joker()]:
        assert eval(repr(card), {"Card": Card}) is card


def test_card_parts() -> None:
    """RULES.md §1 Cards: printed rank and suit; the joker has neither."""
    jh = Card.parse("JH")
    assert (jh.rank, jh.suit) == (Rank.JACK, Suit.HEARTS)
    assert Card.of(Rank.TEN, Suit.DIAMONDS) is Card.parse("TD")
    joker = Card.joker()
    assert joker.is_joker and joker.suit is None and joker.rank is None
    assert not jh.is_joker


def test_card_is_immutable() -> None:
    """RULES.md §1 Cards: cards are values."""
    with pytest.raises(AttributeError):
        Card.parse("9C").id = 3


@pytest.mark.parametrize(
    ("text", "suit"),
    [("c", Suit.CLUBS), ("D", Suit.DIAMONDS), ("h", Suit.HEARTS), ("S", Suit.SPADES)],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    """RULES.md §5 Notation: suits C D H S, case-insensitive."""
    assert Suit.parse(text) is suit
    assert str(suit) == text.upper()


@pytest.mark.parametrize("text", ["", "X", "CD", "clubs", "1"])
def test_suit_parse_errors(text: str) -> None:
    """RULES.md §5 Notation: other suit text is a CardError."""
    with pytest.raises(CardError):
        Suit.parse(text)


def test_same_colour_suits() -> None:
    """RULES.md §1 Cards: the left bower is the jack of the other suit of trump's colour."""
    assert Suit.HEARTS.partner is Suit.DIAMONDS
    assert Suit.DIAMONDS.partner is Suit.HEARTS
    assert Suit.CLUBS.partner is Suit.SPADES
    assert Suit.SPADES.partner is Suit.CLUBS
    assert [s.is_red for s in Suit] == [False, True, True, False]


# -- trump ranking ---------------------------------------------------------------


def test_trump_ranking_hearts() -> None:
    """RULES.md §1 Cards, Trump ranking: hearts trump, J♥ > J♦ > A♥ > K♥ > Q♥ > 10♥ > 9♥."""
    order = ["JH", "JD", "AH", "KH", "QH", "TH", "9H"]
    for led in SUITS:
        powers = [power(c, "H", led) for c in order]
        assert powers == sorted(powers, reverse=True)
        assert len(set(powers)) == len(powers)


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        ("C", "JK JC JS AC KC QC TC 9C 8C 7C"),
        ("D", "JK JD JH AD KD QD TD 9D 8D 7D"),
        ("H", "JK JH JD AH KH QH TH 9H 8H 7H"),
        ("S", "JK JS JC AS KS QS TS 9S 8S 7S"),
    ],
)
def test_trump_ranking_with_joker_and_32(trump: str, order: str) -> None:
    """RULES.md §1 Cards, Trump ranking: [joker], right bower, left bower, A K Q 10 9 [8 7]."""
    powers = [power(c, trump, led) for led in SUITS for c in order.split()]
    for i in range(len(SUITS)):
        chunk = powers[i * 10 : i * 10 + 10]
        assert chunk == sorted(chunk, reverse=True)
        assert len(set(chunk)) == 10


def test_every_trump_beats_every_other_card() -> None:
    """RULES.md §2 Play: the highest trump wins; the lowest trump beats any non-trump."""
    deck = [*deck_cards(32), Card.joker()]
    for t in Suit:
        trumps = [c for c in deck if c.effective_suit(t) is t]
        others = [c for c in deck if c.effective_suit(t) is not t]
        assert len(trumps) == 10  # the 8 of the suit, the left bower, the joker
        for led in Suit:
            low_trump = min(POWER[t][led][c.id] for c in trumps)
            high_other = max(POWER[t][led][c.id] for c in others)
            assert low_trump > high_other


def test_plain_suit_ranking_and_off_suit_cards() -> None:
    """RULES.md §1 Cards, Other suits: A K Q J 10 9 [8 7]; a card neither trump nor of
    the suit led cannot win."""
    order = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    powers = [power(c, "H", "S") for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 8
    assert power("AC", "H", "S") == 0
    assert power("AD", "H", "S") == 0


def test_same_colour_suit_lacks_its_jack() -> None:
    """RULES.md §1 Cards, Other suits: the suit of trump's colour lacks its jack
    (hearts trump: diamonds are A K Q 10 9)."""
    order = ["AD", "KD", "QD", "TD", "9D"]
    powers = [power(c, "H", "D") for c in order]
    assert powers == sorted(powers, reverse=True)
    assert not in_suit("JD", "H", "D")
    assert in_suit("JD", "H", "H")
    diamonds = cards_of(SUIT_MASK[Suit.HEARTS][Suit.DIAMONDS] & deck_mask(24))
    assert {str(c) for c in diamonds} == {"AD", "KD", "QD", "TD", "9D"}
    hearts = cards_of(SUIT_MASK[Suit.HEARTS][Suit.HEARTS] & deck_mask(25))
    assert {str(c) for c in hearts} == {"JK", "JH", "JD", "AH", "KH", "QH", "TH", "9H"}
    # the other colour is untouched: clubs and spades keep their jacks
    assert in_suit("JC", "H", "C") and in_suit("JS", "H", "S")


def test_effective_suit_of_bowers_and_joker() -> None:
    """RULES.md §1 Cards: the left bower and the joker belong to the trump suit for
    following and leading."""
    jd, jh, joker = Card.parse("JD"), Card.parse("JH"), Card.joker()
    assert jd.effective_suit(Suit.HEARTS) is Suit.HEARTS
    assert jd.effective_suit(Suit.DIAMONDS) is Suit.DIAMONDS
    assert jd.effective_suit(Suit.CLUBS) is Suit.DIAMONDS
    assert jh.effective_suit(Suit.DIAMONDS) is Suit.DIAMONDS
    assert Card.parse("JC").effective_suit(Suit.SPADES) is Suit.SPADES
    assert Card.parse("JS").effective_suit(Suit.CLUBS) is Suit.CLUBS
    for t in Suit:
        assert joker.effective_suit(t) is t
    assert joker.effective_suit(None) is None
    assert jd.effective_suit(None) is Suit.DIAMONDS
