// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the direct cBPF -> x86-64 code generator
 * (arch/x86/net/bpf_jit_classic_gen.c, compiled from KSRC).
 *
 *   hosttest [--seed N] [--programs N | --seconds S] [--jobs N] [--fuzz-only]
 *            [--corpus DIR] [--save DIR] [--repro FILE] [--write-seeds DIR]
 *            differential fuzzing compares --programs N random programs
 *            (default 40000; a count, however long it takes: the suite's
 *            way), or as many as fit in --seconds S (by hand)
 *   hosttest --dump FILE.dd OUT.bin
 *            compile one tcpdump -dd program with the plain env, write the
 *            image (objdump -D -b binary -mi386:x86-64 OUT.bin) and print
 *            its size
 *
 * Ends with "N passed, M failed" (checks); exit status 1 on any failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "refinterp.h"
#ifdef HAVE_JIT
#include "diff.h"
#include "reach.h"
#include "seccomp.h"
#endif

unsigned long n_passed, n_failed;
unsigned long host_shim_warn_count;
int verbose;

void test_ref_selftest(void);
void test_helpers(u64 seed);
void test_check_classic(const struct corpus_prog *c, u32 nc);
void test_pcap(const struct corpus_prog *c, u32 nc, u64 seed);
#ifdef HAVE_JIT
void test_unit(void);
#endif

#ifdef HAVE_JIT
static int dump_image(const char *dd, const char *out)
{
	static struct sock_filter insns[BPF_MAXINSNS];
	struct jit_prog p;
	char expr[512];
	FILE *f;
	int n;

	n = load_dd(dd, insns, BPF_MAXINSNS, expr, sizeof(expr));
	if (n <= 0) {
		fprintf(stderr, "%s: no program\n", dd);
		return 2;
	}
	if (jit_compile(insns, n, NULL, &p)) {
		fprintf(stderr, "%s: not compiled (%s)\n", dd, jit_verdict_name(p.verdict));
		return 1;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(p.rw, 1, p.size, f) != p.size || fclose(f)) {
		perror(out);
		jit_free(&p);
		return 2;
	}
	printf("%s: %d insns, %u bytes\n", expr, n, p.size);
	jit_free(&p);
	return 0;
}
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#ifdef HAVE_JIT
/* every corpus program x realistic packets x every variant */
static void test_corpus_diff(const struct corpus_prog *c, u32 nc, u64 seed)
{
	struct rng r = { seed ^ 0xc0ffee };
	struct diff_stats st = { 0 };
	static struct test_case tc[96];
	struct model_skb *skb[96];
	struct model_dev dev[96];
	unsigned int i, j, v;
	unsigned long saved = 0;

	for (j = 0; j < 96; j++) {
		gen_packet(&r, &tc[j]);
		gen_skb_meta(&r, &tc[j], j < 48);
		skb[j] = tc_build(&tc[j], &dev[j]);
	}
	for (i = 0; i < nc; i++) {
		if (ref_check_classic(c[i].insns, c[i].len)) {
			/* the kernel rejects it (protochain's loop): the JIT must decline */
			struct jit_prog jp;

			CHECK(jit_compile(c[i].insns, c[i].len, &variants[0].o, &jp) > 0,
			      "corpus %s '%s': invalid program not declined", c[i].name, c[i].expr);
			jit_free(&jp);
			continue;
		}
		for (v = 0; v < n_variants; v++) {
			struct jit_prog jp;

			if (diff_compile(c[i].insns, c[i].len, v, &jp, &st, c[i].name)) {
				jit_free(&jp);
				continue;
			}
			for (j = 0; j < 96; j++) {
				u32 e, g;

				diff_set_current(c[i].insns, c[i].len, &tc[j], v);
				st.execs++;
				if (diff_run(c[i].insns, c[i].len, &jp, v, skb[j], &tc[j], &e, &g)) {
					n_passed++;
					continue;
				}
				CHECK(0, "corpus %s '%s' variant %s: reference %#x JIT %#x%s%s",
				      c[i].name, c[i].expr, variants[v].name, e, g,
				      saved < 5 ? ", saved " : "",
				      saved < 5 ? diff_save(c[i].insns, c[i].len, &tc[j], v,
							    c[i].expr) : "");
				saved++;
			}
			jit_free(&jp);
		}
	}
	for (j = 0; j < 96; j++)
		model_skb_free(skb[j]);
	printf("corpus x packets x %u variants: %lu executions, %lu images\n", n_variants,
	       st.execs, st.compiled);
}

