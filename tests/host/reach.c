// SPDX-License-Identifier: GPL-2.0
/* What the fuzzers' runs reach (reach.h). */
#include <stdio.h>
#include <string.h>

#include "bpf_jit_classic.h"
#include "reach.h"

const char *const reach_name[REACH_NR] = {
	[REACH_JEQ_SEARCH] = "a jeq run compiled as a search",
	[REACH_ADD_RUN] = "a run of add/sub #k added up as one",
	[REACH_KNOWN_X] = "ld [x + k] at a known X",
	[REACH_DEAD_LOAD] = "an skb field load nobody reads",
	[REACH_CALLEE_SAVED] = "state in callee-saved registers",
	[REACH_BE] = "a load left in network byte order",
	[REACH_SLOW_PATH] = "a load past the linear part",
	[REACH_STRADDLE] = "a load across two fragments",
	[REACH_FRAG_LIST] = "a load from the frag_list",
};

static bool add_sub_k(u16 code)
{
	return code == (BPF_ALU | BPF_ADD | BPF_K) || code == (BPF_ALU | BPF_SUB | BPF_K);
}

static bool anc_field(const struct sock_filter *f)
{
	static const u32 fields[] = { SKF_AD_PROTOCOL, SKF_AD_PKTTYPE, SKF_AD_MARK,
				      SKF_AD_QUEUE, SKF_AD_RXHASH, SKF_AD_CPU,
				      SKF_AD_VLAN_TAG, SKF_AD_VLAN_TAG_PRESENT,
				      SKF_AD_VLAN_TPID };
	u32 j;

	if (BPF_CLASS(f->code) != BPF_LD || BPF_MODE(f->code) != BPF_ABS)
		return false;
	for (j = 0; j < sizeof(fields) / sizeof(fields[0]); j++)
		if (f->k == (u32)SKF_AD_OFF + fields[j])
			return true;
	return false;
}

/* The next insn writes A without reading it: the field load is dead. */
static bool overwrites_a(const struct sock_filter *n)
{
	return anc_field(n) || n->code == (BPF_RET | BPF_K) || n->code == (BPF_LD | BPF_IMM) ||
	       n->code == (BPF_MISC | BPF_TXA) || n->code == (BPF_LD | BPF_W | BPF_LEN) ||
	       (BPF_CLASS(n->code) == BPF_LD && BPF_MODE(n->code) == BPF_IND) ||
	       (BPF_CLASS(n->code) == BPF_LD && BPF_MODE(n->code) == BPF_ABS &&
		n->k < (u32)SKF_AD_OFF);
}

void reach_sites_of(const struct cbpf_jit_ctx *c, const struct sock_filter *p, u32 len,
		    u8 *site)
{
	u32 i;

	memset(site, 0, len);
	for (i = 0; i < len; i++) {
		/* the generator's own decisions */
		if (c->jeq_runs && c->jeq && c->jeq[i].end)
			site[i] |= 1u << REACH_JEQ_SEARCH;
#if HOST_HAVE_BE_LOADS
		if (c->be_loads && c->jeq[i].be && BPF_CLASS(p[i].code) == BPF_LD)
			site[i] |= 1u << REACH_BE;
#endif
		if (i < c->x_end && BPF_CLASS(p[i].code) == BPF_LD &&
		    BPF_MODE(p[i].code) == BPF_IND &&
		    (i >= c->x_from ? c->x_val : 0) + p[i].k < (u32)SKF_AD_OFF)
			site[i] |= 1u << REACH_KNOWN_X;
		/* its rules restated: add/sub #k in a row before the first
		 * jump, a field load whose A the next insn overwrites */
		if (i + 1 < len && anc_field(&p[i]) && overwrites_a(&p[i + 1]))
			site[i] |= 1u << REACH_DEAD_LOAD;
	}
	for (i = 0; i + 1 < len && BPF_CLASS(p[i].code) != BPF_JMP; i++)
		if (add_sub_k(p[i].code) && add_sub_k(p[i + 1].code))
			site[i] |= 1u << REACH_ADD_RUN, site[i + 1] |= 1u << REACH_ADD_RUN;
	if (c->callee_saved && len)
		site[0] |= 1u << REACH_CALLEE_SAVED;
}

int reach_sites(const struct sock_filter *p, u32 len, u8 *site, bool blind)
{
	/* what the analysis reads of the kernel's x86-64 environment */
	static const struct cbpf_jit_env env = { .cpu_number_inline = true };
	static struct cbpf_jit_jeq jeq[BPF_MAXINSNS];
	static u32 addrs[BPF_MAXINSNS + 1];
	struct cbpf_jit_ctx c = { .env = &env, .insns = p, .len = len, .blind = blind,
				  .addrs = addrs, .jeq = jeq };

	memset(site, 0, len);
	if (cbpf_jit_analyse(&c) != CBPF_JIT_OK)
		return -1;
	reach_sites_of(&c, p, len, site);
	return 0;
}

