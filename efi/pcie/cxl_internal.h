/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers the efi/pcie/cxl_*.c files share (not an interface of their own). */
#ifndef EFIPERF_CXL_INTERNAL_H
#define EFIPERF_CXL_INTERNAL_H

#include <stddef.h>
#include "efi/pcie/cxl.h"

void cxl_defect(struct cxl_func *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 when [base, base + len) overlaps a system RAM range of env (*at: that range's start). */
int cxl_overlaps_ram(const struct cxl_env *env, uint64_t base, uint64_t len, uint64_t *at);
/* 1 when [addr, addr + len) is non-null, lies in [lo, hi) and overlaps no system RAM; else 0
 * with defect saying which. */
int cxl_window_ok(const struct cxl_env *env, uint64_t addr, uint64_t len, uint64_t lo, uint64_t hi,
		  char *defect, size_t n);
/* Device registers of c at addr (len bytes to its BAR's end). */
void cxl_read_devregs(const struct cxl_env *env, struct cxl_func *c, uint64_t addr, uint64_t len);

#endif
