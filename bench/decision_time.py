"""CPU time of search decisions on a fixed set of positions, compiled and pure.

The positions are every third decision of the hands the rule bot plays from a
fixed seed (40 of them by default: bids, pick-ups, the maker's choice, card
play). The same positions and the same bot seed every run; the two rows are
the same level on the compiled core (``euchre._csearch``, with the compiled
solver) and on the Python reference (with the Python solver), measured in the
same run, and their ratio::

    python bench/decision_time.py                      # hard, Cutthroat
    python bench/decision_time.py --variant partnership
    python bench/decision_time.py --level expert --positions 60
    python bench/decision_time.py --json
    python bench/decision_time.py --variant partnership --deadline 0.6

``--deadline S`` gives each decision S seconds (``SearchBot.deadline``; a
web table gives its bots the pace, ``--bot-delay``, 0.6 s by default, or
half of ``--bot-timeout`` if that is less) and times it on the wall clock,
counting the decisions it cut short.

Targets: compiled ``hard`` p50 <= 10 ms, p95 <= 40 ms on one core (issue 17);
issue 20 spends more on the decisions before the play (own-play rollouts)
within p50 <= 50 ms, and the p95 is now near 40 ms in both variants (figures
in docs/strength.md).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from euchre import HandState, Rules
from euchre.bots import compiled as compiled_search
from euchre.bots import decide, make_bot
from euchre.bots.registry import SEARCH_LEVELS
from euchre.bots.search import SearchBot


def positions(rules: Rules, count: int, seed: int) -> list[HandState]:
    """Every third decision of the hands the rule bot plays from ``seed``,
    the first ``count`` of them."""
    rng = random.Random(seed)
    out: list[HandState] = []
    k = 0
    while len(out) < count * 3:
        s = HandState.deal_random(rules, k % rules.seats, rng)
        bots = [make_bot("rule", k * 4 + i) for i in range(rules.seats)]
        while not s.is_over:
            seat = s.to_act
            assert seat is not None
            out.append(s)
            s = s.apply(decide(bots[seat], s, seat), seat)
        k += 1
    return out[::3][:count]


def timings(
    bot: SearchBot, chosen: list[HandState], pure_solver: bool, deadline: float | None = None
) -> list[float]:
    """CPU ms of each decision; with ``deadline`` (seconds each decision is
    given, ``SearchBot.deadline``), wall-clock ms."""
    import euchre.bots.search as search_module
    import euchre.solver as solver_module

    saved = search_module.Solver
    if pure_solver:
        search_module.Solver = solver_module.PureSolver  # type: ignore[misc]
    try:
        ms = []
        clock = time.process_time if deadline is None else time.perf_counter
        for s in chosen:
            seat = s.to_act
            assert seat is not None
            if deadline is not None:
                bot.deadline = time.time() + deadline
            start = clock()
            decide(bot, s, seat)
            ms.append((clock() - start) * 1000.0)
        return ms
    finally:
        search_module.Solver = saved  # type: ignore[misc]


def summary(ms: list[float]) -> dict[str, float]:
    """p50, p95 and mean of the timings."""
    return {
        "p50_ms": statistics.median(ms),
        "p95_ms": statistics.quantiles(ms, n=20)[18],
        "mean_ms": statistics.mean(ms),
    }


def main() -> None:
    """Print p50 / p95 / mean CPU ms of the level's decisions on both paths."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--level", default="hard", choices=SEARCH_LEVELS, help="search level (default hard)"
    )
    parser.add_argument(
        "--variant",
        default="cutthroat",
        choices=("cutthroat", "partnership"),
        help="the game (default cutthroat)",
    )
    parser.add_argument("--positions", type=int, default=40, help="how many (default 40)")
    parser.add_argument("--seed", type=int, default=5, help="the positions' seed (default 5)")
    parser.add_argument("--skip-pure", action="store_true", help="time the compiled path only")
    parser.add_argument(
        "--deadline",
        type=float,
        metavar="SECONDS",
        help="give each decision this long (SearchBot.deadline) and time it on the wall clock",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.positions < 2:
        parser.error("--positions: want at least 2")
    if args.deadline is not None and not args.deadline > 0:
        parser.error("--deadline: want a number of seconds above 0")
    chosen = positions(Rules(variant=args.variant), args.positions, args.seed)
    rows: dict[str, dict[str, float]] = {}
    cut: dict[str, int] = {}  # decisions cut short by the deadline, by path
    wanted = {"compiled": compiled_search.COMPILED_AVAILABLE, "pure": not args.skip_pure}
    for name, on in wanted.items():
        if not on:
            continue
        on_core = name == "compiled"
        bot = SearchBot(random.Random(1), level=args.level, compiled_core=on_core)
        rows[name] = summary(timings(bot, chosen, not on_core, args.deadline))
        cut[name] = bot.cut_short
    if "compiled" in rows and "pure" in rows:
        rows["ratio"] = {
            key: rows["pure"][key] / max(1e-9, rows["compiled"][key]) for key in rows["pure"]
        }
    if args.json:
        print(
            json.dumps(
                {
                    "level": args.level,
                    "variant": args.variant,
                    "decisions": len(chosen),
                    "deadline_s": args.deadline,
                    "cut_short": cut,
                    **rows,
                },
                indent=2,
            )
        )
        return
    clock = "CPU ms on one core" if args.deadline is None else f"wall ms, {args.deadline} s each"
    print(f"search:{args.level}, {args.variant}, {len(chosen)} decisions, {clock}")
    head = "  cut short" if args.deadline is not None else ""
    print(f"{'path':<10} {'p50':>8} {'p95':>8} {'mean':>8}{head}")
    for name, r in rows.items():
        unit = "x" if name == "ratio" else ""
        print(
            f"{name:<10} {r['p50_ms']:>7.1f}{unit or ' '} {r['p95_ms']:>7.1f}{unit or ' '}"
            f" {r['mean_ms']:>7.1f}{unit or ' '}"
            + (f"  {cut[name]:>9}" if name in cut and args.deadline is not None else "")
        )
    if "compiled" not in rows:
        print("(the compiled search is not built: pure path only)")


if __name__ == "__main__":
    main()
