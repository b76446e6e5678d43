/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/nv_acpi_run.h"
#include "efi/measure/box_attach.h"
#include "efi/measure/cspmu_run.h"
#include "efi/fw/aml.h"
#include "efi/fw/firmware_tables.h"
#include "efi/out/nv_acpi_json.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "pmu/uncore/nv_acpi_pmu.h"

#include <string.h>

/* ACPI 6.5 5.2.9 table 5.9: FADT DSDT (32-bit) at offset 40, X_DSDT (64-bit) at 140. */
#define FADT_DSDT      40
#define FADT_X_DSDT    140

/* One definition block at addr: header mapped, Length bounded, checksum 0 (ACPI 6.5 5.2.6). */
static void read_block(const struct physmem *pm, uint64_t addr, const char *sig, uint32_t index, struct aml_info *aml)
{
	const uint8_t *h = physmem_map(pm, addr, ACPI_HEADER_LEN);
	uint32_t len = h ? le32(h + 4) : 0;
	const uint8_t *t = h && len >= ACPI_HEADER_LEN && len <= ACPI_MAX_TABLE_LEN ? physmem_map(pm, addr, len) : NULL;
	uint8_t sum = t ? byte_sum(t, len) : 0;
	if (!t || memcmp(t, sig, ACPI_SIG_LEN) || sum) {
		rep_line("uncore:     AML: %s at 0x%llx not read: %s", sig, (unsigned long long)addr,
			 !t ? "not mapped or bad Length" : sum ? "checksum is not 0" : "signature differs");
		return;
	}
	aml_parse_table(t, len, index, aml);
	if (aml->ntables <= AML_MAX_TABLES)
		aml->table[aml->ntables - 1].addr = addr;
}

static void read_namespace(const struct acpi_info *a, struct aml_info *aml)
{
	struct physmem pm = fw_physmem();
	const struct acpi_table *fadt = acpi_find(a, "FACP");
	const uint8_t *f = fadt ? physmem_map(&pm, fadt->addr, fadt->length) : NULL;
	if (f) {
		uint64_t dsdt = fadt->length >= FADT_X_DSDT + 8 ? le64(f + FADT_X_DSDT) : 0;
		if (!dsdt && fadt->length >= FADT_DSDT + 4)
			dsdt = le32(f + FADT_DSDT);
		if (dsdt)
			read_block(&pm, dsdt, "DSDT", 0, aml);
	}
	for (uint32_t i = 0; i < a->ntables && i < ACPI_MAX_TABLES; i++)
		if (a->table[i].valid && !strcmp(a->table[i].sig, "SSDT"))
			read_block(&pm, a->table[i].addr, "SSDT", i, aml);
}

/* The AML reader's pool (efi/fw/aml.h): boot-services pool memory, zeroed. */
static void *aml_pool_alloc(size_t bytes)
{
	return AllocateZeroPool(bytes);
}

static void aml_pool_release(void *p)
{
	FreePool(p);
}

static void props_of(const struct aml_device *ad, struct nv_apmu_props *pr)
{
	static const char *const gpu[2] = { "gpu0_en_mask", "gpu1_en_mask" };
	uint64_t v;
	memset(pr, 0, sizeof(*pr));
	if (aml_prop_u64(ad, "cpu_en_mask", &v)) {
		pr->has_cpu_en = 1;
		pr->cpu_en = (uint32_t)v;
	}
	for (int g = 0; g < 2; g++)
		if (aml_prop_u64(ad, gpu[g], &v)) {
			pr->has_gpu_en[g] = 1;
			pr->gpu_en[g] = (uint32_t)v;
		}
}

/* 1 when text contains word (no strstr in the x86_64 build). */
static int contains(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (; *text; text++)
		if (!strncmp(text, word, n))
			return 1;
	return 0;
}

static void status_record(const struct nv_apmu_dev *d, const struct aml_device *ad, const char *status, const char *why)
{
	nv_acpi_uncore_record(d, ad, NULL, status, why);
	rep_line("uncore:     %s %s: %s (%s)", d->name, ad->path, status, why);
}

/* The window as the attachment list runs it: the whole of it in one slice. */
struct whole { nv_acpi_window_fn window; void *arg; };

static uint64_t nv_whole(void *p, uint32_t slice, uint32_t nslices)
{
	(void)slice;
	(void)nslices;
	const struct whole *w = p;
	nv_acpi_window_fn window = w->window;
	void *arg = w->arg;
	return window(arg);
}

