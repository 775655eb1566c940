"""The web table's hints, safer buttons, sound and left-bower mark, in a real browser.

Issue 19, points 4, 7 and 10 (web half): a hint lights the suggested card or
button and says each value in words relative to the best ("best", "close to
the best", "costs about 0.4 points" — never a bare negative number), with the
prompt's own words (the bare keep is "merge"), in sight at 1280x800; the risky
choices (order up, go alone, defend alone, leave it in the kitty) are not the
filled primary style; a number key on a card that may not be played says why
instead of doing nothing; short synthesised sounds (deal, play, trick won) are
off until the player turns them on (remembered); the left bower carries a
trump mark wherever cards are shown once trump is named.

Two kinds of tests: whole games against a real ``euchre serve`` (the fixtures
of tests/test_web_browser.py), and pages whose WebSocket is answered by the
test itself (Playwright's ``route_web_socket``) with crafted states, so each
case (a left bower in the hand, known hint values) comes up at once.
Screenshots: test-artifacts/hints-*.png.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from test_web_browser import (  # the shared fixtures and helpers
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

__all__ = ["api", "browser", "tabs"]  # fixtures used by name (server: conftest.py)

pytestmark = pytest.mark.timeout(120)

EN = catalog("en")


def words(diff: float, first: bool) -> str:
    """The words the page should show for a hint row ``diff`` points below the best."""
    if first:
        return EN["hint.best"]
    if diff < 0.15:
        return EN["hint.close"]
    return EN["hint.costs"].format(points=f"{diff:.1f}")


def hinted_selector(action: str) -> str:
    kind, *rest = action.split()
    if kind in ("play", "pickup"):
        return f"#hand .card.hinted[data-card='{rest[0]}']"
    return f"#actions button.hinted[data-action='{action}']"


def check_hint(tab: Tab, hints: list[dict[str, Any]], v: dict[str, Any]) -> str:
    """Ask for a hint through the page; check its words and the lit choice. The best action."""
    page = tab.page
    before = len(hints)
    page.click("#hint-button")
    page.locator("#hint-list li[data-action]").first.wait_for()
    deadline = time.monotonic() + 10
    while len(hints) == before:  # the hint message as the page got it
        assert time.monotonic() < deadline
        page.wait_for_timeout(20)
    suggest = sorted(hints[-1]["suggest"], key=lambda r: -r["points"])[:8]
    best = suggest[0]["points"]
    items = page.locator("#hint-list li[data-action]")
    assert items.count() == len(suggest)
    for i, row in enumerate(suggest):
        item = items.nth(i)
        assert item.get_attribute("data-action") == row["action"]
        text = item.inner_text()
        diff = best - row["points"]
        said = words(diff, i == 0)
        if said.startswith("costs"):  # the number is rounded to a tenth (half away from zero)
            shown = re.search(r"about (\d+\.\d) points$", text)
            assert shown and abs(float(shown[1]) - diff) <= 0.051, (text, row)
        else:
            assert text.endswith(said), (text, row)
        assert not re.search(r"[−-]\s?\d", text), text  # no bare negative number
    assert "best" in (items.first.get_attribute("class") or "")
    best_action = suggest[0]["action"]
    assert best_action in v["legal"]
    assert page.locator(hinted_selector(best_action)).count() == 1
    assert page.locator("#me .hinted").count() == 1
    return str(best_action)


def in_view(tab: Tab, selector: str, height: int) -> bool:
    box = tab.page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def hint_messages(tab: Tab) -> list[dict[str, Any]]:
    """Every ``hint`` message the page's WebSocket receives, kept in order."""
    got: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "hint":
                got.append(msg)

        ws.on("framereceived", frame)

    tab.page.on("websocket", on_ws)
    return got


