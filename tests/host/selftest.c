// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the test machinery itself: the reference interpreter against
 * hand-computed kernel results, the host helpers against the reference's
 * independent packet reader, the bpf_check_classic() port, and libpcap's
 * bpf_filter() against the reference interpreter.
 */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "refinterp.h"

#define I(c, t, f, kk) { .code = (c), .jt = (t), .jf = (f), .k = (kk) }
#define AD(x) ((u32)SKF_AD_OFF + SKF_AD_##x)

struct ref_case {
	const char *name;
	struct sock_filter p[8];
	u32 len;
	u32 want;
	int layout; /* 0 linear, 1 headlen 10 + 2 frags, 2 nlattr packet */
	bool no_dev;
};

static const struct ref_case ref_cases[] = {
	{ "ret k", { I(BPF_RET | BPF_K, 0, 0, 42) }, 1, 42, 0, 0 },
	{ "A starts 0", { I(BPF_RET | BPF_A, 0, 0, 0) }, 1, 0, 0, 0 },
	{ "ld w abs", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0x00010203, 0, 0 },
	{ "ld h abs", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 1), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0x0102, 0, 0 },
	{ "ld b ind", { I(BPF_LDX | BPF_IMM, 0, 0, 3), I(BPF_LD | BPF_B | BPF_IND, 0, 0, 1),
			I(BPF_RET | BPF_A, 0, 0, 0) }, 3, 4, 0, 0 },
	{ "ld len", { I(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 60, 0, 0 },
	{ "oob w -> 0", { I(BPF_LD | BPF_IMM, 0, 0, 9), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 57),
			  I(BPF_RET | BPF_K, 0, 0, 1) }, 3, 0, 0, 0 },
	{ "last w in bounds", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 56), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 0x38393a3b, 0, 0 },
	{ "div x 0 -> 0", { I(BPF_LD | BPF_IMM, 0, 0, 10), I(BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0),
			    I(BPF_RET | BPF_K, 0, 0, 7) }, 3, 0, 0, 0 },
	{ "mod x 0 -> 0", { I(BPF_LD | BPF_IMM, 0, 0, 10), I(BPF_ALU | BPF_MOD | BPF_X, 0, 0, 0),
			    I(BPF_RET | BPF_K, 0, 0, 7) }, 3, 0, 0, 0 },
	{ "mod x", { I(BPF_LD | BPF_IMM, 0, 0, 10), I(BPF_LDX | BPF_IMM, 0, 0, 4),
		     I(BPF_ALU | BPF_MOD | BPF_X, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 4, 2, 0, 0 },
	{ "lsh x 33 = lsh 1", { I(BPF_LD | BPF_IMM, 0, 0, 1), I(BPF_LDX | BPF_IMM, 0, 0, 33),
				I(BPF_ALU | BPF_LSH | BPF_X, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) },
	  4, 2, 0, 0 },
	{ "msh", { I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14), I(BPF_MISC | BPF_TXA, 0, 0, 0),
		   I(BPF_RET | BPF_A, 0, 0, 0) }, 3, (14 & 0xf) << 2, 0, 0 },
	{ "msh keeps A", { I(BPF_LD | BPF_IMM, 0, 0, 5), I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14),
			   I(BPF_RET | BPF_A, 0, 0, 0) }, 3, 5, 0, 0 },
	{ "protocol", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(PROTOCOL)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 0x0800, 0, 0 },
	{ "pkttype masks", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, AD(PKTTYPE)),
			     I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 3, 0, 0 },
	{ "ifindex", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(IFINDEX)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 577, 0, 0 },
	{ "hatype", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(HATYPE)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 588, 0, 0 },
	{ "ifindex dev NULL returns A", { I(BPF_LD | BPF_IMM, 0, 0, 77),
					  I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(IFINDEX)),
					  I(BPF_RET | BPF_K, 0, 0, 1) }, 3, 77, 0, 1 },
	{ "hatype dev NULL returns A", { I(BPF_LD | BPF_IMM, 0, 0, 78),
					 I(BPF_LD | BPF_H | BPF_ABS, 0, 0, AD(HATYPE)),
					 I(BPF_RET | BPF_K, 0, 0, 1) }, 3, 78, 0, 1 },
	{ "mark", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(MARK)), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0x1234aaaa, 0, 0 },
	{ "rxhash", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(RXHASH)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 0x1234aaab, 0, 0 },
	{ "queue", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(QUEUE)), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  123, 0, 0 },
	{ "vlan tag, byte load", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, AD(VLAN_TAG)),
				   I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 0xffff, 0, 0 },
	{ "vlan present", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(VLAN_TAG_PRESENT)),
			    I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 1, 0, 0 },
	{ "vlan tpid", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, AD(VLAN_TPID)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  2, 0x88a8, 0, 0 },
	{ "xor x", { I(BPF_LDX | BPF_IMM, 0, 0, 5), I(BPF_LD | BPF_IMM, 0, 0, 3),
		     I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(ALU_XOR_X)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  4, 6, 0, 0 },
	{ "cpu", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 5, 0, 0 },
	{ "net off", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, (u32)SKF_NET_OFF + 2),
		       I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 16, 0, 0 },
	{ "ll off (mac 14 before data, headroom)",
	  { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, (u32)SKF_LL_OFF + 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0xf2f3, 0, 0 },
	{ "ll off into data", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, (u32)SKF_LL_OFF + 12),
				I(BPF_RET | BPF_A, 0, 0, 0) }, 2, 0xfeff0001, 0, 0 },
	{ "ll off below: fault", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, (u32)SKF_LL_OFF - 1),
				   I(BPF_RET | BPF_K, 0, 0, 9) }, 2, 0, 0, 0 },
	{ "ind negative wraps to net off", { I(BPF_LDX | BPF_IMM, 0, 0, (u32)SKF_NET_OFF),
					     I(BPF_LD | BPF_B | BPF_IND, 0, 0, 3),
					     I(BPF_RET | BPF_A, 0, 0, 0) }, 3, 17, 0, 0 },
	{ "frag straddle w", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 8), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0x08090a0b, 1, 0 },
	{ "frag inside", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 30), I(BPF_RET | BPF_A, 0, 0, 0) }, 2,
	  0x1e1f, 1, 0 },
	{ "frag end oob", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 57), I(BPF_RET | BPF_K, 0, 0, 5) }, 2, 0,
	  1, 0 },
	{ "nlattr found", { I(BPF_LDX | BPF_IMM, 0, 0, 2), I(BPF_LD | BPF_IMM, 0, 0, 0),
			    I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)), I(BPF_RET | BPF_A, 0, 0, 0) },
	  4, 8, 2, 0 },
	{ "nlattr nest", { I(BPF_LDX | BPF_IMM, 0, 0, 7), I(BPF_LD | BPF_IMM, 0, 0, 16),
			   I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR_NEST)),
			   I(BPF_RET | BPF_A, 0, 0, 0) }, 4, 24, 2, 0 },
	{ "nlattr nonlinear -> 0", { I(BPF_LDX | BPF_IMM, 0, 0, 2),
				     I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)),
				     I(BPF_RET | BPF_A, 0, 0, 0) }, 3, 0, 1, 0 },
	{ "jeq negative k", { I(BPF_LD | BPF_IMM, 0, 0, 0xffffffff),
			      I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0xffffffff),
			      I(BPF_RET | BPF_K, 0, 0, 1), I(BPF_RET | BPF_K, 0, 0, 2) }, 4, 1, 0, 0 },
	{ "jgt unsigned", { I(BPF_LD | BPF_IMM, 0, 0, 0x80000000),
			    I(BPF_JMP | BPF_JGT | BPF_K, 0, 1, 1), I(BPF_RET | BPF_K, 0, 0, 1),
			    I(BPF_RET | BPF_K, 0, 0, 2) }, 4, 1, 0, 0 },
	{ "scratch", { I(BPF_LD | BPF_IMM, 0, 0, 11), I(BPF_ST, 0, 0, 15), I(BPF_LD | BPF_IMM, 0, 0, 0),
		       I(BPF_LDX | BPF_MEM, 0, 0, 15), I(BPF_MISC | BPF_TXA, 0, 0, 0),
		       I(BPF_RET | BPF_A, 0, 0, 0) }, 6, 11, 0, 0 },
};

