/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The x86_64 image relocates itself: gnu-efi's crt0 (crt0-efi-x86_64.S) calls
 * _relocate(ImageBase, _DYNAMIC, image, systab) before efi_main, and its return value, when
 * not 0, ends the load. This object defines _relocate, so the link takes no member of
 * libgnuefi for it (gnu-efi's own reloc_x86_64.c reads DT_RELA only).
 *
 * The image is linked with `ld -z pack-relative-relocs`: its R_X86_64_RELATIVE relocations (one
 * per pointer in initialised data, about 3,400: 81 KiB as Elf64_Rela entries) are packed into
 * DT_RELR, a few KiB. Both tables are applied here; a relocation of any other type is refused.
 *
 * Facts: System V gABI, "Dynamic Section": DT_NULL 0, DT_RELA 7, DT_RELASZ 8, DT_RELAENT 9,
 * DT_RELRSZ 35, DT_RELR 36, DT_RELRENT 37; DT_RELR's encoding: a word with bit 0 clear is the
 * address of the next location to relocate, a word with bit 0 set is a bitmap of the 63
 * locations after the last one (bit n: the word n locations further). x86-64 psABI, section 4.4
 * "Relocation Types": R_X86_64_NONE 0, R_X86_64_RELATIVE 8 (B + A; the linker stores A in place
 * for these, which is what gnu-efi adds the base to as well). RELR's addends are in place by
 * definition.
 *
 * Runs before the image is relocated: it reads no pointer stored in data and calls nothing.
 */
#include <stdint.h>

#define DT_NULL    0
#define DT_RELA    7
#define DT_RELASZ  8
#define DT_RELAENT 9
#define DT_RELRSZ  35
#define DT_RELR    36
#define R_X86_64_NONE     0
#define R_X86_64_RELATIVE 8
#define RELR_BITS 63                       /* locations one bitmap word covers */
#define EFI_LOAD_ERROR 0x8000000000000001ull /* UEFI 2.10 Appendix D */

struct dyn { int64_t tag; uint64_t val; };
struct rela { uint64_t offset, info; int64_t addend; };

uint64_t _relocate(uint64_t base, const struct dyn *dyn, void *image, void *systab);

static uint64_t apply_rela(uint64_t base, uint64_t rela, uint64_t size, uint64_t ent)
{
	if (!rela || !size)
		return 0;
	if (ent < sizeof(struct rela))
		return EFI_LOAD_ERROR;
	for (uint64_t off = 0; off + ent <= size; off += ent) {
		const struct rela *r = (const struct rela *)(base + rela + off);
		uint32_t type = (uint32_t)r->info;
		if (type == R_X86_64_NONE)
			continue;
		if (type != R_X86_64_RELATIVE)
			return EFI_LOAD_ERROR;
		*(uint64_t *)(base + r->offset) += base;
	}
	return 0;
}

static void apply_relr(uint64_t base, uint64_t relr, uint64_t size)
{
	uint64_t *where = 0;
	for (uint64_t off = 0; relr && off + sizeof(uint64_t) <= size; off += sizeof(uint64_t)) {
		uint64_t w = *(const uint64_t *)(base + relr + off);
		if (!(w & 1)) {
			where = (uint64_t *)(base + w);
			*where++ += base;
			continue;
		}
		for (unsigned i = 0; (w >>= 1) != 0; i++)
			if (w & 1)
				where[i] += base;
		where += RELR_BITS;
	}
}

uint64_t _relocate(uint64_t base, const struct dyn *dyn, void *image, void *systab)
{
	(void)image;
	(void)systab;
	uint64_t rela = 0, relasz = 0, relaent = 0, relr = 0, relrsz = 0;
	for (; dyn->tag != DT_NULL; dyn++) {
		switch (dyn->tag) {
		case DT_RELA: rela = dyn->val; break;
		case DT_RELASZ: relasz = dyn->val; break;
		case DT_RELAENT: relaent = dyn->val; break;
		case DT_RELR: relr = dyn->val; break;
		case DT_RELRSZ: relrsz = dyn->val; break;
		default: break;
		}
	}
	uint64_t st = apply_rela(base, rela, relasz, relaent);
	if (st)
		return st;
	apply_relr(base, relr, relrsz);
	return 0;
}
