/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mmio_measure (efi/measure/mmio_run.c) on the host: the "BAR" is malloc'ed memory, a model of
 * the windows runs each kernel on it and sets the window's span as a script says, a model DMA
 * window runs the kernel's slices (two, as with CHA multiplexing) and checks what it was given.
 * Timer: 1 GHz (1 tick = 1 ns). Expected values are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/mmio_run.h"

#define HZ 1000000000ull
#define WORDS 8u                 /* bytes per kernel run: 64 */
#define SLICES 2u

struct model {
	uint64_t bar[16];
	int floors, windows, fail_window, corrupt, dma_calls;
	uint32_t slices;        /* the DMA window's slices per kernel */
	const char *kernels[MMIO_NKERNELS];
	struct mmio_request req;
	struct measure_ctx ctx;
};

static struct model mdl;

static int model_run(void *ctx, const struct window_spec *s, struct window_result *r)
{
	struct model *m = ctx;
	assert_int_equal(s->ncpus, 1);
	assert_int_equal(s->cpus[0].cpu, 3);
	assert_int_equal(s->mask_interrupts, 1);
	assert_null(s->counters);
	if (!s->kernel) {
		m->floors++;
		*r = (struct window_result){ .span_ticks = 10, .masked = 1, .ran = 1, .smi_status = HW_OK };
		return 0;
	}
	const struct mmio_arg *a = s->cpus[0].arg;
	assert_ptr_equal((void *)a->base, m->bar);
	assert_int_equal(a->bytes, 8 * WORDS);
	if (++m->windows == m->fail_window) {   /* the CPU did not run this one */
		*r = (struct window_result){ .span_ticks = 0, .ran = 0, .smi_status = HW_OK };
		return -1;
	}
	s->cpus[0].ret = s->kernel(s->cpus[0].arg);
	if (m->corrupt)
		m->bar[2] ^= 4;
	*r = (struct window_result){ .span_ticks = 500, .masked = 1, .ran = 1, .smi_status = HW_OK, .smi_delta = 1 };
	return 0;
}

static int model_dma(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	struct model *m = ctx;
	assert_true(m->dma_calls < MMIO_NKERNELS);
	m->kernels[m->dma_calls++] = w->kernel;
	assert_string_equal(w->no_dma_why, MMIO_NO_DMA);
	assert_null(w->expected);
	assert_int_equal(w->dev.bus, 5);
	assert_int_equal(w->addr64, 1);
	memset(r, 0, sizeof(*r));
	for (uint32_t k = 0; k < m->slices; k++) {
		uint64_t ns = w->fn(w->arg, k, m->slices);
		assert_int_equal(ns, m->windows == m->fail_window ? 0 : 500);   /* each slice: its window's ns */
	}
	return 0;
}

static void setup(int writes)
{
	memset(&mdl, 0, sizeof(mdl));
	for (unsigned i = 0; i < 16; i++)
		mdl.bar[i] = i + 1;
	mdl.req = (struct mmio_request){ .cpu = 3, .base = (uintptr_t)mdl.bar, .bytes = 8 * WORDS, .writes = writes,
					 .dev = { 0, 5, 0, 0 }, .addr64 = 1, .dma_run = model_dma, .dma_ctx = &mdl };
	mdl.ctx = (struct measure_ctx){ .win = { model_run, &mdl }, .timer_hz = HZ };
	mdl.slices = SLICES;
}

static struct mmio_result res;

static void test_reads(void **state)
{
	(void)state;
	setup(0);
	assert_int_equal(mmio_measure(&mdl.ctx, &mdl.req, &res), 0);
	assert_int_equal(res.nk, 2);            /* mmio_write off: no write kernel */
	assert_int_equal(mdl.dma_calls, 2);
	assert_string_equal(mdl.kernels[0], "mmio_read64");
	assert_string_equal(mdl.kernels[1], "mmio_read32");
	assert_int_equal(mdl.floors, 2);        /* a noise floor per kernel */
	/* read64 over words 1..8: sum 36; read32 over their halves (little-endian: 1, 0, 2, 0, ...): 36 */
	assert_int_equal(res.k[0].checksum, 36);
	assert_int_equal(res.k[1].checksum, 36);
	/* two slices of 500 ns: 1000 ns, 2 x 64 = 128 bytes; read64 16 accesses, read32 32 */
	assert_int_equal(res.k[0].rounds, 2);
	assert_int_equal(res.k[0].ns, 1000);
	assert_int_equal(res.k[0].moved, 128);
	assert_int_equal(res.k[0].accesses, 16);
	assert_int_equal(res.k[1].accesses, 32);
	assert_int_equal(res.k[0].verified, -1);
	assert_int_equal(res.k[0].floor.span_ticks, 10);
	assert_int_equal(res.k[0].w.smi_delta, 1);   /* the last slice's window */
	assert_false(res.k[0].dma.ll.have_fraction); /* the model gave no link limit */
}

static void test_write_reads_back(void **state)
{
	(void)state;
	setup(1);
	assert_int_equal(mmio_measure(&mdl.ctx, &mdl.req, &res), 0);
	assert_int_equal(res.nk, 3);
	assert_string_equal(res.k[2].k->name, "mmio_write64");
	assert_int_equal(res.k[2].verified, 1);
	/* word i written as pattern x (i + 1); words past the 64 bytes untouched */
	assert_int_equal(mdl.bar[7], 0x9E3779B97F4A7C15ull * 8);
	assert_int_equal(mdl.bar[8], 9);
}

static void test_write_differs(void **state)
{
	(void)state;
	setup(1);
	mdl.corrupt = 1;
	assert_int_equal(mmio_measure(&mdl.ctx, &mdl.req, &res), -1);
	assert_int_equal(res.k[2].verified, 0);
}

static void test_cpu_did_not_run_the_write(void **state)
{
	(void)state;
	/* windows 1-2 read64, 3-4 read32, 5-6 write64: in the write's second slice the CPU did not
	 * run; the first slice wrote, so the read back matches, and the time is that of the slice
	 * that ran (500 ns; a window that did not run spans 0 ticks) */
	setup(1);
	mdl.fail_window = 6;
	assert_int_equal(mmio_measure(&mdl.ctx, &mdl.req, &res), 0);
	assert_int_equal(res.k[2].w.ran, 0);
	assert_int_equal(res.k[2].ns, 500);
	assert_int_equal(res.k[2].verified, 1);
	/* one slice a kernel (windows 1 read64, 2 read32, 3 write64) and the write's did not run:
	 * nothing was written, the BAR still holds 1..8, so the read back differs */
	setup(1);
	mdl.slices = 1;
	mdl.fail_window = 3;
	assert_int_equal(mmio_measure(&mdl.ctx, &mdl.req, &res), -1);
	assert_int_equal(res.k[2].verified, 0);
	assert_int_equal(res.k[2].rounds, 1);
	assert_int_equal(mdl.bar[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_write_reads_back),
		cmocka_unit_test(test_write_differs),
		cmocka_unit_test(test_cpu_did_not_run_the_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
