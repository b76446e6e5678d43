/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * UEFI Platform Initialization (PI) protocols gnu-efi 3.0.15 does not define. Layouts and
 * GUIDs from the PI Specification 1.7, Vol. 2: EFI_CPU_ARCH_PROTOCOL (section 12.3) and
 * EFI_MP_SERVICES_PROTOCOL (section 13.4). Firmware-facing: every member is EFIAPI.
 */
#ifndef EFIPERF_PI_PROTOCOLS_H
#define EFIPERF_PI_PROTOCOLS_H

#include <efi.h>

#define EFI_CPU_ARCH_PROTOCOL_GUID \
	{ 0x26baccb1, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

struct _EFI_CPU_ARCH_PROTOCOL;
typedef VOID(EFIAPI *EFI_CPU_INTERRUPT_HANDLER)(EFI_EXCEPTION_TYPE InterruptType,
						EFI_SYSTEM_CONTEXT SystemContext);
typedef struct _EFI_CPU_ARCH_PROTOCOL {
	EFI_STATUS(EFIAPI *FlushDataCache)(struct _EFI_CPU_ARCH_PROTOCOL *, EFI_PHYSICAL_ADDRESS, UINT64, UINTN);
	EFI_STATUS(EFIAPI *EnableInterrupt)(struct _EFI_CPU_ARCH_PROTOCOL *);
	EFI_STATUS(EFIAPI *DisableInterrupt)(struct _EFI_CPU_ARCH_PROTOCOL *);
	EFI_STATUS(EFIAPI *GetInterruptState)(struct _EFI_CPU_ARCH_PROTOCOL *, BOOLEAN *);
	EFI_STATUS(EFIAPI *Init)(struct _EFI_CPU_ARCH_PROTOCOL *, UINTN);
	EFI_STATUS(EFIAPI *RegisterInterruptHandler)(struct _EFI_CPU_ARCH_PROTOCOL *, EFI_EXCEPTION_TYPE,
						     EFI_CPU_INTERRUPT_HANDLER);
	EFI_STATUS(EFIAPI *GetTimerValue)(struct _EFI_CPU_ARCH_PROTOCOL *, UINT32, UINT64 *, UINT64 *);
	EFI_STATUS(EFIAPI *SetMemoryAttributes)(struct _EFI_CPU_ARCH_PROTOCOL *, EFI_PHYSICAL_ADDRESS, UINT64, UINT64);
	UINT32 NumberOfTimers;
	UINT32 DmaBufferAlignment;
} EFI_CPU_ARCH_PROTOCOL;

#define EFI_MP_SERVICES_PROTOCOL_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

typedef struct {
	UINT32 Package;
	UINT32 Core;
	UINT32 Thread;
} EFI_CPU_PHYSICAL_LOCATION;

#define PROCESSOR_AS_BSP_BIT 0x00000001u
#define PROCESSOR_ENABLED_BIT 0x00000002u
#define PROCESSOR_HEALTH_STATUS_BIT 0x00000004u

typedef struct {
	UINT64 ProcessorId;
	UINT32 StatusFlag;
	EFI_CPU_PHYSICAL_LOCATION Location;
	/* PI 1.7 appends EXTENDED_PROCESSOR_INFORMATION, written only when the caller sets
	 * CPU_V2_EXTENDED_TOPOLOGY in ProcessorNumber; room kept so either layout fits. */
	UINT32 ExtendedInformation[8];
} EFI_PROCESSOR_INFORMATION;

typedef VOID(EFIAPI *EFI_AP_PROCEDURE)(VOID *ProcedureArgument);

struct _EFI_MP_SERVICES_PROTOCOL;
typedef struct _EFI_MP_SERVICES_PROTOCOL {
	EFI_STATUS(EFIAPI *GetNumberOfProcessors)(struct _EFI_MP_SERVICES_PROTOCOL *, UINTN *, UINTN *);
	EFI_STATUS(EFIAPI *GetProcessorInfo)(struct _EFI_MP_SERVICES_PROTOCOL *, UINTN, EFI_PROCESSOR_INFORMATION *);
	EFI_STATUS(EFIAPI *StartupAllAPs)(struct _EFI_MP_SERVICES_PROTOCOL *, EFI_AP_PROCEDURE, BOOLEAN,
					  EFI_EVENT, UINTN, VOID *, UINTN **);
	EFI_STATUS(EFIAPI *StartupThisAP)(struct _EFI_MP_SERVICES_PROTOCOL *, EFI_AP_PROCEDURE, UINTN,
					  EFI_EVENT, UINTN, VOID *, BOOLEAN *);
	EFI_STATUS(EFIAPI *SwitchBSP)(struct _EFI_MP_SERVICES_PROTOCOL *, UINTN, BOOLEAN);
	EFI_STATUS(EFIAPI *EnableDisableAP)(struct _EFI_MP_SERVICES_PROTOCOL *, UINTN, BOOLEAN, UINT32 *);
	EFI_STATUS(EFIAPI *WhoAmI)(struct _EFI_MP_SERVICES_PROTOCOL *, UINTN *);
} EFI_MP_SERVICES_PROTOCOL;

#endif
