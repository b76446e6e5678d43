/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 backend of arch/vecstate.h: at EL1 CPACR_EL1 and ZCR_EL1, at EL2 CPTR_EL2 and
 * ZCR_EL2, through the fault-safe accessors of sysreg_acc.S (an UNDEFINED access returns
 * HW_FAULT_SYNC through arch_fixups); the plan from ID_AA64PFR0_EL1, CurrentEL and HCR_EL2.E2H
 * (Arm ARM D19.2 HCR_EL2: E2H bit 34).
 */
#include "arch/vecstate.h"
#include "arch/aarch64/sysreg.h"
#include "arch/aarch64/kernel_neon.h"

#define HCR_E2H (1ull << 34)

static uint32_t current_el(void)
{
	uint64_t v = 0;
	arm_sysreg_rd_CurrentEL(&v);
	return (uint32_t)((v >> CurrentEL_EL_SHIFT) & CurrentEL_EL_MASK);
}

static hw_status rd_ctl(uint64_t *v) { return current_el() == 2 ? arm_sysreg_rd_CPTR_EL2(v) : arm_sysreg_rd_CPACR_EL1(v); }
static hw_status wr_ctl(uint64_t v) { return current_el() == 2 ? arm_sysreg_wr_CPTR_EL2(v) : arm_sysreg_wr_CPACR_EL1(v); }
static hw_status rd_zcr(uint64_t *v) { return current_el() == 2 ? arm_sysreg_rd_ZCR_EL2(v) : arm_sysreg_rd_ZCR_EL1(v); }
static hw_status wr_zcr(uint64_t v) { return current_el() == 2 ? arm_sysreg_wr_ZCR_EL2(v) : arm_sysreg_wr_ZCR_EL1(v); }

const struct vec_ops arch_vec_ops = {
	.read_ctl = rd_ctl, .write_ctl = wr_ctl, .read_xcr = rd_zcr, .write_xcr = wr_zcr,
};

void arch_vec_plan(const struct hw *hw, struct vec_plan *p)
{
	(void)hw;
	uint64_t pfr0 = 0, hcr = 0;
	uint32_t el = current_el();
	arm_sysreg_rd_ID_AA64PFR0_EL1(&pfr0);
	if (el == 2)
		arm_sysreg_rd_HCR_EL2(&hcr);
	aarch64_vec_plan(pfr0, el, (hcr & HCR_E2H) != 0, p);
}

/* SVE usable on the calling CPU: implemented and not trapped at this EL. */
int aarch64_sve_usable(void)
{
	uint64_t pfr0 = 0, hcr = 0, ctl = 0;
	uint32_t el = current_el();
	if (arm_sysreg_rd_ID_AA64PFR0_EL1(&pfr0) != HW_OK || !((pfr0 >> ID_AA64PFR0_SVE_SHIFT) & 0xF))
		return 0;
	if (el == 2 && arm_sysreg_rd_HCR_EL2(&hcr) != HW_OK)
		return 0;
	if (rd_ctl(&ctl) != HW_OK)
		return 0;
	return aarch64_sve_untrapped(el, (hcr & HCR_E2H) != 0, ctl);
}
