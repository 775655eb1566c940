"""The bot arena (``euchre.arena``, ``euchre arena``): duplicate seatings,
seeded and reproducible figures whatever the number of processes (and on a
small local Ray), the statistics, the JSON and PNG outputs, and usage errors.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import euchre
from euchre import HandState, Phase, Rules
from euchre.arena import (
    DealResult,
    SplitBot,
    UnknownBotError,
    aggregate,
    arena_tasks,
    check_lineup,
    cumulative_difference,
    make_arena_bot,
    mean_ci95,
    percentile,
    play_deal,
    run_arena,
    seatings,
    t_quantile,
)
from euchre.arena.schedulers import _package_dir
from euchre.bots import RandomBot, RuleBot, act
from euchre.cli import main

CUT = Rules()
PART = Rules(variant="partnership")
TIMING = ("decision_ms_p50", "decision_ms_p95", "decisions")


def figures(obj: dict[str, Any]) -> dict[str, Any]:
    """A result object without its timing figures (machine-dependent)."""
    out = {k: v for k, v in obj.items() if k != "elapsed_s"}
    out["bots"] = {
        name: {k: v for k, v in b.items() if k not in TIMING} for name, b in obj["bots"].items()
    }
    return out


# -- seatings and the unit of work ----------------------------------------------------


def test_cutthroat_seatings_are_all_six_permutations() -> None:
    seats = seatings(CUT, 3)
    assert len(set(seats)) == 6
    for s in range(3):  # each entry sits in each seat equally often
        assert Counter(p[s] for p in seats) == {0: 2, 1: 2, 2: 2}


@pytest.mark.parametrize("entries", [2, 4])
def test_partnership_seatings_swap_sides(entries: int) -> None:
    first, second = seatings(PART, entries)
    for seat in range(4):
        side = seat % 2
        # the entry at this seat in the first seating plays for the other side next
        assert second.index(first[seat]) % 2 != side
    if entries == 2:
        assert first == (0, 1, 0, 1) and second == (1, 0, 1, 0)


def test_deal_is_the_same_in_every_seating() -> None:
    # identical deterministic bots: every seating of a deal scores the same per seat
    task = arena_tasks(("rule#a", "rule#b", "rule#c"), CUT, 5, seed=3)
    for t in task:
        res = play_deal(t)
        assert len(set(res.points)) == 1, res.points


def test_each_bot_sits_in_each_seat_equally() -> None:
    res = play_deal(arena_tasks(("rule", "random", "random"), CUT, 1, seed=1)[0])
    per_seat = Counter((seat, entry) for p in res.seatings for seat, entry in enumerate(p))
    assert set(per_seat.values()) == {2}
    assert len(per_seat) == 9


def test_tasks_are_seeded_and_dealer_passes_left() -> None:
    a = arena_tasks(("rule", "random"), PART, 8, seed=5)
    b = arena_tasks(("rule", "random"), PART, 8, seed=5)
    c = arena_tasks(("rule", "random"), PART, 8, seed=6)
    assert a == b
    assert [t.seed for t in a] != [t.seed for t in c]
    assert len({t.seed for t in a}) == 8
    assert all((t.dealer - a[0].dealer) % 4 == k % 4 for k, t in enumerate(a))


# -- statistics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "want"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (5, 2.5706), (10, 2.2281), (30, 2.0423)],
)
def test_t_quantile(df: int, want: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(want, abs=6e-4)


def test_mean_ci95_and_percentile() -> None:
    mean, lo, hi = mean_ci95([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 3.1824 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert (lo, hi) == (pytest.approx(2.5 - half, abs=1e-3), pytest.approx(2.5 + half, abs=1e-3))
    with pytest.raises(ValueError):
        mean_ci95([1.0])
    assert percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.5
    assert percentile([1.0, 2.0], 100) == 2.0
    assert percentile([], 95) == 0.0
    assert (percentile([2.0, 1.0], 0), percentile([5.0], 95)) == (1.0, 5.0)
    with pytest.raises(ValueError):
        percentile([1.0, 2.0], 101)
    xs, cum, low, high = cumulative_difference([1.0, 2.0, 0.0], [0.0, 0.0, 0.0])
    assert xs == [1, 2, 3] and cum == [1.0, 3.0, 3.0]
    assert low[0] == high[0] == 1.0 and low[2] < 3.0 < high[2]


def test_aggregate_pools_repeated_names_and_scores_matches() -> None:
    # two deals, search,rule,rule: seat 0's bot takes 10 points, the others 0
    rules = CUT
    seats = seatings(rules, 3)
    points = tuple((10, 0, 0) for _ in seats)
    res = [
        DealResult(k, k, 0, seats, points, {"search": [1.0], "rule": [2.0, 4.0]}) for k in (0, 1)
    ]
    out = aggregate(res, ("search", "rule", "rule"), rules, seed=0)
    by = {b.name: b for b in out.bots}
    # search sits in seat 0 in 2 of the 6 seatings; each rule entry also in 2
    assert by["search"].points_per_hand == pytest.approx(10 / 3)
    assert by["rule"].points_per_hand == pytest.approx(10 / 3)
    assert by["search"].seat_hands == 12 and by["rule"].seat_hands == 24
    # every hand wins a match for seat 0: 6 seatings x 2 deals
    assert out.matches_played == 12
    assert by["search"].matches_won == 4 and by["rule"].matches_won == 8
    assert by["rule"].decision_ms_p50 == 3.0
    (pair,) = out.pairs
    assert (pair.a, pair.b, pair.difference) == ("search", "rule", 0.0)


# -- whole runs --------------------------------------------------------------------------


def test_same_seed_same_numbers_and_seed_matters() -> None:
    a = run_arena(("rule", "random", "random"), CUT, 12, seed=7).to_json()
    b = run_arena(("rule", "random", "random"), CUT, 12, seed=7).to_json()
    c = run_arena(("rule", "random", "random"), CUT, 12, seed=8).to_json()
    assert figures(a) == figures(b)
    assert figures(a)["bots"] != figures(c)["bots"]


def test_jobs_1_and_2_identical() -> None:
    one = run_arena(("rule", "random"), PART, 20, seed=11, jobs=1).to_json()
    two = run_arena(("rule", "random"), PART, 20, seed=11, jobs=2).to_json()
    assert figures(one) == figures(two)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_ray_local_identical() -> None:
    ray = pytest.importorskip("ray")
    local = run_arena(("rule", "random", "random"), CUT, 8, seed=2).to_json()
    on_ray = run_arena(("rule", "random", "random"), CUT, 8, seed=2, jobs=2, ray="local")
    assert figures(on_ray.to_json()) == figures(local)
    assert not ray.is_initialized()  # the Ray started by the arena is shut down


def test_ray_cluster_runs_ship_the_euchre_package() -> None:
    # a cluster run's runtime_env py_modules: the package directory, not the arena's
    assert _package_dir() == os.path.dirname(os.path.abspath(euchre.__file__))


def test_random_against_itself_shows_no_difference() -> None:
    out = run_arena(("random#a", "random#b", "random#c"), CUT, 120, seed=1)
    assert len(out.pairs) == 3
    for p in out.pairs:
        assert p.ci95[0] < 0.0 < p.ci95[1], p
    assert sum(b.matches_won for b in out.bots) == out.matches_played


def test_rule_clearly_beats_random_in_partnership() -> None:
    out = run_arena(("rule", "random"), PART, 30, seed=4)
    (pair,) = out.pairs
    assert (pair.a, pair.b) == ("rule", "random")
    assert pair.ci95[0] > 0.5
    by = {b.name: b for b in out.bots}
    assert by["rule"].ci95[0] > by["random"].ci95[1]
    assert by["rule"].matches_won > by["random"].matches_won
    assert by["rule"].matches_won + by["random"].matches_won == out.matches_played


def test_lineup_checks() -> None:
    assert check_lineup([" rule", "random "], PART) == ("rule", "random")
    with pytest.raises(ValueError, match="cutthroat wants 3"):
        check_lineup(["rule", "random"], CUT)
    with pytest.raises(ValueError, match="partnership wants 2"):
        check_lineup(["rule", "random", "rule"], PART)
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nobot'.*random.*rule"):
        make_arena_bot("nobot", 1)
    assert make_arena_bot("random#2", 1).name == "random"
    assert make_arena_bot("rule:bold#2", 1).name == "rule:bold"
    with pytest.raises(UnknownBotError, match=r"bot 'rule:loud'"):
        make_arena_bot("rule:loud", 1)


def test_a_split_bot_calls_like_one_and_plays_like_the_other() -> None:
    """``split:CALLS/PLAY``: every decision before the card play is the first
    bot's, every card the second's (each half asked as the arena asks it);
    a lineup takes it, a bad half or a label without two halves is refused."""
    for seed in range(6):
        split = make_arena_bot("split:rule/random", seed)
        assert isinstance(split, SplitBot) and split.name == "split:rule/random"
        calls, play = RuleBot(), RandomBot(random.Random(seed))
        state = HandState.deal_random(CUT, seed % 3, random.Random(seed))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            got = act(split, state, seat)
            assert got == act(play if state.phase == Phase.PLAY else calls, state, seat)
            state = state.apply(got)
    lineup = ["split:search:easy/rule#a", "rule", "split:rule/cheat"]
    assert check_lineup(lineup, CUT) == tuple(lineup)
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nobot'"):
        make_arena_bot("split:nobot/rule", 1)
    for label in ("split:rule", "split:/rule", "split:rule/"):
        with pytest.raises(UnknownBotError, match="split:CALLS/PLAY"):
            make_arena_bot(label, 1)


# -- command line --------------------------------------------------------------------------


def test_cli_out_json_schema_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "results.json", tmp_path / "results.png"
    argv = ["arena", "--bots", "rule,random,random", "--deals", "6", "--seed", "3"]
    assert main([*argv, "--out", str(out), "--plot", str(png), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    obj = json.loads(out.read_text())
    assert obj["variant"] == "cutthroat" and obj["deals"] == 6 and obj["seed"] == 3
    assert obj["lineup"] == ["rule", "random", "random"]
    assert obj["seatings_per_deal"] == 6 and obj["hands"] == 36
    assert set(obj["bots"]) == {"rule", "random"}
    for b in obj["bots"].values():
        for key in ("points_per_hand", "decision_ms_p50", "decision_ms_p95"):
            assert isinstance(b[key], float | int)
        assert isinstance(b["matches_won"], int)
        lo, hi = b["ci95"]
        assert lo <= b["points_per_hand"] <= hi
        assert b["decision_ms_p50"] <= b["decision_ms_p95"]
    (pair,) = obj["pairs"]
    assert (pair["a"], pair["b"]) == ("rule", "random")
    lo, hi = pair["ci95"]
    assert lo <= pair["points_per_hand_difference"] <= hi
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the same run in two processes gives the same figures
    out2 = tmp_path / "two.json"
    assert main([*argv, "--jobs", "2", "--out", str(out2), "--quiet"]) == 0
    assert figures(json.loads(out2.read_text())) == figures(obj)


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--bots", "rule,random", "--variant", "partnership", "--deals", "4"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "points/hand" in text and "rule − random" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "rule,nobot,random"], "unknown bot 'nobot'"),
        (["--bots", "rule,random"], "cutthroat wants 3 bots"),
        (["--bots", "rule,random,rule", "--variant", "partnership"], "partnership wants 2"),
        (["--bots", "rule,random,rule", "--deals", "1"], "at least 2 deals"),
        (["--bots", "rule,random,rule", "--deals", "x"], "positive whole number"),
        (["--bots", "rule,random,rule", "--jobs", "0"], "positive whole number"),
        (["--bots", "rule,,rule"], "empty bot name"),
    ],
)
def test_cli_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["arena", *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    if "unknown bot" in message:
        assert "random" in err and "rule" in err  # the known names are listed


def test_core_runs_without_rich_matplotlib_ray(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "for m in ('rich', 'matplotlib', 'ray'): sys.modules[m] = None\n"
        "from euchre.cli import main\n"
        f"sys.exit(main(['arena', '--bots', 'rule,random,random', '--deals', '3', "
        f"'--out', {str(tmp_path / 'r.json')!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "points/hand" in done.stdout  # the plain-text table
    assert json.loads((tmp_path / "r.json").read_text())["deals"] == 3
