/* SPDX-License-Identifier: BSD-2-Clause */
/* The copy measurement's record writer (efi/out/copy_out.h). */
#include <efi.h>
#include "efi/out/copy_out.h"
#include "efi/out/health_json.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/out/pmu_json.h"
#include "efi/out/window_json.h"
#include "pmu/core/arm_topdown.h"
#include "pmu/core/core_mux.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"

/* The items' why when not every TopDown item has a value. */
static const char *td_why(const struct arm_td_in *in, const struct arm_td_out *o)
{
	if (in->f->no_l1)
		return in->f->no_l1;
	return !o->slots ? "slots per cycle unknown: no item can be computed"
			 : "an input event was not counted: each item says which";
}

static void td_counts_json(struct json *j, const struct arm_td_in *in, const struct arm_td_out *o)
{
	json_obj(j, "counts");
	for (int k = 0; k < ATD_NINPUT; k++)
		if (in->have & (1u << k))
			json_u64(j, arm_td_input_name[k], in->count[k]);
		else
			json_null(j, arm_td_input_name[k]);
	json_close(j);
	for (int k = 0; k < ATD_NITEM; k++)
		td_item_json(j, arm_td_item_name[k], o->valid[k], o->milli_pct[k], o->why[k]);
}

/* Arm PMUv3 with topdown = on: the Neoverse TopDown L1 record of the boot CPU's counters in this
 * pass, each item a value or why it is absent (pmu/core/arm_topdown.h). Multiplexed, the counts
 * are the scaled ones and input_groups says how many groups the inputs came from. */
static void arm_topdown_record(const struct core_set *s, const struct copy_core_out *co, uint32_t pass)
{
	struct arm_td_in in = { .slots = s->slots, .slots_why = s->slots_why[0] ? s->slots_why : NULL,
				.f = arm_td_formula_for(s->midr) };
	uint32_t groups = core_mux_topdown_in(s, &in);   /* multiplexed: the scaled counts */
	struct arm_td_out o;
	arm_topdown(&in, &o);
	struct json *j = rep_begin("topdown");
	json_str(j, "kernel", "copy");
	json_u64(j, "pass", pass);
	json_u64(j, "cpu", co->bsp);
	json_str(j, "pmu", "armv8_pmuv3");
	json_str(j, "method", "Neoverse TopDown L1 (Arm Telemetry Solution)");
	json_str(j, "formula", in.f->core);
	json_str(j, "formula_source", in.f->source);
	if (co->topdown_l2)   /* topdown = l2 (pmu/core/amd_pipeline.h's level 2 is AMD's) */
		json_str(j, "level2_why", "Arm: Neoverse TopDown level 1 only; topdown = l2 counts as on");
	int valid = 1;   /* every item has a value */
	for (int k = 0; k < ATD_NITEM; k++)
		valid &= o.valid[k];
	json_bool(j, "valid", valid);
	if (!valid)
		json_str(j, "why", td_why(&in, &o));
	if (o.slots) {
		json_u64(j, "slots", o.slots);
		json_str(j, "slots_source", o.slots_source);
	} else {
		json_null(j, "slots");
		json_str(j, "slots_why", in.slots_why ? in.slots_why : "unknown");
	}
	if (s->ngroups > 1) {   /* multiplexed: counts are scaled; across groups a ratio is an estimate */
		json_u64(j, "input_groups", groups);
		if (groups > 1)
			json_str(j, "input_groups_why", "the inputs were counted in different multiplexed groups: "
				 "their ratios come from scaled counts of different windows, less exact than within one group");
	}
	td_counts_json(j, &in, &o);
	rep_end();
}

static void counters_text(const struct core_set *s)
{
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		if (c->state == CTR_COUNTED)
			rep_line("            %-26s %llu %s", c->event, (unsigned long long)c->delta, c->unit);
		else
			rep_once(NULL, "            %-26s %s%s%s", c->event, ctr_state_name(c->state), c->why[0] ? ": " : "", c->why);
	}
}

static void per_cpu_json(struct json *j, const struct copy_request *req, const struct copy_cpu_pass *cp)
{
	json_arr(j, "per_cpu");
	for (int i = 0; i < req->n; i++) {
		json_obj(j, NULL);
		json_u64(j, "cpu", req->cpu[i].cpu);
		json_u64(j, "ns", cp[i].ns);
		json_milli(j, "gbps", cp[i].gbps_milli);
		json_bool(j, "outlier", cp[i].outlier);
		rec_place_json(j, req->cpu[i].node, req->cpu[i].local, req->cpu[i].src);
		json_close(j);
	}
	json_close(j);
}

