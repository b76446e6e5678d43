/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PCI / PCI Express configuration-space registers and fields used by efi/pcie*.c and the
 * synthetic config-space model (tests/model/pci_model.c). One named definition per register and
 * field, spelled as the specifications spell them:
 *   - PCI Local Bus Specification 3.0, section 6.1 (header), 6.7 (capabilities list);
 *   - PCI Express Base Specification 6.0 (PCIe 6.0), sections 7.5.1 (Type 0/1 headers),
 *     7.5.3 (PCI Express Capability Structure), 7.6 (extended capabilities), 7.9.6 (DVSEC);
 *   - PCI Code and ID Assignment Specification 1.16, sections 2 and 3 (capability IDs).
 * Offsets are byte offsets in a function's configuration space. Pure header.
 */
#ifndef EFIPERF_PCIE_REGS_H
#define EFIPERF_PCIE_REGS_H

/* ---- configuration space geometry (PCIe 6.0 7.2.2, 7.5.1) -------------------------------- */
#define PCI_CFG_SPACE_SIZE        256u    /* PCI-compatible configuration space */
#define PCI_CFG_SPACE_EXP_SIZE    4096u   /* PCI Express extended configuration space */
#define PCI_MAX_DEVICES           32u     /* Device Number: 5 bits */
#define PCI_MAX_FUNCTIONS         8u      /* Function Number: 3 bits */
#define PCI_DWORD                 4u
#define PCI_DWORD_MASK            3u      /* low offset bits inside a dword */
#define PCI_WORD_SELECT           2u      /* offset bit choosing the upper 16 bits of a dword */
#define PCI_BYTE_BITS             8u

/* ---- common header (PCIe 6.0 7.5.1.1) ---------------------------------------------------- */
#define PCI_VENDOR_ID             0x00    /* [15:0] Vendor ID, [31:16] Device ID */
#define PCI_DEVICE_ID_SHIFT       16
#define PCI_VENDOR_ID_NONE        0xffffu /* no function: the read completed with all ones */
#define PCI_VENDOR_ID_ZERO        0x0000u /* invalid vendor: treated as absent too */
#define PCI_COMMAND               0x04    /* [15:0] Command, [31:16] Status */
#define PCI_STATUS_SHIFT          16
#define PCI_STATUS_CAP_LIST       0x0010u /* Status bit 4: Capabilities List */
#define PCI_CLASS_REVISION        0x08    /* [7:0] Revision ID, [31:8] Class Code */
#define PCI_CLASS_SHIFT           8
#define PCI_REVISION_MASK         0xffu
#define PCI_HEADER_TYPE           0x0e    /* byte: [6:0] layout, [7] Multi-Function Device */
#define PCI_HEADER_TYPE_LAYOUT    0x7fu
#define PCI_HEADER_TYPE_MFD       0x80u
#define PCI_HEADER_TYPE_NORMAL    0       /* Type 0: endpoints */
#define PCI_HEADER_TYPE_BRIDGE    1       /* Type 1: PCI-PCI bridges, root and switch ports */
#define PCI_HEADER_TYPE_CARDBUS   2       /* PC Card Standard 8.0 CardBus bridge */
#define PCI_CAPABILITY_LIST       0x34    /* Capabilities Pointer (Type 0 and Type 1) */
#define PCI_CB_CAPABILITY_LIST    0x14    /* Capabilities Pointer of a CardBus bridge */

/* Type 1 (PCIe 6.0 7.5.1.3.2..4): one dword at 0x18 holds the three bus numbers. */
#define PCI_PRIMARY_BUS           0x18    /* [7:0] Primary, [15:8] Secondary, [23:16] Subordinate */
#define PCI_SECONDARY_BUS_SHIFT   8
#define PCI_SUBORDINATE_BUS_SHIFT 16
#define PCI_BUS_MASK              0xffu

