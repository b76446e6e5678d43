/* SPDX-License-Identifier: BSD-2-Clause */
/* The core counters on the copy windows as an attachment (efi/measure/copy_counters.h). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/copy_counters.h"
#include "efi/measure/corepmu_run.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "efi/out/pmu_json.h"
#include "efi/pages.h"
#include "efi/mp.h"
#include "pmu/core/core_mux.h"
#include "pmu/metrics.h"
#include "arch/arch.h"

struct core_cpu { const struct hw *hw; struct corepmu *cp; };

struct copy_counters {
	const struct hw *hw;
	const struct platform *p;
	const struct copy_request *req;
	int n, arm_bsp, mux, dirty;
	uint32_t slice;                    /* windows read so far */
	const struct corepmu *fixed_owner; /* the boot CPU's core PMU when it drives the fixed counters */
	uint64_t t0, sns;                  /* the window's start tick; its counting time (ns) */
	struct core_cpu *cpu;              /* n: each CPU's x86 core PMU (NULL: none) */
	struct core_set *arm;              /* Arm PMUv3 on several CPUs: [0, n) each CPU's, [n, 2n) its pass */
	struct core_set s, acc;            /* the boot CPU's set: this window's, the pass's multiplexed sum */
	struct core_set *pass_set;         /* passes: the boot CPU's set of each pass */
	struct copy_core_out out;
	struct attachment a;
	struct attach_list list;
};

static uint32_t pass_of(const struct copy_counters *c) { return c->slice / c->req->windows; }

/* Before the first window of a pass: the sets the pass's windows add into. */
static void pass_begin(struct copy_counters *c)
{
	c->acc = c->p->core;
	core_mux_begin(&c->acc, COPY_MUX_ROUNDS);
	for (int i = 0; c->arm && i < c->n; i++) {
		c->arm[c->n + i] = c->p->core;
		core_mux_begin(&c->arm[c->n + i], COPY_MUX_ROUNDS);
	}
}

/* Slice k of a pass counts group k mod G (pmu/core/core_mux.h): every set programs that group. */
static void slice_begin(struct copy_counters *c)
{
	uint32_t g = core_mux_slice_group(&c->p->core, c->slice % c->req->windows);
	for (int i = 0; c->arm && i < c->n; i++) {
		c->arm[i] = c->p->core;
		c->arm[i].group = g;
	}
	c->s = c->p->core;
	c->s.group = g;
}

static void cc_start(struct attachment *a, const struct hw *hw)
{
	struct copy_counters *c = a->self;
	if (c->slice % c->req->windows == 0)
		pass_begin(c);
	slice_begin(c);
	c->dirty = 1;
	if (c->s.pmu && !c->fixed_owner && !c->arm)
		c->s.pmu->start(hw, &c->s);
	c->t0 = arch_timer_read();
}

static void cc_stop(struct attachment *a, const struct hw *hw)
{
	struct copy_counters *c = a->self;
	c->sns = metric_ticks_to_ns(arch_timer_read() - c->t0, c->p->timer_hz);
	if (c->s.pmu && !c->fixed_owner && !c->arm)
		c->s.pmu->stop(hw, &c->s);
}

static void cc_cpu_start(struct attachment *a, const struct hw *hw, int i)
{
	struct copy_counters *c = a->self;
	if (c->arm)
		c->arm[i].pmu->start(hw, &c->arm[i]);
	if (c->cpu[i].cp)
		corepmu_run_start(hw, c->cpu[i].cp);
}

static void cc_cpu_stop(struct attachment *a, const struct hw *hw, int i)
{
	struct copy_counters *c = a->self;
	if (c->arm)
		c->arm[i].pmu->stop(hw, &c->arm[i]);
	if (c->cpu[i].cp)
		corepmu_run_stop(hw, c->cpu[i].cp);
}

static void tick(void *ctx, int i)
{
	struct copy_counters *c = ctx;
	if (c->cpu[i].cp)
		corepmu_run_tick(c->hw, c->cpu[i].cp);
}

struct arm_restore { const struct hw *hw; struct core_set *s; };

static void arm_restore_here(void *arg)
{
	struct arm_restore *r = arg;
	r->s->pmu->restore(r->hw, r->s);
}

/* Each CPU's Arm PMUv3 set put back on its own CPU (a PSCI job on an AP). */
static void arm_restore_all(struct copy_counters *c)
{
	for (int i = 0; c->arm && i < c->n; i++) {
		uint32_t cpu = c->req->cpu[i].cpu;
		struct arm_restore r = { c->hw, &c->arm[i] };
		hw_status st = hw_run_on_cpu(c->hw, cpu, arm_restore_here, &r);
		if (st != HW_OK)
			rep_error("corepmu", "CPU %u: restoring the PMUv3 registers failed: %s", cpu,
				  mp_cpu_why(cpu) ? mp_cpu_why(cpu) : hw_status_name(st));
	}
}

/* After the last window of a pass: the multiplexed sums scaled, the Arm per-CPU records, the
 * boot CPU's set kept for the copy's record. */
static void pass_end(struct copy_counters *c, uint32_t pass)
{
	if (c->mux) {
		core_mux_finish(&c->acc);
		for (int i = 0; c->arm && i < c->n; i++)
			core_mux_finish(&c->arm[c->n + i]);
		if (!c->arm)
			c->s = c->acc;
	}
	for (int i = 0; c->arm && i < c->n; i++) {
		core_set_record("copy", pass, c->req->cpu[i].cpu, &c->arm[c->n + i]);
	}
	if (c->arm)
		c->s = c->arm[c->n + c->arm_bsp];   /* the pass's counters are the boot CPU's */
	c->pass_set[pass] = c->s;
}

