/* The double-dummy solver of euchre.solver, compiled (module euchre._csolver).
 *
 * A line-by-line port of the pure-Python ``PureSolver`` in solver.py, which
 * stays the readable reference and documents the algorithm: Boolean
 * alpha-beta on zero-window questions ("can the maker's side take at least
 * k?"), a transposition table at trick boundaries with lower/upper bounds and
 * the last cut-off lead, quick bounds on a new boundary, equivalent-card
 * pruning, move ordering, the greedy estimate that picks the first question.
 * Every step, including the order of the moves, the table's contents and the
 * node count, is the same as in the Python solver, so both answer the same
 * and count the same ``nodes``.
 *
 * Cards are in the solver-private numbering: four fields of 11 bits (the
 * three plain suits, then trump), cards ordered by power inside a field, the
 * top bit of each field a sentinel. A ``Core`` holds one position and its
 * transposition table; it uses no Python object while it searches, so it
 * releases the GIL once one call has visited ``release_after`` nodes (given
 * by its maker; short searches keep it, as taking it back can cost a thread
 * a switch interval, far more than the search).
 * A core is used by one thread at a time (a second caller gets an error).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define W 11
#define TRUMP_BASE 33
#define SENTINELS ((1ULL << 10) | (1ULL << 21) | (1ULL << 32) | (1ULL << 43))
#define TRUMPS (0x3FFULL << 33)
#define SUIT(c) ((c) / W)

static const uint64_t FIELD_MASK[4] = {0x3FFULL, 0x3FFULL << 11, 0x3FFULL << 22, 0x3FFULL << 33};

static inline int msb(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int lsb(uint64_t m) { return __builtin_ctzll(m); }
static inline int bitlen(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

typedef struct {
    uint64_t h[4];
    int8_t leader, lo, hi, cut;
} Entry;

typedef struct {
    PyObject_HEAD
    uint64_t hands[4];
    int side[4];
    int orders[4][4]; /* active seats from each active seat on */
    int nact;
    int order; /* the leader of the trick under way (its row of orders) */
    int turn, led, best, winner;
    uint64_t tmask;
    int won, left;
    uint64_t nodes;
    int ext[4 * W]; /* solver number -> card id */
    /* transposition table: entries in insertion order, open-addressed index */
    Entry *ent;
    int32_t *slot;
    uint32_t nent, cap, nslot;
    int busy, oom;
    uint64_t release_after, release_at;
    PyThreadState *ts;
} Core;

/* -- transposition table ----------------------------------------------------- */

static inline uint32_t tt_hash(const uint64_t *h, int leader) {
    uint64_t x = h[0] * 0x9E3779B97F4A7C15ULL ^ h[1] * 0xC2B2AE3D27D4EB4FULL ^
                 h[2] * 0x165667B19E3779F9ULL ^ h[3] * 0xD6E8FEB86659FD93ULL ^ (uint64_t)leader;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 32;
    return (uint32_t)x;
}

/* The entry of (leader, hands), or -1; *where: the free slot it would take. */
static int32_t tt_find(Core *s, int leader, uint32_t *where) {
    const uint64_t *h = s->hands;
    uint32_t mask = s->nslot - 1;
    uint32_t i = tt_hash(h, leader) & mask;
    for (;;) {
        int32_t e = s->slot[i];
        if (e < 0) {
            *where = i;
            return -1;
        }
        const Entry *en = &s->ent[e];
        if (en->leader == leader && en->h[0] == h[0] && en->h[1] == h[1] && en->h[2] == h[2] &&
            en->h[3] == h[3])
            return e;
        i = (i + 1) & mask;
    }
}

static int tt_grow(Core *s) {
    uint32_t cap = s->cap ? s->cap * 2 : 64;
    Entry *ent = realloc(s->ent, cap * sizeof(Entry));
    if (!ent)
        return -1;
    s->ent = ent;
    s->cap = cap;
    uint32_t nslot = cap * 2;
    int32_t *slot = malloc(nslot * sizeof(int32_t));
    if (!slot)
        return -1;
    memset(slot, 0xFF, nslot * sizeof(int32_t));
    free(s->slot);
    s->slot = slot;
    s->nslot = nslot;
    for (uint32_t e = 0; e < s->nent; e++) {
        uint32_t i = tt_hash(ent[e].h, ent[e].leader) & (nslot - 1);
        while (slot[i] >= 0)
            i = (i + 1) & (nslot - 1);
        slot[i] = (int32_t)e;
    }
    return 0;
}

