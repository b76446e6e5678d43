/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel IMC / IIO register model (tests/model/intel_uncore_model.h). */
#include "tests/model/intel_uncore_model.h"
#include "tests/model/model_mmio.h"

#include <string.h>

#define MASK48 0xFFFFFFFFFFFFull
#define EN (1ull << 22)
#define FRZ (1ull << 8)
#define FRZ_EN (1ull << 16)

static const uint32_t icx_iio[6] = { 0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20 };

static uint32_t iio_box(const struct intel_uncore_model *u, unsigned s)
{
	return u->layout == IU_SKX ? 0xA40 + 0x20 * s : u->layout == IU_SPR ? 0x3000 + 0x10 * s : icx_iio[s];
}

static const struct hw_ops *model_ops(struct intel_uncore_model *u)
{
	static struct hw h;
	h = hw_model_hw(&u->m);
	return h.ops;
}

/* hw_model's fault injection, numbered in the same sequence as its MSR accesses */
static hw_status inject(struct intel_uncore_model *u, int write)
{
	struct hw_model *m = &u->m;
	if (m->fail_writes_only && !write)
		return HW_OK;
	uint32_t k = ++m->naccess;
	if (!m->fail_at || k < m->fail_at || (k > m->fail_at && !m->fail_sticky))
		return HW_OK;
	m->nfailed++;
	return m->fail_status ? m->fail_status : HW_ERROR;
}

static hw_status u_cpuid(void *c, uint32_t l, uint32_t s, struct hw_cpuid *o)
{ struct intel_uncore_model *u = c; return model_ops(u)->cpuid(&u->m, l, s, o); }
static hw_status u_rdmsr(void *c, uint32_t id, uint64_t *v)
{ struct intel_uncore_model *u = c; return model_ops(u)->rdmsr(&u->m, id, v); }
static hw_status u_wrmsr(void *c, uint32_t id, uint64_t v)
{ struct intel_uncore_model *u = c; return model_ops(u)->wrmsr(&u->m, id, v); }
static hw_status u_run(void *c, uint32_t cpu, hw_cpu_fn fn, void *arg)
{ struct intel_uncore_model *u = c; return model_ops(u)->run_on_cpu(&u->m, cpu, fn, arg); }

static hw_status u_pci_read(void *c, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	struct intel_uncore_model *u = c;
	u->pci_accesses++;
	hw_status st = inject(u, 0);
	if (st != HW_OK)
		return st;
	struct hw h = pci_model_hw(&u->pci);
	return hw_pci_read32(&h, a, off, v);
}

static hw_status u_pci_write(void *c, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	struct intel_uncore_model *u = c;
	u->pci_accesses++;
	hw_status st = inject(u, 1);
	if (st != HW_OK)
		return st;
	struct hw h = pci_model_hw(&u->pci);
	return hw_pci_write32(&h, a, off, v);
}

struct iu_mmio *iu_model_mmio(struct intel_uncore_model *u, uint64_t addr)
{
	for (unsigned i = 0; i < u->nmmio; i++)
		if (u->mmio[i].addr == addr)
			return &u->mmio[i];
	return NULL;
}

/* ICX free-running counter offsets in a memory controller's block (Linux icx_imc_freerunning) */
static const uint32_t free_off[3] = { 0x2290, 0x2298, 0x22B0 };

static int is_free_counter(const struct intel_uncore_model *u, uint64_t addr)
{
	for (unsigned m = 0; m < u->nimc_free; m++)
		for (unsigned k = 0; k < 3; k++)
			if (addr == u->imc_free_base[m] + free_off[k])
				return 1;
	return 0;
}

static hw_status mmio_rw(struct intel_uncore_model *u, uint64_t addr, uint64_t *v, int write, int wide)
{
	u->mmio_accesses++;
	hw_status st = inject(u, write);
	if (st != HW_OK)
		return st;
	struct iu_mmio *r = iu_model_mmio(u, addr);
	if (!r || r->wide != wide)
		return HW_BAD_ARG;    /* no register there, or the wrong width */
	if (write && is_free_counter(u, addr)) {
		u->free_writes++;
		return HW_BAD_ARG;    /* free-running counters are read-only */
	}
	if (write)
		r->value = wide ? *v : *v & 0xFFFFFFFFu;
	else
		*v = r->value;
	return HW_OK;
}

