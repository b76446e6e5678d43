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
 * V_ADD(x, y), V_MUL(x, y), I_LOAD(p), I_XOR(x, y), I_XOR3(acc, x, y) (acc ^ x ^ y), I_ZERO, I_FOLD(x)
 * (XOR of its 64-bit lanes).
 */
#define KX_CAT3(a, b, c) kernel_##a##_##b##_##c
#define KX_CAT(a, b, c) KX_CAT3(a, b, c)
#define KX_CAT3I(a, b) kx_##a##_##b
#define KX_CATI(a, b) KX_CAT3I(a, b)
#define KX_UNROLL _Pragma("GCC unroll 16")
#define KX_LINE_VECS (64 / VBYTES)
#define KX_INLINE static inline __attribute__((always_inline)) TARGET
#define KX_PF(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)

/* The load kind's XOR of every word, with as little work per load as the ISA allows: the vectors
 * of a turn are taken in pairs, each pair folded into one of KX_LOAD_ACC accumulators by one
 * three-input XOR (I_XOR3: AVX-512 VPTERNLOGQ with truth table 0x96, one uop; elsewhere two
 * XORs, the pair's first so that the accumulator's chain has one). Every load but the pair's
 * second then costs no vector ALU uop of its own: at two 512-bit loads a cycle (Golden Cove,
 * Zen 5) the ALU ports would otherwise be as busy as the load ports. The accumulators are
 * independent chains, one step per pair; a turn's pairs go round them. */
#define KX_LOAD_ACC 4
KX_INLINE uint64_t KX_CATI(load, ISA)(const char *p, uint64_t bytes, const int P, const int U, const int D)
{
	const uint64_t h = bytes / P;
	const int n = P * U * KX_LINE_VECS;   /* vectors per turn: u, then part k, then vector v */
	IVEC x[KX_LOAD_ACC];
	KX_UNROLL for (int j = 0; j < KX_LOAD_ACC; j++)
		x[j] = I_ZERO;
#define KX_AT(i) (p + ((i) / KX_LINE_VECS % P) * h + o + (i) / (KX_LINE_VECS * P) * 64 + (i) % KX_LINE_VECS * VBYTES)
	for (uint64_t o = 0; o < h; o += 64 * U) {
		if (D)
			KX_UNROLL for (int k = 0; k < P; k++)
				KX_PF(p + k * h + o + D * 64);
		KX_UNROLL for (int i = 0; i + 1 < n; i += 2)
			x[i / 2 % KX_LOAD_ACC] = I_XOR3(x[i / 2 % KX_LOAD_ACC], I_LOAD(KX_AT(i)), I_LOAD(KX_AT(i + 1)));
		if (n % 2)
			x[0] = I_XOR(x[0], I_LOAD(KX_AT(n - 1)));
	}
#undef KX_AT
	return I_FOLD(I_XOR3(x[0], x[1], I_XOR3(x[2], x[3], I_ZERO)));
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
#ifdef KX_L1_SHAPES   /* the includer's ISA has the L1 shapes too (kernel_x86.h) */
KX_L1_READ_SHAPES(KX_READ_SHAPE, _)
KX_L1_WRITE_SHAPES(KX_WRITE_SHAPE, _)
#endif

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