/* The transposition entry of the trick boundary with ``leader`` to lead, made
 * with quick bounds if new (solver.py: PureSolver._entry); -1 out of memory. */
static int32_t entry(Core *s, int leader, int left) {
    uint32_t where;
    int32_t e = tt_find(s, leader, &where);
    if (e >= 0)
        return e;
    const uint64_t *hands = s->hands;
    const int *side = s->side;
    const int *order = s->orders[leader];
    uint64_t hand = hands[leader];
    uint64_t mine = hand & TRUMPS;
    uint64_t mk = 0, df = 0, others = 0, rest = 0;
    int most = 0;
    for (int i = 0; i < s->nact; i++) {
        int t = order[i];
        uint64_t m = hands[t];
        rest |= m;
        uint64_t tr = m & TRUMPS;
        if (side[t])
            mk |= tr;
        else
            df |= tr;
        if (t != leader) {
            others |= tr;
            int n = popcount(tr);
            if (n > most)
                most = n;
        }
    }
    int lo = 0, up = 0;
    if (mk || df) {
        int mk_top = bitlen(mk), df_top = bitlen(df);
        for (int i = 0; i < s->nact; i++) {
            int t = order[i];
            uint64_t tr = hands[t] & TRUMPS;
            if (side[t]) {
                int n = popcount(tr >> df_top);
                if (n > lo)
                    lo = n;
            } else {
                int n = popcount(tr >> mk_top);
                if (n > up)
                    up = n;
            }
        }
    }
    int cash = popcount(mine >> bitlen(others));
    if (cash >= most) {
        cash = popcount(mine);
        for (int f = 0; f < 3; f++) {
            uint64_t r = rest & FIELD_MASK[f];
            while (r) {
                uint64_t b = 1ULL << msb(r);
                if (!(hand & b))
                    break;
                cash++;
                r ^= b;
            }
        }
    }
    if (side[leader]) {
        if (cash > lo)
            lo = cash;
    } else if (cash > up)
        up = cash;
    if (lo > left)
        lo = left;
    if (up > left)
        up = left;
    if (s->nent >= s->cap) {
        if (tt_grow(s) < 0)
            return -1;
        tt_find(s, leader, &where);
    }
    e = (int32_t)s->nent++;
    Entry *en = &s->ent[e];
    memcpy(en->h, hands, sizeof en->h);
    en->leader = (int8_t)leader;
    en->lo = (int8_t)lo;
    en->hi = (int8_t)(left - up);
    en->cut = -1;
    s->slot[where] = e;
    return e;
}

/* -- search -------------------------------------------------------------------- */

static inline void node(Core *s) {
    if (++s->nodes == s->release_at)
        s->ts = PyEval_SaveThread();
}

/* Equivalent-card pruning: the cards of ``cards``, strongest first, one of
 * each run with no other remaining card (``rem``) between them. */
static int representatives(uint64_t cards, uint64_t rem, int *out) {
    int n = 0;
    uint64_t prev = 0, m = cards;
    while (m) {
        int c = msb(m);
        uint64_t b = 1ULL << c;
        m ^= b;
        if (prev && !(rem & (prev - (b << 1)))) {
            prev = b;
            continue;
        }
        prev = b;
        out[n++] = c;
    }
    return n;
}

static int search(Core *s, int leader, int need, int left, uint64_t rem);

