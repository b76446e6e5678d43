/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/dma_pattern.c: the pattern efiperf verifies Block IO reads against. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/dma_pattern.h"

static void test_pattern(void **state)
{
	(void)state;
	uint64_t buf[512];
	for (int i = 0; i < 512; i++)
		buf[i] = dma_pattern_word(4096 + 8 * (uint64_t)i);
	uint64_t bad = 0;
	assert_int_equal(dma_pattern_check(buf, 4096, sizeof(buf), &bad), 0);
	assert_int_equal(dma_pattern_check(buf, 0, sizeof(buf), &bad), -1);   /* wrong offset */
	assert_int_equal(bad, 0);
	buf[100] ^= 1;
	assert_int_equal(dma_pattern_check(buf, 4096, sizeof(buf), &bad), -1);
	assert_int_equal(bad, 4096 + 800);
	assert_true(dma_pattern_present(DMA_PATTERN_MAGIC));
	assert_false(dma_pattern_present(0));
	/* the first word is "efiperf!" in ASCII as the bytes lie on the disk */
	uint64_t w = dma_pattern_word(0);
	assert_memory_equal(&w, "efiperf!", 8);
}

/* What dma_write_lba writes is what the read side (and the QEMU test's host check) expects:
 * word at device offset o = (o / 8) ^ "efiperf!", independent of the buffer it was built in. */
static void test_fill(void **state)
{
	(void)state;
	uint64_t buf[64] = { 0 }, bad = 0;
	dma_pattern_fill(buf, 1u << 20, sizeof(buf));
	assert_int_equal(buf[0], ((1u << 20) / 8) ^ DMA_PATTERN_MAGIC);
	assert_int_equal(buf[63], ((1u << 20) / 8 + 63) ^ DMA_PATTERN_MAGIC);
	assert_int_equal(dma_pattern_check(buf, 1u << 20, sizeof(buf), &bad), 0);
	assert_int_equal(dma_pattern_check(buf, (1u << 20) + 512, sizeof(buf), &bad), -1);
	dma_pattern_fill(buf, 0, 8);   /* only the words asked for */
	assert_int_equal(buf[0], DMA_PATTERN_MAGIC);
	assert_int_equal(buf[1], ((1u << 20) / 8 + 1) ^ DMA_PATTERN_MAGIC);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_pattern), cmocka_unit_test(test_fill) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
