"""Tests of the terminal game (``euchre play``), driven by scripted input.

A ``Driver`` plays the human seat: it reads the card numbers from the table
printed on screen, picks a legal action of seat 0 (from seat 0's view only)
and types it in one of the accepted spellings. Along the way it checks that
nothing printed so far in the hand names a card seat 0 cannot know.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from euchre import cli
from euchre.actions import Action
from euchre.bots import SearchBot
from euchre.bots.style import CallStyles
from euchre.cards import Card, Rank, Suit, deck_cards
from euchre.hand import Phase
from euchre.record import match_record, read_match
from euchre.rules import Rules
from euchre.tui import (
    KEEP_PROMPT,
    NEXT_PROMPT,
    Command,
    InputError,
    TerminalGame,
    parse_input,
)
from euchre.view import View

_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_CARD_ON_SCREEN = re.compile(r"(\d+) (Jk|10|[2-9JQKA])([♣♦♥♠])?")
_RULE = re.compile(r"─ Hand (\d+) ─")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


# -- helpers ---------------------------------------------------------------------


def pretty(card: Card) -> str:
    return card.pretty()


def new_game(
    rules: Rules, input_fn: Callable[[str], str], *, seed: int = 1, **kw: object
) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=110)
    game = TerminalGame(rules, console=console, input_fn=input_fn, seed=seed, **kw)  # type: ignore[arg-type]
    return game, out


def hand_segments(text: str) -> list[str]:
    """The output split per hand (segment i is hand i + 1)."""
    starts = [m.start() for m in _RULE.finditer(text)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def current_segment(text: str) -> str:
    starts = [m.start() for m in _RULE.finditer(text)]
    return text[starts[-1] :] if starts else text


def leaked(segment: str, cards: list[Card]) -> list[Card]:
    """The cards of ``cards`` that the text names (pretty or canonical form)."""
    out = []
    for c in cards:
        canon = re.compile(rf"(?<![A-Za-z0-9]){re.escape(str(c))}(?![A-Za-z0-9])")
        if pretty(c) in segment or canon.search(segment):
            out.append(c)
    return out


def numbered_on_screen(text: str) -> dict[int, Card]:
    """The card numbers of the last table printed."""
    panel = text[text.rindex("╭─ Hand") :]
    out: dict[int, Card] = {}
    for line in panel.splitlines():
        if not any(k in line for k in ("Your cards", "Hand + up-card", "Your hand", "Dummy")):
            continue
        for n, rank, sym in _CARD_ON_SCREEN.findall(line):
            card = Card.joker() if rank == "Jk" else Card.parse(rank + "CDHS"["♣♦♥♠".index(sym)])
            out[int(n)] = card
    return out


class Driver:
    """Answers seat 0's prompts with random legal actions in varied spellings,
    checking on every prompt that no unknown card has been printed this hand."""

    def __init__(self, seed: int, strategy: Callable[[View], Action] | None = None) -> None:
        self.rng = random.Random(seed)
        self.strategy = strategy
        self.game: TerminalGame | None = None
        self.out: io.StringIO | None = None
        self.prompts: list[str] = []
        self.checked = 0
        self.check_leaks = True

    def attach(self, game: TerminalGame, out: io.StringIO) -> None:
        self.game, self.out = game, out

    def view(self) -> View:
        assert self.game is not None
        state = self.game.match.current
        assert state is not None and state.to_act == 0
        return View.of(state, 0, self.game.match.scores)

    def text(self) -> str:
        """The output so far, without colour codes."""
        assert self.out is not None
        return _ANSI.sub("", self.out.getvalue())

    def check_no_leak(self, view: View) -> None:
        segment = current_segment(self.text())
        bad = leaked(segment, view.unseen())
        assert not bad, f"printed cards seat 0 cannot know: {bad}\n{segment}"
        self.checked += 1

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == NEXT_PROMPT:
            return ""
        keep = prompt == KEEP_PROMPT
        view = self.view()
        assert keep == (view.phase is Phase.KEEP), (prompt, view.phase)
        if self.check_leaks:
            self.check_no_leak(view)
        if self.strategy is not None and not keep:
            action = self.strategy(view)
        else:
            action = self.rng.choice(view.legal)
        return self.spell(action, numbered_on_screen(self.text()), view)

    def spell(self, a: Action, numbers: dict[int, Card], view: View) -> str:
        r = self.rng
        num = {c: n for n, c in numbers.items()}
        kind = a.kind
        if kind == "pass":
            return r.choice(["pass", "PASS", " p "])
        if kind == "order":
            return r.choice(["order", "Order Up", "assist", "accept", "pick it up"])
        if kind == "decline":
            return r.choice(["decline", "leave it"])
        if kind == "alone":
            return r.choice(["alone", "go alone", "ALONE"])
        if a.is_merge:
            return r.choice(["merge", "keep", "merge the dummy"])
        if kind == "call":
            assert a.suit is not None
            name = _SUIT_NAMES[a.suit]
            return r.choice([f"call {a.suit.letter.lower()}", name, f"call {name.title()}"])
        if kind == "keep":
            cards = list(a.cards)
            assert all(c in num for c in cards), "a kept card is not numbered on screen"
            nums = " ".join(str(num[c]) for c in cards)
            names = " ".join(self.notation(c) for c in cards)
            return r.choice([f"keep {nums}", nums, f"keep {names}", names.upper()])
        card = a.card
        assert card is not None
        assert card in num, f"{card} is not numbered on screen: {numbers}"
        if kind == "pickup":
            n = num[card]
            return r.choice([f"discard {n}", str(n), f"pickup {card}", f"pick up {n}"])
        return r.choice([str(num[card]), self.notation(card), f"play {card}", f"Play {num[card]}"])

    def notation(self, card: Card) -> str:
        text = str(card)
        if self.rng.random() < 0.5:
            text = text.replace("T", "10")
        return text.lower() if self.rng.random() < 0.5 else text


def play(
    rules: Rules, seed: int, driver: Driver | None = None, **kw: object
) -> tuple[TerminalGame, str, int, Driver]:
    driver = driver or Driver(seed)
    game, out = new_game(rules, driver, seed=seed, **kw)
    driver.attach(game, out)
    rc = game.run()
    return game, out.getvalue(), rc, driver


def assert_no_leaks_per_hand(game: TerminalGame, text: str) -> None:
    segments = hand_segments(text)
    hands = list(game.match.hands)
    assert len(segments) == len(hands)
    for i, (hand, segment) in enumerate(zip(hands, segments, strict=True), 1):
        view = View.of(hand, 0)
        bad = leaked(segment, view.unseen())
        assert not bad, f"hand {i} printed {bad}"


def replayed_equal(game: TerminalGame, path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    match = read_match(record)
    assert match_record(match) == match_record(game.match)
    assert match.scores == game.match.scores
    assert match.winners == game.match.winners


# -- whole matches ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_cutthroat_match_to_three(seed: int, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    game, text, rc, driver = play(Rules(target=3), seed, save=str(save))
    assert rc == 0
    assert game.match.is_over
    assert re.search(r"You win the match!|(West|North) wins the match\.", text)
    assert "Final score" in text
    assert driver.checked > 0
    assert_no_leaks_per_hand(game, text)
    replayed_equal(game, save)
    assert read_match(json.loads(save.read_text())).is_over


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_partnership_match_to_three(seed: int, tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    rules = Rules(variant="partnership", target=3)
    game, text, rc, _ = play(rules, seed, save=str(save))
    assert rc == 0 and game.match.is_over
    assert "You & North" in text and "West & East" in text
    assert_no_leaks_per_hand(game, text)
    replayed_equal(game, save)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(deck=25, target=4),
        Rules(deck=32, target=3, stick_the_dealer=True),
        Rules(variant="partnership", deck=25, target=3, dealer_pickup="mandatory"),
        Rules(target=3, dealer_may_discard_upcard=False, may_name_turned_down_suit=True),
    ],
    ids=["joker", "deck32-stick", "partnership-joker", "options"],
)
def test_variants(rules: Rules, tmp_path: Path) -> None:
    save = tmp_path / "v.json"
    for seed in (7, 8):
        game, text, rc, _ = play(rules, seed, save=str(save))
        assert rc == 0 and game.match.is_over
        assert_no_leaks_per_hand(game, text)
        replayed_equal(game, save)


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_default_target_ten(variant: str) -> None:
    rules = Rules(variant=variant)  # type: ignore[arg-type]
    game, text, rc, _ = play(rules, 11, driver=Driver(11), bots="random")
    assert rc == 0 and game.match.is_over
    assert max(game.match.scores) >= 10
    assert_no_leaks_per_hand(game, text)


def test_joker_up_card_called_by_human() -> None:
    """Find a deal with the joker turned up to seat 0 as dealer and name its suit."""
    for seed in range(300):
        rules = Rules(deck=25, target=1)
        driver = Driver(seed)
        _, text, _, _ = play(rules, seed, driver=driver)
        if "joker> " in driver.prompts:
            assert "stands for" in text
            assert re.search(r"You name [♣♦♥♠] for the joker", text)
            return
    pytest.fail("no seed turned the joker up to the human dealer")


def test_confirm_next_hand_prompt_and_quit_there() -> None:
    answers: list[str] = []

    def inp(prompt: str) -> str:
        answers.append(prompt)
        if prompt == NEXT_PROMPT:
            return "quit"
        return "pass" if prompt == "bid> " else driver(prompt)

    driver = Driver(3)
    game, out = new_game(Rules(target=10), inp, seed=3, confirm_next_hand=True)
    driver.attach(game, out)
    assert game.run() == 0
    assert NEXT_PROMPT in answers
    assert "You left the game" in out.getvalue()
    assert len(game.match.hands) == 1


# -- what is shown -----------------------------------------------------------------


def _aggressive(view: View) -> Action:
    """Make trump whenever possible and merge the dummy."""
    legal = view.legal
    for want in (Action.order(), Action.merge()):
        if want in legal:
            return want
    calls = [a for a in legal if a.kind == "call"]
    if calls:
        return calls[0]
    if view.phase is Phase.ALONE:
        return Action.pass_()
    return legal[0]


def test_dummy_not_shown_before_the_merge_choice() -> None:
    seen = 0
    for seed in range(1, 6):
        inner = Driver(seed, strategy=_aggressive)

        def inp(prompt: str, inner: Driver = inner) -> str:
            nonlocal seen
            assert inner.game is not None and inner.out is not None
            state = inner.game.match.current
            if prompt in ("alone or merge> ", KEEP_PROMPT):
                assert state is not None
                dummy = list(state.deal.dummy)
                segment = current_segment(inner.out.getvalue())
                if prompt == KEEP_PROMPT:
                    # now both hands are shown, numbered 1-10
                    numbers = numbered_on_screen(inner.out.getvalue())
                    assert set(numbers) == set(range(1, 11))
                    assert set(dummy) <= set(numbers.values())
                    assert "Dummy" in segment
                    seen += 1
                else:
                    assert not leaked(segment, dummy), "dummy shown before the merge choice"
                    assert "Dummy" not in segment
            return inner(prompt)

        game, out = new_game(Rules(target=4), inp, seed=seed)
        inner.attach(game, out)
        assert game.run() == 0
    assert seen >= 3


def test_table_shows_the_situation() -> None:
    driver = Driver(2)
    _, text, rc, _ = play(Rules(target=3), 2, driver=driver)
    assert rc == 0
    for needle in (
        "Up-card",
        "Your cards",
        "Round one",
        "Trump",
        "This trick",
        "Tricks",
        "Score",
        "Hand over:",
        "deal",
    ):
        assert needle in text, needle
    assert re.search(r"(West|North) (passes|orders it up|accepts|calls)", text)
    assert re.search(r"(West|North) (leads|plays) (10|[9JQKA])[♣♦♥♠]", text)
    assert re.search(r"→ (You take|West takes|North takes) trick \d", text)


def test_colours_on_a_terminal() -> None:
    """Hearts and diamonds are red on a colour terminal; no colour with --no-color."""
    texts = []
    for no_color in (False, True):
        driver = Driver(4)
        out = io.StringIO()
        console = Console(
            file=out, force_terminal=True, color_system="standard", no_color=no_color, width=110
        )
        game = TerminalGame(Rules(target=1), console=console, input_fn=driver, seed=4)
        driver.attach(game, out)
        assert game.run() == 0
        assert driver.checked > 0
        texts.append(out.getvalue())
    color, plain = texts
    assert re.search(r"\x1b\[1;31m(10|[9JQKA])[♥♦]", color)
    assert not re.search(r"\x1b\[1;31m(10|[9JQKA])[♠♣]", color)
    assert re.search(r"\x1b\[1m(10|[9JQKA])[♠♣]", color)
    assert "31m" not in plain and "36m" not in plain


# -- bad input -----------------------------------------------------------------------


class Scripted:
    """Sends scripted lines at chosen prompts, then lets a Driver answer."""

    def __init__(self, driver: Driver, script: Callable[[str, View], list[str]]) -> None:
        self.driver = driver
        self.script = script
        self.pending: list[str] = []
        self.done: set[str] = set()

    def __call__(self, prompt: str) -> str:
        if self.pending:
            return self.pending.pop(0)
        if prompt == NEXT_PROMPT:
            return self.driver(prompt)
        view = self.driver.view()
        key = f"{prompt} {view.phase}"
        if key not in self.done:
            self.done.add(key)
            lines = self.script(prompt, view)
            if lines:
                self.pending = lines[1:]
                return lines[0]
        return self.driver(prompt)


def _bad_lines(prompt: str, view: View) -> list[str]:
    not_held = next(c for c in deck_cards(24) if c not in view.hand and c != view.up_card)
    common = ["", "   ", "garbage", "xyzzy plugh", "play", "call", "call purple", "99", "help"]
    common += ["score", "show", "\x1b[31m", "[bold]hi[/bold]", "keep 1 2", "♠♠♠"]
    if prompt == "bid> " and view.phase is Phase.BID1:
        return [*common, "play 1", "call hearts", "decline", "alone", f"discard {not_held}"]
    if prompt == "bid> " and view.phase is Phase.BID2:
        assert view.up_suit is not None
        return [*common, f"call {view.up_suit.letter}", "order", "play 2"]
    if prompt == "play> ":
        lines = [*common, "order", "pass", "alone", f"play {not_held}", str(not_held), "6"]
        hand = set(view.hand)
        legal_cards = {a.card for a in view.legal}
        illegal = sorted(hand - legal_cards)
        if illegal:
            lines.append(str(illegal[0]))
        return lines
    if prompt == KEEP_PROMPT:
        return ["alone", "keep 1 2 3 4", "1 1 2 3 4", f"keep 1 2 3 4 {not_held}", "11 1 2 3 4"]
    if prompt == "alone or merge> ":
        return ["pass", "keep 1 2 3 4 5", "order"]
    if prompt == "discard> ":
        return ["pass", "order", f"discard {not_held}", "7", "discard"]
    if prompt == "alone> ":
        return ["order", "call c", "play 1"]
    return common


def test_bad_input_is_reprompted_with_a_reason() -> None:
    texts = []
    for seed in range(1, 9):
        driver = Driver(seed, strategy=_aggressive if seed % 2 else None)
        driver.check_leaks = False  # the error messages echo the cards typed
        scripted = Scripted(driver, _bad_lines)
        game, out = new_game(Rules(target=3), scripted, seed=seed)
        driver.attach(game, out)
        assert game.run() == 0
        assert game.match.is_over
        texts.append(out.getvalue())
    text = "\n".join(texts)
    for reason in (
        "✗ type an action, or help to see the choices",
        "✗ don't understand 'garbage'",
        "✗ don't understand 'xyzzy plugh'",
        "✗ play which card?",
        "✗ discard which card?",
        "✗ call which suit?",
        "✗ no card number 99",
        "✗ play is not possible now",
        "✗ order is not possible now",
        "✗ you don't hold",
        "✗ you must follow suit",
        "may not be named in round two",
        "✗ keep exactly five cards",
        "✗ keep five different cards",
        "first choose: alone, or merge the dummy",
        "you chose to merge the dummy",
        "keep only cards from your hand and the dummy (not ",
        "What you can do now:",
        "pass — let the next player bid",
    ):
        assert reason in text, reason
    assert "Traceback" not in text
    # user text is never interpreted as markup or escape codes
    assert "don't understand '[bold]hi[/bold]'" in text
    assert "\x1b" not in text


@pytest.mark.parametrize("how", ["quit", "QUIT", "q", "eof", "interrupt", "exit"])
def test_leaving_mid_match_saves_and_replays(how: str, tmp_path: Path) -> None:
    save = tmp_path / "left.json"
    driver = Driver(5)
    count = 0

    def inp(prompt: str) -> str:
        nonlocal count
        count += 1
        if count < 12:
            return driver(prompt)
        if how == "eof":
            raise EOFError
        if how == "interrupt":
            raise KeyboardInterrupt
        return how

    game, out = new_game(Rules(), inp, seed=5, save=str(save))
    driver.attach(game, out)
    assert game.run() == 0
    text = out.getvalue()
    assert "You left the game." in text
    assert f"saved in {save}" in text
    assert game.match.current is not None or game.match.hands
    replayed_equal(game, save)


def test_interrupt_while_a_bot_thinks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:

    calls = 0

    def sleep(seconds: float) -> None:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr("euchre.tui.game.time.sleep", sleep)
    save = tmp_path / "i.json"
    driver = Driver(6)
    game, out = new_game(Rules(), driver, seed=6, save=str(save), delay=0.01)
    driver.attach(game, out)
    assert game.run() == 0
    assert calls == 5
    assert "You left the game." in out.getvalue()
    replayed_equal(game, save)


def test_unwritable_save_file(tmp_path: Path) -> None:
    game, out = new_game(Rules(), lambda p: "quit", save=str(tmp_path))
    assert game.run() == 2
    assert "cannot save the match" in out.getvalue()


# -- parsing ------------------------------------------------------------------------

_HAND = [Card.parse(c) for c in ("JH", "JD", "AH", "KC", "9S")]


@pytest.mark.parametrize(
    ("text", "phase", "want"),
    [
        ("10h", Phase.PLAY, "play TH"),
        ("th", Phase.PLAY, "play TH"),
        ("TH", Phase.PLAY, "play TH"),
        ("2", Phase.PLAY, "play JD"),
        ("play 10H", Phase.PLAY, "play TH"),
        ("Play 5", Phase.PLAY, "play 9S"),
        ("pass", Phase.BID1, "pass"),
        ("order up", Phase.BID1, "order"),
        ("order it up", Phase.BID1, "order"),
        ("assist", Phase.BID1, "order"),
        ("accept", Phase.BID1, "order"),
        ("pick it up", Phase.BID1, "order"),
        ("call S", Phase.BID2, "call S"),
        ("call hearts", Phase.BID2, "call H"),
        ("hearts", Phase.BID2, "call H"),
        ("h", Phase.BID2, "call H"),
        ("Diamond", Phase.BID2, "call D"),
        ("call ♣", Phase.BID2, "call C"),
        ("pickup 9c", Phase.PICKUP, "pickup 9C"),
        ("discard 9c", Phase.PICKUP, "pickup 9C"),
        ("discard 3", Phase.PICKUP, "pickup AH"),
        ("pick up 1", Phase.PICKUP, "pickup JH"),
        ("4", Phase.PICKUP, "pickup KC"),
        ("qs", Phase.PICKUP, "pickup QS"),
        ("decline", Phase.PICKUP, "decline"),
        ("alone", Phase.ALONE, "alone"),
        ("go alone", Phase.MAKER, "alone"),
        ("keep 1 2 3 4 5", Phase.MAKER, "keep JD JH AH KC 9S"),
        ("joker", Phase.PLAY, "play JK"),
    ],
)
def test_parse_actions(text: str, phase: Phase, want: str) -> None:
    got = parse_input(text, phase, _HAND)
    assert isinstance(got, Action)
    assert got == Action.parse(want)


def test_parse_merge_keep_and_commands() -> None:
    assert parse_input("merge", Phase.MAKER, _HAND) == Action.merge()
    assert parse_input("keep", Phase.MAKER, _HAND) == Action.merge()
    ten = _HAND + [Card.parse(c) for c in ("QH", "9H", "TC", "AS", "KS")]
    got = parse_input("1, 2, 3, 6, 10", Phase.KEEP, ten)
    assert got == Action.keep([ten[i] for i in (0, 1, 2, 5, 9)])
    got = parse_input("jh jd 10c ks ah", Phase.KEEP, ten)
    assert got == Action.parse("keep JH JD TC KS AH")
    for word, name in [("help", "help"), ("?", "help"), ("score", "score"), ("quit", "quit")]:
        assert parse_input(word, Phase.PLAY, _HAND) == Command(name)
    with pytest.raises(InputError, match="keep exactly five"):
        parse_input("merge", Phase.KEEP, ten)
    with pytest.raises(InputError, match="no card number 6"):
        parse_input("6", Phase.PLAY, _HAND)
    with pytest.raises(InputError, match="not a card"):
        parse_input("play 1x", Phase.PLAY, _HAND)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(list(Phase)))
def test_parse_never_crashes(text: str, phase: Phase) -> None:
    try:
        got = parse_input(text, phase, _HAND)
    except InputError as e:
        assert str(e)
    else:
        assert isinstance(got, Action | Command)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=30), st.integers(0, 10**6))
def test_random_typing_never_crashes(lines: list[str], seed: int) -> None:
    it: Iterator[str] = iter(lines)

    def inp(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    game, out = new_game(Rules(), inp, seed=seed)
    assert game.run() == 0
    assert "You left the game." in out.getvalue()


# -- the command line ------------------------------------------------------------------


def test_cli_play_quit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "cli.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nscore\nquit\n"))
    monkeypatch.setenv("EUCHRE_DELAY", "0")
    rc = cli.main(["play", "--seed", "3", "--save", str(save), "--no-color"])
    assert rc == 0
    match = read_match(json.loads(save.read_text()))
    assert match.current is not None


def test_cli_play_subprocess_eof(tmp_path: Path) -> None:
    save = tmp_path / "sub.json"
    proc = subprocess.run(
        [sys.executable, "-m", "euchre", "play", "--seed", "3", "--save", str(save)],
        input="garbage\n12\nplay zz\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={"EUCHRE_DELAY": "0", "PYTHONIOENCODING": "utf-8", "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "You left the game." in proc.stdout
    read_match(json.loads(save.read_text()))
    replay = subprocess.run(
        [sys.executable, "-m", "euchre", "replay", str(save)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replay.returncode == 0, replay.stdout


def test_suit_names_cover_all_suits() -> None:
    for s in Suit:
        assert parse_input(_SUIT_NAMES[s], Phase.BID2, _HAND) == Action.call(s)


def test_going_alone_names_who_sits_out() -> None:
    partner = {"You": "North", "North": "You", "West": "East", "East": "West"}
    lines = []
    for seed in (1, 2, 3):
        _, text, rc, _ = play(Rules(variant="partnership", target=5), seed, bots="random")
        assert rc == 0
        lines += re.findall(r"^(You|West|North|East) goe?s? alone!(.*)$", text, re.M)
    assert lines
    for who, rest in lines:
        assert re.fullmatch(rf" {partner[who]} sits? out\.", rest), (who, rest)


def test_each_played_hand_ends_with_the_solver_review(tmp_path: Path) -> None:
    """Issue 3 §6: after each hand, what the exact solver says the maker could
    have taken with all cards seen."""
    game, text, rc, _ = play(Rules(target=3), 2, save=str(tmp_path / "r.json"))
    assert rc == 0
    played = [h for h in game.match.hands if h.result is not None and not h.result.thrown_in]
    assert played
    assert text.count("Review: With all cards seen and best play") == len(played)


def test_hint_lists_legal_actions_with_expected_points() -> None:
    """Issue 3 §6: ``hint`` shows the search bot's ranking (from the player's
    own view) with expected points, then the game goes on."""
    lines = iter(["hint", "quit"])
    game, out = new_game(Rules(), lambda _prompt: next(lines), seed=5, level="easy")
    assert game.run() == 0
    text = out.getvalue()
    assert "Hint (expected points of the hand for you, best first):" in text
    ranked = re.findall(r"^\s+([+-]\d+\.\d\d)\s+(.*)$", text, flags=re.MULTILINE)
    assert ranked, text
    values = [float(v) for v, _ in ranked]
    assert values == sorted(values, reverse=True)
    assert "You left the game." in text


def test_search_opponents_play_a_short_match() -> None:
    """``euchre play --level easy``: search bots as opponents finish a match."""
    game, text, rc, _ = play(Rules(target=2), 3, bots="search", level="easy")
    assert rc == 0 and game.match.is_over
    assert all(bot.name == "search:easy" for bot in game.bots.values())
    assert_no_leaks_per_hand(game, text)


def test_hard_opponents_learn_each_finished_hand() -> None:
    """``euchre play --level hard``: the search bots learn how the others
    call (``bots.style``) from every finished hand of the match, each
    through its own seat's view, once."""
    game, _, rc, _ = play(Rules(target=2), 5, bots="search", level="hard")
    assert rc == 0 and game.match.is_over
    for seat, bot in game.bots.items():
        assert isinstance(bot, SearchBot) and bot.styles is not None
        want = CallStyles(game.rules, seat)
        for hand in game.match.hands:
            want.observe(View.of(hand, seat))
        assert bot.styles.log_post == want.log_post and bot.styles.seen == want.seen


