/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVMe measurement's record writer (efi/out/nvme_out.h). */
#include <efi.h>
#include "efi/out/nvme_out.h"
#include "efi/out/report.h"
#include "efi/out/health_json.h"
#include "arch/lib/fmt.h"

static const char *rw_name(const struct nvme_request *q)
{
	return q->rw == CFG_RW_WRITE ? "write" : "read";
}

/* The disk a point read or wrote, in dma_write_lba's syntax: efiperf's queues and the Block IO
 * fallback both use namespace 1 (Identify and I/O commands with NSID 1). */
static void disk_json(struct json *j, const char *bdf)
{
	char disk[32];
	fmt_snprintf(disk, sizeof(disk), "%s/ns1", bdf);
	json_str(j, "disk", disk);
}

static void skipped_record(const struct nvme_request *q, const struct nvme_point_out *o)
{
	const struct nvme_point_result *res = &o->res;
	struct json *j = rep_begin("nvme");
	json_str(j, "bdf", res->bdf);
	disk_json(j, res->bdf);
	json_str(j, "path", res->path);
	json_str(j, "rw", rw_name(q));
	json_str(j, "window", "alone");
	json_u64(j, "bs", res->bs);
	json_u64(j, "iodepth", res->iodepth);
	json_str(j, "status", "skipped");
	json_str(j, "why", o->skip_why);
	rep_end();
	rep_line("nvme:       %s bs %u iodepth %u: skipped: %s", res->bdf, res->bs, res->iodepth, o->skip_why);
}

static void point_json(struct json *j, const struct nvme_request *q, const struct nvme_point_result *res)
{
	json_str(j, "bdf", res->bdf);
	disk_json(j, res->bdf);
	json_str(j, "path", res->path);
	json_str(j, "rw", rw_name(q));
	json_str(j, "window", res->window);
	json_u64(j, "controllers", res->controllers);
	json_u64(j, "bs", res->bs);
	json_u64(j, "iodepth", res->iodepth);
	json_u64(j, "bytes", res->bytes);
	json_u64(j, "ns", res->ns);
	json_u64(j, "bw_bytes", res->bw_bytes);
	json_u64(j, "iops", res->iops);
	json_obj(j, "clat_ns");
	json_u64(j, "p50", res->clat_p50_ns);
	json_u64(j, "p99", res->clat_p99_ns);
	json_u64(j, "max", res->clat_max_ns);
	json_close(j);
	json_bool(j, "interrupts_masked", res->interrupts_masked);
	json_bool(j, "quiesced", res->interrupts_masked);
	if (res->verified >= 0)
		json_bool(j, "verified", res->verified);
	else
		json_str(j, "verified", "pattern unknown");
	json_u64(j, "commands", res->commands);
	json_u64(j, "failed", res->failed);
	json_obj(j, "dma");
	json_u64(j, "data_bytes", res->dma.data_bytes);
	json_u64(j, "sqe_bytes", res->dma.sqe_bytes);
	json_u64(j, "cqe_bytes", res->dma.cqe_bytes);
	json_u64(j, "prp_bytes", res->dma.prp_bytes);
	json_close(j);
}

