/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/cpuset.c: the `cpus` setting, against its contract in efi/cpuset.h. Parsing: every
 * accepted shape (boot, all, N, N-M, socketN, mixed lists, blanks) with its exact items, and
 * every rejected one with its exact message naming the offending item (bad numbers, ranges that
 * run backwards, empty items, too many items, numbers above CPUSET_MAX_CPU). Resolving: the
 * exact CPU list on hand-made topologies (disabled CPUs, two packages, no MP services), dedupe
 * and ascending order, and each run-time error naming the CPU or socket.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/cpuset.h"

#define MSG_BYTES 256
#define OUT_MAX 64
#define CANARY 0xdeadbeefu
#define NUMBERS "(numbers 0..65535)"
#define NOT_CPU(item) "'" item "' is not a CPU number, a range N-M or socketN " NUMBERS
#define NOT_SOCKET(item) "'" item "' is not socketN (N a package number 0..65535)"
#define EMPTY_AT(pos) "empty item at character " pos " (items are separated by single commas)"

static char msg[MSG_BYTES];
static struct cpuset set;
static uint32_t out[OUT_MAX + 1];

/* 8 CPUs, 0-3 in package 0 and 4-7 in package 1, all enabled, boot CPU 0. */
static const struct cpu_desc two_sockets[8] = {
	{ 0x00, 0, 1 }, { 0x02, 0, 1 }, { 0x04, 0, 1 }, { 0x06, 0, 1 },
	{ 0x20, 1, 1 }, { 0x22, 1, 1 }, { 0x24, 1, 1 }, { 0x26, 1, 1 },
};
static const struct cpuset_topo topo8 = { 8, 0, two_sockets };

/* The same machine with CPUs 3 and 6 disabled, boot CPU 2. */
static const struct cpu_desc holes[8] = {
	{ 0x00, 0, 1 }, { 0x02, 0, 1 }, { 0x04, 0, 1 }, { 0x06, 0, 0 },
	{ 0x20, 1, 1 }, { 0x22, 1, 1 }, { 0x24, 1, 0 }, { 0x26, 1, 1 },
};
static const struct cpuset_topo topo_holes = { 8, 2, holes };

/* Only the count is known (no MP services): 4 CPUs, all package 0, boot CPU 1. */
static const struct cpuset_topo topo_count = { 4, 1, NULL };

static void parse_ok(const char *s)
{
	memset(&set, 0x5a, sizeof(set));
	msg[0] = 0;
	if (cpuset_parse(s, strlen(s), &set, msg, sizeof(msg)) != 0)
		fail_msg("'%s' rejected: %s", s, msg);
}

static void expect_parse_error(const char *s, const char *message)
{
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = 0;
	if (cpuset_parse(s, strlen(s), &set, msg, sizeof(msg)) != -1)
		fail_msg("'%s' was accepted", s);
	assert_string_equal(msg, message);
}

static void expect_item(int i, uint32_t first, uint32_t last, int socket)
{
	assert_true(i < set.n);
	assert_int_equal(set.item[i].first, first);
	assert_int_equal(set.item[i].last, last);
	assert_int_equal(set.item[i].socket, socket);
}

/* Parses s and resolves it on topo with room for max CPUs; returns the count or -1. */
static int resolve(const char *s, const struct cpuset_topo *topo, int max)
{
	parse_ok(s);
	for (int i = 0; i <= OUT_MAX; i++)
		out[i] = CANARY;
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = 0;
	return cpuset_resolve(&set, topo, out, max, msg, sizeof(msg));
}

/* s on topo resolves to exactly cpus[0..n-1], and nothing past them is written. */
static void expect_cpus(const char *s, const struct cpuset_topo *topo, const uint32_t *cpus, int n)
{
	int got = resolve(s, topo, OUT_MAX);
	if (got != n)
		fail_msg("'%s': %d CPUs, expected %d (%s)", s, got, n, got < 0 ? msg : "");
	for (int i = 0; i < n; i++)
		if (out[i] != cpus[i])
			fail_msg("'%s': CPU %d is %u, expected %u", s, i, out[i], cpus[i]);
	assert_int_equal(out[n], CANARY);
}