def test_cli_level_needs_the_search_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "--bots", "rule", "--level", "hard"])
    assert e.value.code == 2
    assert "--level is the search bot's strength" in capsys.readouterr().err


# -- issue 19: help order, stable numbers, standings on quit, the left bower ------------


def _help_blocks(text: str) -> list[list[tuple[str, int, str]]]:
    """Each ``help`` printed: its card lines as (verb, number, card)."""
    blocks = []
    for block in text.split("What you can do now:")[1:]:
        lines = []
        for line in block.splitlines()[1:]:
            m = re.match(r"  (discard|play) (\d+) — \1 (\S+)$", line)
            if not line.startswith("  ") or line.startswith("  Also"):
                break
            if m:
                lines.append((m[1], int(m[2]), m[3]))
        blocks.append(lines)
    return blocks


def test_help_lists_cards_in_hand_order() -> None:
    """Issue 19: ``help`` lists the discards (and the plays) in the order of
    the hand on screen, each with the number shown there."""

    def ask_help(prompt: str, view: View) -> list[str]:
        return ["help"] if prompt in ("discard> ", "play> ") else []

    discards = 0
    for seed in range(1, 7):
        driver = Driver(seed, strategy=_aggressive)
        driver.check_leaks = False  # help's own example names JH
        scripted = Scripted(driver, ask_help)
        game, out = new_game(Rules(target=3), scripted, seed=seed)
        driver.attach(game, out)
        assert game.run() == 0
        for lines in _help_blocks(driver.text()):
            numbers = [n for _, n, _ in lines]
            assert numbers == sorted(numbers), lines
            discards += sum(verb == "discard" for verb, _, _ in lines) > 1
    assert discards


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_quit_prints_the_standings(variant: str) -> None:
    """Issue 19: leaving prints the match standings: each seat's (or side's)
    score, best first, the hands played and the target."""
    driver = Driver(4, strategy=_aggressive)
    hands_seen: list[int] = []

    def inp(prompt: str) -> str:
        hands_seen.append(len(driver.game.match.hands) if driver.game else 0)
        if len(hands_seen) > 1 and hands_seen[-1] >= 2:
            return "quit"
        return driver(prompt)

    rules = Rules(variant=variant, target=10)  # type: ignore[arg-type]
    game, out = new_game(rules, inp, seed=4)
    driver.attach(game, out)
    assert game.run() == 0
    text = driver.text()
    after = text[text.index("You left the game.") :]
    played = len(game.match.hands)
    assert played >= 2
    scores = game.match.scores
    if variant == "cutthroat":
        entries = [(n, scores[s]) for s, n in enumerate(("You", "West", "North"))]
    else:
        entries = [("You & North", scores[0]), ("West & East", scores[1])]
    entries.sort(key=lambda e: -e[1])
    line = " · ".join(f"{n} {v}" for n, v in entries)
    want = f"Standings after {played} hands: {line}   (first to 10)"
    assert want in after, after
    assert "hand in progress is not scored" in after


