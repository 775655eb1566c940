"""How each other seat has been seen to call: a search bot that adapts.

The search bot weighs the deals it draws, and plays its rollouts, by the rule
bot's model of the others (``RuleBot.policy``). A player who makes trump on
weaker hands than the rule bot, or only on stronger ones, is then read
wrongly: an order from a bold player says less about its hand than the model
thinks. ``CallStyles`` learns, across the hands of a match, by how much each
other seat's making threshold differs from the rule bot's, from what the
finished hands show:

- When a hand is over, its view (of the learning seat) shows every card
  played. A seat that played all five of its cards, did not pick up the
  up-card (the dealer's discard stays hidden) and did not merge the dummy
  (Cutthroat) has shown the hand it bid with.
- Each of its bids (round one and round two, where it had a choice) is
  replayed on that hand and compared with the rule bot's call at each shift
  of ``SHIFTS``: the shift's likelihood is the model's, ``1 - epsilon`` for
  the rule's call and ``epsilon`` shared by the others.
- A prior (normal, ``PRIOR_SD`` points of ``rule.strength``) keeps a seat at
  0 until its calls say otherwise; the estimate is the most likely shift.

It reads only the views it is given (no hidden card: a hand it learns from
was shown in the play). ``SearchBot.hand_over`` feeds it; the bot's model
then shifts each seat's threshold (``RuleBot.seat_shifts``, and the compiled
core's ``make_shifts``).
"""

from __future__ import annotations

import math
from typing import Final

from ..actions import Action
from ..cards import Card, deck_mask, ids_of
from ..hand import Deal, HandState, Phase
from ..rules import Rules
from ..view import View
from .rule import RuleBot

__all__ = ["PRIOR_SD", "SHIFTS", "CallStyles"]

#: The shifts of a seat's making threshold weighed (points of
#: ``rule.strength``; below zero a bolder caller than the rule bot).
SHIFTS: Final = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)

#: The prior's standard deviation over ``SHIFTS`` (points).
PRIOR_SD: Final = 1.0

_MODELS: Final = tuple(RuleBot(make_shift=s) for s in SHIFTS)


class CallStyles:
    """The calling threshold of each seat but ``seat``, learnt from the
    finished hands of a match (``observe``); ``shifts()`` for the model."""

    def __init__(self, rules: Rules, seat: int) -> None:
        if not 0 <= seat < rules.seats:
            raise ValueError(f"no seat {seat} in {rules.variant}")
        self.rules = rules
        self.seat = seat
        prior = [-(s * s) / (2 * PRIOR_SD * PRIOR_SD) for s in SHIFTS]
        #: per seat, the log posterior of each shift of ``SHIFTS`` (unnormalised)
        self.log_post: list[list[float]] = [list(prior) for _ in range(rules.seats)]
        #: per seat, the bids it has been seen to make with its hand shown
        self.seen: list[int] = [0] * rules.seats

    def fits(self, view: View) -> bool:
        """Whether ``view`` is of the learning seat under the same rules: a
        view this can learn from, or model the others for."""
        return view.seat == self.seat and view.rules == self.rules

    def shift(self, seat: int) -> float:
        """The most likely shift of ``seat``'s making threshold (0: calls as the
        rule bot; 0 for the learning seat itself)."""
        if seat == self.seat:
            return 0.0
        lp = self.log_post[seat]
        best = max(range(len(SHIFTS)), key=lambda i: (lp[i], -abs(SHIFTS[i])))
        return SHIFTS[best]

    def shifts(self) -> tuple[float, ...]:
        """``shift`` of every seat, in seat order."""
        return tuple(self.shift(s) for s in range(self.rules.seats))

    def observe(self, view: View) -> int:
        """Learn from a finished hand, seen from ``seat`` (its view once the
        hand is over). Returns the number of bids it learnt from. ValueError:
        another seat's view, another variant, or a hand not over."""
        if not self.fits(view):
            raise ValueError("observe: the view of this seat under these rules, please")
        if view.phase != Phase.OVER:
            raise ValueError(f"observe: a finished hand, not one in phase {view.phase}")
        learnt = 0
        for s in range(self.rules.seats):
            if s == self.seat:
                continue
            hand = view.played_by(s)
            if len(hand) != 5:
                continue  # thrown in, or sat out
            if s == view.dealer and view.picked_up:
                continue  # its discard is hidden
            if view.merged and s == view.maker:
                continue  # it played from its cards and the dummy's
            learnt += self._learn(view, s, hand)
        return learnt

    def _learn(self, view: View, s: int, hand: list[Card]) -> int:
        """Replay the bidding on a deal that gives ``s`` its shown hand (the
        others' cards do not enter its count) and weigh each shift by ``s``'s
        bids."""
        rules = self.rules
        up = view.up_card
        used = {c.id for c in hand} | {up.id}
        rest = [Card(c) for c in ids_of(deck_mask(rules.deck)) if c not in used]
        hands: list[tuple[Card, ...]] = []
        for seat in range(rules.seats):
            if seat == s:
                hands.append(tuple(hand))
            else:
                hands.append(tuple(rest[:5]))
                rest = rest[5:]
        dummy: tuple[Card, ...] = ()
        if rules.cutthroat:
            dummy, rest = tuple(rest[:5]), rest[5:]
        state = HandState(rules, view.dealer, Deal(tuple(hands), dummy, (up, *rest)))
        learnt = 0
        lp = self.log_post[s]
        for seat, text in view.history:
            if state.phase not in (Phase.BID1, Phase.BID2):
                break
            action = Action.parse(text)
            if seat == s:
                bid = View.of(state, s)
                n = len(bid.legal)
                if n > 1:
                    for i, model in enumerate(_MODELS):
                        same = model.choose(bid, bid.legal) == action
                        eps = model.epsilon
                        lp[i] += math.log(1.0 - eps if same else eps / (n - 1))
                    learnt += 1
            state = state.apply(action, seat)
        self.seen[s] += learnt
        return learnt