/* ---- capabilities list (PCI 3.0 6.7) ------------------------------------------------------ */
#define PCI_CAP_LIST_ID           0       /* byte: Capability ID */
#define PCI_CAP_LIST_NEXT         1       /* byte: Next Capability Pointer */
#define PCI_CAP_MIN_OFFSET        0x40u   /* capabilities live after the 64-byte header */
#define PCI_CAP_PTR_RESERVED      0x03u   /* "bottom two bits reserved ... software must mask" */

/* ---- extended capabilities (PCIe 6.0 7.6.3) ---------------------------------------------- */
#define PCI_EXT_CAP_START         0x100u
#define PCI_EXT_CAP_ID_MASK       0xffffu /* [15:0] PCI Express Extended Capability ID */
#define PCI_EXT_CAP_VER_SHIFT     16      /* [19:16] Capability Version */
#define PCI_EXT_CAP_VER_MASK      0xfu
#define PCI_EXT_CAP_NEXT_SHIFT    20      /* [31:20] Next Capability Offset */
#define PCI_EXT_CAP_NEXT_MASK     0xfffu
#define PCI_EXT_CAP_HEADER_NONE   0xffffffffu /* extended space not reachable (no ECAM) */

/* ---- capability IDs (PCI Code and ID Assignment 1.16, section 2) -------------------------- */
#define PCI_CAP_ID_PM             0x01
#define PCI_CAP_ID_MSI            0x05
#define PCI_CAP_ID_VNDR           0x09
#define PCI_CAP_ID_EXP            0x10
#define PCI_CAP_ID_MSIX           0x11

/* ---- extended capability IDs (PCI Code and ID Assignment 1.16, section 3) ----------------- */
#define PCI_EXT_CAP_ID_AER        0x0001
#define PCI_EXT_CAP_ID_VC         0x0002
#define PCI_EXT_CAP_ID_DSN        0x0003
#define PCI_EXT_CAP_ID_VSEC       0x000b
#define PCI_EXT_CAP_ID_ACS        0x000d
#define PCI_EXT_CAP_ID_ARI        0x000e
#define PCI_EXT_CAP_ID_SRIOV      0x0010
#define PCI_EXT_CAP_ID_L1SS       0x001e
#define PCI_EXT_CAP_ID_DVSEC      0x0023
#define PCI_EXT_CAP_ID_PL_16GT    0x0026
#define PCI_EXT_CAP_ID_DOE        0x002e

