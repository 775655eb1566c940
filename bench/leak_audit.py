"""The leak audit of the web table over many hands: no client is ever sent a
card it may not see (docs/security.md).

Starts ``euchre serve`` itself (a separate process, loopback only, a fresh
SQLite file, ``--bot-delay 0``) and runs the audit of tests/test_web_leaks.py
(its code is tests/leakaudit.py: scripted WebSocket players, probes, hints,
reconnects, late spectators, downloads, and the oracle built from the hand
records alone) until ``--hands`` hands are over, ``--tables`` tables at a
time. Each table is checked as soon as its match is over. Usage::

    python bench/leak_audit.py                      # 10,000 hands
    python bench/leak_audit.py --hands 2000 --tables 12 --seed 7 --json

Progress (hands done, rate, ETA) goes to standard error. At the end the
figures are printed (with ``--json`` exactly one JSON object): ``hands``,
``tables``, ``messages`` and ``bytes`` checked, ``probes`` (pairs compared)
and ``probes_telling`` (of those, pairs naming cards from different places),
``reconnects``, ``late_spectators``, ``downloads``, ``errors``, ``hints``,
``alone``, ``merge``, ``leaks`` and ``seconds``. The exit status is 1 if any
leak was found (each is described on standard error) or the server printed a
traceback, 2 if the audit could not be run (a table got stuck, the server
did not start).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # the audit's one home: tests/leakaudit.py

from leakaudit import DEFAULT_SEED, RETRIED, TABLE_TIMEOUT, Audit, audit  # noqa: E402
from webserver import start_server  # noqa: E402


class Progress:
    """A progress line on standard error: rewritten once a second on a terminal,
    else a new line every ten seconds."""

    def __init__(self, target: int, quiet: bool) -> None:
        """Report progress towards ``target`` hands (nothing if ``quiet``)."""
        self.target = target
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.every = 1.0 if self.tty else 10.0
        self.last = 0.0

    def __call__(self, totals: Audit, final: bool = False) -> None:
        """Show the totals so far."""
        now = time.monotonic()
        if self.quiet or (not final and now - self.last < self.every):
            return
        self.last = now
        rate = totals.hands / max(totals.seconds, 1e-9)
        left = max(0, self.target - totals.hands)
        eta = left / rate if rate > 0 else float("inf")
        eta_text = f"{eta / 60:.1f} min" if eta != float("inf") else "?"
        print(
            "\r" if self.tty else "",
            f"{totals.hands}/{self.target} hands, {totals.tables} tables, "
            f"{totals.messages} messages, {rate:.1f} hands/s, ETA {eta_text}, "
            f"leaks {len(totals.leaks)}   ",
            sep="",
            end="\n" if final or not self.tty else "",
            file=sys.stderr,
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    """Run the audit; print the figures (or one JSON object)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000, help="hands to play (default 10000)")
    ap.add_argument("--tables", type=int, default=16, help="tables playing at once (default 16)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the players")
    ap.add_argument(
        "--table-timeout",
        type=float,
        default=TABLE_TIMEOUT,
        help=f"seconds a table may take to finish its match (default {TABLE_TIMEOUT:g})",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    args = ap.parse_args(argv)
    if args.hands < 1:
        ap.error("--hands must be 1 or more")
    if not 1 <= args.tables <= 200:
        ap.error("--tables must be from 1 to 200")

    progress = Progress(args.hands, args.quiet)
    with tempfile.TemporaryDirectory(prefix="euchre-leaks-") as folder:
        db = f"sqlite:///{Path(folder) / 'leaks.db'}"
        try:
            server = start_server(db, bot_delay=0.0)
        except RuntimeError as exc:
            print(f"leak audit: {exc}", file=sys.stderr)
            return 2
        with server:
            try:
                totals = asyncio.run(
                    audit(
                        server.url,
                        server.ws_url,
                        args.hands,
                        args.tables,
                        args.seed,
                        table_timeout=args.table_timeout,
                        progress=progress,
                    )
                )
            except Exception as exc:
                print(f"\nleak audit could not be run: {exc!r}", file=sys.stderr)
                print(f"the server's last output:\n{server.log()[-4000:]}", file=sys.stderr)
                return 2
            progress(totals, final=True)
            log = server.log()
    tracebacks = log.count("Traceback")
    result: dict[str, Any] = {**totals.figures(), "tables_at_once": args.tables, "seed": args.seed}
    result["server_tracebacks"] = tracebacks
    result["hands_per_s"] = round(totals.hands / max(totals.seconds, 1e-9), 2)
    for retried in RETRIED[:5]:
        print(f"GET sent again after a transport error: {retried}", file=sys.stderr)
    for leak in totals.leaks:
        print(f"LEAK: {leak}", file=sys.stderr)
    if tracebacks:
        print(f"the server printed {tracebacks} traceback(s):\n{log[-4000:]}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:22} {value}")
    return 1 if totals.leaks or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
