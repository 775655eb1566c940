"""The command-line arguments the arena screens share (bench/paired.py,
edge_split.py, adapt.py, call_outcomes.py): the variant, how many deals of
which seed, the worker processes and JSON output, with the same checks."""

from __future__ import annotations

import argparse


def add_arena_arguments(
    parser: argparse.ArgumentParser, *, deals: int = 1000, seed: int = 2026, per: str = ""
) -> None:
    """Add ``--variant``, ``--deals``, ``--seed``, ``--jobs`` and ``--json`` to
    ``parser``, with these defaults (``per``: what the deals are counted per,
    as "run" in "deals per run")."""
    parser.add_argument(
        "--variant", choices=("cutthroat", "partnership"), default="cutthroat", help="the game"
    )
    counted = f"deals per {per}" if per else "deals"
    parser.add_argument("--deals", type=int, default=deals, help=f"{counted} (default {deals})")
    parser.add_argument("--seed", type=int, default=seed, help=f"the deals' seed (default {seed})")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def check_arena_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Stop with a clear usage error if ``args`` has too few deals (an
    interval wants two) or no worker process."""
    if args.deals < 2:
        parser.error("--deals: at least 2")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
