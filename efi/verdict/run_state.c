/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_state: the run-state marker, firmware side (efi/verdict/run_state.h).
 */
#include <efi.h>
#include <efilib.h>
#include "efi/verdict/run_state.h"
#include "efi/verdict/marker.h"
#include "efi/out/report.h"
#include "efi/out/volume.h"
#include "arch/lib/fmt.h"

#define MARKER_TEXT 512

static char path[MARKER_PATH_LEN];
static int written;

/* The `incomplete` record for an earlier run's marker, unless its log ended after all. */
static void earlier_run(const char *text, size_t len)
{
	struct marker m;
	struct log_progress p;
	char *log = NULL;
	size_t loglen = 0;
	const char *why = NULL;
	int parsed = marker_parse(text, len, &m) == 0 && m.log[0];
	int r = parsed ? vol_read_file(m.log, &log, &loglen, &why) : -1;
	if (r == 0) {
		log_progress(log, loglen, &p);
		FreePool(log);
		if (p.ended)
			return;   /* it ended; only the marker's deletion was lost */
	}
	struct json *j = rep_begin("incomplete");
	json_str(j, "marker", path);
	json_str(j, "log", parsed ? m.log : NULL);
	json_str(j, "started", parsed && m.started[0] ? m.started : NULL);
	if (r == 0) {
		json_u64(j, "records", (uint64_t)p.records);
		json_str(j, "last_record", p.last_type[0] ? p.last_type : NULL);
		json_u64(j, "partial_bytes", p.partial_bytes);
		json_null(j, "why");
	} else {
		json_null(j, "records");
		json_null(j, "last_record");
		json_null(j, "partial_bytes");
		json_str(j, "why", !parsed ? "the marker names no log" : r == 1 ? "the log is gone" : why);
	}
	rep_end();
	if (r == 0)
		rep_line("state:      the previous run (%s) never ended: %d records, the last '%s'", m.log, p.records,
			 p.last_type[0] ? p.last_type : "none");
	else
		rep_line("state:      the previous run never ended; its log %s: %s", parsed ? m.log : "(unnamed)",
			 !parsed ? "not named" : r == 1 ? "is gone" : why);
}

void run_state_begin(const char *serial, const char *started)
{
	const char *stem = rep_log_stem(), *why = NULL;
	char *text = NULL, buf[MARKER_TEXT], log[MARKER_PATH_LEN];
	size_t len = 0;
	if (!stem)
		return;   /* console-only */
	marker_path(path, sizeof(path), serial);
	int r = vol_read_file(path, &text, &len, &why);
	if (r == 0) {
		earlier_run(text, len);
		FreePool(text);
	} else if (r < 0) {
		rep_line("state:      cannot read %s: %s", path, why);
	}
	fmt_snprintf(log, sizeof(log), "%s.jsonl", stem);
	len = marker_format(buf, sizeof(buf), log, started);
	if (vol_mkdir_p(MARKER_DIR, &why) != 0 || vol_write_file(path, buf, len, &why) != 0) {
		rep_line("state:      cannot write %s: %s (a run that stops now cannot be told from one never started)",
			 path, why);
		return;
	}
	written = 1;
}

void run_state_end(void)
{
	const char *why = NULL;
	if (!written)
		return;
	written = 0;
	if (!rep_log_stem()) {
		/* a log write failed (full volume, medium error): the log on the volume has no `end` */
		rep_line("state:      the log could not be written to its end: %s is kept, so the next run reports this "
			 "one as incomplete", path);
		return;
	}
	if (vol_delete(path, &why) < 0)
		rep_line("state:      cannot delete %s: %s (the next run will find the log ended)", path, why);
}
