/* The hand's state machine in C, for the compiled search (euchre._csearch).
 *
 * A port of ``FastHand`` in hand.py (the readable reference): the same
 * phases, the same transitions, the same points. ``Hand`` is a plain struct
 * (copied by assignment), so a search copies a position for nothing. Codes
 * are ``Action.code`` integers (kind in the low 4 bits, the card id, suit or
 * keep mask above), in a 64-bit integer since a keep's mask reaches bit 32.
 *
 * Included by _csearch.c (one translation unit); every name here starts
 * with ``ch_`` / ``CH_`` or is a type of this file.
 */
#ifndef EUCHRE_CORE_H
#define EUCHRE_CORE_H

#include <stdint.h>
#include <string.h>

/* action kinds (actions.py) */
enum { K_PASS = 0, K_ORDER = 1, K_CALL = 2, K_PICKUP = 3, K_DECLINE = 4, K_ALONE = 5,
       K_KEEP = 6, K_PLAY = 7, K_MERGE = 8 };

/* phases (hand.Phase) */
enum { P_JOKER = 0, P_BID1 = 1, P_PICKUP = 2, P_BID2 = 3, P_MAKER = 4, P_KEEP = 5,
       P_ALONE = 6, P_PLAY = 7, P_OVER = 8 };

/* rule flags, as euchre.playout.rule_flags packs them (the same bits as
 * _playout.c) */
enum {
    R_STICK = 1,            /* stick_the_dealer */
    R_OPTIONAL_PICKUP = 2,  /* dealer_pickup == "optional" */
    R_NAME_TURNED = 4,      /* may_name_turned_down_suit */
    R_DISCARD_UP = 8,       /* dealer_may_discard_upcard */
    R_JOKER_REDEAL = 16,    /* joker_upcard == "redeal" */
    R_DEFENDERS_ALONE = 32, /* defenders_may_go_alone */
    R_LEFT_OF_LONE = 64,    /* lone_lead == "left_of_lone" */
    R_DUMMY_DECLINE = 128,  /* dummy_decline_is_alone */
};

#define CH_JOKER 32
#define CH_MAX_CALLS 24

static inline int ch_popcount(uint64_t m) { return __builtin_popcountll(m); }
static inline int ch_lsb(uint64_t m) { return __builtin_ctzll(m); }
static inline int ch_bitlen(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }

/* --- the trump tables of cards.py ------------------------------------------- */

static uint8_t CH_EFF[5][33];      /* EFFECTIVE_SUIT[t][c] (4: none) */
static uint64_t CH_SMASK[5][5];    /* SUIT_MASK[t][s] */
static uint8_t CH_POWER[5][5][33]; /* POWER[t][led][c] */
static uint64_t CH_ABOVE[5][5][33]; /* the cards beating c (t trump, led led): rule._above */
static uint64_t CH_DECK[33];       /* deck_mask(24 / 25 / 32) by size */

static int ch_trump_order(int t, int c) {
    if (c == CH_JOKER)
        return 20;
    int s = c >> 3, r = c & 7;
    if (r == 4 && s == t)
        return 19;
    if (r == 4 && s == (t ^ 3))
        return 18;
    return 10 + (r < 4 ? r : r - 1);
}

static void ch_build_tables(void) {
    for (int t = 0; t < 5; t++) {
        for (int c = 0; c < 33; c++) {
            int e;
            if (t == 4)
                e = c == CH_JOKER ? 4 : c >> 3;
            else if (c == CH_JOKER || ((c & 7) == 4 && (c >> 3) == (t ^ 3)))
                e = t;
            else
                e = c >> 3;
            CH_EFF[t][c] = (uint8_t)e;
        }
        for (int s = 0; s < 5; s++) {
            uint64_t m = 0;
            for (int c = 0; c < 33; c++)
                if (CH_EFF[t][c] == s)
                    m |= 1ULL << c;
            CH_SMASK[t][s] = m;
        }
        for (int led = 0; led < 5; led++)
            for (int c = 0; c < 33; c++) {
                int e = CH_EFF[t][c];
                CH_POWER[t][led][c] = (uint8_t)(t < 4 && e == t ? 100 + ch_trump_order(t, c)
                                                : e == led      ? 1 + (c & 7)
                                                                : 0);
            }
        for (int led = 0; led < 5; led++)
            for (int c = 0; c < 33; c++) {
                uint64_t m = 0;
                int p = CH_POWER[t][led][c];
                for (int x = 0; x < 33; x++)
                    if (CH_POWER[t][led][x] > p)
                        m |= 1ULL << x;
                CH_ABOVE[t][led][c] = m;
            }
    }
    uint64_t d24 = 0;
    for (int s = 0; s < 4; s++)
        for (int r = 2; r < 8; r++)
            d24 |= 1ULL << (s * 8 + r);
    memset(CH_DECK, 0, sizeof CH_DECK);
    CH_DECK[24] = d24;
    CH_DECK[25] = d24 | 1ULL << CH_JOKER;
    CH_DECK[32] = (1ULL << 32) - 1;
}