/* A follower's choice (pos > 0) inside the trick led by ``row``. */
static int trick(Core *s, int row, int pos, int led, int best, int winner, int need, int left,
                 uint64_t rem, uint64_t tmask) {
    node(s);
    const int *order = s->orders[row];
    int seat = order[pos];
    uint64_t *hands = s->hands;
    uint64_t hand = hands[seat];
    const int *side = s->side;
    int mine = side[seat];
    int last = pos == s->nact - 1;
    uint64_t cand = hand & FIELD_MASK[led];
    int follow = cand != 0;
    if (!follow)
        cand = hand;
    int moves[16];
    int nm;
    if (cand & (cand - 1)) {
        int rep[16];
        int nr = representatives(cand, rem, rep); /* strongest first */
        if (side[winner] != mine) {
            /* the other side is winning: cheapest winning card, then weakest */
            int k = 0;
            while (k < nr && rep[k] > best && (follow || rep[k] >= TRUMP_BASE))
                k++;
            nm = 0;
            for (int i = k - 1; i >= 0; i--)
                moves[nm++] = rep[i];
            for (int i = nr - 1; i >= k; i--)
                moves[nm++] = rep[i];
        } else if (last) {
            nm = 0; /* our side is winning: play low */
            for (int i = nr - 1; i >= 0; i--)
                moves[nm++] = rep[i];
        } else {
            memcpy(moves, rep, nr * sizeof(int));
            nm = nr;
        }
    } else {
        moves[0] = msb(cand);
        nm = 1;
    }
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        uint64_t b = 1ULL << c;
        hands[seat] = hand ^ b;
        int b2, w2;
        if (c > best && (follow || c >= TRUMP_BASE)) {
            b2 = c;
            w2 = seat;
        } else {
            b2 = best;
            w2 = winner;
        }
        int res;
        if (last) {
            int n2 = need - side[w2];
            if (n2 <= 0)
                res = 1;
            else if (n2 >= left)
                res = 0;
            else
                res = search(s, w2, n2, left - 1, rem ^ tmask ^ b);
        } else
            res = trick(s, row, pos + 1, led, b2, w2, need, left, rem, tmask | b);
        hands[seat] = hand;
        if (s->oom)
            return 0;
        if (res) {
            if (mine)
                return 1;
        } else if (!mine)
            return 0;
    }
    return !mine;
}

/* At a trick boundary: can the maker side take ``need`` of ``left``? */
static int search(Core *s, int leader, int need, int left, uint64_t rem) {
    if (need <= 0)
        return 1;
    if (need > left)
        return 0;
    uint64_t *hands = s->hands;
    if (left == 1) { /* one card each: play it out */
        node(s);
        uint64_t best = hands[leader];
        int w = leader;
        int led = SUIT(msb(best));
        const int *order = s->orders[leader];
        for (int i = 1; i < s->nact; i++) {
            int t = order[i];
            uint64_t m = hands[t];
            if (m > best && ((m >> TRUMP_BASE) || SUIT(msb(m)) == led)) {
                best = m;
                w = t;
            }
        }
        return s->side[w] == 1;
    }
    int32_t e = entry(s, leader, left);
    if (e < 0) {
        s->oom = 1;
        return 0;
    }
    if (s->ent[e].lo >= need)
        return 1;
    if (s->ent[e].hi < need)
        return 0;
    node(s);
    uint64_t hand = hands[leader];
    int maximizing = s->side[leader];
    int first = s->ent[e].cut;
    int rep[16], moves[17];
    int nr = representatives(hand, rem, rep);
    int nm = 0;
    /* the remembered cut-off card first, then weakest first */
    int has_first = first >= 0 && (hand >> first & 1);
    if (has_first)
        moves[nm++] = first;
    for (int i = nr - 1; i >= 0; i--)
        if (!has_first || rep[i] != first)
            moves[nm++] = rep[i];
    int result = !maximizing;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        uint64_t b = 1ULL << c;
        hands[leader] = hand ^ b;
        int res = trick(s, leader, 1, SUIT(c), c, leader, need, left, rem, b);
        hands[leader] = hand;
        if (s->oom)
            return 0;
        if (res) {
            if (maximizing) {
                s->ent[e].cut = (int8_t)c;
                result = 1;
                break;
            }
        } else if (!maximizing) {
            s->ent[e].cut = (int8_t)c;
            result = 0;
            break;
        }
    }
    Entry *en = &s->ent[e];
    if (result) {
        if (need > en->lo)
            en->lo = (int8_t)need;
    } else if (need - 1 < en->hi)
        en->hi = (int8_t)(need - 1);
    return result;
}

/* -- drivers ------------------------------------------------------------------- */

static uint64_t remaining(const Core *s) {
    return s->tmask | SENTINELS | s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
}

/* Can the maker side take ``need`` of the tricks still to play? */
static int can(Core *s, int need) {
    if (need <= 0)
        return 1;
    if (need > s->left)
        return 0;
    uint64_t rem = remaining(s);
    if (s->turn)
        return trick(s, s->order, s->turn, s->led, s->best, s->winner, need, s->left, rem,
                     s->tmask);
    return search(s, s->orders[s->order][0], need, s->left, rem);
}

