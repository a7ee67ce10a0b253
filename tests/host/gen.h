/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_GEN_H
#define HOST_GEN_H
#include <stdbool.h>
#include <linux/filter.h>
#include "skbmodel.h"

#include "rng.h"

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
	u32 vlan_all;	/* Linux 6.2+: a tag is present iff it is not 0 */
	u64 rnd_seed;
};

/* random packet bytes (protocol templates + noise) */
void gen_packet(struct rng *r, struct test_case *tc);
/* random metadata and shape; linear forces headlen == len */
void gen_skb_meta(struct rng *r, struct test_case *tc, bool linear);
/* instantiate the model skb for a case (caller frees) */
struct model_skb *tc_build(const struct test_case *tc, struct model_dev *dev);
#endif
