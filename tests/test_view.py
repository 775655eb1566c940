"""What each seat may see (RULES.md §6) and dealing out the unseen cards.

For many random hands in both variants and all three decks, at every step and
for every seat, the view must hold exactly what the seat may see — its own
cards, the up-card, every bid, call, ``alone`` and card played with who made
it, trump, the score, the picked-up and merged flags, its own discards, the
dummy only to a maker who merged — and nothing else: the serialized view
(``to_json`` and ``repr``) must not name a single card of a hidden place.

``View.sample(rng)`` must deal the unseen cards consistently with the view.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any, Literal

import pytest

from euchre import Action, Card, Deal, HandState, Phase, Rules, Suit
from euchre import view as view_module
from euchre.cards import effective_suit
from euchre.view import View, public_json

Variant = Literal["cutthroat", "partnership"]
VARIANTS: tuple[Variant, ...] = ("cutthroat", "partnership")
DECKS = (24, 25, 32)
COMBOS = [(v, d) for v in VARIANTS for d in DECKS]

#: A card in notation, not part of a longer upper-case word or number.
CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(?:[789TJQKA][CDHS]|JK)(?![0-9A-Z])")


def cards(text: str) -> tuple[Card, ...]:
    """``"9C TD"`` -> the cards in the order written."""
    return tuple(Card.parse(t) for t in text.split())


def choose(state: HandState, rng: random.Random) -> Action:
    """A random legal action, biased so that the rarer cases (going alone,
    the maker declining the dummy, declining the up-card) occur often."""
    legal = state.legal_actions()
    if state.phase == Phase.MAKER:
        assert legal == [Action.alone(), Action.merge()]
        return Action.alone() if rng.random() < 0.35 else Action.merge()
    if state.phase == Phase.ALONE:
        return Action.alone() if rng.random() < 0.3 else Action.pass_()
    if state.phase == Phase.BID1:
        return Action.order() if rng.random() < 0.3 else Action.pass_()
    if state.phase == Phase.BID2 and Action.pass_() in legal and rng.random() < 0.5:
        return Action.pass_()
    return rng.choice(legal)


def random_hands(
    variant: Variant, deck: int, count: int, seed: int, **options: Any
) -> Iterator[list[HandState]]:
    """``count`` random hands, each as the list of its states start to end."""
    rng = random.Random(seed)
    rules = Rules(variant=variant, deck=deck, **options)
    for _ in range(count):
        state = HandState.deal_random(rules, rng.randrange(rules.seats), rng)
        states = [state]
        while not state.is_over:
            state = state.apply(choose(state, rng))
            states.append(state)
        yield states


def scores_for(rules: Rules, rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randrange(10) for _ in range(rules.seats))


# -- the expected contents of a view ---------------------------------------------------


def played_cards(state: HandState) -> set[Card]:
    out = {c for t in state.tricks for _, c in t.cards}
    out |= {c for _, c in state.current_trick}
    return out


def sees_dummy(state: HandState, seat: int) -> bool:
    """Whether ``seat`` may see the dummy: only the maker who merged it, from
    the moment of the merge (phase KEEP) on."""
    return seat == state.maker and (state.merged or state.phase == Phase.KEEP)


def hidden_cards(state: HandState, seat: int) -> set[Card]:
    """The cards whose place ``seat`` must not learn from its view: other
    seats' cards (sitting-out seats included), the kitty below the up-card,
    others' discards, the dummy unless this seat merged it — less what every
    seat legitimately sees (cards played, the up-card) and its own cards."""
    n = state.rules.seats
    hidden: set[Card] = set()
    for s in range(n):
        if s != seat:
            hidden |= set(state.hand(s))
    hidden |= set(state.deal.kitty[1:])
    if state.dealer_discard is not None and seat != state.dealer:
        hidden.add(state.dealer_discard)
    if not sees_dummy(state, seat):
        hidden |= set(state.deal.dummy)
    if state.merged and seat != state.maker:
        hidden |= set(state.maker_discards)
    hidden -= played_cards(state)
    hidden.discard(state.up_card)
    hidden -= set(state.hand(seat))
    return hidden


def expected_history(state: HandState, seat: int) -> tuple[tuple[int, str], ...]:
    out = []
    for s, a in state.history:
        if a.kind == "pickup" and s != seat:
            out.append((s, "pickup"))
        elif a.kind == "keep" and s != seat:
            out.append((s, "keep"))
        else:
            out.append((s, str(a)))
    return tuple(out)


def expected_discards(state: HandState, seat: int) -> tuple[Card, ...]:
    out: list[Card] = []
    if seat == state.dealer and state.dealer_discard is not None:
        out.append(state.dealer_discard)
    if state.merged and seat == state.maker:
        out.extend(state.maker_discards)
    return tuple(out)


def check_view(state: HandState, seat: int, scores: tuple[int, ...]) -> View:
    """Assert that ``View.of(state, seat, scores)`` holds exactly what RULES.md §6
    allows; return it."""
    v = View.of(state, seat, scores)
    where = f"seat {seat} after {[f'{s} {a}' for s, a in state.history]}"
    assert v.seat == seat and v.dealer == state.dealer, where
    assert v.rules == state.rules and v.to_act == state.to_act
    if state.phase == Phase.KEEP and seat != state.maker:
        # the merge is public only with the keep: the others still see phase MAKER
        assert v.phase == Phase.MAKER, where
    else:
        assert v.phase == state.phase, where
    # what it holds
    assert sorted(v.hand) == sorted(state.hand(seat)), where
    assert v.up_card == state.up_card
    assert v.up_suit == state.up_suit
    assert v.history == expected_history(state, seat), where
    assert v.trump == state.trump and v.maker == state.maker
    assert v.picked_up == state.picked_up and v.merged == state.merged
    assert v.alone == state.alone and v.sitting_out == state.sitting_out
    assert v.tricks == state.tricks and v.current_trick == state.current_trick
    assert v.tricks_won == state.tricks_won
    assert v.scores == scores
    assert list(v.discards) == list(expected_discards(state, seat)), where
    if sees_dummy(state, seat):
        assert sorted(v.dummy) == sorted(state.deal.dummy), where
    else:
        assert v.dummy == (), where
    if state.to_act == seat:
        assert list(v.legal) == state.legal_actions()
        if state.phase == Phase.MAKER:
            assert list(v.legal) == [Action.alone(), Action.merge()]
        elif state.phase == Phase.KEEP:
            assert len(v.legal) == 252 and all(len(a.cards) == 5 for a in v.legal)
        assert v.is_my_turn
    else:
        assert v.legal == () and not v.is_my_turn
    # what it must not hold, in any serialized form
    hidden = {str(c) for c in hidden_cards(state, seat)}
    text = json.dumps(v.to_json())
    assert not hidden & set(CARD_TOKEN.findall(text)), (
        where,
        hidden & set(CARD_TOKEN.findall(text)),
    )
    assert not hidden & set(CARD_TOKEN.findall(repr(v))), where
    # the JSON form says the same as the object
    j = v.to_json()
    assert j["hand"] == [str(c) for c in v.hand]
    assert j["history"] == [f"{s} {a}" for s, a in v.history]
    assert j["discards"] == [str(c) for c in v.discards]
    assert j["dummy"] == [str(c) for c in v.dummy]
    assert j["legal"] == [str(a) for a in v.legal]
    assert j["scores"] == list(scores)
    return v


@pytest.mark.parametrize(("variant", "deck"), COMBOS)
def test_views_hold_exactly_what_each_seat_may_see(variant: Variant, deck: int) -> None:
    """RULES.md §6: every step, every seat, many random hands."""
    rng = random.Random(99)
    for states in random_hands(variant, deck, 40, seed=deck * 7 + len(variant)):
        for state in states:
            scores = scores_for(state.rules, rng)
            for seat in range(state.rules.seats):
                check_view(state, seat, scores)


def test_views_with_other_options() -> None:
    """Mandatory pick-up, stick the dealer, no discarding the up-card, the
    joker redeal: the same view rules."""
    rng = random.Random(5)
    for variant in VARIANTS:
        for states in random_hands(
            variant,
            25,
            25,
            seed=11,
            dealer_pickup="mandatory",
            stick_the_dealer=True,
            dealer_may_discard_upcard=False,
            joker_upcard="redeal",
        ):
            for state in states:
                scores = scores_for(state.rules, rng)
                for seat in range(state.rules.seats):
                    check_view(state, seat, scores)


def test_the_views_cover_the_interesting_cases() -> None:
    """The random hands above do reach pick-ups, declines, merges, lone
    makers and defenders and thrown-in hands (else the test proves little)."""
    seen: set[str] = set()
    for variant, deck in COMBOS:
        for states in random_hands(variant, deck, 40, seed=deck * 7 + len(variant)):
            last = states[-1]
            if last.picked_up:
                seen.add("pickup")
            if last.picked_up is False:
                seen.add("decline")
            if last.merged:
                seen.add("merge")
            if last.result is not None and last.result.thrown_in:
                seen.add("thrown in")
            for s in last.alone:
                maker = last.maker
                assert maker is not None
                same_side = s == maker if variant == "cutthroat" else (s - maker) % 2 == 0
                if same_side:
                    seen.add(f"{variant} lone maker")
                else:
                    seen.add(f"{variant} lone defender")
    assert seen >= {
        "pickup",
        "decline",
        "merge",
        "thrown in",
        "cutthroat lone maker",
        "cutthroat lone defender",
        "partnership lone maker",
        "partnership lone defender",
    }


# -- explicit cases --------------------------------------------------------------------

# RULES.md §5 example: dealer 0, seat 1 passes, seat 2 orders hearts, the dealer
# takes the QH and discards the 9C, seat 2 merges the dummy.
EXAMPLE_DEAL = Deal(
    hands=(cards("9C TD KS QD AC"), cards("AS JC QC KC QS"), cards("JH AH TC 9D AD")),
    dummy=cards("JD KH 9H TH JS"),
    kitty=cards("QH 9S TS KD"),
)


def example_state(*actions: str) -> HandState:
    return HandState(Rules(), 0, EXAMPLE_DEAL).apply_all(actions)


def test_pickup_card_hidden_from_others() -> None:
    """The dealer's discard is shown only to the dealer; the others see
    ``pickup`` without the card."""
    s = example_state("pass", "order", "pickup 9C")
    assert View.of(s, 0).history[-1] == (0, "pickup 9C")
    assert View.of(s, 0).discards == cards("9C")
    for seat in (1, 2):
        v = View.of(s, seat)
        assert v.history[-1] == (0, "pickup")
        assert v.discards == ()
        assert "9C" not in json.dumps(v.to_json())
        assert "9C" not in repr(v)
        assert v.picked_up is True
        assert not v.up_card_face_up


def test_decline_is_public() -> None:
    s = example_state("pass", "order", "decline")
    for seat in range(3):
        v = View.of(s, seat)
        assert v.history[-1] == (0, "decline")
        assert v.picked_up is False
        assert v.discards == ()


def test_cutthroat_maker_choice_without_and_with_the_dummy() -> None:
    """RULES.md §2: the maker chooses alone or merge without seeing the
    dummy (phase MAKER); after the merge (phase KEEP) the maker's view shows
    the dummy and the keeps, and the others' views do not change."""
    s = example_state("pass", "order", "pickup 9C")
    assert s.phase == Phase.MAKER and s.to_act == 2
    v = View.of(s, 2)
    assert v.legal == (Action.alone(), Action.merge())
    assert [str(a) for a in v.legal] == ["alone", "keep"]
    assert v.dummy == ()
    for c in EXAMPLE_DEAL.dummy:
        assert str(c) not in json.dumps(v.to_json())
        assert str(c) not in repr(v)
    merged = s.apply(Action.merge(), 2)
    assert merged.phase == Phase.KEEP and merged.to_act == 2
    kv = View.of(merged, 2)
    assert kv.phase == Phase.KEEP and kv.is_my_turn
    assert sorted(kv.dummy) == sorted(EXAMPLE_DEAL.dummy)
    assert len(kv.legal) == 252
    assert all(a.kind == "keep" and len(a.cards) == 5 for a in kv.legal)
    assert list(kv.legal) == merged.legal_actions()
    assert Action.alone() not in kv.legal and Action.merge() not in kv.legal
    assert kv.history == v.history  # the merge is no entry of its own
    # the others see no dummy and no merge: phase MAKER, the same views as before it
    for seat in (0, 1):
        before = View.of(s, seat)
        after = View.of(merged, seat)
        assert after == before
        assert after.phase == Phase.MAKER and after.dummy == () and after.legal == ()
        assert after.to_json()["phase"] == "maker"
    assert public_json(merged) == public_json(s)
    assert public_json(merged)["phase"] == "maker"


