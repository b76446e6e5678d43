/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CHA TOR latency (pmu/uncore/intel_cha_latency.c, the groups of pmu/uncore/intel_cha_measure.c):
 *   - Little's law on literal counts, the expected values computed by hand in the comments,
 *     over all sockets and per socket (two sockets of unequal counts and CHAs, a socket
 *     without requests and one whose clock did not advance), and the record's sockets arrays;
 *   - the default set on the register model (tests/model/cha_model.c), whose TOR_OCCUPANCY
 *     counts on counter 0 alone: scripted per-request TOR residencies and a 2 GHz CHA clock
 *     give the exact latency of each class, so an occupancy event placed on another counter
 *     would read 0 and fail;
 *   - the scheduler honours the counter masks (an event listed after others still gets
 *     counter 0; an event no counter may count is an error naming it);
 *   - a fault at every access of the default set's sequence leaves every register as found or
 *     named by the restore report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/cha_model.h"
#include "tests/unit/cha_record.h"
#include "pmu/uncore/intel_cha.h"

#define NBOX 4
#define NS_PER_TICK 1000        /* a model tick is 1 us */
#define CLK_PER_TICK 2000       /* 2000 CHA cycles per us: a 2 GHz CHA clock */

static struct hw_model m;
static struct cha_model cm;
static struct hw h;
static struct cha_request req;
static struct cha_result res;
static uint64_t snapshot[HW_MODEL_MAX_REGS];

#define TRL(hit, opc, key, n, lat) ((struct cha_model_traffic){ 0, hit, 0, opc, key, n, lat })

static int is_counter(uint32_t id)
{
	for (unsigned b = 0; b < NBOX; b++)
		for (unsigned k = 8; k < 12; k++)
			if (id == cha_model_msr(CHA_MODEL_ICX, b, k) || id == cha_model_msr(CHA_MODEL_SKX, b, k))
				return 1;
	return 0;
}

static void machine(enum cha_model_layout layout)
{
	h = cha_model_machine(&cm, &m, layout, NBOX);
	cm.clk_per_tick = CLK_PER_TICK;
	for (int i = 0; i < m.nregs; i++)
		snapshot[i] = m.regs[i].value = is_counter(m.regs[i].id) ? 0 : 0x100 + (uint64_t)i;
}

static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)nslices;
	unsigned t = 10 + slice;       /* unequal slices: scaling must cancel in the ratios */
	hw_model_tick(&m, t);
	return (uint64_t)t * NS_PER_TICK;
}

static void prepare(uint32_t model_id, const char *events)
{
	char why[160];
	uint32_t cpu[1] = { 0 };
	if (cha_prepare(&h, 6, model_id, NULL, 0, 1, cpu, NBOX, events, 1, &req, why, sizeof(why)))
		fail_msg("cha_prepare: %s", why);
}

static int idx(const char *name, int group)
{
	for (uint32_t i = 0; i < req.nevents; i++)
		if (req.ev[i].name && !strcmp(req.ev[i].name, name) && (group < 0 || req.ev[i].group == group))
			return (int)i;
	fail_msg("no event %s in group %d", name, group);
	return -1;
}

static const struct cha_latency_value *cls(const char *name)
{
	for (uint32_t k = 0; k < res.latency.nclass; k++)
		if (!strcmp(res.latency.c[k].name, name))
			return &res.latency.c[k];
	fail_msg("no latency class %s", name);
	return NULL;
}

/* An ICX request of two latency classes, in this order: PCIRdCur hit (occupancy, inserts,
 * clock), ItoM miss (occupancy, inserts, clock). */
static void icx_two_classes(void)
{
	req = (struct cha_request){ .plat = cha_platform_by_name("ICX") };
	char why[160];
	assert_int_equal(cha_request_events(&req, "TOR_OCCUPANCY.IO_HIT_PCIRDCUR;TOR_INSERTS.IO_HIT_PCIRDCUR;CLOCKTICKS;"
					    "TOR_OCCUPANCY.IO_MISS_ITOM;TOR_INSERTS.IO_MISS_ITOM;CLOCKTICKS",
					    why, sizeof(why)), 0);
}

