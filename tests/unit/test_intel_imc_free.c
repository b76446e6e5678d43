/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel IMC free-running DDR counters (pmu/uncore/intel_imc_free.c) on the register model
 * (tests/model/intel_uncore_model.c): the table against literal values typed from Linux
 * arch/x86/events/intel/uncore_snbep.c, the reader's exact bytes for scripted traffic (with a
 * wrap across the 48-bit width), a faulting MMIO read reported with a why while the
 * programmable IMC counters still count, and no register written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/intel_uncore_model.h"
#include "tests/unit/json_check.h"
#include "pmu/uncore/intel_imc_free.h"
#include "efi/out/uncore_json.h"

static struct intel_uncore_model u;
static struct hw h;
static struct intel_pci_fn fns[256];
static struct intel_imc_block blk[INTEL_IMC_MAX_BLOCKS];
static uint32_t nblk;
static struct imc_free_run run;

/* The oracle: literal values from Linux arch/x86/events/intel/uncore_snbep.c.
 *   icx_imc_freerunning[]: [ICX_IMC_DCLK] = { 0x22b0, 0x0, 0, 1, 48 },
 *                          [ICX_IMC_DDR]  = { 0x2290, 0x8, 0, 2, 48 }
 *   icx_uncore_imc_free_running: .num_boxes = 4, .mmio_map_size = SNR_IMC_MMIO_SIZE (0x4000)
 *   icx_uncore_imc_freerunning_events: read.scale / write.scale "6.103515625e-5", unit "MiB"
 *   spr_imc_freerunning[]: [SPR_IMC_DCLK] = { 0x22b0, 0x0, 0, 1, 48 },
 *                          [SPR_IMC_PQ_CYCLES] = { 0x2318, 0x8, 0, 2, 48 } (rpq_cycles, wpq_cycles:
 *                          no scale, not bytes) */
static void test_layout_oracle(void **state)
{
	(void)state;
	const struct imc_free_layout *icx = imc_free_layout_for("ICX");
	assert_non_null(icx);
	assert_int_equal(icx->dclk_off, 0x22b0);
	assert_int_equal(icx->ddr_off, 0x2290);                 /* read */
	assert_int_equal(icx->ddr_off + icx->ddr_step, 0x2298);  /* write: counter_offset 0x8 */
	assert_int_equal(icx->ddr_counters, 2);
	assert_int_equal(icx->width, 48);
	assert_int_equal(icx->nboxes, 4);
	assert_int_equal(icx->box_stride, 0);                   /* box_offset 0 */
	assert_int_equal(icx->map_size, 0x4000);
	double mib = 6.103515625e-5;                            /* the scale as Linux writes it */
	assert_true(mib * 1024 * 1024 == (double)icx->bytes_per_count);
	assert_int_equal(icx->bytes_per_count, 64);
	assert_null(icx->why);
	for (const char *const *p = (const char *const[]){ "SPR", "EMR", NULL }; *p; p++) {
		const struct imc_free_layout *l = imc_free_layout_for(*p);
		assert_non_null(l);
		assert_int_equal(l->dclk_off, 0x22b0);
		assert_int_equal(l->ddr_off, 0x2318);
		assert_int_equal(l->ddr_step, 0x8);
		assert_int_equal(l->width, 48);
		assert_int_equal(l->bytes_per_count, 0);
		assert_non_null(strstr(l->why, "no DDR bytes"));
	}
	for (const char *const *p = (const char *const[]){ "SKX", "GNR", NULL }; *p; p++) {
		const struct imc_free_layout *l = imc_free_layout_for(*p);
		assert_non_null(l);
		assert_int_equal(l->bytes_per_count, 0);
		assert_non_null(l->why);
	}
	assert_null(imc_free_layout_for("CLX?"));
}

static void test_delta_wraps(void **state)
{
	(void)state;
	assert_int_equal(imc_free_delta(10, 25, 48), 15);
	assert_int_equal(imc_free_delta(0xFFFFFFFFFFFFull, 0, 48), 1);
	assert_int_equal(imc_free_delta(0xFFFFFFFFFF00ull, 0x100, 48), 0x200);
	/* bits above the width (a reader that returned them) do not leak into the delta */
	assert_int_equal(imc_free_delta(0xABCD000000000005ull, 0x0000000000000009ull, 48), 4);
}

static const uint32_t mem[4] = { 0x1, 0x2, 0, 0x4 };     /* IMC 2 not populated */

