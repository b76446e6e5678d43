/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: efi/config.c over arbitrary bytes, as a config file and as a command line.
 * Beyond not crashing, every run checks that the parser keeps its promises:
 *   - every setting stays within its documented limits, whatever was rejected;
 *   - every stored error's strings are terminated within their arrays;
 *   - the settings' JSON record is valid JSON with no raw control characters;
 *   - the checked text keys (cpus, dma_write_lba) hold only values their parsers accept, and
 *     a cpus list resolves on an 8-CPU, 2-package machine to ascending CPUs that exist, or an
 *     error with a message.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/config/config.h"
#include "efi/config/cpuset.h"
#include "efi/config/blockio_target.h"
#include "../unit/json_check.h"

#define MAX_ARGS 64
#define JSON_MAX 8192  /* the largest config: two 255-char text keys, each char escaped to 2 bytes */

static void check_terminated(const char *s, size_t cap)
{
	assert(memchr(s, '\0', cap) != NULL);
}

static void check_config(const struct efiperf_config *c, const struct cfg_errors *e)
{
	assert(c->exit == CFG_EXIT_RETURN || c->exit == CFG_EXIT_SHUTDOWN || c->exit == CFG_EXIT_REBOOT);
	assert(c->trace == CFG_TRACE_NONE || c->trace == CFG_TRACE_HW);
	assert(c->copy_size >= (4ull << 10) && c->copy_size <= (16ull << 30) && c->copy_size % 64 == 0);
	assert(c->copy_passes >= 1 && c->copy_passes <= 1000);
	assert(c->loop_iterations >= 1000 && c->loop_iterations <= 1000000000);
	for (int k = 0; k < CFG_NKEYS; k++)
		check_terminated(c->origin[k], sizeof(c->origin[k]));
	for (int i = 0; i < e->count && i < CFG_MAX_ERRORS; i++) {
		check_terminated(e->e[i].where, sizeof(e->e[i].where));
		check_terminated(e->e[i].key, sizeof(e->e[i].key));
		check_terminated(e->e[i].message, sizeof(e->e[i].message));
		assert(e->e[i].message[0] != '\0');
	}

	char msg[256];
	struct cpuset set;
	struct blockio_target t;
	assert(cpuset_parse(c->cpus, strlen(c->cpus), &set, msg, sizeof(msg)) == 0);
	assert(blockio_target_parse(c->dma_write_lba, strlen(c->dma_write_lba), &t, msg, sizeof(msg)) == 0);
	static const struct cpu_desc cpu[8] = {
		{ 0, 0, 1 }, { 1, 0, 1 }, { 2, 0, 1 }, { 3, 0, 0 }, { 4, 1, 1 }, { 5, 1, 1 }, { 6, 1, 1 }, { 7, 1, 1 },
	};
	struct cpuset_topo topo = { 8, 0, cpu };
	uint32_t out[8];
	msg[0] = 0;
	int n = cpuset_resolve(&set, &topo, out, 8, msg, sizeof(msg));
	assert(n == -1 ? msg[0] != 0 : n >= 1 && n <= 8);
	for (int i = 0; i < n; i++)
		assert(out[i] < 8 && cpu[out[i]].enabled && (i == 0 || out[i] > out[i - 1]));

	char buf[JSON_MAX];
	struct strbuf sb;
	struct json j;
	sb_init(&sb, buf, sizeof(buf));
	json_begin(&j, &sb);
	cfg_to_json(c, &j);
	json_end(&j);
	assert(!j.error && !sb.overflow);
	assert(json_check_object(buf, sb.len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct efiperf_config c;
	struct cfg_errors errs = { 0 };
	int help = 0;

	cfg_defaults(&c);
	int n = cfg_parse_text(&c, (const char *)data, size, "\\efiperf\\efiperf.cfg", &errs);
	assert(n >= 0 && n == errs.count);
	check_config(&c, &errs);

	char *line = malloc(size + 1);  /* exact size: ASan sees any write past the line */
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	char *argv[MAX_ARGS];
	int argc = cfg_split_cmdline(line, argv, MAX_ARGS);
	assert(argc >= 0 && argc <= MAX_ARGS);
	for (int i = 0; i < argc; i++)
		assert(argv[i] >= line && argv[i] <= line + size);
	cfg_parse_args(&c, argc, argv, &help, &errs);
	check_config(&c, &errs);
	/* the same bytes as a command line under its limits: a short argv, and a line said to be
	 * longer than what was read (the firmware's cut); what is kept lies inside the line */
	memcpy(line, data, size);
	line[size] = '\0';
	struct cfg_errors lim = { 0 };
	int max = size ? data[0] % MAX_ARGS : 0;
	size_t kept = strlen(line);
	argc = cfg_cmdline_args(line, kept + (size & 1), argv, max, 1, &lim);
	assert(argc >= 0 && argc <= max);
	for (int i = 0; i < argc; i++)
		assert(argv[i] >= line && argv[i] <= line + size && strlen(argv[i]) <= kept);
	assert(lim.count <= 1);   /* one limit error at most: the count, or the cut */
	free(line);
	return 0;
}
