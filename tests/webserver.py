"""Start a real `euchre serve` process for the web tests.

``start_server(db_url)`` runs ``python -m euchre serve --port 0 --db DB_URL
--bot-delay 0 --bot-workers 1`` (plus ``extra_args``), reads the address it prints, and waits
until ``/api/health`` answers. The returned :class:`ServerProcess` has ``.url``
(``http://127.0.0.1:PORT``), ``.ws_url``, ``.stop()`` (SIGTERM, then wait) and
``.kill()`` (SIGKILL); it is a context manager that stops the server on exit.
Table creation is not rate-limited unless a test asks for the real limits
(``loose_limits=False``, or its own ``--create-rate`` ... in ``extra_args``):
the tests create many tables from one address.
Its output (stdout and stderr) is kept in ``.log()`` for failure messages.

Also for those tests: :class:`Api` (the JSON API over httpx), :class:`TableClient`
(one WebSocket of the protocol, keeping every message it received) and
:func:`check_messages` (every state message a client got holds exactly its
seat's view, or the public part, of the real hand — no hidden card).

Shared by the SQLite, PostgreSQL and browser tests.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
from websockets.sync.client import connect

from euchre import Action
from euchre.record import read_hand
from euchre.view import View, public_json

__all__ = ["Api", "ServerProcess", "TableClient", "check_messages", "start_server"]

_ADDRESS = re.compile(r"open (http://\S+?)/? in a browser")
#: The options that lift the limits on table creation (0: no limit).
LOOSE_LIMITS = (
    "--create-rate",
    "0",
    "--create-rate-total",
    "0",
    "--max-waiting-per-address",
    "0",
    "--max-waiting",
    "0",
)


class ServerProcess:
    """A running `euchre serve` process."""

    def __init__(
        self,
        proc: subprocess.Popen[str],
        url: str,
        lines: list[str],
        reader: threading.Thread | None = None,
    ) -> None:
        """Wrap a started process serving at ``url`` (``reader``: the thread
        collecting its output into ``lines``)."""
        self.proc = proc
        self._reader = reader
        self.url = url.rstrip("/")
        self.ws_url = "ws" + self.url[len("http") :]
        self._lines = lines

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.proc.pid

    def log(self) -> str:
        """Everything the server printed so far."""
        return "".join(self._lines)

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM and wait for the exit (SIGKILL after ``timeout``); the exit status.

        After its graceful shutdown uvicorn re-raises the SIGTERM it caught, so a
        clean stop ends with status ``-signal.SIGTERM``."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._drain(1.0)
        return self.proc.returncode

    def _drain(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` s) until the process's last output is in
        ``log()``: the reader thread may still be behind when the process has
        exited (it ends when the last holder of the pipe, a worker too, is gone)."""
        if self._reader is not None:
            self._reader.join(timeout)

    def kill(self) -> None:
        """SIGKILL: the server dies at once (nothing is flushed or closed)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._drain(1.0)

    def __enter__(self) -> ServerProcess:
        """The server itself."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()


def _pump(stream: object, lines: list[str], found: threading.Event, box: list[str]) -> None:
    assert hasattr(stream, "readline")
    for line in iter(stream.readline, ""):
        lines.append(line)
        m = _ADDRESS.search(line)
        if m and not box:
            box.append(m.group(1))
            found.set()


