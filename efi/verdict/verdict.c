/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verdict: checks evaluated over the records as they are written (efi/verdict/verdict.h).
 */
#include "efi/verdict/verdict.h"
#include "efi/verdict/jsonget.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define LINE_LEN 240
#define VALUE_TEXT 48
#define RULE "========================================"

void verdict_init(struct verdict *v, const struct check *checks, int n)
{
	memset(v, 0, sizeof(*v));
	v->checks = checks;
	v->n = n < 0 ? 0 : n > CHECK_MAX ? CHECK_MAX : n;
}

static int is_type(const struct jv *t, const char *type)
{
	return t->kind == JV_STRING && strlen(type) == t->n && memcmp(t->p, type, t->n) == 0;
}

/* A log value as a check value: numbers, and strings that read as numbers ("0x2b000461"),
 * compare as numbers. 0, or -1 with why (an object or array, or a number out of range). */
static int to_value(const struct jv *jv, struct check_value *out, char *why, size_t whysz)
{
	char msg[VERDICT_WHY_LEN];
	memset(out, 0, sizeof(*out));
	switch (jv->kind) {
	case JV_TRUE:
	case JV_FALSE:
		out->kind = CHECK_V_BOOL;
		out->num = jv->kind == JV_TRUE ? CHECK_MILLI : 0;
		return 0;
	case JV_NULL:
		out->kind = CHECK_V_NULL;
		return 0;
	case JV_NUMBER:
		if (check_value_parse(jv->p, jv->n, out, msg, sizeof(msg)) != 0) {
			fmt_snprintf(why, whysz, "%s", msg);
			return -1;
		}
		return 0;
	case JV_STRING:
		if (jv->n && check_value_parse(jv->p, jv->n, out, msg, sizeof(msg)) == 0 && out->kind == CHECK_V_NUM)
			return 0;
		out->kind = CHECK_V_TEXT;
		fmt_snprintf(out->text, sizeof(out->text), "%.*s", (int)jv->n, jv->p);
		return 0;
	default:
		fmt_snprintf(why, whysz, "is an %s, not a value", jv->kind == JV_OBJECT ? "object" : "array");
		return -1;
	}
}

/* The record's value of its type's identifying key, as text ("" when it has none). */
static void selector_of(const char *json, size_t len, const char *type, char *out, size_t n)
{
	const char *key = check_selector_key(type);
	struct jv sv;
	out[0] = 0;
	if (key && jsonget(json, len, key, &sv) == 0 && (sv.kind == JV_STRING || sv.kind == JV_NUMBER))
		fmt_snprintf(out, n, "%.*s", (int)sv.n, sv.p);
}

static void offer_every(const struct check *c, struct check_state *s, const char *json, size_t len)
{
	struct jv fv;
	struct check_value val;
	char why[VERDICT_WHY_LEN];
	if (jsonget(json, len, c->field, &fv) != 0)
		return;  /* a record without the field (e.g. a function without a link) is not counted */
	s->matched++;
	int r = to_value(&fv, &val, why, sizeof(why)) == 0 ? check_compare(c, &val, why, sizeof(why)) : -1;
	if (r == 1)
		return;
	if (s->failed < VERDICT_FAILING_SHOWN)
		selector_of(json, len, c->type, s->failing[s->failed], sizeof(s->failing[0]));
	if (!s->failed) {
		s->value = val;
		s->have_value = r == 0;
	}
	s->failed++;
}

static void offer_one(const struct check *c, struct check_state *s, const char *json, size_t len)
{
	if (s->found)
		return;  /* the first record the selector picks */
	if (c->sel[0]) {
		const char *key = check_selector_key(c->type);
		struct jv sv;
		if (!key || jsonget(json, len, key, &sv) != 0 || (sv.kind != JV_STRING && sv.kind != JV_NUMBER) ||
		    !check_selector_match(c->type, c->sel, sv.p, sv.n))
			return;
	}
	s->found = 1;
	struct jv fv;
	int r = jsonget(json, len, c->field, &fv);
	if (r != 0) {
		fmt_snprintf(s->why, sizeof(s->why), "%s", r < 0 ? "the record is not valid JSON" : "the record has no such field");
		return;
	}
	if (to_value(&fv, &s->value, s->why, sizeof(s->why)) == 0)
		s->have_value = 1;
}

void verdict_offer(struct verdict *v, const char *json, size_t len)
{
	struct jv t;
	if (jsonget(json, len, "type", &t) != 0 || t.kind != JV_STRING)
		return;
	v->records++;
	if (is_type(&t, "error")) {
		struct jv w, m;
		if (!v->errors && jsonget(json, len, "where", &w) == 0 && jsonget(json, len, "message", &m) == 0)
			fmt_snprintf(v->first_error, sizeof(v->first_error), "%.*s: %.*s", (int)w.n, w.p, (int)m.n, m.p);
		v->errors++;
	}
	for (int i = 0; i < v->n; i++) {
		const struct check *c = &v->checks[i];
		if (!is_type(&t, c->type))
			continue;
		v->st[i].type_seen++;
		if (strcmp(c->sel, "*") == 0)
			offer_every(c, &v->st[i], json, len);
		else
			offer_one(c, &v->st[i], json, len);
	}
}