#define POOL 384

struct worker_result {
	unsigned long passed, failed, execs, programs, compiled, searched, ranges, callee_saved,
		known_x, add_runs, dead_loads, declined_agree, declined_conservative, pcap,
		frag_hits;
	u32 largest_piece;
#ifdef HAVE_JIT
	struct reach_stats reach;
#endif
	double secs, cpu;
};

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A program bpf_check_classic() rejects must be declined (and must not
 * upset the generator).  In the kernel bpf_check_classic() runs first, so
 * this is defence in depth, except for seccomp's rewritten 0x21, which
 * does reach bpf_jit_compile() and is compiled (bad_codes below).  Loads
 * of unset M[] are only compiled.
 */
static void check_invalid(struct rng *r, const struct sock_filter *p0, u32 len)
{
	static struct sock_filter q[BPF_MAXINSNS + 1];
	/*
	 * Not LDX|W|ABS: bpf_check_classic() refuses it, but seccomp's
	 * checker makes it of LD|W|ABS after that, and the generator
	 * compiles it (a seccomp_data load; test_seccomp_bounds()).
	 */
	static const u16 bad_codes[] = { BPF_RET | BPF_X, 0xff, 0x0f,
					 BPF_LD | 0x18 | BPF_ABS, BPF_ALU | 0xe0, 0x8000 | BPF_RET };
	u32 pc = rnd_below(r, len), m = rnd_below(r, 9);
	struct jit_prog jp;
	int rc;

	memcpy(q, p0, len * sizeof(*q));
	switch (m) {
	case 0:
		q[pc] = (struct sock_filter){ BPF_ALU | (rnd_pct(r, 50) ? BPF_DIV : BPF_MOD) | BPF_K,
					      0, 0, 0 };
		break;
	case 1:
		q[pc] = (struct sock_filter){ BPF_ALU | (rnd_pct(r, 50) ? BPF_LSH : BPF_RSH) | BPF_K,
					      0, 0, 32 + rnd_below(r, 1000) };
		break;
	case 2:
		q[pc] = (struct sock_filter){ rnd_pct(r, 50) ? BPF_ST : BPF_LD | BPF_MEM, 0, 0,
					      16 + rnd_below(r, 100) };
		break;
	case 3:
		q[pc] = (struct sock_filter){ BPF_JMP | BPF_JA, 0, 0,
					      len - pc - 1 + (rnd_pct(r, 50) ? 0 : rnd32(r) % 1000) };
		break;
	case 4:
		if (len - pc - 1 > 255)
			pc = len - 1 - rnd_below(r, 200);
		q[pc] = (struct sock_filter){ BPF_JMP | BPF_JGT | BPF_K, (u8)(len - pc - 1),
					      (u8)rnd_below(r, 256), 0 };
		if (rnd_pct(r, 50)) {
			q[pc].jf = q[pc].jt;
			q[pc].jt = 0;
		}
		break;
	case 5:
		q[pc] = (struct sock_filter){ BPF_LD | BPF_W | BPF_ABS, 0, 0,
					      rnd_pct(r, 50) ?
					      (u32)SKF_AD_OFF + SKF_AD_MAX + rnd_below(r, 4000) :
					      (u32)SKF_AD_OFF + 1 + 4 * rnd_below(r, 16) };
		break;
	case 6:
		q[pc].code = bad_codes[rnd_below(r, sizeof(bad_codes) / sizeof(bad_codes[0]))];
		break;
	case 7:
		q[len - 1] = (struct sock_filter){ BPF_LD | BPF_IMM, 0, 0, 1 };
		break;
	default: /* load of an unset scratch cell first */
		q[0] = (struct sock_filter){ rnd_pct(r, 50) ? BPF_LD | BPF_MEM : BPF_LDX | BPF_MEM, 0,
					     0, rnd_below(r, 16) };
		break;
	}
	if (!ref_check_classic(q, len))
		return; /* the mutation happened to keep it valid */
	rc = jit_compile(q, len, &variants[0].o, &jp);
	CHECK(rc >= 0, "invalid program (mutation %u): generator error", m);
	if (m < 8)
		CHECK(rc > 0, "invalid program (mutation %u at %u, code %#x k %#x) not declined", m, pc,
		      q[pc].code, q[pc].k);
	jit_free(&jp);
}

