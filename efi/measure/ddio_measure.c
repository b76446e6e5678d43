/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/ddio_measure.h"
#include "efi/measure/ddio.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_window.h"
#include "efi/out/dma_json.h"
#include "efi/out/report.h"
#include "efi/pcie/pcie.h"
#include "efi/pages.h"
#include "pmu/metrics.h"

#define DMA_4GIB (1ull << 32)   /* buffers above: 4 DW Memory Write headers */

int measure_ddio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	uint32_t sizes[DDIO_MAX_POINTS];
	int n = 0, rc = 0;
	char msg[160], bdf[16], kernel[40];
	if (ddio_parse_sizes(cfg->ddio_sweep, strlena((CHAR8 *)cfg->ddio_sweep), sizes, &n, msg, sizeof(msg)) != 0 || !n)
		return 0;   /* checked when read; none: no sweep */
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
				 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	rep_line("ddio:       %s: %d target-buffer sizes, %llu bytes read into each", bdf, n, (unsigned long long)cfg->dma_bytes);
	for (int i = 0; i < n; i++) {
		uint64_t size = sizes[i];
		uint8_t *buf = pages_alloc(size);
		if (!buf) {
			rep_error("ddio", "cannot allocate the %llu-byte target buffer (ddio_sweep)", (unsigned long long)size);
			return -1;
		}
		struct blockio_read c;
		if (blockio_read_init(&c, cfg->dma_blockio, cfg->dma_bytes, buf, size, p->timer_hz, msg, sizeof(msg)) != 0) {
			pages_free(buf, size);
			rep_error("ddio", "dma_blockio %s", msg);
			return -1;
		}
		fmt_snprintf(kernel, sizeof(kernel), "ddio_sweep:%llu", (unsigned long long)size);
		struct dma_window w = { kernel, blockio_read_slice, &c, &c.moved, NULL, a, (uintptr_t)buf + size > DMA_4GIB, NULL };
		struct dma_window_result r;
		dma_window_run(hw, p, &w, &r);
		pages_free(buf, size);
		uint64_t ns = metric_ticks_to_ns(c.ticks, p->timer_hz);
		dma_window_rate(&r, 0, c.done, ns);
		struct ddio_ratio hr;
		ddio_ratio_of(r.have_cha ? &r.cha : NULL, c.done, r.sc.why, &hr);
		struct json *j = rep_begin("ddio");
		json_u64(j, "point", (uint64_t)i);
		json_u64(j, "points", (uint64_t)n);
		json_u64(j, "buffer_bytes", size);
		json_str(j, "bdf", bdf);
		json_str(j, "path", "blockio");
		json_bool(j, "interrupts_masked", 0);   /* the firmware's Block IO runs with its timer on */
		blockio_read_json(j, &c);
		ddio_ratio_json(j, "io_llc_hit_ratio", &hr);
		dma_window_json(j, &r);
		rep_end();
		char rate[32], ratio[24] = "-";
		fmt_milli(rate, sizeof(rate), metric_gbps_milli(c.done, ns));
		if (hr.state == DDIO_RATIO_OK)
			fmt_milli(ratio, sizeof(ratio), hr.ratio_milli);
		rep_line("            buffer %10llu bytes: %llu bytes in %llu ns, %s GB/s, IO LLC hit ratio %s (%s)",
			 (unsigned long long)size, (unsigned long long)c.done, (unsigned long long)ns, rate, ratio,
			 ddio_state_name(hr.state));
		if (blockio_read_failed(&c, bdf, "ddio"))
			rc = -1;
	}
	return rc;
}
