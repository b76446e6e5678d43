/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Full vector width inside the firmware: enabling the wider register state the CPU has and the
 * firmware left off, for efiperf's own run, and giving it back. Pure header and pure sequence
 * (arch/vecstate.c); the registers are reached through struct vec_ops, which the arch backends
 * fill with fault-safe accessors (arch/<arch>/vecstate.c) and the unit tests with a fake.
 *
 * Two registers per CPU, one gating the other:
 *   x86_64  ctl = CR4 (bit 18 OSXSAVE enables XGETBV/XSETBV and the XCR0-managed state, SDM
 *                 Vol. 3A 2.5 "Control Registers"), xcr = XCR0 (state components the OS
 *                 manages: 1 SSE, 2 AVX, 5 opmask, 6 ZMM_Hi256, 7 Hi16_ZMM; SDM Vol. 1 13.3
 *                 "Enabling the XSAVE Feature Set and XSAVE-Enabled Features"), read and
 *                 written with XGETBV/XSETBV (only while CR4.OSXSAVE is set, else #UD).
 *   aarch64 ctl = CPACR_EL1 at EL1 (ZEN [17:16] = 0b11: SVE not trapped, Arm ARM D19.2
 *                 CPACR_EL1) or CPTR_EL2 at EL2 (TZ bit 8 cleared when HCR_EL2.E2H = 0, ZEN
 *                 [17:16] = 0b11 when E2H = 1; D19.2 CPTR_EL2), xcr = ZCR_EL1/ZCR_EL2 (LEN
 *                 [3:0]: vector length (LEN + 1) x 128 bits, capped by the implementation;
 *                 D19.2 ZCR_EL1), accessible only once ctl no longer traps SVE.
 *
 * Sequence on one CPU (vec_enable): read ctl (what the firmware had); when the plan needs bits
 * it lacks, write ctl with them and read it back; read xcr (now readable: the firmware's value);
 * when the plan needs bits it lacks, write xcr and read it back. vec_restore undoes exactly
 * the writes made, xcr first (while the gate is still open, so its read-back can prove it),
 * then ctl, each read back. A failing access stops the sequence, names the step and keeps its
 * hw_status; vec_restore still undoes what was written before it.
 */
#ifndef EFIPERF_VECSTATE_H
#define EFIPERF_VECSTATE_H

#include <stdint.h>
#include "arch/hw.h"

struct vec_ops {
	hw_status (*read_ctl)(uint64_t *v);
	hw_status (*write_ctl)(uint64_t v);
	hw_status (*read_xcr)(uint64_t *v);
	hw_status (*write_xcr)(uint64_t v);
};

/* What to enable, from CPUID / ID registers (x86_vec_plan, aarch64_vec_plan). */
struct vec_plan {
	uint64_t ctl_set, ctl_clear;   /* ctl bits to set / clear */
	uint64_t xcr_set;              /* xcr bits to set (x86: XCR0 components; aarch64: LEN) */
	uint64_t xcr_mask;             /* xcr bits the plan cares about (the check of "already on") */
	uint64_t supported;            /* x86: CPUID.(EAX=0DH,ECX=0):EDX:EAX; aarch64: ID_AA64PFR0_EL1.SVE */
	const char *why;               /* NULL: the plan is usable; else why there is nothing to do */
	const char *ctl_name, *xcr_name;   /* the registers on this CPU: "CR4"/"XCR0", "CPACR_EL1"/"ZCR_EL1" ... */
};

/* One CPU's run of the sequence. */
struct vec_cpu {
	uint32_t cpu;
	uint64_t ctl_fw, xcr_fw;       /* what the firmware had */
	uint64_t ctl_on, xcr_on;       /* read back after enabling */
	uint64_t ctl_back, xcr_back;   /* read back after restoring */
	uint8_t xcr_fw_valid;          /* xcr_fw read (the gate was open or opened) */
	uint8_t ctl_written, xcr_written;
	uint8_t enabled;               /* everything the plan asked for reads back set */
	uint8_t restored;              /* every write undone and read back equal to the firmware's */
	hw_status st;                  /* first failing access, HW_OK */
	const char *failed;            /* which step failed ("write CR4" ...), NULL */
};

/* Enable on the calling CPU (sequence above). Returns 0, or -1 with c->st / c->failed set. */
int vec_enable(const struct vec_ops *o, const struct vec_plan *p, struct vec_cpu *c);
/* Undo vec_enable's writes on the calling CPU. Returns 0 when restored (also when nothing was
 * written), -1 when a write or read-back failed or differs (c->restored = 0, c->failed). */
int vec_restore(const struct vec_ops *o, struct vec_cpu *c);

/* x86: the plan from CPUID: max_leaf = CPUID.0:EAX, leaf1_ecx = CPUID.1:ECX (XSAVE bit 26, AVX
 * bit 28), leaf7_ebx = CPUID.(7,0):EBX (AVX512F bit 16), xcr0_supported = CPUID.(0DH,0):EDX:EAX
 * (0 when max_leaf < 0xD). Sets CR4.OSXSAVE and XCR0 x87|SSE|AVX where AVX state exists, plus
 * opmask|ZMM_Hi256|Hi16_ZMM where all three exist and AVX512F. */
void x86_vec_plan(uint32_t max_leaf, uint32_t leaf1_ecx, uint32_t leaf7_ebx, uint64_t xcr0_supported,
		  struct vec_plan *p);
/* aarch64: the plan from ID_AA64PFR0_EL1 (SVE [35:32]), CurrentEL (1 or 2) and HCR_EL2.E2H
 * (ignored at EL1). */
void aarch64_vec_plan(uint64_t id_aa64pfr0, uint32_t el, int e2h, struct vec_plan *p);

/* 1 when SVE instructions are not trapped at `el` (1 or 2) by ctl (CPACR_EL1 at EL1, CPTR_EL2
 * at EL2, with HCR_EL2.E2H = e2h), else 0. */
int aarch64_sve_untrapped(uint32_t el, int e2h, uint64_t ctl);

/* The arch backend (arch/<arch>/vecstate.c; not on the host): this CPU's plan inputs read
 * through hw, and the fault-safe register accessors. */
void arch_vec_plan(const struct hw *hw, struct vec_plan *p);
extern const struct vec_ops arch_vec_ops;

/* vec_enable / vec_restore as hw_cpu_fn for hw_run_on_cpu: the argument is a struct vec_job. */
struct vec_job {
	const struct vec_ops *ops;
	const struct vec_plan *plan;
	struct vec_cpu c;
	int ran;                       /* set by the entry: the CPU ran it */
};
void vec_enable_entry(void *job);
void vec_restore_entry(void *job);

#endif
