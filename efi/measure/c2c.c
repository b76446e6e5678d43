/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/c2c.h"
#include "efi/measure/c2c_group.h"
#include "efi/measure/measure.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/c2c.h"
#include "pmu/metrics.h"

#define PS_PER_NS 1000u
#define C2C_TIMEOUT_S 5u       /* a partner silent this long is gone: the pair is named failed */
#define C2C_MAX_ROUNDS 10000u  /* c2c_rounds' limit (config.c) */

int c2c_plan(const struct platform *p, const struct efiperf_config *cfg)
{
	(void)p;
	if (!cfg->c2c)
		return 0;
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	int n = cpus_selected(cpus);
	if (n >= 2 && n <= C2C_MAX_CPUS)
		return 0;
	rep_error("config", "%s: c2c = on: %s, and cpus = '%s' (%s) selects %d CPU(s)%s", cfg->origin[CFG_C2C],
		  n < 2 ? "a pair needs two CPUs" : "the matrix is limited to 64 CPUs (one window per pair)",
		  cfg->cpus, cfg->origin[CFG_CPUS], n, n < 2 ? ": set cpus = all or a list of two or more" : "");
	return -1;
}

struct pair_arg { struct c2c_run run; int initiator; };

static uint64_t pair_kernel(void *arg)
{
	struct pair_arg *a = arg;
	return a->initiator ? c2c_initiator(&a->run) : c2c_responder(&a->run);
}

/* Package, core and L3 domain of selected CPU i. x86: the APIC ID (MP services ProcessorId)
 * shifted past the SMT bits (threads_per_core) and past the bits of the CPUs sharing the
 * last-level cache (its CPUID sharing count), SDM Vol.2A CPUID leaf 04H EAX[25:14] and leaf 0BH.
 * Elsewhere the package (Arm: from the PPTT, efi/mp.c) stands for the L3 domain, and the core
 * is the PPTT's core where there is one (threads of a core are then `smt`), else the CPU. */
static struct c2c_cpu topo_of(const struct platform *p, const struct window_cpu *c, int i, int *l3_known)
{
	struct c2c_cpu t = { .cpu = c->cpu, .node = cpus_node(i), .core = c->cpu, .l3 = 0 };
	const struct cache_desc *llc = p->cpu.ncaches ? &p->cpu.cache[p->cpu.ncaches - 1] : NULL;
	*l3_known = 0;
	if (p->mp.cpu) {
		uint64_t id = p->mp.cpu[c->cpu].proc_id;
		t.package = p->mp.cpu[c->cpu].package;
		t.l3 = t.package;
		if (p->mp.topo)   /* PPTT core ids are unique within a package only */
			t.core = p->mp.topo[c->cpu].core;
		if (p->cpu.arch && p->cpu.arch[0] == 'x') {
			t.core = (uint32_t)(id >> c2c_apic_shift(p->cpu.threads_per_core));
			if (llc && llc->sharing) {
				t.l3 = (uint32_t)(id >> c2c_apic_shift(llc->sharing));
				*l3_known = 1;
			}
		}
	}
	return t;
}

static void matrix_json(struct json *j, const char *key, const uint64_t *m, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++) {
		json_arr(j, NULL);
		for (int k = 0; k < n; k++)
			json_milli(j, NULL, m[i * n + k]);
		json_close(j);
	}
	json_close(j);
}

static void summary_json(struct json *j, const char *name, const struct c2c_summary *s)
{
	json_obj(j, name);
	json_u64(j, "pairs", s->pairs);
	if (s->pairs) {
		json_milli(j, "min_ns", s->min);
		json_milli(j, "median_ns", s->median);
	}
	json_close(j);
}

/* The console table: the median matrix in whole ns, one row per CPU. */
static void matrix_text(const struct c2c_cpu *t, int n, const uint64_t *m)
{
	char line[16 + 6 * C2C_MAX_CPUS];
	struct strbuf sb;
	sb_init(&sb, line, sizeof(line));
	sb_printf(&sb, "            ns  ");
	for (int k = 0; k < n; k++)
		sb_printf(&sb, "%5u", t[k].cpu);
	rep_line("%s", line);
	for (int i = 0; i < n; i++) {
		sb_init(&sb, line, sizeof(line));
		sb_printf(&sb, "            %4u", t[i].cpu);
		for (int k = 0; k < n; k++)
			sb_printf(&sb, "%5llu", (unsigned long long)((m[i * n + k] + PS_PER_NS / 2) / PS_PER_NS));
		rep_line("%s", line);
	}
}

