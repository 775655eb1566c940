"""What the arena screens share (bench/paired.py, edge_split.py, adapt.py,
call_outcomes.py): their command-line arguments (the variant, how many deals
of which seed, the worker processes and JSON output) with the same checks,
and the paired gain of one run over another."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from euchre.arena import mean_ci95


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


def paired_gain(
    after: Sequence[float], before: Sequence[float]
) -> tuple[list[float], dict[str, Any]]:
    """The per-deal gains of run ``after`` over run ``before`` (the same deals,
    in order) and their mean with its 95 % interval, as the screens print it
    in JSON (``{"mean", "ci95"}``, rounded to 4 places)."""
    gain = [a - b for a, b in zip(after, before, strict=True)]
    mean, lo, hi = mean_ci95(gain)
    return gain, {"mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}
