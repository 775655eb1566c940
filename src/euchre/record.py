"""JSON hand and match records (RULES.md §5): write, read, replay.

A hand record::

    {"variant": "cutthroat", "options": {...}, "dealer": 0,
     "deal": {"hands": [[...], ...], "dummy": [...], "kitty": [...]},
     "actions": ["1 pass", "2 order", ...]}

The reader is lenient where the rule book allows (absent keys take their
defaults, cards and words in any case, ``10`` for ``T``) and strict
everywhere else: an illegal or malformed action raises ``RecordError`` naming
its 1-based number and the reason; a bad deal or option is number 0. Nothing
is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .actions import ActionError, parse_seat_action
from .cards import Card, CardError
from .hand import Deal, DealError, HandState, IllegalActionError
from .match import Match
from .rules import Rules, RulesError

__all__ = [
    "RecordError",
    "dumps",
    "hand_record",
    "match_record",
    "read_hand",
    "read_match",
    "replay_result",
]


class RecordError(ValueError):
    """A record that cannot be replayed: ``index`` is the 1-based action number
    (0 for the deal or options), ``action`` its text, ``reason`` why; ``hand``
    is the 1-based hand number inside a match record (else None)."""

    def __init__(self, index: int, action: str, reason: str, hand: int | None = None) -> None:
        self.index = index
        self.action = action
        self.reason = reason
        self.hand = hand
        where = f"hand {hand}, " if hand is not None else ""
        what = f"action {index} ({action!r})" if index else "deal/options"
        super().__init__(f"{where}{what}: {reason}")

    def to_json(self) -> dict[str, Any]:
        """The ``{"error": {...}}`` object of ``euchre replay``."""
        err: dict[str, Any] = {"index": self.index, "action": self.action, "reason": self.reason}
        if self.hand is not None:
            err["hand"] = self.hand
        return {"error": err}


# -- writing --------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def hand_record(state: HandState) -> dict[str, Any]:
    """The record of a hand (finished or not)."""
    deal = state.deal
    d: dict[str, Any] = {"hands": [_cards(h) for h in deal.hands]}
    if state.rules.cutthroat:
        d["dummy"] = _cards(deal.dummy)
    d["kitty"] = _cards(deal.kitty)
    return {
        "variant": state.rules.variant,
        "options": state.rules.options(),
        "dealer": state.dealer,
        "deal": d,
        "actions": [f"{s} {a}" for s, a in state.history],
    }


def match_record(match: Match) -> dict[str, Any]:
    """The record of a match: its variant, options and hands in order."""
    hands = list(match.hands) + ([match.current] if match.current is not None else [])
    return {
        "variant": match.rules.variant,
        "options": match.rules.options(),
        "hands": [hand_record(h) for h in hands],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """A record as indented JSON text."""
    return json.dumps(record, indent=1)


# -- reading --------------------------------------------------------------------


def _rules_of(obj: Mapping[str, Any]) -> Rules:
    try:
        return Rules.from_options(obj.get("variant", "cutthroat"), obj.get("options"))
    except (RulesError, TypeError) as e:
        raise RecordError(0, "", f"bad option: {e}") from None


def _card_list(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(0, "", f"{what} must be a list of cards")
    out = []
    for x in value:
        if not isinstance(x, str):
            raise RecordError(0, "", f"{what}: {x!r} is not a card")
        try:
            out.append(Card.parse(x))
        except CardError as e:
            raise RecordError(0, "", f"{what}: {e}") from None
    return tuple(out)


def _deal_of(obj: Mapping[str, Any], rules: Rules) -> Deal:
    deal = obj.get("deal")
    if not isinstance(deal, Mapping):
        raise RecordError(0, "", "the record has no deal object")
    for key in deal:
        if key not in ("hands", "dummy", "kitty"):
            raise RecordError(0, "", f"unknown key {key!r} in the deal")
    hands = deal.get("hands")
    if not isinstance(hands, list):
        raise RecordError(0, "", "deal.hands must be a list of hands")
    if "dummy" in deal and not rules.cutthroat:
        raise RecordError(0, "", "a partnership deal has no dummy")
    d = Deal(
        hands=tuple(_card_list(h, f"deal.hands[{i}]") for i, h in enumerate(hands)),
        dummy=_card_list(deal.get("dummy", []), "deal.dummy") if rules.cutthroat else (),
        kitty=_card_list(deal.get("kitty"), "deal.kitty"),
    )
    try:
        d.check(rules)
    except DealError as e:
        raise RecordError(0, "", f"bad deal: {e}") from None
    return d


_HAND_KEYS = ("variant", "options", "dealer", "deal", "actions")


def read_hand(obj: object, *, rules: Rules | None = None, hand: int | None = None) -> HandState:
    """Replay a hand record into a ``HandState`` (raises ``RecordError``).

    A record that stops before the hand ends is fine: the state is not over.
    ``rules`` and ``hand`` are for hands inside a match record.
    """
    try:
        return _read_hand(obj, rules)
    except RecordError as e:
        if hand is None:
            raise
        raise RecordError(e.index, e.action, e.reason, hand) from None


def _read_hand(obj: object, rules: Rules | None) -> HandState:
    if not isinstance(obj, Mapping):
        raise RecordError(0, "", "a hand record must be a JSON object")
    for key in obj:
        if key not in _HAND_KEYS:
            raise RecordError(
                0, "", f"unknown key {key!r} (a hand record has {', '.join(_HAND_KEYS)})"
            )
    own = _rules_of(obj)
    if rules is not None and own != rules and ("variant" in obj or "options" in obj):
        raise RecordError(0, "", "the hand's variant or options differ from the match's")
    rules = rules or own
    dealer = obj.get("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer < rules.seats:
        raise RecordError(
            0, "", f"dealer must be a seat from 0 to {rules.seats - 1}, not {dealer!r}"
        )
    state = HandState(rules, dealer, _deal_of(obj, rules))
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(0, "", "actions must be a list of strings like '1 pass'")
    for i, text in enumerate(actions, 1):
        shown = text if isinstance(text, str) else json.dumps(text)
        try:
            seat, action = parse_seat_action(text)
        except ActionError as e:
            raise RecordError(i, shown, str(e)) from None
        if action.is_merge:  # records write the merge and the keep as one line
            raise RecordError(i, shown, "keep needs the five cards kept")
        if state.is_over:
            raise RecordError(i, shown, "the hand is already over")
        if seat != state.to_act:
            raise RecordError(i, shown, f"not seat {seat}'s turn: seat {state.to_act} is to act")
        try:
            state = state.apply_recorded(action)
        except IllegalActionError as e:
            raise RecordError(i, shown, str(e)) from None
    return state


def read_match(obj: object) -> Match:
    """Replay a match record (raises ``RecordError`` with the hand number)."""
    if not isinstance(obj, Mapping):
        raise RecordError(0, "", "a match record must be a JSON object")
    for key in obj:
        if key not in ("variant", "options", "hands"):
            raise RecordError(
                0, "", f"unknown key {key!r} (a match record has variant, options, hands)"
            )
    rules = _rules_of(obj)
    hands = obj.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError(0, "", "hands must be a list of hand records")
    match: Match | None = None
    for n, h in enumerate(hands, 1):
        if match is not None:
            if match.is_over:
                raise RecordError(0, "", "the match was already won before this hand", n)
            if match.current is not None:
                raise RecordError(0, "", "the previous hand did not finish", n)
            dealer = h.get("dealer", 0) if isinstance(h, Mapping) else None
            if dealer != match.next_dealer:
                raise RecordError(
                    0,
                    "",
                    f"dealer should be seat {match.next_dealer} (left of the previous dealer)",
                    n,
                )
        state = read_hand(h, rules=rules, hand=n)
        if match is None:
            match = Match.new(rules, state.dealer)
        match = match.with_hand(state)
    if match is None:
        return Match.new(rules, 0)
    return match


def is_match_record(obj: object) -> bool:
    """Whether a JSON object is a match record (it has ``hands`` and no ``deal``)."""
    return isinstance(obj, Mapping) and "hands" in obj and "deal" not in obj


def replay_result(state: HandState) -> dict[str, Any]:
    """The result object of ``euchre replay --json`` for a replayed hand."""
    if state.result is not None:
        return state.result.to_json()
    legal = sorted({"keep" if a.kind == "keep" else str(a) for a in state.legal_actions()})
    return {"complete": False, "to_act": state.to_act, "legal": legal}
