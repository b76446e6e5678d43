/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The UEFI half of efiperf's own NVMe traffic (efi/measure/nvme_measure.h): finding and
 * checking the controllers, taking them from the firmware driver and giving them back, PCI I/O
 * DMA memory, the windows, the Block IO fallback and the records.
 *
 * Facts: UEFI 2.10 7.3 (OpenProtocol, DisconnectController, ConnectController), 14.4
 * (EFI_PCI_IO_PROTOCOL: Attributes, AllocateBuffer, Map with BusMasterCommonBuffer), 13.9
 * (EFI_BLOCK_IO_PROTOCOL); PCI-SIG PCI Code and ID Assignment Specification (class code 01h
 * mass storage, subclass 08h non-volatile memory, programming interface 02h NVM Express);
 * NVMe 1.4 3.1.1 (CAP) and 3.1 (BAR0 register map).
 */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/nvme_measure.h"
#include "efi/cleanup.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/dma_pattern.h"
#include "efi/measure/measure.h"
#include "efi/measure/window.h"
#include "efi/measure/dma_window.h"
#include "efi/measure/health_window.h"
#include "efi/out/health_json.h"
#include "efi/nvme/nvme_params.h"
#include "efi/nvme/nvme_regs.h"
#include "efi/config/blockio_target.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"
#include <stdarg.h>

#define PCI_CLASS_REG 0x08u           /* class code [31:8], revision [7:0] */
#define PCI_CLASS_NVME 0x010802u      /* mass storage / NVM / NVM Express */
#define PCI_BAR0_REG 0x10u
#define PCI_BAR_MEM64 0x4u            /* BAR type [2:1] = 10b: 64-bit */
#define PCI_BAR_MEM_MASK (~0xFull)
#define MAX_ALLOCS 16
#define POINT_TIMEOUT_S 5u            /* without a completion: the controller is hung */
#define NS_PER_S 1000000000ull

/* UEFI 2.10 Appendix D status codes efiperf can meet here, by name. */
static const struct { EFI_STATUS st; const char *name; } efi_names[] = {
	{ EFI_ACCESS_DENIED, "EFI_ACCESS_DENIED" }, { EFI_UNSUPPORTED, "EFI_UNSUPPORTED" },
	{ EFI_NOT_FOUND, "EFI_NOT_FOUND" }, { EFI_INVALID_PARAMETER, "EFI_INVALID_PARAMETER" },
	{ EFI_DEVICE_ERROR, "EFI_DEVICE_ERROR" }, { EFI_OUT_OF_RESOURCES, "EFI_OUT_OF_RESOURCES" },
	{ EFI_ALREADY_STARTED, "EFI_ALREADY_STARTED" },
};

static const char *efi_name(EFI_STATUS st)
{
	static char hex[24];
	for (size_t i = 0; i < sizeof(efi_names) / sizeof(efi_names[0]); i++)
		if (efi_names[i].st == st)
			return efi_names[i].name;
	fmt_snprintf(hex, sizeof(hex), "status 0x%llx", (unsigned long long)st);
	return hex;
}



struct dma_block {
	VOID *host, *mapping;
	UINTN pages;
};

/* One controller of the run. */
struct nctl {
	uint64_t bdf;
	char name[16];
	EFI_HANDLE h;
	EFI_PCI_IO_PROTOCOL *pio;
	uint64_t bar;
	uint32_t mqes;
	int bound_before;             /* a firmware Block IO was on it when the run started */
	int disconnected, opened, attrs_saved;
	UINT64 attrs;
	int own;                      /* efiperf's queues are up: path own-queues */
	int dead;                     /* a point found it hung or failed: no more points */
	char why[200];                /* why the Block IO path, or what failed giving it back */
	struct nvme_ctrl c;
	struct nvme_queue q;
	struct nvme_mem buf;
	struct dma_block blocks[MAX_ALLOCS];
	int nblocks;
	uint64_t first_lba, lbas;     /* the region the points walk */
	uint32_t lba_bytes;
	struct nvme_lane lane;
	const char *given_back;       /* "ok", or what failed */
};

struct run {
	const struct efiperf_config *cfg;
	const struct platform *p;
	const struct hw *hw;
	EFI_HANDLE image;
	struct nctl *x;
	int n;
	uint32_t bs[NVME_LIST_MAX], depth[NVME_LIST_MAX];
	int nbs, ndepth;
	uint32_t max_bs, max_depth;
	uint64_t *lat;                /* per command clat ticks, lat_cap entries per controller */
	uint64_t lat_cap;
	int write;
	struct blockio_target wt;
	struct nvme_lane *lanes;      /* the lanes of the window being run, contiguous */
	int nlanes;
	struct health_run *health;    /* the own-queues window's health evidence, while recorded */
};

static uint64_t now_ticks(void *arg)
{
	(void)arg;
	return arch_timer_read();
}

/* ---- DMA memory: PCI I/O common buffers (UEFI 2.10 14.4 AllocateBuffer, Map) ---------------- */

static int dma_alloc(void *arg, uint64_t bytes, struct nvme_mem *m)
{
	struct nctl *x = arg;
	if (x->nblocks == MAX_ALLOCS)
		return -1;
	struct dma_block *b = &x->blocks[x->nblocks];
	b->pages = EFI_SIZE_TO_PAGES(bytes);
	b->host = NULL;
	if (x->pio->AllocateBuffer(x->pio, AllocateAnyPages, EfiBootServicesData, b->pages, &b->host, 0) != EFI_SUCCESS)
		return -1;
	UINTN n = bytes;
	EFI_PHYSICAL_ADDRESS dev = 0;
	if (x->pio->Map(x->pio, EfiPciIoOperationBusMasterCommonBuffer, b->host, &n, &dev, &b->mapping) != EFI_SUCCESS) {
		x->pio->FreeBuffer(x->pio, b->pages, b->host);
		return -1;
	}
	if (n < bytes) {
		x->pio->Unmap(x->pio, b->mapping);
		x->pio->FreeBuffer(x->pio, b->pages, b->host);
		return -1;
	}
	x->nblocks++;
	*m = (struct nvme_mem){ b->host, dev, bytes };
	return 0;
}

