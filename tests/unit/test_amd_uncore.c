/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD DF / L3 / UMC uncore on the register model (tests/model/amd_uncore_model.c): encodings
 * as literals from Linux's format attributes (arch/x86/events/amd/uncore.c) and perf JSON
 * (tools/perf/pmu-events/arch/x86/amdzenN/), scripted traffic counted and turned into exact
 * metrics, multiplexing, the sequence at Linux's MSR addresses, and every register restored
 * under fault injection at each access, once and from then on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/amd_uncore_model.h"
#include "pmu/uncore/amd_uncore.h"

static struct hw_model m;
static struct amd_uncore_model am;
static struct hw h;
static struct unc_request req;
static struct unc_result res;
static unsigned ticks_per_slice = 100;

static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	hw_model_tick(&m, ticks_per_slice);
	return 1000;            /* ns per slice */
}

static const struct amd_uncore_family *fam(const char *name)
{
	const struct amd_uncore_family *f = amd_uncore_family_by_name(name);
	assert_non_null(f);
	return f;
}

static uint64_t enc(const char *fname, enum amd_box b, const char *spec)
{
	uint64_t ctl = 0;
	char why[160] = "";
	if (amd_uncore_encode(&fam(fname)->box[b], spec, strlen(spec), &ctl, NULL, why, sizeof(why)))
		fail_msg("%s: %s", spec, why);
	return ctl;
}

static void test_encodings(void **state)
{
	(void)state;
	/* DF Zen 3: event 0x07, umask 0x38, EN bit 22 */
	assert_int_equal(enc("Zen3", AMD_BOX_DF, "dram_channel_data_controller_0"), 0x403807);
	assert_int_equal(enc("Zen3", AMD_BOX_DF, "amd_df/event=0x1c7,umask=0x38/"), 0x1004038C7ull);
	/* event14 config:0-7,32-35,59-60 */
	assert_int_equal(enc("Zen3", AMD_BOX_DF, "amd_df/event=0x3fff,umask=0x0/"), 0x1800000F004000FFull);
	/* Zen 4 event14v2 config:0-7,32-37, umask12 config:8-15,24-27 */
	assert_int_equal(enc("Zen4", AMD_BOX_DF, "local_processor_read_data_beats_cs0"), 0x740FE1F);
	assert_int_equal(enc("Zen4", AMD_BOX_DF, "amd_df/event=0x81f,umask=0x7fe/"), 0x80740FE1Full);
	assert_int_equal(enc("Zen4", AMD_BOX_DF, "amd_df/event=0x81f,umask=0x7ff/"), 0x80740FF1Full);
	assert_int_equal(enc("Zen4", AMD_BOX_DF, "amd_df/event=0x3fff,umask=0xfff/"), 0x3F0F40FFFFull);
	/* L3 Family 19h: ThreadMask 3 [57:56], EnAllSlices 46, EnAllCores 47 by default */
	assert_int_equal(enc("Zen4", AMD_BOX_L3, "l3_lookup_state.l3_miss"), 0x0300C00000400104ull);
	assert_int_equal(enc("Zen3", AMD_BOX_L3, "amd_l3/event=0x4,umask=0xff,threadmask=1/"), 0x010000000040FF04ull);
	/* L3 Family 17h: SliceMask 0xF [51:48], ThreadMask 0xFF [63:56] by default */
	assert_int_equal(enc("Zen2", AMD_BOX_L3, "l3_lookup_state.all_l3_req_typs"), 0xFF0F00000040FF04ull);
	assert_int_equal(enc("Zen2", AMD_BOX_L3, "amd_l3/event=0x6,umask=0x1,slicemask=0x1/"), 0xFF01000000400106ull);
	/* UMC: event [7:0], rdwrmask [9:8], enable bit 31 */
	assert_int_equal(enc("Zen4", AMD_BOX_UMC, "umc_cas_cmd.rd"), 0x8000010A);
	assert_int_equal(enc("Zen4", AMD_BOX_UMC, "amd_umc/event=0xa,rdwrmask=1/"), 0x8000010A);   /* the README's */
	assert_int_equal(enc("Zen5", AMD_BOX_UMC, "amd_umc/event=0xa,rdwrmask=2/"), 0x8000020A);
	/* a named event with a later field overriding it, as perf does */
	assert_int_equal(enc("Zen5", AMD_BOX_DF, "amd_df/local_socket_upstream_read_data_beats_io_0,umask=0x7ff/"),
			 0x80740FF1Full);
}

