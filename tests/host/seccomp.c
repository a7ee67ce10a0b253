// SPDX-License-Identifier: GPL-2.0
/*
 * Host fuzzing of seccomp filters.  Random programs of the insns seccomp
 * accepts, validated and rewritten as seccomp builds them
 * (bpf_check_classic(), then seccomp_check_filter(): a load of struct
 * seccomp_data becomes BPF_LDX | BPF_W | BPF_ABS (0x21), the length loads
 * become immediates), compiled by the generator with struct seccomp_data
 * as the context, and run over random data against an interpreter of the
 * rewritten program written here.  A quarter carry an allow list as
 * libseccomp writes it (ld [nr], then a run of jeq #nr), whose keys sit
 * near 0, near 2^31 or near 2^32 - 1, where the jeq search's intervals
 * meet the ends of the u32 range; the data's values come from the same
 * pools, so that the searches are taken both ways.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "reach.h"
#include "refinterp.h"
#include "seccomp.h"

#define SC_MAXLEN	1024
#define SC_DATA		8

/* struct seccomp_data */
struct sc_data {
	u32 nr, arch;
	u64 ip;
	u64 args[6];
};

/* Values near the ends of the u32 range and of its signed half. */
static u32 edge_value(struct rng *r)
{
	switch (rnd_below(r, 3)) {
	case 0:
		return rnd_below(r, 4);
	case 1:
		return 0x7ffffffeu + rnd_below(r, 4);
	default:
		return 0xfffffffcu + rnd_below(r, 4);
	}
}

static u32 sc_value(struct rng *r)
{
	static const u32 pool[] = { 0xc000003e, 0x40000003, 39, 59, 60, 231, 257, 0x40000000,
				    0xff, 0x1000 };

	switch (rnd_below(r, 4)) {
	case 0:
		return edge_value(r);
	case 1:
		return pool[rnd_below(r, sizeof(pool) / sizeof(pool[0]))];
	case 2:
		return rnd_below(r, 512);
	default:
		return rnd32(r);
	}
}

/* libseccomp's shape: ld [nr]; jeq #k ... (hits to one ret); keys at an edge */
static void gen_allow_list(struct rng *r, struct sock_filter *p, u32 len, u32 s)
{
	u32 n = 8 + rnd_below(r, rnd_pct(r, 70) ? 24 : 240), end, i, far, allow;
	u32 base = edge_value(r) - (rnd_pct(r, 50) ? rnd_below(r, n) : 0);
	bool seq = rnd_pct(r, 60);

	if (n > len - 1 - s)
		n = len - 1 - s;
	end = s + n;
	p[s - 1] = (struct sock_filter){ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 };
	allow = end + rnd_below(r, len - end < 4 ? len - end : 4);
	if (allow < len - 1)
		p[allow] = (struct sock_filter){ BPF_RET | BPF_K, 0, 0, 0x7fff0000 };
	for (i = s; i < end; i++) {
		far = len - 2 - i < 255 ? len - 2 - i : 255;
		p[i] = (struct sock_filter){ BPF_JMP | BPF_JEQ | BPF_K, 0, 0,
					     seq ? base + (i - s) : rnd_pct(r, 70) ?
					     edge_value(r) : sc_value(r) };
		if (allow - i - 1 <= far)
			p[i].jt = (u8)(allow - i - 1);
		else if (far)
			p[i].jt = (u8)(1 + rnd_below(r, far));
	}
}

