/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Health evidence decoders on the register models: PCIe Device Status / Link Status / AER
 * status deltas and their lspci names (pcie_health.c), machine-check banks (Intel and AMD
 * layouts), RAPL wraparound and units, APERF/MPERF, thermal throttle bits (pmu/health.c).
 * Every expected value is a literal worked out by hand from the documents: PCIe 6.0 7.5.3.5,
 * 7.5.3.8, 7.8.4.2, 7.8.4.5 (bit positions); SDM Vol.3B 16.3.2.2 (MCi_STATUS fields), 16.9
 * (error codes), 15.10.1 (ESU), 15.2 (APERF/MPERF), 15.8.5.2 (thermal status); AMD PPR
 * MSRC001_0299/029B; lspci's names (pciutils ls-ecaps.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/pcie/pcie_health.h"
#include "pmu/health.h"
#include "tests/model/hw_model.h"
#include "tests/model/pci_model.h"

static char names[256];
static const char *named(const struct pcie_bit_name *t, uint32_t bits)
{
	const char *n;
	names[0] = 0;
	for (int k = 0; (n = pcie_bit_name(t, bits, k)); k++) {
		strcat(names, n);
		strcat(names, " ");
	}
	int spaces = 0;
	for (const char *c = names; *c; c++)
		spaces += *c == ' ';
	assert_int_equal(pcie_bit_count(t, bits), spaces);   /* one name per counted bit */
	return names;
}

/* A Root Port at 00:01.0 with PCIe capability at 0x40 and AER at 0x100; 8 GT/s x4. */
static struct pci_model pm;
static struct pci_model_func *root_port(void)
{
	pci_model_init(&pm);
	struct pci_model_func *f = pci_model_add(&pm, 0, 0, 1, 0, 0x8086, 0x1234, 0x060400, 1);
	pci_model_add_exp(f, 0x40, 4 /* Root Port */, 3, 4, 3, 4, 0x07);
	pci_model_add_ext_cap(f, 0x100, 0x0001 /* AER */, 2);
	return f;
}

static void pcie_names_and_delta(void **state)
{
	(void)state;
	struct pci_model_func *f = root_port();
	struct hw hw = pci_model_hw(&pm);
	struct hw_pci_addr a = { 0, 0, 1, 0 };
	/* before: Correctable Error Status has Bad DLLP (bit 7) left over from the firmware */
	pci_model_w32(f, 0x110, 0x00000080);
	struct pcie_health_snap s0, s1;
	pcie_health_locate(&hw, a, &s0);
	assert_null(s0.why);
	assert_int_equal(s0.exp, 0x40);
	assert_int_equal(s0.aer, 0x100);
	/* the window: Receiver Error (bit 0) and Bad TLP (bit 6); Poisoned TLP (bit 12) and
	 * Completion Timeout (bit 14) uncorrectable; Device Status CorrErr (0) + NonFatalErr (1);
	 * Link Status LBMS (14), speed 8 GT/s -> 2.5 GT/s (code 3 -> 1), width x4 kept */
	pci_model_w32(f, 0x110, 0x000000c1);
	pci_model_w32(f, 0x104, 0x00005000);
	pci_model_w16(f, 0x4a, 0x0003);
	pci_model_w16(f, 0x52, 0x4000 | 4 << 4 | 1);
	s1 = s0;
	assert_int_equal(pcie_health_read(&hw, &s1), 0);
	struct pcie_health_delta d;
	pcie_health_delta(&s0, &s1, &d);
	assert_int_equal(d.cor_new, 0x41);
	assert_string_equal(named(pcie_cor_names, d.cor_new), "RxErr BadTLP ");
	assert_string_equal(named(pcie_cor_names, d.cor_before), "BadDLLP ");
	assert_string_equal(named(pcie_uncor_names, d.uncor_new), "TLP CmpltTO ");
	assert_string_equal(named(pcie_devsta_names, d.devsta_new), "CorrErr NonFatalErr ");
	assert_string_equal(named(pcie_lnksta_names, d.lnksta_new), "LBMS ");
	assert_int_equal(d.correctable, 2);
	assert_int_equal(d.uncorrectable, 2);
	assert_int_equal(d.speed_before, 3);
	assert_int_equal(d.speed_after, 1);
	assert_int_equal(d.width_after, 4);
	assert_int_equal(d.link_events, 2);   /* LBMS + the speed change */
	/* every correctable name at its bit: 0 6 7 8 12 13 14 15 */
	assert_string_equal(named(pcie_cor_names, 0xffffffffu),
			    "RxErr BadTLP BadDLLP Rollover Timeout AdvNonFatalErr CorrIntErr HeaderOF ");
	assert_string_equal(named(pcie_lnksta_names, 0x8000), "LABS ");
	assert_string_equal(named(pcie_uncor_names, 1u << 20 | 1u << 18), "MalfTLP UnsupReq ");
}

