"""The leak audit of the web table, shared by tests/test_web_leaks.py (a 200-hand
run in the suite) and bench/leak_audit.py (10,000 hands by a command).

Scripted WebSocket clients play whole random hands on a real ``euchre serve``
process, several tables at once, both variants, with policies that order, call
and go alone often (Cutthroat makers merge or go alone). A recorder keeps every
byte each seat, a spectator and late spectators receive: state messages,
errors, hints, reconnect snapshots; the audit also downloads hand records
(before and after the hand is over), the match record and the summaries at
random moments.

When a table's match is over, each hand's record is fetched and "what may this
seat see" (RULES.md §6) is worked out from the record alone — the seat's own
five cards, the up-card, every card played so far, the dummy for a Cutthroat
maker who chose to merge — never from the server's view code
(:class:`Oracle`). Every card named anywhere in a message must be in that set
for the message's hand and moment (the hand is ``table.hands_played``, the
moment the length of the public history). A hand's deal becomes visible only
once the hand is over: the ``last_hand`` part (about the finished hand) is
checked against the engine's replay of that hand instead. Errors to a probe
naming a hidden card must not depend on where that card is
(:func:`check_probes`).

Each table is checked as soon as its match is over and then dropped (a long
audit keeps only the counts): :func:`audit` returns an :class:`Audit` with the
totals and the description of every failed check (a leak).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from euchre.record import read_hand

#: The seed of the audit's players unless told otherwise.
DEFAULT_SEED = 20261129
#: Seconds a table may take to play its match before the audit calls it stuck.
TABLE_TIMEOUT = 300.0

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[789TJQKA][CDHS]|JK)(?![0-9A-Za-z])")

RULES = [
    {"variant": "cutthroat"},
    {"variant": "partnership"},
    {"variant": "cutthroat", "deck": 25, "target": 15},
    {"variant": "partnership", "deck": 32, "stick_the_dealer": True, "target": 15},
    {"variant": "cutthroat", "dealer_pickup": "mandatory", "dummy_decline_is_alone": True},
    {"variant": "partnership", "lone_defender_points": 4, "may_name_turned_down_suit": True},
]


#: Table ids (random text that may hold "AH") where the server writes them.
TABLE_IDS = re.compile(r'"table_id": ?"[A-Za-z0-9_-]*"|/(?:tables|t)/[A-Za-z0-9_-]+')


def scrub(text: str, table_id: str) -> str:
    """``text`` without table ids (this table's and any other's in the lobby)."""
    return TABLE_IDS.sub("#", text.replace(table_id, "#"))


def cards_in(text: str) -> set[str]:
    """Every card named in ``text``."""
    return set(CARD.findall(text))


# -- the recorder ------------------------------------------------------------------------------


@dataclass
class Received:
    """One message a client got: the raw text, its seat (None: spectator), and
    what the client had done before it arrived."""

    raw: str
    seat: int | None
    merged: frozenset[int]  # hands in which this seat had chosen to merge (bare keep) by then
    named: frozenset[str]  # cards this seat had named in its own messages by then
    context: tuple[int, int] | None  # (hand, history length) of the latest state before it


@dataclass
class Seat:
    """What one seat (or spectator) of a table did and received, over all its sockets."""

    seat: int | None
    token: str | None
    got: list[Received] = field(default_factory=list)
    merged: set[int] = field(default_factory=set)
    named: set[str] = field(default_factory=set)
    latest: dict[str, Any] | None = None
    context: tuple[int, int] | None = None
    ws: ClientConnection | None = None
    sockets: int = 0
    slot: float = 0.0  # the client's own pacing (the server allows 20 messages a second)
    limited: int = 0  # how many of its messages the server refused as rate_limited
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Http:
    """One HTTP answer: path, status, text."""

    path: str
    status: int
    text: str


@dataclass
class Table:
    """One table of the audit."""

    table_id: str
    rules: dict[str, Any]
    seats: list[Seat]
    watchers: list[Seat]
    http: list[Http] = field(default_factory=list)
    #: per seat, the pairs of probes it sent, in order: (hand, verb, card, other card)
    probes: dict[int, list[tuple[int, str, str, str]]] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    hints: int = 0
    alone: float = 0.2  # how often a player goes alone when it may


async def reader(who: Seat, ws: ClientConnection) -> None:
    """Record every message of ``ws`` for ``who`` until it closes."""
    try:
        async for raw in ws:
            assert isinstance(raw, str)
            who.got.append(
                Received(raw, who.seat, frozenset(who.merged), frozenset(who.named), who.context)
            )
            message = json.loads(raw)
            if message.get("type") == "error" and message.get("code") == "rate_limited":
                who.limited += 1
            if message.get("type") == "state":
                who.latest = message
                public = message["public"]
                hand = message["table"]["hands_played"]
                who.context = (hand, len(public["history"]) if public else -1)
            who.changed.set()
    except Exception:
        pass


#: Messages a second each scripted client sends at most (under the server's limit).
PACE = 12.0


async def send(who: Seat, message: dict[str, Any]) -> None:
    """Send ``message`` on ``who``'s socket, no faster than ``PACE`` a second."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    who.slot = max(who.slot, now - 0.5) + 1 / PACE
    if who.slot > now:
        await asyncio.sleep(who.slot - now)
    assert who.ws is not None
    await who.ws.send(json.dumps(message))


