/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shape of a measurement: a typed request (built once, before the first window), a run
 * that turns it into a result struct and writes no text, and a record writer in efi/out/ that
 * writes the console lines and the JSONL record from the result after the run ended.
 *
 *   run(ctx, request, result)       traffic + windows -> result; pure over ctx
 *   record(request, result)         efi/out/: console + JSONL, after the run
 *
 * ctx is everything a run touches of the machine: hw, how windows run on CPUs, memory and the
 * timer. The firmware's ctx (measure_ctx_efi, efi/measure/measure.c) runs windows with
 * window_run on MP services CPUs; a host test gives a model (tests/unit) with a fake clock, so
 * the same run() is checked against hand-worked values.
 */
#ifndef EFIPERF_SHAPE_H
#define EFIPERF_SHAPE_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/measure/window.h"
#include "efi/fw/memranges.h"

/* Per-CPU results further than this (percent) from the median are flagged: a CPU whose result
 * is far from the others. */
#define MEASURE_OUTLIER_PCT 25u

/* How a measurement's windows run. run: 0 when every CPU of s ran its kernel, -1 otherwise
 * (window_run's contract, efi/measure/window.h); r filled either way. */
struct window_ops {
	int (*run)(void *ctx, const struct window_spec *s, struct window_result *r);
	void *ctx;
};

struct acpi_hmat;

/* The CXL window a measurement's buffers lie in (efi/cxl_memory.c through efi/pages.h), for its
 * record: the device and window, the device link's raw rate per direction, and what HMAT
 * (efi/fw/acpi_hmat.h) may claim for the window's memory from the measuring CPU's domain. */
struct mem_cxl {
	const char *device;                  /* "0000:0d:00.0"; NULL: not on a CXL window */
	uint32_t window;                     /* CFMWS index */
	uint64_t link_mbps;                  /* MB/s per direction, 0 when the link is down */
	const struct acpi_hmat *hmat;        /* NULL: no HMAT */
	int32_t domain, initiator;           /* SRAT proximity domains, -1 none */
};

struct measure_ctx {
	const struct hw *hw;
	struct window_ops win;
	void *(*alloc)(uint64_t bytes);   /* zeroed memory (the UEFI pool); NULL when short */
	void (*free)(void *p);            /* what alloc gave; NULL is ignored */
	/* whole pages inside the ranges r[0..nr) (a NUMA node's memory), NULL when no free run is
	 * big enough; nr 0: whole pages anywhere; free_in gives back what alloc_in gave (bytes as
	 * asked) */
	void *(*alloc_in)(uint64_t bytes, const struct memrange *r, int nr);
	void (*free_in)(void *p, uint64_t bytes);
	uint64_t (*clock)(void);          /* the timer the kernels time themselves with */
	uint64_t timer_hz;                /* its rate */
};

#endif
