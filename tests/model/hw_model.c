/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model backend (tests/model/hw_model.h).
 *
 * rdpmc, when enabled with hw_model_rdpmc(): the counter index selects an MSR of the model,
 * following RDPMC's ECX encoding (Intel SDM Vol.2B RDPMC):
 *   ECX bit 30 set   -> fixed counter ECX[7:0]: IA32_FIXED_CTR0 (0x309) + ECX[7:0]
 *   ECX bit 29 set   -> IA32_PERF_METRICS (0x329) (Linux arch/x86/include/asm/perf_event.h
 *                    INTEL_PMC_FIXED_RDPMC_METRICS)
 *   otherwise        -> general-purpose counter ECX: IA32_PMC0 (0xC1) + ECX
 * so a test defines the counter once, as an MSR, and reads it either way. An index whose MSR
 * is not defined faults with #GP, as RDPMC does for an invalid counter.
 * MMIO and PCI config space are not modelled (HW_UNSUPPORTED).
 * Only writes that take effect are logged; the log stops at HW_MODEL_MAX_LOG entries.
 */
#include "tests/model/hw_model.h"

#include <string.h>

#define IA32_PMC0 0xC1u
#define IA32_FIXED_CTR0 0x309u
#define IA32_PERF_METRICS 0x329u
#define RDPMC_FIXED_SELECT (1u << 30)
#define RDPMC_METRICS_SELECT (1u << 29)
#define RDPMC_FIXED_INDEX_MASK 0xffu

void hw_model_init(struct hw_model *m)
{
	memset(m, 0, sizeof(*m));
	m->ncpus = 1;
}

struct hw_model_reg *hw_model_find(struct hw_model *m, enum hw_model_space sp, uint32_t id)
{
	for (int i = 0; i < m->nregs; i++)
		if (m->regs[i].space == sp && m->regs[i].id == id)
			return &m->regs[i];
	return NULL;
}

/* Defines (or redefines) a register; NULL when the table is full. */
struct hw_model_reg *hw_model_reg(struct hw_model *m, enum hw_model_space sp, uint32_t id,
				  enum hw_model_kind kind, uint64_t value)
{
	struct hw_model_reg *r = hw_model_find(m, sp, id);
	if (!r) {
		if (m->nregs >= HW_MODEL_MAX_REGS)
			return NULL;
		r = &m->regs[m->nregs++];
	}
	*r = (struct hw_model_reg){ .space = (uint8_t)sp, .kind = (uint8_t)kind, .id = id, .value = value };
	return r;
}

void hw_model_cpuid(struct hw_model *m, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	int i = 0;
	while (i < m->ncpuid && !(m->cpuid[i].leaf == leaf && m->cpuid[i].sub == sub))
		i++;
	if (i == HW_MODEL_MAX_CPUID)
		return;
	if (i == m->ncpuid)
		m->ncpuid++;
	m->cpuid[i].leaf = leaf;
	m->cpuid[i].sub = sub;
	m->cpuid[i].r = (struct hw_cpuid){ .eax = a, .ebx = b, .ecx = c, .edx = d };
}

void hw_model_rdpmc(struct hw_model *m, int enabled)
{
	m->rdpmc_enabled = enabled;
}

static uint64_t wrap(const struct hw_model_reg *r, uint64_t v)
{
	return r->width_mask ? v & r->width_mask : v;
}

/* An enable predicate holds when en_mask is 0 or every en_mask bit of register en_id (same
 * address space) is set. */
static int predicate(struct hw_model *m, uint8_t space, uint32_t id, uint64_t mask)
{
	if (!mask)
		return 1;
	const struct hw_model_reg *en = hw_model_find(m, space, id);
	return en && (en->value & mask) == mask;
}

void hw_model_tick(struct hw_model *m, unsigned n)
{
	for (int i = 0; i < m->nregs; i++) {
		struct hw_model_reg *r = &m->regs[i];
		if (r->kind != HWM_COUNTER || !predicate(m, r->space, r->en_id, r->en_mask) ||
		    !predicate(m, r->space, r->en2_id, r->en2_mask))
			continue;
		/* n steps at once: modulo 2^64 then the width mask, as n single steps would wrap */
		r->value = wrap(r, r->value + r->step * n);
	}
	if (m->tick_hook)
		m->tick_hook(m, n, m->tick_arg);
}

/* Injected fault for this access, or HW_OK (see fail_at in hw_model.h). */
static hw_status injected(struct hw_model *m, int write, hw_status fault)
{
	if (m->fail_writes_only && !write)
		return HW_OK;
	uint32_t k = ++m->naccess;
	if (!m->fail_at || k < m->fail_at || (k > m->fail_at && !m->fail_sticky))
		return HW_OK;
	m->nfailed++;
	return m->fail_status ? m->fail_status : fault;
}

