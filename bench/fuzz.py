"""The replay and protocol fuzzers of the web table, by the million (docs/security.md).

Runs ``--inputs`` fuzz inputs in all (default 1,000,000), every one actually
executed and counted, from seeded generators (``--seed``: the same inputs
again), split in three parts:

- **replay** (``--replay-share``, default half): hostile record files through
  the ``euchre replay`` code path in this process — valid hand and match
  records (which must replay), the same mutated in every field (replaced,
  removed, shuffled, duplicated, wrong cards, wrong seats, renamed keys),
  random JSON, random bytes, valid files with flipped bytes, truncated files
  (which must fail) and nasty files (deep nesting, 5000-digit numbers, NaN,
  a byte-order mark, not UTF-8). Each file goes through ``cli.replay_files``
  (as text or ``--json``), or a line of it through ``cli.replay_jsonl``, and
  its JSON value straight to ``record.read_hand`` / ``read_match``, where only
  ``RecordError`` (and ``RecursionError`` for a record nested too deeply, which
  the command reports as one error line) may come out.
- **protocol in process** (the rest but the WebSocket share): messages
  handed to ``TableServer.handle`` in this process, as the WebSocket endpoint
  does with each text frame, for fake clients (no socket: their outbox is read
  after each message) on six tables of a real ``TableServer`` over SQLite —
  Cutthroat and partnership, several option sets, one table waiting for
  players, matches played on to their end by occasional legal moves (then
  ``over`` tables, replaced after a while). Clients are each seat, a
  spectator and a socket that never said hello. The per-socket rate limit
  is lifted for the fake clients (``tests/test_web_fuzz.py`` tests the limit);
  everything else is the server's own code. This is what makes a million
  feasible: a real socket is paced by the rate limit.
- **protocol over WebSockets** (``--ws-share`` of the protocol part, default
  10 %): the same generator against a real ``euchre serve`` process, text and
  binary frames, many sockets at once, each under the rate limit.

The inputs (both protocol parts): malformed text, JSON that is not a message,
messages of every type with fields missing, extra or of a wrong type (the
strategies of tests/test_web_fuzz.py, as a seeded generator), actions out of
turn, stale, illegal or for another seat, forged tokens and another seat's
real token, hellos that change a socket's seat, hints, nasty JSON (deep
nesting, huge numbers, ``\\ud800``), messages over 16 KiB, byte-level
mutations of a real action, and (about 1 %) a legal move of the seat to act.

A **crash** is an input after which: an exception escaped (``handle``, the
replay code, a record reader beyond its documented errors); the server logged
an error or printed a traceback; the sender got no answer at all (every
message is answered: an error, ``pong``, a hint or a state); an answer is not
a JSON object with a ``type``; a refused message (an error) changed the table
or was heard by another client; a legal move was refused; a valid record did
not replay or a truncated one did; a real socket was dropped by the server.
Each crashing input is saved under ``--crash-dir`` (the input, and what
went wrong with a traceback). Usage::

    python bench/fuzz.py                       # 1,000,000 inputs
    python bench/fuzz.py --inputs 2000 --json  # a smoke run

Progress goes to standard error; at the end the figures are printed (with
``--json`` one JSON object): inputs per part and kind, rates, crashes, time.
The exit status is 1 if there was any crash.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import io
import json
import logging
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # the real server for the WebSocket part

from euchre.cli import replay_files, replay_jsonl  # noqa: E402
from euchre.hand import Deal, HandState  # noqa: E402
from euchre.match import Match  # noqa: E402
from euchre.record import (  # noqa: E402
    RecordError,
    hand_record,
    is_match_record,
    match_record,
    read_hand,
    read_match,
)
from euchre.rules import Rules  # noqa: E402
from webserver import FUZZ_ACTIONS  # noqa: E402  (shared with tests/test_web_fuzz.py)

# -- what went wrong ------------------------------------------------------------------------------


class Crash(Exception):
    """An input broke a promise (the message says which)."""


@dataclass
class Part:
    """The figures of one fuzzer: inputs by kind, crashes, time."""

    name: str
    inputs: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    crashes: int = 0
    seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)

    def figures(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "inputs": self.inputs,
            "crashes": self.crashes,
            "seconds": round(self.seconds, 1),
            "per_s": round(self.inputs / max(self.seconds, 1e-9)),
            "kinds": dict(sorted(self.kinds.items())),
            "answers": dict(sorted(self.answers.items())),
            **self.notes,
        }


class Crashes:
    """Saves each crashing input to a file of its own under ``folder``."""

    def __init__(self, folder: Path, limit: int = 200) -> None:
        """Save into ``folder`` (made on the first crash), at most ``limit`` files."""
        self.folder = folder
        self.limit = limit
        self.count = 0
        self.first: list[str] = []

    def save(self, part: Part, kind: str, data: bytes | str, why: str) -> None:
        """Record one crash of ``part``: the input ``data`` and ``why``."""
        part.crashes += 1
        self.count += 1
        if len(self.first) < 5:
            self.first.append(f"{part.name}/{kind}: {why.strip().splitlines()[-1][:300]}")
        if self.count > self.limit:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        stem = self.folder / f"{part.name}-{self.count:04d}-{kind}"
        raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        stem.with_suffix(".input").write_bytes(raw)
        stem.with_suffix(".txt").write_text(f"{part.name} {kind}\n{why}\n")


class Progress:
    """Inputs done of the total, the rate and the ETA on standard error."""

    def __init__(self, total: int, quiet: bool, crashes: Crashes) -> None:
        """Report towards ``total`` inputs (and the count of ``crashes``)."""
        self.total = total
        self.quiet = quiet
        self.done = 0
        self.crashes = crashes
        self.begun = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.every = 1.0 if self.tty else 15.0
        self.last = 0.0
        self.label = ""

    def tick(self, n: int = 1, final: bool = False) -> None:
        """``n`` more inputs done."""
        self.done += n
        now = time.monotonic()
        if self.quiet or (not final and now - self.last < self.every):
            return
        self.last = now
        rate = self.done / max(now - self.begun, 1e-9)
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        print(
            "\r" if self.tty else "",
            f"{self.label}: {self.done}/{self.total} inputs, {rate:.0f}/s, "
            f"ETA {max(eta, 0) / 60:.1f} min, crashes {self.crashes.count}   ",
            sep="",
            end="\n" if final or not self.tty else "",
            file=sys.stderr,
            flush=True,
        )


# -- random values --------------------------------------------------------------------------------

#: Characters of generated text: ASCII, controls, card letters, accents, CJK, an emoji
#: (no lone surrogates: a WebSocket text frame cannot hold one; ``\\ud800`` *escapes*
#: in JSON text are generated as such).
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789"
    '9TJQKA CDHS {}[]:,"\\/ -+.eE\x00\x01\t\n\r\x7f\x85\xa0é€中😀\u200b\ufeff\uffff'
)
CARDS = [r + s for r in "789TJQKA" for s in "CDHS"] + ["JK", "10S", "1C", "9c", "ah", "XX"]


def text(rng: random.Random, size: int) -> str:
    """Random text of up to ``size`` characters."""
    n = rng.randint(0, size)
    if rng.random() < 0.1:
        return "".join(
            chr(rng.choice([rng.randint(32, 0xD7FF), rng.randint(0xE000, 0x10FFFF)]))
            for _ in range(n)
        )
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def json_leaf(rng: random.Random) -> Any:
    """A JSON scalar, often an awkward one."""
    pick = rng.randrange(9)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.randint(-(2**64), 2**64)
    if pick == 3:
        return rng.choice([0, -1, 1, 2, 3, 4, 99, 2**31, 2**63, -(2**63), 10**20])
    if pick == 4:
        return rng.choice([0.5, -0.0, 1e308, 1e-308, float("inf"), float("-inf"), float("nan")])
    if pick == 5:
        return rng.choice([*CARDS, "0 pass", "1 play AS", "2 keep", "cutthroat", "partnership"])
    if pick == 6:
        return rng.choice(["\ud800", "\udfff", "\x00", "", " ", "null", "<token0>"])
    return text(rng, 30)


def json_value(rng: random.Random, leaves: int = 12, keys: list[str] | None = None) -> Any:
    """A random JSON value of at most about ``leaves`` leaves."""
    if leaves <= 1 or rng.random() < 0.45:
        return json_leaf(rng)
    n = rng.randint(0, 4)
    share = max(1, (leaves - 1) // max(n, 1))
    if rng.random() < 0.5:
        return [json_value(rng, share, keys) for _ in range(n)]
    out = {}
    for _ in range(n):
        key = rng.choice(keys) if keys and rng.random() < 0.6 else text(rng, 8)
        out[key] = json_value(rng, share, keys)
    return out


def dumps(value: Any) -> str:
    """JSON text (NaN and Infinity written as Python writes them)."""
    return json.dumps(value)


def mutate_text(rng: random.Random, data: str) -> str:
    """``data`` with a few characters flipped, dropped, doubled or inserted."""
    chars = list(data)
    for _ in range(rng.randint(1, 4)):
        if not chars:
            chars.append(rng.choice(ALPHABET))
            continue
        i = rng.randrange(len(chars))
        how = rng.randrange(4)
        if how == 0:
            chars[i] = rng.choice(ALPHABET)
        elif how == 1:
            del chars[i]
        elif how == 2:
            chars.insert(i, chars[i])
        else:
            chars.insert(i, rng.choice(ALPHABET))
    return "".join(chars)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """``data`` with a few bytes flipped, dropped or inserted."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not buf:
            buf.append(rng.randrange(256))
            continue
        i = rng.randrange(len(buf))
        how = rng.randrange(3)
        if how == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif how == 1:
            del buf[i]
        else:
            buf.insert(i, rng.randrange(256))
    return bytes(buf)


