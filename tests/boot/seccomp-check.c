// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp-check: seccomp filters under the direct classic BPF JIT.
 *
 * Usage (as root, in the appliance or on any x86-64 Linux):
 *   seccomp-check [-v]
 *
 * Every test of the table below installs one or more seccomp filters in a
 * forked child, makes a few system calls there and reports what happened to
 * each (returned, failed with errno N, trapped by SIGSYS with data D, killed
 * by SIGSYS).  The whole table runs with net.core.bpf_jit_classic = 1, then
 * = 1 with net.core.bpf_jit_harden = 2 (constants blinded), then = 0 (the
 * upstream conversion to eBPF); the sysctls are restored afterwards.  A test
 * passes when every mode gives the outcome written in the table.  Where the
 * sysctl does not exist (a stock kernel) the table runs once, in the
 * kernel's own mode, and the mode comparison is reported as skipped.
 *
 * With /proc/sys/net/core/bpf_jit_classic_stats, the test also checks who
 * compiled each filter: the direct JIT compiles seccomp's filters too,
 * including the struct seccomp_data loads (LD|W|ABS, which seccomp
 * rewrites into its own opcode, LDX|W|ABS), so with the JIT on (blinded or
 * not) "compiled" must grow by at least the number of filters each test
 * installs; with the JIT off it must not grow at all.
 *
 * Output: one record per test, then summary records, on standard output as
 * "name<TAB>pass|fail<TAB>detail".  Exit status 0 when all passed, else 1.
 * -v also prints each mode's outcome on standard error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* The environment can point these elsewhere, only to exercise the code
 * paths on a kernel without them (CBPFJIT_SWITCH, _HARDEN, _STATS). */
static const char *SWITCH = "/proc/sys/net/core/bpf_jit_classic";
static const char *HARDEN = "/proc/sys/net/core/bpf_jit_harden";
static const char *STATS = "/proc/sys/net/core/bpf_jit_classic_stats";

#define NR offsetof(struct seccomp_data, nr)
#define ARCH offsetof(struct seccomp_data, arch)
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HI(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)

#define LD(k) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (k))
#define RET(k) BPF_STMT(BPF_RET | BPF_K, (k))
#define JEQ(k, t, f) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define ALLOW RET(SECCOMP_RET_ALLOW)
#define ERRNO(e) (SECCOMP_RET_ERRNO | (e))
#define TRAP(d) (SECCOMP_RET_TRAP | (d))
/* "if nr == n then ret r else allow" */
#define ON_NR(n, r) LD(NR), JEQ((n), 0, 1), RET(r), ALLOW
/* "if nr != n then allow", then the rest of the filter */
#define GUARD(n) LD(NR), JEQ((n), 1, 0), ALLOW

#define MAXF 4
#define MAXC 6
#define MAXI 32

struct call {
	long nr;
	unsigned long a[6];
	int int80;		/* use the i386 entry (int $0x80) */
};

struct test {
	const char *name;
	int nfilters;
	struct { int len; struct sock_filter f[MAXI]; } filter[MAXF];
	int ncalls;
	struct call call[MAXC];
	const char *expect;	/* outcomes, comma-separated */
	int needs_ia32;
};

#define F(...) { sizeof((struct sock_filter[]){ __VA_ARGS__ }) / sizeof(struct sock_filter), { __VA_ARGS__ } }
#define C(n, ...) { (n), { __VA_ARGS__ }, 0 }

