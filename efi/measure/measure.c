/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/measure.h"
#include "arch/regs/arm_sysreg.h"
#include "pmu/core/arm_topdown.h"
#include "pmu/core/core_mux.h"
#include "efi/measure/known_loop.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/out/pmu_json.h"
#include "arch/arch.h"
#include "pmu/metrics.h"
#include "efi/measure/window.h"
#include "efi/pages.h"
#include "efi/measure/shape.h"
#include "efi/measure/corepmu_run.h"
#include "efi/cpus.h"
#include "efi/mp.h"

#define PAGE_BYTES 4096u
#define FILL_PATTERN 0x9E3779B97F4A7C15ull  /* any non-repeating 64-bit pattern */
/* Arm PMUv3 with more events than counters: each group runs this many copy windows a pass. */
#define ARM_MUX_ROUNDS 2

/* Arm PMUv3 with topdown = on: the Neoverse TopDown L1 record of the boot CPU's counters in
 * this window, each item a value or why it is absent (pmu/core/arm_topdown.h). Multiplexed, the
 * counts are the scaled ones and input_groups says how many groups the inputs came from. */
static void arm_topdown_record(const struct core_set *s, uint32_t cpu, const char *kernel, uint32_t pass,
			       enum cfg_topdown topdown)
{
	struct arm_td_in in = { .slots = s->slots, .slots_why = s->slots_why[0] ? s->slots_why : NULL,
				.f = arm_td_formula_for(s->midr) };
	uint32_t groups = core_mux_topdown_in(s, &in);   /* multiplexed: the scaled counts */
	struct arm_td_out o;
	arm_topdown(&in, &o);
	struct json *j = rep_begin("topdown");
	json_str(j, "kernel", kernel);
	json_u64(j, "pass", pass);
	json_u64(j, "cpu", cpu);
	json_str(j, "pmu", "armv8_pmuv3");
	json_str(j, "method", "Neoverse TopDown L1 (Arm Telemetry Solution)");
	json_str(j, "formula", in.f->core);
	json_str(j, "formula_source", in.f->source);
	if (topdown == CFG_TOPDOWN_L2)   /* topdown = l2 (pmu/core/amd_pipeline.h's level 2 is AMD's) */
		json_str(j, "level2_why", "Arm: Neoverse TopDown level 1 only; topdown = l2 counts as on");
	/* valid: every item has a value */
	int td_valid = 1;
	for (int k = 0; k < ATD_NITEM; k++)
		td_valid &= o.valid[k];
	json_bool(j, "valid", td_valid);
	if (!td_valid)
		json_str(j, "why", in.f->no_l1 ? in.f->no_l1 : !o.slots ? "slots per cycle unknown: no item can be computed"
				: "an input event was not counted: each item says which");
	if (o.slots) {
		json_u64(j, "slots", o.slots);
		json_str(j, "slots_source", o.slots_source);
	} else {
		json_null(j, "slots");
		json_str(j, "slots_why", in.slots_why ? in.slots_why : "unknown");
	}
	if (s->ngroups > 1) {   /* multiplexed: counts are scaled; across groups a ratio is an estimate */
		json_u64(j, "input_groups", groups);
		if (groups > 1)
			json_str(j, "input_groups_why", "the inputs were counted in different multiplexed groups: "
				 "their ratios come from scaled counts of different windows, less exact than within one group");
	}
	json_obj(j, "counts");
	for (int k = 0; k < ATD_NINPUT; k++)
		if (in.have & (1u << k))
			json_u64(j, arm_td_input_name[k], in.count[k]);
		else
			json_null(j, arm_td_input_name[k]);
	json_close(j);
	for (int k = 0; k < ATD_NITEM; k++)
		td_item_json(j, arm_td_item_name[k], o.valid[k], o.milli_pct[k], o.why[k]);
	rep_end();
}

