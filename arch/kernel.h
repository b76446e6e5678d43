/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stress kernels: memory bandwidth (load, store, non-temporal store, copy, non-temporal copy,
 * STREAM triad) and latency (pointer chase), as data tables of function pointers.
 *
 * Pure header: no EFI types. The kernels are pure compute (no firmware calls, no libc), so the
 * same sources build into the UEFI app and into host unit tests and `make bench`.
 *
 * Every kernel has one signature:
 *
 *     uint64_t fn(void *a, const void *b, const void *c, uint64_t bytes, double s)
 *
 * `bytes` is the length of ONE array (a non-zero multiple of the kernel's block_bytes); every
 * buffer is aligned to the kernel's align_bytes (64 for all kernels here); kernel_apply() lifts
 * both rules for any 8-byte-aligned buffers and length. Each kind comes in variants ("shapes"):
 * the SIMD kernels walk each array as `parts` equal parts side by side (1, 2, 4 or 8 sequential
 * streams from one core), `unroll` cache lines of each part per turn, with an optional software
 * prefetch `prefetch_lines` lines ahead (arch/x86_64/kernel_x86_body.h says why): the order of
 * the accesses differs from one sweep, the bytes touched do not. The tuner
 * (arch/kernel_tune.h) measures the variants and picks the fastest.
 *
 *   kind      operation                              returns            streams
 *   load      read b                                 XOR of b's 64-bit words  1
 *   store     a[i] = s  (every 8-byte word)          0                  1
 *   ntstore   as store, non-temporal stores          0                  1
 *   copy      a = b                                  0                  2
 *   ntcopy    as copy, non-temporal stores           0                  2
 *   triad     a[i] = b[i] + s * c[i]  (doubles)      0                  3
 *   chase     follow the chain built in b by         the address reached (== b after a
 *             kernel_chase_build: bytes/line loads   full pass: the chain is one cycle) 1
 *
 * Bytes are application bytes, counted as likwid-bench and STREAM count them: every array
 * element read or written once per pass, no write-allocate traffic. likwid's .ptt headers give
 * BYTES = 8 x STREAMS per double element (load_avx/store_avx/store_mem_avx: STREAMS 1, BYTES 8;
 * copy_avx/copy_mem_avx: STREAMS 2, BYTES 16; stream_avx, A = B*s + C: 3 streams, 24 B/element
 * in likwid-bench 5.2.2's "Load bytes per element 16, Store bytes per elem. 8"), and likwid-bench
 * reports Data volume = iterations x (bytes of all its streams). STREAM counts Copy 2 and Triad
 * 3 x sizeof(double) x N. So app_bytes = streams x bytes per pass. Hardware counters see more
 * for temporal stores (the write-allocate read of every destination line: about 1.5x for copy,
 * 2x for store) and the same for non-temporal ones.
 */
#ifndef EFIPERF_KERNEL_H
#define EFIPERF_KERNEL_H

#include <stdint.h>

enum kernel_kind {
	KERNEL_LOAD,
	KERNEL_STORE,
	KERNEL_NTSTORE,
	KERNEL_COPY,
	KERNEL_NTCOPY,
	KERNEL_TRIAD,
	KERNEL_CHASE,
	KERNEL_KIND_COUNT
};

/* Instruction-set features a kernel needs; a CPU offers a mask of them (arch_kernel_isa()). */
enum {
	KERNEL_ISA_NONE   = 0,        /* portable C: the reference set and the chase */
	KERNEL_ISA_SSE2   = 1u << 0,  /* x86_64 baseline */
	KERNEL_ISA_AVX2   = 1u << 1,  /* CPUID AVX + AVX2, OS enabled XCR0 SSE and AVX state */
	KERNEL_ISA_AVX512 = 1u << 2,  /* CPUID AVX512F, OS enabled XCR0 opmask/ZMM state too */
	KERNEL_ISA_NEON   = 1u << 3,  /* aarch64 Advanced SIMD (ID_AA64PFR0_EL1.AdvSIMD) */
	KERNEL_ISA_SVE    = 1u << 4,  /* aarch64 SVE (ID_AA64PFR0_EL1.SVE), not trapped at this EL */
};

typedef uint64_t kernel_fn(void *a, const void *b, const void *c, uint64_t bytes, double s);

struct kernel_desc {
	const char *name;        /* "copy_s8_avx2": kind, shape, then ISA */
	enum kernel_kind kind;
	uint32_t isa;            /* KERNEL_ISA_* bits the CPU must offer */
	uint32_t block_bytes;    /* bytes must be a non-zero multiple of this */
	uint32_t align_bytes;    /* a, b, c must be aligned to this */
	kernel_fn *fn;
	uint8_t parts;           /* streams per array walked side by side (1, 2, 4, 8); 0 = 1 */
	uint8_t unroll;          /* 64-byte lines of each part per turn; 0 = 1 */
	uint8_t prefetch_lines;  /* software prefetch distance in 64-byte lines, 0 = none */
};

/* Arrays a kernel of this kind touches per pass (table above); 0 for an unknown kind. */
uint32_t kernel_streams(enum kernel_kind kind);
/* Application bytes of one pass over arrays of `bytes` each: streams x bytes. */
uint64_t kernel_app_bytes(enum kernel_kind kind, uint64_t bytes);
/* A timed pass over arrays that fit a cache level is many kernel calls: at least this many
 * application bytes (8 MiB), so the clock reads around a pass are small beside it. */
#define KERNEL_PASS_BYTES (8ull << 20)
/* Calls per timed pass for calls of `call_bytes` application bytes each: pass_bytes /
 * call_bytes, at least 1 (also for a call of 0 bytes or of pass_bytes or more). */
uint32_t kernel_calls_per_pass(uint64_t call_bytes, uint64_t pass_bytes);
const char *kernel_kind_name(enum kernel_kind kind);   /* "load" ... "chase"; "?" */
/* "sse2", "avx2", "avx512", "neon", "sve", "c" (the lowest set bit's name, "c" for none). */
const char *kernel_isa_name(uint32_t isa);
/* The ISA bit named `name` ("sse2" ... "sve", as kernel_isa_name spells them), 0 for none. */
uint32_t kernel_isa_bit(const char *name);

/* This CPU's kernels, widest ISA first within each kind (arch/<arch>/kernel_table_pure.c),
 * and what the running CPU and its firmware/OS enabled (x86: CPUID + XGETBV; aarch64:
 * ID_AA64PFR0_EL1). Only kernels whose isa bits are all in the mask may be called. */
extern const struct kernel_desc arch_kernels[];
extern const uint32_t arch_nkernels;
uint32_t arch_kernel_isa(void);

/* Portable C reference kernels, one per kind in kind order (the oracle of the unit tests;
 * block_bytes 8, or 64 for the chase). */
extern const struct kernel_desc kernel_ref_set[KERNEL_KIND_COUNT];

/* 1 when every ISA bit the kernel needs is in isa_mask. */
int kernel_offered(const struct kernel_desc *k, uint32_t isa_mask);
/* The first offered kernel of `kind` in `table` (widest first), else NULL. */
const struct kernel_desc *kernel_best(const struct kernel_desc *table, uint32_t n, enum kernel_kind kind,
				      uint32_t isa_mask);
/* The kernel named `name` in `table` when offered, else NULL (unknown or not supported). */
const struct kernel_desc *kernel_by_name(const struct kernel_desc *table, uint32_t n, const char *name,
					 uint32_t isa_mask);
/* 0 when (bytes, a, b, c) satisfy k's block and alignment rules and the buffers the kind
 * uses are non-NULL, else -1. */
int kernel_check_args(const struct kernel_desc *k, const void *a, const void *b, const void *c, uint64_t bytes);
/* Run k over buffers of any 8-byte alignment and any length that is a multiple of 8 bytes (the
 * reference set's rules): the head up to k's alignment and the tail below its block go through
 * the C reference of the kind, the middle through k (all of it through the reference when the
 * buffers the kind uses are not equally misaligned). Returns what the kind returns (load: the
 * XOR of all words, split or not). Not for the chase (its fn is called as is). */
uint64_t kernel_apply(const struct kernel_desc *k, void *a, const void *b, const void *c, uint64_t bytes, double s);
/* Buffers the kind uses: bit 0 a, bit 1 b, bit 2 c (0 for an unknown kind). */
uint32_t kernel_uses(enum kernel_kind kind);

/* ---- running a kernel on a CPU ----------------------------------------------------------------
 * One struct carries everything, so a window passes it through hw_run_on_cpu / MP services
 * StartupThisAP as the single void * argument of kernel_run_entry (which has hw_cpu_fn's shape;
 * the EFI glue wraps it in an EFIAPI procedure for EFI_AP_PROCEDURE). Inputs first, outputs
 * written by kernel_run. kernel_run does not mask interrupts or touch counters: the window
 * does that around it. */
struct kernel_run {
	/* in */
	const struct kernel_desc *k;
	void *a;
	const void *b, *c;
	uint64_t bytes;               /* per array */
	double scalar;                /* store value / triad s */
	uint32_t passes;              /* timed passes, >= 1 */
	uint32_t reps;                /* kernel calls per timed pass; 0 or 1: one. An array that fits
				       * a cache level is a short call (24 KiB of L1 is ~100 ns):
				       * timing many calls together keeps the timer's own cost (a
				       * clock read is tens of ns) out of the rate, as likwid-bench
				       * times its whole iteration loop once */
	uint64_t (*timer)(void);      /* arch_timer_read in the app, a clock on the host */
	/* out */
	int status;                   /* 0 ok; -1 bad arguments, -2 this CPU does not offer the
				       * kernel's ISA (arch_kernel_isa() on the running CPU):
				       * nothing ran */
	uint64_t result;              /* the kernel's return value from the last pass */
	uint64_t ticks_total, ticks_min, ticks_max;   /* per-pass timer ticks (reps calls each) */
	uint64_t app_bytes;           /* kernel_app_bytes x passes x reps */
	uint64_t loads;               /* chase: dependent loads made (lines x passes x reps); else 0 */
};
void kernel_run(struct kernel_run *r);
void kernel_run_entry(void *arg);   /* kernel_run((struct kernel_run *)arg) */

/* ---- latency: pointer chase -------------------------------------------------------------------
 * kernel_chase_build turns buf (bytes, a multiple of line) into one random cycle through all
 * bytes/line lines: the first 8 bytes of each line hold the address of the next line. The
 * permutation is Sattolo's algorithm (a uniformly random cyclic permutation: one cycle) over a
 * splitmix64 stream from `seed`, built in place (no memory beyond buf). Returns the number of
 * lines, 0 when the arguments are unusable (line < 8, not a multiple of 8, or fewer than 2
 * lines). The chase kernel (kind chase, in kernel_ref_set) follows it for bytes/64 loads: each
 * load's address is the value of the previous load, so none can be skipped or overlapped. */
uint64_t kernel_chase_build(void *buf, uint64_t bytes, uint32_t line, uint64_t seed);
/* Follow a built chain from start for `loads` loads; returns the address reached. */
uint64_t kernel_chase(const void *start, uint64_t loads);
/* The chase as a kernel_fn (kind chase): kernel_chase(b, bytes / 64), for chains of 64-byte
 * lines (call kernel_chase directly for other line sizes). */
kernel_fn kernel_chase_c;
/* Latency per load in thousandths: ticks x 1000 / loads, and ps per load for a timer of hz
 * (128-bit intermediates; 0 when loads or hz is 0). */
uint64_t kernel_ticks_per_load_milli(uint64_t ticks, uint64_t loads);
uint64_t kernel_ps_per_load(uint64_t ticks, uint64_t hz, uint64_t loads);
/* Working sets of the latency curve: powers of two from 4 KiB to max_bytes (capped at 1 GiB),
 * written to out (up to n); returns how many. */
uint32_t kernel_chase_sizes(uint64_t max_bytes, uint64_t *out, uint32_t n);

#endif
