// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp-profiles: real seccomp filters and the syscalls they see, for
 * `make bench` (tests/bench/README.bench.md).
 *
 *   seccomp-profiles [-v] GROUPS_FILE > OUT
 *
 * GROUPS_FILE: systemd's syscall groups, fully expanded, one "@group name"
 * a line (tests/bench/systemd-syscall-groups writes it). The filters are
 * built with libseccomp the way systemd 254, Docker (moby's default profile
 * through runc) and a hand-written sandbox build theirs, for SCMP_ARCH_X86_64
 * only, and exported as classic BPF. For each, OUT gets
 *
 *   profile NAME NINSNS code,jt,jf,k code,jt,jf,k ...
 *   sd NAME LABEL nr arch instruction_pointer a0 a1 a2 a3 a4 a5
 *   ...
 *
 * code and k in hex, jt and jf in decimal (as tcpdump -dd), the struct
 * seccomp_data fields in hex. The sd lines are the records of one fixed
 * syscall mix (mix[] below) that the kernel would run this filter for:
 * a record whose (nr, arch) the seccomp action cache of Linux 6.1 answers
 * never reaches the filter, so it is left out of that profile's mix.
 * stderr gets, per profile, its length and how many records are in and out.
 * -v also prints each record's verdict.
 *
 * Exits non-zero on any libseccomp error, on a malformed GROUPS_FILE, and
 * when a profile keeps fewer than 3 records.
 *
 * Build (libseccomp-dev 2.5.4):
 *   cc -std=gnu11 -O2 -Wall -Wextra -o seccomp-profiles seccomp-profiles.c -lseccomp
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 1U
#endif
/* x86_64's number, for a libseccomp that does not know the name */
#define NR_FCHMODAT2_X86_64 452

#define MIN_RECORDS 3

static bool verbose;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("seccomp-profiles: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

/* libseccomp returns -errno */
static void must(int rc, const char *what, const char *name)
{
	if (rc < 0)
		die("%s(%s): %s", what, name, strerror(-rc));
}

/* ---- GROUPS_FILE ---- */

struct group {
	char *name;
	char **sys;
	int n;
};

static struct group *groups;
static int ngroups;

static struct group *group_find(const char *name)
{
	for (int i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	return NULL;
}

static struct group *group_get(const char *name)
{
	struct group *g = group_find(name);

	if (g)
		return g;
	groups = xrealloc(groups, (ngroups + 1) * sizeof(*groups));
	g = &groups[ngroups++];
	g->name = strdup(name);
	g->sys = NULL;
	g->n = 0;
	if (!g->name)
		die("out of memory");
	return g;
}

static void read_groups(const char *path)
{
	char line[256], grp[128], sys[128], extra[2];
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct group *g;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			die("%s:%d: line too long", path, lineno);
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t")] == '\0')
			continue;
		if (sscanf(line, "%127s %127s %1s", grp, sys, extra) != 2 ||
		    grp[0] != '@' || sys[0] == '@')
			die("%s:%d: not \"@group syscall\": %s", path, lineno, line);
		g = group_get(grp);
		g->sys = xrealloc(g->sys, (g->n + 1) * sizeof(*g->sys));
		g->sys[g->n] = strdup(sys);
		if (!g->sys[g->n++])
			die("out of memory");
	}
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
}

static struct group *group_need(const char *name)
{
	struct group *g = group_find(name);

	if (!g)
		die("GROUPS_FILE has no %s (tests/bench/systemd-syscall-groups)", name);
	return g;
}

/* ---- building filters ---- */

struct prof {
	const char *name;
	scmp_filter_ctx ctx;
	int unknown;	/* names libseccomp does not know: skipped */
	int elsewhere;	/* names of syscalls x86_64 does not have: skipped */
};

/* The number libseccomp takes in rules: the native one, translated by it */
static int nr_of(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr == __NR_SCMP_ERROR)
		die("libseccomp does not know %s()", name);
	return nr;
}

/*
 * seccomp_init() with x86_64 as the only architecture: seccomp_init() adds
 * the native one, which is x86_64 where this runs; elsewhere it is swapped.
 */
static scmp_filter_ctx ctx_new(uint32_t def)
{
	scmp_filter_ctx ctx = seccomp_init(def);
	uint32_t native = seccomp_arch_native();

	if (!ctx)
		die("seccomp_init failed");
	if (native != SCMP_ARCH_X86_64) {
		must(seccomp_arch_add(ctx, SCMP_ARCH_X86_64), "seccomp_arch_add", "x86_64");
		must(seccomp_arch_remove(ctx, native), "seccomp_arch_remove", "native");
	}
	return ctx;
}

/*
 * systemd's seccomp_init_for_arch() (src/shared/seccomp-util.c): one
 * architecture, other architectures' syscalls allowed (they get their own
 * filter there), no NO_NEW_PRIVS fiddling.
 */
static scmp_filter_ctx sd_init_for_arch(uint32_t def)
{
	scmp_filter_ctx ctx = ctx_new(def);

	must(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW),
	     "seccomp_attr_set", "SCMP_FLTATR_ACT_BADARCH");
	must(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0),
	     "seccomp_attr_set", "SCMP_FLTATR_CTL_NNP");
	return ctx;
}

/*
 * One comparison of a syscall argument, as libseccomp's SCMP_A0()..SCMP_A5()
 * (64-bit) make them, with every field set: ARGM(n, mask, value) is
 * SCMP_An(SCMP_CMP_MASKED_EQ, mask, value).
 */
static struct scmp_arg_cmp cmp(unsigned int arg, enum scmp_compare op,
			       uint64_t a, uint64_t b)
{
	return (struct scmp_arg_cmp){ .arg = arg, .op = op, .datum_a = a, .datum_b = b };
}

#define ARG(n, op, v)		cmp(n, op, v, 0)
#define ARGM(n, mask, v)	cmp(n, SCMP_CMP_MASKED_EQ, mask, v)

/* seccomp_rule_add_exact() of NAME with N comparisons; returns its rc */
static int rule_try(scmp_filter_ctx ctx, uint32_t act, const char *name,
		    unsigned int n, const struct scmp_arg_cmp *c)
{
	return seccomp_rule_add_exact_array(ctx, act, nr_of(name), n, c);
}

static void rule0(scmp_filter_ctx ctx, uint32_t act, const char *name)
{
	must(rule_try(ctx, act, name, 0, NULL), "seccomp_rule_add_exact", name);
}

