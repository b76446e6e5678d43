/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NVMe measurement in the measurement shape (efi/measure/shape.h):
 *
 *   struct nvme_request   typed, built once by the run plan (efi/measure/nvme_measure.h
 *                         nvme_plan) from nvme, nvme_rw, nvme_bs, nvme_iodepth, nvme_size and
 *                         nvme_write_lba: the controllers resolved (BDF, BAR0, CAP.MQES), the
 *                         bs x iodepth points, the write range. Nothing below parses a string.
 *   nvme_run              takes each controller, runs every point (alone, then shared when two
 *                         or more are taken), gives each back; fills struct nvme_result and
 *                         writes no record and no console text. Pure over the measure ctx and
 *                         struct nvme_fw (the firmware's driver model, DMA memory, Block IO and
 *                         the DMA window): host-tested on tests/model/nvme_model.c.
 *   nvme_record           efi/out/nvme_out.c: the nvme and nvme_controller records and the
 *                         console lines, from the result, after the run.
 *
 * Facts: NVMe 1.4 4.1-4.3 (what a device moves: 64-byte SQEs, 16-byte CQEs, PRP lists),
 * 3.1.1 (CAP.MQES, 0's based), 5.15 (Identify: MDTS, namespace size, LBA format).
 */
#ifndef EFIPERF_NVME_RUN_H
#define EFIPERF_NVME_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "efi/config/config.h"
#include "efi/measure/dma_window.h"
#include "efi/measure/shape.h"
#include "efi/nvme/nvme_params.h"
#include "efi/nvme/nvme_point.h"

#define NVME_POINT_TIMEOUT_S 5u   /* without a completion: the controller is hung */

struct health_run;

/* One controller of the request, as the plan resolved it before anything was taken. */
struct nvme_target {
	uint64_t bdf;                 /* CFG_BDF() packing */
	char name[16];                /* "0000:01:00.0" */
	uint64_t bar;                 /* BAR0 as the firmware assigned it */
	int bound_before;             /* a firmware Block IO was on it when the run started */
	void *fw;                     /* the firmware's handle of the function (nvme_fw's own) */
};

struct nvme_request {
	int on;                       /* nvme is not none */
	int n;                        /* controllers to measure (0: nvme = none, or none left) */
	struct nvme_target ctrl[NVME_MAX_CTRLS];
	uint32_t bs[NVME_LIST_MAX], depth[NVME_LIST_MAX];   /* points: every bs x every iodepth */
	int nbs, ndepth;
	uint32_t max_bs, max_depth;
	uint64_t size;                /* nvme_size: bytes per controller and point (rounded down to bs) */
	enum cfg_rw rw;
	uint64_t write_first, write_last;   /* nvme_write_lba's blocks (rw write), inclusive */
	uint32_t cpu;                 /* the CPU that drives the traffic (the boot CPU) */
	int aer_clear;                /* config aer_clear: the health attachments clear RW1C bits */
	const char *where_bs, *where_write_lba;   /* where those keys were set (file:line) */
};

/* One point of one controller, as its `nvme` record carries it. */
struct nvme_point_result {
	char bdf[16];                 /* "0000:01:00.0" */
	const char *path;             /* "own-queues" or "blockio" */
	const char *window;           /* "alone", or "shared" with the other controllers */
	uint32_t controllers;         /* controllers in that window */
	uint32_t bs, iodepth;         /* bytes per command, commands in flight asked for */
	uint64_t bytes;               /* data bytes moved by commands that completed with status 0 */
	uint64_t ns;                  /* first doorbell (or ReadBlocks call) to last completion */
	uint64_t bw_bytes, iops;      /* per second, over ns */
	uint64_t clat_p50_ns, clat_p99_ns, clat_max_ns;   /* per command, doorbell to completion seen */
	int interrupts_masked;        /* the whole point ran with interrupts masked */
	int verified;                 /* 1, 0 (data differs), -1 (the disk does not carry the pattern) */
	struct nvme_dma dma;          /* what the device moved (own queues; blockio: data only) */
	uint64_t commands, failed;
};

enum nvme_point_err {
	NVME_PT_OK,                   /* nothing to report beside the record */
	NVME_PT_FAILED,               /* the point failed: status (and verified) say how */
	NVME_PT_NO_BLOCKIO,           /* the fallback found no usable Block IO either */
};

/* A record of the run: a measured point, or one skipped (skip_why). */
struct nvme_point_out {
	int ctrl;                     /* index into the request's controllers */
	int skipped;                  /* the region holds no whole command of bs */
	char skip_why[128];
	struct nvme_point_result res;
	struct dma_window_result dw;  /* self_check, link_limit (and IIO) of the point */
	char status[96];              /* "ok", or what failed */
	int with_why;                 /* blockio: the record carries the controller's why */
	enum nvme_point_err err;
	/* own queues: the window's health (efi/measure/health_run.h), one for the records of a
	 * shared window; ctx memory that nvme_result_free frees. NULL: none (Block IO, no memory) */
	struct health_run *health;
};

enum nvme_take {
	NVME_NOT_TRIED,               /* an earlier controller's limits stopped the run */
	NVME_TAKEN,                   /* efiperf's own queues are up */
	NVME_FALLBACK,                /* given back at once: its points use the firmware's Block IO */
	NVME_LIMIT,                   /* Identify showed a limit the settings break: a config error */
};

struct nvme_ctrl_result {
	enum nvme_take take;
	char why[200];                /* NVME_FALLBACK: why not own queues */
	const char *limit_key, *limit_where;   /* NVME_LIMIT: the key and where it was set */
	char limit_msg[200];
	/* Identify (sn[0] 0 when never identified) */
	char sn[21], mn[41];
	uint32_t mqes, max_xfer, lba_bytes;
	uint64_t nsze;
	const char *path;             /* "own-queues", "blockio" or "not run" */
	const char *given_back;       /* "ok", "disable failed", "ConnectController failed"; NULL not taken */
	char gb_err[2][200];          /* what failed giving it back */
	int ngb, gb_at_take;          /* how many; 1 when given back while taking it */
	const char *after;            /* Block IO after giving it back: "ok" or what is wrong */
	int after_bad;                /* after is not ok and it was bound before: an error */
};

struct nvme_result {
	int n;
	struct nvme_ctrl_result ctrl[NVME_MAX_CTRLS];
	struct nvme_point_out *pt;    /* npt records in run order (ctx memory: nvme_result_free) */
	uint32_t npt, cap;
	int limit_stop;               /* a controller's limits stopped the run before any point */
	char nomem[96];               /* what memory was missing, or "" */
	int rc;                       /* 0, or -1: something failed (each named above) */
};

/* A controller through the firmware. arg: the glue's state. ctrl: index into the request. */
struct nvme_fw {
	void *arg;
	/* Become the controller's driver (UEFI 2.10 7.3 DisconnectController, OpenProtocol
	 * BY_DRIVER; 14.4 Attributes: memory, bus master). 0, or -1 with why. */
	int (*acquire)(void *arg, int ctrl, char *why, size_t whysz);
	/* Zeroed DMA memory for ctrl (nvme_env.alloc's contract). */
	int (*alloc)(void *arg, int ctrl, uint64_t bytes, struct nvme_mem *m);
	/* Free its DMA memory and give it back to the firmware driver (ConnectController). 0, or
	 * -1 with err. */
	int (*release)(void *arg, int ctrl, char *err, size_t errsz);
	/* After giving it back: "ok" when a Block IO read of its disk works. */
	const char *(*after)(void *arg, int ctrl);
	/* One point through the firmware's Block IO (synchronous, interrupts on): fills o (res,
	 * dw, status, err, skipped); 0 or -1. */
	int (*blockio_point)(void *arg, int ctrl, const struct nvme_request *q, uint32_t bs, uint32_t depth,
			     struct nvme_point_out *o);
	/* The DMA window around the traffic (efi/measure/dma_window.h dma_window_run) of the
	 * controllers in ctrls (bit i: controller i), with the health attachments on their paths
	 * in h (zeroed ctx memory; NULL: none) begun before it and ended after. */
	void (*window)(void *arg, const struct dma_window *w, uint32_t ctrls, struct health_run *h,
		       struct dma_window_result *r);
	/* The rate the point reached over its controller's link limit; ctrl >= 0: read that
	 * controller's own limit first (a shared window's other controllers), -1: r has it. */
	void (*link)(void *arg, int ctrl, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns,
		     struct dma_window_result *r);
	/* run != NULL: the run is under way, nvme_run_abort(run) gives every controller back on
	 * the fatal-exception path (efi/cleanup.h); NULL: it ended. Optional. */
	void (*guard)(void *arg, void *run);
};

/* Bytes one controller moves in a point of bs: nvme_size rounded down to whole commands, at
 * least one command. */
uint64_t nvme_point_bytes(const struct nvme_request *q, uint32_t bs);

/* res->ns, bw_bytes, iops (of res->bytes and res->commands) over `ticks` of a hz timer, and
 * the clat percentiles of lat[0..nlat) (ticks; sorted in place). */
void nvme_point_times(struct nvme_point_result *res, uint64_t ticks, uint64_t *lat, uint64_t nlat, uint64_t hz);

/* A point the region cannot hold (a namespace or write range smaller than one command of bs):
 * o says skipped and why; no error (`nvme = all` on a small disk measures what fits). */
void nvme_point_skip(struct nvme_point_out *o, const struct nvme_request *q, int ctrl, const char *path, uint32_t bs,
		     uint32_t depth, uint64_t region_bytes);

/* Run the request (q->n >= 1). Every controller taken is given back when it returns. Returns
 * res->rc. res->pt is ctx memory: free it with nvme_result_free. */
int nvme_run(const struct measure_ctx *ctx, const struct nvme_fw *fw, const struct nvme_request *q,
	     struct nvme_result *res);
void nvme_result_free(const struct measure_ctx *ctx, struct nvme_result *res);

/* The fatal-exception path: give back every controller of the run in progress (efi/cleanup.h). */
void nvme_run_abort(void *run);

#endif
