/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What must be undone when the run ends through an unexpected CPU exception instead of returning:
 * a measurement that took something from the firmware (an NVMe controller disconnected from its
 * driver) registers how to give it back while it holds it. The fatal-exception path
 * (efi/main.c) runs every registered cleanup, last registered first, before it writes the end
 * record; a measurement that returns normally unregisters its cleanup and gives back itself.
 */
#ifndef EFIPERF_CLEANUP_H
#define EFIPERF_CLEANUP_H

#define CLEANUP_MAX 8

/* Register fn(arg). Returns a slot for cleanup_pop, or -1 when CLEANUP_MAX are registered. */
int cleanup_push(void (*fn)(void *arg), void *arg);
/* Unregister slot (without running it). */
void cleanup_pop(int slot);
/* Run every registered cleanup once, last registered first, and unregister them. */
void cleanup_run_all(void);

#endif
