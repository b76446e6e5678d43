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
static uint64_t boot_hwid;   /* arch_cpu_hwid() of the CPU that registered: the boot CPU */

/* Jobs running on other CPUs under exceptions_ap_call, found by hardware ID: one slot per CPU
 * up to the MADT's limit (efi/fw/acpi.h ACPI_MAX_CPU_IDS). More at once than slots: the rest run
 * unguarded (a fault there parks its CPU, see on_ap_fault). */
#define AP_GUARDS 1024
struct ap_guard {
	struct arch_guard jmp;
	uint64_t hwid;
	struct exc_ap_fault fault;
};
/* AP_GUARDS slots from the pool (exceptions_register, on the boot CPU before any AP job; 8 KiB
 * that .bss would store in the image): none when the pool had no room, then every AP job runs
 * unguarded as above. */
static struct ap_guard *volatile *ap_guards;
static volatile uint32_t nguards;
static volatile struct exc_ap_fault ap_parked;   /* the last fault of an unguarded AP (for a debugger) */

/* A fault no fixup covers on a CPU other than the boot CPU: no boot services there (PI 1.8
 * Vol.2 13.4 EFI_MP_SERVICES_PROTOCOL.StartupAllAPs(), which StartupThisAP() refers to: "EFI
 * services and protocols may not be called by APs unless otherwise specified"), so no fatal path. Record it in the job's
 * guard and leave the job through arch_fault_escape; without a guard record it and park. */
static void on_ap_fault(void *context, uint64_t me, const char *vector)
{
	struct exc_ap_fault f = { .vector = vector, .ip = arch_fault_ip(context), .hwid = me };
	for (uint32_t i = 0; i < nguards; i++) {
		struct ap_guard *g = __atomic_load_n(&ap_guards[i], __ATOMIC_ACQUIRE);
		if (g && g->hwid == me) {
			g->fault = f;
			arch_fault_escape(context, &g->jmp);
			return;
		}
	}
	ap_parked.vector = f.vector;
	ap_parked.ip = f.ip;
	ap_parked.hwid = me;
	for (;;)
		arch_cpu_relax();
}

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
	uint64_t me = arch_cpu_hwid();
	if (me != boot_hwid) {
		on_ap_fault(context, me, v ? v->name : "unregistered vector");
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
	boot_hwid = arch_cpu_hwid();
	if (!ap_guards) {
		ap_guards = AllocateZeroPool(AP_GUARDS * sizeof(*ap_guards));
		nguards = ap_guards ? AP_GUARDS : 0;
	}
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

extern char ImageBase[];   /* gnu-efi's linker script: the image's load address */

uintptr_t exceptions_image_offset(uintptr_t ip) { return ip - (uintptr_t)ImageBase; }

int exceptions_ap_call(hw_cpu_fn fn, void *arg, struct exc_ap_fault *fault)
{
	struct ap_guard g = { .hwid = arch_cpu_hwid() };
	uint32_t slot = 0;
	uint32_t n = nguards;
	for (; slot < n; slot++) {
		struct ap_guard *none = NULL;
		if (__atomic_compare_exchange_n(&ap_guards[slot], &none, &g, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
	}
	if (slot == n) {
		fn(arg);
		return 0;
	}
	int faulted = arch_guarded_call(&g.jmp, fn, arg);
	__atomic_store_n(&ap_guards[slot], NULL, __ATOMIC_RELEASE);
	if (faulted)
		*fault = *(volatile struct exc_ap_fault *)&g.fault;
	return faulted;
}
