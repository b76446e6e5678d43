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

/* Exception vectors efi/exceptions.c registers a handler for (x86: 6 #UD, 13 #GP, 14 #PF;
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

/* A resume point for a job on another CPU, so that a fault no fixup covers ends the job instead
 * of the run (efi/exceptions.c exceptions_ap_call). arch_guarded_call saves the callee-saved
 * registers and stack pointer in g, calls fn(arg) and returns 0; arch_fault_escape(ctx, g),
 * called by the exception handler on the same CPU while fn runs, rewrites the exception context
 * so that, when the handler returns, arch_guarded_call returns 1 on fn's caller's frame
 * (arch/<arch>/guard.S). g must stay valid until arch_guarded_call has returned. */
#define ARCH_GUARD_WORDS 24
struct arch_guard { uint64_t w[ARCH_GUARD_WORDS]; };
int arch_guarded_call(struct arch_guard *g, hw_cpu_fn fn, void *arg) __attribute__((returns_twice));
void arch_fault_escape(void *system_context, struct arch_guard *g);
/* A job that executes an architecturally undefined instruction (x86_64 UD2, aarch64 UDF #0):
 * the config's fault_test hook (test only). */
void arch_undefined_insn(void *arg);

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

/*
 * Secondary CPUs efiperf starts itself where the firmware has no EFI_MP_SERVICES_PROTOCOL
 * (aarch64: PSCI CPU_ON, Arm DEN 0022 "Arm Power State Coordination Interface" 5.1.4; x86_64:
 * not provided, HW_UNSUPPORTED). The AP runs efiperf's own entry code on its own stack with the
 * boot CPU's translation setup and efiperf's exception vectors (the same fault fixups as
 * arch_fixups[]), calls fn(arg) with interrupts masked, and turns itself off (PSCI CPU_OFF,
 * 5.1.3) whatever fn did, also after an exception no fixup covers. It never calls firmware.
 */
#define ARCH_AP_BOOT_WORDS 10
#define ARCH_AP_STACK_BYTES (64 * 1024)
enum arch_ap_state { ARCH_AP_IDLE, ARCH_AP_STARTING, ARCH_AP_RUNNING, ARCH_AP_DONE, ARCH_AP_FAULTED };
enum arch_ap_conduit { ARCH_AP_HVC, ARCH_AP_SMC };
struct arch_ap {
	uint64_t boot[ARCH_AP_BOOT_WORDS]; /* arch-private: read by the entry code with the MMU off */
	hw_cpu_fn fn;
	void *arg;
	uint64_t hwid;                    /* aarch64: MPIDR_EL1 affinity (Aff3..Aff0) of the target */
	void *stack;                      /* ARCH_AP_STACK_BYTES, allocated by the caller */
	volatile uint32_t state;          /* enum arch_ap_state, written by the AP */
	int32_t psci_status;              /* CPU_ON's return value (PSCI 5.2.2: 0 SUCCESS, negative) */
	uint64_t fault_esr, fault_ip;     /* ARCH_AP_FAULTED: ESR_ELx and ELR_ELx of the exception */
} __attribute__((aligned(64)));

/* A spin-wait hint: x86_64 PAUSE (SDM Vol.2B PAUSE), aarch64 YIELD (Arm ARM C6.2 YIELD). */
void arch_cpu_relax(void);

/* Start fn(arg) on ap->hwid through `conduit` (enum arch_ap_conduit). HW_OK when CPU_ON
 * succeeded (ap->state goes RUNNING, then DONE or FAULTED), HW_ERROR with ap->psci_status
 * otherwise, HW_UNSUPPORTED where the architecture has no such interface. */
hw_status arch_ap_start(struct arch_ap *ap, int conduit);
/* PSCI AFFINITY_INFO (5.1.5) of hwid: 1 off, 0 on or on-pending, -1 the call failed. */
int arch_ap_is_off(uint64_t hwid, int conduit);
/* PSCI_VERSION (5.1.1): major << 16 | minor, or a negative PSCI error. */
int32_t arch_psci_version(int conduit);
/* This CPU's hardware ID as the MADT names it (aarch64: MPIDR_EL1 Aff3..Aff0; x86_64: the
 * x2APIC ID of CPUID leaf 0BH EDX, or the initial APIC ID of leaf 01H EBX[31:24] where leaf 0BH
 * is absent: SDM Vol.2A CPUID). Safe in an exception handler: no firmware call. */
uint64_t arch_cpu_hwid(void);

#endif
