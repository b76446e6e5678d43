/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verdict: whether a run passed its checks (efi/verdict/check.h). Pure: the record writer offers
 * every finished JSONL record to verdict_offer(), which keeps only what the checks name (the
 * value of each check's field in the record its selector picks; for [*] checks, how many
 * records held and which did not) and counts the `error` records. verdict_finish() decides:
 *
 *   ERROR  the run wrote an error record (its measurements cannot be trusted to qualify)
 *   FAIL   no error, and a check does not hold or its value is missing (it says why)
 *   PASS   no error and every check holds (also with no checks at all)
 *
 * verdict_json() writes the members of the `verdict` record, verdict_banner() the console
 * lines, the last being the result line `EFIPERF RESULT: PASS serial=S log=PATH checks=P/N`.
 */
#ifndef EFIPERF_VERDICT_H
#define EFIPERF_VERDICT_H

#include "efi/verdict/check.h"
#include "efi/out/jsonl.h"

#define VERDICT_FAILING_SHOWN 8   /* selectors of [*] records that failed, listed */
#define VERDICT_WHY_LEN 160

enum verdict_result { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR };

struct check_state {
	int type_seen;              /* records of the check's type offered */
	int found;                  /* the selected record was offered (not [*]) */
	int have_value;             /* the field was in it (maybe null) */
	struct check_value value;   /* measured: the selected record's, or the first failing [*] one */
	int matched, failed;        /* [*]: records that carry the field, and those that fail */
	char failing[VERDICT_FAILING_SHOWN][CHECK_SEL_LEN];
	int holds;                  /* verdict_finish(): 1 holds, 0 fails */
	char why[VERDICT_WHY_LEN];  /* why it fails (missing value, mismatched kinds), "" when it holds */
};

struct verdict {
	const struct check *checks;
	int n;
	struct check_state st[CHECK_MAX];
	int records;                /* records offered */
	int errors;                 /* `error` records offered */
	char first_error[VERDICT_WHY_LEN];
	enum verdict_result result;
	int passed;
};

/* Start over with n (<= CHECK_MAX) checks; the array must outlive the verdict. */
void verdict_init(struct verdict *v, const struct check *checks, int n);

/* One finished JSONL record, json[0..len) (a JSON object with a "type" member; anything else
 * is ignored). */
void verdict_offer(struct verdict *v, const char *json, size_t len);

/* Decide every check and the result. */
void verdict_finish(struct verdict *v);

const char *verdict_name(enum verdict_result r);   /* "PASS", "FAIL", "ERROR" */

/* The path a check reads, as text: "pcie[0000:17:00.0].link.speed_gts". */
void verdict_path(const struct check *c, char *buf, size_t n);

/* Members of the `verdict` record: "result", "passed", "total", "errors", "why" and "checks":
 * [{"setting","where","path","op","threshold",("within_pct"),"value","result",("why"),
 *   ([*]: "records","failed","failing")}]. */
void verdict_json(const struct verdict *v, struct json *j);

/* The console banner, one line per call of line(): a header ("efiperf verdict: PASS (2 of 3
 * checks hold)", or "(no checks configured)" with none), one line per check, the ERROR
 * cause, and last the result line (serial, log path: "none" when NULL). */
void verdict_banner(const struct verdict *v, const char *serial, const char *log,
		    void (*line)(void *arg, const char *text), void *arg);

#endif
