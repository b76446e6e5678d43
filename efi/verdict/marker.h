/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * marker: the run-state marker \efiperf\state\<serial>.running, written when a run starts and
 * deleted when it ends, and what an earlier run's log says about how far it got. Pure.
 *
 * The marker is text, one `key=value` a line:
 *   efiperf-state=1
 *   log=\efiperf\logs\LAB7-20261124-101500.jsonl
 *   started=2026-11-24T10:15:00
 */
#ifndef EFIPERF_MARKER_H
#define EFIPERF_MARKER_H

#include <stddef.h>

#define MARKER_DIR "\\efiperf\\state"
#define MARKER_PATH_LEN 128
#define MARKER_TYPE_LEN 32

struct marker {
	char log[MARKER_PATH_LEN];   /* the log the run was writing ("" when the marker lacks it) */
	char started[32];
};

/* The marker's path for a serial: "\efiperf\state\LAB7.running". */
void marker_path(char *buf, size_t n, const char *serial);

/* The marker text for a run; returns its length (buf always terminated). */
size_t marker_format(char *buf, size_t n, const char *log, const char *started);

/* Read a marker's text[0..len). Returns 0, or -1 when it is not one (no efiperf-state line). */
int marker_parse(const char *text, size_t len, struct marker *m);

struct log_progress {
	int records;                     /* complete lines (records) in the log */
	char last_type[MARKER_TYPE_LEN]; /* the "type" of the last complete record, "" when none */
	int ended;                       /* the last complete record is the `end` record */
	size_t partial_bytes;            /* bytes after the last newline: a record cut short */
};

/* How far a JSONL log text[0..len) got. */
void log_progress(const char *text, size_t len, struct log_progress *p);

#endif
