"""Narration: what happened, told as it happens, from seat 0's views only.

``Narrator`` writes the deal, each action (comparing seat 0's view before and
after it, so nothing seat 0 cannot know is ever told), each finished trick,
the end of a hand with its points, the solver's review and the match's end.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from ..cards import Card, sort_for_display
from ..hand import HandState, Phase
from ..review import review_hand
from ..view import View
from .drawing import Drawer, join, sort_suit

__all__ = ["Narrator"]


class Narrator:
    """Tells on ``console`` what happened, in the words and colours of ``drawer``."""

    def __init__(self, console: Console, drawer: Drawer) -> None:
        self.console = console
        self.drawer = drawer

    def say(self, *parts: str | Text) -> None:
        """Print the parts as one line."""
        self.console.print(Text.assemble(*parts))

    def deal(self, view: View, hand_no: int) -> None:
        """Announce hand ``hand_no``: the dealer, the up-card and seat 0's cards."""
        d = self.drawer
        self.console.print()
        self.console.print(Rule(Text(f"Hand {hand_no}", style="bold"), style="blue"))
        dealer = d.name(view.dealer)
        text = Text.assemble(dealer, d.verb(view.dealer, " deal", " deals"), ". Up-card: ")
        text.append(d.card(view.up_card))
        if view.up_card.is_joker:
            text.append(" (the joker)")
        self.console.print(text.append("."))
        hand = sort_for_display(view.hand, sort_suit(view))
        self.console.print(Text("Your cards: ").append(d.cards(hand)))

    def report(self, seat: int, before: View, after: View) -> None:
        """Describe the action ``seat`` just took (from seat 0's views only)."""
        new = after.history[len(before.history) :]
        if not new:  # the maker's merge: public only with the keep that follows
            return
        _, act = new[0]
        self.say(*self.describe(seat, act, before, after))
        if len(after.tricks) > len(before.tricks):
            self._trick_done(after)

    def describe(self, seat: int, act: str, before: View, after: View) -> list[str | Text]:
        """The sentence for ``act`` (as seat 0's history shows it) by ``seat``."""
        d = self.drawer
        who = d.name(seat)
        v = d.verb
        words = act.split()
        kind = words[0]
        phase = before.phase
        up = d.card(before.up_card)
        if kind == "play":
            card = d.card(Card.parse(words[1]), trump=after.trump)
            verb = (
                v(seat, " lead ", " leads ")
                if not before.current_trick
                else v(seat, " play ", " plays ")
            )
            return [who, verb, card]
        if phase is Phase.JOKER_CALL:
            return [who, v(seat, " name ", " names "), d.suit(after.up_suit), " for the joker."]
        if kind == "pass":
            if phase is Phase.ALONE:
                return [who, v(seat, " don't", " doesn't"), " go alone."]
            return [who, v(seat, " pass.", " passes.")]
        if kind == "order":
            suit = d.suit(after.trump)
            if seat == before.dealer:
                return [who, v(seat, " accept", " accepts"), ": ", suit, " is trump."]
            if not d.rules.cutthroat and (seat - before.dealer) % 4 == 2:
                return [who, v(seat, " assist", " assists"), ": ", suit, " is trump."]
            return [who, v(seat, " order", " orders"), " it up: ", suit, " is trump."]
        if kind == "call":
            assert after.trump is not None
            return [who, v(seat, " call ", " calls "), d.suit_named(after.trump), "."]
        if kind == "pickup":
            if len(words) == 2:
                gone = d.card(Card.parse(words[1]), trump=after.trump)
                return [who, " pick up ", up, " and discard ", gone, "."]
            return [who, " picks up ", up, " and discards a card face down."]
        if kind == "decline":
            return [who, v(seat, " leave ", " leaves "), up, " in the kitty."]
        if kind == "keep":
            if len(words) == 6:
                kept = sort_for_display([Card.parse(w) for w in words[1:]], after.trump)
                shown = d.cards(kept, sep=", ", trump=after.trump)
                return [who, " merge the dummy and keep ", shown, "."]
            return [who, " merges the dummy and keeps five of the ten cards."]
        if kind == "alone":
            return self._describe_alone(seat, before, after)
        return [who, " ", act]  # pragma: no cover - every action word is handled above

    def _describe_alone(self, seat: int, before: View, after: View) -> list[str | Text]:
        d = self.drawer
        out: list[str | Text] = [d.name(seat), d.verb(seat, " go", " goes"), " alone"]
        if before.phase is Phase.MAKER:
            out.append(", without the dummy")
        out.append("!")
        for s in sorted(set(after.sitting_out) - set(before.sitting_out)):
            out += [" ", d.name(s), d.verb(s, " sit", " sits"), " out."]
        return out

    def _trick_done(self, view: View) -> None:
        d = self.drawer
        trick = view.tricks[-1]
        card = next(c for s, c in trick.cards if s == trick.winner)
        w = trick.winner
        self.say(
            "  → ",
            d.name(w),
            d.verb(w, " take", " takes"),
            f" trick {len(view.tricks)} with ",
            d.card(card, trump=view.trump),
            ".   ",
            Text("Tricks: ", style="dim"),
            d.tricks_text(view),
        )

    def hand_over(self, view: View, before: Sequence[int], scores: Sequence[int]) -> None:
        """The end of the hand seen in ``view``: made, march or euchre, the
        points won (the score went from ``before`` to ``scores``) and the score."""
        d = self.drawer
        if view.trump is None or view.maker is None:
            why = "Everyone passed" if view.history else "The joker was turned up"
            self.say(Text(f"{why}: the hand is thrown in, no points.", style="bold"))
            return
        m = view.maker
        if d.rules.cutthroat:
            made = view.tricks_won[m]
            maker: Text = d.name(m)
            plural = m == 0
        else:
            made = view.tricks_won[m & 1] + view.tricks_won[(m & 1) + 2]
            maker = d.side_name(m)
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
            Text.assemble(d.side_name(s), f" +{scores[s] - before[s]}")
            for s in range(len(scores) if d.rules.cutthroat else 2)
            if scores[s] > before[s]
        ]
        self.say(Text("Hand over: ", style="bold"), head, "  Points: ", join(gains, ", "))
        self.say(Text("Score: ", style="bold"), d.score_text(scores))

    def review(self, hand: HandState) -> None:
        """The solver's look back at the finished hand (all cards now seen)."""
        review = review_hand(hand)
        if review is not None:
            self.say(Text("Review: ", style="bold cyan"), review.summary(list(self.drawer.names)))

    def match_over(self, winners: Sequence[int], scores: Sequence[int]) -> None:
        """Who won the match, and the final score."""
        d = self.drawer
        self.console.print()
        if 0 in winners:
            text = Text("You win the match!" if len(winners) == 1 else "You and North win!")
            text.stylize("bold green")
        else:
            names = " & ".join(d.names[s] for s in winners)
            verb = " wins" if len(winners) == 1 else " win"
            text = Text(f"{names}{verb} the match.", style="bold yellow")
        body = Text.assemble(text, "\n", "Final score: ", d.score_text(scores))
        self.console.print(Panel(body, expand=False))
