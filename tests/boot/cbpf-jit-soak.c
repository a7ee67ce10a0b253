// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-jit-soak: traffic through a veth pair at full rate while processes
 * attach and detach classic filters in a loop and the direct JIT is
 * switched on and off.
 *
 * Usage (as root): cbpf-jit-soak [--seconds N] [--workers W] TX_IF RX_IF
 *
 * One sender writes UDP/IPv4 frames to TX_IF as fast as it can (AF_PACKET);
 * W workers each loop: open an AF_PACKET socket, attach a random filter
 * from the table below, bind it to RX_IF, read what arrives for a moment,
 * check that every frame delivered is one the filter accepts (and trimmed
 * to the length it returns), close it; one toggler flips
 * net.core.bpf_jit_classic between 1 and 0 every 50 ms (restored at the
 * end).
 *
 * The receive path builds the skb shapes a NIC and the IP stack give
 * filters, not only linear ones (both ends' MTU must take 65,000-byte
 * frames, and RX_IF needs an IPv4 address: section soak gives it
 * 192.0.2.2/24):
 *  - every 16th frame is a jumbo frame of 33,000-65,000 bytes: AF_PACKET
 *    puts all but its 14-byte Ethernet header into page fragments of at
 *    most 4 KiB (6.1) or 32 KiB (6.12), so the workers' filters load
 *    across fragments (packet_alloc_skb(), alloc_skb_with_frags());
 *  - a second sender writes IPv4 fragments of UDP datagrams to RX_IF's
 *    address, port 7777 (from address ^ 3 in the same subnet), each
 *    fragment a small linear skb, and a datagram receiver attaches the
 *    filters of the second table to UDP sockets: ip_defrag() chains such
 *    fragments into one skb with a frag_list (inet_frag_reasm_finish():
 *    their heads cannot be coalesced), which sk_filter() hands to the
 *    filter.
 * Records, "name<TAB>pass|fail<TAB>detail", on standard output: frames
 * sent per second, filters attached, frames checked, multi-fragment frames
 * and frag_list datagrams checked, mismatches.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SWITCH		"/proc/sys/net/core/bpf_jit_classic"
#define FRAME_LEN	128
/* Every JUMBO_EVERY-th frame is a jumbo frame of JUMBO_MIN.. bytes. */
#define JUMBO_EVERY	16
#define JUMBO_MIN	33000
#define JUMBO_SPAN	32000
/* IPv4 fragments: FRAG_DATA payload bytes each (a multiple of 8). */
#define FRAG_DATA	1480
#define UDP_PORT	7777
#define MAX_WORKERS	16
#define UNUSED		__attribute__((unused))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define INSN(c, t, f, k)	((struct sock_filter){ (c), (t), (f), (k) })

/* Counters shared by the processes (an anonymous shared mapping). */
struct counters {
	unsigned long attached, attach_errors, frames, shaped, mismatches;
	char first_mismatch[160];
};

struct shared {
	volatile int stop;
	unsigned long sent, send_errors, toggles;
	unsigned long jumbo_sent, dgrams_sent, dgram_send_errors;
	struct counters w[MAX_WORKERS];
	struct counters dgram;		/* the datagram receiver */
};

static struct shared *sh;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int ifindex_of(const char *name)
{
	int i = if_nametoindex(name);

	if (!i) {
		fprintf(stderr, "cbpf-jit-soak: no interface %s\n", name);
		exit(2);
	}
	return i;
}

/* The length of frame seq: FRAME_LEN, or a jumbo frame's. */
static unsigned int frame_len(uint16_t seq)
{
	if (seq % JUMBO_EVERY != JUMBO_EVERY - 1)
		return FRAME_LEN;
	return JUMBO_MIN + seq * 7919u % JUMBO_SPAN;
}

/* Byte i (>= 42) of frame seq, and byte i (>= 12) of datagram seq. */
static uint8_t fill(uint32_t seq, unsigned int i)
{
	return (uint8_t)(seq + i);
}

/*
 * Ethernet + IPv4 + UDP, UDP destination port = seq, source port = ~seq,
 * frame_len(seq) bytes.
 */
