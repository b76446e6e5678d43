/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_pattern.h"
#include "efi/config/blockio_target.h"
#include "efi/pcie/pcie.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"
#include "efi/measure/dma_window.h"

#define TRANSFER_BYTES (1u << 20)   /* per ReadBlocks call */
#define DMA_4GIB (1ull << 32)       /* buffers above: 4 DW Memory Write headers */

void *blockio_find(uint64_t bdf, void **handle)
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
		if (CFG_BDF(s, b, d, f) == bdf) {
			found = bio;
			if (handle)
				*handle = h[i];
		}
	}
	FreePool(h);
	return found;
}

/* Blocks of the next transfer of a walk over blocks lba..last: at most TRANSFER_BYTES. */
static uint64_t piece_blocks(const EFI_BLOCK_IO_MEDIA *m, uint64_t lba, uint64_t last)
{
	uint64_t per = TRANSFER_BYTES / m->BlockSize;
	return last - lba + 1 < per ? last - lba + 1 : per;
}

/* The read as a window of slices (efi/measure/dma_window.h): slice k of n reads transfers
 * [k T / n, (k + 1) T / n) of the T transfers, checking the pattern as it goes. */
struct read_ctx {
	EFI_BLOCK_IO *bio;
	uint8_t *buf;
	uint64_t last;            /* last block */
	uint64_t transfers;       /* T */
	uint64_t hz;
	int pattern;              /* -1 unknown yet, 0 not efiperf's pattern, 1 verified so far, 2 differs */
	uint64_t bad, ticks, done;
	EFI_STATUS st;
	struct self_check_bytes moved;   /* the device wrote memory: `done` bytes */
};

static uint64_t read_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	struct read_ctx *c = arg;
	EFI_BLOCK_IO_MEDIA *m = c->bio->Media;
	uint64_t per = TRANSFER_BYTES / m->BlockSize, n = nslices ? nslices : 1;
	uint64_t first = c->transfers * slice / n, end = c->transfers * (slice + 1) / n, ticks = 0;
	for (uint64_t t = first; t < end && c->st == EFI_SUCCESS; t++) {
		uint64_t lba = t * per;
		UINTN bytes = piece_blocks(m, lba, c->last) * m->BlockSize;
		uint64_t t0 = arch_timer_read();
		c->st = c->bio->ReadBlocks(c->bio, m->MediaId, lba, bytes, c->buf);
		ticks += arch_timer_read() - t0;
		if (c->st != EFI_SUCCESS)
			break;
		if (c->pattern < 0)
			c->pattern = dma_pattern_present(*(uint64_t *)c->buf);
		if (c->pattern == 1 && dma_pattern_check(c->buf, lba * m->BlockSize, bytes, &c->bad) != 0)
			c->pattern = 2;   /* carried the pattern, then differed: a data error */
		c->done += bytes;
	}
	c->ticks += ticks;
	c->moved.write = c->done;
	return metric_ticks_to_ns(ticks, c->hz);
}