static void pcie_clear_writes_found_bits(void **state)
{
	(void)state;
	struct pci_model_func *f = root_port();
	struct hw hw = pci_model_hw(&pm);
	struct hw_pci_addr a = { 0, 0, 1, 0 };
	pci_model_w16(f, 0x48, 0x2810);             /* Device Control as the firmware left it */
	pci_model_w16(f, 0x4a, 0x0011);             /* CorrErr + AuxPwr (RO, not written) */
	pci_model_w32(f, 0x110, 0x00000001);
	struct pcie_health_snap s;
	pcie_health_locate(&hw, a, &s);
	unsigned w0 = pm.pci_writes;
	assert_int_equal(pcie_health_clear(&hw, &s), 0);
	assert_int_equal(pm.pci_writes - w0, 2);    /* Device Status dword and Correctable status */
	assert_int_equal(pci_model_r32(f, 0x48), 0x00012810);   /* DevCtl kept, 1 to CorrErr only */
	assert_int_equal(pci_model_r32(f, 0x110), 0x00000001);
	/* nothing set: nothing written */
	pci_model_w16(f, 0x4a, 0);
	pci_model_w32(f, 0x110, 0);
	pcie_health_read(&hw, &s);
	w0 = pm.pci_writes;
	assert_int_equal(pcie_health_clear(&hw, &s), 0);
	assert_int_equal(pm.pci_writes, w0);
}

