/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Synthetic PCI configuration space (tests/model/pci_model.h). Register layout from
 * efi/pcie_regs.h, so the model and the decoder share names but not logic: the builders only
 * place bytes where the specification says they live.
 */
#include "tests/model/pci_model.h"

#define PCI_MODEL_BAR0 0x10u  /* first Base Address Register (PCI 3.0 6.2.5.1) */
#define PCI_MODEL_HEADER_TYPE 0x0Eu
#include "efi/pcie/pcie_regs.h"

#include <string.h>

#define ALL_ONES 0xffffffffu
#define ECAM_BUS_SHIFT 20u
#define ECAM_DEV_SHIFT 15u
#define ECAM_FUNC_SHIFT 12u
#define ECAM_DEV_MASK 0x1fu
#define ECAM_FUNC_MASK 0x7u
#define ECAM_OFF_MASK 0xfffu
#define CHAIN_MAX 1024     /* bound of the builders' own chain walks */
#define MODEL_REVISION 0x01u      /* Revision ID of every added function */
#define MODEL_EXP_VERSION 2u      /* PCI Express Capability version (LnkCap2 present) */
#define MODEL_SIZE_512 2u         /* payload / read-request size encoding: 128 << 2 bytes */
#define MODEL_SIZE_128 0u

void pci_model_init(struct pci_model *m)
{
	memset(m, 0, sizeof(*m));
}

struct pci_model_func *pci_model_find(struct pci_model *m, struct hw_pci_addr a)
{
	for (int i = 0; i < m->n; i++) {
		struct hw_pci_addr b = m->f[i].addr;
		if (b.segment == a.segment && b.bus == a.bus && b.dev == a.dev && b.func == a.func)
			return &m->f[i];
	}
	return NULL;
}

void pci_model_w8(struct pci_model_func *f, unsigned off, uint8_t v)
{
	if (off < PCI_MODEL_CFG_SIZE)
		f->cfg[off] = v;
}

void pci_model_w16(struct pci_model_func *f, unsigned off, uint16_t v)
{
	pci_model_w8(f, off, (uint8_t)v);
	pci_model_w8(f, off + 1, (uint8_t)(v >> 8));
}

void pci_model_w32(struct pci_model_func *f, unsigned off, uint32_t v)
{
	pci_model_w16(f, off, (uint16_t)v);
	pci_model_w16(f, off + 2, (uint16_t)(v >> 16));
}

uint32_t pci_model_r32(const struct pci_model_func *f, unsigned off)
{
	if (off + 4 > PCI_MODEL_CFG_SIZE)
		return ALL_ONES;
	return (uint32_t)f->cfg[off] | (uint32_t)f->cfg[off + 1] << 8 |
	       (uint32_t)f->cfg[off + 2] << 16 | (uint32_t)f->cfg[off + 3] << 24;
}

static hw_status cfg_read(struct pci_model *m, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	if ((off & PCI_DWORD_MASK) || off >= PCI_MODEL_CFG_SIZE) {
		*v = ALL_ONES;
		return HW_BAD_ARG;
	}
	struct pci_model_func *f = pci_model_find(m, a);
	*v = f ? pci_model_r32(f, off) : ALL_ONES;
	return HW_OK;
}

static hw_status cfg_write(struct pci_model *m, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	if ((off & PCI_DWORD_MASK) || off >= PCI_MODEL_CFG_SIZE)
		return HW_BAD_ARG;
	struct pci_model_func *f = pci_model_find(m, a);
	if (!f)
		return HW_OK;     /* writes to a missing function are dropped, as on hardware */
	/* BARs: only the address bits above the size are writable; an unimplemented BAR is
	 * hardwired to zero (PCI 3.0 6.2.5.1). Type 0 headers have 6 BARs, type 1 (bridges) 2. */
	unsigned bar = (off - PCI_MODEL_BAR0) / 4;
	unsigned nbars = (f->cfg[PCI_MODEL_HEADER_TYPE] & 0x7F) == 1 ? 2 : PCI_MODEL_BARS;
	if (off >= PCI_MODEL_BAR0 && bar < nbars)
		v = (v & f->bar_wmask[bar]) | (pci_model_r32(f, off) & ~f->bar_wmask[bar]);
	pci_model_w32(f, off, v);
	return HW_OK;
}