static const struct test tests[] = {
	{ "allow all", 1, { F(ALLOW) }, 2,
	  { C(__NR_getpid), C(__NR_getppid) }, "ok,ok", 0 },
	{ "kill process on getppid", 1, { F(ON_NR(__NR_getppid, SECCOMP_RET_KILL_PROCESS)) }, 2,
	  { C(__NR_getpid), C(__NR_getppid) }, "ok,SIGSYS", 0 },
	{ "kill thread on getppid", 1, { F(ON_NR(__NR_getppid, SECCOMP_RET_KILL_THREAD)) }, 2,
	  { C(__NR_getpid), C(__NR_getppid) }, "ok,SIGSYS", 0 },
	{ "ERRNO(EPERM) on getppid", 1, { F(ON_NR(__NR_getppid, ERRNO(EPERM))) }, 3,
	  { C(__NR_getppid), C(__NR_getpid), C(__NR_getppid) }, "errno 1,ok,errno 1", 0 },
	{ "ERRNO(4095) on uname", 1, { F(ON_NR(__NR_uname, ERRNO(4095))) }, 2,
	  { C(__NR_uname, 0), C(__NR_getpid) }, "errno 4095,ok", 0 },
	{ "TRAP on getppid, SIGSYS handler", 1, { F(ON_NR(__NR_getppid, TRAP(0x1234))) }, 3,
	  { C(__NR_getppid), C(__NR_getpid), C(__NR_getppid, 7) }, "trap 110/0x1234,ok,trap 110/0x1234", 0 },
	{ "TRACE without a tracer", 1, { F(ON_NR(__NR_getppid, SECCOMP_RET_TRACE | 5)) }, 1,
	  { C(__NR_getppid) }, "errno 38", 0 },
	{ "LOG is allowed", 1, { F(ON_NR(__NR_getppid, SECCOMP_RET_LOG)) }, 1,
	  { C(__NR_getppid) }, "ok", 0 },
	{ "ioctl TCGETS only", 1, { F(
		GUARD(__NR_ioctl),
		LD(ARG_LO(1)), JEQ(TCGETS, 0, 1), RET(ERRNO(EPERM)),
		ALLOW) }, 3,
	  { C(__NR_ioctl, (unsigned long)-1, TCGETS, 0), C(__NR_ioctl, (unsigned long)-1, FIONREAD, 0),
	    C(__NR_ioctl, (unsigned long)-1, TCGETS | 0x100000000ul, 0) },
	  "errno 1,errno 9,errno 1", 0 },
	{ "64-bit argument: upper and lower halves", 1, { F(
		GUARD(__NR_getpid),
		LD(ARG_LO(0)), JEQ(2, 0, 3),
		LD(ARG_HI(0)), JEQ(1, 0, 1), RET(ERRNO(E2BIG)),
		ALLOW) }, 4,
	  { C(__NR_getpid, 0x100000002ul), C(__NR_getpid, 2), C(__NR_getpid, 0x100000003ul),
	    C(__NR_getpid, 0x200000002ul) },
	  "errno 7,ok,ok,ok", 0 },
	{ "argument compares: jgt, jge, jset", 1, { F(
		GUARD(__NR_getpid),
		LD(ARG_LO(2)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 1000, 0, 1), RET(ERRNO(11)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 500, 0, 1), RET(ERRNO(12)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x80, 0, 1), RET(TRAP(0x80)),
		ALLOW) }, 5,
	  { C(__NR_getpid, 0, 0, 0xffffffff), C(__NR_getpid, 0, 0, 1000), C(__NR_getpid, 0, 0, 500),
	    C(__NR_getpid, 0, 0, 0x80), C(__NR_getpid, 0, 0, 0x17f) },
	  "errno 11,errno 12,errno 12,trap 39/0x80,ok", 0 },
	{ "argument compares against X", 1, { F(
		GUARD(__NR_getpid),
		LD(ARG_LO(1)), BPF_STMT(BPF_MISC | BPF_TAX, 0),
		LD(ARG_LO(0)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 1), RET(ERRNO(21)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1), RET(ERRNO(22)),
		ALLOW) }, 3,
	  { C(__NR_getpid, 5, 4), C(__NR_getpid, 4, 4), C(__NR_getpid, 3, 4) },
	  "errno 21,errno 22,ok", 0 },
	{ "ALU on arguments, RET A", 1, { F(
		GUARD(__NR_getpid),
		LD(ARG_LO(0)),
		BPF_STMT(BPF_ALU | BPF_MUL | BPF_K, 3),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 7),
		BPF_STMT(BPF_ALU | BPF_SUB | BPF_K, 1),
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 2),
		BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 4),
		BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 2),
		BPF_STMT(BPF_ALU | BPF_XOR | BPF_K, 0x5),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, 0x100),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x1ff),
		BPF_STMT(BPF_ALU | BPF_NEG, 0),
		BPF_STMT(BPF_ALU | BPF_NEG, 0),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0)) }, 2,
	  /* ((((5*3+7-1)/2) << 4) >> 2 ^ 5 | 0x100) & 0x1ff = 0x12d = 301 */
	  { C(__NR_getpid, 5), C(__NR_getpid, 0x10000005ul) },
	  "errno 301,errno 301", 0 },
	{ "ALU with X, scratch memory", 1, { F(
		GUARD(__NR_getpid),
		LD(ARG_LO(0)), BPF_STMT(BPF_ST, 3),
		LD(ARG_LO(1)), BPF_STMT(BPF_MISC | BPF_TAX, 0), BPF_STMT(BPF_STX, 9),
		BPF_STMT(BPF_LD | BPF_MEM, 3),
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		BPF_STMT(BPF_LDX | BPF_MEM, 9),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_LSH | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_SUB | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_XOR | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 40),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0)) }, 2,
	  /* a0 = 100, a1 = 3: (((100 / 3) + 3) << 3) - 3) ^ 3 + 40 = 326;
	     a0 = 7, a1 = 0: 7 / 0 makes the filter return 0: killed */
	  { C(__NR_getpid, 100, 3), C(__NR_getpid, 7, 0) },
	  "errno 326,SIGSYS", 0 },
	{ "DIV by X == 0 returns 0 (kill)", 1, { F(
		GUARD(__NR_getppid),
		LD(ARG_LO(0)), BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_IMM, 100),
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		RET(ERRNO(33))) }, 2,
	  { C(__NR_getppid, 4), C(__NR_getppid, 0) }, "errno 33,SIGSYS", 0 },
	{ "A and X start at 0", 1, { F(
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 5),
		BPF_STMT(BPF_MISC | BPF_TXA, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		LD(NR), JEQ(__NR_getppid, 0, 2), RET(ERRNO(44)),
		RET(SECCOMP_RET_KILL_PROCESS),
		ALLOW) }, 2,
	  { C(__NR_getppid), C(__NR_getpid) }, "errno 44,ok", 0 },
	{ "LD|W|LEN and LDX|W|LEN (no packet loads)", 1, { F(
		BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		BPF_STMT(BPF_LDX | BPF_W | BPF_LEN, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sizeof(struct seccomp_data), 1, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0)) }, 1,
	  { C(__NR_getpid) }, "errno 65", 0 },
	{ "no loads at all: errno by arithmetic", 1, { F(
		BPF_STMT(BPF_LD | BPF_IMM, 3),
		BPF_STMT(BPF_LDX | BPF_IMM, 5),
		BPF_STMT(BPF_ALU | BPF_MUL | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_SUB | BPF_K, 1),
		BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_X, 0, 1, 0),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 100),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0)) }, 1,
	  /* 3 * 5 - 1 = 14; 14 & 5 != 0: no +100 */
	  { C(__NR_getppid) }, "errno 14", 0 },
	{ "arch check: x86-64 allowed, anything else killed", 1, { F(
		LD(ARCH), JEQ(AUDIT_ARCH_X86_64, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		ON_NR(__NR_getppid, ERRNO(55))) }, 2,
	  { C(__NR_getpid), C(__NR_getppid) }, "ok,errno 55", 0 },
	{ "arch check: i386 entry (int $0x80)", 1, { F(
		LD(ARCH), JEQ(AUDIT_ARCH_I386, 0, 1), RET(ERRNO(66)),
		ALLOW) }, 2,
	  { C(__NR_getpid), { 20 /* i386 getpid */, { 0 }, 1 } }, "ok,errno 66", 1 },
	{ "stack: the most recent of equal actions wins", 2, {
		F(ON_NR(__NR_getppid, ERRNO(5))),
		F(ON_NR(__NR_getppid, ERRNO(6))) }, 2,
	  { C(__NR_getppid), C(__NR_getpid) }, "errno 6,ok", 0 },
	{ "stack: the strictest action wins", 4, {
		F(ALLOW),
		F(ON_NR(__NR_getppid, TRAP(9))),
		F(ON_NR(__NR_getppid, ERRNO(8))),
		F(LD(NR), JEQ(__NR_uname, 0, 1), RET(ERRNO(10)), LD(ARG_LO(0)), JEQ(77, 0, 1),
		  RET(SECCOMP_RET_KILL_PROCESS), ALLOW) }, 4,
	  { C(__NR_getppid), C(__NR_uname, 0), C(__NR_getpid), C(__NR_getpid, 77) },
	  "trap 110/0x9,errno 10,ok,SIGSYS", 0 },
	{ "long filter: 250 compares", 1, { F(ALLOW) }, 3,
	  { C(__NR_getpid, 0), C(__NR_getpid, 249), C(__NR_getpid, 250) }, "errno 1,errno 249,ok", 0 },
};

