/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: efi/acpi*.c over an arbitrary memory image.
 *   bytes 0..7   RSDP offset into the image (little-endian, taken modulo the image size)
 *   byte  8      bit 0: fix the checksums of the RSDP, of the root table and of every table it
 *                lists before parsing, so mutations reach the table parsers instead of
 *                stopping at validation (the parser re-validates everything anyway)
 *   bytes 9..    the image, at physical address FUZZ_BASE
 * Checks beyond not crashing: counts stay within their arrays, every defect string is
 * terminated, and the JSON record is valid JSON whenever it fit in its buffer.
 * Each APMT node the parser keeps is then driven through the CoreSight PMU backend
 * (pmu/uncore/cspmu.h, the NVIDIA table) on a page-pair model at the node's base addresses,
 * its PMCFGR / PMIIDR taken from the node's instance primary (low / high half) and its
 * behaviour (memory or hardware) from instance secondary bit 0: every node is at least 56
 * bytes, a probe refuses a zero or unaligned page, and after start / stop / restore the model's
 * pages are byte for byte as they were. The ACPI-device nodes' companion _HIDs are checked
 * (check_companions).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/apmt_companion.h"
#include "pmu/uncore/cspmu.h"
#include "pmu/uncore/nvidia_cspmu.h"
#include "tests/model/cspmu_model.h"
#include "../unit/json_check.h"

#define FUZZ_BASE   0x7f000000ull    /* tests/unit/acpi_synth.h SYN_BASE: its images are seeds */
#define HDR         9
#define FIX_SUMS    0x01

static struct acpi_info info;
static char json_buf[1 << 18];

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static void fix(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;
	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)(0x100 - s);
}

/* Fixes the checksum of the table at physical addr when its Length fits in the image. */
static uint8_t *fix_table(uint8_t *img, size_t size, uint64_t addr)
{
	if (addr < FUZZ_BASE || addr - FUZZ_BASE > size || size - (addr - FUZZ_BASE) < ACPI_HEADER_LEN)
		return NULL;
	uint8_t *t = img + (addr - FUZZ_BASE);
	uint32_t len = rd32(t + 4);
	if (len < ACPI_HEADER_LEN || len > size - (addr - FUZZ_BASE))
		return NULL;
	fix(t, len, 9);
	return t;
}

static void fix_all(uint8_t *img, size_t size, size_t rsdp)
{
	if (size - rsdp < 36)
		return;
	uint8_t *r = img + rsdp;
	fix(r, 20, 8);
	fix(r, 36, 32);
	uint64_t roots[2] = { rd64(r + 24), rd32(r + 16) };
	for (int k = 0; k < 2; k++) {
		uint8_t *t = fix_table(img, size, roots[k]);
		if (!t)
			continue;
		unsigned e = k == 0 ? 8 : 4;
		uint32_t n = (rd32(t + 4) - ACPI_HEADER_LEN) / e;
		for (uint32_t i = 0; i < n && i < 2 * ACPI_MAX_TABLES; i++)
			fix_table(img, size, e == 8 ? rd64(t + 36 + 8 * i) : rd32(t + 36 + 4 * i));
		fix_table(img, size, roots[k]);   /* a table may overlap its root: redo the root */
	}
}

static struct cspmu_model model, before;
static struct cspmu_info pinfo;
static struct nv_cspmu_req preq;
static struct cspmu_run prun;

static void drive_cspmu(const struct acpi_apmt_node *a)
{
	char why[200] = "";
	struct cspmu_node n = { .id = a->id, .type = a->type, .flags = a->flags, .base0 = a->base0, .base1 = a->base1,
				.inst_primary = a->inst_primary, .inst_secondary = a->inst_secondary,
				.affinity = a->proc_affinity, .impl_id = a->impl_id };
	assert(a->length >= 56);
	cspmu_model_init(&model, a->base0, a->base1, a->flags & CSPMU_APMT_DUAL_PAGE, a->inst_secondary & 1,
			 a->flags & CSPMU_APMT_ATOMIC, (uint32_t)a->inst_primary, (uint32_t)(a->inst_primary >> 32));
	struct hw h = cspmu_model_hw(&model);
	uint64_t p1 = (a->flags & CSPMU_APMT_DUAL_PAGE) ? a->base1 : a->base0;
	int rc = cspmu_probe(&h, &n, &pinfo, why, sizeof(why));
	assert(memchr(why, 0, sizeof(why)));
	if (!a->base0 || !p1 || (a->base0 & 0xFFF) || (p1 & 0xFFF)) {
		assert(rc == -1);
		return;
	}
	if (rc)
		return;
	const struct nv_cspmu_desc *d = nv_cspmu_match(pinfo.pmiidr);
	char name[NV_CSPMU_NAME_MAX];
	nv_cspmu_name(d, 0, a->inst_secondary, a->id, name, sizeof(name));
	if (nv_cspmu_request(d, name, &pinfo, "", &preq, why, sizeof(why)))
		return;
	before = model;
	if (!cspmu_start(&h, &pinfo, preq.ev, preq.nev, &prun)) {
		cspmu_model_tick(&model, 3);
		cspmu_stop(&h, &pinfo, preq.ev, preq.nev, &prun);
	}
	cspmu_restore(&h, &pinfo, &prun);
	assert(!memcmp(model.page, before.page, sizeof(model.page)));
}

