/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test SSDT: companion ACPI devices of APMT ACPI-device nodes (ARM DEN0117 node type 3: the
 * node's Instance primary is the device's _HID, Instance secondary its _UID), as the Tegra410
 * PCIE-TGT PMU uses one in Linux drivers/perf/arm_cspmu/nvidia_cspmu.c: _DSD "instance_id" is
 * the root complex number, the first _CRS memory resource the address-filter block. The real
 * _HIDs are not public: "EFPT0001" is this test's own. Compiled by iasl at test time
 * (tests/unit.mk for tests/unit/test_apmt_companion.c; tests/qemu/test_nv_acpi_pmu.py installs
 * it on aarch64 with the BAR address rebased). Addresses: BAR2 of the QEMU test's ivshmem device.
 *   TGT1 (_UID 1): instance_id 3, block BAR + 0x21000 (4 KiB), then a second range not used
 *   TGT2 (_UID 2): instance_id 5, no _CRS
 *   TGT7 (_UID "7", a string of digits): _CRS, no _DSD
 *   TGTX (_UID "7x"): matches no integer _UID
 */
DefinitionBlock ("", "SSDT", 2, "EFIPRF", "CSPMUCMP", 0x00000001)
{
    Scope (\_SB)
    {
        Device (TGT1)
        {
            Name (_HID, "EFPT0001")
            Name (_UID, One)
            Name (_DSD, Package ()
            {
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package () { Package () { "instance_id", 3 } }
            })
            Name (_CRS, ResourceTemplate ()
            {
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800021000, 0x800021FFF, 0x0, 0x1000)
            Memory32Fixed (ReadWrite, 0xFED00000, 0x00000400)
            })
        }
        Device (TGT2)
        {
            Name (_HID, "EFPT0001")
            Name (_UID, 2)
            Name (_DSD, Package ()
            {
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package () { Package () { "instance_id", 5 } }
            })
        }
        Device (TGT7)
        {
            Name (_HID, "EFPT0001")
            Name (_UID, "7")
            Name (_CRS, ResourceTemplate ()
            {
            Memory32Fixed (ReadWrite, 0x40000000, 0x00001000)
            })
        }
        Device (TGTX)
        {
            Name (_HID, "EFPT0001")
            Name (_UID, "7x")
        }
    }
}
