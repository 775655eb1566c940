"""The partner-peeking measuring bot (``peek:LEVEL``, ``peek:LEVEL:PART``,
``bots.peek``) and the ``reveal`` it gives the compiled search
(``compiled.known``).

Its card play's deals give the partner exactly its true cards and nobody
else any of them (or, shown a part, exactly its cards of that part and
nothing else fixed); its calls are the search bot's; it is shown the hand
for one card play at a time; it refuses Cutthroat; it is named for the
arena only, never for players.
"""

from __future__ import annotations

import random

import pytest

from euchre import Deal, HandState, Phase, Rules
from euchre.arena import check_lineup, play_deal
from euchre.arena.tasks import DealTask
from euchre.bots import (
    ARENA_BOTS,
    BOT_NAMES,
    PEEK_PARTS,
    PeekBot,
    RuleBot,
    SearchBot,
    StateBot,
    act,
    compiled,
    decide,
    make_bot,
)
from euchre.cards import SUIT_MASK, Rank, cards_of, deck_mask, mask_of
from euchre.view import View

pytestmark = pytest.mark.skipif(
    not compiled.COMPILED_AVAILABLE, reason="the compiled search is not built"
)

PARTNERSHIP = Rules(variant="partnership")


def in_play(seed: int, tricks: int = 1) -> HandState:
    """A partnership hand of rule bots, ``tricks`` tricks into the play and
    one card into the next."""
    model = RuleBot(random.Random(0))
    state = HandState(PARTNERSHIP, seed % 4, Deal.random(PARTNERSHIP, random.Random(seed)))
    while not state.is_over and (
        state.phase != Phase.PLAY or len(state.tricks) < tricks or not state.current_trick
    ):
        state = state.apply(decide(model, state, state.to_act or 0))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_revealed_partner_gets_its_true_cards_in_every_deal(seed: int) -> None:
    state = in_play(seed)
    assert not state.is_over
    seat = state.to_act
    assert seat is not None
    partner = (seat + 2) % 4
    truth = mask_of(state.hand(partner))
    view = View.of(state, seat)
    plain = compiled.known(view).draw(seed, 40)
    shown = compiled.known(view, {partner: truth}).draw(seed, 40)
    # without the reveal the partner's hand varies; with it, never
    assert len({h.state()["hands"][partner] for h in plain}) > 1  # type: ignore[index]
    for h in shown:
        hands = h.state()["hands"]
        assert hands[partner] == truth  # type: ignore[index]
        for other in range(4):
            if other != partner:
                assert hands[other] & truth == 0  # type: ignore[index]
        assert hands[seat] == mask_of(view.hand)  # type: ignore[index]


@pytest.mark.parametrize("part", PEEK_PARTS[1:])
@pytest.mark.parametrize("seed", range(4))
def test_a_part_shown_fixes_that_part_and_nothing_else(part: str, seed: int) -> None:
    state = in_play(seed)
    seat = state.to_act
    assert seat is not None and state.trump is not None
    partner = (seat + 2) % 4
    truth = mask_of(state.hand(partner))
    shown = PeekBot(random.Random(0), part=part).shown(state, seat)
    held, about = shown[partner]  # type: ignore[misc]
    deck = deck_mask(PARTNERSHIP.deck)
    trumps = SUIT_MASK[int(state.trump)][int(state.trump)] & deck
    if part == "trumps":
        assert about == trumps and held == truth & trumps
    elif part == "top":
        tops = cards_of(about)
        assert len(tops) == 6  # two bowers, four aces (no joker in the 24-card deck)
        assert all(c.rank == Rank.ACE or c.rank == Rank.JACK for c in tops)
        assert held == truth & about
    else:  # suits: about is every suit the partner holds no card of
        assert held == 0 and about & truth == 0
        for s in range(4):
            suit = SUIT_MASK[int(state.trump)][s] & deck
            assert bool(about & suit) == (not truth & suit)
    view = View.of(state, seat)
    deals = compiled.known(view, shown).draw(seed, 60)
    rest = set()
    for h in deals:
        hands = h.state()["hands"]
        assert hands[partner] & about == held  # type: ignore[index]
        for other in range(4):
            if other != partner:
                assert hands[other] & held == 0  # type: ignore[index]
        rest.add(hands[partner] & ~about)  # type: ignore[index]
    # the cards outside the part are still drawn, not fixed
    assert len(rest) > 1


