// SPDX-License-Identifier: GPL-2.0
/*
 * Host versions of the kernel helpers a classic JIT calls, written to mirror
 * net/core/filter.c (Linux 6.1.192, line numbers of that file) and
 * net/core/skbuff.c / lib/nlattr.c, operating on struct model_skb.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>

#include "skbmodel.h"

u32 host_cpu_value;
bool model_be_bitfields;
bool model_vlan_all;
u64 host_rnd_state = 0x9e3779b97f4a7c15ull;
unsigned long host_bhb_calls, host_thunk_calls, host_misaligned_calls;
unsigned long host_helper_calls, host_depth_acct;

/* lock incq host_depth_acct(%rip), for a call at @ip */
u32 host_call_depth_acct(u8 *buf, unsigned long func, unsigned long ip)
{
	long long disp = (long long)((unsigned long)&host_depth_acct - (ip + HOST_CALL_DEPTH_LEN));

	(void)func;
	if (disp < INT32_MIN || disp > INT32_MAX)
		abort();
	buf[0] = 0xF0;
	buf[1] = 0x48;
	buf[2] = 0xFF;
	buf[3] = 0x05;
	buf[4] = (u8)disp;
	buf[5] = (u8)(disp >> 8);
	buf[6] = (u8)(disp >> 16);
	buf[7] = (u8)(disp >> 24);
	return HOST_CALL_DEPTH_LEN;
}
unsigned long host_frag_hits;

/* The generator promises a 16-byte aligned stack at helper calls (SysV
 * ABI).  With frame pointers (-fno-omit-frame-pointer), rbp of a helper
 * is 16-byte aligned exactly when its call site was. */
#define CHECK_ALIGN()                                                          \
	do {                                                                   \
		if ((uintptr_t)__builtin_frame_address(0) & 15)                \
			host_misaligned_calls++;                               \
	} while (0)

/* skb_mac_header_was_set() / skb_network_offset() / skb_mac_offset()
 * (include/linux/skbuff.h:2939-2952): offsets are relative to skb->data. */
static int net_offset(const struct model_skb *s)
{
	return (int)s->network_header - (int)(s->data - s->head);
}

static int mac_offset(const struct model_skb *s)
{
	return (int)s->mac_header - (int)(s->data - s->head);
}

/* filter.c:215 bpf_skb_load_helper_convert_offset() */
static int convert_offset(const struct model_skb *skb, int offset)
{
	if (offset >= 0)
		return offset;
	if (offset >= SKF_NET_OFF)
		return offset - SKF_NET_OFF + net_offset(skb);
	if (offset >= SKF_LL_OFF && skb->mac_header != MODEL_MAC_UNSET)
		return offset - SKF_LL_OFF + mac_offset(skb);
	return INT_MIN;
}

/* net/core/skbuff.c:2531 skb_copy_bits(), frags only (no frag_list) */
int model_skb_copy_bits(const struct model_skb *skb, int offset, void *to, int len)
{
	int start = (int)skb_headlen_m(skb);
	u8 *dst = to;
	int copy;
	u32 i;

	if (offset > (int)skb->len - len)
		goto fault;

	/* Copy header. */
	if ((copy = start - offset) > 0) {
		if (copy > len)
			copy = len;
		memcpy(dst, skb->data + offset, (size_t)copy);
		if ((len -= copy) == 0)
			return 0;
		offset += copy;
		dst += copy;
	}

	for (i = 0; i < skb->nr_frags; i++) {
		const struct model_frag *f = &skb->frags[i];
		int end = start + (int)f->size;

		if ((copy = end - offset) > 0) {
			if (copy > len)
				copy = len;
			memcpy(dst, f->p + (offset - start), (size_t)copy);
			if ((len -= copy) == 0)
				return 0;
			offset += copy;
			dst += copy;
		}
		start = end;
	}
	if (!len)
		return 0;
fault:
	return -EFAULT;
}

