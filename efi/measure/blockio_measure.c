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

/* UEFI 2.10 10.3.4: Messaging Device Path nodes that name one disk of a controller. */
#define MSG_SATA_SUBTYPE 0x12u            /* 10.3.4.6 SATA: HBA Port Number (UINT16) at byte 4 */
#define MSG_NVME_NAMESPACE_SUBTYPE 0x17u  /* 10.3.4.24 NVM Express namespace: NSID (UINT32) at 4 */
#define DP_NODE_MIN_NVME 16u              /* its length: header 4, NSID 4, EUI-64 8 */
#define DP_NODE_MIN_SATA 10u              /* header 4, port 2, port multiplier port 2, LUN 2 */

/* Which disk of its controller the device path dp names: an NVMe namespace or a SATA port. */
static void disk_unit(EFI_DEVICE_PATH *dp, struct blockio_disk *d)
{
	d->unit = BLOCKIO_UNIT_ANY;
	d->unit_no = 0;
	for (; !IsDevicePathEnd(dp) && (UINTN)DevicePathNodeLength(dp) >= sizeof(EFI_DEVICE_PATH); dp = NextDevicePathNode(dp)) {
		const UINT8 *b = (const UINT8 *)dp;
		UINTN len = DevicePathNodeLength(dp);
		if (DevicePathType(dp) != MESSAGING_DEVICE_PATH)
			continue;
		if (DevicePathSubType(dp) == MSG_NVME_NAMESPACE_SUBTYPE && len >= DP_NODE_MIN_NVME) {
			d->unit = BLOCKIO_UNIT_NS;
			d->unit_no = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
		} else if (DevicePathSubType(dp) == MSG_SATA_SUBTYPE && len >= DP_NODE_MIN_SATA) {
			d->unit = BLOCKIO_UNIT_PORT;
			d->unit_no = (uint32_t)b[4] | (uint32_t)b[5] << 8;
		}
	}
}

void blockio_disk_name(const struct blockio_disk *d, const char *bdf, char *buf, size_t n)
{
	if (d->unit == BLOCKIO_UNIT_NS)
		fmt_snprintf(buf, n, "%s/ns%u", bdf, d->unit_no);
	else if (d->unit == BLOCKIO_UNIT_PORT)
		fmt_snprintf(buf, n, "%s/port%u", bdf, d->unit_no);
	else
		fmt_snprintf(buf, n, "%s", bdf);
}