def test_keep_is_hidden_from_the_others() -> None:
    s = example_state("pass", "order", "pickup 9C", "keep JH JD AH KH TC")
    assert View.of(s, 2).history[-1] == (2, "keep TC JD JH KH AH")
    assert View.of(s, 2).discards == cards("9D AD 9H TH JS")
    assert sorted(View.of(s, 2).dummy) == sorted(EXAMPLE_DEAL.dummy)
    for seat in (0, 1):
        v = View.of(s, seat)
        assert v.history[-1] == (2, "keep")
        assert v.merged is True
        assert v.dummy == ()
        text = json.dumps(v.to_json()) + repr(v)
        for c in ("9D", "AD", "9H", "TH", "JS", "JD", "KH", "JH", "AH", "TC"):
            assert c not in CARD_TOKEN.findall(text)
    # the dealer still sees only its own discard
    assert View.of(s, 0).discards == cards("9C")


def test_maker_alone_never_shows_the_dummy() -> None:
    s = example_state("pass", "order", "pickup 9C", "alone")
    for seat in range(3):
        v = View.of(s, seat)
        assert v.dummy == ()
        assert v.alone == (2,)
        assert not set(CARD_TOKEN.findall(json.dumps(v.to_json()))) & {"JD", "KH", "9H", "TH"}