static int cc_read(struct attachment *a, const struct hw *hw)
{
	struct copy_counters *c = a->self;
	uint32_t pass = pass_of(c);
	for (int i = 0; i < c->n; i++)
		if (c->cpu[i].cp)
			corepmu_run_report(hw, c->cpu[i].cp, c->req->cpu[i].cpu, "copy", pass);
	if (c->fixed_owner) {
		x86_fixed_from(&c->s, &c->fixed_owner->ic);
	} else if (c->arm) {
		arm_restore_all(c);
		for (int i = 0; i < c->n; i++)
			if (c->mux)
				core_mux_add(&c->arm[c->n + i], &c->arm[i], c->sns);
			else
				c->arm[c->n + i] = c->arm[i];
	} else if (c->s.pmu) {
		c->s.pmu->restore(hw, &c->s);
		if (c->mux)
			core_mux_add(&c->acc, &c->s, c->sns);
	}
	c->dirty = 0;
	if (++c->slice % c->req->windows == 0)
		pass_end(c, pass);
	return 0;
}

/* Every exit: a window that did not finish left its counters programmed. */
static int cc_restore(struct attachment *a, const struct hw *hw)
{
	struct copy_counters *c = a->self;
	if (!c->dirty)
		return 0;
	for (int i = 0; i < c->n; i++)
		if (c->cpu[i].cp)
			corepmu_run_restore(hw, c->cpu[i].cp, c->req->cpu[i].cpu);
	if (c->s.pmu && !c->arm)
		c->s.pmu->restore(hw, &c->s);
	arm_restore_all(c);
	c->dirty = 0;
	return 0;
}

static const struct attachment_ops copy_core_ops = {
	.kind = "core_pmu", .start = cc_start, .stop = cc_stop, .cpu_start = cc_cpu_start,
	.cpu_stop = cc_cpu_stop, .read = cc_read, .restore = cc_restore,
};

/* Each CPU's core PMU: the boot CPU's from the platform, the others probed on their CPU. */
static void setup_cpus(struct copy_counters *c, const struct efiperf_config *cfg)
{
	for (int i = 0; i < c->n; i++) {
		uint32_t cpu = c->req->cpu[i].cpu;
		c->cpu[i] = (struct core_cpu){ c->hw, NULL };
		if (c->p->corepmu)
			c->cpu[i].cp = cpu == c->p->mp.bsp ? c->p->corepmu : corepmu_setup_on(c->hw, cfg, c->p->timer_hz, cpu);
		if (cpu == c->p->mp.bsp)
			c->arm_bsp = i;
	}
}

struct copy_counters *copy_counters_new(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
					struct copy_request *req)
{
	int n = req->n, arm = p->core.pmu == &pmu_armv8_pmuv3 && n > 1;
	struct copy_counters *c = pool_zalloc(sizeof(*c));
	if (!c) {
		rep_error("measurement.copy", "cannot allocate the core counters' state");
		return NULL;
	}
	*c = (struct copy_counters){ .hw = hw, .p = p, .req = req, .n = n,
				     .mux = p->core.pmu == &pmu_armv8_pmuv3 && p->core.ngroups > 1 };
	c->fixed_owner = p->corepmu && p->corepmu->backend == CP_INTEL_ARCH && p->core.pmu == &pmu_x86_fixed ? p->corepmu : NULL;
	c->cpu = pool_zalloc((uint64_t)n * sizeof(*c->cpu));
	c->pass_set = pool_zalloc((uint64_t)req->passes * sizeof(*c->pass_set));
	c->arm = arm ? pool_zalloc(2ull * (uint64_t)n * sizeof(*c->arm)) : NULL;
	if (!c->cpu || !c->pass_set || (arm && !c->arm)) {
		rep_error("measurement.copy", "cannot allocate the core counters of %d CPUs and %u passes", n, req->passes);
		copy_counters_free(c);
		return NULL;
	}
	setup_cpus(c, cfg);
	c->out = (struct copy_core_out){ .pass_set = c->pass_set, .mux = c->mux, .ngroups = p->core.ngroups,
					 .rounds = COPY_MUX_ROUNDS, .arm_topdown = cfg->topdown != CFG_TOPDOWN_OFF,
					 .topdown_l2 = cfg->topdown == CFG_TOPDOWN_L2, .bsp = p->mp.bsp };
	c->a = (struct attachment){ .ops = &copy_core_ops, .self = c };
	c->list = (struct attach_list){ .a = &c->a, .n = 1, .hw = hw };
	req->windows = c->mux ? p->core.ngroups * COPY_MUX_ROUNDS : 1;
	req->tick = tick;
	req->tick_ctx = c;
	req->counters = &c->list;
	req->core = &c->out;
	return c;
}

void copy_counters_free(struct copy_counters *c)
{
	if (!c)
		return;
	for (int i = 0; c->cpu && i < c->n; i++)
		if (c->cpu[i].cp && c->cpu[i].cp != c->p->corepmu)
			FreePool(c->cpu[i].cp);
	pool_free(c->cpu);
	pool_free(c->pass_set);
	pool_free(c->arm);
	pool_free(c);
}
