"""The ``Rules`` value: every option of RULES.md §4 and every Settled point.

A ``Rules`` is immutable and validated on construction; a bad option raises
``RulesError`` (a ``ValueError``) saying what is wanted. ``Rules()`` gives the
rule book's defaults (Cutthroat, 24 cards, to 10).

Each option is declared once, as a field of ``Rules`` whose metadata is a
``RuleOption`` (its kind and allowed values, a player's help, the variants it
applies to, whether it is a Settled point). ``OPTIONS`` lists them, name and
default filled in; the validation, ``RECORD_OPTIONS``, the command line's rule
flags, the web lobby's option list and the README's options table
(``options_markdown``) are all made from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Final, Literal, TypeVar

__all__ = [
    "OPTIONS",
    "RECORD_OPTIONS",
    "VARIANTS",
    "RuleOption",
    "Rules",
    "RulesError",
    "option",
    "options_markdown",
]

VARIANTS = ("cutthroat", "partnership")

_T = TypeVar("_T")


class RulesError(ValueError):
    """A rule option has a value the rule book does not allow."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    """The declaration of one rule option (the metadata of a ``Rules`` field).

    - ``kind``: ``"choice"`` (one of ``choices``: words, or whole numbers),
      ``"bool"`` (true or false; on or off on the command line) or ``"count"``
      (a positive whole number).
    - ``help``: what it means, in a player's words.
    - ``variants``: the variants it applies to (all but a few apply to both).
    - ``settled``: a Settled point of RULES.md §1–§3 made an option (the
      others are the table of §4).
    - ``note``: said after a numeric choice's values in its error message.
    - ``name``, ``default``: the field's (filled in ``OPTIONS``).
    """

    kind: Literal["choice", "bool", "count"]
    help: str
    choices: tuple[str | int, ...] = ()
    variants: tuple[str, ...] = VARIANTS
    settled: bool = False
    note: str = ""
    name: str = ""
    default: Any = None

    @property
    def flag(self) -> str:
        """The command-line flag: ``--stick-the-dealer`` for ``stick_the_dealer``."""
        return "--" + self.name.replace("_", "-")

    @property
    def numeric(self) -> bool:
        """Whether the choices are whole numbers (``deck``, ``lone_defender_points``)."""
        return self.kind == "choice" and all(type(c) is int for c in self.choices)

    def check(self, value: object) -> None:
        """Raise ``RulesError`` naming the option if ``value`` is not allowed."""
        if self.kind == "bool":
            if type(value) is not bool:
                raise RulesError(f"{self.name} must be true or false, not {value!r}")
        elif self.kind == "count":
            if type(value) is not int or value < 1:
                raise RulesError(f"{self.name} must be a positive whole number, not {value!r}")
        elif self.numeric:
            if type(value) is not int or value not in self.choices:
                values = ", ".join(str(c) for c in self.choices[:-1])
                note = f" ({self.note})" if self.note else ""
                raise RulesError(
                    f"{self.name} must be {values} or {self.choices[-1]}{note}, not {value!r}"
                )
        elif value not in self.choices:
            raise RulesError(
                f"{self.name} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )

    def text(self, value: object) -> str:
        """A value as a player writes it: ``on``/``off`` for a boolean."""
        if self.kind == "bool":
            return "on" if value else "off"
        return str(value)


def _option(default: _T, kind: Literal["choice", "bool", "count"], help: str, **kw: Any) -> _T:
    """A ``Rules`` field with its ``RuleOption`` metadata."""
    return field(default=default, metadata={"option": RuleOption(kind, help, **kw)})


@dataclass(frozen=True, slots=True)
class Rules:
    """All rule options of a game: the options of RULES.md §4 (the table) and
    the Settled points of §1–§3 made options. Each field declares its allowed
    values, help and variants (``OPTIONS``; the README's options table)."""

    variant: Literal["cutthroat", "partnership"] = _option(
        "cutthroat",
        "choice",
        "cutthroat: three players and a dummy; partnership: four, 0 & 2 against 1 & 3",
        choices=VARIANTS,
    )
    deck: int = _option(
        24,
        "choice",
        "the cards: 24 (nines up), 32 (sevens up), or 25 (24 and the joker)",
        choices=(24, 32, 25),
        note="25 has a joker",
    )
    stick_the_dealer: bool = _option(False, "bool", "the dealer may not pass in round two")
    dealer_pickup: Literal["optional", "mandatory"] = _option(
        "optional",
        "choice",
        "optional: the dealer may leave the up-card when someone else ordered it up; "
        "mandatory: the dealer must take it",
        choices=("optional", "mandatory"),
    )
    may_name_turned_down_suit: bool = _option(
        False, "bool", "round two may name the suit of the turned-down up-card"
    )
    lone_defender_points: int = _option(
        2,
        "choice",
        "points of a lone defender who takes 3 or 4 tricks",
        choices=(2, 4),
        variants=("partnership",),
    )
    target: int = _option(10, "count", "points to win the match")
    dealer_may_discard_upcard: bool = _option(
        True, "bool", "the dealer may discard the up-card just picked up", settled=True
    )
    joker_upcard: Literal["dealer_names", "redeal"] = _option(
        "dealer_names",
        "choice",
        "a joker turned up (25 cards): dealer_names: the dealer names a suit for it; "
        "redeal: the hand is thrown in",
        choices=("dealer_names", "redeal"),
        settled=True,
    )
    defenders_may_go_alone: bool = _option(
        True, "bool", "defenders may go alone, not only the maker"
    )
    lone_lead: Literal["left_of_lone", "left_of_dealer"] = _option(
        "left_of_lone",
        "choice",
        "who leads when someone goes alone: left_of_lone: the first player left of the "
        "lone player (when two go alone, the lone defender leads); left_of_dealer: the "
        "first player left of the dealer",
        choices=("left_of_lone", "left_of_dealer"),
        settled=True,
    )
    dummy_decline_is_alone: bool = _option(
        True,
        "bool",
        "a maker who declines the dummy is going alone and the lead moves; off: the lead "
        "stays left of the dealer unless a defender goes alone",
        variants=("cutthroat",),
        settled=True,
    )
    tie: Literal["play_on", "share"] = _option(
        "play_on",
        "choice",
        "when the leaders are level at or over the target (only Cutthroat can tie): "
        "play_on: hands go on until one player alone is highest; share: the level "
        "leaders share the win",
        choices=("play_on", "share"),
        settled=True,
    )

    def __post_init__(self) -> None:
        for opt in OPTIONS:
            opt.check(getattr(self, opt.name))

    @property
    def seats(self) -> int:
        """Number of players: 3 in Cutthroat, 4 in partnership."""
        return 3 if self.variant == "cutthroat" else 4

    @property
    def cutthroat(self) -> bool:
        """Whether this is the three-handed game with a dummy."""
        return self.variant == "cutthroat"

    def options(self) -> dict[str, Any]:
        """The options as a record's ``options`` object (without ``variant``)."""
        d = asdict(self)
        del d["variant"]
        return d

    @classmethod
    def from_options(cls, variant: object = "cutthroat", options: object = None) -> Rules:
        """Build from a record's ``variant`` and ``options`` (absent keys take
        their defaults; an unknown key is an error); ``options`` is its inverse:

        >>> rules = Rules.from_options("partnership", {"deck": 25})
        >>> Rules.from_options(rules.variant, rules.options()) == rules
        True
        """
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RulesError("options must be a JSON object")
        known = set(RECORD_OPTIONS)
        for key in options:
            if key not in known:
                raise RulesError(f"unknown option {key!r} (known: {', '.join(sorted(known))})")
        if not isinstance(variant, str):
            raise RulesError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        return cls(variant=variant, **options)  # type: ignore[arg-type]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        d = asdict(self)
        d.update(changes)
        return Rules(**d)

    def describe(self) -> str:
        """A one-line human summary of the non-default options.

        >>> Rules(variant="partnership", deck=25).describe()
        'partnership (deck=25)'
        """
        default = Rules(variant=self.variant)
        diffs = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name != "variant" and getattr(self, f.name) != getattr(default, f.name)
        ]
        return self.variant + (" (" + ", ".join(diffs) + ")" if diffs else "")