#define NTESTS (sizeof(tests) / sizeof(tests[0]))

static int verbose;

/* The long filter is built at run time: a0 == i -> ERRNO(i ? i : 1). */
static struct sock_filter longf[4 + 2 * 250 + 1];

static const struct sock_filter *filter_of(const struct test *t, int k, int *len)
{
	if (!strcmp(t->name, "long filter: 250 compares")) {
		int n = 0;

		longf[n++] = (struct sock_filter)LD(NR);
		longf[n++] = (struct sock_filter)JEQ(__NR_getpid, 1, 0);
		longf[n++] = (struct sock_filter)ALLOW;
		longf[n++] = (struct sock_filter)LD(ARG_LO(0));
		for (int i = 0; i < 250; i++) {
			longf[n++] = (struct sock_filter)JEQ((unsigned)i, 0, 1);
			longf[n++] = (struct sock_filter)RET(ERRNO(i ? i : 1));
		}
		longf[n++] = (struct sock_filter)ALLOW;
		*len = n;
		return longf;
	}
	*len = t->filter[k].len;
	return t->filter[k].f;
}

static int has_ld_abs(const struct sock_filter *f, int len)
{
	for (int i = 0; i < len; i++)
		if (f[i].code == (BPF_LD | BPF_W | BPF_ABS))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ the child */

static volatile sig_atomic_t trapped, trap_nr, trap_data, trap_arch_ok;

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	trapped = 1;
	trap_nr = si->si_syscall;
	trap_data = si->si_errno;
	trap_arch_ok = si->si_arch == AUDIT_ARCH_X86_64;
}

