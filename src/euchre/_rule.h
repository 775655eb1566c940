/* The rule bot of bots/rule.py, compiled (part of euchre._csearch).
 *
 * A port of ``RuleBot.choose`` (the readable reference) with its default
 * tuning, read off a ``Hand`` as the acting seat's ``View`` shows it: its own
 * cards, the up-card, trump, maker, the pick-up, the merge, who is alone or
 * sitting out, the tricks, its own discards and (a merged maker, or the maker
 * keeping five) the dummy -- nothing else. The choices are the same as
 * Python's to the bit: the counts add their floats in the same order, ties
 * go to the same action (``max`` / ``min`` take the first best), and every
 * product is rounded on its own (``cr_mul``: no fused multiply-add).
 * tests/test_csearch_rule.py holds it to the Python code.
 *
 * Included by _csearch.c after _core.h; every name here starts with ``cr_``
 * / ``CR_``.
 */
#ifndef EUCHRE_RULE_H
#define EUCHRE_RULE_H
#include "_core.h"

/* RuleBot.epsilon */
#define CR_EPSILON 0.1

/* RuleBot's tuning (the class defaults) */
#define CR_PART_MAKE 5.6
#define CR_PART_JOKER_EXTRA 1.0
#define CR_PART_ALONE 8.0
#define CR_CUT_MAKE 5.2
#define CR_UP_SHARE 0.8
#define CR_CUT_FLOOR 3.0
#define CR_DUMMY_SCALE 0.7
#define CR_NEXT_BONUS 0.5
#define CR_LOW_TRUMP_MIN 2
/* ruff_risk = 1.0, overtake, low_trump_lead and partner_trump_lead on: built in */

#define CR_ALL ((1ULL << 33) - 1)

static const double CR_TRUMP_PLACE[10] = {3.2, 2.6, 2.0, 1.6, 1.4, 1.2, 1.1, 1.0, 1.0, 1.0};
static const double CR_TRUMP_PLACE_JOKER[11] = {3.6, 3.2, 2.6, 2.0, 1.6, 1.4,
                                                1.2, 1.1, 1.0, 1.0, 1.0};
static const double CR_OFF_PLACE[3] = {1.0, 0.35, 0.0};
#define CR_VOID_VALUE 0.4
#define CR_GUARD_VALUE 0.15
static const int CR_OFF_PLACE_MILLI[3] = {1000, 350, 0};
#define CR_GUARD_MILLI 150
#define CR_VOID_MILLI 400

/* a product rounded on its own (never fused into an addition, as Python
 * computes it) */
static inline double cr_mul(double a, double b) {
    volatile double p = a * b;
    return p;
}

/* rule._place_value */
static inline double cr_place_value(int place, int deck) {
    if (deck == 25)
        return CR_TRUMP_PLACE_JOKER[place < 10 ? place : 10];
    return CR_TRUMP_PLACE[place < 9 ? place : 9];
}

/* rule._value */
static double cr_value(uint64_t hand, int t, uint64_t dead, int deck) {
    dead |= CR_ALL & ~CH_DECK[deck];
    const uint64_t *smask = CH_SMASK[t];
    uint64_t trumps = hand & smask[t];
    double total = 0.0;
    int ntrump = ch_popcount(trumps);
    uint64_t live = ~dead;
    for (uint64_t m = trumps; m; m &= m - 1) {
        int c = ch_lsb(m);
        uint64_t above = CH_ABOVE[t][t][c];
        int place = ch_popcount(above & live & ~hand);
        place += ch_popcount(above & hand);
        total += cr_place_value(place, deck);
    }
    int voids = 0;
    for (int s = 0; s < 4; s++) {
        if (s == t)
            continue;
        uint64_t cards = hand & smask[s];
        if (!cards) {
            voids++;
            continue;
        }
        for (uint64_t m = cards; m; m &= m - 1) {
            int c = ch_lsb(m);
            int place = ch_popcount(CH_ABOVE[t][s][c] & smask[s] & live & ~hand);
            if (place < 3) {
                double v = CR_OFF_PLACE[place];
                if (place == 1 && (cards & ~(1ULL << c)))
                    v += CR_GUARD_VALUE;
                total += v;
            }
        }
    }
    if (ntrump >= 2)
        total += cr_mul(CR_VOID_VALUE, (double)voids);
    return total;
}

