"""The learned evaluator of the calls (bench/call_model.py): the features of
a handcrafted view, the value of a rule's calls on handcrafted records, a
small run on records that bench/call_outcomes.py saves, and clear errors for
records without views and for files that are not records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import bench_module, run_bench

pytestmark = pytest.mark.timeout(180)


cm = bench_module("call_model")


def _view(hand: str, up: str, seat: int, dealer: int, history: list[str]) -> dict[str, Any]:
    return {
        "variant": "cutthroat",
        "seat": seat,
        "dealer": dealer,
        "hand": hand.split(),
        "up_card": up,
        "trump": None,
        "history": history,
    }


def test_the_features_read_the_hand_against_the_up_cards_suit() -> None:
    # hearts would be trump: the right and left bowers and the ace are three
    # trumps; the ace of spades is another ace; no diamonds (the left bower
    # is a heart), so one other suit is void
    x = cm.features(_view("JH JD AH AS 9C", "KH", 1, 0, ["2 pass"]), "bid1")
    got = dict(zip(cm.FEATURES, x, strict=False))
    assert got["trumps"] == 3 and got["trumps squared"] == 9
    assert got["right bower"] == got["left bower"] == got["ace of trump"] == 1
    assert got["king of trump"] == got["queen of trump"] == 0
    assert got["other aces"] == 1 and got["other kings"] == 0
    assert got["other suits void"] == 1
    assert got["up-card K"] == 1 and sum(x[11:17]) == 1
    assert got["passes before"] == 1
    # one feature per seat: the seat's place after the dealer
    assert len(x) == len(cm.FEATURES) + 3 and x[len(cm.FEATURES) :] == [0.0, 1.0, 0.0]


def _record(chosen: str, order: tuple[float, float], pass_: tuple[float, float]) -> dict[str, Any]:
    """A round-one call: (estimate, real outcome) of ordering and of passing;
    the rule bot passes."""
    return {
        "phase": "bid1",
        "view": _view("JH JD AH AS 9C", "KH", 1, 0, []),
        "chosen": chosen,
        "candidates": [
            {"action": "order", "value": order[0], "se": 0.1, "prior": False, "real": order[1]},
            {"action": "pass", "value": pass_[0], "se": 0.0, "prior": True, "real": pass_[1]},
        ],
    }


def test_a_rules_calls_are_valued_by_their_real_outcomes() -> None:
    records = {
        # the search ordered (estimated +0.5), and it really gained 2 points
        "0": [_record("order", (0.5, 2.0), (0.0, 0.0))],
        # the search passed (estimated -0.2); ordering would have lost 1 point
        "1": [_record("pass", (-0.2, -1.0), (0.0, 0.0))],
    }
    calls = cm.two_way_calls(records)
    assert [(c.estimate, c.real, c.chosen, c.rule) for c in calls] == [
        (0.5, 2.0, True, False),
        (-0.2, -1.0, False, False),
    ]
    # the rule bot passes on both: it gives up the 2 points of deal 0
    assert cm.per_hand(calls, [0, 1], 1, lambda i, c: c.rule)[0] == pytest.approx(-1.0)
    # always ordering loses the point of deal 1
    assert cm.per_hand(calls, [0, 1], 1, lambda i, c: True)[0] == pytest.approx(-0.5)
    # the search's own calls gain nothing over themselves, and hindsight here
    # is the search's calls
    assert cm.per_hand(calls, [0, 1], 1, lambda i, c: c.chosen) == (0.0, 0.0, 0.0)
    assert cm.per_hand(calls, [0, 1], 1, lambda i, c: c.real > 0)[0] == 0.0
    # a record written before views were recorded is refused
    old = {"0": [{**records["0"][0]}]}
    del old["0"][0]["view"]
    with pytest.raises(ValueError, match="no views"):
        cm.two_way_calls(old)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "records.json"
    run = run_bench(
        "call_outcomes.py",
        "--records",
        str(path),
        "--bot",
        "search:medium",
        "--deals",
        "4",
        "--jobs",
        "1",
        timeout=160,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return path


def test_a_small_run_values_every_model_and_hindsight_is_best(saved: Path) -> None:
    run = run_bench("call_model.py", str(saved), "--folds", "2", "--json", timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["variant"] == "cutthroat" and out["deals"] == 4
    assert out["calls"] > 0 and out["phases"]
    gains = out["gain"]
    assert set(gains) == {"rule bot", "estimate, no margin", *cm.MODELS, "hindsight"}
    for name, (mean, lo, hi) in gains.items():
        assert lo <= mean <= hi, name
        # the best call in hindsight takes at least what any rule takes
        assert gains["hindsight"][0] >= mean - 1e-9, name
    # the plain text names every row
    text = run_bench("call_model.py", str(saved), "--folds", "2", timeout=60)
    assert text.returncode == 0, text.stderr
    assert "all two-way calls" in text.stdout and "hindsight" in text.stdout


def test_records_without_views_or_not_records_are_clear_errors(saved: Path, tmp_path: Path) -> None:
    data = json.loads(saved.read_text())
    for recs in data["records"].values():
        for r in recs:
            r.pop("view", None)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    bad = tmp_path / "bad.json"
    bad.write_text('{"variant": "cutthroat"}')
    for path, why in (
        (old, "no views"),
        (bad, "not records"),
        (tmp_path / "missing.json", "cannot read"),
    ):
        run = run_bench("call_model.py", str(path), timeout=60)
        assert run.returncode != 0
        assert "call_model:" in run.stderr and why in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
    for flag, value in (("--folds", "1"), ("--ridge", "0")):
        run = run_bench("call_model.py", str(saved), flag, value, timeout=60)
        assert run.returncode != 0 and flag in run.stderr, run.stderr
