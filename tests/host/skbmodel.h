/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host model of the parts of struct sk_buff / struct net_device that a
 * classic BPF program can observe on Linux 6.1, plus host versions of the
 * kernel helpers that generated code calls (net/core/filter.c).
 *
 * The layout is ours; the JIT learns it through struct cbpf_jit_env, which
 * skb_fill_env() fills with offsetof() values.  Fields sit at odd places and
 * the bytes around pkt_type / vlan_present carry noise bits, so a generator
 * that hard-codes kernel offsets or forgets a mask shows up as a mismatch.
 */
#ifndef HOST_SKBMODEL_H
#define HOST_SKBMODEL_H
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <linux/types.h> /* shim: u8..u64, s32 */

#define MODEL_MAX_FRAGS 6
#define MODEL_MAC_UNSET 0xffffu /* (typeof(skb->mac_header))~0U */

/* Bit positions like x86 6.1 (little-endian bitfields): PKT_TYPE_MAX == 7
 * (low three bits), PKT_VLAN_PRESENT_BIT == 0.  model_be_bitfields selects
 * the big-endian-bitfield layout instead (PKT_TYPE_MAX == 7 << 5, shift 5,
 * PKT_VLAN_PRESENT_BIT == 7) to exercise the generator's other paths. */
#define MODEL_PKT_TYPE_MASK (model_be_bitfields ? 0xe0u : 7u)
#define MODEL_PKT_TYPE_SHIFT (model_be_bitfields ? 5u : 0u)
#define MODEL_VLAN_PRESENT_BIT (model_be_bitfields ? 7u : 0u)
extern bool model_be_bitfields;
/* model_vlan_all: a tag is present iff vlan_all != 0 (Linux 6.2 and later) */
extern bool model_vlan_all;

struct model_dev {
	u64 pad0[3];
	u16 type;      /* dev->type: u16, SKF_AD_HATYPE */
	u16 pad1;
	u32 pad2;
	int ifindex;   /* dev->ifindex: int, SKF_AD_IFINDEX */
	u32 pad3;
};

struct model_frag {
	u8 *p;
	u32 size;
};

struct model_skb {
	u64 guard0;
	u32 mark;              /* SKF_AD_MARK */
	u16 queue_mapping;     /* SKF_AD_QUEUE */
	u8 flags1;             /* low 3 bits: pkt_type; upper bits: noise */
	u8 pad0;
	struct model_dev *dev; /* NULL allowed */
	u32 hash;              /* SKF_AD_RXHASH (raw, no skb_get_hash) */
	u16 protocol;          /* __be16, SKF_AD_PROTOCOL */
	u16 vlan_proto;        /* __be16, SKF_AD_VLAN_TPID */
	u8 pad1[3];
	u8 flags2;             /* bit 0: vlan_present; other bits noise */
	u16 vlan_tci;          /* SKF_AD_VLAN_TAG (raw, incl. CFI/DEI) */
	u32 vlan_all;          /* SKF_AD_VLAN_TAG_PRESENT with model_vlan_all */
	u16 mac_header;        /* offset from head, MODEL_MAC_UNSET if unset */
	u16 network_header;    /* offset from head */
	u16 pad2;
	u32 len;               /* skb->len */
	u32 data_len;          /* skb->data_len: bytes in frags */
	u64 pad3;
	u8 *data;              /* skb->data */
	u8 *head;              /* skb->head */
	u32 nr_frags;
	struct model_frag frags[MODEL_MAX_FRAGS];
	u64 guard1;
};

static inline u32 skb_headlen_m(const struct model_skb *s)
{
	return s->len - s->data_len;
}

/* Helpers with the kernel's BPF_CALL_x calling convention: five u64
 * arguments, u64 result; arguments are narrowed like __BPF_CAST does. */
u64 host_load_helper_8(u64 skb, u64 data, u64 headlen, u64 offset);
u64 host_load_helper_16(u64 skb, u64 data, u64 headlen, u64 offset);
u64 host_load_helper_32(u64 skb, u64 data, u64 headlen, u64 offset);
/* the kernel's cbpf_load_N() in front of them, which the image calls */
u64 host_cbpf_load_8(u64 skb, u64 data, u64 headlen, u64 offset);
u64 host_cbpf_load_16(u64 skb, u64 data, u64 headlen, u64 offset);
u64 host_cbpf_load_32(u64 skb, u64 data, u64 headlen, u64 offset);
u64 host_pay_offset(u64 skb, u64 a, u64 x);
u64 host_nlattr(u64 skb, u64 a, u64 x);
u64 host_nlattr_nest(u64 skb, u64 a, u64 x);
u64 host_cpu_id(u64 r1, u64 r2, u64 r3);
u64 host_random(u64 r1, u64 r2, u64 r3);
void host_return_thunk(void);
void host_clear_bhb(void);

/* deterministic CPU id and random stream; reset before every run */
extern u32 host_cpu_value;
extern u64 host_rnd_state;
void host_rnd_reset(u64 seed);
/* counters for the hardening stubs: a run with bhb must hit the stub */
extern unsigned long host_bhb_calls, host_thunk_calls, host_misaligned_calls;
/*
 * Calls of the helpers an image may call (load, ancillary; not the BHB
 * stub, counted apart), and executions of the call depth accounting the
 * "call depth" environments put before every call (host_call_depth_acct()).
 */
extern unsigned long host_helper_calls, host_depth_acct;
u32 host_call_depth_acct(u8 *buf, unsigned long func, unsigned long ip);
#define HOST_CALL_DEPTH_LEN 8
/* loads cbpf_load_N() read in a first page fragment */
extern unsigned long host_frag_hits;

int model_skb_copy_bits(const struct model_skb *skb, int offset, void *to, int len);

/* builder: copies pkt[0..len) into a fresh head (with headroom) + frags. */
struct skb_shape {
	u32 headroom;  /* bytes before data in the head buffer */
	u32 headlen;   /* <= len */
	u32 nr_frags;  /* frags share len - headlen */
	u32 frag_sizes[MODEL_MAX_FRAGS];
	int mac_off;   /* relative to data; MODEL_MAC_NONE: unset */
	int net_off;   /* relative to data */
};
#define MODEL_MAC_NONE 0x7fffffff

struct model_skb *model_skb_build(const u8 *pkt, u32 len, const u8 *headroom_bytes,
				  const struct skb_shape *shape);
void model_skb_free(struct model_skb *skb);
/* byte at data-relative offset off (negative: headroom), for reference use */
u8 model_skb_byte(const struct model_skb *skb, int off);
/* flatten [0, len) */
void model_skb_flatten(const struct model_skb *skb, u8 *out);
#endif
