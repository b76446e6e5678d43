/* SPDX-License-Identifier: BSD-2-Clause */
/* loaded_latency's record writer (efi/out/loaded_latency_out.h). */
#include <efi.h>
#include "efi/out/loaded_latency_out.h"
#include "efi/out/report.h"
#include "efi/out/window_json.h"
#include "efi/out/health_json.h"
#include "efi/out/numa_out.h"
#include "arch/lib/fmt.h"

static void point_json(struct json *j, const struct ll_point *pt)
{
	json_obj(j, NULL);
	if (pt->idle)
		json_null(j, "delay");
	else
		json_u64(j, "delay", pt->delay);
	json_bool(j, "ok", pt->ok);
	json_milli(j, "ns_per_load", pt->ps);
	json_milli(j, "read_gbps", pt->gbps_milli);
	json_u64(j, "read_bytes", pt->read_bytes);   /* what read_gbps rounds: a slow point still shows it moved */
	json_u64(j, "window_ns", pt->window_ns);
	rec_quiet_json(j, pt->w.masked, pt->w.smi_status, pt->w.smi_delta);
	health_json(j, pt->health, "no memory for the health attachments");
	json_close(j);
}

static void point_text(const struct ll_point *pt)
{
	char l[32], g[32];
	fmt_milli(l, sizeof(l), pt->ps);
	fmt_milli(g, sizeof(g), pt->gbps_milli);
	if (pt->idle)
		rep_line("            idle         %10s ns/load", l);
	else
		rep_line("            delay %6u %10s ns/load at %s GB/s", pt->delay, l, g);
	if (!pt->ok)
		rep_error("loaded_latency", "delay %s: a CPU did not run or the chase did not come back to its start",
			  pt->idle ? "idle" : "point");
}

void ll_record(const struct ll_request *req, const struct ll_result *res)
{
	const struct cpu_sel *s = &req->sel;
	if (!res->placed) {
		rep_error("loaded_latency", "cannot allocate %llu bytes for each of %d CPUs (loaded_size)",
			  (unsigned long long)req->size, s->n);
		return;
	}
	rep_line("loaded:     chase on CPU %u, %d CPU(s) reading with injection delays, %llu bytes each", s->cpu[0], s->n - 1,
		 (unsigned long long)req->size);
	struct json *j = rep_begin("loaded_latency");
	json_str(j, "method", "pointer chase on the first CPU, the others read 64-byte lines with a spin delay after each");
	json_u64(j, "chase_cpu", s->cpu[0]);
	json_u64(j, "bandwidth_cpus", (uint64_t)(s->n - 1));
	json_u64(j, "bytes", req->size);
	json_bool(j, "emulated", req->emulated);
	json_arr(j, "points");
	for (int k = 0; k < res->npoints; k++)
		point_json(j, &res->pt[k]);
	json_close(j);
	struct numa_claim c[ACPI_HMAT_NTYPES];
	const char *why;
	hmat_claims_json(j, "idle_claims", c, ll_idle_claims(req, res, c, ACPI_HMAT_NTYPES, &why));
	json_str(j, "hmat_why", why);
	rep_end();
	for (int k = 0; k < res->npoints; k++)
		point_text(&res->pt[k]);
}
