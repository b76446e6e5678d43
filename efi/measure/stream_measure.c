/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/stream_measure.h"
#include "efi/measure/measure.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "efi/measure/window.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "pmu/metrics.h"

#define TRIAD_SCALAR 3.0
#define STORE_VALUE 1.0
#define LINE_BYTES 64u
#define CHASE_SEED 0x5EEDull
#define MAX_SIZES 32

static const enum kernel_kind stream_kinds[] = {
	KERNEL_LOAD, KERNEL_STORE, KERNEL_NTSTORE, KERNEL_COPY, KERNEL_NTCOPY, KERNEL_TRIAD,
};

/* MB/s (10^6 bytes/s) = bytes per microsecond: bytes x 1000 / ns, 0 for no time. */
static uint64_t mbps_of(uint64_t bytes, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)bytes * 1000u / ns) : 0;
}

/* STREAM's arrays: a zeroed, b and c with values (any finite doubles), one pass of k over them. */
static void stream_fill(struct kernel_run *r, const struct kernel_desc *k, void *const buf[3], uint64_t size)
{
	memset(buf[0], 0, size);
	for (uint64_t w = 0; w < size / 8; w++) {
		((double *)buf[1])[w] = (double)(w & 0xFF);
		((double *)buf[2])[w] = (double)((w >> 8) & 0xFF);
	}
	*r = (struct kernel_run){ .k = k, .a = buf[0], .b = buf[1], .c = buf[2], .bytes = size,
				  .scalar = k->kind == KERNEL_TRIAD ? TRIAD_SCALAR : STORE_VALUE, .passes = 1,
				  .timer = arch_timer_read };
}

const char *stream_beside_prepare(struct stream_beside *s, enum kernel_kind kind, void *a, void *b, void *c,
				  uint64_t bytes, const volatile uint32_t *stop)
{
	const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, kind, arch_kernel_isa());
	if (!k)
		return NULL;
	void *const buf[3] = { a, b, c };
	*s = (struct stream_beside){ .stop = stop };
	stream_fill(&s->r, k, buf, bytes);
	return k->name;
}

uint64_t stream_beside_kernel(void *arg)
{
	struct stream_beside *s = arg;
	do {
		kernel_run(&s->r);
		if (s->r.status) {
			s->status = s->r.status;
			break;
		}
		s->passes++;
		s->app_bytes += s->r.app_bytes;
		s->ticks += s->r.ticks_total;
	} while (!*s->stop);
	return s->r.result;
}

static uint64_t run_kernel(void *arg)
{
	struct kernel_run *r = arg;
	kernel_run(r);
	return r->result;
}

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->stream)
		return 0;
	static struct window_cpu cpus[WINDOW_MAX_CPUS];
	static struct kernel_run runs[WINDOW_MAX_CPUS];
	static void *buf[WINDOW_MAX_CPUS][3];
	static struct cpu_place place[WINDOW_MAX_CPUS];
	static uint64_t cpu_mbps[WINDOW_MAX_CPUS];
	static uint8_t outlier[WINDOW_MAX_CPUS];
	uint64_t size = cfg->stream_size;
	int n = cpus_selected(cpus), rc = 0;
	uint32_t isa = arch_kernel_isa();
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			struct cpu_place pl;
			buf[i][k] = cpus_alloc(i, size, &pl);
			place[i] = k ? (struct cpu_place){ pl.node, place[i].local && pl.local } : pl;
			if (!buf[i][k]) {
				rep_error("stream", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
					  (unsigned long long)size, n);
				rc = -1;
				goto out;
			}
		}
	rep_line("stream:     %d CPU(s), %llu bytes per array, %u passes, ISA %s", n, (unsigned long long)size,
		 cfg->stream_passes, kernel_isa_name(isa));
	rep_line("            Function    Best Rate MB/s  Avg time     Min time     Max time   (kernel)");
	for (unsigned s = 0; s < sizeof(stream_kinds) / sizeof(stream_kinds[0]); s++) {
		const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, stream_kinds[s], isa);
		if (!k)
			continue;
		for (int i = 0; i < n; i++) {
			stream_fill(&runs[i], k, buf[i], size);
			runs[i].passes = cfg->stream_passes;
			cpus[i].arg = &runs[i];
		}
		struct window_spec spec = { .kernel = run_kernel, .cpus = cpus, .ncpus = n, .mask_interrupts = 1 };
		struct window_result w, floor;
		window_noise_floor(hw, &spec, &floor);
		window_run(hw, &spec, &w);
		/* STREAM: rates from the best pass; all CPUs moved their bytes at once. */
		uint64_t app = 0, tmin = ~0ull, tmax = 0, tsum = 0;
		int bad = 0, ok = 0;
		for (int i = 0; i < n; i++) {
			const struct kernel_run *r = &runs[i];
			cpu_mbps[i] = 0;
			if (r->status) {
				bad = 1;
				continue;
			}
			ok++;
			app += r->app_bytes / cfg->stream_passes;
			cpu_mbps[i] = mbps_of(r->app_bytes / cfg->stream_passes, metric_ticks_to_ns(r->ticks_min, p->timer_hz));
			tmin = r->ticks_min < tmin ? r->ticks_min : tmin;
			tmax = r->ticks_max > tmax ? r->ticks_max : tmax;
			tsum += r->ticks_total;
		}
		if ((stream_kinds[s] == KERNEL_COPY || stream_kinds[s] == KERNEL_NTCOPY))
			for (int i = 0; i < n; i++)
				bad |= memcmp(buf[i][0], buf[i][1], size) != 0;
		uint64_t min_ns = metric_ticks_to_ns(tmin, p->timer_hz), max_ns = metric_ticks_to_ns(tmax, p->timer_hz);
		uint64_t avg_ns = ok ? metric_ticks_to_ns(tsum / ((uint64_t)ok * cfg->stream_passes), p->timer_hz) : 0;
		/* MB/s (10^6 bytes/s) = bytes per microsecond; tenths for STREAM's one decimal */
		uint64_t mbps10 = mbps_of(app * 10u, min_ns);
		uint64_t mbps = mbps10 / 10;
		uint64_t median = 0;
		int nout = metric_outliers(cpu_mbps, n, MEASURE_OUTLIER_PCT, outlier, &median);
		struct json *j = rep_begin("stream");
		json_str(j, "function", kernel_kind_name(stream_kinds[s]));
		json_str(j, "kernel", k->name);
		json_u64(j, "cpus", (uint64_t)n);
		json_u64(j, "array_bytes", size);
		json_u64(j, "app_bytes_per_pass", app);
		json_u64(j, "passes", cfg->stream_passes);
		json_u64(j, "best_rate_mbps", mbps);
		json_u64(j, "avg_ns", avg_ns);
		json_u64(j, "min_ns", min_ns);
		json_u64(j, "max_ns", max_ns);
		measure_quiet_json(j, &w);
		measure_window_json(j, "noise_floor", &floor, p->timer_hz);
		json_arr(j, "per_cpu");
		for (int i = 0; i < n; i++) {
			json_obj(j, NULL);
			json_u64(j, "cpu", cpus[i].cpu);
			json_u64(j, "best_rate_mbps", runs[i].status ? 0 : cpu_mbps[i]);
			json_bool(j, "outlier", outlier[i]);
			measure_place_json(j, &place[i], buf[i][0]);
			json_close(j);
		}
		json_close(j);
		json_u64(j, "median_cpu_mbps", median);
		json_u64(j, "outliers", (uint64_t)nout);
		json_bool(j, "verified", !bad);
		rep_end();
		rep_line("            %-10s %12llu.%llu %10llu ns %10llu ns %10llu ns  (%s)", kernel_kind_name(stream_kinds[s]),
			 (unsigned long long)mbps, (unsigned long long)(mbps10 % 10), (unsigned long long)avg_ns,
			 (unsigned long long)min_ns,
			 (unsigned long long)max_ns, k->name);
		if (bad) {
			rep_error("stream", "%s: a CPU did not run it or its result is wrong", k->name);
			rc = -1;
		}
	}
