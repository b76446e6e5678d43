/* SPDX-License-Identifier: BSD-2-Clause */
/* Machine checks, energy, frequency and thermal status around a window (pmu/health.h). */
#include <stddef.h>
#include "pmu/health.h"
#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"

/* CPUID.1:EDX, or why the machine has no CPUID (not x86). */
static const char *cpuid_reg(const struct hw *hw, uint32_t leaf, struct hw_cpuid *r)
{
	struct hw_cpuid m = { 0 };
	*r = (struct hw_cpuid){ 0 };
	if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &m) != HW_OK)
		return "no CPUID: not an x86 CPU";
	if ((leaf & CPUID_EXT_MAXLEAF) && hw_cpuid(hw, CPUID_EXT_MAXLEAF, 0, &m) != HW_OK)
		return "no CPUID: not an x86 CPU";
	if (m.eax < leaf)
		return "CPUID leaf above the CPU's maximum";
	return hw_cpuid(hw, leaf, 0, r) == HW_OK ? NULL : "CPUID failed";
}

/* ---- machine checks ------------------------------------------------------------------------ */

void mca_snapshot(const struct hw *hw, struct mca_snap *s)
{
	struct hw_cpuid r;
	uint64_t cap = 0;
	*s = (struct mca_snap){ 0 };
	s->why = cpuid_reg(hw, CPUID_SIGNATURE, &r);
	if (s->why) {
		if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK)
			s->why = "no x86 machine-check banks: Arm RAS error records are described by the ACPI AEST, "
				 "which efiperf does not parse";
		return;
	}
	if ((r.edx & (CPUID_1_EDX_MCE | CPUID_1_EDX_MCA)) != (CPUID_1_EDX_MCE | CPUID_1_EDX_MCA)) {
		s->why = "CPUID.01H:EDX MCE[7] or MCA[14] is 0: no machine-check architecture";
		return;
	}
	if (hw_rdmsr(hw, IA32_MCG_CAP, &cap) != HW_OK) {
		s->why = "IA32_MCG_CAP read faulted";
		return;
	}
	s->count = (uint32_t)(cap & IA32_MCG_CAP_COUNT_MASK);
	s->nbanks = s->count < MCA_MAX_BANKS ? s->count : MCA_MAX_BANKS;
	if (!s->nbanks)
		s->why = "IA32_MCG_CAP.Count is 0: no banks";
	for (uint32_t i = 0; i < s->nbanks; i++) {
		struct mca_bank *b = &s->b[i];
		uint32_t base = IA32_MC0_CTL + i * IA32_MC_STRIDE;
		b->st = hw_rdmsr(hw, base + IA32_MC_STATUS_OFF, &b->status);
		if (b->st != HW_OK) {
			b->status = 0;
			s->unread++;
		}
		if ((b->status & MCI_STATUS_VAL) && (b->status & MCI_STATUS_ADDRV))
			hw_rdmsr(hw, base + IA32_MC_ADDR_OFF, &b->addr);
		if ((b->status & MCI_STATUS_VAL) && (b->status & MCI_STATUS_MISCV))
			hw_rdmsr(hw, base + IA32_MC_MISC_OFF, &b->misc);
	}
}

const char *mca_code_kind(uint16_t c)
{
	static const char *const simple[] = { "no error", "unclassified", "microcode ROM parity", "external", "FRC",
					      "internal parity", "SMM handler code access violation" };
	/* SDM Vol.3B Table 16-8: compound forms over the code with the filter bit F (12) cleared */
	static const struct { uint16_t mask, val; const char *kind; } compound[] = {
		{ 0xFFFC, 0x000C, "generic cache hierarchy" },   /* 000F 0000 0000 11LL */
		{ 0xFFF0, 0x0010, "TLB" },                       /* 000F 0000 0001 TTLL */
		{ 0xFF80, 0x0080, "memory controller" },         /* 000F 0000 1MMM CCCC */
		{ 0xFF00, 0x0100, "cache hierarchy" },           /* 000F 0001 RRRR TTLL */
		{ 0xF800, 0x0800, "bus and interconnect" },      /* 000F 1PPT RRRR IILL */
	};
	if (c < sizeof(simple) / sizeof(simple[0]))
		return simple[c];
	if (c == 0x0400)
		return "internal timer";                 /* 0000 0100 0000 0000 */
	if (c == 0x0E0B)
		return "I/O";                            /* 0000 1110 0000 1011 */
	if ((c & 0xFC00) == 0x0400)
		return "internal unclassified";          /* 0000 01xx xxxx xxxx */
	uint16_t f = c & (uint16_t)~0x1000u;
	for (size_t i = 0; i < sizeof(compound) / sizeof(compound[0]); i++)
		if ((f & compound[i].mask) == compound[i].val)
			return compound[i].kind;
	return "unknown";
}

