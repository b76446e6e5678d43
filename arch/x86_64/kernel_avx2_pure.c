/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AVX2 stress kernels: 32-byte vectors, two per cache line; non-temporal stores are VMOVNTPD.
 * Compiled per function with target("avx2") so the rest of the app stays baseline x86_64, and
 * only called when x86_kernel_isa() says the CPU has AVX2 and XCR0 enables the YMM state (else
 * the first VEX instruction raises #UD). The kernels themselves are kernel_x86_body.h.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#include "arch/x86_64/kernel_x86.h"

__attribute__((target("avx2"))) static inline uint64_t fold_avx2(__m256i x)
{
	__m128i h = _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
	return (uint64_t)_mm_cvtsi128_si64(h) ^ (uint64_t)_mm_extract_epi64(h, 1);
}

#define ISA          avx2
#define TARGET       __attribute__((target("avx2")))
#define VEC          __m256d
#define IVEC         __m256i
#define VBYTES       32
#define V_LOAD(p)    _mm256_load_pd((const double *)(const void *)(p))
#define V_STORE(p, v)  _mm256_store_pd((double *)(void *)(p), v)
#define V_STREAM(p, v) _mm256_stream_pd((double *)(void *)(p), v)
#define V_SET1(s)    _mm256_set1_pd(s)
#define V_ADD(x, y)  _mm256_add_pd(x, y)
#define V_MUL(x, y)  _mm256_mul_pd(x, y)
#define I_LOAD(p)    _mm256_load_si256((const __m256i *)(const void *)(p))
#define I_XOR(x, y)  _mm256_xor_si256(x, y)
#define I_XOR3(a, x, y) _mm256_xor_si256(a, _mm256_xor_si256(x, y))
#define I_ZERO       _mm256_setzero_si256()
#define I_FOLD(x)    fold_avx2(x)
#include "arch/x86_64/kernel_x86_body.h"
#else
typedef int kernel_avx2_not_this_arch;
#endif
