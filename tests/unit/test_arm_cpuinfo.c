/* SPDX-License-Identifier: BSD-2-Clause */
/* arch/aarch64/cpuinfo_pure.c against the register model: MIDR decode of real parts,
 * CurrentEL, CNTFRQ_EL0; and the PMUv3 probe line core_probe() gives the platform record. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/hw_model.h"
#include "arch/aarch64/cpuinfo_pure.h"
#include "arch/regs/arm_sysreg.h"
#include "pmu/core/core_counters.h"

static struct hw_model m;
static struct hw h;
static struct cpu_info ci;

static void cpu(uint64_t midr, uint64_t current_el, uint64_t cntfrq, uint64_t dfr0)
{
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_MIDR_EL1, HWM_READONLY, midr);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CurrentEL, HWM_READONLY, current_el);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_CNTFRQ_EL0, HWM_PLAIN, cntfrq);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_ID_AA64DFR0_EL1, HWM_READONLY, dfr0);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCR_EL0, HWM_PLAIN, 0x41013000);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_PMCEID0_EL0, HWM_READONLY, 0x20101);
	memset(&ci, 0, sizeof(ci));
}

static const char *probe(const char *name)
{
	for (int i = 0; i < ci.nprobes; i++)
		if (!strcmp(ci.probe[i].name, name))
			return ci.probe[i].result;
	return NULL;
}

/* The "PMUv3" probe line of the platform record: core_probe's summary under the driver's
 * probe_name (efi/platform.c adds it to the cpu_info probes). */
static struct core_set pmu_set;
static const char *pmu_probe(void)
{
	assert_int_equal(core_probe(&h, &pmu_set), 0);
	assert_non_null(pmu_set.pmu);
	assert_string_equal(pmu_set.pmu->probe_name, "PMUv3");
	return pmu_set.probe;
}

static void test_neoverse_v2(void **state)
{
	(void)state;
	cpu(0x410FD4F0, 1 << CurrentEL_EL_SHIFT, 1000000000, 0x0000000010305609ull);
	arm_cpu_info(&h, &ci);
	assert_string_equal(ci.arch, "aarch64");
	assert_int_equal(ci.signature, 0x410FD4F0);
	assert_int_equal(ci.implementer, 0x41);
	assert_int_equal(ci.variant, 0);
	assert_int_equal(ci.architecture, 0xF);
	assert_int_equal(ci.partnum, 0xD4F);
	assert_int_equal(ci.revision, 0);
	assert_string_equal(ci.vendor, "ARM");
	assert_string_equal(ci.brand, "Neoverse-V2 r0p0");
	assert_int_equal(ci.current_el, 1);
	assert_int_equal(ci.tsc_hz, 1000000000);
	assert_string_equal(ci.tsc_source, "CNTFRQ_EL0");
	assert_int_equal(ci.tsc_invariant, 1);
	assert_string_equal(probe("ID_AA64DFR0_EL1"), "0x0000000010305609");
	assert_non_null(strstr(pmu_probe(), "PMUv3p5"));
	assert_non_null(strstr(pmu_probe(), "6 counters"));
}

static void test_cortex_a57_r1p0_el2(void **state)
{
	(void)state;
	cpu(0x411FD070, 2 << CurrentEL_EL_SHIFT, 62500000, 0x10305106ull);  /* PMUVer = 1 */
	arm_cpu_info(&h, &ci);
	assert_int_equal(ci.partnum, 0xD07);
	assert_int_equal(ci.variant, 1);
	assert_string_equal(ci.brand, "Cortex-A57 r1p0");
	assert_int_equal(ci.current_el, 2);
	assert_string_equal(probe("CurrentEL"), "EL2");
	assert_non_null(strstr(pmu_probe(), "PMUv3 (PMUVer=0x1)"));
}

static void test_neoverse_n1_r3p1(void **state)
{
	(void)state;
	cpu(0x413FD0C1, 1 << CurrentEL_EL_SHIFT, 25000000, 0x10305408ull);
	arm_cpu_info(&h, &ci);
	assert_string_equal(ci.brand, "Neoverse-N1 r3p1");
	assert_int_equal(ci.revision, 1);
	assert_int_equal(ci.variant, 3);
}

static void test_qemu_max(void **state)
{
	(void)state;
	cpu(0x000F0510, 1 << CurrentEL_EL_SHIFT, 62500000, 0x10305609ull);  /* seen under QEMU 7.2 */
	arm_cpu_info(&h, &ci);
	assert_string_equal(ci.vendor, "software");
	assert_string_equal(ci.brand, "QEMU -cpu max r0p0");
}

