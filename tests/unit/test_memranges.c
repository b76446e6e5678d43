/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/memranges.c: the memory-map check that keeps table parsers off unmapped addresses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "efi/fw/memranges.h"

static const struct memrange map[] = {
	{ 0x3000, 0x4000 },   /* unsorted on purpose */
	{ 0x1000, 0x2000 },
	{ 0x2000, 0x3000 },   /* adjacent: 0x1000..0x4000 is one span */
	{ 0x1800, 0x2800 },   /* overlapping */
	{ 0x8000, 0x9000 },   /* hole 0x4000..0x8000 */
};
#define N (int)(sizeof(map) / sizeof(map[0]))

static void test_inside_and_spanning(void **state)
{
	(void)state;
	assert_true(memranges_cover(map, N, 0x1000, 1));
	assert_true(memranges_cover(map, N, 0x1000, 0x3000));   /* spans three ranges exactly */
	assert_true(memranges_cover(map, N, 0x1ff0, 0x20));     /* straddles a boundary */
	assert_true(memranges_cover(map, N, 0x8000, 0x1000));
}

static void test_outside_holes_and_edges(void **state)
{
	(void)state;
	assert_false(memranges_cover(map, N, 0x0fff, 2));       /* starts before */
	assert_false(memranges_cover(map, N, 0x3fff, 2));       /* runs into the hole */
	assert_false(memranges_cover(map, N, 0x4000, 1));
	assert_false(memranges_cover(map, N, 0x1000, 0x8000));  /* across the hole */
	assert_false(memranges_cover(map, N, 0x9000, 1));       /* end is exclusive */
	assert_false(memranges_cover(map, N, 0x1000, 0));       /* empty window */
	assert_false(memranges_cover(map, N, UINT64_MAX - 1, 4)); /* overflow */
	assert_false(memranges_cover(map, 0, 0x1000, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inside_and_spanning),
		cmocka_unit_test(test_outside_holes_and_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