static void test_encode_errors(void **state)
{
	(void)state;
	char why[160];
	uint64_t ctl;
	const struct amd_box_desc *df3 = &fam("Zen3")->box[AMD_BOX_DF];
	const char *s = "amd_df/event=0x7,umask=0x100/";
	assert_int_equal(amd_uncore_encode(df3, s, strlen(s), &ctl, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "umask"));
	s = "amd_l3/event=0x4,threadmask=4/";
	assert_int_equal(amd_uncore_encode(&fam("Zen3")->box[AMD_BOX_L3], s, strlen(s), &ctl, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "threadmask"));
	s = "amd_df/slicemask=1/";
	assert_int_equal(amd_uncore_encode(df3, s, strlen(s), &ctl, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "slicemask"));
	s = "amd_l3/event=0x4/";
	assert_int_equal(amd_uncore_encode(df3, s, strlen(s), &ctl, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "amd_l3"));
	s = "no_such_event";
	assert_int_equal(amd_uncore_encode(df3, s, strlen(s), &ctl, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no_such_event"));
}

static void test_families_and_tables(void **state)
{
	(void)state;
	assert_string_equal(amd_uncore_family_for(0x17, 0x31)->name, "Zen2");   /* EPYC-Rome */
	assert_string_equal(amd_uncore_family_for(0x19, 0x01)->name, "Zen3");   /* EPYC-Milan */
	assert_string_equal(amd_uncore_family_for(0x19, 0x11)->name, "Zen4");   /* Genoa */
	assert_string_equal(amd_uncore_family_for(0x19, 0x61)->name, "Zen4");
	assert_string_equal(amd_uncore_family_for(0x1A, 0x02)->name, "Zen5");
	assert_null(amd_uncore_family_for(0x17, 0x01));                         /* Zen 1: no table */
	assert_null(amd_uncore_family_for(0x6, 0x55));
	/* the family table's event counts are the event tables' own sizes */
	for (size_t i = 0; i < amd_uncore_nfamilies; i++)
		for (int b = 0; b < AMD_NBOX; b++) {
			const struct amd_box_desc *d = &amd_uncore_families[i].box[b];
			if (!d->pmu)
				continue;
			uint16_t want = d->events == amd_df_zen3 ? amd_df_zen3_n : d->events == amd_df_zen4 ? amd_df_zen4_n
				      : d->events == amd_df_zen5 ? amd_df_zen5_n : d->events == amd_l3_zen2 ? amd_l3_zen2_n
				      : d->events == amd_l3_zen3 ? amd_l3_zen3_n : d->events == amd_l3_zen4 ? amd_l3_zen4_n
				      : d->events == amd_l3_zen5 ? amd_l3_zen5_n : amd_umc_zen4_n;
			assert_int_equal(d->nevents, want);
		}
}

static void model_zen(uint32_t family, uint32_t model, int v2, unsigned ndf, unsigned numc, unsigned nactive)
{
	hw_model_init(&m);
	m.ncpus = 4;
	amd_model_init(&am, &m, family, model, v2, ndf, numc, nactive);
	h = hw_model_hw(&m);
}

static void request(const char *fname, enum amd_box b, const char *events)
{
	struct amd_uncore_caps caps;
	char why[160] = "";
	amd_uncore_caps_read(&h, &caps);
	uint32_t cpu[1] = { 0 };
	if (amd_uncore_request(fam(fname), b, &caps, 1, cpu, NULL, events, &req, why, sizeof(why)))
		fail_msg("request: %s", why);
}

static void test_df_zen3_multiplexed(void **state)
{
	(void)state;
	model_zen(0x19, 0x01, 0, 4, 0, 0);
	for (unsigned k = 0; k < 8; k++)
		amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_DF, (uint16_t)(0x07 + 0x40 * k), 0x38, 0, k + 1 });
	request("Zen3", AMD_BOX_DF, NULL);
	assert_int_equal(req.nevents, 8);
	assert_int_equal(req.type.num_counters, 4);
	assert_int_equal(req.ngroups, 2);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.state, UNC_STATE_COUNTING);
	for (unsigned k = 0; k < 8; k++) {
		assert_int_equal(res.raw[0][k], (k + 1) * ticks_per_slice);      /* one slice each */
		assert_int_equal(res.scaled[0][k], (k + 1) * ticks_per_slice * 2); /* x window / ran */
	}
	/* 64 B per request with data, channels 0-7: 64 x 36 x 200 */
	assert_int_equal(res.total.dram_rw_bytes, 64ull * 36 * 200);
	assert_int_equal(res.total.channel_bytes[7], 64ull * 8 * 200);
	assert_int_equal(res.total.dram_gbps_milli, 64ull * 36 * 200 * 1000 / 2000);
	assert_int_equal(res.restore.nfailed, 0);
	assert_int_equal(res.restore.registers, 4);          /* the four CTLs */
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(hw_model_find(&m, HWM_MSR, 0xC0010240u + i)->value & ((i & 1) ? 0 : ~0ull), 0);
}

