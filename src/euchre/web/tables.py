"""The game of one web table, rebuilt from what the store holds.

A table is its ``meta`` (rules, seats, token hashes, status, the table seed)
and its entries (``{"hand", "seat", "action"}``, numbered ``seq = 0, 1, ...``).
:class:`Game` replays them: every deal is ``Deal.random`` with a generator
seeded from the table seed and the hand's number, and every bot decision is
made by a bot seeded from the table seed, the hand and the ``seq``, so a table
replays — and its bots play on — exactly the same after a restart or in
another process.

The Cutthroat maker's bare ``keep`` (merge without seeing the dummy) is an
entry of its own, as it is a step of the engine (phase ``KEEP`` follows). A
full ``keep C1..C5`` entry for a maker still to choose (tables stored before
the merge was a step of its own) is read as records read it: both steps.

Nothing here does I/O; :mod:`euchre.web.app` drives it.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import os
import random
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ..actions import Action, ActionError
from ..bots import DEFAULT_LEVEL, SEARCH_LEVELS, Bot, SearchBot, decide, make_bot
from ..bots.search import LEVELS
from ..bots.style import CallStyles
from ..hand import Deal, HandState, IllegalActionError, Phase
from ..match import Match
from ..record import hand_record, match_record
from ..rules import Rules
from ..view import View, public_json

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_LEVEL",
    "META_VERSION",
    "TEST_BOT_LEVELS",
    "BotJob",
    "Game",
    "TableError",
    "bot_name",
    "derive_seed",
    "expired_error",
    "hash_token",
    "new_meta",
    "new_token",
    "run_bot_job",
]

#: The levels a bot seat may have: the search bot's, and ``rule`` (the rule bot:
#: quick and cheap, for casual play and for load).
BOT_LEVELS: Final = (*SEARCH_LEVELS, "rule")
#: TEST ONLY: with ``EUCHRE_TEST_BOTS=1`` in the server's environment a seat may
#: also be ``test-raise`` (its bot raises), ``test-slow`` (its bot thinks for
#: ever) or ``test-think`` (it thinks :data:`TEST_THINK_SECONDS` on every
#: decision that is not forced, within its deadline, as a search bot does, and
#: plays the first legal action); the fault and pacing tests use them. Never
#: offered to players.
TEST_BOT_LEVELS: Final = ("test-raise", "test-slow", "test-think")
#: How long a ``test-slow`` bot thinks at most (seconds; it stops early when the
#: server stops, see :data:`STOP_TEST_BOTS`).
TEST_SLOW_SECONDS: Final = 30.0
#: How long a ``test-think`` bot thinks on a decision that is not forced
#: (seconds; less if its deadline comes first).
TEST_THINK_SECONDS: Final = 1.0
#: Set when the server stops: a ``test-slow`` bot still thinking gives up.
STOP_TEST_BOTS: Final = threading.Event()
#: The layout version of a table's meta.
META_VERSION: Final = 1
#: The longest seat or table name.
MAX_NAME: Final = 40


class TableError(Exception):
    """A refused request: ``code`` (protocol error code), ``message``, HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        """Keep the code, message and HTTP status."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def expired_error() -> TableError:
    """The answer about a table that expired (nobody started it in time): 410 ``expired``."""
    return TableError(
        "expired", "the table expired: nobody started it in time; create a new one", 410
    )


def hash_token(token: str) -> str:
    """The sha256 (hex) of a seat token: all the store keeps of it.

    Any string hashes (a lone surrogate a client sent too): it just matches no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh secret seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed derived from the table seed and ``parts`` (stable across runs)."""
    text = ":".join([str(seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def bot_levels() -> tuple[str, ...]:
    """The bot levels this server accepts (with the test-only ones when enabled)."""
    if os.environ.get("EUCHRE_TEST_BOTS") == "1":
        return (*BOT_LEVELS, *TEST_BOT_LEVELS)
    return BOT_LEVELS


class _TestBot:
    """TEST ONLY (``EUCHRE_TEST_BOTS=1``): a bot that raises, one that takes too
    long, or one that thinks a while on every choice it has."""

    def __init__(self, level: str) -> None:
        self.name = level
        #: as ``SearchBot.deadline``: ``test-think`` answers by then
        self.deadline: float | None = None

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Raise (``test-raise``), think until stopped (``test-slow``), or think
        ``TEST_THINK_SECONDS`` (at most until the deadline) unless forced
        (``test-think``)."""
        if self.name == "test-raise":
            raise RuntimeError("test-raise: this bot always fails")
        if self.name == "test-think":
            if len(legal) > 1:
                until = time.time() + TEST_THINK_SECONDS
                if self.deadline is not None:
                    until = min(until, self.deadline)
                STOP_TEST_BOTS.wait(max(0.0, until - time.time()))
            return legal[0]
        deadline = time.monotonic() + TEST_SLOW_SECONDS
        while time.monotonic() < deadline and not STOP_TEST_BOTS.wait(0.05):
            pass
        return legal[0]


