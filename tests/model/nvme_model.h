/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A host model of an NVMe controller behind the hardware interface's MMIO ops, for the driver's
 * unit tests: BAR0 registers (CAP, VS, CC, CSTS, AQA, ASQ, ACQ, doorbells), an admin command set
 * (Identify, Set Features Number of Queues, Create/Delete I/O SQ/CQ) and Read/Write on a RAM
 * namespace, executed when a tail doorbell is written. Written from the NVMe 1.4 specification
 * independently of efi/nvme/ (its own field positions, its own PRP walk). Device addresses are
 * host pointers. It counts what a real device would move by DMA: data, 64-byte submission
 * entries read, 16-byte completions written, PRP list entries read.
 */
#ifndef EFIPERF_NVME_MODEL_H
#define EFIPERF_NVME_MODEL_H

#include <stdint.h>
#include "arch/hw.h"

#define NVM_MODEL_BAR 0xFE000000ull
#define NVM_MODEL_QUEUES 16

struct nvm_mq {                   /* one queue of the model */
	int exists;
	uint64_t base;
	uint32_t size, head, tail;    /* SQ: head = next to fetch; CQ: tail = next to post */
	uint32_t phase, cqid;         /* CQ phase; SQ: its CQ */
};

struct nvm_model {
	uint64_t cap;
	uint32_t vs, cc, csts, aqa;
	uint64_t asq, acq;
	struct nvm_mq sq[NVM_MODEL_QUEUES], cq[NVM_MODEL_QUEUES];
	uint32_t mdts;                /* Identify MDTS */
	uint32_t max_ioq;             /* Number of Queues granted (pairs) */
	uint8_t *disk;                /* namespace 1 */
	uint64_t nsze;                /* LBAs */
	uint32_t lbads;
	/* behaviour knobs */
	uint16_t refuse_create_sq;    /* status to answer Create I/O SQ with (0: accept) */
	int cfs_on_enable;            /* set CSTS.CFS instead of RDY */
	int hold_completions;         /* post nothing (a hung controller) */
	/* what it did */
	uint64_t dma_data_read, dma_data_written;   /* bytes the device read from / wrote to memory */
	uint64_t dma_sqe_bytes, dma_cqe_bytes, dma_prp_bytes;
	uint32_t commands, resets, enables;
	uint32_t max_cq_pending;      /* most completions posted and not yet released by a CQ head
				       * doorbell, over I/O CQs: the depth the host kept in flight */
	uint32_t last_bad_status;
};

/* A controller with CAP.MQES = mqes, a namespace of nsze LBAs of 2^lbads bytes (disk: the
 * caller's buffer of nsze << lbads bytes), MDTS 5 (128 KiB), 8 queue pairs, CC.EN = 1 and RDY
 * as a firmware driver leaves it. */
void nvm_model_init(struct nvm_model *m, uint32_t mqes, uint8_t *disk, uint64_t nsze, uint32_t lbads);
struct hw nvm_model_hw(struct nvm_model *m);

#endif
