/* SPDX-License-Identifier: BSD-2-Clause */
#include "tests/model/nvme_model.h"
#include <string.h>

/* Register offsets and fields, NVMe 1.4 section 3.1 (written here, not taken from efi/nvme). */
enum { R_CAP = 0x00, R_VS = 0x08, R_CC = 0x14, R_CSTS = 0x1C, R_AQA = 0x24, R_ASQ = 0x28, R_ACQ = 0x30,
       R_DB = 0x1000 };

void nvm_model_init(struct nvm_model *m, uint32_t mqes, uint8_t *disk, uint64_t nsze, uint32_t lbads)
{
	memset(m, 0, sizeof(*m));
	/* MQES [15:0], CQR [16] = 1, TO [31:24] = 0x0F (7.5 s), DSTRD [35:32] = 0, CSS bit 37 */
	m->cap = mqes | 1ull << 16 | 0x0Full << 24 | 1ull << 37;
	m->vs = 0x00010400;
	m->cc = 1 | 6u << 16 | 4u << 20;
	m->csts = 1;
	m->mdts = 5;
	m->max_ioq = 8;
	m->disk = disk;
	m->nsze = nsze;
	m->lbads = lbads;
}

static void *mem(uint64_t dev) { return (void *)(uintptr_t)dev; }

static void post(struct nvm_model *m, uint32_t cqid, uint16_t sqid, uint16_t cid, uint16_t status, uint32_t dw0)
{
	struct nvm_mq *cq = &m->cq[cqid];
	uint32_t *e = mem(cq->base + (uint64_t)cq->tail * 16);
	e[0] = dw0;
	e[1] = 0;
	e[2] = m->sq[sqid].head | (uint32_t)sqid << 16;
	e[3] = cid | cq->phase << 16 | (uint32_t)status << 17;
	m->dma_cqe_bytes += 16;
	if (++cq->tail == cq->size) {
		cq->tail = 0;
		cq->phase ^= 1;
	}
	uint32_t pending = (cq->tail + cq->size - cq->head) % cq->size;
	if (cqid && pending > m->max_cq_pending)
		m->max_cq_pending = pending;
}

/* Data pages of a command, per NVMe 1.4 4.3: PRP1 (page offset allowed), then PRP2 as the
 * second page when the transfer ends within it, else a list page. Returns the number of pages. */
static uint32_t pages(struct nvm_model *m, const uint32_t *c, uint64_t bytes, uint64_t *pg, uint32_t max)
{
	uint64_t prp1 = c[6] | (uint64_t)c[7] << 32, prp2 = c[8] | (uint64_t)c[9] << 32;
	uint32_t n = 0;
	pg[n++] = prp1;
	uint64_t first = 4096 - (prp1 & 4095);
	if (bytes <= first)
		return n;
	uint64_t rest = bytes - first;
	uint32_t more = (uint32_t)((rest + 4095) / 4096);
	if (more == 1) {
		pg[n++] = prp2;
		return n;
	}
	const uint64_t *list = mem(prp2);
	for (uint32_t i = 0; i < more && n < max; i++) {
		pg[n++] = list[i];
		m->dma_prp_bytes += 8;
	}
	return n;
}

static uint16_t io(struct nvm_model *m, const uint32_t *c)
{
	uint32_t opc = c[0] & 0xFF;
	uint64_t slba = c[10] | (uint64_t)c[11] << 32;
	uint64_t nlb = (c[12] & 0xFFFF) + 1;
	uint64_t lba = 1ull << m->lbads, bytes = nlb * lba;
	if (c[1] != 1)
		return 0x0B;                      /* Invalid Namespace or Format */
	if (slba + nlb > m->nsze)
		return 0x80;                      /* LBA Out of Range */
	if (bytes > (4096ull << m->mdts))
		return 0x02;                      /* Invalid Field in Command */
	uint64_t pg[520];
	uint32_t np = pages(m, c, bytes, pg, 520);
	uint64_t off = slba * lba, done = 0;
	for (uint32_t i = 0; i < np && done < bytes; i++) {
		uint64_t room = 4096 - (pg[i] & 4095);
		uint64_t k = bytes - done < room ? bytes - done : room;
		if (opc == 0x02) {
			memcpy(mem(pg[i]), m->disk + off + done, k);
			m->dma_data_written += k;
		} else {
			memcpy(m->disk + off + done, mem(pg[i]), k);
			m->dma_data_read += k;
		}
		done += k;
	}
	return 0;
}

