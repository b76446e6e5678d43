/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency curve's record writer (efi/out/latency_out.h). */
#include <efi.h>
#include "efi/out/latency_out.h"
#include "efi/out/pmu_json.h"
#include "efi/out/report.h"
#include "efi/out/window_json.h"
#include "efi/fw/acpi_hmat.h"
#include "efi/out/health_json.h"
#include "arch/lib/fmt.h"

static void bytes_text(char *out, size_t n, uint64_t b)
{
	if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		fmt_snprintf(out, n, "%llu MiB", (unsigned long long)(b >> 20));
	else
		fmt_snprintf(out, n, "%llu KiB", (unsigned long long)(b >> 10));
}

static void caches_json(struct json *j, const struct cpu_info *ci)
{
	json_bool(j, "emulated", ci->virtual_machine);
	if (ci->hypervisor[0])
		json_str(j, "hypervisor", ci->hypervisor);
	json_str(j, "cache_source", ci->cache_source);
	json_arr(j, "cpu_caches");
	for (int c = 0; c < ci->ncaches; c++) {
		const struct cache_desc *d = &ci->cache[c];
		json_obj(j, NULL);
		json_u64(j, "level", d->level);
		json_str(j, "cache_type", cache_type_name(d->type));
		json_u64(j, "bytes", d->bytes);
		json_u64(j, "ways", d->ways);
		json_u64(j, "line_bytes", d->line_bytes);
		if (d->sharing)
			json_u64(j, "sharing", d->sharing);
		json_close(j);
	}
	json_close(j);
}

/* One cache level beside its knee: a `levels` entry and its console line
 * ("L2: CPUID 2 MiB, knee at 2 MiB, 14.1 ns"). */
static void level_json(struct json *j, const struct cpu_info *ci, const struct latency_result *res,
		       const struct knee_level *lv)
{
	char rb[24], kb[24] = "none", kns[32] = "-";
	bytes_text(rb, sizeof(rb), lv->reported_bytes);
	json_obj(j, NULL);
	json_u64(j, "level", lv->level);
	json_u64(j, "reported_bytes", lv->reported_bytes);
	if (lv->knee >= 0) {
		const struct knee *k = &res->k[lv->knee];
		json_u64(j, "knee_bytes", k->bytes);
		json_milli(j, "knee_ns_per_load", k->ps);
		bytes_text(kb, sizeof(kb), k->bytes);
		fmt_milli(kns, sizeof(kns), k->ps);
	} else {
		json_null(j, "knee_bytes");
	}
	json_bool(j, "agrees", lv->agrees);
	if (lv->why)
		json_str(j, "why", lv->why);
	json_close(j);
	rep_line("            L%u: %s %s, knee at %s, %s ns%s%s", lv->level, ci->cache_source, rb, kb, kns,
		 lv->why ? ": disagrees, " : "", lv->why ? lv->why : "");
}

/* The knees beside the cache levels the CPU reports (efi/measure/knees.h), in the open record. */
static void knees_json(struct json *j, const struct cpu_info *ci, const struct latency_result *res)
{
	caches_json(j, ci);
	json_arr(j, "knees");
	for (int i = 0; i < res->nk; i++) {
		json_obj(j, NULL);
		json_u64(j, "bytes", res->k[i].bytes);
		json_milli(j, "ns_per_load", res->k[i].ps);
		json_bool(j, "reported_level", res->taken[i]);
		json_close(j);
	}
	json_close(j);
	if (res->memory_ps)
		json_milli(j, "memory_ns_per_load", res->memory_ps);
	else
		json_null(j, "memory_ns_per_load");
	json_arr(j, "levels");
	for (int i = 0; i < res->nl; i++)
		level_json(j, ci, res, &res->lv[i]);
	json_close(j);
	for (int i = 0; i < res->nk; i++)
		if (!res->taken[i]) {
			char kb[24], kns[32];
			bytes_text(kb, sizeof(kb), res->k[i].bytes);
			fmt_milli(kns, sizeof(kns), res->k[i].ps);
			rep_line("            knee at %s, %s ns: no level the CPU reports (disagrees)", kb, kns);
		}
	json_u64(j, "disagreements", (uint64_t)res->disagreements);
	if (ci->virtual_machine)
		rep_line("            emulated or virtual CPU%s%s: the knees say little about the real caches",
			 ci->hypervisor[0] ? " " : "", ci->hypervisor);
}

