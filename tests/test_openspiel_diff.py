"""Differential test: our partnership engine against OpenSpiel's ``euchre``.

OpenSpiel (``pyspiel``, a dev dependency) is loaded with
``allow_lone_defender=True`` and ``stick_the_dealer=True``; our engine runs
with the ``Rules`` that match it (``MATCHING_RULES``). For every hand the
harness deals one random deal into both engines, and at every decision it
checks that both have the same seat to act and the same legal actions (as
sets, OpenSpiel's ids mapped to our action words), picks one at random and
applies it to both. At the end it compares the tricks (leader, cards,
winner), the maker, trump, who went alone, who sat out, and the points.

Known differences the harness maps (they are not bugs):

- Cards: OpenSpiel's id is ``rank * 4 + suit`` (ranks 9 T J Q K A = 0..5);
  ours is ``suit * 8 + rank`` (9 = 2 ... A = 7). Suits agree (C D H S).
- Dealing: OpenSpiel deals card k to seat ``(dealer + k) % 4`` and draws only
  the up-card of the kitty; our ``Deal`` has the whole kitty, ``kitty[0]``
  the up-card. The other three kitty cards never matter.
- Round one: OpenSpiel's order-up is the suit action ``25 + up-suit``, ours
  ``order``; the dealer then discards (``pickup C``). OpenSpiel never lets
  the dealer discard the up-card (our ``dealer_may_discard_upcard=False``)
  and always picks up (our ``dealer_pickup="mandatory"``).
- Going alone: OpenSpiel asks the declarer Alone(29)/Partner(30), then the
  defenders from the dealer's left until one says Alone. Ours (RULES.md §3)
  asks the maker, then, if the maker passed, the maker's partner, then the
  defenders from the *maker's* left. OpenSpiel has no partner decision, so
  the harness always answers ``pass`` for the maker's partner: in these
  hands the maker's partner never goes alone. The defenders' answers are
  drawn at random once, in OpenSpiel's order, and fed to our engine in its
  own order so that the same defender (or none) goes alone in both.
- After anyone goes alone OpenSpiel's first lead is the first active seat
  left of the dealer: our ``lone_lead="left_of_dealer"``.
- Points: OpenSpiel returns ``±`` the makers' score to every seat; ours gives
  each seat its side's points, 0 to the losing side. So OpenSpiel's return of
  seat s must equal ``points[s] - points[s + 1]``.

Every hand is reproducible on its own: hand ``i`` of seed ``S`` uses
``random.Random(S * 1_000_003 + i)``. A mismatch is reported with a hand
record (``euchre replay`` format) of the actions up to the mismatch and
OpenSpiel's action history. Run this file as a script for statistics:
``python tests/test_openspiel_diff.py [HANDS] [SEED]``.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from euchre import Action, Card, Deal, FastHand, HandState, Phase, Rank, Rules, Suit
from euchre.actions import ALONE, CALL, ORDER, PASS, PICKUP, PLAY

# --- the two configurations under comparison ------------------------------------

#: OpenSpiel's game parameters for every comparison.
OPENSPIEL_PARAMS: dict[str, Any] = {"allow_lone_defender": True, "stick_the_dealer": True}

#: Our rules set to match OpenSpiel's game.
MATCHING_RULES = Rules(
    variant="partnership",
    deck=24,
    stick_the_dealer=True,
    dealer_pickup="mandatory",
    lone_defender_points=4,
    dealer_may_discard_upcard=False,
    lone_lead="left_of_dealer",
)

#: Hands compared by the main test (override with EUCHRE_DIFF_HANDS).
HANDS = int(os.environ.get("EUCHRE_DIFF_HANDS", "5000"))
#: Hands of the fast-path replay test (override with EUCHRE_DIFF_FAST_HANDS).
FAST_HANDS = int(os.environ.get("EUCHRE_DIFF_FAST_HANDS", "5000"))
#: Seed of the main test (override with EUCHRE_DIFF_SEED).
SEED = int(os.environ.get("EUCHRE_DIFF_SEED", "20240601"))

_E = pyspiel.euchre
_OS_PASS: int = _E.PASS_ACTION  # 24
_OS_SUIT0: int = _E.CLUBS_TRUMP_ACTION  # 25 + suit
_OS_ALONE: int = _E.GO_ALONE_ACTION  # 29
_OS_PARTNER: int = _E.PLAY_WITH_PARTNER_ACTION  # 30
_OS_BIDDING = _E.Phase.BIDDING
_OS_DISCARD = _E.Phase.DISCARD
_OS_GO_ALONE = _E.Phase.GO_ALONE
_OS_PLAY = _E.Phase.PLAY

#: Which of our phases may stand opposite each OpenSpiel decision phase.
_PHASE_MATCH = {
    _OS_BIDDING: (Phase.BID1, Phase.BID2),
    _OS_DISCARD: (Phase.PICKUP,),
    _OS_GO_ALONE: (Phase.ALONE,),
    _OS_PLAY: (Phase.PLAY,),
}


def load_openspiel_game() -> Any:
    """OpenSpiel's euchre with lone defenders and stick-the-dealer."""
    return pyspiel.load_game("euchre", OPENSPIEL_PARAMS)


