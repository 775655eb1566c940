"""The search bot (``search``): sampling the unseen cards, solving each sample.

It sees only its seat's ``View``. Every decision is scored in **expected
utility of the hand** for the bot's seat (``utility``):

- Cutthroat: the bot's own points minus the average of the two other
  players' points; partnership: its side's points minus the other side's.
- Near the end of a match a hand that wins the match is worth
  ``scoring.MATCH_WIN`` more (and one that makes another player or side win is worth
  ``MATCH_WIN`` less), so a point that wins the match counts for more.

**Sampling with inference.** For each of K samples the unseen cards are dealt
consistently with the view (``View.sample``). Each sample gets a weight: the
product, over the *other* seats' past decisions, of the probability the rule
bot's model (``RuleBot.policy``) gives the action they took, given what they
could see then (their view reconstructed by replaying the history on the
sampled deal). Bids, the dealer's pick-up (with the sampled discard), the
Cutthroat maker's alone-or-merge, the go-alone calls and the joker call are
always weighed; card plays too at the levels with ``infer_plays`` (hard and
expert). The Cutthroat maker's hidden choice of five is not left to chance:
each sample gives the maker the five the model keeps of its ten cards
(``rule_keep``; a sample whose play so far rules that keep out keeps its
random five at a 251st of ``epsilon``). A player who ordered with a hand the
model would pass with gets a tenth of the weight, and so on. Uniform draws
mostly disagree with what the others were seen to do, so the levels draw
``Level.oversample`` times the deals they solve, weigh them all, and keep K
resampled by weight (systematic resampling; a deal drawn twice is solved once
with twice the weight): the solved deals follow the model's posterior. A deal
whose weight falls below ``_FLOOR`` is not replayed further.

**Card play** (phase ``play``): each sample is solved exactly (double-dummy,
``euchre.solver``) for every legal card at once (``Solver.move_values``;
the last trick is simply played out); the maker side's tricks are turned
into points with the scoring table of the hand and into utility; the
weighted average picks the card (ties: more of my side's tricks, then the
lower card). At the levels with ``Level.play_best_response`` (hard and
expert) each card is judged on each sample instead by the side's *best
response* to the model (``best_response_tricks``): the bot (and, in
partnership, its partner) choose their later cards seeing the sample's
cards, and the other seats play the rule bot's cards -- the exact search
of the sample, but against the opponents the model expects rather than
against opponents who see every card. Hard and expert
(``Level.play_infoset``, compiled core) take the *information-set* best
response instead: the bot's later cards may depend only on what it will
have seen, one card for all the deals that show the same play, so the bot
no longer counts on knowing the sample's hidden cards (the pure-Python
path keeps the per-deal one); in partnership its partner plays the rule
bot's cards there (``Level.infoset_partner_rule``), not as if it saw the
deal. ``Level.play_own`` (no level uses it
since the best response measured as well in Cutthroat and better in
partnership) plays each card out on each sample in an *own-play rollout*
instead: the other seats by the rule bot, the bot's own later cards as the
search plays them, cheaply (``own_card``).

**Own-play rollouts.** ``own_card`` plays a card for a seat as the search
would, at a fraction of the cost: a few deals in which the cards the seat
cannot see are dealt anew to the others (hand sizes and the voids shown in
the play kept, the bids not weighed), each solved, the card worth most to
the seat on the sum. ``finish_hand`` with ``own`` deals plays the bot's side
(the bot and, in partnership, its partner) this way and the others by the
rule bot.

**Decisions before the play** (joker call, bids, pick-up and discard,
alone, the Cutthroat maker's alone-or-merge and keep-five-of-ten) are *not*
sampled-and-solved as if the bot would see all cards later (strategy fusion
overbids). Each candidate action is applied on every sampled deal (the same
deals for every candidate: common random numbers), then the rest of the hand
follows a fixed policy: the rule bot for every seat's later calls (the bot's
own too), with a fast greedy keep-five (``greedy_keep``) for any Cutthroat
maker who merges, and the card play by the rule bot — except, at the
levels with ``Level.own_samples`` (hard, expert), the cards of the bot's
side, played as the search plays them (own-play rollouts, above); the
points of that hand are the sample's outcome. Honest play is the point
(the bot will not see the cards later; double-dummy play from the position
after the decision, ``Level.rollout="solve"``, measured a little worse).
The later decisions of the other seats are simulated, never solved. The
bot's own later Cutthroat maker choice in a rollout is always to merge
(going alone earns no bonus there). The 252 keep candidates are
first filtered to the best few by ``rule.strength`` (the rule bot's own keep
is added). The rule bot's own choice is the default: another action must
beat it by ``Level.margin`` plus one standard error of the estimated
(paired, weighted) difference, so that sampling noise does not buy
deviations. The number of deals for such a decision is the level's
rollout budget divided by the number of candidates (at least
``min_samples``); while the gain of some candidate is still within
``Level.settle_z`` standard errors of the margin (the decision is open),
further batches of as many deals are drawn, up to ``Level.max_rollouts``
rollouts in all, each batch weighing alike: clear decisions stay cheap, close
ones get the deals they need.

``suggest(view)`` returns every legal action (for the keep choice: the
filtered candidates) with its expected utility, best first — the hint; its
first entry is what ``choose`` plays. Each decision draws its random numbers
from a generator seeded by the bot's seed and the view itself, so the choice
depends only on the view and the seed.

Levels trade time for strength: ``easy``, ``medium``, ``hard`` (the
default), ``expert``. A bot is made with a level's name; ``LEVELS`` holds
each level's settings by variant, and each decision takes those of its
view's variant (``SearchBot.level_for``).

**Two paths.** The sampling, the weights, the rollouts and the solves run in
the compiled core (``bots.compiled``, ``euchre._csearch``) when it is built,
else (or with ``EUCHRE_PURE=1``, or ``compiled_core=False``) in the Python
here, the reference; the statistics and the choice are this module's on both.
``SearchBot.deadline`` makes a decision anytime.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..actions import KEEP, MERGE, PLAY, Action
from ..cards import EFFECTIVE_SUIT, POWER, SUIT_MASK, Rank, deck_mask, ids_of
from ..hand import FastHand, HandState, Phase
from ..rules import Rules
from ..solver import Solver
from ..view import View
from . import compiled
from .rule import RuleBot, strength
from .scoring import points_table, utility, utility_row
from .style import CallStyles

__all__ = [
    "LEVELS",
    "NAMED_SEARCH_LEVEL",
    "CallEstimate",
    "Level",
    "SearchBot",
    "finish_hand",
    "greedy_keep",
    "own_card",
    "play_voids",
    "rank_calls",
]

_MK, _KP, _PL, _OV = Phase.MAKER, Phase.KEEP, Phase.PLAY, Phase.OVER

#: ``SearchBot.weight`` stops replaying a deal whose weight fell below this
#: (three or more surprises under the model): it is next to never resampled.
_FLOOR: Final = 1e-5

#: The Python path's decision before the play, cut short by the deadline in
#: its first batch of deals (``SearchBot.deadline``), answers on at least
#: this many deals, judged past the deadline if need be: the standard error
#: of a candidate's gain (``rank_calls``) needs a few.
CUT_MIN_DEALS: Final = 8


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a search bot thinks, in one variant (``LEVELS``)."""

    name: str
    play_samples: int  #: deals sampled for a card play
    decision_rollouts: int  #: rollouts (deals x candidates) for a decision before play
    min_samples: int  #: at least this many deals for a decision before play
    keep_candidates: int  #: keep-five choices evaluated (of 252)
    infer_plays: bool  #: weigh the other seats' card plays too (not just calls)
    #: deals drawn per sample kept for a decision before the play:
    #: ``oversample`` x K deals are drawn and weighed, then K are resampled by
    #: weight (see ``SearchBot._samples``)
    oversample: int
    #: the same for a card play
    play_oversample: int
    #: utility a decision before the play must gain over the rule bot's own
    #: choice (beyond one standard error of the estimated gain) to be
    #: preferred to it: sampling noise must not buy deviations
    margin: float = 0.1
    rollout: str = "rule"  #: play after a decision: "rule" (rule bot) or "solve"
    #: standard errors of the estimated gain a deviation must also clear
    se_factor: float = 1.0
    #: utility added to a rollout before the play that ends with the deciding
    #: seat on the maker's side. Rule-bot rollouts play the bot's cards by the
    #: rule bot, but the bot plays them by search, which gains more over the
    #: rule bot as maker than as defender (see docs/strength.md for the
    #: paired measurement). No level uses it since the own-play rollouts
    #: (``own_samples``) play those cards as the search does.
    maker_edge: float = 0.0
    #: a decision before the play whose outcome is still open after its
    #: rollout budget draws further batches of deals, up to this many
    #: rollouts in all (0: never; see ``SearchBot._decision_values``)
    max_rollouts: int = 0
    #: a candidate's gain over the rule bot's choice counts as settled when
    #: it is this many standard errors away from the margin
    settle_z: float = 2.0
    #: the rollouts before the play play the cards of the bot's side as the
    #: search does, with this many deals per card (0: by the rule bot)
    own_samples: int = 0
    #: a card play is judged by own-play rollouts (as ``own_samples``) with
    #: this many deals per card instead of solving each deal (0: solve; no
    #: level uses it since ``play_best_response``)
    play_own: int = 0
    #: a card play is judged on each weighed deal by the best the bot's side
    #: can do after it against the rule bot's card play
    #: (``best_response_tricks``) instead of by solving it double-dummy
    #: (before ``play_own``, which it overrides)
    play_best_response: bool = False
    #: a card play is judged by the information-set best response to the
    #: model over the weighed deals: the bot's later cards depend only on
    #: what it will have seen, one card for all the deals that show the
    #: same play (over ``play_best_response``; hard and expert use it; the
    #: pure-Python path plays the per-deal best response instead; see
    #: docs/strength.md, "The information-set best response")
    play_infoset: bool = False
    #: in the information-set best response (``play_infoset``), a partner
    #: (partnership) plays the rule bot's cards instead of the side's
    #: per-deal best response, which sees each deal (partnership hard and
    #: expert; docs/strength.md, the ninth round)
    infoset_partner_rule: bool = False
    #: learn across the hands of a match how the others call (``hand_over``,
    #: ``bots.style``) and shift each one's making threshold in the model
    adapt: bool = False
    #: the epsilon a partner's card plays (partnership) are weighed with in
    #: the inference (None: the model's, ``RuleBot.epsilon``): a partner
    #: who plays by search rather than by the rule bot is modeled more loosely
    partner_epsilon: float | None = None

    def partner_eps(self) -> float:
        """The epsilon of a partner's card plays in the inference."""
        return RuleBot.epsilon if self.partner_epsilon is None else self.partner_epsilon

    def decision_samples(self, candidates: int) -> int:
        """Deals to sample for a decision with this many candidate actions."""
        return max(self.min_samples, self.decision_rollouts // max(1, candidates))


@dataclass(frozen=True, slots=True)
class CallEstimate:
    """One candidate of a decision before the play as the search estimated
    it (``SearchBot.estimates``; measurement: bench/call_outcomes.py)."""

    action: Action
    value: float  #: its expected utility over the rollouts
    #: the standard error of its estimated gain over the rule bot's choice
    #: (0 for that choice)
    se: float
    prior: bool  #: whether it is the rule bot's choice (the default to beat)


def rank_calls(
    estimates: Sequence[CallEstimate], margin: float, se_factor: float
) -> list[CallEstimate]:
    """``estimates`` best first by the search's rule for a decision before
    the play: ``value`` less ``margin`` + ``se_factor`` x ``se`` (the rule
    bot's choice less nothing: sampling noise must not buy deviations),
    equal to 1e-9 the earlier first. The search bot ranks its candidates
    so with its level's margin; bench/call_outcomes.py with others."""

    def key(i: int) -> tuple[float, int]:
        e = estimates[i]
        penalty = 0.0 if e.prior else margin + se_factor * e.se
        return (-round(e.value - penalty, 9), i)

    return [estimates[i] for i in sorted(range(len(estimates)), key=key)]


_CUTTHROAT_LEVELS: Final = {
    "easy": Level(
        "easy",
        play_samples=6,
        decision_rollouts=16,
        min_samples=6,
        keep_candidates=2,
        infer_plays=False,
        oversample=1,
        play_oversample=1,
        margin=0.2,
    ),
    "medium": Level(
        "medium",
        play_samples=12,
        decision_rollouts=40,
        min_samples=10,
        keep_candidates=3,
        infer_plays=False,
        oversample=2,
        play_oversample=2,
        margin=0.15,
    ),
    "hard": Level(
        "hard",
        play_samples=100,
        decision_rollouts=100,
        min_samples=20,
        keep_candidates=4,
        infer_plays=True,
        oversample=8,
        margin=0.0,
        se_factor=0.5,
        max_rollouts=800,
        own_samples=6,
        play_oversample=32,
        play_best_response=True,
        play_infoset=True,
        adapt=True,
    ),
    "expert": Level(
        "expert",
        play_samples=200,
        decision_rollouts=240,
        min_samples=48,
        keep_candidates=6,
        infer_plays=True,
        oversample=8,
        margin=0.0,
        se_factor=0.5,
        max_rollouts=1600,
        own_samples=8,
        play_oversample=32,
        play_best_response=True,
        play_infoset=True,
        adapt=True,
    ),
}


def _partnership(level: Level, own_samples: int, play_samples: int) -> Level:
    """A Cutthroat level (hard, expert) as partnership plays it: a
    partner's card plays are weighed loosely, a deviation
    from the rule bot's call must clear a small margin, the own-play
    rollouts of the calls solve ``own_samples`` deals a card (two seats play
    that way there, with four hands a solve: hard's 3 cost half of 6 and
    measured the same), and a card play is judged on ``play_samples`` deals
    by the information-set best response with the partner playing the rule
    bot's cards in it (with a partner who sees each deal there, it measured
    worse than the per-deal best response; docs/strength.md, the ninth
    round)."""
    return replace(
        level,
        margin=0.03,
        se_factor=1.0,
        partner_epsilon=0.5,
        own_samples=own_samples,
        play_samples=play_samples,
        play_infoset=True,
        infoset_partner_rule=True,
    )


#: The levels by variant, then by name. The variants gain from the knobs
#: differently (see docs/strength.md): partnership weighs a partner's card
#: plays loosely and keeps a margin for its calls (``_partnership``).
LEVELS: Final[dict[str, dict[str, Level]]] = {
    "cutthroat": _CUTTHROAT_LEVELS,
    "partnership": {
        **_CUTTHROAT_LEVELS,
        "hard": _partnership(_CUTTHROAT_LEVELS["hard"], 3, 200),
        "expert": _partnership(_CUTTHROAT_LEVELS["expert"], 8, 400),
    },
}

#: The level of a search bot made without one: ``SearchBot()``, the bare name
#: ``search`` (``make_bot("search")``, an arena lineup's ``search``). It is the
#: measured level, so the arena's figures for ``search`` are hard's; players
#: get ``bots.registry.DEFAULT_LEVEL`` instead.
NAMED_SEARCH_LEVEL: Final = "hard"


# -- fast policies for rollouts -----------------------------------------------------------


def greedy_keep(pool: int, trump: int) -> int:
    """A quick keep-five of a Cutthroat maker's ten cards (a mask): trumps from
    the top, then off-suit aces, then kings, then the highest cards of suits
    already kept (shorter suits, more voids). Used in rollouts, where trying
    the 252 choices would be too slow."""
    eff = EFFECTIVE_SUIT[trump]
    power = POWER[trump][trump]
    ids = [c for c in range(33) if pool >> c & 1]
    trumps = sorted((c for c in ids if eff[c] == trump), key=lambda c: -power[c])
    keep = trumps[:5]
    if len(keep) < 5:
        off = [c for c in ids if eff[c] != trump]
        for r in (Rank.ACE, Rank.KING):
            for c in off:
                if len(keep) < 5 and c & 7 == r and c not in keep:
                    keep.append(c)
        rest = [c for c in off if c not in keep]
        while len(keep) < 5:
            kept_suits = {eff[c] for c in keep}
            c = max(rest, key=lambda c: (eff[c] in kept_suits, c & 7))
            rest.remove(c)
            keep.append(c)
    m = 0
    for c in keep:
        m |= 1 << c
    return m


def play_voids(h: FastHand) -> list[int]:
    """The cards of the effective suits each seat has shown void in during
    the play of ``h`` (a mask per seat): a seat that did not follow the suit
    led holds none of it."""
    t = h.trump
    eff = EFFECTIVE_SUIT[t]
    out = [0] * 4
    tricks = [(leader, cards) for leader, cards, _ in h.trick_log]
    tricks.append((h.leader, h.trick))
    for seat, cards in tricks:
        if not cards or seat < 0:
            continue
        led = eff[cards[0]]
        for c in cards[1:]:
            seat = h.next_active(seat)
            if eff[c] != led:
                out[seat] |= SUIT_MASK[t][led]
    return out


def own_card(h: FastHand, seat: int, deals: int, rng: random.Random) -> int | None:
    """The card ``seat`` plays in an own-play rollout (``Level.own_samples``),
    chosen as the search chooses but cheaply: ``deals`` deals in which the
    cards the seat cannot see are dealt anew to the other seats in play
    (their hand sizes and the voids they showed in the play kept; the bids
    are not weighed), each solved double-dummy; the card whose solved
    outcomes are worth most to the seat (its points minus the others' mean
    in Cutthroat, side minus side in partnership), summed over the deals;
    ties to the lower card id. A deal is redrawn up to 8 times while some
    seat cannot be filled without breaking a void; None if no deal was
    drawn (the caller then plays the rule bot's card). A card the dealer
    picked up stays with the dealer until played. The choice depends only on
    what the seat sees (and ``rng``). The compiled core's ``cs_own_card`` is
    the same procedure with its own generator."""
    n = h.n
    played = h.played
    fixed = [0] * 4  # the up card the dealer picked up and has not played
    if h.picked and seat != h.dealer and not played >> h.up & 1:
        fixed[h.dealer] = 1 << h.up
    known = h.hands[seat] | played | fixed[0] | fixed[1] | fixed[2] | fixed[3]
    if h.picked is False:
        known |= 1 << h.up  # turned down
    if seat == h.dealer and h.picked and h.dealer_discard >= 0:
        known |= 1 << h.dealer_discard
    if h.cut and h.merged and seat == h.maker:
        known |= h.maker_discards
    pool = ids_of(deck_mask(h.rules.deck) & ~known)
    voids = play_voids(h)
    others = [t for t in range(n) if t != seat and not h.out >> t & 1]
    need = {t: h.hands[t].bit_count() - fixed[t].bit_count() for t in others}
    legal = ids_of(h.follow_mask(seat))
    score = dict.fromkeys(legal, 0.0)
    util = utility_row(h, seat, ())  # no match situation: the points alone
    solved = 0
    for _ in range(deals):
        got: dict[int, int] = {}
        for _try in range(8):
            rng.shuffle(pool)
            used = [False] * len(pool)
            got = {}
            for t in others:
                want, g = need[t], 0
                for j, c in enumerate(pool):
                    if not want:
                        break
                    if used[j] or voids[t] >> c & 1:
                        continue
                    used[j] = True
                    g |= 1 << c
                    want -= 1
                if want:
                    got = {}
                    break
                got[t] = g | fixed[t]
            if got:
                break
        if not got:
            continue
        hh = h.copy()
        for t, g in got.items():
            hh.hands[t] = g
        vals = Solver(hh).move_values()
        for c in legal:
            score[c] += util[vals[c]]
        solved += 1
    if not solved:
        return None
    best = legal[0]
    for c in legal[1:]:
        if score[c] > score[best] + 1e-9:
            best = c
    return PLAY | best << 4


def side_of(h: FastHand, seat: int) -> int:
    """The seats of ``seat``'s side as a mask: ``seat`` and, in partnership,
    its partner."""
    side = 0
    for t in range(h.n):
        if t == seat or (not h.cut and t & 1 == seat & 1):
            side |= 1 << t
    return side


def best_response_tricks(h: FastHand, side: int, rule: RuleBot, most: bool) -> int:
    """The maker side's tricks at the end of the play of the full hand ``h``
    (mutated; in its play) when the seats of ``side`` (a mask) choose their
    cards seeing every card, for the most tricks if ``most`` (they are the
    maker's side) or the fewest, and every other seat plays the rule bot's
    card (``rule.play_code``). The rule bot is deterministic, so only the
    side's turns branch: this is the side's exact best response to the
    model on this deal (``Level.play_best_response``). A branch stops as
    soon as one card reaches all the remaining tricks (or none of them).
    The compiled core's ``br_tricks`` is the same search."""
    while h.phase == _PL:
        t = h.turn
        m = h.follow_mask(t)
        if not m & (m - 1):  # forced
            h.step(PLAY | (m.bit_length() - 1) << 4)
            continue
        if not side >> t & 1:
            h.step(rule.play_code(h, t))
            continue
        now, left = h.side_tricks(), 5 - len(h.trick_log)
        best = -1 if most else 6
        for c in ids_of(m):
            child = h.copy()
            child.step(PLAY | c << 4)
            v = best_response_tricks(child, side, rule, most)
            if (v > best) if most else (v < best):
                best = v
            if best >= now + left if most else best <= now:
                break  # nothing can do better
        return best
    return h.side_tricks()


def finish_hand(
    h: FastHand,
    base: HandState,
    rule: RuleBot,
    play: str = "rule",
    on_solve: Callable[[], None] | None = None,
    me: int = -1,
    own: int = 0,
    rng: random.Random | None = None,
) -> tuple[tuple[int, ...], int] | None:
    """Continue ``h`` (mutated) to the end of the hand: the decisions before
    the play by the rule bot for every seat (``greedy_keep`` for a merging
    Cutthroat maker), then the card play by the rule bot for every seat
    (``play="rule"``) or solved double-dummy (``play="solve"``). Returns the
    points of every seat and the maker side's tricks, or None if the hand was
    thrown in. ``base`` supplies the deal (for the views). Seat ``me`` (the
    deciding bot), as a Cutthroat maker, always merges the dummy: going alone
    there earns no bonus and only gives up the dummy's cards.

    With ``own`` deals (``Level.own_samples``) and ``rng``, the cards of
    ``me``'s side (``me`` and, in partnership, its partner) are played as the
    search plays them (``own_card``), the others' by the rule bot."""
    deal = base.deal
    smart = side_of(h, me) if own and me >= 0 else 0
    while h.phase != _OV:
        p = h.phase
        if p == _PL:
            if play == "solve":
                if on_solve is not None:
                    on_solve()
                made = Solver(h).max_tricks()
                return points_table(h)[made], made
            t = h.turn
            m = h.follow_mask(t)
            if not m & (m - 1):  # forced
                h.step(PLAY | (m.bit_length() - 1) << 4)
                continue
            code = None
            if smart >> t & 1 and len(h.trick_log) < 4 and rng is not None:
                code = own_card(h, t, own, rng)
            h.step(rule.play_code(h, t) if code is None else code)
            continue
        seat = h.turn
        if p == _KP:
            h.step(KEEP | greedy_keep(h.hands[h.maker] | h.dummy, h.trump) << 4)
            continue
        if p == _MK and seat == me:
            h.step(MERGE)
            continue
        v = View.of(HandState.from_fast(h, deal), seat)
        h.step(rule.choose(v, v.legal).code)
    if h.thrown_in:
        return None
    return tuple(h.points), h.side_tricks()


# -- the bot ------------------------------------------------------------------------------


def _view_key(view: View) -> int:
    data = view.to_json()
    if view.phase == Phase.KEEP:
        # keyed as when the keep was asked on the maker's view of phase MAKER
        # (before KEEP was a phase of its own): the same seeds, the same play
        data["phase"] = str(Phase.MAKER)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return zlib.crc32(text.encode())


class SearchBot:
    """Chooses by sampling the unseen cards, weighing the samples by the rule
    bot's model of the others (inference), and solving (see the module)."""

    def __init__(
        self,
        rng: random.Random | None = None,
        level: str = NAMED_SEARCH_LEVEL,
        name: str | None = None,
        compiled_core: bool | None = None,
    ) -> None:
        names = LEVELS["cutthroat"]
        if level not in names:
            raise ValueError(f"unknown level {level!r} (want one of {', '.join(names)})")
        if compiled_core and not compiled.COMPILED_AVAILABLE:
            raise ValueError("the compiled search (euchre._csearch) is not built")
        #: whether the inner loops run in the compiled core (``bots.compiled``;
        #: default: ``compiled.COMPILED``) or in Python, the reference
        self.compiled = compiled.COMPILED if compiled_core is None else compiled_core
        #: the level's name
        self.level = level
        #: the level's settings by variant (``LEVELS``): each decision uses
        #: those of its view's variant (``level_for``)
        self.levels = {variant: table[level] for variant, table in LEVELS.items()}
        self.name = name or f"search:{level}"
        self.seed = (rng or random.Random()).getrandbits(64)
        self.model = RuleBot(random.Random(0))
        #: the time (``time.time()``) by which a decision must answer, or None
        #: (no limit): a decision before the play is then anytime -- it draws
        #: no further batch of deals once the time has passed and answers
        #: with its best so far. The compiled core always finishes the batch
        #: it is in (tens of milliseconds at hard). The Python path judges
        #: deals one by one and stops past the deadline: at once in a later
        #: batch, in the first once ``CUT_MIN_DEALS`` deals are judged; the
        #: deals judged stand for the posterior, each weighing as much as in
        #: a whole batch. A Python card play draws its deals until half of
        #: its time is left and judges them until the deadline (at least one of
        #: each; ``_solved``); on the compiled core a card play is one batch.
        #: A decision the deadline does not cut is exactly the one without a
        #: deadline.
        self.deadline: float | None = None
        #: decisions that answered at the deadline with fewer deals than the level's
        self.cut_short = 0
        #: measurement only (``bots.peek``, the arena's ``peek:LEVEL``): what
        #: the card play's deals give other seats of their current hands, as
        #: if this seat saw it (``compiled.known``'s ``reveal``: a card mask
        #: for a whole hand, a pair of masks for part of one); compiled core
        #: only. None for every bot that plays.
        self.reveal: dict[int, int | tuple[int, int]] | None = None
        #: measurement only (bench/call_outcomes.py): the candidates of the
        #: last decision before the play as they were estimated, in the order
        #: that breaks ties (``rank_calls`` with the level's margin ranks
        #: them as ``suggest`` did). Empty before any such decision.
        self.estimates: list[CallEstimate] = []
        #: how the other seats have been seen to call in this match
        #: (``hand_over``; at a level with ``Level.adapt``), or None before
        #: the first hand learnt from: the model then shifts each seat's
        #: making threshold by ``CallStyles.shift``
        self.styles: CallStyles | None = None
        #: work counters (for tests and measurement)
        self.samples = 0
        self.solves = 0
        self.rollouts = 0

    def level_for(self, rules: Rules) -> Level:
        """This bot's level in the variant of ``rules``."""
        return self.levels[rules.variant]

    # -- the protocol --------------------------------------------------------------
    def hand_over(self, view: View) -> None:
        """Learn from a finished hand of the match, seen from this bot's seat
        (its view once the hand is over), how the others call
        (``bots.style``); the later decisions' model of them follows. Only at
        a level with ``Level.adapt``; a view of another seat or variant
        than the hands learnt from so far starts afresh."""
        if not self.level_for(view.rules).adapt:
            return
        styles = self.styles
        if styles is None or not styles.fits(view):
            styles = self.styles = CallStyles(view.rules, view.seat)
        styles.observe(view)

    def make_shifts(self, view: View) -> tuple[float, ...]:
        """The model's shift of each seat's making threshold for a decision
        on ``view``: what ``hand_over`` learnt (empty: none)."""
        styles = self.styles
        if styles is None or not styles.fits(view) or not self.level_for(view.rules).adapt:
            return ()
        return styles.shifts()

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The best of ``legal`` by expected utility (see ``suggest``)."""
        if len(legal) == 1:
            return legal[0]
        return self.suggest(view, legal)[0][0]

    def suggest(
        self, view: View, legal: Sequence[Action] | None = None
    ) -> list[tuple[Action, float]]:
        """The legal actions with their expected utility (points of the hand,
        see the module), best first. For the keep-five choice only the
        filtered candidates (and the rule bot's keep) are listed. Before the
        play, another action ranks above the rule bot's own choice only if it
        is worth more by ``Level.margin`` plus one standard error of the
        estimated difference (sampling noise must not buy deviations)."""
        legal = list(view.legal if legal is None else legal)
        if not legal:
            return []
        rng = random.Random(self.seed ^ _view_key(view))
        self.model.seat_shifts = self.make_shifts(view)
        if view.phase == Phase.PLAY:
            return self._play_values(view, legal, rng)
        return self._decision_values(view, legal, rng)

    # -- inference ---------------------------------------------------------------------
    def weight(self, sample: HandState, seat: int, floor: float = 0.0) -> float:
        """How likely the other seats' past decisions were on this deal under
        the rule bot's model: the product of their probabilities. Once the
        product falls below ``floor`` the rest is not replayed and the product
        so far (an upper bound) is returned: such a deal is next to never
        resampled."""
        h = sample.core
        deal = sample.deal
        cur = FastHand.new(h.rules, h.dealer, deal)
        model = self.model
        level = self.level_for(sample.rules)
        infer_plays = level.infer_plays
        partner = -1 if h.cut else (seat + 2) % 4
        w = 1.0
        for s, code in h.history:
            if s != seat:
                kind = code & 15
                if kind == PLAY and not infer_plays:
                    break
                if cur.phase == _PL:
                    m = cur.follow_mask(s)
                    if m & (m - 1):
                        eps = level.partner_eps() if s == partner else model.epsilon
                        if model.play_code(cur, s) == code:
                            w *= 1.0 - eps
                        else:
                            w *= eps / (m.bit_count() - 1)
                else:
                    v = View.of(HandState.from_fast(cur, deal), s)
                    if len(v.legal) > 1:
                        taken = Action(MERGE if kind == KEEP else code)
                        probs = model.policy(v, v.legal)
                        w *= probs.get(taken, 1e-3)
                if w < floor:
                    return w
            cur.step(code)
        return w

    def rule_keep(self, sample: HandState) -> tuple[HandState, float]:
        """A Cutthroat maker who merged keeps, under the model, the rule bot's
        five of its ten cards: the same deal with that keep (if the play so
        far allows it) and the model's probability of the keep, ``1 -
        epsilon``; else the sample as it is, with the probability of a keep
        the model would not make (``epsilon`` shared by the other 251)."""
        h = sample.core
        maker = h.maker
        kept = 0
        for s, code in h.calls:
            if s == maker and code & 15 == KEEP:
                kept = code >> 4
        eps = self.model.epsilon
        mine = self.model.keep_mask(
            kept | h.maker_discards, h.trump, bool(h.picked), h.up, h.rules.deck
        )
        if mine == kept:
            return sample, 1.0 - eps
        deal = sample.deal
        cur = FastHand.new(h.rules, h.dealer, deal)
        for s, code in h.history:
            if s == maker and code & 15 == KEEP:
                code = KEEP | mine << 4
            if cur.step_recorded(code) is not None:  # its play so far says otherwise
                return sample, eps / 251
        return HandState.from_fast(cur, deal), 1.0 - eps

    def _samples(
        self,
        view: View,
        k: int,
        rng: random.Random,
        oversample: int = 0,
        until: float | None = None,
    ) -> list[tuple[HandState, float]]:
        """At most ``k`` deals consistent with ``view``, with weights summing
        to 1 that stand for the model's posterior: ``oversample`` (0: the
        level's ``Level.oversample``) x k deals are drawn uniformly and
        weighed (``weight``; ``rule_keep``), then k are drawn from them in
        proportion to weight (systematic resampling) and a deal drawn n times
        is listed once with weight n/k. Without oversampling the k drawn deals
        keep their normalised weights. ``until`` (a ``time.time()``): no deal
        is drawn after the first once it has passed (counted in
        ``cut_short``); the deals drawn so far stand for the posterior."""
        out = []
        draw = view.sampler()
        rekeep = view.merged and view.maker is not None and view.maker != view.seat
        n = k * max(1, oversample or self.level_for(view.rules).oversample)
        for i in range(n):
            if until is not None and i and time.time() >= until:
                self.cut_short += 1
                n = i
                break
            st = draw(rng)
            f = 1.0
            if rekeep:
                st, f = self.rule_keep(st)
            out.append((st, f * self.weight(st, view.seat, _FLOOR)))
        self.samples += n
        total = sum(w for _, w in out)
        if total <= 0:
            return [(st, 1.0 / min(k, n)) for st, _ in out[:k]]
        if n <= k:
            return [(st, w / total) for st, w in out]
        step = total / k
        mark = rng.random() * step
        acc = 0.0
        taken = 0
        picked: dict[int, int] = {}
        for j, (_, w) in enumerate(out):
            acc += w
            while mark < acc and taken < k:
                picked[j] = picked.get(j, 0) + 1
                taken += 1
                mark += step
        return [(out[j][0], c / taken) for j, c in picked.items()]

    # -- card play -----------------------------------------------------------------------
    def _move_tricks(self, h: FastHand, codes: Sequence[int]) -> dict[int, int]:
        """Maker side's total tricks after each of ``codes`` (solved)."""
        if len(h.trick_log) == 4:  # last trick: play it out
            out = {}
            for code in codes:
                child = h.copy()
                child.step(code)
                while not child.over:
                    child.step(child.legal_codes()[0])
                out[code] = child.side_tricks()
            return out
        self.solves += 1
        vals = Solver(h).move_values()
        return {code: vals[code >> 4] for code in codes}

    def _best_response(self, h: FastHand, codes: Sequence[int]) -> dict[int, int]:
        """Maker side's total tricks after each of ``codes`` when the side of
        the seat to act then plays its best response to the rule bot's cards
        (``best_response_tricks``)."""
        seat = h.turn
        side, most = side_of(h, seat), h.on_maker_side(seat)
        out = {}
        for code in codes:
            child = h.copy()
            child.step(code)
            out[code] = best_response_tricks(child, side, self.model, most)
        return out

    def _play_values(
        self, view: View, legal: list[Action], rng: random.Random
    ) -> list[tuple[Action, float]]:
        seat = view.seat
        value = dict.fromkeys(legal, 0.0)
        mine = dict.fromkeys(legal, 0.0)
        codes = [a.code for a in legal]
        level = self.level_for(view.rules)
        k, over = level.play_samples, level.play_oversample
        if self.reveal and not self.compiled:
            raise RuntimeError("a search bot is shown other hands only on the compiled core")
        if self.compiled:
            search = compiled.known(view, self.reveal, self.model.seat_shifts)
            irow = None
            if level.play_infoset:
                irow = [utility(p, seat, view.rules, view.scores) for p in search.table()]
            ws, tricks, solves, table = search.play(
                rng.getrandbits(64),
                k,
                max(1, over),
                level.infer_plays,
                codes,
                level.play_own,
                level.partner_eps(),
                level.play_best_response,
                irow,
                level.infoset_partner_rule,
            )
            self.samples += k * max(1, over)
            self.solves += solves
            if level.play_own and not level.play_best_response and len(view.tricks) < 4:
                self.rollouts += len(ws) * len(codes)
            row = [utility(p, seat, view.rules, view.scores) for p in table]
            maker = view.maker
            on_maker = maker is not None and (
                seat == maker if view.rules.cutthroat else (seat - maker) % 2 == 0
            )
            solved = [
                (w, dict(zip(codes, ts, strict=True))) for w, ts in zip(ws, tricks, strict=True)
            ]
        else:
            row, on_maker, solved = self._solved(view, codes, rng, k, over)
        for w, tricks_after in solved:
            for a in legal:
                t = tricks_after[a.code]
                value[a] += w * row[t]
                mine[a] += w * (t if on_maker else 5 - t)
        trump = view.trump
        t_ = int(trump) if trump is not None else 4

        def key(a: Action) -> tuple[float, float, int]:
            c = a.code >> 4
            pw = POWER[t_][EFFECTIVE_SUIT[t_][c]][c]
            return (round(value[a], 9), round(mine[a], 9), -pw)

        ranked = sorted(legal, key=key, reverse=True)
        return [(a, value[a]) for a in ranked]

    def _solved(
        self, view: View, codes: list[int], rng: random.Random, k: int, over: int
    ) -> tuple[list[float], bool, list[tuple[float, dict[int, int]]]]:
        """The Python path of a card play: the weighed deals, each with the
        maker side's tricks after each of ``codes`` (solved), the utility by
        those tricks and whether the seat is on the maker's side. Anytime
        under ``deadline``: the deals are drawn in half of the time left
        and judged in the rest; those judged by the deadline stand for the
        posterior (weights summing to 1 again)."""
        seat = view.seat
        level = self.level_for(view.rules)
        own = level.play_own
        row: list[float] = []
        on_maker = False
        solved: list[tuple[float, dict[int, int]]] = []
        until = None  # when the drawing stops (anytime: see the docstring)
        if self.deadline is not None:
            now = time.time()
            until = now + max(0.0, self.deadline - now) / 2
        cut = self.cut_short
        for st, w in self._samples(view, k, rng, over, until):
            if solved and self._past_deadline():
                if self.cut_short == cut:
                    self.cut_short += 1
                total = sum(x for x, _ in solved)
                solved = [(x / total, tricks) for x, tricks in solved]
                break
            h = st.core
            if not row:
                row = utility_row(h, seat, view.scores)
                on_maker = h.on_maker_side(seat)
            if level.play_best_response and len(h.trick_log) < 4:
                solved.append((w, self._best_response(h, codes)))
            elif own and len(h.trick_log) < 4:
                solved.append((w, self._own_tricks(st, codes, own, rng)))
            else:
                solved.append((w, self._move_tricks(h, codes)))
        return row, on_maker, solved

    def _own_tricks(
        self, sample: HandState, codes: Sequence[int], own: int, rng: random.Random
    ) -> dict[int, int]:
        """Maker side's total tricks after each of ``codes``, the rest of the
        hand played by the rule bot for the other side and as the search
        plays (``own_card``, ``own`` deals a card) for the bot's side."""
        out = {}
        seat = sample.core.turn
        for code in codes:
            h = sample.core.copy()
            h.step(code)
            self.rollouts += 1
            done = finish_hand(h, sample, self.model, "rule", None, seat, own, rng)
            assert done is not None  # a hand in its play is never thrown in
            out[code] = done[1]
        return out

    # -- decisions before the play -------------------------------------------------------
    def keep_candidates(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The few keep-five choices worth evaluating: the best by
        ``rule.strength`` (ties by fewer suits kept)."""
        trump = view.trump
        assert trump is not None
        keeps = [a for a in legal if a.kind == "keep" and not a.is_merge]
        eff = EFFECTIVE_SUIT[int(trump)]

        def score(a: Action) -> tuple[float, int]:
            cards = a.cards
            return (strength(cards, trump), -len({eff[c.id] for c in cards}))

        keeps.sort(key=score, reverse=True)
        others = [a for a in legal if a.kind != "keep"]
        return others + keeps[: self.level_for(view.rules).keep_candidates]

    def _decision_values(
        self, view: View, legal: list[Action], rng: random.Random
    ) -> list[tuple[Action, float]]:
        seat = view.seat
        # the rule bot's own choice is the default a candidate must beat by
        # the level's margin
        prior = self.model.choose(view, legal)
        if view.phase == Phase.KEEP:
            legal = self.keep_candidates(view, legal)
            if prior not in legal:
                legal.append(prior)
        scores = view.scores
        rules = view.rules

        def count() -> None:
            self.solves += 1

        level = self.level_for(rules)
        k = level.decision_samples(len(legal))
        edge = level.maker_edge
        per: dict[Action, list[float]] = {a: [] for a in legal}
        ws: list[float] = []
        nb = 0  # batches drawn
        # the standard error of each candidate's estimated gain over ``prior``
        ses: dict[Action, float] = {prior: 0.0}
        fast = self.compiled and level.rollout == "rule"
        search = compiled.known(view, make_shifts=self.model.seat_shifts) if fast else None
        codes = [a.code for a in legal]
        worth: dict[int, float] = {}  # the compiled path's outcomes, as utility
        cut = False  # the Python path's batch cut short by the deadline
        while True:
            if search is not None:
                batch, outcomes = search.decide(
                    rng.getrandbits(64),
                    k,
                    max(1, level.oversample),
                    level.infer_plays,
                    codes,
                    level.own_samples,
                    level.partner_eps(),
                )
                self.samples += k * max(1, level.oversample)
                self.rollouts += len(batch) * len(legal)
                ws.extend(batch)
                for a, row in zip(legal, outcomes, strict=True):
                    for o in row:
                        u = worth.get(o)
                        if u is None:
                            u = worth[o] = self._outcome_utility(o, view, edge)
                        per[a].append(u)
            else:
                samples = self._samples(view, k, rng)
                batch = []
                for st, w in samples:
                    if (nb or len(batch) >= CUT_MIN_DEALS) and self._past_deadline():
                        cut = True  # anytime: see ``deadline``
                        break
                    batch.append(w)
                    ws.append(w)
                    for a in legal:
                        h = st.core.copy()
                        h.step(a.code)
                        self.rollouts += 1
                        done = finish_hand(
                            h, st, self.model, level.rollout, count, seat, level.own_samples, rng
                        )
                        if done is None:
                            per[a].append(0.0)
                            continue
                        u = utility(done[0], seat, rules, scores)
                        if edge and h.on_maker_side(seat):
                            u += edge
                        per[a].append(u)
            nb += 1
            # each batch stands for the posterior: the batches weigh alike (a
            # batch cut short, its deals each as much as in a whole batch)
            total = sum(ws) if cut else nb
            weights = [w / total for w in ws]
            value = {a: sum(w * u for w, u in zip(weights, per[a], strict=True)) for a in legal}
            # An action other than the rule bot's choice must beat it by the
            # margin plus ``se_factor`` standard errors of the paired difference.
            n_eff = 1.0 / max(1e-12, sum(w * w for w in weights))
            base = per[prior]
            open_ = False
            for a in legal:
                if a == prior:
                    continue
                diffs = [x - y for x, y in zip(per[a], base, strict=True)]
                mean = sum(w * d for w, d in zip(weights, diffs, strict=True))
                var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True))
                se = ses[a] = (var / n_eff) ** 0.5
                if abs(mean - level.margin) < level.settle_z * se:
                    open_ = True  # still could go either way
            if cut:
                self.cut_short += 1
                break
            used = len(ws) * len(legal)
            if not open_ or used + len(batch) * len(legal) > level.max_rollouts:
                break
            if self._past_deadline():
                self.cut_short += 1
                break
        self.estimates = [CallEstimate(a, value[a], ses[a], a == prior) for a in legal]
        ranked = rank_calls(self.estimates, level.margin, level.se_factor)
        return [(e.action, e.value) for e in ranked]

    def _past_deadline(self) -> bool:
        """Whether this decision's time (``deadline``) is up."""
        return self.deadline is not None and time.time() >= self.deadline

    @staticmethod
    def _outcome_utility(outcome: int, view: View, edge: float) -> float:
        """The utility of a compiled rollout's outcome (``_csearch.Search.decide``:
        -1 thrown in, else the points three bits a seat, bit 12 when the
        deciding seat ended on the maker's side), as the Python path scores
        ``finish_hand``'s result."""
        if outcome < 0:
            return 0.0
        points = tuple(outcome >> (3 * s) & 7 for s in range(view.rules.seats))
        u = utility(points, view.seat, view.rules, view.scores)
        if edge and outcome >> 12 & 1:
            u += edge
        return u