def test_left_bower_marked_and_grouped_with_trump() -> None:
    """Issue 19: once trump is known, the left bower (the jack of trump's
    colour) is marked with the trump suit wherever the hand is shown, and is
    sorted among the trumps; in the tricks too."""
    marked = played = 0
    for seed in range(1, 13):
        inner = Driver(seed, strategy=_aggressive)

        def inp(prompt: str, inner: Driver = inner) -> str:
            nonlocal marked
            if prompt == NEXT_PROMPT:
                return inner(prompt)
            view = inner.view()
            trump = view.trump
            if trump is not None:
                text = inner.text()
                panel = text[text.rindex("╭─ Hand") :]
                numbers = {c: n for n, c in numbered_on_screen(text).items()}
                left = Card.of(Rank.JACK, trump.partner)
                held = [c for c in view.hand if c in numbers]
                if left in held:
                    mark = f"{numbers[left]} {left.pretty()}({trump.symbol})"
                    assert mark in panel, panel
                    marked += 1
                trumps = [numbers[c] for c in held if c.effective_suit(trump) == trump]
                others = [numbers[c] for c in held if c.effective_suit(trump) != trump]
                assert not trumps or not others or max(trumps) < min(others), panel
                for c in held:
                    if c != left:
                        assert f"{c.pretty()}(" not in panel.replace("(up)", ""), panel
            return inner(prompt)

        game, out = new_game(Rules(target=3), inp, seed=seed)
        inner.attach(game, out)
        assert game.run() == 0
        segments = hand_segments(inner.text())
        for hand, segment in zip(game.match.hands, segments, strict=True):
            trump = View.of(hand, 0).trump
            if trump is None:
                continue
            left = Card.of(Rank.JACK, trump.partner).pretty()
            for m in re.finditer(rf"(?:leads?|plays?|with) {left}(.)", segment):
                assert m[1] == "(", segment
                played += 1
    assert marked >= 3
    assert played >= 3


