/* SPDX-License-Identifier: BSD-2-Clause */
/* Typed config values: PCI functions (mmio_bdf, dma_engine: "SSSS:BB:DD.F", "BB:DD.F", "none";
 * device 0..0x1F and function 0..7, PCI Express Base 6.0 7.2.2) and text (cha_events,
 * core_events). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "tests/unit/cfg_json.h"

static struct efiperf_config cfg;
static struct cfg_errors errs;

static int parse(const char *text)
{
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	return cfg_parse_text(&cfg, text, strlen(text), "efiperf.cfg", &errs);
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(cfg.mmio_bdf, 0);  /* static storage before defaults */
	cfg_defaults(&cfg);
	assert_true(cfg.mmio_bdf == CFG_BDF_NONE && cfg.dma_engine == CFG_BDF_NONE);
	assert_int_equal(parse("mmio_bdf = 0000:00:04.0\n"), 0);
	assert_true(cfg.mmio_bdf == CFG_BDF(0, 0, 4, 0));
	assert_int_equal(parse("mmio_bdf = 1a:1F.7\n"), 0);      /* segment 0, hex, any case */
	assert_true(cfg.mmio_bdf == CFG_BDF(0, 0x1a, 0x1f, 7));
	assert_int_equal(parse("dma_engine = 000a:e0:00.0\n"), 0);
	assert_true(cfg.dma_engine == CFG_BDF(0xa, 0xe0, 0, 0));
	assert_int_equal(parse("dma_engine = none\n"), 0);
	assert_true(cfg.dma_engine == CFG_BDF_NONE);
}

static void test_rejects(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"mmio_bdf = 00:20.0\n",        /* device 0x20 > 0x1f */
		"mmio_bdf = 00:01.8\n",        /* function 8 > 7 */
		"mmio_bdf = 100:01.0\n",       /* bus 0x100 > 0xff */
		"mmio_bdf = 00:01\n",          /* no function */
		"mmio_bdf = 0:0:0:0.0\n",      /* too many fields */
		"mmio_bdf = 00.01:0\n",        /* separators swapped */
		"mmio_bdf = 0x00:01.0\n",      /* not hex digits only */
		"mmio_bdf = 10000:00:01.0\n",  /* segment > 0xffff */
		"mmio_bdf = \n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i]), 1);
		assert_string_equal(errs.e[0].key, "mmio_bdf");
		assert_string_equal(errs.e[0].where, "efiperf.cfg:1");
	}
	parse("mmio_bdf = 00:20.0\n");
	assert_string_equal(errs.e[0].message,
			    "'00:20.0' is not a PCI function (accepted: none, or a PCI function SSSS:BB:DD.F or BB:DD.F in hex)");
}

static void test_json_and_help(void **state)
{
	(void)state;
	char buf[8192];   /* the whole config object: 2048 bytes cut it short */
	parse("mmio_bdf = 0000:00:04.0\n");
	assert_true(cfg_json_record(&cfg, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "\"mmio_bdf\":\"0000:00:04.0\""));
	assert_non_null(strstr(buf, "\"dma_engine\":null"));
}

/* CFG_T_TEXT (cha_events, core_events): printable text kept as written, bounded. */
static void test_text(void **state)
{
	(void)state;
	assert_int_equal(parse("core_events = cpu/event=0xc0,umask=0x0/ INST_RETIRED.ANY_P # two\n"), 0);
	assert_string_equal(cfg.core_events, "cpu/event=0xc0,umask=0x0/ INST_RETIRED.ANY_P");
	assert_string_equal(cfg.cha_events, "");
	char line[400];
	memset(line, 'a', sizeof(line));
	memcpy(line, "cha_events = ", 13);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = 0;
	assert_int_equal(parse(line), 1);
	assert_string_equal(errs.e[0].key, "cha_events");
	assert_string_equal(errs.e[0].message, "value of 385 characters is longer than 255");
	assert_int_equal(parse("cha_events = a\x01b\n"), 1);
	assert_string_equal(errs.e[0].message, "character 2 is not printable ASCII");
	char *argv[] = { "core_events=cpu/event=0x3c/" };
	int help = 0;
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_args(&cfg, 1, argv, &help, &errs), 0);
	assert_string_equal(cfg.core_events, "cpu/event=0x3c/");
	assert_string_equal(cfg.origin[CFG_CORE_EVENTS], "argument 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_json_and_help),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
