/* SPDX-License-Identifier: BSD-2-Clause */
/* The `health` object of a window's record (health_json.h). */
#include "efi/out/health_json.h"
#include "efi/pcie/pcie.h"

#define MICRO_PER_MILLI 1000u
#define NS_PER_S 1000000000ull
#define HZ_PER_MHZ 1000000u

static void name_out(struct json *j, const struct pcie_bit_name *t, uint32_t bits)
{
	const char *n;
	for (int k = 0; (n = pcie_bit_name(t, bits, k)); k++)
		json_str(j, NULL, n);
}

static void names(struct json *j, const char *key, const struct pcie_bit_name *t, uint32_t bits)
{
	json_arr(j, key);
	name_out(j, t, bits);
	json_close(j);
}

static int absent(struct json *j, const char *key, const struct attachment *a)
{
	if (a && a->st == HW_OK && !a->why)
		return 0;
	json_obj(j, key);
	json_str(j, "absent", a && a->why ? a->why : "not read");
	json_close(j);
	return 1;
}

static void fn_json(struct json *j, const struct health_fn *f, int clear)
{
	char bdf[16];
	json_obj(j, NULL);
	pcie_bdf_str(f->before.addr, bdf, sizeof(bdf));
	json_str(j, "bdf", bdf);
	if (f->before.why || f->after.why) {
		json_str(j, "absent", f->before.why ? f->before.why : f->after.why);
		json_close(j);
		return;
	}
	json_str(j, "baseline", f->baseline);
	json_bool(j, "aer", f->before.aer != 0);
	json_u64(j, "correctable", f->d.correctable);
	json_u64(j, "uncorrectable", f->d.uncorrectable);
	names(j, "cor_new", pcie_cor_names, f->d.cor_new);
	names(j, "uncor_new", pcie_uncor_names, f->d.uncor_new);
	names(j, "devsta_new", pcie_devsta_names, f->d.devsta_new);
	names(j, "lnksta_new", pcie_lnksta_names, f->d.lnksta_new);
	json_arr(j, "already_set");
	name_out(j, pcie_cor_names, f->d.cor_before);
	name_out(j, pcie_uncor_names, f->d.uncor_before);
	json_close(j);
	json_hex(j, "cor_status", f->after.cor);
	json_hex(j, "uncor_status", f->after.uncor);
	json_hex(j, "devsta", f->after.devsta);
	json_milli(j, "speed_gts_before", pcie_speed_mgts(f->d.speed_before, 0));
	json_milli(j, "speed_gts_after", pcie_speed_mgts(f->d.speed_after, 0));
	json_u64(j, "width_before", f->d.width_before);
	json_u64(j, "width_after", f->d.width_after);
	json_u64(j, "link_events", f->d.link_events);
	if (clear) {
		json_arr(j, "cleared");
		name_out(j, pcie_devsta_names, f->cleared_devsta);
		name_out(j, pcie_lnksta_names, f->cleared_lnksta);
		name_out(j, pcie_cor_names, f->cleared_cor);
		name_out(j, pcie_uncor_names, f->cleared_uncor);
		json_close(j);
		json_bool(j, "clear_failed", f->clear_failed);
	}
	json_close(j);
}

static void aer_json(struct json *j, const struct health_run *h)
{
	if (absent(j, "aer", health_kind(h, "aer")))
		return;
	json_obj(j, "aer");
	json_u64(j, "correctable", h->correctable);
	json_u64(j, "uncorrectable", h->uncorrectable);
	json_u64(j, "link_events", h->link_events);
	json_bool(j, "cleared_before", h->o.aer_clear);
	json_arr(j, "functions");
	for (int i = 0; i < h->nfn; i++)
		fn_json(j, &h->fn[i], h->o.aer_clear);
	json_close(j);
	json_close(j);
}

