/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An Arm PMUv3 CPU on the register model (tests/model/hw_model.h), at EL1: ID_AA64DFR0_EL1
 * (PMUv3p5), CurrentEL, MIDR_EL1 (Neoverse V2), PMCR_EL0 with its N, PMCEID0/1_EL0, the count
 * enables, PMCCFILTR_EL0, the cycle counter and N event counters (PMEVCNTR<k>_EL0 steps k + 1
 * per tick while its PMCNTENSET_EL0 bit is set), each PMEVTYPER<k>_EL0 holding `evtyper`.
 */
#ifndef EFIPERF_PMUV3_MODEL_H
#define EFIPERF_PMUV3_MODEL_H

#include <stdint.h>
#include "tests/model/hw_model.h"

struct pmuv3_model_cfg {
	uint64_t pmcr, ceid0, ceid1;   /* N = PMCR_EL0[15:11] event counters are defined */
	uint64_t evtyper, ccfiltr;     /* the firmware's values, for restore checks */
	uint64_t cyc_step;             /* PMCCNTR_EL0 per tick */
	uint64_t ctr_start;            /* every PMEVCNTR<k>_EL0's first value */
};

void pmuv3_model(struct hw_model *m, const struct pmuv3_model_cfg *c);
/* An hw_model on_write hook: PMCNTENSET_EL0 / PMCNTENCLR_EL0 as the hardware has them, write-1-to-
 * set / -clear of the one enable mask both read (Arm ARM D23 PMCNTENSET_EL0, PMCNTENCLR_EL0). */
void pmuv3_model_enables(struct hw_model *m, uint8_t space, uint32_t id, uint64_t value);

#endif
