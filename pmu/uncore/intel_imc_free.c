/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel IMC free-running DRAM counters (pmu/uncore/intel_imc_free.h). Read-only: no register
 * is written here, so there is nothing to save or restore. */
#include "pmu/uncore/intel_imc_free.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* Linux arch/x86/events/intel/uncore_snbep.c, see the header: icx_imc_freerunning[]
 * (ICX_IMC_DCLK, ICX_IMC_DDR), icx_uncore_imc_free_running (num_boxes, mmio_map_size
 * SNR_IMC_MMIO_SIZE), icx_uncore_imc_freerunning_events (scale 6.103515625e-5 MiB = 64 bytes);
 * spr_imc_freerunning[] (SPR_IMC_DCLK, SPR_IMC_PQ_CYCLES). */
#define ICX_IMC_FR_DCLK 0x22b0
#define ICX_IMC_FR_DDR 0x2290
#define ICX_IMC_FR_DDR_STEP 0x8
#define ICX_IMC_FR_BITS 48
#define ICX_IMC_FR_BOXES 4
#define ICX_IMC_FR_MAP 0x4000
#define IMC_FR_BYTES_PER_COUNT 64
#define SPR_IMC_FR_DCLK 0x22b0
#define SPR_IMC_FR_PQ 0x2318

#define SRC "Linux arch/x86/events/intel/uncore_snbep.c "
#define SPR_WHY "the IMC free-running counters of this platform count DCLK and RPQ / WPQ cycles, no DDR bytes " \
	"(" SRC "spr_imc_freerunning, spr_uncore_imc_free_running)"

const struct imc_free_layout imc_free_layouts[] = {
	{ .platform = "SKX", .source = SRC "(skx_* types)",
	  .why = "Skylake-SP / Cascade Lake IMCs have no free-running counters (" SRC "has no skx imc_free_running type)" },
	{ .platform = "ICX", .dclk_off = ICX_IMC_FR_DCLK, .ddr_off = ICX_IMC_FR_DDR, .ddr_step = ICX_IMC_FR_DDR_STEP,
	  .ddr_counters = 2, .width = ICX_IMC_FR_BITS, .nboxes = ICX_IMC_FR_BOXES, .box_stride = 0,
	  .map_size = ICX_IMC_FR_MAP, .bytes_per_count = IMC_FR_BYTES_PER_COUNT,
	  .source = SRC "icx_imc_freerunning (ICX_IMC_DDR read 0x2290, write 0x2298, 48 bits), "
		    "icx_uncore_imc_freerunning_events (6.103515625e-5 MiB = 64 bytes per count)" },
	{ .platform = "SPR", .dclk_off = SPR_IMC_FR_DCLK, .ddr_off = SPR_IMC_FR_PQ, .ddr_step = ICX_IMC_FR_DDR_STEP,
	  .ddr_counters = 2, .width = ICX_IMC_FR_BITS, .map_size = ICX_IMC_FR_MAP, .source = SRC "spr_imc_freerunning",
	  .why = SPR_WHY },
	{ .platform = "EMR", .dclk_off = SPR_IMC_FR_DCLK, .ddr_off = SPR_IMC_FR_PQ, .ddr_step = ICX_IMC_FR_DDR_STEP,
	  .ddr_counters = 2, .width = ICX_IMC_FR_BITS, .map_size = ICX_IMC_FR_MAP, .source = SRC "spr_imc_freerunning",
	  .why = SPR_WHY },
	{ .platform = "GNR", .source = SRC "gnr_uncores",
	  .why = "Granite Rapids: no IMC free-running counter type is known (" SRC "gnr_uncores has none)" },
};
const size_t imc_free_nlayouts = sizeof(imc_free_layouts) / sizeof(imc_free_layouts[0]);

const struct imc_free_layout *imc_free_layout_for(const char *platform)
{
	for (size_t i = 0; platform && i < imc_free_nlayouts; i++)
		if (!strcmp(imc_free_layouts[i].platform, platform))
			return &imc_free_layouts[i];
	return NULL;
}

uint64_t imc_free_delta(uint64_t before, uint64_t after, uint8_t width)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	return ((after & mask) - (before & mask)) & mask;
}

/* Read box b's DDR read and write counters. 0, or -1 with run->why. */
static int read_box(const struct hw *hw, struct imc_free_run *run, uint32_t b, uint64_t *rd, uint64_t *wr)
{
	const struct imc_free_layout *l = run->l;
	uint64_t a[2] = { run->box[b].base + l->ddr_off, run->box[b].base + l->ddr_off + l->ddr_step };
	uint64_t *v[2] = { rd, wr };
	for (int k = 0; k < 2; k++) {
		hw_status st = hw_mmio_read64(hw, a[k], v[k]);
		if (st != HW_OK) {
			run->faulted = 1;
			fmt_snprintf(run->why, sizeof(run->why),
				     "%s IMC free-running %s counter of socket %u IMC %u at MMIO 0x%llx: read failed (%s)",
				     l->platform, k ? "DDR write" : "DDR read", run->box[b].socket, run->box[b].imc,
				     (unsigned long long)a[k], hw_status_name(st));
			return -1;
		}
	}
	return 0;
}

int imc_free_start(const struct hw *hw, const char *platform, const struct imc_free_layout *l,
		   const struct intel_imc_block *boxes, uint32_t n, struct imc_free_run *run)
{
	memset(run, 0, sizeof(*run));
	run->l = l;
	if (!l) {
		fmt_snprintf(run->why, sizeof(run->why), "%s: no IMC free-running counter layout", platform ? platform : "?");
		return -1;
	}
	if (!l->bytes_per_count) {
		fmt_snprintf(run->why, sizeof(run->why), "%s: %s", l->platform, l->why);
		return -1;
	}
	if (!n) {
		fmt_snprintf(run->why, sizeof(run->why), "%s: no IMC MMIO block to read", l->platform);
		return -1;
	}
	run->nboxes = n < IMC_FREE_MAX_BOXES ? n : IMC_FREE_MAX_BOXES;
	memcpy(run->box, boxes, run->nboxes * sizeof(run->box[0]));
	for (uint32_t b = 0; b < run->nboxes; b++)
		if (read_box(hw, run, b, &run->rd0[b], &run->wr0[b])) {
			run->nboxes = 0;          /* stop reads nothing */
			return -1;
		}
	return 0;
}

int imc_free_stop(const struct hw *hw, struct imc_free_run *run)
{
	if (!run->nboxes)
		return -1;
	for (uint32_t b = 0; b < run->nboxes; b++) {
		uint64_t rd, wr;
		if (read_box(hw, run, b, &rd, &wr))
			return -1;
		run->read_counts[b] = imc_free_delta(run->rd0[b], rd, run->l->width);
		run->write_counts[b] = imc_free_delta(run->wr0[b], wr, run->l->width);
		run->read_bytes[b] = run->read_counts[b] * run->l->bytes_per_count;
		run->write_bytes[b] = run->write_counts[b] * run->l->bytes_per_count;
	}
	run->valid = 1;
	return 0;
}

void imc_free_socket_bytes(const struct imc_free_run *run, uint32_t socket, uint64_t *read, uint64_t *write)
{
	*read = *write = 0;
	for (uint32_t b = 0; run->valid && b < run->nboxes; b++)
		if (run->box[b].socket == socket) {
			*read += run->read_bytes[b];
			*write += run->write_bytes[b];
		}
}
