/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi_synth: one synthetic platform for the ACPI tests: RSDP v2 -> XSDT -> FACP, APIC, MCFG,
 * SRAT, HPET, SLIT, APMT and an unknown "WAET", each at its own page of an image at SYN_BASE.
 * Field values are chosen so that each one is distinguishable (tests check every one).
 * Header-only, host only.
 */
#ifndef EFIPERF_TESTS_ACPI_SYNTH_H
#define EFIPERF_TESTS_ACPI_SYNTH_H

#include "tests/unit/acpi_build.h"

#define SYN_BASE    0x7f000000ull
#define SYN_SIZE    0x40000ull
#define SYN_RSDP    (SYN_BASE + 0x0)
#define SYN_XSDT    (SYN_BASE + 0x100)
#define SYN_FACP    (SYN_BASE + 0x1000)
#define SYN_APIC    (SYN_BASE + 0x2000)
#define SYN_MCFG    (SYN_BASE + 0x3000)
#define SYN_SRAT    (SYN_BASE + 0x4000)
#define SYN_HPET    (SYN_BASE + 0x5000)
#define SYN_SLIT    (SYN_BASE + 0x6000)
#define SYN_APMT    (SYN_BASE + 0x7000)
#define SYN_WAET    (SYN_BASE + 0x8000)
#define SYN_SPARE   (SYN_BASE + 0x9000)   /* free pages from here for extra tables */
#define SYN_NTABLES 8

static inline void syn_xsdt(struct img *im, const uint64_t *addr, unsigned n)
{
	acpi_root(img_at(im, SYN_XSDT), 1, addr, n);
}

static inline void syn_std_xsdt(struct img *im)
{
	static const uint64_t t[SYN_NTABLES] = { SYN_FACP, SYN_APIC, SYN_MCFG, SYN_SRAT,
						 SYN_HPET, SYN_SLIT, SYN_APMT, SYN_WAET };
	syn_xsdt(im, t, SYN_NTABLES);
}

/* ACPI 6.5 FADT, 276 bytes, revision 6.5. */
static inline void syn_facp(uint8_t *t)
{
	acpi_hdr(t, "FACP", 276, 6);
	put32(t + 76, 0x608);                       /* PM_TMR_BLK */
	t[91] = 4;                                  /* PM_TMR_LEN */
	put32(t + 112, (1u << 8) | (1u << 20) | 1); /* TMR_VAL_EXT, HW_REDUCED_ACPI, WBINVD */
	t[131] = 5;                                 /* FADT minor version */
	t[208] = 1; t[209] = 32; t[210] = 0; t[211] = 3;   /* X_PM_TMR_BLK: I/O, 32 bits, dword */
	put64(t + 212, 0x1808);
	acpi_fix(t);
}

static inline unsigned madt_lapic(uint8_t *e, uint8_t uid, uint8_t id, uint32_t flags)
{
	e[0] = 0; e[1] = 8; e[2] = uid; e[3] = id; put32(e + 4, flags);
	return 8;
}

static inline unsigned madt_x2apic(uint8_t *e, uint32_t id, uint32_t flags, uint32_t uid)
{
	e[0] = 9; e[1] = 16; put32(e + 4, id); put32(e + 8, flags); put32(e + 12, uid);
	return 16;
}

static inline unsigned madt_gicc(uint8_t *e, uint32_t uid, uint32_t flags, uint64_t mpidr)
{
	e[0] = 0xB; e[1] = 82; put32(e + 8, uid); put32(e + 12, flags); put64(e + 68, mpidr);
	return 82;
}

/* Returns the length so tests can append entries before fixing the header. */
static inline uint32_t syn_apic_body(uint8_t *t)
{
	put32(t + 36, 0xFEE00000);
	put32(t + 40, 1);                           /* PCAT_COMPAT */
	unsigned o = 44;
	o += madt_lapic(t + o, 0, 0, 1);            /* enabled */
	o += madt_lapic(t + o, 1, 2, 1);            /* enabled */
	o += madt_lapic(t + o, 2, 4, 2);            /* online capable */
	o += madt_lapic(t + o, 3, 6, 0);            /* disabled */
	t[o] = 1; t[o + 1] = 12; put32(t + o + 4, 0xFEC00000); o += 12;   /* I/O APIC: other */
	o += madt_x2apic(t + o, 0x100, 1, 4);       /* enabled */
	o += madt_x2apic(t + o, 0x101, 0, 5);       /* disabled */
	o += madt_gicc(t + o, 7, 1, 0x81000100);    /* enabled */
	o += madt_gicc(t + o, 8, 8, 0x81000200);    /* online capable (bit 3) */
	t[o] = 4; t[o + 1] = 6; o += 6;             /* Local APIC NMI: other */
	return o;
}

static inline void syn_apic(uint8_t *t)
{
	uint32_t len = syn_apic_body(t);
	acpi_hdr(t, "APIC", len, 6);
	acpi_fix(t);
}

static inline void mcfg_alloc(uint8_t *e, uint64_t base, uint16_t seg, uint8_t s, uint8_t end)
{
	put64(e, base); put16(e + 8, seg); e[10] = s; e[11] = end;
}