/* --- rules ------------------------------------------------------------------- */

typedef struct {
    int n;        /* seats: 3 (Cutthroat) or 4 */
    int cut;      /* Cutthroat */
    int deck;     /* 24, 25 or 32 */
    int flags;    /* R_* */
    int lone_defender_points;
    /* Not a rule: the search's model of each seat's calls, the shift of the
     * rule bot's making threshold (RuleBot.seat_shifts; 0: the rule bot). It
     * rides with the rules so that every hand of a search has it. */
    double make_shift[4];
} Rules;

/* --- the hand ---------------------------------------------------------------- */

typedef struct {
    int8_t leader, winner;
    int8_t cards[4];
    int8_t ncards;
} Trick;

typedef struct {
    Rules r;
    int8_t n, cut, dealer;
    uint64_t hands[4];
    uint64_t deal_hands[4]; /* the hands as dealt (to replay the history) */
    uint64_t dummy;
    int8_t kitty[16]; /* 12 with 32 cards */
    int8_t nkitty;
    int8_t up, upsuit;
    int8_t phase, turn, nbid, trump, maker;
    int8_t picked; /* -1: not yet (None), 0: declined, 1: picked up */
    int8_t may_decline;
    int8_t dealer_discard;
    uint64_t maker_discards;
    int8_t merged;
    int8_t alone[4];
    int8_t nalone;
    int8_t out; /* mask of the seats sitting out */
    int8_t ask[4];
    int8_t nask;
    int8_t leader;
    int8_t trick[4];
    int8_t ntrick;
    int8_t led, best, winner;
    int8_t tricks[4];
    Trick log[5];
    int8_t nlog;
    int8_t call_seat[CH_MAX_CALLS];
    uint64_t call_code[CH_MAX_CALLS];
    int8_t ncalls;
    int8_t points[4];
    int8_t thrown_in;
} Hand;

/* FastHand.from_masks: a hand just dealt (not checked). */
static void ch_new(Hand *h, const Rules *r, int dealer, const uint64_t *hands, uint64_t dummy,
                   const int8_t *kitty, int nkitty) {
    memset(h, 0, sizeof *h);
    h->r = *r;
    h->n = (int8_t)r->n;
    h->cut = r->n == 3;
    h->dealer = (int8_t)dealer;
    for (int s = 0; s < r->n; s++)
        h->hands[s] = h->deal_hands[s] = hands[s];
    h->dummy = dummy;
    if (nkitty > 16)
        nkitty = 16;
    for (int i = 0; i < nkitty; i++)
        h->kitty[i] = kitty[i];
    h->nkitty = (int8_t)nkitty;
    int up = h->up = kitty[0];
    h->upsuit = up == CH_JOKER ? 4 : (int8_t)(up >> 3);
    h->turn = (int8_t)((dealer + 1) % r->n);
    h->trump = 4;
    h->maker = -1;
    h->picked = -1;
    h->dealer_discard = -1;
    h->leader = -1;
    h->led = 4;
    h->best = -1;
    h->winner = -1;
    h->phase = P_BID1;
    if (up == CH_JOKER) {
        if (r->flags & R_JOKER_REDEAL) {
            h->thrown_in = 1;
            h->phase = P_OVER;
            h->turn = -1;
        } else {
            h->phase = P_JOKER;
            h->turn = (int8_t)dealer;
        }
    }
}

