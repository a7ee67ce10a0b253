// SPDX-License-Identifier: GPL-2.0
/*
 * bench-report: the host half of `make bench` (tests/bench/README.bench.md).
 *
 *   bench-report -u UNIT -a ACCEL -f FILTERS.list -x OFFLINE.txt -o OUTDIR
 *		  RESULTS-1 [RESULTS-2]
 *
 * Reads what the guest wrote (guest-init.sh, cbpf-bench.c: RESULTS format)
 * and writes OUTDIR/bench.json, bench.txt (tables), bench.md (the same for
 * README.bench.md), bench.dat and bench.gp (gnuplot -> bench.png).
 * With a second run, the largest relative difference between the two runs'
 * instruction counts is reported (determinism).
 *
 * Definitions (also in README.bench.md):
 *   gross(mode, filter) = sum over packets of min-over-repeats(total_ns)
 *			   / (iterations * packets)
 *   overhead(mode)      = gross(mode, `ret #0`)
 *   net(mode, filter)   = gross(mode, filter) - overhead(mode)
 * Ratios are geometric means over the filter corpus.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXF 512
#define MAXP 64
#define MAXT 1024
#define MAXSUB 8
#define NM 3
#define MAXG 8

static const char *const mname[NM] = { "interp", "upstream", "direct" };
static const char *const mlabel[NM] = { "interpreter", "upstream (cBPF->eBPF->JIT)",
					"direct cBPF JIT" };

/*
 * The targets, direct / conversion path in the same boot: geomean and
 * worst program of the packet filters (the headline), of the big rule
 * sets' group, and of the seccomp profiles.  Every report and the plot
 * take them from here.
 */
static const double t_net = 0.40, t_net_max = 0.90, t_bytes = 0.60, t_bytes_max = 0.85,
		    t_compile = 0.50, t_compile_max = 0.90, t_big = 0.30, t_seccomp = 0.30,
		    t_seccomp_max = 0.80;

struct fres {
	int have;
	int err;
	unsigned int jited, jited_len, flags, iter;
	unsigned long long compile_ns;
	long compiled;
	int npk, matched;
	unsigned long long total[MAXP];
	unsigned int ret[MAXP];
};

struct tres {
	int have, jited, nsub;
	double ns[MAXSUB];
	char status[32];
};

struct run {
	struct fres f[NM][MAXF];	/* index = filter id (0 = ret #0) */
	int mode_avail[NM];
	char mode_why[NM][128];
	int tb_avail[NM];
	struct tres t[NM][MAXT];
	char *tdesc[MAXT];
	char summary[NM][128];
	int sum[NM][4], nsum[NM];
	long stat_before[NM], stat_after[NM];	/* test_bpf `compiled` */
	char *meta[64];
	int nmeta;
	char *pktname[MAXP];
	unsigned int pktlen[MAXP], pkthead[MAXP];
	int npkts;
	char *dmesg[32];
	int ndmesg;
	int ended;
};

static struct run runs[2];
static int nruns;
static char *fexpr[MAXF];
static int finsns[MAXF];
/* Corpus groups (run-bench: offline, live, select, xt_bpf, cls_bpf,
 * seccomp), in the order they first appear; fgroup[id] indexes gname.  A
 * group listed as "overhead:GROUP" is the harness program of GROUP: its cost
 * is subtracted from GROUP's programs instead of ret #0's (fbase), the group
 * is reported apart from the corpus (gapart), and the program itself has
 * fgroup -1.
 */
static char *gname[MAXG];
static int ngroup;
static int fgroup[MAXF];
static int fbase[MAXF];
static int gbase[MAXG];		/* the group's harness program, 0: ret #0 */
static int gapart[MAXG];
static int nfilt;	/* highest id */
static int offline[MAXF];

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("bench-report: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static int mode_idx(const char *s)
{
	int m;

	for (m = 0; m < NM; m++)
		if (!strcmp(s, mname[m]))
			return m;
	return -1;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = 0;
}

static void parse_tb(struct run *r, int m, char *s)
{
	char *p, *q, *j;
	struct tres *t;
	int id;

	if (!strncmp(s, "Summary:", 8)) {
		int v[4];

		/* one per insmod (test range): add them up */
		if (sscanf(s, "Summary: %d PASSED, %d FAILED, [%d/%d", &v[0],
			   &v[1], &v[2], &v[3]) == 4) {
			for (id = 0; id < 4; id++)
				r->sum[m][id] += v[id];
			snprintf(r->summary[m], sizeof(r->summary[m]),
				 "%d PASSED, %d FAILED, [%d/%d JIT'ed] (%d test ranges)",
				 r->sum[m][0], r->sum[m][1], r->sum[m][2],
				 r->sum[m][3], ++r->nsum[m]);
		}
		return;
	}
	if (s[0] != '#')
		return;
	id = strtol(s + 1, &p, 10);
	if (id < 0 || id >= MAXT || *p != ' ')
		return;
	t = &r->t[m][id];
	t->have = 1;
	j = strstr(p, " jited:");
	if (!j) {
		/* "#N descr PASS" (an expected rejection) */
		q = strrchr(p, ' ');
		snprintf(t->status, sizeof(t->status), "%s", q ? q + 1 : p);
		t->jited = -1;
		if (q)
			*q = 0;
		if (!r->tdesc[id])
			r->tdesc[id] = strdup(p + 1);
		return;
	}
	*j = 0;
	if (!r->tdesc[id])
		r->tdesc[id] = strdup(p + 1);
	p = j + 7;
	t->jited = strtol(p, &p, 10);
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		if (t->nsub < MAXSUB)
			t->ns[t->nsub++] = strtod(p, &p);
		else
			strtod(p, &p);
	}
	snprintf(t->status, sizeof(t->status), "%s", *p ? p : "?");
}

