/* SPDX-License-Identifier: BSD-2-Clause */
/* The CXL CPMU as a window attachment: see efi/measure/cxl_cpmu_attach.h. */
#include <stddef.h>
#include "efi/measure/cxl_cpmu_attach.h"

/* CXL 3.1 Table 13-5 event groups of vendor 0x1E98, the masks as Linux drivers/perf/cxl_pmu.c
 * names them: s2m_drs_memdata, m2s_rwd_memwr, m2s_req_memrd, clock_ticks. */
#define DRS_MEMDATA  (1u << 0)
#define RWD_MEMWR    (1u << 1)
#define REQ_MEMRD    (1u << 1)
#define CLOCK_TICKS  (1u << 0)

static const struct cxl_cpmu_event events[CXL_CPMU_ATTACH_EVENTS] = {
	{ CXL_CPMU_VID_CXL, CXL_CPMU_GID_S2M_DRS, DRS_MEMDATA, 0, 0 },
	{ CXL_CPMU_VID_CXL, CXL_CPMU_GID_M2S_RWD, RWD_MEMWR, 0, 0 },
	{ CXL_CPMU_VID_CXL, CXL_CPMU_GID_M2S_REQ, REQ_MEMRD, 0, 0 },
	{ CXL_CPMU_VID_CXL, CXL_CPMU_GID_CLOCK, CLOCK_TICKS, 0, 0 },
};

static int not_ready(struct attachment *a, const char *why)
{
	if (a->st == HW_OK)
		a->st = HW_ERROR;
	a->why = why;
	return -1;
}

static int cpmu_prepare(struct attachment *a, const struct hw *hw)
{
	struct cxl_cpmu_attach *c = a->self;
	saveset_init(&c->ss, c->store, CXL_CPMU_ATTACH_SAVES);
	c->set = (struct cxl_cpmu_set){ 0 };
	c->check = (struct self_check){ 0 };
	if (cxl_cpmu_probe(hw, c->base, &c->pmu) != 0) {
		a->st = HW_UNSUPPORTED;
		return not_ready(a, c->pmu.why);
	}
	if (cxl_cpmu_program(hw, &c->pmu, events, CXL_CPMU_ATTACH_EVENTS, &c->set, &c->ss) != 0) {
		a->st = c->set.st;
		return not_ready(a, c->set.why);
	}
	return 0;
}

static void cpmu_start(struct attachment *a, const struct hw *hw)
{
	struct cxl_cpmu_attach *c = a->self;
	cxl_cpmu_start(hw, &c->set, &c->ss);
}

static void cpmu_stop(struct attachment *a, const struct hw *hw)
{
	struct cxl_cpmu_attach *c = a->self;
	cxl_cpmu_stop(hw, &c->set, &c->ss);
}

static int cpmu_rd(struct attachment *a, const struct hw *hw)
{
	struct cxl_cpmu_attach *c = a->self;
	/* a failed start or stop left its why in the set: the counts would not be the window's */
	if (c->set.why[0] || cxl_cpmu_read(hw, &c->set) != 0) {
		a->st = c->set.st != HW_OK ? c->set.st : HW_ERROR;
		return not_ready(a, c->set.why);
	}
	cxl_cpmu_self_check(&c->set, c->expected_read, c->expected_write, 0, &c->check);
	return 0;
}

static int cpmu_restore(struct attachment *a, const struct hw *hw)
{
	struct cxl_cpmu_attach *c = a->self;
	/* our counters frozen first (a stop that failed left them running): a counter is written
	 * back only while frozen (8.2.7.1.1 Counters Writable While Frozen); Freeze itself, saved
	 * first, is put back last */
	if (c->set.pmu)
		cxl_cpmu_stop(hw, &c->set, &c->ss);
	hw_status st = saveset_restore(hw, &c->ss);
	c->restore = (struct saveset_report){ 0 };
	saveset_report_add(&c->ss, &c->restore);
	return st == HW_OK ? 0 : -1;
}

const struct attachment_ops cxl_cpmu_attach_ops = { .kind = "cxl_cpmu", .prepare = cpmu_prepare,
	.start = cpmu_start, .stop = cpmu_stop, .read = cpmu_rd, .restore = cpmu_restore };