static void mca_json(struct json *j, const struct health_run *h)
{
	if (absent(j, "mca", health_kind(h, "mca")))
		return;
	json_obj(j, "mca");
	json_str(j, "cpu", "boot");
	json_u64(j, "banks", h->mca1.nbanks);
	if (h->mca0.unread || h->mca1.unread)
		json_str(j, "unread", "an IA32_MCi_STATUS read faulted: that bank read as empty");
	json_str(j, "baseline", h->mca_baseline);
	json_u64(j, "new", h->mca.n_new);
	json_u64(j, "corrected", h->mca.corrected);
	json_u64(j, "uncorrected", h->mca.uncorrected);
	json_arr(j, "entries");
	for (uint32_t i = 0; i < h->mca.nkept; i++) {
		const struct mca_entry *e = &h->mca.e[i];
		json_obj(j, NULL);
		json_u64(j, "bank", e->bank);
		json_hex(j, "status", e->status);
		json_bool(j, "corrected", !e->uc);
		json_bool(j, "over", e->over);
		json_bool(j, "pcc", e->pcc);
		json_bool(j, "en", e->en);
		json_bool(j, "s", e->s);
		json_bool(j, "ar", e->ar);
		json_hex(j, "mcacod", e->mcacod);
		json_str(j, "kind", e->kind);
		json_hex(j, "mscod", e->mscod);
		if (e->addrv)
			json_hex(j, "addr", e->addr);
		else
			json_null(j, "addr");
		if (e->miscv)
			json_hex(j, "misc", e->misc);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

static void energy_json(struct json *j, const struct health_run *h)
{
	const struct attachment *a = health_kind(h, "energy");
	if (absent(j, "energy", a)) {
		json_obj(j, "thermal");
		json_str(j, "absent", h->t0.why ? h->t0.why : "not read");
		json_close(j);
		return;
	}
	uint64_t ns = h->o.hz && h->ticks1 > h->ticks0
			      ? (uint64_t)((unsigned __int128)(h->ticks1 - h->ticks0) * NS_PER_S / h->o.hz) : 0;
	json_obj(j, "energy");
	if (h->e0.why || h->e1.why) {
		json_str(j, "absent", h->e0.why ? h->e0.why : h->e1.why);
	} else {
		json_u64(j, "ns", ns);
		json_arr(j, "domains");
		for (uint32_t i = 0; i < h->e1.n; i++) {
			const struct energy_domain *d0 = &h->e0.d[i], *d1 = &h->e1.d[i];
			json_obj(j, NULL);
			json_str(j, "name", d1->name);
			if (d0->why || d1->why) {
				json_str(j, "absent", d0->why ? d0->why : d1->why);
			} else {
				uint64_t uj = rapl_microjoules(rapl_delta(d0->raw, d1->raw), h->e1.esu);
				json_milli(j, "joules", uj / MICRO_PER_MILLI);
				if (ns)
					json_milli(j, "watts", (uint64_t)((unsigned __int128)uj * HZ_PER_MHZ / ns));
				else
					json_null(j, "watts");
			}
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
	json_obj(j, "thermal");
	const char *cw = h->t0.why ? h->t0.why : h->t1.why, *pw = h->t0.pkg_why ? h->t0.pkg_why : h->t1.pkg_why;
	if (cw && pw) {
		json_str(j, "absent", cw);
	} else {
		if (!cw) {
			json_hex(j, "core_status", h->t1.core);
			json_hex(j, "core_status_before", h->t0.core);
		} else {
			json_str(j, "core_absent", cw);
		}
		if (!pw) {
			json_hex(j, "package_status", h->t1.pkg);
			json_hex(j, "package_status_before", h->t0.pkg);
		} else {
			json_str(j, "package_absent", pw);
		}
	}
	json_close(j);
}

static void freq_json(struct json *j, const struct health_run *h)
{
	if (absent(j, "freq", health_kind(h, "freq")))
		return;
	json_obj(j, "freq");
	json_u64(j, "nominal_hz", h->o.hz);
	if (!h->ncpus) {
		uint64_t r = freq_ratio_milli(&h->f0, &h->f1);
		json_str(j, "cpus_read", "boot");
		json_milli(j, "aperf_mperf", r);
		json_u64(j, "mhz", r * (h->o.hz / HZ_PER_MHZ) / 1000u);
	} else {
		json_arr(j, "per_cpu");
		for (int i = 0; i < h->ncpus && i < HEALTH_FREQ_CPUS; i++) {
			json_obj(j, NULL);
			json_u64(j, "i", (uint64_t)i);
			if (h->cpu_why[i]) {
				json_str(j, "absent", h->cpu_why[i]);
			} else {
				json_milli(j, "aperf_mperf", h->ratio_milli[i]);
				json_u64(j, "mhz", (uint64_t)h->ratio_milli[i] * (h->o.hz / HZ_PER_MHZ) / 1000u);
			}
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

void health_json(struct json *j, const struct health_run *h, const char *why_null)
{
	json_obj(j, "health");
	if (!h) {
		json_str(j, "absent", why_null);
		json_close(j);
		return;
	}
	aer_json(j, h);
	mca_json(j, h);
	energy_json(j, h);
	freq_json(j, h);
	const struct attachment *e = health_kind(h, "energy");
	if (e && e->st == HW_OK && !((h->t0.why || h->t1.why) && (h->t0.pkg_why || h->t1.pkg_why)))
		json_bool(j, "throttled", h->throttled);
	else
		json_null(j, "throttled");
	json_close(j);
}

void dram_peak_json(struct json *j, const struct smbios_info *s, uint64_t mbps)
{
	json_obj(j, "dram_peak");
	if (!s || !s->mem.peak_mbps) {
		json_str(j, "absent", !s ? "no SMBIOS table" : "no SMBIOS type 17 device with both a speed and a data width");
		if (s)
			json_u64(j, "dimms_unknown", s->mem.peak_unknown);
	} else {
		json_u64(j, "claimed_mbps", s->mem.peak_mbps);
		json_u64(j, "measured_mbps", mbps);
		json_milli(j, "fraction", (uint64_t)((unsigned __int128)mbps * 1000u / s->mem.peak_mbps));
		json_u64(j, "dimms", s->mem.populated - s->mem.peak_unknown);
		json_u64(j, "dimms_unknown", s->mem.peak_unknown);
		json_str(j, "assumes", "every populated DIMM on a channel of its own (SMBIOS has no channel map): "
			 "two DIMMs on a channel make the true peak lower");
	}
	json_close(j);
}
