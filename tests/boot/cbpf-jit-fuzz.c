// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-jit-fuzz: differential fuzzer of the direct classic BPF JIT, run
 * inside the VM.  Random valid classic programs (tests/host/gen.c) x random
 * skbs (linear and paged, with and without device, VLAN tag, mark, hash,
 * mac header; SKF_NET_OFF/SKF_LL_OFF loads) go through the test module
 * test_cbpf_jit (build/testmod/INTERFACE.md), once with
 * net.core.bpf_jit_classic=0 (the upstream conversion to eBPF + eBPF JIT)
 * and once with =1 (the direct JIT), in batches to keep sysctl writes rare.
 * Every return value must match; net.core.bpf_jit_classic_stats must show
 * that the direct JIT compiled every program except those it declines for
 * a documented reason (counted).  A mismatch is reduced (program and skb)
 * and saved as a reproducer in tcpdump -dd form plus an skb description.
 *
 * SKF_AD_RANDOM is nondeterministic: programs keep it (the call is made)
 * but the instruction after it always overwrites A, so only its side
 * effects are compared.  SKF_AD_CPU is compared: each worker is pinned to
 * one CPU and runs both modes of a program there.  Odd workers run without
 * CAP_SYS_ADMIN/CAP_BPF (unprivileged compilation) unless --priv-only.
 * A mismatch found by an unprivileged worker is reduced by the (root)
 * parent; it says so in the reproducer if it then does not reproduce.
 *
 * Usage: cbpf-jit-fuzz [--programs N | --seconds N] [--seed S] [--records FILE]
 *        [--jobs N] [--batch N] [--skbs N] [--max-len N] [--mix-short PCT]
 *        [--priv-only] [--reduce-seconds N] [--decline-ceiling N]
 *        [--label TEXT] [--out DIR]
 *        cbpf-jit-fuzz --repro FILE [--unpriv]   (re-run a saved reproducer)
 * --programs N compares N programs however long that takes (the boot-time
 * suite's way: a verdict counts, it never times); --seconds N, for use by
 * hand, compares as many as fit in N seconds.
 * --keep-random leaves SKF_AD_RANDOM values live: a self-test that makes
 * mismatches on purpose, to exercise the reduction and the reproducers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "reach.h"
#include "refinterp.h"

#include "test_cbpf_jit.h"
#include "net-core-sysctl.h"

#define RUN_FILE CBPF_JIT_TEST_RUN_FILE
#define SYS NET_CORE_SYSCTL_DIR
#define MAX_SKBS 64
#define SKBD_SIZE ((unsigned int)sizeof(struct cbpf_jit_test_skb))
#define MAX_REQ (16 + BPF_MAXINSNS * 8 + MAX_SKBS * (SKBD_SIZE + 256 + 16384 + 8))
#define MAX_RES (24 + MAX_SKBS * 16)
#define SLOTS 4 /* mismatching requests a worker hands to the parent, per batch */
#define SLOT_SIZE (16 + BPF_MAXINSNS * 8 + MAX_SKBS * (SKBD_SIZE + 256 + 4096 + 8))
/* Page fragments per skb this fuzzer makes: MAX_SKB_FRAGS is 17 on x86. */
#define MAX_FRAGS 16
/* The kernel's ENOTSUPP (include/linux/errno.h): the eBPF path's answer when
 * the JIT was requested but failed, e.g. blinding a long conversion. */
#define ENOTSUPP 524

/* ---- options and global state ---- */
static unsigned int opt_seconds = 180, opt_jobs, opt_batch = 500, opt_skbs = 16;
static unsigned int opt_maxlen = BPF_MAXINSNS, opt_mix_short = 60, opt_reduce_secs = 10;
/*
 * Programs the conversion accepts but the direct JIT may leave to it for a
 * named reason that is not a bug: declined_size (the code size did not
 * converge), declined_nomem, fallback_alloc (no image memory).  At most
 * this many in a run (--decline-ceiling); any other program the
 * conversion accepts must come back with CBPF_JIT_TEST_IMAGE_DIRECT.
 */
static unsigned int opt_decline_ceiling = 10;
/* --programs: stop once this many programs were compared (--seconds is
 * then ignored); --label: a prefix of the record names, for several runs
 * in one report (e.g. "harden=2"). */
static unsigned long opt_programs;
static const char *opt_label;
static uint64_t opt_seed;
static const char *opt_records, *opt_out = ".";
static int have_classic, opt_priv_only, opt_keep_random; /* --keep-random: self-test of the reducer */ /* net.core.bpf_jit_classic exists */
static FILE *records;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void record(const char *name, int pass, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!strncmp(name, "fuzz: ", 6))
		name += 6;
	printf("fuzz: [%s] %s%s%s (%s)\n", pass ? "pass" : "fail", opt_label ? opt_label : "",
	       opt_label ? ": " : "", name, detail);
	if (records) {
		fprintf(records, "%s%s%s\t%s\t%s\n", opt_label ? opt_label : "", opt_label ? ": " : "",
			name, pass ? "pass" : "fail", detail);
		fflush(records);
	}
}

/* bpf_jit_harden when the run began: 2 blinds every program, 1 those of
 * unprivileged workers (what the generator's analysis is told, reach.h) */
static int harden_level;

/* WARN()s of the generator's analysis (tests/host/shim/linux/bug.h) */
unsigned long host_shim_warn_count;
static unsigned int reach_failed;

static void reach_record(bool ok, const char *name, const char *detail, void *arg)
{
	(void)arg;
	reach_failed += !ok;
	record(name, ok, "%s", detail);
}

/* ---- sysctls and counters ---- */
enum { ST_COMPILED, ST_OPCODE, ST_ANC, ST_CONV, ST_SIZE, ST_NOMEM, ST_FB_ALLOC, ST_FB_SIZE, ST_NR };
static const char *const st_names[ST_NR] = {
	"compiled", "declined_opcode", "declined_anc", "declined_conversion",
	"declined_size", "declined_nomem", "fallback_alloc", "fallback_size",
};

struct stats {
	long long v[ST_NR];
};

static void stats_read(struct stats *s)
{
	char buf[1024], *line, *save = NULL;
	int fd, i;
	ssize_t r;

	memset(s, 0, sizeof(*s));
	fd = open(SYS "bpf_jit_classic_stats", O_RDONLY);
	if (fd < 0)
		return;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return;
	buf[r] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[64];
		long long v;

		if (sscanf(line, "%63s %lld", key, &v) != 2)
			continue;
		for (i = 0; i < ST_NR; i++)
			if (!strcmp(key, st_names[i]))
				s->v[i] = v;
	}
}

/*
 * Odd workers clear CAP_SYS_ADMIN, CAP_BPF and CAP_PERFMON from their
 * effective set after opening the module file: their programs are then
 * compiled as an unprivileged user's socket filter would be (BHB clearing
 * sequence at exit, bpf_jit_limit charged).  The capabilities stay
 * permitted, so the parent can do the same while it reduces a mismatch
 * such a worker found, and raise them again around sysctl writes.
 */
static int unpriv_now;

static void set_admin_caps(int on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	static const int caps[] = { 21 /* SYS_ADMIN */, 38 /* PERFMON */, 39 /* BPF */ };
	unsigned int i;

	if (syscall(SYS_capget, &h, d))
		die("capget: %s", strerror(errno));
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		u32 bit = 1u << (caps[i] % 32);

		if (on)
			d[caps[i] / 32].effective |= bit & d[caps[i] / 32].permitted;
		else
			d[caps[i] / 32].effective &= ~bit;
	}
	if (syscall(SYS_capset, &h, d))
		die("capset: %s", strerror(errno));
}

