"""The bot arena: bots against each other over many deals, in duplicate.

``euchre arena --bots search,rule,rule --variant cutthroat --deals N`` plays
every deal of a seeded sequence once per *seating* (duplicate format), so the
luck of the cards cancels out:

- **Cutthroat**: three bot entries (names may repeat); each deal is played in
  all six assignments of the three entries to the seats.
- **Partnership**: two entries (one per side: ``A,B`` puts A at seats 0 and 2,
  B at 1 and 3) or four (seat by seat); each deal is played twice, the second
  time with every entry moved one seat to the left, which swaps the sides.

A deal is a pure function of the master seed and its index: its own seed
(``deal_seed``), its dealer (the dealer passes to the left from deal to deal,
from a first dealer drawn from the master seed) and its cards; each bot of each
hand is built fresh with a seed derived from the deal seed, the seating and
the seat. So ``play_deals`` gives the same points in-process, in a
multiprocessing pool or as a Ray task, and results are aggregated in deal
order: the figures never depend on ``jobs`` or ``ray`` (only the decision
times do). Hands are played at a neutral match score (bots see no score) so
that deals are independent.

Figures per bot name (entries with the same name are pooled; a name ``NAME#TAG``
makes the bot ``NAME`` under its own label, to set a bot against itself;
``split:CALLS/PLAY`` is a measuring bot that calls like ``CALLS`` and plays
the cards like ``PLAY``, ``SplitBot``):

- ``points_per_hand``: the mean of the points of the seat in each hand the bot
  sat in (partners both carry their side's points). Its ``ci95`` respects the
  duplicate pairing: per deal, the bot's mean over its seat-hands in all that
  deal's seatings is one observation; the interval is Student's t over the
  deals (mean ± t₀.₉₇₅,ₙ₋₁ · s/√n).
- pairwise differences: per deal, bot A's mean minus bot B's; the mean and the
  t interval over deals.
- ``matches_won``: for each seating, the hands of that seating along the deal
  sequence are scored as matches to the target — points add up from deal to
  deal until someone wins (``match.winners_of``), then the next match starts
  at 0 with the following deal; an unfinished last match is not counted. A
  match won counts once for each distinct bot name among the winning seats
  (partnership: the winning side).
- ``decision_ms_p50`` / ``decision_ms_p95``: wall time of each ``bots.act``
  call of the bot, in milliseconds (these depend on the machine and the load).

Only the standard library is needed here; the command line adds a ``rich``
progress bar and table, ``matplotlib`` plots and Ray runs (all imported lazily).

The modules, each using only the ones before it: ``stats`` (t intervals,
percentiles, cumulative differences), ``tasks`` (bots by label, the deal
sequence, seatings, playing a deal), ``report`` (aggregation, the ``--out``
JSON, the plain table, the plot) and ``schedulers`` (in process, a pool or
Ray; ``run_arena``). This package re-exports their public names.
"""

from .report import ArenaResult, BotStats, PairStats, aggregate, format_plain, plot
from .schedulers import ProgressFn, run_arena
from .stats import cumulative_difference, mean_ci95, percentile, t_quantile
from .tasks import (
    DealResult,
    DealTask,
    SplitBot,
    UnknownBotError,
    arena_tasks,
    bot_kind,
    check_lineup,
    deal_seed,
    known_bot_names,
    make_arena_bot,
    play_deal,
    play_deals,
    seatings,
)

__all__ = [
    "ArenaResult",
    "BotStats",
    "DealResult",
    "DealTask",
    "PairStats",
    "ProgressFn",
    "SplitBot",
    "UnknownBotError",
    "aggregate",
    "arena_tasks",
    "bot_kind",
    "check_lineup",
    "cumulative_difference",
    "deal_seed",
    "format_plain",
    "known_bot_names",
    "make_arena_bot",
    "mean_ci95",
    "percentile",
    "play_deal",
    "play_deals",
    "plot",
    "run_arena",
    "seatings",
    "t_quantile",
]
