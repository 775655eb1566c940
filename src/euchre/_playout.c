/* Random playouts, compiled (module euchre._cplayout; use euchre.playout).
 *
 * One hand from a fresh random deal to its score, choosing uniformly among
 * the legal actions at every decision exactly as ``FastHand.playout`` in
 * hand.py does (the readable reference): the same choice distribution at
 * every step, not the same random stream.
 *
 * - the deal: a uniform shuffle of the rules' deck (Fisher-Yates), dealt as
 *   ``Deal.random`` deals (five per seat, the dummy, the kitty; the up-card
 *   first in the kitty);
 * - a turned-up joker: the hand is thrown in (``redeal``) or the dealer names
 *   one of the four suits;
 * - round one: each seat in turn passes or orders, 50/50; the dealer then
 *   picks up one of the cards it may discard, or declines (when allowed),
 *   uniformly among those choices;
 * - round two: uniformly among pass (unless the dealer is stuck) and the
 *   suits that may be named;
 * - the Cutthroat maker: alone, or merge and keep one of the 252 five-card
 *   subsets of the ten, uniformly among these 253 ways;
 * - each seat asked to go alone: pass or alone, 50/50;
 * - the play: a uniform card among those the seat may play.
 *
 * The generator (_rng.h, shared with the compiled search) is xoshiro256**
 * seeded by splitmix64 from a 64-bit seed; the trump tables are _core.h's;
 * bounded draws are exact (Lemire's method with rejection). A hand keeps no
 * Python object while it is played, so the batch entry point releases the
 * GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_core.h"
#include "_rng.h"

#define MAX_HISTORY 64

/* --- the trump tables (_core.h) and the generator (_rng.h) ------------------- */

static inline int coin(Rng *r) { return (int)(rng_next(r) >> 63); }

/* A uniform card of the non-empty mask m. */
static inline int pick(Rng *r, uint64_t m) {
    if (m & (m - 1)) {
        uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(m));
        while (k--)
            m &= m - 1;
    }
    return __builtin_ctzll(m);
}

/* --- one hand ----------------------------------------------------------------- */

typedef struct {
    /* the rules */
    int n, cut, deck, flags, lone_defender_points;
    /* the hand */
    int dealer;
    uint8_t order[33]; /* the shuffled deck: the deal */
    uint64_t hands[4], dummy;
    int up, upsuit, trump, maker, out, nalone, thrown_in, made;
    int alone[4], tricks[4], points[4];
    int nhist;
    int hseat[MAX_HISTORY];
    uint64_t hcode[MAX_HISTORY];
} Game;

static uint8_t DECK[3][33];
static int DECK_SIZE[3];

static void build_decks(void) {
    int k = 0;
    for (int s = 0; s < 4; s++)
        for (int r = 2; r < 8; r++)
            DECK[0][k++] = (uint8_t)(s * 8 + r);
    DECK_SIZE[0] = k;
    memcpy(DECK[1], DECK[0], (size_t)k);
    DECK[1][k] = CH_JOKER;
    DECK_SIZE[1] = k + 1;
    for (int c = 0; c < 32; c++)
        DECK[2][c] = (uint8_t)c;
    DECK_SIZE[2] = 32;
}

static inline void push(Game *g, int seat, uint64_t code) {
    g->hseat[g->nhist] = seat;
    g->hcode[g->nhist++] = code;
}

static inline int next_active(const Game *g, int seat) {
    int s = (seat + 1) % g->n;
    while (g->out >> s & 1)
        s = (s + 1) % g->n;
    return s;
}

static void goes_alone(Game *g, int seat, int *ask, int *nask) {
    g->alone[g->nalone++] = seat;
    if (g->cut) {
        g->out |= 1 << (3 - seat - g->maker);
        *nask = 0;
    } else {
        g->out |= 1 << ((seat + 2) % 4);
        int k = 0;
        for (int i = 0; i < *nask; i++)
            if ((ask[i] & 1) != (seat & 1))
                ask[k++] = ask[i];
        *nask = k;
    }
}

