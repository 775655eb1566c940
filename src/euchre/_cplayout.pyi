"""Random playouts, compiled (src/euchre/_playout.c); use ``euchre.playout``."""

def hand(
    cutthroat: bool, deck: int, flags: int, lone_defender_points: int, dealer: int, seed: int, /
) -> tuple[bytes, list[tuple[int, int]], tuple[int, ...]]:
    """Deal and play one random hand: (the shuffled deck as card-id bytes, the
    history as ``(seat, code)`` pairs, the points per seat)."""

def playouts(
    cutthroat: bool, deck: int, flags: int, lone_defender_points: int, n: int, seed: int, /
) -> tuple[int, int, int, tuple[int, int, int, int, int, int], tuple[int, ...]]:
    """Play ``n`` random hands, hand ``i`` dealt by seat ``i % seats`` from seed
    ``seed + i``: (decisions, thrown in, hands with a lone player, hands by the
    maker side's tricks 0..5, points per seat)."""