def test_a_part_outside_the_cards_it_speaks_of_is_refused() -> None:
    state = in_play(1)
    view = View.of(state, state.to_act or 0)
    partner = ((state.to_act or 0) + 2) % 4
    card = mask_of(state.hand(partner)[:1])
    with pytest.raises(ValueError, match="not all among the cards shown"):
        compiled.known(view, {partner: (card, 0)})
    with pytest.raises(ValueError, match="peek part 'nope'"):
        PeekBot(random.Random(0), part="nope")


def test_reveal_of_the_seat_itself_is_refused() -> None:
    state = in_play(1)
    view = View.of(state, state.to_act or 0)
    with pytest.raises(ValueError, match="not another seat"):
        compiled.known(view, {view.seat: 0})


def test_peek_is_for_the_arena_only() -> None:
    bot = make_bot("peek:hard", 3)
    assert isinstance(bot, PeekBot) and isinstance(bot, StateBot) and bot.name == "peek:hard"
    assert "peek:hard" in ARENA_BOTS and not any(n.startswith("peek") for n in BOT_NAMES)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("peek:nope")
    for part in PEEK_PARTS[1:]:
        named = make_bot(f"peek:hard:{part}", 3)
        assert isinstance(named, PeekBot) and named.part == part
        assert named.name == f"peek:hard:{part}" and named.name in ARENA_BOTS
    assert "peek:hard:hand" not in ARENA_BOTS  # the whole hand is the bare name
    for bad in ("peek:hard:hand", "peek:hard:nope", "peek:nope:trumps", "peek:hard:trumps:x"):
        with pytest.raises(ValueError, match="unknown bot"):
            make_bot(bad)
    state = in_play(2)
    with pytest.raises(TypeError, match=r"drive it with bots\.act"):
        bot.choose(View.of(state, state.to_act or 0), [])


def test_peek_refuses_cutthroat() -> None:
    cut = Rules(variant="cutthroat")
    with pytest.raises(ValueError, match="partnership only"):
        check_lineup(["peek:hard", "rule", "rule"], cut)
    state = HandState(cut, 0, Deal.random(cut, random.Random(1)))
    with pytest.raises(ValueError, match="partnership only"):
        PeekBot(random.Random(1)).choose_state(state, state.to_act or 0)
    assert check_lineup(["peek:hard", "rule"], PARTNERSHIP) == ("peek:hard", "rule")


def test_calls_are_the_search_bots_and_the_reveal_lasts_one_play() -> None:
    for seed in range(4):
        state = HandState(PARTNERSHIP, 0, Deal.random(PARTNERSHIP, random.Random(seed)))
        seat = state.to_act or 0
        peek = PeekBot(random.Random(seed))
        plain = SearchBot(random.Random(seed), level="hard")
        assert act(peek, state, seat) == decide(plain, state, seat)
    state = in_play(5)
    peek = PeekBot(random.Random(5))
    seen: list[dict[int, int] | None] = []
    search_choose = peek.search.choose

    def spy(view: View, legal: object) -> object:
        seen.append(peek.search.reveal)
        return search_choose(view, legal)  # type: ignore[arg-type]

    peek.search.choose = spy  # type: ignore[method-assign,assignment]
    seat = state.to_act or 0
    action = act(peek, state, seat)
    assert state.is_legal(action)
    assert seen == [{(seat + 2) % 4: mask_of(state.hand((seat + 2) % 4))}]
    assert peek.search.reveal is None


def test_pure_path_refuses_a_reveal() -> None:
    state = in_play(3)
    bot = SearchBot(random.Random(0), level="hard", compiled_core=False)
    bot.reveal = {1: 0}
    view = View.of(state, state.to_act or 0)
    with pytest.raises(RuntimeError, match="compiled core"):
        bot.suggest(view, view.legal)


def test_a_partnership_deal_in_the_arena() -> None:
    for label in ("peek:easy", "peek:easy:trumps"):
        result = play_deal(DealTask(0, 11, 1, (label, "rule"), PARTNERSHIP))
        assert len(result.points) == 2
        assert all(len(p) == 4 for p in result.points)
        assert len(result.times[label]) > 0
