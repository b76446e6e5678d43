/* SPDX-License-Identifier: BSD-2-Clause */
/* The attachment list's life (attach.h): pure over struct hw, tested on the host. */
#include <stddef.h>
#include "efi/measure/attach.h"

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static int ready(const struct attachment *a)
{
	return a->ops && a->prepared && a->st == HW_OK;
}

int attach_prepare_all(struct attach_list *l)
{
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		struct attachment *a = &l->a[i];
		a->prepared = 0;
		a->nslices = 0;
		a->slice = &l->slice;
		if (!a->ops) {
			a->st = HW_UNSUPPORTED;
			a->why = "no attachment kind";
			continue;
		}
		a->st = HW_OK;
		a->why = NULL;
		if (a->ops->prepare && a->ops->prepare(a, l->hw) != 0) {
			if (a->st == HW_OK)
				a->st = HW_ERROR;
			if (!a->why)
				a->why = "prepare failed";
			a->prepared = 1;   /* half way: restore still runs */
			continue;
		}
		a->prepared = 1;
		n++;
	}
	return n;
}

static void each_start(void *ctx)
{
	struct attach_list *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (ready(&l->a[i]) && l->a[i].ops->start)
			l->a[i].ops->start(&l->a[i], l->hw);
}

static void each_stop(void *ctx)
{
	struct attach_list *l = ctx;
	for (int i = l->n - 1; i >= 0; i--)
		if (ready(&l->a[i]) && l->a[i].ops->stop)
			l->a[i].ops->stop(&l->a[i], l->hw);
}

static void each_cpu_start(void *ctx, int c)
{
	struct attach_list *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (ready(&l->a[i]) && l->a[i].ops->cpu_start)
			l->a[i].ops->cpu_start(&l->a[i], l->hw, c);
}

static void each_cpu_stop(void *ctx, int c)
{
	struct attach_list *l = ctx;
	for (int i = l->n - 1; i >= 0; i--)
		if (ready(&l->a[i]) && l->a[i].ops->cpu_stop)
			l->a[i].ops->cpu_stop(&l->a[i], l->hw, c);
}

const struct window_counters *attach_counters(struct attach_list *l)
{
	l->wc = (struct window_counters){ each_start, each_stop, l, each_cpu_start, each_cpu_stop };
	return &l->wc;
}

int attach_read_all(struct attach_list *l)
{
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		struct attachment *a = &l->a[i];
		if (!ready(a))
			continue;
		if (a->ops->read && a->ops->read(a, l->hw) != 0) {
			if (a->st == HW_OK)
				a->st = HW_ERROR;
			if (!a->why)
				a->why = "read failed";
			continue;
		}
		n++;
	}
	return n;
}

int attach_restore_all(struct attach_list *l)
{
	int rc = 0;
	for (int i = l->n - 1; i >= 0; i--) {
		struct attachment *a = &l->a[i];
		if (!a->ops || !a->prepared)
			continue;
		if (a->ops->restore && a->ops->restore(a, l->hw) != 0)
			rc = -1;
		a->prepared = 0;
	}
	return rc;
}

uint64_t attach_run_slices(struct attach_list *l, attach_traffic_fn traffic, void *arg)
{
	uint32_t n = 1;
	for (int i = 0; i < l->n; i++)
		if (ready(&l->a[i]) && l->a[i].nslices > n)
			n = l->a[i].nslices;
	uint64_t total = 0;
	for (uint32_t k = 0; k < n; k++) {
		l->slice = (struct attach_slice){ k, n, 0 };
		each_start(l);
		l->slice.ns = traffic(arg, k, n);
		total += l->slice.ns;
		each_stop(l);
	}
	return total;
}

struct attachment *attach_find(const struct attach_list *l, const char *kind)
{
	for (int i = 0; i < l->n; i++)
		if (l->a[i].ops && l->a[i].ops->kind && same(l->a[i].ops->kind, kind))
			return &l->a[i];
	return NULL;
}
