/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/measure/tune_run.h"
#include "efi/measure/window.h"
#include "arch/arch.h"

struct tune_job {
	struct kernel_tune *t;
	uint32_t isa_only;
};

static uint64_t tune_kernel(void *arg)
{
	struct tune_job *job = arg;
	job->t->isa = arch_kernel_isa();   /* asked on the CPU that tunes */
	if (job->isa_only)
		job->t->isa &= job->isa_only;
	kernel_tune(job->t);
	return (uint64_t)job->t->status;
}

int tune_run_on(const struct hw *hw, uint32_t cpu, struct kernel_tune *t, uint32_t isa_only)
{
	struct tune_job job = { t, isa_only };
	struct window_cpu tcpu = { .cpu = cpu, .arg = &job };
	struct window_spec spec = { .kernel = tune_kernel, .cpus = &tcpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result w;
	t->status = -1;
	int rc = window_run(hw, &spec, &w);
	return rc == 0 && t->status == 0 ? 0 : -1;
}