static void test_df_sequence_addresses(void **state)
{
	(void)state;
	model_zen(0x19, 0x01, 0, 4, 0, 0);
	request("Zen3", AMD_BOX_DF, "amd_df/event=0x7,umask=0x38/;amd_df/event=0x47,umask=0x38/");
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	/* setup: CTL0, CTL1 written disabled; run: enabled; pause: disabled; restore: the values
	 * found (0), last saved first */
	const struct { uint32_t id; uint64_t v; } want[] = {
		{ 0xC0010240u, 0x3807 }, { 0xC0010242u, 0x3847 },
		{ 0xC0010240u, 0x403807 }, { 0xC0010242u, 0x403847 },
		{ 0xC0010240u, 0x3807 }, { 0xC0010242u, 0x3847 },
		{ 0xC0010242u, 0 }, { 0xC0010240u, 0 },
	};
	assert_int_equal(m.nlog, 8);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(m.log[i].id, want[i].id);
		assert_int_equal(m.log[i].value, want[i].v);
	}
}

static void test_df_zen4_io_and_dram(void **state)
{
	(void)state;
	model_zen(0x19, 0x11, 1, 16, 8, 4);
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_DF, 0x81f, 0x7fe, 0, 5 });   /* IOM0 reads */
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_DF, 0x85f, 0x7ff, 0, 3 });   /* IOM1 writes */
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_DF, 0x1f, 0x7fe, 0, 7 });    /* CS0 reads */
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_DF, 0x5f, 0x7ff, 0, 2 });    /* CS1 writes */
	request("Zen4", AMD_BOX_DF, "local_socket_upstream.._read_beats_iom0;local_socket_upstream.._write_beats_iom1;"
		"local_processor_read_data_beats_cs0;local_processor_write_data_beats_cs1;amd_l3/event=4/");
	assert_int_equal(req.type.num_counters, 8);          /* 16 from CPUID, capped at BOX_MAX_COUNTERS */
	assert_int_equal(req.nevents, 4);                    /* the amd_l3 entry is another PMU's */
	assert_int_equal(req.ngroups, 1);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.total.io_read_bytes, 64ull * 5 * 100);
	assert_int_equal(res.total.io_write_bytes, 64ull * 3 * 100);
	assert_int_equal(res.total.dram_read_bytes, 64ull * 7 * 100);
	assert_int_equal(res.total.dram_write_bytes, 64ull * 2 * 100);
	assert_int_equal(res.total.dram_rw_bytes, 64ull * 9 * 100);
	assert_int_equal(res.total.io_read_gbps_milli, 64ull * 5 * 100 * 1000 / 1000);
}

