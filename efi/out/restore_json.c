/* SPDX-License-Identifier: BSD-2-Clause */
/* The one writer of the `restore` object (efi/out/pmu_json.h), for core and uncore records. */
#include "efi/out/pmu_json.h"
#include "pmu/saveset.h"

void json_restore_report(struct json *j, const struct saveset_report *r, const char *why)
{
	json_obj(j, "restore");
	/* saveset_report_add: HW_ERROR for a register written whose restore never ran */
	const char *st = !r->nfailed ? (r->dropped ? "not-saved" : "ok")
		       : r->status == HW_ERROR ? "not-restored" : hw_status_name(r->status);
	json_str(j, "status", st);
	json_u64(j, "registers", r->registers);
	json_u64(j, "written", r->written);
	json_arr(j, "failed");
	for (uint32_t i = 0; i < r->nfailed && i < SAVESET_REPORT_FAILED; i++) {
		char name[48];
		reg_name(r->failed[i], name, sizeof(name));
		json_obj(j, NULL);
		json_str(j, "register", name);
		json_str(j, "status", hw_status_name((hw_status)r->failed_st[i]));
		json_close(j);
	}
	json_close(j);
	json_u64(j, "nfailed", r->nfailed);
	if (r->dropped)
		json_u64(j, "not_saved", r->dropped);
	if (why && why[0])
		json_str(j, "why", why);
	json_close(j);
}
