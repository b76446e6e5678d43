/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SSE2 stress kernels: the x86_64 baseline, always offered, and what runs under a firmware that
 * left CR4.OSXSAVE clear (UEFI requires only SSE). 16-byte vectors, four per cache line;
 * non-temporal stores are MOVNTPD. The kernels themselves are kernel_x86_body.h.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#include "arch/x86_64/kernel_x86.h"

static inline uint64_t fold_sse2(__m128i x)
{
	return (uint64_t)_mm_cvtsi128_si64(x) ^ (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
}

#define ISA          sse2
#define TARGET
#define VEC          __m128d
#define IVEC         __m128i
#define VBYTES       16
#define V_LOAD(p)    _mm_load_pd((const double *)(const void *)(p))
#define V_STORE(p, v)  _mm_store_pd((double *)(void *)(p), v)
#define V_STREAM(p, v) _mm_stream_pd((double *)(void *)(p), v)
#define V_SET1(s)    _mm_set1_pd(s)
#define V_ADD(x, y)  _mm_add_pd(x, y)
#define V_MUL(x, y)  _mm_mul_pd(x, y)
#define I_LOAD(p)    _mm_load_si128((const __m128i *)(const void *)(p))
#define I_XOR(x, y)  _mm_xor_si128(x, y)
#define I_XOR3(a, x, y) _mm_xor_si128(a, _mm_xor_si128(x, y))
#define I_ZERO       _mm_setzero_si128()
#define I_FOLD(x)    fold_sse2(x)
#include "arch/x86_64/kernel_x86_body.h"
#else
typedef int kernel_sse2_not_this_arch;
#endif
