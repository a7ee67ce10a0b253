/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_DIFF_H
#define HOST_DIFF_H
#include "common.h"
#include "jitrun.h"

struct variant {
	const char *name;
	struct jit_opts o;
};
extern const struct variant variants[];
extern const unsigned int n_variants;
extern const char *save_dir;

struct diff_stats {
	unsigned long execs, programs, compiled, searched, ranges, callee_saved, known_x,
		add_runs, dead_loads, declined_conv_agree, declined_conservative, pcap_checks, saved;
};

/* Run one (program, case) on a compiled image; true if equal (results in exp, got) */
bool diff_run(const struct sock_filter *p, u32 len, const struct jit_prog *jp, unsigned int v,
	      const struct model_skb *skb, const struct test_case *tc, u32 *exp, u32 *got);
/* Compile with variant v and check the verdict against the conversion
 * oracle.  Returns 0 if compiled, 1 if (legitimately) declined, -1 bad. */
int diff_compile(const struct sock_filter *p, u32 len, unsigned int v, struct jit_prog *jp,
		 struct diff_stats *st, const char *what);
/* Minimise and save a failing case; returns the file name (static). */
const char *diff_save(const struct sock_filter *p, u32 len, const struct test_case *tc,
		      unsigned int v, const char *what);
void diff_install_crash_handler(void);
void diff_set_current(const struct sock_filter *p, u32 len, const struct test_case *tc,
		      unsigned int v);
#endif
