/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Controller bring-up and teardown (NVMe 1.4 section 7.6.1 "Initialization", 7.6.2 "Shutdown"):
 * disable, admin queue, enable, Identify, Number of Queues, Create/Delete I/O queues.
 */
#include "efi/nvme/nvme.h"
#include "efi/nvme/nvme_regs.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include <stdarg.h>
#include <string.h>

static hw_status rd32(struct nvme_ctrl *c, uint32_t off, uint32_t *v)
{
	return hw_mmio_read32(c->env.hw, c->env.bar + off, v);
}

static hw_status rd64(struct nvme_ctrl *c, uint32_t off, uint64_t *v)
{
	uint32_t lo, hi;
	hw_status st = rd32(c, off, &lo);
	if (st == HW_OK)
		st = rd32(c, off + 4, &hi);
	*v = st == HW_OK ? (uint64_t)hi << 32 | lo : 0;
	return st;
}

static hw_status wr32(struct nvme_ctrl *c, uint32_t off, uint32_t v)
{
	return hw_mmio_write32(c->env.hw, c->env.bar + off, v);
}

static hw_status wr64(struct nvme_ctrl *c, uint32_t off, uint64_t v)
{
	hw_status st = wr32(c, off, (uint32_t)v);
	return st == HW_OK ? wr32(c, off + 4, (uint32_t)(v >> 32)) : st;
}

