// SPDX-License-Identifier: GPL-2.0
/* Random valid classic programs, packets and skb layouts. */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "refinterp.h"

static const u32 interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 12, 14, 15, 16, 20, 23, 31, 32, 33, 63, 64, 0x7f, 0x80,
	0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x800, 0x86dd, 0x806, 0x8100,
	0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffff000,
	0xffefffff, 0xfff00000, 0xffe00000, 0x12345678, 0xdeadbeef,
};

static const u32 anc_codes[] = {
	SKF_AD_PROTOCOL, SKF_AD_PKTTYPE, SKF_AD_IFINDEX, SKF_AD_NLATTR,
	SKF_AD_NLATTR_NEST, SKF_AD_MARK, SKF_AD_QUEUE, SKF_AD_HATYPE,
	SKF_AD_RXHASH, SKF_AD_CPU, SKF_AD_ALU_XOR_X, SKF_AD_VLAN_TAG,
	SKF_AD_VLAN_TAG_PRESENT, SKF_AD_PAY_OFFSET, SKF_AD_RANDOM, SKF_AD_VLAN_TPID,
};

static u32 rnd_imm(struct rng *r)
{
	switch (rnd_below(r, 4)) {
	case 0:
		return interesting[rnd_below(r, sizeof(interesting) / sizeof(interesting[0]))];
	case 1:
		return rnd_below(r, 256);
	case 2:
		return interesting[rnd_below(r, sizeof(interesting) / sizeof(interesting[0]))] +
		       rnd_below(r, 5) - 2;
	default:
		return rnd32(r);
	}
}

static u16 rnd_size(struct rng *r)
{
	static const u16 s[] = { BPF_W, BPF_H, BPF_B };

	return s[rnd_below(r, 3)];
}

/* packet offset for LD ABS / MSH (never in [SKF_AD_OFF, 2^32)) */
static u32 rnd_abs_off(struct rng *r, unsigned int flags)
{
	u32 v = rnd_below(r, 100);

	if (v < 45)
		return rnd_below(r, 64);
	if (v < 65)
		return rnd_below(r, 1600);
	if (v < 75)
		return rnd_below(r, 4200);
	if (flags & GEN_STD_ONLY)
		return rnd_below(r, 128);
	if (v < 82)
		return (u32)SKF_NET_OFF + rnd_below(r, 80);
	if (v < 89)
		return (u32)SKF_LL_OFF + rnd_below(r, 80);
	if (v < 92)
		return 0x7fffffffu - rnd_below(r, 8);
	if (v < 95)
		return (u32)SKF_NET_OFF - 1 - rnd_below(r, 4);
	if (v < 98)
		return (u32)SKF_LL_OFF - 1 - rnd_below(r, 4);
	/* anything else below SKF_AD_OFF */
	return rnd32(r) % (u32)SKF_AD_OFF;
}

static u32 rnd_jump(struct rng *r, u32 max)
{
	u32 v = rnd_below(r, 100);

	if (max == 0)
		return 0;
	if (v < 50)
		return rnd_below(r, (max < 4 ? max : 4) + 1);
	if (v < 80)
		return rnd_below(r, max + 1);
	/* far: upper part of the range, straddling rel8 limits */
	return max - rnd_below(r, (max < 16 ? max : 16) + 1);
}

void gen_fix_mem(struct sock_filter *p, u32 len)
{
	static u16 masks[BPF_MAXINSNS];
	u16 memvalid = 0;
	u32 pc;

	memset(masks, 0xff, len * sizeof(*masks));
	for (pc = 0; pc < len; pc++) {
		memvalid &= masks[pc];
		switch (p[pc].code) {
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (memvalid & (1u << p[pc].k))
				break;
			p[pc].code = p[pc].code == (BPF_LD | BPF_MEM) ? BPF_ST : BPF_STX;
			fallthrough;
		case BPF_ST:
		case BPF_STX:
			memvalid |= (u16)(1u << p[pc].k);
			break;
		case BPF_JMP | BPF_JA:
			masks[pc + 1 + p[pc].k] &= memvalid;
			memvalid = 0xffff;
			break;
		default:
			if (BPF_CLASS(p[pc].code) == BPF_JMP) {
				masks[pc + 1 + p[pc].jt] &= memvalid;
				masks[pc + 1 + p[pc].jf] &= memvalid;
				memvalid = 0xffff;
			}
		}
	}
}

