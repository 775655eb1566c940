"""The web table in a real browser: Debian's Chromium, headless, driven by Playwright.

Every test talks to a real ``euchre serve`` (tests/webserver.py, SQLite, bots
without delay) through the page only — the lobby, the waiting room, the table —
the way a person would: clicking, typing, pressing keys. The page's last state
message is read from ``window.euchreTable.state()`` to know what is legal (the
page holds nothing else: its own seat's view).

Playwright never downloads a browser here: it launches ``/usr/bin/chromium``.
When that is missing the tests fail (not skip) and say what to install.
A screenshot of the table is saved to ``test-artifacts/table.png``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webserver import Api, ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
STATIC = Path(__file__).resolve().parent.parent / "src" / "euchre" / "web" / "static"
TURN_TIMEOUT = 20_000  # ms: bots act without delay, so a turn comes quickly

#: a hung browser or server fails its test instead of stalling the whole run
pytestmark = pytest.mark.timeout(120)


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


# -- fixtures: one server and one browser for the module ------------------------------


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server.url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium. "
            "Install it with `apt-get install -y chromium` (`make test` does it as root)."
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extra installs it
        pytest.fail("playwright is missing: pip install -e '.[dev]'")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


#: Run in every document before its own scripts: report each Content-Security-Policy
#: violation to the test (``Tab.violations``).
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.euchreCspViolation(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile}:${e.lineNumber}`);
});
"""


#: The table page's pace (a page setting kept in localStorage) set to "no pauses":
#: each state is shown as it comes, and the next hand at once (tests/test_web_table_motion.py
#: tests the pauses).
NO_PAUSES = """
try { localStorage.setItem("euchre.pace", "off"); } catch (e) {}
"""


class Tab:
    """One browser context and page, with the page's errors (console errors,
    exceptions, Content-Security-Policy violations) collected."""

    def __init__(
        self,
        browser: Any,
        *,
        width: int = 1200,
        height: int = 900,
        locale: str = "en-US",
        paced: bool = False,
    ):
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale
        )
        self.context.set_default_timeout(TURN_TIMEOUT)
        self.errors: list[str] = []
        # the server's Content-Security-Policy must block nothing the page does:
        # every violation (also reported on the console) is an error of the page
        self.violations: list[str] = []
        self.context.expose_function("euchreCspViolation", self._violation)
        self.context.add_init_script(CSP_LISTENER)
        if not paced:  # the page's own pauses off: play at the server's speed (no bot delay)
            self.context.add_init_script(NO_PAUSES)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def _violation(self, text: str) -> None:
        self.violations.append(text)
        self.errors.append(f"CSP violation: {text}")

    def close(self) -> None:
        self.context.close()

    def check_errors(self) -> None:
        assert not self.errors, self.errors

    # -- reading the page's state --
    def state(self) -> dict[str, Any]:
        st: dict[str, Any] = self.page.evaluate("() => window.euchreTable.state()")
        return st

    def seq(self) -> int:
        return int(self.state()["seq"])

    def my_turn(self) -> bool:
        return bool(
            self.page.evaluate(
                """() => {
                  const s = window.euchreTable && window.euchreTable.state();
                  return Boolean(s && s.view && s.table.status === "playing"
                    && s.view.to_act === s.seat && s.view.legal.length
                    && !document.body.dataset.pending);
                }"""
            )
        )

    def wait_turn(self, timeout: float = TURN_TIMEOUT) -> dict[str, Any]:
        self.page.wait_for_function(
            """() => {
              const s = window.euchreTable && window.euchreTable.state();
              return Boolean(s && s.view && s.table.status === "playing"
                && s.view.to_act === s.seat && s.view.legal.length
                && !document.body.dataset.pending);
            }""",
            timeout=timeout,
        )
        return self.state()

    def wait_after(self, seq: int) -> dict[str, Any]:
        """Wait for a state newer than ``seq`` (the answer to our action)."""
        self.page.wait_for_function(
            "(old) => window.euchreTable.state().seq > old && !document.body.dataset.pending",
            arg=seq,
        )
        return self.state()

    def hands_played(self) -> int:
        return int(self.state()["table"]["hands_played"])

    # -- acting through the page, as a person --
    def act(self, *, merge: bool = True) -> str:
        """Take one sensible action by clicking: order or call when allowed, merge the
        dummy and keep five, pick up discarding the first card, play the first legal card."""
        st = self.state()
        v = st["view"]
        legal: list[str] = v["legal"]
        page = self.page
        if v["phase"] == "play":
            card = next(a.split()[1] for a in legal if a.startswith("play "))
            page.click(f"#hand .card.legal[data-card='{card}']")
            done = f"play {card}"
        elif v["phase"] == "pickup":
            card = next(a.split()[1] for a in legal if a.startswith("pickup "))
            page.click(f"#hand .card.legal[data-card='{card}']")
            done = f"pickup {card}"
        elif v["phase"] == "keep":
            for card in page.locator("#me .hand .card").all()[:5]:
                card.click()
            page.click("[data-action='keep-selected']")
            done = "keep five"
        else:
            wants = ["keep" if merge else "alone", "order"]
            wants += [a for a in legal if a.startswith("call ")] + ["pass"]
            done = next(a for a in wants if a in legal)
            page.click(f"#actions [data-action='{done}']")
        self.wait_after(st["seq"])
        return done


