/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVMe measurement's settings (efi/nvme/nvme_params.c) and their config rows: lists of
 * controllers, block sizes and queue depths; every bad value an error naming the file, line,
 * key and what is accepted. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "efi/nvme/nvme_params.h"

static void test_lists(void **state)
{
	(void)state;
	char msg[256];
	uint32_t v[NVME_LIST_MAX];
	int n;
	assert_int_equal(nvme_parse_bs("4K, 128K", 8, v, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0], 4096);
	assert_int_equal(v[1], 131072);
	assert_int_equal(nvme_parse_bs("512,1M", 6, v, &n, msg, sizeof(msg)), 0);
	assert_int_equal(v[1], 1048576);
	assert_int_equal(nvme_parse_iodepth("1,32,0x80", 9, v, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[2], 128);
	struct nvme_ctrl_list l;
	assert_int_equal(nvme_parse_ctrls("none", 4, &l, msg, sizeof(msg)), 0);
	assert_true(!l.all && l.count == 0);
	assert_int_equal(nvme_parse_ctrls("all", 3, &l, msg, sizeof(msg)), 0);
	assert_true(l.all);
	assert_int_equal(nvme_parse_ctrls("01:00.0, 0001:03:00.0", 21, &l, msg, sizeof(msg)), 0);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.bdf[0], 0x0100);            /* bus 1 << 8 */
	assert_int_equal(l.bdf[1], 0x10300);           /* segment 1 << 16 | bus 3 << 8 */
}

static void test_list_errors(void **state)
{
	(void)state;
	char msg[256];
	uint32_t v[NVME_LIST_MAX];
	int n;
	struct nvme_ctrl_list l;
	assert_int_equal(nvme_parse_iodepth("0", 1, v, &n, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "value 1: '0' is out of range (accepted: 1..65535)");
	assert_int_equal(nvme_parse_iodepth("1,65536", 7, v, &n, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "value 2: '65536' is out of range (accepted: 1..65535)");
	assert_int_equal(nvme_parse_bs("4K,1000", 7, v, &n, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "value 2: '1000' is not a multiple of 512");
	assert_int_equal(nvme_parse_bs("2M", 2, v, &n, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "out of range"));
	assert_int_equal(nvme_parse_bs("4K,4096", 7, v, &n, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "value 2: 4096 is listed twice");
	assert_int_equal(nvme_parse_bs("4K,", 3, v, &n, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "value 2: missing value"));
	assert_int_equal(nvme_parse_iodepth("1,2,3,4,5,6,7,8,9", 17, v, &n, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "more than 8 values");
	assert_int_equal(nvme_parse_ctrls("01:00.0,nvme0", 13, &l, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "'nvme0' is not a PCI function"));
	assert_int_equal(nvme_parse_ctrls("01:00.0,1:0.0", 13, &l, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "'1:0.0' is listed twice");
}

static void test_config_rows(void **state)
{
	(void)state;
	struct efiperf_config c;
	struct cfg_errors e = { 0 };
	cfg_defaults(&c);
	assert_string_equal(c.nvme, "none");
	assert_string_equal(c.nvme_bs, "4K,128K");
	assert_string_equal(c.nvme_iodepth, "1,32");
	assert_int_equal(c.nvme_size, 16u << 20);
	assert_int_equal(c.nvme_rw, 0);
	assert_string_equal(c.nvme_write_lba, "none");
	const char *ok = "nvme = 01:00.0,03:00.0\nnvme_rw = write\nnvme_bs = 4K\nnvme_iodepth = 1,16\n"
			 "nvme_size = 1M\nnvme_write_lba = 01:00.0 0-2047\n";
	assert_int_equal(cfg_parse_text(&c, ok, strlen(ok), "efiperf.cfg", &e), 0);
	assert_int_equal(c.nvme_rw, 1);
	assert_int_equal(c.nvme_size, 1u << 20);
	assert_string_equal(c.origin[CFG_NVME_IODEPTH], "efiperf.cfg:4");
	/* each bad value: an error naming the line and the key */
	const char *bad = "# nvme\nnvme_iodepth = 0\nnvme_bs = 4K,1000\nnvme = all,01:00.0\nnvme_rw = trim\n"
			  "nvme_size = 1000\nnvme_write_lba = 01:00.0 9-3\n";
	cfg_defaults(&c);
	memset(&e, 0, sizeof(e));
	assert_int_equal(cfg_parse_text(&c, bad, strlen(bad), "efiperf.cfg", &e), 6);
	assert_string_equal(e.e[0].where, "efiperf.cfg:2");
	assert_string_equal(e.e[0].key, "nvme_iodepth");
	assert_string_equal(e.e[0].message, "value 1: '0' is out of range (accepted: 1..65535)");
	assert_string_equal(e.e[1].where, "efiperf.cfg:3");
	assert_string_equal(e.e[1].message, "value 2: '1000' is not a multiple of 512");
	assert_string_equal(e.e[2].key, "nvme");
	assert_non_null(strstr(e.e[2].message, "'all' is not a PCI function"));
	assert_string_equal(e.e[3].key, "nvme_rw");
	assert_non_null(strstr(e.e[3].message, "read, write"));
	assert_string_equal(e.e[4].key, "nvme_size");
	assert_string_equal(e.e[5].message, "block range runs backwards (9-3)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_list_errors),
		cmocka_unit_test(test_config_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
