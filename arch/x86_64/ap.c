/* SPDX-License-Identifier: BSD-2-Clause */
/* x86_64 has no firmware-independent way for efiperf to start APs (INIT-SIPI would need a
 * real-mode trampoline below 1 MiB): the MP services protocol is the only path (arch/arch.h). */
#include "arch/arch.h"

hw_status arch_ap_start(struct arch_ap *ap, int conduit)
{
	(void)ap;
	(void)conduit;
	return HW_UNSUPPORTED;
}

int arch_ap_is_off(uint64_t hwid, int conduit)
{
	(void)hwid;
	(void)conduit;
	return -1;
}

int32_t arch_psci_version(int conduit)
{
	(void)conduit;
	return -1;
}

uint64_t arch_cpu_hwid(void)
{
	return 0;
}

void arch_cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}