static void expect_resolve_error(const char *s, const struct cpuset_topo *topo, int max, const char *message)
{
	int got = resolve(s, topo, max);
	if (got != -1)
		fail_msg("'%s' resolved to %d CPUs", s, got);
	assert_string_equal(msg, message);
}

#define CPUS(...) (const uint32_t[]){ __VA_ARGS__ }, (int)(sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

/* ---- parsing ------------------------------------------------------------------------------- */

static void test_parse_words(void **state)
{
	(void)state;
	parse_ok("boot");
	assert_int_equal(set.kind, CPUSET_BOOT);
	assert_int_equal(set.n, 0);
	parse_ok("all");
	assert_int_equal(set.kind, CPUSET_ALL);
	assert_int_equal(set.n, 0);
	parse_ok(" \tboot\t ");                     /* blanks around are trimmed */
	assert_int_equal(set.kind, CPUSET_BOOT);
	parse_ok("  all");
	assert_int_equal(set.kind, CPUSET_ALL);
	/* only len bytes are read: "bootx" cut to "boot" */
	memset(&set, 0, sizeof(set));
	assert_int_equal(cpuset_parse("bootx", 4, &set, msg, sizeof(msg)), 0);
	assert_int_equal(set.kind, CPUSET_BOOT);
	/* the words are exact and lower case, and never items of a list */
	expect_parse_error("Boot", NOT_CPU("Boot"));
	expect_parse_error("ALL", NOT_CPU("ALL"));
	expect_parse_error("boots", NOT_CPU("boots"));
	expect_parse_error("boot,1", NOT_CPU("boot"));
	expect_parse_error("1,all", NOT_CPU("all"));
	expect_parse_error("b oot", NOT_CPU("b oot"));
}

static void test_parse_numbers_and_ranges(void **state)
{
	(void)state;
	parse_ok("0,2,5");
	assert_int_equal(set.kind, CPUSET_LIST);
	assert_int_equal(set.n, 3);
	expect_item(0, 0, 0, 0);
	expect_item(1, 2, 2, 0);
	expect_item(2, 5, 5, 0);

	parse_ok("4-7");
	assert_int_equal(set.kind, CPUSET_LIST);
	assert_int_equal(set.n, 1);
	expect_item(0, 4, 7, 0);

	parse_ok("3");
	assert_int_equal(set.n, 1);
	expect_item(0, 3, 3, 0);

	parse_ok("5-5");                           /* a one-CPU range */
	assert_int_equal(set.n, 1);
	expect_item(0, 5, 5, 0);

	parse_ok("007,0-0010");                    /* leading zeros are decimal, not octal */
	assert_int_equal(set.n, 2);
	expect_item(0, 7, 7, 0);
	expect_item(1, 0, 10, 0);

	parse_ok("65535,0-65535");                 /* CPUSET_MAX_CPU itself */
	assert_int_equal(set.n, 2);
	expect_item(0, 65535, 65535, 0);
	expect_item(1, 0, 65535, 0);

	parse_ok("  1 ,\t2-3 , 4\t");              /* blanks around items and the list */
	assert_int_equal(set.n, 3);
	expect_item(0, 1, 1, 0);
	expect_item(1, 2, 3, 0);
	expect_item(2, 4, 4, 0);

	parse_ok("3,1-2,2");                       /* kept as written: order and overlap */
	assert_int_equal(set.n, 3);
	expect_item(0, 3, 3, 0);
	expect_item(1, 1, 2, 0);
	expect_item(2, 2, 2, 0);

	/* only len bytes are read */
	memset(&set, 0, sizeof(set));
	assert_int_equal(cpuset_parse("0-12", 3, &set, msg, sizeof(msg)), 0);
	assert_int_equal(set.n, 1);
	expect_item(0, 0, 1, 0);
}