@pytest.fixture
def tabs(browser: Any) -> Iterator[list[Tab]]:
    opened: list[Tab] = []
    yield opened
    for tab in opened:
        tab.close()


def open_tab(tabs: list[Tab], browser: Any, **kw: Any) -> Tab:
    tab = Tab(browser, **kw)
    tabs.append(tab)
    return tab


def sit_down(tab: Tab, url: str, table_id: str, seat: int, name: str) -> None:
    """Open the invite link, type a name and take ``seat`` in the waiting room."""
    page = tab.page
    page.goto(f"{url}/t/{table_id}")
    page.wait_for_selector("#table[data-status='waiting']")
    page.fill("#join-name", name)
    page.click(f"[data-join-seat='{seat}']")
    page.wait_for_selector(f"#table[data-seat='{seat}']")


# -- the tests ----------------------------------------------------------------------------


def test_one_person_plays_cutthroat_against_two_bots(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """Through the lobby: create, start, and play hands until this person has been
    the maker, merged the dummy without seeing it, kept five and played the hand out."""
    tab = open_tab(tabs, browser)
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    options = api.get("/api/options").json()
    for opt in options["options"]:  # every rule option, with its default
        field = page.locator(f"#opt-{opt['name']}")
        assert field.count() == 1, opt
        if opt.get("type") == "boolean":
            assert field.is_checked() == opt["default"], opt
    assert page.locator("#variant").input_value() == "cutthroat"
    page.fill("#player-name", "Ana")
    page.click("#more-rules summary")  # the rule options are behind "More rules"
    page.fill("#opt-target", "50")
    page.select_option("#seat-1", "easy")
    page.select_option("#seat-2", "easy")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#table[data-status='waiting'][data-seat='0']")
    assert page.locator("#invite-link").input_value().endswith(f"/t/{table_id}")
    summary = api.get(f"/api/tables/{table_id}").json()
    assert summary["rules"]["target"] == 50
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]  # bots chosen
    assert summary["seats"][0]["name"] == "Ana"
    assert summary["name"] == "Ana's table"
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing']")

    en = catalog("en")
    merged_hand: int | None = None
    checked_play = hinted = shot = False
    deadline = time.monotonic() + 45
    while merged_hand is None or tab.hands_played() <= merged_hand:
        assert time.monotonic() < deadline, "no merged hand was played out in time"
        st = tab.wait_turn()
        v = st["view"]
        if v["phase"] == "bid1":  # the right word for this seat
            word = "act.accept" if v["dealer"] == 0 else "act.order"
            assert page.locator("#actions [data-action='order']").inner_text() == en[word]
        if v["phase"] == "maker" and "keep" in v["legal"]:
            # the choice is made without seeing the dummy
            assert v["dummy"] == [] and page.locator("#dummy-wrap").is_hidden()
            assert page.locator("#actions [data-action='alone']").count() == 1
            page.click("#actions [data-action='keep']")
            st = tab.wait_after(st["seq"])
            v = st["view"]
            assert v["phase"] == "keep" and len(v["dummy"]) == 5
            assert page.locator("#dummy .card").count() == 5
            assert page.locator("#hand .card").count() == 5
            keep_button = page.locator("[data-action='keep-selected']")
            chosen = [c.get_attribute("data-card") for c in page.locator("#me .hand .card").all()]
            for card in chosen[:4]:
                page.click(f"#me .hand .card[data-card='{card}']")
            assert keep_button.is_disabled()  # four are not enough
            page.click(f"#me .hand .card[data-card='{chosen[4]}']")
            assert keep_button.is_enabled()
            keep_button.click()
            st = tab.wait_after(st["seq"])
            assert sorted(st["view"]["hand"]) == sorted(chosen[:5])
            assert st["view"]["merged"] is True
            merged_hand = tab.hands_played()
            continue
        if v["phase"] == "play" and not checked_play:
            playable = {a.split()[1] for a in v["legal"]}
            lit = {c.get_attribute("data-card") for c in page.locator("#hand .card.legal").all()}
            dim = {c.get_attribute("data-card") for c in page.locator("#hand .card.dim").all()}
            assert lit == playable and dim == set(v["hand"]) - playable
            if dim:  # a dimmed card does nothing
                dimmed = page.locator(f"#hand .card[data-card='{sorted(dim)[0]}']")
                assert dimmed.get_attribute("aria-disabled") == "true"
                dimmed.click(force=True)
                page.wait_for_timeout(150)
                assert tab.seq() == st["seq"] and tab.my_turn()
            checked_play = True
        if not hinted:
            page.click("#hint-button")
            item = page.locator("#hint-list li[data-action]").first
            item.wait_for()
            assert item.get_attribute("data-action") in v["legal"]
            assert item.inner_text().endswith(en["hint.best"])  # words, not numbers
            hinted = True
        if merged_hand is not None and v["phase"] == "play" and not shot:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True)
            shot = True
        tab.act()

    # the end-of-hand review and the record of the merged hand
    box = page.locator(f"#last-hand[data-index='{merged_hand}']")
    box.wait_for()
    page.locator("#last-hand-review").wait_for()
    assert "5" in page.locator("#last-hand-review").inner_text()
    href = page.locator("#last-hand-record").get_attribute("href")
    assert href == f"/api/tables/{table_id}/hands/{merged_hand}"
    record = api.get(href).json()
    assert any(re.fullmatch(r"0 keep( \w\w){5}", a) for a in record["actions"])
    assert page.locator(f"#history tr[data-index='{merged_hand}']").count() == 1
    # the last trick, on demand: who played what
    page.click("#last-trick-button")
    shown = page.locator("#last-trick-dialog .mini")
    assert shown.count() >= 2
    assert all(c.get_attribute("data-card") for c in shown.locator(".card").all())
    page.click("#last-trick-dialog [data-close]")
    assert (ARTIFACTS / "table.png").stat().st_size > 10_000
    tab.check_errors()