def test_sitting_out_cards_stay_hidden() -> None:
    s = example_state("pass", "order", "pickup 9C", "keep JH JD AH KH TC", "alone")
    assert s.alone == (0,) and s.sitting_out == (1,)
    for seat in (0, 2):
        text = json.dumps(View.of(s, seat).to_json())
        for c in s.hand(1):
            assert str(c) not in CARD_TOKEN.findall(text)
    # the seat sitting out still sees its own cards
    assert sorted(View.of(s, 1).hand) == sorted(s.hand(1))
    assert View.of(s, 1).legal == ()


def test_view_rejects_a_bad_seat() -> None:
    s = example_state()
    for bad in (-1, 3, 4):
        with pytest.raises(ValueError):
            View.of(s, bad)


# -- voids and played_by ---------------------------------------------------------------

# Partnership, dealer 3, hearts ordered by seat 0; seat 1 holds no heart and no spade.
VOID_DEAL = Deal(
    hands=(
        cards("JD AS 9C 9D TH"),
        cards("AC KC QC AD KD"),
        cards("QH KH 9S TS QS"),
        cards("AH JS KS TC JC"),
    ),
    dummy=(),
    kitty=cards("9H JH QD TD"),
)
VOID_ACTIONS = (
    "order", "pickup TC", "pass", "pass", "pass", "pass",
    "play JD", "play AC", "play QH", "play AH",
    "play AS", "play KD", "play 9S", "play KS",
)  # fmt: skip