/* ---- PCI Express Capability Structure (PCIe 6.0 7.5.3) ------------------------------------ */
#define PCI_EXP_FLAGS             0x02    /* PCI Express Capabilities Register (7.5.3.2) */
#define PCI_EXP_FLAGS_VERS        0x000fu /* [3:0] Capability Version */
#define PCI_EXP_FLAGS_TYPE_SHIFT  4       /* [7:4] Device/Port Type */
#define PCI_EXP_FLAGS_TYPE_MASK   0xfu
#define PCI_EXP_TYPE_ENDPOINT     0x0     /* PCI Express Endpoint */
#define PCI_EXP_TYPE_LEG_END      0x1     /* Legacy PCI Express Endpoint */
#define PCI_EXP_TYPE_ROOT_PORT    0x4     /* Root Port of PCI Express Root Complex */
#define PCI_EXP_TYPE_UPSTREAM     0x5     /* Upstream Port of PCI Express Switch */
#define PCI_EXP_TYPE_DOWNSTREAM   0x6     /* Downstream Port of PCI Express Switch */
#define PCI_EXP_TYPE_PCI_BRIDGE   0x7     /* PCI Express to PCI/PCI-X Bridge */
#define PCI_EXP_TYPE_PCIE_BRIDGE  0x8     /* PCI/PCI-X to PCI Express Bridge */
#define PCI_EXP_TYPE_RC_END       0x9     /* Root Complex Integrated Endpoint */
#define PCI_EXP_TYPE_RC_EC        0xa     /* Root Complex Event Collector */
#define PCI_EXP_DEVCAP            0x04    /* Device Capabilities (7.5.3.3) */
#define PCI_EXP_DEVCAP_PAYLOAD    0x7u    /* [2:0] Max_Payload_Size Supported */
#define PCI_EXP_DEVCTL            0x08    /* Device Control (7.5.3.4), low half of the dword */
#define PCI_EXP_DEVCTL_PAYLOAD_SHIFT 5    /* [7:5] Max_Payload_Size */
#define PCI_EXP_DEVCTL_READRQ_SHIFT  12   /* [14:12] Max_Read_Request_Size */
#define PCI_EXP_DEVCTL_SIZE_MASK  0x7u
#define PCI_EXP_SIZE_MIN_BYTES    128u    /* size encoding n means 128 << n bytes */
#define PCI_EXP_LNKCAP            0x0c    /* Link Capabilities (7.5.3.6) */
#define PCI_EXP_LNKCAP_SLS        0x0000000fu /* [3:0] Max Link Speed */
#define PCI_EXP_LNKCAP_MLW_SHIFT  4       /* [9:4] Maximum Link Width */
#define PCI_EXP_LNKCAP_PN_SHIFT   24      /* [31:24] Port Number */
#define PCI_EXP_LNK_WIDTH_MASK    0x3fu
#define PCI_EXP_LNKCTL            0x10    /* Link Control (7.5.3.7), low half of the dword */
#define PCI_EXP_LNKSTA_SHIFT      16      /* Link Status (7.5.3.8) = offset 0x12, high half */
#define PCI_EXP_LNKSTA_CLS        0x000fu /* [3:0] Current Link Speed */
#define PCI_EXP_LNKSTA_NLW_SHIFT  4       /* [9:4] Negotiated Link Width */
#define PCI_EXP_LNKCAP2           0x2c    /* Link Capabilities 2 (7.5.3.18), version >= 2 */
#define PCI_EXP_LNKCAP2_SLS_SHIFT 1       /* [7:1] Supported Link Speeds Vector */
#define PCI_EXP_LNKCAP2_SLS_MASK  0x7fu
#define PCI_EXP_V1_SIZEOF         0x14u   /* version 1 structure as far as Link Status */
#define PCI_EXP_V2_SIZEOF         0x30u   /* through Link Capabilities 2 (0x2c) */

/* ---- DVSEC (PCIe 6.0 7.9.6) --------------------------------------------------------------- */
#define PCI_DVSEC_HEADER1         0x04    /* [15:0] DVSEC Vendor ID, [19:16] Revision, [31:20] Length */
#define PCI_DVSEC_HEADER1_REV_SHIFT 16
#define PCI_DVSEC_HEADER1_REV_MASK  0xfu
#define PCI_DVSEC_HEADER1_LEN_SHIFT 20
#define PCI_DVSEC_HEADER1_LEN_MASK  0xfffu
#define PCI_DVSEC_HEADER2         0x08    /* [15:0] DVSEC ID */
#define PCI_DVSEC_ID_MASK         0xffffu
#define PCI_DVSEC_MIN_LEN         0x0au   /* both headers */

/* NVIDIA root-port DVSEC (Linux Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst,
 * "Mapping the RC# to lspci segment number"): one byte each. */
#define PCI_VENDOR_ID_NVIDIA      0x10deu
#define NV_DVSEC_ID_RC_MAP        0x0004u
#define NV_DVSEC_BUS              0x0c
#define NV_DVSEC_SEGMENT          0x0d
#define NV_DVSEC_RP               0x0e
#define NV_DVSEC_RC               0x0f
#define NV_DVSEC_SOCKET           0x10
#define NV_DVSEC_MIN_LEN          0x11u   /* through the Socket# byte */

/* CXL (CXL 3.1 section 8.1, Table 8-2 "CXL DVSEC ID Assignment"). */
#define PCI_VENDOR_ID_CXL         0x1e98u

#endif
