/* SPDX-License-Identifier: BSD-2-Clause */
/* Neoverse TopDown level 1 (pmu/core/arm_topdown.h for the formulas and their sources). */
#include "pmu/core/arm_topdown.h"
#include "arch/lib/fmt.h"

const char *const arm_td_input_name[ATD_NINPUT] = {
	"CPU_CYCLES", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT", "OP_RETIRED", "OP_SPEC",
	"BR_MIS_PRED",
};
const char *const arm_td_item_name[ATD_NITEM] = { "frontend_bound", "backend_bound", "retiring", "bad_speculation" };

#define B(i) (1u << (i))
/* The inputs each item needs. */
static const uint32_t needs[ATD_NITEM] = {
	[ATD_FRONTEND] = B(ATD_CPU_CYCLES) | B(ATD_STALL_SLOT_FRONTEND) | B(ATD_BR_MIS_PRED),
	[ATD_BACKEND] = B(ATD_CPU_CYCLES) | B(ATD_STALL_SLOT_BACKEND) | B(ATD_BR_MIS_PRED),
	[ATD_RETIRING] = B(ATD_CPU_CYCLES) | B(ATD_STALL_SLOT) | B(ATD_OP_RETIRED) | B(ATD_OP_SPEC),
	[ATD_BAD_SPEC] = B(ATD_CPU_CYCLES) | B(ATD_STALL_SLOT) | B(ATD_OP_RETIRED) | B(ATD_OP_SPEC) | B(ATD_BR_MIS_PRED),
};

#define MILLI_PCT 100000   /* 100 % in 1/1000 % */

typedef __int128 i128;

static int64_t div_round(i128 num, i128 den)
{
	i128 q = (num >= 0 ? num + den / 2 : num - den / 2) / den;
	return (int64_t)q;
}

void arm_topdown(const struct arm_td_in *in, struct arm_td_out *out)
{
	*out = (struct arm_td_out){ 0 };
	const uint64_t *c = in->count;
	for (int k = 0; k < ATD_NITEM; k++) {
		char *w = out->why[k];
		size_t n = sizeof(out->why[k]), len = 0;
		if (!in->slots)
			len += (size_t)fmt_snprintf(w + len, n - len, "%s", in->slots_why ? in->slots_why : "PMMIR_EL1.SLOTS 0");
		for (int i = 0; i < ATD_NINPUT; i++)
			if ((needs[k] & B(i)) && !(in->have & B(i)) && len < n)
				len += (size_t)fmt_snprintf(w + len, n - len, "%s%s absent", len ? "; " : "", arm_td_input_name[i]);
		if (len)
			continue;
		if (!c[ATD_CPU_CYCLES] || ((needs[k] & B(ATD_OP_SPEC)) && !c[ATD_OP_SPEC])) {
			fmt_snprintf(w, n, "%s counted 0", !c[ATD_CPU_CYCLES] ? "CPU_CYCLES" : "OP_SPEC");
			continue;
		}
		i128 cs = (i128)c[ATD_CPU_CYCLES] * in->slots, bmp = c[ATD_BR_MIS_PRED], os = c[ATD_OP_SPEC];
		i128 ore = c[ATD_OP_RETIRED], notstall = cs - (i128)c[ATD_STALL_SLOT];
		int64_t v = 0;
		switch (k) {
		case ATD_FRONTEND:
			v = div_round(MILLI_PCT * ((i128)c[ATD_STALL_SLOT_FRONTEND] - bmp * in->slots), cs);
			break;
		case ATD_BACKEND:
			v = div_round(MILLI_PCT * ((i128)c[ATD_STALL_SLOT_BACKEND] - 3 * bmp * in->slots), cs);
			break;
		case ATD_RETIRING:
			v = div_round(MILLI_PCT * ore * notstall, os * cs);
			break;
		case ATD_BAD_SPEC:
			v = div_round(MILLI_PCT * ((os - ore) * notstall + 4 * bmp * in->slots * os), os * cs);
			break;
		}
		out->valid[k] = 1;
		out->milli_pct[k] = v;
	}
}
