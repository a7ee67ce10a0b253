// SPDX-License-Identifier: GPL-2.0
/*
 * Classic BPF socket filters on a unix datagram socketpair, with known
 * results.  Run as root, or with "unpriv" to drop to uid/gid 65534 first
 * (no CAP_SYS_ADMIN: the JIT adds the branch history clearing sequence).
 * Prints one line per case and "cbpf-sock: N passed, M failed".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/filter.h>

#define INSN(c, t, f, k)	((struct sock_filter){ (c), (t), (f), (k) })
#define RET_K(k)		INSN(BPF_RET | BPF_K, 0, 0, (k))
#define ANC(x)			((__u32)(SKF_AD_OFF + (x)))

struct tcase {
	const char *name;
	struct sock_filter insns[8];
	unsigned short len;
	const char *payload;
	int plen;
	int expect;	/* bytes received, 0: dropped */
};

static const struct tcase cases[] = {
	{ "ret0", { RET_K(0) }, 1, "ABCDEFGH", 8, 0 },
	{ "ret_all", { RET_K(0xffffffff) }, 1, "ABCDEFGH", 8, 8 },
	{ "ld_abs_match",
	  { INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x41424344),
	    RET_K(0xffff), RET_K(0) }, 4, "ABCDEFGH", 8, 8 },
	{ "ld_abs_nomatch",
	  { INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x41424344),
	    RET_K(0xffff), RET_K(0) }, 4, "XBCDEFGH", 8, 0 },
	{ "ldh_trim",
	  { INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, 4),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 2, "ABCD\x00\x03GH", 8, 3 },
	{ "ldb_oob",
	  { INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, 100), RET_K(0xffff) },
	  2, "ABCDEFGH", 8, 0 },
	{ "div_x_zero",
	  { INSN(BPF_LDX | BPF_IMM, 0, 0, 0), INSN(BPF_LD | BPF_IMM, 0, 0, 7),
	    INSN(BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0), RET_K(0xffff) },
	  4, "ABCDEFGH", 8, 0 },
	{ "ifindex_no_dev",
	  { INSN(BPF_LD | BPF_IMM, 0, 0, 5),
	    INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, ANC(SKF_AD_IFINDEX)),
	    RET_K(0) }, 3, "ABCDEFGH", 8, 5 },
	{ "len", { INSN(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0),
		   INSN(BPF_ALU | BPF_SUB | BPF_K, 0, 0, 1),
		   INSN(BPF_RET | BPF_A, 0, 0, 0) }, 3, "ABCDEFGH", 8, 7 },
	{ "msh",
	  { INSN(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 0),
	    INSN(BPF_MISC | BPF_TXA, 0, 0, 0),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 3, "\x42" "BCDEFGHIJ", 10, 8 },
	{ "msh_keeps_a",
	  { INSN(BPF_LD | BPF_IMM, 0, 0, 3),
	    INSN(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 0),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 3, "\x42" "BCDEFGHIJ", 10, 3 },
	{ "ld_ind",
	  { INSN(BPF_LDX | BPF_IMM, 0, 0, 2),
	    INSN(BPF_LD | BPF_B | BPF_IND, 0, 0, 1),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 3, "ABC\x06" "EFGH", 8, 6 },
	{ "ld_ind_oob",
	  { INSN(BPF_LDX | BPF_IMM, 0, 0, 0xfffffff0),
	    INSN(BPF_LD | BPF_B | BPF_IND, 0, 0, 1),
	    RET_K(0xffff) }, 3, "ABCDEFGH", 8, 0 },
	{ "mem_x_shift",
	  { INSN(BPF_LD | BPF_IMM, 0, 0, 1), INSN(BPF_ST, 0, 0, 5),
	    INSN(BPF_LDX | BPF_IMM, 0, 0, 33),
	    INSN(BPF_LD | BPF_MEM, 0, 0, 5),
	    INSN(BPF_ALU | BPF_LSH | BPF_X, 0, 0, 0),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 6, "ABCDEFGH", 8, 2 },
	{ "cpu_random",
	  { INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, ANC(SKF_AD_CPU)),
	    INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, ANC(SKF_AD_RANDOM)),
	    RET_K(4) }, 3, "ABCDEFGH", 8, 4 },
};

int main(int argc, char **argv)
{
	int pass = 0, fail = 0;
	unsigned int i;

	if (argc > 1 && !strcmp(argv[1], "unpriv")) {
		if (setgid(65534) || setuid(65534)) {
			perror("setuid");
			return 2;
		}
	}

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *t = &cases[i];
		struct sock_fprog fprog = {
			.len = t->len,
			.filter = (struct sock_filter *)t->insns,
		};
		char buf[64];
		int sv[2], n;

		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
			perror("socketpair");
			return 2;
		}
		if (setsockopt(sv[1], SOL_SOCKET, SO_ATTACH_FILTER, &fprog,
			       sizeof(fprog))) {
			printf("%s: attach failed: %s\n", t->name,
			       strerror(errno));
			fail++;
			goto next;
		}
		if (send(sv[0], t->payload, t->plen, 0) != t->plen) {
			perror("send");
			return 2;
		}
		n = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0)
			n = 0;
		if (n == t->expect) {
			pass++;
		} else {
			printf("%s: got %d, want %d FAIL\n", t->name, n,
			       t->expect);
			fail++;
		}
next:
		close(sv[0]);
		close(sv[1]);
	}
	printf("cbpf-sock: %d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
