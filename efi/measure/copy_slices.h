/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The copy window the uncore counters run around (the CHA copy, the uncore boxes, the
 * CoreSight and NVIDIA ACPI PMUs): a copy of `bytes` on the boot CPU, interrupts masked, cut
 * into slices when the counters multiplex (slice k of n copies the k-th 64-byte-aligned share).
 */
#ifndef EFIPERF_COPY_SLICES_H
#define EFIPERF_COPY_SLICES_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/platform.h"

struct copy_slices {
	const struct hw *hw;
	const struct platform *p;
	char *src, *dst;         /* pages, bytes each */
	uint64_t bytes;
	uint32_t cur, n;         /* the slice being copied */
};

/* Source and destination pages of `bytes` each. 0, or -1 when either cannot be allocated
 * (nothing kept). */
int copy_slices_alloc(struct copy_slices *c, const struct hw *hw, const struct platform *p, uint64_t bytes);
void copy_slices_free(struct copy_slices *c);

/* cha_window_fn / unc_window_fn: slice `slice` of nslices (0: one) as one window on the boot
 * CPU. Returns its ns (the window's span at the platform's timer rate). */
uint64_t copy_slices_window(void *arg, uint32_t slice, uint32_t nslices);

/* The whole copy as one slice (nv_acpi_window_fn). */
uint64_t copy_slices_whole(void *arg);

#endif
