// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-seccomp-fuzz: differential fuzzing of seccomp filters, the direct
 * classic BPF JIT against the conversion to eBPF of the same kernel.
 *
 * Usage (as root, with test_cbpf_jit loaded and debugfs mounted):
 *   cbpf-seccomp-fuzz [--programs N] [--blinded N] [--seed S]
 *
 * Random programs of the instructions seccomp accepts (seccomp_data loads
 * at every aligned offset, the length loads, ALU, jumps, M[], returns with
 * every action and data value), each with DATA random struct seccomp_data.
 * The test_cbpf_jit module builds each program as seccomp does (seccomp's
 * checks and rewrite, bpf_prog_create_from_user()) and runs it over the
 * data, in batches: once with net.core.bpf_jit_classic = 1, once with = 0.
 * Both runs must give the same creation result and the same return value
 * for every seccomp_data, and with the switch on every program built must
 * have been compiled by the direct JIT (without it, none).  N programs at
 * bpf_jit_harden 0, then --blinded N more at bpf_jit_harden 2.  The
 * sysctls are restored at the end.
 *
 * Records on standard output, "name<TAB>pass|fail<TAB>detail"; the first
 * mismatches on standard error as a tcpdump -dd program and its data.
 * Exit status 0 when every record passed, 1 otherwise, 2 on a usage or
 * setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check-record.h"
#include "net-core-sysctl.h"
#include "rng.h"
#include "test_cbpf_jit.h"

#define BATCH	256
#define NDATA	8
#define MAXLEN	1024

struct prog {
	struct sock_filter insns[MAXLEN];
	unsigned int len;
	struct seccomp_data data[NDATA];
};

struct outcome {
	int create_err;
	unsigned int flags;
	uint32_t ret[NDATA];
};

static struct rng rng;
static uint64_t seed;

/* Constants that also appear in the data, so that jumps go both ways. */
static const uint32_t pool[] = {
	AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, 0, 1, 2, 3, 39, 59, 60, 231, 257,
	0x40000000, 0xffffffff, 0x7fffffff, 0x80000000, 0xff, 0x1000,
};

static uint32_t some_k(void)
{
	if (rnd_pct(&rng, 60))
		return pool[rnd_below(&rng, sizeof(pool) / sizeof(pool[0]))];
	if (rnd_pct(&rng, 50))
		return rnd_below(&rng, 512);
	return (uint32_t)rnd64(&rng);
}

/* seccomp's return values: every action, random data */
static uint32_t some_ret(void)
{
	static const uint32_t actions[] = {
		SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD, SECCOMP_RET_TRAP,
		SECCOMP_RET_ERRNO, SECCOMP_RET_USER_NOTIF, SECCOMP_RET_TRACE,
		SECCOMP_RET_LOG, SECCOMP_RET_ALLOW,
	};

	if (rnd_pct(&rng, 10))
		return (uint32_t)rnd64(&rng);
	return actions[rnd_below(&rng, 8)] | (rnd_pct(&rng, 50) ? rnd_below(&rng, 0x10000) : 0);
}

/*
 * An allow list as libseccomp writes it, which the direct JIT compiles
 * as a binary search: "ld [nr]", then a run of "jeq #nr" whose hits go
 * past the run (to a return), the last one of any shape.  Now and then
 * a hit lands inside the run or a jf is set, which cuts it short.
 */
