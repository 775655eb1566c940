"""The search bot's calls against their real outcomes.

The search bot makes each decision before the card play (the joker call,
bids, pick-up and discard, alone, the Cutthroat maker's merge and keep) by
estimating every candidate's expected utility with rollouts, and keeps the
rule bot's choice unless another beats it by a margin (``Level.margin``
plus ``Level.se_factor`` standard errors). This script checks those
estimates against what the candidates really bring: on the arena's deals
and seatings against rule bots, at every such decision of the search seat
with more than one legal action, the hand is finished once after each
candidate by the real bots (the search bot playing its own cards, the rule
bots theirs), and the seat's utility recorded (its points minus the
average of the others' in Cutthroat, its side's minus the other side's in
partnership; no match situation)::

    python bench/call_outcomes.py                       # search:hard, Cutthroat
    python bench/call_outcomes.py --variant partnership --deals 300 --seed 11
    python bench/call_outcomes.py --json

It prints, per hand (a deal in one seating; 95% intervals over the deals):

- **its calls over the rule bot's calls**: what the search's deviations
  from the rule bot's calls really gain, the rest of the hand played as it
  is played;
- **the best call in hindsight**: the candidate that really did best on the
  deal, over the bot's call (a bound that only a bot seeing the deal could
  reach);
- **calibration** by phase: the estimated gain of each candidate over the
  rule bot's choice against its real gain (mean and least-squares slope);
- **other margins**: the calls the same estimates would have made with
  other margins and standard-error factors, each over the bot's own calls.
  A change of one decision is valued by its real outcome, the later
  decisions of the hand played by the bots as they would, so every row is
  measured on the same decisions (paired) without another arena run.

``--records FILE`` keeps every decision's record, the seat's view with it,
for ``--load`` and for ``bench/call_model.py`` (a learned evaluator fitted
to these outcomes).

Figures in docs/strength.md ("The calls against their real outcomes").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from _cli import add_arena_arguments, check_arena_arguments
from euchre import Action, Rules
from euchre.arena import DealTask, arena_tasks, deal_seed, make_arena_bot, mean_ci95, seatings
from euchre.bots.base import Bot, StateBot, act
from euchre.bots.scoring import utility
from euchre.bots.search import CallEstimate, SearchBot, rank_calls
from euchre.hand import Deal, HandState, Phase
from euchre.view import View

#: the margins and standard-error factors of the offline grid
MARGINS = (0.0, 0.03, 0.05, 0.1, 0.2)
SE_FACTORS = (0.0, 0.5, 1.0, 2.0)

Record = dict[str, Any]


def _finish(state: HandState, bots: Sequence[Bot | StateBot], seat: int) -> float:
    """The seat's utility once the real bots have finished the hand."""
    while not state.is_over:
        s = state.to_act
        assert s is not None
        state = state.apply(act(bots[s], state, s, None), s)
    result = state.result
    assert result is not None
    return utility(result.points, seat, state.rules, ())


def deal_records(task: DealTask) -> tuple[int, int, list[Record]]:
    """Every decision before the play of the lineup's first bot (a search
    bot) on one deal, in all its seatings: each candidate's estimate and real
    outcome. Returns the deal's index, its number of seatings and the
    records."""
    rules, lineup = task.rules, task.lineup
    deal = Deal.random(rules, random.Random(task.seed))
    out: list[Record] = []
    seats_of = seatings(rules, len(lineup))
    for k, seating in enumerate(seats_of):
        bots = [
            make_arena_bot(lineup[e], deal_seed(task.seed, k * rules.seats + s))
            for s, e in enumerate(seating)
        ]
        state = HandState(rules, task.dealer, deal)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            b = bots[seat]
            if isinstance(b, SearchBot) and state.phase != Phase.PLAY:
                view = View.of(state, seat, None)
                if len(view.legal) > 1:
                    chosen = b.suggest(view)[0][0]
                    # this decision's estimates: finishing the hand asks the
                    # bots again, which replaces ``b.estimates``
                    estimates = b.estimates
                    out.append(
                        {
                            "seating": k,
                            "seat": seat,
                            "phase": str(state.phase),
                            "view": view.to_json(),
                            "chosen": str(chosen),
                            "candidates": [
                                {
                                    "action": str(e.action),
                                    "value": e.value,
                                    "se": e.se,
                                    "prior": e.prior,
                                    "real": _finish(state.apply(e.action, seat), bots, seat),
                                }
                                for e in estimates
                            ],
                        }
                    )
            state = state.apply(act(b, state, seat, None), seat)
    return task.index, len(seats_of), out


