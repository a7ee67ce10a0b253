// SPDX-License-Identifier: GPL-2.0
/*
 * Emitter unit tests: bytes checked by disassembling them with objdump and
 * comparing with hand-written assembly (AT&T, objdump spelling) derived
 * from the machine model documented at the top of the generator (A = eax,
 * X = ecx, skb = rdi, data = rsi, headlen = r9d, M[] in r8d/r10d/stack),
 * not from the emitter's tables; shortest jumps in one sizing pass on
 * adversarial chains; 4096-insn programs; the sizing bound; blinding.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"
#include "refinterp.h"
#include "reach.h"

#define I(c, t, f, kk) { .code = (c), .jt = (t), .jf = (f), .k = (kk) }
#define AD(x) ((u32)SKF_AD_OFF + SKF_AD_##x)

/* ---- objdump wrapper ---- */

/* Disassemble n bytes; returns the instruction lines joined by "; ", each
 * with whitespace collapsed, "# comment" dropped, branch/call targets
 * replaced by "T" and rip-relative displacements by "D". */
static char *disasm(const u8 *buf, u32 n)
{
	static char out[65536];
	char tmpl[] = "/tmp/cbpf-unit-XXXXXX", cmd[256], line[512];
	FILE *f;
	int fd = mkstemp(tmpl);
	size_t o = 0;

	out[0] = 0;
	if (fd < 0 || write(fd, buf, n) != (ssize_t)n) {
		if (fd >= 0)
			close(fd);
		return strcpy(out, "(io error)");
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "objdump -D -b binary -mi386:x86-64 --no-show-raw-insn %s 2>&1", tmpl);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *s = strstr(line, ":\t"), *c, ins[512];
		size_t k = 0;
		bool sp = false;

		if (!s || strstr(line, "file format"))
			continue;
		s += 2;
		if ((c = strchr(s, '#')))
			*c = 0;
		for (; *s && *s != '\n'; s++) {
			if (*s == ' ' || *s == '\t') {
				sp = k > 0;
				continue;
			}
			if (sp)
				ins[k++] = ' ';
			sp = false;
			ins[k++] = *s;
		}
		ins[k] = 0;
		if (!k)
			continue;
		if ((ins[0] == 'j' || !strncmp(ins, "call", 4)) && (c = strstr(ins, " 0x")))
			strcpy(c, " T");
		if ((c = strstr(ins, "(%rip)"))) {
			char *d = c;

			while (d > ins && d[-1] != ' ' && d[-1] != ',')
				d--;
			memmove(d + 1, c, strlen(c) + 1);
			*d = 'D';
		}
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s", o ? "; " : "", ins);
	}
	if (f)
		pclose(f);
	unlink(tmpl);
	return out;
}

struct asm_case {
	const char *name;
	struct sock_filter p[6];
	u32 len;
	u32 at;        /* insn whose bytes are checked; len: the tail */
	int variant;   /* index in variants[] */
	const char *want;
};

static char want_buf[64][512];

static const char *fmt(int slot, const char *f, long v)
{
	snprintf(want_buf[slot], sizeof(want_buf[slot]), f, v);
	return want_buf[slot];
}

static void run_asm_case(const struct asm_case *c)
{
	struct jit_prog jp;
	const char *got;
	u32 from, to;

	if (jit_compile(c->p, c->len, &variants[c->variant].o, &jp)) {
		CHECK(0, "asm '%s': not compiled (%s)", c->name, jit_verdict_name(jp.verdict));
		jit_free(&jp);
		return;
	}
	from = c->at == (u32)-1 ? 0 : jp.addrs[c->at];
	if (c->at == (u32)-1)
		to = jp.addrs[0];
	else if (c->at == c->len)
		to = jp.size;
	else
		to = jp.addrs[c->at + 1];
	got = disasm(jp.image + from, to - from);
	CHECK(!strcmp(got, c->want), "asm '%s':\n   want: %s\n    got: %s", c->name, c->want, got);
	if (verbose)
		printf("  asm %-28s %s\n", c->name, got);
	jit_free(&jp);
}

