/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The x86_64 stress kernels, written once and instantiated per ISA: kernel_sse2_pure.c,
 * kernel_avx2_pure.c and kernel_avx512_pure.c define the vector type and operations below and
 * include this file, which defines kernel_<kind>_<ISA> for every kind.
 *
 * Shape (all kinds): the array is cut into KERNEL_X86_PARTS equal parts and each turn handles
 * one 64-byte cache line of every part, so one core keeps PARTS sequential streams going at once
 * instead of one. A single stream is limited by how many lines one prefetch stream keeps in
 * flight and stops at every 4 KiB page; eight streams have eight pages (and their translations)
 * in progress. Measured on this project's machine (`make bench`, 1 GB working set, one thread),
 * eight parts moved 1.3-1.5x the bytes of one for load, copy and non-temporal copy, 1.2x for
 * store and triad. Every byte of every array is still read or written exactly once per pass.
 *
 * Needed from the includer: ISA (name suffix), TARGET (function attribute or empty), VEC (double
 * vector), IVEC (integer vector), VBYTES, V_LOAD(p), V_STORE(p, v), V_STREAM(p, v), V_SET1(s),
 * V_ADD(x, y), V_MUL(x, y), I_LOAD(p), I_XOR(x, y), I_ZERO, I_FOLD(x) (XOR of its 64-bit lanes).
 */
#define KX_CAT2(a, b, c) kernel_##a##_##b
#define KX_CAT(a, b) KX_CAT2(a, b, )
#define KFN(kind) KX_CAT(kind, ISA)
#define KX_UNROLL _Pragma("GCC unroll 8")
#define KX_LINE_VECS (64 / VBYTES)

TARGET uint64_t KFN(load)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)a, (void)c, (void)s;
	const uint64_t h = bytes / KERNEL_X86_PARTS;
	const char *p = b;
	IVEC x[KERNEL_X86_PARTS];
	KX_UNROLL for (int k = 0; k < KERNEL_X86_PARTS; k++)
		x[k] = I_ZERO;
	for (uint64_t o = 0; o < h; o += 64) {
		KX_UNROLL for (int k = 0; k < KERNEL_X86_PARTS; k++)
			KX_UNROLL for (int v = 0; v < KX_LINE_VECS; v++)
				x[k] = I_XOR(x[k], I_LOAD(p + k * h + o + v * VBYTES));
	}
	KX_UNROLL for (int k = 1; k < KERNEL_X86_PARTS; k++)
		x[0] = I_XOR(x[0], x[k]);
	return I_FOLD(x[0]);
}

#define KX_STORE_BODY(PUT, NPARTS)                                                  \
	const uint64_t h = bytes / (NPARTS);                                        \
	char *p = a;                                                                \
	const VEC val = V_SET1(s);                                                  \
	for (uint64_t o = 0; o < h; o += 64) {                                      \
		KX_UNROLL for (int k = 0; k < (NPARTS); k++)                        \
			KX_UNROLL for (int v = 0; v < KX_LINE_VECS; v++)            \
				PUT(p + k * h + o + v * VBYTES, val);               \
	}

TARGET uint64_t KFN(store)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)b, (void)c;
	KX_STORE_BODY(V_STORE, KERNEL_X86_PARTS)
	return 0;
}

/* Non-temporal stores are weakly ordered and write-combined: SFENCE makes them globally
 * visible before the kernel returns (SDM Vol. 1 10.4.6.2, Vol. 2B MOVNTPD). A store-only
 * stream without reads is bound by the write path, not by prefetch depth: two parts measured
 * a little above one and above eight, so this kernel uses KERNEL_X86_NTSTORE_PARTS. */
TARGET uint64_t KFN(ntstore)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)b, (void)c;
	KX_STORE_BODY(V_STREAM, KERNEL_X86_NTSTORE_PARTS)
	_mm_sfence();
	return 0;
}

#define KX_COPY_BODY(PUT)                                                           \
	const uint64_t h = bytes / KERNEL_X86_PARTS;                                \
	char *d = a;                                                                \
	const char *p = b;                                                          \
	for (uint64_t o = 0; o < h; o += 64) {                                      \
		KX_UNROLL for (int k = 0; k < KERNEL_X86_PARTS; k++) {              \
			VEC v[KX_LINE_VECS];                                        \
			KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++)            \
				v[i] = V_LOAD(p + k * h + o + i * VBYTES);          \
			KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++)            \
				PUT(d + k * h + o + i * VBYTES, v[i]);              \
		}                                                                   \
	}

TARGET uint64_t KFN(copy)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)c, (void)s;
	KX_COPY_BODY(V_STORE)
	return 0;
}

TARGET uint64_t KFN(ntcopy)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	(void)c, (void)s;
	KX_COPY_BODY(V_STREAM)
	_mm_sfence();
	return 0;
}

/* STREAM triad a = b + s*c as a multiply then an add (no FMA), like STREAM's C and likwid's
 * stream_avx. */
TARGET uint64_t KFN(triad)(void *a, const void *b, const void *c, uint64_t bytes, double s)
{
	const uint64_t h = bytes / KERNEL_X86_PARTS;
	char *d = a;
	const char *x = b, *y = c;
	const VEC vs = V_SET1(s);
	for (uint64_t o = 0; o < h; o += 64) {
		KX_UNROLL for (int k = 0; k < KERNEL_X86_PARTS; k++)
			KX_UNROLL for (int i = 0; i < KX_LINE_VECS; i++) {
				const uint64_t at = k * h + o + i * VBYTES;
				V_STORE(d + at, V_ADD(V_LOAD(x + at), V_MUL(vs, V_LOAD(y + at))));
			}
	}
	return 0;
}

#undef KX_CAT2
#undef KX_CAT
#undef KFN
#undef KX_UNROLL
#undef KX_LINE_VECS
#undef KX_STORE_BODY
#undef KX_COPY_BODY