async def open_socket(ws_url: str, table_id: str, who: Seat) -> asyncio.Task[None]:
    """(Re)connect ``who`` and say hello; the reader task."""
    ws = await connect(f"{ws_url}/ws/{table_id}", proxy=None, max_size=2**22)
    who.ws = ws
    who.latest = None
    who.sockets += 1
    task = asyncio.create_task(reader(who, ws))
    await send(who, {"type": "hello", "token": who.token})
    return task


# -- the players -------------------------------------------------------------------------------


def choose(rng: random.Random, view: dict[str, Any], alone: float) -> str:
    """A random legal action that orders, calls and goes alone often."""
    legal: list[str] = view["legal"]
    if "alone" in legal:
        if rng.random() < alone:
            return "alone"
        legal = [a for a in legal if a != "alone"]
    if "keep" in legal:
        return "keep"
    if "order" in legal and rng.random() < 0.5:
        return "order"
    calls = [a for a in legal if a.startswith("call ")]
    if calls and rng.random() < 0.6:
        return rng.choice(calls)
    return rng.choice(legal)


def view_cards(view: dict[str, Any]) -> set[str]:
    return cards_in(json.dumps(view))


def deck_of(rules: dict[str, Any]) -> list[str]:
    """The cards of a table's deck (24, 25 with the joker, or 32)."""
    deck = rules.get("deck", 24)
    ranks = "789TJQKA" if deck == 32 else "9TJQKA"
    return [r + s for r in ranks for s in "CDHS"] + (["JK"] if deck == 25 else [])


async def player(
    table: Table, who: Seat, rng: random.Random, ws_url: str, done: asyncio.Event
) -> None:
    """Play ``who``'s turns (with probes, hints and reconnects) until ``done``."""
    acted: int | None = None
    reader_task = await open_socket(ws_url, table.table_id, who)
    while not done.is_set():
        who.changed.clear()
        state = who.latest
        view = state["view"] if state else None
        if (
            state
            and view
            and view["to_act"] == who.seat
            and view["legal"]
            and acted != state["seq"]
        ):
            ws = who.ws
            assert ws is not None
            seq = state["seq"]
            if rng.random() < 0.05:
                # reconnect: a new socket, a new hello, a new snapshot
                await ws.close()
                await reader_task
                reader_task = await open_socket(ws_url, table.table_id, who)
                continue
            hidden = [c for c in deck_of(table.rules) if c not in view_cards(view)]
            if len(hidden) >= 6 and rng.random() < 0.12:
                # probe: the same action twice, naming two cards this seat cannot see
                first, second = rng.sample(hidden[4:], 2)
                verb = rng.choice(["play", "pickup", "play", "keep"])
                hand = state["table"]["hands_played"]
                table.probes.setdefault(who.seat or 0, []).append((hand, verb, first, second))
                for card in (first, second):
                    text = f"{verb} {card}"
                    if verb == "keep":
                        text = f"keep {' '.join(hidden[:4])} {card}"
                    who.named.update(cards_in(text))
                    msg = {"type": "action", "token": who.token, "action": text, "seq": seq}
                    await send(who, msg)
            if table.hints < 1 and view["phase"] == "play" and rng.random() < 0.1:
                table.hints += 1
                await send(who, {"type": "hint", "token": who.token})
            action = choose(rng, view, table.alone)
            if action == "keep":
                who.merged.add(state["table"]["hands_played"])
            who.named.update(cards_in(action))
            acted = seq
            msg = {"type": "action", "token": who.token, "action": action, "seq": seq}
            await send(who, msg)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(who.changed.wait(), 0.5)
    assert who.ws is not None
    await who.ws.close()
    await reader_task


