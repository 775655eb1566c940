"""Where a bot's edge over the rule bot comes from: its calls or its card play.

A *split* bot makes the calls (every decision before the play: the joker
call, bids, pick-up and discard, alone, the Cutthroat maker's merge and
keep) like one bot and plays the cards like another. Each row is an arena
run (duplicate, the same deals for every row) of one split against rule
bots, so the rows add up to the whole edge within their intervals::

    python bench/edge_split.py                          # search:hard, Cutthroat
    python bench/edge_split.py --variant partnership --deals 1000 --seed 2026
    python bench/edge_split.py --bot cheat              # the all-seeing bot's split
    python bench/edge_split.py --json

Rows: ``split:BOT/rule`` (the bot's calls, the rule bot's card play),
``split:rule/BOT`` (the rule bot's calls, the bot's card play) and ``BOT``
whole. The split bots are the arena's (``euchre.arena.SplitBot``: each half
asked as the arena asks a bot, through the seat's view, the all-seeing
``cheat`` with the state), so a row is also ``euchre arena --bots
split:BOT/rule,rule,rule ...``. Figures in docs/strength.md.
"""

from __future__ import annotations

import argparse
import json
import time

from _cli import add_arena_arguments, check_arena_arguments
from euchre import Rules
from euchre.arena import make_arena_bot, run_arena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arena_arguments(parser, per="row")
    parser.add_argument(
        "--bot", default="search:hard", help="the bot to split (default search:hard)"
    )
    args = parser.parse_args()
    check_arena_arguments(parser, args)
    try:
        make_arena_bot(args.bot)
    except ValueError as e:
        raise SystemExit(f"edge_split: {e}") from None
    rules = Rules(variant=args.variant)
    others = ["rule"] * (rules.seats - 1 if rules.cutthroat else 1)
    rows = {
        "calls": f"split:{args.bot}/rule",
        "play": f"split:rule/{args.bot}",
        "whole": args.bot,
    }
    out: dict[str, object] = {
        "bot": args.bot,
        "variant": args.variant,
        "deals": args.deals,
        "seed": args.seed,
    }
    for key, label in rows.items():
        start = time.perf_counter()
        res = run_arena([label, *others], rules, args.deals, args.seed, jobs=args.jobs)
        pair = next(p for p in res.pairs if p.a == label and p.b == "rule")
        out[key] = {
            "lineup": [label, *others],
            "difference": round(pair.difference, 4),
            "ci95": [round(pair.ci95[0], 4), round(pair.ci95[1], 4)],
            "seconds": round(time.perf_counter() - start, 1),
        }
        if not args.json:
            lo, hi = pair.ci95
            print(
                f"{key:6} {label:28} - rule: {pair.difference:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                f"  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
