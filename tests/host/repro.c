// SPDX-License-Identifier: GPL-2.0
/* tcpdump -dd program files and reproducer files. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

int load_dd(const char *path, struct sock_filter *insns, u32 max, char *expr, size_t exprlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	u32 n = 0;

	if (!f)
		return -1;
	if (expr)
		expr[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned int code, jt, jf, k;
		char *s = line;

		while (isspace((unsigned char)*s))
			s++;
		if (*s == '#' && expr && !expr[0]) {
			snprintf(expr, exprlen, "%s", s + 1 + (s[1] == ' '));
			expr[strcspn(expr, "\n")] = 0;
		}
		if (*s != '{')
			continue;
		if (sscanf(s, "{ %x, %u, %u, %x }", &code, &jt, &jf, &k) != 4 || n >= max) {
			fclose(f);
			return -1;
		}
		insns[n].code = (u16)code;
		insns[n].jt = (u8)jt;
		insns[n].jf = (u8)jf;
		insns[n].k = k;
		n++;
	}
	fclose(f);
	return (int)n;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(((const struct corpus_prog *)a)->name, ((const struct corpus_prog *)b)->name);
}

struct corpus_prog *load_corpus(const char *dir, u32 *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct corpus_prog *v = NULL;
	u32 cap = 0;
	char path[4096];

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		int r;

		if (l < 4 || strcmp(de->d_name + l - 3, ".dd"))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				abort();
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		r = load_dd(path, v[*n].insns, BPF_MAXINSNS, v[*n].expr, sizeof(v[*n].expr));
		if (r <= 0)
			continue;
		snprintf(v[*n].name, sizeof(v[*n].name), "%.60s", de->d_name);
		v[*n].len = (u32)r;
		(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), cmp_names);
	return v;
}

static void put_hex(FILE *f, const char *tag, const u8 *p, u32 n)
{
	u32 i;

	fprintf(f, "%s", tag);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%02x", i % 32 ? "" : "\n", p[i]);
	fprintf(f, "\n.\n");
}

void write_repro(FILE *f, const struct sock_filter *insns, u32 len, const struct test_case *tc,
		 const char *variant, u32 expect, u32 got, const char *note)
{
	const struct skb_shape *sh = &tc->shape;
	u32 i;

	fprintf(f, "# cBPF JIT host reproducer (tests/host/hosttest --repro FILE)\n");
	fprintf(f, "# %s\n", note);
	fprintf(f, "# variant: %s\n# reference (6.1 conversion semantics): %#x, JIT: %#x\n",
		variant, expect, got);
	fprintf(f, "# program, tcpdump -dd style (%u insns):\n", len);
	for (i = 0; i < len; i++)
		fprintf(f, "{ 0x%x, %u, %u, 0x%08x },\n", insns[i].code, insns[i].jt, insns[i].jf,
			insns[i].k);
	fprintf(f, "skb len=%u headlen=%u headroom=%u nr_frags=%u frags=", tc->len, sh->headlen,
		sh->headroom, sh->nr_frags);
	for (i = 0; i < sh->nr_frags; i++)
		fprintf(f, "%s%u", i ? "," : "", sh->frag_sizes[i]);
	if (!sh->nr_frags)
		fprintf(f, "-");
	if (sh->mac_off == MODEL_MAC_NONE)
		fprintf(f, " mac_off=unset");
	else
		fprintf(f, " mac_off=%d", sh->mac_off);
	fprintf(f, " net_off=%d\n", sh->net_off);
	fprintf(f, "meta dev=%d ifindex=%d hatype=%u mark=%#x hash=%#x cpu=%u queue=%u "
		   "protocol_be=%#06x vlan_tci=%#x vlan_proto_be=%#06x pkt_type_byte=%#x "
		   "vlan_present_byte=%#x rnd_seed=%#llx vlan_all=%#x\n",
		tc->has_dev, tc->ifindex, tc->hatype, tc->mark, tc->hash, tc->cpu,
		tc->queue_mapping, (u16)(tc->protocol << 8 | tc->protocol >> 8), tc->vlan_tci,
		(u16)(tc->vlan_proto << 8 | tc->vlan_proto >> 8), tc->flags1, tc->flags2,
		(unsigned long long)tc->rnd_seed, tc->vlan_all);
	put_hex(f, "headroom", tc->headroom_bytes, sh->headroom);
	put_hex(f, "packet", tc->pkt, tc->len);
}

static int read_hex(FILE *f, u8 *out, u32 max)
{
	char line[512];
	u32 n = 0;

	while (fgets(line, sizeof(line), f)) {
		char *s = line;

		if (line[0] == '.')
			return (int)n;
		while (isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1])) {
			unsigned int b;

			if (n >= max || sscanf(s, "%2x", &b) != 1)
				return -1;
			out[n++] = (u8)b;
			s += 2;
		}
	}
	return -1;
}

int read_repro(const char *path, struct sock_filter *insns, u32 *len, struct test_case *tc)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int r;

	if (!f)
		return -1;
	memset(tc, 0, sizeof(*tc));
	fclose(f);
	r = load_dd(path, insns, BPF_MAXINSNS, NULL, 0);
	if (r <= 0)
		return -1;
	*len = (u32)r;
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		struct skb_shape *sh = &tc->shape;

		if (!strncmp(line, "skb ", 4)) {
			char frags[256], mac[32];
			unsigned int pv;
			char *t;

			if (sscanf(line, "skb len=%u headlen=%u headroom=%u nr_frags=%u frags=%255s "
					 "mac_off=%31s net_off=%d",
				   &tc->len, &sh->headlen, &sh->headroom, &sh->nr_frags, frags, mac,
				   &sh->net_off) != 7 || sh->nr_frags > MODEL_MAX_FRAGS)
				goto bad;
			sh->mac_off = strcmp(mac, "unset") ? atoi(mac) : MODEL_MAC_NONE;
			t = frags;
			for (pv = 0; pv < sh->nr_frags; pv++) {
				sh->frag_sizes[pv] = (u32)strtoul(t, &t, 10);
				if (*t == ',')
					t++;
			}
		} else if (!strncmp(line, "meta ", 5)) {
			unsigned int dev, hat, q, pr, tci, vp, f1, f2;
			unsigned long long seed;
			const char *va;

			if (sscanf(line, "meta dev=%u ifindex=%d hatype=%u mark=%x hash=%x cpu=%u "
					 "queue=%u protocol_be=%x vlan_tci=%x vlan_proto_be=%x "
					 "pkt_type_byte=%x vlan_present_byte=%x rnd_seed=%llx",
				   &dev, &tc->ifindex, &hat, &tc->mark, &tc->hash, &tc->cpu, &q, &pr,
				   &tci, &vp, &f1, &f2, &seed) != 13)
				goto bad;
			tc->has_dev = dev;
			tc->hatype = (u16)hat;
			tc->queue_mapping = (u16)q;
			tc->protocol = (u16)((pr & 0xff) << 8 | (pr >> 8 & 0xff));
			tc->vlan_tci = (u16)tci;
			tc->vlan_proto = (u16)((vp & 0xff) << 8 | (vp >> 8 & 0xff));
			tc->flags1 = (u8)f1;
			tc->flags2 = (u8)f2;
			tc->rnd_seed = seed;
			/* later than the first reproducers: optional */
			va = strstr(line, " vlan_all=");
			tc->vlan_all = va ? (u32)strtoul(va + 10, NULL, 16) : 0;
		} else if (!strncmp(line, "headroom", 8)) {
			if (read_hex(f, tc->headroom_bytes, sizeof(tc->headroom_bytes)) < 0)
				goto bad;
		} else if (!strncmp(line, "packet", 6)) {
			if (read_hex(f, tc->pkt, sizeof(tc->pkt)) != (int)tc->len)
				goto bad;
		}
	}
	if (f)
		fclose(f);
	return 0;
bad:
	fclose(f);
	return -1;
}
