/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/blockio_target.c: the `dma_write_lba` setting, against its contract in
 * efi/blockio_target.h: "none", "BDF FIRST-LAST" and "BDF N" with decimal and 0x-hex block
 * numbers up to BLOCKIO_LBA_MAX, the PCI function packed as CFG_BDF() (efi/config.h) packs it,
 * the disk of the function ("BDF/nsN": NVMe NSIDs 1..FFFFFFFEh, NVMe 2.0 3.2.1; "BDF/portN":
 * the UINT16 HBA port number of UEFI 2.10 10.3.4.6), and every rejected shape with its exact
 * message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/blockio_target.h"
#include "efi/config/config.h"

#define SHAPE "none, or 'BDF[/nsN|/portN] FIRST-LAST' such as '0000:00:07.0 2048-4095'"
#define NOT_UNIT(v) "'" v "' is not a disk of the function (expected nsN, an NVMe namespace 1..4294967294, or " \
	"portN, a SATA port 0..65535)"
#define EXPECTED "expected " SHAPE
#define NOT_BDF(v) "'" v "' is not a PCI function (expected " SHAPE ")"
#define NOT_RANGE(v) "'" v "' is not a block range FIRST-LAST (decimal or 0x hex; expected " SHAPE ")"

static struct blockio_target t;
static char msg[256];

static void expect_target(const char *v, uint64_t bdf, uint64_t first, uint64_t last)
{
	memset(&t, 0x5a, sizeof(t));
	msg[0] = 0;
	if (blockio_target_parse(v, strlen(v), &t, msg, sizeof(msg)) != 0)
		fail_msg("'%s' rejected: %s", v, msg);
	assert_int_equal(t.set, 1);
	assert_true(t.bdf == bdf);
	assert_true(t.first == first);
	assert_true(t.last == last);
}

static void expect_rejected(const char *v, const char *message)
{
	memset(&t, 0x5a, sizeof(t));
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = 0;
	if (blockio_target_parse(v, strlen(v), &t, msg, sizeof(msg)) != -1)
		fail_msg("'%s' was accepted", v);
	assert_string_equal(msg, message);
	assert_int_equal(t.set, 0);                 /* never a half-set target */
}