static void counters_text(const struct core_set *s)
{
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		if (c->state == CTR_COUNTED)
			rep_line("            %-26s %llu %s", c->event, (unsigned long long)c->delta, c->unit);
		else
			rep_once(NULL, "            %-26s %s%s%s", c->event, ctr_state_name(c->state), c->why[0] ? ": " : "", c->why);
	}
}

/* The copy runs in chunks so the boot CPU can tick its counters between them (IBS polling,
 * TopDown resets: Linux tools/perf/Documentation/topdown.txt asks a program reading the
 * metrics with RDPMC to reset them regularly, "as in every few seconds"). */
#define COPY_CHUNK_BYTES (1u << 20)

/* The copy kernel's arguments for one CPU: its own buffers, and a tick between chunks. */
struct copy_arg {
	uint64_t *src, *dst;
	uint64_t bytes;
	void (*tick)(void *ctx);
	void *tick_ctx;
	struct cpu_place place;   /* where src and dst were placed (NUMA node, local or not) */
};

static uint64_t copy_kernel(void *p)
{
	struct copy_arg *a = p;
	for (uint64_t off = 0; off < a->bytes; off += COPY_CHUNK_BYTES) {
		uint64_t n = a->bytes - off < COPY_CHUNK_BYTES ? a->bytes - off : COPY_CHUNK_BYTES;
		arch_copy((char *)a->dst + off, (const char *)a->src + off, n);
		if (a->tick)
			a->tick(a->tick_ctx);
	}
	return 0;
}

/* Counters attached to a copy window: each CPU's x86 core PMU (started and stopped on its own
 * CPU around its kernel) and the boot CPU's fixed/PMUv3 set. On x86 the boot CPU's core PMU is
 * the one driver of the Intel fixed counters, IA32_FIXED_CTR_CTRL and IA32_PERF_GLOBAL_CTRL:
 * the set's counters are taken from it after the window (x86_fixed_from) and the set is not
 * programmed a second time. Elsewhere (Arm PMUv3) the set is started before the barrier opens
 * and stopped after every CPU finished. */
struct core_cpu { const struct hw *hw; struct corepmu *cp; };
struct core_window { const struct hw *hw; struct core_set *s; struct core_cpu *cpu; const struct corepmu *fixed_owner;
		     struct core_set *arm; /* Arm PMUv3 with more than one CPU: each CPU's own set */ };

/* The boot CPU's core PMU when it owns the fixed counters of set s, else NULL. */
static const struct corepmu *fixed_owner(const struct platform *p, const struct core_set *s)
{
	return p->corepmu && p->corepmu->backend == CP_INTEL_ARCH && s->pmu == &pmu_x86_fixed ? p->corepmu : NULL;
}

static void counters_start(void *ctx)
{
	struct core_window *c = ctx;
	if (c->s->pmu && !c->fixed_owner && !c->arm)
		c->s->pmu->start(c->hw, c->s);
}

static void counters_stop(void *ctx)
{
	struct core_window *c = ctx;
	if (c->s->pmu && !c->fixed_owner && !c->arm)
		c->s->pmu->stop(c->hw, c->s);
}

static void cpu_counters_start(void *ctx, int i)
{
	struct core_window *c = ctx;
	if (c->arm)
		c->arm[i].pmu->start(c->hw, &c->arm[i]);
	if (c->cpu[i].cp)
		corepmu_run_start(c->hw, c->cpu[i].cp);
}

static void cpu_counters_stop(void *ctx, int i)
{
	struct core_window *c = ctx;
	if (c->arm)
		c->arm[i].pmu->stop(c->hw, &c->arm[i]);
	if (c->cpu[i].cp)
		corepmu_run_stop(c->hw, c->cpu[i].cp);
}

/* Between copy chunks, on the CPU copying. */
static void counters_tick(void *ctx)
{
	struct core_cpu *c = ctx;
	if (c->cp)
		corepmu_run_tick(c->hw, c->cp);
}

struct arm_restore { const struct hw *hw; struct core_set *s; };

static void arm_restore_here(void *arg)
{
	struct arm_restore *r = arg;
	r->s->pmu->restore(r->hw, r->s);
}

