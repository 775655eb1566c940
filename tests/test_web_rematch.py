"""Seats, hosts, who is connected, and the rematch: the HTTP and WebSocket API
of a real `euchre serve` process (SQLite, bots without delay).

- ``bot_seats``: a seat chosen as a bot at creation is a bot: nobody may take it.
- ``player``: the creator is seated at creation and is the table's host: only
  their token starts it (a stranger who took an open seat may not).
- ``connected``: every state, and the HTTP summary, says which seats have a socket open.
- ``POST /api/tables/{id}/rematch``: after the match, a new table with the same
  rules, bot seats and names; each person's seat is kept for them (nobody
  else may take it) and taken with one call of their old token.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from webserver import Api, ServerProcess, TableClient, play, random_policy, start_server

pytestmark = pytest.mark.timeout(120)


def create(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    answer = api.post("/api/tables", body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code, answer.text


def test_bot_seats_are_bots_from_the_start(api: Api) -> None:
    made = create(
        api,
        {"rules": {}, "bots": [None, "easy", None], "bot_seats": [1], "name": "Bots"},
    )
    seats = made["table"]["seats"]
    assert [s["kind"] for s in seats] == ["empty", "bot", "empty"]
    assert seats[1]["level"] == "easy" and seats[1]["name"] == "Bot 2 (easy)"
    refused(
        api.post(f"/api/tables/{made['table_id']}/join", {"seat": 1, "name": "Eve"}),
        409,
        "seat_taken",
    )
    # an open seat is still open (a medium bot only if nobody takes it)
    assert api.join(made["table_id"], 2, "Bob")
    # without bot_seats the old meaning stands: a level is the seat's bot if nobody comes
    table_id = api.create({}, ["easy", "easy", "easy"])
    assert api.join(table_id, 1, "Ann")
    bad = api.post("/api/tables", {"rules": {}, "bot_seats": [3]})
    refused(bad, 400, "bad_request")
    bad = api.post(
        "/api/tables", {"rules": {}, "bot_seats": [0], "player": {"seat": 0, "name": "Ann"}}
    )
    refused(bad, 400, "bad_request")


def test_only_the_host_starts_the_table(api: Api) -> None:
    made = create(api, {"rules": {}, "bot_seats": [2], "player": {"seat": 0, "name": "Ann"}})
    table_id, host = made["table_id"], made["token"]
    assert made["seat"] == 0 and made["table"]["host"] == 0
    assert made["table"]["seats"][0] == {"seat": 0, "name": "Ann", "kind": "human"}
    stranger = api.join(table_id, 1, "Mallory")
    refused(api.post(f"/api/tables/{table_id}/start", {"token": stranger}), 403, "not_host")
    refused(api.post(f"/api/tables/{table_id}/start", {"token": "forged"}), 403, "bad_token")
    assert api.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
    assert api.start(table_id, host)["status"] == "playing"
    # a table created without a player has no host: any seated person starts it
    other = api.create({})
    assert api.get(f"/api/tables/{other}").json()["host"] is None
    assert api.start(other, api.join(other, 2, "Bob"))["status"] == "playing"


def test_states_say_who_is_connected(server: ServerProcess, api: Api) -> None:
    """Each state and the HTTP summary list the seats with a socket open; a socket
    opening or closing sends nobody a state (no message by its timing)."""
    made = create(api, {"rules": {}, "player": {"seat": 0, "name": "Ann"}})
    table_id = made["table_id"]
    bob = api.join(table_id, 2, "Bob")
    summary = f"/api/tables/{table_id}"
    assert api.get(summary).json()["connected"] == []
    ann = TableClient(server.ws_url, table_id, made["token"])
    assert ann.state()["connected"] == [0]
    watcher = TableClient(server.ws_url, table_id, None)
    assert watcher.state()["connected"] == [0]
    bobs = TableClient(server.ws_url, table_id, bob)
    assert bobs.state()["connected"] == [0, 2]
    assert api.get(summary).json()["connected"] == [0, 2]
    assert not [m for m in ann.pump(0.3) if m["type"] == "state"]
    bobs.close()
    deadline = time.monotonic() + 5
    while api.get(summary).json()["connected"] != [0]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    api.start(table_id, made["token"])
    assert ann.state()["connected"] == [0]
    for client in (ann, watcher):
        client.close()


def finished_match(server: ServerProcess, api: Api) -> tuple[str, list[str], dict[str, Any]]:
    """A Cutthroat match to 1 point: Ann (host, seat 0) and Bob (seat 1) against
    a hard bot at seat 2 (chosen at creation); played to its end."""
    made = create(
        api,
        {
            "rules": {"target": 1, "deck": 32},
            "bots": [None, None, "hard"],
            "bot_seats": [2],
            "name": "Friday",
            "player": {"seat": 0, "name": "Ann"},
        },
    )
    table_id = made["table_id"]
    tokens = [made["token"], api.join(table_id, 1, "Bob")]
    people = [TableClient(server.ws_url, table_id, t) for t in tokens]
    watcher = TableClient(server.ws_url, table_id, None)
    api.start(table_id, tokens[0])
    last = play(
        people,
        watcher,
        lambda st: st["table"]["status"] == "over",
        random_policy(random.Random(7), eager=True),
        timeout=60,
    )
    for client in (*people, watcher):
        client.close()
    return table_id, tokens, last


def test_rematch_keeps_rules_bots_and_seats(server: ServerProcess, api: Api) -> None:
    table_id, tokens, _last = finished_match(server, api)
    old = api.get(f"/api/tables/{table_id}").json()
    assert old["status"] == "over" and old["rematch"] is None
    assert old["hand_scores"][-1] == old["scores"] and len(old["hand_scores"]) == len(
        api.get(f"/api/tables/{table_id}/record").json()["hands"]
    )

    watcher = TableClient(server.ws_url, table_id, None)
    assert watcher.state()["table"]["rematch"] is None
    refused(api.post(f"/api/tables/{table_id}/rematch", {"token": "forged"}), 403, "bad_token")

    # Bob asks first: he creates the rematch and hosts it
    answer = api.post(f"/api/tables/{table_id}/rematch", {"token": tokens[1]})
    assert answer.status_code == 200, answer.text
    bob = answer.json()
    new_id = bob["table_id"]
    assert new_id != table_id and bob["invite"] == f"/t/{new_id}" and bob["seat"] == 1
    assert bob["token"] not in (tokens[0], tokens[1])
    new = bob["table"]
    assert new["rules"] == old["rules"] and new["name"] == old["name"]
    assert new["status"] == "waiting" and new["host"] == 1
    assert new["seats"][1] == {"seat": 1, "name": "Bob", "kind": "human"}
    assert new["seats"][2] == {
        "seat": 2,
        "name": old["seats"][2]["name"],
        "kind": "bot",
        "level": "hard",
    }
    assert new["seats"][0]["kind"] == "empty" and new["seats"][0]["reserved"] is True
    # every page of the old table learns of it; no token is in it
    told = watcher.wait_for(lambda m: m.get("type") == "state" and m["table"]["rematch"])
    assert told["table"]["rematch"] == new_id
    text = str(told)
    assert all(tok not in text for tok in (*tokens, bob["token"]))
    assert api.get(f"/api/tables/{table_id}").json()["rematch"] == new_id

    # Ann's seat is kept for her: a stranger may not take it, Ann takes it in one call
    refused(api.post(f"/api/tables/{new_id}/join", {"seat": 0, "name": "Eve"}), 409, "seat_taken")
    answer = api.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]})
    assert answer.status_code == 200, answer.text
    ann = answer.json()
    assert ann["table_id"] == new_id and ann["seat"] == 0
    seats = api.get(f"/api/tables/{new_id}").json()["seats"]
    assert seats[0] == {"seat": 0, "name": "Ann", "kind": "human"}
    # asking twice does not give the seat again
    refused(api.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]}), 409, "seat_taken")
    # the host (Bob) starts it; Ann may not
    refused(api.post(f"/api/tables/{new_id}/start", {"token": ann["token"]}), 403, "not_host")
    assert api.start(new_id, bob["token"])["status"] == "playing"
    # old tokens are the old table's only
    refused(api.post(f"/api/tables/{new_id}/start", {"token": tokens[1]}), 403, "bad_token")
    watcher.close()


def test_rematch_only_after_the_match(api: Api) -> None:
    made = create(api, {"rules": {}, "player": {"seat": 0, "name": "Ann"}})
    refused(
        api.post(f"/api/tables/{made['table_id']}/rematch", {"token": made["token"]}),
        409,
        "not_over",
    )
    refused(api.post("/api/tables/nope/rematch", {"token": made["token"]}), 404, "not_found")


def test_rematch_respects_the_creation_limits(tmp_path: Any) -> None:
    db = tmp_path / "limits.db"
    with start_server(f"sqlite:///{db}") as first:
        api = Api(first.url)
        table_id, tokens, _ = finished_match(first, api)
        api.close()
    # the same tables, served with the real limits: one address may keep 1 waiting
    with start_server(
        f"sqlite:///{db}", extra_args=["--max-waiting-per-address", "1"], loose_limits=False
    ) as second:
        api = Api(second.url)
        create(api, {"rules": {}})
        refused(
            api.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]}), 429, "rate_limited"
        )
        assert api.get(f"/api/tables/{table_id}").json()["rematch"] is None
        api.close()
