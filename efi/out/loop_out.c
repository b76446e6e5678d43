/* SPDX-License-Identifier: BSD-2-Clause */
/* The known-instruction loop's record writer (efi/out/loop_out.h). */
#include <efi.h>
#include "efi/out/loop_out.h"
#include "efi/out/report.h"

static void loop_json(struct json *j, const char *key, const struct known_loop_result *r)
{
	json_obj(j, key);
	json_u64(j, "counted", r->counted);
	json_i64(j, "extra", (int64_t)(r->counted - r->expected));
	json_close(j);
}

static void per_cpu(struct json *j, const struct loop_request *req, const struct loop_result *res)
{
	json_arr(j, "per_cpu");
	for (int i = 0; i < req->ncpus; i++) {
		const struct loop_cpu_out *o = &res->cpu[i];
		json_obj(j, NULL);
		json_u64(j, "cpu", req->cpu[i]);
		if (o->st == HW_OK && o->fixup != HW_UNSUPPORTED)
			json_str(j, "pmswinc_read", hw_status_name(o->fixup));
		if (o->st != HW_OK) {
			json_str(j, "why", o->why ? o->why : hw_status_name(o->st));
		} else if (!o->r.valid) {
			json_str(j, "why", o->r.why);
		} else {
			json_u64(j, "expected", o->r.expected);
			json_u64(j, "counted", o->r.counted);
			json_i64(j, "extra", (int64_t)(o->r.counted - o->r.expected));
		}
		json_close(j);
		if (o->st == HW_OK && o->r.valid && req->ncpus > 1)
			rep_line("            CPU %u: counted %llu (%lld extra)", req->cpu[i], (unsigned long long)o->r.counted,
				 (long long)(o->r.counted - o->r.expected));
	}
	json_close(j);
}

static void masked_json(struct json *j, const struct loop_request *req, const struct loop_result *res)
{
	const struct known_loop_result *r0 = &res->masked[0];
	json_u64(j, "expected", r0->expected);
	loop_json(j, "masked", r0);
	json_arr(j, "masked_repeats");
	for (int k = 0; k < LOOP_MASKED_REPEATS; k++)
		json_u64(j, NULL, res->masked[k].counted);
	json_close(j);
	json_u64(j, "masked_spread", res->hi - res->lo);
	if (res->unmasked.valid)
		loop_json(j, "unmasked", &res->unmasked);
	rep_line("loop:       %llu iterations: expected %llu instructions, counted %llu with interrupts masked "
		 "(%lld extra; spread %llu over %d repeats), %llu unmasked (%lld extra)",
		 (unsigned long long)req->iterations, (unsigned long long)r0->expected, (unsigned long long)r0->counted,
		 (long long)(r0->counted - r0->expected), (unsigned long long)(res->hi - res->lo), LOOP_MASKED_REPEATS,
		 (unsigned long long)res->unmasked.counted, (long long)(res->unmasked.counted - res->unmasked.expected));
}

void loop_record(const struct loop_request *req, const struct loop_result *res)
{
	const struct known_loop_result *r0 = &res->masked[0];
	struct json *j = rep_begin("loop");
	json_str(j, "counter", "instructions retired");
	json_u64(j, "iterations", req->iterations);
	json_bool(j, "valid", r0->valid && res->unmasked.valid);
	if (r0->valid) {
		masked_json(j, req, res);
	} else {
		json_str(j, "why", r0->why);
		rep_line("loop:       not run: %s", r0->why);
	}
	per_cpu(j, req, res);
	rep_end();
}
