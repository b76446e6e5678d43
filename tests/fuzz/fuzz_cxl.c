/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the CXL function reader (efi/pcie/cxl_*.c) on the type 3 register model
 * (tests/model/cxl_model.c) whose Register Locator entries, component registers, device
 * registers and mailbox answers come from the input. Checks beyond not crashing (ASan sees any
 * read outside the model's arrays): counts stay within their arrays, every string is
 * terminated, a block read only inside its BAR, the mailbox bounded by the model's clock, and
 * the record is valid JSON whenever it fit.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/pcie/cxl.h"
#include "efi/out/cxl_json.h"
#include "tests/model/cxl_model.h"
#include "../unit/json_check.h"

static struct cxl_model m;
static struct cxl_func c;
static struct pcie_func pf;
static char json_buf[1 << 17];

/* Input layout: 24 bytes of Register Locator entries (3 x 8), then the CXL.cache/mem range's
 * first 0x200 bytes, then the device registers' first 0x100 and the Identify/Health answers. */
#define REGLOC_BYTES 24
#define CM_BYTES     0x200
#define DEV_BYTES    0x100

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cxl_model_init(&m);
	size_t o = 0;
	for (unsigned k = 0; k < REGLOC_BYTES / 4 && o + 4 <= size; k++, o += 4) {
		uint32_t v;
		memcpy(&v, data + o, 4);
		pci_model_w32(m.f, 0x140 + 0x0C + 4 * k, v);
	}
	size_t n = size - o < CM_BYTES ? size - o : CM_BYTES;
	memcpy((uint8_t *)m.comp + 0x1000, data + o, n);
	o += n;
	n = size - o < DEV_BYTES ? size - o : DEV_BYTES;
	memcpy((uint8_t *)m.dev, data + o, n);
	o += n;
	n = size - o < sizeof(m.identify) ? size - o : sizeof(m.identify);
	memcpy(m.identify, data + o, n);
	o += n;
	n = size - o < sizeof(m.health) ? size - o : sizeof(m.health);
	memcpy(m.health, data + o, n);
	m.mbox_stuck = size & 1;
	struct hw hw = cxl_model_hw(&m);
	static const struct memrange ram[] = { { 0, 0x80000000ull } };
	struct cxl_env env = { .hw = &hw, .ram = ram, .nram = 1, .now = cxl_model_now, .arg = &m, .hz = 1000 };
	struct hw_pci_addr a = { 0, CXLM_BDF_BUS, 0, 0 };
	if (pcie_probe_func(&hw, a, &pf) != HW_OK)
		return 0;
	cxl_probe(&env, &pf, &c);
	assert(c.nblocks <= CXL_MAX_REGBLOCKS && c.ncpmu <= CXL_MAX_CPMU);
	assert(c.comp.ncaps <= CXL_MAX_CM_CAPS && c.devregs.ncaps <= CXL_MAX_DEV_CAPS);
	assert(c.comp.hdm.count <= CXL_HDM_MAX_DECODERS);
	for (int k = 0; k < c.nblocks; k++) {
		const struct cxl_regblock *b = &c.block[k];
		assert(memchr(b->defect, 0, sizeof(b->defect)));
		assert(!b->addr || (b->addr >= b->bar_base && b->addr < b->bar_base + b->bar_size));
	}
	for (int i = 0; i < c.ndefects && i < CXL_MAX_DEFECTS; i++)
		assert(memchr(c.defects[i], 0, CXL_DEFECT_LEN));
	assert(m.ticks < 8 * 2100);   /* at most a 2 s timeout per command on the 1000 Hz clock */
	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	cxl_func_to_json(&c, "0000:0c:00.0", &j);
	json_end(&j);
	assert(!j.error);
	if (!sb.overflow)
		assert(json_check_object(json_buf, sb.len));
	return 0;
}
