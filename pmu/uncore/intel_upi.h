/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel socket-link units: the UPI link layer and the mesh-to-memory unit (M2M on SKX..EMR,
 * B2CMI on GNR/SRF/CWF), as data.
 *
 * Event selects (Linux arch/x86/events/intel/uncore_snbep.c format attributes): event config:0-7,
 * umask config:8-15, edge 18, en 22, inv 23, thresh8 24-31, and perfmon's UMaskExt from config
 * bit 32: SKX UPI umask_ext "config:8-15,32-43,45-55" (SKX_UPI_CTL_UMASK_EXT 0xffefff: 12 bits
 * before the hole at 44 are what perfmon uses), ICX UPI umask_ext4 "config:8-15,32-55"
 * (ICX_UPI_CTL_UMASK_EXT 0xffffff), SPR and later SPR_RAW_EVENT_MASK_EXT 0xffffff, ICX M2M
 * umask_ext3 "config:8-15,32-39"; SKX M2M has no extension.
 *
 * UPI link-layer PMON boxes:
 *   SKX/CLX  PCI config space, 8086:2058 at device 14, 15, 16 function 0 of the socket's bus
 *            (links 0-2); BOX_CTL 0x378, CTL0 0x350, CTR0 0x318, CTL and CTR steps 8 (Linux
 *            SKX_UPI_PCI_PMON_*, UNCORE_BOX_FLAG_CTL_OFFS8, skx_uncore_pci_ids "UPI0 Link 0".."UPI1
 *            Link 2"), 4 counters of 48 bits read as two dwords.
 *   ICX      PCI config space, 8086:3441 at device 2, 3, 4 function 1; BOX_CTL 0x318, CTL0 0x350,
 *            CTR0 0x320 (Linux ICX_UPI_PCI_PMON_*, icx_uncore_pci_ids "UPI Link 0".."2").
 *   SPR+     the units of box type 8 of each socket's uncore discovery table (Linux
 *            uncore_snbep.c UNCORE_SPR_UPI 8), PCI config, generic unit control.
 *
 * Bandwidth: Intel's perfmon metrics upi_data_transmit_bw / upi_data_receive_bw
 * (SKX/metrics/perf/skylakex_metrics_perf.json, SPR/metrics/perf/sapphirerapids_metrics_perf.json):
 * UNC_UPI_TxL_FLITS.ALL_DATA (event 0x02 umask 0x0F) resp. RxL_FLITS.ALL_DATA (0x03, 0x0F)
 * x 64/9 bytes, in the metric's own expression "* (64 / 9.0)".
 */
#ifndef EFIPERF_UNCORE_INTEL_UPI_H
#define EFIPERF_UNCORE_INTEL_UPI_H

#include <stddef.h>
#include <stdint.h>
#include "pmu/uncore/box.h"
#include "pmu/events/gen_events.h"
#include "pmu/uncore/uncore.h"
#include "pmu/uncore/intel_uncore.h"

#define UPI_EV_TXL_FLITS 0x02
#define UPI_EV_RXL_FLITS 0x03
#define UPI_UMASK_ALL_DATA 0x0F
#define UPI_BYTES_PER_FLIT_NUM 64    /* bytes = flits * 64 / 9 (perfmon metric above) */
#define UPI_BYTES_PER_FLIT_DEN 9

/* One link's PCI function on a socket's bus. */
struct upi_link_pci { uint16_t device; uint8_t dev, func; };

/* Per platform (catalogue platform name): the UPI box type, its PCI functions (SKX/ICX) or its
 * discovery box type (SPR+), and how many UMaskExt bits the UPI and M2M/B2CMI selects take. */
struct upi_platform {
	const char *name;                        /* "SKX": gen_intel_platforms[].name */
	const struct uncore_box_type *type;
	const struct upi_link_pci *links;        /* NULL: discovery */
	uint8_t nlinks;
	uint16_t disc_box_type;                  /* 0: PCI table */
	uint8_t upi_ext_bits, m2m_ext_bits;
};
extern const struct upi_platform upi_platforms[];
extern const unsigned upi_nplatforms;
const struct upi_platform *upi_platform_by_name(const char *name);

/* The event select (enable bit 22 set) of catalogue row r of unit "upi", "m2m" or "b2cmi" on
 * platform p: 0, or -1 with why when the row needs a field this box has no bits for
 * (PortMask, FCMask, FILTER_VALUE, or a UMaskExt wider than the platform's). */
int upi_encode(const struct upi_platform *p, const char *unit, const struct gen_row *r, uint64_t *ctl,
	       char *why, size_t n);

/* Bytes of `flits` ALL_DATA flit counts (64/9 bytes each, rounded down), and the rate in
 * thousandths of a GB/s (1e9 bytes/s; bytes per ns x 1000) over ns nanoseconds (0 when ns is 0). */
uint64_t upi_flits_bytes(uint64_t flits);
uint64_t upi_milli_gbps(uint64_t flits, uint64_t ns);


/* ---- UPI link layer on the uncore box sequence (pmu/uncore/uncore.h) ---- */
#define UPI_MAX_LINKS 24             /* sockets x links */

/* SKX/ICX: the UPI link functions of platform p among the scanned functions (Device ID and
 * device.function of p->links); socket = rank of the function's bus among the buses that have
 * one, link = its position in p->links. Up to max into u, *n of them. 0, or -1 with why
 * (none found; SPR and later: the discovery table's box type, not scanned here). */
int upi_find_links(const struct upi_platform *p, const struct intel_pci_fn *fns, uint32_t nfns,
		   struct intel_unit *u, uint32_t max, uint32_t *n, char *why, size_t wn);

/* The request that counts every link's UNC_UPI_TxL_FLITS.ALL_DATA (ev[0]) and
 * RxL_FLITS.ALL_DATA (ev[1]) on p's box type, one package per link (cpu[socket] does its
 * register work). 0, or -1 with why. */
int upi_request(const struct upi_platform *p, const struct intel_unit *links, uint32_t nlinks, const uint32_t *cpu,
		struct unc_request *req, char *why, size_t n);

/* Package k's transmit / receive data bytes and rates (thousandths of GB/s) of a finished
 * unc_measure of upi_request's request. */
struct upi_link_bw { uint64_t tx_bytes, rx_bytes, tx_gbps_milli, rx_gbps_milli; };
void upi_link_bw(const struct unc_result *res, uint32_t k, struct upi_link_bw *bw);

#endif
