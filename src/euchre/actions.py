"""Typed actions and their text form (RULES.md §5).

An ``Action`` is an immutable value with a parse/format pair::

    >>> Action.parse("Play 10h")
    Action.parse('play TH')
    >>> str(Action.keep([Card.parse(c) for c in "JH JD AH KH TC".split()]))
    'keep TC JD JH KH AH'

Inside, an action is one integer ``code`` (``kind | argument << 4``) which the
fast engine core uses directly; the argument is a suit, a card id or a card
mask (``keep``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import Card, CardError, Suit, cards_of, mask_of

__all__ = [
    "ALONE",
    "CALL",
    "DECLINE",
    "KEEP",
    "KIND_NAMES",
    "MERGE",
    "ORDER",
    "PASS",
    "PICKUP",
    "PLAY",
    "Action",
    "ActionError",
    "format_seat_action",
    "parse_seat_action",
]

PASS: Final = 0
ORDER: Final = 1
CALL: Final = 2
PICKUP: Final = 3
DECLINE: Final = 4
ALONE: Final = 5
KEEP: Final = 6
PLAY: Final = 7
MERGE: Final = 8
KIND_NAMES: Final = (
    "pass", "order", "call", "pickup", "decline", "alone", "keep", "play", "keep",
)  # fmt: skip
_KIND_BY_NAME: Final = {name: i for i, name in enumerate(KIND_NAMES[:8])}


#: One ``Action`` object per code (``keep`` actions excepted: too many).
_INTERNED: dict[int, Action] = {}
#: The text of each interned action, once written.
_TEXT: dict[int, str] = {}


class ActionError(ValueError):
    """An action's text is not valid notation (syntax, not legality)."""


