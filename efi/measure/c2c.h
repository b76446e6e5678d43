/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * c2c: the core-to-core latency matrix (config `c2c = on`). For every pair of the selected CPUs
 * (i < j) one window with interrupts masked on both runs the CAS ping-pong (arch/c2c.h): CPU i
 * initiates, CPU j answers, c2c_rounds rounds of c2c_trips round trips. A round's latency is its
 * round-trip time / 2 (one line transfer), in ns; each pair gets the min and the median over its
 * rounds. One `c2c` record: the CPUs with package, core, L3 domain and SRAT node, the min and
 * median matrices (zero diagonal, symmetric), per-pair quietness, and summaries per relation
 * (efi/measure/c2c_group.h). The console prints the median matrix as a table.
 */
#ifndef EFIPERF_C2C_H
#define EFIPERF_C2C_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

/* Before the first window: with c2c = on the selection must hold 2..C2C_MAX_CPUS CPUs.
 * Returns 0, or -1 after a config error record naming the setting, where it was set and why. */
int c2c_plan(const struct platform *p, const struct efiperf_config *cfg);

/* The matrix: the request, c2c_measure (efi/measure/c2c_run.h) on the firmware's windows, the
 * record (efi/out/c2c_out.h). Returns 0, or -1 after an error record (allocation, a pair that
 * timed out). */
int measure_c2c(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg);

#endif