static unsigned int make_frame(unsigned char *f, uint16_t seq)
{
	unsigned int len = frame_len(seq);

	memset(f, 0, 42);
	memset(f, 0xff, 6);					/* broadcast */
	memcpy(f + 6, "\x02\x00\x00\x00\x00\x01", 6);
	f[12] = 0x08;						/* IPv4 */
	f[14] = 0x45;
	f[16] = (len - 14) >> 8;
	f[17] = (uint8_t)(len - 14);
	f[22] = 64;
	f[23] = 17;						/* UDP */
	memcpy(f + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	f[34] = (uint16_t)~seq >> 8;
	f[35] = (uint8_t)~seq;
	f[36] = seq >> 8;
	f[37] = seq;
	f[38] = (len - 34) >> 8;
	f[39] = (uint8_t)(len - 34);
	for (unsigned int i = 42; i < len; i++)
		f[i] = fill(seq, i);
	return len;
}

static void sender(int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex,
				   .sll_halen = 6 };
	static unsigned char f[JUMBO_MIN + JUMBO_SPAN];
	uint16_t seq = 0;
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd < 0)
		exit(2);
	while (!sh->stop) {
		unsigned int len = make_frame(f, seq++);

		if (sendto(fd, f, len, 0, (struct sockaddr *)&sll, sizeof(sll)) == (ssize_t)len) {
			__atomic_add_fetch(&sh->sent, 1, __ATOMIC_RELAXED);
			if (len > FRAME_LEN)
				__atomic_add_fetch(&sh->jumbo_sent, 1, __ATOMIC_RELAXED);
		} else {
			__atomic_add_fetch(&sh->send_errors, 1, __ATOMIC_RELAXED);
		}
	}
	exit(0);
}

/*
 * The UDP length of datagram seq: 1..7 full fragments and a last one of
 * 300..1479 bytes.  Never a last fragment of a few bytes: the head's
 * tailroom would absorb it (skb_try_coalesce()) and leave a linear skb.
 */
static unsigned int dgram_len(uint32_t seq)
{
	return FRAG_DATA * (1 + seq % 7) + 300 + seq * 7919u % (FRAG_DATA - 300);
}

static uint16_t ip_checksum(const unsigned char *h)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * Datagram seq to RX_IF (its MAC and address), as IPv4 fragments of
 * FRAG_DATA bytes: UDP header (checksum 0: none), the 32-bit seq, then
 * fill(seq, i) for the UDP offsets i >= 12.
 */
static void frag_sender(int ifindex, const unsigned char *dst_mac, struct in_addr dst)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex,
				   .sll_halen = 6 };
	static unsigned char dgram[FRAG_DATA * 8];
	unsigned char f[14 + 20 + FRAG_DATA];
	uint32_t src = dst.s_addr ^ htonl(3);	/* .1 for .2: RX_IF's subnet */
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd < 0)
		exit(2);
	for (uint32_t seq = 0; !sh->stop; seq++) {
		unsigned int len = dgram_len(seq), off;

		dgram[0] = (UDP_PORT + 1) >> 8;
		dgram[1] = (uint8_t)(UDP_PORT + 1);
		dgram[2] = UDP_PORT >> 8;
		dgram[3] = (uint8_t)UDP_PORT;
		dgram[4] = len >> 8;
		dgram[5] = (uint8_t)len;
		dgram[6] = dgram[7] = 0;
		dgram[8] = seq >> 24;
		dgram[9] = seq >> 16;
		dgram[10] = seq >> 8;
		dgram[11] = seq;
		for (unsigned int i = 12; i < len; i++)
			dgram[i] = fill(seq, i);
		for (off = 0; off < len; off += FRAG_DATA) {
			unsigned int n = len - off < FRAG_DATA ? len - off : FRAG_DATA;
			unsigned int frag = off / 8 | (off + n < len ? 0x2000 : 0);	/* MF */

			memcpy(f, dst_mac, 6);
			memcpy(f + 6, "\x02\x00\x00\x00\x00\x02", 6);
			f[12] = 0x08;
			f[13] = 0;
			memset(f + 14, 0, 20);
			f[14] = 0x45;
			f[16] = (20 + n) >> 8;
			f[17] = (uint8_t)(20 + n);
			f[18] = seq >> 8;			/* IP ID */
			f[19] = seq;
			f[20] = frag >> 8;
			f[21] = (uint8_t)frag;
			f[22] = 64;
			f[23] = 17;
			memcpy(f + 26, &src, 4);
			memcpy(f + 30, &dst.s_addr, 4);
			f[24] = ip_checksum(f + 14) >> 8;
			f[25] = (uint8_t)ip_checksum(f + 14);
			memcpy(f + 34, dgram + off, n);
			if (sendto(fd, f, 34 + n, 0, (struct sockaddr *)&sll, sizeof(sll)) != 34 + (ssize_t)n)
				break;
		}
		if (off >= len)
			__atomic_add_fetch(&sh->dgrams_sent, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&sh->dgram_send_errors, 1, __ATOMIC_RELAXED);
	}
	exit(0);
}

