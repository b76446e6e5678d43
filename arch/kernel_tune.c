/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel tuner (arch/kernel_tune.h). Pure C: built into the app, the bench and host tests. */
#include <string.h>
#include "arch/kernel_tune.h"

#define VERIFY_OFFSET 8u     /* an odd 8-byte offset: kernel_apply's head path runs too */
#define KEEP_LAST 2      /* successive halving stops halving at this many */
#define KERNEL_TUNE_MAX_ROUNDS 1000

static void fill_verify(void *p, uint64_t bytes, uint64_t seed)
{
	double *d = p;
	for (uint64_t i = 0; i < bytes / 8; i++)   /* integer doubles: b + s*c exact, fused or not */
		d[i] = (double)(int64_t)(((i + seed) * 2654435761u) % 4096u) - 2048.0;
}

/* k against the reference over the first VERIFY bytes of the probe arrays: variant into a,
 * reference into a + VERIFY, at an odd offset and an odd length. */
static int verify(const struct kernel_tune *t, const struct kernel_desc *k)
{
	const uint64_t len = KERNEL_TUNE_VERIFY_BYTES - 64 - 8 * 7;
	char *a = t->a;
	const char *b = t->b ? (const char *)t->b + VERIFY_OFFSET : NULL;
	const char *c = t->c ? (const char *)t->c + VERIFY_OFFSET : NULL;
	char *got = a + VERIFY_OFFSET, *want = a + KERNEL_TUNE_VERIFY_BYTES + VERIFY_OFFSET;
	const struct kernel_desc *ref = &kernel_ref_set[k->kind];
	memset(got, 0x5A, len);
	memset(want, 0xA5, len);
	uint64_t rg = kernel_apply(k, got, b, c, len, t->scalar);
	uint64_t rw = ref->fn(want, b, c, len, t->scalar);
	if (rg != rw)
		return 0;
	return k->kind == KERNEL_LOAD || memcmp(got, want, len) == 0;
}

static int faster(const struct kernel_tune_cand *x, const struct kernel_tune_cand *y)
{
	/* bytes/ticks compared as a cross product */
	return (unsigned __int128)x->app_bytes * y->best_ticks > (unsigned __int128)y->app_bytes * x->best_ticks;
}

static int left_for(const struct kernel_tune *t, uint64_t t0, uint64_t longest)
{
	uint64_t spent = t->timer() - t0;
	return spent <= t->budget_ticks && longest <= t->budget_ticks - spent;
}

static void *slice_of(void *p, uint64_t off)
{
	return p ? (char *)p + off : NULL;
}

static void timed_pass(struct kernel_tune *t, struct kernel_tune_cand *c, uint64_t *longest)
{
	const uint32_t slices = t->slices > 1 ? t->slices : 1;
	/* slice offsets in whole blocks of the largest block (1 KiB): every variant's alignment holds */
	const uint64_t per = t->probe_bytes / kernel_streams(t->kind) / slices / 1024 * 1024;
	const uint64_t off = (uint64_t)(t->next_slice++ % slices) * per;
	const uint32_t reps = t->reps > 1 ? t->reps : 1;
	uint64_t s0 = t->timer();
	for (uint32_t r = 0; r < reps; r++)
		c->k->fn(slice_of(t->a, off), slice_of(t->b, off), slice_of(t->c, off), c->bytes, t->scalar);
	uint64_t d = t->timer() - s0;
	if (!c->passes || d < c->best_ticks)
		c->best_ticks = d ? d : 1;
	c->passes++;
	if (d > *longest)
		*longest = d;
}

void kernel_tune(struct kernel_tune *t)
{
	t->status = -1;
	t->ncand = 0;
	t->choice = -1;
	t->spent_ticks = 0;
	t->next_slice = 0;
	uint32_t streams = kernel_streams(t->kind);
	const uint32_t slices = t->slices > 1 ? t->slices : 1;
	if (!t->table || !t->timer || !t->a || !streams || t->kind == KERNEL_CHASE)
		return;
	if (((kernel_uses(t->kind) & 2) && !t->b) || ((kernel_uses(t->kind) & 4) && !t->c))
		return;
	uint64_t t0 = t->timer();
	if (t->b)
		fill_verify((char *)t->b, KERNEL_TUNE_VERIFY_BYTES, 1);
	if (t->c)
		fill_verify((char *)t->c, KERNEL_TUNE_VERIFY_BYTES, 7);
	int any_verified = 0;
	for (uint32_t i = 0; i < t->n && t->ncand < KERNEL_TUNE_MAX; i++) {
		const struct kernel_desc *k = &t->table[i];
		if (k->kind != t->kind || !kernel_offered(k, t->isa) || !k->block_bytes)
			continue;
		struct kernel_tune_cand *c = &t->cand[t->ncand++];
		memset(c, 0, sizeof(*c));
		c->k = k;
		c->bytes = t->probe_bytes / streams / slices / 1024 * 1024 / k->block_bytes * k->block_bytes;
		c->app_bytes = kernel_app_bytes(k->kind, c->bytes) * (t->reps > 1 ? t->reps : 1);
		c->verified = (uint8_t)verify(t, k);
		any_verified |= c->verified;
	}
	if (!t->ncand)
		goto out;
	if (!any_verified) {
		t->status = -2;
		goto out;
	}
	/* Successive halving: every verified candidate runs once, then the faster half (by best
	 * pass so far) runs again, and so on down to KEEP_LAST, who run in turn until the budget is
	 * spent. Rounds alternate table order and its reverse, so a slow spell of the machine does
	 * not always fall on the same end of the table. A bounded number of rounds: a timer that
	 * does not advance must not keep the tuner here. */
	uint64_t longest = 0;
	int timed = 0;
	uint32_t alive = 0;
	uint8_t in[KERNEL_TUNE_MAX];   /* still in the running */
	for (uint32_t i = 0; i < t->ncand; i++) {
		in[i] = t->cand[i].verified && t->cand[i].bytes;
		alive += in[i];
	}
	for (int round = 0; round < KERNEL_TUNE_MAX_ROUNDS && alive; round++) {
		int stopped = 0;
		for (uint32_t j = 0; j < t->ncand && !stopped; j++) {
			uint32_t i = round % 2 ? t->ncand - 1 - j : j;
			if (!in[i])
				continue;
			if (timed && !left_for(t, t0, longest))
				stopped = 1;
			else
				timed_pass(t, &t->cand[i], &longest), timed = 1;
		}
		if (stopped)
			break;
		uint32_t keep = alive > 2 * KEEP_LAST ? (alive + 1) / 2 : alive > KEEP_LAST ? KEEP_LAST : alive;
		while (alive > keep) {   /* drop the slowest still in */
			int worst = -1;
			for (uint32_t i = 0; i < t->ncand; i++)
				if (in[i] && (worst < 0 || faster(&t->cand[worst], &t->cand[i])))
					worst = (int)i;
			if (worst < 0)
				break;
			in[worst] = 0;
			alive--;
		}
	}
	for (uint32_t i = 0; i < t->ncand; i++)
		if (t->cand[i].passes && (t->choice < 0 || faster(&t->cand[i], &t->cand[t->choice])))
			t->choice = (int)i;
	t->status = t->choice >= 0 ? 0 : -2;
out:
	t->spent_ticks = t->timer() - t0;
}

uint64_t kernel_tune_mbps(const struct kernel_tune_cand *c, uint64_t hz)
{
	if (!c || !c->passes || !c->best_ticks)
		return 0;
	return (uint64_t)((unsigned __int128)c->app_bytes * hz / c->best_ticks / 1000000u);
}

