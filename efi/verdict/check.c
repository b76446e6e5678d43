/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check: parsing the check keys into struct check, comparing values (efi/verdict/check.h).
 */
#include "efi/verdict/check.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define DEC 10
#define HEX 16
#define MAX_DIGITS 30                 /* significant digits kept of a decimal value */
#define MAX_EXP 40
#define PCT_SCALE ((check_milli)100 * CHECK_MILLI)  /* percent, in thousandths */
#define MIB_PER_GIB 1024
#define SHOWN_MAX 40

/* |values| above 10^24 are refused: then |a - b| x 100000 and |b| x (percent in thousandths up
 * to 10^8) stay far below 2^127 in check_compare(). */
static check_milli value_limit(void)
{
	check_milli l = 1;
	for (int i = 0; i < 27; i++)
		l *= DEC;
	return l;  /* 10^24 in thousandths */
}

/* Identifying key of each record type that has several records: data, one row per type. */
static const struct { const char *type, *key; int bdf; } selectors[] = {
	{ "stream", "function", 0 },
	{ "pcie", "bdf", 1 },
	{ "nvme", "bdf", 1 },
	{ "cxl", "bdf", 1 },
	{ "cxl_host_bridge", "uid", 0 },
	{ "measurement", "kernel", 0 },
	{ "latency", "kernel", 0 },
	{ "core_counters", "kernel", 0 },
	{ "cha", "kernel", 0 },
	{ "error", "where", 0 },
	{ "incomplete", "log", 0 },
	{ "uncore", "pmu", 0 },
};
#define NSELECTORS (sizeof(selectors) / sizeof(selectors[0]))

static char lower(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static int is_ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static int hex_digit(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch = lower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* s[0..*n) without its blanks at either end (the config hands over trimmed text; the parts
 * between operator and value are not). */
static const char *strip(const char *s, size_t *n)
{
	size_t a = 0, b = *n;
	for (; a < b && is_blank(s[a]); a++)
		;
	for (; b > a && is_blank(s[b - 1]); b--)
		;
	*n = b - a;
	return s + a;
}

static int equal_n(const char *s, size_t n, const char *z)
{
	return strlen(z) == n && memcmp(s, z, n) == 0;
}

static void shown(char *buf, size_t n, const char *s, size_t len)
{
	if (len > SHOWN_MAX)
		fmt_snprintf(buf, n, "'%.*s...'", SHOWN_MAX - 3, s);
	else
		fmt_snprintf(buf, n, "'%.*s'", (int)len, s);
}

const char *check_selector_key(const char *type)
{
	for (size_t i = 0; i < NSELECTORS; i++)
		if (strcmp(selectors[i].type, type) == 0)
			return selectors[i].key;
	return NULL;
}

int check_selector_match(const char *type, const char *want, const char *have, size_t have_len)
{
	int bdf = 0;
	for (size_t i = 0; i < NSELECTORS; i++)
		if (strcmp(selectors[i].type, type) == 0)
			bdf = selectors[i].bdf;
	if (!bdf)
		return equal_n(have, have_len, want);
	/* "BB:DD.F" is segment 0000 (lspci's short form) */
	static const char seg0[] = "0000:";
	size_t wn = strlen(want);
	int short_form = wn == sizeof("BB:DD.F") - 1;
	size_t off = short_form ? sizeof(seg0) - 1 : 0;
	if (have_len != wn + off)
		return 0;
	if (short_form && memcmp(have, seg0, off) != 0)
		return 0;
	for (size_t i = 0; i < wn; i++)
		if (lower(want[i]) != lower(have[off + i]))
			return 0;
	return 1;
}

/* ---- values ------------------------------------------------------------------------------ */

static int parse_hex(const char *s, size_t n, check_milli *out)
{
	check_milli v = 0;
	if (n == 0 || n > 24)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit(s[i]);
		if (d < 0)
			return -1;
		v = v * HEX + d;
	}
	*out = v * CHECK_MILLI;
	return 0;
}

/* [-]digits[.digits][e[+-]digits] -> thousandths, rounded half away from zero. */
static int parse_dec(const char *s, size_t n, check_milli *out)
{
	size_t i = 0;
	int neg = 0, digits = 0, any = 0, exp10 = 0;
	check_milli m = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n && is_digit(s[i]); i++, any = 1) {
		if (digits < MAX_DIGITS) {
			m = m * DEC + (s[i] - '0');
			digits += m != 0;
		} else {
			exp10++;
		}
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && is_digit(s[i]); i++, any = 1)
			if (digits < MAX_DIGITS) {
				m = m * DEC + (s[i] - '0');
				digits += m != 0;
				exp10--;
			}
	}
	if (!any)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, e = 0, edigits = 0;
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		for (; i < n && is_digit(s[i]); i++, edigits++)
			if (e < 1000)
				e = e * DEC + (s[i] - '0');
		if (!edigits)
			return -1;
		exp10 += eneg ? -e : e;
	}
	if (i != n)
		return -1;
	exp10 += 3;  /* thousandths */
	if (m == 0) {
		*out = 0;
		return 0;
	}
	if (exp10 > MAX_EXP)
		return 1;
	for (; exp10 > 0; exp10--) {
		m *= DEC;
		if (m > value_limit())
			return 1;
	}
	for (; exp10 < 0 && m; exp10++)
		m = exp10 == -1 ? (m + DEC / 2) / DEC : m / DEC;
	if (m > value_limit())
		return 1;
	*out = neg ? -m : m;
	return 0;
}