int hw_model_plain_diff(const struct hw_model *a, const struct hw_model *b, uint8_t *space, uint32_t *id)
{
	int n = 0;
	for (int i = 0; i < a->nregs && i < b->nregs; i++) {
		const struct hw_model_reg *x = &a->regs[i], *y = &b->regs[i];
		if (x->kind != HWM_PLAIN || (x->value == y->value && x->space == y->space && x->id == y->id))
			continue;
		if (!n++) {
			if (space)
				*space = x->space;
			if (id)
				*id = x->id;
		}
	}
	return n;
}

static hw_status reg_read(struct hw_model *m, uint8_t space, uint32_t id, uint64_t *val, hw_status fault)
{
	hw_status inj = injected(m, 0, fault);
	if (inj != HW_OK)
		return inj;
	const struct hw_model_reg *r = hw_model_find(m, space, id);
	if (!r)
		return fault;
	*val = r->value;
	return HW_OK;
}

static hw_status reg_write(struct hw_model *m, uint8_t space, uint32_t id, uint64_t val, hw_status fault)
{
	hw_status inj = injected(m, 1, fault);
	if (inj != HW_OK)
		return inj;
	struct hw_model_reg *r = hw_model_find(m, space, id);
	if (!r || r->kind == HWM_READONLY)
		return fault;
	r->value = wrap(r, val);
	if (m->nlog < HW_MODEL_MAX_LOG)
		m->log[m->nlog++] = (struct hw_model_write){ .space = space, .id = id, .value = val };
	if (m->on_write)
		m->on_write(m, space, id, val);
	return HW_OK;
}

static hw_status model_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct hw_cpuid *out)
{
	struct hw_model *m = ctx;
	*out = (struct hw_cpuid){ 0 };
	for (int i = 0; i < m->ncpuid; i++)
		if (m->cpuid[i].leaf == leaf && m->cpuid[i].sub == sub)
			*out = m->cpuid[i].r;
	/* Side effect, e.g. CPUID.1 loading IA32_BIOS_SIGN_ID (SDM Vol.3A 10.11.7.1). */
	if (m->cpuid_effect.set && m->cpuid_effect.leaf == leaf) {
		struct hw_model_reg *r = hw_model_find(m, HWM_MSR, m->cpuid_effect.msr);
		if (r)
			r->value = m->cpuid_effect.value;
	}
	return HW_OK;
}

static hw_status model_rdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	return reg_read(ctx, HWM_MSR, msr, val, HW_FAULT_GP);
}

static hw_status model_wrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	return reg_write(ctx, HWM_MSR, msr, val, HW_FAULT_GP);
}

static hw_status model_rdpmc(void *ctx, uint32_t counter, uint64_t *val)
{
	struct hw_model *m = ctx;
	if (!m->rdpmc_enabled)
		return HW_FAULT_UD;
	uint32_t msr = counter & RDPMC_FIXED_SELECT ? IA32_FIXED_CTR0 + (counter & RDPMC_FIXED_INDEX_MASK)
		       : counter & RDPMC_METRICS_SELECT ? IA32_PERF_METRICS : IA32_PMC0 + counter;
	return reg_read(m, HWM_MSR, msr, val, HW_FAULT_GP);
}

static hw_status model_sysreg_read(void *ctx, uint32_t enc, uint64_t *val)
{
	return reg_read(ctx, HWM_SYSREG, enc, val, HW_FAULT_SYNC);
}

static hw_status model_sysreg_write(void *ctx, uint32_t enc, uint64_t val)
{
	return reg_write(ctx, HWM_SYSREG, enc, val, HW_FAULT_SYNC);
}

static hw_status model_run_on_cpu(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	struct hw_model *m = ctx;
	if (cpu >= m->ncpus || !fn)
		return HW_BAD_ARG;
	fn(arg);
	return HW_OK;
}

static const struct hw_ops hw_model_ops = {
	.name = "model",
	.cpuid = model_cpuid,
	.rdmsr = model_rdmsr,
	.wrmsr = model_wrmsr,
	.rdpmc = model_rdpmc,
	.sysreg_read = model_sysreg_read,
	.sysreg_write = model_sysreg_write,
	.run_on_cpu = model_run_on_cpu,
};

struct hw hw_model_hw(struct hw_model *m)
{
	return (struct hw){ .ops = &hw_model_ops, .ctx = m };
}
