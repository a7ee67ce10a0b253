// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-bench: the guest half of `make bench` (tests/bench/README.bench.md).
 *
 *   cbpf-bench run [-i ITER] [-r REPEAT] FILTERS RESULTS
 *	In the guest (root, debugfs mounted, test_cbpf_jit loaded): for each
 *	mode (interpreter, upstream conversion + eBPF JIT, direct classic
 *	JIT) set the sysctls, then for the `ret #0` program and every filter
 *	of FILTERS write REPEAT requests to test_cbpf_jit's debugfs file, each
 *	with the whole packet mix and ITER runs per packet, and keep the
 *	smallest total_ns per packet and the smallest compile_ns over the
 *	repeats (the smallest is the run no timer interrupt landed in).
 *	Results are written to RESULTS at the end (no console or serial
 *	traffic while timing); progress lines "bench: ..." go to stdout.
 *   cbpf-bench pcap OUT.pcap
 *	On the host: write the same packet mix as a pcap file (DLT_EN10MB),
 *	for the offline cross-check with `tcpdump -r`.
 *   cbpf-bench count
 *	On the host: count the records of a pcap file on stdin.
 *
 * FILTERS: one filter a line, "ID N VIEW code,jt,jf,k code,jt,jf,k ..."
 * (numbers in C notation, decimal or 0x hex), made on the host by run-bench
 * (tcpdump -dd, programs.txt, seccomp-profiles).  A filter of VIEW seccomp
 * is a seccomp filter: it runs over its own syscall mix, the lines
 * "sd ID nr arch instruction_pointer arg0 ... arg5" that follow it, through
 * test_cbpf_jit's seccomp request (built as seccomp builds it); the packet
 * mix is not used.
 *
 * RESULTS (text, one record a line, all numbers decimal):
 *   meta KEY VALUE
 *   pkt IDX LEN HEADLEN NAME
 *   mode NAME avail(0|1) [reason]
 *   f MODE ID create_err jited jited_len compile_ns compiled_delta iterations
 *	nr_pkts matched flags  then per packet: min_total_ns ret
 *   end
 *
 * The packet mix is deterministic: the same bytes on every machine.
 * Build: cc -O2 -static -Wall -Wextra -o cbpf-bench cbpf-bench.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define MAX_PKTS 64
#define MAX_LEN 16384
#define MAX_INSNS 4096
#define MAX_FILTERS 512
#define MAX_SD 64
#define SYSCTL "/proc/sys/net/core/"

#include "test_cbpf_jit.h"

