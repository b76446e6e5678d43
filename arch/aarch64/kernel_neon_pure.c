/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 Advanced SIMD (NEON) stress kernels, the same shapes as the x86_64 ones
 * (arch/x86_64/kernel_x86_body.h): arrays cut into P parts walked side by side, one 64-byte
 * line (four Q vectors, which the compiler pairs into LDP/STP Q) of each part per turn.
 * Non-temporal stores are STNP of Q pairs (Arm ARM C7.2 "STNP (SIMD&FP)": a hint that the data
 * is not to be kept in caches); STNP has normal store ordering for the program, so no closing
 * barrier is needed for it to see its data, and the window orders its timer and counter reads
 * itself. Pure: no EFI headers; compiled only for aarch64.
 */
#if defined(__aarch64__)
#include <arm_neon.h>
#include "arch/aarch64/kernel_neon.h"

#define UNROLL _Pragma("GCC unroll 8")
#define INL static inline __attribute__((always_inline))

INL float64x2_t ld(const char *p)
{
	return vld1q_f64((const double *)(const void *)p);
}

INL void st(char *p, float64x2_t v)
{
	vst1q_f64((double *)(void *)p, v);
}

/* One 64-byte line at p as two STNP of a Q pair. */
INL void stnp_line(char *p, float64x2_t v0, float64x2_t v1, float64x2_t v2, float64x2_t v3)
{
	__asm__ volatile("stnp %q1, %q2, [%0]\n\tstnp %q3, %q4, [%0, #32]"
			 : : "r"(p), "w"(v0), "w"(v1), "w"(v2), "w"(v3) : "memory");
}

INL uint64_t load_g(const char *p, uint64_t bytes, const int P)
{
	const uint64_t h = bytes / P;
	uint64x2_t x[8];
	UNROLL for (int k = 0; k < P; k++)
		x[k] = vdupq_n_u64(0);
	for (uint64_t o = 0; o < h; o += 64) {
		UNROLL for (int k = 0; k < P; k++) {
			const uint64_t *q = (const uint64_t *)(const void *)(p + k * h + o);
			x[k] = veorq_u64(x[k], veorq_u64(veorq_u64(vld1q_u64(q), vld1q_u64(q + 2)),
							 veorq_u64(vld1q_u64(q + 4), vld1q_u64(q + 6))));
		}
	}
	UNROLL for (int k = 1; k < P; k++)
		x[0] = veorq_u64(x[0], x[k]);
	return vgetq_lane_u64(x[0], 0) ^ vgetq_lane_u64(x[0], 1);
}

INL void store_g(char *p, uint64_t bytes, double s, const int P, const int nt)
{
	const uint64_t h = bytes / P;
	const float64x2_t v = vdupq_n_f64(s);
	for (uint64_t o = 0; o < h; o += 64)
		UNROLL for (int k = 0; k < P; k++) {
			char *q = p + k * h + o;
			if (nt)
				stnp_line(q, v, v, v, v);
			else
				st(q, v), st(q + 16, v), st(q + 32, v), st(q + 48, v);
		}
}

INL void copy_g(char *d, const char *p, uint64_t bytes, const int P, const int nt)
{
	const uint64_t h = bytes / P;
	for (uint64_t o = 0; o < h; o += 64)
		UNROLL for (int k = 0; k < P; k++) {
			const char *q = p + k * h + o;
			char *w = d + k * h + o;
			float64x2_t v0 = ld(q), v1 = ld(q + 16), v2 = ld(q + 32), v3 = ld(q + 48);
			if (nt)
				stnp_line(w, v0, v1, v2, v3);
			else
				st(w, v0), st(w + 16, v1), st(w + 32, v2), st(w + 48, v3);
		}
}

/* a = b + s*c; GCC contracts the multiply and add into FMLA (-ffp-contract=fast is GNU C's
 * default), as it does for the C reference: both round once. */
INL void triad_g(char *d, const char *x, const char *y, uint64_t bytes, double s, const int P)
{
	const uint64_t h = bytes / P;
	const float64x2_t vs = vdupq_n_f64(s);
	for (uint64_t o = 0; o < h; o += 64)
		UNROLL for (int k = 0; k < P; k++)
			UNROLL for (int i = 0; i < 64; i += 16) {
				const uint64_t at = k * h + o + i;
				st(d + at, vaddq_f64(ld(x + at), vmulq_f64(vs, ld(y + at))));
			}
}

#define NEON_SHAPE(tag, P, ...)                                                                         \
	uint64_t kernel_load_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s)    \
	{ (void)a, (void)c, (void)s; return load_g(b, n, P); }                                             \
	uint64_t kernel_store_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s)   \
	{ (void)b, (void)c; store_g(a, n, s, P, 0); return 0; }                                            \
	uint64_t kernel_ntstore_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s) \
	{ (void)b, (void)c; store_g(a, n, s, P, 1); return 0; }                                            \
	uint64_t kernel_copy_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s)    \
	{ (void)c, (void)s; copy_g(a, b, n, P, 0); return 0; }                                             \
	uint64_t kernel_ntcopy_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s)  \
	{ (void)c, (void)s; copy_g(a, b, n, P, 1); return 0; }                                             \
	uint64_t kernel_triad_##tag##_neon(void *a, const void *b, const void *c, uint64_t n, double s)   \
	{ triad_g(a, b, c, n, s, P); return 0; }
KA_SHAPES(NEON_SHAPE, _)
#else
typedef int kernel_neon_not_this_arch;
#endif
