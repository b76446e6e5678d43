/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model backend for host tests: a struct hw whose registers live in tables.
 *
 * - MSRs / Arm system registers: each defined register has a value and a behaviour:
 *   plain (read back what was written), read-only (write -> #GP), counter (advances by `step`
 *   each time hw_model_tick() runs while its enable predicate holds). An undefined MSR faults
 *   with #GP, an undefined sysreg with a synchronous exception, like real hardware.
 * - cpuid: a table of (leaf, subleaf) -> registers; missing leaves read as zeros (as CPUs do
 *   above their max leaf... callers check max leaf first).
 * - rdpmc: faults with #UD unless enabled with hw_model_rdpmc().
 * - on_write (optional): called after every write that took effect, so a test can model a
 *   register whose value derives from others (PERF_METRICS from SLOTS, IBS re-arm).
 * - Every write is logged so tests can check sequences and that state was restored.
 */
#ifndef EFIPERF_HW_MODEL_H
#define EFIPERF_HW_MODEL_H

#include "arch/hw.h"

#define HW_MODEL_MAX_REGS 256
#define HW_MODEL_MAX_CPUID 64
#define HW_MODEL_MAX_LOG 1024

enum hw_model_space { HWM_MSR, HWM_SYSREG };
enum hw_model_kind { HWM_PLAIN, HWM_READONLY, HWM_COUNTER };

struct hw_model_reg {
	uint8_t space, kind;
	uint32_t id;
	uint64_t value;
	uint64_t step;        /* HWM_COUNTER: added per tick while enabled */
	uint64_t width_mask;  /* value wraps at this mask (0 = 64 bits) */
	/* HWM_COUNTER: enabled when (reg[en_id] & en_mask) == en_mask for both predicates
	 * (en_mask 0 = no predicate). */
	uint32_t en_id, en2_id;
	uint64_t en_mask, en2_mask;
};

struct hw_model_write { uint8_t space; uint32_t id; uint64_t value; };

struct hw_model {
	struct hw_model_reg regs[HW_MODEL_MAX_REGS];
	int nregs;
	struct { uint32_t leaf, sub; struct hw_cpuid r; } cpuid[HW_MODEL_MAX_CPUID];
	int ncpuid;
	int rdpmc_enabled;
	struct hw_model_write log[HW_MODEL_MAX_LOG];
	int nlog;
	uint32_t ncpus;        /* run_on_cpu accepts 0..ncpus-1 */
	/* When set, cpuid(leaf) stores value into MSR msr (if defined), as CPUID.1 loads the
	 * microcode revision into IA32_BIOS_SIGN_ID on real CPUs. */
	struct { int set; uint32_t leaf, msr; uint64_t value; } cpuid_effect;
	/* Optional: called by hw_model_tick() after the counters advanced, for registers whose
	 * advance depends on more than an enable predicate (e.g. uncore boxes counting scripted
	 * traffic by event, tests/model/cha_model.c). */
	void (*tick_hook)(struct hw_model *m, unsigned n, void *arg);
	void *tick_arg;
	/* Optional: called after every write that took effect (see above). */
	void (*on_write)(struct hw_model *m, uint8_t space, uint32_t id, uint64_t value);
	void *user;            /* for on_write */
	/* Fault injection: every MSR, system-register and RDPMC access is numbered from 1
	 * (naccess counts them). The access numbered fail_at (0: none) fails with fail_status
	 * (0: the space's own fault, #GP or a synchronous exception) and changes nothing; with
	 * fail_sticky every later access fails too (a CPU that stopped answering). With
	 * fail_writes_only only writes are numbered and failed. A test loops fail_at over
	 * 1..naccess of a clean run to fail each step of a sequence in turn. */
	uint32_t naccess, fail_at;
	uint8_t fail_sticky, fail_writes_only;
	hw_status fail_status;
	uint32_t nfailed;      /* accesses failed by injection */
};

void hw_model_init(struct hw_model *m);
struct hw hw_model_hw(struct hw_model *m);
struct hw_model_reg *hw_model_reg(struct hw_model *m, enum hw_model_space sp, uint32_t id,
				  enum hw_model_kind kind, uint64_t value);
struct hw_model_reg *hw_model_find(struct hw_model *m, enum hw_model_space sp, uint32_t id);
void hw_model_cpuid(struct hw_model *m, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b, uint32_t c, uint32_t d);
void hw_model_rdpmc(struct hw_model *m, int enabled);
/* Plain (non-counter) registers whose values differ between two models of the same layout:
 * the count, and the first one's space and id in *space / *id (may be NULL). */
int hw_model_plain_diff(const struct hw_model *a, const struct hw_model *b, uint8_t *space, uint32_t *id);
/* Advance every enabled counter by its step, n times. */
void hw_model_tick(struct hw_model *m, unsigned n);

#endif