static void check_str(const char *s, size_t cap)
{
	assert(memchr(s, '\0', cap) != NULL);
}

/* The companion _HIDs of the ACPI-device nodes (efi/fw/apmt_companion.h): each 1..8 printable
 * characters, no two alike; with no namespace read, no node finds its device and says why. */
static void check_companions(const struct acpi_apmt *t)
{
	static char store[ACPI_MAX_APMT][9];
	const char *want[ACPI_MAX_APMT];
	uint32_t n = apmt_companion_hids(t, store, want, ACPI_MAX_APMT);
	assert(n <= ACPI_MAX_APMT);
	for (uint32_t i = 0; i < n; i++) {
		size_t len = strlen(want[i]);
		assert(len >= 1 && len <= 8);
		for (uint32_t k = 0; k < i; k++)
			assert(strcmp(want[i], want[k]));
	}
	for (uint32_t i = 0; i < t->nnodes; i++) {
		struct apmt_companion c;
		apmt_companion_of(&t->node[i], NULL, &c);
		assert(!c.found && c.why[0] && memchr(c.why, 0, sizeof(c.why)) && memchr(c.hid, 0, sizeof(c.hid)));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size <= HDR)
		return 0;
	size_t n = size - HDR;
	uint8_t *img = malloc(n);   /* exact size: ASan sees any read past the image */
	if (!img)
		return 0;
	memcpy(img, data + HDR, n);
	size_t rsdp = (size_t)(rd64(data) % n);
	if (data[8] & FIX_SUMS)
		fix_all(img, n, rsdp);
	struct physmem_buf b = { .data = img, .base = FUZZ_BASE, .size = n };
	struct physmem pm = { .map = physmem_buf_map, .ctx = &b };

	int rc = acpi_parse(&pm, FUZZ_BASE + rsdp, &info);
	assert(rc == 0 || rc == -1);
	assert(rc == 0 || info.defect[0]);
	assert(info.ntables <= ACPI_MAX_TABLES && info.nmcfg <= ACPI_MAX_MCFG);
	assert(info.madt.ncpu <= ACPI_MAX_CPU_IDS && info.srat.ncpu <= ACPI_MAX_SRAT_CPUS);
	assert(info.srat.nmem <= ACPI_MAX_SRAT_MEM && info.apmt.nnodes <= ACPI_MAX_APMT);
	assert(info.ndups <= ACPI_MAX_DUPS && info.nlimits <= ACPI_MAX_LIMITS);
	for (uint32_t i = 0; i < info.ndups; i++)
		for (uint32_t k = 0; k < info.dup[i].ndiff && k < ACPI_DUP_FIELDS; k++) {
			check_str(info.dup[i].diff[k].name, ACPI_DUP_NAME_LEN);
			check_str(info.dup[i].diff[k].used, ACPI_DUP_VALUE_LEN);
			check_str(info.dup[i].diff[k].other, ACPI_DUP_VALUE_LEN);
		}
	for (uint32_t i = 0; i < info.ntables; i++) {
		check_str(info.table[i].defect, ACPI_DEFECT_LEN);
		assert(info.table[i].valid || info.table[i].defect[0]);
		assert(!info.table[i].parsed || info.table[i].valid);
	}
	check_str(info.root_note, ACPI_DEFECT_LEN);
	check_str(info.apmt.defect, ACPI_DEFECT_LEN);
	for (uint32_t i = 0; i < info.apmt.nnodes; i++)
		drive_cspmu(&info.apmt.node[i]);
	check_companions(&info.apmt);

	struct strbuf sb;
	struct json j;
	sb_init(&sb, json_buf, sizeof(json_buf));
	json_begin(&j, &sb);
	acpi_to_json(&info, &j);
	json_end(&j);
	assert(!j.error);
	if (!sb.overflow)
		assert(json_check_object(json_buf, sb.len));
	free(img);
	return 0;
}
