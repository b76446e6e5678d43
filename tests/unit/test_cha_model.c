/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CHA sequence on register-model boxes (tests/model/cha_model.c) counting scripted IO
 * traffic: exact metrics without multiplexing, scaled counts with it, 48-bit wrap, every
 * written register restored (also when a write fails midway), and the number of MSR accesses
 * per sample, counted by the recorder (arch/hw_trace.c) around the model.
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
#include "arch/hw_trace.h"
#include "pmu/uncore/intel_cha.h"

#define NBOX 4
#define NS_PER_TICK 1000
#define BOX_CTL_ORIG 0x10000ull     /* firmware's value (frz_en set): must come back */
#define CTL_ORIG 0x1234ull
#define FILTER_ORIG 0x3Bull
#define GLOBAL_ORIG 0x5ull

static struct hw_model m;
static struct cha_model cm;
static struct hw_trace tracer;
static struct hw_trace_entry ring[4096];
static struct hw h;
static struct cha_request req;
static struct cha_result res;
static uint64_t snapshot[HW_MODEL_MAX_REGS];
static unsigned ticks_base, windows;

static void model(enum cha_model_layout layout, uint64_t ctr_start)
{
	hw_model_init(&m);
	m.ncpus = 4;
	cha_model_init(&cm, &m, layout, NBOX, ctr_start);
	for (int i = 0; i < m.nregs; i++) {
		struct hw_model_reg *r = &m.regs[i];
		unsigned off = r->id == 0x700 ? 99 : 0;
		for (unsigned b = 0; b < NBOX && !off; b++)
			for (unsigned k = 0; k < 8; k++)
				if (r->id == cha_model_msr(layout, b, k))
					off = k + 1;
		if (off == 1)
			r->value = BOX_CTL_ORIG;
		else if (off >= 2 && off <= 5)
			r->value = CTL_ORIG + off;
		else if (off == 6 || off == 7)
			r->value = FILTER_ORIG;
		else if (off == 99)
			r->value = GLOBAL_ORIG;
	}
	for (int i = 0; i < m.nregs; i++)
		snapshot[i] = m.regs[i].value;
	h = hw_trace_wrap(&tracer, hw_model_hw(&m), ring, sizeof(ring) / sizeof(ring[0]));
	windows = 0;
}

/* Every register except the counters is as found. */
static void assert_restored(enum cha_model_layout layout)
{
	for (int i = 0; i < m.nregs; i++) {
		int ctr = 0;
		for (unsigned b = 0; b < NBOX; b++)
			for (unsigned k = 8; k < 12; k++)
				ctr |= m.regs[i].id == cha_model_msr(layout, b, k);
		if (!ctr && m.regs[i].value != snapshot[i])
			fail_msg("MSR 0x%x is 0x%llx, was 0x%llx", m.regs[i].id, (unsigned long long)m.regs[i].value,
				 (unsigned long long)snapshot[i]);
	}
}

/* Slice k runs ticks_base + k ticks (unequal slices), 1 us each. */
static uint64_t window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)nslices;
	windows++;
	unsigned t = ticks_base + slice;
	hw_model_tick(&m, t);
	return (uint64_t)t * NS_PER_TICK;
}

static unsigned msr_accesses(void)
{
	unsigned n = 0;
	for (size_t i = 0; i < tracer.count; i++) {
		const struct hw_trace_entry *e = &ring[(tracer.head + i) % tracer.cap];
		n += e->op == HWT_RDMSR || e->op == HWT_WRMSR;
	}
	return n;
}

static void prepare(uint32_t model_id, const char *events, uint32_t rounds, uint32_t cpu)
{
	char why[160];
	uint32_t cpus[1] = { cpu };
	if (cha_prepare(&h, 6, model_id, NULL, 0, 1, cpus, NBOX, events, rounds, &req, why, sizeof(why)))
		fail_msg("cha_prepare: %s", why);
}

static uint64_t boxes_sum(void) { return NBOX * (NBOX + 1) / 2; }   /* CHA n carries (n + 1) x */

static int idx(const char *name)
{
	for (uint32_t i = 0; i < req.nevents; i++)
		if (req.ev[i].name && !strcmp(req.ev[i].name, name))
			return (int)i;
	fail_msg("no event %s", name);
	return -1;
}

#define TR(ia, hit, nc, opc, key, n) ((struct cha_model_traffic){ ia, hit, nc, opc, key, n, 0 })

/* The platform's PCIe bandwidth set (its default events without the TOR latency groups, which
 * tests/unit/test_cha_latency.c covers), as a cha_events list. */