/* Little's law on literal counts: the pure formula. */
static void test_littles_law_literals(void **state)
{
	(void)state;
	icx_two_classes();
	struct cha_tor_latency lat;
	/* PCIRdCur hit: 6000 / 40 = 150 cycles; 24000 clockticks over 4 CHAs in 3000 ns = 2 cycles
	 * per ns: 75 ns. ItoM miss: 1000 / 3 = 333.333 cycles, 166.667 ns (rounded to the ps). */
	const uint64_t counts[6] = { 6000, 40, 24000, 1000, 3, 24000 };
	cha_tor_latency(req.plat, &req, counts, 3000, 4, &lat);
	assert_int_equal(lat.nclass, 6);
	assert_string_equal(lat.c[0].name, "PCIRdCur_hit");
	assert_true(lat.c[0].have);
	assert_int_equal(lat.c[0].cycles_milli, 150000);
	assert_int_equal(lat.c[0].ns_milli, 75000);
	assert_string_equal(lat.c[3].name, "ItoM_miss");
	assert_true(lat.c[3].have);
	assert_int_equal(lat.c[3].cycles_milli, 333333);
	assert_int_equal(lat.c[3].ns_milli, 166667);
	assert_false(lat.c[1].have || lat.c[1].counted);
	assert_non_null(strstr(lat.c[1].why, "not counted: needs TOR_OCCUPANCY.IO_MISS_PCIRDCUR"));
	/* an emulator's uncore reads 0: the counts did not advance, never a latency of 0 */
	const uint64_t zero[6] = { 0 };
	cha_tor_latency(req.plat, &req, zero, 3000, 4, &lat);
	assert_false(lat.c[0].have);
	assert_true(lat.c[0].counted);
	assert_non_null(strstr(lat.c[0].why, "counts not advancing"));
	/* requests without a clock; a clock without requests */
	const uint64_t noclk[6] = { 6000, 40, 0, 0, 0, 5 };
	cha_tor_latency(req.plat, &req, noclk, 3000, 4, &lat);
	assert_non_null(strstr(lat.c[0].why, "no CHA clock"));
	assert_non_null(strstr(lat.c[3].why, "no ItoM_miss request"));
}

/* Per socket: Little's law over each socket's own counts and CHAs, by hand. Events: PCIRdCur hit
 * (occupancy, inserts, clock) then ItoM miss (occupancy, inserts, clock), as above; window 3000 ns.
 *   socket 0, 4 CHAs: PCIRdCur hit 6000 / 40 = 150 cycles; 24000 ticks / 4 / 3000 ns = 2 per ns:
 *                     75 ns. ItoM miss: 0 inserts: null, why.
 *   socket 1, 6 CHAs: PCIRdCur hit 9000 / 20 = 450 cycles; 27000 / 6 / 3000 = 1.5 per ns: 300 ns.
 *                     ItoM miss: 500 / 5 requests, but its clock did not advance (0): null, why.
 *   total, 10 CHAs:   PCIRdCur hit 15000 x 3000 x 10 / (60 x 51000) = 147.0588 ns (147.059),
 *                     250 cycles; ItoM miss 500 x 3000 x 10 / (5 x 24000) = 125 ns. */
