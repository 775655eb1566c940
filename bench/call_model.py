"""A learned evaluator of the two-way calls, against their real outcomes.

Issue 20's second method: fit a model of a call's worth on features of the
seat's view (its hand, the up-card, its seat, the calls before it) and call
by it. This script fits such a model to the real outcomes that
``bench/call_outcomes.py --records`` saves (every candidate of every call
before the play, the hand finished after each by the real bots), and values
the calls it would make on deals it was not fitted on::

    python bench/call_outcomes.py --deals 1000 --seed 13 --records c13.json
    python bench/call_model.py c13.json [more records files of the variant]

The calls are the two-way ones, where most of the search's gain over the
rule bot's calls lies: round one of the bidding (order or pass), going
alone (alone or not) and the Cutthroat maker's choice (alone or merge the
dummy). For each, per phase, a ridge regression predicts the real gain of
acting over not acting, cross-fitted by deal (``--folds``: fitted on the
other folds' deals, applied to the fold's), and four models call by it:

- ``features``: the view's features alone (the learned evaluator proper);
- ``features + estimate``: the features and the search's own estimate of the
  gain (its rollouts), fitted together;
- ``estimate + correction``: the search's estimate, corrected by the
  features' prediction of its error;
- ``stacked``: the real gain regressed on the search's estimate and the
  features' (out-of-fold) prediction.

Each row prints what its calls would really have brought over the search's
calls, per hand (a deal in one seating; 95% interval over the deals), next
to the rule bot's calls, the search's estimates without a margin, and the
best call in hindsight. A changed call is valued by its recorded real
outcome (the rest of the hand played by the bots as they would).

Figures in docs/strength.md ("A learned evaluator of the calls").
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from euchre import Rules
from euchre.arena import mean_ci95, seatings
from euchre.cards import Card, Rank, Suit, effective_suit

#: the two-way calls: phase -> (acting, not acting), as their actions' first word
PAIRS = {"bid1": ("order", "pass"), "alone": ("alone", "pass"), "maker": ("alone", "keep")}

#: the up-card's ranks, by their letter
UP_RANKS = ("9", "T", "J", "Q", "K", "A")

#: the features' names, in ``features``' order (the seat's place after the
#: dealer follows, one per seat)
FEATURES = (
    "bias",
    "trumps",
    "right bower",
    "left bower",
    "ace of trump",
    "king of trump",
    "queen of trump",
    "other aces",
    "other kings",
    "other suits void",
    "trumps squared",
    *(f"up-card {r}" for r in UP_RANKS),
    "passes before",
)


def features(view: dict[str, Any], phase: str) -> list[float]:
    """The features of a seat's view (``View.to_json``) for a two-way call of
    ``phase``: its hand against the trump in question (the up-card's suit in
    round one, the trump named otherwise), the up-card's rank, the calls
    before it, and its place after the dealer (one feature per seat)."""
    hand = [Card.parse(c) for c in view["hand"]]
    up = Card.parse(view["up_card"])
    trump = up.suit if phase == "bid1" else Suit.parse(view["trump"])
    if trump is None:
        raise ValueError(f"no trump to judge the hand by in phase {phase!r}")
    suits = [effective_suit(c, trump) for c in hand]
    off = [c for c, s in zip(hand, suits, strict=True) if s != trump]
    trumps = len(hand) - len(off)

    def has(rank: Rank, suit: Suit) -> bool:
        return any(c.rank == rank and c.suit == suit for c in hand)

    seats = Rules(variant=view["variant"]).seats
    place = (view["seat"] - view["dealer"]) % seats
    passes = sum(1 for h in view["history"] if h.split()[1:2] == ["pass"])
    out = [
        1.0,
        trumps,
        has(Rank.JACK, trump),
        has(Rank.JACK, trump.partner),
        has(Rank.ACE, trump),
        has(Rank.KING, trump),
        has(Rank.QUEEN, trump),
        sum(c.rank == Rank.ACE for c in off),
        sum(c.rank == Rank.KING for c in off),
        3 - len({s for s in suits if s != trump}),
        trumps * trumps,
        *(str(up)[0] == r for r in UP_RANKS),
        passes,
        *(place == k for k in range(4)),
    ]
    return [float(x) for x in out[: len(FEATURES) + seats]]


@dataclass(frozen=True, slots=True)
class Call:
    """A two-way call of the records: the view's features, the search's
    estimated and the real gain of acting over not acting, and who acted."""

    deal: int  #: the deal's key (distinct over the files read)
    phase: str
    x: list[float]
    estimate: float
    real: float
    chosen: bool  #: whether the search acted
    rule: bool  #: whether the rule bot would have


def two_way_calls(records: dict[str, list[dict[str, Any]]], offset: int = 0) -> list[Call]:
    """The two-way calls of a records file's ``records`` (deal keys shifted
    by ``offset``). A record without its view (written before views were
    recorded) raises ``ValueError``."""
    out = []
    for deal, recs in records.items():
        for r in recs:
            pair = PAIRS.get(r["phase"])
            if pair is None or len(r["candidates"]) != 2:
                continue
            by = {c["action"].split()[0]: c for c in r["candidates"]}
            if set(by) != set(pair):
                continue
            if "view" not in r:
                raise ValueError("its records have no views (record them again)")
            act, rest = by[pair[0]], by[pair[1]]
            out.append(
                Call(
                    int(deal) + offset,
                    r["phase"],
                    features(r["view"], r["phase"]),
                    act["value"] - rest["value"],
                    act["real"] - rest["real"],
                    r["chosen"].split()[0] == pair[0],
                    bool(act["prior"]),
                )
            )
    return out


def ridge(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge regression's coefficients (the first column, the constant, unpenalised)."""
    a = x.T @ x + lam * np.eye(x.shape[1])
    a[0, 0] -= lam
    return np.asarray(np.linalg.solve(a, x.T @ y))