/* ICX model: memory-controller 8086:3451 at 7E:00.1, base 0x1FC << 23 = 0xFE000000 */
static void icx(void)
{
	iu_model_init(&u, IU_ICX);
	iu_model_icx_mc(&u, 0x7E, 0x1FC, mem);
	h = iu_model_hw(&u);
	char why[160] = "";
	uint32_t nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	if (intel_imc_blocks(&h, intel_uncore_platform_by_name("ICX"), fns, nfns, blk, INTEL_IMC_MAX_BLOCKS, &nblk,
			     why, sizeof(why)))
		fail_msg("blocks: %s", why);
}

static void test_blocks(void **state)
{
	(void)state;
	icx();
	assert_int_equal(nblk, 3);
	/* 0xFE000000 | (MEMm & 0x7FF) << 12 */
	assert_int_equal(blk[0].base, 0xFE001000);
	assert_int_equal(blk[1].base, 0xFE002000);
	assert_int_equal(blk[2].base, 0xFE004000);
	assert_int_equal(blk[2].imc, 3);
	assert_int_equal(blk[0].socket, 0);
}

static void test_exact_bytes(void **state)
{
	(void)state;
	icx();
	iu_model_add(&u, (struct iu_traffic){ IU_IMC_FREE, 0, 0, 0, 0, IU_FREE_READ, 7 });
	iu_model_add(&u, (struct iu_traffic){ IU_IMC_FREE, 0, 0, 0, 0, IU_FREE_WRITE, 3 });
	iu_model_add(&u, (struct iu_traffic){ IU_IMC_FREE, 0, 2, 0, 0, IU_FREE_READ, 11 });
	/* before the window: counters already running (the reader takes deltas) */
	hw_model_tick(&u.m, 5);
	assert_int_equal(imc_free_start(&h, "ICX", imc_free_layout_for("ICX"), blk, nblk, &run), 0);
	hw_model_tick(&u.m, 100);
	assert_int_equal(imc_free_stop(&h, &run), 0);
	assert_true(run.valid);
	assert_false(run.faulted);
	assert_int_equal(run.read_counts[0], 700);
	assert_int_equal(run.read_bytes[0], 700 * 64);
	assert_int_equal(run.write_bytes[0], 300 * 64);
	assert_int_equal(run.read_bytes[1], 0);
	assert_int_equal(run.write_bytes[1], 0);
	assert_int_equal(run.read_bytes[2], 1100 * 64);
	uint64_t rd, wr;
	imc_free_socket_bytes(&run, 0, &rd, &wr);
	assert_int_equal(rd, 1800 * 64);
	assert_int_equal(wr, 300 * 64);
	imc_free_socket_bytes(&run, 1, &rd, &wr);
	assert_int_equal(rd + wr, 0);
	assert_int_equal(u.free_writes, 0);

	/* the record's object: socket 0, programmable counters gave twice the bytes, the copy 4x */
	char buf[2048];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	uncore_free_running_json(&run, 0, 2 * 2100 * 64, 4 * 2100 * 64, &j);
	json_end(&j);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "\"free_running\":{\"read_bytes\":115200,\"write_bytes\":19200,\"imcs\":["
				    "{\"imc\":0,\"read_bytes\":44800,\"write_bytes\":19200},"
				    "{\"imc\":1,\"read_bytes\":0,\"write_bytes\":0},"
				    "{\"imc\":3,\"read_bytes\":70400,\"write_bytes\":0}]"));
	assert_non_null(strstr(buf, "\"programmable_bytes\":268800,\"ratio_to_programmable\":0.500,"));
	assert_non_null(strstr(buf, "\"self_check\":0.250}"));
	assert_non_null(strstr(buf, "icx_imc_freerunning"));
	/* no programmable bytes: the ratio says why */
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	uncore_free_running_json(&run, 0, 0, 0, &j);
	json_end(&j);
	assert_null(strstr(buf, "ratio_to_programmable"));
	assert_null(strstr(buf, "self_check"));
	assert_non_null(strstr(buf, "\"ratio_why\":"));
}

static void test_wrap_across_width(void **state)
{
	(void)state;
	icx();
	/* IMC 0's DDR read counter 100 counts below 2^48, IMC 3's write counter 1 below */
	iu_model_mmio(&u, 0xFE001000 + 0x2290)->value = 0xFFFFFFFFFF9Cull;
	iu_model_mmio(&u, 0xFE004000 + 0x2298)->value = 0xFFFFFFFFFFFFull;
	iu_model_add(&u, (struct iu_traffic){ IU_IMC_FREE, 0, 0, 0, 0, IU_FREE_READ, 3 });
	iu_model_add(&u, (struct iu_traffic){ IU_IMC_FREE, 0, 2, 0, 0, IU_FREE_WRITE, 5 });
	assert_int_equal(imc_free_start(&h, "ICX", imc_free_layout_for("ICX"), blk, nblk, &run), 0);
	hw_model_tick(&u.m, 100);
	assert_int_equal(iu_model_mmio(&u, 0xFE001000 + 0x2290)->value, 200);   /* it wrapped */
	assert_int_equal(imc_free_stop(&h, &run), 0);
	assert_int_equal(run.read_bytes[0], 300 * 64);
	assert_int_equal(run.write_bytes[2], 500 * 64);
}

