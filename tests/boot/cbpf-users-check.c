// SPDX-License-Identifier: GPL-2.0
/*
 * cbpf-users-check: the in-kernel users of classic BPF besides tcpdump's
 * packet sockets, each with the direct JIT switched off (the upstream
 * conversion) and on, against the outcome the case must have:
 *
 *  udp        SO_ATTACH_FILTER on a UDP socket: a datagram the filter
 *             drops, another trimmed to the length the filter returns
 *  tcp        SO_ATTACH_FILTER on a TCP listener, inherited by the accepted
 *             socket: the data arrives intact
 *  tcp-drop   "ret #0" on a TCP listener: the handshake never completes
 *  get        SO_GET_FILTER returns the program as attached
 *  lock       SO_LOCK_FILTER: detaching and replacing refused with EPERM
 *  detach     SO_DETACH_FILTER: everything arrives untrimmed, a second
 *             detach is ENOENT
 *  toggle     the switch flipped twice with a filter attached: it filters
 *             as before; closed, its image memory is freed
 *  fanout     PACKET_FANOUT_CBPF (PACKET_FANOUT_DATA): the program picks
 *             the socket
 *  reuseport  SO_ATTACH_REUSEPORT_CBPF: the program picks the socket
 *  cls_bpf    tc filter ... bpf bytecode: the classifier picks what the
 *             action drops
 *  act_bpf    tc ... action bpf bytecode: the action drops what it picks
 *  xt_bpf     iptables -m bpf --bytecode: the match picks the datagrams an
 *             INPUT rule on the loopback drops
 *
 * Every case with the switch on must make the direct JIT's "compiled"
 * counter grow by the number of programs the case builds; with the switch
 * off it must not move.  Records, "name<TAB>pass|fail<TAB>detail", on
 * standard output; exit status 1 if any failed.
 *
 * Usage (as root): cbpf-users-check TX_IF RX_IF   (a veth pair, up)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net-core-sysctl.h"
#include "check-record.h"

#define STATS		"/proc/sys/net/core/bpf_jit_classic_stats"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define INSN(c, t, f, k)	((struct sock_filter){ (c), (t), (f), (k) })
#define FPROG(p)	((struct sock_fprog){ ARRAY_SIZE(p), (struct sock_filter *)(p) })
/* Payload offset from the network header of the frames sent here. */
#define PAYLOAD		28
#define WAIT_MS		200

static const char *tx_if, *rx_if;

/* A counter of bpf_jit_classic_stats, or -1. */
static long stat_get(const char *key)
{
	char line[128], k[64];
	long v, found = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", k, &v) == 2 && !strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

/* Append to an outcome string. */
static void out(char *o, size_t n, const char *fmt, ...)
{
	size_t l = strlen(o);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o + l, n - l, fmt, ap);
	va_end(ap);
}

static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/* ---- programs ---- */

/* On a UDP socket (data at the UDP header): drop 'X', keep 5 payload bytes. */
static const struct sock_filter udp_drop_x_trim[] = {
	INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, 8),
	INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 'X'),
	INSN(BPF_RET | BPF_K, 0, 0, 0),
	INSN(BPF_RET | BPF_K, 0, 0, 8 + 5),
};
static const struct sock_filter accept_all[] = {
	INSN(BPF_RET | BPF_K, 0, 0, 0xffffffff),
};
static const struct sock_filter drop_all[] = {
	INSN(BPF_RET | BPF_K, 0, 0, 0),
};
/* Fanout (data at the network header): socket = payload[0] & 1. */
static const struct sock_filter fanout_pick[] = {
	INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, PAYLOAD),
	INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 1),
	INSN(BPF_RET | BPF_A, 0, 0, 0),
};
/* Reuseport (data at the UDP payload): socket = payload[0] & 1. */
static const struct sock_filter reuseport_pick[] = {
	INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, 0),
	INSN(BPF_ALU | BPF_AND | BPF_K, 0, 0, 1),
	INSN(BPF_RET | BPF_A, 0, 0, 0),
};

/* ---- UDP and TCP sockets on the loopback ---- */

static int udp_bound(struct sockaddr_in *a, int reuseport)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0), one = 1;
	socklen_t l = sizeof(*a);

	if (s < 0)
		return -1;
	if (reuseport)
		setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)a, sizeof(*a)) || getsockname(s, (struct sockaddr *)a, &l)) {
		close(s);
		return -1;
	}
	return s;
}

