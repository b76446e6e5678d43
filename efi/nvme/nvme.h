/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efiperf's own NVMe driver: a controller taken from the firmware (the glue disconnects the
 * firmware driver first and gives the controller back afterwards), reset, given efiperf's admin
 * queue, identified, and given I/O queue pairs with interrupts off, which the measurement
 * drives by writing submission entries, ringing doorbells and polling completion phase bits:
 * no firmware call inside a window. Pure over the hardware interface (BAR0 through hw_mmio_*)
 * and a DMA-memory callback, so it runs on the host against tests/model/nvme_model.c.
 *
 * Facts: NVM Express Base Specification 1.4 (controller registers 3.1, queues 4.1-4.6, admin
 * commands 5, controller initialisation 7.6.1), NVM Command Set 1.0 (Read/Write); the register
 * and field names are in efi/nvme/nvme_regs.h.
 */
#ifndef EFIPERF_NVME_H
#define EFIPERF_NVME_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"

/* Memory the controller reaches: host pointer and device (bus) address of one contiguous,
 * page-aligned, zeroed block (a PCI I/O common buffer under UEFI). */
struct nvme_mem {
	void *host;
	uint64_t dev;
	uint64_t bytes;
};

struct nvme_env {
	const struct hw *hw;
	uint64_t bar;            /* BAR0 physical address */
	void *arg;
	/* bytes (a multiple of 4 KiB) of zeroed DMA memory; 0, or -1 when none is left */
	int (*alloc)(void *arg, uint64_t bytes, struct nvme_mem *m);
	uint64_t (*now)(void *arg);   /* time base in ticks */
	uint64_t hz;                  /* its frequency */
};

#define NVME_ADMIN_ENTRIES 16u
#define NVME_MAX_QUEUE_ENTRIES 1024u

struct nvme_queue {
	uint16_t qid, entries;
	struct nvme_mem sq, cq, prp;  /* prp: one PRP list page per SQ slot */
	uint64_t sqdb, cqdb;          /* doorbell addresses */
	uint16_t tail, head, cq_head; /* SQ tail we wrote, SQ head the controller reported, CQ head */
	uint8_t phase;                /* the phase bit a new completion carries */
	uint16_t inflight;
	uint64_t t0[NVME_MAX_QUEUE_ENTRIES];   /* doorbell tick of the command in each slot (CID) */
	uint16_t next_cid;
};

struct nvme_cpl {
	uint16_t cid, status;         /* status: SCT:SC, 0 = success */
	uint32_t dw0;
	uint64_t ticks;               /* doorbell to completion seen */
};

struct nvme_ctrl {
	struct nvme_env env;
	uint64_t cap;
	uint32_t vs, mqes, to_ms, dstrd;
	uint32_t max_xfer;            /* bytes per command: MDTS, capped at NVME_MAX_XFER */
	uint32_t nn, lba_bytes;
	uint64_t nsze;                /* namespace 1 size in LBAs */
	char sn[21], mn[41];
	uint16_t nioq;                /* I/O queue pairs the controller allocated */
	struct nvme_queue admin;
	struct nvme_mem ident;
	uint64_t cmd_timeout_ticks;
	int enabled;
	int taken;                    /* efiperf wrote CC: nvme_release disables it again */
	int ioq_up;                   /* the I/O queue pair of nvme_take exists */
	char why[160];                /* the first failure, naming the register or command */
};

#define NVME_MAX_XFER (1u << 20)      /* efiperf's cap per command: 1 MiB (256 PRP entries) */
#define NVME_CMD_TIMEOUT_MS 5000u     /* as edk2 NvmExpressDxe's PassThru default */

/* Take the controller: disable it (CC.EN=0, CSTS.RDY=0 within CAP.TO), give it efiperf's admin
 * queue, enable it (RDY=1 within CAP.TO), Identify controller and namespace 1, and ask for
 * `ioqueues` I/O queue pairs (Set Features Number of Queues). 0, or -1 with c->why. */
int nvme_init(struct nvme_ctrl *c, const struct nvme_env *env, uint16_t ioqueues);
/* Create I/O CQ then SQ `qid` (1..nioq) of `entries` (2..min(MQES + 1, NVME_MAX_QUEUE_ENTRIES)),
 * physically contiguous, interrupts disabled (IEN=0). 0, or -1 with c->why. */
int nvme_queue_create(struct nvme_ctrl *c, struct nvme_queue *q, uint16_t qid, uint16_t entries);
/* Delete SQ then CQ (after draining: every command submitted must have completed). */
int nvme_queue_delete(struct nvme_ctrl *c, struct nvme_queue *q);
/* Disable the controller (CC.EN=0, wait for RDY=0): what the firmware driver expects to find
 * before it starts again. */
int nvme_disable(struct nvme_ctrl *c);

/* Submit Read (NVME_CMD_READ) or Write of `nlb` LBAs at `slba`, to or from buf at byte offset
 * `off` (a multiple of 4 KiB), and ring the SQ doorbell. nlb x LBA size <= max_xfer. Builds
 * PRP1/PRP2 or the slot's PRP list. Returns the number of PRP list entries the command
 * carries (0 without a list), or -1 when the SQ is full or the transfer is too large. */
int nvme_submit_rw(struct nvme_ctrl *c, struct nvme_queue *q, uint8_t opc, uint64_t slba, uint32_t nlb,
		   const struct nvme_mem *buf, uint64_t off);
/* Completions that arrived (at most max), each with its doorbell-to-completion ticks; the CQ
 * head doorbell is rung once for the batch. */
int nvme_reap(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cpl *out, int max);
/* CSTS.CFS: 1 when the controller reports a fatal error. */
int nvme_fatal(struct nvme_ctrl *c);

/* The driver's own: write one submission entry (cdw[0..15]; its CID is set here to the SQ slot)
 * and ring the tail doorbell. -1 when the SQ is full. */
int nvme_sq_push(struct nvme_ctrl *c, struct nvme_queue *q, uint32_t cdw[16], uint16_t *cid);

/* PRP entries for a transfer of `bytes` at device address `dev` (4 KiB aligned): PRP1, and
 * PRP2 = 0, the second page, or the list page `list_dev` after filling `list` (NVMe 1.4 4.3).
 * Pure; returns the number of list entries written (0 for none). */
uint32_t nvme_prp(uint64_t dev, uint64_t bytes, uint64_t *list, uint64_t list_dev, uint64_t *prp1, uint64_t *prp2);

#endif
