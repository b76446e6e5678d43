/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IBS control: probe, period validation, start / poll / re-arm / stop (pmu/amd_ibs.h).
 * Sequences (Linux arch/x86/events/amd/ibs.c, FreeBSD sys/dev/hwpmc/hwpmc_ibs.c):
 *   start:  save the control MSR; write 0, then cfg | En (FreeBSD hwpmc_ibs: clears stale
 *           valid bits and resets the count; also the Fam16h-18h "0-1 transition of
 *           IbsFetchEn" the kernel needs).
 *   re-arm: op: cfg | En, keeping the hardware's random low CurCnt bits when the CPU has
 *           RdWrOpCnt and counts ops (Linux arch/x86/events/amd/ibs.c perf_ibs_handle_irq);
 *           Val is not written back,
 *           i.e. cleared. Fam15h m00-1Fh: IbsOpData3 = 0 first (#718).
 *           fetch: 0, then cfg | En (AMD IBS Toolkit: "zero out the whole register").
 *   stop:   Fam10h #420: write with MaxCnt cleared first, then clear En; others write 0.
 *           The saved values are written back by saveset_restore().
 */
#include "pmu/core/amd_ibs.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/regs/x86_msr.h"
#include "arch/lib/fmt.h"
#include <string.h>

static const struct ibs_quirk_row {
	uint8_t family, model_lo, model_hi;
	uint32_t quirks;
} ibs_quirk_rows[] = {
	{ 0x10, 0x00, 0xFF, IBS_Q_420_STOP },                                        /* Linux amd/ibs.c */
	{ 0x15, 0x00, 0x1F, IBS_Q_718_OPDATA3 },                                     /* AMD IBS Toolkit */
	{ 0x16, 0x00, 0xFF, IBS_Q_FETCH_EN_0_1 },                                    /* Linux amd/ibs.c */
	{ 0x17, 0x00, 0xFF, IBS_Q_FETCH_EN_0_1 },
	{ 0x18, 0x00, 0xFF, IBS_Q_FETCH_EN_0_1 },
	{ 0x19, 0x00, 0x0F, IBS_Q_1197_LINAD0 | IBS_Q_1238_ICMISS | IBS_Q_1293_OPDATA2 }, /* amd-sample-raw.c */
};

void amd_ibs_probe(const struct hw *hw, struct amd_ibs *ibs, uint32_t family, uint32_t model)
{
	struct hw_cpuid r;
	uint32_t max_ext = 0;
	memset(ibs, 0, sizeof(*ibs));
	ibs->family = family;
	ibs->model = model;
	if (hw_cpuid(hw, CPUID_EXT_MAXLEAF, 0, &r) == HW_OK)
		max_ext = r.eax;
	int flag = max_ext >= CPUID_AMD_EXT_FEATURES && hw_cpuid(hw, CPUID_AMD_EXT_FEATURES, 0, &r) == HW_OK &&
		   (r.ecx & AMD_EXT_ECX_IBS);
	if (!flag) {
		fmt_snprintf(ibs->why, sizeof(ibs->why), "no IBS: CPUID 8000_0001:ECX[10] = 0");
		return;
	}
	if (max_ext >= CPUID_AMD_IBS && hw_cpuid(hw, CPUID_AMD_IBS, 0, &r) == HW_OK && (r.eax & IBS_CAPS_AVAIL))
		ibs->caps = r.eax;
	else
		ibs->caps = IBS_CAPS_DEFAULT;  /* Linux arch/x86/events/amd/ibs.c __get_ibs_caps: flags not valid -> 0x7 */
	ibs->present = 1;
	for (unsigned i = 0; i < sizeof(ibs_quirk_rows) / sizeof(ibs_quirk_rows[0]); i++) {
		const struct ibs_quirk_row *q = &ibs_quirk_rows[i];
		if (q->family == family && model >= q->model_lo && model <= q->model_hi)
			ibs->quirks |= q->quirks;
	}
}

int amd_ibs_config(struct amd_ibs *ibs, enum ibs_mode mode, uint32_t period, enum ibs_count count,
		   char *err, size_t errlen)
{
	ibs->mode = (uint8_t)mode;
	ibs->count = (uint8_t)count;
	ibs->period = period;
	if (mode == IBS_MODE_OFF)
		return 0;
	uint32_t min = mode == IBS_MODE_FETCH ? IBS_FETCH_MIN_PERIOD : IBS_OP_MIN_PERIOD;
	uint32_t max = mode == IBS_MODE_OP && (!ibs->present || (ibs->caps & IBS_CAPS_OPCNTEXT)) ?
		       IBS_OP_MAX_PERIOD_EXT : IBS_MAX_PERIOD;
	const char *what = mode == IBS_MODE_FETCH ? "fetch" : "op";
	if (period & IBS_PERIOD_LOW_MASK) {
		fmt_snprintf(err, errlen, "ibs_period=0x%x: bits 3:0 must be zero (period = MaxCnt << 4)", period);
		return -1;
	}
	if (period < min || period > max) {
		fmt_snprintf(err, errlen, "ibs_period=0x%x: out of range 0x%x..0x%x for IBS %s sampling%s", period,
			     min, max, what, max == IBS_MAX_PERIOD && mode == IBS_MODE_OP ?
			     " (20 bits: no IbsOpMaxCnt extension, CPUID 8000_001B:EAX[6])" : "");
		return -1;
	}
	if (mode == IBS_MODE_FETCH && count == IBS_COUNT_OPS) {
		fmt_snprintf(err, errlen, "ibs_count=ops: only IBS op sampling counts dispatched ops");
		return -1;
	}
	if (count == IBS_COUNT_OPS && ibs->present && !(ibs->caps & IBS_CAPS_OPCNT)) {
		fmt_snprintf(err, errlen, "ibs_count=ops: no IbsOpCntCtl on this CPU (CPUID 8000_001B:EAX[4] = 0)");
		return -1;
	}
	if (mode == IBS_MODE_FETCH) {
		ibs->cfg = ((period >> 4) & IBS_FETCH_MAXCNT_MASK) | IBS_RAND_EN;
		if (ibs->present && !(ibs->caps & IBS_CAPS_FETCHSAM))
			fmt_snprintf(ibs->why, sizeof(ibs->why), "no IBS fetch sampling: CPUID 8000_001B:EAX[1] = 0");
	} else {
		/* Linux arch/x86/events/amd/ibs.c perf_ibs_start: period bits 26:20 map 1:1, bits 19:4 go to [15:0]. */
		ibs->cfg = (period & IBS_OP_MAXCNT_EXT_MASK) | ((period >> 4) & IBS_OP_MAXCNT_MASK) |
			   (count == IBS_COUNT_OPS ? IBS_OP_CNT_CTL : 0);
		if (ibs->present && !(ibs->caps & IBS_CAPS_OPSAM))
			fmt_snprintf(ibs->why, sizeof(ibs->why), "no IBS op sampling: CPUID 8000_001B:EAX[2] = 0");
	}
	return 0;
}

static uint32_t ctl_msr(const struct amd_ibs *ibs)
{
	return ibs->mode == IBS_MODE_FETCH ? IbsFetchCtl : IbsOpCtl;
}

static uint64_t en_bit(const struct amd_ibs *ibs)
{
	return ibs->mode == IBS_MODE_FETCH ? IBS_FETCH_EN : IBS_OP_EN;
}

static hw_status failed(struct amd_ibs *ibs, const char *what, hw_status st)
{
	ibs->fault = st;
	ibs->running = 0;
	fmt_snprintf(ibs->why, sizeof(ibs->why), "%s: %s", what, hw_status_name(st));
	return st;
}

hw_status amd_ibs_start(const struct hw *hw, struct amd_ibs *ibs, struct saveset *sv)
{
	if (ibs->mode == IBS_MODE_OFF || !ibs->present || ibs->why[0])
		return HW_OK;
	memset(&ibs->h, 0, sizeof(ibs->h));
	ibs->polls = ibs->rearms = 0;
	uint32_t msr = ctl_msr(ibs);
	const char *name = ibs->mode == IBS_MODE_FETCH ? "IbsFetchCtl" : "IbsOpCtl";
	hw_status st = saveset_save(hw, sv, reg_msr(msr), NULL);
	if (st == HW_OK && ibs->mode == IBS_MODE_OP && (ibs->quirks & IBS_Q_718_OPDATA3))
		st = saveset_write(hw, sv, reg_msr(IbsOpData3), 0);
	if (st == HW_OK)
		st = saveset_write(hw, sv, reg_msr(msr), 0);
	if (st == HW_OK)
		st = hw_wrmsr(hw, msr, ibs->cfg | en_bit(ibs));
	if (st != HW_OK)
		return failed(ibs, name, st);
	ibs->running = 1;
	return HW_OK;
}

static hw_status poll_fetch(const struct hw *hw, struct amd_ibs *ibs, uint64_t ctl)
{
	uint64_t lin = 1;
	hw_status st = HW_OK;
	if (ibs->quirks & IBS_Q_1197_LINAD0)
		st = hw_rdmsr(hw, IbsFetchLinAd, &lin);
	if (st != HW_OK)
		return failed(ibs, "IbsFetchLinAd", st);
	ibs_decode_fetch(&ibs->h, ibs->quirks, ibs->caps, ctl, lin);
	st = hw_wrmsr(hw, IbsFetchCtl, 0);
	if (st == HW_OK)
		st = hw_wrmsr(hw, IbsFetchCtl, ibs->cfg | IBS_FETCH_EN);
	return st == HW_OK ? HW_OK : failed(ibs, "IbsFetchCtl re-arm", st);
}

static hw_status poll_op(const struct hw *hw, struct amd_ibs *ibs, uint64_t ctl)
{
	uint64_t d1 = 0, d2 = 0, d3 = 0;
	hw_status st = hw_rdmsr(hw, IbsOpData, &d1);
	if (st == HW_OK)
		st = hw_rdmsr(hw, IbsOpData2, &d2);
	if (st == HW_OK)
		st = hw_rdmsr(hw, IbsOpData3, &d3);
	if (st != HW_OK)
		return failed(ibs, "IbsOpData..IbsOpData3", st);
	ibs_decode_op(&ibs->h, ibs->quirks, ibs->caps, d1, d2, d3);
	if (ibs->quirks & IBS_Q_718_OPDATA3)
		st = hw_wrmsr(hw, IbsOpData3, 0);
	uint64_t nc = ibs->cfg | IBS_OP_EN;
	if ((ibs->caps & IBS_CAPS_RDWROPCNT) && (ibs->cfg & IBS_OP_CNT_CTL))
		nc |= ctl & IBS_OP_CUR_CNT_RAND;
	if (st == HW_OK)
		st = hw_wrmsr(hw, IbsOpCtl, nc);
	return st == HW_OK ? HW_OK : failed(ibs, "IbsOpCtl re-arm", st);
}

hw_status ibs_poll(const struct hw *hw, struct amd_ibs *ibs)
{
	if (!ibs->running)
		return HW_OK;
	uint64_t ctl;
	ibs->polls++;
	hw_status st = hw_rdmsr(hw, ctl_msr(ibs), &ctl);
	if (st != HW_OK)
		return failed(ibs, ibs->mode == IBS_MODE_FETCH ? "IbsFetchCtl" : "IbsOpCtl", st);
	uint64_t val = ibs->mode == IBS_MODE_FETCH ? IBS_FETCH_VAL : IBS_OP_VAL;
	if (!(ctl & val))
		return HW_OK;
	ibs->rearms++;
	return ibs->mode == IBS_MODE_FETCH ? poll_fetch(hw, ibs, ctl) : poll_op(hw, ibs, ctl);
}

hw_status amd_ibs_stop(const struct hw *hw, struct amd_ibs *ibs)
{
	if (!ibs->running)
		return HW_OK;
	hw_status st = ibs_poll(hw, ibs);
	if (!ibs->running)
		return st;
	uint32_t msr = ctl_msr(ibs);
	uint64_t maxcnt = ibs->mode == IBS_MODE_FETCH ? IBS_FETCH_MAXCNT_MASK : IBS_OP_MAXCNT_MASK | IBS_OP_MAXCNT_EXT_MASK;
	if (ibs->quirks & IBS_Q_420_STOP)
		st = hw_wrmsr(hw, msr, (ibs->cfg | en_bit(ibs)) & ~maxcnt);
	if (st == HW_OK)
		st = hw_wrmsr(hw, msr, 0);
	ibs->running = 0;
	return st == HW_OK ? HW_OK : failed(ibs, "IBS stop", st);
}
