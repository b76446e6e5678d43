/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A PCIe device's DMA as the IIO counts it (Intel SKX/CLX, ICX, SPR, EMR, GNR): the device is
 * placed on its IIO stack and part (root port) through the stack map (pmu/uncore/intel_uncore.h
 * iio_map), the stack's box is found among the IIO units the IIO pass programs (struct
 * iio_units: at the box type's fixed MSRs on SKX/ICX, at the discovery table's MSR and with its
 * geometry on SPR and later),
 * the two per-part events of that stack are counted over its DMA window, and their bytes are
 * the device's self_check (pmu/self_check.h):
 *   read  = UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PARTp  x 4 bytes  (the card reads memory)
 *   write = UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PARTp x 4 bytes  (the card writes memory)
 * (Intel perfmon skylakex_uncore v1.37: "Counts every read/write request for 4 bytes of data
 * made by IIO PartN to a unit on the main die (generally memory)"; icelakex_uncore v1.30:
 * "Card reading from / writing to DRAM : Number of DWs (4 bytes) the card requests of the main
 * die"; PCM src/pcm-iio.cpp multiplies the same counts by 4.) The other parts of the stack carry other devices' traffic:
 * only the device's own part is compared. Pure: host-tested on the IIO register model.
 */
#ifndef EFIPERF_IIO_ATTRIB_H
#define EFIPERF_IIO_ATTRIB_H

#include "pmu/self_check.h"
#include "pmu/uncore/intel_uncore.h"

struct iio_place {
	uint8_t placed;
	uint32_t socket;
	uint8_t stack, part;
	struct hw_pci_addr dev;         /* the device placed (or not) */
	struct hw_pci_addr port;        /* the part's root port */
	char why[200];                  /* when not placed: names the BDF and what was missing */
};

/* Where dev sits among nsock socket maps: the stack whose bus range holds dev's bus and the part
 * whose root port's secondary..subordinate buses hold it. Not placed (why names the BDF): no
 * valid map, no stack with that bus, a map with defects on that stack, or a device on a stack's
 * root bus itself (no root port: integrated, not behind a part). */
void iio_place_device(const struct iio_map *maps, uint32_t nsock, struct hw_pci_addr dev, struct iio_place *out);

/* The IIO units of the platform and their box type, as the IIO pass programs them: SKX/ICX
 * every (socket, stack) with an empty site and the platform's type (fixed MSRs); SPR and later
 * the discovery table's units (site.msr_base = the unit control MSR) and the type
 * intel_disc_units gives (the table's counter count, width and CTL0 / CTR0 offsets). */
struct iio_units {
	struct uncore_box_type type;
	struct intel_unit unit[UNC_MAX_PKGS];
	uint32_t n;
};

/* The request for the device's part: DATA_REQ_OF_CPU.MEM_READ.PARTp and .MEM_WRITE.PARTp on
 * the stack's unit of u alone (its site and u->type), from cpu (a CPU of the socket). 0, or -1
 * with why: the device not placed (the place's why), or its stack not among u's units (why
 * names the BDF, the stack and the socket). */
int iio_device_request(const struct intel_uncore_platform *p, const struct iio_units *u, const struct iio_place *pl,
		       uint32_t cpu, struct unc_request *req, char *why, size_t n);

/* The device's self_check from a finished request (res->status 0): the part's read/write bytes
 * against expected; a failed measurement is absent with its why. */
void iio_device_self_check(const struct unc_request *req, const struct unc_result *res, const struct iio_place *pl,
			   const struct self_check_bytes *expected, struct self_check *sc);

#endif