static int measure_one(const struct hw *hw, const struct efiperf_config *cfg, const struct aml_device *ad,
		       const struct nv_apmu_type *t, nv_acpi_window_fn window, void *arg, struct nv_apmu_result *res)
{
	struct nv_apmu_dev d;
	char why[200];
	uint64_t base[AML_MAX_RANGES];
	struct nv_apmu_props pr;
	char field[AML_PATH_LEN + 48];
	for (uint32_t i = 0; i < ad->nranges && i < AML_MAX_RANGES; i++)
		base[i] = ad->range[i].base;
	props_of(ad, &pr);
	int bad = nv_apmu_setup(t, (uint32_t)ad->uid, base, ad->nranges, &pr, &d, why, sizeof(why));
	if (!bad && !ad->has_uid) {
		fmt_snprintf(why, sizeof(why), "%s (%s) has no _UID: its socket is unknown", ad->path, t->hid);
		bad = 1;
	}
	if (bad) {
		status_record(&d, ad, "error", why);
		rep_error("uncore", "%s", why);
		return -1;
	}
	/* every _CRS memory resource through the one checker (efi/fw/fwaddr.h) before any access */
	for (uint32_t i = 0; i < ad->nranges && i < AML_MAX_RANGES; i++) {
		fmt_snprintf(field, sizeof(field), "%s _CRS memory resource %u", ad->path, i);
		if (fw_addr_use(ad->table, field, ad->range[i].base, ad->range[i].length)) {
			fmt_snprintf(why, sizeof(why), "%s 0x%llx refused: not a register address (firmware_defect record)",
				     field, (unsigned long long)ad->range[i].base);
			status_record(&d, ad, "error", why);
			return 0;
		}
	}
	if (cfg->uncore_events[0] && !contains(cfg->uncore_events, t->pmu)) {
		status_record(&d, ad, "off", "uncore_events names none of its events");
		return 0;
	}
	if (nv_apmu_filter(&d, cfg->uncore_events, why, sizeof(why))) {
		status_record(&d, ad, "error", why);
		rep_error("config", "%s: uncore_events: %s", cfg->origin[CFG_UNCORE_EVENTS], why);
		return -1;
	}
	struct nv_apmu_attach na = { .d = &d, .res = res };
	struct attachment a = { .ops = &nv_apmu_attach_ops, .self = &na };
	struct attach_list l = { .a = &a, .n = 1, .hw = hw };
	struct whole w = { window, arg };
	attach_prepare_all(&l);
	attach_run_slices(&l, nv_whole, &w);
	attach_read_all(&l);
	attach_restore_all(&l);
	for (uint32_t i = 0; res->status && res->fault != HW_OK && i < ad->nranges && i < AML_MAX_RANGES; i++)
		if (res->fault_at - ad->range[i].base < ad->range[i].length) {
			fmt_snprintf(field, sizeof(field), "%s _CRS memory resource %u", ad->path, i);
			fw_addr_fault(ad->table, field, res->fault_at, res->fault);
		}
	nv_acpi_uncore_record(&d, ad, res, NULL, NULL);
	rep_line("uncore:     %s (%s %s, %u instances): %s%s%s", d.name, t->hid, ad->path, t->ninst,
		 res->status ? "error" : res->state == NV_APMU_COUNTING ? "counting" : "not-advancing",
		 res->status ? ": " : "", res->status ? res->why : "");
	for (uint32_t l = 0; !res->status && l < res->nlat; l++)
		if (res->lat[l].valid)
			rep_line("uncore:       %s latency %llu.%03llu ns (%llu.%03llu cycles at %llu.%03llu GHz)",
				 res->lat_direction[l], (unsigned long long)(res->lat[l].ns_milli / 1000),
				 (unsigned long long)(res->lat[l].ns_milli % 1000),
				 (unsigned long long)(res->lat[l].cycles_milli / 1000),
				 (unsigned long long)(res->lat[l].cycles_milli % 1000),
				 (unsigned long long)(res->lat[l].freq_ghz_milli / 1000),
				 (unsigned long long)(res->lat[l].freq_ghz_milli % 1000));
	if (res->status)
		rep_error("uncore", "%s", res->why);
	return res->status;
}

int nv_acpi_run(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		struct cspmu_plan *cp, nv_acpi_window_fn window, void *arg, uint32_t *found)
{
	*found = 0;
	if (!p->acpi)
		return 0;
	struct aml_info *aml = AllocateZeroPool(sizeof(*aml));
	struct nv_apmu_result *res = AllocateZeroPool(sizeof(*res));
	if (!aml || !res) {
		rep_error("uncore", "cannot allocate the AML reader's %llu bytes",
			  (unsigned long long)(sizeof(*aml) + sizeof(*res)));
		if (aml)
			FreePool(aml);
		if (res)
			FreePool(res);
		return -1;
	}
	const char *hids[8 + ACPI_MAX_APMT];
	char comp_hid[ACPI_MAX_APMT][9];   /* the APMT companions' _HIDs hids[] points at */
	aml->pool_alloc = aml_pool_alloc;
	aml->pool_release = aml_pool_release;
	aml->nwant = nv_apmu_hids(hids, 8);
	aml->nwant += cspmu_companion_hids(p, comp_hid, hids + aml->nwant, ACPI_MAX_APMT);   /* APMT ACPI-device nodes */
	aml->want_hid = hids;
	read_namespace(p->acpi, aml);
	nv_acpi_aml_record(aml);
	rep_line("uncore:     AML reader: %u definition block(s), %u NVIDIA PMU / APMT companion device(s) (%u "
		 "other devices with a _HID), %u defect(s)", aml->ntables, aml->ndev, aml->dev_other,
		 aml->ndefects + aml->defects_dropped);
	for (uint32_t i = 0; i < aml->ndefects && i < AML_MAX_DEFECTS; i++)
		rep_line("uncore:     AML defect: %s", aml->defect[i]);
	cspmu_companions(cp, p, aml);      /* the APMT ACPI-device nodes' devices, for measure_cspmu */
	int rc = 0;
	for (uint32_t i = 0; i < aml->ndev; i++) {
		const struct nv_apmu_type *t = nv_apmu_for_hid(aml->dev[i].hid);
		if (!t)
			continue;
		(*found)++;
		if (measure_one(hw, cfg, &aml->dev[i], t, window, arg, res))
			rc = -1;
	}
	FreePool(res);
	aml_info_free(aml);
	FreePool(aml);
	return rc;
}
