/* The rule bot of bots/rule.py, compiled (part of euchre._csearch).
 * STUB: to be written. */
#ifndef EUCHRE_RULE_H
#define EUCHRE_RULE_H
#include "_core.h"

#define CR_EPSILON 0.1

static double cr_value(uint64_t hand, int t, uint64_t dead, int deck) {
    (void)hand; (void)t; (void)dead; (void)deck;
    return 0.0;
}
static double cr_best_keep(uint64_t pool, int t, int n, uint64_t dead, int deck, uint64_t *mask) {
    (void)pool; (void)t; (void)n; (void)dead; (void)deck;
    *mask = 0;
    return 0.0;
}
static uint64_t cr_keep_mask(uint64_t pool, int trump, int picked_up, int up, int deck) {
    uint64_t m;
    cr_best_keep(pool, trump, 5, picked_up ? 0 : 1ULL << up, deck, &m);
    return m;
}
static uint64_t cr_greedy_keep(uint64_t pool, int trump) {
    (void)pool; (void)trump;
    return 0;
}
static uint64_t cr_choose(const Hand *h, int seat) {
    (void)h; (void)seat;
    return 0;
}
#endif
