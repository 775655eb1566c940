"""The ``euchre`` command line.

- ``euchre replay FILE...`` — replay hand or match records; ``--json`` prints
  one result object per record, ``--jsonl`` reads one hand record per stdin
  line and answers one result line each.
- ``euchre play`` — a terminal game against computer opponents.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from .rules import Rules, RulesError

__all__ = ["add_rule_options", "build_parser", "main", "rules_from_args"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a positive whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"want a positive whole number, not {text!r}")
    return value


def _on_off(text: str) -> bool:
    t = text.strip().lower()
    if t in ("on", "yes", "true", "1"):
        return True
    if t in ("off", "no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"want on or off, not {text!r}")


def add_rule_options(p: argparse.ArgumentParser) -> None:
    """Add one flag per ``Rules`` option (RULES.md §4)."""
    g = p.add_argument_group("rules (RULES.md §4; defaults are the rule book's)")
    g.add_argument(
        "--variant",
        choices=("cutthroat", "partnership"),
        default="cutthroat",
        help="cutthroat: three players and a dummy (default); partnership: four",
    )
    g.add_argument(
        "--deck",
        type=int,
        choices=(24, 32, 25),
        default=24,
        help="24 cards (default), 32, or 25 with a joker",
    )
    g.add_argument(
        "--stick-the-dealer",
        type=_on_off,
        default=False,
        metavar="on|off",
        help="the dealer may not pass in round two (default off)",
    )
    g.add_argument(
        "--dealer-pickup",
        choices=("optional", "mandatory"),
        default="optional",
        help="may the dealer decline when ordered up (default optional)",
    )
    g.add_argument(
        "--may-name-turned-down-suit",
        type=_on_off,
        default=False,
        metavar="on|off",
        help="round two may name the up-card's suit (default off)",
    )
    g.add_argument(
        "--lone-defender-points",
        type=int,
        choices=(2, 4),
        default=2,
        help="partnership: a lone defender taking 3-4 tricks scores 2 (default) or 4",
    )
    g.add_argument("--target", type=_positive_int, default=10, help="points to win (default 10)")
    g.add_argument(
        "--dealer-may-discard-upcard",
        type=_on_off,
        default=True,
        metavar="on|off",
        help="the dealer may discard the card just picked up (default on)",
    )
    g.add_argument(
        "--joker-upcard",
        choices=("dealer_names", "redeal"),
        default="dealer_names",
        help="25-card deck: a turned-up joker (default: the dealer names a suit)",
    )
    g.add_argument(
        "--defenders-may-go-alone",
        type=_on_off,
        default=True,
        metavar="on|off",
        help="defenders may go alone (default on)",
    )
    g.add_argument(
        "--lone-lead",
        choices=("left_of_lone", "left_of_dealer"),
        default="left_of_lone",
        help="who leads when someone goes alone",
    )
    g.add_argument(
        "--dummy-decline-is-alone",
        type=_on_off,
        default=True,
        metavar="on|off",
        help="cutthroat: declining the dummy is going alone (default on)",
    )
    g.add_argument(
        "--tie",
        choices=("play_on", "share"),
        default="play_on",
        help="level at the top over the target: play on (default) or share the win",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The ``Rules`` the rule flags describe."""
    return Rules(
        variant=args.variant,
        deck=args.deck,
        stick_the_dealer=args.stick_the_dealer,
        dealer_pickup=args.dealer_pickup,
        may_name_turned_down_suit=args.may_name_turned_down_suit,
        lone_defender_points=args.lone_defender_points,
        target=args.target,
        dealer_may_discard_upcard=args.dealer_may_discard_upcard,
        joker_upcard=args.joker_upcard,
        defenders_may_go_alone=args.defenders_may_go_alone,
        lone_lead=args.lone_lead,
        dummy_decline_is_alone=args.dummy_decline_is_alone,
        tie=args.tie,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``euchre``."""
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and its subcommand parsers (for their own usage errors)."""
    from . import __version__

    p = argparse.ArgumentParser(
        prog="euchre",
        description="Cutthroat (three-handed) and partnership Euchre.",
    )
    p.add_argument("--version", action="version", version=f"euchre {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser(
        "replay",
        help="replay hand or match records and print the results",
        description="Replay JSON hand or match records (RULES.md §5).",
    )
    r.add_argument("files", nargs="*", metavar="FILE", help="record files ('-' for stdin)")
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print one JSON result per record")
    mode.add_argument(
        "--jsonl",
        action="store_true",
        help="read one hand record per stdin line, write one result per line",
    )

    pl = sub.add_parser(
        "play",
        help="play a match in the terminal against computer opponents",
        description="Play Euchre in the terminal: you are seat 0, bots the rest.",
    )
    add_rule_options(pl)
    pl.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
    pl.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help="write the match record (JSON) to FILE as the game goes",
    )
    pl.add_argument(
        "--bots", default="rule", metavar="NAME", help="opponent bot: rule (default) or random"
    )
    pl.add_argument("--no-color", action="store_true", help="plain text, no colours")
    return p, {"replay": r, "play": pl}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser, subs = _build()
    args = parser.parse_args(argv)
    if args.command == "replay":
        if args.jsonl:
            if args.files:
                subs["replay"].error("--jsonl reads standard input; give no FILE")
            return replay_jsonl(sys.stdin, sys.stdout)
        if not args.files:
            subs["replay"].error("replay needs at least one FILE (or --jsonl)")
        return replay_files(args.files, as_json=args.json, out=sys.stdout)
    if args.command == "play":
        try:
            rules = rules_from_args(args)
        except RulesError as e:
            subs["play"].error(str(e))
        from .bots import BOT_NAMES

        if args.bots not in BOT_NAMES:
            subs["play"].error(f"--bots: want one of {', '.join(BOT_NAMES)}, not {args.bots!r}")
        try:
            from .tui import play_main
        except ImportError as e:  # pragma: no cover - depends on the install
            print(
                f"euchre play needs the terminal extra: pip install 'euchre[tui]' ({e})",
                file=sys.stderr,
            )
            return 2
        return play_main(
            rules, seed=args.seed, save=args.save, bots=args.bots, color=not args.no_color
        )
    parser.print_help()
    return 0


