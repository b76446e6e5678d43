/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/dma_edu.c against a model of QEMU's edu registers (QEMU docs/specs/edu.rst): the DMA
 * source, destination, count and command registers are programmed for each direction, the
 * start bit is polled until the device clears it, and a device that never finishes times out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/dma_engine.h"

extern const struct dma_engine dma_engine_edu;

#define REGS 0xfea00000ull
static uint64_t reg[0x100 / 8];
static int busy_polls, polls;
static uint64_t clock_now;

static hw_status w64(void *ctx, uint64_t a, uint64_t v)
{
	(void)ctx;
	reg[(a - REGS) / 8] = v;
	polls = 0;
	return HW_OK;
}

static hw_status r64(void *ctx, uint64_t a, uint64_t *v)
{
	(void)ctx;
	uint64_t *cmd = &reg[0x98 / 8];
	if ((a - REGS) == 0x98 && (*cmd & 1) && ++polls > busy_polls)
		*cmd &= ~1ull;            /* transfer done: the device clears the start bit */
	*v = reg[(a - REGS) / 8];
	clock_now += 10;
	return HW_OK;
}

static uint64_t now(void) { return clock_now; }

static const struct hw_ops ops = { .name = "edu-model", .mmio_read64 = r64, .mmio_write64 = w64 };
static const struct hw h = { &ops, NULL };

static void test_both_directions(void **state)
{
	(void)state;
	const struct dma_engine *e = &dma_engine_edu;
	assert_ptr_equal(dma_engine_find(0x1234, 0x11e8), e);
	assert_null(dma_engine_find(0x1234, 0x1111));
	busy_polls = 3;
	assert_int_equal(e->copy(&h, REGS, 0x1000, 2048, 1, 1000, now), HW_OK);
	assert_true(reg[0x80 / 8] == 0x1000 && reg[0x88 / 8] == 0x40000 && reg[0x90 / 8] == 2048);
	assert_true(reg[0x98 / 8] == 0);           /* started (0x1), then cleared by the device */
	assert_true(polls > busy_polls);           /* it waited for the start bit to clear */
	assert_int_equal(e->copy(&h, REGS, 0x2000, 2048, 0, 1000, now), HW_OK);
	assert_true(reg[0x80 / 8] == 0x40000 && reg[0x88 / 8] == 0x2000);
	/* below the 28-bit DMA mask and within the buffer, leaving its last byte alone */
	assert_true(e->dma_mask == (1ull << 28) - 1 && e->dev_buffer_bytes < 4096);
}

static void test_timeout(void **state)
{
	(void)state;
	busy_polls = 1 << 30;                      /* never finishes */
	clock_now = 0;
	assert_int_equal(dma_engine_edu.copy(&h, REGS, 0x1000, 64, 1, 500, now), HW_ERROR);
	assert_true(clock_now > 500 && clock_now < 600);   /* gave up right after the timeout */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_directions),
		cmocka_unit_test(test_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
