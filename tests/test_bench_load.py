"""A small run of the load benchmark (bench/load.py): it starts its own server,
plays a few tables over WebSockets and stops by itself, with one JSON object
out, no errors and no acknowledged action lost."""

from __future__ import annotations

import json

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(120)

SMOKE = ("--tables", "5", "--seconds", "3", "--json")


def test_load_smoke_five_tables_sqlite() -> None:
    run = run_bench("load.py", *SMOKE, timeout=100)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout)
    assert result["tables"] == 5
    assert result["errors"] == 0 and result["lost"] == 0, result
    assert result["client_actions_per_s"] > 1 and result["actions_per_s"] > 3
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["entries_checked"] >= 10
    assert "ready" in run.stderr  # the progress line goes to standard error


def test_load_with_search_bots_thinking_in_a_worker() -> None:
    run = run_bench("load.py", *SMOKE, "--bot-level", "easy", "--bot-workers", "1", timeout=100)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout)
    assert result["bot_level"] == "easy" and result["bot_workers"] == 1
    assert result["errors"] == 0 and result["lost"] == 0 and result["fallbacks"] == 0, result
    assert result["actions_per_s"] > 3
    assert result["workers_cpu_share"] > 0  # the search ran in the worker


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--tables", "0"], "--tables"),
        (["--bot-workers", "-1"], "--bot-workers"),
        (["--bot-level", "genius"], "--bot-level"),
    ],
)
def test_load_refuses_bad_arguments(args: list[str], named: str) -> None:
    run = run_bench("load.py", *args, timeout=30)
    assert run.returncode == 2 and named in run.stderr