static void gen_allow_list(struct prog *p, unsigned int s)
{
	unsigned int n = 8 + rnd_below(&rng, rnd_pct(&rng, 70) ? 24 : 240), end, i, far, allow;
	bool seq = rnd_pct(&rng, 50);
	struct sock_filter *f = p->insns;

	if (n > p->len - 1 - s)
		n = p->len - 1 - s;
	end = s + n;
	f[s - 1] = (struct sock_filter){ .code = BPF_LD | BPF_W | BPF_ABS, .k = rnd_pct(&rng, 80) ? 0 : 16 };
	/* most hits go to one "ret ALLOW" just past the run, as libseccomp's */
	allow = end + rnd_below(&rng, p->len - end < 4 ? p->len - end : 4);
	if (allow < p->len - 1 && rnd_pct(&rng, 50))
		f[allow] = (struct sock_filter){ .code = BPF_RET | BPF_K, .k = SECCOMP_RET_ALLOW };
	for (i = s; i < end; i++) {
		far = p->len - 2 - i < 255 ? p->len - 2 - i : 255;
		/* seq: consecutive keys, as allowed system call numbers often are */
		f[i] = (struct sock_filter){ .code = BPF_JMP | BPF_JEQ | BPF_K,
					     .k = seq ? i - s + rnd_below(&rng, 2) :
					     rnd_pct(&rng, 50) ? rnd_below(&rng, 64) : some_k() };
		if (allow - i - 1 <= far && rnd_pct(&rng, 70))
			f[i].jt = (uint8_t)(allow - i - 1);
		else if (end - 1 - i <= far && !rnd_pct(&rng, 2))
			f[i].jt = (uint8_t)(end - 1 - i + rnd_below(&rng, far - (end - 1 - i) + 1));
		else if (far)
			f[i].jt = (uint8_t)(1 + rnd_below(&rng, far));
		if (rnd_pct(&rng, 1))
			f[i].jf = (uint8_t)rnd_below(&rng, far + 1);
	}
	if (rnd_pct(&rng, 50)) {
		far = p->len - 1 - end < 255 ? p->len - 1 - end : 255;
		f[end - 1].jt = (uint8_t)rnd_below(&rng, far + 1);
		f[end - 1].jf = (uint8_t)rnd_below(&rng, far + 1);
	}
}