def start_server(
    db_url: str | None,
    port: int | None = None,
    extra_args: Sequence[str] = (),
    *,
    timeout: float = 30.0,
    bot_delay: float = 0.0,
    bot_workers: int = 1,
    loose_limits: bool = True,
) -> ServerProcess:
    """Start ``euchre serve`` on ``db_url`` and wait until it answers ``/api/health``.

    ``db_url`` None: no ``--db`` (the server's default, or ``--data`` in ``extra_args``).
    ``port`` None (or 0) lets the server pick a free port. ``extra_args`` go on
    the command line after the defaults (a later ``--bot-delay`` wins).
    ``bot_workers``: the server's ``--bot-workers`` (the tests' default, one
    worker process: the bots think in a pool, as in production, at little cost;
    0: in threads). ``loose_limits``: lift the limits on table creation
    (:data:`LOOSE_LIMITS`, before ``extra_args``, which may set any of them)."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = dict(os.environ)
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    cmd = [
        sys.executable,
        "-m",
        "euchre",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port or 0),
        *(("--db", db_url) if db_url is not None else ()),
        "--bot-delay",
        str(bot_delay),
        "--bot-workers",
        str(bot_workers),
        *(LOOSE_LIMITS if loose_limits else ()),
        *extra_args,
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    lines: list[str] = []
    found = threading.Event()
    box: list[str] = []
    reader = threading.Thread(target=_pump, args=(proc.stdout, lines, found, box), daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    while not found.wait(0.05):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise RuntimeError("euchre serve did not start:\n" + "".join(lines))
    server = ServerProcess(proc, box[0], lines, reader)
    while True:
        try:
            answer = httpx.get(server.url + "/api/health", timeout=2, trust_env=False)
            if answer.json() == {"ok": True}:
                return server
        except (httpx.HTTPError, ValueError):
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError("euchre serve is not healthy:\n" + server.log())
        time.sleep(0.05)


# -- talking to the server ------------------------------------------------------------------


class Api:
    """The server's JSON API (no proxies from the environment)."""

    def __init__(self, url: str) -> None:
        """Talk to the server at ``url``."""
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, timeout=10, trust_env=False)

    def get(self, path: str) -> httpx.Response:
        """GET ``path``."""
        return self.http.get(path)

    def post(self, path: str, body: object) -> httpx.Response:
        """POST ``body`` as JSON to ``path``."""
        return self.http.post(path, json=body)

    def create(
        self,
        rules: dict[str, Any] | None = None,
        bots: list[str | None] | None = None,
        name: str | None = None,
    ) -> str:
        """Create a table; its id."""
        body: dict[str, Any] = {"rules": rules or {}}
        if bots is not None:
            body["bots"] = bots
        if name is not None:
            body["name"] = name
        answer = self.post("/api/tables", body)
        assert answer.status_code == 201, answer.text
        table_id: str = answer.json()["table_id"]
        return table_id

    def join(self, table_id: str, seat: int, name: str) -> str:
        """Take a seat; its token."""
        answer = self.post(f"/api/tables/{table_id}/join", {"seat": seat, "name": name})
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["token"]
        return token

    def start(self, table_id: str, token: str) -> dict[str, Any]:
        """Start the table; the summary."""
        answer = self.post(f"/api/tables/{table_id}/start", {"token": token})
        assert answer.status_code == 200, answer.text
        summary: dict[str, Any] = answer.json()
        return summary

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


#: Action texts a fuzzer sends: legal-looking, malformed, wrong case, too long
#: (tests/test_web_fuzz.py, bench/fuzz.py).
FUZZ_ACTIONS = (
    "pass",
    "order",
    "call H",
    "call X",
    "pickup 9C",
    "decline",
    "discard 9C",
    "alone",
    "keep",
    "keep AH KH 9S TD JC",
    "play JH",
    "play JK",
    "play 10S",
    "name H",
    "",
    " ",
    "\x00",
    "play",
    "pass pass",
    "PASS",
    "Play 10s",
    "keep ah kh 9s td jc",
    "x" * 101,
    "play " + "9C " * 40,
)


#: The pace of a scripted player's actions: under the server's limit of 20
#: messages a second (``web.live.RATE_PER_SECOND``), with room for a hint or a ping.
ACTIONS_PER_SECOND = 15.0


