"""The terminal game, ``euchre play``: you against the bots, drawn with rich.

The screen is a scrolling log. Every bid and card is written as it happens;
when it is your turn the table (score, up-card, trump, the trick in progress,
your numbered hand) is drawn and you are asked for an action.

Everything shown comes from your seat's ``View`` (RULES.md §6): other seats'
cards, the kitty, discards and the dummy (unless you merged it) are never
printed. Bots are asked through ``bots.decide`` with their own views.

``TerminalGame`` takes an input function and a ``rich.console.Console`` so a
whole match can be scripted in tests; ``play_main`` is what the command line
calls.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .actions import Action, ActionError
from .bots import DEFAULT_LEVEL, Bot, decide, make_bot
from .bots.search import SearchBot
from .cards import Card, CardError, Suit, effective_suit, sort_for_display
from .hand import HandState, Phase
from .match import Match
from .record import dumps, match_record
from .review import review_hand
from .rules import Rules
from .view import View

__all__ = [
    "KEEP_PROMPT",
    "NEXT_PROMPT",
    "PROMPTS",
    "Command",
    "InputError",
    "TerminalGame",
    "parse_input",
    "play_main",
    "seat_names",
]

InputFn = Callable[[str], str]

#: Seat names, clockwise from you (seat 0 sits south).
_NAMES: Final = {3: ("You", "West", "North"), 4: ("You", "West", "North", "East")}
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

KEEP_PROMPT: Final = "keep> "
#: Prompts handed to the input function, one per kind of question.
PROMPTS: Final = {
    Phase.JOKER_CALL: "joker> ",
    Phase.BID1: "bid> ",
    Phase.PICKUP: "discard> ",
    Phase.BID2: "bid> ",
    Phase.MAKER: "alone or merge> ",
    Phase.KEEP: KEEP_PROMPT,
    Phase.ALONE: "alone> ",
    Phase.PLAY: "play> ",
}
NEXT_PROMPT: Final = "next hand> "

_YOU_STYLE: Final = "bold cyan"
_PARTNER_STYLE: Final = "bold green"
_BOT_STYLE: Final = "bold yellow"


def seat_names(rules: Rules) -> tuple[str, ...]:
    """The names shown for each seat: ``You`` then West, North (, East)."""
    return _NAMES[rules.seats]


# -- parsing what the player types -------------------------------------------


class InputError(ValueError):
    """What the player typed is not an action or a command; ``str`` says why."""


@dataclass(frozen=True, slots=True)
class Command:
    """A word that is not a game action: ``help``, ``score``, ``show``, ``quit``."""

    name: str


_COMMANDS: Final = {
    "help": "help",
    "?": "help",
    "score": "score",
    "scores": "score",
    "show": "show",
    "table": "show",
    "look": "show",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "hint": "hint",
    "suggest": "hint",
    "h?": "hint",
}
_PASS_WORDS: Final = frozenset({"pass", "p"})
_ORDER_WORDS: Final = frozenset(
    {"order", "order up", "order it up", "assist", "accept", "pick it up", "pick up", "up"}
)
_DECLINE_WORDS: Final = frozenset({"decline", "leave", "leave it"})
_ALONE_WORDS: Final = frozenset({"alone", "go alone"})
_MERGE_WORDS: Final = frozenset(
    {"merge", "m", "dummy", "merge dummy", "merge the dummy", "take the dummy", "keep"}
)


def _suit_words() -> dict[str, Suit]:
    words: dict[str, Suit] = {}
    for s in Suit:
        name = _SUIT_NAMES[s]
        for w in (s.letter.lower(), name, name[:-1], s.symbol, "♧♢♡♤"[s]):
            words[w] = s
    return words


_SUIT_WORDS: Final = _suit_words()


def _card_arg(token: str, choices: Sequence[Card]) -> Card:
    """A card named by notation or by its number in ``choices`` (1-based)."""
    if _is_number(token):
        n = int(token)
        if 1 <= n <= len(choices):
            return choices[n - 1]
        if not choices:
            raise InputError(f"no card number {n}: you have no cards to choose from")
        raise InputError(f"no card number {n}: choose 1 to {len(choices)}")
    try:
        return Card.parse(token)
    except CardError:
        raise InputError(
            f"{token!r} is not a card or a card number (cards look like JH, 10d, as)"
        ) from None


def _keep_arg(tokens: Sequence[str], choices: Sequence[Card]) -> Action:
    if len(tokens) != 5:
        raise InputError(f"keep exactly five cards, not {len(tokens)} (e.g. keep 1 2 3 4 5)")
    cards = [_card_arg(t, choices) for t in tokens]
    try:
        return Action.keep(cards)
    except ActionError:
        raise InputError("keep five different cards") from None


def parse_input(text: str, phase: Phase, choices: Sequence[Card]) -> Action | Command:
    """Read one line typed by the player.

    ``choices`` are the cards as numbered on screen (``1`` is the first);
    ``phase`` decides what a bare card means (the discard when picking up,
    else the card to play; in phase ``KEEP``, the Cutthroat maker choosing five
    cards of ten, a line of five cards is the ``keep``). Raises
    ``InputError`` with the reason for anything else. Whether the action is
    legal now is not checked here.
    """
    keep_step = phase is Phase.KEEP
    t = " ".join(text.replace(",", " ").split()).lower()
    if not t:
        raise InputError("type an action, or help to see the choices")
    if t in _COMMANDS:
        return Command(_COMMANDS[t])
    if t in _PASS_WORDS:
        return Action.pass_()
    if t in _DECLINE_WORDS:
        return Action.decline()
    if t in _ALONE_WORDS:
        return Action.alone()
    if t in _MERGE_WORDS and not keep_step:
        return Action.merge()
    if t in _ORDER_WORDS:
        return Action.order()
    if t in _SUIT_WORDS:
        return Action.call(_SUIT_WORDS[t])
    words = t.split()
    head, args = words[0], words[1:]
    if head == "call":
        if len(args) != 1 or args[0] not in _SUIT_WORDS:
            raise InputError("call which suit? e.g. call hearts, call s")
        return Action.call(_SUIT_WORDS[args[0]])
    if t in ("pickup", "discard"):
        raise InputError("discard which card? e.g. discard 3, discard 9c")
    if t.startswith("pick up ") or t.startswith("pickup ") or head == "discard":
        rest = t.removeprefix("pick up ").removeprefix("pickup ").removeprefix("discard ")
        rest = rest.removeprefix("and discard ")
        if len(rest.split()) != 1:
            raise InputError("discard which card? e.g. discard 3, discard 9c")
        return Action.pickup(_card_arg(rest, choices))
    if head == "play":
        if len(args) != 1:
            raise InputError("play which card? e.g. play 2, play 10h")
        return Action.play(_card_arg(args[0], choices))
    if head == "keep":
        return _keep_arg(args, choices)
    if keep_step:
        return _keep_arg(words, choices)
    if len(words) == 1 and (_is_number(head) or _looks_like_card(head)):
        card = _card_arg(head, choices)
        return Action.pickup(card) if phase is Phase.PICKUP else Action.play(card)
    raise InputError(f"don't understand {text.strip()!r}; type help to see the choices")


def _is_number(token: str) -> bool:
    return token.isascii() and token.isdigit()


def _looks_like_card(token: str) -> bool:
    try:
        Card.parse(token)
    except CardError:
        return False
    return True


# -- drawing -----------------------------------------------------------------


def _join(parts: Iterable[Text], sep: str = "  ") -> Text:
    return Text(sep).join(parts)


class TerminalGame:
    """One match in the terminal: seat 0 is the player, bots fill the rest.

    ``input_fn(prompt)`` reads a line (``EOFError`` or ``KeyboardInterrupt``
    leave the game); ``console`` is where everything is drawn. ``delay``
    seconds pass before each bot action (0 in tests). ``confirm_next_hand``
    waits for Enter between hands. ``run()`` plays the match and returns the
    exit status.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        console: Console,
        input_fn: InputFn = input,
        seed: int | None = None,
        save: str | os.PathLike[str] | None = None,
        bots: str = "rule",
        level: str | None = None,
        delay: float = 0.0,
        confirm_next_hand: bool = False,
    ) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        self.rules = rules
        self.seed = seed
        self.console = console
        self.input_fn = input_fn
        self.save_path = Path(save) if save is not None else None
        self.delay = delay
        self.confirm_next_hand = confirm_next_hand
        self.rng = random.Random(seed)
        self.match = Match.new(rules, rng=self.rng)
        self.bots: dict[int, Bot] = {
            s: make_bot(bots, seed * 16 + s, level=level if bots == "search" else None)
            for s in range(1, rules.seats)
        }
        self.bot_kind = bots
        # The hint: the search bot's ranking on the player's own view.
        self.adviser = SearchBot(random.Random(seed * 16), level=level or DEFAULT_LEVEL)
        self.names = seat_names(rules)
        self.save_error: str | None = None
        self.symbols = (console.encoding or "").lower().replace("-", "").startswith("utf")
        self.hand_no = 0

    # -- the match -----------------------------------------------------------
    def run(self) -> int:
        """Play the match to the end (or until the player leaves)."""
        try:
            self._welcome()
            if not self._save():
                return 2
            while not self.match.is_over:
                self._play_hand()
                if not self.match.is_over and self.confirm_next_hand:
                    self._wait_next_hand()
            self._announce_winner()
        except (_Quit, KeyboardInterrupt):
            self._goodbye()
        return 1 if self.save_error else 0

    def _play_hand(self) -> None:
        before = self.match.scores
        self.hand_no = len(self.match.hands) + 1
        self.match = self.match.deal(rng=self.rng)
        self._save()
        self._announce_deal(self._view())
        while self.match.current is not None:
            self._step(self.match.current)
        self._summarize(self._view(), before)
        self._review(self.match.hands[-1])

    def _review(self, hand: HandState) -> None:
        """The solver's look back at the finished hand (all cards now seen)."""
        review = review_hand(hand)
        if review is not None:
            self._say(Text("Review: ", style="bold cyan"), review.summary(list(self.names)))

    def _step(self, state: HandState) -> None:
        seat = state.to_act
        assert seat is not None
        before = View.of(state, 0, self.match.scores)
        if seat == 0 and before.phase is Phase.PLAY and len(before.hand) == 1:
            action = before.legal[0]  # the last card plays itself
            self._pause()
        elif seat == 0:
            action = self._ask(state, before)
        else:
            self._pause()
            action = decide(self.bots[seat], state, seat, self.match.scores)
        self.match = self.match.apply(action, seat)
        self._save()
        self._report(seat, before, self._view())

    def _view(self) -> View:
        """Seat 0's view of the current hand (or of the hand just finished)."""
        m = self.match
        state = m.current if m.current is not None else m.hands[-1]
        return View.of(state, 0, m.scores)

    def _pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    # -- saving --------------------------------------------------------------
    def _save(self) -> bool:
        if self.save_path is None:
            return True
        try:
            self.save_path.write_text(dumps(match_record(self.match)) + "\n", encoding="utf-8")
        except OSError as e:
            if self.save_error is None:
                self._error(f"cannot save the match to {self.save_path}: {e.strerror or e}")
            self.save_error = str(e)
            return False
        return True

    # -- asking the player ---------------------------------------------------
    def _read(self, prompt: str, hint: str | None = None) -> str:
        if hint:
            self.console.print(Text(hint, style="dim"))
        try:
            line = self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt, OSError, ValueError):
            # ValueError: stdin closed; UnicodeDecodeError is one too.
            raise _Quit() from None
        return line

    def _wait_next_hand(self) -> None:
        line = self._read(NEXT_PROMPT, hint="Press Enter for the next hand (or type quit).")
        if _COMMANDS.get(line.strip().lower()) == "quit":
            raise _Quit()

    def _ask(self, state: HandState, view: View) -> Action:
        choices = self._choices(view)
        self._show_table(view, choices)
        self._hint(view)
        prompt = PROMPTS[view.phase]
        while True:
            text = self._read(prompt)
            try:
                parsed = parse_input(text, view.phase, choices)
            except InputError as e:
                self._error(str(e))
                continue
            if isinstance(parsed, Command):
                self._command(parsed, view, choices)
                continue
            if parsed in view.legal:
                return parsed
            self._error(self._why_not(state, parsed))

    def _command(self, cmd: Command, view: View, choices: list[Card]) -> None:
        if cmd.name == "quit":
            raise _Quit()
        if cmd.name == "score":
            self.console.print(Text("Score  ").append(self._score_text(view.scores)))
        elif cmd.name == "show":
            self._show_table(view, choices)
            self._hint(view)
        elif cmd.name == "hint":
            self._suggest(view, choices)
        else:
            self._help(view, choices)

    def _suggest(self, view: View, choices: list[Card]) -> None:
        """The ``hint`` command: the search bot's ranking of the legal actions
        on this seat's view, with the expected points of each."""
        ranked = self.adviser.suggest(view)
        lines = [Text("Hint (expected points of the hand for you, best first):", style="bold")]
        for action, value in ranked[:5]:
            label = Text(f"  {value:+.2f}  ")
            card = action.card
            if card is not None and card in choices:
                label.append(f"{choices.index(card) + 1} ")
            label.append(self._action_words(action))
            lines.append(label)
        if len(ranked) > 5:
            lines.append(Text(f"  … and {len(ranked) - 5} more", style="dim"))
        for line in lines:
            self.console.print(line)

    def _action_words(self, action: Action) -> Text:
        card = action.card
        if action.kind == "play" and card is not None:
            return Text("play ").append(self._card(card))
        if action.kind == "pickup" and card is not None:
            return Text("pick up, discard ").append(self._card(card))
        if action.kind == "keep" and action.cards:
            return Text("keep ").append(self._cards(list(action.cards)))
        if action.kind == "call" and action.suit is not None:
            return Text("call ").append(self._suit_named(action.suit))
        return Text(str(action))

    def _choices(self, view: View) -> list[Card]:
        """The cards as numbered on screen."""
        trump = self._sort_suit(view)
        hand = sort_for_display(view.hand, trump)
        if view.phase is Phase.KEEP:
            return hand + sort_for_display(view.dummy, trump)
        if view.phase is Phase.PICKUP and Action.pickup(view.up_card) in view.legal:
            return sort_for_display([*view.hand, view.up_card], trump)
        return hand

    @staticmethod
    def _sort_suit(view: View) -> Suit | None:
        if view.trump is not None:
            return view.trump
        if view.phase in (Phase.BID1, Phase.PICKUP):
            return view.up_suit
        return None

    def _why_not(self, state: HandState, action: Action) -> str:
        """Why seat 0 may not take ``action`` now, in the engine's words."""
        why = state.why_illegal(action, 0, you=True, pretty=self.symbols)
        return why or f"{action} is not possible now"  # pragma: no cover - legal after all

    # -- text helpers --------------------------------------------------------
    def _card(self, card: Card, *, dim: bool = False) -> Text:
        if card.is_joker:
            return Text.assemble(("Jk", "bold magenta" + (" dim" if dim else "")))
        text = card.pretty() if self.symbols else str(card).replace("T", "10")
        style = "bold red" if card.suit is not None and card.suit.is_red else "bold"
        return Text.assemble((text, style + (" dim" if dim else "")))

    def _plain(self, card: Card) -> str:
        return self._card(card).plain

    def _suit(self, suit: Suit | None) -> Text:
        if suit is None:
            return Text("?")
        sym = suit.symbol if self.symbols else suit.letter
        return Text.assemble((sym, "bold red" if suit.is_red else "bold"))

    def _suit_plain(self, suit: Suit | None) -> str:
        return self._suit(suit).plain

    def _suit_named(self, suit: Suit) -> Text:
        return self._suit(suit).append(" " + _SUIT_NAMES[suit], style="")

    def _name(self, seat: int) -> Text:
        style = _BOT_STYLE
        if seat == 0:
            style = _YOU_STYLE
        elif not self.rules.cutthroat and seat == 2:
            style = _PARTNER_STYLE
        return Text.assemble((self.names[seat], style))

    def _side_name(self, seat: int) -> Text:
        """A seat's name, or in partnership its side's (``You & North``)."""
        if self.rules.cutthroat:
            return self._name(seat)
        a = seat & 1
        return Text.assemble(self._name(a), " & ", self._name(a + 2))

    def _order_word(self, seat: int, dealer: int) -> str:
        """``order``, ``assist`` (the dealer's partner) or ``accept`` (the dealer)."""
        if seat == dealer:
            return "accept"
        if not self.rules.cutthroat and (seat - dealer) % 4 == 2:
            return "assist"
        return "order"

    def _verb(self, seat: int, you: str, other: str) -> str:
        return you if seat == 0 else other

    def _say(self, *parts: str | Text) -> None:
        self.console.print(Text.assemble(*parts))

    def _error(self, message: str) -> None:
        self.console.print(Text("✗ " + message, style="red"))

    def _cards(self, cards: Sequence[Card], *, start: int | None = None, sep: str = "  ") -> Text:
        if start is None:
            return _join((self._card(c) for c in cards), sep)
        return _join(
            Text.assemble((f"{i}", "dim"), " ", self._card(c)) for i, c in enumerate(cards, start)
        )

    def _score_text(self, scores: Sequence[int]) -> Text:
        parts: list[Text] = []
        if self.rules.cutthroat:
            parts = [Text.assemble(self._name(s), f" {v}") for s, v in enumerate(scores)]
        else:
            parts = [Text.assemble(self._side_name(s), f" {scores[s]}") for s in (0, 1)]
        return _join(parts, " · ").append(f"   (first to {self.rules.target})", style="dim")

    # -- the table -----------------------------------------------------------
    def _show_table(self, view: View, choices: list[Card]) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        grid.add_row("Score", self._score_text(view.scores))
        grid.add_row("Up-card", self._up_card_text(view))
        if view.phase is not Phase.PLAY:
            for label, bids in self._bids_rows(view):
                grid.add_row(label, bids)
        if view.trump is not None:
            grid.add_row("Trump", self._trump_text(view))
        if view.alone:
            grid.add_row("Alone", self._alone_text(view))
        if view.phase is Phase.PLAY:
            grid.add_row("Tricks", self._tricks_text(view))
            grid.add_row("This trick", self._trick_text(view))
        if view.phase is Phase.KEEP:
            grid.add_row("Your hand", self._cards(choices[:5], start=1))
            grid.add_row("Dummy", self._cards(choices[5:], start=6))
        else:
            label = "Your cards" if view.phase is not Phase.PICKUP else "Hand + up-card"
            grid.add_row(label, self._hand_text(view, choices))
        dealer = Text.assemble(self._name(view.dealer), self._verb(view.dealer, " deal", " deals"))
        title = Text.assemble(f"Hand {self.hand_no} · ", dealer)
        self.console.print(Panel(grid, title=title, title_align="left", expand=False))

    def _hand_text(self, view: View, choices: list[Card]) -> Text:
        playable = {a.card for a in view.legal if a.kind == "play"}
        parts = []
        for i, c in enumerate(choices, 1):
            dim = view.phase is Phase.PLAY and c not in playable
            card = self._card(c, dim=dim)
            if view.phase is Phase.PICKUP and c == view.up_card:
                card.append("(up)", style="dim")
            parts.append(Text.assemble((f"{i}", "dim"), " ", card))
        return _join(parts)

    def _up_card_text(self, view: View) -> Text:
        text = self._card(view.up_card)
        if view.up_card.is_joker and view.up_suit is not None:
            text.append(" (stands for ").append(self._suit(view.up_suit)).append(")")
        if view.phase in (Phase.JOKER_CALL, Phase.BID1, Phase.PICKUP):
            status = "face up"
        elif view.picked_up:
            dealer = self._name(view.dealer)
            status = f"picked up by {dealer.plain if view.dealer else 'you'}"
        elif view.picked_up is False:
            status = "left in the kitty"
        else:
            status = "turned down"
        return text.append(f"  {status}", style="dim")

    def _bids_rows(self, view: View) -> list[tuple[str, Text]]:
        """The bids of this hand, one row per round (up to the making bid)."""
        history = list(view.history)
        if view.up_card.is_joker and history and history[0][1].startswith("call"):
            history = history[1:]  # the dealer naming the joker's suit
        rounds: list[list[Text]] = [[]]
        for seat, act in history:
            kind, _, arg = act.partition(" ")
            if kind == "call":
                word = Text("call ").append(self._suit(Suit.parse(arg)))
            elif kind == "order":
                word = Text(self._order_word(seat, view.dealer))
            elif kind == "pass":
                word = Text(kind)
            else:  # pragma: no cover - the making bid ends the loop first
                break
            rounds[-1].append(Text.assemble(self._name(seat), " ", word))
            if kind != "pass":
                break
            if len(rounds[-1]) == self.rules.seats:
                rounds.append([])
        labels = ("Round one", "Round two")
        return [(labels[i], _join(r, " · ")) for i, r in enumerate(rounds) if r]

    def _trump_text(self, view: View) -> Text:
        assert view.trump is not None and view.maker is not None
        text = self._suit_named(view.trump).append(", made by ").append(self._mid(view.maker))
        if view.merged:
            text.append(" with the dummy")
        return text

    def _alone_text(self, view: View) -> Text:
        text = _join((self._mid(s) for s in view.alone), ", ")
        if view.sitting_out:
            text.append("  (sitting out: ", style="dim")
            text.append(_join((self._mid(s) for s in view.sitting_out), ", "))
            text.append(")", style="dim")
        return text

    def _mid(self, seat: int) -> Text:
        """A seat's name inside a sentence (``you`` for seat 0)."""
        return self._name(seat) if seat else Text.assemble(("you", _YOU_STYLE))

    def _tricks_text(self, view: View) -> Text:
        parts = []
        for s, n in enumerate(view.tricks_won):
            count = "–" if s in view.sitting_out else str(n)
            parts.append(Text.assemble(self._name(s), f" {count}"))
        text = _join(parts, " · ")
        if not self.rules.cutthroat:
            won = view.tricks_won
            text.append(f"   (sides {won[0] + won[2]}–{won[1] + won[3]})", style="dim")
        return text

    def _trick_text(self, view: View) -> Text:
        if not view.current_trick:
            return Text("you lead" if view.to_act == 0 else "–", style="dim")
        return _join(
            (Text.assemble(self._name(s), " ", self._card(c)) for s, c in view.current_trick),
            " · ",
        )

    # -- hints and help ------------------------------------------------------
    def _hint(self, view: View) -> None:
        self.console.print(Text.assemble(("Your turn: ", "bold"), self._hint_text(view)))

    def _hint_text(self, view: View) -> Text:
        up = self._card(view.up_card)
        suit = self._suit(view.up_suit)
        if view.phase is Phase.KEEP:
            return Text("keep five of these ten cards, by number or name (e.g. keep 1 2 3 6 7)")
        phase = view.phase
        if phase is Phase.JOKER_CALL:
            return Text("the joker is turned up: name the suit it stands for (e.g. call hearts)")
        if phase is Phase.BID1:
            if view.seat == view.dealer:
                return Text.assemble("pass, or accept (pick up ", up, ", ", suit, " trump)")
            who = self._name(view.dealer).plain
            word = self._order_word(view.seat, view.dealer)
            word = "order it up" if word == "order" else word
            return Text.assemble(f"pass, or {word} (", suit, " trump; ", who, " picks up ", up, ")")
        if phase is Phase.PICKUP:
            text = Text.assemble("pick up ", up, " and discard a card (e.g. discard 6)")
            if Action.decline() in view.legal:
                text.append(", or decline to leave it")
            return text
        if phase is Phase.BID2:
            calls = [a.suit for a in view.legal if a.suit is not None]
            text = Text("pass, or call " if Action.pass_() in view.legal else "call ")
            return text.append(_join((self._suit_named(s) for s in calls), " / "))
        if phase is Phase.MAKER:
            return Text("go alone, or merge the dummy? (alone / merge; you see it after merging)")
        if phase is Phase.ALONE:
            return Text("go alone? (alone / pass)")
        if not view.current_trick:
            return Text("you lead: play a card (by number or name)")
        led = effective_suit(view.current_trick[0][1], view.trump)
        return Text.assemble("play a card (follow ", self._suit(led), " if you can)")

    def _help(self, view: View, choices: list[Card]) -> None:
        lines = [Text("What you can do now:", style="bold")]
        lines += [Text("  ").append(line) for line in self._help_lines(view, choices)]
        lines.append(
            Text(
                "  Also: help · show (the table again) · score · quit (cards by number, "
                "or by name like JH, 10d, as)",
                style="dim",
            )
        )
        for line in lines:
            self.console.print(line)

    def _help_lines(self, view: View, choices: list[Card]) -> list[Text]:
        if view.phase is Phase.KEEP:
            return [
                Text("keep C1 C2 C3 C4 C5 — keep five of your hand and the dummy (1-10 or names)")
            ]
        up = self._card(view.up_card)
        out: list[Text] = []
        for a in view.legal:
            out.extend(self._help_line(view, a, up, choices))
        return out

    def _help_line(self, view: View, a: Action, up: Text, choices: list[Card]) -> list[Text]:
        kind = a.kind
        phase = view.phase
        if kind == "pass":
            what = "don't go alone" if phase is Phase.ALONE else "let the next player bid"
            return [Text(f"pass — {what}")]
        if kind == "order":
            suit = self._suit(view.up_suit)
            if view.seat == view.dealer:
                return [Text.assemble("order (accept) — pick up ", up, "; ", suit, " is trump")]
            return [Text.assemble("order (order up, assist) — make ", suit, " trump")]
        if kind == "call" and a.suit is not None:
            return [
                Text.assemble(
                    "call ", _SUIT_NAMES[a.suit], " — make ", self._suit(a.suit), " trump"
                )
            ]
        if kind == "decline":
            return [Text.assemble("decline — leave ", up, " in the kitty (trump stays)")]
        if kind == "alone":
            if phase is Phase.MAKER:
                return [Text("alone — play without the dummy")]
            if not self.rules.cutthroat:
                return [Text("alone — go alone: your partner North sits out")]
            other = 3 - view.seat - (view.maker or 0)
            return [Text(f"alone — defend alone: {self.names[other]} sits out")]
        if a.is_merge:
            return [Text("merge — take the dummy, then keep five of the ten cards")]
        card = a.card
        if card is None:
            return []
        n = choices.index(card) + 1 if card in choices else 0
        verb = "discard" if kind == "pickup" else "play"
        return [Text.assemble(f"{verb} {n} — {verb} ", self._card(card))]

    # -- reporting what happened ---------------------------------------------
    def _welcome(self) -> None:
        r = self.rules
        names = ", ".join(self.names[1:])
        if r.cutthroat:
            what = f"Cutthroat Euchre: you against {names}, each for themselves, with a dummy hand."
        else:
            what = "Partnership Euchre: you and North against West and East."
        self.console.print(Text(what, style="bold"))
        self.console.print(
            Text(
                f"{r.describe()}, {r.deck} cards, first to {r.target} · "
                f"bots: {self.bot_kind} · seed {self.seed}",
                style="dim",
            )
        )
        self.console.print(Text("Type help at any prompt for the choices, quit to leave.", "dim"))
        if self.save_path is not None:
            text = Text(f"Saving the match to {self.save_path}", style="dim")
            self.console.print(text, soft_wrap=True)

    def _announce_deal(self, view: View) -> None:
        self.console.print()
        self.console.print(Rule(Text(f"Hand {self.hand_no}", style="bold"), style="blue"))
        dealer = self._name(view.dealer)
        text = Text.assemble(dealer, self._verb(view.dealer, " deal", " deals"), ". Up-card: ")
        text.append(self._card(view.up_card))
        if view.up_card.is_joker:
            text.append(" (the joker)")
        self.console.print(text.append("."))
        hand = sort_for_display(view.hand, self._sort_suit(view))
        self.console.print(Text("Your cards: ").append(self._cards(hand)))

    def _report(self, seat: int, before: View, after: View) -> None:
        """Describe the action just taken (from seat 0's views only)."""
        new = after.history[len(before.history) :]
        if not new:  # the maker's merge: public only with the keep that follows
            return
        _, act = new[0]
        self._say(*self._describe(seat, act, before, after))
        if len(after.tricks) > len(before.tricks):
            self._trick_done(after)

    def _describe(self, seat: int, act: str, before: View, after: View) -> list[str | Text]:
        who = self._name(seat)
        v = self._verb
        words = act.split()
        kind = words[0]
        phase = before.phase
        up = self._card(before.up_card)
        if kind == "play":
            card = self._card(Card.parse(words[1]))
            verb = (
                v(seat, " lead ", " leads ")
                if not before.current_trick
                else v(seat, " play ", " plays ")
            )
            return [who, verb, card]
        if phase is Phase.JOKER_CALL:
            return [who, v(seat, " name ", " names "), self._suit(after.up_suit), " for the joker."]
        if kind == "pass":
            if phase is Phase.ALONE:
                return [who, v(seat, " don't", " doesn't"), " go alone."]
            return [who, v(seat, " pass.", " passes.")]
        if kind == "order":
            suit = self._suit(after.trump)
            if seat == before.dealer:
                return [who, v(seat, " accept", " accepts"), ": ", suit, " is trump."]
            if not self.rules.cutthroat and (seat - before.dealer) % 4 == 2:
                return [who, v(seat, " assist", " assists"), ": ", suit, " is trump."]
            return [who, v(seat, " order", " orders"), " it up: ", suit, " is trump."]
        if kind == "call":
            assert after.trump is not None
            return [who, v(seat, " call ", " calls "), self._suit_named(after.trump), "."]
        if kind == "pickup":
            if len(words) == 2:
                return [
                    who,
                    " pick up ",
                    up,
                    " and discard ",
                    self._card(Card.parse(words[1])),
                    ".",
                ]
            return [who, " picks up ", up, " and discards a card face down."]
        if kind == "decline":
            return [who, v(seat, " leave ", " leaves "), up, " in the kitty."]
        if kind == "keep":
            if len(words) == 6:
                kept = sort_for_display([Card.parse(w) for w in words[1:]], after.trump)
                return [who, " merge the dummy and keep ", self._cards(kept, sep=", "), "."]
            return [who, " merges the dummy and keeps five of the ten cards."]
        if kind == "alone":
            return self._describe_alone(seat, before, after)
        return [who, " ", act]  # pragma: no cover - every action word is handled above

    def _describe_alone(self, seat: int, before: View, after: View) -> list[str | Text]:
        who = self._name(seat)
        out: list[str | Text] = [who, self._verb(seat, " go", " goes"), " alone"]
        if before.phase is Phase.MAKER:
            out.append(", without the dummy")
        out.append("!")
        for s in sorted(set(after.sitting_out) - set(before.sitting_out)):
            out += [" ", self._name(s), self._verb(s, " sit", " sits"), " out."]
        return out

    def _trick_done(self, view: View) -> None:
        trick = view.tricks[-1]
        card = next(c for s, c in trick.cards if s == trick.winner)
        w = trick.winner
        self._say(
            "  → ",
            self._name(w),
            self._verb(w, " take", " takes"),
            f" trick {len(view.tricks)} with ",
            self._card(card),
            ".   ",
            Text("Tricks: ", style="dim"),
            self._tricks_text(view),
        )

    def _summarize(self, view: View, before: Sequence[int]) -> None:
        scores = self.match.scores
        if view.trump is None or view.maker is None:
            why = "Everyone passed" if view.history else "The joker was turned up"
            self._say(Text(f"{why}: the hand is thrown in, no points.", style="bold"))
            return
        m = view.maker
        if self.rules.cutthroat:
            made = view.tricks_won[m]
            maker: Text = self._name(m)
            plural = m == 0
        else:
            made = view.tricks_won[m & 1] + view.tricks_won[(m & 1) + 2]
            maker = self._side_name(m)
            plural = True
        if made == 5:
            verb = " take" if plural else " takes"
            head = Text.assemble(maker, verb, " all five tricks: a march!")
        elif made >= 3:
            head = Text.assemble(maker, f" made it with {made} tricks.")
        else:
            are = " are" if plural else " is"
            head = Text.assemble(maker, are, f" euchred ({made} trick{'s' * (made != 1)}).")
        gains = [
            Text.assemble(self._side_name(s), f" +{scores[s] - before[s]}")
            for s in range(len(scores) if self.rules.cutthroat else 2)
            if scores[s] > before[s]
        ]
        self._say(Text("Hand over: ", style="bold"), head, "  Points: ", _join(gains, ", "))
        self._say(Text("Score: ", style="bold"), self._score_text(scores))

    def _announce_winner(self) -> None:
        winners = self.match.winners
        self.console.print()
        if 0 in winners:
            text = Text("You win the match!" if len(winners) == 1 else "You and North win!")
            text.stylize("bold green")
        else:
            names = " & ".join(self.names[s] for s in winners)
            verb = " wins" if len(winners) == 1 else " win"
            text = Text(f"{names}{verb} the match.", style="bold yellow")
        body = Text.assemble(text, "\n", "Final score: ", self._score_text(self.match.scores))
        self.console.print(Panel(body, expand=False))
        if self.save_path is not None and not self.save_error:
            self._replay_hint()

    def _goodbye(self) -> None:
        self.console.print()
        self.console.print(Text("You left the game.", style="bold"))
        if self.save_path is not None and self._save():
            self.console.print(
                Text(f"The match so far is saved in {self.save_path}", style="dim"), soft_wrap=True
            )
            self._replay_hint()

    def _replay_hint(self) -> None:
        text = Text(f"Replay it with: euchre replay {self.save_path}", style="dim")
        self.console.print(text, soft_wrap=True)


class _Quit(Exception):
    """The player asked to leave (quit, end of input, Ctrl-C)."""


def play_main(
    rules: Rules,
    *,
    seed: int | None = None,
    save: str | None = None,
    bots: str = "rule",
    level: str | None = None,
    color: bool = True,
    delay: float | None = None,
) -> int:
    """Run ``euchre play`` in this terminal; returns the exit status.

    ``delay`` is the pause before each bot action in seconds (default 0.6 on a
    terminal, 0 otherwise; the ``EUCHRE_DELAY`` environment variable sets it).
    """
    console = Console(no_color=not color, highlight=False)
    interactive = console.is_terminal
    if delay is None:
        delay = _env_delay(0.6 if interactive else 0.0)
    with contextlib.suppress(ImportError):  # line editing for input()
        import readline  # noqa: F401
    game = TerminalGame(
        rules,
        console=console,
        input_fn=input,
        seed=seed,
        save=save,
        bots=bots,
        level=level,
        delay=delay,
        confirm_next_hand=interactive,
    )
    return game.run()


def _env_delay(default: float) -> float:
    text = os.environ.get("EUCHRE_DELAY")
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value >= 0 else default
