/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core PMU: the backend chooser and the window entry points (pmu/x86_corepmu.h).
 * Choices are data: the backend by vendor and family, the event generation and the TopDown
 * method by family-6 model lists (Linux arch/x86/include/asm/intel-family.h numbers) and the
 * feature each row needs. The first row that matches wins.
 */
#include "pmu/core/x86_corepmu.h"
#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/lib/fmt.h"
#include <stdarg.h>
#include <string.h>

/* Backend by vendor, family and model range; named-event generation of AMD parts (libpfm4's
 * amd64_fam17h_zen1 table serves Family 17h models 00h-2Fh, zen2 from 30h: lib/pfmlib_amd64.c;
 * Family 1Ah: Zen 5 where Linux's two sources agree, tools/perf/pmu-events/arch/x86/mapfile.csv
 * (AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]]) amdzen5, every other model amdzen6 since
 * commit 2c3cd43d27c1) and arch/x86/kernel/cpu/amd.c bsp_init_amd (X86_FEATURE_ZEN5 00h-2Fh,
 * 40h-4Fh, 60h-7Fh; X86_FEATURE_ZEN6 50h-5Fh, 80h-AFh, C0h-CFh). `none` says why a row has no
 * named events. */
/* Zen 6 (Linux amd.c X86_FEATURE_ZEN6): Linux perf's amdzen6 core files are not yet compared with
 * efiperf's table and Zen 5's encodings are not assumed to hold */
#define AMD_ZEN6_NONE "Zen 6: amdzen6 events not yet compared, raw cpu/event=.../ only"

static const struct corepmu_row {
	const char *vendor;
	uint32_t fam_lo, fam_hi, mod_lo, mod_hi;
	uint8_t backend;
	uint16_t gens;
	const char *name;
	const char *none;         /* gens 0 on a Zen-era family: why no named-event table */
} corepmu_rows[] = {
	{ "GenuineIntel", 0x06, 0x06, 0x00, 0xFF, CP_INTEL_ARCH, X86_GEN_ARCH, "intel-arch-perfmon", NULL },
	{ "GenuineIntel", 0x0F, 0xFF, 0x00, 0xFF, CP_INTEL_ARCH, X86_GEN_ARCH, "intel-arch-perfmon", NULL },
	{ "AuthenticAMD", 0x17, 0x17, 0x00, 0x2F, CP_AMD_CORE, X86_GEN_ZEN1, "amd-core", NULL },   /* Zen, Zen+ */
	{ "AuthenticAMD", 0x17, 0x17, 0x30, 0xFF, CP_AMD_CORE, X86_GEN_ZEN, "amd-core", NULL },    /* Zen 2 */
	/* Zen 4: the Family 19h models mapfile.csv gives amdzen4 (regex AuthenticAMD-25-[[:xdigit:]]+
	 * after the amdzen3 row AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]]): 10h-1Fh, 30h-3Fh,
	 * 60h-FFh) add X86_GEN_ZEN4, except 30h-3Fh: Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd:
	 * X86_FEATURE_ZEN3 for 20h-5Fh) and libpfm4 lib/pfmlib_amd64.c (amd64_get_revision: Zen 4 is
	 * 10h-1Fh and 60h+) both call those Zen 3, so they keep the Zen 2-4 events only, as the AMD
	 * uncore tables leave them out (tests/unit/test_amd_pipeline.c checks every model) */
	{ "AuthenticAMD", 0x19, 0x19, 0x10, 0x1F, CP_AMD_CORE, X86_GEN_ZEN | X86_GEN_ZEN4, "amd-core", NULL },
	{ "AuthenticAMD", 0x19, 0x19, 0x60, 0xFF, CP_AMD_CORE, X86_GEN_ZEN | X86_GEN_ZEN4, "amd-core", NULL },
	{ "AuthenticAMD", 0x19, 0x19, 0x00, 0xFF, CP_AMD_CORE, X86_GEN_ZEN, "amd-core", NULL },    /* Zen 3 */
	/* Zen 5: rows checked against Linux amdzen5/execution.json and load-store.json (libpfm4 4.13
	 * has no Family 1Ah table; tests/unit/test_core_linux_zen5.c) */
	{ "AuthenticAMD", 0x1A, 0x1A, 0x00, 0x2F, CP_AMD_CORE, X86_GEN_ZEN5, "amd-core", NULL },
	{ "AuthenticAMD", 0x1A, 0x1A, 0x40, 0x4F, CP_AMD_CORE, X86_GEN_ZEN5, "amd-core", NULL },
	{ "AuthenticAMD", 0x1A, 0x1A, 0x60, 0x7F, CP_AMD_CORE, X86_GEN_ZEN5, "amd-core", NULL },
	{ "AuthenticAMD", 0x1A, 0x1A, 0x50, 0x5F, CP_AMD_CORE, 0, "amd-core", AMD_ZEN6_NONE },
	{ "AuthenticAMD", 0x1A, 0x1A, 0x80, 0xAF, CP_AMD_CORE, 0, "amd-core", AMD_ZEN6_NONE },
	{ "AuthenticAMD", 0x1A, 0x1A, 0xC0, 0xCF, CP_AMD_CORE, 0, "amd-core", AMD_ZEN6_NONE },
	{ "AuthenticAMD", 0x1A, 0x1A, 0x00, 0xFF, CP_AMD_CORE, 0, "amd-core",
	  "not in Linux amd.c's Zen 5/Zen 6 ranges" },
	{ "AuthenticAMD", 0x0F, 0x16, 0x00, 0xFF, CP_AMD_CORE, 0, "amd-core", NULL },             /* K8 .. Fam16h */
	/* Hygon Dhyana (Zen-based: Linux arch/x86/events/core.c gives X86_VENDOR_HYGON amd_pmu_init).
	 * Why the Zen 1 table without an oracle of its own: no public event list serves Hygon -
	 * libpfm4 detects AuthenticAMD only (lib/pfmlib_amd64.c pfm_amd64_detect) and Linux
	 * tools/perf/pmu-events/arch/x86/mapfile.csv has no HygonGenuine row. The rows are the Zen 1
	 * rows libpfm4's amd64_fam17h_zen1 checks (tests/unit/test_core_pfm.c). */
	{ "HygonGenuine", 0x18, 0x18, 0x00, 0xFF, CP_AMD_CORE, X86_GEN_ZEN1, "amd-core", NULL },
};

