/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reader of the Intel perfmon uncore extracts, tests/oracle/perfmon/<platform>_cha.json and
 * <platform>_imc_iio.json (written by tests/tools/perfmon_*_extract.py; one event per line,
 * Intel's values as text), and of the uncore rows of Intel's mapfile.csv (which file serves which
 * model). Shared by test_cha_perfmon and test_intel_uncore_oracle; linked into
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

/* The platform folders Intel's mapfile.csv serves family-6 `model` with for EventType uncore
 * (tests/oracle/perfmon/mapfile_uncore.csv, its uncore rows), over steppings 0-F, lower-cased
 * ("skx", "clx") into dirs[0..max), each once; returns how many (0: none). A row whose
 * Family-model has a stepping ("GenuineIntel-6-55-[01234]") is matched against
 * "GenuineIntel-6-<model>-<stepping>", the others against "GenuineIntel-6-<model>", whole, with
 * POSIX regexec; the first matching row wins. Fails the test when the file is missing. */
unsigned perfmon_uncore_dirs(unsigned model, char dirs[][8], unsigned max);

/* Which table serves which model, against Intel's mapfile.csv: for every family-6 model 00h-FFh
 * table_of(model) names an efiperf table for (NULL: none), every folder Intel serves the model
 * with (perfmon_uncore_dirs) must be one the calling test compares with that same table
 * (compared_with(folder) names the table, NULL: the folder is compared with none). Fails the test
 * naming the model, the folder and the tables otherwise; what ("CHA") goes in the messages.
 * Returns the (model, folder) pairs checked and the models served in *served. */
unsigned perfmon_check_served_models(const char *what, const char *(*table_of)(unsigned model),
				     const char *(*compared_with)(const char *folder), unsigned *served);

#endif