# -- the replay fuzzer ----------------------------------------------------------------------------

RULE_SETS = [
    Rules(),
    Rules.from_options("partnership", {}),
    Rules.from_options("cutthroat", {"deck": 25}),
    Rules.from_options("partnership", {"deck": 32, "stick_the_dealer": True}),
    Rules.from_options("cutthroat", {"dealer_pickup": "mandatory", "target": 5}),
    Rules.from_options("partnership", {"lone_defender_points": 4, "target": 5}),
]
RECORD_KEYS = ["variant", "options", "dealer", "deal", "actions", "hands", "kitty", "dummy", "x"]


def random_hand(rules: Rules, rng: random.Random, dealer: int = 0) -> HandState:
    """A hand dealt and played (maybe not to its end) by random legal actions."""
    state = HandState(rules, dealer, Deal.random(rules, rng))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def random_match(rules: Rules, rng: random.Random, hands: int) -> Match:
    """A match of up to ``hands`` random hands (fewer if it is won first)."""
    match = Match.new(rules, rng.randrange(rules.seats))
    for _ in range(hands):
        if match.is_over:
            break
        match = match.deal(rng=rng)
        while match.current is not None:
            match = match.apply(rng.choice(match.current.legal_actions()))
    return match


def record_pool(rng: random.Random, size: int) -> list[Any]:
    """``size`` valid records: hands (some unfinished) and matches, every rule set."""
    pool: list[Any] = []
    for i in range(size):
        rules = RULE_SETS[i % len(RULE_SETS)]
        if i % 3:
            state = random_hand(rules, rng, rng.randrange(rules.seats))
            record = hand_record(state)
            if i % 7 == 0:
                record["actions"] = record["actions"][: rng.randrange(len(record["actions"]) + 1)]
            pool.append(record)
        else:
            pool.append(match_record(random_match(rules, rng, rng.randint(1, 3))))
    return pool