@pytest.mark.parametrize("variant", ["cutthroat", "partnership"])
def test_card_numbers_stay_put(variant: str) -> None:
    """Issue 19: a card keeps its number while the hand is played (a played
    card's number is not given to another card), and the dealer picking up
    sees the hand numbered as in round one, the up-card after it."""
    tables: list[tuple[tuple[int, int], Phase, dict[int, Card]]] = []
    compared = 0
    for seed in range(1, 6):
        driver = Driver(seed, strategy=_aggressive if seed % 2 else None)

        def inp(prompt: str, driver: Driver = driver, seed: int = seed) -> str:
            if prompt != NEXT_PROMPT:
                assert driver.game is not None
                view = driver.view()
                numbers = numbered_on_screen(driver.text())
                tables.append(((seed, driver.game.hand_no), view.phase, numbers))
                if view.phase is Phase.PICKUP and Action.pickup(view.up_card) in view.legal:
                    assert max(numbers) == len(view.hand) + 1
                    assert numbers[max(numbers)] == view.up_card
            return driver(prompt)

        rules = Rules(variant=variant, target=5)  # type: ignore[arg-type]
        game, out = new_game(rules, inp, seed=seed)
        driver.attach(game, out)
        assert game.run() == 0
    for (hand, phase, numbers), (hand2, phase2, numbers2) in itertools.pairwise(tables):
        if hand != hand2 or (phase, phase2) not in {
            (Phase.PLAY, Phase.PLAY),
            (Phase.BID1, Phase.PICKUP),
        }:
            continue
        compared += 1
        for n, card in numbers2.items():
            if card in numbers.values():
                assert numbers.get(n) == card, (hand, phase, numbers, phase2, numbers2)
    assert compared > 10


def test_number_of_a_played_card_is_refused() -> None:
    """The number of a card already played is not another card's: it is refused."""
    held = [None, Card.parse("9S"), None, Card.parse("AH"), Card.parse("KC")]
    assert parse_input("2", Phase.PLAY, held) == Action.parse("play 9S")
    assert parse_input("play 5", Phase.PLAY, held) == Action.parse("play KC")
    with pytest.raises(InputError, match=r"card 1 is played already: choose 2, 4 or 5"):
        parse_input("1", Phase.PLAY, held)
    with pytest.raises(InputError, match=r"no card number 6: choose 2, 4 or 5"):
        parse_input("6", Phase.PLAY, held)