static void test_l3_hit_ratio(void **state)
{
	(void)state;
	model_zen(0x19, 0x01, 0, 4, 0, 0);
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x04, 0xff, 0, 40 });  /* all requests */
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x06, 0x01, 0, 10 });  /* misses */
	request("Zen3", AMD_BOX_L3, NULL);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.total.llc_accesses, 4000);
	assert_int_equal(res.total.llc_misses, 1000);
	assert_int_equal(res.total.llc_hit_ratio_milli, 750);
	assert_int_equal(res.total.self_check_state, UNC_CHECK_ABSENT);
	assert_non_null(strstr(res.total.self_check_why, "no DRAM bytes"));
	/* Zen 4: hits / all coherent accesses */
	model_zen(0x19, 0x11, 1, 16, 8, 4);
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x04, 0xfe, 0, 9 });
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x04, 0x01, 0, 3 });
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x04, 0xff, 0, 12 });
	request("Zen4", AMD_BOX_L3, NULL);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.total.llc_hit_ratio_milli, 750);
	/* Family 17h: a zero thread mask counts nothing in the model (as on hardware) */
	model_zen(0x17, 0x31, 0, 4, 0, 0);
	amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_L3, 0x04, 0xff, 0, 8 });
	request("Zen2", AMD_BOX_L3, "l3_lookup_state.all_l3_req_typs;amd_l3/event=0x4,umask=0xff,threadmask=0/");
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.raw[0][0], 800);
	assert_int_equal(res.raw[0][1], 0);
}

static void test_umc_per_channel(void **state)
{
	(void)state;
	/* 8 UMC counters over 4 active UMCs: 2 each, UMC j at 0xC0010800 + 2(2j + k) */
	model_zen(0x19, 0x11, 1, 16, 8, 4);
	for (unsigned j = 0; j < 4; j++) {
		amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_UMC, 0x0a, 1, (uint8_t)j, 10 * (j + 1) });
		amd_model_add(&am, (struct amd_model_traffic){ AMD_MODEL_UMC, 0x0a, 2, (uint8_t)j, j + 1 });
	}
	request("Zen4", AMD_BOX_UMC, NULL);
	assert_int_equal(req.npkgs, 4);
	assert_int_equal(req.type.num_counters, 2);
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	for (unsigned j = 0; j < 4; j++) {
		assert_int_equal(res.m[j].dram_read_bytes, 64ull * 10 * (j + 1) * 100);
		assert_int_equal(res.m[j].dram_write_bytes, 64ull * (j + 1) * 100);
	}
	assert_int_equal(res.total.dram_rw_bytes, 64ull * 110 * 100);
	/* the last UMC's CTL1 is MSR 0xC0010800 + 2 x 7 */
	int seen = 0;
	for (int i = 0; i < m.nlog; i++)
		seen |= m.log[i].id == 0xC001080Eu && m.log[i].value == 0x8000020A;
	assert_true(seen);
	/* self-check: DRAM bytes against what the kernel moved */
	req.known_read_bytes = 64ull * 100 * 100;
	req.known_write_bytes = 64ull * 10 * 100;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.total.self_check_state, UNC_CHECK_OK);
	assert_int_equal(res.total.self_check_milli, 1000);
}

static void test_not_advancing(void **state)
{
	(void)state;
	model_zen(0x17, 0x31, 0, 4, 0, 0);        /* no traffic scripted: counters stay */
	request("Zen2", AMD_BOX_DF, NULL);
	req.known_read_bytes = 1 << 20;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.state, UNC_STATE_NOT_ADVANCING);
	assert_int_equal(res.total.self_check_state, UNC_CHECK_ABSENT);
	assert_non_null(strstr(res.total.self_check_why, "not traffic"));
}