static void test_per_socket_literals(void **state)
{
	(void)state;
	icx_two_classes();
	static const uint64_t s0[6] = { 6000, 40, 24000, 0, 0, 24000 };
	static const uint64_t s1[6] = { 9000, 20, 27000, 500, 5, 0 };
	static const uint64_t all[6] = { 15000, 60, 51000, 500, 5, 24000 };
	res = (struct cha_result){ .plat = req.plat, .nsockets = 2, .window_ns = 3000 };
	req.topo.nsockets = 2;
	req.topo.ncha[0] = 4;
	req.topo.ncha[1] = 6;
	cha_tor_latency(req.plat, &req, s0, 3000, 4, &res.sock[0].latency);
	cha_tor_latency(req.plat, &req, s1, 3000, 6, &res.sock[1].latency);
	cha_tor_latency(req.plat, &req, all, 3000, 10, &res.latency);
	const struct cha_latency_value *a = &res.sock[0].latency.c[0], *b = &res.sock[1].latency.c[0];
	assert_string_equal(a->name, "PCIRdCur_hit");
	assert_true(a->have && b->have);
	assert_int_equal(a->ns_milli, 75000);
	assert_int_equal(b->ns_milli, 300000);
	assert_int_equal(b->cycles_milli, 450000);
	assert_int_equal(res.latency.c[0].ns_milli, 147059);
	assert_int_equal(res.latency.c[0].cycles_milli, 250000);
	const struct cha_latency_value *n0 = &res.sock[0].latency.c[3], *n1 = &res.sock[1].latency.c[3];
	assert_string_equal(n0->name, "ItoM_miss");
	assert_false(n0->have);
	assert_true(n0->counted);
	assert_string_equal(n0->why, "no ItoM_miss request in the window (TOR_INSERTS.IO_MISS_ITOM 0)");
	assert_false(n1->have);
	assert_string_equal(n1->why, "no CHA clock: CLOCKTICKS 0 over 3000 ns and 6 CHAs");
	assert_true(res.latency.c[3].have);
	assert_int_equal(res.latency.c[3].ns_milli, 125000);
	/* the record: the total's fields as before, then one entry per socket */
	static char buf[16384];
	cha_record(&req, &res, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"PCIRdCur_hit\":{\"inserts\":60,\"occupancy\":15000,\"clockticks\":51000,"
				    "\"latency_cycles\":250.000,\"latency_ns\":147.059,\"sockets\":["
				    "{\"socket\":0,\"chas\":4,\"inserts\":40,\"occupancy\":6000,\"clockticks\":24000,"
				    "\"latency_ns\":75.000},"
				    "{\"socket\":1,\"chas\":6,\"inserts\":20,\"occupancy\":9000,\"clockticks\":27000,"
				    "\"latency_ns\":300.000}]}"));
	assert_non_null(strstr(buf, "\"ItoM_miss\":{\"inserts\":5,\"occupancy\":500,\"clockticks\":24000,"
				    "\"latency_cycles\":100.000,\"latency_ns\":125.000,\"sockets\":["
				    "{\"socket\":0,\"chas\":4,\"inserts\":0,\"occupancy\":0,\"clockticks\":24000,"
				    "\"latency_ns\":null,\"why\":\"no ItoM_miss request in the window (TOR_INSERTS.IO_MISS_ITOM 0)\"},"
				    "{\"socket\":1,\"chas\":6,\"inserts\":5,\"occupancy\":500,\"clockticks\":0,"
				    "\"latency_ns\":null,\"why\":\"no CHA clock: CLOCKTICKS 0 over 3000 ns and 6 CHAs\"}]}"));
	/* a class not counted: no counts, null and why, per socket too */
	assert_non_null(strstr(buf, "\"PCIRdCur_miss\":{\"latency_cycles\":null,\"latency_ns\":null,\"why\":\"not counted"));
	assert_non_null(strstr(buf, "\"sockets\":[{\"socket\":0,\"chas\":4,\"latency_ns\":null,\"why\":\"not counted"));
}