static void dma_free_all(struct nctl *x)
{
	while (x->nblocks) {
		struct dma_block *b = &x->blocks[--x->nblocks];
		x->pio->Unmap(x->pio, b->mapping);
		x->pio->FreeBuffer(x->pio, b->pages, b->host);
	}
}

/* ---- finding and checking the controllers (before anything is taken) ---------------------- */

static EFI_HANDLE pci_handle(uint64_t bdf, EFI_PCI_IO_PROTOCOL **pio)
{
	EFI_HANDLE *h = NULL, found = NULL;
	UINTN n = 0;
	if (BS->LocateHandleBuffer(ByProtocol, &PciIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return NULL;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_PCI_IO_PROTOCOL *p;
		UINTN s, b, d, f;
		if (BS->HandleProtocol(h[i], &PciIoProtocol, (VOID **)&p) == EFI_SUCCESS &&
		    p->GetLocation(p, &s, &b, &d, &f) == EFI_SUCCESS && CFG_BDF(s, b, d, f) == bdf) {
			found = h[i];
			*pio = p;
		}
	}
	FreePool(h);
	return found;
}

static uint32_t class_code(EFI_PCI_IO_PROTOCOL *pio)
{
	UINT32 v = 0xFFFFFFFFu;
	pio->Pci.Read(pio, EfiPciIoWidthUint32, PCI_CLASS_REG, 1, &v);
	return v >> 8;
}

/* Every NVMe controller, for `nvme = all`. */
static int all_nvme(uint64_t *bdf, int max)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	int k = 0;
	if (BS->LocateHandleBuffer(ByProtocol, &PciIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return 0;
	for (UINTN i = 0; i < n && k < max; i++) {
		EFI_PCI_IO_PROTOCOL *p;
		UINTN s, b, d, f;
		if (BS->HandleProtocol(h[i], &PciIoProtocol, (VOID **)&p) == EFI_SUCCESS &&
		    p->GetLocation(p, &s, &b, &d, &f) == EFI_SUCCESS && class_code(p) == PCI_CLASS_NVME)
			bdf[k++] = CFG_BDF(s, b, d, f);
	}
	FreePool(h);
	return k;
}

static void bdf_name(uint64_t bdf, char *buf, size_t n)
{
	struct hw_pci_addr a = { CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
	pcie_bdf_str(a, buf, n);
}

/* BAR0 (NVMe 1.4 3.1: the register map) from config space, as the firmware assigned it. */
static uint64_t bar0(EFI_PCI_IO_PROTOCOL *pio)
{
	UINT32 lo = 0, hi = 0;
	pio->Pci.Read(pio, EfiPciIoWidthUint32, PCI_BAR0_REG, 1, &lo);
	if (lo & PCI_BAR_MEM64)
		pio->Pci.Read(pio, EfiPciIoWidthUint32, PCI_BAR0_REG + 4, 1, &hi);
	return ((uint64_t)hi << 32 | lo) & PCI_BAR_MEM_MASK;
}

#define CFG_ERR(r, key, ...) cfg_error((r), (key), __VA_ARGS__)
static void cfg_error(struct run *r, enum cfg_key_id key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cfg_error(struct run *r, enum cfg_key_id key, const char *fmt, ...)
{
	static const char *const names[CFG_NKEYS] = { [CFG_NVME] = "nvme", [CFG_NVME_RW] = "nvme_rw",
		[CFG_NVME_BS] = "nvme_bs", [CFG_NVME_IODEPTH] = "nvme_iodepth", [CFG_NVME_WRITE_LBA] = "nvme_write_lba" };
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rep_error("config", "%s: %s: %s", r->cfg->origin[key], names[key], msg);
}

/* The firmware's Block IO of namespace 1 behind bdf (efiperf's own queues read and write
 * namespace 1 only): the disk whose device path names NSID 1, or the only disk; NULL if none. */
static EFI_BLOCK_IO *ns1_blockio(uint64_t bdf)
{
	struct blockio_disk d[BLOCKIO_MAX_DISKS];
	int n = blockio_disks(bdf, d, BLOCKIO_MAX_DISKS);
	for (int i = 0; i < n && i < BLOCKIO_MAX_DISKS; i++)
		if (d[i].unit == BLOCKIO_UNIT_NS && d[i].unit_no == 1)
			return d[i].bio;
	return n == 1 ? d[0].bio : NULL;
}

/* nvme_write_lba's range must hold one whole command of the largest nvme_bs (the walk divides
 * by the region's whole commands): else a config error naming its line. 1 when it does not. */
static int write_range_short(struct run *r, const struct nctl *x, uint32_t lba_bytes)
{
	uint64_t lbas = r->wt.last - r->wt.first + 1;
	if (!r->write || !lba_bytes || r->max_bs % lba_bytes || nvme_region_commands(lbas, r->max_bs, lba_bytes))
		return 0;
	CFG_ERR(r, CFG_NVME_WRITE_LBA, "blocks %llu-%llu of %s are %llu bytes (LBAs of %u bytes), less than one command of "
		"nvme_bs %u: nothing written", (unsigned long long)r->wt.first, (unsigned long long)r->wt.last, x->name,
		(unsigned long long)(lbas * lba_bytes), lba_bytes, r->max_bs);
	return 1;
}

/* Which controllers, and every limit the user's settings must respect, checked before any
 * controller is touched. Returns the number of errors reported. */
static int resolve(struct run *r, struct nctl *xs, int *count)
{
	const struct efiperf_config *cfg = r->cfg;
	struct nvme_ctrl_list l;
	char msg[160];
	int errs = 0;
	nvme_parse_ctrls(cfg->nvme, strlena((CHAR8 *)cfg->nvme), &l, msg, sizeof(msg));   /* checked when read */
	nvme_parse_bs(cfg->nvme_bs, strlena((CHAR8 *)cfg->nvme_bs), r->bs, &r->nbs, msg, sizeof(msg));
	nvme_parse_iodepth(cfg->nvme_iodepth, strlena((CHAR8 *)cfg->nvme_iodepth), r->depth, &r->ndepth, msg, sizeof(msg));
	blockio_target_parse(cfg->nvme_write_lba, strlena((CHAR8 *)cfg->nvme_write_lba), &r->wt, msg, sizeof(msg));
	r->write = cfg->nvme_rw == CFG_RW_WRITE;
	for (int i = 0; i < r->nbs; i++)
		r->max_bs = r->bs[i] > r->max_bs ? r->bs[i] : r->max_bs;
	for (int i = 0; i < r->ndepth; i++)
		r->max_depth = r->depth[i] > r->max_depth ? r->depth[i] : r->max_depth;
	if (r->write && !r->wt.set) {
		CFG_ERR(r, CFG_NVME_RW, "write needs nvme_write_lba (a controller and its block range): nothing written");
		return 1;
	}
	if (r->write && (r->wt.unit == BLOCKIO_UNIT_PORT || (r->wt.unit == BLOCKIO_UNIT_NS && r->wt.unit_no != 1))) {
		CFG_ERR(r, CFG_NVME_WRITE_LBA, "efiperf's own NVMe queues write namespace 1 only (BDF or BDF/ns1): nothing written");
		return 1;
	}
	uint64_t bdf[NVME_MAX_CTRLS];
	int n = 0, all = l.all;
	if (all)
		n = all_nvme(bdf, NVME_MAX_CTRLS);
	else
		for (n = 0; n < l.count; n++)
			bdf[n] = l.bdf[n];
	*count = 0;
	for (int i = 0; i < n; i++) {
		struct nctl *x = &xs[*count];
		x->bdf = bdf[i];
		bdf_name(bdf[i], x->name, sizeof(x->name));
		if (r->write && bdf[i] != r->wt.bdf) {
			if (all)
				continue;
			CFG_ERR(r, CFG_NVME, "%s: nvme_rw = write writes only to the controller nvme_write_lba names", x->name);
			errs++;
			continue;
		}
		x->h = pci_handle(bdf[i], &x->pio);
		if (!x->h) {
			CFG_ERR(r, CFG_NVME, "%s: no PCI function there", x->name);
			errs++;
			continue;
		}
		uint32_t cc = class_code(x->pio);
		if (cc != PCI_CLASS_NVME) {
			CFG_ERR(r, CFG_NVME, "%s is not an NVMe controller (class code %06x, NVMe is %06x)", x->name, cc, PCI_CLASS_NVME);
			errs++;
			continue;
		}
		if (blockio_holds_boot_volume(x->h, r->image)) {
			if (all) {
				rep_line("nvme:       %s holds the volume efiperf booted from: skipped", x->name);
				continue;
			}
			rep_error("nvme", "%s holds the volume efiperf booted from and writes its logs to: refused, never disconnected",
				  x->name);
			errs++;
			continue;
		}
		x->bar = bar0(x->pio);
		uint32_t lo = 0xFFFFFFFFu;
		if (x->bar)
			hw_mmio_read32(r->hw, x->bar + NVME_REG_CAP, &lo);
		if (!x->bar || lo == 0xFFFFFFFFu) {
			rep_error("nvme", "%s: BAR0 0x%llx does not answer (CAP reads all ones)", x->name, (unsigned long long)x->bar);
			errs++;
			continue;
		}
		x->mqes = NVME_CAP_MQES(lo);
		uint32_t limit = x->mqes < NVME_MAX_QUEUE_ENTRIES - 1 ? x->mqes : NVME_MAX_QUEUE_ENTRIES - 1;
		if (r->max_depth > limit) {
			CFG_ERR(r, CFG_NVME_IODEPTH, "%u is above %s's limit %u (CAP.MQES %u: queues of MQES + 1 entries, "
				"efiperf's of at most %u, one entry kept free)", r->max_depth, x->name, limit, x->mqes,
				NVME_MAX_QUEUE_ENTRIES);
			errs++;
		}
		EFI_BLOCK_IO *bio = ns1_blockio(bdf[i]);
		x->bound_before = blockio_find(bdf[i], NULL) != NULL;
		if (bio) {
			uint32_t lb = bio->Media->BlockSize;
			for (int k = 0; k < r->nbs; k++)
				if (!lb || r->bs[k] % lb) {
					CFG_ERR(r, CFG_NVME_BS, "%u is not a multiple of %s's LBA size %u", r->bs[k], x->name, lb);
					errs++;
				}
			if (r->write && r->wt.last > bio->Media->LastBlock) {
				CFG_ERR(r, CFG_NVME_WRITE_LBA, "blocks %llu-%llu run past %s's last block %llu: nothing written",
					(unsigned long long)r->wt.first, (unsigned long long)r->wt.last, x->name,
					(unsigned long long)bio->Media->LastBlock);
				errs++;
			}
			errs += write_range_short(r, x, lb);
		}
		(*count)++;
	}
	if (r->write && !errs && *count == 0) {
		CFG_ERR(r, CFG_NVME_WRITE_LBA, "its controller is not among nvme's: nothing written");
		errs++;
	}
	return errs;
}

/* ---- taking a controller and giving it back ------------------------------------------------ */

static void give_back(struct run *r, struct nctl *x)
{
	x->given_back = "ok";
	if (x->own && nvme_release(&x->c, &x->q) != 0) {
		x->given_back = "disable failed";
		rep_error("nvme", "%s: giving back: %s", x->name, x->c.why);
	}
	x->own = 0;
	if (x->pio)
		dma_free_all(x);
	if (x->attrs_saved)
		x->pio->Attributes(x->pio, EfiPciIoAttributeOperationSet, x->attrs, NULL);
	x->attrs_saved = 0;
	if (x->opened)
		BS->CloseProtocol(x->h, &PciIoProtocol, r->image, x->h);
	x->opened = 0;
	if (x->disconnected) {
		EFI_STATUS st = BS->ConnectController(x->h, NULL, NULL, TRUE);
		if (st != EFI_SUCCESS) {
			x->given_back = "ConnectController failed";
			rep_error("nvme", "%s: ConnectController: %s", x->name, efi_name(st));
		}
	}
	x->disconnected = 0;
}

/* After the run: the firmware driver is bound again and a Block IO read of the disk works. */
static const char *check_given_back(struct nctl *x)
{
	EFI_BLOCK_IO *bio = blockio_find(x->bdf, NULL);
	if (!bio)
		return x->bound_before ? "no Block IO on the controller after ConnectController" : "no Block IO (none before either)";
	VOID *b = AllocatePool(bio->Media->BlockSize);
	if (!b)
		return "no memory for one block";
	EFI_STATUS st = bio->ReadBlocks(bio, bio->Media->MediaId, 0, bio->Media->BlockSize, b);
	FreePool(b);
	return st == EFI_SUCCESS ? "ok" : "Block IO ReadBlocks of LBA 0 failed";
}

static void fallback(struct run *r, struct nctl *x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fallback(struct run *r, struct nctl *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(x->why, sizeof(x->why), fmt, ap);
	va_end(ap);
	give_back(r, x);
	rep_error("nvme", "%s: %s: efiperf gave the controller back to the firmware and measures through its Block IO "
		  "(not quiesced)", x->name, x->why);
}

static int take(struct run *r, struct nctl *x)
{
	EFI_STATUS st = BS->DisconnectController(x->h, NULL, NULL);
	if (st != EFI_SUCCESS) {
		fallback(r, x, "DisconnectController: %s (another agent holds the controller)", efi_name(st));
		return -1;
	}
	x->disconnected = 1;
	st = BS->OpenProtocol(x->h, &PciIoProtocol, (VOID **)&x->pio, r->image, x->h, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (st != EFI_SUCCESS) {
		fallback(r, x, "OpenProtocol(PCI I/O, BY_DRIVER): %s", efi_name(st));
		return -1;
	}
	x->opened = 1;
	UINT64 sup = 0;
	if (x->pio->Attributes(x->pio, EfiPciIoAttributeOperationGet, 0, &x->attrs) == EFI_SUCCESS)
		x->attrs_saved = 1;
	x->pio->Attributes(x->pio, EfiPciIoAttributeOperationSupported, 0, &sup);
	st = x->pio->Attributes(x->pio, EfiPciIoAttributeOperationEnable,
				(EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
				 EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE) & (sup | EFI_PCI_IO_ATTRIBUTE_MEMORY |
									    EFI_PCI_IO_ATTRIBUTE_BUS_MASTER), NULL);
	if (st != EFI_SUCCESS) {
		fallback(r, x, "PCI I/O Attributes (memory, bus master): %s", efi_name(st));
		return -1;
	}
	struct nvme_env env = { .hw = r->hw, .bar = x->bar, .arg = x, .alloc = dma_alloc, .now = now_ticks,
				.hz = r->p->timer_hz };
	if (nvme_take(&x->c, &env, &x->q, (uint16_t)(r->max_depth + 1)) != 0) {
		fallback(r, x, "%s", x->c.why);
		return -1;
	}
	x->own = 1;
	x->lba_bytes = x->c.lba_bytes;
	for (int k = 0; k < r->nbs; k++) {
		if (r->bs[k] % x->c.lba_bytes) {
			CFG_ERR(r, CFG_NVME_BS, "%u is not a multiple of %s's LBA size %u", r->bs[k], x->name, x->c.lba_bytes);
			give_back(r, x);
			return -2;
		}
		if (r->bs[k] > x->c.max_xfer) {
			CFG_ERR(r, CFG_NVME_BS, "%u is above %s's largest transfer %u bytes (Identify MDTS)", r->bs[k], x->name,
				x->c.max_xfer);
			give_back(r, x);
			return -2;
		}
	}
	if (r->write && r->wt.last >= x->c.nsze) {
		CFG_ERR(r, CFG_NVME_WRITE_LBA, "blocks %llu-%llu run past %s's namespace 1 of %llu LBAs: nothing written",
			(unsigned long long)r->wt.first, (unsigned long long)r->wt.last, x->name, (unsigned long long)x->c.nsze);
		give_back(r, x);
		return -2;
	}
	if (write_range_short(r, x, x->c.lba_bytes)) {
		give_back(r, x);
		return -2;
	}
	if (dma_alloc(x, (uint64_t)(r->max_depth + 1) * r->max_bs, &x->buf) != 0) {
		fallback(r, x, "no PCI I/O common buffer of %llu bytes for the data",
			 (unsigned long long)(r->max_depth + 1) * r->max_bs);
		return -1;
	}
	return 0;
}

/* ---- points --------------------------------------------------------------------------------- */

static uint64_t per_second(uint64_t n, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)n * NS_PER_S / ns) : 0;
}

/* The disk a point read or wrote, in dma_write_lba's syntax: efiperf's queues and the Block IO
 * fallback both use namespace 1 (Identify and I/O commands with NSID 1). */
static void disk_json(struct json *j, const char *bdf)
{
	char disk[BLOCKIO_DISK_NAME];
	fmt_snprintf(disk, sizeof(disk), "%s/ns1", bdf);
	json_str(j, "disk", disk);
}

static void record(struct run *r, struct nvme_point_result *res, const struct dma_window_result *dw, const char *status,
		   const char *why)
{
	struct json *j = rep_begin("nvme");
	json_str(j, "bdf", res->bdf);
	disk_json(j, res->bdf);
	json_str(j, "path", res->path);
	json_str(j, "rw", r->write ? "write" : "read");
	json_str(j, "window", res->window);
	json_u64(j, "controllers", res->controllers);
	json_u64(j, "bs", res->bs);
	json_u64(j, "iodepth", res->iodepth);
	json_u64(j, "bytes", res->bytes);
	json_u64(j, "ns", res->ns);
	json_u64(j, "bw_bytes", res->bw_bytes);
	json_u64(j, "iops", res->iops);
	json_obj(j, "clat_ns");
	json_u64(j, "p50", res->clat_p50_ns);
	json_u64(j, "p99", res->clat_p99_ns);
	json_u64(j, "max", res->clat_max_ns);
	json_close(j);
	json_bool(j, "interrupts_masked", res->interrupts_masked);
	json_bool(j, "quiesced", res->interrupts_masked);
	if (res->verified >= 0)
		json_bool(j, "verified", res->verified);
	else
		json_str(j, "verified", "pattern unknown");
	json_u64(j, "commands", res->commands);
	json_u64(j, "failed", res->failed);
	json_obj(j, "dma");
	json_u64(j, "data_bytes", res->dma.data_bytes);
	json_u64(j, "sqe_bytes", res->dma.sqe_bytes);
	json_u64(j, "cqe_bytes", res->dma.cqe_bytes);
	json_u64(j, "prp_bytes", res->dma.prp_bytes);
	json_close(j);
	json_str(j, "status", status);
	if (why)
		json_str(j, "why", why);
	dma_window_json(j, dw);
	health_json(j, r->health, "the firmware's Block IO path runs outside efiperf's windows");
	rep_end();
	rep_line("nvme:       %s %s %s bs %u iodepth %u (%s, %u ctrl): %llu bytes, %llu B/s, %llu IOPS, clat p50 %llu p99 %llu "
		 "max %llu ns, %s%s, %s", res->bdf, res->path, r->write ? "write" : "read", res->bs, res->iodepth, res->window,
		 res->controllers, (unsigned long long)res->bytes, (unsigned long long)res->bw_bytes,
		 (unsigned long long)res->iops, (unsigned long long)res->clat_p50_ns, (unsigned long long)res->clat_p99_ns,
		 (unsigned long long)res->clat_max_ns, res->interrupts_masked ? "interrupts masked" : "NOT QUIESCED",
		 res->verified == 1 ? ", verified" : res->verified == 0 ? ", DATA DIFFERS" : ", pattern unknown", status);
}

static void clat(struct run *r, uint64_t *lat, uint64_t n, struct nvme_point_result *res)
{
	uint64_t p50, p99, max;
	nvme_lat_summary(lat, n, &p50, &p99, &max);
	res->clat_p50_ns = metric_ticks_to_ns(p50, r->p->timer_hz);
	res->clat_p99_ns = metric_ticks_to_ns(p99, r->p->timer_hz);
	res->clat_max_ns = metric_ticks_to_ns(max, r->p->timer_hz);
}

static uint64_t point_bytes(const struct run *r, uint32_t bs)
{
	uint64_t b = r->cfg->nvme_size - r->cfg->nvme_size % bs;
	return b ? b : bs;
}

/* Written data read back through the same queues, one command at a time, outside any window. */
static int verify_writes(struct nctl *x, uint32_t bs)
{
	struct nvme_lane v = x->lane;
	v.opc = NVME_CMD_READ;
	v.iodepth = 1;
	v.bytes = bs;
	uint32_t nlb = bs / x->lba_bytes;
	uint64_t written = nvme_lane_written_lbas(&x->lane), bad;   /* exactly what the point wrote */
	for (uint64_t lba = 0; lba < written; lba += nlb) {
		v.first_lba = x->first_lba + lba;
		v.lbas = nlb;
		if (nvme_point_run(&v, 1, x->c.env.hz * POINT_TIMEOUT_S) != 0 || nvme_point_verify(&v, &bad) != 1)
			return 0;
	}
	return 1;
}

static uint64_t point_kernel(void *arg)
{
	struct run *r = arg;
	return (uint64_t)(nvme_point_run(r->lanes, r->nlanes, r->p->timer_hz * POINT_TIMEOUT_S) + 1);
}

static struct hw_pci_addr pci_addr(uint64_t bdf)
{
	return (struct hw_pci_addr){ CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
}

/* A point's traffic as the DMA window's slices (efi/measure/dma_window.h): with CHA multiplexing
 * the window has one slice per group round, and each slice runs the whole point again from the
 * lanes as the previous slice left them (every group sees the same traffic; the lanes keep
 * the last slice's results).
 * What the devices moved, from memory's side (NVMe 1.4 4.1-4.3): they read the 64-byte
 * submission entries, the PRP lists and, for writes, the data; they write the 16-byte
 * completion entries and, for reads, the data. */
struct own_slices {
	struct run *r;
	struct window_spec spec;
	struct window_result w;
	struct self_check_bytes moved;
	int masked;
};

static uint64_t own_slice(void *arg, uint32_t k, uint32_t n)
{
	struct own_slices *o = arg;
	struct run *r = o->r;
	(void)n;
	r->nlanes = 0;   /* the lanes of this window side by side for the kernel */
	for (int i = 0; i < r->n; i++)
		if (r->x[i].own && !r->x[i].dead && r->x[i].lane.bytes)
			r->lanes[r->nlanes++] = r->x[i].lane;
	window_run(r->hw, &o->spec, &o->w);
	/* keep each lane's state for the next slice: its queue's tail moved on, and the data
	 * check pairs each buffer slot with the LBA last read into it (slot_lba) */
	for (int i = 0, j = 0; i < r->n; i++)
		if (r->x[i].own && !r->x[i].dead && r->x[i].lane.bytes)
			r->x[i].lane = r->lanes[j++];
	o->masked = (k == 0 || o->masked) && o->w.masked;
	for (int i = 0; i < r->nlanes; i++) {
		const struct nvme_dma *d = &r->lanes[i].dma;
		uint64_t data_in = r->write ? d->data_bytes : 0, data_out = r->write ? 0 : d->data_bytes;
		o->moved.read += d->sqe_bytes + d->prp_bytes + data_in;
		o->moved.write += d->cqe_bytes + data_out;
	}
	o->moved.have_read = o->moved.have_write = 1;
	return metric_ticks_to_ns(o->w.span_ticks, r->p->timer_hz);
}

/* One (bs, iodepth) point on the controllers whose lane.bytes is set, in one window under the
 * counters: the window's self_check covers every controller in it; each record carries its own
 * controller's link limit and rate. */
static int own_point(struct run *r, uint32_t bs, uint32_t depth, const char *window, uint32_t nctl)
{
	struct window_cpu cpu = { .cpu = r->p->mp.bsp, .arg = r };
	struct own_slices o = { .r = r, .spec = { .kernel = point_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 } };
	uint64_t first = CFG_BDF_NONE;
	for (int i = 0; i < r->n && first == CFG_BDF_NONE; i++)
		if (r->x[i].own && !r->x[i].dead && r->x[i].lane.bytes)
			first = r->x[i].bdf;
	struct dma_window dw = { r->write ? "nvme_write" : "nvme_read", own_slice, &o, &o.moved, NULL, pci_addr(first), 1,
				 nctl > 1 ? "several controllers in one window: the IIO part counts are compared per device "
					    "with one controller per window" : NULL };
	struct dma_window_result wr;
	struct hw_pci_addr devs[NVME_MAX_CTRLS];
	int ndev = 0;
	for (int i = 0; i < r->n; i++)
		if (r->x[i].own && !r->x[i].dead && r->x[i].lane.bytes && ndev < NVME_MAX_CTRLS)
			devs[ndev++] = pci_addr(r->x[i].bdf);
	r->health = health_window_begin(r->hw, r->p, r->cfg, devs, ndev);
	dma_window_run(r->hw, r->p, &dw, &wr);
	health_window_end(r->health);
	struct window_result w = o.w;
	w.masked = o.masked;
	for (int i = 0, k = 0; i < r->n; i++)
		if (r->x[i].own && !r->x[i].dead && r->x[i].lane.bytes)
			r->x[i].lane = r->lanes[k++];
	int rc = 0;
	for (int i = 0; i < r->n; i++) {
		struct nctl *x = &r->x[i];
		struct nvme_lane *l = &x->lane;
		if (!x->own || x->dead || !l->bytes)
			continue;
		struct nvme_point_result res = { .path = "own-queues", .window = window, .controllers = nctl, .bs = bs,
						 .iodepth = depth, .interrupts_masked = w.masked, .dma = l->dma,
						 .commands = l->completed, .failed = l->failed };
		fmt_snprintf(res.bdf, sizeof(res.bdf), "%s", x->name);
		res.bytes = l->dma.data_bytes;
		res.ns = metric_ticks_to_ns(l->t_last - l->t_first, r->p->timer_hz);
		res.bw_bytes = per_second(res.bytes, res.ns);
		res.iops = per_second(l->completed, res.ns);
		clat(r, l->lat, l->completed < l->lat_cap ? l->completed : l->lat_cap, &res);
		uint64_t bad = 0;
		res.verified = r->write ? verify_writes(x, bs) : nvme_point_verify(l, &bad);
		struct dma_window_result mine = wr;
		if (x->bdf != first)
			dma_window_link(r->hw, pci_addr(x->bdf), 1, &mine.ll);
		dma_window_rate(&mine, l->dma.sqe_bytes + l->dma.prp_bytes + (r->write ? res.bytes : 0),
				l->dma.cqe_bytes + (r->write ? 0 : res.bytes), res.ns);
		char status[96];
		if (l->fatal)
			fmt_snprintf(status, sizeof(status), "controller fatal status (CSTS.CFS)");
		else if (l->timed_out)
			fmt_snprintf(status, sizeof(status), "no completion within %u s", POINT_TIMEOUT_S);
		else if (l->failed)
			fmt_snprintf(status, sizeof(status), "%llu commands failed, first SCT %u SC 0x%02x",
				     (unsigned long long)l->failed, l->first_status >> 8, l->first_status & 0xFF);
		else
			fmt_snprintf(status, sizeof(status), "ok");
		record(r, &res, &mine, status, NULL);
		if (l->fatal || l->timed_out || l->failed || res.verified == 0) {
			rep_error("nvme", "%s bs %u iodepth %u: %s%s", x->name, bs, depth, status,
				  res.verified == 0 ? ", data differs from the pattern" : "");
			rc = -1;
		}
		if (l->fatal || l->timed_out)
			x->dead = 1;   /* no more points; give_back disables it */
	}
	health_window_free(r->health);
	r->health = NULL;
	return rc;
}

/* A point the region cannot hold (a namespace smaller than one command of bs): skipped, its
 * record says why; no error (`nvme = all` on a small disk measures what fits). */
static void skipped(struct run *r, struct nctl *x, const char *path, uint32_t bs, uint32_t depth, uint64_t region_bytes)
{
	char why[128];
	fmt_snprintf(why, sizeof(why), "%s %llu bytes, less than one command of bs %u", r->write ? "the write range is" :
		     "namespace 1 is", (unsigned long long)region_bytes, bs);
	struct json *j = rep_begin("nvme");
	json_str(j, "bdf", x->name);
	disk_json(j, x->name);
	json_str(j, "path", path);
	json_str(j, "rw", r->write ? "write" : "read");
	json_str(j, "window", "alone");
	json_u64(j, "bs", bs);
	json_u64(j, "iodepth", depth);
	json_str(j, "status", "skipped");
	json_str(j, "why", why);
	rep_end();
	rep_line("nvme:       %s bs %u iodepth %u: skipped: %s", x->name, bs, depth, why);
}

/* A Block IO point's record has no counters (self_check absent, saying why) but its link
 * limit, as every DMA result. */
static void blockio_record(struct run *r, struct nctl *x, struct nvme_point_result *res, const char *status)
{
	struct dma_window_result dw = { 0 };
	struct self_check_bytes none = { 0 };
	self_check_compute(&none, NULL, 0, "the firmware's Block IO path runs outside efiperf's counted windows", &dw.sc);
	dma_window_link(r->hw, pci_addr(x->bdf), 1, &dw.ll);
	dma_window_rate(&dw, r->write ? res->bytes : 0, r->write ? 0 : res->bytes, res->ns);
	record(r, res, &dw, status, x->why);
}

/* The firmware's synchronous Block IO: one command at a time, interrupts on. */
static int blockio_point(struct run *r, struct nctl *x, uint32_t bs, uint32_t depth)
{
	EFI_BLOCK_IO *bio = ns1_blockio(x->bdf);
	struct nvme_point_result res = { .path = "blockio", .window = "alone", .controllers = 1, .bs = bs, .iodepth = depth,
					 .verified = -1 };
	fmt_snprintf(res.bdf, sizeof(res.bdf), "%s", x->name);
	if (!bio || bs % bio->Media->BlockSize) {
		blockio_record(r, x, &res, !bio ? "no Block IO on the controller" : "bs is not a multiple of the block size");
		rep_error("nvme", "%s: no usable firmware Block IO either", x->name);
		return -1;
	}
	uint32_t blk = bio->Media->BlockSize, nlb = bs / blk;
	uint64_t first = r->write ? r->wt.first : 0, lbas = r->write ? r->wt.last - r->wt.first + 1 : bio->Media->LastBlock + 1;
	uint64_t span = lbas - lbas % nlb, bytes = point_bytes(r, bs), cmds = bytes / bs;
	if (!span) {
		skipped(r, x, "blockio", bs, depth, lbas * blk);
		return 0;
	}
	uint8_t *buf = AllocatePool(bs);
	if (!buf) {
		blockio_record(r, x, &res, "no memory for the buffer");
		return -1;
	}
	uint64_t t0 = arch_timer_read(), ncmd = 0, failed = 0, bad;
	int verified = 1;
	for (; ncmd < cmds; ncmd++) {
		uint64_t lba = first + (ncmd * nlb) % span;
		if (r->write)
			dma_pattern_fill(buf, lba * blk, bs);
		uint64_t a = arch_timer_read();
		EFI_STATUS st = r->write ? bio->WriteBlocks(bio, bio->Media->MediaId, lba, bs, buf)
					 : bio->ReadBlocks(bio, bio->Media->MediaId, lba, bs, buf);
		r->lat[ncmd < r->lat_cap ? ncmd : r->lat_cap - 1] = arch_timer_read() - a;
		if (st != EFI_SUCCESS)
			failed++;
		else if (!r->write && verified >= 0 && dma_pattern_check(buf, lba * blk, bs, &bad) != 0)
			verified = ncmd == 0 && *(uint64_t *)buf != dma_pattern_word(lba * blk) ? -1 : 0;
	}
	uint64_t t1 = arch_timer_read();
	if (r->write) {
		verified = 1;
		uint64_t written = ncmd * nlb < span ? ncmd * nlb : span;   /* exactly what was written */
		for (uint64_t lba = 0; lba < written && verified; lba += nlb)
			verified = bio->ReadBlocks(bio, bio->Media->MediaId, first + lba, bs, buf) == EFI_SUCCESS &&
				   dma_pattern_check(buf, (first + lba) * blk, bs, &bad) == 0;
	}
	FreePool(buf);
	res.commands = ncmd;
	res.failed = failed;
	res.bytes = res.dma.data_bytes = (ncmd - failed) * bs;
	res.ns = metric_ticks_to_ns(t1 - t0, r->p->timer_hz);
	res.bw_bytes = per_second(res.bytes, res.ns);
	res.iops = per_second(ncmd, res.ns);
	res.verified = verified;
	clat(r, r->lat, ncmd < r->lat_cap ? ncmd : r->lat_cap, &res);
	blockio_record(r, x, &res, failed ? "Block IO calls failed" : "ok");
	return failed || verified == 0 ? -1 : 0;
}

static void set_lane(struct run *r, struct nctl *x, int i, uint32_t bs, uint32_t depth)
{
	x->lane = (struct nvme_lane){ .c = &x->c, .q = &x->q, .buf = &x->buf,
				      .opc = r->write ? NVME_CMD_WRITE : NVME_CMD_READ, .bs = bs, .iodepth = depth,
				      .first_lba = x->first_lba, .lbas = x->lbas, .bytes = point_bytes(r, bs),
				      .lat = r->lat + (uint64_t)i * r->lat_cap, .lat_cap = r->lat_cap };
}

static void controller_record(struct run *r, struct nctl *x, const char *path, const char *after)
{
	struct json *j = rep_begin("nvme_controller");
	json_str(j, "bdf", x->name);
	json_str(j, "path", path);
	json_bool(j, "bound_before", x->bound_before);
	if (x->c.sn[0]) {
		json_str(j, "sn", x->c.sn);
		json_str(j, "mn", x->c.mn);
		json_u64(j, "mqes", x->c.mqes);
		json_u64(j, "max_transfer", x->c.max_xfer);
		json_u64(j, "lba_bytes", x->c.lba_bytes);
		json_u64(j, "nsze", x->c.nsze);
	}
	if (x->why[0])
		json_str(j, "why", x->why);
	json_str(j, "given_back", x->given_back ? x->given_back : "not taken");
	json_str(j, "blockio_after", after);
	rep_end();
	(void)r;
}

/* The fatal-exception path (efi/cleanup.h): every controller still taken goes back to the
 * firmware driver, as on every other path. */
static void give_back_all(void *arg)
{
	struct run *r = arg;
	for (int i = 0; i < r->n; i++)
		if (r->x[i].own || r->x[i].disconnected)
			give_back(r, &r->x[i]);
}

/* The run over the controllers `nvme` names, resolved (resolve()): 0 when `nvme` is none, 1
 * with r->x allocated (free it) and *errs the errors resolve() reported, -1 without memory. */
static int begin(struct run *r, const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		 void *image, int *errs)
{
	struct nvme_ctrl_list l;
	char msg[160];
	if (nvme_parse_ctrls(cfg->nvme, strlena((CHAR8 *)cfg->nvme), &l, msg, sizeof(msg)) != 0 || (!l.all && !l.count))
		return 0;
	*r = (struct run){ .cfg = cfg, .p = p, .hw = hw, .image = image };
	r->x = AllocateZeroPool(sizeof(*r->x) * NVME_MAX_CTRLS);
	if (!r->x)
		return -1;
	*errs = resolve(r, r->x, &r->n);
	return 1;
}

int nvme_plan_check(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	struct run r;
	int errs = 0;
	if (begin(&r, hw, p, cfg, image, &errs) > 0)
		FreePool(r.x);
	return errs;   /* without memory, the measurement says so when it runs */
}

int measure_nvme(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image)
{
	struct run r;
	int errs = 0, b = begin(&r, hw, p, cfg, image, &errs);
	if (b == 0)
		return 0;
	if (b < 0) {
		rep_error("nvme", "no memory for %u controllers' state", NVME_MAX_CTRLS);
		return -1;
	}
	struct nctl *xs = r.x;
	if (errs != 0 || r.n == 0) {
		if (!r.n && !rep_failed())
			rep_line("nvme:       no NVMe controller to measure");
		FreePool(xs);
		return rep_failed() ? -1 : 0;
	}
	r.lat_cap = point_bytes(&r, NVME_BS_MIN) / NVME_BS_MIN;
	for (int k = 0; k < r.nbs; k++)
		if (point_bytes(&r, r.bs[k]) / r.bs[k] > r.lat_cap)
			r.lat_cap = point_bytes(&r, r.bs[k]) / r.bs[k];
	r.lat = AllocatePool(sizeof(uint64_t) * r.lat_cap * (uint64_t)r.n);
	r.lanes = AllocateZeroPool(sizeof(struct nvme_lane) * NVME_POINT_MAX_LANES);
	if (!r.lat || !r.lanes) {
		if (r.lat)
			FreePool(r.lat);
		if (r.lanes)
			FreePool(r.lanes);
		rep_error("nvme", "no memory for %llu latencies", (unsigned long long)r.lat_cap * r.n);
		FreePool(xs);
		return -1;
	}
	int rc = 0, cfg_bad = 0;
	int cleanup = cleanup_push(give_back_all, &r);
	for (int i = 0; i < r.n && !cfg_bad; i++) {
		struct nctl *x = &xs[i];
		int t = take(&r, x);
		if (t == -2)
			cfg_bad = 1;
		if (t == 0) {
			x->first_lba = r.write ? r.wt.first : 0;
			x->lbas = r.write ? r.wt.last - r.wt.first + 1 : x->c.nsze;
			rep_line("nvme:       %s taken: %s %s, MQES %u, MDTS %u bytes, %llu LBAs of %u bytes", x->name, x->c.mn,
				 x->c.sn, x->c.mqes, x->c.max_xfer, (unsigned long long)x->c.nsze, x->c.lba_bytes);
		}
	}
	int nown = 0;
	for (int i = 0; i < r.n; i++)
		nown += xs[i].own;
	for (int b = 0; b < r.nbs && !cfg_bad; b++)
		for (int d = 0; d < r.ndepth; d++) {
			uint32_t bs = r.bs[b], depth = r.depth[d];
			for (int i = 0; i < r.n; i++) {
				struct nctl *x = &xs[i];
				if (!x->own && x->given_back && strcmpa((CHAR8 *)x->given_back, (CHAR8 *)"ok") == 0 && x->why[0]) {
					if (blockio_point(&r, x, bs, depth))
						rc = -1;
					continue;
				}
				if (!x->own || x->dead)
					continue;
				if (!nvme_region_commands(x->lbas, bs, x->lba_bytes)) {
					skipped(&r, x, "own-queues", bs, depth, x->lbas * x->lba_bytes);
					continue;
				}
				for (int k = 0; k < r.n; k++)
					xs[k].lane.bytes = 0;
				set_lane(&r, x, i, bs, depth);
				if (own_point(&r, bs, depth, "alone", 1))
					rc = -1;
			}
			if (nown < 2)
				continue;
			uint32_t n = 0;
			for (int i = 0; i < r.n; i++) {
				xs[i].lane.bytes = 0;
				if (xs[i].own && !xs[i].dead && nvme_region_commands(xs[i].lbas, bs, xs[i].lba_bytes)) {
					set_lane(&r, &xs[i], i, bs, depth);
					n++;
				}
			}
			if (n >= 2 && own_point(&r, bs, depth, "shared", n))
				rc = -1;
		}
	/* every path: each controller taken is given back and checked */
	cleanup_pop(cleanup);
	for (int i = 0; i < r.n; i++) {
		struct nctl *x = &xs[i];
		const char *path = x->own ? "own-queues" : x->why[0] ? "blockio" : "not run";
		if (x->own || x->disconnected)
			give_back(&r, x);
		const char *after = check_given_back(x);
		if (strcmpa((CHAR8 *)after, (CHAR8 *)"ok") != 0 && x->bound_before) {
			rep_error("nvme", "%s: after giving it back: %s", x->name, after);
			rc = -1;
		}
		controller_record(&r, x, path, after);
	}
	FreePool(r.lat);
	FreePool(r.lanes);
	FreePool(xs);
	return rc || cfg_bad ? -1 : 0;
}
