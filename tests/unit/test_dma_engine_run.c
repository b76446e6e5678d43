/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dma_engine_run (efi/measure/dma_engine_run.c) on the host: a model engine (a 4096-byte device
 * buffer; host -> device costs 400 ticks, device -> host 600) on a PCI model function whose
 * Command register starts at 0x0400 (Interrupt Disable), a model DMA window of 2 slices, a fake
 * clock at 500 MHz (1 tick = 2 ns), host buffers from aligned_alloc. Expected values by hand:
 *   2 slices = 2 round trips of 4096 bytes: the engine read 8192 bytes of host memory and wrote
 *   8192; host -> device 2 x 400 = 800 ticks = 1600 ns, device -> host 2 x 600 = 1200 ticks =
 *   2400 ns; the link limit's rate is asked for 8192 / 8192 bytes in 1600 + 2400 = 4000 ns.
 *   During the window the Command register reads 0x0406 (0x0400 | Memory Space 0x2 | Bus
 *   Master 0x4, PCI Local Bus 3.0 6.2.2), after it 0x0400 again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/dma_engine_run.h"
#include "tests/model/pci_model.h"

#define HZ 500000000ull
#define BYTES 4096u
#define MASK 0xFFFFFFFull   /* 28 bits, as QEMU's edu */

static uint64_t now;
static uint64_t clock_fake(void) { return now; }

static uint8_t devbuf[BYTES];
static int fail_leg = -1, corrupt, legs;
static hw_status engine_copy(const struct hw *hw, uint64_t regs, uint64_t host, uint32_t bytes, int to_device,
			     uint64_t timeout_ticks, uint64_t (*clk)(void))
{
	(void)hw;
	assert_int_equal(regs, 0xFEB00000);
	assert_int_equal(bytes, BYTES);
	assert_int_equal(timeout_ticks, 5 * HZ);
	assert_ptr_equal(clk, clock_fake);
	if (legs++ == fail_leg)
		return HW_ERROR;
	if (to_device) {
		memcpy(devbuf, (void *)(uintptr_t)host, bytes);
		now += 400;
	} else {
		memcpy((void *)(uintptr_t)host, devbuf, bytes);
		((uint8_t *)(uintptr_t)host)[100] ^= (uint8_t)corrupt;
		now += 600;
	}
	return HW_OK;
}
static const struct dma_engine engine = { "model", 0x1234, 0x11e8, MASK, 0x40000, BYTES, engine_copy, 0 };

static int fail_alloc_at = -1, allocs, frees;
static uint64_t alloc_below(uint64_t bytes, uint64_t max)
{
	assert_int_equal(bytes, BYTES);
	assert_int_equal(max, MASK);
	if (allocs == fail_alloc_at)
		return 0;
	allocs++;
	return (uint64_t)(uintptr_t)aligned_alloc(4096, bytes);
}
static void below_free(uint64_t a, uint64_t bytes)
{
	assert_int_equal(bytes, BYTES);
	frees++;
	free((void *)(uintptr_t)a);
}
static const struct dma_engine_mem mem = { alloc_below, below_free };

static struct pci_model pm;
static struct hw hw;
static const struct hw_pci_addr bdf = { 0, 0, 3, 0 };
static uint32_t cmd_in_window;
static uint64_t rate_read, rate_write, rate_ns;

static int dma_run(void *ctx, const struct dma_window *w, struct dma_window_result *r)
{
	(void)ctx;
	assert_string_equal(w->kernel, "dma_engine_roundtrip");
	memset(r, 0, sizeof(*r));
	cmd_in_window = pci_model_r32(pci_model_find(&pm, bdf), 4) & 0xFFFF;
	w->fn(w->arg, 0, 2);
	w->fn(w->arg, 1, 2);
	return 0;
}
static void dma_rate(struct dma_window_result *r, uint64_t rd, uint64_t wr, uint64_t ns)
{
	(void)r;
	rate_read = rd;
	rate_write = wr;
	rate_ns = ns;
}

