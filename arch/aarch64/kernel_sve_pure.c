/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 SVE stress kernels: vector-length agnostic (the length ZCR_ELx.LEN and the
 * implementation give, 128 to 2048 bits), P parts walked side by side as the NEON kernels do,
 * each part in whole vectors under a WHILELT predicate (the last vector of a part may be
 * partial when the length does not divide 64 bytes). Non-temporal stores are STNT1D (Arm ARM
 * C8.2 "STNT1D (scalar plus scalar)": a non-temporal hint). Compiled with target +sve and only
 * called where aarch64_kernel_isa() offers KERNEL_ISA_SVE: SVE implemented and not trapped
 * (efiperf enables it, arch/vecstate.h), else the first SVE instruction traps.
 */
#if defined(__aarch64__)
#include <arm_sve.h>
#include "arch/aarch64/kernel_neon.h"

#pragma GCC target("+sve")

#define UNROLL _Pragma("GCC unroll 8")
#define INL static inline __attribute__((always_inline))

/* Inactive lanes of a predicated load are zero (LD1D zeroing), so XOR-ing whole vectors adds
 * nothing for them. SVE types cannot form arrays: the parts are folded into one vector per
 * turn, then into the accumulator. */
INL uint64_t load_g(const uint64_t *p, uint64_t bytes, const int P)
{
	const uint64_t n = bytes / 8 / P;
	const svbool_t all = svptrue_b64();
	svuint64_t acc = svdup_u64(0);
	for (uint64_t i = 0; i < n; i += svcntd()) {
		svbool_t pg = svwhilelt_b64(i, n);
		svuint64_t t = svld1_u64(pg, p + i);
		UNROLL for (int k = 1; k < P; k++)
			t = sveor_u64_x(all, t, svld1_u64(pg, p + k * n + i));
		acc = sveor_u64_x(all, acc, t);
	}
	return sveorv_u64(all, acc);
}

INL void store_g(double *p, uint64_t bytes, double s, const int P, const int nt)
{
	const uint64_t n = bytes / 8 / P;
	const svfloat64_t v = svdup_f64(s);
	for (uint64_t i = 0; i < n; i += svcntd()) {
		svbool_t pg = svwhilelt_b64(i, n);
		UNROLL for (int k = 0; k < P; k++) {
			if (nt)
				svstnt1_f64(pg, p + k * n + i, v);
			else
				svst1_f64(pg, p + k * n + i, v);
		}
	}
}

INL void copy_g(double *d, const double *p, uint64_t bytes, const int P, const int nt)
{
	const uint64_t n = bytes / 8 / P;
	for (uint64_t i = 0; i < n; i += svcntd()) {
		svbool_t pg = svwhilelt_b64(i, n);
		UNROLL for (int k = 0; k < P; k++) {
			svfloat64_t v = svld1_f64(pg, p + k * n + i);
			if (nt)
				svstnt1_f64(pg, d + k * n + i, v);
			else
				svst1_f64(pg, d + k * n + i, v);
		}
	}
}

INL void triad_g(double *d, const double *x, const double *y, uint64_t bytes, double s, const int P)
{
	const uint64_t n = bytes / 8 / P;
	const svfloat64_t vs = svdup_f64(s);
	for (uint64_t i = 0; i < n; i += svcntd()) {
		svbool_t pg = svwhilelt_b64(i, n);
		UNROLL for (int k = 0; k < P; k++) {
			const uint64_t at = k * n + i;
			svst1_f64(pg, d + at, svadd_f64_x(pg, svld1_f64(pg, x + at), svmul_f64_x(pg, vs, svld1_f64(pg, y + at))));
		}
	}
}

#define SVE_SHAPE(tag, P, ...)                                                                          \
	uint64_t kernel_load_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)     \
	{ (void)a, (void)c, (void)s; return load_g(b, n, P); }                                             \
	uint64_t kernel_store_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)    \
	{ (void)b, (void)c; store_g(a, n, s, P, 0); return 0; }                                            \
	uint64_t kernel_ntstore_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)  \
	{ (void)b, (void)c; store_g(a, n, s, P, 1); return 0; }                                            \
	uint64_t kernel_copy_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)     \
	{ (void)c, (void)s; copy_g(a, b, n, P, 0); return 0; }                                             \
	uint64_t kernel_ntcopy_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)   \
	{ (void)c, (void)s; copy_g(a, b, n, P, 1); return 0; }                                             \
	uint64_t kernel_triad_##tag##_sve(void *a, const void *b, const void *c, uint64_t n, double s)    \
	{ triad_g(a, b, c, n, s, P); return 0; }
KA_SHAPES(SVE_SHAPE, _)
#else
typedef int kernel_sve_not_this_arch;
#endif
