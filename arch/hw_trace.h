/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recorder backend (config `trace = hw`): wraps any struct hw and records every access it
 * forwards (op, register/address, value written or read, status) into a caller-provided ring
 * of entries. Recording never does I/O: entries are drained to the log between phases of the
 * run (never inside a quiesced window), so tracing does not disturb the measurement.
 * When the ring is full, further accesses are still forwarded but counted in ->dropped.
 * Pure: host-tested against the register model.
 */
#ifndef EFIPERF_HW_TRACE_H
#define EFIPERF_HW_TRACE_H

#include "arch/hw.h"

enum hw_trace_op {
	HWT_CPUID, HWT_RDMSR, HWT_WRMSR, HWT_RDPMC, HWT_SYSREG_READ, HWT_SYSREG_WRITE,
	HWT_MMIO_READ32, HWT_MMIO_READ64, HWT_MMIO_WRITE32, HWT_MMIO_WRITE64,
	HWT_PCI_READ32, HWT_PCI_WRITE32, HWT_RUN_ON_CPU, HWT_IO_READ32,
};

struct hw_trace_entry {
	uint64_t seq;           /* 0, 1, 2 ... over the whole run (gaps = dropped entries) */
	uint8_t op;             /* enum hw_trace_op */
	uint8_t status;         /* hw_status */
	uint32_t reg;           /* MSR index, PMC index, sysreg encoding, cpuid leaf, PCI offset, CPU,
				   I/O port */
	uint32_t sub;           /* cpuid subleaf; PCI seg<<16|bus<<8|dev<<3|func */
	uint64_t addr;          /* MMIO address */
	uint64_t val;           /* value written or read (cpuid: eax | ebx<<32) */
	uint64_t val2;          /* cpuid: ecx | edx<<32 */
};

struct hw_trace {
	struct hw inner;
	struct hw_trace_entry *ring;
	size_t cap;             /* entries in ring */
	size_t head, count;     /* oldest entry, entries held */
	uint64_t seq;           /* next sequence number */
	uint64_t dropped;       /* accesses not recorded because the ring was full */
	uint8_t lock;           /* spinlock for reserving entries (several CPUs in a window) */
};

/* Set up t to record accesses made through the returned struct hw, forwarding to inner. */
struct hw hw_trace_wrap(struct hw_trace *t, struct hw inner, struct hw_trace_entry *ring, size_t cap);

/* Remove and pass each held entry, oldest first, to fn. Returns the number drained. */
size_t hw_trace_drain(struct hw_trace *t, void (*fn)(void *arg, const struct hw_trace_entry *e), void *arg);

/* "rdmsr", "wrmsr", "cpuid", ... */
const char *hw_trace_op_name(uint8_t op);

#endif