# --- mapping tables ------------------------------------------------------------


def card_from_os(os_id: int) -> Card:
    """Our card for OpenSpiel card id ``rank * 4 + suit`` (ranks 9..A = 0..5)."""
    if not 0 <= os_id < 24:
        raise ValueError(f"not an OpenSpiel card id: {os_id}")
    return Card.of(Rank(os_id // 4 + Rank.NINE), Suit(os_id % 4))


def os_from_card(card: Card) -> int:
    """OpenSpiel's id of one of our 24-deck cards."""
    rank, suit = card.rank, card.suit
    if rank is None or suit is None or rank < Rank.NINE:
        raise ValueError(f"{card} is not in OpenSpiel's 24-card deck")
    return (rank - Rank.NINE) * 4 + int(suit)


def os_action_to_ours(state: Any, action: int) -> str:
    """Our action text for OpenSpiel decision ``action`` in ``state``.

    The same id means different things in different phases, so the mapping
    reads OpenSpiel's own phase (never our engine's state)."""
    phase = state.current_phase()
    if phase == _OS_BIDDING:
        if action == _OS_PASS:
            return "pass"
        suit = action - _OS_SUIT0
        if not 0 <= suit < 4:
            raise ValueError(f"bidding action {action} is not pass or a suit")
        round_one = state.num_passes() < 4
        if round_one and suit == state.upcard() % 4:
            return "order"
        return f"call {'CDHS'[suit]}"
    if phase == _OS_DISCARD:
        return f"pickup {card_from_os(action)}"
    if phase == _OS_GO_ALONE:
        if action == _OS_ALONE:
            return "alone"
        if action == _OS_PARTNER:
            return "pass"
        raise ValueError(f"go-alone action {action} is not Alone or Partner")
    if phase == _OS_PLAY:
        return f"play {card_from_os(action)}"
    raise ValueError(f"no decision in OpenSpiel phase {phase}")


def deal_into_openspiel(game: Any, dealer: int, deal: Deal) -> Any:
    """OpenSpiel's state after its chance nodes have dealt ``deal``: dealer,
    then card k of the deal order to seat ``(dealer + k) % 4``, then the
    up-card (``deal.kitty[0]``)."""
    state = game.new_initial_state()
    state.apply_action(dealer)
    for k in range(20):
        seat = (dealer + k) % 4
        state.apply_action(os_from_card(deal.hands[seat][k // 4]))
    state.apply_action(os_from_card(deal.kitty[0]))
    return state


# --- the harness ----------------------------------------------------------------


#: A decision policy: given the sorted legal action words and the hand's rng,
#: return one of them.
Policy = Callable[[list[str], random.Random], str]


class Mismatch(Exception):
    """The two engines disagree; ``kind`` names what (turn, legal, tricks, ...)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass
class HandReport:
    """The outcome of comparing one hand."""

    hand_seed: int
    dealer: int
    deal: Deal
    rules: Rules
    actions: list[str] = field(default_factory=list)
    os_history: list[int] = field(default_factory=list)
    decisions: int = 0
    features: set[str] = field(default_factory=set)
    mismatch: Mismatch | None = None

    def record(self) -> dict[str, Any]:
        """Our hand record (RULES.md §5) of the actions applied so far."""
        return {
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "dealer": self.dealer,
            "deal": {
                "hands": [[str(c) for c in h] for h in self.deal.hands],
                "kitty": [str(c) for c in self.deal.kitty],
            },
            "actions": self.actions,
        }

    def describe(self) -> str:
        """A reproduction of the mismatch: hand record and OpenSpiel history."""
        return (
            f"hand seed {self.hand_seed}: {self.mismatch}\n"
            f"our record: {json.dumps(self.record())}\n"
            f"openspiel history: {self.os_history}"
        )


class _HandRun:
    """Drives one deal through both engines."""

    def __init__(self, game: Any, rules: Rules, hand_seed: int, policy: Policy) -> None:
        self.rng = random.Random(hand_seed)
        self.policy = policy
        dealer = self.rng.randrange(4)
        deal = Deal.random(rules, self.rng)
        self.report = HandReport(hand_seed, dealer, deal, rules)
        self.ours = HandState(rules, dealer, deal)
        self.os = deal_into_openspiel(game, dealer, deal)

    # -- applying ------------------------------------------------------------
    def _apply_ours(self, text: str) -> None:
        seat = self.ours.to_act
        self.ours = self.ours.apply(Action.parse(text))
        self.report.actions.append(f"{seat} {text}")

    def _apply_os(self, action: int) -> None:
        self.os.apply_action(action)
        self.report.os_history.append(action)

    # -- checks --------------------------------------------------------------
    def _ours_legal(self) -> set[str]:
        return {str(a) for a in self.ours.legal_actions()}

    def _check_turn(self) -> None:
        os_phase = self.os.current_phase()
        os_player = self.os.current_player()
        if self.ours.is_over:
            raise Mismatch("over", f"our hand is over; OpenSpiel: seat {os_player} in {os_phase}")
        if self.ours.to_act != os_player:
            raise Mismatch(
                "turn",
                f"our seat {self.ours.to_act} ({self.ours.phase}) to act, "
                f"OpenSpiel seat {os_player} ({os_phase})",
            )
        if self.ours.phase not in _PHASE_MATCH[os_phase]:
            raise Mismatch("phase", f"ours {self.ours.phase}, OpenSpiel {os_phase}")

    def _compare_legal(self) -> dict[str, int]:
        """Map OpenSpiel's legal ids to our words and compare with ours."""
        self.report.decisions += 1
        mapped = {os_action_to_ours(self.os, a): a for a in self.os.legal_actions()}
        ours = self._ours_legal()
        if set(mapped) != ours:
            raise Mismatch(
                "legal",
                f"seat {self.ours.to_act} in {self.ours.phase}: ours {sorted(ours)}, "
                f"OpenSpiel {sorted(mapped)} (ids {sorted(mapped.values())}); "
                f"only ours {sorted(ours - set(mapped))}, only OpenSpiel "
                f"{sorted(set(mapped) - ours)}",
            )
        return mapped

    # -- the hand ------------------------------------------------------------
    def run(self) -> HandReport:
        """Compare the whole hand; a mismatch is stored in the report."""
        try:
            while not self.os.is_terminal():
                if self.os.current_phase() == _OS_GO_ALONE:
                    self._alone_block()
                    continue
                self._check_turn()
                mapped = self._compare_legal()
                text = self.policy(sorted(mapped), self.rng)
                self._note(text)
                self._apply_ours(text)
                self._apply_os(mapped[text])
            self._compare_end()
        except Mismatch as e:
            self.report.mismatch = e
        return self.report

    def _note(self, text: str) -> None:
        f = self.report.features
        if text == "order":
            f.add("round1_order")
        elif text.startswith("pickup"):
            f.add("pickup")
        elif text.startswith("call"):
            f.add("round2_call")
            if self.ours.to_act == self.ours.dealer and "pass" not in self._ours_legal():
                f.add("stuck_dealer")

    def _alone_block(self) -> None:
        """The go-alone decisions, mapped between the two orders (module doc)."""
        maker = self.os.declarer()
        if self.ours.maker != maker:
            raise Mismatch("maker", f"ours {self.ours.maker}, OpenSpiel {maker}")
        # (1) the maker, asked first by both.
        self._check_turn()
        if self.ours.to_act != maker:
            raise Mismatch("turn", f"the maker {maker} is not asked first")
        mapped = self._compare_legal()
        text = self.policy(sorted(mapped), self.rng)
        self._apply_ours(text)
        self._apply_os(mapped[text])
        maker_alone = text == "alone"
        # (2) ours only: the maker's partner, who always passes here.
        partner = (maker + 2) % 4
        if not maker_alone:
            if self.ours.phase != Phase.ALONE or self.ours.to_act != partner:
                raise Mismatch(
                    "turn",
                    f"the maker passed: ours should ask the partner {partner}, asks "
                    f"{self.ours.to_act} ({self.ours.phase})",
                )
            self.report.decisions += 1
            if self._ours_legal() != {"pass", "alone"}:
                raise Mismatch("legal", f"partner {partner}: ours {sorted(self._ours_legal())}")
            self._apply_ours("pass")
        # (3) the defenders: answers drawn in OpenSpiel's order.
        lone: int | None = None
        os_asked: list[int] = []
        while not self.os.is_terminal() and self.os.current_phase() == _OS_GO_ALONE:
            p = self.os.current_player()
            if p % 2 == maker % 2 or p in os_asked:
                raise Mismatch("openspiel", f"OpenSpiel asks seat {p} after {os_asked}")
            if set(self.os.legal_actions()) != {_OS_ALONE, _OS_PARTNER}:
                raise Mismatch("openspiel", f"defender {p}: ids {self.os.legal_actions()}")
            self.report.decisions += 1
            a = _OS_ALONE if self.policy(["alone", "pass"], self.rng) == "alone" else _OS_PARTNER
            self._apply_os(a)
            os_asked.append(p)
            if a == _OS_ALONE:
                lone = p
        ours_asked: list[int] = []
        while self.ours.phase == Phase.ALONE:
            seat = self.ours.to_act
            assert seat is not None
            if seat % 2 == maker % 2 or seat in ours_asked:
                raise Mismatch("turn", f"ours asks seat {seat} after defenders {ours_asked}")
            self.report.decisions += 1
            if self._ours_legal() != {"pass", "alone"}:
                raise Mismatch("legal", f"defender {seat}: ours {sorted(self._ours_legal())}")
            ours_asked.append(seat)
            self._apply_ours("alone" if seat == lone else "pass")
        # Our order is the rule book's: from the maker's left until one goes alone.
        want = [(maker + 1) % 4, (maker + 3) % 4]
        if lone == want[0]:
            want = want[:1]
        if ours_asked != want:
            raise Mismatch("alone_order", f"ours asked defenders {ours_asked}, rule book {want}")
        os_alone = ([maker] if self.os.declarer_go_alone() else []) + (
            [] if lone is None else [lone]
        )
        if sorted(self.ours.alone) != sorted(os_alone):
            raise Mismatch("alone", f"ours {self.ours.alone}, OpenSpiel {os_alone}")
        os_out = tuple(s for s, active in enumerate(self.os.active_players()) if not active)
        if self.ours.sitting_out != os_out:
            raise Mismatch("sitting_out", f"ours {self.ours.sitting_out}, OpenSpiel {os_out}")
        if maker_alone:
            self.report.features.add("maker_alone")
        if lone is not None:
            self.report.features.add("lone_defender")
            if maker_alone:
                self.report.features.add("both_alone")

    def _compare_end(self) -> None:
        ours = self.ours
        result = ours.result
        if result is None:
            raise Mismatch("over", f"OpenSpiel is over, ours has seat {ours.to_act} to act")
        os_tricks = self.os.tricks()
        for i, (mine, theirs) in enumerate(zip(ours.tricks, os_tricks, strict=True)):
            their_cards = [str(card_from_os(c)) for c in theirs.cards()]
            my_cards = [str(c) for _, c in mine.cards]
            if (mine.leader, my_cards, mine.winner) != (
                theirs.leader(),
                their_cards,
                theirs.winner(),
            ):
                raise Mismatch(
                    "tricks",
                    f"trick {i + 1}: ours led by {mine.leader} {my_cards} won by "
                    f"{mine.winner}; OpenSpiel led by {theirs.leader()} {their_cards} won by "
                    f"{theirs.winner()}",
                )
        trump = -1 if result.trump is None else int(result.trump)
        if result.maker != self.os.declarer() or trump != self.os.trump_suit():
            raise Mismatch(
                "trump",
                f"ours maker {result.maker} trump {result.trump}; OpenSpiel "
                f"{self.os.declarer()} {self.os.trump_suit()}",
            )
        pts = result.points
        if pts[0] != pts[2] or pts[1] != pts[3] or min(pts[0], pts[1]) != 0:
            raise Mismatch("points", f"ours {pts} is not one side's points")
        ours_zero_sum = [pts[s] - pts[(s + 1) % 4] for s in range(4)]
        returns = [round(r) for r in self.os.returns()]
        if ours_zero_sum != returns:
            raise Mismatch(
                "points",
                f"ours {list(pts)} (zero-sum {ours_zero_sum}), OpenSpiel returns {returns}; "
                f"tricks {list(result.tricks)}, alone {list(result.alone)}",
            )
        side = result.maker & 1 if result.maker is not None else 0
        made = result.tricks[side] + result.tricks[side + 2]
        f = self.report.features
        f.add("made" if 3 <= made < 5 else "march" if made == 5 else "euchred")
        if made == 5 and "maker_alone" in f:
            f.add("lone_march")
        if made < 3 and "lone_defender" in f:
            f.add("lone_defender_euchre")


def uniform(legal: list[str], rng: random.Random) -> str:
    """The default policy: a legal action uniformly at random."""
    return rng.choice(legal)


def pass_first(legal: list[str], rng: random.Random) -> str:
    """Pass whenever allowed (forces stick-the-dealer), else at random."""
    return "pass" if "pass" in legal else rng.choice(legal)


def compare_hand(game: Any, rules: Rules, hand_seed: int, policy: Policy = uniform) -> HandReport:
    """Deal one random hand (from ``hand_seed``) into both engines and compare,
    choosing each decision with ``policy`` (sorted legal words, rng)."""
    return _HandRun(game, rules, hand_seed, policy).run()


@dataclass
class DiffSummary:
    """What a run of many hands compared."""

    hands: int = 0
    decisions: int = 0
    features: Counter[str] = field(default_factory=Counter)
    mismatches: list[HandReport] = field(default_factory=list)


def run_diff(
    hands: int,
    seed: int,
    rules: Rules = MATCHING_RULES,
    stop_after: int | None = None,
    policy: Policy = uniform,
) -> DiffSummary:
    """Compare ``hands`` random hands; stop early after ``stop_after`` mismatches."""
    game = load_openspiel_game()
    summary = DiffSummary()
    for i in range(hands):
        report = compare_hand(game, rules, seed * 1_000_003 + i, policy)
        summary.hands += 1
        summary.decisions += report.decisions
        summary.features.update(report.features)
        if report.mismatch is not None:
            summary.mismatches.append(report)
            if stop_after is not None and len(summary.mismatches) >= stop_after:
                break
    return summary


def replay_fast_playout(game: Any, rules: Rules, hand_seed: int) -> str | None:
    """Play one hand with our fast path (``FastHand.playout``, whose trick loop
    is separate code from ``step``) and replay its history in OpenSpiel.

    Returns None if OpenSpiel accepted every action and agrees on the tricks
    and points, "skip" for a hand OpenSpiel cannot express (the maker's
    partner went alone), else a description of the first difference."""
    rng = random.Random(hand_seed)
    dealer = rng.randrange(4)
    deal = Deal.random(rules, rng)
    h = FastHand.new(rules, dealer, deal)
    h.playout(rng)
    maker = h.maker
    if (maker + 2) % 4 in h.alone:
        return "skip"
    lone = next((s for s in h.alone if s % 2 != maker % 2), None)
    state = deal_into_openspiel(game, dealer, deal)
    applied: list[int] = []

    def feed(seat: int, action: int, what: str) -> str | None:
        if state.current_player() != seat or action not in state.legal_actions():
            return (
                f"hand seed {hand_seed}: OpenSpiel refuses {what} by seat {seat} (ids "
                f"{state.legal_actions()}, seat {state.current_player()} to act) after "
                f"{applied}"
            )
        state.apply_action(action)
        applied.append(action)
        return None

    for seat, code in h.history:
        kind, arg = code & 15, code >> 4
        if kind == ALONE or (kind == PASS and state.current_phase() == _OS_GO_ALONE):
            continue  # go-alone answers are fed below, in OpenSpiel's order
        if state.current_phase() == _OS_GO_ALONE:
            error = feed(maker, _OS_ALONE if maker in h.alone else _OS_PARTNER, "alone?")
            while error is None and state.current_phase() == _OS_GO_ALONE:
                p = state.current_player()
                error = feed(p, _OS_ALONE if p == lone else _OS_PARTNER, "defend alone?")
            if error:
                return error
        if kind == PASS:
            action = _OS_PASS
        elif kind == ORDER:
            action = _OS_SUIT0 + h.upsuit
        elif kind == CALL:
            action = _OS_SUIT0 + arg
        elif kind in (PICKUP, PLAY):
            action = os_from_card(Card(arg))
        else:
            return f"hand seed {hand_seed}: unexpected action {Action(code)}"
        error = feed(seat, action, str(Action(code)))
        if error:
            return error
    if not state.is_terminal():
        return f"hand seed {hand_seed}: OpenSpiel is not over after {applied}"
    theirs = [
        (t.leader(), [str(card_from_os(c)) for c in t.cards()], t.winner()) for t in state.tricks()
    ]
    ours = [(lead, [str(Card(c)) for c in cards], win) for lead, cards, win in h.trick_log]
    if ours != theirs:
        return f"hand seed {hand_seed}: tricks ours {ours}, OpenSpiel {theirs}"
    pts = h.points
    zero_sum = [pts[s] - pts[(s + 1) % 4] for s in range(4)]
    returns = [round(r) for r in state.returns()]
    if zero_sum != returns:
        return f"hand seed {hand_seed}: points ours {pts}, OpenSpiel returns {returns}"
    return None


# --- tests ------------------------------------------------------------------------


def test_card_ids_round_trip() -> None:
    """Every OpenSpiel card id maps to a distinct card of our 24-card deck and
    back, and OpenSpiel's own card names agree with ours."""
    ours = {card_from_os(i) for i in range(24)}
    assert ours == set(Deal.random(MATCHING_RULES, random.Random(0)).all_cards())
    for i in range(24):
        card = card_from_os(i)
        assert os_from_card(card) == i
        name = _E.card_string(i)  # suit then rank, e.g. "HJ"
        assert str(card) == name[1] + name[0]
    assert str(card_from_os(10)) == "JH"
    assert os_from_card(Card.parse("AS")) == 23


def test_action_mapping_by_phase() -> None:
    """OpenSpiel's non-card ids map to our words, phase by phase."""
    game = load_openspiel_game()
    rng = random.Random(7)
    deal = Deal.random(MATCHING_RULES, rng)
    state = deal_into_openspiel(game, 2, deal)
    up = deal.kitty[0]
    assert up.suit is not None
    assert state.upcard() == os_from_card(up)
    assert [os_action_to_ours(state, a) for a in state.legal_actions()] == ["pass", "order"]
    for _ in range(4):
        state.apply_action(_OS_PASS)
    words = [os_action_to_ours(state, a) for a in state.legal_actions()]
    assert words == ["pass"] + [f"call {s}" for s in "CDHS" if s != up.suit.letter]
    state.apply_action(state.legal_actions()[1])
    assert {os_action_to_ours(state, a) for a in state.legal_actions()} == {"alone", "pass"}


def test_deal_reaches_openspiel_seats() -> None:
    """The deal lands in the same seats in both engines, for every dealer."""
    game = load_openspiel_game()
    rng = random.Random(3)
    for dealer in range(4):
        deal = Deal.random(MATCHING_RULES, rng)
        state = deal_into_openspiel(game, dealer, deal)
        holder = state.card_holder()
        for seat in range(4):
            held = {card_from_os(c) for c in range(24) if holder[c] == seat}
            assert held == set(deal.hands[seat])
        assert state.dealer() == dealer
        assert state.current_player() == (dealer + 1) % 4


def test_engines_agree_on_random_hands() -> None:
    """The main differential test: HANDS random hands, every decision compared."""
    start = time.perf_counter()
    summary = run_diff(HANDS, SEED, stop_after=5)
    elapsed = time.perf_counter() - start
    assert not summary.mismatches, "\n\n".join(r.describe() for r in summary.mismatches)
    assert summary.hands == HANDS
    assert HANDS >= 5000 or "EUCHRE_DIFF_HANDS" in os.environ
    # Guard against a harness that compares nothing: every kind of hand occurred
    # (the stuck dealer is rare at random: see test_stick_the_dealer_hands).
    for feature in (
        "round1_order",
        "pickup",
        "round2_call",
        "maker_alone",
        "lone_defender",
        "both_alone",
        "made",
        "march",
        "euchred",
        "lone_march",
        "lone_defender_euchre",
    ):
        assert summary.features[feature] > 0, f"no hand with {feature}: {summary.features}"
    assert summary.decisions > 15 * summary.hands
    print(f"\n{summary.hands} hands, {summary.decisions} decisions compared in {elapsed:.1f} s")


def test_stick_the_dealer_hands() -> None:
    """Everyone passes while allowed: every hand reaches the stuck dealer."""
    summary = run_diff(300, SEED + 2, stop_after=1, policy=pass_first)
    assert not summary.mismatches, summary.mismatches[0].describe()
    assert summary.features["stuck_dealer"] == summary.hands == 300


def test_fast_playout_agrees() -> None:
    """Our fast path (``FastHand.playout``, what the benchmark measures) plays
    hands OpenSpiel accepts move by move, with the same tricks and points."""
    game = load_openspiel_game()
    compared = 0
    for i in range(FAST_HANDS):
        error = replay_fast_playout(game, MATCHING_RULES, (SEED + 3) * 1_000_003 + i)
        assert error is None or error == "skip", error
        compared += error is None
    assert compared > FAST_HANDS // 2


#: Rules that differ from OpenSpiel's game, and the mismatch kind each must cause.
_WRONG_RULES = {
    "dealer_may_discard_upcard": (MATCHING_RULES.replace(dealer_may_discard_upcard=True), "legal"),
    "optional_pickup": (MATCHING_RULES.replace(dealer_pickup="optional"), "legal"),
    "name_turned_down_suit": (MATCHING_RULES.replace(may_name_turned_down_suit=True), "legal"),
    "no_lone_defenders": (MATCHING_RULES.replace(defenders_may_go_alone=False), "alone_order"),
    "lone_lead_left_of_lone": (MATCHING_RULES.replace(lone_lead="left_of_lone"), "turn"),
    "lone_defender_points_2": (MATCHING_RULES.replace(lone_defender_points=2), "points"),
}


def test_harness_detects_differences() -> None:
    """With a rule set deliberately unlike OpenSpiel's, the harness must report
    a mismatch of the expected kind, so the main test cannot silently pass."""
    for name, (rules, kind) in _WRONG_RULES.items():
        summary = run_diff(400, SEED + 1, rules=rules, stop_after=1)
        assert summary.mismatches, f"{name}: no mismatch found in {summary.hands} hands"
        found = summary.mismatches[0].mismatch
        assert found is not None and found.kind == kind, f"{name}: {found}"
        assert "our record" in summary.mismatches[0].describe()


def test_fast_replay_detects_differences() -> None:
    """The fast-path replay also reports rules unlike OpenSpiel's."""
    game = load_openspiel_game()
    for rules, what in (
        (MATCHING_RULES.replace(lone_lead="left_of_lone"), "refuses"),
        (MATCHING_RULES.replace(lone_defender_points=2), "points"),
        (MATCHING_RULES.replace(dealer_may_discard_upcard=True), "refuses pickup"),
    ):
        errors = (replay_fast_playout(game, rules, SEED * 7 + i) for i in range(400))
        first = next((e for e in errors if e not in (None, "skip")), None)
        assert first is not None and what in first, (rules.describe(), first)


def test_matching_rules_on_the_detector_seed() -> None:
    """The hands that expose the wrong rules above agree under the right ones."""
    summary = run_diff(400, SEED + 1, stop_after=1)
    assert not summary.mismatches, summary.mismatches[0].describe()


def _main(argv: list[str]) -> int:
    hands = int(argv[1]) if len(argv) > 1 else HANDS
    seed = int(argv[2]) if len(argv) > 2 else SEED
    start = time.perf_counter()
    summary = run_diff(hands, seed, stop_after=10)
    elapsed = time.perf_counter() - start
    print(f"{summary.hands} hands, {summary.decisions} decisions in {elapsed:.2f} s")
    for name, count in sorted(summary.features.items()):
        print(f"  {name:22} {count}")
    for report in summary.mismatches:
        print(report.describe(), end="\n\n")
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