static uint16_t admin(struct nvm_model *m, const uint32_t *c, uint32_t *dw0)
{
	uint32_t opc = c[0] & 0xFF, qid = c[10] & 0xFFFF, qsize = (c[10] >> 16) + 1;
	uint64_t prp1 = c[6] | (uint64_t)c[7] << 32;
	switch (opc) {
	case 0x06: {                                  /* Identify */
		uint8_t *d = mem(prp1);
		memset(d, 0, 4096);
		m->dma_data_written += 4096;
		if ((c[10] & 0xFF) == 1) {
			memcpy(d + 4, "EFIPERF-MODEL-0001  ", 20);
			memcpy(d + 24, "efiperf NVMe model                      ", 40);
			d[77] = (uint8_t)m->mdts;
			d[516] = 1;                   /* NN */
			return 0;
		}
		if ((c[10] & 0xFF) == 0 && c[1] == 1) {
			for (int i = 0; i < 8; i++)
				d[i] = (uint8_t)(m->nsze >> (8 * i));
			d[25] = 1;                    /* NLBAF: two formats */
			d[26] = 1;                    /* FLBAS: format 1 in use */
			d[128 + 2] = 9;               /* LBAF0: 512 bytes */
			d[132 + 2] = (uint8_t)m->lbads;
			return 0;
		}
		return 0x0B;
	}
	case 0x09:                                    /* Set Features */
		if ((c[10] & 0xFF) != 7)
			return 0x02;
		*dw0 = (m->max_ioq - 1) << 16 | (m->max_ioq - 1);
		return 0;
	case 0x05:                                    /* Create I/O CQ */
		if (!qid || qid >= NVM_MODEL_QUEUES || m->cq[qid].exists)
			return 0x101;                 /* SCT 1 SC 01h: Invalid Queue Identifier */
		if (qsize < 2 || qsize > (m->cap & 0xFFFF) + 1)
			return 0x102;                 /* Invalid Queue Size */
		if (!(c[11] & 1) || (prp1 & 4095))
			return 0x02;
		m->cq[qid] = (struct nvm_mq){ .exists = 1, .base = prp1, .size = qsize, .phase = 1 };
		return 0;
	case 0x01:                                    /* Create I/O SQ */
		if (m->refuse_create_sq)
			return m->refuse_create_sq;
		if (!qid || qid >= NVM_MODEL_QUEUES || m->sq[qid].exists)
			return 0x101;
		if (!m->cq[c[11] >> 16].exists || !(c[11] >> 16))
			return 0x100;                 /* Completion Queue Invalid */
		if (qsize < 2 || qsize > (m->cap & 0xFFFF) + 1)
			return 0x102;
		m->sq[qid] = (struct nvm_mq){ .exists = 1, .base = prp1, .size = qsize, .cqid = c[11] >> 16 };
		return 0;
	case 0x00:                                    /* Delete I/O SQ */
		if (!qid || qid >= NVM_MODEL_QUEUES || !m->sq[qid].exists)
			return 0x101;
		m->sq[qid].exists = 0;
		return 0;
	case 0x04:                                    /* Delete I/O CQ */
		if (!qid || qid >= NVM_MODEL_QUEUES || !m->cq[qid].exists)
			return 0x101;
		for (int i = 1; i < NVM_MODEL_QUEUES; i++)
			if (m->sq[i].exists && m->sq[i].cqid == qid)
				return 0x10C;         /* Invalid Queue Deletion */
		m->cq[qid].exists = 0;
		return 0;
	}
	return 0x01;                                  /* Invalid Command Opcode */
}