def paths_of(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path (keys / indexes) inside a JSON value."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths_of(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths_of(v, (*prefix, i))


def mutate_record(rng: random.Random, record: Any) -> Any:
    """A valid record with one to four of its parts replaced, removed or shuffled."""
    record = json.loads(json.dumps(record))  # a copy (plain JSON: faster than deepcopy)
    for _ in range(rng.randint(1, 4)):
        path = rng.choice(list(paths_of(record)))
        how = rng.choice(["replace", "delete", "card", "seat", "shuffle", "dup", "rename", "type"])
        if not path:
            if how == "replace":
                record = json_value(rng, 12, RECORD_KEYS)
            continue
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        value = parent[key]
        if how == "replace":
            parent[key] = json_value(rng, 8, RECORD_KEYS)
        elif how == "delete":
            del parent[key]
        elif how == "card" and isinstance(value, str):
            parent[key] = rng.choice([*CARDS, "", "9c 9c", "play 9C", "keep"])
        elif how == "seat" and isinstance(value, str) and " " in value:
            seat = rng.choice(["-1", "3", "4", "99999999999999999999", "x", "0", "1", " ", ""])
            parent[key] = seat + " " + value.partition(" ")[2]
        elif how == "shuffle" and isinstance(value, list):
            rng.shuffle(value)
        elif how == "dup" and isinstance(value, list) and value:
            value.insert(rng.randrange(len(value) + 1), copy.deepcopy(rng.choice(value)))
        elif how == "rename" and isinstance(parent, dict):
            parent[rng.choice(RECORD_KEYS)] = parent.pop(key)
        elif how == "type":
            parent[key] = rng.choice([[value], {"x": value}, str(value), None, 0, True])
    return record


def nasty_file(rng: random.Random) -> bytes:
    """Deep nesting, huge numbers, NaN, a BOM, NUL bytes, not UTF-8, emptiness."""
    depth = rng.choice([900, 1000, 3000, 100_000])
    pick = rng.randrange(9)
    if pick == 0:
        return b"[" * depth + b"]" * rng.choice([0, depth])
    if pick == 1:
        return b'{"a":' * depth
    if pick == 2:
        deep = "[" * rng.choice([500, 990, 2000]) + "]" * 2000
        return ('{"dealer": 0, "deal": {}, "actions": [' + deep + "]}").encode()
    if pick == 3:
        return b'{"dealer": ' + b"9" * rng.choice([4300, 4301, 5000, 100_000]) + b"}"
    if pick == 4:
        return b'{"dealer": NaN, "options": {"target": Infinity}, "deal": {}}'
    if pick == 5:
        return b"\xef\xbb\xbf" + json.dumps({"dealer": 0}).encode()
    if pick == 6:
        return b"\x00" * rng.randint(0, 100)
    if pick == 7:
        return rng.choice([b"", b" ", b"\n", b"\xff\xfe{\x00", b"\xc3", b'"\xed\xa0\x80"'])
    return json.dumps({"hands": [{"hands": [{"hands": []}]}] * rng.randint(1, 50)}).encode()


def replay_input(rng: random.Random, pool: list[Any]) -> tuple[str, bytes, bool | None]:
    """One input of the replay fuzzer: (kind, file bytes, whether it must replay:
    True valid, False must fail, None either)."""
    roll = rng.random()
    if roll < 0.03:
        return "valid", dumps(rng.choice(pool)).encode(), True
    if roll < 0.50:
        return "mutated", dumps(mutate_record(rng, rng.choice(pool))).encode(), None
    if roll < 0.62:
        return "json", dumps(json_value(rng, 25, RECORD_KEYS)).encode(), None
    if roll < 0.72:
        return "bytes", rng.randbytes(rng.randint(0, 300)), None
    if roll < 0.82:
        text = dumps(rng.choice(pool)).encode()
        return "flipped", mutate_bytes(rng, text), None
    if roll < 0.97:
        full = json.dumps(rng.choice(pool), indent=rng.choice([None, 1])).encode()
        end = rng.randrange(len(full))
        return "truncated", full[:end], False
    return "nasty", nasty_file(rng), None


def check_replay(path: Path, data: bytes, must: bool | None, rng: random.Random) -> str:
    """Run one file through the ``euchre replay`` code path and the record readers;
    the route taken. Crash if a promise is broken."""
    route = rng.choice(["text", "json", "json", "jsonl"])
    out = io.StringIO()
    if route == "jsonl":
        # one line of standard input's bytes, as ``euchre replay --jsonl`` reads it
        line = data.replace(b"\n", b" ").replace(b"\r", b" ")
        status = replay_jsonl(io.BytesIO(line + b"\n"), out)
        lines = out.getvalue().splitlines()
        if status != 0 or len(lines) > 1:
            raise Crash(f"--jsonl: status {status}, {len(lines)} lines")
        results = [json.loads(x) for x in lines]
        try:
            blank = not line.decode("utf-8").strip()  # skipped, as the command skips it
        except UnicodeDecodeError:
            blank = False
        if blank and results:
            raise Crash("--jsonl answered a blank line")
        if not blank:
            check_result(results[0] if results else None, must)
        return route
    path.write_bytes(data)
    status = replay_files([str(path)], as_json=route == "json", out=out)
    if status not in (0, 1):
        raise Crash(f"exit status {status}")
    lines = out.getvalue().splitlines()
    if route == "json":
        if len(lines) != 1:
            raise Crash(f"--json printed {len(lines)} lines")
        result = json.loads(lines[0])
        check_result(result, must)
        if ("error" in result) != (status == 1):
            raise Crash(f"status {status} for {lines[0][:200]}")
    else:
        if not lines or not lines[0].startswith(f"{path}: "):
            raise Crash(f"not one line per file: {out.getvalue()[:300]!r}")
        failed = "error at " in lines[0]
        if failed != (status == 1) or (must is not None and must == failed):
            raise Crash(f"status {status} (must replay: {must}): {lines[0][:300]}")
    # the record readers themselves: RecordError only
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return route
    try:
        if is_match_record(obj):
            read_match(obj)
        else:
            read_hand(obj)
    except RecordError:
        pass
    except RecursionError:
        pass  # documented: the command answers "the record is nested too deeply"
    return route


def check_result(result: Any, must: bool | None) -> None:
    """An ``euchre replay --json`` result: a result or a well-formed error."""
    if not isinstance(result, dict):
        raise Crash(f"the result is not an object: {result!r}")
    if "error" in result:
        error = result["error"]
        if not (isinstance(error.get("reason"), str) and error["reason"]):
            raise Crash(f"an error without a reason: {result}")
        if not (isinstance(error.get("index"), int) and error["index"] >= 0):
            raise Crash(f"an error without an index: {result}")
        if must:
            raise Crash(f"a valid record did not replay: {result}")
    elif must is False:
        raise Crash(f"a record that must fail replayed: {result}")


def run_replay(n: int, seed: int, crashes: Crashes, progress: Progress) -> Part:
    """The replay fuzzer for ``n`` inputs."""
    part = Part("replay")
    progress.label = "replay"
    rng = random.Random(f"replay-{seed}")
    pool = record_pool(rng, 300)
    begun = time.monotonic()
    # a file per input: in memory where there is a tmpfs (a disk file costs more than a replay)
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="euchre-fuzz-", dir=shm) as folder:
        path = Path(folder) / "record.json"
        for _ in range(n):
            kind, data, must = replay_input(rng, pool)
            try:
                part.answers[check_replay(path, data, must, rng)] += 1
            except Exception:
                crashes.save(part, kind, data, traceback.format_exc())
            part.kinds[kind] += 1
            part.inputs += 1
            progress.tick()
    part.seconds = time.monotonic() - begun
    return part


