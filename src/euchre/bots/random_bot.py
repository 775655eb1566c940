"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..view import View

__all__ = ["RandomBot"]


class RandomBot:
    """Uniformly random legal actions, from its own generator."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal``."""
        return legal[self.rng.randrange(len(legal))]