def void_state() -> HandState:
    return HandState(Rules(variant="partnership"), 3, VOID_DEAL).apply_all(VOID_ACTIONS)


def test_voids_and_played_by() -> None:
    """The left bower led is a trump lead: seat 1 showing a club is void in
    hearts (not diamonds); then void in spades."""
    s = void_state()
    assert s.trump == Suit.HEARTS
    for seat in range(4):
        v = View.of(s, seat)
        assert v.voids() == {1: {Suit.HEARTS, Suit.SPADES}}
        assert v.played_by(0) == list(cards("JD AS"))
        assert v.played_by(1) == list(cards("AC KD"))
        assert v.played_by(2) == list(cards("QH 9S"))
        assert v.played_by(3) == list(cards("AH KS"))
    # during a trick in progress too
    s2 = s.apply_all(["play 9C", "play QC"])
    v = View.of(s2, 2)
    assert v.played_by(0) == list(cards("JD AS 9C"))
    assert v.played_by(1) == list(cards("AC KD QC"))
    assert v.voids() == {1: {Suit.HEARTS, Suit.SPADES}}
    s3 = s2.apply_all(["play QS"])  # seat 2 has no club: shows a void
    assert View.of(s3, 0).voids() == {1: {Suit.HEARTS, Suit.SPADES}, 2: {Suit.CLUBS}}


