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
#include "efi/measure/nvme_run.h"

/* The run plan's NVMe step, before the first window: parses nvme, nvme_rw, nvme_bs,
 * nvme_iodepth, nvme_size and nvme_write_lba once into q, resolves the controllers (`all`: every
 * NVMe function but the boot disk's) and checks every limit the settings must respect that a
 * controller shows without being taken (CAP.MQES from BAR0, the LBA size and last block from
 * the firmware's Block IO; the boot disk refused by name). Each bad value is a config error
 * naming its line. Returns the number of errors reported (0: q is the run's request). */
int nvme_plan(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, void *image,
	      struct nvme_request *q);

/* Run the request nvme_plan built (nothing when `nvme` is none) and write its records
 * (efi/out/nvme_out.h). Returns 0, or -1 after reporting errors; every controller taken has
 * been given back when it returns. image: efiperf's EFI_HANDLE (the driver-model agent). */
struct dma_plan;
int measure_nvme(const struct hw *hw, const struct platform *p, const struct dma_plan *dp, const struct nvme_request *q,
		 void *image);

#endif
