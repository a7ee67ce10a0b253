/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_JITRUN_H
#define HOST_JITRUN_H
#include "bpf_jit_classic.h"
#include "skbmodel.h"

struct jit_opts {
	bool blind;
	u32 blind_seed;
	bool bhb;      /* ctx.bhb_barrier + env.clear_bhb_loop */
	bool unpriv;   /* ctx.bhb_barrier only: a CPU that needs no sequence */
	bool rethunk;  /* env.return_thunk */
	bool sls;
	bool endbr;
	bool ibhf;
	bool be_bitfields; /* env: big-endian bitfield layout (model_be_bitfields) */
	bool vlan_all;     /* env: a tag is present iff vlan_all != 0 (model_vlan_all) */
	bool call_depth;   /* env: call depth accounting before every call */
};

struct jit_prog {
	enum cbpf_jit_verdict verdict; /* CBPF_JIT_OK or why declined */
	int size_ret;                  /* cbpf_jit_size() result */
	int emit_ret;                  /* cbpf_jit_emit() result */
	u32 size, passes;
	u8 *image;                     /* executable copy */
	u8 *rw;                        /* RW copy the generator wrote */
	size_t map_len;
	u32 *addrs;                    /* len + 1 */
	struct cbpf_jit_jeq *jeq;      /* len */
	u32 len;
	struct cbpf_jit_ctx ctx;
};

typedef unsigned int (*jit_fn)(const void *skb, const void *insns);

void jit_env_init(void);
/* 0: compiled (p->image valid); > 0: declined (p->verdict); < 0: error */
int jit_compile(const struct sock_filter *insns, u32 len, const struct jit_opts *o,
		struct jit_prog *p);
void jit_free(struct jit_prog *p);
u32 jit_run(const struct jit_prog *p, const struct model_skb *skb,
	    const struct sock_filter *insns);
/* the same with any context: a seccomp filter's struct seccomp_data */
u32 jit_run_ctx(const struct jit_prog *p, const void *ctx, const struct sock_filter *insns);
const char *jit_verdict_name(enum cbpf_jit_verdict v);
extern struct cbpf_jit_env host_env_plain, host_env_hard;
/* runs that returned with a callee-saved register or rsp changed */
extern unsigned long host_abi_violations;
/* the largest piece of code jit_compile() saw (bound: CBPF_JIT_MAX_INSN_BYTES) */
extern u32 host_largest_piece;
#endif