static void test_asm(void)
{
	const long off_len = (long)offsetof(struct model_skb, len);
	const long off_mark = (long)offsetof(struct model_skb, mark);
	const long off_tci = (long)offsetof(struct model_skb, vlan_tci);
	const long off_proto = (long)offsetof(struct model_skb, protocol);
	const long off_dev = (long)offsetof(struct model_skb, dev);
	const long off_pkt = (long)offsetof(struct model_skb, flags1);
	const long off_data = (long)offsetof(struct model_skb, data);
	const long off_dlen = (long)offsetof(struct model_skb, data_len);
	const long off_ifx = (long)offsetof(struct model_dev, ifindex);
	const long off_vall = (long)offsetof(struct model_skb, vlan_all);
	const long off_mach = (long)offsetof(struct model_skb, mac_header);
	const long off_neth = (long)offsetof(struct model_skb, network_header);
	const long off_head = (long)offsetof(struct model_skb, head);
	const struct sock_filter RA = I(BPF_RET | BPF_A, 0, 0, 0);
#if HOST_HAVE_BE_LOADS
	const struct sock_filter R0 = I(BPF_RET | BPF_K, 0, 0, 0), R1 = I(BPF_RET | BPF_K, 0, 0, 1);
#endif
	const struct sock_filter X0 = I(BPF_LDX | BPF_IMM, 0, 0, 9); /* makes X live */
	/* X unknown to the JIT (not a lone "ldx #k"): ld [x + k] stays indirect */
	const struct sock_filter XL = I(BPF_LDX | BPF_W | BPF_LEN, 0, 0, 0);
	struct asm_case cases[] = {
		{ "add k imm8", { I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 5), RA }, 2, 0, 0,
		  "add $0x5,%eax" },
		{ "add k imm32", { I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 0x12345678), RA }, 2, 0, 0,
		  "add $0x12345678,%eax" },
		{ "sub k", { I(BPF_ALU | BPF_SUB | BPF_K, 0, 0, 1000), RA }, 2, 0, 0,
		  "sub $0x3e8,%eax" },
		/* a run of add/sub #k before any jump: its sum, at its last insn */
		{ "add/sub run: the sum", { I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 1),
		  I(BPF_ALU | BPF_SUB | BPF_K, 0, 0, 3), I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 0x100),
		  RA }, 4, 2, 0, "add $0xfe,%eax" },
		{ "add/sub run: no code before", { I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 1),
		  I(BPF_ALU | BPF_SUB | BPF_K, 0, 0, 3), RA }, 3, 0, 0, "" },
		/* an skb field load whose A nobody reads */
		{ "dead ld vlan_avail", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(VLAN_TAG_PRESENT)),
		  I(BPF_LD | BPF_IMM, 0, 0, 1), RA }, 3, 0, 0, "" },
		{ "and k -2", { I(BPF_ALU | BPF_AND | BPF_K, 0, 0, 0xfffffffe), RA }, 2, 0, 0,
		  "and $0xfffffffe,%eax" },
		{ "or k", { I(BPF_ALU | BPF_OR | BPF_K, 0, 0, 0x80), RA }, 2, 0, 0,
		  "or $0x80,%eax" },
		{ "xor x", { X0, I(BPF_ALU | BPF_XOR | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "xor %ecx,%eax" },
		{ "add x", { X0, I(BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "add %ecx,%eax" },
		{ "sub x", { X0, I(BPF_ALU | BPF_SUB | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "sub %ecx,%eax" },
		{ "mul x", { X0, I(BPF_ALU | BPF_MUL | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "imul %ecx,%eax" },
		{ "mul k", { I(BPF_ALU | BPF_MUL | BPF_K, 0, 0, 1000), RA }, 2, 0, 0,
		  "imul $0x3e8,%eax,%eax" },
		{ "lsh k", { I(BPF_ALU | BPF_LSH | BPF_K, 0, 0, 3), RA }, 2, 0, 0, "shl $0x3,%eax" },
		{ "rsh k", { I(BPF_ALU | BPF_RSH | BPF_K, 0, 0, 31), RA }, 2, 0, 0, "shr $0x1f,%eax" },
		{ "lsh x", { X0, I(BPF_ALU | BPF_LSH | BPF_X, 0, 0, 0), RA }, 3, 1, 0, "shl %cl,%eax" },
		{ "rsh x", { X0, I(BPF_ALU | BPF_RSH | BPF_X, 0, 0, 0), RA }, 3, 1, 0, "shr %cl,%eax" },
		{ "neg", { I(BPF_ALU | BPF_NEG, 0, 0, 0), RA }, 2, 0, 0, "neg %eax" },
		{ "div k (not 2^n)", { I(BPF_ALU | BPF_DIV | BPF_K, 0, 0, 10), RA }, 2, 0, 0,
		  "mov $0xa,%r11d; xor %edx,%edx; div %r11d" },
		{ "mod k (not 2^n)", { I(BPF_ALU | BPF_MOD | BPF_K, 0, 0, 7), RA }, 2, 0, 0,
		  "mov $0x7,%r11d; xor %edx,%edx; div %r11d; mov %edx,%eax" },
		{ "div x", { X0, I(BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "test %ecx,%ecx; je T; xor %edx,%edx; div %ecx" },
		{ "mod x", { X0, I(BPF_ALU | BPF_MOD | BPF_X, 0, 0, 0), RA }, 3, 1, 0,
		  "test %ecx,%ecx; je T; xor %edx,%edx; div %ecx; mov %edx,%eax" },
		{ "ld imm", { I(BPF_LD | BPF_IMM, 0, 0, 0x11223344), RA }, 2, 0, 0,
		  "mov $0x11223344,%eax" },
		{ "ldx imm", { I(BPF_LDX | BPF_IMM, 0, 0, 7), I(BPF_MISC | BPF_TXA, 0, 0, 0), RA }, 3, 0,
		  0, "mov $0x7,%ecx" },
		{ "tax", { I(BPF_MISC | BPF_TAX, 0, 0, 0), I(BPF_MISC | BPF_TXA, 0, 0, 0), RA }, 3, 0, 0,
		  "mov %eax,%ecx" },
		{ "txa", { X0, I(BPF_MISC | BPF_TXA, 0, 0, 0), RA }, 3, 1, 0, "mov %ecx,%eax" },
		{ "ld len", { I(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0), RA }, 2, 0, 0,
		  fmt(0, "mov 0x%lx(%%rdi),%%eax", off_len) },
		{ "ldx len", { I(BPF_LDX | BPF_W | BPF_LEN, 0, 0, 0), I(BPF_MISC | BPF_TXA, 0, 0, 0), RA },
		  3, 0, 0, fmt(1, "mov 0x%lx(%%rdi),%%ecx", off_len) },
		{ "ld mark", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(MARK)), RA }, 2, 0, 0,
		  fmt(2, "mov 0x%lx(%%rdi),%%eax", off_mark) },
		{ "ld vlan tag (byte size)", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, AD(VLAN_TAG)), RA }, 2,
		  0, 0, fmt(3, "movzwl 0x%lx(%%rdi),%%eax", off_tci) },
		{ "ld protocol", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, AD(PROTOCOL)), RA }, 2, 0, 0,
		  fmt(4, "movzwl 0x%lx(%%rdi),%%eax; ror $0x8,%%ax", off_proto) },
		{ "ld pkttype", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, AD(PKTTYPE)), RA }, 2, 0, 0,
		  fmt(5, "movzbl 0x%lx(%%rdi),%%eax; and $0x7,%%eax", off_pkt) },
		{ "ld ifindex", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(IFINDEX)), RA }, 2, 0, 0,
		  want_buf[6] },
		{ "st M[0] (reg)", { I(BPF_ST, 0, 0, 0), I(BPF_LD | BPF_MEM, 0, 0, 0), RA }, 3, 0, 0,
		  "mov %eax,%r8d" },
		{ "ld M[0] (reg)", { I(BPF_ST, 0, 0, 0), I(BPF_LD | BPF_MEM, 0, 0, 0), RA }, 3, 1, 0,
		  "mov %r8d,%eax" },
		{ "jeq k jt/jf", { I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 5), RA, RA }, 3, 0, 0,
		  "cmp $0x5,%eax; jne T" },
		{ "jgt k jt", { I(BPF_JMP | BPF_JGT | BPF_K, 1, 0, 0x1000), RA, RA }, 3, 0, 0,
		  "cmp $0x1000,%eax; ja T" },
		{ "jge x both", { X0, I(BPF_JMP | BPF_JGE | BPF_X, 1, 2, 0), RA, RA, RA }, 5, 1, 0,
		  "cmp %ecx,%eax; jae T; jmp T" },
		{ "jset k", { I(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 0x10000), RA, RA }, 3, 0, 0,
		  "test $0x10000,%eax; jne T" },
		{ "jeq neg k", { I(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0xffffffff), RA, RA }, 3, 0, 0,
		  "cmp $0xffffffff,%eax; je T" },
		{ "ja", { I(BPF_JMP | BPF_JA, 0, 0, 1), RA, RA }, 3, 0, 0, "jmp T" },
		{ "ret k", { I(BPF_RET | BPF_K, 0, 0, 0x42) }, 1, 0, 0, "mov $0x42,%eax; pop %rbp; ret" },
		{ "ret a, sls", { I(BPF_LD | BPF_IMM, 0, 0, 1), RA }, 2, 1, 6, "pop %rbp; ret; int3" },
		{ "ret a, rethunk", { I(BPF_LD | BPF_IMM, 0, 0, 1), RA }, 2, 1, 5, "pop %rbp; jmp T" },
		{ "ld [12] w, one load: slow path in line", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 12), RA }, 2, 0, 0,
		  "cmp $0x10,%r9d; jae T; mov $0xc,%ecx; mov %r9d,%edx; call T; test %rax,%rax; js T; jmp T; mov 0xc(%rsi),%eax; bswap %eax" },
		{ "ldb [x+3], one load: slow path in line", { XL, I(BPF_LD | BPF_B | BPF_IND, 0, 0, 3), RA }, 3, 1, 0,
		  "lea 0x4(%rcx),%rdx; cmp %r9,%rdx; jbe T; lea -0x1(%rdx),%ecx; mov %r9d,%edx; call T; test %rax,%rax; js T; jmp T; movzbl -0x1(%rsi,%rdx,1),%eax" },
		{ "prologue (packet loads, X)", { I(BPF_MISC | BPF_TXA, 0, 0, 0),
		  I(BPF_LD | BPF_B | BPF_ABS, 0, 0, 3), RA }, 3,
		  (u32)-1, 0, want_buf[7] },
		{ "ret a alone", { RA }, 1, (u32)-1, 0, "push %rbp; mov %rsp,%rbp; xor %eax,%eax" },
		/* seccomp's rewritten LD|W|ABS: a u32 of struct seccomp_data */
		{ "seccomp ldx|w|abs [4] (arch)", { I(BPF_LDX | BPF_W | BPF_ABS, 0, 0, 4), RA }, 2, 0, 0,
		  "mov 0x4(%rdi),%eax" },
		/* Every image has a frame, for the ORC unwinder's frame-pointer fallback. */
		{ "prologue (frame: M[] on stack, calls)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1),
		  I(BPF_ST, 0, 0, 2), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 5, (u32)-1, 0,
		  "push %rbp; mov %rsp,%rbp; sub $0x10,%rsp; xor %eax,%eax" },
		{ "ret a (frame: leave)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1),
		  I(BPF_ST, 0, 0, 2), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 5, 4, 0,
		  "leave; ret" },
		{ "anc call (frame: M[] on stack)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1),
		  I(BPF_ST, 0, 0, 2), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 5, 3, 0,
		  "mov %eax,%esi; mov %ecx,%edx; call T" },
		/* Saved around a call: only what an insn after it reads. */
		{ "anc call, skb and X read after it", { X0, I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(RANDOM)),
		  I(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0), I(BPF_MISC | BPF_TXA, 0, 0, 0), RA }, 5, 1, 0,
		  "push %rdi; push %rcx; mov %eax,%esi; mov %ecx,%edx; call T; pop %rcx; pop %rdi" },
		{ "anc call, M[1] read after it (frame: M[] on stack)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1),
		  I(BPF_ST, 0, 0, 2), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(RANDOM)), I(BPF_LD | BPF_MEM, 0, 0, 1), RA }, 6, 3, 0,
		  "push %r10; push %r11; mov %eax,%esi; mov %ecx,%edx; call T; pop %r11; pop %r10" },
		{ "anc call (frame in the prologue)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 2, 0, 0,
		  "mov %eax,%esi; mov %ecx,%edx; call T" },
		{ "ld cpu inline (%gs:cpu_number)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 2, 0, 5,
		  "mov %gs:0x94,%eax" },
		{ "ret a (frame, no stack: pop rbp)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(CPU)), RA }, 2,
		  1, 0, "pop %rbp; ret" },
		{ "ld [12] h, one load: tail (ret0 only)", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12), RA }, 2,
		  2, 0, "xor %eax,%eax; pop %rbp; ret" },
		{ "two h loads: shared slow path", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14), RA }, 3, 3, 0,
		  "xor %eax,%eax; pop %rbp; ret; push %rdi; push %rsi; push %r9; lea -0x2(%rdx),%ecx; mov %r9d,%edx; call T; pop %r9; pop %rsi; pop %rdi; ret" },
		{ "two h loads: call to the shared slow path", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14), RA }, 3, 1, 0,
		  "cmp $0x10,%r9d; jae T; mov $0x10,%edx; call T; test %rax,%rax; js T; jmp T; movzwl 0xe(%rsi),%eax; ror $0x8,%ax" },
		{ "two ldb [x+k]: in-line call", { XL, I(BPF_LD | BPF_B | BPF_IND, 0, 0, 3),
		  I(BPF_LD | BPF_B | BPF_IND, 0, 0, 5), RA }, 4, 2, 0,
		  "lea 0x6(%rcx),%rdx; cmp %r9,%rdx; jbe T; call T; test %rax,%rax; js T; jmp T; movzbl -0x1(%rsi,%rdx,1),%eax" },
		{ "two msh (frame: M[] on stack)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1), I(BPF_ST, 0, 0, 2),
		  I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14), I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 15), RA }, 6, 6, 0,
		  "xor %eax,%eax; leave; ret; push %rdi; push %rsi; push %r9; push %rax; push %r11; lea -0x1(%rdx),%ecx; mov %r9d,%edx; call T; mov %rax,%rdx; pop %r11; pop %rax; pop %r9; pop %rsi; pop %rdi; mov %edx,%ecx; and $0xf,%ecx; shl $0x2,%ecx; ret" },
		{ "two msh: in-line call (frame: M[] on stack)", { I(BPF_ST, 0, 0, 0), I(BPF_ST, 0, 0, 1), I(BPF_ST, 0, 0, 2),
		  I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14), I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 15), RA }, 6, 3, 0,
		  "cmp $0xf,%r9d; jae T; mov $0xf,%edx; call T; test %rdx,%rdx; js T; jmp T; movzbl 0xe(%rsi),%ecx; and $0xf,%ecx; shl $0x2,%ecx" },
		/* ld ifindex first: no device returns A == 0 through ret0, not zeroed first */
		{ "prologue (ld ifindex first)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(IFINDEX)), RA }, 2,
		  (u32)-1, 0, "push %rbp; mov %rsp,%rbp" },
		{ "tail (ld ifindex first): ret0", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(IFINDEX)), RA }, 2,
		  2, 0, "xor %eax,%eax; pop %rbp; ret" },
		/* X known ("ldx #9" before any jump, or 0 before any write) */
		{ "ldb [x+3], X not written yet: ldb [3]", { I(BPF_LD | BPF_B | BPF_IND, 0, 0, 3), XL, RA }, 3,
		  0, 0, "cmp $0x4,%r9d; jae T; push %rdi; push %r11; mov $0x3,%ecx; mov %r9d,%edx; call T; pop %r11; pop %rdi; test %rax,%rax; js T; jmp T; movzbl 0x3(%rsi),%eax" },
		{ "ldb [x+3], X known: ldb [12]", { X0, I(BPF_LD | BPF_B | BPF_IND, 0, 0, 3), RA }, 3, 1, 0,
		  "cmp $0xd,%r9d; jae T; mov $0xc,%ecx; mov %r9d,%edx; call T; test %rax,%rax; js T; jmp T; movzbl 0xc(%rsi),%eax" },
		/* Two calls on every run: skb in rbx, X in r15, pushed once. */
		{ "prologue (callee-saved)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)),
		  I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)), RA }, 3, (u32)-1, 0,
		  "push %rbp; mov %rsp,%rbp; push %rbx; push %r15; mov %rdi,%rbx; xor %eax,%eax; xor %r15d,%r15d" },
		{ "anc call (callee-saved)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)),
		  I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)), RA }, 3, 1, 0,
		  "mov %eax,%esi; mov %r15d,%edx; mov %rbx,%rdi; call T" },
		{ "ret a (callee-saved)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)),
		  I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(NLATTR)), RA }, 3, 2, 0,
		  "pop %r15; pop %rbx; pop %rbp; ret" },
		{ "ldb [-0x200001] (callee-saved)", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, SKF_LL_OFF - 1),
		  I(BPF_LD | BPF_B | BPF_ABS, 0, 0, SKF_LL_OFF - 1), RA }, 3, 1, 0,
		  "mov $0xffdfffff,%ecx; mov %r13d,%edx; mov %rbx,%rdi; mov %r14,%rsi; call T; test %rax,%rax; js T" },
		/* SKF_LL_OFF + n, SKF_NET_OFF + n: from the header's offset, in line */
		{ "ldb [SKF_LL_OFF + 0]", { I(BPF_LD | BPF_B | BPF_ABS, 0, 0, SKF_LL_OFF), RA }, 2, 0, 0,
		  want_buf[9] },
		{ "ldh [SKF_NET_OFF + 14]", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, SKF_NET_OFF + 14), RA }, 2, 0, 0,
		  want_buf[10] },
		{ "bhb exit", { I(BPF_LD | BPF_IMM, 0, 0, 1), RA }, 2, 2, 4,
		  "push %rax; push %rcx; call T; pop %rcx; pop %rax; pop %rbp; ret" },
		/* Linux 6.2+: a tag is present iff skb->vlan_all != 0 */
		{ "ld vlan_avail (vlan_all)", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, AD(VLAN_TAG_PRESENT)), RA },
		  2, 0, 10, fmt(8, "xor %%eax,%%eax; cmpl $0x0,0x%lx(%%rdi); setne %%al", off_vall) },
