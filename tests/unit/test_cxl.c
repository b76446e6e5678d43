/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL function reading (efi/pcie/cxl_*.c) on the register model of a Type 3 device
 * (tests/model/cxl_model.c, laid out as QEMU 7.2 lays out its cxl-type3). Expected values are
 * the literals the model was given from the CXL 3.1 tables. Bad input: a Register Locator
 * block past its BAR, a register window over system RAM, a committed decoder over system RAM,
 * a doorbell that never clears, a failing return code, and a fault injected at every MMIO
 * access: each is named and the probe returns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/pcie/cxl.h"
#include "efi/verdict/check.h"
#include "efi/out/cxl_json.h"
#include "tests/model/cxl_model.h"

static struct cxl_model m;
static struct cxl_func c;
static struct pcie_func pf;
static struct hw hw;
static const struct hw_pci_addr dev = { 0, CXLM_BDF_BUS, 0, 0 };

static struct cxl_env env_of(const struct memrange *ram, int nram)
{
	hw = cxl_model_hw(&m);
	return (struct cxl_env){ .hw = &hw, .ram = ram, .nram = nram, .now = cxl_model_now, .arg = &m, .hz = 1000 };
}

static void probe(const struct memrange *ram, int nram)
{
	struct cxl_env env = env_of(ram, nram);
	assert_int_equal(pcie_probe_func(&hw, dev, &pf), HW_OK);
	cxl_probe(&env, &pf, &c);
}

static void test_reads_model(void **state)
{
	(void)state;
	cxl_model_init(&m);
	m.event_count[1] = 3;              /* warning log: 3 records, 2 per answer, More set */
	uint8_t cfg[PCI_MODEL_CFG_SIZE];
	memcpy(cfg, m.f->cfg, sizeof(cfg));
	static const struct memrange ram[] = { { 0, 0x80000000ull } };
	probe(ram, 1);
	assert_true(cxl_is_cxl(&pf));
	assert_int_equal(c.ndefects, 0);
	assert_true(c.dev.present && c.dev.mem_capable);
	assert_int_equal(c.dev.hdm_count, 1);
	assert_int_equal(c.dev.range[0].size, 256ull << 20);
	assert_true(c.dev.range[0].valid && c.dev.range[0].active);
	assert_int_equal(c.nblocks, 3);
	assert_int_equal(c.block[0].id, 1);
	assert_int_equal(c.block[0].bir, 0);
	assert_int_equal(c.block[0].addr, 0xC1200000ull);
	assert_int_equal(c.block[0].bar_size, 0x10000);
	assert_int_equal(c.block[1].id, 3);
	assert_int_equal(c.block[1].bir, 2);
	assert_int_equal(c.block[1].addr, 0xC1210000ull);
	assert_int_equal(c.block[2].id, 4);
	assert_int_equal(c.block[2].bir, 4);
	/* the CPMU block: probed read-only (4 counters of 48 bits, 5 event groups) */
	assert_int_equal(c.ncpmu, 1);
	assert_true(c.cpmu[0].ok);
	assert_int_equal(c.cpmu[0].pmu.ncounters, 4);
	assert_int_equal(c.cpmu[0].pmu.width, 48);
	assert_int_equal(c.cpmu[0].pmu.nevcaps, 5);
	assert_int_equal(m.cpmu.writes, 0);
	/* the console block: the function, its decoder, memdev, health, the CPMU */
	char line[256];
	const char *want[] = {
		"  0000:0d:00.0 device  Mem_Capable  blocks: component@BAR0+0x0 memdev@BAR2+0x0 cpmu@BAR4+0x0",
		"    decoder 0: 0x0 + 0x0, 1 way(s) x 256 B, not committed",
		"    memdev: 256 MiB total (volatile-only 0x0), FW 'BWFW VERSION 00', LSA 268435456 B, media ready",
		"    health: life used 7%, 38 C, corrected errors 2 volatile 5 persistent; events 0/2/0/0",
		"    cpmu at 0xc1220000: 4 counters x 48 bits, 5 event groups, filters 0x1",
	};
	for (int l = 0; l < 5; l++) {
		assert_int_equal(cxl_func_line(&c, 1, l, line, sizeof(line)), 1);
		assert_string_equal(line, want[l]);
	}
	assert_int_equal(cxl_func_line(&c, 1, 5, line, sizeof(line)), 0);
	/* component: three capabilities (RAS at 0x80, link at 0xd8, HDM at 0x110), one decoder */
	assert_true(c.comp.present);
	assert_int_equal(c.comp.ncaps, 3);
	assert_int_equal(c.comp.caps[2].id, 5);
	assert_int_equal(c.comp.caps[2].offset, 0x110);
	assert_true(c.comp.hdm.present);
	assert_int_equal(c.comp.hdm.count, 1);
	assert_int_equal(c.comp.hdm.targets, 1);
	assert_false(c.comp.hdm.dec[0].committed);
	assert_true(c.comp.ras.present);
	assert_int_equal(c.comp.ras.ue_mask, 0x1cfff);
	assert_int_equal(c.comp.ras.ce_mask, 0x7f);
	assert_true(c.comp.link.present);
	/* device registers and the mailbox */
	const struct cxl_devregs *d = &c.devregs;
	assert_true(d->present && d->has_memdev && d->has_mbox && d->has_event_status);
	assert_int_equal(d->payload_bytes, 2048);
	assert_true(d->cmd_identify.ok);
	assert_string_equal(d->id.fw_revision, "BWFW VERSION 00");
	assert_int_equal(d->id.total, 256ull << 20);
	assert_int_equal(d->id.persistent_only, 256ull << 20);
	assert_int_equal(d->id.volatile_only, 0);
	assert_int_equal(d->id.lsa_size, 256u << 20);
	assert_true(d->cmd_partition.ok);
	assert_int_equal(d->part.active_persistent, 256ull << 20);
	assert_true(d->cmd_health.ok);
	assert_int_equal(d->health.life_used, 7);
	assert_int_equal(d->health.temperature, 38);
	assert_int_equal(d->health.corrected_volatile, 2);
	assert_int_equal(d->health.corrected_persistent, 5);
	for (int l = 0; l < 4; l++)
		assert_true(d->cmd_events[l].ok);
	assert_int_equal(d->ev[0].count, 0);
	assert_int_equal(d->ev[1].count, 2);
	assert_int_equal(d->ev[1].flags & 2, 2);
	assert_int_equal(d->ev[1].handle[0], 0x20);
	assert_int_equal(d->ev[1].handle[1], 0x21);
	assert_int_equal(d->ev[1].timestamp[1], 1001);
	/* 7 commands, the last Get Event Records; nothing written but the mailbox; config space
	 * as found (the BAR sizing put every BAR back). */
	assert_int_equal(m.commands, 7);
	assert_int_equal(m.last_opcode, 0x0100);
	assert_int_equal(m.comp_writes, 0);
	assert_int_equal(m.dev_writes_outside_mbox, 0);
	assert_true(m.mbox_writes > 0);
	assert_memory_equal(cfg, m.f->cfg, sizeof(cfg));
}

