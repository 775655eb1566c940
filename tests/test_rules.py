"""The ``Rules`` value: defaults and validation (RULES.md §4 Options and variants)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from euchre import Rules, RulesError
from euchre.rules import OPTIONS, RECORD_OPTIONS, VARIANTS, RuleOption, option, options_markdown

README = Path(__file__).resolve().parent.parent / "README.md"


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


# -- the options' declarations (field metadata) ------------------------------------------


def test_every_field_is_declared() -> None:
    """Each ``Rules`` field carries its ``RuleOption``; ``OPTIONS`` lists them in
    field order with the field's name and default; ``RECORD_OPTIONS`` is all but
    ``variant``."""
    assert [o.name for o in OPTIONS] == [f.name for f in fields(Rules)]
    for f, o in zip(fields(Rules), OPTIONS, strict=True):
        assert isinstance(f.metadata["option"], RuleOption)
        assert o.default == f.default == getattr(Rules(), f.name)
        assert o.help and o.variants and set(o.variants) <= set(VARIANTS)
        assert option(f.name) is o
        if o.kind == "choice":
            assert o.default in o.choices and len(set(o.choices)) == len(o.choices) >= 2
        else:
            assert o.choices == ()
        hint = get_type_hints(Rules)[f.name]
        if get_origin(hint) is Literal:  # the type names the same values
            assert get_args(hint) == o.choices
        else:
            assert hint is (bool if o.kind == "bool" else int)
    assert tuple(f.name for f in fields(Rules) if f.name != "variant") == RECORD_OPTIONS
    assert option("lone_defender_points").variants == ("partnership",)
    assert option("dummy_decline_is_alone").variants == ("cutthroat",)
    with pytest.raises(KeyError):
        option("colour")


def _other_values(o: RuleOption) -> list[Any]:
    """The allowed values of an option other than its default."""
    if o.kind == "bool":
        return [not o.default]
    if o.kind == "count":
        return [1, o.default + 1, 121]
    return [c for c in o.choices if c != o.default]


def _bad_values(o: RuleOption) -> list[Any]:
    """Values an option's declaration does not allow."""
    common = [None, 2.5, [o.default]]
    if o.kind == "bool":
        return [*common, 0, 1, "on", str(o.default).lower()]
    if o.kind == "count":
        return [*common, 0, -1, True, "10", float(o.default)]
    if o.numeric:
        return [*common, True, 0, max(o.choices) + 1, str(o.choices[0]), float(o.choices[0])]
    return [*common, "", o.choices[0].upper(), o.choices[0] + "x", 1]


@pytest.mark.parametrize("opt", OPTIONS, ids=lambda o: o.name)
def test_declaration_drives_validation(opt: RuleOption) -> None:
    """Every value the declaration allows is accepted (built, from a record,
    replaced); every other value raises a ``RulesError`` naming the option."""
    for value in _other_values(opt):
        r = Rules(**{opt.name: value})
        assert getattr(r, opt.name) == value
        if opt.name != "variant":
            assert Rules.from_options("cutthroat", {opt.name: value}) == r
        assert Rules().replace(**{opt.name: value}) == r
    for value in _bad_values(opt):
        with pytest.raises(RulesError) as info:
            Rules(**{opt.name: value})
        assert str(info.value).startswith(f"{opt.name} must be "), info.value
        with pytest.raises(RulesError):
            opt.check(value)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("variant", "solo", "variant must be one of cutthroat, partnership, not 'solo'"),
        ("deck", 52, "deck must be 24, 32 or 25 (25 has a joker), not 52"),
        ("stick_the_dealer", 1, "stick_the_dealer must be true or false, not 1"),
        ("dealer_pickup", "never", "dealer_pickup must be one of optional, mandatory, not 'never'"),
        ("lone_defender_points", 3, "lone_defender_points must be 2 or 4, not 3"),
        ("target", 0, "target must be a positive whole number, not 0"),
        ("tie", "draw", "tie must be one of play_on, share, not 'draw'"),
    ],
)
def test_error_messages(option: str, value: Any, message: str) -> None:
    """The messages say what is wanted, in the same words for every option of a kind."""
    with pytest.raises(RulesError) as info:
        Rules(**{option: value})
    assert str(info.value) == message


def test_readme_options_table_is_generated() -> None:
    """README.md's options table is ``options_markdown()`` (to update it, paste
    the output of ``python -c 'from euchre.rules import options_markdown as m;
    print(m())'`` between the markers)."""
    text = README.read_text(encoding="utf-8")
    m = re.search(
        r"<!-- options table: [^\n]*-->\n(.*?)<!-- end of the options table -->", text, re.S
    )
    assert m, "README.md must mark its options table"
    assert m.group(1).strip() == options_markdown().strip()


def test_options_markdown_rows() -> None:
    """One row per option: its field, flag (with the value to give when the
    default is a boolean's), default, other values, help; scope in brackets."""
    lines = options_markdown().splitlines()
    assert len(lines) == 2 + len(OPTIONS)
    for line, o in zip(lines[2:], OPTIONS, strict=True):
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        assert cells[0].startswith(f"`{o.name}`") and o.flag in cells[1]
        assert cells[-1] == o.help
    row = dict(zip(RECORD_OPTIONS, lines[3:], strict=True))
    assert "(partnership)" in row["lone_defender_points"]
    assert "(Settled, Cutthroat)" in row["dummy_decline_is_alone"]
    assert "`--stick-the-dealer on` | off | on |" in row["stick_the_dealer"]
    assert "`--deck` | `24` | `32`, `25` |" in row["deck"]
