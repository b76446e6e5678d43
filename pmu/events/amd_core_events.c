/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named AMD Zen core events (Family 17h, 19h, 1Ah): the spellings of Linux
 * tools/perf/pmu-events/arch/x86/amdzen{1,2,3,4,5}/, with libpfm4's name of the same event.
 * tests/unit/test_core_pfm.c encodes every row with libpfm4's amd64_fam17h_zen1 (X86_GEN_ZEN1)
 * or amd64_fam17h_zen2, amd64_fam19h_zen3 and amd64_fam19h_zen4 (X86_GEN_ZEN) and requires the
 * same PERF_CTL value. Event codes above 0xFF (0x1CF, 0x1D0) exercise EventSelect[11:8] in
 * PERF_CTL[35:32] (AMD APM Vol.2, section 13.2.1 "PerfEvtSeln"). Retired fused instructions
 * (0x1D0) is a Zen 2+ event: libpfm4's zen1 table and Linux amdzen1/core.json lack it.
 *
 * Zen 5 (X86_GEN_ZEN5, Family 1Ah; libpfm4 4.13 has no table for it): a row carries the bit
 * only where Linux tools/perf/pmu-events/arch/x86/amdzen5/execution.json (ex_*),
 * amdzen5/load-store.json (ls_*) or amdzen5/decode.json (de_*) has the same EventName with the
 * same EventCode and UMask;
 * tests/unit/test_core_linux_zen5.c checks every row against those files, both ways (a Zen 2-4
 * name the Zen 5 files lack must not carry the bit). All of them do today; an event whose
 * encoding differs on Zen 5 gets a row of its own with X86_GEN_ZEN5 and the generic row loses
 * the bit (the first row valid for the CPU's generation wins, pmu/core/x86_event.c).
 *
 * Zen 4 and Zen 5 only (X86_GEN_ZEN4 | X86_GEN_ZEN5): the inputs of AMD's pipeline utilization
 * (pmu/core/amd_pipeline.h), PMCx1A0 de_no_dispatch_per_slot and PMCx0AA de_src_op_disp.all, as
 * Linux tools/perf/pmu-events/arch/x86/amdzen4/other.json and amdzen5/decode.json spell them;
 * amdzen1-3 have no PMCx1A0. tests/unit/test_amd_pipeline.c checks them against
 * tests/oracle/linux-perf/amd_pipeline.txt for both directories, test_core_pfm.c against libpfm4's
 * amd64_fam19h_zen4 (DISPATCH_STALLS_1, OPS_SOURCE_DISPATCHED_FROM_DECODER).
 */
#include "pmu/core/x86_event.h"

#define ZEN (X86_GEN_ZEN1 | X86_GEN_ZEN | X86_GEN_ZEN5)
#define ZEN2 (X86_GEN_ZEN | X86_GEN_ZEN5)   /* Zen 2 and later */
#define ZEN4 (X86_GEN_ZEN4 | X86_GEN_ZEN5)  /* Zen 4 and Zen 5 */

const struct x86_named_event amd_core_events[] = {
	/* name                          ev     umask cmask inv edge any gens arch pfm, pfm on zen2 */
	{ "ls_not_halted_cyc",           0x076, 0x00, 0, 0, 0, 0, ZEN, -1, "CYCLES_NOT_IN_HALT", NULL, NULL },
	{ "ex_ret_instr",                0x0C0, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_INSTRUCTIONS", NULL, NULL },
	{ "ex_ret_ops",                  0x0C1, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_OPS", "RETIRED_UOPS", NULL },
	{ "ex_ret_brn",                  0x0C2, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_BRANCH_INSTRUCTIONS", NULL, NULL },
	{ "ex_ret_brn_misp",             0x0C3, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", NULL, NULL },
	{ "ex_ret_brn_tkn",              0x0C4, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_TAKEN_BRANCH_INSTRUCTIONS", NULL, NULL },
	{ "ex_ret_brn_ind_misp",         0x0CA, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_INDIRECT_BRANCH_INSTRUCTIONS_MISPREDICTED", NULL, NULL },
	{ "ex_ret_cond",                 0x0D1, 0x00, 0, 0, 0, 0, ZEN, -1, "RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS", NULL, NULL },
	{ "ex_div_busy",                 0x0D3, 0x00, 0, 0, 0, 0, ZEN, -1, "DIV_CYCLES_BUSY_COUNT", NULL, NULL },
	{ "ls_dispatch.ld_dispatch",     0x029, 0x01, 0, 0, 0, 0, ZEN, -1, "LS_DISPATCH:LD_DISPATCH", NULL, NULL },
	{ "ls_dispatch.store_dispatch",  0x029, 0x02, 0, 0, 0, 0, ZEN, -1, "LS_DISPATCH:STORE_DISPATCH", NULL, NULL },
	{ "ex_tagged_ibs_ops.ibs_tagged_ops",     0x1CF, 0x01, 0, 0, 0, 0, ZEN, -1, "TAGGED_IBS_OPS:IBS_TAGGED_OPS", NULL, NULL },
	{ "ex_tagged_ibs_ops.ibs_count_rollover", 0x1CF, 0x04, 0, 0, 0, 0, ZEN, -1, "TAGGED_IBS_OPS:IBS_COUNT_ROLLOVER", NULL, NULL },
	{ "ex_ret_fused_instr",          0x1D0, 0x00, 0, 0, 0, 0, ZEN2, -1, "RETIRED_FUSED_INSTRUCTIONS", NULL, NULL },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01, 0, 0, 0, 0, ZEN4, -1, "DISPATCH_STALLS_1:FE_NO_OPS", NULL, NULL },
	{ "de_no_dispatch_per_slot.backend_stalls",       0x1A0, 0x1E, 0, 0, 0, 0, ZEN4, -1, "DISPATCH_STALLS_1:BE_STALLS", NULL, NULL },
	{ "de_no_dispatch_per_slot.smt_contention",       0x1A0, 0x60, 0, 0, 0, 0, ZEN4, -1, "DISPATCH_STALLS_1:SMT_CONTENTION", NULL, NULL },
	{ "de_src_op_disp.all",          0x0AA, 0x07, 0, 0, 0, 0, ZEN4, -1, "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER", NULL, NULL },
	/* the inputs of PipelineL2 (amdzen4/core.json, other.json; amdzen5/execution.json): topdown = l2
	 * programs them (pmu/core/amd_pipeline.h), core_events may name them */
	{ "ex_ret_ucode_ops",            0x1C2, 0x00, 0, 0, 0, 0, ZEN4, -1, "RETIRED_UCODE_OPS", NULL, NULL },
	{ "ex_no_retire.not_complete",   0x0D6, 0x02, 0, 0, 0, 0, ZEN4, -1, "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", NULL, NULL },
	{ "ex_no_retire.load_not_complete", 0x0D6, 0xA2, 0, 0, 0, 0, ZEN4, -1, "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", NULL, NULL },
	/* Zen 4 only: amdzen5 has bp_redirects.resync (PMCx09F) in its place */
	{ "resyncs_or_nc_redirects",     0x096, 0x00, 0, 0, 0, 0, X86_GEN_ZEN4, -1, "RESYNCS", NULL, NULL },
	/* Zen 5 only (amdzen5/branch-prediction.json; libpfm4 4.13 has no Zen 5 table) */
	{ "bp_redirects.resync",         0x09F, 0x01, 0, 0, 0, 0, X86_GEN_ZEN5, -1, NULL, NULL, NULL },
};
const unsigned amd_core_nevents = sizeof(amd_core_events) / sizeof(amd_core_events[0]);