void pci_model_set_bar(struct pci_model_func *f, unsigned i, uint64_t base, uint64_t size, uint32_t flags)
{
	uint64_t mask = ~(size - 1);
	pci_model_w32(f, PCI_MODEL_BAR0 + 4 * i, (uint32_t)(base & mask) | flags);
	f->bar_wmask[i] = (uint32_t)mask & 0xFFFFFFF0u;
	if ((flags & 0x6u) == 0x4u && i + 1 < PCI_MODEL_BARS) {
		pci_model_w32(f, PCI_MODEL_BAR0 + 4 * (i + 1), (uint32_t)(base >> 32));
		f->bar_wmask[i + 1] = (uint32_t)(mask >> 32);
	}
}

static hw_status pm_pci_read32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	struct pci_model *m = ctx;
	m->pci_reads++;
	return cfg_read(m, a, off, v);
}

static hw_status pm_pci_write32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	struct pci_model *m = ctx;
	m->pci_writes++;
	return cfg_write(m, a, off, v);
}

/* ECAM decode of an MMIO address inside the window. 0 when outside. */
static int ecam_decode(const struct pci_model *m, uint64_t addr, struct hw_pci_addr *a, uint16_t *off)
{
	if (!m->ecam_size || addr < m->ecam_base || addr - m->ecam_base >= m->ecam_size)
		return 0;
	uint64_t rel = addr - m->ecam_base;
	a->segment = m->ecam_segment;
	a->bus = (uint8_t)(rel >> ECAM_BUS_SHIFT);
	a->dev = (uint8_t)((rel >> ECAM_DEV_SHIFT) & ECAM_DEV_MASK);
	a->func = (uint8_t)((rel >> ECAM_FUNC_SHIFT) & ECAM_FUNC_MASK);
	*off = (uint16_t)(rel & ECAM_OFF_MASK);
	return 1;
}

static hw_status pm_mmio_read32(void *ctx, uint64_t addr, uint32_t *v)
{
	struct pci_model *m = ctx;
	struct hw_pci_addr a;
	uint16_t off;
	m->mmio_reads++;
	m->last_mmio = addr;
	if (!ecam_decode(m, addr, &a, &off))
		return HW_UNSUPPORTED;
	return cfg_read(m, a, off, v);
}

static hw_status pm_mmio_write32(void *ctx, uint64_t addr, uint32_t v)
{
	struct pci_model *m = ctx;
	struct hw_pci_addr a;
	uint16_t off;
	m->mmio_writes++;
	m->last_mmio = addr;
	if (!ecam_decode(m, addr, &a, &off))
		return HW_UNSUPPORTED;
	return cfg_write(m, a, off, v);
}

static const struct hw_ops pci_model_ops = {
	.name = "pci-model",
	.pci_read32 = pm_pci_read32,
	.pci_write32 = pm_pci_write32,
	.mmio_read32 = pm_mmio_read32,
	.mmio_write32 = pm_mmio_write32,
};

struct hw pci_model_hw(struct pci_model *m)
{
	return (struct hw){ .ops = &pci_model_ops, .ctx = m };
}

void pci_model_ecam(struct pci_model *m, uint64_t base, uint64_t size, uint16_t segment)
{
	m->ecam_base = base;
	m->ecam_size = size;
	m->ecam_segment = segment;
}

struct pci_model_func *pci_model_add(struct pci_model *m, uint16_t seg, uint8_t bus, uint8_t dev,
				     uint8_t func, uint16_t vendor, uint16_t device, uint32_t class_code,
				     uint8_t header_type)
{
	struct hw_pci_addr a = { seg, bus, dev, func };
	if (m->n >= PCI_MODEL_MAX_FUNCS || pci_model_find(m, a))
		return NULL;
	struct pci_model_func *f = &m->f[m->n++];
	memset(f, 0, sizeof(*f));
	f->addr = a;
	pci_model_w16(f, PCI_VENDOR_ID, vendor);
	pci_model_w16(f, PCI_VENDOR_ID + PCI_WORD_SELECT, device);
	pci_model_w32(f, PCI_CLASS_REVISION, class_code << PCI_CLASS_SHIFT | MODEL_REVISION);
	pci_model_w8(f, PCI_HEADER_TYPE, header_type);
	return f;
}

