/* SPDX-License-Identifier: BSD-2-Clause */
/* Neoverse TopDown level 1 (pmu/core/arm_topdown.h for the formulas and their sources). */
#include "pmu/core/arm_topdown.h"
#include "arch/lib/fmt.h"
#include "arch/regs/arm_sysreg.h"

const char *const arm_td_input_name[ATD_NINPUT] = {
	"CPU_CYCLES", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT", "OP_RETIRED", "OP_SPEC",
	"BR_MIS_PRED", "STALL_FRONTEND_FLUSH",
};
const char *const arm_td_item_name[ATD_NITEM] = { "frontend_bound", "backend_bound", "retiring", "bad_speculation" };

#define MIDR_IMPL_ARM 0x41   /* MIDR_EL1.Implementer 0x41: Arm Limited (Arm ARM D23.2 MIDR_EL1) */
#define TS "Arm Telemetry Solution data/pmu/cpu/neoverse/"   /* github.com/ARM-software/telemetry-solution, commit 5898629 */

#define BMP ATD_BR_MIS_PRED
#define SFF ATD_STALL_FRONTEND_FLUSH

/* PartNum, num_slots and formulas from each JSON's product_configuration and metrics. N3 and V3
 * (neoverse-n3.json, neoverse-v3.json, both "sha1" 6687b72 of the specification):
 *   frontend_bound  "(STALL_SLOT_FRONTEND / (S * CPU_CYCLES) - STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100"
 *   backend_bound   "STALL_SLOT_BACKEND / (S * CPU_CYCLES) * 100"
 *   retiring        "(1 - STALL_SLOT / (CPU_CYCLES * S)) * (OP_RETIRED / OP_SPEC) * 100"
 *   bad_speculation "(1 - STALL_SLOT / (S * CPU_CYCLES)) * (1 - OP_RETIRED / OP_SPEC) * 100
 *                    + STALL_FRONTEND_FLUSH / CPU_CYCLES * 100"
 * with S = 5 (N3) and 10 (V3), their num_slots; Linux tools/perf/pmu-events/arch/arm64/arm/
 * neoverse-{n3,v3}/metrics.json carry the same frontend_bound and bad_speculation. */
const struct arm_td_formula arm_td_formulas[] = {
	{ "Neoverse N1", 0xd0c, 0x00, 0xff, 5, 0, 0, 0, 0, BMP,
	  "Neoverse N1 has no TopDown L1 (no STALL_SLOT events; its telemetry specification uses cycle accounting)",
	  TS "neoverse-n1.json" },
	{ "Neoverse N2 r0p0-r0p2", 0xd49, 0x00, 0x02, 5, 1, 1, 3, 4, BMP, NULL, TS "neoverse-n2.json (r0p0-r0p2)" },
	{ "Neoverse N2 r0p3+", 0xd49, 0x03, 0xff, 5, 0, 1, 3, 4, BMP, NULL, TS "neoverse-n2-r0p3.json" },
	{ "Neoverse V1", 0xd40, 0x00, 0xff, 8, 0, 4, 0, 4, BMP, NULL, TS "neoverse-v1.json" },
	{ "Neoverse V2", 0xd4f, 0x00, 0xff, 8, 0, 1, 3, 4, BMP, NULL, TS "neoverse-v2.json" },
	{ "Neoverse N3", 0xd8e, 0x00, 0xff, 5, 0, 1, 0, 1, SFF, NULL, TS "neoverse-n3.json" },
	{ "Neoverse V3", 0xd84, 0x00, 0xff, 10, 0, 1, 0, 1, SFF, NULL, TS "neoverse-v3.json" },
};
const unsigned arm_td_nformulas = sizeof(arm_td_formulas) / sizeof(arm_td_formulas[0]);

/* A core not in the table: the Arm SBSA 7.0 platform design document's TopDown L1 (D37-38),
 * which Linux carries as tools/perf/pmu-events/arch/arm64/sbsa.json. */
static const struct arm_td_formula generic = { "generic (Arm SBSA)", 0, 0, 0xff, 0, 0, 0, 0, 0, BMP, NULL,
					       "Arm SBSA 7.0 platform design document D37-38 (Linux tools/perf/pmu-events/arch/arm64/sbsa.json)" };

const struct arm_td_formula *arm_td_formula_for(uint32_t midr)
{
	uint32_t impl = (midr >> MIDR_EL1_IMPLEMENTER_SHIFT) & MIDR_EL1_IMPLEMENTER_MASK;
	uint32_t part = (midr >> MIDR_EL1_PARTNUM_SHIFT) & MIDR_EL1_PARTNUM_MASK;
	uint32_t rv = ((midr >> MIDR_EL1_VARIANT_SHIFT) & MIDR_EL1_VARIANT_MASK) << 4 |
		      ((midr >> MIDR_EL1_REVISION_SHIFT) & MIDR_EL1_REVISION_MASK);
	for (unsigned i = 0; impl == MIDR_IMPL_ARM && i < arm_td_nformulas; i++)
		if (arm_td_formulas[i].part == part && rv >= arm_td_formulas[i].rv_lo && rv <= arm_td_formulas[i].rv_hi)
			return &arm_td_formulas[i];
	return &generic;
}

