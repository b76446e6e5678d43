/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AML decoding below the TermList walk (efi/fw/aml_term.h): PkgLength (ACPI 6.5 20.2.4),
 * NameString (20.2.2), data objects (20.2.3, 20.2.5.4 Buffer/Package/VarPackage), and the
 * defect list. Every read is bounded by the `end` it is given.
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

/* A data object (constant, string, buffer, package, or a name reference) at p. -1: cannot
 * size it, or it runs past end (*why says which). */
int aml_data_object(const struct walker *w, uint32_t p, uint32_t end, uint32_t *after, struct value *v,
		       const char **why)
{
	static const uint8_t width[] = { [OP_BYTE] = 1, [OP_WORD] = 2, [OP_DWORD] = 4, [OP_QWORD] = 8 };
	const uint8_t *t = w->t;
	*why = "object cut short";
	if (p >= end)
		return -1;
	uint8_t op = t[p];
	memset(v, 0, sizeof(*v));
	switch (op) {
	case OP_ZERO:
	case OP_ONE:
	case OP_ONES:
		v->i = op == OP_ONES ? ~0ull : op;
		*after = p + 1;
		return 0;
	case OP_BYTE:
	case OP_WORD:
	case OP_DWORD:
	case OP_QWORD:
		if (p + 1 + width[op] > end)
			return -1;
		v->i = aml_rd(t + p + 1, width[op]);
		*after = p + 1 + width[op];
		return 0;
	case OP_STRING: {
		uint32_t q = p + 1;
		while (q < end && t[q])
			q++;
		if (q >= end)
			return -1;
		v->kind = V_STR;
		v->pos = p + 1;
		v->end = q;
		*after = q + 1;
		return 0;
	}
	case OP_BUFFER:
	case OP_PACKAGE:
	case OP_VARPACKAGE: {
		uint32_t body;
		uint64_t oend;
		if (aml_pkg_length(w, p + 1, end, &body, &oend))
			return *why = "malformed PkgLength", -1;
		if (oend > end)
			return *why = "PkgLength runs past its enclosing object", -1;
		struct value n;
		uint32_t q;
		if (op == OP_PACKAGE) {
			if (body >= oend)
				return -1;
			n.i = t[body];
			q = body + 1;
		} else if (body >= oend || t[body] == OP_BUFFER || t[body] == OP_PACKAGE || t[body] == OP_VARPACKAGE) {
			/* Not recursed into: a size nested in sizes would recurse once per 2 bytes of the
			 * table, past the 128 KiB DXE stack (STACK_SIZE, edk2 DxeIplPeim/DxeIpl.h). */
			return *why = "size is not a constant integer", -1;
		} else if (aml_data_object(w, body, (uint32_t)oend, &q, &n, why) || n.kind != V_INT)
			return *why = "size is not a constant integer", -1;
		v->kind = op == OP_BUFFER ? V_BUF : V_PKG;
		v->pos = q;
		v->end = (uint32_t)oend;
		v->count = n.i > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)n.i;
		*after = (uint32_t)oend;
		return 0;
	}
	case OP_EXT:
		if (p + 1 < end && t[p + 1] == EXT_REVISION) {
			*after = p + 2;
			return 0;
		}
		break;
	default:
		if (aml_lead_char(op) || op == OP_ROOT || op == OP_PARENT || op == OP_DUAL_NAME || op == OP_MULTI_NAME) {
			v->kind = V_NAME;
			return aml_name_string(w, p, end, after, NULL, NULL) ? (*why = "bad NameString", -1) : 0;
		}
	}
	*why = "not a data object";
	return -1;
}

void aml_copy_str(const struct walker *w, const struct value *v, char *dst, size_t n)
{
	size_t l = v->end - v->pos;
	if (l >= n)
		l = n - 1;
	memcpy(dst, w->t + v->pos, l);
	dst[l] = 0;
}