static inline int ch_on_maker_side(const Hand *h, int seat) {
    if (h->cut)
        return seat == h->maker;
    return (seat & 1) == (h->maker & 1);
}

static inline int ch_next_active(const Hand *h, int seat) {
    int n = h->n;
    int s = (seat + 1) % n;
    while (h->out >> s & 1)
        s = (s + 1) % n;
    return s;
}

static inline uint64_t ch_follow_mask(const Hand *h, int seat) {
    uint64_t hand = h->hands[seat];
    if (h->ntrick) {
        uint64_t m = hand & CH_SMASK[h->trump][h->led];
        if (m)
            return m;
    }
    return hand;
}

/* the cards played so far (FastHand.played) */
static inline uint64_t ch_played(const Hand *h) {
    uint64_t m = 0;
    for (int i = 0; i < h->nlog; i++)
        for (int j = 0; j < h->log[i].ncards; j++)
            m |= 1ULL << h->log[i].cards[j];
    for (int j = 0; j < h->ntrick; j++)
        m |= 1ULL << h->trick[j];
    return m;
}

static inline int ch_side_tricks(const Hand *h) {
    int m = h->maker;
    if (h->cut)
        return h->tricks[m];
    return h->tricks[m & 1] + h->tricks[(m & 1) + 2];
}

/* FastHand.points_for */
static void ch_points_for(const Hand *h, int made, int *pts) {
    int n = h->n, m = h->maker;
    for (int s = 0; s < 4; s++)
        pts[s] = 0;
    if (h->cut) {
        if (made >= 3) {
            pts[m] = made == 5 ? 3 : 1;
        } else {
            int lone_def = 0;
            for (int i = 0; i < h->nalone; i++)
                if (h->alone[i] != m)
                    lone_def = 1;
            int each = (lone_def && made == 0) ? 4 : 2;
            for (int s = 0; s < 3; s++)
                if (s != m)
                    pts[s] = each;
        }
        return;
    }
    (void)n;
    int side = m & 1, lone_maker = 0, lone_def = 0;
    for (int i = 0; i < h->nalone; i++) {
        if ((h->alone[i] & 1) == side)
            lone_maker = 1;
        else
            lone_def = 1;
    }
    int win_side, pt;
    if (made >= 3) {
        win_side = side;
        pt = made == 5 ? (lone_maker ? 4 : 2) : 1;
    } else {
        win_side = 1 - side;
        if (lone_def)
            pt = made == 0 ? 4 : h->r.lone_defender_points;
        else
            pt = 2;
    }
    pts[win_side] = pts[win_side + 2] = pt;
}

static void ch_goes_alone(Hand *h, int seat) {
    h->alone[h->nalone++] = (int8_t)seat;
    if (h->cut) {
        h->out |= (int8_t)(1 << (3 - seat - h->maker));
        h->nask = 0;
    } else {
        h->out |= (int8_t)(1 << ((seat + 2) % 4));
        int side = seat & 1, k = 0;
        for (int i = 0; i < h->nask; i++)
            if ((h->ask[i] & 1) != side)
                h->ask[k++] = h->ask[i];
        h->nask = (int8_t)k;
    }
}

static void ch_next_ask(Hand *h) {
    if (h->nask) {
        h->phase = P_ALONE;
        h->turn = h->ask[0];
        return;
    }
    int8_t lone[4];
    int nl = 0;
    for (int i = 0; i < h->nalone; i++) {
        if (h->cut && !(h->r.flags & R_DUMMY_DECLINE) && h->alone[i] == h->maker)
            continue;
        lone[nl++] = h->alone[i];
    }
    h->phase = P_PLAY;
    int lol = h->r.flags & R_LEFT_OF_LONE;
    if (nl && lol && nl == 2) {
        int s = ch_on_maker_side(h, lone[0]) ? lone[1] : lone[0];
        h->leader = h->turn = (int8_t)s;
        return;
    }
    int start = (nl && lol) ? lone[0] : h->dealer;
    h->leader = h->turn = (int8_t)ch_next_active(h, start);
}

