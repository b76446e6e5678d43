/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bounded AML reader (efi/fw/aml.h). Encodings from ACPI 6.5:
 *   20.2.2 name objects (NameSeg, RootChar '\', ParentPrefixChar '^', DualNamePrefix 0x2E,
 *          MultiNamePrefix 0x2F, NullName 0x00),
 *   20.2.3 data objects (ZeroOp 0x00, OneOp 0x01, OnesOp 0xFF, BytePrefix 0x0A, WordPrefix 0x0B,
 *          DWordPrefix 0x0C, StringPrefix 0x0D, QWordPrefix 0x0E, RevisionOp 0x5B 0x30),
 *   20.2.4 PkgLength (lead byte bits 7:6 = following bytes, bits 3:0 low nibble, bits 5:4 zero
 *          when bytes follow),
 *   20.2.5 term objects (NameOp 0x08, ScopeOp 0x10, MethodOp 0x14 with MethodFlags bits 2:0
 *          ArgCount, ExternalOp 0x15 with ObjectType 8 = MethodObj and ArgumentCount, IfOp 0xA0,
 *          ElseOp 0xA1, WhileOp 0xA2, NoopOp 0xA3; ExtOpPrefix 0x5B with DeviceOp 0x82,
 *          ProcessorOp 0x83 (ProcID, PblkAddr, PblkLen), PowerResOp 0x84 (SystemLevel,
 *          ResourceOrder), ThermalZoneOp 0x85); every other operand shape is in aml_term.c.
 * Resource descriptors: ACPI 6.5 6.4.3 (small items: bit 7 clear, name bits 6:3, length 2:0;
 * End Tag name 0xF; large items: bit 7 set, 16-bit length at byte 1). Memory ranges: 6.4.3.4.4
 * Memory32Fixed (0x86), 6.4.3.5.2 DWord (0x87), 6.4.3.5.1 QWord (0x8A), 6.4.3.5.4 Extended
 * (0x8B) address space descriptors, resource type 0 = memory.
 * _DSD: ACPI 6.5 6.2.5 and the UEFI "_DSD Device Properties" UUID
 * daffd814-6eba-4d8c-8a91-bc9bbf4aa301 (stored as the ASL ToUUID operator lays it out, 19.6).
 */
#include "efi/fw/aml_term.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define RES_LARGE 0x80
#define RES_SMALL_END 0xF
#define RES_MEM32_FIXED 0x86
#define RES_DWORD 0x87
#define RES_QWORD 0x8A
#define RES_EXTENDED 0x8B
#define RES_TYPE_MEMORY 0

#define HEADER_LEN 36

/* daffd814-6eba-4d8c-8a91-bc9bbf4aa301 as ToUUID stores it (first three fields little-endian) */
static const uint8_t dsd_props_uuid[16] = { 0x14, 0xd8, 0xff, 0xda, 0xba, 0x6e, 0x8c, 0x4d,
					    0x8a, 0x91, 0xbc, 0x9b, 0xbf, 0x4a, 0xa3, 0x01 };

/* ACPI 6.5 19.6, the ASL EISAID operator: three 5-bit letters ('A' = 1) and four hex digits,
 * stored big-endian in the low 32 bits of the integer as it sits in memory. */
static void eisaid(uint32_t id, char out[9])
{
	static const char hex[] = "0123456789ABCDEF";
	uint8_t b0 = id & 0xFF, b1 = id >> 8 & 0xFF, b2 = id >> 16 & 0xFF, b3 = id >> 24;
	out[0] = (char)('@' + (b0 >> 2 & 0x1F));
	out[1] = (char)('@' + ((b0 & 3) << 3 | b1 >> 5));
	out[2] = (char)('@' + (b1 & 0x1F));
	out[3] = hex[b2 >> 4];
	out[4] = hex[b2 & 0xF];
	out[5] = hex[b3 >> 4];
	out[6] = hex[b3 & 0xF];
	out[7] = 0;
}