static void udp_send(const struct sockaddr_in *to, const char *msg)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s >= 0) {
		sendto(s, msg, strlen(msg), 0, (const struct sockaddr *)to, sizeof(*to));
		close(s);
	}
}

/* What arrived on a UDP socket: "[payload]" per datagram. */
static void udp_drain(int s, char *o, size_t n)
{
	char buf[256];
	ssize_t r;

	while (readable(s, WAIT_MS) && (r = recv(s, buf, sizeof(buf) - 1, 0)) >= 0) {
		buf[r] = 0;
		out(o, n, "[%s]", buf);
	}
}

static int attach(int s, const struct sock_fprog *fp)
{
	return setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, fp, sizeof(*fp)) ? errno : 0;
}

/*
 * A UDP socket on the loopback (its address in @a) with udp_drop_x_trim
 * attached, the attach's errno in @err; -1 (said in the outcome) if
 * there is no socket.
 */
static int udp_filtered(struct sockaddr_in *a, int *err, char *o, size_t n)
{
	struct sock_fprog fp = FPROG(udp_drop_x_trim);
	int s;

	*a = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	s = udp_bound(a, 0);
	if (s < 0)
		out(o, n, "socket: %s", strerror(errno));
	else
		*err = attach(s, &fp);
	return s;
}

/* The datagram the filter drops and the one it trims; what arrived. */
static void udp_exchange(int s, const struct sockaddr_in *a, char *o, size_t n)
{
	udp_send(a, "Xdropped");
	udp_send(a, "abcdefghij");
	udp_drain(s, o, n);
	close(s);
}

/* "0", or the errno's name, of a setsockopt(). */
static const char *sockopt_result(int s, int opt, const void *v, socklen_t l)
{
	return setsockopt(s, SOL_SOCKET, opt, v, l) ? strerrorname_np(errno) : "0";
}

static void case_udp(char *o, size_t n)
{
	struct sockaddr_in a;
	int err, s = udp_filtered(&a, &err, o, n);

	if (s < 0)
		return;
	out(o, n, "attach %d ", err);
	udp_exchange(s, &a, o, n);
}

static void case_get(char *o, size_t n)
{
	struct sock_filter got[16];
	struct sockaddr_in a;
	socklen_t len = 0;
	int err, s = udp_filtered(&a, &err, o, n);

	if (s < 0)
		return;
	/* optlen counts instructions; 0 asks for the length. */
	if (getsockopt(s, SOL_SOCKET, SO_GET_FILTER, NULL, &len))
		out(o, n, "length: %s", strerror(errno));
	else if (len > ARRAY_SIZE(got))
		out(o, n, "length %u", len);
	else if (getsockopt(s, SOL_SOCKET, SO_GET_FILTER, got, &len))
		out(o, n, "program: %s", strerror(errno));
	else
		out(o, n, "%u instructions, %s", len,
		    len == ARRAY_SIZE(udp_drop_x_trim) &&
		    !memcmp(got, udp_drop_x_trim, sizeof(udp_drop_x_trim)) ? "as attached" : "DIFFERENT");
	close(s);
}

static void case_lock(char *o, size_t n)
{
	struct sock_fprog fp2 = FPROG(accept_all);
	struct sockaddr_in a;
	int err, one = 1, s = udp_filtered(&a, &err, o, n);

	if (s < 0)
		return;
	out(o, n, "lock %d ", setsockopt(s, SOL_SOCKET, SO_LOCK_FILTER, &one, sizeof(one)) ? errno : 0);
	out(o, n, "detach %s ", sockopt_result(s, SO_DETACH_FILTER, &one, sizeof(one)));
	out(o, n, "attach %s ", sockopt_result(s, SO_ATTACH_FILTER, &fp2, sizeof(fp2)));
	udp_exchange(s, &a, o, n);
}

static void case_detach(char *o, size_t n)
{
	struct sockaddr_in a;
	int err, one = 1, s = udp_filtered(&a, &err, o, n);

	if (s < 0)
		return;
	out(o, n, "detach %s ", sockopt_result(s, SO_DETACH_FILTER, &one, sizeof(one)));
	out(o, n, "again %s ", sockopt_result(s, SO_DETACH_FILTER, &one, sizeof(one)));
	udp_exchange(s, &a, o, n);
}

/*
 * The switch flipped twice while a filter is attached: the filter keeps
 * its image and filters as before; once the socket is closed, the JIT's
 * image memory is back where it was (freed once, after an RCU grace
 * period and a work item: waited for, up to 5 s).
 */
