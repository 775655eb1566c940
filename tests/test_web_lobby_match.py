"""The lobby, the seats and the end of a match in a real browser (Chromium, Playwright).

- the lobby: "Play now" (you and two bots, the rule book's defaults) in one
  click; the rule options behind "More rules", collapsed; the rules summary
  says what going alone scores in Cutthroat; the German maker badge;
- seats: a seat chosen as a bot in the create form is a bot; the host (the
  creator) starts the table, a stranger who sat down may not; who is connected;
  partnership: "your partner" and the team colours;
- the match end: who won and why (a tie explained), the per-hand score chart
  (SVG), and a rematch with the same seats and rules, joined in one click.

Screenshots: test-artifacts/lobby-*.png and test-artifacts/matchend-*.png.
Reuses the fixtures and helpers of tests/test_web_browser.py.
"""

# ruff: noqa: F811  (the fixtures of test_web_browser, imported, are arguments here)

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from test_web_browser import (  # noqa: F401  (fixtures used by name)
    ARTIFACTS,
    Tab,
    api,
    browser,
    catalog,
    open_tab,
    sit_down,
    tabs,
)
from webserver import Api, ServerProcess

pytestmark = pytest.mark.timeout(150)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def shot(tab: Tab, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def no_overflow(tab: Tab, width: int) -> None:
    wide = tab.page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide}px wide at {width}px"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_play_now_in_one_click(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab], size: str
) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    en = catalog("en")
    tab = open_tab(tabs, browser, **viewport)
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    # the rule options are there, behind "More rules", collapsed
    assert page.locator("#more-rules").get_attribute("open") is None
    assert page.locator("#more-rules summary").inner_text() == en["lobby.more_rules"]
    assert page.locator("#opt-target").count() == 1
    assert not page.locator("#opt-target").is_visible()
    assert page.locator("#play-now").inner_text() == en["lobby.play_now"]
    no_overflow(tab, viewport["width"])
    shot(tab, f"lobby-{size}.png")
    page.click("#more-rules summary")
    assert page.locator("#opt-target").is_visible()
    no_overflow(tab, viewport["width"])
    shot(tab, f"lobby-{size}-more-rules.png")
    # the rules summary: what going alone scores in Cutthroat
    page.click("#rules-button")
    assert "Going alone" in page.locator("#rules-dialog").inner_text()
    page.click("#rules-dialog [data-close]")
    # one click: a Cutthroat table with two bots, started, this person at seat 0
    page.fill("#player-name", "" if size == "phone" else "Pia")
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#table[data-status='playing'][data-seat='0']")
    table_id = page.url.rsplit("/", 1)[1]
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["rules"]["variant"] == "cutthroat"
    assert summary["rules"]["target"] == 10
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]
    name = "Pia" if size == "desktop" else en["lobby.play_now.name"]
    assert summary["seats"][0]["name"] == name and summary["host"] == 0
    # this seat shows as connected
    page.wait_for_selector("#pos-0 .presence[data-online='1']")
    assert page.locator("#pos-1 .presence").count() == 0  # a bot has no connection
    tab.check_errors()


def test_the_german_maker_badge_and_the_catalogs() -> None:
    de = catalog("de")
    assert de["badge.maker"] != "Trumpf"
    assert de["badge.maker"] == "Trumpfwähler"  # the word the German rules use
    for lang in ("en", "de", "es", "it", "sl"):
        cat = catalog(lang)
        # the Cutthroat scoring says what going alone earns the maker
        assert cat["rules.ct.score.p"].count("•") == 5, lang
        assert cat["badge.partner"] != catalog("en")["badge.partner"] or lang == "en"


