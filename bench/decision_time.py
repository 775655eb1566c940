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


def timings(bot: SearchBot, chosen: list[HandState], pure_solver: bool) -> list[float]:
    """CPU ms of each decision."""
    import euchre.bots.search as search_module
    import euchre.solver as solver_module

    saved = search_module.Solver
    if pure_solver:
        search_module.Solver = solver_module.PureSolver  # type: ignore[misc]
    try:
        ms = []
        for s in chosen:
            seat = s.to_act
            assert seat is not None
            start = time.process_time()
            decide(bot, s, seat)
            ms.append((time.process_time() - start) * 1000.0)
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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.positions < 2:
        parser.error("--positions: want at least 2")
    chosen = positions(Rules(variant=args.variant), args.positions, args.seed)
    rows: dict[str, dict[str, float]] = {}
    if compiled_search.COMPILED_AVAILABLE:
        bot = SearchBot(random.Random(1), level=args.level, compiled_core=True)
        rows["compiled"] = summary(timings(bot, chosen, pure_solver=False))
    if not args.skip_pure:
        bot = SearchBot(random.Random(1), level=args.level, compiled_core=False)
        rows["pure"] = summary(timings(bot, chosen, pure_solver=True))
    if "compiled" in rows and "pure" in rows:
        rows["ratio"] = {
            key: rows["pure"][key] / max(1e-9, rows["compiled"][key]) for key in rows["pure"]
        }
    if args.json:
        print(
            json.dumps(
                {"level": args.level, "variant": args.variant, "decisions": len(chosen), **rows},
                indent=2,
            )
        )
        return
    print(f"search:{args.level}, {args.variant}, {len(chosen)} decisions, CPU ms on one core")
    print(f"{'path':<10} {'p50':>8} {'p95':>8} {'mean':>8}")
    for name, r in rows.items():
        unit = "x" if name == "ratio" else ""
        print(
            f"{name:<10} {r['p50_ms']:>7.1f}{unit or ' '} {r['p95_ms']:>7.1f}{unit or ' '}"
            f" {r['mean_ms']:>7.1f}{unit or ' '}"
        )
    if "compiled" not in rows:
        print("(the compiled search is not built: pure path only)")


if __name__ == "__main__":
    main()
