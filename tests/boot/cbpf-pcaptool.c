// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-pcaptool: the C half of tcpdump-check (the shell script does the
 * orchestration).  Subcommands:
 *
 *   gen [-s SEED] [-n FRAMES] [-D] OUT.pcap
 *	Write the deterministic packet corpus (DLT_EN10MB, snaplen 65535):
 *	the same SEED and FRAMES give the same bytes on every machine.
 *	FRAMES random frames, then 17 fixed "decider" frames (not with -D)
 *	that the random ones leave out (gen_decider()).
 *   prep [-m MAXFRAME] IN.pcap ALL.pcap UNTAGGED.pcap TAGGED.pcap
 *	Read a capture (pcap or pcapng, Ethernet only), keep the frames that
 *	can be replayed (14 <= caplen <= MAXFRAME), set len = caplen (what
 *	is replayed is caplen bytes, so that is what the kernel sees), and
 *	split them: TAGGED holds the frames whose outer ethertype is 0x8100
 *	or 0x88a8 (the receive path moves that tag into skb metadata, so
 *	they are compared live against live), UNTAGGED the others.
 *	Prints "frames N kept K untagged U tagged T short S long L cut C
 *	paged P multi M": P kept frames of 4096 bytes or more, which inject
 *	sends as an skb of page fragments, M of them more than 14 + 32768
 *	bytes, which are two fragments or more on 6.1 and 6.12 alike.
 *   gro OUT.pcap
 *	Write the GRO corpus: GRO_FLOWS TCP flows (IPv4 and IPv6 in turn),
 *	each GRO_SEGS consecutive segments of GRO_MSS bytes that the receive
 *	path's GRO may merge into one skb, byte j of segment s of flow f
 *	being f * 16 + s.  Prints "frames N flows F segment-bytes B".
 *   offload IFNAME gro|tso on|off
 *	Switch a device's GRO or TSO (SIOCETHTOOL, as ethtool -K does).
 *   inject [-b BURST] [-g GAP_US] IFNAME FILE.pcap
 *	Send every frame of FILE on IFNAME with an AF_PACKET SOCK_RAW
 *	socket, pausing GAP_US microseconds after every BURST frames.
 *	Prints "sent N".
 *   verify [-a ALL.pcap] MANIFEST
 *	One line per expression, tab-separated:
 *	  NAME ERR_A LIVE_A OFFLINE ERR_OFF ERR_B LIVE_B
 *	LIVE_A: live capture of the whole corpus (direct JIT on), ERR_A its
 *	tcpdump stderr; OFFLINE: "tcpdump -r UNTAGGED -w OFFLINE" output,
 *	ERR_OFF its stderr; LIVE_B/ERR_B: live capture of the TAGGED subset
 *	with the direct JIT off, or "-" when there is none.  Optional
 *	further columns: DECIDE JIT_A JIT_B.  DECIDE: "-" (the expression
 *	must accept at least one and reject at least one of the untagged
 *	frames of ALL, the JIT-on replay: those libpcap's offline program
 *	judges), "judged on tagged frames: ..." (the same of the tagged
 *	frames that reach a tap, all but those shorter than 20 bytes, which
 *	skb_vlan_untag() drops: the switched-off kernel judges those), the
 *	list's "accepts every frame: ..." / "accepts no frame: ..." note
 *	(of all frames that reach a tap), or "any ..." (a capture of the
 *	user's: no requirement); JIT_A/JIT_B: who compiled the filter
 *	that tcpdump had attached in each round, "direct TAG" (its
 *	bpf_prog_TAG_cbpf_COMM symbol) or anything else ("-": not known).
 *	JIT_A must be "direct ...", JIT_B must not.  Prints one
 *	record "NAME<TAB>pass|fail<TAB>detail" per line.
 *
 * Build: cc -std=gnu11 -Wall -Wextra -O2 -o cbpf-pcaptool cbpf-pcaptool.c -lpcap
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <pcap/pcap.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXF 65536

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("cbpf-pcaptool: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* ---------------------------------------------------------------- pcap I/O */

struct frame {
	uint32_t caplen, len;
	uint8_t *data;
};

struct flist {
	struct frame *f;
	size_t n, cap;
};

static void flist_add(struct flist *l, const uint8_t *d, uint32_t caplen, uint32_t len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->f = realloc(l->f, l->cap * sizeof(*l->f));
		if (!l->f)
			die("out of memory");
	}
	l->f[l->n].caplen = caplen;
	l->f[l->n].len = len;
	l->f[l->n].data = malloc(caplen ? caplen : 1);
	if (!l->f[l->n].data)
		die("out of memory");
	memcpy(l->f[l->n].data, d, caplen);
	l->n++;
}

/* Read every frame of a capture; returns -1 (and a message) when it cannot. */
static int read_pcap(const char *path, struct flist *l, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *d;
	pcap_t *p;
	int r;

	p = pcap_open_offline(path, ebuf);
	if (!p) {
		snprintf(err, errlen, "%s", ebuf);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(err, errlen, "%s: link type %s, not Ethernet", path,
			 pcap_datalink_val_to_name(pcap_datalink(p)) ?: "?");
		pcap_close(p);
		return -1;
	}
	while ((r = pcap_next_ex(p, &h, &d)) == 1)
		flist_add(l, d, h->caplen, h->len);
	if (r == -1) {
		snprintf(err, errlen, "%s: %s", path, pcap_geterr(p));
		pcap_close(p);
		return -1;
	}
	pcap_close(p);
	return 0;
}

struct pcapw {
	FILE *fp;
	uint32_t n;
};

static void pw_open(struct pcapw *w, const char *path, uint32_t snaplen)
{
	uint32_t hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, snaplen, DLT_EN10MB };

	w->fp = fopen(path, "wb");
	if (!w->fp)
		die("%s: %s", path, strerror(errno));
	w->n = 0;
	fwrite(hdr, sizeof(hdr), 1, w->fp);
}

static void pw_add(struct pcapw *w, const uint8_t *d, uint32_t caplen, uint32_t len)
{
	/* Deterministic timestamps: one frame per millisecond. */
	uint32_t rec[4] = { 1700000000u + w->n / 1000, (w->n % 1000) * 1000, caplen, len };

	fwrite(rec, sizeof(rec), 1, w->fp);
	fwrite(d, 1, caplen, w->fp);
	w->n++;
}

static void pw_close(struct pcapw *w, const char *path)
{
	if (fclose(w->fp))
		die("%s: %s", path, strerror(errno));
}

/* Outer tag that the receive path strips into skb metadata. */
static int kernel_tagged(const uint8_t *d, uint32_t caplen)
{
	uint16_t t;

	if (caplen < 14)
		return 0;
	t = (uint16_t)(d[12] << 8 | d[13]);
	return t == 0x8100 || t == 0x88a8;
}

/* ------------------------------------------------------------ the generator */

static uint64_t rs;