#if HOST_HAVE_BE_LOADS
		/* loads only compared with constants: left in network byte order */
		{ "ldh [12]; jeq #0x800: slow path in line, no ror on the fast one",
		  { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12), I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), R1, R0 },
		  4, 0, 0,
		  "cmp $0xe,%r9d; jae T; mov $0xc,%ecx; mov %r9d,%edx; call T; test %rax,%rax; js T; ror $0x8,%ax; jmp T; movzwl 0xc(%rsi),%eax" },
		{ "ldh [12]; jeq #0x800: cmp $0x8", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), R1, R0 }, 4, 1, 0, "cmp $0x8,%eax; jne T" },
		{ "ldh [x+14]; jeq #80: cmp ax, imm16", { XL, I(BPF_LD | BPF_H | BPF_IND, 0, 0, 14),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 80), R1, R0 }, 5, 2, 0, "cmp $0x5000,%ax; jne T" },
		{ "ldh [20]; jset #0x1fff: swapped mask", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 20),
		  I(BPF_JMP | BPF_JSET | BPF_K, 0, 1, 0x1fff), R1, R0 }, 4, 1, 0, "test $0xff1f,%eax; je T" },
		{ "ldh [20]; jset #0x40: test ah", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 20),
		  I(BPF_JMP | BPF_JSET | BPF_K, 0, 1, 0x40), R1, R0 }, 4, 1, 0, "test $0x40,%ah; je T" },
		{ "ld [26]; jeq #0x0a000001: bswapped key", { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 26),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x0a000001), R1, R0 }, 4, 1, 0,
		  "cmp $0x100000a,%eax; jne T" },
		{ "ldh [12]; jeq #0x10000: no half-word equals it", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x10000), R1, R0 }, 4, 1, 0, "cmp $0x10000,%eax; jne T" },
		{ "ldh [12]; jgt: host order", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JGT | BPF_K, 0, 1, 0x800), R1, R0 }, 4, 1, 0, "cmp $0x800,%eax; jbe T" },
		{ "ldh [12]; jeq, then ret a: host order", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), RA, R0 }, 4, 1, 0, "cmp $0x800,%eax; jne T" },
		{ "two ldh merged before a jeq: one group, in network order", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 1), I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), R1, R0 }, 6, 3, 0, "cmp $0x8,%eax; jne T" },
		{ "ldh and ld merged before a jeq: host order", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 1), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 14),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), R1, R0 }, 6, 3, 0, "cmp $0x800,%eax; jne T" },
		{ "two ldh merged, one read by jgt: host order", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_JMP | BPF_JGT | BPF_K, 0, 1, 1), I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14),
		  I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x800), R1, R0 }, 6, 3, 0, "cmp $0x800,%eax; jne T" },
		{ "two ld w merged at a ret #k: shared slow path in network order",
		  { I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 26), I(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 1),
		  I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 30), I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 2), R1, R0 }, 6, 6, 0,
		  "push %rdi; push %rsi; push %r9; lea -0x4(%rdx),%ecx; mov %r9d,%edx; call T; pop %r9; pop %rsi; pop %rdi; test %rax,%rax; js T; bswap %eax; ret" },
