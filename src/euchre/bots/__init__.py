"""Computer players. Every bot sees only a seat's ``View`` (RULES.md §6).

- ``Bot``: the protocol — ``choose(view, legal) -> Action``.
- ``decide(bot, state, seat, scores)``: ask a bot for its action on a hand
  through the seat's view.
- ``RandomBot``, ``RuleBot``, ``SearchBot`` (levels ``SEARCH_LEVELS``);
  ``make_bot(name, seed)`` by name (``BOT_NAMES`` for players).
- ``CheatBot``: the all-seeing ``StateBot``, for measurement only (named in
  ``ARENA_BOTS``, never in ``BOT_NAMES``); drive it with ``act``.
"""

from __future__ import annotations

from .base import (
    ARENA_BOTS,
    BOT_NAMES,
    SEARCH_LEVELS,
    Bot,
    StateBot,
    act,
    decide,
    make_bot,
)
from .cheat import CheatBot
from .random_bot import RandomBot
from .rule import RuleBot
from .search import SearchBot

__all__ = [
    "ARENA_BOTS",
    "BOT_NAMES",
    "SEARCH_LEVELS",
    "Bot",
    "CheatBot",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "StateBot",
    "act",
    "decide",
    "make_bot",
]