static void ch_start_alone(Hand *h) {
    int m = h->maker;
    if (h->cut) {
        h->phase = P_MAKER;
        h->turn = (int8_t)m;
        return;
    }
    h->nask = 0;
    h->ask[h->nask++] = (int8_t)m;
    h->ask[h->nask++] = (int8_t)((m + 2) % 4);
    if (h->r.flags & R_DEFENDERS_ALONE) {
        h->ask[h->nask++] = (int8_t)((m + 1) % 4);
        h->ask[h->nask++] = (int8_t)((m + 3) % 4);
    }
    ch_next_ask(h);
}

static void ch_score(Hand *h) {
    int pts[4];
    h->phase = P_OVER;
    h->turn = -1;
    ch_points_for(h, ch_side_tricks(h), pts);
    for (int s = 0; s < 4; s++)
        h->points[s] = (int8_t)pts[s];
}

static void ch_play(Hand *h, int seat, int c) {
    h->hands[seat] &= ~(1ULL << c);
    if (!h->ntrick) {
        h->led = (int8_t)CH_EFF[h->trump][c];
        h->best = -1;
    }
    int pw = CH_POWER[h->trump][h->led][c];
    if (pw > h->best) {
        h->best = (int8_t)pw;
        h->winner = (int8_t)seat;
    }
    h->trick[h->ntrick++] = (int8_t)c;
    int active = h->n - ch_popcount((uint64_t)(uint8_t)h->out);
    if (h->ntrick < active) {
        h->turn = (int8_t)ch_next_active(h, seat);
        return;
    }
    int w = h->winner;
    h->tricks[w]++;
    Trick *t = &h->log[h->nlog++];
    t->leader = h->leader;
    t->winner = (int8_t)w;
    t->ncards = h->ntrick;
    for (int i = 0; i < h->ntrick; i++)
        t->cards[i] = h->trick[i];
    h->ntrick = 0;
    h->leader = (int8_t)w;
    h->turn = (int8_t)w;
    if (h->nlog == 5)
        ch_score(h);
}

/* FastHand.step: apply a legal code for the seat to act (trusted). */
static void ch_step(Hand *h, uint64_t code) {
    int p = h->phase, seat = h->turn;
    if (p == P_PLAY) {
        ch_play(h, seat, (int)(code >> 4));
        return;
    }
    if (code == K_MERGE) {
        h->phase = P_KEEP;
        return;
    }
    if (h->ncalls < CH_MAX_CALLS) {
        h->call_seat[h->ncalls] = (int8_t)seat;
        h->call_code[h->ncalls] = code;
        h->ncalls++;
    }
    int kind = (int)(code & 15), n = h->n;
    if (p == P_BID1) {
        if (kind == K_PASS) {
            h->nbid++;
            if (h->nbid == n) {
                h->phase = P_BID2;
                h->nbid = 0;
                h->turn = (int8_t)((h->dealer + 1) % n);
            } else {
                h->turn = (int8_t)((seat + 1) % n);
            }
        } else {
            h->trump = h->upsuit;
            h->maker = (int8_t)seat;
            h->phase = P_PICKUP;
            h->turn = h->dealer;
            h->may_decline = seat != h->dealer && (h->r.flags & R_OPTIONAL_PICKUP);
        }
    } else if (p == P_BID2) {
        if (kind == K_PASS) {
            h->nbid++;
            if (h->nbid == n) {
                h->thrown_in = 1;
                h->phase = P_OVER;
                h->turn = -1;
            } else {
                h->turn = (int8_t)((seat + 1) % n);
            }
        } else {
            h->trump = (int8_t)(code >> 4);
            h->maker = (int8_t)seat;
            ch_start_alone(h);
        }
    } else if (p == P_PICKUP) {
        if (kind == K_DECLINE) {
            h->picked = 0;
        } else {
            int d = h->dealer;
            int x = (int)(code >> 4);
            h->picked = 1;
            h->dealer_discard = (int8_t)x;
            h->hands[d] = (h->hands[d] | 1ULL << h->up) & ~(1ULL << x);
        }
        ch_start_alone(h);
    } else if (p == P_MAKER || p == P_KEEP) {
        int m = h->maker;
        if (kind == K_ALONE) {
            h->alone[h->nalone++] = (int8_t)m;
        } else {
            uint64_t keep = code >> 4;
            uint64_t pool = h->hands[m] | h->dummy;
            h->hands[m] = keep;
            h->maker_discards = pool & ~keep;
            h->merged = 1;
        }
        h->nask = 0;
        if (h->r.flags & R_DEFENDERS_ALONE) {
            h->ask[h->nask++] = (int8_t)((m + 1) % 3);
            h->ask[h->nask++] = (int8_t)((m + 2) % 3);
        }
        ch_next_ask(h);
    } else if (p == P_ALONE) {
        for (int i = 1; i < h->nask; i++)
            h->ask[i - 1] = h->ask[i];
        h->nask--;
        if (kind == K_ALONE)
            ch_goes_alone(h, seat);
        ch_next_ask(h);
    } else if (p == P_JOKER) {
        h->upsuit = (int8_t)(code >> 4);
        h->phase = P_BID1;
        h->turn = (int8_t)((h->dealer + 1) % n);
    }
}

