/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/loaded_latency.h"
#include "efi/measure/measure.h"
#include "efi/out/report.h"
#include "efi/pages.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "pmu/metrics.h"

#define LINE_BYTES 64u
#define CHASE_SEED 0x10ADEDull
#define CHASE_PASSES 2u

int loaded_latency_plan(const struct efiperf_config *cfg)
{
	if (!cfg->loaded_latency)
		return 0;
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	int n = cpus_selected(cpus);
	if (n >= 2)
		return 0;
	rep_error("config", "%s: loaded_latency = on: one CPU chases while the others make traffic, so it needs two CPUs, "
		  "and cpus = '%s' (%s) selects %d", cfg->origin[CFG_LOADED_LATENCY], cfg->cpus, cfg->origin[CFG_CPUS], n);
	return -1;
}

/* The shared state of one window: the bandwidth CPUs stop when the chase is done. */
static volatile uint32_t chase_done;
/* The chase starts once every bandwidth CPU is reading (MLC's method measures latency under the
 * load, not before it arrives): bw_started counts the CPUs that read their first line; the chaser
 * waits for bw_expected of them, at most BW_START_WAIT_S (a CPU that never started leaves the
 * point's bandwidth lower, which the record shows). */
static volatile uint32_t bw_started, bw_expected;
static uint64_t bw_wait_ticks;
#define BW_START_WAIT_S 1u

struct ll_arg {
	int chaser;
	struct kernel_run *chase;          /* chaser */
	const uint64_t *buf;               /* bandwidth CPU: its buffer */
	uint64_t bytes;
	uint32_t delay;
	uint64_t lines;                    /* out: lines read */
};

static uint64_t ll_kernel(void *p)
{
	struct ll_arg *a = p;
	if (a->chaser) {
		uint64_t t0 = arch_timer_read();
		while (__atomic_load_n(&bw_started, __ATOMIC_ACQUIRE) < bw_expected && arch_timer_read() - t0 < bw_wait_ticks)
			arch_cpu_relax();
		kernel_run(a->chase);
		__atomic_store_n(&chase_done, 1, __ATOMIC_RELEASE);
		return a->chase->result;
	}
	uint64_t x = 0, lines = 0, words = a->bytes / 8;
	const volatile uint64_t *b = a->buf;
	while (!__atomic_load_n(&chase_done, __ATOMIC_ACQUIRE)) {
		for (uint64_t w = 0; w < words && !__atomic_load_n(&chase_done, __ATOMIC_RELAXED); w += LINE_BYTES / 8) {
			x ^= b[w];
			if (!lines++)
				__atomic_fetch_add(&bw_started, 1, __ATOMIC_RELEASE);
			for (uint32_t d = 0; d < a->delay; d++)
				__asm__ volatile("" ::: "memory");
		}
	}
	a->lines = lines;
	return x;
}

