// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_regs_oracle: the PMU register numbers and bit positions of arch/regs/ against values
 * typed from the manuals. The register-model tests (test_x86_fixed, test_intel_core,
 * test_topdown, test_amd_core, test_pmuv3*) address registers through these same constants, so a
 * wrong number there would be invisible to them; this test is their independent check.
 *
 * Sources (every expected value below is a literal, never a macro of the product):
 *  - Intel SDM Vol. 4, Table 2-2 "IA-32 Architectural MSRs" (IA32_PMCx 0xC1, IA32_PERFEVTSELx
 *    0x186, IA32_FIXED_CTRx 0x309.., IA32_PERF_CAPABILITIES 0x345, IA32_FIXED_CTR_CTRL 0x38D,
 *    IA32_PERF_GLOBAL_STATUS/CTRL/OVF_CTRL 0x38E..0x390, IA32_A_PMCx 0x4C1, IA32_PERF_METRICS
 *    0x329); Vol. 3B chapter "Performance Monitoring", "Architectural Performance Monitoring" (IA32_PERFEVTSELx fields:
 *    USR 16, OS 17, E 18, INT 20, AnyThread 21, EN 22, INV 23, CMASK [31:24];
 *    IA32_PERF_CAPABILITIES FW_WRITE 13, PERF_METRICS_AVAILABLE 15; IA32_PERF_GLOBAL_CTRL
 *    EN_PERF_METRICS 48); RDPMC ECX[30] fixed, ECX[29] metrics (Linux
 *    arch/x86/include/asm/perf_event.h INTEL_PMC_FIXED_RDPMC_BASE / _METRICS).
 *  - AMD APM Vol. 2, 13.2 and Linux arch/x86/include/asm/msr-index.h: MSR_K7_EVNTSEL0
 *    0xC0010000, MSR_K7_PERFCTR0 0xC0010004, MSR_F15H_PERF_CTL 0xC0010200, MSR_F15H_PERF_CTR
 *    0xC0010201, PerfCntrGlobalStatus/Ctl/StatusClr 0xC0000300..0xC0000302, IBS MSRs
 *    0xC0011030..0xC0011037.
 *  - Arm ARM (DDI 0487) D23 "AArch64 System Register Descriptions": PMCR_EL0 op0=3 op1=3 CRn=9
 *    CRm=12 op2=0 (PMCNTENSET op2=1, PMCNTENCLR op2=2), PMCCNTR_EL0 3,3,9,13,0, PMCCFILTR_EL0
 *    3,3,14,15,7, PMEVCNTR<n>_EL0 3,3,14,0b10:n[4:3],n[2:0], PMEVTYPER<n>_EL0 3,3,14,0b11:n[4:3],
 *    n[2:0]; PMCR_EL0 E 0, P 1, C 2, D 3, LC 6, LP 7, N [15:11]; PMEVTYPER P 31, U 30, NSK 29,
 *    NSU 28, NSH 27, M 26; PMCNTENSET C 31. Common events INST_RETIRED 0x08, CPU_CYCLES 0x11
 *    (also tests/oracle/arm-data/arm_pmu.txt).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/regs/x86_msr.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/arm_sysreg.h"

/* op0, op1, CRn, CRm, op2 as the MRS/MSR encoding's bits [20:19], [18:16], [15:12], [11:8],
 * [7:5] (Arm ARM C5.3 "System instructions": the fields of the system register encoding). */
static uint32_t enc(uint32_t op0, uint32_t op1, uint32_t crn, uint32_t crm, uint32_t op2)
{
	return op0 << 19 | op1 << 16 | crn << 12 | crm << 8 | op2 << 5;
}