# -- the protocol fuzzer: the messages ------------------------------------------------------------

TYPES = ["hello", "action", "hint", "ping", "HELLO", "state", "", "error", "pong", "notice"]
FIELDS = ["type", "token", "action", "seq", "seat", "table", "extra"]
#: Seat tokens written as placeholders, filled in with the table's real tokens.
TOKENS = ["<token0>", "<token1>", "<token2>", "<token3>"]


@dataclass
class Context:
    """What the sender knows: the table's real tokens, its latest state."""

    tokens: list[str]
    seq: int  # the seq of the sender's latest state (0 before any)
    legal: list[str]  # the legal actions of the seat to act, as its latest state says
    to_act: int | None


def fill(value: Any, tokens: list[str]) -> Any:
    """``value`` with token placeholders replaced by real tokens (other tables' for
    seats the table does not have)."""
    if isinstance(value, str) and value in TOKENS:
        i = TOKENS.index(value)
        return tokens[i] if i < len(tokens) else "another-table-" + "x" * 26
    return value


def protocol_input(rng: random.Random, ctx: Context) -> tuple[str, str]:
    """One message to send: (kind, text)."""
    roll = rng.random()
    if roll < 0.10:
        t = text(rng, 200)
        return "text", t
    if roll < 0.22:
        return "json", dumps(json_value(rng, 12, FIELDS))
    if roll < 0.55:
        kind = rng.choice(TYPES)
        base: dict[str, Any] = {"type": kind}
        if kind in ("hello", "action", "hint") or rng.random() < 0.1:
            base["token"] = fill(
                rng.choice([None, rng.choice(TOKENS), text(rng, 40), json_value(rng, 4)]),
                ctx.tokens,
            )
        if kind == "action" or rng.random() < 0.1:
            base["action"] = rng.choice(
                [
                    rng.choice(FUZZ_ACTIONS),
                    rng.choice([*ctx.legal, "pass"]),
                    text(rng, 40),
                    json_value(rng, 4),
                ]
            )
            base["seq"] = rng.choice(
                [ctx.seq + rng.randint(-3, 3), rng.randint(-5, 10**6), json_value(rng, 3)]
            )
        for name in rng.sample(FIELDS, rng.randint(0, 2)):
            if rng.random() < 0.5:
                base.pop(name, None)
            else:
                base[name] = fill(json_value(rng, 6, FIELDS), ctx.tokens)
        return "message", dumps(base)
    if roll < 0.80:
        who = rng.randrange(len(ctx.tokens))
        action = rng.choice(
            [rng.choice(FUZZ_ACTIONS), rng.choice([*ctx.legal, "pass"]), rng.choice(CARDS)]
        )
        if rng.random() < 0.3:
            action = rng.choice(["play", "pickup", "discard", "keep", "call", "name"]) + " "
            action += " ".join(rng.choice(CARDS) for _ in range(rng.randint(1, 5)))
        seq = ctx.seq + rng.choice([0, 0, 0, -1, 1, -2, 2, 3, -3])
        message = {"type": "action", "token": ctx.tokens[who], "action": action, "seq": seq}
        return "action", dumps(message)
    if roll < 0.88:
        valid = {"type": "action", "token": rng.choice(ctx.tokens), "action": "pass", "seq": 0}
        valid["seq"] = ctx.seq
        if ctx.legal:
            valid["action"] = rng.choice(ctx.legal)
        return "mutated", mutate_text(rng, dumps(valid))
    if roll < 0.92:
        token = rng.choice([None, rng.choice(ctx.tokens), text(rng, 40), "\ud800"])
        return "hello", dumps({"type": rng.choice(["hello", "hello", "HELLO"]), "token": token})
    if roll < 0.96:
        return "hint", dumps({"type": "hint", "token": rng.choice([*ctx.tokens, "x" * 32])})
    return "nasty", nasty_message(rng)