static struct model_skb *ref_case_skb(int layout, bool no_dev, struct model_dev *dev)
{
	static u8 pkt[60], hr[32];
	struct skb_shape sh = { .headroom = 32, .headlen = 60, .mac_off = -14, .net_off = 14 };
	struct model_skb *s;
	u32 i;

	for (i = 0; i < 60; i++)
		pkt[i] = (u8)i;
	for (i = 0; i < 32; i++)
		hr[i] = (u8)(0xe0 + i);
	if (layout == 1) {
		sh.headlen = 10;
		sh.nr_frags = 2;
		sh.frag_sizes[0] = 5;
		sh.frag_sizes[1] = 45;
	}
	if (layout == 2) {
		/* attrs at 0: {len 8, type 1}, {len 8, type 2}, {len 16, type 3 (nested):
		 *   {len 4, type 9}, {len 8, type 7}}, then filler */
		static const u16 a[] = { 8, 1, 0, 0, 8, 2, 0, 0, 16, 0x8003, 4, 9, 8, 7, 0, 0 };

		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt, a, sizeof(a));
	}
	s = model_skb_build(pkt, 60, hr, &sh);
	dev->ifindex = 577;
	dev->type = 588;
	s->dev = no_dev ? NULL : dev;
	s->flags1 = 0xfb;           /* pkt_type 3 + noise */
	s->flags2 = 0xff;           /* vlan_present */
	s->mark = 0x1234aaaa;
	s->hash = 0x1234aaab;
	s->queue_mapping = 123;
	s->vlan_tci = 0xffff;
	s->protocol = 0x0008;       /* htons(ETH_P_IP) */
	s->vlan_proto = 0xa888;     /* htons(ETH_P_8021AD) */
	return s;
}

