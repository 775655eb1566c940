"""The ``Rules`` value: defaults and validation (RULES.md §4 Options and variants)."""

from __future__ import annotations

from typing import Any

import pytest

from euchre import Rules, RulesError
from euchre.rules import RECORD_OPTIONS


def test_defaults_are_the_rule_book() -> None:
    """RULES.md §4 table and the Settled points: the defaults are the rule book's."""
    r = Rules()
    assert r.variant == "cutthroat"
    assert r.deck == 24
    assert r.stick_the_dealer is False
    assert r.dealer_pickup == "optional"
    assert r.may_name_turned_down_suit is False
    assert r.lone_defender_points == 2
    assert r.target == 10
    # Settled points
    assert r.dealer_may_discard_upcard is True  # §2 round one: the up-card may be discarded
    assert r.joker_upcard == "dealer_names"  # §1 Joker
    assert r.defenders_may_go_alone is True  # §2 Going alone: anyone may
    assert r.lone_lead == "left_of_lone"  # §2 Play
    assert r.dummy_decline_is_alone is True  # §2 The dummy
    assert r.tie == "play_on"  # §2 Winning
    assert r.seats == 3 and r.cutthroat


def test_partnership_defaults() -> None:
    """RULES.md §3: four players, same options otherwise."""
    r = Rules(variant="partnership")
    assert r.seats == 4 and not r.cutthroat
    assert r.options() == Rules().options()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("variant", "threehanded"),
        ("variant", ""),
        ("variant", 3),
        ("deck", 52),
        ("deck", 0),
        ("deck", "24"),
        ("deck", 24.0),
        ("deck", True),
        ("stick_the_dealer", 1),
        ("stick_the_dealer", "yes"),
        ("stick_the_dealer", None),
        ("dealer_pickup", "sometimes"),
        ("dealer_pickup", True),
        ("may_name_turned_down_suit", 0),
        ("lone_defender_points", 3),
        ("lone_defender_points", "4"),
        ("lone_defender_points", 0),
        ("target", 0),
        ("target", -5),
        ("target", 10.5),
        ("target", "10"),
        ("target", True),
        ("dealer_may_discard_upcard", "no"),
        ("joker_upcard", "ignore"),
        ("defenders_may_go_alone", 1),
        ("lone_lead", "left_of_maker"),
        ("dummy_decline_is_alone", None),
        ("tie", "draw"),
    ],
)
def test_bad_option_names_itself(option: str, value: Any) -> None:
    """RULES.md §4: every option is validated; the error names the option."""
    with pytest.raises(RulesError) as info:
        Rules(**{option: value})
    assert option in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("deck", 32),
        ("deck", 25),
        ("stick_the_dealer", True),
        ("dealer_pickup", "mandatory"),
        ("may_name_turned_down_suit", True),
        ("lone_defender_points", 4),
        ("target", 1),
        ("target", 121),
        ("dealer_may_discard_upcard", False),
        ("joker_upcard", "redeal"),
        ("defenders_may_go_alone", False),
        ("lone_lead", "left_of_dealer"),
        ("dummy_decline_is_alone", False),
        ("tie", "share"),
    ],
)
def test_good_option(option: str, value: Any) -> None:
    """RULES.md §4: the seeds' alternatives are accepted."""
    r = Rules(**{option: value})
    assert getattr(r, option) == value
    assert Rules.from_options("cutthroat", {option: value}) == r
    assert Rules().replace(**{option: value}) == r


def test_rules_are_immutable() -> None:
    """RULES.md §4: a Rules value does not change."""
    r = Rules()
    with pytest.raises(AttributeError):
        r.deck = 32  # type: ignore[misc]


def test_record_options_roundtrip() -> None:
    """RULES.md §5 Hand record: absent keys take their defaults; options round-trip."""
    assert Rules.from_options() == Rules()
    assert Rules.from_options("partnership", {}) == Rules(variant="partnership")
    r = Rules(variant="partnership", deck=32, stick_the_dealer=True, lone_defender_points=4)
    assert Rules.from_options(r.variant, r.options()) == r
    assert set(Rules().options()) == set(RECORD_OPTIONS)


def test_record_options_errors() -> None:
    """RULES.md §5 Hand record: unknown keys and bad values are RulesErrors."""
    with pytest.raises(RulesError, match="colour"):
        Rules.from_options("cutthroat", {"colour": "red"})
    with pytest.raises(RulesError, match="options"):
        Rules.from_options("cutthroat", ["deck"])
    with pytest.raises(RulesError, match="variant"):
        Rules.from_options(4, {})
    with pytest.raises(RulesError, match="target"):
        Rules.from_options("partnership", {"target": 0})
    with pytest.raises(RulesError, match="deck"):
        Rules().replace(deck=36)
