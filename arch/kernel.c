/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stress kernels: byte accounting, table lookup and the timed runner (arch/kernel.h).
 * Pure C, no EFI headers: built into the app and into host tests and the bench.
 */
#include <string.h>
#include "arch/kernel.h"

/* Arrays touched per pass: likwid .ptt STREAMS (BYTES = 8 x STREAMS per double), STREAM's
 * 2 (Copy) and 3 (Triad) x sizeof(double) x N. The chase reads each line of its one array. */
static const struct {
	const char *name;
	uint32_t streams;
	uint8_t uses_a, uses_b, uses_c;
} kinds[KERNEL_KIND_COUNT] = {
	[KERNEL_LOAD]    = { "load",    1, 0, 1, 0 },
	[KERNEL_STORE]   = { "store",   1, 1, 0, 0 },
	[KERNEL_NTSTORE] = { "ntstore", 1, 1, 0, 0 },
	[KERNEL_COPY]    = { "copy",    2, 1, 1, 0 },
	[KERNEL_NTCOPY]  = { "ntcopy",  2, 1, 1, 0 },
	[KERNEL_TRIAD]   = { "triad",   3, 1, 1, 1 },
	[KERNEL_CHASE]   = { "chase",   1, 0, 1, 0 },
};

static int kind_ok(enum kernel_kind kind)
{
	return (unsigned)kind < KERNEL_KIND_COUNT;
}

uint32_t kernel_streams(enum kernel_kind kind)
{
	return kind_ok(kind) ? kinds[kind].streams : 0;
}

uint64_t kernel_app_bytes(enum kernel_kind kind, uint64_t bytes)
{
	return (uint64_t)kernel_streams(kind) * bytes;
}

uint32_t kernel_calls_per_pass(uint64_t call_bytes, uint64_t pass_bytes)
{
	return call_bytes && call_bytes < pass_bytes ? (uint32_t)(pass_bytes / call_bytes) : 1;
}

const char *kernel_kind_name(enum kernel_kind kind)
{
	return kind_ok(kind) ? kinds[kind].name : "?";
}

static const struct { uint32_t bit; const char *name; } isa_names[] = {
	{ KERNEL_ISA_SSE2, "sse2" }, { KERNEL_ISA_AVX2, "avx2" },
	{ KERNEL_ISA_AVX512, "avx512" }, { KERNEL_ISA_NEON, "neon" }, { KERNEL_ISA_SVE, "sve" },
};

const char *kernel_isa_name(uint32_t isa)
{
	for (unsigned i = 0; i < sizeof(isa_names) / sizeof(isa_names[0]); i++)
		if (isa & isa_names[i].bit)
			return isa_names[i].name;
	return "c";
}

uint32_t kernel_isa_bit(const char *name)
{
	for (unsigned i = 0; name && i < sizeof(isa_names) / sizeof(isa_names[0]); i++)
		if (!strcmp(name, isa_names[i].name))
			return isa_names[i].bit;
	return 0;
}

int kernel_offered(const struct kernel_desc *k, uint32_t isa_mask)
{
	return k && (k->isa & ~isa_mask) == 0;
}

const struct kernel_desc *kernel_best(const struct kernel_desc *table, uint32_t n, enum kernel_kind kind,
				      uint32_t isa_mask)
{
	for (uint32_t i = 0; i < n; i++)
		if (table[i].kind == kind && kernel_offered(&table[i], isa_mask))
			return &table[i];
	return NULL;
}

const struct kernel_desc *kernel_by_name(const struct kernel_desc *table, uint32_t n, const char *name,
					 uint32_t isa_mask)
{
	for (uint32_t i = 0; name && i < n; i++)
		if (strcmp(table[i].name, name) == 0)
			return kernel_offered(&table[i], isa_mask) ? &table[i] : NULL;
	return NULL;
}

static int aligned(const void *p, uint32_t align)
{
	return ((uintptr_t)p & (align - 1)) == 0;
}

