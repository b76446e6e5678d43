/* SPDX-License-Identifier: BSD-2-Clause */
/* STREAM's record writer (efi/out/stream_out.h). */
#include <efi.h>
#include "efi/out/stream_out.h"
#include "efi/out/report.h"
#include "efi/out/health_json.h"
#include "efi/out/tune_json.h"
#include "efi/out/window_json.h"
#include "efi/fw/acpi_hmat.h"

static void tune_obj(struct json *j, const struct stream_request *req, const struct stream_result *res,
		     const struct stream_kind_out *ko)
{
	json_obj(j, "tune");
	json_u64(j, "budget_ms", req->budget_ms);
	if (req->llc)
		json_u64(j, "llc_bytes", req->llc);
	else
		json_null(j, "llc_bytes");
	json_bool(j, "probe_above_llc", ko->probe_above_llc);
	json_arr(j, "classes");
	for (int c = 0; ko->tuning && c < res->nclasses; c++)
		tune_json(j, NULL, &ko->tune[c], res->class_id[c], req->sel.cpu[res->class_first[c]], res->timer_hz);
	json_close(j);
	json_close(j);
}

static void per_cpu(struct json *j, const struct stream_request *req, const struct stream_result *res,
		    const struct stream_kind_out *ko)
{
	json_arr(j, "per_cpu");
	for (int i = 0; i < req->sel.n; i++) {
		json_obj(j, NULL);
		json_u64(j, "cpu", req->sel.cpu[i]);
		json_u64(j, "best_rate_mbps", ko->cpu[i].mbps);
		json_str(j, "kernel", ko->cpu[i].k->name);
		json_bool(j, "outlier", ko->cpu[i].outlier);
		rec_place_json(j, res->place[i].node, res->place[i].local, res->buf[i]);
		json_close(j);
	}
	json_close(j);
}

/* "cxl" when the buffers lie in a CXL window: the function's best rate split into reads and
 * writes against the device link's raw rate per direction (fractions null when it is down). */
static void cxl_json(struct json *j, const struct stream_request *req, enum kernel_kind kind, uint64_t mbps)
{
	if (!req->cxl.device)
		return;
	struct stream_link l;
	stream_link_split(kind, mbps, req->cxl.link_mbps, &l);
	json_obj(j, "cxl");
	json_str(j, "device", req->cxl.device);
	json_u64(j, "window", req->cxl.window);
	json_milli(j, "link_raw_gbps", req->cxl.link_mbps);   /* MB/s = milli-GB/s */
	json_milli(j, "read_gbps", l.read_mbps);
	json_milli(j, "write_gbps", l.write_mbps);
	if (req->cxl.link_mbps) {
		json_milli(j, "read_fraction", l.read_milli);
		json_milli(j, "write_fraction", l.write_milli);
	} else {
		json_null(j, "read_fraction");
		json_null(j, "write_fraction");
	}
	uint64_t m[ACPI_HMAT_NTYPES] = { [3] = mbps, [4] = l.read_mbps, [5] = l.write_mbps };   /* access, read, write bandwidth */
	acpi_hmat_compare_json(j, "hmat", "hmat_why", req->cxl.hmat, req->cxl.initiator, req->cxl.domain, m);
	json_close(j);
}

/* Function s's record and console line, after its tuner's failures. */
static void kind_record(const struct stream_request *req, const struct stream_result *res, unsigned s)
{
	const struct stream_kind_out *ko = &res->kind[s];
	const char *fn = kernel_kind_name(stream_kinds[s]);
	const struct kernel_desc *k = ko->cpu[0].k;
	for (int c = 0; ko->tuning && c < res->nclasses; c++)
		if (ko->tune_rc[c] != 0)
			rep_error("stream", "%s: the tuner found no variant on CPU %u (status %d): using %s", fn,
				  req->sel.cpu[res->class_first[c]], ko->tune[c].status, ko->deflt->name);
	struct json *j = rep_begin("stream");
	json_str(j, "function", fn);
	json_str(j, "kernel", k->name);
	json_str(j, "kernel_isa", kernel_isa_name(k->isa));
	json_str(j, "kernel_from", ko->from);
	tune_obj(j, req, res, ko);
	json_u64(j, "cpus", (uint64_t)req->sel.n);
	json_u64(j, "array_bytes", req->size);
	json_u64(j, "app_bytes_per_pass", ko->app);
	json_u64(j, "passes", req->passes);
	json_u64(j, "best_rate_mbps", ko->mbps10 / 10);
	json_u64(j, "avg_ns", ko->avg_ns);
	json_u64(j, "min_ns", ko->min_ns);
	json_u64(j, "max_ns", ko->max_ns);
	rec_quiet_json(j, ko->w.masked, ko->w.smi_status, ko->w.smi_delta);
	rec_window_json(j, "noise_floor", ko->floor.span_ticks, ko->floor_ns, ko->floor.masked, ko->floor.smi_status,
			ko->floor.smi_delta);
	per_cpu(j, req, res, ko);
	cxl_json(j, req, stream_kinds[s], ko->mbps10 / 10);
	json_u64(j, "median_cpu_mbps", ko->median_mbps);
	json_u64(j, "outliers", (uint64_t)ko->outliers);
	json_bool(j, "verified", ko->verified);
	health_json(j, req->health ? &ko->health : NULL, "no health attachments on the run");
	dram_peak_json(j, req->smbios, ko->mbps10 / 10);
	rep_end();
	rep_line("            %-10s %12llu.%llu %10llu ns %10llu ns %10llu ns  (%s)", fn, (unsigned long long)(ko->mbps10 / 10),
		 (unsigned long long)(ko->mbps10 % 10), (unsigned long long)ko->avg_ns, (unsigned long long)ko->min_ns,
		 (unsigned long long)ko->max_ns, k->name);
	if (!ko->verified)
		rep_error("stream", "%s: a CPU did not run it or its result is wrong", k->name);
}

static void vec_record(const struct vec_attach *va)
{
	const struct vec_run *vec = &va->v;
	struct json *j = rep_begin("vector_state");
	json_str(j, "for", "stream");
	vec_run_json(j, "state", vec);
	rep_end();
	rep_line("            vector state: %d of %d CPUs enabled, %d restored and read back%s%s", vec->enabled, vec->n,
		 vec->restored, vec->plan.why ? "; " : "", vec->plan.why ? vec->plan.why : "");
	if (va->not_restored)
		rep_error("stream", "vector state not restored on %d CPU(s): see the vector_state record", va->not_restored);
}

void stream_record(const struct stream_request *req, const struct stream_result *res, const struct vec_attach *vec)
{
	char isas[64];
	if (!res->placed) {
		rep_error("stream", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
			  (unsigned long long)req->size, req->sel.n);
		return;
	}
	if (res->kernel_refused)
		rep_error("stream", "kernel = %s: this CPU does not offer its ISA (offered: %s); the tuner chooses among all",
			  req->kernel, vec_isa_list(res->isa, isas, sizeof(isas)));
	rep_line("stream:     %d CPU(s), %llu bytes per array, %u passes, ISA %s, %d CPU class(es), kernel = %s, budget %u ms",
		 req->sel.n, (unsigned long long)req->size, req->passes, vec_isa_list(res->isa, isas, sizeof(isas)),
		 res->nclasses, req->kernel, req->budget_ms);
	rep_line("            Function    Best Rate MB/s  Avg time     Min time     Max time   (kernel)");
	for (unsigned s = 0; s < STREAM_NKINDS; s++)
		if (res->kind[s].ran)
			kind_record(req, res, s);
	if (res->vec_on && vec)
		vec_record(vec);
}