/* A number as a log or a user writes it: decimal, exponent, 0x hex. 0 ok, -1 not a number,
 * 1 out of range. */
static int parse_number(const char *s, size_t n, check_milli *out)
{
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hex(s + 2, n - 2, out);
	return parse_dec(s, n, out);
}

static int is_hex_text(const char *s, size_t n)
{
	return n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int check_value_parse(const char *s, size_t n, struct check_value *v, char *msg, size_t msgsz)
{
	char w[SHOWN_MAX + 8];
	s = strip(s, &n);
	memset(v, 0, sizeof(*v));
	if (equal_n(s, n, "true") || equal_n(s, n, "false")) {
		v->kind = CHECK_V_BOOL;
		v->num = s[0] == 't' ? CHECK_MILLI : 0;
		return 0;
	}
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		if (n - 2 >= sizeof(v->text)) {
			fmt_snprintf(msg, msgsz, "quoted text longer than %zu characters", sizeof(v->text) - 1);
			return -1;
		}
		v->kind = CHECK_V_TEXT;
		memcpy(v->text, s + 1, n - 2);
		v->text[n - 2] = 0;
		return 0;
	}
	shown(w, sizeof(w), s, n);
	int r = parse_number(s, n, &v->num);
	if (r == 1) {
		fmt_snprintf(msg, msgsz, "value %s is out of range (at most 1e24 in magnitude)", w);
		return -1;
	}
	if (r != 0 || n == 0) {
		fmt_snprintf(msg, msgsz, "value %s is not a number (decimal, 3e9, 0x1f), true, false or \"text\"", w);
		return -1;
	}
	v->kind = CHECK_V_NUM;
	v->hex = is_hex_text(s, n);
	return 0;
}

void check_milli_format(char *buf, size_t n, check_milli v)
{
	char rev[48];
	size_t k = 0;
	int neg = v < 0;
	unsigned __int128 u = neg ? (unsigned __int128)(-v) : (unsigned __int128)v;
	unsigned frac = (unsigned)(u % CHECK_MILLI);
	u /= CHECK_MILLI;
	do {
		rev[k++] = (char)('0' + (int)(u % DEC));
		u /= DEC;
	} while (u && k < sizeof(rev));
	struct strbuf sb;
	sb_init(&sb, buf, n);
	if (neg)
		sb_putc(&sb, '-');
	while (k)
		sb_putc(&sb, rev[--k]);
	if (frac) {
		char f[8];
		fmt_snprintf(f, sizeof(f), ".%03u", frac);
		size_t fl = strlen(f);
		while (f[fl - 1] == '0')
			f[--fl] = 0;
		sb_puts(&sb, f);
	}
}