static const char *bandwidth_set(const char *plat)
{
	static char buf[1024];
	const struct cha_platform *p = cha_platform_by_name(plat);
	size_t k = 0;
	buf[0] = 0;
	for (uint8_t i = 0; i < p->ndefault; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? ";" : "", p->default_events[i]);
	return buf;
}

static void test_skx_one_group_exact_and_minimal(void **state)
{
	(void)state;
	model(CHA_MODEL_SKX, 1000);
	cha_model_add(&cm, TR(0, 1, 0, 0x21E, 0, 3));   /* RdCur hits */
	cha_model_add(&cm, TR(0, 0, 0, 0x21E, 0, 5));   /* RdCur misses */
	cha_model_add(&cm, TR(0, 0, 0, 0x200, 0, 7));   /* RFO misses: other opcode */
	cha_model_add(&cm, TR(1, 0, 1, 0x207, 0, 2));   /* core PRd: other queue */
	prepare(0x55, "TOR_INSERTS.IO_HIT_RDCUR; TOR_INSERTS.IO_MISS_RDCUR", 1, 2);
	assert_int_equal(req.ngroups, 1);
	ticks_base = 10;
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(windows, 1);
	assert_int_equal(res.sock[0].raw[0], 3 * boxes_sum() * 10);
	assert_int_equal(res.sock[0].raw[1], 5 * boxes_sum() * 10);
	assert_int_equal(res.sock[0].scaled[1], res.sock[0].raw[1]);
	assert_int_equal(res.sock[0].cpu, 2);
	assert_false(res.total.have_read);            /* RFO, CRd, DRd were not counted */
	assert_true(strstr(res.total.why, "PCIe read needs RFO") != NULL);
	assert_true(res.total.have_hit_ratio);
	assert_int_equal(res.total.hit_ratio_milli, 375);   /* 3 / (3 + 5) */
	assert_restored(CHA_MODEL_SKX);
	/* accesses: per box setup = rd BOX_CTL, wr frozen, rd CTL0-1, rd FILTER1, wr FILTER1,
	 * wr CTL0-1, rd CTR0-1 (10); global rd + wr; run 1 per box; pause wr + 2 rd per box;
	 * restore FILTER1 + CTL0-1 + BOX_CTL per box, global */
	unsigned want = NBOX * 10 + 2 + NBOX + NBOX * 3 + NBOX * 4 + 1;
	assert_int_equal(msr_accesses(), want);
	assert_int_equal(res.accesses, want);
	/* one sample (run + pause) costs N x (2 + counters) */
	assert_int_equal(NBOX + NBOX * 3, NBOX * (2 + 2));
}

static void test_icx_bandwidth_set_exact(void **state)
{
	(void)state;
	model(CHA_MODEL_ICX, 0);
	cha_model_add(&cm, TR(0, 1, 0, 0, 0xC8F3, 4));  /* PCIRdCur hit */
	cha_model_add(&cm, TR(0, 0, 0, 0, 0xC8F3, 6));  /* PCIRdCur miss */
	cha_model_add(&cm, TR(0, 1, 0, 0, 0xCC43, 2));  /* ItoM hit */
	cha_model_add(&cm, TR(0, 0, 0, 0, 0xCC43, 1));  /* ItoM miss */
	cha_model_add(&cm, TR(0, 0, 0, 0, 0xCD43, 5));  /* ItoMCacheNear miss */
	cha_model_add(&cm, TR(1, 0, 0, 0, 0xC817, 9));  /* core DRd: not IO */
	prepare(0x6A, bandwidth_set("ICX"), 1, 0);
	assert_int_equal(req.ngroups, 1);               /* no multiplexing of the bandwidth set on ICX */
	ticks_base = 7;
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	uint64_t k = boxes_sum() * 7;
	assert_int_equal(res.sock[0].raw[idx("TOR_INSERTS.IO_HIT_PCIRDCUR")], 4 * k);
	assert_int_equal(res.sock[0].raw[idx("TOR_INSERTS.IO_MISS_PCIRDCUR")], 6 * k);
	assert_int_equal(res.sock[0].raw[idx("TOR_INSERTS.IO_ITOM")], 3 * k);
	assert_int_equal(res.sock[0].raw[idx("TOR_INSERTS.IO_ITOMCACHENEAR")], 5 * k);
	const struct cha_metric_values *mv = &res.total;
	assert_true(mv->have_read && mv->have_write);
	assert_int_equal(mv->read_bytes, 64 * 10 * k);
	assert_int_equal(mv->write_bytes, 64 * 8 * k);
	assert_int_equal(res.window_ns, 7 * NS_PER_TICK);
	/* bytes per ns = GB/s */
	assert_int_equal(mv->read_gbps_milli, (64 * 10 * k * 1000 + 7 * NS_PER_TICK / 2) / (7 * NS_PER_TICK));
	assert_int_equal(mv->hit_ratio_milli, 400);
	assert_restored(CHA_MODEL_ICX);
}