MODEL_MMIO_OPS(u, mmio_rw)

static const struct hw_ops iu_ops = {
	.name = "intel-uncore-model", .cpuid = u_cpuid, .rdmsr = u_rdmsr, .wrmsr = u_wrmsr, .run_on_cpu = u_run,
	.pci_read32 = u_pci_read, .pci_write32 = u_pci_write, .mmio_read32 = u_mr32, .mmio_read64 = u_mr64,
	.mmio_write32 = u_mw32, .mmio_write64 = u_mw64,
};

struct hw iu_model_hw(struct intel_uncore_model *u)
{
	return (struct hw){ .ops = &iu_ops, .ctx = u };
}

static int counting(const struct intel_uncore_model *u, uint64_t box, uint64_t ctl, const struct iu_traffic *t)
{
	if (u->layout == IU_SPR ? (box & 1) : (box & FRZ) && (box & FRZ_EN))
		return 0;
	return (ctl & EN) && (ctl & 0xFF) == t->event && ((ctl >> 8) & 0xFF) == t->umask;
}

static void tick(struct hw_model *m, unsigned n, void *arg)
{
	struct intel_uncore_model *u = arg;
	for (unsigned t = 0; t < u->ntraffic; t++) {
		const struct iu_traffic *tr = &u->t[t];
		if (tr->box == IU_IMC && tr->unit < u->nimc) {
			for (unsigned i = 0; i < 4; i++) {
				if (u->layout == IU_SKX) {
					struct pci_model_func *f = pci_model_find(&u->pci, u->imc_fn[tr->unit]);
					uint64_t box = pci_model_r32(f, 0xF4), ctl = pci_model_r32(f, 0xD8 + 4 * i);
					if (!counting(u, box, ctl, tr))
						continue;
					uint64_t v = pci_model_r32(f, 0xA0 + 8 * i) | (uint64_t)pci_model_r32(f, 0xA4 + 8 * i) << 32;
					v = (v + tr->per_tick * n) & MASK48;
					pci_model_w32(f, 0xA0 + 8 * i, (uint32_t)v);
					pci_model_w32(f, 0xA4 + 8 * i, (uint32_t)(v >> 32));
				} else {
					uint64_t b = u->imc_base[tr->unit];
					struct iu_mmio *box = iu_model_mmio(u, b), *ctl = iu_model_mmio(u, b + 0x40 + 4 * i),
						       *ctr = iu_model_mmio(u, b + 0x08 + 8 * i);
					if (box && ctl && ctr && counting(u, box->value, ctl->value, tr))
						ctr->value = (ctr->value + tr->per_tick * n) & MASK48;
				}
			}
		} else if (tr->box == IU_IMC_FREE && tr->unit < u->nimc_free) {
			/* free-running: always counting, nothing to enable */
			uint64_t a = u->imc_free_base[tr->unit] + (tr->umask == IU_FREE_WRITE ? free_off[1] : free_off[0]);
			struct iu_mmio *ctr = iu_model_mmio(u, a);
			if (ctr)
				ctr->value = (ctr->value + tr->per_tick * n) & MASK48;
		} else if (tr->box == IU_IIO) {
			uint32_t base = iio_box(u, tr->unit);
			struct hw_model_reg *box = hw_model_find(m, HWM_MSR, base);
			for (unsigned i = 0; box && i < 4; i++) {
				struct hw_model_reg *ctl = hw_model_find(m, HWM_MSR, base + 8 + i),
						    *ctr = hw_model_find(m, HWM_MSR, base + 1 + i);
				if (!ctl || !ctr || !counting(u, box->value, ctl->value, tr))
					continue;
				uint64_t ch = u->layout == IU_SKX ? (ctl->value >> 36) & 0xFF : (ctl->value >> 36) & 0xFFF;
				uint64_t fc = u->layout == IU_SKX ? (ctl->value >> 44) & 7 : (ctl->value >> 48) & 7;
				if ((ch >> tr->part) & 1 && fc == 7)
					ctr->value = (ctr->value + tr->per_tick * n) & MASK48;
			}
		}
	}
}