static void test_doorbell_never_clears(void **state)
{
	(void)state;
	cxl_model_init(&m);
	m.mbox_stuck = 1;
	probe(NULL, 0);
	assert_string_equal(c.devregs.cmd_identify.why, "doorbell still set after 2000 ms");
	assert_false(c.devregs.cmd_identify.ok);
	/* the doorbell stays set: every later command finds the mailbox busy, and is not sent */
	assert_string_equal(c.devregs.cmd_health.why, "mailbox busy: doorbell already set");
	assert_string_equal(c.devregs.cmd_events[3].why, "mailbox busy: doorbell already set");
	assert_int_equal(m.commands, 1);
	/* bounded by the 2 s of 8.2.8.4 on the 1000 Hz model clock */
	assert_true(m.ticks > 2000 && m.ticks < 2100);
}

static void test_return_code(void **state)
{
	(void)state;
	cxl_model_init(&m);
	m.mbox_rc = 0x6;
	probe(NULL, 0);
	assert_string_equal(c.devregs.cmd_identify.why, "return code 0x6 (Busy)");
	assert_int_equal(c.devregs.cmd_identify.rc, 6);
	assert_int_equal(m.commands, 7);
	assert_string_equal(cxl_rc_name(0x15), "Unsupported Mailbox or CCI");
	assert_null(cxl_rc_name(0x17));
}

static void test_mailbox_not_ready(void **state)
{
	(void)state;
	cxl_model_init(&m);
	m.dev[0x8a8 / 4] = 0x04;            /* media ready, Mailbox Interfaces Ready clear */
	probe(NULL, 0);
	assert_string_equal(c.devregs.cmd_identify.why, "not sent: Mailbox Interfaces Ready is clear");
	assert_int_equal(m.commands, 0);
	assert_int_equal(m.mbox_writes, 0);
}

static void test_regloc_past_bar(void **state)
{
	(void)state;
	cxl_model_init(&m);
	pci_model_w32(m.f, 0x140 + 0x14, 0x00010302);   /* memdev block at BAR 2 + 64 KiB, BAR is 4 KiB */
	probe(NULL, 0);
	assert_string_equal(c.block[1].defect, "offset 0x10000 + 0x1000 runs past BAR 2 (0x1000 bytes)");
	assert_int_equal(c.block[1].addr, 0);
	assert_false(c.devregs.present);
	assert_true(c.comp.present);           /* the other block is still read */
	assert_int_equal(m.commands, 0);
}

