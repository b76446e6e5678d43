/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * c2c's request, run and result (the shape of efi/measure/shape.h). The request is the plan's:
 * the selected CPUs with their topology, rounds and trips, the shared line. c2c_measure runs one
 * window per pair (i < j) through ctx->win, CPU i initiating the CAS ping-pong (arch/c2c.h) and
 * timing each round of `trips` round trips; a round's latency is its round-trip time / 2 (one
 * line transfer) in ps. The result holds the min and median matrices (ps, zero diagonal,
 * symmetric, 0 where a pair failed), each pair's status and quietness, the summaries per
 * relation (efi/measure/c2c_group.h) and the SMIs of all windows. It writes no text: the
 * record writer (efi/out/c2c_out.c) does, after the run.
 */
#ifndef EFIPERF_C2C_RUN_H
#define EFIPERF_C2C_RUN_H

#include <stdint.h>
#include "arch/c2c.h"
#include "efi/measure/c2c_group.h"
#include "efi/measure/shape.h"
#include "efi/measure/health_run.h"

#define C2C_MAX_CPUS 64           /* the largest matrix (pairs grow as n^2/2, each one window) */
#define C2C_MAX_ROUNDS 10000u     /* c2c_rounds' limit (efi/config/config.c) */
#define C2C_MAX_PAIRS (C2C_MAX_CPUS * (C2C_MAX_CPUS - 1) / 2)
#define C2C_TIMEOUT_S 5u          /* a partner silent this long is gone: the pair is named failed */

struct c2c_request {
	int n;                               /* 2..C2C_MAX_CPUS */
	struct c2c_cpu topo[C2C_MAX_CPUS];   /* the selected CPUs, in selection order */
	int l3_known;                        /* every L3 domain came from the CPU (else: the package) */
	uint32_t rounds, trips;              /* rounds <= C2C_MAX_ROUNDS, trips >= 1 */
	uint64_t *line;                      /* C2C_LINE_BYTES-aligned, the pairs' shared line */
	/* for the record only: where the line is and what the platform says */
	int32_t line_node;                   /* the first CPU's SRAT node, -1 unknown */
	int line_local;                      /* the line lies in that node's memory */
	int emulated;                        /* a hypervisor said so (CPUID) */
	const char *hypervisor;              /* its name, "" none */
	const char *package_from;            /* where the packages came from */
	const char *l3_domain_from;          /* where the L3 domains came from */
	const struct health_opts *health;    /* optional: health over all the pairs' windows */
};

/* One window CPU's kernel argument, and the kernel (both sides of arch/c2c.h). */
struct c2c_pair_arg {
	struct c2c_run run;
	int initiator;
};
uint64_t c2c_pair_kernel(void *arg);

struct c2c_pair {
	uint32_t a, b;           /* MP services CPU numbers */
	int ran;                 /* both CPUs ran the window */
	int ok;                  /* ran, neither side timed out, the counter reached 2 x rounds x trips */
	int masked;              /* the window ran with interrupts masked on both */
	hw_status smi_st;        /* HW_OK: smi is the window's SMI count delta */
	uint64_t smi;
};

struct c2c_result {
	int n, npairs, failed;
	uint64_t min_ps[C2C_MAX_CPUS * C2C_MAX_CPUS], median_ps[C2C_MAX_CPUS * C2C_MAX_CPUS];  /* n x n */
	struct c2c_pair pair[C2C_MAX_PAIRS];
	struct c2c_summary rel[C2C_NREL], node[C2C_NNODE];   /* over median_ps */
	int all_masked;
	hw_status smi_st;        /* HW_OK when every window read its SMI count, else the last why */
	uint64_t smi;            /* the windows' SMIs together */
	struct health_run *health;   /* over every pair's window together (ctx->alloc; the caller frees) */
};

/* Run the matrix. Returns 0; -1 when a pair failed (res->failed > 0) or ctx->alloc had no
 * 2 x rounds + n(n-1)/2 words of working memory (res->npairs 0 then). */
int c2c_measure(const struct measure_ctx *ctx, const struct c2c_request *req, struct c2c_result *res);

#endif
