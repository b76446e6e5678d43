/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/pmu_json.h"
#include "efi/measure/corepmu_run.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "arch/arch.h"

#define ERR_BYTES 320   /* "core_events: event N: " + x86_event_parse's error (up to 288, closest names included) */

/* The core PMU keys of the config as corepmu_configure takes them; the windows tick between
 * chunks, so groups rotate (pmu/core/x86_mux.h). */
static struct corepmu_config config_of(const struct efiperf_config *cfg)
{
	return (struct corepmu_config){
		.core_events = cfg->core_events,
		.topdown = (int)cfg->topdown,
		.ibs = (enum ibs_mode)cfg->ibs,
		.ibs_period = cfg->ibs_period,
		.ibs_count = (enum ibs_count)cfg->ibs_count,
		.multiplex = 1,
	};
}

static const char no_memory[] = "cannot allocate the core PMU state";

/* The boot CPU's core PMU state, probed (pool memory); NULL with *why (no_memory, or no x86 core
 * PMU on this CPU). */
static struct corepmu *probed(const struct hw *hw, uint64_t timer_hz, const char **why)
{
	struct corepmu *cp = AllocateZeroPool(sizeof(*cp));
	if (!cp) {
		*why = no_memory;
		return NULL;
	}
	if (corepmu_probe(hw, cp) != 0) {
		*why = "no x86 core PMU on this CPU";
		FreePool(cp);
		return NULL;
	}
	cp->timer_hz = timer_hz;
	return cp;
}

struct corepmu *corepmu_setup(const struct hw *hw, const struct efiperf_config *cfg, uint64_t timer_hz,
			      int *config_error)
{
	*config_error = 0;
	const char *why;
	struct corepmu *cp = probed(hw, timer_hz, &why);
	if (!cp) {
		if (why == no_memory)
			rep_error("corepmu", "%s", why);
		return NULL;   /* not x86: the Arm PMUv3 unit covers this CPU */
	}
	corepmu_probe_record(cp);
	rep_line("corepmu:    %s %s family 0x%x model 0x%x%s", cp->vendor, cp->backend_name ? cp->backend_name : "no backend",
		 cp->family, cp->model, cp->nlacks ? "; lacks:" : "");
	for (int i = 0; i < cp->nlacks && i < CP_MAX_LACKS; i++)
		rep_line("            %s", cp->lacks[i]);
	struct corepmu_config cc = config_of(cfg);
	char err[ERR_BYTES] = "";
	if (corepmu_configure(cp, &cc, err, sizeof(err)) != 0) {
		rep_error("config", "%s: %s", cfg->origin[CFG_CORE_EVENTS], err);
		*config_error = 1;
		FreePool(cp);
		return NULL;
	}
	return cp;
}

struct corepmu *corepmu_setup_events(const struct hw *hw, uint64_t timer_hz, const char *events, char *why, size_t n)
{
	const char *no;
	struct corepmu *cp = probed(hw, timer_hz, &no);
	if (!cp) {
		fmt_snprintf(why, n, "%s", no);
		return NULL;
	}
	/* one window of a table whose ratios need every event at once, without ticks: no groups */
	struct corepmu_config cc = { .core_events = events, .multiplex = 0 };
	if (corepmu_configure(cp, &cc, why, n) != 0) {
		FreePool(cp);
		return NULL;
	}
	return cp;
}

void corepmu_run_start(const struct hw *hw, struct corepmu *cp)
{
	corepmu_start(hw, cp, arch_timer_read(), cp->timer_hz);
}

void corepmu_run_tick(const struct hw *hw, struct corepmu *cp)
{
	corepmu_tick(hw, cp, arch_timer_read());
}

void corepmu_run_stop(const struct hw *hw, struct corepmu *cp)
{
	corepmu_stop(hw, cp, arch_timer_read());
}

/* Run one corepmu operation on the CPU it belongs to. */
static hw_status on_cpu(const struct hw *hw, struct corepmu *cp, uint32_t cpu, uint8_t op)
{
	struct corepmu_call c = { .hw = hw, .cp = cp, .op = op, .timer_hz = cp->timer_hz };
	hw_status st = hw_run_on_cpu(hw, cpu, corepmu_call, &c);
	return st == HW_OK ? c.st : st;
}

void corepmu_run_restore(const struct hw *hw, struct corepmu *cp, uint32_t cpu)
{
	hw_status st = on_cpu(hw, cp, cpu, CP_OP_RESTORE);
	if (st != HW_OK)
		rep_error("corepmu", "CPU %u: restoring the core PMU registers failed: %s", cpu, hw_status_name(st));
}

void corepmu_run_report(const struct hw *hw, struct corepmu *cp, uint32_t cpu, const char *kernel, uint32_t pass)
{
	corepmu_run_restore(hw, cp, cpu);
	corepmu_run_records(cp, cpu, kernel, pass);
}

void corepmu_run_records(struct corepmu *cp, uint32_t cpu, const char *kernel, uint32_t pass)
{
	corepmu_window_record("core_counters", cp, cpu, kernel, pass, corepmu_json_counters);
	if (cp->topdown_on)
		corepmu_window_record("topdown", cp, cpu, kernel, pass, corepmu_json_topdown);
	if (cp->ibs.mode != IBS_MODE_OFF)
		corepmu_window_record("ibs", cp, cpu, kernel, pass, corepmu_json_ibs);
}

struct corepmu *corepmu_setup_on(const struct hw *hw, const struct efiperf_config *cfg, uint64_t timer_hz,
				 uint32_t cpu)
{
	struct corepmu *cp = AllocateZeroPool(sizeof(*cp));
	if (!cp) {
		rep_error("corepmu", "CPU %u: cannot allocate the core PMU state", cpu);
		return NULL;
	}
	struct corepmu_call c = { .hw = hw, .cp = cp, .op = CP_OP_PROBE };
	if (hw_run_on_cpu(hw, cpu, corepmu_call, &c) != HW_OK || c.st != HW_OK) {
		rep_error("corepmu", "CPU %u: core PMU probe failed", cpu);
		FreePool(cp);
		return NULL;
	}
	cp->timer_hz = timer_hz;
	struct corepmu_config cc = config_of(cfg);
	char err[ERR_BYTES] = "";
	if (corepmu_configure(cp, &cc, err, sizeof(err)) != 0) {
		rep_error("corepmu", "CPU %u: %s", cpu, err);
		FreePool(cp);
		return NULL;
	}
	return cp;
}

/* The attachment (corepmu_run.h): started before the first slice, stopped after the last. */
static void cp_start(struct attachment *a, const struct hw *hw)
{
	struct corepmu_attach *c = a->self;
	if (a->slice->k == 0) {
		corepmu_run_start(hw, c->cp);
		c->started = 1;
	}
}

static void cp_stop(struct attachment *a, const struct hw *hw)
{
	struct corepmu_attach *c = a->self;
	if (c->started && a->slice->k + 1 >= a->slice->n)
		corepmu_run_stop(hw, c->cp);
}

static int cp_restore(struct attachment *a, const struct hw *hw)
{
	struct corepmu_attach *c = a->self;
	if (c->started)
		corepmu_run_restore(hw, c->cp, c->cpu);
	return 0;   /* a failed restore is its own error record (corepmu_run_restore) */
}

const struct attachment_ops corepmu_attach_ops = { .kind = "core_pmu", .start = cp_start,
	.stop = cp_stop, .restore = cp_restore };