/* Each CPU's Arm PMUv3 set put back on its own CPU (a PSCI job on an AP). */
static void arm_restore_all(const struct hw *hw, struct core_set *sets, const struct window_cpu *cpus, int n)
{
	for (int i = 0; sets && i < n; i++) {
		struct arm_restore r = { hw, &sets[i] };
		hw_status st = hw_run_on_cpu(hw, cpus[i].cpu, arm_restore_here, &r);
		if (st != HW_OK)
			rep_error("corepmu", "CPU %u: restoring the PMUv3 registers failed: %s", cpus[i].cpu,
				  mp_cpu_why(cpus[i].cpu) ? mp_cpu_why(cpus[i].cpu) : hw_status_name(st));
	}
}

static void free_args(struct copy_arg *args, int n, uint64_t size)
{
	for (int i = 0; i < n; i++) {
		pages_free(args[i].src, size);
		pages_free(args[i].dst, size);
	}
}

/* The APs' core PMU states (the boot CPU's belongs to the platform). */
static void free_cores(struct core_cpu *c, int n, const struct corepmu *boot)
{
	for (int i = 0; i < n; i++) {
		if (c[i].cp && c[i].cp != boot)
			FreePool(c[i].cp);
		c[i].cp = NULL;
	}
}

/* How quiet a window was: interrupts masked, and the SMIs it saw (or why they are unknown). */
void measure_quiet_json(struct json *j, const struct window_result *w)
{
	json_bool(j, "interrupts_masked", w->masked);
	if (w->smi_status == HW_OK)
		json_u64(j, "smi_delta", w->smi_delta);
	else
		json_str(j, "smi_delta", hw_status_name(w->smi_status));
}

void measure_place_json(struct json *j, const struct cpu_place *place, const void *buf)
{
	if (place->node >= 0)
		json_u64(j, "node", (uint64_t)place->node);
	else
		json_null(j, "node");
	json_bool(j, "node_local", place->local);
	json_hex(j, "buffer", (uint64_t)(uintptr_t)buf);
	measure_target_json(j, buf);
}

void measure_target_json(struct json *j, const void *buf)
{
	const struct pages_target *t = pages_target_of(buf);
	if (!t)
		return;
	json_obj(j, "cxl");
	json_str(j, "device", t->device);
	json_u64(j, "window", t->window);
	json_hex(j, "window_base", t->base);
	json_hex(j, "offset", (uint64_t)(uintptr_t)buf - t->base);
	json_close(j);
}

static int efi_window_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	return window_run(ctx, s, r);
}

void measure_ctx_efi(struct measure_ctx *ctx, const struct hw *hw, uint64_t timer_hz)
{
	*ctx = (struct measure_ctx){ .hw = hw, .win = { .run = efi_window_run, .ctx = (void *)hw }, .alloc = pool_zalloc,
				     .free = pool_free, .alloc_in = pages_alloc_in, .free_in = pages_free,
				     .clock = arch_timer_read, .timer_hz = timer_hz };
}

void *measure_work(uint64_t bytes, const char *where)
{
	void *w = pool_zalloc(bytes);
	if (!w)
		rep_error(where, "cannot allocate %llu bytes of working state", (unsigned long long)bytes);
	return w;
}

void measure_window_json(struct json *j, const char *key, const struct window_result *w, uint64_t hz)
{
	json_obj(j, key);
	json_u64(j, "ticks", w->span_ticks);
	json_u64(j, "ns", metric_ticks_to_ns(w->span_ticks, hz));
	measure_quiet_json(j, w);
	json_close(j);
}

/* The copy's working state: pool memory for the run of measure_copy (about 70 KiB; a core_set
 * is about 18 KB, too large for a firmware stack). */
struct copy_work {
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	struct copy_arg args[WINDOW_MAX_CPUS];
	struct core_cpu core_cpus[WINDOW_MAX_CPUS];
	uint64_t cpu_ticks[WINDOW_MAX_CPUS], cpu_gbps[WINDOW_MAX_CPUS];
	uint8_t outlier[WINDOW_MAX_CPUS];
	struct core_set s, acc;
};

