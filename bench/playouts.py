"""Random playouts per second: our engine against OpenSpiel's ``euchre``.

A playout is one whole hand from a fresh random deal, with a uniformly
random legal action at every decision. Measured, each with the same number of
processes (``--jobs``), one after another:

- ours, fast path: ``FastHand.random(rules, dealer, rng)``
  then ``h.playout(rng)`` — partnership with the rules that match OpenSpiel,
  partnership with the default options, and Cutthroat (defaults);
- ours, compiled: the C playouts (``euchre.playout.compiled_playouts``, the
  extension ``euchre._cplayout``), a batch of hands per call with no Python
  object per hand — partnership with OpenSpiel's rules, and Cutthroat; left
  out, with a note, when the extension is not built;
- ours, clean API: the immutable ``HandState`` loop (``legal_actions()``,
  ``rng.choice``, ``apply``) — the same rule sets;
- OpenSpiel (``pyspiel``, ``allow_lone_defender=True``,
  ``stick_the_dealer=True``) driven from Python: every chance node (dealer,
  20 cards, up-card) and every decision takes a uniformly random legal
  action (OpenSpiel's chance outcomes here are all equally likely, checked
  during warm-up). OpenSpiel has no Cutthroat. For comparison a second row
  draws the chance nodes the textbook way, from ``chance_outcomes()`` with
  their probabilities (slower; not the headline).

Each process warms up, waits for the others at a barrier, then plays hands for
a fixed time and reports hands and time; the total rate is the sum of the
processes' rates. Each measurement's ``--seconds`` are split into
``--rounds`` turns taken in alternation with the other measurements, so a
change of load on a shared machine falls on all of them alike. Usage::

    python bench/playouts.py [--jobs 2] [--seconds 3] [--rounds 3] [--seed 1] [--json]
    python bench/playouts.py --only ours --only openspiel   # just the headline pair

With ``--json`` exactly one JSON object is printed:
``{"ours_hands_per_s", "openspiel_hands_per_s", "ratio", ...}`` (partnership,
fast path, OpenSpiel's rules), then ``compiled_ratio`` (and per CPU-s) when
the compiled row was measured, plus the other measurements as extra keys
(``compiled_hands_per_s``...).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.synchronize import Barrier
from typing import Any

from euchre import Deal, FastHand, HandState, Rules
from euchre.playout import COMPILED_AVAILABLE, compiled_playouts

#: Our rules set to match OpenSpiel's euchre (lone defenders, stick the dealer).
OPENSPIEL_RULES = Rules(
    variant="partnership",
    deck=24,
    stick_the_dealer=True,
    dealer_pickup="mandatory",
    lone_defender_points=4,
    dealer_may_discard_upcard=False,
    lone_lead="left_of_dealer",
)
OPENSPIEL_PARAMS: dict[str, Any] = {"allow_lone_defender": True, "stick_the_dealer": True}
OPENSPIEL_CHANCE_NODES = 22  # dealer, 20 cards, up-card


@dataclass(frozen=True)
class Measurement:
    """One row of the table."""

    key: str  # JSON key prefix
    engine: str
    api: str
    variant: str


MEASUREMENTS: tuple[Measurement, ...] = (
    Measurement("ours", "ours", "fast", "partnership, OpenSpiel's rules"),
    Measurement("compiled", "ours", "compiled", "partnership, OpenSpiel's rules"),
    Measurement("openspiel", "OpenSpiel", "python", "partnership, its rules"),
    Measurement("openspiel_outcomes", "OpenSpiel", "python", "same, chance_outcomes() draw"),
    Measurement("api", "ours", "clean API", "partnership, OpenSpiel's rules"),
    Measurement("partnership_default", "ours", "fast", "partnership, default options"),
    Measurement("partnership_default_api", "ours", "clean API", "partnership, default options"),
    Measurement("cutthroat", "ours", "fast", "cutthroat, default options"),
    Measurement("cutthroat_compiled", "ours", "compiled", "cutthroat, default options"),
    Measurement("cutthroat_api", "ours", "clean API", "cutthroat, default options"),
)

_RULES_OF = {
    "ours": OPENSPIEL_RULES,
    "compiled": OPENSPIEL_RULES,
    "api": OPENSPIEL_RULES,
    "partnership_default": Rules(variant="partnership"),
    "partnership_default_api": Rules(variant="partnership"),
    "cutthroat": Rules(),
    "cutthroat_compiled": Rules(),
    "cutthroat_api": Rules(),
}

#: The measurements that need the compiled playouts (euchre._cplayout).
COMPILED_KEYS = frozenset(m.key for m in MEASUREMENTS if m.api == "compiled")
#: Hands per call of the compiled batch (about a millisecond).
COMPILED_BATCH = 1000

# --- one call of each kind: returns the number of decisions taken ----------------


def _ours_fast(rules: Rules, rng: random.Random) -> int:
    h = FastHand.random(rules, rng.randrange(rules.seats), rng)
    h.playout(rng)
    return len(h.calls) + sum(len(cards) for _, cards, _ in h.trick_log)


def _ours_api(rules: Rules, rng: random.Random) -> int:
    choice = rng.choice
    state = HandState(rules, rng.randrange(rules.seats), Deal.random(rules, rng))
    n = 0
    while not state.is_over:
        state = state.apply(choice(state.legal_actions()))
        n += 1
    return n


def _openspiel_hand(game: Any, rng: random.Random) -> int:
    rand = rng.random
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[int(rand() * len(actions))])
        n += 1
    return n - OPENSPIEL_CHANCE_NODES


def _openspiel_hand_outcomes(game: Any, rng: random.Random) -> int:
    """The textbook OpenSpiel loop: chance nodes drawn from ``chance_outcomes()``
    by their probabilities (slower; shown for comparison only)."""
    rand = rng.random
    choices = rng.choices
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choices(actions, probs)[0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rand() * len(actions))])
            n += 1
    return n


def _check_openspiel_chance_uniform(game: Any, rng: random.Random) -> None:
    """Warm-up check: at every chance node the outcomes are the legal actions,
    all equally likely, so a uniform pick among them samples them exactly."""
    state = game.new_initial_state()
    while not state.is_terminal():
        actions = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = {p for _, p in outcomes}
            if [a for a, _ in outcomes] != actions or max(probs) - min(probs) > 1e-12:
                raise RuntimeError("OpenSpiel's chance outcomes are not uniform")
        state.apply_action(actions[int(rng.random() * len(actions))])


def _ours_compiled(rules: Rules, rng: random.Random) -> int:
    """``COMPILED_BATCH`` hands in one call of the C playouts."""
    return compiled_playouts(rules, COMPILED_BATCH, rng.getrandbits(64)).decisions


def _hand_function(key: str) -> tuple[Callable[[random.Random], int], int]:
    """The function playing one call of measurement ``key`` (it returns the
    decisions taken) and the number of hands a call plays."""
    if key in COMPILED_KEYS:
        compiled_rules = _RULES_OF[key]
        return (lambda rng: _ours_compiled(compiled_rules, rng)), COMPILED_BATCH
    return _python_hand_function(key), 1


def _python_hand_function(key: str) -> Callable[[random.Random], int]:
    if key.startswith("openspiel"):
        import pyspiel  # a dev dependency; imported here so ours runs without it

        game = pyspiel.load_game("euchre", OPENSPIEL_PARAMS)
        if key == "openspiel_outcomes":
            return lambda rng: _openspiel_hand_outcomes(game, rng)
        _check_openspiel_chance_uniform(game, random.Random(0))
        return lambda rng: _openspiel_hand(game, rng)
    rules = _RULES_OF[key]
    if key.endswith("api"):
        return lambda rng: _ours_api(rules, rng)
    return lambda rng: _ours_fast(rules, rng)


# --- worker processes ------------------------------------------------------------

_barrier: Barrier | None = None
_plays: dict[str, tuple[Callable[[random.Random], int], int]] = {}


def _init_worker(barrier: Barrier) -> None:
    global _barrier
    _barrier = barrier


def _worker(task: tuple[str, float, int]) -> tuple[int, int, float, float]:
    """Play hands of one kind for ``seconds``: (hands, decisions, wall
    seconds, CPU seconds of this process).

    The first task of a kind in a process warms up for 0.3 s; later ones
    play a few calls only (a call: one hand, or a batch of compiled hands).
    Then all processes meet at a barrier and start."""
    key, seconds, seed = task
    rng = random.Random(seed)
    known = _plays.get(key)
    if known is None:
        known = _plays[key] = _hand_function(key)
        warm_end = time.perf_counter() + 0.3
        while time.perf_counter() < warm_end:
            known[0](rng)
    play, per_call = known
    for _ in range(16):
        play(rng)
    assert _barrier is not None
    _barrier.wait()
    hands = decisions = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        for _ in range(16):
            decisions += play(rng)
        hands += 16 * per_call
        now = time.perf_counter()
    return hands, decisions, now - start, time.process_time() - cpu_start


@dataclass(frozen=True)
class Result:
    """A measurement's totals over all processes and rounds."""

    hands_per_s: float  #: summed over processes, by the wall clock
    hands_per_cpu_s: float  #: summed over processes, per CPU second used
    cpu_share: float  #: mean CPU seconds / wall seconds of a process (< 1: busy machine)
    decisions_per_hand: float
    per_process: tuple[float, ...]


