"""Exact double-dummy solver for the card play (all cards known).

Given a hand in its play phase (any position: between tricks or inside one;
three or four active players; seats sitting out; either variant), the solver
answers how many tricks the maker's side takes with best play by both sides
(``max_tricks``) and yes/no questions ("can the maker's side take at least
k?", ``can_take``). The maker's side is the maker alone in Cutthroat (who
plays the merged hand, if any, from his seat) and the maker with partner in
partnership; the other active seats defend together.

Techniques: bit-mask hands; a Boolean alpha-beta search for each zero-window
question ("at least k?"); a transposition table of lower/upper bounds keyed
at trick boundaries (leader and the remaining hands), shared between the
questions of one solve; equivalent-card pruning (cards of one suit with no
outstanding card between them are interchangeable, so only one is tried);
and quick cut-offs when the needed tricks are already won or out of reach.

``minimax_tricks`` is a plain, unpruned minimax kept as the reference the
tests compare against.
"""

from __future__ import annotations

from .cards import EFFECTIVE_SUIT, POWER, SUIT_MASK
from .hand import FastHand

__all__ = ["Solver", "SolverError", "can_take", "max_tricks", "minimax_tricks"]


class SolverError(ValueError):
    """The position is not in the card-play phase."""


_PLAY_PHASE = 6


