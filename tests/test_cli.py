"""The ``euchre`` command line, run as a real process.

``euchre replay FILE...`` prints results for people, ``--json`` one result
object per record, ``--jsonl`` answers one result line per stdin line and
flushes each one (other tools drive it line by line). Errors exit 1, except
in ``--jsonl`` mode where an error is a result line. Bad command-line values
are usage errors (exit 2) that say what is wanted.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TIMEOUT = 30


def console_script() -> str:
    """The installed ``euchre`` script of the interpreter running the tests."""
    here = Path(sys.executable).parent
    found = shutil.which("euchre", path=str(here)) or shutil.which(
        "euchre", path=str(ROOT / ".venv" / "bin")
    )
    if found is None:  # pragma: no cover - depends on the install
        pytest.skip("the euchre console script is not installed")
    return found


COMMANDS = {
    "script": lambda: [console_script()],
    "module": lambda: [sys.executable, "-m", "euchre"],
}


@pytest.fixture(params=sorted(COMMANDS))
def euchre(request: pytest.FixtureRequest) -> list[str]:
    """The command: the console script, and ``python -m euchre``."""
    return COMMANDS[request.param]()


def run(cmd: Sequence[str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [*cmd, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
        check=False,
    )


# -- records ---------------------------------------------------------------------------

DEAL: dict[str, Any] = {
    "hands": [
        ["9C", "TD", "KS", "QD", "AC"],
        ["AS", "JC", "QC", "KC", "QS"],
        ["JH", "AH", "TC", "9D", "AD"],
    ],
    "dummy": ["JD", "KH", "9H", "TH", "JS"],
    "kitty": ["QH", "9S", "TS", "KD"],
}
PARTNERSHIP_DEAL = {"hands": [*DEAL["hands"], DEAL["dummy"]], "kitty": DEAL["kitty"]}


def hand(actions: list[Any], **changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"variant": "cutthroat", "dealer": 0, "deal": DEAL, "actions": actions}
    rec.update(changes)
    return rec


COMPLETE = json.loads((EXAMPLES / "cutthroat_hand.json").read_text())
COMPLETE_RESULT = {
    "complete": True,
    "thrown_in": False,
    "trump": "H",
    "maker": 2,
    "alone": [],
    "tricks": [1, 0, 4],
    "points": [0, 0, 1],
}
KEEP_CHOICE = hand(["1 pass", "2 order", "0 pickup 9C"])
KEEP_CHOICE_RESULT = {"complete": False, "to_act": 2, "legal": ["alone", "keep"]}
BIDDING = hand(["1 pass"])
BIDDING_RESULT = {"complete": False, "to_act": 2, "legal": ["order", "pass"]}
THROWN_IN = hand(["1 pass", "2 pass", "0 pass"] * 2)
THROWN_IN_RESULT = {
    "complete": True,
    "thrown_in": True,
    "trump": None,
    "maker": None,
    "alone": [],
    "tricks": [0, 0, 0],
    "points": [0, 0, 0],
}
ILLEGAL = hand(["1 pass", "2 order", "0 pickup AS"])
WRONG_SEAT = hand(["2 pass"])
MALFORMED = hand(["1 pass", "2 dance"])
BAD_DEAL = hand([], deal={**DEAL, "kitty": ["QH", "9S", "TS", "AS"]})
BAD_OPTION = hand([], options={"deck": 23})
# partnership: seat 1 orders, dealer 0 picks up, seat 1 goes alone (seat 3 sits
# out), seat 2 leads (left of the lone maker)
PARTNERSHIP = {
    "variant": "partnership",
    "dealer": 0,
    "deal": PARTNERSHIP_DEAL,
    "actions": ["1 order", "0 pickup 9C", "1 alone", "2 pass", "0 pass"],
}
PARTNERSHIP_RESULT = {
    "complete": False,
    "to_act": 2,
    "legal": ["play 9D", "play AD", "play AH", "play JH", "play TC"],
}


def write(tmp: Path, name: str, obj: object) -> str:
    path = tmp / name
    path.write_text(json.dumps(obj, indent=1), encoding="utf-8")
    return str(path)


def check_error(obj: dict[str, Any], index: int, action: str) -> None:
    assert set(obj) == {"error"}
    err = obj["error"]
    assert set(err) == {"index", "action", "reason"}
    assert err["index"] == index and err["action"] == action
    assert isinstance(err["reason"], str) and err["reason"]


# -- replay --json ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "result"),
    [
        (COMPLETE, COMPLETE_RESULT),
        (KEEP_CHOICE, KEEP_CHOICE_RESULT),
        (BIDDING, BIDDING_RESULT),
        (THROWN_IN, THROWN_IN_RESULT),
        (PARTNERSHIP, PARTNERSHIP_RESULT),
    ],
    ids=["complete", "keep-choice", "bidding", "thrown-in", "partnership-alone"],
)
def test_json_results(euchre: list[str], tmp_path: Path, record: Any, result: Any) -> None:
    p = run(euchre, "replay", "--json", write(tmp_path, "r.json", record))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == result


@pytest.mark.parametrize(
    ("record", "index", "action"),
    [
        (ILLEGAL, 3, "0 pickup AS"),
        (WRONG_SEAT, 1, "2 pass"),
        (MALFORMED, 2, "2 dance"),
        (hand(["1 pass", "2 order", "0 pickup 9C", "2 keep"]), 4, "2 keep"),
        (hand(["1 pass", "2 pass", "0 pass"] * 2 + ["1 pass"]), 7, "1 pass"),
        (BAD_DEAL, 0, ""),
        (BAD_OPTION, 0, ""),
        (hand([], deal={**DEAL, "dummy": DEAL["dummy"]}, variant="partnership"), 0, ""),
    ],
    ids=["illegal", "wrong-seat", "malformed", "bare-keep", "after-end", "deal", "option", "dummy"],
)
def test_json_errors(
    euchre: list[str], tmp_path: Path, record: Any, index: int, action: str
) -> None:
    p = run(euchre, "replay", "--json", write(tmp_path, "bad.json", record))
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert len(lines) == 1
    check_error(json.loads(lines[0]), index, action)


def test_json_non_string_action(tmp_path: Path) -> None:
    p = run([console_script()], "replay", "--json", write(tmp_path, "b.json", hand(["1 pass", 7])))
    assert p.returncode == 1
    err = json.loads(p.stdout)["error"]
    assert err["index"] == 2 and err["reason"]


def test_json_many_files_in_order(tmp_path: Path) -> None:
    files = [
        write(tmp_path, "a.json", COMPLETE),
        write(tmp_path, "b.json", KEEP_CHOICE),
        write(tmp_path, "c.json", THROWN_IN),
    ]
    p = run([console_script()], "replay", "--json", *files)
    assert p.returncode == 0, p.stderr
    assert [json.loads(x) for x in p.stdout.splitlines()] == [
        COMPLETE_RESULT,
        KEEP_CHOICE_RESULT,
        THROWN_IN_RESULT,
    ]
    # one bad record among good ones: every record still answered, status 1
    files.insert(1, write(tmp_path, "bad.json", ILLEGAL))
    p = run([console_script()], "replay", "--json", *files)
    assert p.returncode == 1
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 4
    assert out[0] == COMPLETE_RESULT and out[2] == KEEP_CHOICE_RESULT
    check_error(out[1], 3, "0 pickup AS")


def test_json_unreadable_input(tmp_path: Path) -> None:
    bad = tmp_path / "notjson.json"
    bad.write_text("{this is not json", encoding="utf-8")
    missing = tmp_path / "missing.json"
    p = run([console_script()], "replay", "--json", str(bad), str(missing))
    assert p.returncode == 1
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 2
    check_error(out[0], 0, "")
    check_error(out[1], 0, "")


def test_json_match_record() -> None:
    p = run([console_script()], "replay", "--json", str(EXAMPLES / "match.json"))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["scores"] == [5, 10, 2]
    assert out["winners"] == [1]
    assert len(out["hands"]) == 8
    assert all(h["complete"] for h in out["hands"])
    assert sum(h["points"][1] for h in out["hands"]) == 10


def test_stdin_dash(tmp_path: Path) -> None:
    p = run([console_script()], "replay", "--json", "-", stdin=json.dumps(KEEP_CHOICE))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == KEEP_CHOICE_RESULT


# -- replay (for people) ---------------------------------------------------------------


def test_human_output(euchre: list[str], tmp_path: Path) -> None:
    a = write(tmp_path, "done.json", COMPLETE)
    b = write(tmp_path, "open.json", KEEP_CHOICE)
    c = write(tmp_path, "thrown.json", THROWN_IN)
    p = run(euchre, "replay", a, b, c)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(a) and "H" in lines[0] and "seat 2" in lines[0]
    assert "0 0 1" in lines[0]  # points per seat
    assert "1 0 4" in lines[0]  # tricks per seat
    assert lines[1].startswith(b) and "seat 2" in lines[1]
    assert "alone" in lines[1] and "keep" in lines[1]
    assert lines[2].startswith(c) and "thrown in" in lines[2]
    assert not p.stdout.lstrip().startswith("{")


def test_human_output_error(euchre: list[str], tmp_path: Path) -> None:
    p = run(euchre, "replay", write(tmp_path, "bad.json", ILLEGAL))
    assert p.returncode == 1
    assert "3" in p.stdout and "0 pickup AS" in p.stdout and "AS" in p.stdout
    p = run(euchre, "replay", write(tmp_path, "deal.json", BAD_DEAL))
    assert p.returncode == 1 and "AS" in p.stdout


def test_human_output_match() -> None:
    p = run([console_script()], "replay", str(EXAMPLES / "match.json"))
    assert p.returncode == 0, p.stderr
    assert "seat 1" in p.stdout and "5 10 2" in p.stdout
    assert len(p.stdout.splitlines()) >= 9


# -- replay --jsonl: streaming ---------------------------------------------------------


class Streamer:
    """A running ``euchre replay --jsonl`` with a reader thread, so that a
    missing flush shows up as a timeout rather than a hang."""

    def __init__(self, cmd: Sequence[str]) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        self.proc = subprocess.Popen(
            [*cmd, "replay", "--jsonl"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        for line in out:
            self.lines.put(line)
        self.lines.put(None)

    @property
    def stdin(self) -> IO[str]:
        assert self.proc.stdin is not None
        return self.proc.stdin

    def send(self, text: str) -> None:
        self.stdin.write(text)
        self.stdin.flush()

    def receive(self) -> Any:
        try:
            line = self.lines.get(timeout=TIMEOUT)
        except queue.Empty:  # pragma: no cover - only on failure
            self.proc.kill()
            raise AssertionError("no result line: is each line flushed?") from None
        assert line is not None, "the process ended early"
        assert line.endswith("\n")
        return json.loads(line)

    def close(self) -> tuple[int, list[str]]:
        self.stdin.close()
        rest = []
        while (line := self.lines.get(timeout=TIMEOUT)) is not None:
            rest.append(line)
        return self.proc.wait(timeout=TIMEOUT), rest


def test_jsonl_streams_one_line_per_record(euchre: list[str]) -> None:
    s = Streamer(euchre)
    try:
        # one line in, one line out, with stdin still open: each line is flushed
        s.send(json.dumps(KEEP_CHOICE) + "\n")
        assert s.receive() == KEEP_CHOICE_RESULT
        s.send(json.dumps(COMPLETE) + "\n")
        assert s.receive() == COMPLETE_RESULT
        # blank lines are ignored
        s.send("\n   \n\t\n")
        # an error is a result line, not an exit
        s.send(json.dumps(ILLEGAL) + "\n")
        check_error(s.receive(), 3, "0 pickup AS")
        # invalid JSON is an error result line too
        s.send("{not json\n")
        check_error(s.receive(), 0, "")
        s.send(json.dumps(BAD_OPTION) + "\n")
        check_error(s.receive(), 0, "")
        # and the process carries on
        s.send(json.dumps(BIDDING) + "\n" + json.dumps(THROWN_IN) + "\n")
        assert s.receive() == BIDDING_RESULT
        assert s.receive() == THROWN_IN_RESULT
        s.send(json.dumps(PARTNERSHIP) + "\n")
        assert s.receive() == PARTNERSHIP_RESULT
        status, rest = s.close()
    finally:
        if s.proc.poll() is None:  # pragma: no cover - only on failure
            s.proc.kill()
    assert status == 0
    assert rest == []


def test_jsonl_batch_in_order() -> None:
    records = [COMPLETE, ILLEGAL, "", KEEP_CHOICE, WRONG_SEAT, THROWN_IN, BAD_DEAL]
    text = "\n".join("" if r == "" else json.dumps(r) for r in records) + "\n\n"
    p = run([console_script()], "replay", "--jsonl", stdin=text)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 6
    assert out[0] == COMPLETE_RESULT
    check_error(out[1], 3, "0 pickup AS")
    assert out[2] == KEEP_CHOICE_RESULT
    check_error(out[3], 1, "2 pass")
    assert out[4] == THROWN_IN_RESULT
    check_error(out[5], 0, "")


def test_jsonl_empty_input() -> None:
    p = run([console_script()], "replay", "--jsonl", stdin="")
    assert p.returncode == 0 and p.stdout == ""


def test_jsonl_last_line_without_newline() -> None:
    p = run([console_script()], "replay", "--jsonl", stdin=json.dumps(BIDDING))
    assert p.returncode == 0
    assert [json.loads(x) for x in p.stdout.splitlines()] == [BIDDING_RESULT]


# -- usage errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--deck", "23"], ["--deck", "24"]),
        (["play", "--deck", "many"], ["--deck"]),
        (["play", "--target", "0"], ["--target", "positive"]),
        (["play", "--target", "-5"], ["--target"]),
        (["play", "--target", "ten"], ["--target"]),
        (["play", "--variant", "solo"], ["--variant", "partnership"]),
        (["play", "--lone-defender-points", "3"], ["--lone-defender-points", "4"]),
        (["play", "--stick-the-dealer", "maybe"], ["--stick-the-dealer", "on"]),
        (["play", "--dealer-pickup", "never"], ["--dealer-pickup", "mandatory"]),
        (["play", "--bots", "genius"], ["random", "rule"]),
        (["replay"], ["FILE"]),
        (["replay", "--jsonl", "x.json"], ["standard input", "FILE"]),
        (["replay", "--json", "--jsonl"], ["--json"]),
        (["frobnicate"], ["frobnicate"]),
    ],
)
def test_usage_errors(euchre: list[str], args: list[str], words: list[str]) -> None:
    p = subprocess.run(
        [*euchre, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "usage:" in p.stderr
    for w in words:
        assert w.lower() in p.stderr.lower(), p.stderr
    assert p.stdout == ""


def _flag_value(opt: Any) -> tuple[str, Any]:
    """A value other than the default for an option's flag: its text and the option's value."""
    if opt.kind == "bool":
        return ("off" if opt.default else "on"), not opt.default
    if opt.kind == "count":
        return str(opt.default + 5), opt.default + 5
    other = next(c for c in opt.choices if c != opt.default)
    return str(other), other


@pytest.mark.parametrize("command", ["play", "arena"])
def test_every_option_has_its_flag(command: str) -> None:
    """``euchre play`` and ``euchre arena`` have one flag per ``Rules`` option, made
    from its declaration: no flag gives the defaults; each flag sets its option
    (in the variant it applies to), and says its default in the help."""
    from euchre import Rules, cli
    from euchre.rules import OPTIONS

    parser = cli.build_parser()
    base = [command] + (["--bots", "rule,rule,rule"] if command == "arena" else [])
    assert cli.rules_from_args(parser.parse_args(base)) == Rules()
    sub = cli._build()[1][command]
    group = next(g for g in sub._action_groups if (g.title or "").startswith("rules"))
    flags = [a.option_strings for a in group._group_actions]
    assert flags == [[o.flag] for o in OPTIONS]
    for opt, action in zip(OPTIONS, group._group_actions, strict=True):
        assert action.dest == opt.name and action.default == opt.default
        assert f"(default {opt.text(opt.default)})" in (action.help or "")
        text, value = _flag_value(opt)
        variant = ["--variant", opt.variants[0]] if opt.name != "variant" else []
        rules = cli.rules_from_args(parser.parse_args([*base, *variant, opt.flag, text]))
        assert getattr(rules, opt.name) == value
        assert rules == Rules().replace(**{"variant": rules.variant, opt.name: value})


def test_play_defaults_to_the_default_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """``euchre play`` without ``--level`` plays search bots at ``DEFAULT_LEVEL``;
    another opponent bot gets no level."""
    import euchre.tui
    from euchre import cli
    from euchre.bots import DEFAULT_LEVEL

    seen: list[tuple[str, str | None]] = []

    def fake_play_main(rules: Any, **kw: Any) -> int:
        seen.append((kw["bots"], kw["level"]))
        return 0

    monkeypatch.setattr(euchre.tui, "play_main", fake_play_main)
    assert cli.main(["play"]) == 0
    assert cli.main(["play", "--bots", "rule"]) == 0
    assert cli.main(["play", "--level", "easy"]) == 0
    assert seen == [("search", DEFAULT_LEVEL), ("rule", None), ("search", "easy")]


def test_version_and_help() -> None:
    p = run([console_script()], "--version")
    assert p.returncode == 0 and p.stdout.startswith("euchre ")
    p = run([console_script()], "replay", "--help")
    assert p.returncode == 0 and "--jsonl" in p.stdout and "--json" in p.stdout