def test_no_voids_before_play() -> None:
    s = HandState(Rules(variant="partnership"), 3, VOID_DEAL)
    assert View.of(s, 0).voids() == {}
    assert View.of(s, 0).played_by(1) == []


def test_sample_respects_voids_and_the_picked_up_card() -> None:
    s = void_state()
    for seat in range(4):
        v = View.of(s, seat)
        for k in range(40):
            full = v.sample(random.Random(k))
            assert View.of(full, seat) == v
            held = full.hand(1)
            assert all(
                effective_suit(c, Suit.HEARTS) not in (Suit.HEARTS, Suit.SPADES) for c in held
            )
            # the dealer took the 9H: it is in the dealer's hand or discard
            assert Card.parse("9H") in [*full.hand(3), full.dealer_discard]


# -- View.sample on random positions ---------------------------------------------------


def check_sample(state: HandState, seat: int, scores: tuple[int, ...], rng: random.Random) -> None:
    v = View.of(state, seat, scores)
    full = v.sample(random.Random(rng.random()))
    assert View.of(full, seat, scores) == v, f"seat {seat} after {state.history}"
    assert full.rules == state.rules and full.dealer == state.dealer
    # a seat that failed to follow suit never gets that suit
    if v.trump is not None:
        for s, suits in v.voids().items():
            assert all(effective_suit(c, v.trump) not in suits for c in full.hand(s))
    # the dealer's picked-up card stays with the dealer
    if v.picked_up:
        up = v.up_card
        places = [*full.hand(state.dealer), full.dealer_discard]
        places += v.played_by(state.dealer)
        if full.merged and full.maker == state.dealer:
            places += full.maker_discards
        assert up in places
        for s in range(state.rules.seats):
            if s != state.dealer:
                assert up not in full.hand(s)
    if state.to_act == seat and state.phase == Phase.MAKER:
        # the maker's view after the merge (phase KEEP) samples back to itself too
        kv = View.of(state.apply(Action.merge(), seat), seat, scores)
        assert kv.phase == Phase.KEEP and kv.dummy
        kfull = kv.sample(random.Random(rng.random()))
        assert kfull.phase == Phase.KEEP
        assert View.of(kfull, seat, scores) == kv