# -- replay ---------------------------------------------------------------------


def _replay_obj(obj: object) -> dict[str, Any]:
    """Replay one parsed record; returns a result object or an error object."""
    from .record import RecordError, is_match_record, read_hand, read_match, replay_result

    try:
        if is_match_record(obj):
            match = read_match(obj)
            hands = list(match.hands) + ([match.current] if match.current is not None else [])
            return {
                "match": True,
                "hands": [replay_result(h) for h in hands],
                "scores": list(match.scores),
                "winners": list(match.winners),
                "complete": match.is_over,
            }
        return replay_result(read_hand(obj))
    except RecordError as e:
        return e.to_json()


def replay_jsonl(inp: IO[str], out: IO[str]) -> int:
    """One hand record per input line → one result object per output line."""
    for line in inp:
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            result: dict[str, Any] = {
                "error": {"index": 0, "action": "", "reason": f"not JSON: {e}"}
            }
        else:
            result = _replay_obj(obj)
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 0


def replay_files(files: Sequence[str], *, as_json: bool, out: IO[str]) -> int:
    """Replay record files; exit status 1 if any failed."""
    status = 0
    for name in files:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as f:
                    text = f.read()
        except OSError as e:
            result: dict[str, Any] = {
                "error": {"index": 0, "action": "", "reason": f"cannot read {name}: {e.strerror}"}
            }
        else:
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                result = {"error": {"index": 0, "action": "", "reason": f"not JSON: {e}"}}
            else:
                result = _replay_obj(obj)
        if "error" in result:
            status = 1
        if as_json:
            out.write(json.dumps(result) + "\n")
        else:
            out.write(_describe(name, result) + "\n")
    return status


def _describe_hand(r: dict[str, Any]) -> str:
    if "error" in r:
        e = r["error"]
        where = f"hand {e['hand']}, " if "hand" in e else ""
        what = f"action {e['index']} ({e['action']!r})" if e["index"] else "deal/options"
        return f"error at {where}{what}: {e['reason']}"
    if not r["complete"]:
        return f"unfinished: seat {r['to_act']} to act; legal: {', '.join(r['legal'])}"
    if r["thrown_in"]:
        return "thrown in: everyone passed (no points)"
    alone = f", alone: {', '.join(f'seat {s}' for s in r['alone'])}" if r["alone"] else ""
    tricks = " ".join(str(t) for t in r["tricks"])
    points = " ".join(str(p) for p in r["points"])
    return (
        f"trump {r['trump']} by seat {r['maker']}{alone}; "
        f"tricks per seat {tricks}; points per seat {points}"
    )


def _describe(name: str, r: dict[str, Any]) -> str:
    if r.get("match"):
        lines = [f"{name}: match, {len(r['hands'])} hands"]
        for i, h in enumerate(r["hands"], 1):
            lines.append(f"  hand {i}: {_describe_hand(h)}")
        score = " ".join(str(s) for s in r["scores"])
        if r["winners"]:
            who = " and ".join(f"seat {s}" for s in r["winners"])
            lines.append(f"  final score {score}; won by {who}")
        else:
            lines.append(f"  score {score}; match not finished")
        return "\n".join(lines)
    return f"{name}: {_describe_hand(r)}"
