"""Speed of the double-dummy solver (``euchre.solver``) at the first lead.

Random deals (seeded) are bid at random until the card play starts, keeping
only positions with the wanted number of active players:

- ``three``: Cutthroat with nobody sitting out, or partnership with one
  player sitting out (a lone player), half of each;
- ``four``: partnership with nobody alone.

Each position is solved in full (``max_tricks()``, a fresh solver each
time, as a search bot would) by both implementations, the compiled one
(``CompiledSolver``, C) and the pure-Python reference (``PureSolver``), and
timed with ``time.perf_counter``: the best of ``--repeat`` runs (the machine
is shared; a solve is deterministic, so the best run is the one least
disturbed by other processes). The table gives, for each, the median and
95th percentile time and the median number of search nodes (the same for
both: the C code ports the search step by step), and the pure/compiled ratio
of the medians. Targets, one core: the compiled solver within 2x of a plain C
solver, median ≤ 12 us with three active players and ≤ 32 us with four; the
pure one ≤ 0.3 ms and ≤ 1 ms. Without the extension built only the pure one
is timed. Usage::

    python bench/solver.py [--n 2000] [--seed 1] [--deck 24] [--repeat 3] [--compare 5] [--json]

With ``--json`` exactly one JSON object is printed:
``{"three": {"compiled": {"median_us", "p95_us", "nodes", ...}, "pure": {...},
"ratio"}, "four": {...}}`` (``compiled`` and ``ratio`` null without the
extension).
``--compare K`` also times the plain minimax (``minimax_tricks``) on K
positions with three active players, checks that it agrees and prints the
speed-up (four active players at the first lead take minimax seconds each).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from typing import Any

from euchre import FastHand, Phase, Rules
from euchre.solver import COMPILED_AVAILABLE, CompiledSolver, PureSolver, minimax_tricks

PLAY_PHASE = Phase.PLAY
#: Median targets in microseconds, by implementation and active players.
TARGET_US = {
    "compiled": {"three": 12.0, "four": 32.0},
    "pure": {"three": 300.0, "four": 1000.0},
}
IMPLEMENTATIONS: dict[str, type[PureSolver] | type[CompiledSolver]] = {
    "compiled": CompiledSolver,
    "pure": PureSolver,
}


def random_position(rng: random.Random, active: int, deck: int) -> FastHand:
    """A random deal bid at random (uniform legal actions) up to the first
    lead, with ``active`` players taking part in the play."""
    while True:
        cut = active == 3 and rng.random() < 0.5
        rules = Rules(variant="cutthroat" if cut else "partnership", deck=deck)
        h = FastHand.random(rules, rng.randrange(rules.seats), rng)
        while h.phase < PLAY_PHASE:
            codes = h.legal_codes()
            h.step(codes[rng.randrange(len(codes))])
        if h.phase == PLAY_PHASE and h.n - h.out.bit_count() == active:
            return h


def positions(n: int, active: int, seed: int, deck: int) -> list[FastHand]:
    """``n`` seeded positions with ``active`` players."""
    rng = random.Random(f"{seed}-{active}-{deck}")
    return [random_position(rng, active, deck) for _ in range(n)]


def measure(
    hands: list[FastHand],
    repeat: int = 1,
    solver: type[PureSolver] | type[CompiledSolver] = PureSolver,
) -> dict[str, Any]:
    """Time a full solve of each position with ``solver`` (the best of
    ``repeat`` solves, each with a fresh solver, to shed the noise of other
    processes; the rounds go over all positions in turn); the summary figures."""
    best = [float("inf")] * len(hands)
    nodes: list[int] = [0] * len(hands)
    clock = time.perf_counter
    gc.collect()
    for _ in range(repeat):
        for i, h in enumerate(hands):
            t0 = clock()
            s = solver(h)
            s.max_tricks()
            t = clock() - t0
            if t < best[i]:
                best[i] = t
            nodes[i] = s.nodes
    times = best
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return {
        "median_us": round(statistics.median(times) * 1e6, 2),
        "p95_us": round(p95 * 1e6, 2),
        "mean_us": round(statistics.fmean(times) * 1e6, 2),
        "max_us": round(times[-1] * 1e6, 1),
        "nodes": statistics.median(nodes),
        "mean_nodes": round(statistics.fmean(nodes), 1),
        "n": len(hands),
        "repeat": repeat,
    }


def compare(hands: list[FastHand]) -> dict[str, float]:
    """Plain minimax against the solver on ``hands`` (checked equal)."""
    t_min = t_sol = 0.0
    for h in hands:
        t0 = time.perf_counter()
        want = minimax_tricks(h)
        t1 = time.perf_counter()
        got = PureSolver(h).max_tricks()
        t2 = time.perf_counter()
        if got != want:
            raise SystemExit(f"solver says {got}, minimax says {want}")
        t_min += t1 - t0
        t_sol += t2 - t1
    return {
        "minimax_ms": round(t_min / len(hands) * 1e3, 2),
        "solver_ms": round(t_sol / len(hands) * 1e3, 4),
        "speedup": round(t_min / t_sol, 1) if t_sol else float("inf"),
        "n": len(hands),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a table or (``--json``) one JSON object."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="positions of each kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deck", type=int, default=24, choices=(24, 25, 32))
    ap.add_argument("--repeat", type=int, default=3, help="time each solve R times, keep the best")
    ap.add_argument("--compare", type=int, default=0, help="plain-minimax comparison on K")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    kinds = ["compiled", "pure"] if COMPILED_AVAILABLE else ["pure"]
    result: dict[str, Any] = {}
    for name, active in (("three", 3), ("four", 4)):
        hands = positions(args.n, active, args.seed, args.deck)
        row: dict[str, Any] = {"compiled": None, "ratio": None}
        for kind in kinds:
            measure(hands[: min(50, len(hands))], 1, IMPLEMENTATIONS[kind])  # warm-up
            row[kind] = measure(hands, args.repeat, IMPLEMENTATIONS[kind])
            row[kind]["target_median_us"] = TARGET_US[kind][name]
        if row["compiled"]:
            row["ratio"] = round(row["pure"]["median_us"] / row["compiled"]["median_us"], 1)
        result[name] = row
    if args.compare:
        hands = positions(args.compare, 3, args.seed, args.deck)
        result["minimax_three"] = compare(hands)
    result["deck"] = args.deck
    result["seed"] = args.seed
    result["python"] = sys.version.split()[0]

    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"double-dummy solver, first lead, {args.n} random deals each, deck {args.deck}, "
        f"seed {args.seed},"
    )
    print(f"best of {args.repeat} per position, Python {result['python']}, one core")
    print()
    print(
        f"{'active':<8}{'solver':<10}{'median us':>11}{'target':>9}{'p95 us':>9}"
        f"{'mean us':>9}{'nodes':>8}"
    )
    for name in ("three", "four"):
        for kind in kinds:
            r = result[name][kind]
            ok = "ok" if r["median_us"] <= r["target_median_us"] else "MISSED"
            print(
                f"{name:<8}{kind:<10}{r['median_us']:>11.2f}{'≤ ' + str(r['target_median_us']):>9}"
                f"{r['p95_us']:>9.1f}{r['mean_us']:>9.1f}{r['nodes']:>8}  {ok}"
            )
        if result[name]["ratio"] is not None:
            print(f"{'':<8}pure / compiled medians: {result[name]['ratio']}x")
    if not COMPILED_AVAILABLE:
        print("(the compiled solver is not built: pure Python only)")
    if args.compare:
        c = result["minimax_three"]
        print()
        print(
            f"plain minimax, three active, {c['n']} positions: {c['minimax_ms']} ms each, "
            f"pure solver {c['solver_ms']} ms: {c['speedup']}x faster"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