static void test_presence(void **state)
{
	(void)state;
	struct amd_uncore_caps c;
	char why[160] = "";
	hw_model_init(&m);
	h = hw_model_hw(&m);
	hw_model_cpuid(&m, 0x80000000u, 0, 0x80000008u, 0, 0, 0);
	hw_model_cpuid(&m, 0x80000001u, 0, 0, 0, 0, 0);
	amd_uncore_caps_read(&h, &c);
	assert_false(amd_uncore_present(&fam("Zen3")->box[AMD_BOX_DF], &c, why, sizeof(why)));
	assert_non_null(strstr(why, "ECX bit 24"));
	assert_false(amd_uncore_present(&fam("Zen4")->box[AMD_BOX_UMC], &c, why, sizeof(why)));
	assert_non_null(strstr(why, "0x80000022"));
}

/* Fault injection: each access of a clean run fails in turn, once and sticky; every CTL is
 * back as found or named in restore.failed. */
static void fault_case(const char *fname, enum amd_box b, uint32_t family, uint32_t model, int v2, const char *events)
{
	model_zen(family, model, v2, v2 ? 16 : 4, v2 ? 8 : 0, v2 ? 4 : 0);
	for (int i = 0; i < m.nregs; i++)
		m.regs[i].value = amd_model_is_counter(m.regs[i].id) ? 0 : 0x5A00 + (uint64_t)i;   /* found values */
	uint64_t found[HW_MODEL_MAX_REGS];
	for (int i = 0; i < m.nregs; i++)
		found[i] = m.regs[i].value;
	request(fname, b, events);
	m.naccess = 0;
	assert_int_equal(unc_measure(&h, &req, window, NULL, &res), 0);
	uint32_t clean = m.naccess;
	assert_true(clean > 0);
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= clean; k++) {
			for (int i = 0; i < m.nregs; i++)
				m.regs[i].value = found[i];
			m.naccess = 0;
			m.nfailed = 0;
			m.fail_at = k;
			m.fail_sticky = (uint8_t)sticky;
			unc_measure(&h, &req, window, NULL, &res);
			m.fail_at = 0;
			assert_int_equal(res.status, -1);
			assert_true(res.why[0]);
			for (int i = 0; i < m.nregs; i++) {
				const struct hw_model_reg *r = &m.regs[i];
				if (amd_model_is_counter(r->id) || r->value == found[i])
					continue;
				int named = 0;
				for (uint32_t f = 0; f < res.restore.nfailed && f < SAVESET_REPORT_FAILED; f++)
					named |= res.restore.failed[f].addr == r->id;
				if (!named)
					fail_msg("%s %s fault at %u (sticky %d): MSR 0x%x left 0x%llx, was 0x%llx, not named",
						 fname, req.pmu, k, sticky, r->id, (unsigned long long)r->value,
						 (unsigned long long)found[i]);
			}
			if (!sticky)
				assert_true(res.restore.nfailed <= 1);
		}
}

static void test_faults(void **state)
{
	(void)state;
	fault_case("Zen3", AMD_BOX_DF, 0x19, 0x01, 0, NULL);                 /* 8 events, 2 groups */
	fault_case("Zen3", AMD_BOX_L3, 0x19, 0x01, 0, NULL);
	fault_case("Zen2", AMD_BOX_L3, 0x17, 0x31, 0, NULL);
	fault_case("Zen4", AMD_BOX_DF, 0x19, 0x11, 1, NULL);                 /* 32 events, 4 groups */
	fault_case("Zen4", AMD_BOX_UMC, 0x19, 0x11, 1, NULL);                /* 4 UMCs */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_families_and_tables),
		cmocka_unit_test(test_df_zen3_multiplexed),
		cmocka_unit_test(test_df_sequence_addresses),
		cmocka_unit_test(test_df_zen4_io_and_dram),
		cmocka_unit_test(test_l3_hit_ratio),
		cmocka_unit_test(test_umc_per_channel),
		cmocka_unit_test(test_not_advancing),
		cmocka_unit_test(test_presence),
		cmocka_unit_test(test_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
