"""The search bot's hot path, compiled (src/euchre/_csearch.c); use
``euchre.bots.compiled``."""

class Hand:
    """``FastHand`` in C: a hand dealt from card masks (tests, the search)."""

    phase: int
    turn: int

    def __init__(
        self,
        rules: tuple[int, int, int, int],
        dealer: int,
        hands: list[int],
        dummy: int,
        kitty: list[int],
        /,
    ) -> None: ...
    def step(self, code: int, /) -> None: ...
    def step_recorded(self, code: int, /) -> bool: ...
    def legal_codes(self) -> list[int]: ...
    def copy(self) -> Hand: ...
    def state(self) -> dict[str, object]: ...
    def rule_code(self) -> int: ...
    def finish(self, me: int, /) -> tuple[list[int], int] | None: ...
    def weight(
        self, seat: int, infer_plays: bool, floor: float, partner_eps: float = ..., /
    ) -> float: ...
    def rule_keep(self) -> tuple[Hand, float]: ...
    def move_tricks(self, codes: list[int], /) -> list[int]: ...
    def best_response(self, codes: list[int], /) -> list[int]: ...
    def own_card(self, deals: int, seed: int, /) -> int | None: ...

class Search:
    """What one seat knows of a hand (``bots.compiled.known``)."""

    def __init__(
        self,
        rules: tuple[int, int, int, int],
        seat: int,
        dealer: int,
        phase: int,
        hand: int,
        up: int,
        picked: int,
        merged: bool,
        maker: int,
        trump: int,
        discards: list[int],
        dummy: int,
        history: list[tuple[int, int]],
        played: list[int],
        voids: list[int],  # per seat; then optionally the other places (discards, kitty)
        /,
    ) -> None: ...
    def draw(self, seed: int, n: int, /) -> list[Hand]: ...
    def samples(
        self, seed: int, k: int, oversample: int, infer_plays: bool, partner_eps: float = ..., /
    ) -> list[tuple[Hand, float]]: ...
    def decide(
        self,
        seed: int,
        k: int,
        oversample: int,
        infer_plays: bool,
        candidates: list[int],
        own: int = ...,
        partner_eps: float = ...,
        /,
    ) -> tuple[list[float], list[list[int]]]: ...
    def play(
        self,
        seed: int,
        k: int,
        oversample: int,
        infer_plays: bool,
        codes: list[int],
        own: int = ...,
        partner_eps: float = ...,
        best_response: bool = ...,
        row: list[float] | None = ...,
        partner_rule: bool = ...,
        /,
    ) -> tuple[list[float], list[list[int]], int, list[tuple[int, ...]]]: ...
    def table(self) -> list[tuple[int, ...]]: ...

def value(hand: int, trump: int, dead: int, deck: int, /) -> float: ...
def best_keep(pool: int, trump: int, n: int, dead: int, deck: int, /) -> tuple[float, int]: ...
def greedy_keep(pool: int, trump: int, /) -> int: ...
