"""Random playouts: whole hands from a fresh random deal, with a uniformly
random legal action at every decision (``FastHand.playout``).

Two paths with the same signatures:

- compiled (the C extension ``euchre._cplayout``, built by the install when a
  C compiler is present): the deal and the whole hand in C, with its own
  generator (xoshiro256** seeded from the 64-bit seed by splitmix64);
- pure (``FastHand.random`` / ``Deal.random`` then ``FastHand.playout`` with
  ``random.Random(seed)``), the readable reference.

Both choose with the same distribution at every decision, but from different
random streams: the same seed gives different hands on the two paths (tests
compare their statistics; every compiled hand also replays legally through
``HandState``). ``random_hand`` and ``playouts`` are the compiled ones when
the extension is built (``COMPILED``), unless the environment variable
``EUCHRE_PURE`` is ``1`` when this module is imported.

``playouts(rules, n, seed)`` plays ``n`` hands in one call (no Python object
per hand on the compiled path): hand ``i`` is ``random_hand(rules, i % seats,
seed + i)``, so batches whose seed ranges overlap share hands.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from random import Random
from types import ModuleType

from .hand import Deal, FastHand
from .rules import Rules

__all__ = [
    "COMPILED",
    "COMPILED_AVAILABLE",
    "HandOutcome",
    "PlayoutError",
    "PlayoutTotals",
    "compiled_playouts",
    "compiled_random_hand",
    "playouts",
    "pure_playouts",
    "pure_random_hand",
    "random_hand",
    "rule_flags",
]


class PlayoutError(ValueError):
    """A playout was asked for something impossible (a dealer outside the
    table, a negative number of hands, the compiled path when not built)."""


def _load_compiled() -> ModuleType | None:
    """The extension module ``euchre._cplayout``, or None when it is not built."""
    try:
        from . import _cplayout
    except ImportError:
        return None
    return _cplayout


_cplayout = _load_compiled()

#: Whether the compiled playouts are built (``compiled_*`` usable).
COMPILED_AVAILABLE: bool = _cplayout is not None
#: Whether ``random_hand`` and ``playouts`` are the compiled ones: built, and
#: ``EUCHRE_PURE`` not ``1`` when this module was imported.
COMPILED: bool = COMPILED_AVAILABLE and os.environ.get("EUCHRE_PURE") != "1"

#: One random hand: the deal, the history as ``(seat, code)`` pairs in
#: ``FastHand.history`` form, the points per seat.
HandOutcome = tuple[Deal, list[tuple[int, int]], tuple[int, ...]]

_SEED_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class PlayoutTotals:
    """What a batch of random hands came to."""

    hands: int  #: hands played
    decisions: int  #: actions taken, as ``FastHand.history`` counts them
    thrown_in: int  #: hands thrown in (everyone passed, or a joker redeal)
    alone: int  #: hands played with at least one lone player
    made: tuple[int, ...]  #: played hands by the maker side's tricks, 0 to 5
    points: tuple[int, ...]  #: points per seat, summed


def rule_flags(rules: Rules) -> int:
    """The options that matter to a random playout, as the bit flags of the
    compiled module (the order of its ``F_`` constants)."""
    return (
        rules.stick_the_dealer
        | (rules.dealer_pickup == "optional") << 1
        | rules.may_name_turned_down_suit << 2
        | rules.dealer_may_discard_upcard << 3
        | (rules.joker_upcard == "redeal") << 4
        | rules.defenders_may_go_alone << 5
        | (rules.lone_lead == "left_of_lone") << 6
        | rules.dummy_decline_is_alone << 7
    )


def _check_dealer(rules: Rules, dealer: int) -> None:
    if type(dealer) is not int or not 0 <= dealer < rules.seats:
        raise PlayoutError(f"dealer must be a seat from 0 to {rules.seats - 1}, not {dealer!r}")


def _check_count(n: int) -> None:
    if type(n) is not int or n < 0:
        raise PlayoutError(f"the number of hands must be a whole number >= 0, not {n!r}")


def _compiled() -> ModuleType:
    if _cplayout is None:
        raise PlayoutError("the compiled playouts (euchre._cplayout) are not built")
    return _cplayout


def compiled_random_hand(rules: Rules, dealer: int, seed: int) -> HandOutcome:
    """One random hand dealt by ``dealer`` on the compiled path, from ``seed``
    (taken modulo 2**64): (the deal, the history, the points per seat)."""
    _check_dealer(rules, dealer)
    order, history, points = _compiled().hand(
        rules.cutthroat,
        rules.deck,
        rule_flags(rules),
        rules.lone_defender_points,
        dealer,
        seed & _SEED_MASK,
    )
    return Deal.from_order(rules, order), history, points


def pure_random_hand(rules: Rules, dealer: int, seed: int) -> HandOutcome:
    """One random hand dealt by ``dealer`` on the pure path: ``Deal.random``
    then ``FastHand.playout``, both with ``random.Random(seed)``."""
    _check_dealer(rules, dealer)
    rng = Random(seed)
    deal = Deal.random(rules, rng)
    h = FastHand.new(rules, dealer, deal)
    h.playout(rng)
    return deal, h.history, tuple(h.points)


def compiled_playouts(rules: Rules, n: int, seed: int) -> PlayoutTotals:
    """``n`` random hands on the compiled path in one call (hand ``i``:
    ``compiled_random_hand(rules, i % seats, seed + i)``), with the GIL
    released while they are played."""
    _check_count(n)
    decisions, thrown_in, alone, made, points = _compiled().playouts(
        rules.cutthroat,
        rules.deck,
        rule_flags(rules),
        rules.lone_defender_points,
        n,
        seed & _SEED_MASK,
    )
    return PlayoutTotals(n, decisions, thrown_in, alone, made, points)


def pure_playouts(rules: Rules, n: int, seed: int) -> PlayoutTotals:
    """``n`` random hands on the pure path (hand ``i``: ``pure_random_hand(rules,
    i % seats, seed + i)``, without building the deal's ``Card`` objects)."""
    _check_count(n)
    seats = rules.seats
    decisions = thrown_in = alone = 0
    made = [0] * 6
    points = [0] * seats
    for i in range(n):
        rng = Random(seed + i)
        h = FastHand.random(rules, i % seats, rng)
        h.playout(rng)
        decisions += len(h.calls) + sum(len(cards) for _, cards, _ in h.trick_log)
        if h.thrown_in:
            thrown_in += 1
            continue
        alone += bool(h.alone)
        made[h.side_tricks()] += 1
        for s in range(seats):
            points[s] += h.points[s]
    return PlayoutTotals(n, decisions, thrown_in, alone, tuple(made), tuple(points))


#: One random hand: ``compiled_random_hand`` when ``COMPILED``, else ``pure_random_hand``.
random_hand = compiled_random_hand if COMPILED else pure_random_hand
#: A batch of random hands: ``compiled_playouts`` when ``COMPILED``, else ``pure_playouts``.
playouts = compiled_playouts if COMPILED else pure_playouts
