"""The paired screen (bench/paired.py): a change that changes nothing gains
exactly nothing; a real change reaches the worker processes (the same
figures with one job and two); another bot (``--bot``) plays the second
run on the same deals; the values of ``--set`` take the field's type; a
bad ``--set`` or ``--bot`` is a clear error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import bench_module, run_bench
from euchre.bots.search import LEVELS

pytestmark = pytest.mark.timeout(180)


paired = bench_module("paired")


def _run(*args: str) -> dict[str, Any]:
    run = run_bench("paired.py", "--level", "easy", "--deals", "4", "--json", *args, timeout=150)
    assert run.returncode == 0, run.stdout + run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def test_a_change_to_the_same_value_gains_exactly_nothing() -> None:
    same = LEVELS["cutthroat"]["easy"].play_samples
    out = _run("--set", f"play_samples={same}", "--jobs", "1")
    assert out["changes"] == {"play_samples": same}
    assert out["lineup"] == ["search:easy", "rule", "rule"]
    assert out["base"]["difference"] == out["changed"]["difference"]
    assert out["gain"] == {"mean": 0.0, "ci95": [0.0, 0.0]} and out["deals_changed"] == 0


def test_a_real_change_reaches_the_workers() -> None:
    # easy deviating from the rule bot's every call whatever its estimate
    # loses points on these deals; two worker processes see the change too
    one = _run("--set", "margin=-5", "--set", "play_samples=2", "--jobs", "1")
    two = _run("--set", "margin=-5", "--set", "play_samples=2", "--jobs", "2")
    assert one["deals_changed"] > 0 and one["gain"]["mean"] < 0
    for key in ("base", "changed"):  # the same figures; the times differ
        assert one[key]["difference"] == two[key]["difference"]
        assert one[key]["ci95"] == two[key]["ci95"]
    assert one["gain"] == two["gain"] and one["deals_changed"] == two["deals_changed"]
    lo, hi = one["gain"]["ci95"]
    assert lo <= one["gain"]["mean"] <= hi


def test_another_bot_plays_the_second_run_on_the_same_deals() -> None:
    # the level itself against the peek bot at that level: the first run is
    # the level as it is, the second the bot named, its gain paired per deal
    out = _run("--variant", "partnership", "--bot", "peek:easy", "--deals", "30", "--jobs", "1")
    assert out["bot"] == "peek:easy" and out["changes"] == {}
    assert out["lineup"] == ["search:easy", "rule"]
    assert out["deals_changed"] > 0
    assert out["base"]["difference"] != out["changed"]["difference"]
    assert round(out["changed"]["difference"] - out["base"]["difference"], 4) == pytest.approx(
        out["gain"]["mean"], abs=1e-3
    )


def test_values_take_the_field_type() -> None:
    hard = LEVELS["partnership"]["hard"]
    assert paired.parse_value("partner_epsilon", "none") is None
    assert paired.parse_value("partner_epsilon", "0.3") == 0.3
    assert paired.parse_value("play_infoset", "on") is True
    assert paired.parse_value("play_best_response", "off") is False
    assert paired.parse_value("play_samples", "60") == 60
    assert paired.parse_value("rollout", "Solve") == "solve"
    more = hard.play_samples + 1
    changed = paired.changed_level("partnership", "hard", {"play_samples": more})
    assert changed.play_samples == more and changed.name == "hard"
    assert LEVELS["partnership"]["hard"] == hard  # the table itself is not changed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "nosuch=1"], "no level field 'nosuch'"),
        (["--set", "name=x"], "no level field 'name'"),
        (["--set", "play_infoset=maybe"], "want on or off"),
        (["--set", "margin=x"], "want float"),
        (["--set", "play_samples=1.5"], "want int"),
        (["--set", "rollout=random"], "want one of rule, solve"),
        (["--set", "margin"], "want FIELD=VALUE"),
        ([], "at least one change"),
        (["--set", "margin=0", "--deals", "1"], "--deals: at least 2"),
        (["--set", "margin=0", "--jobs", "0"], "--jobs: at least 1"),
        (["--set", "margin=0", "--variant", "solo"], "--variant: invalid choice"),
        (["--bot", "nosuch"], "--bot: unknown bot 'nosuch'"),
        (["--bot", "peek:hard"], "peek bots play partnership only"),
        (["--variant", "partnership", "--bot", "rule"], "the rule bot is the opponent"),
    ],
)
def test_a_bad_value_is_a_clear_error(args: list[str], message: str) -> None:
    run = run_bench("paired.py", *args, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
