/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86_64 backend of arch/vecstate.h: CR4 and XCR0 through the fault-safe accessors of
 * safe_access.S (a #GP/#UD returns its hw_status through arch_fixups), and the plan from CPUID
 * leaves 0, 1, 7 and 0DH (SDM Vol. 2A CPUID: "Processor Extended State Enumeration Main Leaf
 * (EAX = 0DH, ECX = 0)": EAX/EDX = the XCR0 bits the processor supports).
 */
#include "arch/vecstate.h"

hw_status x86_rdcr4_safe(uint64_t *val);
hw_status x86_wrcr4_safe(uint64_t val);
hw_status x86_xgetbv_safe(uint32_t xcr, uint64_t *val);
hw_status x86_xsetbv_safe(uint32_t xcr, uint64_t val);

#define XCR_XCR0 0u

static hw_status rd_xcr0(uint64_t *v) { return x86_xgetbv_safe(XCR_XCR0, v); }
static hw_status wr_xcr0(uint64_t v) { return x86_xsetbv_safe(XCR_XCR0, v); }

const struct vec_ops arch_vec_ops = {
	.read_ctl = x86_rdcr4_safe, .write_ctl = x86_wrcr4_safe,
	.read_xcr = rd_xcr0, .write_xcr = wr_xcr0,
};

void arch_vec_plan(const struct hw *hw, struct vec_plan *p)
{
	struct hw_cpuid l0 = { 0 }, l1 = { 0 }, l7 = { 0 }, ld = { 0 };
	hw_cpuid(hw, 0, 0, &l0);
	if (l0.eax >= 1)
		hw_cpuid(hw, 1, 0, &l1);
	if (l0.eax >= 7)
		hw_cpuid(hw, 7, 0, &l7);
	if (l0.eax >= 0xD)
		hw_cpuid(hw, 0xD, 0, &ld);
	x86_vec_plan(l0.eax, l1.ecx, l7.ebx, ((uint64_t)ld.edx << 32) | ld.eax, p);
}
