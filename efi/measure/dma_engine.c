/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/dma_engine.h"
#include "efi/pcie/pci_bar.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"
#include "efi/measure/dma_window.h"

#define PCI_COMMAND_REG 0x04u
#define PCI_COMMAND_MEMORY 0x0002u
#define PCI_COMMAND_MASTER 0x0004u   /* Bus Master Enable (PCI 3.0 6.2.2) */
#define DMA_TIMEOUT_S 5u
#define PATTERN 0xA5C3E1F00F1E3C5Aull
#define DMA_4GIB (1ull << 32)   /* buffers above: 4 DW Memory Write headers */

/* One round trip host -> device -> host per slice of the window (efi/measure/dma_window.h):
 * with CHA multiplexing every group sees its own round trip; the data is checked each time. */
struct trip_ctx {
	const struct hw *hw;
	const struct dma_engine *e;
	uint64_t regs;
	EFI_PHYSICAL_ADDRESS src, dst;
	uint32_t bytes;
	uint64_t timeout, hz;
	hw_status st;
	uint64_t to_ticks, from_ticks;
	uint32_t rounds;
	int verified;
	struct self_check_bytes moved;   /* read: the engine read host memory; write: it wrote it */
};

static uint64_t trip_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	struct trip_ctx *c = arg;
	if (c->st != HW_OK)
		return 0;
	memset((void *)(uintptr_t)c->dst, 0, c->bytes);
	uint64_t t0 = arch_timer_read();
	c->st = c->e->copy(c->hw, c->regs, c->src, c->bytes, 1, c->timeout, arch_timer_read);
	uint64_t t1 = arch_timer_read();
	if (c->st == HW_OK)
		c->st = c->e->copy(c->hw, c->regs, c->dst, c->bytes, 0, c->timeout, arch_timer_read);
	uint64_t t2 = arch_timer_read();
	c->to_ticks += t1 - t0;
	c->from_ticks += t2 - t1;
	if (c->st != HW_OK)
		return 0;
	c->rounds++;
	c->moved.read += c->bytes;
	c->moved.write += c->bytes;
	c->verified &= memcmp((void *)(uintptr_t)c->src, (void *)(uintptr_t)c->dst, c->bytes) == 0;
	return metric_ticks_to_ns(t2 - t0, c->hz);
}

int measure_dma_engine(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->dma_engine == CFG_BDF_NONE)
		return 0;
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_engine), CFG_BDF_BUS(cfg->dma_engine), CFG_BDF_DEV(cfg->dma_engine),
				 CFG_BDF_FN(cfg->dma_engine) };
	char bdf[16];
	pcie_bdf_str(a, bdf, sizeof(bdf));
	uint32_t id = 0xFFFFFFFF, cmd = 0;
	hw_pci_read32(hw, a, 0, &id);
	const struct dma_engine *e = dma_engine_find(id & 0xFFFF, id >> 16);
	if (!e) {
		rep_error("dma_engine", "dma_engine %s is %04x:%04x, not a DMA engine efiperf knows", bdf, id & 0xFFFF, id >> 16);
		return -1;
	}
	struct pci_bar bar;
	const char *why = NULL;
	if (pci_bar_probe(hw, a, e->regs_bar, &bar, &why) != 0) {
		rep_error("dma_engine", "%s %s BAR%u: %s", e->name, bdf, e->regs_bar, why);
		return -1;
	}
	/* Host buffers within the engine's DMA mask; identity-mapped (no IOMMU under UEFI). */
	uint32_t bytes = e->dev_buffer_bytes;
	EFI_PHYSICAL_ADDRESS src = e->dma_mask, dst = e->dma_mask;
	if (BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &src) != EFI_SUCCESS ||
	    BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &dst) != EFI_SUCCESS) {
		rep_error("dma_engine", "no memory below 0x%llx for the DMA buffers", (unsigned long long)e->dma_mask);
		return -1;
	}
	uint64_t *s = (uint64_t *)(uintptr_t)src, *d = (uint64_t *)(uintptr_t)dst;
	for (uint32_t i = 0; i < bytes / 8; i++) {
		s[i] = PATTERN ^ (i * 0x9E3779B97F4A7C15ull);
		d[i] = 0;
	}
	/* Bus mastering on for the transfer; the Command register is put back afterwards. */
	hw_pci_read32(hw, a, PCI_COMMAND_REG, &cmd);
	hw_pci_write32(hw, a, PCI_COMMAND_REG, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	struct trip_ctx c = { hw, e, bar.base, src, dst, bytes, p->timer_hz * DMA_TIMEOUT_S, p->timer_hz, HW_OK, 0, 0, 0, 1, { 0 } };
	struct dma_window w = { "dma_engine_roundtrip", trip_slice, &c, &c.moved, NULL, a, dst + bytes > DMA_4GIB, NULL };
	struct dma_window_result r;
	dma_window_run(hw, p, &w, &r);
	hw_pci_write32(hw, a, PCI_COMMAND_REG, cmd);
	hw_status st = c.st;
	int ok = st == HW_OK && c.verified && c.rounds;
	uint64_t to_ns = metric_ticks_to_ns(c.to_ticks, p->timer_hz), from_ns = metric_ticks_to_ns(c.from_ticks, p->timer_hz);
	/* the two legs run one after the other; the link limit takes the slower direction's least
	 * time (link_limit_rate), so the fraction is a lower bound here (the sum would be exact) */
	dma_window_rate(&r, c.moved.read, c.moved.write, to_ns + from_ns);

	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "dma_engine_roundtrip");
	json_str(j, "engine", e->name);
	json_str(j, "bdf", bdf);
	json_u64(j, "bytes", bytes);
	json_u64(j, "rounds", c.rounds);
	json_hex(j, "host_src", src);
	json_hex(j, "host_dst", dst);
	json_u64(j, "to_device_ns", to_ns);
	json_u64(j, "from_device_ns", from_ns);
	json_str(j, "status", hw_status_name(st));
	json_bool(j, "verified", ok);
	dma_window_json(j, &r);
	rep_end();
	rep_line("dma:        %s %s: %u bytes x %u host -> device %llu ns, device -> host %llu ns, %s", e->name, bdf, bytes,
		 c.rounds, (unsigned long long)to_ns, (unsigned long long)from_ns, ok ? "data verified" : "FAILED");
	BS->FreePages(src, EFI_SIZE_TO_PAGES(bytes));
	BS->FreePages(dst, EFI_SIZE_TO_PAGES(bytes));
	if (!ok) {
		rep_error("dma_engine", "%s %s: %s", e->name, bdf,
			  st != HW_OK ? "transfer did not complete" : "data came back different from what was sent");
		return -1;
	}
	return 0;
}
