/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test SSDT for the AML reader (efi/fw/aml.c) and the NVIDIA ACPI-namespace PMUs: compiled by
 * iasl at test time (tests/unit.mk for tests/unit/test_aml.c, tests/qemu/test_nv_acpi_pmu.py for
 * QEMU's -acpitable). Register blocks sit in the BAR of QEMU's ivshmem-plain device at 00:05.0
 * (BAR2 = 0x800000000 as OVMF assigns it on q35 with the test's device set; the QEMU test asserts it):
 *   CM00 NVDA2021 (CMEM latency, _UID 0): 14 instances at BAR + i * 0x1000, broadcast BAR + 0xE000
 *   C2C0 NVDA2023 (NVLink-C2C, _UID 1): 14 instances at BAR + 0x10000 + i * 0x1000, broadcast
 *        BAR + 0x1E000; _DSD gpu0_en_mask 0x00FF, gpu1_en_mask 0x3F00
 *   MIXD (EISAID PNP0C02, _UID "17"): the other descriptor kinds and objects the reader skips
 *   BAD0 (NVDA2021): the last object; the tests patch its PkgLength past the table's end
 */
DefinitionBlock ("", "SSDT", 2, "EFIPRF", "NVPMU", 0x00000001)
{
    Scope (\_SB)
    {
        Device (CM00)
        {
            Name (_HID, "NVDA2021")
            Name (_UID, 0)
            Name (_CRS, ResourceTemplate ()
            {
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800000000, 0x800000FFF, 0x0, 0x1000)   // instance 0
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800001000, 0x800001FFF, 0x0, 0x1000)   // instance 1
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800002000, 0x800002FFF, 0x0, 0x1000)   // instance 2
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800003000, 0x800003FFF, 0x0, 0x1000)   // instance 3
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800004000, 0x800004FFF, 0x0, 0x1000)   // instance 4
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800005000, 0x800005FFF, 0x0, 0x1000)   // instance 5
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800006000, 0x800006FFF, 0x0, 0x1000)   // instance 6
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800007000, 0x800007FFF, 0x0, 0x1000)   // instance 7
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800008000, 0x800008FFF, 0x0, 0x1000)   // instance 8
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800009000, 0x800009FFF, 0x0, 0x1000)   // instance 9
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80000A000, 0x80000AFFF, 0x0, 0x1000)   // instance 10
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80000B000, 0x80000BFFF, 0x0, 0x1000)   // instance 11
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80000C000, 0x80000CFFF, 0x0, 0x1000)   // instance 12
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80000D000, 0x80000DFFF, 0x0, 0x1000)   // instance 13
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80000E000, 0x80000EFFF, 0x0, 0x1000)   // broadcast
            })
        }
        Device (C2C0)
        {
            Name (_HID, "NVDA2023")
            Name (_UID, One)
            Name (_DSD, Package ()
            {
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package ()
                {
                    Package () { "gpu0_en_mask", 0xFF },
                    Package () { "gpu1_en_mask", 0x3F00 }
                }
            })
            Name (_CRS, ResourceTemplate ()
            {
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800010000, 0x800010FFF, 0x0, 0x1000)   // instance 0
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800011000, 0x800011FFF, 0x0, 0x1000)   // instance 1
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800012000, 0x800012FFF, 0x0, 0x1000)   // instance 2
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800013000, 0x800013FFF, 0x0, 0x1000)   // instance 3
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800014000, 0x800014FFF, 0x0, 0x1000)   // instance 4
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800015000, 0x800015FFF, 0x0, 0x1000)   // instance 5
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800016000, 0x800016FFF, 0x0, 0x1000)   // instance 6
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800017000, 0x800017FFF, 0x0, 0x1000)   // instance 7
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800018000, 0x800018FFF, 0x0, 0x1000)   // instance 8
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x800019000, 0x800019FFF, 0x0, 0x1000)   // instance 9
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80001A000, 0x80001AFFF, 0x0, 0x1000)   // instance 10
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80001B000, 0x80001BFFF, 0x0, 0x1000)   // instance 11
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80001C000, 0x80001CFFF, 0x0, 0x1000)   // instance 12
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80001D000, 0x80001DFFF, 0x0, 0x1000)   // instance 13
            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                0x0, 0x80001E000, 0x80001EFFF, 0x0, 0x1000)   // broadcast
            })
        }
        Device (MIXD)
        {
            Name (_HID, EisaId ("PNP0C02"))
            Name (_UID, "17")
            Name (_STR, Unicode ("mixed"))
            Mutex (MUT0, 0)
            OperationRegion (OPR0, SystemMemory, 0xFED40000, 0x100)
            Field (OPR0, DWordAcc, NoLock, Preserve) { REG0, 32 }
            Method (_STA, 0, NotSerialized) { If (REG0) { Return (0x0F) } Return (Zero) }
            Name (_CRS, ResourceTemplate ()
            {
                IO (Decode16, 0x0CF8, 0x0CF8, 0x01, 0x08)
                Memory32Fixed (ReadWrite, 0xFED00000, 0x00000400)
                DWordMemory (ResourceProducer, PosDecode, MinFixed, MaxFixed, Cacheable, ReadWrite,
                    0x0, 0xFE000000, 0xFE0FFFFF, 0x0, 0x00100000)
                ExtendedMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,
                    0x0, 0x100000000, 0x100001FFF, 0x0, 0x2000, 0x0)
                DWordIO (ResourceProducer, MinFixed, MaxFixed, PosDecode, EntireRange,
                    0x0, 0x1000, 0x1FFF, 0x0, 0x1000)
            })
            Name (_DSD, Package ()
            {
                ToUUID ("dbb8e3e6-5886-4ba6-8795-1319f52a966b"),
                Package () { Package () { "ignored", "IGN0" } },
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package ()
                {
                    Package () { "label", "mix" },
                    Package () { "count", 3 }
                }
            })
            Device (SUB0)
            {
                Name (_HID, "EFIP0001")
                Name (_UID, 0x123456789)
            }
        }
    }
    Scope (\_SB)
    {
        Device (BAD0)
        {
            Name (_HID, "NVDA2021")
            Name (_UID, 9)
        }
    }
}
