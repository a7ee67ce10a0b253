/* SPDX-License-Identifier: GPL-2.0 */
/* Host environment for the extracted bpf_convert_filter() (build/kconv.c). */
#ifndef HOST_KCONV_PRELUDE_H
#define HOST_KCONV_PRELUDE_H
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/filter.h> /* shim: uapi + BPF_ANC */
#include <linux/errno.h>

#define GFP_KERNEL 0
#define __GFP_NOWARN 0
#define kcalloc(n, s, f) calloc(n, s)
#define kfree free
#define IS_BUILTIN(x) 1 /* CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS on x86 */
#define NET_IP_ALIGN 0  /* x86 */
#ifndef BPF_ADDR_SPACE_CAST
#define BPF_ADDR_SPACE_CAST 1 /* 6.12 uapi, used by the filter.h excerpt */
#endif

struct net_device {
	int ifindex;
	unsigned short type;
};

struct sk_buff {
	unsigned int len, data_len;
	__u16 protocol, vlan_proto, vlan_tci, queue_mapping;
	__u32 mark, hash;
	struct net_device *dev;
	unsigned char *data;
	__u8 __pkt_type_offset[1];
	__u8 __pkt_vlan_present_offset[1];
	__u32 vlan_all;	/* 6.2+: the conversion tests vlan_all != 0 */
};
#ifndef sizeof_field
#define sizeof_field(T, m) sizeof(((T *)0)->m)
#endif
#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(c) ((void)sizeof(char[1 - 2 * !!(c)]))
#endif
#define PKT_TYPE_MAX 7
#define PKT_TYPE_OFFSET offsetof(struct sk_buff, __pkt_type_offset)
#define PKT_VLAN_PRESENT_BIT 0
#define PKT_VLAN_PRESENT_OFFSET offsetof(struct sk_buff, __pkt_vlan_present_offset)

struct bpf_prog_aux {
	__u32 stack_depth;
};
struct bpf_prog {
	struct bpf_prog_aux *aux;
	struct bpf_insn insnsi[];
};

/* call targets: only their addresses matter (BPF_EMIT_CALL) */
#define KCONV_FN(n) static u64 n(u64 a, u64 b, u64 c, u64 d, u64 e) \
	{ (void)a; (void)b; (void)c; (void)d; (void)e; return 0; }
KCONV_FN(__bpf_call_base)
KCONV_FN(bpf_skb_get_pay_offset)
KCONV_FN(bpf_skb_get_nlattr)
KCONV_FN(bpf_skb_get_nlattr_nest)
KCONV_FN(bpf_get_raw_cpu_id)
KCONV_FN(bpf_user_rnd_u32)
KCONV_FN(bpf_skb_load_helper_8)
KCONV_FN(bpf_skb_load_helper_16)
KCONV_FN(bpf_skb_load_helper_32)
static inline void bpf_user_rnd_init_once(void)
{
}
#endif
