/* SPDX-License-Identifier: BSD-2-Clause */
/* The known-instruction loop's run (efi/measure/loop_run.h): pure over ctx->hw and request.ops. */
#include <string.h>
#include "efi/measure/loop_run.h"
#include "arch/lib/fmt.h"

/* One loop with the counters started around it, in *s (pool memory, not the stack: a core_set
 * is about 18 KB and this runs on APs, whose stacks the firmware sizes: UefiCpuPkg's
 * PcdCpuApStackSize defaults to 32 KiB (UefiCpuPkg.dec), ArmPkg's ArmPsciMpServicesDxe gives
 * 4 KiB (AP_STACK_SIZE, MpServicesInternal.h); `make stack` checks it). */
static void loop_once(const struct hw *hw, const struct loop_request *req, struct core_set *s, int masked,
		      struct known_loop_result *r)
{
	*s = *req->core;
	if (s->pmu && s->pmu->start(hw, s) != HW_OK) {
		fmt_snprintf(r->why, sizeof(r->why), "core counters could not be started");
		s->pmu->restore(hw, s);
		return;
	}
	req->ops->loop(s, req->iterations, masked, r);
	if (s->pmu) {
		s->pmu->stop(hw, s);
		s->pmu->restore(hw, s);
	}
}

struct loop_job {
	const struct hw *hw;
	const struct loop_request *req;
	struct core_set *s;
	struct loop_cpu_out *out;
};

/* On the CPU it runs on: its own counters, the masked loop, then the fixup probe. */
static void loop_on_cpu(void *arg)
{
	struct loop_job *j = arg;
	loop_once(j->hw, j->req, j->s, 1, &j->out->r);
	j->out->fixup = j->req->ops->fixup(j->hw, j->req->core);
}

int loop_run(const struct measure_ctx *ctx, const struct loop_request *req, struct loop_result *res)
{
	memset(res, 0, sizeof(*res));
	struct core_set *s = ctx->alloc(sizeof(*s));
	if (!s) {
		res->no_state = 1;
		return -1;
	}
	for (int k = 0; k < LOOP_MASKED_REPEATS; k++)
		loop_once(ctx->hw, req, s, 1, &res->masked[k]);
	loop_once(ctx->hw, req, s, 0, &res->unmasked);
	res->lo = ~0ull;
	for (int k = 0; k < LOOP_MASKED_REPEATS; k++) {
		res->lo = res->masked[k].counted < res->lo ? res->masked[k].counted : res->lo;
		res->hi = res->masked[k].counted > res->hi ? res->masked[k].counted : res->hi;
	}
	for (int i = 0; i < req->ncpus && i < WINDOW_MAX_CPUS; i++) {
		struct loop_cpu_out *o = &res->cpu[i];
		struct loop_job j = { ctx->hw, req, s, o };
		o->fixup = HW_UNSUPPORTED;
		o->st = hw_run_on_cpu(ctx->hw, req->cpu[i], loop_on_cpu, &j);
		o->why = o->st != HW_OK ? req->ops->cpu_why(req->cpu[i]) : NULL;
	}
	ctx->free(s);
	return 0;
}