static void test_none(void **state)
{
	(void)state;
	static const char *const nones[] = { "none", "  none", "none\t", " \tnone \t" };
	for (size_t i = 0; i < sizeof(nones) / sizeof(nones[0]); i++) {
		memset(&t, 0x5a, sizeof(t));
		assert_int_equal(blockio_target_parse(nones[i], strlen(nones[i]), &t, msg, sizeof(msg)), 0);
		assert_int_equal(t.set, 0);
		assert_true(t.bdf == 0 && t.first == 0 && t.last == 0);
	}
	/* only len bytes are read: "nonesuch" cut to "none" */
	assert_int_equal(blockio_target_parse("nonesuch", 4, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.set, 0);
	expect_rejected("None", EXPECTED);
	expect_rejected("nonesuch", EXPECTED);
	expect_rejected("none 5", NOT_BDF("none"));
}

static void test_forms(void **state)
{
	(void)state;
	expect_target("0000:00:07.0 2048-4095", CFG_BDF(0, 0, 7, 0), 2048, 4095);
	expect_target("00:07.0 0x800-0xFFF", CFG_BDF(0, 0, 7, 0), 0x800, 0xfff);
	expect_target("00:07.0 5", CFG_BDF(0, 0, 7, 0), 5, 5);                    /* a single block */
	expect_target("00:07.0 0", CFG_BDF(0, 0, 7, 0), 0, 0);
	expect_target("00:07.0 0-0", CFG_BDF(0, 0, 7, 0), 0, 0);
	expect_target("00:07.0 7-7", CFG_BDF(0, 0, 7, 0), 7, 7);
	expect_target("000a:e0:1f.7 1-2", CFG_BDF(0xa, 0xe0, 0x1f, 7), 1, 2);
	expect_target("FFFF:FF:1F.7 1-2", CFG_BDF(0xffff, 0xff, 0x1f, 7), 1, 2);
	expect_target("3b:00.1 0X10-0xaBc", CFG_BDF(0, 0x3b, 0, 1), 0x10, 0xabc);
	expect_target("00:07.0 0x10-100", CFG_BDF(0, 0, 7, 0), 16, 100);          /* hex and decimal mixed */
	expect_target("00:07.0 16-0x64", CFG_BDF(0, 0, 7, 0), 16, 100);
	expect_target("00:07.0 0x0", CFG_BDF(0, 0, 7, 0), 0, 0);
	expect_target("00:07.0 00010-0012", CFG_BDF(0, 0, 7, 0), 10, 12);         /* leading zeros: decimal */
	expect_target("00:07.0\t2048-4095", CFG_BDF(0, 0, 7, 0), 2048, 4095);     /* tab separator */
	expect_target("  00:07.0  \t  2048-4095 \t", CFG_BDF(0, 0, 7, 0), 2048, 4095);
	/* only len bytes are read */
	memset(&t, 0, sizeof(t));
	assert_int_equal(blockio_target_parse("00:07.0 123456", 11, &t, msg, sizeof(msg)), 0);
	assert_int_equal(t.set, 1);
	assert_true(t.first == 123 && t.last == 123);
}

static void test_limits(void **state)
{
	(void)state;
	expect_target("00:07.0 0-9223372036854775807", CFG_BDF(0, 0, 7, 0), 0, BLOCKIO_LBA_MAX);
	expect_target("00:07.0 0x7FFFFFFFFFFFFFFF", CFG_BDF(0, 0, 7, 0), BLOCKIO_LBA_MAX, BLOCKIO_LBA_MAX);
	expect_target("00:07.0 9223372036854775806-0x7fffffffffffffff", CFG_BDF(0, 0, 7, 0), BLOCKIO_LBA_MAX - 1,
		      BLOCKIO_LBA_MAX);
	expect_target("00:07.0 0x00000000000000000001", CFG_BDF(0, 0, 7, 0), 1, 1);  /* long, small */
	expect_rejected("00:07.0 9223372036854775808", NOT_RANGE("9223372036854775808"));
	expect_rejected("00:07.0 0-9223372036854775808", NOT_RANGE("0-9223372036854775808"));
	expect_rejected("00:07.0 0x8000000000000000", NOT_RANGE("0x8000000000000000"));
	expect_rejected("00:07.0 18446744073709551615", NOT_RANGE("18446744073709551615"));
	expect_rejected("00:07.0 18446744073709551616", NOT_RANGE("18446744073709551616"));  /* wraps 64 bits */
	expect_rejected("00:07.0 0x10000000000000000", NOT_RANGE("0x10000000000000000"));
	/* a long range is shown cut to 24 characters */
	expect_rejected("00:07.0 0-99999999999999999999999999", NOT_RANGE("0-9999999999999999999999"));
}

static void test_missing_range(void **state)
{
	(void)state;
	expect_rejected("00:07.0", EXPECTED);
	expect_rejected("0000:00:07.0", EXPECTED);
	expect_rejected("00:07.0   \t", EXPECTED);   /* blanks after it are trimmed */
	expect_rejected("", EXPECTED);
	expect_rejected("   ", EXPECTED);
	expect_rejected("2048-4095", EXPECTED);
}

static void test_bad_bdf(void **state)
{
	(void)state;
	expect_rejected("00:20.0 5", NOT_BDF("00:20.0"));          /* device 0x20 > 0x1f */
	expect_rejected("00:07.8 5", NOT_BDF("00:07.8"));          /* function 8 > 7 */
	expect_rejected("100:07.0 5", NOT_BDF("100:07.0"));        /* bus 0x100 > 0xff */
	expect_rejected("10000:00:07.0 5", NOT_BDF("10000:00:07.0"));
	expect_rejected("00:07 5", NOT_BDF("00:07"));
	expect_rejected("0x00:07.0 5", NOT_BDF("0x00:07.0"));
	expect_rejected("00:07.0,5", EXPECTED);                    /* no blank: one word */
	expect_rejected("00:07.0-5 6", NOT_BDF("00:07.0-5"));
	/* a long first word is shown cut to 16 characters */
	expect_rejected("0000:00:07.0:0:0:0 5", NOT_BDF("0000:00:07.0:0:0"));
}

static void test_bad_range(void **state)
{
	(void)state;
	expect_rejected("00:07.0 4095-2048", "block range runs backwards (4095-2048)");
	expect_rejected("00:07.0 0x1000-0xfff", "block range runs backwards (4096-4095)");
	expect_rejected("00:07.0 5-", NOT_RANGE("5-"));
	expect_rejected("00:07.0 -5", NOT_RANGE("-5"));
	expect_rejected("00:07.0 -", NOT_RANGE("-"));
	expect_rejected("00:07.0 1-2-3", NOT_RANGE("1-2-3"));
	expect_rejected("00:07.0 1 2", NOT_RANGE("1 2"));
	expect_rejected("00:07.0 1 - 2", NOT_RANGE("1 - 2"));
	expect_rejected("00:07.0 2048-4095 8", NOT_RANGE("2048-4095 8"));
	expect_rejected("00:07.0 0x", NOT_RANGE("0x"));
	expect_rejected("00:07.0 0x-5", NOT_RANGE("0x-5"));
	expect_rejected("00:07.0 5-0x", NOT_RANGE("5-0x"));
	expect_rejected("00:07.0 0xg", NOT_RANGE("0xg"));
	expect_rejected("00:07.0 abc", NOT_RANGE("abc"));            /* hex digits need 0x */
	expect_rejected("00:07.0 1e3", NOT_RANGE("1e3"));
	expect_rejected("00:07.0 12K", NOT_RANGE("12K"));
	expect_rejected("00:07.0 +5", NOT_RANGE("+5"));
	expect_rejected("00:07.0 5,6", NOT_RANGE("5,6"));
	expect_rejected("00:07.0 0x0x5", NOT_RANGE("0x0x5"));
}

static void expect_unit(const char *v, uint64_t bdf, enum blockio_unit unit, uint32_t no)
{
	expect_target(v, bdf, 2048, 4095);
	assert_int_equal(t.unit, unit);
	assert_int_equal(t.unit_no, no);
}

static void test_units(void **state)
{
	(void)state;
	expect_unit("0000:01:00.0 2048-4095", CFG_BDF(0, 1, 0, 0), BLOCKIO_UNIT_ANY, 0);
	expect_unit("0000:01:00.0/ns2 2048-4095", CFG_BDF(0, 1, 0, 0), BLOCKIO_UNIT_NS, 2);
	expect_unit("01:00.0/ns1 2048-4095", CFG_BDF(0, 1, 0, 0), BLOCKIO_UNIT_NS, 1);
	expect_unit("01:00.0/ns4294967294 2048-4095", CFG_BDF(0, 1, 0, 0), BLOCKIO_UNIT_NS, 0xFFFFFFFEu);
	expect_unit("00:1f.2/port0 2048-4095", CFG_BDF(0, 0, 0x1f, 2), BLOCKIO_UNIT_PORT, 0);
	expect_unit("00:1f.2/port5 2048-4095", CFG_BDF(0, 0, 0x1f, 2), BLOCKIO_UNIT_PORT, 5);
	expect_unit("00:1f.2/port65535 2048-4095", CFG_BDF(0, 0, 0x1f, 2), BLOCKIO_UNIT_PORT, 65535);
	expect_rejected("01:00.0/ns0 5", NOT_UNIT("ns0"));                   /* NSID 0 is no namespace */
	expect_rejected("01:00.0/ns4294967295 5", NOT_UNIT("ns4294967295")); /* FFFFFFFFh: broadcast */
	expect_rejected("00:1f.2/port65536 5", NOT_UNIT("port65536"));
	expect_rejected("01:00.0/ns 5", NOT_UNIT("ns"));
	expect_rejected("01:00.0/port 5", NOT_UNIT("port"));
	expect_rejected("01:00.0/ 5", NOT_UNIT(""));
	expect_rejected("01:00.0/lun1 5", NOT_UNIT("lun1"));
	expect_rejected("01:00.0/ns-1 5", NOT_UNIT("ns-1"));
	expect_rejected("01:00.0/NS2 5", NOT_UNIT("NS2"));
	expect_rejected("01:00.0/ns2/port1 5", NOT_UNIT("ns2/port1"));
	expect_rejected("01:00.0/ns2", EXPECTED);                           /* still needs the range */
	expect_rejected("01:00.0x/ns2 5", NOT_BDF("01:00.0x"));
}

static void test_message_bounds(void **state)
{
	char small[12];
	(void)state;
	memset(small, 'x', sizeof(small));
	assert_int_equal(blockio_target_parse("00:07.0", 7, &t, small, 9), -1);
	assert_string_equal(small, "expected");
	assert_int_equal(small[9], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_missing_range),
		cmocka_unit_test(test_bad_bdf),
		cmocka_unit_test(test_bad_range),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_message_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
