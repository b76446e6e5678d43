/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The real hardware backend: the arch's CPU-register ops (arch_cpu_ops) plus PCI config space
 * through EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (UEFI 2.x section 14.2; ECAM comes with MCFG
 * discovery) and run-on-CPU through MP services.
 */
#ifndef EFIPERF_HW_EFI_H
#define EFIPERF_HW_EFI_H

#include "arch/hw.h"

/* Build the backend. Call after InitializeLib and mp_init. */
struct hw hw_efi(void);

#endif
