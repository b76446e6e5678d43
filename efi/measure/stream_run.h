/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * STREAM's request, run and result (the shape of efi/measure/shape.h). For each STREAM function
 * (load, store, non-temporal store, copy, non-temporal copy, triad: stream_kinds[]) the
 * selected CPUs run the kernel over their own three arrays (a written; b, c hold finite
 * doubles) at once in an interrupt-masked window through ctx->win, `passes` passes, after an
 * empty window on the same CPUs (the noise floor). Bytes are counted as STREAM and likwid-bench
 * count them (application bytes: copy 2 arrays a pass, scale 2, add 3, triad 3; load, store and
 * ntstore 1). Rates are from the best pass: MB/s = bytes per microsecond; the CPUs' bytes
 * together over the fastest CPU's best pass, each CPU's own beside it, outliers flagged (more
 * than MEASURE_OUTLIER_PCT from the median). Copies are verified (a equals b afterwards).
 *
 * The kernel of a function: `kernel = <name>` pins it; otherwise the widest variant the CPU
 * offers (kernel_best), or with a budget the tuner's choice (arch/kernel_tune.h) per CPU class
 * (CPUs of one class share it, tuned on the class's first CPU over its own arrays). The vector
 * state rides on the whole run as an attachment (efi/measure/attach.h: prepared after the
 * arrays are taken, restored at the end); what the run asks of the CPU beyond windows (its
 * offered ISAs once the vector state is on, a CPU's class, the tuner on a CPU) goes through
 * request.ops. It writes no text: efi/out/stream_out.c does, after the run.
 */
#ifndef EFIPERF_STREAM_RUN_H
#define EFIPERF_STREAM_RUN_H

#include <stdint.h>
#include "arch/kernel.h"
#include "arch/kernel_tune.h"
#include "efi/measure/attach.h"
#include "efi/measure/cpu_arrays.h"
#include "efi/measure/health_run.h"
#include "efi/measure/shape.h"

struct smbios_info;

#define STREAM_NKINDS 6
#define STREAM_MAX_CLASSES 8
#define STREAM_TRIAD_SCALAR 3.0
#define STREAM_STORE_VALUE 1.0
#define STREAM_TUNE_SLICES 8                /* the probe in slices taken in turn (arch/kernel_tune.h) ... */
#define STREAM_TUNE_SLICE_MIN (64u * 1024u) /* ... when each slice of an array is at least this long */

extern const enum kernel_kind stream_kinds[STREAM_NKINDS];

/* What STREAM asks of the CPU beyond windows: the firmware's (efi/measure/stream_measure.c) or
 * a test's. */
struct stream_ops {
	uint32_t (*isa)(void);                                    /* kernel ISAs offered now (arch_kernel_isa) */
	uint32_t (*cpu_class)(const struct hw *hw, uint32_t cpu); /* arch_cpu_class on that CPU */
	/* the tuner on cpu (efi/measure/tune_run.h tune_run_on): 0 chosen, -1 t->status says why */
	int (*tune)(const struct hw *hw, uint32_t cpu, struct kernel_tune *t, uint32_t isa_only);
};

struct stream_request {
	struct cpu_sel sel;                  /* n >= 1 */
	uint64_t size;                       /* bytes per array */
	uint32_t passes;                     /* >= 1 */
	const struct kernel_desc *table;     /* the kernel library */
	uint32_t ntable;
	const char *kernel;                  /* `kernel` as set, for the record */
	int auto_kernel;                     /* `kernel = auto` or an ISA name */
	uint32_t isa_only;                   /* `kernel = <ISA>`: that ISA's bit, 0 otherwise */
	const struct kernel_desc *pinned;    /* `kernel = <name>` as the table has it (any ISA), NULL none */
	uint32_t budget_ms;                  /* kernel_budget: the tuner's time over all functions */
	uint64_t llc;                        /* last-level cache bytes, 0 unknown */
	const struct stream_ops *ops;
	struct attach_list *vec;             /* optional: the vector state, on for the whole run */
	const struct health_opts *health;    /* optional: the health attachments on each window */
	const struct smbios_info *smbios;    /* the record's dram_peak claim (SMBIOS type 17), NULL none */
	struct mem_cxl cxl;                  /* the CXL window the buffers lie in, device NULL none */
};

/* A function's best rate (MB/s, STREAM's counted bytes) split as the function moves them:
 * kernel_streams(kind) arrays, one written (none by load or chase), the rest read; each part as a
 * fraction (x 1000) of the link's raw rate per direction, 0 when link_mbps is 0. */
struct stream_link { uint64_t read_mbps, write_mbps, read_milli, write_milli; };
void stream_link_split(enum kernel_kind kind, uint64_t mbps, uint64_t link_mbps, struct stream_link *o);

struct stream_cpu_out {
	uint64_t mbps;                       /* its best pass, 0 when it did not run */
	uint8_t outlier;
	const struct kernel_desc *k;         /* the kernel it ran */
};

struct stream_kind_out {
	int ran;                             /* this CPU offers a kernel of the function */
	const char *from;                    /* "pinned", "tuner", "default" */
	int tuning;
	const struct kernel_desc *deflt;     /* the default the tuner's failures fall back to */
	int tune_rc[STREAM_MAX_CLASSES];     /* per class: 0, or -1 (tune[c].status says why) */
	struct kernel_tune tune[STREAM_MAX_CLASSES];   /* as tuned (when tuning) */
	int probe_above_llc;                 /* the first class's probe (this or an earlier function's) > llc */
	uint64_t app;                        /* the CPUs' application bytes of one pass */
	uint64_t mbps10;                     /* best rate, MB/s x 10 */
	uint64_t avg_ns, min_ns, max_ns;     /* per pass, over the CPUs */
	uint64_t median_mbps;
	int outliers, verified;
	struct window_result w, floor;
	uint64_t floor_ns;
	struct stream_cpu_out cpu[WINDOW_MAX_CPUS];
	struct health_run health;            /* the window's, when the request has health */
};

struct stream_result {
	int placed;                          /* every CPU's arrays were taken */
	int vec_on, vec_not_restored;        /* the vector state was prepared; its restore failed */
	uint32_t isa;                        /* offered once the vector state was on */
	int kernel_refused;                  /* `kernel` named an ISA or kernel this CPU does not offer */
	uint64_t timer_hz;
	int nclasses;
	uint32_t class_id[STREAM_MAX_CLASSES];
	int class_first[STREAM_MAX_CLASSES]; /* index into the selection */
	struct cpu_place place[WINDOW_MAX_CPUS];
	const void *buf[WINDOW_MAX_CPUS];    /* each CPU's array a (its address, for the record) */
	struct stream_kind_out kind[STREAM_NKINDS];
};

/* STREAM's values: a zeroed (all `bytes` of it), b and c with finite doubles in their first
 * `bytes` (the tuner's check rewrites KERNEL_TUNE_VERIFY_BYTES of them). */
void stream_arrays_init(void *a, void *b, void *c, uint64_t bytes);

/* The window kernel: kernel_run over a struct kernel_run. */
uint64_t stream_kernel(void *arg);

/* Every function. Returns 0; -1 when the arrays or the working state could not be had
 * (res->placed 0, nothing ran), a function was not verified or a CPU did not run, or the vector
 * state was not restored. */
int stream_measure(const struct measure_ctx *ctx, const struct stream_request *req, struct stream_result *res);

#endif