int kernel_check_args(const struct kernel_desc *k, const void *a, const void *b, const void *c, uint64_t bytes)
{
	if (!k || !k->fn || !kind_ok(k->kind) || k->block_bytes == 0 || k->align_bytes == 0 ||
	    (k->align_bytes & (k->align_bytes - 1)) != 0)
		return -1;
	if (bytes == 0 || bytes % k->block_bytes != 0)
		return -1;
	const void *bufs[3] = { a, b, c };
	const uint8_t uses[3] = { kinds[k->kind].uses_a, kinds[k->kind].uses_b, kinds[k->kind].uses_c };
	for (int i = 0; i < 3; i++)
		if (uses[i] && (!bufs[i] || !aligned(bufs[i], k->align_bytes)))
			return -1;
	return 0;
}

uint32_t kernel_uses(enum kernel_kind kind)
{
	return kind_ok(kind) ? (uint32_t)kinds[kind].uses_a | (uint32_t)kinds[kind].uses_b << 1 |
				       (uint32_t)kinds[kind].uses_c << 2
			     : 0;
}

static void *off(const void *p, uint64_t bytes)
{
	return p ? (void *)((uintptr_t)p + bytes) : NULL;
}

uint64_t kernel_apply(const struct kernel_desc *k, void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	if (!k || !kind_ok(k->kind))
		return 0;
	if (k->kind == KERNEL_CHASE)
		return k->fn(a, b, c, bytes, s);
	kernel_fn *ref = kernel_ref_set[k->kind].fn;
	const uint32_t uses = kernel_uses(k->kind), align = k->align_bytes ? k->align_bytes : 1;
	const uintptr_t ptr[3] = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c };
	uintptr_t mis = UINTPTR_MAX;
	for (int i = 0; i < 3; i++) {
		if (!(uses >> i & 1))
			continue;
		uintptr_t m = ptr[i] & (align - 1);
		if (mis != UINTPTR_MAX && m != mis)
			return ref(a, b, c, bytes, s);   /* unequal misalignment: no common aligned middle */
		mis = m;
	}
	uint64_t head = mis && mis != UINTPTR_MAX ? align - mis : 0;
	if (head > bytes || !k->block_bytes)
		return ref(a, b, c, bytes, s);
	uint64_t mid = (bytes - head) / k->block_bytes * k->block_bytes, tail = bytes - head - mid;
	uint64_t x = 0;
	if (head)
		x ^= ref(a, b, c, head, s);
	if (mid)
		x ^= k->fn(off(a, head), off(b, head), off(c, head), mid, s);
	if (tail)
		x ^= ref(off(a, head + mid), off(b, head + mid), off(c, head + mid), tail, s);
	return x;
}

void kernel_run(struct kernel_run *r)
{
	r->result = 0;
	r->ticks_total = r->ticks_max = 0;
	r->ticks_min = UINT64_MAX;
	r->app_bytes = r->loads = 0;
	r->status = -1;
	if (!r->timer || r->passes == 0 || kernel_check_args(r->k, r->a, r->b, r->c, r->bytes) != 0) {
		r->ticks_min = 0;
		return;
	}
	/* Asked on the CPU that runs the kernel: an AP may not have the XSAVE state its BSP has
	 * (each CPU has its own CR4 and XCR0), and an instruction it lacks would fault. */
	if (!kernel_offered(r->k, arch_kernel_isa())) {
		r->ticks_min = 0;
		r->status = -2;
		return;
	}
	kernel_fn *fn = r->k->fn;
	const uint32_t reps = r->reps > 1 ? r->reps : 1;
	for (uint32_t p = 0; p < r->passes; p++) {
		uint64_t t0 = r->timer();
		for (uint32_t i = 0; i < reps; i++)
			r->result = fn(r->a, r->b, r->c, r->bytes, r->scalar);
		uint64_t t = r->timer() - t0;
		r->ticks_total += t;
		if (t < r->ticks_min)
			r->ticks_min = t;
		if (t > r->ticks_max)
			r->ticks_max = t;
	}
	r->app_bytes = kernel_app_bytes(r->k->kind, r->bytes) * r->passes * reps;
	if (r->k->kind == KERNEL_CHASE)
		r->loads = r->bytes / 64 * r->passes * reps;
	r->status = 0;
}

void kernel_run_entry(void *arg)
{
	kernel_run((struct kernel_run *)arg);
}