/* Non-stationary traffic: slice k lasts ticks_base + k ticks of 1 us, and its traffic comes in
 * a burst of burst(k) = 1 + k mod 4 times the base rate, so the groups, which see different
 * slices, see different mean rates. */
static unsigned burst(uint32_t k) { return 1 + k % 4; }

static uint64_t window_bursts(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)nslices;
	windows++;
	unsigned t = ticks_base + slice;
	hw_model_tick(&m, t * burst(slice));
	return (uint64_t)t * NS_PER_TICK;
}

/* SKX bandwidth set: 14 events in 7 groups (one FILTER1 opcode each), 3 rounds = 21 slices, slice
 * k running group k mod 7 (rotation order), over bursty traffic.
 *
 * The math: an event of base rate b (requests per tick at burst 1, over all boxes) in group g
 * counts raw = b * sum_{k in g} burst(k) t_k while its group runs R_g = sum_{k in g} t_k of the
 * W = sum_k t_k window; it is scaled to floor(raw * W / R_g) = b * W * mean_g(burst) (time-
 * weighted over g's slices, then truncated), while the truth is b * sum_k burst(k) t_k =
 * b * W * mean(burst). Both means lie in [1, 4], so the scaling error is bounded by
 * |scaled - truth| <= b * W * (4 - 1) + 1 (the 1 is the truncation); it is 0 only when g's mean
 * burst equals the window's. The test asserts raw exactly, scaled as that formula to the count,
 * every event within the bound, and that some event's error is not 0 (the tolerance is used). */
static void test_skx_multiplexed_scaling(void **state)
{
	(void)state;
	static const uint16_t opcs[] = { 0x21E, 0x200, 0x201, 0x202, 0x248 };
	static const char *const names[] = { "RDCUR", "RFO", "CRD", "DRD", "ITOM" };
	model(CHA_MODEL_SKX, 0);
	for (int i = 0; i < 5; i++) {
		cha_model_add(&cm, TR(0, 1, 0, opcs[i], 0, 2 + i));
		cha_model_add(&cm, TR(0, 0, 0, opcs[i], 0, 11 + i));
	}
	cha_model_add(&cm, TR(1, 1, 1, 0x207, 0, 3));
	cha_model_add(&cm, TR(1, 0, 1, 0x20F, 0, 4));
	prepare(0x55, bandwidth_set("SKX"), 3, 0);
	assert_int_equal(req.nevents, 14);
	assert_int_equal(req.ngroups, 7);               /* one opcode per FILTER1 */
	ticks_base = 20;
	assert_int_equal(cha_measure(&h, &req, window_bursts, NULL, &res), 0);
	assert_int_equal(res.nslices, 21);
	uint64_t W = 0, truth_w = 0;                    /* window ticks; sum of burst x ticks */
	for (uint32_t k = 0; k < 21; k++) {
		W += ticks_base + k;
		truth_w += (uint64_t)burst(k) * (ticks_base + k);
	}
	assert_int_equal(res.window_ns, W * NS_PER_TICK);
	unsigned nonzero = 0;
	uint64_t lines = 0;
	for (int i = 0; i < 5; i++)
		for (int hit = 1; hit >= 0; hit--) {
			char name[48];
			snprintf(name, sizeof(name), "TOR_INSERTS.IO_%s_%s", hit ? "HIT" : "MISS", names[i]);
			int e = idx(name);
			uint32_t g = req.ev[e].group;
			uint64_t b = (uint64_t)(hit ? 2 + i : 11 + i) * boxes_sum();
			uint64_t ran = 0, raw = 0;
			for (uint32_t k = g; k < 21; k += 7) {
				ran += ticks_base + k;
				raw += b * burst(k) * (ticks_base + k);
			}
			assert_int_equal(res.group_ns[g], ran * NS_PER_TICK);
			assert_int_equal(res.sock[0].raw[e], raw);
			uint64_t scaled = (uint64_t)((unsigned __int128)raw * W / ran), truth = b * truth_w;
			assert_int_equal(res.sock[0].scaled[e], scaled);
			uint64_t err = scaled > truth ? scaled - truth : truth - scaled;
			if (err > b * W * (4 - 1) + 1)
				fail_msg("%s: scaled %llu, truth %llu: error %llu above the bound %llu", name,
					 (unsigned long long)scaled, (unsigned long long)truth, (unsigned long long)err,
					 (unsigned long long)(b * W * 3 + 1));
			nonzero += err > 1;
			if (i < 4)
				lines += scaled;
		}
	assert_true(nonzero > 0);                       /* the bursts made scaling inexact */
	assert_true(res.total.have_read && res.total.have_mmio_read && res.total.have_mmio_write);
	assert_int_equal(res.total.read_bytes, 64 * lines);
	assert_restored(CHA_MODEL_SKX);
}