static void gen(struct prog *p)
{
	static const uint16_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_AND,
					    BPF_OR, BPF_XOR, BPF_LSH, BPF_RSH };
	static const uint16_t jmp_ops[] = { BPF_JEQ, BPF_JGE, BPF_JGT, BPF_JSET };
	unsigned int len, i, stored = 0;
	bool jumped = false;

	if (rnd_pct(&rng, 75))
		len = 2 + rnd_below(&rng, 30);
	else if (rnd_pct(&rng, 80))
		len = 32 + rnd_below(&rng, 200);
	else
		len = 232 + rnd_below(&rng, MAXLEN - 232);
	for (i = 0; i + 1 < len; i++) {
		struct sock_filter *f = &p->insns[i];
		unsigned int left = len - i - 2, c = rnd_below(&rng, 100);

		*f = (struct sock_filter){ 0 };
		/* most real filters start with a load of nr or arch */
		if (i == 0 && rnd_pct(&rng, 70))
			c = 0;
		if (c < 30) {
			f->code = BPF_LD | BPF_W | BPF_ABS;
			f->k = 4 * rnd_below(&rng, 16);
		} else if (c < 55) {
			jumped = true;
			f->code = BPF_JMP | jmp_ops[rnd_below(&rng, 4)] | (rnd_pct(&rng, 25) ? BPF_X : BPF_K);
			f->jt = (uint8_t)rnd_below(&rng, left < 255 ? left + 1 : 256);
			f->jf = (uint8_t)rnd_below(&rng, left < 255 ? left + 1 : 256);
			f->k = some_k();
		} else if (c < 60) {
			jumped = true;
			f->code = BPF_JMP | BPF_JA;
			f->k = rnd_below(&rng, left + 1);
		} else if (c < 75) {
			if (rnd_pct(&rng, 5)) {
				f->code = BPF_ALU | BPF_NEG;
			} else {
				f->code = BPF_ALU | alu_ops[rnd_below(&rng, 9)] | (rnd_pct(&rng, 30) ? BPF_X : BPF_K);
				f->k = some_k();
				if (BPF_OP(f->code) == BPF_LSH || BPF_OP(f->code) == BPF_RSH)
					f->k &= 31;
				if (BPF_OP(f->code) == BPF_DIV && !f->k)
					f->k = 3;
			}
		} else if (c < 80) {
			f->code = (rnd_pct(&rng, 50) ? BPF_LD : BPF_LDX) | BPF_IMM;
			f->k = some_k();
		} else if (c < 83) {
			f->code = (rnd_pct(&rng, 50) ? BPF_LD : BPF_LDX) | BPF_W | BPF_LEN;
		} else if (c < 89) {
			f->code = BPF_MISC | (rnd_pct(&rng, 50) ? BPF_TAX : BPF_TXA);
		} else if (c < 98) {
			/* stores, and loads of slots stored on every path before */
			f->k = rnd_below(&rng, 16);
			if (!(stored & (1u << f->k)) || rnd_pct(&rng, 40)) {
				f->code = rnd_pct(&rng, 50) ? BPF_ST : BPF_STX;
				/* a store before the first jump is on every path */
				if (!jumped)
					stored |= 1u << f->k;
			} else {
				f->code = (rnd_pct(&rng, 50) ? BPF_LD : BPF_LDX) | BPF_MEM;
			}
		} else {
			f->code = BPF_RET | (rnd_pct(&rng, 50) ? BPF_K : BPF_A);
			f->k = some_ret();
		}
	}
	/* returning A makes more results depend on the data */
	p->insns[len - 1] = (struct sock_filter){ .code = BPF_RET | (rnd_pct(&rng, 30) ? BPF_K : BPF_A),
						  .k = some_ret() };
	p->len = len;
	if (len >= 12 && rnd_pct(&rng, 25))
		gen_allow_list(p, 1 + rnd_below(&rng, len - 11));
	/*
	 * One program in 20 gets one insn seccomp or bpf_check_classic()
	 * refuses (misaligned or past the end, a shift of 32 or more, a
	 * division by 0), so that refusals are compared too; the others are
	 * valid whatever their length.
	 */
	if (len >= 2 && rnd_pct(&rng, 5)) {
		struct sock_filter *f = &p->insns[rnd_below(&rng, len - 1)];

		switch (rnd_below(&rng, 3)) {
		case 0:
			*f = (struct sock_filter){ .code = BPF_LD | BPF_W | BPF_ABS,
						   .k = 64 + rnd_below(&rng, 16) };
			if (rnd_pct(&rng, 50))
				f->k = 1 + 4 * rnd_below(&rng, 15) + rnd_below(&rng, 3);
			break;
		case 1:
			*f = (struct sock_filter){ .code = BPF_ALU | BPF_LSH | BPF_K,
						   .k = 32 + rnd_below(&rng, 32) };
			break;
		default:
			*f = (struct sock_filter){ .code = BPF_ALU | BPF_DIV | BPF_K };
			break;
		}
	}
	for (i = 0; i < NDATA; i++) {
		struct seccomp_data *d = &p->data[i];
		unsigned int a;

		d->nr = rnd_pct(&rng, 70) ? (int)some_k() : (int)rnd_below(&rng, 460);
		d->arch = rnd_pct(&rng, 80) ? AUDIT_ARCH_X86_64 : rnd_pct(&rng, 50) ? AUDIT_ARCH_I386 : (uint32_t)rnd64(&rng);
		d->instruction_pointer = rnd64(&rng);
		for (a = 0; a < 6; a++)
			d->args[a] = rnd_pct(&rng, 40) ? some_k() : rnd_pct(&rng, 20) ? (uint64_t)some_k() << 32 | some_k()
								 : rnd64(&rng);
	}
}

static int run_fd = -1;
static uint8_t req[sizeof(struct cbpf_jit_test_seccomp_req) + sizeof(struct sock_filter) * MAXLEN +
		   sizeof(struct seccomp_data) * NDATA];