static const struct corepmu_row *backend_row(const char *vendor, uint32_t family, uint32_t model)
{
	for (unsigned i = 0; i < sizeof(corepmu_rows) / sizeof(corepmu_rows[0]); i++) {
		const struct corepmu_row *b = &corepmu_rows[i];
		if (!strcmp(b->vendor, vendor) && family >= b->fam_lo && family <= b->fam_hi && model >= b->mod_lo &&
		    model <= b->mod_hi)
			return b;
	}
	return NULL;
}

uint16_t corepmu_x86_gens(const char *vendor, uint32_t family, uint32_t model)
{
	const struct corepmu_row *b = backend_row(vendor, family, model);
	return b ? b->gens : 0;
}

/* Family 6 model lists (Linux arch/x86/include/asm/intel-family.h numbers; the perfmon
 * mapfile.csv of github.com/intel/perfmon maps the same numbers to the event files the unit
 * tests check every generation against). */
static const uint8_t snb_models[] = { 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56 };
static const uint8_t skl_models[] = { 0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5, 0xA6 };
static const uint8_t icl_models[] = { 0x7D, 0x7E, 0x6A, 0x6C, 0x8C, 0x8D, 0xA7 };
/* Sapphire Rapids, Emerald Rapids, Granite Rapids (-D): TopDown level 2 (Linux
 * arch/x86/events/intel/core.c: spr and later add the level-2 metrics) */
static const uint8_t spr_models[] = { 0x8F, 0xCF, 0xAD, 0xAE };
/* Alder Lake, Raptor Lake (hybrid): PERF_CAPABILITIES[15] is not reliable, P-cores have the
 * metrics (Linux arch/x86/events/intel/core.c, adl setup) */