static void rule1(scmp_filter_ctx ctx, uint32_t act, const char *name,
		  struct scmp_arg_cmp a)
{
	must(rule_try(ctx, act, name, 1, &a), "seccomp_rule_add_exact", name);
}

static void rule2(scmp_filter_ctx ctx, uint32_t act, const char *name,
		  struct scmp_arg_cmp a, struct scmp_arg_cmp b)
{
	struct scmp_arg_cmp cmp[2] = { a, b };

	must(rule_try(ctx, act, name, 2, cmp), "seccomp_rule_add_exact", name);
}

/*
 * One unconditional rule per name, the way systemd adds a syscall set
 * (seccomp_load_syscall_filter_set_raw()) and runc a profile entry without
 * arguments (matchCall()): unknown names are skipped and counted, as are
 * syscalls x86_64 does not have (-EDOM from the exact add, which systemd
 * ignores; runc's plain seccomp_rule_add() accepts those).
 */
static void rule_name(struct prof *p, uint32_t act, const char *name, bool exact)
{
	int nr = seccomp_syscall_resolve_name(name);
	int rc;

	if (nr == __NR_SCMP_ERROR) {
		p->unknown++;
		return;
	}
	rc = exact ? seccomp_rule_add_exact(p->ctx, act, nr, 0) :
		     seccomp_rule_add(p->ctx, act, nr, 0);
	if (rc == -EDOM) {
		p->elsewhere++;
		return;
	}
	must(rc, exact ? "seccomp_rule_add_exact" : "seccomp_rule_add", name);
}

/*
 * The syscalls of systemd groups, each once (the unit's hashmap of syscall
 * numbers, SECCOMP_PARSE_* in seccomp_parse_syscall_filter()).
 */
struct nameset {
	const char **name;
	int n;
};

static void nameset_add_group(struct nameset *s, const struct group *g)
{
	for (int i = 0; i < g->n; i++) {
		int j;

		for (j = 0; j < s->n; j++)
			if (!strcmp(s->name[j], g->sys[i]))
				break;
		if (j < s->n)
			continue;
		s->name = xrealloc(s->name, (s->n + 1) * sizeof(*s->name));
		s->name[s->n++] = g->sys[i];
	}
}

/*
 * SystemCallFilter= with SystemCallErrorNumber=EPERM as systemd 254 builds
 * it: config_parse_syscall_filter() (src/core/load-fragment.c) fills the
 * unit's set, with @default first for an allow list; apply_syscall_filter()
 * (src/core/execute.c) picks the actions (allow list: default ERRNO(EPERM),
 * listed ALLOW; deny list: default ALLOW, listed ERRNO(EPERM));
 * seccomp_load_syscall_filter_set_raw() (src/shared/seccomp-util.c) builds
 * the filter: seccomp_init_for_arch(), seccomp_rule_add_exact(action, nr, 0)
 * per syscall, -EDOM ignored. 254 sets no SCMP_FLTATR_CTL_OPTIMIZE and keeps
 * the default action for syscalls outside @known: the binary tree and the
 * ENOSYS default came in later releases. systemd walks a hashmap, so its
 * rule order varies; libseccomp sorts the syscalls anyway.
 */
static void sd_syscall_filter(struct prof *p, const char *const *names,
			      bool allow_list)
{
	struct nameset set = { NULL, 0 };
	uint32_t def = allow_list ? SCMP_ACT_ERRNO(EPERM) : SCMP_ACT_ALLOW;
	uint32_t act = allow_list ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EPERM);
	int used = 0;

	if (allow_list)
		nameset_add_group(&set, group_need("@default"));
	for (; *names; names++) {
		const struct group *g = allow_list ? group_need(*names) :
						     group_find(*names);

		if (!g)
			continue;
		nameset_add_group(&set, g);
		used++;
	}
	if (!used)
		die("%s: none of its groups is in GROUPS_FILE", p->name);
	p->ctx = sd_init_for_arch(def);
	for (int i = 0; i < set.n; i++)
		rule_name(p, act, set.name[i], true);
	free(set.name);
}

static void prof_system_service(struct prof *p)
{
	static const char *const g[] = { "@system-service", NULL };

	sd_syscall_filter(p, g, true);
}

static void prof_default(struct prof *p)
{
	static const char *const g[] = { "@default", NULL };

	sd_syscall_filter(p, g, true);
}

static void prof_deny_list(struct prof *p)
{
	static const char *const g[] = {
		"@privileged", "@resources", "@obsolete", "@debug", "@mount",
		"@reboot", "@swap", "@cpu-emulation", "@raw-io", "@clock",
		"@module", NULL
	};

	sd_syscall_filter(p, g, false);
}

/*
 * RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6: systemd's
 * seccomp_restrict_address_families(), allow-list branch. Below the lowest
 * and above the highest listed family, and every unlisted family in
 * 1..af_max()-1, socket() fails with EAFNOSUPPORT. af_max() is the size of
 * systemd's table of AF_* names from <sys/socket.h>: AF_MAX.
 */
static void prof_address_families(struct prof *p)
{
	const uint32_t deny = SCMP_ACT_ERRNO(EAFNOSUPPORT);
	const int first = AF_UNIX, last = AF_INET6;

	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	rule1(p->ctx, deny, "socket", ARG(0, SCMP_CMP_LT, first));
	rule1(p->ctx, deny, "socket", ARG(0, SCMP_CMP_GT, last));
	for (int af = 1; af < AF_MAX; af++) {
		if (af == AF_UNIX || af == AF_INET || af == AF_INET6)
			continue;
		rule1(p->ctx, deny, "socket", ARG(0, SCMP_CMP_EQ, af));
	}
}

/*
 * RestrictNamespaces=yes: systemd's seccomp_restrict_namespaces() with
 * nothing retained. clone3() gets ENOSYS (its flags are out of reach, and
 * glibc then falls back to clone()), setns() EPERM whatever its arguments,
 * unshare() and clone() EPERM when a0 has any CLONE_NEW* flag of
 * namespace_info[] (254 has no time namespace in it).
 */
