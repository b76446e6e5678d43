/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The health attachments (efi/measure/health_run.c) and their record object
 * (efi/out/health_json.c) on one machine model: the MSR model (tests/model/hw_model.c) for
 * CPUID and MSRs and the configuration-space model (tests/model/pci_model.c) for a Root Port
 * with AER and an NVMe controller below it. Errors are set between prepare and read with
 * literal register values (PCIe 6.0 7.8.4.5 Correctable Error Status: Receiver Error is bit
 * 0; SDM Vol.3B 16.3.2.2 MCi_STATUS); the record is parsed back with jsonget and judged by the
 * verdict with the check the README gives (nvme[*].health.aer.correctable == 0).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "efi/config/config.h"
#include "efi/measure/health_run.h"
#include "efi/out/health_json.h"
#include "efi/verdict/jsonget.h"
#include "efi/verdict/verdict.h"
#include "tests/model/hw_model.h"
#include "tests/model/pci_model.h"
#include "tests/unit/json_check.h"

static struct hw_model m;
static struct pci_model pm;
static struct health_baselines last;
static struct hw msr_hw, pci_hw;

static hw_status c_cpuid(void *c, uint32_t l, uint32_t s, struct hw_cpuid *o) { (void)c; return msr_hw.ops->cpuid(msr_hw.ctx, l, s, o); }
static hw_status c_rdmsr(void *c, uint32_t r, uint64_t *v) { (void)c; return msr_hw.ops->rdmsr(msr_hw.ctx, r, v); }
static hw_status c_wrmsr(void *c, uint32_t r, uint64_t v) { (void)c; return msr_hw.ops->wrmsr(msr_hw.ctx, r, v); }
static hw_status c_pcir(void *c, struct hw_pci_addr a, uint16_t o, uint32_t *v) { (void)c; return pci_hw.ops->pci_read32(pci_hw.ctx, a, o, v); }
static hw_status c_pciw(void *c, struct hw_pci_addr a, uint16_t o, uint32_t v) { (void)c; return pci_hw.ops->pci_write32(pci_hw.ctx, a, o, v); }
static const struct hw_ops both_ops = { .name = "msr+pci", .cpuid = c_cpuid, .rdmsr = c_rdmsr, .wrmsr = c_wrmsr,
					.pci_read32 = c_pcir, .pci_write32 = c_pciw };
static const struct hw hw = { &both_ops, NULL };

static struct pci_model_func *rp, *rp2;
static const struct hw_pci_addr RP = { 0, 0, 1, 0 }, NVME = { 0, 1, 0, 0 }, RP2 = { 0, 0, 2, 0 };
static uint64_t ticks;
static uint64_t now(void) { return ticks; }