static void test_parse_sockets_and_mixed(void **state)
{
	(void)state;
	parse_ok("socket1");
	assert_int_equal(set.kind, CPUSET_LIST);
	assert_int_equal(set.n, 1);
	expect_item(0, 1, 1, 1);

	parse_ok("socket0");
	assert_int_equal(set.n, 1);
	expect_item(0, 0, 0, 1);

	parse_ok("socket65535");
	expect_item(0, 65535, 65535, 1);

	parse_ok("socket0,9,12-13");               /* the header's example */
	assert_int_equal(set.n, 3);
	expect_item(0, 0, 0, 1);
	expect_item(1, 9, 9, 0);
	expect_item(2, 12, 13, 0);

	parse_ok("0,2, socket1");
	assert_int_equal(set.n, 3);
	expect_item(0, 0, 0, 0);
	expect_item(1, 2, 2, 0);
	expect_item(2, 1, 1, 1);

	parse_ok("socket1,socket1,1");             /* a package number is not a CPU number */
	assert_int_equal(set.n, 3);
	expect_item(0, 1, 1, 1);
	expect_item(1, 1, 1, 1);
	expect_item(2, 1, 1, 0);
}

static void test_parse_bad_items(void **state)
{
	(void)state;
	expect_parse_error("1-", NOT_CPU("1-"));
	expect_parse_error("-3", NOT_CPU("-3"));
	expect_parse_error("-", NOT_CPU("-"));
	expect_parse_error("1-2-3", NOT_CPU("1-2-3"));
	expect_parse_error("1 2", NOT_CPU("1 2"));
	expect_parse_error("1 - 2", NOT_CPU("1 - 2"));
	expect_parse_error("1;2", NOT_CPU("1;2"));
	expect_parse_error("0x3", NOT_CPU("0x3"));
	expect_parse_error("+1", NOT_CPU("+1"));
	expect_parse_error("cpu3", NOT_CPU("cpu3"));
	expect_parse_error("socket", NOT_CPU("socket"));        /* no package number */
	expect_parse_error("Socket1", NOT_CPU("Socket1"));
	expect_parse_error("0,2,x5,6", NOT_CPU("x5"));          /* names the bad item, not the list */
	expect_parse_error("socketx", NOT_SOCKET("socketx"));
	expect_parse_error("socket-1", NOT_SOCKET("socket-1"));
	expect_parse_error("socket 1", NOT_SOCKET("socket 1"));
	expect_parse_error("socket1-3", NOT_SOCKET("socket1-3"));
	expect_parse_error("socket0x1", NOT_SOCKET("socket0x1"));
	/* an item longer than 24 characters is shown cut */
	expect_parse_error("1,abcdefghijklmnopqrstuvwxyz0123", NOT_CPU("abcdefghijklmnopqrstuvwx"));
	expect_parse_error("socketabcdefghijklmnopqrstuvwxyz", NOT_SOCKET("socketabcdefghijklmnopqr"));
}

static void test_parse_backwards(void **state)
{
	(void)state;
	expect_parse_error("7-4", "range '7-4' runs backwards (write 4-7)");
	expect_parse_error("0,2, 10-9 ,12", "range '10-9' runs backwards (write 9-10)");
	expect_parse_error("65535-0", "range '65535-0' runs backwards (write 0-65535)");
}

static void test_parse_above_max_cpu(void **state)
{
	(void)state;
	expect_parse_error("65536", NOT_CPU("65536"));
	expect_parse_error("0-65536", NOT_CPU("0-65536"));
	expect_parse_error("65536-65537", NOT_CPU("65536-65537"));
	expect_parse_error("1,70000", NOT_CPU("70000"));
	expect_parse_error("4294967296", NOT_CPU("4294967296"));            /* would wrap 32 bits */
	expect_parse_error("99999999999999999999", NOT_CPU("99999999999999999999"));
	expect_parse_error("socket65536", NOT_SOCKET("socket65536"));
	expect_parse_error("socket4294967297", NOT_SOCKET("socket4294967297"));
}

