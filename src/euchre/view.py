"""What one seat may see (RULES.md §6), and dealing out the unseen cards.

``View.of(state, seat)`` (or ``state.view(seat)``) holds exactly what ``seat``
may know: its own cards, the up-card, every bid, call, ``alone`` and card
played with who made it, trump, the score, whether the dealer picked up and
whether the maker merged the dummy — and, for that seat only, its own
discards and (for a maker who merged) the dummy it took up. Other seats'
cards, the kitty below the up-card, others' discards and the cards of a seat
sitting out are not in it.

``View.sample(rng)`` deals the unseen cards at random consistently with the
view (voids shown by play, the dealer's picked-up card, the maker's kept
cards) and returns a full ``HandState`` whose ``view(seat)`` equals this view
— what search bots need.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import KEEP, MERGE, PICKUP, Action
from .cards import EFFECTIVE_SUIT, SUIT_MASK, Card, Suit, cards_of, deck_mask, ids_of, mask_of
from .hand import Deal, FastHand, HandState, Phase, Trick
from .rules import Rules

__all__ = ["SampleError", "View", "public_json"]


class SampleError(RuntimeError):
    """No deal is consistent with the view (should not happen for real views)."""


@dataclass(frozen=True, slots=True)
class View:
    """The information of one seat at one moment of a hand."""

    rules: Rules
    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    up_card: Card
    up_suit: Suit | None
    up_card_face_up: bool
    history: tuple[tuple[int, str], ...]
    trump: Suit | None
    maker: int | None
    picked_up: bool | None
    merged: bool
    alone: tuple[int, ...]
    sitting_out: tuple[int, ...]
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, Card], ...]
    tricks_won: tuple[int, ...]
    discards: tuple[Card, ...]
    dummy: tuple[Card, ...]
    scores: tuple[int, ...]
    legal: tuple[Action, ...]

    @classmethod
    def of(cls, state: HandState, seat: int, scores: Sequence[int] | None = None) -> View:
        """The view of ``seat`` on ``state`` (``scores``: the match score).

        The Cutthroat maker decides ``alone`` or merge without seeing the dummy
        (RULES.md §2, phase ``MAKER``); after the merge (phase ``KEEP``) the
        maker's view shows the dummy and ``legal`` is the 252 keeps, while the
        other seats still see phase ``MAKER``: the merge is public only with
        the keep."""
        h = state.core
        n = h.n
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r} in {h.rules.variant}")
        history = []
        for s, code in h.history:
            kind = code & 15
            if kind == PICKUP and s != seat:
                history.append((s, "pickup"))
            elif kind == KEEP and s != seat:
                history.append((s, "keep"))
            else:
                history.append((s, str(Action(code))))
        discards: list[Card] = []
        if seat == h.dealer and h.dealer_discard >= 0:
            discards.append(Card(h.dealer_discard))
        dummy: tuple[Card, ...] = ()
        if h.merged and seat == h.maker:
            discards.extend(cards_of(h.maker_discards))
            dummy = tuple(sorted(state.deal.dummy))
        legal: tuple[Action, ...] = ()
        phase = h.phase
        if phase == Phase.KEEP:
            if seat == h.maker:
                dummy = tuple(cards_of(h.dummy))
            else:
                phase = Phase.MAKER
        if state.to_act == seat:
            legal = tuple(state.legal_actions())
        face_up = phase <= Phase.PICKUP or (h.picked is False)
        return cls(
            rules=h.rules,
            seat=seat,
            dealer=h.dealer,
            phase=phase,
            to_act=state.to_act,
            hand=tuple(cards_of(h.hands[seat])),
            up_card=Card(h.up),
            up_suit=state.up_suit,
            up_card_face_up=face_up,
            history=tuple(history),
            trump=state.trump,
            maker=state.maker,
            picked_up=h.picked,
            merged=h.merged,
            alone=tuple(h.alone),
            sitting_out=state.sitting_out,
            tricks=state.tricks,
            current_trick=state.current_trick,
            tricks_won=tuple(h.tricks),
            discards=tuple(discards),
            dummy=dummy,
            scores=tuple(scores) if scores is not None else (0,) * n,
            legal=legal,
        )

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.to_act == self.seat

    def played_by(self, seat: int) -> list[Card]:
        """Cards ``seat`` has played this hand."""
        out = [c for t in self.tricks for s, c in t.cards if s == seat]
        out += [c for s, c in self.current_trick if s == seat]
        return out

    def voids(self) -> dict[int, set[Suit]]:
        """Suits each seat has shown it lacks (failed to follow)."""
        out: dict[int, set[Suit]] = {}
        if self.trump is None:
            return out
        t = int(self.trump)
        eff = EFFECTIVE_SUIT[t]
        tricks = [t_.cards for t_ in self.tricks] + [self.current_trick]
        for cards in tricks:
            if not cards:
                continue
            led = eff[cards[0][1].id]
            for s, c in cards[1:]:
                if eff[c.id] != led:
                    out.setdefault(s, set()).add(Suit(led))
        return out

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data (what a client is sent)."""

        def cl(cards: Sequence[Card]) -> list[str]:
            return [str(c) for c in cards]

        return {
            "variant": self.rules.variant,
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "to_act": self.to_act,
            "hand": cl(self.hand),
            "up_card": str(self.up_card),
            "up_suit": None if self.up_suit is None else self.up_suit.letter,
            "up_card_face_up": self.up_card_face_up,
            "history": [f"{s} {a}" for s, a in self.history],
            "trump": None if self.trump is None else self.trump.letter,
            "maker": self.maker,
            "picked_up": self.picked_up,
            "merged": self.merged,
            "alone": list(self.alone),
            "sitting_out": list(self.sitting_out),
            "tricks": [
                {"leader": t.leader, "cards": [[s, str(c)] for s, c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "current_trick": [[s, str(c)] for s, c in self.current_trick],
            "tricks_won": list(self.tricks_won),
            "discards": cl(self.discards),
            "dummy": cl(self.dummy),
            "scores": list(self.scores),
            "legal": [str(a) for a in self.legal],
        }

    # -- dealing out the unseen cards -----------------------------------------
    def unseen(self) -> list[Card]:
        """The cards whose place this seat does not know."""
        known = mask_of(self.hand) | mask_of(self.discards) | mask_of(self.dummy)
        known |= 1 << self.up_card.id
        for t in self.tricks:
            known |= mask_of(c for _, c in t.cards)
        known |= mask_of(c for _, c in self.current_trick)
        return cards_of(deck_mask(self.rules.deck) & ~known)

    def sample(self, rng: random.Random) -> HandState:
        """A full hand state consistent with this view, its unseen cards dealt
        at random (``rng`` is the only randomness): uniformly among the
        consistent deals (draws that break a void shown in play are drawn
        again; after a dozen misses a random perfect matching is used)."""
        return _Sampler(self)(rng)

    def sampler(self) -> Callable[[random.Random], HandState]:
        """``sample`` for many draws from one view: the work that does not
        depend on the draw is done once, here."""
        return _Sampler(self)


class _Sampler:
    """Deals out the unseen cards of one view, again and again: everything
    that does not depend on the random draw is worked out once."""

    #: uniform draws tried (rejecting those that break a void) before falling
    #: back to a random perfect matching
    TRIES = 12

    def __init__(self, v: View) -> None:
        rules = v.rules
        n = rules.seats
        me = v.seat
        self.v = v
        deck = deck_mask(rules.deck)
        up = self.up = v.up_card.id
        played = self.played = {s: mask_of(v.played_by(s)) for s in range(n)}
        all_played = 0
        for m in played.values():
            all_played |= m
        own_discards = mask_of(v.discards)
        known = mask_of(v.hand) | own_discards | mask_of(v.dummy) | all_played | (1 << up)
        unknown = deck & ~known
        void_mask = {s: 0 for s in range(n)}
        if v.trump is not None:
            for s, suits in v.voids().items():
                for su in suits:
                    void_mask[s] |= SUIT_MASK[int(v.trump)][int(su)]
        maker = v.maker
        merged = v.merged
        dealer = v.dealer
        up_hidden = self.up_hidden = (
            bool(v.picked_up) and me != dealer and not (all_played >> up & 1)
        )
        if up_hidden:
            unknown |= 1 << up

        # Slots: (name, size, allowed mask)
        slots: list[tuple[str, int, int]] = []
        for s in range(n):
            if s == me:
                continue
            size = 5 - played[s].bit_count()
            slots.append((f"hand{s}", size, deck & ~void_mask[s]))
        if v.picked_up and me != dealer:
            slots.append(("discard", 1, deck))
        if merged and me != maker:
            slots.append(("maker_discards", 5, deck))
        if rules.cutthroat and not merged and not v.dummy:
            slots.append(("dummy", 5, deck))
        kitty_hidden = rules.deck - 5 * (n + (1 if rules.cutthroat else 0)) - 1
        slots.append(("kitty", kitty_hidden, deck))
        up_slots = {f"hand{dealer}", "discard"}
        if merged and maker == dealer:
            up_slots.add("maker_discards")
        if not rules.dealer_may_discard_upcard:
            up_slots.discard("discard")
        self.slots = slots
        # per unit (one place for one card): the cards it may take
        unit_masks: list[int] = []
        self.units: list[int] = []  # slot index per unit
        for i, (name, size, mask) in enumerate(slots):
            if up_hidden and name not in up_slots:
                mask &= ~(1 << up)
            unit_masks.extend([mask] * size)
            self.units.extend([i] * size)
        self.unit_masks = unit_masks
        self.cards = ids_of(unknown)
        if len(self.cards) != len(self.units):
            raise SampleError(f"{len(self.cards)} unseen cards for {len(self.units)} places")
        self.hand_mask = mask_of(v.hand)
        self.own_discards = own_discards
        # the history as engine codes; a dealer's pick-up and a maker's keep
        # hidden from this seat depend on the draw (None here)
        codes: list[tuple[int, int | None]] = []
        for s, text in v.history:
            if text in ("pickup", "keep"):
                codes.append((s, None if text == "pickup" else -1))
            else:
                codes.append((s, Action.parse(text).code))
        self.codes = codes

    def _assign(self, rng: random.Random) -> list[int]:
        """The unseen cards, one per unit (a list in unit order)."""
        cards = self.cards
        masks = self.unit_masks
        order = cards[:]
        for _ in range(self.TRIES):
            rng.shuffle(order)
            for c, m in zip(order, masks, strict=True):
                if not m >> c & 1:
                    break
            else:
                return order

        def allowed(c: int, unit: int) -> bool:
            return bool(masks[unit] >> c & 1)

        assignment = _match(cards, len(masks), allowed, rng)
        if assignment is None:
            raise SampleError("no deal is consistent with this view")
        out = [0] * len(masks)
        for c, unit in assignment.items():
            out[unit] = c
        return out

    def __call__(self, rng: random.Random) -> HandState:
        v = self.v
        rules = v.rules
        n = rules.seats
        me = v.seat
        up = self.up
        maker = v.maker
        merged = v.merged
        dealer = v.dealer
        played = self.played
        slots = self.slots
        filled: dict[str, int] = {name: 0 for name, _, _ in slots}
        kitty_rest: list[int] = []
        units = self.units
        for unit, c in enumerate(self._assign(rng)):
            name = slots[units[unit]][0]
            filled[name] |= 1 << c
            if name == "kitty":
                kitty_rest.append(c)

        current = {s: filled.get(f"hand{s}", 0) for s in range(n)}
        current[me] = self.hand_mask
        x = (
            v.discards[0].id
            if me == dealer and v.picked_up
            else (ids_of(filled["discard"])[0] if v.picked_up else -1)
        )
        if merged and maker is not None:
            mdisc = (
                mask_of(v.discards[1:] if me == dealer and v.picked_up else v.discards)
                if me == maker
                else filled["maker_discards"]
            )
        else:
            mdisc = 0
        orig = {s: current[s] | played[s] for s in range(n)}
        kept_mask = orig[maker] if (merged and maker is not None) else 0
        dummy_mask = 0
        if rules.cutthroat:
            if merged and maker is not None:
                if me == maker:
                    dummy_mask = mask_of(v.dummy)
                else:
                    pool = orig[maker] | mdisc
                    choices = ids_of(
                        pool & ~(1 << up) if (v.picked_up and maker == dealer) else pool
                    )
                    for c in rng.sample(choices, 5):
                        dummy_mask |= 1 << c
                orig[maker] = (orig[maker] | mdisc) & ~dummy_mask
            else:
                dummy_mask = filled.get("dummy", mask_of(v.dummy))
        if v.picked_up:
            orig[dealer] = (orig[dealer] | (1 << x)) & ~(1 << up)
        hands = [orig[s] for s in range(n)]
        kitty = [up, *kitty_rest]
        deal = Deal(
            hands=tuple(tuple(cards_of(m)) for m in hands),
            dummy=tuple(cards_of(dummy_mask)) if rules.cutthroat else (),
            kitty=tuple(Card(i) for i in kitty),
        )
        h = FastHand.from_masks(rules, dealer, hands[:], dummy_mask, kitty)
        for s, code in self.codes:
            if code is None:
                code = PICKUP | x << 4
            elif code == -1:
                code = KEEP | kept_mask << 4
            why = h.step_recorded(code) if h.turn == s else f"not seat {s}'s turn"
            if why is not None:  # pragma: no cover - a bug if reached
                raise SampleError(f"sampled deal does not replay: {s} {code}: {why}")
        if v.phase == Phase.KEEP:
            h.step(MERGE)
        return HandState.from_fast(h, deal)


def _match(
    cards: list[int], nunits: int, allowed: Any, rng: random.Random
) -> dict[int, int] | None:
    """A random perfect matching of cards to units (Kuhn's algorithm on a
    shuffled order); None if there is none."""
    order = cards[:]
    rng.shuffle(order)
    unit_order = list(range(nunits))
    owner: list[int] = [-1] * nunits
    adj = {}
    for c in order:
        us = [u for u in unit_order if allowed(c, u)]
        rng.shuffle(us)
        adj[c] = us

    def try_card(c: int, seen: set[int]) -> bool:
        for u in adj[c]:
            if u in seen:
                continue
            seen.add(u)
            if owner[u] < 0 or try_card(owner[u], seen):
                owner[u] = c
                return True
        return False

    for c in order:
        if not try_card(c, set()):
            return None
    return {c: u for u, c in enumerate(owner) if c >= 0}


def public_json(state: HandState, scores: Sequence[int] | None = None) -> dict[str, Any]:
    """What every seat (and a spectator) may see of ``state``, as JSON data.

    The fields of ``View.to_json()`` that are the same for every seat — phase,
    dealer, to_act, the up-card, trump, maker, alone, tricks, scores ... —
    with the history masked as in the view of a seat that made none of it (a
    dealer's ``pickup`` and a maker's ``keep`` without their cards), and
    without any seat's hand, discards, dummy or legal actions."""
    data = View.of(state, 0, scores).to_json()
    for key in ("seat", "hand", "discards", "dummy", "legal"):
        del data[key]
    history = []
    if data["phase"] == str(Phase.KEEP):  # the merge is public only with the keep
        data["phase"] = str(Phase.MAKER)
    for s, code in state.core.history:
        kind = code & 15
        text = "pickup" if kind == PICKUP else "keep" if kind == KEEP else str(Action(code))
        history.append(f"{s} {text}")
    data["history"] = history
    return data
