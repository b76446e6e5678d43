/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel IMC free-running DRAM counters: read-only counters in each memory controller's MMIO
 * block that count from reset and are never programmed (Linux's uncore_imc_free_running PMU,
 * arch/x86/events/intel/uncore_snbep.c). Per platform, as data (imc_free_layouts[]):
 *
 *   ICX   icx_imc_freerunning[] = { ICX_IMC_DCLK { 0x22b0, 0x0, 0, 1, 48 }, ICX_IMC_DDR
 *         { 0x2290, 0x8, 0, 2, 48 }, ICX_IMC_DDRT { 0x22a0, ... } } (struct freerunning_counters:
 *         counter_base, counter_offset, box_offset, num_counters, bits): DDR read at block +0x2290,
 *         write at +0x2298 (counter_offset 8), DCLK at +0x22b0, 48 bits, 64-bit reads (readq).
 *         icx_uncore_imc_free_running: num_boxes 4, mmio_map_size SNR_IMC_MMIO_SIZE 0x4000, one
 *         box per memory controller (not per channel); icx_uncore_imc_freerunning_init_box maps box
 *         m at (cfg[0xD0] & 0x1FFFFFFF) << 23 | (cfg[0xD8 + 4 m] & 0x7FF) << 12 of the 8086:3451
 *         function (SNR_IMC_MMIO_BASE_*, SNR_IMC_MMIO_MEM0_*, ICX_IMC_MEM_STRIDE), box_ctl 0 and
 *         box_offset 0: boxes have no fixed stride. icx_uncore_imc_freerunning_events read/write
 *         .scale 6.103515625e-5 MiB = 64 bytes per count.
 *   SPR, EMR  spr_imc_freerunning[] = { SPR_IMC_DCLK { 0x22b0, ... 48 }, SPR_IMC_PQ_CYCLES
 *         { 0x2318, 0x8, 0, 2, 48 } } (spr_uncore_imc_free_running, SPR_MC_DEVICE_ID 0x3251):
 *         DCLK and RPQ / WPQ occupancy cycles, no DDR byte counter.
 *   SKX, GNR  no imc_free_running type (skx_* and gnr_uncores[] in the same file).
 *
 * Nothing here writes a register: the counters are read before and after the window, so
 * nothing needs saving or restoring.
 */
#ifndef EFIPERF_INTEL_IMC_FREE_H
#define EFIPERF_INTEL_IMC_FREE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/uncore/intel_uncore.h"

struct imc_free_layout {
	const char *platform;                     /* intel_uncore_platform name: "ICX" */
	uint32_t dclk_off;                        /* DCLK counter in the block (0: none) */
	uint32_t ddr_off;                         /* the pair: ICX DDR read (write at + ddr_step);
						   * SPR / EMR RPQ cycles (WPQ at + ddr_step) */
	uint32_t ddr_step;
	uint8_t ddr_counters;                     /* DDR counters per box (read, write) */
	uint8_t width;                            /* counter bits */
	uint8_t nboxes;                           /* boxes per socket (one per IMC) */
	uint32_t box_stride;                      /* 0: each box's block from the MC function's MEMm register */
	uint32_t map_size;                        /* bytes of the block the counters lie in */
	uint32_t bytes_per_count;                 /* 0: the counters count no bytes (why says so) */
	const char *source;
	const char *why;                          /* no DDR byte counter: why */
};

extern const struct imc_free_layout imc_free_layouts[];
extern const size_t imc_free_nlayouts;
/* The layout of a platform by name, or NULL (why then says there is no entry). */
const struct imc_free_layout *imc_free_layout_for(const char *platform);

#define IMC_FREE_MAX_BOXES INTEL_IMC_MAX_BLOCKS

/* One window over the boxes (the IMCs' MMIO blocks from intel_imc_blocks). */
struct imc_free_run {
	const struct imc_free_layout *l;
	uint32_t nboxes;
	struct intel_imc_block box[IMC_FREE_MAX_BOXES];
	uint64_t rd0[IMC_FREE_MAX_BOXES], wr0[IMC_FREE_MAX_BOXES];
	/* result: valid, or why not */
	uint8_t valid;
	uint8_t faulted;                          /* why names a read that failed (an error, not absence) */
	char why[200];
	uint64_t read_counts[IMC_FREE_MAX_BOXES], write_counts[IMC_FREE_MAX_BOXES];
	uint64_t read_bytes[IMC_FREE_MAX_BOXES], write_bytes[IMC_FREE_MAX_BOXES];   /* counts x bytes_per_count */
};

/* after - before of a counter of `width` bits that may have wrapped once. */
uint64_t imc_free_delta(uint64_t before, uint64_t after, uint8_t width);

/* Start: the layout l (NULL: none for platform `platform`, or no bytes: run->why from the
 * table), the boxes, and the DDR read / write counters of each read once (64-bit MMIO reads
 * at block + ddr_off, + ddr_off + ddr_step). A read that fails leaves run->valid 0 and why
 * naming the box, the address and the hw status; the caller goes on without the figure.
 * Returns 0 when the counters were read. */
int imc_free_start(const struct hw *hw, const char *platform, const struct imc_free_layout *l,
		   const struct intel_imc_block *boxes, uint32_t n, struct imc_free_run *run);
/* Stop: read again; per box the deltas (wrap at width) in counts and in bytes. Sets valid, or
 * why as for imc_free_start. Does nothing when start did not read. Returns 0 when valid. */
int imc_free_stop(const struct hw *hw, struct imc_free_run *run);
/* Sums of the boxes of one socket, in bytes. */
void imc_free_socket_bytes(const struct imc_free_run *run, uint32_t socket, uint64_t *read, uint64_t *write);

#endif
