/* SPDX-License-Identifier: BSD-2-Clause */
/* The known-instruction loop measurement (measure_loop, efi/measure/measure.h): a loop of a known
 * retired-instruction count (efi/measure/known_loop.h) under the core counters, with interrupts
 * masked (repeated LOOP_MASKED_REPEATS times: a quiesced window counts the same every time) and
 * unmasked on the boot CPU, then masked once on every other selected CPU; the `loop` record
 * gives expected, counted and the extra of each. */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/measure.h"
#include "arch/regs/arm_sysreg.h"
#include "efi/measure/known_loop.h"
#include "efi/out/report.h"
#include "efi/out/pmu_json.h"
#include "arch/arch.h"
#include "efi/cpus.h"
#include "efi/mp.h"
#include "efi/pages.h"

static void loop_json(struct json *j, const char *key, const struct known_loop_result *r)
{
	json_obj(j, key);
	json_u64(j, "counted", r->counted);
	json_i64(j, "extra", (int64_t)(r->counted - r->expected));
	json_close(j);
}

/* The masked loop is repeated: a quiesced window must count the same every time. */
#define LOOP_MASKED_REPEATS 10

/* One run of the known loop with the core counters started around it, in *s (the boot CPU's
 * pool memory, not the stack: a core_set is about 18 KB and this runs on APs (loop_on_cpu),
 * whose stacks the firmware sizes: UefiCpuPkg's PcdCpuApStackSize defaults to 32 KiB
 * (UefiCpuPkg.dec), ArmPkg's ArmPsciMpServicesDxe gives 4 KiB (AP_STACK_SIZE,
 * MpServicesInternal.h); `make stack` checks it). One CPU at a time: hw_run_on_cpu returns
 * when its CPU finished (StartupThisAP blocking, or PSCI CPU_ON then wait). */
static void loop_once(const struct hw *hw, const struct platform *p, struct core_set *s, uint64_t iterations,
		      int masked, struct known_loop_result *r)
{
	*s = p->core;
	if (s->pmu && s->pmu->start(hw, s) != HW_OK) {
		fmt_snprintf(r->why, sizeof(r->why), "core counters could not be started");
		s->pmu->restore(hw, s);
		return;
	}
	known_loop_run(s, iterations, masked, r);
	if (s->pmu) {
		s->pmu->stop(hw, s);
		s->pmu->restore(hw, s);
	}
}

struct loop_job { const struct hw *hw; const struct platform *p; struct core_set *s; uint64_t iterations;
		  struct known_loop_result r; hw_status fixup; };

/* On the CPU it runs on: its own core counters started, the masked loop, stopped and restored.
 * Arm: then a read of PMSWINC_EL0, which is write-only (Arm ARM D23 PMSWINC_EL0: the read is
 * UNDEFINED), so each CPU shows its exception vectors turn the fault into a status. */
static void loop_on_cpu(void *arg)
{
	struct loop_job *lj = arg;
	loop_once(lj->hw, lj->p, lj->s, lj->iterations, 1, &lj->r);
	uint64_t v;
	lj->fixup = lj->p->core.pmu == &pmu_armv8_pmuv3 ? hw_sysreg_read(lj->hw, SYSREG_PMSWINC_EL0, &v) : HW_UNSUPPORTED;
}

/* The masked loop once on every other selected CPU (cpus, WINDOW_MAX_CPUS entries of pool
 * memory): per_cpu[] of the loop record. */
static void loop_per_cpu(struct json *j, const struct hw *hw, const struct platform *p, struct core_set *s,
			 struct window_cpu *cpus, uint64_t iterations)
{
	int n = cpus_selected(cpus);
	json_arr(j, "per_cpu");
	for (int i = 0; i < n; i++) {
		struct loop_job lj = { hw, p, s, iterations, { 0 }, HW_UNSUPPORTED };
		hw_status st = hw_run_on_cpu(hw, cpus[i].cpu, loop_on_cpu, &lj);
		json_obj(j, NULL);
		json_u64(j, "cpu", cpus[i].cpu);
		if (st == HW_OK && lj.fixup != HW_UNSUPPORTED)
			json_str(j, "pmswinc_read", hw_status_name(lj.fixup));
		if (st != HW_OK) {
			const char *why = mp_cpu_why(cpus[i].cpu);
			json_str(j, "why", why ? why : hw_status_name(st));
		} else if (!lj.r.valid) {
			json_str(j, "why", lj.r.why);
		} else {
			json_u64(j, "expected", lj.r.expected);
			json_u64(j, "counted", lj.r.counted);
			json_i64(j, "extra", (int64_t)(lj.r.counted - lj.r.expected));
		}
		json_close(j);
		if (st == HW_OK && lj.r.valid && n > 1)
			rep_line("            CPU %u: counted %llu (%lld extra)", cpus[i].cpu, (unsigned long long)lj.r.counted,
				 (long long)(lj.r.counted - lj.r.expected));
	}
	json_close(j);
}

int measure_loop(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	struct known_loop_result masked[LOOP_MASKED_REPEATS] = { 0 }, unmasked = { 0 };
	struct loop_work { struct core_set s; struct window_cpu cpus[WINDOW_MAX_CPUS]; } *wk = measure_work(sizeof(*wk), "loop");
	if (!wk)
		return -1;
	for (int k = 0; k < LOOP_MASKED_REPEATS; k++)
		loop_once(hw, p, &wk->s, cfg->loop_iterations, 1, &masked[k]);
	loop_once(hw, p, &wk->s, cfg->loop_iterations, 0, &unmasked);
	const struct known_loop_result *r0 = &masked[0];
	struct json *j = rep_begin("loop");
	json_str(j, "counter", "instructions retired");
	json_u64(j, "iterations", cfg->loop_iterations);
	json_bool(j, "valid", r0->valid && unmasked.valid);
	if (r0->valid) {
		uint64_t lo = ~0ull, hi = 0;
		json_u64(j, "expected", r0->expected);
		loop_json(j, "masked", r0);
		json_arr(j, "masked_repeats");
		for (int k = 0; k < LOOP_MASKED_REPEATS; k++) {
			json_u64(j, NULL, masked[k].counted);
			lo = masked[k].counted < lo ? masked[k].counted : lo;
			hi = masked[k].counted > hi ? masked[k].counted : hi;
		}
		json_close(j);
		json_u64(j, "masked_spread", hi - lo);
		if (unmasked.valid)
			loop_json(j, "unmasked", &unmasked);
		rep_line("loop:       %llu iterations: expected %llu instructions, counted %llu with interrupts masked "
			 "(%lld extra; spread %llu over %d repeats), %llu unmasked (%lld extra)",
			 (unsigned long long)cfg->loop_iterations, (unsigned long long)r0->expected,
			 (unsigned long long)r0->counted, (long long)(r0->counted - r0->expected),
			 (unsigned long long)(hi - lo), LOOP_MASKED_REPEATS, (unsigned long long)unmasked.counted,
			 (long long)(unmasked.counted - unmasked.expected));
	} else {
		json_str(j, "why", r0->why);
		rep_line("loop:       not run: %s", r0->why);
	}
	loop_per_cpu(j, hw, p, &wk->s, wk->cpus, cfg->loop_iterations);
	rep_end();
	pool_free(wk);
	return 0;
}