static void toggler(void)
{
	int on = 0;

	while (!sh->stop) {
		int fd = open(SWITCH, O_WRONLY);

		if (fd >= 0) {
			if (write(fd, on ? "1" : "0", 1) == 1)
				sh->toggles++;
			close(fd);
		}
		on = !on;
		usleep(50000);
	}
	exit(0);
}

/*
 * The filters, with what they must let through: accept(seq, len, P) is the
 * number of bytes the frame or datagram seq of len bytes is delivered with
 * (0: dropped), P a random number & param_mask put into the "P" operands
 * (the jumps with k == 0).  Each is a different shape: packet loads, ALU,
 * scratch memory, ancillary loads, X-indexed loads, loads across the
 * fragments of a jumbo frame or the frag_list of a datagram.
 */
struct soak_filter {
	const char *name;
	struct sock_filter insns[12];
	unsigned short len;
	unsigned int param_mask;
	unsigned int (*accept)(uint32_t seq, unsigned int len, unsigned int param);
};

static unsigned int acc_low3(uint32_t port, UNUSED unsigned int len, unsigned int p)
{
	return (port & 7) == p ? 0xffff : 0;
}

static unsigned int acc_trim(uint32_t port, UNUSED unsigned int len, UNUSED unsigned int p)
{
	return 42 + (port & 31);
}

static unsigned int acc_proto(uint32_t port, UNUSED unsigned int len, unsigned int p)
{
	return (port & 1) == p ? 64 : 0;
}

static unsigned int acc_ind(uint32_t port, UNUSED unsigned int len, unsigned int p)
{
	return (uint8_t)~port == p ? 0xffff : 0;
}

/* The last byte, at X = len - 1: in the last fragment or frag_list skb. */
static unsigned int acc_last(uint32_t seq, unsigned int len, unsigned int p)
{
	return (fill(seq, len - 1) & 3) == p ? 0xffff : 0;
}

/* A frame's words across 6.1's first page (14 + 4096) and 6.12's (14 + 32768). */
static unsigned int acc_pages(uint32_t port, unsigned int len, unsigned int p)
{
	if (len < 32783)
		return 0;
	return ((fill(port, 4111) + fill(port, 32782)) & 7) == p ? 0xffff : 0;
}

/* A datagram's byte 1481, in the word across its head (1480 bytes) and frag_list. */
static unsigned int acc_head_trim(uint32_t seq, UNUSED unsigned int len, UNUSED unsigned int p)
{
	return 20 + fill(seq, 1481);
}

/* A datagram's half-word across its first and second frag_list skbs. */
static unsigned int acc_list_ind(uint32_t seq, unsigned int len, unsigned int p)
{
	if (len < 2 * FRAG_DATA + 1)
		return 0;
	return ((fill(seq, 2959) << 8 | fill(seq, 2960)) & 3) == p ? 0xffff : 0;
}

#define LAST_BYTE_AND_3_IS_P						\
	{ INSN(BPF_LD | BPF_W | BPF_LEN, 0, 0, 0),			\
	  INSN(BPF_ALU | BPF_SUB | BPF_K, 0, 0, 1),			\
	  INSN(BPF_MISC | BPF_TAX, 0, 0, 0),				\
	  INSN(BPF_LD | BPF_B | BPF_IND, 0, 0, 0),			\
	  INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 3),			\
	  INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0 /* P */),		\
	  INSN(BPF_RET | BPF_K, 0, 0, 0xffff),				\
	  INSN(BPF_RET | BPF_K, 0, 0, 0) }, 8, 3, acc_last