static void score(Game *g) {
    int m = g->maker, n = g->n;
    int made = g->cut ? g->tricks[m] : g->tricks[m & 1] + g->tricks[(m & 1) + 2];
    g->made = made;
    for (int s = 0; s < n; s++)
        g->points[s] = 0;
    if (g->cut) {
        if (made >= 3) {
            g->points[m] = made == 5 ? 3 : 1;
        } else {
            int lone_def = 0;
            for (int i = 0; i < g->nalone; i++)
                if (g->alone[i] != m)
                    lone_def = 1;
            int each = lone_def && made == 0 ? 4 : 2;
            for (int s = 0; s < 3; s++)
                if (s != m)
                    g->points[s] = each;
        }
        return;
    }
    int side = m & 1, lone_maker = 0, lone_def = 0;
    for (int i = 0; i < g->nalone; i++) {
        if ((g->alone[i] & 1) == side)
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
        pt = lone_def ? (made == 0 ? 4 : g->lone_defender_points) : 2;
    }
    g->points[win_side] = g->points[win_side + 2] = pt;
}

/* Deal and play one hand (g's rules and dealer set) with r. */
static void play_hand(Game *g, Rng *r) {
    const int n = g->n, dealer = g->dealer, flags = g->flags;
    const int deck = g->deck;
    uint8_t *o = g->order;
    memcpy(o, DECK[deck == 24 ? 0 : deck == 25 ? 1 : 2], (size_t)deck);
    for (int i = deck - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1));
        uint8_t t = o[i];
        o[i] = o[j];
        o[j] = t;
    }
    for (int s = 0; s < 4; s++) {
        uint64_t m = 0;
        for (int i = 5 * s; i < 5 * s + 5; i++)
            m |= 1ULL << o[i];
        if (s < n)
            g->hands[s] = m;
        else
            g->dummy = m;
    }
    if (!g->cut)
        g->dummy = 0;
    g->up = o[20];
    g->trump = 4;
    g->maker = -1;
    g->out = 0;
    g->nalone = 0;
    g->thrown_in = 0;
    g->made = -1;
    g->nhist = 0;
    for (int s = 0; s < 4; s++)
        g->tricks[s] = g->points[s] = 0;

    if (g->up == CH_JOKER) {
        if (flags & R_JOKER_REDEAL) {
            g->thrown_in = 1;
            return;
        }
        g->upsuit = (int)rng_below(r, 4);
        push(g, dealer, K_CALL | (uint64_t)g->upsuit << 4);
    } else {
        g->upsuit = g->up >> 3;
    }

    /* round one: pass or order, 50/50 */
    int seat = (dealer + 1) % n;
    for (int k = 0; k < n; k++) {
        if (coin(r)) {
            push(g, seat, K_PASS);
            seat = (seat + 1) % n;
        } else {
            g->maker = seat;
            break;
        }
    }
    if (g->maker >= 0) {
        push(g, seat, K_ORDER);
        g->trump = g->upsuit;
        int may_decline = seat != dealer && (flags & R_OPTIONAL_PICKUP);
        uint64_t m = g->hands[dealer];
        if (flags & R_DISCARD_UP)
            m |= 1ULL << g->up;
        int cards = __builtin_popcountll(m);
        uint32_t k = rng_below(r, (uint32_t)(cards + may_decline));
        if ((int)k < cards) {
            while (k--)
                m &= m - 1;
            int c = __builtin_ctzll(m);
            push(g, dealer, K_PICKUP | (uint64_t)c << 4);
            g->hands[dealer] = (g->hands[dealer] | 1ULL << g->up) & ~(1ULL << c);
        } else {
            push(g, dealer, K_DECLINE);
        }
    } else {
        /* round two: pass (unless stuck) or a suit that may be named */
        seat = (dealer + 1) % n;
        for (int k = 0; k < n; k++) {
            int codes[5], nc = 0;
            if (!((flags & R_STICK) && seat == dealer))
                codes[nc++] = -1;
            for (int s = 0; s < 4; s++)
                if (s != g->upsuit || (flags & R_NAME_TURNED))
                    codes[nc++] = s;
            int choice = codes[rng_below(r, (uint32_t)nc)];
            if (choice < 0) {
                push(g, seat, K_PASS);
                seat = (seat + 1) % n;
            } else {
                push(g, seat, K_CALL | (uint64_t)choice << 4);
                g->trump = choice;
                g->maker = seat;
                break;
            }
        }
        if (g->maker < 0) {
            g->thrown_in = 1;
            return;
        }
    }

    /* the maker's choice (Cutthroat), then the go-alone questions */
    const int m = g->maker;
    int ask[4], nask = 0;
    if (g->cut) {
        uint32_t k = rng_below(r, 253);
        if (k == 0) {
            push(g, m, K_ALONE);
            g->alone[g->nalone++] = m;
        } else {
            uint64_t pool = g->hands[m] | g->dummy, keep = 0;
            int ids[10], ni = 0;
            while (pool && ni < 10) {
                ids[ni++] = __builtin_ctzll(pool);
                pool &= pool - 1;
            }
            unsigned combo = CH_KEEP_COMBOS[k - 1];
            for (int i = 0; i < 10; i++)
                if (combo >> i & 1)
                    keep |= 1ULL << ids[i];
            push(g, m, K_KEEP | keep << 4);
            g->hands[m] = keep;
        }
        if (flags & R_DEFENDERS_ALONE) {
            ask[nask++] = (m + 1) % 3;
            ask[nask++] = (m + 2) % 3;
        }
    } else {
        ask[nask++] = m;
        ask[nask++] = (m + 2) % 4;
        if (flags & R_DEFENDERS_ALONE) {
            ask[nask++] = (m + 1) % 4;
            ask[nask++] = (m + 3) % 4;
        }
    }
    while (nask) {
        int s = ask[0];
        nask--;
        memmove(ask, ask + 1, (size_t)nask * sizeof(int));
        if (coin(r)) {
            push(g, s, K_PASS);
        } else {
            push(g, s, K_ALONE);
            goes_alone(g, s, ask, &nask);
        }
    }

    /* who leads (RULES.md §2 Play, §3 Play; FastHand._next_ask) */
    int lone[4], nl = 0;
    for (int i = 0; i < g->nalone; i++)
        if (!(g->cut && !(flags & R_DUMMY_DECLINE) && g->alone[i] == m))
            lone[nl++] = g->alone[i];
    int leader;
    if (nl == 2 && (flags & R_LEFT_OF_LONE)) {
        leader = lone[0];
        for (int i = 0; i < 2; i++) {
            int maker_side = g->cut ? lone[i] == m : (lone[i] & 1) == (m & 1);
            if (!maker_side) {
                leader = lone[i];
                break;
            }
        }
    } else {
        leader = next_active(g, nl && (flags & R_LEFT_OF_LONE) ? lone[0] : dealer);
    }

    /* the five tricks */
    const int t = g->trump;
    const uint8_t *eff = CH_EFF[t];
    for (int trick = 0; trick < 5; trick++) {
        int c = pick(r, g->hands[leader]);
        g->hands[leader] &= ~(1ULL << c);
        push(g, leader, K_PLAY | (uint64_t)c << 4);
        int led = eff[c];
        const uint8_t *pw = CH_POWER[t][led];
        const uint64_t follow = CH_SMASK[t][led];
        int best = pw[c], winner = leader;
        for (int s = next_active(g, leader); s != leader; s = next_active(g, s)) {
            uint64_t hand = g->hands[s];
            uint64_t may = hand & follow;
            c = pick(r, may ? may : hand);
            g->hands[s] = hand & ~(1ULL << c);
            push(g, s, K_PLAY | (uint64_t)c << 4);
            if (pw[c] > best) {
                best = pw[c];
                winner = s;
            }
        }
        g->tricks[winner]++;
        leader = winner;
    }
    score(g);
}

