/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/report.h"
#include "efi/out/volume.h"
#include "arch/lib/fmt.h"

#define LINE_BYTES 512
#define RECORD_BYTES (256u * 1024u)  /* pool: an acpi record of a 1024-CPU machine is ~40 KiB */
#define RECORD_FALLBACK_BYTES 4096   /* pool, when it has no RECORD_BYTES: small records still go out */
#define RECORD_LAST_BYTES 1024       /* static, when the pool has not even that: an error record fits */
#define EARLY_BYTES 16384
#define CONSOLE_CHUNK 128

enum { LOG_JSONL, LOG_TXT, NLOGS };
static EFI_FILE_HANDLE logs[NLOGS];
static int logs_ok;
static char stem[96];
static char *early;                 /* console text before the logs open: pool, EARLY_BYTES */
static struct strbuf early_sb;
static int failed;

/* One record open at a time: every record is written whole from its result after the
 * measurement or window that filled it (the efi/out/ writers), so none opens while another is
 * open. A rep_begin inside an open record is a caller's bug and reuses the level. */
#define REC_DEPTH 1
struct rec {
	char *mem;
	size_t cap;
	struct strbuf sb;
	struct json j;
	char type[32];
};
static char record_last[REC_DEPTH][RECORD_LAST_BYTES];   /* small: .bss is stored in the image */
static struct rec recs[REC_DEPTH];
static int rec_level;   /* records open */
static char cpu_note[160];   /* rep_set_cpu_note: every record says it */
static void (*observer)(void *arg, const char *json, size_t len);
static void *observer_arg;
static void (*sink_record)(const char *json, size_t len), (*sink_idle)(void), (*sink_close)(void);

void rep_set_sink(void (*record)(const char *json, size_t len), void (*idle)(void), void (*close)(void))
{
	sink_record = record;
	sink_idle = idle;
	sink_close = close;
}

void rep_on_record(void (*fn)(void *arg, const char *json, size_t len), void *arg)
{
	observer = fn;
	observer_arg = arg;
}

static void console(const char *s, size_t n)
{
	CHAR16 w[CONSOLE_CHUNK + 2];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			w[k++] = L'\r';
		w[k++] = (CHAR16)(unsigned char)s[i];
		if (k >= CONSOLE_CHUNK) {
			w[k] = 0;
			ST->ConOut->OutputString(ST->ConOut, w);
			k = 0;
		}
	}
	w[k] = 0;
	if (k)
		ST->ConOut->OutputString(ST->ConOut, w);
}

static void log_failed(int which, const char *why)
{
	static const char *const names[NLOGS] = { "jsonl", "txt" };
	logs_ok = 0;
	char msg[LINE_BYTES];
	size_t n = fmt_snprintf(msg, sizeof(msg), "log: cannot write %s.%s: %s: continuing on the console only\n",
				stem, names[which], why);
	console(msg, n < sizeof(msg) ? n : sizeof(msg) - 1);
}

static void log_write(int which, const char *s, size_t n)
{
	const char *why;
	if (logs_ok && vol_write_flush(logs[which], s, n, &why) != 0)
		log_failed(which, why);
}