/* filter.c:229 bpf_skb_load_helper_8() */
u64 host_load_helper_8(u64 skb_, u64 data_, u64 headlen_, u64 offset_)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	const u8 *data = (const void *)(uintptr_t)data_;
	int headlen = (int)headlen_, offset = (int)offset_;
	u8 tmp;
	const int len = sizeof(tmp);

	CHECK_ALIGN();
	offset = convert_offset(skb, offset);
	if (offset == INT_MIN)
		return (u64)-EFAULT;
	if (headlen - offset >= len)
		return *(const u8 *)(data + offset);
	if (!model_skb_copy_bits(skb, offset, &tmp, sizeof(tmp)))
		return tmp;
	return (u64)-EFAULT;
}

/* filter.c:254 bpf_skb_load_helper_16() */
u64 host_load_helper_16(u64 skb_, u64 data_, u64 headlen_, u64 offset_)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	const u8 *data = (const void *)(uintptr_t)data_;
	int headlen = (int)headlen_, offset = (int)offset_;
	u8 tmp[2];
	const int len = sizeof(tmp);

	CHECK_ALIGN();
	offset = convert_offset(skb, offset);
	if (offset == INT_MIN)
		return (u64)-EFAULT;
	if (headlen - offset >= len) /* get_unaligned_be16(data + offset) */
		return (u64)data[offset] << 8 | data[offset + 1];
	if (!model_skb_copy_bits(skb, offset, tmp, sizeof(tmp)))
		return (u64)tmp[0] << 8 | tmp[1];
	return (u64)-EFAULT;
}

/* filter.c:279 bpf_skb_load_helper_32() */
u64 host_load_helper_32(u64 skb_, u64 data_, u64 headlen_, u64 offset_)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	const u8 *data = (const void *)(uintptr_t)data_;
	int headlen = (int)headlen_, offset = (int)offset_;
	u8 tmp[4];
	const int len = sizeof(tmp);

	CHECK_ALIGN();
	offset = convert_offset(skb, offset);
	if (offset == INT_MIN)
		return (u64)-EFAULT;
	if (headlen - offset >= len)
		return (u64)data[offset] << 24 | (u64)data[offset + 1] << 16 |
		       (u64)data[offset + 2] << 8 | data[offset + 3];
	if (!model_skb_copy_bits(skb, offset, tmp, sizeof(tmp)))
		return (u64)tmp[0] << 24 | (u64)tmp[1] << 16 | (u64)tmp[2] << 8 | tmp[3];
	return (u64)-EFAULT;
}

/* arch/x86/net/bpf_jit_classic.c cbpf_load(): what the image calls */
static u64 cbpf_load(u64 skb_, u64 data_, u64 headlen, u64 offset, u32 size)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	int off = (int)offset;
	const u8 *p;

	if (off < 0) {
		off = convert_offset(skb, off);
		if (off == INT_MIN)
			return (u64)-EFAULT;
		if (off < 0)
			goto helper;
	}
	if ((u32)off + size > skb->len)
		return (u64)-EFAULT;
	if ((u32)off + size <= (u32)headlen) {
		p = (const u8 *)(uintptr_t)data_ + off;
		goto read;
	}
	off -= (u32)headlen;
	if (!skb->nr_frags || off + (int)size > (int)skb->frags[0].size)
		goto helper;
	host_frag_hits++;
	p = skb->frags[0].p;
	if (off < 0) {
		const u8 *h = (const u8 *)(uintptr_t)data_ + headlen;
		u32 v = 0;
		int i;

		for (i = off; i < off + (int)size; i++)
			v = v << 8 | (i < 0 ? h[i] : p[i]);
		return v;
	}
	p += off;
read:
	switch (size) {
	case 1:
		return p[0];
	case 2:
		return (u64)p[0] << 8 | p[1];
	default:
		return (u64)p[0] << 24 | (u64)p[1] << 16 | (u64)p[2] << 8 | p[3];
	}
