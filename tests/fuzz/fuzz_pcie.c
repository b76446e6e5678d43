/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: PCI enumeration and capability decoding (efi/pcie*.c) over config spaces
 * filled from the input. Four functions (00:00.0, 00:01.0, 01:00.0, 01:00.1) take 4 KiB each
 * from the input in that order; bytes the input does not cover read as 0xff. Bus 0 and 1 of
 * segment 0 are enumerated (so bridges, multi-function bits and parent links all come from the
 * input), and every function is written as JSON and as a console line.
 * Beyond not crashing or hanging, every run checks that:
 *   - the scan stays within its array and every count within its bound;
 *   - every defect string is terminated within its array;
 *   - each record is valid JSON, smaller than PCIE_JSON_BOUND (what the glue's record buffer
 *     must hold), and the console line fits 512 bytes.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "efi/pcie/pcie.h"
#include "tests/model/pci_model.h"
#include "../unit/json_check.h"

#define NFUNCS 4
#define PCIE_JSON_BOUND 8192
#define LINE_BYTES 512

static struct pci_model m;
static struct pcie_func funcs[16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct hw_pci_addr at[NFUNCS] = { { 0, 0, 0, 0 }, { 0, 0, 1, 0 }, { 0, 1, 0, 0 }, { 0, 1, 0, 1 } };
	pci_model_init(&m);
	for (int i = 0; i < NFUNCS; i++) {
		struct pci_model_func *f = pci_model_add(&m, at[i].segment, at[i].bus, at[i].dev, at[i].func, 0, 0, 0, 0);
		size_t from = (size_t)i * PCI_MODEL_CFG_SIZE;
		size_t n = size > from ? size - from : 0;
		if (n > PCI_MODEL_CFG_SIZE)
			n = PCI_MODEL_CFG_SIZE;
		memset(f->cfg, 0xff, sizeof(f->cfg));
		if (n)
			memcpy(f->cfg, data + from, n);
	}
	struct hw h = pci_model_hw(&m);
	struct pcie_scan s;
	const struct pcie_bus_range r = { 0, 0, 1 };
	pcie_scan_init(&s, funcs, (int)(sizeof(funcs) / sizeof(funcs[0])));
	int n = pcie_enumerate(&h, &s, &r, 1);
	assert(n == s.n && n >= 0 && n <= NFUNCS);
	assert(s.read_errors == 0);

	for (int i = 0; i < s.n; i++) {
		const struct pcie_func *f = &s.funcs[i];
		assert(f->ncaps >= 0 && f->ncaps <= PCIE_MAX_CAPS);
		assert(f->next >= 0 && f->next <= PCIE_MAX_EXT_CAPS);
		assert(f->ndvsec >= 0 && f->ndvsec <= PCIE_MAX_DVSEC);
		assert(f->parent >= -1 && f->parent < s.n);
		for (int k = 0; k < f->ndefects && k < PCIE_MAX_DEFECTS; k++)
			assert(memchr(f->defects[k], '\0', PCIE_DEFECT_LEN) != NULL);

		static char buf[PCIE_JSON_BOUND * 2];
		struct strbuf sb;
		struct json j;
		sb_init(&sb, buf, sizeof(buf));
		json_begin(&j, &sb);
		json_str(&j, "type", "pcie");
		pcie_func_to_json(f, &j);
		json_end(&j);
		assert(!j.error && !sb.overflow && sb.len < PCIE_JSON_BOUND);
		assert(json_check_object(buf, sb.len));

		char line[LINE_BYTES * 2];
		pcie_func_line(f, line, sizeof(line));
		assert(strlen(line) < LINE_BYTES);
		pcie_nvidia_map_line(f, line, sizeof(line));
	}
	return 0;
}