static void machine(void)
{
	hw_model_init(&m);
	msr_hw = hw_model_hw(&m);
	/* "GenuineIntel": EBX "Genu", EDX "ineI", ECX "ntel" */
	hw_model_cpuid(&m, 0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);
	hw_model_cpuid(&m, 1, 0, 0x000806f8, 0, 0, 0x4080);   /* MCE, MCA */
	hw_model_cpuid(&m, 6, 0, 0x41, 0, 1, 0);              /* DTS, PTM; APERF/MPERF */
	hw_model_reg(&m, HWM_MSR, 0x179, HWM_READONLY, 0x0a); /* 10 banks */
	for (uint32_t i = 0; i < 10; i++)
		hw_model_reg(&m, HWM_MSR, 0x401 + 4 * i, HWM_PLAIN, 0);
	hw_model_reg(&m, HWM_MSR, 0x406, HWM_PLAIN, 0);       /* MC1_ADDR */
	hw_model_reg(&m, HWM_MSR, 0x606, HWM_READONLY, 0x000A0E03);   /* ESU 14 */
	hw_model_reg(&m, HWM_MSR, 0x611, HWM_READONLY, 0xFFFFC000);   /* package: wraps below */
	hw_model_reg(&m, HWM_MSR, 0x619, HWM_READONLY, 0x100);
	hw_model_reg(&m, HWM_MSR, 0x19C, HWM_READONLY, 0x88450000);
	hw_model_reg(&m, HWM_MSR, 0x1B1, HWM_READONLY, 0x88400000);
	hw_model_reg(&m, HWM_MSR, 0xE7, HWM_COUNTER, 0)->step = 1000;
	hw_model_reg(&m, HWM_MSR, 0xE8, HWM_COUNTER, 0)->step = 1200;
	pci_model_init(&pm);
	pci_hw = pci_model_hw(&pm);
	rp = pci_model_add(&pm, 0, 0, 1, 0, 0x1b36, 0x000c, 0x060400, 1);
	pci_model_add_exp(rp, 0x40, 4, 3, 4, 3, 4, 0x07);
	pci_model_add_ext_cap(rp, 0x100, 0x0001, 2);
	pci_model_set_bridge(rp, 0, 1, 1);
	rp2 = pci_model_add(&pm, 0, 0, 2, 0, 0x1b36, 0x000c, 0x060400, 1);
	pci_model_add_exp(rp2, 0x40, 4, 3, 4, 3, 4, 0x07);
	pci_model_add_ext_cap(rp2, 0x100, 0x0001, 2);
	struct pci_model_func *n = pci_model_add(&pm, 0, 1, 0, 0, 0x1b36, 0x0010, 0x010802, 0);
	pci_model_add_exp(n, 0x80, 0, 3, 4, 3, 4, 0x07);
	memset(&last, 0, sizeof(last));
	ticks = 0;
}

static struct health_run h;
static char text[8192];

static void begin(const struct hw_pci_addr *devs, int n, int clear)
{
	memset(&h.o, 0, sizeof(h.o));
	for (int i = 0; i < n; i++)
		health_add_path(&h.o, NULL, devs[i]);
	h.o.aer_clear = clear;
	h.o.now = now;
	h.o.hz = 2000000000u;   /* 2 GHz timer */
	h.o.last = &last;
	health_begin(&h, &hw);
}

static const char *record(const struct health_run *hp)
{
	struct strbuf sb = { .buf = text, .cap = sizeof(text) };
	struct json j;
	json_begin(&j, &sb);
	json_str(&j, "type", "nvme");
	json_str(&j, "bdf", "0000:01:00.0");
	health_json(&j, hp, "no memory");
	json_end(&j);
	assert_int_equal(j.error, 0);
	assert_true(json_check_object(text, strlen(text)));
	return text;
}

static char got[128];
static const char *get(const char *path)
{
	struct jv v;
	if (jsonget(text, strlen(text), path, &v) != 0)
		return "(missing)";
	snprintf(got, sizeof(got), "%.*s", (int)v.n, v.p);
	return got;
}