/* The maker side's tricks in one greedy play (solver.py: PureSolver._estimate). */
static int estimate(const Core *s) {
    uint64_t hands[4];
    memcpy(hands, s->hands, sizeof hands);
    const int *side = s->side;
    int row = s->order, pos = s->turn;
    int led = s->led, best = s->best, winner = s->winner;
    int count = 0;
    for (int t = 0; t < s->left; t++) {
        for (int p = pos; p < s->nact; p++) {
            int seat = s->orders[row][p];
            uint64_t hand = hands[seat];
            int c;
            if (p == 0) {
                c = msb(hand);
                led = SUIT(c);
                best = c;
                winner = seat;
            } else {
                uint64_t cand = hand & FIELD_MASK[led];
                int follow = cand != 0;
                if (!follow)
                    cand = hand;
                c = lsb(cand); /* weakest */
                if (side[winner] != side[seat]) {
                    uint64_t m = cand;
                    while (m) {
                        int d = lsb(m);
                        if (d > best && (follow || d >= TRUMP_BASE)) {
                            c = d;
                            break;
                        }
                        m &= m - 1;
                    }
                }
                if (c > best && (follow || c >= TRUMP_BASE)) {
                    best = c;
                    winner = seat;
                }
            }
            hands[seat] = hand ^ (1ULL << c);
        }
        count += side[winner];
        row = winner;
        pos = 0;
    }
    return count;
}

/* The maker side's tricks still to come (``hint``: a likely value, or -1). */
static int value(Core *s, int hint) {
    int lo = 0, hi = s->left;
    if (hi == 0)
        return 0;
    if (!s->turn && hi > 1) {
        int32_t e = entry(s, s->orders[s->order][0], hi);
        if (e < 0) {
            s->oom = 1;
            return 0;
        }
        lo = s->ent[e].lo;
        hi = s->ent[e].hi;
    }
    if (lo == hi)
        return lo;
    int guess = hint < 0 ? estimate(s) : hint;
    if (guess < lo + 1)
        guess = lo + 1;
    if (guess > hi)
        guess = hi;
    while (lo < hi) {
        int r = can(s, guess);
        if (s->oom)
            return 0;
        if (r) {
            lo = guess;
            guess++;
        } else {
            hi = guess - 1;
            guess--;
        }
    }
    return lo;
}

/* Play card ``c`` for ``seat`` in the root position (PureSolver._play). */
static void play(Core *s, int seat, int c) {
    uint64_t b = 1ULL << c;
    s->hands[seat] ^= b;
    int n = s->turn + 1;
    if (n == 1)
        s->led = SUIT(c);
    if (c > s->best && (SUIT(c) == s->led || c >= TRUMP_BASE)) {
        s->best = c;
        s->winner = seat;
    }
    if (n < s->nact) {
        s->turn = n;
        s->tmask |= b;
        return;
    }
    s->won += s->side[s->winner];
    s->left -= 1;
    s->order = s->winner;
    s->turn = 0;
    s->led = s->best = s->winner = -1;
    s->tmask = 0;
}

/* -- the Python type ---------------------------------------------------------- */

/* _csearch.c includes this file for the search above (EUCHRE_SOLVER_CORE_ONLY):
 * its Core structs are made there without the Python type and module below. */
#ifndef EUCHRE_SOLVER_CORE_ONLY

static int enter(Core *s) {
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is in use by another thread");
        return -1;
    }
    s->busy = 1;
    s->oom = 0;
    s->ts = NULL;
    s->release_at = s->release_after ? s->nodes + s->release_after : 0;
    return 0;
}