/* The matrix's working arrays: from the pool for the run of measure_c2c (about 320 KiB at
 * C2C_MAX_CPUS and C2C_MAX_ROUNDS), not in the image. */
struct c2c_pair_q { uint32_t a, b; int masked, ok; hw_status smi_st; uint64_t smi; };
struct c2c_work {
	struct window_cpu sel[WINDOW_MAX_CPUS];
	struct c2c_cpu topo[C2C_MAX_CPUS];
	uint64_t mmin[C2C_MAX_CPUS * C2C_MAX_CPUS], mmed[C2C_MAX_CPUS * C2C_MAX_CPUS];
	uint64_t scratch[C2C_MAX_CPUS * (C2C_MAX_CPUS - 1) / 2];
	uint64_t ticks[C2C_MAX_ROUNDS], ps[C2C_MAX_ROUNDS];
	struct c2c_pair_q pq[C2C_MAX_CPUS * (C2C_MAX_CPUS - 1) / 2];
};

static int c2c_matrix(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, struct c2c_work *wk)
{
	struct window_cpu *sel = wk->sel;
	struct c2c_cpu *topo = wk->topo;
	uint64_t *mmin = wk->mmin, *mmed = wk->mmed, *scratch = wk->scratch, *ticks = wk->ticks, *ps = wk->ps;
	struct c2c_pair_q *pq = wk->pq;
	int n = cpus_selected(sel);
	if (n < 2 || n > C2C_MAX_CPUS)
		return -1;   /* c2c_plan named it */
	int l3_known = 1;
	for (int i = 0; i < n; i++) {
		int k;
		topo[i] = topo_of(p, &sel[i], i, &k);
		l3_known &= k;
	}
	struct cpu_place place;
	void *page = cpus_alloc(0, C2C_LINE_BYTES, &place);
	if (!page) {
		rep_error("c2c", "cannot allocate the shared line");
		return -1;
	}
	uint64_t *line = page;   /* page-aligned, so C2C_LINE_BYTES-aligned */
	uint32_t rounds = cfg->c2c_rounds < C2C_MAX_ROUNDS ? cfg->c2c_rounds : C2C_MAX_ROUNDS;
	rep_line("c2c:        CAS ping-pong, %d CPUs, %u rounds x %u round trips per pair, interrupts masked on both",
		 n, rounds, cfg->c2c_trips);
	int npairs = 0, failed = 0;
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++) {
			*line = 0;
			struct pair_arg args[2];
			args[0] = (struct pair_arg){ { .line = line, .rounds = rounds, .trips = cfg->c2c_trips, .timer = arch_timer_read,
						       .timeout_ticks = p->timer_hz * C2C_TIMEOUT_S, .round_ticks = ticks }, 1 };
			args[1] = args[0];
			args[1].initiator = 0;
			args[1].run.round_ticks = NULL;
			struct window_cpu wc[2] = { { .cpu = sel[i].cpu, .arg = &args[0] }, { .cpu = sel[k].cpu, .arg = &args[1] } };
			struct window_spec spec = { .kernel = pair_kernel, .cpus = wc, .ncpus = 2, .mask_interrupts = 1 };
			struct window_result w;
			int ran = window_run(hw, &spec, &w) == 0;
			int ok = ran && args[0].run.status == 0 && args[1].run.status == 0 &&
				 wc[0].ret == 2ull * rounds * cfg->c2c_trips;
			/* one line transfer = round trip / 2, in ps */
			for (uint32_t r = 0; ok && r < rounds; r++)
				ps[r] = metric_ticks_to_ns(ticks[r] * PS_PER_NS, p->timer_hz) / (2ull * cfg->c2c_trips);
			uint64_t lo = ~0ull;
			for (uint32_t r = 0; ok && r < rounds; r++)
				lo = ps[r] < lo ? ps[r] : lo;
			uint64_t med = ok ? (rounds <= METRIC_MAX_OUTLIER_N ? metric_median(ps, (int)rounds)
									    : (c2c_sort_u64(ps, rounds), ps[rounds / 2])) : 0;
			mmin[i * n + k] = mmin[k * n + i] = ok ? (lo ? lo : 1) : 0;
			mmed[i * n + k] = mmed[k * n + i] = ok ? (med ? med : 1) : 0;
			pq[npairs++] = (struct c2c_pair_q){ sel[i].cpu, sel[k].cpu, w.masked, ok, w.smi_status, w.smi_delta };
			if (!ok) {
				failed++;
				rep_error("c2c", "CPUs %u and %u: %s", sel[i].cpu, sel[k].cpu,
					  !ran ? "a CPU did not run the window" : "a CAS wait timed out (the partner never answered)");
			}
		}
	for (int i = 0; i < n; i++)
		mmin[i * n + i] = mmed[i * n + i] = 0;
	struct c2c_summary rel[C2C_NREL], node[C2C_NNODE];
	c2c_summarise(topo, n, mmed, scratch, rel, node);

	struct json *j = rep_begin("c2c");
	json_str(j, "method", "CAS ping-pong on one cache line, round trip / 2");
	json_u64(j, "rounds", rounds);
	json_u64(j, "trips_per_round", cfg->c2c_trips);
	json_bool(j, "emulated", p->cpu.virtual_machine);
	if (p->cpu.hypervisor[0])
		json_str(j, "hypervisor", p->cpu.hypervisor);
	json_str(j, "package_from", p->mp.package_source ? p->mp.package_source : "none");
	json_str(j, "l3_domain_from", l3_known ? p->cpu.cache_source : "package (the CPU does not say which CPUs share its last-level cache)");
	measure_place_json(j, &place, line);
	json_arr(j, "cpus");
	for (int i = 0; i < n; i++) {
		json_obj(j, NULL);
		json_u64(j, "cpu", topo[i].cpu);
		json_u64(j, "package", topo[i].package);
		json_u64(j, "core", topo[i].core);
		json_u64(j, "l3", topo[i].l3);
		if (topo[i].node >= 0)
			json_u64(j, "node", (uint64_t)topo[i].node);
		else
			json_null(j, "node");
		json_close(j);
	}
	json_close(j);
	matrix_json(j, "min_ns", mmin, n);
	matrix_json(j, "median_ns", mmed, n);
	json_arr(j, "pairs");
	int all_masked = 1;
	for (int q = 0; q < npairs; q++) {
		json_obj(j, NULL);
		json_u64(j, "a", pq[q].a);
		json_u64(j, "b", pq[q].b);
		json_bool(j, "ok", pq[q].ok);
		json_bool(j, "interrupts_masked", pq[q].masked);
		if (pq[q].smi_st == HW_OK)
			json_u64(j, "smi_delta", pq[q].smi);
		else
			json_str(j, "smi_delta", hw_status_name(pq[q].smi_st));
		json_close(j);
		all_masked &= pq[q].masked;
	}
	json_close(j);
	/* the windows' SMIs together: a count when every window read it, else why not */
	uint64_t smi = 0;
	hw_status smi_st = HW_OK;
	for (int q = 0; q < npairs; q++) {
		smi += pq[q].smi;
		if (pq[q].smi_st != HW_OK)
			smi_st = pq[q].smi_st;
	}
	if (smi_st == HW_OK)
		json_u64(j, "smi_delta", smi);
	else
		json_str(j, "smi_delta", hw_status_name(smi_st));
	json_obj(j, "by_relation");
	for (int r = C2C_SMT; r < C2C_NREL; r++)
		summary_json(j, c2c_rel_name((enum c2c_rel)r), &rel[r]);
	json_close(j);
	json_obj(j, "by_node");
	for (int r = 0; r < C2C_NNODE; r++)
		summary_json(j, c2c_node_rel_name((enum c2c_node_rel)r), &node[r]);
	json_close(j);
	json_bool(j, "interrupts_masked", all_masked);
	json_u64(j, "failed_pairs", (uint64_t)failed);
	rep_end();
	matrix_text(topo, n, mmed);
	for (int r = C2C_SMT; r < C2C_NREL; r++)
		if (rel[r].pairs) {
			char mn[32], md[32];
			fmt_milli(mn, sizeof(mn), rel[r].min);
			fmt_milli(md, sizeof(md), rel[r].median);
			rep_line("            %-8s %3u pairs: min %s ns, median %s ns", c2c_rel_name((enum c2c_rel)r), rel[r].pairs, mn, md);
		}
	pages_free(page, C2C_LINE_BYTES);
	return failed ? -1 : 0;
}

int measure_c2c(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->c2c)
		return 0;
	struct c2c_work *wk = measure_work(sizeof(*wk), "c2c");
	if (!wk)
		return -1;
	int rc = c2c_matrix(hw, p, cfg, wk);
	pool_free(wk);
	return rc;
}