void mca_decode(uint64_t st, struct mca_entry *e)
{
	e->status = st;
	e->uc = !!(st & MCI_STATUS_UC);
	e->over = !!(st & MCI_STATUS_OVER);
	e->pcc = !!(st & MCI_STATUS_PCC);
	e->en = !!(st & MCI_STATUS_EN);
	e->addrv = !!(st & MCI_STATUS_ADDRV);
	e->miscv = !!(st & MCI_STATUS_MISCV);
	e->s = !!(st & MCI_STATUS_S);
	e->ar = !!(st & MCI_STATUS_AR);
	e->mcacod = (uint16_t)(st & MCI_STATUS_MCACOD_MASK);
	e->mscod = (uint16_t)((st >> MCI_STATUS_MSCOD_SHIFT) & MCI_STATUS_MSCOD_MASK);
	e->kind = mca_code_kind(e->mcacod);
}

void mca_delta(const struct mca_snap *a, const struct mca_snap *b, struct mca_delta *d)
{
	*d = (struct mca_delta){ 0 };
	for (uint32_t i = 0; i < b->nbanks; i++) {
		const struct mca_bank *x = &b->b[i];
		const struct mca_bank *o = i < a->nbanks ? &a->b[i] : NULL;
		if (!(x->status & MCI_STATUS_VAL))
			continue;
		if (o && (o->status & MCI_STATUS_VAL) && o->status == x->status && o->addr == x->addr)
			continue;
		d->n_new++;
		if (x->status & MCI_STATUS_UC)
			d->uncorrected++;
		else
			d->corrected++;
		if (d->nkept == MCA_MAX_NEW)
			continue;
		struct mca_entry *e = &d->e[d->nkept++];
		mca_decode(x->status, e);
		e->bank = i;
		e->addr = e->addrv ? x->addr : 0;
		e->misc = e->miscv ? x->misc : 0;
	}
}

/* ---- energy -------------------------------------------------------------------------------- */

uint64_t rapl_delta(uint32_t before, uint32_t after)
{
	return (uint64_t)(uint32_t)(after - before);
}

uint64_t rapl_microjoules(uint64_t counts, uint32_t esu)
{
	/* whole joules and the fraction apart: exact floor without a 128-bit shift */
	uint64_t frac = counts & ((1ull << esu) - 1);
	return (counts >> esu) * 1000000u + ((frac * 1000000u) >> esu);
}

/* The RAPL MSRs of each vendor: data, not branches. */
static const struct rapl_table {
	const char vendor[13];
	uint32_t unit_msr;
	struct { const char *name; uint32_t msr; } d[ENERGY_MAX_DOMAINS];
} rapl_tables[] = {
	{ "GenuineIntel", MSR_RAPL_POWER_UNIT, { { "package", MSR_PKG_ENERGY_STATUS }, { "dram", MSR_DRAM_ENERGY_STATUS } } },
	{ "AuthenticAMD", MSR_AMD_RAPL_POWER_UNIT,
	  { { "package", MSR_AMD_PKG_ENERGY_STATUS }, { "core", MSR_AMD_CORE_ENERGY_STATUS } } },
	{ "HygonGenuine", MSR_AMD_RAPL_POWER_UNIT,
	  { { "package", MSR_AMD_PKG_ENERGY_STATUS }, { "core", MSR_AMD_CORE_ENERGY_STATUS } } },
};

