/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exception handlers that make rdmsr/wrmsr/rdpmc and MMIO (x86_64: #GP, #UD, #PF) and optional
 * system-register accesses and MMIO (aarch64: synchronous exceptions, Data Aborts among them)
 * return a status instead of crashing: one handler, registered through
 * EFI_CPU_ARCH_PROTOCOL.RegisterInterruptHandler for each vector in arch_fault_vectors[],
 * asks arch_fault_fixup() to resume at the fixup address. Faults elsewhere are bugs, not probes:
 * on the boot CPU (its hardware ID is recorded at registration) the fatal path logs them and ends
 * the run; on another CPU the job ends early and its caller reports the fault
 * (exceptions_ap_call). EFI_MP_SERVICES_PROTOCOL APs reach this handler too: edk2 UefiCpuPkg
 * MpInitLib (MpLib.c ApWakeupFunction) loads on each AP the boot CPU's saved volatile registers,
 * IDTR included (newer versions point it at a copy of the boot CPU's IDT shared by the APs), whose
 * gates lead to the same CpuExceptionHandlerLib stubs and registered handlers; the QEMU test
 * tests/qemu/test_apfault.py sees an AP's #UD arrive here under OVMF.
 */
#ifndef EFIPERF_EXCEPTIONS_H
#define EFIPERF_EXCEPTIONS_H

#include <stdint.h>
#include "arch/hw.h"

/* A fault no fixup covers, taken on a CPU other than the boot CPU. */
struct exc_ap_fault {
	const char *vector;   /* arch_fault_vectors[] name ("#UD", "#GP", "#PF", "sync") or "unregistered vector" */
	uintptr_t ip;         /* the faulting instruction's address */
	uint64_t hwid;        /* arch_cpu_hwid() of the CPU (x86 APIC ID, aarch64 MPIDR affinity) */
};

/* Run fn(arg) on this (non-boot) CPU so that a fault no fixup covers ends fn instead of the run:
 * the handler, seeing it is not on the boot CPU, fills *fault and resumes here (arch_guarded_call).
 * Returns 0 when fn returned, 1 when it faulted (*fault filled). Calls no firmware: safe in an
 * EFI_AP_PROCEDURE. With more than 1024 such calls at once the rest run unguarded: a fault there
 * is recorded and its CPU spins (it may not call boot services), so its job never returns. */
int exceptions_ap_call(hw_cpu_fn fn, void *arg, struct exc_ap_fault *fault);

/* ip as an offset into efiperf's image (the "efiperf.so+0x..." of fault messages, to look up
 * with nm): ip minus gnu-efi's ImageBase, the image's load address. No firmware call. */
uintptr_t exceptions_image_offset(uintptr_t ip);


/* Register the handlers. Returns the number of vectors registered; *why gets a reason
 * ("EFI_CPU_ARCH_PROTOCOL not found", "vector 13: Access Denied") when fewer than all. */
int exceptions_register(const char **why);

/* Unregister every handler this module registered (pass NULL to the firmware). Idempotent. */
void exceptions_unregister(void);

/* Faults recovered since registration. */
uint32_t exceptions_recovered(void);

/* Called (from the exception handler) with the vector's name and faulting instruction pointer
 * when a fault on the boot CPU was not at a fault-safe access: record it and end the run (never
 * on another CPU: see exceptions_ap_call). If fn returns, the
 * CPU spins with the message on the console. */
void exceptions_on_fatal(void (*fn)(const char *vector, uintptr_t ip));

#endif