/* the card of ``m`` with the highest POWER[t][led] (the first of equals) */
static inline int cr_top(uint64_t m, int t, int led) {
    int best = -1, bp = -1;
    for (; m; m &= m - 1) {
        int c = ch_lsb(m);
        if (CH_POWER[t][led][c] > bp) {
            bp = CH_POWER[t][led][c];
            best = c;
        }
    }
    return best;
}

/* the card of ``m`` with the lowest POWER[t][led] (the first of equals) */
static inline int cr_bottom(uint64_t m, int t, int led) {
    int best = -1, bp = 1 << 30;
    for (; m; m &= m - 1) {
        int c = ch_lsb(m);
        if (CH_POWER[t][led][c] < bp) {
            bp = CH_POWER[t][led][c];
            best = c;
        }
    }
    return best;
}

/* Whether the card-id list of ``a`` comes before that of ``b`` (sets of
 * the same size; Python's sort of ``ids_of`` lists). */
static inline int cr_ids_before(uint64_t a, uint64_t b) {
    uint64_t d = a ^ b;
    if (!d)
        return 0;
    return (int)(a >> ch_lsb(d) & 1);
}

/* one suit's part of _best_keep */
typedef struct {
    int n;            /* cards */
    int ids[9];
    int value[9];     /* thousandths, with the rank */
    int guarded[9];
    int maxr;         /* the most cards kept of it */
    int most[10];     /* the best count by the number kept */
} CrSuit;

/* the count of the subset ``bits`` (of the suit's cards) of size r */
static inline int cr_suit_got(const CrSuit *su, unsigned bits, int r) {
    int got = 0;
    for (int i = 0; i < su->n; i++)
        if (bits >> i & 1) {
            got += su->value[i];
            if (r >= 2 && su->guarded[i])
                got += CR_GUARD_MILLI;
        }
    return got;
}

static inline uint64_t cr_suit_mask(const CrSuit *su, unsigned bits) {
    uint64_t m = 0;
    for (int i = 0; i < su->n; i++)
        if (bits >> i & 1)
            m |= 1ULL << su->ids[i];
    return m;
}

/* rule._best_keep: the count (-1.0 if no choice) and the mask via ``mask`` */
static double cr_best_keep(uint64_t pool, int t, int n, uint64_t dead, int deck, uint64_t *mask) {
    const uint64_t *smask = CH_SMASK[t];
    uint64_t trumps = pool & smask[t];
    int ntr = ch_popcount(trumps);
    if (ntr >= n) {
        uint64_t m = 0;
        for (int i = 0; i < n; i++)
            m |= 1ULL << cr_top(trumps & ~m, t, t);
        *mask = m;
        return cr_value(m, t, dead | (pool & ~m), deck);
    }
    int k = n - ntr;
    uint64_t live = ~(dead | pool | (CR_ALL & ~CH_DECK[deck]));
    int voidv = ntr >= 2 ? CR_VOID_MILLI : 0;
    CrSuit su[3];
    int ns = 0;
    for (int s = 0; s < 4; s++) {
        if (s == t)
            continue;
        uint64_t cards = pool & smask[s];
        if (!cards)
            continue;
        CrSuit *x = &su[ns++];
        x->n = 0;
        for (uint64_t m = cards; m && x->n < 9; m &= m - 1) {
            int c = ch_lsb(m);
            int place = ch_popcount(CH_ABOVE[t][s][c] & smask[s] & live);
            x->ids[x->n] = c;
            x->value[x->n] = (place < 3 ? CR_OFF_PLACE_MILLI[place] : 0) + (c & 7);
            x->guarded[x->n] = place == 1;
            x->n++;
        }
        x->maxr = k < x->n ? k : x->n;
        x->most[0] = voidv;
        for (int r = 1; r <= x->maxr; r++)
            x->most[r] = -1;
        for (unsigned bits = 1; bits < 1u << x->n; bits++) {
            int r = ch_popcount(bits);
            if (r > x->maxr)
                continue;
            int got = cr_suit_got(x, bits, r);
            if (got > x->most[r])
                x->most[r] = got;
        }
    }
    /* the best total over the sizes summing to k */
    int top = -1;
    int r0max = ns > 0 ? su[0].maxr : 0, r1max = ns > 1 ? su[1].maxr : 0,
        r2max = ns > 2 ? su[2].maxr : 0;
    for (int r0 = 0; r0 <= r0max; r0++)
        for (int r1 = 0; r1 <= r1max; r1++)
            for (int r2 = 0; r2 <= r2max; r2++) {
                if (r0 + r1 + r2 != k)
                    continue;
                int score = (ns > 0 ? su[0].most[r0] : 0) + (ns > 1 ? su[1].most[r1] : 0) +
                            (ns > 2 ? su[2].most[r2] : 0);
                if (score > top)
                    top = score;
            }
    double bestv = -1.0;
    uint64_t bestm = 0;
    int have = 0;
    if (top < 0) {
        *mask = 0;
        return bestv;
    }
    /* every choice with that total: the best _value plus the ranks' tie-break,
     * the first in the order of the card-id lists */
    for (int r0 = 0; r0 <= r0max; r0++)
        for (int r1 = 0; r1 <= r1max; r1++)
            for (int r2 = 0; r2 <= r2max; r2++) {
                if (r0 + r1 + r2 != k)
                    continue;
                int rs[3] = {r0, r1, r2};
                int score = 0;
                for (int i = 0; i < ns; i++)
                    score += su[i].most[rs[i]];
                if (score != top)
                    continue;
                /* the subsets of each suit with its best count for its size */
                uint64_t opts[3][256];
                int nopt[3] = {1, 1, 1};
                opts[0][0] = opts[1][0] = opts[2][0] = 0;
                for (int i = 0; i < ns; i++) {
                    if (rs[i] == 0)
                        continue;
                    nopt[i] = 0;
                    for (unsigned bits = 1; bits < 1u << su[i].n; bits++) {
                        if (ch_popcount(bits) != rs[i])
                            continue;
                        if (cr_suit_got(&su[i], bits, rs[i]) == su[i].most[rs[i]])
                            opts[i][nopt[i]++] = cr_suit_mask(&su[i], bits);
                    }
                }
                for (int a = 0; a < nopt[0]; a++)
                    for (int b = 0; b < nopt[1]; b++)
                        for (int c = 0; c < nopt[2]; c++) {
                            uint64_t off = opts[0][a] | opts[1][b] | opts[2][c];
                            uint64_t m = trumps | off;
                            double tie = 0.0;
                            for (uint64_t x = off; x; x &= x - 1)
                                tie += cr_mul(0.001, (double)(ch_lsb(x) & 7));
                            double v = cr_value(m, t, dead | (pool & ~m), deck) + tie;
                            if (!have || v > bestv ||
                                (v == bestv && cr_ids_before(off, bestm & ~trumps))) {
                                have = 1;
                                bestv = v;
                                bestm = m;
                            }
                        }
            }
    *mask = bestm;
    return bestv;
}

