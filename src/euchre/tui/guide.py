"""Guidance for the player: the line saying what to do on each turn, the
``help`` list of every legal action with how to type it, and the ``hint``
list ranking the legal actions by their expected points.

``Guide`` only builds the lines (rich ``Text``); the game prints them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..actions import Action
from ..cards import Card, Rank, Suit, effective_suit
from ..hand import Phase
from ..view import View
from .drawing import Drawer, join
from .words import SUIT_NAMES

__all__ = ["Guide"]


class Guide:
    """The player's guidance for a seat's ``View``, drawn by ``drawer``."""

    def __init__(self, drawer: Drawer) -> None:
        self.drawer = drawer

    def turn(self, view: View) -> Text:
        """``Your turn:`` and what may be done now, in one line."""
        return Text.assemble(("Your turn: ", "bold"), self.turn_text(view))

    def turn_text(self, view: View) -> Text:
        """What may be done now (``pass, or order it up (♥ trump; …)``)."""
        d = self.drawer
        up = d.card(view.up_card)
        suit = d.suit(view.up_suit)
        if view.phase is Phase.KEEP:
            return Text("keep five of these ten cards, by number or name (e.g. keep 1 2 3 6 7)")
        phase = view.phase
        if phase is Phase.JOKER_CALL:
            return Text("the joker is turned up: name the suit it stands for (e.g. call hearts)")
        if phase is Phase.BID1:
            if view.seat == view.dealer:
                return Text.assemble("pass, or accept (pick up ", up, ", ", suit, " trump)")
            who = d.name(view.dealer).plain
            word = d.order_word(view.seat, view.dealer)
            word = "order it up" if word == "order" else word
            return Text.assemble(f"pass, or {word} (", suit, " trump; ", who, " picks up ", up, ")")
        if phase is Phase.PICKUP:
            text = Text.assemble("pick up ", up, " and discard a card (e.g. discard 5)")
            if Action.decline() in view.legal:
                text.append(", or decline to leave it")
            return text
        if phase is Phase.BID2:
            calls = [a.suit for a in view.legal if a.suit is not None]
            text = Text("pass, or call " if Action.pass_() in view.legal else "call ")
            return text.append(join((d.suit_named(s) for s in calls), " / "))
        if phase is Phase.MAKER:
            return Text("go alone, or merge the dummy? (alone / merge; you see it after merging)")
        if phase is Phase.ALONE:
            return Text("go alone? (alone / pass)")
        if not view.current_trick:
            return Text("you lead: play a card (by number or name)")
        led = effective_suit(view.current_trick[0][1], view.trump)
        return Text.assemble("play a card (follow ", d.suit(led), " if you can)")

    def help(self, view: View, choices: Sequence[Card | None]) -> list[Text]:
        """The ``help`` command's lines: each legal action (``choices`` are the
        cards as numbered on screen) and the other commands."""
        lines = [Text("What you can do now:", style="bold")]
        lines += [Text("  ").append(line) for line in self._help_lines(view, choices)]
        if view.trump is not None:
            left = Card.of(Rank.JACK, view.trump.partner)
            if left in choices:
                d = self.drawer
                t = d.suit(view.trump)
                lines.append(
                    Text.assemble(
                        "  ",
                        d.card(left, trump=view.trump),
                        " is the left bower: it counts as ",
                        t,
                        " trump, not as ",
                        d.suit(view.trump.partner),
                    )
                )
        lines.append(
            Text(
                "  Also: help · show (the table again) · score · quit (cards by number, "
                "or by name like JH, 10d, as)",
                style="dim",
            )
        )
        return lines

    def _help_lines(self, view: View, choices: Sequence[Card | None]) -> list[Text]:
        if view.phase is Phase.KEEP:
            return [
                Text("keep C1 C2 C3 C4 C5 — keep five of your hand and the dummy (1-10 or names)")
            ]
        up = self.drawer.card(view.up_card)
        out: list[Text] = []
        for a in _in_hand_order(view.legal, choices):
            out.extend(self._help_line(view, a, up, choices))
        return out

    def _help_line(
        self, view: View, a: Action, up: Text, choices: Sequence[Card | None]
    ) -> list[Text]:
        d = self.drawer
        kind = a.kind
        phase = view.phase
        if kind == "pass":
            what = "don't go alone" if phase is Phase.ALONE else "let the next player bid"
            return [Text(f"pass — {what}")]
        if kind == "order":
            suit = d.suit(view.up_suit)
            if view.seat == view.dealer:
                return [Text.assemble("order (accept) — pick up ", up, "; ", suit, " is trump")]
            return [Text.assemble("order (order up, assist) — make ", suit, " trump")]
        if kind == "call" and a.suit is not None:
            return [
                Text.assemble("call ", SUIT_NAMES[a.suit], " — make ", d.suit(a.suit), " trump")
            ]
        if kind == "decline":
            return [Text.assemble("decline — leave ", up, " in the kitty (trump stays)")]
        if kind == "alone":
            if phase is Phase.MAKER:
                return [Text("alone — play without the dummy")]
            if not d.rules.cutthroat:
                return [Text("alone — go alone: your partner North sits out")]
            other = 3 - view.seat - (view.maker or 0)
            return [Text(f"alone — defend alone: {d.names[other]} sits out")]
        if a.is_merge:
            return [Text("merge — take the dummy, then keep five of the ten cards")]
        card = a.card
        if card is None:
            return []
        n = choices.index(card) + 1 if card in choices else 0
        verb = "discard" if kind == "pickup" else "play"
        return [Text.assemble(f"{verb} {n} — {verb} ", d.card(card, trump=view.trump))]

    def hint(
        self,
        ranked: Sequence[tuple[Action, float]],
        choices: Sequence[Card | None],
        trump: Suit | None = None,
    ) -> list[Text]:
        """The ``hint`` command's lines: the five best of ``ranked`` (legal
        actions with the expected points of the hand, best first), a card
        with its number in ``choices`` (the left bower marked when ``trump``
        is given)."""
        lines = [Text("Hint (expected points of the hand for you, best first):", style="bold")]
        for action, value in ranked[:5]:
            label = Text(f"  {value:+.2f}  ")
            card = action.card
            if card is not None and card in choices:
                label.append(f"{choices.index(card) + 1} ")
            label.append(self.drawer.action(action, trump=trump))
            lines.append(label)
        if len(ranked) > 5:
            lines.append(Text(f"  … and {len(ranked) - 5} more", style="dim"))
        return lines


def _in_hand_order(legal: Sequence[Action], choices: Sequence[Card | None]) -> list[Action]:
    """``legal`` with its card actions (discards, plays) in the order of the
    cards on screen (``choices``); the other actions keep their places."""
    number = {c: i for i, c in enumerate(choices)}

    def place(a: Action) -> int:
        return number.get(a.card, len(number)) if a.card is not None else len(number)

    cards = iter(sorted((a for a in legal if a.card is not None), key=place))
    return [next(cards) if a.card is not None else a for a in legal]