static void prof_namespaces(struct prof *p)
{
	static const unsigned long flag[] = {
		CLONE_NEWCGROUP, CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWNS,
		CLONE_NEWPID, CLONE_NEWUSER, CLONE_NEWUTS,
	};
	const uint32_t deny = SCMP_ACT_ERRNO(EPERM);

	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	rule0(p->ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3");
	rule0(p->ctx, deny, "setns");
	for (size_t i = 0; i < sizeof(flag) / sizeof(flag[0]); i++) {
		rule1(p->ctx, deny, "unshare", ARGM(0, flag[i], flag[i]));
		rule1(p->ctx, deny, "clone", ARGM(0, flag[i], flag[i]));
	}
}

/*
 * MemoryDenyWriteExecute=yes: systemd's seccomp_memory_deny_write_execute()
 * for x86_64 (mmap is the filtered call, shmat exists): no writable and
 * executable mapping, no mprotect()/pkey_mprotect() to executable, no
 * SHM_EXEC attach.
 */
static void prof_mdwe(struct prof *p)
{
	const uint32_t deny = SCMP_ACT_ERRNO(EPERM);

	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	rule1(p->ctx, deny, "mmap",
	      ARGM(2, PROT_EXEC | PROT_WRITE, PROT_EXEC | PROT_WRITE));
	rule1(p->ctx, deny, "mprotect", ARGM(2, PROT_EXEC, PROT_EXEC));
	rule1(p->ctx, deny, "pkey_mprotect", ARGM(2, PROT_EXEC, PROT_EXEC));
	rule1(p->ctx, deny, "shmat", ARGM(2, SHM_EXEC, SHM_EXEC));
}

/*
 * LockPersonality=yes: systemd's seccomp_lock_personality() with the
 * personality systemd runs services with on x86_64 (PER_LINUX): any other
 * personality() argument, the 0xffffffff query included, is EPERM.
 */
static void prof_personality(struct prof *p)
{
	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	rule1(p->ctx, SCMP_ACT_ERRNO(EPERM), "personality", ARG(0, SCMP_CMP_NE, PER_LINUX));
}

/*
 * RestrictRealtime=yes: systemd's seccomp_restrict_realtime_full(EPERM).
 * SCHED_OTHER, SCHED_BATCH and SCHED_IDLE pass; the policies below the
 * highest of them that are not one of them, and all above, are EPERM.
 */
static void prof_realtime(struct prof *p)
{
	static const int permitted[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE };
	const size_t np = sizeof(permitted) / sizeof(permitted[0]);
	const uint32_t deny = SCMP_ACT_ERRNO(EPERM);
	int max = 0;

	for (size_t i = 0; i < np; i++)
		if (permitted[i] > max)
			max = permitted[i];
	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	for (int policy = 0; policy < max; policy++) {
		size_t i;

		for (i = 0; i < np && permitted[i] != policy; i++)
			;
		if (i == np)
			rule1(p->ctx, deny, "sched_setscheduler",
			      ARG(1, SCMP_CMP_EQ, policy));
	}
	rule1(p->ctx, deny, "sched_setscheduler", ARG(1, SCMP_CMP_GT, max));
}

/*
 * systemd's seccomp_restrict_sxid(): the mode_t argument of chmod(),
 * fchmod(), fchmodat(), fchmodat2(), mkdir(), mkdirat(), mknod(),
 * mknodat(), open(O_CREAT), openat(O_CREAT) and creat() may not have M.
 * openat2() hides its mode in a struct: ENOSYS makes callers fall back to
 * openat(). A libseccomp that does not know fchmodat2() makes systemd refuse
 * it as if the kernel had none (ENOSYS by number). The second call adds
 * openat2()'s rule again, which libseccomp accepts.
 */
static void sd_restrict_sxid(scmp_filter_ctx ctx, mode_t m)
{
	const uint32_t deny = SCMP_ACT_ERRNO(EPERM);

	rule1(ctx, deny, "chmod", ARGM(1, m, m));
	rule1(ctx, deny, "fchmod", ARGM(1, m, m));
	rule1(ctx, deny, "fchmodat", ARGM(2, m, m));
	if (seccomp_syscall_resolve_name("fchmodat2") != __NR_SCMP_ERROR)
		rule1(ctx, deny, "fchmodat2", ARGM(2, m, m));
	else
		must(seccomp_rule_add_exact(ctx, SCMP_ACT_ERRNO(ENOSYS),
					    NR_FCHMODAT2_X86_64, 0),
		     "seccomp_rule_add_exact", "fchmodat2 by number");
	rule1(ctx, deny, "mkdir", ARGM(1, m, m));
	rule1(ctx, deny, "mkdirat", ARGM(2, m, m));
	rule1(ctx, deny, "mknod", ARGM(1, m, m));
	rule1(ctx, deny, "mknodat", ARGM(2, m, m));
	rule2(ctx, deny, "open", ARGM(1, O_CREAT, O_CREAT), ARGM(2, m, m));
	rule2(ctx, deny, "openat", ARGM(2, O_CREAT, O_CREAT), ARGM(3, m, m));
	rule0(ctx, SCMP_ACT_ERRNO(ENOSYS), "openat2");
	rule1(ctx, deny, "creat", ARGM(1, m, m));
}

/* RestrictSUIDSGID=yes: systemd's seccomp_restrict_suid_sgid() */
static void prof_suid_sgid(struct prof *p)
{
	p->ctx = sd_init_for_arch(SCMP_ACT_ALLOW);
	sd_restrict_sxid(p->ctx, S_ISUID);
	sd_restrict_sxid(p->ctx, S_ISGID);
}

/*
 * Docker's default profile: moby's profiles/seccomp/default.json as runc's
 * InitSeccomp() (libcontainer/seccomp/seccomp_linux.go) loads it for a
 * container with Docker's default capabilities (CAP_SYS_CHROOT among them,
 * CAP_SYS_ADMIN, _PTRACE, _BOOT, _MODULE, _TIME, ... not) on amd64 and a
 * kernel >= 4.8: default ERRNO(EPERM) (defaultErrnoRet 1), one
 * seccomp_rule_add() per allowed name (libseccomp-golang's AddRule is not
 * the exact variant; names libseccomp does not know are skipped), the
 * personality() values and socket() families it allows, clone() without
 * any namespace flag, clone3() ENOSYS. Only x86_64 here (the profile also
 * adds x86 and x32), and without runc's patchbpf prefix, which makes
 * syscalls newer than the profile return ENOSYS.
 */
static const char *const docker_allow[] = {
	"accept", "accept4", "access", "adjtimex", "alarm", "bind", "brk",
	"capget", "capset", "chdir", "chmod", "chown", "chown32",
	"clock_adjtime", "clock_adjtime64", "clock_getres",
	"clock_getres_time64", "clock_gettime", "clock_gettime64",
	"clock_nanosleep", "clock_nanosleep_time64", "close", "close_range",
	"connect", "copy_file_range", "creat", "dup", "dup2", "dup3",
	"epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old",
	"eventfd", "eventfd2", "execve", "execveat", "exit", "exit_group",
	"faccessat", "faccessat2", "fadvise64", "fadvise64_64", "fallocate",
	"fanotify_mark", "fchdir", "fchmod", "fchmodat", "fchown", "fchown32",
	"fchownat", "fcntl", "fcntl64", "fdatasync", "fgetxattr", "flistxattr",
	"flock", "fork", "fremovexattr", "fsetxattr", "fstat", "fstat64",
	"fstatat64", "fstatfs", "fstatfs64", "fsync", "ftruncate",
	"ftruncate64", "futex", "futex_time64", "futex_waitv", "futimesat",
	"getcpu", "getcwd", "getdents", "getdents64", "getegid", "getegid32",
	"geteuid", "geteuid32", "getgid", "getgid32", "getgroups",
	"getgroups32", "getitimer", "getpeername", "getpgid", "getpgrp",
	"getpid", "getppid", "getpriority", "getrandom", "getresgid",
	"getresgid32", "getresuid", "getresuid32", "getrlimit",
	"get_robust_list", "getrusage", "getsid", "getsockname", "getsockopt",
	"get_thread_area", "gettid", "gettimeofday", "getuid", "getuid32",
	"getxattr", "inotify_add_watch", "inotify_init", "inotify_init1",
	"inotify_rm_watch", "io_cancel", "ioctl", "io_destroy", "io_getevents",
	"io_pgetevents", "io_pgetevents_time64", "ioprio_get", "ioprio_set",
	"io_setup", "io_submit", "io_uring_enter", "io_uring_register",
	"io_uring_setup", "ipc", "kill", "landlock_add_rule",
	"landlock_create_ruleset", "landlock_restrict_self", "lchown",
	"lchown32", "lgetxattr", "link", "linkat", "listen", "listxattr",
	"llistxattr", "_llseek", "lremovexattr", "lseek", "lsetxattr", "lstat",
	"lstat64", "madvise", "membarrier", "memfd_create", "memfd_secret",
	"mincore", "mkdir", "mkdirat", "mknod", "mknodat", "mlock", "mlock2",
	"mlockall", "mmap", "mmap2", "mprotect", "mq_getsetattr", "mq_notify",
	"mq_open", "mq_timedreceive", "mq_timedreceive_time64", "mq_timedsend",
	"mq_timedsend_time64", "mq_unlink", "mremap", "msgctl", "msgget",
	"msgrcv", "msgsnd", "msync", "munlock", "munlockall", "munmap",
	"name_to_handle_at", "nanosleep", "newfstatat", "_newselect", "open",
	"openat", "openat2", "pause", "pidfd_open", "pidfd_send_signal", "pipe",
	"pipe2", "pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll",
	"ppoll_time64", "prctl", "pread64", "preadv", "preadv2", "prlimit64",
	"process_mrelease", "pselect6", "pselect6_time64", "pwrite64",
	"pwritev", "pwritev2", "read", "readahead", "readlink", "readlinkat",
	"readv", "recv", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg",
	"remap_file_pages", "removexattr", "rename", "renameat", "renameat2",
	"restart_syscall", "rmdir", "rseq", "rt_sigaction", "rt_sigpending",
	"rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend",
	"rt_sigtimedwait", "rt_sigtimedwait_time64", "rt_tgsigqueueinfo",
	"sched_getaffinity", "sched_getattr", "sched_getparam",
	"sched_get_priority_max", "sched_get_priority_min",
	"sched_getscheduler", "sched_rr_get_interval",
	"sched_rr_get_interval_time64", "sched_setaffinity", "sched_setattr",
	"sched_setparam", "sched_setscheduler", "sched_yield", "seccomp",
	"select", "semctl", "semget", "semop", "semtimedop",
	"semtimedop_time64", "send", "sendfile", "sendfile64", "sendmmsg",
	"sendmsg", "sendto", "setfsgid", "setfsgid32", "setfsuid",
	"setfsuid32", "setgid", "setgid32", "setgroups", "setgroups32",
	"setitimer", "setpgid", "setpriority", "setregid", "setregid32",
	"setresgid", "setresgid32", "setresuid", "setresuid32", "setreuid",
	"setreuid32", "setrlimit", "set_robust_list", "setsid", "setsockopt",
	"set_thread_area", "set_tid_address", "setuid", "setuid32", "setxattr",
	"shmat", "shmctl", "shmdt", "shmget", "shutdown", "sigaltstack",
	"signalfd", "signalfd4", "sigprocmask", "sigreturn", "socketcall",
	"socketpair", "splice", "stat", "stat64", "statfs", "statfs64", "statx",
	"symlink", "symlinkat", "sync", "sync_file_range", "syncfs", "sysinfo",
	"tee", "tgkill", "time", "timer_create", "timer_delete",
	"timer_getoverrun", "timer_gettime", "timer_gettime64",
	"timer_settime", "timer_settime64", "timerfd_create",
	"timerfd_gettime", "timerfd_gettime64", "timerfd_settime",
	"timerfd_settime64", "times", "tkill", "truncate", "truncate64",
	"ugetrlimit", "umask", "uname", "unlink", "unlinkat", "utime",
	"utimensat", "utimensat_time64", "utimes", "vfork", "vmsplice",
	"wait4", "waitid", "waitpid", "write", "writev",
	/* "minKernel": "4.8" */
	"process_vm_readv", "process_vm_writev", "ptrace",
	/* "arches": amd64 */
	"arch_prctl", "modify_ldt",
	/* "caps": CAP_SYS_CHROOT, one of Docker's defaults */
	"chroot",
	NULL
};

/* clone flags a container may not use: all CLONE_NEW* (2114060288) */
#define DOCKER_CLONE_NS_MASK 0x7e020000ULL

static void docker_profile(struct prof *p, int optimize)
{
	static const uint64_t personality_ok[] = {
		0x0, 0x8, 0x20000, 0x20008, 0xffffffff,
	};
	const struct scmp_arg_cmp not_vsock = ARG(0, SCMP_CMP_NE, AF_VSOCK);
	const struct scmp_arg_cmp no_ns = ARGM(0, DOCKER_CLONE_NS_MASK, 0);

	p->ctx = ctx_new(SCMP_ACT_ERRNO(EPERM));
	/*
	 * 1 is libseccomp's default; runc asks for 2, the binary tree, for
	 * profiles of more than 32 syscalls since its PR #3405 (2022)
	 */
	must(seccomp_attr_set(p->ctx, SCMP_FLTATR_CTL_OPTIMIZE, optimize),
	     "seccomp_attr_set", "SCMP_FLTATR_CTL_OPTIMIZE");
	must(seccomp_attr_set(p->ctx, SCMP_FLTATR_CTL_NNP, 0),
	     "seccomp_attr_set", "SCMP_FLTATR_CTL_NNP");
	for (const char *const *n = docker_allow; *n; n++)
		rule_name(p, SCMP_ACT_ALLOW, *n, false);
	must(seccomp_rule_add_array(p->ctx, SCMP_ACT_ALLOW, nr_of("socket"), 1, &not_vsock),
	     "seccomp_rule_add", "socket");
	for (size_t i = 0; i < sizeof(personality_ok) / sizeof(personality_ok[0]); i++) {
		const struct scmp_arg_cmp c = ARG(0, SCMP_CMP_EQ, personality_ok[i]);

		must(seccomp_rule_add_array(p->ctx, SCMP_ACT_ALLOW, nr_of("personality"), 1, &c),
		     "seccomp_rule_add", "personality");
	}
	must(seccomp_rule_add_array(p->ctx, SCMP_ACT_ALLOW, nr_of("clone"), 1, &no_ns),
	     "seccomp_rule_add", "clone");
	must(seccomp_rule_add(p->ctx, SCMP_ACT_ERRNO(ENOSYS), nr_of("clone3"), 0),
	     "seccomp_rule_add", "clone3");
}

static void prof_docker(struct prof *p)
{
	docker_profile(p, 1);
}

static void prof_docker_bintree(struct prof *p)
{
	docker_profile(p, 2);
}

/*
 * A hand-written sandbox in the spirit of OpenSSH's sandbox-seccomp-filter.c
 * (its preauth child), built with libseccomp: default KILL_PROCESS, a short
 * allow list, the file and SysV shm calls refused with EACCES, mmap() and
 * mprotect() only without PROT_EXEC (as its SC_ALLOW_ARG_MASK), and four
 * calls checked by argument: socket() only AF_UNIX, prctl() only
 * PR_SET_NAME/PR_GET_NAME, fcntl() only F_GETFD..F_SETFL, anything else
 * EACCES; ioctl() only TCGETS, FIONREAD and FIONBIO, TIOCSTI EACCES and
 * other commands fatal. libseccomp takes one comparison per argument and
 * rule, and an unconditional rule replaces the conditional ones of its
 * syscall, so "else EACCES" is written as the complement of the allowed
 * values: a range where they are contiguous, and not at all for ioctl().
 */
static const char *const sandbox_allow[] = {
	"read", "write", "readv", "writev", "pread64", "close", "lseek",
	"brk", "munmap", "mremap", "madvise", "futex", "exit", "exit_group",
	"getpid", "getppid", "gettid", "getuid", "geteuid", "getgid",
	"getegid", "getpgid", "clock_gettime", "clock_getres", "gettimeofday",
	"time", "nanosleep", "clock_nanosleep", "getrandom", "poll", "ppoll",
	"select", "pselect6", "epoll_wait", "epoll_pwait", "epoll_ctl",
	"rt_sigprocmask", "rt_sigreturn", "rt_sigaction", "sigaltstack",
	"sendto", "sendmsg", "recvfrom", "recvmsg", "shutdown",
	"restart_syscall", "sched_yield", "getrlimit", "prlimit64",
	NULL
};

static const char *const sandbox_eacces[] = {
	"open", "openat", "stat", "lstat", "fstat", "newfstatat", "shmget",
	"shmat", "shmdt", NULL
};

static void prof_sandbox(struct prof *p)
{
	static const uint64_t ioctl_ok[] = { TCGETS, FIONREAD, FIONBIO };
	const uint32_t eacces = SCMP_ACT_ERRNO(EACCES);
	const uint64_t noexec = ~(uint64_t)(PROT_READ | PROT_WRITE);

	p->ctx = ctx_new(SCMP_ACT_KILL_PROCESS);
	for (const char *const *n = sandbox_allow; *n; n++)
		rule0(p->ctx, SCMP_ACT_ALLOW, *n);
	for (const char *const *n = sandbox_eacces; *n; n++)
		rule0(p->ctx, eacces, *n);
	rule1(p->ctx, SCMP_ACT_ALLOW, "mmap", ARGM(2, noexec, 0));
	rule1(p->ctx, SCMP_ACT_ALLOW, "mprotect", ARGM(2, noexec, 0));

	rule1(p->ctx, SCMP_ACT_ALLOW, "socket", ARG(0, SCMP_CMP_EQ, AF_UNIX));
	rule1(p->ctx, eacces, "socket", ARG(0, SCMP_CMP_NE, AF_UNIX));

	rule1(p->ctx, SCMP_ACT_ALLOW, "prctl", ARG(0, SCMP_CMP_EQ, PR_SET_NAME));
	rule1(p->ctx, SCMP_ACT_ALLOW, "prctl", ARG(0, SCMP_CMP_EQ, PR_GET_NAME));
	rule1(p->ctx, eacces, "prctl", ARG(0, SCMP_CMP_LT, PR_SET_NAME));
	rule1(p->ctx, eacces, "prctl", ARG(0, SCMP_CMP_GT, PR_GET_NAME));

	for (int cmd = F_GETFD; cmd <= F_SETFL; cmd++)
		rule1(p->ctx, SCMP_ACT_ALLOW, "fcntl", ARG(1, SCMP_CMP_EQ, cmd));
	rule1(p->ctx, eacces, "fcntl", ARG(1, SCMP_CMP_LT, F_GETFD));
	rule1(p->ctx, eacces, "fcntl", ARG(1, SCMP_CMP_GT, F_SETFL));

	for (size_t i = 0; i < sizeof(ioctl_ok) / sizeof(ioctl_ok[0]); i++)
		rule1(p->ctx, SCMP_ACT_ALLOW, "ioctl", ARG(1, SCMP_CMP_EQ, ioctl_ok[i]));
	rule1(p->ctx, eacces, "ioctl", ARG(1, SCMP_CMP_EQ, TIOCSTI));
}

/* ---- the exported program ---- */

struct prog {
	struct sock_filter *insn;
	unsigned int len;
};

/*
 * libseccomp 2.5.4 has no seccomp_export_bpf_mem() (2.6 has): export to a
 * memfd and read the program back.
 */
static struct prog export_bpf(const struct prof *p)
{
	struct prog prog;
	off_t size;
	int fd = memfd_create("seccomp-profile", MFD_CLOEXEC);

	if (fd < 0)
		die("memfd_create: %s", strerror(errno));
	must(seccomp_export_bpf(p->ctx, fd), "seccomp_export_bpf", p->name);
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size % sizeof(struct sock_filter) ||
	    size > (off_t)(BPF_MAXINSNS * sizeof(struct sock_filter)))
		die("%s: exported %lld bytes: not 1..%d instructions", p->name,
		    (long long)size, BPF_MAXINSNS);
	prog.len = size / sizeof(struct sock_filter);
	prog.insn = xrealloc(NULL, size);
	if (pread(fd, prog.insn, size, 0) != size)
		die("%s: reading the exported program back failed", p->name);
	close(fd);
	return prog;
}