static void point_record(const struct nvme_request *q, const struct nvme_result *r, const struct nvme_point_out *o)
{
	const struct nvme_point_result *res = &o->res;
	struct json *j = rep_begin("nvme");
	point_json(j, q, res);
	json_str(j, "status", o->status);
	if (o->with_why)
		json_str(j, "why", r->ctrl[o->ctrl].why);
	dma_window_json(j, &o->dw);
	health_json(j, o->health, o->with_why ? "the firmware's Block IO path runs outside efiperf's windows"
					      : "no memory for its state");
	rep_end();
	rep_line("nvme:       %s %s %s bs %u iodepth %u (%s, %u ctrl): %llu bytes, %llu B/s, %llu IOPS, clat p50 %llu p99 %llu "
		 "max %llu ns, %s%s, %s", res->bdf, res->path, rw_name(q), res->bs, res->iodepth, res->window,
		 res->controllers, (unsigned long long)res->bytes, (unsigned long long)res->bw_bytes,
		 (unsigned long long)res->iops, (unsigned long long)res->clat_p50_ns, (unsigned long long)res->clat_p99_ns,
		 (unsigned long long)res->clat_max_ns, res->interrupts_masked ? "interrupts masked" : "NOT QUIESCED",
		 res->verified == 1 ? ", verified" : res->verified == 0 ? ", DATA DIFFERS" : ", pattern unknown", o->status);
	if (o->err == NVME_PT_FAILED)
		rep_error("nvme", "%s bs %u iodepth %u: %s%s", res->bdf, res->bs, res->iodepth, o->status,
			  res->verified == 0 ? ", data differs from the pattern" : "");
	else if (o->err == NVME_PT_NO_BLOCKIO)
		rep_error("nvme", "%s: no usable firmware Block IO either", res->bdf);
}

static void gb_errors(const struct nvme_ctrl_result *c)
{
	for (int k = 0; k < c->ngb; k++)
		rep_error("nvme", "%s", c->gb_err[k]);
}

/* Taking controller i: taken, fallen back to Block IO, or a limit the settings break. */
static void take_lines(const struct nvme_request *q, const struct nvme_result *r, int i)
{
	const struct nvme_ctrl_result *c = &r->ctrl[i];
	const char *name = q->ctrl[i].name;
	if (c->take == NVME_TAKEN)
		rep_line("nvme:       %s taken: %s %s, MQES %u, MDTS %u bytes, %llu LBAs of %u bytes", name, c->mn, c->sn,
			 c->mqes, c->max_xfer, (unsigned long long)c->nsze, c->lba_bytes);
	if (c->take == NVME_FALLBACK) {
		if (c->gb_at_take)
			gb_errors(c);
		rep_error("nvme", "%s: %s: efiperf gave the controller back to the firmware and measures through its Block IO "
			  "(not quiesced)", name, c->why);
	}
	if (c->take == NVME_LIMIT) {
		rep_error("config", "%s: %s: %s", c->limit_where, c->limit_key, c->limit_msg);
		if (c->gb_at_take)
			gb_errors(c);
	}
}

static void controller_record(const struct nvme_request *q, const struct nvme_result *r, int i)
{
	const struct nvme_ctrl_result *c = &r->ctrl[i];
	if (!c->gb_at_take)
		gb_errors(c);
	if (c->after_bad)
		rep_error("nvme", "%s: after giving it back: %s", q->ctrl[i].name, c->after);
	struct json *j = rep_begin("nvme_controller");
	json_str(j, "bdf", q->ctrl[i].name);
	json_str(j, "path", c->path);
	json_bool(j, "bound_before", q->ctrl[i].bound_before);
	if (c->sn[0]) {
		json_str(j, "sn", c->sn);
		json_str(j, "mn", c->mn);
		json_u64(j, "mqes", c->mqes);
		json_u64(j, "max_transfer", c->max_xfer);
		json_u64(j, "lba_bytes", c->lba_bytes);
		json_u64(j, "nsze", c->nsze);
	}
	if (c->why[0])
		json_str(j, "why", c->why);
	json_str(j, "given_back", c->given_back ? c->given_back : "not taken");
	json_str(j, "blockio_after", c->after);
	rep_end();
}

void nvme_record(const struct nvme_request *q, const struct nvme_result *r)
{
	if (q->n == 0) {
		if (!rep_failed())
			rep_line("nvme:       no NVMe controller to measure");
		return;
	}
	if (r->nomem[0]) {
		rep_error("nvme", "%s", r->nomem);
		return;
	}
	for (int i = 0; i < r->n; i++)
		take_lines(q, r, i);
	for (uint32_t k = 0; k < r->npt; k++)
		if (r->pt[k].skipped)
			skipped_record(q, &r->pt[k]);
		else
			point_record(q, r, &r->pt[k]);
	for (int i = 0; i < r->n; i++)
		controller_record(q, r, i);
}
