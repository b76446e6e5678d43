/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/mmio_measure.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "efi/measure/window.h"
#include "efi/measure/measure.h"
#include "pmu/metrics.h"
#include "efi/measure/dma_window.h"

#define WRITE_PATTERN 0x9E3779B97F4A7C15ull

struct mmio_arg { uintptr_t base; uint64_t bytes; };

/* Read kernels: every access is a volatile load of exactly that width, so the device sees one
 * transaction per access; the sum keeps the loads from being dropped. */
static uint64_t read64_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile const uint64_t *w = (volatile const uint64_t *)a->base;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint64_t); i++)
		sum += w[i];
	return sum;
}

static uint64_t read32_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile const uint32_t *w = (volatile const uint32_t *)a->base;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint32_t); i++)
		sum += w[i];
	return sum;
}

static uint64_t write64_kernel(void *p)
{
	const struct mmio_arg *a = p;
	volatile uint64_t *w = (volatile uint64_t *)a->base;
	for (uint64_t i = 0; i < a->bytes / sizeof(uint64_t); i++)
		w[i] = WRITE_PATTERN * (i + 1);
	return 0;
}

struct mmio_kernel { const char *name; window_kernel fn; unsigned width; int writes; };
static const struct mmio_kernel kernels[] = {
	{ "mmio_read64", read64_kernel, 8, 0 },
	{ "mmio_read32", read32_kernel, 4, 0 },
	{ "mmio_write64", write64_kernel, 8, 1 },
};

/* One kernel as a DMA window of slices (efi/measure/dma_window.h): each slice runs the whole
 * kernel once in its interrupt-masked window; with CHA multiplexing every group sees a run. */
struct mmio_ctx {
	const struct hw *hw;
	const struct window_spec *spec;
	uint64_t hz, ticks;
	uint32_t rounds;
	struct window_result w;      /* the last slice's window */
};

static uint64_t mmio_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	struct mmio_ctx *c = arg;
	window_run(c->hw, c->spec, &c->w);
	c->ticks += c->w.span_ticks;
	c->rounds++;
	return metric_ticks_to_ns(c->w.span_ticks, c->hz);
}

#define MMIO_NO_DMA "MMIO moves no DMA bytes: the CPU's loads and stores to a BAR are requests " \
		    "(mmio_reads / mmio_writes in the cha record), not PCIe read/write bytes"

int measure_mmio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->mmio_bdf == CFG_BDF_NONE)
		return 0;
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->mmio_bdf), CFG_BDF_BUS(cfg->mmio_bdf), CFG_BDF_DEV(cfg->mmio_bdf),
				 CFG_BDF_FN(cfg->mmio_bdf) };
	char bdf[16];
	pcie_bdf_str(a, bdf, sizeof(bdf));
	uint32_t id = 0;
	if (hw_pci_read32(hw, a, 0, &id) != HW_OK || (id & 0xFFFF) == 0xFFFF) {
		rep_error("mmio", "mmio_bdf %s: no PCI function there", bdf);
		return -1;
	}
	struct pci_bar bar;
	const char *why = NULL;
	if (pci_bar_probe(hw, a, cfg->mmio_bar, &bar, &why) != 0) {
		rep_error("mmio", "mmio_bdf %s BAR%u: %s", bdf, cfg->mmio_bar, why);
		return -1;
	}
	uint64_t bytes = cfg->mmio_bytes < bar.size ? cfg->mmio_bytes : bar.size;
	struct mmio_arg arg = { (uintptr_t)bar.base, bytes };
	struct window_cpu cpu = { .cpu = p->mp.bsp, .arg = &arg };
	rep_line("mmio:       %s %04x:%04x BAR%u at 0x%llx, %llu bytes (%s%s), %llu bytes per kernel", bdf, id & 0xFFFF,
		 id >> 16, cfg->mmio_bar, (unsigned long long)bar.base, (unsigned long long)bar.size,
		 bar.is64 ? "64-bit" : "32-bit", bar.prefetch ? ", prefetchable" : "", (unsigned long long)bytes);
	int rc = 0;
	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		const struct mmio_kernel *mk = &kernels[k];
		if (mk->writes && !cfg->mmio_write)
			continue;
		struct window_spec spec = { .kernel = mk->fn, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
		struct window_result floor;
		window_noise_floor(hw, &spec, &floor);
		struct mmio_ctx c = { hw, &spec, p->timer_hz, 0, 0, { 0 } };
		struct dma_window dw = { mk->name, mmio_slice, &c, NULL, MMIO_NO_DMA, a, bar.base + bar.size > (1ull << 32), NULL };
		struct dma_window_result r;
		dma_window_run(hw, p, &dw, &r);
		const struct window_result w = c.w;
		uint64_t moved = bytes * c.rounds;
		uint64_t ns = metric_ticks_to_ns(c.ticks, p->timer_hz), accesses = moved / mk->width;
		/* the data of a read flows device -> host, of a write host -> device */
		dma_window_rate(&r, mk->writes ? moved : 0, mk->writes ? 0 : moved, ns);
		int verified = -1;
		if (mk->writes) {
			verified = 1;
			volatile const uint64_t *rb = (volatile const uint64_t *)arg.base;
			for (uint64_t i = 0; i < bytes / sizeof(uint64_t); i++)
				verified &= rb[i] == WRITE_PATTERN * (i + 1);
		}
		struct json *j = rep_begin("measurement");
		json_str(j, "kernel", mk->name);
		json_str(j, "bdf", bdf);
		json_u64(j, "bar", cfg->mmio_bar);
		json_hex(j, "bar_base", bar.base);
		json_u64(j, "bar_size", bar.size);
		json_u64(j, "bytes", moved);
		json_u64(j, "rounds", c.rounds);
		json_u64(j, "accesses", accesses);
		json_u64(j, "ns", ns);
		json_milli(j, "ns_per_access", metric_ratio_milli(ns, accesses));
		json_milli(j, "gbps", metric_gbps_milli(moved, ns));
		measure_quiet_json(j, &w);
		measure_window_json(j, "noise_floor", &floor, p->timer_hz);
		if (mk->writes)
			json_bool(j, "verified", verified);
		else
			json_hex(j, "checksum", cpu.ret);
		dma_window_json(j, &r);
		rep_end();
		char rate[32], per[32];
		fmt_milli(rate, sizeof(rate), metric_gbps_milli(moved, ns));
		fmt_milli(per, sizeof(per), metric_ratio_milli(ns, accesses));
		rep_line("  %-12s %llu ns, %s GB/s, %s ns per access%s", mk->name, (unsigned long long)ns, rate, per,
			 mk->writes ? (verified ? ", read back ok" : ", READ BACK DIFFERS") : "");
		if (mk->writes && !verified) {
			rep_error("mmio", "%s BAR%u: data read back differs from what mmio_write64 wrote", bdf, cfg->mmio_bar);
			rc = -1;
		}
	}
	return rc;
}
