/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_verdict: the verdict of this run (efi/verdict/verdict.h) wired to the record writer, and
 * the run's state marker on the boot volume (efi/verdict/run_state.h).
 *   run_verdict_start()   after the config is read: every record from then on is offered
 *   run_verdict_record()  just before the `end` record: the `verdict` record
 *   run_verdict_banner()  after the end: the console banner, its last line the result line
 */
#ifndef EFIPERF_RUN_VERDICT_H
#define EFIPERF_RUN_VERDICT_H

#include "efi/config/config.h"

void run_verdict_start(const struct efiperf_config *cfg);
void run_verdict_record(void);
void run_verdict_banner(const char *serial);

#endif
