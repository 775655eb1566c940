"""Leak audit of the web table: no client is ever sent a card it may not see.

Scripted WebSocket clients play at least ``EUCHRE_LEAK_HANDS`` (default 200)
whole random hands on a real ``euchre serve`` process, several tables at once,
both variants, with policies that order, call and go alone often (Cutthroat
makers merge or go alone). A recorder keeps every byte each seat, a spectator
and late spectators receive: state messages, errors, hints, reconnect
snapshots; the test also downloads hand records (before and after the hand is
over), the match record and the summaries at random moments.

When a table's match is over, each hand's record is fetched and "what may
this seat see" (RULES.md §6) is worked out from the record alone — the seat's
own five cards, the up-card, every card played so far, the dummy for a
Cutthroat maker who chose to merge — never from the server's view code. Every
card named anywhere in a message must be in that set for the message's hand
and moment (the hand is ``table.hands_played``, the moment the length of the
public history). A hand's deal becomes visible only once the hand is over: the
``last_hand`` part (about the finished hand) is checked against the engine's
replay of that hand instead. Errors to a probe naming a hidden card must not
depend on where that card is.

The audit itself (players, recorder, oracle, checks) lives in
tests/leakaudit.py, shared with ``bench/leak_audit.py``, which runs it over
10,000 hands. Run a bigger audit here with
``EUCHRE_LEAK_HANDS=2000 pytest tests/test_web_leaks.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

import pytest

from euchre.hand import Deal, HandState
from euchre.record import hand_record
from euchre.rules import Rules
from leakaudit import (
    DEFAULT_SEED,
    Audit,
    Oracle,
    Received,
    Seat,
    Table,
    audit,
    check_finished,
    check_table,
)
from webserver import ServerProcess

HANDS = int(os.environ.get("EUCHRE_LEAK_HANDS", "200"))
TABLES = int(os.environ.get("EUCHRE_LEAK_TABLES", "6"))
SEED = int(os.environ.get("EUCHRE_LEAK_SEED", str(DEFAULT_SEED)))

pytestmark = pytest.mark.timeout(max(180, HANDS))


# -- the test ------------------------------------------------------------------------------------


def test_no_client_is_sent_a_card_it_may_not_see(server: ServerProcess) -> None:
    result = asyncio.run(audit(server.url, server.ws_url, HANDS, TABLES, SEED))
    print(f"leak audit: {result.figures()}")
    assert not result.leaks, "\n".join(result.leaks[:3])
    assert result.hands >= HANDS
    assert min(result.by_variant.values()) >= HANDS // 4, result.by_variant
    assert min(result.alone_by_variant.values()) >= 5, result.alone_by_variant
    assert result.merge >= 5 and result.errors >= 20, result
    assert result.probes_telling >= 20, result  # pairs of cards from different places
    assert "Traceback" not in server.log(), server.log()


def test_oracle_catches_a_leak() -> None:
    """The oracle is not vacuous: another seat's card, the kitty or the dummy before
    the merge are refused; the up-card, played cards and own cards are allowed."""
    record = {
        "deal": {
            "hands": [["9C", "TD", "KS", "QD", "AC"], ["AS", "9H", "TH", "QS", "JC"]],
            "dummy": ["JD", "KH", "9S", "TC", "QC"],
            "kitty": ["QH", "9D", "TS", "KD"],
        },
        "actions": ["1 pass", "0 play 9C", "1 play AS"],
    }
    oracle = Oracle([record])
    assert oracle.allowed(0, 0, 0, False) == {"QH", "9C", "TD", "KS", "QD", "AC"}
    assert "AS" not in oracle.allowed(0, 0, 2, False)
    assert "AS" in oracle.allowed(0, 0, 3, False)
    assert "JD" not in oracle.allowed(1, 0, 3, False)
    assert "JD" in oracle.allowed(1, 0, 3, True)
    assert oracle.allowed(None, 0, 3, False) == {"QH", "9C", "AS"}
    assert "9D" not in oracle.allowed(0, 0, 3, True)


def test_check_table_catches_a_leaky_message() -> None:
    """``check_table`` fails on a state or error naming a card the seat may not see."""
    rules = Rules()
    rng = random.Random(3)
    state = HandState(rules, 0, Deal.random(rules, rng))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    record = hand_record(state)
    deal = record["deal"]

    def table_with(seat: int | None, view_cards: list[str], kind: str = "state") -> Table:
        if kind == "state":
            message: dict[str, Any] = {
                "type": "state",
                "seq": 0,
                "table": {"table_id": "tbl-id", "hands_played": 0},
                "seat": seat,
                "view": None if seat is None else {"seat": seat, "hand": view_cards},
                "public": {"history": [], "up_card": deal["kitty"][0], "cards": view_cards},
                "last_hand": None,
            }
        else:
            message = {"type": "error", "code": "illegal", "message": " ".join(view_cards)}
        who = Seat(seat, None)
        who.got.append(Received(json.dumps(message), seat, frozenset(), frozenset(), (0, 0)))
        seats = [who] if seat is not None else []
        watchers = [who] if seat is None else []
        return Table("tbl-id", {"variant": "cutthroat"}, seats, watchers, records=[record])

    check_table(table_with(0, deal["hands"][0]))  # its own cards: fine
    check_table(table_with(None, []))
    for leak in (deal["hands"][1][0], deal["kitty"][1], deal["dummy"][0]):
        with pytest.raises(AssertionError):
            check_table(table_with(0, [*deal["hands"][0], leak]))
        with pytest.raises(AssertionError):
            check_table(table_with(None, [leak]))
        with pytest.raises(AssertionError):
            check_table(table_with(0, [leak], kind="error"))
    # the audit counts a failed check as a leak of that table (and goes on)
    totals = Audit()
    check_finished(table_with(0, [*deal["hands"][0], deal["hands"][1][0]]), totals)
    check_finished(table_with(0, deal["hands"][0]), totals)
    assert len(totals.leaks) == 1 and "seat 0 was sent" in totals.leaks[0], totals.leaks
    assert totals.tables == 2 and totals.hands == 2