void verdict_path(const struct check *c, char *buf, size_t n)
{
	if (c->sel[0])
		fmt_snprintf(buf, n, "%s[%s].%s", c->type, c->sel, c->field);
	else
		fmt_snprintf(buf, n, "%s.%s", c->type, c->field);
}

static void decide(const struct check *c, struct check_state *s)
{
	char why[VERDICT_WHY_LEN];
	const char *key = check_selector_key(c->type);
	s->holds = 0;
	if (!s->type_seen) {
		fmt_snprintf(s->why, sizeof(s->why), "missing: no '%s' record in the log (is it enabled in the config?)", c->type);
		return;
	}
	if (strcmp(c->sel, "*") == 0) {
		s->holds = s->failed == 0;
		if (s->failed)
			fmt_snprintf(s->why, sizeof(s->why), "%d of %d '%s' records fail: %s%s", s->failed, s->matched, c->type,
				     s->failing[0], s->failed > 1 ? ", ..." : "");
		return;
	}
	if (!s->found) {
		fmt_snprintf(s->why, sizeof(s->why), "missing: no '%s' record with %s %s (%d '%s' records in the log)", c->type,
			     key ? key : "", c->sel, s->type_seen, c->type);
		return;
	}
	if (!s->have_value) {
		fmt_snprintf(why, sizeof(why), "%s", s->why);
		fmt_snprintf(s->why, sizeof(s->why), "missing: %s: %s", c->field, why);
		return;
	}
	if (s->value.kind == CHECK_V_NULL) {
		fmt_snprintf(s->why, sizeof(s->why), "missing: %s is null in the record", c->field);
		return;
	}
	int r = check_compare(c, &s->value, why, sizeof(why));
	if (r < 0) {
		fmt_snprintf(s->why, sizeof(s->why), "cannot compare: %s", why);
		return;
	}
	s->holds = r;
	s->why[0] = 0;
}

void verdict_finish(struct verdict *v)
{
	v->passed = 0;
	for (int i = 0; i < v->n; i++) {
		decide(&v->checks[i], &v->st[i]);
		v->passed += v->st[i].holds;
	}
	v->result = v->errors ? VERDICT_ERROR : v->passed < v->n ? VERDICT_FAIL : VERDICT_PASS;
}

const char *verdict_name(enum verdict_result r)
{
	static const char *const names[] = { [VERDICT_PASS] = "PASS", [VERDICT_FAIL] = "FAIL", [VERDICT_ERROR] = "ERROR" };
	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "ERROR";
}

/* A number the log can hold: a whole number as an integer, thousandths as json_milli, else
 * (beyond 64 bits, negative fractions) as text. */
static void value_json(struct json *j, const char *key, const struct check_value *v)
{
	char text[VALUE_TEXT];
	switch (v->kind) {
	case CHECK_V_BOOL:
		json_bool(j, key, v->num != 0);
		return;
	case CHECK_V_TEXT:
		json_str(j, key, v->text);
		return;
	case CHECK_V_NULL:
		json_null(j, key);
		return;
	default:
		break;
	}
	if (v->hex) {   /* as the log writes revisions: "0x2b000461" */
		check_value_format(text, sizeof(text), v);
		json_str(j, key, text);
		return;
	}
	const check_milli max_i64 = (check_milli)INT64_MAX, min_i64 = (check_milli)INT64_MIN;
	if (v->num % CHECK_MILLI == 0 && v->num / CHECK_MILLI <= max_i64 && v->num / CHECK_MILLI >= min_i64) {
		json_i64(j, key, (int64_t)(v->num / CHECK_MILLI));
	} else if (v->num >= 0 && v->num <= (check_milli)UINT64_MAX) {
		json_milli(j, key, (uint64_t)v->num);
	} else {
		check_milli_format(text, sizeof(text), v->num);
		json_str(j, key, text);
	}
}

/* The setting as the config wrote it: "check = ...", "expect_microcode >= 0x..". */
static void setting_text(const struct check *c, char *buf, size_t n)
{
	int op_first = c->src[0] == '>' || c->src[0] == '<' || c->src[0] == '!' || c->src[0] == '=';
	fmt_snprintf(buf, n, "%s %s%s", c->key, op_first ? "" : "= ", c->src);
}

