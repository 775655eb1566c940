"""The all-seeing bot (``cheat``): for measurement only, never offered to players.

A ``StateBot``: it is given the full ``HandState`` and looks at every card.
It gives an upper reference for the arena ("how much is there to gain?").

- **Card play**: the exact double-dummy solver on the true deal; each legal
  card is scored by the utility (``scoring.utility``: own points minus the
  others' average in Cutthroat, side minus side in partnership, with the
  match-winning bonus) of the maker side's tricks after it; ties go to more
  tricks for its side, then to the lower card.
- **Decisions before the play** (joker call, bids, pick-up and discard,
  alone, the Cutthroat maker's alone or keep-five): each candidate is applied
  to the true deal, the remaining decisions before the play follow the rule
  bot for every seat (with ``search.greedy_keep`` for a merging Cutthroat
  maker), and the card play from there is solved double-dummy on the true
  deal. The keep-five candidates are filtered to the best few by
  ``rule.strength`` as in the search bot.

``cheat:br`` (``CheatBot(best_response=True)``) plays its cards instead by
the *all-seeing best response* to rule-bot opponents: each card is scored by
``search.best_response_tricks`` on the true deal (its side then chooses
every card seeing the deal, the other seats play the rule bot's cards).
Against rule bots that is the most any card play can take on the deal once
the calls are made, more than the double-dummy play, which assumes
opponents who see every card; against other opponents its model is wrong.
Its decisions before the play are ``cheat``'s. docs/strength.md measures
the search's calls with it (``split:search:hard/cheat:br``).

It is deterministic: the full state decides everything.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..cards import EFFECTIVE_SUIT, POWER
from ..hand import HandState, Phase
from ..view import View
from .rule import RuleBot, strength
from .scoring import utility, utility_row
from .search import best_response_tricks, finish_hand, side_of

__all__ = ["CheatBot"]


class CheatBot:
    """Sees the full state; plays by exact solving (see the module)."""

    name = "cheat"

    def __init__(
        self,
        rng: random.Random | None = None,
        keep_candidates: int = 6,
        best_response: bool = False,
    ) -> None:
        self.rng = rng or random.Random()
        self.keep_candidates = keep_candidates
        #: play the all-seeing best response to rule-bot opponents (``cheat:br``)
        self.best_response = best_response
        if best_response:
            self.name = "cheat:br"
        self.model = RuleBot(random.Random(0))

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Refused: the cheat needs the full state (drive it with ``act``)."""
        raise TypeError("the cheat bot sees the full state: drive it with bots.act")

    def choose_state(
        self, state: HandState, seat: int, scores: Sequence[int] | None = None
    ) -> Action:
        """The best legal action for ``seat`` seeing every card."""
        return self.values(state, seat, scores)[0][0]

    def values(
        self, state: HandState, seat: int, scores: Sequence[int] | None = None
    ) -> list[tuple[Action, float]]:
        """Every candidate action with its utility on the true deal, best first.
        The Cutthroat maker's merge is worth the best of its keeps."""
        if state.to_act != seat:
            raise ValueError(f"it is not seat {seat}'s turn")
        sc = tuple(scores) if scores is not None else ()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 0.0)]
        if state.phase == Phase.MAKER:
            merged = state.apply(Action.merge())
            best = self._ranked(merged, seat, sc, self._filter_keeps(merged))[0]
            ranked = self._ranked(state, seat, sc, [Action.alone()])
            ranked.append((Action.merge(), best[1], best[2]))
            ranked.sort(key=lambda r: (-round(r[1], 9), -round(r[2], 9)))  # stable: alone first
        else:
            if state.phase == Phase.KEEP:
                legal = self._filter_keeps(state)
            ranked = self._ranked(state, seat, sc, legal)
        return [(a, v) for a, v, _ in ranked]

    def _ranked(
        self, state: HandState, seat: int, sc: Sequence[int], legal: list[Action]
    ) -> list[tuple[Action, float, float]]:
        """``legal`` with each one's utility and tricks for ``seat``'s side,
        best first (ties: more tricks, the lower card, then the order given)."""
        h0 = state.core
        order = {a: i for i, a in enumerate(legal)}
        value: dict[Action, float] = {}
        mine: dict[Action, float] = {}
        for a in legal:
            h = h0.copy()
            h.step(a.code)
            if h.over and not h.thrown_in:
                row = utility_row(h, seat, sc)
                t = h.side_tricks()
                value[a], mine[a] = row[t], float(t if h.on_maker_side(seat) else 5 - t)
                continue
            if self.best_response and h0.phase == Phase.PLAY:
                most = h.on_maker_side(seat)
                t = best_response_tricks(h, side_of(h, seat), self.model, most)
                value[a] = utility_row(h, seat, sc)[t]
                mine[a] = float(t if most else 5 - t)
                continue
            done = finish_hand(h, state, self.model, "solve", None, seat)
            if done is None:
                value[a], mine[a] = 0.0, 0.0
                continue
            pts, made = done
            value[a] = utility(pts, seat, h.rules, sc)
            mine[a] = float(made if h.on_maker_side(seat) else 5 - made)

        def power(a: Action) -> int:
            if a.kind != "play" or h0.trump == 4:
                return 0
            c = a.code >> 4
            return POWER[h0.trump][EFFECTIVE_SUIT[h0.trump][c]][c]

        ranked = sorted(
            legal, key=lambda a: (-round(value[a], 9), -round(mine[a], 9), power(a), order[a])
        )
        return [(a, value[a], mine[a]) for a in ranked]

    def _filter_keeps(self, state: HandState) -> list[Action]:
        """The few best keeps of a maker who merged, by ``rule.strength``."""
        trump = state.trump
        assert trump is not None
        keeps = state.legal_actions()
        keeps.sort(key=lambda a: strength(a.cards, trump), reverse=True)
        return keeps[: self.keep_candidates]