static void test_window_over_ram(void **state)
{
	(void)state;
	cxl_model_init(&m);
	static const struct memrange ram[] = { { 0xC1200000ull, 0xC1201000ull } };
	probe(ram, 1);
	assert_string_equal(c.block[0].defect, "0xc1200000+0x10000 overlaps system RAM at 0xc1200000");
	assert_false(c.comp.present);
	assert_true(c.devregs.present);
}

static void test_decoder_over_ram(void **state)
{
	(void)state;
	cxl_model_init(&m);
	/* 8.2.4.20.5-7: decoder 0 at 0x40000000, 256 MiB, IW 0, IG 0, Committed. */
	m.comp[(0x1000 + 0x110 + 0x10) / 4] = 0x40000000;
	m.comp[(0x1000 + 0x110 + 0x18) / 4] = 0x10000000;
	m.comp[(0x1000 + 0x110 + 0x20) / 4] = 1u << 10;
	static const struct memrange ram[] = { { 0, 0x80000000ull } };
	probe(ram, 1);
	assert_true(c.comp.hdm.dec[0].committed);
	assert_int_equal(c.comp.hdm.dec[0].base, 0x40000000);
	assert_int_equal(c.comp.hdm.dec[0].size, 0x10000000);
	assert_string_equal(c.comp.hdm.dec[0].overlap,
			    "committed range 0x40000000+0x10000000 overlaps system RAM at 0x0");
	assert_int_equal(c.ndefects, 1);
	assert_string_equal(c.defects[0], "HDM decoder 0: committed range 0x40000000+0x10000000 overlaps system RAM at 0x0");
}

/* A fault at every MMIO access of a clean run: the probe returns and names what it could not
 * read (a defect, a block's read error, a command's why, or the CPMU's why). */
static void test_fault_every_access(void **state)
{
	(void)state;
	cxl_model_init(&m);
	probe(NULL, 0);
	uint64_t total = m.accesses;
	assert_true(total > 50);
	for (uint64_t k = 1; k <= total; k++) {
		cxl_model_init(&m);
		m.fault_at = k;
		probe(NULL, 0);
		const struct cxl_devregs *d = &c.devregs;
		int named = c.ndefects > 0 || c.comp.st != HW_OK || d->st != HW_OK;
		const struct cxl_mbox_result *r[] = { &d->cmd_identify, &d->cmd_partition, &d->cmd_health, &d->cmd_events[0],
						      &d->cmd_events[1], &d->cmd_events[2], &d->cmd_events[3] };
		for (unsigned i = 0; i < sizeof(r) / sizeof(r[0]); i++)
			named |= r[i]->why[0] != 0;
		for (int i = 0; i < c.ncpmu; i++)
			named |= !c.cpmu[i].ok && c.cpmu[i].pmu.why[0] != 0;
		if (!named)
			fail_msg("fault at MMIO access %llu of %llu was not named", (unsigned long long)k,
				 (unsigned long long)total);
	}
}

/* CXL 3.1 8.2.4.20.1 Decoder Count encodings, literals. */
static void test_decoder_count(void **state)
{
	(void)state;
	static const uint32_t want[16] = { 1, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 0, 0, 0 };
	for (uint32_t e = 0; e < 16; e++)
		assert_int_equal(cxl_hdm_decoder_count(e), want[e]);
	assert_string_equal(cxl_block_name(4), "cpmu");
	assert_null(cxl_block_name(5));
}

/* Checks name CXL records by bus/device/function, host bridges by _UID. */
static void test_check_paths(void **state)
{
	(void)state;
	assert_string_equal(check_selector_key("cxl"), "bdf");
	assert_string_equal(check_selector_key("cxl_host_bridge"), "uid");
	assert_true(check_selector_match("cxl", "0d:00.0", "0000:0d:00.0", 12));
	assert_false(check_selector_match("cxl", "0d:00.1", "0000:0d:00.0", 12));
	struct check k;
	char msg[160];
	const char *a = "cxl[0000:0d:00.0].health.life_used_pct <= 80";
	assert_int_equal(check_parse(a, strlen(a), &k, msg, sizeof(msg)), 0);
	assert_string_equal(k.type, "cxl");
	assert_string_equal(k.sel, "0000:0d:00.0");
	assert_string_equal(k.field, "health.life_used_pct");
	const char *b = "cxl[*].ras.correctable == 0";
	assert_int_equal(check_parse(b, strlen(b), &k, msg, sizeof(msg)), 0);
	assert_string_equal(k.sel, "*");
	assert_string_equal(k.field, "ras.correctable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_model),
		cmocka_unit_test(test_doorbell_never_clears),
		cmocka_unit_test(test_return_code),
		cmocka_unit_test(test_mailbox_not_ready),
		cmocka_unit_test(test_regloc_past_bar),
		cmocka_unit_test(test_window_over_ram),
		cmocka_unit_test(test_decoder_over_ram),
		cmocka_unit_test(test_fault_every_access),
		cmocka_unit_test(test_decoder_count),
		cmocka_unit_test(test_check_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