/* Whether ``code`` is legal now for the seat to act (FastHand.why_illegal is
 * None; ``recorded``: a full keep in phase MAKER is the merge and the keep,
 * as records write it -- step_recorded). */
static int ch_is_legal(const Hand *h, uint64_t code, int recorded) {
    int p = h->phase;
    int kind = (int)(code & 15);
    uint64_t arg = code >> 4;
    switch (p) {
    case P_PLAY:
        return kind == K_PLAY && arg < 33 && (ch_follow_mask(h, h->turn) >> arg & 1);
    case P_BID1:
        return code == K_PASS || code == K_ORDER;
    case P_BID2:
        if (code == K_PASS)
            return !((h->r.flags & R_STICK) && h->turn == h->dealer);
        return kind == K_CALL && arg < 4 &&
               ((int)arg != h->upsuit || (h->r.flags & R_NAME_TURNED));
    case P_ALONE:
        return code == K_PASS || code == K_ALONE;
    case P_PICKUP: {
        if (code == K_DECLINE)
            return h->may_decline;
        uint64_t m = h->hands[h->dealer];
        if (h->r.flags & R_DISCARD_UP)
            m |= 1ULL << h->up;
        return kind == K_PICKUP && arg < 33 && (m >> arg & 1);
    }
    case P_MAKER:
        if (code == K_ALONE || code == K_MERGE)
            return 1;
        if (!recorded || kind != K_KEEP)
            return 0;
        __attribute__((fallthrough)); /* the keep of a recorded merge */
    case P_KEEP: {
        if (kind != K_KEEP)
            return 0;
        uint64_t pool = h->hands[h->maker] | h->dummy;
        return arg && !(arg & ~pool) && ch_popcount(arg) == 5;
    }
    case P_JOKER:
        return kind == K_CALL && arg < 4;
    default:
        return 0;
    }
}

/* FastHand.step_recorded: 0 if applied, -1 if illegal (nothing changed). */
static int ch_step_recorded(Hand *h, uint64_t code) {
    if (!ch_is_legal(h, code, 1))
        return -1;
    ch_step(h, code);
    return 0;
}

/* FastHand.history: every action so far as (seat, code), as records write
 * them (the calls, then the cards trick by trick); returns the count. */
static int ch_history(const Hand *h, int8_t *seats, uint64_t *codes) {
    int k = 0;
    for (int i = 0; i < h->ncalls; i++) {
        seats[k] = h->call_seat[i];
        codes[k++] = h->call_code[i];
    }
    for (int i = 0; i < h->nlog; i++) {
        int s = h->log[i].leader;
        for (int j = 0; j < h->log[i].ncards; j++) {
            seats[k] = (int8_t)s;
            codes[k++] = K_PLAY | (uint64_t)h->log[i].cards[j] << 4;
            s = ch_next_active(h, s);
        }
    }
    int s = h->leader;
    for (int j = 0; j < h->ntrick; j++) {
        seats[k] = (int8_t)s;
        codes[k++] = K_PLAY | (uint64_t)h->trick[j] << 4;
        s = ch_next_active(h, s);
    }
    return k;
}

