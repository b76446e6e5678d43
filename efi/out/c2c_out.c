/* SPDX-License-Identifier: BSD-2-Clause */
/* c2c's record writer (efi/out/c2c_out.h): the `c2c` JSONL record and console lines from its
 * request and result, after the run. */
#include <efi.h>
#include "efi/out/c2c_out.h"
#include "efi/out/health_json.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"

#define PS_PER_NS 1000u

static void matrix_json(struct json *j, const char *key, const uint64_t *m, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++) {
		json_arr(j, NULL);
		for (int k = 0; k < n; k++)
			json_milli(j, NULL, m[i * n + k]);   /* ps = milli-ns */
		json_close(j);
	}
	json_close(j);
}

static void summary_json(struct json *j, const char *name, const struct c2c_summary *s)
{
	json_obj(j, name);
	json_u64(j, "pairs", s->pairs);
	if (s->pairs) {
		json_milli(j, "min_ns", s->min);
		json_milli(j, "median_ns", s->median);
	}
	json_close(j);
}

static void smi_json(struct json *j, hw_status st, uint64_t smi)
{
	if (st == HW_OK)
		json_u64(j, "smi_delta", smi);
	else
		json_str(j, "smi_delta", hw_status_name(st));
}

static void cpus_json(struct json *j, const struct c2c_request *req)
{
	json_arr(j, "cpus");
	for (int i = 0; i < req->n; i++) {
		const struct c2c_cpu *t = &req->topo[i];
		json_obj(j, NULL);
		json_u64(j, "cpu", t->cpu);
		json_u64(j, "package", t->package);
		json_u64(j, "core", t->core);
		json_u64(j, "l3", t->l3);
		if (t->node >= 0)
			json_u64(j, "node", (uint64_t)t->node);
		else
			json_null(j, "node");
		json_close(j);
	}
	json_close(j);
}

static void pairs_json(struct json *j, const struct c2c_result *res)
{
	json_arr(j, "pairs");
	for (int q = 0; q < res->npairs; q++) {
		const struct c2c_pair *p = &res->pair[q];
		json_obj(j, NULL);
		json_u64(j, "a", p->a);
		json_u64(j, "b", p->b);
		json_bool(j, "ok", p->ok);
		json_bool(j, "interrupts_masked", p->masked);
		smi_json(j, p->smi_st, p->smi);
		json_close(j);
	}
	json_close(j);
}

static void c2c_json(const struct c2c_request *req, const struct c2c_result *res)
{
	struct json *j = rep_begin("c2c");
	json_str(j, "method", "CAS ping-pong on one cache line, round trip / 2");
	json_u64(j, "rounds", req->rounds);
	json_u64(j, "trips_per_round", req->trips);
	json_bool(j, "emulated", req->emulated);
	if (req->hypervisor && req->hypervisor[0])
		json_str(j, "hypervisor", req->hypervisor);
	json_str(j, "package_from", req->package_from);
	json_str(j, "l3_domain_from", req->l3_domain_from);
	if (req->line_node >= 0)
		json_u64(j, "node", (uint64_t)req->line_node);
	else
		json_null(j, "node");
	json_bool(j, "node_local", req->line_local);
	json_hex(j, "buffer", (uint64_t)(uintptr_t)req->line);
	cpus_json(j, req);
	matrix_json(j, "min_ns", res->min_ps, res->n);
	matrix_json(j, "median_ns", res->median_ps, res->n);
	pairs_json(j, res);
	smi_json(j, res->smi_st, res->smi);
	json_obj(j, "by_relation");
	for (int r = C2C_SMT; r < C2C_NREL; r++)
		summary_json(j, c2c_rel_name((enum c2c_rel)r), &res->rel[r]);
	json_close(j);
	json_obj(j, "by_node");
	for (int r = 0; r < C2C_NNODE; r++)
		summary_json(j, c2c_node_rel_name((enum c2c_node_rel)r), &res->node[r]);
	json_close(j);
	json_bool(j, "interrupts_masked", res->all_masked);
	json_u64(j, "failed_pairs", (uint64_t)res->failed);
	health_json(j, res->health, "no memory for the health attachments");   /* over all pairs */
	rep_end();
}

/* The console table: the median matrix in whole ns, one row per CPU. */
static void matrix_text(const struct c2c_cpu *t, int n, const uint64_t *m)
{
	char line[16 + 6 * C2C_MAX_CPUS];
	struct strbuf sb;
	sb_init(&sb, line, sizeof(line));
	sb_printf(&sb, "            ns  ");
	for (int k = 0; k < n; k++)
		sb_printf(&sb, "%5u", t[k].cpu);
	rep_line("%s", line);
	for (int i = 0; i < n; i++) {
		sb_init(&sb, line, sizeof(line));
		sb_printf(&sb, "            %4u", t[i].cpu);
		for (int k = 0; k < n; k++)
			sb_printf(&sb, "%5llu", (unsigned long long)((m[i * n + k] + PS_PER_NS / 2) / PS_PER_NS));
		rep_line("%s", line);
	}
}

void c2c_record(const struct c2c_request *req, const struct c2c_result *res)
{
	rep_line("c2c:        CAS ping-pong, %d CPUs, %u rounds x %u round trips per pair, interrupts masked on both",
		 req->n, req->rounds, req->trips);
	for (int q = 0; q < res->npairs; q++)
		if (!res->pair[q].ok)
			rep_error("c2c", "CPUs %u and %u: %s", res->pair[q].a, res->pair[q].b,
				  !res->pair[q].ran ? "a CPU did not run the window"
						    : "a CAS wait timed out (the partner never answered)");
	c2c_json(req, res);
	matrix_text(req->topo, res->n, res->median_ps);
	for (int r = C2C_SMT; r < C2C_NREL; r++)
		if (res->rel[r].pairs) {
			char mn[32], md[32];
			fmt_milli(mn, sizeof(mn), res->rel[r].min);
			fmt_milli(md, sizeof(md), res->rel[r].median);
			rep_line("            %-8s %3u pairs: min %s ns, median %s ns", c2c_rel_name((enum c2c_rel)r),
				 res->rel[r].pairs, mn, md);
		}
}
