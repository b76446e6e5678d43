/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bdf: a PCI function as a config value (mmio_bdf, dma_engine, dma_blockio, and the device half
 * of dma_write_lba), packed into one uint64_t, and its parser and printer. Shared by
 * config_value.c and blockio_target.c, so neither depends on config.c for it. Pure.
 *
 * Packing: segment << 16 | bus << 8 | device << 3 | function, or CFG_BDF_NONE when not set.
 * Device 0..0x1f and function 0..7 are the ranges of PCI Express Base 6.0 section 7.2.2 (ECAM:
 * 5 Device Number and 3 Function Number bits); segment 0..0xffff is the 16-bit PCI Segment
 * Group of PCI Firmware Specification 3.3 table 4-3.
 */
#ifndef EFIPERF_CONFIG_BDF_H
#define EFIPERF_CONFIG_BDF_H

#include <stddef.h>
#include <stdint.h>

#define CFG_BDF_NONE UINT64_MAX
#define CFG_BDF_SEG_SHIFT 16
#define CFG_BDF_BUS_SHIFT 8
#define CFG_BDF_DEV_SHIFT 3
#define CFG_BDF_SEG_MAX   0xFFFFu
#define CFG_BDF_BUS_MAX   0xFFu
#define CFG_BDF_DEV_MAX   0x1Fu
#define CFG_BDF_FN_MAX    0x7u

#define CFG_BDF(seg, bus, dev, fn) ((uint64_t)(seg) << CFG_BDF_SEG_SHIFT | (uint64_t)(bus) << CFG_BDF_BUS_SHIFT | \
				    (uint64_t)(dev) << CFG_BDF_DEV_SHIFT | (fn))
#define CFG_BDF_SEG(v) ((uint16_t)((v) >> CFG_BDF_SEG_SHIFT))
#define CFG_BDF_BUS(v) ((uint8_t)((v) >> CFG_BDF_BUS_SHIFT))
#define CFG_BDF_DEV(v) ((uint8_t)(((v) >> CFG_BDF_DEV_SHIFT) & CFG_BDF_DEV_MAX))
#define CFG_BDF_FN(v) ((uint8_t)((v) & CFG_BDF_FN_MAX))

/* A PCI function "SSSS:BB:DD.F" or "BB:DD.F" (hex) in v[0..n) into CFG_BDF() packing; -1 on any
 * other shape or an out-of-range field (device 0..0x1f, function 0..7). */
int cfg_parse_bdf(const char *v, size_t n, uint64_t *out);

/* v as a user writes it: "0000:00:07.0", or "none" for CFG_BDF_NONE. */
void cfg_bdf_format(char *buf, size_t n, uint64_t v);

#endif
