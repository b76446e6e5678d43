/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `cxl` record (one per CXL function), the `cxl_host_bridge` record (one per CEDT CHBS) and
 * the console tree: host bridges with their decoders, then each CXL function under its parent
 * port with its register blocks, decoder ranges, device state and mailbox answers.
 */
#ifndef EFIPERF_CXL_JSON_H
#define EFIPERF_CXL_JSON_H

#include <stddef.h>
#include "efi/fw/acpi_cedt.h"
#include "efi/out/jsonl.h"
#include "efi/pcie/cxl.h"

/* Members of a `cxl` record (the caller opened it with its "type"). parent_bdf: "" for none. */
void cxl_func_to_json(const struct cxl_func *c, const char *parent_bdf, struct json *j);
/* Members of a `cxl_host_bridge` record. */
void cxl_host_bridge_to_json(const struct acpi_cedt_chbs *h, const struct cxl_component *c, const char *defect,
			     struct json *j);
/* The component registers as a JSON member named key. */
void cxl_component_to_json(const struct cxl_component *c, const char *key, struct json *j);

/* Console lines: each call writes line i of a function's block (returns 0 when there is none),
 * indented by depth. */
int cxl_func_line(const struct cxl_func *c, int depth, int i, char *buf, size_t n);
/* Line i of a component block's decoders ("decoder 0: 0x110000000+0x100000000 1 way 256 B committed"). */
int cxl_decoder_line(const struct cxl_component *c, int depth, int i, char *buf, size_t n);

#endif
