"""The partner-peeking search bot (``peek:LEVEL``): for measurement only,
never offered to players.

A ``StateBot`` for partnership: it is the search bot at ``LEVEL`` in every
way but one — in the card play, the deals it judges its cards on give its
partner the partner's true cards (``SearchBot.reveal``), as if it saw
them; the opponents' hands stay unknown, and its calls are the search
bot's own. It measures what the partner's hand is worth to the search's
card play: an upper bound for any better inference of it (docs/strength.md,
"The partner's hand"). It needs the compiled core, and refuses Cutthroat,
which has no partner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..cards import mask_of
from ..hand import HandState, Phase
from ..view import View
from .base import decide
from .search import SearchBot

__all__ = ["PeekBot"]


class PeekBot:
    """The search bot at ``level``, shown its partner's hand in the card play."""

    def __init__(self, rng: random.Random | None = None, level: str = "hard") -> None:
        #: the search bot that decides (its ``reveal`` is set for each card play)
        self.search = SearchBot(rng, level=level, compiled_core=True)
        self.name = f"peek:{level}"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Refused: the peek bot needs the full state (drive it with ``act``)."""
        raise TypeError("the peek bot looks at its partner's hand: drive it with bots.act")

    def choose_state(
        self, state: HandState, seat: int, scores: Sequence[int] | None = None
    ) -> Action:
        """The search bot's action for ``seat``; a card play also sees the
        partner's current hand."""
        if state.rules.cutthroat:
            raise ValueError("peek bots play partnership only (Cutthroat has no partner)")
        if state.phase != Phase.PLAY:
            return decide(self.search, state, seat, scores)
        partner = (seat + 2) % 4
        self.search.reveal = {partner: mask_of(state.hand(partner))}
        try:
            return decide(self.search, state, seat, scores)
        finally:
            self.search.reveal = None
