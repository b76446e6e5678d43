/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVMe controller registers, commands and queue entries as the NVM Express Base Specification
 * names them (section numbers of revision 1.4; revision 2.x renumbers the register map as
 * section 3.1.4.x). Cross-checked against Linux include/linux/nvme.h and edk2
 * MdeModulePkg/Bus/Pci/NvmExpressDxe/NvmExpressHci.h.
 */
#ifndef EFIPERF_NVME_REGS_H
#define EFIPERF_NVME_REGS_H

/* ---- BAR0 registers (NVMe 1.4 section 3.1) ---------------------------------------------- */
#define NVME_REG_CAP   0x00u   /* 64-bit Controller Capabilities (3.1.1) */
#define NVME_REG_VS    0x08u   /* Version (3.1.2): MJR [31:16], MNR [15:8] */
#define NVME_REG_CC    0x14u   /* Controller Configuration (3.1.5) */
#define NVME_REG_CSTS  0x1Cu   /* Controller Status (3.1.6) */
#define NVME_REG_AQA   0x24u   /* Admin Queue Attributes (3.1.8): ASQS [11:0], ACQS [27:16], 0's based */
#define NVME_REG_ASQ   0x28u   /* 64-bit Admin Submission Queue base (3.1.9) */
#define NVME_REG_ACQ   0x30u   /* 64-bit Admin Completion Queue base (3.1.10) */
#define NVME_REG_DBS   0x1000u /* doorbells (3.1.24/25): SQyTDBL at DBS + (2y)(4 << DSTRD),
				  CQyHDBL at DBS + (2y + 1)(4 << DSTRD) */

/* CAP fields (3.1.1) */
#define NVME_CAP_MQES(c)    ((uint32_t)((c) & 0xFFFFu))          /* max entries - 1 */
#define NVME_CAP_CQR(c)     ((uint32_t)(((c) >> 16) & 1u))        /* contiguous queues required */
#define NVME_CAP_TO(c)      ((uint32_t)(((c) >> 24) & 0xFFu))     /* ready timeout, 500 ms units */
#define NVME_CAP_DSTRD(c)   ((uint32_t)(((c) >> 32) & 0xFu))      /* doorbell stride 4 << DSTRD */
#define NVME_CAP_CSS_NVM(c) ((uint32_t)(((c) >> 37) & 1u))        /* NVM command set */
#define NVME_CAP_MPSMIN(c)  ((uint32_t)(((c) >> 48) & 0xFu))      /* page 2^(12 + MPSMIN) */
#define NVME_CAP_MPSMAX(c)  ((uint32_t)(((c) >> 52) & 0xFu))
#define NVME_TO_UNIT_MS     500u

/* CC fields (3.1.5) */
#define NVME_CC_EN          (1u << 0)
#define NVME_CC_CSS_SHIFT   4    /* 000b: NVM command set */
#define NVME_CC_MPS_SHIFT   7    /* page 2^(12 + MPS) */
#define NVME_CC_AMS_SHIFT   11   /* 000b: round robin */
#define NVME_CC_SHN_SHIFT   14
#define NVME_CC_IOSQES_SHIFT 16  /* log2 of the SQ entry size: 6 (64 bytes) */
#define NVME_CC_IOCQES_SHIFT 20  /* log2 of the CQ entry size: 4 (16 bytes) */

/* CSTS fields (3.1.6) */
#define NVME_CSTS_RDY       (1u << 0)
#define NVME_CSTS_CFS       (1u << 1)   /* controller fatal status */

/* ---- queue entries (4.2, 4.6) --------------------------------------------------------- */
#define NVME_SQE_BYTES      64u
#define NVME_CQE_BYTES      16u
#define NVME_SQES_LOG2      6u
#define NVME_CQES_LOG2      4u
#define NVME_PAGE           4096u   /* CC.MPS = 0 */
#define NVME_PRP_PER_PAGE   (NVME_PAGE / 8u)

/* SQE dwords: CDW0 OPC [7:0], FUSE [9:8], PSDT [15:14] (00b: PRPs), CID [31:16]; NSID;
 * MPTR (DW4-5); PRP1 (DW6-7); PRP2 (DW8-9); CDW10-15. */
#define NVME_CDW0_CID_SHIFT 16
/* CQE DW2: SQHD [15:0], SQID [31:16]; DW3: CID [15:0], P [16], SC [24:17], SCT [27:25], DNR [31] */
#define NVME_CQE_PHASE      (1u << 16)
#define NVME_CQE_STATUS(dw3) (((dw3) >> 17) & 0x7FFu)   /* SCT:SC, 0 = success */
#define NVME_CQE_SC(dw3)    (((dw3) >> 17) & 0xFFu)
#define NVME_CQE_SCT(dw3)   (((dw3) >> 25) & 0x7u)

/* ---- admin commands (5) --------------------------------------------------------------- */
#define NVME_ADM_DELETE_SQ  0x00u
#define NVME_ADM_CREATE_SQ  0x01u   /* CDW10 QID [15:0], QSIZE [31:16]; CDW11 PC [0], QPRIO [2:1], CQID [31:16] */
#define NVME_ADM_DELETE_CQ  0x04u
#define NVME_ADM_CREATE_CQ  0x05u   /* CDW10 QID, QSIZE; CDW11 PC [0], IEN [1], IV [31:16] */
#define NVME_ADM_IDENTIFY   0x06u   /* CDW10 CNS [7:0] */
#define NVME_ADM_SET_FEATURES 0x09u /* CDW10 FID [7:0]; Number of Queues (FID 07h, 5.21.1.7):
				       CDW11 NSQR [15:0], NCQR [31:16], 0's based; DW0 the same, allocated */
#define NVME_CNS_NAMESPACE  0x00u
#define NVME_CNS_CONTROLLER 0x01u
#define NVME_FID_NUM_QUEUES 0x07u
#define NVME_QUEUE_PC       (1u << 0)   /* physically contiguous */

/* ---- NVM commands (NVM Command Set 1.0 section 3.2) -------------------------------------- */
#define NVME_CMD_WRITE      0x01u
#define NVME_CMD_READ       0x02u   /* CDW10-11 SLBA; CDW12 NLB [15:0], 0's based */

/* ---- Identify data (5.15.2) ----------------------------------------------------------- */
#define NVME_IDC_SN         4u      /* serial number, 20 ASCII bytes */
#define NVME_IDC_MN         24u     /* model number, 40 ASCII bytes */
#define NVME_IDC_MDTS       77u     /* max data transfer 2^MDTS pages of 2^(12+MPSMIN); 0: none */
#define NVME_IDC_NN         516u    /* number of namespaces, 32-bit */
#define NVME_IDN_NSZE       0u      /* namespace size in LBAs, 64-bit */
#define NVME_IDN_NLBAF      25u
#define NVME_IDN_FLBAS      26u     /* [3:0] the LBA format in use */
#define NVME_IDN_LBAF       128u    /* LBAF[n] at 128 + 4n; LBADS (log2 of the LBA size) at +2 */

#endif