static void case_toggle(char *o, size_t n)
{
	long img0 = stat_get("image_bytes_current"), img = -1;
	struct sockaddr_in a;
	char v[16];
	int err, s;

	if (sysctl_read("bpf_jit_classic", v, sizeof(v))) {
		out(o, n, "switch: %s", strerror(errno));
		return;
	}
	s = udp_filtered(&a, &err, o, n);
	if (s < 0)
		return;
	out(o, n, "attach %d ", err);
	sysctl_write("bpf_jit_classic", strcmp(v, "0") ? "0" : "1");
	sysctl_write("bpf_jit_classic", v);
	udp_exchange(s, &a, o, n);
	for (int i = 0; i < 50 && img != img0; i++) {
		img = stat_get("image_bytes_current");
		if (img != img0)
			usleep(100 * 1000);
	}
	out(o, n, img == img0 ? " image memory back" : " image memory %+ld bytes", img - img0);
}

/*
 * A TCP listener with @prog; a client connects (non-blocking) and sends
 * a line.  The outcome: whether the handshake completed, what arrived.
 */
static void tcp_case(const struct sock_fprog *fp, char *o, size_t n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t l = sizeof(a);
	int ls = socket(AF_INET, SOCK_STREAM, 0), c = -1, s = -1, err = 0;
	struct pollfd p;
	char buf[64];
	ssize_t r;

	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(ls, (struct sockaddr *)&a, &l) || listen(ls, 4)) {
		out(o, n, "listener: %s", strerror(errno));
		goto done;
	}
	out(o, n, "attach %d ", attach(ls, fp));
	c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (c < 0 || (connect(c, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS)) {
		out(o, n, "connect: %s", strerror(errno));
		goto done;
	}
	/* Dropped SYNs are retransmitted after 1 s: 500 ms tells them apart. */
	p = (struct pollfd){ .fd = c, .events = POLLOUT };
	l = sizeof(err);
	if (poll(&p, 1, 500) != 1 || getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &l) || err) {
		out(o, n, "not connected");
		goto done;
	}
	if (send(c, "hello tcp", 9, 0) != 9 || !readable(ls, WAIT_MS) || (s = accept(ls, NULL, NULL)) < 0) {
		out(o, n, "connected, nothing accepted");
		goto done;
	}
	r = readable(s, WAIT_MS) ? recv(s, buf, sizeof(buf) - 1, 0) : -1;
	buf[r > 0 ? r : 0] = 0;
	out(o, n, "connected, got [%s]", buf);
done:
	if (s >= 0)
		close(s);
	if (c >= 0)
		close(c);
	if (ls >= 0)
		close(ls);
}

static void case_tcp(char *o, size_t n)
{
	struct sock_fprog fp = FPROG(accept_all);

	tcp_case(&fp, o, n);
}

static void case_tcp_drop(char *o, size_t n)
{
	struct sock_fprog fp = FPROG(drop_all);

	tcp_case(&fp, o, n);
}

static void case_reuseport(char *o, size_t n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sock_fprog fp = FPROG(reuseport_pick);
	int s[2];

	s[0] = udp_bound(&a, 1);
	s[1] = s[0] >= 0 ? udp_bound(&a, 1) : -1;
	if (s[1] < 0) {
		out(o, n, "sockets: %s", strerror(errno));
		if (s[0] >= 0)
			close(s[0]);
		return;
	}
	out(o, n, "attach %d ", setsockopt(s[0], SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &fp,
					    sizeof(fp)) ? errno : 0);
	for (char m[2] = "0"; m[0] < '8'; m[0]++)
		udp_send(&a, m);
	for (int i = 0; i < 2; i++) {
		out(o, n, "socket %d: ", i);
		udp_drain(s[i], o, n);
		out(o, n, " ");
		close(s[i]);
	}
}

/* ---- frames on the veth pair: fanout, tc ---- */

static int packet_socket(const char *ifname, int protocol)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(protocol),
				   .sll_ifindex = (int)if_nametoindex(ifname) };
	int s = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(protocol));

	if (s >= 0 && bind(s, (struct sockaddr *)&sll, sizeof(sll))) {
		close(s);
		return -1;
	}
	return s;
}

