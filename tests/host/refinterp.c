// SPDX-License-Identifier: GPL-2.0
/*
 * Reference interpreter for classic BPF with the semantics the Linux
 * 6.1.192 kernel gives a socket filter when it converts it to eBPF
 * (net/core/filter.c: bpf_convert_filter(), convert_bpf_extensions(),
 * convert_skb_access(), convert_bpf_ld_abs()) and runs it.
 * Line numbers refer to net/core/filter.c of the Debian 6.1.192 tree.
 *
 * Written independently of the JIT: packet bytes are read through
 * model_skb_byte(), not through the host load helpers.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "refinterp.h"

/* filter.c:215 bpf_skb_load_helper_convert_offset(): map SKF_NET_OFF /
 * SKF_LL_OFF offsets to data-relative ones; INT_MIN = fault. */
static int ref_convert_offset(const struct model_skb *skb, int offset)
{
	int head_to_data = (int)(skb->data - skb->head);

	if (offset >= 0)
		return offset;
	if (offset >= SKF_NET_OFF) /* skb_network_offset() */
		return offset - SKF_NET_OFF + ((int)skb->network_header - head_to_data);
	/* skb_mac_header_was_set(): mac_header != (u16)~0 */
	if (offset >= SKF_LL_OFF && skb->mac_header != MODEL_MAC_UNSET)
		return offset - SKF_LL_OFF + ((int)skb->mac_header - head_to_data);
	return INT_MIN;
}

/*
 * A packet load of @size bytes at (int)@k, as convert_bpf_ld_abs()
 * (filter.c:481) plus bpf_skb_load_helper_{8,16,32} (filter.c:229-300):
 * inline path and helper both take "headlen - off >= size" from the linear
 * part, else skb_copy_bits(), which fails if off > len - size.  Big endian
 * (get_unaligned_be*, BPF_ENDIAN FROM_BE).  Returns false on fault: the
 * converted program then does "A = 0; exit" (filter.c:541-543).
 */
static bool ref_load(const struct model_skb *skb, int k, int size, u32 *out,
		     unsigned int *flags, struct ref_trace *t)
{
	int headlen = (int)skb_headlen_m(skb);
	int off, i;
	u32 v = 0;

	if (k < 0)
		*flags |= REF_F_NEGOFF;
	off = ref_convert_offset(skb, k);
	if (off == INT_MIN)
		return false;
	if (!(headlen - off >= size) && off > (int)skb->len - size)
		return false;
	/* Either fully in the linear part (off may be negative: headroom
	 * bytes in front of data, reachable via SKF_NET_OFF/SKF_LL_OFF), or
	 * skb_copy_bits() over linear part + frags. */
	for (i = 0; i < size; i++)
		v = v << 8 | model_skb_byte(skb, off + i);
	*out = v;
	if (t && off + size > headlen && t->nloads < REF_TRACE_LOADS) {
		t->loads[t->nloads].off = (u32)off;
		t->loads[t->nloads++].size = (u32)size;
	}
	return true;
}

/* convert_bpf_extensions(), filter.c:351-466.  Returns 1 and sets *a, or
 * 2 if the converted code EXITs with the current A (dev == NULL). */
