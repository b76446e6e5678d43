/* SPDX-License-Identifier: BSD-2-Clause */
/* The NUMA matrix's record writer (efi/out/numa_out.h). */
#include <efi.h>
#include "efi/out/numa_out.h"
#include "efi/out/report.h"
#include "efi/out/window_json.h"
#include "efi/out/health_json.h"
#include "arch/lib/fmt.h"

/* A window's quietness: interrupts masked, the SMI count delta (as the measurement records). */
static void cell_quiet_json(struct json *j, const char *key, const struct window_result *w)
{
	json_obj(j, key);
	rec_quiet_json(j, w->masked, w->smi_status, w->smi_delta);
	json_close(j);
}

static void errors(const struct numa_request *req, const struct numa_result *res)
{
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++) {
			const struct numa_cell *x = &res->cell[c][m];
			if (!req->node[c].ncpu || !req->node[m].nr)
				continue;
			if (!x->placed)
				rep_error("numa_matrix", "node %u's memory has no free run of %llu bytes (numa_size)",
					  req->node[m].domain, (unsigned long long)req->size);
			else if (!x->ran)
				rep_error("numa_matrix", "node %u -> node %u: a CPU did not run its kernel", req->node[c].domain,
					  req->node[m].domain);
		}
}

/* The firmware's claims for the cell beside what it measured: HMAT ("claims") and SLIT ("slit"). */
void hmat_claims_json(struct json *j, const char *key, const struct numa_claim *k, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++) {
		json_obj(j, NULL);
		json_str(j, "claim", acpi_hmat_type_name(k[i].data_type));
		json_str(j, "unit", k[i].data_type < 3 ? "ps" : "MB/s");
		json_u64(j, "claimed", k[i].claimed);
		json_u64(j, "measured", k[i].measured);
		json_milli(j, "fraction", k[i].fraction_milli);
		json_close(j);
	}
	json_close(j);
}

static void cell_claims_json(struct json *j, const struct numa_request *req, const struct numa_result *res, int c, int m)
{
	struct numa_claim k[ACPI_HMAT_NTYPES];
	hmat_claims_json(j, "claims", k, numa_cell_claims(req, res, c, m, k, ACPI_HMAT_NTYPES));
	uint32_t d;
	uint64_t cl, me;
	if (numa_cell_slit(req, res, c, m, &d, &cl, &me)) {
		json_null(j, "slit");
		return;
	}
	json_obj(j, "slit");
	json_u64(j, "distance", d);
	json_milli(j, "claimed_ratio", cl);
	json_milli(j, "measured_ratio", me);
	json_close(j);
}

void numa_record(const struct numa_request *req, const struct numa_result *res)
{
	rep_line("numa:       %d node(s), %llu bytes per cell: idle latency and read bandwidth, CPU node -> memory node",
		 req->nn, (unsigned long long)req->size);
	errors(req, res);
	struct json *j = rep_begin("numa_matrix");
	json_u64(j, "bytes", req->size);
	json_str(j, "latency_kernel", "pointer chase, 64-byte lines, the node's first selected CPU");
	json_str(j, "read_kernel", "load, every selected CPU of the node on its share");
	json_arr(j, "nodes");
	for (int k = 0; k < req->nn; k++) {
		json_obj(j, NULL);
		json_u64(j, "node", req->node[k].domain);
		json_u64(j, "cpus", (uint64_t)req->node[k].ncpu);
		json_u64(j, "memory_bytes", req->node[k].mem_bytes);
		if (!req->node[k].ncpu || !req->node[k].nr)
			json_str(j, "why", !req->node[k].ncpu && !req->node[k].nr ? "no selected CPUs and no memory: neither row nor column"
					   : !req->node[k].ncpu ? "no selected CPUs: no row (its memory is a column)"
							    : "no memory: no column (its CPUs are a row)");
		json_close(j);
	}
	json_close(j);
	static const char *const keys[2] = { "latency_ns", "read_gbps" };
	for (int t = 0; t < 2; t++) {
		json_arr(j, keys[t]);
		for (int c = 0; c < req->nn; c++) {
			json_arr(j, NULL);
			for (int m = 0; m < req->nn; m++) {
				const struct numa_cell *x = &res->cell[c][m];
				if (!x->ran)
					json_null(j, NULL);
				else
					json_milli(j, NULL, t ? x->gbps_milli : x->ps);
			}
			json_close(j);
		}
		json_close(j);
	}
	json_str(j, "hmat_why", numa_hmat_why(req, res));   /* NULL: null */
	json_arr(j, "cells");
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++)
			if (res->cell[c][m].ran) {
				json_obj(j, NULL);
				json_u64(j, "cpu_node", req->node[c].domain);
				json_u64(j, "memory_node", req->node[m].domain);
				cell_quiet_json(j, "latency_window", &res->cell[c][m].wl);
				cell_quiet_json(j, "read_window", &res->cell[c][m].wb);
				cell_claims_json(j, req, res, c, m);
				health_json(j, res->cell[c][m].health, "no memory for the health attachments");
				json_close(j);
			}
	json_close(j);
	rep_end();
	for (int c = 0; c < req->nn; c++)
		for (int m = 0; m < req->nn; m++)
			if (res->cell[c][m].ran) {
				char l[32], g[32];
				fmt_milli(l, sizeof(l), res->cell[c][m].ps);
				fmt_milli(g, sizeof(g), res->cell[c][m].gbps_milli);
				rep_line("            node %u -> memory of node %u: %s ns idle, %s GB/s read", req->node[c].domain,
					 req->node[m].domain, l, g);
			}
	for (int k = 0; k < req->nn; k++)
		if (!req->node[k].ncpu || !req->node[k].nr)
			rep_line("            node %u: %s", req->node[k].domain, !req->node[k].ncpu ? "no selected CPUs" : "no memory");
}