/*
 * What the kernel's checks (bpf_check_classic()) would refuse and the
 * emulations below rely on: jumps inside the program, a return at its end.
 */
static void check_prog(const struct prof *p, const struct prog *prog)
{
	for (unsigned int pc = 0; pc < prog->len; pc++) {
		const struct sock_filter *f = &prog->insn[pc];
		unsigned int left = prog->len - pc - 1;

		if (BPF_CLASS(f->code) != BPF_JMP)
			continue;
		if (BPF_OP(f->code) == BPF_JA ? f->k >= left :
		    f->jt >= left || f->jf >= left)
			die("%s: instruction %u jumps out of the program", p->name, pc);
	}
	if (BPF_CLASS(prog->insn[prog->len - 1].code) != BPF_RET)
		die("%s: the program does not end with a return", p->name);
}

/*
 * Linux 6.1, kernel/seccomp.c, seccomp_is_const_allow(), copied: the action
 * cache (seccomp_cache_prepare_bitmap()) emulates each filter for every
 * syscall number of the native and compat arch with only nr and arch known.
 * Where that reaches SECCOMP_RET_ALLOW without loading anything else, the
 * syscall is allowed from a bitmap and the filter never runs.
 */
static bool seccomp_is_const_allow(const struct prog *fprog,
				   const struct seccomp_data *sd)
{
	unsigned int reg_value = 0;
	unsigned int pc;
	bool op_res;

	for (pc = 0; pc < fprog->len; pc++) {
		const struct sock_filter *insn = &fprog->insn[pc];
		uint16_t code = insn->code;
		uint32_t k = insn->k;

		switch (code) {
		case BPF_LD | BPF_W | BPF_ABS:
			switch (k) {
			case offsetof(struct seccomp_data, nr):
				reg_value = sd->nr;
				break;
			case offsetof(struct seccomp_data, arch):
				reg_value = sd->arch;
				break;
			default:
				/* can't optimize (non-constant value load) */
				return false;
			}
			break;
		case BPF_RET | BPF_K:
			/* reached return with constant values only, check allow */
			return k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += insn->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			switch (BPF_OP(code)) {
			case BPF_JEQ:
				op_res = reg_value == k;
				break;
			case BPF_JGE:
				op_res = reg_value >= k;
				break;
			case BPF_JGT:
				op_res = reg_value > k;
				break;
			case BPF_JSET:
				op_res = !!(reg_value & k);
				break;
			default:
				/* can't optimize (unknown jump) */
				return false;
			}

			pc += op_res ? insn->jt : insn->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			reg_value &= k;
			break;
		default:
			/* can't optimize (unknown insn) */
			return false;
		}
	}

	/* ran off the end of the filter?! (check_prog() rules it out) */
	return false;
}