#: Every option, ``variant`` first, in field order, with its name and default.
OPTIONS: Final[tuple[RuleOption, ...]] = tuple(
    replace(f.metadata["option"], name=f.name, default=f.default) for f in fields(Rules)
)

#: The option names a record's ``options`` object may hold (RULES.md §5, plus
#: the Settled points); ``variant`` is a key of its own in records.
RECORD_OPTIONS: Final[tuple[str, ...]] = tuple(o.name for o in OPTIONS if o.name != "variant")

_BY_NAME: Final = {o.name: o for o in OPTIONS}


def option(name: str) -> RuleOption:
    """The declaration of the option ``name`` (a ``KeyError`` if there is none)."""
    return _BY_NAME[name]


def options_markdown() -> str:
    """The README's options table (Markdown), one row per option."""
    rows = [
        "| option (`Rules` field / record key) | flag | default | other values | what it means |",
        "|---|---|---|---|---|",
    ]
    for o in OPTIONS:
        scope = ["Settled"] if o.settled else []
        if o.variants != VARIANTS:
            scope += [{"cutthroat": "Cutthroat"}.get(v, v) for v in o.variants]
        label = f"`{o.name}`" + (f" ({', '.join(scope)})" if scope else "")
        if o.kind == "bool":
            flag = f"`{o.flag} {o.text(not o.default)}`"
            default = o.text(o.default)
            others = o.text(not o.default)
        else:
            flag = f"`{o.flag}`"
            default = f"`{o.default}`"
            if o.kind == "count":
                others = "any positive whole number"
            else:
                others = ", ".join(f"`{c}`" for c in o.choices if c != o.default)
        rows.append(f"| {label} | {flag} | {default} | {others} | {o.help} |")
    return "\n".join(rows) + "\n"
