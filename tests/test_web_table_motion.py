"""The table's pace and motion in a real browser (issue 19: points 1, 2 and 8).

The server runs its bots without delay (tests/webserver.py), so every state of a
trick arrives at once: whatever pause the player sees is the page's own pace
(a page setting kept in localStorage). A recorder in the page samples, every
40 ms, what is on show (its ``seq``, a finished trick, its sweep, a finished
hand on hold) and where the board and the player's cards are, so the tests
can say how long a finished trick stayed and that nothing moved.

Screenshots: test-artifacts/motion-*.png.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

import test_web_browser as web
from test_web_browser import ARTIFACTS, Tab, open_tab, sit_down
from webserver import Api, ServerProcess

pytestmark = pytest.mark.timeout(180)

# the fixtures of the browser tests: a server and a browser for this module, tabs per test
api, browser, tabs = web.api, web.browser, web.tabs  # the server: conftest.py

#: Samples what the page shows, every 40 ms, into ``window.motionLog``.
RECORDER = """() => {
  window.motionLog = [];
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e || !e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return { top: r.top + window.scrollY, left: r.left, h: r.height, w: r.width };
  };
  const sample = () => {
    const main = document.getElementById("table");
    const trick = document.getElementById("trick");
    const hand = document.getElementById("hand");
    window.motionLog.push({
      t: performance.now(),
      seq: Number(main.dataset.seq),
      myTurn: main.dataset.myTurn === "1",
      held: main.dataset.held === "1",
      hands: Number(main.dataset.handsPlayed),
      phase: main.dataset.phase,
      done: trick.classList.contains("done"),
      sweep: trick.classList.contains("sweep"),
      trickCards: trick.querySelectorAll(".card").length,
      board: box("#board"),
      hand: hand.childElementCount ? box("#hand") : null,
      prompt: box("#prompt"), actions: box("#actions"),
    });
  };
  sample();
  window.setInterval(sample, 40);
}"""


def set_pace(tab: Tab, pace: str) -> None:
    tab.page.select_option("#pace", pace)
    assert tab.page.evaluate("() => localStorage.getItem('euchre.pace')") == pace


def wait_after_or_hold(tab: Tab, seq: int) -> None:
    """After an action: a newer state on show, or the hand it ended on hold."""
    tab.page.wait_for_function(
        """(old) => document.getElementById("table").dataset.held === "1"
          || (window.euchreTable.state().seq > old && !document.body.dataset.pending)""",
        arg=seq,
    )


def start_game(tab: Tab, server: ServerProcess, api: Api, rules: dict[str, Any]) -> str:
    seats = 4 if rules.get("variant") == "partnership" else 3
    table_id = api.create(rules, [None] + ["easy"] * (seats - 1))
    sit_down(tab, server.url, table_id, 0, "Pia")
    tab.page.click("#start-button")
    tab.page.wait_for_selector("#table[data-status='playing']")
    # Tab.act() waits for the answer to its action: the hand it ended may be held
    tab.wait_after = lambda seq: wait_after_or_hold(tab, seq)  # type: ignore[method-assign]
    return table_id


def wait_turn_or_hold(tab: Tab) -> str:
    """Wait until the page shows this seat's turn or a finished hand on hold."""
    tab.page.wait_for_function(
        """() => {
          const main = document.getElementById("table");
          if (main.dataset.held === "1") return true;
          const s = window.euchreTable.state();
          return Boolean(s && s.view && s.table.status === "playing"
            && s.view.to_act === s.seat && s.view.legal.length
            && !document.body.dataset.pending);
        }""",
        timeout=30_000,
    )
    held = tab.page.get_attribute("#table", "data-held") == "1"
    return "held" if held else "turn"


def samples(tab: Tab) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = tab.page.evaluate("() => window.motionLog")
    return log


def runs(log: list[dict[str, Any]], key: str) -> list[list[dict[str, Any]]]:
    """The stretches of consecutive samples of one ``seq`` where ``key`` is true."""
    out: list[list[dict[str, Any]]] = []
    for i, s in enumerate(log):
        if not s[key]:
            continue
        if out and i and out[-1][-1] is log[i - 1] and log[i - 1]["seq"] == s["seq"]:
            out[-1].append(s)
        else:
            out.append([s])
    return out