helper:
	switch (size) {
	case 1:
		return host_load_helper_8(skb_, data_, headlen, offset);
	case 2:
		return host_load_helper_16(skb_, data_, headlen, offset);
	default:
		return host_load_helper_32(skb_, data_, headlen, offset);
	}
}

u64 host_cbpf_load_8(u64 skb, u64 data, u64 headlen, u64 offset)
{
	CHECK_ALIGN();
	host_helper_calls++;
	return cbpf_load(skb, data, headlen, offset, 1);
}

u64 host_cbpf_load_16(u64 skb, u64 data, u64 headlen, u64 offset)
{
	CHECK_ALIGN();
	host_helper_calls++;
	return cbpf_load(skb, data, headlen, offset, 2);
}

u64 host_cbpf_load_32(u64 skb, u64 data, u64 headlen, u64 offset)
{
	CHECK_ALIGN();
	host_helper_calls++;
	return cbpf_load(skb, data, headlen, offset, 4);
}

/* filter.c:166 bpf_skb_get_pay_offset() calls skb_get_poff(), the flow
 * dissector.  Host stub (deterministic, NOT the dissector): the reference
 * interpreter calls this very function, so only the JIT's calling of it
 * (argument in rdi, result into A) is tested, not skb_get_poff(). */
u64 host_pay_offset(u64 skb_, u64 a, u64 x)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;

	CHECK_ALIGN();
	host_helper_calls++;
	(void)a;
	(void)x;
	return (u32)(skb->len * 3u + (skb->mark & 0xff) + skb->nr_frags);
}

/* lib/nlattr.c:723 nla_find() with include/net/netlink.h nla_ok/nla_next */
static long nla_find_off(const u8 *base, long pos, int len, int attrtype)
{
	int rem = len;

	for (;;) {
		u16 nla_len, nla_type;

		/* nla_ok(): rem >= 4 && nla_len >= 4 && nla_len <= rem */
		if (rem < 4)
			return -1;
		memcpy(&nla_len, base + pos, 2);
		memcpy(&nla_type, base + pos + 2, 2);
		if (nla_len < 4 || nla_len > rem)
			return -1;
		/* nla_type() masks NLA_F_NESTED | NLA_F_NET_BYTEORDER */
		if ((nla_type & 0x3fff) == attrtype)
			return pos;
		/* nla_next(): NLA_ALIGN(nla_len) */
		rem -= (int)((nla_len + 3u) & ~3u);
		pos += (long)((nla_len + 3u) & ~3u);
	}
}

/* filter.c:171 bpf_skb_get_nlattr() */
u64 host_nlattr(u64 skb_, u64 a_, u64 x_)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	u32 a = (u32)a_, x = (u32)x_;
	long off;

	CHECK_ALIGN();
	host_helper_calls++;
	if (skb->data_len) /* skb_is_nonlinear() */
		return 0;
	if (skb->len < 4) /* sizeof(struct nlattr) */
		return 0;
	if (a > skb->len - 4)
		return 0;
	off = nla_find_off(skb->data, a, (int)(skb->len - a), (int)x);
	if (off >= 0)
		return (u64)off;
	return 0;
}

/* filter.c:191 bpf_skb_get_nlattr_nest() */
u64 host_nlattr_nest(u64 skb_, u64 a_, u64 x_)
{
	const struct model_skb *skb = (const void *)(uintptr_t)skb_;
	u32 a = (u32)a_, x = (u32)x_;
	u16 nla_len;
	long off;

	CHECK_ALIGN();
	host_helper_calls++;
	if (skb->data_len)
		return 0;
	if (skb->len < 4)
		return 0;
	if (a > skb->len - 4)
		return 0;
	memcpy(&nla_len, skb->data + a, 2);
	if (nla_len > skb->len - a)
		return 0;
	/* nla_find_nested(): nla_find(nla_data(nla), nla_len(nla), x) */
	off = nla_find_off(skb->data, (long)a + 4, (int)nla_len - 4, (int)x);
	if (off >= 0)
		return (u64)off;
	return 0;
}