/* mode 0: reference path, mode 1: path under test */
static void set_mode(int m)
{
	int err;

	if (unpriv_now)
		set_admin_caps(1);
	if (have_classic)
		err = sysctl_write("bpf_jit_enable", "1") ||
		      sysctl_write("bpf_jit_classic", m ? "1" : "0");
	else
		err = sysctl_write("bpf_jit_enable", m ? "1" : "0");
	if (err)
		die("cannot set the JIT mode %d: %s", m, strerror(errno));
	if (unpriv_now)
		set_admin_caps(0);
}

/* ---- programs and skbs ---- */
static bool is_anc(const struct sock_filter *f, u32 anc)
{
	return BPF_CLASS(f->code) == BPF_LD && BPF_MODE(f->code) == BPF_ABS &&
	       f->k == (u32)SKF_AD_OFF + anc;
}

/* Instructions that overwrite A without reading it. */
static bool kills_a(const struct sock_filter *f)
{
	switch (BPF_CLASS(f->code)) {
	case BPF_LD:
		if (BPF_MODE(f->code) == BPF_ABS)
			return f->k < (u32)SKF_AD_OFF;
		return true; /* IMM, MEM, LEN, IND */
	case BPF_MISC:
		return BPF_MISCOP(f->code) == BPF_TXA;
	case BPF_RET:
		return BPF_RVAL(f->code) == BPF_K;
	}
	return false;
}

/* SKF_AD_RANDOM stays (the call is made) but its value is dead. */
static void neutralize_random(struct sock_filter *p, u32 len)
{
	u32 i;

	if (opt_keep_random)
		return;
	for (i = 0; i + 1 < len; i++) {
		if (!is_anc(&p[i], SKF_AD_RANDOM) || kills_a(&p[i + 1]))
			continue;
		if (i + 1 == len - 1) {
			p[i + 1].code = BPF_RET | BPF_K;
		} else {
			p[i + 1].code = BPF_LD | BPF_IMM;
			p[i + 1].jt = p[i + 1].jf = 0;
		}
	}
	gen_fix_mem(p, len);
}

/* A test case in interface form: description + headroom + data. */
struct skbd {
	struct cbpf_jit_test_skb d;
	u8 bytes[256 + 4096];
};

static void tc_to_skbd(const struct test_case *tc, struct skbd *s)
{
	struct cbpf_jit_test_skb *d = &s->d;

	memset(d, 0, sizeof(*d));
	d->len = tc->len;
	d->headlen = tc->shape.headlen;
	d->mark = tc->mark;
	d->hash = tc->hash;
	d->queue_mapping = tc->queue_mapping;
	d->protocol = tc->protocol;
	d->vlan_tci = tc->vlan_tci;
	d->vlan_proto = tc->vlan_proto;
	d->vlan_present = tc->flags2 & 1;
	d->pkt_type = tc->flags1 & 7;
	d->has_dev = tc->has_dev;
	d->mac_header_set = tc->shape.mac_off != MODEL_MAC_NONE;
	d->mac_offset = d->mac_header_set ? (s16)tc->shape.mac_off : 0;
	d->network_offset = (s16)tc->shape.net_off;
	d->dev_ifindex = (u32)tc->ifindex;
	d->dev_type = tc->hatype;
	d->headroom = (u16)tc->shape.headroom;
	memcpy(s->bytes, tc->headroom_bytes, d->headroom);
	memcpy(s->bytes + d->headroom, tc->pkt, tc->len);
}

/*
 * Half of the paged skbs keep one fragment per page, as a NIC's receive
 * path fills them; the others get fragments of 1..8 or 1..256 bytes, so
 * that loads straddle two of them, and half of those a frag_list tail, as
 * GRO builds it. Returns 1 for several fragments, 2 for a frag_list.
 */
static int shape_frags(struct rng *r, struct cbpf_jit_test_skb *d)
{
	u32 paged = d->len - d->headlen, size, list = 0, least;

	if (paged < 2 || rnd_pct(r, 50))
		return 0;
	size = 1 + rnd_below(r, rnd_pct(r, 50) ? 8 : 256);
	if (rnd_pct(r, 50))
		list = 1 + rnd_below(r, paged);
	/* the module's limits: fragments and frag_list skbs */
	least = (paged - list + MAX_FRAGS - 1) / MAX_FRAGS;
	if (size < least)
		size = least;
	least = (list + CBPF_JIT_TEST_MAX_FRAG_LIST - 1) / CBPF_JIT_TEST_MAX_FRAG_LIST;
	if (size < least)
		size = least;
	d->frag_size = size;
	d->frag_list_len = list;
	return list ? 2 : paged - list > size;
}

/*
 * What a run of @prog over @tc reaches (reach.h): the reference interpreter
 * over the model of the same packet and metadata, whose loads take the same
 * paths as the module's skb (the same linear part), and the fragment
 * boundaries of the module's layout of @d (cbpf_jit_test_build_skb()).
 * Returns the run's result.
 */
static u32 reach_run(struct reach_stats *st, const struct sock_filter *prog, u32 len,
		     const u8 *site, const struct test_case *tc,
		     const struct cbpf_jit_test_skb *d)
{
	u32 bounds[MAX_FRAGS + CBPF_JIT_TEST_MAX_FRAG_LIST + 2], n = 0, off, ret;
	u32 paged_end = d->len - d->frag_list_len, frag = d->frag_size ? d->frag_size : 4096;
	struct ref_trace t = { .site = site };
	struct model_dev dev;
	struct model_skb *skb = tc_build(tc, &dev);

	ret = ref_run_trace(prog, len, skb, NULL, &t);
	model_skb_free(skb);
	for (off = d->headlen; off < d->len && n < sizeof(bounds) / sizeof(bounds[0]);
	     off += off < paged_end ? (paged_end - off < frag ? paged_end - off : frag) :
				       (d->len - off < frag ? d->len - off : frag))
		bounds[n++] = off;
	reach_count_run(st, &t, len,
			reach_loads(&t, bounds, n, d->frag_list_len ? paged_end : d->len));
	return ret;
}

static size_t skbd_size(const struct cbpf_jit_test_skb *d)
{
	return sizeof(*d) + ((d->headroom + d->len + 7u) & ~7u);
}

/* Serialise a request into buf; returns its size. */
static size_t build_req(u8 *buf, const struct sock_filter *p, u32 len,
			const struct skbd *skbs, u32 n)
{
	struct cbpf_jit_test_req req = { CBPF_JIT_TEST_MAGIC, len, n, 1 };
	size_t pos = sizeof(req), sz;
	u32 i;

	memcpy(buf, &req, sizeof(req));
	memcpy(buf + pos, p, len * sizeof(*p));
	pos += len * sizeof(*p);
	for (i = 0; i < n; i++) {
		sz = skbd_size(&skbs[i].d);
		memset(buf + pos, 0, sz);
		memcpy(buf + pos, &skbs[i].d, sizeof(skbs[i].d));
		memcpy(buf + pos + sizeof(skbs[i].d), skbs[i].bytes,
		       skbs[i].d.headroom + skbs[i].d.len);
		pos += sz;
	}
	return pos;
}

/* Parse a serialised request back (program + skbs). */
static u32 parse_req(const u8 *buf, struct sock_filter *p, u32 *len, struct skbd *skbs)
{
	struct cbpf_jit_test_req req;
	size_t pos = sizeof(req);
	u32 i;

	memcpy(&req, buf, sizeof(req));
	*len = req.prog_len;
	memcpy(p, buf + pos, req.prog_len * sizeof(*p));
	pos += req.prog_len * sizeof(*p);
	for (i = 0; i < req.nr_skbs; i++) {
		memcpy(&skbs[i].d, buf + pos, sizeof(skbs[i].d));
		memcpy(skbs[i].bytes, buf + pos + sizeof(skbs[i].d),
		       skbs[i].d.headroom + skbs[i].d.len);
		pos += skbd_size(&skbs[i].d);
	}
	return req.nr_skbs;
}

