/* SPDX-License-Identifier: BSD-2-Clause */
/* Records of the NVIDIA ACPI-namespace PMUs and the AML reader (efi/out/nv_acpi_json.h). */
#include "efi/out/nv_acpi_json.h"
#include "efi/out/pmu_json.h"
#include "arch/lib/fmt.h"

static const char *peer_name(uint8_t peer)
{
	switch (peer) {
	case NV_PEER_CPU: return "cpu";
	case NV_PEER_GPU: return "gpu";
	case NV_PEER_CXLMEM: return "cxlmem";
	default: return "none";
	}
}

static void table_name(char *buf, size_t n, const char *sig, uint32_t index)
{
	fmt_snprintf(buf, n, "%s[%u]", sig, index);
}

static void identity(struct json *j, const struct nv_apmu_dev *d, const struct aml_device *ad)
{
	char tb[16];
	json_obj(j, "identity");
	json_str(j, "source", "aml_reader");
	json_str(j, "hid", ad->hid);
	if (ad->uid_is_string)
		json_str(j, "uid", ad->uid_str);
	else
		json_u64(j, "uid", ad->uid);
	json_str(j, "path", ad->path);
	table_name(tb, sizeof(tb), ad->table, ad->table_index);
	json_str(j, "table", tb);
	json_hex(j, "offset", ad->offset);
	if (d && d->type) {
		json_str(j, "peer", peer_name(d->peer));
		json_u64(j, "instances", d->type->ninst);
		json_hex(j, "instance_mask", d->inst_mask);
		json_arr(j, "peer_masks");
		for (uint8_t p = 0; p < d->npeers; p++)
			json_hex(j, NULL, d->peer_mask[p]);
		json_close(j);
		if (d->peer == NV_PEER_GPU) {
			json_obj(j, "filter");
			json_hex(j, "gpu_mask", d->gpu_mask);
			json_str(j, "source", d->gpu_mask_given ? "uncore_events" : "default (every GPU peer)");
			json_close(j);
		}
		json_arr(j, "regions");
		for (uint8_t i = 0; i < d->type->ninst && d->bcast_base; i++) {
			json_obj(j, NULL);
			json_u64(j, "instance", i);
			json_hex(j, "base", d->inst_base[i]);
			json_close(j);
		}
		json_close(j);
		if (d->bcast_base)
			json_hex(j, "broadcast", d->bcast_base);
	}
	json_close(j);
}

