/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux perf's choice of an x86 event directory for an AMD CPU: the AMD rows of
 * tools/perf/pmu-events/arch/x86/mapfile.csv as tests/oracle/linux-perf/amd_core.txt holds them
 * (`mapfile <regex> <dir>` lines; provenance in that folder's README.md), evaluated with POSIX
 * regexec the way perf does: the first row whose regular expression matches
 * "AuthenticAMD-<family decimal>-<model hex>" whole. Shared by the AMD oracle tests (which table
 * serves which model); linked into them by tests/unit.mk (HELPERS_test_<name>). Calls cmocka:
 * a regular expression that does not compile fails the calling test.
 */
#ifndef EFIPERF_TEST_LINUX_MAPFILE_H
#define EFIPERF_TEST_LINUX_MAPFILE_H

/* Reads the mapfile lines; returns how many (0: no extract found, or no such line). */
int linux_mapfile_load(void);

/* perf's directory ("amdzen3") for AMD family/model, NULL when no row matches. */
const char *linux_mapfile_dir(unsigned family, unsigned model);

/* Linux arch/x86/kernel/cpu/amd.c's generation of a Family 1Ah model ("ZEN5", "ZEN6"), as the
 * extract's `amdc <family> <first> <last> <name>` lines give bsp_init_amd's ranges; NULL where
 * amd.c names none (it warns "Family 0x%x, model: 0x%x??"). Loaded by linux_mapfile_load. */
const char *linux_amdc_gen(unsigned family, unsigned model);

/* The generation directory both Linux sources agree on for an AMD Family 1Ah model: the
 * mapfile's directory when amd.c names the same generation (amdzen5 with ZEN5, amdzen6 with
 * ZEN6), else NULL. Other families: the mapfile's directory. */
const char *linux_agreed_dir(unsigned family, unsigned model);

#endif