/*
 * Whether the action cache answers a record: seccomp_cache_check_allow()
 * looks the bitmap up for nr below SECCOMP_ARCH_NATIVE_NR (NR_syscalls, 451
 * on x86_64 in 6.1) of the native arch; there is one filter here.
 */
#define SECCOMP_ARCH_NATIVE_NR_6_1 451

static bool cache_answers(const struct prog *prog, const struct seccomp_data *sd)
{
	return sd->arch == AUDIT_ARCH_X86_64 && sd->nr >= 0 &&
	       sd->nr < SECCOMP_ARCH_NATIVE_NR_6_1 && seccomp_is_const_allow(prog, sd);
}

/*
 * A seccomp BPF interpreter (the instructions seccomp_check_filter()
 * accepts) that gives a record's verdict: the cross-check that every record
 * the cache answers is allowed by the whole filter too, and -v's listing.
 */
static uint32_t alu(uint16_t op, uint32_t a, uint32_t b, bool *ok)
{
	switch (op) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return a * b;
	case BPF_DIV: return b ? a / b : (*ok = false, 0);
	case BPF_MOD: return b ? a % b : (*ok = false, 0);
	case BPF_AND: return a & b;
	case BPF_OR: return a | b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return b < 32 ? a << b : 0;
	case BPF_RSH: return b < 32 ? a >> b : 0;
	case BPF_NEG: return -a;
	}
	*ok = false;
	return 0;
}

