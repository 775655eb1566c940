"""Exact double-dummy solver for the card play (all cards known).

Given a hand in its play phase (any position: between tricks or inside one;
three or four active players; seats sitting out; either variant), the solver
answers how many tricks the maker's side takes with best play by both sides
(``max_tricks``), yes/no questions ("can the maker's side take at least
k?", ``can_take``) and the value of each legal card of the seat to act
(``move_values``). The maker's side is the maker alone in Cutthroat (who
plays the merged hand, if any, from his seat) and the maker with partner in
partnership; the other active seats defend together.

Techniques:

- bit-mask hands in a solver-private card numbering: each effective suit is
  a field of 11 bits, cards ordered by trick-taking power, trump the highest
  field, so "beats" is an integer comparison and the top card of a suit is
  ``bit_length``;
- a Boolean alpha-beta search for each zero-window question ("at least
  k?"); ``max_tricks`` asks only the questions needed, starting at the
  count of one greedy play (right more often than not) and going outwards
  from there inside the bounds it already knows;
- a transposition table keyed at trick boundaries (leader and the remaining
  hands) holding lower and upper bounds and the last cut-off lead, shared by
  all the questions asked of one ``Solver`` (so ``move_values`` and repeated
  questions reuse the work);
- equivalent-card pruning: cards of one suit with no other remaining card
  between them (cards on the table in this trick count) are interchangeable,
  so only one of them is tried;
- quick bounds on a new boundary: a player's trumps above every trump of the
  other side each win a trick, for either side; and the leader cashes his
  trumps above everyone else's and, if that draws all the other trumps, his
  remaining trumps and his top cards in sequence in each plain suit;
- move ordering: the remembered cut-off lead first, then the weakest lead;
  a follower tries the cheapest card that takes the trick from the other
  side first; when the own side is winning the trick, the last to play
  plays low and the others try their strongest card first;
- the last trick played out directly, and the "already made / out of reach"
  tests done before a call.

``minimax_tricks`` is a plain, unpruned minimax kept as the reference the
tests compare against.

Two implementations: ``PureSolver`` (this module, the readable reference)
and ``CompiledSolver``, a port of it to C (the extension ``euchre._csolver``,
built by the install when a C compiler is present; the same search step by
step, so the same answers and the same ``nodes``). ``Solver`` is the compiled
one when it is built (``COMPILED``), unless the environment variable
``EUCHRE_PURE`` is ``1`` when this module is imported; then, or without the
extension, it is the pure one.
"""

from __future__ import annotations

import os
from types import ModuleType

from .cards import EFFECTIVE_SUIT, POWER, ids_of
from .hand import FastHand, Phase

__all__ = [
    "COMPILED",
    "COMPILED_AVAILABLE",
    "CompiledSolver",
    "PureSolver",
    "Solver",
    "SolverError",
    "can_take",
    "max_tricks",
    "minimax_tricks",
]


class SolverError(ValueError):
    """The position is not in the card-play phase."""