static void window_with_errors(void **state)
{
	(void)state;
	machine();
	const struct hw_pci_addr devs[] = { RP, NVME, RP2 };
	begin(devs, 3, 0);
	int nlog = m.nlog;
	unsigned pw = pm.pci_writes;
	/* the window: Receiver Error at the root port; a corrected memory-controller error in
	 * bank 1; 0x8000 package energy counts across the wrap; 2 ms; 10 ticks of APERF/MPERF */
	pci_model_w32(rp, 0x110, 0x00000001);
	pci_model_w16(rp, 0x4a, 0x0001);
	hw_model_find(&m, HWM_MSR, 0x405)->value = 0x9400000000000091ull;   /* VAL EN ADDRV, MCACOD 0x91 */
	hw_model_find(&m, HWM_MSR, 0x406)->value = 0xdead000ull;
	hw_model_find(&m, HWM_MSR, 0x611)->value = 0x00004000;
	hw_model_tick(&m, 10);
	ticks = 4000000;
	health_end(&h);
	assert_int_equal(m.nlog, nlog);          /* no MSR written */
	assert_int_equal(pm.pci_writes, pw);     /* no config written (aer_clear off) */
	record(&h);
	assert_string_equal(get("health.aer.correctable"), "1");
	assert_string_equal(get("health.aer.functions[0].bdf"), "0000:00:01.0");
	assert_string_equal(get("health.aer.functions[0].cor_new[0]"), "RxErr");
	assert_string_equal(get("health.aer.functions[0].devsta_new[0]"), "CorrErr");
	assert_string_equal(get("health.aer.functions[0].baseline"), "window start");
	assert_string_equal(get("health.aer.functions[1].aer"), "false");         /* the NVMe: no AER */
	assert_string_equal(get("health.aer.functions[2].correctable"), "0");     /* the other port */
	assert_string_equal(get("health.mca.new"), "1");
	assert_string_equal(get("health.mca.entries[0].bank"), "1");
	assert_string_equal(get("health.mca.entries[0].corrected"), "true");
	assert_string_equal(get("health.mca.entries[0].kind"), "memory controller");
	assert_string_equal(get("health.mca.entries[0].mcacod"), "0x91");
	assert_string_equal(get("health.mca.entries[0].addr"), "0xdead000");
	/* 0x8000 counts at ESU 14 = 2 J, over 2 ms = 1000 W */
	assert_string_equal(get("health.energy.domains[0].joules"), "2.000");
	assert_string_equal(get("health.energy.domains[0].watts"), "1000.000");
	assert_string_equal(get("health.energy.domains[1].joules"), "0.000");
	assert_string_equal(get("health.freq.aperf_mperf"), "1.200");
	assert_string_equal(get("health.freq.mhz"), "2400");
	assert_string_equal(get("health.throttled"), "false");

	/* the verdict: nvme[*].health.aer.correctable == 0 fails on this record */
	static struct efiperf_config cfg;
	static struct cfg_errors errs;
	const char *c = "check = nvme[*].health.aer.correctable == 0\ncheck = nvme[*].health.throttled == false\n";
	cfg_defaults(&cfg);
	assert_int_equal(cfg_parse_text(&cfg, c, strlen(c), "t.cfg", &errs), 0);
	static struct verdict v;
	verdict_init(&v, cfg.checks, cfg.nchecks);
	verdict_offer(&v, text, strlen(text));
	verdict_finish(&v);
	assert_int_equal(v.result, VERDICT_FAIL);
	assert_false(v.st[0].holds);
	assert_true(v.st[1].holds);

	/* an error between two windows shows in the next one, against the previous after */
	pci_model_w32(rp, 0x110, 0x00000041);    /* Bad TLP (bit 6) while no window ran */
	begin(devs, 3, 0);
	health_end(&h);
	record(&h);
	assert_string_equal(get("health.aer.functions[0].baseline"), "previous window");
	assert_string_equal(get("health.aer.functions[0].cor_new[0]"), "BadTLP");
	assert_string_equal(get("health.aer.functions[0].already_set[0]"), "RxErr");
	assert_string_equal(get("health.mca.new"), "0");
	assert_string_equal(get("health.mca.baseline"), "previous window");
	verdict_init(&v, cfg.checks, cfg.nchecks);
	/* a third window with nothing: passes */
	begin(devs, 3, 0);
	health_end(&h);
	record(&h);
	verdict_offer(&v, text, strlen(text));
	verdict_finish(&v);
	assert_int_equal(v.result, VERDICT_PASS);
}

static void aer_clear_writes_and_says(void **state)
{
	(void)state;
	machine();
	pci_model_w32(rp, 0x110, 0x00000080);    /* Bad DLLP left by the firmware */
	pci_model_w32(rp, 0x104, 0x00100000);    /* Unsupported Request (bit 20) */
	const struct hw_pci_addr devs[] = { RP };
	unsigned pw = pm.pci_writes;
	begin(devs, 1, 1);
	assert_int_equal(pm.pci_writes - pw, 2);  /* the two AER status registers, nothing else */
	health_end(&h);
	record(&h);
	assert_string_equal(get("health.aer.cleared_before"), "true");
	assert_string_equal(get("health.aer.functions[0].cleared[0]"), "BadDLLP");
	assert_string_equal(get("health.aer.functions[0].cleared[1]"), "UnsupReq");
	assert_string_equal(get("health.aer.functions[0].clear_failed"), "false");
}

