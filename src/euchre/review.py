"""After-the-hand review with the exact solver (all cards seen).

``review_hand(state)`` looks back at a finished hand:

- how many tricks the maker's side could have taken from the first lead with
  every card known and best play by everyone (``could_take``), against what
  it took;
- the first card play where a player's choice cost their side tricks, by the
  solver's count: the card played, the best card, and the tricks lost.

Only card play is judged: bidding and going alone are decisions under hidden
information, which a double-dummy count would misjudge.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .hand import FastHand, HandState
from .solver import Solver

__all__ = ["Mistake", "Review", "play_values", "review_hand"]


@dataclass(frozen=True, slots=True)
class Mistake:
    """A card play that cost its side tricks (with all cards seen)."""

    number: int  #: 1-based action number in the hand's record
    seat: int
    played: Card
    best: Card
    cost: int  #: tricks the player's side lost by this choice


@dataclass(frozen=True, slots=True)
class Review:
    """What the solver says of a finished hand."""

    maker: int
    trump: Suit
    maker_side: tuple[int, ...]  #: the maker and, in partnership, an active partner
    took: int  #: tricks the maker's side took
    could_take: int  #: tricks it could take from the first lead with best play
    first_mistake: Mistake | None

    def summary(self, names: list[str] | None = None) -> str:
        """Two sentences for people."""

        def name(seat: int) -> str:
            return names[seat] if names else f"seat {seat}"

        if len(self.maker_side) == 1:
            who, verb = f"the maker ({name(self.maker)})", "took"
        else:
            who = "the makers (" + " and ".join(name(s) for s in self.maker_side) + ")"
            verb = "took"
        text = (
            f"With all cards seen and best play, {who} could take "
            f"{self.could_take} of 5 tricks; {verb} {self.took}."
        )
        m = self.first_mistake
        if m is None:
            return text + " No card played cost a trick."
        s = "" if m.cost == 1 else "s"
        return (
            text + f" First costly card: {name(m.seat)} played {m.played.pretty()} "
            f"(action {m.number}); {m.best.pretty()} would have kept {m.cost} more trick{s}."
        )


def play_values(h: FastHand) -> dict[int, int]:
    """For each legal card (id) of the seat to act, the maker side's total
    tricks with best play after playing it (``Solver.move_values``)."""
    return Solver(h).move_values()


def review_hand(state: HandState) -> Review | None:
    """Review a finished (or played-out-so-far) hand; None if no card was led
    (thrown in, or still in the bidding)."""
    full = state.fast()
    if full.maker < 0 or (not full.trick_log and not full.trick):
        return None
    h = FastHand.new(state.rules, state.dealer, state.deal)
    for _, code in full.calls:
        h.step(code)
    maker = h.maker
    side = tuple(s for s in range(h.n) if not h.out >> s & 1 and h.on_maker_side(s))
    could = Solver(h).max_tricks()
    mistake = None
    number = len(full.calls)
    for seat, code in full.history[len(full.calls) :]:
        number += 1
        if mistake is None and len(h.legal_codes()) > 1:
            values = play_values(h)
            mine = seat in side
            best_card = (
                max(values, key=values.__getitem__) if mine else min(values, key=values.__getitem__)
            )
            chosen = values[code >> 4]
            cost = (values[best_card] - chosen) if mine else (chosen - values[best_card])
            if cost > 0:
                mistake = Mistake(number, seat, Card(code >> 4), Card(best_card), cost)
        h.step(code)
    took = sum(full.tricks[s] for s in side)
    return Review(maker, Suit(h.trump), side, took, could, mistake)
