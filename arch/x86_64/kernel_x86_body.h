/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The x86_64 stress kernels, written once and instantiated per ISA and per shape:
 * kernel_sse2_pure.c, kernel_avx2_pure.c and kernel_avx512_pure.c define the vector type and
 * operations below and include this file, which defines kernel_<kind>_<shape>_<ISA> for every
 * kind and every shape of KX_READ_SHAPES / KX_WRITE_SHAPES (kernel_x86.h).
 *
 * Shape: the array is cut into P equal parts ("streams") walked side by side; each turn handles
 * U consecutive 64-byte lines of every part, so one core keeps P sequential streams going and
 * U x P lines of loads in flight per turn; with a prefetch distance D > 0, each turn first
 * issues a software prefetch (PREFETCHT0, SDM Vol. 2B "PREFETCHh": a hint that never faults)
 * of the line D lines ahead in every part. Which shape is fastest depends on the machine: one
 * stream is limited by how many lines one hardware prefetch stream keeps in flight and stops at
 * every 4 KiB page, several streams keep several pages in progress, and too many exhaust the
 * fill buffers. The tuner (arch/kernel_tune.h) measures them all. Every byte of every array is
 * still read or written exactly once per pass; bytes must be a multiple of P x U x 64.
 *
 * Needed from the includer: ISA (name suffix), TARGET (function attribute or empty), VEC (double
 * vector), IVEC (integer vector), VBYTES, V_LOAD(p), V_STORE(p, v), V_STREAM(p, v), V_SET1(s),
 * V_ADD(x, y), V_MUL(x, y), I_LOAD(p), I_XOR(x, y), I_ZERO, I_FOLD(x) (XOR of its 64-bit lanes).
 */
#define KX_CAT3(a, b, c) kernel_##a##_##b##_##c
#define KX_CAT(a, b, c) KX_CAT3(a, b, c)
#define KX_CAT3I(a, b) kx_##a##_##b
#define KX_CATI(a, b) KX_CAT3I(a, b)
#define KX_UNROLL _Pragma("GCC unroll 16")
#define KX_LINE_VECS (64 / VBYTES)
#define KX_INLINE static inline __attribute__((always_inline)) TARGET
#define KX_PF(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)

KX_INLINE uint64_t KX_CATI(load, ISA)(const char *p, uint64_t bytes, const int P, const int U, const int D)
{
	const uint64_t h = bytes / P;
	IVEC x[8];
	KX_UNROLL for (int k = 0; k < P; k++)
		x[k] = I_ZERO;
	for (uint64_t o = 0; o < h; o += 64 * U) {
		if (D)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_PF(p + k * h + o + D * 64);
		KX_UNROLL for (int u = 0; u < U; u++)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_UNROLL for (int v = 0; v < KX_LINE_VECS; v++)
					x[k] = I_XOR(x[k], I_LOAD(p + k * h + o + u * 64 + v * VBYTES));
	}
	KX_UNROLL for (int k = 1; k < P; k++)
		x[0] = I_XOR(x[0], x[k]);
	return I_FOLD(x[0]);
}

/* Non-temporal stores are weakly ordered and write-combined: SFENCE makes them globally
 * visible before the kernel returns (SDM Vol. 1 10.4.6.2, Vol. 2B MOVNTPD). */
KX_INLINE void KX_CATI(store, ISA)(char *p, uint64_t bytes, double s, const int P, const int U, const int nt)
{
	const uint64_t h = bytes / P;
	const VEC val = V_SET1(s);
	for (uint64_t o = 0; o < h; o += 64 * U)
		KX_UNROLL for (int u = 0; u < U; u++)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_UNROLL for (int v = 0; v < KX_LINE_VECS; v++) {
					if (nt)
						V_STREAM(p + k * h + o + u * 64 + v * VBYTES, val);
					else
						V_STORE(p + k * h + o + u * 64 + v * VBYTES, val);
				}
	if (nt)
		_mm_sfence();
}

