"""The bot arena: bots against each other over many deals, in duplicate.

``euchre arena --bots search,rule,rule --variant cutthroat --deals N`` plays
every deal of a seeded sequence once per *seating* (duplicate format), so the
luck of the cards cancels out:

- **Cutthroat**: three bot entries (names may repeat); each deal is played in
  all six assignments of the three entries to the seats.
- **Partnership**: two entries (one per side: ``A,B`` puts A at seats 0 and 2,
  B at 1 and 3) or four (seat by seat); each deal is played twice, the second
  time with every entry moved one seat to the left, which swaps the sides.

A deal is a pure function of the master seed and its index: its own seed
(``deal_seed``), its dealer (the dealer passes to the left from deal to deal,
from a first dealer drawn from the master seed) and its cards; each bot of each
hand is built fresh with a seed derived from the deal seed, the seating and
the seat. So ``play_deals`` gives the same points in-process, in a
multiprocessing pool or as a Ray task, and results are aggregated in deal
order: the figures never depend on ``jobs`` or ``ray`` (only the decision
times do). Hands are played at a neutral match score (bots see no score) so
that deals are independent.

Figures per bot name (entries with the same name are pooled; a name ``NAME#TAG``
makes the bot ``NAME`` under its own label, to set a bot against itself):

- ``points_per_hand``: the mean of the points of the seat in each hand the bot
  sat in (partners both carry their side's points). Its ``ci95`` respects the
  duplicate pairing: per deal, the bot's mean over its seat-hands in all that
  deal's seatings is one observation; the interval is Student's t over the
  deals (mean ± t₀.₉₇₅,ₙ₋₁ · s/√n).
- pairwise differences: per deal, bot A's mean minus bot B's; the mean and the
  t interval over deals.
- ``matches_won``: for each seating, the hands of that seating along the deal
  sequence are scored as matches to the target — points add up from deal to
  deal until someone wins (``match.winners_of``), then the next match starts
  at 0 with the following deal; an unfinished last match is not counted. A
  match won counts once for each distinct bot name among the winning seats
  (partnership: the winning side).
- ``decision_ms_p50`` / ``decision_ms_p95``: wall time of each ``bots.act``
  call of the bot, in milliseconds (these depend on the machine and the load).

Only the standard library is needed here; the command line adds a ``rich``
progress bar and table, ``matplotlib`` plots and Ray runs (all imported lazily).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from statistics import NormalDist
from typing import Any

from .bots.base import Bot, StateBot, act
from .bots.registry import ARENA_BOTS, make_bot
from .hand import Deal, HandState
from .match import winners_of
from .rules import Rules

__all__ = [
    "ArenaResult",
    "BotStats",
    "DealResult",
    "DealTask",
    "PairStats",
    "UnknownBotError",
    "aggregate",
    "arena_tasks",
    "bot_kind",
    "check_lineup",
    "cumulative_difference",
    "deal_seed",
    "format_plain",
    "known_bot_names",
    "make_arena_bot",
    "mean_ci95",
    "percentile",
    "play_deal",
    "play_deals",
    "plot",
    "run_arena",
    "seatings",
    "t_quantile",
]

ProgressFn = Callable[[int], None]
"""Called with the number of deals just finished."""


# -- bots by name -------------------------------------------------------------------


class UnknownBotError(ValueError):
    """A bot name the arena cannot make (the message lists the known names)."""


def bot_kind(label: str) -> str:
    """The bot a lineup label makes: ``random#2`` → ``random`` (the part after
    ``#`` only tells entries apart), ``search:hard`` stays as it is."""
    return label.split("#", 1)[0].strip()


def known_bot_names() -> tuple[str, ...]:
    """The bot names the arena knows (``bots.registry.ARENA_BOTS``)."""
    return ARENA_BOTS


def make_arena_bot(label: str, seed: int | None = None) -> Bot | StateBot:
    """The bot for a lineup label, with its own seeded generator: ``bots.make_bot``
    on the label's bot name (``random``, ``rule``, ``search``, ``search:LEVEL``,
    ``cheat``). An unknown name raises ``UnknownBotError`` listing the known
    names; a known bot with a bad level raises it in ``make_bot``'s words.
    """
    kind = bot_kind(label)
    try:
        return make_bot(kind, seed)
    except ValueError as e:
        if ":" in kind and kind.split(":", 1)[0] in ARENA_BOTS:
            raise UnknownBotError(f"bot {label!r}: {e}") from None
        raise UnknownBotError(
            f"unknown bot {label!r} (known: {', '.join(ARENA_BOTS)}; "
            "NAME#TAG labels another entry of bot NAME)"
        ) from None