/*
 * Deep programs (60% of them, 85% of long ones: gen_program()) run far and decide
 * things: their packet loads mostly hit the headers every generated packet
 * has (gen_packet(): Ethernet, IP, a transport header), their branches
 * compare against values those headers hold with mostly short jumps, and
 * they rarely return or divide by X before their end.  The others keep
 * the uniform mix (far jumps, loads anywhere, early returns) that the
 * encodings and failure paths need.
 */
static const u32 header_values[] = {
	0, 1, 2, 4, 6, 17, 0x11, 0x40, 0x45, 0x60, 0x800, 0x806, 0x86dd, 0x8100, 0x88a8,
	0xff, 0xffff, 20, 22, 53, 80, 443, 8080, 0x0a000001, 0xc0a80101, 0x08004500,
};

static u32 deep_imm(struct rng *r)
{
	switch (rnd_below(r, 10)) {
	case 0: case 1: case 2: case 3:
		return header_values[rnd_below(r, sizeof(header_values) / sizeof(header_values[0]))];
	case 4: case 5: case 6:
		return rnd_below(r, 256);
	case 7: case 8:
		return rnd_below(r, 65536);
	default:
		return rnd_imm(r);
	}
}

/* within the first 38 bytes: Ethernet and most of an IPv4 header */
static u32 deep_abs_off(struct rng *r)
{
	return rnd_pct(r, 97) ? rnd_below(r, 35) : rnd_below(r, 64);
}

static const u16 alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_AND,
			       BPF_OR, BPF_XOR, BPF_LSH, BPF_RSH };
static const u16 jmp_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };

static void gen_insn(struct rng *r, struct sock_filter *f, u32 pc, u32 len, unsigned int flags,
		     bool deep)
{
	u32 v = rnd_below(r, 100), room = len - pc - 2; /* max forward distance */

	f->jt = f->jf = 0;
	f->k = 0;
	if ((flags & GEN_LOAD_HEAVY) && v < 85)
		v = rnd_pct(r, 50) ? 47 : 22 + v % 25; /* MSH / LD ABS / IND */
	if (v < 22) { /* ALU */
		u16 op = alu_ops[rnd_below(r, 10)];

		if (rnd_pct(r, 5)) {
			f->code = BPF_ALU | BPF_NEG;
			return;
		}
		/* deep: few divisions by X, which is often 0 */
		if (rnd_pct(r, 35) && !(deep && (op == BPF_DIV || op == BPF_MOD) && rnd_pct(r, 80))) {
			f->code = BPF_ALU | op | BPF_X;
			return;
		}
		f->code = BPF_ALU | op | BPF_K;
		f->k = rnd_imm(r);
		if (op == BPF_LSH || op == BPF_RSH)
			f->k &= 31;
		if ((op == BPF_DIV || op == BPF_MOD) && f->k == 0)
			f->k = 1 + rnd_below(r, 300);
	} else if (v < 40 || (deep && v < 47 && !rnd_pct(r, 20))) { /* LD ABS, incl. ancillary */
		f->code = BPF_LD | BPF_ABS | rnd_size(r);
		if (!(flags & (GEN_STD_ONLY | GEN_LOAD_HEAVY)) && rnd_pct(r, deep ? 10 : 25))
			f->k = (u32)SKF_AD_OFF + anc_codes[rnd_below(r, 16)];
		else
			f->k = deep ? deep_abs_off(r) : rnd_abs_off(r, flags);
	} else if (v < 47) { /* LD IND */
		f->code = BPF_LD | BPF_IND | rnd_size(r);
		if (deep)	/* X set just before (gen_program()) */
			f->k = rnd_below(r, 16);
		else if (rnd_pct(r, 70) || (flags & GEN_STD_ONLY))
			f->k = rnd_below(r, 64);
		else if (rnd_pct(r, 50))
			f->k = (u32)SKF_NET_OFF + rnd_below(r, 64);
		else
			f->k = rnd_imm(r);
	} else if (v < 50) {
		f->code = BPF_LDX | BPF_MSH | BPF_B;
		/* deep: mostly the IPv4 header length, as libpcap loads it */
		f->k = !deep ? rnd_abs_off(r, flags) : rnd_pct(r, 70) ? 14 : deep_abs_off(r);
	} else if (v < 52) {
		f->code = rnd_pct(r, 50) ? BPF_LD | BPF_W | BPF_LEN : BPF_LDX | BPF_W | BPF_LEN;
	} else if (v < 60) {
		f->code = rnd_pct(r, 50) ? BPF_LD | BPF_IMM : BPF_LDX | BPF_IMM;
		f->k = rnd_pct(r, 50) ? rnd_below(r, 48) : rnd_imm(r);
	} else if (v < 70) {
		static const u16 m[] = { BPF_ST, BPF_STX, BPF_LD | BPF_MEM, BPF_LDX | BPF_MEM };

		f->code = m[rnd_below(r, 4)];
		f->k = rnd_below(r, BPF_MEMWORDS);
	} else if (v < 75) {
		f->code = BPF_MISC | (rnd_pct(r, 50) ? BPF_TAX : BPF_TXA);
	} else if (v < 93) { /* conditional jump */
		u16 op = jmp_ops[rnd_below(r, 4)];

		f->code = BPF_JMP | op | (rnd_pct(r, 30) ? BPF_X : BPF_K);
		if (!deep) {
			f->k = rnd_imm(r);
			f->jt = (u8)rnd_jump(r, room < 255 ? room : 255);
			f->jf = (u8)rnd_jump(r, room < 255 ? room : 255);
			return;
		}
		f->k = op == BPF_JSET ? 1u << rnd_below(r, 16) : deep_imm(r);
		f->jt = (u8)rnd_jump(r, room < 8 ? room : rnd_pct(r, 95) ? 8 : room < 255 ? room : 255);
		f->jf = (u8)rnd_jump(r, room < 8 ? room : rnd_pct(r, 95) ? 8 : room < 255 ? room : 255);
	} else if (v < 97) {
		f->code = BPF_JMP | BPF_JA;
		f->k = rnd_jump(r, deep && room > 8 && rnd_pct(r, 95) ? 8 : room);
	} else if (deep && !rnd_pct(r, 1)) {	/* deep: few early returns */
		f->code = BPF_MISC | (rnd_pct(r, 50) ? BPF_TAX : BPF_TXA);
	} else {
		f->code = BPF_RET | (rnd_pct(r, 50) ? BPF_A : BPF_K);
		f->k = rnd_imm(r);
	}
}

/*
 * A run of "jeq #k" from @s on, as seccomp allow lists have them, which
 * the generator compiles as a binary search: consecutive keys (seq) or
 * keys from a small pool (duplicates, and values A often holds), hits
 * past the run, to one of three insns (few: intervals of keys with one
 * target, or with equal returns), the last insn of any shape.  Now and then one insn breaks the run (a hit into
 * it, a jf), so runs cut short are generated too.  The insn before it
 * loads A with one of the keys or a packet byte, or is left alone.
 */