void verdict_json(const struct verdict *v, struct json *j)
{
	char text[CHECK_SRC_LEN + 32];
	json_str(j, "result", verdict_name(v->result));
	json_u64(j, "passed", (uint64_t)v->passed);
	json_u64(j, "total", (uint64_t)v->n);
	json_u64(j, "errors", (uint64_t)v->errors);
	if (v->result == VERDICT_ERROR) {
		fmt_snprintf(text, sizeof(text), "the run reported %d error%s; first: %s", v->errors, v->errors == 1 ? "" : "s",
			     v->first_error);
		json_str(j, "why", text);
	} else {
		json_null(j, "why");
	}
	json_arr(j, "checks");
	for (int i = 0; i < v->n; i++) {
		const struct check *c = &v->checks[i];
		const struct check_state *s = &v->st[i];
		json_obj(j, NULL);
		setting_text(c, text, sizeof(text));
		json_str(j, "setting", text);
		json_str(j, "where", c->where);
		verdict_path(c, text, sizeof(text));
		json_str(j, "path", text);
		json_str(j, "op", check_op_name(c->op));
		value_json(j, "threshold", &c->threshold);
		if (c->op == CHECK_WITHIN) {
			struct check_value pct = { .kind = CHECK_V_NUM, .num = c->within_milli_pct };
			value_json(j, "within_pct", &pct);
		}
		if (s->have_value)
			value_json(j, "value", &s->value);
		else
			json_null(j, "value");
		json_str(j, "result", s->holds ? "PASS" : "FAIL");
		json_str(j, "why", s->why[0] ? s->why : NULL);
		if (strcmp(c->sel, "*") == 0) {
			json_u64(j, "records", (uint64_t)s->matched);
			json_u64(j, "failed", (uint64_t)s->failed);
			json_arr(j, "failing");
			for (int k = 0; k < s->failed && k < VERDICT_FAILING_SHOWN; k++)
				json_str(j, NULL, s->failing[k]);
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

/* The banner's first line: "efiperf verdict: PASS (2 of 3 checks hold)", or with no checks
 * "efiperf verdict: PASS (no checks configured)" (nothing was checked: the run's status alone). */
static void verdict_headline(const struct verdict *v, char *buf, size_t n)
{
	if (v->n == 0)
		fmt_snprintf(buf, n, "efiperf verdict: %s (no checks configured)", verdict_name(v->result));
	else
		fmt_snprintf(buf, n, "efiperf verdict: %s (%d of %d checks hold)", verdict_name(v->result), v->passed, v->n);
}

void verdict_banner(const struct verdict *v, const char *serial, const char *log,
		    void (*line)(void *arg, const char *text), void *arg)
{
	char buf[LINE_LEN], path[CHECK_TYPE_LEN + CHECK_SEL_LEN + CHECK_FIELD_LEN + 4], thr[VALUE_TEXT], val[VALUE_TEXT];
	fmt_snprintf(buf, sizeof(buf), "%s", RULE RULE);
	line(arg, buf);
	verdict_headline(v, buf, sizeof(buf));
	line(arg, buf);
	for (int i = 0; i < v->n; i++) {
		const struct check *c = &v->checks[i];
		const struct check_state *s = &v->st[i];
		verdict_path(c, path, sizeof(path));
		check_value_format(thr, sizeof(thr), &c->threshold);
		if (strcmp(c->sel, "*") == 0)
			fmt_snprintf(val, sizeof(val), "%d of %d records fail", s->failed, s->matched);
		else if (s->have_value)
			check_value_format(val, sizeof(val), &s->value);
		else
			fmt_snprintf(val, sizeof(val), "-");
		if (c->op == CHECK_WITHIN) {
			char pct[VALUE_TEXT];
			check_milli_format(pct, sizeof(pct), c->within_milli_pct);
			fmt_snprintf(buf, sizeof(buf), "  %s  %s within %s%% of %s: %s%s%s", s->holds ? "PASS" : "FAIL", path, pct,
				     thr, val, s->why[0] ? "; " : "", s->why);
		} else {
			fmt_snprintf(buf, sizeof(buf), "  %s  %s %s %s: %s%s%s", s->holds ? "PASS" : "FAIL", path,
				     check_op_name(c->op), thr, val, s->why[0] ? "; " : "", s->why);
		}
		line(arg, buf);
	}
	if (v->result == VERDICT_ERROR) {
		fmt_snprintf(buf, sizeof(buf), "  ERROR  the run reported %d error%s; first: %s", v->errors,
			     v->errors == 1 ? "" : "s", v->first_error);
		line(arg, buf);
	}
	fmt_snprintf(buf, sizeof(buf), "%s", RULE RULE);
	line(arg, buf);
	fmt_snprintf(buf, sizeof(buf), "EFIPERF RESULT: %s serial=%s log=%s checks=%d/%d", verdict_name(v->result),
		     serial && *serial ? serial : "noserial", log && *log ? log : "none", v->passed, v->n);
	line(arg, buf);
}