@pytest.mark.parametrize(("variant", "deck"), COMBOS)
def test_sample_gives_back_the_same_view(variant: Variant, deck: int) -> None:
    rng = random.Random(2024)
    for states in random_hands(variant, deck, 20, seed=deck + 31 * len(variant)):
        for state in states[:: 1 + len(states) // 12]:  # about a dozen positions per hand
            scores = scores_for(state.rules, rng)
            for seat in range(state.rules.seats):
                check_sample(state, seat, scores, rng)
        # every maker's choice and keep position, and the end of the hand
        for state in states:
            if state.phase in (Phase.MAKER, Phase.KEEP):
                check_sample(state, state.maker or 0, (0,) * state.rules.seats, rng)
        for seat in range(states[-1].rules.seats):
            check_sample(states[-1], seat, (0,) * states[-1].rules.seats, rng)


OTHER_OPTIONS: list[dict[str, Any]] = [
    {"dealer_pickup": "mandatory"},
    {"dealer_may_discard_upcard": False},
    {"lone_lead": "left_of_dealer"},
    {"dummy_decline_is_alone": False},
    {"defenders_may_go_alone": False},
    {"stick_the_dealer": True, "may_name_turned_down_suit": True},
]


@pytest.mark.parametrize("options", OTHER_OPTIONS, ids=lambda o: ",".join(o))
def test_sample_under_other_options(options: dict[str, Any]) -> None:
    """The sampled deal must replay under the hand's own options too (e.g.
    a dealer who may not discard the up-card never gets it as the hidden
    discard)."""
    rng = random.Random(77)
    for variant in VARIANTS:
        for states in random_hands(variant, 24, 12, seed=len(options) + 5, **options):
            for state in states[::3]:
                for seat in range(state.rules.seats):
                    check_sample(state, seat, (0,) * state.rules.seats, rng)


def test_sample_when_the_dealer_may_not_discard_the_up_card() -> None:
    """Minimal case: dealer 0 picks up (may not discard the up-card); seat 1's
    view must sample to a deal that replays."""
    rules = Rules(dealer_may_discard_upcard=False)
    state = HandState(rules, 0, EXAMPLE_DEAL).apply_all(["order", "pickup 9C"])
    v = View.of(state, 1)
    for k in range(60):
        full = v.sample(random.Random(k))
        assert View.of(full, 1) == v
        assert full.dealer_discard != state.up_card


def test_sample_after_a_merge_and_a_lone_defender() -> None:
    s = example_state("pass", "order", "pickup 9C", "keep JH JD AH KH TC", "alone")
    assert s.to_act == 2  # left of the lone defender, skipping seat 1 sitting out
    s = s.apply_all(["play TC", "play AC"])
    rng = random.Random(3)
    for seat in range(3):
        for _ in range(30):
            check_sample(s, seat, (1, 2, 3), rng)


def test_sample_is_random_and_reproducible() -> None:
    for variant in VARIANTS:
        rules = Rules(variant=variant)
        state = HandState.deal_random(rules, 0, random.Random(8)).apply(Action.pass_())
        v = View.of(state, 1)
        deals = {v.sample(random.Random(k)).deal for k in range(12)}
        assert len(deals) > 6, "different rngs should give different deals"
        assert v.sample(random.Random(4)).deal == v.sample(random.Random(4)).deal
        # the seat's own cards and the up-card never move
        for d in deals:
            assert d.hands[1] and sorted(d.hands[1]) == sorted(state.deal.hands[1])
            assert d.kitty[0] == state.up_card


def test_sample_is_uniform_over_the_unseen_places() -> None:
    """Each unseen card lands in each hidden place in proportion to its size
    (the sampler draws uniformly among consistent deals): seat 1 in round one
    of Cutthroat sees 6 cards; the other 18 go 5 to each other hand, 5 to the
    dummy, 3 to the kitty. 3,000 fixed-seed draws, each share within 5
    standard deviations."""
    rules = Rules(variant="cutthroat")
    state = HandState.deal_random(rules, 0, random.Random(11))
    v = View.of(state, 1)
    draw = v.sampler()
    rng = random.Random(5)
    n = 3000
    card = v.unseen()[0]
    counts = {"hand0": 0, "hand2": 0, "dummy": 0, "kitty": 0}
    for _ in range(n):
        full = draw(rng)
        assert View.of(full, 1) == v
        if card in full.hand(0):
            counts["hand0"] += 1
        elif card in full.hand(2):
            counts["hand2"] += 1
        elif card in full.deal.dummy:
            counts["dummy"] += 1
        else:
            counts["kitty"] += 1
    for place, size in (("hand0", 5), ("hand2", 5), ("dummy", 5), ("kitty", 3)):
        p = size / 18
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[place] - n * p) < 5 * sd, (place, counts)


