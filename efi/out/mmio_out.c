/* SPDX-License-Identifier: BSD-2-Clause */
/* The MMIO measurement's record writer (efi/out/mmio_out.h). */
#include <efi.h>
#include "efi/out/mmio_out.h"
#include "efi/out/copy_out.h"
#include "efi/out/window_json.h"
#include "efi/out/report.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"

static void kernel_json(const struct mmio_request *req, const struct mmio_kernel_result *kr)
{
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", kr->k->name);
	json_str(j, "bdf", req->bdf);
	json_u64(j, "bar", req->bar);
	json_hex(j, "bar_base", req->bar_base);
	json_u64(j, "bar_size", req->bar_size);
	json_u64(j, "bytes", kr->moved);
	json_u64(j, "rounds", kr->rounds);
	json_u64(j, "accesses", kr->accesses);
	json_u64(j, "ns", kr->ns);
	json_milli(j, "ns_per_access", metric_ratio_milli(kr->ns, kr->accesses));
	json_milli(j, "gbps", metric_gbps_milli(kr->moved, kr->ns));
	rec_quiet_json(j, kr->w.masked, kr->w.smi_status, kr->w.smi_delta);
	rec_window_json(j, "noise_floor", kr->floor.span_ticks, metric_ticks_to_ns(kr->floor.span_ticks, req->timer_hz),
			kr->floor.masked, kr->floor.smi_status, kr->floor.smi_delta);
	if (kr->k->writes)
		json_bool(j, "verified", kr->verified);
	else
		json_hex(j, "checksum", kr->checksum);
	dma_window_json(j, &kr->dma);
	rep_end();
}

void mmio_record(const struct mmio_request *req, const struct mmio_result *res)
{
	rep_line("mmio:       %s %04x:%04x BAR%u at 0x%llx, %llu bytes (%s%s), %llu bytes per kernel", req->bdf,
		 req->id & 0xFFFF, req->id >> 16, req->bar, (unsigned long long)req->bar_base,
		 (unsigned long long)req->bar_size, req->is64 ? "64-bit" : "32-bit", req->prefetch ? ", prefetchable" : "",
		 (unsigned long long)req->bytes);
	for (int k = 0; k < res->nk; k++) {
		const struct mmio_kernel_result *kr = &res->k[k];
		dma_window_rate_text(&kr->dma);
		kernel_json(req, kr);
		char rate[32], per[32];
		fmt_milli(rate, sizeof(rate), metric_gbps_milli(kr->moved, kr->ns));
		fmt_milli(per, sizeof(per), metric_ratio_milli(kr->ns, kr->accesses));
		rep_line("  %-12s %llu ns, %s GB/s, %s ns per access%s", kr->k->name, (unsigned long long)kr->ns, rate, per,
			 kr->k->writes ? (kr->verified ? ", read back ok" : ", READ BACK DIFFERS") : "");
		if (kr->k->writes && !kr->verified)
			rep_error("mmio", "%s BAR%u: data read back differs from what mmio_write64 wrote", req->bdf, req->bar);
	}
}
