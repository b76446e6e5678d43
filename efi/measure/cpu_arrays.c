/* SPDX-License-Identifier: BSD-2-Clause */
/* Each selected CPU's working arrays (efi/measure/cpu_arrays.h): pure over a measure_ctx. */
#include <stddef.h>
#include "efi/measure/cpu_arrays.h"

void *cpu_array_alloc(const struct measure_ctx *ctx, const struct cpu_sel *s, int i, uint64_t bytes,
		      struct cpu_place *place)
{
	int m = i >= 0 && i < s->n ? s->mem[i] : -1;
	*place = (struct cpu_place){ .node = i >= 0 && i < s->n ? s->node[i] : -1 };
	if (place->node >= 0 && m >= 0 && s->nodes[m].nr > 0) {
		void *b = ctx->alloc_in(bytes, s->nodes[m].r, s->nodes[m].nr);
		if (b) {
			place->local = 1;
			return b;
		}
	}
	return ctx->alloc_in(bytes, NULL, 0);
}

void cpu_arrays_free(const struct measure_ctx *ctx, int n, uint64_t bytes, unsigned narrays, struct cpu_arrays *arr)
{
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < narrays && k < CPU_ARRAYS_MAX; k++) {
			if (arr[i].a[k])
				ctx->free_in(arr[i].a[k], bytes);
			arr[i].a[k] = NULL;
		}
}

int cpu_arrays_alloc(const struct measure_ctx *ctx, const struct cpu_sel *s, int n, uint64_t bytes, unsigned narrays,
		     struct cpu_arrays *out)
{
	for (int i = 0; i < n; i++)
		out[i] = (struct cpu_arrays){ .place = { .node = -1 } };
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < narrays && k < CPU_ARRAYS_MAX; k++) {
			struct cpu_place pl;
			out[i].a[k] = cpu_array_alloc(ctx, s, i, bytes, &pl);
			out[i].place = k ? (struct cpu_place){ pl.node, out[i].place.local && pl.local } : pl;
			if (!out[i].a[k]) {
				cpu_arrays_free(ctx, n, bytes, narrays, out);
				return -1;
			}
		}
	return 0;
}
