/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The UEFI half of efiperf's own NVMe traffic (efi/measure/nvme_measure.h): the plan step that
 * resolves and checks the controllers into a struct nvme_request, and the firmware ops of the
 * run (efi/measure/nvme_run.h): taking the controllers from the firmware driver and giving them
 * back, PCI I/O DMA memory, the DMA window and the Block IO fallback.
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
#include "efi/measure/health_window.h"
#include "efi/pages.h"
#include "efi/nvme/nvme_regs.h"
#include "efi/config/blockio_target.h"
#include "efi/pcie/pcie.h"
#include "efi/out/report.h"
#include "efi/out/nvme_out.h"
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

/* UEFI 2.10 Appendix D status codes efiperf can meet here, by name. */
static const struct { EFI_STATUS st; const char *name; } efi_names[] = {
	{ EFI_ACCESS_DENIED, "EFI_ACCESS_DENIED" }, { EFI_UNSUPPORTED, "EFI_UNSUPPORTED" },
	{ EFI_NOT_FOUND, "EFI_NOT_FOUND" }, { EFI_INVALID_PARAMETER, "EFI_INVALID_PARAMETER" },
	{ EFI_DEVICE_ERROR, "EFI_DEVICE_ERROR" }, { EFI_OUT_OF_RESOURCES, "EFI_OUT_OF_RESOURCES" },
	{ EFI_ALREADY_STARTED, "EFI_ALREADY_STARTED" },
};

static void efi_name(EFI_STATUS st, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof(efi_names) / sizeof(efi_names[0]); i++)
		if (efi_names[i].st == st) {
			fmt_snprintf(buf, n, "%s", efi_names[i].name);
			return;
		}
	fmt_snprintf(buf, n, "status 0x%llx", (unsigned long long)st);
}

/* ---- finding and checking the controllers (the plan step, before anything is taken) ---------- */

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

