/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run plan's hardware checks, before the first window: every key that names a PCI function
 * is resolved against config space, so a bad value is a config error naming where it was set
 * before anything is measured.
 *   dma_engine   a function is there (Vendor ID not FFFFh: PCIe Base 6.0 7.5.1.1), efiperf knows
 *                it as a DMA engine (efi/measure/dma_engine.h table) and its register BAR is an
 *                assigned memory BAR (efi/pcie/pci_bar.h)
 *   mmio_bdf     a function is there and BAR mmio_bar is an assigned memory BAR
 *   nvme         each function listed is there and its class code is 01 08 02 (mass storage,
 *                non-volatile memory, NVM Express: PCI Code and ID Assignment 1.11, base class
 *                01h); nvme_rw = write names its range (nvme_write_lba)
 *   ddio_sweep,  need a disk to read: dma_blockio set
 *   dma_cpu_traffic
 * The Block IO targets (dma_blockio, dma_write_lba) need the firmware's Block IO protocol and
 * are checked by the glue (efi/measure/blockio_measure.h blockio_plan_check).
 * Pure over the hardware interface: host-tested on the PCI model. Sizing a BAR writes it and
 * puts it back (pci_bar_probe).
 */
#ifndef EFIPERF_PLAN_CHECK_H
#define EFIPERF_PLAN_CHECK_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/pcie/pcie.h"

#define PLAN_MAX_ERRORS 8

struct plan_error {
	uint8_t key;           /* enum cfg_key_id: the key whose value is wrong */
	char msg[200];         /* what is wrong, naming the function and BAR */
};

struct plan_errors {
	int n;                 /* errors found (may exceed PLAN_MAX_ERRORS; extra not stored) */
	struct plan_error e[PLAN_MAX_ERRORS];
	struct pcie_func rp_probe;   /* pcie_pmu_rp's probe (~1.5 KiB: in the caller's errors, off the
				      * firmware stack) */
};

/* Add an error for key (printf-style message). */
void plan_error_add(struct plan_errors *out, enum cfg_key_id key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The checks above over cfg. Returns the number of errors added to out. */
int plan_check_pci(const struct hw *hw, const struct efiperf_config *cfg, struct plan_errors *out);

#endif