/* Config reads failing at the n-th access: every read is checked, none yields a snapshot. */
static unsigned pci_fail_at, pci_naccess;
static hw_status failing_read(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{
	if (++pci_naccess == pci_fail_at)
		return HW_ERROR;
	struct hw inner = pci_model_hw(ctx);
	return inner.ops->pci_read32(inner.ctx, a, off, v);
}

static void pcie_fault_at_every_read(void **state)
{
	(void)state;
	root_port();
	static struct hw_ops ops = { .name = "failing", .pci_read32 = failing_read };
	struct hw hw = { &ops, &pm };
	struct hw_pci_addr a = { 0, 0, 1, 0 };
	struct pcie_health_snap s;
	pci_fail_at = 0;
	pci_naccess = 0;
	pcie_health_locate(&hw, a, &s);
	assert_null(s.why);
	unsigned clean = pci_naccess;
	for (unsigned k = 1; k <= clean; k++) {
		pci_fail_at = k;
		pci_naccess = 0;
		pcie_health_locate(&hw, a, &s);
		/* a failure while locating leaves it without offsets or with a why; never a
		 * snapshot read half */
		if (!s.why)
			assert_true(s.exp == 0x40);
		else
			assert_non_null(s.why);
	}
	/* the last reads are the status registers: failing the very last one is named */
	pci_fail_at = clean;
	pci_naccess = 0;
	pcie_health_locate(&hw, a, &s);
	assert_string_equal(s.why, "a configuration read failed");
}

static void pcie_no_aer(void **state)
{
	(void)state;
	pci_model_init(&pm);
	struct pci_model_func *f = pci_model_add(&pm, 0, 1, 0, 0, 0x1b36, 0x0010, 0x010802, 0);
	pci_model_add_exp(f, 0x80, 0 /* Endpoint */, 3, 4, 3, 4, 0x07);
	struct hw hw = pci_model_hw(&pm);
	struct pcie_health_snap s;
	pcie_health_locate(&hw, (struct hw_pci_addr){ 0, 1, 0, 0 }, &s);
	assert_null(s.why);
	assert_int_equal(s.aer, 0);
	pcie_health_locate(&hw, (struct hw_pci_addr){ 0, 2, 0, 0 }, &s);
	assert_string_equal(s.why, "no function there");
}

/* ---- machine checks ------------------------------------------------------------------------ */

static struct hw_model m;

static void x86_cpu(const char vendor[13], uint32_t edx1)
{
	uint32_t w[3];
	memcpy(w, vendor, 12);
	hw_model_init(&m);
	hw_model_cpuid(&m, 0, 0, 0x16, w[0], w[2], w[1]);   /* EBX EDX ECX spell the vendor */
	hw_model_cpuid(&m, 1, 0, 0x000806f8, 0, 0, edx1);
	hw_model_cpuid(&m, 0x80000000, 0, 0x80000008, 0, 0, 0);
}

static void mca_intel_banks(void **state)
{
	(void)state;
	x86_cpu("GenuineIntel", 0x4080);                      /* MCE [7], MCA [14] */
	hw_model_reg(&m, HWM_MSR, 0x179, HWM_READONLY, 0x0f000c14);   /* Count 0x14 = 20 banks */
	for (uint32_t i = 0; i < 20; i++)
		hw_model_reg(&m, HWM_MSR, 0x401 + 4 * i, HWM_PLAIN, 0);
	hw_model_reg(&m, HWM_MSR, 0x40a, HWM_PLAIN, 0);      /* MC2_ADDR */
	hw_model_reg(&m, HWM_MSR, 0x40b, HWM_PLAIN, 0);      /* MC2_MISC */
	hw_model_reg(&m, HWM_MSR, 0x432, HWM_PLAIN, 0);      /* MC12_ADDR */
	hw_model_reg(&m, HWM_MSR, 0x405, HWM_PLAIN, 0x8800000000000005ull);  /* MC1: valid before */
	struct hw hw = hw_model_hw(&m);
	struct mca_snap a, b;
	mca_snapshot(&hw, &a);
	assert_null(a.why);
	assert_int_equal(a.count, 20);
	assert_int_equal(a.nbanks, 20);
	/* bank 2: corrected memory read error, channel 0 (MCACOD 0000 0000 1001 0000), MSCOD 1,
	 * VAL EN MISCV ADDRV; bank 12: uncorrected cache hierarchy data read (0001 0011 0100),
	 * VAL UC EN ADDRV PCC */
	hw_model_find(&m, HWM_MSR, 0x409)->value = 0x9C00000000010090ull;
	hw_model_find(&m, HWM_MSR, 0x40a)->value = 0x123456000ull;
	hw_model_find(&m, HWM_MSR, 0x40b)->value = 0x86ull;
	hw_model_find(&m, HWM_MSR, 0x431)->value = 0xB600000000000134ull;
	hw_model_find(&m, HWM_MSR, 0x432)->value = 0x7fff0000ull;
	mca_snapshot(&hw, &b);
	struct mca_delta d;
	mca_delta(&a, &b, &d);
	assert_int_equal(d.n_new, 2);
	assert_int_equal(d.corrected, 1);
	assert_int_equal(d.uncorrected, 1);
	assert_int_equal(d.e[0].bank, 2);
	assert_false(d.e[0].uc);
	assert_true(d.e[0].en && d.e[0].addrv && d.e[0].miscv);
	assert_int_equal(d.e[0].mcacod, 0x0090);
	assert_int_equal(d.e[0].mscod, 0x0001);
	assert_string_equal(d.e[0].kind, "memory controller");
	assert_int_equal(d.e[0].addr, 0x123456000ull);
	assert_int_equal(d.e[0].misc, 0x86);
	assert_int_equal(d.e[1].bank, 12);
	assert_true(d.e[1].uc && d.e[1].pcc && d.e[1].addrv);
	assert_false(d.e[1].miscv);
	assert_string_equal(d.e[1].kind, "cache hierarchy");
	assert_int_equal(d.e[1].addr, 0x7fff0000ull);
	/* the same entries again: nothing new */
	mca_delta(&b, &b, &d);
	assert_int_equal(d.n_new, 0);
}

static void mca_amd_banks_and_limits(void **state)
{
	(void)state;
	x86_cpu("AuthenticAMD", 0x4080);
	hw_model_reg(&m, HWM_MSR, 0x179, HWM_READONLY, 0x117);        /* Count 0x17 = 23 banks */
	for (uint32_t i = 0; i < 23; i++)
		hw_model_reg(&m, HWM_MSR, 0x401 + 4 * i, HWM_PLAIN, 0);
	struct hw hw = hw_model_hw(&m);
	struct mca_snap a, b;
	struct mca_delta d;
	mca_snapshot(&hw, &a);
	assert_int_equal(a.nbanks, 23);
	/* bank 22 (STATUS at 459H): corrected, ErrorCode 0x0e0b (I/O) */
	hw_model_find(&m, HWM_MSR, 0x459)->value = 0x9000000000000e0bull;
	mca_snapshot(&hw, &b);
	mca_delta(&a, &b, &d);
	assert_int_equal(d.n_new, 1);
	assert_int_equal(d.e[0].bank, 22);
	assert_string_equal(d.e[0].kind, "I/O");
	/* a STATUS read that faults: that bank reads as nothing, the others are kept */
	m.fail_at = 0;
	m.naccess = 0;
	mca_snapshot(&hw, &b);
	uint32_t clean = m.naccess;
	for (uint32_t k = 1; k <= clean; k++) {
		m.naccess = 0;
		m.fail_at = k;
		mca_snapshot(&hw, &b);
		mca_delta(&a, &b, &d);
		if (k == 1)
			assert_string_equal(b.why, "IA32_MCG_CAP read faulted");
		else if (k == clean)   /* the last STATUS read is bank 22's */
			assert_int_equal(d.n_new, 0);
		else
			assert_int_equal(d.n_new, 1);
	}
	m.fail_at = 0;
	/* more banks than the legacy range holds: 32 read */
	hw_model_find(&m, HWM_MSR, 0x179)->value = 0x40;
	mca_snapshot(&hw, &b);
	assert_int_equal(b.count, 64);
	assert_int_equal(b.nbanks, 32);
	/* no MCA in CPUID */
	x86_cpu("AuthenticAMD", 0x0080);
	hw = hw_model_hw(&m);
	mca_snapshot(&hw, &b);
	assert_string_equal(b.why, "CPUID.01H:EDX MCE[7] or MCA[14] is 0: no machine-check architecture");
}

static void mca_error_code_classes(void **state)
{
	(void)state;
	/* SDM Vol.3B Table 16-7 (simple) and 16-8 (compound) */
	assert_string_equal(mca_code_kind(0x0000), "no error");
	assert_string_equal(mca_code_kind(0x0001), "unclassified");
	assert_string_equal(mca_code_kind(0x0002), "microcode ROM parity");
	assert_string_equal(mca_code_kind(0x0003), "external");
	assert_string_equal(mca_code_kind(0x0004), "FRC");
	assert_string_equal(mca_code_kind(0x0005), "internal parity");
	assert_string_equal(mca_code_kind(0x0006), "SMM handler code access violation");
	assert_string_equal(mca_code_kind(0x0400), "internal timer");
	assert_string_equal(mca_code_kind(0x0E0B), "I/O");
	assert_string_equal(mca_code_kind(0x0401), "internal unclassified");
	assert_string_equal(mca_code_kind(0x07FF), "internal unclassified");
	assert_string_equal(mca_code_kind(0x000E), "generic cache hierarchy");  /* 0000 0000 0000 1110 */
	assert_string_equal(mca_code_kind(0x0015), "TLB");                      /* 0000 0000 0001 0101 */
	assert_string_equal(mca_code_kind(0x009F), "memory controller");        /* 0000 0000 1001 1111 */
	assert_string_equal(mca_code_kind(0x109F), "memory controller");        /* filter bit F set */
	assert_string_equal(mca_code_kind(0x0165), "cache hierarchy");          /* 0000 0001 0110 0101 */
	assert_string_equal(mca_code_kind(0x0E0F), "bus and interconnect");     /* 0000 1110 0000 1111 */
	assert_string_equal(mca_code_kind(0x2000), "unknown");
	struct mca_entry e;
	mca_decode(0xFE00000000000000ull, &e);
	assert_true(e.uc && e.over && e.en && e.miscv && e.addrv && e.pcc);
	assert_false(e.s || e.ar);
	mca_decode(0x8180000000000000ull, &e);   /* VAL S AR */
	assert_true(e.s && e.ar);
}

/* ---- energy, frequency, thermal ------------------------------------------------------------- */

static void rapl_wrap_and_units(void **state)
{
	(void)state;
	assert_int_equal(rapl_delta(0xFFFFFF00u, 0x00000100u), 0x200);
	assert_int_equal(rapl_delta(0x10u, 0x10u), 0);
	assert_int_equal(rapl_delta(0x10u, 0x0Fu), 0xFFFFFFFFull);
	/* ESU 14: 1/16384 J per count; 0x200 counts = 1/32 J */
	assert_int_equal(rapl_microjoules(0x200, 14), 31250);
	/* ESU 16 (AMD Zen): 0x10000 counts = 1 J */
	assert_int_equal(rapl_microjoules(0x10000, 16), 1000000);
	x86_cpu("GenuineIntel", 0x4080);
	hw_model_reg(&m, HWM_MSR, 0x606, HWM_READONLY, 0x000A0E03);   /* ESU [12:8] = 0x0E */
	hw_model_reg(&m, HWM_MSR, 0x611, HWM_READONLY, 0xFFFFFF00);
	struct hw hw = hw_model_hw(&m);
	struct energy_snap s;
	energy_snapshot(&hw, &s);
	assert_null(s.why);
	assert_int_equal(s.esu, 14);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.d[0].name, "package");
	assert_int_equal(s.d[0].raw, 0xFFFFFF00u);
	assert_null(s.d[0].why);
	assert_string_equal(s.d[1].name, "dram");
	assert_string_equal(s.d[1].why, "its energy-status MSR read faulted");   /* 619H absent */
	/* TCG: the unit reads 0 */
	hw_model_find(&m, HWM_MSR, 0x606)->value = 0;
	energy_snapshot(&hw, &s);
	assert_string_equal(s.why, "the RAPL power-unit MSR reads 0 (not implemented: a hypervisor or emulator)");
	/* AMD: CPUID Fn8000_0007_EDX[14] */
	x86_cpu("AuthenticAMD", 0x4080);
	hw_model_cpuid(&m, 0x80000007, 0, 0, 0, 0, 0);
	hw_model_reg(&m, HWM_MSR, 0xC0010299, HWM_READONLY, 0x000A1003);
	hw_model_reg(&m, HWM_MSR, 0xC001029B, HWM_READONLY, 0x1234);
	hw_model_reg(&m, HWM_MSR, 0xC001029A, HWM_READONLY, 0x99);
	hw = hw_model_hw(&m);
	energy_snapshot(&hw, &s);
	assert_string_equal(s.why, "CPUID Fn8000_0007_EDX[14] RAPL is 0");
	hw_model_cpuid(&m, 0x80000007, 0, 0, 0, 0, 1u << 14);
	energy_snapshot(&hw, &s);
	assert_null(s.why);
	assert_int_equal(s.esu, 16);
	assert_int_equal(s.d[0].raw, 0x1234);
	assert_string_equal(s.d[1].name, "core");
	assert_int_equal(s.d[1].raw, 0x99);
}

