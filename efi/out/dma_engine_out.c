/* SPDX-License-Identifier: BSD-2-Clause */
/* The DMA engine round trip's record writer (efi/out/dma_engine_out.h). */
#include <efi.h>
#include "efi/out/dma_engine_out.h"
#include "efi/out/report.h"
#include "pmu/metrics.h"

int dma_engine_record(const struct dma_engine_request *req, const struct dma_engine_result *res)
{
	const struct dma_engine *e = req->e;
	if (res->no_memory) {
		rep_error("dma_engine", "no memory below 0x%llx for the DMA buffers", (unsigned long long)e->dma_mask);
		return -1;
	}
	uint64_t to_ns = metric_ticks_to_ns(res->to_ticks, res->timer_hz);
	uint64_t from_ns = metric_ticks_to_ns(res->from_ticks, res->timer_hz);
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "dma_engine_roundtrip");
	json_str(j, "engine", e->name);
	json_str(j, "bdf", req->name);
	json_u64(j, "bytes", res->bytes);
	json_u64(j, "rounds", res->rounds);
	json_hex(j, "host_src", res->src);
	json_hex(j, "host_dst", res->dst);
	json_u64(j, "to_device_ns", to_ns);
	json_u64(j, "from_device_ns", from_ns);
	json_str(j, "status", hw_status_name(res->st));
	json_bool(j, "verified", res->verified);
	dma_window_json(j, &res->win);
	rep_end();
	rep_line("dma:        %s %s: %u bytes x %u host -> device %llu ns, device -> host %llu ns, %s", e->name, req->name,
		 res->bytes, res->rounds, (unsigned long long)to_ns, (unsigned long long)from_ns,
		 res->verified ? "data verified" : "FAILED");
	if (!res->verified) {
		rep_error("dma_engine", "%s %s: %s", e->name, req->name,
			  res->st != HW_OK ? "transfer did not complete" : "data came back different from what was sent");
		return -1;
	}
	return 0;
}