def measure_all(
    jobs: int, seconds: float, seed: int, rounds: int, keys: list[str] | None = None
) -> dict[str, Result]:
    """Run every measurement (or those in ``keys``) with ``jobs`` processes.

    The ``seconds`` of each measurement are split into ``rounds`` slices, and
    the measurements take turns (in alternating order), so that a change in
    the machine's load during the run falls on all of them alike. A
    process's rate is its hands over its timed seconds, summed over rounds;
    the total is the sum over processes."""
    ctx = mp.get_context()
    barrier = ctx.Barrier(jobs)
    chosen = [
        (i, m)
        for i, m in enumerate(MEASUREMENTS)
        if (keys is None or m.key in keys) and (COMPILED_AVAILABLE or m.key not in COMPILED_KEYS)
    ]
    hands = {m.key: [0] * jobs for _, m in chosen}
    decisions = {m.key: 0 for _, m in chosen}
    elapsed = {m.key: [0.0] * jobs for _, m in chosen}
    cpu = {m.key: [0.0] * jobs for _, m in chosen}
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(barrier,)) as pool:
        for r in range(rounds):
            for i, m in chosen if r % 2 == 0 else reversed(chosen):
                tasks = [
                    (m.key, seconds / rounds, ((seed * 100 + r) * 100 + i) * 100 + j)
                    for j in range(jobs)
                ]
                for j, (h, d, t, c) in enumerate(pool.map(_worker, tasks, chunksize=1)):
                    hands[m.key][j] += h
                    elapsed[m.key][j] += t
                    cpu[m.key][j] += c
                    decisions[m.key] += d
    out: dict[str, Result] = {}
    for _, m in chosen:
        k = m.key
        rates = tuple(h / t for h, t in zip(hands[k], elapsed[k], strict=True))
        cpu_rates = sum(h / max(c, 1e-9) for h, c in zip(hands[k], cpu[k], strict=True))
        share = sum(c / t for c, t in zip(cpu[k], elapsed[k], strict=True)) / jobs
        out[k] = Result(sum(rates), cpu_rates, share, decisions[k] / sum(hands[k]), rates)
    return out