static int ref_ancillary(u32 k, const struct model_skb *skb, u32 *a, u32 x)
{
	u64 skbp = (u64)(uintptr_t)skb;

	switch (k - (u32)SKF_AD_OFF) {
	case SKF_AD_PROTOCOL: /* :357 u16 protocol, BPF_ENDIAN(FROM_BE, 16) */
		*a = (u32)(u16)(skb->protocol >> 8 | skb->protocol << 8);
		return 1;
	case SKF_AD_PKTTYPE: /* :368 + convert_skb_access :316 byte & PKT_TYPE_MAX
			      * (>> 5 with big-endian bitfields, :318) */
		*a = (skb->flags1 & MODEL_PKT_TYPE_MASK) >> MODEL_PKT_TYPE_SHIFT;
		return 1;
	case SKF_AD_IFINDEX: /* :373 if (!skb->dev) EXIT (A unchanged) */
	case SKF_AD_HATYPE:
		if (!skb->dev)
			return 2;
		if (k - (u32)SKF_AD_OFF == SKF_AD_IFINDEX)
			*a = (u32)skb->dev->ifindex; /* :385 BPF_W */
		else
			*a = skb->dev->type; /* :388 BPF_H */
		return 1;
	case SKF_AD_MARK: /* :392, convert_skb_access :310 u32 */
		*a = skb->mark;
		return 1;
	case SKF_AD_RXHASH: /* :397 raw skb->hash */
		*a = skb->hash;
		return 1;
	case SKF_AD_QUEUE: /* :404, :322 u16 queue_mapping */
		*a = skb->queue_mapping;
		return 1;
	case SKF_AD_VLAN_TAG: /* :409, :329 u16 vlan_tci, any load size */
		*a = skb->vlan_tci;
		return 1;
	case SKF_AD_VLAN_TAG_PRESENT: /* :415, :335 byte >> BIT & 1 */
		*a = model_vlan_all ? skb->vlan_all != 0 :
		     (skb->flags2 >> MODEL_VLAN_PRESENT_BIT) & 1;
		return 1;
	case SKF_AD_VLAN_TPID: /* :421 ntohs(vlan_proto) */
		*a = (u32)(u16)(skb->vlan_proto >> 8 | skb->vlan_proto << 8);
		return 1;
	/* :431-457 call(ctx, A, X); R0 is A.  Same host stubs as the JIT. */
	case SKF_AD_PAY_OFFSET:
		*a = (u32)host_pay_offset(skbp, *a, x);
		return 1;
	case SKF_AD_NLATTR:
		*a = (u32)host_nlattr(skbp, *a, x);
		return 1;
	case SKF_AD_NLATTR_NEST:
		*a = (u32)host_nlattr_nest(skbp, *a, x);
		return 1;
	case SKF_AD_CPU:
		*a = (u32)host_cpu_id(skbp, *a, x);
		return 1;
	case SKF_AD_RANDOM:
		*a = (u32)host_random(skbp, *a, x);
		return 1;
	case SKF_AD_ALU_XOR_X: /* :460 A ^= X */
		*a ^= x;
		return 1;
	}
	return 0; /* not an extension: a plain (negative-offset) load */
}

u32 ref_run(const struct sock_filter *insns, u32 len, const struct model_skb *skb,
	    unsigned int *flags)
{
	return ref_run_trace(insns, len, skb, flags, NULL);
}

