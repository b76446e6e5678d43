/* SPDX-License-Identifier: BSD-2-Clause */
/* CXL discovery glue (efi/cxl_discovery.c): `cxl_host_bridge` and `cxl` records, console tree. */
#ifndef EFIPERF_CXL_DISCOVERY_H
#define EFIPERF_CXL_DISCOVERY_H

#include "efi/discovery.h"
#include "efi/pcie/pcie.h"
#include "efi/pcie/cxl_commit.h"

/* cxl_decoders = commit, as discovery planned it: the window and the hops from its host bridge
 * to the first memory device (efi/cxl_memory.c commits them, measures, puts them back). */
struct cxl_commit_plan {
	int asked;                       /* cxl_decoders = commit and a CXL topology was read */
	char why[160];                   /* non-empty: nothing to commit, and why */
	uint32_t window;                 /* CFMWS index in the CEDT */
	uint64_t base, size;             /* HPA bytes: the window's base, the smaller of window and device */
	struct cxl_commit_hop hop[3];    /* host bridge, root port, device */
	uint64_t len[3];                 /* each hop's component register block length */
	char name[3][32];
	uint64_t cpmu;                   /* the device's first usable CPMU block, 0: none */
	struct pcie_link link;           /* the device's link (negotiated speed and width) */
};

/* The plan of the last discovery_cxl, NULL when cxl_decoders is off or nothing was read. */
const struct cxl_commit_plan *cxl_commit_plan(void);

/* funcs[0..n-1]: the PCIe scan (parents linked). timer_hz: arch_timer_read() ticks per second
 * (the mailbox timeout). Returns the number of CXL functions. */
int discovery_cxl(const struct hw *hw, const struct discovery *d, const struct pcie_func *funcs, int n,
		  uint64_t timer_hz);

#endif
