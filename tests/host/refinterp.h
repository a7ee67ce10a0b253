/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_REFINTERP_H
#define HOST_REFINTERP_H
#include <linux/filter.h>
#include "skbmodel.h"

/* Things a run did that libpcap's bpf_filter() models differently, so a
 * libpcap comparison of that (program, packet) pair is not meaningful. */
#define REF_F_ANC     1u /* an ancillary (SKF_AD_*) load ran */
#define REF_F_NEGOFF  2u /* a load offset >= 2^31 (SKF_*_OFF) or X + k wrapped */
#define REF_F_SHIFTX  4u /* shift by X with X >= 32 (kernel: X & 31) */

/* Reference interpreter: the 6.1.192 conversion semantics. */
u32 ref_run(const struct sock_filter *insns, u32 len, const struct model_skb *skb,
	    unsigned int *flags);

/* How a run ended (ref_trace.end). */
enum ref_end { REF_END_RET, REF_END_LOAD, REF_END_DIV0, REF_END_NODEV };
#define REF_TRACE_LOADS 32

/* What one run executed, for the fuzzers' depth floors (reach.h). */
struct ref_trace {
	const u8 *site;	/* in: per insn, bits ORed into reached when it runs (or NULL) */
	u32 executed;	/* insns executed */
	u32 last_pc;	/* the insn it ended at */
	u32 reached;	/* the site bits of the executed insns */
	enum ref_end end;
	/* packet loads that succeeded past the linear part, data-relative */
	u32 nloads;
	struct { u32 off, size; } loads[REF_TRACE_LOADS];
};

/* ref_run(), and what it executed in *t (t->site read, the rest written). */
u32 ref_run_trace(const struct sock_filter *insns, u32 len, const struct model_skb *skb,
		  unsigned int *flags, struct ref_trace *t);

/* Port of bpf_check_classic() (filter.c:1063) incl. check_load_and_stores(). */
int ref_check_classic(const struct sock_filter *insns, u32 len);

/* The conversion ref_convert_check() ports is 6.2+'s, whose SKF_AD_VLAN_TAG_PRESENT
 * tests vlan_all (set from kconv_vlan_all by the programs that link kconv). */
extern int ref_conv_vlan_all;

/* 0 if bpf_convert_filter() (x86, 6.1.192) accepts a valid program,
 * -EINVAL if a converted jump overflows s16 (incl. its first-pass quirk). */
int ref_convert_check(const struct sock_filter *insns, u32 len);

/* The kernel's own bpf_convert_filter(), extracted from KSRC at build time
 * (kconv_extract.sh), called as bpf_migrate_filter() does: 0 or -EINVAL. */
int kconv_check(const struct sock_filter *prog, int len);
/* the same, and the converted program's length in *conv_len */
int kconv_check_len(const struct sock_filter *prog, int len, int *conv_len);
/* 1 when that conversion tests skb->vlan_all (6.2+), else 0 */
extern const int kconv_vlan_all;
#endif