int measure_blockio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->dma_blockio == CFG_BDF_NONE)
		return 0;
	char bdf[16];
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
				 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	EFI_BLOCK_IO *bio = blockio_find(cfg->dma_blockio, NULL);
	if (!bio) {
		rep_error("blockio", "dma_blockio %s: no Block IO device (whole disk) behind that PCI function", bdf);
		return -1;
	}
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	uint64_t dev_bytes = (m->LastBlock + 1) * (uint64_t)m->BlockSize;
	if (!m->BlockSize || TRANSFER_BYTES % m->BlockSize) {
		rep_error("blockio", "dma_blockio %s: block size %u does not divide the %u-byte transfer", bdf, m->BlockSize,
			  TRANSFER_BYTES);
		return -1;
	}
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
	struct read_ctx c = { .bio = bio, .buf = buf, .last = bytes / m->BlockSize - 1,
			      .transfers = (bytes + TRANSFER_BYTES - 1) / TRANSFER_BYTES, .hz = p->timer_hz,
			      .pattern = -1, .st = EFI_SUCCESS };
	struct dma_window w = { "blockio_read", read_slice, &c, &c.moved, NULL, a,
				(uintptr_t)buf + TRANSFER_BYTES > DMA_4GIB };
	struct dma_window_result r;
	dma_window_run(hw, p, &w, &r);
	pages_free(buf, TRANSFER_BYTES);
	uint64_t done = c.done, ns = metric_ticks_to_ns(c.ticks, p->timer_hz);
	int pattern = c.pattern;
	EFI_STATUS st = c.st;
	dma_window_rate(&r, 0, done, ns);
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
		json_u64(j, "first_bad_offset", c.bad);
	dma_window_json(j, &r);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(done, ns));
	rep_line("blockio:    %s: read %llu of %llu bytes in %llu ns, %s GB/s, %s", bdf, (unsigned long long)done,
		 (unsigned long long)dev_bytes, (unsigned long long)ns, rate,
		 pattern == 1 ? "data verified" : pattern == 2 ? "DATA DIFFERS" : "pattern unknown (not verified)");
	if (st != EFI_SUCCESS || pattern == 2) {
		rep_error("blockio", "%s: %s at device offset %llu", bdf, st != EFI_SUCCESS ? "ReadBlocks failed" : "data differs from the pattern",
			  (unsigned long long)(st != EFI_SUCCESS ? done : c.bad));
		return -1;
	}
	return 0;
}

int blockio_holds_boot_volume(void *disk, void *image)
{
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(disk), *boot;
	if (!dp || BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li) != EFI_SUCCESS ||
	    !(boot = DevicePathFromHandle(li->DeviceHandle)))
		return 0;
	UINTN n = DevicePathSize(dp) - END_DEVICE_PATH_LENGTH, nb = DevicePathSize(boot);
	return nb >= n && CompareMem(dp, boot, n) == 0;
}

/* Write [first, last] of bio with the pattern in TRANSFER_BYTES pieces, timing the writes;
 * returns the status and the blocks written in *done_blocks. */
static EFI_STATUS write_range(EFI_BLOCK_IO *bio, uint8_t *buf, const struct blockio_target *t, uint64_t *ticks,
			      uint64_t *done_blocks)
{
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	uint64_t lba = t->first;
	EFI_STATUS st = EFI_SUCCESS;
	*ticks = 0;
	while (lba <= t->last && st == EFI_SUCCESS) {
		uint64_t nblk = piece_blocks(m, lba, t->last);
		dma_pattern_fill(buf, lba * m->BlockSize, nblk * m->BlockSize);
		uint64_t t0 = arch_timer_read();
		st = bio->WriteBlocks(bio, m->MediaId, lba, nblk * m->BlockSize, buf);
		*ticks += arch_timer_read() - t0;
		if (st == EFI_SUCCESS)
			lba += nblk;
	}
	*done_blocks = lba - t->first;
	return st;
}

/* Read [first, last] back and check the pattern; -1 with *bad (device offset) on a difference. */
static EFI_STATUS verify_range(EFI_BLOCK_IO *bio, uint8_t *buf, const struct blockio_target *t, uint64_t *bad,
			       int *differs)
{
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	*differs = 0;
	for (uint64_t lba = t->first; lba <= t->last;) {
		uint64_t nblk = piece_blocks(m, lba, t->last);
		EFI_STATUS st = bio->ReadBlocks(bio, m->MediaId, lba, nblk * m->BlockSize, buf);
		if (st != EFI_SUCCESS)
			return st;
		if (dma_pattern_check(buf, lba * m->BlockSize, nblk * m->BlockSize, bad) != 0) {
			*differs = 1;
			return EFI_SUCCESS;
		}
		lba += nblk;
	}
	return EFI_SUCCESS;
}