void iu_model_init(struct intel_uncore_model *u, enum iu_layout layout)
{
	memset(u, 0, sizeof(*u));
	hw_model_init(&u->m);
	pci_model_init(&u->pci);
	u->layout = layout;
	u->m.ncpus = 4;
	u->m.tick_hook = tick;
	u->m.tick_arg = u;
	/* family 6, model 0x55 (SKX) / 0x6A (ICX): leaf 1 EAX model [7:4] + extended [19:16] */
	uint32_t model = layout == IU_SKX ? 0x55 : layout == IU_SPR ? 0x8F : 0x6A;
	hw_model_cpuid(&u->m, 0, 0, 0x16, 0x756E6547, 0x6C65746E, 0x49656E69);
	hw_model_cpuid(&u->m, 1, 0, 0x600u | (model & 0xF) << 4 | (model >> 4) << 16, 0, 0, 0);
}

/* Function 0 of a multi-function device, as hardware has it (scans probe function 0 first). */
static void fn0(struct intel_uncore_model *u, uint8_t bus, uint8_t dev, uint16_t did)
{
	if (!pci_model_find(&u->pci, (struct hw_pci_addr){ 0, bus, dev, 0 }))
		pci_model_add(&u->pci, 0, bus, dev, 0, 0x8086, did, 0x088000, 0x80);
}

void iu_model_skx_channel(struct intel_uncore_model *u, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t did)
{
	fn0(u, bus, dev, (uint16_t)(did - 2));
	pci_model_add(&u->pci, 0, bus, dev, fn, 0x8086, did, 0x088000, 0x80);
	u->imc_fn[u->nimc++] = (struct hw_pci_addr){ 0, bus, dev, fn };
}

static void mmio_reg(struct intel_uncore_model *u, uint64_t addr, uint8_t wide)
{
	if (u->nmmio < IU_MODEL_MAX_MMIO)
		u->mmio[u->nmmio++] = (struct iu_mmio){ addr, 0, wide };
}

void iu_model_icx_mc(struct intel_uncore_model *u, uint8_t bus, uint32_t base_reg, const uint32_t mem[4])
{
	fn0(u, bus, 0, 0x3450);
	struct pci_model_func *f = pci_model_add(&u->pci, 0, bus, 0, 1, 0x8086, 0x3451, 0x088000, 0x80);
	pci_model_w32(f, 0xD0, base_reg);
	for (unsigned m = 0; m < 4; m++) {
		pci_model_w32(f, 0xD8 + 4 * m, mem[m]);
		if (!(mem[m] & 0x7FF))
			continue;
		uint64_t base = (uint64_t)(base_reg & 0x1FFFFFFF) << 23 | (uint64_t)(mem[m] & 0x7FF) << 12;
		for (unsigned k = 0; k < 3; k++)
			mmio_reg(u, base + free_off[k], 1);
		u->imc_free_base[u->nimc_free++] = base;
		for (unsigned c = 0; c < 3; c++) {
			uint64_t b = base + 0x22800 + 0x4000 * c;
			mmio_reg(u, b, 0);
			for (unsigned i = 0; i < 4; i++) {
				mmio_reg(u, b + 0x40 + 4 * i, 0);
				mmio_reg(u, b + 0x08 + 8 * i, 1);
			}
			u->imc_base[u->nimc++] = b;
		}
	}
}

void iu_model_iio(struct intel_uncore_model *u, unsigned nstacks, uint64_t cpubusno)
{
	for (unsigned s = 0; s < nstacks; s++) {
		uint32_t b = iio_box(u, s);
		hw_model_reg(&u->m, HWM_MSR, b, HWM_PLAIN, 0);
		for (unsigned i = 0; i < 4; i++) {
			hw_model_reg(&u->m, HWM_MSR, b + 1 + i, HWM_PLAIN, 0);
			hw_model_reg(&u->m, HWM_MSR, b + 8 + i, HWM_PLAIN, 0);
		}
	}
	hw_model_reg(&u->m, HWM_MSR, 0x700, HWM_PLAIN, 0);
	hw_model_reg(&u->m, HWM_MSR, 0x300, HWM_READONLY, cpubusno);
}