static void gen_jeq_run(struct rng *r, struct sock_filter *p, u32 s, u32 len)
{
	u32 n = 8 + rnd_below(r, rnd_pct(r, 70) ? 24 : 240), i, end, far;
	u32 pool = rnd_pct(r, 50) ? 16 : 400, base = rnd_imm(r), t[3], tt;
	bool seq = rnd_pct(r, 50), few = rnd_pct(r, 50);

	if (s < 1 || s + 2 >= len)
		return;
	if (n > len - 1 - s)
		n = len - 1 - s;
	end = s + n;
	/* few: hits go to 3 insns past the run, made equal returns at times */
	for (i = 0; i < 3; i++) {
		t[i] = end + rnd_below(r, len - end < 16 ? len - end : 16);
		if (rnd_pct(r, 30) && t[i] < len - 1)
			p[t[i]] = (struct sock_filter){ BPF_RET | BPF_K, 0, 0, 0x7fff0000 };
	}
	for (i = s; i < end; i++) {
		p[i].code = BPF_JMP | BPF_JEQ | BPF_K;
		/* seq: runs of consecutive keys, as system call numbers are */
		if (seq)
			p[i].k = base + (i - s) + (rnd_pct(r, 10) ? rnd_below(r, 3) : 0);
		else
			p[i].k = rnd_pct(r, 90) ? rnd_below(r, pool) : rnd_imm(r);
		p[i].jf = 0;
		/* land past the run if a jt can reach it, else anywhere ahead */
		far = len - 2 - i;
		if (far > 255)
			far = 255;
		if (!far)
			p[i].jt = 0;
		else if (few && (tt = t[rnd_pct(r, 80) ? 0 : rnd_below(r, 3)]) - i - 1 <= far)
			p[i].jt = (u8)(tt - i - 1);
		else if (end - 1 - i <= far && !rnd_pct(r, 2))
			p[i].jt = (u8)(end - 1 - i + rnd_below(r, far - (end - 1 - i) + 1));
		else
			p[i].jt = (u8)(1 + rnd_below(r, far));
		if (rnd_pct(r, 1))
			p[i].jf = (u8)rnd_below(r, far + 1);
	}
	if (rnd_pct(r, 50)) {	/* the last insn: jf too, or jt == 0 */
		far = len - 2 - (end - 1) > 255 ? 255 : len - 2 - (end - 1);
		p[end - 1].jt = (u8)rnd_below(r, far + 1);
		p[end - 1].jf = (u8)rnd_below(r, far + 1);
	}
	switch (rnd_below(r, 3)) {
	case 0:
		p[s - 1].code = BPF_LD | BPF_IMM;
		p[s - 1].k = p[s + rnd_below(r, n)].k + rnd_below(r, 3) - 1;
		p[s - 1].jt = p[s - 1].jf = 0;
		break;
	case 1:
		p[s - 1].code = BPF_LD | BPF_B | BPF_ABS;
		p[s - 1].k = rnd_below(r, 64);
		p[s - 1].jt = p[s - 1].jf = 0;
		break;
	}
}

/*
 * Helper calls (ancillary calls, loads at negative offsets) between other
 * insns before the first jump: twice or more, and the generator keeps
 * skb, data, headlen and X in callee-saved registers.
 */
static void gen_call_prefix(struct rng *r, struct sock_filter *p, u32 len)
{
	static const u32 calls[] = { SKF_AD_PAY_OFFSET, SKF_AD_NLATTR, SKF_AD_NLATTR_NEST,
				     SKF_AD_RANDOM, SKF_AD_CPU };
	u32 n = 2 + rnd_below(r, 8), i;

	if (n > len - 1)
		n = len - 1;
	for (i = 0; i < n; i++) {
		struct sock_filter *f = &p[i];
		u32 v = rnd_below(r, 4);

		if (v == 0) {
			*f = (struct sock_filter){ BPF_LD | BPF_ABS | rnd_size(r), 0, 0,
						   (u32)SKF_AD_OFF + calls[rnd_below(r, 5)] };
		} else if (v == 1) {
			f->code = rnd_pct(r, 80) ? BPF_LD | BPF_ABS | rnd_size(r) :
						   BPF_LDX | BPF_MSH | BPF_B;
			f->k = (rnd_pct(r, 50) ? (u32)SKF_NET_OFF : (u32)SKF_LL_OFF) +
			       rnd_below(r, 80);
		} else if (BPF_CLASS(f->code) == BPF_JMP || BPF_CLASS(f->code) == BPF_RET) {
			*f = (struct sock_filter){ BPF_LDX | BPF_IMM, 0, 0, rnd_below(r, 48) };
		}
	}
}

/*
 * Runs of "add #k" and "sub #k": from insn 0, before any jump, where the
 * generator adds each run up as one, or anywhere, where jumps may land
 * inside them.
 */
static void gen_add_runs(struct rng *r, struct sock_filter *p, u32 len)
{
	u32 runs = 1 + rnd_below(r, 3), n, s, i;

	while (runs--) {
		n = 2 + rnd_below(r, 4);
		s = rnd_pct(r, 50) ? 0 : rnd_below(r, len - 1);
		for (i = s; i < s + n && i + 1 < len; i++)
			p[i] = (struct sock_filter){
				BPF_ALU | (rnd_pct(r, 50) ? BPF_ADD : BPF_SUB) | BPF_K, 0, 0,
				rnd_imm(r) };
	}
}