def nasty_message(rng: random.Random) -> str:
    """Deep nesting, huge numbers, surrogate escapes, messages over 16 KiB."""
    pick = rng.randrange(8)
    if pick == 0:
        return "[" * rng.choice([100, 1000, 5000, 10_000])
    if pick == 1:
        return '{"a":' * rng.choice([100, 1000, 3000])
    if pick == 2:
        return '{"type": "action", "seq": ' + "9" * rng.choice([4300, 4301, 5000]) + "}"
    if pick == 3:
        return rng.choice(['{"type": "ping\\ud800"}', '{"type": "hello", "token": "\\ud800"}'])
    if pick == 4:
        return json.dumps({"type": "ping", "pad": "x" * rng.randint(16 * 1024 - 30, 40_000)})
    if pick == 5:
        return '{"type": "ping", "type": "hello", "token": null}'
    if pick == 6:
        return rng.choice(["NaN", "Infinity", "-Infinity", "1e999", '"\\u0000"', "{}", "[]"])
    return '{"type": "action", "token": "' + "A" * 15_000 + '", "action": "pass", "seq": 0}'


def expected_answer(text: str) -> str:
    """A rough label of a message for the figures (not a check)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return "not-json"
    if isinstance(data, dict) and isinstance(data.get("type"), str):
        return data["type"] if data["type"] in ("hello", "action", "hint", "ping") else "other"
    return "not-object"


def answer_of(raw: str) -> dict[str, Any]:
    """A message the server sent: a JSON object with a ``type`` (else Crash)."""
    try:
        message = json.loads(raw)
    except ValueError as exc:
        raise Crash(f"an answer is not JSON: {raw[:200]!r}") from exc
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Crash(f"an answer is not a message: {raw[:200]!r}")
    if message["type"] == "error" and not (
        isinstance(message.get("code"), str) and isinstance(message.get("message"), str)
    ):
        raise Crash(f"an error without code and message: {raw[:200]!r}")
    return message


# -- the protocol fuzzer in process ---------------------------------------------------------------

TABLE_RULES: list[tuple[str, dict[str, Any]]] = [
    ("cutthroat", {"target": 5}),
    ("partnership", {"target": 5}),
    ("cutthroat", {"deck": 25, "target": 5, "dealer_pickup": "mandatory"}),
    ("partnership", {"deck": 32, "stick_the_dealer": True, "target": 5}),
    ("cutthroat", {"dummy_decline_is_alone": True, "target": 5}),
]
#: Inputs a finished table gets before it is replaced by a new one.
OVER_FOR = 2000


class Logged(logging.Handler):
    """Keeps the server's log records of level ERROR and above."""

    def __init__(self) -> None:
        """Nothing logged yet."""
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep one record."""
        self.records.append(self.format(record))


class InProcess:
    """Six tables of a real ``TableServer`` (SQLite) and fake clients on them."""

    def __init__(self, server: Any, rng: random.Random) -> None:
        """Use ``server`` (started)."""
        from euchre.web.live import Client

        class FuzzClient(Client):
            """A client without a socket and without the rate limit."""

            def allow(self) -> bool:
                return True

        self.client_class = FuzzClient
        self.server = server
        self.rng = rng
        self.tables: list[dict[str, Any]] = []
        self.made = 0  # tables made
        self.over = 0  # matches played to their end

    async def new_table(self, waiting: bool = False) -> dict[str, Any]:
        """A table of people only (nothing moves unless a client acts), started
        unless ``waiting`` (then one seat is taken and it waits for the others)."""
        variant, options = TABLE_RULES[self.made % len(TABLE_RULES)]
        self.made += 1
        rules = Rules.from_options(variant, options)
        live = await self.server.create(rules, None, "fuzz")
        seats = 1 if waiting else rules.seats
        tokens = [await live.join(s, f"F{s}") for s in range(seats)]
        if not waiting:
            await live.start(tokens[0])
        table: dict[str, Any] = {"live": live, "tokens": tokens, "over_for": 0}
        table["clients"] = [await self.connect(live, t) for t in tokens]
        table["clients"].append(await self.connect(live, None))  # a spectator
        table["clients"].append(await self.connect(live, None, hello=False))
        table["roles"] = [*tokens, None, False]
        return table

    async def connect(self, live: Any, token: str | None, hello: bool = True) -> Any:
        """A fake client on ``live`` (said hello with ``token`` unless not ``hello``)."""
        client = self.client_class(None)  # type: ignore[arg-type]
        client.latest = None
        live.clients.add(client)
        if hello:
            await self.server.handle(live, client, json.dumps({"type": "hello", "token": token}))
            for raw in self.drain(client):
                message = answer_of(raw)
                if message["type"] == "error":
                    raise Crash(f"a proper hello was refused: {message}")
        return client

    def drain(self, client: Any) -> list[str]:
        """The messages queued for ``client`` (and its latest state kept)."""
        out = []
        queue = client.outbox
        while not queue.empty():
            raw = queue.get_nowait()
            if raw is None:
                continue
            out.append(raw)
            if raw.startswith('{"type": "state"'):
                client.latest = json.loads(raw)
        return out

    async def setup(self) -> None:
        """The first tables: one waiting, five started."""
        self.tables = [await self.new_table(waiting=True)]
        for _ in range(5):
            self.tables.append(await self.new_table())

    def context(self, table: dict[str, Any], client: Any) -> Context:
        """What ``client`` knows (its latest state; the seat to act's legal actions)."""
        latest = client.latest or {}
        seq = latest.get("seq", 0)
        legal: list[str] = []
        to_act = None
        public = latest.get("public")
        if public:
            to_act = public.get("to_act")
        for other in table["clients"]:
            view = (other.latest or {}).get("view")
            if view and view.get("to_act") == view.get("seat") and view.get("legal"):
                legal = view["legal"]
        return Context(list(table["tokens"]), seq if isinstance(seq, int) else 0, legal, to_act)

    async def one(self, part: Part, crashes: Crashes) -> None:
        """Run one input on a random table, from a random client."""
        rng = self.rng
        t = rng.randrange(len(self.tables))
        table = self.tables[t]
        live = table["live"]
        i = rng.randrange(len(table["clients"]))
        client = table["clients"][i]
        legal_move = None
        if rng.random() < 0.012:
            # the seat to act plays a legal move (the matches go on to their end)
            for j, other in enumerate(table["clients"]):
                view = (other.latest or {}).get("view")
                if view and view.get("to_act") == view.get("seat") and view.get("legal"):
                    i, client = j, other
                    legal_move = {
                        "type": "action",
                        "token": table["roles"][j],
                        "action": rng.choice(view["legal"]),
                        "seq": other.latest["seq"],
                    }
        if legal_move is not None:
            kind, message_text = "legal", json.dumps(legal_move)
        else:
            kind, message_text = protocol_input(rng, self.context(table, client))
        before = live.game.seq
        error_log = len(self.log.records)
        try:
            await self.server.handle(live, client, message_text)
            got = self.drain(client)
            others = [raw for c in table["clients"] if c is not client for raw in self.drain(c)]
            answers = [answer_of(raw) for raw in got]
            if not answers:
                raise Crash("no answer")
            for a in answers:
                part.answers[a.get("code", a["type"])] += 1
            refused = any(a["type"] == "error" for a in answers)
            if refused and live.game.seq != before:
                raise Crash(f"a refused message changed the table: {answers}")
            if live.game.seq == before and others:
                raise Crash(f"others heard of it: {others[:2]}")
            if legal_move is not None and (refused or live.game.seq == before):
                raise Crash(f"a legal move was refused: {answers}")
            if len(self.log.records) > error_log:
                raise Crash("the server logged: " + "\n".join(self.log.records[error_log:]))
        except Exception:
            crashes.save(part, kind, message_text, traceback.format_exc())
            for c in table["clients"]:
                self.drain(c)
        part.kinds[kind] += 1
        part.inputs += 1
        # a hello may have changed the client's seat: give the role a fresh client
        if '"hello"' in message_text or "HELLO" in message_text or kind == "mutated":
            role = table["roles"][i]
            live.clients.discard(client)
            fresh = await self.connect(live, role or None, hello=role is not False)
            table["clients"][i] = fresh
        if live.game.status == "over":
            self.over += table["over_for"] == 0
            table["over_for"] += 1
            if table["over_for"] > OVER_FOR:
                for c in table["clients"]:
                    live.clients.discard(c)
                self.tables[t] = await self.new_table()

    log: Logged


async def run_inprocess(n: int, seed: int, crashes: Crashes, progress: Progress) -> Part:
    """The in-process protocol fuzzer for ``n`` inputs."""
    from euchre.web.server import TableServer
    from euchre.web.store import open_store

    part = Part("protocol")
    progress.label = "protocol (in process)"
    log = Logged()
    web_log = logging.getLogger("euchre.web")
    web_log.addHandler(log)
    begun = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="euchre-fuzz-") as folder:
        store = open_store(f"sqlite:///{Path(folder) / 'fuzz.db'}")
        server = TableServer(store, bot_delay=0.0, bot_timeout=0.5, bot_workers=0)
        await server.start()
        try:
            fuzz = InProcess(server, random.Random(f"protocol-{seed}"))
            fuzz.log = log
            await fuzz.setup()
            for _ in range(n):
                await fuzz.one(part, crashes)
                progress.tick()
            part.notes["tables"] = fuzz.made
            part.notes["matches_over"] = fuzz.over
        finally:
            await server.stop()
            web_log.removeHandler(log)
    part.seconds = time.monotonic() - begun
    return part


