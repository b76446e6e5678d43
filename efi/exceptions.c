/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/exceptions.h"
#include "efi/pi_protocols.h"
#include "arch/arch.h"

static EFI_CPU_ARCH_PROTOCOL *cpu_arch;
static uint8_t registered[8];
static volatile uint32_t recovered;
static void (*fatal_fn)(const char *vector, uintptr_t ip);

static VOID EFIAPI on_exception(EFI_EXCEPTION_TYPE type, EFI_SYSTEM_CONTEXT ctx)
{
	void *context = *(void **)&ctx;  /* the union holds one pointer for every architecture */
	const struct arch_fault_vector *v = NULL;
	for (uint32_t i = 0; i < arch_nfault_vectors; i++)
		if ((EFI_EXCEPTION_TYPE)arch_fault_vectors[i].vector == type)
			v = &arch_fault_vectors[i];
	if (v && arch_fault_fixup(context, v->status)) {
		recovered++;
		return;
	}
	if (fatal_fn)
		fatal_fn(v ? v->name : "unregistered vector", arch_fault_ip(context));
	for (;;)
		;
}

int exceptions_register(const char **why)
{
	static EFI_GUID guid = EFI_CPU_ARCH_PROTOCOL_GUID;
	*why = NULL;
	if (!cpu_arch && BS->LocateProtocol(&guid, NULL, (VOID **)&cpu_arch) != EFI_SUCCESS) {
		cpu_arch = NULL;
		*why = "EFI_CPU_ARCH_PROTOCOL not found";
		return 0;
	}
	int n = 0;
	for (uint32_t i = 0; i < arch_nfault_vectors && i < sizeof(registered); i++) {
		if (registered[i]) {
			n++;
			continue;
		}
		EFI_STATUS st = cpu_arch->RegisterInterruptHandler(cpu_arch, arch_fault_vectors[i].vector, on_exception);
		if (st == EFI_SUCCESS) {
			registered[i] = 1;
			n++;
		} else if (!*why) {
			*why = st == EFI_ALREADY_STARTED ? "a handler was already registered for a vector" :
			       st == EFI_UNSUPPORTED ? "firmware does not support handlers for a vector" :
						       "RegisterInterruptHandler failed";
		}
	}
	return n;
}

void exceptions_unregister(void)
{
	if (!cpu_arch)
		return;
	for (uint32_t i = 0; i < arch_nfault_vectors && i < sizeof(registered); i++)
		if (registered[i]) {
			cpu_arch->RegisterInterruptHandler(cpu_arch, arch_fault_vectors[i].vector, NULL);
			registered[i] = 0;
		}
}

uint32_t exceptions_recovered(void) { return recovered; }
void exceptions_on_fatal(void (*fn)(const char *, uintptr_t)) { fatal_fn = fn; }