u32 gen_program(struct rng *r, struct sock_filter *out, u32 maxlen, unsigned int flags)
{
	u32 v = rnd_below(r, 100), len, pc;
	bool deep;

	if (v < 55)
		len = 1 + rnd_below(r, 32);
	else if (v < 85)
		len = 1 + rnd_below(r, 256);
	else if (v < 97)
		len = 1 + rnd_below(r, 2048);
	else
		len = rnd_pct(r, 50) ? BPF_MAXINSNS : 2049 + rnd_below(r, 2048);
	if (flags & GEN_LOAD_HEAVY)
		len = 2500 + rnd_below(r, BPF_MAXINSNS - 2500 + 1);
	if (len > maxlen)
		len = maxlen;
	/* deep: most programs, and most of the long ones */
	deep = rnd_pct(r, len >= 1000 ? 85 : 60);
	for (pc = 0; pc + 1 < len; pc++)
		gen_insn(r, &out[pc], pc, len, flags, deep);
	/* deep: X is small where ld [x + k] runs (unless a jump skips its ldx) */
	for (pc = 1; deep && pc + 1 < len; pc++)
		if (BPF_CLASS(out[pc].code) == BPF_LD && BPF_MODE(out[pc].code) == BPF_IND &&
		    !(BPF_CLASS(out[pc - 1].code) == BPF_LD && BPF_MODE(out[pc - 1].code) == BPF_IND))
			out[pc - 1] = rnd_pct(r, 70) ?
				(struct sock_filter){ BPF_LDX | BPF_IMM, 0, 0, rnd_below(r, 24) } :
				(struct sock_filter){ BPF_LDX | BPF_MSH | BPF_B, 0, 0, 14 };
	out[len - 1].code = BPF_RET | (rnd_pct(r, 70) ? BPF_A : BPF_K);
	out[len - 1].jt = out[len - 1].jf = 0;
	out[len - 1].k = rnd_imm(r);
	if (!(flags & GEN_LOAD_HEAVY) && len > 10 && rnd_pct(r, 15))
		for (v = 1 + rnd_below(r, 3); v--;)
			gen_jeq_run(r, out, 1 + rnd_below(r, len - 10), len);
	if (!(flags & GEN_LOAD_HEAVY) && len > 2 && rnd_pct(r, 8))
		gen_add_runs(r, out, len);
	if (!(flags & (GEN_STD_ONLY | GEN_LOAD_HEAVY)) && len > 2 && rnd_pct(r, 8))
		gen_call_prefix(r, out, len);
	gen_fix_mem(out, len);
	if (ref_check_classic(out, len))
		abort();
	return len;
}

/* ---- packets ---- */