static const uint8_t hybrid_models[] = { 0x97, 0x9A, 0xB7, 0xBA, 0xBF };
/* Meteor Lake (hybrid, Redwood Cove P-cores). Its events are Golden Cove's; its TopDown is not in
 * td_rows: level 1 by IA32_PERF_CAPABILITIES[15] alone, where Linux (arch/x86/events/intel/core.c,
 * intel_pmu_init_glc) gives its P-cores level 2 - no level-2 window has been checked on it
 * (tests/unit/test_topdown_oracle.c prints the difference). */
static const uint8_t mtl_models[] = { 0xAA, 0xAC };
/* Sierra Forest (Crestmont) and Clearwater Forest (Darkmont): E-core-only servers, each its own
 * encodings (Intel perfmon SRF/events/sierraforest_core.json 1.18, CWF/events/
 * clearwaterforest_core.json 1.04: TOPDOWN_BE_BOUND.ALL is 0x74/0x00 on one, 0xA4/0x02 on the
 * other). No IA32_PERF_CAPABILITIES[15] PERF_METRICS on either. */
static const uint8_t srf_models[] = { 0xAF };
static const uint8_t cwf_models[] = { 0xDD };

#define LIST(a) a, sizeof(a)

/* Model-specific event table of a model. pcore: on a hybrid part, only its P-cores (the
 * E-cores are another microarchitecture with other encodings: they get the architectural
 * events alone). */
static const struct gen_row { const uint8_t *models; uint8_t n; uint16_t gen; uint8_t pcore; } gen_rows[] = {
	{ LIST(snb_models), X86_GEN_SNB, 0 }, { LIST(skl_models), X86_GEN_SKL, 0 },
	{ LIST(icl_models), X86_GEN_ICL, 0 }, { LIST(spr_models), X86_GEN_GLC, 0 },
	{ LIST(hybrid_models), X86_GEN_GLC, 1 }, { LIST(mtl_models), X86_GEN_GLC, 1 },
	{ LIST(srf_models), X86_GEN_CMT, 0 }, { LIST(cwf_models), X86_GEN_DKT, 0 },
};

/* Models where no TopDown method of efiperf's applies, and the method that does: Intel perfmon
 * E-core_TMA_Metrics.csv (CMT column: #SLOTS = 6 x CPU_CLK_UNHALTED.CORE) for Crestmont;
 * clearwaterforest_core.json's TOPDOWN_{BAD_SPECULATION,FE_BOUND,RETIRING}.ALL on fixed counters
 * 4-6 for Darkmont, whose width that CSV does not give. */
static const struct td_none_row { const uint8_t *models; uint8_t n; const char *why; } td_none_rows[] = {
	{ LIST(srf_models), "TopDown: Crestmont has no PERF_METRICS; E-core L1 = TOPDOWN_*.ALL / 6 x "
	  "CPU_CLK_UNHALTED.CORE, not computed" },
	{ LIST(cwf_models), "TopDown: Darkmont has no PERF_METRICS; E-core L1 = fixed counters 4-6 + "
	  "TOPDOWN_BE_BOUND.ALL, not computed" },
};

enum td_need { TDN_METRICS_BIT, TDN_PCORE, TDN_NOTHING };
static const struct td_row {
	const uint8_t *models; uint8_t n;   /* NULL: any family-6 model */
	uint8_t need, kind, level2;
	const char *rule;
} td_rows[] = {
	{ LIST(spr_models), TDN_METRICS_BIT, TD_METRICS, 1, "IA32_PERF_CAPABILITIES[15], level 2 (Sapphire Rapids+)" },
	{ LIST(hybrid_models), TDN_PCORE, TD_METRICS, 1, "hybrid P-core (PERF_CAPABILITIES[15] unreliable), level 2" },
	{ NULL, 0, TDN_METRICS_BIT, TD_METRICS, 0, "IA32_PERF_CAPABILITIES[15]" },
	{ LIST(skl_models), TDN_NOTHING, TD_GP_SKL, 0, "Skylake..Comet Lake: general counters" },
	{ LIST(snb_models), TDN_NOTHING, TD_GP_SNB, 0, "Sandy Bridge..Broadwell: general counters" },
};

