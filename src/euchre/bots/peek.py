"""The partner-peeking search bot (``peek:LEVEL``, ``peek:LEVEL:PART``):
for measurement only, never offered to players.

A ``StateBot`` for partnership: it is the search bot at ``LEVEL`` in every
way but one — in the card play, the deals it judges its cards on give its
partner what the bot is shown of the partner's true hand
(``SearchBot.reveal``), as if it saw it; the opponents' hands stay unknown,
and its calls are the search bot's own. ``PART`` (``PEEK_PARTS``) says
what it is shown:

- ``hand`` (the bare ``peek:LEVEL``): the partner's whole hand;
- ``trumps``: which trumps the partner holds (and so how many), nothing
  of its other cards;
- ``top``: which of the top cards (the two bowers, the four aces and the
  joker, when in the deck) the partner holds;
- ``suits``: the suits the partner has no card of, nothing of the cards
  in the others.

It measures what the partner's hand, or a part of it, is worth to the
search's card play: an upper bound for any better inference of it, and
for any signal between partners that would tell that part, signals being
free here and exact (docs/strength.md, "The partner's hand" and "What a
signal between partners could tell"). It needs the compiled core, and
refuses Cutthroat, which has no partner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..actions import Action
from ..cards import SUIT_MASK, Rank, deck_cards, deck_mask, mask_of
from ..hand import HandState, Phase
from ..view import View
from .base import decide
from .search import SearchBot

__all__ = ["PEEK_PARTS", "PeekBot"]

#: What a peek bot may be shown of its partner's hand (see the module's text).
PEEK_PARTS: Final = ("hand", "trumps", "top", "suits")


class PeekBot:
    """The search bot at ``level``, shown ``part`` (``PEEK_PARTS``) of its
    partner's hand in the card play."""

    def __init__(
        self, rng: random.Random | None = None, level: str = "hard", part: str = "hand"
    ) -> None:
        if part not in PEEK_PARTS:
            raise ValueError(f"peek part {part!r}: want one of {', '.join(PEEK_PARTS)}")
        #: the search bot that decides (its ``reveal`` is set for each card play)
        self.search = SearchBot(rng, level=level, compiled_core=True)
        #: what of the partner's hand it is shown (``PEEK_PARTS``)
        self.part = part
        self.name = f"peek:{level}" if part == "hand" else f"peek:{level}:{part}"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Refused: the peek bot needs the full state (drive it with ``act``)."""
        raise TypeError("the peek bot looks at its partner's hand: drive it with bots.act")

    def shown(self, state: HandState, seat: int) -> dict[int, int | tuple[int, int]]:
        """What ``seat`` is shown of its partner's current hand in the card
        play of ``state`` (a ``SearchBot.reveal``): the partner's card mask
        for ``hand``, else the pair (the partner's cards among those the
        part speaks of, those cards)."""
        partner = (seat + 2) % 4
        held = mask_of(state.hand(partner))
        if self.part == "hand":
            return {partner: held}
        trump = state.trump
        assert trump is not None, "the card play has a trump"
        deck = deck_mask(state.rules.deck)
        by_suit = [SUIT_MASK[int(trump)][s] & deck for s in range(4)]
        if self.part == "trumps":
            about = by_suit[int(trump)]
        elif self.part == "top":
            about = mask_of(
                c
                for c in deck_cards(state.rules.deck)
                if c.is_joker
                or c.rank == Rank.ACE
                or (c.rank == Rank.JACK and c.effective_suit(trump) == trump)
            )
        else:  # suits: the suits it holds no card of
            about = 0
            for suit_cards in by_suit:
                if not held & suit_cards:
                    about |= suit_cards
        return {partner: (held & about, about)}

    def choose_state(
        self, state: HandState, seat: int, scores: Sequence[int] | None = None
    ) -> Action:
        """The search bot's action for ``seat``; a card play is also shown
        its part of the partner's current hand."""
        if state.rules.cutthroat:
            raise ValueError("peek bots play partnership only (Cutthroat has no partner)")
        if state.phase != Phase.PLAY:
            return decide(self.search, state, seat, scores)
        self.search.reveal = self.shown(state, seat)
        try:
            return decide(self.search, state, seat, scores)
        finally:
            self.search.reveal = None
