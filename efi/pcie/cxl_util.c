/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers the efi/pcie/cxl_*.c readers share (efi/pcie/cxl_internal.h): defects and the checks
 * of a register window against its BAR and system RAM. */
#include <stdarg.h>

#include "efi/pcie/cxl_internal.h"
#include "arch/lib/fmt.h"

void cxl_defect(struct cxl_func *c, const char *fmt, ...)
{
	if (c->ndefects++ >= CXL_MAX_DEFECTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(c->defects[c->ndefects - 1], CXL_DEFECT_LEN, fmt, ap);
	va_end(ap);
}

int cxl_overlaps_ram(const struct cxl_env *env, uint64_t base, uint64_t len, uint64_t *at)
{
	for (int i = 0; i < env->nram; i++)
		if (base < env->ram[i].end && env->ram[i].start < base + len) {
			if (at)
				*at = env->ram[i].start;
			return 1;
		}
	return 0;
}

int cxl_window_ok(const struct cxl_env *env, uint64_t addr, uint64_t len, uint64_t lo, uint64_t hi,
		  char *defect, size_t n)
{
	uint64_t ram;
	if (!addr || addr + len < addr || addr < lo || addr + len > hi) {
		fmt_snprintf(defect, n, "0x%llx+0x%llx lies outside 0x%llx-0x%llx", (unsigned long long)addr,
			     (unsigned long long)len, (unsigned long long)lo, (unsigned long long)hi);
		return 0;
	}
	if (cxl_overlaps_ram(env, addr, len, &ram)) {
		fmt_snprintf(defect, n, "0x%llx+0x%llx overlaps system RAM at 0x%llx", (unsigned long long)addr,
			     (unsigned long long)len, (unsigned long long)ram);
		return 0;
	}
	return 1;
}
