/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL register layouts efiperf reads, spelled as Compute Express Link Specification Revision 3.1
 * spells them (section numbers of 3.1; the same layouts are in CXL 2.0 8.1/8.2 and in Linux
 * drivers/cxl/cxl.h and cxlpci.h, which the values were checked against).
 */
#ifndef EFIPERF_CXL_REGS_H
#define EFIPERF_CXL_REGS_H

/* ---- configuration space: DVSECs (8.1), offsets from the DVSEC's extended capability header */
/* 8.1.3 PCIe DVSEC for CXL Devices (DVSEC ID 0). */
#define CXL_DVSEC_DEV_CAP            0x0A   /* u16 DVSEC CXL Capability */
#define   CXL_DEV_CAP_CACHE_CAPABLE  (1u << 0)
#define   CXL_DEV_CAP_IO_CAPABLE     (1u << 1)
#define   CXL_DEV_CAP_MEM_CAPABLE    (1u << 2)
#define   CXL_DEV_CAP_MEM_HWINIT     (1u << 3)
#define   CXL_DEV_CAP_HDM_COUNT_SHIFT 4     /* [5:4] HDM_Count: 1 or 2 DVSEC ranges */
#define   CXL_DEV_CAP_HDM_COUNT_MASK 0x3u
#define CXL_DVSEC_DEV_CTRL           0x0C   /* u16 DVSEC CXL Control */
#define   CXL_DEV_CTRL_MEM_ENABLE    (1u << 2)
#define CXL_DVSEC_DEV_STATUS         0x0E   /* u16 DVSEC CXL Status */
/* DVSEC CXL Range 1/2 Size High/Low, Base High/Low: 0x18 + 0x10 * i ... */
#define CXL_DVSEC_RANGE_SIZE_HI(i)   (0x18 + 0x10 * (i))
#define CXL_DVSEC_RANGE_SIZE_LO(i)   (0x1C + 0x10 * (i))
#define CXL_DVSEC_RANGE_BASE_HI(i)   (0x20 + 0x10 * (i))
#define CXL_DVSEC_RANGE_BASE_LO(i)   (0x24 + 0x10 * (i))
#define   CXL_RANGE_LO_MEM_INFO_VALID (1u << 0)
#define   CXL_RANGE_LO_MEM_ACTIVE    (1u << 1)
#define   CXL_RANGE_LO_ADDR_MASK     0xF0000000u   /* [31:28]: 256 MiB granules */
#define CXL_DVSEC_NRANGES            2
#define CXL_DVSEC_DEV_LEN            0x38

/* 8.1.8 PCIe DVSEC for Flex Bus Port (DVSEC ID 7): capability, control, status (u16 each). */
#define CXL_DVSEC_FLEXBUS_CAP        0x0A
#define CXL_DVSEC_FLEXBUS_CTRL       0x0C
#define CXL_DVSEC_FLEXBUS_STATUS     0x0E
#define   CXL_FLEXBUS_CACHE          (1u << 0)   /* same bit in cap / ctrl / status */
#define   CXL_FLEXBUS_IO             (1u << 1)
#define   CXL_FLEXBUS_MEM            (1u << 2)
#define CXL_DVSEC_FLEXBUS_LEN        0x10

/* 8.1.9 Register Locator DVSEC (DVSEC ID 8): entries of 8 bytes from 0x0C. */
#define CXL_DVSEC_REGLOC_FIRST       0x0C
#define CXL_REGLOC_ENTRY_LEN         8
#define   CXL_REGLOC_BIR_MASK        0x7u            /* Register BIR [2:0] */
#define   CXL_REGLOC_BLOCK_ID_SHIFT  8               /* Register Block Identifier [15:8] */
#define   CXL_REGLOC_BLOCK_ID_MASK   0xFFu
#define   CXL_REGLOC_OFF_LO_MASK     0xFFFF0000u     /* Register Block Offset Low [31:16] */
/* 8.1.9.1 Table 8-26 Register Block Identifier. */
#define CXL_RBI_EMPTY                0
#define CXL_RBI_COMPONENT            1
#define CXL_RBI_BAR_VIRT             2
#define CXL_RBI_MEMDEV               3
#define CXL_RBI_CPMU                 4

