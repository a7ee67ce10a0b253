// SPDX-License-Identifier: GPL-2.0
/* Differential execution: JIT image vs reference interpreter. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"
#include "reach.h"
#include "refinterp.h"

const struct variant variants[] = {
	{ "plain", { 0 } },
	{ "blind", { .blind = true, .blind_seed = 0x1234567u } },
	{ "hard(rethunk,sls,endbr,bhb,ibhf)",
	  { .bhb = true, .rethunk = true, .sls = true, .endbr = true, .ibhf = true } },
	{ "blind+hard",
	  { .blind = true, .blind_seed = 0xdeadbeefu, .bhb = true, .rethunk = true, .sls = true,
	    .endbr = true, .ibhf = true } },
	{ "bhb", { .bhb = true } },
	{ "rethunk+sls", { .rethunk = true, .sls = true } },
	{ "sls+ibhf(no bhb)", { .sls = true, .ibhf = true } },
	{ "be-bitfields+blind", { .be_bitfields = true, .blind = true, .blind_seed = 77 } },
	/* unprivileged on a CPU not affected by BHI: shared exit, no sequence */
	{ "unpriv+sls+endbr(no bhb sequence)", { .unpriv = true, .sls = true, .endbr = true } },
	{ "unpriv+rethunk(no bhb sequence)", { .unpriv = true, .rethunk = true } },
	/* Linux 6.2+: SKF_AD_VLAN_TAG_PRESENT from skb->vlan_all */
	{ "vlan_all", { .vlan_all = true } },
	/* retbleed=stuff: accounting before every call, returns through the thunk */
	{ "call-depth+rethunk", { .call_depth = true, .rethunk = true } },
	{ "call-depth+hard+blind",
	  { .call_depth = true, .blind = true, .blind_seed = 0x5eed, .bhb = true, .rethunk = true,
	    .sls = true, .endbr = true, .ibhf = true, .vlan_all = true } },
};
const unsigned int n_variants = sizeof(variants) / sizeof(variants[0]);
const char *save_dir = "failures";

bool diff_run(const struct sock_filter *p, u32 len, const struct jit_prog *jp, unsigned int v,
	      const struct model_skb *skb, const struct test_case *tc, u32 *exp, u32 *got)
{
	const struct jit_opts *o = &variants[v].o;
	unsigned long bhb0, th0, hc0, acct0;
	unsigned int fl;
	bool ok;

	host_cpu_value = tc->cpu;
	model_be_bitfields = o->be_bitfields;
	model_vlan_all = o->vlan_all;
	host_rnd_reset(tc->rnd_seed);
	*exp = ref_run(p, len, skb, &fl);
	model_be_bitfields = false;
	model_vlan_all = false;
	host_rnd_reset(tc->rnd_seed);
	bhb0 = host_bhb_calls;
	th0 = host_thunk_calls;
	hc0 = host_helper_calls;
	acct0 = host_depth_acct;
	*got = jit_run(jp, skb, p);
	ok = *exp == *got;
	/*
	 * Call depth accounting: once before every call the image made, to a
	 * helper, to the BHB stub or to a shared slow path of its own, and
	 * every call returned to its call site (through the thunk: the
	 * slow paths' returns are those beyond the exit's one).
	 */
	if (o->call_depth && host_depth_acct - acct0 != (host_helper_calls - hc0) +
	    (host_bhb_calls - bhb0) + (host_thunk_calls - th0 - 1))
		ok = false;
	if (!o->call_depth && host_depth_acct != acct0)
		ok = false;
	/*
	 * Every run leaves through exactly one exit; every return goes
	 * through the thunk (the exit's, and those of shared slow paths).
	 */
	if (o->bhb && host_bhb_calls != bhb0 + 1)
		ok = false;
	if (!o->bhb && host_bhb_calls != bhb0)
		ok = false;
	if (o->rethunk && host_thunk_calls < th0 + 1)
		ok = false;
	if (!o->rethunk && host_thunk_calls != th0)
		ok = false;
	if (host_misaligned_calls) { /* helper called with a misaligned stack */
		ok = false;
		host_misaligned_calls = 0;
	}
	if (host_abi_violations) { /* a callee-saved register not restored */
		ok = false;
		host_abi_violations = 0;
	}
	return ok;
}

