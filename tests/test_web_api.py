"""The web table server over real sockets: a real `euchre serve` process on SQLite.

Lobby API (create / join / start, validation, errors), whole hands over the
WebSocket against server bots (Cutthroat and partnership), every error path
of the protocol leaving the table unchanged, hidden information (every state
message checked against the deal), hand and match records, hints.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from euchre.cli import main as cli_main
from euchre.record import read_hand, read_match
from euchre.rules import Rules
from webserver import (
    Api,
    ServerProcess,
    TableClient,
    check_messages,
    play,
    random_policy,
    start_server,
)

pytestmark = pytest.mark.timeout(120)


def hand_over(index: int) -> Any:
    """A ``done`` test: hand ``index`` is over."""
    return lambda st: st["table"]["hands_played"] > index


# -- the lobby API ----------------------------------------------------------------------------


def test_health_and_options(api: Api) -> None:
    assert api.get("/api/health").json() == {"ok": True}
    body = api.get("/api/options").json()
    names = [o["name"] for o in body["options"]]
    assert names == [f.name for f in fields(Rules) if f.name != "variant"]
    defaults = Rules().options()
    for option in body["options"]:
        assert option["default"] == defaults[option["name"]]
        assert "choices" in option or "type" in option
    assert body["bot_levels"] == ["easy", "medium", "hard", "expert"]
    assert body["variants"] == ["cutthroat", "partnership"]
    assert "/api/tables" in api.get("/openapi.json").json()["paths"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"rules": {"deck": 33}}, "deck"),
        ({"rules": {"target": 0}}, "target"),
        ({"rules": {"dealer_pickup": "sometimes"}}, "dealer_pickup"),
        ({"rules": {"no_such_option": True}}, "no_such_option"),
        ({"rules": {"variant": "solitaire"}}, "variant"),
        ({"rules": {"stick_the_dealer": "yes"}}, "stick_the_dealer"),
        ({"rules": {}, "bots": ["easy", "easy"]}, "bots"),
        ({"rules": {}, "bots": ["easy", "godlike", None]}, "godlike"),
        ({"rules": {}, "extra": 1}, "extra"),
        ({"rules": [1, 2]}, "rules"),
        ({"rules": {}, "name": 7}, "name"),
        ({"rules": {}, "name": "   "}, "name"),
    ],
)
def test_create_refuses_bad_input(api: Api, body: dict[str, Any], needle: str) -> None:
    before = api.get("/api/tables").json()
    answer = api.post("/api/tables", body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_request"
    assert needle in error["message"]
    assert api.get("/api/tables").json() == before


def test_http_bad_json_and_too_large(api: Api) -> None:
    answer = api.http.post(
        "/api/tables", content=b'{"rules": {', headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_json"
    big = {"rules": {}, "name": "x" * 20_000}
    answer = api.post("/api/tables", big)
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "too_large"
    answer = api.get("/api/no/such/path")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_create_join_start(api: Api) -> None:
    table_id = api.create({"variant": "partnership", "target": 5}, ["easy", None, "hard", None])
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "waiting"
    assert summary["rules"] == {
        "variant": "partnership",
        **Rules("partnership", target=5).options(),
    }
    assert [s["kind"] for s in summary["seats"]] == ["empty"] * 4
    assert [s["level"] for s in summary["seats"]] == ["easy", "medium", "hard", "medium"]
    assert table_id in {t["table_id"] for t in api.get("/api/tables").json()["tables"]}
    assert api.get(f"/t/{table_id}").status_code in (200, 404)  # the page, once installed

    token = api.join(table_id, 1, "  Ann  ")
    assert len(token) >= 32
    taken = api.post(f"/api/tables/{table_id}/join", {"seat": 1, "name": "Bob"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    for bad in ({"seat": 4, "name": "Bob"}, {"seat": "2", "name": "Bob"}, {"seat": 2}):
        answer = api.post(f"/api/tables/{table_id}/join", bad)
        assert answer.status_code == 400, (bad, answer.text)
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["seats"][1] == {"seat": 1, "name": "Ann", "kind": "human"}
    assert token not in json.dumps(summary)

    wrong = api.post(f"/api/tables/{table_id}/start", {"token": "not-a-token"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"
    assert api.get(f"/api/tables/{table_id}").json()["status"] == "waiting"

    started = api.start(table_id, token)
    assert started["status"] == "playing"
    kinds = [(s["kind"], s.get("level")) for s in started["seats"]]
    assert kinds == [("bot", "easy"), ("human", None), ("bot", "hard"), ("bot", "medium")]
    assert api.start(table_id, token)["status"] == "playing"  # twice: no change
    late = api.post(f"/api/tables/{table_id}/join", {"seat": 0, "name": "Late"})
    assert late.status_code == 409

    for path in ("", "/record", "/hands/0"):
        missing = api.get(f"/api/tables/nosuchtable{path}")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found"


# -- playing over the WebSocket -----------------------------------------------------------------


def fetch_records(api: Api, table_id: str, count: int) -> dict[int, dict[str, Any]]:
    out = {}
    for index in range(count):
        answer = api.get(f"/api/tables/{table_id}/hands/{index}")
        assert answer.status_code == 200, answer.text
        out[index] = answer.json()
    return out


def test_cutthroat_hands_against_two_bots(server: ServerProcess, api: Api) -> None:
    """A person plays Cutthroat hands against two bots until they have been the
    maker who merged (bare ``keep`` first, then ``alone`` is refused); a
    spectator watches; every message is checked against the deals."""
    table_id = api.create({}, ["easy", "easy", "easy"])
    token = api.join(table_id, 0, "Ann")
    watcher = TableClient(server.ws_url, table_id, None)
    me = TableClient(server.ws_url, table_id, token)
    first = me.state()
    assert first["seat"] == 0 and first["view"] is None and first["table"]["status"] == "waiting"
    assert watcher.state()["seat"] is None
    assert api.get(f"/api/tables/{table_id}/hands/0").status_code == 404
    api.start(table_id, token)

    rng = random.Random(1)
    policy = random_policy(rng, eager=True)
    merged_checked = []

    def on_turn(client: TableClient) -> bool:
        st = client.latest
        assert st is not None
        view = st["view"]
        if view["phase"] == "keep":
            # after the bare keep: the dummy is shown, alone is refused, state unchanged
            assert all(a.startswith("keep ") for a in view["legal"])
            assert len(view["dummy"]) == 5 and len(view["legal"]) == 252
            assert st["public"]["phase"] == "maker"  # the merge is public only with the keep
            client.send({"type": "action", "token": token, "action": "alone", "seq": st["seq"]})
            error = client.error()
            assert error["code"] == "illegal"
            assert api.get(f"/api/tables/{table_id}/hands/{index}").status_code == 404
            merged_checked.append(st["seq"])
        return False

    hands = 0
    for index in range(6):
        play([me], watcher, hand_over(index), policy, on_turn=on_turn)
        hands = index + 1
        if merged_checked:
            break
    assert merged_checked, "the person never merged the dummy in six hands"

    records = fetch_records(api, table_id, hands)
    assert api.get(f"/api/tables/{table_id}/hands/{hands}").status_code == 404
    last = watcher.latest
    assert last is not None and last["last_hand"]["index"] == hands - 1
    for record in records.values():
        state = read_hand(record)
        assert state.is_over
        assert [f"{s} {a}" for s, a in state.history] == record["actions"]
    final = read_hand(records[hands - 1])
    assert final.result is not None
    assert last["last_hand"]["points"] == list(final.result.points)
    assert last["last_hand"]["record"] == f"/api/tables/{table_id}/hands/{hands - 1}"
    if final.result.maker is not None and final.tricks:
        assert "tricks" in last["last_hand"]["review"]
    match = read_match(api.get(f"/api/tables/{table_id}/record").json())
    assert len(match.hands) == hands and list(match.scores) == last["table"]["scores"]

    assert check_messages(me, records) > 5
    assert check_messages(watcher, records) > 5
    me.close()
    watcher.close()


def test_partnership_hand_against_three_bots(server: ServerProcess, api: Api) -> None:
    table_id = api.create({"variant": "partnership"}, ["easy"] * 4)
    token = api.join(table_id, 2, "Ann")
    me = TableClient(server.ws_url, table_id, token)
    watcher = TableClient(server.ws_url, table_id, None)
    api.start(table_id, token)
    play([me], watcher, hand_over(0), random_policy(random.Random(2)))
    records = fetch_records(api, table_id, 1)
    assert records[0]["variant"] == "partnership"
    assert read_hand(records[0]).is_over
    assert check_messages(me, records) > 0
    assert check_messages(watcher, records) > 0
    assert all(m["seat"] == 2 for m in me.messages if m["type"] == "state")


def test_two_people_and_a_spectator_see_no_hidden_card(server: ServerProcess, api: Api) -> None:
    """Two people (and a second socket of one of them) play two Cutthroat hands;
    every state message of every socket holds only what its seat may see."""
    table_id = api.create({"deck": 32}, [None, None, "easy"])
    tokens = [api.join(table_id, 0, "Ann"), api.join(table_id, 1, "Bob")]
    people = [TableClient(server.ws_url, table_id, t) for t in tokens]
    twin = TableClient(server.ws_url, table_id, tokens[1])
    watcher = TableClient(server.ws_url, table_id, None)
    api.start(table_id, tokens[1])
    play(people, watcher, hand_over(1), random_policy(random.Random(3)))
    for client in (*people, twin, watcher):
        client.pump(0.3)
    records = fetch_records(api, table_id, 2)
    for client in (*people, twin, watcher):
        assert check_messages(client, records) > 0
    # the check itself catches a leak: another seat's card slipped into a message
    leaky = TableClient.__new__(TableClient)
    message = next(m for m in people[0].messages if m["type"] == "state" and m["view"])
    hand = message["table"]["hands_played"]
    secret = records[hand]["deal"]["hands"][1][0]
    leaky.messages = [{**message, "table": {**message["table"], "name": f"x {secret}"}}]
    with pytest.raises(AssertionError, match="was sent"):
        check_messages(leaky, records)
    leaky.messages = [{**message, "view": {**message["view"], "hand": [secret]}}]
    with pytest.raises(AssertionError):
        check_messages(leaky, records)
    # the two sockets of seat 1 saw the same views
    twin_views = [m["view"] for m in twin.messages if m["type"] == "state" and m["view"]]
    bob_views = [m["view"] for m in people[1].messages if m["type"] == "state" and m["view"]]
    assert twin_views and all(v in bob_views for v in twin_views)


# -- errors leave the table unchanged -------------------------------------------------------------


def snapshot(api: Api, server: ServerProcess, table_id: str, token: str) -> Any:
    """The table as the API and a fresh socket of the seat see it."""
    fresh = TableClient(server.ws_url, table_id, token)
    state = fresh.state()
    fresh.close()
    record = api.get(f"/api/tables/{table_id}/record").json()
    summary = api.get(f"/api/tables/{table_id}").json()
    return state["seq"], state["view"], state["public"], record, summary


def test_every_error_leaves_the_table_unchanged(server: ServerProcess, api: Api) -> None:
    table_id = api.create({}, [None, None, "easy"])
    ann, bob = api.join(table_id, 0, "Ann"), api.join(table_id, 1, "Bob")
    a = TableClient(server.ws_url, table_id, ann)
    b = TableClient(server.ws_url, table_id, bob)
    a.state()
    b.state()

    # not started yet
    a.send({"type": "action", "token": ann, "action": "pass", "seq": 0})
    assert a.error()["code"] == "not_started"
    api.start(table_id, ann)
    # wait until one of the two people is to act
    deadline_state = None
    for _ in range(50):
        for c in (a, b):
            c.pump(0.05)
        if a.my_turn() or b.my_turn():
            deadline_state = a.latest
            break
    assert deadline_state is not None
    mover, other = (a, b) if a.my_turn() else (b, a)
    assert mover.latest is not None
    # the other client may still have the same state on its way (the bots
    # answer in milliseconds): take it first, so that its next message is
    # the answer to what the test sends
    for _ in range(100):
        if other.latest is not None and other.latest["seq"] >= mover.latest["seq"]:
            break
        other.pump(0.05)
    assert other.latest is not None and other.latest["seq"] == mover.latest["seq"]
    st = mover.latest
    seq, view = st["seq"], st["view"]
    before = snapshot(api, server, table_id, mover.token or "")
    illegal = next(
        x
        for x in ("order", "pass", "alone", "call H", "play 9C", "discard 9C")
        if x not in view["legal"]
    )

    cases: list[tuple[TableClient, Any, str]] = [
        (mover, "{not json", "bad_json"),
        (mover, "[1, 2]", "bad_message"),
        (mover, json.dumps({"type": "dance"}), "bad_message"),
        (mover, json.dumps({"kind": "ping"}), "bad_message"),
        (mover, {"type": "ping", "extra": 1}, "bad_message"),
        (mover, {"type": "action", "token": mover.token, "action": "pass"}, "bad_message"),
        (mover, {"type": "action", "token": mover.token, "action": 5, "seq": seq}, "bad_message"),
        (
            mover,
            {"type": "action", "token": mover.token, "action": "pass", "seq": "0"},
            "bad_message",
        ),
        (
            mover,
            {"type": "action", "token": mover.token, "action": "pass", "seq": True},
            "bad_message",
        ),
        (mover, {"type": "action", "token": 12, "action": "pass", "seq": seq}, "bad_message"),
        (
            mover,
            {"type": "action", "token": "forged", "action": view["legal"][0], "seq": seq},
            "bad_token",
        ),
        (
            mover,
            {"type": "action", "token": other.token, "action": view["legal"][0], "seq": seq},
            "bad_token",
        ),
        (
            other,
            {"type": "action", "token": other.token, "action": "pass", "seq": seq},
            "not_your_turn",
        ),
        (mover, {"type": "action", "token": mover.token, "action": illegal, "seq": seq}, "illegal"),
        (
            mover,
            {"type": "action", "token": mover.token, "action": "fly away", "seq": seq},
            "illegal",
        ),
        (
            mover,
            {"type": "action", "token": mover.token, "action": view["legal"][0], "seq": seq - 1},
            "stale",
        ),
        (
            mover,
            {"type": "action", "token": mover.token, "action": view["legal"][0], "seq": seq + 5},
            "stale",
        ),
        (
            mover,
            {"type": "action", "token": mover.token, "action": "x" * 20_000, "seq": seq},
            "too_large",
        ),
        (other, {"type": "hint", "token": other.token}, "not_your_turn"),
    ]
    for client, message, code in cases:
        if isinstance(message, str):
            client.send_text(message)
        else:
            client.send(message)
        error = client.error()
        assert error["code"] == code, (message, error)
        assert error["message"]

    # a spectator may not act, even with a seat's token
    spectator = TableClient(server.ws_url, table_id, None)
    spectator.state()
    spectator.send({"type": "action", "token": mover.token, "action": view["legal"][0], "seq": seq})
    assert spectator.error()["code"] == "bad_token"
    # a bad token at hello
    stranger = TableClient(server.ws_url, table_id, "made-up-token")
    assert stranger.error()["code"] == "bad_token"
    stranger.send({"type": "action", "token": "made-up-token", "action": "pass", "seq": seq})
    assert stranger.error()["code"] == "bad_message"  # no hello accepted yet
    # an unknown table
    lost = TableClient(server.ws_url, "no-such-table", None, hello=False)
    assert lost.error()["code"] == "not_found"

    # rate limit: a burst of pings gets some refused
    for _ in range(60):
        spectator.send({"type": "ping"})
    answers = [spectator.recv(5) for _ in range(60)]
    kinds = [m["type"] if m and m["type"] != "error" else m and m["code"] for m in answers]
    assert "pong" in kinds and "rate_limited" in kinds and set(kinds) <= {"pong", "rate_limited"}

    # nobody was told of any change, and nothing changed
    for client in (mover, other, spectator):
        client.pump(0.2)
        states = [m for m in client.messages if m["type"] == "state" and m["seq"] != seq]
        assert client is spectator or not [m for m in states if m["seq"] > seq], states
    assert snapshot(api, server, table_id, mover.token or "") == before

    # the hint, then a legal action is accepted with the right seq
    mover.send({"type": "hint", "token": mover.token})
    hint = mover.wait_for(lambda m: m["type"] == "hint")
    assert hint["suggest"] and {s["action"] for s in hint["suggest"]} <= set(view["legal"])
    # two sockets of the same seat send the same action at once: one wins; the other
    # is stale, or out of turn when the seat is not to act again (the turn is
    # checked first: docs/protocol.md)
    twin = TableClient(server.ws_url, table_id, mover.token)
    assert twin.state()["seq"] == seq
    action = {"type": "action", "token": mover.token, "action": view["legal"][0], "seq": seq}
    seen = len(mover.messages)
    mover.send(action)
    twin.send(action)
    after = mover.wait_for(lambda m: m["type"] == "state" and m["seq"] > seq)
    assert after["view"]["history"][: len(view["history"])] == view["history"]
    assert after["view"]["history"][len(view["history"])] == f"{after['seat']} {action['action']}"
    mover.pump(0.3)
    twin.pump(0.3)
    new = mover.messages[seen:] + twin.messages
    errors = [m["code"] for m in new if m["type"] == "error"]
    still = after["view"]["to_act"] == after["seat"]
    assert errors == (["stale"] if still else ["not_your_turn"])
    for c in (a, b, spectator, twin):
        c.close()


def test_serve_without_the_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "euchre.web.serve", None)
    assert cli_main(["serve", "--port", "0"]) == 2
    assert "pip install 'euchre[web]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "70000"],
        ["--bot-delay", "-1"],
        ["--port", "x"],
        ["--bot-workers", "-1"],
        ["--bot-workers", "two"],
    ],
)
def test_serve_refuses_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli_main(["serve", *args])
    assert info.value.code == 2
    assert args[0] in capsys.readouterr().err


def test_serve_with_bots_in_threads(tmp_path: Path) -> None:
    """`--bot-workers 0`: the bots think in threads of the server process."""
    with start_server(f"sqlite:///{tmp_path / 'euchre.db'}", bot_workers=0) as srv:
        assert "bots think in threads of this process" in srv.log()
        api = Api(srv.url)
        table_id = api.create({}, ["easy", "easy", None])
        token = api.join(table_id, 2, "Ann")
        api.start(table_id, token)
        me = TableClient(srv.ws_url, table_id, token)
        watcher = TableClient(srv.ws_url, table_id, None)
        policy = random_policy(random.Random(2))
        play([me], watcher, lambda st: st["table"]["hands_played"] >= 1, policy, timeout=60)
        me.close()
        watcher.close()
        api.close()


def test_default_data_folder_is_created(tmp_path: Path) -> None:
    """`euchre serve` without --db keeps its tables in DATA/euchre.db (created)."""
    data = tmp_path / "data" / "deeper"
    with start_server(None, extra_args=["--data", str(data)]) as srv:
        api = Api(srv.url)
        table_id = api.create()
        api.close()
    assert (data / "euchre.db").is_file()
    # SIGTERM is a graceful stop: the bots and the store are shut down first
    assert "stopped: every table is saved" in srv.log()
    assert f"http://127.0.0.1:{srv.url.rsplit(':', 1)[1]}" in srv.log()
    assert table_id


def test_a_match_to_its_end(server: ServerProcess, api: Api) -> None:
    """Target 1: the match ends with the first hand that scores; status over, winners."""
    table_id = api.create({"target": 1}, ["easy"] * 3)
    token = api.join(table_id, 2, "Ann")
    me = TableClient(server.ws_url, table_id, token)
    watcher = TableClient(server.ws_url, table_id, None)
    api.start(table_id, token)
    final = play(
        [me], watcher, lambda st: st["table"]["status"] == "over", random_policy(random.Random(4))
    )
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "over" and summary["winners"]
    assert final["view"] is None and final["public"] is None
    assert final["table"]["winners"] == summary["winners"]
    hands = summary["hands_played"]
    assert final["last_hand"]["index"] == hands - 1
    match = read_match(api.get(f"/api/tables/{table_id}/record").json())
    assert match.is_over and list(match.winners) == summary["winners"]
    assert list(match.scores) == summary["scores"]
    assert table_id not in {t["table_id"] for t in api.get("/api/tables").json()["tables"]}
    me.pump(0.1)
    me.send({"type": "action", "token": token, "action": "pass", "seq": final["seq"]})
    assert me.error()["code"] == "illegal"
    records = fetch_records(api, table_id, hands)
    assert check_messages(me, records) > 0
    assert check_messages(watcher, records) > 0
