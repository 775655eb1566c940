"""The compiled solver (``CompiledSolver``, the C extension ``euchre._csolver``)
against the pure-Python one (``PureSolver``), its reference.

Random positions of every variant, deck and option that changes the play
(lone players sitting out, a Cutthroat maker's merged hand), at random points
of the play (between tricks and inside one): both solvers must give the same
``max_tricks``, the same value for every legal card, the same ``can_take``
answers and, as the C code ports the search step by step, the same node
counts. These tests are skipped, with the reason, when the extension is not
built; ``EUCHRE_PURE=1`` is checked in a subprocess.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import FastHand, Phase, Rules
from euchre import solver as solver_module
from euchre.solver import (
    COMPILED,
    COMPILED_AVAILABLE,
    CompiledSolver,
    PureSolver,
    Solver,
    SolverError,
)

PLAY = Phase.PLAY
ROOT = Path(__file__).resolve().parent.parent

needs_compiled = pytest.mark.skipif(
    not COMPILED_AVAILABLE,
    reason="the compiled solver euchre._csolver is not built (no C compiler at install?)",
)

OPTIONS = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(("cutthroat", "partnership")),
        "deck": st.sampled_from((24, 25, 32)),
        "stick_the_dealer": st.booleans(),
        "dummy_decline_is_alone": st.booleans(),
        "dealer_pickup": st.sampled_from(("optional", "mandatory")),
        "may_name_turned_down_suit": st.booleans(),
        "dealer_may_discard_upcard": st.booleans(),
        "defenders_may_go_alone": st.booleans(),
        "lone_lead": st.sampled_from(("left_of_lone", "left_of_dealer")),
    }
)


def position(seed: int, options: dict[str, object], active: int, plays: int) -> FastHand | None:
    """A random deal under ``options``, bid at random (uniform legal actions,
    so some players go alone) until a play with ``active`` players taking
    part (new deals until then; Cutthroat has at most three), then ``plays``
    random cards (modulo the hand's length); None if there is no such deal."""
    rng = random.Random(seed)
    rules = Rules(**options)  # type: ignore[arg-type]
    if active > rules.seats:
        return None
    for _ in range(200):
        h = FastHand.random(rules, rng.randrange(rules.seats), rng)
        while h.phase < PLAY:
            codes = h.legal_codes()
            h.step(codes[rng.randrange(len(codes))])
        if h.phase == PLAY and h.n - h.out.bit_count() == active:
            break
    else:
        return None
    for _ in range(plays % (5 * active)):
        codes = h.legal_codes()
        h.step(codes[rng.randrange(len(codes))])
        if h.phase != PLAY:
            return None
    return h


def answers(s: PureSolver | CompiledSolver) -> tuple[object, ...]:
    """Every query, in a fixed order, with the node count after each."""
    out: list[object] = [s.move_values(), s.nodes, s.max_tricks(), s.nodes]
    for k in range(-1, 8):
        out += [s.can_take(k), s.nodes]
    return tuple(out)


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@needs_compiled
@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    options=OPTIONS,
    active=st.sampled_from((2, 3, 4)),
    plays=st.integers(0, 19),
)
def test_compiled_and_pure_solvers_agree(
    seed: int, options: dict[str, object], active: int, plays: int
) -> None:
    h = position(seed, options, active, plays)
    if h is None:
        return
    assert answers(CompiledSolver(h)) == answers(PureSolver(h))
    # a fresh solver asked max_tricks first (a different path through the table)
    p, c = PureSolver(h), CompiledSolver(h)
    assert (c.max_tricks(), c.nodes, c.move_values()) == (p.max_tricks(), p.nodes, p.move_values())


@needs_compiled
@pytest.mark.parametrize("active", [2, 3, 4])
def test_agreement_at_the_first_lead(active: int) -> None:
    """Whole hands (the benchmark's positions) with two, three and four
    players taking part."""
    rng = random.Random(active)
    found = 0
    while found < 40:
        options = {"variant": rng.choice(("cutthroat", "partnership")), "deck": 24}
        h = position(rng.randrange(2**32), options, active, 0)
        if h is not None:
            found += 1
            assert answers(CompiledSolver(h)) == answers(PureSolver(h))


@needs_compiled
def test_compiled_solver_leaves_the_hand_alone_and_checks_the_phase() -> None:
    h = position(5, {"variant": "partnership"}, 4, 2)
    assert h is not None
    before = (h.hands[:], h.trick[:], h.tricks[:], len(h.trick_log), h.turn, h.leader)
    s = CompiledSolver(h)
    s.max_tricks()
    s.move_values()
    assert (h.hands, h.trick, h.tricks, len(h.trick_log), h.turn, h.leader) == before
    with pytest.raises(SolverError):
        CompiledSolver(FastHand.random(Rules(), 0, random.Random(1)))


@needs_compiled
def test_threads_releasing_the_gil_get_the_same_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solvers in several threads, each search releasing the GIL after its
    first node (the path long searches take), answer as the pure solver does."""
    monkeypatch.setattr(solver_module, "RELEASE_GIL_AFTER_NODES", 1)
    rng = random.Random(3)
    hands = [
        h
        for h in (
            position(rng.randrange(2**32), {"variant": "partnership"}, 4, 0) for _ in range(40)
        )
        if h is not None
    ]
    want = [answers(PureSolver(h)) for h in hands]
    got: dict[int, list[tuple[object, ...]]] = {}

    def work(t: int) -> None:
        got[t] = [answers(CompiledSolver(h)) for h in hands]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[t] for t in range(4)] == [want] * 4


def test_the_switch_picks_the_solver() -> None:
    """``Solver`` is the compiled solver exactly when it is built and
    ``EUCHRE_PURE`` is not 1 (read at import)."""
    wanted = COMPILED_AVAILABLE and os.environ.get("EUCHRE_PURE") != "1"
    assert solver_module.COMPILED is wanted
    assert Solver is (CompiledSolver if COMPILED else PureSolver)


@pytest.mark.parametrize("pure", ["1", "0"])
def test_euchre_pure_in_a_fresh_process(pure: str) -> None:
    env = {**os.environ, "EUCHRE_PURE": pure, "PYTHONPATH": str(ROOT / "src")}
    code = "import euchre.solver as s; print(s.COMPILED, s.COMPILED_AVAILABLE, s.Solver.__name__)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    compiled, available, name = out
    if pure == "1":
        assert (compiled, name) == ("False", "PureSolver")
    else:
        assert compiled == available
        assert name == ("CompiledSolver" if available == "True" else "PureSolver")
