/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/fixup.h"

uintptr_t fixup_lookup(const struct fixup_entry *table, size_t n, uintptr_t ip)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].fault_ip == ip)
			return table[i].fixup_ip;
	return 0;
}
