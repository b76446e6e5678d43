/* SPDX-License-Identifier: BSD-2-Clause */
#include "tests/model/pmuv3_model.h"
#include "arch/regs/arm_sysreg.h"

#define DFR0_PMUV3P5   0x10305609ull   /* ID_AA64DFR0_EL1 with PMUVer [11:8] = 6 (PMUv3p5) */
#define CURRENTEL_EL1  0x4u            /* CurrentEL.EL [3:2] = 1 */
#define MIDR_NEOVERSE_V2 0x410fd4f0u   /* implementer 0x41, PartNum 0xd4f, r0p0 */

void pmuv3_model(struct hw_model *m, const struct pmuv3_model_cfg *c)
{
	hw_model_init(m);
	hw_model_reg(m, HWM_SYSREG, SYSREG_ID_AA64DFR0_EL1, HWM_READONLY, DFR0_PMUV3P5);
	hw_model_reg(m, HWM_SYSREG, SYSREG_CurrentEL, HWM_READONLY, CURRENTEL_EL1);
	hw_model_reg(m, HWM_SYSREG, SYSREG_MIDR_EL1, HWM_READONLY, MIDR_NEOVERSE_V2);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCR_EL0, HWM_PLAIN, c->pmcr);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCEID0_EL0, HWM_READONLY, c->ceid0);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCEID1_EL0, HWM_READONLY, c->ceid1);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0, HWM_PLAIN, 0);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCNTENCLR_EL0, HWM_PLAIN, 0);
	hw_model_reg(m, HWM_SYSREG, SYSREG_PMCCFILTR_EL0, HWM_PLAIN, c->ccfiltr);
	struct hw_model_reg *r = hw_model_reg(m, HWM_SYSREG, SYSREG_PMCCNTR_EL0, HWM_COUNTER, 0);
	r->step = c->cyc_step;
	uint32_t n = (uint32_t)((c->pmcr >> PMCR_EL0_N_SHIFT) & PMCR_EL0_N_MASK);
	for (uint32_t k = 0; k < n; k++) {
		hw_model_reg(m, HWM_SYSREG, SYSREG_PMEVTYPER_EL0(k), HWM_PLAIN, c->evtyper);
		r = hw_model_reg(m, HWM_SYSREG, SYSREG_PMEVCNTR_EL0(k), HWM_COUNTER, c->ctr_start);
		r->step = k + 1;
		r->en2_id = SYSREG_PMCNTENSET_EL0;
		r->en2_mask = PMCNTEN_P(k);
	}
}

void pmuv3_model_enables(struct hw_model *m, uint8_t space, uint32_t id, uint64_t value)
{
	if (space != HWM_SYSREG || (id != SYSREG_PMCNTENSET_EL0 && id != SYSREG_PMCNTENCLR_EL0))
		return;
	struct hw_model_reg *set = hw_model_find(m, HWM_SYSREG, SYSREG_PMCNTENSET_EL0);
	struct hw_model_reg *clr = hw_model_find(m, HWM_SYSREG, SYSREG_PMCNTENCLR_EL0);
	uint64_t en = id == SYSREG_PMCNTENSET_EL0 ? clr->value | value : set->value & ~value;
	set->value = clr->value = en;
}