def make_level_bot(level: str, seed: int) -> Bot:
    """The bot of a seat at ``level`` (a search level, ``rule``, or a test-only level)."""
    if level == "rule":
        return make_bot("rule", seed=seed)
    if level in TEST_BOT_LEVELS:
        if level not in bot_levels():
            raise ValueError(f"the test-only bot level {level!r} is not enabled")
        return _TestBot(level)
    return make_bot("search", seed=seed, level=level)


def clean_name(value: str, what: str = "name") -> str:
    """A stripped, non-empty name of at most ``MAX_NAME`` printable characters."""
    name = " ".join(value.split())
    if not name:
        raise TableError("bad_request", f"{what} must not be empty")
    if len(name) > MAX_NAME:
        raise TableError("bad_request", f"{what} must be at most {MAX_NAME} characters")
    if not name.isprintable():
        raise TableError("bad_request", f"{what} must be printable text")
    return name


def bot_name(seat: int, level: str) -> str:
    """The name of a bot seat: ``Bot 2 (medium)``."""
    return f"Bot {seat + 1} ({level})"


def new_meta(
    table_id: str,
    rules: Rules,
    levels: Sequence[str | None] | None = None,
    name: str | None = None,
    seed: int | None = None,
    bot_seats: Sequence[int] = (),
) -> dict[str, Any]:
    """The meta of a new table waiting for players.

    ``levels``: the bot level each seat gets if nobody takes it (None: ``DEFAULT_LEVEL``).
    ``bot_seats``: the seats that are bots from the start (a person may not take them).
    """
    n = rules.seats
    if levels is None:
        levels = [None] * n
    if len(levels) != n:
        raise TableError("bad_request", f"bots must list {n} seats (a level or null for each)")
    for i in bot_seats:
        if not 0 <= i < n:
            raise TableError("bad_request", f"bot_seats: no seat {i} (seats 0 to {n - 1})")
    seats = []
    known = bot_levels()
    for i, level in enumerate(levels):
        if level is not None and level not in known:
            raise TableError(
                "bad_request",
                f"bots[{i}]: unknown level {level!r} (want one of {', '.join(BOT_LEVELS)})",
            )
        level = level or DEFAULT_LEVEL
        seat: dict[str, Any] = {"name": None, "kind": "empty", "level": level, "token_sha256": None}
        if i in bot_seats:
            seat.update(kind="bot", name=bot_name(i, level))
        seats.append(seat)
    if seed is None:
        seed = secrets.randbits(63)
    return {
        "version": META_VERSION,
        "table_id": table_id,
        "name": clean_name(name, "table name") if name is not None else f"{rules.variant} table",
        "variant": rules.variant,
        "options": rules.options(),
        "seed": seed,
        "first_dealer": random.Random(derive_seed(seed, "dealer")).randrange(n),
        "seats": seats,
        "status": "waiting",
        "created": time.time(),
        # the seat of the person who created the table (``player`` at creation):
        # only that seat's token starts it; None: any seated person may
        "host": None,
    }