@dataclass(frozen=True, slots=True)
class Decision:
    """A record as the figures read it: the search's estimates (to rank with
    ``rank_calls``) and each candidate's real outcome, by its text."""

    phase: str
    chosen: str
    prior: str  #: the rule bot's choice
    estimates: list[CallEstimate]
    real: dict[str, float]

    @classmethod
    def of(cls, rec: Record) -> Decision:
        """The decision of a record (``deal_records``)."""
        cands = rec["candidates"]
        return cls(
            rec["phase"],
            rec["chosen"],
            next(c["action"] for c in cands if c["prior"]),
            [
                CallEstimate(Action.parse(c["action"]), c["value"], c["se"], c["prior"])
                for c in cands
            ],
            {c["action"]: c["real"] for c in cands},
        )

    def choose(self, margin: float, se_factor: float) -> str:
        """The call these estimates make with this margin and factor."""
        return str(rank_calls(self.estimates, margin, se_factor)[0].action)

    def gain(self, action: str) -> float:
        """What ``action`` really brought over the bot's call."""
        return self.real[action] - self.real[self.chosen]


def per_hand(
    by_deal: dict[int, list[Decision]], hands: dict[int, int], gain: Callable[[Decision], float]
) -> tuple[float, float, float]:
    """Mean [95% CI] over the deals of ``gain(decision)`` summed over a
    deal's decisions and divided by its hands (its seatings)."""
    return mean_ci95([sum(gain(r) for r in by_deal[d]) / hands[d] for d in sorted(hands)])