u32 ref_run_trace(const struct sock_filter *insns, u32 len, const struct model_skb *skb,
		  unsigned int *flags, struct ref_trace *t)
{
	u32 A = 0, X = 0; /* filter.c:603-604: A ^= A; X ^= X */
	u32 M[BPF_MEMWORDS];
	u32 pc = 0, v;
	unsigned int fl = 0;
	int r;

	if (t) {
		t->executed = t->reached = t->nloads = 0;
		t->end = REF_END_RET;
	}
	memset(M, 0x5a, sizeof(M)); /* never read before written (checked) */
	while (pc < len) {
		const struct sock_filter *f = &insns[pc];
		u32 k = f->k;

		if (t) {
			t->executed++;
			t->last_pc = pc;
			if (t->site)
				t->reached |= t->site[pc];
		}
		pc++;

		switch (f->code) {
		/* filter.c:638-692: ALU maps 1:1 to 32-bit eBPF ALU */
		case BPF_ALU | BPF_ADD | BPF_K: A += k; break;
		case BPF_ALU | BPF_ADD | BPF_X: A += X; break;
		case BPF_ALU | BPF_SUB | BPF_K: A -= k; break;
		case BPF_ALU | BPF_SUB | BPF_X: A -= X; break;
		case BPF_ALU | BPF_MUL | BPF_K: A *= k; break;
		case BPF_ALU | BPF_MUL | BPF_X: A *= X; break;
		case BPF_ALU | BPF_AND | BPF_K: A &= k; break;
		case BPF_ALU | BPF_AND | BPF_X: A &= X; break;
		case BPF_ALU | BPF_OR | BPF_K: A |= k; break;
		case BPF_ALU | BPF_OR | BPF_X: A |= X; break;
		case BPF_ALU | BPF_XOR | BPF_K: A ^= k; break;
		case BPF_ALU | BPF_XOR | BPF_X: A ^= X; break;
		/* K < 32 by bpf_check_classic(); by X: eBPF ALU32 shift
		 * masks the count with 31 (interpreter "SRC & 31", x86 %cl) */
		case BPF_ALU | BPF_LSH | BPF_K: A <<= k; break;
		case BPF_ALU | BPF_RSH | BPF_K: A >>= k; break;
		case BPF_ALU | BPF_LSH | BPF_X:
			if (X >= 32)
				fl |= REF_F_SHIFTX;
			A <<= (X & 31);
			break;
		case BPF_ALU | BPF_RSH | BPF_X:
			if (X >= 32)
				fl |= REF_F_SHIFTX;
			A >>= (X & 31);
			break;
		case BPF_ALU | BPF_NEG: A = -A; break;
		case BPF_ALU | BPF_DIV | BPF_K: A /= k; break; /* k != 0 */
		case BPF_ALU | BPF_MOD | BPF_K: A %= k; break;
		case BPF_ALU | BPF_DIV | BPF_X: /* :681-689 X == 0: return 0 */
			if (X == 0)
				goto div0;
			A /= X;
			break;
		case BPF_ALU | BPF_MOD | BPF_X:
			if (X == 0)
				goto div0;
			A %= X;
			break;

		/* filter.c:669-676: LD|ABS is first tried as an extension
		 * (bpf_check_classic only lets known SKF_AD_* through, any
		 * size), then convert_bpf_ld_abs(). */
		case BPF_LD | BPF_ABS | BPF_W:
		case BPF_LD | BPF_ABS | BPF_H:
		case BPF_LD | BPF_ABS | BPF_B:
			if (k >= (u32)SKF_AD_OFF) {
				fl |= REF_F_ANC;
				r = ref_ancillary(k, skb, &A, X);
				if (r == 2) {
					if (t)
						t->end = REF_END_NODEV;
					goto retA;
				}
				if (r == 1)
					break;
			}
			if (!ref_load(skb, (int)k, BPF_SIZE(f->code) == BPF_W ? 4 :
				      BPF_SIZE(f->code) == BPF_H ? 2 : 1, &v, &fl, t))
				goto fault;
			A = v;
			break;
		/* :527-529 ARG4 = X + k (64-bit add, helper takes int) */
		case BPF_LD | BPF_IND | BPF_W:
		case BPF_LD | BPF_IND | BPF_H:
		case BPF_LD | BPF_IND | BPF_B:
			/* libpcap refuses X + k beyond 2^32, the kernel wraps */
			if ((u64)X + k > 0xffffffffull)
				fl |= REF_F_NEGOFF;
			if (!ref_load(skb, (int)(X + k), BPF_SIZE(f->code) == BPF_W ? 4 :
				      BPF_SIZE(f->code) == BPF_H ? 2 : 1, &v, &fl, t))
				goto fault;
			A = v;
			break;
		/* :776-800 LDX|B|MSH: X = 4 * ([k] & 0xf), fault -> return 0 */
		case BPF_LDX | BPF_MSH | BPF_B:
			if (!ref_load(skb, (int)k, 1, &v, &fl, t))
				goto fault;
			X = (v & 0xf) << 2;
			break;
		/* :853-858 LEN */
		case BPF_LD | BPF_W | BPF_LEN: A = skb->len; break;
		case BPF_LDX | BPF_W | BPF_LEN: X = skb->len; break;
		/* :840-844 IMM */
		case BPF_LD | BPF_IMM: A = k; break;
		case BPF_LDX | BPF_IMM: X = k; break;
		/* :818-836 scratch memory */
		case BPF_ST: M[k] = A; break;
		case BPF_STX: M[k] = X; break;
		case BPF_LD | BPF_MEM: A = M[k]; break;
		case BPF_LDX | BPF_MEM: X = M[k]; break;
		/* :847-851 */
		case BPF_MISC | BPF_TAX: X = A; break;
		case BPF_MISC | BPF_TXA: A = X; break;
		/* :806-813 */
		case BPF_RET | BPF_K: A = k; goto retA;
		case BPF_RET | BPF_A: goto retA;
		/* :718-773 jumps: u32 compares (negative K zero-extended
		 * through TMP, :734-742) */
		case BPF_JMP | BPF_JA: pc += k; break;
		case BPF_JMP | BPF_JEQ | BPF_K: pc += (A == k) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JEQ | BPF_X: pc += (A == X) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JGT | BPF_K: pc += (A > k) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JGT | BPF_X: pc += (A > X) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JGE | BPF_K: pc += (A >= k) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JGE | BPF_X: pc += (A >= X) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JSET | BPF_K: pc += (A & k) ? f->jt : f->jf; break;
		case BPF_JMP | BPF_JSET | BPF_X: pc += (A & X) ? f->jt : f->jf; break;
		default:
			abort(); /* program was not validated */
		}
	}
	abort(); /* bpf_check_classic: last insn is RET */
fault:
	if (t)
		t->end = REF_END_LOAD;
	A = 0;
	goto retA;
div0:
	if (t)
		t->end = REF_END_DIV0;
	A = 0;
retA:
	if (flags)
		*flags = fl;
	return A;
}