void test_ref_selftest(void)
{
	unsigned int i;

	host_cpu_value = 5;
	for (i = 0; i < sizeof(ref_cases) / sizeof(ref_cases[0]); i++) {
		const struct ref_case *c = &ref_cases[i];
		struct model_dev dev;
		struct model_skb *s = ref_case_skb(c->layout, c->no_dev, &dev);
		u32 got;

		CHECK(ref_check_classic(c->p, c->len) == 0, "ref case '%s' is not valid", c->name);
		got = ref_run(c->p, c->len, s, NULL);
		CHECK(got == c->want, "reference interpreter case '%s': got %#x want %#x", c->name,
		      got, c->want);
		model_skb_free(s);
	}
	printf("reference interpreter self-test: %u cases\n", i);
}

/* host load helpers (used by the JIT) vs the reference's byte reader */
void test_helpers(u64 seed)
{
	struct rng r = { seed ^ 0x5555 };
	unsigned long n = 0;
	int it;

	for (it = 0; it < 3000; it++) {
		struct test_case tc;
		struct model_dev dev;
		struct model_skb *s;
		int j;

		gen_packet(&r, &tc);
		gen_skb_meta(&r, &tc, rnd_pct(&r, 30));
		s = tc_build(&tc, &dev);
		for (j = 0; j < 20; j++) {
			static const u16 sz[] = { BPF_B, BPF_H, BPF_W };
			struct sock_filter p[2] = {
				I(BPF_LD | BPF_ABS | sz[j % 3], 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0)
			};
			u64 (*h[])(u64, u64, u64, u64) = { host_load_helper_8, host_load_helper_16,
							  host_load_helper_32 };
			u32 k = rnd_pct(&r, 60) ? rnd_below(&r, tc.len + 8) :
				rnd_pct(&r, 50) ? (u32)SKF_NET_OFF + rnd_below(&r, 40) :
						  (u32)SKF_LL_OFF + rnd_below(&r, 40);
			u64 hv;
			u32 rv;

			p[0].k = k;
			rv = ref_run(p, 2, s, NULL);
			hv = h[j % 3]((u64)(uintptr_t)s, (u64)(uintptr_t)s->data, skb_headlen_m(s), k);
			CHECK(((s64)hv < 0 ? 0 : (u32)hv) == rv && ((s64)hv < 0 || hv >> 32 == 0),
			      "helper %d at %#x: %#llx, reference %#x", 8 << (j % 3), k,
			      (unsigned long long)hv, rv);
			n++;
		}
		model_skb_free(s);
	}
	printf("host load helpers vs reference reader: %lu loads\n", n);
}