def _slope(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """The least-squares slope of ``ys`` on ``xs`` (None if ``xs`` do not vary)."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else None


def summarize(
    records: dict[int, list[Record]], hands: dict[int, int], margin: float, se_factor: float
) -> dict[str, Any]:
    """The figures of a run (see the module)."""
    by_deal = {d: [Decision.of(r) for r in recs] for d, recs in records.items()}
    decisions = [r for d in sorted(by_deal) for r in by_deal[d]]
    out: dict[str, Any] = {
        "hands": sum(hands.values()),
        "decisions": len(decisions),
        "deviations": sum(1 for r in decisions if r.chosen != r.prior),
        "reproduced": sum(1 for r in decisions if r.choose(margin, se_factor) == r.chosen),
    }
    out["over_rule_calls"] = per_hand(by_deal, hands, lambda r: -r.gain(r.prior))
    out["hindsight_over_calls"] = per_hand(by_deal, hands, lambda r: max(r.gain(a) for a in r.real))
    by_phase: dict[str, dict[str, Any]] = {}
    for phase in sorted({r.phase for r in decisions}):
        mine = [r for r in decisions if r.phase == phase]

        def over_rule(r: Decision, phase: str = phase) -> float:
            return -r.gain(r.prior) if r.phase == phase else 0.0

        by_phase[phase] = {
            "decisions": len(mine),
            "deviations": sum(1 for r in mine if r.chosen != r.prior),
            "gain": per_hand(by_deal, hands, over_rule),
        }
    out["over_rule_calls_by_phase"] = by_phase
    calib: dict[str, dict[str, Any]] = {}
    pts: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in decisions:
        base = next(e for e in r.estimates if e.prior)
        for e in r.estimates:
            if not e.prior:
                pts[r.phase].append((e.value - base.value, r.real[str(e.action)] - r.real[r.prior]))
    for phase, xy in sorted(pts.items()):
        xs, ys = [x for x, _ in xy], [y for _, y in xy]
        calib[phase] = {
            "candidates": len(xy),
            "estimated": sum(xs) / len(xs),
            "real": sum(ys) / len(ys),
            "slope": _slope(xs, ys),
        }
    out["calibration"] = calib
    grid = []
    settings = sorted({(m, f) for m in MARGINS for f in SE_FACTORS} | {(margin, se_factor)})
    for m, f in settings:

        def gain(r: Decision, m: float = m, f: float = f) -> float:
            return r.gain(r.choose(m, f))

        grid.append({"margin": m, "se_factor": f, "gain": per_hand(by_deal, hands, gain)})
    out["margins"] = grid
    return out


def play(
    lineup: list[str],
    rules: Rules,
    args: argparse.Namespace,
    by_deal: dict[int, list[Record]],
    hands: dict[int, int],
) -> None:
    """Record every deal of the run (``deal_records``) on ``args.jobs``
    workers into ``by_deal`` and ``hands``, the progress on standard error."""
    tasks = arena_tasks(lineup, rules, args.deals, args.seed)
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        for n, (index, seated, recs) in enumerate(pool.imap_unordered(deal_records, tasks), 1):
            by_deal[index], hands[index] = recs, seated
            if n % 10 == 0 or n == args.deals:
                print(
                    f"\r{n}/{args.deals} deals, {time.perf_counter() - start:.0f} s",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
    print(file=sys.stderr)


def _ci(t: Sequence[float]) -> str:
    return f"{t[0]:+.3f} [{t[1]:+.3f}, {t[2]:+.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arena_arguments(parser, deals=500, seed=11)
    parser.add_argument("--bot", default="search:hard", help="a search bot (default search:hard)")
    parser.add_argument(
        "--records",
        metavar="FILE",
        help="also save every record (with the seat's view) as JSON here; "
        "bench/call_model.py fits on it",
    )
    parser.add_argument(
        "--load",
        metavar="FILE",
        help="print the figures of records saved by --records instead of playing "
        "(the bot, variant, deals and seed are the file's)",
    )
    args = parser.parse_args()
    if args.load:
        try:
            with open(args.load) as f:
                saved = json.load(f)
            args.bot, args.variant = saved["bot"], saved["variant"]
            args.deals, args.seed = int(saved["deals"]), int(saved["seed"])
            if not isinstance(saved["records"], dict):
                raise TypeError("its records are not an object")
        except OSError as e:
            raise SystemExit(f"call_outcomes: --load: cannot read {args.load}: {e}") from None
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(
                f"call_outcomes: --load {args.load}: not a file written by --records ({e!r})"
            ) from None
    check_arena_arguments(parser, args)
    try:
        probe = make_arena_bot(args.bot, 0)
    except ValueError as e:
        raise SystemExit(f"call_outcomes: {e}") from None
    if not isinstance(probe, SearchBot):
        raise SystemExit(
            f"call_outcomes: --bot wants a search bot (search:LEVEL), not {args.bot!r}"
        )
    rules = Rules(variant=args.variant)
    level = probe.level_for(rules)
    lineup = [args.bot, "rule", "rule"] if rules.cutthroat else [args.bot, "rule"]
    by_deal: dict[int, list[Record]] = {}
    hands: dict[int, int] = {}
    start = time.perf_counter()
    if args.load:
        by_deal = {int(d): recs for d, recs in saved["records"].items()}
        hands = {d: len(seatings(rules, len(lineup))) for d in by_deal}
    else:
        play(lineup, rules, args, by_deal, hands)
    if args.records and not args.load:
        with open(args.records, "w") as f:
            records = {str(d): by_deal[d] for d in sorted(by_deal)}
            meta = {k: getattr(args, k) for k in ("bot", "variant", "deals", "seed")}
            json.dump({**meta, "records": records}, f)
    out = {
        "bot": args.bot,
        "variant": args.variant,
        "deals": args.deals,
        "seed": args.seed,
        "margin": level.margin,
        "se_factor": level.se_factor,
        "seconds": None if args.load else round(time.perf_counter() - start, 1),
        **summarize(by_deal, hands, level.margin, level.se_factor),
    }
    if args.json:
        print(json.dumps(out))
        return
    took = "" if out["seconds"] is None else f" ({out['seconds']:.0f} s)"
    print(
        f"{args.bot}, {args.variant}, {args.deals} deals (seed {args.seed}): {out['hands']} hands, "
        f"{out['decisions']} decisions before the play with a choice, "
        f"{out['deviations']} away from the rule bot's call{took}; the "
        f"recorded estimates make {out['reproduced']} of its {out['decisions']} calls again"
    )
    print("real outcomes, per hand (95% CI over the deals):")
    print(f"  its calls over the rule bot's calls       {_ci(out['over_rule_calls'])}")
    print(f"  the best call in hindsight over its calls {_ci(out['hindsight_over_calls'])}")
    print("  its calls over the rule bot's, by phase (decisions, away from the rule bot's):")
    for phase, c in out["over_rule_calls_by_phase"].items():
        print(f"    {phase:8} {c['decisions']:6} {c['deviations']:5}  {_ci(c['gain'])}")
    print("calibration: a candidate's gain over the rule bot's choice, estimated and real")
    print("  phase     candidates  estimated      real  slope")
    for phase, c in out["calibration"].items():
        print(
            f"  {phase:8} {c['candidates']:11} {c['estimated']:+10.3f} {c['real']:+9.3f}"
            f"  {'-' if c['slope'] is None else format(c['slope'], '.2f')}"
        )
    print(
        f"other margins (the level's: {level.margin} + {level.se_factor} SE), "
        "the same estimates, over its calls per hand:"
    )
    for row in out["margins"]:
        mine = (row["margin"], row["se_factor"]) == (level.margin, level.se_factor)
        own = " (the level's)" if mine else ""
        print(f"  margin {row['margin']:<4} + {row['se_factor']:<3} SE  {_ci(row['gain'])}{own}")


if __name__ == "__main__":
    main()
