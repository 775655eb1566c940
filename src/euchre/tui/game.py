"""The match in the terminal: the loop over hands and turns, saving the record
after every action, and asking the player (reading a line, the commands, the
errors), with drawing, narration and guidance done by the other modules.

``TerminalGame`` takes an input function and a ``rich.console.Console`` so a
whole match can be scripted in tests; ``play_main`` is what the command line
calls.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..actions import Action
from ..bots import DEFAULT_LEVEL, Bot, decide, hand_over, make_bot
from ..bots.search import SearchBot
from ..cards import Card
from ..hand import HandState, Phase
from ..match import Match
from ..record import dumps, match_record
from ..rules import Rules
from ..view import View
from .drawing import Drawer, numbered_cards, seat_names
from .guide import Guide
from .narration import Narrator
from .words import COMMANDS, NEXT_PROMPT, PROMPTS, Command, InputError, parse_input

__all__ = ["TerminalGame", "play_main"]

InputFn = Callable[[str], str]


class TerminalGame:
    """One match in the terminal: seat 0 is the player, bots fill the rest.

    ``input_fn(prompt)`` reads a line (``EOFError`` or ``KeyboardInterrupt``
    leave the game); ``console`` is where everything is drawn. ``delay``
    seconds pass before each bot action (0 in tests). ``confirm_next_hand``
    waits for Enter between hands. ``run()`` plays the match and returns the
    exit status.

    The game owns a ``Drawer`` (``drawer``: cards, the table panel), a
    ``Narrator`` (``narrator``: what happened) and a ``Guide`` (``guide``:
    the turn line, ``help`` and ``hint``).
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
        # The card numbers of the player's last turn in this hand's play.
        self.numbers: list[Card | None] = []
        self.drawer = Drawer(rules, symbols=self.symbols)
        self.narrator = Narrator(console, self.drawer)
        self.guide = Guide(self.drawer)

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
        self.numbers = []
        self._save()
        self.narrator.deal(self._view(), self.hand_no)
        while self.match.current is not None:
            self._step(self.match.current)
        for seat, bot in self.bots.items():  # a bot that learns the match sees the hand
            hand_over(bot, self.match.hands[-1], seat, before)
        self.narrator.hand_over(self._view(), before, self.match.scores)
        self.narrator.review(self.match.hands[-1])

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
        self.narrator.report(seat, before, self._view())

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
        if COMMANDS.get(line.strip().lower()) == "quit":
            raise _Quit()

    def _ask(self, state: HandState, view: View) -> Action:
        choices = numbered_cards(view, self.numbers)
        if view.phase is Phase.PLAY:
            self.numbers = choices
        self._show_table(view, choices)
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

    def _show_table(self, view: View, choices: list[Card | None]) -> None:
        """The table panel, then what may be done now."""
        self.console.print(self.drawer.table(view, choices, self.hand_no))
        self.console.print(self.guide.turn(view))

    def _command(self, cmd: Command, view: View, choices: list[Card | None]) -> None:
        if cmd.name == "quit":
            raise _Quit()
        if cmd.name == "score":
            self.console.print(Text("Score  ").append(self.drawer.score_text(view.scores)))
        elif cmd.name == "show":
            self._show_table(view, choices)
        elif cmd.name == "hint":
            # The search bot's ranking of the legal actions on this seat's view.
            ranked = self.adviser.suggest(view)
            self._print_lines(self.guide.hint(ranked, choices, view.trump))
        else:
            self._print_lines(self.guide.help(view, choices))

    def _print_lines(self, lines: list[Text]) -> None:
        for line in lines:
            self.console.print(line)

    def _why_not(self, state: HandState, action: Action) -> str:
        """Why seat 0 may not take ``action`` now, in the engine's words."""
        why = state.why_illegal(action, 0, you=True, pretty=self.symbols)
        return why or f"{action} is not possible now"  # pragma: no cover - legal after all

    def _error(self, message: str) -> None:
        self.console.print(Text("✗ " + message, style="red"))

    # -- the beginning and the end -------------------------------------------
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

    def _announce_winner(self) -> None:
        self.narrator.match_over(self.match.winners, self.match.scores)
        if self.save_path is not None and not self.save_error:
            self._replay_hint()

    def _goodbye(self) -> None:
        self.console.print()
        self.console.print(Text("You left the game.", style="bold"))
        m = self.match
        self.console.print(self.drawer.standings_text(m.scores, len(m.hands)))
        if m.current is not None:
            note = f"(hand {len(m.hands) + 1}, the hand in progress is not scored)"
            self.console.print(Text(note, style="dim"))
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
