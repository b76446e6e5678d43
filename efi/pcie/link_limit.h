/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The link limit beside a DMA result: the path from a device up to its Root Port (through
 * switches), every link on it with its negotiated speed and width, the slowest link (the
 * bottleneck), its raw rate per direction, the rate left for data after TLP overhead at the
 * path's Max_Payload_Size (writes by the device) or completions of its Max_Read_Request_Size
 * (reads by the device), and the measured rate as a fraction of that limit.
 *
 * Overhead model (per TLP, in the direction that carries the data):
 *   framing + Data Link Layer = 8 bytes on every TLP:
 *     2.5 and 5.0 GT/s (8b/10b): STP and END symbols (1 + 1), Sequence Number (2), LCRC (4)
 *       (PCIe Base 4.0 4.2.1.2 "Framing and Application of Symbols to Lanes"; 3.6.2
 *       "LCRC, Sequence Number, and Retry Management (TLP Transmitter)")
 *     8.0 to 32.0 GT/s (128b/130b): the 4-byte STP Token, which carries the 12-bit Sequence
 *       Number, and LCRC (4); no END (PCIe Base 4.0 4.2.2.3 "Framing Tokens")
 *   header: Memory Write 3 DW (12 bytes) for a 32-bit address, 4 DW (16) above 4 GiB (PCIe Base
 *     4.0 2.2.4.1 "Address-Based Routing Rules": an address below 4 GiB must use the 32-bit
 *     format); Completion with Data 3 DW (12) (2.2.9 "Completion Rules"). No ECRC (the optional
 *     TLP Digest, 2.2.3) and no TLP Prefix.
 *   payload: writes carry Max_Payload_Size bytes, the smallest MPS on the path (2.2.2 "TLPs with
 *     Data Payloads - Rules": no TLP larger than the MPS of its Transmitter or Receiver);
 *     reads return completions of min(MPS, MRRS) bytes (2.3.1.1 "Data Return for Read Requests": a Completer may split a read
 *     at the Read Completion Boundary; the largest completions are taken, so the limit is an
 *     upper bound).
 *   line encoding: in the raw rate (8b/10b below 8 GT/s, 128b/130b from 8 to 32 GT/s: 4.2.1,
 *     4.2.2). SKP Ordered Sets (4.2.7 "Clock Tolerance Compensation") are not subtracted (well under 1 %); Ack/Nak and
 *     UpdateFC DLLPs for the data TLPs travel in the other direction (Intel AN 855 1.1.1
 *     "Protocol Overhead"), as do the Memory Read requests of a device read.
 *   64.0 GT/s (Flit Mode, PCIe 6.0) is not modelled: effective limit unknown there.
 * This is the model of Intel AN 855 1.1.1 (six dwords of overhead with a 4 DW header).
 *
 * Pure C over the hardware interface (pcie_probe_func and config reads): host-tested on
 * tests/model/pci_model.c.
 */
#ifndef EFIPERF_LINK_LIMIT_H
#define EFIPERF_LINK_LIMIT_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "efi/pcie/pcie.h"

#define LINK_MAX_PATH 8        /* functions from the Root Port down to the device */
#define LINK_TLP_LINK_BYTES 8u /* framing + Sequence Number + LCRC per TLP (both encodings) */
#define LINK_HDR_3DW 12u
#define LINK_HDR_4DW 16u

/* One function on the path. */
struct link_hop {
	struct hw_pci_addr addr;
	uint8_t exp;                 /* has a PCI Express capability */
	uint8_t port_type;           /* Device/Port Type (PCIe 4.0 7.5.3.2) */
	uint8_t up;                  /* LnkSta: trained */
	uint32_t mgts;               /* negotiated speed, milli-GT/s */
	uint8_t width;               /* negotiated width */
	uint16_t mps, mrrs;          /* bytes (DevCtl) */
};

/* One link: a downstream-facing port and the function below it. The negotiated rate is the
 * smaller of what the two ends' LnkSta say (real ends agree; emulated ones may not). */
struct link_seg {
	uint8_t port, dev;           /* indices in path */
	uint32_t mgts;
	uint8_t width;
	uint64_t raw_mgbps;          /* per direction, milli-GB/s (pcie_link_mgbps) */
	uint8_t ends_disagree;
};

enum link_dir { LINK_DIR_NONE, LINK_DIR_READ, LINK_DIR_WRITE };  /* the device reads / writes memory */

struct link_limit {
	int status;                  /* 0 computed, -1 absent (why) */
	char why[160];
	uint32_t npath;
	struct link_hop path[LINK_MAX_PATH];   /* path[0] the Root Port ... path[npath-1] the device */
	uint32_t nlinks;
	struct link_seg links[LINK_MAX_PATH];
	uint32_t bottleneck;         /* index in links: the slowest; of equal ones the nearest the device */
	uint64_t raw_mgbps;          /* the bottleneck's raw rate per direction, milli-GB/s */
	uint16_t mps, mrrs;          /* the path's smallest MPS; the device's MRRS (bytes) */
	uint32_t write_hdr;          /* 12 or 16 (address below / above 4 GiB) */
	uint8_t have_effective;      /* 0 at 64 GT/s (Flit Mode, not modelled) */
	uint64_t eff_read_mgbps, eff_write_mgbps;   /* milli-GB/s */
	/* link_limit_rate(): */
	uint8_t dir;                 /* enum link_dir: the direction that bounds the window */
	uint64_t effective_mgbps;    /* that direction's limit */
	uint64_t fraction_milli;     /* measured / effective x 1000 */
	uint8_t have_fraction, impossible;
};

/* Effective data rate in milli-GB/s of a link of `mgts` milli-GT/s x width carrying TLPs of
 * `payload` bytes with a `hdr`-byte header: raw x payload / (payload + hdr + 8). 0 when the
 * speed is 64 GT/s or more (Flit Mode) or unknown. */
uint64_t link_effective_mgbps(uint32_t mgts, unsigned width, unsigned payload, unsigned hdr);

/* From a list of hops (path[0] Root Port .. path[n-1] device, already read): the links, the
 * bottleneck, the raw and effective limits. addr64: the DMA buffer lies above 4 GiB (4 DW
 * Memory Write headers). Returns 0, or -1 with why (no link on the path). */
int link_limit_compute(struct link_limit *ll, int addr64);

/* Walk from dev up to its Root Port over config space (the parent of bus b is the Type 1
 * function on a lower bus of the same segment whose Secondary Bus is b; ranges: the buses to
 * search, one per MCFG allocation), then link_limit_compute. Returns 0, or -1 with why (no
 * function at dev, a device on a root bus (no link), a path longer than LINK_MAX_PATH, no
 * parent found). */
int link_limit_for(const struct hw *h, const struct pcie_bus_range *ranges, int nranges, struct hw_pci_addr dev,
		   int addr64, struct link_limit *ll);

/* The fraction of the limit that `read_bytes` (device reads memory) and `write_bytes` (device
 * writes memory) moved in `ns` reached: the least time the link needs, max(read / effective
 * read, write / effective write), over ns. Above 1000 milli: impossible on real hardware
 * (an emulated link or a counting error). Nothing when the limit is absent or ns is 0. */
void link_limit_rate(struct link_limit *ll, uint64_t read_bytes, uint64_t write_bytes, uint64_t ns);

#endif
