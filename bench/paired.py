"""A paired screen of a search level: the level as it is and with a change,
each against rule bots on the same deals, compared deal by deal.

Every strength screen of docs/strength.md asks the same question: does a
change to a level (more deals, another card play, a sharper model) move
``search:LEVEL`` - ``rule`` in the arena? Two arena runs on the same deals
and seeds answer it; the difference of their per-deal figures has a far
narrower interval than either run, since most of the luck of a deal is in
both::

    python bench/paired.py --set play_samples=60                       # Cutthroat hard
    python bench/paired.py --variant partnership --set play_infoset=on --deals 1000 --seed 11
    python bench/paired.py --level expert --set own_samples=4 --set margin=0.05 --json
    python bench/paired.py --variant partnership --bot peek:hard:trumps

``--set FIELD=VALUE`` changes a field of ``euchre.bots.search.Level`` (the
fields and their meaning are in that class; a bool takes on/off, a field
that may be None takes ``none``). The two runs are ``euchre arena --bots
search:LEVEL,rule[,rule]`` with the level as it is and as changed (in the
worker processes too); the figures are the same whatever ``--jobs``.
``--bot LABEL`` plays another arena bot in the second run instead (a
measuring bot such as ``peek:hard:trumps``, with the changes of ``--set``
if any). Prints both runs' difference to ``rule`` and the paired gain of
the change with its 95 % interval over the deals, and the decision times.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from typing import Any

from _cli import add_arena_arguments, check_arena_arguments, paired_gain
from euchre import Rules
from euchre.arena import check_lineup, mean_ci95, run_arena
from euchre.bots import search

#: the changes of the run under way, for the worker processes (spawned: they
#: import this file again, which applies them; see ``_apply``)
ENV = "EUCHRE_BENCH_PAIRED"

_BOOLS = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
#: the text fields' values
_WORDS = {"rollout": ("rule", "solve")}


def parse_value(name: str, text: str) -> Any:
    """The value of ``Level.NAME`` written ``text``, of the field's type
    (ValueError naming the field and what is wanted)."""
    fields = {f.name: f for f in dataclasses.fields(search.Level) if f.name != "name"}
    if name not in fields:
        raise ValueError(f"no level field {name!r} (want one of {', '.join(fields)})")
    kind = str(fields[name].type)  # the annotation's text (postponed annotations)
    word = text.strip().lower()
    if "None" in kind and word == "none":
        return None
    try:
        if kind == "bool":
            return _BOOLS[word]
        if "float" in kind:
            return float(text)
        if "int" in kind:
            return int(text)
    except (KeyError, ValueError):
        want = "on or off" if kind == "bool" else kind
        raise ValueError(f"{name}={text!r}: want {want}") from None
    if word not in _WORDS.get(name, (word,)):
        raise ValueError(f"{name}={text!r}: want one of {', '.join(_WORDS[name])}")
    return word


def changed_level(variant: str, level: str, changes: dict[str, Any]) -> search.Level:
    """``LEVELS[variant][level]`` with ``changes``."""
    return dataclasses.replace(search.LEVELS[variant][level], **changes)


def _apply() -> None:
    """Put the changes of ``ENV`` (JSON: variant, level, changes) into
    ``search.LEVELS`` of this process: the parent before the changed run, a
    worker when it imports this file."""
    raw = os.environ.get(ENV)
    if raw:
        spec = json.loads(raw)
        table = search.LEVELS[spec["variant"]]
        table[spec["level"]] = changed_level(spec["variant"], spec["level"], spec["changes"])


_apply()


def _run(
    lineup: list[str], rules: Rules, args: argparse.Namespace, changes: dict[str, Any] | None
) -> tuple[list[float], Any]:
    """One arena run, with the level as it is or with ``changes`` (in this
    process and its workers, for the run only): the per-deal difference of
    ``lineup[0]`` to ``rule`` and that bot's row."""
    base = search.LEVELS[args.variant][args.level]
    if changes is not None:
        os.environ[ENV] = json.dumps(
            {"variant": args.variant, "level": args.level, "changes": changes}
        )
        _apply()
    try:
        res = run_arena(lineup, rules, args.deals, args.seed, jobs=args.jobs)
    finally:
        if changes is not None:
            del os.environ[ENV]
            search.LEVELS[args.variant][args.level] = base
    diff = [a - b for a, b in zip(res.per_deal[lineup[0]], res.per_deal["rule"], strict=True)]
    row = next(b for b in res.bots if b.name == lineup[0])
    return diff, row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arena_arguments(parser, per="run")
    parser.add_argument(
        "--level",
        choices=tuple(search.LEVELS["cutthroat"]),
        default="hard",
        help="the search level to change (default hard)",
    )
    parser.add_argument(
        "--set",
        dest="changes",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a change to the level (repeat for more); at least one, or --bot",
    )
    parser.add_argument(
        "--bot",
        metavar="LABEL",
        help="the second run plays this arena bot instead of search:LEVEL (e.g. peek:hard:trumps)",
    )
    args = parser.parse_args()
    check_arena_arguments(parser, args)
    if not args.changes and not args.bot:
        parser.error("--set: at least one change, e.g. --set play_samples=60 (or --bot LABEL)")
    if os.environ.get(ENV):
        parser.error(f"{ENV} is set: unset it (it is this script's own)")
    changes: dict[str, Any] = {}
    for item in args.changes:
        name, eq, text = item.partition("=")
        if not eq:
            parser.error(f"--set {item!r}: want FIELD=VALUE")
        try:
            changes[name.strip()] = parse_value(name.strip(), text)
        except ValueError as e:
            parser.error(f"--set: {e}")
    rules = Rules(variant=args.variant)
    label = f"search:{args.level}"
    rules_bots = ["rule"] * (rules.seats - 1 if rules.cutthroat else 1)
    lineup = [label, *rules_bots]
    other = [args.bot.strip(), *rules_bots] if args.bot else lineup
    if args.bot:
        if other[0] == "rule":
            parser.error("--bot: the rule bot is the opponent; name another bot")
        try:
            check_lineup(other, rules)
        except ValueError as e:
            parser.error(f"--bot: {e}")
    out: dict[str, Any] = {
        "variant": args.variant,
        "level": args.level,
        "changes": changes,
        "deals": args.deals,
        "seed": args.seed,
        "lineup": lineup,
    }
    if args.bot:
        out["bot"] = other[0]
    diffs = {}
    for key, run_lineup, change in (("base", lineup, None), ("changed", other, changes or None)):
        start = time.perf_counter()
        diffs[key], row = _run(run_lineup, rules, args, change)
        mean, lo, hi = mean_ci95(diffs[key])
        out[key] = {
            "difference": round(mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "ms_p50": round(row.decision_ms_p50, 2),
            "ms_p95": round(row.decision_ms_p95, 2),
            "seconds": round(time.perf_counter() - start, 1),
        }
        if not args.json:
            print(
                f"{key:8} {run_lineup[0]} - rule: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                f"  ms p50 {row.decision_ms_p50:.2f} p95 {row.decision_ms_p95:.2f}"
                f"  ({out[key]['seconds']:.0f} s)",
                flush=True,
            )
    gain, out["gain"] = paired_gain(diffs["changed"], diffs["base"])
    out["deals_changed"] = sum(1 for g in gain if g != 0)
    if args.json:
        print(json.dumps(out))
    else:
        mean, (lo, hi) = out["gain"]["mean"], out["gain"]["ci95"]
        print(
            f"gain     changed - base: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] a hand"
            f" ({out['deals_changed']} of {args.deals} deals scored otherwise)"
        )


if __name__ == "__main__":
    main()
