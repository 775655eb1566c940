"""Cards, suits, decks and the trump ranking (RULES.md §1, §5).

Cards are small immutable values with a parse/format pair::

    >>> Card.parse("jh")
    Card.parse('JH')
    >>> str(Card.parse("10d"))
    'TD'

Internally every card has an integer id (``suit * 8 + rank``, the joker 32) so
that sets of cards can be bit masks (``1 << id``); the tables at the bottom of
this module give, per trump suit, each card's effective suit and trick-taking
power. The rest of the engine works on those ids and masks.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import ClassVar, Final

__all__ = [
    "EFFECTIVE_SUIT",
    "JOKER_ID",
    "POWER",
    "SUIT_MASK",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "cards_of",
    "deck_cards",
    "deck_mask",
    "effective_suit",
    "ids_of",
    "mask_of",
    "sort_for_display",
]


class CardError(ValueError):
    """A card or suit could not be parsed."""


class Suit(IntEnum):
    """The four suits. ``suit ^ 3`` is the other suit of the same colour."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in notation: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (diamonds, hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (its jack is the left bower)."""
        return Suit(self ^ 3)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (case-insensitive) or symbol; ``str`` gives the letter.

        >>> Suit.parse("h"), str(Suit.parse("♠"))
        (<Suit.HEARTS: 2>, 'S')
        """
        t = text.strip().upper()
        if len(t) == 1:
            if t in "CDHS":
                return cls("CDHS".index(t))
            if t in "♣♦♥♠":
                return cls("♣♦♥♠".index(t))
            if t in "♧♢♡♤":
                return cls("♧♢♡♤".index(t))
        raise CardError(f"not a suit: {text!r} (want one of C, D, H, S)")

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Card ranks in plain (non-trump) order, lowest first."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        """The rank's character in notation: ``7 8 9 T J Q K A``."""
        return "789TJQKA"[self]

    def __str__(self) -> str:
        return self.letter


JOKER_ID: Final = 32
_RANK_TEXT = {"7": 0, "8": 1, "9": 2, "T": 3, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}


class Card:
    """A playing card: one of the 32 suited cards or the joker.

    Cards are interned: there is exactly one object per card, so ``is`` and
    ``==`` agree. ``Card.parse`` reads notation case-insensitively (``10`` for
    ``T``, suit symbols allowed); ``str`` writes the canonical form.
    """

    __slots__ = ("id",)
    id: int
    _all: ClassVar[list[Card]] = []

    def __new__(cls, card_id: int) -> Card:
        if cls._all:
            try:
                return cls._all[card_id]
            except (IndexError, TypeError):
                raise CardError(f"not a card id: {card_id!r}") from None
        obj = object.__new__(cls)  # pragma: no cover - only while building the table
        object.__setattr__(obj, "id", card_id)
        return obj

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return cls._all[int(suit) * 8 + int(rank)]

    @classmethod
    def joker(cls) -> Card:
        """The joker (25-card deck)."""
        return cls._all[JOKER_ID]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card in notation: ``JH``, ``th``, ``10h``, ``9♣``, ``JK``."""
        t = text.strip().upper()
        if t in ("JK", "JOKER"):
            return cls._all[JOKER_ID]
        if len(t) < 2:
            raise CardError(f"not a card: {text!r} (want rank then suit, like JH or 10D)")
        rank = _RANK_TEXT.get(t[:-1])
        if rank is None:
            raise CardError(f"not a card: {text!r} (rank must be one of 7 8 9 T J Q K A)")
        try:
            suit = Suit.parse(t[-1])
        except CardError:
            raise CardError(f"not a card: {text!r} (suit must be one of C D H S)") from None
        return cls._all[suit * 8 + rank]

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker."""
        return self.id == JOKER_ID

    @property
    def suit(self) -> Suit | None:
        """The printed suit (None for the joker). See ``effective_suit`` for play."""
        return None if self.id == JOKER_ID else Suit(self.id >> 3)

    @property
    def rank(self) -> Rank | None:
        """The printed rank (None for the joker)."""
        return None if self.id == JOKER_ID else Rank(self.id & 7)

    @property
    def bit(self) -> int:
        """This card's bit in a card mask."""
        return 1 << self.id

    def effective_suit(self, trump: Suit | None) -> Suit | None:
        """The suit this card belongs to when ``trump`` is trump (bowers, joker)."""
        return effective_suit(self, trump)

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``J♥``, ``10♦``, ``🃏``."""
        if self.id == JOKER_ID:
            return "Jk"
        rank = "10" if self.id & 7 == Rank.TEN else "789TJQKA"[self.id & 7]
        return rank + "♣♦♥♠"[self.id >> 3]

    def __str__(self) -> str:
        if self.id == JOKER_ID:
            return "JK"
        return "789TJQKA"[self.id & 7] + "CDHS"[self.id >> 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.id,))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")


Card._all = [Card(i) for i in range(33)]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c.id
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, in id order."""
    out = []
    allc = Card._all
    while mask:
        low = mask & -mask
        out.append(allc[low.bit_length() - 1])
        mask ^= low
    return out