static void pass_json(struct json *j, const struct copy_request *req, const struct copy_result *res, uint32_t p)
{
	const struct copy_pass *ps = &res->pass[p];
	json_obj(j, NULL);
	json_u64(j, "pass", p);
	json_u64(j, "ticks", ps->w.span_ticks);
	json_u64(j, "ns", ps->ns);
	json_milli(j, "gbps", ps->gbps_milli);
	if (req->windows > 1)
		json_u64(j, "windows", req->windows);   /* ticks, ns and per_cpu are the mean of these windows */
	rec_quiet_json(j, ps->w.masked, ps->w.smi_status, ps->w.smi_delta);
	per_cpu_json(j, req, &res->cpu[(uint64_t)p * (uint64_t)req->n]);
	json_milli(j, "median_cpu_gbps", ps->median_gbps_milli);
	json_u64(j, "outliers", (uint64_t)ps->outliers);
	if (req->core)
		core_set_json(j, &req->core->pass_set[p]);
	json_close(j);
}

/* The console lines of pass p. */
static void pass_text(const struct copy_request *req, const struct copy_result *res, uint32_t p)
{
	const struct copy_pass *ps = &res->pass[p];
	const struct copy_cpu_pass *cp = &res->cpu[(uint64_t)p * (uint64_t)req->n];
	char rate[32], md[32];
	fmt_milli(md, sizeof(md), ps->median_gbps_milli);
	for (int i = 0; i < req->n && req->n > 1; i++)
		if (cp[i].outlier) {
			fmt_milli(rate, sizeof(rate), cp[i].gbps_milli);
			rep_line("            CPU %u: %s GB/s, more than %u%% from the median %s GB/s", req->cpu[i].cpu, rate,
				 MEASURE_OUTLIER_PCT, md);
		}
	fmt_milli(rate, sizeof(rate), ps->gbps_milli);
	rep_line("  pass %u:   %llu ns, %s GB/s over %d CPU(s)", p, (unsigned long long)ps->ns, rate, req->n);
	if (req->core && req->core->mux)
		rep_line("            multiplexed: %u event groups x %u rounds = %u windows (mean above); counts scaled by window / group running time",
			 req->core->ngroups, req->core->rounds, req->windows);
	if (req->core)
		counters_text(&req->core->pass_set[p]);
}

static void head_json(struct json *j, const struct copy_request *req, const struct copy_result *res)
{
	json_str(j, "kernel", "copy");
	json_u64(j, "cpus", (uint64_t)req->n);
	json_str(j, "window", "interrupts masked (TPL_HIGH_LEVEL on the boot CPU)");
	json_u64(j, "buffer_bytes", req->bytes);
	json_u64(j, "bytes_moved_per_pass", 2 * req->bytes * (uint64_t)req->n);
	json_u64(j, "timer_hz", req->timer_hz);
	rec_window_json(j, "noise_floor", res->floor.span_ticks, metric_ticks_to_ns(res->floor.span_ticks, req->timer_hz),
			res->floor.masked, res->floor.smi_status, res->floor.smi_delta);
}

void copy_record(const struct copy_request *req, const struct copy_result *res)
{
	if (res->no_memory) {
		rep_error("measurement.copy", "cannot allocate the working state for %d CPUs and %u passes", req->n,
			  req->passes);
		return;
	}
	rep_line("measure:    copy %llu bytes on each of %d CPU(s), %u passes, interrupts masked",
		 (unsigned long long)req->bytes, req->n, req->passes);
	rep_line("            noise floor (empty window): %llu ns",
		 (unsigned long long)metric_ticks_to_ns(res->floor.span_ticks, req->timer_hz));
	for (uint32_t p = 0; p < res->npass; p++) {
		if (req->core && req->core->arm_topdown && req->core->pass_set[p].pmu == &pmu_armv8_pmuv3)
			arm_topdown_record(&req->core->pass_set[p], req->core, p);
		pass_text(req, res, p);
	}
	struct json *j = rep_begin("measurement");
	head_json(j, req, res);
	json_arr(j, "passes");
	for (uint32_t p = 0; p < res->npass; p++)
		pass_json(j, req, res, p);
	json_close(j);
	if (res->failed_ran >= 0) {
		rep_end();
		rep_error("measurement.copy", "only %d of %d CPUs ran the window", res->failed_ran, req->n);
		return;
	}
	json_u64(j, "best_ns", res->best_ns);
	json_milli(j, "best_gbps", res->best_gbps_milli);
	json_milli(j, "mean_gbps", res->mean_gbps_milli);
	json_bool(j, "verified", res->verified);
	health_json(j, res->health, "no memory for the health attachments");   /* over every pass */
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), res->best_gbps_milli);
	rep_line("  best:     %s GB/s (bytes moved = 2 x buffer per CPU, STREAM convention)", rate);
	if (!res->verified)
		rep_error("measurement.copy", "destination differs from source after the copy kernel");
}
