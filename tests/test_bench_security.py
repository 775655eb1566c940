"""Small runs of the security commands (docs/security.md, "Running the checks"):
``bench/fuzz.py`` (the replay and protocol fuzzers, every part: replay, in
process, over WebSockets) and ``bench/leak_audit.py`` (the leak audit against
a real server). Each runs as a subprocess, exits 0 and prints its figures."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import run_bench

pytestmark = pytest.mark.timeout(180)


def run(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_bench(script, *args, timeout=150, cwd=cwd)


def test_fuzz_smoke(tmp_path: Path) -> None:
    crash_dir = tmp_path / "crashes"
    answer = run(
        "fuzz.py", "--inputs", "2000", "--json", "--crash-dir", str(crash_dir), cwd=tmp_path
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    result = json.loads(answer.stdout)
    assert result["inputs"] == 2000 and result["crashes"] == 0, result
    assert result["replay"]["inputs"] == 1000
    assert result["protocol"]["inputs"] + result["websocket"]["inputs"] == 1000
    assert result["websocket"]["inputs"] == 100
    for part in ("replay", "protocol", "websocket"):
        assert sum(result[part]["kinds"].values()) == result[part]["inputs"], result[part]
    assert result["protocol"]["answers"]["bad_json"] > 0
    assert "inputs" in answer.stderr  # the progress line
    assert not crash_dir.exists()


def test_fuzz_text_figures(tmp_path: Path) -> None:
    answer = run("fuzz.py", "--inputs", "300", "--ws-share", "0", "--quiet", cwd=tmp_path)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "inputs  300 (asked 300)" in answer.stdout
    assert "crashes 0" in answer.stdout and answer.stderr == ""


def test_leak_audit_smoke(tmp_path: Path) -> None:
    answer = run("leak_audit.py", "--hands", "10", "--tables", "3", "--json", cwd=tmp_path)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    result = json.loads(answer.stdout)
    assert result["hands"] >= 10 and result["leaks"] == 0, result
    assert result["messages"] > 100 and result["bytes"] > 10_000, result
    assert result["server_tracebacks"] == 0
    for key in ("probes", "reconnects", "late_spectators", "downloads", "seconds"):
        assert key in result
    assert "hands" in answer.stderr  # the progress line