static void test_wrap_48_bits(void **state)
{
	(void)state;
	model(CHA_MODEL_ICX, (1ull << 48) - 30);
	cha_model_add(&cm, TR(0, 1, 0, 0, 0xC8F3, 100));
	prepare(0x6A, "TOR_INSERTS.IO_HIT_PCIRDCUR", 1, 0);
	ticks_base = 1;
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), 0);
	assert_int_equal(res.sock[0].raw[0], 100 * boxes_sum());
}

static void test_failing_write_midway_restores(void **state)
{
	(void)state;
	model(CHA_MODEL_SKX, 0);
	hw_model_find(&m, HWM_MSR, cha_model_msr(CHA_MODEL_SKX, 2, 2))->kind = HWM_READONLY;  /* CHA 2 CTL1 */
	prepare(0x55, "TOR_INSERTS.IO_HIT_RDCUR;TOR_INSERTS.IO_MISS_RDCUR", 1, 1);
	ticks_base = 5;
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), -1);
	assert_int_equal(windows, 0);
	assert_non_null(strstr(res.why, "write MSR 0xe22 (CTL1 of CHA 2) on CPU 1, socket 0: #GP"));
	/* the faulting write may have taken effect in part, so restore writes CTL1 back; it faults
	 * again (read-only), and the record names it; every other register is put back */
	assert_int_equal(res.restore.nfailed, 1);
	assert_int_equal(res.restore.failed[0].addr, 0xe22);
	assert_int_equal(res.restore.status, HW_FAULT_GP);
	assert_non_null(strstr(res.restore_why, "MSR 0xe22 (#GP)"));
	assert_restored(CHA_MODEL_SKX);
	int wrote = 0;
	for (int i = 0; i < m.nlog; i++)
		wrote |= m.log[i].id == cha_model_msr(CHA_MODEL_SKX, 1, 1);
	assert_true(wrote);                             /* CHA 1 had been programmed, then restored */
}

/* Registers of the run that were not put back: the set's entries still marked written. */
static int not_restored(uint32_t id)
{
	for (uint32_t i = 0; i < res.save[0].n; i++)
		if (res.save[0].e[i].written && res.save[0].e[i].r.space == REG_MSR && res.save[0].e[i].r.addr == id)
			return 1;
	return 0;
}

static unsigned fault_run(const char *events, uint32_t fail_at, int sticky)
{
	model(CHA_MODEL_SKX, 0);
	cha_model_add(&cm, TR(0, 1, 0, 0x21E, 0, 3));
	cha_model_add(&cm, TR(0, 0, 0, 0x200, 0, 5));
	prepare(0x55, events, 2, 0);
	m.fail_at = fail_at;
	m.fail_sticky = (uint8_t)sticky;
	ticks_base = 2;
	cha_measure(&h, &req, window, NULL, &res);
	return m.naccess;
}

/* A fault injected at every access of a clean run in turn (setup reads and writes of every
 * box, the global control, each group switch, the counter reads, the restore itself), once
 * and from then on (sticky): every register is back as found or named by the record's
 * restore, any fault fails the run, and a restore fault is reported even when an earlier
 * error ended the run. */