static uint64_t rnd(void)	/* splitmix64 */
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rn(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static int chance(unsigned pct) { return rn(100) < pct; }

struct pkt {
	uint8_t b[MAXF];
	size_t n;
};

static void p8(struct pkt *p, unsigned v) { p->b[p->n++] = (uint8_t)v; }
static void p16(struct pkt *p, unsigned v) { p8(p, v >> 8); p8(p, v); }
static void p32(struct pkt *p, uint32_t v) { p16(p, v >> 16); p16(p, v & 0xffff); }
static void pbytes(struct pkt *p, const uint8_t *d, size_t n) { memcpy(p->b + p->n, d, n); p->n += n; }
static void prand(struct pkt *p, size_t n) { while (n--) p8(p, (unsigned)rnd()); }
static void set16(struct pkt *p, size_t off, unsigned v) { p->b[off] = (uint8_t)(v >> 8); p->b[off + 1] = (uint8_t)v; }

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const uint8_t macs[][6] = {
	{ 0x02, 0, 0, 0, 0, 0x01 }, { 0x02, 0, 0, 0, 0, 0x02 }, { 0x02, 0, 0, 0, 0, 0x03 },
	{ 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }, { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
	{ 0x01, 0x00, 0x5e, 0x7f, 0x00, 0x05 }, { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
	{ 0x33, 0x33, 0xff, 0x00, 0x00, 0x01 }, { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 },
};

static void mac(struct pkt *p, int unicast)
{
	unsigned i = rn(NELEM(macs) + 2);

	if (unicast)
		i = rn(5);
	if (i >= NELEM(macs)) {
		uint8_t m[6];

		for (int k = 0; k < 6; k++)
			m[k] = (uint8_t)rnd();
		if (unicast)
			m[0] &= 0xfe;
		pbytes(p, m, 6);
	} else {
		pbytes(p, macs[i], 6);
	}
}

static const uint32_t ip4s[] = {
	0x0a000001, 0x0a000002, 0x0a010203, 0xc0a80101, 0xc0a8014d, 0xc0a80205,
	0xac100009, 0x08080808, 0xe0000001, 0xe00000fb, 0xef010203, 0xffffffff,
	0xc0a801ff, 0x00000000, 0x7f000001,
};

static uint32_t ip4addr(void)
{
	unsigned i = rn(NELEM(ip4s) + 3);

	return i < NELEM(ip4s) ? ip4s[i] : (uint32_t)rnd();
}

static const uint8_t ip6s[][16] = {
	{ 0x20, 0x01, 0x0d, 0xb8, [15] = 1 }, { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
	{ 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 5 }, { 0xfe, 0x80, [15] = 1 },
	{ 0xfe, 0x80, [13] = 2, [15] = 3 }, { 0xff, 0x02, [15] = 1 }, { 0xff, 0x02, [15] = 2 },
	{ 0xff, 0x02, [11] = 1, 0xff, 0, 0, 1 }, { 0xff, 0x05, [14] = 1, 1 }, { [15] = 1 },
};

static void ip6addr(struct pkt *p)
{
	unsigned i = rn(NELEM(ip6s) + 2);

	if (i < NELEM(ip6s))
		pbytes(p, ip6s[i], 16);
	else
		prand(p, 16);
}

static const uint16_t ports[] = {
	0, 20, 21, 22, 23, 25, 53, 67, 68, 69, 80, 110, 123, 137, 143, 161, 179, 389,
	443, 514, 546, 547, 993, 1023, 1024, 3306, 4789, 5353, 6081, 8080, 8443, 65535,
};

static unsigned port(void)
{
	unsigned i = rn(NELEM(ports) + 8);

	return i < NELEM(ports) ? ports[i] : rn(65536);
}

static unsigned tcpflags_counter;

static void l4_tcp(struct pkt *p)
{
	unsigned doff = chance(30) ? 5 + rn(11) : 5;

	p16(p, port());
	p16(p, port());
	p32(p, (uint32_t)rnd());
	p32(p, (uint32_t)rnd());
	/* every flag combination comes up, in order, then random ones */
	p8(p, doff << 4 | (chance(10) ? rn(16) : 0));
	p8(p, tcpflags_counter < 256 ? tcpflags_counter++ : rn(256));
	p16(p, rn(65536));
	p16(p, rn(65536));
	p16(p, chance(20) ? rn(65536) : 0);
	for (unsigned i = 5; i < doff; i++)
		p32(p, i == 5 ? 0x020405b4 : (uint32_t)rnd());
}

static void l4_udp(struct pkt *p, unsigned sport, unsigned dport)
{
	p16(p, sport);
	p16(p, dport);
	p16(p, 8);		/* fixed up by the caller */
	p16(p, rn(65536));
}

static void l4_icmp(struct pkt *p)
{
	static const uint8_t types[] = { 0, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 };

	p8(p, chance(85) ? types[rn(NELEM(types))] : rn(256));
	p8(p, chance(70) ? rn(16) : rn(256));
	p16(p, rn(65536));
	p32(p, (uint32_t)rnd());
}

static void l4_icmp6(struct pkt *p)
{
	static const uint8_t types[] = { 1, 2, 3, 4, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 143 };

	p8(p, chance(85) ? types[rn(NELEM(types))] : rn(256));
	p8(p, chance(70) ? rn(8) : rn(256));
	p16(p, rn(65536));
	p32(p, (uint32_t)rnd());
	if (chance(50))
		ip6addr(p);
}

/* payload: a few random bytes, or enough to reach `total` frame bytes */
static void payload(struct pkt *p, size_t total)
{
	if (total > p->n)
		prand(p, total - p->n);
	else
		prand(p, rn(4) ? rn(64) : rn(1400));
}

/* An L4 header for IP protocol `proto` (TCP, UDP, ICMP, ICMPv6 or other). */
static void l4(struct pkt *p, unsigned proto, size_t total)
{
	size_t udp = p->n;

	switch (proto) {
	case 6:
		l4_tcp(p);
		break;
	case 17:
		if (chance(8))
			l4_udp(p, port(), 6081);
		else
			l4_udp(p, port(), port());
		if (p->b[udp + 2] == 0x17 && p->b[udp + 3] == 0xc1 && chance(70)) {
			/* geneve: ver 0, opt len, protocol 0x6558, VNI, then Ethernet */
			unsigned optlen = rn(3);

			p8(p, optlen);
			p8(p, chance(20) ? 0x80 : 0);
			p16(p, 0x6558);
			p32(p, (chance(50) ? 100 : rn(1 << 24)) << 8);
			for (unsigned i = 0; i < optlen; i++)
				p32(p, (uint32_t)rnd());
			mac(p, 0);
			mac(p, 1);
			p16(p, chance(70) ? 0x0800 : 0x86dd);
			p8(p, 0x45);
			prand(p, 19);
		}
		break;
	case 1:
		l4_icmp(p);
		break;
	case 58:
		l4_icmp6(p);
		break;
	default:
		prand(p, rn(40));
		break;
	}
	payload(p, total);
	if (proto == 17 && p->n - udp >= 8)
		set16(p, udp + 4, (unsigned)(p->n - udp));
}

/* The Internet checksum: csum_add() sums 16-bit words, csum_fold() ends it. */
static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *d, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(d[i] << 8 | d[i + 1]);
	if (n & 1)
		sum += (uint32_t)d[n - 1] << 8;
	return sum;
}

static unsigned ip4proto(void)
{
	static const uint8_t protos[] = { 6, 6, 6, 17, 17, 17, 1, 1, 2, 47, 50, 51, 89, 103, 112, 132, 4, 41 };

	return chance(93) ? protos[rn(NELEM(protos))] : rn(256);
}

static void ipv4(struct pkt *p, unsigned proto, int frag, size_t total)
{
	size_t h = p->n;
	unsigned ihl = chance(20) ? 6 + rn(10) : 5;
	unsigned fo = 0;

	if (frag) {
		unsigned kind = rn(3);	/* first, middle, last */

		fo = kind == 0 ? 0x2000 : kind == 1 ? 0x2000 | (1 + rn(400)) : 1 + rn(0x1fff);
	} else if (chance(30)) {
		fo = 0x4000;	/* DF */
	}
	p8(p, 0x40 | ihl);
	p8(p, chance(80) ? 0 : rn(256));
	p16(p, 0);
	p16(p, rn(65536));
	p16(p, fo);
	p8(p, chance(80) ? 64 : rn(256));
	p8(p, proto);
	p16(p, 0);
	p32(p, ip4addr());
	p32(p, ip4addr());
	for (unsigned i = 5; i < ihl; i++) {
		if (i == 5 && chance(50)) {
			p8(p, 7);	/* record route */
			p8(p, (uint8_t)(4 * (ihl - 5) - 1 > 39 ? 39 : 4 * (ihl - 5) - 1));
			p8(p, 4);
			p8(p, 1);
		} else {
			p32(p, chance(50) ? 0x01010101 : (uint32_t)rnd());
		}
	}
	l4(p, proto, total);
	set16(p, h + 2, (unsigned)(p->n - h > 65535 ? 65535 : p->n - h));
	set16(p, h + 10, csum_fold(csum_add(0, p->b + h, ihl * 4)));
}

/* IPv6 with a chain of extension headers (count 0-4), then `proto`. */
static void ipv6(struct pkt *p, unsigned proto, int next_ext, size_t total)
{
	static const uint8_t exts[] = { 0, 43, 44, 60 };
	size_t h = p->n;
	unsigned chain[4], n = 0;

	if (next_ext) {
		n = 1 + rn(4);
		for (unsigned i = 0; i < n; i++)
			chain[i] = exts[rn(NELEM(exts))];
		if (next_ext == 2)
			chain[0] = 44;	/* a fragment */
	}
	p32(p, 0x60000000 | (chance(20) ? rn(1 << 28) : 0));
	p16(p, 0);
	p8(p, n ? chain[0] : proto);
	p8(p, chance(80) ? 64 : 255);
	ip6addr(p);
	ip6addr(p);
	for (unsigned i = 0; i < n; i++) {
		unsigned nh = i + 1 < n ? chain[i + 1] : proto;

		if (chain[i] == 44) {
			p8(p, nh);
			p8(p, 0);
			p16(p, chance(50) ? 1 : (1 + rn(0x1fff)) << 3 | rn(2));
			p32(p, (uint32_t)rnd());
		} else {
			unsigned len = rn(3);

			p8(p, nh);
			p8(p, len);
			if (chain[i] == 43) {
				p8(p, rn(5));	/* routing type */
				p8(p, rn(4));	/* segments left */
				p32(p, 0);
			} else {
				p8(p, 1);	/* PadN */
				p8(p, 4);
				p32(p, 0);
			}
			for (unsigned k = 0; k < len; k++) {
				p32(p, (uint32_t)rnd());
				p32(p, (uint32_t)rnd());
			}
		}
	}
	l4(p, proto, total);
	set16(p, h + 4, (unsigned)(p->n - h - 40 > 65535 ? 65535 : p->n - h - 40));
}

static unsigned ip6proto(void)
{
	static const uint8_t protos[] = { 6, 6, 17, 17, 58, 58, 58, 59, 47, 50, 132 };

	return chance(95) ? protos[rn(NELEM(protos))] : rn(256);
}

static void arp(struct pkt *p, int rarp)
{
	p16(p, 1);
	p16(p, 0x0800);
	p8(p, 6);
	p8(p, 4);
	p16(p, rarp ? 3 + rn(2) : 1 + rn(2));
	mac(p, 1);
	p32(p, ip4addr());
	mac(p, 0);
	p32(p, ip4addr());
	if (chance(50))
		prand(p, 18);
}

static const uint16_t vids[] = { 0, 1, 10, 100, 300, 4095 };

static unsigned tci(void)
{
	return rn(8) << 13 | rn(2) << 12 | (chance(80) ? vids[rn(NELEM(vids))] : rn(4096));
}

/* An L3 payload after an ethertype field at p->n - 2. */
static void l3(struct pkt *p, size_t et, size_t total)
{
	switch (rn(7)) {
	case 0:
	case 1:
	case 2:
		set16(p, et, 0x0800);
		ipv4(p, ip4proto(), chance(10), total);
		break;
	case 3:
	case 4:
		set16(p, et, 0x86dd);
		ipv6(p, ip6proto(), chance(30), total);
		break;
	case 5:
		set16(p, et, 0x0806);
		arp(p, 0);
		break;
	default:
		set16(p, et, 0x8847);
		for (unsigned i = 0, n = 1 + rn(3); i < n; i++)
			p32(p, (chance(70) ? (uint32_t)(rn(2) ? 100 : 16 + rn(100)) : rn(1 << 20)) << 12 |
			       rn(8) << 9 | (i + 1 == n) << 8 | 64);
		if (rn(2))
			ipv4(p, ip4proto(), 0, total);
		else
			ipv6(p, ip6proto(), 0, total);
		break;
	}
}

enum {
	C_IP4, C_IP4OPT, C_IP4FRAG, C_IP6, C_IP6EXT, C_IP6FRAG, C_ICMP, C_ICMP6,
	C_TCP, C_UDP, C_VLAN, C_QINQ, C_MPLS, C_ARP, C_BCAST, C_LLC, C_PPPOE,
	C_OTHER, C_LARGE, C_RANDOM, C_NCAT
};

static void gen_frame(struct pkt *p, unsigned cat)
{
	size_t et;
	size_t total = 0;

	p->n = 0;
	if (cat == C_LARGE)
		total = 2048 + rn(9216 - 2048 + 1);
	if (cat == C_BCAST) {
		static const uint8_t b[][6] = {
			{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb },
			{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 }, { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 },
		};
		pbytes(p, b[rn(NELEM(b))], 6);
	} else {
		mac(p, 0);
	}
	mac(p, chance(95));
	et = p->n;
	p16(p, 0);
	switch (cat) {
	case C_IP4:
	case C_BCAST:
		set16(p, et, 0x0800);
		ipv4(p, ip4proto(), 0, total);
		break;
	case C_IP4OPT:
		set16(p, et, 0x0800);
		do {
			p->n = et + 2;
			ipv4(p, ip4proto(), 0, total);
		} while ((p->b[et + 2] & 0xf) == 5);
		break;
	case C_IP4FRAG:
		set16(p, et, 0x0800);
		ipv4(p, ip4proto(), 1, total);
		break;
	case C_IP6:
		set16(p, et, 0x86dd);
		ipv6(p, ip6proto(), 0, total);
		break;
	case C_IP6EXT:
		set16(p, et, 0x86dd);
		ipv6(p, ip6proto(), 1, total);
		break;
	case C_IP6FRAG:
		set16(p, et, 0x86dd);
		ipv6(p, ip6proto(), 2, total);
		break;
	case C_ICMP:
		set16(p, et, 0x0800);
		ipv4(p, 1, chance(5), total);
		break;
	case C_ICMP6:
		set16(p, et, 0x86dd);
		ipv6(p, 58, chance(20), total);
		break;
	case C_TCP:
		set16(p, et, 0x0800);
		if (chance(30)) {
			set16(p, et, 0x86dd);
			ipv6(p, 6, 0, total);
		} else {
			ipv4(p, 6, 0, total);
		}
		break;
	case C_UDP:
		set16(p, et, 0x0800);
		if (chance(30)) {
			set16(p, et, 0x86dd);
			ipv6(p, 17, 0, total);
		} else {
			ipv4(p, 17, 0, total);
		}
		break;
	case C_VLAN:
		set16(p, et, 0x8100);
		p16(p, tci());
		p16(p, 0);
		l3(p, et + 4, total);
		break;
	case C_QINQ: {
		static const uint16_t outer[] = { 0x88a8, 0x8100, 0x9100 };
		unsigned n = 2 + (chance(20) ? 1 : 0);

		set16(p, et, outer[rn(NELEM(outer))]);
		for (unsigned i = 0; i < n; i++) {
			p16(p, tci());
			p16(p, i + 1 < n ? 0x8100 : 0);
		}
		l3(p, p->n - 2, total);
		break;
	}
	case C_MPLS: {
		unsigned n = 1 + rn(3);

		set16(p, et, chance(85) ? 0x8847 : 0x8848);
		for (unsigned i = 0; i < n; i++)
			p32(p, (chance(60) ? (uint32_t)(rn(2) ? 100 : 16 + rn(100)) : rn(1 << 20)) << 12 |
			       rn(8) << 9 | (i + 1 == n) << 8 | rn(256));
		if (chance(45))
			ipv4(p, ip4proto(), 0, total);
		else if (chance(80))
			ipv6(p, ip6proto(), 0, total);
		else
			prand(p, 20 + rn(40));
		break;
	}
	case C_ARP:
		set16(p, et, chance(70) ? 0x0806 : 0x8035);
		arp(p, p->b[et + 1] == 0x35);
		break;
	case C_LLC: {
		static const uint8_t saps[] = { 0x42, 0xaa, 0xe0, 0xf0, 0xfe, 0x06, 0x04 };
		uint8_t sap = saps[rn(NELEM(saps))];
		static const uint8_t ctl[] = { 0x03, 0x00, 0x01, 0x02, 0x0f, 0x43, 0xaf, 0xe3 };

		p8(p, sap);
		p8(p, chance(85) ? sap : rn(256));
		p8(p, ctl[rn(NELEM(ctl))]);
		if (sap == 0xaa) {
			p8(p, 0);
			p16(p, 0);
			p16(p, chance(50) ? 0x0800 : 0x809b);
		}
		prand(p, 3 + rn(60));
		if (chance(10))
			p->b[et + 2] = p->b[et + 3] = 0xff;	/* raw 802.3 IPX */
		set16(p, et, (unsigned)(p->n - et - 2));
		break;
	}
	case C_PPPOE:
		if (chance(30)) {
			set16(p, et, 0x8863);
			p8(p, 0x11);
			p8(p, chance(80) ? 0x09 : rn(256));
			p16(p, 0);
			p16(p, 0);
			prand(p, rn(40));
		} else {
			size_t lp;

			set16(p, et, 0x8864);
			p8(p, 0x11);
			p8(p, 0);
			p16(p, chance(50) ? 0x10 : rn(65536));
			lp = p->n;
			p16(p, 0);
			if (chance(50)) {
				p16(p, 0x0021);
				ipv4(p, ip4proto(), 0, total);
			} else if (chance(70)) {
				p16(p, 0x0057);
				ipv6(p, ip6proto(), 0, total);
			} else {
				p16(p, 0xc021);
				prand(p, 10);
			}
			set16(p, lp, (unsigned)(p->n - lp - 2));
		}
		break;
	case C_OTHER: {
		static const uint16_t ets[] = {
			0x6003, 0x6004, 0x6001, 0x6002, 0x6007, 0x809b, 0x80f3, 0x8137, 0x88cc,
			0x88e5, 0x88f7, 0x8906, 0x0600, 0x05dc, 0x0842, 0x22f0, 0xffff, 0x0000,
		};
		set16(p, et, chance(80) ? ets[rn(NELEM(ets))] : rn(65536));
		prand(p, rn(100));
		break;
	}
	case C_LARGE:
		switch (rn(6)) {
		case 0:
			set16(p, et, 0x8100);
			p16(p, tci());
			p16(p, 0);
			l3(p, et + 4, total);
			break;
		case 1:
		case 2:
			set16(p, et, 0x86dd);
			ipv6(p, ip6proto(), chance(30), total);
			break;
		default:
			set16(p, et, 0x0800);
			ipv4(p, ip4proto(), chance(10), total);
			break;
		}
		break;
	default: /* C_RANDOM: random bytes, addresses included */
		p->n = 0;
		prand(p, 14 + rn(1500));
		if (chance(50))
			memcpy(p->b + 12, "\x08\x00", 2);
		break;
	}
	if (p->n < 14)
		p->n = 14;
	if (cat == C_LARGE && p->n > 9216)
		p->n = 9216;
	/* a truncated copy of anything: cut anywhere after the Ethernet header */
	if (cat != C_LARGE && chance(7))
		p->n = 14 + rn((unsigned)(p->n - 14) + 1);
}

/*
 * Deciders: a fixed set of crafted frames written after the random ones,
 * so that every expression of tcpdump-filters.txt accepts at least one
 * frame and rejects at least one (tcpdump-check fails an expression that
 * decides nothing unless the list says why it cannot).  Each one matches
 * an expression the random frames do not reach; they do not change the
 * random frames before them.
 */
static void d_eth(struct pkt *p, unsigned type)
{
	static const uint8_t a[12] = { 0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02 };

	p->n = 0;
	pbytes(p, a, sizeof(a));
	p16(p, type);
}

/* IPv4 header (IHL 5, 10.0.0.2 -> 10.0.0.1); returns its offset.  The
 * total length is set by d_ip4_end(). */
static size_t d_ip4(struct pkt *p, unsigned proto)
{
	size_t h = p->n;

	p8(p, 0x45);
	p8(p, 0);
	p16(p, 0);
	p16(p, 0x1234);
	p16(p, 0);
	p8(p, 64);
	p8(p, proto);
	p16(p, 0);
	p32(p, 0x0a000002);
	p32(p, 0x0a000001);
	return h;
}

static void d_ip4_end(struct pkt *p, size_t h, int totlen)
{
	set16(p, h + 2, totlen >= 0 ? (unsigned)totlen : (unsigned)(p->n - h));
	set16(p, h + 10, csum_fold(csum_add(0, p->b + h, 20)));
}

/* TCP header (ports 40000 -> 8000), FLAGS, WINDOW, then PAYLOAD zero bytes. */
static void d_tcp(struct pkt *p, unsigned flags, unsigned window, size_t payload)
{
	p16(p, 40000);
	p16(p, 8000);
	p32(p, 1);
	p32(p, 0);
	p8(p, 5 << 4);
	p8(p, flags);
	p16(p, window);
	p16(p, 0);
	p16(p, 0);
	while (payload--)
		p8(p, 0);
}

/* UDP header (LEN: -1 for the real length) and PAYLOAD bytes of FILL. */
static void d_udp(struct pkt *p, unsigned sport, unsigned dport, int len, size_t payload, unsigned fill)
{
	size_t u = p->n;

	p16(p, sport);
	p16(p, dport);
	p16(p, 0);
	p16(p, 0);
	while (payload--)
		p8(p, fill);
	set16(p, u + 4, len >= 0 ? (unsigned)len : (unsigned)(p->n - u));
}

#define NDECIDERS 17

/* Decider I (0 <= I < NDECIDERS) into p; the comment names what it decides. */
static void gen_decider(struct pkt *p, unsigned i)
{
	size_t h;

	switch (i) {
	case 0:		/* ether[9200] > 0: a 9216-byte frame (the test link's smallest MTU) */
		d_eth(p, 0x0800);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 9216 - 14 - 20 - 8, 0xa5);
		d_ip4_end(p, h, -1);
		break;
	case 1:		/* ip proto 255 */
		d_eth(p, 0x0800);
		h = d_ip4(p, 255);
		prand(p, 20);
		d_ip4_end(p, h, -1);
		break;
	case 2:		/* ip[2:2] < 20: a total length shorter than the header */
		d_eth(p, 0x0800);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 12, 0);
		d_ip4_end(p, h, 10);
		break;
	case 3:		/* ip6[0] & 0xf0 != 0x60: an IPv4 header under the IPv6 ethertype */
		d_eth(p, 0x86dd);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 32, 0);
		d_ip4_end(p, h, -1);
		break;
	case 4:		/* ip6[40:2] = 0x1234: no next header, payload 0x1234... */
		d_eth(p, 0x86dd);
		p32(p, 0x60000000);
		p16(p, 8);
		p8(p, 59);
		p8(p, 64);
		pbytes(p, ip6s[0], 16);
		pbytes(p, ip6s[1], 16);
		p32(p, 0x12345678);
		p32(p, 0);
		break;
	case 5:		/* arp[7] = 3 or arp[7] = 4: RARP operations under the ARP ethertype */
	case 6:
		d_eth(p, 0x0806);
		p16(p, 1);
		p16(p, 0x0800);
		p8(p, 6);
		p8(p, 4);
		p16(p, i == 5 ? 3 : 4);
		pbytes(p, macs[0], 6);
		p32(p, 0x0a000002);
		pbytes(p, macs[1], 6);
		p32(p, 0x0a000001);
		break;
	case 7:		/* tcp[tcpflags] = 0, tcp[14:2] = 0 */
		d_eth(p, 0x0800);
		h = d_ip4(p, 6);
		d_tcp(p, 0x00, 0, 0);
		d_ip4_end(p, h, -1);
		break;
	case 8:		/* tcp[tcpflags] = 0xff; tcp[100:4] = 0 (zero payload up to byte 104) */
		d_eth(p, 0x0800);
		h = d_ip4(p, 6);
		d_tcp(p, 0xff, 512, 100);
		d_ip4_end(p, h, -1);
		break;
	case 9:		/* udp[4:2] < 8: a UDP length shorter than its header */
		d_eth(p, 0x0800);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, 4, 16, 0);
		d_ip4_end(p, h, -1);
		break;
	case 10:	/* mpls 16: label 16, bottom of stack, then IPv4/UDP */
		d_eth(p, 0x8847);
		p32(p, 16u << 12 | 1u << 8 | 64);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 16, 0);
		d_ip4_end(p, h, -1);
		break;
	case 11:	/* geneve and ip and udp: Geneve carrying Ethernet/IPv4/UDP */
		d_eth(p, 0x0800);
		h = d_ip4(p, 17);
		{
			size_t u = p->n, ih;

			d_udp(p, 50000, 6081, -1, 0, 0);
			p8(p, 0);		/* version 0, no options */
			p8(p, 0);
			p16(p, 0x6558);		/* transparent Ethernet bridging */
			p32(p, 100u << 8);	/* VNI 100 */
			pbytes(p, macs[3], 6);
			pbytes(p, macs[4], 6);
			p16(p, 0x0800);
			ih = d_ip4(p, 17);
			d_udp(p, 1111, 2222, -1, 8, 0);
			d_ip4_end(p, ih, -1);
			set16(p, u + 4, (unsigned)(p->n - u));
		}
		d_ip4_end(p, h, -1);
		break;
	case 12:	/* ether proto 0x88a8 live: an 802.1ad tag inside an 802.1Q
			 * one; the receive path strips only the outer tag */
		d_eth(p, 0x8100);
		p16(p, 10);
		p16(p, 0x88a8);
		p16(p, 100);
		p16(p, 0x0800);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 16, 0);
		d_ip4_end(p, h, -1);
		break;
	case 13:	/* the same under an 802.1ad tag */
		d_eth(p, 0x88a8);
		p16(p, 300);
		p16(p, 0x88a8);
		p16(p, 10);
		p16(p, 0x86dd);
		p32(p, 0x60000000);
		p16(p, 0);
		p8(p, 59);
		p8(p, 64);
		pbytes(p, ip6s[0], 16);
		pbytes(p, ip6s[1], 16);
		break;
	case 15:	/* ether[39990] = 0x3c, ether[4108:4] = 0x3c3c3c3c: a
			 * 40,000-byte frame, fragments of 4 KiB on 6.1 */
		d_eth(p, 0x0800);
		h = d_ip4(p, 17);
		d_udp(p, 1234, 5678, -1, 40000 - 14 - 20 - 8, 0x3c);
		d_ip4_end(p, h, -1);
		break;
	case 16:	/* ip6[59000] = 0xc3, ether[32780:4] = 0xc3c3c3c3: a
			 * 60,000-byte frame, fragments of 32 KiB on 6.12 */
		d_eth(p, 0x86dd);
		p32(p, 0x60000000);
		p16(p, 60000 - 14 - 40);
		p8(p, 17);
		p8(p, 64);
		pbytes(p, ip6s[0], 16);
		pbytes(p, ip6s[1], 16);
		d_udp(p, 1234, 5678, -1, 60000 - 14 - 40 - 8, 0xc3);
		break;
	default:	/* an 802.1ad tag under 0x9100, which the kernel leaves in
			 * place: "vlan" offline and live on the same bytes */
		d_eth(p, 0x9100);
		p16(p, 1);
		p16(p, 0x88a8);
		p16(p, 1);
		p16(p, 0x0806);
		prand(p, 28);
		break;
	}
}