#endif
		/* call depth accounting (here: lock incq) before every call */
		{ "two h loads: call site (call depth)", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14), RA }, 3, 1, 11,
		  "cmp $0x10,%r9d; jae T; mov $0x10,%edx; lock incq D(%rip); call T; test %rax,%rax; js T; jmp T; movzwl 0xe(%rsi),%eax; ror $0x8,%ax" },
		{ "two h loads: shared slow path (call depth)", { I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		  I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 14), RA }, 3, 3, 11,
		  "xor %eax,%eax; pop %rbp; jmp T; push %rdi; push %rsi; push %r9; lea -0x2(%rdx),%ecx; mov %r9d,%edx; lock incq D(%rip); call T; pop %r9; pop %rsi; pop %rdi; jmp T" },
		/* endbr64 as the environment gives it (the kernel: gen_endbr()) */
		{ "prologue (endbr)", { I(BPF_LD | BPF_IMM, 0, 0, 1), RA }, 2, (u32)-1, 8, "endbr64; push %rbp; mov %rsp,%rbp" },
	};
	unsigned int i;

	snprintf(want_buf[6], sizeof(want_buf[6]),
		 "mov 0x%lx(%%rdi),%%rdx; test %%rdx,%%rdx; je T; mov 0x%lx(%%rdx),%%eax", off_dev,
		 off_ifx);
	snprintf(want_buf[9], sizeof(want_buf[9]),
		 "movzwl 0x%lx(%%rdi),%%edx; cmp $0xffff,%%edx; je T; add 0x%lx(%%rdi),%%rdx; sub %%rsi,%%rdx; lea 0x1(%%rdx),%%r11; cmp %%r9,%%r11; jle T; mov $0xffe00000,%%ecx; mov %%r9d,%%edx; call T; test %%rax,%%rax; js T; jmp T; movzbl (%%rsi,%%rdx,1),%%eax",
		 off_mach, off_head);
	snprintf(want_buf[10], sizeof(want_buf[10]),
		 "movzwl 0x%lx(%%rdi),%%edx; add 0x%lx(%%rdi),%%rdx; sub %%rsi,%%rdx; lea 0x10(%%rdx),%%r11; cmp %%r9,%%r11; jle T; mov $0xfff0000e,%%ecx; mov %%r9d,%%edx; call T; test %%rax,%%rax; js T; jmp T; movzwl 0xe(%%rsi,%%rdx,1),%%eax; ror $0x8,%%ax",
		 off_neth, off_head);
	snprintf(want_buf[7], sizeof(want_buf[7]),
		 "push %%rbp; mov %%rsp,%%rbp; xor %%ecx,%%ecx; mov 0x%lx(%%rdi),%%rsi; mov 0x%lx(%%rdi),%%r9d; sub 0x%lx(%%rdi),%%r9d",
		 off_data, off_len, off_dlen);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_asm_case(&cases[i]);
	printf("emitter bytes vs hand-written assembly (objdump): %u cases\n", i);
}

