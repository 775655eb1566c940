"""The decision-time bench (bench/decision_time.py): with ``--deadline`` the
Python path answers each decision within its time or after its first batch
(it counts the decisions it cut short) where it takes longer without; a bad
``--deadline`` is a clear error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(300)


def _run(*args: str) -> dict[str, Any]:
    run = run_bench("decision_time.py", "--variant", "partnership", "--json", *args, timeout=280)
    assert run.returncode == 0, run.stdout + run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def test_a_deadline_cuts_the_python_decisions_short() -> None:
    """Eight positions (a bid, a pick-up, an alone, five cards), three of
    them card plays that take seconds in Python at hard: given 0.05 s each,
    some decisions are cut short and they take far less time on the whole
    than without a deadline."""
    cut = _run("--positions", "8", "--deadline", "0.05")
    assert cut["deadline_s"] == 0.05 and cut["decisions"] == 8
    assert cut["cut_short"]["pure"] >= 2
    free = _run("--positions", "8")
    assert free["deadline_s"] is None and free["cut_short"]["pure"] == 0
    assert cut["pure"]["mean_ms"] < free["pure"]["mean_ms"]


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_a_bad_deadline_says_what_is_wanted(value: str) -> None:
    run = run_bench("decision_time.py", "--deadline", value, timeout=60)
    assert run.returncode == 2
    assert "--deadline" in run.stderr