static long call_int80(long nr)
{
	long ret;

	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr) : "memory");
	return ret;
}

/*
 * The child reports through shared memory, without system calls, so that a
 * filter may fail or kill every system call (write and exit_group too):
 * once `done` is set, however the child ends does not matter.  The parent
 * adds the signal that killed the child before that.
 */
struct report {
	volatile int done;
	char out[512];
};

static void child(const struct test *t, struct report *rep)
{
	struct sigaction sa = { 0 };
	struct rlimit rl = { 0, 0 };
	char *out = rep->out;
	size_t n = 0;

	setrlimit(RLIMIT_CORE, &rl);
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(100);
	for (int k = 0; k < t->nfilters; k++) {
		struct sock_fprog prog;
		int len;

		prog.filter = (struct sock_filter *)filter_of(t, k, &len);
		prog.len = (unsigned short)len;
		if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
			snprintf(out, sizeof(rep->out), "install %d: errno %d", k + 1, errno);
			rep->done = 1;
			_exit(0);
		}
	}
	for (int c = 0; c < t->ncalls; c++) {
		const struct call *cl = &t->call[c];
		long r;
		int e;

		trapped = 0;
		errno = 0;
		if (cl->int80) {
			r = call_int80(cl->nr);
			e = r < 0 && r > -4096 ? (int)-r : 0;
			if (e)
				r = -1;
		} else {
			r = syscall(cl->nr, cl->a[0], cl->a[1], cl->a[2], cl->a[3], cl->a[4], cl->a[5]);
			e = r == -1 ? errno : 0;
		}
		if (trapped)
			n += (size_t)snprintf(out + n, sizeof(rep->out) - n, "%strap %d/0x%x%s", c ? "," : "",
					      (int)trap_nr, (unsigned)trap_data, trap_arch_ok ? "" : "(arch?)");
		else if (r == -1)
			n += (size_t)snprintf(out + n, sizeof(rep->out) - n, "%serrno %d", c ? "," : "", e);
		else
			n += (size_t)snprintf(out + n, sizeof(rep->out) - n, "%sok", c ? "," : "");
	}
	rep->done = 1;
	_exit(0);	/* may fail under the filter: then glibc faults, which is fine */
}

