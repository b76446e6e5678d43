/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A CXL CPMU register block (CXL 3.1 8.2.7) for host tests, with the layout written here as the
 * specification's literals: 4 counters (0 fixed-function clock ticks, 1 free-running S2M NDR
 * Cmp, 2 and 3 configurable), 5 Event Capabilities registers (CXL vendor 0x1E98: groups 0x0000
 * clock, 0x0024 S2M NDR, 0x0020 M2S Req, 0x0021 M2S RwD, 0x0025 S2M DRS), the HDM decoder
 * filter, freeze, RW1C overflow status, Freeze on Overflow. Read-only fields stay as they are
 * on writes; a counter is written only while frozen (Counters Writable While Frozen).
 * cxl_cpmu_model_traffic() advances every enabled, unfrozen counter by what its group and mask
 * select of the reads, writes and clocks given (filtered by HDM decoder `decoder`), wrapping at
 * the counter width and setting Overflow Status. double_count doubles what counts (a broken
 * counter, for the self-check), fault_at faults the Nth access.
 */
#ifndef EFIPERF_CXL_CPMU_MODEL_H
#define EFIPERF_CXL_CPMU_MODEL_H

#include <stdint.h>
#include "arch/hw.h"

#define CPMUM_BASE     0xC1220000ull
#define CPMUM_NCTR     4
#define CPMUM_NEVCAP   5

struct cxl_cpmu_model {
	uint64_t cap, overflow, freeze;
	uint64_t evcap[CPMUM_NEVCAP];
	uint64_t cfg[CPMUM_NCTR];
	uint32_t filter[CPMUM_NCTR][8];
	uint64_t ctr[CPMUM_NCTR];
	unsigned width;
	unsigned decoder;            /* HDM decoder the traffic goes through */
	int double_count;
	uint64_t accesses, fault_at;
	unsigned writes;
};

void cxl_cpmu_model_init(struct cxl_cpmu_model *m, unsigned width);
struct hw cxl_cpmu_model_hw(struct cxl_cpmu_model *m);
void cxl_cpmu_model_traffic(struct cxl_cpmu_model *m, uint64_t reads, uint64_t writes, uint64_t clocks);

#endif
