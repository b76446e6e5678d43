/* SPDX-License-Identifier: BSD-2-Clause */
/* A measurement point over one or several controllers' own queues (efi/nvme/nvme_point.h). */
#include "efi/nvme/nvme_point.h"
#include "efi/nvme/nvme_regs.h"
#include "efi/measure/dma_pattern.h"
#include <string.h>

#define REAP_BATCH 32
#define PRP_ENTRY_BYTES 8u

static uint64_t lane_now(const struct nvme_lane *l)
{
	return l->c->env.now(l->c->env.arg);
}

static int lane_wants(const struct nvme_lane *l)
{
	return !l->region_short && l->submitted * l->bs < l->bytes;
}

uint64_t nvme_region_commands(uint64_t lbas, uint32_t bs, uint32_t lba_bytes)
{
	if (!lba_bytes || bs < lba_bytes || bs % lba_bytes)
		return 0;
	return lbas / (bs / lba_bytes);
}

uint64_t nvme_lane_written_lbas(const struct nvme_lane *l)
{
	uint64_t cmds = nvme_region_commands(l->lbas, l->bs, l->c->lba_bytes);
	uint64_t nlb = cmds ? l->bs / l->c->lba_bytes : 0;
	uint64_t done = l->submitted < cmds ? l->submitted : cmds;   /* the walk wraps after cmds */
	return l->opc == NVME_CMD_WRITE ? done * nlb : 0;
}

/* Fill the lane's queue up to iodepth commands in flight. The caller checked that the region
 * holds a whole command (nvme_point_run: region_short otherwise). */
static void submit(struct nvme_lane *l)
{
	uint32_t nlb = l->bs / l->c->lba_bytes;
	uint64_t span = l->lbas - l->lbas % nlb;   /* whole commands of the region: at least one */
	while (l->q->inflight < l->iodepth && lane_wants(l)) {
		uint16_t slot = l->q->tail;
		uint64_t lba = l->first_lba + (l->submitted * nlb) % span;
		uint64_t off = (uint64_t)slot * l->bs;
		if (l->opc == NVME_CMD_WRITE)
			dma_pattern_fill((uint8_t *)l->buf->host + off, lba * l->c->lba_bytes, l->bs);
		int prp = nvme_submit_rw(l->c, l->q, l->opc, lba, nlb, l->buf, off);
		if (prp < 0)
			return;
		if (!l->submitted)
			l->t_first = l->q->t0[slot];
		l->slot_lba[slot] = lba;
		l->submitted++;
		l->dma.sqe_bytes += NVME_SQE_BYTES;
		l->dma.prp_bytes += (uint64_t)prp * PRP_ENTRY_BYTES;
	}
}

static int reap(struct nvme_lane *l)
{
	struct nvme_cpl cpl[REAP_BATCH];
	int n = nvme_reap(l->c, l->q, cpl, REAP_BATCH);
	for (int i = 0; i < n; i++) {
		if (l->completed < l->lat_cap)
			l->lat[l->completed] = cpl[i].ticks;
		l->completed++;
		l->dma.cqe_bytes += NVME_CQE_BYTES;
		if (cpl[i].status) {
			if (!l->failed++)
				l->first_status = cpl[i].status;
		} else {
			l->dma.data_bytes += l->bs;
		}
		if (cpl[i].cid < l->q->entries)
			l->t_last = l->q->t0[cpl[i].cid] + cpl[i].ticks;
	}
	return n;
}

int nvme_point_run(struct nvme_lane *l, int n, uint64_t timeout_ticks)
{
	uint64_t progress[NVME_POINT_MAX_LANES];
	for (int i = 0; i < n; i++) {
		struct nvme_lane *x = &l[i];
		x->submitted = x->completed = x->failed = x->t_first = x->t_last = 0;
		x->first_status = 0;
		x->timed_out = x->fatal = 0;
		x->dma = (struct nvme_dma){ 0 };
		x->region_short = nvme_region_commands(x->lbas, x->bs, x->c->lba_bytes) == 0;   /* nothing submitted */
		progress[i] = lane_now(x);
	}
	int busy;
	do {
		busy = 0;
		for (int i = 0; i < n; i++) {
			struct nvme_lane *x = &l[i];
			if (x->timed_out || x->fatal)
				continue;
			submit(x);
			uint64_t t = lane_now(x);
			if (reap(x))
				progress[i] = t;
			if (x->completed == x->submitted && !lane_wants(x))
				continue;
			busy = 1;
			if (t - progress[i] > timeout_ticks) {
				/* a last look at CSTS names a controller that failed */
				if (nvme_fatal(x->c))
					x->fatal = 1;
				else
					x->timed_out = 1;
			}
		}
	} while (busy);
	int rc = 0;
	for (int i = 0; i < n; i++)
		if (l[i].failed || l[i].timed_out || l[i].fatal || l[i].region_short || l[i].completed * l[i].bs < l[i].bytes)
			rc = -1;
	return rc;
}

int nvme_point_verify(const struct nvme_lane *l, uint64_t *bad)
{
	uint64_t slots = l->submitted < l->q->entries ? l->submitted : l->q->entries;
	for (uint64_t s = 0; s < slots; s++) {
		const uint8_t *p = (const uint8_t *)l->buf->host + s * l->bs;
		uint64_t off = l->slot_lba[s] * l->c->lba_bytes;
		/* as the Block IO read: the first word read decides whether the disk carries it */
		if (s == 0 && *(const uint64_t *)p != dma_pattern_word(off))
			return -1;
		if (dma_pattern_check(p, off, l->bs, bad) != 0)
			return 0;
	}
	return 1;
}

/* Heapsort: no libc qsort on every target. */
static void sift(uint64_t *a, uint64_t root, uint64_t n)
{
	for (;;) {
		uint64_t c = 2 * root + 1;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[root] >= a[c])
			return;
		uint64_t t = a[root];
		a[root] = a[c];
		a[c] = t;
		root = c;
	}
}

void nvme_lat_summary(uint64_t *lat, uint64_t n, uint64_t *p50, uint64_t *p99, uint64_t *max)
{
	*p50 = *p99 = *max = 0;
	if (!n)
		return;
	for (uint64_t i = n / 2; i-- > 0;)
		sift(lat, i, n);
	for (uint64_t end = n - 1; end > 0; end--) {
		uint64_t t = lat[0];
		lat[0] = lat[end];
		lat[end] = t;
		sift(lat, 0, end);
	}
	/* nearest rank: the smallest value with at least p% of the samples at or below it */
	*p50 = lat[(n * 50 + 99) / 100 - 1];
	*p99 = lat[(n * 99 + 99) / 100 - 1];
	*max = lat[n - 1];
}

int nvme_take(struct nvme_ctrl *c, const struct nvme_env *env, struct nvme_queue *q, uint16_t entries)
{
	memset(q, 0, sizeof(*q));
	if (nvme_init(c, env, 1) == 0 && nvme_queue_create(c, q, 1, entries) == 0) {
		c->ioq_up = 1;
		return 0;
	}
	nvme_release(c, q);
	return -1;
}

int nvme_release(struct nvme_ctrl *c, struct nvme_queue *q)
{
	int rc = 0;
	if (c->ioq_up) {
		rc = nvme_queue_delete(c, q);
		c->ioq_up = 0;
	}
	if (nvme_disable(c))
		rc = -1;
	return rc;
}