_PLAY_PHASE = Phase.PLAY
_W = 11  # bits per suit field: up to 10 cards of a suit (trump, 32 cards + joker) + sentinel
_TRUMP_FIELD = 3
_TRUMP_BASE = _TRUMP_FIELD * _W
#: Always "remaining" for the equivalence test: the top bit of every field, so
#: cards of different suits are never equivalent.
_SENTINELS = sum(1 << (f * _W + _W - 1) for f in range(4))
_FIELD_MASK = tuple(((1 << (_W - 1)) - 1) << (f * _W) for f in range(4))
_TRUMPS = _FIELD_MASK[_TRUMP_FIELD]
_PLAIN_FIELDS = _FIELD_MASK[:_TRUMP_FIELD]
_SUIT_OF = tuple(i // _W for i in range(4 * _W))


def _numbering(trump: int) -> list[int]:
    """For trump suit ``trump``: each card id's solver-private number."""
    eff = EFFECTIVE_SUIT[trump]
    power = POWER[trump]
    fields = [s for s in range(4) if s != trump] + [trump]
    out = [-1] * 33
    for f, suit in enumerate(fields):
        ids = sorted((c for c in range(33) if eff[c] == suit), key=lambda c: power[suit][c])
        for i, c in enumerate(ids):
            out[c] = f * _W + i
    return out


_NUMBERING = tuple(_numbering(t) for t in range(4))
#: The same, as the compiled solver takes it: one byte a card id (255: none).
_NUMBERING_BYTES = tuple(bytes(n if n >= 0 else 255 for n in num) for num in _NUMBERING)


def _representatives(cards: int, rem: int) -> list[int]:
    """Equivalent-card pruning: the bits of ``cards``, strongest first, keeping
    one of each run of cards with no other remaining card (``rem``) between
    them (they win and lose the same tricks)."""
    moves = []
    prev = 0
    m = cards
    while m:
        c = m.bit_length() - 1
        b = 1 << c
        m ^= b
        if prev and not rem & (prev - (b << 1)):
            prev = b
            continue
        prev = b
        moves.append(c)
    return moves


class PureSolver:
    """Solves one position (pure Python: the reference); ``nodes`` counts
    the search nodes visited (card choices searched, and last tricks played
    out).

    A solver may be asked any number of questions (``can_take``,
    ``max_tricks``, ``move_values``); its transposition table carries over
    between them. It does not change the ``FastHand`` it was built from.
    """

    __slots__ = (
        "best",
        "ext",
        "hands",
        "led",
        "left",
        "nact",
        "nodes",
        "order",
        "orders",
        "side",
        "tmask",
        "trick",
        "tt",
        "turn",
        "winner",
        "won",
    )  # fmt: skip

    def __init__(self, h: FastHand) -> None:
        if h.phase != _PLAY_PHASE:
            raise SolverError("the solver needs a hand in its play phase")
        num = _NUMBERING[h.trump]
        ext = [-1] * (4 * _W)
        for c in range(33):
            if num[c] >= 0:
                ext[num[c]] = c
        self.ext = ext
        n = h.n
        side = [0, 0, 0, 0]
        hands = [0, 0, 0, 0]
        active = []
        for s in range(n):
            if h.out >> s & 1:
                continue
            active.append(s)
            if h.on_maker_side(s):
                side[s] = 1
            m = 0
            for c in ids_of(h.hands[s]):
                m |= 1 << num[c]
            hands[s] = m
        self.side = side
        self.hands = hands
        self.nact = len(active)
        orders: list[tuple[int, ...]] = [(), (), (), ()]
        for i, s in enumerate(active):
            orders[s] = tuple(active[i:] + active[:i])
        self.orders = orders
        self.tt: dict[tuple[int, int, int, int, int], list[int]] = {}
        self.nodes = 0
        self.won = sum(h.tricks[s] for s in range(n) if side[s])
        self.left = 5 - len(h.trick_log)
        # the trick under way, in solver numbering
        self.order = orders[h.leader]
        self.trick = [num[c] for c in h.trick]
        self.turn = len(h.trick)
        best = winner = -1
        led = -1
        tmask = 0
        for i, c in enumerate(self.trick):
            tmask |= 1 << c
            if i == 0:
                led = _SUIT_OF[c]
            if c > best and (_SUIT_OF[c] == led or c >= _TRUMP_BASE):
                best, winner = c, self.order[i]
        self.led, self.best, self.winner, self.tmask = led, best, winner, tmask

    # -- public queries ------------------------------------------------------------
    def can_take(self, k: int) -> bool:
        """Whether the maker's side can make its total at least ``k`` tricks."""
        return self._can(k - self.won)

    def max_tricks(self) -> int:
        """The maker side's total tricks (already won included) with best play."""
        return self.won + self._value()

    def move_values(self) -> dict[int, int]:
        """For each legal card id of the seat to act: the maker side's total
        tricks (already won included) with best play after playing it."""
        pos = self.turn
        seat = self.order[pos]
        hand = self.hands[seat]
        cand = hand & _FIELD_MASK[self.led] if pos else 0
        cand = cand or hand
        rem = self.tmask | _SENTINELS
        for m in self.hands:
            rem |= m
        out: dict[int, int] = {}
        ext = self.ext
        saved = (self.trick, self.turn, self.led, self.best, self.winner, self.tmask)
        saved_order, saved_left, saved_won = self.order, self.left, self.won
        prev = 0
        value = 0
        m = cand
        try:
            while m:
                c = m.bit_length() - 1
                b = 1 << c
                m ^= b
                if prev and not rem & (prev - (b << 1)):
                    out[ext[c]] = value  # equivalent to the card above it
                    prev = b
                    continue
                prev = b
                self._play(seat, c)
                value = self.won + self._value(value - self.won if out else -1)
                out[ext[c]] = value
                self.hands[seat] = hand
                self.trick, self.turn, self.led, self.best, self.winner, self.tmask = saved
                self.order, self.left, self.won = saved_order, saved_left, saved_won
        finally:
            self.hands[seat] = hand
            self.trick, self.turn, self.led, self.best, self.winner, self.tmask = saved
            self.order, self.left, self.won = saved_order, saved_left, saved_won
        return out

    # -- position bookkeeping for move_values ------------------------------------
    def _play(self, seat: int, c: int) -> None:
        """Play card ``c`` (solver numbering) for ``seat`` in the root position."""
        b = 1 << c
        self.hands[seat] ^= b
        trick = [*self.trick, c]
        if len(trick) == 1:
            self.led = _SUIT_OF[c]
        if c > self.best and (_SUIT_OF[c] == self.led or c >= _TRUMP_BASE):
            self.best, self.winner = c, seat
        if len(trick) < self.nact:
            self.trick = trick
            self.turn = len(trick)
            self.tmask |= b
            return
        w = self.winner
        self.won += self.side[w]
        self.left -= 1
        self.order = self.orders[w]
        self.trick = []
        self.turn = 0
        self.led = self.best = self.winner = -1
        self.tmask = 0

    # -- drivers -------------------------------------------------------------------
    def _can(self, need: int) -> bool:
        """Can the maker side take ``need`` of the tricks still to play?"""
        left = self.left
        if need <= 0:
            return True
        if need > left:
            return False
        rem = self.tmask | _SENTINELS
        for m in self.hands:
            rem |= m
        pos = self.turn
        if pos:
            return self._trick(
                self.order, pos, self.led, self.best, self.winner, need, left, rem, self.tmask
            )
        return self._search(self.order[0], need, left, rem)

    def _value(self, hint: int = -1) -> int:
        """The maker side's tricks still to come, with best play (``hint``: a
        likely value to ask about first, else a greedy play's count)."""
        lo, hi = 0, self.left
        if hi == 0:
            return 0
        if not self.turn and hi > 1:
            # the transposition entry's bounds (quick tricks on a fresh one)
            e = self._entry(self.order[0], hi)
            lo, hi = e[0], e[1]
        if lo == hi:
            return lo
        # zero-window questions from a greedy play's count, outwards
        guess = min(max(self._estimate() if hint < 0 else hint, lo + 1), hi)
        while lo < hi:
            if self._can(guess):
                lo = guess
                guess += 1
            else:
                hi = guess - 1
                guess -= 1
        return lo

    def _estimate(self) -> int:
        """The maker side's tricks still to come in one greedy play: lead the
        strongest card; follow with the cheapest card that takes the trick
        from the other side, else the weakest."""
        hands = self.hands[:]
        side = self.side
        order = self.order
        pos = self.turn
        led, best, winner = self.led, self.best, self.winner
        count = 0
        for _ in range(self.left):
            for seat in order[pos:]:
                hand = hands[seat]
                if pos == 0:
                    c = hand.bit_length() - 1
                    led, best, winner = _SUIT_OF[c], c, seat
                else:
                    cand = hand & _FIELD_MASK[led]
                    follow = cand != 0
                    if not follow:
                        cand = hand
                    c = (cand & -cand).bit_length() - 1  # weakest
                    if side[winner] != side[seat]:
                        m = cand
                        while m:
                            d = (m & -m).bit_length() - 1
                            if d > best and (follow or d >= _TRUMP_BASE):
                                c = d
                                break
                            m &= m - 1
                    if c > best and (follow or c >= _TRUMP_BASE):
                        best, winner = c, seat
                hands[seat] = hand ^ (1 << c)
                pos += 1
            count += side[winner]
            order = self.orders[winner]
            pos = 0
        return count

    # -- search --------------------------------------------------------------------
    def _search(self, leader: int, need: int, left: int, rem: int) -> bool:
        """At a trick boundary: can the maker side take ``need`` of ``left``?
        (``rem``: the cards still held, with the field sentinels.)"""
        if need <= 0:
            return True
        if need > left:
            return False
        hands = self.hands
        if left == 1:  # one card each: play it out
            self.nodes += 1
            best = hands[leader]
            w = leader
            led = _SUIT_OF[best.bit_length() - 1]
            for s in self.orders[leader][1:]:
                m = hands[s]
                if m > best and (m >> _TRUMP_BASE or _SUIT_OF[m.bit_length() - 1] == led):
                    best, w = m, s
            return self.side[w] == 1
        entry = self.tt.get((leader, hands[0], hands[1], hands[2], hands[3]))
        if entry is None:
            entry = self._entry(leader, left)
        if entry[0] >= need:
            return True
        if entry[1] < need:
            return False
        # the leader's choice: the remembered cut-off card first, then weakest first
        self.nodes += 1
        hand = hands[leader]
        maximizing = self.side[leader]
        order = self.orders[leader]
        first = entry[2]
        moves = _representatives(hand, rem)
        moves.reverse()
        if first >= 0 and hand >> first & 1:
            if first in moves:
                moves.remove(first)
            moves.insert(0, first)
        trick = self._trick
        result = not maximizing
        for c in moves:
            b = 1 << c
            hands[leader] = hand ^ b
            res = trick(order, 1, _SUIT_OF[c], c, leader, need, left, rem, b)
            hands[leader] = hand
            if res:
                if maximizing:
                    entry[2] = c
                    result = True
                    break
            elif not maximizing:
                entry[2] = c
                result = False
                break
        if result:
            if need > entry[0]:
                entry[0] = need
        elif need - 1 < entry[1]:
            entry[1] = need - 1
        return result

    def _entry(self, leader: int, left: int) -> list[int]:
        """The transposition entry ``[lower, upper, cut-off lead]`` of the trick
        boundary with ``leader`` to lead, made with quick bounds if new.

        Quick bounds: a player's trumps above every trump of the other side
        each win a trick (they are played in different tricks), for either
        side. And the leader can cash his trumps above everyone else's; if
        that draws every other player's trumps, all his trumps and then his
        top cards of each plain suit (in sequence) win too.
        """
        hands = self.hands
        key = (leader, hands[0], hands[1], hands[2], hands[3])
        entry = self.tt.get(key)
        if entry is not None:
            return entry
        side = self.side
        order = self.orders[leader]
        hand = hands[leader]
        mine = hand & _TRUMPS
        mk = df = others = rest = most = 0
        for s in order:
            m = hands[s]
            rest |= m
            t = m & _TRUMPS
            if side[s]:
                mk |= t
            else:
                df |= t
            if s != leader:
                others |= t
                n = t.bit_count()
                if n > most:
                    most = n
        lo = up = 0
        if mk or df:
            mk_top = mk.bit_length()
            df_top = df.bit_length()
            for s in order:
                if side[s]:
                    n = ((hands[s] & _TRUMPS) >> df_top).bit_count()
                    if n > lo:
                        lo = n
                else:
                    n = ((hands[s] & _TRUMPS) >> mk_top).bit_count()
                    if n > up:
                        up = n
        # the leader cashing
        cash = (mine >> others.bit_length()).bit_count()
        if cash >= most:
            cash = mine.bit_count()
            for fm in _PLAIN_FIELDS:
                r = rest & fm
                while r:
                    b = 1 << (r.bit_length() - 1)
                    if not hand & b:
                        break
                    cash += 1
                    r ^= b
        if side[leader]:
            if cash > lo:
                lo = cash
        elif cash > up:
            up = cash
        if lo > left:
            lo = left
        if up > left:
            up = left
        entry = [lo, left - up, -1]
        self.tt[key] = entry
        return entry

    def _trick(
        self,
        order: tuple[int, ...],
        pos: int,
        led: int,
        best: int,
        winner: int,
        need: int,
        left: int,
        rem: int,
        tmask: int,
    ) -> bool:
        """A follower's choice (``pos`` > 0) inside the trick."""
        self.nodes += 1
        seat = order[pos]
        hands = self.hands
        hand = hands[seat]
        side = self.side
        mine = side[seat]
        last = pos == len(order) - 1
        cand = hand & _FIELD_MASK[led]
        follow = cand != 0
        if not follow:
            cand = hand
        if cand & (cand - 1):
            moves = _representatives(cand, rem)  # strongest first
            if side[winner] != mine:
                # the other side is winning: cheapest winning card, then weakest
                k = 0
                for c in moves:
                    if c > best and (follow or c >= _TRUMP_BASE):
                        k += 1
                    else:
                        break
                moves = moves[k - 1 :: -1] + moves[: k - 1 : -1] if k else moves[::-1]
            elif last:
                moves.reverse()  # our side is winning: play low
        else:
            moves = [cand.bit_length() - 1]
        for c in moves:
            b = 1 << c
            hands[seat] = hand ^ b
            if c > best and (follow or c >= _TRUMP_BASE):
                b2, w2 = c, seat
            else:
                b2, w2 = best, winner
            if last:
                n2 = need - side[w2]
                if n2 <= 0:
                    res = True
                elif n2 >= left:
                    res = False
                else:
                    res = self._search(w2, n2, left - 1, rem ^ tmask ^ b)
            else:
                res = self._trick(order, pos + 1, led, b2, w2, need, left, rem, tmask | b)
            hands[seat] = hand
            if res:
                if mine:
                    return True
            elif not mine:
                return False
        return not mine


def _load_compiled() -> ModuleType | None:
    """The extension module ``euchre._csolver``, or None when it is not built."""
    try:
        from . import _csolver
    except ImportError:
        return None
    return _csolver


_csolver = _load_compiled()

#: The compiled search releases the GIL once one call has visited this many
#: nodes (0: never). Solves of five-card hands stay far below (a few thousand
#: nodes at most, about 0.1 ms): taking the GIL back can cost a thread a whole
#: switch interval (5 ms) when others are busy, much more than the search.
RELEASE_GIL_AFTER_NODES = 16384

#: Whether the compiled solver is built (``CompiledSolver`` usable).
COMPILED_AVAILABLE: bool = _csolver is not None
#: Whether ``Solver`` is the compiled solver: built, and ``EUCHRE_PURE`` not
#: ``1`` when this module was imported.
COMPILED: bool = COMPILED_AVAILABLE and os.environ.get("EUCHRE_PURE") != "1"


class CompiledSolver:
    """Solves one position with the compiled solver (``euchre._csolver``):
    the same questions, answers and ``nodes`` as ``PureSolver``, whose
    search it ports to C. Raises ``SolverError`` when the extension is not
    built (``COMPILED_AVAILABLE``) or the hand is not in its play phase.

    One solver serves one thread at a time; the search releases the GIL when
    it runs long.
    """

    __slots__ = ("_core",)

    def __init__(self, h: FastHand) -> None:
        if _csolver is None:
            raise SolverError("the compiled solver (euchre._csolver) is not built")
        if h.phase != _PLAY_PHASE:
            raise SolverError("the solver needs a hand in its play phase")
        maker = h.maker
        side = 1 << maker if h.cut else 0b0101 << (maker & 1)
        self._core = _csolver.core(
            _NUMBERING_BYTES[h.trump],
            h.n,
            h.out,
            side,
            h.hands,
            h.trick,
            h.leader,
            h.tricks,
            len(h.trick_log),
            RELEASE_GIL_AFTER_NODES,
        )

    @property
    def nodes(self) -> int:
        """The search nodes visited so far (counted as ``PureSolver`` does)."""
        n: int = self._core.nodes
        return n

    def can_take(self, k: int) -> bool:
        """Whether the maker's side can make its total at least ``k`` tricks."""
        r: bool = self._core.can_take(k)
        return r

    def max_tricks(self) -> int:
        """The maker side's total tricks (already won included) with best play."""
        r: int = self._core.max_tricks()
        return r

    def move_values(self) -> dict[int, int]:
        """For each legal card id of the seat to act: the maker side's total
        tricks (already won included) with best play after playing it."""
        r: dict[int, int] = self._core.move_values()
        return r


#: The solver in use: ``CompiledSolver`` when ``COMPILED``, else ``PureSolver``.
Solver: type[PureSolver] | type[CompiledSolver] = CompiledSolver if COMPILED else PureSolver


def max_tricks(h: FastHand) -> int:
    """Tricks the maker's side takes in all (won so far included) with best play."""
    return Solver(h).max_tricks()


def can_take(h: FastHand, k: int) -> bool:
    """Whether the maker's side can take at least ``k`` tricks in all."""
    return Solver(h).can_take(k)


def minimax_tricks(h: FastHand) -> int:
    """Reference: plain minimax over the legal plays (slow; for tests)."""
    if h.phase != _PLAY_PHASE:
        if h.over:
            return sum(h.tricks[s] for s in range(h.n) if h.on_maker_side(s))
        raise SolverError("the solver needs a hand in its play phase")
    mine = h.on_maker_side(h.turn)
    values = []
    for code in h.legal_codes():
        child = h.copy()
        child.step(code)
        values.append(minimax_tricks(child))
    return max(values) if mine else min(values)