void rep_line(const char *fmt, ...)
{
	char line[LINE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = 0;
	console(line, n);
	if (logs_ok)
		log_write(LOG_TXT, line, n);
	else if (!logs[LOG_TXT]) {
		if (!early && (early = AllocatePool(EARLY_BYTES)))
			sb_init(&early_sb, early, EARLY_BYTES);
		if (early)
			sb_putn(&early_sb, line, n);
	}
}

int rep_open_logs(const char *serial, const EFI_TIME *t)
{
	static const char *const ext[NLOGS] = { "jsonl", "txt" };
	char base[64];
	const char *why = NULL;
	fmt_snprintf(base, sizeof(base), "%s-%04u%02u%02u-%02u%02u%02u", serial && *serial ? serial : "noserial",
		     t->Year, t->Month, t->Day, t->Hour, t->Minute, t->Second);
	char name[80];
	if (vol_mkdir_p(REP_LOG_DIR, &why) != 0 ||
	    vol_create_unique(REP_LOG_DIR, base, ext, NLOGS, logs, name, sizeof(name), &why) != 0) {
		logs[LOG_JSONL] = logs[LOG_TXT] = NULL;
		rep_line("log: cannot create logs in %s: %s: continuing on the console only", REP_LOG_DIR, why);
		return -1;
	}
	fmt_snprintf(stem, sizeof(stem), "%s\\%s", REP_LOG_DIR, name);
	logs_ok = 1;
	if (early && early_sb.len)
		log_write(LOG_TXT, early, early_sb.len);
	if (early)
		FreePool(early);
	early = NULL;
	early_sb = (struct strbuf){ 0 };
	return logs_ok ? 0 : -1;
}

const char *rep_log_stem(void) { return logs_ok ? stem : NULL; }

struct json *rep_begin(const char *type)
{
	if (rec_level >= REC_DEPTH)
		rec_level = REC_DEPTH - 1;  /* a bug in a caller: the innermost level is reused */
	struct rec *r = &recs[rec_level++];
	if (!r->mem) {
		/* Pool memory, not a static array: gnu-efi's linker script stores .bss in the file. */
		r->mem = AllocatePool(RECORD_BYTES);
		r->cap = RECORD_BYTES;
		if (!r->mem) {
			r->mem = AllocatePool(RECORD_FALLBACK_BYTES);
			r->cap = RECORD_FALLBACK_BYTES;
		}
		if (!r->mem) {
			r->mem = record_last[r - recs];
			r->cap = RECORD_LAST_BYTES;
		}
	}
	sb_init(&r->sb, r->mem, r->cap);
	json_begin(&r->j, &r->sb);
	json_str(&r->j, "type", type);
	if (cpu_note[0])
		json_str(&r->j, "cpu_not_in_tables", cpu_note);
	fmt_snprintf(r->type, sizeof(r->type), "%s", type);
	return &r->j;
}

void rep_set_cpu_note(const char *note)
{
	fmt_snprintf(cpu_note, sizeof(cpu_note), "%s", note ? note : "");
}

void rep_end(void)
{
	if (!rec_level)
		return;
	struct rec *r = &recs[rec_level - 1];
	json_end(&r->j);
	if (r->sb.overflow || r->j.error) {
		/* Never write a truncated or malformed record: say what was lost instead. */
		char msg[128];
		fmt_snprintf(msg, sizeof(msg), "'%s' record %s; dropped", r->type,
			     r->sb.overflow ? "larger than the record buffer" : "malformed (JSON nesting or misuse)");
		sb_init(&r->sb, r->mem, r->cap);
		json_begin(&r->j, &r->sb);
		json_str(&r->j, "type", "error");
		json_str(&r->j, "where", "report");
		json_str(&r->j, "message", msg);
		json_end(&r->j);
		failed = 1;
	}
	if (observer)
		observer(observer_arg, r->sb.buf, r->sb.len);
	if (sink_record)
		sink_record(r->sb.buf, r->sb.len);
	sb_putc(&r->sb, '\n');
	log_write(LOG_JSONL, r->sb.buf, r->sb.len);
	if (!--rec_level && sink_idle)
		sink_idle();   /* no record open: between measurements */
}

void rep_error(const char *where, const char *fmt, ...)
{
	char msg[LINE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	failed = 1;
	rep_line("error: %s: %s", where, msg);
	struct json *j = rep_begin("error");
	json_str(j, "where", where);
	json_str(j, "message", msg);
	rep_end();
}

int rep_failed(void) { return failed; }

void rep_close(void)
{
	if (sink_close)
		sink_close();
	for (int i = 0; i < NLOGS; i++) {
		vol_close(logs[i]);
		logs[i] = NULL;
	}
	logs_ok = 0;
}
