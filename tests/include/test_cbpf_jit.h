/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The request and result layout of the test_cbpf_jit module
 * (lib/test_cbpf_jit.c, patches/0005-lib-add-test_cbpf_jit-...): one write()
 * of a request to /sys/kernel/debug/test_cbpf_jit/run, then one read() of the
 * result. The module's source is the reference; this mirrors it for the
 * userspace tools (tests/boot/cbpf-jit-fuzz.c, tests/boot/cbpf-seccomp-fuzz.c,
 * tests/bench/cbpf-bench.c).
 *
 * Request: struct cbpf_jit_test_req, prog_len struct sock_filter, then
 * nr_skbs x { struct cbpf_jit_test_skb; headroom + len bytes, padded to 8 }.
 * Result: struct cbpf_jit_test_result, then nr_skbs struct cbpf_jit_test_run.
 * read() reads from the file position (a write() resets it to 0) and returns
 * EOF at the end of the result, or at once when there is none.
 */
#ifndef TEST_CBPF_JIT_H
#define TEST_CBPF_JIT_H

#include <linux/types.h>

#define CBPF_JIT_TEST_MAGIC	0x54424a43u
#define CBPF_JIT_TEST_RUN_FILE	"/sys/kernel/debug/test_cbpf_jit/run"
#define CBPF_JIT_TEST_MAX_FRAG_LIST	16

struct cbpf_jit_test_req {
	__u32 magic, prog_len, nr_skbs, iterations;
};

struct cbpf_jit_test_skb {
	__u32 len, headlen, mark, hash;
	__u16 queue_mapping, protocol, vlan_tci, vlan_proto;	/* protocol, vlan_proto: network order */
	__u8 vlan_present, pkt_type, has_dev, mac_header_set;
	__s16 mac_offset, network_offset;	/* relative to skb->data */
	__u32 dev_ifindex;
	__u16 dev_type, headroom;	/* headroom: bytes before the data, in front of skb->data */
	/* Bytes headlen..len: page fragments of frag_size bytes (0: a page,
	 * at most MAX_SKB_FRAGS of them), then the last frag_list_len bytes
	 * in a frag_list of at most 16 skbs of frag_size bytes. */
	__u32 frag_size, frag_list_len;
};

struct cbpf_jit_test_result {
	__s32 create_err;	/* bpf_prog_create(): 0 or -errno */
	__u32 jited, jited_len, nr_skbs;
	__u64 compile_ns;
	__u32 image_flags;	/* CBPF_JIT_TEST_IMAGE_* (when jited) */
	__u32 image_pages;	/* pages the image spans */
	__u32 charge_len;	/* what socket/seccomp accounting counts */
	__u32 reserved;
};

#define CBPF_JIT_TEST_IMAGE_DIRECT	(1u << 0)	/* direct classic JIT */
#define CBPF_JIT_TEST_IMAGE_WRITABLE	(1u << 1)	/* a page mapped writable */
#define CBPF_JIT_TEST_IMAGE_NX		(1u << 2)	/* a page mapped non-executable */
#define CBPF_JIT_TEST_IMAGE_UNMAPPED	(1u << 3)	/* a page not mapped */
#define CBPF_JIT_TEST_IMAGE_MUTATED	(1u << 4)	/* corrupted on purpose (mutate=1) */

struct cbpf_jit_test_run {
	__u32 ret, flags;	/* flags bit 0: not every iteration returned ret */
	__u64 total_ns;		/* all iterations, preemption off */
};

/*
 * The other request: which compiler built the classic filter attached to a
 * socket of the caller (one write() of the request, one read() of the
 * result; pidfd_getfd() fetches another process's socket).
 */
#define CBPF_JIT_TEST_SOCK_MAGIC	0x53424a43u	/* "CJBS" */

struct cbpf_jit_test_sock_req {
	__u32 magic;
	__s32 fd;
};

struct cbpf_jit_test_sock_result {
	__s32 err;		/* 0, -ENOENT: no filter */
	__u32 flags;		/* CBPF_JIT_TEST_IMAGE_DIRECT */
	__u32 jited;
	__u32 len;		/* prog->len */
	__u32 orig_len;		/* classic length; 0: an eBPF program */
	__u32 charge_len;	/* what socket/seccomp accounting counts */
};

/*
 * The third: a classic program as seccomp attaches it (seccomp's checks and
 * rewrite, bpf_prog_create_from_user()), run iterations times (timed, as
 * above) over each of nr_data struct seccomp_data that follow it. Result:
 * struct cbpf_jit_test_seccomp_result, then, when create_err is 0, nr_data
 * struct cbpf_jit_test_run.
 */
#define CBPF_JIT_TEST_SECCOMP_MAGIC	0x43424a43u	/* "CJBC" */
#define CBPF_JIT_TEST_MAX_DATA		256

struct cbpf_jit_test_seccomp_req {
	__u32 magic, prog_len, nr_data, iterations;
};

struct cbpf_jit_test_seccomp_result {
	__s32 create_err;
	__u32 flags;		/* CBPF_JIT_TEST_IMAGE_DIRECT */
	__u32 jited;
	__u32 nr_data;
	__u32 jited_len, reserved;
	__u64 compile_ns;	/* bpf_prog_create_from_user() */
};

_Static_assert(sizeof(struct cbpf_jit_test_skb) == 48, "test_cbpf_jit skb ABI");
_Static_assert(sizeof(struct cbpf_jit_test_sock_result) == 24, "test_cbpf_jit sock ABI");
_Static_assert(sizeof(struct cbpf_jit_test_result) == 40, "test_cbpf_jit result ABI");
_Static_assert(sizeof(struct cbpf_jit_test_seccomp_result) == 32, "test_cbpf_jit seccomp ABI");

#endif