/* ---- helpers for whole-program checks ---- */

static struct test_case *small_cases(unsigned int n, u64 seed)
{
	static struct test_case tc[64];
	struct rng r = { seed };
	unsigned int i;

	for (i = 0; i < n && i < 64; i++) {
		gen_packet(&r, &tc[i]);
		if (i < 40)
			tc[i].len = i; /* A = len & 31 drives the chains */
		gen_skb_meta(&r, &tc[i], i % 2);
	}
	return tc;
}

/* compile (variant v) and compare with the reference on n cases;
 * returns the verdict, *passes the sizing passes */
static enum cbpf_jit_verdict run_prog(const struct sock_filter *p, u32 len, unsigned int v,
				      unsigned int n, const char *what, u32 *passes, u32 *size)
{
	struct test_case *tc = small_cases(n, len * 7919u + v);
	struct jit_prog jp;
	enum cbpf_jit_verdict vd;
	unsigned int i;
	int rc = jit_compile(p, len, &variants[v].o, &jp);

	*passes = jp.ctx.passes;
	*size = jp.size;
	vd = jp.verdict;
	CHECK(rc >= 0, "%s: generator error (size %d, emit %d)", what, jp.size_ret, jp.emit_ret);
	CHECK(rc != 0 || jp.ctx.passes == 1, "%s: sizing ran %u passes", what, jp.ctx.passes);
	if (rc == 0) {
		CHECK(jp.size <= (2 * len + 8) * CBPF_JIT_MAX_INSN_BYTES,
		      "%s: image %u bytes for %u insns", what, jp.size, len);
		for (i = 0; i < n; i++) {
			struct model_dev dev;
			struct model_skb *s = tc_build(&tc[i], &dev);
			u32 e, g;

			diff_set_current(p, len, &tc[i], v);
			CHECK(diff_run(p, len, &jp, v, s, &tc[i], &e, &g),
			      "%s (variant %s): reference %#x JIT %#x, saved %s", what,
			      variants[v].name, e, g, diff_save(p, len, &tc[i], v, what));
			model_skb_free(s);
		}
	}
	jit_free(&jp);
	return vd;
}

/* Size of a jump with displacement d: rel8 when it fits */
static u32 jump_bytes(s32 d, bool cond)
{
	return d >= -128 && d <= 127 ? 2 : cond ? 6 : 5;
}

static u32 cmp_bytes(u32 k)
{
	return !k ? 2 : (s32)k >= -128 && (s32)k <= 127 ? 3 : 5;
}

/* Bytes of the test of interval q of a run (emit_jeq_test()) */
static u32 jeq_test_bytes(const struct sock_filter *p, const struct cbpf_jit_jeq *j, u32 q)
{
	u32 lo = p[j[q].key].k, hi = p[j[q].key_hi].k;

	if (lo == hi)
		return cmp_bytes(lo);
	if (!lo)
		return cmp_bytes(hi);
	return (cmp_bytes(-lo) == 3 ? 3 : 6) + (cmp_bytes(hi - lo) == 3 ? 3 : 6);
}

/*
 * Shortest size of the search step at insn i of a run of jeq #k: a node
 * tests its middle interval ("cmp; je hit; jb left" for one key, else
 * "cmp lo; jb left; cmp hi; jbe hit"), a leaf tests each interval and
 * jumps to its target, then to the run's miss target unless that is
 * where the leaf ends.
 */
static u32 jeq_step_bytes(const struct sock_filter *p, const struct jit_prog *jp, u32 i)
{
	const struct cbpf_jit_jeq *j = jp->jeq, *s = &j[i];
	u32 *a = jp->addrs, end = a[i + 1], n = s->hi - s->lo, q, pos, miss, hit, lo, hi, jb;

	if (!n)
		return 0;
	if (n > 4) {
		q = s->lo + n / 2;
		hit = a[j[q].key + 1 + p[j[q].key].jt];
		lo = p[j[q].key].k;
		hi = p[j[q].key_hi].k;
		if (lo == hi) {
			jb = jump_bytes((s32)(a[s->left] - end), true);
			return cmp_bytes(lo) + jb + jump_bytes((s32)(hit - (end - jb)), true);
		}
		pos = end - jump_bytes((s32)(hit - end), true) - cmp_bytes(hi);
		return end - pos + cmp_bytes(lo) + jump_bytes((s32)(a[s->left] - pos), true);
	}
	miss = a[s->end + p[s->end - 1].jf];
	pos = miss == end ? end : end - jump_bytes((s32)(miss - end), false);
	for (q = n; q-- > 0;) {
		hit = a[j[s->lo + q].key + 1 + p[j[s->lo + q].key].jt];
		pos -= jeq_test_bytes(p, j, s->lo + q) + jump_bytes((s32)(hit - pos), true);
	}
	return end - pos;
}