/* RuleBot.keep_mask */
static uint64_t cr_keep_mask(uint64_t pool, int trump, int picked_up, int up, int deck) {
    uint64_t m;
    cr_best_keep(pool, trump, 5, picked_up ? 0 : 1ULL << up, deck, &m);
    return m;
}

/* search.greedy_keep */
static uint64_t cr_greedy_keep(uint64_t pool, int trump) {
    uint64_t tm = CH_SMASK[trump][trump];
    uint64_t keep = 0, tr = pool & tm;
    int nk = 0;
    while (nk < 5 && tr) {
        int c = cr_top(tr, trump, trump);
        keep |= 1ULL << c;
        tr &= ~(1ULL << c);
        nk++;
    }
    if (nk < 5) {
        uint64_t off = pool & ~tm;
        for (int r = 7; r >= 6; r--)
            for (uint64_t m = off; m; m &= m - 1) {
                int c = ch_lsb(m);
                if (nk < 5 && (c & 7) == r && !(keep >> c & 1)) {
                    keep |= 1ULL << c;
                    nk++;
                }
            }
        uint64_t rest = off & ~keep;
        while (nk < 5 && rest) {
            int suits = 0;
            for (uint64_t m = keep; m; m &= m - 1)
                suits |= 1 << CH_EFF[trump][ch_lsb(m)];
            int best = -1, bk = -1;
            for (uint64_t m = rest; m; m &= m - 1) {
                int c = ch_lsb(m);
                int key = (suits >> CH_EFF[trump][c] & 1) * 8 + (c & 7);
                if (key > bk) {
                    bk = key;
                    best = c;
                }
            }
            keep |= 1ULL << best;
            rest &= ~(1ULL << best);
            nk++;
        }
    }
    return keep;
}

/* --- what the seat's view holds ------------------------------------------------ */

