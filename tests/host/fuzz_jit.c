// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: coverage-guided differential testing of the code
 * generator against the reference interpreter.
 *
 * Input: 16-byte header (prog insns u16 BE, packet length u16 BE, 12 bytes
 * of skb metadata/shape), then the program (struct sock_filter, 8 bytes
 * each), then the packet.  The program is repaired into a valid one (per
 * bpf_check_classic) so mutations stay useful.  Any mismatch aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "jitrun.h"
#include "refinterp.h"

unsigned long host_shim_warn_count;

static const u16 codes[] = {
	BPF_ALU | BPF_ADD | BPF_K, BPF_ALU | BPF_ADD | BPF_X, BPF_ALU | BPF_SUB | BPF_K,
	BPF_ALU | BPF_SUB | BPF_X, BPF_ALU | BPF_MUL | BPF_K, BPF_ALU | BPF_MUL | BPF_X,
	BPF_ALU | BPF_DIV | BPF_K, BPF_ALU | BPF_DIV | BPF_X, BPF_ALU | BPF_MOD | BPF_K,
	BPF_ALU | BPF_MOD | BPF_X, BPF_ALU | BPF_AND | BPF_K, BPF_ALU | BPF_AND | BPF_X,
	BPF_ALU | BPF_OR | BPF_K, BPF_ALU | BPF_OR | BPF_X, BPF_ALU | BPF_XOR | BPF_K,
	BPF_ALU | BPF_XOR | BPF_X, BPF_ALU | BPF_LSH | BPF_K, BPF_ALU | BPF_LSH | BPF_X,
	BPF_ALU | BPF_RSH | BPF_K, BPF_ALU | BPF_RSH | BPF_X, BPF_ALU | BPF_NEG,
	BPF_LD | BPF_W | BPF_ABS, BPF_LD | BPF_H | BPF_ABS, BPF_LD | BPF_B | BPF_ABS,
	BPF_LD | BPF_W | BPF_LEN, BPF_LD | BPF_W | BPF_IND, BPF_LD | BPF_H | BPF_IND,
	BPF_LD | BPF_B | BPF_IND, BPF_LD | BPF_IMM, BPF_LD | BPF_MEM, BPF_LDX | BPF_W | BPF_LEN,
	BPF_LDX | BPF_B | BPF_MSH, BPF_LDX | BPF_IMM, BPF_LDX | BPF_MEM, BPF_ST, BPF_STX,
	BPF_MISC | BPF_TAX, BPF_MISC | BPF_TXA, BPF_RET | BPF_K, BPF_RET | BPF_A,
	BPF_JMP | BPF_JA, BPF_JMP | BPF_JEQ | BPF_K, BPF_JMP | BPF_JEQ | BPF_X,
	BPF_JMP | BPF_JGE | BPF_K, BPF_JMP | BPF_JGE | BPF_X, BPF_JMP | BPF_JGT | BPF_K,
	BPF_JMP | BPF_JGT | BPF_X, BPF_JMP | BPF_JSET | BPF_K, BPF_JMP | BPF_JSET | BPF_X,
};

static bool allowed(u16 c)
{
	unsigned int i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i] == c)
			return true;
	return false;
}