static void test_parse_empty(void **state)
{
	(void)state;
	static const char *const none[] = { "", " ", "\t \t" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		expect_parse_error(none[i], "no CPUs given (accepted: boot, all, or a list like 0,2,5 4-7 socket1)");
	expect_parse_error("1,,2", EMPTY_AT("3"));
	expect_parse_error("1,", EMPTY_AT("3"));                  /* trailing comma */
	expect_parse_error("1,2, ", EMPTY_AT("5"));               /* trailing comma, then blanks (trimmed) */
	expect_parse_error(",1", EMPTY_AT("1"));                  /* leading comma */
	expect_parse_error(",", EMPTY_AT("1"));
	expect_parse_error("0-3, ,5", EMPTY_AT("5"));             /* a blank item is empty */
	expect_parse_error("0-3,\t,5", EMPTY_AT("5"));
	expect_parse_error("10,11,,", EMPTY_AT("7"));             /* the first empty one is named */
}

static void test_parse_item_limit(void **state)
{
	char list[4 * (CPUSET_MAX_ITEMS + 2)] = "";
	char num[8];
	(void)state;
	for (int i = 0; i < CPUSET_MAX_ITEMS; i++) {
		snprintf(num, sizeof(num), "%s%d", i ? "," : "", i * 2);
		strcat(list, num);
	}
	parse_ok(list);                             /* exactly CPUSET_MAX_ITEMS */
	assert_int_equal(set.n, CPUSET_MAX_ITEMS);
	for (int i = 0; i < CPUSET_MAX_ITEMS; i++)
		expect_item(i, (uint32_t)i * 2, (uint32_t)i * 2, 0);
	strcat(list, ",1");                         /* one more */
	expect_parse_error(list, "more than 32 items (use ranges N-M)");
	strcat(list, ",3");
	expect_parse_error(list, "more than 32 items (use ranges N-M)");
}

static void test_parse_message_bounds(void **state)
{
	char small[17];
	(void)state;
	memset(small, 'x', sizeof(small));
	assert_int_equal(cpuset_parse("1-", 2, &set, small, 12), -1);
	assert_string_equal(small, "'1-' is not");        /* cut at msgsz - 1, terminated */
	assert_int_equal(small[12], 'x');                  /* nothing written past msgsz */
	memset(small, 'x', sizeof(small));
	assert_int_equal(cpuset_parse("7-4", 3, &set, small, 1), -1);
	assert_int_equal(small[0], 0);
	assert_int_equal(small[1], 'x');
}

/* ---- resolving ----------------------------------------------------------------------------- */

static void test_resolve_boot(void **state)
{
	(void)state;
	expect_cpus("boot", &topo8, CPUS(0));
	expect_cpus("boot", &topo_holes, CPUS(2));          /* the bsp, not CPU 0 */
	expect_cpus("boot", &topo_count, CPUS(1));
	assert_int_equal(resolve("boot", &topo_holes, 1), 1);  /* room for exactly one */
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], CANARY);
}

static void test_resolve_all(void **state)
{
	(void)state;
	expect_cpus("all", &topo8, CPUS(0, 1, 2, 3, 4, 5, 6, 7));
	expect_cpus("all", &topo_holes, CPUS(0, 1, 2, 4, 5, 7));  /* disabled 3 and 6 skipped */
	expect_cpus("all", &topo_count, CPUS(0, 1, 2, 3));
	static const struct cpu_desc one_on[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 1 } };
	static const struct cpuset_topo t = { 3, 2, one_on };
	expect_cpus("all", &t, CPUS(2));
}

static void test_resolve_lists(void **state)
{
	(void)state;
	expect_cpus("0,2,5", &topo8, CPUS(0, 2, 5));
	expect_cpus("4-7", &topo8, CPUS(4, 5, 6, 7));
	expect_cpus("3,1-2,2", &topo8, CPUS(1, 2, 3));          /* deduped, ascending */
	expect_cpus("7,0", &topo8, CPUS(0, 7));
	expect_cpus("5-7,0-6,6", &topo8, CPUS(0, 1, 2, 3, 4, 5, 6, 7));
	expect_cpus("0-7", &topo8, CPUS(0, 1, 2, 3, 4, 5, 6, 7));
	expect_cpus("1,1,1", &topo8, CPUS(1));
	expect_cpus("7", &topo8, CPUS(7));                       /* the last CPU */
	expect_cpus("0-2,4-5,7", &topo_holes, CPUS(0, 1, 2, 4, 5, 7));
	expect_cpus("2-3", &topo_count, CPUS(2, 3));
}