#define B(i) (1u << (i))
/* The inputs each item needs (X only where its coefficient is not 0). */
static uint32_t needs(const struct arm_td_formula *f, int k)
{
	uint32_t m = B(ATD_CPU_CYCLES);
	switch (k) {
	case ATD_FRONTEND: return m | B(ATD_STALL_SLOT_FRONTEND) | (f->fe ? B(f->x) : 0);
	case ATD_BACKEND: return m | B(ATD_STALL_SLOT_BACKEND) | (f->be ? B(f->x) : 0);
	case ATD_RETIRING: return m | B(ATD_STALL_SLOT) | B(ATD_OP_RETIRED) | B(ATD_OP_SPEC);
	default: return m | B(ATD_STALL_SLOT) | B(ATD_OP_RETIRED) | B(ATD_OP_SPEC) | (f->bs ? B(f->x) : 0);
	}
}

uint32_t arm_td_inputs(const struct arm_td_formula *f)
{
	if (!f)
		f = &generic;
	return B(ATD_CPU_CYCLES) | B(ATD_STALL_SLOT_FRONTEND) | B(ATD_STALL_SLOT_BACKEND) | B(ATD_STALL_SLOT) |
	       B(ATD_OP_RETIRED) | B(ATD_OP_SPEC) | B(f->x);
}

#define MILLI_PCT 100000   /* 100 % in 1/1000 % */

typedef __int128 i128;

static int64_t div_round(i128 num, i128 den)
{
	i128 q = (num >= 0 ? num + den / 2 : num - den / 2) / den;
	return (int64_t)q;
}

static void choose_slots(const struct arm_td_in *in, const struct arm_td_formula *f, struct arm_td_out *out)
{
	out->slots = in->slots ? in->slots : f->slots;
	if (in->slots && f->slots && in->slots != f->slots)
		fmt_snprintf(out->slots_source, sizeof(out->slots_source), "PMMIR_EL1.SLOTS (%s num_slots says %u)",
			     f->core, f->slots);
	else if (in->slots)
		fmt_snprintf(out->slots_source, sizeof(out->slots_source), "PMMIR_EL1.SLOTS");
	else if (f->slots)
		fmt_snprintf(out->slots_source, sizeof(out->slots_source), "%s num_slots (%s)", f->core,
			     in->slots_why ? in->slots_why : "PMMIR_EL1.SLOTS 0");
}

void arm_topdown(const struct arm_td_in *in, struct arm_td_out *out)
{
	*out = (struct arm_td_out){ 0 };
	const struct arm_td_formula *f = in->f ? in->f : &generic;
	choose_slots(in, f, out);
	const uint64_t *c = in->count;
	i128 S = out->slots;
	for (int k = 0; k < ATD_NITEM; k++) {
		char *w = out->why[k];
		size_t n = sizeof(out->why[k]), len = 0;
		if (f->no_l1) {
			fmt_snprintf(w, n, "%s", f->no_l1);
			continue;
		}
		if (!S)
			len += (size_t)fmt_snprintf(w + len, n - len, "%s", in->slots_why ? in->slots_why : "PMMIR_EL1.SLOTS 0");
		for (int i = 0; i < ATD_NINPUT; i++)
			if ((needs(f, k) & B(i)) && !(in->have & B(i)) && len < n)
				len += (size_t)fmt_snprintf(w + len, n - len, "%s%s absent", len ? "; " : "", arm_td_input_name[i]);
		if (len)
			continue;
		if (!c[ATD_CPU_CYCLES] || ((needs(f, k) & B(ATD_OP_SPEC)) && !c[ATD_OP_SPEC])) {
			fmt_snprintf(w, n, "%s counted 0", !c[ATD_CPU_CYCLES] ? "CPU_CYCLES" : "OP_SPEC");
			continue;
		}
		i128 C = c[ATD_CPU_CYCLES], cs = C * S, x = (in->have & B(f->x)) ? c[f->x] : 0;
		i128 os = c[ATD_OP_SPEC], ore = c[ATD_OP_RETIRED], kc = f->k * C;
		i128 notstall = cs - ((i128)c[ATD_STALL_SLOT] - kc);
		int64_t v = 0;
		switch (k) {
		case ATD_FRONTEND:
			v = div_round(MILLI_PCT * ((i128)c[ATD_STALL_SLOT_FRONTEND] - kc - f->fe * x * S), cs);
			break;
		case ATD_BACKEND:
			v = div_round(MILLI_PCT * ((i128)c[ATD_STALL_SLOT_BACKEND] - f->be * x * S), cs);
			break;
		case ATD_RETIRING:
			v = div_round(MILLI_PCT * ore * notstall, os * cs);
			break;
		case ATD_BAD_SPEC:
			v = div_round(MILLI_PCT * ((os - ore) * notstall + f->bs * x * S * os), os * cs);
			break;
		}
		out->valid[k] = 1;
		out->milli_pct[k] = v;
	}
}
