/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/blockio_measure.h"
#include "efi/dma_pattern.h"
#include "efi/pcie.h"
#include "efi/pages.h"
#include "efi/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#define TRANSFER_BYTES (1u << 20)   /* per ReadBlocks call */

/* The Block IO protocol (whole device, not a partition) of the PCI function seg:bus:dev.fn. */
static EFI_BLOCK_IO *find_blockio(uint64_t bdf)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	EFI_BLOCK_IO *found = NULL;
	if (BS->LocateHandleBuffer(ByProtocol, &BlockIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return NULL;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_BLOCK_IO *bio;
		EFI_DEVICE_PATH *dp;
		EFI_HANDLE pci;
		EFI_PCI_IO_PROTOCOL *pio;
		UINTN s, b, d, f;
		if (BS->HandleProtocol(h[i], &BlockIoProtocol, (VOID **)&bio) != EFI_SUCCESS ||
		    bio->Media->LogicalPartition ||
		    BS->HandleProtocol(h[i], &DevicePathProtocol, (VOID **)&dp) != EFI_SUCCESS ||
		    BS->LocateDevicePath(&PciIoProtocol, &dp, &pci) != EFI_SUCCESS ||
		    BS->HandleProtocol(pci, &PciIoProtocol, (VOID **)&pio) != EFI_SUCCESS ||
		    pio->GetLocation(pio, &s, &b, &d, &f) != EFI_SUCCESS)
			continue;
		if (CFG_BDF(s, b, d, f) == bdf)
			found = bio;
	}
	FreePool(h);
	return found;
}

int measure_blockio(const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->dma_blockio == CFG_BDF_NONE)
		return 0;
	char bdf[16];
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
				 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	EFI_BLOCK_IO *bio = find_blockio(cfg->dma_blockio);
	if (!bio) {
		rep_error("blockio", "dma_blockio %s: no Block IO device (whole disk) behind that PCI function", bdf);
		return -1;
	}
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	uint64_t dev_bytes = (m->LastBlock + 1) * (uint64_t)m->BlockSize;
	uint64_t bytes = cfg->dma_bytes < dev_bytes ? cfg->dma_bytes : dev_bytes;
	bytes -= bytes % m->BlockSize;
	if (!m->MediaPresent || !bytes) {
		rep_error("blockio", "dma_blockio %s: no media, or smaller than one block", bdf);
		return -1;
	}
	uint8_t *buf = pages_alloc(TRANSFER_BYTES);
	if (!buf) {
		rep_error("blockio", "cannot allocate the %u-byte transfer buffer", TRANSFER_BYTES);
		return -1;
	}
	int pattern = -1;          /* -1 unknown yet, 0 not efiperf's pattern, 1 verified so far */
	uint64_t bad = 0, ticks = 0, done = 0;
	EFI_STATUS st = EFI_SUCCESS;
	while (done < bytes && st == EFI_SUCCESS) {
		UINTN n = bytes - done < TRANSFER_BYTES ? bytes - done : TRANSFER_BYTES;
		uint64_t t0 = arch_timer_read();
		st = bio->ReadBlocks(bio, m->MediaId, done / m->BlockSize, n, buf);
		ticks += arch_timer_read() - t0;
		if (st != EFI_SUCCESS)
			break;
		if (pattern < 0)
			pattern = dma_pattern_present(*(uint64_t *)buf);
		if (pattern == 1 && dma_pattern_check(buf, done, n, &bad) != 0)
			pattern = 2;   /* carried the pattern, then differed: a data error */
		done += n;
	}
	pages_free(buf, TRANSFER_BYTES);
	uint64_t ns = metric_ticks_to_ns(ticks, p->timer_hz);
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "blockio_read");
	json_str(j, "bdf", bdf);
	json_u64(j, "block_size", m->BlockSize);
	json_u64(j, "device_bytes", dev_bytes);
	json_u64(j, "bytes", done);
	json_u64(j, "transfer_bytes", TRANSFER_BYTES);
	json_u64(j, "ns", ns);
	json_milli(j, "gbps", metric_gbps_milli(done, ns));
	json_str(j, "status", st == EFI_SUCCESS ? "ok" : "ReadBlocks failed");
	if (pattern == 1)
		json_bool(j, "verified", 1);
	else if (pattern == 2)
		json_bool(j, "verified", 0);
	else
		json_str(j, "verified", "pattern unknown");
	if (pattern == 2)
		json_u64(j, "first_bad_offset", bad);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(done, ns));
	rep_line("blockio:    %s: read %llu of %llu bytes in %llu ns, %s GB/s, %s", bdf, (unsigned long long)done,
		 (unsigned long long)dev_bytes, (unsigned long long)ns, rate,
		 pattern == 1 ? "data verified" : pattern == 2 ? "DATA DIFFERS" : "pattern unknown (not verified)");
	if (st != EFI_SUCCESS || pattern == 2) {
		rep_error("blockio", "%s: %s at device offset %llu", bdf, st != EFI_SUCCESS ? "ReadBlocks failed" : "data differs from the pattern",
			  (unsigned long long)(st != EFI_SUCCESS ? done : bad));
		return -1;
	}
	return 0;
}