static void test_resolve_sockets(void **state)
{
	(void)state;
	expect_cpus("socket0", &topo8, CPUS(0, 1, 2, 3));
	expect_cpus("socket1", &topo8, CPUS(4, 5, 6, 7));
	expect_cpus("socket1", &topo_holes, CPUS(4, 5, 7));     /* disabled 6 skipped, no error */
	expect_cpus("socket0", &topo_holes, CPUS(0, 1, 2));
	expect_cpus("socket1,0", &topo8, CPUS(0, 4, 5, 6, 7));
	expect_cpus("socket0,6", &topo8, CPUS(0, 1, 2, 3, 6));
	expect_cpus("socket1,4-5", &topo8, CPUS(4, 5, 6, 7));   /* overlap deduped */
	expect_cpus("socket1,socket0", &topo8, CPUS(0, 1, 2, 3, 4, 5, 6, 7));
	/* packages numbered sparsely and out of CPU order */
	static const struct cpu_desc sparse[5] = {
		{ 0, 7, 1 }, { 1, 2, 1 }, { 2, 7, 1 }, { 3, 2, 1 }, { 4, 7, 0 },
	};
	static const struct cpuset_topo t = { 5, 0, sparse };
	expect_cpus("socket7", &t, CPUS(0, 2));
	expect_cpus("socket2", &t, CPUS(1, 3));
	expect_cpus("socket2,0", &t, CPUS(0, 1, 3));
}

static void test_resolve_count_only(void **state)
{
	(void)state;
	/* cpu == NULL: every CPU enabled and in package 0 */
	expect_cpus("socket0", &topo_count, CPUS(0, 1, 2, 3));
	expect_cpus("socket0,1", &topo_count, CPUS(0, 1, 2, 3));
	expect_resolve_error("socket1", &topo_count, OUT_MAX,
			     "socket1: no enabled CPU is in package 1 (packages here: 0)");
	expect_resolve_error("4", &topo_count, OUT_MAX,
			     "CPU 4 does not exist (the firmware knows CPUs 0..3; it has no MP services)");
	expect_resolve_error("2-5", &topo_count, OUT_MAX,
			     "CPU 4 does not exist (the firmware knows CPUs 0..3; it has no MP services)");
}

static void test_resolve_missing_cpu(void **state)
{
	(void)state;
	expect_resolve_error("9", &topo8, OUT_MAX, "CPU 9 does not exist (the firmware knows CPUs 0..7)");
	expect_resolve_error("8", &topo8, OUT_MAX, "CPU 8 does not exist (the firmware knows CPUs 0..7)");
	expect_resolve_error("0,1,20", &topo8, OUT_MAX, "CPU 20 does not exist (the firmware knows CPUs 0..7)");
	/* a range running past the end names the first CPU that does not exist */
	expect_resolve_error("6-9", &topo8, OUT_MAX, "CPU 8 does not exist (the firmware knows CPUs 0..7)");
	expect_resolve_error("12-15", &topo8, OUT_MAX, "CPU 12 does not exist (the firmware knows CPUs 0..7)");
	expect_resolve_error("0-65535", &topo8, OUT_MAX, "CPU 8 does not exist (the firmware knows CPUs 0..7)");
}

static void test_resolve_disabled(void **state)
{
	(void)state;
	expect_resolve_error("3", &topo_holes, OUT_MAX, "CPU 3 is disabled (MP services StatusFlag)");
	expect_resolve_error("0,6", &topo_holes, OUT_MAX, "CPU 6 is disabled (MP services StatusFlag)");
	expect_resolve_error("2-4", &topo_holes, OUT_MAX, "CPU 3 is disabled (MP services StatusFlag)");
	expect_resolve_error("0-7", &topo_holes, OUT_MAX, "CPU 3 is disabled (MP services StatusFlag)");
	expect_resolve_error("socket1,6", &topo_holes, OUT_MAX, "CPU 6 is disabled (MP services StatusFlag)");
	/* every CPU off: "all" selects nothing */
	static const struct cpu_desc off[2] = { { 0, 0, 0 }, { 1, 0, 0 } };
	static const struct cpuset_topo t = { 2, 0, off };
	expect_resolve_error("all", &t, OUT_MAX, "no enabled CPU selected");
}

