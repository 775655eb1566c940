"""The search bot's hot path, compiled: the bridge to ``euchre._csearch``.

The C module (built by the install when a C compiler is present) holds a
port of the hand's state machine (``FastHand``), of the rule bot's policy
(``RuleBot.choose`` / ``play_code``, ``greedy_keep``) and of the search's
inner loops: dealing out the unseen cards of a view (``View.sampler``), the
inference weights (``SearchBot.weight`` and ``rule_keep``), the resampling
(``SearchBot._samples``), the rollouts (``finish_hand`` with the rule bot)
and the solved card play (``SearchBot._move_tricks``, with the solver of
``euchre._csolver``). One call does a whole batch of deals with the GIL
released; the search bot keeps its statistics and its choice in Python
(``bots.search``), the same code on both paths.

The Python code stays the readable reference and the fallback: without the
extension, or with the environment variable ``EUCHRE_PURE=1`` when this
module is imported, ``SearchBot`` runs it. The deterministic parts are held
to it exactly (tests/test_csearch.py); the draws come from the C module's
own generator (xoshiro256**), so the two paths sample different deals from
one seed and make the same decisions only in distribution (the arena
compares their strength: docs/performance.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from ..actions import Action
from ..cards import SUIT_MASK, deck_mask, mask_of
from ..playout import rule_flags
from ..rules import Rules
from ..view import View

__all__ = ["COMPILED", "COMPILED_AVAILABLE", "hand_rules", "known", "model_rules"]


def _load() -> ModuleType | None:
    """The extension module ``euchre._csearch``, or None when it is not built."""
    try:
        from .. import _csearch
    except ImportError:
        return None
    return _csearch


_csearch = _load()

#: Whether the compiled search is built.
COMPILED_AVAILABLE: bool = _csearch is not None
#: Whether search bots use it by default: built, and ``EUCHRE_PURE`` not
#: ``1`` when this module was imported.
COMPILED: bool = COMPILED_AVAILABLE and os.environ.get("EUCHRE_PURE") != "1"


def module() -> ModuleType:
    """``euchre._csearch`` (RuntimeError when it is not built)."""
    if _csearch is None:
        raise RuntimeError("the compiled search (euchre._csearch) is not built")
    return _csearch


def hand_rules(rules: Rules) -> tuple[int, int, int, int]:
    """The rules as the C module takes them: (seats, deck, flags, lone
    defender points), flags as ``playout.rule_flags`` packs them."""
    return (rules.seats, rules.deck, rule_flags(rules), rules.lone_defender_points)


def model_rules(rules: Rules, make_shifts: Sequence[float] = ()) -> tuple[Any, ...]:
    """``hand_rules`` with the model's shift of each seat's making threshold
    (``RuleBot.seat_shifts``; seats past the end 0) as a fifth element,
    when any is not 0."""
    if not any(make_shifts):
        return hand_rules(rules)
    shifts = tuple(float(x) for x in make_shifts[: rules.seats])
    shifts += (0.0,) * (rules.seats - len(shifts))
    return (*hand_rules(rules), shifts)


def known(
    view: View,
    reveal: Mapping[int, int | tuple[int, int]] | None = None,
    make_shifts: Sequence[float] = (),
) -> Any:
    """What ``view``'s seat knows, as a ``_csearch.Search`` (the work of
    ``View.sampler`` that does not depend on the draw is done here, once),
    its model of the others' calls with ``make_shifts`` (``model_rules``).

    ``reveal`` (measurement only: ``bots.peek``) maps other seats to what
    the seat is shown of their current hands, as if it saw it: a card mask
    is a whole hand (every deal drawn gives such a seat exactly those
    cards, and nobody else any of them; they must be unseen by the view
    and fill the seat's hand); a pair ``(held, about)`` of masks shows
    part of one: of the cards of ``about``, the seat holds exactly
    ``held`` (every deal gives it those, no other hand, discard or kitty
    any of them, and it none of the rest of ``about``). ``held`` outside
    ``about`` raises ``ValueError``."""
    rules = view.rules
    n = rules.seats
    history: list[tuple[int, int]] = []
    for s, text in view.history:
        if text == "pickup":
            history.append((s, -1))
        elif text == "keep":
            history.append((s, -2))
        else:
            history.append((s, Action.parse(text).code))
    played = [0] * n
    for tr in view.tricks:
        for s, c in tr.cards:
            played[s] |= 1 << c.id
    for s, c in view.current_trick:
        played[s] |= 1 << c.id
    voids = [0] * n
    if view.trump is not None:
        smask = SUIT_MASK[int(view.trump)]
        for s, suits in view.voids().items():
            for su in suits:
                voids[s] |= smask[int(su)]
    elsewhere = 0  # cards in a seat's hand: no discard, dummy or kitty holds them
    for s, shown in (reveal or {}).items():
        if s == view.seat or not 0 <= s < n:
            raise ValueError(f"reveal: seat {s} is not another seat")
        mask, about = shown if isinstance(shown, tuple) else (shown, deck_mask(rules.deck))
        if mask & ~about:
            raise ValueError(f"reveal: seat {s}'s cards are not all among the cards shown")
        voids[s] |= about & ~mask
        for other in range(n):
            if other not in (s, view.seat):
                voids[other] |= mask
        elsewhere |= mask
    if elsewhere:
        voids.append(elsewhere)
    picked = -1 if view.picked_up is None else int(view.picked_up)
    return module().Search(
        model_rules(rules, make_shifts),
        view.seat,
        view.dealer,
        int(view.phase),
        mask_of(view.hand),
        view.up_card.id,
        picked,
        view.merged,
        -1 if view.maker is None else view.maker,
        4 if view.trump is None else int(view.trump),
        [c.id for c in view.discards],
        mask_of(view.dummy),
        history,
        played,
        voids,
    )
