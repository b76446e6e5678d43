/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the verdict over arbitrary records. The input's lines up to the first empty
 * line are a config (check lines); every later line is offered as a record, each in a heap
 * buffer of exactly its length (ASan sees any read past it). Checks: every check is decided,
 * the verdict record is valid JSON, and the banner's last line is the result line.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/config/config.h"
#include "efi/verdict/verdict.h"
#include "../unit/json_check.h"

#define RECORD_BYTES 65536u
#define RESULT_PREFIX "EFIPERF RESULT: "

static struct efiperf_config cfg;
static struct verdict vd;
static char last[256];

static void keep_last(void *arg, const char *text)
{
	(void)arg;
	strncpy(last, text, sizeof(last) - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char rec[RECORD_BYTES];
	const char *s = (const char *)data;
	struct cfg_errors errs;
	size_t cut = 0;
	while (cut + 1 < size && !(s[cut] == '\n' && s[cut + 1] == '\n'))
		cut++;
	if (cut + 1 >= size)
		cut = size;
	memset(&errs, 0, sizeof(errs));
	cfg_defaults(&cfg);
	cfg_parse_text(&cfg, s, cut, "f.cfg", &errs);
	assert(cfg.nchecks >= 0 && cfg.nchecks <= CHECK_MAX);
	verdict_init(&vd, cfg.checks, cfg.nchecks);
	for (size_t i = cut; i < size;) {
		size_t n = 0;
		while (i + n < size && s[i + n] != '\n')
			n++;
		char *copy = malloc(n ? n : 1);
		memcpy(copy, s + i, n);
		verdict_offer(&vd, copy, n);
		free(copy);
		i += n + 1;
	}
	verdict_finish(&vd);
	assert(vd.passed >= 0 && vd.passed <= vd.n);
	struct strbuf sb;
	struct json j;
	sb_init(&sb, rec, sizeof(rec));
	json_begin(&j, &sb);
	json_str(&j, "type", "verdict");
	verdict_json(&vd, &j);
	json_end(&j);
	assert(!j.error);
	assert(sb.overflow || json_check_object(rec, sb.len));
	last[0] = 0;
	verdict_banner(&vd, "S", "L", keep_last, NULL);
	assert(strncmp(last, RESULT_PREFIX, strlen(RESULT_PREFIX)) == 0);
	return 0;
}