static void evidence_json(struct json *j, const struct latency_evidence *ev)
{
	json_obj(j, "evidence");
	json_str(j, "events", ev->events[0] ? ev->events : NULL);
	json_str(j, "table", ev->att ? ev->table : NULL);
	json_str(j, "state", ev->att ? "counting" : "absent");
	if (!ev->att)
		json_str(j, "why", ev->why);
	json_close(j);
}

static void point_json(struct json *j, const struct latency_point *pt, const struct ldsrc_point *e)
{
	json_obj(j, NULL);
	json_u64(j, "bytes", pt->bytes);
	json_milli(j, "ns_per_load", pt->ps);
	json_milli(j, "ticks_per_load", pt->ticks_milli);
	json_bool(j, "cycle_complete", pt->complete);
	rec_quiet_json(j, pt->w.masked, pt->w.smi_status, pt->w.smi_delta);
	health_json(j, pt->health, "no memory for the health attachments");
	if (e) {
		json_u64(j, "loads_in_window", pt->loads);
		json_obj(j, "core_counters");
		if (e->x86) {
			corepmu_json_counters(j, &e->cp);
		} else {
			json_str(j, "backend", e->set.pmu->name);
			core_set_json(j, &e->set);
		}
		json_close(j);
		load_source_json(j, &e->lsw);
		ldsrc_text(&e->lsw);
	}
	json_close(j);
	rep_line("            %10llu bytes  %8llu.%03llu ns/load", (unsigned long long)pt->bytes,
		 (unsigned long long)(pt->ps / 1000), (unsigned long long)(pt->ps % 1000));
}

void latency_record(const struct latency_request *req, const struct latency_result *res,
		    const struct latency_evidence *ev)
{
	if (!res->placed) {
		rep_error("latency", "cannot allocate %llu bytes (latency_max)", (unsigned long long)req->max_bytes);
		return;
	}
	const struct ldsrc_attach *att = ev->att;
	struct json *j = rep_begin("latency");
	json_str(j, "kernel", req->chase->name);
	json_u64(j, "line_bytes", LAT_LINE_BYTES);
	rec_target_json(j, res->buf);   /* the CXL window's memory, when the buffer lies there */
	if (req->cxl.device) {          /* HMAT beside the largest working set: a chase is loads only */
		const struct latency_point *last = res->npoints ? &res->pt[res->npoints - 1] : NULL;
		uint64_t ps = last && last->complete ? last->ps : 0;
		uint64_t m[ACPI_HMAT_NTYPES] = { [0] = ps, [1] = ps };   /* access, read latency */
		acpi_hmat_compare_json(j, "cxl_hmat", "cxl_hmat_why", req->cxl.hmat, req->cxl.initiator, req->cxl.domain, m);
	}
	rec_window_json(j, "noise_floor", res->floor.span_ticks, res->floor_ns,
			res->floor.masked, res->floor.smi_status, res->floor.smi_delta);
	evidence_json(j, ev);
	json_arr(j, "points");
	rep_line("latency:    pointer chase, random cyclic permutation of %u-byte lines, boot CPU, masked", LAT_LINE_BYTES);
	int complete = 1;
	for (uint32_t i = 0; i < res->npoints; i++) {
		point_json(j, &res->pt[i], att && (int)i < att->point ? &att->pt[i] : NULL);
		complete &= res->pt[i].complete;
	}
	json_close(j);
	knees_json(j, req->ci, res);
	rep_end();
	if (!complete)
		rep_error("latency", "a pointer chase did not come back to its start (the permutation is not one cycle)");
}