/* One request through the module: 0, or -1 with errno. */
static int run_req(int fd, const u8 *req, size_t len, u8 *res, size_t reslen)
{
	if (write(fd, req, len) != (ssize_t)len)
		return -1;
	if (read(fd, res, reslen) < (ssize_t)sizeof(struct cbpf_jit_test_result))
		return -1;
	return 0;
}

/* Compare two results; returns the first differing skb index, -1 if the
 * creation results differ (the error, or for two JITed programs the length
 * socket accounting charges: an interpreted one is charged unblinded), -2
 * if equal. */
static int res_diff(const u8 *a, const u8 *b)
{
	const struct cbpf_jit_test_result *ra = (const void *)a, *rb = (const void *)b;
	const struct cbpf_jit_test_run *xa = (const void *)(ra + 1), *xb = (const void *)(rb + 1);
	u32 i;

	if (ra->create_err != rb->create_err || ra->nr_skbs != rb->nr_skbs ||
	    (!ra->create_err && ra->jited && rb->jited && ra->charge_len != rb->charge_len))
		return -1;
	for (i = 0; i < ra->nr_skbs; i++)
		if (xa[i].ret != xb[i].ret || xa[i].flags != xb[i].flags)
			return (int)i;
	return -2;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "warning: cannot pin to cpu %d: %s\n", cpu, strerror(errno));
}

static int open_run(void)
{
	int fd = open(RUN_FILE, O_RDWR);

	if (fd < 0)
		die("%s: %s (modprobe test_cbpf_jit; mount -t debugfs none /sys/kernel/debug)",
		    RUN_FILE, strerror(errno));
	return fd;
}

/* ---- workers ---- */
struct batch_reply {
	unsigned long progs, runs, rej_conv, rej_other, create_diff, ret_diff;
	unsigned long insns, jited1, slots_used, heavy;
	unsigned long long_progs, skbs, multi_frag, frag_list;	/* >= 1000 insns; skb shapes */
	unsigned long accepted, not_direct;	/* mode 0 accepted; of those, not direct in mode 1 */
	/* mode 0 accepted but interpreted: the eBPF JIT failed on the conversion
	 * (6.2+: blinding that no longer fits, then the interpreter runs it);
	 * of those, compiled directly in mode 1 (the direct JIT must leave them) */
	unsigned long interp0, interp0_direct;
	struct reach_stats reach;		/* what the runs reach (reference interpreter) */
	unsigned long nd_first;			/* 1 + index of the first such program (0: none) */
	double t_gen, t_run0, t_run1;
};

struct slot {
	size_t len;
	int cpu;
	u8 buf[SLOT_SIZE];
};

static struct slot *slots; /* shared: SLOTS per worker */

static void xwrite(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		die("pipe write: %s", strerror(errno));
}

static int xread(int fd, void *p, size_t n)
{
	ssize_t r = read(fd, p, n);

	if (r == 0)
		return 0;
	if (r != (ssize_t)n)
		die("pipe read: %s", strerror(errno));
	return 1;
}

/*
 * Length mix: gen_program() draws 1..4096 insns with a long tail (3% are
 * 2049..4096), and under TCG compile time grows with the length, so the
 * cap is drawn first: mostly short programs, still every length up to
 * --max-len (see the report for the distribution reached).
 */
static u32 pick_maxlen(struct rng *r)
{
	u32 v = rnd_below(r, 100), m;

	if (v < opt_mix_short)
		m = 64;
	else if (v < opt_mix_short + (100 - opt_mix_short) * 3 / 4)
		m = 512;
	else
		m = BPF_MAXINSNS;
	return m < opt_maxlen ? m : opt_maxlen;
}

static u64 batch_seed(u64 seed, unsigned int batch, unsigned int worker)
{
	struct rng r = { seed ^ ((u64)batch << 20) ^ ((u64)worker << 52) };

	return rnd64(&r);
}

/*
 * One case: a program of the batch's mix and opt_skbs skbs for it, and what
 * runs of it reach (rep->reach), counted into @rep.  Returns its length.
 */
static u32 gen_case(struct rng *r, unsigned int w, struct sock_filter *prog, struct skbd *skbs,
		    struct batch_reply *rep)
{
	static struct test_case tc;
	static u8 site[BPF_MAXINSNS];
	unsigned int flags = 0, v = rnd_below(r, 100);
	u32 len, n = opt_skbs, maxlen = pick_maxlen(r), first = 0, j;
	bool dependent = false;

	if (v < 2) {
		flags = GEN_LOAD_HEAVY;
		maxlen = opt_maxlen;
		rep->heavy++;
	} else if (v < 6) {
		flags = GEN_STD_ONLY;
	}
	len = gen_program(r, prog, maxlen, flags);
	neutralize_random(prog, len);
	if (ref_check_classic(prog, len))
		die("generator made an invalid program");
	reach_sites(prog, len, site, harden_level == 2 ||
		    (harden_level == 1 && (w & 1) && !opt_priv_only));
	for (j = 0; j < n; j++) {
		u32 ret;

		gen_packet(r, &tc);
		gen_skb_meta(r, &tc, rnd_pct(r, 40));
		tc_to_skbd(&tc, &skbs[j]);
		switch (shape_frags(r, &skbs[j].d)) {
		case 2: rep->frag_list++; break;
		case 1: rep->multi_frag++; break;
		}
		ret = reach_run(&rep->reach, prog, len, site, &tc, &skbs[j].d);
		if (!j)
			first = ret;
		dependent |= ret != first;
	}
	reach_count_program(&rep->reach, dependent);
	rep->skbs += n;
	rep->long_progs += len >= 1000;
	return len;
}