static void add_range(struct aml_device *d, uint64_t base, uint64_t length, uint8_t kind)
{
	if (d->nranges >= AML_MAX_RANGES) {
		d->ranges_dropped++;
		return;
	}
	d->range[d->nranges++] = (struct aml_range){ base, length, kind };
}

/* _CRS: the resource descriptors of buffer v (at most BufferSize bytes). */
static void resources(struct walker *w, const struct value *v, struct aml_device *d)
{
	const uint8_t *t = w->t;
	uint32_t r = v->pos, end = v->end;
	if (v->count != AML_COUNT_UNKNOWN && v->count < end - r)
		end = r + v->count;
	d->has_crs = 1;
	while (r < end) {
		uint8_t tag = t[r];
		if (!(tag & RES_LARGE)) {
			if ((tag >> 3 & 0xF) == RES_SMALL_END)
				return;
			r += 1 + (tag & 7u);
			continue;
		}
		if (r + 3 > end || r + 3 + aml_rd(t + r + 1, 2) > end) {
			aml_defect(w, r, d->path, "_CRS descriptor 0x%02x runs past the buffer's end 0x%x", tag, end);
			return;
		}
		uint32_t l = (uint32_t)aml_rd(t + r + 1, 2);
		const uint8_t *x = t + r;
		if (tag == RES_MEM32_FIXED && l >= 9)
			add_range(d, aml_rd(x + 4, 4), aml_rd(x + 8, 4), AML_MEM32_FIXED);
		else if (tag == RES_DWORD && l >= 23 && x[3] == RES_TYPE_MEMORY)
			add_range(d, aml_rd(x + 10, 4), aml_rd(x + 22, 4), AML_DWORD_MEM);
		else if (tag == RES_QWORD && l >= 43 && x[3] == RES_TYPE_MEMORY)
			add_range(d, aml_rd(x + 14, 8), aml_rd(x + 38, 8), AML_QWORD_MEM);
		else if (tag == RES_EXTENDED && l >= 53 && x[3] == RES_TYPE_MEMORY)
			add_range(d, aml_rd(x + 16, 8), aml_rd(x + 40, 8), AML_EXT_MEM);
		r += 3 + l;
	}
	if (r > end)
		aml_defect(w, v->pos, d->path, "_CRS small descriptor runs past the buffer's end 0x%x", end);
}

/* One Package(){"name", value} of the device-properties package (value: an integer, a string,
 * a package, a buffer or a reference, UEFI "_DSD Device Properties" / ACPI 6.5 6.2.5). */
static void property(struct walker *w, const struct value *pk, struct aml_device *d)
{
	struct value k, val;
	uint32_t q;
	const char *why = "";
	if (pk->kind != V_PKG || aml_data_object(w, pk->pos, pk->end, &q, &k, &why) || k.kind != V_STR ||
	    aml_data_object(w, q, pk->end, &q, &val, &why) || val.kind == V_EXPR) {
		aml_defect(w, pk->pos, d->path, "_DSD property is not Package(){\"name\", data or reference}%s%s",
			   why[0] ? ": " : "", why);
		return;
	}
	if (d->nprops >= AML_MAX_PROPS) {
		d->props_dropped++;
		return;
	}
	static const uint8_t kind[] = { [V_INT] = AML_PROP_INT, [V_STR] = AML_PROP_STR, [V_BUF] = AML_PROP_BUF,
					[V_PKG] = AML_PROP_PKG, [V_NAME] = AML_PROP_REF };
	struct aml_prop *p = &d->prop[d->nprops++];
	memset(p, 0, sizeof(*p));
	aml_copy_str(w, &k, p->name, sizeof(p->name));
	p->kind = kind[val.kind];
	p->is_string = p->kind == AML_PROP_STR;
	p->value = val.kind == V_INT ? val.i : val.count;
	if (val.kind == V_STR)
		aml_copy_str(w, &val, p->str, sizeof(p->str));
	else if (val.kind == V_NAME)
		aml_name_text(w, &val, p->str, sizeof(p->str));
}

