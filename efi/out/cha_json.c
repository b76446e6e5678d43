/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `cha` record (members only; the caller opens the record and writes "type"):
 *   platform, cpus, status ("ok"/"error"), why, window_ns, slices, multiplexed, accesses,
 *   events [{name, spec, ctl, filter0, filter1, group, counter}],
 *   groups [{events, running_ns, fraction}]       fraction = running / window (perf-style)
 *   sockets [{socket, cpu, cha_count, cha_count_source, counts [{event, raw, scaled}], metrics}]
 *   total {metrics}
 *   tor_latency {<class>: {inserts, occupancy, clockticks, latency_cycles, latency_ns, why,
 *                          sockets [{socket, chas, inserts, occupancy, clockticks, latency_ns, why}]}}
 *            per TOR latency class of the platform (pmu/uncore/intel_cha.h cha_tor_latency),
 *            over every socket: scaled counts summed over the CHAs; latency_cycles and
 *            latency_ns null with why when not computed (counts absent when not counted);
 *            sockets: the same over each socket's CHAs alone (chas = its CHA count), so each
 *            count of the class is the sum of the sockets' ones
 *   restore (efi/out/restore_json.c)
 *            registers saved on every socket, those the run wrote, and every one not put back
 *            (always present once the sequence ran, also when an earlier error ended it)
 * metrics: pcie_read_bytes, pcie_write_bytes, pcie_read_gbps, pcie_write_gbps, mmio_reads,
 * mmio_writes, io_llc_hits, io_llc_misses, io_llc_hit_ratio, self_check, missing (why).
 */
#include "efi/out/pmu_json.h"
#include "pmu/uncore/intel_cha.h"
#include "efi/out/jsonl.h"

static void metrics_json(struct json *j, const char *key, const struct cha_metric_values *m)
{
	json_obj(j, key);
	if (m->have_read) {
		json_u64(j, "pcie_read_bytes", m->read_bytes);
		json_milli(j, "pcie_read_gbps", m->read_gbps_milli);
	}
	if (m->have_write) {
		json_u64(j, "pcie_write_bytes", m->write_bytes);
		json_milli(j, "pcie_write_gbps", m->write_gbps_milli);
	}
	if (m->have_mmio_read)
		json_u64(j, "mmio_reads", m->mmio_reads);
	if (m->have_mmio_write)
		json_u64(j, "mmio_writes", m->mmio_writes);
	json_u64(j, "io_llc_hits", m->hits);
	json_u64(j, "io_llc_misses", m->misses);
	if (m->have_hit_ratio)
		json_milli(j, "io_llc_hit_ratio", m->hit_ratio_milli);
	if (m->why[0])
		json_str(j, "missing", m->why);
	json_close(j);
}

/* The counts of one class (when its events were counted), and its latency_ns or null and why;
 * with_cycles: latency_cycles too (the total's fields). */
static void latency_value_json(struct json *j, const struct cha_latency_value *v, int with_cycles)
{
	if (v->counted) {
		json_u64(j, "inserts", v->inserts);
		json_u64(j, "occupancy", v->occupancy);
		json_u64(j, "clockticks", v->clockticks);
	}
	if (v->have) {
		if (with_cycles)
			json_milli(j, "latency_cycles", v->cycles_milli);
		json_milli(j, "latency_ns", v->ns_milli);
	} else {
		if (with_cycles)
			json_null(j, "latency_cycles");
		json_null(j, "latency_ns");
		json_str(j, "why", v->why);
	}
}

static void latency_json(struct json *j, const struct cha_request *req, const struct cha_result *res)
{
	const struct cha_tor_latency *l = &res->latency;
	json_obj(j, "tor_latency");
	for (uint32_t k = 0; k < l->nclass; k++) {
		json_obj(j, l->c[k].name);
		latency_value_json(j, &l->c[k], 1);
		json_arr(j, "sockets");
		for (uint32_t s = 0; s < res->nsockets; s++) {
			json_obj(j, NULL);
			json_u64(j, "socket", s);
			json_u64(j, "chas", req->topo.ncha[s]);
			latency_value_json(j, &res->sock[s].latency.c[k], 0);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
}

static const char *event_label(const struct cha_event_sel *e)
{
	return e->name ? e->name : e->spec;
}

static void header(const struct cha_request *req, struct json *j)
{
	if (req && req->plat) {
		json_str(j, "platform", req->plat->name);
		json_str(j, "cpus", req->plat->cpus);
	} else {
		json_null(j, "platform");
	}
}

void cha_error_json(const struct cha_request *req, const char *why, struct json *j)
{
	header(req, j);
	json_str(j, "status", "error");
	json_str(j, "why", why);
}

void cha_result_json(const struct cha_request *req, const struct cha_result *res, struct json *j)
{
	header(req, j);
	json_str(j, "status", res->status ? "error" : "ok");
	if (res->status)
		json_str(j, "why", res->why);
	json_u64(j, "window_ns", res->window_ns);
	json_u64(j, "slices", res->nslices);
	json_bool(j, "multiplexed", req->ngroups > 1);
	json_u64(j, "accesses", res->accesses);
	json_arr(j, "events");
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct cha_event_sel *e = &req->ev[i];
		json_obj(j, NULL);
		if (e->name)
			json_str(j, "name", e->name);
		json_str(j, "spec", e->spec);
		json_hex(j, "ctl", e->enc.ctl);
		for (unsigned f = 0; f < CHA_NFILTERS; f++)
			if (e->enc.uses & (1u << f))
				json_hex(j, f ? "filter1" : "filter0", e->enc.filter[f]);
		json_u64(j, "group", e->group);
		json_u64(j, "counter", e->counter);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "groups");
	for (uint32_t g = 0; g < req->ngroups; g++) {
		json_obj(j, NULL);
		json_arr(j, "events");
		for (uint32_t i = 0; i < req->nevents; i++)
			if (req->ev[i].group == g)
				json_str(j, NULL, event_label(&req->ev[i]));
		json_close(j);
		mux_group_time_json(j, res->group_ns[g], res->window_ns);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "sockets");
	for (uint32_t s = 0; s < res->nsockets; s++) {
		const struct cha_socket_result *sr = &res->sock[s];
		json_obj(j, NULL);
		json_u64(j, "socket", s);
		json_u64(j, "cpu", sr->cpu);
		json_u64(j, "cha_count", req->topo.ncha[s]);
		json_str(j, "cha_count_source", req->topo.how[s]);
		if (!res->status) {
			json_arr(j, "counts");
			for (uint32_t i = 0; i < req->nevents; i++) {
				json_obj(j, NULL);
				json_str(j, "event", event_label(&req->ev[i]));
				json_u64(j, "raw", sr->raw[i]);
				json_u64(j, "scaled", sr->scaled[i]);
				json_close(j);
			}
			json_close(j);
			metrics_json(j, "metrics", &sr->m);
		}
		json_close(j);
	}
	json_close(j);
	if (!res->status) {
		metrics_json(j, "total", &res->total);
		latency_json(j, req, res);
	}
	json_restore_report(j, &res->restore, res->restore.nfailed || res->restore.dropped ? res->restore_why : NULL);
}