/* DVSEC IDs (Table 8-2). */
#define CXL_DVSEC_ID_DEVICE          0
#define CXL_DVSEC_ID_FLEXBUS         7
#define CXL_DVSEC_ID_REGLOC          8

/* ---- component registers (8.2.3, 8.2.4) -------------------------------------------------- */
#define CXL_COMPONENT_BLOCK_LEN      0x10000  /* 8.2.3: 64 KiB */
#define CXL_CM_OFFSET                0x1000   /* CXL.cache/mem registers (Table 8-21) */
#define CXL_CM_RANGE_LEN             0x1000
/* 8.2.4.1 CXL Capability Header (first dword), then one CXL_Capability header per element. */
#define   CXL_CAP_ID_MASK            0xFFFFu
#define   CXL_CAP_VERSION_SHIFT      16
#define   CXL_CAP_VERSION_MASK       0xFu
#define   CXL_CM_VERSION_SHIFT       20       /* CXL_Cache_Mem_Version [23:20] */
#define   CXL_CM_ARRAY_SIZE_SHIFT    24       /* Array_Size [31:24] */
#define   CXL_CAP_PTR_SHIFT          20       /* element: CXL_Capability_Pointer [31:20] */
#define CXL_CM_CAP_ID_ARRAY          0x1
/* Table 8-22 CXL Capability IDs. */
#define CXL_CM_CAP_RAS               0x2
#define CXL_CM_CAP_SECURITY          0x3
#define CXL_CM_CAP_LINK              0x4
#define CXL_CM_CAP_HDM               0x5

/* 8.2.4.17 CXL RAS Capability Structure. */
#define CXL_RAS_UE_STATUS            0x00
#define CXL_RAS_UE_MASK              0x04
#define CXL_RAS_UE_SEVERITY          0x08
#define CXL_RAS_CE_STATUS            0x0C
#define CXL_RAS_CE_MASK              0x10
#define CXL_RAS_CAP_CTRL             0x14
#define   CXL_RAS_FIRST_ERROR_MASK   0x3Fu    /* First_Error_Pointer [5:0] */
#define CXL_RAS_HEADER_LOG           0x18
#define CXL_RAS_HEADER_LOG_DWORDS    16       /* 512 bits */
#define CXL_RAS_LEN                  0x58

/* 8.2.4.19 CXL Link Capability Structure: Link Layer Capability and Control/Status (64-bit). */
#define CXL_LINK_LL_CAP              0x00
#define CXL_LINK_LL_CTRL_STATUS      0x08
#define CXL_LINK_LEN                 0x10

/* 8.2.4.20 CXL HDM Decoder Capability Structure. */
#define CXL_HDM_CAP                  0x00
#define   CXL_HDM_CAP_COUNT_MASK     0xFu     /* Decoder Count [3:0] (encoded) */
#define   CXL_HDM_CAP_TARGETS_SHIFT  4        /* Target Count [7:4] */
#define   CXL_HDM_CAP_TARGETS_MASK   0xFu
#define CXL_HDM_GLOBAL_CTRL          0x04
#define   CXL_HDM_GLOBAL_ENABLE      (1u << 1)
#define CXL_HDM_DEC_STRIDE           0x20
#define CXL_HDM_DEC_BASE_LO(n)       (0x10 + 0x20 * (n))
#define CXL_HDM_DEC_BASE_HI(n)       (0x14 + 0x20 * (n))
#define CXL_HDM_DEC_SIZE_LO(n)       (0x18 + 0x20 * (n))
#define CXL_HDM_DEC_SIZE_HI(n)       (0x1C + 0x20 * (n))
#define CXL_HDM_DEC_CTRL(n)          (0x20 + 0x20 * (n))
#define CXL_HDM_DEC_TL_LO(n)         (0x24 + 0x20 * (n))   /* Target List Low / DPA Skip Low */
#define CXL_HDM_DEC_TL_HI(n)         (0x28 + 0x20 * (n))
#define   CXL_HDM_ADDR_LO_MASK       0xF0000000u           /* [31:28] of base and size */
#define   CXL_HDM_CTRL_IG_MASK       0xFu                  /* IG [3:0] */
#define   CXL_HDM_CTRL_IW_SHIFT      4                     /* IW [7:4] */
#define   CXL_HDM_CTRL_IW_MASK       0xFu
#define   CXL_HDM_CTRL_LOCK_ON_COMMIT (1u << 8)
#define   CXL_HDM_CTRL_COMMIT        (1u << 9)
#define   CXL_HDM_CTRL_COMMITTED     (1u << 10)
#define   CXL_HDM_CTRL_ERR_NOT_COMMITTED (1u << 11)
#define   CXL_HDM_CTRL_TARGET_TYPE   (1u << 12)            /* 1: host-only coherent (Type 3) */
#define CXL_HDM_MAX_DECODERS         32
#define CXL_HDM_MAX_TARGETS          8                     /* Target List: 8 one-byte port IDs */

