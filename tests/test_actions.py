"""Actions and their text form (RULES.md §5 Notation and records, Actions)."""

from __future__ import annotations

import pytest

from conftest import cards
from euchre import Action, ActionError, Card, CardError, IllegalActionError, Suit
from euchre.actions import format_seat_action, parse_seat_action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("pass", "pass"),
        ("PASS", "pass"),
        ("Order", "order"),
        ("call s", "call S"),
        ("CALL h", "call H"),
        ("pickup 10d", "pickup TD"),
        ("Pickup jk", "pickup JK"),
        ("decline", "decline"),
        ("alone", "alone"),
        ("ALONE", "alone"),
        ("keep JH JD AH KH TC", "keep TC JD JH KH AH"),
        ("keep 10c jd jh kh ah", "keep TC JD JH KH AH"),
        ("play 10h", "play TH"),
        ("Play Jk", "play JK"),
        ("  play   as  ", "play AS"),
    ],
)
def test_parse_and_format(text: str, canonical: str) -> None:
    """RULES.md §5 Notation: actions are read case-insensitively (10 for T) and
    written in canonical form."""
    a = Action.parse(text)
    assert str(a) == canonical
    assert Action.parse(canonical) == a
    assert hash(Action.parse(canonical)) == hash(a)


def test_repr_pastes_back() -> None:
    """RULES.md §5 Notation: an action's repr evaluates back to an equal action."""
    for text in ["pass", "order", "call C", "pickup 9S", "decline", "alone", "play JK"]:
        a = Action.parse(text)
        assert eval(repr(a), {"Action": Action}) == a
    k = Action.parse("keep 9C TC JC QC KC")
    assert eval(repr(k), {"Action": Action}) == k


def test_constructors_and_accessors() -> None:
    """RULES.md §5 Actions: each word with its argument."""
    jh = Card.parse("JH")
    assert Action.pass_() == Action.parse("pass")
    assert Action.order() == Action.parse("order")
    assert Action.decline() == Action.parse("decline")
    assert Action.alone() == Action.parse("alone")
    assert Action.call(Suit.SPADES) == Action.parse("call S")
    assert Action.call(Suit.SPADES).suit is Suit.SPADES
    assert Action.play(jh) == Action.parse("play JH")
    assert Action.play(jh).card is jh and Action.play(jh).kind == "play"
    assert Action.pickup(jh).card is jh and Action.pickup(jh).kind == "pickup"
    k = Action.keep(cards("JH JD AH KH TC"))
    assert k == Action.parse("keep TC JD JH KH AH")
    assert set(k.cards) == set(cards("JH JD AH KH TC"))
    assert k.kind == "keep" and not k.is_merge
    assert Action.parse("pass").card is None and Action.parse("pass").suit is None
    assert Action.parse("keep").is_merge and Action.parse("keep") == Action.merge()


def test_distinct_actions_differ() -> None:
    """RULES.md §5 Actions: different actions are not equal."""
    texts = ["pass", "order", "decline", "alone", "call C", "call D", "play 9C", "pickup 9C"]
    assert len({Action.parse(t) for t in texts}) == len(texts)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "bid",
        "orderup",
        "pass now",
        "order H",
        "call",
        "call X",
        "call H S",
        "pickup",
        "pickup 1H",
        "play",
        "play ZZ",
        "play JH QH",
        "decline 9C",
        "alone please",
        "keep JH JD AH KH",
        "keep JH JD AH KH TC 9C",
        "keep JH JH AH KH TC",
        "keep JH JD AH KH XX",
    ],
)
def test_parse_errors_are_action_errors(text: str) -> None:
    """RULES.md §5 Notation: malformed action text is an ActionError (a ValueError),
    not an IllegalActionError."""
    with pytest.raises(ActionError):
        Action.parse(text)


def test_error_classes() -> None:
    """RULES.md §5: syntax errors (ActionError, CardError) and legality errors
    (IllegalActionError) are distinct ValueErrors."""
    for cls in (ActionError, CardError, IllegalActionError):
        assert issubclass(cls, ValueError)
    assert not issubclass(IllegalActionError, ActionError)
    assert not issubclass(ActionError, IllegalActionError)
    assert not issubclass(CardError, IllegalActionError)
    with pytest.raises(ActionError):
        Action.parse(7)  # type: ignore[arg-type]
    with pytest.raises(ActionError):
        Action.keep(cards("JH JD AH KH"))
    with pytest.raises(ActionError):
        Action.keep(cards("JH JH AH KH TC"))


def test_seat_action_lines() -> None:
    """RULES.md §5 Actions: records write ``SEAT ACTION``."""
    assert parse_seat_action("2 play jh") == (2, Action.parse("play JH"))
    assert parse_seat_action("0 pickup 10C") == (0, Action.parse("pickup TC"))
    assert format_seat_action(1, Action.parse("call s")) == "1 call S"
    for bad in ["pass", "x pass", "-1 pass", "1", "1 fly"]:
        with pytest.raises(ActionError):
            parse_seat_action(bad)


def test_action_is_immutable() -> None:
    """RULES.md §5: actions are values."""
    a = Action.parse("pass")
    with pytest.raises(AttributeError):
        a.code = 1