static struct measure_ctx ctx;
static struct dma_engine_request req;
static struct dma_engine_result res;

static int setup(void **state)
{
	(void)state;
	now = 0;
	fail_leg = fail_alloc_at = -1;
	corrupt = legs = allocs = frees = 0;
	cmd_in_window = 0;
	rate_read = rate_write = rate_ns = 0;
	pci_model_init(&pm);
	struct pci_model_func *f = pci_model_add(&pm, 0, 0, 3, 0, 0x1234, 0x11e8, 0x00ff00, 0);
	pci_model_w16(f, 4, 0x0400);
	hw = pci_model_hw(&pm);
	ctx = (struct measure_ctx){ .hw = &hw, .clock = clock_fake, .timer_hz = HZ };
	req = (struct dma_engine_request){ .bdf = bdf, .name = "0000:00:03.0", .e = &engine, .regs = 0xFEB00000, .mem = &mem,
					   .dma = { dma_run, dma_rate, NULL } };
	return 0;
}

static uint32_t cmd_now(void)
{
	return pci_model_r32(pci_model_find(&pm, bdf), 4) & 0xFFFF;
}

static void test_round_trips(void **state)
{
	(void)state;
	assert_int_equal(dma_engine_run(&ctx, &req, &res), 0);
	assert_int_equal(res.rounds, 2);
	assert_true(res.verified);
	assert_int_equal(res.st, HW_OK);
	assert_int_equal(res.moved.read, 8192);
	assert_int_equal(res.moved.write, 8192);
	assert_int_equal(res.to_ticks, 800);
	assert_int_equal(res.from_ticks, 1200);
	assert_int_equal(rate_read, 8192);
	assert_int_equal(rate_write, 8192);
	assert_int_equal(rate_ns, 4000);
	assert_int_equal(cmd_in_window, 0x0406);
	assert_int_equal(cmd_now(), 0x0400);
	assert_int_equal(allocs, 2);
	assert_int_equal(frees, 2);
	/* what the device holds is the source's pattern: word 1 = 0xA5C3E1F00F1E3C5A ^ 0x9E3779B97F4A7C15 */
	uint64_t w1;
	memcpy(&w1, devbuf + 8, 8);
	assert_int_equal(w1, 0x3BF498497054404Full);
}

static void test_data_differs(void **state)
{
	(void)state;
	corrupt = 0x10;
	assert_int_equal(dma_engine_run(&ctx, &req, &res), -1);
	assert_int_equal(res.rounds, 2);
	assert_false(res.verified);
	assert_int_equal(res.st, HW_OK);
	assert_int_equal(cmd_now(), 0x0400);
}

static void test_engine_times_out(void **state)
{
	(void)state;
	fail_leg = 1;   /* the first device -> host leg */
	assert_int_equal(dma_engine_run(&ctx, &req, &res), -1);
	assert_int_equal(res.rounds, 0);
	assert_int_equal(res.st, HW_ERROR);
	assert_int_equal(legs, 2);     /* the second slice does nothing after a failed leg */
	assert_int_equal(res.moved.read, 0);
	assert_int_equal(cmd_now(), 0x0400);
	assert_int_equal(frees, 2);
}

static void test_no_memory(void **state)
{
	(void)state;
	fail_alloc_at = 1;
	assert_int_equal(dma_engine_run(&ctx, &req, &res), -1);
	assert_true(res.no_memory);
	assert_int_equal(legs, 0);
	assert_int_equal(frees, 1);   /* the source given back */
	assert_int_equal(cmd_now(), 0x0400);   /* never touched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_round_trips, setup),
		cmocka_unit_test_setup(test_data_differs, setup),
		cmocka_unit_test_setup(test_engine_times_out, setup),
		cmocka_unit_test_setup(test_no_memory, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
