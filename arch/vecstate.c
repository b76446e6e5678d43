/* SPDX-License-Identifier: BSD-2-Clause */
/* Enabling and restoring the vector state on one CPU (arch/vecstate.h). Pure. */
#include <string.h>
#include "arch/vecstate.h"

static int fail(struct vec_cpu *c, hw_status st, const char *step)
{
	if (!c->failed) {
		c->st = st;
		c->failed = step;
	}
	return -1;
}

int vec_enable(const struct vec_ops *o, const struct vec_plan *p, struct vec_cpu *c)
{
	uint32_t cpu = c->cpu;
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	hw_status st = o->read_ctl(&c->ctl_fw);
	if (st != HW_OK)
		return fail(c, st, "read ctl");
	c->ctl_on = c->ctl_back = c->ctl_fw;
	if (p->why)
		return 0;   /* nothing to enable: the firmware's state is left as it is */
	uint64_t ctl = (c->ctl_fw | p->ctl_set) & ~p->ctl_clear;
	if (ctl != c->ctl_fw) {
		c->ctl_written = 1;
		if ((st = o->write_ctl(ctl)) != HW_OK)
			return fail(c, st, "write ctl");
		if ((st = o->read_ctl(&c->ctl_on)) != HW_OK)
			return fail(c, st, "read back ctl");
		if (c->ctl_on != ctl)
			return fail(c, HW_OK, "ctl read back differs");
	}
	if ((st = o->read_xcr(&c->xcr_fw)) != HW_OK)
		return fail(c, st, "read xcr");
	c->xcr_fw_valid = 1;
	c->xcr_on = c->xcr_back = c->xcr_fw;
	uint64_t xcr = c->xcr_fw | p->xcr_set;
	if (xcr != c->xcr_fw) {
		c->xcr_written = 1;
		if ((st = o->write_xcr(xcr)) != HW_OK)
			return fail(c, st, "write xcr");
		if ((st = o->read_xcr(&c->xcr_on)) != HW_OK)
			return fail(c, st, "read back xcr");
		if ((c->xcr_on & p->xcr_mask) != (xcr & p->xcr_mask))
			return fail(c, HW_OK, "xcr read back differs");
	}
	c->enabled = 1;
	return 0;
}

int vec_restore(const struct vec_ops *o, struct vec_cpu *c)
{
	int ok = 1;
	hw_status st;
	if (c->xcr_written) {
		if ((st = o->write_xcr(c->xcr_fw)) != HW_OK)
			ok = 0, fail(c, st, "restore xcr");
		else if ((st = o->read_xcr(&c->xcr_back)) != HW_OK)
			ok = 0, fail(c, st, "read back restored xcr");
		else if (c->xcr_back != c->xcr_fw)
			ok = 0, fail(c, HW_OK, "restored xcr differs");
		else
			c->xcr_written = 0;
	}
	if (c->ctl_written) {
		if ((st = o->write_ctl(c->ctl_fw)) != HW_OK)
			ok = 0, fail(c, st, "restore ctl");
		else if ((st = o->read_ctl(&c->ctl_back)) != HW_OK)
			ok = 0, fail(c, st, "read back restored ctl");
		else if (c->ctl_back != c->ctl_fw)
			ok = 0, fail(c, HW_OK, "restored ctl differs");
		else
			c->ctl_written = 0;
	}
	c->restored = (uint8_t)ok;
	return ok ? 0 : -1;
}

void vec_enable_entry(void *arg)
{
	struct vec_job *j = arg;
	j->ran = 1;
	vec_enable(j->ops, j->plan, &j->c);
}

void vec_restore_entry(void *arg)
{
	struct vec_job *j = arg;
	j->ran = 1;
	vec_restore(j->ops, &j->c);
}

/* ---- plans ------------------------------------------------------------------------------- */

