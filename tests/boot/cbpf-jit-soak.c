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
 * end).  Records, "name<TAB>pass|fail<TAB>detail", on standard output:
 * frames sent per second, filters attached, frames checked, mismatches.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SWITCH		"/proc/sys/net/core/bpf_jit_classic"
#define FRAME_LEN	128
#define MAX_WORKERS	16
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define INSN(c, t, f, k)	((struct sock_filter){ (c), (t), (f), (k) })

/* Counters shared by the processes (an anonymous shared mapping). */
struct shared {
	volatile int stop;
	unsigned long sent, send_errors, toggles;
	struct {
		unsigned long attached, attach_errors, frames, mismatches;
		char first_mismatch[160];
	} w[MAX_WORKERS];
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

/* Ethernet + IPv4 + UDP, UDP destination port = seq, source port = ~seq. */
static void make_frame(unsigned char *f, uint16_t seq)
{
	memset(f, 0, FRAME_LEN);
	memset(f, 0xff, 6);					/* broadcast */
	memcpy(f + 6, "\x02\x00\x00\x00\x00\x01", 6);
	f[12] = 0x08;						/* IPv4 */
	f[14] = 0x45;
	f[16] = 0;
	f[17] = FRAME_LEN - 14;
	f[22] = 64;
	f[23] = 17;						/* UDP */
	memcpy(f + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	f[34] = (uint16_t)~seq >> 8;
	f[35] = (uint8_t)~seq;
	f[36] = seq >> 8;
	f[37] = seq;
	f[38] = 0;
	f[39] = FRAME_LEN - 34;
	for (int i = 42; i < FRAME_LEN; i++)
		f[i] = seq + i;
}

static void sender(int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex,
				   .sll_halen = 6 };
	unsigned char f[FRAME_LEN];
	uint16_t seq = 0;
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd < 0)
		exit(2);
	while (!sh->stop) {
		make_frame(f, seq++);
		if (sendto(fd, f, sizeof(f), 0, (struct sockaddr *)&sll, sizeof(sll)) == sizeof(f))
			__atomic_add_fetch(&sh->sent, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&sh->send_errors, 1, __ATOMIC_RELAXED);
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
 * The filters, with what they must let through: accept(port) is the
 * number of bytes a frame with that destination port is delivered with
 * (0: dropped).  Each is a different shape: packet loads, ALU, scratch
 * memory, an ancillary load, X-indexed loads.
 */
struct soak_filter {
	const char *name;
	struct sock_filter insns[12];
	unsigned short len;
	unsigned int param_mask;	/* P: a random number & param_mask */
	unsigned int (*accept)(uint16_t port, unsigned int param);
};

static unsigned int acc_low3(uint16_t port, unsigned int p) { return (port & 7) == p ? 0xffff : 0; }
static unsigned int acc_trim(uint16_t port, unsigned int p) { (void)p; return 42 + (port & 31); }
static unsigned int acc_proto(uint16_t port, unsigned int p) { return (port & 1) == p ? 64 : 0; }
static unsigned int acc_ind(uint16_t port, unsigned int p) { return (uint8_t)~port == p ? 0xffff : 0; }

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
};

static void worker(int id, int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = ifindex };
	unsigned char buf[2048];
	unsigned int seed = 0x9e3779b9u * (id + 1);

	while (!sh->stop) {
		const struct soak_filter *f = &filters[rand_r(&seed) % ARRAY_SIZE(filters)];
		struct sock_filter insns[12];
		struct sock_fprog prog = { .len = f->len, .filter = insns };
		unsigned int param = rand_r(&seed) & f->param_mask;
		double until = now() + 0.005 * (rand_r(&seed) % 4);
		int fd;

		memcpy(insns, f->insns, sizeof(insns));
		for (int i = 0; i < f->len; i++)	/* the "P" operands */
			if (BPF_CLASS(insns[i].code) == BPF_JMP && insns[i].k == 0)
				insns[i].k = param;
		/* Protocol 0: nothing is delivered before bind(). */
		fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
		    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
			sh->w[id].attach_errors++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		sh->w[id].attached++;
		do {
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
			uint16_t port;
			unsigned int want;

			if (n < 0)
				continue;
			if (n < 12 || memcmp(buf + 6, "\x02\x00\x00\x00\x00\x01", 6))
				continue;	/* not the sender's (not on our veth) */
			if (n < 38) {
				want = 0;
				port = 0;
			} else {
				port = buf[36] << 8 | buf[37];
				want = f->accept(port, param);
				if (want > FRAME_LEN)
					want = FRAME_LEN;
			}
			sh->w[id].frames++;
			if ((unsigned int)n != want && !sh->w[id].mismatches++)
				snprintf(sh->w[id].first_mismatch, sizeof(sh->w[id].first_mismatch),
					 "filter \"%s\" P=%u: port %u delivered %zd bytes, want %u",
					 f->name, param, port, n, want);
		} while (now() < until && !sh->stop);
		close(fd);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	int seconds = 60, workers = 3, txif, rxif, status, argi = 1;
	unsigned long attached = 0, errors = 0, frames = 0, mismatches = 0;
	const char *first = "";
	pid_t pids[MAX_WORKERS + 2];
	int npids = 0;
	char saved[8] = "1";
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
	for (int i = 0; i < workers + 2; i++) {
		pid_t p = fork();

		if (p < 0)
			return 2;
		if (!p) {
			if (i == 0)
				sender(txif);
			else if (i == 1)
				toggler();
			else
				worker(i - 2, rxif);
		}
		pids[npids++] = p;
	}
	for (int s = 0; s < seconds; s++) {
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

	for (int i = 0; i < workers; i++) {
		attached += sh->w[i].attached;
		errors += sh->w[i].attach_errors;
		frames += sh->w[i].frames;
		mismatches += sh->w[i].mismatches;
		if (!*first && sh->w[i].mismatches)
			first = sh->w[i].first_mismatch;
	}
	printf("traffic through the veth pair\t%s\t%.0f frames/s sent for %.0f s (%lu frames, %lu send errors)\n",
	       sh->sent ? "pass" : "fail", sh->sent / elapsed, elapsed, sh->sent, sh->send_errors);
	printf("filters attached and detached\t%s\t%lu by %d processes (%.0f/s), %lu attach errors, switch toggled %lu times\n",
	       attached && !errors ? "pass" : "fail", attached, workers, attached / elapsed, errors, sh->toggles);
	printf("every delivered frame is one its filter accepts\t%s\t%lu frames checked, %lu mismatches%s%s\n",
	       frames && !mismatches ? "pass" : "fail", frames, mismatches, *first ? ": " : "", first);
	return !(sh->sent && attached && !errors && frames && !mismatches);
}