# -- against a real server ---------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_hints_light_the_choice_and_say_its_value_in_words(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab], width: int, height: int
) -> None:
    """A whole game: a hint for a bidding button and one for a card, each row in
    words, the best choice lit; at 1280x800 the hint is in sight without scrolling;
    the risky buttons are never the filled primary style."""
    table_id = api.create({"target": 50}, [None, "easy", "easy"])
    tab = open_tab(tabs, browser, width=width, height=height)
    page = tab.page
    hints = hint_messages(tab)
    sit_down(tab, server.url, table_id, 0, "Hana")
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing']")
    name = "desktop" if width > 900 else "phone"
    seen_button = seen_card = False
    deadline = time.monotonic() + 60
    while not (seen_button and seen_card):
        assert time.monotonic() < deadline, "no bidding and play hint in time"
        st = tab.wait_turn()
        v = st["view"]
        for button in page.locator("#actions button[data-action]").all():
            kind = (button.get_attribute("data-action") or "").split()[0]
            cls = button.get_attribute("class") or ""
            if kind in ("order", "alone", "decline"):
                assert "risky" in cls and "primary" not in cls, (kind, cls)
            if kind == "pass":
                assert "primary" not in cls
        is_play = v["phase"] == "play" and len(v["legal"]) > 1
        is_bid = v["phase"] in ("bid1", "bid2", "maker", "alone")
        if (is_play and not seen_card) or (is_bid and not seen_button):
            if width == 1280:  # the Hint button, too, is in sight at the top of the page
                page.evaluate("() => window.scrollTo(0, 0)")
                assert in_view(tab, "#hint-button", height)
            best = check_hint(tab, hints, v)
            if width == 1280:
                # in sight where the page is (scrolled to the Hint button), and from the top
                assert in_view(tab, "#hint-box", height), "the hint is out of sight"
                page.evaluate("() => window.scrollTo(0, 0)")
                assert in_view(tab, "#hint-box", height), "the hint is out of sight"
            else:
                # under the hand on a phone: the page scrolls the hint into sight
                page.wait_for_function(
                    """() => {
                      const r = document.getElementById("hint-box").getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= window.innerHeight + 1;
                    }"""
                )
                assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            ARTIFACTS.mkdir(exist_ok=True)
            shot = "play" if is_play else "bid"
            page.screenshot(path=str(ARTIFACTS / f"hints-{name}-{shot}.png"))
            if is_play:
                seen_card = True
                # the hinted card plays like any other
                page.click(hinted_selector(best))
                tab.wait_after(st["seq"])
                continue
            seen_button = True
        tab.act()
    tab.check_errors()


# -- against the test's own WebSocket ----------------------------------------------------------

TABLE = {
    "table_id": "fake",
    "name": "Fake table",
    "variant": "cutthroat",
    "rules": {"variant": "cutthroat", "target": 10},
    "status": "playing",
    "seats": [
        {"seat": 0, "name": "Ida", "kind": "human"},
        {"seat": 1, "name": "Bot", "kind": "bot", "level": "easy"},
        {"seat": 2, "name": "Bot", "kind": "bot", "level": "easy"},
    ],
    "scores": [0, 0, 0],
    "hands_played": 0,
    "winners": [],
}


def view(**kw: Any) -> dict[str, Any]:
    """A Cutthroat view of seat 0 (only the fields that differ are passed)."""
    base: dict[str, Any] = {
        "variant": "cutthroat",
        "seat": 0,
        "dealer": 2,
        "phase": "bid1",
        "to_act": 0,
        "hand": ["JD", "AH", "9S", "QC", "9D"],
        "up_card": "TH",
        "up_suit": "H",
        "up_card_face_up": True,
        "history": [],
        "trump": None,
        "maker": None,
        "picked_up": None,
        "merged": False,
        "alone": [],
        "sitting_out": [],
        "tricks": [],
        "current_trick": [],
        "tricks_won": [0, 0, 0],
        "discards": [],
        "dummy": [],
        "scores": [0, 0, 0],
        "legal": ["order", "pass"],
    }
    base.update(kw)
    return base


