"""The bots by name: the names offered to players and to the arena, the
search bot's levels and the two default levels, and ``make_bot``."""

from __future__ import annotations

import random
from typing import Final

from .base import Bot
from .cheat import CheatBot
from .peek import PEEK_PARTS, PeekBot
from .random_bot import RandomBot
from .rule import RuleBot
from .search import LEVELS, NAMED_SEARCH_LEVEL, SearchBot

__all__ = [
    "ARENA_BOTS",
    "BOT_NAMES",
    "DEFAULT_LEVEL",
    "NAMED_SEARCH_LEVEL",
    "RULE_STYLES",
    "SEARCH_LEVELS",
    "make_bot",
]

#: The levels of the search bot, weakest first; ``search:LEVEL`` names one.
SEARCH_LEVELS: Final = tuple(LEVELS["cutthroat"])

#: The search bot's level where a player chose none: ``euchre play``'s
#: opponents and its hints, a web table's bot seats and its hints.
DEFAULT_LEVEL: Final = "medium"

#: The bots offered to players (``euchre play --bots``); the name ``search``
#: alone is the search bot at ``NAMED_SEARCH_LEVEL``.
BOT_NAMES: Final = ("random", "rule", "search")

#: The arena's rule bots that call unlike the search bot's model of the
#: others (``rule:STYLE``): the shift of the count at or above which they
#: make trump (``RuleBot.make_shift``, in points of ``rule.strength``).
RULE_STYLES: Final = {"bold": -1.0, "timid": 1.0}

#: Every name ``make_bot`` knows, for measurement (the arena): the player
#: bots, each search level, each search level on the Python path
#: (``search-pure:LEVEL``: the reference the compiled core is measured
#: against), the all-seeing ``cheat`` and ``cheat:br`` (its card play the
#: all-seeing best response to rule-bot opponents) and ``peek:LEVEL`` (the
#: search at LEVEL, shown its partner's hand in the card play; partnership
#: only) with ``peek:LEVEL:PART`` (shown a part of it: ``bots.PEEK_PARTS``).
#: Never offered to players: they look at cards their seat does not see.
#: And ``rule:bold`` and ``rule:timid`` (``RULE_STYLES``), opponents whose
#: calls the search bot's model gets wrong.
ARENA_BOTS: Final = (
    *BOT_NAMES,
    *(f"rule:{style}" for style in RULE_STYLES),
    *(f"search:{lv}" for lv in SEARCH_LEVELS),
    *(f"search-pure:{lv}" for lv in SEARCH_LEVELS),
    *(f"peek:{lv}" for lv in SEARCH_LEVELS),
    *(f"peek:{lv}:{part}" for lv in SEARCH_LEVELS for part in PEEK_PARTS if part != "hand"),
    "cheat",
    "cheat:br",
)


def make_bot(name: str, seed: int | None = None, level: str | None = None) -> Bot:
    """A bot by name with its own seeded generator: ``random``, ``rule``,
    ``search`` (``level`` one of ``SEARCH_LEVELS``, default
    ``NAMED_SEARCH_LEVEL``; or the name ``search:LEVEL``), or ``cheat`` and
    ``cheat:br``, or ``peek:LEVEL`` and ``peek:LEVEL:PART`` (measurement
    only: ``StateBot``s that must be driven with ``act``), or ``rule:bold``
    and ``rule:timid`` (measurement only: ``RULE_STYLES``)."""
    rng = random.Random(seed)
    if name == "cheat:br":
        return CheatBot(rng, best_response=True)
    base, _, suffix = name.partition(":")
    if base == "rule" and suffix:
        if level is not None:
            raise ValueError(f"bot {name!r} has no levels")
        if suffix not in RULE_STYLES:
            raise ValueError(f"unknown bot {name!r} (want one of {', '.join(ARENA_BOTS)})")
        return RuleBot(rng, make_shift=RULE_STYLES[suffix], name=name)
    if suffix and base not in ("search", "search-pure", "peek"):
        raise ValueError(f"unknown bot {name!r} (want one of {', '.join(ARENA_BOTS)})")
    if base == "peek":
        lv, _, part = suffix.partition(":")
        if lv not in SEARCH_LEVELS or part not in ("", *PEEK_PARTS[1:]):
            raise ValueError(f"unknown bot {name!r} (want one of {', '.join(ARENA_BOTS)})")
        return PeekBot(rng, level=lv, part=part or "hand")
    if base == "search-pure":
        if suffix not in SEARCH_LEVELS:
            raise ValueError(f"unknown bot {name!r} (want one of {', '.join(ARENA_BOTS)})")
        return SearchBot(rng, level=suffix, name=name, compiled_core=False)
    if base == "search":
        lv = suffix or level or NAMED_SEARCH_LEVEL
        if lv not in SEARCH_LEVELS:
            raise ValueError(
                f"unknown search level {lv!r} (want one of {', '.join(SEARCH_LEVELS)})"
            )
        return SearchBot(rng, level=lv, name=name if suffix or level is None else f"search:{lv}")
    if level is not None:
        raise ValueError(f"bot {name!r} has no levels")
    if name == "random":
        return RandomBot(rng)
    if name == "rule":
        return RuleBot(rng)
    if name == "cheat":
        return CheatBot(rng)
    raise ValueError(f"unknown bot {name!r} (want one of {', '.join(BOT_NAMES)})")
