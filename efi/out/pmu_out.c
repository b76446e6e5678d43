/* SPDX-License-Identifier: BSD-2-Clause */
/* The counter sets' records (efi/out/pmu_out.h). */
#include <efi.h>
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "efi/out/dma_json.h"

void cha_error_record(const struct cha_request *req, const char *why)
{
	struct json *j = rep_begin("cha");
	cha_error_json(req, why, j);
	rep_end();
}

void cha_window_record(const char *kernel, const struct cha_request *req, const struct cha_result *res,
		       const struct self_check *sc)
{
	struct json *j = rep_begin("cha");
	json_str(j, "kernel", kernel);
	cha_result_json(req, res, j);
	self_check_json(j, "self_check", sc);
	rep_end();
}

/* A window's per-CPU record opened with its kernel, pass and cpu. */
static struct json *cpu_record(const char *type, const char *kernel, uint32_t pass, uint32_t cpu)
{
	struct json *j = rep_begin(type);
	json_str(j, "kernel", kernel);
	json_u64(j, "pass", pass);
	json_u64(j, "cpu", cpu);
	return j;
}

void core_set_record(const char *kernel, uint32_t pass, uint32_t cpu, const struct core_set *s)
{
	struct json *j = cpu_record("core_counters", kernel, pass, cpu);
	json_str(j, "backend", s->pmu ? s->pmu->name : "none");
	core_set_json(j, s);
	rep_end();
}

void corepmu_probe_record(const struct corepmu *cp)
{
	struct json *j = rep_begin("corepmu");
	corepmu_json_probe(j, cp);
	rep_end();
}

void corepmu_window_record(const char *type, const struct corepmu *cp, uint32_t cpu, const char *kernel,
			   uint32_t pass, void (*fill)(struct json *, const struct corepmu *))
{
	struct json *j = cpu_record(type, kernel, pass, cpu);
	fill(j, cp);
	rep_end();
}

void cspmu_record_write(const struct cspmu_record *r)
{
	struct json *j = rep_begin("uncore");
	cspmu_record_json(r, j);
	rep_end();
	rep_line("uncore:     %s (APMT node %u, %s window): %s%s%s", r->pmu ? r->pmu : "CoreSight PMU", r->node->id,
		 r->window, r->status, r->why ? ": " : "", r->why ? r->why : "");
}

void nv_acpi_uncore_record(const struct nv_apmu_dev *d, const struct aml_device *ad, const struct nv_apmu_result *res,
			   const char *status, const char *why)
{
	struct json *j = rep_begin("uncore");
	nv_acpi_uncore_json(d, ad, res, status, why, j);
	rep_end();
}

void nv_acpi_aml_record(const struct aml_info *aml)
{
	struct json *j = rep_begin("aml");
	nv_acpi_aml_json(aml, j);
	rep_end();
}

void uncore_status_record(const char *pmu, const char *platform, const char *status, const char *why,
			  const char *free_why)
{
	struct json *j = rep_begin("uncore");
	uncore_status_json(pmu, platform, status, why, j);
	if (free_why)
		uncore_free_running_why_json(free_why, j);
	rep_end();
}

void uncore_socket_record(const struct unc_request *req, const struct unc_result *res, uint32_t s, const char *cpuid,
			  const struct imc_free_run *fr, uint64_t prog)
{
	struct json *j = rep_begin("uncore");
	uncore_result_json(req, res, s, cpuid, j);
	if (fr)
		uncore_free_running_json(fr, s, prog, req->known_read_bytes + req->known_write_bytes, j);
	rep_end();
}

void uncore_iio_map_record(const char *platform, uint32_t s, const struct iio_map *m)
{
	struct json *j = rep_begin("uncore_iio_map");
	uncore_iio_map_json(platform, s, m, j);
	rep_end();
}
