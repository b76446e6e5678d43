/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A Block IO read's members and error (efi/measure/blockio_run.h), as the `measurement`
 * (blockio_read), `ddio` and `dma_cpu_traffic` records carry them; the Block IO read and write
 * measurements' records.
 */
#ifndef EFIPERF_BLOCKIO_OUT_H
#define EFIPERF_BLOCKIO_OUT_H

#include "efi/measure/blockio_run.h"
#include "efi/out/jsonl.h"

/* Members block_size, device_bytes, bytes, transfer_bytes, ns, gbps, status, verified
 * (true/false/"pattern unknown"), first_bad_offset. */
void blockio_read_json(struct json *j, const struct blockio_read *c);
/* 0, or -1 after an error record (where) naming bdf and the device offset: a failed read or
 * data that differs from the pattern. */
int blockio_read_failed(const struct blockio_read *c, const char *bdf, const char *where);

/* The `measurement` record (kernel blockio_read, bdf, the read's members, self_check,
 * link_limit) and the `blockio:` line, or the error that stopped the read. Returns 0, or -1
 * after an error record. */
int blockio_record(const struct blockio_request *req, const struct blockio_result *res);

/* The `measurement` record (kernel blockio_write, bdf, disk, first_lba, last_lba, block_size,
 * bytes, transfer_bytes, ns, gbps, flush_ns, status, verified, first_bad_offset) and the
 * `blockio:` WROTE line. Returns 0, or -1 after an error record. */
int blockio_write_record(const struct blockio_write_request *req, const struct blockio_write_result *res);

#endif