#: GETs sent again after a transport error (a kept-alive connection the server
#: had just closed): the audit checks what is downloaded, not the connection.
RETRIED: list[str] = []


async def get(api: httpx.AsyncClient, path: str) -> httpx.Response:
    """GET ``path``, once more after a transport error."""
    try:
        return await api.get(path)
    except httpx.TransportError as exc:
        RETRIED.append(f"{path}: {exc!r}")
        return await api.get(path)


async def download(table: Table, api: httpx.AsyncClient, rng: random.Random) -> None:
    """Fetch what anyone may download, at this moment."""
    summary = await get(api, f"/api/tables/{table.table_id}")
    table.http.append(Http(summary.url.path, summary.status_code, summary.text))
    hand = summary.json()["hands_played"]
    paths = [
        f"/api/tables/{table.table_id}/hands/{hand}",
        f"/api/tables/{table.table_id}/hands/{hand + 1}",
        f"/api/tables/{table.table_id}/record",
    ]
    if hand:
        paths.append(f"/api/tables/{table.table_id}/hands/{rng.randrange(hand)}")
    if rng.random() < 0.2:
        paths.append("/api/tables")
    for path in paths:
        answer = await get(api, path)
        table.http.append(Http(path, answer.status_code, answer.text))


async def run_table(
    rules: dict[str, Any],
    rng: random.Random,
    ws_url: str,
    api: httpx.AsyncClient,
    timeout: float = TABLE_TIMEOUT,
) -> Table:
    """Create a table, seat scripted players, play the match to its end (an
    AssertionError if it is not over within ``timeout`` seconds)."""
    answer = await api.post("/api/tables", json={"rules": rules, "name": "leak audit"})
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["table_id"]
    n = 3 if rules["variant"] == "cutthroat" else 4
    seats = []
    for s in range(n):
        joined = await api.post(f"/api/tables/{table_id}/join", json={"seat": s, "name": f"P{s}"})
        assert joined.status_code == 200, joined.text
        seats.append(Seat(s, joined.json()["token"]))
    watcher = Seat(None, None)
    table = Table(table_id, rules, seats, [watcher], alone=rng.choice([0.04, 0.3]))
    watch_task = await open_socket(ws_url, table_id, watcher)
    started = await api.post(f"/api/tables/{table_id}/start", json={"token": seats[0].token})
    assert started.status_code == 200, started.text
    done = asyncio.Event()
    players = [
        asyncio.create_task(player(table, s, random.Random(rng.random()), ws_url, done))
        for s in seats
    ]
    late: list[tuple[Seat, asyncio.Task[None]]] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        watcher.changed.clear()
        latest = watcher.latest
        if latest is not None and latest["table"]["status"] == "over":
            break
        assert asyncio.get_running_loop().time() < deadline, (
            f"table {table_id} stuck: {latest}; the seats got: "
            + "; ".join(f"{s.seat}: {[g.raw[:300] for g in s.got[-3:]]}" for s in seats)
        )
        if latest is not None and rng.random() < 0.08:
            await download(table, api, rng)
        if latest is not None and rng.random() < 0.01 and len(late) < 2:
            spectator = Seat(None, None)
            table.watchers.append(spectator)
            late.append((spectator, await open_socket(ws_url, table_id, spectator)))
        for task in players:
            if task.done():
                task.result()  # a failing player fails the test
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watcher.changed.wait(), 1.0)
    await download(table, api, rng)
    await asyncio.sleep(0.05)  # the last states reach every socket
    done.set()
    await asyncio.gather(*players)
    for spectator, task in [(watcher, watch_task), *late]:
        assert spectator.ws is not None
        await spectator.ws.close()
        await task
    hands = latest["table"]["hands_played"]
    for i in range(hands):
        answer = await get(api, f"/api/tables/{table_id}/hands/{i}")
        assert answer.status_code == 200, answer.text
        table.records.append(answer.json())
    return table