void check_value_format(char *buf, size_t n, const struct check_value *v)
{
	switch (v->kind) {
	case CHECK_V_BOOL:
		fmt_snprintf(buf, n, "%s", v->num ? "true" : "false");
		break;
	case CHECK_V_TEXT:
		fmt_snprintf(buf, n, "\"%s\"", v->text);
		break;
	case CHECK_V_NULL:
		fmt_snprintf(buf, n, "null");
		break;
	default:
		if (v->hex && v->num >= 0 && v->num / CHECK_MILLI <= (check_milli)UINT64_MAX)
			fmt_snprintf(buf, n, "0x%llx", (unsigned long long)(v->num / CHECK_MILLI));
		else
			check_milli_format(buf, n, v->num);
	}
}

const char *check_op_name(enum check_op op)
{
	static const char *const names[] = { [CHECK_GE] = ">=", [CHECK_LE] = "<=", [CHECK_EQ] = "==",
					     [CHECK_NE] = "!=", [CHECK_WITHIN] = "within" };
	return (unsigned)op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

/* ---- the path ---------------------------------------------------------------------------- */

/* <type>[<sel>] or <type>.<sel> (types with an identifying key), then the field path. */
static int parse_path(const char *s, size_t n, struct check *c, char *msg, size_t msgsz)
{
	char w[SHOWN_MAX + 8];
	shown(w, sizeof(w), s, n);
	size_t i = 0;
	while (i < n && is_ident(s[i]))
		i++;
	if (i == 0 || i >= sizeof(c->type)) {
		fmt_snprintf(msg, msgsz, "path %s: expected a record type (letters, digits, _) first", w);
		return -1;
	}
	memcpy(c->type, s, i);
	c->type[i] = 0;
	const char *key = check_selector_key(c->type);
	c->sel[0] = 0;
	if (i < n && s[i] == '[') {
		size_t j = i + 1;
		while (j < n && s[j] != ']')
			j++;
		if (j >= n || j == i + 1 || j - i - 1 >= sizeof(c->sel)) {
			fmt_snprintf(msg, msgsz, "path %s: selector after '%s' is empty, unclosed or too long", w, c->type);
			return -1;
		}
		if (!key) {
			fmt_snprintf(msg, msgsz, "path %s: '%s' records have no identifying key to select by", w, c->type);
			return -1;
		}
		memcpy(c->sel, s + i + 1, j - i - 1);
		c->sel[j - i - 1] = 0;
		i = j + 1;
	} else if (key && i < n && s[i] == '.') {
		size_t j = i + 1;
		while (j < n && is_ident(s[j]))
			j++;
		if (j == i + 1 || j - i - 1 >= sizeof(c->sel)) {
			fmt_snprintf(msg, msgsz, "path %s: '%s' records are selected by %s: write %s[VALUE].FIELD", w,
				     c->type, key, c->type);
			return -1;
		}
		memcpy(c->sel, s + i + 1, j - i - 1);
		c->sel[j - i - 1] = 0;
		i = j;
	} else if (key) {
		fmt_snprintf(msg, msgsz, "path %s: '%s' records are selected by %s: write %s[VALUE].FIELD or %s[*].FIELD", w,
			     c->type, key, c->type, c->type);
		return -1;
	}
	if (i >= n || s[i] != '.') {
		fmt_snprintf(msg, msgsz, "path %s: expected '.FIELD' after the record", w);
		return -1;
	}
	i++;
	/* field: ident ('.' ident | '[' digits ']')* */
	size_t start = i;
	int need_ident = 1;
	while (i < n) {
		if (need_ident) {
			size_t j = i;
			while (j < n && is_ident(s[j]))
				j++;
			if (j == i)
				break;
			i = j;
			need_ident = 0;
		} else if (s[i] == '.') {
			i++;
			need_ident = 1;
		} else if (s[i] == '[') {
			size_t j = i + 1;
			while (j < n && is_digit(s[j]))
				j++;
			if (j == i + 1 || j >= n || s[j] != ']')
				break;
			i = j + 1;
		} else {
			break;
		}
	}
	if (need_ident || i != n) {
		fmt_snprintf(msg, msgsz, "path %s: field path must be NAME(.NAME|[INDEX])*, stopped at character %zu", w, i + 1);
		return -1;
	}
	if (i - start >= sizeof(c->field)) {
		fmt_snprintf(msg, msgsz, "path %s: field path longer than %zu characters", w, sizeof(c->field) - 1);
		return -1;
	}
	memcpy(c->field, s + start, i - start);
	c->field[i - start] = 0;
	return 0;
}

/* The operator at s[0..n): its length, or 0. */
static size_t parse_op(const char *s, size_t n, enum check_op *op)
{
	static const struct { const char *text; enum check_op op; } ops[] = {
		{ ">=", CHECK_GE }, { "<=", CHECK_LE }, { "==", CHECK_EQ }, { "!=", CHECK_NE }, { "within", CHECK_WITHIN },
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t l = strlen(ops[i].text);
		if (n >= l && memcmp(s, ops[i].text, l) == 0) {
			*op = ops[i].op;
			return l;
		}
	}
	return 0;
}

/* After `within`: "P% of V". */
static int parse_within(const char *s, size_t n, struct check *c, char *msg, size_t msgsz)
{
	s = strip(s, &n);
	size_t pct = 0;
	while (pct < n && s[pct] != '%')
		pct++;
	size_t rest = pct + 1;
	while (rest < n && is_blank(s[rest]))
		rest++;
	if (pct >= n || rest + 2 > n || memcmp(s + rest, "of", 2) != 0 || (rest + 2 < n && !is_blank(s[rest + 2]))) {
		fmt_snprintf(msg, msgsz, "expected 'within P%% of VALUE'");
		return -1;
	}
	size_t pn = pct;
	const char *p = strip(s, &pn);
	if (parse_dec(p, pn, &c->within_milli_pct) != 0 || c->within_milli_pct < 0 ||
	    c->within_milli_pct > PCT_SCALE * 10) {
		fmt_snprintf(msg, msgsz, "'within %.*s%%': the percentage must be a number 0..1000", (int)pn, p);
		return -1;
	}
	if (check_value_parse(s + rest + 2, n - rest - 2, &c->threshold, msg, msgsz) != 0)
		return -1;
	if (c->threshold.kind != CHECK_V_NUM) {
		fmt_snprintf(msg, msgsz, "'within' needs a number after 'of'");
		return -1;
	}
	return 0;
}

int check_parse(const char *s, size_t n, struct check *c, char *msg, size_t msgsz)
{
	s = strip(s, &n);
	size_t i = 0;
	while (i < n && !is_blank(s[i]) && s[i] != '>' && s[i] != '<' && s[i] != '=' && s[i] != '!')
		i++;
	if (i == 0) {
		fmt_snprintf(msg, msgsz, "expected 'PATH OP VALUE' (e.g. stream.triad.best_rate_mbps >= 20000)");
		return -1;
	}
	if (parse_path(s, i, c, msg, msgsz) != 0)
		return -1;
	while (i < n && is_blank(s[i]))
		i++;
	size_t ol = parse_op(s + i, n - i, &c->op);
	if (!ol) {
		fmt_snprintf(msg, msgsz, "expected an operator (>=, <=, ==, !=, within P%% of) after '%.*s'", (int)i, s);
		return -1;
	}
	i += ol;
	if (c->op == CHECK_WITHIN)
		return parse_within(s + i, n - i, c, msg, msgsz);
	if (check_value_parse(s + i, n - i, &c->threshold, msg, msgsz) != 0)
		return -1;
	if ((c->threshold.kind == CHECK_V_TEXT || c->threshold.kind == CHECK_V_BOOL) && c->op != CHECK_EQ &&
	    c->op != CHECK_NE) {
		fmt_snprintf(msg, msgsz, "%s compares numbers only; use == or != with true, false or text", check_op_name(c->op));
		return -1;
	}
	return 0;
}

/* ---- ready-made keys --------------------------------------------------------------------- */

static void init(struct check *c, const char *key, const char *src, size_t n, const char *where)
{
	memset(c, 0, sizeof(*c));
	fmt_snprintf(c->key, sizeof(c->key), "%s", key);
	fmt_snprintf(c->src, sizeof(c->src), "%.*s", (int)n, src);
	fmt_snprintf(c->where, sizeof(c->where), "%s", where ? where : "");
}

static void set_path(struct check *c, const char *type, const char *sel, const char *field)
{
	fmt_snprintf(c->type, sizeof(c->type), "%s", type);
	fmt_snprintf(c->sel, sizeof(c->sel), "%s", sel);
	fmt_snprintf(c->field, sizeof(c->field), "%s", field);
}

static void num(struct check *c, enum check_op op, check_milli v)
{
	c->op = op;
	c->threshold.kind = CHECK_V_NUM;
	c->threshold.num = v;
}

/* "SSSS:BB:DD.F" or "BB:DD.F" in hex: its length, or 0. */
static size_t bdf_len(const char *s, size_t n)
{
	static const char full[] = "hhhh:hh:hh.h", brief[] = "hh:hh.h";
	for (int k = 0; k < 2; k++) {
		const char *shape = k ? brief : full;
		size_t l = strlen(shape), i = 0;
		if (n < l)
			continue;
		for (; i < l; i++)
			if (shape[i] == 'h' ? hex_digit(s[i]) < 0 : s[i] != shape[i])
				break;
		if (i == l && (n == l || is_blank(s[l])))
			return l;
	}
	return 0;
}

static int expect_link(const char *s, size_t n, struct check out[2], char *msg, size_t msgsz)
{
	static const char usage[] = "expected 'BDF GT/s xWIDTH' (e.g. 0000:17:00.0 16 x16)";
	size_t bl = bdf_len(s, n);
	if (!bl) {
		fmt_snprintf(msg, msgsz, "%s: no PCI function SSSS:BB:DD.F first", usage);
		return -1;
	}
	char bdf[CHECK_SEL_LEN];
	fmt_snprintf(bdf, sizeof(bdf), "%.*s", (int)bl, s);
	size_t i = bl;
	while (i < n && is_blank(s[i]))
		i++;
	size_t j = i;
	while (j < n && !is_blank(s[j]) && s[j] != 'G')
		j++;
	check_milli gts, width;
	if (j == i || parse_dec(s + i, j - i, &gts) != 0 || gts <= 0) {
		fmt_snprintf(msg, msgsz, "%s: '%.*s' is not a speed in GT/s", usage, (int)(j - i), s + i);
		return -1;
	}
	if (j + 4 <= n && memcmp(s + j, "GT/s", 4) == 0)
		j += 4;
	while (j < n && is_blank(s[j]))
		j++;
	if (j >= n || lower(s[j]) != 'x' || parse_dec(s + j + 1, n - j - 1, &width) != 0 || width <= 0 ||
	    width % CHECK_MILLI) {
		fmt_snprintf(msg, msgsz, "%s: '%.*s' is not a width xN", usage, (int)(n - j), s + j);
		return -1;
	}
	set_path(&out[0], "pcie", bdf, "link.speed_gts");
	num(&out[0], CHECK_GE, gts);
	set_path(&out[1], "pcie", bdf, "link.width");
	num(&out[1], CHECK_GE, width);
	return 0;
}

int check_expand(const char *key, const char *s, size_t n, const char *where, struct check *out, int *count,
		 int max, char *msg, size_t msgsz)
{
	struct check c[2];
	int made = 1;
	s = strip(s, &n);
	init(&c[0], key, s, n, where);
	init(&c[1], key, s, n, where);
	if (strcmp(key, "check") == 0) {
		if (check_parse(s, n, &c[0], msg, msgsz) != 0)
			return -1;
	} else if (strcmp(key, "expect_link") == 0) {
		if (expect_link(s, n, c, msg, msgsz) != 0)
			return -1;
		made = 2;
	} else if (strcmp(key, "expect_no_downtrain") == 0) {
		if (equal_n(s, n, "off")) {
			made = 0;
		} else if (equal_n(s, n, "on")) {
			set_path(&c[0], "pcie", "*", "link.downtrained");
			c[0].op = CHECK_EQ;
			c[0].threshold.kind = CHECK_V_BOOL;
			c[0].threshold.num = 0;
		} else {
			fmt_snprintf(msg, msgsz, "expected on or off");
			return -1;
		}
	} else if (strcmp(key, "expect_cpus") == 0) {
		check_milli v;
		if (parse_dec(s, n, &v) != 0 || v <= 0 || v % CHECK_MILLI) {
			fmt_snprintf(msg, msgsz, "expected a whole number of CPUs");
			return -1;
		}
		set_path(&c[0], "platform", "", "topology.enabled_cpus");
		num(&c[0], CHECK_EQ, v);
	} else if (strcmp(key, "expect_memory") == 0) {
		check_milli v;
		if (parse_dec(s, n, &v) != 0 || v <= 0 || (v * MIB_PER_GIB) % CHECK_MILLI) {
			fmt_snprintf(msg, msgsz, "expected GiB as a number (0.5 = 512 MiB), a whole number of MiB");
			return -1;
		}
		set_path(&c[0], "smbios", "", "memory.total_mib");
		num(&c[0], CHECK_EQ, v * MIB_PER_GIB);
	} else if (strcmp(key, "expect_microcode") == 0) {
		enum check_op op = CHECK_GE;
		size_t ol = parse_op(s, n, &op);
		if (ol == 0 && n && s[0] == '=') {
			ol = 1;  /* "expect_microcode == X" reaches here as "= X" */
			op = CHECK_EQ;
			fmt_snprintf(c[0].src, sizeof(c[0].src), "=%.*s", (int)n, s);
		}
		if (op == CHECK_WITHIN) {
			fmt_snprintf(msg, msgsz, "expected [>=|<=|==|!=] 0xREVISION");
			return -1;
		}
		set_path(&c[0], "platform", "", "cpu.microcode");
		if (check_value_parse(s + ol, n - ol, &c[0].threshold, msg, msgsz) != 0)
			return -1;
		if (c[0].threshold.kind != CHECK_V_NUM) {
			fmt_snprintf(msg, msgsz, "expected a revision number (0x...)");
			return -1;
		}
		c[0].op = op;
	} else {
		fmt_snprintf(msg, msgsz, "not a check key");
		return -1;
	}
	if (*count + made > max) {
		fmt_snprintf(msg, msgsz, "more than %d checks", max);
		return -1;
	}
	for (int i = 0; i < made; i++)
		out[(*count)++] = c[i];
	return 0;
}

/* ---- comparing --------------------------------------------------------------------------- */

static check_milli abs_m(check_milli v)
{
	return v < 0 ? -v : v;
}

int check_compare(const struct check *c, const struct check_value *m, char *msg, size_t msgsz)
{
	const struct check_value *t = &c->threshold;
	if (m->kind == CHECK_V_NULL) {
		fmt_snprintf(msg, msgsz, "the value is null");
		return -1;
	}
	if (m->kind != t->kind) {
		static const char *const kinds[] = { "a number", "true/false", "text", "null" };
		fmt_snprintf(msg, msgsz, "the value is %s, the check compares with %s", kinds[m->kind], kinds[t->kind]);
		return -1;
	}
	if (m->kind == CHECK_V_TEXT) {
		int eq = strcmp(m->text, t->text) == 0;
		return c->op == CHECK_EQ ? eq : !eq;
	}
	switch (c->op) {
	case CHECK_GE: return m->num >= t->num;
	case CHECK_LE: return m->num <= t->num;
	case CHECK_EQ: return m->num == t->num;
	case CHECK_NE: return m->num != t->num;
	case CHECK_WITHIN: return abs_m(m->num - t->num) * PCT_SCALE <= abs_m(t->num) * c->within_milli_pct;
	}
	return 0;
}