static struct hw_pci_addr pci_addr(uint64_t bdf)
{
	return (struct hw_pci_addr){ CFG_BDF_SEG(bdf), CFG_BDF_BUS(bdf), CFG_BDF_DEV(bdf), CFG_BDF_FN(bdf) };
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

/* The plan step's state: the settings parsed once, where they were set. */
struct plan {
	const struct efiperf_config *cfg;
	const struct hw *hw;
	void *image;
	struct nvme_request *q;
	struct blockio_target wt;
	int all, errs;
};

static void cfg_error(struct plan *pl, enum cfg_key_id key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cfg_error(struct plan *pl, enum cfg_key_id key, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rep_error("config", "%s: %s: %s", pl->cfg->origin[key], cfg_key_name(key), msg);
	pl->errs++;
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

/* The keys' values, parsed once (their shapes were checked when the config was read). 0, or -1
 * after a config error: a write without its range, or on another namespace than 1. */
static int parse_settings(struct plan *pl, struct nvme_ctrl_list *l)
{
	const struct efiperf_config *cfg = pl->cfg;
	struct nvme_request *q = pl->q;
	char msg[160];
	if (nvme_parse_ctrls(cfg->nvme, strlena((CHAR8 *)cfg->nvme), l, msg, sizeof(msg)) != 0 || (!l->all && !l->count))
		return 1;   /* none */
	nvme_parse_bs(cfg->nvme_bs, strlena((CHAR8 *)cfg->nvme_bs), q->bs, &q->nbs, msg, sizeof(msg));
	nvme_parse_iodepth(cfg->nvme_iodepth, strlena((CHAR8 *)cfg->nvme_iodepth), q->depth, &q->ndepth, msg, sizeof(msg));
	blockio_target_parse(cfg->nvme_write_lba, strlena((CHAR8 *)cfg->nvme_write_lba), &pl->wt, msg, sizeof(msg));
	q->rw = cfg->nvme_rw;
	q->size = cfg->nvme_size;
	q->write_first = pl->wt.first;
	q->write_last = pl->wt.last;
	q->where_bs = cfg->origin[CFG_NVME_BS];
	q->where_write_lba = cfg->origin[CFG_NVME_WRITE_LBA];
	for (int i = 0; i < q->nbs; i++)
		q->max_bs = q->bs[i] > q->max_bs ? q->bs[i] : q->max_bs;
	for (int i = 0; i < q->ndepth; i++)
		q->max_depth = q->depth[i] > q->max_depth ? q->depth[i] : q->max_depth;
	if (q->rw == CFG_RW_WRITE && !pl->wt.set) {
		cfg_error(pl, CFG_NVME_RW, "write needs nvme_write_lba (a controller and its block range): nothing written");
		return -1;
	}
	if (q->rw == CFG_RW_WRITE &&
	    (pl->wt.unit == BLOCKIO_UNIT_PORT || (pl->wt.unit == BLOCKIO_UNIT_NS && pl->wt.unit_no != 1))) {
		cfg_error(pl, CFG_NVME_WRITE_LBA, "efiperf's own NVMe queues write namespace 1 only (BDF or BDF/ns1): nothing written");
		return -1;
	}
	pl->all = l->all;
	return 0;
}

/* nvme_write_lba's range must hold one whole command of the largest nvme_bs (the walk divides
 * by the region's whole commands): else a config error naming its line. */
static void write_range_short(struct plan *pl, const char *name, uint32_t lba_bytes)
{
	const struct nvme_request *q = pl->q;
	uint64_t lbas = pl->wt.last - pl->wt.first + 1;
	if (q->rw != CFG_RW_WRITE || !lba_bytes || q->max_bs % lba_bytes || nvme_region_commands(lbas, q->max_bs, lba_bytes))
		return;
	cfg_error(pl, CFG_NVME_WRITE_LBA, "blocks %llu-%llu of %s are %llu bytes (LBAs of %u bytes), less than one command of "
		  "nvme_bs %u: nothing written", (unsigned long long)pl->wt.first, (unsigned long long)pl->wt.last, name,
		  (unsigned long long)(lbas * lba_bytes), lba_bytes, q->max_bs);
}

/* The limits the firmware's Block IO of namespace 1 shows: the LBA size, the last block. */
static void blockio_limits(struct plan *pl, const struct nvme_target *t)
{
	const struct nvme_request *q = pl->q;
	EFI_BLOCK_IO *bio = ns1_blockio(t->bdf);
	if (!bio)
		return;
	uint32_t lb = bio->Media->BlockSize;
	for (int k = 0; k < q->nbs; k++)
		if (!lb || q->bs[k] % lb)
			cfg_error(pl, CFG_NVME_BS, "%u is not a multiple of %s's LBA size %u", q->bs[k], t->name, lb);
	if (q->rw == CFG_RW_WRITE && pl->wt.last > bio->Media->LastBlock)
		cfg_error(pl, CFG_NVME_WRITE_LBA, "blocks %llu-%llu run past %s's last block %llu: nothing written",
			  (unsigned long long)pl->wt.first, (unsigned long long)pl->wt.last, t->name,
			  (unsigned long long)bio->Media->LastBlock);
	write_range_short(pl, t->name, lb);
}

/* One controller named (or found by `all`): 1 it joins the request, 0 not. */
static int plan_ctrl(struct plan *pl, uint64_t bdf, struct nvme_target *t)
{
	const struct nvme_request *q = pl->q;
	EFI_PCI_IO_PROTOCOL *pio = NULL;
	*t = (struct nvme_target){ .bdf = bdf };
	pcie_bdf_str(pci_addr(bdf), t->name, sizeof(t->name));
	if (q->rw == CFG_RW_WRITE && bdf != pl->wt.bdf) {
		if (!pl->all)
			cfg_error(pl, CFG_NVME, "%s: nvme_rw = write writes only to the controller nvme_write_lba names", t->name);
		return 0;
	}
	t->fw = pci_handle(bdf, &pio);
	if (!t->fw) {
		cfg_error(pl, CFG_NVME, "%s: no PCI function there", t->name);
		return 0;
	}
	uint32_t cc = class_code(pio);
	if (cc != PCI_CLASS_NVME) {
		cfg_error(pl, CFG_NVME, "%s is not an NVMe controller (class code %06x, NVMe is %06x)", t->name, cc, PCI_CLASS_NVME);
		return 0;
	}
	if (blockio_holds_boot_volume(t->fw, pl->image)) {
		if (pl->all) {
			rep_line("nvme:       %s holds the volume efiperf booted from: skipped", t->name);
			return 0;
		}
		rep_error("nvme", "%s holds the volume efiperf booted from and writes its logs to: refused, never disconnected",
			  t->name);
		pl->errs++;
		return 0;
	}
	t->bar = bar0(pio);
	uint32_t lo = 0xFFFFFFFFu;
	if (t->bar)
		hw_mmio_read32(pl->hw, t->bar + NVME_REG_CAP, &lo);
	if (!t->bar || lo == 0xFFFFFFFFu) {
		rep_error("nvme", "%s: BAR0 0x%llx does not answer (CAP reads all ones)", t->name, (unsigned long long)t->bar);
		pl->errs++;
		return 0;
	}
	uint32_t mqes = NVME_CAP_MQES(lo), lim = mqes < NVME_MAX_QUEUE_ENTRIES - 1 ? mqes : NVME_MAX_QUEUE_ENTRIES - 1;
	if (q->max_depth > lim)
		cfg_error(pl, CFG_NVME_IODEPTH, "%u is above %s's limit %u (CAP.MQES %u: queues of MQES + 1 entries, "
			  "efiperf's of at most %u, one entry kept free)", q->max_depth, t->name, lim, mqes, NVME_MAX_QUEUE_ENTRIES);
	t->bound_before = blockio_find(bdf, NULL) != NULL;
	blockio_limits(pl, t);
	return 1;
}

int nvme_plan(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image,
	      struct nvme_request *q)
{
	struct plan pl = { .cfg = cfg, .hw = hw, .image = image, .q = q };
	struct nvme_ctrl_list l;
	*q = (struct nvme_request){ .cpu = p->mp.bsp, .aer_clear = cfg->aer_clear };
	int s = parse_settings(&pl, &l);
	if (s)
		return s > 0 ? 0 : pl.errs;
	uint64_t bdf[NVME_MAX_CTRLS];
	int n = l.all ? all_nvme(bdf, NVME_MAX_CTRLS) : l.count;
	for (int i = 0; i < n; i++)
		if (plan_ctrl(&pl, l.all ? bdf[i] : l.bdf[i], &q->ctrl[q->n]))
			q->n++;
	if (q->rw == CFG_RW_WRITE && !pl.errs && q->n == 0)
		cfg_error(&pl, CFG_NVME_WRITE_LBA, "its controller is not among nvme's: nothing written");
	q->on = 1;
	return pl.errs;
}

/* ---- the run's firmware ops (efi/measure/nvme_run.h struct nvme_fw) --------------------------- */

struct dma_block {
	VOID *host, *mapping;
	UINTN pages;
};

/* One controller as the firmware sees it while efiperf holds it. */
struct gctl {
	EFI_PCI_IO_PROTOCOL *pio;
	int disconnected, opened, attrs_saved;
	UINT64 attrs;
	struct dma_block blocks[MAX_ALLOCS];
	int nblocks;
};

struct glue {
	const struct hw *hw;
	const struct platform *p;
	const struct dma_plan *dp;
	EFI_HANDLE image;
	const struct nvme_request *q;
	struct gctl c[NVME_MAX_CTRLS];
	int cleanup;
};

/* PCI I/O common buffers (UEFI 2.10 14.4 AllocateBuffer, Map). */
static int fw_alloc(void *arg, int ctrl, uint64_t bytes, struct nvme_mem *m)
{
	struct gctl *x = &((struct glue *)arg)->c[ctrl];
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

static int fw_acquire(void *arg, int ctrl, char *why, size_t n)
{
	struct glue *g = arg;
	struct gctl *x = &g->c[ctrl];
	EFI_HANDLE h = g->q->ctrl[ctrl].fw;
	char st_name[32];
	EFI_STATUS st = BS->DisconnectController(h, NULL, NULL);
	if (st != EFI_SUCCESS) {
		efi_name(st, st_name, sizeof(st_name));
		fmt_snprintf(why, n, "DisconnectController: %s (another agent holds the controller)", st_name);
		return -1;
	}
	x->disconnected = 1;
	st = BS->OpenProtocol(h, &PciIoProtocol, (VOID **)&x->pio, g->image, h, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (st != EFI_SUCCESS) {
		efi_name(st, st_name, sizeof(st_name));
		fmt_snprintf(why, n, "OpenProtocol(PCI I/O, BY_DRIVER): %s", st_name);
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
		efi_name(st, st_name, sizeof(st_name));
		fmt_snprintf(why, n, "PCI I/O Attributes (memory, bus master): %s", st_name);
		return -1;
	}
	return 0;
}

static int fw_release(void *arg, int ctrl, char *err, size_t n)
{
	struct glue *g = arg;
	struct gctl *x = &g->c[ctrl];
	EFI_HANDLE h = g->q->ctrl[ctrl].fw;
	int rc = 0;
	if (x->pio)
		while (x->nblocks) {
			struct dma_block *b = &x->blocks[--x->nblocks];
			x->pio->Unmap(x->pio, b->mapping);
			x->pio->FreeBuffer(x->pio, b->pages, b->host);
		}
	if (x->attrs_saved)
		x->pio->Attributes(x->pio, EfiPciIoAttributeOperationSet, x->attrs, NULL);
	x->attrs_saved = 0;
	if (x->opened)
		BS->CloseProtocol(h, &PciIoProtocol, g->image, h);
	x->opened = 0;
	if (x->disconnected) {
		EFI_STATUS st = BS->ConnectController(h, NULL, NULL, TRUE);
		if (st != EFI_SUCCESS) {
			efi_name(st, err, n);
			rc = -1;
		}
	}
	x->disconnected = 0;
	return rc;
}

/* After the run: the firmware driver is bound again and a Block IO read of the disk works. */
static const char *fw_after(void *arg, int ctrl)
{
	const struct nvme_target *t = &((struct glue *)arg)->q->ctrl[ctrl];
	EFI_BLOCK_IO *bio = blockio_find(t->bdf, NULL);
	if (!bio)
		return t->bound_before ? "no Block IO on the controller after ConnectController" : "no Block IO (none before either)";
	VOID *b = AllocatePool(bio->Media->BlockSize);
	if (!b)
		return "no memory for one block";
	EFI_STATUS st = bio->ReadBlocks(bio, bio->Media->MediaId, 0, bio->Media->BlockSize, b);
	FreePool(b);
	return st == EFI_SUCCESS ? "ok" : "Block IO ReadBlocks of LBA 0 failed";
}

static void fw_window(void *arg, const struct dma_window *w, uint32_t ctrls, struct health_run *h,
		      struct dma_window_result *r)
{
	struct glue *g = arg;
	struct hw_pci_addr devs[NVME_MAX_CTRLS];
	int n = 0;
	for (int i = 0; i < g->q->n; i++)
		if (ctrls >> i & 1)
			devs[n++] = pci_addr(g->q->ctrl[i].bdf);
	if (h) {
		health_window_opts(g->hw, g->p, g->dp, g->q->aer_clear, devs, n, &h->o);
		health_begin(h, g->hw);
	}
	dma_window_counters(g->hw, g->p, g->dp, w, r);
	if (h)
		health_end(h);
}

static void fw_link(void *arg, int ctrl, uint64_t rd, uint64_t wr, uint64_t ns, struct dma_window_result *r)
{
	struct glue *g = arg;
	if (ctrl >= 0)
		dma_window_link(g->dp, g->hw, pci_addr(g->q->ctrl[ctrl].bdf), 1, &r->ll);
	dma_window_rate(r, rd, wr, ns);
}

static void fw_guard(void *arg, void *run)
{
	struct glue *g = arg;
	if (run)
		g->cleanup = cleanup_push(nvme_run_abort, run);
	else
		cleanup_pop(g->cleanup);
}

/* A Block IO point's result has no counters (self_check absent, saying why) but its link
 * limit, as every DMA result. */
static void blockio_out(struct glue *g, int ctrl, struct nvme_point_out *o, const char *status)
{
	struct self_check_bytes none = { 0 };
	int write = g->q->rw == CFG_RW_WRITE;
	self_check_compute(&none, NULL, 0, "the firmware's Block IO path runs outside efiperf's counted windows", &o->dw.sc);
	dma_window_link(g->dp, g->hw, pci_addr(g->q->ctrl[ctrl].bdf), 1, &o->dw.ll);
	dma_window_rate(&o->dw, write ? o->res.bytes : 0, write ? 0 : o->res.bytes, o->res.ns);
	fmt_snprintf(o->status, sizeof(o->status), "%s", status);
	o->with_why = 1;
}

/* The commands of one Block IO point: cmds of bs from first, wrapping in span LBAs; writes are
 * read back after. Fills res; 1 verified, 0 data differs, -1 pattern unknown. */
static int blockio_transfer(struct glue *g, EFI_BLOCK_IO *bio, uint8_t *buf, uint64_t *lat, uint64_t cmds,
			    uint64_t first, uint64_t span, struct nvme_point_result *res)
{
	uint32_t blk = bio->Media->BlockSize, bs = res->bs, nlb = bs / blk;
	int write = g->q->rw == CFG_RW_WRITE, verified = 1;
	uint64_t t0 = arch_timer_read(), ncmd = 0, failed = 0, bad;
	for (; ncmd < cmds; ncmd++) {
		uint64_t lba = first + (ncmd * nlb) % span;
		if (write)
			dma_pattern_fill(buf, lba * blk, bs);
		uint64_t a = arch_timer_read();
		EFI_STATUS st = write ? bio->WriteBlocks(bio, bio->Media->MediaId, lba, bs, buf)
				      : bio->ReadBlocks(bio, bio->Media->MediaId, lba, bs, buf);
		lat[ncmd] = arch_timer_read() - a;
		if (st != EFI_SUCCESS)
			failed++;
		else if (!write && verified >= 0 && dma_pattern_check(buf, lba * blk, bs, &bad) != 0)
			verified = ncmd == 0 && *(uint64_t *)buf != dma_pattern_word(lba * blk) ? -1 : 0;
	}
	uint64_t t1 = arch_timer_read();
	if (write) {
		uint64_t written = ncmd * nlb < span ? ncmd * nlb : span;   /* exactly what was written */
		for (uint64_t lba = 0; lba < written && verified; lba += nlb)
			verified = bio->ReadBlocks(bio, bio->Media->MediaId, first + lba, bs, buf) == EFI_SUCCESS &&
				   dma_pattern_check(buf, (first + lba) * blk, bs, &bad) == 0;
	}
	res->commands = ncmd;
	res->failed = failed;
	res->bytes = res->dma.data_bytes = (ncmd - failed) * bs;
	nvme_point_times(res, t1 - t0, lat, ncmd, g->p->timer_hz);
	return verified;
}

/* The firmware's synchronous Block IO: one command at a time, interrupts on. */
static int fw_blockio_point(void *arg, int ctrl, const struct nvme_request *q, uint32_t bs, uint32_t depth,
			    struct nvme_point_out *o)
{
	struct glue *g = arg;
	EFI_BLOCK_IO *bio = ns1_blockio(q->ctrl[ctrl].bdf);
	o->res = (struct nvme_point_result){ .path = "blockio", .window = "alone", .controllers = 1, .bs = bs,
					     .iodepth = depth, .verified = -1 };
	fmt_snprintf(o->res.bdf, sizeof(o->res.bdf), "%s", q->ctrl[ctrl].name);
	if (!bio || bs % bio->Media->BlockSize) {
		blockio_out(g, ctrl, o, !bio ? "no Block IO on the controller" : "bs is not a multiple of the block size");
		o->err = NVME_PT_NO_BLOCKIO;
		return -1;
	}
	uint32_t nlb = bs / bio->Media->BlockSize;
	int write = q->rw == CFG_RW_WRITE;
	uint64_t first = write ? q->write_first : 0, lbas = write ? q->write_last - q->write_first + 1 : bio->Media->LastBlock + 1;
	uint64_t span = lbas - lbas % nlb, cmds = nvme_point_bytes(q, bs) / bs;
	if (!span) {
		nvme_point_skip(o, q, ctrl, "blockio", bs, depth, lbas * bio->Media->BlockSize);
		return 0;
	}
	uint8_t *buf = AllocatePool(bs);
	uint64_t *lat = AllocatePool(sizeof(uint64_t) * cmds);
	if (!buf || !lat) {
		if (buf)
			FreePool(buf);
		if (lat)
			FreePool(lat);
		blockio_out(g, ctrl, o, "no memory for the buffer");
		return -1;
	}
	o->res.verified = blockio_transfer(g, bio, buf, lat, cmds, first, span, &o->res);
	FreePool(buf);
	FreePool(lat);
	blockio_out(g, ctrl, o, o->res.failed ? "Block IO calls failed" : "ok");
	return o->res.failed || o->res.verified == 0 ? -1 : 0;
}

int measure_nvme(const struct hw *hw, const struct platform *p, const struct dma_plan *dp, const struct nvme_request *q,
		 void *image)
{
	if (!q->on)
		return 0;
	if (q->n == 0) {
		struct nvme_result none = { 0 };
		nvme_record(q, &none);   /* says there is no controller to measure */
		return rep_failed() ? -1 : 0;
	}
	struct glue *g = pool_zalloc(sizeof(*g));
	if (!g) {
		rep_error("nvme", "no memory for %u controllers' state", NVME_MAX_CTRLS);
		return -1;
	}
	*g = (struct glue){ .hw = hw, .p = p, .dp = dp, .image = image, .q = q };
	struct nvme_fw fw = { g, fw_acquire, fw_alloc, fw_release, fw_after, fw_blockio_point, fw_window, fw_link, fw_guard };
	struct measure_ctx ctx;
	measure_ctx_efi(&ctx, hw, p->timer_hz);
	struct nvme_result *res = pool_zalloc(sizeof(*res));
	int rc = -1;
	if (res) {
		rc = nvme_run(&ctx, &fw, q, res);
		nvme_record(q, res);
		nvme_result_free(&ctx, res);
	} else {
		rep_error("nvme", "no memory for the result of %u controllers", (unsigned)q->n);
	}
	pool_free(res);
	pool_free(g);
	return rc;
}