/* For the packet sockets on RX_IF: offsets from the Ethernet header. */
static const struct soak_filter filters[] = {
	{ "udp dst port & 7 == P",
	  { INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, 23),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 4, 17),
	    INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, 36),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 7),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0 /* P */),
	    INSN(BPF_RET | BPF_K, 0, 0, 0xffff),
	    INSN(BPF_RET | BPF_K, 0, 0, 0) }, 7, 7, acc_low3 },
	{ "trim to 42 + (port & 31) via M[]",
	  { INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, 36),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 31),
	    INSN(BPF_ST, 0, 0, 4),
	    INSN(BPF_LD | BPF_IMM, 0, 0, 42),
	    INSN(BPF_LDX | BPF_MEM, 0, 0, 4),
	    INSN(BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 7, 0, acc_trim },
	{ "protocol ancillary and port parity",
	  { INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, SKF_AD_OFF + SKF_AD_PROTOCOL),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, ETH_P_IP),
	    INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, 36),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 1),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0 /* P */),
	    INSN(BPF_LD | BPF_IMM, 0, 0, 64),
	    INSN(BPF_RET | BPF_A, 0, 0, 0),
	    INSN(BPF_RET | BPF_K, 0, 0, 0) }, 8, 1, acc_proto },
	{ "msh-indexed source port byte == P",
	  { INSN(BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14),
	    INSN(BPF_LD | BPF_B | BPF_IND, 0, 0, 15),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0 /* P */),
	    INSN(BPF_RET | BPF_K, 0, 0, 0xffff),
	    INSN(BPF_RET | BPF_K, 0, 0, 0) }, 5, 0xff, acc_ind },
	{ "last byte (X = len - 1) & 3 == P", LAST_BYTE_AND_3_IS_P },
	{ "words across page fragments: ([4108] + [32781:2]) & 7 == P",
	  { INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, 4108),
	    INSN(BPF_ST, 0, 0, 0),
	    INSN(BPF_LD | BPF_H | BPF_ABS, 0, 0, 32781),
	    INSN(BPF_LDX | BPF_MEM, 0, 0, 0),
	    INSN(BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 7),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0 /* P */),
	    INSN(BPF_RET | BPF_K, 0, 0, 0xffff),
	    INSN(BPF_RET | BPF_K, 0, 0, 0) }, 9, 7, acc_pages },
};

/* For the UDP sockets: offsets from the UDP header (sk_filter_trim_cap()). */
static const struct soak_filter dgram_filters[] = {
	{ "datagram: last byte (X = len - 1) & 3 == P", LAST_BYTE_AND_3_IS_P },
	{ "datagram: trim to 20 + low byte of [1478], across head and frag_list",
	  { INSN(BPF_LD | BPF_W | BPF_ABS, 0, 0, 1478),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 0xff),
	    INSN(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 20),
	    INSN(BPF_RET | BPF_A, 0, 0, 0) }, 4, 0, acc_head_trim },
	{ "datagram: [x + 1:2] & 3 == P, X = 2958, across frag_list skbs",
	  { INSN(BPF_LDX | BPF_IMM, 0, 0, 2 * FRAG_DATA - 2),
	    INSN(BPF_LD | BPF_H | BPF_IND, 0, 0, 1),
	    INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 3),
	    INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0 /* P */),
	    INSN(BPF_RET | BPF_K, 0, 0, 0xffff),
	    INSN(BPF_RET | BPF_K, 0, 0, 0) }, 6, 3, acc_list_ind },
};

/* A random filter of the table with its "P" operands filled in. */
static const struct soak_filter *pick(const struct soak_filter *table, size_t n,
				      unsigned int *seed, struct sock_filter *insns,
				      unsigned int *param)
{
	const struct soak_filter *f = &table[rand_r(seed) % n];

	*param = rand_r(seed) & f->param_mask;
	memcpy(insns, f->insns, sizeof(f->insns));
	for (int i = 0; i < f->len; i++)
		if (BPF_CLASS(insns[i].code) == BPF_JMP && insns[i].k == 0)
			insns[i].k = *param;
	return f;
}

static void mismatch(struct counters *c, const char *fmt, ...)
{
	va_list ap;

	if (c->mismatches++)
		return;
	va_start(ap, fmt);
	vsnprintf(c->first_mismatch, sizeof(c->first_mismatch), fmt, ap);
	va_end(ap);
}

