/* SPDX-License-Identifier: BSD-2-Clause */
/* The CoreSight PMU `uncore` record (efi/out/cspmu_json.h). */
#include "efi/out/cspmu_json.h"
#include "efi/out/pmu_json.h"
#include "efi/fw/acpi_parsers.h"
#include "efi/out/dma_json.h"

static const char *const ident_src[] = { "impl_id", "pmiidr", "pmpidr" };

static void identity(struct json *j, const struct cspmu_info *i)
{
	json_obj(j, "identity");
	json_hex(j, "pmiidr", i->pmiidr);
	json_str(j, "source", ident_src[i->ident_src < 3 ? i->ident_src : 1]);
	json_hex(j, "pmiidr_reg", i->pmiidr_reg);
	if (i->ident_src == CSPMU_ID_PMPIDR) {
		json_arr(j, "pmpidr");
		for (int k = 0; k < 5; k++)
			json_hex(j, NULL, i->pmpidr[k]);
		json_close(j);
	}
	json_hex(j, "pmcfgr", i->pmcfgr);
	json_u64(j, "counters", i->nlogical);
	json_u64(j, "event_counters", i->nevcntr);
	json_u64(j, "counter_bits", i->width);
	json_bool(j, "cycle_counter", i->cc);
	json_close(j);
}

static void events(struct json *j, const struct nv_cspmu_req *q, const struct cspmu_run *run)
{
	json_arr(j, "events");
	for (uint32_t i = 0; i < q->nev; i++) {
		json_obj(j, NULL);
		json_str(j, "name", q->evname[i] ? q->evname[i] : q->spec[i]);
		json_str(j, "spec", q->spec[i]);
		json_hex(j, "type", q->ev[i].type);
		json_hex(j, "filter", q->ev[i].filt);
		if (q->ev[i].use_filt2 && !q->ev[i].cycles)
			json_hex(j, "filter2", q->ev[i].filt2);
		json_u64(j, "counter", q->ev[i].counter);
		json_close(j);
	}
	json_close(j);
	if (!run)
		return;
	json_arr(j, "counts");
	for (uint32_t i = 0; i < q->nev; i++) {
		json_obj(j, NULL);
		json_str(j, "event", q->evname[i] ? q->evname[i] : q->spec[i]);
		json_u64(j, "raw", run->raw[i]);
		json_close(j);
	}
	json_close(j);
}

static void metrics(struct json *j, const struct nv_cspmu_metrics *m)
{
	json_obj(j, "metrics");
	for (uint32_t i = 0; i < m->n; i++)
		json_milli(j, m->m[i].name, m->m[i].milli);
	json_close(j);
	json_obj(j, "formulas");
	for (uint32_t i = 0; i < m->n; i++)
		json_str(j, m->m[i].name, m->m[i].formula);
	json_close(j);
}

static void companion(struct json *j, const struct apmt_companion *c)
{
	json_obj(j, "companion");
	json_str(j, "hid", c->hid);
	json_u64(j, "uid", c->uid);
	json_bool(j, "found", c->found);
	if (c->found)
		json_str(j, "path", c->path);
	if (c->has_instance_id)
		json_u64(j, "instance_id", c->instance_id);
	if (c->has_block) {
		json_hex(j, "block", c->block);
		json_hex(j, "block_len", c->block_len);
	}
	if (c->why[0])
		json_str(j, "why", c->why);
	json_close(j);
}

void cspmu_record_json(const struct cspmu_record *r, struct json *j)
{
	json_str(j, "pmu", r->pmu);
	json_str(j, "platform", r->req ? r->req->d->soc : NULL);
	json_str(j, "unit", r->req ? r->req->d->unit : NULL);
	json_str(j, "scope", "apmt_node");
	json_str(j, "window", r->window);
	json_u64(j, "socket", r->socket);
	json_str(j, "socket_source", r->socket_source);
	if (r->rc_source) {
		json_u64(j, "rc", r->rc);
		json_str(j, "rc_source", r->rc_source);
	}
	json_str(j, "status", r->status);
	if (r->why)
		json_str(j, "why", r->why);
	json_obj(j, "apmt");
	acpi_json_apmt_node(r->node, j);
	json_close(j);
	if (r->info)
		identity(j, r->info);
	if (r->rp_bdf) {
		json_obj(j, "root_port");
		json_str(j, "bdf", r->rp_bdf);
		json_u64(j, "socket", r->rp_socket);
		json_u64(j, "rc", r->rp_rc);
		json_u64(j, "rp", r->rp);
		json_hex(j, "mask", 1u << (r->rp & 7));
		json_close(j);
	}
	if (r->companion)
		companion(j, r->companion);
	if (r->filter_why)
		json_str(j, "address_filter_why", r->filter_why);
	if (r->tgt_n) {
		json_obj(j, "address_filter");
		json_hex(j, "block", r->tgt_block);
		json_arr(j, "slots");
		for (uint32_t i = 0; i < r->tgt_n; i++) {
			json_obj(j, NULL);
			json_hex(j, "base", r->tgt_slots[i].base);
			json_hex(j, "mask", r->tgt_slots[i].mask);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	if (r->req)
		events(j, r->req, r->run);
	if (!r->run)
		return;
	json_u64(j, "window_ns", r->window_ns);
	json_bool(j, "reset", r->run->reset);
	json_u64(j, "hilo_retries", r->run->hilo_retries);
	json_u64(j, "dropped_defaults", r->req->dropped);
	int ok = !r->run->status;
	if (ok)
		json_str(j, "state", r->counting ? "counting" : "not-advancing");
	if (ok && r->counting)
		metrics(j, r->metrics);
	else if (ok)
		json_str(j, "metrics", "absent: no counter advanced in the window, so the counts are not traffic");
	if (r->sc && ok) {
		self_check_json(j, "self_check", r->sc);
		goto restore;
	}
	json_obj(j, "self_check");
	json_str(j, "state", r->check_ok ? "ok" : "absent");
	if (r->check_ok)
		json_milli(j, "value", r->check_milli);
	else
		json_str(j, "why", r->check_why);
	if (r->check_how)
		json_str(j, "convention", r->check_how);
	json_close(j);
restore:;
	struct saveset_report rep = { 0 };
	saveset_report_add(&r->run->save, &rep);
	if (r->slot_save)
		saveset_report_add(r->slot_save, &rep);
	json_restore_report(j, &rep, NULL);
}
