/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Members every DMA window's records share (Block IO, DMA engine, MMIO, NVMe):
 *   self_check {state, expected_read_bytes, expected_write_bytes, counted_read_bytes,
 *               counted_write_bytes, ratio_read, ratio_write, tolerance, why}
 *              (pmu/self_check.h; counted_* and ratio_* are null where unknown)
 *   link_limit {status, why, path [BDF from the Root Port down], links [{port, device, gts,
 *               width, raw_gbps, ends_disagree}], bottleneck {port, device, gts, width},
 *               raw_gbps, mps, mrrs, effective_read_gbps, effective_write_gbps, direction,
 *               effective_gbps, fraction, impossible} (efi/pcie/link_limit.h; GB/s per
 *               direction)
 *   io_llc_hit_ratio {state, hits, misses, ratio, why}   (efi/measure/ddio.h: state ok |
 *              not-advancing | absent; ratio = hits / (hits + misses), 3 decimals, null unless ok)
 * All are always written: a field the reader expects is never left out (null and why instead).
 */
#ifndef EFIPERF_OUT_DMA_JSON_H
#define EFIPERF_OUT_DMA_JSON_H

#include "efi/out/jsonl.h"
#include "efi/pcie/link_limit.h"
#include "pmu/self_check.h"
#include "efi/measure/ddio.h"

void self_check_json(struct json *j, const char *key, const struct self_check *sc);
void ddio_ratio_json(struct json *j, const char *key, const struct ddio_ratio *r);
void link_limit_json(struct json *j, const char *key, const struct link_limit *ll);

#endif
