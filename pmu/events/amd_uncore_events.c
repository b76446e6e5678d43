/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD uncore events per family and box, with the names and encodings of Linux's perf JSON
 * (tools/perf/pmu-events/arch/x86/amdzenN/): data-fabric.json (DF), cache.json / l3-cache.json
 * (L3), memory-controller.json (UMC). tests/unit/test_amd_uncore_oracle.c compares every row
 * with the extract of those files under tests/oracle/linux-perf/.
 *
 * Bytes: DF "data beats (64 bytes)" and "Requests with Data (64B)" (the JSON descriptions);
 * UMC CAS x 64 (amdzen5/recommended.json umc_mem_read_bandwidth). Zen 2 has no
 * data-fabric.json; its DRAM metric nps1_die_to_dram (amdzen2/recommended.json) names the
 * dram_channel_data_controller_* events that amdzen3/data-fabric.json encodes, so Zen 2 uses
 * the Zen 3 DF table.
 */
#include "pmu/uncore/amd_uncore.h"

#define N(a) (uint16_t)(sizeof(a) / sizeof((a)[0]))
#define RW UNC_ROLE_DRAM_RW
#define RD UNC_ROLE_DRAM_RD
#define WR UNC_ROLE_DRAM_WR
#define IR UNC_ROLE_IO_RD
#define IW UNC_ROLE_IO_WR

/* amdzen3/data-fabric.json: DRAM Channel Controller Request Types: Requests with Data (64B) */
const struct amd_uncore_event amd_df_zen3[] = {
	{ "dram_channel_data_controller_0", 0x007, 0x38, RW, 0, 1 },
	{ "dram_channel_data_controller_1", 0x047, 0x38, RW, 1, 1 },
	{ "dram_channel_data_controller_2", 0x087, 0x38, RW, 2, 1 },
	{ "dram_channel_data_controller_3", 0x0c7, 0x38, RW, 3, 1 },
	{ "dram_channel_data_controller_4", 0x107, 0x38, RW, 4, 1 },
	{ "dram_channel_data_controller_5", 0x147, 0x38, RW, 5, 1 },
	{ "dram_channel_data_controller_6", 0x187, 0x38, RW, 6, 1 },
	{ "dram_channel_data_controller_7", 0x1c7, 0x38, RW, 7, 1 },
};
const uint16_t amd_df_zen3_n = N(amd_df_zen3);

/* amdzen4/data-fabric.json: read/write data beats (64 bytes) for the local processor at
 * Coherent Station K, and upstream DMA beats at IO Moderator N (names as the file spells them) */