static void worker(unsigned int w, int cmd_fd, int rep_fd)
{
	static struct sock_filter prog[BPF_MAXINSNS];
	static struct skbd skbs[MAX_SKBS];
	unsigned int per = (opt_batch + opt_jobs - 1) / opt_jobs, batch = 0, i;
	u8 **reqs = calloc(per, sizeof(*reqs)), *res0 = malloc((size_t)per * MAX_RES);
	u8 *res1 = malloc(MAX_RES);
	size_t *lens = calloc(per, sizeof(*lens));
	int fd = open_run();
	char cmd;

	if (!reqs || !res0 || !res1 || !lens)
		die("out of memory");
	pin_cpu((int)w);
	if ((w & 1) && !opt_priv_only)
		set_admin_caps(0);
	if (!xread(cmd_fd, &cmd, 1))
		cmd = 'Q';
	while (cmd == 'G') {
		struct batch_reply rep = { 0 };
		struct rng r = { batch_seed(opt_seed, batch++, w) };
		double t0 = now();

		/* generate, run in mode 0 */
		for (i = 0; i < per; i++) {
			u32 len, n = opt_skbs;
			double tg = now();

			len = gen_case(&r, w, prog, skbs, &rep);
			free(reqs[i]);
			reqs[i] = malloc(16 + len * 8 + n * sizeof(struct skbd));
			if (!reqs[i])
				die("out of memory");
			lens[i] = build_req(reqs[i], prog, len, skbs, n);
			rep.t_gen += now() - tg;
			if (run_req(fd, reqs[i], lens[i], res0 + (size_t)i * MAX_RES, MAX_RES))
				die("module request failed: %s", strerror(errno));
			rep.progs++;
			rep.insns += len;
			{
				const struct cbpf_jit_test_result *rr = (const void *)(res0 + (size_t)i * MAX_RES);

				/* refused by the conversion (jump span) or
				 * by its blinding */
				if (rr->create_err == -EINVAL || rr->create_err == -ENOTSUPP)
					rep.rej_conv++;
				else if (rr->create_err)
					rep.rej_other++;
				else if (!rr->jited)
					rep.interp0++;
				rep.runs += rr->nr_skbs;
			}
		}
		rep.t_run0 = now() - t0 - rep.t_gen;
		xwrite(rep_fd, &rep, sizeof(rep));
		if (!xread(cmd_fd, &cmd, 1) || cmd != 'R')
			break;
		/* mode 1: compare */
		t0 = now();
		for (i = 0; i < per; i++) {
			const struct cbpf_jit_test_result *rr = (const void *)res1, *r0;
			int d;

			if (run_req(fd, reqs[i], lens[i], res1, MAX_RES))
				die("module request failed: %s", strerror(errno));
			if (!rr->create_err && rr->jited)
				rep.jited1++;
			/* per program: what the conversion accepts and its eBPF JIT
			 * compiles, the direct JIT compiled; what the stock path runs
			 * interpreted, the direct JIT left to it */
			r0 = (const void *)(res0 + (size_t)i * MAX_RES);
			if (!r0->create_err && !r0->jited) {
				rep.interp0_direct += !rr->create_err &&
						      !!(rr->image_flags & CBPF_JIT_TEST_IMAGE_DIRECT);
			} else if (!r0->create_err) {
				rep.accepted++;
				if (have_classic && (rr->create_err || !rr->jited ||
						     !(rr->image_flags & CBPF_JIT_TEST_IMAGE_DIRECT)) &&
				    !rep.not_direct++)
					rep.nd_first = i + 1;
			}
			rep.runs += rr->nr_skbs;
			d = res_diff(res0 + (size_t)i * MAX_RES, res1);
			if (d == -2)
				continue;
			if (d == -1)
				rep.create_diff++;
			else
				rep.ret_diff++;
			if (rep.slots_used < SLOTS && lens[i] <= SLOT_SIZE) {
				struct slot *s = &slots[w * SLOTS + rep.slots_used++];

				s->len = lens[i];
				s->cpu = (int)w;
				memcpy(s->buf, reqs[i], lens[i]);
			}
		}
		rep.t_run1 = now() - t0;
		xwrite(rep_fd, &rep, sizeof(rep));
		/* 'A': once more in mode 1, for the counters only (the parent
		 * saw other programs being compiled meanwhile) */
		while (xread(cmd_fd, &cmd, 1) && cmd == 'A') {
			for (i = 0; i < per; i++)
				if (run_req(fd, reqs[i], lens[i], res1, MAX_RES))
					die("module request failed: %s", strerror(errno));
			xwrite(rep_fd, &rep, sizeof(rep));
		}
		if (cmd != 'G')
			break;
	}
	close(fd);
	exit(0);
}

/* ---- reduction and reproducers (parent, workers idle) ---- */
static int red_fd = -1;
static u8 *red_req, red_res0[MAX_RES], red_res1[MAX_RES];
static unsigned long red_tries;

/* Run a one-skb case in both modes; fills the two results.  Leaves mode 1. */
static int case_fails(const struct sock_filter *p, u32 len, const struct skbd *s, u32 n)
{
	size_t l = build_req(red_req, p, len, s, n);

	red_tries++;
	set_mode(0);
	if (run_req(red_fd, red_req, l, red_res0, MAX_RES))
		return 0;
	set_mode(1);
	if (run_req(red_fd, red_req, l, red_res1, MAX_RES))
		return 0;
	return res_diff(red_res0, red_res1) != -2;
}

/* Remove insns [i, i + c) keeping jump targets; false if invalid. */
static bool drop_insns(const struct sock_filter *in, u32 len, u32 i, u32 c,
		       struct sock_filter *out, u32 *olen)
{
	u32 j, t;

	if (i + c >= len) /* keep the final RET */
		return false;
	for (j = 0; j < len; j++) {
		struct sock_filter f = in[j];

		if (j >= i && j < i + c)
			continue;
		if (j < i && BPF_CLASS(f.code) == BPF_JMP) {
			if (BPF_OP(f.code) == BPF_JA) {
				t = j + 1 + f.k;
				if (t >= i + c)
					f.k -= c;
				else if (t > i)
					f.k -= t - i;
			} else {
				t = j + 1 + f.jt;
				f.jt = (u8)(t >= i + c ? f.jt - c : t > i ? f.jt - (t - i) : f.jt);
				t = j + 1 + f.jf;
				f.jf = (u8)(t >= i + c ? f.jf - c : t > i ? f.jf - (t - i) : f.jf);
			}
		}
		out[j < i ? j : j - c] = f;
	}
	*olen = len - c;
	neutralize_random(out, *olen);
	return ref_check_classic(out, *olen) == 0;
}

static void reduce(struct sock_filter *p, u32 *len, struct skbd *s)
{
	static struct sock_filter cand[BPF_MAXINSNS];
	struct skbd t;
	u32 c, i, clen, budget_end = red_tries + 600;
	double deadline = now() + opt_reduce_secs, skb_deadline = deadline + 5;

	/* program: drop chunks, halving the chunk size */
	for (c = *len / 2; c >= 1 && red_tries < budget_end && now() < deadline; c /= 2) {
		for (i = 0; i + c < *len && red_tries < budget_end && now() < deadline;) {
			if (drop_insns(p, *len, i, c, cand, &clen) && case_fails(cand, clen, s, 1)) {
				memcpy(p, cand, clen * sizeof(*p));
				*len = clen;
			} else {
				i += c;
			}
		}
	}
	/* skb: simplify one property at a time */
#define TRY(stmt)                                              \
	do {                                                   \
		t = *s;                                        \
		stmt;                                          \
		if (now() < skb_deadline && case_fails(p, *len, &t, 1)) \
			*s = t;                                \
	} while (0)
	TRY(t.d.frag_list_len = 0);
	TRY(t.d.frag_size = 0);
	TRY(t.d.headlen = t.d.len; t.d.frag_size = 0; t.d.frag_list_len = 0);
	TRY(t.d.vlan_present = 0);
	TRY(t.d.vlan_tci = 0; t.d.vlan_proto = 0);
	TRY(t.d.mark = 0);
	TRY(t.d.hash = 0);
	TRY(t.d.queue_mapping = 0);
	TRY(t.d.pkt_type = 0);
	TRY(t.d.has_dev = 0);
	TRY(t.d.mac_header_set = 0; t.d.mac_offset = 0);
	TRY(if (t.d.network_offset < 0) t.d.network_offset = 0);
	TRY(memmove(t.bytes, t.bytes + t.d.headroom, t.d.len); t.d.headroom = 0);
	while (s->d.len > 0 && now() < skb_deadline) {
		u32 nl = s->d.len / 2;

		t = *s;
		t.d.len = nl;
		if (t.d.headlen > nl)
			t.d.headlen = nl;
		/* Keep the fragment shape a mismatch may depend on. */
		if (t.d.frag_list_len > nl - t.d.headlen)
			t.d.frag_list_len = nl - t.d.headlen;
		if (t.d.network_offset > (int)nl)
			t.d.network_offset = (s16)nl;
		if (t.d.mac_header_set && t.d.mac_offset > (int)nl)
			t.d.mac_offset = (s16)nl;
		if (!case_fails(p, *len, &t, 1))
			break;
		*s = t;
	}
#undef TRY
}