struct sf {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct pkt {
	const char *name;
	uint32_t len, headlen;
	uint8_t pkt_type;
	uint8_t data[MAX_LEN];
};

static struct pkt pkts[MAX_PKTS];
static int npkts;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("cbpf-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* ---- the packet mix ------------------------------------------------- */

static uint32_t rng = 0x2545f491u;

static uint8_t rnd8(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 23;
}

struct b {
	struct pkt *p;
	uint32_t n;
};

static void put(struct b *b, const void *d, uint32_t n)
{
	if (b->n + n > MAX_LEN)
		die("packet too long");
	memcpy(b->p->data + b->n, d, n);
	b->n += n;
}

static void put8(struct b *b, uint8_t v) { put(b, &v, 1); }
static void put16(struct b *b, uint16_t v)
{
	uint8_t x[2] = { v >> 8, v & 0xff };

	put(b, x, 2);
}

static void put32(struct b *b, uint32_t v)
{
	put16(b, v >> 16);
	put16(b, v & 0xffff);
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static const uint8_t mac_a[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t mac_b[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };
static const uint8_t mac_gw[6] = { 0x00, 0x1b, 0x21, 0x0a, 0x0b, 0x0c };
static const uint8_t mac_bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_mdns[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb };
static const uint8_t mac_v6mc[6] = { 0x33, 0x33, 0x00, 0x01, 0x00, 0x02 };
static const uint8_t mac_v6ns[6] = { 0x33, 0x33, 0xff, 0x00, 0x00, 0x02 };
static const uint8_t mac_lldp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };

static uint32_t ip4(int a, int b, int c, int d)
{
	return (uint32_t)a << 24 | b << 16 | c << 8 | d;
}

static void eth(struct b *b, const uint8_t *dst, const uint8_t *src, int vlan,
		uint16_t type)
{
	put(b, dst, 6);
	put(b, src, 6);
	if (vlan >= 0) {
		put16(b, 0x8100);
		put16(b, vlan);
	}
	put16(b, type);
}

static uint16_t csum(const uint8_t *p, int n)
{
	uint32_t s = 0;
	int i;

	for (i = 0; i + 1 < n; i += 2)
		s += p[i] << 8 | p[i + 1];
	if (n & 1)
		s += p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s;
}

/* IPv4 header; returns the offset of the header (total length and
 * checksum are filled in by finish()).
 */
static uint32_t ipv4(struct b *b, uint32_t src, uint32_t dst, uint8_t proto,
		     uint8_t tos, uint8_t ttl, uint16_t frag)
{
	uint32_t off = b->n;

	put8(b, 0x45);
	put8(b, tos);
	put16(b, 0);
	put16(b, 0x1000 + off * 7);
	put16(b, frag);
	put8(b, ttl);
	put8(b, proto);
	put16(b, 0);
	put32(b, src);
	put32(b, dst);
	return off;
}

static uint32_t ipv6(struct b *b, const char *src, const char *dst, uint8_t nh)
{
	uint32_t off = b->n;
	uint8_t a[16];
	int i, j;

	put32(b, 0x60000000);
	put16(b, 0);
	put8(b, nh);
	put8(b, 64);
	/* tiny parser for the textual addresses used below ("2001:db8::1") */
	for (j = 0; j < 2; j++) {
		const char *s = j ? dst : src;
		uint16_t g[8] = { 0 }, t[8];
		int n = 0, m = 0, dbl = 0;

		while (*s) {
			if (s[0] == ':' && s[1] == ':') {
				dbl = 1;
				s += 2;
				continue;
			}
			if (*s == ':') {
				s++;
				continue;
			}
			*(dbl ? &t[m++] : &g[n++]) = strtoul(s, (char **)&s, 16);
		}
		for (i = 0; i < m; i++)
			g[8 - m + i] = t[i];
		for (i = 0; i < 8; i++)
			wr16(a + 2 * i, g[i]);
		put(b, a, 16);
	}
	return off;
}

static void tcp(struct b *b, uint16_t sp, uint16_t dp, uint8_t flags, int opts)
{
	put16(b, sp);
	put16(b, dp);
	put32(b, 0x10000000u + sp * 77u);
	put32(b, flags & 0x10 ? 0x20000000u + dp * 13u : 0);
	put8(b, (5 + opts / 4) << 4);
	put8(b, flags);
	put16(b, 64240);
	put16(b, 0);
	put16(b, 0);
	if (opts == 20) {	/* SYN: MSS, SACK permitted, timestamps, wscale */
		static const uint8_t o[20] = { 2, 4, 5, 0xb4, 4, 2, 8, 10,
			0, 1, 2, 3, 0, 0, 0, 0, 1, 3, 3, 7 };
		put(b, o, 20);
	} else if (opts == 12) {	/* NOP, NOP, timestamps */
		static const uint8_t o[12] = { 1, 1, 8, 10, 0, 1, 2, 3,
			0, 0, 0x10, 0x20 };
		put(b, o, 12);
	}
}

static void udp(struct b *b, uint16_t sp, uint16_t dp)
{
	put16(b, sp);
	put16(b, dp);
	put16(b, 0);		/* length: finish() */
	put16(b, 0);
}

static void payload(struct b *b, const char *s, uint32_t n)
{
	uint32_t l = s ? strlen(s) : 0;

	if (l)
		put(b, s, l);
	while (l++ < n)
		put8(b, rnd8());
}

enum { TCP_FIN = 1, TCP_SYN = 2, TCP_RST = 4, TCP_PSH = 8, TCP_ACK = 16 };

/* Fill in lengths and checksums; pad to the Ethernet minimum of 60. */
static void finish(struct b *b, const char *name, int l3, int l4, int v6,
		   uint32_t headlen, uint8_t pkt_type)
{
	uint8_t *d = b->p->data;

	if (l3 >= 0 && !v6) {
		wr16(d + l3 + 2, b->n - l3);
		wr16(d + l3 + 10, csum(d + l3, 20));
	} else if (l3 >= 0) {
		wr16(d + l3 + 4, b->n - l3 - 40);
	}
	if (l4 >= 0 && d[l3 + (v6 ? 6 : 9)] == 17)
		wr16(d + l4 + 4, b->n - l4);
	while (b->n < 60)
		put8(b, 0);
	b->p->name = name;
	b->p->len = b->n;
	b->p->headlen = headlen ? headlen : b->n;
	b->p->pkt_type = pkt_type;
}

enum { HOST = 0, BCAST = 1, MCAST = 2, OTHER = 3 };

#define PKT(b) struct b b = { &pkts[npkts++], 0 }

static void v4tcp(const char *name, int vlan, uint32_t s, uint32_t d,
		  uint16_t sp, uint16_t dp, uint8_t fl, int opts,
		  const char *pl, uint32_t plen, uint32_t headlen)
{
	PKT(b);
	int l3, l4;

	eth(&b, mac_a, mac_gw, vlan, 0x0800);
	l3 = ipv4(&b, s, d, 6, 0, 64, 0x4000);
	l4 = b.n;
	tcp(&b, sp, dp, fl, opts);
	payload(&b, pl, plen);
	finish(&b, name, l3, l4, 0, headlen, HOST);
}

static void v4udp(const char *name, int vlan, const uint8_t *dmac,
		  uint32_t s, uint32_t d, uint16_t sp, uint16_t dp,
		  uint8_t tos, uint32_t plen, uint8_t pkt_type)
{
	PKT(b);
	int l3, l4;

	eth(&b, dmac, mac_gw, vlan, 0x0800);
	l3 = ipv4(&b, s, d, 17, tos, 64, 0);
	l4 = b.n;
	udp(&b, sp, dp);
	payload(&b, NULL, plen);
	finish(&b, name, l3, l4, 0, 0, pkt_type);
}

static void v4icmp(const char *name, uint32_t s, uint32_t d, uint8_t type,
		   uint8_t code, uint32_t plen)
{
	PKT(b);
	int l3, l4;

	eth(&b, mac_a, mac_gw, -1, 0x0800);
	l3 = ipv4(&b, s, d, 1, 0, 64, 0);
	l4 = b.n;
	put8(&b, type);
	put8(&b, code);
	put16(&b, 0);
	put32(&b, 0x00010001);
	payload(&b, NULL, plen);
	finish(&b, name, l3, l4, 0, 0, HOST);
}

static void v6l4(const char *name, int vlan, const uint8_t *dmac,
		 const char *s, const char *d, uint8_t nh, uint16_t sp,
		 uint16_t dp, uint8_t fl, uint32_t plen, uint32_t headlen,
		 uint8_t pkt_type)
{
	PKT(b);
	int l3, l4;

	eth(&b, dmac, mac_b, vlan, 0x86dd);
	l3 = ipv6(&b, s, d, nh);
	l4 = b.n;
	if (nh == 6) {
		tcp(&b, sp, dp, fl, fl & TCP_SYN ? 20 : 12);
	} else if (nh == 17) {
		udp(&b, sp, dp);
	} else {		/* ICMPv6: sp = type */
		put8(&b, sp);
		put8(&b, 0);
		put16(&b, 0);
		put32(&b, 0);
	}
	payload(&b, NULL, plen);
	finish(&b, name, l3, l4, 1, headlen, pkt_type);
}

static void arp(const char *name, int vlan, int reply)
{
	PKT(b);

	eth(&b, reply ? mac_a : mac_bc, reply ? mac_b : mac_a, vlan, 0x0806);
	put16(&b, 1);
	put16(&b, 0x0800);
	put8(&b, 6);
	put8(&b, 4);
	put16(&b, reply ? 2 : 1);
	put(&b, reply ? mac_b : mac_a, 6);
	put32(&b, reply ? ip4(10, 0, 0, 2) : ip4(10, 0, 0, 1));
	put(&b, reply ? mac_a : (const uint8_t[6]){ 0 }, 6);
	put32(&b, reply ? ip4(10, 0, 0, 1) : ip4(10, 0, 0, 2));
	finish(&b, name, -1, -1, 0, 0, reply ? HOST : BCAST);
}

static void build_mix(void)
{
	uint32_t c1 = ip4(10, 0, 0, 1), c2 = ip4(10, 0, 0, 2);
	uint32_t lan = ip4(192, 168, 1, 10), dns = ip4(8, 8, 8, 8);
	const char *get = "GET /index.html HTTP/1.1\r\nHost: example.org\r\n"
			  "User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n";

	npkts = 0;
	/* IPv4 TCP: a web session, TLS, ssh, rdp */
	v4tcp("tcp4 syn :80", -1, c1, c2, 51000, 80, TCP_SYN, 20, NULL, 0, 0);
	v4tcp("tcp4 synack :80", -1, c2, c1, 80, 51000, TCP_SYN | TCP_ACK, 20,
	      NULL, 0, 0);
	v4tcp("tcp4 http GET", -1, c1, c2, 51000, 80, TCP_PSH | TCP_ACK, 12,
	      get, 0, 0);
	v4tcp("tcp4 http data 1514 nonlin", -1, c2, c1, 80, 51000, TCP_ACK, 12,
	      "HTTP/1.1 200 OK\r\n", 1448, 66);
	v4tcp("tcp4 tls :443 600", -1, lan, c1, 443, 52000, TCP_PSH | TCP_ACK,
	      12, NULL, 534, 0);
	v4tcp("tcp4 ack :443", -1, c1, lan, 52000, 443, TCP_ACK, 12, NULL, 0, 0);
	v4tcp("tcp4 ssh :22", -1, ip4(192, 168, 0, 5), ip4(172, 16, 5, 4), 22,
	      40000, TCP_PSH | TCP_ACK, 12, NULL, 84, 0);
	v4tcp("tcp4 rst", -1, ip4(172, 16, 5, 4), ip4(192, 168, 0, 5), 40000,
	      22, TCP_RST, 0, NULL, 0, 0);
	v4tcp("tcp4 rdp fin", -1, ip4(203, 0, 113, 7), ip4(10, 0, 0, 9), 3389,
	      49152, TCP_FIN | TCP_ACK, 0, NULL, 0, 0);
	v4tcp("tcp4 x11 :6001", -1, ip4(10, 1, 2, 3), c2, 6001, 41000,
	      TCP_ACK | TCP_PSH, 12, NULL, 120, 0);
	/* IPv4 UDP */
	v4udp("udp4 dns query", -1, mac_a, c1, dns, 40001, 53, 0, 32, HOST);
	v4udp("udp4 dns reply", -1, mac_a, dns, c1, 53, 40001, 0, 78, HOST);
	v4udp("udp4 dhcp discover", -1, mac_bc, 0, 0xffffffffu, 68, 67, 0, 300,
	      BCAST);
	v4udp("udp4 ntp", -1, mac_a, ip4(10, 0, 0, 5), lan, 123, 123, 0, 48,
	      HOST);
	v4udp("udp4 mdns mcast", -1, mac_mdns, lan, ip4(224, 0, 0, 251), 5353,
	      5353, 0, 58, MCAST);
	v4udp("udp4 rtp dscp ef", -1, mac_a, ip4(10, 0, 0, 3),
	      ip4(10, 0, 0, 4), 16384, 16384, 0xb8, 172, HOST);
	v4udp("udp4 quic :443 1292", -1, mac_a, ip4(142, 250, 1, 1), c1, 443,
	      53111, 0, 1250, HOST);
	{	/* a first and a later fragment of a large UDP datagram */
		PKT(b);
		int l3;

		eth(&b, mac_a, mac_gw, -1, 0x0800);
		l3 = ipv4(&b, ip4(10, 0, 0, 7), c1, 17, 0, 64, 0x2000);
		udp(&b, 5001, 5001);
		payload(&b, NULL, 1472);
		finish(&b, "udp4 frag first 1514 nonlin", l3, -1, 0, 42, HOST);
	}
	{
		PKT(b);
		int l3;

		eth(&b, mac_a, mac_gw, -1, 0x0800);
		l3 = ipv4(&b, ip4(10, 0, 0, 7), c1, 17, 0, 64, 185);
		payload(&b, NULL, 500);
		finish(&b, "udp4 frag last", l3, -1, 0, 0, HOST);
	}
	/* ICMP, GRE */
	v4icmp("icmp4 echo", c1, dns, 8, 0, 56);
	v4icmp("icmp4 echo reply", dns, c1, 0, 0, 56);
	v4icmp("icmp4 unreachable", ip4(192, 168, 0, 1), c1, 3, 3, 28);
	{
		PKT(b);
		int l3;

		eth(&b, mac_a, mac_gw, -1, 0x0800);
		l3 = ipv4(&b, c1, ip4(172, 16, 0, 1), 47, 0, 3, 0);
		put32(&b, 0x00000800);
		payload(&b, NULL, 80);
		finish(&b, "gre4 ttl 3", l3, -1, 0, 0, HOST);
	}
	/* ARP, LLDP */
	arp("arp request", -1, 0);
	arp("arp reply", -1, 1);
	{
		PKT(b);

		eth(&b, mac_lldp, mac_b, -1, 0x88cc);
		payload(&b, NULL, 46);
		finish(&b, "lldp", -1, -1, 0, 0, MCAST);
	}
	/* IPv6 */
	v6l4("tcp6 tls :443 500", -1, mac_a, "2001:db8::1", "2001:db8::2", 6,
	     443, 50000, TCP_PSH | TCP_ACK, 414, 0, HOST);
	v6l4("tcp6 syn :443", -1, mac_a, "2001:db8::2", "2001:db8::1", 6,
	     50000, 443, TCP_SYN, 0, 0, HOST);
	v6l4("tcp6 data 1514 nonlin", -1, mac_a, "2001:db8::1", "2001:db8::2",
	     6, 443, 50000, TCP_ACK, 1428, 86, HOST);
	v6l4("udp6 dhcpv6 mcast", -1, mac_v6mc, "fe80::1", "ff02::1:2", 17, 546,
	     547, 0, 60, 0, MCAST);
	v6l4("udp6 dns reply", -1, mac_a, "2001:db8:1::53", "2001:db8::5", 17,
	     53, 45000, 0, 100, 0, HOST);
	v6l4("icmp6 echo", -1, mac_a, "2001:db8::1", "2001:db8::2", 58, 128, 0,
	     0, 56, 0, HOST);
	v6l4("icmp6 neigh solicit", -1, mac_v6ns, "fe80::1", "ff02::1:ff00:2",
	     58, 135, 0, 0, 24, 0, MCAST);
	/* 802.1Q tagged, the tag in the frame (what an offline filter sees) */
	v4tcp("vlan100 tcp4 :80", 100, c1, c2, 51001, 80, TCP_PSH | TCP_ACK, 12,
	      get, 0, 0);
	v4udp("vlan200 udp4 dns", 200, mac_a, lan, c1, 53, 40002, 0, 60, HOST);
	arp("vlan100 arp request", 100, 0);
	v6l4("vlan300 tcp6 :22", 300, mac_a, "2001:db8::1", "2001:db8::3", 6,
	     40022, 22, TCP_ACK, 40, 0, HOST);
	/* large non-linear frames: jumbo with the headers in the head, and one
	 * whose TCP header lies in the first page fragment
	 */
	v4tcp("tcp4 jumbo 9014 nonlin", -1, c2, c1, 80, 51000, TCP_ACK, 12,
	      NULL, 8948, 128);
	v4tcp("tcp4 4000 hdr-in-frag", -1, c1, ip4(10, 0, 0, 20), 443, 52001,
	      TCP_ACK | TCP_PSH, 12, NULL, 3934, 34);
}

/* ---- pcap (host side) ---------------------------------------------- */

static void write_pcap(const char *path)
{
	uint32_t gh[6] = { 0xa1b2c3d4u, 0x00040002u, 0, 0, 65535, 1 };
	FILE *f = fopen(path, "wb");
	int i;

	if (!f)
		die("%s: %s", path, strerror(errno));
	gh[1] = 2 | 4u << 16;	/* version 2.4, little endian host */
	fwrite(gh, sizeof(gh), 1, f);
	for (i = 0; i < npkts; i++) {
		uint32_t rh[4] = { 1700000000u, (uint32_t)i, pkts[i].len,
				   pkts[i].len };

		fwrite(rh, sizeof(rh), 1, f);
		fwrite(pkts[i].data, pkts[i].len, 1, f);
	}
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

static int count_pcap(void)
{
	uint32_t gh[6], rh[4];
	static uint8_t buf[1 << 18];
	int n = 0;

	if (fread(gh, sizeof(gh), 1, stdin) != 1)
		return 0;	/* tcpdump writes nothing when it matched nothing? */
	if (gh[0] != 0xa1b2c3d4u && gh[0] != 0xa1b23c4du)
		die("count: not a little-endian pcap");
	while (fread(rh, sizeof(rh), 1, stdin) == 1) {
		if (rh[2] > sizeof(buf) || fread(buf, rh[2], 1, stdin) != 1)
			die("count: truncated record");
		n++;
	}
	printf("%d\n", n);
	return 0;
}

/* ---- the guest runner ---------------------------------------------- */

struct sd {
	int32_t nr;
	uint32_t arch;
	uint64_t ip, args[6];
};

struct filt {
	int id;
	int len;
	int view;	/* enum view */
	struct sf *insns;
	int nsd;	/* VIEW_SECCOMP: the syscall mix */
	struct sd sd[MAX_SD];
};

/*
 * How a program sees the frames of the mix (its corpus group decides;
 * run-bench writes it in front of the program):
 * offline  the frame as captured, data at the MAC header, a VLAN tag in
 *          the data (what `tcpdump -r` and the 74 offline filters see);
 * live     as received: the receive path has moved the outer VLAN tag
 *          into skb metadata (vlan_present, vlan_tci) and the data has
 *          none (AF_PACKET sockets, fanout, cls_bpf on ingress);
 * net      live, with the data at the network header, the Ethernet
 *          header in the headroom (xt_bpf in an iptables chain);
 * seccomp  no frames: a seccomp filter over its struct seccomp_data.
 */
enum view { VIEW_OFFLINE, VIEW_LIVE, VIEW_NET, VIEW_SECCOMP };
static const char *const view_names[] = { "offline", "live", "net", "seccomp" };

static struct filt filts[MAX_FILTERS];
static int nfilts;

static void read_filters(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	/* filter 0 is `ret #0`: the harness overhead */
	filts[0].id = 0;
	filts[0].len = 1;
	filts[0].insns = calloc(1, sizeof(struct sf));
	filts[0].insns[0].code = 0x06;
	nfilts = 1;
	while (getline(&line, &cap, f) > 0) {
		char *p = line;
		int i, n, id, used, vi;
		char view[16];

		if (!strncmp(p, "sd ", 3)) {
			struct filt *fl = &filts[nfilts - 1];
			struct sd *d = &fl->sd[fl->nsd];
			unsigned long long v[10];
			char *e;

			/* ID nr arch instruction_pointer args[6] */
			for (i = 0, p += 3; i < 10; i++, p = e) {
				v[i] = strtoull(p, &e, 0);
				if (e == p)
					break;
			}
			if (i < 10 || fl->view != VIEW_SECCOMP ||
			    fl->nsd == MAX_SD || v[0] != (unsigned int)fl->id)
				die("%s: bad sd line: %.60s", path, line);
			d->nr = (int32_t)v[1];
			d->arch = (uint32_t)v[2];
			d->ip = v[3];
			memcpy(d->args, v + 4, sizeof(d->args));
			fl->nsd++;
			continue;
		}
		if (sscanf(p, "%d %d %15s%n", &id, &n, view, &used) != 3)
			continue;
		if (n < 1 || n > MAX_INSNS || nfilts == MAX_FILTERS || id < 1)
			die("%s: bad filter line", path);
		for (vi = 0; vi <= VIEW_SECCOMP && strcmp(view, view_names[vi]); vi++)
			;
		if (vi > VIEW_SECCOMP)
			die("%s: filter %d: unknown view %s", path, id, view);
		p += used;
		filts[nfilts].id = id;
		filts[nfilts].len = n;
		filts[nfilts].view = vi;
		filts[nfilts].insns = calloc(n, sizeof(struct sf));
		for (i = 0; i < n; i++) {
			unsigned long v[4];
			char *e;
			int j;

			/* "code,jt,jf,k", each in C notation (tcpdump -dd) */
			for (j = 0; j < 4; j++) {
				v[j] = strtoul(p, &e, 0);
				if (e == p || (j < 3 && *e != ','))
					die("%s: filter %d: bad instruction %d",
					    path, id, i);
				p = e + (j < 3);
			}
			filts[nfilts].insns[i] = (struct sf){ v[0], v[1], v[2],
							      v[3] };
		}
		nfilts++;
	}
	free(line);
	fclose(f);
}

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

static long read_stat(const char *key)
{
	FILE *f = fopen(SYSCTL "bpf_jit_classic_stats", "r");
	char k[64];
	long v, r = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", k, &v) == 2)
		if (!strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

static uint8_t *reqbuf;
static size_t reqcap;

static void reserve(size_t need)
{
	if (need > reqcap) {
		reqcap = need;
		reqbuf = realloc(reqbuf, reqcap);
		if (!reqbuf)
			die("out of memory");
	}
	memset(reqbuf, 0, need);
}

/* A seccomp filter's request: the program, then its seccomp_data. */
static size_t build_seccomp_req(const struct filt *fl, uint32_t iterations)
{
	struct cbpf_jit_test_seccomp_req *h;
	size_t pos = sizeof(*h) + fl->len * sizeof(struct sf);
	int i, j;

	reserve(pos + fl->nsd * 64);
	h = (struct cbpf_jit_test_seccomp_req *)reqbuf;
	*h = (struct cbpf_jit_test_seccomp_req){ CBPF_JIT_TEST_SECCOMP_MAGIC,
						 fl->len, fl->nsd, iterations };
	memcpy(h + 1, fl->insns, fl->len * sizeof(struct sf));
	for (i = 0; i < fl->nsd; i++, pos += 64) {
		/* struct seccomp_data: nr, arch, instruction_pointer, args[6] */
		memcpy(reqbuf + pos, &fl->sd[i].nr, 4);
		memcpy(reqbuf + pos + 4, &fl->sd[i].arch, 4);
		memcpy(reqbuf + pos + 8, &fl->sd[i].ip, 8);
		for (j = 0; j < 6; j++)
			memcpy(reqbuf + pos + 16 + 8 * j, &fl->sd[i].args[j], 8);
	}
	return pos;
}

static size_t build_req(const struct filt *fl, uint32_t iterations)
{
	size_t need = sizeof(struct cbpf_jit_test_req) + fl->len * sizeof(struct sf);
	struct cbpf_jit_test_req *h;
	size_t pos;
	int i;

	if (fl->view == VIEW_SECCOMP)
		return build_seccomp_req(fl, iterations);
	for (i = 0; i < npkts; i++)
		need += sizeof(struct cbpf_jit_test_skb) + ((pkts[i].len + 7) & ~7u);
	reserve(need);
	h = (struct cbpf_jit_test_req *)reqbuf;
	*h = (struct cbpf_jit_test_req){ CBPF_JIT_TEST_MAGIC, fl->len, npkts, iterations };
	memcpy(h + 1, fl->insns, fl->len * sizeof(struct sf));
	pos = sizeof(*h) + fl->len * sizeof(struct sf);
	for (i = 0; i < npkts; i++) {
		const struct pkt *p = &pkts[i];
		struct cbpf_jit_test_skb *d = (struct cbpf_jit_test_skb *)(reqbuf + pos);
		uint8_t *out = (uint8_t *)(d + 1);
		uint16_t et = p->data[12] << 8 | p->data[13];
		uint32_t len = p->len, headlen = p->headlen;

		/* As an AF_PACKET socket filter sees a received frame:
		 * data at the MAC header, network header after Ethernet,
		 * skb->protocol the ethertype (offline: 0x8100 for the
		 * tagged frames, which keep their tag in the data).
		 */
		memcpy(out, p->data, 12);
		if (fl->view != VIEW_OFFLINE && (et == 0x8100 || et == 0x88a8)) {
			/* skb_vlan_untag(): the outer tag leaves the data */
			d->vlan_present = 1;
			d->vlan_proto = (uint16_t)(et >> 8 | et << 8);
			d->vlan_tci = p->data[14] << 8 | p->data[15];
			memcpy(out + 12, p->data + 16, len - 16);
			len -= 4;
			headlen -= 4;
			et = p->data[16] << 8 | p->data[17];
		} else {
			memcpy(out + 12, p->data + 12, len - 12);
		}
		d->hash = 0x9e3779b9u * (i + 1);
		d->protocol = (uint16_t)(et >> 8 | et << 8);
		d->pkt_type = p->pkt_type;
		d->has_dev = 1;
		d->mac_header_set = 1;
		d->dev_ifindex = 2;
		d->dev_type = 1;	/* ARPHRD_ETHER */
		if (fl->view == VIEW_NET) {
			/* the Ethernet header stays in front of skb->data */
			d->headroom = 14;
			d->mac_offset = -14;
			d->network_offset = 0;
			d->len = len - 14;
			d->headlen = headlen - 14;
		} else {
			d->mac_offset = 0;
			d->network_offset = 14;
			d->len = len;
			d->headlen = headlen;
		}
		pos += sizeof(*d) + ((len + 7) & ~7u);
	}
	return pos;
}

struct meas {
	int err;
	uint32_t jited, jited_len, flags;
	uint64_t compile_ns;
	long compiled;
	uint64_t total[MAX_PKTS];
	uint32_t ret[MAX_PKTS];
};

static void drain(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);	/* no UART interrupts while timing */
}

static int measure(const struct filt *fl, uint32_t iter, int repeat,
		   struct meas *m)
{
	static uint8_t resbuf[sizeof(struct cbpf_jit_test_seccomp_result) +
			      MAX_PKTS * sizeof(struct cbpf_jit_test_run)];
	size_t len = build_req(fl, iter);
	int seccomp = fl->view == VIEW_SECCOMP;
	int nruns = seccomp ? fl->nsd : npkts;
	int r, i, fd;

	memset(m, 0, sizeof(*m));
	fd = open(CBPF_JIT_TEST_RUN_FILE, O_RDWR);
	if (fd < 0)
		die(CBPF_JIT_TEST_RUN_FILE ": %s", strerror(errno));
	for (r = 0; r < repeat; r++) {
		const struct cbpf_jit_test_result *h = (const void *)resbuf;
		const struct cbpf_jit_test_seccomp_result *hs = (const void *)resbuf;
		size_t hlen = seccomp ? sizeof(*hs) : sizeof(*h);
		const struct cbpf_jit_test_run *run = (const void *)(resbuf + hlen);
		long c0 = read_stat("compiled"), c1;
		uint64_t compile_ns;
		uint32_t nr;
		ssize_t n;

		if (write(fd, reqbuf, len) != (ssize_t)len)
			die("filter %d: write: %s", fl->id, strerror(errno));
		c1 = read_stat("compiled");
		n = read(fd, resbuf, sizeof(resbuf));
		if (n < (ssize_t)hlen)
			die("filter %d: read: %s", fl->id, strerror(errno));
		m->err = seccomp ? hs->create_err : h->create_err;
		m->jited = seccomp ? hs->jited : h->jited;
		m->jited_len = seccomp ? hs->jited_len : h->jited_len;
		compile_ns = seccomp ? hs->compile_ns : h->compile_ns;
		nr = seccomp ? hs->nr_data : h->nr_skbs;
		m->compiled = c0 < 0 ? -1 : c1 - c0;
		if (!r || compile_ns < m->compile_ns)
			m->compile_ns = compile_ns;
		if (m->err)
			break;
		if (nr != (uint32_t)nruns ||
		    n != (ssize_t)(hlen + nruns * sizeof(*run)))
			die("filter %d: short result", fl->id);
		for (i = 0; i < nruns; i++) {
			if (r && run[i].ret != m->ret[i])
				m->flags |= 2;	/* differs between repeats */
			m->flags |= run[i].flags & 1;
			m->ret[i] = run[i].ret;
			if (!r || run[i].total_ns < m->total[i])
				m->total[i] = run[i].total_ns;
		}
	}
	close(fd);
	return 0;
}

static const char *const mode_names[3] = { "interp", "upstream", "direct" };

static int set_mode(int mode, char *why, size_t whylen)
{
	int classic = access(SYSCTL "bpf_jit_classic", F_OK) == 0;
	int e;

	snprintf(why, whylen, "-");
	if (mode == 2 && !classic) {
		snprintf(why, whylen, "no net.core.bpf_jit_classic");
		return -1;
	}
	if (classic && write_str(SYSCTL "bpf_jit_classic", mode == 2 ? "1" : "0")) {
		snprintf(why, whylen, "cannot set bpf_jit_classic");
		return -1;
	}
	e = write_str(SYSCTL "bpf_jit_enable", mode ? "1" : "0");
	if (e) {
		snprintf(why, whylen, "cannot set bpf_jit_enable=%d: %s",
			 !!mode, strerror(-e));
		return -1;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	uint32_t iter = 64;
	int repeat = 3, opt, mode, i, j;
	static struct meas m;
	const char *modes_env = getenv("BENCH_MODES");
	FILE *out;
	char *obuf;
	size_t olen;

	while ((opt = getopt(argc, argv, "i:r:")) != -1) {
		if (opt == 'i')
			iter = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			repeat = atoi(optarg);
		else
			die("usage: cbpf-bench run [-i ITER] [-r REPEAT] FILTERS RESULTS");
	}
	if (argc - optind != 2 || !iter || repeat < 1)
		die("usage: cbpf-bench run [-i ITER] [-r REPEAT] FILTERS RESULTS");
	build_mix();
	read_filters(argv[optind]);
	/* Collect in memory; write the file once at the end. */
	out = open_memstream(&obuf, &olen);
	fprintf(out, "meta iterations %u\nmeta repeat %d\nmeta packets %d\n"
		"meta filters %d\n", iter, repeat, npkts, nfilts - 1);
	for (i = 0; i < npkts; i++)
		fprintf(out, "pkt %d %u %u %s\n", i, pkts[i].len,
			pkts[i].headlen, pkts[i].name);
	for (mode = 0; mode < 3; mode++) {
		char why[128];

		if (modes_env && !strstr(modes_env, mode_names[mode])) {
			fprintf(out, "mode %s 0 skipped (BENCH_MODES)\n",
				mode_names[mode]);
			continue;
		}
		if (set_mode(mode, why, sizeof(why))) {
			printf("bench: mode %s: not available (%s)\n",
			       mode_names[mode], why);
			fprintf(out, "mode %s 0 %s\n", mode_names[mode], why);
			continue;
		}
		fprintf(out, "mode %s 1\n", mode_names[mode]);
		for (i = 0; i < nfilts; i++) {
			int matched = 0;
			int nruns = filts[i].view == VIEW_SECCOMP ?
				    filts[i].nsd : npkts;

			if (i % 10 == 0 || i == nfilts - 1) {
				printf("bench: mode %-8s filter %3d/%d\n",
				       mode_names[mode], i, nfilts - 1);
				drain();
			}
			measure(&filts[i], iter, repeat, &m);
			for (j = 0; j < nruns; j++)
				matched += m.ret[j] != 0;
			fprintf(out, "f %s %d %d %u %u %llu %ld %u %d %d %u",
				mode_names[mode], filts[i].id, m.err, m.jited,
				m.jited_len, (unsigned long long)m.compile_ns,
				m.compiled, iter, m.err ? 0 : nruns, matched,
				m.flags);
			for (j = 0; !m.err && j < nruns; j++)
				fprintf(out, " %llu %u",
					(unsigned long long)m.total[j], m.ret[j]);
			fputc('\n', out);
		}
	}
	write_str(SYSCTL "bpf_jit_enable", "1");
	fprintf(out, "end\n");
	fclose(out);
	{
		FILE *f = fopen(argv[optind + 1], "w");

		if (!f || fwrite(obuf, 1, olen, f) != olen || fclose(f))
			die("%s: %s", argv[optind + 1], strerror(errno));
	}
	printf("bench: done, %d filters x %d packets\n", nfilts - 1, npkts);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return run(argc - 1, argv + 1);
	if (argc == 3 && !strcmp(argv[1], "pcap")) {
		build_mix();
		write_pcap(argv[2]);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "count"))
		return count_pcap();
	die("usage: cbpf-bench run|pcap OUT|count");
	return 2;
}
