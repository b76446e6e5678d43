/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals of the AML reader shared by efi/fw/aml.c (the TermList walk, _HID/_UID/_CRS/_DSD)
 * and efi/fw/aml_term.c (PkgLength, NameString and data-object decoding, defects). Opcode
 * values: ACPI 6.5 section 20.2 (see efi/fw/aml.c's header comment).
 */
#ifndef EFIPERF_AML_TERM_H
#define EFIPERF_AML_TERM_H

#include <stddef.h>
#include <stdint.h>
#include "efi/fw/aml.h"

#define OP_ZERO 0x00
#define OP_ONE 0x01
#define OP_ALIAS 0x06
#define OP_NAME 0x08
#define OP_BYTE 0x0A
#define OP_WORD 0x0B
#define OP_DWORD 0x0C
#define OP_STRING 0x0D
#define OP_QWORD 0x0E
#define OP_SCOPE 0x10
#define OP_BUFFER 0x11
#define OP_PACKAGE 0x12
#define OP_VARPACKAGE 0x13
#define OP_METHOD 0x14
#define OP_EXTERNAL 0x15
#define OP_DUAL_NAME 0x2E
#define OP_MULTI_NAME 0x2F
#define OP_EXT 0x5B
#define OP_ROOT '\\'
#define OP_PARENT '^'
#define OP_IF 0xA0
#define OP_ELSE 0xA1
#define OP_WHILE 0xA2
#define OP_NOOP 0xA3
#define OP_ONES 0xFF
#define OP_LOCAL0 0x60
#define OP_ARG6 0x6E
#define EXT_MUTEX 0x01
#define EXT_EVENT 0x02
#define EXT_REVISION 0x30
#define EXT_DEBUG 0x31
#define EXT_TIMER 0x33
#define EXT_REGION 0x80
#define EXT_FIELD 0x81
#define EXT_DEVICE 0x82
#define EXT_PROCESSOR 0x83
#define EXT_POWERRES 0x84
#define EXT_THERMAL 0x85
#define EXT_INDEXFIELD 0x86
#define EXT_BANKFIELD 0x87
#define EXT_DATAREGION 0x88

/* A sized operand: V_INT constant, V_STR string bytes, V_BUF / V_PKG (PkgLength extent), V_NAME
 * a NameString that is no method invocation, V_EXPR anything else (an expression, a method
 * invocation, LocalX / ArgX, Debug). */
enum vkind { V_INT, V_STR, V_BUF, V_PKG, V_NAME, V_EXPR };

#define AML_COUNT_UNKNOWN 0xFFFFFFFFu   /* a Buffer or VarPackage whose size is not a constant */

struct value {
	uint8_t kind;
	uint64_t i;                 /* V_INT */
	uint32_t pos, end;          /* V_STR: chars; V_BUF: bytes; V_PKG: elements; V_NAME: the NameString */
	uint32_t count;             /* V_PKG: NumElements; V_BUF: BufferSize (or AML_COUNT_UNKNOWN) */
};

struct walker {
	const uint8_t *t;
	uint32_t len, index;
	char sig[5];
	struct aml_info *info;
	uint32_t fail_off;          /* where the last aml_term() failure was */
	uint8_t fail_op, fail_ext;  /* the opcode there (fail_ext: its 0x5B-prefixed byte, or 0) */
};

/* A defect of the table being walked: "SIG[index] @0xOFF path: what". */
void aml_defect(struct walker *w, uint32_t off, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* n little-endian bytes at p. */
uint64_t aml_rd(const uint8_t *p, int n);
/* PkgLength at p: *obj_end = p + its value (the object's end), *body = first byte after it.
 * -1 when malformed or the encoding itself runs past end; the caller checks *obj_end. */
int aml_pkg_length(const struct walker *w, uint32_t p, uint32_t end, uint32_t *body, uint64_t *obj_end);
void aml_path_copy(char *dst, const char *src);
/* NameString at p (see aml_term.c); path updated when given, last gets the final NameSeg. */
int aml_name_string(const struct walker *w, uint32_t p, uint32_t end, uint32_t *after, char *path, char *last);
#define AML_NOT_METHOD 8          /* aml_declare(): an object that is no method */
/* Record that the object at path (absolute) is a method of argc arguments (ACPI 6.5 19.6.85:
 * 0..7), or AML_NOT_METHOD. The first declaration of a path stands. */
void aml_declare(struct walker *w, const char *path, uint32_t argc);
/* One operand (TermArg, SuperName, Target, DataRefObject, PackageElement) at p, sized as
 * ACPICA's parser does, inside [p, end). scope: the absolute scope it is read in, for method
 * invocations; NULL reads names as plain references (package elements). depth: how deep in
 * operands (0 at a statement). *after: past it. -1 with *why (and w->fail_off / fail_op)
 * when it cannot be sized or runs past end. */
int aml_term(struct walker *w, uint32_t p, uint32_t end, const char *scope, int depth, uint32_t *after,
	     struct value *v, const char **why);
/* A package element or data object at p: aml_term with names as plain references. */
int aml_data_object(struct walker *w, uint32_t p, uint32_t end, uint32_t *after, struct value *v,
		    const char **why);
/* The bytes of v (a string) into dst, cut to n - 1; the length it had. */
size_t aml_copy_str(const struct walker *w, const struct value *v, char *dst, size_t n);
/* A NameString v as written ("\\_SB_.PCI0", "^^FOO") into dst, cut to n - 1. */
void aml_name_text(const struct walker *w, const struct value *v, char *dst, size_t n);

#endif