/* ---- CXL device registers (8.2.8) --------------------------------------------------------- */
/* 8.2.8.1 Device Capabilities Array Register (64-bit) and 8.2.8.2 headers (16 bytes each). */
#define CXL_DEV_CAP_ARRAY            0x00
#define   CXL_DEV_CAP_COUNT_SHIFT    32       /* Capabilities Count [47:32] */
#define   CXL_DEV_CAP_COUNT_MASK     0xFFFFu
#define CXL_DEV_CAP_HDR(i)           (0x10 * ((i) + 1))
#define CXL_DEV_CAP_HDR_OFFSET       0x04     /* Offset (from the block start) */
#define CXL_DEV_CAP_HDR_LENGTH       0x08
/* 8.2.8.2.1 Table 8-35 Device Capability IDs. */
#define CXL_DEV_CAP_STATUS           0x0001
#define CXL_DEV_CAP_PRIMARY_MBOX     0x0002
#define CXL_DEV_CAP_SECONDARY_MBOX   0x0003
#define CXL_DEV_CAP_MEMDEV           0x4000
/* 8.2.8.3.1 Event Status Register (device status capability, 64-bit at +0). */
#define CXL_DEV_EVENT_STATUS         0x00
/* 8.2.8.5.1.1 Memory Device Status Register (64-bit at +0 of capability 0x4000). */
#define CXL_MEMDEV_STATUS            0x00
#define   CXL_MEMDEV_FATAL           (1u << 0)
#define   CXL_MEMDEV_FW_HALT         (1u << 1)
#define   CXL_MEMDEV_MEDIA_SHIFT     2        /* Media Status [3:2] */
#define   CXL_MEMDEV_MEDIA_MASK      0x3u
#define   CXL_MEMDEV_MBOX_READY      (1u << 4)
#define   CXL_MEMDEV_RESET_SHIFT     5        /* Reset Needed [7:5] */
#define   CXL_MEMDEV_RESET_MASK      0x7u
/* 8.2.8.4 Mailbox Registers. */
#define CXL_MBOX_CAP                 0x00
#define   CXL_MBOX_CAP_PAYLOAD_MASK  0x1Fu    /* Payload Size [4:0]: 2^n bytes, n 8..20 */
#define CXL_MBOX_CTRL                0x04
#define   CXL_MBOX_CTRL_DOORBELL     (1u << 0)
#define CXL_MBOX_CMD                 0x08     /* 64-bit: Opcode [15:0], Payload Length [36:16] */
#define   CXL_MBOX_CMD_LEN_SHIFT     16
#define   CXL_MBOX_CMD_LEN_MASK      0x1FFFFFull
#define CXL_MBOX_STATUS              0x10     /* 64-bit: Background Operation [0], Return Code [47:32] */
#define   CXL_MBOX_STATUS_RC_SHIFT   32
#define   CXL_MBOX_STATUS_RC_MASK    0xFFFFull
#define CXL_MBOX_PAYLOAD             0x20
#define CXL_MBOX_PAYLOAD_MIN_LOG2    8
#define CXL_MBOX_PAYLOAD_MAX_LOG2    20
/* 8.2.8.4: a command not run in the background completes within 2 seconds of the doorbell. */
#define CXL_MBOX_TIMEOUT_MS          2000u