static void latency_json(struct json *j, const struct nv_apmu_result *r)
{
	json_obj(j, "metrics");
	json_arr(j, "latency");
	for (uint32_t l = 0; l < r->nlat; l++) {
		const struct latency *x = &r->lat[l];
		json_obj(j, NULL);
		json_str(j, "direction", r->lat_direction[l]);
		json_bool(j, "valid", x->valid);
		if (!x->valid)
			json_str(j, "why", x->why);
		json_u64(j, "cum_outs", x->cum_outs);
		json_u64(j, "req", x->req);
		json_u64(j, "cycles", x->cycles);
		json_u64(j, "window_ns", x->window_ns);
		if (x->valid) {
			json_milli(j, "latency_cycles", x->cycles_milli);
			json_milli(j, "freq_ghz", x->freq_ghz_milli);
			json_milli(j, "latency_ns", x->ns_milli);
		}
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

static void counts(struct json *j, const struct nv_apmu_dev *d, const struct nv_apmu_result *r)
{
	const struct nv_apmu_type *t = d->type;
	char spec[80];
	json_arr(j, "events");
	for (uint32_t k = 0; k < r->nev; k++) {
		const struct nv_apmu_event *e = &t->ev[r->ev[k]];
		json_obj(j, NULL);
		json_str(j, "name", e->name);
		fmt_snprintf(spec, sizeof(spec), "%s/%s/", d->name, e->name);
		json_str(j, "spec", spec);
		json_hex(j, "event", e->id);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "counts");
	for (uint32_t k = 0; k < r->nev; k++) {
		const struct nv_apmu_event *e = &t->ev[r->ev[k]];
		json_obj(j, NULL);
		json_str(j, "event", e->name);
		json_u64(j, "raw", r->count[k]);
		json_arr(j, "instances");
		for (uint8_t i = 0; i < t->ninst; i++) {
			if (!(d->inst_mask >> i & 1))
				continue;
			json_obj(j, NULL);
			json_u64(j, "instance", i);
			json_u64(j, "raw", r->inst[k][i]);
			json_close(j);
			if (e->first_only)
				break;
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
}

/* Each selected instance's overflow status registers, read after the window. */
static void overflow(struct json *j, const struct nv_apmu_dev *d, const struct nv_apmu_result *r)
{
	if (!r->nstatus)
		return;
	json_arr(j, "overflow");
	for (uint8_t i = 0; i < d->type->ninst; i++) {
		if (!(d->inst_mask >> i & 1))
			continue;
		uint64_t any = 0;
		json_obj(j, NULL);
		json_u64(j, "instance", i);
		json_arr(j, "status");
		for (uint8_t k = 0; k < r->nstatus; k++) {
			json_hex(j, NULL, r->ovf_status[i][k]);
			any |= r->ovf_status[i][k];
		}
		json_close(j);
		json_bool(j, "overflow", any != 0);
		json_close(j);
	}
	json_close(j);
}

void nv_acpi_uncore_json(const struct nv_apmu_dev *d, const struct aml_device *ad, const struct nv_apmu_result *res,
			 const char *status, const char *why, struct json *j)
{
	json_str(j, "pmu", d->name);
	json_str(j, "platform", "Tegra410");
	json_str(j, "scope", "acpi_device");
	json_u64(j, "socket", d->socket);
	json_str(j, "status", res ? (res->status ? "error" : "ok") : status);
	if (res && res->status)
		json_str(j, "why", res->why);
	else if (!res)
		json_str(j, "why", why);
	identity(j, d, ad);
	if (!res)
		return;
	if (!res->status)
		json_str(j, "state", res->state == NV_APMU_COUNTING ? "counting" : "not-advancing");
	json_u64(j, "window_ns", res->window_ns);
	counts(j, d, res);
	if (!res->status && res->state == NV_APMU_COUNTING)
		latency_json(j, res);
	else
		json_str(j, "metrics", res->status ? "absent: the measurement failed"
						    : "absent: the PMU's cycle counter did not advance in the window");
	overflow(j, d, res);
	json_obj(j, "formulas");
	json_str(j, "raw", "sum over the selected instances' counters (cycles: the first selected instance's)");
	json_str(j, "latency_cycles", "cum_outs / req");
	json_str(j, "freq_ghz", "cycles / window_ns");
	json_str(j, "latency_ns", "latency_cycles / freq_ghz = cum_outs x window_ns / (req x cycles)");
	json_close(j);
	json_obj(j, "self_check");
	json_str(j, "state", "absent");
	json_str(j, "why", "latency counters: no known count to compare them with");
	json_close(j);
	json_restore_report(j, &res->restore, res->restore_why[0] ? res->restore_why : NULL);
}

void nv_acpi_aml_json(const struct aml_info *aml, struct json *j)
{
	char tb[16];
	json_str(j, "source", "aml_reader");
	json_arr(j, "tables");
	for (uint32_t i = 0; i < aml->ntables && i < AML_MAX_TABLES; i++) {
		const struct aml_table *t = &aml->table[i];
		json_obj(j, NULL);
		table_name(tb, sizeof(tb), t->sig, t->index);
		json_str(j, "table", tb);
		json_hex(j, "addr", t->addr);
		json_u64(j, "length", t->length);
		json_str(j, "status", t->rc ? "refused" : "read");
		json_close(j);
	}
	json_close(j);
	json_arr(j, "devices");
	for (uint32_t i = 0; i < aml->ndev; i++) {
		const struct aml_device *d = &aml->dev[i];
		json_obj(j, NULL);
		json_str(j, "path", d->path);
		json_str(j, "hid", d->hid);
		if (d->hid_odd)
			json_bool(j, "hid_nonstandard", 1);
		if (d->has_uid && d->uid_is_string)
			json_str(j, "uid", d->uid_str);
		else if (d->has_uid)
			json_u64(j, "uid", d->uid);
		table_name(tb, sizeof(tb), d->table, d->table_index);
		json_str(j, "table", tb);
		json_hex(j, "offset", d->offset);
		json_u64(j, "ranges", d->nranges);
		json_u64(j, "properties", d->nprops);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "devices_dropped", aml->dev_dropped);
	json_u64(j, "devices_other", aml->dev_other);
	json_u64(j, "ndefects", aml->ndefects + aml->defects_dropped);
	json_arr(j, "defects");
	for (uint32_t i = 0; i < aml->ndefects && i < AML_MAX_DEFECTS; i++)
		json_str(j, NULL, aml->defect[i]);
	json_close(j);
}