/* ICX default set on the model: bandwidth group + six latency groups, exact latencies. */
static void test_icx_default_set_latency(void **state)
{
	(void)state;
	machine(CHA_MODEL_ICX);
	cha_model_add(&cm, TRL(1, 0, 0xC8F3, 4, 100));   /* PCIRdCur hit: 100 cycles = 50 ns */
	cha_model_add(&cm, TRL(0, 0, 0xC8F3, 6, 400));   /* PCIRdCur miss: 200 ns */
	cha_model_add(&cm, TRL(1, 0, 0xCC43, 2, 50));    /* ItoM hit: 25 ns */
	cha_model_add(&cm, TRL(0, 0, 0xCC43, 1, 300));   /* ItoM miss: 150 ns */
	cha_model_add(&cm, TRL(0, 0, 0xCD43, 5, 200));   /* ItoMCacheNear miss: 100 ns; no hits */
	prepare(0x6A, NULL);
	assert_int_equal(req.nevents, 4 + 6 * 3);
	assert_int_equal(req.ngroups, 1 + 6);
	for (uint32_t i = 0; i < req.nevents; i++)
		if (req.ev[i].enc.event == 0x36)
			assert_int_equal(req.ev[i].counter, 0);
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	static const struct { const char *name; uint64_t ns_milli; } want[] = {
		{ "PCIRdCur_hit", 50000 }, { "PCIRdCur_miss", 200000 }, { "ItoM_hit", 25000 },
		{ "ItoM_miss", 150000 }, { "ItoMCacheNear_miss", 100000 },
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct cha_latency_value *v = cls(want[k].name);
		if (!v->have || v->ns_milli != want[k].ns_milli)
			fail_msg("%s: have %u, %llu ns x 1000 (want %llu): %s", want[k].name, v->have,
				 (unsigned long long)v->ns_milli, (unsigned long long)want[k].ns_milli, v->why);
		assert_int_equal(v->cycles_milli, want[k].ns_milli * 2);
	}
	const struct cha_latency_value *none = cls("ItoMCacheNear_hit");
	assert_false(none->have);
	assert_non_null(strstr(none->why, "no ItoMCacheNear_hit request"));
	/* the bandwidth formulas count the bandwidth group alone (the latency groups' inserts
	 * repeat it): PCIRdCur 10 per tick per CHA-sum unit over the whole window */
	uint64_t W = 0;
	for (uint32_t k = 0; k < res.nslices; k++)
		W += 10 + k;
	assert_int_equal(res.total.read_bytes, 64 * 10 * 10 * W);     /* 10 boxes-sum x (4 + 6) */
	/* CTL0 of CHA 0 was written with TOR_OCCUPANCY (event 0x36) and never another counter */
	int occ0 = 0;
	for (int i = 0; i < m.nlog; i++)
		if ((m.log[i].value & 0xFF) == 0x36 && (m.log[i].value & (1ull << 22))) {
			int ctl0 = 0;
			for (unsigned b = 0; b < NBOX; b++)
				ctl0 |= m.log[i].id == cha_model_msr(CHA_MODEL_ICX, b, 1);
			if (!ctl0)
				fail_msg("TOR_OCCUPANCY written to MSR 0x%x, not a CTL0", m.log[i].id);
			occ0 |= m.log[i].id == cha_model_msr(CHA_MODEL_ICX, 0, 1);
		}
	assert_true(occ0);
	for (int i = 0; i < m.nregs; i++)
		if (!is_counter(m.regs[i].id) && m.regs[i].value != snapshot[i])
			fail_msg("MSR 0x%x not restored", m.regs[i].id);
	/* the record's tor_latency */
	char buf[16384];
	cha_record(&req, &res, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"tor_latency\":{\"PCIRdCur_hit\":{\"inserts\":"));
	assert_non_null(strstr(buf, "\"latency_ns\":50.000"));
	assert_non_null(strstr(buf, "\"ItoMCacheNear_hit\":{\"inserts\":0,"));
	/* one socket: its entry is the total (same counts over the same CHAs) */
	assert_int_equal(res.sock[0].latency.nclass, res.latency.nclass);
	for (uint32_t k = 0; k < res.latency.nclass; k++) {
		const struct cha_latency_value *t = &res.latency.c[k], *s0 = &res.sock[0].latency.c[k];
		assert_int_equal(s0->occupancy, t->occupancy);
		assert_int_equal(s0->inserts, t->inserts);
		assert_int_equal(s0->clockticks, t->clockticks);
		assert_int_equal(s0->have, t->have);
		assert_int_equal(s0->ns_milli, t->ns_milli);
	}
	assert_non_null(strstr(buf, "\"latency_ns\":50.000,\"sockets\":[{\"socket\":0,\"chas\":4,\"inserts\":"));
}

/* SKX, user order: the occupancy event listed second still gets counter 0 (the model counts it
 * nowhere else), in one group with its inserts and the clock (one FILTER1 opcode). */