class TableClient:
    """One WebSocket on a table: says hello, keeps every message, acts."""

    def __init__(
        self, ws_url: str, table_id: str, token: str | None, *, hello: bool = True
    ) -> None:
        """Connect to ``/ws/{table_id}`` (and say hello with ``token``)."""
        self.table_id = table_id
        self.token = token
        self.ws = connect(
            f"{ws_url}/ws/{table_id}",
            proxy=None,
            open_timeout=10,
            max_size=4 * 1024 * 1024,
            legacy=True,
        )
        self.messages: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        self.acted_seq: int | None = None
        self.last_action = 0.0  # time.monotonic() of the last action sent
        if hello:
            self.send({"type": "hello", "token": token})

    @property
    def seat(self) -> int | None:
        """The seat of the latest state (None for a spectator)."""
        return None if self.latest is None else self.latest["seat"]

    def send(self, message: object) -> None:
        """Send a JSON message."""
        self.ws.send(json.dumps(message))

    def send_text(self, text: str) -> None:
        """Send raw text."""
        self.ws.send(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message (None after ``timeout`` seconds)."""
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        message: dict[str, Any] = json.loads(raw)
        self.messages.append(message)
        if message.get("type") == "state":
            self.latest = message
        return message

    def pump(self, timeout: float = 0.02) -> list[dict[str, Any]]:
        """Every message arriving within ``timeout`` (then whatever is already there)."""
        out = []
        message = self.recv(timeout)
        while message is not None:
            out.append(message)
            message = self.recv(0.001)
        return out

    def wait_for(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 15.0
    ) -> dict[str, Any]:
        """The first new message passing ``test`` (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message is not None and test(message):
                return message
        raise AssertionError(f"no such message within {timeout}s; last: {self.messages[-3:]}")

    def state(self, timeout: float = 15.0) -> dict[str, Any]:
        """The next state message."""
        return self.wait_for(lambda m: m.get("type") == "state", timeout)

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message, which must be an error."""
        message = self.recv(timeout)
        assert message is not None and message.get("type") == "error", message
        return message

    def my_turn(self) -> bool:
        """Whether the latest state asks this seat to act (and it has not yet)."""
        st = self.latest
        return bool(
            st is not None
            and st["view"] is not None
            and st["view"]["to_act"] == st["seat"]
            and st["view"]["legal"]
            and self.acted_seq != st["seq"]
        )

    def act(self, action: str) -> None:
        """Send ``action`` on the latest state, at most ``ACTIONS_PER_SECOND`` a
        second: with the bots answering in milliseconds a scripted player
        would otherwise outrun the server's rate limit (``rate_limited``)."""
        assert self.latest is not None
        wait = self.last_action + 1.0 / ACTIONS_PER_SECOND - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last_action = time.monotonic()
        self.acted_seq = self.latest["seq"]
        self.send(
            {"type": "action", "token": self.token, "action": action, "seq": self.latest["seq"]}
        )

    def close(self) -> None:
        """Close the socket."""
        self.ws.close()


def random_policy(rng: random.Random, *, eager: bool = False) -> Callable[[dict[str, Any]], str]:
    """A player choosing a random legal action of its view; ``eager``: order or call
    whenever it may, and as the Cutthroat maker always merge (the bare ``keep``)."""

    def choose(view: dict[str, Any]) -> str:
        legal: list[str] = view["legal"]
        if eager:
            for want in ("order", "keep"):
                if want in legal:
                    return want
            calls = [a for a in legal if a.startswith("call ")]
            if calls:
                return rng.choice(calls)
            if view["phase"] == "alone" and "pass" in legal:
                return "pass"
        if "keep" in legal and rng.random() < 0.6:
            return "keep"
        return rng.choice(legal)

    return choose


def play(
    players: Sequence[TableClient],
    watcher: TableClient,
    done: Callable[[dict[str, Any]], bool],
    policy: Callable[[dict[str, Any]], str],
    *,
    timeout: float = 30.0,
    on_turn: Callable[[TableClient], bool] | None = None,
) -> dict[str, Any]:
    """Let ``players`` act by ``policy`` until ``done(watcher's latest state)``.

    ``on_turn(player)`` (optional) runs when a player is to act; if it returns
    True the player does not act this time. No client may receive an error."""
    deadline = time.monotonic() + timeout
    while True:
        for client in (*players, watcher):
            errors = [m for m in client.pump(0.005) if m.get("type") == "error"]
            assert not errors, errors
        if watcher.latest is not None and done(watcher.latest):
            return watcher.latest
        assert time.monotonic() < deadline, f"the game did not get there: {watcher.latest}"
        for client in players:
            if client.my_turn():
                if on_turn is not None and on_turn(client):
                    continue
                assert client.latest is not None
                client.act(policy(client.latest["view"]))


# -- hidden information ---------------------------------------------------------------------

CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(?:[789TJQKA][CDHS]|JK)(?![0-9A-Z])")


def check_messages(client: TableClient, records: dict[int, dict[str, Any]]) -> int:
    """Check every state message ``client`` got during the hands in ``records``
    (hand index -> hand record, fetched once the hand is over).

    The message's hand is ``table.hands_played``; the engine replays that hand's
    record up to the message's history, and the message's ``view`` must equal
    that seat's engine view (for the maker in phase ``keep``, after the bare
    ``keep``: the merge, which no history shows, with the dummy), its ``public``
    must equal :func:`euchre.view.public_json`, and no card may appear
    anywhere in the message that the view (or, for a spectator, the public part)
    does not hold — but in ``last_hand``, the finished hand, public as its
    record is, whose review may name any card of its deal. Returns how many
    messages were checked."""
    checked = 0
    for message in client.messages:
        if message.get("type") != "state" or message["public"] is None:
            continue
        index = message["table"]["hands_played"]
        if index not in records:
            continue
        record = records[index]
        scores = message["table"]["scores"]
        public = message["public"]
        state = read_hand({**record, "actions": []})
        for line in public["history"]:
            seat_text, _, action_text = line.partition(" ")
            if action_text in ("pickup", "keep"):
                # masked: the record has the full action at the same place (a
                # keep line is the merge and the keep, as records write it)
                action = Action.parse(_record_action(record, state))
                state = state.apply_recorded(action, int(seat_text))
            else:
                state = state.apply(Action.parse(action_text), int(seat_text))
        seat = message["seat"]
        if seat is not None and message["view"]["phase"] == "keep":
            # the maker merged: public only with the keep, so only its view shows it
            assert public["phase"] == "maker", message
            state = state.apply(Action.merge(), seat)
        assert public == public_json(state, scores), (message, state)
        if seat is None:
            assert message["view"] is None
            allowed = set(CARD_TOKEN.findall(json.dumps(public)))
        else:
            view = message["view"]
            expected = View.of(state, seat, scores).to_json()
            assert view == expected, (message, expected)
            allowed = set(CARD_TOKEN.findall(json.dumps(expected)))
        last = message.get("last_hand")
        rest = {k: v for k, v in message.items() if k != "last_hand"}
        text = json.dumps(rest).replace(message["table"]["table_id"], "#")
        found = set(CARD_TOKEN.findall(text))
        assert found <= allowed, f"seat {seat} was sent {found - allowed}: {message}"
        if last is not None:
            # the finished hand is public (its record): its review may name any of its cards
            done = records.get(last["index"])
            dealt = set() if done is None else set(CARD_TOKEN.findall(json.dumps(done["deal"])))
            last_text = json.dumps(last).replace(message["table"]["table_id"], "#")
            named = set(CARD_TOKEN.findall(last_text))
            assert done is None or named <= dealt, f"last_hand names {named - dealt}: {message}"
            assert done is not None or not named, f"last_hand of an unknown hand names {named}"
        checked += 1
    return checked


def _record_action(record: dict[str, Any], state: Any) -> str:
    """The action of the record at the state's place (its history length)."""
    line: str = record["actions"][len(state.history)]
    return line.partition(" ")[2]