static void worker(int id, int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = ifindex };
	struct counters *c = &sh->w[id];
	unsigned char buf[2048];
	unsigned int seed = 0x9e3779b9u * (id + 1);

	while (!sh->stop) {
		struct sock_filter insns[12];
		unsigned int param;
		const struct soak_filter *f = pick(filters, ARRAY_SIZE(filters), &seed, insns, &param);
		struct sock_fprog prog = { .len = f->len, .filter = insns };
		double until = now() + 0.005 * (rand_r(&seed) % 4);
		int fd;

		/* Protocol 0: nothing is delivered before bind(). */
		fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
		    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
			c->attach_errors++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		c->attached++;
		do {
			/* MSG_TRUNC: the length delivered, not what fits in buf */
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
			uint16_t port = 0;
			unsigned int want = 0, len = 0;

			if (n < 0)
				continue;
			if (n < 12 || memcmp(buf + 6, "\x02\x00\x00\x00\x00\x01", 6))
				continue;	/* not the sender's (not on our veth) */
			if (n >= 38) {
				port = buf[36] << 8 | buf[37];
				len = frame_len(port);
				want = f->accept(port, len, param);
				if (want > len)
					want = len;
			}
			c->frames++;
			if (len > FRAME_LEN)
				c->shaped++;
			if ((unsigned int)n != want)
				mismatch(c, "filter \"%s\" P=%u: port %u (%u bytes) delivered %zd bytes, want %u",
					 f->name, param, port, len, n, want);
		} while (now() < until && !sh->stop);
		close(fd);
	}
	exit(0);
}

/*
 * UDP sockets on RX_IP:UDP_PORT with a random filter of dgram_filters[]
 * each: every datagram delivered must be one the filter accepts, trimmed
 * to the length it returns.
 */
static void dgram_receiver(struct in_addr addr)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(UDP_PORT),
				   .sin_addr = addr };
	struct counters *c = &sh->dgram;
	static unsigned char buf[FRAG_DATA * 8];
	unsigned int seed = 0x85ebca6bu;
	int one = 1;

	while (!sh->stop) {
		struct sock_filter insns[12];
		unsigned int param;
		const struct soak_filter *f = pick(dgram_filters, ARRAY_SIZE(dgram_filters),
						   &seed, insns, &param);
		struct sock_fprog prog = { .len = f->len, .filter = insns };
		double until = now() + 0.005 * (1 + rand_r(&seed) % 4);
		int fd;

		/* The filter before bind(): every datagram meets it. */
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		    setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
		    bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
			c->attach_errors++;
			if (fd >= 0)
				close(fd);
			usleep(1000);
			continue;
		}
		c->attached++;
		do {
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
			unsigned int want, len;
			uint32_t seq;

			if (n < 0)
				continue;
			c->frames++;
			if (n < 4) {
				mismatch(c, "filter \"%s\" P=%u: a datagram of %zd bytes", f->name, param, n);
				continue;
			}
			seq = (uint32_t)buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3];
			len = dgram_len(seq);
			want = f->accept(seq, len, param);
			if (want > len)
				want = len;
			/* recv() returns the payload: the UDP length less its header */
			if (!want || (unsigned int)n != want - 8)
				mismatch(c, "filter \"%s\" P=%u: datagram %u (%u bytes) delivered %zd + 8 bytes, want %u",
					 f->name, param, seq, len, n, want);
		} while (now() < until && !sh->stop);
		close(fd);
	}
	exit(0);
}

/* RX_IF's MAC and IPv4 address (section soak gives it one). */
static int rx_address(const char *name, unsigned char *mac, struct in_addr *addr)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), ok;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ok = fd >= 0 && !ioctl(fd, SIOCGIFHWADDR, &ifr);
	if (ok)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	ok = ok && !ioctl(fd, SIOCGIFADDR, &ifr);
	if (ok)
		*addr = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
	if (fd >= 0)
		close(fd);
	return ok;
}

static const char *first_mismatch(const struct counters *c, const char *first)
{
	return *first || !c->mismatches ? first : c->first_mismatch;
}

