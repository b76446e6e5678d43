/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efi/config.c, the command-line half: arguments over the file, --help, argument errors,
 * cfg_split_cmdline, the JSON record of the settings and the help text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "tests/unit/cfg_json.h"

#define FNAME "efiperf.cfg"
#define MAX_ARGS 16
#define KNOWN "unknown key (did you mean copy_size? --help lists every key)"

static struct efiperf_config cfg;
static struct cfg_errors errs;
static int help;

/* Parses args over fresh defaults (after an optional file text); returns argument errors. */
static int parse_args(const char *file, int argc, char *const argv[])
{
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	help = 0;
	if (file)
		assert_int_equal(cfg_parse_text(&cfg, file, strlen(file), FNAME, &errs), 0);
	return cfg_parse_args(&cfg, argc, argv, &help, &errs);
}

static void expect_error(int i, const char *where, const char *key, const char *message)
{
	assert_true(i < errs.count);
	assert_string_equal(errs.e[i].where, where);
	assert_string_equal(errs.e[i].key, key);
	assert_string_equal(errs.e[i].message, message);
}

static void test_args_override_file(void **state)
{
	char *const argv[] = { "copy_passes=9", "exit=reboot", "copy_size=1M" };
	(void)state;
	assert_int_equal(parse_args("copy_passes = 5\nexit = shutdown\nloop_iterations = 2000\n", 3, argv), 0);
	assert_int_equal(cfg.copy_passes, 9);
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_int_equal(cfg.copy_size, 1 << 20);
	assert_int_equal(cfg.loop_iterations, 2000);
	assert_string_equal(cfg.origin[CFG_COPY_PASSES], "argument 1");
	assert_string_equal(cfg.origin[CFG_EXIT], "argument 2");
	assert_string_equal(cfg.origin[CFG_COPY_SIZE], "argument 3");
	assert_string_equal(cfg.origin[CFG_LOOP_ITERATIONS], FNAME ":3");
	assert_string_equal(cfg.origin[CFG_TRACE], "default");
	assert_false(help);
}

static void test_help_flags(void **state)
{
	char *const a[] = { "--help" };
	char *const b[] = { "exit=reboot", "-h" };
	char *const c[] = { "--HELP" };
	(void)state;
	assert_int_equal(parse_args(NULL, 1, a), 0);
	assert_true(help);
	assert_int_equal(parse_args(NULL, 2, b), 0);
	assert_true(help);
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_int_equal(parse_args(NULL, 1, c), 1);
	assert_false(help);
	expect_error(0, "argument 1", "", "expected 'key=value' or --help");
	assert_int_equal(parse_args(NULL, 0, NULL), 0);
	cfg_defaults(&cfg);
	assert_int_equal(cfg_parse_args(&cfg, 1, a, NULL, NULL), 0);  /* no help flag wanted */
}

static void test_arg_errors(void **state)
{
	char *const argv[] = {
		"exit=reboot", "copy_size", "=5", "copy_sise=1", "copy_size=12Q", "copy_passes=",
		"", "trace=hw", "trace=none", "loop_iterations=999",
	};
	(void)state;
	assert_int_equal(parse_args(NULL, 10, argv), 8);
	expect_error(0, "argument 2", "", "expected 'key=value' or --help");
	expect_error(1, "argument 3", "", "expected 'key=value' or --help");
	expect_error(2, "argument 4", "copy_sise", KNOWN);
	expect_error(3, "argument 5", "copy_size", "'12Q' is not a size in bytes (e.g. 65536, 64K, 64M, 1G)");
	expect_error(4, "argument 6", "copy_passes", "missing value (accepted: 1..1000)");
	expect_error(5, "argument 7", "", "expected 'key=value' or --help");
	expect_error(6, "argument 9", "trace", "duplicate key (first set at argument 8)");
	expect_error(7, "argument 10", "loop_iterations", "'999' is out of range (accepted: 1000..1000000000)");
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_int_equal(cfg.trace, CFG_TRACE_HW);
	assert_int_equal(cfg.copy_size, 64 << 20);
	assert_string_equal(cfg.origin[CFG_COPY_SIZE], "default");
}