# -- the audit: tables played, each checked when it is over ------------------------------------


@dataclass
class Audit:
    """The figures of an audit (what was checked) and the leaks it found."""

    hands: int = 0
    tables: int = 0
    by_variant: dict[str, int] = field(default_factory=lambda: {"cutthroat": 0, "partnership": 0})
    alone_by_variant: dict[str, int] = field(
        default_factory=lambda: {"cutthroat": 0, "partnership": 0}
    )
    #: messages received (states, errors, hints) and checked, all clients
    messages: int = 0
    #: bytes of every message received and every download, all checked
    bytes: int = 0
    errors: int = 0
    hints: int = 0
    alone: int = 0
    merge: int = 0
    #: sockets opened (each a hello and a snapshot)
    snapshots: int = 0
    #: sockets a seat opened again mid-match (a new hello, a new snapshot)
    reconnects: int = 0
    #: spectators who came in mid-match
    late_spectators: int = 0
    #: HTTP answers checked (summaries, hand and match records, the lobby)
    downloads: int = 0
    #: probe pairs compared (the same action naming two hidden cards)
    probes: int = 0
    #: of those, pairs whose cards were in different places (another hand, kitty, dummy)
    probes_telling: int = 0
    #: GETs sent again after a transport error (see :data:`RETRIED`)
    http_retries: int = 0
    #: one description per table whose check failed (a leak, or a broken promise)
    leaks: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        """The figures as one JSON-ready dict."""
        out = {k: v for k, v in vars(self).items() if k != "leaks"}
        out["leaks"] = len(self.leaks)
        out["seconds"] = round(self.seconds, 1)
        return out


def check_finished(table: Table, totals: Audit) -> None:
    """Check one finished table (every message, download and probe) and add its
    figures to ``totals``; a failed check is recorded as a leak, not raised."""
    try:
        counts = check_table(table)
        telling = check_probes([table])
    except Exception as exc:  # an AssertionError, or a message the checks cannot read
        where = "".join(traceback.format_exception(exc)[-3:])
        totals.leaks.append(f"table {table.table_id} ({table.rules}): {where}")
        return
    finally:
        totals.tables += 1
        totals.hands += len(table.records)
        totals.by_variant[table.rules["variant"]] += len(table.records)
    totals.probes += sum(len(p) for p in table.probes.values())
    totals.probes_telling += telling
    totals.alone_by_variant[table.rules["variant"]] += counts["alone"]
    for key in ("messages", "errors", "hints", "alone", "merge", "snapshots"):
        setattr(totals, key, getattr(totals, key) + counts[key])
    totals.reconnects += sum(s.sockets - 1 for s in table.seats)
    totals.late_spectators += len(table.watchers) - 1
    totals.downloads += len(table.http)
    totals.bytes += sum(len(g.raw.encode()) for w in [*table.seats, *table.watchers] for g in w.got)
    totals.bytes += sum(len(h.text.encode()) for h in table.http)


