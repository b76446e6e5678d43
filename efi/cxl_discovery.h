/* SPDX-License-Identifier: BSD-2-Clause */
/* CXL discovery glue (efi/cxl_discovery.c): `cxl_host_bridge` and `cxl` records, console tree. */
#ifndef EFIPERF_CXL_DISCOVERY_H
#define EFIPERF_CXL_DISCOVERY_H

#include "efi/discovery.h"
#include "efi/pcie/pcie.h"

/* funcs[0..n-1]: the PCIe scan (parents linked). timer_hz: arch_timer_read() ticks per second
 * (the mailbox timeout). Returns the number of CXL functions. */
int discovery_cxl(const struct hw *hw, const struct discovery *d, const struct pcie_func *funcs, int n,
		  uint64_t timer_hz);

#endif