/* 8.2.9 command opcodes (Table 8-37), the read-only ones efiperf sends. */
#define CXL_OP_GET_EVENT_RECORDS     0x0100
#define CXL_OP_IDENTIFY_MEMDEV       0x4000
#define CXL_OP_GET_PARTITION_INFO    0x4100
#define CXL_OP_GET_HEALTH_INFO       0x4200

/* 8.2.9.9.1.1 Identify Memory Device output (Table 8-127). */
#define CXL_ID_FW_REVISION           0x00     /* 16 bytes ASCII */
#define CXL_ID_FW_REVISION_LEN       16
#define CXL_ID_TOTAL_CAPACITY        0x10     /* u64, multiples of 256 MiB */
#define CXL_ID_VOLATILE_ONLY         0x18
#define CXL_ID_PERSISTENT_ONLY       0x20
#define CXL_ID_PARTITION_ALIGN       0x28
#define CXL_ID_INFO_LOG_SIZE         0x30     /* u16 each: info, warning, failure, fatal */
#define CXL_ID_LSA_SIZE              0x38     /* u32 bytes */
#define CXL_ID_LEN                   0x43
#define CXL_CAPACITY_UNIT            (256ull << 20)
/* 8.2.9.9.2.1 Get Partition Info output (Table 8-131): four u64 in 256 MiB units. */
#define CXL_PI_ACTIVE_VOLATILE       0x00
#define CXL_PI_ACTIVE_PERSISTENT     0x08
#define CXL_PI_NEXT_VOLATILE         0x10
#define CXL_PI_NEXT_PERSISTENT       0x18
#define CXL_PI_LEN                   0x20
/* 8.2.9.9.3.1 Get Health Info output (Table 8-135). */
#define CXL_HI_HEALTH_STATUS         0x00
#define CXL_HI_MEDIA_STATUS          0x01
#define CXL_HI_ADDITIONAL_STATUS     0x02
#define CXL_HI_LIFE_USED             0x03     /* percent; 0xFF: not implemented */
#define CXL_HI_TEMPERATURE           0x04     /* s16 degrees C; 0x7FFF: not implemented */
#define CXL_HI_DIRTY_SHUTDOWNS       0x06     /* u32 */
#define CXL_HI_CORR_VOLATILE         0x0A     /* u32 */
#define CXL_HI_CORR_PERSISTENT       0x0E     /* u32 */
#define CXL_HI_LEN                   0x12
#define CXL_HI_LIFE_NOT_IMPL         0xFF
#define CXL_HI_TEMP_NOT_IMPL         0x7FFF
/* 8.2.9.2.2 Get Event Records: input Event Log (1 byte), output (Table 8-51). */
#define CXL_EV_LOG_INFO              0
#define CXL_EV_LOG_WARN              1
#define CXL_EV_LOG_FAIL              2
#define CXL_EV_LOG_FATAL             3
#define CXL_EV_NLOGS                 4
#define CXL_EV_FLAGS                 0x00     /* [0] Overflow, [1] More Event Records */
#define   CXL_EV_FLAG_OVERFLOW       (1u << 0)
#define   CXL_EV_FLAG_MORE           (1u << 1)
#define CXL_EV_OVERFLOW_COUNT        0x02     /* u16 */
#define CXL_EV_RECORD_COUNT          0x14     /* u16 */
#define CXL_EV_RECORDS               0x20     /* 128 bytes each */
#define CXL_EV_RECORD_LEN            0x80
#define CXL_EV_REC_HANDLE            0x14     /* u16 Event Record Handle in a record */
#define CXL_EV_REC_TIMESTAMP         0x18     /* u64 */
#define CXL_EV_HDR_LEN               0x20

#endif
