"""Drawing with rich: cards, suits, seats, scores and the table panel of a
seat's ``View``, as ``Text`` and ``Panel`` objects that the caller prints.

``Drawer`` knows the rules (for the seat names and sides) and whether the
terminal shows suit symbols; it never prints anything itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..actions import Action
from ..cards import Card, Suit, sort_for_display
from ..hand import Phase
from ..rules import Rules
from ..view import View
from .words import SUIT_NAMES

__all__ = ["Drawer", "join", "numbered_cards", "seat_names", "sort_suit"]

#: Seat names, clockwise from you (seat 0 sits south).
_NAMES: Final = {3: ("You", "West", "North"), 4: ("You", "West", "North", "East")}

_YOU_STYLE: Final = "bold cyan"
_PARTNER_STYLE: Final = "bold green"
_BOT_STYLE: Final = "bold yellow"


def seat_names(rules: Rules) -> tuple[str, ...]:
    """The names shown for each seat: ``You`` then West, North (, East).

    >>> seat_names(Rules())
    ('You', 'West', 'North')
    """
    return _NAMES[rules.seats]


def join(parts: Iterable[Text], sep: str = "  ") -> Text:
    """The texts one after the other with ``sep`` between them."""
    return Text(sep).join(parts)


def sort_suit(view: View) -> Suit | None:
    """The suit the hand is sorted by: trump, or the up-card's while it may be ordered."""
    if view.trump is not None:
        return view.trump
    if view.phase in (Phase.BID1, Phase.PICKUP):
        return view.up_suit
    return None


def numbered_cards(view: View, before: Sequence[Card | None] = ()) -> list[Card | None]:
    """The cards as numbered on screen (``1`` is the first): the hand, sorted
    (trump first, the left bower among the trumps); with the dummy after it
    when keeping five of ten; with the up-card after it (number 6) when the
    dealer may pick it up, so the hand keeps the numbers it had in round one.

    While the hand is played, pass the numbers of the player's previous turn
    as ``before``: each card keeps its number for the whole hand, and the
    number of a card played stays empty (``None``) instead of going to the
    next card.
    """
    trump = sort_suit(view)
    hand: list[Card | None] = list(sort_for_display(view.hand, trump))
    if view.phase is Phase.KEEP:
        return hand + list(sort_for_display(view.dummy, trump))
    if view.phase is Phase.PICKUP and Action.pickup(view.up_card) in view.legal:
        return [*hand, view.up_card]
    if view.phase is Phase.PLAY and set(view.hand) <= set(before):
        held = set(view.hand)
        return [c if c in held else None for c in before]
    return hand