/*
 * Every jump of a chain compiled without blinding has its shortest
 * encoding, checked from the insn addresses alone: a jump insn is its
 * compare ("test eax, eax" for k = 0, else "cmp eax, imm8"; none when
 * jt == jf) and its rel8 or rel32 jumps, whose displacements follow from
 * the addresses of the targets.  Returns the number of jump insns checked.
 */
static u32 check_shortest(const struct sock_filter *p, u32 len, const char *what)
{
	struct jit_prog jp;
	u32 i, n = 0;

	if (jit_compile(p, len, NULL, &jp) != 0) {
		CHECK(0, "%s: plain variant not compiled", what);
		jit_free(&jp);
		return 0;
	}
	for (i = 0; i < len; i++) {
		const struct sock_filter *f = &p[i];
		u32 *a = jp.addrs, end = a[i + 1], want;
		bool ja = f->code == (BPF_JMP | BPF_JA);

		if (jp.ctx.jeq_runs && jp.jeq[i].end) {
			want = jeq_step_bytes(p, &jp, i);
		} else if (BPF_CLASS(f->code) != BPF_JMP || (ja ? !f->k : !f->jt && !f->jf)) {
			continue;
		} else if (ja || f->jt == f->jf) {	/* one jmp, no compare */
			want = jump_bytes((s32)(a[i + 1 + (ja ? f->k : f->jt)] - end), false);
		} else if (!f->jf) {
			want = (f->k ? 3 : 2) + jump_bytes((s32)(a[i + 1 + f->jt] - end), true);
		} else {
			u32 jf = jump_bytes((s32)(a[i + 1 + f->jf] - end), false);

			want = (f->k ? 3 : 2) + jf +
			       jump_bytes((s32)(a[i + 1 + f->jt] - (end - jf)), true);
		}
		CHECK(end - a[i] == want, "%s: insn %u is %u bytes, shortest %u", what, i,
		      end - a[i], want);
		n++;
	}
	jit_free(&jp);
	return n;
}

/*
 * Jump sizes: n nested forward jumps J_0..J_{n-1}; J_i's target lies
 * beyond all later jumps and a filler block, so J_i can only be a rel8
 * jump once J_{i+1} is; sweeping the filler moves every span across the
 * rel8 boundary (127 bytes) in turn.  An iterative sizer needed up to n
 * passes here; the one backward pass must give every jump its shortest
 * encoding.  Shapes: conditional (jt only), conditional with both
 * targets, unconditional JA, interleaved, and a run of jeq #k (from 8
 * insns on a binary search, whose steps jump forward too).
 */
static void test_jump_sizes(void)
{
	static struct sock_filter p[BPF_MAXINSNS];
	u32 n, g, shape, nj = 0, nd = 0, nc = 0, passes, size;

	for (shape = 0; shape < 5; shape++)
		for (n = 1; n <= 40; n += (n < 8 ? 1 : 3))
			for (g = 0; g <= 72; g++) {
				u32 len = 0, i;
				enum cbpf_jit_verdict vd;

				p[len++] = (struct sock_filter)I(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0);
				p[len++] = (struct sock_filter)I(BPF_ALU | BPF_AND | BPF_K, 0, 0, 31);
				if (shape == 3) {
					/* interleaved: J_i spans filler + J_{i+1} only, so
					 * each pass can shrink just one more link */
					for (i = 0; i < n; i++) {
						u32 j;

						p[len++] = (struct sock_filter)I(BPF_JMP | BPF_JEQ | BPF_K,
							(u8)(g + (i + 1 < n)), 0, i);
						for (j = 0; j < g; j++)
							p[len++] = j % 9 == 8 ?
							(struct sock_filter)I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 1) :
							(struct sock_filter)I(BPF_ALU | BPF_NEG, 0, 0, 0);
					}
					p[len++] = (struct sock_filter)I(BPF_RET | BPF_A, 0, 0, 0);
					goto built;
				}
				for (i = 0; i < n; i++) {
					/* target: ret block entry n-1-i after the filler */
					u32 t = 2 + n + g + (n - 1 - i), pc = 2 + i;

					if (shape == 2)
						p[len++] = (struct sock_filter)I(BPF_JMP | BPF_JA, 0, 0,
							t - pc - 1 - ((i & 1) && t - pc > 1));
					else if (shape == 4)	/* a run of jeq #k: a search */
						p[len++] = (struct sock_filter)I(BPF_JMP | BPF_JEQ | BPF_K,
							(u8)(t - pc - 1), 0, i);
					else	/* jgt: no run, a compare per insn */
						p[len++] = (struct sock_filter)I(BPF_JMP | BPF_JGT | BPF_K,
							(u8)(t - pc - 1), (u8)(shape ? (t - pc - 1) - ((i & 1) && t - pc > 1) : 0), i);
				}
				for (i = 0; i < g; i++) /* 2-, 3- and 5-byte fillers */
					p[len++] = i % 5 == 4 ? (struct sock_filter)I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 1) :
						   i % 7 == 6 ? (struct sock_filter)I(BPF_LD | BPF_IMM, 0, 0, 0x1234) :
						   (struct sock_filter)I(BPF_ALU | BPF_NEG, 0, 0, 0);
				for (i = 0; i < n; i++)
					p[len++] = (struct sock_filter)I(BPF_RET | BPF_K, 0, 0, 100 + i);
				p[len++] = (struct sock_filter)I(BPF_RET | BPF_A, 0, 0, 0);
built:
				if (ref_check_classic(p, len)) {
					CHECK(0, "jump chain invalid (shape %u n %u g %u)", shape, n, g);
					continue;
				}
				vd = run_prog(p, len, (n + g) % 2 ? 0 : 2, 40, "jump chain", &passes,
					      &size);
				if (vd == CBPF_JIT_OK) {
					nc++;
					nj += check_shortest(p, len, "jump chain");
				} else {
					nd++;
					CHECK(0, "jump chain declined with %s", jit_verdict_name(vd));
				}
			}
	printf("jump sizes: %u chains compiled in one sizing pass, %u jumps all shortest, "
	       "%u declined\n", nc, nj, nd);
}