/* filter.c:975 chk_code_allowed() */
static bool ref_code_allowed(u16 code)
{
	switch (code) {
	case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_MOD | BPF_K: case BPF_ALU | BPF_MOD | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LD | BPF_W | BPF_IND: case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND: case BPF_LD | BPF_IMM:
	case BPF_LD | BPF_MEM: case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_B | BPF_MSH: case BPF_LDX | BPF_IMM:
	case BPF_LDX | BPF_MEM: case BPF_ST: case BPF_STX:
	case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
	case BPF_RET | BPF_K: case BPF_RET | BPF_A:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
		return true;
	}
	return false;
}

/* filter.c:922 check_load_and_stores() */
static int ref_check_load_and_stores(const struct sock_filter *filter, u32 flen)
{
	u16 masks[BPF_MAXINSNS], memvalid = 0;
	u32 pc;

	memset(masks, 0xff, flen * sizeof(*masks));
	for (pc = 0; pc < flen; pc++) {
		memvalid &= masks[pc];
		switch (filter[pc].code) {
		case BPF_ST:
		case BPF_STX:
			memvalid |= (u16)(1 << filter[pc].k);
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (!(memvalid & (1 << filter[pc].k)))
				return -EINVAL;
			break;
		case BPF_JMP | BPF_JA:
			masks[pc + 1 + filter[pc].k] &= memvalid;
			memvalid = (u16)~0;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
			masks[pc + 1 + filter[pc].jt] &= memvalid;
			masks[pc + 1 + filter[pc].jf] &= memvalid;
			memvalid = (u16)~0;
			break;
		}
	}
	return 0;
}

/* filter.c:1063 bpf_check_classic(), with bpf_check_basics_ok() (:1036) */
int ref_check_classic(const struct sock_filter *filter, u32 flen)
{
	u32 pc;

	if (!filter || flen == 0 || flen > BPF_MAXINSNS)
		return -EINVAL;
	for (pc = 0; pc < flen; pc++) {
		const struct sock_filter *ftest = &filter[pc];

		if (!ref_code_allowed(ftest->code))
			return -EINVAL;
		switch (ftest->code) {
		case BPF_ALU | BPF_DIV | BPF_K:
		case BPF_ALU | BPF_MOD | BPF_K:
			if (ftest->k == 0)
				return -EINVAL;
			break;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_K:
			if (ftest->k >= 32)
				return -EINVAL;
			break;
		case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM:
		case BPF_ST: case BPF_STX:
			if (ftest->k >= BPF_MEMWORDS)
				return -EINVAL;
			break;
		case BPF_JMP | BPF_JA:
			if (ftest->k >= (unsigned int)(flen - pc - 1))
				return -EINVAL;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
			if (pc + ftest->jt + 1 >= flen || pc + ftest->jf + 1 >= flen)
				return -EINVAL;
			break;
		case BPF_LD | BPF_W | BPF_ABS:
		case BPF_LD | BPF_H | BPF_ABS:
		case BPF_LD | BPF_B | BPF_ABS:
			if (!(bpf_anc_helper(ftest) & BPF_ANC) && ftest->k >= (u32)SKF_AD_OFF)
				return -EINVAL;
			break;
		}
	}
	switch (filter[flen - 1].code) {
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
		return ref_check_load_and_stores(filter, flen);
	}
	return -EINVAL;
}

/*
 * Port of the length/jump logic of bpf_convert_filter() (filter.c:570-920)
 * for x86 (CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS, little-endian bitfields):
 * returns 0 if the kernel's conversion accepts the program, -EINVAL if it
 * rejects it because a converted jump does not fit the s16 offset
 * (BPF_EMIT_JMP, filter.c:700-714).
 *
 * Note the first emitting pass: addrs[] comes from kcalloc() and forward
 * targets are still 0, so off = 0 - addrs[i] - 1 - idx, which is below
 * S16_MIN for every jump emitted at eBPF index > ~32767; that pass fails
 * the conversion even for short jumps late in a long converted program.
 */
static int conv_ld_abs_len(u32 k, u16 size, bool indirect)
{
	int n = 0;

	if (!indirect && (int)k >= 0) /* :482 inline fast path */
		n = 1 + (k ? 1 : 0) + 1 + ((int)k <= 32767 ? 1 : 3) +
		    (size != BPF_B ? 1 : 0) + 1;
	/* :518-543 slow path: 3 moves, ARG4, call, JSGE, XOR, EXIT */
	n += 3 + (indirect ? 1 + (k ? 1 : 0) : 1) + 1 + 3;
	return n;
}

int ref_conv_vlan_all;