static bool jump(uint16_t op, uint32_t a, uint32_t b)
{
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JSET: return a & b;
	}
	return false;
}

/* the filter's return value, or die if the program is not one seccomp runs */
static uint32_t run_filter(const struct prof *p, const struct prog *prog,
			   const struct seccomp_data *sd)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	const unsigned char *data = (const unsigned char *)sd;

	for (unsigned int pc = 0; pc < prog->len; pc++) {
		const struct sock_filter *f = &prog->insn[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;
		bool ok = true;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
		case BPF_LDX: {
			uint32_t v;

			if (f->code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (f->k % 4 || f->k >= sizeof(*sd))
					goto bad;
				memcpy(&v, data + f->k, 4);
			} else if (BPF_MODE(f->code) == BPF_LEN) {
				v = sizeof(*sd);
			} else if (BPF_MODE(f->code) == BPF_IMM) {
				v = f->k;
			} else if (BPF_MODE(f->code) == BPF_MEM && f->k < BPF_MEMWORDS) {
				v = mem[f->k];
			} else {
				goto bad;
			}
			*(BPF_CLASS(f->code) == BPF_LD ? &a : &x) = v;
			break;
		}
		case BPF_ST:
		case BPF_STX:
			if (f->k >= BPF_MEMWORDS)
				goto bad;
			mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			a = alu(BPF_OP(f->code), a, src, &ok);
			if (!ok)
				return SECCOMP_RET_KILL_THREAD;
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA)
				pc += f->k;
			else
				pc += jump(BPF_OP(f->code), a, src) ? f->jt : f->jf;
			break;
		case BPF_RET:
			return BPF_RVAL(f->code) == BPF_A ? a : f->k;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		}
	}
bad:
	die("%s: the program is not one seccomp runs", p->name);
	return 0;
}