static void aperf_mperf_and_thermal(void **state)
{
	(void)state;
	x86_cpu("GenuineIntel", 0x4080);
	hw_model_cpuid(&m, 6, 0, 0x41, 0, 1, 0);   /* EAX DTS [0] PTM [6]; ECX APERF/MPERF [0] */
	struct hw_model_reg *mp = hw_model_reg(&m, HWM_MSR, 0xE7, HWM_COUNTER, 0);
	struct hw_model_reg *ap = hw_model_reg(&m, HWM_MSR, 0xE8, HWM_COUNTER, 0);
	mp->step = 2000;
	ap->step = 3100;
	struct hw_model_reg *th = hw_model_reg(&m, HWM_MSR, 0x19C, HWM_READONLY, 0x88450000);
	struct hw_model_reg *pk = hw_model_reg(&m, HWM_MSR, 0x1B1, HWM_READONLY, 0x88400000);
	struct hw hw = hw_model_hw(&m);
	struct freq_snap f0, f1;
	freq_snapshot(&hw, &f0);
	hw_model_tick(&m, 10);
	freq_snapshot(&hw, &f1);
	assert_null(f1.why);
	assert_int_equal(freq_ratio_milli(&f0, &f1), 1550);   /* 31000 / 20000 */
	struct therm_snap t0, t1;
	therm_snapshot(&hw, &t0);
	assert_null(t0.why);
	assert_null(t0.pkg_why);
	t1 = t0;
	assert_false(therm_throttled(&t0, &t1));
	pk->value = 0x88400002;                     /* package log bit set during the window */
	therm_snapshot(&hw, &t1);
	assert_true(therm_throttled(&t0, &t1));
	pk->value = 0x88400002;
	therm_snapshot(&hw, &t0);                   /* log already set before: not this window's */
	assert_false(therm_throttled(&t0, &t1));
	th->value = 0x88450001;                     /* core throttling now */
	therm_snapshot(&hw, &t1);
	assert_true(therm_throttled(&t0, &t1));
	/* CPUID says none */
	hw_model_cpuid(&m, 6, 0, 0, 0, 0, 0);
	freq_snapshot(&hw, &f1);
	assert_string_equal(f1.why, "CPUID.06H:ECX[0] is 0: no IA32_APERF/IA32_MPERF");
	therm_snapshot(&hw, &t1);
	assert_string_equal(t1.why, "CPUID.06H:EAX[0] is 0: no IA32_THERM_STATUS");
	assert_false(therm_throttled(&t0, &t1));
}

static void not_x86(void **state)
{
	(void)state;
	static const struct hw_ops none = { .name = "aarch64-like" };
	struct hw hw = { &none, NULL };
	struct mca_snap s;
	struct energy_snap e;
	struct freq_snap f;
	struct therm_snap t;
	mca_snapshot(&hw, &s);
	energy_snapshot(&hw, &e);
	freq_snapshot(&hw, &f);
	therm_snapshot(&hw, &t);
	assert_non_null(strstr(s.why, "AEST"));
	assert_non_null(strstr(e.why, "no architectural energy counter"));
	assert_non_null(strstr(f.why, "AMU"));
	assert_non_null(t.why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcie_names_and_delta),
		cmocka_unit_test(pcie_clear_writes_found_bits),
		cmocka_unit_test(pcie_fault_at_every_read),
		cmocka_unit_test(pcie_no_aer),
		cmocka_unit_test(mca_intel_banks),
		cmocka_unit_test(mca_amd_banks_and_limits),
		cmocka_unit_test(mca_error_code_classes),
		cmocka_unit_test(rapl_wrap_and_units),
		cmocka_unit_test(aperf_mperf_and_thermal),
		cmocka_unit_test(not_x86),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