/* RuleBot._dead_known: the cards ``seat`` knows are out of play */
static uint64_t cr_dead_known(const Hand *h, int seat) {
    uint64_t hand = h->hands[seat], discards = 0, dummy = 0;
    if (seat == h->dealer && h->dealer_discard >= 0)
        discards |= 1ULL << h->dealer_discard;
    if (h->merged && seat == h->maker) {
        discards |= h->maker_discards;
        dummy = h->dummy;
    }
    uint64_t dead = discards | (dummy & ~hand);
    if (h->picked != 1)
        dead |= 1ULL << h->up;
    return dead;
}

/* RuleBot._dummy_help */
static double cr_dummy_help(uint64_t hand, int t, int deck, uint64_t dead) {
    uint64_t dm = CH_DECK[deck];
    uint64_t trumps = CH_SMASK[t][t] & dm;
    uint64_t unseen = dm & ~hand & ~dead;
    int nu = ch_popcount(unseen);
    double share = 5.0 / (double)(nu > 1 ? nu : 1);
    double gain = 0.0;
    for (uint64_t m = unseen & trumps; m; m &= m - 1) {
        int c = ch_lsb(m);
        int place = ch_popcount(CH_ABOVE[t][t][c] & dm);
        gain += cr_place_value(place, deck) - 0.3;
    }
    int aces = 0;
    for (int s = 0; s < 4; s++) {
        if (s == t)
            continue;
        uint64_t top = CH_SMASK[t][s] & dm;
        if (top && (unseen >> (ch_bitlen(top) - 1) & 1)) /* one suit: the highest id ranks top */
            aces++;
    }
    gain += cr_mul(0.5, (double)aces);
    int weak = 5 - ch_popcount(hand & trumps);
    double a = cr_mul(share, gain), b = cr_mul(1.6, (double)weak);
    return cr_mul(CR_DUMMY_SCALE, b < a ? b : a);
}

static inline int cr_partner_dealer(const Hand *h, int seat) {
    return !h->cut && ((h->dealer - seat) % 4 + 4) % 4 == 2;
}

/* RuleBot._bid_value */
static double cr_bid_value(const Hand *h, int seat, int t, int round_two) {
    uint64_t hand = h->hands[seat];
    int up = h->up, deck = h->r.deck;
    uint64_t dead = 0;
    double value;
    if (round_two) {
        dead = 1ULL << up;
        value = cr_value(hand, t, dead, deck);
    } else if (seat == h->dealer) {
        uint64_t m;
        value = cr_best_keep(hand | 1ULL << up, t, 5, 0, deck, &m);
    } else {
        value = cr_value(hand, t, 0, deck);
        double upv = cr_place_value(ch_popcount(CH_ABOVE[t][t][up] & CH_DECK[deck]), deck);
        if (cr_partner_dealer(h, seat))
            value += cr_mul(CR_UP_SHARE, upv);
        else
            value -= cr_mul(CR_UP_SHARE, upv);
    }
    if (h->cut) {
        if (value < CR_CUT_FLOOR)
            return value;
        value += cr_dummy_help(hand, t, deck, dead | 1ULL << up);
    }
    return value;
}

/* RuleBot._threshold (with the seat's shift of RuleBot.seat_shifts) */
static inline double cr_threshold(const Hand *h, int seat) {
    double shift = h->r.make_shift[seat];
    if (h->cut)
        return CR_CUT_MAKE + shift;
    if (h->r.deck == 25)
        return CR_PART_MAKE + CR_PART_JOKER_EXTRA + shift;
    return CR_PART_MAKE + shift;
}

/* RuleBot._sure_march */
static int cr_sure_march(const Hand *h, int seat, uint64_t hand, int t) {
    uint64_t deck = CH_DECK[h->r.deck];
    uint64_t dead = cr_dead_known(h, seat);
    uint64_t live_trumps = CH_SMASK[t][t] & deck & ~dead;
    uint64_t mine = hand & CH_SMASK[t][t];
    int k = ch_popcount(mine);
    if (k == 0)
        return 0;
    /* the k highest live trumps */
    uint64_t topk = 0;
    for (int i = 0; i < k && (live_trumps & ~topk); i++)
        topk |= 1ULL << cr_top(live_trumps & ~topk, t, t);
    if (topk != mine)
        return 0;
    if (ch_popcount(live_trumps) - k > k)
        return 0;
    for (uint64_t m = hand & ~mine; m; m &= m - 1) {
        int c = ch_lsb(m);
        int s = CH_EFF[t][c];
        if (CH_ABOVE[t][s][c] & CH_SMASK[t][s] & deck & ~dead & ~hand)
            return 0;
    }
    return 1;
}

