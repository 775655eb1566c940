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

Rows: ``BOT/rule`` (the bot's calls, the rule bot's card play), ``rule/BOT``
(the rule bot's calls, the bot's card play) and ``BOT`` whole. A split bot
asks each of its halves through the seat's view as any bot is asked (the
all-seeing ``cheat`` is given the full state, as the arena gives it); its
name in the arena is ``split:CALLS/PLAY``. Figures in docs/strength.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections.abc import Sequence

from euchre import HandState, Phase, Rules
from euchre.actions import Action
from euchre.arena import ArenaResult, aggregate, play_deals
from euchre.arena import tasks as arena_tasks
from euchre.bots import Bot, StateBot, act

_make = arena_tasks.make_arena_bot


class SplitBot:
    """Calls like ``calls``, plays the cards like ``play`` (a ``StateBot`` so
    that the all-seeing bot can be either half; a view bot half is asked
    through the seat's view by ``bots.act``)."""

    def __init__(self, name: str, calls: Bot | StateBot, play: Bot | StateBot) -> None:
        self.name = name
        self.calls = calls
        self.play = play

    def choose_state(self, state: HandState, seat: int, scores: Sequence[int] | None) -> Action:
        """The half's action for the phase of ``state``."""
        half = self.play if state.phase == Phase.PLAY else self.calls
        return act(half, state, seat, scores)


def make_split_bot(label: str, seed: int | None = None) -> Bot | StateBot:
    """The arena's ``make_arena_bot``, knowing ``split:CALLS/PLAY`` too."""
    kind = arena_tasks.bot_kind(label)
    if kind.startswith("split:"):
        calls, _, play = kind[len("split:") :].partition("/")
        return SplitBot(kind, _make(calls, seed), _make(play, seed))
    return _make(label, seed)


def check_label(label: str) -> None:
    """Exit with a clear message unless ``label`` is a bot or a split of two."""
    kind = arena_tasks.bot_kind(label)
    halves = [kind]
    if kind.startswith("split:"):
        calls, sep, play = kind[len("split:") :].partition("/")
        if not sep or not calls or not play:
            raise SystemExit(f"edge_split: want split:CALLS/PLAY, not {label!r}")
        halves = [calls, play]
    for name in halves:
        try:
            _make(name)
        except ValueError as e:
            raise SystemExit(f"edge_split: {e}") from None


def run(lineup: list[str], rules: Rules, deals: int, seed: int, jobs: int) -> ArenaResult:
    """The arena's duplicate run of ``lineup`` (splits allowed), in ``jobs``
    forked processes."""
    tasks = arena_tasks.arena_tasks(lineup, rules, deals, seed)
    start = time.perf_counter()
    size = max(1, min(16, deals // (4 * jobs)))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = [r for batch in pool.imap(play_deals, chunks) for r in batch]
    else:
        results = play_deals(tasks)
    return aggregate(results, lineup, rules, seed, time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bot", default="search:hard", help="the bot to split (default search:hard)"
    )
    parser.add_argument(
        "--variant", choices=("cutthroat", "partnership"), default="cutthroat", help="the game"
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals per row (default 1000)")
    parser.add_argument("--seed", type=int, default=2026, help="the deals' seed (default 2026)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.deals < 2:
        parser.error("--deals: at least 2")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    check_label(args.bot)
    # the workers are forked from here: the arena's deals make their bots with this
    arena_tasks.make_arena_bot = make_split_bot
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
        res = run([label, *others], rules, args.deals, args.seed, args.jobs)
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
