/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CHA metric formulas: pure arithmetic over (scaled) TOR_INSERTS counts; the raw counts are
 * reported beside them by the caller.
 *   PCIe read  = 64 x sum of the platform's read ops   SKX: RdCur + RFO + CRd + DRd (PCM PurleyPlatform)
 *                                                     ICX+: PCIRdCur (PCM WhitleyPlatform)
 *   PCIe write = 64 x sum of the platform's write ops  SKX: RFO + ItoM; ICX+: ItoM + ItoMCacheNear
 *   MMIO reads / writes = request counts of PRd / WiL (SKX), UCRdF / WiL (ICX+): partial
 *                (0-64 B) requests, so no byte count is claimed
 *   IO LLC hit ratio = hits / (hits + misses): TOR_INSERTS.IO_HIT / IO_MISS when both were
 *                counted, else the hit and miss counts of every read/write op counted both ways
 * An op's count is its all-requests event, or hit + miss when both were counted; a quantity
 * with an op not counted at all is missing (why says which), never a partial sum.
 */
#include "pmu/uncore/intel_cha.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"

#include <string.h>

struct op_count { uint64_t all, hit, miss; uint8_t has_all, has_hit, has_miss; };

static int op_value(const struct op_count *o, uint64_t *v)
{
	if (o->has_all) {
		*v = o->all;
		return 0;
	}
	if (o->has_hit && o->has_miss) {
		*v = o->hit + o->miss;
		return 0;
	}
	return -1;
}

/* Sum over ops in mask; -1 (and why) when one is missing. */
static int sum_ops(const struct op_count *ops, uint32_t mask, uint64_t *sum, const char *what, char *why, size_t n)
{
	*sum = 0;
	for (unsigned op = 0; op < CHA_NOPS; op++) {
		uint64_t v;
		if (!(mask & CHA_OPBIT(op)))
			continue;
		if (op_value(&ops[op], &v)) {
			if (!why[0])
				fmt_snprintf(why, n, "%s needs %s (its all-requests event, or both hit and miss)", what,
					     cha_op_name((uint8_t)op));
			return -1;
		}
		*sum += v;
	}
	return 0;
}

void cha_metrics(const struct cha_platform *p, const struct cha_request *req, const uint64_t *counts,
		 uint64_t window_ns, struct cha_metric_values *m)
{
	struct op_count ops[CHA_NOPS];
	memset(ops, 0, sizeof(ops));
	memset(m, 0, sizeof(*m));
	for (uint32_t i = 0; i < req->nevents; i++) {
		const struct cha_event *e = req->ev[i].enc.named;
		if (!e || e->op >= CHA_NOPS || e->kind != CHA_K_INSERTS || req->ev[i].latency)
			continue;          /* raw events have no known meaning for the formulas; the
					    * latency set's inserts repeat the bandwidth events */
		struct op_count *o = &ops[e->op];
		if (e->part == CHA_PART_HIT) {
			o->hit += counts[i];
			o->has_hit = 1;
		} else if (e->part == CHA_PART_MISS) {
			o->miss += counts[i];
			o->has_miss = 1;
		} else {
			o->all += counts[i];
			o->has_all = 1;
		}
	}
	uint64_t lines;
	if (!sum_ops(ops, p->read_ops, &lines, "PCIe read", m->why, sizeof(m->why))) {
		m->read_bytes = lines * CHA_LINE_BYTES;
		m->read_gbps_milli = metric_gbps_milli(m->read_bytes, window_ns);
		m->have_read = 1;
	}
	if (!sum_ops(ops, p->write_ops, &lines, "PCIe write", m->why, sizeof(m->why))) {
		m->write_bytes = lines * CHA_LINE_BYTES;
		m->write_gbps_milli = metric_gbps_milli(m->write_bytes, window_ns);
		m->have_write = 1;
	}
	m->have_mmio_read = !sum_ops(ops, p->mmio_read_ops, &m->mmio_reads, "MMIO reads", m->why, sizeof(m->why));
	m->have_mmio_write = !sum_ops(ops, p->mmio_write_ops, &m->mmio_writes, "MMIO writes", m->why, sizeof(m->why));
	const struct op_count *io = &ops[CHA_OP_IO];
	if (io->has_hit && io->has_miss) {
		m->hits = io->hit;
		m->misses = io->miss;
		m->hit_miss_counted = 1;
	} else {
		uint32_t mask = p->read_ops | p->write_ops;
		for (unsigned op = 0; op < CHA_NOPS; op++)
			if ((mask & CHA_OPBIT(op)) && ops[op].has_hit && ops[op].has_miss) {
				m->hits += ops[op].hit;
				m->misses += ops[op].miss;
				m->hit_miss_counted = 1;
			}
	}
	if (m->hits + m->misses) {
		m->hit_ratio_milli = metric_ratio_milli(m->hits, m->hits + m->misses);
		m->have_hit_ratio = 1;
	} else if (!m->why[0]) {
		fmt_snprintf(m->why, sizeof(m->why), "IO LLC hit ratio: no IO hit or miss counted");
	}
}