async def audit(
    url: str,
    ws_url: str,
    hands: int,
    tables: int = 6,
    seed: int = DEFAULT_SEED,
    *,
    table_timeout: float = TABLE_TIMEOUT,
    progress: Callable[[Audit], None] | None = None,
) -> Audit:
    """Play tables on the server at ``url`` / ``ws_url``, ``tables`` at a time,
    until at least ``hands`` hands are over; check each table when it is over
    (then drop it) and call ``progress`` with the totals so far.

    A table that gets stuck or a player that fails raises (the audit could not
    be run); a check that fails is a leak in the result."""
    rng = random.Random(seed)
    totals = Audit()
    begun = time.monotonic()
    # idle connections are dropped after a second, well before the server's keep-alive
    # timeout (uvicorn's 5 s): else a GET may race the server closing its connection
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=url, trust_env=False, timeout=30, limits=limits) as api:
        running: set[asyncio.Task[Table]] = set()
        started = 0
        while True:
            # a table plays about six hands: start another while more are needed
            while len(running) < tables and totals.hands + 6 * len(running) < hands:
                rules = RULES[started % len(RULES)]
                started += 1
                table_rng = random.Random(rng.random())
                coro = run_table(rules, table_rng, ws_url, api, table_timeout)
                running.add(asyncio.create_task(coro))
            if not running:
                totals.seconds = time.monotonic() - begun
                totals.http_retries = len(RETRIED)
                return totals
            finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                if task.exception() is not None:
                    for other in running:
                        other.cancel()
                    await asyncio.gather(*running, return_exceptions=True)
                check_finished(task.result(), totals)
            totals.seconds = time.monotonic() - begun
            totals.http_retries = len(RETRIED)
            if progress is not None:
                progress(totals)


# -- what each seat may see -------------------------------------------------------------------


class Oracle:
    """What each seat may see of a table's hands, from the hand records alone."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        """Keep the records of the finished hands."""
        self.records = records

    def allowed(self, seat: int | None, hand: int, length: int, merged: bool) -> set[str]:
        """The cards ``seat`` (None: a spectator) may see in hand ``hand`` after the
        first ``length`` actions; ``merged``: it chose to merge the dummy this hand."""
        record = self.records[hand]
        deal = record["deal"]
        out = {deal["kitty"][0]}  # the up-card: face up for everyone at the deal
        done = record["actions"][:length]
        for line in done:
            _seat, _, action = line.partition(" ")
            if action.startswith("play "):
                out.add(action.split()[1])
        if seat is None:
            return out
        out |= set(deal["hands"][seat])
        if merged:
            out |= set(deal.get("dummy", []))
        return out


def check_table(table: Table) -> dict[str, int]:
    """Check every byte the table's clients got and downloaded; counts of what was seen."""
    oracle = Oracle(table.records)
    hands = len(table.records)
    states = [read_hand(r) for r in table.records]
    for i, state in enumerate(states):
        assert state.is_over, f"hand {i} of {table.table_id} is not over"
    counts = {"messages": 0, "errors": 0, "hints": 0, "alone": 0, "merge": 0, "snapshots": 0}
    for state in states:
        assert state.result is not None
        counts["alone"] += bool(state.result.alone)
    for record in table.records:
        counts["merge"] += any(" keep " in line for line in record["actions"])
    for who in [*table.seats, *table.watchers]:
        for got in who.got:
            text = scrub(got.raw, table.table_id)
            message = json.loads(got.raw)
            kind = message["type"]
            counts["messages"] += 1
            if kind == "state":
                hand = message["table"]["hands_played"]
                assert message["seat"] == who.seat
                last = message.pop("last_hand")
                if last is not None:
                    # about the finished hand before this one: its deal is no secret now
                    assert last["index"] == hand - 1
                    result = states[last["index"]].result
                    assert result is not None and last["result"] == result.to_json()
                public = message["public"]
                body = scrub(json.dumps(message), table.table_id)
                if public is None:
                    assert message["view"] is None
                    assert not cards_in(body), f"no hand in progress, yet cards: {body}"
                    continue
                length = len(public["history"])
                merged = hand in got.merged
                allowed = oracle.allowed(who.seat, hand, length, merged)
                found = cards_in(body)
                assert found <= allowed, (
                    f"table {table.table_id} hand {hand} after {length} actions: seat "
                    f"{who.seat} was sent {sorted(found - allowed)}: {body}"
                )
                assert hand < hands
                if who.seat is None:
                    assert message["view"] is None
                else:
                    assert message["view"]["seat"] == who.seat
            elif kind in ("error", "hint"):
                assert who.seat is not None, f"a spectator got {text}"
                assert got.context is not None
                hand, length = got.context
                counts[kind + "s"] += 1
                allowed = got.named
                if length >= 0:
                    allowed = allowed | oracle.allowed(who.seat, hand, length, hand in got.merged)
                found = cards_in(text)
                assert found <= allowed, f"seat {who.seat} was sent {found - allowed}: {text}"
                if kind == "hint":
                    assert message["suggest"], text
            else:
                raise AssertionError(f"unexpected message {text}")
        counts["snapshots"] += who.sockets
    # every download
    for answer in table.http:
        text = scrub(answer.text, table.table_id)
        body = json.loads(answer.text)
        if "/hands/" in answer.path:
            index = int(answer.path.rsplit("/", 1)[1])
            if answer.status == 200:
                assert body == table.records[index], "a hand record changed after the hand"
            else:
                assert answer.status == 404 and not cards_in(text), text
        elif answer.path.endswith("/record"):
            assert answer.status == 200
            # only hands that are over, each exactly as its final record
            for i, hand_record in enumerate(body["hands"]):
                full = {**hand_record, "variant": body["variant"], "options": body["options"]}
                assert read_hand(full).is_over, f"hand {i} of a match record is not over"
                assert hand_record["deal"] == table.records[i]["deal"]
                assert hand_record["actions"] == table.records[i]["actions"]
        else:
            assert answer.status == 200
            assert not cards_in(text), f"a summary names cards: {text}"
    return counts


