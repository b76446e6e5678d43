/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `uncore` record (members; "type" is the caller's):
 *   pmu, platform, scope, socket, cpu, status ("ok"/"error"/"absent"/"off"), why, cpuid,
 *   state ("counting" / "not-advancing": no counter moved in a window that moved bytes; the
 *          metrics are then left out, never shown as zero traffic),
 *   window_ns, slices, multiplexed,
 *   events [{name, spec, ctl, group, counter}],
 *   counts [{event, unit, raw, scaled}]          unit: the package (CCX, UMC) of the socket
 *   metrics {dram_read_bytes, dram_write_bytes, dram_bytes, dram_gbps, io_read_bytes,
 *            io_write_bytes, io_read_gbps, io_write_gbps, llc_accesses, llc_misses, llc_hits,
 *            llc_hit_ratio, channels [{channel, bytes}]}
 *            outbound_read_bytes, outbound_write_bytes (IIO: the CPU reads / writes devices)}
 *   stacks [{stack, io_read_bytes, io_write_bytes, outbound_read_bytes, outbound_write_bytes,
 *            parts [{part, io_read_bytes, io_write_bytes, outbound_read_bytes,
 *            outbound_write_bytes}]}]                 (uncore_iio: per stack of the socket)
 *   formulas {metric: text}
 *   self_check {state ("ok"/"absent"), value, why, convention}
 *   restore {status, registers, written, failed [...]}   (json_restore_report)
 *   free_running {...} (uncore_imc: the IMC free-running DDR counters, or why not)
 */
#include "efi/out/uncore_json.h"
#include "pmu/metrics.h"
#include "efi/out/pmu_json.h"
#include "arch/lib/fmt.h"

#include <string.h>