int blockio_disks(uint64_t bdf, struct blockio_disk *out, int max)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	int k = 0;
	if (BS->LocateHandleBuffer(ByProtocol, &BlockIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return 0;
	for (UINTN i = 0; i < n; i++) {
		EFI_BLOCK_IO *bio;
		EFI_DEVICE_PATH *dp, *whole;
		EFI_HANDLE pci;
		EFI_PCI_IO_PROTOCOL *pio;
		UINTN s, b, d, f;
		if (BS->HandleProtocol(h[i], &BlockIoProtocol, (VOID **)&bio) != EFI_SUCCESS ||
		    bio->Media->LogicalPartition ||
		    BS->HandleProtocol(h[i], &DevicePathProtocol, (VOID **)&dp) != EFI_SUCCESS)
			continue;
		whole = dp;
		if (BS->LocateDevicePath(&PciIoProtocol, &dp, &pci) != EFI_SUCCESS ||
		    BS->HandleProtocol(pci, &PciIoProtocol, (VOID **)&pio) != EFI_SUCCESS ||
		    pio->GetLocation(pio, &s, &b, &d, &f) != EFI_SUCCESS || CFG_BDF(s, b, d, f) != bdf)
			continue;
		if (k < max) {
			out[k] = (struct blockio_disk){ .bio = bio, .handle = h[i] };
			disk_unit(whole, &out[k]);
		}
		k++;
	}
	FreePool(h);
	return k;
}

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

/* Blocks of the next transfer of a walk over blocks lba..last: at most xfer bytes. */
static uint64_t piece_blocks(const EFI_BLOCK_IO_MEDIA *m, uint64_t lba, uint64_t last, uint64_t xfer)
{
	uint64_t per = xfer / m->BlockSize;
	return last - lba + 1 < per ? last - lba + 1 : per;
}

/* What is wrong with reading the disk bio (its PCI function named bdf) in xfer-byte
 * transfers, or NULL. */
static const char *read_target_why(EFI_BLOCK_IO *bio, const char *bdf, uint64_t xfer, char *msg, size_t n)
{
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	if (!m->MediaPresent)
		fmt_snprintf(msg, n, "%s: no media, or smaller than one block", bdf);
	else if (!m->BlockSize || xfer % m->BlockSize)
		fmt_snprintf(msg, n, "%s: block size %u does not divide the %llu-byte transfer", bdf, m->BlockSize,
			     (unsigned long long)xfer);
	else
		return NULL;
	return msg;
}

int blockio_read_init(struct blockio_read *c, uint64_t bdf, uint64_t bytes, void *buf, uint64_t buf_bytes,
		      uint64_t hz, char *why, size_t n)
{
	char name[16];
	struct hw_pci_addr a = { CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
	pcie_bdf_str(a, name, sizeof(name));
	EFI_BLOCK_IO *bio = blockio_find(bdf, NULL);
	uint64_t xfer = buf_bytes < TRANSFER_BYTES ? buf_bytes : TRANSFER_BYTES;
	*c = (struct blockio_read){ .bio = bio, .buf = buf, .buf_bytes = buf_bytes, .xfer = xfer, .hz = hz, .pattern = -1 };
	if (!bio) {
		fmt_snprintf(why, n, "%s: no Block IO device (whole disk) behind that PCI function", name);
		return -1;
	}
	if (read_target_why(bio, name, xfer, why, n))
		return -1;
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	c->block_size = m->BlockSize;
	c->device_bytes = (m->LastBlock + 1) * (uint64_t)m->BlockSize;
	bytes = bytes < c->device_bytes ? bytes : c->device_bytes;
	bytes -= bytes % m->BlockSize;
	if (!bytes) {
		fmt_snprintf(why, n, "%s: no media, or smaller than one block", name);
		return -1;
	}
	c->last = bytes / m->BlockSize - 1;
	c->transfers = (bytes + xfer - 1) / xfer;
	return 0;
}

uint64_t blockio_read_slice(void *arg, uint32_t slice, uint32_t nslices)
{
	struct blockio_read *c = arg;
	EFI_BLOCK_IO *bio = c->bio;
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	uint64_t per = c->xfer / m->BlockSize, n = nslices ? nslices : 1;
	uint64_t first = c->transfers * slice / n, end = c->transfers * (slice + 1) / n, ticks = 0;
	for (uint64_t t = first; t < end && c->st == EFI_SUCCESS; t++) {
		uint64_t lba = t * per;
		UINTN bytes = piece_blocks(m, lba, c->last, c->xfer) * m->BlockSize;
		uint8_t *dst = c->buf + t * c->xfer % c->buf_bytes;   /* the DMA target wraps in the buffer */
		uint64_t t0 = arch_timer_read();
		c->st = bio->ReadBlocks(bio, m->MediaId, lba, bytes, dst);
		ticks += arch_timer_read() - t0;
		if (c->st != EFI_SUCCESS)
			break;
		if (c->pattern < 0)
			c->pattern = dma_pattern_present(*(uint64_t *)dst);
		if (c->pattern == 1 && dma_pattern_check(dst, lba * m->BlockSize, bytes, &c->bad) != 0)
			c->pattern = 2;   /* carried the pattern, then differed: a data error */
		c->done += bytes;
	}
	c->ticks += ticks;
	c->moved.write = c->done;
	return metric_ticks_to_ns(ticks, c->hz);
}

void blockio_read_json(struct json *j, const struct blockio_read *c)
{
	json_u64(j, "block_size", c->block_size);
	json_u64(j, "device_bytes", c->device_bytes);
	json_u64(j, "bytes", c->done);
	json_u64(j, "transfer_bytes", c->xfer);
	json_u64(j, "ns", metric_ticks_to_ns(c->ticks, c->hz));
	json_milli(j, "gbps", metric_gbps_milli(c->done, metric_ticks_to_ns(c->ticks, c->hz)));
	json_str(j, "status", c->st == EFI_SUCCESS ? "ok" : "ReadBlocks failed");
	if (c->pattern == 1)
		json_bool(j, "verified", 1);
	else if (c->pattern == 2)
		json_bool(j, "verified", 0);
	else
		json_str(j, "verified", "pattern unknown");
	if (c->pattern == 2)
		json_u64(j, "first_bad_offset", c->bad);
}

int blockio_read_failed(const struct blockio_read *c, const char *bdf, const char *where)
{
	if (c->st == EFI_SUCCESS && c->pattern != 2)
		return 0;
	rep_error(where, "%s: %s at device offset %llu", bdf, c->st != EFI_SUCCESS ? "ReadBlocks failed" : "data differs from the pattern",
		  (unsigned long long)(c->st != EFI_SUCCESS ? c->done : c->bad));
	return -1;
}

int measure_blockio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (cfg->dma_blockio == CFG_BDF_NONE)
		return 0;
	char bdf[16], why[160];
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
				 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
	pcie_bdf_str(a, bdf, sizeof(bdf));
	uint8_t *buf = pages_alloc(TRANSFER_BYTES);
	if (!buf) {
		rep_error("blockio", "cannot allocate the %u-byte transfer buffer", TRANSFER_BYTES);
		return -1;
	}
	struct blockio_read c;
	if (blockio_read_init(&c, cfg->dma_blockio, cfg->dma_bytes, buf, TRANSFER_BYTES, p->timer_hz, why, sizeof(why)) != 0) {
		pages_free(buf, TRANSFER_BYTES);
		rep_error("blockio", "dma_blockio %s", why);
		return -1;
	}
	struct dma_window w = { "blockio_read", blockio_read_slice, &c, &c.moved, NULL, a,
				(uintptr_t)buf + TRANSFER_BYTES > DMA_4GIB, NULL };
	struct dma_window_result r;
	dma_window_run(hw, p, &w, &r);
	pages_free(buf, TRANSFER_BYTES);
	uint64_t ns = metric_ticks_to_ns(c.ticks, p->timer_hz);
	dma_window_rate(&r, 0, c.done, ns);
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "blockio_read");
	json_str(j, "bdf", bdf);
	blockio_read_json(j, &c);
	dma_window_json(j, &r);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(c.done, ns));
	rep_line("blockio:    %s: read %llu of %llu bytes in %llu ns, %s GB/s, %s", bdf, (unsigned long long)c.done,
		 (unsigned long long)c.device_bytes, (unsigned long long)ns, rate,
		 c.pattern == 1 ? "data verified" : c.pattern == 2 ? "DATA DIFFERS" : "pattern unknown (not verified)");
	return blockio_read_failed(&c, bdf, "blockio");
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
		uint64_t nblk = piece_blocks(m, lba, t->last, TRANSFER_BYTES);
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
		uint64_t nblk = piece_blocks(m, lba, t->last, TRANSFER_BYTES);
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