int main(int argc, char **argv)
{
	int seconds = 60, workers = 3, txif, rxif, status, argi = 1, s;
	unsigned long attached, errors, frames = 0, shaped = 0, mismatches = 0;
	const char *first = "";
	pid_t pids[MAX_WORKERS + 4];
	int npids = 0;
	char saved[8] = "1";
	unsigned char rx_mac[6];
	struct in_addr rx_ip;
	double t0, elapsed;
	int fd;

	for (; argi + 1 < argc && argv[argi][0] == '-'; argi += 2) {
		if (!strcmp(argv[argi], "--seconds"))
			seconds = atoi(argv[argi + 1]);
		else if (!strcmp(argv[argi], "--workers"))
			workers = atoi(argv[argi + 1]);
	}
	if (argc - argi != 2 || workers < 1 || workers > MAX_WORKERS || seconds < 1) {
		fprintf(stderr, "usage: cbpf-jit-soak [--seconds N] [--workers W] TX_IF RX_IF\n");
		return 2;
	}
	txif = ifindex_of(argv[argi]);
	rxif = ifindex_of(argv[argi + 1]);
	if (!rx_address(argv[argi + 1], rx_mac, &rx_ip)) {
		fprintf(stderr, "cbpf-jit-soak: %s has no IPv4 address: the datagrams need one\n",
			argv[argi + 1]);
		return 2;
	}
	fd = open(SWITCH, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, saved, sizeof(saved) - 1) <= 0)
			strcpy(saved, "1");
		close(fd);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;

	t0 = now();
	for (int i = 0; i < workers + 4; i++) {
		pid_t p = fork();

		if (p < 0)
			return 2;
		if (!p) {
			if (i == 0)
				sender(txif);
			else if (i == 1)
				toggler();
			else if (i == 2)
				frag_sender(txif, rx_mac, rx_ip);
			else if (i == 3)
				dgram_receiver(rx_ip);
			else
				worker(i - 4, rxif);
		}
		pids[npids++] = p;
	}
	/*
	 * The given time, and on until the filters have met each shape (a
	 * count, not a rate: a slow machine only takes longer), at most ten
	 * times as long.
	 */
	for (s = 0; s < 10 * seconds; s++) {
		unsigned long jumbo = 0;

		for (int i = 0; i < workers; i++)
			jumbo += sh->w[i].shaped;
		if (s >= seconds && jumbo && sh->dgram.frames)
			break;
		sleep(1);
		if (s % 60 == 59)
			fprintf(stderr, "cbpf-jit-soak: %d/%d s, %lu frames sent\n", s + 1, seconds, sh->sent);
	}
	sh->stop = 1;
	for (int i = 0; i < npids; i++)
		waitpid(pids[i], &status, 0);
	elapsed = now() - t0;
	fd = open(SWITCH, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, saved, strcspn(saved, "\n")) < 0)
			perror(SWITCH);
		close(fd);
	}

	attached = sh->dgram.attached;
	errors = sh->dgram.attach_errors;
	for (int i = 0; i < workers; i++) {
		attached += sh->w[i].attached;
		errors += sh->w[i].attach_errors;
		frames += sh->w[i].frames;
		shaped += sh->w[i].shaped;
		mismatches += sh->w[i].mismatches;
		first = first_mismatch(&sh->w[i], first);
	}
	printf("traffic through the veth pair\t%s\t%.0f frames/s sent for %.0f s (%lu frames, %lu of them jumbo frames of %d-%d bytes; %lu send errors)\n",
	       sh->sent && sh->jumbo_sent ? "pass" : "fail", sh->sent / elapsed, elapsed, sh->sent,
	       sh->jumbo_sent, JUMBO_MIN, JUMBO_MIN + JUMBO_SPAN - 1, sh->send_errors);
	printf("fragmented datagrams through the veth pair\t%s\t%lu UDP datagrams of %d-%d bytes, each as 2-8 IPv4 fragments of at most %d bytes (%lu send errors)\n",
	       sh->dgrams_sent ? "pass" : "fail", sh->dgrams_sent, FRAG_DATA + 300, 8 * FRAG_DATA - 1,
	       FRAG_DATA, sh->dgram_send_errors);
	printf("filters attached and detached\t%s\t%lu by %d packet-socket processes and 1 UDP-socket process (%.0f/s), %lu attach errors, switch toggled %lu times\n",
	       attached && !errors ? "pass" : "fail", attached, workers, attached / elapsed, errors, sh->toggles);
	printf("every delivered frame is one its filter accepts\t%s\t%lu frames checked, %lu of them jumbo frames in page fragments; %lu mismatches%s%s\n",
	       frames && shaped && !mismatches ? "pass" : "fail", frames, shaped, mismatches,
	       *first ? ": " : "", first);
	printf("every delivered datagram is one its filter accepts\t%s\t%lu reassembled datagrams (a head and a frag_list of 1-7 skbs) checked; %lu mismatches%s%s\n",
	       sh->dgram.frames && !sh->dgram.mismatches ? "pass" : "fail",
	       sh->dgram.frames, sh->dgram.mismatches, sh->dgram.mismatches ? ": " : "",
	       sh->dgram.mismatches ? sh->dgram.first_mismatch : "");
	return !(sh->sent && sh->jumbo_sent && sh->dgrams_sent && attached && !errors &&
		 frames && shaped && !mismatches && sh->dgram.frames && !sh->dgram.mismatches);
}