static int run(const struct prog *p, struct outcome *o)
{
	struct cbpf_jit_test_seccomp_req *h = (void *)req;
	size_t pl = p->len * sizeof(struct sock_filter), n;
	struct {
		struct cbpf_jit_test_seccomp_result r;
		struct cbpf_jit_test_run run[NDATA];
	} res;
	ssize_t got;
	int i;

	/* One run of each seccomp_data: the results, not their timing. */
	*h = (struct cbpf_jit_test_seccomp_req){ CBPF_JIT_TEST_SECCOMP_MAGIC, p->len, NDATA, 1 };
	memcpy(req + sizeof(*h), p->insns, pl);
	memcpy(req + sizeof(*h) + pl, p->data, sizeof(p->data));
	n = sizeof(*h) + pl + sizeof(p->data);
	if (write(run_fd, req, n) != (ssize_t)n)
		return -1;
	got = read(run_fd, &res, sizeof(res));
	/* a refused program has no runs */
	if (got != (ssize_t)(res.r.create_err ? sizeof(res.r) : sizeof(res)))
		return -1;
	o->create_err = res.r.create_err;
	o->flags = res.r.flags;
	memset(o->ret, 0, sizeof(o->ret));
	for (i = 0; !o->create_err && i < NDATA; i++)
		o->ret[i] = res.run[i].ret;
	return 0;
}

static void dump(const struct prog *p, const struct outcome *on, const struct outcome *off)
{
	unsigned int i;

	fprintf(stderr, "# mismatch: switch on: create %d, switch off: create %d\n",
		on->create_err, off->create_err);
	for (i = 0; i < p->len; i++)
		fprintf(stderr, "{ 0x%x, %u, %u, 0x%08x },\n", p->insns[i].code, p->insns[i].jt,
			p->insns[i].jf, p->insns[i].k);
	for (i = 0; i < NDATA; i++)
		fprintf(stderr, "# data %u: nr %d arch %#x ip %#llx args %#llx %#llx ...: on %#x off %#x\n",
			i, p->data[i].nr, p->data[i].arch,
			(unsigned long long)p->data[i].instruction_pointer,
			(unsigned long long)p->data[i].args[0], (unsigned long long)p->data[i].args[1],
			on->ret[i], off->ret[i]);
}

struct totals {
	unsigned long programs, created, refused, mismatches, not_direct, direct_off;
	unsigned long varied;	/* built programs whose result depends on the data */
	unsigned long long_progs, long_created;	/* of 232+ insns, and built */
};

static struct prog batch[BATCH];
static struct outcome res_on[BATCH], res_off[BATCH];

/* count programs at bpf_jit_harden = harden; -1: setup error */
static int campaign(unsigned long count, const char *harden, struct totals *t)
{
	unsigned long done = 0;
	unsigned int i, n;

	if (sysctl_write("bpf_jit_harden", harden))
		return -1;
	while (done < count) {
		n = count - done < BATCH ? (unsigned int)(count - done) : BATCH;
		for (i = 0; i < n; i++)
			gen(&batch[i]);
		if (sysctl_write("bpf_jit_classic", "1"))
			return -1;
		for (i = 0; i < n; i++)
			if (run(&batch[i], &res_on[i]))
				return -1;
		if (sysctl_write("bpf_jit_classic", "0"))
			return -1;
		for (i = 0; i < n; i++)
			if (run(&batch[i], &res_off[i]))
				return -1;
		for (i = 0; i < n; i++) {
			const struct outcome *a = &res_on[i], *b = &res_off[i];
			int same = a->create_err == b->create_err &&
				   (a->create_err || !memcmp(a->ret, b->ret, sizeof(a->ret)));

			if (batch[i].len >= 232) {
				t->long_progs++;
				t->long_created += !a->create_err;
			}
			if (!a->create_err) {
				t->created++;
				t->varied += !!memcmp(a->ret, a->ret + 1, sizeof(a->ret) - sizeof(a->ret[0]));
			} else {
				t->refused++;
			}
			if (!same && t->mismatches++ < 3)
				dump(&batch[i], a, b);
			if (!a->create_err && !(a->flags & CBPF_JIT_TEST_IMAGE_DIRECT))
				t->not_direct++;
			if (!b->create_err && (b->flags & CBPF_JIT_TEST_IMAGE_DIRECT))
				t->direct_off++;
		}
		done += n;
		t->programs += n;
	}
	return 0;
}

