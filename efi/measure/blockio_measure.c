/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_pattern.h"
#include "efi/config/blockio_target.h"
#include "efi/pcie/pcie.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "efi/out/blockio_out.h"
#include "efi/measure/dma_ops.h"
#include "efi/measure/measure.h"
#include "arch/arch.h"
#include "pmu/metrics.h"
#include "efi/measure/dma_window.h"

#define TRANSFER_BYTES BLOCKIO_TRANSFER_BYTES

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

static uint64_t efi_read(void *dev, uint64_t lba, uint64_t bytes, void *dst)
{
	EFI_BLOCK_IO *bio = dev;
	return bio->ReadBlocks(bio, bio->Media->MediaId, lba, bytes, dst);
}

static uint64_t efi_write(void *dev, uint64_t lba, uint64_t bytes, const void *src)
{
	EFI_BLOCK_IO *bio = dev;
	return bio->WriteBlocks(bio, bio->Media->MediaId, lba, bytes, (void *)src);
}

static uint64_t efi_flush(void *dev)
{
	EFI_BLOCK_IO *bio = dev;
	return bio->FlushBlocks(bio);
}

static const struct blockio_ops efi_blockio_ops = { efi_read, efi_write, efi_flush, arch_timer_read };

static void dev_of(EFI_BLOCK_IO *bio, struct blockio_dev *d)
{
	*d = (struct blockio_dev){ .ops = &efi_blockio_ops, .dev = bio, .media_present = bio->Media->MediaPresent,
				   .block_size = bio->Media->BlockSize, .last_block = bio->Media->LastBlock };
}

int blockio_dev_find(uint64_t bdf, struct blockio_dev *d, char *why, size_t n)
{
	EFI_BLOCK_IO *bio = blockio_find(bdf, NULL);
	*d = (struct blockio_dev){ .ops = &efi_blockio_ops };
	if (!bio) {
		char name[16];
		struct hw_pci_addr a = { CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
		pcie_bdf_str(a, name, sizeof(name));
		fmt_snprintf(why, n, "%s: no Block IO device (whole disk) behind that PCI function", name);
		return -1;
	}
	dev_of(bio, d);
	return 0;
}

int measure_blockio(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
                    const struct dma_plan *dp)
{
	if (cfg->dma_blockio == CFG_BDF_NONE)
		return 0;
	uint64_t b = cfg->dma_blockio;
	struct blockio_request req = { .bdf = { CFG_BDF_SEG(b), CFG_BDF_BUS(b), CFG_BDF_DEV(b), CFG_BDF_FN(b) },
				       .dma_bytes = cfg->dma_bytes };
	pcie_bdf_str(req.bdf, req.name, sizeof(req.name));
	struct blockio_result *res = measure_work(sizeof(*res), "blockio");
	if (!res)
		return -1;
	if (blockio_dev_find(b, &req.disk, res->why, sizeof(res->why)) != 0) {
		res->refused = 1;
	} else {
		struct measure_ctx ctx;
		struct dma_ops_efi e;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		req.dma = dma_ops_efi(&e, hw, p, dp);
		blockio_run(&ctx, &req, res);
	}
	int rc = blockio_record(&req, res);
	pool_free(res);
	return rc;
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
		else {
			struct blockio_dev d;
			dev_of(bio, &d);
			if (blockio_read_why(&d, bdf, TRANSFER_BYTES, msg, sizeof(msg)))
				plan_error_add(out, CFG_DMA_BLOCKIO, "%s", msg);
		}
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
	struct blockio_write_request req;
	struct blockio_write_result res;
	char msg[200];
	EFI_BLOCK_IO *bio;
	const char *why;
	if (!write_target(cfg, image, &req.t, &bio, req.name, &why, msg, sizeof(msg)))
		return 0;
	if (why) {   /* the plan refused it already; never written */
		rep_error("blockio_write", "dma_write_lba %s", why);
		return -1;
	}
	dev_of(bio, &req.disk);
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, NULL, p->timer_hz);
	blockio_write_run(&ctx, &req, &res);
	return blockio_write_record(&req, &res);
}
