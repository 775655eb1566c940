"""The terminal game, ``euchre play``: you against the bots, drawn with rich.

The screen is a scrolling log. Every bid and card is written as it happens;
when it is your turn the table (score, up-card, trump, the trick in progress,
your numbered hand) is drawn and you are asked for an action.

Everything shown comes from your seat's ``View`` (RULES.md §6): other seats'
cards, the kitty, discards and the dummy (unless you merged it) are never
printed. Bots are asked through ``bots.decide`` with their own views.

The parts, each in its module:

- ``words``: what the player types (``parse_input``, the prompts, commands);
- ``drawing``: ``Drawer``, cards, seats, scores and the table panel as rich text;
- ``narration``: ``Narrator``, what happened, from seat 0's views only;
- ``guide``: ``Guide``, the turn line, ``help`` and ``hint``;
- ``game``: ``TerminalGame`` (the loop, saving, asking the player, owning a
  drawer, a narrator and a guide) and ``play_main``, what the command line calls.
"""

from __future__ import annotations

from .drawing import Drawer, seat_names
from .game import TerminalGame, play_main
from .guide import Guide
from .narration import Narrator
from .words import KEEP_PROMPT, NEXT_PROMPT, PROMPTS, Command, InputError, parse_input

__all__ = [
    "KEEP_PROMPT",
    "NEXT_PROMPT",
    "PROMPTS",
    "Command",
    "Drawer",
    "Guide",
    "InputError",
    "Narrator",
    "TerminalGame",
    "parse_input",
    "play_main",
    "seat_names",
]