/* The same hand as dealt, before any action. */
static void ch_dealt(const Hand *h, Hand *out) {
    ch_new(out, &h->r, h->dealer, h->deal_hands, h->dummy, h->kitty, h->nkitty);
}

#define CH_MAX_HISTORY (CH_MAX_CALLS + 20)

/* the five-of-ten subsets in itertools.combinations order (bits of the ten
 * card ids of the pool, lowest first) */
static uint16_t CH_KEEP_COMBOS[252];

static void ch_build_combos(void) {
    int k = 0;
    for (int a = 0; a < 10; a++)
        for (int b = a + 1; b < 10; b++)
            for (int c = b + 1; c < 10; c++)
                for (int d = c + 1; d < 10; d++)
                    for (int e = d + 1; e < 10; e++)
                        CH_KEEP_COMBOS[k++] =
                            (uint16_t)(1u << a | 1u << b | 1u << c | 1u << d | 1u << e);
}

/* FastHand.legal_codes: into ``out`` (room for 252), returns the count. */
static int ch_legal(const Hand *h, uint64_t *out) {
    int n = 0;
    switch (h->phase) {
    case P_PLAY: {
        uint64_t m = ch_follow_mask(h, h->turn);
        while (m) {
            int c = ch_lsb(m);
            m &= m - 1;
            out[n++] = K_PLAY | (uint64_t)c << 4;
        }
        return n;
    }
    case P_BID1:
        out[0] = K_PASS;
        out[1] = K_ORDER;
        return 2;
    case P_BID2:
        if (!((h->r.flags & R_STICK) && h->turn == h->dealer))
            out[n++] = K_PASS;
        for (int s = 0; s < 4; s++)
            if (s != h->upsuit || (h->r.flags & R_NAME_TURNED))
                out[n++] = K_CALL | (uint64_t)s << 4;
        return n;
    case P_ALONE:
        out[0] = K_PASS;
        out[1] = K_ALONE;
        return 2;
    case P_PICKUP: {
        uint64_t m = h->hands[h->dealer];
        if (h->r.flags & R_DISCARD_UP)
            m |= 1ULL << h->up;
        while (m) {
            int c = ch_lsb(m);
            m &= m - 1;
            out[n++] = K_PICKUP | (uint64_t)c << 4;
        }
        if (h->may_decline)
            out[n++] = K_DECLINE;
        return n;
    }
    case P_MAKER:
        out[0] = K_ALONE;
        out[1] = K_MERGE;
        return 2;
    case P_KEEP: {
        int ids[16], k = 0;
        uint64_t m = h->hands[h->maker] | h->dummy;
        while (m && k < 16) {
            ids[k++] = ch_lsb(m);
            m &= m - 1;
        }
        if (k != 10)
            return 0;
        for (int i = 0; i < 252; i++) {
            uint64_t keep = 0;
            for (int j = 0; j < 10; j++)
                if (CH_KEEP_COMBOS[i] >> j & 1)
                    keep |= 1ULL << ids[j];
            out[n++] = K_KEEP | keep << 4;
        }
        return n;
    }
    case P_JOKER:
        for (int s = 0; s < 4; s++)
            out[n++] = K_CALL | (uint64_t)s << 4;
        return n;
    default:
        return 0;
    }
}

/* len(legal_codes()) without listing them */
static int ch_nlegal(const Hand *h) {
    switch (h->phase) {
    case P_PLAY:
        return ch_popcount(ch_follow_mask(h, h->turn));
    case P_BID1:
    case P_ALONE:
    case P_MAKER:
        return 2;
    case P_BID2: {
        int n = ((h->r.flags & R_STICK) && h->turn == h->dealer) ? 0 : 1;
        for (int s = 0; s < 4; s++)
            if (s != h->upsuit || (h->r.flags & R_NAME_TURNED))
                n++;
        return n;
    }
    case P_PICKUP: {
        uint64_t m = h->hands[h->dealer];
        if (h->r.flags & R_DISCARD_UP)
            m |= 1ULL << h->up;
        return ch_popcount(m) + (h->may_decline ? 1 : 0);
    }
    case P_KEEP:
        return 252;
    case P_JOKER:
        return 4;
    default:
        return 0;
    }
}

#endif
