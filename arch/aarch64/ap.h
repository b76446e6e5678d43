/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The first words of struct arch_ap (arch/arch.h) as arch/aarch64/ap_entry.S reads them with
 * the MMU off: byte offsets into arch_ap.boot[]. Filled by arch_ap_start() on the boot CPU
 * from its own registers at the current exception level and cleaned to the Point of Coherency
 * before PSCI CPU_ON (Arm ARM D7 "Data and unified caches": an access with the MMU off is
 * Non-cacheable and sees only what reached the PoC).
 * Included by C and by assembly.
 */
#ifndef EFIPERF_AARCH64_AP_H
#define EFIPERF_AARCH64_AP_H

#define AP_OFF_SP      0    /* top of the AP's own stack (16-byte aligned) */
#define AP_OFF_MAIR    8    /* MAIR_ELx of the boot CPU */
#define AP_OFF_TCR     16   /* TCR_ELx */
#define AP_OFF_TTBR0   24   /* TTBR0_ELx */
#define AP_OFF_SCTLR   32   /* SCTLR_ELx (M = 1: the MMU goes on with it) */
#define AP_OFF_CPTR    40   /* CPACR_EL1 at EL1, CPTR_EL2 at EL2 (FP/SIMD not trapped) */
#define AP_OFF_HCR     48   /* HCR_EL2 (EL2 only) */
#define AP_OFF_TPIDR0  56   /* TPIDR_EL0: efiperf's TLS block (picolibc errno) */
#define AP_OFF_EL      64   /* CurrentEL of the boot CPU (EL in bits [3:2]) */
#define AP_OFF_CONDUIT 72   /* 0: HVC, 1: SMC (for the AP's own CPU_OFF) */
#define AP_BOOT_WORDS  10

/* CurrentEL value at EL2 (EL field [3:2] = 2; Arm ARM D23.2 CurrentEL). */
#define AP_CURRENTEL_EL2 0x8

/* Exception frame of the AP vectors: the EFI_SYSTEM_CONTEXT_AARCH64 layout (efi_context.h) so
 * arch_fault_fixup() reads it as it reads the firmware's. */
#define AP_FRAME_BYTES 0x330
#define AP_FRAME_ELR   0x300
#define AP_FRAME_SPSR  0x308
#define AP_FRAME_ESR   0x318
#define AP_FRAME_FAR   0x320

/* Vector kinds (the 16 entries of a vector table, Arm ARM D1 "Exception vectors"): only a
 * synchronous exception from the current EL with SP_ELx can be a fixup. */
#define AP_VEC_SYNC_CUR_SPX 4

#endif