static void test_intel_msrs(void **state)
{
	(void)state;
	assert_int_equal(IA32_PMC0, 0xC1);
	assert_int_equal(IA32_PERFEVTSEL0, 0x186);
	assert_int_equal(IA32_FIXED_CTR0, 0x309);
	assert_int_equal(IA32_FIXED_CTR1, 0x30A);
	assert_int_equal(IA32_FIXED_CTR2, 0x30B);
	assert_int_equal(IA32_FIXED_CTR3, 0x30C);
	assert_int_equal(IA32_PERF_METRICS, 0x329);
	assert_int_equal(IA32_PERF_CAPABILITIES, 0x345);
	assert_int_equal(IA32_FIXED_CTR_CTRL, 0x38D);
	assert_int_equal(IA32_PERF_GLOBAL_STATUS, 0x38E);
	assert_int_equal(IA32_PERF_GLOBAL_CTRL, 0x38F);
	assert_int_equal(IA32_PERF_GLOBAL_OVF_CTRL, 0x390);
	assert_int_equal(IA32_A_PMC0, 0x4C1);
}

static void test_intel_fields(void **state)
{
	(void)state;
	assert_int_equal(EVTSEL_USR, 0x10000);
	assert_int_equal(EVTSEL_OS, 0x20000);
	assert_int_equal(EVTSEL_EDGE_SHIFT, 18);
	assert_int_equal(EVTSEL_INT, 0x100000);
	assert_int_equal(EVTSEL_ANY_SHIFT, 21);
	assert_int_equal(EVTSEL_EN, 0x400000);
	assert_int_equal(EVTSEL_INV_SHIFT, 23);
	assert_int_equal(EVTSEL_CMASK_SHIFT, 24);
	assert_int_equal(EVTSEL_UMASK_SHIFT, 8);
	assert_int_equal(PERF_CAP_FW_WRITE, 0x2000);
	assert_int_equal(PERF_CAP_PERF_METRICS, 0x8000);
	assert_int_equal(PERF_GLOBAL_CTRL_FIXED_SHIFT, 32);
	assert_int_equal(PERF_GLOBAL_CTRL_EN_PERF_METRICS, 48);
	assert_int_equal(FIXED_CTR_CTRL_BITS, 4);
	assert_int_equal(FIXED_CTR_CTRL_EN_ALL, 0x3);      /* OS and USR of one fixed counter */
	assert_int_equal(FIXED_CTR_CTRL_ANY, 0x4);
	assert_int_equal(RDPMC_FIXED, 0x40000000);
	assert_int_equal(RDPMC_METRICS, 0x20000000);
}

static void test_amd_msrs(void **state)
{
	(void)state;
	assert_int_equal(MSR_K7_EVNTSEL0, 0xC0010000u);
	assert_int_equal(MSR_K7_PERFCTR0, 0xC0010004u);
	assert_int_equal(MSR_F15H_PERF_CTL, 0xC0010200u);
	assert_int_equal(MSR_F15H_PERF_CTR, 0xC0010201u);
	assert_int_equal(PerfCntrGlobalStatus, 0xC0000300u);
	assert_int_equal(PerfCntrGlobalCtl, 0xC0000301u);
	assert_int_equal(PerfCntrGlobalStatusClr, 0xC0000302u);
	assert_int_equal(IbsFetchCtl, 0xC0011030u);
	assert_int_equal(IbsFetchLinAd, 0xC0011031u);
	assert_int_equal(IbsFetchPhysAd, 0xC0011032u);
	assert_int_equal(IbsOpCtl, 0xC0011033u);
	assert_int_equal(IbsOpRip, 0xC0011034u);
	assert_int_equal(IbsOpData, 0xC0011035u);
	assert_int_equal(IbsOpData2, 0xC0011036u);
	assert_int_equal(IbsOpData3, 0xC0011037u);
	/* PerfEvtSeln EventSelect[11:8] in [35:32], GuestOnly 40, HostOnly 41 (APM Vol. 2 13.2.1) */
	assert_int_equal(AMD_EVTSEL_EVENT_HI_SHIFT, 32);
	assert_int_equal(AMD_EVTSEL_GUESTONLY_SHIFT, 40);
	assert_int_equal(AMD_EVTSEL_HOSTONLY_SHIFT, 41);
}