class Action:
    """One decision of a player: ``pass``, ``order``, ``call S``, ``pickup C``,
    ``decline``, ``alone``, ``keep C1 C2 C3 C4 C5`` or ``play C``."""

    __slots__ = ("code",)
    code: int

    def __new__(cls, code: int) -> Action:
        """An action from its integer code (see ``code``); checked. Actions
        other than ``keep`` are interned (one object per code)."""
        if type(code) is int:
            cached = _INTERNED.get(code)
            if cached is not None:
                return cached
        if type(code) is not int or code < 0:
            raise ActionError(f"not an action code: {code!r}")
        kind, arg = code & 15, code >> 4
        if kind == CALL:
            ok = arg < 4
        elif kind in (PICKUP, PLAY):
            ok = arg <= 32
        elif kind == KEEP:
            ok = arg.bit_count() == 5 and arg < 1 << 33
        else:
            ok = kind <= MERGE and arg == 0
        if not ok:
            raise ActionError(f"not an action code: {code!r}")
        self = object.__new__(cls)
        object.__setattr__(self, "code", code)
        if kind != KEEP:
            _INTERNED[code] = self
        return self

    # -- constructors -------------------------------------------------------
    @classmethod
    def pass_(cls) -> Action:
        """``pass``."""
        return cls(PASS)

    @classmethod
    def order(cls) -> Action:
        """``order``: round one, make the up-card's suit trump."""
        return cls(ORDER)

    @classmethod
    def call(cls, suit: Suit) -> Action:
        """``call S``: round two, name a suit."""
        return cls(CALL | int(suit) << 4)

    @classmethod
    def pickup(cls, discard: Card) -> Action:
        """``pickup C``: the dealer takes the up-card and discards ``discard``."""
        return cls(PICKUP | discard.id << 4)

    @classmethod
    def decline(cls) -> Action:
        """``decline``: the dealer leaves the up-card."""
        return cls(DECLINE)

    @classmethod
    def alone(cls) -> Action:
        """``alone``: go alone."""
        return cls(ALONE)

    @classmethod
    def keep(cls, cards: Iterable[Card]) -> Action:
        """``keep ...``: the Cutthroat maker merges the dummy and keeps five."""
        cards = list(cards)
        m = mask_of(cards)
        if len(cards) != 5 or m.bit_count() != 5:
            raise ActionError("keep needs five different cards")
        return cls(KEEP | m << 4)

    @classmethod
    def merge(cls) -> Action:
        """Bare ``keep``: the Cutthroat maker's choice to merge the dummy, made
        before seeing it (RULES.md §2); the five cards are chosen next. It is
        an intent for interfaces and bots, never a record line."""
        return cls(MERGE)

    @classmethod
    def play(cls, card: Card) -> Action:
        """``play C``."""
        return cls(PLAY | card.id << 4)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action's text (case-insensitive, ``10`` for ``T``)."""
        if not isinstance(text, str):
            raise ActionError(f"an action must be text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise ActionError("empty action")
        kind = _KIND_BY_NAME.get(words[0].lower())
        if kind is None:
            raise ActionError(
                f"unknown action {words[0]!r} (want one of {', '.join(KIND_NAMES[:8])})"
            )
        args = words[1:]
        want = {CALL: 1, PICKUP: 1, PLAY: 1, KEEP: 5}.get(kind, 0)
        if kind == KEEP and not args:
            return cls(MERGE)
        if len(args) != want:
            what = {0: "no argument", 1: "one argument", 5: "five cards (or none)"}[want]
            raise ActionError(f"{KIND_NAMES[kind]} takes {what}, got {len(args)}")
        try:
            if kind == CALL:
                return cls.call(Suit.parse(args[0]))
            if kind in (PICKUP, PLAY):
                card = Card.parse(args[0])
                return cls(kind | card.id << 4)
            if kind == KEEP:
                return cls.keep(Card.parse(a) for a in args)
        except CardError as e:
            raise ActionError(str(e)) from None
        return cls(kind)

    # -- accessors -----------------------------------------------------------
    @property
    def kind(self) -> str:
        """The action word: ``pass``, ``order``, ``call``, ... (``keep`` for
        both a full keep and the bare merge intent)."""
        return KIND_NAMES[self.code & 15]

    @property
    def is_merge(self) -> bool:
        """Whether this is the bare ``keep`` (merge intent, no cards)."""
        return self.code == MERGE

    @property
    def suit(self) -> Suit | None:
        """The suit named by ``call``."""
        return Suit(self.code >> 4) if self.code & 15 == CALL else None

    @property
    def card(self) -> Card | None:
        """The card of ``play`` or the discard of ``pickup``."""
        return Card(self.code >> 4) if self.code & 15 in (PLAY, PICKUP) else None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The five cards kept by ``keep`` (in id order), else empty."""
        return tuple(cards_of(self.code >> 4)) if self.code & 15 == KEEP else ()

    def __str__(self) -> str:
        text = _TEXT.get(self.code)
        if text is not None:
            return text
        k = self.code & 15
        arg = self.code >> 4
        if k != KEEP:
            text = self._text(k, arg)
            _TEXT[self.code] = text
            return text
        return self._text(k, arg)

    @staticmethod
    def _text(k: int, arg: int) -> str:
        if k == CALL:
            return "call " + "CDHS"[arg]
        if k in (PICKUP, PLAY):
            return f"{KIND_NAMES[k]} {Card(arg)}"
        if k == KEEP:
            return "keep " + " ".join(str(c) for c in cards_of(arg))
        return KIND_NAMES[k]

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: Action) -> bool:
        return str(self) < str(other)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[type[Action], tuple[int]]:
        return (Action, (self.code,))


def parse_seat_action(text: str) -> tuple[int, Action]:
    """Parse a record line ``SEAT ACTION``; ``format_seat_action`` writes it.

    >>> seat, action = parse_seat_action("2 play jh")
    >>> seat, action, format_seat_action(seat, action)
    (2, Action.parse('play JH'), '2 play JH')
    """
    if not isinstance(text, str):
        raise ActionError(f"an action must be a string like '1 pass', not {type(text).__name__}")
    head, _, rest = text.strip().partition(" ")
    if not (head.isascii() and head.isdigit()):
        raise ActionError(f"an action must start with the seat number, like '1 pass': {text!r}")
    return int(head), Action.parse(rest)


def format_seat_action(seat: int, action: Action) -> str:
    """Write a record line ``SEAT ACTION``."""
    return f"{seat} {action}"