class Solver:
    """Solves one position; ``nodes`` counts the search nodes visited."""

    __slots__ = (
        "best",
        "eff",
        "hands",
        "leader",
        "led",
        "left",
        "move_cache",
        "nodes",
        "orders",
        "power",
        "rank_lists",
        "side",
        "smask",
        "trick",
        "trick_seats",
        "trump",
        "tt",
        "winner",
        "won",
    )  # fmt: skip

    def __init__(self, h: FastHand) -> None:
        if h.phase != _PLAY_PHASE:
            raise SolverError("the solver needs a hand in its play phase")
        t = h.trump
        self.trump = t
        self.eff = EFFECTIVE_SUIT[t]
        self.smask = SUIT_MASK[t]
        self.power = POWER[t]
        n = h.n
        maker = h.maker
        self.side = [0] * n
        for s in range(n):
            if h.out >> s & 1:
                continue
            if s == maker or (not h.cut and (s - maker) % 2 == 0):
                self.side[s] = 1
        active = [s for s in range(n) if not h.out >> s & 1]
        self.orders: list[tuple[int, ...]] = [()] * n
        for s in active:
            i = active.index(s)
            self.orders[s] = tuple(active[i:] + active[:i])
        # For equivalent-card pruning: each effective suit's cards strongest first.
        self.rank_lists = []
        for suit in range(4):
            ids = [c for c in range(33) if self.eff[c] == suit]
            ids.sort(key=lambda c: -self.power[suit][c])
            self.rank_lists.append(ids)
        self.tt: dict[tuple[int, ...], list[int]] = {}
        self.move_cache: dict[tuple[int, int], tuple[int, ...]] = {}
        self.nodes = 0
        self.hands = [0 if h.out >> s & 1 else h.hands[s] for s in range(n)]
        self.trick = h.trick[:]
        self.leader = h.leader
        self.trick_seats = list(self.orders[h.leader][: len(h.trick)]) if h.trick else []
        self.led = h.led
        self.best = h.best
        self.winner = h.winner
        self.won = sum(h.tricks[s] for s in range(n) if self.side[s])
        self.left = 5 - len(h.trick_log)

    # -- public queries ------------------------------------------------------------
    def can_take(self, k: int) -> bool:
        """Whether the maker's side can make its total at least ``k`` tricks."""
        need = k - self.won
        if need <= 0:
            return True
        if need > self.left:
            return False
        if self.trick:
            pos = len(self.trick)
            order = self.orders[self.leader]
            tmask = 0
            for c in self.trick:
                tmask |= 1 << c
            return self._trick(order, pos, self.led, self.best, self.winner, need, self.left, tmask)
        return self._search(self.leader, need, self.left)

    def max_tricks(self) -> int:
        """The maker side's total tricks (already won included) with best play."""
        lo, hi = self.won, self.won + self.left
        # zero-window tests, starting at 3 (making it or not), then outwards
        guess = min(max(3, lo + 1), hi)
        while lo < hi:
            if self.can_take(guess):
                lo = guess
                guess += 1
            else:
                hi = guess - 1
                guess -= 1
        return lo

    # -- search --------------------------------------------------------------------
    def _search(self, leader: int, need: int, left: int) -> bool:
        """At a trick boundary: can the maker side take ``need`` of ``left``?"""
        if need <= 0:
            return True
        if need > left:
            return False
        hands = self.hands
        if left == 1:  # one card each: play it out
            order = self.orders[leader]
            c = hands[leader].bit_length() - 1
            pw = self.power[self.eff[c]]
            best, w = pw[c], leader
            for s in order[1:]:
                c = hands[s].bit_length() - 1
                if pw[c] > best:
                    best, w = pw[c], s
            self.nodes += 1
            return self.side[w] == 1
        key = (leader, *hands)
        entry = self.tt.get(key)
        if entry is not None:
            if entry[0] >= need:
                return True
            if entry[1] < need:
                return False
        else:
            entry = [0, left]
            self.tt[key] = entry
        order = self.orders[leader]
        result = self._trick(order, 0, 4, -1, -1, need, left, 0)
        if result:
            if need > entry[0]:
                entry[0] = need
        elif need - 1 < entry[1]:
            entry[1] = need - 1
        return result

    def _moves(self, cand: int, tmask: int) -> tuple[int, ...]:
        """Candidate cards with equivalent ones removed, strongest first (cards
        still held or on the table in this trick separate equivalents)."""
        hands = self.hands
        rem = tmask
        for m in hands:
            rem |= m
        key = (cand, rem)
        cached = self.move_cache.get(key)
        if cached is not None:
            return cached
        out: list[int] = []
        smask = self.smask
        for suit in range(4):
            if not cand & smask[suit]:
                continue
            prev_mine = False
            for c in self.rank_lists[suit]:
                b = 1 << c
                if not rem & b:
                    continue
                if cand & b:
                    if not prev_mine:
                        out.append(c)
                    prev_mine = True
                else:
                    prev_mine = False
        res = tuple(out)
        self.move_cache[key] = res
        return res

    def _trick(
        self,
        order: tuple[int, ...],
        pos: int,
        led: int,
        best: int,
        winner: int,
        need: int,
        left: int,
        tmask: int,
    ) -> bool:
        self.nodes += 1
        seat = order[pos]
        hands = self.hands
        hand = hands[seat]
        if pos:
            cand = hand & self.smask[led] or hand
        else:
            cand = hand
        maximizing = self.side[seat]
        last = pos == len(order) - 1
        power = self.power
        for c in self._moves(cand, tmask):
            b = 1 << c
            hands[seat] = hand ^ b
            if pos == 0:
                led2 = self.eff[c]
                b2, w2 = power[led2][c], seat
            else:
                led2 = led
                pw = power[led][c]
                if pw > best:
                    b2, w2 = pw, seat
                else:
                    b2, w2 = best, winner
            if last:
                res = self._search(w2, need - self.side[w2], left - 1)
            else:
                res = self._trick(order, pos + 1, led2, b2, w2, need, left, tmask | b)
            hands[seat] = hand
            if res:
                if maximizing:
                    return True
            elif not maximizing:
                return False
        return not maximizing


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
            maker = h.maker
            return sum(
                h.tricks[s]
                for s in range(h.n)
                if s == maker or (not h.cut and (s - maker) % 2 == 0)
            )
        raise SolverError("the solver needs a hand in its play phase")
    maker = h.maker
    seat = h.turn
    mine = seat == maker or (not h.cut and (seat - maker) % 2 == 0)
    values = []
    for code in h.legal_codes():
        child = h.copy()
        child.step(code)
        values.append(minimax_tricks(child))
    return max(values) if mine else min(values)
