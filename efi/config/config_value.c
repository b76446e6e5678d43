/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config_value: parsing and describing one config value (efi/config_value.h).
 */
#include "efi/config/config_value.h"

#include "efi/config/bdf.h"
#include "arch/lib/fmt.h"

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define VALUE_SHOWN_MAX 40u    /* longest value quoted back in an error message */
#define ACCEPTED_TEXT_MAX 64u
#define DEC_BASE 10u
#define HEX_BASE 16u

static char lower(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* s[0..n) equals the string z (ASCII letters of s folded to lower case when fold_case). */
static int equal_n(const char *s, size_t n, const char *z, int fold_case)
{
	size_t i = 0;
	for (; i < n && z[i]; i++)
		if ((fold_case ? lower(s[i]) : s[i]) != z[i])
			return 0;
	return i == n && z[i] == '\0';
}

/* Bytes as the largest binary unit that divides them: 65536 -> "64K", 4100 -> "4100". */
static void fmt_bytes(char *buf, size_t n, uint64_t v)
{
	static const struct { uint64_t unit; char suffix; } units[] = {
		{ GIB, 'G' }, { MIB, 'M' }, { KIB, 'K' },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (v && v % units[i].unit == 0) {
			fmt_snprintf(buf, n, "%llu%c", (unsigned long long)(v / units[i].unit), units[i].suffix);
			return;
		}
	}
	fmt_snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* A value as the user wrote it, cut to VALUE_SHOWN_MAX characters for messages. */
static void fmt_shown(char *buf, size_t n, const char *v, size_t len)
{
	if (len > VALUE_SHOWN_MAX)
		fmt_snprintf(buf, n, "'%.*s...'", (int)(VALUE_SHOWN_MAX - 3), v);
	else
		fmt_snprintf(buf, n, "'%.*s'", (int)len, v);
}

/* What a key accepts: "return, shutdown, reboot", "1..1000", "4K..16G, a multiple of 64". */
void cfg_value_accepted(char *buf, size_t n, const struct cfg_key *k)
{
	struct strbuf sb;
	sb_init(&sb, buf, n);
	if (k->type == CFG_T_ENUM) {
		for (size_t i = 0; k->choices[i]; i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", k->choices[i]);
	} else if (k->type == CFG_T_BDF) {
		sb_puts(&sb, "none, or a PCI function SSSS:BB:DD.F or BB:DD.F in hex");
	} else if (k->type == CFG_T_TEXT && k->check) {
		sb_printf(&sb, "%s", k->metavar);
	} else if (k->type == CFG_T_TEXT) {
		sb_printf(&sb, "printable text of at most %zu characters", k->size - 1);
	} else if (k->type == CFG_T_BYTES) {
		char lo[24], hi[24];
		fmt_bytes(lo, sizeof(lo), k->min);
		fmt_bytes(hi, sizeof(hi), k->max);
		sb_printf(&sb, "%s..%s, a multiple of %llu", lo, hi, (unsigned long long)k->multiple);
	} else {
		sb_printf(&sb, "%llu..%llu", (unsigned long long)k->min, (unsigned long long)k->max);
	}
}

/* Name of choice v of an enum key, NULL when v is not one. */
const char *cfg_choice_name(const struct cfg_key *k, uint64_t v)
{
	for (uint64_t i = 0; k->choices[i]; i++)
		if (i == v)
			return k->choices[i];
	return NULL;
}

void cfg_value_format(char *buf, size_t n, const struct cfg_key *k, uint64_t v)
{
	if (k->type == CFG_T_ENUM)
		fmt_snprintf(buf, n, "%s", cfg_choice_name(k, v));
	else if (k->type == CFG_T_BYTES)
		fmt_bytes(buf, n, v);
	else if (k->type == CFG_T_TEXT)
		fmt_snprintf(buf, n, "%s", k->text_def ? k->text_def : "empty");
	else if (k->type == CFG_T_BDF)
		cfg_bdf_format(buf, n, v);
	else
		fmt_snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* ---- values -------------------------------------------------------------------------------- */

enum num_status { NUM_OK, NUM_SYNTAX, NUM_OVERFLOW };

/* Reads a decimal or 0x-hex number at the start of s[0..n); *used = characters read. */
static enum num_status parse_number(const char *s, size_t n, size_t *used, uint64_t *out)
{
	unsigned base = DEC_BASE;
	size_t i = 0, first;
	uint64_t v = 0;
	int overflow = 0;

	if (n > 2 && s[0] == '0' && lower(s[1]) == 'x') {
		base = HEX_BASE;
		i = 2;
	}
	for (first = i; i < n; i++) {
		char ch = lower(s[i]);
		unsigned d;
		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (base == HEX_BASE && ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a') + DEC_BASE;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			overflow = 1;
		v = v * base + d;
	}
	*used = i;
	*out = v;
	if (i == first)
		return NUM_SYNTAX;
	return overflow ? NUM_OVERFLOW : NUM_OK;
}

/* Binary size suffixes, compared case-insensitively. */
static const struct { const char *suffix; unsigned shift; } size_suffixes[] = {
	{ "", 0 }, { "k", 10 }, { "kib", 10 }, { "m", 20 }, { "mib", 20 }, { "g", 30 }, { "gib", 30 },
};

int cfg_value_parse(const struct cfg_key *k, const char *v, size_t n, uint64_t *out,
		    char *msg, size_t msgsz)
{
	char shown[VALUE_SHOWN_MAX + 8], accepted[ACCEPTED_TEXT_MAX];
	fmt_shown(shown, sizeof(shown), v, n);
	cfg_value_accepted(accepted, sizeof(accepted), k);

	if (n == 0) {
		fmt_snprintf(msg, msgsz, "missing value (accepted: %s)", accepted);
		return -1;
	}
	if (k->type == CFG_T_ENUM) {
		for (uint64_t i = 0; k->choices[i]; i++) {
			if (equal_n(v, n, k->choices[i], 0)) {
				*out = i;
				return 0;
			}
		}
		fmt_snprintf(msg, msgsz, "%s is not one of: %s", shown, accepted);
		return -1;
	}

	if (k->type == CFG_T_BDF) {
		if (equal_n(v, n, "none", 0)) {
			*out = CFG_BDF_NONE;
			return 0;
		}
		if (cfg_parse_bdf(v, n, out) == 0)
			return 0;
		fmt_snprintf(msg, msgsz, "%s is not a PCI function (accepted: %s)", shown, accepted);
		return -1;
	}

	size_t used;
	uint64_t num;
	enum num_status st = parse_number(v, n, &used, &num);
	int shift = -1;
	if (st != NUM_SYNTAX)
		for (size_t i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++)
			if ((k->type == CFG_T_BYTES || i == 0) &&
			    equal_n(v + used, n - used, size_suffixes[i].suffix, 1))
				shift = (int)size_suffixes[i].shift;
	if (shift < 0) {
		if (k->type == CFG_T_BYTES)
			fmt_snprintf(msg, msgsz, "%s is not a size in bytes (e.g. 65536, 64K, 64M, 1G)", shown);
		else
			fmt_snprintf(msg, msgsz, "%s is not a whole number (decimal or 0x hex; accepted: %s)",
				     shown, accepted);
		return -1;
	}
	if (st == NUM_OVERFLOW || num > (UINT64_MAX >> shift)) {
		fmt_snprintf(msg, msgsz, "%s is too large (accepted: %s)", shown, accepted);
		return -1;
	}
	num <<= shift;
	if (num < k->min || num > k->max) {
		fmt_snprintf(msg, msgsz, "%s is out of range (accepted: %s)", shown, accepted);
		return -1;
	}
	if (k->multiple && num % k->multiple) {
		fmt_snprintf(msg, msgsz, "%s is not a multiple of %llu", shown, (unsigned long long)k->multiple);
		return -1;
	}
	*out = num;
	return 0;
}

static int blank(char ch) { return ch == ' ' || ch == '\t'; }

int cfg_next_item(const char *v, size_t n, size_t *pos, const char **s, size_t *len)
{
	if (*pos > n)
		return 0;
	size_t b = *pos, e = b;
	while (e < n && v[e] != ',')
		e++;
	*pos = e + 1;
	while (b < e && blank(v[b]))
		b++;
	while (e > b && blank(v[e - 1]))
		e--;
	*s = v + b;
	*len = e - b;
	return 1;
}

int cfg_value_list(const struct cfg_key *k, const char *v, size_t n, uint32_t *out, int max, int *count, char *msg,
		   size_t msgsz)
{
	size_t pos = 0, len;
	const char *s;
	*count = 0;
	while (cfg_next_item(v, n, &pos, &s, &len)) {
		uint64_t x;
		char why[160];
		if (*count == max) {
			fmt_snprintf(msg, msgsz, "more than %d values", max);
			return -1;
		}
		if (cfg_value_parse(k, s, len, &x, why, sizeof(why)) != 0) {
			fmt_snprintf(msg, msgsz, "value %d: %s", *count + 1, why);
			return -1;
		}
		for (int i = 0; i < *count; i++)
			if (out[i] == x) {
				fmt_snprintf(msg, msgsz, "value %d: %.*s is listed twice", *count + 1, (int)(len < 24 ? len : 24), s);
				return -1;
			}
		out[(*count)++] = (uint32_t)x;
	}
	return 0;
}
