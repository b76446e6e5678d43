/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of every NVIDIA uncore table: the facts of Linux's drivers (extract and
 * provenance in tests/oracle/linux-nvidia/). For every CoreSight PMU of the table
 * (pmu/events/nvidia_cspmu_events.c) and Linux's fallback entry: its Linux name, every event
 * name -> code, every format field -> config word and bit range, the filter defaults a filter
 * of 0 gets; for every ACPI-namespace PMU type (pmu/uncore/nv_cmem_latency.c, nv_c2c.c): its
 * _HID, name, instance count, event codes, which peer exposes which event, and format fields.
 * Both ways: nothing in a table is absent from the extract, and what Linux lists that a table
 * lacks is named (and fails, unless listed in `absent` below with its reason).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/oracle_file.h"

#include "pmu/uncore/nv_acpi_pmu.h"
#include "pmu/uncore/nvidia_cspmu.h"

struct row {
	char file[40], group[40], kind[8], name[40], val[40];
	char rest[200];   /* match: the columns after the prodid */
};
static struct row rows[256];
static int nrows;

static int load(void **state)
{
	(void)state;
	FILE *f = oracle_open("linux-nvidia/nvidia_pmu.txt");
	if (!f)
		return -1;
	char line[400];
	while (fgets(line, sizeof(line), f) && nrows < (int)(sizeof(rows) / sizeof(rows[0]))) {
		struct row *r = &rows[nrows];
		memset(r, 0, sizeof(*r));
		char a[40], b[40], c[40], d[40], e[40];
		int n = sscanf(line, "%39s %39s %39s %39s %39s", a, b, c, d, e);
		if (n < 4)
			continue;
		strcpy(r->file, a);
		if (!strcmp(b, "match") || !strcmp(b, "acpi")) {
			strcpy(r->kind, b);
			strcpy(r->name, c);   /* prodid or HID */
			const char *p = strstr(line, c) + strlen(c);
			snprintf(r->rest, sizeof(r->rest), "%s", p + (*p == ' '));
			r->rest[strcspn(r->rest, "\n")] = 0;
		} else {
			if (n < 5)
				continue;
			strcpy(r->group, b);
			strcpy(r->kind, c);
			strcpy(r->name, d);
			strcpy(r->val, e);
		}
		nrows++;
	}
	fclose(f);
	return nrows > 100 ? 0 : -1;
}

static const struct row *find(const char *group, const char *kind, const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].kind, kind) && !strcmp(rows[i].name, name) && (!group || !strcmp(rows[i].group, group)))
			return &rows[i];
	return NULL;
}

/* Column k (0 from the name pattern) of a match/acpi row's rest. */
static void col(const struct row *r, int k, char *out, size_t n)
{
	const char *p = r->rest;
	for (int i = 0; i < k && p; i++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	size_t len = p ? strcspn(p, " ") : 0;
	snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p ? p : "");
}

static uint64_t keyval(const struct row *r, const char *key)
{
	const char *p = strstr(r->rest, key);
	if (!p || p[strlen(key)] != '=')
		fail_msg("%s: no %s in %s", r->name, key, r->rest);
	return strtoull(p + strlen(key) + 1, NULL, 0);
}

/* Linux format "configN:lo-hi" -> word N, lo, hi. */
static void format_bits(const char *v, unsigned *word, unsigned *lo, unsigned *hi)
{
	*word = v[6] == ':' ? 0 : (unsigned)(v[6] - '0');
	const char *p = strchr(v, ':') + 1;
	*lo = (unsigned)strtoul(p, (char **)&p, 10);
	*hi = (unsigned)strtoul(p + 1, NULL, 10);
}

/* Where a Linux perf field lands in the table's registers. The table's reg is the filter
 * register (1 PMEVFILTR, 2 PMEVFILT2R, 0 the event word); for every PMU but PCIE-TGT it equals
 * the perf config word (Linux nv_cspmu_event_filter: config1 -> PMEVFILTR, config2 ->
 * PMEVFILT2R). PCIE-TGT (Linux pcie_tgt_pmu_event_filter): config bits above the 3-bit event
 * type go to PMEVFILT2R shifted down by 3 (NV_PCIE_TGT_EV_TYPE_COUNT); its config1 / config2 are
 * the address-filter slot's base and mask, words 3 and 4 of the table's encoding (no filter
 * register). */