static void test_arm_pmu_sysregs(void **state)
{
	(void)state;
	assert_int_equal(SYSREG_PMCR_EL0, enc(3, 3, 9, 12, 0));
	assert_int_equal(SYSREG_PMCNTENSET_EL0, enc(3, 3, 9, 12, 1));
	assert_int_equal(SYSREG_PMCNTENCLR_EL0, enc(3, 3, 9, 12, 2));
	assert_int_equal(SYSREG_PMOVSCLR_EL0, enc(3, 3, 9, 12, 3));
	assert_int_equal(SYSREG_PMCEID0_EL0, enc(3, 3, 9, 12, 6));
	assert_int_equal(SYSREG_PMCEID1_EL0, enc(3, 3, 9, 12, 7));
	assert_int_equal(SYSREG_PMCCNTR_EL0, enc(3, 3, 9, 13, 0));
	assert_int_equal(SYSREG_PMCCFILTR_EL0, enc(3, 3, 14, 15, 7));
	/* n = 0, 7, 8, 30: CRm 0b10:n[4:3] / 0b11:n[4:3], op2 n[2:0] */
	assert_int_equal(SYSREG_PMEVCNTR_EL0(0), enc(3, 3, 14, 8, 0));
	assert_int_equal(SYSREG_PMEVCNTR_EL0(7), enc(3, 3, 14, 8, 7));
	assert_int_equal(SYSREG_PMEVCNTR_EL0(8), enc(3, 3, 14, 9, 0));
	assert_int_equal(SYSREG_PMEVCNTR_EL0(30), enc(3, 3, 14, 11, 6));
	assert_int_equal(SYSREG_PMEVTYPER_EL0(0), enc(3, 3, 14, 12, 0));
	assert_int_equal(SYSREG_PMEVTYPER_EL0(7), enc(3, 3, 14, 12, 7));
	assert_int_equal(SYSREG_PMEVTYPER_EL0(8), enc(3, 3, 14, 13, 0));
	assert_int_equal(SYSREG_PMEVTYPER_EL0(30), enc(3, 3, 14, 15, 6));
}

static void test_arm_pmu_fields(void **state)
{
	(void)state;
	assert_int_equal(PMCR_EL0_E, 0x1);
	assert_int_equal(PMCR_EL0_P, 0x2);
	assert_int_equal(PMCR_EL0_C, 0x4);
	assert_int_equal(PMCR_EL0_D, 0x8);
	assert_int_equal(PMCR_EL0_LC, 0x40);
	assert_int_equal(PMCR_EL0_LP, 0x80);
	assert_int_equal(PMCR_EL0_N_SHIFT, 11);
	assert_int_equal(PMCR_EL0_N_MASK, 0x1f);
	assert_int_equal(PMEVTYPER_P, 0x80000000u);
	assert_int_equal(PMEVTYPER_U, 0x40000000u);
	assert_int_equal(PMEVTYPER_NSK, 0x20000000u);
	assert_int_equal(PMEVTYPER_NSU, 0x10000000u);
	assert_int_equal(PMEVTYPER_NSH, 0x08000000u);
	assert_int_equal(PMEVTYPER_M, 0x04000000u);
	assert_int_equal(PMEVTYPER_EVTCOUNT_MASK_V3, 0x3ff);
	assert_int_equal(PMEVTYPER_EVTCOUNT_MASK_V3P1, 0xffff);
	assert_int_equal(PMCNTEN_C, 0x80000000u);
	assert_int_equal(PMCNTEN_P(5), 0x20);
	assert_int_equal(ARMV8_PMUV3_EVENT_INST_RETIRED, 0x08);
	assert_int_equal(ARMV8_PMUV3_EVENT_CPU_CYCLES, 0x11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_msrs),
		cmocka_unit_test(test_intel_fields),
		cmocka_unit_test(test_amd_msrs),
		cmocka_unit_test(test_arm_pmu_sysregs),
		cmocka_unit_test(test_arm_pmu_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
