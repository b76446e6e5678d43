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

#endif