/* --- bidding -------------------------------------------------------------------- */

static uint64_t cr_bid1(const Hand *h, int seat) {
    if (h->upsuit == 4)
        return K_PASS;
    double value = cr_bid_value(h, seat, h->upsuit, 0);
    return value >= cr_threshold(h, seat) ? K_ORDER : K_PASS;
}

static uint64_t cr_bid2(const Hand *h, int seat, const uint64_t *legal, int nl) {
    int n = h->n, up_suit = h->upsuit;
    int pos = ((seat - h->dealer) % n + n) % n;
    double bestv = 0.0;
    uint64_t best = 0;
    int have = 0, may_pass = 0;
    for (int i = 0; i < nl; i++) {
        if (legal[i] == K_PASS)
            may_pass = 1;
        if ((legal[i] & 15) != K_CALL)
            continue;
        int s = (int)(legal[i] >> 4);
        double v = cr_bid_value(h, seat, s, 1);
        if (up_suit != 4 && s != up_suit) {
            if (s == (up_suit ^ 3) && pos == 1)
                v += CR_NEXT_BONUS;
            else if (s != (up_suit ^ 3) && !h->cut && pos == 2)
                v += CR_NEXT_BONUS / 2;
        }
        if (!have || v > bestv) {
            have = 1;
            bestv = v;
            best = legal[i];
        }
    }
    if (!may_pass || bestv >= cr_threshold(h, seat))
        return best;
    return K_PASS;
}

static uint64_t cr_pickup(const Hand *h, int seat, const uint64_t *legal, int nl) {
    int t = h->trump;
    uint64_t best = 0;
    int have = 0;
    double bestv = 0.0;
    if (t == 4)
        return legal[0];
    uint64_t hand = h->hands[seat] | 1ULL << h->up;
    for (int i = 0; i < nl; i++) {
        if ((legal[i] & 15) != K_PICKUP)
            continue;
        int c = (int)(legal[i] >> 4);
        double v = cr_value(hand & ~(1ULL << c), t, 1ULL << c, h->r.deck);
        if (!have || v > bestv) {
            have = 1;
            bestv = v;
            best = legal[i];
        }
    }
    return have ? best : legal[0];
}

static uint64_t cr_maker(const Hand *h, int seat, const uint64_t *legal, int nl) {
    int t = h->trump, deck = h->r.deck;
    if (h->phase == P_MAKER) /* alone or merge, before seeing the dummy */
        return cr_sure_march(h, seat, h->hands[seat], t) ? K_ALONE : K_MERGE;
    uint64_t pool = h->hands[seat] | h->dummy;
    uint64_t m = cr_keep_mask(pool, t, h->picked == 1, h->up, deck);
    int have = 0;
    uint64_t best = 0;
    double bestv = 0.0;
    for (int i = 0; i < nl; i++) {
        if ((legal[i] & 15) != K_KEEP || legal[i] == K_MERGE)
            continue;
        if (legal[i] >> 4 == m)
            return legal[i];
    }
    for (int i = 0; i < nl; i++) { /* not reached: the best keep is a legal one */
        if ((legal[i] & 15) != K_KEEP || legal[i] == K_MERGE)
            continue;
        uint64_t k = legal[i] >> 4;
        double v = cr_value(k, t, pool & ~k, deck);
        if (!have || v > bestv) {
            have = 1;
            bestv = v;
            best = legal[i];
        }
    }
    return have ? best : K_ALONE;
}

static uint64_t cr_alone(const Hand *h, int seat) {
    int t = h->trump, maker = h->maker;
    uint64_t hand = h->hands[seat];
    if (cr_sure_march(h, seat, hand, t))
        return K_ALONE;
    int cut = h->cut;
    int maker_side = seat == maker || (!cut && ((seat - maker) % 2 + 2) % 2 == 0);
    if (maker_side && !cut) {
        int trumps = ch_popcount(hand & CH_SMASK[t][t]);
        double value = cr_value(hand, t, cr_dead_known(h, seat), h->r.deck);
        if (trumps >= 3 && value >= CR_PART_ALONE)
            return K_ALONE;
    }
    return K_PASS;
}

static uint64_t cr_joker_call(const Hand *h, int seat, const uint64_t *legal, int nl) {
    uint64_t hand = h->hands[seat] | 1ULL << CH_JOKER;
    int have = 0;
    uint64_t best = legal[0];
    double bestv = 0.0;
    for (int i = 0; i < nl; i++) {
        if ((legal[i] & 15) != K_CALL)
            continue;
        uint64_t m;
        double v = cr_best_keep(hand, (int)(legal[i] >> 4), 5, 0, h->r.deck, &m);
        if (!have || v > bestv) {
            have = 1;
            bestv = v;
            best = legal[i];
        }
    }
    return best;
}

