/* SPDX-License-Identifier: BSD-2-Clause */
/* dma_cpu_traffic's record writer (efi/out/dma_cpu_out.h). */
#include <efi.h>
#include "efi/out/dma_cpu_out.h"
#include "efi/out/blockio_out.h"
#include "efi/out/report.h"
#include "efi/out/window_json.h"
#include "pmu/metrics.h"

static void dma_obj(struct json *j, const struct dma_cpu_request *req, const struct dma_cpu_result *res)
{
	json_obj(j, "dma");
	json_str(j, "kernel", "blockio_read");
	json_str(j, "bdf", req->name);
	json_str(j, "path", "blockio");
	json_bool(j, "interrupts_masked", 0);   /* the boot CPU calls the firmware's Block IO: its timer stays on */
	blockio_read_json(j, &res->rd);
	json_close(j);
}

static void stream_obj(struct json *j, const struct dma_cpu_request *req, const struct dma_cpu_result *res)
{
	uint64_t ns = metric_ticks_to_ns(res->ticks_max, res->timer_hz);
	json_obj(j, "stream");
	json_str(j, "function", kernel_kind_name(req->kind));
	json_str(j, "kernel", req->sel.n ? req->k->name : "none");
	json_u64(j, "cpus", (uint64_t)req->sel.n);
	json_u64(j, "array_bytes", req->size);
	json_u64(j, "passes", res->passes);
	json_u64(j, "app_bytes", res->app_bytes);
	json_u64(j, "ns", ns);
	json_milli(j, "gbps", metric_gbps_milli(res->app_bytes, ns));
	json_bool(j, "interrupts_masked", res->masked);
	json_str(j, "status", res->bad ? "a CPU did not run or its kernel failed" : "ok");
	json_arr(j, "per_cpu");
	for (int i = 0; i < req->sel.n; i++) {
		const struct dma_cpu_stream *s = &res->cpu[i];
		uint64_t cns = metric_ticks_to_ns(s->ticks, res->timer_hz);
		json_obj(j, NULL);
		json_u64(j, "cpu", req->sel.cpu[i]);
		json_u64(j, "passes", s->passes);
		json_u64(j, "app_bytes", s->app_bytes);
		json_u64(j, "ns", cns);
		json_milli(j, "gbps", metric_gbps_milli(s->app_bytes, cns));
		rec_place_json(j, res->place[i].node, res->place[i].local, res->buf[i]);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

/* The error that stopped the run before its window, -1; 0 when the window ran. */
static int not_run(const struct dma_cpu_request *req, const struct dma_cpu_result *res)
{
	switch (res->status) {
	case DMA_CPU_NO_STATE:
		rep_error("dma_cpu_traffic", "cannot allocate the window's state and 1 MiB transfer buffer");
		return -1;
	case DMA_CPU_NO_ARRAYS:
		rep_error("dma_cpu_traffic", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
			  (unsigned long long)req->size, req->sel.n);
		return -1;
	case DMA_CPU_NO_KERNEL:
		rep_error("dma_cpu_traffic", "no %s kernel on this CPU", kernel_kind_name(req->kind));
		return -1;
	case DMA_CPU_NO_READ:
		rep_error("dma_cpu_traffic", "dma_blockio %s", res->why);
		return -1;
	case DMA_CPU_RAN:
		break;
	}
	return 0;
}

int dma_cpu_record(const struct dma_cpu_request *req, const struct dma_cpu_result *res)
{
	if (not_run(req, res) != 0)
		return -1;
	uint64_t dma_ns = metric_ticks_to_ns(res->rd.ticks, res->timer_hz);
	uint64_t stream_ns = metric_ticks_to_ns(res->ticks_max, res->timer_hz);
	uint64_t window_ns = metric_ticks_to_ns(res->window_ticks, res->timer_hz);
	struct json *j = rep_begin("dma_cpu_traffic");
	json_u64(j, "window_ns", window_ns);
	json_u64(j, "slices", res->slices);
	dma_obj(j, req, res);
	stream_obj(j, req, res);
	dma_window_json(j, &res->win);
	rep_end();
	char dr[32], sr[32];
	fmt_milli(dr, sizeof(dr), metric_gbps_milli(res->rd.done, dma_ns));
	fmt_milli(sr, sizeof(sr), metric_gbps_milli(res->app_bytes, stream_ns));
	rep_line("dma+cpu:    %s read %llu bytes at %s GB/s while %d CPU(s) ran %s (%llu passes) at %s GB/s; window %llu ns",
		 req->name, (unsigned long long)res->rd.done, dr, req->sel.n, req->sel.n ? req->k->name : "?", (unsigned long long)res->passes,
		 sr, (unsigned long long)window_ns);
	int rc = blockio_read_failed(&res->rd, req->name, "dma_cpu_traffic");
	if (res->bad) {
		rep_error("dma_cpu_traffic", "a STREAM CPU did not run the window or its kernel failed");
		rc = -1;
	}
	return rc;
}
