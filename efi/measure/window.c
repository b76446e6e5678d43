/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/window.h"
#include "efi/mp.h"
#include "efi/pages.h"
#include "arch/arch.h"

/* Barrier shared by the CPUs of one window (one window at a time). */
static volatile uint32_t n_ready, n_done, go;

struct cpu_job { const struct window_spec *s; struct window_cpu *c; int index; };

static void cpu_counters(const struct window_spec *s, int i, int start)
{
	const struct window_counters *wc = s->counters;
	if (wc && start && wc->cpu_start)
		wc->cpu_start(wc->ctx, i);
	if (wc && !start && wc->cpu_stop)
		wc->cpu_stop(wc->ctx, i);
}

static uint32_t faults0;   /* mp_jobs_faulted() when the window started */

/* Also left when the fatal-exception path asks every AP to stop waiting (mp_aborting), or when
 * a CPU's job ended at an exception during this window (mp_jobs_faulted: it will never arrive;
 * window_run then fails with that CPU's status). arch_cpu_relax() between polls: a waiting CPU
 * gives way (under QEMU's round-robin TCG a spin without it takes the boot CPU's share of
 * virtual time, and the firmware's timer interrupt on the boot CPU no longer keeps up). */
static void spin_until(volatile uint32_t *v, uint32_t want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want && !mp_aborting() && mp_jobs_faulted() == faults0)
		arch_cpu_relax();
}

/* What every taking-part CPU does: mask, arrive, wait for go, run, time, leave. */
static void run_one(void *p)
{
	struct cpu_job *j = p;
	struct window_cpu *c = j->c;
	uint64_t flags = j->s->mask_interrupts ? arch_irq_disable() : 0;
	c->irq_masked = j->s->mask_interrupts;
	__atomic_add_fetch(&n_ready, 1, __ATOMIC_ACQ_REL);
	spin_until(&go, 1);
	cpu_counters(j->s, j->index, 1);
	c->t0 = arch_timer_read();
	c->ret = j->s->kernel ? j->s->kernel(c->arg) : 0;
	c->t1 = arch_timer_read();
	cpu_counters(j->s, j->index, 0);
	__atomic_add_fetch(&n_done, 1, __ATOMIC_ACQ_REL);
	if (j->s->mask_interrupts)
		arch_irq_restore(flags);
}

int window_run(const struct hw *hw, const struct window_spec *s, struct window_result *r)
{
	struct mp_info mi;
	mp_init(&mi);
	*r = (struct window_result){ .masked = s->mask_interrupts, .boot_masked = s->mask_interrupts && !s->boot_work };
	int n = s->ncpus < WINDOW_MAX_CPUS ? s->ncpus : WINDOW_MAX_CPUS;
	/* each CPU's job and pending start: pool memory for this window, n of them */
	struct cpu_job *jobs = pool_zalloc((uint64_t)n * sizeof(*jobs));
	struct mp_pending *pend = pool_zalloc((uint64_t)n * sizeof(*pend));
	if (n > 0 && (!jobs || !pend)) {
		pool_free(jobs);
		pool_free(pend);
		for (int i = 0; i < n; i++)
			s->cpus[i].st = HW_ERROR;   /* no pool memory: no CPU ran */
		return -1;
	}
	int bsp_job = -1, started = 0;
	n_ready = n_done = go = 0;
	faults0 = mp_jobs_faulted();

	for (int i = 0; i < n; i++) {
		struct window_cpu *c = &s->cpus[i];
		c->st = HW_OK;
		c->t0 = c->t1 = c->ret = 0;
		jobs[i] = (struct cpu_job){ s, c, i };
		if (c->cpu == mi.bsp) {
			bsp_job = i;
			continue;
		}
		c->st = mp_start_on_cpu(c->cpu, run_one, &jobs[i], &pend[i]);
		started += c->st == HW_OK;
	}
	uint64_t smi0 = 0, smi1 = 0;
	r->smi_status = arch_smi_count(hw, &smi0);

	/* Wait for the APs to arrive, then raise the TPL (the BSP's interrupts masked) and open
	 * the barrier; the BSP runs its own share inside. */
	spin_until(&n_ready, (uint32_t)started);
	EFI_TPL old = r->boot_masked ? BS->RaiseTPL(TPL_HIGH_LEVEL) : 0;
	if (s->counters && s->counters->start)
		s->counters->start(s->counters->ctx);
	if (bsp_job >= 0) {
		struct window_cpu *c = &s->cpus[bsp_job];
		c->irq_masked = s->mask_interrupts;
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		cpu_counters(s, bsp_job, 1);
		c->t0 = arch_timer_read();
		c->ret = s->kernel ? s->kernel(c->arg) : 0;
		c->t1 = arch_timer_read();
		cpu_counters(s, bsp_job, 0);
	} else {
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		if (s->boot_work) {
			r->boot_t0 = arch_timer_read();
			s->boot_work(s->boot_ctx);
			r->boot_t1 = arch_timer_read();
		}
	}
	spin_until(&n_done, (uint32_t)started);
	if (s->counters && s->counters->stop)
		s->counters->stop(s->counters->ctx);
	if (r->boot_masked)
		BS->RestoreTPL(old);

	for (int i = 0; i < n; i++)
		if (i != bsp_job && s->cpus[i].st == HW_OK)
			s->cpus[i].st = mp_wait(&pend[i]);
	if (r->smi_status == HW_OK)
		r->smi_status = arch_smi_count(hw, &smi1);
	if (r->smi_status == HW_OK)
		r->smi_delta = smi1 - smi0;

	uint64_t first = ~0ull, last = 0;
	for (int i = 0; i < n; i++) {
		const struct window_cpu *c = &s->cpus[i];
		if (c->st != HW_OK)
			continue;
		r->ran++;
		r->masked &= c->irq_masked;
		if (c->t0 < first)
			first = c->t0;
		if (c->t1 > last)
			last = c->t1;
	}
	if (s->boot_work) {
		first = r->boot_t0 < first ? r->boot_t0 : first;
		last = r->boot_t1 > last ? r->boot_t1 : last;
	}
	r->span_ticks = r->ran || s->boot_work ? last - first : 0;
	pool_free(jobs);
	pool_free(pend);
	return r->ran == n ? 0 : -1;
}

int window_noise_floor(const struct hw *hw, const struct window_spec *s, struct window_result *r)
{
	struct window_spec empty = *s;
	empty.kernel = NULL;
	empty.counters = NULL;
	empty.boot_work = NULL;
	return window_run(hw, &empty, r);
}
