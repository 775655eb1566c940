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

/* rules: (seats, deck, flags, lone_defender_points) */
static int cs_rules(PyObject *o, Rules *r) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) {
        PyErr_SetString(PyExc_TypeError, "rules: (seats, deck, flags, lone_defender_points)");
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
        PyList_GET_SIZE(kitty) < 1 || PyList_GET_SIZE(kitty) > 8) {
        PyErr_SetString(PyExc_TypeError, "hands: a mask per seat; kitty: 1 to 8 card ids");
        return NULL;
    }
    uint64_t hm[4] = {0, 0, 0, 0};
    for (int s = 0; s < r.n; s++)
        if (cs_mask(PyList_GET_ITEM(hands, s), &hm[s]) < 0)
            return NULL;
    int8_t kt[8];
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
        "s:N,s:O,s:i,s:N}",
        "hands", mask_list(h->hands, n), "dummy", (unsigned long long)h->dummy, "phase",
        h->phase, "turn", h->turn, "trump", h->trump, "maker", h->maker, "upsuit", h->upsuit,
        "picked", picked, "may_decline", h->may_decline, "dealer_discard", h->dealer_discard,
        "maker_discards", (unsigned long long)h->maker_discards, "merged",
        h->merged ? Py_True : Py_False, "alone", small_list(h->alone, h->nalone), "out", h->out,
        "ask", small_list(h->ask, h->nask), "leader", h->leader, "trick",
        small_list(h->trick, h->ntrick), "nbid", h->nbid, "tricks", small_list(h->tricks, n),
        "trick_log", log, "calls", calls, "points", small_list(h->points, n), "thrown_in",
        h->thrown_in ? Py_True : Py_False, "winner", h->winner, "kitty",
        small_list(h->kitty, h->nkitty));
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

/* search.finish_hand with play="rule": continue ``h`` (changed) to the end:
 * the rule bot for every seat, greedy_keep for a merging Cutthroat maker,
 * seat ``me`` as a Cutthroat maker always merges. 0 if played out, -1 if
 * thrown in. */
static int cs_finish(Hand *h, int me) {
    while (h->phase != P_OVER) {
        int p = h->phase;
        if (p == P_PLAY) {
            uint64_t m = ch_follow_mask(h, h->turn);
            if (!(m & (m - 1)))
                ch_step(h, K_PLAY | (uint64_t)ch_lsb(m) << 4);
            else
                ch_step(h, cr_choose(h, h->turn));
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

/* SearchBot.weight: the rule bot's probability of the other seats' past
 * decisions on this deal (stopping below ``floor``). */
static double cs_weight(const Hand *sample, int seat, int infer_plays, double floor) {
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
                    double eps = CR_EPSILON;
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
    double floor;
    if (!PyArg_ParseTuple(args, "ipd", &seat, &infer, &floor))
        return NULL;
    return PyFloat_FromDouble(cs_weight(&self->h, seat, infer, floor));
}

static PyObject *Hand_rule_keep(HandObject *self, PyObject *Py_UNUSED(ignored)) {
    Hand out;
    double p = cs_rule_keep(&self->h, &out);
    return Py_BuildValue("(Nd)", hand_wrap(Py_TYPE(self), &out), p);
}

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
    return 0;
}

static int mod_traverse(PyObject *module, visitproc visit, void *arg) {
    ModState *st = PyModule_GetState(module);
    Py_VISIT(st->hand_type);
    return 0;
}

static int mod_clear(PyObject *module) {
    ModState *st = PyModule_GetState(module);
    Py_CLEAR(st->hand_type);
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