static void land(const struct nv_cspmu_desc *d, unsigned word, unsigned lo, unsigned *reg, unsigned *shift)
{
	*reg = word;
	*shift = lo;
	if (d->addr_slots) {
		if (word == 0 && lo >= 3) {
			*reg = 2;
			*shift = lo - 3;
		} else if (word) {
			*reg = 2 + word;
		}
	}
}

/* Linux format fields the table does not take from the event string, with the reason. */
static const struct { const char *pmu, *field, *why; } absent[] = {
	{ NULL, NULL, NULL },      /* none today: PCIE-TGT's dst_addr_* are in the table */
};

static int allowed_absent(const char *pmu, const char *field)
{
	for (size_t i = 0; absent[i].pmu; i++)
		if (!strcmp(absent[i].pmu, pmu) && !strcmp(absent[i].field, field))
			return 1;
	return 0;
}

/* Filter register r's value for an event given no filter, by the table's defaults. */
static uint32_t table_default(const struct nv_cspmu_desc *d, unsigned r)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < d->ndflt; i++)
		if (d->dflt[i].reg == r && !(v & d->dflt[i].test))
			v |= d->dflt[i].set;
	return v;
}

static unsigned ncompared;

/* Compare one table entry with the extract; returns the mismatches, each printed. */
static unsigned check_cspmu(const struct nv_cspmu_desc *d)
{
	unsigned bad = 0;
	char prodid[16], pat[48], evs[48], fmts[48];
	snprintf(prodid, sizeof(prodid), "0x%x", d->match);
	const struct row *m = find(NULL, "match", prodid);
	if (!m) {
		printf("oracle: %s %s: no Linux match entry %s\n", d->soc, d->unit, prodid);
		return 1;
	}
	col(m, 0, pat, sizeof(pat));
	col(m, 1, evs, sizeof(evs));
	col(m, 2, fmts, sizeof(fmts));
	char want[64];
	snprintf(want, sizeof(want), "%s_%%u%s", d->pmu, d->per_rc ? "_rc_%u" : "");
	if (strcmp(want, pat)) {
		printf("oracle: %s: name %s, Linux %s\n", d->pmu, want, pat);
		bad++;
	}
	/* every table event: Linux has it with the same code */
	for (unsigned i = 0; i < d->nevents; i++) {
		const struct row *r = find(evs, "event", d->events[i].name);
		ncompared++;
		if (!r || strtoull(r->val, NULL, 0) != d->events[i].event) {
			printf("oracle: %s/%s/: table 0x%llx, Linux %s\n", d->pmu, d->events[i].name,
			       (unsigned long long)d->events[i].event, r ? r->val : "(absent)");
			bad++;
		}
	}
	/* every Linux event: the table has it */
	for (int k = 0; k < nrows; k++) {
		if (strcmp(rows[k].group, evs) || strcmp(rows[k].kind, "event"))
			continue;
		unsigned i = 0;
		while (i < d->nevents && strcmp(d->events[i].name, rows[k].name))
			i++;
		if (i == d->nevents) {
			printf("oracle: %s: Linux event %s=%s missing from the table\n", d->pmu, rows[k].name, rows[k].val);
			bad++;
		}
	}
	/* every table field: Linux's format lands where the table puts it */
	uint32_t fmask[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < d->nfields; i++) {
		const struct ev_field *f = &d->fields[i];
		const struct row *r = find(fmts, "format", f->name);
		ncompared++;
		unsigned word, lo, hi, reg, shift;
		if (!r) {
			printf("oracle: %s: field %s not in Linux's %s\n", d->pmu, f->name, fmts);
			bad++;
			continue;
		}
		format_bits(r->val, &word, &lo, &hi);
		land(d, word, lo, &reg, &shift);
		if (reg != f->reg || shift != f->shift || hi - lo + 1 != f->bits) {
			printf("oracle: %s: field %s reg %u [%u+%u], Linux %s (reg %u [%u+%u])\n", d->pmu, f->name, f->reg,
			       f->shift, f->bits, r->val, reg, shift, hi - lo + 1);
			bad++;
		}
		if (f->reg >= 1 && f->reg <= 2 && f->bits < 32)
			fmask[f->reg] |= ((1u << f->bits) - 1) << f->shift;
		else if (f->reg >= 1 && f->reg <= 2)
			fmask[f->reg] = 0xFFFFFFFFu;
	}
	/* every Linux format field: the table has it (or it is a listed absence) */
	for (int k = 0; k < nrows; k++) {
		if (strcmp(rows[k].group, fmts) || strcmp(rows[k].kind, "format"))
			continue;
		unsigned i = 0;
		while (i < d->nfields && strcmp(d->fields[i].name, rows[k].name))
			i++;
		if (i < d->nfields)
			continue;
		if (allowed_absent(d->pmu, rows[k].name)) {
			unsigned word, lo, hi, reg, shift;
			format_bits(rows[k].val, &word, &lo, &hi);
			land(d, word, lo, &reg, &shift);
			if (reg >= 1 && reg <= 2)
				fmask[reg] |= ((1u << (hi - lo + 1)) - 1) << shift;
			printf("oracle: %s: Linux field %s (%s) not in the table: listed absence\n", d->pmu, rows[k].name,
			       rows[k].val);
			continue;
		}
		printf("oracle: %s: Linux field %s (%s) missing from the table\n", d->pmu, rows[k].name, rows[k].val);
		bad++;
	}
	/* filter masks and the defaults of a filter left at 0 */
	static const char *const mk[3] = { NULL, "filter_mask", "filter2_mask" };
	static const char *const dk[3] = { NULL, "filter_default_val", "filter2_default_val" };
	for (unsigned r = 1; r <= 2; r++) {
		uint64_t lm = keyval(m, mk[r]), ld = keyval(m, dk[r]);
		uint32_t td = table_default(d, r);
		ncompared += 2;
		/* the fields land inside what Linux lets through (UCF's 0xFFF also passes bits 3-7,
		 * which ucf_pmu_event_filter then drops; the field checks above cover the rest) */
		if ((fmask[r] & ~lm) || (lm && !fmask[r])) {
			printf("oracle: %s: filter register %u fields 0x%x outside Linux %s 0x%llx\n", d->pmu, r, fmask[r], mk[r],
			       (unsigned long long)lm);
			bad++;
		}
		if (td != ld) {
			printf("oracle: %s: filter register %u default 0x%x, Linux %s 0x%llx\n", d->pmu, r, td, dk[r],
			       (unsigned long long)ld);
			bad++;
		}
	}
	return bad;
}