static void write_case(FILE *f, const struct sock_filter *p, u32 len, const struct skbd *s)
{
	const struct cbpf_jit_test_skb *d = &s->d;
	u32 i;

	for (i = 0; i < len; i++)
		fprintf(f, "{ 0x%x, %u, %u, 0x%08x },\n", p[i].code, p[i].jt, p[i].jf, p[i].k);
	fprintf(f, "# skb len=%u headlen=%u headroom=%u mark=0x%x hash=0x%x queue_mapping=%u "
		"protocol=0x%04x vlan_present=%u vlan_tci=0x%x vlan_proto=0x%04x pkt_type=%u "
		"has_dev=%u ifindex=%u dev_type=%u mac_header_set=%u mac_offset=%d "
		"network_offset=%d frag_size=%u frag_list_len=%u\n",
		d->len, d->headlen, d->headroom, d->mark, d->hash, d->queue_mapping,
		d->protocol, d->vlan_present, d->vlan_tci, d->vlan_proto, d->pkt_type,
		d->has_dev, d->dev_ifindex, d->dev_type, d->mac_header_set, d->mac_offset,
		d->network_offset, d->frag_size, d->frag_list_len);
	fprintf(f, "# (protocol and vlan_proto as the raw __be16 value in host order;"
		" data = headroom bytes, then packet bytes)\n");
	for (i = 0; i < (u32)d->headroom + d->len; i++)
		fprintf(f, "%s%02x%s", i % 32 ? "" : "# data ", s->bytes[i],
			i % 32 == 31 || i + 1 == (u32)d->headroom + d->len ? "\n" : "");
}

static unsigned long n_repro;
static double t_reduce; /* seconds spent reducing and saving mismatches */

static void handle_mismatch2(const struct slot *sl, struct sock_filter *p, struct skbd *skbs);

static void handle_mismatch(const struct slot *sl)
{
	static struct sock_filter p[BPF_MAXINSNS];
	static struct skbd skbs[MAX_SKBS];

	pin_cpu(sl->cpu);
	unpriv_now = (sl->cpu & 1) && !opt_priv_only;
	if (unpriv_now)
		set_admin_caps(0);
	handle_mismatch2(sl, p, skbs);
	if (unpriv_now)
		set_admin_caps(1);
	unpriv_now = 0;
}

static void handle_mismatch2(const struct slot *sl, struct sock_filter *p, struct skbd *skbs)
{
	static unsigned long n_reduced_create, n_reduced_ret;
	const struct cbpf_jit_test_result *r0, *r1;
	const struct cbpf_jit_test_run *x0, *x1;
	const char *reduced = "reduced";
	double t = now();
	char path[512];
	u32 len, n, k;
	int d;
	FILE *f;

	n = parse_req(sl->buf, p, &len, skbs);
	/* find one failing skb (or the creation difference) */
	k = 0;
	if (!case_fails(p, len, skbs, n)) {
		record("fuzz: mismatch reproduces", 0, "a mismatch did not reproduce on re-run "
		       "(seed %" PRIu64 ")", opt_seed);
		return;
	}
	d = res_diff(red_res0, red_res1);
	if (d >= 0)
		k = (u32)d;
	skbs[0] = skbs[k];
	/* Reduce the first few of each kind; save the others as they are. */
	if (d < 0 ? n_reduced_create++ < 1 : n_reduced_ret++ < 10)
		reduce(p, &len, &skbs[0]);
	else
		reduced = "not reduced (enough reduced ones of this kind already)";
	case_fails(p, len, skbs, 1);
	r0 = (const void *)red_res0;
	r1 = (const void *)red_res1;
	x0 = (const void *)(r0 + 1);
	x1 = (const void *)(r1 + 1);
	snprintf(path, sizeof(path), "%s/cbpf-jit-fuzz-%" PRIu64 "-%lu.txt", opt_out, opt_seed,
		 ++n_repro);
	f = fopen(path, "w");
	if (!f)
		f = stdout;
	fprintf(f, "# cbpf-jit-fuzz reproducer, seed %" PRIu64 ", %u insns, %s, %s\n", opt_seed,
		len, unpriv_now ? "compiled WITHOUT CAP_SYS_ADMIN/CAP_BPF (--repro --unpriv)" :
		"compiled as root", reduced);
	fprintf(f, "# mode 0 (%s): create_err=%d charge_len=%u ret=0x%x; "
		"mode 1 (%s): create_err=%d charge_len=%u ret=0x%x\n",
		have_classic ? "bpf_jit_classic=0" : "bpf_jit_enable=0", r0->create_err,
		r0->charge_len, r0->nr_skbs ? x0[0].ret : 0,
		have_classic ? "bpf_jit_classic=1" : "bpf_jit_enable=1",
		r1->create_err, r1->charge_len, r1->nr_skbs ? x1[0].ret : 0);
	write_case(f, p, len, &skbs[0]);
	if (f != stdout) {
		fclose(f);
		printf("---- reproducer %s\n", path);
		f = fopen(path, "r");
		if (f) {
			char line[512];

			while (fgets(line, sizeof(line), f))
				fputs(line, stdout);
			fclose(f);
		}
	}
	t_reduce += now() - t;
	record("fuzz: mismatch", 0, "%s: %u insns, mode0 err=%d ret=0x%x, mode1 err=%d ret=0x%x",
	       path, len, r0->create_err, r0->nr_skbs ? x0[0].ret : 0, r1->create_err,
	       r1->nr_skbs ? x1[0].ret : 0);
}

/* ---- --repro FILE ---- */
static int do_repro(const char *path)
{
	static struct sock_filter p[BPF_MAXINSNS];
	static struct skbd s;
	const struct cbpf_jit_test_result *r0 = (const void *)red_res0, *r1 = (const void *)red_res1;
	char line[4096];
	u32 len = 0, hl = 0, i;
	FILE *f = fopen(path, "r");
	int fails;

	if (!f)
		die("%s: %s", path, strerror(errno));
	memset(&s, 0, sizeof(s));
	while (fgets(line, sizeof(line), f)) {
		unsigned int c, jt, jf, k, v[17], fs = 0, fl = 0;
		int mo, no;

		if (sscanf(line, "{ 0x%x, %u, %u, 0x%x }", &c, &jt, &jf, &k) == 4 && len < BPF_MAXINSNS) {
			p[len].code = (u16)c;
			p[len].jt = (u8)jt;
			p[len].jf = (u8)jf;
			p[len++].k = k;
		} else if (sscanf(line, "# skb len=%u headlen=%u headroom=%u mark=0x%x hash=0x%x "
				  "queue_mapping=%u protocol=0x%x vlan_present=%u vlan_tci=0x%x "
				  "vlan_proto=0x%x pkt_type=%u has_dev=%u ifindex=%u dev_type=%u "
				  "mac_header_set=%u mac_offset=%d network_offset=%d "
				  "frag_size=%u frag_list_len=%u",
				  &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
				  &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &mo, &no,
				  &fs, &fl) >= 17) {
			/* older reproducers end at network_offset: one fragment per page */
			s.d.len = v[0];
			s.d.headlen = v[1];
			s.d.headroom = (u16)v[2];
			s.d.mark = v[3];
			s.d.hash = v[4];
			s.d.queue_mapping = (u16)v[5];
			s.d.protocol = (u16)v[6];
			s.d.vlan_present = (u8)v[7];
			s.d.vlan_tci = (u16)v[8];
			s.d.vlan_proto = (u16)v[9];
			s.d.pkt_type = (u8)v[10];
			s.d.has_dev = (u8)v[11];
			s.d.dev_ifindex = v[12];
			s.d.dev_type = (u16)v[13];
			s.d.mac_header_set = (u8)v[14];
			s.d.mac_offset = (s16)mo;
			s.d.network_offset = (s16)no;
			s.d.frag_size = fs;
			s.d.frag_list_len = fl;
		} else if (!strncmp(line, "# data ", 7)) {
			for (i = 7; line[i] && line[i + 1] && line[i] != '\n' && hl < sizeof(s.bytes); i += 2) {
				unsigned int b;

				if (sscanf(line + i, "%2x", &b) != 1)
					break;
				s.bytes[hl++] = (u8)b;
			}
		}
	}
	fclose(f);
	if (!len || ref_check_classic(p, len))
		die("%s: no valid program", path);
	red_fd = open_run();
	if (unpriv_now)
		set_admin_caps(0);
	fails = case_fails(p, len, &s, 1);
	printf("mode 0: create_err=%d jited=%u ret=0x%x\nmode 1: create_err=%d jited=%u ret=0x%x\n%s\n",
	       r0->create_err, r0->jited, r0->nr_skbs ? ((const struct cbpf_jit_test_run *)(r0 + 1))->ret : 0,
	       r1->create_err, r1->jited, r1->nr_skbs ? ((const struct cbpf_jit_test_run *)(r1 + 1))->ret : 0,
	       fails ? "MISMATCH" : "equal");
	return fails;
}