static void put16(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static void put32(u8 *p, u32 v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static u32 rnd_ip(struct rng *r)
{
	static const u32 ips[] = { 0x0a000001, 0xc0a80101, 0xac100005, 0x01020304,
				   0xffffffff, 0xe0000001, 0x0a010101, 0xc0a80105 };

	return rnd_pct(r, 70) ? ips[rnd_below(r, 8)] : rnd32(r);
}

static u32 rnd_port(struct rng *r)
{
	static const u16 ports[] = { 20, 21, 22, 53, 80, 443, 1024, 1500, 2000, 6000,
				     6063, 8080, 33434, 4789, 6081, 1 };

	return rnd_pct(r, 75) ? ports[rnd_below(r, 16)] : rnd_below(r, 65536);
}

static u32 gen_l4(struct rng *r, u8 *p, u32 room, u8 proto)
{
	u32 n = 0, i;

	if (proto == 6 && room >= 20) {
		put16(p, rnd_port(r));
		put16(p + 2, rnd_port(r));
		put32(p + 4, rnd32(r));
		put32(p + 8, rnd32(r));
		p[12] = (u8)((5 + rnd_below(r, 3)) << 4);
		p[13] = (u8)(rnd_pct(r, 50) ? 0x02 : rnd_below(r, 256));
		put16(p + 14, 1024);
		put32(p + 16, 0);
		n = 20;
		if (room >= 24 && rnd_pct(r, 30)) {
			memcpy(p + 20, "GET ", 4);
			n = 24;
		}
	} else if (proto == 17 && room >= 8) {
		u32 dport = rnd_port(r);

		put16(p, rnd_port(r));
		put16(p + 2, dport);
		put16(p + 4, 8 + rnd_below(r, 200));
		put16(p + 6, 0x1234);
		n = 8;
		if ((dport == 4789 || dport == 6081) && room >= 30) {
			p[8] = dport == 6081 ? 0 : 0x08;
			p[9] = 0;
			put16(p + 10, dport == 6081 ? 0x6558 : 0);
			put32(p + 12, rnd_below(r, 200) << 8);
			n = 16;
		}
	} else if ((proto == 1 || proto == 58) && room >= 8) {
		p[0] = (u8)(rnd_pct(r, 50) ? (proto == 1 ? 8 : 128) : rnd_below(r, 256));
		p[1] = 0;
		n = 8;
		memset(p + 2, 0, 6);
	}
	for (i = n; i < room && i < n + 16; i++)
		p[i] = (u8)rnd32(r);
	return i;
}

static u32 gen_l3(struct rng *r, u8 *p, u32 room, u16 *ethertype)
{
	static const u8 protos[] = { 6, 17, 1, 58, 132, 47, 50, 2, 44, 0 };
	u32 v = rnd_below(r, 100), ihl, n;
	u8 proto = protos[rnd_below(r, 10)];

	if (v < 55 && room >= 20) {
		*ethertype = 0x0800;
		ihl = rnd_pct(r, 85) ? 5 : 5 + rnd_below(r, 4);
		if (ihl * 4 > room)
			ihl = 5;
		p[0] = (u8)(0x40 | ihl);
		p[1] = (u8)(rnd_pct(r, 80) ? 0 : rnd_below(r, 256));
		put16(p + 4, rnd32(r));
		put16(p + 6, rnd_pct(r, 80) ? 0x4000 : rnd_below(r, 65536));
		p[8] = (u8)(rnd_pct(r, 50) ? 64 : rnd_below(r, 8));
		p[9] = proto;
		put16(p + 10, 0);
		put32(p + 12, rnd_ip(r));
		put32(p + 16, rnd_ip(r));
		memset(p + 20, 1, ihl * 4 - 20);
		n = ihl * 4;
		n += gen_l4(r, p + n, room - n, proto);
		put16(p + 2, rnd_pct(r, 80) ? n : rnd_below(r, 3000));
		return n;
	}
	if (v < 75 && room >= 40) {
		*ethertype = 0x86dd;
		p[0] = 0x60;
		memset(p + 1, 0, 3);
		p[6] = proto;
		p[7] = 64;
		memset(p + 8, 0, 32);
		if (rnd_pct(r, 30)) {
			p[8] = 0xfe;
			p[9] = 0x80;
		} else if (rnd_pct(r, 30)) {
			p[8] = 0x20;
			p[9] = 0x01;
			p[10] = 0x0d;
			p[11] = 0xb8;
		}
		p[23] = 1;
		p[24] = rnd_pct(r, 20) ? 0xff : 0;
		p[39] = 1;
		n = 40;
		n += gen_l4(r, p + n, room - n, proto);
		put16(p + 4, n - 40);
		return n;
	}
	if (v < 85 && room >= 28) {
		*ethertype = rnd_pct(r, 80) ? 0x0806 : 0x8035;
		put16(p, 1);
		put16(p + 2, 0x0800);
		p[4] = 6;
		p[5] = 4;
		put16(p + 6, 1 + rnd_below(r, 4));
		for (n = 8; n < 28; n++)
			p[n] = (u8)rnd32(r);
		return 28;
	}
	*ethertype = (u16)(rnd_pct(r, 50) ? rnd32(r) : rnd_below(r, 1600));
	n = rnd_below(r, room + 1);
	for (v = 0; v < n; v++)
		p[v] = (u8)rnd32(r);
	return n;
}

/* netlink attributes: [len u16][type u16][payload], host byte order */
static u32 gen_nlattrs(struct rng *r, u8 *p, u32 room)
{
	u32 n = 0;

	while (n + 4 <= room && rnd_pct(r, 85)) {
		u16 alen = (u16)(4 + rnd_below(r, 13)), type = (u16)rnd_below(r, 8);

		if (rnd_pct(r, 10))
			type |= 0x8000; /* NLA_F_NESTED */
		if (rnd_pct(r, 5))
			alen = (u16)rnd_below(r, 70);
		memcpy(p + n, &alen, 2);
		memcpy(p + n + 2, &type, 2);
		n += 4;
		while (n < room && n % 4) /* payload */
			p[n++] = (u8)rnd32(r);
	}
	return n;
}

void gen_packet(struct rng *r, struct test_case *tc)
{
	u8 *p = tc->pkt;
	u32 v = rnd_below(r, 100), n, i, room = 1600;
	u16 et;

	if (rnd_pct(r, 3))
		room = sizeof(tc->pkt);
	if (v < 12) { /* raw noise, any length incl. 0 */
		n = rnd_pct(r, 50) ? rnd_below(r, 64) : rnd_below(r, room + 1);
		for (i = 0; i < n; i++)
			p[i] = (u8)rnd32(r);
	} else if (v < 20) {
		n = gen_nlattrs(r, p, rnd_below(r, 200) + 4);
	} else {
		/* ethernet + optional tags */
		for (i = 0; i < 12; i++)
			p[i] = rnd_pct(r, 80) ? (u8)(i < 6 ? (rnd_pct(r, 20) ? 0xff : 0x00) : 0x11 * i) :
			       (u8)rnd32(r);
		n = 12;
		while (rnd_pct(r, 25) && n < 30) {
			static const u16 tpid[] = { 0x8100, 0x88a8, 0x9100 };

			put16(p + n, tpid[rnd_below(r, 3)]);
			put16(p + n + 2, rnd_pct(r, 50) ? 100 : rnd_below(r, 65536));
			n += 4;
		}
		if (rnd_pct(r, 6)) { /* MPLS */
			put16(p + n, 0x8847);
			put32(p + n + 2, (rnd_below(r, 200) << 12) | 0x100 | 64);
			n += 6;
			n += gen_l3(r, p + n, room - n, &et);
		} else if (rnd_pct(r, 5)) { /* PPPoE session */
			put16(p + n, 0x8864);
			p[n + 2] = 0x11;
			p[n + 3] = 0;
			put16(p + n + 4, rnd_pct(r, 50) ? 0x27 : rnd_below(r, 65536));
			put16(p + n + 6, 0);
			put16(p + n + 8, 0x0021);
			n += 10;
			n += gen_l3(r, p + n, room - n, &et);
		} else if (rnd_pct(r, 8)) { /* 802.3 + LLC */
			put16(p + n, rnd_below(r, 1500));
			p[n + 2] = (u8)(rnd_pct(r, 50) ? 0x42 : rnd32(r));
			p[n + 3] = (u8)(rnd_pct(r, 50) ? 0x42 : rnd32(r));
			p[n + 4] = (u8)rnd32(r);
			n += 5;
			for (i = 0; i < 20; i++)
				p[n++] = (u8)rnd32(r);
		} else {
			u32 l3 = gen_l3(r, p + n + 2, room - n - 2, &et);

			put16(p + n, et);
			n += 2 + l3;
		}
	}
	/* mutations */
	if (n && rnd_pct(r, 20)) {
		u32 flips = 1 + rnd_below(r, 4);

		while (flips--)
			p[rnd_below(r, n)] ^= (u8)(1 + rnd_below(r, 255));
	}
	if (n && rnd_pct(r, 10))
		n = rnd_below(r, n + 1);
	tc->len = n;
}

void gen_skb_meta(struct rng *r, struct test_case *tc, bool linear)
{
	struct skb_shape *sh = &tc->shape;
	u32 rem, i;
	static const u16 protos[] = { 0x0008, 0xdd86, 0x0608, 0x0081, 0xa888, 0x0000, 0xffff };

	memset(sh, 0, sizeof(*sh));
	sh->headroom = rnd_pct(r, 20) ? 0 : rnd_below(r, 96);
	if (linear || rnd_pct(r, 30)) {
		sh->headlen = tc->len;
	} else {
		sh->headlen = rnd_pct(r, 30) ? rnd_below(r, 15 < tc->len + 1 ? 15 : tc->len + 1) :
			      rnd_below(r, tc->len + 1);
		rem = tc->len - sh->headlen;
		sh->nr_frags = rem ? 1 + rnd_below(r, MODEL_MAX_FRAGS) : (rnd_pct(r, 20) ? 1 : 0);
		for (i = 0; i + 1 < sh->nr_frags; i++) {
			u32 sz = rnd_pct(r, 50) ? rnd_below(r, 8) : rnd_below(r, rem + 1);

			if (sz > rem)
				sz = rem;
			sh->frag_sizes[i] = sz;
			rem -= sz;
		}
		if (sh->nr_frags)
			sh->frag_sizes[sh->nr_frags - 1] = rem;
	}
	/* mac header: unset, usual RX (14 before data), at data, random */
	switch (rnd_below(r, 5)) {
	case 0:
		sh->mac_off = MODEL_MAC_NONE;
		break;
	case 1:
		sh->mac_off = -(int)(sh->headroom < 14 ? sh->headroom : 14);
		break;
	case 2:
		sh->mac_off = 0;
		break;
	default:
		sh->mac_off = (int)rnd_below(r, sh->headroom + sh->headlen + 1) - (int)sh->headroom;
	}
	switch (rnd_below(r, 4)) {
	case 0:
		sh->net_off = 14;
		break;
	case 1:
		sh->net_off = 0;
		break;
	case 2:
		sh->net_off = -(int)rnd_below(r, sh->headroom + 1);
		break;
	default:
		sh->net_off = (int)rnd_below(r, sh->headroom + tc->len + 1) - (int)sh->headroom;
	}
	for (i = 0; i < sh->headroom; i++)
		tc->headroom_bytes[i] = (u8)rnd32(r);
	tc->has_dev = !rnd_pct(r, 20);
	tc->ifindex = rnd_pct(r, 70) ? (int)rnd_below(r, 1000) : (int)rnd32(r);
	tc->hatype = (u16)(rnd_pct(r, 50) ? 1 : rnd32(r));
	tc->mark = rnd_pct(r, 30) ? rnd_below(r, 8) : rnd32(r);
	tc->hash = rnd32(r);
	tc->cpu = rnd_below(r, 64);
	tc->queue_mapping = (u16)rnd32(r);
	tc->protocol = rnd_pct(r, 70) ? protos[rnd_below(r, 7)] : (u16)rnd32(r);
	tc->vlan_tci = (u16)(rnd_pct(r, 50) ? rnd_below(r, 4096) : rnd32(r));
	tc->vlan_proto = rnd_pct(r, 60) ? (rnd_pct(r, 50) ? 0x0081 : 0xa888) : (u16)rnd32(r);
	tc->flags1 = (u8)rnd32(r);
	tc->flags2 = (u8)rnd32(r);
	/* as the kernel keeps it since 6.2: tci and proto of a present tag */
	tc->vlan_all = rnd_pct(r, 50) ? 0 :
		       ((u32)tc->vlan_tci << 16 | tc->vlan_proto) ?: 0x0081;
	tc->rnd_seed = rnd64(r);
}

struct model_skb *tc_build(const struct test_case *tc, struct model_dev *dev)
{
	struct model_skb *s = model_skb_build(tc->pkt, tc->len, tc->headroom_bytes, &tc->shape);

	memset(dev, 0x77, sizeof(*dev));
	dev->ifindex = tc->ifindex;
	dev->type = tc->hatype;
	s->dev = tc->has_dev ? dev : NULL;
	s->mark = tc->mark;
	s->hash = tc->hash;
	s->queue_mapping = tc->queue_mapping;
	s->protocol = tc->protocol;
	s->vlan_tci = tc->vlan_tci;
	s->vlan_proto = tc->vlan_proto;
	s->flags1 = tc->flags1;
	s->flags2 = tc->flags2;
	s->vlan_all = tc->vlan_all;
	s->pad0 = 0xee;
	memset(s->pad1, 0xee, sizeof(s->pad1));
	return s;
}