def cross_fit(calls: Sequence[Call], folds: int, lam: float) -> dict[str, np.ndarray]:
    """Each model's predicted gain of acting for every call, each fold's
    predictions fitted on the other folds' deals (``Call.deal % folds``)."""
    x = np.array([c.x for c in calls])
    est = np.array([c.estimate for c in calls])
    y = np.array([c.real for c in calls])
    fold = np.array([c.deal % folds for c in calls])
    xe = np.column_stack([x, est])
    # the stacked model's inner folds, within the fitted deals
    inner = np.array([c.deal // folds % folds for c in calls])
    out = {k: np.zeros(len(calls)) for k in MODELS}
    for f in range(folds):
        fit, test = fold != f, fold == f
        if not test.any() or not fit.any():
            continue
        out["features"][test] = x[test] @ ridge(x[fit], y[fit], lam)
        out["features + estimate"][test] = xe[test] @ ridge(xe[fit], y[fit], lam)
        out["estimate + correction"][test] = est[test] + x[test] @ ridge(
            x[fit], y[fit] - est[fit], lam
        )
        # stacked: the features' out-of-fold prediction on the fitted deals,
        # then least squares of the real gain on [1, estimate, that prediction]
        oof = np.zeros(len(calls))
        for g in range(folds):
            a, b = fit & (inner != g), fit & (inner == g)
            if a.any() and b.any():
                oof[b] = x[b] @ ridge(x[a], y[a], lam)
        s = np.column_stack([np.ones(fit.sum()), est[fit], oof[fit]])
        coef = np.linalg.lstsq(s, y[fit], rcond=None)[0]
        pred = out["features"][test]
        out["stacked"][test] = np.column_stack([np.ones(test.sum()), est[test], pred]) @ coef
    return out


#: the learned models, in the order printed
MODELS = ("features", "features + estimate", "estimate + correction", "stacked")


def per_hand(
    calls: Sequence[Call], deals: Sequence[int], hands: int, acts: Callable[[int, Call], bool]
) -> tuple[float, float, float]:
    """What calling by ``acts(i, call)`` really brings over the search's
    calls, per hand: mean [95% CI] over the deals."""
    by = dict.fromkeys(deals, 0.0)
    for i, c in enumerate(calls):
        if acts(i, c) != c.chosen:
            by[c.deal] += c.real if not c.chosen else -c.real
    return mean_ci95([by[d] / hands for d in deals])


#: a way to call: whether to act on the ``k``-th call
Rule = Callable[[int, Call], bool]


def summarize(
    calls: Sequence[Call], deals: Sequence[int], hands: int, folds: int, lam: float
) -> dict[str, Any]:
    """The figures: per phase and over all two-way calls, each rule's gain
    over the search's calls and the correlations of the predictions with
    the real gains."""
    rows: dict[str, Any] = {}
    acts_of: dict[str, list[bool]] = {k: [False] * len(calls) for k in MODELS}
    for phase in PAIRS:
        idx = [k for k, call in enumerate(calls) if call.phase == phase]
        if len(idx) < 2 * folds:
            continue
        mine = [calls[k] for k in idx]
        pred = cross_fit(mine, folds, lam)
        real = np.array([call.real for call in mine])

        def corr(p: np.ndarray, y: np.ndarray = real) -> float | None:
            return None if p.std() == 0 or y.std() == 0 else float(np.corrcoef(p, y)[0, 1])

        for name in MODELS:
            for j, k in enumerate(idx):
                acts_of[name][k] = bool(pred[name][j] > 0)
        rows[phase] = {
            "calls": len(mine),
            "search acts": sum(call.chosen for call in mine),
            "correlation": {
                "estimate": corr(np.array([call.estimate for call in mine])),
                **{name: corr(pred[name]) for name in MODELS},
            },
            "gain": _gains(calls, deals, hands, acts_of, _in_phase(phase)),
        }
    return {
        "calls": sum(r["calls"] for r in rows.values()),
        "phases": rows,
        "gain": _gains(calls, deals, hands, acts_of, lambda _k, call: call.phase in rows),
    }


def _gains(
    calls: Sequence[Call],
    deals: Sequence[int],
    hands: int,
    acts_of: dict[str, list[bool]],
    inside: Rule,
) -> dict[str, tuple[float, float, float]]:
    """Each rule's gain over the search's calls (``per_hand``), the rule
    applied to the calls ``inside`` picks and the search's calls kept elsewhere."""
    rules: dict[str, Rule] = {
        "rule bot": lambda _k, call: call.rule,
        "estimate, no margin": lambda _k, call: call.estimate > 0,
        **{name: _acts(acts_of[name]) for name in MODELS},
        "hindsight": lambda _k, call: call.real > 0,
    }
    return {
        name: per_hand(calls, deals, hands, _within(rule, inside)) for name, rule in rules.items()
    }


def _in_phase(phase: str) -> Rule:
    return lambda _k, call: call.phase == phase


def _acts(acts: list[bool]) -> Rule:
    return lambda k, _call: acts[k]


def _within(rule: Rule, inside: Rule) -> Rule:
    def within(k: int, call: Call) -> bool:
        return rule(k, call) if inside(k, call) else call.chosen

    return within


def _ci(t: Sequence[float]) -> str:
    return f"{t[0]:+.4f} [{t[1]:+.4f}, {t[2]:+.4f}]"


def main() -> None:
    """Read the records, fit, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE", help="records (call_outcomes.py)")
    parser.add_argument("--folds", type=int, default=5, help="cross-fitting folds (default 5)")
    parser.add_argument(
        "--ridge", type=float, default=10.0, help="ridge penalty, above 0 (default 10)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.folds < 2:
        parser.error("--folds: at least 2")
    if not args.ridge > 0:
        parser.error("--ridge: a penalty above 0 (the features include a constant)")
    calls: list[Call] = []
    deals: list[int] = []
    variants = set()
    offset = 0
    for path in args.files:
        try:
            with open(path) as f:
                saved = json.load(f)
            variants.add(saved["variant"])
            recs = saved["records"]
            calls += two_way_calls(recs, offset)
        except OSError as e:
            raise SystemExit(f"call_model: cannot read {path}: {e}") from None
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise SystemExit(
                f"call_model: {path}: not records of call_outcomes.py --records ({e})"
            ) from None
        deals += [int(d) + offset for d in recs]
        offset += 1 + max((int(d) for d in recs), default=0)
    if len(variants) != 1:
        raise SystemExit(f"call_model: the files mix variants ({', '.join(sorted(variants))})")
    variant = variants.pop()
    rules = Rules(variant=variant)
    # a deal's hands: its seatings in call_outcomes.py's lineup (the search
    # bot and a rule bot for each other seat in Cutthroat, side in partnership)
    hands = len(seatings(rules, 3 if rules.cutthroat else 2))
    out = {
        "variant": variant,
        "deals": len(deals),
        "folds": args.folds,
        "ridge": args.ridge,
        **summarize(calls, deals, hands, args.folds, args.ridge),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{variant}, {len(deals)} deals, {out['calls']} two-way calls; calls by each rule "
        "over the search's, per hand (95% CI over the deals):"
    )
    for phase, row in [*out["phases"].items(), ("all", out)]:
        if phase != "all":
            c = row["correlation"]
            cs = ", ".join(f"{k} {'-' if v is None else f'{v:.3f}'}" for k, v in c.items())
            print(f"{phase}: {row['calls']} calls, the search acts in {row['search acts']}")
            print(f"  correlation with the real gain: {cs}")
        else:
            print("all two-way calls:")
        for name, g in row["gain"].items():
            print(f"  {name:24} {_ci(g)}")


if __name__ == "__main__":
    main()