static void test_every_cspmu_entry_matches_linux(void **state)
{
	(void)state;
	unsigned bad = 0, n = 0;
	ncompared = 0;
	for (unsigned i = 0; nv_cspmu_entry(i); i++, n++)
		bad += check_cspmu(nv_cspmu_entry(i));
	/* Linux's fallback entry: an NVIDIA PMIIDR of no known product */
	const struct nv_cspmu_desc *g = nv_cspmu_match(0x0000036Bu);
	assert_int_equal(g->match, 0);
	bad += check_cspmu(g);
	n++;
	/* every Linux match entry is served by the table */
	for (int k = 0; k < nrows; k++) {
		if (strcmp(rows[k].kind, "match"))
			continue;
		uint32_t id = (uint32_t)strtoul(rows[k].name, NULL, 0);
		const struct nv_cspmu_desc *d = nv_cspmu_match(id | 0x36Bu);
		if (d->match != id) {
			printf("oracle: Linux match 0x%x has no table entry\n", id);
			bad++;
		}
	}
	printf("oracle: %u NVIDIA CoreSight PMU entries, %u facts compared with Linux nvidia_cspmu.c, %u mismatches\n",
	       n, ncompared, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(n, 9);
	assert_true(ncompared >= 170);
}

/* ---- ACPI-namespace PMUs ---------------------------------------------------------------- */

static const char *linux_file(const struct nv_apmu_type *t)
{
	return t == &nv_cmem_latency_type ? "nvidia_t410_cmem_latency_pmu.c" : "nvidia_t410_c2c_pmu.c";
}

/* Linux's event group of a peer (nvidia_t410_c2c_pmu.c attribute groups per peer type). */
static const char *peer_group(const struct nv_apmu_type *t, unsigned peer)
{
	if (t == &nv_cmem_latency_type)
		return "cmem_lat_pmu_events";
	return peer == NV_PEER_GPU ? "nv_c2c_pmu_gpu_events" : peer == NV_PEER_CPU ? "nv_c2c_pmu_cpu_events"
									: "nv_c2c_pmu_cxlmem_events";
}

static const char *format_group(const struct nv_apmu_type *t, unsigned peer)
{
	if (t == &nv_cmem_latency_type)
		return "cmem_lat_pmu_formats";
	return peer == NV_PEER_GPU ? "nv_c2c_pmu_gpu_formats" : "nv_c2c_pmu_formats";
}

static unsigned check_apmu(const struct nv_apmu_type *t)
{
	unsigned bad = 0;
	const struct row *a = find(NULL, "acpi", t->hid);
	if (!a) {
		printf("oracle: %s: _HID not in Linux\n", t->hid);
		return 1;
	}
	char pat[48], want[64];
	col(a, 0, pat, sizeof(pat));
	snprintf(want, sizeof(want), "%s_%%u", t->pmu);
	if (strcmp(pat, want) || keyval(a, "nr_inst") != t->ninst || strcmp(a->file, linux_file(t))) {
		printf("oracle: %s: %s %u instances, Linux %s\n", t->hid, want, t->ninst, a->rest);
		bad++;
	}
	/* the peers a device of this type can have */
	unsigned peers[2], np = 0;
	if (t == &nv_cmem_latency_type)
		peers[np++] = NV_PEER_NONE;
	else if (t->dsd_peers)
		peers[np++] = NV_PEER_GPU, peers[np++] = NV_PEER_CPU;
	else
		peers[np++] = t->fixed_peer;
	for (unsigned p = 0; p < np; p++) {
		const char *grp = peer_group(t, peers[p]);
		for (unsigned i = 0; i < t->nev; i++) {
			const struct nv_apmu_event *e = &t->ev[i];
			const struct row *r = find(grp, "event", e->name);
			int shown = (e->peers & peers[p]) != 0;
			ncompared++;
			if (shown != (r != NULL) || (r && strtoull(r->val, NULL, 0) != e->id)) {
				printf("oracle: %s %s: event %s 0x%x shown %d, Linux %s: %s\n", t->hid, grp, e->name, e->id,
				       shown, grp, r ? r->val : "(absent)");
				bad++;
			}
		}
		for (int k = 0; k < nrows; k++) {
			if (strcmp(rows[k].group, grp) || strcmp(rows[k].kind, "event"))
				continue;
			unsigned i = 0;
			while (i < t->nev && strcmp(t->ev[i].name, rows[k].name))
				i++;
			if (i == t->nev) {
				printf("oracle: %s: Linux event %s missing from the table\n", t->hid, rows[k].name);
				bad++;
			}
		}
		/* format fields: the event field's width, and every filter field of the peer's group */
		const char *fg = format_group(t, peers[p]);
		for (int k = 0; k < nrows; k++) {
			if (strcmp(rows[k].group, fg) || strcmp(rows[k].kind, "format"))
				continue;
			unsigned word, lo, hi, i = 0;
			format_bits(rows[k].val, &word, &lo, &hi);
			ncompared++;
			while (i < t->nfields && strcmp(t->fields[i].name, rows[k].name))
				i++;
			if (i == t->nfields || t->fields[i].reg != word || t->fields[i].shift != lo ||
			    t->fields[i].bits != hi - lo + 1) {
				printf("oracle: %s: Linux format %s %s %s\n", t->hid, rows[k].name, rows[k].val,
				       i == t->nfields ? "missing from the table" : "differs");
				bad++;
			}
		}
	}
	/* every table field is in Linux's format of some peer of the type */
	for (unsigned i = 0; i < t->nfields; i++) {
		int seen = 0;
		for (unsigned p = 0; p < np; p++)
			seen |= find(format_group(t, peers[p]), "format", t->fields[i].name) != NULL;
		if (!seen) {
			printf("oracle: %s: field %s not in Linux\n", t->hid, t->fields[i].name);
			bad++;
		}
	}
	return bad;
}

static void test_every_acpi_pmu_matches_linux(void **state)
{
	(void)state;
	const char *hid[8];
	uint32_t n = nv_apmu_hids(hid, 8);
	unsigned bad = 0;
	ncompared = 0;
	for (uint32_t i = 0; i < n; i++)
		bad += check_apmu(nv_apmu_for_hid(hid[i]));
	/* every Linux _HID has a type */
	for (int k = 0; k < nrows; k++)
		if (!strcmp(rows[k].kind, "acpi") && !nv_apmu_for_hid(rows[k].name)) {
			printf("oracle: Linux _HID %s has no type\n", rows[k].name);
			bad++;
		}
	printf("oracle: %u NVIDIA ACPI PMU types, %u facts compared with Linux, %u mismatches\n", n, ncompared, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(n, 4);
	assert_true(ncompared >= 40);
}

/* A wrong row must fail: mutated copies of table entries are caught. */
static void test_oracle_can_fail(void **state)
{
	(void)state;
	const struct nv_cspmu_desc *ucf = nv_cspmu_match(0x2CF2036Bu);
	assert_string_equal(ucf->unit, "UCF");
	assert_int_equal(check_cspmu(ucf), 0);

	struct nv_cspmu_event ev[64];
	struct ev_field fl[EV_MAX_FIELDS];
	struct nv_cspmu_desc d = *ucf;
	memcpy(ev, ucf->events, ucf->nevents * sizeof(ev[0]));
	d.events = ev;
	ev[8].event ^= 0x10;                              /* a wrong code */
	assert_int_equal(check_cspmu(&d), 1);
	ev[8].event ^= 0x10;
	d.nevents--;                                      /* a Linux event dropped */
	assert_int_equal(check_cspmu(&d), 1);
	d.nevents++;
	memcpy(fl, ucf->fields, ucf->nfields * sizeof(fl[0]));
	d.fields = fl;
	fl[2].shift = 3;                                  /* src_loc_cpu at the wrong bit */
	assert_true(check_cspmu(&d) >= 1);
	fl[2].shift = 1;
	d.pmu = "nvidia_ucf";                             /* a wrong name */
	assert_int_equal(check_cspmu(&d), 1);

	struct nv_apmu_type t = nv_nvlink_c2c_type;
	struct nv_apmu_event aev[NV_APMU_MAX_EVENTS];
	memcpy(aev, t.ev, t.nev * sizeof(aev[0]));
	t.ev = aev;
	assert_int_equal(check_apmu(&t), 0);
	aev[3].peers |= NV_PEER_CPU;                      /* a write event shown for a CPU peer */
	assert_int_equal(check_apmu(&t), 1);
	aev[3].peers &= (uint8_t)~NV_PEER_CPU;
	aev[6].id = 0x7;                                  /* out_rd_req with out_wr_cum_outs's code */
	assert_int_equal(check_apmu(&t), 2);              /* wrong for the GPU and the CPU peer */
	aev[6].id = 0x6;
	t.ninst = 12;
	assert_int_equal(check_apmu(&t), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_cspmu_entry_matches_linux),
		cmocka_unit_test(test_every_acpi_pmu_matches_linux),
		cmocka_unit_test(test_oracle_can_fail),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