def test_three_people_play_a_hand_with_a_spectator(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    rules = {"variant": "cutthroat", "target": 1, "tie": "share"}  # one hand decides
    table_id = api.create(rules, [None, None, None], "Three")
    players = [open_tab(tabs, browser, width=1000, height=800) for _ in range(3)]
    for seat, (tab, name) in enumerate(zip(players, ("Ann", "Ben", "Cleo"), strict=True)):
        sit_down(tab, server.url, table_id, seat, name)
    players[0].page.click("#start-button")
    for tab in players:
        tab.page.wait_for_selector("#table[data-status='playing']")
    # a fourth person finds the table in the lobby and watches
    watcher = open_tab(tabs, browser, width=1000, height=800)
    watcher.page.goto(server.url + "/")
    row = watcher.page.locator(f".table-row[data-table-id='{table_id}']")
    assert "Ann" in row.inner_text() and "Cleo" in row.inner_text()
    row.locator("a[href$='?watch=1']").click()
    watcher.page.wait_for_selector("#table[data-status='playing']")

    deadline = time.monotonic() + 40
    acted = [0, 0, 0]
    while watcher.hands_played() < 1:
        assert time.monotonic() < deadline, "the hand did not finish"
        moved = False
        for seat, tab in enumerate(players):
            if tab.my_turn():
                tab.act()
                acted[seat] += 1
                moved = True
        if not moved:
            watcher.page.wait_for_timeout(30)
    assert all(acted), acted  # everyone took part
    names = ["Ann", "Ben", "Cleo"]
    for seat, tab in enumerate(players):
        tab.page.wait_for_function("() => window.euchreTable.state().table.hands_played >= 1")
        st = tab.state()
        assert st["seat"] == seat
        # the name cells' text (innerText drops the cell tabs while a row is laid out)
        rows = tab.page.locator("#scores tr th").all_text_contents()
        assert [r.strip() for r in rows] == names
        assert tab.page.locator("#last-hand[data-index='0']").is_visible()
    scores = {json.dumps(tab.state()["table"]["scores"]) for tab in [*players, watcher]}
    assert len(scores) == 1
    # one point was enough: the match is over and its winner shown to everyone
    winners = watcher.state()["table"]["winners"]
    assert watcher.state()["table"]["status"] == "over" and winners
    en = catalog("en")
    if len(winners) == 1:
        banner = en["winner.one"].format(name=names[winners[0]])
    else:  # the defenders of a euchred maker share the win
        banner = en["winner.many"].format(names=", ".join(names[s] for s in winners))
    for tab in [*players, watcher]:
        assert tab.page.locator("#winner").inner_text().startswith(banner)
    # the spectator sees the table but no cards of anyone
    ws = watcher.state()
    assert ws["seat"] is None and ws["view"] is None
    assert watcher.page.locator("#hand .card").count() == 0
    assert watcher.page.locator("#prompt").inner_text() == catalog("en")["prompt.watching"]
    for tab in [*players, watcher]:
        tab.check_errors()


def test_reload_keeps_the_seat_and_the_hand(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    table_id = api.create({"target": 50}, [None, "easy", "easy"])
    tab = open_tab(tabs, browser)
    page = tab.page
    sit_down(tab, server.url, table_id, 0, "Dora")
    page.click("#start-button")
    for _ in range(3):
        tab.wait_turn()
        tab.act()
    before = tab.wait_turn()
    stored = page.evaluate(f"() => localStorage.getItem('euchre.seat.{table_id}')")
    assert json.loads(stored)["seat"] == 0
    page.reload()
    after = tab.wait_turn()
    assert after["seat"] == 0 and page.locator("#table").get_attribute("data-seat") == "0"
    assert after["seq"] == before["seq"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["history"] == before["view"]["history"]
    shown = {c.get_attribute("data-card") for c in page.locator("#hand .card").all()}
    assert set(before["view"]["hand"]) <= shown
    tab.act()  # the seat still acts after the reload
    # the language switch: Spanish words on the table, remembered over a reload
    es = catalog("es")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.locator("#rules-button").inner_text() == es["rules.button"]
    assert page.locator("#score-title").inner_text() == es["score.title"]
    page.reload()
    page.wait_for_selector("#table[data-status='playing']")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.locator("#score-title").inner_text() == es["score.title"]
    assert page.evaluate("() => document.documentElement.lang") == "es"
    tab.check_errors()


def test_phone_width_and_keyboard_play(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    table_id = api.create({"target": 50}, [None, "easy", "easy"])
    tab = open_tab(tabs, browser, width=390, height=844)
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    for variant in ("partnership", "cutthroat"):  # the lobby fits, with 4 seats or 3
        page.select_option("#variant", variant)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    sit_down(tab, server.url, table_id, 0, "Eve")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing']")
    button_by_keyboard = card_by_keyboard = False
    deadline = time.monotonic() + 40
    while not (button_by_keyboard and card_by_keyboard):
        assert time.monotonic() < deadline, "no keyboard action was possible in time"
        st = tab.wait_turn()
        v = st["view"]
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide at phone width"
        for card in page.locator("#hand .card").all():
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        if not button_by_keyboard and page.locator("#actions button").count():
            # Tab to an action button and press Enter
            for _ in range(60):
                page.keyboard.press("Tab")
                if page.evaluate("() => Boolean(document.activeElement.dataset.action)"):
                    break
            action = page.evaluate("() => document.activeElement.dataset.action")
            assert action in v["legal"], action
            page.keyboard.press("Enter")
            after = tab.wait_after(st["seq"])
            assert after["view"]["history"][len(v["history"])] == f"0 {action}"
            button_by_keyboard = True
            continue
        if not card_by_keyboard and v["phase"] == "play":
            # arrows move between cards, a number key plays the card at that place
            page.focus("#hand .card[data-index='1']")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("() => document.activeElement.dataset.index") == "2"
            legal = next(a.split()[1] for a in v["legal"])
            index = page.locator(f"#hand .card[data-card='{legal}']").get_attribute("data-index")
            page.keyboard.press(str(index))
            after = tab.wait_after(st["seq"])
            assert f"0 play {legal}" in after["view"]["history"]
            card_by_keyboard = True
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=True)
            continue
        tab.act()
    tab.check_errors()


def test_languages_and_the_rules_summary(
    server: ServerProcess, browser: Any, tabs: list[Tab]
) -> None:
    en, es, de = catalog("en"), catalog("es"), catalog("de")
    tab = open_tab(tabs, browser, locale="en-US")
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#create-title").inner_text() == en["lobby.create"]
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.locator("#create-title").inner_text() == es["lobby.create"]
    assert page.locator("label[for='opt-target']").text_content() == es["opt.target"]
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#create-title").inner_text() == es["lobby.create"]
    # the rules, one click away, in Spanish
    page.click("#rules-button")
    dialog = page.locator("#rules-dialog")
    assert dialog.is_visible()
    text = dialog.inner_text()
    for key in ("rules.ct.dummy.h", "rules.ct.score.h", "rules.ct.bid.h", "rules.cards.h"):
        assert es[key] in text, key
    page.click("#rules-body [data-variant='partnership']")
    assert es["rules.pt.intro"] in dialog.inner_text()
    page.click("#rules-dialog [data-close]")
    assert not dialog.is_visible()
    tab.check_errors()
    # a German browser gets German without choosing
    german = open_tab(tabs, browser, locale="de-DE")
    german.page.goto(server.url + "/")
    german.page.wait_for_selector("body[data-ready='1']")
    assert german.page.locator("#create-title").inner_text() == de["lobby.create"]
    assert german.page.evaluate("() => document.documentElement.lang") == "de"
    german.check_errors()


def test_partnership_hand_through_the_page(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """Four seats, two teams: partner marked, team scores, the bidding words by seat."""
    en = catalog("en")
    table_id = api.create({"variant": "partnership", "target": 50}, [None, "easy", "easy", "easy"])
    tab = open_tab(tabs, browser)
    page = tab.page
    sit_down(tab, server.url, table_id, 0, "Finn")
    assert page.locator(".wait-seat").count() == 4
    page.click("#start-button")
    page.wait_for_selector("#table[data-status='playing'][data-variant='partnership']")
    assert page.locator("#pos-2 .badge.partner").inner_text() == en["badge.partner"]
    rows = [r.strip() for r in page.locator("#scores tr th").all_text_contents()]
    bot = en["seat.bot_name"]
    names = ["Finn"] + [bot.format(n=n, level=en["level.easy"]) for n in (2, 3, 4)]
    team = en["team.name"]
    assert rows == [team.format(a=names[0], b=names[2]), team.format(a=names[1], b=names[3])]
    deadline = time.monotonic() + 30
    while tab.hands_played() < 1:
        assert time.monotonic() < deadline, "the hand did not finish"
        st = tab.wait_turn()
        v = st["view"]
        if v["phase"] == "bid1":
            word = {0: "act.accept", 2: "act.assist"}.get((0 - v["dealer"]) % 4, "act.order")
            assert page.locator("#actions [data-action='order']").inner_text() == en[word]
        tab.act()
    assert page.locator("#last-hand[data-index='0']").is_visible()
    tab.check_errors()


def test_the_pages_run_under_the_content_security_policy(
    server: ServerProcess, api: Api, browser: Any, tabs: list[Tab]
) -> None:
    """The lobby and the table page come with the strict policy (no inline
    script or style), work under it with no violation, and the browser really
    enforces it: an injected inline script does not run and is reported."""
    tab = open_tab(tabs, browser)
    page = tab.page
    for path in ("/", f"/t/{api.create(bots=['rule', 'rule', 'rule'])}"):
        response = page.goto(server.url + path)
        assert response is not None
        csp = response.headers["content-security-policy"]
        assert "script-src 'self';" in csp and "style-src 'self';" in csp, csp
        assert response.headers["x-frame-options"] == "DENY"
        if path == "/":
            page.wait_for_selector("body[data-ready='1']")
        else:  # the page's own WebSocket is allowed: it connects and shows the table
            page.wait_for_selector("#table[data-status='waiting']")
            page.wait_for_selector("#conn[data-state='open']")
        tab.check_errors()
    page.evaluate(
        """() => {
          const s = document.createElement("script");
          s.textContent = "window.injected = true";
          document.head.append(s);
          document.body.setAttribute("style", "color: red");
        }"""
    )
    deadline = time.monotonic() + 5
    while len(tab.violations) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert page.evaluate("() => window.injected") is None
    assert any(v.startswith("script-src-elem blocked inline") for v in tab.violations), (
        tab.violations
    )
    assert any(v.startswith("style-src-attr blocked inline") for v in tab.violations), (
        tab.violations
    )