/* SDM Vol. 2A CPUID Table 3-10 (leaf 1 ECX), Table 3-8 (leaf 07H EBX), leaf 0DH; Vol. 3A 2.5
 * (CR4.OSXSAVE bit 18); Vol. 1 Figure 13-1 / 13.3 (XCR0 bits). */
#define CPUID1_ECX_XSAVE  (1u << 26)
#define CPUID1_ECX_AVX    (1u << 28)
#define CPUID7_EBX_AVX512F (1u << 16)
#define CR4_OSXSAVE       (1ull << 18)
#define X_X87    (1ull << 0)
#define X_SSE    (1ull << 1)
#define X_AVX    (1ull << 2)
#define X_ZMM    ((1ull << 5) | (1ull << 6) | (1ull << 7))   /* opmask, ZMM_Hi256, Hi16_ZMM */
#define CPUID_XSAVE_LEAF 0xDu

void x86_vec_plan(uint32_t max_leaf, uint32_t leaf1_ecx, uint32_t leaf7_ebx, uint64_t sup, struct vec_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->ctl_name = "CR4", p->xcr_name = "XCR0";
	p->supported = sup;
	if (max_leaf < 1 || !(leaf1_ecx & CPUID1_ECX_XSAVE)) {
		p->why = "CPUID.1:ECX.XSAVE[bit 26] = 0: no XSAVE, so no AVX state to enable (SSE2 kernels)";
		return;
	}
	if (max_leaf < CPUID_XSAVE_LEAF || !(sup & X_AVX) || !(leaf1_ecx & CPUID1_ECX_AVX)) {
		p->why = "CPUID.1:ECX.AVX[bit 28] = 0 or CPUID.(EAX=0DH,ECX=0):EAX[bit 2] = 0: the CPU has no AVX state "
			 "(SSE2 kernels)";
		return;
	}
	p->ctl_set = CR4_OSXSAVE;
	p->xcr_set = X_X87 | X_SSE | X_AVX;
	if (max_leaf >= 7 && (leaf7_ebx & CPUID7_EBX_AVX512F) && (sup & X_ZMM) == X_ZMM)
		p->xcr_set |= X_ZMM;
	p->xcr_mask = p->xcr_set;
}

/* Arm ARM D19.2: ID_AA64PFR0_EL1.SVE [35:32]; CPACR_EL1.ZEN [17:16]; CPTR_EL2.TZ [8] (E2H = 0)
 * or ZEN [17:16] (E2H = 1); ZCR_ELx.LEN [3:0]. */
#define PFR0_SVE_SHIFT 32
#define PFR0_SVE_MASK 0xFull
#define ZEN_BITS (3ull << 16)
#define CPTR_TZ (1ull << 8)
#define ZCR_LEN_MAX 0xFull

void aarch64_vec_plan(uint64_t pfr0, uint32_t el, int e2h, struct vec_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->ctl_name = el == 2 ? "CPTR_EL2" : "CPACR_EL1";
	p->xcr_name = el == 2 ? "ZCR_EL2" : "ZCR_EL1";
	p->supported = (pfr0 >> PFR0_SVE_SHIFT) & PFR0_SVE_MASK;
	if (!p->supported) {
		p->why = "ID_AA64PFR0_EL1.SVE[35:32] = 0: no SVE (NEON kernels)";
		return;
	}
	if (el == 1 || (el == 2 && e2h))
		p->ctl_set = ZEN_BITS;
	else if (el == 2)
		p->ctl_clear = CPTR_TZ;
	else {
		p->why = "not running at EL1 or EL2: SVE trap controls not reachable (NEON kernels)";
		return;
	}
	p->xcr_set = ZCR_LEN_MAX;
	p->xcr_mask = 0;   /* LEN beyond the implemented length reads back as written or capped */
}

int aarch64_sve_untrapped(uint32_t el, int e2h, uint64_t ctl)
{
	if (el == 1 || (el == 2 && e2h))
		return (ctl & ZEN_BITS) == ZEN_BITS;
	return el == 2 && !(ctl & CPTR_TZ);
}
