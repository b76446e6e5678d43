/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/dma_cpu.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/stream_measure.h"
#include "efi/measure/dma_window.h"
#include "efi/measure/measure.h"
#include "efi/cpus.h"
#include "efi/pages.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#define TRANSFER_BYTES (1u << 20)   /* the DMA target: one 1 MiB transfer buffer, as blockio_read */
#define DMA_4GIB (1ull << 32)
#define NARRAYS 3u                  /* STREAM's a, b, c */

/* dma_cpu_traffic's values (efi/config/config.h enum cfg_dma_cpu) to STREAM functions. */
static const enum kernel_kind kinds[] = {
	[CFG_DMA_CPU_LOAD] = KERNEL_LOAD, [CFG_DMA_CPU_STORE] = KERNEL_STORE, [CFG_DMA_CPU_NTSTORE] = KERNEL_NTSTORE,
	[CFG_DMA_CPU_COPY] = KERNEL_COPY, [CFG_DMA_CPU_NTCOPY] = KERNEL_NTCOPY, [CFG_DMA_CPU_TRIAD] = KERNEL_TRIAD,
};

/* The selected CPUs other than the boot CPU (out: WINDOW_MAX_CPUS entries), with their index
 * in the selection (for cpus_alloc); returns how many. */
static int stream_cpus(uint32_t bsp, struct window_cpu *out, int *index)
{
	int n = cpus_selected(out), m = 0;
	for (int i = 0; i < n; i++)
		if (out[i].cpu != bsp) {   /* m <= i: compacted in place */
			index[m] = i;
			out[m++] = out[i];
		}
	return m;
}

int dma_cpu_plan_check(const struct efiperf_config *cfg, uint32_t bsp, struct plan_errors *out)
{
	if (cfg->dma_cpu_traffic == CFG_DMA_CPU_NONE || cpus_count() - cpus_has(bsp) > 0)
		return 0;
	plan_error_add(out, CFG_DMA_CPU_TRAFFIC, "the STREAM kernel runs on the cpus other than the boot CPU %u, "
		       "and cpus = %s selects none", bsp, cfg->cpus);
	return 1;
}

/* One slice of the window: the CPUs run STREAM until the boot CPU's share of the read is done. */
struct ctx {
	const struct hw *hw;
	struct window_spec spec;
	struct blockio_read rd;
	volatile uint32_t stop;
	uint32_t slice, nslices;
	uint64_t hz, span_ticks, slices;
	struct window_result w;     /* the last slice's window */
	int ran_all;
	/* the STREAM CPUs: pool memory with the rest of the window's state, not .bss */
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	int index[WINDOW_MAX_CPUS];
	struct stream_beside st[WINDOW_MAX_CPUS];
	void *arr[WINDOW_MAX_CPUS][NARRAYS];
	struct cpu_place place[WINDOW_MAX_CPUS];
};

static void boot_dma(void *arg)
{
	struct ctx *c = arg;
	blockio_read_slice(&c->rd, c->slice, c->nslices);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
}

static uint64_t window_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	struct ctx *c = arg;
	c->slice = slice;
	c->nslices = nslices ? nslices : 1;
	__atomic_store_n(&c->stop, 0, __ATOMIC_RELEASE);
	if (window_run(c->hw, &c->spec, &c->w) != 0)
		c->ran_all = 0;
	c->span_ticks += c->w.span_ticks;
	c->slices++;
	return metric_ticks_to_ns(c->w.span_ticks, c->hz);
}