class Drawer:
    """Draws the parts of a game with ``rules`` as rich ``Text``: suits as
    symbols when ``symbols`` (a UTF terminal), else as letters."""

    def __init__(self, rules: Rules, *, symbols: bool) -> None:
        self.rules = rules
        self.symbols = symbols
        self.names = seat_names(rules)

    # -- cards, suits and seats ----------------------------------------------
    def card(self, card: Card, *, dim: bool = False, trump: Suit | None = None) -> Text:
        """One card, red or black (dimmed when ``dim``: not playable now).
        When ``trump`` is given, the left bower (the jack of trump's colour,
        which counts as trump) is marked with the trump suit: ``J♦(♥)``.

        >>> Drawer(Rules(), symbols=False).card(Card.parse("TH"))
        <text '10H' [Span(0, 3, 'bold red')] ''>
        >>> Drawer(Rules(), symbols=True).card(Card.parse("TH")).plain
        '10♥'
        >>> Drawer(Rules(), symbols=True).card(Card.parse("JD"), trump=Suit.HEARTS).plain
        'J♦(♥)'
        """
        faint = " dim" if dim else ""
        if card.is_joker:
            return Text.assemble(("Jk", "bold magenta" + faint))
        text = card.pretty() if self.symbols else str(card).replace("T", "10")
        style = "bold red" if card.suit is not None and card.suit.is_red else "bold"
        out = Text.assemble((text, style + faint))
        if trump is not None and card.suit is not trump and card.effective_suit(trump) is trump:
            mark = Text.assemble("(", self.suit(trump), ")")
            if dim:
                mark.stylize("dim")
            out.append(mark)
        return out

    def cards(
        self,
        cards: Sequence[Card],
        *,
        start: int | None = None,
        sep: str = "  ",
        trump: Suit | None = None,
    ) -> Text:
        """Cards in a row; numbered from ``start`` when it is given; the left
        bower marked when ``trump`` is given."""
        if start is None:
            return join((self.card(c, trump=trump) for c in cards), sep)
        return join(
            Text.assemble((f"{i}", "dim"), " ", self.card(c, trump=trump))
            for i, c in enumerate(cards, start)
        )

    def suit(self, suit: Suit | None) -> Text:
        """A suit's symbol (or letter); ``?`` for none."""
        if suit is None:
            return Text("?")
        sym = suit.symbol if self.symbols else suit.letter
        return Text.assemble((sym, "bold red" if suit.is_red else "bold"))

    def suit_named(self, suit: Suit) -> Text:
        """A suit's symbol and name (``♥ hearts``)."""
        return self.suit(suit).append(" " + SUIT_NAMES[suit], style="")

    def name(self, seat: int) -> Text:
        """A seat's name in its colour (you, your partner, the others)."""
        style = _BOT_STYLE
        if seat == 0:
            style = _YOU_STYLE
        elif not self.rules.cutthroat and seat == 2:
            style = _PARTNER_STYLE
        return Text.assemble((self.names[seat], style))

    def side_name(self, seat: int) -> Text:
        """A seat's name, or in partnership its side's (``You & North``).

        >>> Drawer(Rules(variant="partnership"), symbols=True).side_name(2).plain
        'You & North'
        """
        if self.rules.cutthroat:
            return self.name(seat)
        a = seat & 1
        return Text.assemble(self.name(a), " & ", self.name(a + 2))

    def mid(self, seat: int) -> Text:
        """A seat's name inside a sentence (``you`` for seat 0)."""
        return self.name(seat) if seat else Text.assemble(("you", _YOU_STYLE))

    def order_word(self, seat: int, dealer: int) -> str:
        """``order``, ``assist`` (the dealer's partner) or ``accept`` (the dealer)."""
        if seat == dealer:
            return "accept"
        if not self.rules.cutthroat and (seat - dealer) % 4 == 2:
            return "assist"
        return "order"

    @staticmethod
    def verb(seat: int, you: str, other: str) -> str:
        """The verb's form for ``seat``: ``you`` for seat 0, else ``other``."""
        return you if seat == 0 else other

    def action(self, action: Action, *, trump: Suit | None = None) -> Text:
        """An action in words (``play J♥``, ``call ♠ spades``); the left bower
        marked when ``trump`` is given."""
        card = action.card
        if action.kind == "play" and card is not None:
            return Text("play ").append(self.card(card, trump=trump))
        if action.kind == "pickup" and card is not None:
            return Text("pick up, discard ").append(self.card(card, trump=trump))
        if action.kind == "keep" and action.cards:
            return Text("keep ").append(self.cards(list(action.cards), trump=trump))
        if action.kind == "call" and action.suit is not None:
            return Text("call ").append(self.suit_named(action.suit))
        return Text(str(action))

    # -- scores and tricks ---------------------------------------------------
    def score_text(self, scores: Sequence[int]) -> Text:
        """The match score, per player or per side, and the target."""
        parts: list[Text] = []
        if self.rules.cutthroat:
            parts = [Text.assemble(self.name(s), f" {v}") for s, v in enumerate(scores)]
        else:
            parts = [Text.assemble(self.side_name(s), f" {scores[s]}") for s in (0, 1)]
        return join(parts, " · ").append(f"   (first to {self.rules.target})", style="dim")

    def standings_text(self, scores: Sequence[int], hands: int) -> Text:
        """The match so far: each player's (or side's) score, best first, after
        ``hands`` hands, and the target.

        >>> Drawer(Rules(), symbols=True).standings_text([1, 4, 1], 3).plain
        'Standings after 3 hands: West 4 · You 1 · North 1   (first to 10)'
        """
        seats = range(len(scores)) if self.rules.cutthroat else range(2)
        ranked = sorted(seats, key=lambda s: -scores[s])
        parts = [Text.assemble(self.side_name(s), f" {scores[s]}") for s in ranked]
        head = Text(f"Standings after {hands} hand{'s' * (hands != 1)}: ", style="bold")
        text = head.append(join(parts, " · "))
        return text.append(f"   (first to {self.rules.target})", style="dim")

    def tricks_text(self, view: View) -> Text:
        """The tricks each seat has taken this hand (and each side's, in partnership)."""
        parts = []
        for s, n in enumerate(view.tricks_won):
            count = "–" if s in view.sitting_out else str(n)
            parts.append(Text.assemble(self.name(s), f" {count}"))
        text = join(parts, " · ")
        if not self.rules.cutthroat:
            won = view.tricks_won
            text.append(f"   (sides {won[0] + won[2]}–{won[1] + won[3]})", style="dim")
        return text

    def trick_text(self, view: View) -> Text:
        """The cards of the trick in progress, by seat."""
        if not view.current_trick:
            return Text("you lead" if view.to_act == 0 else "–", style="dim")
        return join(
            (
                Text.assemble(self.name(s), " ", self.card(c, trump=view.trump))
                for s, c in view.current_trick
            ),
            " · ",
        )

    # -- the table -----------------------------------------------------------
    def table(self, view: View, choices: Sequence[Card | None], hand_no: int) -> Panel:
        """The table as seat 0 sees it in hand ``hand_no``: score, up-card,
        bids, trump, who is alone, the tricks and the numbered ``choices``."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        grid.add_row("Score", self.score_text(view.scores))
        grid.add_row("Up-card", self._up_card_text(view))
        if view.phase is not Phase.PLAY:
            for label, bids in self._bids_rows(view):
                grid.add_row(label, bids)
        if view.trump is not None:
            grid.add_row("Trump", self._trump_text(view))
        if view.alone:
            grid.add_row("Alone", self._alone_text(view))
        if view.phase is Phase.PLAY:
            grid.add_row("Tricks", self.tricks_text(view))
            grid.add_row("This trick", self.trick_text(view))
        if view.phase is Phase.KEEP:
            grid.add_row("Your hand", self.hand_text(view, choices[:5]))
            grid.add_row("Dummy", self.hand_text(view, choices[5:], start=6))
        else:
            label = "Your cards" if view.phase is not Phase.PICKUP else "Hand + up-card"
            grid.add_row(label, self.hand_text(view, choices))
        dealer = Text.assemble(self.name(view.dealer), self.verb(view.dealer, " deal", " deals"))
        title = Text.assemble(f"Hand {hand_no} · ", dealer)
        return Panel(grid, title=title, title_align="left", expand=False)

    def hand_text(self, view: View, choices: Sequence[Card | None], start: int = 1) -> Text:
        """The ``choices`` numbered from ``start`` (an empty number, a card
        played, is skipped), the cards that may not be played dimmed."""
        playable = {a.card for a in view.legal if a.kind == "play"}
        parts = []
        for i, c in enumerate(choices, start):
            if c is None:
                continue
            dim = view.phase is Phase.PLAY and c not in playable
            card = self.card(c, dim=dim, trump=view.trump)
            if view.phase is Phase.PICKUP and c == view.up_card:
                card.append("(up)", style="dim")
            parts.append(Text.assemble((f"{i}", "dim"), " ", card))
        return join(parts)

    def _up_card_text(self, view: View) -> Text:
        text = self.card(view.up_card)
        if view.up_card.is_joker and view.up_suit is not None:
            text.append(" (stands for ").append(self.suit(view.up_suit)).append(")")
        if view.phase in (Phase.JOKER_CALL, Phase.BID1, Phase.PICKUP):
            status = "face up"
        elif view.picked_up:
            dealer = self.name(view.dealer)
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
                word = Text("call ").append(self.suit(Suit.parse(arg)))
            elif kind == "order":
                word = Text(self.order_word(seat, view.dealer))
            elif kind == "pass":
                word = Text(kind)
            else:  # pragma: no cover - the making bid ends the loop first
                break
            rounds[-1].append(Text.assemble(self.name(seat), " ", word))
            if kind != "pass":
                break
            if len(rounds[-1]) == self.rules.seats:
                rounds.append([])
        labels = ("Round one", "Round two")
        return [(labels[i], join(r, " · ")) for i, r in enumerate(rounds) if r]

    def _trump_text(self, view: View) -> Text:
        assert view.trump is not None and view.maker is not None
        text = self.suit_named(view.trump).append(", made by ").append(self.mid(view.maker))
        if view.merged:
            text.append(" with the dummy")
        return text

    def _alone_text(self, view: View) -> Text:
        text = join((self.mid(s) for s in view.alone), ", ")
        if view.sitting_out:
            text.append("  (sitting out: ", style="dim")
            text.append(join((self.mid(s) for s in view.sitting_out), ", "))
            text.append(")", style="dim")
        return text
