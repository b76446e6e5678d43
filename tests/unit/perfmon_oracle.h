/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reader of the Intel perfmon uncore extracts, tests/oracle/perfmon/<platform>_cha.json and
 * <platform>_imc_iio.json (written by tests/tools/perfmon_*_extract.py; one event per line,
 * Intel's values as text). Shared by test_cha_perfmon and test_intel_uncore_oracle; linked into
 * them by tests/unit.mk (HELPERS_test_<name>). A malformed line fails the calling cmocka test.
 */
#ifndef EFIPERF_TEST_PERFMON_ORACLE_H
#define EFIPERF_TEST_PERFMON_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#define PERFMON_ORACLE_MAX_ROWS 64

/* One event row as Intel gives it. filter / filter_value: CHA extracts only (see load flags). */
struct perfmon_row {
	char name[96];                            /* EventName, Intel's prefix kept (UNC_CHA_...) */
	uint64_t code, umask, umask_ext, port, fc; /* EventCode, UMask, UMaskExt, PortMask, FCMask */
	uint64_t filter_value;                    /* FILTER_VALUE */
	char filter[40];                          /* Filter ("na", "CHAFilter0[26:17]", ...) */
	char counter[16];                         /* Counter as written ("0", "0,1,2,3") */
	uint8_t counters;                         /* Counter as a mask: bit c = counter c */
};

/* The load flag: the rows carry Filter and FILTER_VALUE (the CHA extracts), and lacking
 * FILTER_VALUE fails the test. */
#define PERFMON_ORACLE_FILTERS 1u

/* "Key": "value" of one extract line into out[0..n); 0 when the key is absent or its value does
 * not fit. */
int perfmon_field(const char *line, const char *key, char *out, size_t n);

/* The number (0x.. or decimal) under key; fails the test when the line lacks it. */
uint64_t perfmon_num(const char *line, const char *key);

/* The folder of the extracts seen from the directory the test runs in (tests/, the repository
 * root, or a folder beside tests/): "oracle/perfmon" etc.; NULL when none is there. */
const char *perfmon_oracle_dir(void);

/* The "Counter" text ("0", "0,1,2,3") as a mask, bit c = counter c. */
uint8_t perfmon_counter_mask(const char *s);

/* The rows of tests/oracle/perfmon/<plat>_<suffix>.json (suffix "cha" or "imc_iio"), in
 * rows[0..PERFMON_ORACLE_MAX_ROWS); returns how many. Fails the test when the file is missing, a
 * numeric key is absent from an event line, or the rows overflow. */
unsigned perfmon_oracle_load(const char *plat, const char *suffix, unsigned flags, struct perfmon_row *rows);

#endif
