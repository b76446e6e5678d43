/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware's side of a window (efi/measure/window_seq.h): MP services or PSCI for the APs
 * (efi/mp.h), RaiseTPL(TPL_HIGH_LEVEL) for the boot CPU (UEFI 2.10 section 7.1), the pool. */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/window.h"
#include "efi/measure/window_seq.h"
#include "efi/mp.h"
#include "efi/pages.h"
#include "arch/arch.h"

/* One window's MP state: the pending starts (pool memory, one per CPU of the window). */
struct efi_mp {
	struct mp_info mi;
	struct mp_pending *pend;
	uint32_t faults0;   /* mp_jobs_faulted() when the window started */
};

static int efi_begin(void *ctx, int n)
{
	struct efi_mp *e = ctx;
	e->pend = pool_zalloc((uint64_t)n * sizeof(*e->pend));
	e->faults0 = mp_jobs_faulted();
	return e->pend ? 0 : -1;
}

static void efi_end(void *ctx)
{
	struct efi_mp *e = ctx;
	pool_free(e->pend);
	e->pend = NULL;
}

static uint32_t efi_bsp(void *ctx)
{
	return ((struct efi_mp *)ctx)->mi.bsp;
}

static hw_status efi_start(void *ctx, int i, uint32_t cpu, void (*fn)(void *), void *arg)
{
	struct efi_mp *e = ctx;
	return mp_start_on_cpu(cpu, fn, arg, &e->pend[i]);
}

static hw_status efi_wait(void *ctx, int i)
{
	return mp_wait(&((struct efi_mp *)ctx)->pend[i]);
}

/* the fatal-exception path asks every AP to stop waiting, or a CPU's job ended at an exception
 * during this window (it will never arrive) */
static int efi_stalled(void *ctx)
{
	return mp_aborting() || mp_jobs_faulted() != ((struct efi_mp *)ctx)->faults0;
}

static uint64_t efi_mask_boot(void *ctx)
{
	(void)ctx;
	return BS->RaiseTPL(TPL_HIGH_LEVEL);
}

static void efi_unmask_boot(void *ctx, uint64_t old)
{
	(void)ctx;
	BS->RestoreTPL((EFI_TPL)old);
}

int window_run(const struct hw *hw, const struct window_spec *s, struct window_result *r)
{
	struct efi_mp e = { .pend = NULL };
	mp_init(&e.mi);
	/* positional: the stack check resolves mp->...() by tests/tools/stack_budget.py's window_mp rule */
	const struct window_mp mp = { &e, efi_begin, efi_end, efi_bsp, efi_start, efi_wait, efi_stalled,
				      arch_cpu_relax, efi_mask_boot, efi_unmask_boot, arch_irq_disable,
				      arch_irq_restore, arch_timer_read, arch_smi_count, pool_zalloc, pool_free };
	return window_seq_run(&mp, hw, s, r);
}

int window_noise_floor(const struct hw *hw, const struct window_spec *s, struct window_result *r)
{
	struct window_spec empty = *s;
	empty.kernel = NULL;
	empty.counters = NULL;
	empty.boot_work = NULL;
	return window_run(hw, &empty, r);
}