def assert_steady(log: list[dict[str, Any]], what: str, *, play_only: bool = False) -> None:
    """The board never changed its size or place, nor the player's cards their row
    (``play_only``: while cards are played; at phone width the bidding's buttons
    may take two rows, e.g. the three suits to name and "Pass")."""
    boards = {(round(s["board"]["h"]), round(s["board"]["w"])) for s in log if s["board"]}
    assert len(boards) == 1, f"{what}: the board's (height, width) went through {boards}"
    tops = {round(s["board"]["top"]) for s in log if s["board"]}
    assert len(tops) == 1, f"{what}: the board moved: {tops}"
    log = [s for s in log if s["phase"] == "play"] if play_only else log
    rows = {round(s["hand"]["top"]) for s in log if s["hand"]}
    moved = {(round(s["prompt"]["h"]), round(s["actions"]["h"])) for s in log if s["hand"]}
    assert len(rows) == 1, f"{what}: the player's cards moved: {rows} {moved}"


def check_log_lines(tab: Tab) -> bool:
    """The hand's log holds whole lines: each entry whole lines high, scrolled by whole lines to
    the newest, so its top line is never cut. True once the log was long enough to
    scroll (the check that matters)."""
    facts = tab.page.evaluate(
        """() => {
          const log = document.getElementById("log");
          const line = parseFloat(getComputedStyle(log).getPropertyValue("--log-line"));
          return {
            line,
            heights: [...log.children].map((li) => li.getBoundingClientRect().height),
            odd: [...log.children].filter((li) => li.getBoundingClientRect().height % 22)
              .map((li) => li.outerHTML),
            top: log.scrollTop, client: log.clientHeight, scroll: log.scrollHeight,
          };
        }"""
    )
    line = facts["line"]
    assert line > 0
    # a long line wraps onto whole lines (no line of another height, no gap)
    assert all(abs(h / line - round(h / line)) < 0.02 for h in facts["heights"]), facts["odd"]
    assert abs(facts["client"] / line - round(facts["client"] / line)) < 0.02, facts
    assert abs(facts["top"] / line - round(facts["top"] / line)) < 0.02, facts
    assert facts["top"] + facts["client"] >= facts["scroll"] - 1, facts  # the newest shows
    return bool(facts["top"] > 0)


# -- the tests ----------------------------------------------------------------------