/* BPF_MAXINSNS programs, incl. the conversion's s16 limits */
static void test_maxinsns(void)
{
	static struct sock_filter p[BPF_MAXINSNS];
	struct rng r = { 4096 };
	u32 i, n = BPF_MAXINSNS, passes, size, shape;
	enum cbpf_jit_verdict vd;
	char what[96];

	for (shape = 0; shape < 9; shape++) {
		int conv;

		for (i = 0; i < n - 1; i++) {
			switch (shape) {
			case 0: /* straight line */
				p[i] = (struct sock_filter)I(BPF_LD | BPF_IMM, 0, 0, rnd32(&r));
				break;
			case 1: /* jump heavy: every insn a conditional jump */
				p[i] = (struct sock_filter)I(BPF_JMP | BPF_JGT | BPF_K,
					(u8)rnd_below(&r, n - i - 1 < 256 ? n - i - 1 : 256),
					(u8)rnd_below(&r, n - i - 1 < 256 ? n - i - 1 : 256), rnd32(&r));
				break;
			case 2: /* packet loads: one slow path call each */
				p[i] = (struct sock_filter)I(BPF_LD | BPF_B | BPF_ABS, 0, 0, i % 80);
				break;
			case 3: /* indirect loads */
				p[i] = i % 2 ? (struct sock_filter)I(BPF_LD | BPF_H | BPF_IND, 0, 0, i % 50) :
					       (struct sock_filter)I(BPF_LDX | BPF_IMM, 0, 0, i % 13);
				break;
			case 4: /* test_bpf #529: JA over 4094 MSH: conversion rejects */
				p[i] = i == 0 ? (struct sock_filter)I(BPF_JMP | BPF_JA, 0, 0, n - 2) :
						(struct sock_filter)I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 1);
				break;
			case 5: /* 2000 MSH then short jumps: conversion pass 1 rejects */
				p[i] = i < 2000 ? (struct sock_filter)I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 1) :
						  (struct sock_filter)I(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0);
				break;
			case 6: /* 1400 MSH then short jumps: converted index < 32768 */
				p[i] = i < 1400 ? (struct sock_filter)I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 1) :
						  (struct sock_filter)I(BPF_JMP | BPF_JEQ | BPF_K, i < n - 2, 0, i);
				break;
			case 7: /* scratch memory, all 16 slots */
				p[i] = i < 16 ? (struct sock_filter)I(BPF_ST, 0, 0, i) :
				       i % 3 ? (struct sock_filter)I(BPF_LD | BPF_MEM, 0, 0, i % 16) :
					       (struct sock_filter)I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, i);
				if (i % 3 == 1 && i >= 16)
					p[i] = (struct sock_filter)I(BPF_STX, 0, 0, (i / 3) % 16);
				break;
			default: /* long forward JA chain: each jumps over the next */
				p[i] = i % 2 ? (struct sock_filter)I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 3) :
				       (struct sock_filter)I(BPF_JMP | BPF_JA, 0, 0,
							     i + 1 + 300 < n - 1 ? 300 : n - i - 2);
			}
		}
		p[n - 1] = (struct sock_filter)I(BPF_RET | BPF_A, 0, 0, 0);
		if (ref_check_classic(p, n)) {
			CHECK(0, "maxinsns shape %u invalid", shape);
			continue;
		}
		conv = kconv_check(p, (int)n);
		CHECK(!conv == !ref_convert_check(p, n), "shape %u: conversion port disagrees", shape);
		snprintf(what, sizeof(what), "BPF_MAXINSNS shape %u", shape);
		vd = run_prog(p, n, shape % 2 ? 3 : 0, 8, what, &passes, &size);
		if (conv) {
			CHECK(vd == CBPF_JIT_DECLINE_CONVERSION,
			      "%s: bpf_convert_filter() rejects it (s16 jump), the JIT says %s%s%s",
			      what, jit_verdict_name(vd), vd == CBPF_JIT_OK ? "; saved " : "",
			      vd == CBPF_JIT_OK ? diff_save(p, n, NULL, 0, what) : "");
		} else {
			CHECK(vd == CBPF_JIT_OK, "%s: declined %s", what, jit_verdict_name(vd));
		}
		if (verbose)
			printf("  %s: %s, conversion %s, %u bytes, %u passes\n", what,
			       jit_verdict_name(vd), conv ? "rejects" : "accepts", size, passes);
	}
	printf("BPF_MAXINSNS programs: %u shapes\n", shape);
}

static bool distinctive(u32 k)
{
	return k >= 0x01000000u && __builtin_popcount(k) >= 8 && k != 0xffffffffu &&
	       (k & 0xffff0000u) != 0xffff0000u && (k & 0xfffff000u) != (u32)SKF_AD_OFF;
}

/* no program immediate appears verbatim in a blinded image */
static void test_blinding(void)
{
	static struct sock_filter p[BPF_MAXINSNS];
	struct rng r = { 0xb11d };
	unsigned long checked = 0, seen_plain = 0, it, differ = 0;

	for (it = 0; it < 400; it++) {
		u32 len = gen_program(&r, p, 600, it % 2 ? GEN_STD_ONLY : 0), i;
		struct jit_prog a, b, c;
		bool plain_has = false;

		for (i = 0; i < len; i++) /* make constants distinctive */
			if (rnd_pct(&r, 50) && (p[i].code == (BPF_LD | BPF_IMM) ||
						p[i].code == (BPF_LDX | BPF_IMM) ||
						p[i].code == (BPF_RET | BPF_K) ||
						(BPF_CLASS(p[i].code) == BPF_ALU &&
						 BPF_SRC(p[i].code) == BPF_K &&
						 BPF_OP(p[i].code) != BPF_LSH &&
						 BPF_OP(p[i].code) != BPF_RSH &&
						 BPF_OP(p[i].code) != BPF_NEG) ||
						(BPF_CLASS(p[i].code) == BPF_JMP &&
						 BPF_OP(p[i].code) != BPF_JA &&
						 BPF_SRC(p[i].code) == BPF_K)))
				/*
				 * Low bytes 5a 5a ("pop rdx" twice, which no
				 * image holds), so that only the constant
				 * itself can match, not opcode bytes followed
				 * by two random ones (81 f1 is "xor ecx").
				 */
				p[i].k = (rnd32(&r) & 0xfefe0000u) | 0x01010000u | 0x5a5au;
		if (ref_check_classic(p, len))
			continue;
		if (jit_compile(p, len, &variants[1].o, &a) ||
		    jit_compile(p, len, &variants[3].o, &b) ||
		    jit_compile(p, len, &variants[0].o, &c)) {
			jit_free(&a);
			jit_free(&b);
			jit_free(&c);
			continue;
		}
		for (i = 0; i < len; i++) {
			u32 k = p[i].k;

			if (!distinctive(k) || p[i].code == (BPF_JMP | BPF_JA) ||
			    BPF_CLASS(p[i].code) == BPF_ST || BPF_CLASS(p[i].code) == BPF_STX ||
			    (BPF_CLASS(p[i].code) == BPF_LD && BPF_MODE(p[i].code) == BPF_MEM) ||
			    (BPF_CLASS(p[i].code) == BPF_LDX && BPF_MODE(p[i].code) == BPF_MEM))
				continue;
			checked++;
			CHECK(!memmem(a.image, a.size, &k, 4) && !memmem(b.image, b.size, &k, 4),
			      "blinding: immediate %#x of insn %u (code %#x) appears in the image", k,
			      i, p[i].code);
			if (memmem(c.image, c.size, &k, 4))
				plain_has = true;
		}
		seen_plain += plain_has;
		if (a.size != b.size || memcmp(a.image, b.image, a.size))
			differ++;
		jit_free(&a);
		jit_free(&b);
		jit_free(&c);
	}
	CHECK(seen_plain > 0, "blinding test is blind: no immediate found in unblinded images");
	printf("blinding: %lu immediates absent from blinded images (present in %lu unblinded "
	       "images)\n", checked, seen_plain);
}

