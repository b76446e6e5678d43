/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exception handlers that make rdmsr/wrmsr/rdpmc (x86_64) and optional system-register
 * accesses (aarch64) return a status instead of crashing: one handler, registered through
 * EFI_CPU_ARCH_PROTOCOL.RegisterInterruptHandler for each vector in arch_fault_vectors[],
 * asks arch_fault_fixup() to resume at the fixup address. Faults elsewhere are reported on the
 * console with their instruction pointer and stop the machine (they are bugs, not probes).
 */
#ifndef EFIPERF_EXCEPTIONS_H
#define EFIPERF_EXCEPTIONS_H

#include <stdint.h>

/* Register the handlers. Returns the number of vectors registered; *why gets a reason
 * ("EFI_CPU_ARCH_PROTOCOL not found", "vector 13: Access Denied") when fewer than all. */
int exceptions_register(const char **why);

/* Unregister every handler this module registered (pass NULL to the firmware). Idempotent. */
void exceptions_unregister(void);

/* Faults recovered since registration. */
uint32_t exceptions_recovered(void);

/* Called (from the exception handler) with the vector's name and faulting instruction pointer
 * when a fault was not at a fault-safe access: record it and end the run. If fn returns, the
 * CPU spins with the message on the console. */
void exceptions_on_fatal(void (*fn)(const char *vector, uintptr_t ip));

#endif
