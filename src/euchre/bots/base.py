"""The bot protocol and the driver that asks a bot for an action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..hand import HandState, IllegalActionError
from ..view import View

__all__ = ["Bot", "Learner", "StateBot", "act", "decide", "hand_over"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: given what its seat may see and the legal actions,
    return one of them. A bot must not keep or use anything but the views it
    was given (and its own random generator)."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` for ``view.seat``."""
        ...


def decide(bot: Bot, state: HandState, seat: int, scores: Sequence[int] | None = None) -> Action:
    """Ask ``bot`` for ``seat``'s action on ``state`` through the seat's view
    (``View.of``: never the full state). The result is a legal action of the
    state's phase (the Cutthroat maker answers phase ``MAKER`` with ``alone``
    or the merge, and phase ``KEEP`` with the five cards, on views that show
    the dummy only after the merge)."""
    if state.to_act != seat:
        raise IllegalActionError(f"it is not seat {seat}'s turn")
    view = View.of(state, seat, scores)
    action = bot.choose(view, view.legal)
    if action not in view.legal:
        raise IllegalActionError(f"bot {bot.name} chose an illegal action: {action}")
    return action


@runtime_checkable
class Learner(Protocol):
    """A bot that learns across the hands of a match (the search bot at a
    level that adapts, ``bots.style``): once a hand is over it is shown the
    hand through its seat's view (``hand_over``)."""

    def hand_over(self, view: View) -> None:
        """Learn from the finished hand ``view`` shows (this seat's view)."""
        ...


def hand_over(
    bot: object, state: HandState, seat: int, scores: Sequence[int] | None = None
) -> None:
    """Show a finished hand to ``bot`` at ``seat`` through the seat's view, if
    the bot learns (``Learner``); other bots are left alone. ValueError if
    the hand is not over."""
    if not state.is_over:
        raise ValueError("hand_over: the hand is not over")
    if isinstance(bot, Learner):
        bot.hand_over(View.of(state, seat, scores))


@runtime_checkable
class StateBot(Protocol):
    """A measuring bot that is given the full state (the all-seeing ``cheat``
    bot). Never offered to players; only the arena uses it."""

    name: str

    def choose_state(self, state: HandState, seat: int, scores: Sequence[int] | None) -> Action:
        """Pick a legal action for ``seat`` seeing every card."""
        ...


def act(
    bot: Bot | StateBot, state: HandState, seat: int, scores: Sequence[int] | None = None
) -> Action:
    """``decide`` for a view bot; the full state for a ``StateBot``."""
    if isinstance(bot, StateBot):
        action = bot.choose_state(state, seat, scores)
        if not state.is_legal(action):
            raise IllegalActionError(f"bot {bot.name} chose an illegal action: {action}")
        return action
    return decide(bot, state, seat, scores)