static const char *verdict(uint32_t ret, char *buf, size_t n)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS: return "KILL_PROCESS";
	case SECCOMP_RET_KILL_THREAD: return "KILL_THREAD";
	case SECCOMP_RET_TRAP: return "TRAP";
	case SECCOMP_RET_ERRNO:
		snprintf(buf, n, "ERRNO(%s)", strerrorname_np(data) ?: "?");
		return buf;
	case SECCOMP_RET_LOG: return "LOG";
	case SECCOMP_RET_ALLOW: return "ALLOW";
	}
	snprintf(buf, n, "0x%08" PRIx32, ret);
	return buf;
}

/* ---- the syscall mix ---- */

/*
 * What a service does all day, and what sandboxes exist to stop, with the
 * arguments glibc passes (an int -1 or AT_FDCWD is sign-extended to 64
 * bits). Addresses: a PIE heap at 0x55d4c8a2..., libraries at
 * 0x7f3a5c..., the stack at 0x7ffc8e4b....
 */
#define HEAP(off)	(0x55d4c8a2e000ULL + (off))
#define LIB(off)	(0x7f3a5c800000ULL + (off))
#define STACK(off)	(0x7ffc8e4b3000ULL + (off))
#define NEG(v)		((uint64_t)(int64_t)(v))

struct record {
	const char *label;	/* no spaces */
	const char *sys;
	uint64_t arg[6];
};

static const struct record mix[] = {
	{ "read", "read", { 3, HEAP(0x2a0), 4096 } },
	{ "write", "write", { 1, HEAP(0x12c0), 57 } },
	{ "openat(O_RDONLY)", "openat",
	  { NEG(AT_FDCWD), STACK(0xa10), O_RDONLY | O_CLOEXEC } },
	{ "openat(O_CREAT,04755)", "openat",
	  { NEG(AT_FDCWD), STACK(0xa10), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 04755 } },
	{ "close", "close", { 3 } },
	{ "newfstatat", "newfstatat", { 3, LIB(0x1d8e2a), STACK(0x8f0), AT_EMPTY_PATH } },
	{ "mmap(PROT_READ|PROT_WRITE)", "mmap",
	  { 0, 0x21000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, NEG(-1), 0 } },
	{ "mmap(PROT_READ|PROT_EXEC)", "mmap",
	  { LIB(0x28000), 0x195000, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE, 3, 0x28000 } },
	{ "mmap(RWX)", "mmap",
	  { 0, 0x10000, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	    NEG(-1), 0 } },
	{ "mprotect(PROT_READ)", "mprotect", { LIB(0x1f4000), 0x4000, PROT_READ } },
	{ "mprotect(PROT_EXEC)", "mprotect", { HEAP(0x40000), 0x1000, PROT_READ | PROT_EXEC } },
	{ "futex", "futex", { HEAP(0x5e8), 0x80 /* FUTEX_WAIT_PRIVATE */, 2 } },
	{ "epoll_wait", "epoll_wait", { 4, STACK(0x600), 64, NEG(-1) } },
	{ "clock_nanosleep", "clock_nanosleep",
	  { 1 /* CLOCK_MONOTONIC */, 0, STACK(0x9c0), STACK(0x9d0) } },
	{ "getrandom", "getrandom", { STACK(0x7e0), 32, 0 } },
	{ "sendto", "sendto", { 5, HEAP(0x3400), 120, MSG_NOSIGNAL } },
	{ "recvfrom", "recvfrom", { 5, HEAP(0x8000), 4096, MSG_DONTWAIT } },
	{ "setsockopt", "setsockopt", { 5, SOL_SOCKET, SO_RCVBUF, STACK(0x77c), 4 } },
	{ "socket(AF_UNIX)", "socket", { AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC } },
	{ "socket(AF_INET)", "socket",
	  { AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 6 /* TCP */ } },
	{ "socket(AF_INET6)", "socket", { AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 17 /* UDP */ } },
	{ "socket(AF_NETLINK)", "socket", { AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0 } },
	{ "socket(AF_PACKET)", "socket", { AF_PACKET, SOCK_RAW, 0x0300 /* htons(ETH_P_ALL) */ } },
	{ "clone(thread)", "clone",
	  { CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
	    CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
	    LIB(0x7ff000) - 0x10, LIB(0x7ff9d0), LIB(0x7ff9d0), LIB(0x7ff6c0) } },
	{ "clone(CLONE_NEWNET)", "clone", { CLONE_NEWNET | SIGCHLD } },
	{ "clone3(thread)", "clone3", { STACK(0x850), 88 /* sizeof(struct clone_args) */ } },
	{ "unshare(CLONE_NEWUSER)", "unshare", { CLONE_NEWUSER } },
	{ "setns(CLONE_NEWNET)", "setns", { 5, CLONE_NEWNET } },
	{ "personality(PER_LINUX)", "personality", { PER_LINUX } },
	{ "personality(0xffffffff)", "personality", { 0xffffffff } },
	{ "personality(ADDR_NO_RANDOMIZE)", "personality", { ADDR_NO_RANDOMIZE } },
	{ "personality(PER_LINUX32)", "personality", { PER_LINUX32 } },
	{ "sched_setscheduler(SCHED_FIFO)", "sched_setscheduler", { 0, SCHED_FIFO, STACK(0x88c) } },
	{ "sched_setscheduler(SCHED_OTHER)", "sched_setscheduler", { 0, SCHED_OTHER, STACK(0x88c) } },
	{ "sched_setscheduler(SCHED_BATCH)", "sched_setscheduler", { 0, SCHED_BATCH, STACK(0x88c) } },
	{ "sched_setscheduler(SCHED_IDLE)", "sched_setscheduler", { 0, SCHED_IDLE, STACK(0x88c) } },
	{ "ioctl(TCGETS)", "ioctl", { 0, TCGETS, STACK(0x700) } },
	{ "ioctl(FIONREAD)", "ioctl", { 5, FIONREAD, STACK(0x6fc) } },
	{ "ioctl(TIOCSTI)", "ioctl", { 0, TIOCSTI, STACK(0x6fb) } },
	{ "prctl(PR_SET_NAME)", "prctl", { PR_SET_NAME, STACK(0x6e0) } },
	{ "prctl(PR_SET_DUMPABLE)", "prctl", { PR_SET_DUMPABLE, 0 } },
	{ "fcntl(F_SETFL)", "fcntl", { 3, F_SETFL, O_RDWR | O_NONBLOCK } },
	{ "fcntl(F_DUPFD_CLOEXEC)", "fcntl", { 3, F_DUPFD_CLOEXEC, 3 } },
	{ "chmod(04755)", "chmod", { STACK(0xa10), 04755 } },
	{ "fchmodat(0644)", "fchmodat", { NEG(AT_FDCWD), STACK(0xa10), 0644, 0 } },
	{ "mkdir(0755)", "mkdir", { STACK(0xa10), 0755 } },
	{ "ptrace(PTRACE_ATTACH)", "ptrace", { 16 /* PTRACE_ATTACH */, 1234 } },
	{ "mount(MS_BIND)", "mount",
	  { STACK(0xa10), STACK(0xb10), 0, 0x1000 | 0x4000 /* MS_BIND|MS_REC */, 0 } },
	{ "reboot", "reboot", { 0xfee1dead, 672274793, 0x01234567 /* RESTART */, 0 } },
	{ "bpf(BPF_PROG_LOAD)", "bpf", { 5, STACK(0x500), 0x90 } },
	{ "perf_event_open", "perf_event_open",
	  { HEAP(0x9100), 0, NEG(-1), NEG(-1), 8 /* PERF_FLAG_FD_CLOEXEC */ } },
	{ "kexec_load", "kexec_load", { 0x1000000, 3, HEAP(0xa000), 0 } },
	{ "init_module", "init_module", { HEAP(0x10000), 0x1a2b0, LIB(0x1d8e2a) } },
	{ "swapon", "swapon", { STACK(0xa10), 0 } },
	{ "settimeofday", "settimeofday", { STACK(0x920), 0 } },
	{ "io_uring_setup", "io_uring_setup", { 256, STACK(0x400) } },
	{ "add_key", "add_key",
	  { LIB(0x1d9000), STACK(0xa10), HEAP(0x700), 32, NEG(-3) /* session */ } },
	{ "keyctl(KEYCTL_JOIN_SESSION_KEYRING)", "keyctl", { 1, 0 } },
	{ "exit_group", "exit_group", { 0 } },
};