static int in_list(const uint8_t *l, unsigned n, uint32_t model)
{
	if (!l)
		return 1;
	for (unsigned i = 0; i < n; i++)
		if (l[i] == model)
			return 1;
	return 0;
}

static void lack(struct corepmu *cp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lack(struct corepmu *cp, const char *fmt, ...)
{
	if (cp->nlacks >= CP_MAX_LACKS)
		return;
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(cp->lacks[cp->nlacks++], CP_LACK_LEN, fmt, ap);
	va_end(ap);
}

static void identify(const struct hw *hw, struct corepmu *cp)
{
	struct hw_cpuid r;
	if (hw_cpuid(hw, CPUID_SIGNATURE, 0, &r) == HW_OK) {
		/* SDM Vol.2A CPUID "Family and Model" */
		uint32_t fam = (r.eax >> 8) & 0xF, mod = (r.eax >> 4) & 0xF;
		cp->family = fam == 0xF ? fam + ((r.eax >> 20) & 0xFF) : fam;
		cp->model = fam == 0x6 || fam == 0xF ? (((r.eax >> 16) & 0xF) << 4) | mod : mod;
		cp->stepping = r.eax & 0xF;
	}
	if (cp->max_leaf >= CPUID_EXT_TOPOLOGY && hw_cpuid(hw, CPUID_EXT_TOPOLOGY, 0, &r) == HW_OK &&
	    ((r.ecx >> 8) & 0xFF) == CPUID_TOPO_LEVEL_SMT)
		cp->smt = (r.ebx & 0xFFFF) > 1;
	if (cp->max_leaf >= CPUID_EXT_FEATURES && hw_cpuid(hw, CPUID_EXT_FEATURES, 0, &r) == HW_OK)
		cp->hybrid = !!(r.edx & CPUID_7_EDX_HYBRID);
	cp->pcore = 1;
	if (cp->hybrid && cp->max_leaf >= CPUID_HYBRID && hw_cpuid(hw, CPUID_HYBRID, 0, &r) == HW_OK)
		cp->pcore = (r.eax >> 24) == CPUID_1A_CORE_TYPE_CORE;
}

static void probe_intel(const struct hw *hw, struct corepmu *cp)
{
	struct intel_core *ic = &cp->ic;
	intel_core_probe(hw, ic);
	cp->caps.any_ok = ic->any_ok;
	cp->caps.arch_len = (uint8_t)ic->arch_len;
	cp->caps.arch_unavail = ic->arch_unavail;
	if (!ic->version)
		lack(cp, "architectural perfmon: CPUID.0AH:EAX[7:0] version 0");
	else if (ic->version < 2)
		lack(cp, "fixed counters: perfmon version 1");
	if (!ic->pdcm)
		lack(cp, "IA32_PERF_CAPABILITIES: CPUID.1:ECX[15] PDCM = 0");
	else if (ic->perf_cap_st != HW_OK)
		lack(cp, "IA32_PERF_CAPABILITIES: rdmsr %s", hw_status_name(ic->perf_cap_st));
	const uint8_t have[] = { [TDN_METRICS_BIT] = ic->metrics_cap, [TDN_PCORE] = cp->pcore, [TDN_NOTHING] = 1 };
	for (unsigned i = 0; cp->family == 6 && i < sizeof(td_rows) / sizeof(td_rows[0]); i++) {
		const struct td_row *t = &td_rows[i];
		if (in_list(t->models, t->n, cp->model) && have[t->need]) {
			cp->td_kind = t->kind;
			cp->td_level2 = t->level2;
			cp->td_rule = t->rule;
			break;
		}
	}
	if (!cp->td_rule) {
		const char *none = NULL;
		for (unsigned i = 0; cp->family == 6 && i < sizeof(td_none_rows) / sizeof(td_none_rows[0]); i++)
			if (in_list(td_none_rows[i].models, td_none_rows[i].n, cp->model))
				none = td_none_rows[i].why;
		if (none)
			fmt_snprintf(cp->td_why, CP_LACK_LEN, "%s", none);
		else
			fmt_snprintf(cp->td_why, CP_LACK_LEN, "TopDown: IA32_PERF_CAPABILITIES[15] %s, family %u model 0x%x not a pre-Ice-Lake model",
				     ic->perf_cap_st == HW_OK ? "= 0" : "unreadable", cp->family, cp->model);
		lack(cp, "%s", cp->td_why);
	}
	if (cp->family == 6)
		cp->caps.gens |= corepmu_intel_gens(cp->model, cp->hybrid && !cp->pcore);
	if (cp->family == 6 && ic->version && cp->caps.gens == X86_GEN_ARCH)
		lack(cp, "model-specific events: no table for family 6 model 0x%x%s (architectural events only)",
		     cp->model, cp->hybrid && !cp->pcore ? " E-core" : "");
}

uint16_t corepmu_intel_gens(uint32_t model, int ecore)
{
	uint16_t g = 0;
	for (unsigned i = 0; i < sizeof(gen_rows) / sizeof(gen_rows[0]); i++)
		if (in_list(gen_rows[i].models, gen_rows[i].n, model) && !(ecore && gen_rows[i].pcore))
			g |= gen_rows[i].gen;
	return g;
}

static void probe_amd(const struct hw *hw, struct corepmu *cp)
{
	amd_core_probe(hw, &cp->ac);
	amd_ibs_probe(hw, &cp->ibs, cp->family, cp->model);
	if (!cp->ac.perfctr_core)
		lack(cp, "PerfCtrExtCore: CPUID 8000_0001:ECX[23] = 0, %u legacy counters", cp->ac.ncounters);
	if (!cp->ac.v2)
		lack(cp, "PerfMonV2: CPUID 8000_0022:EAX[0] = 0");
	if (!cp->ibs.present)
		lack(cp, "%s", cp->ibs.why);
	const struct corepmu_row *b = backend_row(cp->vendor, cp->family, cp->model);
	if (b && b->none)
		lack(cp, "model-specific events: family 0x%x model 0x%x: %s", cp->family, cp->model, b->none);
	cp->apl_gen = amd_pipeline_for(cp->caps.gens);
	if (cp->apl_gen) {
		cp->td_rule = cp->apl_gen->source;
		cp->td_level2 = 1;   /* every row has PipelineL2: level 2 with topdown = l2 */
	} else if (b && b->none)
		fmt_snprintf(cp->td_why, CP_LACK_LEN, "AMD pipeline utilization: Zen 4/5 only; family 0x%x model 0x%x has no "
			     "compared event table", cp->family, cp->model);
	else
		fmt_snprintf(cp->td_why, CP_LACK_LEN, "%s; family 0x%x model 0x%x", amd_pipeline_no_row, cp->family,
			     cp->model);
}

int corepmu_probe(const struct hw *hw, struct corepmu *cp)
{
	struct hw_cpuid r;
	memset(cp, 0, sizeof(*cp));
	if (hw_cpuid(hw, CPUID_VENDOR_MAXLEAF, 0, &r) != HW_OK || !(r.ebx | r.ecx | r.edx)) {
		lack(cp, "CPUID: not an x86 CPU");
		return -1;
	}
	cp->max_leaf = r.eax;
	memcpy(cp->vendor, &r.ebx, 4);
	memcpy(cp->vendor + 4, &r.edx, 4);
	memcpy(cp->vendor + 8, &r.ecx, 4);
	identify(hw, cp);
	const struct corepmu_row *b = backend_row(cp->vendor, cp->family, cp->model);
	if (b) {
		cp->backend = b->backend;
		cp->backend_name = b->name;
		cp->caps.gens = b->gens;
	}
	cp->caps.vendor = cp->backend == CP_AMD_CORE ? X86_EV_AMD : X86_EV_INTEL;
	if (cp->backend == CP_INTEL_ARCH)
		probe_intel(hw, cp);
	else if (cp->backend == CP_AMD_CORE)
		probe_amd(hw, cp);
	else {
		lack(cp, "core PMU: no backend for %s family 0x%x", cp->vendor, cp->family);
		return -1;
	}
	return 0;
}