/* --- the module ------------------------------------------------------------------ */

/* Read the rules' arguments: cutthroat, deck, flags, lone_defender_points. */
static int read_rules(Game *g, PyObject *const *args) {
    long cut = PyLong_AsLong(args[0]);
    long deck = PyLong_AsLong(args[1]);
    long flags = PyLong_AsLong(args[2]);
    long ldp = PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        return -1;
    if (deck != 24 && deck != 25 && deck != 32) {
        PyErr_Format(PyExc_ValueError, "no %ld-card deck (want 24, 32 or 25)", deck);
        return -1;
    }
    if (flags < 0 || flags > 255) {
        PyErr_Format(PyExc_ValueError, "rule flags out of range: %ld", flags);
        return -1;
    }
    if (ldp != 2 && ldp != 4) {
        PyErr_Format(PyExc_ValueError, "lone_defender_points must be 2 or 4, not %ld", ldp);
        return -1;
    }
    memset(g, 0, sizeof(*g));
    g->cut = cut != 0;
    g->n = g->cut ? 3 : 4;
    g->deck = (int)deck;
    g->flags = (int)flags;
    g->lone_defender_points = (int)ldp;
    return 0;
}

static PyObject *mod_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "hand(cutthroat, deck, flags, lone_defender_points, dealer, seed)");
        return NULL;
    }
    Game g;
    if (read_rules(&g, args) < 0)
        return NULL;
    long dealer = PyLong_AsLong(args[4]);
    if (dealer == -1 && PyErr_Occurred())
        return NULL;
    if (dealer < 0 || dealer >= g.n) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat from 0 to %d, not %ld", g.n - 1,
                     dealer);
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(args[5]);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    g.dealer = (int)dealer;
    Rng r;
    rng_seed(&r, seed);
    play_hand(&g, &r);

    PyObject *deal = NULL, *history = NULL, *points = NULL;
    deal = PyBytes_FromStringAndSize((const char *)g.order, g.deck);
    history = PyList_New(g.nhist);
    points = PyTuple_New(g.n);
    if (!deal || !history || !points)
        goto fail;
    for (int i = 0; i < g.nhist; i++) {
        PyObject *pair = Py_BuildValue("(iK)", g.hseat[i], (unsigned long long)g.hcode[i]);
        if (!pair)
            goto fail;
        PyList_SET_ITEM(history, i, pair);
    }
    for (int s = 0; s < g.n; s++) {
        PyObject *p = PyLong_FromLong(g.points[s]);
        if (!p)
            goto fail;
        PyTuple_SET_ITEM(points, s, p);
    }
    return Py_BuildValue("(NNN)", deal, history, points);
