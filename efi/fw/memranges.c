/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/fw/memranges.h"

int memranges_cover(const struct memrange *r, int n, uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;
	if (!len || end < addr)
		return 0;
	/* Each step moves addr to the end of a range containing it: at most n steps. */
	for (int step = 0; step < n && addr < end; step++) {
		uint64_t next = addr;
		for (int i = 0; i < n; i++)
			if (r[i].start <= addr && addr < r[i].end && r[i].end > next)
				next = r[i].end;
		if (next == addr)
			return 0;
		addr = next;
	}
	return addr >= end;
}
