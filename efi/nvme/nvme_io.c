/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Queue mechanics (NVMe 1.4 4.1 "Submission Queue & Completion Queue Definition", 4.3 PRPs,
 * 4.6 completion phase tag): submission entries written into the SQ, the tail doorbell rung,
 * completions found by their phase bit, the head doorbell rung once per batch.
 */
#include "efi/nvme/nvme.h"
#include "efi/nvme/nvme_regs.h"
#include "arch/barrier.h"
#include <string.h>

uint32_t nvme_prp(uint64_t dev, uint64_t bytes, uint64_t *list, uint64_t list_dev, uint64_t *prp1, uint64_t *prp2)
{
	uint64_t pages = (bytes + NVME_PAGE - 1) / NVME_PAGE;
	*prp1 = dev;
	*prp2 = 0;
	if (pages <= 1)
		return 0;
	if (pages == 2) {
		*prp2 = dev + NVME_PAGE;
		return 0;
	}
	/* PRP2 points to a list of the second and later pages (4.3: one list page holds
	 * NVME_PRP_PER_PAGE entries; efiperf's transfers stay within one page of entries). */
	for (uint64_t i = 1; i < pages; i++)
		list[i - 1] = dev + i * NVME_PAGE;
	*prp2 = list_dev;
	return (uint32_t)(pages - 1);
}

static int sq_full(const struct nvme_queue *q)
{
	return (uint16_t)((q->tail + 1) % q->entries) == q->head;
}

int nvme_sq_push(struct nvme_ctrl *c, struct nvme_queue *q, uint32_t cdw[16], uint16_t *cid)
{
	if (sq_full(q))
		return -1;
	uint16_t slot = q->tail;
	/* CID = the SQ slot: unique among commands in flight, and it names the slot's PRP list and
	 * issue time. */
	cdw[0] = (cdw[0] & 0xFFFFu) | (uint32_t)slot << NVME_CDW0_CID_SHIFT;
	memcpy((uint8_t *)q->sq.host + (size_t)slot * NVME_SQE_BYTES, cdw, NVME_SQE_BYTES);
	q->tail = (uint16_t)((slot + 1) % q->entries);
	q->inflight++;
	arch_dma_wmb();
	q->t0[slot] = c->env.now(c->env.arg);
	hw_mmio_write32(c->env.hw, q->sqdb, q->tail);
	if (cid)
		*cid = slot;
	return 0;
}

int nvme_submit_rw(struct nvme_ctrl *c, struct nvme_queue *q, uint8_t opc, uint64_t slba, uint32_t nlb,
		   const struct nvme_mem *buf, uint64_t off)
{
	uint64_t bytes = (uint64_t)nlb * c->lba_bytes;
	if (!nlb || bytes > c->max_xfer || (off & (NVME_PAGE - 1)) || off + bytes > buf->bytes || sq_full(q))
		return -1;
	uint16_t slot = q->tail;
	uint64_t *list = (uint64_t *)((uint8_t *)q->prp.host + (size_t)slot * NVME_PAGE);
	uint64_t prp1, prp2;
	uint32_t entries = nvme_prp(buf->dev + off, bytes, list, q->prp.dev + (uint64_t)slot * NVME_PAGE, &prp1, &prp2);
	uint32_t cdw[16] = { opc, 1 };   /* NSID 1 */
	cdw[6] = (uint32_t)prp1;
	cdw[7] = (uint32_t)(prp1 >> 32);
	cdw[8] = (uint32_t)prp2;
	cdw[9] = (uint32_t)(prp2 >> 32);
	cdw[10] = (uint32_t)slba;
	cdw[11] = (uint32_t)(slba >> 32);
	cdw[12] = nlb - 1;   /* 0's based */
	return nvme_sq_push(c, q, cdw, NULL) ? -1 : (int)entries;
}

int nvme_reap(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cpl *out, int max)
{
	int n = 0;
	while (n < max) {
		const volatile uint32_t *e = (const volatile uint32_t *)((uint8_t *)q->cq.host +
									(size_t)q->cq_head * NVME_CQE_BYTES);
		uint32_t dw3 = e[3];
		if (((dw3 & NVME_CQE_PHASE) != 0) != (q->phase != 0))
			break;
		uint64_t t1 = c->env.now(c->env.arg);
		arch_dma_rmb();   /* the entry's other dwords only after its phase bit */
		uint16_t cid = (uint16_t)(dw3 & 0xFFFFu);
		out[n] = (struct nvme_cpl){ .cid = cid, .status = (uint16_t)NVME_CQE_STATUS(dw3), .dw0 = e[0],
					    .ticks = cid < q->entries ? t1 - q->t0[cid] : 0 };
		q->head = (uint16_t)(e[2] & 0xFFFFu);
		if (q->inflight)
			q->inflight--;
		if (++q->cq_head == q->entries) {
			q->cq_head = 0;
			q->phase ^= 1;
		}
		n++;
	}
	if (n)
		hw_mmio_write32(c->env.hw, q->cqdb, q->cq_head);
	return n;
}
