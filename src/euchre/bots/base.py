"""The bot protocol and the driver that asks a bot for an action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..hand import HandState, IllegalActionError
from ..view import View

__all__ = [
    "ARENA_BOTS",
    "BOT_NAMES",
    "SEARCH_LEVELS",
    "Bot",
    "StateBot",
    "act",
    "decide",
    "make_bot",
]


@runtime_checkable
class Bot(Protocol):
    """A computer player: given what its seat may see and the legal actions,
    return one of them. A bot must not keep or use anything but the views it
    was given (and its own random generator)."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` for ``view.seat``."""
        ...


def decide(bot: Bot, state: HandState, seat: int, scores: Sequence[int] | None = None) -> Action:
    """Ask ``bot`` for ``seat``'s action on ``state`` through the seat's view
    (``View.of``: never the full state). The result is a legal action of the
    state's phase (the Cutthroat maker answers phase ``MAKER`` with ``alone``
    or the merge, and phase ``KEEP`` with the five cards, on views that show
    the dummy only after the merge)."""
    if state.to_act != seat:
        raise IllegalActionError(f"it is not seat {seat}'s turn")
    view = View.of(state, seat, scores)
    action = bot.choose(view, view.legal)
    if action not in view.legal:
        raise IllegalActionError(f"bot {bot.name} chose an illegal action: {action}")
    return action


@runtime_checkable
class StateBot(Protocol):
    """A measuring bot that is given the full state (the all-seeing ``cheat``
    bot). Never offered to players; only the arena uses it."""

    name: str

    def choose_state(self, state: HandState, seat: int, scores: Sequence[int] | None) -> Action:
        """Pick a legal action for ``seat`` seeing every card."""
        ...


def act(
    bot: Bot | StateBot, state: HandState, seat: int, scores: Sequence[int] | None = None
) -> Action:
    """``decide`` for a view bot; the full state for a ``StateBot``."""
    if isinstance(bot, StateBot):
        action = bot.choose_state(state, seat, scores)
        if not state.is_legal(action):
            raise IllegalActionError(f"bot {bot.name} chose an illegal action: {action}")
        return action
    return decide(bot, state, seat, scores)


#: The bots offered to players (``euchre play --bots``); ``search`` is the
#: search bot at its default level (hard).
BOT_NAMES = ("random", "rule", "search")

#: The levels of the search bot, weakest first; ``search:LEVEL`` names one.
SEARCH_LEVELS = ("easy", "medium", "hard", "expert")

#: Every name ``make_bot`` knows, for measurement (the arena): the player
#: bots, each search level, and the all-seeing ``cheat`` (never offered to
#: players: it looks at every card).
ARENA_BOTS = (*BOT_NAMES, *(f"search:{lv}" for lv in SEARCH_LEVELS), "cheat")


def make_bot(name: str, seed: int | None = None, level: str | None = None) -> Bot:
    """A bot by name with its own seeded generator: ``random``, ``rule``,
    ``search`` (``level`` one of ``SEARCH_LEVELS``, default ``hard``; or the
    name ``search:LEVEL``), or ``cheat`` (measurement only: a ``StateBot``
    that must be driven with ``act``; its ``choose`` refuses a bare view)."""
    from .cheat import CheatBot
    from .random_bot import RandomBot
    from .rule import RuleBot
    from .search import SearchBot

    rng = random.Random(seed)
    base, _, suffix = name.partition(":")
    if suffix and base != "search":
        raise ValueError(f"unknown bot {name!r} (want one of {', '.join(ARENA_BOTS)})")
    if base == "search":
        lv = suffix or level or "hard"
        if lv not in SEARCH_LEVELS:
            raise ValueError(
                f"unknown search level {lv!r} (want one of {', '.join(SEARCH_LEVELS)})"
            )
        return SearchBot(rng, level=lv, name=name if suffix or level is None else f"search:{lv}")
    if level is not None:
        raise ValueError(f"bot {name!r} has no levels")
    if name == "random":
        return RandomBot(rng)
    if name == "rule":
        return RuleBot(rng)
    if name == "cheat":
        return CheatBot(rng)
    raise ValueError(f"unknown bot {name!r} (want one of {', '.join(BOT_NAMES)})")