def place(record: dict[str, Any], card: str) -> str:
    """Where ``card`` was dealt: ``hand N``, ``dummy``, ``kitty`` or ``not dealt``."""
    deal = record["deal"]
    for seat, hand in enumerate(deal["hands"]):
        if card in hand:
            return f"hand {seat}"
    if card in deal.get("dummy", []):
        return "dummy"
    if card in deal["kitty"][1:]:
        return "kitty"
    return "up-card" if card == deal["kitty"][0] else "not dealt"


_CARD_LIST = re.compile(r"\(not ([^)]*)\)")


def masked_answer(message: str, card: str) -> str:
    """An error message with the probe's ``card`` masked, and a list of the named
    cards that are not the seat's (``(not 9C, <card>, 9S)``: listed in card order,
    which depends on the card named, not on its place) sorted once masked."""
    text = message.replace(card, "<card>")
    return _CARD_LIST.sub(lambda m: f"(not {', '.join(sorted(m[1].split(', ')))})", text)


def check_probes(tables: list[Table]) -> int:
    """Each probe is a pair: the same action at the same moment naming two cards the
    seat cannot see. The two answers must be the same text (the card masked; the
    order of a list of cards aside) — whether a card is in another hand, the kitty
    or the dummy must not show.
    Every error a seat got answers one of its probes (its real actions are legal).
    Returns how many pairs named cards from different places."""
    telling = 0
    for table in tables:
        for who in table.seats:
            assert who.seat is not None
            errors = [json.loads(g.raw) for g in who.got]
            errors = [m for m in errors if m["type"] == "error"]
            probes = table.probes.get(who.seat, [])
            assert len(errors) == 2 * len(probes), (errors, probes)
            for n, (hand, verb, first, second) in enumerate(probes):
                answers = errors[2 * n : 2 * n + 2]
                assert [a["code"] for a in answers] == ["illegal", "illegal"], answers
                masked = [
                    masked_answer(a["message"], card)
                    for a, card in zip(answers, (first, second), strict=True)
                ]
                places = {place(table.records[hand], c) for c in (first, second)}
                assert not places & {"up-card", f"hand {who.seat}"}, (places, first, second)
                assert masked[0] == masked[1], (
                    f"seat {who.seat} of {table.table_id}, {verb} {first} ({places}) / "
                    f"{second}: the answers differ: {masked}"
                )
                telling += len(places) == 2
    return telling
