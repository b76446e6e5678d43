/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AVX-512 stress kernels: 64-byte vectors, one per cache line, so every access is a whole line
 * (a whole-line non-temporal VMOVNTPD fills a write-combining buffer in one store). Compiled
 * per function with target("avx512f"); only called when x86_kernel_isa() says AVX512F and XCR0
 * enables the opmask and ZMM state (else #UD). The kernels themselves are kernel_x86_body.h.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#include "arch/x86_64/kernel_x86.h"

__attribute__((target("avx512f"))) static inline uint64_t fold_avx512(__m512i x)
{
	__m256i y = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64(x, 1));
	__m128i h = _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
	return (uint64_t)_mm_cvtsi128_si64(h) ^ (uint64_t)_mm_extract_epi64(h, 1);
}

#define ISA          avx512
#define TARGET       __attribute__((target("avx512f")))
#define VEC          __m512d
#define IVEC         __m512i
#define VBYTES       64
#define V_LOAD(p)    _mm512_load_pd((const void *)(p))
#define V_STORE(p, v)  _mm512_store_pd((void *)(p), v)
#define V_STREAM(p, v) _mm512_stream_pd((double *)(void *)(p), v)
#define V_SET1(s)    _mm512_set1_pd(s)
#define V_ADD(x, y)  _mm512_add_pd(x, y)
#define V_MUL(x, y)  _mm512_mul_pd(x, y)
#define I_LOAD(p)    _mm512_load_si512((const void *)(p))
#define I_XOR(x, y)  _mm512_xor_si512(x, y)
#define I_XOR3(a, x, y) _mm512_ternarylogic_epi64(a, x, y, 0x96)
#define I_ZERO       _mm512_setzero_si512()
#define I_FOLD(x)    fold_avx512(x)
#define KX_L1_SHAPES
#include "arch/x86_64/kernel_x86_body.h"
#else
typedef int kernel_avx512_not_this_arch;
#endif