# -- the protocol fuzzer over WebSockets ----------------------------------------------------------


@dataclass
class Socket:
    """One fuzzing WebSocket: its role, what it sent and got."""

    role: str | bool | None  # a seat token, None (spectator) or False (never said hello)
    ws: Any = None
    sent: int = 0  # every message sent (inputs and the harness's hellos)
    got: int = 0
    latest: dict[str, Any] | None = None
    recent: list[str] = field(default_factory=list)  # the last inputs (for a crash file)
    closed_by_us: bool = False
    dropped: str | None = None
    timed_out: bool = False  # closed by the server: no good hello in time (code 4408)
    last_code: str | None = None  # the code of the last error it got
    next: float = 0.0


async def run_websockets(
    n: int, seed: int, crashes: Crashes, progress: Progress, rate: float, tables: int
) -> Part:
    """The protocol fuzzer over real WebSockets for ``n`` inputs."""
    import httpx
    from websockets.asyncio.client import connect

    from webserver import start_server

    part = Part("websocket")
    progress.label = "protocol (WebSockets)"
    rng = random.Random(f"websocket-{seed}")
    begun = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="euchre-fuzz-") as folder:
        server = start_server(f"sqlite:///{Path(folder) / 'ws.db'}")
        with server:
            async with httpx.AsyncClient(base_url=server.url, trust_env=False, timeout=30) as api:
                table_tokens: list[tuple[str, list[str]]] = []
                for k in range(tables):
                    variant, options = TABLE_RULES[k % len(TABLE_RULES)]
                    body = {"rules": {"variant": variant, **options}, "name": "fuzz"}
                    table_id = (await api.post("/api/tables", json=body)).json()["table_id"]
                    seats = 1 if k == 0 else (3 if variant == "cutthroat" else 4)
                    tokens = []
                    for s in range(seats):
                        joined = await api.post(
                            f"/api/tables/{table_id}/join", json={"seat": s, "name": f"F{s}"}
                        )
                        tokens.append(joined.json()["token"])
                    if k:
                        started = await api.post(
                            f"/api/tables/{table_id}/start", json={"token": tokens[0]}
                        )
                        assert started.status_code == 200, started.text
                    table_tokens.append((table_id, tokens))
                sockets: list[tuple[str, list[str], Socket]] = []
                for table_id, tokens in table_tokens:
                    for role in [*tokens, None, False]:
                        sockets.append((table_id, tokens, Socket(role)))
                quota = [n // len(sockets) + (i < n % len(sockets)) for i in range(len(sockets))]
                runs = [
                    ws_socket(
                        server.ws_url,
                        table_id,
                        tokens,
                        sock,
                        count,
                        random.Random(rng.random()),
                        rate,
                        part,
                        crashes,
                        progress,
                        connect,
                    )
                    for (table_id, tokens, sock), count in zip(sockets, quota, strict=True)
                ]
                await asyncio.gather(*runs)
                health = await api.get("/api/health")
                if health.status_code != 200:
                    crashes.save(part, "health", "", f"/api/health: {health.status_code}")
            log = server.log()
        part.notes["sockets"] = len(sockets)
        if "Traceback" in log or " ERROR " in log or "ERROR:" in log:
            crashes.save(part, "server-log", "", log[-20_000:])
    part.seconds = time.monotonic() - begun
    return part


async def ws_socket(
    ws_url: str,
    table_id: str,
    tokens: list[str],
    sock: Socket,
    count: int,
    rng: random.Random,
    rate: float,
    part: Part,
    crashes: Crashes,
    progress: Progress,
    connect: Callable[..., Any],
) -> None:
    """Send ``count`` fuzz inputs on one socket, paced at ``rate`` a second."""
    loop = asyncio.get_running_loop()

    async def pace() -> None:
        now = loop.time()
        sock.next = max(sock.next, now) + 1 / rate
        if sock.next - 1 / rate > now:
            await asyncio.sleep(sock.next - 1 / rate - now)

    async def reader() -> None:
        try:
            async for raw in sock.ws:
                sock.got += 1
                try:
                    message = answer_of(raw if isinstance(raw, str) else raw.decode())
                except Crash as exc:
                    crashes.save(part, "answer", "\n".join(sock.recent), str(exc))
                    continue
                code = message.get("code")
                part.answers[code or message["type"]] += 1
                sock.last_code = code
                if message["type"] == "state":
                    sock.latest = message
        except Exception as exc:
            rcvd = getattr(exc, "rcvd", None)
            if getattr(rcvd, "code", None) == 4408 and sock.last_code == "timeout":
                sock.timed_out = True  # documented: no good hello within --hello-timeout
            elif not sock.closed_by_us:
                sock.dropped = repr(exc)
        if not (sock.closed_by_us or sock.timed_out) and sock.dropped is None:
            sock.dropped = "the server closed the socket"

    async def hello() -> None:
        await pace()
        sock.sent += 1
        await sock.ws.send(json.dumps({"type": "hello", "token": sock.role}))

    async def open_socket() -> asyncio.Task[None]:
        sock.ws = await connect(f"{ws_url}/ws/{table_id}", proxy=None, max_size=2**22)
        sock.sent = sock.got = 0
        sock.timed_out = False
        sock.last_code = None
        sock.latest = None
        reading = asyncio.create_task(reader())
        if sock.role is not False:
            await hello()
        return reading

    task = await open_socket()
    sent_kinds: list[str] = []  # the kinds of the inputs sent on this connection
    done = 0
    while done < count:
        if sock.timed_out:
            # the server closed the socket for want of a good hello (documented): the
            # inputs it did not answer are not counted, and are sent again on a new one
            await task
            lost = min(len(sent_kinds), max(0, sock.sent - (sock.got - 1)))
            for kind in sent_kinds[len(sent_kinds) - lost :]:
                part.kinds[kind] -= 1
            part.inputs -= lost
            done -= lost
            progress.tick(-lost)
            part.notes["hello_timeouts"] = part.notes.get("hello_timeouts", 0) + 1
            sent_kinds = []
            task = await open_socket()
        latest = sock.latest or {}
        view = latest.get("view") or {}
        legal = view.get("legal") or []
        seq = latest.get("seq", 0)
        ctx = Context(tokens, seq if isinstance(seq, int) else 0, legal, view.get("to_act"))
        if legal and view.get("to_act") == view.get("seat") and rng.random() < 0.01:
            msg = {"type": "action", "token": sock.role, "action": rng.choice(legal), "seq": seq}
            kind, message_text = "legal", json.dumps(msg)
        else:
            kind, message_text = protocol_input(rng, ctx)
        binary = rng.random() < 0.05
        data: str | bytes = message_text
        if binary:
            kind = "binary"
            data = message_text.encode()
            if rng.random() < 0.5:
                data = mutate_bytes(rng, data)
        sock.recent = [*sock.recent[-19:], message_text]
        await pace()
        if sock.dropped is not None:
            break
        if sock.timed_out:
            continue
        try:
            await sock.ws.send(data)
        except Exception as exc:
            await asyncio.sleep(0.2)  # the reader learns why the socket closed
            if sock.timed_out:
                continue
            sock.dropped = sock.dropped or repr(exc)
            break
        sock.sent += 1
        sent_kinds.append(kind)
        part.kinds[kind] += 1
        part.inputs += 1
        done += 1
        progress.tick()
        if sock.role is not False and ('"hello"' in message_text or "HELLO" in message_text):
            with contextlib.suppress(Exception):
                await hello()  # back to its own seat (or a spectator's)
    # every message is answered: wait for the answers, then a ping must be answered
    deadline = loop.time() + 30
    while sock.got < sock.sent and loop.time() < deadline and sock.dropped is None:
        if sock.timed_out:
            break
        await asyncio.sleep(0.05)
    if sock.timed_out:
        task = await open_socket()  # the last check on a socket that is served
    if sock.dropped is None and sock.got < sock.sent:
        crashes.save(
            part, "unanswered", "\n".join(sock.recent), f"sent {sock.sent}, got {sock.got}"
        )
    if sock.dropped is None:
        got = sock.got
        await pace()
        await sock.ws.send(json.dumps({"type": "ping"}))
        deadline = loop.time() + 10
        while sock.got == got and loop.time() < deadline and sock.dropped is None:
            await asyncio.sleep(0.05)
        if sock.got == got and sock.dropped is None:
            crashes.save(part, "no-pong", "\n".join(sock.recent), "a ping got no answer")
    if sock.dropped is not None:
        crashes.save(part, "dropped", "\n".join(sock.recent), sock.dropped)
    sock.closed_by_us = True
    with contextlib.suppress(Exception):
        await sock.ws.close()
    await task


# -- the command ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzers; print the figures (or one JSON object)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--inputs", type=int, default=1_000_000, help="inputs in all (1000000)")
    ap.add_argument(
        "--replay-share", type=float, default=0.5, help="share of the replay fuzzer (0.5)"
    )
    ap.add_argument(
        "--ws-share",
        type=float,
        default=0.1,
        help="share of the protocol inputs sent over real WebSockets (0.1)",
    )
    ap.add_argument("--ws-tables", type=int, default=8, help="tables of the WebSocket part (8)")
    ap.add_argument(
        "--ws-rate",
        type=float,
        default=16.0,
        help="messages a second per socket, under the server's limit (16)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--crash-dir",
        type=Path,
        default=Path("fuzz-crashes"),
        help="where each crashing input is saved (fuzz-crashes/)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    if args.inputs < 1:
        ap.error("--inputs must be 1 or more")
    if not (0 <= args.replay_share <= 1 and 0 <= args.ws_share <= 1):
        ap.error("--replay-share and --ws-share are from 0 to 1")
    if args.ws_tables < 2 or args.ws_rate <= 0:
        ap.error("--ws-tables must be 2 or more and --ws-rate over 0")

    n_replay = round(args.inputs * args.replay_share)
    n_ws = round((args.inputs - n_replay) * args.ws_share)
    n_inproc = args.inputs - n_replay - n_ws
    crashes = Crashes(args.crash_dir)
    progress = Progress(args.inputs, args.quiet, crashes)
    begun = time.monotonic()
    parts: list[Part] = []
    logging.getLogger("euchre.web").setLevel(logging.WARNING)
    if n_replay:
        parts.append(run_replay(n_replay, args.seed, crashes, progress))
    if n_inproc:
        parts.append(asyncio.run(run_inprocess(n_inproc, args.seed, crashes, progress)))
    if n_ws:
        parts.append(
            asyncio.run(
                run_websockets(n_ws, args.seed, crashes, progress, args.ws_rate, args.ws_tables)
            )
        )
    progress.tick(0, final=True)
    total = sum(p.inputs for p in parts)
    result: dict[str, Any] = {
        "inputs": total,
        "crashes": crashes.count,
        "seconds": round(time.monotonic() - begun, 1),
        "seed": args.seed,
        **{p.name: p.figures() for p in parts},
    }
    if crashes.count:
        result["crash_dir"] = str(args.crash_dir)
        result["first_crashes"] = crashes.first
    if args.json:
        print(json.dumps(result))
    else:
        print(f"inputs  {total} (asked {args.inputs})")
        print(
            f"crashes {crashes.count}" + (f" (saved in {args.crash_dir})" if crashes.count else "")
        )
        print(f"seconds {result['seconds']}")
        for p in parts:
            f = p.figures()
            print(f"{p.name:10} {f['inputs']} inputs, {f['per_s']}/s, {f['crashes']} crashes")
            print(f"{'':10} kinds {f['kinds']}")
            print(f"{'':10} answers {f['answers']}")
        for line in crashes.first:
            print(f"crash: {line}")
    return 1 if crashes.count else 0


if __name__ == "__main__":
    sys.exit(main())
