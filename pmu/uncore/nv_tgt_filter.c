/* SPDX-License-Identifier: BSD-2-Clause */
/* The Tegra410 PCIE-TGT address-filter slots: ranges to slots, PMEVFILT2R slot bits, slot
 * programming through the save-set (pmu/uncore/nvidia_cspmu.h; nvidia-tegra410-pmu.rst
 * "PCIE-TGT PMU", Linux drivers/perf/arm_cspmu/nvidia_cspmu.c). */
#include "pmu/uncore/nvidia_cspmu.h"
#include "arch/lib/fmt.h"

/* Slot registers: offsets from the slot's start (nvidia-tegra410-pmu.rst). */
#define TGT_CTRL 0x00u
#define TGT_BASE_LO 0x04u
#define TGT_BASE_HI 0x08u
#define TGT_MASK_LO 0x0Cu
#define TGT_MASK_HI 0x10u
#define TGT_CTRL_ENABLE 1u

int nv_tgt_slots_from_ranges(const struct nv_addr_range *r, uint32_t nr, struct nv_tgt_slot *slot, char *why,
			     size_t n)
{
	if (nr > NV_TGT_SLOTS) {
		fmt_snprintf(why, n, "%u address ranges: the PCIE-TGT PMU has %u filter slots", nr, NV_TGT_SLOTS);
		return -1;
	}
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t sz = r[i].size;
		if (!sz || (sz & (sz - 1)) || (r[i].base & (sz - 1))) {
			fmt_snprintf(why, n, "range %u (base 0x%llx, size 0x%llx): not a power-of-two size aligned to it, "
				     "which one base/mask slot cannot match exactly", i, (unsigned long long)r[i].base,
				     (unsigned long long)sz);
			return -1;
		}
		slot[i] = (struct nv_tgt_slot){ r[i].base, ~(sz - 1) };
	}
	return 0;
}

uint32_t nv_tgt_filt2(uint32_t rp_mask, uint32_t slot_mask)
{
	return (rp_mask & NV_TGT_FILT2_RP) | ((slot_mask << 8) & NV_TGT_FILT2_SLOTS);
}

void nv_cspmu_drop_slots(struct nv_cspmu_req *req)
{
	for (uint32_t i = 0; req->nslots && i < req->nev; i++) {
		struct cspmu_event *e = &req->ev[i];
		if (e->cycles || !(e->filt2 & NV_TGT_FILT2_SLOTS))
			continue;
		e->filt2 &= ~NV_TGT_FILT2_SLOTS;
		if (!(e->filt2 & NV_TGT_FILT2_RP))
			e->filt2 |= NV_TGT_FILT2_RP;
	}
	req->nslots = 0;
}

hw_status nv_tgt_program_slots(const struct hw *hw, struct saveset *save, uint64_t block,
			       const struct nv_tgt_slot *slot, uint32_t ns)
{
	for (uint32_t i = 0; i < ns && i < NV_TGT_SLOTS; i++) {
		uint64_t a = block + NV_TGT_SLOT0 + (uint64_t)NV_TGT_SLOT_STRIDE * i;
		const uint32_t v[5] = { TGT_CTRL_ENABLE, (uint32_t)slot[i].base, (uint32_t)(slot[i].base >> 32),
					(uint32_t)slot[i].mask, (uint32_t)(slot[i].mask >> 32) };
		const uint32_t off[5] = { TGT_CTRL, TGT_BASE_LO, TGT_BASE_HI, TGT_MASK_LO, TGT_MASK_HI };
		/* BASE and MASK before CTRL: the slot is enabled only once it matches what it should */
		for (int k = 4; k >= 0; k--) {
			hw_status st = saveset_write(hw, save, reg_mmio32(a + off[k]), v[k]);
			if (st != HW_OK)
				return st;
		}
	}
	return HW_OK;
}
