"""The rule bot (``rule``): expert heuristics, no search.

It sees only its seat's ``View`` and is both an opponent level and the
inference model of the search bot (``RuleBot.policy``). Everything is a fast
function of the view (well under a millisecond per decision, no randomness):

- **Bidding** by a point count (``strength``): trumps valued by how many live
  trumps rank above them (the turned-down card is dead in round two), off-suit
  cards by how many live cards of their suit rank above them, voids when
  holding trumps. The thresholds depend on the variant and the seat: the
  up-card counts for the dealer's side and against the others; the dealer
  counts its best five of six. In Cutthroat the maker merges the dummy and
  keeps the best five of ten, so the count adds the dummy's expected help and
  the thresholds are lower. Round two prefers 'next' (the suit of the
  up-card's colour) for the seat left of the dealer, and the dealer under
  stick-the-dealer names its best suit.
- **Going alone** when the count (partnership) or a sure march (Cutthroat,
  where alone earns no bonus and merging only adds cards) says so.
- **Discards and dummy keeps** maximise the same count with the cards thrown
  away known dead (a discarded ace makes the king a winner), creating voids.
- **Play** tracks the cards: what is unseen, which seats have shown voids,
  which live cards can still beat a card. The maker's side draws trumps with
  the boss trump, everybody cashes sure winners, partners and the two
  Cutthroat defenders cooperate (duck when the partner's card holds, cover it
  when it does not), a trick is won with the cheapest card that holds, and the
  worst card is thrown (making voids, keeping trumps and winners).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import comb

from ..actions import PLAY, Action
from ..cards import (
    EFFECTIVE_SUIT,
    JOKER_ID,
    POWER,
    SUIT_MASK,
    Card,
    Suit,
    deck_mask,
    ids_of,
    mask_of,
)
from ..hand import FastHand, Phase
from ..rules import Rules
from ..view import View

__all__ = ["RuleBot", "strength"]

#: Value of a trump by its place among the live trumps (0: the highest).
_TRUMP_PLACE_VALUE = (3.2, 2.6, 2.0, 1.6, 1.4, 1.2, 1.1, 1.0, 1.0, 1.0)
#: The same with the joker (25 cards): the trump suit is a card longer.
_TRUMP_PLACE_VALUE_JOKER = (3.6, *_TRUMP_PLACE_VALUE)
#: Value of an off-suit card by how many live cards of its suit rank above it.
_OFF_PLACE_VALUE = (1.0, 0.35, 0.0)
#: Value of a void off-suit (with at least two trumps).
_VOID_VALUE = 0.4
#: Added to an off-suit card with one live card above it and another of its suit.
_GUARD_VALUE = 0.15
#: The off-suit counts in thousandths (exact integers), for ``_best_keep``.
_OFF_PLACE_MILLI = tuple(round(1000 * v) for v in _OFF_PLACE_VALUE)
_GUARD_MILLI = round(1000 * _GUARD_VALUE)
_VOID_MILLI = round(1000 * _VOID_VALUE)


def _place_value(place: int, deck: int) -> float:
    """The value of a trump with ``place`` live trumps above it."""
    table = _TRUMP_PLACE_VALUE_JOKER if deck == 25 else _TRUMP_PLACE_VALUE
    return table[min(place, len(table) - 1)]


@cache
def _above(t: int, led: int, c: int) -> int:
    """The mask of every card that beats card ``c`` when ``t`` is trump and
    ``led`` was led (``led == eff(c)`` for the card's own suit)."""
    pw = POWER[t][led]
    p = pw[c]
    return sum(1 << x for x in range(33) if pw[x] > p)


_ALL = (1 << 33) - 1


def _value(hand: int, t: int, dead: int, deck: int) -> float:
    """The point count of the card mask ``hand`` with trump ``t`` in the
    ``deck``-card deck; ``dead``: cards known out of play (they do not count
    as cards above)."""
    dead |= _ALL & ~deck_mask(deck)
    smask = SUIT_MASK[t]
    trumps = hand & smask[t]
    total = 0.0
    ntrump = trumps.bit_count()
    live = ~dead
    for c in ids_of(trumps):
        place = (_above(t, t, c) & live & ~hand).bit_count()
        # own higher trumps still count as above (they are one card each)
        place += (_above(t, t, c) & hand).bit_count()
        total += _place_value(place, deck)
    voids = 0
    for s in range(4):
        if s == t:
            continue
        cards = hand & smask[s]
        if not cards:
            voids += 1
            continue
        for c in ids_of(cards):
            place = (_above(t, s, c) & smask[s] & live & ~hand).bit_count()
            if place < len(_OFF_PLACE_VALUE):
                v = _OFF_PLACE_VALUE[place]
                if place == 1 and (cards & ~(1 << c)):
                    v += _GUARD_VALUE  # a guarded king
                total += v
    if ntrump >= 2:
        total += _VOID_VALUE * voids
    return total


def strength(
    cards: Iterable[Card], trump: Suit, dead: Iterable[Card] = (), deck: int | None = None
) -> float:
    """A point count of a hand with ``trump`` as trump (higher is stronger).

    Trumps count 3.2, 2.6, 2.0, 1.6, 1.4, ... by their place among the live
    trumps (right bower 3.2, left 2.6, ace 2.0 with 24 cards; the joker takes
    the top place), an off-suit card 1.0 when no live card of its suit ranks
    above it (an ace), 0.35 with one above (0.5 guarded), and each void
    off-suit 0.4 with two trumps or more. ``dead``: cards known out of play;
    ``deck``: 24, 32 or 25 (default: 25 if the joker is among ``cards``,
    else 24 -- the count is the same for 24 and 32 cards).
    """
    m = mask_of(cards)
    if deck is None:
        deck = 25 if m >> JOKER_ID & 1 else 24
    return _value(m, int(trump), mask_of(dead), deck)


@cache
def _trump_list(t: int, deck: int) -> tuple[int, ...]:
    """The trumps of the deck, highest first."""
    pw = POWER[t][t]
    ids = ids_of(SUIT_MASK[t][t] & deck_mask(deck))
    return tuple(sorted(ids, key=lambda c: -pw[c]))


def _best_keep(pool: int, t: int, n: int, dead: int, deck: int) -> tuple[float, int]:
    """The best ``n`` cards of the mask ``pool`` by ``_value`` (the cards
    left out count as dead), of equal counts the higher cards (0.001 per
    rank): the trumps are placed first (all of them if they fit, else the
    highest), then every choice of the non-trumps is weighed. The first best
    choice in ``itertools.combinations`` order of the card ids is taken.

    With the pool's other cards dead, the live cards above an off-suit card
    are the same whichever cards are kept, and so is the count of the kept
    trumps (all of the pool's), so a choice's count is a sum over
    the suits of its cards' values, a guarded king's 0.15 and a void's 0.4.
    These are summed exactly (in thousandths), the best of each suit and size
    combined; only a tie at the top is settled by ``_value`` itself, in that
    order, so the choice is the one weighing every combination would make."""
    smask = SUIT_MASK[t]
    trumps = pool & smask[t]
    ntr = trumps.bit_count()
    if ntr >= n:
        pw = POWER[t][t]
        highest = sorted(ids_of(trumps), key=lambda c: -pw[c])[:n]
        m = mask_of_ids(highest)
        return _value(m, t, dead | (pool & ~m), deck), m
    k = n - ntr
    live = ~(dead | pool | (_ALL & ~deck_mask(deck)))
    void = _VOID_MILLI if ntr >= 2 else 0
    # per suit and number of cards kept: the best count and the masks with it
    per_suit: list[list[tuple[int, list[int]]]] = []
    for s in range(4):
        if s == t:
            continue
        cards = ids_of(pool & smask[s])
        if not cards:
            continue
        value = {}
        guarded = set()
        for c in cards:
            place = (_above(t, s, c) & smask[s] & live).bit_count()
            value[c] = (_OFF_PLACE_MILLI[place] if place < 3 else 0) + (c & 7)
            if place == 1:
                guarded.add(c)
        sizes: list[tuple[int, list[int]]] = [(void, [0])]
        for r in range(1, min(k, len(cards)) + 1):
            most = -1
            masks: list[int] = []
            for combo in combinations(cards, r):
                got = 0
                for c in combo:
                    got += value[c]
                    if r >= 2 and c in guarded:
                        got += _GUARD_MILLI
                if got > most:
                    most, masks = got, [mask_of_ids(combo)]
                elif got == most:
                    masks.append(mask_of_ids(combo))
            sizes.append((most, masks))
        per_suit.append(sizes)
    # combine the suits: the sizes kept summing to k, the best total's choices
    top_score = -1
    keeps: list[int] = []
    for kept in product(*(range(len(sizes)) for sizes in per_suit)):
        if sum(kept) != k:
            continue
        score = sum(per_suit[i][r][0] for i, r in enumerate(kept))
        if score < top_score:
            continue
        if score > top_score:
            top_score, keeps = score, []
        for chosen in product(*(per_suit[i][r][1] for i, r in enumerate(kept))):
            keeps.append(trumps | sum(chosen))  # the suits are disjoint
    best = (-1.0, 0)
    for m in sorted(keeps, key=lambda m: ids_of(m & ~trumps)):
        tie = 0.0
        for c in ids_of(m & ~trumps):
            tie += 0.001 * (c & 7)
        v = _value(m, t, dead | (pool & ~m), deck) + tie
        if v > best[0]:
            best = (v, m)
    return best


def mask_of_ids(ids: Iterable[int]) -> int:
    """The mask of card ids."""
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _out_of_play(hand: int, discards: int, dummy: int, up: int, picked_up: bool | None) -> int:
    """Cards a seat knows are out of play once trump is made (masks): its own
    ``discards``, the cards of the ``dummy`` it took up (a Cutthroat maker
    who merged; else 0) that it did not keep in ``hand``, and the up-card
    ``up`` unless the dealer picked it up (turned down or declined: it stays
    in the kitty)."""
    dead = discards | (dummy & ~hand)
    if picked_up is not True:
        dead |= 1 << up
    return dead


@cache
def _seat_after(n: int, out: int) -> tuple[int, ...]:
    """For each of ``n`` seats, the next seat not sitting out (``out``: the
    mask of the seats sitting out)."""
    after = []
    for s in range(n):
        x = (s + 1) % n
        while out >> x & 1:
            x = (x + 1) % n
        after.append(x)
    return tuple(after)


@dataclass(slots=True)
class _PlayInfo:
    """What the card play reads off a seat's view: ``track`` derives it from
    what the seat may see, for ``RuleBot.choose`` (from a ``View``) and
    ``RuleBot.play_code`` (from a ``FastHand``) alike."""

    seat: int
    rules: Rules
    t: int  #: trump
    hand: int
    playable: int
    played: int
    trick: list[tuple[int, int]]  #: the current trick: (seat, card id)
    first_trick: bool
    dead: int  #: cards this seat knows are out of play
    out: set[int]  #: seats sitting out
    voids: dict[int, set[int]]  #: suits each seat has shown it lacks
    held: list[int]  #: cards each seat still holds
    up: int
    picked_up: bool | None
    dealer: int
    maker: int | None

    @classmethod
    def track(
        cls,
        rules: Rules,
        seat: int,
        t: int,
        hand: int,
        playable: int,
        out: int,
        log: Sequence[tuple[int, Sequence[int], int]],
        leader: int,
        current: Sequence[int],
        dead: int,
        up: int,
        picked_up: bool | None,
        dealer: int,
        maker: int | None,
    ) -> _PlayInfo:
        """The card tracking of ``seat`` in the play with trump ``t``: ``out``
        the mask of the seats sitting out, ``log`` the finished tricks as
        ``(leader, card ids, winner)`` (``FastHand.trick_log``), ``current``
        the card ids of the trick under way, led by ``leader``; ``dead``:
        cards it knows are out of play (``_out_of_play``). Each card's seat
        follows from its trick's leader (the next seat not sitting out), so
        the cards played, the cards each seat still holds and the suits each
        seat has shown it lacks are read off the tricks once, here."""
        n = rules.seats
        eff = EFFECTIVE_SUIT[t]
        after = _seat_after(n, out)
        played = 0
        counts = [0] * n
        voids: dict[int, set[int]] = {}
        for s, cards, _ in log:
            led = eff[cards[0]]
            for c in cards:
                played |= 1 << c
                counts[s] += 1
                if eff[c] != led:
                    voids.setdefault(s, set()).add(led)
                s = after[s]
        trick = []
        if current:
            led = eff[current[0]]
            s = leader
            for c in current:
                played |= 1 << c
                counts[s] += 1
                trick.append((s, c))
                if eff[c] != led:
                    voids.setdefault(s, set()).add(led)
                s = after[s]
        return cls(
            seat=seat,
            rules=rules,
            t=t,
            hand=hand,
            playable=playable,
            played=played,
            trick=trick,
            first_trick=not log,
            dead=dead,
            out={x for x in range(n) if out >> x & 1},
            voids=voids,
            held=[5 - k for k in counts],
            up=up,
            picked_up=picked_up,
            dealer=dealer,
            maker=maker,
        )


class RuleBot:
    """Expert heuristics: a point count for bidding, card tracking for play."""

    name = "rule"

    # -- tuning (points of ``strength``) ---------------------------------------
    #: Partnership: make trump at or above (either round, every seat).
    part_make = 5.6
    #: Partnership: extra needed with the joker (25 cards).
    part_joker_extra = 1.0
    #: Partnership: go alone at or above (with three trumps or more).
    part_alone = 8.0
    #: Cutthroat: make trump at or above (either round, every seat; the
    #: dummy's help is added to the count first).
    cut_make = 5.2
    #: Share of the up-card's value counted for / against the bidder.
    up_share = 0.8
    #: Cutthroat: a hand counting less than this is not worth making trump.
    cut_floor = 3.0
    #: Cutthroat: weight of the dummy's expected help in the count.
    dummy_scale = 0.7
    #: Play: count an opponent's possible ruff as a threat when the chance it
    #: is void in the suit led is at least this (1.0: only when it has shown
    #: the void or can hold no card of the suit -- what measured best).
    ruff_risk = 1.0
    #: Bonus for 'next' to the seat left of the dealer in round two.
    next_bonus = 0.5
    #: Play: overtake a teammate's card that may lose (when nothing sure wins).
    overtake = True
    #: Play: the maker's side, without the top trump, leads its lowest trump
    #: (to draw the higher ones) when holding ``low_trump_min`` trumps or more.
    low_trump_lead = True
    #: Play: see ``low_trump_lead``.
    low_trump_min = 2
    #: Play: the maker's partner leads trump at the first lead.
    partner_trump_lead = True

    #: The share of probability ``policy`` spreads over the actions the rule
    #: does not choose (a player may deviate; inference must not rule it out).
    epsilon = 0.1

    def __init__(
        self, rng: random.Random | None = None, make_shift: float = 0.0, name: str = "rule"
    ) -> None:
        """``make_shift`` moves the count at or above which the bot makes
        trump, in both rounds (``part_make``, ``cut_make``): below zero a
        bolder caller, above zero a more timid one (the arena's
        ``rule:bold`` and ``rule:timid``, opponents unlike the search
        bot's model). The card play is the same whatever the shift."""
        self.rng = rng or random.Random()
        self.make_shift = make_shift
        self.name = name
        #: A further shift per seat (seat ``s`` makes trump at its count plus
        #: ``seat_shifts[s]``; seats past the end: 0): the search bot's model
        #: of the others set to how each has been seen to call
        #: (``bots.style``). Empty: every seat calls as this bot.
        self.seat_shifts: tuple[float, ...] = ()

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
        """Pick an action for ``view.seat`` from ``legal`` (deterministic)."""
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == Phase.PLAY:
            return self._play(view, legal)
        if phase == Phase.BID1:
            return self._bid1(view, legal)
        if phase == Phase.BID2:
            return self._bid2(view, legal)
        if phase == Phase.PICKUP:
            return self._pickup(view, legal)
        if phase in (Phase.MAKER, Phase.KEEP):
            return self._maker(view, legal)
        if phase == Phase.ALONE:
            return self._alone(view, legal)
        if phase == Phase.JOKER_CALL:
            return self._joker_call(view, legal)
        return legal[0]  # pragma: no cover - no other phase asks

    # -- helpers -----------------------------------------------------------------
    @staticmethod
    def _partner_dealer(view: View) -> bool:
        return not view.rules.cutthroat and (view.dealer - view.seat) % 4 == 2

    def _dummy_help(self, hand: int, t: int, deck: int, dead: int) -> float:
        """Cutthroat: the expected gain of merging the dummy. Each unseen card
        is in the dummy with the chance of its share of the unseen cards; a
        trump there adds its value, an off-suit ace a little, but only as many
        cards as the hand has weak ones to replace."""
        dm = deck_mask(deck)
        trumps = SUIT_MASK[t][t] & dm
        unseen = dm & ~hand & ~dead
        share = 5 / max(1, unseen.bit_count())
        gain = 0.0
        for c in ids_of(unseen & trumps):
            place = (_above(t, t, c) & dm).bit_count()
            gain += _place_value(place, deck) - 0.3
        aces = 0
        for s in range(4):
            if s != t:
                top = ids_of(SUIT_MASK[t][s] & dm)
                if top and unseen >> max(top, key=lambda c: c & 7) & 1:
                    aces += 1
        gain += 0.5 * aces
        weak = 5 - (hand & trumps).bit_count()
        return self.dummy_scale * min(share * gain, 1.6 * weak)

    def _bid_value(self, view: View, t: int, round_two: bool) -> float:
        """The count of the seat's hand as maker with trump ``t``."""
        hand = mask_of(view.hand)
        up = view.up_card.id
        rules = view.rules
        dead = 0
        if round_two:
            dead = 1 << up
            value = _value(hand, t, dead, rules.deck)
        elif view.seat == view.dealer:
            # the best five of the six, the discard dead
            value = _best_keep(hand | 1 << up, t, 5, 0, rules.deck)[0]
        else:
            value = _value(hand, t, 0, rules.deck)
            upv = _place_value((_above(t, t, up) & deck_mask(rules.deck)).bit_count(), rules.deck)
            if self._partner_dealer(view):
                value += self.up_share * upv
            else:
                value -= self.up_share * upv
        if rules.cutthroat:
            if value < self.cut_floor:
                return value  # too little to build on, whatever the dummy holds
            value += self._dummy_help(hand, t, rules.deck, dead | (1 << up))
        return value

    def _threshold(self, view: View) -> float:
        """The count at or above which the view's seat makes trump (either
        round; the seat's place is in the count, ``_bid_value``)."""
        rules = view.rules
        seat = view.seat
        shift = self.make_shift
        if seat < len(self.seat_shifts):
            shift += self.seat_shifts[seat]
        if rules.cutthroat:
            return self.cut_make + shift
        if rules.deck == 25:
            return self.part_make + self.part_joker_extra + shift  # eight trumps: counts run higher
        return self.part_make + shift

    # -- bidding ---------------------------------------------------------------
    def _joker_call(self, view: View, legal: Sequence[Action]) -> Action:
        hand = mask_of(view.hand) | 1 << JOKER_ID  # the dealer may take the joker
        calls = [a for a in legal if a.suit is not None]
        deck = view.rules.deck
        return max(calls, key=lambda a: _best_keep(hand, int(a.suit or 0), 5, 0, deck)[0])

    def _bid1(self, view: View, legal: Sequence[Action]) -> Action:
        suit = view.up_suit
        if suit is None:  # pragma: no cover - round one always has a suit
            return Action.pass_()
        value = self._bid_value(view, int(suit), round_two=False)
        if value >= self._threshold(view):
            return Action.order()
        return Action.pass_()

    def _bid2(self, view: View, legal: Sequence[Action]) -> Action:
        calls = [a for a in legal if a.kind == "call"]
        up_suit = view.up_suit
        n = view.rules.seats
        pos = (view.seat - view.dealer) % n  # 1: left of the dealer
        best: tuple[float, Action] | None = None
        for a in calls:
            s = int(a.suit or 0)
            v = self._bid_value(view, s, round_two=True)
            if up_suit is not None and s != int(up_suit):
                if s == int(up_suit) ^ 3 and pos == 1:
                    v += self.next_bonus  # 'next': the dealer's side passed the colour
                elif s != int(up_suit) ^ 3 and not view.rules.cutthroat and pos == 2:
                    v += self.next_bonus / 2  # 'reverse next' for the dealer's partner
            if best is None or v > best[0]:
                best = (v, a)
        assert best is not None
        if Action.pass_() not in legal or best[0] >= self._threshold(view):
            return best[1]
        return Action.pass_()

    def _pickup(self, view: View, legal: Sequence[Action]) -> Action:
        """Always pick up (a trump for a junk card) and discard the card that
        leaves the best count; decline only if picking up is not offered."""
        trump = view.trump
        pickups = [a for a in legal if a.kind == "pickup"]
        if trump is None or not pickups:
            return legal[0]
        t = int(trump)
        hand = mask_of(view.hand) | 1 << view.up_card.id

        def after(a: Action) -> float:
            c = a.card.id if a.card is not None else 0
            return _value(hand & ~(1 << c), t, 1 << c, view.rules.deck)

        return max(pickups, key=after)

    def _sure_march(self, view: View, hand: int, t: int) -> bool:
        """Whether ``hand`` takes every trick whatever the others hold: its
        trumps are the highest live ones, at least as many as the live trumps
        left out, and every other card is the best live card of its suit."""
        deck = deck_mask(view.rules.deck)
        dead = self._dead_known(view)
        live_trumps = [c for c in _trump_list(t, view.rules.deck) if not dead >> c & 1]
        mine = hand & SUIT_MASK[t][t]
        k = mine.bit_count()
        if k == 0 or mask_of_ids(live_trumps[:k]) != mine:
            return False
        if len(live_trumps) - k > k:
            return False
        for c in ids_of(hand & ~mine):
            s = EFFECTIVE_SUIT[t][c]
            if _above(t, s, c) & SUIT_MASK[t][s] & deck & ~dead & ~hand:
                return False
        return True

    @staticmethod
    def _dead_known(view: View) -> int:
        """Cards this seat knows are out of play (beyond its own hand), once
        trump is made (``_out_of_play``)."""
        dummy = mask_of(view.dummy) if view.merged and view.seat == view.maker else 0
        return _out_of_play(
            mask_of(view.hand), mask_of(view.discards), dummy, view.up_card.id, view.picked_up
        )

    def _maker(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        t = int(trump)
        if Action.merge() in legal:  # before seeing the dummy
            # alone earns no bonus in Cutthroat; it only throws away five cards
            if self._sure_march(view, mask_of(view.hand), t):
                return Action.alone()
            return Action.merge()
        keeps = [a for a in legal if a.kind == "keep" and not a.is_merge]
        if not keeps:
            return Action.alone()
        pool = mask_of(view.hand) | mask_of(view.dummy)
        deck = view.rules.deck
        m = self.keep_mask(pool, t, bool(view.picked_up), view.up_card.id, deck)
        for a in keeps:
            if a.code >> 4 == m:
                return a
        return max(keeps, key=lambda a: _value(a.code >> 4, t, pool & ~(a.code >> 4), deck))

    @staticmethod
    def keep_mask(pool: int, trump: int, picked_up: bool, up: int, deck: int) -> int:
        """The five cards (a mask) this bot keeps of a Cutthroat maker's ten
        (``pool``, a mask): the best count, the cards left out dead (and the
        up-card too when the dealer did not pick it up)."""
        dead = 0 if picked_up else 1 << up
        return _best_keep(pool, trump, 5, dead, deck)[1]

    def _alone(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        maker = view.maker
        assert trump is not None and maker is not None
        t = int(trump)
        hand = mask_of(view.hand)
        if self._sure_march(view, hand, t):
            return Action.alone()
        cut = view.rules.cutthroat
        maker_side = view.seat == maker or (not cut and (view.seat - maker) % 2 == 0)
        if maker_side and not cut:
            trumps = (hand & SUIT_MASK[t][t]).bit_count()
            value = _value(hand, t, self._dead_known(view), view.rules.deck)
            if trumps >= 3 and value >= self.part_alone:
                return Action.alone()
        return Action.pass_()

    # -- play --------------------------------------------------------------------
    @staticmethod
    def _team(cutthroat: bool, maker: int | None, me: int) -> set[int]:
        """``me`` and the seats playing on its side."""
        if cutthroat:
            if maker is None or me == maker:
                return {me}
            return {s for s in range(3) if s != maker}
        return {me, (me + 2) % 4}

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        trump = view.trump
        assert trump is not None
        playable = 0
        for a in legal:
            playable |= 1 << (a.code >> 4)
        current = view.current_trick
        info = _PlayInfo.track(
            view.rules,
            view.seat,
            int(trump),
            mask_of(view.hand),
            playable,
            mask_of_ids(view.sitting_out),
            [(tr.leader, [c.id for _, c in tr.cards], tr.winner) for tr in view.tricks],
            current[0][0] if current else -1,
            [c.id for _, c in current],
            self._dead_known(view),
            view.up_card.id,
            view.picked_up,
            view.dealer,
            view.maker,
        )
        return Action(PLAY | self._play_info(info) << 4)

    def play_code(self, h: FastHand, seat: int) -> int:
        """The action code ``choose`` would give for ``seat`` in the play
        phase of ``h`` — read straight off the fast state, without building a
        ``View`` (for rollouts and inference in the search bot). It reads only
        what ``seat``'s view holds (``_PlayInfo.track``, as ``choose`` does);
        a test checks that it agrees with ``choose`` on the view."""
        hand = h.hands[seat]
        discards = 0
        if seat == h.dealer and h.dealer_discard >= 0:
            discards = 1 << h.dealer_discard
        dummy = 0
        if h.merged and seat == h.maker:
            discards |= h.maker_discards
            dummy = h.dummy
        info = _PlayInfo.track(
            h.rules,
            seat,
            h.trump,
            hand,
            h.follow_mask(seat),
            h.out,
            h.trick_log,
            h.leader,
            h.trick,
            _out_of_play(hand, discards, dummy, h.up, h.picked),
            h.up,
            h.picked,
            h.dealer,
            h.maker,
        )
        return PLAY | self._play_info(info) << 4

    def _play_info(self, info: _PlayInfo) -> int:
        t = info.t
        rules = info.rules
        n = rules.seats
        eff = EFFECTIVE_SUIT[t]
        smask = SUIT_MASK[t]
        me = info.seat
        hand = info.hand
        playable = info.playable
        trick = info.trick
        unseen = deck_mask(rules.deck) & ~hand & ~info.played & ~info.dead
        out = info.out
        active = [s for s in range(n) if s not in out]
        team = self._team(rules.cutthroat, info.maker, me)
        voids = info.voids
        void_mask = {s: sum(smask[v] for v in voids.get(s, ())) for s in range(n)}
        # a seat's cards may be only the unseen ones it has not shown void in
        poss = {s: unseen & ~void_mask[s] for s in active if s != me}
        # the dealer holds the picked-up card unless it was played (or is mine)
        up = info.up
        if info.picked_up and info.dealer != me and unseen >> up & 1:
            for s in poss:
                if s != info.dealer:
                    poss[s] &= ~(1 << up)

        # seats still to play after me in this trick
        after: list[int] = []
        s = me
        for _ in range(len(active) - len(trick) - 1):
            s = (s + 1) % n
            while s in out:
                s = (s + 1) % n
            after.append(s)
        opps_after = [s for s in after if s not in team]
        held = info.held

        def can_beat(c: int, led: int, seats: Iterable[int]) -> bool:
            """Whether one of ``seats`` may hold a card beating ``c``: of the
            led suit always; a trump when it is known void in the led suit
            or the led suit is nearly gone."""
            above = _above(t, led, c)
            for s in seats:
                p = poss.get(s, 0) & above
                if not p:
                    continue
                if led == t or p & smask[led]:
                    return True
                # only trumps beat it: they need s void in the led suit
                if led in voids.get(s, ()):
                    return True
                if void_chance(s, led) >= self.ruff_risk:
                    return True
            return False

        def void_chance(s: int, suit: int) -> float:
            """The chance that seat ``s`` holds no card of ``suit`` if its
            cards were a random draw from those it may hold."""
            pool = poss.get(s, 0)
            k = held[s]
            total = pool.bit_count()
            other = total - (pool & smask[suit]).bit_count()
            if k > other:
                return 0.0
            return comb(other, k) / comb(total, k) if total >= k else 1.0

        def keep_rank(c: int) -> tuple[int, int, int]:
            """Sort key, worst card to throw first."""
            s = eff[c]
            if s == t:
                return (2, POWER[t][t][c], 0)
            boss = not (_above(t, s, c) & smask[s] & unseen)
            length = (hand & smask[s]).bit_count()
            # short suits first when holding trumps (to ruff later)
            return (1 if boss else 0, c & 7, length)

        def throw(cards: int) -> int:
            ids = ids_of(cards)
            return min(ids, key=keep_rank)

        if not trick:
            return self._lead(info, playable, hand, unseen, poss, team, t)

        led = eff[trick[0][1]]
        power = POWER[t][led]
        best_seat, best_card = max(trick, key=lambda sc: power[sc[1]])
        best = power[best_card]
        winners = [c for c in ids_of(playable) if power[c] > best]
        if best_seat in team:
            if not opps_after or not can_beat(best_card, led, opps_after):
                return throw(playable)
            safe = [c for c in winners if not can_beat(c, led, opps_after)]
            if safe:
                return min(safe, key=lambda c: power[c])
            if winners and self.overtake:
                # the teammate's card may lose: cover it with the cheapest
                # card that fewer of the live cards beat
                def threats(c: int) -> int:
                    above = _above(t, led, c)
                    m = 0
                    for s in opps_after:
                        m |= poss.get(s, 0) & above
                    return m.bit_count()

                bar = threats(best_card)
                for w in sorted(winners, key=lambda c: power[c]):
                    if threats(w) < bar:
                        return w
            return throw(playable)
        if not winners:
            return throw(playable)
        if not opps_after:
            return min(winners, key=lambda c: power[c])
        safe = [c for c in winners if not can_beat(c, led, opps_after)]
        if safe:
            return min(safe, key=lambda c: power[c])
        return min(winners, key=lambda c: power[c])

    def _lead(
        self,
        info: _PlayInfo,
        playable: int,
        hand: int,
        unseen: int,
        poss: dict[int, int],
        team: set[int],
        t: int,
    ) -> int:
        smask = SUIT_MASK[t]
        eff = EFFECTIVE_SUIT[t]
        pw = POWER[t][t]
        trumps = playable & smask[t]
        off = playable & ~trumps
        opps = [s for s in poss if s not in team]
        mates = [s for s in poss if s in team]
        maker = info.maker
        maker_side = maker is not None and maker in team
        opp_trumps = 0
        for s in opps:
            opp_trumps |= poss[s] & smask[t]
        my_trumps = sorted(ids_of(trumps), key=lambda c: -pw[c])

        def is_boss(c: int) -> bool:
            s = eff[c]
            return not (_above(t, s, c) & smask[s] & unseen)

        def opp_can_ruff(s: int) -> bool:
            return any(not (poss[o] & smask[s]) and poss[o] & smask[t] for o in opps)

        if maker_side and my_trumps and opp_trumps:
            top = my_trumps[0]
            if is_boss(top):
                return top
            if (len(my_trumps) >= self.low_trump_min and self.low_trump_lead) or (
                self.partner_trump_lead
                and info.first_trick
                and maker != info.seat
                and not info.rules.cutthroat
            ):
                # draw trumps: partner called it, or length
                return my_trumps[-1] if len(my_trumps) >= self.low_trump_min else top
        # sure winners off-suit (when the trumps left are all ours, these first)
        bosses = [c for c in ids_of(off) if is_boss(c) and not opp_can_ruff(eff[c])]
        if bosses:
            return max(bosses, key=lambda c: (unseen & smask[eff[c]]).bit_count())
        if maker_side and my_trumps and not opp_trumps:
            return my_trumps[0]
        if not maker_side and off and mates:
            # lead to a teammate who has shown a void in a suit the makers follow
            for c in sorted(ids_of(off), key=lambda c: c & 7):
                s = eff[c]
                if any(not (poss[m] & smask[s]) and poss[m] & smask[t] for m in mates) and not (
                    opp_can_ruff(s)
                ):
                    return c
        if off:
            # lowest card of the suit with the most unseen cards (least likely
            # to be ruffed), short suits first when holding trumps
            def lead_key(c: int) -> tuple[int, int, int]:
                s = eff[c]
                ruff = 1 if opp_can_ruff(s) else 0
                length = (hand & smask[s]).bit_count() if trumps else 0
                return (ruff, length, c & 7)

            return min(ids_of(off), key=lead_key)
        if my_trumps and is_boss(my_trumps[0]):
            return my_trumps[0]
        return my_trumps[-1]
