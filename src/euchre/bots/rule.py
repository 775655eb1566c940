"""A first rule-based bot: bids by hand strength, plays sensibly.

It sees only its seat's ``View``. Bidding counts the hand's strength in a
candidate trump suit (bowers, trumps, off-suit aces, voids) against a
threshold that depends on the variant and the seat; play wins tricks as
cheaply as it can, lets a winning partner (or fellow defender) have the trick,
and throws its weakest card otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from ..actions import Action
from ..cards import EFFECTIVE_SUIT, JOKER_ID, POWER, Card, Rank, Suit
from ..hand import Phase
from ..view import View

__all__ = ["RuleBot", "strength"]

_TRUMP_VALUE = {
    20: 3.6,
    19: 3.2,
    18: 2.6,
    16: 2.0,
    15: 1.6,
    14: 1.4,
    13: 1.2,
    12: 1.1,
    11: 1.0,
    10: 1.0,
}


def _trump_rank(t: int, c: int) -> int:
    return POWER[t][t][c] - 100


def strength(cards: Iterable[Card], trump: Suit) -> float:
    """A point count of a hand with ``trump`` as trump (higher is stronger)."""
    t = int(trump)
    eff = EFFECTIVE_SUIT[t]
    total = 0.0
    suits_held = set()
    ntrump = 0
    for c in cards:
        s = eff[c.id]
        suits_held.add(s)
        if s == t:
            ntrump += 1
            total += _TRUMP_VALUE.get(_trump_rank(t, c.id), 1.0)
        elif c.id & 7 == Rank.ACE:
            total += 1.0
        elif c.id & 7 == Rank.KING:
            total += 0.35
    if ntrump >= 2:
        total += 0.4 * sum(1 for s in range(4) if s != t and s not in suits_held)
    return total


def _best_keep(cards: Sequence[Card], trump: Suit, n: int) -> tuple[float, tuple[Card, ...]]:
    best: tuple[float, tuple[Card, ...]] = (-1.0, ())
    for combo in combinations(cards, n):
        v = strength(combo, trump)
        if v > best[0]:
            best = (v, combo)
    return best


class RuleBot:
    """Bids by a point count, plays by simple card sense."""

    name = "rule"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    # thresholds: make trump at or above, go alone at or above
    def _make_threshold(self, view: View) -> float:
        return 4.6 if view.rules.cutthroat else 6.2

    #: The share of probability ``policy`` spreads over the actions the rule
    #: does not choose (a player may deviate; inference must not rule it out).
    epsilon = 0.1

    def policy(self, view: View, legal: Sequence[Action]) -> dict[Action, float]:
        """The probability of each legal action under this bot's rules: its
        choice gets ``1 - epsilon``, the rest share ``epsilon`` (the model the
        search bot's inference weighs observed actions with)."""
        chosen = self.choose(view, legal)
        if len(legal) == 1:
            return {chosen: 1.0}
        other = self.epsilon / (len(legal) - 1)
        probs = {a: other for a in legal}
        probs[chosen] = 1.0 - self.epsilon
        return probs

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Pick an action for ``view.seat`` from ``legal``."""
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == Phase.JOKER_CALL:
            return max(legal, key=lambda a: strength(view.hand, a.suit or Suit.CLUBS))
        if phase == Phase.BID1:
            return self._bid1(view, legal)
        if phase == Phase.PICKUP:
            return self._pickup(view, legal)
        if phase == Phase.BID2:
            return self._bid2(view, legal)
        if phase == Phase.MAKER:
            return self._maker(view, legal)
        if phase == Phase.ALONE:
            return self._alone(view, legal)
        return self._play(view, legal)

    # -- bidding ---------------------------------------------------------------
    def _bid1(self, view: View, legal: Sequence[Action]) -> Action:
        up = view.up_card
        suit = view.up_suit
        assert suit is not None
        hand = list(view.hand)
        if view.seat == view.dealer:
            value = _best_keep([*hand, up], suit, 5)[0]
        else:
            value = strength(hand, suit)
            bonus = _TRUMP_VALUE.get(_trump_rank(int(suit), up.id), 1.0) * 0.6
            if view.rules.cutthroat or (view.dealer - view.seat) % 2:
                value -= bonus  # the dealer (an opponent) gets the up-card
            else:
                value += bonus  # partner dealer gets it
        if value >= self._make_threshold(view):
            return Action.order()
        return Action.pass_()

    def _bid2(self, view: View, legal: Sequence[Action]) -> Action:
        calls = [a for a in legal if a.kind == "call"]
        best = max(calls, key=lambda a: strength(view.hand, a.suit or Suit.CLUBS))
        value = strength(view.hand, best.suit or Suit.CLUBS)
        if value >= self._make_threshold(view) + 0.3 or Action.pass_() not in legal:
            return best
        return Action.pass_()

    def _pickup(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        pickups = [a for a in legal if a.kind == "pickup"]
        cards = [*list(view.hand), view.up_card]

        def after(a: Action) -> float:
            return strength([c for c in cards if c != a.card], trump)

        return max(pickups, key=after)

    def _maker(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        if Action.merge() in legal:  # before seeing the dummy
            if strength(view.hand, trump) >= 9.5:
                return Action.alone()
            return Action.merge()
        keeps = [a for a in legal if a.kind == "keep" and not a.is_merge]
        if not keeps:
            return Action.alone()
        return max(keeps, key=lambda a: strength(a.cards, trump))

    def _alone(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        maker_side = view.maker is not None and (
            view.seat == view.maker
            or (not view.rules.cutthroat and (view.seat - view.maker) % 2 == 0)
        )
        value = strength(view.hand, trump)
        if maker_side and value >= 10.0:
            return Action.alone()
        if not maker_side and value >= 10.5:
            return Action.alone()
        return Action.pass_()

    # -- play --------------------------------------------------------------------
    def _teammates(self, view: View) -> set[int]:
        me = view.seat
        if view.rules.cutthroat:
            if view.maker is None or me == view.maker:
                return {me}
            return {s for s in range(3) if s != view.maker}
        return {me, (me + 2) % 4}

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        t = int(trump)
        eff = EFFECTIVE_SUIT[t]
        cards = [a.card for a in legal if a.card is not None]
        by_card = {a.card: a for a in legal}

        def plain(c: Card) -> int:  # low to high within "value" across suits
            if eff[c.id] == t:
                return 100 + _trump_rank(t, c.id)
            return c.id & 7

        trick = view.current_trick
        if not trick:
            return by_card[self._lead(view, cards)]
        led = eff[trick[0][1].id]
        power = POWER[t][led]
        best_seat, best_card = max(trick, key=lambda sc: power[sc[1].id])
        best = power[best_card.id]
        active = view.rules.seats - len(view.sitting_out)
        last = len(trick) == active - 1
        team = self._teammates(view)
        if best_seat in team and best_seat != view.seat:
            strong = best >= 100 + 16 or (best < 100 and best_card.id & 7 == Rank.ACE)
            if last or strong:
                return by_card[min(cards, key=plain)]
        winners = [c for c in cards if power[c.id] > best]
        if winners:
            if last:
                return by_card[min(winners, key=lambda c: power[c.id])]
            # not last: win with a card likely to hold if cheap, else the lowest winner
            return by_card[min(winners, key=lambda c: power[c.id])]
        return by_card[min(cards, key=plain)]

    def _lead(self, view: View, cards: list[Card]) -> Card:
        trump = view.trump
        assert trump is not None
        t = int(trump)
        eff = EFFECTIVE_SUIT[t]
        trumps = [c for c in cards if eff[c.id] == t]
        off = [c for c in cards if eff[c.id] != t]
        maker_side = view.seat in self._teammates(view) and (
            view.maker is not None and view.maker in self._teammates(view)
        )
        played = {c.id for tr in view.tricks for _, c in tr.cards}
        if maker_side and trumps:
            top = max(trumps, key=lambda c: _trump_rank(t, c.id))
            higher_out = [
                c
                for c in range(33)
                if eff[c] == t
                and c not in played
                and c != top.id
                and _trump_rank(t, c) > _trump_rank(t, top.id)
                and (c != JOKER_ID or view.rules.deck == 25)
                and (view.rules.deck == 32 or c & 7 >= Rank.NINE or c == JOKER_ID)
            ]
            if not higher_out and len(trumps) >= 1:
                return top
        aces = [c for c in off if c.id & 7 == Rank.ACE]
        if aces:
            return aces[0]
        if off:
            counts: dict[int, int] = {}
            for c in off:
                counts[eff[c.id]] = counts.get(eff[c.id], 0) + 1
            return min(off, key=lambda c: (counts[eff[c.id]], c.id & 7))
        return min(trumps, key=lambda c: _trump_rank(t, c.id))
