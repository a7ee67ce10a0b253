/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The random numbers of the host generator (gen.c) and of the boot-time
 * fuzzers: splitmix64, reproducible from a seed on any host.
 */
#ifndef HOST_RNG_H
#define HOST_RNG_H
#include <stdbool.h>
#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline uint64_t rnd64(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t rnd32(struct rng *r)
{
	return (uint32_t)(rnd64(r) >> 32);
}

/* uniform in [0, n), n > 0 */
static inline uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rnd64(r) >> 32) * (uint64_t)n) >> 32);
}

static inline bool rnd_pct(struct rng *r, uint32_t pct)
{
	return rnd_below(r, 100) < pct;
}

#endif
