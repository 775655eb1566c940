"""The adapting screen (bench/adapt.py): a session of one hand learns nothing
in time to use it (the gain is exactly zero); longer sessions learn, with the
same figures whatever the number of worker processes; bad values are clear
errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(240)


def _run(*args: str) -> dict[str, Any]:
    run = run_bench("adapt.py", "--json", *args, timeout=200)
    assert run.returncode == 0, run.stdout + run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def test_a_session_of_one_hand_gains_exactly_nothing() -> None:
    """The bot learns when a hand is over: with one hand a session it never
    plays a hand it has learnt anything for."""
    out = _run("--variant", "partnership", "--deals", "4", "--session", "1", "--jobs", "1")
    assert out["opponent"] == "rule:bold" and out["session"] == 1
    assert out["plain"]["difference"] == out["adapting"]["difference"]
    assert out["gain"] == {"mean": 0.0, "ci95": [0.0, 0.0]}
    # 4 sessions x 2 seatings x 2 search seats x 2 opponents
    assert sum(out["shifts_learnt"].values()) == 32


def test_sessions_learn_the_same_with_one_job_or_two() -> None:
    args = ("--variant", "partnership", "--deals", "6", "--session", "3")
    one = _run(*args, "--jobs", "1")
    two = _run(*args, "--jobs", "2")
    for key in ("plain", "adapting"):
        assert one[key]["difference"] == two[key]["difference"]
    assert one["gain"] == two["gain"] and one["shifts_learnt"] == two["shifts_learnt"]
    assert sum(one["shifts_learnt"].values()) == 2 * 2 * 2 * 2
    assert any(float(k) < 0 for k in one["shifts_learnt"])  # bold opponents seen bold


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "medium"], "medium does not adapt"),
        (["--level", "genius"], "--level"),
        (["--session", "0"], "--session: at least 1"),
        (["--deals", "1"], "--deals: at least 2"),
        (["--opponent", "cheat"], "invalid choice"),
    ],
)
def test_a_bad_value_is_a_clear_error(args: list[str], message: str) -> None:
    run = run_bench("adapt.py", *args, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