/* Runs one test; writes its outcome into `res`. */
static void run_test(const struct test *t, char *res, size_t len)
{
	static struct report *rep;
	size_t n;
	pid_t pid;
	int st;

	if (!rep) {
		rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (rep == MAP_FAILED) {
			rep = NULL;
			snprintf(res, len, "mmap: errno %d", errno);
			return;
		}
	}
	memset(rep, 0, sizeof(*rep));
	pid = fork();
	if (pid < 0) {
		snprintf(res, len, "fork: errno %d", errno);
		return;
	}
	if (pid == 0)
		child(t, rep);
	waitpid(pid, &st, 0);
	snprintf(res, len, "%s", rep->out);
	n = strlen(res);
	if (rep->done)
		return;
	if (WIFSIGNALED(st))
		snprintf(res + n, len - n, "%s%s", n ? "," : "",
			 WTERMSIG(st) == SIGSYS ? "SIGSYS" : strsignal(WTERMSIG(st)));
	else
		snprintf(res + n, len - n, "%sexit %d", n ? "," : "", WEXITSTATUS(st));
}

/* ------------------------------------------------------------ sysctls */

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fprintf(f, "%d\n", v) < 0;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

static long long stat_of(const char *key)
{
	char k[64];
	long long v, r = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

static int saved_switch = -1, saved_harden = -1;

static void restore(void)
{
	if (saved_switch >= 0)
		write_int(SWITCH, saved_switch);
	if (saved_harden >= 0)
		write_int(HARDEN, saved_harden);
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ------------------------------------------------------------ main */

struct mode {
	const char *name;
	int jit, harden;	/* -1: leave as it is */
};

#define NMODES 3

int main(int argc, char **argv)
{
	static const struct mode modes[NMODES] = {
		{ "JIT on", 1, -1 }, { "JIT on, blinded", 1, 2 }, { "JIT off", 0, -1 },
	};
	static char out[NMODES][NTESTS][512];
	static char why[NTESTS][1024];
	int nmodes, have_switch, have_stats, ia32, failed = 0;
	long long compiled_off = 0, mode_compiled[NMODES] = { 0 };
	long long filters_total = 0, ld_abs_total = 0;
	int attrib_bad = 0;
	int st;
	pid_t pid;

	verbose = argc > 1 && !strcmp(argv[1], "-v");
	if (getenv("CBPFJIT_SWITCH"))
		SWITCH = getenv("CBPFJIT_SWITCH");
	if (getenv("CBPFJIT_HARDEN"))
		HARDEN = getenv("CBPFJIT_HARDEN");
	if (getenv("CBPFJIT_STATS"))
		STATS = getenv("CBPFJIT_STATS");
	have_switch = read_int(SWITCH, &saved_switch) == 0;
	if (!have_switch)
		saved_switch = -1;
	if (read_int(HARDEN, &saved_harden))
		saved_harden = -1;
	have_stats = stat_of("compiled") >= 0;
	nmodes = have_switch ? NMODES : 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	atexit(restore);

	/* Does this kernel run i386 system calls (IA32 emulation)? */
	pid = fork();
	if (pid == 0)
		_exit(call_int80(20) == getpid() ? 0 : 1);
	waitpid(pid, &st, 0);
	ia32 = WIFEXITED(st) && WEXITSTATUS(st) == 0;

	for (int m = 0; m < nmodes; m++) {
		if (have_switch && (write_int(SWITCH, modes[m].jit) ||
				    (modes[m].harden >= 0 && write_int(HARDEN, modes[m].harden)))) {
			printf("seccomp: set %s\tfail\tcannot write the sysctls\n", modes[m].name);
			return 1;
		}
		for (size_t i = 0; i < NTESTS; i++) {
			const struct test *t = &tests[i];
			long long c0 = stat_of("compiled"), d0 = stat_of("declined_opcode"), c1, d1;
			int ld_abs = 0, len;

			if (t->needs_ia32 && !ia32)
				continue;
			run_test(t, out[m][i], sizeof(out[m][i]));
			if (verbose)
				fprintf(stderr, "[%s] %s: %s\n", have_switch ? modes[m].name : "kernel default",
					t->name, out[m][i]);
			for (int k = 0; k < t->nfilters; k++) {
				const struct sock_filter *f = filter_of(t, k, &len);

				ld_abs += has_ld_abs(f, len);
			}
			if (!have_stats || !have_switch)
				continue;
			c1 = stat_of("compiled");
			d1 = stat_of("declined_opcode");
			mode_compiled[m] += c1 - c0;
			if (m == 0) {
				filters_total += t->nfilters;
				ld_abs_total += ld_abs;
			}
			if (modes[m].jit == 1 && c1 - c0 < t->nfilters) {
				size_t w = strlen(why[i]);

				attrib_bad++;
				snprintf(why[i] + w, sizeof(why[i]) - w,
					 "%s: %lld compiled, %lld declined (opcode) for %d filters (%d with seccomp_data loads); ",
					 modes[m].name, c1 - c0, d1 - d0, t->nfilters, ld_abs);
			}
			if (modes[m].jit == 0)
				compiled_off += c1 - c0;
		}
		if (have_switch)
			write_int(SWITCH, saved_switch);
		if (saved_harden >= 0)
			write_int(HARDEN, saved_harden);
	}
	restore();

	for (size_t i = 0; i < NTESTS; i++) {
		const struct test *t = &tests[i];
		size_t w = strlen(why[i]);

		if (t->needs_ia32 && !ia32) {
			printf("%s\tpass\tskipped: this kernel does not run i386 system calls\n", t->name);
			continue;
		}
		for (int m = 0; m < nmodes; m++)
			if (strcmp(out[m][i], t->expect))
				snprintf(why[i] + strlen(why[i]), sizeof(why[i]) - strlen(why[i]),
					 "%s: %s; ", have_switch ? modes[m].name : "kernel default", out[m][i]);
		if (why[i][0]) {
			failed++;
			w = strlen(why[i]);
			if (w >= 2)
				why[i][w - 2] = 0;
			printf("%s\tfail\texpected %s; %s\n", t->name, t->expect, why[i]);
		} else {
			printf("%s\tpass\t%s (%s)\n", t->name, t->expect,
			       have_switch ? "JIT on, on blinded and off alike" : "kernel default mode only");
		}
	}
	if (!have_switch)
		printf("seccomp: direct JIT on vs off\tpass\tskipped: no net.core.bpf_jit_classic on this kernel\n");
	if (!have_stats) {
		printf("seccomp: JIT attribution\tpass\tno direct JIT counters on this kernel\n");
	} else if (have_switch) {
		/* Every filter, with seccomp_data loads or without, compiled
		 * directly, blinded or not. */
		if (!attrib_bad && mode_compiled[0] >= filters_total && ld_abs_total > 0) {
			printf("seccomp: JIT on compiled every filter\tpass\t%lld compiled for %lld filters "
			       "(%lld with seccomp_data loads), JIT on; %lld blinded; every test's filters\n",
			       mode_compiled[0], filters_total, ld_abs_total, mode_compiled[1]);
		} else {
			printf("seccomp: JIT on compiled every filter\tfail\t%lld compiled for %lld filters "
			       "(%lld with seccomp_data loads), JIT on; %d test runs fell short\n",
			       mode_compiled[0], filters_total, ld_abs_total, attrib_bad);
			failed++;
		}
		if (compiled_off == 0) {
			printf("seccomp: JIT off compiled nothing\tpass\t0 compiled\n");
		} else {
			printf("seccomp: JIT off compiled nothing\tfail\t%lld compiled\n", compiled_off);
			failed++;
		}
	}
	if (have_switch) {
		int now = -1;

		read_int(SWITCH, &now);
		if (now == saved_switch) {
			printf("seccomp: net.core.bpf_jit_classic restored\tpass\t%d\n", now);
		} else {
			printf("seccomp: net.core.bpf_jit_classic restored\tfail\t%d, was %d\n", now, saved_switch);
			failed++;
		}
	}
	return failed ? 1 : 0;
}
