/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the CHA event encoder (pmu/intel_cha_encode.c) over arbitrary bytes, on
 * every platform. Beyond not crashing: an accepted string yields register values inside the
 * platform's fields (nothing outside the CTL/filter layouts), and a refused one a terminated,
 * non-empty reason.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "pmu/uncore/intel_cha.h"

static uint64_t allowed(const struct cha_platform *p, unsigned target)
{
	uint64_t m = target == CHA_T_CTL ? p->box.ctl_en : p->filter_default[target - CHA_T_FILTER0];
	for (int i = 0; i < p->nfields; i++)
		if (p->fields[i].target == target)
			m |= (p->fields[i].width >= 64 ? ~0ull : ((1ull << p->fields[i].width) - 1)) << p->fields[i].shift;
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t k = 0; k < cha_nplatforms; k++) {
		const struct cha_platform *p = &cha_platforms[k];
		struct cha_encoding e;
		char why[160];
		memset(why, 'x', sizeof(why));
		if (cha_encode(p, (const char *)data, size, &e, why, sizeof(why)) == 0) {
			assert((e.ctl & ~allowed(p, CHA_T_CTL)) == 0);
			for (unsigned f = 0; f < CHA_NFILTERS; f++)
				if (e.uses & (1u << f)) {
					assert(p->box.filter[f] != BOX_NO_REG);
					assert((e.filter[f] & ~allowed(p, CHA_T_FILTER0 + f)) == 0);
				}
		} else {
			assert(memchr(why, 0, sizeof(why)) && why[0]);
		}
	}
	return 0;
}
