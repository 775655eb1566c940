"""What adapting to the opponents' calls buys: a search level that learns
across a session of hands how each other seat calls (``Level.adapt``,
``bots.style``) against the same level that does not, paired on the same
deals, each against opponents that call as the rule bot or unlike it.

The arena builds its bots fresh for every hand, so nothing is learnt there;
this script plays sessions instead. The arena's deals (``--seed``) are cut
into sessions of ``--session`` consecutive deals; in each seating of the
arena's duplicate (six in Cutthroat, two in partnership) the same bots play
the session's hands in order, the learning bot shown each finished hand
through its seat's view. Both runs see the same deals in the same seatings
with the same seeds, so their per-deal difference measures the learning::

    python bench/adapt.py --variant partnership --opponent rule:bold
    python bench/adapt.py --opponent rule:timid --deals 1000 --seed 7
    python bench/adapt.py --variant partnership --opponent rule --json

Prints, per run, ``search - opponent`` (points a hand, 95 % interval over
the deals), the paired gain of learning, and the shifts the learning bots
ended their sessions with (what they made of each opponent).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from _cli import add_arena_arguments, check_arena_arguments, paired_gain
from euchre import HandState, Rules
from euchre.arena import mean_ci95
from euchre.arena.tasks import DealTask, arena_tasks, bot_seed, seatings
from euchre.bots import SearchBot, act, hand_over, make_bot
from euchre.bots.registry import RULE_STYLES
from euchre.hand import Deal


def _bot(label: str, seed: int, learn: bool) -> Any:
    bot = make_bot(label, seed)
    if isinstance(bot, SearchBot) and not learn:
        bot.levels = {v: dataclasses.replace(lv, adapt=False) for v, lv in bot.levels.items()}
    return bot


def play_session(job: tuple[list[DealTask], bool]) -> tuple[list[float], list[float]]:
    """One session in every seating, the search learning or not: each deal's
    ``search - opponent`` averaged over the seatings, and the shifts the
    search bots ended with for their opponents."""
    tasks, learn = job
    rules = tasks[0].rules
    lineup = tasks[0].lineup
    seats_of = seatings(rules, len(lineup))
    per_deal = [0.0] * len(tasks)
    shifts: list[float] = []
    for k, seating in enumerate(seats_of):
        labels = [lineup[e] for e in seating]
        first = tasks[0].seed
        bots = [_bot(label, bot_seed(first, k, seat), learn) for seat, label in enumerate(labels)]
        mine = [s for s, label in enumerate(labels) if label == lineup[0]]
        theirs = [s for s in range(rules.seats) if s not in mine]
        for i, task in enumerate(tasks):
            state = HandState(rules, task.dealer, Deal.random(rules, random.Random(task.seed)))
            while not state.is_over:
                seat = state.to_act
                assert seat is not None
                state = state.apply(act(bots[seat], state, seat, None), seat)
            for s in mine:
                hand_over(bots[s], state, s)
            result = state.result
            assert result is not None
            pts = result.points
            diff = sum(pts[s] for s in mine) / len(mine) - sum(pts[s] for s in theirs) / len(theirs)
            per_deal[i] += diff / len(seats_of)
        for s in mine:
            styles = bots[s].styles
            if styles is not None:
                shifts += [styles.shift(o) for o in theirs]
    return per_deal, shifts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arena_arguments(parser)
    parser.add_argument(
        "--level", default="hard", help="the search level (one that adapts; default hard)"
    )
    parser.add_argument(
        "--opponent",
        choices=("rule", *(f"rule:{s}" for s in RULE_STYLES)),
        default="rule:bold",
        help="the opponents (default rule:bold)",
    )
    parser.add_argument(
        "--session", type=int, default=25, help="hands a session, learnt across (default 25)"
    )
    args = parser.parse_args()
    check_arena_arguments(parser, args)
    if args.session < 1:
        parser.error("--session: at least 1 hand")
    label = f"search:{args.level}"
    rules = Rules(variant=args.variant)
    try:
        probe = make_bot(label, 0)
    except ValueError as e:
        parser.error(f"--level: {e}")
    assert isinstance(probe, SearchBot)
    if not probe.level_for(rules).adapt:
        parser.error(f"--level: {args.level} does not adapt (Level.adapt)")
    lineup = [label, *[args.opponent] * (2 if rules.cutthroat else 1)]
    tasks = arena_tasks(lineup, rules, args.deals, args.seed)
    sessions = [tasks[i : i + args.session] for i in range(0, len(tasks), args.session)]
    out: dict[str, Any] = {
        "variant": args.variant,
        "level": args.level,
        "opponent": args.opponent,
        "deals": args.deals,
        "session": args.session,
        "seed": args.seed,
    }
    runs: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for key, learn in (("plain", False), ("adapting", True)):
            start = time.perf_counter()
            per_deal: list[float] = []
            shifts: list[float] = []
            jobs = [(s, learn) for s in sessions]
            for done, (d, sh) in enumerate(pool.map(play_session, jobs), 1):
                per_deal += d
                shifts += sh
                if not args.json:
                    note = f"\r{key}: session {done}/{len(sessions)}"
                    print(note, end="", file=sys.stderr, flush=True)
            if not args.json:
                print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
            runs[key] = per_deal
            mean, lo, hi = mean_ci95(per_deal)
            out[key] = {
                "difference": round(mean, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "seconds": round(time.perf_counter() - start, 1),
            }
            if learn:
                out["shifts_learnt"] = dict(sorted(Counter(shifts).items()))
            if not args.json:
                print(
                    f"{key:9} {label} - {args.opponent}: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                    f"  ({out[key]['seconds']:.0f} s)",
                    flush=True,
                )
    _, out["gain"] = paired_gain(runs["adapting"], runs["plain"])
    if args.json:
        print(json.dumps(out))
    else:
        mean, (lo, hi) = out["gain"]["mean"], out["gain"]["ci95"]
        print(f"gain      adapting - plain: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] a hand")
        learnt = ", ".join(f"{k:+.1f}: {v}" for k, v in out["shifts_learnt"].items())
        print(f"shifts learnt at the sessions' ends (opponent seats): {learnt}")


if __name__ == "__main__":
    main()
