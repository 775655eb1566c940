"""The arena's units of work: bots by lineup label, the seeded deal sequence,
the seatings of a deal, and playing one deal in all its seatings (a pure
function of its task, apart from the decision times)."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from ..actions import Action
from ..bots.base import Bot, StateBot, act
from ..bots.registry import ARENA_BOTS, make_bot
from ..hand import Deal, HandState, Phase
from ..rules import Rules

__all__ = [
    "DealResult",
    "DealTask",
    "SplitBot",
    "UnknownBotError",
    "arena_tasks",
    "bot_kind",
    "bot_seed",
    "check_lineup",
    "deal_seed",
    "known_bot_names",
    "make_arena_bot",
    "play_deal",
    "play_deals",
    "seatings",
]


# -- bots by name -------------------------------------------------------------------


class UnknownBotError(ValueError):
    """A bot name the arena cannot make (the message lists the known names)."""


def bot_kind(label: str) -> str:
    """The bot a lineup label makes: ``random#2`` → ``random`` (the part after
    ``#`` only tells entries apart), ``search:hard`` stays as it is."""
    return label.split("#", 1)[0].strip()


def known_bot_names() -> tuple[str, ...]:
    """The bot names the arena knows (``bots.registry.ARENA_BOTS``)."""
    return ARENA_BOTS


class SplitBot:
    """A measuring bot that makes the calls (every decision before the card
    play) like one bot and plays the cards like another: the arena's
    ``split:CALLS/PLAY`` (``bench/edge_split.py`` splits an edge with it).
    Each half is asked as the arena asks a bot (``bots.act``: a view bot
    through the seat's view, the all-seeing ``cheat`` with the state)."""

    def __init__(self, name: str, calls: Bot | StateBot, play: Bot | StateBot) -> None:
        self.name = name
        self.calls = calls
        self.play = play

    def choose_state(self, state: HandState, seat: int, scores: Sequence[int] | None) -> Action:
        """The action of the half for the phase of ``state``."""
        half = self.play if state.phase == Phase.PLAY else self.calls
        return act(half, state, seat, scores)


def make_arena_bot(label: str, seed: int | None = None) -> Bot | StateBot:
    """The bot for a lineup label, with its own seeded generator: ``bots.make_bot``
    on the label's bot name (``random``, ``rule``, ``search``, ``search:LEVEL``,
    ``cheat``), or ``split:CALLS/PLAY`` (a ``SplitBot`` of two such names,
    both with ``seed``). An unknown name raises ``UnknownBotError`` listing
    the known names; a known bot with a bad level raises it in ``make_bot``'s
    words.
    """
    kind = bot_kind(label)
    if kind.startswith("split:"):
        calls, sep, play = kind[len("split:") :].partition("/")
        if not sep or not calls or not play:
            raise UnknownBotError(f"bot {label!r}: a split is split:CALLS/PLAY, two bot names")
        return SplitBot(kind, make_arena_bot(calls, seed), make_arena_bot(play, seed))
    try:
        return make_bot(kind, seed)
    except ValueError as e:
        if ":" in kind and kind.split(":", 1)[0] in ARENA_BOTS:
            raise UnknownBotError(f"bot {label!r}: {e}") from None
        raise UnknownBotError(
            f"unknown bot {label!r} (known: {', '.join(ARENA_BOTS)}; "
            "NAME#TAG labels another entry of bot NAME; split:CALLS/PLAY calls "
            "like one bot and plays like another)"
        ) from None