/* _DSD: pairs of (UUID buffer, package); the device-properties UUID's package is read. */
static void dsd(struct walker *w, const struct value *v, struct aml_device *d)
{
	uint32_t q = v->pos;
	const char *why;
	d->has_dsd = 1;
	if (v->count == AML_COUNT_UNKNOWN)
		return;
	for (uint32_t i = 0; q < v->end && i < v->count; i += 2) {
		struct value uuid, body;
		if (aml_data_object(w, q, v->end, &q, &uuid, &why) || aml_data_object(w, q, v->end, &q, &body, &why)) {
			aml_defect(w, q, d->path, "_DSD element %u: %s", i, why);
			return;
		}
		if (uuid.kind != V_BUF || uuid.end - uuid.pos < 16 || memcmp(w->t + uuid.pos, dsd_props_uuid, 16) ||
		    body.kind != V_PKG)
			continue;
		uint32_t e = body.pos;
		for (uint32_t k = 0; e < body.end && k < body.count; k++) {
			struct value pk;
			if (aml_data_object(w, e, body.end, &e, &pk, &why)) {
				aml_defect(w, e, d->path, "_DSD property %u: %s", k, why);
				return;
			}
			property(w, &pk, d);
		}
	}
}

static int hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }
static int upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* ACPI 6.5 6.1.5: a _HID string is a PNP ID (three uppercase letters, four hex digits) or an
 * ACPI ID (four uppercase letters or digits, four hex digits). 1 when hid is neither. */
static int hid_odd(const char *hid)
{
	size_t l = strlen(hid), lead = l == 7 ? 3 : l == 8 ? 4 : 0;
	if (!lead)
		return 1;
	for (size_t i = 0; i < l; i++)
		if (i < lead ? !(upper_or_digit(hid[i]) && (l == 8 || (hid[i] >= 'A' && hid[i] <= 'Z'))) : !hex_digit(hid[i]))
			return 1;
	return 0;
}

/* A _HID / _UID string into dst (AML_STR_LEN): whole, or cut with a defect naming its length. */
static void whole_string(struct walker *w, const struct value *v, char *dst, const struct aml_device *d, const char *what)
{
	size_t l = aml_copy_str(w, v, dst, AML_STR_LEN);
	if (l >= AML_STR_LEN)
		aml_defect(w, v->pos, d->path, "%s string of %u characters kept to its first %u (AML_STR_LEN)", what,
			   (unsigned)l, AML_STR_LEN - 1);
}

static void name_object(struct walker *w, const char *seg, const struct value *v, struct aml_device *d)
{
	if (!strcmp(seg, "_HID")) {
		if (v->kind == V_STR) {
			whole_string(w, v, d->hid, d, "_HID");
			d->hid_odd = (uint8_t)hid_odd(d->hid);
		} else if (v->kind == V_INT) {
			eisaid((uint32_t)v->i, d->hid);
			d->hid_odd = 0;
		}
	} else if (!strcmp(seg, "_UID")) {
		if (v->kind == V_INT) {
			d->has_uid = 1;
			d->uid_is_string = 0;
			d->uid = v->i;
			d->uid_str[0] = 0;
		} else if (v->kind == V_STR) {
			whole_string(w, v, d->uid_str, d, "_UID");
			d->has_uid = d->uid_is_string = 1;
			d->uid = 0;
			for (const char *c = d->uid_str; *c >= '0' && *c <= '9'; c++)
				d->uid = d->uid * 10 + (uint64_t)(*c - '0');
		}
	} else if (!strcmp(seg, "_CRS") && v->kind == V_BUF) {
		d->nranges = d->ranges_dropped = 0;
		resources(w, v, d);
	} else if (!strcmp(seg, "_DSD") && v->kind == V_PKG) {
		d->nprops = d->props_dropped = 0;
		dsd(w, v, d);
	}
}

static void walk(struct walker *w, uint32_t p, uint32_t end, int depth, const char *path, int32_t dev);