static void mmio_ro(struct intel_uncore_model *u, uint64_t addr, uint64_t v)
{
	mmio_reg(u, addr, 1);
	u->mmio[u->nmmio - 1].value = v;
}

/* One 32-byte table entry at addr. */
static void entry(struct intel_uncore_model *u, uint64_t addr, uint64_t q0, uint64_t q1, uint64_t q2)
{
	mmio_ro(u, addr, q0);
	mmio_ro(u, addr + 8, q1);
	mmio_ro(u, addr + 16, q2);
	mmio_ro(u, addr + 24, 0);
}

void iu_model_spr_discovery(struct intel_uncore_model *u, uint8_t bus, uint64_t table_base, unsigned nimc,
			    uint64_t imc_base, unsigned nstacks)
{
	fn0(u, bus, 0, 0x09A6 - 1);
	struct pci_model_func *f = pci_model_add(&u->pci, 0, bus, 0, 1, 0x8086, 0x09A7, 0x088000, 0x80);
	pci_model_w32(f, 0x100, 0x23 | 1u << 16);              /* DVSEC, version 1, last capability */
	pci_model_w32(f, 0x104, 0x8086);
	pci_model_w32(f, 0x108, 1);                            /* DVSEC ID 1: PMON discovery */
	pci_model_w32(f, 0x10C, 0);                            /* BIR 0 */
	pci_model_w32(f, 0x10, (uint32_t)table_base | 0x4);    /* 64-bit memory BAR */
	pci_model_w32(f, 0x14, (uint32_t)(table_base >> 32));
	unsigned n = 1 + nimc + nstacks;
	entry(u, table_base, 4u << 8 | (uint64_t)n << 16, 0x2FF0, 0);
	uint64_t at = table_base + 32;
	entry(u, at, 4 | 0x2ull << 8 | 48ull << 16 | 0x8ull << 24, 0x2010, 1ull << 16);   /* CHA 1 */
	at += 32;
	for (unsigned i = 0; i < nimc; i++, at += 32) {
		uint64_t b = imc_base + 0x4000ull * i;
		entry(u, at, 4 | 0x40ull << 8 | 48ull << 16 | 0x08ull << 24 | 1ull << 62, b, 6 | (uint64_t)i << 16);
		mmio_reg(u, b, 0);
		for (unsigned c = 0; c < 4; c++) {
			mmio_reg(u, b + 0x40 + 4 * c, 0);
			mmio_reg(u, b + 0x08 + 8 * c, 1);
		}
		u->imc_base[u->nimc++] = b;
	}
	for (unsigned s = 0; s < nstacks; s++, at += 32)
		entry(u, at, 4 | 0x8ull << 8 | 48ull << 16 | 0x1ull << 24, iio_box(u, s), 1 | (uint64_t)s << 16);
	iu_model_iio(u, nstacks, 0);
}

void iu_model_spr_msm(struct intel_uncore_model *u, uint8_t bus, uint32_t valid, const uint32_t busno[8],
		      uint32_t capid4)
{
	fn0(u, bus, 0x1E, 0x3258);
	pci_model_w32(pci_model_add(&u->pci, 0, bus, 0x1E, 3, 0x8086, 0x325B, 0x088000, 0x80), 0x94, capid4);
	struct pci_model_func *f = pci_model_add(&u->pci, 0, bus, 3, 0, 0x8086, 0x09A6, 0x088000, 0x00);
	pci_model_w32(f, 0x1A0, valid);
	for (unsigned r = 0; r < 4; r++) {
		pci_model_w32(f, 0x190 + 4 * r, busno[r]);
		pci_model_w32(f, 0x1C0 + 4 * r, busno[4 + r]);
	}
}

void iu_model_add(struct intel_uncore_model *u, struct iu_traffic t)
{
	if (u->ntraffic < IU_MODEL_MAX_TRAFFIC)
		u->t[u->ntraffic++] = t;
}

int iu_model_is_counter_msr(const struct intel_uncore_model *u, uint32_t id)
{
	for (unsigned s = 0; s < 6; s++) {
		uint32_t b = iio_box(u, s);
		if (id >= b + 1 && id <= b + 4)
			return 1;
	}
	return 0;
}

int iu_model_is_counter_off(uint64_t off)
{
	return off >= 0x08 && off < 0x28;
}