static void test_split_cmdline(void **state)
{
	char *argv[MAX_ARGS];
	(void)state;

	char l1[] = "  exit=shutdown\tcopy_size=1G  ";
	assert_int_equal(cfg_split_cmdline(l1, argv, MAX_ARGS), 2);
	assert_string_equal(argv[0], "exit=shutdown");
	assert_string_equal(argv[1], "copy_size=1G");

	char l2[] = "a \"b c\" d x\"y z\"w \"\"";
	assert_int_equal(cfg_split_cmdline(l2, argv, MAX_ARGS), 5);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b c");
	assert_string_equal(argv[2], "d");
	assert_string_equal(argv[3], "xy zw");
	assert_string_equal(argv[4], "");

	char l3[] = "one \"unterminated two";
	assert_int_equal(cfg_split_cmdline(l3, argv, MAX_ARGS), 2);
	assert_string_equal(argv[1], "unterminated two");

	char l4[] = "a b c d";
	assert_int_equal(cfg_split_cmdline(l4, argv, 2), 2);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b");

	char l5[] = " \t ";
	assert_int_equal(cfg_split_cmdline(l5, argv, MAX_ARGS), 0);
	char l6[] = "";
	assert_int_equal(cfg_split_cmdline(l6, argv, MAX_ARGS), 0);
	char l7[] = "x";
	assert_int_equal(cfg_split_cmdline(l7, argv, 0), 0);

	/* split + parse, as efi/ does with the shell's command line */
	char l8[] = "copy_passes=7 \"exit=reboot\" --help";
	int argc = cfg_split_cmdline(l8, argv, MAX_ARGS);
	assert_int_equal(argc, 3);
	assert_int_equal(parse_args(NULL, argc, argv), 0);
	assert_int_equal(cfg.copy_passes, 7);
	assert_int_equal(cfg.exit, CFG_EXIT_REBOOT);
	assert_true(help);

	/* quoted blanks around key and value are trimmed, as in the file */
	char l9[] = "\"  copy_passes = 8 \" \"loop_iterations= 0x3e8\"";
	argc = cfg_split_cmdline(l9, argv, MAX_ARGS);
	assert_int_equal(argc, 2);
	assert_int_equal(parse_args(NULL, argc, argv), 0);
	assert_int_equal(cfg.copy_passes, 8);
	assert_int_equal(cfg.loop_iterations, 1000);
}

static void to_json(char *buf, size_t n)
{
	assert_true(cfg_json_record(&cfg, buf, n));
}

