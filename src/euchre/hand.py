"""One hand of Euchre as a state machine (RULES.md §2, §3).

Two layers:

- ``FastHand`` — a mutable bit-mask core driven by integer action codes
  (``Action.code``). It does no checking in ``step``; search bots and
  playouts use it directly (``copy``, ``legal_codes``, ``step``,
  ``playout``).
- ``HandState`` — the clean, immutable API on top: ``legal_actions()``,
  ``apply(action)`` (returns a new state; an illegal action raises
  ``IllegalActionError`` with the reason, ``why_illegal`` gives it without
  raising), ``to_act``, ``phase``, ``result``; ``core`` is its ``FastHand``
  for reading and ``from_fast`` the way back. A seat's view is
  ``euchre.view.View.of(state, seat)``, a layer above.

The Cutthroat maker's choice is two phases: ``MAKER`` (``alone``, or merge the
dummy without seeing it: the bare ``keep``), then ``KEEP`` (which five of the
ten). Records write the merge and the keep as the one ``keep C1..C5`` line
(``history``; ``apply_recorded`` reads it back).

A hand is created from a ``Rules``, the dealer's seat and a ``Deal`` (explicit,
or ``Deal.random(rules, rng)`` with an explicit ``Random``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from random import Random
from typing import Final

from .actions import (
    ALONE,
    CALL,
    DECLINE,
    KEEP,
    KIND_NAMES,
    MERGE,
    ORDER,
    PASS,
    PICKUP,
    PLAY,
    Action,
)
from .cards import (
    EFFECTIVE_SUIT,
    JOKER_ID,
    POWER,
    SUIT_MASK,
    Card,
    Suit,
    cards_of,
    deck_mask,
    ids_of,
    mask_of,
)
from .rules import Rules

__all__ = [
    "Deal",
    "DealError",
    "FastHand",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "Phase",
]


class DealError(ValueError):
    """A deal does not fit the rules (wrong sizes, missing or repeated cards)."""


class IllegalActionError(ValueError):
    """An action that is well-formed but not allowed now; ``str`` is the reason."""


class Phase(IntEnum):
    """Where a hand is. ``str(phase)`` is its name in lower case (``"bid1"``), as
    views and records write it."""

    JOKER_CALL = 0  #: the dealer names a suit for a turned-up joker
    BID1 = 1  #: round one: order the up-card's suit or pass
    PICKUP = 2  #: the dealer picks up and discards, or declines
    BID2 = 3  #: round two: name a suit or pass
    MAKER = 4  #: Cutthroat maker: go alone or merge the dummy (without seeing it)
    KEEP = 5  #: Cutthroat maker who merged: keep five of the ten cards
    ALONE = 6  #: go-alone decisions in the Settled order
    PLAY = 7  #: the five tricks
    OVER = 8  #: finished (played out or thrown in)

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """The phase named ``text`` (``str(phase)``); ``ValueError`` otherwise."""
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"no phase {text!r}") from None


# the phases under short names for the hot paths of this module
_J, _B1, _PU, _B2, _MK, _KP, _AL, _PL, _OV = Phase


_DECK_IDS: Final = {size: tuple(c.id for c in cards_of(deck_mask(size))) for size in (24, 25, 32)}


def shuffled_deck(size: int, rng: Random) -> list[int]:
    """The card ids of the ``size``-card deck in a uniformly random order
    (sorted by independent random keys drawn from ``rng``)."""
    rand = rng.random
    return sorted(_DECK_IDS[size], key=lambda _: rand())


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards as dealt: five per seat, the dummy (Cutthroat only) and the
    kitty, whose first card is the up-card."""

    hands: tuple[tuple[Card, ...], ...]
    dummy: tuple[Card, ...]
    kitty: tuple[Card, ...]

    @classmethod
    def random(cls, rules: Rules, rng: Random) -> Deal:
        """Shuffle the rules' deck with ``rng`` and deal it."""
        return cls.from_order(rules, shuffled_deck(rules.deck, rng))

    @classmethod
    def from_order(cls, rules: Rules, order: Sequence[int]) -> Deal:
        """Deal the rules' deck in this order of card ids (not checked): five
        cards a seat, then the dummy (Cutthroat), then the kitty."""
        allc = Card._all
        cards = [allc[i] for i in order]
        n = rules.seats
        hands = tuple(tuple(cards[5 * i : 5 * i + 5]) for i in range(n))
        pos = 5 * n
        dummy: tuple[Card, ...] = ()
        if rules.cutthroat:
            dummy = tuple(cards[pos : pos + 5])
            pos += 5
        return cls(hands, dummy, tuple(cards[pos:]))

    @property
    def up_card(self) -> Card:
        """The turned-up card (``kitty[0]``)."""
        return self.kitty[0]

    def check(self, rules: Rules) -> None:
        """Raise ``DealError`` unless every card of the deck appears exactly once
        in the right places."""
        n = rules.seats
        if len(self.hands) != n:
            raise DealError(f"{rules.variant} needs {n} hands, got {len(self.hands)}")
        for i, h in enumerate(self.hands):
            if len(h) != 5:
                raise DealError(f"hand {i} has {len(h)} cards, not 5")
        if rules.cutthroat and len(self.dummy) != 5:
            raise DealError(f"the dummy has {len(self.dummy)} cards, not 5")
        if not rules.cutthroat and self.dummy:
            raise DealError("a partnership deal has no dummy")
        want = rules.deck - 5 * (n + (1 if rules.cutthroat else 0))
        if len(self.kitty) != want:
            raise DealError(f"the kitty has {len(self.kitty)} cards, not {want}")
        seen = 0
        deck = deck_mask(rules.deck)
        for c in self.all_cards():
            b = 1 << c.id
            if not b & deck:
                raise DealError(f"{c} is not in the {rules.deck}-card deck")
            if seen & b:
                raise DealError(f"{c} appears twice")
            seen |= b

    def all_cards(self) -> list[Card]:
        """Every card of the deal."""
        return [c for h in self.hands for c in h] + list(self.dummy) + list(self.kitty)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand."""

    thrown_in: bool
    trump: Suit | None
    maker: int | None
    alone: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        """The result object of ``euchre replay --json``."""
        return {
            "complete": True,
            "thrown_in": self.thrown_in,
            "trump": None if self.trump is None else self.trump.letter,
            "maker": self.maker,
            "alone": list(self.alone),
            "tricks": list(self.tricks),
            "points": list(self.points),
        }


_KEEP_COMBOS: Final = tuple(combinations(range(10), 5))
#: The kinds of action each phase takes.
_EXPECTED: Final = {
    _J: (CALL,),
    _B1: (PASS, ORDER),
    _PU: (PICKUP, DECLINE),
    _B2: (PASS, CALL),
    _MK: (ALONE, MERGE),
    _KP: (KEEP,),
    _AL: (PASS, ALONE),
    _PL: (PLAY,),
}
_BIT: Final = tuple(1 << i for i in range(33))


class FastHand:
    """Mutable bit-mask core of a hand. Actions are ``Action.code`` integers;
    ``step`` trusts its caller (use ``is_legal`` or ``legal_codes``)."""

    __slots__ = (
        "alone",
        "ask",
        "best",
        "calls",
        "cut",
        "dealer",
        "dealer_discard",
        "dummy",
        "hands",
        "kitty",
        "leader",
        "led",
        "maker",
        "maker_discards",
        "may_decline",
        "merged",
        "n",
        "nbid",
        "out",
        "phase",
        "picked",
        "points",
        "rules",
        "thrown_in",
        "trick",
        "trick_log",
        "tricks",
        "trump",
        "turn",
        "up",
        "upsuit",
        "winner",
    )  # fmt: skip

    rules: Rules
    n: int
    cut: bool
    dealer: int
    hands: list[int]
    dummy: int
    kitty: list[int]
    up: int
    upsuit: int
    phase: Phase
    turn: int
    nbid: int
    trump: int
    maker: int
    picked: bool | None
    may_decline: bool
    dealer_discard: int
    maker_discards: int
    merged: bool
    alone: list[int]
    out: int
    ask: list[int]
    leader: int
    trick: list[int]
    led: int
    best: int
    winner: int
    tricks: list[int]
    trick_log: list[tuple[int, list[int], int]]
    calls: list[tuple[int, int]]
    points: list[int]
    thrown_in: bool

    @classmethod
    def new(cls, rules: Rules, dealer: int, deal: Deal) -> FastHand:
        """A hand just dealt (the deal is not checked here)."""
        return cls.from_masks(
            rules,
            dealer,
            [mask_of(x) for x in deal.hands],
            mask_of(deal.dummy),
            [c.id for c in deal.kitty],
        )

    @classmethod
    def random(cls, rules: Rules, dealer: int, rng: Random) -> FastHand:
        """A hand dealt from ``rng`` — the same deal as ``Deal.random`` with the
        same generator state, without building ``Card`` objects."""
        o = shuffled_deck(rules.deck, rng)
        b = _BIT
        h0 = b[o[0]] | b[o[1]] | b[o[2]] | b[o[3]] | b[o[4]]
        h1 = b[o[5]] | b[o[6]] | b[o[7]] | b[o[8]] | b[o[9]]
        h2 = b[o[10]] | b[o[11]] | b[o[12]] | b[o[13]] | b[o[14]]
        last = b[o[15]] | b[o[16]] | b[o[17]] | b[o[18]] | b[o[19]]
        if rules.variant == "cutthroat":  # the fourth packet is the dummy
            return cls.from_masks(rules, dealer, [h0, h1, h2], last, o[20:])
        return cls.from_masks(rules, dealer, [h0, h1, h2, last], 0, o[20:])

    @classmethod
    def from_masks(
        cls, rules: Rules, dealer: int, hands: list[int], dummy: int, kitty: list[int]
    ) -> FastHand:
        """A hand just dealt from card masks: a mask per seat (the list is kept,
        not copied), the dummy's mask (0 in partnership) and the kitty's card
        ids, the up-card first. Not checked (``Deal.check`` is the check)."""
        h = cls.__new__(cls)
        n = len(hands)
        h.rules = rules
        h.n = n
        h.cut = n == 3
        h.dealer = dealer
        h.hands = hands
        h.dummy = dummy
        h.kitty = kitty
        up = h.up = kitty[0]
        h.upsuit = 4 if up == JOKER_ID else up >> 3
        h.turn = (dealer + 1) % n
        h.nbid = 0
        h.trump = 4
        h.maker = -1
        h.picked = None
        h.may_decline = False
        h.dealer_discard = -1
        h.maker_discards = 0
        h.merged = False
        h.alone = []
        h.out = 0
        h.ask = []
        h.leader = -1
        h.trick = []
        h.led = 4
        h.best = -1
        h.winner = -1
        h.tricks = [0] * n
        h.trick_log = []
        h.calls = []
        h.points = [0] * n
        h.thrown_in = False
        h.phase = _B1
        if up == JOKER_ID:
            if rules.joker_upcard == "redeal":
                h.thrown_in = True
                h.phase = _OV
                h.turn = -1
            else:
                h.phase = _J
                h.turn = dealer
        return h

    def copy(self) -> FastHand:
        """An independent copy."""
        h = FastHand.__new__(FastHand)
        for name in FastHand.__slots__:
            setattr(h, name, getattr(self, name))
        h.hands = self.hands[:]
        h.alone = self.alone[:]
        h.ask = self.ask[:]
        h.trick = self.trick[:]
        h.tricks = self.tricks[:]
        h.trick_log = self.trick_log[:]  # entries are never mutated once logged
        h.calls = self.calls[:]
        h.points = self.points[:]
        return h

    # -- queries -------------------------------------------------------------
    def follow_mask(self, seat: int) -> int:
        """The mask of cards ``seat`` may play now (during play)."""
        hand = self.hands[seat]
        if self.trick:
            m = hand & SUIT_MASK[self.trump][self.led]
            if m:
                return m
        return hand

    def legal_codes(self) -> list[int]:
        """The legal action codes for the seat to act (empty when over)."""
        p = self.phase
        if p == _PL:
            m = self.follow_mask(self.turn)
            out = []
            while m:
                low = m & -m
                out.append(PLAY | (low.bit_length() - 1) << 4)
                m ^= low
            return out
        if p == _B1:
            return [PASS, ORDER]
        if p == _B2:
            r = self.rules
            codes = [] if (r.stick_the_dealer and self.turn == self.dealer) else [PASS]
            for s in range(4):
                if s != self.upsuit or r.may_name_turned_down_suit:
                    codes.append(CALL | s << 4)
            return codes
        if p == _AL:
            return [PASS, ALONE]
        if p == _PU:
            m = self.hands[self.dealer]
            if self.rules.dealer_may_discard_upcard:
                m |= 1 << self.up
            out = []
            while m:
                low = m & -m
                out.append(PICKUP | (low.bit_length() - 1) << 4)
                m ^= low
            if self.may_decline:
                out.append(DECLINE)
            return out
        if p == _MK:
            return [ALONE, MERGE]
        if p == _KP:
            ids = ids_of(self.hands[self.maker] | self.dummy)
            out = []
            for combo in _KEEP_COMBOS:
                m = 0
                for i in combo:
                    m |= 1 << ids[i]
                out.append(KEEP | m << 4)
            return out
        if p == _J:
            return [CALL | s << 4 for s in range(4)]
        return []

    def is_legal(self, code: int) -> bool:
        """Whether ``code`` is legal for the seat to act."""
        return self.why_illegal(code) is None

    def why_illegal(self, code: int, *, you: bool = False, pretty: bool = False) -> str | None:
        """None if ``code`` is legal now, else the reason in words — the one
        source of these reasons for every interface. With ``you`` the seat to
        act is addressed as "you" (for a person at a table), else by number;
        with ``pretty`` cards and suits are written with suit symbols (``10♥``)
        instead of notation (``TH``)."""
        name = Card.pretty if pretty else Card.__str__
        p = self.phase
        kind, arg = code & 15, code >> 4
        if p == _OV:
            return "the hand is over"
        turn = self.turn
        whose = "your" if you else f"seat {turn}'s"
        if p == _MK and kind == KEEP:
            return (
                "first choose: alone, or merge the dummy without seeing it (keep); "
                "the five to keep come after"
            )
        if p == _KP and (kind != KEEP or not arg):
            who = "you" if you else f"seat {turn}"
            return (
                f"{who} chose to merge the dummy: "
                "now keep five of the ten cards (keep C1 C2 C3 C4 C5)"
            )
        expected = _EXPECTED[p]
        if kind not in expected or (arg and kind not in (CALL, PICKUP, PLAY, KEEP)):
            return _wrong_phase_reason(p, kind, self)
        if p == _PL:
            b = 1 << arg
            who = "you" if you else f"seat {turn}"
            if not b & self.hands[turn]:
                card = name(Card(arg))
                return f"you don't hold {card}" if you else f"{who} does not hold {card}"
            follow = self.follow_mask(turn)
            if not b & follow:
                led = Suit(self.led).symbol if pretty else Suit(self.led).letter
                may = " ".join(name(c) for c in cards_of(follow))
                must = "you must" if you else "must"
                return f"{must} follow suit: {led} was led ({who} may play {may})"
            return None
        if p == _B2:
            r = self.rules
            if kind == PASS:
                if r.stick_the_dealer and turn == self.dealer:
                    return "stick the dealer: the dealer must name a suit in round two"
                return None
            if arg == self.upsuit and not r.may_name_turned_down_suit:
                return f"the turned-down suit ({'CDHS'[arg]}) may not be named in round two"
            return None
        if p == _PU:
            if kind == DECLINE:
                if self.may_decline:
                    return None
                if self.maker == self.dealer:
                    return "a dealer who accepts must pick up"
                return "the dealer must pick up (mandatory pick-up)"
            if arg == self.up:
                if self.rules.dealer_may_discard_upcard:
                    return None
                return "the dealer may not discard the up-card (dealer_may_discard_upcard off)"
            if not (1 << arg) & self.hands[self.dealer]:
                if you:
                    return f"you don't hold {name(Card(arg))}"
                return f"the dealer does not hold {name(Card(arg))}"
            return None
        if p == _KP:
            pool = self.hands[self.maker] | self.dummy
            if arg.bit_count() != 5:
                return "keep five cards"
            if arg & ~pool:
                bad = ", ".join(name(c) for c in cards_of(arg & ~pool))
                return f"keep only cards from {whose} hand and the dummy (not {bad})"
        return None

    @property
    def over(self) -> bool:
        """Whether the hand is finished."""
        return self.phase == _OV

    # -- transitions ---------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, int]]:
        """Every action so far as ``(seat, code)``, as records write them: the
        calls (everything before the first card) and then the cards played,
        trick by trick. The Cutthroat maker's merge is not an entry of its own:
        the ``keep C1..C5`` that follows it stands for both."""
        out = self.calls[:]
        for leader, cards, _ in self.trick_log:
            s = leader
            for c in cards:
                out.append((s, PLAY | c << 4))
                s = self.next_active(s)
        s = self.leader
        for c in self.trick:
            out.append((s, PLAY | c << 4))
            s = self.next_active(s)
        return out

    @property
    def played(self) -> int:
        """The mask of the cards played so far."""
        m = 0
        for _, cards, _ in self.trick_log:
            for c in cards:
                m |= 1 << c
        for c in self.trick:
            m |= 1 << c
        return m

    def step(self, code: int) -> None:
        """Apply a legal action code for the seat to act. The Cutthroat maker's
        merge moves the hand to phase KEEP and is not logged: ``history`` has the
        one ``keep C1..C5`` that records write, and ``step`` of that full keep in
        phase MAKER (a replay of the history) is the merge and the keep."""
        p = self.phase
        seat = self.turn
        if p == _PL:
            self._play(seat, code >> 4)
            return
        if code == MERGE:  # the five to keep come next (not logged: see ``history``)
            self.phase = _KP
            return
        self.calls.append((seat, code))
        kind = code & 15
        n = self.n
        if p == _B1:
            if kind == PASS:
                self.nbid += 1
                if self.nbid == n:
                    self.phase = _B2
                    self.nbid = 0
                    self.turn = (self.dealer + 1) % n
                else:
                    self.turn = (seat + 1) % n
            else:
                self.trump = self.upsuit
                self.maker = seat
                self.phase = _PU
                self.turn = self.dealer
                self.may_decline = seat != self.dealer and self.rules.dealer_pickup == "optional"
        elif p == _B2:
            if kind == PASS:
                self.nbid += 1
                if self.nbid == n:
                    self.thrown_in = True
                    self.phase = _OV
                    self.turn = -1
                else:
                    self.turn = (seat + 1) % n
            else:
                self.trump = code >> 4
                self.maker = seat
                self._start_alone()
        elif p == _PU:
            if kind == DECLINE:
                self.picked = False
            else:
                d = self.dealer
                self.picked = True
                self.dealer_discard = code >> 4
                self.hands[d] = (self.hands[d] | 1 << self.up) & ~(1 << (code >> 4))
            self._start_alone()
        elif p in (_MK, _KP):
            m = self.maker
            if kind == ALONE:
                self.alone.append(m)
            else:  # in phase MAKER too: a logged keep replays as the merge and the keep
                keep = code >> 4
                pool = self.hands[m] | self.dummy
                self.hands[m] = keep
                self.maker_discards = pool & ~keep
                self.merged = True
            self.ask = [(m + 1) % 3, (m + 2) % 3] if self.rules.defenders_may_go_alone else []
            self._next_ask()
        elif p == _AL:
            self.ask.pop(0)
            if kind == ALONE:
                self._goes_alone(seat)
            self._next_ask()
        elif p == _J:
            self.upsuit = code >> 4
            self.phase = _B1
            self.turn = (self.dealer + 1) % n

    def step_recorded(self, code: int) -> str | None:
        """Apply ``code`` as ``history`` writes it, if legal: a full keep in
        phase MAKER is the merge and the keep (records write both as one
        line). Returns None, or the reason it is illegal (nothing changed)."""
        if self.phase == _MK and code & 15 == KEEP:
            self.phase = _KP
            why = self.why_illegal(code)
            if why is not None:
                self.phase = _MK
                return why
        else:
            why = self.why_illegal(code)
            if why is not None:
                return why
        self.step(code)
        return None

    def _goes_alone(self, seat: int) -> None:
        """``seat`` (asked in the alone phase) goes alone: a partner sits out and
        the rest of that side is not asked."""
        self.alone.append(seat)
        if self.cut:
            self.out |= 1 << (3 - seat - self.maker)
            self.ask = []
        else:
            self.out |= 1 << ((seat + 2) % 4)
            side = seat & 1
            self.ask = [s for s in self.ask if s & 1 != side]

    def _start_alone(self) -> None:
        m = self.maker
        if self.cut:
            self.phase = _MK
            self.turn = m
            return
        ask = [m, (m + 2) % 4]
        if self.rules.defenders_may_go_alone:
            ask += [(m + 1) % 4, (m + 3) % 4]
        self.ask = ask
        self._next_ask()

    def _next_ask(self) -> None:
        if self.ask:
            self.phase = _AL
            self.turn = self.ask[0]
            return
        # start play: who leads (RULES.md §2 Play, §3 Play)
        lone = self.alone
        if self.cut and not self.rules.dummy_decline_is_alone:
            lone = [s for s in lone if s != self.maker]
        self.phase = _PL
        if lone and self.rules.lone_lead == "left_of_lone" and len(lone) == 2:
            self.leader = self.turn = next(s for s in lone if not self.on_maker_side(s))
            return
        start = lone[0] if lone and self.rules.lone_lead == "left_of_lone" else self.dealer
        self.leader = self.turn = self.next_active(start)

    def on_maker_side(self, seat: int) -> bool:
        """Whether ``seat`` is the maker or (partnership) the maker's partner."""
        if self.cut:
            return seat == self.maker
        return (seat & 1) == (self.maker & 1)

    def next_active(self, seat: int) -> int:
        """The first seat after ``seat``, clockwise, that takes part in the
        hand (not sitting out)."""
        n = self.n
        s = (seat + 1) % n
        while self.out >> s & 1:
            s = (s + 1) % n
        return s

    def _play(self, seat: int, c: int) -> None:
        b = 1 << c
        self.hands[seat] &= ~b
        trick = self.trick
        if not trick:
            self.led = EFFECTIVE_SUIT[self.trump][c]
            self.best = -1
        pw = POWER[self.trump][self.led][c]
        if pw > self.best:
            self.best = pw
            self.winner = seat
        trick.append(c)
        active = self.n - self.out.bit_count()
        if len(trick) < active:
            self.turn = self.next_active(seat)
            return
        w = self.winner
        self.tricks[w] += 1
        self.trick_log.append((self.leader, trick, w))
        self.trick = []
        self.leader = w
        self.turn = w
        if len(self.trick_log) == 5:
            self._score()

    def _score(self) -> None:
        self.phase = _OV
        self.turn = -1
        self.points = self.points_for(self.side_tricks())

    def side_tricks(self) -> int:
        """The tricks the maker's side has taken so far (maker settled)."""
        m = self.maker
        if self.cut:
            return self.tricks[m]
        return self.tricks[m & 1] + self.tricks[(m & 1) + 2]

    def points_for(self, made: int) -> list[int]:
        """Each seat's points if the maker's side ends the hand with ``made``
        tricks (trump, maker and lone players settled): the tables of
        RULES.md §2 and §3."""
        n = self.n
        m = self.maker
        pts = [0] * n
        if self.cut:
            if made >= 3:
                pts[m] = 3 if made == 5 else 1
            else:
                lone_def = False
                for s in self.alone:
                    if s != m:
                        lone_def = True
                each = 4 if (lone_def and made == 0) else 2
                for s in range(3):
                    if s != m:
                        pts[s] = each
            return pts
        side = m & 1
        lone_maker = lone_def = False
        for s in self.alone:
            if s & 1 == side:
                lone_maker = True
            else:
                lone_def = True
        if made >= 3:
            win_side = side
            pt = (4 if lone_maker else 2) if made == 5 else 1
        else:
            win_side = 1 - side
            if lone_def:
                pt = 4 if made == 0 else self.rules.lone_defender_points
            else:
                pt = 2
        pts[win_side] = pts[win_side + 2] = pt
        return pts

    # -- fast random playout -------------------------------------------------
    def playout(self, rng: Random) -> None:
        """Play to the end choosing uniformly among the legal actions at every
        decision (the whole state machine; the fast path for rollouts)."""
        rand = rng.random
        step = self.step
        calls = self.calls
        while self.phase != _PL:
            p = self.phase
            if p == _B1:  # each seat in turn: pass or order
                n = self.n
                seat = self.turn
                while rand() < 0.5:  # pass
                    calls.append((seat, PASS))
                    self.nbid += 1
                    seat = (seat + 1) % n
                    if self.nbid == n:
                        break
                self.turn = seat
                if self.nbid == n:
                    self.phase = _B2
                    self.nbid = 0
                else:
                    step(ORDER)
            elif p == _PU:  # pickup C (C in hand, or the up-card if allowed), or decline
                m = self.hands[self.dealer]
                if self.rules.dealer_may_discard_upcard:
                    m |= 1 << self.up
                k = int(rand() * (m.bit_count() + self.may_decline))
                while k and m:
                    m &= m - 1
                    k -= 1
                step(PICKUP | ((m & -m).bit_length() - 1) << 4 if m else DECLINE)
            elif p == _AL:  # each asked seat in turn: pass or alone
                ask = self.ask
                while ask:
                    seat = ask.pop(0)
                    if rand() < 0.5:
                        calls.append((seat, PASS))
                    else:
                        calls.append((seat, ALONE))
                        self._goes_alone(seat)
                        ask = self.ask
                self._next_ask()
            elif p in (_MK, _KP):
                # alone or one of the 252 keeps, uniformly among the 253 ways the
                # hand can go on (as records count them), without listing them
                k = int(rand() * 253) if p == _MK else 1 + int(rand() * 252)
                if k == 0:
                    step(ALONE)
                else:
                    ids = ids_of(self.hands[self.maker] | self.dummy)
                    m = 0
                    for i in _KEEP_COMBOS[k - 1]:
                        m |= 1 << ids[i]
                    step(KEEP | m << 4)
            elif p == _OV:
                return
            else:
                codes = self.legal_codes()
                step(codes[int(rand() * len(codes))])
        while self.trick:  # finish a trick already under way
            codes = self.legal_codes()
            step(codes[int(rand() * len(codes))])
        if self.phase == _OV:
            return
        # the trick loop, inlined on masks
        hands = self.hands
        trump = self.trump
        smask = SUIT_MASK[trump]
        eff = EFFECTIVE_SUIT[trump]
        powers = POWER[trump]
        rest = _rest_orders(self.n, self.out)
        tricks = self.tricks
        log = self.trick_log
        seat = self.turn
        for _ in range(5 - len(log)):
            leader = seat
            m = hand = hands[seat]
            if m & (m - 1):  # a real choice: skip a random number of cards
                k = int(rand() * m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
            low = m & -m
            c = low.bit_length() - 1
            hands[seat] = hand ^ low
            trick = [c]
            pw = powers[eff[c]]
            best = pw[c]
            winner = leader
            follow = smask[eff[c]]
            for seat in rest[leader]:
                hand = hands[seat]
                m = hand & follow or hand
                if m & (m - 1):
                    k = int(rand() * m.bit_count())
                    while k:
                        m &= m - 1
                        k -= 1
                low = m & -m
                c = low.bit_length() - 1
                hands[seat] = hand ^ low
                trick.append(c)
                if pw[c] > best:
                    best = pw[c]
                    winner = seat
            tricks[winner] += 1
            log.append((leader, trick, winner))
            seat = winner
        self.trick = []
        self.led = 4
        self.leader = seat
        self._score()


_REST: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _rest_orders(n: int, out: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the other active seats in playing order (clockwise,
    skipping the seats in the ``out`` mask)."""
    key = (n, out)
    table = _REST.get(key)
    if table is None:
        rows = []
        for leader in range(n):
            row = []
            s = (leader + 1) % n
            while s != leader:
                if not out >> s & 1:
                    row.append(s)
                s = (s + 1) % n
            rows.append(tuple(row))
        table = _REST[key] = tuple(rows)
    return table


def _wrong_phase_reason(p: Phase, kind: int, h: FastHand) -> str:
    words = {
        _J: "the dealer must name a suit for the turned-up joker (call S)",
        _B1: "round one of bidding: pass or order",
        _PU: "the dealer must pick up (pickup C)" + (" or decline" if h.may_decline else ""),
        _B2: "round two of bidding: pass or call a suit",
        _MK: "the maker goes alone or merges the dummy without seeing it (alone or keep)",
        _KP: "the maker keeps five of the ten cards (keep C1 C2 C3 C4 C5)",
        _AL: "go alone or pass",
        _PL: "play a card (play C)",
    }
    return f"{KIND_NAMES[kind]} is not possible now: {words[p]}"


class HandState:
    """An immutable hand of Euchre. ``apply`` returns a new state."""

    __slots__ = ("_deal", "_h")
    _h: FastHand
    _deal: Deal

    def __init__(self, rules: Rules, dealer: int, deal: Deal) -> None:
        """Start a hand from an explicit deal (checked: ``DealError``)."""
        if not isinstance(dealer, int) or not 0 <= dealer < rules.seats:
            raise DealError(f"dealer must be a seat from 0 to {rules.seats - 1}, not {dealer!r}")
        deal.check(rules)
        object.__setattr__(self, "_deal", deal)
        object.__setattr__(self, "_h", FastHand.new(rules, dealer, deal))

    @classmethod
    def deal_random(cls, rules: Rules, dealer: int, rng: Random) -> HandState:
        """Start a hand with a deal shuffled by ``rng``."""
        return cls(rules, dealer, Deal.random(rules, rng))

    @classmethod
    def from_fast(cls, h: FastHand, deal: Deal) -> HandState:
        """The state whose core is ``h`` (not copied: the caller hands it over
        and must not change it afterwards), dealt from ``deal``. Neither is
        checked: this is the way back from search and sampling, whose cores
        come from ``fast()`` or ``FastHand.new`` of the same deal."""
        s = cls.__new__(cls)
        object.__setattr__(s, "_h", h)
        object.__setattr__(s, "_deal", deal)
        return s

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("HandState is immutable; use apply()")

    def __reduce__(self) -> tuple[object, tuple[FastHand, Deal]]:
        """Pickle as the core and the deal (for worker processes)."""
        return (HandState.from_fast, (self._h, self._deal))

    # -- the basics ----------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules of this hand."""
        return self._h.rules

    @property
    def deal(self) -> Deal:
        """The deal this hand started from."""
        return self._deal

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._h.dealer

    @property
    def core(self) -> FastHand:
        """The bit-mask core of this state, for fast reading (views, search).
        It is this state's own: never change it (``fast()`` gives a copy to
        change)."""
        return self._h

    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        return self._h.phase

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is (None when the hand is over)."""
        return None if self._h.phase == _OV else self._h.turn

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished."""
        return self._h.phase == _OV

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (empty when over)."""
        return [Action(c) for c in self._h.legal_codes()]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal for the seat to act."""
        return self._h.why_illegal(action.code) is None

    def why_illegal(
        self, action: Action, seat: int | None = None, *, you: bool = False, pretty: bool = False
    ) -> str | None:
        """None if ``seat`` (default: the seat to act) may take ``action`` now,
        else the reason in words: the one source of these reasons (the turn,
        the phase, the cards). ``you`` words it for the person in that seat,
        ``pretty`` writes cards with suit symbols (``FastHand.why_illegal``)."""
        h = self._h
        if h.phase == _OV:
            return "the hand is over"
        if seat is not None and seat != h.turn:
            if you:
                return f"it is not your turn: seat {h.turn} is to act"
            return f"it is seat {h.turn}'s turn, not seat {seat}'s"
        return h.why_illegal(action.code, you=you, pretty=pretty)

    def apply(self, action: Action, seat: int | None = None) -> HandState:
        """The state after ``action``; with ``seat``, also check it is that
        seat's turn. Raises ``IllegalActionError`` with the reason."""
        why = self.why_illegal(action, seat)
        if why is not None:
            raise IllegalActionError(why)
        h2 = self._h.copy()
        h2.step(action.code)
        return HandState.from_fast(h2, self._deal)

    def apply_recorded(self, action: Action, seat: int | None = None) -> HandState:
        """``apply`` for an action as records (and ``history``) write it: a full
        ``keep C1..C5`` while the Cutthroat maker is still to choose stands for
        the merge and the keep (RULES.md §5), and is applied as both."""
        why = self.why_illegal(action, seat)
        if why is None or (self._h.phase == _MK and action.code & 15 == KEEP):
            h2 = self._h.copy()
            why = h2.step_recorded(action.code)
            if why is None:
                return HandState.from_fast(h2, self._deal)
        raise IllegalActionError(why)

    def apply_all(self, actions: Iterable[Action | str]) -> HandState:
        """Apply a sequence of actions as records write them (strings are
        parsed; see ``apply_recorded``)."""
        s = self
        for a in actions:
            s = s.apply_recorded(Action.parse(a) if isinstance(a, str) else a)
        return s

    def fast(self) -> FastHand:
        """A mutable copy of the core, for search and playouts."""
        return self._h.copy()

    # -- public facts ------------------------------------------------------
    @property
    def up_card(self) -> Card:
        """The card turned up (``deal.kitty[0]``)."""
        return Card(self._h.up)

    @property
    def up_suit(self) -> Suit | None:
        """The suit the up-card stands for (the named suit for a joker)."""
        u = self._h.upsuit
        return None if u == 4 else Suit(u)

    @property
    def trump(self) -> Suit | None:
        """Trump, once chosen."""
        t = self._h.trump
        return None if t == 4 else Suit(t)

    @property
    def maker(self) -> int | None:
        """The seat that chose trump."""
        return None if self._h.maker < 0 else self._h.maker

    @property
    def picked_up(self) -> bool | None:
        """Whether the dealer picked up (None: not decided / not applicable)."""
        return self._h.picked

    @property
    def merged(self) -> bool:
        """Whether the Cutthroat maker merged the dummy."""
        return self._h.merged

    @property
    def alone(self) -> tuple[int, ...]:
        """Seats that went alone, in order."""
        return tuple(self._h.alone)

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """Seats sitting out this hand."""
        return tuple(s for s in range(self._h.n) if self._h.out >> s & 1)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far, per seat."""
        return tuple(self._h.tricks)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the trick in progress with who played them."""
        h = self._h
        seats = _trick_seats(h, h.leader, len(h.trick))
        return tuple(zip(seats, (Card(c) for c in h.trick), strict=True))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks."""
        h = self._h
        out = []
        for leader, cards, winner in h.trick_log:
            seats = _trick_seats(h, leader, len(cards))
            out.append(
                Trick(leader, tuple(zip(seats, (Card(c) for c in cards), strict=True)), winner)
            )
        return tuple(out)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far with its seat."""
        return tuple((s, Action(c)) for s, c in self._h.history)

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now (full information)."""
        return cards_of(self._h.hands[seat])

    @property
    def dummy(self) -> list[Card]:
        """The dummy as dealt (Cutthroat; full information). After a merge its
        cards are in the maker's hand or ``maker_discards``."""
        return cards_of(self._h.dummy)

    @property
    def dealer_discard(self) -> Card | None:
        """The dealer's discard after a pick-up (full information)."""
        d = self._h.dealer_discard
        return None if d < 0 else Card(d)

    @property
    def maker_discards(self) -> list[Card]:
        """The five cards the Cutthroat maker discarded when merging."""
        return cards_of(self._h.maker_discards)

    @property
    def result(self) -> HandResult | None:
        """The outcome once the hand is over, else None."""
        h = self._h
        if h.phase != _OV:
            return None
        return HandResult(
            thrown_in=h.thrown_in,
            trump=None if h.thrown_in else Suit(h.trump),
            maker=None if h.thrown_in else h.maker,
            alone=tuple(h.alone),
            tricks=tuple(h.tricks),
            points=tuple(h.points),
        )

    def __repr__(self) -> str:
        return (
            f"<HandState {self.rules.variant} dealer={self.dealer} phase={self.phase} "
            f"to_act={self.to_act} actions={len(self._h.history)}>"
        )


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards with their seats, who won."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


def _trick_seats(h: FastHand, leader: int, count: int) -> list[int]:
    seats = []
    s = leader
    for _ in range(count):
        seats.append(s)
        s = h.next_active(s)
    return seats