static char saved_switch[32], saved_harden[32];

static void restore(void)
{
	if (saved_switch[0])
		sysctl_write("bpf_jit_classic", saved_switch);
	if (saved_harden[0])
		sysctl_write("bpf_jit_harden", saved_harden);
}

static void report(const char *what, const struct totals *t, unsigned long floor, double secs)
{
	char name[128];

	snprintf(name, sizeof(name), "seccomp fuzz%s: results equal, switch on and off", what);
	record(name, !t->mismatches && t->programs >= floor,
	       "%lu programs x %d seccomp_data (floor %lu), %lu built (%lu with results that "
	       "depend on the data), %lu refused in both modes, %lu mismatches, %.0f s "
	       "(%.0f programs/s), seed %#llx",
	       t->programs, NDATA, floor, t->created, t->varied, t->refused, t->mismatches, secs,
	       secs > 0 ? t->programs / secs : 0, (unsigned long long)seed);
	snprintf(name, sizeof(name), "seccomp fuzz%s: every program built compiled by the direct JIT "
		 "with the switch on, none with it off", what);
	record(name, t->created > 0 && !t->not_direct && !t->direct_off,
	       "%lu built: %lu not direct with the switch on, %lu direct with it off",
	       t->created, t->not_direct, t->direct_off);
	/* depth: what the programs decide, and that long ones get built */
	snprintf(name, sizeof(name), "seccomp fuzz%s: built programs whose result depends on the data",
		 what);
	record(name, t->created && t->varied * 2 >= t->created,
	       "%lu of %lu (floor 50%%)", t->varied, t->created);
	snprintf(name, sizeof(name), "seccomp fuzz%s: programs of 232+ insns built", what);
	record(name, t->long_progs && t->long_created * 10 >= t->long_progs * 9,
	       "%lu of %lu (floor 90%%; one program in 20 carries an insn seccomp refuses)",
	       t->long_created, t->long_progs);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "programs", required_argument, NULL, 'n' },
		{ "blinded", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long programs = 20000, blinded = 2000;
	struct totals plain = { 0 }, hard = { 0 };
	struct timespec t0, t1, t2;
	int c;

	seed = (uint64_t)time(NULL);
	while ((c = getopt_long(argc, argv, "n:b:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			programs = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			blinded = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--programs N] [--blinded N] [--seed S]\n", argv[0]);
			return 2;
		}
	}
	rng.s = seed;
	run_fd = open(CBPF_JIT_TEST_RUN_FILE, O_RDWR);
	if (run_fd < 0 || sysctl_read("bpf_jit_classic", saved_switch, sizeof(saved_switch)) ||
	    sysctl_read("bpf_jit_harden", saved_harden, sizeof(saved_harden))) {
		record("seccomp fuzz: test_cbpf_jit and the switch present", 0, "%s: %s",
		       run_fd < 0 ? CBPF_JIT_TEST_RUN_FILE : "net.core.bpf_jit_classic",
		       strerror(errno));
		return 2;
	}
	atexit(restore);
	fprintf(stderr, "cbpf-seccomp-fuzz: seed %#llx, %lu programs, %lu blinded\n",
		(unsigned long long)seed, programs, blinded);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (campaign(programs, "0", &plain)) {
		record("seccomp fuzz: requests", 0, "%s", strerror(errno));
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (campaign(blinded, "2", &hard)) {
		record("seccomp fuzz: requests", 0, "%s", strerror(errno));
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t2);
	report("", &plain, programs,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	report(", blinded (bpf_jit_harden=2)", &hard, blinded,
	       (t2.tv_sec - t1.tv_sec) + (t2.tv_nsec - t1.tv_nsec) / 1e9);
	return failures ? 1 : 0;
}
