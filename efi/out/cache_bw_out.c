/* SPDX-License-Identifier: BSD-2-Clause */
/* cache_bw's record writer (efi/out/cache_bw_out.h). */
#include <efi.h>
#include "efi/out/cache_bw_out.h"
#include "efi/out/copy_out.h"
#include "efi/out/window_json.h"
#include "efi/out/health_json.h"
#include "efi/out/report.h"
#include "efi/out/tune_json.h"
#include "arch/lib/fmt.h"

static void point_json(struct json *j, const char *key, const struct cache_bw_point *pt)
{
	json_obj(j, key);
	json_bool(j, "ran", pt->ok);
	json_milli(j, "gbps", pt->ok ? pt->gbps_milli : 0);
	json_u64(j, "calls_per_pass", pt->reps);
	rec_quiet_json(j, pt->w.masked, pt->w.smi_status, pt->w.smi_delta);
	health_json(j, pt->health, "no memory for the health attachments");
	json_close(j);
}

static void kernel_json(struct json *j, const struct cache_bw_request *req, const struct cache_bw_kernel *bk,
			const uint64_t *cpu_gbps)
{
	json_obj(j, NULL);
	json_str(j, "function", kernel_kind_name(bk->kind));
	json_str(j, "kernel", bk->k->name);
	if (bk->tune.ncand)
		tune_json(j, "tuner", &bk->tune, req->cpu_class, req->cpu[0], req->timer_hz);
	else
		json_null(j, "tuner");
	point_json(j, "one_cpu", &bk->one);
	point_json(j, "all_cpus", &bk->all);
	json_arr(j, "per_cpu_gbps");
	for (int i = 0; i < req->n; i++)
		json_milli(j, NULL, cpu_gbps[i]);
	json_close(j);
	json_close(j);
}

static void level_json(const struct cache_bw_request *req, const struct cache_bw_result *res, int l)
{
	const struct cache_bw_level *lv = &req->level[l];
	const struct cache_bw_level_result *lr = &res->lv[l];
	struct json *j = rep_begin("cache_bw");
	json_str(j, "level", lv->name);
	json_u64(j, "level_bytes", lv->level_bytes);
	json_u64(j, "array_bytes_one_cpu", lv->single);
	json_u64(j, "array_bytes_per_cpu_all", lv->each);
	json_u64(j, "cpus", (uint64_t)req->n);
	json_u64(j, "passes", req->passes);
	json_bool(j, "emulated", req->emulated);
	json_arr(j, "kernels");
	for (int s = 0; s < lr->nk; s++)
		kernel_json(j, req, &lr->k[s], &res->cpu_gbps[((uint64_t)l * CACHE_BW_NKINDS + (uint64_t)s) * (uint64_t)req->n]);
	json_close(j);
	rep_end();
}

/* The level's console line per kernel and its errors. */
static void level_text(const struct cache_bw_request *req, const struct cache_bw_result *res, int l)
{
	const char *name = req->level[l].name;
	const struct cache_bw_level_result *lr = &res->lv[l];
	for (int s = 0; s < lr->nk; s++) {
		const struct cache_bw_kernel *bk = &lr->k[s];
		char g1[32], ga[32];
		fmt_milli(g1, sizeof(g1), bk->one.gbps_milli);
		fmt_milli(ga, sizeof(ga), bk->all.gbps_milli);
		rep_line("            %-5s %-6s %-14s one CPU %10s GB/s   %d CPUs %10s GB/s", name, kernel_kind_name(bk->kind),
			 bk->k->name, g1, req->n, ga);
		if (!bk->one.ok || !bk->all.ok)
			rep_error("cache_bw", "%s %s: a CPU did not run the kernel", name, bk->k->name);
	}
}

void cache_bw_record(const struct cache_bw_request *req, const struct cache_bw_result *res)
{
	rep_line("cache_bw:   load (read), store (write), copy, triad inside each cache level (%s) and DRAM; one CPU, then %d",
		 req->cache_source ? req->cache_source : "no levels reported", req->n);
	if (res->no_memory) {
		rep_error("cache_bw", "cannot allocate the working state of %d levels and %d CPUs", req->nlevels, req->n);
		return;
	}
	for (int l = 0; l < res->nlevels; l++) {
		const struct cache_bw_level_result *lr = &res->lv[l];
		if (lr->alloc_failed) {
			rep_error("cache_bw", "%s: cannot allocate %d x %llu bytes for each of %d CPUs", req->level[l].name,
				  CACHE_BW_ARRAYS, (unsigned long long)lr->alloc, req->n);
			continue;
		}
		for (int s = 0; s < lr->nk; s++)
			if (lr->k[s].tune_failed)
				rep_error("cache_bw", "%s: the tuner found no variant on CPU %u (status %d): using %s",
					  kernel_kind_name(lr->k[s].kind), req->cpu[0], lr->k[s].tune.status,
					  lr->k[s].fallback ? lr->k[s].fallback->name : "none");
		level_json(req, res, l);
		level_text(req, res, l);
	}
}
