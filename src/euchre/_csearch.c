/* The search bot's hot path, compiled (module euchre._csearch; used by
 * euchre.bots.search through euchre.bots.compiled).
 *
 * - _core.h: the hand's state machine (a port of hand.FastHand);
 * - _rule.h: the rule bot's policy (a port of bots/rule.py), read off a hand
 *   as the acting seat's view shows it, as the rollouts and the inference use it;
 * - _solver.c: the double-dummy solver (the same source as euchre._csolver);
 * - here: the search's sampling of the unseen cards (view._Sampler), the
 *   inference weights (SearchBot.weight, SearchBot.rule_keep), the
 *   resampling (SearchBot._samples), the rollouts (search.finish_hand) and
 *   the solved card play -- one call per batch of deals, the GIL released.
 *
 * The Python code stays the readable reference (and the path used without a
 * compiler, or with EUCHRE_PURE=1). The deterministic parts -- states, legal
 * actions, the rule bot's choices, weights, rollouts, solved values -- are
 * held to it exactly by tests/test_csearch.py; the random draws come from
 * this module's own generator (xoshiro256**), so a compiled search samples
 * other deals than the pure one from the same seed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EUCHRE_SOLVER_CORE_ONLY
#include "_solver.c"

#include "_core.h"
#include "_rng.h"
#include "_rule.h"

/* --- helpers for arguments ---------------------------------------------------- */

static int cs_mask(PyObject *o, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (v >> 33) {
        PyErr_SetString(PyExc_ValueError, "a card mask has bits beyond the 33 card ids");
        return -1;
    }
    *out = v;
    return 0;
}

static int cs_int(PyObject *o, long lo, long hi, const char *what, int *out) {
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

static int cs_code(PyObject *o, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (v >> 37) {
        PyErr_SetString(PyExc_ValueError, "not an action code");
        return -1;
    }
    *out = v;
    return 0;
}

/* rules: (seats, deck, flags, lone_defender_points[, make_shifts]); make_shifts,
 * a float per seat, is the model's shift of each seat's making threshold
 * (RuleBot.seat_shifts), 0 for every seat when absent */
static int cs_rules(PyObject *o, Rules *r) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) < 4 || PyTuple_GET_SIZE(o) > 5) {
        PyErr_SetString(PyExc_TypeError,
                        "rules: (seats, deck, flags, lone_defender_points[, make_shifts])");
        return -1;
    }
    int n, deck, flags, ldp;
    if (cs_int(PyTuple_GET_ITEM(o, 0), 3, 4, "seats", &n) < 0 ||
        cs_int(PyTuple_GET_ITEM(o, 1), 24, 32, "deck", &deck) < 0 ||
        cs_int(PyTuple_GET_ITEM(o, 2), 0, 255, "flags", &flags) < 0 ||
        cs_int(PyTuple_GET_ITEM(o, 3), 0, 100, "lone_defender_points", &ldp) < 0)
        return -1;
    if (deck != 24 && deck != 25 && deck != 32) {
        PyErr_SetString(PyExc_ValueError, "deck: 24, 25 or 32");
        return -1;
    }
    r->n = n;
    r->cut = n == 3;
    r->deck = deck;
    r->flags = flags;
    r->lone_defender_points = ldp;
    for (int s = 0; s < 4; s++)
        r->make_shift[s] = 0.0;
    if (PyTuple_GET_SIZE(o) == 5) {
        PyObject *sh = PyTuple_GET_ITEM(o, 4);
        if (!PyTuple_Check(sh) || PyTuple_GET_SIZE(sh) != n) {
            PyErr_SetString(PyExc_TypeError, "make_shifts: a float per seat, as a tuple");
            return -1;
        }
        for (int s = 0; s < n; s++) {
            double v = PyFloat_AsDouble(PyTuple_GET_ITEM(sh, s));
            if (v == -1.0 && PyErr_Occurred())
                return -1;
            if (!(v >= -10.0 && v <= 10.0)) {
                PyErr_SetString(PyExc_ValueError, "make_shifts: each from -10 to 10");
                return -1;
            }
            r->make_shift[s] = v;
        }
    }
    return 0;
}

/* --- the Python type Hand (tests and the search's entry points) ---------------- */

typedef struct {
    PyObject_HEAD
    Hand h;
} HandObject;

typedef struct {
    PyTypeObject *hand_type;
    PyTypeObject *search_type;
} ModState;

static PyObject *hand_wrap(PyTypeObject *tp, const Hand *h) {
    HandObject *o = PyObject_New(HandObject, tp);
    if (!o)
        return NULL;
    o->h = *h;
    return (PyObject *)o;
}

/* Hand(rules, dealer, hands, dummy, kitty) */
static PyObject *Hand_new(PyTypeObject *tp, PyObject *args, PyObject *kwds) {
    PyObject *rules, *hands, *kitty;
    int dealer;
    unsigned long long dummy;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Hand() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OiOKO", &rules, &dealer, &hands, &dummy, &kitty))
        return NULL;
    Rules r;
    if (cs_rules(rules, &r) < 0)
        return NULL;
    if (dealer < 0 || dealer >= r.n) {
        PyErr_SetString(PyExc_ValueError, "no such dealer");
        return NULL;
    }
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != r.n || !PyList_Check(kitty) ||
        PyList_GET_SIZE(kitty) < 1 || PyList_GET_SIZE(kitty) > 16) {
        PyErr_SetString(PyExc_TypeError, "hands: a mask per seat; kitty: 1 to 16 card ids");
        return NULL;
    }
    uint64_t hm[4] = {0, 0, 0, 0};
    for (int s = 0; s < r.n; s++)
        if (cs_mask(PyList_GET_ITEM(hands, s), &hm[s]) < 0)
            return NULL;
    int8_t kt[16];
    int nk = (int)PyList_GET_SIZE(kitty);
    for (int i = 0; i < nk; i++) {
        int c;
        if (cs_int(PyList_GET_ITEM(kitty, i), 0, 32, "card id", &c) < 0)
            return NULL;
        kt[i] = (int8_t)c;
    }
    Hand h;
    ch_new(&h, &r, dealer, hm, dummy, kt, nk);
    return hand_wrap(tp, &h);
}

static PyObject *Hand_step(HandObject *self, PyObject *arg) {
    uint64_t code;
    if (cs_code(arg, &code) < 0)
        return NULL;
    if (!ch_is_legal(&self->h, code, 0)) {
        PyErr_SetString(PyExc_ValueError, "illegal action code");
        return NULL;
    }
    ch_step(&self->h, code);
    Py_RETURN_NONE;
}

static PyObject *Hand_step_recorded(HandObject *self, PyObject *arg) {
    uint64_t code;
    if (cs_code(arg, &code) < 0)
        return NULL;
    return PyBool_FromLong(ch_step_recorded(&self->h, code) == 0);
}