# --- output ------------------------------------------------------------------------


def format_table(
    results: dict[str, Result], jobs: int, seconds: float, seed: int, rounds: int
) -> str:
    """The human-readable table."""
    lines = [
        f"Random playouts: {jobs} process(es) x {seconds:g} s per measurement "
        f"({rounds} interleaved rounds), seed {seed}, "
        f"{os.cpu_count()} CPU(s), Python {sys.version.split()[0]}",
        "",
        f"{'engine':10} {'API':10} {'variant / rules':31} {'hands/s':>10} "
        f"{'per process':>21} {'per CPU-s':>10} {'CPU':>5} {'dec/hand':>9}",
    ]
    lines.append("-" * len(lines[-1]))
    for m in MEASUREMENTS:
        r = results.get(m.key)
        if r is None:
            continue
        per = " + ".join(f"{x:,.0f}" for x in r.per_process)
        lines.append(
            f"{m.engine:10} {m.api:10} {m.variant:31} {r.hands_per_s:>10,.0f} "
            f"{per:>21} {r.hands_per_cpu_s:>10,.0f} {r.cpu_share:>5.0%} "
            f"{r.decisions_per_hand:>9.1f}"
        )
    lines += [
        "",
        "hands/s: wall clock, summed over processes; per CPU-s: hands per CPU second used;",
        "CPU: share of the wall time the processes got; dec/hand: decisions per hand "
        "(OpenSpiel's 22 chance nodes not counted).",
    ]
    for key, label in (("ours", "fast"), ("compiled", "compiled"), ("api", "clean API")):
        if key in results and "openspiel" in results:
            ours, theirs = results[key], results["openspiel"]
            lines.append(
                f"ratio ours ({label}, OpenSpiel's rules) / OpenSpiel: "
                f"{ours.hands_per_s / theirs.hands_per_s:.2f} wall, "
                f"{ours.hands_per_cpu_s / theirs.hands_per_cpu_s:.2f} per CPU-s"
            )
    if not COMPILED_AVAILABLE:
        lines.append(
            "ours compiled: not measured, the extension euchre._cplayout is not built "
            "(no C compiler at install?)"
        )
    busy = [m.key for m in MEASUREMENTS if m.key in results and results[m.key].cpu_share < 0.9]
    if busy:
        lines.append(
            "warning: the machine was busy (processes got under 90% of a CPU in "
            f"{', '.join(busy)}); the wall-clock figures are unreliable, see per CPU-s."
        )
    return "\n".join(lines)


