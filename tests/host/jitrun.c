// SPDX-License-Identifier: GPL-2.0
/* Compile classic programs with the kernel's code generator (compiled from
 * KSRC) into executable memory within rel32 reach of the host helpers. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jitrun.h"

struct cbpf_jit_env host_env_plain, host_env_hard;

/*
 * The kernel's images read SKF_AD_CPU as %gs:cpu_number.  Here %gs (which
 * glibc does not use on x86-64) points at a per-thread area whose
 * cpu_number slot jit_run() fills with host_cpu_value; the "hard"
 * environments use the inline load, the plain ones call host_cpu_id().
 */
struct host_gs_area {
	u32 other[37];
	u32 cpu_number;
};
static __thread struct host_gs_area host_gs;
static __thread bool host_gs_set;

void jit_env_init(void)
{
	struct cbpf_jit_env *e = &host_env_plain;

	memset(e, 0, sizeof(*e));
	e->skb_len = offsetof(struct model_skb, len);
	e->skb_data_len = offsetof(struct model_skb, data_len);
	e->skb_data = offsetof(struct model_skb, data);
	e->skb_head = offsetof(struct model_skb, head);
	e->skb_network_header = offsetof(struct model_skb, network_header);
	e->skb_mac_header = offsetof(struct model_skb, mac_header);
	e->skb_protocol = offsetof(struct model_skb, protocol);
	e->skb_mark = offsetof(struct model_skb, mark);
	e->skb_hash = offsetof(struct model_skb, hash);
	e->skb_queue_mapping = offsetof(struct model_skb, queue_mapping);
	e->skb_vlan_tci = offsetof(struct model_skb, vlan_tci);
	e->skb_vlan_proto = offsetof(struct model_skb, vlan_proto);
	e->skb_dev = offsetof(struct model_skb, dev);
	e->skb_pkt_type = offsetof(struct model_skb, flags1);
	e->pkt_type_mask = 7;
	e->pkt_type_shift = 0;
	e->skb_vlan_present = offsetof(struct model_skb, flags2);
	e->vlan_present_bit = 0;
	e->dev_ifindex = offsetof(struct model_dev, ifindex);
	e->dev_type = offsetof(struct model_dev, type);
	e->load_helper_8 = (unsigned long)host_cbpf_load_8;
	e->load_helper_16 = (unsigned long)host_cbpf_load_16;
	e->load_helper_32 = (unsigned long)host_cbpf_load_32;
	e->get_pay_offset = (unsigned long)host_pay_offset;
	e->get_nlattr = (unsigned long)host_nlattr;
	e->get_nlattr_nest = (unsigned long)host_nlattr_nest;
	e->get_raw_cpu_id = (unsigned long)host_cpu_id;
	e->user_rnd_u32 = (unsigned long)host_random;

	if (getenv("HOSTTEST_INJECT_BUG")) {
		/* harness self-test: a "JIT" that reads skb->hash for MARK */
		e->skb_mark = offsetof(struct model_skb, hash);
	}
	host_env_hard = *e;
	host_env_hard.return_thunk = (unsigned long)host_return_thunk;
	host_env_hard.sls = true;
	host_env_hard.endbr_insn = 0xfa1e0ff3;	/* endbr64 */
	host_env_hard.clear_bhb_loop = (unsigned long)host_clear_bhb;
	host_env_hard.ibhf = true;
	host_env_hard.cpu_number_inline = true;
	host_env_hard.cpu_number_gs = offsetof(struct host_gs_area, cpu_number);
}

const char *jit_verdict_name(enum cbpf_jit_verdict v)
{
	switch (v) {
	case CBPF_JIT_OK: return "OK";
	case CBPF_JIT_DECLINE_OPCODE: return "DECLINE_OPCODE";
	case CBPF_JIT_DECLINE_ANC: return "DECLINE_ANC";
	case CBPF_JIT_DECLINE_CONVERSION: return "DECLINE_CONVERSION";
	case CBPF_JIT_DECLINE_SIZE: return "DECLINE_SIZE";
	case CBPF_JIT_DECLINE_NOMEM: return "DECLINE_NOMEM";
	default: return "DECLINE_?";
	}
}

static int within_rel32(uintptr_t a, uintptr_t b, size_t len)
{
	int64_t d1 = (int64_t)(a - b), d2 = (int64_t)(a + len - b);

	return d1 > -0x70000000ll && d1 < 0x70000000ll && d2 > -0x70000000ll &&
	       d2 < 0x70000000ll;
}

