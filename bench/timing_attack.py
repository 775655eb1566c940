"""Can a spectator tell a bot's forced plays from the time its moves take?

Starts ``euchre serve`` (loopback, ``--bot-delay PACE``), seats one scripted
person (seat 0, a seeded random legal action after ``--think`` seconds) with
bots of ``--bot-level`` in the other seats, and lets a spectator socket note
when each state message arrives. Once ``--hands`` hands are over, each bot
move is classified from the hand records as *forced* (one legal action) or
not, and its time is the gap between its state message and the one before.

Printed: the bot moves seen, how many were forced, the gaps of each class
(median and spread), and how well the best threshold on the gap tells the
two apart — its accuracy next to the base rate of always guessing the larger
class, and the AUC (0.5: the time says nothing; 1.0: every forced move is
faster than every other). docs/security.md quotes the figures. Usage::

    python bench/timing_attack.py --hands 12 --pace 0.3 --bot-level hard
    python bench/timing_attack.py --variant partnership --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from euchre.record import read_hand
from load import Server  # bench/load.py: euchre serve in a process of its own


@dataclass
class Seen:
    """A state message at the spectator: when, and where the table was."""

    at: float
    hands: int
    history: int
    seq: int


@dataclass
class Watch:
    """What the spectator saw."""

    seen: list[Seen] = field(default_factory=list)


async def spectator(ws: ClientConnection, watch: Watch, stop: asyncio.Event) -> None:
    """Note the arrival of every state message until ``stop``."""
    await ws.send(json.dumps({"type": "hello", "token": None}))
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), 0.2)
        except TimeoutError:
            continue
        at = time.monotonic()
        message = json.loads(raw)
        if message.get("type") != "state":
            continue
        public = message.get("public") or {}
        watch.seen.append(
            Seen(
                at,
                message["table"]["hands_played"],
                len(public.get("history") or []),
                message["seq"],
            )
        )


async def person(
    ws: ClientConnection,
    token: str,
    rng: random.Random,
    think: float,
    hands: int,
    stop: asyncio.Event,
    progress: bool,
) -> None:
    """Play seat 0 at random until ``hands`` hands are over; then set ``stop``."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    acted = shown = -1
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "error":
            raise RuntimeError(f"the server refused the person: {message}")
        if message.get("type") != "state":
            continue
        played = message["table"]["hands_played"]
        if progress and played != shown:
            shown = played
            print(f"\rhands {played}/{hands}", end="", file=sys.stderr, flush=True)
        if played >= hands or message["table"]["status"] == "over":
            stop.set()
            return
        view = message["view"]
        if view and view["to_act"] == 0 and view["legal"] and message["seq"] != acted:
            await asyncio.sleep(think)
            acted = message["seq"]
            action = rng.choice(view["legal"])
            await ws.send(
                json.dumps(
                    {"type": "action", "token": token, "action": action, "seq": message["seq"]}
                )
            )


