"""The arena's figures: deal results aggregated per bot and per pair of bots
(see the package docstring), the ``--out`` JSON, the plain-text table and the
plot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..match import winners_of
from ..rules import Rules
from .stats import cumulative_difference, mean_ci95, percentile
from .tasks import DealResult

__all__ = ["ArenaResult", "BotStats", "PairStats", "aggregate", "format_plain", "plot"]


@dataclass(frozen=True, slots=True)
class BotStats:
    """The figures of one bot name (see the ``euchre.arena`` docstring)."""

    name: str
    entries: int
    seat_hands: int
    points_per_hand: float
    ci95: tuple[float, float]
    matches_won: int
    decisions: int
    decision_ms_p50: float
    decision_ms_p95: float


@dataclass(frozen=True, slots=True)
class PairStats:
    """Bot ``a``'s points per hand minus bot ``b``'s, paired by deal."""

    a: str
    b: str
    difference: float
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """Everything an arena run measured, in deal order."""

    rules: Rules
    lineup: tuple[str, ...]
    seed: int
    deals: int
    seatings: tuple[tuple[int, ...], ...]
    bots: tuple[BotStats, ...]
    pairs: tuple[PairStats, ...]
    matches_played: int
    per_deal: dict[str, list[float]] = field(repr=False)
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``--out`` object: ``bots`` maps each name to ``points_per_hand``,
        ``ci95`` ([low, high]), ``matches_won``, ``decision_ms_p50``,
        ``decision_ms_p95`` (and ``entries``, ``seat_hands``, ``decisions``);
        ``pairs`` lists ``{"a", "b", "points_per_hand_difference", "ci95"}``."""
        return {
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "lineup": list(self.lineup),
            "seed": self.seed,
            "deals": self.deals,
            "seatings_per_deal": len(self.seatings),
            "hands": self.deals * len(self.seatings),
            "matches_played": self.matches_played,
            "bots": {
                b.name: {
                    "points_per_hand": _r(b.points_per_hand),
                    "ci95": [_r(b.ci95[0]), _r(b.ci95[1])],
                    "matches_won": b.matches_won,
                    "decision_ms_p50": _r(b.decision_ms_p50),
                    "decision_ms_p95": _r(b.decision_ms_p95),
                    "entries": b.entries,
                    "seat_hands": b.seat_hands,
                    "decisions": b.decisions,
                }
                for b in self.bots
            },
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "points_per_hand_difference": _r(p.difference),
                    "ci95": [_r(p.ci95[0]), _r(p.ci95[1])],
                }
                for p in self.pairs
            ],
            "elapsed_s": round(self.elapsed_s, 3),
        }


def _r(x: float) -> float:
    return round(x, 6)


def aggregate(
    results: Sequence[DealResult],
    lineup: Sequence[str],
    rules: Rules,
    seed: int,
    elapsed_s: float = 0.0,
) -> ArenaResult:
    """Combine deal results (sorted here by deal index) into the figures."""
    ordered = sorted(results, key=lambda r: r.index)
    if len(ordered) < 2:
        raise ValueError("the arena needs at least 2 deals for its intervals")
    lineup = tuple(lineup)
    names = list(dict.fromkeys(lineup))
    seats_of = ordered[0].seatings
    per_deal: dict[str, list[float]] = {n: [] for n in names}
    seat_hands = dict.fromkeys(names, 0)
    times: dict[str, list[float]] = {n: [] for n in names}
    for res in ordered:
        sums = dict.fromkeys(names, 0)
        counts = dict.fromkeys(names, 0)
        for seating, pts in zip(res.seatings, res.points, strict=True):
            for seat, entry in enumerate(seating):
                sums[lineup[entry]] += pts[seat]
                counts[lineup[entry]] += 1
        for n in names:
            per_deal[n].append(sums[n] / counts[n])
            seat_hands[n] += counts[n]
            times[n].extend(res.times.get(n, ()))
    wins = dict.fromkeys(names, 0)
    played = 0
    for k, seating in enumerate(seats_of):
        scores = [0] * rules.seats
        for res in ordered:
            for seat, p in enumerate(res.points[k]):
                scores[seat] += p
            winners = winners_of(rules, scores)
            if winners:
                played += 1
                for n in {lineup[seating[s]] for s in winners}:
                    wins[n] += 1
                scores = [0] * rules.seats
    bots = []
    for n in names:
        mean, lo, hi = mean_ci95(per_deal[n])
        bots.append(
            BotStats(
                name=n,
                entries=lineup.count(n),
                seat_hands=seat_hands[n],
                points_per_hand=mean,
                ci95=(lo, hi),
                matches_won=wins[n],
                decisions=len(times[n]),
                decision_ms_p50=percentile(times[n], 50),
                decision_ms_p95=percentile(times[n], 95),
            )
        )
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            diffs = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
            mean, lo, hi = mean_ci95(diffs)
            pairs.append(PairStats(a, b, mean, (lo, hi)))
    return ArenaResult(
        rules=rules,
        lineup=lineup,
        seed=seed,
        deals=len(ordered),
        seatings=seats_of,
        bots=tuple(bots),
        pairs=tuple(pairs),
        matches_played=played,
        per_deal=per_deal,
        elapsed_s=elapsed_s,
    )


# -- output -------------------------------------------------------------------------------


def format_plain(result: ArenaResult) -> str:
    """The results as plain text (when ``rich`` is not installed)."""
    lines = [
        f"{result.rules.describe()}: {result.deals} deals x {len(result.seatings)} seatings, "
        f"{result.matches_played} matches to {result.rules.target}"
    ]
    lines.append(f"{'bot':<16} {'points/hand':>12} {'95% CI':>20} {'won':>5} {'ms p50/p95':>16}")
    for b in result.bots:
        ci = f"[{b.ci95[0]:+.3f}, {b.ci95[1]:+.3f}]"
        ms = f"{b.decision_ms_p50:.2f}/{b.decision_ms_p95:.2f}"
        lines.append(
            f"{b.name:<16} {b.points_per_hand:>12.3f} {ci:>20} {b.matches_won:>5} {ms:>16}"
        )
    for p in result.pairs:
        lines.append(
            f"{p.a} - {p.b}: {p.difference:+.3f} points/hand, 95% CI "
            f"[{p.ci95[0]:+.3f}, {p.ci95[1]:+.3f}]"
        )
    return "\n".join(lines)


def plot(result: ArenaResult, path: str) -> None:
    """Write a PNG: for each pair of bots, the cumulative points difference
    over the deals with its 95% band (needs ``matplotlib``; Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        for p in result.pairs:
            xs, cum, low, high = cumulative_difference(result.per_deal[p.a], result.per_deal[p.b])
            (line,) = ax.plot(xs, cum, label=f"{p.a} − {p.b}")
            ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2)
        ax.axhline(0.0, color="grey", linewidth=0.8)
        ax.set_xlabel("deals")
        ax.set_ylabel("cumulative points difference")
        ax.set_title(
            f"euchre arena: {', '.join(result.lineup)} ({result.rules.variant}, seed {result.seed})"
        )
        if result.pairs:
            ax.legend(loc="best")
        fig.tight_layout()
        fig.savefig(path, format="png", dpi=100)
    finally:
        plt.close(fig)
