/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 core PMU, one entry-point set per CPU around a measurement window:
 *
 *   corepmu_probe(hw, cp)            CPUID (+ IA32_PERF_CAPABILITIES): vendor, family/model,
 *                                    backend chosen from a table (Intel architectural perfmon
 *                                    with its TopDown variant, or AMD core counters + IBS and,
 *                                    on Zen 4/5, the pipeline-utilization row), and
 *                                    cp->lacks[]: what this CPU does not have, one line each.
 *   corepmu_configure(cp, cfg, err)  event strings, topdown, ibs: syntax/range errors name the
 *                                    key and field; features the CPU lacks are not errors, they
 *                                    are reported absent with the reason.
 *   corepmu_start(hw, cp, now, hz)   save every register it writes, program, reset TopDown,
 *                                    arm IBS; now/hz: a timer read and its frequency (0 = tick
 *                                    on every call).
 *   corepmu_tick(hw, cp, now)        call between kernel chunks: polls IBS on every call; reads
 *                                    and accumulates the counters and reads + resets SLOTS /
 *                                    PERF_METRICS when >= 250 ms passed since the last such read
 *                                    (Linux tools/perf/Documentation/topdown.txt: reset at least every few seconds);
 *                                    multiplexed, switches to the next group when a slice
 *                                    (100 us) passed since the last switch (pmu/core/x86_mux.h).
 *   corepmu_stop(hw, cp, now)        final reads, counters disabled, IBS stopped.
 *   corepmu_restore(hw, cp)          every register written is put back (also after a failed or
 *                                    missing stop); cp->restore says what could not be; safe to
 *                                    call twice.
 *
 * Everything runs on the CPU it measures: with several CPUs, the caller runs each call on each
 * CPU with hw_run_on_cpu(), each CPU with its own struct corepmu (corepmu_call() below).
 */
#ifndef EFIPERF_X86_COREPMU_H
#define EFIPERF_X86_COREPMU_H

#include "pmu/core/intel_topdown.h"
#include "pmu/core/amd_core.h"
#include "pmu/core/amd_pipeline.h"
#include "pmu/core/amd_ibs.h"
#include "pmu/core/x86_event.h"
#include "pmu/core/x86_mux.h"

enum corepmu_backend { CP_NONE, CP_INTEL_ARCH, CP_AMD_CORE };

#define CP_MAX_LACKS 6
#define CP_LACK_LEN 128
#define CP_TICK_DIV 4u          /* tick work at most every timer_hz / 4 ticks (250 ms) */

struct corepmu_config {
	const char *core_events;    /* `core_events`: event strings separated by spaces, or "" */
	int topdown;                /* `topdown`: 0 off, 1 on, 2 l2 (AMD Zen 4/5: PipelineL2 as a second
	                             * multiplexed group; elsewhere as on) */
	enum ibs_mode ibs;          /* `ibs`: off | fetch | op */
	uint32_t ibs_period;        /* `ibs_period` */
	enum ibs_count ibs_count;   /* `ibs_count`: cycles | ops */
	int multiplex;              /* 1: events beyond the free general counters go to further groups,
	                             * rotated at ticks; 0: they are absent (a window without ticks) */
};

