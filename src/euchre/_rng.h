/* The generator of the compiled playouts and the compiled search:
 * xoshiro256** seeded by splitmix64 from a 64-bit seed; bounded draws exact
 * (Lemire's method with rejection). Included by _playout.c and _csearch.c. */
#ifndef EUCHRE_RNG_H
#define EUCHRE_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} Rng;

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* A uniform integer in [0, k), k >= 1: exact (rejects the biased low part). */
static inline uint32_t rng_below(Rng *r, uint32_t k) {
    uint64_t m = (rng_next(r) >> 32) * (uint64_t)k;
    uint32_t low = (uint32_t)m;
    if (low < k) {
        uint32_t floor = (uint32_t)(-k) % k;
        while (low < floor) {
            m = (rng_next(r) >> 32) * (uint64_t)k;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A uniform double in [0, 1) with 53 random bits. */
static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
