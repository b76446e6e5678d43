/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AML decoding below the TermList walk (efi/fw/aml_term.h): PkgLength (ACPI 6.5 20.2.4),
 * NameString (20.2.2), operands (20.2.3 data objects, 20.2.5.4 Buffer/Package/VarPackage,
 * 20.2.5.2-20.2.5.4 named objects, statements and expressions, 20.2.6 ArgObj / LocalObj /
 * DebugObj), the declared methods, and the defect list. Every read is bounded by the `end` it
 * is given.
 *
 * Operand shapes (the shape[] table): one character per operand after the opcode, as ACPI 6.5
 * 20.2.5 lists them and ACPICA's parser reads them (its AML opcode argument lists,
 * source/components/parser/psopcode.c and psargs.c):
 *   t  TermArg, SuperName or Target: a data object, LocalX / ArgX / Debug, an expression, or a
 *      NameString, which is a method invocation followed by its arguments when it names a
 *      method declared so far (a NullName 0x00 Target is the one byte of a ZeroOp)
 *   r  SimpleName / name-or-reference (RefOf, CondRefOf, ObjectType, CopyObject's destination):
 *      a NameString there is never an invocation
 *   n  NameString   b  ByteData   w  WordData   d  DWordData
 *   p  a PkgLength, whose value is the extent of the whole object
 * "" marks an opcode with no operands; NULL one that is no AML term opcode.
 */
#include "efi/fw/aml_term.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>
#include <string.h>

void aml_defect(struct walker *w, uint32_t off, const char *path, const char *fmt, ...)
{
	struct aml_info *in = w->info;
	if (in->ndefects >= AML_MAX_DEFECTS) {
		in->defects_dropped++;
		return;
	}
	char what[AML_DEFECT_LEN];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fmt_snprintf(in->defect[in->ndefects++], AML_DEFECT_LEN, "%s[%u] @0x%x %s: %s", w->sig, w->index, off,
		     path, what);
}

uint64_t aml_rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* PkgLength at p: *obj_end = p + its value (the object's end), *body = first byte after it.
 * -1 when malformed or the encoding itself runs past end; the caller checks *obj_end. */
int aml_pkg_length(const struct walker *w, uint32_t p, uint32_t end, uint32_t *body, uint64_t *obj_end)
{
	if (p >= end)
		return -1;
	uint8_t lead = w->t[p];
	uint32_t n = lead >> 6;
	if (p + 1 + n > end)
		return -1;
	uint32_t v = lead & 0x3F;
	if (n) {
		if (lead & 0x30)
			return -1;
		v = lead & 0x0F;
		for (uint32_t i = 0; i < n; i++)
			v |= (uint32_t)w->t[p + 1 + i] << (4 + 8 * i);
	}
	if (v < n + 1)
		return -1;
	*body = p + 1 + n;
	*obj_end = (uint64_t)p + v;
	return 0;
}

/* Bounded copy of a name path (the x86_64 build has no strcpy). */
void aml_path_copy(char *dst, const char *src)
{
	size_t l = strlen(src);
	if (l >= AML_PATH_LEN)
		l = AML_PATH_LEN - 1;
	memcpy(dst, src, l);
	dst[l] = 0;
}

/* Drop the last segment of a path ("\\A.B" -> "\\A", "\\A" -> "\\"). */
static void aml_path_pop(char *path)
{
	size_t l = strlen(path);
	while (l > 1 && path[l - 1] != '.')
		l--;
	path[l > 1 ? l - 1 : 1] = 0;
}

static int aml_lead_char(uint8_t c) { return (c >= 'A' && c <= 'Z') || c == '_'; }
static int aml_name_char(uint8_t c) { return aml_lead_char(c) || (c >= '0' && c <= '9'); }

/* NameString at p. *after: past it. When path is given it is updated: rooted names replace it,
 * '^' pops a segment, segments are appended. last (5 bytes) gets the final NameSeg or "". */
int aml_name_string(const struct walker *w, uint32_t p, uint32_t end, uint32_t *after, char *path, char *last)
{
	const uint8_t *t = w->t;
	if (last)
		last[0] = 0;
	if (p < end && t[p] == OP_ROOT) {
		if (path)
			aml_path_copy(path, "\\");
		p++;
	} else {
		while (p < end && t[p] == OP_PARENT) {
			if (path)
				aml_path_pop(path);
			p++;
		}
	}
	if (p >= end)
		return -1;
	uint32_t segs;
	if (t[p] == OP_ZERO) {
		*after = p + 1;
		return 0;
	} else if (t[p] == OP_DUAL_NAME) {
		segs = 2;
		p++;
	} else if (t[p] == OP_MULTI_NAME) {
		if (p + 1 >= end)
			return -1;
		segs = t[p + 1];
		p += 2;
	} else
		segs = 1;
	if ((uint64_t)p + 4ull * segs > end)
		return -1;
	for (uint32_t s = 0; s < segs; s++, p += 4) {
		if (!aml_lead_char(t[p]) || !aml_name_char(t[p + 1]) || !aml_name_char(t[p + 2]) || !aml_name_char(t[p + 3]))
			return -1;
		if (path) {
			size_t l = strlen(path);
			if (l + 6 < AML_PATH_LEN) {
				if (l > 1)
					path[l++] = '.';
				memcpy(path + l, t + p, 4);
				path[l + 4] = 0;
			}
		}
		if (last) {
			memcpy(last, t + p, 4);
			last[4] = 0;
		}
	}
	*after = p;
	return 0;
}

/* ---- declared names: hash of the absolute path -> ArgCount, or AML_NOT_METHOD ------------ */

/* FNV-1a, 64 bits (the Fowler/Noll/Vo hash; offset basis and prime from its public definition). */
static uint64_t path_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

static struct aml_method *method_slot(struct aml_method *tab, uint32_t cap, uint64_t h)
{
	uint32_t i = (uint32_t)h & (cap - 1);
	while (tab[i].argc1 && tab[i].hash != h)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Record hash -> argc1 unless the path is declared already (the first declaration stands, as
 * ACPICA refuses a second object of one name). */
static int method_insert(struct aml_info *in, uint64_t h, uint32_t argc1)
{
	if (!in->pool_alloc)
		return -1;
	if (2 * (in->nmethod + 1) > in->method_cap) {
		uint32_t cap = in->method_cap ? 2 * in->method_cap : 256;
		struct aml_method *tab = in->pool_alloc((size_t)cap * sizeof(*tab));
		if (!tab)
			return -1;
		for (uint32_t i = 0; i < in->method_cap; i++)
			if (in->method[i].argc1)
				*method_slot(tab, cap, in->method[i].hash) = in->method[i];
		if (in->method && in->pool_release)
			in->pool_release(in->method);
		in->method = tab;
		in->method_cap = cap;
	}
	struct aml_method *m = method_slot(in->method, in->method_cap, h);
	if (m->argc1)
		return 0;
	in->nmethod++;
	m->hash = h;
	m->argc1 = (uint8_t)argc1;
	return 0;
}

/* ACPICA predefines \_OSI as a method of one argument (source/components/utilities/utglobal.c,
 * AcpiGbl_PreDefinedNames); firmware calls it from scope-level If predicates. */
static void methods_init(struct walker *w)
{
	if (!w->info->method_cap)
		method_insert(w->info, path_hash("\\_OSI"), 1 + 1);
}

void aml_declare(struct walker *w, const char *path, uint32_t argc)
{
	methods_init(w);
	if (method_insert(w->info, path_hash(path), argc == AML_NOT_METHOD ? AML_NOT_METHOD + 1 : (argc & 7) + 1) &&
	    !w->info->method_dropped++)
		aml_defect(w, 0, path, "the pool gave no room to record the names declared; later method invocations "
			   "may be sized as plain references");
}

/* ArgCount of the method at absolute path; -2 when an object that is no method is declared
 * there, -1 when nothing is. */
static int method_argc(const struct aml_info *in, const char *path)
{
	if (!in->method_cap)
		return -1;
	uint64_t h = path_hash(path);
	const struct aml_method *m = method_slot(in->method, in->method_cap, h);
	return !m->argc1 ? -1 : m->argc1 == AML_NOT_METHOD + 1 ? -2 : m->argc1 - 1;
}

/* The method a NameString at p names from scope (ACPI 6.5 5.3: a single NameSeg without
 * prefix is searched in scope and then each parent scope up to the root, the nearest object of
 * that name deciding; any other name is taken as written). Its ArgCount, or -1 when it names no declared method. Not inlined: its two
 * path buffers would otherwise sit in every one of aml_term()'s recursive frames. */
__attribute__((noinline)) static int call_argc(struct walker *w, uint32_t p, uint32_t end, const char *scope)
{
	char path[AML_PATH_LEN], seg[5];
	uint32_t q;
	aml_path_copy(path, scope);
	if (aml_name_string(w, p, end, &q, path, seg) || !seg[0])
		return -1;
	uint8_t c = w->t[p];
	if (c == OP_ROOT || c == OP_PARENT || c == OP_DUAL_NAME || c == OP_MULTI_NAME) {
		int n = method_argc(w->info, path);
		return n < 0 ? -1 : n;
	}
	aml_path_copy(path, scope);
	for (;;) {
		size_t l = strlen(path);
		char cand[AML_PATH_LEN];
		memcpy(cand, path, l);
		if (l > 1)
			cand[l++] = '.';
		if (l + 5 > AML_PATH_LEN)
			return -1;
		memcpy(cand + l, seg, 5);
		int n = method_argc(w->info, cand);
		if (n != -1 || l <= 1)          /* the nearest object of that name decides */
			return n < 0 ? -1 : n;
		aml_path_pop(path);
	}
}

/* ---- operands ---------------------------------------------------------------------------- */

static const char *const shape[256] = {
	[0x06] = "nn",                                  /* Alias */
	[0x08] = "nt",                                  /* Name */
	[0x10] = "p", [0x11] = "p", [0x12] = "p", [0x13] = "p", [0x14] = "p",   /* Scope Buffer Package VarPackage Method */
	[0x15] = "nbb",                                 /* External */
	[0x70] = "tt",                                  /* Store */
	[0x71] = "r",                                   /* RefOf */
	[0x72] = "ttt", [0x73] = "ttt", [0x74] = "ttt", /* Add Concat Subtract */
	[0x75] = "t", [0x76] = "t",                     /* Increment Decrement */
	[0x77] = "ttt", [0x78] = "tttt",                /* Multiply Divide */
	[0x79] = "ttt", [0x7A] = "ttt", [0x7B] = "ttt", [0x7C] = "ttt", [0x7D] = "ttt", [0x7E] = "ttt",
	[0x7F] = "ttt",                                 /* ShiftLeft ShiftRight And Nand Or Nor Xor */
	[0x80] = "tt", [0x81] = "tt", [0x82] = "tt",    /* Not FindSetLeftBit FindSetRightBit */
	[0x83] = "t",                                   /* DerefOf */
	[0x84] = "ttt", [0x85] = "ttt",                 /* ConcatRes Mod */
	[0x86] = "tt", [0x87] = "t", [0x88] = "ttt",    /* Notify SizeOf Index */
	[0x89] = "tbtbtt",                              /* Match */
	[0x8A] = "ttn", [0x8B] = "ttn", [0x8C] = "ttn", [0x8D] = "ttn",   /* CreateDWord/Word/Byte/BitField */
	[0x8E] = "r", [0x8F] = "ttn",                   /* ObjectType CreateQWordField */
	[0x90] = "tt", [0x91] = "tt", [0x92] = "t",     /* LAnd LOr LNot */
	[0x93] = "tt", [0x94] = "tt", [0x95] = "tt",    /* LEqual LGreater LLess */
	[0x96] = "tt", [0x97] = "tt", [0x98] = "tt", [0x99] = "tt",   /* ToBuffer ToDecimalString ToHexString ToInteger */
	[0x9C] = "ttt", [0x9D] = "tr", [0x9E] = "tttt", /* ToString CopyObject Mid */
	[0x9F] = "",                                    /* Continue */
	[0xA0] = "p", [0xA1] = "p", [0xA2] = "p",       /* If Else While */
	[0xA3] = "", [0xA4] = "t", [0xA5] = "",         /* Noop Return Break */
	[0xCC] = "",                                    /* BreakPoint */
};

static const char *const ext_shape[256] = {
	[0x01] = "nb", [0x02] = "n",                    /* Mutex Event */
	[0x12] = "rt", [0x13] = "tttn",                 /* CondRefOf CreateField */
	[0x1F] = "tttttt", [0x20] = "nt",               /* LoadTable Load */
	[0x21] = "t", [0x22] = "t", [0x23] = "tw",      /* Stall Sleep Acquire */
	[0x24] = "t", [0x25] = "tt", [0x26] = "t", [0x27] = "t",   /* Signal Wait Reset Release */
	[0x28] = "tt", [0x29] = "tt", [0x2A] = "t",     /* FromBCD ToBCD Unload */
	[0x30] = "", [0x31] = "", [0x32] = "bdt", [0x33] = "",   /* Revision Debug Fatal Timer */
	[0x80] = "nbtt",                                /* OpRegion */
	[0x81] = "p", [0x82] = "p", [0x83] = "p", [0x84] = "p", [0x85] = "p", [0x86] = "p", [0x87] = "p",
	[0x88] = "nttt",                                /* DataRegion */
};

static int is_name_start(uint8_t c)
{
	return aml_lead_char(c) || c == OP_ROOT || c == OP_PARENT || c == OP_DUAL_NAME || c == OP_MULTI_NAME;
}

static int fail(struct walker *w, uint32_t p, const char **why, const char *what)
{
	w->fail_off = p;
	w->fail_op = p < w->len ? w->t[p] : 0;
	w->fail_ext = w->fail_op == OP_EXT && p + 1 < w->len ? w->t[p + 1] : 0;
	*why = what;
	return -1;
}

/* Buffer, Package, VarPackage at p: extent from the PkgLength; the size operand sized too. */
static int sized_object(struct walker *w, uint32_t p, uint32_t end, const char *scope, int depth, uint32_t *after,
			struct value *v, const char **why)
{
	const uint8_t *t = w->t;
	uint8_t op = t[p];
	uint32_t body, q;
	uint64_t oend;
	if (aml_pkg_length(w, p + 1, end, &body, &oend))
		return fail(w, p, why, "malformed PkgLength");
	if (oend > end)
		return fail(w, p, why, "PkgLength runs past the enclosing object");
	struct value n = { 0 };
	if (op == OP_PACKAGE) {
		if (body >= oend)
			return fail(w, p, why, "NumElements runs past the object's PkgLength");
		n.i = t[body];
		q = body + 1;
	} else if (aml_term(w, body, (uint32_t)oend, scope, depth + 1, &q, &n, why))
		return -1;
	v->kind = op == OP_BUFFER ? V_BUF : V_PKG;
	v->pos = q;
	v->end = (uint32_t)oend;
	v->count = n.kind != V_INT ? AML_COUNT_UNKNOWN : n.i > 0xFFFFFFFEull ? 0xFFFFFFFEu : (uint32_t)n.i;
	*after = (uint32_t)oend;
	return 0;
}

int aml_term(struct walker *w, uint32_t p, uint32_t end, const char *scope, int depth, uint32_t *after,
	     struct value *v, const char **why)
{
	static const uint8_t width[] = { [OP_BYTE] = 1, [OP_WORD] = 2, [OP_DWORD] = 4, [OP_QWORD] = 8 };
	const uint8_t *t = w->t;
	memset(v, 0, sizeof(*v));
	v->kind = V_EXPR;
	if (p >= end)
		return fail(w, p, why, "operand missing: the enclosing object ends first");
	if (depth > AML_MAX_TERM_DEPTH)
		return fail(w, p, why, "operands nested deeper than AML_MAX_TERM_DEPTH (32)");
	uint8_t op = t[p];
	switch (op) {
	case OP_ZERO:
	case OP_ONE:
	case OP_ONES:
		v->kind = V_INT;
		v->i = op == OP_ONES ? ~0ull : op;
		*after = p + 1;
		return 0;
	case OP_BYTE:
	case OP_WORD:
	case OP_DWORD:
	case OP_QWORD:
		if (p + 1 + width[op] > end)
			return fail(w, p, why, "integer runs past the enclosing object");
		v->kind = V_INT;
		v->i = aml_rd(t + p + 1, width[op]);
		*after = p + 1 + width[op];
		return 0;
	case OP_STRING: {
		uint32_t q = p + 1;
		while (q < end && t[q])
			q++;
		if (q >= end)
			return fail(w, p, why, "string has no NUL before the enclosing object ends");
		v->kind = V_STR;
		v->pos = p + 1;
		v->end = q;
		*after = q + 1;
		return 0;
	}
	case OP_BUFFER:
	case OP_PACKAGE:
	case OP_VARPACKAGE:
		return sized_object(w, p, end, scope, depth, after, v, why);
	default:
		break;
	}
	if (is_name_start(op)) {
		uint32_t q;
		if (aml_name_string(w, p, end, &q, NULL, NULL))
			return fail(w, p, why, "bad NameString");
		int argc = scope ? call_argc(w, p, end, scope) : -1;
		if (argc < 0) {
			v->kind = V_NAME;
			v->pos = p;
			v->end = q;
			*after = q;
			return 0;
		}
		struct value a;
		for (int i = 0; i < argc; i++)
			if (aml_term(w, q, end, scope, depth + 1, &q, &a, why))
				return -1;
		*after = q;
		return 0;
	}
	if (op >= OP_LOCAL0 && op <= OP_ARG6) {
		*after = p + 1;
		return 0;
	}
	const char *sh;
	uint32_t q = p + 1;
	if (op == OP_EXT) {
		if (q >= end)
			return fail(w, p, why, "0x5B prefix at the end of the enclosing object");
		sh = ext_shape[t[q++]];
	} else
		sh = shape[op];
	if (!sh)
		return fail(w, p, why, "not an AML term opcode (ACPI 6.5 20.3)");
	for (; *sh; sh++) {
		struct value a;
		switch (*sh) {
		case 'p': {
			uint32_t body;
			uint64_t oend;
			if (aml_pkg_length(w, q, end, &body, &oend))
				return fail(w, p, why, "malformed PkgLength");
			if (oend > end)
				return fail(w, p, why, "PkgLength runs past the enclosing object");
			*after = (uint32_t)oend;
			return 0;
		}
		case 'n':
			if (aml_name_string(w, q, end, &q, NULL, NULL))
				return fail(w, q, why, "bad NameString");
			break;
		case 'r':
			if (q < end && is_name_start(t[q])) {
				if (aml_name_string(w, q, end, &q, NULL, NULL))
					return fail(w, q, why, "bad NameString");
			} else if (aml_term(w, q, end, scope, depth + 1, &q, &a, why))
				return -1;
			break;
		case 't':
			if (aml_term(w, q, end, scope, depth + 1, &q, &a, why))
				return -1;
			break;
		default: {      /* b w d */
			uint32_t n = *sh == 'b' ? 1 : *sh == 'w' ? 2 : 4;
			if (q + n > end)
				return fail(w, p, why, "operands run past the enclosing object");
			q += n;
		}
		}
	}
	*after = q;
	return 0;
}

int aml_data_object(struct walker *w, uint32_t p, uint32_t end, uint32_t *after, struct value *v, const char **why)
{
	return aml_term(w, p, end, NULL, 0, after, v, why);
}

size_t aml_copy_str(const struct walker *w, const struct value *v, char *dst, size_t n)
{
	size_t l = v->end - v->pos, k = l < n ? l : n - 1;
	memcpy(dst, w->t + v->pos, k);
	dst[k] = 0;
	return l;
}

void aml_name_text(const struct walker *w, const struct value *v, char *dst, size_t n)
{
	char path[AML_PATH_LEN] = "";
	size_t carets = 0;
	uint32_t q;
	while (v->pos + carets < v->end && w->t[v->pos + carets] == OP_PARENT)
		carets++;
	aml_name_string(w, v->pos + (uint32_t)carets, v->end, &q, path, NULL);
	fmt_snprintf(dst, n, "%.*s%s", (int)carets, "^^^^^^^^^^^^^^^^", path);
}
