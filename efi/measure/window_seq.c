/* SPDX-License-Identifier: BSD-2-Clause */
/* A window's sequencing over struct window_mp (efi/measure/window_seq.h): pure, tested on the
 * host with threads (tests/unit/test_window_seq.c). */
#include <stddef.h>
#include "efi/measure/window_seq.h"

/* The barrier of one window: on its caller's stack, shared by the CPUs of that window. */
struct barrier {
	const struct window_mp *mp;
	volatile uint32_t ready, done, go;
};

struct cpu_job { const struct window_spec *s; struct window_cpu *c; int index; struct barrier *b; };

static void cpu_counters(const struct window_spec *s, int i, int start)
{
	const struct window_counters *wc = s->counters;
	if (wc && start && wc->cpu_start)
		wc->cpu_start(wc->ctx, i);
	if (wc && !start && wc->cpu_stop)
		wc->cpu_stop(wc->ctx, i);
}

/* Also left when the run aborts or a CPU's job ended at an exception (it will never arrive;
 * window_run then fails with that CPU's status). relax() between polls: a waiting CPU gives way
 * (under QEMU's round-robin TCG a spin without it takes the boot CPU's share of virtual time). */
static void spin_until(const struct barrier *b, volatile uint32_t *v, uint32_t want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want && !b->mp->stalled(b->mp->ctx))
		b->mp->relax();
}

/* This CPU's kernel between its per-CPU counters, timed. */
static void kernel_timed(const struct window_mp *mp, const struct window_spec *s, int i)
{
	struct window_cpu *c = &s->cpus[i];
	cpu_counters(s, i, 1);
	c->t0 = mp->timer();
	c->ret = s->kernel ? s->kernel(c->arg) : 0;
	c->t1 = mp->timer();
	cpu_counters(s, i, 0);
}

/* What every taking-part AP does: mask, arrive, wait for go, run, time, leave. */
static void run_one(void *p)
{
	struct cpu_job *j = p;
	const struct window_mp *mp = j->b->mp;
	uint64_t flags = j->s->mask_interrupts ? mp->irq_disable() : 0;
	j->c->irq_masked = j->s->mask_interrupts;
	__atomic_add_fetch(&j->b->ready, 1, __ATOMIC_ACQ_REL);
	spin_until(j->b, &j->b->go, 1);
	kernel_timed(mp, j->s, j->index);
	__atomic_add_fetch(&j->b->done, 1, __ATOMIC_ACQ_REL);
	if (j->s->mask_interrupts)
		mp->irq_restore(flags);
}

/* Start every AP's job; the boot CPU's own index in *bsp_job (-1: not one of the window's).
 * Returns how many started. */
static int start_all(const struct window_mp *mp, const struct window_spec *s, int n, struct cpu_job *jobs,
		     struct barrier *b, int *bsp_job)
{
	uint32_t bsp = mp->bsp(mp->ctx);
	int started = 0;
	*bsp_job = -1;
	for (int i = 0; i < n; i++) {
		struct window_cpu *c = &s->cpus[i];
		c->st = HW_OK;
		c->t0 = c->t1 = c->ret = 0;
		jobs[i] = (struct cpu_job){ s, c, i, b };
		if (c->cpu == bsp) {
			*bsp_job = i;
			continue;
		}
		c->st = mp->start(mp->ctx, i, c->cpu, run_one, &jobs[i]);
		started += c->st == HW_OK;
	}
	return started;
}

/* The boot CPU's part once the APs arrived: mask, counters start, open the barrier, its own
 * kernel or boot_work, wait for the APs, counters stop, unmask. */
static void boot_part(const struct window_mp *mp, const struct window_spec *s, struct barrier *b, int bsp_job,
		      uint32_t started, struct window_result *r)
{
	uint64_t old = r->boot_masked ? mp->mask_boot(mp->ctx) : 0;
	if (s->counters && s->counters->start)
		s->counters->start(s->counters->ctx);
	__atomic_store_n(&b->go, 1, __ATOMIC_RELEASE);
	if (bsp_job >= 0) {
		s->cpus[bsp_job].irq_masked = s->mask_interrupts;
		kernel_timed(mp, s, bsp_job);
	} else if (s->boot_work) {
		r->boot_t0 = mp->timer();
		s->boot_work(s->boot_ctx);
		r->boot_t1 = mp->timer();
	}
	spin_until(b, &b->done, started);
	if (s->counters && s->counters->stop)
		s->counters->stop(s->counters->ctx);
	if (r->boot_masked)
		mp->unmask_boot(mp->ctx, old);
}

/* ran, masked and span over the CPUs that ran (and boot_work's time). */
static void summarise(const struct window_spec *s, int n, struct window_result *r)
{
	uint64_t first = ~0ull, last = 0;
	for (int i = 0; i < n; i++) {
		const struct window_cpu *c = &s->cpus[i];
		if (c->st != HW_OK)
			continue;
		r->ran++;
		r->masked &= c->irq_masked;
		first = c->t0 < first ? c->t0 : first;
		last = c->t1 > last ? c->t1 : last;
	}
	if (s->boot_work) {
		first = r->boot_t0 < first ? r->boot_t0 : first;
		last = r->boot_t1 > last ? r->boot_t1 : last;
	}
	r->span_ticks = r->ran || s->boot_work ? last - first : 0;
}

int window_seq_run(const struct window_mp *mp, const struct hw *hw, const struct window_spec *s,
		   struct window_result *r)
{
	*r = (struct window_result){ .masked = s->mask_interrupts, .boot_masked = s->mask_interrupts && !s->boot_work };
	int n = s->ncpus < WINDOW_MAX_CPUS ? s->ncpus : WINDOW_MAX_CPUS;
	struct cpu_job *jobs = mp->alloc((uint64_t)n * sizeof(*jobs));
	if (n > 0 && (!jobs || mp->begin(mp->ctx, n))) {
		mp->free(jobs);
		for (int i = 0; i < n; i++)
			s->cpus[i].st = HW_ERROR;   /* no memory: no CPU ran */
		return -1;
	}
	struct barrier b = { mp, 0, 0, 0 };
	int bsp_job;
	int started = start_all(mp, s, n, jobs, &b, &bsp_job);
	uint64_t smi0 = 0, smi1 = 0;
	r->smi_status = mp->smi_count(hw, &smi0);
	spin_until(&b, &b.ready, (uint32_t)started);
	boot_part(mp, s, &b, bsp_job, (uint32_t)started, r);
	for (int i = 0; i < n; i++)
		if (i != bsp_job && s->cpus[i].st == HW_OK)
			s->cpus[i].st = mp->wait(mp->ctx, i);
	if (r->smi_status == HW_OK)
		r->smi_status = mp->smi_count(hw, &smi1);
	if (r->smi_status == HW_OK)
		r->smi_delta = smi1 - smi0;
	summarise(s, n, r);
	if (n > 0)
		mp->end(mp->ctx);
	mp->free(jobs);
	return r->ran == n ? 0 : -1;
}