fail:
    Py_XDECREF(deal);
    Py_XDECREF(history);
    Py_XDECREF(points);
    return NULL;
}

static PyObject *mod_playouts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "playouts(cutthroat, deck, flags, lone_defender_points, n, seed)");
        return NULL;
    }
    Game g;
    if (read_rules(&g, args) < 0)
        return NULL;
    long long count = PyLong_AsLongLong(args[4]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    if (count < 0) {
        PyErr_Format(PyExc_ValueError, "the number of hands must be at least 0, not %lld", count);
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(args[5]);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    long long decisions = 0, thrown_in = 0, alone = 0, made[6] = {0}, points[4] = {0};
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < count; i++) {
        Rng r;
        rng_seed(&r, seed + (uint64_t)i);
        g.dealer = (int)(i % g.n);
        play_hand(&g, &r);
        decisions += g.nhist;
        if (g.thrown_in) {
            thrown_in++;
            continue;
        }
        alone += g.nalone > 0;
        made[g.made]++;
        for (int s = 0; s < g.n; s++)
            points[s] += g.points[s];
    }
    Py_END_ALLOW_THREADS
    PyObject *pts = PyTuple_New(g.n);
    if (!pts)
        return NULL;
    for (int s = 0; s < g.n; s++) {
        PyObject *p = PyLong_FromLongLong(points[s]);
        if (!p) {
            Py_DECREF(pts);
            return NULL;
        }
        PyTuple_SET_ITEM(pts, s, p);
    }
    return Py_BuildValue("(LLL(LLLLLL)N)", decisions, thrown_in, alone, made[0], made[1],
                         made[2], made[3], made[4], made[5], pts);
}

static PyMethodDef mod_methods[] = {
    {"hand", (PyCFunction)(void (*)(void))mod_hand, METH_FASTCALL,
     "hand(cutthroat, deck, flags, lone_defender_points, dealer, seed)\n\n"
     "Deal and play one random hand: (the shuffled deck as card-id bytes, the\n"
     "history as (seat, code) pairs, the points per seat)."},
    {"playouts", (PyCFunction)(void (*)(void))mod_playouts, METH_FASTCALL,
     "playouts(cutthroat, deck, flags, lone_defender_points, n, seed)\n\n"
     "Play n random hands, hand i dealt by seat i % seats from seed + i:\n"
     "(decisions, thrown in, hands with a lone player, hands by the maker\n"
     "side's tricks 0..5, points per seat)."},
    {NULL, NULL, 0, NULL},
};

static int mod_exec(PyObject *module) {
    (void)module;
    ch_build_tables();
    ch_build_combos();
    build_decks();
    return 0;
}

static PyModuleDef_Slot mod_slots[] = {
    {Py_mod_exec, mod_exec},
    {0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "euchre._cplayout",
    .m_doc = "Random playouts of euchre.hand, compiled (see playout.py).",
    .m_size = 0,
    .m_methods = mod_methods,
    .m_slots = mod_slots,
};

PyMODINIT_FUNC PyInit__cplayout(void) { return PyModuleDef_Init(&moduledef); }
