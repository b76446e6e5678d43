/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A CXL 2.0 Type 3 memory device for host tests: its configuration space (tests/model/pci_model.c:
 * PCIe DVSEC for CXL Devices, Register Locator, two 64-bit BARs) and its MMIO: a component
 * register block (CXL.cache/mem capability array with RAS, link and HDM decoder capabilities)
 * and a device register block (capability array, Event Status, primary mailbox, Memory Device
 * Status) whose mailbox answers Identify Memory Device, Get Partition Info, Get Health Info and
 * Get Event Records from the values a test sets. Layouts are written here as the CXL 3.1 tables
 * give them (literal offsets, with their table), not through efiperf's headers.
 *
 * The component blocks of the host bridge and root port above it have the same layout; an HDM
 * decoder's Commit sets Committed (8.2.4.20.7) when Base and Size are 256 MiB multiples and Size
 * is not 0, else Error Not Committed; clearing Commit clears both.
 *
 * Knobs: the doorbell never clears (mbox_stuck), a return code for every command (mbox_rc), an
 * access that faults (fault_at: the Nth MMIO access returns HW_FAULT_GP), and a clock that
 * ticks once per now() call. Every MMIO write is counted by address class so a test can prove
 * that only the mailbox was written.
 */
#ifndef EFIPERF_CXL_MODEL_H
#define EFIPERF_CXL_MODEL_H

#include <stdint.h>
#include "arch/hw.h"
#include "tests/model/pci_model.h"
#include "tests/model/cxl_cpmu_model.h"

#define CXLM_COMP_BASE   0xC1200000ull   /* BAR 0: component registers, 64 KiB */
#define CXLM_COMP_SIZE   0x10000ull
#define CXLM_DEV_BASE    0xC1210000ull   /* BAR 2: device registers, 4 KiB */
#define CXLM_DEV_SIZE    0x1000ull
#define CXLM_BDF_BUS     0x0d
#define CXLM_HB_BASE     0x100000000ull  /* host bridge component registers (QEMU's CHBS base) */
#define CXLM_RP_BASE     0x800000000ull  /* root port component registers */

struct cxl_model {
	struct pci_model pci;
	struct pci_model_func *f;
	uint32_t comp[CXLM_COMP_SIZE / 4];
	uint32_t hb[CXLM_COMP_SIZE / 4], rp[CXLM_COMP_SIZE / 4];   /* same layout as comp */
	int commit_never, commit_error;    /* HDM decoders: Committed never set / Error Not Committed */
	uint32_t dev[CXLM_DEV_SIZE / 4];
	struct cxl_cpmu_model cpmu;        /* BAR 4: a CPMU block (Register Block Identifier 4) */
	/* mailbox answers */
	uint8_t identify[0x43], partition[0x20], health[0x12];
	uint16_t event_count[4];
	int mbox_stuck;
	uint16_t mbox_rc;
	uint32_t commands;                 /* doorbells rung */
	uint16_t last_opcode;
	/* faults and accounting */
	uint64_t accesses, fault_at;       /* fault_at 0: never */
	uint32_t comp_writes, dev_writes_outside_mbox, mbox_writes;
	uint64_t ticks;
};

/* The device at 0000:0d:00.0 as QEMU 7.2 lays it out (hw/mem/cxl_type3.c, hw/cxl/). */
void cxl_model_init(struct cxl_model *m);
struct hw cxl_model_hw(struct cxl_model *m);
uint64_t cxl_model_now(void *m);

#endif
