"""The ``euchre`` command line.

- ``euchre replay FILE...`` — replay hand or match records; ``--json`` prints
  one result object per record, ``--jsonl`` reads one hand record per stdin
  line and answers one result line each.
- ``euchre play`` — a terminal game against computer opponents.
- ``euchre arena --bots A,B[,C]`` — bots against each other in duplicate
  (``euchre.arena``); ``rich``, ``matplotlib`` and ``ray`` are imported only
  when the run needs them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from .rules import OPTIONS, VARIANTS, RuleOption, Rules, RulesError
from .web.limits import Limits

if TYPE_CHECKING:
    from .arena import ArenaResult

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
    """Add one flag per ``Rules`` option (RULES.md §4), made from its declaration
    (``euchre.rules.OPTIONS``): ``--deck 32``, ``--stick-the-dealer on``..."""
    g = p.add_argument_group("rules (RULES.md §4; defaults are the rule book's)")
    for opt in OPTIONS:
        g.add_argument(opt.flag, default=opt.default, **_flag_kind(opt), help=_flag_help(opt))


def _flag_kind(opt: RuleOption) -> dict[str, Any]:
    """How a rule flag reads its value: a choice, on|off, or a positive number."""
    if opt.kind == "bool":
        return {"type": _on_off, "metavar": "on|off"}
    if opt.kind == "count":
        return {"type": _positive_int}
    if opt.numeric:
        return {"type": int, "choices": opt.choices}
    return {"choices": opt.choices}


def _flag_help(opt: RuleOption) -> str:
    """A rule flag's help: the option's, its variant if only one, its default."""
    only = "" if opt.variants == VARIANTS else f"{', '.join(opt.variants)} only: "
    return f"{only}{opt.help} (default {opt.text(opt.default)})".replace("%", "%%")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The ``Rules`` the rule flags describe."""
    return Rules(**{opt.name: getattr(args, opt.name) for opt in OPTIONS})


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``euchre``."""
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and its subcommand parsers (for their own usage errors)."""
    from . import __version__
    from .bots import DEFAULT_LEVEL, SEARCH_LEVELS

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
        "--bots",
        default=None,
        metavar="NAME",
        help="opponent bot: search (default, see --level), rule or random",
    )
    pl.add_argument(
        "--level",
        choices=SEARCH_LEVELS,
        default=None,
        help=f"strength of the search bot opponents (default {DEFAULT_LEVEL}); also the hint's",
    )
    pl.add_argument("--no-color", action="store_true", help="plain text, no colours")

    ar = sub.add_parser(
        "arena",
        help="bots against each other over many deals, in duplicate",
        description=(
            "Play bots against each other in duplicate: Cutthroat plays each deal in all "
            "six seatings of the three bots, partnership twice with the sides swapped. "
            "Reports points per hand with 95% confidence intervals, matches won and "
            "decision times."
        ),
    )
    ar.add_argument(
        "--bots",
        required=True,
        metavar="A,B[,C]",
        help=(
            "comma-separated bot names: 3 for cutthroat, 2 (one per side) or 4 for "
            "partnership; e.g. search,rule,rule or search:hard,rule; NAME#TAG labels "
            "another entry of bot NAME (random#1,random#2,...)"
        ),
    )
    add_rule_options(ar)
    ar.add_argument(
        "--deals", type=_positive_int, default=100, help="deals to play (default 100, at least 2)"
    )
    ar.add_argument("--seed", type=int, default=0, help="master seed of the deals (default 0)")
    ar.add_argument(
        "--jobs",
        type=_positive_int,
        default=None,
        help="worker processes (default 1); with --ray local, the local Ray's CPUs",
    )
    ar.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="run the deals on a Ray cluster at ADDRESS (this package is shipped to its "
        "workers), or 'local' for a Ray started here",
    )
    ar.add_argument(
        "--out", metavar="FILE", default=None, help="write the results as JSON ('-': stdout)"
    )
    ar.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="write a PNG of the cumulative points difference with its 95%% band",
    )
    ar.add_argument(
        "--quiet", action="store_true", help="no progress bar and no table (use with --out)"
    )
    sv = sub.add_parser(
        "serve",
        help="serve the web table: play in a browser, with friends or bots",
        description=(
            "Serve the web table (lobby, tables, bots) over HTTP and WebSockets. "
            "Tables are kept in a SQLite file (default) or a PostgreSQL database."
        ),
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free one)"
    )
    sv.add_argument(
        "--data",
        metavar="DIR",
        default="euchre-data",
        help="folder of the SQLite file euchre.db (default ./euchre-data, created)",
    )
    sv.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="database: sqlite:///PATH.db or postgresql://... (default: DIR/euchre.db)",
    )
    sv.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot action so people can follow (default 0.6)",
    )
    sv.add_argument(
        "--bot-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="longest a bot may think; then the rule bot decides for that seat (default 5)",
    )
    sv.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes the bots and hints think in (default: one per core; 0: threads "
        "of the server process)",
    )
    sv.add_argument(
        "--no-docs",
        action="store_true",
        help="serve no API docs: no /docs, /redoc nor /openapi.json (for production)",
    )
    sv.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a site besides the served one whose pages may open WebSockets, such as "
        "https://cards.example.org (repeatable; default: none)",
    )
    limits = sv.add_argument_group(
        "limits", "resource limits against abuse (docs/security.md); 0 in a rate or count: no limit"
    )
    limits.add_argument(
        "--create-rate",
        type=float,
        default=Limits.create_rate,
        metavar="N",
        help=f"new tables one client address may create a minute (default {Limits.create_rate:g})",
    )
    limits.add_argument(
        "--create-burst",
        type=int,
        default=Limits.create_burst,
        metavar="N",
        help=f"new tables one client address may create at once (default {Limits.create_burst:g})",
    )
    limits.add_argument(
        "--create-rate-total",
        type=float,
        default=Limits.create_rate_total,
        metavar="N",
        help="new tables all clients together may create a minute "
        f"(default {Limits.create_rate_total:g})",
    )
    limits.add_argument(
        "--max-waiting-per-address",
        type=int,
        default=Limits.max_waiting_per_address,
        metavar="N",
        help="tables created by one client address that may wait for their start at once "
        f"(default {Limits.max_waiting_per_address:g})",
    )
    limits.add_argument(
        "--max-waiting",
        type=int,
        default=Limits.max_waiting,
        metavar="N",
        help=f"tables that may wait for their start at once (default {Limits.max_waiting:g})",
    )
    limits.add_argument(
        "--table-expiry",
        type=float,
        default=Limits.table_expiry,
        metavar="SECONDS",
        help=f"a table nobody started within this time expires (default {Limits.table_expiry:g})",
    )
    limits.add_argument(
        "--hello-timeout",
        type=float,
        default=Limits.hello_timeout,
        metavar="SECONDS",
        help="a WebSocket that has not said hello within this time is closed "
        f"(default {Limits.hello_timeout:g})",
    )
    limits.add_argument(
        "--request-timeout",
        type=float,
        default=Limits.request_timeout,
        metavar="SECONDS",
        help="time for an HTTP request's headers, and then its body, to arrive "
        f"(default {Limits.request_timeout:g})",
    )
    return p, {"replay": r, "play": pl, "arena": ar, "serve": sv}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser, subs = _build()
    args = parser.parse_args(argv)
    if args.command == "replay":
        if args.jsonl:
            if args.files:
                subs["replay"].error("--jsonl reads standard input; give no FILE")
            # bytes, not the locale's text: a line that is not UTF-8 is one error line
            return replay_jsonl(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout)
        if not args.files:
            subs["replay"].error("replay needs at least one FILE (or --jsonl)")
        return replay_files(args.files, as_json=args.json, out=sys.stdout)
    if args.command == "play":
        try:
            rules = rules_from_args(args)
        except RulesError as e:
            subs["play"].error(str(e))
        from .bots import BOT_NAMES, DEFAULT_LEVEL

        bots = args.bots or "search"
        if bots not in BOT_NAMES:
            subs["play"].error(f"--bots: want one of {', '.join(BOT_NAMES)}, not {bots!r}")
        if args.level is not None and bots != "search":
            subs["play"].error(f"--level is the search bot's strength; --bots {bots} has none")
        level = args.level or (DEFAULT_LEVEL if bots == "search" else None)
        try:
            from .tui import play_main
        except ImportError as e:  # pragma: no cover - depends on the install
            print(
                f"euchre play needs the terminal extra: pip install 'euchre[tui]' ({e})",
                file=sys.stderr,
            )
            return 2
        return play_main(
            rules,
            seed=args.seed,
            save=args.save,
            bots=bots,
            level=level,
            color=not args.no_color,
        )
    if args.command == "arena":
        return arena_main(args, subs["arena"])
    if args.command == "serve":
        return serve_cli(args, subs["serve"])
    parser.print_help()
    return 0