@dataclass(frozen=True)
class BotJob:
    """One bot decision, all of it: the state, the seat, the match score, the
    hand's number, the level and the bot's seed. :func:`run_bot_job` makes the
    decision from it alone, so a worker process decides exactly as the server
    would (it pickles: a state pickles as its core and deal) -- unless the
    ``deadline`` cuts a search short."""

    state: HandState
    seat: int
    scores: tuple[int, ...]
    hand: int
    level: str
    seed: int
    #: the time (``time.time()``) by which a search bot answers with its best so
    #: far (``SearchBot.deadline``); None: it thinks as long as its level says
    deadline: float | None = None
    #: what the seat has learnt of the others' calls from the match's finished
    #: hands (``Game.styles_of``): a search bot at a level that adapts models
    #: them by it (``SearchBot.styles``); None at a level that does not adapt
    styles: CallStyles | None = None


def run_bot_job(job: BotJob) -> dict[str, Any]:
    """The entry the job's bot plays (``{"hand", "seat", "action"}``): a pure
    function of the job. A Cutthroat maker's merge and keep make one entry, as
    records write them: no entry (and no pause) shows the other seats a merge
    before its keep."""
    bot = make_level_bot(job.level, job.seed)
    if isinstance(bot, SearchBot | _TestBot):
        bot.deadline = job.deadline
    if isinstance(bot, SearchBot):
        bot.styles = job.styles
    action = decide(bot, job.state, job.seat, job.scores)
    if action.is_merge:
        action = decide(bot, job.state.apply(action, job.seat), job.seat, job.scores)
    return {"hand": job.hand, "seat": job.seat, "action": str(action)}