/* API misuse and placement: helpers out of rel32 reach must fail the emit */
static void test_api(void)
{
	static const struct sock_filter p[] = {
		I(BPF_LD | BPF_B | BPF_ABS, 0, 0, 3), I(BPF_RET | BPF_A, 0, 0, 0)
	};
	struct cbpf_jit_ctx c;
	u32 addrs[3];
	u8 buf[4096];
	int sz, rc;

	memset(&c, 0, sizeof(c));
	c.env = &host_env_plain;
	c.insns = p;
	c.len = 2;
	c.addrs = addrs;
	CHECK(cbpf_jit_analyse(&c) == CBPF_JIT_OK, "api: analyse");
	rc = cbpf_jit_emit(&c, buf, (unsigned long)buf);
	CHECK(rc < 0, "api: emit before size returned %d", rc);
	sz = cbpf_jit_size(&c);
	CHECK(sz > 0 && sz < (int)sizeof(buf), "api: size %d", sz);
	rc = cbpf_jit_emit(&c, buf, (unsigned long)host_load_helper_8 + 0x100000000ul);
	CHECK(rc < 0, "api: helpers 4 GB away from the image: emit returned %d", rc);
	rc = cbpf_jit_emit(&c, buf, (unsigned long)host_load_helper_8 - 0x90000000ul);
	CHECK(rc < 0, "api: helpers 2.25 GB away from the image: emit returned %d", rc);
	rc = cbpf_jit_emit(&c, NULL, (unsigned long)buf);
	CHECK(rc < 0, "api: NULL image: emit returned %d", rc);
	c.len = 0;
	CHECK(cbpf_jit_analyse(&c) != CBPF_JIT_OK, "api: empty program accepted");
	printf("API misuse / rel32 reach: checked\n");
}

/*
 * The final pass must check every write against the sized image before it
 * is made (as the eBPF JIT checks its length before copying): with the
 * recorded size shrunk under it, emit must fail and leave every byte past
 * the size untouched.
 */
static void test_final_bounds(void)
{
	static const struct sock_filter p[] = {
		I(BPF_LD | BPF_H | BPF_ABS, 0, 0, 12),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 3, 0x800),
		I(BPF_LD | BPF_B | BPF_ABS, 0, 0, 23),
		I(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14),
		I(BPF_LD | BPF_H | BPF_IND, 0, 0, 16),
		I(BPF_RET | BPF_A, 0, 0, 0),
	};
	struct cbpf_jit_ctx c;
	u32 addrs[sizeof(p) / sizeof(p[0]) + 1], shrink[] = { 1, 2, 7, 40, 0 };
	u8 buf[4096];
	/* within rel32 reach of the helpers, as in the kernel */
	unsigned long exec = (unsigned long)host_load_helper_8;
	int sz, rc, checked = 0;

	memset(&c, 0, sizeof(c));
	c.env = &host_env_plain;
	c.insns = p;
	c.len = sizeof(p) / sizeof(p[0]);
	c.addrs = addrs;
	CHECK(cbpf_jit_analyse(&c) == CBPF_JIT_OK, "bounds: analyse");
	sz = cbpf_jit_size(&c);
	CHECK(sz > 48 && sz < (int)sizeof(buf), "bounds: size %d", sz);
	if (sz <= 48 || sz >= (int)sizeof(buf))
		return;
	for (size_t i = 0; shrink[i]; i++) {
		u32 lim = sz - shrink[i], bad = 0;

		memset(buf, 0xAA, sizeof(buf));
		c.size = lim;
		rc = cbpf_jit_emit(&c, buf, exec);
		for (u32 j = lim; j < sizeof(buf); j++)
			bad += buf[j] != 0xAA;
		CHECK(rc < 0, "bounds: size %d shrunk to %u: emit returned %d", sz, lim, rc);
		CHECK(!bad, "bounds: size %d shrunk to %u: %u bytes written past it", sz, lim, bad);
		checked++;
	}
	c.size = sz;
	rc = cbpf_jit_emit(&c, buf, exec);
	CHECK(rc == sz, "bounds: emit at the real size returned %d, want %d", rc, sz);
	printf("final pass bounds: %d shrunk sizes refused without a write past them\n", checked);
}

/* seccomp_data loads outside struct seccomp_data or unaligned: declined. */
static void test_seccomp_bounds(void)
{
	static const u32 ks[] = { 0, 60, 2, 61, 64, 0x1000, 0xfffffffc };
	unsigned int i;

	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		struct sock_filter p[] = { I(BPF_LDX | BPF_W | BPF_ABS, 0, 0, ks[i]),
					   I(BPF_RET | BPF_A, 0, 0, 0) };
		struct jit_prog jp;
		int r = jit_compile(p, 2, NULL, &jp);
		bool want = ks[i] < 64 && !(ks[i] & 3);

		CHECK(want ? r == 0 : r > 0 && jp.verdict == CBPF_JIT_DECLINE_OPCODE,
		      "seccomp ldx|w|abs [%#x]: %s", ks[i], jit_verdict_name(jp.verdict));
		jit_free(&jp);
	}
	printf("seccomp_data loads: %u offsets, in-bounds compiled, others declined\n", i);
}

void test_unit(void)
{
	test_api();
	test_seccomp_bounds();
	test_final_bounds();
	test_asm();
	test_jump_sizes();
	test_maxinsns();
	test_blinding();
}
