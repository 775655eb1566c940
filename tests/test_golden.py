"""Golden playthrough transcripts, in the manner of OpenSpiel's playthroughs.

Each file ``tests/golden/NAME.txt`` is one seeded hand: the rules, the deal,
then every action with the phase, the acting seat's view (a one-line
summary), the legal actions it was offered and the action taken, then the
tricks and the result. The test regenerates every transcript from its seed
and compares it with the file byte for byte, so any change in behaviour —
legal actions, turn order, what a seat sees, scoring — shows up as a diff.

The actions are chosen by a ``random.Random(seed)`` with a per-scenario bias
(how often to order, decline, call, go alone) so that each file shows its
case: the Cutthroat maker merging the dummy, going alone, a lone defender,
both alone, a thrown-in hand, a partnership lone maker and lone defender, a
turned-up joker. The test also checks that each hand does show its case.

Regenerate after an intended change, then review ``git diff tests/golden``::

    .venv/bin/python tests/test_golden.py --regen            # every file
    .venv/bin/python tests/test_golden.py --regen NAME ...   # some files
    EUCHRE_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_golden.py

If a scenario no longer shows its case with its seed, find a new one with
``.venv/bin/python tests/test_golden.py --find NAME[:START]`` and put it in
``SCENARIOS``.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from euchre import Action, Card, HandState, Phase, Rules
from euchre.record import hand_record, read_hand, replay_result
from euchre.view import View

GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN_ENV = "EUCHRE_REGEN_GOLDEN"


@dataclass(frozen=True)
class Bias:
    """Probabilities of the choices that make a hand interesting."""

    order: float = 0.25  #: round one: order rather than pass
    decline: float = 0.3  #: the dealer declines the up-card when allowed
    call: float = 0.5  #: round two: name a suit rather than pass
    maker_alone: float = 0.0  #: the maker (or partner) goes alone
    defender_alone: float = 0.0  #: a defender goes alone


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    rules: Rules
    seed: int
    bias: Bias
    shows: Callable[[HandState], bool]


def _defenders_alone(s: HandState) -> list[int]:
    m = s.maker
    if m is None:
        return []
    if s.rules.cutthroat:
        return [x for x in s.alone if x != m]
    return [x for x in s.alone if (x - m) % 2]


def _makers_alone(s: HandState) -> list[int]:
    return [x for x in s.alone if x not in _defenders_alone(s)]


SCENARIOS = [
    Scenario(
        "cutthroat_merge",
        "Cutthroat: ordered up, the dealer picks up, the maker merges the dummy",
        Rules(),
        seed=100,
        bias=Bias(order=0.5, decline=0.0),
        shows=lambda s: bool(s.picked_up) and s.merged and s.alone == () and s.is_over,
    ),
    Scenario(
        "cutthroat_maker_alone",
        "Cutthroat: trump named in round two, the maker goes alone without the dummy",
        Rules(),
        seed=200,
        bias=Bias(order=0.0, call=0.6, maker_alone=1.0),
        shows=lambda s: s.picked_up is None and _makers_alone(s) == [s.maker] and not s.merged,
    ),
    Scenario(
        "cutthroat_defender_alone",
        "Cutthroat: the maker merges, a defender goes alone, the other sits out",
        Rules(),
        seed=301,
        bias=Bias(order=0.4, defender_alone=0.7),
        shows=lambda s: s.merged and len(_defenders_alone(s)) == 1 and len(s.sitting_out) == 1,
    ),
    Scenario(
        "cutthroat_both_alone",
        "Cutthroat: the dealer declines, the maker and a defender both go alone",
        Rules(),
        seed=400,
        bias=Bias(order=0.5, decline=1.0, maker_alone=1.0, defender_alone=1.0),
        shows=lambda s: s.picked_up is False and len(s.alone) == 2,
    ),
    Scenario(
        "cutthroat_thrown_in",
        "Cutthroat: everyone passes twice, the hand is thrown in",
        Rules(),
        seed=500,
        bias=Bias(order=0.0, call=0.0),
        shows=lambda s: s.result is not None and s.result.thrown_in,
    ),
    Scenario(
        "partnership_lone_maker",
        "Partnership, 32 cards: a lone maker, partner sitting out",
        Rules(variant="partnership", deck=32),
        seed=600,
        bias=Bias(order=0.3, maker_alone=0.8),
        shows=lambda s: len(_makers_alone(s)) == 1 and not _defenders_alone(s),
    ),
    Scenario(
        "partnership_lone_defender",
        "Partnership: a lone defender against both makers",
        Rules(variant="partnership"),
        seed=700,
        bias=Bias(order=0.3, defender_alone=0.8),
        shows=lambda s: len(_defenders_alone(s)) == 1 and not _makers_alone(s),
    ),
    Scenario(
        "joker_upcard",
        "Cutthroat, 25 cards: the joker is turned up and the dealer names a suit",
        Rules(deck=25),
        seed=813,
        bias=Bias(order=0.4),
        shows=lambda s: s.up_card.is_joker and s.history[0][1].kind == "call" and s.is_over,
    ),
]
BY_NAME = {s.name: s for s in SCENARIOS}


# -- choosing the actions --------------------------------------------------------------


def _maker_side(state: HandState, seat: int) -> bool:
    m = state.maker
    assert m is not None
    return seat == m if state.rules.cutthroat else (seat - m) % 2 == 0


def choose(state: HandState, view: View, rng: random.Random, bias: Bias) -> Action:
    """The action for the seat to act: a biased random choice among the
    actions its view offers (for the Cutthroat maker: ``alone`` or the bare
    ``keep``; the five cards are chosen by ``choose_keep``)."""
    legal = list(view.legal)
    phase = state.phase
    if phase == Phase.BID1:
        return Action.order() if rng.random() < bias.order else Action.pass_()
    if phase == Phase.PICKUP:
        if Action.decline() in legal and rng.random() < bias.decline:
            return Action.decline()
        return rng.choice([a for a in legal if a.kind == "pickup"])
    if phase == Phase.BID2:
        calls = [a for a in legal if a.kind == "call"]
        if Action.pass_() in legal and rng.random() >= bias.call:
            return Action.pass_()
        return rng.choice(calls)
    if phase in (Phase.MAKER, Phase.ALONE):
        p = bias.maker_alone if _maker_side(state, view.seat) else bias.defender_alone
        if rng.random() < p:
            return Action.alone()
        return Action.merge() if phase == Phase.MAKER else Action.pass_()
    return rng.choice(legal)


def choose_keep(view: View, rng: random.Random) -> Action:
    return rng.choice(list(view.legal))


# -- writing the transcript ------------------------------------------------------------


def _cards(cs: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cs) or "-"


def _seats(seats: Sequence[int]) -> str:
    return " ".join(str(s) for s in seats) or "-"


def summary(v: View) -> str:
    """A seat's view on one line (the fields of RULES.md §6)."""
    up = f"{v.up_card} {'face up' if v.up_card_face_up else 'face down'}"
    if v.up_suit is not None and v.up_card.is_joker:
        up += f" (as {v.up_suit})"
    trick = " ".join(f"{s}:{c}" for s, c in v.current_trick) or "-"
    last = f"{v.history[-1][0]} {v.history[-1][1]}" if v.history else "-"
    picked = {None: "-", True: "yes", False: "no"}[v.picked_up]
    parts = [
        f"hand {_cards(v.hand)}",
        f"up {up}",
        f"trump {v.trump or '-'}",
        f"maker {'-' if v.maker is None else v.maker}",
        f"picked up {picked}",
        f"merged {'yes' if v.merged else 'no'}",
        f"alone {_seats(v.alone)}",
        f"out {_seats(v.sitting_out)}",
        f"trick {trick}",
        f"won {_seats(v.tricks_won)}",
        f"discards {_cards(v.discards)}",
        f"dummy {_cards(v.dummy)}",
        f"last {last}",
    ]
    return " | ".join(parts)