def test_bot_seats_the_host_and_who_is_connected(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    en = catalog("en")
    host = open_tab(tabs, browser, **DESKTOP)
    page = host.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#player-name", "Hana")
    page.select_option("#seat-1", "easy")  # a bot
    page.select_option("#seat-2", "")  # open for a friend
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#table[data-status='waiting'][data-seat='0']")
    table_id = page.url.rsplit("/", 1)[1]
    summary = api.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "empty"]
    assert summary["host"] == 0
    assert page.locator("#start-button").is_visible()
    # a stranger from the lobby: may sit in the open seat (not the bot's), not start
    stranger = open_tab(tabs, browser, **DESKTOP)
    spage = stranger.page
    spage.goto(f"{server.url}/t/{table_id}")
    spage.wait_for_selector("#table[data-status='waiting']")
    assert spage.locator("[data-join-seat='1']").count() == 0
    sit_down(stranger, server.url, table_id, 2, "Mallory")
    assert spage.locator("#start-button").is_hidden()
    note = spage.locator("#host-note")
    assert note.is_visible()
    assert note.inner_text() == en["wait.host_starts"].replace("{name}", "Hana")
    # both are connected: each page learns it (the summary is asked now and then)
    spage.wait_for_selector(".wait-seat[data-seat='0'] .presence[data-online='1']")
    page.wait_for_selector(".wait-seat[data-seat='2'] .presence[data-online='1']", timeout=12_000)
    shot(host, "lobby-waiting-host.png")
    shot(stranger, "lobby-waiting-stranger.png")
    stranger.page.close()
    page.wait_for_selector(".wait-seat[data-seat='2'] .presence[data-online='0']", timeout=12_000)
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing']")
    host.check_errors()