int measure_blockio_write(const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	struct blockio_target t;
	char msg[160], bdf[16];
	if (blockio_target_parse(cfg->dma_write_lba, strlena((CHAR8 *)cfg->dma_write_lba), &t, msg, sizeof(msg)) != 0 ||
	    !t.set)
		return 0;   /* the config parser accepted it; "none" writes nothing */
	struct hw_pci_addr a = { CFG_BDF_SEG(t.bdf), CFG_BDF_BUS(t.bdf), CFG_BDF_DEV(t.bdf), CFG_BDF_FN(t.bdf) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	EFI_HANDLE disk = NULL;
	EFI_BLOCK_IO *bio = blockio_find(t.bdf, (void **)&disk);
	if (!bio) {
		rep_error("blockio_write", "dma_write_lba %s: no Block IO device (whole disk) behind that PCI function", bdf);
		return -1;
	}
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	if (!m->MediaPresent || m->ReadOnly) {
		rep_error("blockio_write", "dma_write_lba %s: %s: nothing written", bdf, m->MediaPresent ? "the medium is read-only" : "no medium");
		return -1;
	}
	if (t.last > m->LastBlock) {
		rep_error("blockio_write", "dma_write_lba %s: blocks %llu-%llu run past the disk's last block %llu: nothing written",
			  bdf, (unsigned long long)t.first, (unsigned long long)t.last, (unsigned long long)m->LastBlock);
		return -1;
	}
	if (blockio_holds_boot_volume(disk, image)) {
		rep_error("blockio_write", "dma_write_lba %s: that disk holds the volume efiperf booted from (and its logs): nothing written", bdf);
		return -1;
	}
	if (m->BlockSize == 0 || TRANSFER_BYTES % m->BlockSize) {
		rep_error("blockio_write", "dma_write_lba %s: block size %u does not divide the %u-byte transfer", bdf, m->BlockSize, TRANSFER_BYTES);
		return -1;
	}
	uint8_t *buf = pages_alloc(TRANSFER_BYTES);
	if (!buf) {
		rep_error("blockio_write", "cannot allocate the %u-byte transfer buffer", TRANSFER_BYTES);
		return -1;
	}
	uint64_t wticks, blocks, bad = 0;
	EFI_STATUS st = write_range(bio, buf, &t, &wticks, &blocks);
	uint64_t t0 = arch_timer_read();
	EFI_STATUS fst = st == EFI_SUCCESS ? bio->FlushBlocks(bio) : st;
	uint64_t fticks = arch_timer_read() - t0;
	int differs = 0;
	EFI_STATUS rst = fst == EFI_SUCCESS ? verify_range(bio, buf, &t, &bad, &differs) : fst;
	pages_free(buf, TRANSFER_BYTES);
	uint64_t bytes = blocks * m->BlockSize, ns = metric_ticks_to_ns(wticks, p->timer_hz);
	const char *status = st != EFI_SUCCESS ? "WriteBlocks failed" : fst != EFI_SUCCESS ? "FlushBlocks failed"
			     : rst != EFI_SUCCESS ? "ReadBlocks failed" : differs ? "read back differs" : "ok";
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "blockio_write");
	json_str(j, "bdf", bdf);
	json_u64(j, "first_lba", t.first);
	json_u64(j, "last_lba", t.last);
	json_u64(j, "block_size", m->BlockSize);
	json_u64(j, "bytes", bytes);
	json_u64(j, "transfer_bytes", TRANSFER_BYTES);
	json_u64(j, "ns", ns);
	json_milli(j, "gbps", metric_gbps_milli(bytes, ns));
	json_u64(j, "flush_ns", metric_ticks_to_ns(fticks, p->timer_hz));
	json_str(j, "status", status);
	json_bool(j, "verified", rst == EFI_SUCCESS && fst == EFI_SUCCESS && !differs);
	if (differs)
		json_u64(j, "first_bad_offset", bad);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(bytes, ns));
	rep_line("blockio:    %s: WROTE blocks %llu-%llu (%llu bytes) in %llu ns, %s GB/s, read back: %s", bdf,
		 (unsigned long long)t.first, (unsigned long long)t.last, (unsigned long long)bytes, (unsigned long long)ns,
		 rate, status);
	if (strcmpa((CHAR8 *)status, (CHAR8 *)"ok") != 0) {
		rep_error("blockio_write", "%s: %s (device offset %llu)", bdf, status,
			  (unsigned long long)(differs ? bad : bytes + t.first * m->BlockSize));
		return -1;
	}
	return 0;
}