def _legal(v: View) -> str:
    return " ".join(str(a) for a in v.legal)


def generate(scn: Scenario) -> tuple[str, HandState]:
    """The transcript of a scenario's hand, and the final state."""
    rules = scn.rules
    rng = random.Random(scn.seed)
    state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
    deal = state.deal
    out = [
        f"# Golden playthrough: {scn.name}",
        f"# {scn.title}",
        "# Regenerate: .venv/bin/python tests/test_golden.py --regen (see its docstring)",
        f"variant: {rules.variant}",
        "options: " + " ".join(f"{k}={json.dumps(v)}" for k, v in rules.options().items()),
        f"seed: {scn.seed}",
        f"dealer: {state.dealer}",
        "deal:",
    ]
    for s, h in enumerate(deal.hands):
        out.append(f"  seat {s}: {_cards(h)}")
    if rules.cutthroat:
        out.append(f"  dummy:  {_cards(deal.dummy)}")
    out.append(f"  kitty:  {_cards(deal.kitty)}  (up-card {deal.up_card})")
    n = 0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        n += 1
        view = View.of(state, seat)
        out.append("")
        out.append(f"#{n} {state.phase}: seat {seat} to act")
        out.append(f"  view:   {summary(view)}")
        out.append(f"  legal:  {_legal(view)}")
        action = choose(state, view, rng, scn.bias)
        if action.is_merge:  # phase MAKER, then KEEP: written as one step, as records do
            out.append(f"  choice: {seat} keep (merge the dummy)")
            state = state.apply(action, seat)
            assert state.phase == Phase.KEEP and state.to_act == seat
            kview = View.of(state, seat)
            pool = sorted({c for a in kview.legal for c in a.cards})
            out.append(f"  view:   {summary(kview)}")
            out.append(f"  legal:  {len(kview.legal)} keeps of five from {_cards(pool)}")
            action = choose_keep(kview, rng)
        out.append(f"  action: {seat} {action}")
        state = state.apply(action, seat)
    out.append("")
    out.append("tricks:")
    for i, t in enumerate(state.tricks, 1):
        played = ", ".join(f"{s} {c}" for s, c in t.cards)
        out.append(f"  {i}: {played} -> seat {t.winner}")
    if not state.tricks:
        out.append("  -")
    result = state.result
    assert result is not None
    out.append("result: " + json.dumps(result.to_json()))
    out.append("")
    return "\n".join(out), state