def check_lineup(labels: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """Validate a lineup for the variant; returns the labels stripped.

    Cutthroat wants 3 entries; partnership 2 (one per side) or 4 (seat by
    seat). Every name must make a bot. Raises ``ValueError`` (``UnknownBotError``
    for a bad name) saying what is wanted.
    """
    lineup = tuple(x.strip() for x in labels)
    if any(not x for x in lineup):
        raise ValueError("empty bot name in the lineup")
    if rules.cutthroat and len(lineup) != 3:
        raise ValueError(f"cutthroat wants 3 bots (one per seat), not {len(lineup)}")
    if not rules.cutthroat and len(lineup) not in (2, 4):
        raise ValueError(
            f"partnership wants 2 bots (one per side) or 4 (one per seat), not {len(lineup)}"
        )
    for label in dict.fromkeys(lineup):
        make_arena_bot(label, 0)
    return lineup


# -- deals and seatings ---------------------------------------------------------------


def _hash_int(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (0-based) of the sequence of master ``seed``."""
    return _hash_int(f"euchre-arena:{seed}:{index}")


def _bot_seed(dseed: int, seating: int, seat: int) -> int:
    return _hash_int(f"euchre-arena-bot:{dseed}:{seating}:{seat}")


def seatings(rules: Rules, entries: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of a deal: each maps seat → entry index of the lineup.

    Cutthroat (3 entries): all six permutations. Partnership: with 2 entries,
    ``(0, 1, 0, 1)`` and the sides swapped ``(1, 0, 1, 0)``; with 4 entries,
    ``(0, 1, 2, 3)`` and every entry one seat to the left ``(3, 0, 1, 2)``
    (which also swaps the sides).
    """
    if rules.cutthroat:
        if entries != 3:
            raise ValueError(f"cutthroat wants 3 bots, not {entries}")
        return tuple(permutations(range(3)))
    if entries == 2:
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if entries == 4:
        return ((0, 1, 2, 3), (3, 0, 1, 2))
    raise ValueError(f"partnership wants 2 or 4 bots, not {entries}")


@dataclass(frozen=True, slots=True)
class DealTask:
    """One unit of work: a deal of the sequence, to play in every seating."""

    index: int
    seed: int
    dealer: int
    lineup: tuple[str, ...]
    rules: Rules


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal in all its seatings.

    ``points[k][s]``: the points of seat ``s`` in seating ``k``;
    ``seatings[k][s]``: the lineup entry sitting at ``s``; ``times[label]``:
    the wall time in ms of each decision of that bot label in this deal.
    """

    index: int
    seed: int
    dealer: int
    seatings: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    times: dict[str, list[float]]


def arena_tasks(lineup: Sequence[str], rules: Rules, deals: int, seed: int) -> list[DealTask]:
    """The deal sequence of master ``seed``: ``deals`` tasks, in order. The
    first dealer is drawn from the seed; the deal passes to the left."""
    first = random.Random(_hash_int(f"euchre-arena-dealer:{seed}")).randrange(rules.seats)
    return [
        DealTask(k, deal_seed(seed, k), (first + k) % rules.seats, tuple(lineup), rules)
        for k in range(deals)
    ]


def play_deal(task: DealTask) -> DealResult:
    """Play one deal in all its seatings with fresh, seeded bots; collect each
    seat's points and each decision's wall time. A pure function of the task
    (apart from the times)."""
    rules = task.rules
    deal = Deal.random(rules, random.Random(task.seed))
    seats_of = seatings(rules, len(task.lineup))
    times: dict[str, list[float]] = {label: [] for label in dict.fromkeys(task.lineup)}
    points: list[tuple[int, ...]] = []
    clock = time.perf_counter
    for k, seating in enumerate(seats_of):
        labels = [task.lineup[e] for e in seating]
        bots = [
            make_arena_bot(label, _bot_seed(task.seed, k, seat))
            for seat, label in enumerate(labels)
        ]
        state = HandState(rules, task.dealer, deal)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            start = clock()
            action = act(bots[seat], state, seat, None)
            times[labels[seat]].append((clock() - start) * 1000.0)
            state = state.apply(action, seat)
        result = state.result
        assert result is not None
        points.append(tuple(result.points))
    return DealResult(task.index, task.seed, task.dealer, seats_of, tuple(points), times)


def play_deals(tasks: Sequence[DealTask]) -> list[DealResult]:
    """``play_deal`` over a batch (the unit shipped to a worker)."""
    return [play_deal(t) for t in tasks]


# -- statistics ---------------------------------------------------------------------


_T975 = {3: 3.182446305284263, 4: 2.7764451051977987}


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile: exact for 1 and 2 degrees of freedom (and 3, 4
    at ``p = 0.975``), otherwise Hill's Cornish–Fisher expansion (error below
    5e-4 from 5 degrees on)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    if p == 0.975 and df in _T975:
        return _T975[df]
    z = NormalDist().inv_cdf(p)
    v = float(df)
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    return (
        z
        + (z3 + z) / (4 * v)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * v**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v**3)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v**4)
    )


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% Student t interval
    (``n >= 2`` values, treated as independent observations)."""
    n = len(values)
    if n < 2:
        raise ValueError("a confidence interval needs at least 2 values")
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation; 0.0 if empty."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def cumulative_difference(
    per_deal_a: Sequence[float], per_deal_b: Sequence[float]
) -> tuple[list[int], list[float], list[float], list[float]]:
    """The cumulative sum of the per-deal differences A − B after each deal,
    with its 95% band (sum ± t·s·√k, s the running standard deviation of the
    differences; the band is the sum itself after the first deal).
    Returns ``(deals, cumulative, low, high)``."""
    xs: list[int] = []
    cum: list[float] = []
    low: list[float] = []
    high: list[float] = []
    total = mean = m2 = 0.0
    for k, (a, b) in enumerate(zip(per_deal_a, per_deal_b, strict=True), 1):
        d = a - b
        total += d
        delta = d - mean
        mean += delta / k
        m2 += delta * (d - mean)
        half = t_quantile(0.975, k - 1) * math.sqrt(m2 / (k - 1) * k) if k > 1 else 0.0
        xs.append(k)
        cum.append(total)
        low.append(total - half)
        high.append(total + half)
    return xs, cum, low, high


# -- aggregation --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStats:
    """The figures of one bot name (see the module docstring)."""

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


# -- running ----------------------------------------------------------------------------


def _chunks(tasks: Sequence[DealTask], size: int) -> list[list[DealTask]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _chunk_size(n: int, workers: int) -> int:
    return max(1, min(16, math.ceil(n / (workers * 4))))


def _run_local(tasks: Sequence[DealTask], progress: ProgressFn | None) -> Iterator[DealResult]:
    for t in tasks:
        yield play_deal(t)
        if progress:
            progress(1)


def _run_pool(
    tasks: Sequence[DealTask], jobs: int, progress: ProgressFn | None
) -> Iterator[DealResult]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # no fork under a progress thread
    chunks = _chunks(tasks, _chunk_size(len(tasks), jobs))
    with ctx.Pool(jobs) as pool:
        for batch in pool.imap_unordered(play_deals, chunks):
            yield from batch
            if progress:
                progress(len(batch))


def _run_ray(
    tasks: Sequence[DealTask], address: str, jobs: int | None, progress: ProgressFn | None
) -> Iterator[DealResult]:
    """Run the deals as Ray tasks. ``address`` is a cluster address (this
    ``euchre`` package is shipped to the workers with the job's
    ``runtime_env``; the workers need a Python ≥ 3.11 with Ray) or ``local``
    for a local Ray started here (``jobs`` CPUs, default all). A Ray already
    initialised in this process is used as it is and left running; one
    started here is shut down at the end."""
    import ray

    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(
                num_cpus=jobs or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        else:
            # ship this package to the workers (pure Python, no dependencies)
            package = os.path.dirname(os.path.abspath(__file__))
            ray.init(
                address=address,
                runtime_env={"py_modules": [package]},
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        started = True
    try:
        resources: Callable[[], dict[str, float]] = ray.cluster_resources
        workers = max(1, int(resources().get("CPU", 1)))
        remote = ray.remote(play_deals)
        pending = [remote.remote(c) for c in _chunks(tasks, _chunk_size(len(tasks), workers))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch: list[DealResult] = ray.get(ref)
                yield from batch
                if progress:
                    progress(len(batch))
    finally:
        if started:
            ray.shutdown()


def run_arena(
    lineup: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    jobs: int | None = None,
    ray: str | None = None,
    progress: ProgressFn | None = None,
) -> ArenaResult:
    """Play ``deals`` deals of master ``seed`` in duplicate and aggregate.

    ``jobs``: worker processes (default 1: in this process); ``ray``: a Ray
    cluster address or ``"local"`` (then ``jobs`` is the local Ray's CPUs).
    ``progress`` is called with the number of deals finished each time some
    finish. The figures (all but the times) are the same whatever ``jobs``
    and ``ray``.
    """
    lineup = check_lineup(lineup, rules)
    if deals < 2:
        raise ValueError("the arena needs at least 2 deals for its intervals")
    if jobs is not None and jobs < 1:
        raise ValueError("jobs must be at least 1")
    tasks = arena_tasks(lineup, rules, deals, seed)
    start = time.perf_counter()
    if ray is not None:
        results = list(_run_ray(tasks, ray, jobs, progress))
    elif jobs is not None and jobs > 1:
        results = list(_run_pool(tasks, jobs, progress))
    else:
        results = list(_run_local(tasks, progress))
    return aggregate(results, lineup, rules, seed, time.perf_counter() - start)


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