static void read_results(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *s;
	size_t cap = 0;

	if (!f)
		die("%s: cannot open", path);
	for (int m = 0; m < NM; m++)
		r->stat_before[m] = r->stat_after[m] = -1;
	while (getline(&line, &cap, f) > 0) {
		char a[64], b[64], c[64];
		int m, n, id;

		chomp(line);
		if (!strncmp(line, "meta ", 5)) {
			if (r->nmeta < 64)
				r->meta[r->nmeta++] = strdup(line + 5);
		} else if (sscanf(line, "pkt %d %*u %*u %n", &id, &n) == 1 &&
			   id >= 0 && id < MAXP) {
			sscanf(line, "pkt %*d %u %u", &r->pktlen[id],
			       &r->pkthead[id]);
			r->pktname[id] = strdup(line + n);
			if (id + 1 > r->npkts)
				r->npkts = id + 1;
		} else if (sscanf(line, "mode %63s %d %n", a, &id, &n) == 2 &&
			   (m = mode_idx(a)) >= 0) {
			r->mode_avail[m] = id;
			snprintf(r->mode_why[m], sizeof(r->mode_why[m]), "%s",
				 line + n);
		} else if (sscanf(line, "tbmode %63s %d", a, &id) == 2 &&
			   (m = mode_idx(a)) >= 0) {
			r->tb_avail[m] = id;
		} else if (sscanf(line, "tb %63s %n", a, &n) == 1 &&
			   (m = mode_idx(a)) >= 0) {
			parse_tb(r, m, line + n);
		} else if (sscanf(line, "stat tb-%63s %63s %63s %d", a, b, c, &id) == 4 &&
			   (m = mode_idx(a)) >= 0 && !strcmp(c, "compiled")) {
			if (!strcmp(b, "before"))
				r->stat_before[m] = id;
			else
				r->stat_after[m] = id;
		} else if (!strncmp(line, "f ", 2)) {
			struct fres x = { 0 };
			int i;

			s = line + 2;
			if (sscanf(s, "%63s %d %d %u %u %llu %ld %u %d %d %u%n",
				   a, &id, &x.err, &x.jited, &x.jited_len,
				   &x.compile_ns, &x.compiled, &x.iter, &x.npk,
				   &x.matched, &x.flags, &n) != 11 ||
			    (m = mode_idx(a)) < 0 || id < 0 || id >= MAXF ||
			    x.npk > MAXP)
				die("%s: bad line: %.60s", path, line);
			s += n;
			for (i = 0; i < x.npk; i++)
				x.total[i] = strtoull(s, &s, 10),
				x.ret[i] = strtoul(s, &s, 10);
			x.have = 1;
			r->f[m][id] = x;
		} else if (!strncmp(line, "dmesg ", 6)) {
			if (r->ndmesg < 32)
				r->dmesg[r->ndmesg++] = strdup(line + 6);
		} else if (!strcmp(line, "end")) {
			r->ended = 1;
		}
	}
	free(line);
	fclose(f);
	if (!r->ended)
		die("%s: no end line (the guest runner did not finish)", path);
}

static void read_filters(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("%s: cannot open", path);
	while (getline(&line, &cap, f) > 0) {
		int id, n, used, g, over;
		char grp[32], *gn;

		chomp(line);
		if (sscanf(line, "%d\t%d\t%31[^\t]\t%n", &id, &n, grp, &used) != 3 ||
		    id < 1 || id >= MAXF)
			continue;
		over = !strncmp(grp, "overhead:", 9);
		gn = over ? grp + 9 : grp;
		for (g = 0; g < ngroup && strcmp(gname[g], gn); g++)
			;
		if (g == ngroup) {
			if (ngroup == MAXG)
				die("%s: more than %d groups", path, MAXG);
			gname[ngroup++] = strdup(gn);
		}
		if (over) {
			gbase[g] = id;
			gapart[g] = 1;
		}
		fgroup[id] = over ? -1 : g;
		fexpr[id] = strdup(line + used);
		finsns[id] = n;
		if (id > nfilt)
			nfilt = id;
	}
	free(line);
	fclose(f);
	for (int id = 1; id <= nfilt; id++)
		fbase[id] = fgroup[id] >= 0 ? gbase[fgroup[id]] : 0;
}

static void read_offline(const char *path)
{
	FILE *f = fopen(path, "r");
	int id, c;

	for (id = 0; id < MAXF; id++)
		offline[id] = -1;
	if (!f)
		return;
	while (fscanf(f, "%d %d", &id, &c) == 2)
		if (id >= 0 && id < MAXF)
			offline[id] = c;
	fclose(f);
}

/* ---- numbers ---- */

static double gross(const struct run *r, int m, int id)
{
	const struct fres *x = &r->f[m][id];
	double s = 0;

	if (!x->have || x->err || !x->npk)
		return NAN;
	for (int i = 0; i < x->npk; i++)
		s += x->total[i];
	return s / ((double)x->iter * x->npk);
}

static double overhead(const struct run *r, int m)
{
	return gross(r, m, 0);
}

/* the program's own cost: its mode's harness program subtracted */
static double net(const struct run *r, int m, int id)
{
	return gross(r, m, id) - gross(r, m, fbase[id]);
}

/*
 * The net cost in a ratio: at least one instruction.  A program whose
 * work its mode's harness program covers ("ld cpu; ret a" is as long as
 * "ret #0" in a direct image) measures 0 and would drop out of the
 * geometric means; counted as 1 it stays in them, at no better than one
 * instruction.  NaN (not measured) stays NaN.
 */
static double net1(const struct run *r, int m, int id)
{
	double v = net(r, m, id);

	return v < 1 ? 1 : v;
}

/* Geometric mean of ratios, and the largest ratio: filter id, or test_bpf #id (tb). */
struct gm {
	double sum, max;
	int n, bad, max_id, max_tb;
};

static void gm_add(struct gm *g, double num, double den, int id, int tb)
{
	if (isnan(num) || isnan(den))
		return;
	if (num <= 0 || den <= 0) {
		g->bad++;
		return;
	}
	if (!g->n || num / den > g->max) {
		g->max = num / den;
		g->max_id = id;
		g->max_tb = tb;
	}
	g->sum += log(num / den);
	g->n++;
}

/* Both means over filters and test_bpf tests together. */
static void gm_merge(struct gm *g, const struct gm *a)
{
	if (a->n && (!g->n || a->max > g->max)) {
		g->max = a->max;
		g->max_id = a->max_id;
		g->max_tb = a->max_tb;
	}
	g->sum += a->sum;
	g->n += a->n;
	g->bad += a->bad;
}

static double gm_val(const struct gm *g)
{
	return g->n ? exp(g->sum / g->n) : NAN;
}

static const char *gm_where(char *buf, size_t n, const struct gm *g)
{
	if (!g->n)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, g->max_tb ? "test_bpf #%d" : "filter %d", g->max_id);
	return buf;
}

/* how the direct mode compiled filter id: 1 direct JIT, 0 fell back */
static int direct_jit(const struct run *r, int id)
{
	const struct fres *x = &r->f[2][id];

	return x->have && x->jited && x->compiled > 0;
}

/* packets matched (ret != 0) in the first mode that ran filter id */
static int matched_any(const struct run *r, int id)
{
	for (int m = 0; m < NM; m++)
		if (r->f[m][id].have && !r->f[m][id].err)
			return r->f[m][id].matched;
	return -1;
}

/* packets (or seccomp_data) filter id ran on, in the first mode that ran it */
static int runs_of(const struct run *r, int id)
{
	for (int m = 0; m < NM; m++)
		if (r->f[m][id].have && !r->f[m][id].err)
			return r->f[m][id].npk;
	return r->npkts;
}

static double tb_sum(const struct tres *t)
{
	double s = 0;

	for (int i = 0; i < t->nsub; i++)
		s += t->ns[i];
	return s;
}

static double reldiff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));

	return m > 0 ? fabs(a - b) / m : 0;
}