static int conv_anc_len(u32 k)
{
	switch (k - (u32)SKF_AD_OFF) {
	case SKF_AD_PROTOCOL: return 2;
	case SKF_AD_PKTTYPE: return 2;
	case SKF_AD_IFINDEX: case SKF_AD_HATYPE: return 4;
	case SKF_AD_MARK: case SKF_AD_RXHASH: case SKF_AD_QUEUE: case SKF_AD_VLAN_TAG:
		return 1;
	case SKF_AD_VLAN_TAG_PRESENT:	/* 6.2+: LDX W vlan_all; JEQ 0; MOV 1 */
		return ref_conv_vlan_all ? 3 : 2; /* 6.1: LDX B; (BIT 0: no RSH); AND 1 */
	case SKF_AD_VLAN_TPID: return 2;
	case SKF_AD_PAY_OFFSET: case SKF_AD_NLATTR: case SKF_AD_NLATTR_NEST:
	case SKF_AD_CPU: case SKF_AD_RANDOM:
		return 4;
	case SKF_AD_ALU_XOR_X: return 1;
	}
	return -1;
}

int ref_convert_check(const struct sock_filter *prog, u32 len)
{
	static int addrs[BPF_MAXINSNS + 1];
	bool seen_ld_abs = false;
	u32 i, pass;
	int cur;

	for (i = 0; i < len; i++) {
		u16 c = prog[i].code;

		if ((BPF_CLASS(c) == BPF_LD && BPF_MODE(c) == BPF_ABS &&
		     conv_anc_len(prog[i].k) < 0) ||
		    (BPF_CLASS(c) == BPF_LD && BPF_MODE(c) == BPF_IND) ||
		    c == (BPF_LDX | BPF_MSH | BPF_B))
			seen_ld_abs = true;
	}
	cur = 3 + (seen_ld_abs ? 4 : 0); /* prologue, :603-624 */
	for (i = 0; i < len; i++) {
		const struct sock_filter *fp = &prog[i];
		u16 c = fp->code;
		int n;

		addrs[i] = cur;
		if (BPF_CLASS(c) == BPF_LD && (BPF_MODE(c) == BPF_ABS || BPF_MODE(c) == BPF_IND)) {
			n = BPF_MODE(c) == BPF_ABS ? conv_anc_len(fp->k) : -1;
			if (n < 0)
				n = conv_ld_abs_len(fp->k, BPF_SIZE(c), BPF_MODE(c) == BPF_IND);
		} else if (c == (BPF_ALU | BPF_DIV | BPF_X) || c == (BPF_ALU | BPF_MOD | BPF_X)) {
			n = 5; /* :681-689 */
		} else if (c == (BPF_LDX | BPF_MSH | BPF_B)) {
			n = 1 + conv_ld_abs_len(fp->k, BPF_B, false) + 5; /* :776-800 */
		} else if (c == (BPF_RET | BPF_K)) {
			n = 2;
		} else if (BPF_CLASS(c) == BPF_JMP && BPF_OP(c) != BPF_JA) {
			n = (BPF_SRC(c) == BPF_K && (int)fp->k < 0) ? 1 : 0;
			if (fp->jf == 0)
				n += 1;
			else if (fp->jt == 0 && BPF_OP(c) != BPF_JSET)
				n += 1;
			else
				n += 2;
		} else {
			n = 1;
		}
		cur += n;
	}
	addrs[len] = cur;

	/* BPF_EMIT_JMP in pass 1 (stale zero addrs) and pass 2 */
	for (pass = 1; pass <= 2; pass++) {
		for (i = 0; i < len; i++) {
			const struct sock_filter *fp = &prog[i];
			u16 c = fp->code;
			int j, t1, t2 = -1, off;

			if (BPF_CLASS(c) != BPF_JMP)
				continue;
			if (BPF_OP(c) == BPF_JA) {
				j = 0;
				t1 = (int)(i + fp->k + 1);
			} else {
				j = (BPF_SRC(c) == BPF_K && (int)fp->k < 0) ? 1 : 0;
				if (fp->jf == 0) {
					t1 = (int)(i + fp->jt + 1);
				} else if (fp->jt == 0 && BPF_OP(c) != BPF_JSET) {
					t1 = (int)(i + fp->jf + 1);
				} else {
					t1 = (int)(i + fp->jt + 1);
					t2 = (int)(i + fp->jf + 1);
				}
			}
			off = (pass == 1 ? 0 : addrs[t1]) - addrs[i] - 1 - j;
			if (off < -32768 || off > 32767)
				return -EINVAL;
			if (t2 >= 0) {
				off = (pass == 1 ? 0 : addrs[t2]) - addrs[i] - 1 - (j + 1);
				if (off < -32768 || off > 32767)
					return -EINVAL;
			}
		}
	}
	return 0;
}
