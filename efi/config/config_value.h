/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_value: the value half of efi/config/config.c, private to it. A config key's type and
 * limits (struct cfg_key, one row of config.c's cfg_keys[]), the parser of one value as the
 * user wrote it, and the texts that describe values in help and error messages.
 * Pure: host-tested through efi/config.h.
 */
#ifndef EFIPERF_CONFIG_VALUE_H
#define EFIPERF_CONFIG_VALUE_H

#include <stddef.h>
#include <stdint.h>

enum cfg_type {
	CFG_T_ENUM,   /* one of choices[] (the value is its index) */
	CFG_T_UINT,   /* decimal or 0x hex, min..max */
	CFG_T_BYTES,  /* as CFG_T_UINT plus a K/M/G (KiB/MiB/GiB) suffix, a multiple of `multiple` */
	CFG_T_BDF,    /* a PCI function "SSSS:BB:DD.F" or "BB:DD.F" (hex), or "none" (CFG_BDF_NONE) */
	CFG_T_TEXT,   /* printable text, stored NUL-terminated in a char[size] field; default text_def
		       * (empty when NULL); check(), when set, validates its shape */
};


struct cfg_key {
	const char *name;
	enum cfg_type type;
	const char *metavar;          /* shown by --help */
	const char *const *choices;   /* CFG_T_ENUM: names by value, NULL-terminated */
	uint64_t def, min, max;       /* CFG_T_ENUM: min/max unused */
	uint64_t multiple;            /* CFG_T_BYTES: required divisor (0 = any) */
	size_t offset, size;          /* field in struct efiperf_config: 4 or 8 bytes */
	const char *help;
	/* CFG_T_TEXT only, both optional: the default text, and a shape check that returns 0, or
	 * -1 with msg saying what is wrong (e.g. efi/cpuset.h's parser). */
	const char *text_def;
	int (*check)(const char *v, size_t n, char *msg, size_t msgsz);
};

/* Parse value v[0..n) (already trimmed) of key k. Returns 0 and the value in *out, or -1 with
 * msg (msgsz bytes) saying what is wrong and what is accepted. */
int cfg_value_parse(const struct cfg_key *k, const char *v, size_t n, uint64_t *out,
		    char *msg, size_t msgsz);

/* Value v of key k as a user would write it: "shutdown", "64M", "3". */
void cfg_value_format(char *buf, size_t n, const struct cfg_key *k, uint64_t v);

/* What key k accepts: "return, shutdown, reboot", "1..1000", "4K..16G, a multiple of 64". */
void cfg_value_accepted(char *buf, size_t n, const struct cfg_key *k);

/* Name of choice v of an enum key, NULL when v is not one. */
const char *cfg_choice_name(const struct cfg_key *k, uint64_t v);

/* The next comma-separated element of v[*pos..n), trimmed of blanks, into s/len; 0 at the end
 * (*pos starts at 0). An empty element is returned as len 0. */
int cfg_next_item(const char *v, size_t n, size_t *pos, const char **s, size_t *len);

/* A comma-separated list of values of key k (each as cfg_value_parse reads it, at most uint32)
 * into out[0..max-1], none twice. Returns 0 with *count, or -1 with msg naming the bad value. */
int cfg_value_list(const struct cfg_key *k, const char *v, size_t n, uint32_t *out, int max, int *count, char *msg,
		   size_t msgsz);

#endif
