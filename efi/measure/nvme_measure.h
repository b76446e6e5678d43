/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efiperf's own NVMe traffic. For each controller named by `nvme`, efiperf takes the
 * controller the way the UEFI driver model allows (UEFI 2.10 section 7.3
 * DisconnectController / OpenProtocol BY_DRIVER / ConnectController): the firmware's driver
 * stops, efiperf becomes the driver of the controller's EFI_PCI_IO_PROTOCOL (section 14.4),
 * runs its own admin and I/O queues (efi/nvme/) from PciIo common buffers, and gives the
 * controller back on every path (queues deleted, CC.EN = 0, ConnectController), then checks
 * that a Block IO read of the disk works again. Each (bs, iodepth) point runs inside a window
 * with interrupts masked (efi/measure/window.h): no firmware call between the first doorbell
 * and the last completion. The boot disk's controller is refused by name. Where the
 * controller cannot be taken (DisconnectController fails, Create I/O SQ refused...) the point
 * runs through the firmware's synchronous Block IO instead (path "blockio", one command at a
 * time, interrupts on) and the record says so.
 */
#ifndef EFIPERF_NVME_MEASURE_H
#define EFIPERF_NVME_MEASURE_H

#include "efi/config/config.h"
#include "efi/platform.h"
#include "efi/nvme/nvme_point.h"
#include "efi/out/jsonl.h"

/* One point of one controller, as its `nvme` record carries it. */
struct nvme_point_result {
	char bdf[16];                 /* "0000:01:00.0" */
	const char *path;             /* "own-queues" or "blockio" */
	const char *window;           /* "alone", or "shared" with the other controllers */
	uint32_t controllers;         /* controllers in that window */
	uint32_t bs, iodepth;         /* bytes per command, commands in flight asked for */
	uint64_t bytes;               /* data bytes moved by commands that completed with status 0 */
	uint64_t ns;                  /* first doorbell (or ReadBlocks call) to last completion */
	uint64_t bw_bytes, iops;      /* per second, over ns */
	uint64_t clat_p50_ns, clat_p99_ns, clat_max_ns;   /* per command, doorbell to completion seen */
	int interrupts_masked;        /* the whole point ran with interrupts masked */
	int verified;                 /* 1, 0 (data differs), -1 (the disk does not carry the pattern) */
	struct nvme_dma dma;          /* what the device moved (own queues; blockio: data only) */
	uint64_t commands, failed;
};

/* The run plan's NVMe part, before the first window: which controllers, and every limit the
 * settings must respect that the controller shows without being taken (CAP.MQES from BAR0, the
 * LBA size and last block from the firmware's Block IO; the boot disk refused by name). Each
 * bad value is a config error naming its line. Returns the number of errors reported. */
int nvme_plan_check(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image);

/* Run the NVMe measurement (nothing when `nvme` is none). Returns 0, or -1 after reporting
 * errors; every controller taken has been given back when it returns. image: efiperf's
 * EFI_HANDLE (the driver-model agent, and the boot volume to refuse). */
int measure_nvme(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image);


#endif