/*
 * bpf_jit_classic=1 with bpf_jit_enable=0 is the interpreter: no image
 * (jited 0), the direct JIT's counters unchanged, and the results of the
 * conversion's JIT (bpf_jit_enable=1, bpf_jit_classic=0). The same 200
 * programs (up to 512 insns, 8 skbs each) are generated for each mode.
 */
#define INTERP_PROGS 200
#define INTERP_SKBS 8

static void interp_gen(struct rng *r, struct sock_filter *p, u32 *len, struct skbd *skbs)
{
	static struct test_case tc;
	u32 j;

	*len = gen_program(r, p, 512, 0);
	neutralize_random(p, *len);
	for (j = 0; j < INTERP_SKBS; j++) {
		gen_packet(r, &tc);
		gen_skb_meta(r, &tc, rnd_pct(r, 40));
		tc_to_skbd(&tc, &skbs[j]);
		shape_frags(r, &skbs[j].d);
	}
}

static int interpreter_check(void)
{
	static struct sock_filter p[BPF_MAXINSNS];
	static struct skbd skbs[INTERP_SKBS];
	static u8 res0[INTERP_PROGS][MAX_RES], res1[MAX_RES];
	struct rng r = { opt_seed ^ 0x696e74657270ull };
	unsigned long jited = 0, diff = 0, created = 0;
	long long moved = 0;
	struct stats a, b;
	size_t l;
	u32 len;
	int i;

	/* SKF_AD_CPU: both modes on one CPU, as the workers are */
	pin_cpu(0);
	set_mode(0);
	for (i = 0; i < INTERP_PROGS; i++) {
		interp_gen(&r, p, &len, skbs);
		l = build_req(red_req, p, len, skbs, INTERP_SKBS);
		if (run_req(red_fd, red_req, l, res0[i], MAX_RES))
			die("module request failed: %s", strerror(errno));
	}
	if (sysctl_write("bpf_jit_enable", "0") || sysctl_write("bpf_jit_classic", "1"))
		die("cannot set bpf_jit_enable=0 bpf_jit_classic=1: %s", strerror(errno));
	stats_read(&a);
	r.s = opt_seed ^ 0x696e74657270ull;
	for (i = 0; i < INTERP_PROGS; i++) {
		const struct cbpf_jit_test_result *rr = (const void *)res1;

		interp_gen(&r, p, &len, skbs);
		l = build_req(red_req, p, len, skbs, INTERP_SKBS);
		if (run_req(red_fd, red_req, l, res1, MAX_RES))
			die("module request failed: %s", strerror(errno));
		created += !rr->create_err;
		jited += !rr->create_err && rr->jited;
		if (res_diff(res0[i], res1) != -2 && !diff++)
			printf("fuzz: interpreter: program %d (%u insns) differs: create %d/%d\n", i,
			       len, ((const struct cbpf_jit_test_result *)res0[i])->create_err,
			       rr->create_err);
	}
	stats_read(&b);
	set_mode(1);
	for (i = 0; i < ST_NR; i++)
		moved += b.v[i] != a.v[i];
	record("fuzz: bpf_jit_enable=0 runs the interpreter with bpf_jit_classic=1",
	       created && !jited && !diff && !moved,
	       "%d programs x %d skbs, %lu created: %lu jited, %lu results differ from the "
	       "conversion's JIT, %lld direct-JIT counters moved", INTERP_PROGS, INTERP_SKBS,
	       created, jited, diff, moved);
	return created && !jited && !diff && !moved;
}

/* ---- main ---- */
static void usage(void)
{
	fprintf(stderr, "usage: cbpf-jit-fuzz [--programs N | --seconds N] [--seed S] [--records FILE]\n"
			"       [--jobs N] [--batch N] [--skbs N] [--max-len N] [--mix-short PCT]\n"
			"       [--priv-only] [--reduce-seconds N] [--decline-ceiling N]\n"
			"       [--label TEXT] [--out DIR]\n"
			"       cbpf-jit-fuzz --repro FILE [--unpriv]\n");
	exit(2);
}

/*
 * --reach-only: the programs and skbs of --programs N (one worker's
 * stream, seed --seed), run by the reference interpreter alone, and the
 * depth and reach floors over them; no module, no kernel.  For tuning the
 * generators on any machine.
 */
static int reach_only;

static int do_reach_only(void)
{
	static struct sock_filter prog[BPF_MAXINSNS];
	static struct skbd skbs[MAX_SKBS];
	struct batch_reply rep = { 0 };
	unsigned long n = opt_programs ? opt_programs : 10000, i;
	unsigned int batch = 0;

	while (rep.reach.programs < n) {
		struct rng r = { batch_seed(opt_seed, batch++, 0) };

		for (i = 0; i < opt_batch && rep.reach.programs < n; i++)
			gen_case(&r, 0, prog, skbs, &rep);
	}
	printf("cbpf-jit-fuzz --reach-only: %lu programs (%lu >= 1000 insns, %lu load-heavy), seed %"
	       PRIu64 "\n", rep.reach.programs, rep.long_progs, rep.heavy, opt_seed);
	reach_failed = 0;
	reach_floors(&rep.reach, (1u << REACH_NR) - 1, reach_record, NULL);
	return reach_failed ? 1 : 0;
}

static char saved_enable[32], saved_classic[32];

