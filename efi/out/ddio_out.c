/* SPDX-License-Identifier: BSD-2-Clause */
/* The DDIO sweep's record writer (efi/out/ddio_out.h). */
#include <efi.h>
#include "efi/out/ddio_out.h"
#include "efi/out/blockio_out.h"
#include "efi/out/dma_json.h"
#include "efi/out/report.h"
#include "pmu/metrics.h"

static int point_record(const struct ddio_request *req, const struct ddio_result *res, int i)
{
	const struct ddio_point *pt = &res->pt[i];
	uint64_t size = req->sizes[i], ns = metric_ticks_to_ns(pt->rd.ticks, res->timer_hz);
	struct json *j = rep_begin("ddio");
	json_u64(j, "point", (uint64_t)i);
	json_u64(j, "points", (uint64_t)req->n);
	json_u64(j, "buffer_bytes", size);
	json_str(j, "bdf", req->name);
	json_str(j, "path", "blockio");
	json_bool(j, "interrupts_masked", 0);   /* the firmware's Block IO runs with its timer on */
	blockio_read_json(j, &pt->rd);
	ddio_ratio_json(j, "io_llc_hit_ratio", &pt->hr);
	dma_window_json(j, &pt->win);
	rep_end();
	char rate[32], ratio[24] = "-";
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(pt->rd.done, ns));
	if (pt->hr.state == DDIO_RATIO_OK)
		fmt_milli(ratio, sizeof(ratio), pt->hr.ratio_milli);
	rep_line("            buffer %10llu bytes: %llu bytes in %llu ns, %s GB/s, IO LLC hit ratio %s (%s)",
		 (unsigned long long)size, (unsigned long long)pt->rd.done, (unsigned long long)ns, rate, ratio,
		 ddio_state_name(pt->hr.state));
	return blockio_read_failed(&pt->rd, req->name, "ddio");
}

int ddio_record(const struct ddio_request *req, const struct ddio_result *res)
{
	int rc = 0;
	rep_line("ddio:       %s: %d target-buffer sizes, %llu bytes read into each", req->name, req->n,
		 (unsigned long long)req->dma_bytes);
	for (int i = 0; i < res->ran; i++)
		rc |= point_record(req, res, i);
	if (res->stop == DDIO_NO_BUFFER) {
		rep_error("ddio", "cannot allocate the %llu-byte target buffer (ddio_sweep)",
			  (unsigned long long)req->sizes[res->ran]);
		return -1;
	}
	if (res->stop == DDIO_NO_READ) {
		rep_error("ddio", "dma_blockio %s", res->why);
		return -1;
	}
	return rc;
}
