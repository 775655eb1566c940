"""The hand review page (/review, issue 19 §5) in a real browser: from a
table's finished hand (the link in the last-hand panel) and from a record file
opened in the page, it steps through the hand card by card showing the
solver's value of each legal card, in words, in the page's language; a bad
record says which action is wrong. The table's own review names the trick,
the cards and who gains — never an action number.

Uses the browser, server and tab helpers of tests/test_web_browser.py.
Screenshots: test-artifacts/review-*.png.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from euchre import Rules
from euchre.record import hand_record
from test_web_browser import ARTIFACTS, Tab, api, browser, catalog, open_tab, tabs
from test_web_review import random_hand
from webserver import Api, ServerProcess, TableClient, play, random_policy

__all__ = ["api", "browser", "tabs"]  # the fixtures, imported for pytest (server: conftest.py)

pytestmark = pytest.mark.timeout(180)


def shot(tab: Tab, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"), full_page=True)


def played_hand(server: ServerProcess, api: Api) -> tuple[str, dict[str, Any]]:
    """A table whose first hand with a costly card is over, the match still
    on (the person plays at random, so one comes soon; a match that ends
    first is followed by a new table): its id and last hand."""

    def settled(st: dict[str, Any], i: int) -> bool:
        # hand i is over and reviewed, or the match is (its last hand reviewed)
        last = st["last_hand"]
        ready = last is not None and (
            last["review_facts"] is not None or last["result"]["thrown_in"]
        )
        over = st["table"]["status"] == "over"
        return ready and (over or (st["table"]["hands_played"] > i and last["index"] == i))

    for table in range(4):
        table_id = api.create({}, [None, "easy", "easy"], name="Review table")
        token = api.join(table_id, 0, "Ann")
        me = TableClient(server.ws_url, table_id, token)
        watcher = TableClient(server.ws_url, table_id, None)
        api.start(table_id, token)
        try:
            for index in range(12):
                st = play(
                    [me],
                    watcher,
                    lambda st, i=index: settled(st, i),
                    random_policy(random.Random(100 * table + index)),
                )
                if st["table"]["status"] == "over":
                    break  # the table the test reads is one still in play
                last = st["last_hand"]
                facts = last["review_facts"]
                if facts is not None and facts["mistake"] is not None:
                    return table_id, last
        finally:
            me.close()
            watcher.close()
    raise AssertionError("four tables without a costly card")


def check_steps(tab: Tab, answer: dict[str, Any], lang: str = "en") -> None:
    """Step through every card with the Next button and the arrow keys; each
    step shows the player's legal cards with their values, best first."""
    page = tab.page
    words = catalog(lang)
    plays = answer["plays"]
    page.wait_for_selector("#rv-step:not([hidden])")
    for i, step in enumerate(plays):
        page.wait_for_selector(f"#rv-step[data-step='{i}']")
        count = page.locator("#rv-count").inner_text()
        assert count == words["rv.step"].format(n=i + 1, total=len(plays))
        items = page.locator("#rv-values li")
        assert items.count() == len(step["values"])
        cards = [items.nth(k).get_attribute("data-card") for k in range(items.count())]
        assert cards == [v["card"] for v in step["values"]]
        assert page.locator("#rv-values li.rv-played").get_attribute("data-card") == step["played"]
        for k, v in enumerate(step["values"]):
            text = items.nth(k).inner_text()
            assert words["rv.value_tricks"].format(n=v["tricks"]) in text
            if len(step["values"]) == 1:
                assert words["rv.only"] in text
            elif v["loss"]:
                assert words[f"rv.loss.{v['loss']}"] in text
            else:
                assert words["rv.best"] in text
        # the seat to play is lit, its legal cards marked; the trick so far shown
        seat = page.locator(f"#rv-seats .rv-seat.to-act[data-seat='{step['seat']}']")
        assert seat.count() == 1
        assert seat.locator(".card.rv-best, .card.rv-worse").count() == len(step["values"])
        assert page.locator("#rv-trick .mini").count() == len(step["table"]) + 1
        if i + 1 < len(plays):
            if i % 2:
                page.click("#rv-next")
            else:
                page.keyboard.press("ArrowRight")
    assert page.locator("#rv-next").is_disabled()
    page.keyboard.press("Home")
    page.wait_for_selector("#rv-step[data-step='0']")
    assert page.locator("#rv-prev").is_disabled()
    page.keyboard.press("End")
    page.wait_for_selector(f"#rv-step[data-step='{len(plays) - 1}']")


