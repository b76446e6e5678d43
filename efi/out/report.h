/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report: where everything efiperf says goes.
 *   - rep_line():   a text line to the EFI console and the .txt log (the .txt mirrors the console;
 *                   lines printed before the logs are opened are kept and written first).
 *   - rep_begin()/rep_end(): one JSON Lines record to the .jsonl log.
 *   - rep_error():  an error: console + .txt + {"type":"error","where":...,"message":...}; marks
 *                   the run's status "error".
 * Every write is flushed to the medium before the call returns. A read-only or full volume is
 * said once on the console and the run goes on console-only.
 */
#ifndef EFIPERF_REPORT_H
#define EFIPERF_REPORT_H

#include <efi.h>
#include "efi/out/jsonl.h"

#define REP_LOG_DIR "\\efiperf\\logs"

/* Open \efiperf\logs\<serial>-<YYYYMMDD-HHMMSS>[-N].jsonl and .txt (never overwriting).
 * serial NULL or empty -> "noserial". Returns 0, or -1 (console-only from then on). */
int rep_open_logs(const char *serial, const EFI_TIME *t);

/* The log stem ("\efiperf\logs\noserial-20261120-101500") or NULL when console-only. */
const char *rep_log_stem(void);

void rep_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Start a record: {"type":"<type>" ... ; add members with json_*(); rep_end() writes it. */
struct json *rep_begin(const char *type);
/* From now on every record carries "cpu_not_in_tables": note (pmu/cpu_tables.h), right after its
 * type; NULL stops it. The text is copied (at most 159 bytes). */
void rep_set_cpu_note(const char *note);
void rep_end(void);

void rep_error(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1 once any error was reported. */
int rep_failed(void);

/* Have fn see every finished record (its JSON text, no newline), also when the run is
 * console-only: the verdict keeps the values its checks name (efi/verdict/verdict.h). */
void rep_on_record(void (*fn)(void *arg, const char *json, size_t len), void *arg);

/* A second sink (efi/collector.h): record(json, len) sees every finished record, in order, as
 * the .jsonl gets it; idle() is called when no record is open any more (between measurements,
 * never inside a window); close() by rep_close, before the logs close, so that what it says
 * lands in the .txt log too. NULLs remove it. */
void rep_set_sink(void (*record)(const char *json, size_t len), void (*idle)(void), void (*close)(void));

/* Close the log files (after the end record). */
void rep_close(void);

#endif
