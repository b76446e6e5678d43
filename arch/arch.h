/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What each arch/<arch>/ directory provides to the firmware glue (efi/) and to main.
 * One declaration list, two implementations: arch/x86_64/ and arch/aarch64/.
 */
#ifndef EFIPERF_ARCH_H
#define EFIPERF_ARCH_H

#include <stdint.h>
#include "arch/hw.h"
#include "arch/fixup.h"
#include "arch/cpuinfo.h"

/* CPU-register operations of the real backend: cpuid, rdmsr/wrmsr/rdpmc (x86) or system
 * registers (aarch64), and MMIO. efi/hw_efi.c adds PCI config and run-on-CPU. */
extern const struct hw_ops arch_cpu_ops;

/* Instructions that may fault on purpose and where each resumes (arch/fixup.h). */
extern const struct fixup_entry arch_fixups[];
extern const uint32_t arch_nfixups;

/* Exception vectors efi/exceptions.c registers a handler for (x86: 6 #UD, 13 #GP;
 * aarch64: 0 synchronous), and the hw_status each maps to. */
struct arch_fault_vector { uint32_t vector; hw_status status; const char *name; };
extern const struct arch_fault_vector arch_fault_vectors[];
extern const uint32_t arch_nfault_vectors;

/* Called by the registered exception handler with the firmware's EFI_SYSTEM_CONTEXT
 * (passed as void *). If the saved instruction pointer is in arch_fixups, move it to the fixup,
 * put `st` in the return register and return 1; else return 0 (not ours). */
int arch_fault_fixup(void *system_context, hw_status st);
/* The saved instruction pointer in that context (for reporting a fault that was not ours). */
uintptr_t arch_fault_ip(void *system_context);

/* SMIs since reset: Intel MSR_SMI_COUNT (0x34, SDM Vol.4 Table 2-20); HW_FAULT_GP where the
 * CPU has no such MSR, HW_UNSUPPORTED on aarch64 (no SMM). */
hw_status arch_smi_count(const struct hw *hw, uint64_t *count);

/* Free-running time base: x86 TSC (RDTSC), aarch64 CNTVCT_EL0. Ticks. */
uint64_t arch_timer_read(void);

/* Interrupt masking for quiesced windows. Returns the previous state for arch_irq_restore
 * (x86 RFLAGS.IF via pushf/cli; aarch64 DAIF with daifset #2). */
uint64_t arch_irq_disable(void);
void arch_irq_restore(uint64_t saved);

/* Memory copy kernel: copies `bytes` (multiple of 64) from src to dst. x86_64: 64-bit
 * MOVs of 64-byte blocks; aarch64: LDP/STP of 64-byte blocks. */
void arch_copy(void *dst, const void *src, uint64_t bytes);

/* The identity fields this arch reports, in order, and the name of its time base
 * ("TSC", "CNTVCT_EL0"). */
extern const struct cpu_ident_field arch_ident_fields[];
extern const uint32_t arch_nident_fields;
extern const char arch_timer_name[];

/* Fill ci from the CPU through hw (cpuid / MIDR, microcode, timer frequency, PMU probes). */
void arch_cpu_info(const struct hw *hw, struct cpu_info *ci);

/* Enter/leave efiperf's C environment around the whole run (aarch64: point TPIDR_EL0 at a
 * zeroed TLS block for picolibc's errno and restore the firmware's; x86_64: nothing). */
void arch_env_enter(void);
void arch_env_leave(void);

/* The known instruction-count loop (arch/<arch>/known_loop.S): `iterations` turns of a loop that
 * reads the instructions-retired counter itself before and after, so no call sits inside the
 * counted span. x86_64: IA32_FIXED_CTR0 (INST_RETIRED.ANY) through RDPMC (SDM Vol.2B RDPMC);
 * aarch64: PMEVCNTR0_EL0, which the Arm PMUv3 driver programs with INST_RETIRED (event 0x08,
 * Arm ARM D17.4 / common event list). The caller has started that counter.
 *   arch_known_loop_run:       raw after - before (not yet masked to the counter width)
 *   arch_known_loop_expected:  instructions that retire between the two reads, derived from
 *                              the loop's own instructions (see each known_loop.S)
 *   arch_known_loop_event:     the core counter's event name the loop reads
 *   arch_known_loop_max:       the largest iterations the counter width allows */
uint64_t arch_known_loop_run(uint64_t iterations);
uint64_t arch_known_loop_expected(uint64_t iterations);
extern const char arch_known_loop_event[];
extern const uint64_t arch_known_loop_max;

#endif