static void test_unknown_part_and_no_pmu(void **state)
{
	(void)state;
	cpu(0x4E0FABC0, 1 << CurrentEL_EL_SHIFT, 0, 0x00000006ull);  /* NVIDIA, PMUVer 0 */
	arm_cpu_info(&h, &ci);
	assert_string_equal(ci.vendor, "NVIDIA");
	assert_string_equal(ci.brand, "unknown part 0xabc r0p0");
	assert_int_equal(ci.tsc_hz, 0);
	assert_non_null(probe("CNTFRQ_EL0"));
	assert_non_null(strstr(pmu_probe(), "PMUVer=0x0"));
	assert_string_equal(arm_implementer_name(0xC0), "Ampere");
	assert_null(arm_implementer_name(0xEE));
	assert_null(arm_part_name(0x41, 0x123));
}

/* Every name row of arch/aarch64/cpuinfo_pure.c but Neoverse E1 (Linux has no constant for it;
 * test_arm_events_oracle checks it, and every Neoverse, against Arm's own core files): the
 * implementer and PartNum typed from Linux arch/arm64/include/asm/cputype.h (ARM_CPU_IMP_*,
 * ARM_CPU_PART_*, NVIDIA_/FUJITSU_/HISI_/QCOM_/AMPERE_CPU_PART_*). */
static void test_part_names_linux_cputype(void **state)
{
	(void)state;
	static const struct { uint32_t impl, part; const char *name; } linux_parts[] = {
		{ 0x41, 0xD03, "Cortex-A53" }, { 0x41, 0xD07, "Cortex-A57" }, { 0x41, 0xD08, "Cortex-A72" },
		{ 0x41, 0xD09, "Cortex-A73" }, { 0x41, 0xD0A, "Cortex-A75" }, { 0x41, 0xD0B, "Cortex-A76" },
		{ 0x41, 0xD0C, "Neoverse-N1" }, { 0x41, 0xD0D, "Cortex-A77" }, { 0x41, 0xD40, "Neoverse-V1" },
		{ 0x41, 0xD41, "Cortex-A78" }, { 0x41, 0xD44, "Cortex-X1" }, { 0x41, 0xD46, "Cortex-A510" },
		{ 0x41, 0xD47, "Cortex-A710" }, { 0x41, 0xD48, "Cortex-X2" }, { 0x41, 0xD49, "Neoverse-N2" },
		{ 0x41, 0xD4F, "Neoverse-V2" }, { 0x41, 0xD83, "Neoverse-V3AE" }, { 0x41, 0xD84, "Neoverse-V3" },
		{ 0x41, 0xD8E, "Neoverse-N3" }, { 0x4E, 0x003, "Denver" }, { 0x4E, 0x004, "Carmel" },
		{ 0x46, 0x001, "A64FX" }, { 0x48, 0xD01, "TSV110" }, { 0x51, 0xC00, "Falkor" },
		{ 0xC0, 0xAC3, "AmpereOne" },
	};
	for (size_t i = 0; i < sizeof(linux_parts) / sizeof(linux_parts[0]); i++) {
		const char *got = arm_part_name(linux_parts[i].impl, linux_parts[i].part);
		if (!got || strcmp(got, linux_parts[i].name))
			fail_msg("implementer 0x%02x part 0x%03x: %s, Linux cputype.h: %s", linux_parts[i].impl,
				 linux_parts[i].part, got ? got : "unnamed", linux_parts[i].name);
	}
}

static void test_midr_unreadable(void **state)
{
	(void)state;
	hw_model_init(&m);           /* nothing defined: every read is a synchronous exception */
	h = hw_model_hw(&m);
	memset(&ci, 0, sizeof(ci));
	arm_cpu_info(&h, &ci);
	assert_string_equal(ci.arch, "aarch64");
	assert_string_equal(probe("MIDR_EL1"), "sync-exception");
	assert_int_equal(ci.tsc_hz, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_neoverse_v2),
		cmocka_unit_test(test_part_names_linux_cputype),
		cmocka_unit_test(test_cortex_a57_r1p0_el2),
		cmocka_unit_test(test_neoverse_n1_r3p1),
		cmocka_unit_test(test_qemu_max),
		cmocka_unit_test(test_unknown_part_and_no_pmu),
		cmocka_unit_test(test_midr_unreadable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
