/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_COMMON_H
#define HOST_COMMON_H
#include <stdbool.h>
#include <stdio.h>
#include <linux/filter.h>
#include "gen.h"

extern unsigned long n_passed, n_failed;
extern int verbose;

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		if (cond) {                                                  \
			n_passed++;                                          \
		} else {                                                     \
			n_failed++;                                          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
		}                                                            \
	} while (0)

/* corpus of tcpdump -dd programs */
struct corpus_prog {
	char name[64];
	char expr[160];
	struct sock_filter insns[BPF_MAXINSNS];
	u32 len;
};
int load_dd(const char *path, struct sock_filter *insns, u32 max, char *expr, size_t exprlen);
struct corpus_prog *load_corpus(const char *dir, u32 *n);

u32 bpf_filter_wrap(const struct sock_filter *p, const u8 *pkt, u32 len);

/* reproducer files */
void write_repro(FILE *f, const struct sock_filter *insns, u32 len, const struct test_case *tc,
		 const char *variant, u32 expect, u32 got, const char *note);
int read_repro(const char *path, struct sock_filter *insns, u32 *len, struct test_case *tc);
#endif