int measure_dma_cpu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->dma_cpu_traffic == CFG_DMA_CPU_NONE || cfg->dma_cpu_traffic >= sizeof(kinds) / sizeof(kinds[0]))
		return 0;
	enum kernel_kind kind = kinds[cfg->dma_cpu_traffic];
	uint64_t size = cfg->stream_size;
	int n = 0, rc = -1;
	char bdf[16], why[160];
	const char *kname = NULL;
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
				 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	struct ctx *c = pool_zalloc(sizeof(*c));
	uint8_t *buf = pages_alloc(TRANSFER_BYTES);
	if (!c || !buf) {
		rep_error("dma_cpu_traffic", "cannot allocate the window's state and 1 MiB transfer buffer");
		goto out;
	}
	struct window_cpu *cpus = c->cpus;
	struct stream_beside *st = c->st;
	struct cpu_place *place = c->place;
	void *(*arr)[NARRAYS] = c->arr;
	n = stream_cpus(p->mp.bsp, cpus, c->index);
	for (int i = 0; i < n; i++) {
		if (cpus_alloc_arrays(c->index[i], size, NARRAYS, arr[i], &place[i]) != 0) {
			rep_error("dma_cpu_traffic", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
				  (unsigned long long)size, n);
			goto out;
		}
		kname = stream_beside_prepare(&st[i], kind, arr[i][0], arr[i][1], arr[i][2], size, &c->stop);
		if (!kname) {
			rep_error("dma_cpu_traffic", "no %s kernel on this CPU", kernel_kind_name(kind));
			goto out;
		}
		cpus[i].arg = &st[i];
	}
	if (blockio_read_init(&c->rd, cfg->dma_blockio, cfg->dma_bytes, buf, TRANSFER_BYTES, p->timer_hz, why, sizeof(why)) != 0) {
		rep_error("dma_cpu_traffic", "dma_blockio %s", why);
		goto out;
	}
	c->hw = hw;
	c->hz = p->timer_hz;
	c->ran_all = 1;
	c->spec = (struct window_spec){ .kernel = stream_beside_kernel, .cpus = cpus, .ncpus = n, .mask_interrupts = 1,
					.boot_work = boot_dma, .boot_ctx = c };
	struct dma_window w = { "dma_cpu_traffic", window_slice, c, &c->rd.moved, NULL, a,
				(uintptr_t)buf + TRANSFER_BYTES > DMA_4GIB, NULL };
	struct dma_window_result r;
	dma_window_run(hw, p, &w, &r);
	uint64_t dma_ns = metric_ticks_to_ns(c->rd.ticks, p->timer_hz);
	dma_window_rate(&r, 0, c->rd.done, dma_ns);
	/* STREAM's rate over the CPUs: their application bytes over the longest CPU's time (they
	 * ran at once); each CPU's own beside it. */
	uint64_t app = 0, ticks_max = 0, passes = 0;
	int bad = !c->ran_all;
	for (int i = 0; i < n; i++) {
		app += st[i].app_bytes;
		passes += st[i].passes;
		ticks_max = st[i].ticks > ticks_max ? st[i].ticks : ticks_max;
		bad |= st[i].status != 0;
	}
	uint64_t stream_ns = metric_ticks_to_ns(ticks_max, p->timer_hz), window_ns = metric_ticks_to_ns(c->span_ticks, p->timer_hz);
	struct json *j = rep_begin("dma_cpu_traffic");
	json_u64(j, "window_ns", window_ns);
	json_u64(j, "slices", c->slices);
	json_obj(j, "dma");
	json_str(j, "kernel", "blockio_read");
	json_str(j, "bdf", bdf);
	json_str(j, "path", "blockio");
	json_bool(j, "interrupts_masked", 0);   /* the boot CPU calls the firmware's Block IO: its timer stays on */
	blockio_read_json(j, &c->rd);
	json_close(j);
	json_obj(j, "stream");
	json_str(j, "function", kernel_kind_name(kind));
	json_str(j, "kernel", kname ? kname : "none");
	json_u64(j, "cpus", (uint64_t)n);
	json_u64(j, "array_bytes", size);
	json_u64(j, "passes", passes);
	json_u64(j, "app_bytes", app);
	json_u64(j, "ns", stream_ns);
	json_milli(j, "gbps", metric_gbps_milli(app, stream_ns));
	json_bool(j, "interrupts_masked", c->w.masked);
	json_str(j, "status", bad ? "a CPU did not run or its kernel failed" : "ok");
	json_arr(j, "per_cpu");
	for (int i = 0; i < n; i++) {
		uint64_t ns = metric_ticks_to_ns(st[i].ticks, p->timer_hz);
		json_obj(j, NULL);
		json_u64(j, "cpu", cpus[i].cpu);
		json_u64(j, "passes", st[i].passes);
		json_u64(j, "app_bytes", st[i].app_bytes);
		json_u64(j, "ns", ns);
		json_milli(j, "gbps", metric_gbps_milli(st[i].app_bytes, ns));
		measure_place_json(j, &place[i], arr[i][0]);
		json_close(j);
	}
	json_close(j);
	json_close(j);
	dma_window_json(j, &r);
	rep_end();
	char dr[32], sr[32];
	fmt_milli(dr, sizeof(dr), metric_gbps_milli(c->rd.done, dma_ns));
	fmt_milli(sr, sizeof(sr), metric_gbps_milli(app, stream_ns));
	rep_line("dma+cpu:    %s read %llu bytes at %s GB/s while %d CPU(s) ran %s (%llu passes) at %s GB/s; window %llu ns",
		 bdf, (unsigned long long)c->rd.done, dr, n, kname ? kname : "?", (unsigned long long)passes, sr,
		 (unsigned long long)window_ns);
	rc = blockio_read_failed(&c->rd, bdf, "dma_cpu_traffic");
	if (bad) {
		rep_error("dma_cpu_traffic", "a STREAM CPU did not run the window or its kernel failed");
		rc = -1;
	}
out:
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < NARRAYS; k++)
			pages_free(c->arr[i][k], size);
	pages_free(buf, TRANSFER_BYTES);
	pool_free(c);
	return rc;
}