static void run_sq(struct nvm_model *m, uint32_t qid)
{
	struct nvm_mq *sq = &m->sq[qid];
	while (!m->hold_completions && sq->head != sq->tail) {
		const uint32_t *c = mem(sq->base + (uint64_t)sq->head * 64);
		m->dma_sqe_bytes += 64;
		sq->head = (sq->head + 1) % sq->size;
		uint32_t dw0 = 0;
		uint16_t st = qid ? io(m, c) : admin(m, c, &dw0);
		if (st)
			m->last_bad_status = st;
		m->commands++;
		post(m, qid ? sq->cqid : 0, (uint16_t)qid, (uint16_t)(c[0] >> 16), st, dw0);
	}
}

static void write_cc(struct nvm_model *m, uint32_t v)
{
	uint32_t was = m->cc & 1;
	m->cc = v;
	if (was && !(v & 1)) {                       /* reset: every queue is gone (7.3.2) */
		memset(m->sq, 0, sizeof(m->sq));
		memset(m->cq, 0, sizeof(m->cq));
		m->csts = 0;
		m->resets++;
	} else if (!was && (v & 1)) {
		m->enables++;
		if (m->cfs_on_enable || ((v >> 16) & 0xF) != 6 || ((v >> 20) & 0xF) != 4 || (m->asq & 4095) ||
		    (m->acq & 4095)) {
			m->csts = 2;
			return;
		}
		m->sq[0] = (struct nvm_mq){ .exists = 1, .base = m->asq, .size = (m->aqa & 0xFFF) + 1 };
		m->cq[0] = (struct nvm_mq){ .exists = 1, .base = m->acq, .size = ((m->aqa >> 16) & 0xFFF) + 1, .phase = 1 };
		m->csts = 1;
	}
}

static hw_status rd32(void *ctx, uint64_t a, uint32_t *v)
{
	struct nvm_model *m = ctx;
	uint64_t o = a - NVM_MODEL_BAR;
	switch (o) {
	case R_CAP: *v = (uint32_t)m->cap; return HW_OK;
	case R_CAP + 4: *v = (uint32_t)(m->cap >> 32); return HW_OK;
	case R_VS: *v = m->vs; return HW_OK;
	case R_CC: *v = m->cc; return HW_OK;
	case R_CSTS: *v = m->csts; return HW_OK;
	case R_AQA: *v = m->aqa; return HW_OK;
	}
	*v = 0;
	return o < 0x2000 ? HW_OK : HW_BAD_ARG;
}

static hw_status wr32(void *ctx, uint64_t a, uint32_t v)
{
	struct nvm_model *m = ctx;
	uint64_t o = a - NVM_MODEL_BAR;
	switch (o) {
	case R_CC: write_cc(m, v); return HW_OK;
	case R_AQA: m->aqa = v; return HW_OK;
	case R_ASQ: m->asq = (m->asq & ~0xFFFFFFFFull) | v; return HW_OK;
	case R_ASQ + 4: m->asq = (m->asq & 0xFFFFFFFFull) | (uint64_t)v << 32; return HW_OK;
	case R_ACQ: m->acq = (m->acq & ~0xFFFFFFFFull) | v; return HW_OK;
	case R_ACQ + 4: m->acq = (m->acq & 0xFFFFFFFFull) | (uint64_t)v << 32; return HW_OK;
	}
	if (o >= R_DB && o < R_DB + 8 * NVM_MODEL_QUEUES && !(o & 3)) {
		uint32_t idx = (uint32_t)(o - R_DB) / 4, qid = idx / 2;
		if (!(m->csts & 1))
			return HW_OK;                      /* ignored while not ready */
		if (idx & 1) {                             /* CQ head: frees CQ slots */
			if (m->cq[qid].exists)
				m->cq[qid].head = v;
		} else if (m->sq[qid].exists && v < m->sq[qid].size) {
			m->sq[qid].tail = v;
			run_sq(m, qid);
		}
		return HW_OK;
	}
	return HW_BAD_ARG;
}

static const struct hw_ops ops = { .name = "nvme-model", .mmio_read32 = rd32, .mmio_write32 = wr32 };

struct hw nvm_model_hw(struct nvm_model *m)
{
	return (struct hw){ .ops = &ops, .ctx = m };
}