/* Some step of a jeq search tests an interval of several keys */
static bool jeq_has_range(const struct jit_prog *jp)
{
	u32 e, q;

	for (e = 0; jp->ctx.jeq_runs && e < jp->len; e++) {
		const struct cbpf_jit_jeq *s = &jp->jeq[e];
		u32 n = s->hi - s->lo;
		/* a node tests its middle interval, a leaf all of its own */
		u32 lo = n > 4 ? s->lo + n / 2 : s->lo, hi = n > 4 ? lo + 1 : s->hi;

		if (!s->end)
			continue;
		for (q = lo; q < hi; q++)
			if (jp->jeq[q].key != jp->jeq[q].key_hi)
				return true;
	}
	return false;
}

int diff_compile(const struct sock_filter *p, u32 len, unsigned int v, struct jit_prog *jp,
		 struct diff_stats *st, const char *what)
{
	/* the kernel's extracted conversion decides; our port must agree */
	int conv_len, conv = kconv_check_len(p, (int)len, &conv_len);
	int rc = jit_compile(p, len, &variants[v].o, jp);

	CHECK(!conv == !ref_convert_check(p, len),
	      "%s: bpf_convert_filter() says %d, its port (refinterp.c) disagrees", what, conv);

	if (rc < 0) {
		CHECK(0, "%s: generator failed (size %d emit %d) variant %s", what, jp->size_ret,
		      jp->emit_ret, variants[v].name);
		return -1;
	}
	if (rc > 0) {
		if (jp->verdict == CBPF_JIT_DECLINE_CONVERSION && conv) {
			st->declined_conv_agree++;
			n_passed++;
			return 1;
		}
		if (jp->verdict == CBPF_JIT_DECLINE_CONVERSION) {
			/* conservative: the stock path will handle it */
			st->declined_conservative++;
			return 1;
		}
		CHECK(0, "%s: valid program (%u insns) declined: %s (passes %u) variant %s", what,
		      len, jit_verdict_name(jp->verdict), jp->ctx.passes, variants[v].name);
		return -1;
	}
	if (conv) {
		static unsigned long reported;

		if (reported++ < 1) {
			char note[160];

			snprintf(note, sizeof(note),
				 "JIT accepted a program bpf_convert_filter() rejects (%s)", what);
			CHECK(0, "%s: %u insns: JIT compiled a program the 6.1 conversion rejects "
				 "(s16 jump overflow); saved %s", what, len,
			      diff_save(p, len, NULL, v, note));
		} else {
			n_failed++;
		}
		return 0;
	}
	CHECK(jp->ctx.passes == 1, "%s: %u sizing passes", what, jp->ctx.passes);
	/*
	 * The charge length the JIT records, for the environment of the
	 * tree's conversion (kconv is built little-endian, and has the
	 * tree's VLAN_TAG_PRESENT: vlan_all since 6.2).
	 */
	CHECK(variants[v].o.be_bitfields || variants[v].o.vlan_all != !!kconv_vlan_all ||
	      jp->ctx.conv_len == (u32)conv_len,
	      "%s: %u insns: the JIT's conversion length %u, bpf_convert_filter()'s %d; "
	      "saved %s", what, len, jp->ctx.conv_len, conv_len,
	      diff_save(p, len, NULL, v, "conversion length differs"));
	st->compiled++;
	st->searched += jp->ctx.jeq_runs;
	st->ranges += jeq_has_range(jp);
	st->callee_saved += jp->ctx.callee_saved;
	{
		static u8 site[BPF_MAXINSNS];
		u8 any = 0;
		u32 i;

		reach_sites_of(&jp->ctx, p, len, site);
		for (i = 0; i < len; i++)
			any |= site[i];
		st->known_x += (any >> REACH_KNOWN_X) & 1;
		st->add_runs += (any >> REACH_ADD_RUN) & 1;
		st->dead_loads += (any >> REACH_DEAD_LOAD) & 1;
	}
	return 0;
}

/* ---- minimisation ---- */

static bool still_fails(const struct sock_filter *p, u32 len, const struct test_case *tc,
			unsigned int v)
{
	struct jit_prog jp;
	struct model_dev dev;
	struct model_skb *skb;
	u32 e, g;
	bool bad;
	int rc;

	if (ref_check_classic(p, len))
		return false;
	rc = jit_compile(p, len, &variants[v].o, &jp);
	if (rc < 0) {
		jit_free(&jp);
		return true;
	}
	if (rc > 0) {
		jit_free(&jp);
		return false;
	}
	if (!tc) { /* "accepted what the conversion rejects" */
		jit_free(&jp);
		return kconv_check(p, (int)len) != 0;
	}
	skb = tc_build(tc, &dev);
	bad = !diff_run(p, len, &jp, v, skb, tc, &e, &g);
	model_skb_free(skb);
	jit_free(&jp);
	return bad;
}

