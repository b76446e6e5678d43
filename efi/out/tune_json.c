/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/out/tune_json.h"
#include "pmu/metrics.h"

void tune_json(struct json *j, const char *key, const struct kernel_tune *t, uint32_t class_id, uint32_t cpu,
	       uint64_t hz)
{
	json_obj(j, key);
	json_hex(j, "class", class_id);
	json_u64(j, "cpu", cpu);
	json_str(j, "choice", t->choice >= 0 ? t->cand[t->choice].k->name : NULL);
	json_u64(j, "probe_bytes", t->probe_bytes);
	json_u64(j, "slices", t->slices > 1 ? t->slices : 1);
	json_u64(j, "reps", t->reps > 1 ? t->reps : 1);
	json_u64(j, "budget_ns", metric_ticks_to_ns(t->budget_ticks, hz));
	json_u64(j, "spent_ns", metric_ticks_to_ns(t->spent_ticks, hz));
	json_arr(j, "candidates");
	for (uint32_t i = 0; i < t->ncand; i++) {
		const struct kernel_tune_cand *c = &t->cand[i];
		json_obj(j, NULL);
		json_str(j, "kernel", c->k->name);
		json_bool(j, "verified", c->verified);
		json_u64(j, "passes", c->passes);
		if (c->passes)
			json_u64(j, "mbps", kernel_tune_mbps(c, hz));
		else
			json_null(j, "mbps");
		json_close(j);
	}
	json_close(j);
	json_close(j);
}