def test_review_from_the_tables_last_hand(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    table_id, last = played_hand(server, api)
    tab = open_tab(tabs, browser, width=1280, height=800)
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}?watch")
    page.wait_for_selector("#last-hand-review:not([hidden])")
    text = page.locator("#last-hand-review").inner_text()
    words = catalog("en")
    assert text.startswith(words["hand.review"])
    assert "action" not in text.lower()
    mistake = last["review_facts"]["mistake"]
    assert f"Trick {mistake['trick']}: " in text
    side = {"maker": "the maker", "defenders": "the defenders"}[mistake["side"]]
    assert f"for {side}" in text
    assert words[f"review.tricks.{mistake['cost']}"] in text
    if mistake["points"]:
        assert words[f"review.points.{mistake['points']}"] in text
    # the cards with their suit symbols (drawn), named for screen readers
    played = page.locator("#last-hand-review .card-inline").first
    assert played.locator("svg.suit-icon").count() == 1
    link = page.locator("#last-hand-review-link")
    assert link.is_visible()
    shot(tab, "table-last-hand")
    # the same review in Slovenian
    page.select_option("#lang", "sl")
    sl = catalog("sl")
    page.wait_for_function(
        "(t) => document.getElementById('last-hand-review').textContent.startsWith(t)",
        arg=sl["hand.review"],
    )
    text = page.locator("#last-hand-review").inner_text()
    assert f"Štih {mistake['trick']}: " in text
    assert sl[f"review.side.{side.split()[1]}"] in text
    assert sl[f"review.tricks.{mistake['cost']}"] in text
    shot(tab, "table-last-hand-sl")
    page.select_option("#lang", "en")

    record = api.get(last["record"]).json()
    answer = api.post("/api/review", record).json()
    link.click()
    page.wait_for_url(f"**/review?table={table_id}&hand={last['index']}")
    page.wait_for_selector("#rv-hand:not([hidden])")
    assert page.locator("#rv-title").inner_text() == f"Hand {last['index'] + 1} — Review table"
    assert page.locator("#rv-back").get_attribute("href") == f"/t/{table_id}"
    summary = page.locator("#rv-summary").inner_text()
    assert "With all cards seen" in summary and "action" not in summary.lower()
    assert "Ann" in page.locator("#rv-seats").inner_text()
    shot(tab, "page")
    check_steps(tab, answer)
    shot(tab, "page-end")
    tab.check_errors()


def test_review_of_a_record_file_at_phone_width_in_german(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab], tmp_path: Path
) -> None:
    state = random_hand(Rules(variant="partnership"), 5)
    record = hand_record(state)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    answer = api.post("/api/review", record).json()

    tab = open_tab(tabs, browser, width=390, height=844, locale="de-DE")
    page = tab.page
    page.goto(f"{server.url}/review")
    words = catalog("de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert page.locator("#rv-status").inner_text() == words["rv.empty"]
    page.set_input_files("#rv-file", str(path))
    page.wait_for_selector("#rv-hand:not([hidden])")
    assert page.locator("#rv-title").inner_text() == words["rv.file_title"].format(file="hand.json")
    assert page.locator("#rv-summary").inner_text().startswith(words["hand.review"])
    # nothing wider than the phone
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    shot(tab, "phone-de")
    check_steps(tab, answer, "de")

    # a broken record: the page says which action
    bad = json.loads(json.dumps(record))
    n = len(answer["calls"]) + 1
    seat = answer["plays"][0]["seat"]
    bad["actions"][n - 1] = f"{seat} play {answer['plays'][1]['played']}"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#rv-file", str(path))
    page.wait_for_selector("#rv-error:not([hidden])")
    error = page.locator("#rv-error").inner_text()
    assert error.startswith(words["rv.error"].split("{")[0]) and f"action {n} " in error
    assert page.locator("#rv-hand").is_hidden()
    shot(tab, "phone-error")
    # the browser logs the refused request itself; nothing else went wrong
    assert all("status of 400" in e for e in tab.errors), tab.errors
    tab.errors.clear()
    # not JSON at all
    path.write_text("{oops", encoding="utf-8")
    page.set_input_files("#rv-file", str(path))
    page.wait_for_function(
        "(t) => document.getElementById('rv-error').textContent.includes(t)",
        arg=words["error.bad_json"],
    )
    tab.check_errors()