/* What is wrong with writing target t (its disk bio with handle disk), or NULL: nothing may
 * be written then. */
static const char *write_target_why(const struct blockio_target *t, EFI_BLOCK_IO *bio, void *disk, void *image,
				    const char *bdf, char *msg, size_t n)
{
	if (!bio) {
		fmt_snprintf(msg, n, "%s: no Block IO device (whole disk) behind that PCI function", bdf);
		return msg;
	}
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
	if (!m->MediaPresent || m->ReadOnly)
		fmt_snprintf(msg, n, "%s: %s: nothing written", bdf, m->MediaPresent ? "the medium is read-only" : "no medium");
	else if (t->last > m->LastBlock)
		fmt_snprintf(msg, n, "%s: blocks %llu-%llu run past the disk's last block %llu: nothing written", bdf,
			     (unsigned long long)t->first, (unsigned long long)t->last, (unsigned long long)m->LastBlock);
	else if (blockio_holds_boot_volume(disk, image))
		fmt_snprintf(msg, n, "%s: that disk holds the volume efiperf booted from (and its logs): nothing written", bdf);
	else if (m->BlockSize == 0 || TRANSFER_BYTES % m->BlockSize)
		fmt_snprintf(msg, n, "%s: block size %u does not divide the %u-byte transfer", bdf, m->BlockSize, TRANSFER_BYTES);
	else
		return NULL;
	return msg;
}

/* The disk of t among the function's disks: the one named by /nsN or /portN, or the only one.
 * NULL with msg saying why (none there, that one not there, several and none named). */
static const struct blockio_disk *pick_disk(const struct blockio_target *t, const struct blockio_disk *d, int n,
					    const char *bdf, char *msg, size_t len)
{
	static const char *const kinds[] = { [BLOCKIO_UNIT_NS] = "ns", [BLOCKIO_UNIT_PORT] = "port" };
	int shown = n < BLOCKIO_MAX_DISKS ? n : BLOCKIO_MAX_DISKS;
	struct strbuf sb;
	char list[128];
	sb_init(&sb, list, sizeof(list));
	for (int i = 0; i < shown; i++) {
		char name[40];
		blockio_disk_name(&d[i], "", name, sizeof(name));
		sb_printf(&sb, "%s%s", i ? ", " : "", name[0] ? name + 1 : "a disk with no namespace or port node");
	}
	if (n > shown)
		sb_printf(&sb, ", and %d more", n - shown);
	if (t->unit == BLOCKIO_UNIT_ANY) {
		if (n == 1)
			return &d[0];
		int ns = 0, ports = 0;
		for (int i = 0; i < shown; i++) {
			ns += d[i].unit == BLOCKIO_UNIT_NS;
			ports += d[i].unit == BLOCKIO_UNIT_PORT;
		}
		char how[96];   /* the syntax that names these disks: /nsN for namespaces, /portN for ports */
		if (ns == shown || ports == shown)
			fmt_snprintf(how, sizeof(how), "%s/%s", bdf, ns == shown ? "nsN" : "portN");
		else
			fmt_snprintf(how, sizeof(how), "%s/nsN or %s/portN", bdf, bdf);
		if (n > 1)
			fmt_snprintf(msg, len, "%s has %d disks (%s): name one as %s: nothing written", bdf, n, list, how);
		return NULL;
	}
	for (int i = 0; i < shown; i++)
		if (d[i].unit == t->unit && d[i].unit_no == t->unit_no)
			return &d[i];
	if (n > shown)
		fmt_snprintf(msg, len, "%s: no disk %s%u among the first %d of its %d disks, the most efiperf looks at "
			     "(BLOCKIO_MAX_DISKS): nothing written", bdf, kinds[t->unit], t->unit_no, shown, n);
	else if (n)
		fmt_snprintf(msg, len, "%s has no disk %s%u (its disks: %s): nothing written", bdf, kinds[t->unit], t->unit_no,
			     list);
	else
		fmt_snprintf(msg, len, "%s: no Block IO device (whole disk) behind that PCI function", bdf);
	return NULL;
}

