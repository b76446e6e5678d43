/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SPR and later: the IMC channels and IIO stacks of every socket from its uncore discovery
 * table (pmu/uncore/intel_discovery.h), read from the functions 8086:09A7 of the PCI scan (in
 * scan order: socket 0, 1, ...) once per run into the run plan's struct uncore_scan and kept
 * until uncore_disc_free. A table's defects are reported as errors ("uncore discovery
 * table of socket S: ...") and the units it does describe are used; no table at all is the
 * reason the IMC / IIO records give ("no uncore discovery table found: ...").
 */
#ifndef EFIPERF_UNCORE_DISC_H
#define EFIPERF_UNCORE_DISC_H

#include "arch/hw.h"
#include "pmu/uncore/intel_uncore.h"

struct uncore_disc_table;

/* The Intel PCI scan (uncore_run_plan) and each socket's discovery table, read once: pool
 * memory the run plan holds (efi/measure/measurement.h) from the uncore plan row to the end
 * of measure_uncore. */
struct uncore_scan {
	struct intel_pci_fn *fn;                              /* n scanned functions, NULL: not scanned */
	uint32_t n;
	struct uncore_disc_table *table[UNC_MAX_PKGS];        /* socket s's table, NULL: not read yet */
};

/* Units of box bx over nsock sockets into units[max] (*n), *ty the box type with the table's
 * geometry. 0, or -1 with why. */
int uncore_disc_units(const struct hw *hw, const struct intel_uncore_platform *ip, enum intel_box bx,
		      struct uncore_scan *sc, uint32_t nsock, struct intel_unit *units,
		      uint32_t max, uint32_t *n, struct uncore_box_type *ty, char *why, size_t wn);
/* The IIO stack map of socket s (map_source discovery_table); not valid with why when the
 * socket has no table. */
void uncore_disc_iio_map(const struct hw *hw, const struct intel_uncore_platform *ip, struct uncore_scan *sc,
			 uint32_t s, struct iio_map *m);

/* Free the tables read (each socket's is read once per run) and the scan. */
void uncore_disc_free(struct uncore_scan *sc);

#endif