/* Room for one more device in the pool array (doubling it); 0 when the pool gives none. */
static int dev_room(struct walker *w, const char *path)
{
	struct aml_info *in = w->info;
	if (in->ndev < in->dev_cap)
		return 1;
	uint32_t cap = in->dev_cap ? 2 * in->dev_cap : 64;
	struct aml_device *d = in->pool_alloc ? in->pool_alloc((size_t)cap * sizeof(*d)) : NULL;
	if (!d) {
		if (!in->dev_dropped)
			aml_defect(w, 0, path, "the pool gave no room for more than %u devices; later devices not kept",
				   in->ndev);
		return 0;
	}
	if (in->dev) {
		memcpy(d, in->dev, (size_t)in->ndev * sizeof(*d));
		if (in->pool_release)
			in->pool_release(in->dev);
	}
	in->dev = d;
	in->dev_cap = cap;
	return 1;
}

/* DeviceOp body [body, oend) named `path`. */
static void device(struct walker *w, uint32_t off, uint32_t body, uint32_t oend, int depth, const char *path)
{
	struct aml_info *in = w->info;
	if (!dev_room(w, path)) {
		in->dev_dropped++;
		walk(w, body, oend, depth + 1, path, -1);
		return;
	}
	uint32_t slot = in->ndev++;
	struct aml_device *d = &in->dev[slot];
	memset(d, 0, sizeof(*d));
	memcpy(d->table, w->sig, 5);
	d->table_index = w->index;
	d->offset = off;
	aml_path_copy(d->path, path);
	walk(w, body, oend, depth + 1, path, (int32_t)slot);
	d = &in->dev[slot];             /* the array may have moved */
	int wanted = !in->nwant;
	for (uint32_t k = 0; k < in->nwant && !wanted; k++)
		wanted = !strcmp(d->hid, in->want_hid[k]);
	if (d->hid[0] && !wanted)
		in->dev_other++;
	if (!d->hid[0] || !wanted) {        /* not kept: later (nested) devices move down */
		memmove(d, d + 1, (in->ndev - slot - 1) * sizeof(*d));
		in->ndev--;
	}
}

static const char *op_name(uint8_t op, uint8_t ext)
{
	if (op == OP_EXT)
		switch (ext) {
		case EXT_DEVICE: return "Device";
		case EXT_PROCESSOR: return "Processor";
		case EXT_POWERRES: return "PowerResource";
		case EXT_THERMAL: return "ThermalZone";
		default: return "object";
		}
	switch (op) {
	case OP_SCOPE: return "Scope";
	case OP_METHOD: return "Method";
	case OP_IF: return "If";
	case OP_ELSE: return "Else";
	case OP_WHILE: return "While";
	case OP_NAME: return "Name";
	case OP_EXTERNAL: return "External";
	default:
		return (op >= 'A' && op <= 'Z') || op == '_' || op == OP_ROOT || op == OP_PARENT || op == OP_DUAL_NAME ||
		       op == OP_MULTI_NAME ? "name or method invocation" : "object";
	}
}

/* "0xNN" or "0x5B 0xNN" into buf. */
static void opcode_text(char *buf, size_t n, uint8_t op, uint8_t ext)
{
	if (op == OP_EXT)
		fmt_snprintf(buf, n, "0x5B 0x%02x", ext);
	else
		fmt_snprintf(buf, n, "0x%02x", op);
}

/* A term whose operands could not be sized: the defect names the statement (its opcode, at
 * the defect's offset) and, when that is another one, the operand that failed. */
static void term_defect(struct walker *w, uint32_t off, uint8_t op, uint8_t ext, const char *path, const char *why)
{
	char top[16], inner[16], at[48] = "";
	opcode_text(top, sizeof(top), op, ext);
	if (w->fail_off != off) {
		opcode_text(inner, sizeof(inner), w->fail_op, w->fail_ext);
		fmt_snprintf(at, sizeof(at), " (the operand at 0x%x, opcode %s)", w->fail_off, inner);
	}
	aml_defect(w, off, path, "%s (opcode %s): %s%s; rest of the scope not read", op_name(op, ext), top, why, at);
}

/* The TermList [p, end) in scope path (absolute). dev: the index of the Device whose names
 * these are, or -1. */