def to_json(results: dict[str, Result], jobs: int, seconds: float) -> dict[str, Any]:
    """The JSON object of ``--json``: the headline keys first, then every
    measurement's ``KEY_hands_per_s`` and ``KEY_hands_per_cpu_s``."""
    ours, theirs = results["ours"], results["openspiel"]
    out: dict[str, Any] = {
        "ours_hands_per_s": round(ours.hands_per_s, 1),
        "openspiel_hands_per_s": round(theirs.hands_per_s, 1),
        "ratio": round(ours.hands_per_s / theirs.hands_per_s, 3),
        "ratio_per_cpu_s": round(ours.hands_per_cpu_s / theirs.hands_per_cpu_s, 3),
    }
    if "compiled" in results:
        compiled = results["compiled"]
        out["compiled_ratio"] = round(compiled.hands_per_s / theirs.hands_per_s, 3)
        out["compiled_ratio_per_cpu_s"] = round(
            compiled.hands_per_cpu_s / theirs.hands_per_cpu_s, 3
        )
    for key, r in results.items():
        if key not in ("ours", "openspiel"):
            out[f"{key}_hands_per_s"] = round(r.hands_per_s, 1)
    for key, r in results.items():
        out[f"{key}_hands_per_cpu_s"] = round(r.hands_per_cpu_s, 1)
    out["cpu_share"] = round(min(r.cpu_share for r in results.values()), 3)
    out["jobs"] = jobs
    out["seconds"] = seconds
    return out


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="bench/playouts.py",
        description="Random Euchre playouts per second: our engine and OpenSpiel's.",
    )
    p.add_argument(
        "--seconds",
        type=_positive_float,
        default=3.0,
        help="timed seconds per measurement and process (default 3)",
    )
    p.add_argument(
        "--jobs",
        type=_positive_int,
        default=2,
        help="processes per measurement, all running at once (default 2)",
    )
    p.add_argument("--seed", type=_int, default=1, help="random seed (default 1)")
    p.add_argument(
        "--rounds",
        type=_positive_int,
        default=3,
        help="split each measurement's seconds into this many turns, interleaved (default 3)",
    )
    p.add_argument(
        "--only",
        choices=[m.key for m in MEASUREMENTS],
        action="append",
        help="run only this measurement (repeatable; --json needs ours and openspiel)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object {"ours_hands_per_s", "openspiel_hands_per_s", "ratio", ...}',
    )
    args = p.parse_args(argv)
    if args.json and args.only and not {"ours", "openspiel"} <= set(args.only):
        p.error("--json reports ours and openspiel: include both in --only")
    if args.only and not COMPILED_AVAILABLE and COMPILED_KEYS & set(args.only):
        p.error("the compiled playouts (euchre._cplayout) are not built: no compiled rows")
    if args.only is None or any(k.startswith("openspiel") for k in args.only):
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            p.error(
                "OpenSpiel is not installed (pip install -e '.[dev]' brings open-spiel); "
                "to time only our engine use --only ours (and other keys of ours)"
            )
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table or the JSON object."""
    args = parse_args(argv)
    results = measure_all(args.jobs, args.seconds, args.seed, args.rounds, args.only)
    if args.json:
        print(json.dumps(to_json(results, args.jobs, args.seconds)))
    else:
        print(format_table(results, args.jobs, args.seconds, args.seed, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
