"""Hostile record files through ``euchre replay``: never a traceback.

Property-based (hypothesis): valid hand and match records mutated in every
field, random JSON, random bytes, truncated files, deep nesting. Whatever the
file holds, ``euchre replay`` prints one clean line per file (an error message
or a result) and exits 0 (every record replayed) or 1 (some record failed) —
never an exception. A few of the worst files also go through the real console
entry point in a subprocess, which must print no traceback.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre.cli import main as cli_main
from euchre.hand import Deal, HandState
from euchre.match import Match
from euchre.record import hand_record, match_record
from euchre.rules import Rules

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

RULE_SETS = [
    Rules(),
    Rules.from_options("partnership", {}),
    Rules.from_options("cutthroat", {"deck": 25}),
    Rules.from_options("partnership", {"deck": 32, "stick_the_dealer": True}),
    Rules.from_options("cutthroat", {"dealer_pickup": "mandatory", "target": 5}),
]


def random_hand(rules: Rules, seed: int, dealer: int = 0) -> HandState:
    """A hand dealt and played to its end by random legal actions."""
    rng = random.Random(seed)
    state = HandState(rules, dealer, Deal.random(rules, rng))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def random_match(rules: Rules, seed: int, hands: int) -> Match:
    """A match of up to ``hands`` random hands (fewer if it is won first)."""
    rng = random.Random(seed)
    match = Match.new(rules, rng.randrange(rules.seats))
    for _ in range(hands):
        if match.is_over:
            break
        match = match.deal(rng=rng)
        while match.current is not None:
            assert match.current is not None
            match = match.apply(rng.choice(match.current.legal_actions()))
    return match


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["9C", "JK", "0 pass", "1 play AS", "2 keep", "cutthroat", "partnership"]),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.sampled_from(["variant", "options", "dealer", "deal", "actions", "hands", "x"])
            | st.text(max_size=8),
            children,
            max_size=6,
        )
    ),
    max_leaves=25,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys / indexes) inside a JSON value."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A valid hand or match record with a few of its parts replaced, removed or shuffled."""
    rules = draw(st.sampled_from(RULE_SETS))
    seed = draw(st.integers(0, 2**32))
    if draw(st.booleans()):
        record: Any = hand_record(random_hand(rules, seed, seed % rules.seats))
    else:
        record = match_record(random_match(rules, seed, draw(st.integers(1, 3))))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["replace", "delete", "card", "seat", "shuffle", "dup"]))
        if not path:
            record = draw(json_values) if how == "replace" else record
            continue
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        value = parent[key]
        if how == "replace":
            parent[key] = draw(json_values)
        elif how == "delete":
            del parent[key]
        elif how == "card" and isinstance(value, str):
            parent[key] = draw(st.sampled_from(["9C", "JK", "TH", "10s", "1C", "", "9c 9c"]))
        elif how == "seat" and isinstance(value, str) and " " in value:
            seat = draw(st.sampled_from(["-1", "3", "4", "99999999999999999999", "x", "0"]))
            parent[key] = seat + " " + value.partition(" ")[2]
        elif how == "shuffle" and isinstance(value, list):
            draw(st.randoms(use_true_random=False)).shuffle(value)
        elif how == "dup" and isinstance(value, list) and value:
            value.append(value[0])
    return record


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replay-fuzz")


