/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_verdict: firmware glue of the verdict (efi/verdict/run_verdict.h).
 */
#include <efi.h>
#include <efilib.h>
#include "efi/verdict/run_verdict.h"
#include "efi/verdict/verdict.h"
#include "efi/out/report.h"
#include "efi/out/once.h"
#include "efi/pages.h"
#include "arch/lib/fmt.h"

#define LOG_PATH_LEN 128

static struct verdict *verdict;   /* pool memory (about 20 KiB), not .bss */
static int started, decided;

static void offer(void *arg, const char *json, size_t len)
{
	verdict_offer(arg, json, len);
}

void run_verdict_start(const struct efiperf_config *cfg)
{
	if (!verdict)
		verdict = pool_zalloc(sizeof(*verdict));
	if (!verdict) {
		rep_error("verdict", "cannot allocate %llu bytes for the checks: no verdict this run",
			  (unsigned long long)sizeof(*verdict));
		return;
	}
	verdict_init(verdict, cfg->checks, cfg->nchecks);
	rep_on_record(offer, verdict);
	started = 1;
}

void run_verdict_record(void)
{
	rep_once_summary();   /* what the console said once instead of under every window */
	if (!started || decided)
		return;
	verdict_finish(verdict);
	struct json *j = rep_begin("verdict");
	verdict_json(verdict, j);
	rep_end();
	decided = 1;
	rep_on_record(NULL, NULL);
}

static void banner_line(void *arg, const char *text)
{
	(void)arg;
	rep_line("%s", text);
}

void run_verdict_banner(const char *serial)
{
	char log[LOG_PATH_LEN];
	if (!decided)
		return;
	const char *stem = rep_log_stem();
	if (stem)
		fmt_snprintf(log, sizeof(log), "%s.jsonl", stem);
	verdict_banner(verdict, serial, stem ? log : NULL, banner_line, NULL);
}