const struct amd_uncore_event amd_df_zen4[] = {
#define CS(k) { "local_processor_read_data_beats_cs" #k, 0x1f + 0x40 * k, 0x7fe, RD, k, 1 }, \
	      { "local_processor_write_data_beats_cs" #k, 0x1f + 0x40 * k, 0x7ff, WR, k, 1 }
	CS(0), CS(1), CS(2), CS(3), CS(4), CS(5), CS(6), CS(7), CS(8), CS(9), CS(10), CS(11),
#undef CS
#define IOM(k) { "local_socket_upstream.._read_beats_iom" #k, 0x81f + 0x40 * k, 0x7fe, IR, k, 1 }, \
	       { "local_socket_upstream.._write_beats_iom" #k, 0x81f + 0x40 * k, 0x7ff, IW, k, 1 }
	IOM(0), IOM(1), IOM(2), IOM(3),
#undef IOM
};
const uint16_t amd_df_zen4_n = N(amd_df_zen4);

/* amdzen5/data-fabric.json: DRAM channel K read (local or remote socket) / write (local or
 * remote) beats, upstream DMA beats at IO root complex N */
const struct amd_uncore_event amd_df_zen5[] = {
#define CH(k) { "local_or_remote_socket_read_data_beats_dram_" #k, 0x1f + 0x40 * k, 0xffe, RD, k, 1 }, \
	      { "local_or_remote_socket_write_data_beats_dram_" #k, 0x1f + 0x40 * k, 0xfff, WR, k, 1 }
	CH(0), CH(1), CH(2), CH(3), CH(4), CH(5), CH(6), CH(7), CH(8), CH(9), CH(10), CH(11),
#undef CH
#define IO(k) { "local_socket_upstream_read_data_beats_io_" #k, 0x81f + 0x40 * k, 0x7fe, IR, k, 1 }, \
	      { "local_socket_upstream_write_data_beats_io_" #k, 0x81f + 0x40 * k, 0x7ff, IW, k, 1 }
	IO(0), IO(1), IO(2), IO(3), IO(4), IO(5), IO(6), IO(7),
#undef IO
};
const uint16_t amd_df_zen5_n = N(amd_df_zen5);

#define ACC UNC_ROLE_LLC_ACCESS
#define MISS UNC_ROLE_LLC_MISS
#define HIT UNC_ROLE_LLC_HIT
#define NONE UNC_ROLE_NONE

/* amdzen2/cache.json, Unit L3PMC */
const struct amd_uncore_event amd_l3_zen2[] = {
	{ "l3_request_g1.caching_l3_cache_accesses", 0x01, 0x80, NONE, 0, 0 },
	{ "l3_lookup_state.all_l3_req_typs", 0x04, 0xff, ACC, 0, 1 },
	{ "l3_comb_clstr_state.other_l3_miss_typs", 0x06, 0xfe, NONE, 0, 0 },
	{ "l3_comb_clstr_state.request_miss", 0x06, 0x01, MISS, 0, 1 },
	{ "xi_sys_fill_latency", 0x90, 0x00, NONE, 0, 0 },
	{ "xi_ccx_sdp_req1.all_l3_miss_req_typs", 0x9a, 0x3f, NONE, 0, 0 },
};
const uint16_t amd_l3_zen2_n = N(amd_l3_zen2);

/* amdzen3/cache.json, Unit L3PMC */
const struct amd_uncore_event amd_l3_zen3[] = {
	{ "l3_request_g1.caching_l3_cache_accesses", 0x01, 0x80, NONE, 0, 0 },
	{ "l3_lookup_state.all_l3_req_typs", 0x04, 0xff, ACC, 0, 1 },
	{ "l3_comb_clstr_state.other_l3_miss_typs", 0x06, 0xfe, NONE, 0, 0 },
	{ "l3_comb_clstr_state.request_miss", 0x06, 0x01, MISS, 0, 1 },
	{ "xi_sys_fill_latency", 0x90, 0x00, NONE, 0, 0 },
	{ "xi_ccx_sdp_req1", 0x9a, 0xff, NONE, 0, 0 },
};
const uint16_t amd_l3_zen3_n = N(amd_l3_zen3);

/* amdzen4/cache.json, Unit L3PMC */
#define XI(n, u) { "l3_xi_sampled_latency." n, 0xac, u, NONE, 0, 0 }, \
		 { "l3_xi_sampled_latency_requests." n, 0xad, u, NONE, 0, 0 }
const struct amd_uncore_event amd_l3_zen4[] = {
	{ "l3_lookup_state.l3_miss", 0x04, 0x01, MISS, 0, 1 },
	{ "l3_lookup_state.l3_hit", 0x04, 0xfe, HIT, 0, 1 },
	{ "l3_lookup_state.all_coherent_accesses_to_l3", 0x04, 0xff, ACC, 0, 1 },
	XI("dram_near", 0x01), XI("dram_far", 0x02), XI("near_cache", 0x04), XI("far_cache", 0x08),
	XI("ext_near", 0x10), XI("ext_far", 0x20), XI("all", 0x3f),
};
const uint16_t amd_l3_zen4_n = N(amd_l3_zen4);

/* amdzen5/l3-cache.json, Unit L3PMC; amdzen6/l3-cache.json (torvalds/linux de18394f8f69) has the
 * same three lookup rows, so Zen 6 shares the table (their sampled-latency rows also set EnAllCores,
 * EnAllSlices, SliceId and ThreadMask: left out here, so only the lookup rows) */
const struct amd_uncore_event amd_l3_zen5[] = {
	{ "l3_lookup_state.l3_miss", 0x04, 0x01, MISS, 0, 1 },
	{ "l3_lookup_state.l3_hit", 0x04, 0xfe, HIT, 0, 1 },
	{ "l3_lookup_state.all_coherent_accesses_to_l3", 0x04, 0xff, ACC, 0, 1 },
};
const uint16_t amd_l3_zen5_n = N(amd_l3_zen5);

/* amdzen4/, amdzen5/ and amdzen6/memory-controller.json (identical encodings), Unit UMCPMC; the umask
 * column is RdWrMask (1 reads, 2 writes) */
const struct amd_uncore_event amd_umc_zen4[] = {
	{ "umc_mem_clk", 0x00, 0, UNC_ROLE_CLOCKS, 0, 0 },
	{ "umc_act_cmd.all", 0x05, 0, NONE, 0, 0 },
	{ "umc_act_cmd.rd", 0x05, 1, NONE, 0, 0 },
	{ "umc_act_cmd.wr", 0x05, 2, NONE, 0, 0 },
	{ "umc_pchg_cmd.all", 0x06, 0, NONE, 0, 0 },
	{ "umc_pchg_cmd.rd", 0x06, 1, NONE, 0, 0 },
	{ "umc_pchg_cmd.wr", 0x06, 2, NONE, 0, 0 },
	{ "umc_cas_cmd.all", 0x0a, 0, NONE, 0, 0 },
	{ "umc_cas_cmd.rd", 0x0a, 1, RD, 0, 1 },
	{ "umc_cas_cmd.wr", 0x0a, 2, WR, 0, 1 },
	{ "umc_data_slot_clks.all", 0x14, 0, NONE, 0, 0 },
	{ "umc_data_slot_clks.rd", 0x14, 1, NONE, 0, 0 },
	{ "umc_data_slot_clks.wr", 0x14, 2, NONE, 0, 0 },
};
const uint16_t amd_umc_zen4_n = N(amd_umc_zen4);
