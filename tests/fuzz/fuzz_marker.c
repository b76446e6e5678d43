/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the run-state marker (efi/verdict/marker.c) over arbitrary bytes, each in a
 * heap buffer of exactly its length (ASan sees a read past it): marker_parse as a marker file and
 * log_progress as an earlier run's JSONL log. Beyond not crashing: a parsed marker's fields are
 * terminated within their arrays; the log's progress counts no more records than newlines, its
 * partial tail is the bytes after the last newline, and `ended` implies the last type is "end".
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/verdict/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);

	struct marker m;
	memset(&m, 'x', sizeof(m));
	if (marker_parse(text, size, &m) == 0) {
		assert(memchr(m.log, 0, sizeof(m.log)));
		assert(memchr(m.started, 0, sizeof(m.started)));
	}

	struct log_progress p;
	memset(&p, 'x', sizeof(p));
	log_progress(text, size, &p);
	size_t newlines = 0, last_nl = 0;
	for (size_t i = 0; i < size; i++)
		if (text[i] == '\n') {
			newlines++;
			last_nl = i + 1;
		}
	assert(p.records >= 0 && (size_t)p.records <= newlines);
	assert(p.partial_bytes == size - last_nl);
	assert(memchr(p.last_type, 0, sizeof(p.last_type)));
	if (p.ended)
		assert(strcmp(p.last_type, "end") == 0);

	/* A marker this module writes reads back as itself. */
	char buf[512];
	char log[MARKER_PATH_LEN];
	size_t n = size < sizeof(log) - 1 ? size : sizeof(log) - 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (text[i] >= 0x21 && text[i] < 0x7f)   /* one printable token, as a path is */
			log[k++] = text[i];
	log[k] = 0;
	size_t len = marker_format(buf, sizeof(buf), log, "2026-11-24T10:15:00");
	assert(len < sizeof(buf));
	struct marker back;
	assert(marker_parse(buf, len, &back) == 0);
	assert(strcmp(back.log, log) == 0);
	free(text);
	return 0;
}
