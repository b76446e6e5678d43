/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/cleanup.h"
#include <stddef.h>

static struct { void (*fn)(void *); void *arg; } slots[CLEANUP_MAX];

int cleanup_push(void (*fn)(void *arg), void *arg)
{
	for (int i = 0; i < CLEANUP_MAX; i++)
		if (!slots[i].fn) {
			slots[i].fn = fn;
			slots[i].arg = arg;
			return i;
		}
	return -1;
}

void cleanup_pop(int slot)
{
	if (slot >= 0 && slot < CLEANUP_MAX)
		slots[slot].fn = NULL;
}

void cleanup_run_all(void)
{
	for (int i = CLEANUP_MAX; i-- > 0;) {
		void (*fn)(void *) = slots[i].fn;
		slots[i].fn = NULL;   /* once, even if fn faults again */
		if (fn)
			fn(slots[i].arg);
	}
}