/* --- play ------------------------------------------------------------------------ */

/* what the card play reads off the seat's view (rule._PlayInfo and the
 * locals of RuleBot._play_info) */
typedef struct {
    const Hand *h;
    int t, me, n;
    uint64_t hand, playable, unseen;
    int voids[4];     /* per seat: a mask of the suits it has shown it lacks */
    int held[4];
    int inposs[4];    /* the seats of ``poss``: active, not me */
    uint64_t poss[4]; /* 0 for the others (poss.get(s, 0)) */
    int team;         /* a mask of seats */
    int first_trick;
    int tseat[4], tcard[4], nt; /* the trick under way */
    int opps_after[4], nopps_after;
} CrPlay;

/* can_beat: whether one of the seats may hold a card beating ``c`` */
static int cr_can_beat(const CrPlay *p, int c, int led, const int *seats, int ns) {
    int t = p->t;
    uint64_t above = CH_ABOVE[t][led][c];
    for (int i = 0; i < ns; i++) {
        int s = seats[i];
        uint64_t q = p->poss[s] & above;
        if (!q)
            continue;
        if (led == t || (q & CH_SMASK[t][led]))
            return 1;
        if (p->voids[s] >> led & 1)
            return 1;
        /* void_chance(s, led) >= ruff_risk (1.0): comb(other, k) / comb(total, k)
         * is 1 exactly when k == 0 or no possible card is of the suit, and
         * at most 1 - 1/comb(total, k) otherwise (well below 1.0 in floats) */
        uint64_t pool = p->poss[s];
        int k = p->held[s];
        int total = ch_popcount(pool);
        int other = total - ch_popcount(pool & CH_SMASK[t][led]);
        if (k <= other && (k == 0 || other == total))
            return 1;
    }
    return 0;
}

/* keep_rank as one integer (smaller: thrown first) */
static inline int cr_keep_rank(const CrPlay *p, int c) {
    int t = p->t;
    int s = CH_EFF[t][c];
    if (s == t)
        return 2 << 16 | CH_POWER[t][t][c] << 8;
    int boss = !(CH_ABOVE[t][s][c] & CH_SMASK[t][s] & p->unseen);
    int length = ch_popcount(p->hand & CH_SMASK[t][s]);
    return boss << 16 | (c & 7) << 8 | length;
}

static int cr_throw(const CrPlay *p, uint64_t cards) {
    int best = -1, bk = 1 << 30;
    for (; cards; cards &= cards - 1) {
        int c = ch_lsb(cards);
        int k = cr_keep_rank(p, c);
        if (k < bk) {
            bk = k;
            best = c;
        }
    }
    return best;
}

static inline int cr_is_boss(const CrPlay *p, int c) {
    int t = p->t, s = CH_EFF[t][c];
    return !(CH_ABOVE[t][s][c] & CH_SMASK[t][s] & p->unseen);
}

static int cr_opp_can_ruff(const CrPlay *p, int s) {
    int t = p->t;
    for (int o = 0; o < p->n; o++) {
        if (!p->inposs[o] || (p->team >> o & 1))
            continue;
        if (!(p->poss[o] & CH_SMASK[t][s]) && (p->poss[o] & CH_SMASK[t][t]))
            return 1;
    }
    return 0;
}

