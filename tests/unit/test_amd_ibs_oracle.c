/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outside oracle of the IBS tables (pmu/core/amd_ibs.c quirk rows, amd_ibs_decode.c data-source
 * names), in literal values typed from Linux:
 *   - DataSrc numbers: arch/x86/include/asm/amd/ibs.h (formerly asm/amd-ibs.h) IBS_DATA_SRC_*
 *     (3 bits, before Zen 4) and IBS_DATA_SRC_EXT_* (5 bits with IBS_CAPS_ZEN4). Both ways: every
 *     Linux value has efiperf's name for it, and efiperf names no value Linux does not.
 *   - which family/model gets which workaround, for every model 00h-FFh of families 10h-1Ah:
 *     arch/x86/events/amd/ibs.c (perf_ibs_disable_event: family 10h, erratum #420;
 *     perf_ibs_fetch_init: families 16h-18h fetch_count_reset_broken, family 19h models below
 *     10h fetch_ignore_if_zero_rip, erratum #1197; perf_ibs_get_mem_lvl: family 19h models up to
 *     0Fh, erratum #1293) and tools/perf/util/amd-sample-raw.c (family 19h models below 10h:
 *     #1238 IbsIcMiss, #1293). Fam15h models 00h-1Fh #718 come from the AMD IBS Toolkit, which
 *     Linux does not carry: that row is checked against the toolkit's range typed here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "pmu/core/amd_ibs.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/x86_msr.h"

static void test_data_src_names_equal_linux(void **state)
{
	(void)state;
	static const struct { int zen4; unsigned v; const char *linux_name, *ours; } src[] = {
		{ 0, 2, "IBS_DATA_SRC_LOC_CACHE", "local_node_cache" }, { 0, 3, "IBS_DATA_SRC_DRAM", "dram" },
		{ 0, 4, "IBS_DATA_SRC_REM_CACHE", "remote_node_cache" }, { 0, 7, "IBS_DATA_SRC_IO", "other_io" },
		{ 1, 1, "IBS_DATA_SRC_EXT_LOC_CACHE", "local_l3_or_ccx_l1_l2" },
		{ 1, 2, "IBS_DATA_SRC_EXT_NEAR_CCX_CACHE", "near_ccx_cache" }, { 1, 3, "IBS_DATA_SRC_EXT_DRAM", "dram" },
		{ 1, 5, "IBS_DATA_SRC_EXT_FAR_CCX_CACHE", "far_ccx_cache" }, { 1, 6, "IBS_DATA_SRC_EXT_PMEM", "pmem" },
		{ 1, 7, "IBS_DATA_SRC_EXT_IO", "mmio_config_io" }, { 1, 8, "IBS_DATA_SRC_EXT_EXT_MEM", "extension_memory" },
		{ 1, 12, "IBS_DATA_SRC_EXT_PEER_AGENT_MEM", "peer_agent_memory" },
	};
	int named = 0;
	for (int zen4 = 0; zen4 < 2; zen4++)
		for (unsigned v = 0; v < (zen4 ? 32u : 8u); v++) {
			const char *want = NULL, *lin = NULL;
			for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++)
				if (src[i].zen4 == zen4 && src[i].v == v) {
					want = src[i].ours;
					lin = src[i].linux_name;
				}
			const char *got = ibs_data_src_name(v, zen4);
			if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
				fail_msg("DataSrc %u (%s): efiperf \"%s\", Linux %s", v, zen4 ? "Zen 4" : "before Zen 4",
					 got ? got : "unnamed", lin ? lin : "names none");
			named += got != NULL;
		}
	assert_int_equal(named, 12);
}

static void test_quirks_per_family_model_equal_linux(void **state)
{
	(void)state;
	struct hw_model m;
	hw_model_init(&m);
	struct hw h = hw_model_hw(&m);
	hw_model_cpuid(&m, CPUID_EXT_MAXLEAF, 0, 0x80000022, 0, 0, 0);
	hw_model_cpuid(&m, CPUID_AMD_EXT_FEATURES, 0, 0, 0, AMD_EXT_ECX_IBS, 0);
	hw_model_cpuid(&m, CPUID_AMD_IBS, 0, IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM, 0, 0, 0);
	int bad = 0, with = 0;
	for (uint32_t fam = 0x10; fam <= 0x1A; fam++)
		for (uint32_t model = 0; model <= 0xFF; model++) {
			struct amd_ibs ibs;
			amd_ibs_probe(&h, &ibs, fam, model);
			assert_true(ibs.present);
			uint32_t want = 0;
			if (fam == 0x10)
				want |= IBS_Q_420_STOP;
			if (fam == 0x15 && model <= 0x1F)   /* AMD IBS Toolkit */
				want |= IBS_Q_718_OPDATA3;
			if (fam >= 0x16 && fam <= 0x18)
				want |= IBS_Q_FETCH_EN_0_1;
			if (fam == 0x19 && model < 0x10)
				want |= IBS_Q_1197_LINAD0 | IBS_Q_1238_ICMISS | IBS_Q_1293_OPDATA2;
			if (ibs.quirks != want) {
				if (bad++ < 8)
					printf("family 0x%x model 0x%02x: efiperf quirks 0x%x, Linux 0x%x\n", fam, model, ibs.quirks,
					       want);
			}
			with += ibs.quirks != 0;
		}
	printf("Linux ibs.c / amd-sample-raw.c: %d family/models with an IBS workaround, %d differ\n", with, bad);
	assert_int_equal(bad, 0);
	assert_int_equal(with, 0x100 + 0x20 + 3 * 0x100 + 0x10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_src_names_equal_linux),
		cmocka_unit_test(test_quirks_per_family_model_equal_linux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