def test_a_finished_trick_stays_and_a_finished_hand_waits_for_the_player(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """Pace "normal" at 1280x800: a finished trick stays about 1.2 s and is swept to
    its winner; a finished hand stays, with its summary, until "Next hand" (the
    server has dealt the next one at once: the page keeps it back); the board and
    the player's cards never move meanwhile."""
    tab = open_tab(tabs, browser, width=1280, height=800, paced=True)
    page = tab.page
    start_game(tab, server, api, {"variant": "cutthroat", "target": 50})
    assert page.input_value("#pace") == "normal"  # the default
    page.evaluate(RECORDER)
    shot = long_log = False
    deadline = time.monotonic() + 120
    checked_trick_hold = False
    hands = 0
    while not (checked_trick_hold and hands >= 1):
        assert time.monotonic() < deadline, "no finished trick was seen held in time"
        if wait_turn_or_hold(tab) == "turn":
            v = tab.state()["view"]
            if v["phase"] == "play":  # the cards are all in sight without scrolling
                bottom = page.evaluate(
                    """() => Math.max(...[...document.querySelectorAll('#hand .card')]
                      .map((c) => c.getBoundingClientRect().bottom + window.scrollY))"""
                )
                assert bottom <= 800, f"the cards end at {bottom}px, below the window"
            if v["phase"] == "play" and v["current_trick"] and not shot:
                page.screenshot(path=str(ARTIFACTS / "motion-trick.png"), full_page=True)
                shot = True
            long_log = check_log_lines(tab) or long_log
            tab.act()
            continue
        # a finished hand on hold: its last trick whole, its summary, the way on
        long_log = check_log_lines(tab) or long_log
        shown = tab.state()
        # the newest state and what the page says of it, read at the same moment
        newest, says_turn = page.evaluate(
            """() => [window.euchreTable.newest(),
                      !document.getElementById("hand-over-turn").hidden]"""
        )
        assert newest["table"]["hands_played"] == shown["table"]["hands_played"] + 1
        assert page.locator("#hand-over").is_visible()
        assert page.locator("#hand .card").count() == 0  # every card is played
        last = newest["last_hand"]
        page.locator("#hand-over-text strong").wait_for()
        record = api.get(last["record"]).json()
        if any(a.split()[1] == "play" for a in record["actions"]):
            page.wait_for_function("() => document.querySelectorAll('#trick .card').length >= 2")
            plays = [a.split() for a in record["actions"] if a.split()[1] == "play"]
            last_trick = plays[-(len(plays) // 5) :]
            on_show = {c.get_attribute("data-card") for c in page.locator("#trick .card").all()}
            assert on_show == {p[2] for p in last_trick}
        its_turn = newest["view"]["to_act"] == newest["seat"] and newest["view"]["legal"]
        assert says_turn == bool(its_turn)
        button = page.locator("#next-hand")
        first = button.inner_text()
        assert first.startswith("Next hand (")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "motion-hand-over.png"), full_page=True)
        page.wait_for_timeout(1500)  # the next deal does not start under the player's eyes
        assert page.get_attribute("#table", "data-held") == "1"
        assert tab.state()["seq"] == shown["seq"]
        assert button.inner_text() != first  # the countdown runs
        button.click()
        page.wait_for_function(
            "(n) => window.euchreTable.state().table.hands_played === n",
            arg=shown["table"]["hands_played"] + 1,
        )
        assert page.get_attribute("#table", "data-held") is None
        hands += 1
        # the finished tricks the bots went on from stayed ~1.2 s and were swept
        log = samples(tab)
        for run in runs(log, "done"):
            if run[-1] is log[-1] or any(s["held"] or s["myTurn"] for s in run):
                continue  # still on show, the hand's last trick, or the player leads
            lasted = run[-1]["t"] - run[0]["t"]
            assert lasted >= 1100, f"a finished trick stayed only {lasted:.0f} ms"
            assert any(s["sweep"] for s in run), "the finished trick was not swept"
            checked_trick_hold = True
    assert_steady(samples(tab), "1280x800")
    assert long_log, "the log never grew long enough to scroll"
    assert shot
    tab.check_errors()


def test_the_pace_setting_is_kept_and_no_pauses_deals_at_once(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """The pace is a page setting: kept over a reload; "no pauses" shows each state
    as it comes (the next hand at once, no hold)."""
    tab = open_tab(tabs, browser, width=1280, height=800, paced=True)
    page = tab.page
    start_game(tab, server, api, {"variant": "cutthroat", "target": 50})
    options = [o.get_attribute("value") for o in page.locator("#pace option").all()]
    assert options == ["slow", "normal", "fast", "off"]
    set_pace(tab, "slow")
    page.reload()
    page.wait_for_selector("#table[data-status='playing']")
    assert page.input_value("#pace") == "slow"
    set_pace(tab, "off")
    page.evaluate(RECORDER)
    deadline = time.monotonic() + 40
    while tab.hands_played() < 1:
        assert time.monotonic() < deadline, "the hand did not finish"
        assert wait_turn_or_hold(tab) == "turn"  # never held
        tab.act()
    assert not any(s["held"] for s in samples(tab))
    tab.check_errors()


def test_phone_width_keeps_the_table_still(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """At 390x844, pace "fast": the board keeps its size through bidding, tricks and
    the hand's end, and the cards' row stays put while cards are played."""
    tab = open_tab(tabs, browser, width=390, height=844, paced=True)
    page = tab.page
    start_game(tab, server, api, {"variant": "cutthroat", "target": 50})
    set_pace(tab, "fast")
    page.evaluate(RECORDER)
    deadline = time.monotonic() + 90
    shot = False
    while True:
        assert time.monotonic() < deadline, "the hand did not finish"
        if wait_turn_or_hold(tab) == "held":
            page.screenshot(path=str(ARTIFACTS / "motion-phone-hand-over.png"), full_page=True)
            page.click("#next-hand")
            break
        v = tab.state()["view"]
        if v["phase"] == "play" and v["current_trick"] and not shot:
            page.screenshot(path=str(ARTIFACTS / "motion-phone.png"), full_page=True)
            shot = True
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        tab.act()
    page.wait_for_function("() => document.getElementById('table').dataset.held !== '1'")
    page.wait_for_timeout(300)
    assert_steady(samples(tab), "390x844", play_only=True)
    tab.check_errors()


def test_partnership_table_keeps_its_size_and_the_match_end_waits_too(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """Four seats at 1280x800, pace "fast", a match of one hand: the board keeps its
    size and the cards their row; the last hand is held like any other, its button
    leading to the match's result."""
    tab = open_tab(tabs, browser, width=1280, height=800, paced=True)
    page = tab.page
    start_game(tab, server, api, {"variant": "partnership", "target": 1, "tie": "share"})
    set_pace(tab, "fast")
    page.evaluate(RECORDER)
    deadline = time.monotonic() + 90
    while wait_turn_or_hold(tab) == "turn":
        assert time.monotonic() < deadline, "the hand did not finish"
        tab.act()
    button = page.locator("#next-hand")
    assert button.inner_text().startswith("See the result (")
    assert page.locator("#winner").is_hidden()  # not before the player goes on
    page.screenshot(path=str(ARTIFACTS / "motion-partnership-hand-over.png"), full_page=True)
    button.click()
    page.locator("#winner").wait_for()
    assert tab.state()["table"]["status"] == "over"
    assert_steady([s for s in samples(tab) if s["seq"] < tab.state()["seq"]], "partnership")
    tab.check_errors()


def test_cards_slide_in_and_honour_reduced_motion(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """A card played to the trick slides in from its seat (a CSS animation), the new
    hand is dealt in; with prefers-reduced-motion neither moves."""
    tab = open_tab(tabs, browser, width=1280, height=800, paced=True)
    page = tab.page
    start_game(tab, server, api, {"variant": "cutthroat", "target": 50})
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no trick card came in time"
        if wait_turn_or_hold(tab) == "held":
            page.click("#next-hand")
            continue
        if page.locator("#trick .slot .card.enter").count():
            break
        tab.act()
    slid = "() => getComputedStyle(document.querySelector('#trick .card.enter')).animationName"
    assert page.evaluate(slid).startswith("from-")
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(slid) == "none"
    sweep = "() => getComputedStyle(document.querySelector('#trick .card')).transitionDuration"
    assert page.evaluate(sweep) == "0s"
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(sweep) != "0s"
    tab.check_errors()


def test_no_card_is_drawn_twice(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """The dealer picking up sees the up-card once (in the hand, marked), not also on
    the table; the maker merging sees the dummy's cards face up, and the table no
    longer draws the dummy face down."""
    tab = open_tab(tabs, browser, width=1280, height=800)  # no pauses
    page = tab.page
    start_game(tab, server, api, {"variant": "cutthroat", "target": 50})
    picked = merged = False
    deadline = time.monotonic() + 90
    while not (picked and merged):
        assert time.monotonic() < deadline, f"picked up {picked}, merged {merged}"
        st = tab.wait_turn()
        v = st["view"]
        if v["phase"] == "pickup" and not picked:
            up = v["up_card"]
            # once on the board and in the hand together (the side panel's last
            # hand may show the same card from the hand before)
            drawn = page.locator(f"#board [data-card='{up}'], #me [data-card='{up}']")
            assert drawn.count() == 1
            assert page.locator(f"#hand .card.up-card[data-card='{up}']").count() == 1
            assert page.locator("#up .card").count() == 0
            assert page.locator("#up .up-in-hand").is_visible()
            page.screenshot(path=str(ARTIFACTS / "motion-pickup.png"))
            picked = True
        if v["phase"] == "keep" and not merged:
            assert page.locator("#dummy .card").count() == 5
            assert page.locator("#board .seat.dummy .card").count() == 0
            page.screenshot(path=str(ARTIFACTS / "motion-merge.png"))
            merged = True
        tab.act(merge=True)
    tab.check_errors()


def test_the_stylesheet_closes_every_block() -> None:
    """Every block of style.css is closed where it should be. A merge once left the
    review page's phone rules open, and the browser quietly dropped every rule after
    them: the phone's fixed board height and the prompt's two lines. The table then
    moved under the player's thumb."""
    css = (Path(web.__file__).parents[1] / "src/euchre/web/static/style.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r'"[^"\n]*"', '""', css)
    depth = 0
    for number, line in enumerate(css.splitlines(), 1):
        for char in line:
            depth += {"{": 1, "}": -1}.get(char, 0)
            assert depth >= 0, f"style.css line {number}: a block closed that was never opened"
        if line.startswith("@media") or (line and not line[0].isspace() and "{" in line):
            # a rule or at-rule at the start of a line begins at the top level
            assert depth == line.count("{") - line.count("}"), (
                f"style.css line {number}: {line.strip()!r} sits inside an unclosed block"
            )
    assert depth == 0, "style.css ends inside an unclosed block"