/* The reach bits of a run's loads on a model skb (no frag_list there). */
static u32 skb_load_bits(const struct model_skb *skb, const struct ref_trace *t)
{
	u32 bounds[MODEL_MAX_FRAGS + 1], n = 0, at = skb_headlen_m(skb), i;

	for (i = 0; i < skb->nr_frags; i++) {
		bounds[n++] = at;
		at += skb->frags[i].size;
	}
	return reach_loads(t, bounds, n, skb->len);
}

static void reach_check(bool ok, const char *name, const char *detail, void *arg)
{
	(void)arg;
	printf("  %s %s: %s\n", ok ? "ok  " : "FAIL", name, detail);
	CHECK(ok, "fuzzing %s: %s", name, detail);
}

/* random valid programs x random skbs: @programs of them, or for @seconds */
static void fuzz_worker(u64 seed, unsigned long programs, double seconds,
			struct worker_result *res)
{
	struct rng r = { seed };
	static struct sock_filter p[BPF_MAXINSNS];
	static struct test_case tc[POOL];
	static struct model_skb *skb[POOL];
	static struct model_dev dev[POOL];
	struct diff_stats st = { 0 };
	struct reach_stats reach = { 0 };
	static u8 site[BPF_MAXINSNS];
	double t0 = now(), c0 = cpu_now();
	unsigned long saved = 0, iter = 0;
	unsigned int j;

	for (j = 0; j < POOL; j++) {
		gen_packet(&r, &tc[j]);
		gen_skb_meta(&r, &tc[j], j % 3 == 0);
		skb[j] = tc_build(&tc[j], &dev[j]);
	}
	for (;;) {
		unsigned int flags = rnd_pct(&r, 15) ? GEN_STD_ONLY :
				     rnd_pct(&r, 1) ? GEN_LOAD_HEAVY : 0;
		u32 len = gen_program(&r, p, BPF_MAXINSNS, flags);
		unsigned int vs[2] = { 0, 1 + (unsigned int)(iter % (n_variants - 1)) }, k;
		struct jit_prog jp[2];
		int ok[2];
		unsigned int npk = len > 1024 ? 16 : 48;

		iter++;
		st.programs++;
		/* refresh part of the pool */
		for (k = 0; k < 4; k++) {
			j = rnd_below(&r, POOL);
			model_skb_free(skb[j]);
			gen_packet(&r, &tc[j]);
			gen_skb_meta(&r, &tc[j], rnd_pct(&r, 33));
			skb[j] = tc_build(&tc[j], &dev[j]);
		}
		if (iter % 8 == 0)
			check_invalid(&r, p, len);
		for (k = 0; k < 2; k++)
			ok[k] = diff_compile(p, len, vs[k], &jp[k], &st, "random") == 0;
		/* what the runs reach: sites from the plain variant's analysis */
		if (ok[0])
			reach_sites_of(&jp[0].ctx, p, len, site);
		else
			memset(site, 0, len);
		u32 first_ret = 0;
		bool dependent = false;
		for (k = 0; k < npk; k++) {
			struct ref_trace t = { .site = site };
			unsigned int m;
			u32 ret;

			j = rnd_below(&r, POOL);
			ret = ref_run_trace(p, len, skb[j], NULL, &t);
			if (!k)
				first_ret = ret;
			dependent |= ret != first_ret;
			reach_count_run(&reach, &t, len, skb_load_bits(skb[j], &t));
			for (m = 0; m < 2; m++) {
				u32 e, g;

				if (!ok[m])
					continue;
				diff_set_current(p, len, &tc[j], vs[m]);
				st.execs++;
				if (diff_run(p, len, &jp[m], vs[m], skb[j], &tc[j], &e, &g)) {
					n_passed++;
					continue;
				}
				n_failed++;
				if (saved++ < 3)
					fprintf(stderr, "FAIL random program (%u insns, seed %#llx, "
							"iter %lu) variant %s: reference %#x JIT %#x; "
							"saved %s\n", len, (unsigned long long)seed,
						iter, variants[vs[m]].name, e, g,
						diff_save(p, len, &tc[j], vs[m], "random program"));
			}
			/* (a) vs (b) on the side: libpcap on linear skbs */
			if (flags == GEN_STD_ONLY && !tc[j].shape.nr_frags &&
			    tc[j].shape.headlen == tc[j].len) {
				unsigned int fl;
				u32 e = ref_run(p, len, skb[j], &fl);

				if (!(fl & (REF_F_ANC | REF_F_NEGOFF | REF_F_SHIFTX))) {
					u32 pc = bpf_filter_wrap(p, tc[j].pkt, tc[j].len);

					st.pcap_checks++;
					CHECK(pc == e, "libpcap %#x vs reference %#x (seed %#llx iter %lu)",
					      pc, e, (unsigned long long)seed, iter);
				}
			}
		}
		reach_count_program(&reach, dependent);
		for (k = 0; k < 2; k++)
			jit_free(&jp[k]);
		if (programs ? st.programs >= programs : now() - t0 >= seconds)
			break;
	}
	for (j = 0; j < POOL; j++)
		model_skb_free(skb[j]);
	res->passed = n_passed;
	res->failed = n_failed;
	res->execs = st.execs;
	res->programs = st.programs;
	res->compiled = st.compiled;
	res->searched = st.searched;
	res->ranges = st.ranges;
	res->callee_saved = st.callee_saved;
	res->known_x = st.known_x;
	res->add_runs = st.add_runs;
	res->dead_loads = st.dead_loads;
	res->frag_hits = host_frag_hits;
	res->declined_agree = st.declined_conv_agree;
	res->declined_conservative = st.declined_conservative;
	res->pcap = st.pcap_checks;
	res->largest_piece = host_largest_piece;
	res->reach = reach;
	res->secs = now() - t0;
	res->cpu = cpu_now() - c0;
}