class FakeTable:
    """The table page of a made-up table whose WebSocket the test answers."""

    def __init__(self, tab: Tab, server: ServerProcess) -> None:
        self.tab = tab
        self.route: Any = None
        self.seq = 0
        self.state: dict[str, Any] | None = None
        self.hints: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []  # what the page sent
        page = tab.page
        page.context.add_init_script(
            "localStorage.setItem('euchre.seat.fake', JSON.stringify({seat: 0, token: 't'}));"
        )
        page.route_web_socket(re.compile(r"/ws/fake$"), self._connect)
        page.goto(f"{server.url}/t/fake")
        page.wait_for_selector("body[data-ready='1']")

    def _connect(self, route: Any) -> None:
        self.route = route
        route.on_message(self._message)

    def _message(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        self.sent.append(msg)
        if msg["type"] == "hello" and self.state:
            self.route.send(json.dumps(self.state))
        elif msg["type"] == "hint" and self.hints:
            self.route.send(json.dumps({"type": "hint", "seq": self.seq, "suggest": self.hints}))

    def show(self, v: dict[str, Any], **table: Any) -> None:
        """Send a new state with view ``v``; wait until the page shows it."""
        self.seq += 1
        self.state = {
            "type": "state",
            "seq": self.seq,
            "seat": 0,
            "table": {**TABLE, **table},
            "view": v,
            "public": None,
            "last_hand": None,
        }
        deadline = time.monotonic() + 10
        while self.route is None or not any(m["type"] == "hello" for m in self.sent):
            assert time.monotonic() < deadline, "the page did not say hello"
            self.tab.page.wait_for_timeout(20)
        self.route.send(json.dumps(self.state))
        self.tab.page.wait_for_selector(f"#table[data-seq='{self.seq}']")

    def actions(self) -> list[str]:
        return [m["action"] for m in self.sent if m["type"] == "action"]


def test_hint_words_merge_and_the_left_bower(
    server: ServerProcess, browser: Any, tabs: list[Tab]
) -> None:
    """Known values: the bare keep is "Merge the dummy", best; going alone costs
    about 0.4 points — no negative number shown; the merge button is lit, the
    alone button outlined as risky; the left bower (J♦ under hearts) is marked
    in the hand, in the trick and in the log."""
    tab = open_tab(tabs, browser, width=1280, height=800)
    fake = FakeTable(tab, server)
    page = tab.page
    made = ["0 pass", "1 pass", "2 pass", "0 call H"]
    fake.show(
        view(
            phase="maker",
            up_card_face_up=False,
            trump="H",
            maker=0,
            picked_up=False,
            history=made,
            legal=["alone", "keep"],
        )
    )
    fake.hints = [{"action": "keep", "points": -0.35}, {"action": "alone", "points": -0.75}]
    page.click("#hint-button")
    rows = page.locator("#hint-list li[data-action]")
    rows.first.wait_for()
    assert rows.nth(0).inner_text() == f"{EN['act.merge']} — {EN['hint.best']}"
    costs = EN["hint.costs"].format(points="0.4")
    assert rows.nth(1).inner_text() == f"{EN['act.alone_maker']} — {costs}"
    assert not re.search(r"-\s?\d", page.locator("#hint-box").inner_text())
    assert in_view(tab, "#hint-box", 800)
    merge = page.locator("#actions [data-action='keep']")
    alone = page.locator("#actions [data-action='alone']")
    assert "hinted" in (merge.get_attribute("class") or "")
    assert "primary" in (merge.get_attribute("class") or "")
    assert "risky" in (alone.get_attribute("class") or "")
    assert "primary" not in (alone.get_attribute("class") or "")
    # the left bower in the hand: marked with the trump suit, said in words
    jd = page.locator("#hand .card[data-card='JD']")
    assert jd.get_attribute("data-trump-mark") == "H"
    assert jd.locator(".bower-tag").count() == 1
    assert "left bower" in (jd.get_attribute("aria-label") or "")
    assert page.locator("#hand .bower-tag").count() == 1  # only the jack of diamonds
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hints-fake-merge.png"))
    # merged: the keep step lights the five cards of the suggested keep (in German here)
    fake.show(
        view(
            phase="keep",
            up_card_face_up=False,
            trump="H",
            maker=0,
            merged=True,
            history=[*made, "0 keep"],
            dummy=["AD", "KD", "TD", "9H", "QS"],
            legal=["keep JD AH AD KD 9H", "keep JD AH AD KD TD"],
        )
    )
    keep = ["JD", "AH", "AD", "KD", "9H"]
    fake.hints = [
        {"action": "keep " + " ".join(keep), "points": 1.5},
        {"action": "keep JD AH AD KD TD", "points": 1.45},
    ]
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.click("#hint-button")
    rows.first.wait_for()
    de = catalog("de")
    assert rows.nth(0).inner_text().endswith(de["hint.best"])
    assert rows.nth(1).inner_text().endswith(de["hint.close"])
    lit = {c.get_attribute("data-card") for c in page.locator("#me .hand .card.hinted").all()}
    assert lit == set(keep)
    assert page.locator("#dummy .card[data-card='9H'].hinted").count() == 1
    assert page.locator("#me .bower-tag").count() == 1  # the left bower, in the hand
    page.screenshot(path=str(ARTIFACTS / "hints-fake-keep-de.png"))
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    # later: J♦ won the first trick; the trick and the log mark it too
    played = [*made, "0 keep", "0 keep QC 9D AD KD TD", "1 play AS", "2 play KS", "0 play JD"]
    fake.show(
        view(
            phase="play",
            up_card_face_up=False,
            trump="H",
            maker=0,
            merged=True,
            history=played,
            hand=["AH", "AD", "KD", "TD"],
            tricks=[{"leader": 1, "cards": [[1, "AS"], [2, "KS"], [0, "JD"]], "winner": 0}],
            tricks_won=[1, 0, 0],
            legal=["play AH", "play AD", "play KD", "play TD"],
        )
    )
    assert page.locator("#trick .slot .card[data-card='JD'] .bower-tag").count() == 1
    assert page.locator("#log .card-inline.left-bower").count() == 1
    page.click("#last-trick-button")
    assert page.locator("#last-trick-dialog .card[data-card='JD'] .bower-tag").count() == 1
    page.screenshot(path=str(ARTIFACTS / "hints-fake-bower-dialog.png"))
    page.click("#last-trick-dialog [data-close]")
    page.screenshot(path=str(ARTIFACTS / "hints-fake-bower.png"))
    tab.check_errors()


def test_number_keys_say_why_a_card_may_not_be_played(
    server: ServerProcess, browser: Any, tabs: list[Tab]
) -> None:
    """A number key on a dimmed card sends nothing and says why (follow suit;
    not your turn; a bidding step); on a lit card it plays it. Clicking a dimmed
    card says the same."""
    tab = open_tab(tabs, browser, width=390, height=844)
    fake = FakeTable(tab, server)
    page = tab.page
    hand = ["AH", "9S", "QC", "9D", "KD"]
    history = ["0 order", "2 pickup 9H", "0 pass", "1 pass", "1 play AS"]
    fake.show(
        view(
            phase="play",
            trump="H",
            maker=0,
            up_card_face_up=False,
            picked_up=True,
            hand=hand,
            history=history,
            current_trick=[[1, "AS"]],
            legal=["play 9S"],
        )
    )
    index = {
        c.get_attribute("data-card"): c.get_attribute("data-index")
        for c in page.locator("#hand .card").all()
    }
    page.keyboard.press(str(index["AH"]))
    toast = page.locator("#toast")
    toast.wait_for()
    assert toast.inner_text() == EN["why.follow"]
    page.wait_for_timeout(100)
    assert fake.actions() == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hints-why-follow-phone.png"))
    page.keyboard.press(str(index["9S"]))
    page.wait_for_function("() => document.body.dataset.pending === '1'")
    assert fake.actions() == ["play 9S"]
    # not this seat's turn: the key says whose turn it is
    fake.show(
        view(
            phase="play",
            trump="H",
            maker=0,
            up_card_face_up=False,
            picked_up=True,
            hand=["AH", "QC", "9D", "KD"],
            history=[*history, "0 play 9S"],
            current_trick=[[1, "AS"], [0, "9S"]],
            to_act=2,
            legal=[],
        )
    )
    page.keyboard.press("1")
    page.wait_for_function(
        "(text) => document.getElementById('toast').textContent === text",
        arg=EN["why.not_your_turn"].format(
            name=EN["seat.bot_name"].format(n=3, level=EN["level.easy"])
        ),
    )
    # a bidding step: cards are not played, the buttons are
    fake.show(view(hand=hand, legal=["order", "pass"]))
    page.click("#hand .card[data-card='QC']", force=True)
    page.wait_for_function(
        "(text) => document.getElementById('toast').textContent === text", arg=EN["why.buttons"]
    )
    order = page.locator("#actions [data-action='order']")
    assert "risky" in (order.get_attribute("class") or "")
    assert "primary" not in (order.get_attribute("class") or "")
    page.screenshot(path=str(ARTIFACTS / "hints-risky-phone.png"))
    assert fake.actions() == ["play 9S"]
    tab.check_errors()


def test_sound_is_off_by_default_and_the_switch_is_remembered(
    server: ServerProcess, browser: Any, tabs: list[Tab]
) -> None:
    """No sound until the switch is turned on (then kept in localStorage over a
    reload); then a deal, a card played and a trick won each make their sound,
    synthesised with the Web Audio API (no audio file is fetched)."""
    tab = open_tab(tabs, browser, width=1280, height=800)
    fetched: list[str] = []
    tab.page.on("request", lambda r: fetched.append(r.url))
    fake = FakeTable(tab, server)
    page = tab.page
    button = page.locator("#sound-button")
    assert button.inner_text() == EN["sound.off"]
    played = view(phase="play", trump="H", maker=0, up_card_face_up=False, legal=["play 9S"])
    fake.show(played)
    fake.show({**played, "current_trick": [[1, "AS"]], "history": ["1 play AS"]})
    assert page.evaluate("() => document.body.dataset.soundCount") is None  # off: silent
    button.click()
    assert button.inner_text() == EN["sound.on"]
    assert page.evaluate("() => localStorage.getItem('euchre.sound')") == "on"
    page.wait_for_function("() => document.body.dataset.lastSound === 'play'")  # a sample
    count = int(page.evaluate("() => document.body.dataset.soundCount"))
    trick = [[1, "AS"], [2, "KS"], [0, "9S"]]
    fake.show(
        {
            **played,
            "current_trick": [],
            "tricks": [{"leader": 1, "cards": trick, "winner": 1}],
            "history": ["1 play AS", "2 play KS", "0 play 9S"],
            "hand": ["JD", "AH", "QC", "9D"],
            "to_act": 1,
            "legal": [],
        }
    )
    page.wait_for_function("() => document.body.dataset.lastSound === 'trick'")
    assert int(page.evaluate("() => document.body.dataset.soundCount")) == count + 2
    fake.show(view(), hands_played=1)  # the next deal
    page.wait_for_function("() => document.body.dataset.lastSound === 'deal'")
    assert not [u for u in fetched if re.search(r"\.(mp3|ogg|wav|webm|m4a)\b", u)]
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#sound-button").inner_text() == EN["sound.on"]
    page.screenshot(path=str(ARTIFACTS / "hints-sound.png"))
    page.locator("#sound-button").click()
    assert page.evaluate("() => localStorage.getItem('euchre.sound')") == "off"
    tab.check_errors()
