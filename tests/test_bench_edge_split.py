"""The edge-split benchmark (bench/edge_split.py): a split bot calls like one
bot and plays the cards like another, each half asked as the arena asks a bot;
a small run prints one JSON object with its three rows; a bad bot name is a
clear error."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from euchre import HandState, Phase, Rules
from euchre.bots import RandomBot, RuleBot, act

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.timeout(120)


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("edge_split", ROOT / "bench" / "edge_split.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_split_bot_calls_like_one_and_plays_like_the_other() -> None:
    bench = load_bench()
    rules = Rules()
    for seed in range(6):
        split = bench.SplitBot("split:rule/random", RuleBot(), RandomBot(random.Random(seed)))
        calls, play = RuleBot(), RandomBot(random.Random(seed))
        state = HandState.deal_random(rules, seed % 3, random.Random(seed))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            got = act(split, state, seat)
            want = act(play if state.phase == Phase.PLAY else calls, state, seat)
            assert got == want
            state = state.apply(got)


def test_a_small_run_prints_its_three_rows() -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "edge_split.py"),
            "--bot",
            "search:easy",
            "--deals",
            "3",
            "--jobs",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=100,
        cwd=ROOT,
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
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "edge_split.py"), "--bot", bot, "--deals", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert run.returncode != 0
    assert "edge_split:" in run.stderr and "Traceback" not in run.stderr