/* ---- output helpers ---- */

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void jnum(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static FILE *xopen(const char *dir, const char *name)
{
	char *p;
	FILE *f;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		die("out of memory");
	f = fopen(p, "w");
	if (!f)
		die("%s: cannot write", p);
	free(p);
	return f;
}

static const char *fmtd(char *buf, double v, int prec)
{
	if (isnan(v))
		return "-";
	sprintf(buf, "%.*f", prec, v);
	return buf;
}

int main(int argc, char **argv)
{
	const char *unit = "instructions", *accel = "tcg", *flist = NULL;
	const char *offp = NULL, *outdir = "out/bench";
	struct run *r;
	struct gm g_net_du = { 0 }, g_net_di = { 0 }, g_net_ui = { 0 };
	struct gm g_gr_du = { 0 }, g_gr_di = { 0 }, g_img = { 0 }, g_cmp = { 0 };
	struct gm g_tb_du = { 0 }, g_tb_di = { 0 }, g_tb_ui = { 0 }, g_all_net = { 0 };
	char w1[48], w2[48], w3[48];
	double det_ipp = 0, det_pkt = 0, det_tb = 0, det_cmp = 0;
	int det_ipp_id = -1, det_ipp_m = -1, det_tb_id = -1, det_tb_m = -1;
	struct gm gg_net[MAXG] = { 0 }, gg_img[MAXG] = { 0 }, gg_cmp[MAXG] = { 0 };
	struct gm gg_di[MAXG] = { 0 };
	int mism = 0, offmis = 0, fallback = 0, nrandom = 0, nfloored = 0, opt, id, m, g, i;
	double tb_tot[NM] = { 0 }, rmin, rmax;
	int tb_n = 0;
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], b8[32], b9[32];
	FILE *j, *t, *md, *dat, *gp, *sum;

	while ((opt = getopt(argc, argv, "u:a:f:x:o:")) != -1) {
		switch (opt) {
		case 'u': unit = optarg; break;
		case 'a': accel = optarg; break;
		case 'f': flist = optarg; break;
		case 'x': offp = optarg; break;
		case 'o': outdir = optarg; break;
		default: die("usage: see the source");
		}
	}
	if (!flist || argc - optind < 1 || argc - optind > 2)
		die("usage: bench-report -u UNIT -a ACCEL -f LIST -x OFFLINE -o DIR RES1 [RES2]");
	read_filters(flist);
	read_offline(offp ? offp : "/nonexistent");
	for (nruns = 0; optind < argc; optind++, nruns++)
		read_results(&runs[nruns], argv[optind]);
	r = &runs[0];

	/* per-filter checks and ratios */
	for (id = 1; id <= nfilt; id++) {
		int ref = -1;

		if (fgroup[id] < 0)
			continue;
		for (m = 0; m < NM; m++) {
			const struct fres *x = &r->f[m][id];

			if (!x->have || x->err)
				continue;
			if (ref < 0) {
				ref = m;
				/* The reference (the interpreter) itself returned
				 * different values across iterations: a program
				 * that returns random numbers (ld rand), whose
				 * results cannot be compared between modes.
				 */
				if (x->flags & 1) {
					nrandom++;
					break;
				}
				continue;
			}
			for (i = 0; i < x->npk; i++)
				if (x->ret[i] != r->f[ref][id].ret[i]) {
					mism++;
					break;
				}
		}
		for (m = 0; m < NM; m++)
			if (r->f[m][id].have && !r->f[m][id].err &&
			    offline[id] >= 0 && r->f[m][id].matched != offline[id]) {
				offmis++;
				break;
			}
		if (r->mode_avail[2] && !direct_jit(r, id))
			fallback++;
		g = fgroup[id];
		for (m = 0; m < NM; m++)
			if (net(r, m, id) < 1) {
				nfloored++;
				break;
			}
		gm_add(&gg_net[g], net1(r, 2, id), net1(r, 1, id), id, 0);
		gm_add(&gg_di[g], net1(r, 2, id), net1(r, 0, id), id, 0);
		if (r->f[2][id].have && r->f[1][id].have) {
			gm_add(&gg_img[g], r->f[2][id].jited_len, r->f[1][id].jited_len, id, 0);
			gm_add(&gg_cmp[g], r->f[2][id].compile_ns, r->f[1][id].compile_ns, id, 0);
		}
		/* a group with its own harness is not part of the corpus */
		if (gapart[g])
			continue;
		gm_add(&g_net_du, net1(r, 2, id), net1(r, 1, id), id, 0);
		gm_add(&g_net_di, net1(r, 2, id), net1(r, 0, id), id, 0);
		gm_add(&g_net_ui, net1(r, 1, id), net1(r, 0, id), id, 0);
		gm_add(&g_gr_du, gross(r, 2, id), gross(r, 1, id), id, 0);
		gm_add(&g_gr_di, gross(r, 2, id), gross(r, 0, id), id, 0);
		if (r->f[2][id].have && r->f[1][id].have)
			gm_add(&g_img, r->f[2][id].jited_len, r->f[1][id].jited_len, id, 0);
		if (r->f[2][id].have && r->f[1][id].have)
			gm_add(&g_cmp, r->f[2][id].compile_ns, r->f[1][id].compile_ns, id, 0);
	}
	/* test_bpf: tests timed in every available mode with equal subtests */
	for (id = 0; id < MAXT; id++) {
		int ok = 1, any = 0;

		for (m = 0; m < NM; m++) {
			if (!r->tb_avail[m])
				continue;
			any = 1;
			if (!r->t[m][id].have || !r->t[m][id].nsub ||
			    r->t[m][id].nsub != r->t[0][id].nsub)
				ok = 0;
		}
		if (!any || !ok)
			continue;
		tb_n++;
		for (m = 0; m < NM; m++)
			if (r->tb_avail[m])
				tb_tot[m] += tb_sum(&r->t[m][id]);
		if (r->tb_avail[2])
			gm_add(&g_tb_du, tb_sum(&r->t[2][id]), tb_sum(&r->t[1][id]), id, 1);
		if (r->tb_avail[2])
			gm_add(&g_tb_di, tb_sum(&r->t[2][id]), tb_sum(&r->t[0][id]), id, 1);
		gm_add(&g_tb_ui, tb_sum(&r->t[1][id]), tb_sum(&r->t[0][id]), id, 1);
	}
	/*
	 * The headline: the packet filters users run, per packet.  lib/test_bpf
	 * is a conformance suite, not a workload: reported apart, as seccomp is.
	 */
	gm_merge(&g_all_net, &g_net_du);
	gm_where(w1, sizeof(w1), &g_all_net);
	gm_where(w2, sizeof(w2), &g_img);
	gm_where(w3, sizeof(w3), &g_cmp);

	/* determinism */
	if (nruns == 2) {
		struct run *q = &runs[1];

		for (m = 0; m < NM; m++) {
			for (id = 0; id <= nfilt; id++) {
				const struct fres *x = &r->f[m][id], *y = &q->f[m][id];
				double d;

				if (!x->have || !y->have || x->err || y->err)
					continue;
				d = reldiff(gross(r, m, id), gross(q, m, id));
				if (d > det_ipp) {
					det_ipp = d;
					det_ipp_id = id;
					det_ipp_m = m;
				}
				for (i = 0; i < x->npk && i < y->npk; i++)
					det_pkt = fmax(det_pkt, reldiff(x->total[i], y->total[i]));
				det_cmp = fmax(det_cmp, reldiff(x->compile_ns, y->compile_ns));
			}
			for (id = 0; id < MAXT; id++) {
				const struct tres *x = &r->t[m][id], *y = &q->t[m][id];
				double d;

				if (!x->nsub || x->nsub != y->nsub)
					continue;
				for (i = 0; i < x->nsub; i++) {
					d = reldiff(x->ns[i], y->ns[i]);
					if (d > det_tb) {
						det_tb = d;
						det_tb_id = id;
						det_tb_m = m;
					}
				}
			}
		}
	}

	/* ---- bench.json ---- */
	j = xopen(outdir, "bench.json");
	fprintf(j, "{\n  \"unit\": ");
	jstr(j, unit);
	fprintf(j, ",\n  \"accel\": ");
	jstr(j, accel);
	fprintf(j, ",\n  \"runs\": %d,\n  \"meta\": {", nruns);
	for (i = 0; i < r->nmeta; i++) {
		char *k = strdup(r->meta[i]), *v = strchr(k, ' ');

		if (v)
			*v++ = 0;
		fprintf(j, "%s\n    ", i ? "," : "");
		jstr(j, k);
		fputs(": ", j);
		jstr(j, v ? v : "");
		free(k);
	}
	fprintf(j, "\n  },\n  \"modes\": {");
	for (m = 0; m < NM; m++) {
		fprintf(j, "%s\n    \"%s\": {\"available\": %s, \"note\": ", m ? "," : "",
			mname[m], r->mode_avail[m] ? "true" : "false");
		jstr(j, r->mode_why[m]);
		fprintf(j, ", \"overhead_per_packet\": ");
		jnum(j, overhead(r, m));
		fputs("}", j);
	}
	fprintf(j, "\n  },\n  \"packets\": [");
	for (i = 0; i < r->npkts; i++) {
		fprintf(j, "%s\n    {\"len\": %u, \"headlen\": %u, \"name\": ",
			i ? "," : "", r->pktlen[i], r->pkthead[i]);
		jstr(j, r->pktname[i]);
		fputs("}", j);
	}
	fprintf(j, "\n  ],\n  \"summary\": {\n");
	fprintf(j, "    \"filters\": %d,\n    \"geomean_net_direct_over_upstream\": ", nfilt);
	jnum(j, gm_val(&g_net_du));
	fprintf(j, ",\n    \"geomean_net_direct_over_interp\": ");
	jnum(j, gm_val(&g_net_di));
	fprintf(j, ",\n    \"geomean_net_upstream_over_interp\": ");
	jnum(j, gm_val(&g_net_ui));
	fprintf(j, ",\n    \"geomean_gross_direct_over_upstream\": ");
	jnum(j, gm_val(&g_gr_du));
	fprintf(j, ",\n    \"geomean_gross_direct_over_interp\": ");
	jnum(j, gm_val(&g_gr_di));
	fprintf(j, ",\n    \"geomean_image_bytes_direct_over_upstream\": ");
	jnum(j, gm_val(&g_img));
	fprintf(j, ",\n    \"geomean_compile_direct_over_upstream\": ");
	jnum(j, gm_val(&g_cmp));
	fprintf(j, ",\n    \"targets\": {\"net_geomean\": %.2f, \"net_max\": %.2f, "
		"\"bytes_geomean\": %.2f, \"bytes_max\": %.2f, \"compile_geomean\": %.2f, "
		"\"compile_max\": %.2f, \"big_net_geomean\": %.2f, \"seccomp_net_geomean\": %.2f, "
		"\"seccomp_net_max\": %.2f},\n", t_net, t_net_max, t_bytes, t_bytes_max, t_compile,
		t_compile_max, t_big, t_seccomp, t_seccomp_max);
	fprintf(j, "    \"corpus\": {\"net_geomean\": ");
	jnum(j, gm_val(&g_all_net));
	fprintf(j, ", \"net_max\": ");
	jnum(j, g_all_net.n ? g_all_net.max : NAN);
	fprintf(j, ", \"net_max_at\": \"%s\", \"net_programs\": %d, \"bytes_geomean\": ",
		w1, g_all_net.n);
	jnum(j, gm_val(&g_img));
	fprintf(j, ", \"bytes_max\": ");
	jnum(j, g_img.n ? g_img.max : NAN);
	fprintf(j, ", \"bytes_max_at\": \"%s\", \"compile_geomean\": ", w2);
	jnum(j, gm_val(&g_cmp));
	fprintf(j, ", \"compile_max\": ");
	jnum(j, g_cmp.n ? g_cmp.max : NAN);
	fprintf(j, ", \"compile_max_at\": \"%s\"},\n", w3);
	fprintf(j, "    \"groups\": [");
	for (g = 0; g <= ngroup; g++) {
		/* the corpus groups, then lib/test_bpf (net only) */
		const struct gm *gn = g < ngroup ? &gg_net[g] : &g_tb_du;
		char gw[48];

		fprintf(j, "%s\n      {\"group\": \"%s\", \"programs\": %d, \"net_geomean\": ",
			g ? "," : "", g < ngroup ? gname[g] : "test_bpf", gn->n);
		jnum(j, gm_val(gn));
		fprintf(j, ", \"net_max\": ");
		jnum(j, gn->n ? gn->max : NAN);
		fprintf(j, ", \"net_max_at\": \"%s\"", gm_where(gw, sizeof(gw), gn));
		if (g < ngroup) {
			fprintf(j, ", \"apart_from_corpus\": %s, \"net_direct_over_interp\": ",
				gapart[g] ? "true" : "false");
			jnum(j, gm_val(&gg_di[g]));
			fprintf(j, ", \"harness_gross\": {");
			for (m = 0; m < NM; m++) {
				fprintf(j, "%s\"%s\": ", m ? ", " : "", mname[m]);
				jnum(j, gross(r, m, gbase[g]));
			}
			fprintf(j, "}");
			fprintf(j, ", \"bytes_geomean\": ");
			jnum(j, gm_val(&gg_img[g]));
			fprintf(j, ", \"bytes_max\": ");
			jnum(j, gg_img[g].n ? gg_img[g].max : NAN);
			fprintf(j, ", \"bytes_max_at\": \"%s\", \"compile_geomean\": ",
				gm_where(gw, sizeof(gw), &gg_img[g]));
			jnum(j, gm_val(&gg_cmp[g]));
			fprintf(j, ", \"compile_max\": ");
			jnum(j, gg_cmp[g].n ? gg_cmp[g].max : NAN);
			fprintf(j, ", \"compile_max_at\": \"%s\"",
				gm_where(gw, sizeof(gw), &gg_cmp[g]));
		}
		fputs("}", j);
	}
	fprintf(j, "\n    ],\n");
	fprintf(j, "    \"nonpositive_net_excluded\": %d,\n", g_net_du.bad + g_net_di.bad);
	fprintf(j, "    \"net_below_one_counted_as_one\": %d,\n", nfloored);
	fprintf(j, "    \"random_results_not_compared\": %d,\n", nrandom);
	fprintf(j, "    \"result_mismatches_between_modes\": %d,\n", mism);
	fprintf(j, "    \"match_count_differs_from_libpcap_offline\": %d,\n", offmis);
	fprintf(j, "    \"direct_mode_not_compiled_by_direct_jit\": %d,\n", fallback);
	fprintf(j, "    \"test_bpf_timed_tests\": %d,\n    \"test_bpf_total\": {", tb_n);
	for (m = 0; m < NM; m++) {
		fprintf(j, "%s\"%s\": ", m ? ", " : "", mname[m]);
		jnum(j, r->tb_avail[m] ? tb_tot[m] : NAN);
	}
	fprintf(j, "},\n    \"test_bpf_geomean_direct_over_upstream\": ");
	jnum(j, gm_val(&g_tb_du));
	fprintf(j, ",\n    \"test_bpf_geomean_direct_over_interp\": ");
	jnum(j, gm_val(&g_tb_di));
	fprintf(j, ",\n    \"test_bpf_geomean_upstream_over_interp\": ");
	jnum(j, gm_val(&g_tb_ui));
	fprintf(j, ",\n    \"test_bpf_summary\": {");
	for (m = 0; m < NM; m++) {
		fprintf(j, "%s\"%s\": ", m ? ", " : "", mname[m]);
		jstr(j, r->summary[m]);
	}
	fprintf(j, "},\n    \"test_bpf_compiled_by_direct_jit\": ");
	if (r->stat_before[2] >= 0 && r->stat_after[2] >= 0)
		fprintf(j, "%ld", r->stat_after[2] - r->stat_before[2]);
	else
		fputs("null", j);
	fprintf(j, "\n  },\n  \"determinism\": ");
	if (nruns == 2) {
		fprintf(j, "{\"max_rel_diff_instr_per_packet\": ");
		jnum(j, det_ipp);
		fprintf(j, ", \"max_rel_diff_per_packet_total\": ");
		jnum(j, det_pkt);
		fprintf(j, ", \"max_rel_diff_test_bpf\": ");
		jnum(j, det_tb);
		fprintf(j, ", \"max_rel_diff_compile\": ");
		jnum(j, det_cmp);
		fprintf(j, "}");
	} else {
		fputs("null", j);
	}
	fprintf(j, ",\n  \"filters\": [");
	for (id = 0; id <= nfilt; id++) {
		fprintf(j, "%s\n    {\"id\": %d, \"group\": ", id ? "," : "", id);
		jstr(j, id && fgroup[id] >= 0 ? gname[fgroup[id]] : "harness");
		fprintf(j, ", \"expr\": ");
		jstr(j, id ? fexpr[id] : "ret #0 (harness overhead)");
		fprintf(j, ", \"insns\": %d, \"offline_matches\": %d", id ? finsns[id] : 1,
			id ? offline[id] : -1);
		for (m = 0; m < NM; m++) {
			const struct fres *x = &r->f[m][id];

			fprintf(j, ",\n     \"%s\": ", mname[m]);
			if (!x->have) {
				fputs("null", j);
				continue;
			}
			fprintf(j, "{\"create_err\": %d, \"jited\": %u, \"image_bytes\": %u, "
				"\"compile_ns\": %llu, \"jit_classic_compiled\": %ld, "
				"\"gross_per_packet\": ", x->err, x->jited, x->jited_len,
				x->compile_ns, x->compiled);
			jnum(j, gross(r, m, id));
			fputs(", \"net_per_packet\": ", j);
			jnum(j, id ? net(r, m, id) : 0);
			if (nruns == 2) {
				fputs(", \"gross_per_packet_run2\": ", j);
				jnum(j, gross(&runs[1], m, id));
			}
			fprintf(j, ", \"matched\": %d, \"flags\": %u, \"per_packet\": [",
				x->matched, x->flags);
			for (i = 0; i < x->npk; i++)
				fprintf(j, "%s%.6g", i ? ", " : "", (double)x->total[i] / x->iter);
			fputs("], \"ret\": [", j);
			for (i = 0; i < x->npk; i++)
				fprintf(j, "%s%u", i ? ", " : "", x->ret[i]);
			fputs("]}", j);
		}
		fputs("}", j);
	}
	fprintf(j, "\n  ],\n  \"test_bpf\": [");
	for (id = 0, i = 0; id < MAXT; id++) {
		int any = 0;

		for (m = 0; m < NM; m++)
			any |= r->t[m][id].have;
		if (!any)
			continue;
		fprintf(j, "%s\n    {\"id\": %d, \"name\": ", i++ ? "," : "", id);
		jstr(j, r->tdesc[id]);
		for (m = 0; m < NM; m++) {
			const struct tres *x = &r->t[m][id];

			fprintf(j, ", \"%s\": ", mname[m]);
			if (!x->have) {
				fputs("null", j);
				continue;
			}
			fprintf(j, "{\"jited\": %d, \"status\": ", x->jited);
			jstr(j, x->status);
			fputs(", \"ns\": [", j);
			for (int k = 0; k < x->nsub; k++)
				fprintf(j, "%s%.0f", k ? ", " : "", x->ns[k]);
			fputs("]}", j);
		}
		fputs("}", j);
	}
	fprintf(j, "\n  ],\n  \"dmesg_warnings\": [");
	for (i = 0; i < r->ndmesg; i++) {
		fputs(i ? ", " : "", j);
		jstr(j, r->dmesg[i]);
	}
	fputs("]\n}\n", j);
	fclose(j);

	/* ---- bench.txt and bench.md ---- */
	t = xopen(outdir, "bench.txt");
	md = xopen(outdir, "bench.md");
	fprintf(t, "cBPF benchmark: %d programs in %d groups x %d packets, unit: %s per packet (%s)\n",
		nfilt, ngroup, r->npkts, unit, accel);
	for (i = 0; i < r->nmeta; i++)
		if (!strncmp(r->meta[i], "kernel ", 7) || !strncmp(r->meta[i], "iterations", 10) ||
		    !strncmp(r->meta[i], "repeat", 6) || !strncmp(r->meta[i], "spectre_v2", 10) ||
		    !strncmp(r->meta[i], "retbleed", 8))
			fprintf(t, "  %s\n", r->meta[i]);
	for (m = 0; m < NM; m++)
		if (r->mode_avail[m])
			fprintf(t, "mode %-8s %-28s harness overhead (ret #0) %s per packet\n",
				mname[m], mlabel[m], fmtd(b1, overhead(r, m), 1));
		else
			fprintf(t, "mode %-8s %-28s NOT AVAILABLE: %s\n", mname[m], mlabel[m],
				r->mode_why[m]);
	fprintf(t, "\nnet = gross - the same mode's ret #0 cost; bytes = jited_len; "
		"compile = ns around bpf_prog_create()\n");
	fprintf(t, "%3s %-44s %3s | %9s %9s %9s | %5s %5s | %6s %6s | %7s %7s | %s\n",
		"id", "expression", "ins", "net:int", "net:up", "net:dir", "d/u", "d/i",
		"B:up", "B:dir", "cmp:up", "cmp:dir", "match");
	fprintf(md, "| id | expression | insns | net interp | net upstream | net direct | "
		"direct/upstream | direct/interp | bytes upstream | bytes direct | "
		"compile upstream | compile direct | matched |\n");
	fprintf(md, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (id = 1; id <= nfilt; id++) {
		double ni = net(r, 0, id), nu = net(r, 1, id), nd = net(r, 2, id);
		const struct fres *u = &r->f[1][id], *d = &r->f[2][id];
		char mark[16] = "";
		char e[48];

		if (fgroup[id] < 0)
			continue;
		if (r->mode_avail[2] && !direct_jit(r, id))
			strcat(mark, " FALLBACK");
		if (id == 1 || fgroup[id] != fgroup[id - 1]) {
			fprintf(t, "--- group %s\n", gname[fgroup[id]]);
			fprintf(md, "| | **%s** | | | | | | | | | | | |\n", gname[fgroup[id]]);
		}
		snprintf(e, sizeof(e), "%.44s", fexpr[id] ? fexpr[id] : "?");
		fprintf(t, "%3d %-44s %3d | %9s %9s %9s | %5s %5s | %6s %6s | %7s %7s | %d/%d%s\n",
			id, e, finsns[id], fmtd(b1, ni, 1), fmtd(b2, nu, 1), fmtd(b3, nd, 1),
			fmtd(b4, nd / nu, 2), fmtd(b5, nd / ni, 3),
			fmtd(b6, u->have ? u->jited_len : NAN, 0),
			fmtd(b7, d->have ? d->jited_len : NAN, 0),
			fmtd(b8, u->have ? u->compile_ns : NAN, 0),
			d->have ? fmtd(b9, d->compile_ns, 0) : "-",
			matched_any(r, id), runs_of(r, id), mark);
		fprintf(md, "| %d | `%s` | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d/%d%s |\n",
			id, fexpr[id] ? fexpr[id] : "?", finsns[id], fmtd(b1, ni, 1),
			fmtd(b2, nu, 1), fmtd(b3, nd, 1), fmtd(b4, nd / nu, 2),
			fmtd(b5, nd / ni, 3), fmtd(b6, u->have ? u->jited_len : NAN, 0),
			fmtd(b7, d->have ? d->jited_len : NAN, 0),
			fmtd(b8, u->have ? u->compile_ns : NAN, 0),
			d->have ? fmtd(b9, d->compile_ns, 0) : "-", matched_any(r, id),
			runs_of(r, id), mark);
	}
	{
		const char *hdr = "\nSummary (geometric means over the filter corpus; "
				  "target in brackets)\n";
		struct {
			const char *what;
			struct gm *g;
			double target;	/* 0: none */
		} rows[] = {
			{ "net instr/packet direct/upstream", &g_net_du, t_net },
			{ "net instr/packet direct/interpreter", &g_net_di, 0 },
			{ "net instr/packet upstream/interpreter", &g_net_ui, 0 },
			{ "gross instr/packet direct/upstream", &g_gr_du, 0 },
			{ "gross instr/packet direct/interpreter", &g_gr_di, 0 },
			{ "image bytes direct/upstream", &g_img, t_bytes },
			{ "compile cost direct/upstream", &g_cmp, t_compile },
		};

		fputs(hdr, t);
		fprintf(md, "\n| geometric mean over %d filters | measured | target |\n"
			"|---|---:|---|\n", nfilt);
		for (i = 0; i < (int)(sizeof(rows) / sizeof(rows[0])); i++) {
			double v = gm_val(rows[i].g);
			const char *verdict = "";
			char tg[32] = "(info)";

			if (rows[i].target) {
				snprintf(tg, sizeof(tg), "<= %.2f", rows[i].target);
				verdict = isnan(v) ? "  n/a" : v <= rows[i].target ? "  met" : "  MISSED";
			}
			fprintf(t, "  %-40s %8s  [%s]%s\n", rows[i].what, fmtd(b1, v, 3), tg, verdict);
			fprintf(md, "| %s | %s | %s%s |\n", rows[i].what, fmtd(b1, v, 3), tg, verdict);
		}
	}
	fprintf(t, "  harness overhead per packet (ret #0):      ");
	fprintf(md, "\nHarness overhead per packet (`ret #0`, subtracted per mode):");
	for (m = 0; m < NM; m++) {
		fprintf(t, " %s %s", mname[m], fmtd(b1, overhead(r, m), 1));
		fprintf(md, " %s %s%s", mname[m], fmtd(b1, overhead(r, m), 1), m < NM - 1 ? "," : ".");
	}
	fprintf(t, "\n  results differing between modes: %d filters; match count != libpcap offline: %d; "
		"direct mode not compiled by the direct JIT: %d\n", mism, offmis, fallback);
	fprintf(t, "\nPacket filters, direct/upstream (targets: geomean net <= %.2f, max <= %.2f; "
		"bytes <= %.2f, max <= %.2f; compile <= %.2f, max <= %.2f; the big group's net <= %.2f)\n"
		"  net (%d filters, per packet): geomean %s, max %s (%s)\n",
		t_net, t_net_max, t_bytes, t_bytes_max, t_compile, t_compile_max, t_big,
		g_all_net.n, fmtd(b1, gm_val(&g_all_net), 3),
		fmtd(b2, g_all_net.n ? g_all_net.max : NAN, 3), w1);
	fprintf(t, "  image bytes (%d filters): geomean %s, max %s (%s)\n", g_img.n,
		fmtd(b1, gm_val(&g_img), 3), fmtd(b2, g_img.n ? g_img.max : NAN, 3), w2);
	fprintf(t, "  compile cost (%d filters): geomean %s, max %s (%s)\n", g_cmp.n,
		fmtd(b1, gm_val(&g_cmp), 3), fmtd(b2, g_cmp.n ? g_cmp.max : NAN, 3), w3);
	fprintf(t, "\nPer group, direct/upstream: geomean (max, where)\n"
		"  %-9s %4s  %-28s %-28s %s\n", "group", "n", "net", "image bytes", "compile");
	fprintf(md, "\n\n| group | programs | net geomean | net max | bytes geomean | bytes max | "
		"compile geomean | compile max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (g = 0; g <= ngroup; g++) {
		const struct gm *gn = g < ngroup ? &gg_net[g] : &g_tb_du;
		const struct gm *gi = g < ngroup ? &gg_img[g] : NULL;
		const struct gm *gc = g < ngroup ? &gg_cmp[g] : NULL;
		char c1[128], c2[128], c3[128], m1[128], m2[128], m3[128], gw[3][48];

		snprintf(c1, sizeof(c1), "%s (%s, %s)", fmtd(b1, gm_val(gn), 3),
			 fmtd(b2, gn->n ? gn->max : NAN, 3), gm_where(gw[0], sizeof(gw[0]), gn));
		snprintf(m1, sizeof(m1), "%s (%s)", fmtd(b2, gn->n ? gn->max : NAN, 3), gw[0]);
		snprintf(c2, sizeof(c2), "-");
		snprintf(c3, sizeof(c3), "-");
		snprintf(m2, sizeof(m2), "-");
		snprintf(m3, sizeof(m3), "-");
		if (gi) {
			snprintf(c2, sizeof(c2), "%s (%s, %s)", fmtd(b1, gm_val(gi), 3),
				 fmtd(b2, gi->n ? gi->max : NAN, 3), gm_where(gw[1], sizeof(gw[1]), gi));
			snprintf(m2, sizeof(m2), "%s (%s)", fmtd(b2, gi->n ? gi->max : NAN, 3), gw[1]);
			snprintf(c3, sizeof(c3), "%s (%s, %s)", fmtd(b1, gm_val(gc), 3),
				 fmtd(b2, gc->n ? gc->max : NAN, 3), gm_where(gw[2], sizeof(gw[2]), gc));
			snprintf(m3, sizeof(m3), "%s (%s)", fmtd(b2, gc->n ? gc->max : NAN, 3), gw[2]);
		}
		fprintf(t, "  %-9s %4d  %-28s %-28s %s\n", g < ngroup ? gname[g] : "test_bpf",
			gn->n, c1, c2, c3);
		fprintf(md, "| %s | %d | %s | %s | %s | %s | %s | %s |\n",
			g < ngroup ? gname[g] : "test_bpf", gn->n, fmtd(b1, gm_val(gn), 3), m1,
			gi ? fmtd(b3, gm_val(gi), 3) : "-", m2, gc ? fmtd(b4, gm_val(gc), 3) : "-", m3);
	}
	/* groups with a harness of their own: seccomp filters */
	for (g = 0; g < ngroup; g++) {
		char gw[48];

		if (!gapart[g])
			continue;
		fprintf(t, "\n%s, reported apart from the corpus: net per run over each filter's "
			"syscall mix (records the action cache answers left out)\n"
			"  direct/upstream %s [<= %.2f]%s, max %s at %s [<= %.2f]%s; "
			"direct/interpreter %s\n  harness (ret ALLOW) per run:", gname[g],
			fmtd(b1, gm_val(&gg_net[g]), 3), t_seccomp,
			gm_val(&gg_net[g]) <= t_seccomp ? " met" : " MISSED",
			fmtd(b2, gg_net[g].n ? gg_net[g].max : NAN, 3),
			gm_where(gw, sizeof(gw), &gg_net[g]), t_seccomp_max,
			gg_net[g].n && gg_net[g].max <= t_seccomp_max ? " met" : " MISSED",
			fmtd(b3, gm_val(&gg_di[g]), 3));
		fprintf(md, "\n\n**%s** (apart from the corpus): net direct/upstream geomean %s "
			"(target %.2f), max %s (%s; target %.2f), direct/interpreter %s; harness "
			"(`ret ALLOW`) per run:", gname[g], fmtd(b1, gm_val(&gg_net[g]), 3), t_seccomp,
			fmtd(b2, gg_net[g].n ? gg_net[g].max : NAN, 3), gw, t_seccomp_max,
			fmtd(b3, gm_val(&gg_di[g]), 3));
		for (m = 0; m < NM; m++) {
			fprintf(t, " %s %s", mname[m], fmtd(b1, gross(r, m, gbase[g]), 1));
			fprintf(md, " %s %s%s", mname[m], fmtd(b1, gross(r, m, gbase[g]), 1),
				m < NM - 1 ? "," : ".");
		}
		fputc('\n', t);
	}
	if (nrandom)
		fprintf(t, "  %d program(s) return random values by design (ld rand): results not "
			"compared between modes\n", nrandom);
	if (nfloored)
		fprintf(t, "  %d program(s) measure a net cost below 1 instruction in some mode: "
			"counted as 1 in the ratios\n", nfloored);
	fprintf(md, "\n\nFilters whose results differ between modes: %d; whose match count differs "
		"from `tcpdump -r` on the same frames: %d; not compiled by the direct JIT in "
		"direct mode: %d; returning random values by design (not compared): %d.\n",
		mism, offmis, fallback, nrandom);
	fprintf(t, "\nlib/test_bpf classic tests timed in every mode: %d\n", tb_n);
	fprintf(md, "\n| lib/test_bpf (%d classic tests timed in every mode) | interpreter | "
		"upstream | direct |\n|---|---:|---:|---:|\n", tb_n);
	fprintf(t, "  total %s:  interp %s  upstream %s  direct %s\n", unit,
		fmtd(b1, r->tb_avail[0] ? tb_tot[0] : NAN, 0),
		fmtd(b2, r->tb_avail[1] ? tb_tot[1] : NAN, 0),
		fmtd(b3, r->tb_avail[2] ? tb_tot[2] : NAN, 0));
	fprintf(md, "| total %s per run, summed over tests | %s | %s | %s |\n", unit,
		fmtd(b1, r->tb_avail[0] ? tb_tot[0] : NAN, 0),
		fmtd(b2, r->tb_avail[1] ? tb_tot[1] : NAN, 0),
		fmtd(b3, r->tb_avail[2] ? tb_tot[2] : NAN, 0));
	fprintf(t, "  geomean upstream/interp %s  direct/upstream %s  direct/interp %s\n",
		fmtd(b1, gm_val(&g_tb_ui), 3), fmtd(b2, gm_val(&g_tb_du), 3),
		fmtd(b3, gm_val(&g_tb_di), 3));
	fprintf(md, "| geomean vs interpreter | 1 | %s | %s |\n| geomean direct/upstream | | | %s |\n",
		fmtd(b1, gm_val(&g_tb_ui), 3), fmtd(b2, gm_val(&g_tb_di), 3),
		fmtd(b3, gm_val(&g_tb_du), 3));
	for (m = 0; m < NM; m++)
		fprintf(t, "  %-8s %s\n", mname[m], r->summary[m][0] ? r->summary[m] :
			(r->tb_avail[m] ? "(no summary)" : "(not run)"));
	if (r->stat_before[2] >= 0 && r->stat_after[2] >= 0)
		fprintf(t, "  direct mode: %ld programs compiled by the direct JIT (bpf_jit_classic_stats)\n",
			r->stat_after[2] - r->stat_before[2]);
	if (nruns == 2) {
		fprintf(t, "\nDeterminism (2 boots): max relative difference of the counts\n"
			"  %s per packet, per filter and mode: %.3g%%", unit, 100 * det_ipp);
		if (det_ipp_m >= 0)
			fprintf(t, " (%s, filter %d)", mname[det_ipp_m], det_ipp_id);
		fprintf(t, "\n  single packet totals:                        %.3g%%\n"
			"  lib/test_bpf per (sub)test:                  %.3g%%",
			100 * det_pkt, 100 * det_tb);
		if (det_tb_m >= 0)
			fprintf(t, " (%s, #%d)", mname[det_tb_m], det_tb_id);
		fprintf(t, "\n  compile cost (compile_ns):                   %.3g%%\n"
			"  target: within 1%%: %s\n", 100 * det_cmp,
			det_ipp <= 0.01 && det_tb <= 0.01 ? "met" : "MISSED");
		fprintf(md, "\nDeterminism, two boots, max relative difference: instructions per "
			"packet %.3g%%, single packet totals %.3g%%, lib/test_bpf per test %.3g%%, "
			"compile cost %.3g%%.\n", 100 * det_ipp, 100 * det_pkt, 100 * det_tb,
			100 * det_cmp);
	}
	for (i = 0; i < r->ndmesg; i++)
		fprintf(t, "dmesg: %s\n", r->dmesg[i]);
	/* lib/test_bpf per test: sum over its subtests of the per-run cost */
	fprintf(t, "\nlib/test_bpf per test (%s per run, summed over subtests; "
		"includes the harness call)\n%4s %-40s %9s %9s %9s %6s %6s\n", unit,
		"#", "test", "interp", "upstream", "direct", "u/i", "d/u");
	for (id = 0; id < MAXT; id++) {
		double v[NM];
		int any = 0;
		char e[48];

		for (m = 0; m < NM; m++) {
			const struct tres *x = &r->t[m][id];

			any |= x->have;
			v[m] = x->have && x->nsub ? tb_sum(x) : NAN;
		}
		if (!any)
			continue;
		snprintf(e, sizeof(e), "%.40s", r->tdesc[id] ? r->tdesc[id] : "?");
		fprintf(t, "%4d %-40s %9s %9s %9s %6s %6s", id, e, fmtd(b1, v[0], 0),
			fmtd(b2, v[1], 0), fmtd(b3, v[2], 0), fmtd(b4, v[1] / v[0], 3),
			fmtd(b5, v[2] / v[1], 3));
		for (m = 0; m < NM; m++)
			if (r->t[m][id].have && strcmp(r->t[m][id].status, "PASS"))
				fprintf(t, " %s:%s", mname[m], r->t[m][id].status);
		fputc('\n', t);
	}
	fclose(t);
	fclose(md);

	/* ---- plot ---- */
	dat = xopen(outdir, "bench.dat");
	fprintf(dat, "# id net_interp net_upstream net_direct\n");
	for (id = 1; id <= nfilt; id++) {
		if (fgroup[id] < 0)
			continue;
		fprintf(dat, "%d", id);
		for (m = 0; m < NM; m++) {
			double v = net(r, m, id);

			if (isnan(v) || v <= 0)
				fputs(" NaN", dat);
			else
				fprintf(dat, " %.3f", v);
		}
		fputc('\n', dat);
	}
	fclose(dat);
	/* per group: direct/upstream net per program, one gnuplot index each,
	 * the corpus groups and then lib/test_bpf (per run)
	 */
	dat = xopen(outdir, "bench-ratio.dat");
	rmin = INFINITY;
	rmax = 0;
	for (g = 0; g <= ngroup; g++) {
		int x = 0;

		fprintf(dat, "# group %s: id ratio\n", g < ngroup ? gname[g] : "test_bpf");
		for (id = 1; g < ngroup && id <= nfilt; id++) {
			double v = net1(r, 2, id) / net1(r, 1, id);

			if (fgroup[id] == g && v > 0) {
				fprintf(dat, "%d %d %.4f\n", ++x, id, v);
				rmin = fmin(rmin, v);
				rmax = fmax(rmax, v);
			}
		}
		for (id = 0; g == ngroup && id < MAXT; id++) {
			const struct tres *u = &r->t[1][id], *d = &r->t[2][id];

			if (u->have && d->have && u->nsub && u->nsub == d->nsub && tb_sum(u) > 0) {
				double v = tb_sum(d) / tb_sum(u);

				fprintf(dat, "%d %d %.4f\n", ++x, id, v);
				rmin = fmin(rmin, v);
				rmax = fmax(rmax, v);
			}
		}
		fputs(x ? "\n\n" : "0 0 NaN\n\n\n", dat);
	}
	fclose(dat);
	gp = xopen(outdir, "bench.gp");
	fprintf(gp, "set terminal pngcairo size 1800,1000 font ',10' noenhanced\n"
		"set output '%s/bench.png'\nset multiplot\n"
		"set origin 0,0.5\nset size 1,0.5\n"
		"set title 'cBPF programs (%d, all groups x %d packets): net %s per packet, %s'\n"
		"set logscale y\nset grid ytics mytics\nset key above horizontal\n"
		"set xlabel 'program id (out/bench/bench.txt)'\n"
		"set ylabel 'net %s per packet (log)'\n"
		"set xrange [0:%d]\nset xtics 5\nset style data points\n"
		"plot '%s/bench.dat' using 1:2 title 'interpreter' pt 7 ps 0.6, \\\n"
		"     '' using 1:3 title 'upstream cBPF->eBPF->JIT' pt 5 ps 0.6, \\\n"
		"     '' using 1:4 title 'direct cBPF JIT' pt 9 ps 0.7\n"
		"unset key\nset xtics autofreq\nset autoscale x\nset offsets 0.5,0.5,0,0\n"
		"set yrange [%g:%g]\n"
		"set ylabel 'net direct / upstream (log)'\nset xlabel 'program in group'\n",
		outdir, nfilt, r->npkts, unit, accel, unit, nfilt + 1, outdir,
		/* every ratio inside the panels, 0.05 to 4 at least */
		fmin(0.05, rmin / 1.5), fmax(4, rmax * 1.5));
	/* each panel: the ratios, 1.0 (dashed) and the group's target (dotted) */
	for (g = 0; g <= ngroup; g++) {
		double tgt = g == ngroup ? 1.0 : gapart[g] ? t_seccomp :
			     !strcmp(gname[g], "big") ? t_big : t_net;

		fprintf(gp, "set origin %.4f,0\nset size %.4f,0.5\nset title '%s (target %.2f)'\n"
			"plot '%s/bench-ratio.dat' index %d using 1:3 pt 7 ps 0.6 lc 3, "
			"1 with lines lc 0 dt 2, %.2f with lines lc 1 dt 3\n", (double)g / (ngroup + 1),
			1.0 / (ngroup + 1), g < ngroup ? gname[g] : "test_bpf (per run)", tgt, outdir,
			g, tgt);
	}
	fprintf(gp, "unset multiplot\n");
	fclose(gp);

	/* the last line of make bench (run-bench prints it), after the groups
	 * reported apart: lib/test_bpf and the harness-own groups (seccomp) */
	sum = xopen(outdir, "summary.txt");
	fprintf(sum, "test_bpf_net_geomean=%s test_bpf_net_max=%s test_bpf_tests=%d\n",
		fmtd(b1, gm_val(&g_tb_du), 3), fmtd(b2, g_tb_du.n ? g_tb_du.max : NAN, 3),
		g_tb_du.n);
	for (g = 0; g < ngroup; g++)
		if (gapart[g])
			fprintf(sum, "%s_net_geomean=%s %s_net_max=%s %s_net_direct_over_interp=%s "
				"%s_bytes_geomean=%s %s_compile_geomean=%s\n",
				gname[g], fmtd(b1, gm_val(&gg_net[g]), 3), gname[g],
				fmtd(b2, gg_net[g].n ? gg_net[g].max : NAN, 3), gname[g],
				fmtd(b3, gm_val(&gg_di[g]), 3), gname[g],
				fmtd(b4, gm_val(&gg_img[g]), 3), gname[g],
				fmtd(b5, gm_val(&gg_cmp[g]), 3));
	fprintf(sum, "net_geomean=%s net_max=%s bytes_geomean=%s bytes_max=%s "
		"compile_geomean=%s compile_max=%s\n",
		fmtd(b1, gm_val(&g_all_net), 3), fmtd(b2, g_all_net.n ? g_all_net.max : NAN, 3),
		fmtd(b3, gm_val(&g_img), 3), fmtd(b4, g_img.n ? g_img.max : NAN, 3),
		fmtd(b5, gm_val(&g_cmp), 3), fmtd(b6, g_cmp.n ? g_cmp.max : NAN, 3));
	fclose(sum);
	/* The benchmark is also a test: results, libpcap's counts, attribution. */
	return mism || offmis || fallback ? 1 : 0;
}
