"""Scoring a hand for a bot: what the points of a hand are worth to a seat.

Shared by the search bot (``search``) and the all-seeing measuring bot
(``cheat``): the points of every seat by the maker side's tricks
(``points_table``), their worth to one seat in the match situation
(``utility``, with ``MATCH_WIN`` for a hand that ends the match) and both
together (``utility_row``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..hand import FastHand
from ..match import winners_of
from ..rules import Rules

__all__ = ["MATCH_WIN", "points_table", "utility", "utility_row"]

#: Extra utility for a hand that wins the match (minus for one that loses it).
MATCH_WIN: Final = 4.0


def points_table(h: FastHand) -> list[tuple[int, ...]]:
    """For a hand whose trump, maker and lone players are settled: the points
    of every seat if the maker's side ends with 0, 1, ..., 5 tricks (the
    scoring of RULES.md §2 and §3)."""
    return [tuple(h.points_for(made)) for made in range(6)]


def utility(points: Sequence[int], seat: int, rules: Rules, scores: Sequence[int]) -> float:
    """What a hand's ``points`` are worth to ``seat``: own points minus the
    average of the others' (Cutthroat) or the side's points minus the other
    side's (partnership); plus ``MATCH_WIN`` if these points end the match
    with the seat (its side) among the winners (``match.winners_of``: the
    rule book's winning and tie rules; a shared win is divided among the
    sides sharing it), minus ``MATCH_WIN`` if they end it with others
    winning. ``scores`` of the wrong length (or empty) mean no match
    situation."""
    n = len(points)
    cutthroat = rules.cutthroat
    if cutthroat:
        value = points[seat] - (sum(points) - points[seat]) / (n - 1)
    else:
        value = float(points[seat] - points[(seat + 1) % 4])
    if not any(points) or len(scores) != n:
        return value
    winners = winners_of(rules, [s + p for s, p in zip(scores, points, strict=True)])
    if not winners:
        return value
    sides = {w if cutthroat else w & 1 for w in winners}
    mine = seat if cutthroat else seat & 1
    if mine in sides:
        return value + MATCH_WIN / len(sides)
    return value - MATCH_WIN


def utility_row(h: FastHand, seat: int, scores: Sequence[int]) -> list[float]:
    """Utility for ``seat`` by the maker side's final tricks, 0..5 (the hand's
    trump, maker and lone players settled)."""
    r = h.rules
    return [utility(p, seat, r, scores) for p in points_table(h)]