static int cmd_gen(int argc, char **argv)
{
	static struct pkt p;
	struct pcapw w;
	uint64_t seed = 1;
	unsigned n = 3600;
	unsigned count[C_NCAT] = { 0 };
	int c, deciders = 1;

	while ((c = getopt(argc, argv, "s:n:D")) != -1) {
		if (c == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (c == 'n')
			n = (unsigned)strtoul(optarg, NULL, 0);
		else if (c == 'D')
			deciders = 0;
		else
			return 2;
	}
	if (optind + 1 != argc)
		die("usage: gen [-s SEED] [-n FRAMES] [-D] OUT.pcap");
	rs = seed;
	pw_open(&w, argv[optind], 65535);
	for (unsigned i = 0; i < n; i++) {
		/* weights: TCP, UDP and the large frames come up more often */
		static const uint8_t plan[] = {
			C_IP4, C_IP4OPT, C_IP4FRAG, C_IP6, C_IP6EXT, C_IP6FRAG, C_ICMP, C_ICMP6,
			C_TCP, C_TCP, C_TCP, C_UDP, C_UDP, C_VLAN, C_VLAN, C_QINQ, C_MPLS, C_ARP,
			C_BCAST, C_LLC, C_PPPOE, C_OTHER, C_LARGE, C_LARGE, C_RANDOM, C_IP4,
		};
		unsigned cat = plan[i % NELEM(plan)];

		gen_frame(&p, cat);
		count[cat]++;
		pw_add(&w, p.b, (uint32_t)p.n, (uint32_t)p.n);
	}
	for (unsigned i = 0; deciders && i < NDECIDERS; i++) {
		gen_decider(&p, i);
		pw_add(&w, p.b, (uint32_t)p.n, (uint32_t)p.n);
	}
	pw_close(&w, argv[optind]);
	printf("frames %u seed %llu (%u random, %u deciders)\n", w.n, (unsigned long long)seed, n,
	       deciders ? NDECIDERS : 0);
	return 0;
}

/* ------------------------------------------------------------------ prep */

static int cmd_prep(int argc, char **argv)
{
	struct flist in = { 0 };
	struct pcapw wa, wu, wt;
	char err[512];
	uint32_t maxf = 9216 + 14, snap = 0;
	unsigned kept = 0, tagged = 0, untagged = 0, shrt = 0, lng = 0, cut = 0, paged = 0, multi = 0;
	int c;

	while ((c = getopt(argc, argv, "m:")) != -1) {
		if (c == 'm')
			maxf = (uint32_t)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind + 4 != argc)
		die("usage: prep [-m MAXFRAME] IN.pcap ALL.pcap UNTAGGED.pcap TAGGED.pcap");
	if (read_pcap(argv[optind], &in, err, sizeof(err)))
		die("%s", err);
	for (size_t i = 0; i < in.n; i++)
		if (in.f[i].caplen > snap)
			snap = in.f[i].caplen;
	snap = snap < 65535 ? 65535 : 262144;
	pw_open(&wa, argv[optind + 1], snap);
	pw_open(&wu, argv[optind + 2], snap);
	pw_open(&wt, argv[optind + 3], snap);
	for (size_t i = 0; i < in.n; i++) {
		struct frame *f = &in.f[i];
		/* the receive path allows a VLAN tag beyond the MTU */
		uint32_t lim = maxf + (kernel_tagged(f->data, f->caplen) ? 4 : 0);

		if (f->caplen < 14) {
			shrt++;
			continue;
		}
		if (f->caplen > lim) {
			lng++;
			continue;
		}
		if (f->caplen < f->len)
			cut++;
		kept++;
		/*
		 * The skb inject's AF_PACKET send builds: from a page on, all
		 * but the 14-byte Ethernet header in page fragments of at
		 * most 4 KiB (6.1) or 32 KiB (6.12) (packet_alloc_skb()).
		 */
		if (f->caplen >= 4096)
			paged++;
		if (f->caplen > 14 + 32768)
			multi++;
		pw_add(&wa, f->data, f->caplen, f->caplen);
		if (kernel_tagged(f->data, f->caplen)) {
			tagged++;
			pw_add(&wt, f->data, f->caplen, f->caplen);
		} else {
			untagged++;
			pw_add(&wu, f->data, f->caplen, f->caplen);
		}
	}
	pw_close(&wa, argv[optind + 1]);
	pw_close(&wu, argv[optind + 2]);
	pw_close(&wt, argv[optind + 3]);
	printf("frames %zu kept %u untagged %u tagged %u short %u long %u cut %u paged %u multi %u\n",
	       in.n, kept, untagged, tagged, shrt, lng, cut, paged, multi);
	return 0;
}

/* ---------------------------------------------------------------- gro */

#define GRO_FLOWS	12
#define GRO_SEGS	8
#define GRO_MSS		1448

/*
 * Segment s of flow f: Ethernet, IPv4 (DF, IDs counting up) or IPv6, TCP
 * (ACK, consecutive sequence numbers, no options), GRO_MSS bytes; every
 * checksum right, so GRO's checks merge them (tcp_gro_receive()).
 */
static void gro_segment(struct pkt *p, unsigned f, unsigned s)
{
	int v6 = f & 1;
	size_t ip, tcp;
	uint32_t sum;

	p->n = 0;
	pbytes(p, (const uint8_t *)"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	p16(p, v6 ? 0x86dd : 0x0800);
	ip = p->n;
	if (v6) {
		p32(p, 0x60000000);
		p16(p, 20 + GRO_MSS);
		p8(p, 6);
		p8(p, 64);
		pbytes(p, ip6s[0], 16);
		pbytes(p, ip6s[1], 16);
	} else {
		p8(p, 0x45);
		p8(p, 0);
		p16(p, 20 + 20 + GRO_MSS);
		p16(p, 0x100 * f + s);
		p16(p, 0x4000);
		p8(p, 64);
		p8(p, 6);
		p16(p, 0);
		p32(p, 0x0a010000 + f);
		p32(p, 0x0a020000 + f);
		set16(p, ip + 10, csum_fold(csum_add(0, p->b + ip, 20)));
	}
	tcp = p->n;
	p16(p, 40000 + f);
	p16(p, 8000);
	p32(p, 1000 + s * GRO_MSS);
	p32(p, 1);
	p8(p, 5 << 4);
	p8(p, 0x10);
	p16(p, 512);
	p16(p, 0);
	p16(p, 0);
	for (unsigned j = 0; j < GRO_MSS; j++)
		p8(p, f * 16 + s);
	/* the pseudo-header: addresses, protocol, TCP length */
	if (v6)
		sum = csum_add(0, p->b + ip + 8, 32);
	else
		sum = csum_add(0, p->b + ip + 12, 8);
	sum += 6 + 20 + GRO_MSS;
	set16(p, tcp + 16, csum_fold(csum_add(sum, p->b + tcp, 20 + GRO_MSS)));
}

static int cmd_gro(int argc, char **argv)
{
	static struct pkt p;
	struct pcapw w;

	if (argc != 2)
		die("usage: gro OUT.pcap");
	pw_open(&w, argv[1], 65535);
	for (unsigned f = 0; f < GRO_FLOWS; f++)
		for (unsigned s = 0; s < GRO_SEGS; s++) {
			gro_segment(&p, f, s);
			pw_add(&w, p.b, (uint32_t)p.n, (uint32_t)p.n);
		}
	pw_close(&w, argv[1]);
	printf("frames %u flows %u segment-bytes %u\n", w.n, GRO_FLOWS, GRO_MSS);
	return 0;
}

/* ---------------------------------------------------------------- offload */

static int cmd_offload(int argc, char **argv)
{
	struct ethtool_value ev = { 0 };
	struct ifreq ifr = { 0 };
	int fd;

	if (argc != 4 || (strcmp(argv[2], "gro") && strcmp(argv[2], "tso")) ||
	    (strcmp(argv[3], "on") && strcmp(argv[3], "off")))
		die("usage: offload IFNAME gro|tso on|off");
	ev.cmd = strcmp(argv[2], "gro") ? ETHTOOL_STSO : ETHTOOL_SGRO;
	ev.data = !strcmp(argv[3], "on");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	ifr.ifr_data = (char *)&ev;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || ioctl(fd, SIOCETHTOOL, &ifr))
		die("%s %s %s: %s", argv[1], argv[2], argv[3], strerror(errno));
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------- inject */

static int cmd_inject(int argc, char **argv)
{
	struct flist in = { 0 };
	struct sockaddr_ll sll = { 0 };
	struct timespec gap;
	unsigned burst = 16, gap_us = 200, sent = 0;
	char err[512];
	int c, fd;

	while ((c = getopt(argc, argv, "b:g:")) != -1) {
		if (c == 'b')
			burst = (unsigned)strtoul(optarg, NULL, 0);
		else if (c == 'g')
			gap_us = (unsigned)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind + 2 != argc)
		die("usage: inject [-b BURST] [-g GAP_US] IFNAME FILE.pcap");
	if (read_pcap(argv[optind + 1], &in, err, sizeof(err)))
		die("%s", err);
	/*
	 * Stay on one CPU: a veth hands each frame to the backlog of the CPU
	 * that sent it, so a sender that migrates mid-replay splits the frames
	 * over two backlogs, drained independently, and the taps see them out
	 * of order (seen on a loaded host).
	 */
	c = sched_getcpu();
	if (c >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			die("sched_setaffinity: %s", strerror(errno));
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);	/* protocol 0: sends only */
	if (fd < 0)
		die("socket(AF_PACKET): %s", strerror(errno));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = (int)if_nametoindex(argv[optind]);
	if (!sll.sll_ifindex)
		die("%s: %s", argv[optind], strerror(errno));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind: %s", strerror(errno));
	gap.tv_sec = gap_us / 1000000;
	gap.tv_nsec = (long)(gap_us % 1000000) * 1000;
	for (size_t i = 0; i < in.n; i++) {
		int tries = 0;

		while (send(fd, in.f[i].data, in.f[i].caplen, 0) != (ssize_t)in.f[i].caplen) {
			if ((errno != ENOBUFS && errno != EAGAIN && errno != EINTR) || ++tries > 1000)
				die("frame %zu (%u bytes): send: %s", i + 1, in.f[i].caplen, strerror(errno));
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		}
		sent++;
		if (burst && gap_us && sent % burst == 0)
			nanosleep(&gap, NULL);
	}
	close(fd);
	printf("sent %u\n", sent);
	return 0;
}

/* ---------------------------------------------------------------- verify */

struct tdstat {
	int ok;				/* the stderr file was read */
	long captured, received, dropped;
	int listening;
	char warn[256];			/* first warning or error line */
};

static void read_stderr(const char *path, struct tdstat *s)
{
	char line[1024];
	FILE *fp;

	memset(s, 0, sizeof(*s));
	s->captured = s->received = s->dropped = -1;
	fp = fopen(path, "r");
	if (!fp)
		return;
	s->ok = 1;
	while (fgets(line, sizeof(line), fp)) {
		long v;

		line[strcspn(line, "\r\n")] = 0;
		if (sscanf(line, "%ld packets captured", &v) == 1 && strstr(line, "captured"))
			s->captured = v;
		else if (sscanf(line, "%ld packets received by filter", &v) == 1 && strstr(line, "received"))
			s->received = v;
		else if (sscanf(line, "%ld packets dropped by kernel", &v) == 1 && strstr(line, "dropped"))
			s->dropped = v;
		else if (strstr(line, "listening on") || strstr(line, "reading from file"))
			s->listening = 1;
		else if (!s->warn[0] && line[0])
			snprintf(s->warn, sizeof(s->warn), "%.200s", line);
	}
	fclose(fp);
}

/* Keep the frames of `l` whose tagged-ness is `tagged`. */
static void subset(const struct flist *l, int tagged, struct flist *out)
{
	for (size_t i = 0; i < l->n; i++)
		if (kernel_tagged(l->f[i].data, l->f[i].caplen) == tagged)
			flist_add(out, l->f[i].data, l->f[i].caplen, l->f[i].len);
}

/* Compare frame lists; returns 0 when equal, else writes the difference. */
static int compare(const struct flist *a, const struct flist *b, const char *an, const char *bn,
		   char *d, size_t dl)
{
	size_t n = a->n < b->n ? a->n : b->n;

	for (size_t i = 0; i < n; i++) {
		const struct frame *x = &a->f[i], *y = &b->f[i];

		if (x->caplen != y->caplen || x->len != y->len) {
			snprintf(d, dl, "frame %zu: %s caplen/len %u/%u, %s %u/%u", i + 1, an,
				 x->caplen, x->len, bn, y->caplen, y->len);
			return 1;
		}
		if (memcmp(x->data, y->data, x->caplen)) {
			size_t k = 0;

			while (x->data[k] == y->data[k])
				k++;
			snprintf(d, dl, "frame %zu (%u bytes): %s and %s differ from byte %zu", i + 1,
				 x->caplen, an, bn, k);
			return 1;
		}
	}
	if (a->n != b->n) {
		snprintf(d, dl, "%s has %zu frames, %s %zu (first %zu equal)", an, a->n, bn, b->n, n);
		return 1;
	}
	return 0;
}

static void free_list(struct flist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->f[i].data);
	free(l->f);
	memset(l, 0, sizeof(*l));
}

/* frames of the JIT-on replay (-a) that reach a tap: untagged, tagged */
static unsigned long verify_untagged, verify_tagged, verify_total;

/* One expression: append the problems to `why`, the counts to `cnt`. */
static int verify_one(char **fld, int nfld, char *why, size_t wl, char *cnt, size_t cl)
{
	struct flist la = { 0 }, off = { 0 }, lb = { 0 }, ua = { 0 }, ta = { 0 };
	struct tdstat sa, so, sb;
	char err[512], d[512];
	int bad = 0, have_b = strcmp(fld[6], "-") != 0;
	size_t w = 0;

#define WHY(...) do { bad = 1; if (w < wl) w += (size_t)snprintf(why + w, wl - w, __VA_ARGS__); } while (0)
	read_stderr(fld[1], &sa);
	read_stderr(fld[4], &so);
	if (so.warn[0] || !so.ok)
		WHY("offline: %s; ", so.ok ? so.warn : "no stderr");
	if (sa.warn[0] || !sa.ok)
		WHY("live: %s; ", sa.ok ? sa.warn : "no stderr");
	if (!sa.listening || sa.captured < 0)
		WHY("live: tcpdump did not run to the end; ");
	else if (sa.dropped != 0)
		WHY("live: %ld dropped by kernel; ", sa.dropped);
	else if (sa.captured != sa.received)
		WHY("live: %ld captured but %ld received by filter; ", sa.captured, sa.received);
	if (read_pcap(fld[2], &la, err, sizeof(err)))
		WHY("live: %s; ", err);
	if (read_pcap(fld[3], &off, err, sizeof(err)))
		WHY("offline: %s; ", err);
	subset(&la, 0, &ua);
	subset(&la, 1, &ta);
	if (!bad && compare(&ua, &off, "live", "offline", d, sizeof(d)))
		WHY("untagged: %s; ", d);
	if (have_b) {
		read_stderr(fld[5], &sb);
		if (sb.warn[0] || !sb.ok)
			WHY("live, JIT off: %s; ", sb.ok ? sb.warn : "no stderr");
		if (!sb.listening || sb.captured < 0)
			WHY("live, JIT off: tcpdump did not run to the end; ");
		else if (sb.dropped != 0)
			WHY("live, JIT off: %ld dropped by kernel; ", sb.dropped);
		else if (sb.captured != sb.received)
			WHY("live, JIT off: %ld captured but %ld received by filter; ", sb.captured, sb.received);
		if (read_pcap(fld[6], &lb, err, sizeof(err)))
			WHY("live, JIT off: %s; ", err);
		if (!bad && compare(&ta, &lb, "JIT on", "JIT off", d, sizeof(d)))
			WHY("tagged: %s; ", d);
		snprintf(cnt, cl, "untagged %zu live = %zu offline, tagged %zu JIT on = %zu JIT off",
			 ua.n, off.n, ta.n, lb.n);
	} else {
		snprintf(cnt, cl, "untagged %zu live = %zu offline, tagged %zu live (not compared)",
			 ua.n, off.n, ta.n);
	}
	if (nfld >= 10) {
		const char *dec = fld[7], *ja = fld[8], *jb = fld[9];
		size_t c = strlen(cnt);

		/* Does it decide anything?  A frame it accepts, one it rejects. */
		if (verify_total && sa.ok && sa.listening) {
			unsigned long a = la.n;

			if (!strncmp(dec, "accepts every frame", 19)) {
				if (a < verify_total)
					WHY("listed as accepting every frame, accepts %lu of %lu; ", a, verify_total);
			} else if (!strncmp(dec, "accepts no frame", 16)) {
				if (a != 0)
					WHY("listed as accepting no frame, accepts %lu of %lu; ", a, verify_total);
			} else if (!strncmp(dec, "any", 3)) {
				/* a capture of the user's: reported, not required */
			} else if (!strncmp(dec, "judged on tagged frames", 23)) {
				/* decides where its oracle, the kernel with the switch off, judges */
				if (ta.n == 0 || ta.n >= verify_tagged)
					WHY("decides nothing on the tagged frames: accepts %zu of %lu "
					    "(extend the corpus); ", ta.n, verify_tagged);
			} else if (ua.n == 0 || ua.n >= verify_untagged) {
				/* decides where libpcap's offline program judges it */
				WHY("decides nothing on the untagged frames, which tcpdump -r judges: "
				    "accepts %zu of %lu (extend the corpus, or say why in the list); ",
				    ua.n, verify_untagged);
			}
			c += (size_t)snprintf(cnt + c, c < cl ? cl - c : 0, "; accepts %lu of %lu%s%s", a,
					      verify_total, strcmp(dec, "-") ? ", as listed: " : "",
					      strcmp(dec, "-") ? dec : "");
		}
		/* Who compiled the filter tcpdump attached, per tcpdump process. */
		if (strcmp(ja, "-")) {
			if (strncmp(ja, "direct ", 7))
				WHY("JIT on: filter not compiled by the direct JIT (%s); ", ja);
			c += (size_t)snprintf(cnt + c, c < cl ? cl - c : 0, "; JIT on: %s", ja);
		}
		if (strcmp(jb, "-")) {
			if (!strncmp(jb, "direct", 6))
				WHY("JIT off: filter compiled by the direct JIT (%s); ", jb);
			c += (size_t)snprintf(cnt + c, c < cl ? cl - c : 0, "; JIT off: %s", jb);
		}
	}
#undef WHY
	free_list(&la);
	free_list(&off);
	free_list(&lb);
	free_list(&ua);
	free_list(&ta);
	return bad;
}

static int cmd_verify(int argc, char **argv)
{
	char line[8192], why[1024], cnt[512];
	FILE *fp;
	int fails = 0, c;

	while ((c = getopt(argc, argv, "a:")) != -1) {
		if (c == 'a') {
			struct flist all = { 0 };

			if (read_pcap(optarg, &all, why, sizeof(why)))
				die("%s", why);
			verify_untagged = verify_tagged = 0;
			for (size_t i = 0; i < all.n; i++) {
				if (!kernel_tagged(all.f[i].data, all.f[i].caplen))
					verify_untagged++;
				else if (all.f[i].caplen >= 20)
					verify_tagged++;
			}
			verify_total = verify_untagged + verify_tagged;
			free_list(&all);
		} else {
			return 2;
		}
	}
	if (optind + 1 != argc)
		die("usage: verify [-a ALL.pcap] MANIFEST");
	fp = fopen(argv[optind], "r");
	if (!fp)
		die("%s: %s", argv[optind], strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *fld[10], *s = line;
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		while (n < 10 && (fld[n] = strsep(&s, "\t")))
			n++;
		if (n != 7 && n != 10)
			die("%s: malformed line", argv[optind]);
		why[0] = cnt[0] = 0;
		if (verify_one(fld, n, why, sizeof(why), cnt, sizeof(cnt))) {
			why[strlen(why) > 2 ? strlen(why) - 2 : 0] = 0;
			printf("%s\tfail\t%s%s%s\n", fld[0], why, cnt[0] ? "; " : "", cnt);
			fails++;
		} else {
			printf("%s\tpass\t%s\n", fld[0], cnt);
		}
	}
	fclose(fp);
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "prep"))
		return cmd_prep(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "gro"))
		return cmd_gro(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "offload"))
		return cmd_offload(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "inject"))
		return cmd_inject(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "verify"))
		return cmd_verify(argc - 1, argv + 1);
	fprintf(stderr, "usage: cbpf-pcaptool gen|prep|gro|offload|inject|verify ...\n");
	return 2;
}
