"""A match: hands until someone reaches the target (RULES.md §2 Winning, §3).

``Match`` is immutable. The dealer passes to the left after every hand
(thrown-in hands included). Scores are per seat; in partnership both partners
carry their side's points. Randomness comes only from the ``rng`` given to
``deal``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .actions import Action
from .hand import Deal, HandState, IllegalActionError
from .rules import Rules
from .view import View

__all__ = ["Match", "MatchOver", "winners_of"]


class MatchOver(IllegalActionError):
    """No hand follows a won match."""


def winners_of(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """The winning seats for these scores at the end of a hand, or ``()``.

    Cutthroat: one seat alone has the highest score and it is at least the
    target (with ``tie="share"``, all seats level at the top share the win).
    Partnership: a side at or over the target (both partners win).
    """
    top = max(scores)
    if top < rules.target:
        return ()
    leaders = tuple(s for s, v in enumerate(scores) if v == top)
    if not rules.cutthroat:
        sides = {s & 1 for s in leaders}
        if len(sides) == 1:
            side = sides.pop()
            return (side, side + 2)
        return () if rules.tie == "play_on" else leaders
    if len(leaders) == 1 or rules.tie == "share":
        return leaders
    return ()


@dataclass(frozen=True, slots=True)
class Match:
    """A match in progress or finished."""

    rules: Rules
    first_dealer: int
    hands: tuple[HandState, ...] = ()
    current: HandState | None = None
    scores: tuple[int, ...] = field(default=())

    @classmethod
    def new(
        cls, rules: Rules, first_dealer: int | None = None, rng: random.Random | None = None
    ) -> Match:
        """A new match; the first dealer is given or drawn with ``rng``."""
        if first_dealer is None:
            if rng is None:
                raise ValueError("give first_dealer or an rng to draw it")
            first_dealer = rng.randrange(rules.seats)
        if not 0 <= first_dealer < rules.seats:
            raise ValueError(f"first_dealer must be a seat from 0 to {rules.seats - 1}")
        return cls(rules, first_dealer, (), None, (0,) * rules.seats)

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand to deal."""
        return (self.first_dealer + len(self.hands)) % self.rules.seats

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the match is won, else ``()``."""
        return winners_of(self.rules, self.scores) if self.hands else ()

    @property
    def is_over(self) -> bool:
        """Whether the match is won."""
        return bool(self.winners)

    @property
    def needs_deal(self) -> bool:
        """Whether the next hand must be dealt."""
        return self.current is None and not self.is_over

    def deal(self, deal: Deal | None = None, rng: random.Random | None = None) -> Match:
        """Start the next hand with ``deal`` or one shuffled by ``rng``."""
        if self.is_over:
            raise MatchOver("the match is over")
        if self.current is not None:
            raise IllegalActionError("a hand is in progress")
        if deal is None:
            if rng is None:
                raise ValueError("give a deal or an rng")
            deal = Deal.random(self.rules, rng)
        hand = HandState(self.rules, self.next_dealer, deal)
        return self.with_hand(hand)

    def with_hand(self, hand: HandState) -> Match:
        """This match with ``hand`` as its current hand (one of this match's
        rules, dealt by ``next_dealer``: not checked); a finished hand is
        scored and moved to ``hands``."""
        if not hand.is_over:
            return replace(self, current=hand)
        result = hand.result
        assert result is not None
        scores = tuple(a + b for a, b in zip(self.scores, result.points, strict=True))
        return replace(self, hands=(*self.hands, hand), current=None, scores=scores)

    def apply(self, action: Action, seat: int | None = None) -> Match:
        """Apply an action to the current hand (a finished hand is scored)."""
        if self.current is None:
            raise (
                MatchOver("the match is over")
                if self.is_over
                else IllegalActionError("no hand in progress: deal first")
            )
        return self.with_hand(self.current.apply(action, seat))

    def view(self, seat: int) -> View:
        """The current hand's view for ``seat`` with the match score."""
        if self.current is None:
            raise IllegalActionError("no hand in progress")
        return View.of(self.current, seat, self.scores)