class Game:
    """A table's state replayed from its meta and entries (no I/O)."""

    def __init__(self, meta: dict[str, Any]) -> None:
        """A game at ``seq`` 0 from ``meta`` (use :meth:`replay` to add entries)."""
        self.meta = meta
        self.table_id: str = meta["table_id"]
        self.rules = Rules.from_options(meta["variant"], meta["options"])
        self.seed: int = meta["seed"]
        self.match = Match.new(self.rules, meta["first_dealer"])
        self.seq = 0
        #: ``styles_of`` by seat: the hands learnt from and what they taught
        self._styles: dict[int, tuple[int, CallStyles]] = {}
        #: views of the current state by seat (cleared by every change)
        self._views: dict[int, View] = {}
        self._views_of: HandState | None = None
        if meta["status"] not in ("waiting", "expired"):
            self._deal_if_needed()

    @classmethod
    def replay(cls, meta: dict[str, Any], entries: Sequence[dict[str, Any]]) -> Game:
        """The game after all ``entries`` (each must be legal: the store holds only those)."""
        game = cls(meta)
        for entry in entries:
            game.apply_entry(entry)
        return game

    # -- state ----------------------------------------------------------------------
    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``over`` or ``expired`` (nobody started it in time)."""
        if self.meta["status"] in ("waiting", "expired"):
            return str(self.meta["status"])
        return "over" if self.match.is_over else "playing"

    @property
    def seats(self) -> list[dict[str, Any]]:
        """The seats of the meta."""
        seats: list[dict[str, Any]] = self.meta["seats"]
        return seats

    @property
    def names(self) -> list[str]:
        """A display name per seat."""
        return [s["name"] or f"seat {i}" for i, s in enumerate(self.seats)]

    @property
    def current(self) -> HandState | None:
        """The hand in progress, if any."""
        return self.match.current

    @property
    def to_act(self) -> int | None:
        """The seat to act, if a hand is in progress."""
        return None if self.current is None else self.current.to_act

    def seen_seq(self, seat: int | None) -> int:
        """The ``seq`` as ``seat`` knows it (None: a spectator): the number of
        entries whose effect it may see. The Cutthroat maker's bare ``keep`` (the
        merge) is public only with the keep that follows it (RULES.md §6), so
        until then every other seat and the spectators count one entry fewer:
        no ``seq`` a client is told or answered with shows that the merge
        happened (docs/protocol.md)."""
        state = self.current
        if state is not None and state.core.phase == Phase.KEEP and seat != state.core.maker:
            return self.seq - 1
        return self.seq

    def bot_to_act(self) -> int | None:
        """The bot seat to act now, or None (a human's turn, or no hand)."""
        seat = self.to_act
        if self.status != "playing" or seat is None:
            return None
        return seat if self.seats[seat]["kind"] == "bot" else None

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        digest = hash_token(token)
        found = None
        for i, s in enumerate(self.seats):
            stored = s.get("token_sha256")
            if stored and hmac.compare_digest(stored, digest):
                found = i
        return found

    def view(self, seat: int) -> View | None:
        """The current view of ``seat``, or None."""
        if self.current is None:
            return None
        if self._views_of is not self.current:
            self._views, self._views_of = {}, self.current
        view = self._views.get(seat)
        if view is None:
            view = View.of(self.current, seat, self.match.scores)
            self._views[seat] = view
        return view

    def public(self) -> dict[str, Any] | None:
        """What every seat may see of the hand in progress, or None."""
        if self.current is None:
            return None
        return public_json(self.current, self.match.scores)

    def summary(self) -> dict[str, Any]:
        """The public table summary of the protocol (never a hidden card)."""
        seats = []
        for i, s in enumerate(self.seats):
            item: dict[str, Any] = {"seat": i, "name": s["name"], "kind": s["kind"]}
            if s["kind"] != "human":
                item["level"] = s["level"]
            if s["kind"] == "empty" and s.get("reserved_sha256"):
                item["reserved"] = True  # kept for a player of the match before (rematch)
            seats.append(item)
        return {
            "table_id": self.table_id,
            "name": self.meta["name"],
            "variant": self.rules.variant,
            "rules": {"variant": self.rules.variant, **self.rules.options()},
            "status": self.status,
            "seats": seats,
            "scores": list(self.match.scores),
            "hands_played": len(self.match.hands),
            "winners": list(self.match.winners),
            "host": self.meta.get("host"),
            "rematch": self.meta.get("rematch"),
            "hand_scores": self.hand_scores(),
        }

    def hand_scores(self) -> list[list[int]]:
        """The match score after each finished hand (public: the page's score chart)."""
        out: list[list[int]] = []
        scores = [0] * len(self.match.scores)
        for hand in self.match.hands:
            result = hand.result
            assert result is not None
            scores = [a + b for a, b in zip(scores, result.points, strict=True)]
            out.append(scores)
        return out

    def hand_record(self, index: int) -> dict[str, Any]:
        """The record of finished hand ``index``; TableError not_found otherwise."""
        if not 0 <= index < len(self.match.hands):
            raise TableError("not_found", f"hand {index} is not over (or does not exist)", 404)
        return hand_record(self.match.hands[index])

    def match_record(self) -> dict[str, Any]:
        """The match record of the finished hands."""
        return match_record(replace(self.match, current=None))

    # -- changes ----------------------------------------------------------------------
    def deal_for(self, index: int) -> Deal:
        """The deal of hand ``index`` (from the table seed)."""
        return Deal.random(self.rules, random.Random(derive_seed(self.seed, "deal", index)))

    def _deal_if_needed(self) -> None:
        while self.match.needs_deal:
            self.match = self.match.deal(self.deal_for(len(self.match.hands)))

    def parse(self, text: str) -> Action:
        """The action written ``text``; TableError illegal if it does not parse."""
        try:
            return Action.parse(text)
        except (ActionError, ValueError) as exc:
            raise TableError("illegal", f"cannot read the action {text!r}: {exc}") from exc

    def check_turn(self, seat: int) -> None:
        """TableError unless ``seat`` is to act now: ``not_started``, ``illegal``
        (the match is over) or ``not_your_turn`` -- answers that any seat may
        get at any moment, as they tell only what is public."""
        if self.status == "waiting":
            raise TableError("not_started", "the game has not started")
        if self.status == "expired":
            raise expired_error()
        if self.status == "over" or self.current is None:
            raise TableError("illegal", "the match is over")
        if self.to_act != seat:
            raise TableError("not_your_turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def check(self, seat: int, action: Action) -> dict[str, Any]:
        """The entry for ``seat`` doing ``action`` now, as a person at the table may:
        the action must be among the seat's view's legal actions. Raises TableError."""
        self.check_turn(seat)
        view, state = self.view(seat), self.current
        assert view is not None and state is not None
        if action not in view.legal:
            why = state.why_illegal(action, seat, you=True)
            raise TableError("illegal", why or f"{action} is not allowed now")
        return self._entry(seat, action)

    def _entry(self, seat: int, action: Action) -> dict[str, Any]:
        return {"hand": len(self.match.hands), "seat": seat, "action": str(action)}

    def styles_of(self, seat: int) -> CallStyles:
        """What ``seat`` has seen of the others' calls in the match's finished
        hands, each through the seat's own view (``bots.style``): a bot there
        at a level that adapts models the others by it."""
        learnt, styles = self._styles.get(seat) or (0, CallStyles(self.rules, seat))
        hands = self.match.hands
        for hand in hands[learnt:]:
            styles.observe(View.of(hand, seat))
        self._styles[seat] = (len(hands), styles)
        return styles

    def bot_job(self, level: str | None = None) -> BotJob | None:
        """The decision of the bot to act now, as a :class:`BotJob` (None: no bot
        to act). ``level``: play this level instead of the seat's (the server's
        fallback to ``rule`` after a failed bot); the seed follows from the table
        seed, the hand and the ``seq``."""
        seat = self.bot_to_act()
        state = self.current
        if seat is None or state is None:
            return None
        level = level or self.seats[seat]["level"]
        parts: tuple[object, ...] = ("bot", len(self.match.hands), self.seq)
        if level == "rule" and self.seats[seat]["level"] != "rule":
            parts = ("fallback", len(self.match.hands), self.seq)
        return BotJob(
            state=state,
            seat=seat,
            scores=tuple(self.match.scores),
            hand=len(self.match.hands),
            level=level,
            seed=derive_seed(self.seed, *parts),
            styles=copy.deepcopy(self.styles_of(seat)) if self._adapts(level) else None,
        )

    def _adapts(self, level: str) -> bool:
        """Whether a bot at ``level`` learns the others' calls (``Level.adapt``
        in this table's variant): only its jobs carry ``styles_of``."""
        levels = LEVELS[self.rules.variant]
        return level in levels and levels[level].adapt

    def bot_entry(self, level: str | None = None) -> dict[str, Any] | None:
        """The entry the bot to act plays now (deterministic: seeded by table, hand, seq).

        ``level``: as for :meth:`bot_job`. Runs the search (CPU work: the server
        runs :func:`run_bot_job` in a worker process). Only the chosen entry is
        stored: a replay never runs a bot again."""
        job = self.bot_job(level)
        return None if job is None else run_bot_job(job)

    def apply_entry(self, entry: dict[str, Any]) -> None:
        """Apply entry number ``self.seq`` (ValueError if it does not fit: a corrupt table)."""
        if self.status != "playing" or self.current is None:
            raise ValueError(f"entry {self.seq}: no hand in progress")
        if entry.get("hand") != len(self.match.hands):
            raise ValueError(f"entry {self.seq}: for hand {entry.get('hand')}, not the current one")
        seat = entry["seat"]
        action = Action.parse(entry["action"])
        try:
            self.match = self.match.with_hand(self.current.apply_recorded(action, seat))
        except IllegalActionError as exc:
            raise ValueError(f"entry {self.seq}: {exc}") from None
        self._deal_if_needed()
        self.seq += 1

    def start(self) -> None:
        """Seat bots in the empty seats and deal (meta status ``playing``)."""
        if self.meta["status"] != "waiting":
            return
        for i, s in enumerate(self.seats):
            if s["kind"] == "empty":
                s["kind"] = "bot"
                s["name"] = bot_name(i, s["level"])
                s.pop("reserved_sha256", None)
        self.meta["status"] = "playing"
        self._deal_if_needed()

    def join(self, seat: int, name: str, reserved_for: str | None = None) -> str:
        """Seat a person; returns the new secret token (its hash goes in the meta).

        A seat kept for a player of the match before (a rematch) is given only
        to the holder of that match's token (``reserved_for``: its sha256)."""
        if not 0 <= seat < self.rules.seats:
            raise TableError("bad_request", f"no seat {seat} (seats 0 to {self.rules.seats - 1})")
        if self.status == "expired":
            raise expired_error()
        if self.seats[seat]["kind"] == "bot":
            raise TableError("seat_taken", f"seat {seat} is a bot's", 409)
        if self.seats[seat]["kind"] != "empty":
            raise TableError("seat_taken", f"seat {seat} is taken", 409)
        if self.status != "waiting":
            raise TableError("seat_taken", "the game has started", 409)
        kept = self.seats[seat].get("reserved_sha256")
        if kept and not (reserved_for and hmac.compare_digest(kept, reserved_for)):
            raise TableError(
                "seat_taken", f"seat {seat} is kept for its player of the last match", 409
            )
        token = new_token()
        self.seats[seat].pop("reserved_sha256", None)
        self.seats[seat].update(
            {"kind": "human", "name": clean_name(name), "token_sha256": hash_token(token)}
        )
        return token

    def check_starter(self, token: str) -> None:
        """TableError unless ``token`` may start the table: the host's seat token
        (the table's creator, when it was created with a ``player``), else any
        seated person's (``bad_token`` 403, ``not_host`` 403)."""
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "that is not the token of a seat here", 403)
        host = self.meta.get("host")
        if host is not None and seat != host:
            raise TableError("not_host", "only the player who created the table may start it", 403)

    def rematch_meta(self, table_id: str, seed: int | None = None) -> dict[str, Any]:
        """The meta of a rematch of this finished table: the same rules, name and
        bot seats (levels and names); each person's seat kept for them (by the
        sha256 of their token here: they take it with that token)."""
        levels = [s["level"] for s in self.seats]
        bots = [i for i, s in enumerate(self.seats) if s["kind"] == "bot"]
        meta = new_meta(table_id, self.rules, levels, self.meta["name"], seed, bots)
        for old, new in zip(self.seats, meta["seats"], strict=True):
            if old["kind"] == "bot":
                new["name"] = old["name"]
            elif old.get("token_sha256"):
                new["reserved_sha256"] = old["token_sha256"]
        return meta

    def last_hand(
        self, review: str | None, review_facts: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """The protocol's ``last_hand`` for the latest finished hand, or None
        (``review_facts``: ``Review.to_json`` of the same review)."""
        if not self.match.hands:
            return None
        index = len(self.match.hands) - 1
        result = self.match.hands[index].result
        assert result is not None
        scores = [0] * self.rules.seats
        for hand in self.match.hands:
            r = hand.result
            assert r is not None
            scores = [a + b for a, b in zip(scores, r.points, strict=True)]
        return {
            "index": index,
            "points": list(result.points),
            "scores": scores,
            "result": result.to_json(),
            "record": f"/api/tables/{self.table_id}/hands/{index}",
            "review": review,
            "review_facts": review_facts,
        }