static int copy_run(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg, struct copy_work *wk)
{
	struct window_cpu *cpus = wk->cpus;
	struct copy_arg *args = wk->args;
	struct core_cpu *core_cpus = wk->core_cpus;
	uint64_t *cpu_ticks = wk->cpu_ticks, *cpu_gbps = wk->cpu_gbps;
	uint8_t *outlier = wk->outlier;
	struct core_set *s = &wk->s, *acc = &wk->acc;
	uint64_t size = cfg->copy_size;
	int n = cpus_selected(cpus);
	for (int i = 0; i < n; i++) {
		struct cpu_place ps, pd;
		args[i] = (struct copy_arg){ .src = cpus_alloc(i, size, &ps), .dst = cpus_alloc(i, size, &pd), .bytes = size };
		args[i].place = (struct cpu_place){ ps.node, ps.local && pd.local };
		cpus[i].arg = &args[i];
		if (!args[i].src || !args[i].dst) {
			free_args(args, i + 1, size);
			rep_error("measurement.copy", "cannot allocate 2 x %llu bytes for each of %d CPUs (copy_size, cpus)",
				  (unsigned long long)size, n);
			return -1;
		}
		for (uint64_t k = 0; k < size / 8; k++) {
			args[i].src[k] = FILL_PATTERN * (k + 1 + (uint64_t)i);
			args[i].dst[k] = 0;
		}
	}
	/* STREAM counts a copy as read + write: bytes moved = 2 x buffer (STREAM's stream.c: Copy moves 2 arrays). */
	uint64_t moved = 2 * size, best_ns = ~0ull, total_ns = 0;
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "copy");
	json_u64(j, "cpus", (uint64_t)n);
	json_str(j, "window", "interrupts masked (TPL_HIGH_LEVEL on the boot CPU)");
	json_u64(j, "buffer_bytes", size);
	json_u64(j, "bytes_moved_per_pass", moved * (uint64_t)n);
	json_u64(j, "timer_hz", p->timer_hz);
	/* Each CPU's core PMU: the boot CPU's from the platform, the others probed on their CPU. */
	for (int i = 0; i < n; i++) {
		core_cpus[i] = (struct core_cpu){ hw, NULL };
		if (p->corepmu)
			core_cpus[i].cp = cpus[i].cpu == p->mp.bsp ? p->corepmu
					  : corepmu_setup_on(hw, cfg, p->timer_hz, cpus[i].cpu);
		args[i].tick = counters_tick;
		args[i].tick_ctx = &core_cpus[i];
	}
	struct window_spec spec = { .kernel = copy_kernel, .cpus = cpus, .ncpus = n, .mask_interrupts = 1 };
	struct window_result floor;
	window_noise_floor(hw, &spec, &floor);
	measure_window_json(j, "noise_floor", &floor, p->timer_hz);
	json_arr(j, "passes");
	rep_line("measure:    copy %llu bytes on each of %d CPU(s), %u passes, interrupts masked",
		 (unsigned long long)size, n, cfg->copy_passes);
	rep_line("            noise floor (empty window): %llu ns", (unsigned long long)metric_ticks_to_ns(floor.span_ticks, p->timer_hz));
	/* Arm PMUv3 on more than one CPU: each CPU starts and stops its own set around its kernel;
	 * arm[n..2n) gather each CPU's multiplexed slices. */
	int mux = p->core.pmu == &pmu_armv8_pmuv3 && p->core.ngroups > 1;
	uint32_t nslices = mux ? p->core.ngroups * ARM_MUX_ROUNDS : 1;
	struct core_set *arm = p->core.pmu == &pmu_armv8_pmuv3 && n > 1 ? AllocatePool(2 * n * sizeof(*arm)) : NULL;
	int arm_bsp = 0;
	for (int i = 0; i < n; i++)
		if (cpus[i].cpu == p->mp.bsp)
			arm_bsp = i;
	for (uint32_t pass = 0; pass < cfg->copy_passes; pass++) {
		*s = p->core;
		*acc = p->core;
		struct core_window cw = { hw, s, core_cpus, fixed_owner(p, s), arm };
		struct window_result w = { 0 };
		uint64_t span = 0, smi = 0;
		int masked = 1;
		core_mux_begin(acc, ARM_MUX_ROUNDS);
		for (int i = 0; arm && i < n; i++) {
			arm[n + i] = p->core;
			core_mux_begin(&arm[n + i], ARM_MUX_ROUNDS);
		}
		for (int i = 0; i < n; i++)
			cpu_ticks[i] = 0;
		/* One window, or with more events than counters one per group per round (slice k runs
		 * group k mod G), each slice's set started, stopped and restored (pmu/core/core_mux.h). */
		for (uint32_t k = 0; k < nslices; k++) {
			uint32_t g = core_mux_slice_group(&p->core, k);
			for (int i = 0; arm && i < n; i++) {
				arm[i] = p->core;
				arm[i].group = g;
			}
			*s = p->core;
			s->group = g;
			struct window_counters wc = { counters_start, counters_stop, &cw, cpu_counters_start, cpu_counters_stop };
			spec.counters = &wc;
			if (window_run(hw, &spec, &w) != 0) {
				json_close(j);
				rep_end();
				for (int i = 0; i < n; i++)
					if (core_cpus[i].cp)
						corepmu_run_restore(hw, core_cpus[i].cp, cpus[i].cpu);
				if (s->pmu && !arm)
					s->pmu->restore(hw, s);
				arm_restore_all(hw, arm, cpus, n);
				if (arm)
					FreePool(arm);
				free_cores(core_cpus, n, p->corepmu);
				free_args(args, n, size);
				rep_error("measurement.copy", "only %d of %d CPUs ran the window", w.ran, n);
				return -1;
			}
			span += w.span_ticks;
			smi += w.smi_delta;
			masked &= w.masked != 0;
			for (int i = 0; i < n; i++)
				cpu_ticks[i] += cpus[i].t1 - cpus[i].t0;
			uint64_t sns = metric_ticks_to_ns(w.span_ticks, p->timer_hz);
			for (int i = 0; i < n; i++)
				if (core_cpus[i].cp)
					corepmu_run_report(hw, core_cpus[i].cp, cpus[i].cpu, "copy", pass);
			if (cw.fixed_owner)
				x86_fixed_from(s, &cw.fixed_owner->ic);
			else if (arm) {
				arm_restore_all(hw, arm, cpus, n);
				for (int i = 0; i < n; i++)
					if (mux)
						core_mux_add(&arm[n + i], &arm[i], sns);
					else
						arm[n + i] = arm[i];
			} else if (s->pmu) {
				s->pmu->restore(hw, s);
				if (mux)
					core_mux_add(acc, s, sns);
			}
		}
		if (mux) {
			core_mux_finish(acc);
			for (int i = 0; arm && i < n; i++)
				core_mux_finish(&arm[n + i]);
			if (!arm)
				*s = *acc;
		}
		if (arm) {
			for (int i = 0; i < n; i++) {
				struct json *cj = rep_begin("core_counters");
				json_str(cj, "kernel", "copy");
				json_u64(cj, "pass", pass);
				json_u64(cj, "cpu", cpus[i].cpu);
				json_str(cj, "backend", arm[n + i].pmu ? arm[n + i].pmu->name : "none");
				core_set_json(cj, &arm[n + i]);
				rep_end();
			}
			*s = arm[n + arm_bsp];   /* the pass's counters are the boot CPU's */
		}
		w.span_ticks = span / nslices;   /* a multiplexed pass: the mean window, SMIs of them all */
		w.smi_delta = smi;
		w.masked = masked;
		for (int i = 0; i < n; i++)
			cpus[i].t0 = 0, cpus[i].t1 = cpu_ticks[i] / nslices;
		uint64_t ns = metric_ticks_to_ns(w.span_ticks, p->timer_hz);
		uint64_t gbps = metric_gbps_milli(moved * (uint64_t)n, ns);
		char rate[32];
		fmt_milli(rate, sizeof(rate), gbps);
		json_obj(j, NULL);
		json_u64(j, "pass", pass);
		json_u64(j, "ticks", w.span_ticks);
		json_u64(j, "ns", ns);
		json_milli(j, "gbps", gbps);
		if (mux)
			json_u64(j, "windows", nslices);   /* ticks, ns and per_cpu are the mean of these windows */
		measure_quiet_json(j, &w);
		/* A CPU far from the others (more than MEASURE_OUTLIER_PCT from the median rate) is flagged. */
		for (int i = 0; i < n; i++)
			cpu_gbps[i] = metric_gbps_milli(moved, metric_ticks_to_ns(cpus[i].t1 - cpus[i].t0, p->timer_hz));
		uint64_t median = 0;
		int nout = metric_outliers(cpu_gbps, n, MEASURE_OUTLIER_PCT, outlier, &median);
		json_arr(j, "per_cpu");
		for (int i = 0; i < n; i++) {
			uint64_t cns = metric_ticks_to_ns(cpus[i].t1 - cpus[i].t0, p->timer_hz);
			json_obj(j, NULL);
			json_u64(j, "cpu", cpus[i].cpu);
			json_u64(j, "ns", cns);
			json_milli(j, "gbps", cpu_gbps[i]);
			json_bool(j, "outlier", outlier[i]);
			measure_place_json(j, &args[i].place, args[i].src);
			json_close(j);
		}
		json_close(j);
		json_milli(j, "median_cpu_gbps", median);
		json_u64(j, "outliers", (uint64_t)nout);
		for (int i = 0; i < n && n > 1; i++)
			if (outlier[i]) {
				char r[32], md[32];
				fmt_milli(r, sizeof(r), cpu_gbps[i]);
				fmt_milli(md, sizeof(md), median);
				rep_line("            CPU %u: %s GB/s, more than %u%% from the median %s GB/s", cpus[i].cpu, r,
					 MEASURE_OUTLIER_PCT, md);
			}
		core_set_json(j, s);
		json_close(j);
		if (cfg->topdown && s->pmu == &pmu_armv8_pmuv3)
			arm_topdown_record(s, p->mp.bsp, "copy", pass, cfg->topdown);
		rep_line("  pass %u:   %llu ns, %s GB/s over %d CPU(s)", pass, (unsigned long long)ns, rate, n);
		if (mux)
			rep_line("            multiplexed: %u event groups x %d rounds = %u windows (mean above); counts scaled by window / group running time",
				 p->core.ngroups, ARM_MUX_ROUNDS, nslices);
		counters_text(s);
		if (ns < best_ns)
			best_ns = ns;
		total_ns += ns;
	}
	json_close(j);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad |= memcmp(args[i].src, args[i].dst, size) != 0;
	json_u64(j, "best_ns", best_ns);
	json_milli(j, "best_gbps", metric_gbps_milli(moved * (uint64_t)n, best_ns));
	json_milli(j, "mean_gbps", metric_gbps_milli(moved * (uint64_t)n * cfg->copy_passes, total_ns));
	json_bool(j, "verified", !bad);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(moved * (uint64_t)n, best_ns));
	rep_line("  best:     %s GB/s (bytes moved = 2 x buffer per CPU, STREAM convention)", rate);
	free_cores(core_cpus, n, p->corepmu);
	free_args(args, n, size);
	if (arm)
		FreePool(arm);
	if (bad) {
		rep_error("measurement.copy", "destination differs from source after the copy kernel");
		return -1;
	}
	return 0;
}

int measure_copy(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	struct copy_work *wk = measure_work(sizeof(*wk), "measurement.copy");
	if (!wk)
		return -1;
	int rc = copy_run(hw, p, cfg, wk);
	pool_free(wk);
	return rc;
}