struct corepmu {
	/* identity */
	char vendor[13];
	uint32_t family, model, stepping, max_leaf;
	uint8_t smt, hybrid, pcore;
	/* choice */
	uint8_t backend;            /* enum corepmu_backend */
	const char *backend_name;   /* "intel-arch-perfmon", "amd-core", NULL */
	uint8_t td_kind, td_level2; /* TopDown method the table chose (enum td_kind); its row gives level 2 */
	const char *td_rule;        /* which table row chose it */
	char td_why[CP_LACK_LEN];   /* why none */
	int nlacks;
	char lacks[CP_MAX_LACKS][CP_LACK_LEN];
	struct x86_event_caps caps;
	/* units */
	struct intel_core ic;
	struct intel_topdown td;
	struct amd_core ac;
	struct amd_ibs ibs;
	/* AMD pipeline utilization (topdown = on, Zen 4/5): the row, each input's ac.c[] index
	 * (-1: not added; level 2's after level 1's), the result of the last window; topdown = l2:
	 * apl_l2 when level 2's inputs are group 1, else apl2_why says why level 1 only */
	const struct amd_pipeline_gen *apl_gen;
	int8_t apl_idx[APL_NIN2];
	struct amd_pipeline_out apl;
	uint8_t apl_l2;
	char apl2_why[CP_LACK_LEN];
	struct amd_pipeline_l2_out apl2;
	int topdown_on;
	struct x86_mux mux;         /* multiplexed groups (mux.ngroups > 1) and the last window's times */
	struct saveset sv;          /* every register the window writes (pmu/saveset.h) */
	struct saved_reg sv_e[X86_SAVE_MAX];
	struct saveset_report restore;  /* what the last corepmu_restore() put back, or could not */
	/* run */
	uint64_t timer_hz, last_tick;
	uint32_t ticks;
	int started;
	hw_status fault;            /* first failed access of the run */
};

int corepmu_probe(const struct hw *hw, struct corepmu *cp);
/* X86_GEN_* model-specific event tables of Intel family 6 `model` (0: none, architectural
 * events only); ecore: a hybrid part's E-core. */
uint16_t corepmu_intel_gens(uint32_t model, int ecore);
/* X86_GEN_* named-event generation of the backend row vendor ("AuthenticAMD", 12 characters
 * of CPUID leaf 0) / family / model gets, as corepmu_probe() chooses it (0: none; Intel family
 * 6 adds corepmu_intel_gens()). */
uint16_t corepmu_x86_gens(const char *vendor, uint32_t family, uint32_t model);
/* topdown = on on AMD: the counter of pipeline input i (enum apl_input, apl2_input) when it was read around
 * the last window (ctr_state_read: its acc is the window's delta), else NULL (not added, absent
 * or faulted). */
const struct x86_ctr *corepmu_apl_read(const struct corepmu *cp, int i);
/* cfg->core_events on the backend's counters, after topdown = on's inputs. With cfg->multiplex,
 * events beyond the free general counters go to further groups of at most that many (in the
 * order given), rotated at ticks (pmu/core/x86_mux.h); Intel fixed counters and TopDown's
 * general-counter inputs count in every group (pinned), as do AMD pipeline inputs when they leave
 * a counter free; when they take every counter (six inputs on six counters: Zen 4/5) they are
 * group 0, all together, and the events groups 1... (topdown = l2: level 2's inputs group 1,
 * the events groups 2...) -1 with err naming the event (syntax), or
 * the limit: X86_MAX_EVENTS events with the inputs, X86_MUX_MAX_GROUPS groups. */
int corepmu_configure(struct corepmu *cp, const struct corepmu_config *cfg, char *err, size_t errlen);
/* corepmu_configure's part for core_events (pmu/core/x86_corepmu_pack.c): list after the inputs
 * cp already holds; sets cp->mux.ngroups. 0, or -1 with err. */
int corepmu_add_events(struct corepmu *cp, const char *list, int multiplex, char *err, size_t errlen);
hw_status corepmu_start(const struct hw *hw, struct corepmu *cp, uint64_t now, uint64_t timer_hz);
hw_status corepmu_tick(const struct hw *hw, struct corepmu *cp, uint64_t now);
hw_status corepmu_stop(const struct hw *hw, struct corepmu *cp, uint64_t now);
hw_status corepmu_restore(const struct hw *hw, struct corepmu *cp);

/* hw_run_on_cpu() trampoline: arg is a struct corepmu_call. */
enum corepmu_op { CP_OP_PROBE, CP_OP_START, CP_OP_TICK, CP_OP_STOP, CP_OP_RESTORE };
struct corepmu_call {
	const struct hw *hw;
	struct corepmu *cp;
	uint8_t op;
	uint64_t now, timer_hz;
	hw_status st;
};
void corepmu_call(void *arg);

#endif