/* RuleBot._lead */
static int cr_lead(const CrPlay *p) {
    const Hand *h = p->h;
    int t = p->t;
    uint64_t trumps = p->playable & CH_SMASK[t][t];
    uint64_t off = p->playable & ~trumps;
    int maker = h->maker;
    int maker_side = maker >= 0 && (p->team >> maker & 1);
    uint64_t opp_trumps = 0;
    int have_mates = 0;
    for (int s = 0; s < p->n; s++) {
        if (!p->inposs[s])
            continue;
        if (p->team >> s & 1)
            have_mates = 1;
        else
            opp_trumps |= p->poss[s] & CH_SMASK[t][t];
    }
    int ntr = ch_popcount(trumps);
    int top = ntr ? cr_top(trumps, t, t) : -1;
    int low = ntr ? cr_bottom(trumps, t, t) : -1;
    if (maker_side && ntr && opp_trumps) {
        if (cr_is_boss(p, top))
            return top;
        if (ntr >= CR_LOW_TRUMP_MIN ||
            (p->first_trick && maker != p->me && !h->cut))
            return ntr >= CR_LOW_TRUMP_MIN ? low : top;
    }
    /* sure winners off-suit, of the suit with the most unseen cards */
    int best = -1, bk = -1;
    for (uint64_t m = off; m; m &= m - 1) {
        int c = ch_lsb(m);
        int s = CH_EFF[t][c];
        if (!cr_is_boss(p, c) || cr_opp_can_ruff(p, s))
            continue;
        int k = ch_popcount(p->unseen & CH_SMASK[t][s]);
        if (k > bk) {
            bk = k;
            best = c;
        }
    }
    if (best >= 0)
        return best;
    if (maker_side && ntr && !opp_trumps)
        return top;
    if (!maker_side && off && have_mates) {
        /* to a teammate void in a suit (by rank, then id) */
        for (int r = 0; r < 8; r++)
            for (uint64_t m = off; m; m &= m - 1) {
                int c = ch_lsb(m);
                if ((c & 7) != r)
                    continue;
                int s = CH_EFF[t][c];
                int mate_void = 0;
                for (int x = 0; x < p->n; x++)
                    if (p->inposs[x] && (p->team >> x & 1) && !(p->poss[x] & CH_SMASK[t][s]) &&
                        (p->poss[x] & CH_SMASK[t][t]))
                        mate_void = 1;
                if (mate_void && !cr_opp_can_ruff(p, s))
                    return c;
            }
    }
    if (off) {
        int bestc = -1, key = 1 << 30;
        for (uint64_t m = off; m; m &= m - 1) {
            int c = ch_lsb(m);
            int s = CH_EFF[t][c];
            int ruff = cr_opp_can_ruff(p, s);
            int length = trumps ? ch_popcount(p->hand & CH_SMASK[t][s]) : 0;
            int k = ruff << 16 | length << 8 | (c & 7);
            if (k < key) {
                key = k;
                bestc = c;
            }
        }
        return bestc;
    }
    if (ntr && cr_is_boss(p, top))
        return top;
    return low;
}

/* threats: the live cards above ``c`` the opponents after me may hold */
static int cr_threats(const CrPlay *p, int c, int led) {
    uint64_t above = CH_ABOVE[p->t][led][c], m = 0;
    for (int i = 0; i < p->nopps_after; i++)
        m |= p->poss[p->opps_after[i]] & above;
    return ch_popcount(m);
}

