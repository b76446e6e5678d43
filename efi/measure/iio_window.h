/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The IIO self_check of a DMA window (efi/measure/dma_window.h): with `uncore = on` on an Intel
 * platform with IIO counters and a stack map (SKX/CLX, ICX, SPR, EMR, GNR; the map, its check
 * and the IIO units come from the uncore pass, efi/measure/uncore_run.c), the window's device
 * is placed on its IIO stack and part, that part's inbound read/write counts run on that
 * stack's unit (fixed MSRs, or the discovery table's on SPR and later) around the whole window
 * (one group, no multiplexing), and their bytes (x 4) are compared with the bytes the device
 * moved (pmu/uncore/iio_attrib.h). A device the map cannot place, or a platform without a map
 * (QEMU: MSR 0x300 reads 0; no discovery table), gives an absent self_check whose why names the
 * BDF.
 */
#ifndef EFIPERF_IIO_WINDOW_H
#define EFIPERF_IIO_WINDOW_H

#include "arch/hw.h"
#include "pmu/uncore/iio_attrib.h"

/* Into *st (the DMA plan's, efi/measure/dma_window.h; pool memory allocated on the first
 * call): the platform's IIO table, the IIO units the IIO pass programs and their box type
 * (units[nunits], *type; nunits 0: none, every device's self_check is absent), the checked
 * stack map of each of nsock sockets, and the CPU doing each socket's register work. From then
 * on DMA windows given *st get an IIO self_check. */
struct iio_state;

void iio_window_plan(struct iio_state **st, const struct intel_uncore_platform *ip,
		     const struct uncore_box_type *type, const struct intel_unit *units, uint32_t nunits, const struct iio_map *maps, uint32_t nsock,
		     const uint32_t *cpu);

struct iio_window_result {
	uint8_t on;                  /* planned: the record carries iio_self_check */
	struct iio_place place;
	struct self_check sc;
};

struct iio_attach;
struct attachment;

/* The IIO attachment (plan st, NULL: none) of a DMA window on dev (efi/measure/box_attach.h; x and a the caller's,
 * alive until the window's list is restored): 1 when a rides on the window, 0 when there is no
 * IIO plan (r->on 0: the record has no iio_self_check). After the list's restore r->sc is the
 * self-check against *expected (absent with why when dev is not placed, skip_why is given or
 * the counters failed). */
int iio_window_attach(struct iio_state *st, struct hw_pci_addr dev, const struct self_check_bytes *expected,
		      const char *skip_why, struct iio_window_result *r, struct iio_attach *x, struct attachment *a);

/* After the restore: the counters' error and the restore's (when it says something else) as
 * `uncore` error records. 0, or -1 when the counters failed. */
int iio_window_report(const struct iio_attach *x);

#endif