static void repair(struct sock_filter *p, u32 len)
{
	u32 pc;

	for (pc = 0; pc < len; pc++) {
		struct sock_filter *f = &p[pc];
		u32 room = len - pc - 1;

		if (!allowed(f->code))
			f->code = codes[f->code % (sizeof(codes) / sizeof(codes[0]))];
		if (pc == len - 1 && BPF_CLASS(f->code) != BPF_RET)
			f->code = f->k & 1 ? BPF_RET | BPF_K : BPF_RET | BPF_A;
		switch (f->code) {
		case BPF_ALU | BPF_DIV | BPF_K:
		case BPF_ALU | BPF_MOD | BPF_K:
			if (!f->k)
				f->k = 1;
			break;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_K:
			f->k &= 31;
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
		case BPF_ST:
		case BPF_STX:
			f->k %= BPF_MEMWORDS;
			break;
		case BPF_LD | BPF_W | BPF_ABS:
		case BPF_LD | BPF_H | BPF_ABS:
		case BPF_LD | BPF_B | BPF_ABS:
			if (f->k >= (u32)SKF_AD_OFF && !(bpf_anc_helper(f) & BPF_ANC))
				f->k = (u32)SKF_AD_OFF + (f->k % 16) * 4;
			break;
		case BPF_JMP | BPF_JA:
			f->k = room > 1 ? f->k % (room - 1 + 1) : 0;
			if (f->k >= room)
				f->k = room ? room - 1 : 0;
			break;
		default:
			if (BPF_CLASS(f->code) == BPF_JMP) {
				if (f->jt >= room)
					f->jt = (u8)(room ? f->jt % room : 0);
				if (f->jf >= room)
					f->jf = (u8)(room ? f->jf % room : 0);
			}
		}
	}
	gen_fix_mem(p, len);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct sock_filter p[BPF_MAXINSNS];
	static struct test_case tc;
	static bool init;
	struct jit_opts o[2] = { { 0 }, { 0 } };
	const u8 *h = data;
	u32 len, plen, i, m;
	int conv;

	if (!init) {
		jit_env_init();
		ref_conv_vlan_all = kconv_vlan_all;
		init = true;
	}
	if (size < 16 + 8)
		return 0;
	len = (u32)h[0] << 8 | h[1];
	plen = (u32)h[2] << 8 | h[3];
	if (len == 0)
		len = 1;
	if (len > BPF_MAXINSNS)
		len = BPF_MAXINSNS;
	if (len > (size - 16) / 8)
		len = (u32)((size - 16) / 8);
	memcpy(p, data + 16, len * 8);
	repair(p, len);
	if (ref_check_classic(p, len))
		abort(); /* repair() is broken */
	if (plen > size - 16 - len * 8)
		plen = (u32)(size - 16 - len * 8);
	if (plen > sizeof(tc.pkt))
		plen = sizeof(tc.pkt);
	memset(&tc, 0, sizeof(tc));
	memcpy(tc.pkt, data + 16 + len * 8, plen);
	tc.len = plen;
	{
		/* metadata from the header, shape derived from it */
		struct rng r = { (u64)h[4] << 40 | (u64)h[5] << 32 | (u64)h[6] << 24 |
				 (u64)h[7] << 16 | (u64)h[8] << 8 | h[9] };

		gen_skb_meta(&r, &tc, h[10] & 1);
	}
	o[1].blind = h[11] & 1;
	o[1].blind_seed = (u32)h[12] * 0x01010101u;
	o[1].bhb = h[11] & 2;
	o[1].rethunk = h[11] & 4;
	o[1].sls = h[11] & 8;
	o[1].endbr = h[11] & 16;
	o[1].ibhf = h[11] & 32;
	o[1].be_bitfields = h[11] & 64;
	o[1].vlan_all = h[11] & 128;
	o[1].call_depth = h[12] & 1;
	conv = kconv_check(p, (int)len);
	if (!conv != !ref_convert_check(p, len))
		abort(); /* our port of the conversion's limits is wrong */
	for (m = 0; m < 2; m++) {
		struct jit_prog jp;
		int rc = jit_compile(p, len, &o[m], &jp);

		if (rc < 0)
			abort(); /* the generator failed on a valid program */
		if (rc > 0) {
			/* only declines the conversion agrees with */
			if (jp.verdict != CBPF_JIT_DECLINE_CONVERSION &&
			    jp.verdict != CBPF_JIT_DECLINE_SIZE)
				abort();
			jit_free(&jp);
			continue;
		}
		if (conv && !getenv("CBPF_FUZZ_ALLOW_CONV"))
			abort(); /* compiled what bpf_convert_filter() rejects */
		for (i = 0; i < 2; i++) {
			struct model_dev dev;
			struct model_skb *s;
			unsigned long bhb0 = host_bhb_calls, th0 = host_thunk_calls;
			u32 e, g;

			if (i == 1) { /* same bytes, linear */
				tc.shape.headlen = tc.len;
				tc.shape.nr_frags = 0;
			}
			s = tc_build(&tc, &dev);
			host_cpu_value = tc.cpu;
			host_rnd_reset(tc.rnd_seed);
			model_be_bitfields = o[m].be_bitfields;
			model_vlan_all = o[m].vlan_all;
			e = ref_run(p, len, s, NULL);
			model_be_bitfields = false;
			model_vlan_all = false;
			host_rnd_reset(tc.rnd_seed);
			g = jit_run(&jp, s, p);
			if (e != g || host_misaligned_calls || host_abi_violations)
				abort();
			/* one exit; the thunk also serves shared slow paths */
			if ((host_bhb_calls - bhb0 != (o[m].bhb ? 1u : 0u)) ||
			    (o[m].rethunk ? host_thunk_calls == th0 : host_thunk_calls != th0))
				abort();
			model_skb_free(s);
		}
		jit_free(&jp);
	}
	return 0;
}