/* independent streams per worker (splitmix64 finaliser of seed + i) */
static u64 worker_seed(u64 seed, int i)
{
	u64 z = seed + (u64)(i + 1) * 0xD1B54A32D192ED03ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void run_fuzz(u64 seed, int jobs, unsigned long programs, double seconds)
{
	struct worker_result tot = { 0 }, one;
	int fds[16][2], i;
	pid_t pids[16];
	double t0 = now(), t;

	if (jobs < 1)
		jobs = 1;
	if (jobs > 16)
		jobs = 16;
	if (programs)
		printf("differential fuzzing: seed %#llx, %d jobs, %lu programs\n",
		       (unsigned long long)seed, jobs, programs);
	else
		printf("differential fuzzing: seed %#llx, %d jobs, %.0f s\n",
		       (unsigned long long)seed, jobs, seconds);
	fflush(stdout);
	fflush(NULL);
	for (i = 0; i < jobs; i++) {
		if (pipe(fds[i]))
			abort();
		pids[i] = fork();
		if (pids[i] == 0) {
			close(fds[i][0]);
			n_passed = n_failed = 0;
			fuzz_worker(worker_seed(seed, i),
				    (programs + (unsigned long)(jobs - 1 - i)) / (unsigned long)jobs,
				    seconds, &one);
			if (write(fds[i][1], &one, sizeof(one)) != (ssize_t)sizeof(one))
				_exit(2);
			exit(0); /* not _exit: gcov writes its data from exit() */
		}
		close(fds[i][1]);
	}
	for (i = 0; i < jobs; i++) {
		int status;

		memset(&one, 0, sizeof(one));
		if (read(fds[i][0], &one, sizeof(one)) != (ssize_t)sizeof(one)) {
			CHECK(0, "fuzz worker %d died (seed %#llx); see crash reproducer above", i,
			      (unsigned long long)worker_seed(seed, i));
		}
		close(fds[i][0]);
		waitpid(pids[i], &status, 0);
		tot.passed += one.passed;
		tot.failed += one.failed;
		tot.execs += one.execs;
		tot.programs += one.programs;
		tot.compiled += one.compiled;
		tot.searched += one.searched;
		tot.ranges += one.ranges;
		tot.callee_saved += one.callee_saved;
		tot.known_x += one.known_x;
		tot.add_runs += one.add_runs;
		tot.dead_loads += one.dead_loads;
		tot.frag_hits += one.frag_hits;
		tot.declined_agree += one.declined_agree;
		tot.declined_conservative += one.declined_conservative;
		tot.pcap += one.pcap;
		if (one.largest_piece > tot.largest_piece)
			tot.largest_piece = one.largest_piece;
		reach_add(&tot.reach, &one.reach);
		tot.cpu += one.cpu;
	}
	t = now() - t0;
	n_passed += tot.passed;
	n_failed += tot.failed;
	printf("differential fuzzing: %lu programs (%lu images, %lu with a jeq search, %lu of them "
	       "with key intervals, %lu with callee-saved registers, %lu with ld [x + k] of a "
	       "known X, %lu with added runs of add/sub #k, %lu with dead skb field loads, "
	       "%lu declined as the conversion would, %lu declined conservatively), "
	       "%lu executions (%lu loads read in a first page fragment) in %.1f s = "
	       "%.0f exec/s (%.0f exec per CPU-second, %.1f CPU-s), %lu libpcap cross-checks, "
	       "%lu failures\n",
	       tot.programs, tot.compiled, tot.searched, tot.ranges, tot.callee_saved, tot.known_x,
	       tot.add_runs, tot.dead_loads, tot.declined_agree, tot.declined_conservative, tot.execs, tot.frag_hits,
	       t, tot.execs / t, tot.cpu > 0 ? tot.execs / tot.cpu : 0.0, tot.cpu, tot.pcap,
	       tot.failed);
	/* the generator's jeq runs (gen_jeq_run()) must reach the search */
	CHECK(tot.compiled < 1000 || (tot.searched * 50 >= tot.compiled &&
				       tot.ranges * 200 >= tot.compiled),
	      "only %lu of %lu images have a jeq search, %lu with key intervals", tot.searched,
	      tot.compiled, tot.ranges);
	/* nor the helper calls of gen_call_prefix() the callee-saved registers */
	CHECK(tot.compiled < 1000 || (tot.callee_saved * 100 >= tot.compiled &&
				       tot.known_x * 100 >= tot.compiled),
	      "only %lu of %lu images keep skb and X in callee-saved registers, %lu load at a "
	      "known X", tot.callee_saved, tot.compiled, tot.known_x);
	/* nor its straight-line ALU ops and ancillary loads the peepholes */
	CHECK(tot.compiled < 1000 || (tot.add_runs * 100 >= tot.compiled &&
				       tot.dead_loads * 100 >= tot.compiled),
	      "only %lu of %lu images have a run of add/sub #k, %lu a dead skb field load",
	      tot.add_runs, tot.compiled, tot.dead_loads);
	/* nor the paged skbs of gen.c the first fragment's in-place reads */
	CHECK(tot.execs < 100000 || tot.frag_hits * 1000 >= tot.execs,
	      "only %lu of %lu executions read a load in a first page fragment", tot.frag_hits,
	      tot.execs);
	/* what the runs reached (reach.h; the model skbs have no frag_list) */
	printf("differential fuzzing reached:\n");
	reach_floors(&tot.reach, REACH_KINDS & ~(1u << REACH_FRAG_LIST), reach_check, NULL);
	/* a count, not a rate: every program asked for was compared */
	CHECK(!programs || tot.programs == programs, "%lu of %lu programs compared",
	      tot.programs, programs);
	if (tot.largest_piece > host_largest_piece)
		host_largest_piece = tot.largest_piece;
}

static int run_repro(const char *path)
{
	static struct sock_filter p[BPF_MAXINSNS];
	struct test_case tc;
	u32 len;
	unsigned int v;

	if (read_repro(path, p, &len, &tc)) {
		fprintf(stderr, "cannot parse %s\n", path);
		return 2;
	}
	CHECK(ref_check_classic(p, len) == 0, "program is not valid for bpf_check_classic");
	printf("program %u insns, conversion %s\n", len,
	       kconv_check(p, (int)len) ? "REJECTS" : "accepts");
	for (v = 0; v < n_variants; v++) {
		struct diff_stats st = { 0 };
		struct jit_prog jp;
		struct model_dev dev;
		struct model_skb *s;
		u32 e, g;
		int rc = diff_compile(p, len, v, &jp, &st, path);

		if (rc) {
			printf("%-34s not compiled: %s\n", variants[v].name, jit_verdict_name(jp.verdict));
			jit_free(&jp);
			continue;
		}
		s = tc_build(&tc, &dev);
		diff_set_current(p, len, &tc, v);
		CHECK(diff_run(p, len, &jp, v, s, &tc, &e, &g), "variant %s: reference %#x JIT %#x",
		      variants[v].name, e, g);
		printf("%-34s reference %#x JIT %#x (%u bytes, %u passes)\n", variants[v].name, e, g,
		       jp.size, jp.ctx.passes);
		model_skb_free(s);
		jit_free(&jp);
	}
	printf("%lu passed, %lu failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
#endif

/* libFuzzer seeds: one file per corpus program (see fuzz_jit.c format) */
static int write_seeds(const char *dir, const struct corpus_prog *c, u32 nc, u64 seed)
{
	struct rng r = { seed };
	char path[4096];
	u32 i;

	mkdir(dir, 0777);
	for (i = 0; i < nc; i++) {
		struct test_case tc;
		FILE *f;
		u8 hdr[16];
		u32 j;

		gen_packet(&r, &tc);
		snprintf(path, sizeof(path), "%s/%s.seed", dir, c[i].name);
		f = fopen(path, "wb");
		if (!f)
			return 1;
		for (j = 0; j < sizeof(hdr); j++)
			hdr[j] = (u8)rnd32(&r);
		hdr[0] = (u8)(c[i].len >> 8);
		hdr[1] = (u8)c[i].len;
		hdr[2] = (u8)(tc.len >> 8);
		hdr[3] = (u8)tc.len;
		fwrite(hdr, 1, sizeof(hdr), f);
		fwrite(c[i].insns, sizeof(struct sock_filter), c[i].len, f);
		fwrite(tc.pkt, 1, tc.len, f);
		fclose(f);
	}
	printf("%u seeds written to %s\n", nc, dir);
	return 0;
}

int main(int argc, char **argv)
{
	u64 seed = (u64)time(NULL) * 2654435761u ^ (u64)getpid();
	unsigned long programs = 40000;
	double seconds = 0;
	const char *corpus_dir = NULL, *repro = NULL, *seeds = NULL;
	int jobs = 2, fuzz_only = 0, i;
	double t_start = now();
	struct corpus_prog *corpus;
	u32 nc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--programs") && i + 1 < argc)
			programs = strtoul(argv[++i], NULL, 0), seconds = 0;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]), programs = 0;
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
			corpus_dir = argv[++i];
		else if (!strcmp(argv[i], "--repro") && i + 1 < argc)
			repro = argv[++i];
		else if (!strcmp(argv[i], "--write-seeds") && i + 1 < argc)
			seeds = argv[++i];
		else if (!strcmp(argv[i], "--fuzz-only"))
			fuzz_only = 1;
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
#ifdef HAVE_JIT
		else if (!strcmp(argv[i], "--save") && i + 1 < argc)
			save_dir = argv[++i];
		else if (!strcmp(argv[i], "--dump") && i + 2 < argc) {
			jit_env_init();
			return dump_image(argv[i + 1], argv[i + 2]);
		}
#endif
		else {
			fprintf(stderr, "usage: see the comment at the top of hosttest.c\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ref_conv_vlan_all = kconv_vlan_all;
	if (!corpus_dir) {
		static char d[4096];
		const char *slash = strrchr(argv[0], '/');

		/* default: <dir of this source>/corpus via HOST_TEST_DIR */
		snprintf(d, sizeof(d), "%s/corpus", HOST_TEST_DIR);
		corpus_dir = d;
		(void)slash;
	}
	corpus = load_corpus(corpus_dir, &nc);
	if (seeds)
		return write_seeds(seeds, corpus, nc, seed);
#ifdef HAVE_JIT
	jit_env_init();
	diff_install_crash_handler();
	if (repro)
		return run_repro(repro);
#else
	if (repro) {
		fprintf(stderr, "built without the generator\n");
		return 2;
	}
#endif
	printf("seed %#llx (rerun with --seed %#llx), corpus %s: %u programs\n",
	       (unsigned long long)seed, (unsigned long long)seed, corpus_dir, nc);
	if (!fuzz_only) {
		CHECK(nc >= 100, "corpus has only %u programs", nc);
		test_ref_selftest();
		test_helpers(seed);
		test_check_classic(corpus, nc);
		test_pcap(corpus, nc, seed);
		printf("[%.1f s]\n", now() - t_start);
	}
#ifdef HAVE_JIT
	if (!fuzz_only) {
		test_unit();
		test_corpus_diff(corpus, nc, seed);
		test_seccomp_fuzz(seed, 4000);
		printf("[%.1f s]\n", now() - t_start);
	}
	run_fuzz(seed, jobs, programs, seconds);
	/* every piece of code keeps to the bound its scratch buffers have */
	printf("largest piece of code emitted: %u bytes (bound CBPF_JIT_MAX_INSN_BYTES %u)\n",
	       host_largest_piece, CBPF_JIT_MAX_INSN_BYTES);
	CHECK(host_largest_piece > 0 && host_largest_piece <= CBPF_JIT_MAX_INSN_BYTES,
	      "largest piece of code %u bytes, bound %u", host_largest_piece,
	      CBPF_JIT_MAX_INSN_BYTES);
#else
	CHECK(0, "bpf_jit_classic_gen.c not found in KSRC: JIT tests not built");
#endif
	CHECK(host_shim_warn_count == 0, "%lu WARN_ON hits in the generator", host_shim_warn_count);
	free(corpus);
	printf("[%.1f s]\n", now() - t_start);
	printf("%lu passed, %lu failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