static PyObject *Hand_legal_codes(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    uint64_t codes[256];
    int n = ch_legal(&self->h, codes);
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(codes[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *Hand_copy(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    return hand_wrap(Py_TYPE(self), &self->h);
}

static PyObject *mask_list(const uint64_t *m, int n) {
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(m[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *small_list(const int8_t *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(v[i]));
    return out;
}

/* The state as FastHand holds it, for comparisons: a dict of the FastHand
 * attribute names (hands, dummy, phase, turn, ...; picked as None/False/True). */
static PyObject *Hand_state(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    const Hand *h = &self->h;
    int n = h->n;
    PyObject *calls = PyList_New(h->ncalls);
    if (!calls)
        return NULL;
    for (int i = 0; i < h->ncalls; i++)
        PyList_SET_ITEM(calls, i,
                        Py_BuildValue("(iK)", h->call_seat[i], (unsigned long long)h->call_code[i]));
    PyObject *log = PyList_New(h->nlog);
    if (!log) {
        Py_DECREF(calls);
        return NULL;
    }
    for (int i = 0; i < h->nlog; i++)
        PyList_SET_ITEM(log, i,
                        Py_BuildValue("(iNi)", h->log[i].leader,
                                      small_list(h->log[i].cards, h->log[i].ncards),
                                      h->log[i].winner));
    PyObject *picked = h->picked < 0 ? Py_None : h->picked ? Py_True : Py_False;
    return Py_BuildValue(
        "{s:N,s:K,s:i,s:i,s:i,s:i,s:i,s:O,s:i,s:i,s:K,s:O,s:N,s:i,s:N,s:i,s:N,s:i,s:N,s:N,s:N,"
        "s:N,s:O,s:i,s:N,s:N}",
        "hands", mask_list(h->hands, n), "dummy", (unsigned long long)h->dummy, "phase",
        h->phase, "turn", h->turn, "trump", h->trump, "maker", h->maker, "upsuit", h->upsuit,
        "picked", picked, "may_decline", h->may_decline, "dealer_discard", h->dealer_discard,
        "maker_discards", (unsigned long long)h->maker_discards, "merged",
        h->merged ? Py_True : Py_False, "alone", small_list(h->alone, h->nalone), "out", h->out,
        "ask", small_list(h->ask, h->nask), "leader", h->leader, "trick",
        small_list(h->trick, h->ntrick), "nbid", h->nbid, "tricks", small_list(h->tricks, n),
        "trick_log", log, "calls", calls, "points", small_list(h->points, n), "thrown_in",
        h->thrown_in ? Py_True : Py_False, "winner", h->winner, "kitty",
        small_list(h->kitty, h->nkitty), "deal_hands", mask_list(h->deal_hands, n));
}

static PyObject *Hand_rule_code(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    const Hand *h = &self->h;
    if (h->phase == P_OVER) {
        PyErr_SetString(PyExc_ValueError, "the hand is over");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(cr_choose(h, h->turn));
}

static PyObject *Hand_get_phase(HandObject *self, void *Py_UNUSED(c)) {
    return PyLong_FromLong(self->h.phase);
}

static PyObject *Hand_get_turn(HandObject *self, void *Py_UNUSED(c)) {
    return PyLong_FromLong(self->h.turn);
}

static void Hand_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *Hand_finish(HandObject *self, PyObject *arg);
static PyObject *Hand_weight(HandObject *self, PyObject *args);
static PyObject *Hand_rule_keep(HandObject *self, PyObject *Py_UNUSED(ignored));
static PyObject *Hand_move_tricks(HandObject *self, PyObject *arg);
static PyObject *Hand_best_response(HandObject *self, PyObject *arg);
static PyObject *Hand_own_card(HandObject *self, PyObject *args);

static PyMethodDef Hand_methods[] = {
    {"step", (PyCFunction)Hand_step, METH_O, "Apply a legal action code (ValueError if illegal)."},
    {"step_recorded", (PyCFunction)Hand_step_recorded, METH_O,
     "Apply a code as history writes it, if legal; whether it was."},
    {"legal_codes", (PyCFunction)Hand_legal_codes, METH_NOARGS, "The legal action codes."},
    {"copy", (PyCFunction)Hand_copy, METH_NOARGS, "An independent copy."},
    {"state", (PyCFunction)Hand_state, METH_NOARGS, "The state as a dict of FastHand's names."},
    {"rule_code", (PyCFunction)Hand_rule_code, METH_NOARGS,
     "The rule bot's action code for the seat to act, from what that seat sees."},
    {"finish", (PyCFunction)Hand_finish, METH_O,
     "search.finish_hand with rule play: (points, maker side's tricks) or None; "
     "the argument is the deciding seat (-1: none). The hand is not changed."},
    {"weight", (PyCFunction)Hand_weight, METH_VARARGS,
     "SearchBot.weight(seat, infer_plays, floor) on this (full) hand."},
    {"rule_keep", (PyCFunction)Hand_rule_keep, METH_NOARGS,
     "SearchBot.rule_keep: (hand, probability)."},
    {"move_tricks", (PyCFunction)Hand_move_tricks, METH_O,
     "SearchBot._move_tricks: the maker side's tricks after each of a list of codes."},
    {"best_response", (PyCFunction)Hand_best_response, METH_O,
     "SearchBot._best_response: the maker side's tricks after each of a list of codes, "
     "the side to act choosing its cards seeing every card, the others the rule bot's."},
    {"own_card", (PyCFunction)Hand_own_card, METH_VARARGS,
     "search.own_card for the seat to act in the play, own_card(deals, seed): the card's "
     "code, or None if no deal could be drawn."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Hand_getset[] = {
    {"phase", (getter)Hand_get_phase, NULL, "The phase (hand.Phase value).", NULL},
    {"turn", (getter)Hand_get_turn, NULL, "The seat to act (-1 when over).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Hand_slots[] = {
    {Py_tp_new, Hand_new},
    {Py_tp_dealloc, Hand_dealloc},
    {Py_tp_methods, Hand_methods},
    {Py_tp_getset, Hand_getset},
    {Py_tp_doc, "Hand(rules, dealer, hands, dummy, kitty): FastHand in C (tests, search)."},
    {0, NULL},
};

static PyType_Spec Hand_spec = {
    .name = "euchre._csearch.Hand",
    .basicsize = sizeof(HandObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Hand_slots,
};

/* --- rule bot functions for tests ---------------------------------------------- */

static PyObject *mod_value(PyObject *m, PyObject *args) {
    unsigned long long hand, dead;
    int t, deck;
    (void)m;
    if (!PyArg_ParseTuple(args, "KiKi", &hand, &t, &dead, &deck))
        return NULL;
    return PyFloat_FromDouble(cr_value(hand, t, dead, deck));
}

static PyObject *mod_best_keep(PyObject *m, PyObject *args) {
    unsigned long long pool, dead;
    int t, n, deck;
    (void)m;
    if (!PyArg_ParseTuple(args, "KiiKi", &pool, &t, &n, &dead, &deck))
        return NULL;
    uint64_t mask;
    double v = cr_best_keep(pool, t, n, dead, deck, &mask);
    return Py_BuildValue("(dK)", v, (unsigned long long)mask);
}

static PyObject *mod_greedy_keep(PyObject *m, PyObject *args) {
    unsigned long long pool;
    int t;
    (void)m;
    if (!PyArg_ParseTuple(args, "Ki", &pool, &t))
        return NULL;
    return PyLong_FromUnsignedLongLong(cr_greedy_keep(pool, t));
}

/* --- rollouts and inference ------------------------------------------------------ */

static int cs_finish_own(Hand *h, int me, int smart, int nsamp, Rng *r);

/* search.finish_hand with play="rule": continue ``h`` (changed) to the end:
 * the rule bot for every seat, greedy_keep for a merging Cutthroat maker,
 * seat ``me`` as a Cutthroat maker always merges. 0 if played out, -1 if
 * thrown in. */
static int cs_finish(Hand *h, int me) { return cs_finish_own(h, me, 0, 0, NULL); }

/* The seats of ``me``'s side as a mask: ``me`` and, in partnership, its partner. */
static int side_mask(const Rules *r, int me) {
    int m = 0;
    for (int t = 0; t < r->n; t++)
        if (t == me || (!r->cut && (t & 1) == (me & 1)))
            m |= 1 << t;
    return m;
}

/* SearchBot.weight: the rule bot's probability of the other seats' past
 * decisions on this deal (stopping below ``floor``); a partner's card plays
 * (partnership) are weighed with ``peps`` instead of the model's epsilon. */
static double cs_weight(const Hand *sample, int seat, int infer_plays, double floor,
                        double peps) {
    int8_t seats[CH_MAX_HISTORY];
    uint64_t codes[CH_MAX_HISTORY];
    int nh = ch_history(sample, seats, codes);
    Hand cur;
    ch_dealt(sample, &cur);
    double w = 1.0;
    for (int i = 0; i < nh; i++) {
        int s = seats[i];
        uint64_t code = codes[i];
        if (s != seat) {
            int kind = (int)(code & 15);
            if (kind == K_PLAY && !infer_plays)
                break;
            if (cur.phase == P_PLAY) {
                uint64_t m = ch_follow_mask(&cur, s);
                if (m & (m - 1)) {
                    double eps = (!cur.cut && (s & 1) == (seat & 1)) ? peps : CR_EPSILON;
                    if (cr_choose(&cur, s) == code)
                        w *= 1.0 - eps;
                    else
                        w *= eps / (ch_popcount(m) - 1);
                }
            } else {
                int nl = ch_nlegal(&cur);
                if (nl > 1) {
                    uint64_t taken = kind == K_KEEP ? (uint64_t)K_MERGE : code;
                    uint64_t chosen = cr_choose(&cur, s);
                    if (chosen == taken)
                        w *= 1.0 - CR_EPSILON;
                    else if (ch_is_legal(&cur, taken, 0))
                        w *= CR_EPSILON / (nl - 1);
                    else
                        w *= 1e-3;
                }
            }
            if (w < floor)
                return w;
        }
        ch_step(&cur, code);
    }
    return w;
}

/* SearchBot.rule_keep: the sample with its maker's keep replaced by the rule
 * bot's (into ``out``) and its probability. */
static double cs_rule_keep(const Hand *sample, Hand *out) {
    int maker = sample->maker;
    uint64_t kept = 0;
    for (int i = 0; i < sample->ncalls; i++)
        if (sample->call_seat[i] == maker && (sample->call_code[i] & 15) == K_KEEP)
            kept = sample->call_code[i] >> 4;
    double eps = CR_EPSILON;
    uint64_t mine = cr_keep_mask(kept | sample->maker_discards, sample->trump,
                                 sample->picked == 1, sample->up, sample->r.deck);
    *out = *sample;
    if (mine == kept)
        return 1.0 - eps;
    int8_t seats[CH_MAX_HISTORY];
    uint64_t codes[CH_MAX_HISTORY];
    int nh = ch_history(sample, seats, codes);
    Hand cur;
    ch_dealt(sample, &cur);
    for (int i = 0; i < nh; i++) {
        uint64_t code = codes[i];
        if (seats[i] == maker && (code & 15) == K_KEEP)
            code = K_KEEP | mine << 4;
        if (ch_step_recorded(&cur, code) < 0)
            return eps / 251;
    }
    *out = cur;
    return 1.0 - eps;
}

static PyObject *Hand_finish(HandObject *self, PyObject *arg) {
    int me;
    if (cs_int(arg, -1, 3, "seat", &me) < 0)
        return NULL;
    Hand h = self->h;
    if (cs_finish(&h, me) < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(Ni)", small_list(h.points, h.n), ch_side_tricks(&h));
}

static PyObject *Hand_weight(HandObject *self, PyObject *args) {
    int seat, infer;
    double floor, peps = CR_EPSILON;
    if (!PyArg_ParseTuple(args, "ipd|d", &seat, &infer, &floor, &peps))
        return NULL;
    return PyFloat_FromDouble(cs_weight(&self->h, seat, infer, floor, peps));
}

static PyObject *Hand_rule_keep(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    Hand out;
    double p = cs_rule_keep(&self->h, &out);
    return Py_BuildValue("(Nd)", hand_wrap(Py_TYPE(self), &out), p);
}

/* --- the generator (_rng.h) ------------------------------------------------------ */

static void rng_shuffle(Rng *r, int8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1));
        int8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* --- what a seat knows, and dealing out the rest (view._Sampler) ----------------- */

#define MAX_UNITS 40
#define MAX_SLOTS 8
enum { SLOT_HAND = 0, SLOT_DISCARD = 4, SLOT_MAKER_DISCARDS = 5, SLOT_DUMMY = 6, SLOT_KITTY = 7 };

typedef struct {
    Rules r;
    int seat, dealer, phase, up, picked, merged, maker, trump;
    uint64_t hand, dummy;
    int8_t discards[8];
    int ndiscards;
    int8_t hist_seat[CH_MAX_HISTORY];
    int64_t hist_code[CH_MAX_HISTORY]; /* -1: a pick-up hidden from the seat, -2: a keep */
    int nhist;
    uint64_t played[4];
    /* worked out once */
    int nslots;
    int slot_kind[MAX_SLOTS]; /* SLOT_HAND + seat, or another SLOT_* */
    int nunits;
    uint64_t unit_mask[MAX_UNITS];
    int8_t unit_slot[MAX_UNITS];
    int8_t cards[MAX_UNITS];
} Known;

/* _Sampler.__init__: the slots and the places the unseen cards go. 0, or -1
 * with a message in ``err``. ``void_mask``: per seat, the cards it cannot
 * hold; then (index ``n``) the cards no other place (a discard, the dummy,
 * the kitty) can hold. */
static int known_prepare(Known *k, const uint64_t *void_mask, const char **err) {
    const Rules *r = &k->r;
    int n = r->n, me = k->seat;
    uint64_t deck = CH_DECK[r->deck];
    int up = k->up;
    uint64_t all_played = 0;
    for (int s = 0; s < n; s++)
        all_played |= k->played[s];
    uint64_t own = 0;
    for (int i = 0; i < k->ndiscards; i++)
        own |= 1ULL << k->discards[i];
    uint64_t known = k->hand | own | k->dummy | all_played | 1ULL << up;
    uint64_t unknown = deck & ~known;
    int up_hidden = k->picked == 1 && me != k->dealer && !(all_played >> up & 1);
    if (up_hidden)
        unknown |= 1ULL << up;
    int kinds[MAX_SLOTS], sizes[MAX_SLOTS];
    uint64_t masks[MAX_SLOTS];
    int ns = 0;
    for (int s = 0; s < n; s++) {
        if (s == me)
            continue;
        kinds[ns] = SLOT_HAND + s;
        sizes[ns] = 5 - ch_popcount(k->played[s]);
        masks[ns++] = deck & ~void_mask[s];
    }
    uint64_t elsewhere = deck & ~void_mask[n];
    if (k->picked == 1 && me != k->dealer) {
        kinds[ns] = SLOT_DISCARD;
        sizes[ns] = 1;
        masks[ns++] = elsewhere;
    }
    if (k->merged && me != k->maker) {
        kinds[ns] = SLOT_MAKER_DISCARDS;
        sizes[ns] = 5;
        masks[ns++] = elsewhere;
    }
    if (r->cut && !k->merged && !k->dummy) {
        kinds[ns] = SLOT_DUMMY;
        sizes[ns] = 5;
        masks[ns++] = elsewhere;
    }
    kinds[ns] = SLOT_KITTY;
    sizes[ns] = r->deck - 5 * (n + (r->cut ? 1 : 0)) - 1;
    masks[ns++] = elsewhere;
    int nu = 0;
    for (int i = 0; i < ns; i++) {
        int kind = kinds[i];
        int up_slot = kind == SLOT_HAND + k->dealer ||
                      (kind == SLOT_DISCARD && (r->flags & R_DISCARD_UP)) ||
                      (kind == SLOT_MAKER_DISCARDS && k->merged && k->maker == k->dealer);
        uint64_t m = masks[i];
        if (up_hidden && !up_slot)
            m &= ~(1ULL << up);
        for (int j = 0; j < sizes[i]; j++) {
            if (nu >= MAX_UNITS) {
                *err = "too many unseen places";
                return -1;
            }
            k->unit_mask[nu] = m;
            k->unit_slot[nu++] = (int8_t)i;
        }
        k->slot_kind[i] = kind;
    }
    k->nslots = ns;
    k->nunits = nu;
    int nc = 0;
    uint64_t u = unknown;
    while (u) {
        if (nc >= MAX_UNITS) {
            *err = "too many unseen cards";
            return -1;
        }
        k->cards[nc++] = (int8_t)ch_lsb(u);
        u &= u - 1;
    }
    if (nc != nu) {
        *err = "the unseen cards do not fill the unseen places";
        return -1;
    }
    return 0;
}

/* _match: a random perfect matching of the cards to the units (Kuhn's
 * algorithm on a shuffled order); 0 if found (``out``: a card per unit). */
typedef struct {
    const Known *k;
    int8_t adj[MAX_UNITS][MAX_UNITS];
    int8_t nadj[MAX_UNITS];
    int8_t owner[MAX_UNITS]; /* card index per unit */
    uint8_t seen[MAX_UNITS];
} Matcher;

static int try_card(Matcher *m, int ci) {
    for (int i = 0; i < m->nadj[ci]; i++) {
        int u = m->adj[ci][i];
        if (m->seen[u])
            continue;
        m->seen[u] = 1;
        if (m->owner[u] < 0 || try_card(m, m->owner[u])) {
            m->owner[u] = (int8_t)ci;
            return 1;
        }
    }
    return 0;
}

static int match_cards(const Known *k, Rng *r, int8_t *out) {
    Matcher m;
    int n = k->nunits;
    int8_t order[MAX_UNITS];
    for (int i = 0; i < n; i++)
        order[i] = (int8_t)i; /* card indices */
    rng_shuffle(r, order, n);
    for (int i = 0; i < n; i++) {
        int ci = order[i], c = k->cards[ci], na = 0;
        for (int u = 0; u < n; u++)
            if (k->unit_mask[u] >> c & 1)
                m.adj[ci][na++] = (int8_t)u;
        rng_shuffle(r, m.adj[ci], na);
        m.nadj[ci] = (int8_t)na;
        m.owner[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        memset(m.seen, 0, sizeof m.seen);
        if (!try_card(&m, order[i]))
            return -1;
    }
    for (int u = 0; u < n; u++)
        out[u] = k->cards[m.owner[u]];
    return 0;
}

#define SAMPLER_TRIES 12

/* _Sampler.__call__: a deal consistent with what the seat knows, replayed
 * to the present (``out``). 0, or -1 if none is consistent / it does not
 * replay (a bug). */
static int known_draw(const Known *k, Rng *r, Hand *out) {
    const Rules *rl = &k->r;
    int n = rl->n, me = k->seat, up = k->up, maker = k->maker, dealer = k->dealer;
    int nu = k->nunits;
    int8_t order[MAX_UNITS];
    memcpy(order, k->cards, (size_t)nu);
    int ok = 0;
    for (int t = 0; t < SAMPLER_TRIES && !ok; t++) {
        rng_shuffle(r, order, nu);
        ok = 1;
        for (int u = 0; u < nu; u++)
            if (!(k->unit_mask[u] >> order[u] & 1)) {
                ok = 0;
                break;
            }
    }
    if (!ok && match_cards(k, r, order) < 0)
        return -1;
    uint64_t filled[MAX_SLOTS] = {0};
    int8_t kitty[16];
    int nk = 1;
    kitty[0] = (int8_t)up;
    for (int u = 0; u < nu; u++) {
        int sl = k->unit_slot[u];
        filled[sl] |= 1ULL << order[u];
        if (k->slot_kind[sl] == SLOT_KITTY && nk < 16)
            kitty[nk++] = order[u];
    }
    uint64_t cur[4] = {0, 0, 0, 0}, fdiscard = 0, fmaker = 0, fdummy = 0;
    int has_fdummy = 0;
    for (int i = 0; i < k->nslots; i++) {
        int kind = k->slot_kind[i];
        if (kind < SLOT_DISCARD)
            cur[kind - SLOT_HAND] = filled[i];
        else if (kind == SLOT_DISCARD)
            fdiscard = filled[i];
        else if (kind == SLOT_MAKER_DISCARDS)
            fmaker = filled[i];
        else if (kind == SLOT_DUMMY) {
            fdummy = filled[i];
            has_fdummy = 1;
        }
    }
    cur[me] = k->hand;
    int x = -1;
    if (k->picked == 1)
        x = me == dealer ? k->discards[0] : ch_lsb(fdiscard);
    uint64_t mdisc = 0;
    if (k->merged && maker >= 0) {
        if (me == maker) {
            int from = (me == dealer && k->picked == 1) ? 1 : 0;
            for (int i = from; i < k->ndiscards; i++)
                mdisc |= 1ULL << k->discards[i];
        } else {
            mdisc = fmaker;
        }
    }
    uint64_t orig[4] = {0, 0, 0, 0};
    for (int s = 0; s < n; s++)
        orig[s] = cur[s] | k->played[s];
    uint64_t kept_mask = (k->merged && maker >= 0) ? orig[maker] : 0;
    uint64_t dummy_mask = 0;
    if (rl->cut) {
        if (k->merged && maker >= 0) {
            if (me == maker) {
                dummy_mask = k->dummy;
            } else {
                uint64_t pool = orig[maker] | mdisc;
                if (k->picked == 1 && maker == dealer)
                    pool &= ~(1ULL << up);
                int8_t ch[16];
                int nc = 0;
                while (pool && nc < 16) {
                    ch[nc++] = (int8_t)ch_lsb(pool);
                    pool &= pool - 1;
                }
                /* five of them, uniformly (a partial Fisher-Yates) */
                for (int i = 0; i < 5 && i < nc; i++) {
                    int j = i + (int)rng_below(r, (uint32_t)(nc - i));
                    int8_t t = ch[i];
                    ch[i] = ch[j];
                    ch[j] = t;
                    dummy_mask |= 1ULL << ch[i];
                }
            }
            orig[maker] = (orig[maker] | mdisc) & ~dummy_mask;
        } else {
            dummy_mask = has_fdummy ? fdummy : k->dummy;
        }
    }
    if (k->picked == 1)
        orig[dealer] = (orig[dealer] | 1ULL << x) & ~(1ULL << up);
    ch_new(out, rl, dealer, orig, dummy_mask, kitty, nk);
    for (int i = 0; i < k->nhist; i++) {
        int64_t code = k->hist_code[i];
        uint64_t c;
        if (code == -1)
            c = K_PICKUP | (uint64_t)x << 4;
        else if (code == -2)
            c = K_KEEP | kept_mask << 4;
        else
            c = (uint64_t)code;
        if (out->turn != k->hist_seat[i] || ch_step_recorded(out, c) < 0)
            return -2;
    }
    if (k->phase == P_KEEP)
        ch_step(out, K_MERGE);
    return 0;
}

/* --- weighed samples (SearchBot._samples) ------------------------------------------ */

#define WEIGHT_FLOOR 1e-5 /* search._FLOOR */

typedef struct {
    Hand h;
    double w;
} Sample;

/* ``n_draw`` = k x oversample deals drawn and weighed, then k resampled by
 * weight (systematic resampling); into ``out`` (room for n_draw), returns
 * the number listed, or -1 (no consistent deal) / -2 (a bug: a sampled deal
 * does not replay). */
static int weighed_samples(const Known *kn, Rng *r, int k, int oversample, int infer_plays,
                           double peps, Sample *draws, Sample *out) {
    int n = k * (oversample > 1 ? oversample : 1);
    int rekeep = kn->merged && kn->maker >= 0 && kn->maker != kn->seat;
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        Hand st;
        int e = known_draw(kn, r, &st);
        if (e < 0)
            return e;
        double f = 1.0;
        if (rekeep)
            f = cs_rule_keep(&st, &draws[i].h);
        else
            draws[i].h = st;
        draws[i].w = f * cs_weight(&draws[i].h, kn->seat, infer_plays, WEIGHT_FLOOR, peps);
    }
    for (int i = 0; i < n; i++)
        total += draws[i].w;
    if (total <= 0) {
        for (int i = 0; i < k; i++) {
            out[i].h = draws[i].h;
            out[i].w = 1.0 / k;
        }
        return k;
    }
    if (n == k) {
        for (int i = 0; i < n; i++) {
            out[i].h = draws[i].h;
            out[i].w = draws[i].w / total;
        }
        return n;
    }
    double step = total / k;
    double mark = rng_unit(r) * step;
    double acc = 0.0;
    int taken = 0, m = 0;
    for (int j = 0; j < n; j++) {
        acc += draws[j].w;
        int c = 0;
        while (mark < acc && taken < k) {
            c++;
            taken++;
            mark += step;
        }
        if (c) {
            out[m].h = draws[j].h;
            out[m].w = c; /* divided by taken below */
            m++;
        }
    }
    for (int i = 0; i < m; i++)
        out[i].w = out[i].w / taken;
    return m;
}

/* --- the solved card play (SearchBot._move_tricks) -------------------------------- */

static uint8_t NUMBERING[4][33]; /* solver.py _numbering: each card id's solver number, 255: none */

static void build_numbering(void) {
    for (int t = 0; t < 4; t++) {
        memset(NUMBERING[t], 255, 33);
        int fields[4], nf = 0;
        for (int s = 0; s < 4; s++)
            if (s != t)
                fields[nf++] = s;
        fields[nf++] = t;
        for (int f = 0; f < 4; f++) {
            int suit = fields[f];
            int ids[16], k = 0;
            for (int c = 0; c < 33; c++)
                if (CH_EFF[t][c] == suit)
                    ids[k++] = c;
            /* by power in that suit, lowest first (powers differ within a suit) */
            for (int a = 1; a < k; a++)
                for (int b = a; b > 0 && CH_POWER[t][suit][ids[b]] < CH_POWER[t][suit][ids[b - 1]];
                     b--) {
                    int x = ids[b];
                    ids[b] = ids[b - 1];
                    ids[b - 1] = x;
                }
            for (int j = 0; j < k; j++)
                NUMBERING[t][ids[j]] = (uint8_t)(f * W + j);
        }
    }
}

/* A solver core for the play-phase hand ``h`` (CompiledSolver.__init__ and
 * _csolver.core); 0, or -1 out of memory. Free with core_free. */
static int core_init(Core *s, const Hand *h) {
    memset(s, 0, sizeof *s);
    const uint8_t *num = NUMBERING[h->trump];
    for (int i = 0; i < 4 * W; i++)
        s->ext[i] = -1;
    for (int c = 0; c < 33; c++)
        if (num[c] < 4 * W)
            s->ext[num[c]] = c;
    int active[4], nact = 0, n = h->n;
    for (int t = 0; t < n; t++) {
        if (h->out >> t & 1)
            continue;
        active[nact++] = t;
        s->side[t] = ch_on_maker_side(h, t);
        uint64_t ids = h->hands[t], m = 0;
        while (ids) {
            int c = ch_lsb(ids);
            ids &= ids - 1;
            m |= 1ULL << num[c];
        }
        s->hands[t] = m;
        if (s->side[t])
            s->won += h->tricks[t];
    }
    s->nact = nact;
    for (int i = 0; i < nact; i++)
        for (int j = 0; j < nact; j++)
            s->orders[active[i]][j] = active[(i + j) % nact];
    s->left = 5 - h->nlog;
    s->order = h->leader;
    s->turn = h->ntrick;
    s->led = s->best = s->winner = -1;
    for (int i = 0; i < h->ntrick; i++) {
        int c = num[h->trick[i]];
        s->tmask |= 1ULL << c;
        if (i == 0)
            s->led = SUIT(c);
        if (c > s->best && (SUIT(c) == s->led || c >= TRUMP_BASE)) {
            s->best = c;
            s->winner = s->orders[h->leader][i];
        }
    }
    return tt_grow(s);
}

static void core_free(Core *s) {
    free(s->ent);
    free(s->slot);
}

/* Core_move_values: for each legal card of the seat to act, the maker side's
 * total tricks after it (ids / vals, returns the count; -1 out of memory). */
static int core_move_values(Core *s, int *ids, int *vals) {
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
    int n = 0, v = 0;
    uint64_t prev = 0, m = cand;
    while (m && !s->oom) {
        int c = msb(m);
        uint64_t b = 1ULL << c;
        m ^= b;
        if (prev && !(rem & (prev - (b << 1)))) {
            ids[n] = s->ext[c];
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
    return s->oom ? -1 : n;
}

/* SearchBot._move_tricks: the maker side's total tricks after each of
 * ``codes`` (into ``out``); 1 if solved, 0 if the last trick was played
 * out, -1 out of memory. */
static int move_tricks(const Hand *h, const uint64_t *codes, int ncodes, int *out) {
    if (h->nlog == 4) {
        for (int i = 0; i < ncodes; i++) {
            Hand child = *h;
            ch_step(&child, codes[i]);
            while (child.phase != P_OVER) {
                uint64_t m = ch_follow_mask(&child, child.turn);
                ch_step(&child, K_PLAY | (uint64_t)ch_lsb(m) << 4);
            }
            out[i] = ch_side_tricks(&child);
        }
        return 0;
    }
    Core s;
    if (core_init(&s, h) < 0) {
        core_free(&s);
        return -1;
    }
    int ids[16], vals[16];
    int n = core_move_values(&s, ids, vals);
    core_free(&s);
    if (n < 0)
        return -1;
    for (int i = 0; i < ncodes; i++) {
        int c = (int)(codes[i] >> 4);
        out[i] = -1;
        for (int j = 0; j < n; j++)
            if (ids[j] == c)
                out[i] = vals[j];
    }
    return 1;
}

/* --- the card play against the model (Level.play_best_response) ------------------ */

/* search.best_response_tricks: the maker side's tricks at the end of the
 * play of the full hand ``h`` (changed) when the seats of ``side`` (a mask)
 * choose their cards seeing every card, for the most tricks if ``maxi`` (the
 * maker's side) or the fewest, and the other seats play the rule bot's cards.
 * The rule bot is deterministic, so only the side's turns branch. */
static int br_tricks(Hand *h, int side, int maxi) {
    while (h->phase == P_PLAY) {
        int t = h->turn;
        uint64_t m = ch_follow_mask(h, t);
        if (!(m & (m - 1))) {
            ch_step(h, K_PLAY | (uint64_t)ch_lsb(m) << 4);
            continue;
        }
        if (!(side >> t & 1)) {
            ch_step(h, cr_choose(h, t));
            continue;
        }
        int now = ch_side_tricks(h), left = 5 - h->nlog;
        int best = maxi ? -1 : 6;
        for (; m; m &= m - 1) {
            Hand child = *h;
            ch_step(&child, K_PLAY | (uint64_t)ch_lsb(m) << 4);
            int v = br_tricks(&child, side, maxi);
            if (maxi ? v > best : v < best)
                best = v;
            if (maxi ? best >= now + left : best <= now)
                break; /* nothing can do better */
        }
        return best;
    }
    return ch_side_tricks(h);
}

/* SearchBot._best_response: br_tricks after each of ``codes`` (into ``out``)
 * for the side of the seat to act in ``h``. */
static void best_response(const Hand *h, const uint64_t *codes, int ncodes, int *out) {
    int seat = h->turn;
    int side = side_mask(&h->r, seat), maxi = ch_on_maker_side(h, seat);
    for (int i = 0; i < ncodes; i++) {
        Hand child = *h;
        ch_step(&child, codes[i]);
        out[i] = br_tricks(&child, side, maxi);
    }
}

/* --- the card play as an information-set best response (Level.play_infoset) --------- */

/* The weighed deals of a card play are the worlds the bot may be in. The
 * per-deal best response (br_tricks) lets the bot choose each later card
 * seeing the deal (strategy fusion). Here the bot's later cards may depend
 * only on what it will have seen: worlds in which the same cards were played
 * are one information set, and one card is chosen for all of them, the one
 * with the most utility summed over them (by weight). The other side plays
 * the rule bot's cards (deterministic, so a world's next cards follow from
 * the cards played); a partner plays the per-deal best response of the side
 * (it sees what the bot does not, and the bot cannot choose for it), or with
 * ``partner_rule`` the rule bot's card: then a world's every card but the
 * bot's follows from the cards played, and the bot's choices do not count on
 * a partner who sees the deal. */

typedef struct {
    int me, side, maxi;
    const double *row; /* utility to the bot by the maker side's tricks */
    int nworld;        /* worlds at the root (size of the scratch rows) */
    long budget;       /* world-steps left before the search falls back to per-deal play */
    int partner_rule;  /* a partner plays the rule bot's card, not the per-deal best response */
} IsCtx;

typedef struct {
    Hand h;
    double w;
    int idx;
} World;

/* Continue world ``h`` to the next turn of the bot with a choice, or to the
 * end of the play. */
static void is_advance(IsCtx *c, Hand *h) {
    while (h->phase == P_PLAY) {
        int t = h->turn;
        uint64_t m = ch_follow_mask(h, t);
        c->budget--;
        if (!(m & (m - 1))) {
            ch_step(h, K_PLAY | (uint64_t)ch_lsb(m) << 4);
            continue;
        }
        if (t == c->me)
            return;
        if (c->side >> t & 1 && !c->partner_rule) { /* the partner: the side's per-deal best response */
            uint64_t codes[8];
            int vals[8], nc = 0, b = 0;
            for (; m; m &= m - 1)
                codes[nc++] = K_PLAY | (uint64_t)ch_lsb(m) << 4;
            best_response(h, codes, nc, vals);
            for (int i = 1; i < nc; i++)
                if (c->maxi ? vals[i] > vals[b] : vals[i] < vals[b])
                    b = i;
            ch_step(h, codes[b]);
            continue;
        }
        ch_step(h, cr_choose(h, t));
    }
}

/* Whether two worlds show the bot the same cards played (same public play). */
static int is_same_play(const Hand *a, const Hand *b) {
    if (a->nlog != b->nlog || a->ntrick != b->ntrick)
        return 0;
    for (int i = 0; i < a->nlog; i++)
        if (a->log[i].ncards != b->log[i].ncards ||
            memcmp(a->log[i].cards, b->log[i].cards, (size_t)a->log[i].ncards))
            return 0;
    return !memcmp(a->trick, b->trick, (size_t)a->ntrick);
}

static double is_node(IsCtx *c, World *ws, int n, int *out);

/* Worlds ``ws`` (advanced): the finished ones score, the others are split
 * into the bot's information sets, each decided by is_node. The utility
 * summed by weight; each world's maker-side tricks into ``out[idx]``. -1e300
 * out of memory. */
static double is_split(IsCtx *c, World *ws, int n, int *out) {
    double v = 0.0;
    int rest = 0;
    for (int i = 0; i < n; i++) {
        if (ws[i].h.phase != P_PLAY) {
            int t = ch_side_tricks(&ws[i].h);
            out[ws[i].idx] = t;
            v += ws[i].w * c->row[t];
        } else {
            ws[rest++] = ws[i];
        }
    }
    /* group the rest in place: move each information set to the front */
    int start = 0;
    while (start < rest) {
        int end = start + 1;
        for (int i = start + 1; i < rest; i++)
            if (is_same_play(&ws[start].h, &ws[i].h)) {
                if (i != end) {
                    World tmp = ws[end];
                    ws[end] = ws[i];
                    ws[i] = tmp;
                }
                end++;
            }
        double g = is_node(c, ws + start, end - start, out);
        if (g < -1e299)
            return g;
        v += g;
        start = end;
    }
    return v;
}

/* Worlds ``ws``: one information set at the bot's turn. The best card for
 * them all; its tricks per world into ``out``. */
static double is_node(IsCtx *c, World *ws, int n, int *out) {
    uint64_t m = ch_follow_mask(&ws[0].h, c->me);
    if (c->budget <= 0) { /* out of budget: per-deal best response from here (of the side, or
                             of the bot alone if its partner plays the rule bot's cards) */
        double v = 0.0;
        for (int i = 0; i < n; i++) {
            Hand h = ws[i].h;
            int t = br_tricks(&h, c->partner_rule ? 1 << c->me : c->side, c->maxi);
            out[ws[i].idx] = t;
            v += ws[i].w * c->row[t];
        }
        return v;
    }
    World *kid = malloc(sizeof(World) * (size_t)n);
    int *cur = malloc(sizeof(int) * (size_t)c->nworld);
    int *best_out = malloc(sizeof(int) * (size_t)c->nworld);
    if (!kid || !cur || !best_out) {
        free(kid);
        free(cur);
        free(best_out);
        return -1e300;
    }
    double best = -1e300;
    for (; m; m &= m - 1) {
        uint64_t code = K_PLAY | (uint64_t)ch_lsb(m) << 4;
        for (int i = 0; i < n; i++) {
            kid[i] = ws[i];
            ch_step(&kid[i].h, code);
            is_advance(c, &kid[i].h);
        }
        double v = is_split(c, kid, n, cur);
        if (v < -1e299) {
            best = v;
            break;
        }
        if (v > best + 1e-12) {
            best = v;
            for (int i = 0; i < n; i++)
                best_out[ws[i].idx] = cur[ws[i].idx];
        }
    }
    if (best > -1e299)
        for (int i = 0; i < n; i++)
            out[ws[i].idx] = best_out[ws[i].idx];
    free(kid);
    free(cur);
    free(best_out);
    return best;
}

/* Search.play with a ``row`` (Level.play_infoset): on the weighed deals ``kept[0..m)`` (the
 * seat to act is the bot), the maker side's tricks on each deal after each
 * of ``codes`` when the bot then plays the information-set best response
 * (``row``: its utility by those tricks; a partner as ``partner_rule`` says)
 * -- into ``res[j * 16 + i]``.
 * 0, or -1 out of memory. */
static int infoset_response(const Sample *kept, int m, const uint64_t *codes, int nc,
                            const double *row, long budget, int partner_rule, int *res) {
    const Hand *h0 = &kept[0].h;
    IsCtx c;
    c.partner_rule = partner_rule;
    c.me = h0->turn;
    c.side = side_mask(&h0->r, c.me);
    c.maxi = ch_on_maker_side(h0, c.me);
    c.row = row;
    c.nworld = m;
    c.budget = budget;
    World *ws = malloc(sizeof(World) * (size_t)m);
    int *out = malloc(sizeof(int) * (size_t)m);
    if (!ws || !out) {
        free(ws);
        free(out);
        return -1;
    }
    int e = 0;
    for (int i = 0; i < nc && !e; i++) {
        for (int j = 0; j < m; j++) {
            ws[j].h = kept[j].h;
            ws[j].w = kept[j].w;
            ws[j].idx = j;
            ch_step(&ws[j].h, codes[i]);
            is_advance(&c, &ws[j].h);
        }
        if (is_split(&c, ws, m, out) < -1e299)
            e = -1;
        for (int j = 0; j < m; j++)
            res[j * 16 + i] = out[j];
    }
    free(ws);
    free(out);
    return e;
}

/* --- the search's own card play in rollouts (Level.own_samples, Level.play_own) ------- */

/* The effective suits each seat has shown void in during the play of ``h``
 * (as card masks of those suits). */
static void play_voids(const Hand *h, uint64_t *vm) {
    int t = h->trump;
    for (int s = 0; s < 4; s++)
        vm[s] = 0;
    for (int i = 0; i <= h->nlog; i++) {
        const int8_t *cards;
        int nc, seat;
        if (i < h->nlog) {
            cards = h->log[i].cards, nc = h->log[i].ncards, seat = h->log[i].leader;
        } else {
            cards = h->trick, nc = h->ntrick, seat = h->leader;
        }
        if (nc <= 0 || seat < 0)
            continue;
        int led = CH_EFF[t][cards[0]];
        for (int j = 1; j < nc; j++) {
            seat = ch_next_active(h, seat);
            if (CH_EFF[t][cards[j]] != led)
                vm[seat] |= CH_SMASK[t][led];
        }
    }
}

/* search.own_card: the card seat ``s`` plays in a rollout, as the search
 * plays: ``nsamp`` deals in which the cards ``s`` cannot see are dealt anew
 * to the other active seats (their hand sizes and the voids they showed
 * kept, a picked-up card left with the dealer until played; the bids not
 * weighed), each solved double-dummy; the card with the most utility for
 * ``s`` (its points minus the others' mean in Cutthroat, side minus side in
 * partnership) summed over the deals, ties to the lower card. 0 if no deal
 * could be drawn. It depends only on what ``s`` sees. */
static uint64_t cs_own_card(const Hand *h, int s, int nsamp, Rng *r) {
    int n = h->n;
    uint64_t played = ch_played(h);
    uint64_t fixed[4] = {0, 0, 0, 0}; /* the up card the dealer picked up and has not played */
    if (h->picked == 1 && s != h->dealer && !(played >> h->up & 1))
        fixed[h->dealer] = 1ULL << h->up;
    uint64_t known = h->hands[s] | played | fixed[0] | fixed[1] | fixed[2] | fixed[3];
    if (h->picked == 0)
        known |= 1ULL << h->up; /* turned down */
    if (s == h->dealer && h->picked == 1 && h->dealer_discard >= 0)
        known |= 1ULL << h->dealer_discard;
    if (h->cut && h->merged && s == h->maker)
        known |= h->maker_discards;
    uint64_t unknown = CH_DECK[h->r.deck] & ~known;
    int8_t pool[40];
    int np = 0;
    for (uint64_t u = unknown; u && np < 40; u &= u - 1)
        pool[np++] = (int8_t)ch_lsb(u);
    uint64_t vm[4];
    play_voids(h, vm);
    int others[4], need[4], no = 0;
    for (int t = 0; t < n; t++) {
        if (t == s || (h->out >> t & 1))
            continue;
        others[no] = t;
        need[no++] = ch_popcount(h->hands[t]) - ch_popcount(fixed[t]);
    }
    uint64_t legal = ch_follow_mask(h, s);
    int ids[16];
    double score[16];
    int nl = 0;
    for (uint64_t m = legal; m; m &= m - 1) {
        ids[nl] = ch_lsb(m);
        score[nl++] = 0.0;
    }
    /* the utility of each count of the maker side's tricks, for s */
    double util[6];
    for (int made = 0; made < 6; made++) {
        int pts[4];
        ch_points_for(h, made, pts);
        double u;
        if (h->cut) {
            double o = 0.0;
            for (int t = 0; t < n; t++)
                if (t != s)
                    o += pts[t];
            u = pts[s] - o / (n - 1);
        } else {
            u = pts[s & 1] - pts[(s & 1) ^ 1];
        }
        util[made] = u;
    }
    int solved = 0;
    for (int d = 0; d < nsamp; d++) {
        uint64_t got[4] = {0, 0, 0, 0};
        int ok = 0;
        for (int tries = 0; tries < 8 && !ok; tries++) {
            rng_shuffle(r, pool, np);
            uint8_t used[40] = {0};
            ok = 1;
            for (int i = 0; i < no && ok; i++) {
                int t = others[i], want = need[i];
                uint64_t g = 0;
                for (int j = 0; j < np && want; j++) {
                    if (used[j] || (vm[t] >> pool[j] & 1))
                        continue;
                    used[j] = 1;
                    g |= 1ULL << pool[j];
                    want--;
                }
                if (want)
                    ok = 0;
                got[t] = g | fixed[t];
            }
        }
        if (!ok)
            continue;
        Hand hh = *h;
        for (int i = 0; i < no; i++)
            hh.hands[others[i]] = got[others[i]];
        Core c;
        if (core_init(&c, &hh) < 0) {
            core_free(&c);
            continue;
        }
        int cid[16], val[16];
        int nv = core_move_values(&c, cid, val);
        core_free(&c);
        if (nv < 0)
            continue;
        for (int i = 0; i < nl; i++)
            for (int j = 0; j < nv; j++)
                if (cid[j] == ids[i])
                    score[i] += util[val[j]];
        solved++;
    }
    if (!solved)
        return 0;
    int best = 0;
    for (int i = 1; i < nl; i++)
        if (score[i] > score[best] + 1e-9)
            best = i;
    return K_PLAY | (uint64_t)ids[best] << 4;
}

/* cs_finish, but the seats of ``smart`` (a mask) play their cards as the
 * search does (cs_own_card with ``nsamp`` deals from ``r``) instead of by
 * the rule bot (search.finish_hand with ``own``). */
static int cs_finish_own(Hand *h, int me, int smart, int nsamp, Rng *r) {
    while (h->phase != P_OVER) {
        int p = h->phase;
        if (p == P_PLAY) {
            int t = h->turn;
            uint64_t m = ch_follow_mask(h, t);
            uint64_t code = 0;
            if (!(m & (m - 1)))
                code = K_PLAY | (uint64_t)ch_lsb(m) << 4;
            else if ((smart >> t & 1) && h->nlog < 4)
                code = cs_own_card(h, t, nsamp, r);
            if (!code)
                code = cr_choose(h, t);
            ch_step(h, code);
            continue;
        }
        if (p == P_KEEP) {
            uint64_t keep = cr_greedy_keep(h->hands[h->maker] | h->dummy, h->trump);
            ch_step(h, K_KEEP | keep << 4);
            continue;
        }
        if (p == P_MAKER && h->turn == me) {
            ch_step(h, K_MERGE);
            continue;
        }
        ch_step(h, cr_choose(h, h->turn));
    }
    return h->thrown_in ? -1 : 0;
}

static PyObject *Hand_own_card(HandObject *self, PyObject *args) {
    int deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iK", &deals, &seed))
        return NULL;
    if (self->h.phase != P_PLAY || deals < 1 || deals > 64) {
        PyErr_SetString(PyExc_ValueError, "own_card: a hand in its play, 1 to 64 deals");
        return NULL;
    }
    Rng r;
    rng_seed(&r, seed);
    uint64_t code;
    Py_BEGIN_ALLOW_THREADS
    code = cs_own_card(&self->h, self->h.turn, deals, &r);
    Py_END_ALLOW_THREADS
    if (!code)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(code);
}

/* Hand.move_tricks(codes) and, with ``br``, Hand.best_response(codes). */
static PyObject *play_codes(HandObject *self, PyObject *arg, int br) {
    if (!PyList_Check(arg) || PyList_GET_SIZE(arg) < 1 || PyList_GET_SIZE(arg) > 16) {
        PyErr_SetString(PyExc_TypeError, "codes: a list of 1 to 16 card-play codes");
        return NULL;
    }
    const Hand *h = &self->h;
    int nc = (int)PyList_GET_SIZE(arg);
    uint64_t codes[16];
    int out[16];
    for (int i = 0; i < nc; i++) {
        if (cs_code(PyList_GET_ITEM(arg, i), &codes[i]) < 0)
            return NULL;
        if (h->phase != P_PLAY || !ch_is_legal(h, codes[i], 0)) {
            PyErr_SetString(PyExc_ValueError, "not a legal card now");
            return NULL;
        }
    }
    if (br)
        best_response(h, codes, nc, out);
    else if (move_tricks(h, codes, nc, out) < 0)
        return PyErr_NoMemory();
    PyObject *list = PyList_New(nc);
    if (!list)
        return NULL;
    for (int i = 0; i < nc; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(out[i]));
    return list;
}

static PyObject *Hand_move_tricks(HandObject *self, PyObject *arg) {
    return play_codes(self, arg, 0);
}

static PyObject *Hand_best_response(HandObject *self, PyObject *arg) {
    return play_codes(self, arg, 1);
}

/* --- the Python type Search ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Known k;
} SearchObject;

static int hist_code(PyObject *o, int64_t *out) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -2 || v >= (1LL << 37)) {
        PyErr_SetString(PyExc_ValueError, "not a history code");
        return -1;
    }
    *out = v;
    return 0;
}

/* Search(rules, seat, dealer, phase, hand, up, picked, merged, maker, trump,
 *        discards, dummy, history, played, voids): ``voids`` a mask per seat
 *        of the cards it cannot hold, and optionally one more, of the cards
 *        no other place (discard, dummy, kitty) can hold */
static PyObject *Search_new(PyTypeObject *tp, PyObject *args, PyObject *kwds) {
    PyObject *rules, *discards, *history, *played, *voids;
    int seat, dealer, phase, up, picked, merged, maker, trump;
    unsigned long long hand, dummy;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Search() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OiiiKiipiiOKOOO", &rules, &seat, &dealer, &phase, &hand, &up,
                          &picked, &merged, &maker, &trump, &discards, &dummy, &history, &played,
                          &voids))
        return NULL;
    SearchObject *o = PyObject_New(SearchObject, tp);
    if (!o)
        return NULL;
    Known *k = &o->k;
    memset(k, 0, sizeof *k);
    uint64_t vm[5] = {0, 0, 0, 0, 0};
    if (cs_rules(rules, &k->r) < 0)
        goto fail;
    int n = k->r.n;
    if (seat < 0 || seat >= n || dealer < 0 || dealer >= n || up < 0 || up > 32 || picked < -1 ||
        picked > 1 || maker < -1 || maker >= n || trump < 0 || trump > 4 || phase < 0 ||
        phase > P_PLAY) {
        PyErr_SetString(PyExc_ValueError, "Search(): a value out of range");
        goto fail;
    }
    k->seat = seat, k->dealer = dealer, k->phase = phase, k->hand = hand, k->up = up;
    k->picked = picked, k->merged = merged, k->maker = maker, k->trump = trump, k->dummy = dummy;
    if (!PyList_Check(discards) || PyList_GET_SIZE(discards) > 8 || !PyList_Check(history) ||
        PyList_GET_SIZE(history) > CH_MAX_HISTORY || !PyList_Check(played) ||
        PyList_GET_SIZE(played) != n || !PyList_Check(voids) ||
        (PyList_GET_SIZE(voids) != n && PyList_GET_SIZE(voids) != n + 1)) {
        PyErr_SetString(PyExc_TypeError,
                        "Search(): discards, history (seat, code), a played mask per seat "
                        "and a void mask per seat (and one for the other places), as lists");
        goto fail;
    }
    k->ndiscards = (int)PyList_GET_SIZE(discards);
    for (int i = 0; i < k->ndiscards; i++) {
        int c;
        if (cs_int(PyList_GET_ITEM(discards, i), 0, 32, "card id", &c) < 0)
            goto fail;
        k->discards[i] = (int8_t)c;
    }
    k->nhist = (int)PyList_GET_SIZE(history);
    for (int i = 0; i < k->nhist; i++) {
        PyObject *e = PyList_GET_ITEM(history, i);
        int s;
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2) {
            PyErr_SetString(PyExc_TypeError, "history: (seat, code) pairs");
            goto fail;
        }
        if (cs_int(PyTuple_GET_ITEM(e, 0), 0, n - 1, "seat", &s) < 0 ||
            hist_code(PyTuple_GET_ITEM(e, 1), &k->hist_code[i]) < 0)
            goto fail;
        k->hist_seat[i] = (int8_t)s;
    }
    for (int s = 0; s < n; s++)
        if (cs_mask(PyList_GET_ITEM(played, s), &k->played[s]) < 0 ||
            cs_mask(PyList_GET_ITEM(voids, s), &vm[s]) < 0)
            goto fail;
    if (PyList_GET_SIZE(voids) == n + 1 && cs_mask(PyList_GET_ITEM(voids, n), &vm[n]) < 0)
        goto fail;
    const char *err = NULL;
    if (known_prepare(k, vm, &err) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        goto fail;
    }
    return (PyObject *)o;
fail:
    Py_DECREF(o);
    return NULL;
}

static int draw_error(int e) {
    if (e == -1)
        PyErr_SetString(PyExc_RuntimeError, "no deal is consistent with this view");
    else if (e == -2)
        PyErr_SetString(PyExc_RuntimeError, "a sampled deal does not replay (a bug)");
    else
        PyErr_NoMemory();
    return -1;
}

/* draw(seed, n): n deals, each replayed to the present (Hands; for tests) */
static PyObject *Search_draw(SearchObject *self, PyObject *args) {
    unsigned long long seed;
    int n;
    if (!PyArg_ParseTuple(args, "Ki", &seed, &n))
        return NULL;
    if (n < 0 || n > 100000) {
        PyErr_SetString(PyExc_ValueError, "draw: 0 to 100000 deals");
        return NULL;
    }
    ModState *st = PyType_GetModuleState(Py_TYPE(self));
    Rng r;
    rng_seed(&r, seed);
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        Hand h;
        int e = known_draw(&self->k, &r, &h);
        if (e < 0) {
            draw_error(e);
            Py_DECREF(out);
            return NULL;
        }
        PyObject *o = hand_wrap(st->hand_type, &h);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, o);
    }
    return out;
}

/* The points of every seat by the maker side's tricks, 0..5, of ``h`` (its
 * trump, maker and lone players settled): a list of 6 tuples, or NULL. */
static PyObject *points_table(const Hand *h) {
    PyObject *table = PyList_New(6);
    if (!table)
        return NULL;
    for (int made = 0; made < 6; made++) {
        int pts[4];
        ch_points_for(h, made, pts);
        PyObject *t = PyTuple_New(h->r.n);
        if (!t) {
            Py_DECREF(table);
            return NULL;
        }
        for (int s = 0; s < h->r.n; s++)
            PyTuple_SET_ITEM(t, s, PyLong_FromLong(pts[s]));
        PyList_SET_ITEM(table, made, t);
    }
    return table;
}

/* table(): the points of every seat by the maker side's tricks, 0..5 (the
 * view's trump, maker and lone players settled; from one consistent deal). */
static PyObject *Search_table(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->k.phase != P_PLAY) {
        PyErr_SetString(PyExc_ValueError, "table(): the view is not in its play phase");
        return NULL;
    }
    Rng r;
    rng_seed(&r, 1);
    Hand h;
    int e = known_draw(&self->k, &r, &h);
    if (e < 0)
        return draw_error(e), NULL;
    return points_table(&h);
}

/* the common arguments of samples / decide / play */
static int batch_args(int k, int oversample, Sample **draws, Sample **kept) {
    if (k < 1 || k > 10000 || oversample < 1 || oversample > 1000 || k * oversample > 200000) {
        PyErr_SetString(PyExc_ValueError, "k and oversample out of range");
        return -1;
    }
    *draws = malloc(sizeof(Sample) * (size_t)(k * oversample));
    *kept = malloc(sizeof(Sample) * (size_t)(k * oversample));
    if (!*draws || !*kept) {
        free(*draws);
        free(*kept);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* samples(seed, k, oversample, infer_plays): [(Hand, weight)] (for tests) */
static PyObject *Search_samples(SearchObject *self, PyObject *args) {
    unsigned long long seed;
    int k, over, infer;
    double peps = CR_EPSILON;
    if (!PyArg_ParseTuple(args, "Kiip|d", &seed, &k, &over, &infer, &peps))
        return NULL;
    Sample *draws, *kept;
    if (batch_args(k, over, &draws, &kept) < 0)
        return NULL;
    ModState *st = PyType_GetModuleState(Py_TYPE(self));
    Rng r;
    rng_seed(&r, seed);
    int m;
    Py_BEGIN_ALLOW_THREADS
    m = weighed_samples(&self->k, &r, k, over, infer, peps, draws, kept);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (m < 0) {
        draw_error(m);
        goto done;
    }
    out = PyList_New(m);
    if (!out)
        goto done;
    for (int i = 0; i < m; i++) {
        PyObject *e = Py_BuildValue("(Nd)", hand_wrap(st->hand_type, &kept[i].h), kept[i].w);
        if (!e) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, e);
    }
done:
    free(draws);
    free(kept);
    return out;
}

#define MAX_CANDIDATES 300

/* The ``own`` argument of decide and play: 0 (solve / the rule bot) or
 * deals per own-play card, up to 64; -1 with a ValueError otherwise. */
static int own_arg(int own) {
    if (own < 0 || own > 64) {
        PyErr_SetString(PyExc_ValueError, "own: 0 to 64 deals per card play");
        return -1;
    }
    return 0;
}

/* decide(seed, k, oversample, infer_plays, candidates[, own, partner_eps]):
 * one batch of SearchBot._decision_values -- k weighed deals (from k x
 * oversample drawn; a partner's card plays weighed with partner_eps), each
 * candidate applied and the hand finished by the rule bot, the cards of the
 * bot's side by own-play with ``own`` deals a card if ``own`` (finish_hand).
 * Returns (weights, outcomes): outcomes[i][j] is candidate
 * i's outcome on deal j: -1 thrown in, else the points p0 | p1 << 3 | p2 << 6
 * | p3 << 9 with 1 << 12 when the deciding seat ends on the maker's side. */
static PyObject *Search_decide(SearchObject *self, PyObject *args) {
    unsigned long long seed;
    int k, over, infer, own = 0;
    double peps = CR_EPSILON;
    PyObject *cands;
    if (!PyArg_ParseTuple(args, "KiipO|id", &seed, &k, &over, &infer, &cands, &own, &peps))
        return NULL;
    if (own_arg(own) < 0)
        return NULL;
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) < 1 ||
        PyList_GET_SIZE(cands) > MAX_CANDIDATES) {
        PyErr_SetString(PyExc_TypeError, "candidates: a list of 1 to 300 action codes");
        return NULL;
    }
    int nc = (int)PyList_GET_SIZE(cands);
    uint64_t codes[MAX_CANDIDATES];
    for (int i = 0; i < nc; i++)
        if (cs_code(PyList_GET_ITEM(cands, i), &codes[i]) < 0)
            return NULL;
    Sample *draws, *kept;
    if (batch_args(k, over, &draws, &kept) < 0)
        return NULL;
    int *res = malloc(sizeof(int) * (size_t)(k * over) * (size_t)nc);
    if (!res) {
        free(draws);
        free(kept);
        return PyErr_NoMemory();
    }
    Rng r;
    rng_seed(&r, seed);
    int m, bad = 0, me = self->k.seat, smart = own ? side_mask(&self->k.r, me) : 0;
    Py_BEGIN_ALLOW_THREADS
    m = weighed_samples(&self->k, &r, k, over, infer, peps, draws, kept);
    for (int j = 0; j < m && !bad; j++) {
        for (int i = 0; i < nc; i++) {
            Hand h = kept[j].h;
            if (!ch_is_legal(&h, codes[i], 0)) {
                bad = 1;
                break;
            }
            ch_step(&h, codes[i]);
            int o;
            if (cs_finish_own(&h, me, smart, own, &r) < 0) {
                o = -1;
            } else {
                o = 0;
                for (int s = 0; s < h.n; s++)
                    o |= h.points[s] << (3 * s);
                if (ch_on_maker_side(&h, me))
                    o |= 1 << 12;
            }
            res[i * m + j] = o;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *ws = NULL, *outs = NULL, *ret = NULL;
    if (m < 0) {
        draw_error(m);
        goto done;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a candidate is not legal on a sampled deal");
        goto done;
    }
    ws = PyList_New(m);
    outs = PyList_New(nc);
    if (!ws || !outs)
        goto done;
    for (int j = 0; j < m; j++)
        PyList_SET_ITEM(ws, j, PyFloat_FromDouble(kept[j].w));
    for (int i = 0; i < nc; i++) {
        PyObject *row = PyList_New(m);
        if (!row)
            goto done;
        for (int j = 0; j < m; j++)
            PyList_SET_ITEM(row, j, PyLong_FromLong(res[i * m + j]));
        PyList_SET_ITEM(outs, i, row);
    }
    ret = Py_BuildValue("(OO)", ws, outs);
done:
    Py_XDECREF(ws);
    Py_XDECREF(outs);
    free(res);
    free(draws);
    free(kept);
    return ret;
}

/* play(seed, k, oversample, infer_plays, codes[, own, partner_eps, br]): one
 * batch of SearchBot._play_values -- k weighed deals, each solved for every
 * code; before the last trick, with ``br`` the best response of the bot's
 * side to the rule bot's cards after each code (best_response), else with
 * ``own`` each code played out by an own-play rollout.
 * Returns (weights, tricks, solves, points): tricks[j][i] the maker side's
 * tricks after codes[i] on deal j, solves the deals solved (not played out),
 * points the points of every seat by the maker side's tricks 0..5 (the same
 * on every deal: maker and lone players are public in the play). */
static PyObject *Search_play(SearchObject *self, PyObject *args) {
    unsigned long long seed;
    int k, over, infer, own = 0, br = 0, partner_rule = 0;
    double peps = CR_EPSILON;
    PyObject *cands, *row_obj = Py_None;
    if (!PyArg_ParseTuple(args, "KiipO|idpOp", &seed, &k, &over, &infer, &cands, &own, &peps, &br,
                          &row_obj, &partner_rule))
        return NULL;
    if (own_arg(own) < 0)
        return NULL;
    double row[6];
    int infoset = row_obj != Py_None;
    if (infoset) {
        if (!PyList_Check(row_obj) || PyList_GET_SIZE(row_obj) != 6) {
            PyErr_SetString(PyExc_TypeError, "row: a list of 6 utilities (or None)");
            return NULL;
        }
        for (int i = 0; i < 6; i++) {
            row[i] = PyFloat_AsDouble(PyList_GET_ITEM(row_obj, i));
            if (row[i] == -1.0 && PyErr_Occurred())
                return NULL;
        }
    }
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) < 1 || PyList_GET_SIZE(cands) > 16) {
        PyErr_SetString(PyExc_TypeError, "codes: a list of 1 to 16 card-play codes");
        return NULL;
    }
    if (self->k.phase != P_PLAY) {
        PyErr_SetString(PyExc_ValueError, "play(): the view is not in its play phase");
        return NULL;
    }
    int nc = (int)PyList_GET_SIZE(cands);
    uint64_t codes[16];
    for (int i = 0; i < nc; i++)
        if (cs_code(PyList_GET_ITEM(cands, i), &codes[i]) < 0)
            return NULL;
    Sample *draws, *kept;
    if (batch_args(k, over, &draws, &kept) < 0)
        return NULL;
    int *res = malloc(sizeof(int) * (size_t)(k * over) * 16);
    if (!res) {
        free(draws);
        free(kept);
        return PyErr_NoMemory();
    }
    Rng r;
    rng_seed(&r, seed);
    int m, bad = 0, solves = 0, me = self->k.seat, smart = side_mask(&self->k.r, me);
    Py_BEGIN_ALLOW_THREADS
    m = weighed_samples(&self->k, &r, k, over, infer, peps, draws, kept);
    for (int j = 0; j < m && !bad; j++)
        for (int i = 0; i < nc; i++)
            if (!ch_is_legal(&kept[j].h, codes[i], 0))
                bad = 1;
    int answered = 0; /* res already holds the information-set best response */
    if (!bad && m > 0 && infoset && kept[0].h.nlog < 4) {
        if (infoset_response(kept, m, codes, nc, row, 20000000L, partner_rule, res) < 0)
            bad = 2;
        answered = 1;
    }
    for (int j = 0; j < m && !bad && !answered; j++) {
        const Hand *h = &kept[j].h;
        if (br && h->nlog < 4) {
            best_response(h, codes, nc, &res[j * 16]);
            continue;
        }
        if (own && h->nlog < 4) {
            for (int i = 0; i < nc; i++) {
                Hand c = *h;
                ch_step(&c, codes[i]);
                cs_finish_own(&c, me, smart, own, &r);
                res[j * 16 + i] = ch_side_tricks(&c);
            }
            continue;
        }
        int e = move_tricks(h, codes, nc, &res[j * 16]);
        if (e < 0)
            bad = 2;
        solves += e > 0;
    }
    Py_END_ALLOW_THREADS
    PyObject *ws = NULL, *tricks = NULL, *table = NULL, *ret = NULL;
    if (m < 0) {
        draw_error(m);
        goto done;
    }
    if (bad) {
        if (bad == 2)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "a code is not legal on a sampled deal");
        goto done;
    }
    ws = PyList_New(m);
    tricks = PyList_New(m);
    if (!ws || !tricks)
        goto done;
    for (int j = 0; j < m; j++) {
        PyList_SET_ITEM(ws, j, PyFloat_FromDouble(kept[j].w));
        PyObject *row = PyList_New(nc);
        if (!row)
            goto done;
        for (int i = 0; i < nc; i++)
            PyList_SET_ITEM(row, i, PyLong_FromLong(res[j * 16 + i]));
        PyList_SET_ITEM(tricks, j, row);
    }
    table = points_table(&kept[0].h);
    if (!table)
        goto done;
    ret = Py_BuildValue("(OOiO)", ws, tricks, solves, table);
done:
    Py_XDECREF(ws);
    Py_XDECREF(tricks);
    Py_XDECREF(table);
    free(res);
    free(draws);
    free(kept);
    return ret;
}

static void Search_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyMethodDef Search_methods[] = {
    {"draw", (PyCFunction)Search_draw, METH_VARARGS,
     "draw(seed, n): n deals consistent with the view, replayed to the present."},
    {"samples", (PyCFunction)Search_samples, METH_VARARGS,
     "samples(seed, k, oversample, infer_plays): [(Hand, weight)] as SearchBot._samples."},
    {"decide", (PyCFunction)Search_decide, METH_VARARGS,
     "decide(seed, k, oversample, infer_plays, candidates): (weights, outcomes)."},
    {"table", (PyCFunction)Search_table, METH_NOARGS,
     "table(): the points of every seat by the maker side's tricks, 0..5."},
    {"play", (PyCFunction)Search_play, METH_VARARGS,
     "play(seed, k, oversample, infer_plays, codes, own=0, partner_eps, best_response=False, "
     "row=None): (weights, tricks, solves, points); the maker side's tricks per kept deal after "
     "each code, by the information-set best response if ``row`` (the bot's utility by those "
     "tricks), else the per-deal one, own-play rollouts or the exact solve."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Search_slots[] = {
    {Py_tp_new, Search_new},
    {Py_tp_dealloc, Search_dealloc},
    {Py_tp_methods, Search_methods},
    {Py_tp_doc, "What one seat knows of a hand, for the compiled search (euchre.bots.compiled)."},
    {0, NULL},
};

static PyType_Spec Search_spec = {
    .name = "euchre._csearch.Search",
    .basicsize = sizeof(SearchObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Search_slots,
};

/* --- the module ---------------------------------------------------------------- */

static PyMethodDef mod_methods[] = {
    {"value", (PyCFunction)mod_value, METH_VARARGS,
     "rule._value(hand, trump, dead, deck): the rule bot's point count."},
    {"best_keep", (PyCFunction)mod_best_keep, METH_VARARGS,
     "rule._best_keep(pool, trump, n, dead, deck): (count, mask)."},
    {"greedy_keep", (PyCFunction)mod_greedy_keep, METH_VARARGS,
     "search.greedy_keep(pool, trump): a mask."},
    {NULL, NULL, 0, NULL},
};

static int mod_exec(PyObject *module) {
    ModState *st = PyModule_GetState(module);
    ch_build_tables();
    ch_build_combos();
    st->hand_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Hand_spec, NULL);
    if (!st->hand_type)
        return -1;
    if (PyModule_AddObjectRef(module, "Hand", (PyObject *)st->hand_type) < 0)
        return -1;
    build_numbering();
    st->search_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Search_spec, NULL);
    if (!st->search_type)
        return -1;
    if (PyModule_AddObjectRef(module, "Search", (PyObject *)st->search_type) < 0)
        return -1;
    return 0;
}

static int mod_traverse(PyObject *module, visitproc visit, void *arg) {
    ModState *st = PyModule_GetState(module);
    Py_VISIT(st->hand_type);
    Py_VISIT(st->search_type);
    return 0;
}

static int mod_clear(PyObject *module) {
    ModState *st = PyModule_GetState(module);
    Py_CLEAR(st->hand_type);
    Py_CLEAR(st->search_type);
    return 0;
}

static PyModuleDef_Slot mod_slots[] = {
    {Py_mod_exec, mod_exec},
    {0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "euchre._csearch",
    .m_doc = "The search bot's hot path, compiled (see euchre.bots.compiled).",
    .m_size = sizeof(ModState),
    .m_methods = mod_methods,
    .m_slots = mod_slots,
    .m_traverse = mod_traverse,
    .m_clear = mod_clear,
};

PyMODINIT_FUNC PyInit__csearch(void) { return PyModuleDef_Init(&moduledef); }
