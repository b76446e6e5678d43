/* SPDX-License-Identifier: BSD-2-Clause */
/* Pure x86 CPU identification over the hardware interface (host-tested on the model). */
#ifndef EFIPERF_X86_CPUID_PURE_H
#define EFIPERF_X86_CPUID_PURE_H

#include "arch/cpuinfo.h"
#include "arch/hw.h"

/* Display family/model/stepping of a CPUID.1:EAX signature (SDM Vol.2A CPUID, "Family
 * and Model": ext family added when family == 0xF; ext model prepended when family is 0x6 or
 * 0xF). */
void x86_decode_signature(uint32_t eax, uint32_t *family, uint32_t *model, uint32_t *stepping);

/* TSC frequency in Hz from CPUID 0x15 (crystal * EBX / EAX) or, when the crystal frequency
 * is not enumerated (ECX = 0), from CPUID 0x16 base MHz... 0 when neither says. *source gets
 * "cpuid-0x15" / "cpuid-0x16". max_leaf bounds what is asked. */
uint64_t x86_tsc_hz(const struct hw *hw, uint32_t max_leaf, const char **source);

/* One sub-leaf of CPUID leaf 4 or 0x8000001D (the same layout: SDM Vol.2A CPUID leaf 04H,
 * AMD APM Vol.3 E.4.15 Fn8000_001D) into *c. Returns 0, or -1 for type 0 ("no more caches"). */
int x86_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct cache_desc *c);

/* The caches the CPU reports into ci->cache (ci->vendor, max_leaf, max_ext_leaf filled):
 * AMD/Hygon with TopologyExtensions (CPUID 0x80000001 ECX[22]) from 0x8000001D, otherwise leaf 4
 * where max_leaf reaches it; ci->cache_source names the leaf, NULL when neither exists. */
void x86_caches(const struct hw *hw, struct cpu_info *ci);

/* Vendor, brand, signature, microcode (IA32_BIOS_SIGN_ID), topology (0x1F/0xB), invariant
 * TSC and its frequency where enumerated, and the probes: rdpmc (RDPMC of fixed counter 0:
 * "#UD" where not implemented), IA32_X2APIC_APICID ("#GP" in xAPIC mode), perfmon version. */
void x86_cpu_info(const struct hw *hw, struct cpu_info *ci);

#endif
