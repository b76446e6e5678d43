/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Secondary CPUs through PSCI (Arm DEN 0022D.b "Arm Power State Coordination Interface"):
 * the boot CPU's side of arch_ap_start (arch/arch.h) and the AP's C side (arm_ap_main,
 * arm_ap_exception) of arch/aarch64/ap_entry.S.
 *
 * Function IDs (PSCI 5.1, table of function IDs; SMC64 forms where an argument is 64 bits):
 *   PSCI_VERSION 0x84000000, CPU_OFF 0x84000002, CPU_ON (SMC64) 0xC4000003,
 *   AFFINITY_INFO (SMC64) 0xC4000004.
 * Return codes (PSCI 5.2.2): SUCCESS 0, NOT_SUPPORTED -1, INVALID_PARAMETERS -2, DENIED -3,
 * ALREADY_ON -4, ON_PENDING -5, INTERNAL_FAILURE -6, NOT_PRESENT -7, DISABLED -8,
 * INVALID_ADDRESS -9. AFFINITY_INFO answers ON 0, OFF 1, ON_PENDING 2.
 */
#include "arch/arch.h"
#include "arch/aarch64/ap.h"

#define PSCI_FN_VERSION        0x84000000u
#define PSCI_FN_CPU_OFF        0x84000002u
#define PSCI_FN64_CPU_ON       0xC4000003u
#define PSCI_FN64_AFFINITY     0xC4000004u
#define PSCI_AFF_OFF           1
/* MPIDR_EL1 affinity fields Aff3 [39:32], Aff2..Aff0 [23:0] (Arm ARM D23.2 MPIDR_EL1); PSCI's
 * target_cpu takes them in the same positions (PSCI 5.1.4). */
#define MPIDR_AFF_MASK 0xff00ffffffull

_Static_assert(ARCH_AP_BOOT_WORDS == AP_BOOT_WORDS, "boot words");

int64_t arm_psci_hvc(uint64_t fid, uint64_t a1, uint64_t a2, uint64_t a3);
int64_t arm_psci_smc(uint64_t fid, uint64_t a1, uint64_t a2, uint64_t a3);
void arm_ap_entry(struct arch_ap *ap);
extern const char arm_ap_entry_end[];
extern const char arm_ap_vectors[];
struct arch_ap *arm_ap_self(void);
void arm_clean_to_poc(uintptr_t start, uintptr_t end);
void arm_ap_main(struct arch_ap *ap) __attribute__((noreturn));
void arm_ap_exception(void *frame, uint64_t kind);

static int64_t psci(int conduit, uint64_t fid, uint64_t a1, uint64_t a2, uint64_t a3)
{
	return conduit == ARCH_AP_SMC ? arm_psci_smc(fid, a1, a2, a3) : arm_psci_hvc(fid, a1, a2, a3);
}

int32_t arch_psci_version(int conduit)
{
	return (int32_t)psci(conduit, PSCI_FN_VERSION, 0, 0, 0);
}

uint64_t arch_cpu_hwid(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(v));
	return v & MPIDR_AFF_MASK;
}

int arch_ap_is_off(uint64_t hwid, int conduit)
{
	int64_t r = psci(conduit, PSCI_FN64_AFFINITY, hwid & MPIDR_AFF_MASK, 0, 0);
	return r < 0 ? -1 : r == PSCI_AFF_OFF;
}

#define RD(reg) ({ uint64_t v_; __asm__ volatile("mrs %0, " #reg : "=r"(v_)); v_; })

hw_status arch_ap_start(struct arch_ap *ap, int conduit)
{
	uint64_t el = RD(CurrentEL);
	uint64_t *b = ap->boot;
	b[AP_OFF_SP / 8] = ((uint64_t)(uintptr_t)ap->stack + ARCH_AP_STACK_BYTES) & ~15ull;
	if (el == AP_CURRENTEL_EL2) {
		b[AP_OFF_MAIR / 8] = RD(mair_el2);
		b[AP_OFF_TCR / 8] = RD(tcr_el2);
		b[AP_OFF_TTBR0 / 8] = RD(ttbr0_el2);
		b[AP_OFF_SCTLR / 8] = RD(sctlr_el2);
		b[AP_OFF_CPTR / 8] = RD(cptr_el2);
		b[AP_OFF_HCR / 8] = RD(hcr_el2);
	} else {
		b[AP_OFF_MAIR / 8] = RD(mair_el1);
		b[AP_OFF_TCR / 8] = RD(tcr_el1);
		b[AP_OFF_TTBR0 / 8] = RD(ttbr0_el1);
		b[AP_OFF_SCTLR / 8] = RD(sctlr_el1);
		b[AP_OFF_CPTR / 8] = RD(cpacr_el1);
		b[AP_OFF_HCR / 8] = 0;
	}
	b[AP_OFF_TPIDR0 / 8] = RD(tpidr_el0);
	b[AP_OFF_EL / 8] = el;
	b[AP_OFF_CONDUIT / 8] = (uint64_t)conduit;
	ap->state = ARCH_AP_STARTING;
	ap->fault_esr = ap->fault_ip = 0;
	/* What the AP reads with its MMU off must be at the PoC: its block and its entry code. */
	arm_clean_to_poc((uintptr_t)ap, (uintptr_t)(ap + 1));
	arm_clean_to_poc((uintptr_t)arm_ap_entry, (uintptr_t)arm_ap_entry_end);
	int64_t r = psci(conduit, PSCI_FN64_CPU_ON, ap->hwid & MPIDR_AFF_MASK, (uint64_t)(uintptr_t)arm_ap_entry,
			 (uint64_t)(uintptr_t)ap);
	ap->psci_status = (int32_t)r;
	if (r != 0) {
		ap->state = ARCH_AP_IDLE;
		return HW_ERROR;
	}
	return HW_OK;
}

static void __attribute__((noreturn)) ap_off(struct arch_ap *ap)
{
	__asm__ volatile("dsb sy" ::: "memory");
	psci((int)ap->boot[AP_OFF_CONDUIT / 8], PSCI_FN_CPU_OFF, 0, 0, 0);
	for (;;)  /* CPU_OFF returns only on failure (PSCI 5.1.3: DENIED): park */
		__asm__ volatile("wfe");
}

void arm_ap_main(struct arch_ap *ap)
{
	__atomic_store_n(&ap->state, ARCH_AP_RUNNING, __ATOMIC_RELEASE);
	ap->fn(ap->arg);
	__atomic_store_n(&ap->state, ARCH_AP_DONE, __ATOMIC_RELEASE);
	ap_off(ap);
}

/* From arm_ap_vectors: a synchronous exception at an arch_fixups[] instruction resumes at its
 * fixup (returns); anything else is recorded in the AP's block and the AP turns itself off. */
void arm_ap_exception(void *frame, uint64_t kind)
{
	if (kind == AP_VEC_SYNC_CUR_SPX && arch_fault_fixup(frame, HW_FAULT_SYNC))
		return;
	struct arch_ap *ap = arm_ap_self();
	const uint64_t *f = frame;
	ap->fault_esr = f[AP_FRAME_ESR / 8];
	ap->fault_ip = f[AP_FRAME_ELR / 8];
	__atomic_store_n(&ap->state, ARCH_AP_FAULTED, __ATOMIC_RELEASE);
	ap_off(ap);
}

void arch_cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}