static void test_skx_occupancy_on_counter0(void **state)
{
	(void)state;
	machine(CHA_MODEL_SKX);
	cha_model_add(&cm, TRL(0, 0x21E, 0, 3, 240));   /* RdCur misses: 240 cycles = 120 ns */
	cha_model_add(&cm, TRL(0, 0x248, 0, 7, 999));   /* ItoM misses: another opcode */
	prepare(0x55, "TOR_INSERTS.IO_MISS_RDCUR;TOR_OCCUPANCY.IO_MISS_RDCUR;CLOCKTICKS");
	assert_int_equal(req.ngroups, 1);
	assert_int_equal(req.ev[idx("TOR_OCCUPANCY.IO_MISS_RDCUR", -1)].counter, 0);
	assert_int_not_equal(req.ev[idx("TOR_INSERTS.IO_MISS_RDCUR", -1)].counter, 0);
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	const struct cha_latency_value *v = cls("RdCur_miss");
	assert_true(v->have);
	assert_int_equal(v->inserts, 3 * 10 * 10);       /* 3 per tick x (1+2+3+4) x 10 ticks */
	assert_int_equal(v->occupancy, 240 * 3 * 10 * 10);
	assert_int_equal(v->clockticks, CLK_PER_TICK * NBOX * 10);
	assert_int_equal(v->ns_milli, 120000);
	assert_false(cls("ItoM_miss")->have);
}

/* A counter mask no counter satisfies: the error names the event. */
static void test_unplaceable_event_named(void **state)
{
	(void)state;
	static const struct box_constraint none[] = { { 0x36, 0x0 } };
	struct cha_platform p = *cha_platform_by_name("ICX");
	p.box.constraints = none;
	p.box.nconstraints = 1;
	req = (struct cha_request){ .plat = &p };
	char why[200];
	assert_int_equal(cha_request_events(&req, "TOR_INSERTS.IO;TOR_OCCUPANCY.IO_HIT_PCIRDCUR", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "CHA event 2 (TOR_OCCUPANCY.IO_HIT_PCIRDCUR): no counter of the CHA may count it"));
	/* five occupancy events need five groups on ICX's one occupancy counter */
	req = (struct cha_request){ .plat = cha_platform_by_name("ICX") };
	assert_int_equal(cha_request_events(&req, "TOR_OCCUPANCY.IO;TOR_OCCUPANCY.IO_HIT_ITOM;TOR_OCCUPANCY.IO_MISS_ITOM;"
					    "TOR_OCCUPANCY.IO_ITOM;TOR_OCCUPANCY.IO_PCIRDCUR", why, sizeof(why)), 0);
	assert_int_equal(req.ngroups, 5);
}

/* A fault at every access of the default set's sequence (once): the run fails and every
 * register is as found or named by the restore report. */
static void test_fault_at_every_access_latency_set(void **state)
{
	(void)state;
	machine(CHA_MODEL_ICX);
	cha_model_add(&cm, TRL(1, 0, 0xC8F3, 4, 100));
	prepare(0x6A, NULL);
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	uint32_t clean = m.naccess;
	assert_int_equal(clean, res.accesses);
	for (uint32_t k = 1; k <= clean; k++) {
		machine(CHA_MODEL_ICX);
		cha_model_add(&cm, TRL(1, 0, 0xC8F3, 4, 100));
		prepare(0x6A, NULL);
		m.fail_at = k;
		assert_int_equal(cha_measure(&h, &req, window, NULL, &res), -1);
		assert_true(res.why[0]);
		for (int i = 0; i < m.nregs; i++) {
			if (is_counter(m.regs[i].id) || m.regs[i].value == snapshot[i])
				continue;
			int named = 0;
			for (uint32_t f = 0; f < res.restore.nfailed && f < SAVESET_REPORT_FAILED; f++)
				named |= res.restore.failed[f].addr == m.regs[i].id;
			if (!named)
				fail_msg("fault at access %u: MSR 0x%x changed and not named", k, m.regs[i].id);
		}
		assert_true(res.restore.nfailed <= 1);
	}
	printf("latency set: %u accesses, a fault at each restored or named\n", clean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_littles_law_literals),
		cmocka_unit_test(test_per_socket_literals),
		cmocka_unit_test(test_icx_default_set_latency),
		cmocka_unit_test(test_skx_occupancy_on_counter0),
		cmocka_unit_test(test_unplaceable_event_named),
		cmocka_unit_test(test_fault_at_every_access_latency_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
