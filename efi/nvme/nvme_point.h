/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One measurement point of efiperf's own NVMe queues: a block size and a queue depth, on one
 * or several controllers at once (each a "lane" with its own I/O queue pair), in one polling
 * loop that makes no firmware call, so it runs inside a window with interrupts masked. fio's
 * vocabulary: bs, iodepth, clat (doorbell to completion seen). Pure over efi/nvme/nvme.h: it
 * runs on the host against tests/model/nvme_model.c.
 */
#ifndef EFIPERF_NVME_POINT_H
#define EFIPERF_NVME_POINT_H

#include "efi/nvme/nvme.h"

#define NVME_POINT_MAX_LANES 8   /* controllers in one window */

/* What the device moved for a point, by DMA (NVMe 1.4 4.1-4.3): data bytes, 64-byte
 * submission entries fetched, 16-byte completion entries written, 8-byte PRP list entries
 * fetched. Counted from what the driver handed the device, not measured. */
struct nvme_dma {
	uint64_t data_bytes, sqe_bytes, cqe_bytes, prp_bytes;
};

struct nvme_lane {
	/* set by the caller */
	struct nvme_ctrl *c;
	struct nvme_queue *q;           /* created with at least iodepth + 1 entries */
	const struct nvme_mem *buf;     /* at least q->entries x bs bytes: one bs slot per CID */
	uint8_t opc;                    /* NVME_CMD_READ or NVME_CMD_WRITE */
	uint32_t bs;                    /* bytes per command: a multiple of c->lba_bytes, <= max_xfer */
	uint32_t iodepth;               /* commands in flight: 1 .. q->entries - 1 */
	uint64_t first_lba, lbas;       /* the region commands walk sequentially, wrapping: >= bs in LBAs */
	uint64_t bytes;                 /* to move: a multiple of bs */
	uint64_t *lat;                  /* lat_cap entries: one clat in ticks per completed command */
	uint64_t lat_cap;
	/* results */
	uint64_t submitted, completed, failed;   /* commands; failed: completed with a non-zero status */
	uint16_t first_status;          /* SCT:SC of the first failure */
	uint64_t t_first, t_last;       /* ticks: first doorbell, last completion seen */
	struct nvme_dma dma;
	int timed_out, fatal;           /* no completion within the timeout / CSTS.CFS or all ones */
	int region_short;               /* the region holds no whole command of bs: nothing submitted */
	uint64_t slot_lba[NVME_MAX_QUEUE_ENTRIES];   /* first LBA of the last command in each slot */
};

/* Run every lane to its `bytes`: keep iodepth commands in flight on each (a Write's slot is
 * filled with efiperf's pattern, efi/measure/dma_pattern.h, of its LBA first), reap, ring
 * doorbells. A lane stops early after `timeout_ticks` without a completion or on CSTS.CFS.
 * Returns 0 when every command of every lane completed with status 0, else -1. A lane whose
 * region holds no whole command of bs gets nothing submitted and region_short (no division by
 * a zero span, no wait for a timeout).
 * n: 1..NVME_POINT_MAX_LANES. */
int nvme_point_run(struct nvme_lane *l, int n, uint64_t timeout_ticks);

/* Whole commands of bs bytes a region of `lbas` LBAs of lba_bytes each holds: 0 when it holds
 * none (the region is smaller than bs) or bs is no whole number of LBAs. */
uint64_t nvme_region_commands(uint64_t lbas, uint32_t bs, uint32_t lba_bytes);

/* LBAs, from first_lba on, that a Write lane's commands covered in its last run (its walk wraps
 * in the region, so at most the region's whole commands); 0 for a Read lane. What a read-back
 * must check, and no more. */
uint64_t nvme_lane_written_lbas(const struct nvme_lane *l);

/* The data of the last command in each slot of a Read lane against efiperf's pattern: 1 all
 * match, 0 a difference (*bad: its device byte offset), -1 the disk does not carry the
 * pattern (its first word checked in the first slot). */
int nvme_point_verify(const struct nvme_lane *l, uint64_t *bad);

/* Sorts lat[0..n) and gives the nearest-rank 50th and 99th percentiles and the maximum (0
 * for n = 0), in lat's units. */
void nvme_lat_summary(uint64_t *lat, uint64_t n, uint64_t *p50, uint64_t *p99, uint64_t *max);

/* Take a controller for the measurement: nvme_init with one I/O queue pair, then that pair of
 * `entries` entries. On any failure the controller is disabled again (nvme_release) and c->why
 * names the first failure (e.g. "Create I/O SQ: status SCT 1 SC 0x01 ..."). 0 or -1. */
int nvme_take(struct nvme_ctrl *c, const struct nvme_env *env, struct nvme_queue *q, uint16_t entries);
/* Give it back: delete the I/O queue pair if it exists (SQ, then CQ), disable the controller
 * (CC.EN = 0, RDY = 0 within CAP.TO). 0, or -1 with c->why (the first failure is kept). */
int nvme_release(struct nvme_ctrl *c, struct nvme_queue *q);

#endif