/* bpf_get_raw_cpu_id(): raw_smp_processor_id(); host: a set value */
u64 host_cpu_id(u64 r1, u64 r2, u64 r3)
{
	(void)r1;
	(void)r2;
	(void)r3;
	CHECK_ALIGN();
	host_helper_calls++;
	return host_cpu_value;
}

void host_rnd_reset(u64 seed)
{
	host_rnd_state = seed | 1;
}

/* bpf_user_rnd_u32(): per-CPU prandom; host: xorshift64*, reset per run */
u64 host_random(u64 r1, u64 r2, u64 r3)
{
	u64 x = host_rnd_state;

	CHECK_ALIGN();
	host_helper_calls++;
	(void)r1;
	(void)r2;
	(void)r3;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	host_rnd_state = x;
	return (u32)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/*
 * Return thunk and branch-history clearing stubs.  Both preserve every
 * register the generated code may still need (rax carries the filter result
 * through the thunk), so they are plain assembly: count and return.
 */
__asm__(".text\n"
	".globl host_return_thunk\n"
	".type host_return_thunk, @function\n"
	"host_return_thunk:\n"
	"\tlock incq host_thunk_calls(%rip)\n"
	"\tret\n"
	"\tint3\n"
	".size host_return_thunk, .-host_return_thunk\n"
	".globl host_clear_bhb\n"
	".type host_clear_bhb, @function\n"
	"host_clear_bhb:\n"
	"\tlock incq host_bhb_calls(%rip)\n"
	"\tret\n"
	"\tint3\n"
	".size host_clear_bhb, .-host_clear_bhb\n");

struct model_skb *model_skb_build(const u8 *pkt, u32 len, const u8 *headroom_bytes,
				  const struct skb_shape *sh)
{
	struct model_skb *s = calloc(1, sizeof(*s));
	u32 i, pos;

	if (!s)
		abort();
	s->guard0 = s->guard1 = 0xdeadbeefcafef00dull;
	s->head = malloc(sh->headroom + sh->headlen + 1);
	if (!s->head)
		abort();
	if (headroom_bytes)
		memcpy(s->head, headroom_bytes, sh->headroom);
	else
		memset(s->head, 0xa5, sh->headroom);
	s->data = s->head + sh->headroom;
	memcpy(s->data, pkt, sh->headlen);
	s->len = len;
	s->data_len = len - sh->headlen;
	pos = sh->headlen;
	s->nr_frags = sh->nr_frags;
	for (i = 0; i < sh->nr_frags; i++) {
		u32 sz = sh->frag_sizes[i];

		s->frags[i].p = malloc(sz ? sz : 1);
		if (!s->frags[i].p)
			abort();
		memcpy(s->frags[i].p, pkt + pos, sz);
		s->frags[i].size = sz;
		pos += sz;
	}
	if (pos != len)
		abort();
	s->mac_header = sh->mac_off == MODEL_MAC_NONE ? MODEL_MAC_UNSET :
			(u16)((int)sh->headroom + sh->mac_off);
	s->network_header = (u16)((int)sh->headroom + sh->net_off);
	return s;
}

void model_skb_free(struct model_skb *s)
{
	u32 i;

	if (!s)
		return;
	for (i = 0; i < s->nr_frags; i++)
		free(s->frags[i].p);
	free(s->head);
	free(s);
}

u8 model_skb_byte(const struct model_skb *s, int off)
{
	u32 start = skb_headlen_m(s), i;

	if (off < (int)start)
		return s->data[off];
	for (i = 0; i < s->nr_frags; i++) {
		if ((u32)off < start + s->frags[i].size)
			return s->frags[i].p[(u32)off - start];
		start += s->frags[i].size;
	}
	abort();
}

void model_skb_flatten(const struct model_skb *s, u8 *out)
{
	u32 i;

	for (i = 0; i < s->len; i++)
		out[i] = model_skb_byte(s, (int)i);
}
