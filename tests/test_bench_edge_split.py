"""The edge-split benchmark (bench/edge_split.py): a small run prints one JSON
object with its three rows (the arena's split bots, tested in
tests/test_arena.py); a bad bot name is a clear error."""

from __future__ import annotations

import json

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(120)


def test_a_small_run_prints_its_three_rows() -> None:
    run = run_bench(
        "edge_split.py",
        "--bot",
        "search:easy",
        "--deals",
        "3",
        "--jobs",
        "1",
        "--json",
        timeout=100,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["bot"] == "search:easy" and out["deals"] == 3
    assert out["calls"]["lineup"] == ["split:search:easy/rule", "rule", "rule"]
    assert out["play"]["lineup"] == ["split:rule/search:easy", "rule", "rule"]
    for row in ("calls", "play", "whole"):
        lo, hi = out[row]["ci95"]
        assert lo <= out[row]["difference"] <= hi


@pytest.mark.parametrize("bot", ["nosuch", "split:rule", "search:nosuch"])
def test_a_bad_bot_name_is_a_clear_error(bot: str) -> None:
    run = run_bench("edge_split.py", "--bot", bot, "--deals", "2", timeout=60)
    assert run.returncode != 0
    assert "edge_split:" in run.stderr and "Traceback" not in run.stderr