static void test_no_byte_counters(void **state)
{
	(void)state;
	icx();
	assert_int_equal(imc_free_start(&h, "SKX", imc_free_layout_for("SKX"), blk, nblk, &run), -1);
	assert_false(run.valid);
	assert_false(run.faulted);
	assert_non_null(strstr(run.why, "SKX"));
	assert_int_equal(imc_free_start(&h, "SPR", imc_free_layout_for("SPR"), blk, nblk, &run), -1);
	assert_non_null(strstr(run.why, "no DDR bytes"));
	assert_int_equal(imc_free_start(&h, "XYZ", NULL, blk, nblk, &run), -1);
	assert_non_null(strstr(run.why, "XYZ"));
	assert_int_equal(imc_free_start(&h, "ICX", imc_free_layout_for("ICX"), blk, 0, &run), -1);
	assert_non_null(strstr(run.why, "no IMC MMIO block"));
	assert_int_equal(imc_free_stop(&h, &run), -1);
	assert_false(run.valid);
}

/* The ICX IMC programmable counters on the same model: CAS_COUNT.RD scripted on channel 0. */
static uint64_t prog_window(void *arg, uint32_t slice, uint32_t nslices)
{
	(void)arg;
	(void)slice;
	(void)nslices;
	hw_model_tick(&u.m, 100);
	return 1000;
}

static void programmable_counts(void)
{
	static struct intel_unit units[32];
	static struct unc_request req;
	static struct unc_result res;
	uint32_t nunits = 0, cpu[1] = { 0 };
	char why[160] = "";
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("ICX");
	uint32_t nfns = intel_pci_scan(&h, 0, 0, 0xFF, fns, 256);
	assert_int_equal(intel_imc_find(&h, p, fns, nfns, units, 32, &nunits, why, sizeof(why)), 0);
	assert_int_equal(intel_uncore_request(p, INTEL_BOX_IMC, units, 1, cpu, "CAS_COUNT.RD", &req, why, sizeof(why)), 0);
	assert_int_equal(unc_measure(&h, &req, prog_window, NULL, &res), 0);
	assert_int_equal(res.raw[0][0], 900);
}

static void test_fault_reported_run_goes_on(void **state)
{
	(void)state;
	/* at start: the first box's write counter (second MMIO read) */
	icx();
	iu_model_add(&u, (struct iu_traffic){ IU_IMC, 0, 0, 0, 0x04, 0x0F, 9 });
	u.m.fail_at = u.m.naccess + 2;
	assert_int_equal(imc_free_start(&h, "ICX", imc_free_layout_for("ICX"), blk, nblk, &run), -1);
	assert_false(run.valid);
	assert_true(run.faulted);
	assert_non_null(strstr(run.why, "0xfe003298"));
	assert_non_null(strstr(run.why, "DDR write"));
	assert_non_null(strstr(run.why, "read failed"));
	char keep[200], buf[512];
	strcpy(keep, run.why);
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	uncore_free_running_json(&run, 0, 1, 1, &j);
	json_end(&j);
	assert_true(json_check_object(buf, sb.len));
	assert_non_null(strstr(buf, "{\"free_running\":{\"why\":\"ICX IMC free-running DDR write counter of socket 0 IMC 0 "
				    "at MMIO 0xfe003298: read failed"));
	assert_int_equal(imc_free_stop(&h, &run), -1);          /* nothing read, the why kept */
	assert_string_equal(run.why, keep);
	programmable_counts();                                    /* the run goes on */

	/* at stop: IMC 3's read counter (the fifth read of stop) */
	icx();
	assert_int_equal(imc_free_start(&h, "ICX", imc_free_layout_for("ICX"), blk, nblk, &run), 0);
	u.m.fail_at = u.m.naccess + 5;
	assert_int_equal(imc_free_stop(&h, &run), -1);
	assert_false(run.valid);
	assert_true(run.faulted);
	assert_non_null(strstr(run.why, "0xfe006290"));
	assert_non_null(strstr(run.why, "IMC 3"));
	assert_int_equal(u.free_writes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_oracle),
		cmocka_unit_test(test_delta_wraps),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_exact_bytes),
		cmocka_unit_test(test_wrap_across_width),
		cmocka_unit_test(test_no_byte_counters),
		cmocka_unit_test(test_fault_reported_run_goes_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