int measure_loaded_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->loaded_latency)
		return 0;
	struct ll_work { struct window_cpu sel[WINDOW_MAX_CPUS]; struct ll_arg args[WINDOW_MAX_CPUS]; void *buf[WINDOW_MAX_CPUS]; };
	struct ll_work *wk = measure_work(sizeof(*wk), "loaded_latency");
	if (!wk)
		return -1;
	struct window_cpu *sel = wk->sel;
	struct ll_arg *args = wk->args;
	void **buf = wk->buf;
	uint32_t delays[LOADED_DELAYS_MAX];
	char msg[160];
	int n = cpus_selected(sel), nd = cfg_loaded_delays(cfg->loaded_delays, strlena((CHAR8 *)cfg->loaded_delays), delays,
							   msg, sizeof(msg));
	if (n < 2 || nd < 0) {
		pool_free(wk);
		return -1;   /* loaded_latency_plan / the config parser named it */
	}
	uint64_t size = cfg->loaded_size;
	int rc = 0;
	struct cpu_place place;
	for (int i = 0; i < n; i++)
		if (!(buf[i] = cpus_alloc(i, size, &place))) {
			rep_error("loaded_latency", "cannot allocate %llu bytes for each of %d CPUs (loaded_size)",
				  (unsigned long long)size, n);
			rc = -1;
			goto out;
		}
	const struct kernel_desc *chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	if (!chase)
		chase = &kernel_ref_set[KERNEL_CHASE];
	kernel_chase_build(buf[0], size, LINE_BYTES, CHASE_SEED);
	for (int i = 1; i < n; i++)
		for (uint64_t w = 0; w < size / 8; w++)
			((uint64_t *)buf[i])[w] = w;
	struct json *j = rep_begin("loaded_latency");
	json_str(j, "method", "pointer chase on the first CPU, the others read 64-byte lines with a spin delay after each");
	json_u64(j, "chase_cpu", sel[0].cpu);
	json_u64(j, "bandwidth_cpus", (uint64_t)(n - 1));
	json_u64(j, "bytes", size);
	json_bool(j, "emulated", p->cpu.virtual_machine);
	json_arr(j, "points");
	rep_line("loaded:     chase on CPU %u, %d CPU(s) reading with injection delays, %llu bytes each", sel[0].cpu, n - 1,
		 (unsigned long long)size);
	for (int d = -1; d < nd; d++) {   /* -1: idle, the chase alone */
		struct kernel_run r = { .k = chase, .b = buf[0], .bytes = size, .passes = CHASE_PASSES, .timer = arch_timer_read };
		int ncpu = d < 0 ? 1 : n;
		for (int i = 0; i < ncpu; i++) {
			args[i] = (struct ll_arg){ .chaser = i == 0, .chase = &r, .buf = buf[i], .bytes = size,
						   .delay = d < 0 ? 0 : delays[d] };
			sel[i].arg = &args[i];
		}
		chase_done = 0;
		bw_started = 0;
		bw_expected = (uint32_t)(ncpu - 1);
		bw_wait_ticks = p->timer_hz * BW_START_WAIT_S;
		struct window_spec spec = { .kernel = ll_kernel, .cpus = sel, .ncpus = ncpu, .mask_interrupts = 1 };
		struct window_result w;
		int ok = window_run(hw, &spec, &w) == 0 && r.status == 0 && r.result == (uint64_t)(uintptr_t)buf[0];
		uint64_t ps = kernel_ps_per_load(r.ticks_min, p->timer_hz, size / LINE_BYTES), bytes = 0;
		for (int i = 1; i < ncpu; i++)
			bytes += args[i].lines * LINE_BYTES;
		uint64_t gbps = metric_gbps_milli(bytes, metric_ticks_to_ns(w.span_ticks, p->timer_hz));
		json_obj(j, NULL);
		if (d < 0)
			json_null(j, "delay");
		else
			json_u64(j, "delay", delays[d]);
		json_bool(j, "ok", ok);
		json_milli(j, "ns_per_load", ps);
		json_milli(j, "read_gbps", gbps);
		json_u64(j, "read_bytes", bytes);   /* what read_gbps rounds: a slow point still shows it moved */
		json_u64(j, "window_ns", metric_ticks_to_ns(w.span_ticks, p->timer_hz));
		measure_quiet_json(j, &w);
		json_close(j);
		char l[32], g[32];
		fmt_milli(l, sizeof(l), ps);
		fmt_milli(g, sizeof(g), gbps);
		if (d < 0)
			rep_line("            idle         %10s ns/load", l);
		else
			rep_line("            delay %6u %10s ns/load at %s GB/s", delays[d], l, g);
		if (!ok) {
			rc = -1;
			rep_error("loaded_latency", "delay %s: a CPU did not run or the chase did not come back to its start",
				  d < 0 ? "idle" : "point");
		}
	}
	json_close(j);
	rep_end();
out:
	for (int i = 0; i < n; i++)
		pages_free(buf[i], size);
	pool_free(wk);
	return rc;
}
