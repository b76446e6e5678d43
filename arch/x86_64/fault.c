/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86_64 side of exception recovery: called from the handler efi/exceptions.c registers with
 * EFI_CPU_ARCH_PROTOCOL.RegisterInterruptHandler. The firmware saved the interrupted context in
 * EFI_SYSTEM_CONTEXT_X64 (UEFI PI spec, DebugSupport protocol); changing Rip and Rax there
 * resumes at the fixup with the status in RAX (arch/x86_64/safe_access.S).
 */
#include <efi.h>
#include <efidebug.h>
#include "arch/arch.h"

int arch_fault_fixup(void *system_context, hw_status st)
{
	EFI_SYSTEM_CONTEXT_X64 *c = system_context;
	uintptr_t fix = fixup_lookup(arch_fixups, arch_nfixups, (uintptr_t)c->Rip);
	if (!fix)
		return 0;
	c->Rip = fix;
	c->Rax = (UINT64)st;
	return 1;
}

uintptr_t arch_fault_ip(void *system_context)
{
	return (uintptr_t)((EFI_SYSTEM_CONTEXT_X64 *)system_context)->Rip;
}

/* arch/x86_64/guard.S: resume there with RDI = g (the System V first argument). */
void arch_guard_escape(void);

void arch_fault_escape(void *system_context, struct arch_guard *g)
{
	EFI_SYSTEM_CONTEXT_X64 *c = system_context;
	c->Rip = (UINT64)(uintptr_t)arch_guard_escape;
	c->Rdi = (UINT64)(uintptr_t)g;
}
