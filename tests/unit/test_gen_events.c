/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generated Intel event catalogue (pmu/events/gen_events.h) through the config paths: a
 * perfmon name the hand tables lack is accepted as cha/NAME/, NAME (with or without its UNC_
 * prefix) and with perf-style modifiers after it, and encodes to the values in Intel's file
 * (written out here from icelakex_uncore.json v1.30 and sapphirerapids_uncore_experimental.json
 * v1.39); the decoder stops cleanly on a cut stream. Every row against every vendor file:
 * tests/tools/test_gen_events.py.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/events/gen_events.h"
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/intel_cha_regs.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/uncore_names.h"

static void test_every_row_decodes(void **state)
{
	(void)state;
	for (int u = 0; u < GEN_INTEL_NUNIT; u++) {
		struct gen_iter it;
		struct gen_row r;
		unsigned n = 0;
		gen_iter_start(&it, &gen_intel_units[u]);
		while (gen_iter_next(&it, &r)) {
			assert_true(r.plats != 0);
			assert_true(r.plats < (1u << GEN_INTEL_NPLAT));
			assert_true(strlen(r.name) > 4);
			n++;
		}
		assert_int_equal(n, gen_intel_units[u].nrows);
		assert_int_equal(it.pos, gen_intel_units[u].nbits);   /* the last row ends the stream */
	}
	assert_int_equal(strlen(gen_intel_commit), 40);
}

static void test_cut_stream_stops(void **state)
{
	(void)state;
	struct gen_unit cut = gen_intel_units[0];
	cut.nbits = 1000;
	struct gen_iter it;
	struct gen_row r;
	unsigned n = 0;
	gen_iter_start(&it, &cut);
	while (gen_iter_next(&it, &r))
		n++;
	assert_true(n > 0 && n < cut.nrows);
	assert_true(it.pos <= 1000);
}

/* ICX UNC_CHA_LLC_LOOKUP.DATA_READ: EventCode 0x34, UMask 0xFF, UMaskExt 0x1BC1 (icelakex_uncore.json
 * v1.30); ICX CHA CTL: enable bit 22, thresh bits 31:24, umask_ext bits 57:32 (Linux
 * uncore_snbep.c icx_uncore_chabox formats). */
static void test_cha_name_forms(void **state)
{
	(void)state;
	const struct cha_platform *p = cha_platform_by_name("ICX");
	assert_non_null(p);
	static const char *const forms[] = { "cha/UNC_CHA_LLC_LOOKUP.DATA_READ/", "cha/LLC_LOOKUP.DATA_READ/",
					     "UNC_CHA_LLC_LOOKUP.DATA_READ" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct cha_encoding x;
		char why[160] = "";
		const char *s = forms[i];
		if (strchr(s, '/') == NULL) {   /* bare: through the request parser, as cha_events gives it */
			struct cha_request req = { .plat = p };
			assert_int_equal(cha_request_events(&req, s, why, sizeof(why)), 0);
			assert_int_equal(req.nevents, 1);
			assert_null(req.ev[0].name);
			assert_string_equal(req.ev[0].spec, "cha/UNC_CHA_LLC_LOOKUP.DATA_READ/");
			x = req.ev[0].enc;
		} else {
			assert_int_equal(cha_encode(p, s, strlen(s), &x, why, sizeof(why)), 0);
		}
		assert_null(x.named);
		assert_int_equal(x.ctl, 0x00001BC10040FF34ull);
	}
	/* a modifier after the name overrides or adds a field, as perf's do: thresh=1 (bits 31:24) */
	struct cha_encoding x;
	char why[160] = "";
	const char *s = "cha/UNC_CHA_LLC_LOOKUP.DATA_READ,thresh=1,umask=0x1/";
	assert_int_equal(cha_encode(p, s, strlen(s), &x, why, sizeof(why)), 0);
	assert_int_equal(x.ctl, 0x00001BC101400134ull);
	/* a name of another platform's file only (SPR's DATA_READ_ALL) is not ICX's */
	s = "cha/UNC_CHA_LLC_LOOKUP.DATA_READ_ALL/";
	assert_int_not_equal(cha_encode(p, s, strlen(s), &x, why, sizeof(why)), 0);
}