def check_lineup(labels: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """Validate a lineup for the variant; returns the labels stripped.

    Cutthroat wants 3 entries; partnership 2 (one per side) or 4 (seat by
    seat). Every name must make a bot. Raises ``ValueError`` (``UnknownBotError``
    for a bad name) saying what is wanted.
    """
    lineup = tuple(x.strip() for x in labels)
    if any(not x for x in lineup):
        raise ValueError("empty bot name in the lineup")
    if rules.cutthroat and len(lineup) != 3:
        raise ValueError(f"cutthroat wants 3 bots (one per seat), not {len(lineup)}")
    if not rules.cutthroat and len(lineup) not in (2, 4):
        raise ValueError(
            f"partnership wants 2 bots (one per side) or 4 (one per seat), not {len(lineup)}"
        )
    for label in dict.fromkeys(lineup):
        make_arena_bot(label, 0)
        if rules.cutthroat and "peek:" in bot_kind(label):
            raise ValueError(f"bot {label!r}: peek bots play partnership only (no partner here)")
    return lineup


# -- deals and seatings ---------------------------------------------------------------


def _hash_int(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (0-based) of the sequence of master ``seed``."""
    return _hash_int(f"euchre-arena:{seed}:{index}")


def bot_seed(dseed: int, seating: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in seating ``seating`` of the deal of
    seed ``dseed``: every bot of the arena is made fresh with its own."""
    return _hash_int(f"euchre-arena-bot:{dseed}:{seating}:{seat}")


def seatings(rules: Rules, entries: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of a deal: each maps seat → entry index of the lineup.

    Cutthroat (3 entries): all six permutations. Partnership: with 2 entries,
    ``(0, 1, 0, 1)`` and the sides swapped ``(1, 0, 1, 0)``; with 4 entries,
    ``(0, 1, 2, 3)`` and every entry one seat to the left ``(3, 0, 1, 2)``
    (which also swaps the sides).
    """
    if rules.cutthroat:
        if entries != 3:
            raise ValueError(f"cutthroat wants 3 bots, not {entries}")
        return tuple(permutations(range(3)))
    if entries == 2:
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if entries == 4:
        return ((0, 1, 2, 3), (3, 0, 1, 2))
    raise ValueError(f"partnership wants 2 or 4 bots, not {entries}")


@dataclass(frozen=True, slots=True)
class DealTask:
    """One unit of work: a deal of the sequence, to play in every seating."""

    index: int
    seed: int
    dealer: int
    lineup: tuple[str, ...]
    rules: Rules


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal in all its seatings.

    ``points[k][s]``: the points of seat ``s`` in seating ``k``;
    ``seatings[k][s]``: the lineup entry sitting at ``s``; ``times[label]``:
    the wall time in ms of each decision of that bot label in this deal.
    """

    index: int
    seed: int
    dealer: int
    seatings: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    times: dict[str, list[float]]


def arena_tasks(lineup: Sequence[str], rules: Rules, deals: int, seed: int) -> list[DealTask]:
    """The deal sequence of master ``seed``: ``deals`` tasks, in order. The
    first dealer is drawn from the seed; the deal passes to the left."""
    first = random.Random(_hash_int(f"euchre-arena-dealer:{seed}")).randrange(rules.seats)
    return [
        DealTask(k, deal_seed(seed, k), (first + k) % rules.seats, tuple(lineup), rules)
        for k in range(deals)
    ]


def play_deal(task: DealTask) -> DealResult:
    """Play one deal in all its seatings with fresh, seeded bots; collect each
    seat's points and each decision's wall time. A pure function of the task
    (apart from the times)."""
    rules = task.rules
    deal = Deal.random(rules, random.Random(task.seed))
    seats_of = seatings(rules, len(task.lineup))
    times: dict[str, list[float]] = {label: [] for label in dict.fromkeys(task.lineup)}
    points: list[tuple[int, ...]] = []
    clock = time.perf_counter
    for k, seating in enumerate(seats_of):
        labels = [task.lineup[e] for e in seating]
        bots = [
            make_arena_bot(label, bot_seed(task.seed, k, seat)) for seat, label in enumerate(labels)
        ]
        state = HandState(rules, task.dealer, deal)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            start = clock()
            action = act(bots[seat], state, seat, None)
            times[labels[seat]].append((clock() - start) * 1000.0)
            state = state.apply(action, seat)
        result = state.result
        assert result is not None
        points.append(tuple(result.points))
    return DealResult(task.index, task.seed, task.dealer, seats_of, tuple(points), times)


def play_deals(tasks: Sequence[DealTask]) -> list[DealResult]:
    """``play_deal`` over a batch (the unit shipped to a worker)."""
    return [play_deal(t) for t in tasks]
