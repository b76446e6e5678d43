/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check: the pass/fail conditions of a run, as the config writes them. Pure: parsed on the host
 * in tests/unit/test_verdict*.c.
 *
 *   check = stream.triad.best_rate_mbps >= 20000
 *   check = nvme[0000:17:00.0].bw_bytes >= 3e9
 *   check = pcie[0000:17:00.0].link.speed_gts == 16
 *   check = measurement[copy].passes[0].gbps within 10% of 2.5
 *   check = pcie[*].link.downtrained == false          (every record of the type)
 *
 * A path is <record type>[<selector>].<field>[.<field>|[<index>]]... and names a member of a
 * JSONL record: the selector picks the record of that type whose identifying key (a table,
 * check_selector_key(): stream by function, pcie and nvme by bdf, ...) has that value; for a
 * type that has an identifying key the selector may also be written as the first segment
 * (stream.triad.x == stream[triad].x); [*] takes every record of the type. A type without an
 * identifying key takes its first record. Operators: >= <= == != and `within P% of V`.
 * Values: decimal numbers with an optional fraction and exponent (3e9, 2.5), 0x hex, true,
 * false, or (== and != only) "quoted text".
 *
 * The ready-made keys expand to the same checks (check_expand()):
 *   expect_link = <bdf> <GT/s> x<width>  -> pcie[bdf].link.speed_gts >= GT/s, .link.width >= width
 *   expect_no_downtrain = on             -> pcie[*].link.downtrained == false
 *   expect_cpus = N                      -> platform.topology.enabled_cpus == N
 *   expect_memory = GiB                  -> smbios.memory.total_mib == GiB x 1024 (SMBIOS type 17)
 *   expect_microcode >= 0x...            -> platform.cpu.microcode >= 0x... (also <=, ==, !=)
 */
#ifndef EFIPERF_CHECK_H
#define EFIPERF_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Numbers are fixed point in thousandths (the log's finest unit: json_milli), 128 bits wide
 * so that byte counts, rates and their products in `within` never overflow. */
typedef __int128 check_milli;
#define CHECK_MILLI 1000

#define CHECK_MAX 32          /* checks of one run, every key together */
#define CHECK_TYPE_LEN 24
#define CHECK_SEL_LEN 40
#define CHECK_FIELD_LEN 64
#define CHECK_TEXT_LEN 48     /* a quoted text value */
#define CHECK_SRC_LEN 112     /* the setting as written, for the verdict */
#define CHECK_WHERE_LEN 48

enum check_op { CHECK_GE, CHECK_LE, CHECK_EQ, CHECK_NE, CHECK_WITHIN };

enum check_kind { CHECK_V_NUM, CHECK_V_BOOL, CHECK_V_TEXT, CHECK_V_NULL };

struct check_value {
	enum check_kind kind;
	check_milli num;              /* NUM: thousandths; BOOL: 1000 true, 0 false */
	char text[CHECK_TEXT_LEN];    /* TEXT */
	int hex;                      /* NUM written as 0x hex (a revision): shown the same way */
};

struct check {
	char key[24];                 /* the config key: "check", "expect_link", ... */
	char src[CHECK_SRC_LEN];      /* the value as written: "stream.triad.best_rate_mbps >= 20000" */
	char where[CHECK_WHERE_LEN];  /* "\efiperf\efiperf.cfg:12", "argument 3" */
	char type[CHECK_TYPE_LEN];    /* record type: "stream" */
	char sel[CHECK_SEL_LEN];      /* selector value ("triad", "0000:17:00.0", "*"), "" for none */
	char field[CHECK_FIELD_LEN];  /* path inside the record: "link.speed_gts", "passes[0].gbps" */
	enum check_op op;
	struct check_value threshold;
	check_milli within_milli_pct; /* CHECK_WITHIN: the percentage, in thousandths */
};

/* The identifying key of a record type ("stream" -> "function", "pcie" -> "bdf"), NULL when
 * the type has none. */
const char *check_selector_key(const char *type);

/* 1 when a selector value written in a check matches the record's value of its identifying
 * key: bus/device/function addresses compare case-insensitively and "17:00.0" means segment
 * 0000; other keys compare exactly. */
int check_selector_match(const char *type, const char *want, const char *have, size_t have_len);

/* Parse `<path> <op> <value>` (a `check =` value, s[0..n), trimmed or not) into *c (its
 * key/src/where are left alone). Returns 0, or -1 with msg saying what is wrong and where. */
int check_parse(const char *s, size_t n, struct check *c, char *msg, size_t msgsz);

/* Parse a number, true/false or "text" value, s[0..n). Returns 0 or -1 (msg). */
int check_value_parse(const char *s, size_t n, struct check_value *v, char *msg, size_t msgsz);

/* Turn one setting of a check key (check, expect_link, expect_no_downtrain, expect_cpus,
 * expect_memory, expect_microcode: the rows of efi/config/config.c; key, its value s[0..n)) into checks appended to out[]
 * (*count of max so far; expect_link adds two, expect_no_downtrain = off none). where is copied
 * into each. Returns 0, or -1 with msg (nothing appended). */
int check_expand(const char *key, const char *s, size_t n, const char *where, struct check *out, int *count,
		 int max, char *msg, size_t msgsz);

/* Value as text: "20000", "2.5", "0x2b000461" (as written), "true", "\"x\"". */
void check_value_format(char *buf, size_t n, const struct check_value *v);
void check_milli_format(char *buf, size_t n, check_milli v);

/* Operator as written: ">=", "<=", "==", "!=", "within". */
const char *check_op_name(enum check_op op);

/* Compare a measured value with the check. Returns 1 (holds), 0 (does not), or -1 with msg
 * when they cannot be compared (text against a number, an ordering operator on text). */
int check_compare(const struct check *c, const struct check_value *measured, char *msg, size_t msgsz);

#endif