# -- the test --------------------------------------------------------------------------


def regen(names: Sequence[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in names or list(BY_NAME):
        text, _ = generate(BY_NAME[name])
        (GOLDEN / f"{name}.txt").write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {GOLDEN / (name + '.txt')}")


@pytest.mark.parametrize("scn", SCENARIOS, ids=lambda s: s.name)
def test_golden_transcript(scn: Scenario) -> None:
    text, state = generate(scn)
    assert scn.shows(state), f"{scn.name}: seed {scn.seed} no longer shows its case (--find)"
    # the transcript's hand replays from its record to the same result
    replayed = read_hand(json.loads(json.dumps(hand_record(state))))
    assert replay_result(replayed) == replay_result(state)
    assert replayed.history == state.history
    path = GOLDEN / f"{scn.name}.txt"
    if os.environ.get(REGEN_ENV):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"missing {path}: run python tests/test_golden.py --regen"
    expected = path.read_bytes().decode("utf-8")
    assert text == expected, f"{path.name} differs: review, then regenerate (see the docstring)"


def test_every_golden_file_has_a_scenario() -> None:
    files = {p.stem for p in GOLDEN.glob("*.txt")}
    assert files == set(BY_NAME)


def test_generation_is_deterministic() -> None:
    a, _ = generate(SCENARIOS[0])
    b, _ = generate(SCENARIOS[0])
    assert a == b


# -- command line: --regen, --find -----------------------------------------------------


def find(name: str, start: int = 0, tries: int = 5000) -> int:
    """The first seed from ``start`` whose hand shows the scenario's case."""
    scn = BY_NAME[name]
    for seed in range(start, start + tries):
        trial = Scenario(scn.name, scn.title, scn.rules, seed, scn.bias, scn.shows)
        _, state = generate(trial)
        if scn.shows(state):
            return seed
    raise SystemExit(f"no seed in {start}..{start + tries - 1} shows {name}")


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["--regen"]:
        regen(argv[1:])
        return 0
    if argv[:1] == ["--find"] and len(argv) >= 2:
        for arg in argv[1:]:
            name, _, start = arg.partition(":")
            print(name, find(name, int(start or 0)))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