/* Broadcast Ethernet + IPv4 + UDP frames, payload[0] = each of @tags. */
static void send_frames(const char *tags)
{
	int s = packet_socket(tx_if, ETH_P_IP);
	unsigned char f[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
				0x45, 0, 0, 36, 0, 0, 0x40, 0, 64, 17, 0, 0,
				10, 0, 0, 1, 10, 0, 0, 2,
				0x30, 0x39, 0x30, 0x39, 0, 16, 0, 0 };

	if (s < 0)
		return;
	for (const char *t = tags; *t; t++) {
		memset(f + 14 + PAYLOAD, *t, 8);
		send(s, f, 14 + PAYLOAD + 8, 0);
	}
	close(s);
}

/* The payload tags that arrived on a packet socket, in order. */
static void frames_drain(int s, char *o, size_t n)
{
	unsigned char buf[2048];
	ssize_t r;

	while (readable(s, WAIT_MS) && (r = recv(s, buf, sizeof(buf), 0)) >= 0)
		if (r > 14 + PAYLOAD)
			out(o, n, "%c", buf[14 + PAYLOAD]);
}

static void case_fanout(char *o, size_t n)
{
	struct sock_fprog fp = FPROG(fanout_pick);
	int s[2], arg = (0x4a17 & 0xffff) | (PACKET_FANOUT_CBPF << 16);

	s[0] = packet_socket(rx_if, ETH_P_IP);
	s[1] = s[0] >= 0 ? packet_socket(rx_if, ETH_P_IP) : -1;
	if (s[1] < 0) {
		out(o, n, "sockets: %s", strerror(errno));
		if (s[0] >= 0)
			close(s[0]);
		return;
	}
	for (int i = 0; i < 2; i++)
		out(o, n, "join %d ", setsockopt(s[i], SOL_PACKET, PACKET_FANOUT, &arg,
						 sizeof(arg)) ? errno : 0);
	out(o, n, "data %d ", setsockopt(s[0], SOL_PACKET, PACKET_FANOUT_DATA, &fp,
					 sizeof(fp)) ? errno : 0);
	send_frames("01234567");
	for (int i = 0; i < 2; i++) {
		out(o, n, "socket %d: ", i);
		frames_drain(s[i], o, n);
		out(o, n, " ");
		close(s[i]);
	}
}

/* Run a command line; its exit status in the outcome when non-zero. */
static int command(char *o, size_t n, const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc)
		out(o, n, "[%s: status %d] ", cmd, rc);
	return rc;
}

/* Remove the clsact qdisc, if any (its absence is no outcome). */
static void tc_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "tc qdisc del dev %s clsact 2>/dev/null", rx_if);
	if (system(cmd) < 0)
		perror("system");
}

/*
 * "ldb [42]; jeq #'X'; ret #T; ret #F" in tc's bytecode syntax: at ingress
 * cls_bpf and act_bpf run the program with the MAC header pushed back, so
 * the payload is at 14 + 28.
 */
#define TC_MATCH_X(t, f) "4,48 0 0 42,21 0 1 88,6 0 0 " t ",6 0 0 " f

/* Frames through a clsact ingress filter; what a packet socket then sees. */
static void tc_case(const char *filter, char *o, size_t n)
{
	int s;

	tc_cleanup();
	if (command(o, n, "tc qdisc add dev %s clsact", rx_if) ||
	    command(o, n, "tc filter add dev %s ingress %s", rx_if, filter))
		goto out;
	s = packet_socket(rx_if, ETH_P_IP);
	if (s < 0) {
		out(o, n, "socket: %s", strerror(errno));
		goto out;
	}
	send_frames("aXbXc");
	out(o, n, "arrived: ");
	frames_drain(s, o, n);
	close(s);
out:
	tc_cleanup();
}

/* The classifier picks 'X'; its action (act_bpf) always drops. */
static void case_cls_bpf(char *o, size_t n)
{
	tc_case("bpf bytecode '" TC_MATCH_X("4294967295", "0") "' action bpf bytecode '1,6 0 0 2'", o, n);
}

/* The classifier matches everything; the action drops 'X' (TC_ACT_SHOT). */
static void case_act_bpf(char *o, size_t n)
{
	tc_case("bpf bytecode '1,6 0 0 4294967295' action bpf bytecode '" TC_MATCH_X("2", "0") "'", o, n);
}

/*
 * xt_bpf runs the program on the IP header: "ldb [28]; jeq #'X'; ret #1;
 * ret #0" matches the UDP datagrams whose payload starts with 'X'.
 * iptables-legacy, because the nft backend needs nf_tables and nft_compat
 * for a match that is xt_bpf all the same; the legacy table replacement
 * compiles the program once per rule it holds.
 */
