/* SPDX-License-Identifier: BSD-2-Clause */
/* A Block IO read's members and error (efi/out/blockio_out.h). */
#include <efi.h>
#include "efi/out/blockio_out.h"
#include "efi/out/report.h"
#include "pmu/metrics.h"

void blockio_read_json(struct json *j, const struct blockio_read *c)
{
	json_u64(j, "block_size", c->block_size);
	json_u64(j, "device_bytes", c->device_bytes);
	json_u64(j, "bytes", c->done);
	json_u64(j, "transfer_bytes", c->xfer);
	json_u64(j, "ns", metric_ticks_to_ns(c->ticks, c->hz));
	json_milli(j, "gbps", metric_gbps_milli(c->done, metric_ticks_to_ns(c->ticks, c->hz)));
	json_str(j, "status", c->st == 0 ? "ok" : "ReadBlocks failed");
	if (c->pattern == 1)
		json_bool(j, "verified", 1);
	else if (c->pattern == 2)
		json_bool(j, "verified", 0);
	else
		json_str(j, "verified", "pattern unknown");
	if (c->pattern == 2)
		json_u64(j, "first_bad_offset", c->bad);
}

int blockio_read_failed(const struct blockio_read *c, const char *bdf, const char *where)
{
	if (c->st == 0 && c->pattern != 2)
		return 0;
	rep_error(where, "%s: %s at device offset %llu", bdf, c->st != 0 ? "ReadBlocks failed" : "data differs from the pattern",
		  (unsigned long long)(c->st != 0 ? c->done : c->bad));
	return -1;
}

int blockio_record(const struct blockio_request *req, const struct blockio_result *res)
{
	if (res->no_buffer) {
		rep_error("blockio", "cannot allocate the %u-byte transfer buffer", BLOCKIO_TRANSFER_BYTES);
		return -1;
	}
	if (res->refused) {
		rep_error("blockio", "dma_blockio %s", res->why);
		return -1;
	}
	const struct blockio_read *c = &res->rd;
	uint64_t ns = metric_ticks_to_ns(c->ticks, c->hz);
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "blockio_read");
	json_str(j, "bdf", req->name);
	blockio_read_json(j, c);
	dma_window_json(j, &res->win);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(c->done, ns));
	rep_line("blockio:    %s: read %llu of %llu bytes in %llu ns, %s GB/s, %s", req->name, (unsigned long long)c->done,
		 (unsigned long long)c->device_bytes, (unsigned long long)ns, rate,
		 c->pattern == 1 ? "data verified" : c->pattern == 2 ? "DATA DIFFERS" : "pattern unknown (not verified)");
	return blockio_read_failed(c, req->name, "blockio");
}

static void write_json(struct json *j, const struct blockio_write_request *req, const struct blockio_write_result *res,
		       uint64_t bytes, uint64_t ns)
{
	json_str(j, "kernel", "blockio_write");
	size_t fn = 0;   /* the function: the name up to its /nsN or /portN */
	while (req->name[fn] && req->name[fn] != '/')
		fn++;
	json_strn(j, "bdf", req->name, fn);
	json_str(j, "disk", req->name);
	json_u64(j, "first_lba", req->t.first);
	json_u64(j, "last_lba", req->t.last);
	json_u64(j, "block_size", req->disk.block_size);
	json_u64(j, "bytes", bytes);
	json_u64(j, "transfer_bytes", BLOCKIO_TRANSFER_BYTES);
	json_u64(j, "ns", ns);
	json_milli(j, "gbps", metric_gbps_milli(bytes, ns));
	json_u64(j, "flush_ns", metric_ticks_to_ns(res->fticks, res->hz));
	json_str(j, "status", res->status);
	json_bool(j, "verified", !res->wst && !res->fst && !res->rst && !res->differs);
	if (res->differs)
		json_u64(j, "first_bad_offset", res->bad);
}

int blockio_write_record(const struct blockio_write_request *req, const struct blockio_write_result *res)
{
	if (res->no_buffer) {
		rep_error("blockio_write", "cannot allocate the %u-byte transfer buffer", BLOCKIO_TRANSFER_BYTES);
		return -1;
	}
	uint64_t bytes = res->blocks * req->disk.block_size, ns = metric_ticks_to_ns(res->wticks, res->hz);
	struct json *j = rep_begin("measurement");
	write_json(j, req, res, bytes, ns);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(bytes, ns));
	rep_line("blockio:    %s: WROTE blocks %llu-%llu (%llu bytes) in %llu ns, %s GB/s, read back: %s", req->name,
		 (unsigned long long)req->t.first, (unsigned long long)req->t.last, (unsigned long long)bytes,
		 (unsigned long long)ns, rate, res->status);
	if (res->wst || res->fst || res->rst || res->differs) {
		rep_error("blockio_write", "%s: %s (device offset %llu)", req->name, res->status,
			  (unsigned long long)(res->differs ? res->bad : bytes + req->t.first * req->disk.block_size));
		return -1;
	}
	return 0;
}
