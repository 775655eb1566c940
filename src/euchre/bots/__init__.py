"""Computer players. Every bot sees only a seat's ``View`` (RULES.md §6).

- ``Bot``: the protocol — ``choose(view, legal) -> Action``.
- ``decide(bot, state, seat, scores)``: ask a bot for its action on a hand
  through the seat's view; ``hand_over(bot, state, seat)``: show a bot that
  learns across a match (``Learner``) the finished hand, through its view.
- ``RandomBot``, ``RuleBot``, ``SearchBot`` (levels ``SEARCH_LEVELS``);
  ``make_bot(name, seed)`` by name (``BOT_NAMES`` for players), in
  ``registry`` with the default levels: ``DEFAULT_LEVEL`` where a player
  chose none, ``NAMED_SEARCH_LEVEL`` for the bare name ``search``.
- ``CheatBot``: the all-seeing ``StateBot``, for measurement only (named in
  ``ARENA_BOTS``, never in ``BOT_NAMES``); drive it with ``act``.
- ``PeekBot``: the search bot shown its partner's hand in the card play
  (``peek:LEVEL``, partnership), or a part of it (``peek:LEVEL:PART``,
  ``PEEK_PARTS``), a ``StateBot`` for measurement only.
- ``RULE_STYLES``: the arena's ``rule:bold`` and ``rule:timid``, rule bots
  that call unlike the search bot's model of the others (measurement only).
"""

from __future__ import annotations

from .base import Bot, Learner, StateBot, act, decide, hand_over
from .cheat import CheatBot
from .peek import PEEK_PARTS, PeekBot
from .random_bot import RandomBot
from .registry import (
    ARENA_BOTS,
    BOT_NAMES,
    DEFAULT_LEVEL,
    NAMED_SEARCH_LEVEL,
    RULE_STYLES,
    SEARCH_LEVELS,
    make_bot,
)
from .rule import RuleBot
from .search import SearchBot

__all__ = [
    "ARENA_BOTS",
    "BOT_NAMES",
    "DEFAULT_LEVEL",
    "NAMED_SEARCH_LEVEL",
    "PEEK_PARTS",
    "RULE_STYLES",
    "SEARCH_LEVELS",
    "Bot",
    "CheatBot",
    "Learner",
    "PeekBot",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "StateBot",
    "act",
    "decide",
    "hand_over",
    "make_bot",
]
