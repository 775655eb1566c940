"""The compiled double-dummy solver (src/euchre/_solver.c); use ``euchre.solver``."""

from typing import final

@final
class Core:
    """One position of the solver, with its transposition table."""

    @property
    def nodes(self) -> int:
        """Search nodes visited so far."""

    def can_take(self, k: int, /) -> bool:
        """Whether the maker's side can make its total at least ``k`` tricks."""

    def max_tricks(self) -> int:
        """The maker side's total tricks (already won included) with best play."""

    def move_values(self) -> dict[int, int]:
        """Each legal card id of the seat to act → the maker side's total after it."""

def core(
    numbering: bytes,
    n: int,
    out: int,
    side: int,
    hands: list[int],
    trick: list[int],
    leader: int,
    tricks: list[int],
    played: int,
    release_after: int,
    /,
) -> Core:
    """A solver for one play-phase position (see ``euchre.solver.CompiledSolver``)."""