static void test_fault_at_every_access(void **state)
{
	(void)state;
	/* RdCur and RFO need different FILTER1 opcodes: two groups, switched both ways (2 rounds);
	 * LLC_LOOKUP.ANY adds FILTER0 */
	const char *events = "TOR_INSERTS.IO_HIT_RDCUR;TOR_INSERTS.IO_MISS_RFO;LLC_LOOKUP.ANY";
	unsigned clean = fault_run(events, 0, 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(req.ngroups, 2);
	assert_int_equal(res.restore.nfailed, 0);
	assert_int_equal(res.restore.registers, NBOX * 5 + 1);   /* BOX_CTL, CTL0-1, FILTER0-1; global */
	assert_int_equal(clean, res.accesses);
	unsigned runs = 0, restore_faults = 0, both = 0;
	for (int sticky = 0; sticky < 2; sticky++)
		for (uint32_t k = 1; k <= clean; k++) {
			fault_run(events, k, sticky);
			runs++;
			assert_true(m.nfailed >= 1);
			if (res.status != -1 || !res.why[0])
				fail_msg("fault at access %u (sticky %d): status %d, why \"%s\"", k, sticky, res.status, res.why);
			/* the record's list is the set's not-restored entries, in order, up to its size */
			uint32_t listed = 0;
			for (uint32_t i = 0; i < res.save[0].n; i++)
				if (res.save[0].e[i].written) {
					if (listed < SAVESET_REPORT_FAILED)
						assert_true(reg_same(res.restore.failed[listed], res.save[0].e[i].r));
					listed++;
				}
			assert_int_equal(listed, res.restore.nfailed);
			for (int i = 0; i < m.nregs; i++) {
				const struct hw_model_reg *r = &m.regs[i];
				int ctr = 0;
				for (unsigned b = 0; b < NBOX; b++)
					ctr |= r->id >= cha_model_msr(CHA_MODEL_SKX, b, 8) && r->id <= cha_model_msr(CHA_MODEL_SKX, b, 11);
				if (!ctr && r->value != snapshot[i] && !not_restored(r->id))
					fail_msg("fault at access %u (sticky %d): MSR 0x%x is 0x%llx, was 0x%llx, and restore "
						 "does not name it", k, sticky, r->id, (unsigned long long)r->value,
						 (unsigned long long)snapshot[i]);
			}
			if (res.restore.nfailed) {
				restore_faults++;
				assert_true(res.restore_why[0]);
				if (strcmp(res.why, res.restore_why))
					both++;           /* an earlier error, and the restore's own */
			}
			/* sticky: nothing answers from access k on, and a clean run's last access is a
			 * restore write, so something written is left and must be named */
			/* once: the restore after any error puts everything back but, at most, the one
			 * register whose write-back was the faulted access */
			if (!sticky && res.restore.nfailed > 1)
				fail_msg("fault at access %u (once): %u registers not restored", k, res.restore.nfailed);
			if (sticky && res.restore.written)
				assert_true(res.restore.nfailed >= 1);
		}
	/* the record carries restore {status, registers, failed [...]} */
	char buf[8192];
	cha_record(&req, &res, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"restore\":{\"status\":\"#GP\""));   /* the failed write-back's status */
	assert_non_null(strstr(buf, "\"failed\":[{\"register\":\"MSR 0x"));
	printf("fault injection: %u clean accesses, %u faulted runs, %u with a restore fault (%u of them after "
	       "an earlier error)\n", clean, runs, restore_faults, both);
	assert_int_equal(runs, 2 * clean);
	assert_true(both > 0);
}

static void test_cpu_unavailable(void **state)
{
	(void)state;
	model(CHA_MODEL_SKX, 0);
	prepare(0x55, "TOR_INSERTS.IO", 1, 9);
	assert_int_equal(cha_measure(&h, &req, window, NULL, &res), -1);
	assert_non_null(strstr(res.why, "run on CPU 9 (socket 0)"));
	assert_int_equal(m.nlog, 0);
}

static void test_groups_and_counter0(void **state)
{
	(void)state;
	model(CHA_MODEL_SKX, 0);
	/* TOR_OCCUPANCY (0x36) only on counter 0: two of them need two groups */
	prepare(0x55, "cha/event=0x36,umask=0x34/;cha/event=0x36,umask=0x14/;TOR_INSERTS.IO", 1, 0);
	assert_int_equal(req.ngroups, 2);
	assert_int_equal(req.ev[0].counter, 0);
	assert_int_equal(req.ev[1].counter, 0);
	assert_int_equal(req.ev[2].group, 0);
	assert_int_equal(req.ev[2].counter, 1);
	char why[160];
	assert_int_equal(cha_request_events(&req, "TOR_INSERTS.IO;;TOR_INSERTS.IA", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "empty entry"));
	assert_int_equal(cha_request_events(&req, "TOR_INSERTS.NOPE", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no such SKX CHA event"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skx_one_group_exact_and_minimal),
		cmocka_unit_test(test_icx_bandwidth_set_exact),
		cmocka_unit_test(test_skx_multiplexed_scaling),
		cmocka_unit_test(test_wrap_48_bits),
		cmocka_unit_test(test_failing_write_midway_restores),
		cmocka_unit_test(test_fault_at_every_access),
		cmocka_unit_test(test_cpu_unavailable),
		cmocka_unit_test(test_groups_and_counter0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