static u32 gen_seccomp(struct rng *r, struct sock_filter *p)
{
	static const u16 alu[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_AND, BPF_OR, BPF_XOR,
				   BPF_LSH, BPF_RSH };
	static const u16 jmp[] = { BPF_JEQ, BPF_JGE, BPF_JGT, BPF_JSET };
	u32 len = rnd_pct(r, 70) ? 2 + rnd_below(r, 30) : 32 + rnd_below(r, SC_MAXLEN - 32), i;
	u16 stored = 0;
	bool jumped = false;

	for (i = 0; i + 1 < len; i++) {
		struct sock_filter *f = &p[i];
		u32 left = len - i - 2, c = i == 0 ? 0 : rnd_below(r, 100);

		*f = (struct sock_filter){ 0 };
		if (c < 30) {
			f->code = BPF_LD | BPF_W | BPF_ABS;
			f->k = 4 * rnd_below(r, 16);
		} else if (c < 58) {
			jumped = true;
			f->code = BPF_JMP | jmp[rnd_below(r, 4)] | (rnd_pct(r, 25) ? BPF_X : BPF_K);
			f->k = sc_value(r);
			f->jt = (u8)rnd_below(r, (left < 16 ? left : 16) + 1);
			f->jf = (u8)rnd_below(r, (left < 16 ? left : 16) + 1);
		} else if (c < 73) {
			f->code = BPF_ALU | alu[rnd_below(r, 9)] | (rnd_pct(r, 30) ? BPF_X : BPF_K);
			f->k = sc_value(r);
			if (BPF_OP(f->code) == BPF_LSH || BPF_OP(f->code) == BPF_RSH)
				f->k &= 31;
			if (BPF_OP(f->code) == BPF_DIV && !f->k)
				f->k = 3;
		} else if (c < 78) {
			f->code = (rnd_pct(r, 50) ? BPF_LD : BPF_LDX) | BPF_IMM;
			f->k = sc_value(r);
		} else if (c < 81) {
			f->code = (rnd_pct(r, 50) ? BPF_LD : BPF_LDX) | BPF_W | BPF_LEN;
		} else if (c < 85) {
			f->code = BPF_MISC | (rnd_pct(r, 50) ? BPF_TAX : BPF_TXA);
		} else if (c < 98) {
			f->k = rnd_below(r, 16);
			if (!(stored & (1u << f->k)) || rnd_pct(r, 40)) {
				f->code = rnd_pct(r, 50) ? BPF_ST : BPF_STX;
				if (!jumped)
					stored |= (u16)(1u << f->k);
			} else {
				f->code = (rnd_pct(r, 50) ? BPF_LD : BPF_LDX) | BPF_MEM;
			}
		} else {
			f->code = BPF_RET | (rnd_pct(r, 50) ? BPF_K : BPF_A);
			f->k = sc_value(r);
		}
	}
	p[len - 1] = (struct sock_filter){ BPF_RET | (rnd_pct(r, 30) ? BPF_K : BPF_A), 0, 0,
					   sc_value(r) };
	if (len >= 12 && rnd_pct(r, 25))
		gen_allow_list(r, p, len, 1 + rnd_below(r, len - 11));
	gen_fix_mem(p, len);
	return len;
}

/* seccomp_check_filter(): the rewrite, or -1 where seccomp refuses */
static int sc_rewrite(struct sock_filter *p, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++) {
		switch (p[i].code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (p[i].k >= sizeof(struct sc_data) || (p[i].k & 3))
				return -1;
			p[i].code = BPF_LDX | BPF_W | BPF_ABS;
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			p[i] = (struct sock_filter){ BPF_LD | BPF_IMM, 0, 0, sizeof(struct sc_data) };
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			p[i] = (struct sock_filter){ BPF_LDX | BPF_IMM, 0, 0, sizeof(struct sc_data) };
			break;
		default:
			if (BPF_CLASS(p[i].code) == BPF_ALU && BPF_OP(p[i].code) == BPF_MOD)
				return -1;
			break;
		}
	}
	return 0;
}

/*
 * The rewritten program over one seccomp_data, as the conversion runs it;
 * ORs into *reached the @site bits of the insns it executes.
 */
static u32 sc_interp(const struct sock_filter *p, u32 len, const struct sc_data *d,
		     const u8 *site, u32 *reached)
{
	u32 a = 0, x = 0, m[16] = { 0 }, pc = 0, w[16], v;

	memcpy(w, d, sizeof(w));
	while (pc < len) {
		const struct sock_filter *f = &p[pc];
		u32 k = f->k;

		*reached |= site[pc++];
		switch (BPF_CLASS(f->code)) {
		case BPF_LDX:
			if (f->code == (BPF_LDX | BPF_W | BPF_ABS))
				a = w[k / 4];	/* seccomp's rewritten load: into A */
			else if (BPF_MODE(f->code) == BPF_IMM)
				x = k;
			else
				x = m[k];
			break;
		case BPF_LD:
			a = BPF_MODE(f->code) == BPF_IMM ? k : m[k];
			break;
		case BPF_ST:
			m[k] = a;
			break;
		case BPF_STX:
			m[k] = x;
			break;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		case BPF_RET:
			return BPF_RVAL(f->code) == BPF_K ? k : a;
		case BPF_ALU:
			v = BPF_SRC(f->code) == BPF_X ? x : k;
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += v; break;
			case BPF_SUB: a -= v; break;
			case BPF_MUL: a *= v; break;
			case BPF_DIV: if (!v) return 0; a /= v; break;
			case BPF_AND: a &= v; break;
			case BPF_OR: a |= v; break;
			case BPF_XOR: a ^= v; break;
			case BPF_LSH: a <<= v & 31; break;
			case BPF_RSH: a >>= v & 31; break;
			default: a = -a; break;	/* BPF_NEG */
			}
			break;
		default: /* BPF_JMP */
			v = BPF_SRC(f->code) == BPF_X ? x : k;
			if (BPF_OP(f->code) == BPF_JA) {
				pc += k;
				break;
			}
			switch (BPF_OP(f->code)) {
			case BPF_JEQ: v = a == v; break;
			case BPF_JGT: v = a > v; break;
			case BPF_JGE: v = a >= v; break;
			default: v = (a & v) != 0; break;
			}
			pc += v ? f->jt : f->jf;
			break;
		}
	}
	abort();
}

