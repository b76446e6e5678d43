/* SPDX-License-Identifier: BSD-2-Clause */
/* The known-instruction loop in the firmware (measure_loop, efi/measure/measure.h): the request
 * from the config and the platform, loop_run (efi/measure/loop_run.c) with the firmware's ctx
 * and ops, the record (efi/out/loop_out.c). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/measure.h"
#include "efi/measure/loop_run.h"
#include "arch/regs/arm_sysreg.h"
#include "efi/out/loop_out.h"
#include "efi/out/report.h"
#include "arch/arch.h"
#include "efi/cpus.h"
#include "efi/mp.h"
#include "efi/pages.h"

/* After the loop on a CPU: Arm reads PMSWINC_EL0, which is write-only (Arm ARM D23 PMSWINC_EL0:
 * the read is UNDEFINED), so each CPU shows its exception vectors turn the fault into a status. */
static hw_status fixup(const struct hw *hw, const struct core_set *s)
{
	uint64_t v;
	return s->pmu == &pmu_armv8_pmuv3 ? hw_sysreg_read(hw, SYSREG_PMSWINC_EL0, &v) : HW_UNSUPPORTED;
}

static const struct loop_ops efi_loop_ops = { known_loop_run, fixup, mp_cpu_why };

int measure_loop(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	struct loop_request *req = measure_work(sizeof(*req), "loop");
	struct loop_result *res = req ? measure_work(sizeof(*res), "loop") : NULL;
	int rc = -1;
	if (req && res) {
		struct window_cpu sel[WINDOW_MAX_CPUS];
		*req = (struct loop_request){ .iterations = cfg->loop_iterations, .core = &p->core, .ops = &efi_loop_ops };
		req->ncpus = cpus_selected(sel);
		for (int i = 0; i < req->ncpus; i++)
			req->cpu[i] = sel[i].cpu;
		struct measure_ctx ctx;
		measure_ctx_efi(&ctx, hw, p->timer_hz);
		if (loop_run(&ctx, req, res) == 0) {
			loop_record(req, res);
			rc = 0;
		} else {
			rep_error("loop", "cannot allocate %llu bytes of working state", (unsigned long long)sizeof(struct core_set));
		}
	}
	pool_free(res);
	pool_free(req);
	return rc;
}
