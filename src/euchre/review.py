"""After-the-hand review with the exact solver (all cards seen).

``review_hand(state)`` looks back at a finished hand:

- how many tricks the maker's side could have taken from the first lead with
  every card known and best play by everyone (``could_take``), against what
  it took;
- the first card play where a player's choice cost their side tricks, by the
  solver's count: the trick it was in, the card played, the best card, the
  tricks lost and what they were worth in points.

``review_plays(state)`` steps through a finished hand card by card: before
each card played, every hand, the trick so far and the solver's value of each
legal card for the side of the player (the review page of the web table).

Only card play is judged: bidding and going alone are decisions under hidden
information, which a double-dummy count would misjudge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, Suit
from .hand import FastHand, HandState
from .solver import Solver

__all__ = [
    "Mistake",
    "PlayStep",
    "Review",
    "play_values",
    "review_hand",
    "review_json",
    "review_plays",
]

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")


def _count(n: int, word: str) -> str:
    """``one more trick``, ``two more points``: a small count in words."""
    return f"{_NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else n} more {word}{'s' * (n != 1)}"


@dataclass(frozen=True, slots=True)
class Mistake:
    """A card play that cost its side tricks (with all cards seen)."""

    number: int  #: 1-based action number in the hand's record
    seat: int
    played: Card
    best: Card
    cost: int  #: tricks the player's side lost by this choice
    trick: int = 0  #: 1-based number of the trick the card was played to
    points: int = 0  #: points the player lost by it (each, for Cutthroat defenders)
    side: str = "defenders"  #: whose tricks they were: "maker" or "defenders"

    def to_json(self) -> dict[str, Any]:
        """The ``mistake`` of the web table's ``review_facts``."""
        return {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "played": str(self.played),
            "best": str(self.best),
            "cost": self.cost,
            "points": self.points,
            "side": self.side,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """What the solver says of a finished hand."""

    maker: int
    trump: Suit
    maker_side: tuple[int, ...]  #: the maker and, in partnership, an active partner
    took: int  #: tricks the maker's side took
    could_take: int  #: tricks it could take from the first lead with best play
    first_mistake: Mistake | None
    team: bool = False  #: partnership: the makers are a team (even one playing alone)

    def summary(self, names: list[str] | None = None) -> str:
        """A few sentences for people: what best play could take, and the
        first costly card (trick, player, card, the better card, who lost
        how many tricks and points)."""

        def name(seat: int) -> str:
            return names[seat] if names else f"seat {seat}"

        if not self.team:
            who = f"the maker ({name(self.maker)})"
        else:
            who = "the makers (" + " and ".join(name(s) for s in self.maker_side) + ")"
        text = (
            f"With all cards seen and best play, {who} could take "
            f"{self.could_take} of 5 tricks; took {self.took}."
        )
        m = self.first_mistake
        if m is None:
            return text + " No card played cost a trick."
        if m.side == "maker":
            gainer = "the makers" if self.team else "the maker"
        else:
            gainer = "the defenders"
        worth = f", {_count(m.points, 'point')}" if m.points else " (no change in points)"
        return (
            text + f" Trick {m.trick}: {name(m.seat)} played {m.played.pretty()}; "
            f"{m.best.pretty()} would have won {_count(m.cost, 'trick')} for {gainer}{worth}."
        )

    def to_json(self) -> dict[str, Any]:
        """The web table's ``review_facts`` (docs/protocol.md): the page says
        them in its own language."""
        return {
            "maker": self.maker,
            "trump": self.trump.letter,
            "maker_side": list(self.maker_side),
            "team": self.team,
            "took": self.took,
            "could_take": self.could_take,
            "mistake": None if self.first_mistake is None else self.first_mistake.to_json(),
        }


def play_values(h: FastHand) -> dict[int, int]:
    """For each legal card (id) of the seat to act, the maker side's total
    tricks with best play after playing it (``Solver.move_values``)."""
    return Solver(h).move_values()


def _first_lead(state: HandState) -> FastHand:
    """The hand replayed to its first lead (the calls made)."""
    h = FastHand.new(state.rules, state.dealer, state.deal)
    for _, code in state.fast().calls:
        h.step(code)
    return h


def review_hand(state: HandState) -> Review | None:
    """Review a finished (or played-out-so-far) hand; None if no card was led
    (thrown in, or still in the bidding)."""
    full = state.fast()
    if full.maker < 0 or (not full.trick_log and not full.trick):
        return None
    h = _first_lead(state)
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
                points = h.points_for(values[best_card])[seat] - h.points_for(chosen)[seat]
                mistake = Mistake(
                    number,
                    seat,
                    Card(code >> 4),
                    Card(best_card),
                    cost,
                    trick=len(h.trick_log) + 1,
                    points=points,
                    side="maker" if mine else "defenders",
                )
        h.step(code)
    took = sum(full.tricks[s] for s in side)
    return Review(maker, Suit(h.trump), side, took, could, mistake, team=not h.cut)


# -- card by card ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One card played, with what the solver says of each card its player
    could have played instead (all cards seen)."""

    number: int  #: 1-based action number in the hand's record
    trick: int  #: 1-based trick number
    seat: int
    played: Card
    side: str  #: the player's side: "maker" or "defenders"
    hands: tuple[tuple[Card, ...], ...]  #: every seat's cards before the play
    table: tuple[tuple[int, Card], ...]  #: the trick so far: (seat, card)
    tricks_won: tuple[int, ...]  #: each seat's tricks before the play
    #: each legal card and the tricks the player's side takes with best play after it
    values: tuple[tuple[Card, int], ...]
    won_by: int | None  #: the trick's winner when this card completes it

    @property
    def best(self) -> int:
        """The most tricks the player's side can take from here."""
        return max(v for _, v in self.values)

    def to_json(self) -> dict[str, Any]:
        """One entry of ``plays`` in the ``POST /api/review`` answer."""
        best = self.best
        return {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "played": str(self.played),
            "side": self.side,
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "table": [[s, str(c)] for s, c in self.table],
            "tricks_won": list(self.tricks_won),
            "values": [
                {"card": str(c), "tricks": v, "loss": best - v}
                for c, v in sorted(self.values, key=lambda cv: (-cv[1], cv[0].id))
            ],
            "won_by": self.won_by,
        }


def _cards_of(mask: int) -> tuple[Card, ...]:
    return tuple(Card(c) for c in range(33) if mask >> c & 1)


def review_plays(state: HandState) -> list[PlayStep]:
    """Every card played in ``state`` (finished or not), each with the solver's
    value of every legal card for its player's side (empty if none was played)."""
    full = state.fast()
    if full.maker < 0 or (not full.trick_log and not full.trick):
        return []
    h = _first_lead(state)
    steps = []
    number = len(full.calls)
    for seat, code in full.history[len(full.calls) :]:
        number += 1
        mine = h.on_maker_side(seat)
        values = play_values(h)
        leader = h.leader
        table = []
        s = leader
        for c in h.trick:
            table.append((s, Card(c)))
            s = h.next_active(s)
        hands = tuple(_cards_of(m) for m in h.hands)
        before = tuple(h.tricks)
        trick = len(h.trick_log) + 1
        h.step(code)
        won_by = h.trick_log[-1][2] if len(h.trick_log) == trick else None
        steps.append(
            PlayStep(
                number=number,
                trick=trick,
                seat=seat,
                played=Card(code >> 4),
                side="maker" if mine else "defenders",
                hands=hands,
                table=tuple(table),
                tricks_won=before,
                values=tuple((Card(c), v if mine else 5 - v) for c, v in sorted(values.items())),
                won_by=won_by,
            )
        )
    return steps


def review_json(state: HandState) -> dict[str, Any]:
    """The ``POST /api/review`` answer for a finished hand (docs/protocol.md):
    its result, its calls, the review (as facts and as English text) and every
    card played with the solver's value of each legal card."""
    review = review_hand(state)
    result = state.result
    calls = state.history[: len(state.fast().calls)]
    return {
        "variant": state.rules.variant,
        "seats": state.rules.seats,
        "dealer": state.dealer,
        "sitting_out": list(state.sitting_out),
        "result": None if result is None else result.to_json(),
        "calls": [
            {"number": i, "seat": seat, "action": str(action)}
            for i, (seat, action) in enumerate(calls, 1)
        ],
        "review": None if review is None else review.to_json(),
        "summary": None if review is None else review.summary(),
        "plays": [step.to_json() for step in review_plays(state)],
    }