def test_partnership_partner_and_team_colours(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    en = catalog("en")
    table_id = api.create({"variant": "partnership", "target": 50}, [None, "easy", "easy", "easy"])
    tab = open_tab(tabs, browser, **DESKTOP)
    page = tab.page
    sit_down(tab, server.url, table_id, 0, "Pat")
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing'][data-variant='partnership']")
    assert page.locator("#pos-2 .badge.partner").inner_text() == en["badge.partner"]
    assert en["badge.partner"] == "your partner"
    for pos, team in ((0, "0"), (1, "1"), (2, "0"), (3, "1")):
        assert page.locator(f"#pos-{pos} .seat").get_attribute("data-team") == team
    assert page.locator("#scores tr[data-team='0']").count() == 1
    assert page.locator("#scores tr[data-team='1']").count() == 1
    colours = page.evaluate(
        """() => [0, 1].map((p) => getComputedStyle(
             document.querySelector(`#pos-${p} .seat`)).borderLeftColor)"""
    )
    assert colours[0] != colours[1]
    shot(tab, "lobby-partnership-teams.png")
    tab.check_errors()


def play_out(players: list[Tab], deadline: float) -> None:
    """Let the people act (the first sensible action) until the match is over."""
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        over = players[0].page.evaluate(
            "() => window.euchreTable.state()?.table?.status === 'over'"
        )
        if over:
            return
        for tab in players:
            if tab.my_turn():
                tab.act()
        players[0].page.wait_for_timeout(30)


def check_match_end(tab: Tab, summary: dict[str, Any]) -> None:
    en = catalog("en")
    page = tab.page
    box = page.locator("#match-end")
    box.wait_for()
    assert page.locator("#match-end-title").inner_text() == en["match.title"]
    why = page.locator("#match-end-why").inner_text()
    winners = summary["winners"]
    names = [summary["seats"][s]["name"] for s in winners]
    assert all(n in why for n in names), why
    assert str(summary["rules"]["target"]) in why
    # a tie explained: shared, or level leaders at the target before the last hand
    history = summary["hand_scores"]
    level_before = any(
        max(row) >= summary["rules"]["target"] and row.count(max(row)) > 1 for row in history[:-1]
    )
    tie = page.locator("#match-end-tie")
    assert tie.is_visible() == (len(winners) > 1 or level_before)
    # the chart: a line per seat through every hand, the target dashed
    chart = page.locator("#score-chart svg")
    assert chart.count() == 1
    assert page.locator("#score-chart polyline.series").count() == 3
    points = page.locator("#score-chart polyline.series-0").get_attribute("points") or ""
    assert len(points.split()) == len(history) + 1
    assert page.locator("#score-chart line.target").count() == 1
    legend = page.locator("#score-chart-legend").inner_text()
    assert all(s["name"] in legend for s in summary["seats"])


def test_match_end_chart_and_rematch(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    en = catalog("en")
    made = api.post(
        "/api/tables",
        {
            "rules": {"target": 2, "tie": "play_on"},
            "bots": [None, None, "easy"],
            "bot_seats": [2],
            "name": "Duel",
            "player": {"seat": 0, "name": "Ann"},
        },
    ).json()
    table_id = made["table_id"]
    ann = open_tab(tabs, browser, **DESKTOP)
    ann.page.goto(server.url + "/")
    ann.page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`euchre.seat.${id}`,"
        " JSON.stringify({seat, token}))",
        [table_id, 0, made["token"]],
    )
    ann.page.goto(f"{server.url}/t/{table_id}")
    ann.page.wait_for_selector("#table[data-status='waiting'][data-seat='0']")
    ben = open_tab(tabs, browser, **PHONE)
    sit_down(ben, server.url, table_id, 1, "Ben")
    assert ben.page.locator("#start-button").is_hidden()
    ann.page.click("#start-button")
    for tab in (ann, ben):
        tab.page.wait_for_selector("#table[data-status='playing']")
    play_out([ann, ben], time.monotonic() + 100)
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "over"
    for tab in (ann, ben):
        check_match_end(tab, summary)
        button = tab.page.locator("#rematch-button")
        assert button.inner_text() == en["match.rematch"]
    no_overflow(ben, PHONE["width"])
    ann.page.locator("#match-end").scroll_into_view_if_needed()
    shot(ann, "matchend-desktop.png")
    shot(ben, "matchend-phone.png")
    # in German too
    de = catalog("de")
    ann.page.select_option("#lang", "de")
    ann.page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert ann.page.locator("#match-end-title").inner_text() == de["match.title"]
    assert ann.page.locator("#rematch-button").inner_text() == de["match.rematch"]
    assert de["match.chart"] in ann.page.locator("#score-chart-legend").inner_text()
    shot(ann, "matchend-desktop-de.png")
    ann.page.select_option("#lang", "en")
    ann.page.wait_for_function("() => document.documentElement.lang === 'en'")

    # Ben asks for the rematch: a new table, his seat, he hosts it
    ben.page.click("#rematch-button")
    ben.page.wait_for_url(lambda url: table_id not in url)
    new_id = ben.page.url.rsplit("/", 1)[1]
    assert new_id != table_id
    ben.page.wait_for_selector("#table[data-status='waiting'][data-seat='1']")
    new = api.get(f"/api/tables/{new_id}").json()
    assert new["rules"] == summary["rules"] and new["name"] == "Duel"
    assert new["seats"][2]["kind"] == "bot" and new["seats"][2]["level"] == "easy"
    assert new["seats"][2]["name"] == summary["seats"][2]["name"]
    assert new["seats"][0].get("reserved") is True and new["host"] == 1
    # Ann's page learns of it: one click takes her kept seat
    button = ann.page.locator("#rematch-button[data-rematch='ready']")
    button.wait_for()
    assert button.inner_text() == en["match.rematch_join"]
    assert ann.page.locator("#rematch-note").inner_text() == en["match.rematch_ready"]
    shot(ann, "matchend-rematch-ready.png")
    button.click()
    ann.page.wait_for_url(re.compile(rf"/t/{new_id}$"))
    ann.page.wait_for_selector("#table[data-status='waiting'][data-seat='0']")
    assert ann.page.locator("#start-button").is_hidden()  # Ben hosts the rematch
    ben.page.wait_for_selector(
        ".wait-seat[data-seat='0'] .presence[data-online='1']", timeout=12_000
    )
    assert "Ann" in ben.page.locator(".wait-seat[data-seat='0']").inner_text()
    ben.page.click("#start-button")
    for tab in (ann, ben):
        tab.page.wait_for_selector("#table[data-status='playing']")
    for tab in (ann, ben):
        tab.check_errors()


@pytest.mark.parametrize("lang", ["de", "sl"])
def test_the_lobby_in_german_and_slovenian_at_phone_width(
    server: ServerProcess, browser: Any, tabs: list[Tab], lang: str
) -> None:
    cat = catalog(lang)
    tab = open_tab(tabs, browser, locale=f"{lang}-{lang.upper()}", **PHONE)
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.locator("#play-now").inner_text() == cat["lobby.play_now"]
    assert page.locator("#more-rules summary").inner_text() == cat["lobby.more_rules"]
    no_overflow(tab, PHONE["width"])
    shot(tab, f"lobby-phone-{lang}.png")
    tab.check_errors()
