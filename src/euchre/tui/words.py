"""What the player types: the prompts, the words of each action and command,
and ``parse_input`` turning one typed line into an ``Action`` or a ``Command``.

Nothing here knows the state of the game beyond the phase and the cards as
numbered on screen; whether an action is legal now is the engine's question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..actions import Action, ActionError
from ..cards import Card, CardError, Suit
from ..hand import Phase

__all__ = [
    "COMMANDS",
    "KEEP_PROMPT",
    "NEXT_PROMPT",
    "PROMPTS",
    "SUIT_NAMES",
    "Command",
    "InputError",
    "parse_input",
]

#: The suits' names, by ``Suit`` value (clubs, diamonds, hearts, spades).
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

KEEP_PROMPT: Final = "keep> "
#: Prompts handed to the input function, one per kind of question.
PROMPTS: Final = {
    Phase.JOKER_CALL: "joker> ",
    Phase.BID1: "bid> ",
    Phase.PICKUP: "discard> ",
    Phase.BID2: "bid> ",
    Phase.MAKER: "alone or merge> ",
    Phase.KEEP: KEEP_PROMPT,
    Phase.ALONE: "alone> ",
    Phase.PLAY: "play> ",
}
NEXT_PROMPT: Final = "next hand> "


class InputError(ValueError):
    """What the player typed is not an action or a command; ``str`` says why."""


@dataclass(frozen=True, slots=True)
class Command:
    """A word that is not a game action: ``help``, ``score``, ``show``, ``quit``."""

    name: str


#: Each word for a command (lower case) → the command's name.
COMMANDS: Final = {
    "help": "help",
    "?": "help",
    "score": "score",
    "scores": "score",
    "show": "show",
    "table": "show",
    "look": "show",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "hint": "hint",
    "suggest": "hint",
    "h?": "hint",
}
_PASS_WORDS: Final = frozenset({"pass", "p"})
_ORDER_WORDS: Final = frozenset(
    {"order", "order up", "order it up", "assist", "accept", "pick it up", "pick up", "up"}
)
_DECLINE_WORDS: Final = frozenset({"decline", "leave", "leave it"})
_ALONE_WORDS: Final = frozenset({"alone", "go alone"})
_MERGE_WORDS: Final = frozenset(
    {"merge", "m", "dummy", "merge dummy", "merge the dummy", "take the dummy", "keep"}
)


def _suit_words() -> dict[str, Suit]:
    words: dict[str, Suit] = {}
    for s in Suit:
        name = SUIT_NAMES[s]
        for w in (s.letter.lower(), name, name[:-1], s.symbol, "♧♢♡♤"[s]):
            words[w] = s
    return words


_SUIT_WORDS: Final = _suit_words()


def _card_arg(token: str, choices: Sequence[Card | None]) -> Card:
    """A card named by notation or by its number in ``choices`` (1-based)."""
    if _is_number(token):
        n = int(token)
        card = choices[n - 1] if 1 <= n <= len(choices) else None
        if card is not None:
            return card
        numbers = [i for i, c in enumerate(choices, 1) if c is not None]
        if not numbers:
            raise InputError(f"no card number {n}: you have no cards to choose from")
        if numbers == list(range(1, len(numbers) + 1)):
            which = f"1 to {len(numbers)}"
        else:
            which = ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}"
        if 1 <= n <= len(choices):
            raise InputError(f"card {n} is played already: choose {which}")
        raise InputError(f"no card number {n}: choose {which}")
    try:
        return Card.parse(token)
    except CardError:
        raise InputError(
            f"{token!r} is not a card or a card number (cards look like JH, 10d, as)"
        ) from None


def _keep_arg(tokens: Sequence[str], choices: Sequence[Card | None]) -> Action:
    if len(tokens) != 5:
        raise InputError(f"keep exactly five cards, not {len(tokens)} (e.g. keep 1 2 3 4 5)")
    cards = [_card_arg(t, choices) for t in tokens]
    try:
        return Action.keep(cards)
    except ActionError:
        raise InputError("keep five different cards") from None


def parse_input(text: str, phase: Phase, choices: Sequence[Card | None]) -> Action | Command:
    """Read one line typed by the player.

    ``choices`` are the cards as numbered on screen (``1`` is the first;
    ``None`` for the number of a card already played);
    ``phase`` decides what a bare card means (the discard when picking up,
    else the card to play; in phase ``KEEP``, the Cutthroat maker choosing five
    cards of ten, a line of five cards is the ``keep``). Raises
    ``InputError`` with the reason for anything else. Whether the action is
    legal now is not checked here.

    >>> parse_input("Order it up", Phase.BID1, [])
    Action.parse('order')
    >>> parse_input("discard 2", Phase.PICKUP, [Card.parse("9C"), Card.parse("JH")])
    Action.parse('pickup JH')
    >>> parse_input("?", Phase.PLAY, [])
    Command(name='help')
    """
    keep_step = phase is Phase.KEEP
    t = " ".join(text.replace(",", " ").split()).lower()
    if not t:
        raise InputError("type an action, or help to see the choices")
    if t in COMMANDS:
        return Command(COMMANDS[t])
    if t in _PASS_WORDS:
        return Action.pass_()
    if t in _DECLINE_WORDS:
        return Action.decline()
    if t in _ALONE_WORDS:
        return Action.alone()
    if t in _MERGE_WORDS and not keep_step:
        return Action.merge()
    if t in _ORDER_WORDS:
        return Action.order()
    if t in _SUIT_WORDS:
        return Action.call(_SUIT_WORDS[t])
    words = t.split()
    head, args = words[0], words[1:]
    if head == "call":
        if len(args) != 1 or args[0] not in _SUIT_WORDS:
            raise InputError("call which suit? e.g. call hearts, call s")
        return Action.call(_SUIT_WORDS[args[0]])
    if t in ("pickup", "discard"):
        raise InputError("discard which card? e.g. discard 3, discard 9c")
    if t.startswith("pick up ") or t.startswith("pickup ") or head == "discard":
        rest = t.removeprefix("pick up ").removeprefix("pickup ").removeprefix("discard ")
        rest = rest.removeprefix("and discard ")
        if len(rest.split()) != 1:
            raise InputError("discard which card? e.g. discard 3, discard 9c")
        return Action.pickup(_card_arg(rest, choices))
    if head == "play":
        if len(args) != 1:
            raise InputError("play which card? e.g. play 2, play 10h")
        return Action.play(_card_arg(args[0], choices))
    if head == "keep":
        return _keep_arg(args, choices)
    if keep_step:
        return _keep_arg(words, choices)
    if len(words) == 1 and (_is_number(head) or _looks_like_card(head)):
        card = _card_arg(head, choices)
        return Action.pickup(card) if phase is Phase.PICKUP else Action.play(card)
    raise InputError(f"don't understand {text.strip()!r}; type help to see the choices")


def _is_number(token: str) -> bool:
    return token.isascii() and token.isdigit()


def _looks_like_card(token: str) -> bool:
    try:
        Card.parse(token)
    except CardError:
        return False
    return True