static void walk(struct walker *w, uint32_t p, uint32_t end, int depth, const char *path, int32_t dev)
{
	const uint8_t *t = w->t;
	if (depth > AML_MAX_DEPTH) {
		aml_defect(w, p, path, "nesting deeper than %u levels: not read", AML_MAX_DEPTH);
		return;
	}
	while (p < end) {
		uint32_t off = p, body, q;
		uint64_t oend;
		uint8_t op = t[p];
		uint8_t ext = op == OP_EXT && p + 1 < end ? t[p + 1] : 0;
		char sub[AML_PATH_LEN], seg[5];
		struct value v;
		const char *why = "";
		int scoped = op == OP_SCOPE || op == OP_METHOD || op == OP_IF || op == OP_ELSE || op == OP_WHILE ||
			     (op == OP_EXT && ext >= EXT_DEVICE && ext <= EXT_THERMAL);
		if (!scoped) {
			if (op == OP_NAME) {
				aml_path_copy(sub, path);
				if (aml_name_string(w, p + 1, end, &q, sub, seg)) {
					aml_defect(w, off, path, "Name (opcode 0x08): bad NameString; rest of the scope not read");
					return;
				}
				if (aml_term(w, q, end, path, 0, &p, &v, &why)) {
					term_defect(w, off, op, 0, path, why);
					return;
				}
				aml_declare(w, sub, AML_NOT_METHOD);
				if (dev >= 0)
					name_object(w, seg, &v, &w->info->dev[dev]);
			} else if (op == OP_EXTERNAL) {
				aml_path_copy(sub, path);
				if (aml_name_string(w, p + 1, end, &q, sub, NULL) || q + 2 > end) {
					aml_defect(w, off, path, "External (opcode 0x15): NameString, ObjectType or "
						   "ArgumentCount runs past the scope; rest of the scope not read");
					return;
				}
				if (t[q] == 8)          /* ObjectType MethodObj (ACPI 6.5 19.6.45) */
					aml_declare(w, sub, t[q + 1]);
				p = q + 2;
			} else if (aml_term(w, p, end, path, 0, &p, &v, &why)) {
				term_defect(w, off, op, ext, path, why);
				return;
			} else if (op == OP_EXT && (ext == EXT_REGION || ext == EXT_MUTEX || ext == EXT_EVENT ||
						    ext == EXT_DATAREGION)) {
				aml_path_copy(sub, path);           /* the name right after the opcode, sized above */
				if (!aml_name_string(w, off + 2, p, &q, sub, NULL))
					aml_declare(w, sub, AML_NOT_METHOD);
			}
			continue;
		}
		uint32_t at = p + (op == OP_EXT ? 2 : 1);
		if (aml_pkg_length(w, at, end, &body, &oend)) {
			aml_defect(w, off, path, "%s (opcode 0x%02x): malformed PkgLength; rest of the scope not read",
				   op_name(op, ext), op == OP_EXT ? ext : op);
			return;
		}
		aml_path_copy(sub, path);
		int named = op == OP_SCOPE || op == OP_METHOD || op == OP_EXT;
		if (named && aml_name_string(w, body, end, &body, sub, NULL)) {
			aml_defect(w, off, path, "%s: bad NameString; rest of the scope not read", op_name(op, ext));
			return;
		}
		if (oend > end) {
			aml_defect(w, off, named ? sub : path,
				   "%s PkgLength 0x%llx runs past its enclosing scope (ends at 0x%x): object cut short, "
				   "not used; rest of the scope not read", op_name(op, ext), (unsigned long long)(oend - at), end);
			return;
		}
		/* fixed operands before the TermList: MethodFlags; ProcID PblkAddr PblkLen; SystemLevel ResourceOrder */
		uint32_t fixed = op == OP_METHOD ? 1 : ext == EXT_PROCESSOR ? 6 : ext == EXT_POWERRES ? 3 : 0;
		if (body + fixed > oend) {
			aml_defect(w, off, sub, "%s: its name and fixed operands run past its PkgLength; rest of the scope "
				   "not read", op_name(op, ext));
			return;
		}
		if (op == OP_METHOD)
			aml_declare(w, sub, t[body] & 7);
		else if (op == OP_IF || op == OP_WHILE) {
			if (aml_term(w, body, (uint32_t)oend, path, 0, &body, &v, &why)) {
				term_defect(w, off, op, 0, path, why);
				return;
			}
			walk(w, body, (uint32_t)oend, depth + 1, path, dev);
		} else if (op == OP_ELSE)
			walk(w, body, (uint32_t)oend, depth + 1, path, dev);
		else if (op == OP_SCOPE)
			walk(w, body, (uint32_t)oend, depth + 1, sub, -1);
		else {
			aml_declare(w, sub, AML_NOT_METHOD);
			if (ext == EXT_DEVICE)
				device(w, off, body, (uint32_t)oend, depth, sub);
			else
				walk(w, body + fixed, (uint32_t)oend, depth + 1, sub, -1);
		}
		p = (uint32_t)oend;
	}
}