/* The write target of dma_write_lba, resolved; 0 when none is set, 1 when it is (and *why
 * NULL when it may be written; bdf then names the disk, "0000:01:00.0/ns2"). */
static int write_target(const struct efiperf_config *cfg, void *image, struct blockio_target *t, EFI_BLOCK_IO **bio,
			char *bdf, const char **why, char *msg, size_t n)
{
	if (blockio_target_parse(cfg->dma_write_lba, strlena((CHAR8 *)cfg->dma_write_lba), t, msg, n) != 0 || !t->set)
		return 0;   /* the config parser accepted it; "none" writes nothing */
	struct hw_pci_addr a = { CFG_BDF_SEG(t->bdf), CFG_BDF_BUS(t->bdf), CFG_BDF_DEV(t->bdf), CFG_BDF_FN(t->bdf) };
	pcie_bdf_str(a, bdf, BLOCKIO_DISK_NAME);
	struct blockio_disk disks[BLOCKIO_MAX_DISKS];
	int nd = blockio_disks(t->bdf, disks, BLOCKIO_MAX_DISKS);
	const struct blockio_disk *d = pick_disk(t, disks, nd, bdf, msg, n);
	*bio = NULL;
	if (!d && (nd || t->unit != BLOCKIO_UNIT_ANY)) {
		*why = msg;
		return 1;
	}
	if (d) {
		char fn[BLOCKIO_DISK_NAME];
		fmt_snprintf(fn, sizeof(fn), "%s", bdf);
		blockio_disk_name(d, fn, bdf, BLOCKIO_DISK_NAME);
		*bio = d->bio;
	}
	*why = write_target_why(t, *bio, d ? d->handle : NULL, image, bdf, msg, n);
	return 1;
}

int blockio_plan_check(const struct efiperf_config *cfg, void *image, struct plan_errors *out)
{
	int before = out->n;
	char msg[200], bdf[BLOCKIO_DISK_NAME];
	if (cfg->dma_blockio != CFG_BDF_NONE) {
		struct hw_pci_addr a = { CFG_BDF_SEG(cfg->dma_blockio), CFG_BDF_BUS(cfg->dma_blockio),
					 CFG_BDF_DEV(cfg->dma_blockio), CFG_BDF_FN(cfg->dma_blockio) };
		pcie_bdf_str(a, bdf, sizeof(bdf));
		EFI_BLOCK_IO *bio = blockio_find(cfg->dma_blockio, NULL);
		if (!bio)
			plan_error_add(out, CFG_DMA_BLOCKIO, "%s: no Block IO device (whole disk) behind that PCI function", bdf);
		else if (read_target_why(bio, bdf, TRANSFER_BYTES, msg, sizeof(msg)))
			plan_error_add(out, CFG_DMA_BLOCKIO, "%s", msg);
	}
	struct blockio_target t;
	EFI_BLOCK_IO *wbio;
	const char *why;
	if (write_target(cfg, image, &t, &wbio, bdf, &why, msg, sizeof(msg)) && why)
		plan_error_add(out, CFG_DMA_WRITE_LBA, "%s", why);
	return out->n - before;
}

int measure_blockio_write(const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	struct blockio_target t;
	char msg[200], bdf[BLOCKIO_DISK_NAME];
	EFI_BLOCK_IO *bio;
	const char *why;
	if (!write_target(cfg, image, &t, &bio, bdf, &why, msg, sizeof(msg)))
		return 0;
	if (why) {   /* the plan refused it already; never written */
		rep_error("blockio_write", "dma_write_lba %s", why);
		return -1;
	}
	EFI_BLOCK_IO_MEDIA *m = bio->Media;
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
	size_t fn = 0;   /* the function: bdf up to its /nsN or /portN */
	while (bdf[fn] && bdf[fn] != '/')
		fn++;
	json_strn(j, "bdf", bdf, fn);
	json_str(j, "disk", bdf);
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