#define XT_RULE "INPUT -i lo -p udp --dport %u -m bpf --bytecode '4,48 0 0 28,21 0 1 88,6 0 0 1,6 0 0 0' -j DROP"

static void case_xt_bpf(char *o, size_t n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	unsigned int port;
	int s = udp_bound(&a, 0);

	if (s < 0) {
		out(o, n, "socket: %s", strerror(errno));
		return;
	}
	port = ntohs(a.sin_port);
	if (!command(o, n, "iptables-legacy -w -A " XT_RULE, port)) {
		udp_exchange(s, &a, o, n);
		command(o, n, "iptables-legacy -w -D " XT_RULE, port);
	} else {
		close(s);
	}
}

static const struct {
	const char *name, *want;
	int programs;	/* compiled with the switch on */
	void (*run)(char *o, size_t n);
} cases[] = {
	{ "udp: SO_ATTACH_FILTER drops one datagram, trims the other to the returned length",
	  "attach 0 [abcde]", 1, case_udp },
	{ "tcp: SO_ATTACH_FILTER on the listener, the accepted socket receives intact",
	  "attach 0 connected, got [hello tcp]", 1, case_tcp },
	{ "tcp: ret #0 on the listener, the handshake never completes",
	  "attach 0 not connected", 1, case_tcp_drop },
	{ "SO_GET_FILTER returns the program as attached",
	  "4 instructions, as attached", 1, case_get },
	/* The locked socket refuses the new program before compiling it. */
	{ "SO_LOCK_FILTER: detach and replace refused, the filter still runs",
	  "lock 0 detach EPERM attach EPERM [abcde]", 1, case_lock },
	{ "SO_DETACH_FILTER: then nothing is filtered, a second detach fails",
	  "detach 0 again ENOENT [Xdropped][abcdefghij]", 1, case_detach },
	{ "switch flipped twice with a filter attached: it filters as before, its image is freed on close",
	  "attach 0 [abcde] image memory back", 1, case_toggle },
	{ "PACKET_FANOUT_CBPF: the program picks the socket",
	  "join 0 join 0 data 0 socket 0: 0246 socket 1: 1357 ", 1, case_fanout },
	{ "SO_ATTACH_REUSEPORT_CBPF: the program picks the socket",
	  "attach 0 socket 0: [0][2][4][6] socket 1: [1][3][5][7] ", 1, case_reuseport },
	{ "cls_bpf (tc bpf bytecode): the classifier picks what is dropped",
	  "arrived: abc", 2, case_cls_bpf },
	{ "act_bpf (tc action bpf bytecode): the action drops what it picks",
	  "arrived: abc", 2, case_act_bpf },
	{ "xt_bpf (iptables -m bpf): the match picks what the rule drops",
	  "[abcdefghij]", 1, case_xt_bpf },
};

int main(int argc, char **argv)
{
	char saved[16];

	if (argc != 3) {
		fprintf(stderr, "usage: cbpf-users-check TX_IF RX_IF\n");
		return 2;
	}
	tx_if = argv[1];
	rx_if = argv[2];
	if (!if_nametoindex(tx_if) || !if_nametoindex(rx_if) ||
	    sysctl_read("bpf_jit_classic", saved, sizeof(saved))) {
		fprintf(stderr, "cbpf-users-check: %s, %s or the switch: %s\n", tx_if, rx_if,
			strerror(errno));
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		for (int on = 0; on <= 1; on++) {
			char o[512] = "", name[200];
			long c0, dc;

			if (sysctl_write("bpf_jit_classic", on ? "1" : "0")) {
				fprintf(stderr, "cbpf-users-check: setting the switch: %s\n",
					strerror(errno));
				return 2;
			}
			c0 = stat_get("compiled");
			cases[i].run(o, sizeof(o));
			dc = stat_get("compiled") - c0;
			snprintf(name, sizeof(name), "%s, switch %s", cases[i].name,
				 on ? "on" : "off (upstream)");
			record_control = !on;
			record(name, c0 >= 0 && !strcmp(o, cases[i].want) &&
			       dc == (on ? cases[i].programs : 0),
			       "%s (want %s); direct JIT compiled +%ld (want %d)", o, cases[i].want,
			       dc, on ? cases[i].programs : 0);
		}
	}
	record_control = 0;
	sysctl_write("bpf_jit_classic", saved);
	return failures ? 1 : 0;
}