def replay(path: Path, *flags: str) -> tuple[int, str, str]:
    """``euchre replay [flags] path`` in this process: (status, stdout, stderr).

    Any exception escaping ``main`` fails the test (that is the traceback a
    user would see)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli_main(["replay", *flags, str(path)])
    return status, out.getvalue(), err.getvalue()


def check_clean(path: Path, valid: bool | None = None) -> None:
    """Replay ``path`` as text and as JSON: one clean line each, a consistent exit status."""
    status, out, err = replay(path)
    assert status in (0, 1), status
    assert err == "" and "Traceback" not in out
    lines = out.splitlines()
    assert len(lines) >= 1 and lines[0].startswith(f"{path}: "), out
    status_json, out_json, err_json = replay(path, "--json")
    assert status_json == status and err_json == ""
    (line,) = out_json.splitlines()
    result = json.loads(line)
    assert isinstance(result, dict)
    if "error" in result:
        assert status == 1
        error = result["error"]
        assert isinstance(error["reason"], str) and error["reason"]
        assert isinstance(error["index"], int) and error["index"] >= 0
        assert "error at " in lines[0]
    else:
        assert status == 0
        assert "error at " not in out
    if valid is not None:
        assert (status == 0) == valid, out


def write(workdir: Path, data: bytes) -> Path:
    path = workdir / "record.json"
    path.write_bytes(data)
    return path


@SETTINGS
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS))
def test_valid_records_replay(workdir: Path, seed: int, rules: Rules) -> None:
    """The unmutated records replay (the oracle of the mutations below)."""
    path = write(workdir, json.dumps(hand_record(random_hand(rules, seed))).encode())
    check_clean(path, valid=True)
    match = random_match(rules, seed, 2)
    path = write(workdir, json.dumps(match_record(match)).encode())
    check_clean(path, valid=True)


@SETTINGS
@given(record=mutated_records())
def test_mutated_records(workdir: Path, record: Any) -> None:
    check_clean(write(workdir, json.dumps(record).encode()))


@SETTINGS
@given(value=json_values)
def test_random_json(workdir: Path, value: Any) -> None:
    check_clean(write(workdir, json.dumps(value).encode()))


@SETTINGS
@given(data=st.binary(max_size=300))
def test_random_bytes(workdir: Path, data: bytes) -> None:
    check_clean(write(workdir, data))


@SETTINGS
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS), cut=st.floats(0, 1))
def test_truncated_files(workdir: Path, seed: int, rules: Rules, cut: float) -> None:
    text = json.dumps(hand_record(random_hand(rules, seed)), indent=1).encode()
    end = int(len(text) * cut)
    check_clean(write(workdir, text[:end]), valid=False if end < len(text) else None)


NASTY: dict[str, bytes] = {
    "deep-array.json": b"[" * 100_000,
    "deep-object.json": b'{"a":' * 50_000,
    "deep-actions.json": json.dumps({**hand_record(random_hand(Rules(), 7)), "actions": ["DEEP"]})
    .replace('"DEEP"', "[" * 980 + "]" * 980)
    .encode(),
    "not-utf8.json": b"\xff\xfe{\x00",
    "nul.json": b"\x00" * 64,
    "empty.json": b"",
    "nan.json": b'{"dealer": NaN, "options": {"target": Infinity}, "deal": {}}',
    "huge-int.json": b'{"dealer": ' + b"9" * 5000 + b"}",
    "bom.json": b"\xef\xbb\xbf{}",
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_nasty_files(workdir: Path, name: str) -> None:
    path = workdir / name
    path.write_bytes(NASTY[name])
    check_clean(path, valid=False)


def test_console_entry_point_prints_no_traceback(workdir: Path) -> None:
    """The real command (a subprocess): every bad file is one error line, status 1."""
    paths = []
    for name, data in NASTY.items():
        path = workdir / f"cli-{name}"
        path.write_bytes(data)
        paths.append(str(path))
    paths.append(str(workdir / "missing.json"))
    answer = subprocess.run(
        [sys.executable, "-m", "euchre", "replay", *paths],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 1, answer
    assert answer.stderr == "" and "Traceback" not in answer.stdout
    lines = answer.stdout.splitlines()
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines, strict=True):
        assert line.startswith(f"{path}: error at "), line


def test_jsonl_line_not_utf8_under_a_strict_locale() -> None:
    """``replay --jsonl`` reads standard input as UTF-8 bytes: a line that is not
    UTF-8 is one error line, also where the locale's stdin is strict (it was a
    traceback with ``PYTHONIOENCODING=utf-8:strict``, as under en_US.UTF-8)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    answer = subprocess.run(
        [sys.executable, "-m", "euchre", "replay", "--jsonl"],
        input=b'{}\n\xff\xfe{}\n\n{"dealer": 0}\n',
        capture_output=True,
        timeout=60,
        env=env,
    )
    assert answer.returncode == 0 and answer.stderr == b"", answer
    lines = [json.loads(line) for line in answer.stdout.splitlines()]
    assert len(lines) == 3 and all("error" in line for line in lines), lines
    assert "not UTF-8" in lines[1]["error"]["reason"]
