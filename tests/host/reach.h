/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzzers' runs reach: how deep they execute, whether a program's
 * result depends on the data, and which of the generator's optimisations
 * and load paths the executed insns exercise.  A fuzzer that compares only
 * runs ending on their third insn proves little, so these are floors of
 * the host fuzzer and of the boot-time suite's cbpf-jit-fuzz.
 *
 * The sites of a program (which insns an optimisation covers) come from the
 * generator's own analysis, cbpf_jit_analyse(), where it decides them (a
 * jeq search, callee-saved registers, a known X), or are restated from
 * its rules (a run of add/sub #k before the first jump, a dead skb field
 * load).  They only attribute coverage: the verdicts stay differential.
 */
#ifndef HOST_REACH_H
#define HOST_REACH_H
#include <stdbool.h>
#include "bpf_jit_classic.h"
#include "refinterp.h"

enum reach_kind {
	REACH_JEQ_SEARCH,	/* an insn of a jeq run compiled as a search */
	REACH_ADD_RUN,		/* a run of add/sub #k added up as one */
	REACH_KNOWN_X,		/* ld [x + k] at a known X, compiled as ld [k] */
	REACH_DEAD_LOAD,	/* an skb field load nobody reads, not compiled */
	REACH_CALLEE_SAVED,	/* skb, data, headlen, X in callee-saved registers */
	REACH_BE,		/* a load left in network byte order, compared so */
	/* from the loads a run made (reach_loads()) */
	REACH_SLOW_PATH,	/* a load past the linear part */
	REACH_STRADDLE,		/* a load across two fragments (or head and fragment) */
	REACH_FRAG_LIST,	/* a load from the frag_list */
	REACH_NR
};

/*
 * The series' trees before its patch 3 (loads left in network byte order)
 * have no such loads, and image/series-check runs these tests on the tree
 * of every patch: the patch's two more slow path kinds tell.  REACH_KINDS:
 * the kinds the generator under test has.
 */
#define HOST_HAVE_BE_LOADS (CBPF_JIT_SLOW_KINDS > 4)
#define REACH_KINDS (((1u << REACH_NR) - 1) & ~(HOST_HAVE_BE_LOADS ? 0 : 1u << REACH_BE))

extern const char *const reach_name[REACH_NR];

struct cbpf_jit_ctx;

/* Site bits of each insn of @p (@site: len bytes) from an analysed @c. */
void reach_sites_of(const struct cbpf_jit_ctx *c, const struct sock_filter *p, u32 len,
		    u8 *site);
/* The same, running the generator's analysis itself (the kernel's
 * environment on x86-64, constants blinded if @blind); 0, or -1 when it
 * declines the program (no sites). */
int reach_sites(const struct sock_filter *p, u32 len, u8 *site, bool blind);

/*
 * Bits of the loads a run made: @bounds are the data-relative offsets
 * where each fragment after the linear part begins (the first is
 * headlen), @frag_list_from where the frag_list's bytes begin (>= len:
 * none).
 */
u32 reach_loads(const struct ref_trace *t, const u32 *bounds, u32 nbounds,
		u32 frag_list_from);

struct reach_stats {
	unsigned long runs, executed, ended_load, long_runs, long_past_half;
	unsigned long programs, data_dependent;
	unsigned long reached[REACH_NR];
};

/* One run of a program of @len insns: t->reached | @load_bits. */
void reach_count_run(struct reach_stats *st, const struct ref_trace *t, u32 len,
		     u32 load_bits);
/* One program with runs; @dependent: not every run returned the same. */
void reach_count_program(struct reach_stats *st, bool dependent);
void reach_add(struct reach_stats *to, const struct reach_stats *from);

/*
 * The floors: calls @check(ok, name, detail, arg) once per floor (mean
 * executed insns, long programs run past their half, data-dependent
 * programs, runs that end on a failed load, and each reach kind in @kinds,
 * a mask of 1 << REACH_*: the host's skb model has no frag_list).
 */
void reach_floors(const struct reach_stats *st, u32 kinds,
		  void (*check)(bool ok, const char *name, const char *detail, void *arg),
		  void *arg);
#endif