void test_check_classic(const struct corpus_prog *c, u32 nc)
{
	static const struct {
		const char *name;
		struct sock_filter p[4];
		u32 len;
	} bad[] = {
		{ "missing ret", { I(BPF_LD | BPF_IMM, 0, 0, 1) }, 1 },
		{ "div k 0", { I(BPF_ALU | BPF_DIV | BPF_K, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "mod k 0", { I(BPF_ALU | BPF_MOD | BPF_K, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "lsh 32", { I(BPF_ALU | BPF_LSH | BPF_K, 0, 0, 32), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "M[16]", { I(BPF_ST, 0, 0, 16), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "load before store", { I(BPF_LD | BPF_MEM, 0, 0, 1), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "store on one path only", { I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), I(BPF_ST, 0, 0, 2),
					      I(BPF_LD | BPF_MEM, 0, 0, 2), I(BPF_RET | BPF_A, 0, 0, 0) }, 4 },
		{ "ja out", { I(BPF_JMP | BPF_JA, 0, 0, 1), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "jt out", { I(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "unknown anc", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(MAX)), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "anc gap", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(PROTOCOL) + 2), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "seccomp 0x21", { I(BPF_LDX | BPF_W | BPF_ABS, 0, 0, 0), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
		{ "ret x", { I(BPF_RET | BPF_X, 0, 0, 0) }, 1 },
		{ "abs k=-1", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0xffffffff), I(BPF_RET | BPF_A, 0, 0, 0) }, 2 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(ref_check_classic(bad[i].p, bad[i].len) != 0, "check_classic accepted '%s'",
		      bad[i].name);
	for (i = 0; i < nc; i++) {
		/* only protochain (a backward JA loop) is invalid for Linux */
		bool loop = strstr(c[i].expr, "protochain") != NULL;

		CHECK((ref_check_classic(c[i].insns, c[i].len) != 0) == loop,
		      "corpus %s (%s): check_classic %s it", c[i].name, c[i].expr,
		      loop ? "accepts" : "rejects");
	}
	printf("bpf_check_classic port: %zu invalid, %u corpus programs\n",
	       sizeof(bad) / sizeof(bad[0]), nc);
}

/* (a) libpcap bpf_filter() vs (b) the reference, linear skbs only */
static unsigned long pcap_one(const struct sock_filter *p, u32 len, struct test_case *tc,
			      const char *what)
{
	struct model_dev dev;
	struct model_skb *s;
	unsigned int fl;
	u32 ref, pc;

	tc->shape.headlen = tc->len;
	tc->shape.nr_frags = 0;
	s = tc_build(tc, &dev);
	ref = ref_run(p, len, s, &fl);
	model_skb_free(s);
	if (fl & (REF_F_ANC | REF_F_NEGOFF | REF_F_SHIFTX))
		return 0;
	pc = bpf_filter((const struct bpf_insn *)p, tc->pkt, tc->len, tc->len);
	if (pc != ref && getenv("PCAP_DUMP")) {
		FILE *f = fopen(getenv("PCAP_DUMP"), "w");

		if (f) {
			write_repro(f, p, len, tc, "libpcap", ref, pc, what);
			fclose(f);
		}
	}
	CHECK(pc == ref, "libpcap vs reference on %s: pcap %#x ref %#x (len %u)", what, pc, ref,
	      tc->len);
	return 1;
}

void test_pcap(const struct corpus_prog *c, u32 nc, u64 seed)
{
	struct rng r = { seed ^ 0xabcdef };
	static struct sock_filter p[BPF_MAXINSNS];
	static struct test_case tc;
	unsigned long n = 0, nz = 0, i, j;

	_Static_assert(sizeof(struct bpf_insn) == sizeof(struct sock_filter), "insn layout");
	for (i = 0; i < nc; i++)
		for (j = 0; j < 300 && !ref_check_classic(c[i].insns, c[i].len); j++) {
			gen_packet(&r, &tc);
			gen_skb_meta(&r, &tc, true);
			n += pcap_one(c[i].insns, c[i].len, &tc, c[i].expr);
			nz += bpf_filter((const struct bpf_insn *)c[i].insns, tc.pkt, tc.len, tc.len) != 0;
		}
	printf("libpcap vs reference, tcpdump corpus: %lu runs (%lu accepted)\n", n, nz);
	n = 0;
	for (i = 0; i < 3000; i++) {
		u32 len = gen_program(&r, p, 300, GEN_STD_ONLY);

		for (j = 0; j < 20; j++) {
			gen_packet(&r, &tc);
			gen_skb_meta(&r, &tc, true);
			n += pcap_one(p, len, &tc, "random program");
		}
	}
	printf("libpcap vs reference, random standard programs: %lu runs\n", n);
}

u32 bpf_filter_wrap(const struct sock_filter *p, const u8 *pkt, u32 len)
{
	return bpf_filter((const struct bpf_insn *)p, pkt, len, len);
}