/* SPR IIO UNC_IIO_NUM_TGT_MATCHED_REQ_OF_CPU: EventCode 0x8f, UMask 0x00, UMaskExt 0x00070000,
 * PortMask and FCMask 0 (sapphirerapids_uncore_experimental.json v1.39): CTL bits 63:32 =
 * UMaskExt, enable bit 22. SPR IIO UNC_IIO_COMP_BUF_OCCUPANCY.CMPD.PART1: EventCode 0xd5,
 * UMask 0x02, UMaskExt 0x00070000 but PortMask 0x02, FCMask 0x07: the masks win (Intel's
 * scripts/create_perf_json.py), ch_mask config:36-47, fc_mask config:48-50. */
static void test_iio_umask_ext_and_masks(void **state)
{
	(void)state;
	const struct intel_uncore_platform *p = intel_uncore_platform_by_name("SPR");
	assert_non_null(p);
	const struct intel_box_desc *d = &p->box[INTEL_BOX_IIO];
	uint64_t ctl = 0;
	char why[160] = "";
	const char *s = "uncore_iio/UNC_IIO_NUM_TGT_MATCHED_REQ_OF_CPU/";
	assert_int_equal(intel_uncore_encode(d, s, strlen(s), &ctl, NULL, NULL, why, sizeof(why)), 0);
	assert_int_equal(ctl >> 32, 0x70000);
	assert_int_equal(ctl & 0xFFFF, 0x008F);
	s = "UNC_IIO_COMP_BUF_OCCUPANCY.CMPD.PART1";
	assert_int_equal(intel_uncore_encode(d, s, strlen(s), &ctl, NULL, NULL, why, sizeof(why)), 0);
	assert_int_equal(ctl >> 32, 0x70020);
	/* uncore_events' plan check knows catalogue names too */
	assert_int_equal(uncore_names_check("GenuineIntel", 6, 0x8F, "UNC_M_ACT_COUNT.ALL;UNC_IIO_NUM_TGT_MATCHED_REQ_OF_CPU",
					    why, sizeof(why)), 0);
	assert_int_not_equal(uncore_names_check("GenuineIntel", 6, 0x8F, "UNC_M_ACT_COUNT.AL", why, sizeof(why)), 0);
}

/* A misspelt catalogue name: the error names the closest catalogue names (edit distance). */
static void test_closest_catalogue_names(void **state)
{
	(void)state;
	const struct cha_platform *p = cha_platform_by_name("ICX");
	struct cha_request req = { .plat = p };
	char why[320] = "";
	assert_int_not_equal(cha_request_events(&req, "UNC_CHA_LLC_LOOKUP.DATA_REED", why, sizeof(why)), 0);
	assert_non_null(strstr(why, "closest: UNC_CHA_LLC_LOOKUP.DATA_READ"));
	assert_int_not_equal(uncore_names_check("GenuineIntel", 6, 0x8F, "UNC_IIO_NUM_TGT_MATCHED_REQ_OF_CPX", why,
						sizeof(why)), 0);
	assert_non_null(strstr(why, "closest: UNC_IIO_NUM_TGT_MATCHED_REQ_OF_CPU"));
	const struct intel_box_desc *d = &intel_uncore_platform_by_name("SPR")->box[INTEL_BOX_IMC];
	uint64_t ctl;
	const char *s = "uncore_imc/UNC_M_ACT_COUNT.AL/";
	assert_int_not_equal(intel_uncore_encode(d, s, strlen(s), &ctl, NULL, NULL, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "UNC_M_ACT_COUNT.ALL"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_decodes),
		cmocka_unit_test(test_cut_stream_stops),
		cmocka_unit_test(test_cha_name_forms),
		cmocka_unit_test(test_iio_umask_ext_and_masks),
		cmocka_unit_test(test_closest_catalogue_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
