/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ECAM backend: wraps any struct hw and turns PCI configuration accesses to a bus covered by an
 * MCFG allocation into 32-bit MMIO of the inner backend (PCI Express Base Specification 6.0,
 * section 7.2.2 "PCI Express Enhanced Configuration Access Mechanism (ECAM)", Table 7-1:
 * A[27:20] Bus Number, A[19:15] Device Number, A[14:12] Function Number, A[11:2] register
 * dword, A[1:0] byte enables):
 *
 *     address = base + (bus << 20 | device << 15 | function << 12 | offset)
 *
 * `base` is the MCFG allocation's Base Address, i.e. the ECAM address of bus 0 of the segment
 * even when the allocation starts at a higher bus (PCI Firmware Specification 3.3 Table 4-3;
 * Linux drivers/acpi/pci_mcfg.c opens the window at base + (bus_start << 20), FreeBSD commit
 * 61e2161367bb "x86: Adjust base addr for PCI MCFG regions" does the same), so the absolute bus
 * number is used, never bus - bus_start.
 *
 * Offsets must be dword-aligned and below 4096 (HW_BAD_ARG otherwise); device <= 31 and
 * function <= 7. An address outside every segment goes to the inner backend's pci op (the
 * firmware glue's EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL); every other op is forwarded unchanged.
 * Pure: host-tested against tests/model/pci_model.c.
 */
#ifndef EFIPERF_HW_ECAM_H
#define EFIPERF_HW_ECAM_H

#include "arch/hw.h"

#define HW_ECAM_MAX_SEGMENTS 64

/* One MCFG allocation (ACPI MCFG: Base Address, PCI Segment Group, Start/End Bus Number). */
struct ecam_segment {
	uint64_t base;
	uint16_t segment;
	uint8_t bus_start, bus_end;
};

struct hw_ecam {
	struct hw inner;
	struct ecam_segment seg[HW_ECAM_MAX_SEGMENTS];
	int nsegs;
	int dropped;      /* segments beyond HW_ECAM_MAX_SEGMENTS, not used */
};

/* Copies up to HW_ECAM_MAX_SEGMENTS segments into e; returns the wrapping struct hw. */
struct hw hw_ecam_wrap(struct hw_ecam *e, struct hw inner, const struct ecam_segment *segs, int nsegs);

/* The segment covering a (segment number, bus in [bus_start, bus_end]), or NULL. */
const struct ecam_segment *hw_ecam_find(const struct hw_ecam *e, struct hw_pci_addr a);

/* ECAM address of (a, off) in segment s (no range checks). */
uint64_t hw_ecam_address(const struct ecam_segment *s, struct hw_pci_addr a, uint16_t off);

#endif