static void absent_sources_say_why(void **state)
{
	(void)state;
	machine();
	/* TCG-like: no DTS/PTM/APERF in CPUID, RAPL unit reads 0, no MCA in CPUID */
	hw_model_cpuid(&m, 6, 0, 0, 0, 0, 0);
	hw_model_cpuid(&m, 1, 0, 0x000806f8, 0, 0, 0);
	hw_model_find(&m, HWM_MSR, 0x606)->value = 0;
	begin(NULL, 0, 0);
	health_end(&h);
	record(&h);
	assert_string_equal(get("health.aer.absent"), "the window has no PCIe device");
	assert_string_equal(get("health.mca.absent"), "CPUID.01H:EDX MCE[7] or MCA[14] is 0: no machine-check architecture");
	assert_string_equal(get("health.energy.absent"),
			    "the RAPL power-unit MSR reads 0 (not implemented: a hypervisor or emulator)");
	assert_string_equal(get("health.thermal.absent"), "CPUID.06H:EAX[0] is 0: no IA32_THERM_STATUS");
	assert_string_equal(get("health.freq.absent"), "CPUID.06H:ECX[0] is 0: no IA32_APERF/IA32_MPERF");
	assert_string_equal(get("health.throttled"), "null");
	record(NULL);
	assert_string_equal(get("health.absent"), "no memory");
}

/* Each MSR read failing in turn (prepare and read): the record stays well-formed, nothing is
 * written, and the source whose read failed says so. */
static void fault_at_every_msr_access(void **state)
{
	(void)state;
	machine();
	const struct hw_pci_addr devs[] = { RP };
	m.naccess = 0;
	begin(devs, 1, 0);
	health_end(&h);
	uint32_t clean = m.naccess;
	assert_true(clean > 10);
	for (uint32_t k = 1; k <= clean; k++) {
		machine();
		m.fail_at = k;
		begin(devs, 1, 0);
		health_end(&h);
		record(&h);
		assert_int_equal(m.nlog, 0);
		assert_int_equal(m.nfailed, 1);
		assert_string_equal(get("health.aer.correctable"), "0");
		if (!strstr(text, "faulted"))
			fail_msg("access %u failed unseen: %s", k, text);
	}
}

/* The SMBIOS claim beside a STREAM rate: 2 DIMMs of DDR5-4800 x 64 bits claim 2 x 38400 MB/s */
static void dram_peak_claim(void **state)
{
	(void)state;
	static struct smbios_info s;
	memset(&s, 0, sizeof(s));
	s.mem.populated = 3;
	s.mem.peak_mbps = 2 * 4800 * 8;
	s.mem.peak_unknown = 1;
	struct strbuf sb = { .buf = text, .cap = sizeof(text) };
	struct json j;
	json_begin(&j, &sb);
	dram_peak_json(&j, &s, 19200);
	json_end(&j);
	assert_true(json_check_object(text, strlen(text)));
	assert_string_equal(get("dram_peak.claimed_mbps"), "76800");
	assert_string_equal(get("dram_peak.fraction"), "0.250");
	assert_string_equal(get("dram_peak.dimms"), "2");
	assert_string_equal(get("dram_peak.dimms_unknown"), "1");
	s.mem.peak_mbps = 0;
	sb.len = 0;
	json_begin(&j, &sb);
	dram_peak_json(&j, &s, 19200);
	json_end(&j);
	assert_string_equal(get("dram_peak.absent"), "no SMBIOS type 17 device with both a speed and a data width");
	sb.len = 0;
	json_begin(&j, &sb);
	dram_peak_json(&j, NULL, 19200);
	json_end(&j);
	assert_string_equal(get("dram_peak.absent"), "no SMBIOS table");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(window_with_errors),
		cmocka_unit_test(aer_clear_writes_and_says),
		cmocka_unit_test(absent_sources_say_why),
		cmocka_unit_test(fault_at_every_msr_access),
		cmocka_unit_test(dram_peak_claim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