/* Executable mapping within +-1.75 GB of the helpers (PIE or not). */
static void *exec_alloc(size_t len)
{
	uintptr_t anchor = (uintptr_t)host_load_helper_8, hint;
	void *p;
	int i;

	for (i = 0; i < 64; i++) {
		hint = (anchor & ~(uintptr_t)0xfffff) - ((uintptr_t)(i + 1) << 24);
		p = mmap((void *)hint, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (within_rel32((uintptr_t)p, anchor, len))
			return p;
		munmap(p, len);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (p != MAP_FAILED && within_rel32((uintptr_t)p, anchor, len))
		return p;
	fprintf(stderr, "cannot map executable memory near %p\n", (void *)anchor);
	abort();
}

u32 host_largest_piece;

/* The largest piece of code of @c's image: prologue, insn, exit, slow path. */
static void note_pieces(const struct cbpf_jit_ctx *c)
{
	u32 m = c->addrs[0], i, end;
	int k;

	for (i = 0; i < c->len; i++)
		if (c->addrs[i + 1] - c->addrs[i] > m)
			m = c->addrs[i + 1] - c->addrs[i];
	if (c->exit_size > m)
		m = c->exit_size;
	for (k = 0; k < CBPF_JIT_SLOW_KINDS; k++) {
		end = k + 1 < CBPF_JIT_SLOW_KINDS ? c->slow_off[k + 1] : c->slow_size;
		if (end - c->slow_off[k] > m)
			m = end - c->slow_off[k];
	}
	if (m > host_largest_piece)
		host_largest_piece = m;
}

int jit_compile(const struct sock_filter *insns, u32 len, const struct jit_opts *o,
		struct jit_prog *p)
{
	struct cbpf_jit_ctx *c = &p->ctx;
	long pg = sysconf(_SC_PAGESIZE);
	int sz;

	memset(p, 0, sizeof(*p));
	p->len = len;
	p->addrs = calloc(len + 1, sizeof(u32));
	p->jeq = calloc(len, sizeof(*p->jeq));
	if (!p->addrs || !p->jeq)
		abort();
	c->env = (o && (o->bhb || o->rethunk || o->sls || o->endbr || o->ibhf ||
			o->be_bitfields || o->vlan_all || o->call_depth)) ?
		 &host_env_hard : &host_env_plain;
	if (o && c->env == &host_env_hard) {
		/* per-option env copy so options can be varied one by one */
		static __thread struct cbpf_jit_env e;

		e = host_env_plain;
		if (o->rethunk)
			e.return_thunk = host_env_hard.return_thunk;
		e.sls = o->sls;
		e.endbr_insn = o->endbr ? host_env_hard.endbr_insn : 0;
		if (o->bhb)
			e.clear_bhb_loop = host_env_hard.clear_bhb_loop;
		e.ibhf = o->ibhf;
		e.cpu_number_inline = host_env_hard.cpu_number_inline;
		e.cpu_number_gs = host_env_hard.cpu_number_gs;
		if (o->be_bitfields) {
			e.pkt_type_mask = 0xe0;
			e.pkt_type_shift = 5;
			e.vlan_present_bit = 7;
		}
		if (o->vlan_all) {
			e.vlan_all = true;
			e.skb_vlan_present = offsetof(struct model_skb, vlan_all);
		}
		if (o->call_depth) {
			e.call_depth_len = HOST_CALL_DEPTH_LEN;
			e.call_depth_acct = host_call_depth_acct;
		}
		c->env = &e;
	}
	c->insns = insns;
	c->len = len;
	c->blind = o && o->blind;
	c->blind_seed = o ? o->blind_seed : 0;
	c->bhb_barrier = o && (o->bhb || o->unpriv);
	c->addrs = p->addrs;
	c->jeq = p->jeq;

	p->verdict = cbpf_jit_analyse(c);
	if (p->verdict != CBPF_JIT_OK)
		return 1;
	sz = cbpf_jit_size(c);
	p->size_ret = sz;
	p->passes = c->passes;
	if (sz < 0) {
		p->verdict = c->verdict != CBPF_JIT_OK ? c->verdict : CBPF_JIT_DECLINE_SIZE;
		return 1;
	}
	note_pieces(c);
	p->size = (u32)sz;
	p->map_len = ((size_t)sz + 16 + (size_t)pg - 1) & ~((size_t)pg - 1);
	p->image = exec_alloc(p->map_len);
	memset(p->image, 0xcc, p->map_len);
	p->rw = malloc((size_t)sz + 16);
	if (!p->rw)
		abort();
	memset(p->rw, 0xcc, (size_t)sz + 16);
	p->emit_ret = cbpf_jit_emit(c, p->rw, (unsigned long)p->image);
	if (p->emit_ret != sz) {
		fprintf(stderr, "cbpf_jit_emit returned %d, size %d\n", p->emit_ret, sz);
		return -1;
	}
	/* the generator must not write past the size it announced */
	for (sz = 0; sz < 16; sz++)
		if (p->rw[p->size + (u32)sz] != 0xcc) {
			fprintf(stderr, "cbpf_jit_emit wrote past its size\n");
			return -1;
		}
	memcpy(p->image, p->rw, p->size);
	if (mprotect(p->image, p->map_len, PROT_READ | PROT_EXEC))
		abort();
	return 0;
}

void jit_free(struct jit_prog *p)
{
	if (p->image)
		munmap(p->image, p->map_len);
	free(p->rw);
	free(p->addrs);
	free(p->jeq);
	memset(p, 0, sizeof(*p));
}

unsigned long host_abi_violations;

/*
 * jit_call_checked(skb, insns, f, &bad): f(skb, insns) with canaries in
 * the callee-saved rbx and r12-r15; *bad = 1 if the image returned with
 * any of them changed, or with rsp and rbp no longer where they were (the
 * SysV and kernel calling conventions the image is called under).
 */
u32 jit_call_checked(const void *skb, const void *insns, jit_fn f, u32 *bad);
__asm__(".text\n"
    ".type jit_call_checked, @function\n"
    "jit_call_checked:\n"
    "	push %rbp\n"
    "	mov %rsp, %rbp\n"
    "	push %rbx\n"
    "	push %r12\n"
    "	push %r13\n"
    "	push %r14\n"
    "	push %r15\n"
    "	push %rcx\n"
    "	movabs $0x5b5b5b5b5b5b5b01, %rbx\n"
    "	movabs $0x5b5b5b5b5b5b5b02, %r12\n"
    "	movabs $0x5b5b5b5b5b5b5b03, %r13\n"
    "	movabs $0x5b5b5b5b5b5b5b04, %r14\n"
    "	movabs $0x5b5b5b5b5b5b5b05, %r15\n"
    "	call *%rdx\n"
    "	xor %ecx, %ecx\n"
    "	movabs $0x5b5b5b5b5b5b5b01, %rdx\n"
    "	cmp %rdx, %rbx\n"
    "	setne %cl\n"
    "	movabs $0x5b5b5b5b5b5b5b02, %rdx\n"
    "	cmp %rdx, %r12\n"
    "	setne %dl\n"
    "	or %dl, %cl\n"
    "	movabs $0x5b5b5b5b5b5b5b03, %rdx\n"
    "	cmp %rdx, %r13\n"
    "	setne %dl\n"
    "	or %dl, %cl\n"
    "	movabs $0x5b5b5b5b5b5b5b04, %rdx\n"
    "	cmp %rdx, %r14\n"
    "	setne %dl\n"
    "	or %dl, %cl\n"
    "	movabs $0x5b5b5b5b5b5b5b05, %rdx\n"
    "	cmp %rdx, %r15\n"
    "	setne %dl\n"
    "	or %dl, %cl\n"
    "	lea -48(%rbp), %rdx\n"
    "	cmp %rdx, %rsp\n"
    "	setne %dl\n"
    "	or %dl, %cl\n"
    "	pop %rdx\n"
    "	movzbl %cl, %ecx\n"
    "	mov %ecx, (%rdx)\n"
    "	pop %r15\n"
    "	pop %r14\n"
    "	pop %r13\n"
    "	pop %r12\n"
    "	pop %rbx\n"
    "	pop %rbp\n"
    "	ret\n"
    ".size jit_call_checked, .-jit_call_checked\n");

u32 jit_run(const struct jit_prog *p, const struct model_skb *skb,
	    const struct sock_filter *insns)
{
	return jit_run_ctx(p, skb, insns);
}

u32 jit_run_ctx(const struct jit_prog *p, const void *skb, const struct sock_filter *insns)
{
	jit_fn f;
	u32 bad = 0, ret;

	if (!host_gs_set) {
		if (syscall(SYS_arch_prctl, ARCH_SET_GS, &host_gs)) {
			perror("arch_prctl(ARCH_SET_GS)");
			abort();
		}
		host_gs_set = true;
	}
	host_gs.cpu_number = host_cpu_value;
	memcpy(&f, &p->image, sizeof(f));
	ret = jit_call_checked(skb, insns, f, &bad);
	host_abi_violations += bad;
	return ret;
}