void test_seccomp_fuzz(u64 seed, unsigned long programs)
{
	/* plain, blinded, and everything the eBPF JIT may ask for */
	static const unsigned int vs[] = { 0, 1, 3, 12 };
	static struct sock_filter p[SC_MAXLEN];
	static u8 site[SC_MAXLEN];
	struct rng r = { seed ^ 0x5ecc0u };
	unsigned long built = 0, compiled = 0, searched = 0, runs = 0, through = 0, bad = 0, i;
	unsigned long dependent = 0, edge_hits = 0;

	for (i = 0; i < programs; i++) {
		u32 len = gen_seccomp(&r, p), first = 0, j, k, reached;
		struct sc_data d[SC_DATA];
		u32 want[SC_DATA];
		bool dep = false;
		struct jit_prog jp;

		if (ref_check_classic(p, len) || sc_rewrite(p, len))
			continue;
		built++;
		/* the sites of the plain image: where its jeq search is */
		if (jit_compile(p, len, &variants[0].o, &jp) == 0) {
			searched += jp.ctx.jeq_runs;
			reach_sites_of(&jp.ctx, p, len, site);
		} else {
			memset(site, 0, len);
		}
		jit_free(&jp);
		for (j = 0; j < SC_DATA; j++) {
			d[j].nr = rnd_pct(&r, 70) ? sc_value(&r) : rnd_below(&r, 460);
			d[j].arch = rnd_pct(&r, 80) ? 0xc000003e : sc_value(&r);
			d[j].ip = rnd64(&r);
			for (k = 0; k < 6; k++)
				d[j].args[k] = (u64)sc_value(&r) << (rnd_pct(&r, 20) ? 32 : 0) |
					       (rnd_pct(&r, 50) ? sc_value(&r) : 0);
			reached = 0;
			want[j] = sc_interp(p, len, &d[j], site, &reached);
			if (!j)
				first = want[j];
			dep |= want[j] != first;
			if (reached & (1u << REACH_JEQ_SEARCH)) {
				through++;
				edge_hits += want[j] == 0x7fff0000;
			}
		}
		dependent += dep;
		for (k = 0; k < sizeof(vs) / sizeof(vs[0]); k++) {
			struct jit_prog jp;
			int rc = jit_compile(p, len, &variants[vs[k]].o, &jp);

			if (rc) {
				CHECK(0, "seccomp fuzz: a valid seccomp program (%u insns) not compiled "
				      "(%s) variant %s", len, jit_verdict_name(jp.verdict),
				      variants[vs[k]].name);
				jit_free(&jp);
				continue;
			}
			compiled++;
			for (j = 0; j < SC_DATA; j++) {
				u32 got = jit_run_ctx(&jp, &d[j], p);

				runs++;
				if (got == want[j]) {
					n_passed++;
				} else if (bad++ < 3) {
					CHECK(0, "seccomp fuzz: %u insns, variant %s, data %u: interpreter "
					      "%#x, JIT %#x (seed %#llx, program %lu)", len,
					      variants[vs[k]].name, j, want[j], got,
					      (unsigned long long)seed, i);
				} else {
					n_failed++;
				}
			}
			jit_free(&jp);
		}
	}
	printf("seccomp fuzzing: %lu programs, %lu built as seccomp does, %lu images "
	       "(plain, blinded, hard, blind+hard), %lu with a jeq search (keys near 0, 2^31, "
	       "2^32 - 1), %lu runs, %lu of them through a search (%lu allowed by it), "
	       "%lu programs whose result depends on the data, %lu mismatches\n", programs, built,
	       compiled, searched, runs, through, edge_hits, dependent, bad);
	CHECK(built * 10 >= programs * 9, "seccomp fuzz: only %lu of %lu programs built", built,
	      programs);
	CHECK(searched * 20 >= built, "seccomp fuzz: only %lu of %lu programs with a jeq search",
	      searched, built);
	CHECK(through * 50 >= runs / (sizeof(vs) / sizeof(vs[0])) && edge_hits * 10 >= through,
	      "seccomp fuzz: %lu runs through a jeq search (floor 2%%), %lu of them allowed by it "
	      "(floor 10%%)", through, edge_hits);
	CHECK(dependent * 2 >= built, "seccomp fuzz: only %lu of %lu programs depend on the data",
	      dependent, built);
}