int aml_parse_table(const uint8_t *tbl, uint32_t len, uint32_t table_index, struct aml_info *info)
{
	struct walker w = { .t = tbl, .len = len, .index = table_index, .sig = "????", .info = info };
	info->ntables++;
	if (len >= 4) {
		memcpy(w.sig, tbl, 4);
		for (int i = 0; i < 4; i++)
			if (w.sig[i] < ' ' || w.sig[i] > '~')
				w.sig[i] = '?';
	}
	struct aml_table *tb = info->ntables <= AML_MAX_TABLES ? &info->table[info->ntables - 1] : NULL;
	if (tb) {
		memset(tb, 0, sizeof(*tb));
		memcpy(tb->sig, w.sig, 5);
		tb->index = table_index;
		tb->length = len;
		tb->rc = -1;
	}
	if (len < HEADER_LEN) {
		aml_defect(&w, 0, "\\", "definition block of %u bytes is shorter than its %u-byte header", len, HEADER_LEN);
		return -1;
	}
	uint32_t declared = (uint32_t)aml_rd(tbl + 4, 4);
	if (declared > len || declared < HEADER_LEN) {
		aml_defect(&w, 4, "\\", "header Length %u is outside [%u, %u]", declared, HEADER_LEN, len);
		return -1;
	}
	w.len = declared;
	walk(&w, HEADER_LEN, declared, 0, "\\", -1);
	if (tb) {
		tb->length = declared;
		tb->rc = 0;
	}
	return 0;
}

void aml_info_free(struct aml_info *info)
{
	if (info->pool_release) {
		if (info->dev)
			info->pool_release(info->dev);
		if (info->method)
			info->pool_release(info->method);
	}
	info->dev = NULL;
	info->method = NULL;
	info->ndev = info->dev_cap = info->nmethod = info->method_cap = 0;
}

const struct aml_device *aml_find_hid(const struct aml_info *info, const char *hid, uint32_t *from)
{
	for (uint32_t i = *from; i < info->ndev && i < info->dev_cap; i++)
		if (!strcmp(info->dev[i].hid, hid)) {
			*from = i + 1;
			return &info->dev[i];
		}
	*from = info->ndev;
	return NULL;
}

/* 1 when a string _UID is all decimal digits (its value then is d->uid). */
static int uid_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

const struct aml_device *aml_find_hid_uid(const struct aml_info *info, const char *hid, uint64_t uid)
{
	uint32_t from = 0;
	const struct aml_device *d;
	while ((d = aml_find_hid(info, hid, &from)) != NULL)
		if (d->has_uid && d->uid == uid && (!d->uid_is_string || uid_digits(d->uid_str)))
			return d;
	return NULL;
}

int aml_prop_u64(const struct aml_device *d, const char *name, uint64_t *value)
{
	for (uint32_t i = 0; i < d->nprops && i < AML_MAX_PROPS; i++)
		if (!strcmp(d->prop[i].name, name) && d->prop[i].kind == AML_PROP_INT) {
			*value = d->prop[i].value;
			return 1;
		}
	return 0;
}