def test_sample_falls_back_to_a_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no uniform draws allowed, the random perfect matching still deals
    consistently (voids, the picked-up card)."""
    monkeypatch.setattr(view_module._Sampler, "TRIES", 0)
    s = void_state()
    for seat in range(4):
        v = View.of(s, seat)
        for k in range(20):
            assert View.of(v.sample(random.Random(k)), seat) == v
    rng = random.Random(9)
    for states in random_hands("cutthroat", 24, 3, seed=4):
        for state in states[::4]:
            for seat in range(3):
                check_sample(state, seat, (0, 0, 0), rng)


def test_unseen_cards() -> None:
    s = example_state("pass", "order", "pickup 9C")
    v0 = View.of(s, 0)
    v1 = View.of(s, 1)
    # the dealer knows its six cards (the QH included) and its discard
    assert len(v0.unseen()) == 24 - 6
    # seat 1 knows its five cards and the up-card
    assert len(v1.unseen()) == 24 - 6
    assert Card.parse("QH") not in v1.unseen()
    assert set(v1.unseen()).isdisjoint(s.hand(1))


# -- the public part (spectators) ---------------------------------------------------


@pytest.mark.parametrize(("variant", "deck"), COMBOS)
def test_public_json_holds_only_what_every_seat_sees(variant: Variant, deck: int) -> None:
    """``public_json``: the parts of the views common to all seats, the history
    masked for every seat, and no card but the up-card and the cards played."""
    rng = random.Random(5)
    for states in random_hands(variant, deck, 25, seed=deck * 3 + len(variant)):
        for state in states:
            scores = scores_for(state.rules, rng)
            pub = public_json(state, scores)
            where = f"after {[f'{s} {a}' for s, a in state.history]}"
            for key in ("seat", "hand", "discards", "dummy", "legal"):
                assert key not in pub, where
            visible = {str(c) for c in played_cards(state)} | {str(state.up_card)}
            text = json.dumps(pub)
            assert set(CARD_TOKEN.findall(text)) <= visible, where
            everyone = set(range(state.rules.seats))
            assert pub["history"] == [
                f"{s} {'pickup' if a.kind == 'pickup' else 'keep' if a.kind == 'keep' else a}"
                for s, a in state.history
            ], where
            for seat in everyone:
                view = View.of(state, seat, scores).to_json()
                same = {k: v for k, v in view.items() if k in pub and k != "history"}
                if state.phase == Phase.KEEP and seat == state.maker:
                    # only the maker knows of the merge before the keep
                    assert same["phase"] == "keep" and pub["phase"] == "maker", where
                    same["phase"] = "maker"
                assert same == {k: v for k, v in pub.items() if k != "history"}, where
            assert pub["scores"] == list(scores)


def test_public_json_masks_the_pickup_and_the_keep() -> None:
    """The dealer's discard and the maker's kept cards appear in no public history."""
    for states in random_hands("cutthroat", 24, 60, seed=11):
        final = states[-1]
        if final.picked_up and final.merged:
            pub = public_json(final)
            assert f"{final.dealer} pickup" in pub["history"]
            assert f"{final.maker} keep" in pub["history"]
            assert final.dealer_discard is not None
            assert str(final.dealer_discard) not in json.dumps(pub["history"])
            return
    raise AssertionError("no hand with a pick-up and a merge in the sample")
