"""CPU time of ``search:hard`` decisions on a fixed set of Cutthroat positions.

The positions are every third decision of 12 hands the rule bot plays from a
fixed seed (40 of them: bids, pick-ups, the maker's choice, card play). The
same positions and the same bot seed every run, so two runs differ only in the
code that thinks — e.g. the compiled solver against ``EUCHRE_PURE=1``::

    python bench/decision_time.py
    EUCHRE_PURE=1 python bench/decision_time.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from euchre import HandState, Rules
from euchre.bots import decide, make_bot
from euchre.solver import COMPILED


def positions(hands: int, seed: int) -> list[HandState]:
    """Every decision of ``hands`` hands the rule bot plays from ``seed``."""
    rng = random.Random(seed)
    out = []
    for k in range(hands):
        s = HandState.deal_random(Rules(), k % 3, rng)
        bots = [make_bot("rule", k * 3 + i) for i in range(3)]
        while not s.is_over:
            seat = s.to_act
            assert seat is not None
            out.append(s)
            s = s.apply(decide(bots[seat], s, seat), seat)
    return out


def main() -> None:
    """Print p50 / p95 / mean CPU ms of the level's decisions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", help="search level (default hard)")
    parser.add_argument("--positions", type=int, default=40, help="how many (default 40)")
    args = parser.parse_args()
    chosen = positions(12, 5)[::3][: args.positions]
    bot = make_bot(f"search:{args.level}", 1)
    ms = []
    for s in chosen:
        seat = s.to_act
        assert seat is not None
        start = time.process_time()
        decide(bot, s, seat)
        ms.append((time.process_time() - start) * 1000.0)
    p95 = statistics.quantiles(ms, n=20)[18]
    solver = "compiled" if COMPILED else "pure"
    print(
        f"search:{args.level}, {len(ms)} decisions, {solver} solver: "
        f"p50 {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, mean {statistics.mean(ms):.0f} ms"
    )


if __name__ == "__main__":
    main()