/* The first failure names the cause: later ones (a teardown after it) do not overwrite it. */
static void whyf(struct nvme_ctrl *c, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void whyf(struct nvme_ctrl *c, const char *f, ...)
{
	if (c->why[0])
		return;
	va_list ap;
	va_start(ap, f);
	fmt_vsnprintf(c->why, sizeof(c->why), f, ap);
	va_end(ap);
}

static int fail(struct nvme_ctrl *c, const char *what, hw_status st)
{
	whyf(c, "%s: %s", what, hw_status_name(st));
	return -1;
}

/* Wait for CSTS.RDY == want within CAP.TO (NVMe 1.4 3.1.1: worst-case time, 500 ms units). */
static int wait_ready(struct nvme_ctrl *c, uint32_t want)
{
	uint64_t t0 = c->env.now(c->env.arg);
	uint64_t limit = c->env.hz / 1000 * (c->to_ms ? c->to_ms : NVME_TO_UNIT_MS);
	for (;;) {
		uint32_t csts;
		hw_status st = rd32(c, NVME_REG_CSTS, &csts);
		if (st != HW_OK)
			return fail(c, "CSTS read", st);
		if (csts == 0xFFFFFFFFu) {
			whyf(c, "CSTS reads all ones: the controller is gone");
			return -1;
		}
		if (want && (csts & NVME_CSTS_CFS)) {
			whyf(c, "CSTS.CFS = 1 while enabling (CSTS 0x%x)", csts);
			return -1;
		}
		if ((csts & NVME_CSTS_RDY) == want)
			return 0;
		if (c->env.now(c->env.arg) - t0 > limit) {
			whyf(c, "CSTS.RDY did not become %u within CAP.TO = %u ms (CSTS 0x%x)",
				     want, c->to_ms, csts);
			return -1;
		}
	}
}

static uint64_t doorbell(const struct nvme_ctrl *c, uint16_t qid, int cq)
{
	return c->env.bar + NVME_REG_DBS + (uint64_t)(2u * qid + (cq ? 1u : 0u)) * (4u << c->dstrd);
}

static int alloc(struct nvme_ctrl *c, uint64_t bytes, struct nvme_mem *m, const char *what)
{
	bytes = (bytes + NVME_PAGE - 1) & ~(uint64_t)(NVME_PAGE - 1);
	if (c->env.alloc(c->env.arg, bytes, m) || !m->host || (m->dev & (NVME_PAGE - 1))) {
		whyf(c, "no page-aligned DMA memory for the %s (%llu bytes)", what,
			     (unsigned long long)bytes);
		return -1;
	}
	memset(m->host, 0, (size_t)bytes);
	return 0;
}

static void queue_init(struct nvme_ctrl *c, struct nvme_queue *q, uint16_t qid, uint16_t entries)
{
	q->qid = qid;
	q->entries = entries;
	q->sqdb = doorbell(c, qid, 0);
	q->cqdb = doorbell(c, qid, 1);
	q->tail = q->head = q->cq_head = q->inflight = q->next_cid = 0;
	q->phase = 1;   /* a zeroed CQ: the first pass writes P = 1 (NVMe 1.4 4.6) */
}

/* One admin command, polled to completion within NVME_CMD_TIMEOUT_MS. 0 and *dw0, or -1. */
static int admin(struct nvme_ctrl *c, uint32_t cdw[16], uint32_t *dw0, const char *what)
{
	uint16_t cid;
	if (nvme_sq_push(c, &c->admin, cdw, &cid)) {
		whyf(c, "%s: admin queue full", what);
		return -1;
	}
	uint64_t t0 = c->env.now(c->env.arg);
	struct nvme_cpl cpl;
	while (nvme_reap(c, &c->admin, &cpl, 1) == 0) {
		if (c->env.now(c->env.arg) - t0 > c->cmd_timeout_ticks) {
			whyf(c, "%s: no completion within %u ms", what, NVME_CMD_TIMEOUT_MS);
			return -1;
		}
	}
	if (cpl.cid != cid || cpl.status) {
		whyf(c, "%s: status SCT %u SC 0x%02x (CID %u, expected %u)", what,
			     cpl.status >> 8, cpl.status & 0xFF, cpl.cid, cid);
		return -1;
	}
	if (dw0)
		*dw0 = cpl.dw0;
	return 0;
}

static void ascii(char *dst, const uint8_t *src, size_t n)
{
	size_t k = n;
	while (k && (src[k - 1] == ' ' || !src[k - 1]))
		k--;
	for (size_t i = 0; i < k; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7F ? (char)src[i] : '?';
	dst[k] = 0;
}

static int identify(struct nvme_ctrl *c)
{
	uint32_t cdw[16] = { NVME_ADM_IDENTIFY };
	cdw[6] = (uint32_t)c->ident.dev;
	cdw[7] = (uint32_t)(c->ident.dev >> 32);
	cdw[10] = NVME_CNS_CONTROLLER;
	if (admin(c, cdw, NULL, "Identify controller"))
		return -1;
	const uint8_t *id = c->ident.host;
	ascii(c->sn, id + NVME_IDC_SN, 20);
	ascii(c->mn, id + NVME_IDC_MN, 40);
	uint32_t mdts = id[NVME_IDC_MDTS];
	uint64_t page = 1ull << (12 + NVME_CAP_MPSMIN(c->cap));
	uint64_t max = mdts ? page << mdts : NVME_MAX_XFER;   /* 0: no limit (5.15.2.1) */
	c->max_xfer = max > NVME_MAX_XFER ? NVME_MAX_XFER : (uint32_t)max;
	c->nn = le32(id + NVME_IDC_NN);
	memset(c->ident.host, 0, NVME_PAGE);
	uint32_t nsc[16] = { NVME_ADM_IDENTIFY, 1 };   /* NSID 1 */
	nsc[6] = (uint32_t)c->ident.dev;
	nsc[7] = (uint32_t)(c->ident.dev >> 32);
	nsc[10] = NVME_CNS_NAMESPACE;
	if (admin(c, nsc, NULL, "Identify namespace 1"))
		return -1;
	c->nsze = le64(id + NVME_IDN_NSZE);
	uint32_t fmt = id[NVME_IDN_FLBAS] & 0xFu;
	uint32_t lbads = id[NVME_IDN_LBAF + 4 * fmt + 2];
	if (!c->nsze || lbads < 9 || lbads > 16) {
		whyf(c, "namespace 1: NSZE %llu, LBA format %u with LBADS %u: not usable",
			     (unsigned long long)c->nsze, fmt, lbads);
		return -1;
	}
	c->lba_bytes = 1u << lbads;
	return 0;
}

int nvme_init(struct nvme_ctrl *c, const struct nvme_env *env, uint16_t ioqueues)
{
	memset(c, 0, sizeof(*c));
	c->env = *env;
	c->cmd_timeout_ticks = env->hz / 1000 * NVME_CMD_TIMEOUT_MS;
	hw_status st = rd64(c, NVME_REG_CAP, &c->cap);
	if (st != HW_OK)
		return fail(c, "CAP read", st);
	rd32(c, NVME_REG_VS, &c->vs);
	c->mqes = NVME_CAP_MQES(c->cap);
	c->to_ms = NVME_CAP_TO(c->cap) * NVME_TO_UNIT_MS;
	c->dstrd = NVME_CAP_DSTRD(c->cap);
	if (!NVME_CAP_CSS_NVM(c->cap) || NVME_CAP_MPSMIN(c->cap) != 0 || c->mqes < 1) {
		fmt_snprintf(c->why, sizeof(c->why),
			     "CAP 0x%016llx: needs the NVM command set (CSS bit 37), 4 KiB pages (MPSMIN 0) and MQES >= 1",
			     (unsigned long long)c->cap);
		return -1;
	}
	/* 7.6.1: disable first (the firmware driver leaves CC.EN = 1 when it stops). */
	uint32_t cc;
	c->taken = 1;
	if ((st = rd32(c, NVME_REG_CC, &cc)) != HW_OK)
		return fail(c, "CC read", st);
	if (cc & NVME_CC_EN) {
		if ((st = wr32(c, NVME_REG_CC, cc & ~NVME_CC_EN)) != HW_OK)
			return fail(c, "CC write (disable)", st);
	}
	if (wait_ready(c, 0))
		return -1;
	uint16_t ae = (uint16_t)(c->mqes + 1 < NVME_ADMIN_ENTRIES ? c->mqes + 1 : NVME_ADMIN_ENTRIES);
	queue_init(c, &c->admin, 0, ae);
	if (alloc(c, (uint64_t)ae * NVME_SQE_BYTES, &c->admin.sq, "admin SQ") ||
	    alloc(c, (uint64_t)ae * NVME_CQE_BYTES, &c->admin.cq, "admin CQ") ||
	    alloc(c, NVME_PAGE, &c->ident, "Identify buffer"))
		return -1;
	if ((st = wr32(c, NVME_REG_AQA, (uint32_t)(ae - 1) << 16 | (uint32_t)(ae - 1))) != HW_OK ||
	    (st = wr64(c, NVME_REG_ASQ, c->admin.sq.dev)) != HW_OK || (st = wr64(c, NVME_REG_ACQ, c->admin.cq.dev)) != HW_OK)
		return fail(c, "AQA/ASQ/ACQ write", st);
	cc = NVME_CC_EN | NVME_SQES_LOG2 << NVME_CC_IOSQES_SHIFT | NVME_CQES_LOG2 << NVME_CC_IOCQES_SHIFT;
	if ((st = wr32(c, NVME_REG_CC, cc)) != HW_OK)
		return fail(c, "CC write (enable)", st);
	c->enabled = 1;
	if (wait_ready(c, 1) || identify(c))
		return -1;
	uint32_t sf[16] = { NVME_ADM_SET_FEATURES };
	sf[10] = NVME_FID_NUM_QUEUES;
	sf[11] = (uint32_t)(ioqueues - 1) << 16 | (uint32_t)(ioqueues - 1);
	uint32_t got;
	if (admin(c, sf, &got, "Set Features Number of Queues"))
		return -1;
	uint32_t nsq = (got & 0xFFFF) + 1, ncq = (got >> 16) + 1;
	c->nioq = (uint16_t)(nsq < ncq ? nsq : ncq);
	if (c->nioq > ioqueues)
		c->nioq = ioqueues;
	return 0;
}

int nvme_queue_create(struct nvme_ctrl *c, struct nvme_queue *q, uint16_t qid, uint16_t entries)
{
	uint32_t max = c->mqes + 1 < NVME_MAX_QUEUE_ENTRIES ? c->mqes + 1 : NVME_MAX_QUEUE_ENTRIES;
	if (!qid || qid > c->nioq || entries < 2 || entries > max) {
		whyf(c, "I/O queue %u of %u entries: QID 1..%u and 2..%u entries allowed",
			     qid, entries, c->nioq, max);
		return -1;
	}
	queue_init(c, q, qid, entries);
	if (alloc(c, (uint64_t)entries * NVME_SQE_BYTES, &q->sq, "I/O SQ") ||
	    alloc(c, (uint64_t)entries * NVME_CQE_BYTES, &q->cq, "I/O CQ") ||
	    alloc(c, (uint64_t)entries * NVME_PAGE, &q->prp, "PRP lists"))
		return -1;
	uint32_t cq[16] = { NVME_ADM_CREATE_CQ };
	cq[6] = (uint32_t)q->cq.dev;
	cq[7] = (uint32_t)(q->cq.dev >> 32);
	cq[10] = (uint32_t)(entries - 1) << 16 | qid;
	cq[11] = NVME_QUEUE_PC;   /* IEN = 0, IV = 0: polled */
	if (admin(c, cq, NULL, "Create I/O CQ"))
		return -1;
	uint32_t sq[16] = { NVME_ADM_CREATE_SQ };
	sq[6] = (uint32_t)q->sq.dev;
	sq[7] = (uint32_t)(q->sq.dev >> 32);
	sq[10] = (uint32_t)(entries - 1) << 16 | qid;
	sq[11] = (uint32_t)qid << 16 | NVME_QUEUE_PC;
	if (admin(c, sq, NULL, "Create I/O SQ")) {
		uint32_t dc[16] = { NVME_ADM_DELETE_CQ };
		dc[10] = qid;
		admin(c, dc, NULL, "Delete I/O CQ");
		return -1;
	}
	return 0;
}

int nvme_queue_delete(struct nvme_ctrl *c, struct nvme_queue *q)
{
	/* SQ before its CQ (NVMe 1.4 5.6: deleting a CQ with an SQ still on it is Invalid Queue
	 * Deletion). */
	uint32_t ds[16] = { NVME_ADM_DELETE_SQ }, dc[16] = { NVME_ADM_DELETE_CQ };
	ds[10] = dc[10] = q->qid;
	int r = admin(c, ds, NULL, "Delete I/O SQ");
	if (admin(c, dc, NULL, "Delete I/O CQ"))
		r = -1;
	return r;
}

int nvme_disable(struct nvme_ctrl *c)
{
	uint32_t cc;
	if (!c->taken)
		return 0;   /* never written: left as found */
	hw_status st = rd32(c, NVME_REG_CC, &cc);
	if (st != HW_OK)
		return fail(c, "CC read", st);
	if ((st = wr32(c, NVME_REG_CC, cc & ~NVME_CC_EN)) != HW_OK)
		return fail(c, "CC write (disable)", st);
	c->enabled = 0;
	return wait_ready(c, 0);
}

int nvme_fatal(struct nvme_ctrl *c)
{
	uint32_t csts;
	return rd32(c, NVME_REG_CSTS, &csts) != HW_OK || csts == 0xFFFFFFFFu || (csts & NVME_CSTS_CFS);
}