static void test_json(void **state)
{
	char buf[4096];
	char *const argv[] = { "trace=hw", "copy_size=4K" };
	(void)state;
	cfg_defaults(&cfg);
	to_json(buf, sizeof(buf));
	assert_string_equal(buf,
		"{\"exit\":\"return\",\"trace\":\"none\",\"copy_size\":67108864,\"copy_passes\":3,"
		"\"loop_iterations\":10000000,\"pcie\":\"on\",\"cpus\":\"boot\",\"mmio_bdf\":null,\"mmio_bar\":0,\"mmio_bytes\":65536,\"mmio_write\":\"off\",\"dma_engine\":null,\"dma_blockio\":null,\"dma_bytes\":16777216,\"dma_write_lba\":\"none\",\"cha\":\"off\",\"cha_count\":0,\"cha_events\":\"\","
		"\"core_events\":\"\",\"topdown\":\"off\",\"ibs\":\"off\",\"ibs_period\":65536,\"ibs_count\":\"cycles\",\"stream\":\"off\",\"stream_size\":67108864,"
		"\"stream_passes\":5,\"kernel\":\"auto\",\"kernel_budget\":1000,\"latency\":\"off\",\"latency_max\":67108864,\"nvme\":\"none\",\"nvme_rw\":\"read\",\"nvme_bs\":\"4K,128K\",\"nvme_iodepth\":\"1,32\",\"nvme_size\":16777216,\"nvme_write_lba\":\"none\",\"uncore\":\"off\",\"uncore_events\":\"\",\"pcie_pmu_rp\":null,\"ddio_sweep\":\"none\",\"dma_cpu_traffic\":\"none\",\"c2c\":\"off\",\"c2c_rounds\":50,\"c2c_trips\":100,\"numa_matrix\":\"off\",\"numa_size\":67108864,\"cache_bw\":\"off\",\"cache_bw_passes\":10,\"cache_bw_dram\":0,\"loaded_latency\":\"off\",\"loaded_delays\":\"0,100,1000,10000\",\"loaded_size\":67108864,\"fault_test\":\"off\",\"cxl_decoders\":\"off\",\"aer_clear\":\"off\",\"collector\":\"none\",\"collector_token\":\"\",\"collector_wait\":30,"
		"\"check\":[],\"expect_link\":[],\"expect_no_downtrain\":[],\"expect_cpus\":[],\"expect_memory\":[],\"expect_microcode\":[],"
		"\"origin\":{\"exit\":\"default\",\"trace\":\"default\","
		"\"copy_size\":\"default\",\"copy_passes\":\"default\",\"loop_iterations\":\"default\","
		"\"pcie\":\"default\",\"cpus\":\"default\",\"mmio_bdf\":\"default\",\"mmio_bar\":\"default\","
		"\"mmio_bytes\":\"default\",\"mmio_write\":\"default\",\"dma_engine\":\"default\","
		"\"dma_blockio\":\"default\",\"dma_bytes\":\"default\",\"dma_write_lba\":\"default\",\"cha\":\"default\",\"cha_count\":\"default\",\"cha_events\":\"default\",\"core_events\":\"default\","
		"\"topdown\":\"default\",\"ibs\":\"default\",\"ibs_period\":\"default\",\"ibs_count\":\"default\","
		"\"stream\":\"default\",\"stream_size\":\"default\",\"stream_passes\":\"default\",\"kernel\":\"default\",\"kernel_budget\":\"default\",\"latency\":\"default\","
		"\"latency_max\":\"default\",\"nvme\":\"default\",\"nvme_rw\":\"default\",\"nvme_bs\":\"default\",\"nvme_iodepth\":\"default\","
		"\"nvme_size\":\"default\",\"nvme_write_lba\":\"default\",\"uncore\":\"default\",\"uncore_events\":\"default\",\"pcie_pmu_rp\":\"default\",\"ddio_sweep\":\"default\",\"dma_cpu_traffic\":\"default\",\"c2c\":\"default\",\"c2c_rounds\":\"default\",\"c2c_trips\":\"default\",\"numa_matrix\":\"default\",\"numa_size\":\"default\",\"cache_bw\":\"default\",\"cache_bw_passes\":\"default\",\"cache_bw_dram\":\"default\",\"loaded_latency\":\"default\",\"loaded_delays\":\"default\",\"loaded_size\":\"default\",\"fault_test\":\"default\",\"cxl_decoders\":\"default\",\"aer_clear\":\"default\",\"collector\":\"default\",\"collector_token\":\"default\",\"collector_wait\":\"default\","
		"\"check\":\"default\",\"expect_link\":\"default\",\"expect_no_downtrain\":\"default\","
		"\"expect_cpus\":\"default\",\"expect_memory\":\"default\",\"expect_microcode\":\"default\"}}");

	assert_int_equal(parse_args("exit = shutdown\n\ncopy_passes = 1000\npcie = off\n", 2, argv), 0);
	to_json(buf, sizeof(buf));
	assert_string_equal(buf,
		"{\"exit\":\"shutdown\",\"trace\":\"hw\",\"copy_size\":4096,\"copy_passes\":1000,"
		"\"loop_iterations\":10000000,\"pcie\":\"off\",\"cpus\":\"boot\",\"mmio_bdf\":null,\"mmio_bar\":0,\"mmio_bytes\":65536,\"mmio_write\":\"off\",\"dma_engine\":null,\"dma_blockio\":null,\"dma_bytes\":16777216,\"dma_write_lba\":\"none\",\"cha\":\"off\",\"cha_count\":0,\"cha_events\":\"\","
		"\"core_events\":\"\",\"topdown\":\"off\",\"ibs\":\"off\",\"ibs_period\":65536,\"ibs_count\":\"cycles\",\"stream\":\"off\",\"stream_size\":67108864,"
		"\"stream_passes\":5,\"kernel\":\"auto\",\"kernel_budget\":1000,\"latency\":\"off\",\"latency_max\":67108864,\"nvme\":\"none\",\"nvme_rw\":\"read\",\"nvme_bs\":\"4K,128K\",\"nvme_iodepth\":\"1,32\",\"nvme_size\":16777216,\"nvme_write_lba\":\"none\",\"uncore\":\"off\",\"uncore_events\":\"\",\"pcie_pmu_rp\":null,\"ddio_sweep\":\"none\",\"dma_cpu_traffic\":\"none\",\"c2c\":\"off\",\"c2c_rounds\":50,\"c2c_trips\":100,\"numa_matrix\":\"off\",\"numa_size\":67108864,\"cache_bw\":\"off\",\"cache_bw_passes\":10,\"cache_bw_dram\":0,\"loaded_latency\":\"off\",\"loaded_delays\":\"0,100,1000,10000\",\"loaded_size\":67108864,\"fault_test\":\"off\",\"cxl_decoders\":\"off\",\"aer_clear\":\"off\",\"collector\":\"none\",\"collector_token\":\"\",\"collector_wait\":30,"
		"\"check\":[],\"expect_link\":[],\"expect_no_downtrain\":[],\"expect_cpus\":[],\"expect_memory\":[],\"expect_microcode\":[],"
		"\"origin\":{\"exit\":\"efiperf.cfg:1\",\"trace\":\"argument 1\","
		"\"copy_size\":\"argument 2\",\"copy_passes\":\"efiperf.cfg:3\",\"loop_iterations\":\"default\","
		"\"pcie\":\"efiperf.cfg:4\",\"cpus\":\"default\",\"mmio_bdf\":\"default\",\"mmio_bar\":\"default\","
		"\"mmio_bytes\":\"default\",\"mmio_write\":\"default\",\"dma_engine\":\"default\","
		"\"dma_blockio\":\"default\",\"dma_bytes\":\"default\",\"dma_write_lba\":\"default\",\"cha\":\"default\",\"cha_count\":\"default\",\"cha_events\":\"default\",\"core_events\":\"default\","
		"\"topdown\":\"default\",\"ibs\":\"default\",\"ibs_period\":\"default\",\"ibs_count\":\"default\","
		"\"stream\":\"default\",\"stream_size\":\"default\",\"stream_passes\":\"default\",\"kernel\":\"default\",\"kernel_budget\":\"default\",\"latency\":\"default\","
		"\"latency_max\":\"default\",\"nvme\":\"default\",\"nvme_rw\":\"default\",\"nvme_bs\":\"default\",\"nvme_iodepth\":\"default\","
		"\"nvme_size\":\"default\",\"nvme_write_lba\":\"default\",\"uncore\":\"default\",\"uncore_events\":\"default\",\"pcie_pmu_rp\":\"default\",\"ddio_sweep\":\"default\",\"dma_cpu_traffic\":\"default\",\"c2c\":\"default\",\"c2c_rounds\":\"default\",\"c2c_trips\":\"default\",\"numa_matrix\":\"default\",\"numa_size\":\"default\",\"cache_bw\":\"default\",\"cache_bw_passes\":\"default\",\"cache_bw_dram\":\"default\",\"loaded_latency\":\"default\",\"loaded_delays\":\"default\",\"loaded_size\":\"default\",\"fault_test\":\"default\",\"cxl_decoders\":\"default\",\"aer_clear\":\"default\",\"collector\":\"default\",\"collector_token\":\"default\",\"collector_wait\":\"default\","
		"\"check\":\"default\",\"expect_link\":\"default\",\"expect_no_downtrain\":\"default\","
		"\"expect_cpus\":\"default\",\"expect_memory\":\"default\",\"expect_microcode\":\"default\"}}");

	/* topdown's third value, and a bad one named with its line */
	assert_int_equal(parse_args("copy_passes = 2\ntopdown = l2\n", 0, NULL), 0);
	assert_int_equal(cfg.topdown, 2);
	to_json(buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"topdown\":\"l2\","));
	assert_non_null(strstr(buf, "\"topdown\":\"efiperf.cfg:2\","));
	cfg_defaults(&cfg);
	memset(&errs, 0, sizeof(errs));
	assert_int_equal(cfg_parse_text(&cfg, "\ntopdown = l3\n", 14, FNAME, &errs), 1);
	expect_error(0, "efiperf.cfg:2", "topdown", "'l3' is not one of: off, on, l2");

	/* a field holding no valid choice is written as null, never as a wrong name */
	cfg_defaults(&cfg);
	cfg.exit = (enum cfg_exit)7;
	to_json(buf, sizeof(buf));
	assert_non_null(strstr(buf, "{\"exit\":null,"));
}

