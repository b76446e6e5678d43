/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The four MMIO callbacks of struct hw_ops (arch/hw.h) over one register model's access
 * function, for the models whose registers are reached by one read/write routine:
 *
 *     hw_status fn(void *ctx, uint64_t addr, uint64_t *v, int write, int wide)
 *
 * MODEL_MMIO_OPS(pfx, fn) defines static pfx_mr32, pfx_mr64, pfx_mw32 and pfx_mw64: a 32-bit read
 * returns the low half of what fn gives, a 32-bit write hands fn the value zero-extended.
 */
#ifndef EFIPERF_TESTS_MODEL_MMIO_H
#define EFIPERF_TESTS_MODEL_MMIO_H

#include <stdint.h>
#include "arch/hw.h"

#define MODEL_MMIO_OPS(pfx, fn)                                                        \
	static hw_status pfx##_mr32(void *c, uint64_t a, uint32_t *v)                  \
	{                                                                              \
		uint64_t x = 0;                                                        \
		hw_status st = fn(c, a, &x, 0, 0);                                     \
		*v = (uint32_t)x;                                                      \
		return st;                                                             \
	}                                                                              \
	static hw_status pfx##_mr64(void *c, uint64_t a, uint64_t *v) { return fn(c, a, v, 0, 1); } \
	static hw_status pfx##_mw32(void *c, uint64_t a, uint32_t v)                   \
	{                                                                              \
		uint64_t x = v;                                                        \
		return fn(c, a, &x, 1, 0);                                             \
	}                                                                              \
	static hw_status pfx##_mw64(void *c, uint64_t a, uint64_t v) { return fn(c, a, &v, 1, 1); }

#endif