/* RuleBot.play_code: the card to play (an id) */
static int cr_play_card(const Hand *h, int me) {
    CrPlay P;
    CrPlay *p = &P;
    memset(p, 0, sizeof P);
    int t = h->trump, n = h->n;
    const uint8_t *eff = CH_EFF[t];
    const uint64_t *smask = CH_SMASK[t];
    p->h = h;
    p->t = t;
    p->me = me;
    p->n = n;
    p->hand = h->hands[me];
    p->playable = ch_follow_mask(h, me);
    uint64_t dead = cr_dead_known(h, me);
    int out = h->out;
    int after[4];
    for (int s = 0; s < n; s++) {
        int x = (s + 1) % n;
        while (out >> x & 1)
            x = (x + 1) % n;
        after[s] = x;
    }
    uint64_t played = 0;
    int counts[4] = {0, 0, 0, 0};
    for (int i = 0; i < h->nlog; i++) {
        const Trick *tr = &h->log[i];
        int s = tr->leader;
        int led = eff[tr->cards[0]];
        for (int j = 0; j < tr->ncards; j++) {
            int c = tr->cards[j];
            played |= 1ULL << c;
            counts[s]++;
            if (eff[c] != led)
                p->voids[s] |= 1 << led;
            s = after[s];
        }
    }
    if (h->ntrick) {
        int s = h->leader;
        int led = eff[h->trick[0]];
        for (int j = 0; j < h->ntrick; j++) {
            int c = h->trick[j];
            played |= 1ULL << c;
            counts[s]++;
            p->tseat[p->nt] = s;
            p->tcard[p->nt] = c;
            p->nt++;
            if (eff[c] != led)
                p->voids[s] |= 1 << led;
            s = after[s];
        }
    }
    p->first_trick = h->nlog == 0;
    for (int s = 0; s < n; s++)
        p->held[s] = 5 - counts[s];
    uint64_t unseen = CH_DECK[h->r.deck] & ~p->hand & ~played & ~dead;
    p->unseen = unseen;
    int nactive = 0;
    for (int s = 0; s < n; s++)
        if (!(out >> s & 1))
            nactive++;
    if (h->cut)
        p->team = (h->maker < 0 || me == h->maker) ? 1 << me : 7 & ~(1 << h->maker);
    else
        p->team = 1 << me | 1 << ((me + 2) % 4);
    for (int s = 0; s < n; s++) {
        if ((out >> s & 1) || s == me)
            continue;
        uint64_t vm = 0;
        for (int v = 0; v < 4; v++)
            if (p->voids[s] >> v & 1)
                vm |= smask[v];
        p->inposs[s] = 1;
        p->poss[s] = unseen & ~vm;
    }
    int up = h->up;
    if (h->picked == 1 && h->dealer != me && (unseen >> up & 1))
        for (int s = 0; s < n; s++)
            if (p->inposs[s] && s != h->dealer)
                p->poss[s] &= ~(1ULL << up);
    {
        int s = me;
        for (int i = 0; i < nactive - p->nt - 1; i++) {
            s = (s + 1) % n;
            while (out >> s & 1)
                s = (s + 1) % n;
            if (!(p->team >> s & 1))
                p->opps_after[p->nopps_after++] = s;
        }
    }
    if (!p->nt)
        return cr_lead(p);

    int led = eff[p->tcard[0]];
    const uint8_t *power = CH_POWER[t][led];
    int bi = 0;
    for (int i = 1; i < p->nt; i++)
        if (power[p->tcard[i]] > power[p->tcard[bi]])
            bi = i;
    int best_seat = p->tseat[bi], best_card = p->tcard[bi];
    int best = power[best_card];
    uint64_t winners = 0;
    for (uint64_t m = p->playable; m; m &= m - 1) {
        int c = ch_lsb(m);
        if (power[c] > best)
            winners |= 1ULL << c;
    }
    const int *oa = p->opps_after;
    int no = p->nopps_after;
    uint64_t safe = 0;
    for (uint64_t m = winners; m; m &= m - 1) {
        int c = ch_lsb(m);
        if (!cr_can_beat(p, c, led, oa, no))
            safe |= 1ULL << c;
    }
    if (p->team >> best_seat & 1) {
        if (!no || !cr_can_beat(p, best_card, led, oa, no))
            return cr_throw(p, p->playable);
        if (safe)
            return cr_bottom(safe, t, led);
        if (winners) { /* overtake */
            int bar = cr_threats(p, best_card, led);
            uint64_t w = winners;
            while (w) {
                int c = cr_bottom(w, t, led);
                if (cr_threats(p, c, led) < bar)
                    return c;
                w &= ~(1ULL << c);
            }
        }
        return cr_throw(p, p->playable);
    }
    if (!winners)
        return cr_throw(p, p->playable);
    if (!no)
        return cr_bottom(winners, t, led);
    if (safe)
        return cr_bottom(safe, t, led);
    return cr_bottom(winners, t, led);
}

/* --- the choice -------------------------------------------------------------------- */

/* RuleBot().choose(View.of(state, seat), legal).code for the seat to act */
static uint64_t cr_choose(const Hand *h, int seat) {
    int p = h->phase;
    if (p == P_OVER)
        return 0;
    if (p == P_PLAY) {
        uint64_t m = ch_follow_mask(h, seat);
        if (!(m & (m - 1)))
            return K_PLAY | (uint64_t)ch_lsb(m) << 4;
        return K_PLAY | (uint64_t)cr_play_card(h, seat) << 4;
    }
    if (p == P_KEEP) {
        uint64_t legal[256];
        int nl = ch_legal(h, legal);
        if (nl == 1)
            return legal[0];
        if (nl == 0)
            return K_ALONE;
        return cr_maker(h, seat, legal, nl);
    }
    uint64_t legal[64];
    int nl = ch_legal(h, legal);
    if (nl == 1)
        return legal[0];
    switch (p) {
    case P_BID1:
        return cr_bid1(h, seat);
    case P_BID2:
        return cr_bid2(h, seat, legal, nl);
    case P_PICKUP:
        return cr_pickup(h, seat, legal, nl);
    case P_MAKER:
        return cr_maker(h, seat, legal, nl);
    case P_ALONE:
        return cr_alone(h, seat);
    case P_JOKER:
        return cr_joker_call(h, seat, legal, nl);
    default:
        return legal[0];
    }
}

#endif
