/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * EFI_SYSTEM_CONTEXT_AARCH64: the register frame the firmware's exception entry saves and
 * hands to a handler registered with EFI_CPU_ARCH_PROTOCOL.RegisterInterruptHandler (through
 * the EFI_SYSTEM_CONTEXT union of pointers). gnu-efi 3.0.15 defines the ARM (32-bit) context
 * but not this one, so it is written here from the UEFI specification's Debug Support
 * protocol ("EFI_SYSTEM_CONTEXT_AARCH64") as EDK2 defines it in
 * MdePkg/Include/Protocol/DebugSupport.h (checked against tianocore/edk2), and as
 * ArmPkg/Library/ArmExceptionLib/AArch64/ExceptionSupport.S builds it on the stack:
 *   X0..X28, FP (x29), LR (x30), SP       0x000 .. 0x0f8
 *   V0..V31, 128 bits each                0x100 .. 0x2f0
 *   ELR, SPSR, FPSR, ESR, FAR             0x300 .. 0x320
 * On return from the handler that entry code reloads X0..X30 and ELR/SPSR from this frame
 * and ERETs, so changing ELR and X0 here resumes at a fixup with a status in x0.
 */
#ifndef EFIPERF_AARCH64_EFI_CONTEXT_H
#define EFIPERF_AARCH64_EFI_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

struct efi_system_context_aarch64 {
	uint64_t x[29];      /* X0..X28 */
	uint64_t fp;         /* x29 */
	uint64_t lr;         /* x30 */
	uint64_t sp;
	uint64_t v[32][2];   /* V0..V31 */
	uint64_t elr;        /* Exception Link Register: the faulting instruction (sync) */
	uint64_t spsr;
	uint64_t fpsr;
	uint64_t esr;        /* Exception Syndrome Register */
	uint64_t far;        /* Fault Address Register */
};

_Static_assert(offsetof(struct efi_system_context_aarch64, v) == 0x100, "V0 at 0x100");
_Static_assert(offsetof(struct efi_system_context_aarch64, elr) == 0x300, "ELR at 0x300");
_Static_assert(offsetof(struct efi_system_context_aarch64, far) == 0x320, "FAR at 0x320");

/* EDK2 DebugSupport.h: EXCEPT_AARCH64_SYNCHRONOUS_EXCEPTIONS. */
#define EFI_EXCEPT_AARCH64_SYNCHRONOUS_EXCEPTIONS 0

/* ESR_ELx.EC, bits [31:26] (Arm ARM D23 ESR_EL1), for the exception classes a fixup expects. */
#define ESR_ELx_EC_SHIFT       26
#define ESR_ELx_EC_MASK        0x3f
#define ESR_ELx_EC_UNKNOWN     0x00   /* e.g. UNDEFINED instruction, unallocated sysreg */
#define ESR_ELx_EC_SYS64       0x18   /* trapped MSR/MRS/System instruction */
#define ESR_ELx_EC_DABT_CUR    0x25   /* Data Abort taken without a change in EL */

#endif