static void restore_sysctls(void)
{
	if (saved_enable[0])
		sysctl_write("bpf_jit_enable", saved_enable);
	if (have_classic && saved_classic[0])
		sysctl_write("bpf_jit_classic", saved_classic);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seconds", 1, 0, 's' }, { "seed", 1, 0, 'S' }, { "records", 1, 0, 'r' },
		{ "jobs", 1, 0, 'j' }, { "batch", 1, 0, 'b' }, { "skbs", 1, 0, 'k' },
		{ "max-len", 1, 0, 'm' }, { "out", 1, 0, 'o' }, { "repro", 1, 0, 'R' },
		{ "mix-short", 1, 0, 'x' }, { "keep-random", 0, 0, 'K' },
		{ "priv-only", 0, 0, 'P' }, { "unpriv", 0, 0, 'U' },
		{ "reduce-seconds", 1, 0, 'D' }, { "decline-ceiling", 1, 0, 'C' },
		{ "label", 1, 0, 'L' }, { "programs", 1, 0, 'p' },
		{ "reach-only", 0, 0, 'Q' },
		{ 0, 0, 0, 0 }
	};
	const char *repro = NULL;
	struct stats s0, s1, s2, tot = { { 0 } };
	unsigned long progs = 0, runs = 0, insns = 0, rej = 0, rej_other = 0, heavy = 0;
	unsigned long create_diff = 0, ret_diff = 0, jited1 = 0, unbalanced = 0, bad_decl = 0;
	unsigned long mode0_noise = 0, batches = 0, recounted = 0, accepted = 0, not_direct = 0;
	unsigned long long_progs = 0, skbs = 0, multi_frag = 0, frag_list = 0;
	unsigned long interp0 = 0, interp0_direct = 0;
	struct reach_stats reach = { 0 };
	int count_ok, mix_ok, shapes_ok, interp_ok = 1;
	double t_gen = 0, t_run0 = 0, t_run1 = 0;
	long long named = 0;
	int (*cmd)[2], (*rep)[2], c, i, nd_ok = 1;
	double t0, tlast, tb = 0, tprint;
	char harden[32] = "?";

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt_seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's': opt_seconds = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'S': opt_seed = strtoull(optarg, NULL, 0); break;
		case 'r': opt_records = optarg; break;
		case 'j': opt_jobs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'b': opt_batch = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'k': opt_skbs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'm': opt_maxlen = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'o': opt_out = optarg; break;
		case 'R': repro = optarg; break;
		case 'K': opt_keep_random = 1; break;
		case 'P': opt_priv_only = 1; break;
		case 'U': unpriv_now = 1; break;
		case 'D': opt_reduce_secs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'C': opt_decline_ceiling = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'x': opt_mix_short = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'p': opt_programs = strtoul(optarg, NULL, 0); break;
		case 'L': opt_label = optarg; break;
		case 'Q': reach_only = 1; break;
		default: usage();
		}
	}
	if (opt_skbs < 1 || opt_skbs > MAX_SKBS || opt_maxlen < 1 || opt_maxlen > BPF_MAXINSNS ||
	    opt_batch < 1 || opt_mix_short > 100)
		usage();
	have_classic = access(SYS "bpf_jit_classic", F_OK) == 0;
	sysctl_read("bpf_jit_enable", saved_enable, sizeof(saved_enable));
	if (have_classic)
		sysctl_read("bpf_jit_classic", saved_classic, sizeof(saved_classic));
	sysctl_read("bpf_jit_harden", harden, sizeof(harden));
	harden_level = atoi(harden);
	red_req = malloc(MAX_REQ);
	if (!red_req)
		die("out of memory");
	atexit(restore_sysctls);
	if (repro)
		return do_repro(repro);
	if (reach_only)
		return do_reach_only();

	if (opt_records) {
		records = fopen(opt_records, "w");
		if (!records)
			die("%s: %s", opt_records, strerror(errno));
	}
	if (!opt_jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		opt_jobs = n < 1 ? 1 : n > 8 ? 8 : (unsigned int)n;
	}
	if (opt_batch < opt_jobs)
		opt_batch = opt_jobs;
	if (access(RUN_FILE, F_OK)) {
		record("fuzz: test module interface present", 0, "%s missing", RUN_FILE);
		return 1;
	}
	red_fd = open_run();
	record("fuzz: direct JIT switch present", have_classic,
	       have_classic ? "comparing bpf_jit_classic=0 (conversion) with =1 (direct JIT)" :
	       "net.core.bpf_jit_classic absent: comparing bpf_jit_enable=0 (interpreter) "
	       "with =1 (eBPF JIT) instead");
	if (opt_programs)
		printf("cbpf-jit-fuzz: seed %" PRIu64 " programs %lu", opt_seed, opt_programs);
	else
		printf("cbpf-jit-fuzz: seed %" PRIu64 " seconds %u", opt_seed, opt_seconds);
	printf(" jobs %u batch %u skbs %u max-len %u bpf_jit_harden %s\n", opt_jobs, opt_batch,
	       opt_skbs, opt_maxlen, harden);

	slots = mmap(NULL, sizeof(struct slot) * SLOTS * opt_jobs, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cmd = calloc(opt_jobs, sizeof(*cmd));
	rep = calloc(opt_jobs, sizeof(*rep));
	if (slots == MAP_FAILED || !cmd || !rep)
		die("out of memory");
	for (i = 0; i < (int)opt_jobs; i++) {
		pid_t pid;

		if (pipe(cmd[i]) || pipe(rep[i]))
			die("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			close(cmd[i][1]);
			close(rep[i][0]);
			worker((unsigned int)i, cmd[i][0], rep[i][1]);
		}
		close(cmd[i][0]);
		close(rep[i][1]);
	}

	t0 = tprint = now();
	for (;;) {
		struct batch_reply r, sum = { 0 };
		unsigned long expect_conv;
		double tbs = now();
		long long d[ST_NR], decl;

		if (opt_programs ? progs >= opt_programs : tbs - t0 + tb > opt_seconds)
			break;
		/* mode 0 */
		set_mode(0);
		stats_read(&s0);
		for (i = 0; i < (int)opt_jobs; i++)
			xwrite(cmd[i][1], "G", 1);
		for (i = 0; i < (int)opt_jobs; i++) {
			if (!xread(rep[i][0], &r, sizeof(r)))
				die("worker %d died", i);
			sum.rej_conv += r.rej_conv;
			sum.rej_other += r.rej_other;
			sum.interp0 += r.interp0;
			reach_add(&reach, &r.reach);
		}
		stats_read(&s1);
		for (c = 0; c < ST_NR; c++)
			if (s1.v[c] != s0.v[c])
				mode0_noise++;
		/* mode 1 */
		set_mode(1);
		for (i = 0; i < (int)opt_jobs; i++)
			xwrite(cmd[i][1], "R", 1);
		/* declined_conversion: what the conversion rejects, and what its
		 * eBPF JIT fails on (the stock path then interprets it) */
		expect_conv = sum.rej_conv + sum.interp0;
		interp0 += sum.interp0;
		memset(&sum, 0, sizeof(sum));
		for (i = 0; i < (int)opt_jobs; i++) {
			if (!xread(rep[i][0], &r, sizeof(r)))
				die("worker %d died", i);
			sum.progs += r.progs;
			sum.runs += r.runs;
			sum.insns += r.insns;
			sum.rej_conv += r.rej_conv;
			sum.rej_other += r.rej_other;
			sum.create_diff += r.create_diff;
			sum.ret_diff += r.ret_diff;
			sum.jited1 += r.jited1;
			sum.heavy += r.heavy;
			sum.long_progs += r.long_progs;
			sum.skbs += r.skbs;
			sum.multi_frag += r.multi_frag;
			sum.frag_list += r.frag_list;
			sum.accepted += r.accepted;
			sum.not_direct += r.not_direct;
			sum.interp0_direct += r.interp0_direct;
			if (r.not_direct && not_direct + sum.not_direct == r.not_direct)
				printf("fuzz: batch %lu, worker %d: program %lu of the batch accepted by the "
				       "conversion but not compiled by the direct JIT (first of %lu)\n",
				       batches + 1, i, r.nd_first, r.not_direct);
			t_gen += r.t_gen;
			t_run0 += r.t_run0;
			t_run1 += r.t_run1;
		}
		stats_read(&s2);
		batches++;
		progs += sum.progs;
		runs += sum.runs;
		insns += sum.insns;
		rej += sum.rej_conv;
		rej_other += sum.rej_other;
		heavy += sum.heavy;
		long_progs += sum.long_progs;
		skbs += sum.skbs;
		multi_frag += sum.multi_frag;
		frag_list += sum.frag_list;
		create_diff += sum.create_diff;
		ret_diff += sum.ret_diff;
		jited1 += sum.jited1;
		accepted += sum.accepted;
		not_direct += sum.not_direct;
		interp0_direct += sum.interp0_direct;
		decl = 0;
		for (c = 0; c < ST_NR; c++) {
			d[c] = s2.v[c] - s1.v[c];
			tot.v[c] += d[c];
			if (c != ST_COMPILED)
				decl += d[c];
		}
		if (have_classic && (d[ST_COMPILED] + decl != (long long)sum.progs ||
				     d[ST_CONV] != (long long)expect_conv)) {
			/* Other programs compiled meanwhile (a service's seccomp
			 * filter...)?  Count the batch once more, alone. */
			struct stats a0, a1;

			printf("fuzz: batch %lu: %lu programs but compiled %lld, declines %lld "
			       "(conversion %lld for %lu rejected by the conversion): recounting\n",
			       batches, sum.progs, d[ST_COMPILED], decl, d[ST_CONV], expect_conv);
			stats_read(&a0);
			for (i = 0; i < (int)opt_jobs; i++)
				xwrite(cmd[i][1], "A", 1);
			for (i = 0; i < (int)opt_jobs; i++)
				if (!xread(rep[i][0], &r, sizeof(r)))
					die("worker %d died", i);
			stats_read(&a1);
			decl = 0;
			for (c = 0; c < ST_NR; c++) {
				tot.v[c] -= d[c];
				d[c] = a1.v[c] - a0.v[c];
				tot.v[c] += d[c];
				if (c != ST_COMPILED)
					decl += d[c];
			}
			recounted++;
		}
		if (have_classic) {
			/* every (valid) program reaches bpf_jit_compile() once */
			if (d[ST_COMPILED] + decl != (long long)sum.progs ||
			    d[ST_CONV] != (long long)expect_conv)
				unbalanced++;
			if (d[ST_OPCODE] || d[ST_ANC] || d[ST_FB_SIZE])
				bad_decl++;
			if (unbalanced == 1 && (d[ST_COMPILED] + decl != (long long)sum.progs ||
						d[ST_CONV] != (long long)expect_conv))
				printf("fuzz: batch %lu unbalanced: %lu programs, compiled %lld, "
				       "declines %lld (conversion %lld, %lu rejected by the conversion)\n",
				       batches, sum.progs, d[ST_COMPILED], decl, d[ST_CONV], expect_conv);
		}
		tb = now() - tbs;
		/* reproducers; workers wait for the next command */
		for (i = 0; i < (int)opt_jobs * SLOTS; i++) {
			if (slots[i].len) {
				handle_mismatch(&slots[i]);
				slots[i].len = 0;
			}
		}
		tlast = now();
		if (tlast - tprint >= 10) {
			printf("fuzz: %.0fs: %lu programs, %lu runs (%.0f progs/s, %.0f runs/s), "
			       "mismatches %lu, compiled %lld, declined conv %lld size %lld\n",
			       tlast - t0, progs, runs, progs / (tlast - t0), runs / (tlast - t0),
			       create_diff + ret_diff, tot.v[ST_COMPILED], tot.v[ST_CONV], tot.v[ST_SIZE]);
			tprint = tlast;
		}
	}
	for (i = 0; i < (int)opt_jobs; i++)
		xwrite(cmd[i][1], "Q", 1);
	while (wait(NULL) > 0)
		;
	tlast = now() - t0;

	printf("fuzz: done: seed %" PRIu64 ", %.1fs, %lu batches, %lu programs (%lu insns, %lu "
	       "load-heavy), %u skbs each, %lu program runs in both modes, %.0f programs/s, "
	       "%.0f runs/s\n", opt_seed, tlast, batches, progs, insns, heavy, opt_skbs, runs / 2,
	       progs / tlast, runs / tlast);
	printf("fuzz: worker time: generate %.1fs, mode 0 %.1fs, mode 1 %.1fs; reducing %.1fs; "
	       "without reducing: %.0f programs/s\n", t_gen, t_run0, t_run1, t_reduce,
	       progs / (tlast - t_reduce));
	printf("fuzz: rejected by bpf_prog_create in mode 0: %lu (-EINVAL or -ENOTSUPP, conversion), %lu other\n",
	       rej, rej_other);
	printf("fuzz: direct JIT counters (mode 1):");
	for (c = 0; c < ST_NR; c++)
		printf(" %s %lld", st_names[c], tot.v[c]);
	printf("\n");

	record("fuzz: results equal in both modes", !create_diff && !ret_diff,
	       "seed %" PRIu64 ": %lu programs x %u skbs, %lu runs, %lu create (error or charged "
	       "length) mismatches, "
	       "%lu return mismatches", opt_seed, progs, opt_skbs, runs, create_diff, ret_diff);
	if (have_classic) {
		record("fuzz: direct JIT compiled every program it does not decline", !unbalanced,
		       "compiled %lld of %lu, declined_conversion %lld (= %lu rejected by the "
		       "conversion + %lu it runs interpreted), declined_size %lld, fallback_alloc %lld, "
		       "%lu unbalanced batches (%lu recounted)", tot.v[ST_COMPILED], progs,
		       tot.v[ST_CONV], rej, interp0,
		       tot.v[ST_SIZE], tot.v[ST_FB_ALLOC], unbalanced, recounted);
		record("fuzz: what the stock path interprets (its eBPF JIT failed) the direct JIT leaves to it",
		       !interp0_direct, "%lu programs accepted but interpreted with the switch off "
		       "(blinding that no longer fits, 6.2+), %lu of them compiled directly with it on",
		       interp0, interp0_direct);
		record("fuzz: declines only for documented reasons", !bad_decl,
		       "declined_opcode %lld, declined_anc %lld, fallback_size %lld, declined_nomem %lld",
		       tot.v[ST_OPCODE], tot.v[ST_ANC], tot.v[ST_FB_SIZE], tot.v[ST_NOMEM]);
		record("fuzz: direct JIT idle with bpf_jit_classic=0", !mode0_noise,
		       "%lu counter changes", mode0_noise);
		named = tot.v[ST_SIZE] + tot.v[ST_NOMEM] + tot.v[ST_FB_ALLOC];
		nd_ok = (long long)not_direct <= named && named <= (long long)opt_decline_ceiling;
		record("fuzz: every program the conversion accepts was compiled by the direct JIT", nd_ok,
		       "%lu of %lu accepted programs have the test module's IMAGE_DIRECT flag in mode 1; "
		       "%lu without it, named declines declined_size %lld + declined_nomem %lld + "
		       "fallback_alloc %lld = %lld (must cover them, ceiling %u)",
		       accepted - not_direct, accepted, not_direct, tot.v[ST_SIZE], tot.v[ST_NOMEM],
		       tot.v[ST_FB_ALLOC], named, opt_decline_ceiling);
	}
	/* A count, never a rate: the time and the rate are figures. */
	count_ok = progs > 0 && progs >= opt_programs;
	record("fuzz: programs compared", count_ok, "%lu programs (asked for %lu) in %.0fs: "
	       "%.0f programs/s, %.0f runs/s (figures, not judged; each program built and run "
	       "in both modes)", progs, opt_programs, tlast, progs / tlast, runs / tlast);
	/* Programs of 1,000 insns exist only if --max-len allows them. */
	mix_ok = progs > 0 && (opt_maxlen < 1000 || long_progs * 50 >= progs);
	record("fuzz: program mix", mix_ok, "%lu programs, %lu of them >= 1000 instructions "
	       "(%.1f%%, floor 2%% when --max-len allows)", progs, long_progs,
	       progs ? 100.0 * long_progs / progs : 0.0);
	shapes_ok = multi_frag * 100 >= skbs * 3 && frag_list * 100 >= skbs * 3;
	record("fuzz: skb shapes", shapes_ok, "%lu skbs: %lu paged in small fragments, %lu with "
	       "a frag_list (floors 3%% each)", skbs, multi_frag, frag_list);
	/* how deep the runs went and what they reached (reach.h) */
	reach_failed = 0;
	/* blinded, the generator makes no jeq search and knows no X */
	reach_floors(&reach, harden_level == 2 ? ((1u << REACH_NR) - 1) &
		     ~(1u << REACH_JEQ_SEARCH | 1u << REACH_KNOWN_X) : (1u << REACH_NR) - 1,
		     reach_record, NULL);
	if (have_classic)
		interp_ok = interpreter_check();
	return create_diff || ret_diff || unbalanced || bad_decl || mode0_noise || !nd_ok ||
	       !count_ok || !mix_ok || !shapes_ok || !interp_ok || reach_failed ||
	       (have_classic && interp0_direct);
}