static void test_help(void **state)
{
	char buf[16384];
	struct strbuf sb;
	static const char *const lines[] = {
		"  exit            = return|shutdown|reboot ",
		"(default return)\n",
		"  trace           = none|hw ",
		"(default none)\n",
		"  copy_size       = BYTES ",
		"4K..16G, a multiple of 64 (default 64M)\n",
		"  copy_passes     = N ",
		"1..1000 (default 3)\n",
		"  loop_iterations = N ",
		"1000..1000000000 (default 10000000)\n",
		"  pcie            = on|off ",
		"(default on)\n",
		"  cpus            = boot|all|LIST ",
		"socket1, comma-separated (default boot)\n",
		"  mmio_bdf        = BDF|none ",
		"(default none)\n",
		"  mmio_bar        = N ",
		"0..5 (default 0)\n",
		"  mmio_bytes      = BYTES ",
		"8..1G, a multiple of 8 (default 64K)\n",
		"  mmio_write      = off|on ",
		"(default off)\n",
		"  dma_engine      = BDF|none ",
		"(default none)\n",
		"  dma_blockio     = BDF|none ",
		"(default none)\n",
		"  dma_bytes       = BYTES ",
		"4K..1024G, a multiple of 4096 (default 16M)\n",
		"  dma_write_lba   = none|BDF[/nsN|/portN] FIRST-LAST ",
		"then read back (default none)\n",
		"  cha             = off|on|auto ",
		"(default off)\n",
		"  cha_count       = N ",
		"0..256 (default 0)\n",
		"  cha_events      = EVENTS ",
		"printable text of at most 255 characters (default empty)\n",
		"  core_events     = EVENTS ",
		"(default empty)\n",
		"  topdown         = off|on|l2 ",
		"(default off)\n",
		"  ibs             = off|fetch|op ",
		"(default off)\n",
		"  ibs_period      = N ",
		"16..134217712 (default 65536)\n",
		"  ibs_count       = cycles|ops ",
		"(default cycles)\n",
		"  stream          = off|on ",
		"(default off)\n",
		"  stream_size     = BYTES ",
		"4K..16G, a multiple of 4096 (default 64M)\n",
		"  stream_passes   = N ",
		"1..100 (default 5)\n",
		"  kernel          = auto|ISA|VARIANT ",
		"(default auto)\n",
		"  kernel_budget   = MS ",
		"0..10000 (default 1000)\n",
		"  latency         = off|on ",
		"(default off)\n",
		"  latency_max     = BYTES ",
		"4K..16G, a multiple of 4096 (default 64M)\n",
		"  nvme            = none|all|BDF,... ",
		"(default none)\n",
		"  nvme_rw         = read|write ",
		"(default read)\n",
		"  nvme_bs         = BYTES,... ",
		"(default 4K,128K)\n",
		"  nvme_iodepth    = N,... ",
		"(default 1,32)\n",
		"  nvme_size       = BYTES ",
		"4K..1024G, a multiple of 4096 (default 16M)\n",
		"  nvme_write_lba  = none|BDF FIRST-LAST ",
		"(default none)\n",
		"  uncore          = off|on|force ",
		"(default off)\n",
		"  uncore_events   = EVENTS ",
		"printable text of at most 1023 characters (default empty)\n",
		"  pcie_pmu_rp     = BDF|none ",
		"(default none)\n",
		"  ddio_sweep      = none|BYTES,... ",
		"(default none)\n",
		"  dma_cpu_traffic = none|load|...|triad ",
		"  c2c             = off|on ",
		"(default off)\n",
		"  c2c_rounds      = N ",
		"1..10000 (default 50)\n",
		"  c2c_trips       = N ",
		"1..1000000 (default 100)\n",
		"  numa_matrix     = off|on ",
		"(default off)\n",
		"  numa_size       = BYTES ",
		"64K..16G, a multiple of 4096 (default 64M)\n",
		"  cache_bw        = off|on ",
		"(default off)\n",
		"  cache_bw_passes = N ",
		"1..1000 (default 10)\n",
		"  cache_bw_dram   = BYTES ",
		"0..16G, a multiple of 4096 (default 0)\n",
		"  loaded_latency  = off|on ",
		"(default off)\n",
		"  loaded_delays   = N,... ",
		"(default 0,100,1000,10000)\n",
		"  loaded_size     = BYTES ",
		"64K..16G, a multiple of 4096 (default 64M)\n",
		"  fault_test      = off|ap ",
		"(default off)\n",
		"  check           = PATH OP VALUE ",
		"repeatable (default none)\n",
		"  expect_link     = BDF GT/s xW ",
		"repeatable (default none)\n",
		"  expect_no_downtrain = off|on ",
		"(default none)\n",
		"  expect_cpus     = N ",
		"(default none)\n",
		"  expect_memory   = GIB ",
		"(default none)\n",
		"  expect_microcode = [OP] 0xREV ",
		"(default none)\n",
	};
	(void)state;
	sb_init(&sb, buf, sizeof(buf));
	cfg_help(&sb);
	assert_false(sb.overflow);
	const char *p = buf;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *hit = strstr(p, lines[i]);
		if (!hit)
			fail_msg("help lacks \"%s\" (in order):\n%s", lines[i], buf);
		p = hit + strlen(lines[i]);
	}
	assert_string_equal(p, "");
	int nl = 0;
	for (const char *q = buf; *q; q++)
		nl += *q == '\n';
	assert_int_equal(nl, CFG_NKEYS);
}

static void test_exit_names(void **state)
{
	(void)state;
	assert_string_equal(cfg_exit_name(CFG_EXIT_RETURN), "return");
	assert_string_equal(cfg_exit_name(CFG_EXIT_SHUTDOWN), "shutdown");
	assert_string_equal(cfg_exit_name(CFG_EXIT_REBOOT), "reboot");
	assert_string_equal(cfg_exit_name((enum cfg_exit)3), "unknown");
	assert_string_equal(cfg_exit_name((enum cfg_exit)-1), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_override_file),
		cmocka_unit_test(test_help_flags),
		cmocka_unit_test(test_arg_errors),
		cmocka_unit_test(test_split_cmdline),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_exit_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