static int same12(const char *a, const char *b)
{
	for (int i = 0; i < 12; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

void energy_snapshot(const struct hw *hw, struct energy_snap *s)
{
	struct hw_cpuid v;
	uint64_t unit = 0;
	*s = (struct energy_snap){ 0 };
	if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &v) != HW_OK) {
		s->why = "no architectural energy counter on this CPU architecture (Arm AMU counts cycles, not energy)";
		return;
	}
	char vendor[12];
	for (int i = 0; i < 4; i++) {
		vendor[i] = (char)(v.ebx >> (8 * i));
		vendor[4 + i] = (char)(v.edx >> (8 * i));
		vendor[8 + i] = (char)(v.ecx >> (8 * i));
	}
	const struct rapl_table *t = NULL;
	for (size_t i = 0; i < sizeof(rapl_tables) / sizeof(rapl_tables[0]); i++)
		if (same12(vendor, rapl_tables[i].vendor))
			t = &rapl_tables[i];
	if (!t) {
		s->why = "no RAPL MSRs known for this CPU vendor";
		return;
	}
	if (t->unit_msr == MSR_AMD_RAPL_POWER_UNIT) {
		struct hw_cpuid r;
		if (cpuid_reg(hw, CPUID_APM, &r) || !(r.edx & CPUID_APM_EDX_RAPL)) {
			s->why = "CPUID Fn8000_0007_EDX[14] RAPL is 0";
			return;
		}
	}
	if (hw_rdmsr(hw, t->unit_msr, &unit) != HW_OK) {
		s->why = "the RAPL power-unit MSR read faulted (not implemented here)";
		return;
	}
	if (!unit) {
		s->why = "the RAPL power-unit MSR reads 0 (not implemented: a hypervisor or emulator)";
		return;
	}
	s->esu = (uint32_t)((unit >> RAPL_UNIT_ESU_SHIFT) & RAPL_UNIT_ESU_MASK);
	int any = 0;
	for (int i = 0; i < ENERGY_MAX_DOMAINS; i++) {
		struct energy_domain *d = &s->d[s->n++];
		uint64_t raw = 0;
		d->name = t->d[i].name;
		d->msr = t->d[i].msr;
		if (hw_rdmsr(hw, d->msr, &raw) != HW_OK)
			d->why = "its energy-status MSR read faulted";
		d->raw = (uint32_t)(raw & RAPL_ENERGY_MASK);
		any |= !d->why;
	}
	if (!any)
		s->why = "no energy-status MSR could be read";
}

/* ---- frequency and thermal ------------------------------------------------------------------ */

void freq_snapshot(const struct hw *hw, struct freq_snap *s)
{
	struct hw_cpuid r;
	*s = (struct freq_snap){ 0 };
	s->why = cpuid_reg(hw, CPUID_THERMAL_POWER, &r);
	if (s->why) {
		if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK)
			s->why = "APERF/MPERF are x86 MSRs; the Arm AMU counters are not read";
		return;
	}
	if (!(r.ecx & CPUID_6_ECX_APERFMPERF))
		s->why = "CPUID.06H:ECX[0] is 0: no IA32_APERF/IA32_MPERF";
	else if (hw_rdmsr(hw, IA32_MPERF, &s->mperf) != HW_OK || hw_rdmsr(hw, IA32_APERF, &s->aperf) != HW_OK)
		s->why = "IA32_MPERF/IA32_APERF read faulted";
}

uint64_t freq_ratio_milli(const struct freq_snap *a, const struct freq_snap *b)
{
	uint64_t da = b->aperf - a->aperf, dm = b->mperf - a->mperf;
	return dm ? (uint64_t)((unsigned __int128)da * 1000u / dm) : 0;
}

void therm_snapshot(const struct hw *hw, struct therm_snap *s)
{
	struct hw_cpuid r;
	*s = (struct therm_snap){ 0 };
	s->why = cpuid_reg(hw, CPUID_THERMAL_POWER, &r);
	if (s->why) {
		if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK)
			s->why = "no architectural thermal-status register on this CPU architecture";
		s->pkg_why = s->why;
		return;
	}
	if (!(r.eax & CPUID_6_EAX_DTS))
		s->why = "CPUID.06H:EAX[0] is 0: no IA32_THERM_STATUS";
	else if (hw_rdmsr(hw, IA32_THERM_STATUS, &s->core) != HW_OK)
		s->why = "IA32_THERM_STATUS read faulted";
	if (!(r.eax & CPUID_6_EAX_PTM))
		s->pkg_why = "CPUID.06H:EAX[6] is 0: no IA32_PACKAGE_THERM_STATUS";
	else if (hw_rdmsr(hw, IA32_PACKAGE_THERM_STATUS, &s->pkg) != HW_OK)
		s->pkg_why = "IA32_PACKAGE_THERM_STATUS read faulted";
}

static int throttled1(uint64_t a, uint64_t b)
{
	return (b & THERM_STATUS) || ((b & THERM_STATUS_LOG) && !(a & THERM_STATUS_LOG));
}

int therm_throttled(const struct therm_snap *a, const struct therm_snap *b)
{
	return (!a->why && !b->why && throttled1(a->core, b->core)) ||
	       (!a->pkg_why && !b->pkg_why && throttled1(a->pkg, b->pkg));
}