KX_INLINE void KX_CATI(copy, ISA)(char *d, const char *p, uint64_t bytes, const int P, const int U, const int D,
				  const int nt)
{
	const uint64_t h = bytes / P;
	for (uint64_t o = 0; o < h; o += 64 * U) {
		if (D)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_PF(p + k * h + o + D * 64);
		KX_UNROLL for (int u = 0; u < U; u++)
			KX_UNROLL for (int k = 0; k < P; k++) {
				VEC v[KX_LINE_VECS];
				const uint64_t at = k * h + o + u * 64;
				KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++)
					v[i] = V_LOAD(p + at + i * VBYTES);
				KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++) {
					if (nt)
						V_STREAM(d + at + i * VBYTES, v[i]);
					else
						V_STORE(d + at + i * VBYTES, v[i]);
				}
			}
	}
	if (nt)
		_mm_sfence();
}

/* STREAM triad a = b + s*c written as a multiply then an add, like STREAM's C and likwid's
 * stream_avx; GCC's default -ffp-contract=fast fuses the two into one FMA where the target has
 * it (the AVX-512 build does), which at memory speed does not change the rate. */
KX_INLINE void KX_CATI(triad, ISA)(char *d, const char *x, const char *y, uint64_t bytes, double s, const int P,
				   const int U, const int D)
{
	const uint64_t h = bytes / P;
	const VEC vs = V_SET1(s);
	for (uint64_t o = 0; o < h; o += 64 * U) {
		if (D)
			KX_UNROLL for (int k = 0; k < P; k++) {
				KX_PF(x + k * h + o + D * 64);
				KX_PF(y + k * h + o + D * 64);
			}
		KX_UNROLL for (int u = 0; u < U; u++)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++) {
					const uint64_t at = k * h + o + u * 64 + i * VBYTES;
					V_STORE(d + at, V_ADD(V_LOAD(x + at), V_MUL(vs, V_LOAD(y + at))));
				}
	}
}

/* One shape of every kind: name suffix, P parts, U lines per part per turn, D prefetch lines.
 * Stores get no prefetch (a store needs no data brought in ahead: the write-allocate read of
 * a temporal store is the hardware's, a non-temporal store has none). */
#define KX_READ_SHAPE(tag, P, U, D, ...)                                                                     \
	TARGET uint64_t KX_CAT(load, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		(void)a, (void)c, (void)s;                                                              \
		return KX_CATI(load, ISA)(b, bytes, P, U, D);                                           \
	}                                                                                               \
	TARGET uint64_t KX_CAT(copy, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		(void)c, (void)s;                                                                       \
		KX_CATI(copy, ISA)(a, b, bytes, P, U, D, 0);                                            \
		return 0;                                                                               \
	}                                                                                               \
	TARGET uint64_t KX_CAT(ntcopy, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		(void)c, (void)s;                                                                       \
		KX_CATI(copy, ISA)(a, b, bytes, P, U, D, 1);                                            \
		return 0;                                                                               \
	}                                                                                               \
	TARGET uint64_t KX_CAT(triad, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		KX_CATI(triad, ISA)(a, b, c, bytes, s, P, U, D);                                        \
		return 0;                                                                               \
	}
#define KX_WRITE_SHAPE(tag, P, U, D, ...)                                                                       \
	TARGET uint64_t KX_CAT(store, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		(void)b, (void)c;                                                                       \
		KX_CATI(store, ISA)(a, bytes, s, P, U, 0);                                              \
		return 0;                                                                               \
	}                                                                                               \
	TARGET uint64_t KX_CAT(ntstore, tag, ISA)(void *a, const void *b, const void *c, uint64_t bytes, double s) \
	{                                                                                               \
		(void)b, (void)c;                                                                       \
		KX_CATI(store, ISA)(a, bytes, s, P, U, 1);                                              \
		return 0;                                                                               \
	}

KX_READ_SHAPES(KX_READ_SHAPE, _)
KX_WRITE_SHAPES(KX_WRITE_SHAPE, _)

#undef KX_CAT3
#undef KX_CAT
#undef KX_CAT3I
#undef KX_CATI
#undef KX_UNROLL
#undef KX_LINE_VECS
#undef KX_INLINE
#undef KX_PF
#undef KX_READ_SHAPE
#undef KX_WRITE_SHAPE