static void test_resolve_missing_socket(void **state)
{
	(void)state;
	expect_resolve_error("socket3", &topo8, OUT_MAX, "socket3: no enabled CPU is in package 3 (packages here: 0, 1)");
	expect_resolve_error("0,socket2,1", &topo8, OUT_MAX,
			     "socket2: no enabled CPU is in package 2 (packages here: 0, 1)");
	/* a package whose CPUs are all disabled is not there */
	static const struct cpu_desc pk1_off[4] = { { 0, 0, 1 }, { 1, 0, 1 }, { 2, 1, 0 }, { 3, 1, 0 } };
	static const struct cpuset_topo t = { 4, 0, pk1_off };
	expect_resolve_error("socket1", &t, OUT_MAX, "socket1: no enabled CPU is in package 1 (packages here: 0)");
	expect_cpus("socket0", &t, CPUS(0, 1));
	/* more than 8 packages: the list is cut */
	struct cpu_desc many[10];
	for (uint32_t c = 0; c < 10; c++)
		many[c] = (struct cpu_desc){ c, c, c != 9 };
	struct cpuset_topo tm = { 10, 0, many };
	expect_resolve_error("socket9", &tm, OUT_MAX,
			     "socket9: no enabled CPU is in package 9 (packages here: 0, 1, 2, 3, 4, 5, 6, 7, ...)");
	expect_cpus("socket8", &tm, CPUS(8));
}

static void test_resolve_max(void **state)
{
	(void)state;
	expect_resolve_error("all", &topo8, 4, "more than 4 CPUs selected: one window runs at most 4 (name fewer)");
	for (int i = 4; i <= OUT_MAX; i++)
		assert_int_equal(out[i], CANARY);          /* nothing written past max */
	expect_resolve_error("socket1,0", &topo8, 4, "more than 4 CPUs selected: one window runs at most 4 (name fewer)");
	expect_resolve_error("0-7", &topo8, 7, "more than 7 CPUs selected: one window runs at most 7 (name fewer)");
	/* duplicates do not count twice against max */
	assert_int_equal(resolve("0-3,1-2,3,socket0", &topo8, 4), 4);
	assert_int_equal(out[3], 3);
	assert_int_equal(out[4], CANARY);
	assert_int_equal(resolve("all", &topo8, 8), 8);
	assert_int_equal(out[7], 7);
	assert_int_equal(out[8], CANARY);
	assert_int_equal(resolve("all", &topo_holes, 6), 6);  /* disabled CPUs take no room */
	expect_resolve_error("3", &topo8, 0, "more than 0 CPUs selected: one window runs at most 0 (name fewer)");
	/* boot selects one CPU, so it too needs room for one */
	expect_resolve_error("boot", &topo8, 0, "more than 0 CPUs selected: one window runs at most 0 (name fewer)");
	assert_int_equal(out[0], CANARY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_words),
		cmocka_unit_test(test_parse_numbers_and_ranges),
		cmocka_unit_test(test_parse_sockets_and_mixed),
		cmocka_unit_test(test_parse_bad_items),
		cmocka_unit_test(test_parse_backwards),
		cmocka_unit_test(test_parse_above_max_cpu),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_parse_item_limit),
		cmocka_unit_test(test_parse_message_bounds),
		cmocka_unit_test(test_resolve_boot),
		cmocka_unit_test(test_resolve_all),
		cmocka_unit_test(test_resolve_lists),
		cmocka_unit_test(test_resolve_sockets),
		cmocka_unit_test(test_resolve_count_only),
		cmocka_unit_test(test_resolve_missing_cpu),
		cmocka_unit_test(test_resolve_disabled),
		cmocka_unit_test(test_resolve_missing_socket),
		cmocka_unit_test(test_resolve_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
