/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_GEN_H
#define HOST_GEN_H
#include <stdbool.h>
#include <linux/filter.h>
#include "skbmodel.h"

struct rng {
	u64 s;
};

static inline u64 rnd64(struct rng *r)
{
	/* splitmix64 */
	u64 z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline u32 rnd32(struct rng *r)
{
	return (u32)(rnd64(r) >> 32);
}

/* uniform in [0, n), n > 0 */
static inline u32 rnd_below(struct rng *r, u32 n)
{
	return (u32)(((rnd64(r) >> 32) * (u64)n) >> 32);
}

static inline bool rnd_pct(struct rng *r, u32 pct)
{
	return rnd_below(r, 100) < pct;
}

#define GEN_STD_ONLY 1u   /* no ancillary loads, no offsets >= 2^31 (libpcap) */
#define GEN_LOAD_HEAVY 2u /* long, mostly packet loads: converted size > s16 */

/* Random valid program (per ref_check_classic) of 1..maxlen insns. */
u32 gen_program(struct rng *r, struct sock_filter *out, u32 maxlen, unsigned int flags);
/* Make LD/LDX MEM valid as check_load_and_stores() demands by turning
 * loads of unset cells into stores (forward dataflow, in place). */
void gen_fix_mem(struct sock_filter *p, u32 len);

/* A packet with metadata and a layout; owns its buffers. */
struct test_case {
	u8 pkt[4096];
	u32 len;
	u8 headroom_bytes[256];
	struct skb_shape shape;
	bool has_dev;
	int ifindex;
	u16 hatype;
	u32 mark, hash, cpu;
	u16 queue_mapping, protocol, vlan_tci, vlan_proto;
	u8 flags1, flags2;
	u64 rnd_seed;
};

/* random packet bytes (protocol templates + noise) */
void gen_packet(struct rng *r, struct test_case *tc);
/* random metadata and shape; linear forces headlen == len */
void gen_skb_meta(struct rng *r, struct test_case *tc, bool linear);
/* instantiate the model skb for a case (caller frees) */
struct model_skb *tc_build(const struct test_case *tc, struct model_dev *dev);
#endif