static inline void syn_mcfg(uint8_t *t)
{
	acpi_hdr(t, "MCFG", 44 + 3 * 16, 1);
	mcfg_alloc(t + 44, 0xE0000000, 0, 0, 0xFF);
	mcfg_alloc(t + 60, 0x3F000000000ull, 1, 0x10, 0x1F);
	mcfg_alloc(t + 76, 0x3F100000000ull, 2, 0x20, 0x10);   /* end < start: rejected */
	acpi_fix(t);
}

static inline void syn_srat(uint8_t *t)
{
	unsigned o = 48;
	put32(t + 36, 1);
	/* type 0: domain 0x201 (low byte @2, high bytes @9..11), APIC ID 2, enabled */
	t[o] = 0; t[o + 1] = 16; t[o + 2] = 0x01; t[o + 3] = 2; put32(t + o + 4, 1); t[o + 9] = 0x02;
	o += 16;
	t[o] = 0; t[o + 1] = 16; t[o + 3] = 9; o += 16;                      /* disabled */
	t[o] = 1; t[o + 1] = 40; put32(t + o + 2, 0); put64(t + o + 8, 0);   /* memory */
	put64(t + o + 16, 0xA0000); put32(t + o + 28, 1); o += 40;
	t[o] = 1; t[o + 1] = 40; put32(t + o + 2, 1); put64(t + o + 8, 0x100000000ull);
	put64(t + o + 16, 0x40000000); put32(t + o + 28, 3); o += 40;        /* hot-pluggable */
	t[o] = 1; t[o + 1] = 40; put32(t + o + 2, 2); o += 40;               /* disabled */
	t[o] = 2; t[o + 1] = 24; put32(t + o + 4, 3); put32(t + o + 8, 0x100);
	put32(t + o + 12, 1); o += 24;                                       /* x2APIC */
	t[o] = 3; t[o + 1] = 18; put32(t + o + 2, 5); put32(t + o + 6, 7);
	put32(t + o + 10, 1); o += 18;                                       /* GICC */
	t[o] = 5; t[o + 1] = 32; o += 32;                                    /* other */
	acpi_hdr(t, "SRAT", o, 3);
	acpi_fix(t);
}

static inline void syn_hpet(uint8_t *t)
{
	acpi_hdr(t, "HPET", 56, 1);
	put32(t + 36, 0x8086A201);                  /* QEMU's: 3 comparators, 64-bit, Intel */
	t[40] = 0; t[41] = 64; put64(t + 44, 0xFED00000);
	t[52] = 0;
	put16(t + 53, 0x80);
	acpi_fix(t);
}

static inline void syn_slit(uint8_t *t)
{
	static const uint8_t d[9] = { 10, 21, 31, 21, 10, 21, 31, 21, 10 };
	acpi_hdr(t, "SLIT", 44 + 9, 1);
	put64(t + 36, 3);
	memcpy(t + 44, d, 9);
	acpi_fix(t);
}

static inline void apmt_node(uint8_t *e, uint8_t flags, uint8_t type, uint32_t id,
			     uint64_t base0, uint64_t base1, uint32_t gsiv, uint32_t aff, uint32_t impl)
{
	put16(e, 56); e[2] = flags; e[3] = type; put32(e + 4, id);
	put64(e + 0x14, base0); put64(e + 0x1C, base1); put32(e + 0x24, gsiv);
	put32(e + 0x30, aff); put32(e + 0x34, impl);
}

static inline void syn_apmt(uint8_t *t)
{
	acpi_hdr(t, "APMT", 36 + 3 * 56, 0);
	apmt_node(t + 36, 0x2, 3, 0, 0x11000000000ull, 0, 0x100, 0x10000000, 0);
	memcpy(t + 36 + 8, "NVDA2021", 8);          /* ACPI device: _HID as instance primary */
	put32(t + 36 + 0x10, 5);                    /* _UID */
	apmt_node(t + 92, 0x5, 4, 1, 0x12000000, 0x12010000, 200, 3, 0x2010043B);
	put32(t + 92 + 0x2C, 1);                    /* edge-triggered overflow interrupt */
	apmt_node(t + 148, 0, 0xFF, 2, 0x13000000, 0, 0, 0, 0);   /* reserved type: listed */
	acpi_fix(t);
}

static inline void syn_waet(uint8_t *t)
{
	acpi_hdr(t, "WAET", 40, 1);
	put32(t + 36, 2);
	acpi_fix(t);
}

static inline void syn_platform(struct img *im)
{
	img_init(im, SYN_BASE, SYN_SIZE);
	acpi_rsdp(img_at(im, SYN_RSDP), 2, 0, SYN_XSDT);
	syn_std_xsdt(im);
	syn_facp(img_at(im, SYN_FACP));
	syn_apic(img_at(im, SYN_APIC));
	syn_mcfg(img_at(im, SYN_MCFG));
	syn_srat(img_at(im, SYN_SRAT));
	syn_hpet(img_at(im, SYN_HPET));
	syn_slit(img_at(im, SYN_SLIT));
	syn_apmt(img_at(im, SYN_APMT));
	syn_waet(img_at(im, SYN_WAET));
}

#endif
