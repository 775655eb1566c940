"""The ``Rules`` value: every option of RULES.md §4 and every Settled point.

A ``Rules`` is immutable and validated on construction; a bad option raises
``RulesError`` (a ``ValueError``) saying what is wanted. ``Rules()`` gives the
rule book's defaults (Cutthroat, 24 cards, to 10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

__all__ = ["RECORD_OPTIONS", "VARIANTS", "Rules", "RulesError"]

VARIANTS = ("cutthroat", "partnership")

#: The option names a record's ``options`` object may hold (RULES.md §5, plus
#: the Settled points); ``variant`` is a key of its own in records.
RECORD_OPTIONS = (
    "deck",
    "stick_the_dealer",
    "dealer_pickup",
    "may_name_turned_down_suit",
    "lone_defender_points",
    "target",
    "dealer_may_discard_upcard",
    "joker_upcard",
    "defenders_may_go_alone",
    "lone_lead",
    "dummy_decline_is_alone",
    "tie",
)


class RulesError(ValueError):
    """A rule option has a value the rule book does not allow."""


@dataclass(frozen=True, slots=True)
class Rules:
    """All rule options of a game.

    Options from RULES.md §4 (the table):

    - ``variant``: ``"cutthroat"`` (three players and a dummy) or
      ``"partnership"`` (four players, 0 & 2 against 1 & 3).
    - ``deck``: 24, 32, or 25 (24 plus the joker).
    - ``stick_the_dealer``: the dealer may not pass in round two.
    - ``dealer_pickup``: ``"optional"`` (the dealer may ``decline`` when
      someone else ordered it up) or ``"mandatory"``.
    - ``may_name_turned_down_suit``: round two may name the up-card's suit.
    - ``lone_defender_points``: partnership, lone defender taking 3 or 4
      tricks: 2 or 4.
    - ``target``: points to win a match.

    Settled points made options (RULES.md §1–§3):

    - ``dealer_may_discard_upcard`` (default True): the dealer's discard may
      be the up-card just picked up.
    - ``joker_upcard``: ``"dealer_names"`` (default: the dealer names a suit
      that stands for the joker's) or ``"redeal"`` (the hand is thrown in).
    - ``defenders_may_go_alone`` (default True).
    - ``lone_lead``: ``"left_of_lone"`` (default: the first active seat left
      of the lone player; the lone defender when two go alone) or
      ``"left_of_dealer"`` (the first active seat left of the dealer).
    - ``dummy_decline_is_alone`` (default True): a Cutthroat maker who
      declines the dummy is going alone (moves the lead); False keeps the
      lead left of the dealer unless a defender goes alone.
    - ``tie``: ``"play_on"`` (default: when the top scores at the target are
      level, hands continue until one seat alone is highest) or ``"share"``
      (the level leaders share the win).
    """

    variant: Literal["cutthroat", "partnership"] = "cutthroat"
    deck: int = 24
    stick_the_dealer: bool = False
    dealer_pickup: Literal["optional", "mandatory"] = "optional"
    may_name_turned_down_suit: bool = False
    lone_defender_points: int = 2
    target: int = 10
    dealer_may_discard_upcard: bool = True
    joker_upcard: Literal["dealer_names", "redeal"] = "dealer_names"
    defenders_may_go_alone: bool = True
    lone_lead: Literal["left_of_lone", "left_of_dealer"] = "left_of_lone"
    dummy_decline_is_alone: bool = True
    tie: Literal["play_on", "share"] = "play_on"

    def __post_init__(self) -> None:
        _check_choice("variant", self.variant, VARIANTS)
        if type(self.deck) is not int or self.deck not in (24, 32, 25):
            raise RulesError(f"deck must be 24, 32 or 25 (25 has a joker), not {self.deck!r}")
        for name in (
            "stick_the_dealer",
            "may_name_turned_down_suit",
            "dealer_may_discard_upcard",
            "defenders_may_go_alone",
            "dummy_decline_is_alone",
        ):
            value = getattr(self, name)
            if type(value) is not bool:
                raise RulesError(f"{name} must be true or false, not {value!r}")
        _check_choice("dealer_pickup", self.dealer_pickup, ("optional", "mandatory"))
        if type(self.lone_defender_points) is not int or self.lone_defender_points not in (2, 4):
            raise RulesError(
                f"lone_defender_points must be 2 or 4, not {self.lone_defender_points!r}"
            )
        if type(self.target) is not int or self.target < 1:
            raise RulesError(f"target must be a positive whole number, not {self.target!r}")
        _check_choice("joker_upcard", self.joker_upcard, ("dealer_names", "redeal"))
        _check_choice("lone_lead", self.lone_lead, ("left_of_lone", "left_of_dealer"))
        _check_choice("tie", self.tie, ("play_on", "share"))

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
        known = {f.name for f in fields(cls)} - {"variant"}
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


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