def serve_cli(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``euchre serve``: check the options, then run the web server until stopped."""
    if not 0 <= args.port <= 65535:
        p.error(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        p.error(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if not 0 < args.bot_timeout <= 600:
        p.error(f"--bot-timeout must be over 0 and at most 600 seconds, not {args.bot_timeout}")
    if args.bot_workers is not None and not 0 <= args.bot_workers <= 1024:
        p.error(f"--bot-workers must be from 0 to 1024, not {args.bot_workers}")
    for name in ("create_rate", "create_rate_total"):
        value = getattr(args, name)
        if not 0 <= value <= 1_000_000:  # also refuses nan
            p.error(f"--{name.replace('_', '-')} must be from 0 (no limit) to 1000000, not {value}")
    for name in ("max_waiting_per_address", "max_waiting"):
        value = getattr(args, name)
        if not 0 <= value <= 10_000_000:
            p.error(
                f"--{name.replace('_', '-')} must be from 0 (no limit) to 10000000, not {value}"
            )
    if not 1 <= args.create_burst <= 1_000_000:
        p.error(f"--create-burst must be from 1 to 1000000, not {args.create_burst}")
    for name, most in (
        ("table_expiry", 30 * 86400),
        ("hello_timeout", 3600),
        ("request_timeout", 3600),
    ):
        value = getattr(args, name)
        if not 0 < value <= most:
            p.error(
                f"--{name.replace('_', '-')} must be over 0 and at most {most} seconds, not {value}"
            )
    try:
        from .web.middleware import parse_origin
        from .web.serve import serve_main
    except ImportError:
        print("euchre serve needs the web extra: pip install 'euchre[web]'", file=sys.stderr)
        return 2
    origins = []
    for text in args.allow_origin:
        try:
            origins.append(parse_origin(text))
        except ValueError as exc:
            p.error(f"--allow-origin: {exc}")
    return serve_main(
        host=args.host,
        port=args.port,
        db=args.db,
        data=args.data,
        bot_delay=args.bot_delay,
        bot_timeout=args.bot_timeout,
        bot_workers=args.bot_workers,
        docs=not args.no_docs,
        allow_origins=origins,
        limits=Limits(
            create_rate=args.create_rate,
            create_burst=args.create_burst,
            create_rate_total=args.create_rate_total,
            max_waiting_per_address=args.max_waiting_per_address,
            max_waiting=args.max_waiting,
            table_expiry=args.table_expiry,
            hello_timeout=args.hello_timeout,
            request_timeout=args.request_timeout,
        ),
    )


# -- arena ----------------------------------------------------------------------


def arena_main(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``euchre arena``: check the arguments (usage errors exit 2), run, then
    print a table and write ``--out`` / ``--plot``."""
    import importlib.util

    from . import arena

    try:
        rules = rules_from_args(args)
    except RulesError as e:
        p.error(str(e))
    if args.deals < 2:
        p.error("--deals: want at least 2 deals (the intervals need two)")
    try:
        lineup = arena.check_lineup(args.bots.split(","), rules)
    except ValueError as e:
        p.error(f"--bots: {e}")
    if args.ray is not None and not args.ray.strip():
        p.error("--ray: want a cluster address or 'local'")
    for flag, module, value in (("--plot", "matplotlib", args.plot), ("--ray", "ray", args.ray)):
        if value is not None and importlib.util.find_spec(module) is None:
            p.error(f"{flag} needs {module}: pip install 'euchre[arena]'")
    has_rich = importlib.util.find_spec("rich") is not None

    def run(progress: arena.ProgressFn | None) -> arena.ArenaResult:
        return arena.run_arena(
            lineup,
            rules,
            args.deals,
            args.seed,
            jobs=args.jobs,
            ray=args.ray.strip() if args.ray else None,
            progress=progress,
        )

    try:
        if has_rich and not args.quiet:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            with Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("deals"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as bar:
                task = bar.add_task("arena", total=args.deals)
                result = run(lambda n: bar.advance(task, n))
        else:
            result = run(None)
    except KeyboardInterrupt:
        print("euchre arena: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if args.ray is None:
            raise
        print(f"euchre arena: ray: {type(e).__name__}: {e}", file=sys.stderr)
        return 1

    if args.out is not None:
        text = json.dumps(result.to_json(), indent=2) + "\n"
        if args.out == "-":
            sys.stdout.write(text)
        else:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
    if args.plot is not None:
        arena.plot(result, args.plot)
    if not args.quiet and args.out != "-":
        if has_rich:
            _print_arena_rich(result)
        else:
            print(arena.format_plain(result))
    return 0


def _print_arena_rich(result: ArenaResult) -> None:
    """The arena's tables with ``rich``: one row per bot, one per pair."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    seatings = len(result.seatings)
    t = Table(
        title=f"euchre arena: {', '.join(result.lineup)}",
        caption=(
            f"{result.rules.describe()}; {result.deals} deals x {seatings} seatings, "
            f"seed {result.seed}; {result.matches_played} matches to {result.rules.target}; "
            f"{result.elapsed_s:.1f} s"
        ),
    )
    t.add_column("bot")
    t.add_column("points/hand", justify="right", no_wrap=True)
    t.add_column("95% CI", justify="right", no_wrap=True)
    t.add_column("matches won", justify="right")
    t.add_column("ms p50", justify="right")
    t.add_column("ms p95", justify="right")
    for b in result.bots:
        half = (b.ci95[1] - b.ci95[0]) / 2
        t.add_row(
            b.name,
            f"{b.points_per_hand:.3f} ± {half:.3f}",
            f"[{b.ci95[0]:.3f}, {b.ci95[1]:.3f}]",
            str(b.matches_won),
            f"{b.decision_ms_p50:.2f}",
            f"{b.decision_ms_p95:.2f}",
        )
    console.print(t)
    if result.pairs:
        d = Table(title="points per hand, difference (paired by deal)")
        d.add_column("A − B")
        d.add_column("difference", justify="right", no_wrap=True)
        d.add_column("95% CI", justify="right", no_wrap=True)
        d.add_column("", justify="left")
        for pr in result.pairs:
            lo, hi = pr.ci95
            verdict = (
                f"{pr.a} ahead" if lo > 0 else f"{pr.b} ahead" if hi < 0 else "no clear difference"
            )
            d.add_row(
                f"{pr.a} − {pr.b}", f"{pr.difference:+.3f}", f"[{lo:+.3f}, {hi:+.3f}]", verdict
            )
        console.print(d)


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
    except RecursionError:
        return {"error": {"index": 0, "action": "", "reason": "the record is nested too deeply"}}


def _parse_json(text: str) -> tuple[object, dict[str, Any] | None]:
    """The JSON value of ``text``, or None and the error result of text that is not JSON."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError as e:
        reason = f"not JSON: {e}"
    except RecursionError:
        reason = "not JSON: nested too deeply"
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        reason = f"not JSON: {e}"
    return None, {"error": {"index": 0, "action": "", "reason": reason}}


def replay_jsonl(inp: IO[str] | IO[bytes], out: IO[str]) -> int:
    """One hand record per input line → one result object per output line.

    Lines of bytes (standard input's buffer) are read as UTF-8: a line that is
    not is an error line, whatever the locale's encoding of standard input."""
    for raw in inp:
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                reason = "cannot read the line: not UTF-8 text"
                out.write(
                    json.dumps({"error": {"index": 0, "action": "", "reason": reason}}) + "\n"
                )
                out.flush()
                continue
        else:
            line = raw
        if not line.strip():
            continue
        obj, failed = _parse_json(line)
        result = failed if failed is not None else _replay_obj(obj)
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
        except UnicodeDecodeError:
            result = {
                "error": {"index": 0, "action": "", "reason": f"cannot read {name}: not UTF-8 text"}
            }
        else:
            obj, failed = _parse_json(text)
            result = failed if failed is not None else _replay_obj(obj)
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