#define NMIX ((int)(sizeof(mix) / sizeof(mix[0])))

static struct seccomp_data record_data(const struct record *r)
{
	struct seccomp_data sd = { 0 };
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, r->sys);

	if (nr < 0)
		die("libseccomp has no x86_64 number for %s()", r->sys);
	sd.nr = nr;
	sd.arch = AUDIT_ARCH_X86_64;
	/* after the syscall instruction of a wrapper in libc's text */
	sd.instruction_pointer = LIB(0x28000) + 0x90000 + nr * 0x1b0 + 0x12;
	memcpy(sd.args, r->arg, sizeof(sd.args));
	return sd;
}

/* ---- output ---- */

static void print_prog(const struct prof *p, const struct prog *prog)
{
	printf("profile %s %u", p->name, prog->len);
	for (unsigned int i = 0; i < prog->len; i++)
		printf(" 0x%02x,%u,%u,0x%08x", prog->insn[i].code, prog->insn[i].jt,
		       prog->insn[i].jf, prog->insn[i].k);
	putchar('\n');
}

static void print_record(const struct prof *p, const char *label,
			 const struct seccomp_data *sd)
{
	printf("sd %s %s 0x%x 0x%x 0x%" PRIx64, p->name, label, sd->nr, sd->arch,
	       (uint64_t)sd->instruction_pointer);
	for (int a = 0; a < 6; a++)
		printf(" 0x%" PRIx64, (uint64_t)sd->args[a]);
	putchar('\n');
}

/*
 * The profile and the records of the mix its filter runs for. The cache's
 * answer must agree with the whole filter's: a cross-check of both
 * emulations.
 */
static void print_profile(const struct prof *p, const struct prog *prog)
{
	char buf[64];
	int kept = 0;

	print_prog(p, prog);
	if (verbose)
		fprintf(stderr, "%s:\n", p->name);
	for (int i = 0; i < NMIX; i++) {
		struct seccomp_data sd = record_data(&mix[i]);
		uint32_t ret = run_filter(p, prog, &sd);
		bool cached = cache_answers(prog, &sd);

		if (cached && ret != SECCOMP_RET_ALLOW)
			die("%s: %s: the cache emulation allows what the filter does not",
			    p->name, mix[i].label);
		if (verbose)
			fprintf(stderr, "  %-36s %s%s\n", mix[i].label,
				verdict(ret, buf, sizeof(buf)), cached ? " (cache)" : "");
		if (!cached) {
			print_record(p, mix[i].label, &sd);
			kept++;
		}
	}
	fprintf(stderr, "seccomp-profiles: %-34s %4u instructions, %2d records"
		" in the mix, %2d left out (the cache answers them)\n",
		p->name, prog->len, kept, NMIX - kept);
	if (p->unknown || p->elsewhere)
		fprintf(stderr, "seccomp-profiles: %-34s skipped %d names libseccomp"
			" does not know, %d syscalls x86_64 does not have\n",
			p->name, p->unknown, p->elsewhere);
	if (kept < MIN_RECORDS)
		die("%s: only %d records of the mix reach the filter (%d needed)",
		    p->name, kept, MIN_RECORDS);
}

static const struct {
	const char *name;
	void (*build)(struct prof *p);
} profiles[] = {
	{ "systemd-system-service", prof_system_service },
	{ "systemd-default", prof_default },
	{ "systemd-deny-privileged", prof_deny_list },
	{ "systemd-restrict-address-families", prof_address_families },
	{ "systemd-restrict-namespaces", prof_namespaces },
	{ "systemd-memory-deny-write-execute", prof_mdwe },
	{ "systemd-lock-personality", prof_personality },
	{ "systemd-restrict-realtime", prof_realtime },
	{ "systemd-restrict-suid-sgid", prof_suid_sgid },
	{ "docker-default", prof_docker },
	{ "docker-default-bintree", prof_docker_bintree },
	{ "sandbox-args", prof_sandbox },
};

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "v")) != -1) {
		if (opt != 'v')
			goto usage;
		verbose = true;
	}
	if (optind != argc - 1)
		goto usage;
	read_groups(argv[optind]);
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct prof p = { .name = profiles[i].name };
		struct prog prog;

		profiles[i].build(&p);
		prog = export_bpf(&p);
		check_prog(&p, &prog);
		print_profile(&p, &prog);
		seccomp_release(p.ctx);
		free(prog.insn);
	}
	if (fflush(stdout) || ferror(stdout))
		die("writing the output failed");
	return 0;
usage:
	fprintf(stderr, "usage: seccomp-profiles [-v] GROUPS_FILE > OUT\n");
	return 2;
}
