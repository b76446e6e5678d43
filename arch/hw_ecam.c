/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ECAM backend (arch/hw_ecam.h). PCIe 6.0 section 7.2.2, Table 7-1.
 */
#include "arch/hw_ecam.h"

#define ECAM_BUS_SHIFT    20u
#define ECAM_DEV_SHIFT    15u
#define ECAM_FUNC_SHIFT   12u
#define ECAM_MAX_DEV      31u
#define ECAM_MAX_FUNC     7u
#define ECAM_CFG_SIZE     4096u
#define ECAM_DWORD_MASK   3u

const struct ecam_segment *hw_ecam_find(const struct hw_ecam *e, struct hw_pci_addr a)
{
	for (int i = 0; i < e->nsegs; i++) {
		const struct ecam_segment *s = &e->seg[i];
		if (s->segment == a.segment && a.bus >= s->bus_start && a.bus <= s->bus_end)
			return s;
	}
	return NULL;
}

uint64_t hw_ecam_address(const struct ecam_segment *s, struct hw_pci_addr a, uint16_t off)
{
	return s->base + ((uint64_t)a.bus << ECAM_BUS_SHIFT | (uint64_t)a.dev << ECAM_DEV_SHIFT |
			  (uint64_t)a.func << ECAM_FUNC_SHIFT | off);
}

static int bad_addr(struct hw_pci_addr a, uint16_t off)
{
	return a.dev > ECAM_MAX_DEV || a.func > ECAM_MAX_FUNC || off >= ECAM_CFG_SIZE ||
	       (off & ECAM_DWORD_MASK);
}

static hw_status ec_pci_read32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	struct hw_ecam *e = ctx;
	const struct ecam_segment *s = hw_ecam_find(e, a);
	if (!s)
		return hw_pci_read32(&e->inner, a, off, v);
	if (bad_addr(a, off))
		return HW_BAD_ARG;
	return hw_mmio_read32(&e->inner, hw_ecam_address(s, a, off), v);
}

static hw_status ec_pci_write32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t v)
{
	struct hw_ecam *e = ctx;
	const struct ecam_segment *s = hw_ecam_find(e, a);
	if (!s)
		return hw_pci_write32(&e->inner, a, off, v);
	if (bad_addr(a, off))
		return HW_BAD_ARG;
	return hw_mmio_write32(&e->inner, hw_ecam_address(s, a, off), v);
}

/* Everything else is forwarded unchanged. */
#define INNER(ctx) (&((struct hw_ecam *)(ctx))->inner)
static hw_status ec_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct hw_cpuid *o)
{ return hw_cpuid(INNER(ctx), leaf, sub, o); }
static hw_status ec_rdmsr(void *ctx, uint32_t msr, uint64_t *v) { return hw_rdmsr(INNER(ctx), msr, v); }
static hw_status ec_wrmsr(void *ctx, uint32_t msr, uint64_t v) { return hw_wrmsr(INNER(ctx), msr, v); }
static hw_status ec_rdpmc(void *ctx, uint32_t c, uint64_t *v) { return hw_rdpmc(INNER(ctx), c, v); }
static hw_status ec_sysreg_read(void *ctx, uint32_t enc, uint64_t *v) { return hw_sysreg_read(INNER(ctx), enc, v); }
static hw_status ec_sysreg_write(void *ctx, uint32_t enc, uint64_t v) { return hw_sysreg_write(INNER(ctx), enc, v); }
static hw_status ec_mmio_read32(void *ctx, uint64_t a, uint32_t *v) { return hw_mmio_read32(INNER(ctx), a, v); }
static hw_status ec_mmio_read64(void *ctx, uint64_t a, uint64_t *v) { return hw_mmio_read64(INNER(ctx), a, v); }
static hw_status ec_mmio_write32(void *ctx, uint64_t a, uint32_t v) { return hw_mmio_write32(INNER(ctx), a, v); }
static hw_status ec_mmio_write64(void *ctx, uint64_t a, uint64_t v) { return hw_mmio_write64(INNER(ctx), a, v); }
static hw_status ec_run_on_cpu(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg)
{ return hw_run_on_cpu(INNER(ctx), cpu, fn, arg); }

static const struct hw_ops ecam_ops = {
	.name = "ecam",
	.cpuid = ec_cpuid,
	.rdmsr = ec_rdmsr,
	.wrmsr = ec_wrmsr,
	.rdpmc = ec_rdpmc,
	.sysreg_read = ec_sysreg_read,
	.sysreg_write = ec_sysreg_write,
	.mmio_read32 = ec_mmio_read32,
	.mmio_read64 = ec_mmio_read64,
	.mmio_write32 = ec_mmio_write32,
	.mmio_write64 = ec_mmio_write64,
	.pci_read32 = ec_pci_read32,
	.pci_write32 = ec_pci_write32,
	.run_on_cpu = ec_run_on_cpu,
};

struct hw hw_ecam_wrap(struct hw_ecam *e, struct hw inner, const struct ecam_segment *segs, int nsegs)
{
	e->inner = inner;
	e->nsegs = 0;
	e->dropped = 0;
	for (int i = 0; i < nsegs; i++) {
		if (e->nsegs < HW_ECAM_MAX_SEGMENTS)
			e->seg[e->nsegs++] = segs[i];
		else
			e->dropped++;
	}
	return (struct hw){ .ops = &ecam_ops, .ctx = e };
}