/* delete insn i, keeping every other jump's target */
static u32 delete_insn(const struct sock_filter *in, u32 len, u32 i, struct sock_filter *out)
{
	u32 j, o = 0;

	for (j = 0; j < len; j++) {
		struct sock_filter f = in[j];

		if (j == i)
			continue;
		if (j < i && BPF_CLASS(f.code) == BPF_JMP) {
			if (BPF_OP(f.code) == BPF_JA) {
				if (j + 1 + f.k > i)
					f.k--;
			} else {
				if (j + 1 + f.jt > i)
					f.jt--;
				if (j + 1 + f.jf > i)
					f.jf--;
			}
		}
		out[o++] = f;
	}
	return o;
}

const char *diff_save(const struct sock_filter *p0, u32 len, const struct test_case *tc0,
		      unsigned int v, const char *what)
{
	static char path[512];
	static struct sock_filter p[BPF_MAXINSNS], q[BPF_MAXINSNS], r[BPF_MAXINSNS];
	static unsigned int seq;
	u32 chunk;
	struct test_case tc;
	struct jit_prog jp;
	struct model_dev dev;
	struct model_skb *skb;
	u32 e = 0, g = 0, i, budget = tc0 ? 600 : 150;
	bool progress = true;
	FILE *f;

	memcpy(p, p0, len * sizeof(*p));
	if (tc0)
		tc = *tc0;
	else
		memset(&tc, 0, sizeof(tc));
	/* 1. drop blocks of instructions (halving), then single ones */
	for (chunk = len / 2; chunk > 1 && budget; chunk /= 2) {
		for (i = 0; i + chunk < len && budget; ) {
			u32 nl = len, j;

			memcpy(q, p, len * sizeof(*p));
			for (j = 0; j < chunk; j++) {
				nl = delete_insn(q, nl, i, r);
				memcpy(q, r, nl * sizeof(*q));
			}
			budget--;
			if (still_fails(q, nl, tc0 ? &tc : NULL, v)) {
				memcpy(p, q, nl * sizeof(*p));
				len = nl;
			} else {
				i += chunk;
			}
		}
	}
	while (progress && budget) {
		progress = false;
		for (i = 0; i + 1 < len && budget; i++) {
			u32 nl = delete_insn(p, len, i, q);

			budget--;
			if (still_fails(q, nl, tc0 ? &tc : NULL, v)) {
				memcpy(p, q, nl * sizeof(*p));
				len = nl;
				progress = true;
				i--; /* retry the same index (wraps to 0) */
			}
		}
	}
	/* 2. simpler skb: linear */
	if (tc0 && tc.shape.nr_frags) {
		struct test_case t2 = tc;

		t2.shape.headlen = t2.len;
		t2.shape.nr_frags = 0;
		if (still_fails(p, len, &t2, v))
			tc = t2;
	}
	if (tc0 && jit_compile(p, len, &variants[v].o, &jp) == 0) {
		skb = tc_build(&tc, &dev);
		diff_run(p, len, &jp, v, skb, &tc, &e, &g);
		model_skb_free(skb);
	}
	if (tc0)
		jit_free(&jp);
	mkdir(save_dir, 0777);
	snprintf(path, sizeof(path), "%s/fail-%d-%u.txt", save_dir, (int)getpid(), seq++);
	f = fopen(path, "w");
	if (!f)
		return "(could not save)";
	write_repro(f, p, len, &tc, variants[v].name, e, g, what);
	fclose(f);
	return path;
}

/* ---- crash handler: save what was running ---- */

static const struct sock_filter *cur_p;
static u32 cur_len;
static const struct test_case *cur_tc;
static unsigned int cur_v;

void diff_set_current(const struct sock_filter *p, u32 len, const struct test_case *tc,
		      unsigned int v)
{
	cur_p = p;
	cur_len = len;
	cur_tc = tc;
	cur_v = v;
}

static void crash(int sig)
{
	char path[512];
	FILE *f;

	signal(sig, SIG_DFL);
	fprintf(stderr, "FATAL: signal %d while running a JIT image\n", sig);
	if (cur_p && cur_tc) {
		mkdir(save_dir, 0777);
		snprintf(path, sizeof(path), "%s/crash-%d.txt", save_dir, (int)getpid());
		f = fopen(path, "w");
		if (f) {
			write_repro(f, cur_p, cur_len, cur_tc, variants[cur_v].name, 0, 0,
				    "crash (signal) while running the image");
			fclose(f);
			fprintf(stderr, "reproducer saved: %s\n", path);
		}
	}
	fprintf(stderr, "0 passed, 1 failed\n");
	_exit(3);
}

void diff_install_crash_handler(void)
{
	static char stack[65536];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) };
	struct sigaction sa;

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = crash;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}