u32 reach_loads(const struct ref_trace *t, const u32 *bounds, u32 nbounds,
		u32 frag_list_from)
{
	u32 bits = t->nloads ? 1u << REACH_SLOW_PATH : 0, i, j;

	for (i = 0; i < t->nloads; i++) {
		u32 lo = t->loads[i].off, hi = lo + t->loads[i].size;

		for (j = 0; j < nbounds; j++)
			if (lo < bounds[j] && bounds[j] < hi)
				bits |= 1u << REACH_STRADDLE;
		if (hi > frag_list_from)
			bits |= 1u << REACH_FRAG_LIST;
	}
	return bits;
}

void reach_count_run(struct reach_stats *st, const struct ref_trace *t, u32 len,
		     u32 load_bits)
{
	u32 bits = t->reached | load_bits, k;

	st->runs++;
	st->executed += t->executed;
	st->ended_load += t->end == REF_END_LOAD;
	if (len >= 1000) {
		st->long_runs++;
		st->long_past_half += t->last_pc >= len / 2;
	}
	for (k = 0; k < REACH_NR; k++)
		st->reached[k] += (bits >> k) & 1;
}

void reach_count_program(struct reach_stats *st, bool dependent)
{
	st->programs++;
	st->data_dependent += dependent;
}

void reach_add(struct reach_stats *to, const struct reach_stats *from)
{
	u32 k;

	to->runs += from->runs;
	to->executed += from->executed;
	to->ended_load += from->ended_load;
	to->long_runs += from->long_runs;
	to->long_past_half += from->long_past_half;
	to->programs += from->programs;
	to->data_dependent += from->data_dependent;
	for (k = 0; k < REACH_NR; k++)
		to->reached[k] += from->reached[k];
}

/*
 * The floors, in parts per thousand of the runs (or programs): what the
 * generators give by design (gen.c: deep programs, loads mostly in bounds,
 * branches on values the packets hold) with a margin, so that a generator
 * that drifts back to shallow runs fails.
 */
#define FLOOR_MEAN_EXECUTED	20	/* insns per run */
#define FLOOR_LONG_PAST_HALF	250	/* of runs of programs >= 1000 insns */
#define FLOOR_DATA_DEPENDENT	500	/* of programs */
#define CEIL_ENDED_LOAD		400	/* of runs: ended on a failed load */
#define FLOOR_REACHED		2	/* of runs, each kind */

void reach_floors(const struct reach_stats *st, u32 kinds,
		  void (*check)(bool ok, const char *name, const char *detail, void *arg),
		  void *arg)
{
	unsigned long runs = st->runs ? st->runs : 1;
	char name[160], detail[200];
	u32 k;

	snprintf(detail, sizeof(detail), "%.1f insns per run over %lu runs (floor %d)",
		 (double)st->executed / (double)runs, st->runs, FLOOR_MEAN_EXECUTED);
	check(st->executed >= FLOOR_MEAN_EXECUTED * st->runs && st->runs,
	      "depth: mean executed insns per run", detail, arg);
	snprintf(detail, sizeof(detail), "%lu of %lu runs of programs of 1000+ insns (floor %d.%d%%)",
		 st->long_past_half, st->long_runs, FLOOR_LONG_PAST_HALF / 10,
		 FLOOR_LONG_PAST_HALF % 10);
	check(st->long_runs && st->long_past_half * 1000 >= FLOOR_LONG_PAST_HALF * st->long_runs,
	      "depth: long programs run past their half", detail, arg);
	snprintf(detail, sizeof(detail), "%lu of %lu programs (floor %d.%d%%)", st->data_dependent,
		 st->programs, FLOOR_DATA_DEPENDENT / 10, FLOOR_DATA_DEPENDENT % 10);
	check(st->programs && st->data_dependent * 1000 >= FLOOR_DATA_DEPENDENT * st->programs,
	      "depth: programs whose result depends on the packet", detail, arg);
	snprintf(detail, sizeof(detail), "%lu of %lu runs (ceiling %d.%d%%)", st->ended_load,
		 st->runs, CEIL_ENDED_LOAD / 10, CEIL_ENDED_LOAD % 10);
	check(st->ended_load * 1000 <= CEIL_ENDED_LOAD * st->runs,
	      "depth: runs that end on a failed packet load", detail, arg);
	for (k = 0; k < REACH_NR; k++) {
		if (!(kinds & (1u << k)))
			continue;
		snprintf(name, sizeof(name), "reach: runs through %s", reach_name[k]);
		snprintf(detail, sizeof(detail), "%lu of %lu runs (floor %d.%d%%)", st->reached[k],
			 st->runs, FLOOR_REACHED / 10, FLOOR_REACHED % 10);
		check(st->reached[k] * 1000 >= FLOOR_REACHED * runs && st->reached[k], name,
		      detail, arg);
	}
}