def ids_of(mask: int) -> list[int]:
    """The card ids of a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_DECK_MASKS: Final = {
    24: sum(1 << (s * 8 + r) for s in range(4) for r in range(2, 8)),
    32: (1 << 32) - 1,
    25: sum(1 << (s * 8 + r) for s in range(4) for r in range(2, 8)) | (1 << JOKER_ID),
}


def deck_mask(size: int) -> int:
    """The bit mask of the 24-, 32- or 25-card (joker) deck."""
    try:
        return _DECK_MASKS[size]
    except KeyError:
        raise CardError(f"no {size}-card deck (want 24, 32 or 25)") from None


def deck_cards(size: int) -> list[Card]:
    """The cards of the 24-, 32- or 25-card deck, in id order."""
    return cards_of(deck_mask(size))


# --- Trump tables --------------------------------------------------------------
#
# EFFECTIVE_SUIT[t][c]: the suit card id c belongs to when t is trump
#   (t == 4 means "no trump yet": printed suit, joker 4).
# SUIT_MASK[t][s]: mask of all card ids whose effective suit is s under trump t.
# POWER[t][led][c]: trick-taking power of card c when t is trump and suit
#   ``led`` was led: trumps 100 + order, cards of the led suit 1 + order, other 0.


def _trump_order(t: int, c: int) -> int:
    """Higher is stronger, only for cards of the trump suit under trump t."""
    if c == JOKER_ID:
        return 20
    s, r = c >> 3, c & 7
    if r == Rank.JACK and s == t:
        return 19
    if r == Rank.JACK and s == t ^ 3:
        return 18
    return 10 + (r if r < Rank.JACK else r - 1)  # A=16 K=15 Q=14 T=13 9=12 8=11 7=10


def _build_tables() -> tuple[list[list[int]], list[list[int]], list[list[list[int]]]]:
    eff: list[list[int]] = []
    smask: list[list[int]] = []
    power: list[list[list[int]]] = []
    for t in range(5):
        row = []
        for c in range(33):
            if t == 4:
                row.append(4 if c == JOKER_ID else c >> 3)
            elif c == JOKER_ID or (c & 7 == Rank.JACK and (c >> 3) == (t ^ 3)):
                row.append(t)
            else:
                row.append(c >> 3)
        eff.append(row)
        smask.append([sum(1 << c for c in range(33) if row[c] == s) for s in range(5)])
        prow = []
        for led in range(5):
            pr = []
            for c in range(33):
                if t < 4 and row[c] == t:
                    pr.append(100 + _trump_order(t, c))
                elif row[c] == led:
                    pr.append(1 + (c & 7))
                else:
                    pr.append(0)
            prow.append(pr)
        power.append(prow)
    return eff, smask, power


EFFECTIVE_SUIT, SUIT_MASK, POWER = _build_tables()


def effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    """The suit ``card`` belongs to for following and leading under ``trump``.

    The left bower and the joker belong to the trump suit; with no trump the
    joker has no suit (None).
    """
    s = EFFECTIVE_SUIT[4 if trump is None else int(trump)][card.id]
    return None if s == 4 else Suit(s)


def display_key(card: Card, trump: Suit | None) -> tuple[int, int]:
    """Sort key for showing a hand: trump first (strongest first), then the
    other suits alternating colours, each strongest first."""
    t = 4 if trump is None else int(trump)
    s = EFFECTIVE_SUIT[t][card.id]
    if t < 4 and s == t:
        return (0, -_trump_order(t, card.id))
    if s == 4:
        return (0, -99)
    order = [0, 1, 3, 2] if t == 4 else [t ^ 1, t ^ 3, t ^ 2]
    pos = order.index(s) + 1 if s in order else 5
    return (pos, -(card.id & 7))


def sort_for_display(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """The cards sorted as a player holds them: trump first, strongest first."""
    return sorted(cards, key=lambda c: display_key(c, trump))