static void metrics(struct json *j, const struct unc_metrics *m)
{
	json_obj(j, "metrics");
	if (m->have_dram_rd)
		json_u64(j, "dram_read_bytes", m->dram_read_bytes);
	if (m->have_dram_wr)
		json_u64(j, "dram_write_bytes", m->dram_write_bytes);
	if (m->have_dram) {
		json_u64(j, "dram_bytes", m->dram_rw_bytes);
		json_milli(j, "dram_gbps", m->dram_gbps_milli);
	}
	if (m->have_io_rd) {
		json_u64(j, "io_read_bytes", m->io_read_bytes);
		json_milli(j, "io_read_gbps", m->io_read_gbps_milli);
	}
	if (m->have_io_wr) {
		json_u64(j, "io_write_bytes", m->io_write_bytes);
		json_milli(j, "io_write_gbps", m->io_write_gbps_milli);
	}
	if (m->have_ob) {
		json_u64(j, "outbound_read_bytes", m->ob_read_bytes);
		json_u64(j, "outbound_write_bytes", m->ob_write_bytes);
	}
	if (m->have_hit_ratio) {
		json_u64(j, "llc_accesses", m->llc_accesses ? m->llc_accesses : m->llc_hits + m->llc_misses);
		json_u64(j, "llc_misses", m->llc_misses);
		json_u64(j, "llc_hits", m->llc_hits);
		json_milli(j, "llc_hit_ratio", m->llc_hit_ratio_milli);
	}
	if (m->nchannels) {
		json_arr(j, "channels");
		for (uint8_t c = 0; c < m->nchannels; c++) {
			json_obj(j, NULL);
			json_u64(j, "channel", c);
			json_u64(j, "bytes", m->channel_bytes[c]);
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

static void part_bytes(struct json *j, const struct unc_metrics *m, int p)
{
	static const char *const key[4] = { "io_read_bytes", "io_write_bytes", "outbound_read_bytes",
					    "outbound_write_bytes" };
	for (int k = 0; k < 4; k++)
		json_u64(j, key[k], p < 0 ? (k == 0 ? m->io_read_bytes : k == 1 ? m->io_write_bytes
					     : k == 2 ? m->ob_read_bytes : m->ob_write_bytes)
					  : m->part_bytes[k][p]);
}

/* uncore_iio: each stack (package) of the socket with its parts */
static void stacks(struct json *j, const struct unc_request *req, const struct unc_result *res, uint32_t socket)
{
	json_arr(j, "stacks");
	for (uint32_t p = 0; p < req->npkgs; p++) {
		if (req->socket[p] != socket)
			continue;
		json_obj(j, NULL);
		json_u64(j, "stack", req->first_box[p]);
		part_bytes(j, &res->m[p], -1);
		json_arr(j, "parts");
		for (int k = 0; k < res->m[p].nparts; k++) {
			json_obj(j, NULL);
			json_u64(j, "part", (uint64_t)k);
			part_bytes(j, &res->m[p], k);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
}

static void formulas(struct json *j, const struct unc_request *req)
{
	json_obj(j, "formulas");
	json_str(j, "dram_bytes", "sum of the DRAM events' counts x 64 (data beats / CAS commands of 64 bytes)");
	if (strcmp(req->scope, "stack"))
		json_str(j, "io_read_bytes", "sum of the upstream DMA read beats x 64 (a device reads memory)");
	json_str(j, "dram_gbps", "dram_bytes / window_ns");
	if (!strcmp(req->scope, "stack")) {
		json_str(j, "io_read_bytes", "sum of DATA_REQ_OF_CPU.MEM_READ.PART* x 4 (DWs a device read from memory)");
		json_str(j, "io_write_bytes", "sum of DATA_REQ_OF_CPU.MEM_WRITE.PART* x 4 (DWs a device wrote to memory)");
		json_str(j, "outbound_read_bytes", "sum of DATA_REQ_BY_CPU.MEM_READ.PART* x 4 (DWs the CPU read from devices)");
		json_str(j, "outbound_write_bytes", "sum of DATA_REQ_BY_CPU.MEM_WRITE.PART* x 4 (DWs the CPU wrote to devices)");
	} else
		json_str(j, "io_write_bytes", "sum of the upstream DMA write beats x 64 (a device writes memory)");
	json_str(j, "llc_hit_ratio", "llc_hits / llc_accesses, or 1 - llc_misses / llc_accesses");
	json_str(j, "scaled", req->ngroups > 1 ? "raw x window_ns / ns the event's group counted (perf-style)"
					       : "raw (one group: counted the whole window)");
	json_close(j);
}

void uncore_status_json(const char *pmu, const char *platform, const char *status, const char *why, struct json *j)
{
	json_str(j, "pmu", pmu);
	json_str(j, "platform", platform);
	json_str(j, "status", status);
	json_str(j, "why", why);
}

void uncore_result_json(const struct unc_request *req, const struct unc_result *res, uint32_t socket,
			const char *cpuid, struct json *j)
{
	json_str(j, "pmu", req->pmu);
	json_str(j, "platform", req->platform);
	json_str(j, "scope", req->scope);
	json_u64(j, "socket", socket);
	uint32_t first = 0;
	while (first < req->npkgs && req->socket[first] != socket)
		first++;
	json_u64(j, "cpu", first < req->npkgs ? req->cpu[first] : 0);
	json_str(j, "status", res->status ? "error" : "ok");
	if (res->status)
		json_str(j, "why", res->why);
	if (cpuid)
		json_str(j, "cpuid", cpuid);
	if (!res->status)
		json_str(j, "state", res->state == UNC_STATE_COUNTING ? "counting" : "not-advancing");
	json_u64(j, "window_ns", res->window_ns);
	json_u64(j, "slices", res->nslices);
	json_bool(j, "multiplexed", req->ngroups > 1);
	json_arr(j, "events");
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct unc_event *e = &req->ev[i];
		json_obj(j, NULL);
		json_str(j, "name", e->name ? e->name : e->spec);
		json_str(j, "spec", e->spec);
		json_hex(j, "ctl", e->ctl);
		json_u64(j, "group", e->group);
		json_u64(j, "counter", e->counter);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "counts");
	struct unc_metrics sum;
	uint64_t counts[UNC_MAX_EVENTS] = { 0 };
	for (uint32_t p = 0; p < req->npkgs; p++) {
		if (req->socket[p] != socket)
			continue;
		for (uint32_t i = 0; i < req->nevents; i++) {
			json_obj(j, NULL);
			json_str(j, "event", req->ev[i].name ? req->ev[i].name : req->ev[i].spec);
			json_u64(j, "unit", req->first_box[p]);
			json_u64(j, "raw", res->raw[p][i]);
			json_u64(j, "scaled", res->scaled[p][i]);
			json_close(j);
			counts[i] += res->scaled[p][i];
		}
	}
	json_close(j);
	unc_metrics(req, counts, res->window_ns, req->known_read_bytes, req->known_write_bytes, &sum);
	/* per-UMC / per-IMC-channel packages: each package is one channel */
	if (!strcmp(req->scope, "umc") || !strcmp(req->scope, "channel")) {
		sum.nchannels = 0;
		for (uint32_t p = 0; p < req->npkgs && sum.nchannels < UNC_MAX_CHANNELS; p++)
			if (req->socket[p] == socket)
				sum.channel_bytes[sum.nchannels++] = res->m[p].dram_rw_bytes;
	}
	if (!res->status && res->state == UNC_STATE_COUNTING) {
		metrics(j, &sum);
		if (!strcmp(req->scope, "stack"))
			stacks(j, req, res, socket);
		formulas(j, req);
	} else if (!res->status) {
		json_str(j, "metrics", "absent: no counter advanced in the window, so the counts are not traffic");
	}
	json_obj(j, "self_check");
	int ok = !res->status && res->state == UNC_STATE_COUNTING && sum.self_check_state == UNC_CHECK_OK;
	json_str(j, "state", ok ? "ok" : "absent");
	if (ok)
		json_milli(j, "value", sum.self_check_milli);
	else
		json_str(j, "why", res->status ? res->why
				   : res->state != UNC_STATE_COUNTING ? "no counter advanced in the window"
				   : sum.self_check_why);
	if (req->known_how)
		json_str(j, "convention", req->known_how);
	json_close(j);
	json_restore_report(j, &res->restore, NULL);
}

void uncore_free_running_why_json(const char *why, struct json *j)
{
	json_obj(j, "free_running");
	json_str(j, "why", why);
	json_close(j);
}

void uncore_free_running_json(const struct imc_free_run *run, uint32_t socket, uint64_t programmable_bytes,
			      uint64_t known_bytes, struct json *j)
{
	if (!run->valid) {
		uncore_free_running_why_json(run->why, j);
		return;
	}
	uint64_t rd, wr;
	imc_free_socket_bytes(run, socket, &rd, &wr);
	json_obj(j, "free_running");
	json_u64(j, "read_bytes", rd);
	json_u64(j, "write_bytes", wr);
	json_arr(j, "imcs");
	for (uint32_t b = 0; b < run->nboxes; b++) {
		if (run->box[b].socket != socket)
			continue;
		json_obj(j, NULL);
		json_u64(j, "imc", run->box[b].imc);
		json_u64(j, "read_bytes", run->read_bytes[b]);
		json_u64(j, "write_bytes", run->write_bytes[b]);
		json_close(j);
	}
	json_close(j);
	json_str(j, "source", run->l->source);
	json_u64(j, "programmable_bytes", programmable_bytes);
	if (programmable_bytes)
		json_milli(j, "ratio_to_programmable", metric_ratio_milli(rd + wr, programmable_bytes));
	else
		json_str(j, "ratio_why", "the programmable counters gave no DRAM bytes for this socket");
	if (known_bytes)
		json_milli(j, "self_check", metric_ratio_milli(rd + wr, known_bytes));
	json_close(j);
}

void uncore_iio_map_json(const char *platform, uint32_t socket, const struct iio_map *m, struct json *j)
{
	json_str(j, "pmu", "uncore_iio");
	json_str(j, "platform", platform);
	json_u64(j, "socket", socket);
	json_str(j, "status", m->valid ? "ok" : "absent");
	json_str(j, "map_source", iio_map_source_name(m->method));
	if (m->source[0])
		json_str(j, "source", m->source);
	if (!m->valid) {
		json_str(j, "why", m->why);
		return;
	}
	json_arr(j, "stacks");
	for (int k = 0; k < m->nstacks; k++) {
		if (!m->stack[k].present)
			continue;
		char bdf[16];
		json_obj(j, NULL);
		json_u64(j, "stack", (uint64_t)k);
		json_u64(j, "bus", m->stack[k].bus);
		json_u64(j, "bus_end", m->stack[k].bus_end);
		json_arr(j, "root_ports");
		for (int i = 0; i < m->stack[k].nports; i++) {
			json_obj(j, NULL);
			json_u64(j, "part", m->stack[k].port[i].part);
			fmt_snprintf(bdf, sizeof(bdf), "%02x:%02x.%x", m->stack[k].bus, m->stack[k].port[i].dev,
				     m->stack[k].port[i].func);
			json_str(j, "bdf", bdf);
			json_u64(j, "secondary", m->stack[k].port[i].secondary);
			json_u64(j, "subordinate", m->stack[k].port[i].subordinate);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "ndefects", m->ndefects);
	json_arr(j, "defects");
	for (int i = 0; i < m->ndefects && i < IIO_MAX_DEFECTS; i++)
		json_str(j, NULL, m->defect[i]);
	json_close(j);
}
