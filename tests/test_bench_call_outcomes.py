"""The calls benchmark (bench/call_outcomes.py): a small run prints one JSON
object whose recorded estimates make the bot's calls again (the level's own
margin row gains exactly nothing), and its saved records give the same
figures; a bot that is not a search bot, a bad name or a file that is not
records is a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_a_small_run_makes_the_bots_calls_again(variant: str, tmp_path: Path) -> None:
    saved = tmp_path / "records.json"
    run = run_bench(
        "call_outcomes.py",
        "--records",
        str(saved),
        "--bot",
        "search:medium",
        "--variant",
        variant,
        "--deals",
        "3",
        "--jobs",
        "1",
        "--json",
        timeout=160,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["bot"] == "search:medium" and out["deals"] == 3
    assert out["hands"] == 3 * (6 if variant == "cutthroat" else 2)
    assert out["decisions"] > 0
    assert out["reproduced"] == out["decisions"]
    own = [
        r
        for r in out["margins"]
        if (r["margin"], r["se_factor"]) == (out["margin"], out["se_factor"])
    ]
    assert len(own) == 1 and own[0]["gain"] == [0.0, 0.0, 0.0]
    for key in ("over_rule_calls", "hindsight_over_calls"):
        mean, lo, hi = out[key]
        assert lo <= mean <= hi
    # the best candidate in hindsight is never worse than the one chosen
    assert out["hindsight_over_calls"][0] >= 0.0
    # the saved records give the same figures without playing again
    again = run_bench("call_outcomes.py", "--load", str(saved), "--json", timeout=60)
    assert again.returncode == 0, again.stdout + again.stderr
    loaded = json.loads(again.stdout)
    assert loaded["seconds"] is None
    assert {**loaded, "seconds": 0} == {**out, "seconds": 0}
    assert set(out["calibration"]) <= {
        "joker_call",
        "bid1",
        "pickup",
        "bid2",
        "maker",
        "keep",
        "alone",
    }


def test_a_file_that_is_not_records_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"bot": "search:hard"}')
    for path in (str(bad), str(tmp_path / "missing.json")):
        run = run_bench("call_outcomes.py", "--load", path, timeout=60)
        assert run.returncode != 0
        assert "call_outcomes: --load" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("bot", ["rule", "nosuch", "search:nosuch"])
def test_a_bot_that_is_not_a_search_bot_is_a_clear_error(bot: str) -> None:
    run = run_bench("call_outcomes.py", "--bot", bot, "--deals", "2", timeout=60)
    assert run.returncode != 0
    assert "call_outcomes:" in run.stderr and "Traceback" not in run.stderr