def bot_moves(watch: Watch, records: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    """(gap, forced) of every bot move the spectator saw."""
    out = []
    for before, after in zip(watch.seen, watch.seen[1:], strict=False):
        if after.hands == before.hands + 1:
            hand, index = before.hands, before.history  # the last action of that hand
        elif after.hands == before.hands and after.history == before.history + 1:
            hand, index = after.hands, after.history - 1
        else:
            continue  # not one move (a new deal shown on its own, a skipped message)
        if hand >= len(records):
            continue
        record = records[hand]
        actions = record["actions"]
        if index >= len(actions):
            continue
        seat = int(actions[index].split()[0])
        if seat == 0:
            continue  # the person's move
        state = read_hand({**record, "actions": actions[:index]})
        forced = len(state.legal_actions()) == 1
        out.append((after.at - before.at, forced))
    return out


def separation(moves: list[tuple[float, bool]]) -> dict[str, float]:
    """The best threshold rule's accuracy ("forced if the gap is below t"), the
    base rate, and the AUC of the gap as a test of forced."""
    forced = [g for g, f in moves if f]
    free = [g for g, f in moves if not f]
    n = len(moves)
    base = max(len(forced), len(free)) / n if n else 0.0
    best = base
    for t in sorted({g for g, _ in moves}):
        right = sum(1 for g in forced if g <= t) + sum(1 for g in free if g > t)
        best = max(best, right / n)
    pairs = len(forced) * len(free)
    wins = sum((1.0 if a < b else 0.5 if a == b else 0.0) for a in forced for b in free)
    return {"accuracy": best, "base_rate": base, "auc": wins / pairs if pairs else 0.5}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play and watch one table; the figures."""
    folder = Path(tempfile.mkdtemp(prefix="euchre-timing-"))
    server = Server(
        f"sqlite:///{folder / 'euchre.db'}",
        ["--bot-delay", str(args.pace), "--bot-workers", str(args.bot_workers)],
    )
    try:
        seats = 3 if args.variant == "cutthroat" else 4
        async with httpx.AsyncClient(base_url=server.url, trust_env=False, timeout=10) as api:
            body = {
                "rules": {"variant": args.variant, "target": 1000},
                "bots": [None] + [args.bot_level] * (seats - 1),
            }
            created = (await api.post("/api/tables", json=body)).json()
            table_id = created["table_id"]
            joined = await api.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "p"})
            token = joined.json()["token"]
            watch, stop = Watch(), asyncio.Event()
            url = f"{server.ws_url}/ws/{table_id}"
            async with connect(url, proxy=None) as ws_p, connect(url, proxy=None) as ws_s:
                watching = asyncio.create_task(spectator(ws_s, watch, stop))
                await asyncio.sleep(0.2)
                started = time.monotonic()
                await api.post(f"/api/tables/{table_id}/start", json={"token": token})
                await person(
                    ws_p,
                    token,
                    random.Random(args.seed),
                    args.think,
                    args.hands,
                    stop,
                    not args.json,
                )
                await watching
            seconds = time.monotonic() - started
            records = []
            for index in range(args.hands):
                answer = await api.get(f"/api/tables/{table_id}/hands/{index}")
                if answer.status_code != 200:
                    break
                records.append(answer.json())
    finally:
        server.stop()
    if not args.json:
        print(file=sys.stderr)
    moves = bot_moves(watch, records)
    forced = [g for g, f in moves if f]
    free = [g for g, f in moves if not f]

    def spread(gaps: list[float]) -> dict[str, float]:
        if not gaps:
            return {"median_ms": 0.0, "min_ms": 0.0, "max_ms": 0.0}
        return {
            "median_ms": round(statistics.median(gaps) * 1000, 1),
            "min_ms": round(min(gaps) * 1000, 1),
            "max_ms": round(max(gaps) * 1000, 1),
        }

    return {
        "variant": args.variant,
        "bot_level": args.bot_level,
        "pace_s": args.pace,
        "hands": len(records),
        "seconds": round(seconds, 1),
        "bot_moves": len(moves),
        "forced": len(forced),
        "forced_gap": spread(forced),
        "other_gap": spread(free),
        **{k: round(v, 3) for k, v in separation(moves).items()},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=12, help="hands to watch (default 12)")
    p.add_argument("--pace", type=float, default=0.3, help="the server's --bot-delay (s)")
    p.add_argument("--bot-level", default="hard", help="the bots' level (default hard)")
    p.add_argument("--bot-workers", type=int, default=1, help="the server's --bot-workers")
    p.add_argument("--variant", choices=("cutthroat", "partnership"), default="cutthroat")
    p.add_argument("--think", type=float, default=0.05, help="the person's think time (s)")
    p.add_argument("--seed", type=int, default=18, help="the person's seed")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if args.hands < 1:
        p.error(f"--hands must be at least 1, not {args.hands}")
    if not 0 <= args.pace <= 10:
        p.error(f"--pace must be from 0 to 10 seconds, not {args.pace}")
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>12}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