out:
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			pages_free(buf[i][k], size);
			buf[i][k] = NULL;
		}
	return rc;
}

int measure_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->latency)
		return 0;
	uint64_t sizes[MAX_SIZES];
	uint32_t ns = kernel_chase_sizes(cfg->latency_max, sizes, MAX_SIZES);
	void *b = pages_alloc(cfg->latency_max);
	if (!b || !ns) {
		rep_error("latency", "cannot allocate %llu bytes (latency_max)", (unsigned long long)cfg->latency_max);
		return -1;
	}
	const struct kernel_desc *chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	if (!chase)
		chase = &kernel_ref_set[KERNEL_CHASE];
	struct json *j = rep_begin("latency");
	json_str(j, "kernel", chase->name);
	json_u64(j, "line_bytes", LINE_BYTES);
	struct window_cpu fcpu = { .cpu = p->mp.bsp };
	struct window_spec fspec = { .kernel = NULL, .cpus = &fcpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result floor;
	window_noise_floor(hw, &fspec, &floor);
	measure_window_json(j, "noise_floor", &floor, p->timer_hz);
	json_arr(j, "points");
	rep_line("latency:    pointer chase, random cyclic permutation of %u-byte lines, boot CPU, masked", LINE_BYTES);
	int rc = 0;
	for (uint32_t i = 0; i < ns; i++) {
		kernel_chase_build(b, sizes[i], LINE_BYTES, CHASE_SEED + i);
		struct kernel_run r = { .k = chase, .a = NULL, .b = b, .c = NULL, .bytes = sizes[i], .passes = 2,
					.timer = arch_timer_read };
		struct window_cpu cpu = { .cpu = p->mp.bsp, .arg = &r };
		struct window_spec spec = { .kernel = run_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
		struct window_result w;
		window_run(hw, &spec, &w);
		uint64_t lines = sizes[i] / LINE_BYTES;
		uint64_t ps = kernel_ps_per_load(r.ticks_min, p->timer_hz, lines);
		uint64_t tpl = kernel_ticks_per_load_milli(r.ticks_min, lines);
		int full = r.status == 0 && r.result == (uint64_t)(uintptr_t)b;  /* a whole cycle ends where it began */
		json_obj(j, NULL);
		json_u64(j, "bytes", sizes[i]);
		json_milli(j, "ns_per_load", ps);
		json_milli(j, "ticks_per_load", tpl);
		json_bool(j, "cycle_complete", full);
		json_close(j);
		rep_line("            %10llu bytes  %8llu.%03llu ns/load", (unsigned long long)sizes[i],
			 (unsigned long long)(ps / 1000), (unsigned long long)(ps % 1000));
		if (!full)
			rc = -1;
	}
	json_close(j);
	rep_end();
	pages_free(b, cfg->latency_max);
	if (rc)
		rep_error("latency", "a pointer chase did not come back to its start (the permutation is not one cycle)");
	return rc;
}