void pci_model_set_bridge(struct pci_model_func *f, uint8_t primary, uint8_t secondary, uint8_t subordinate)
{
	pci_model_w32(f, PCI_PRIMARY_BUS, (uint32_t)primary | (uint32_t)secondary << PCI_SECONDARY_BUS_SHIFT |
		      (uint32_t)subordinate << PCI_SUBORDINATE_BUS_SHIFT);
}

void pci_model_add_cap(struct pci_model_func *f, uint8_t off, uint8_t id)
{
	unsigned status = PCI_COMMAND + PCI_WORD_SELECT;
	unsigned link = PCI_CAPABILITY_LIST;
	if (f->cfg[status] & PCI_STATUS_CAP_LIST) {
		for (int i = 0; i < CHAIN_MAX && f->cfg[link]; i++)
			link = f->cfg[link] + PCI_CAP_LIST_NEXT;
	}
	f->cfg[status] |= PCI_STATUS_CAP_LIST;
	f->cfg[link] = off;
	pci_model_w8(f, off + PCI_CAP_LIST_ID, id);
	pci_model_w8(f, off + PCI_CAP_LIST_NEXT, 0);
}

void pci_model_add_exp(struct pci_model_func *f, uint8_t off, uint8_t type, uint8_t max_speed,
		       uint8_t max_width, uint8_t speed, uint8_t width, uint8_t speeds_vector)
{
	pci_model_add_cap(f, off, PCI_CAP_ID_EXP);
	pci_model_w16(f, off + PCI_EXP_FLAGS, (uint16_t)(MODEL_EXP_VERSION | (unsigned)type << PCI_EXP_FLAGS_TYPE_SHIFT));
	pci_model_w32(f, off + PCI_EXP_DEVCAP, MODEL_SIZE_512);    /* MPS supported: 512 bytes */
	pci_model_w16(f, off + PCI_EXP_DEVCTL, (uint16_t)(MODEL_SIZE_128 << PCI_EXP_DEVCTL_PAYLOAD_SHIFT |
							   MODEL_SIZE_512 << PCI_EXP_DEVCTL_READRQ_SHIFT));
	pci_model_w32(f, off + PCI_EXP_LNKCAP, (uint32_t)max_speed | (uint32_t)max_width << PCI_EXP_LNKCAP_MLW_SHIFT);
	pci_model_w16(f, off + PCI_EXP_LNKCTL + PCI_WORD_SELECT, (uint16_t)(speed | (unsigned)width << PCI_EXP_LNKSTA_NLW_SHIFT));
	pci_model_w32(f, off + PCI_EXP_LNKCAP2, (uint32_t)speeds_vector << PCI_EXP_LNKCAP2_SLS_SHIFT);
}

void pci_model_add_ext_cap(struct pci_model_func *f, uint16_t off, uint16_t id, uint8_t version)
{
	uint32_t hdr = (uint32_t)id | (uint32_t)version << PCI_EXT_CAP_VER_SHIFT;
	unsigned at = PCI_EXT_CAP_START;
	if (off != PCI_EXT_CAP_START && pci_model_r32(f, at) != 0) {
		for (int i = 0; i < CHAIN_MAX; i++) {
			uint32_t h = pci_model_r32(f, at);
			unsigned next = h >> PCI_EXT_CAP_NEXT_SHIFT;
			if (!next) {
				pci_model_w32(f, at, h | (uint32_t)off << PCI_EXT_CAP_NEXT_SHIFT);
				break;
			}
			at = next;
		}
	}
	pci_model_w32(f, off, hdr);
}

void pci_model_add_dvsec(struct pci_model_func *f, uint16_t off, uint16_t vendor, uint8_t rev,
			 uint16_t length, uint16_t dvsec_id)
{
	pci_model_add_ext_cap(f, off, PCI_EXT_CAP_ID_DVSEC, 1);
	pci_model_w32(f, off + PCI_DVSEC_HEADER1, (uint32_t)vendor |
		      (uint32_t)rev << PCI_DVSEC_HEADER1_REV_SHIFT |
		      (uint32_t)length << PCI_DVSEC_HEADER1_LEN_SHIFT);
	pci_model_w16(f, off + PCI_DVSEC_HEADER2, dvsec_id);
}
