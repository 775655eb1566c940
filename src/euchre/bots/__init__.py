"""Computer players. Every bot sees only a seat's ``View`` (RULES.md §6).

- ``Bot``: the protocol — ``choose(view, legal) -> Action``.
- ``decide(bot, state, seat, scores)``: ask a bot for its action on a hand,
  handling the Cutthroat maker's two-step choice (alone or merge without
  seeing the dummy; then which five to keep, seeing it).
- ``RandomBot``, ``RuleBot``; ``make_bot(name, seed)`` by name.
"""

from __future__ import annotations

from .base import BOT_NAMES, Bot, decide, make_bot
from .random_bot import RandomBot
from .rule import RuleBot

__all__ = ["BOT_NAMES", "Bot", "RandomBot", "RuleBot", "decide", "make_bot"]
