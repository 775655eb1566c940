"""The hand review API (issue 19 §5): ``POST /api/review`` against a real
`euchre serve` process — a finished hand record in, its calls, the solver's
review and every card played with the value of each legal card out; a bad
record is a clear 400 naming the action; a table's own hands and the review
facts of its ``last_hand`` agree with it; the review page is served."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from euchre import HandState, Rules
from euchre.bots import RandomBot, decide
from euchre.hand import FastHand
from euchre.record import hand_record, read_hand
from euchre.review import play_values, review_hand
from webserver import Api, ServerProcess, TableClient, play, random_policy

pytestmark = pytest.mark.timeout(120)


def random_hand(rules: Rules, seed: int) -> HandState:
    """A hand played to its end by random bots, with at least one card played."""
    while True:
        rng = random.Random(seed)
        bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(rules.seats)]
        state = HandState.deal_random(rules, seed % rules.seats, rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(decide(bots[seat], state, seat))
        if state.tricks:
            return state
        seed += 1000


def check_answer(state: HandState, body: dict[str, Any]) -> None:
    """The answer says what the engine says of the same hand."""
    record = hand_record(state)
    review = review_hand(state)
    assert review is not None
    assert body["variant"] == state.rules.variant and body["seats"] == state.rules.seats
    assert body["dealer"] == state.dealer
    assert body["sitting_out"] == list(state.sitting_out)
    assert state.result is not None and body["result"] == state.result.to_json()
    assert body["review"] == review.to_json()
    assert body["summary"] == review.summary()
    assert "action" not in body["summary"]
    calls = [f"{c['seat']} {c['action']}" for c in body["calls"]]
    plays = body["plays"]
    assert calls + [f"{p['seat']} play {p['played']}" for p in plays] == record["actions"]
    # replay the plays: each step's values are the solver's, for the player's side
    h = FastHand.new(state.rules, state.dealer, state.deal)
    for _, code in state.fast().calls:
        h.step(code)
    for i, step in enumerate(plays):
        assert step["number"] == len(calls) + i + 1
        assert step["trick"] == i // (h.n - h.out.bit_count()) + 1
        assert h.turn == step["seat"]
        assert [sorted(cards) for cards in step["hands"]] == [
            sorted(str(c) for c in hand) for hand in _hands(h)
        ]
        values = play_values(h)
        mine = h.on_maker_side(step["seat"])
        want = {str(_card(c)): (v if mine else 5 - v) for c, v in values.items()}
        got = {v["card"]: v["tricks"] for v in step["values"]}
        assert got == want
        best = max(want.values())
        assert [v["loss"] for v in step["values"]] == [best - v["tricks"] for v in step["values"]]
        assert step["values"][0]["loss"] == 0  # best first
        assert step["played"] in got
        assert step["side"] == ("maker" if mine else "defenders")
        before = len(h.trick_log)
        h.step(7 | _card(step["played"]).id << 4)
        if len(h.trick_log) > before:
            assert step["won_by"] == h.trick_log[-1][2]
        else:
            assert step["won_by"] is None
    m = review.first_mistake
    if m is not None:
        step = next(p for p in plays if p["number"] == m.number)
        assert step["trick"] == m.trick and step["played"] == str(m.played)
        loss = {v["card"]: v["loss"] for v in step["values"]}
        assert loss[str(m.played)] == m.cost and loss[str(m.best)] == 0


def _card(x: int | str) -> Any:
    from euchre.cards import Card

    return Card(x) if isinstance(x, int) else Card.parse(x)


def _hands(h: FastHand) -> list[list[Any]]:
    return [[_card(c) for c in range(33) if mask >> c & 1] for mask in h.hands]


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_review_of_a_hand_record(api: Api, variant: str) -> None:
    mistakes = 0
    for seed in range(4):
        state = random_hand(Rules(variant=variant), seed)
        answer = api.post("/api/review", hand_record(state))
        assert answer.status_code == 200, answer.text
        body = answer.json()
        check_answer(state, body)
        mistakes += body["review"]["mistake"] is not None
    assert mistakes  # random play errs


def test_a_thrown_in_hand_has_calls_and_no_plays(api: Api) -> None:
    state = HandState.deal_random(Rules(), 0, random.Random(1)).apply_all(["pass"] * 6)
    answer = api.post("/api/review", hand_record(state))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["review"] is None and body["plays"] == [] and len(body["calls"]) == 6
    assert body["result"]["thrown_in"] is True


def _error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    message: str = error["message"]
    return message


def test_bad_records_are_a_clear_400(api: Api) -> None:
    state = random_hand(Rules(), 3)
    good = hand_record(state)
    n = len(state.fast().calls) + 2  # the second card played
    # an illegal card: one the player does not hold (another seat's card)
    bad = json.loads(json.dumps(good))
    seat = int(bad["actions"][n - 1].split()[0])
    other = next(c for s, cards in enumerate(bad["deal"]["hands"]) if s != seat for c in cards)
    bad["actions"][n - 1] = f"{seat} play {other}"
    message = _error(api.post("/api/review", bad), 400, "bad_record")
    assert f"action {n} " in message and other in message

    # a seat out of turn, a malformed action
    bad = json.loads(json.dumps(good))
    bad["actions"][0] = "9 pass"
    assert "action 1 " in _error(api.post("/api/review", bad), 400, "bad_record")
    bad["actions"][0] = "1 dance"
    assert "action 1 " in _error(api.post("/api/review", bad), 400, "bad_record")
    # a bad deal: no action number, the deal named
    bad = json.loads(json.dumps(good))
    bad["deal"]["hands"][0][0] = bad["deal"]["hands"][1][0]
    assert "deal" in _error(api.post("/api/review", bad), 400, "bad_record")
    # not over: nothing to review
    short = dict(good, actions=good["actions"][:-3])
    assert "not over" in _error(api.post("/api/review", short), 400, "bad_record")
    # not a record, not JSON, too large
    assert "JSON object" in _error(api.post("/api/review", [1, 2]), 400, "bad_record")
    answer = api.http.post(
        "/api/review", content=b"{not json", headers={"content-type": "application/json"}
    )
    _error(answer, 400, "bad_json")
    deep = b"[" * 5000 + b"]" * 5000  # nested too deeply for the JSON reader
    answer = api.http.post(
        "/api/review", content=deep, headers={"content-type": "application/json"}
    )
    _error(answer, 400, "bad_json")
    huge = dict(good, pad="x" * 20_000)
    _error(api.post("/api/review", huge), 413, "too_large")
    # the good record still reviews
    assert api.post("/api/review", good).status_code == 200


def test_a_table_hand_and_its_review_facts(server: ServerProcess, api: Api) -> None:
    """A hand played at a table: its record reviews, and the table's
    ``last_hand.review_facts`` are the same review; the review page is served."""
    table_id = api.create({}, [None, "easy", "easy"])
    token = api.join(table_id, 0, "Ann")
    me = TableClient(server.ws_url, table_id, token)
    watcher = TableClient(server.ws_url, table_id, None)
    api.start(table_id, token)
    for index in range(6):
        last = play(
            [me],
            watcher,
            lambda st, i=index: (
                st["table"]["hands_played"] > i
                and st["last_hand"] is not None
                and (
                    st["last_hand"]["review"] is not None or st["last_hand"]["result"]["thrown_in"]
                )
            ),
            random_policy(random.Random(index)),
        )
        if not last["last_hand"]["result"]["thrown_in"]:
            break
    hand = last["last_hand"]
    record = api.get(hand["record"]).json()
    state = read_hand(record)
    body = api.post("/api/review", record).json()
    check_answer(state, body)
    assert hand["review_facts"] == body["review"]
    text = hand["review"]
    assert text.startswith("With all cards seen") and "action" not in text
    assert ("Trick " in text) == (body["review"]["mistake"] is not None)
    me.close()
    watcher.close()
    page = api.get("/review")
    assert page.status_code == 200 and "review.js" in page.text
