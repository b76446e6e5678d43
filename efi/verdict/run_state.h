/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_state: the marker \efiperf\state\<serial>.running on the boot volume (efi/verdict/marker.h)
 * that tells a run which never reached its end from one never started.
 *   run_state_begin()  after the run record: an earlier run's marker for this serial whose log has
 *                      no `end` becomes an `incomplete` record (that log, its records, the last
 *                      record's type); then this run's marker is written
 *   run_state_end()    after the end record: the marker is deleted, unless a log write failed
 *                      (a full volume): the log then has no `end` and the marker is kept
 * A console-only run (no logs) neither reads nor writes a marker. Failing to read, write or delete
 * it is said on the console and in the .txt log; it is no error of the measurement.
 */
#ifndef EFIPERF_RUN_STATE_H
#define EFIPERF_RUN_STATE_H

void run_state_begin(const char *serial, const char *started);
void run_state_end(void);

#endif