static int leave(Core *s) {
    if (s->ts) {
        PyEval_RestoreThread(s->ts);
        s->ts = NULL;
    }
    s->release_at = 0;
    s->busy = 0;
    if (s->oom) {
        s->oom = 0;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Core_can_take(Core *s, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    if (k < -100)
        k = -100;
    if (k > 100)
        k = 100;
    if (enter(s) < 0)
        return NULL;
    int r = can(s, (int)k - s->won);
    if (leave(s) < 0)
        return NULL;
    return PyBool_FromLong(r);
}

static PyObject *Core_max_tricks(Core *s, PyObject *Py_UNUSED(ignored)) {
    if (enter(s) < 0)
        return NULL;
    int r = s->won + value(s, -1);
    if (leave(s) < 0)
        return NULL;
    return PyLong_FromLong(r);
}

static PyObject *Core_move_values(Core *s, PyObject *Py_UNUSED(ignored)) {
    if (enter(s) < 0)
        return NULL;
    int pos = s->turn;
    int seat = s->orders[s->order][pos];
    uint64_t hand = s->hands[seat];
    uint64_t cand = pos ? hand & FIELD_MASK[s->led] : 0;
    if (!cand)
        cand = hand;
    uint64_t rem = remaining(s);
    int turn = s->turn, led = s->led, best = s->best, winner = s->winner;
    uint64_t tmask = s->tmask;
    int order = s->order, left = s->left, won = s->won;
    int ids[16], vals[16];
    int n = 0, v = 0;
    uint64_t prev = 0, m = cand;
    while (m && !s->oom) {
        int c = msb(m);
        uint64_t b = 1ULL << c;
        m ^= b;
        if (prev && !(rem & (prev - (b << 1)))) {
            ids[n] = s->ext[c]; /* equivalent to the card above it */
            vals[n++] = v;
            prev = b;
            continue;
        }
        prev = b;
        play(s, seat, c);
        v = s->won + value(s, n ? v - s->won : -1);
        ids[n] = s->ext[c];
        vals[n++] = v;
        s->hands[seat] = hand;
        s->turn = turn, s->led = led, s->best = best, s->winner = winner, s->tmask = tmask;
        s->order = order, s->left = left, s->won = won;
    }
    if (leave(s) < 0)
        return NULL;
    PyObject *out = PyDict_New();
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *k = PyLong_FromLong(ids[i]);
        PyObject *val = PyLong_FromLong(vals[i]);
        if (!k || !val || PyDict_SetItem(out, k, val) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(val);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(val);
    }
    return out;
}

static PyObject *Core_get_nodes(Core *s, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(s->nodes);
}

static void Core_dealloc(Core *s) {
    free(s->ent);
    free(s->slot);
    PyTypeObject *tp = Py_TYPE(s);
    tp->tp_free((PyObject *)s);
    Py_DECREF(tp);
}

static PyMethodDef Core_methods[] = {
    {"can_take", (PyCFunction)Core_can_take, METH_O,
     "Whether the maker's side can make its total at least k tricks."},
    {"max_tricks", (PyCFunction)Core_max_tricks, METH_NOARGS,
     "The maker side's total tricks (already won included) with best play."},
    {"move_values", (PyCFunction)Core_move_values, METH_NOARGS,
     "For each legal card id of the seat to act: the maker side's total tricks after it."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "Search nodes visited so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Core_slots[] = {
    {Py_tp_dealloc, Core_dealloc},
    {Py_tp_methods, Core_methods},
    {Py_tp_getset, Core_getset},
    {Py_tp_doc, "One position of the double-dummy solver (made by euchre._csolver.core)."},
    {0, NULL},
};

static PyType_Spec Core_spec = {
    .name = "euchre._csolver.Core",
    .basicsize = sizeof(Core),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = Core_slots,
};

typedef struct {
    PyTypeObject *core_type;
} ModState;

static int as_mask(PyObject *o, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (v >> 33) {
        PyErr_SetString(PyExc_ValueError, "a hand mask has bits beyond the 33 card ids");
        return -1;
    }
    *out = v;
    return 0;
}

static int as_int(PyObject *o, long lo, long hi, const char *what, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* core(numbering, n, out, side, hands, trick, leader, tricks, played, release_after) */
static PyObject *mod_core(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "core() takes 10 arguments");
        return NULL;
    }
    ModState *st = PyModule_GetState(module);
    char *num;
    Py_ssize_t numlen;
    if (PyBytes_AsStringAndSize(args[0], &num, &numlen) < 0)
        return NULL;
    if (numlen != 33) {
        PyErr_SetString(PyExc_ValueError, "the numbering has 33 bytes, one a card id");
        return NULL;
    }
    int n, out, sidemask, leader, played;
    if (as_int(args[1], 2, 4, "seat count", &n) < 0 || as_int(args[2], 0, 15, "out", &out) < 0 ||
        as_int(args[3], 0, 15, "side", &sidemask) < 0 ||
        as_int(args[6], 0, 3, "leader", &leader) < 0 ||
        as_int(args[8], 0, 5, "tricks played", &played) < 0)
        return NULL;
    PyObject *hands = args[4], *trick = args[5], *tricks = args[7];
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != n || !PyList_Check(tricks) ||
        PyList_GET_SIZE(tricks) != n || !PyList_Check(trick)) {
        PyErr_SetString(PyExc_TypeError, "hands and tricks: a list per seat; trick: a list");
        return NULL;
    }
    Core *s = PyObject_New(Core, st->core_type);
    if (!s)
        return NULL;
    /* fields after the header: zero, then fill */
    memset((char *)s + sizeof(PyObject), 0, sizeof(Core) - sizeof(PyObject));
    for (int i = 0; i < 4 * W; i++)
        s->ext[i] = -1;
    for (int c = 0; c < 33; c++) {
        unsigned char v = (unsigned char)num[c];
        if (v < 4 * W)
            s->ext[v] = c;
    }
    int active[4], nact = 0;
    for (int t = 0; t < n; t++) {
        if (out >> t & 1)
            continue;
        active[nact++] = t;
        s->side[t] = sidemask >> t & 1;
        uint64_t ids;
        if (as_mask(PyList_GET_ITEM(hands, t), &ids) < 0)
            goto fail;
        uint64_t m = 0;
        while (ids) {
            int c = lsb(ids);
            ids &= ids - 1;
            unsigned char v = (unsigned char)num[c];
            if (v >= 4 * W) {
                PyErr_SetString(PyExc_ValueError, "a card outside the numbering");
                goto fail;
            }
            m |= 1ULL << v;
        }
        s->hands[t] = m;
        int k;
        if (as_int(PyList_GET_ITEM(tricks, t), 0, 5, "tricks", &k) < 0)
            goto fail;
        if (s->side[t])
            s->won += k;
    }
    if (nact < 2 || (out >> leader & 1) || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "the leader must be one of two or more active seats");
        goto fail;
    }
    s->nact = nact;
    for (int i = 0; i < nact; i++)
        for (int j = 0; j < nact; j++)
            s->orders[active[i]][j] = active[(i + j) % nact];
    s->left = 5 - played;
    s->order = leader;
    Py_ssize_t tn = PyList_GET_SIZE(trick);
    if (tn >= nact) {
        PyErr_SetString(PyExc_ValueError, "the trick under way is complete");
        goto fail;
    }
    s->turn = (int)tn;
    s->led = s->best = s->winner = -1;
    for (Py_ssize_t i = 0; i < tn; i++) {
        int id;
        if (as_int(PyList_GET_ITEM(trick, i), 0, 32, "card id", &id) < 0)
            goto fail;
        int c = (unsigned char)num[id];
        if (c >= 4 * W) {
            PyErr_SetString(PyExc_ValueError, "a card outside the numbering");
            goto fail;
        }
        s->tmask |= 1ULL << c;
        if (i == 0)
            s->led = SUIT(c);
        if (c > s->best && (SUIT(c) == s->led || c >= TRUMP_BASE)) {
            s->best = c;
            s->winner = s->orders[leader][i];
        }
    }
    s->release_after = PyLong_AsUnsignedLongLong(args[9]);
    if (s->release_after == (uint64_t)-1 && PyErr_Occurred())
        goto fail;
    if (tt_grow(s) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

static PyMethodDef mod_methods[] = {
    {"core", (PyCFunction)(void (*)(void))mod_core, METH_FASTCALL,
     "core(numbering, n, out, side, hands, trick, leader, tricks, played, release_after)\n\n"
     "A solver for one play-phase position: numbering (33 bytes: each card id's\n"
     "solver number, 255 for none), the seat count, the sitting-out and maker-side\n"
     "seat masks, the hands (card-id masks), the trick under way (card ids), its\n"
     "leader, the tricks won by each seat, the number of tricks played, and the\n"
     "nodes of one call after which the search releases the GIL (0: never)."},
    {NULL, NULL, 0, NULL},
};

static int mod_exec(PyObject *module) {
    ModState *st = PyModule_GetState(module);
    st->core_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Core_spec, NULL);
    if (!st->core_type)
        return -1;
    if (PyModule_AddObjectRef(module, "Core", (PyObject *)st->core_type) < 0)
        return -1;
    return 0;
}

static int mod_traverse(PyObject *module, visitproc visit, void *arg) {
    ModState *st = PyModule_GetState(module);
    Py_VISIT(st->core_type);
    return 0;
}

static int mod_clear(PyObject *module) {
    ModState *st = PyModule_GetState(module);
    Py_CLEAR(st->core_type);
    return 0;
}

static PyModuleDef_Slot mod_slots[] = {
    {Py_mod_exec, mod_exec},
    {0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "euchre._csolver",
    .m_doc = "The double-dummy solver of euchre.solver, compiled (see solver.py).",
    .m_size = sizeof(ModState),
    .m_methods = mod_methods,
    .m_slots = mod_slots,
    .m_traverse = mod_traverse,
    .m_clear = mod_clear,
};

PyMODINIT_FUNC PyInit__csolver(void) { return PyModuleDef_Init(&moduledef); }

#endif /* EUCHRE_SOLVER_CORE_ONLY */
