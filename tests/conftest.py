"""Small shared helpers for the rule tests: explicit deals from strings and
applying ``SEAT ACTION`` lines with a turn check; running a ``bench/`` script
as a subprocess or importing it; and the web tests' default fixtures: a real
``euchre serve`` per module and an API client for it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from euchre import Action, Card, Deal, HandState, Rules
from euchre.actions import parse_seat_action
from pgserver import PgServer, throwaway_server
from webserver import Api, ServerProcess, start_server

ROOT = Path(__file__).resolve().parent.parent


def run_bench(
    script: str, *args: str, timeout: float, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """Run ``bench/SCRIPT`` with ``args`` under this Python, its output captured
    as text."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def bench_module(name: str) -> ModuleType:
    """Import ``bench/NAME.py`` as the module ``NAME``, with ``bench/`` on the
    path as when the script runs (its ``_cli`` and the like import)."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def cards(text: str) -> tuple[Card, ...]:
    """``"9C TD KS"`` -> the cards, in the order written."""
    return tuple(Card.parse(t) for t in text.split())


def make_deal(hands: Sequence[str], kitty: str, dummy: str = "") -> Deal:
    """A ``Deal`` from strings: one string of five cards per seat, the kitty
    (its first card is the up-card) and, in Cutthroat, the dummy."""
    return Deal(tuple(cards(h) for h in hands), cards(dummy), cards(kitty))


def new_hand(rules: Rules, dealer: int, deal: Deal) -> HandState:
    """A hand from an explicit deal (checked by ``HandState``)."""
    return HandState(rules, dealer, deal)


def run(state: HandState, *lines: str) -> HandState:
    """Apply record lines ``"SEAT ACTION"`` (a full keep of a maker still to
    choose is the merge and the keep, as records write it); each must be that
    seat's turn."""
    for line in lines:
        seat, action = parse_seat_action(line)
        assert state.to_act == seat, f"{line!r}: it is seat {state.to_act}'s turn"
        state = state.apply_recorded(action, seat)
    return state


def legal(state: HandState) -> set[str]:
    """The legal actions as canonical strings."""
    return {str(a) for a in state.legal_actions()}


def act(text: str) -> Action:
    """Parse one action."""
    return Action.parse(text)


# --- PostgreSQL for the web-table tests (tests/pgserver.py) -------------------------
# One throwaway server for the whole session, started only if a test asks for it.
# PostgreSQL missing is a test failure with a clear message, never a silent skip.


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server on 127.0.0.1 (stopped at session end)."""
    with throwaway_server() as server:
        yield server


@pytest.fixture(scope="session")
def pg_url(pg_server: PgServer) -> str:
    """``postgresql://postgres@127.0.0.1:PORT/postgres`` of the session's server."""
    return pg_server.url


# --- end of the PostgreSQL block -----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``euchre serve`` on a fresh SQLite file, one per test module (a
    module that needs other options defines its own ``server``)."""
    db = tmp_path_factory.mktemp("web") / "euchre.db"
    with start_server(f"sqlite:///{db}") as srv:
        yield srv


@pytest.fixture
def api(server: ServerProcess) -> Iterator[Api]:
    """An HTTP client of the module's server."""
    client = Api(server.url)
    yield client
    client.close()
