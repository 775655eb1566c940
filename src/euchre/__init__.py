"""Cutthroat (three-handed, with a dummy) and partnership Euchre.

The layers, each importing only the ones before it:
cards → rules → actions → hand (state machine) → solver → view → match →
record → review → bots → interfaces (arena, terminal game, web table, command
line); ``tests/test_layers.py`` checks it.

Quick tour::

    >>> import random
    >>> from euchre import Rules, HandState, Action
    >>> state = HandState.deal_random(Rules(), dealer=0, rng=random.Random(1))
    >>> state.to_act, [str(a) for a in state.legal_actions()]
    (1, ['pass', 'order'])
    >>> state = state.apply(Action.parse("pass"))
"""

from .actions import Action, ActionError
from .cards import Card, CardError, Rank, Suit
from .hand import Deal, DealError, FastHand, HandResult, HandState, IllegalActionError, Phase
from .match import Match
from .rules import Rules, RulesError
from .view import View

__all__ = [
    "Action",
    "ActionError",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "FastHand",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "Match",
    "Phase",
    "Rank",
    "Rules",
    "RulesError",
    "Suit",
    "View",
]

__version__ = "0.1.0"
"""The package version, its one source: pyproject.toml reads it (`dynamic = ["version"]`)."""
