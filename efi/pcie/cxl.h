/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxl: what a CXL function and a CXL host bridge say about themselves, read-only (Compute
 * Express Link Specification Revision 3.1; register layouts in efi/pcie/cxl_regs.h).
 *
 *   config space (8.1): PCIe DVSEC for CXL Devices (Mem_Capable, HDM_Count, the DVSEC ranges),
 *       Flex Bus Port DVSEC (CXL.io/.cache/.mem capable, enabled, negotiated), Register
 *       Locator DVSEC (each block's BAR, offset and Register Block Identifier).
 *   component registers (8.2.4): the CXL.cache/mem capability array, HDM decoders (base, size,
 *       IG/IW, target list or DPA skip, Lock/Commit/Committed/Error), RAS (UE/CE status, mask,
 *       severity, first error pointer, header log), link (Link Layer capability, control/status).
 *   device registers (8.2.8): the device capability array, Event Status, Memory Device Status,
 *       and through the primary mailbox the read-only commands Identify Memory Device, Get
 *       Partition Info, Get Health Info and Get Event Records (each log, read without Clear
 *       Event Records). A busy mailbox, a doorbell that does not clear within the 2 s of 8.2.8.4,
 *       or a non-zero return code is the command's `why`, never a hang.
 *
 * Pure, over struct hw (host-tested on tests/model/cxl_model.c). Every MMIO address comes from a
 * BAR (sized by pci_bar_probe, which puts the BAR back) or the CEDT, and is read only when the
 * whole register block lies inside its BAR (or CHBS window) and outside system RAM; otherwise
 * the block carries a defect naming what and where. Each read goes through the hw interface,
 * whose firmware backend turns a fault into a status.
 */
#ifndef EFIPERF_CXL_H
#define EFIPERF_CXL_H

#include <stdint.h>
#include "arch/hw.h"
#include "efi/fw/memranges.h"
#include "efi/pcie/pcie.h"
#include "efi/pcie/cxl_regs.h"
#include "pmu/uncore/cxl_cpmu.h"

#define CXL_MAX_REGBLOCKS    8
#define CXL_MAX_CM_CAPS      16
#define CXL_MAX_DEV_CAPS     8
#define CXL_MAX_EVENTS       4      /* event record handles kept per log */
#define CXL_DEFECT_LEN       96
#define CXL_MAX_DEFECTS      6
#define CXL_WHY_LEN          80
#define CXL_MAX_CPMU         2      /* CPMU blocks (Register Block Identifier 4) described per function */

/* What the pure code needs from its surroundings. */
struct cxl_env {
	const struct hw *hw;
	const struct memrange *ram;   /* system RAM (UEFI memory map), nram entries; may be 0 */
	int nram;
	uint64_t (*now)(void *arg);   /* a clock of hz ticks per second, for the mailbox timeout */
	void *arg;
	uint64_t hz;
};

struct cxl_regblock {
	uint8_t bir, id;
	uint64_t offset;              /* from the BAR's base */
	uint64_t bar_base, bar_size;  /* 0 size: not sized */
	uint64_t addr;                /* bar_base + offset, 0 when unusable */
	char defect[CXL_DEFECT_LEN];  /* why it was not read: past its BAR, over RAM, BAR failed */
};

struct cxl_hdm_decoder {
	uint64_t base, size;
	uint32_t ctrl;
	uint8_t ig, iw;
	uint32_t granularity, ways;   /* decoded; 0: reserved encoding */
	uint8_t lock_on_commit, commit, committed, error, host_only;
	uint32_t tl_lo, tl_hi;        /* target list (ports) or DPA skip (devices) */
	char overlap[CXL_DEFECT_LEN]; /* a committed range overlapping system RAM */
};

struct cxl_cm_cap { uint16_t id; uint8_t version; uint16_t offset; };

struct cxl_component {
	int present;
	uint64_t addr;                /* block base (the CXL.cache/mem range is at +0x1000) */
	hw_status st;                 /* first failed read, HW_OK otherwise */
	uint8_t cm_version, cap_version;
	int ncaps;
	struct cxl_cm_cap caps[CXL_MAX_CM_CAPS];
	struct {
		int present;
		uint32_t cap, global_ctrl;
		uint32_t count, targets;  /* decoded Decoder Count and Target Count */
		struct cxl_hdm_decoder dec[CXL_HDM_MAX_DECODERS];
	} hdm;
	struct {
		int present;
		uint32_t ue_status, ue_mask, ue_severity, ce_status, ce_mask, cap_ctrl;
		uint32_t header_log[CXL_RAS_HEADER_LOG_DWORDS];
	} ras;
	struct {
		int present;
		uint64_t ll_cap, ll_ctrl_status;
	} link;
};

struct cxl_mbox_result {
	int tried;
	int ok;                       /* return code 0 and the payload read */
	uint16_t rc;                  /* Return Code of the Mailbox Status register */
	uint32_t out_len;
	char why[CXL_WHY_LEN];        /* "doorbell still set after 2000 ms", "return code 0x15 (Unsupported)" */
};

struct cxl_devregs {
	int present;
	uint64_t addr;
	hw_status st;
	int ncaps;
	struct { uint16_t id; uint8_t version; uint32_t offset, length; } caps[CXL_MAX_DEV_CAPS];
	int has_event_status, has_memdev, has_mbox;
	uint64_t event_status, memdev_status;
	uint32_t mbox_cap, payload_bytes;
	struct cxl_mbox_result cmd_identify, cmd_partition, cmd_health, cmd_events[CXL_EV_NLOGS];
	struct {
		char fw_revision[CXL_ID_FW_REVISION_LEN + 1];
		uint64_t total, volatile_only, persistent_only, partition_align;  /* bytes */
		uint16_t log_size[CXL_EV_NLOGS];
		uint32_t lsa_size;
	} id;
	struct { uint64_t active_volatile, active_persistent, next_volatile, next_persistent; } part;  /* bytes */
	struct {
		uint8_t health_status, media_status, additional_status, life_used;
		int16_t temperature;
		uint32_t dirty_shutdowns, corrected_volatile, corrected_persistent;
	} health;
	struct {
		uint8_t flags;
		uint16_t overflow_count, count;
		uint16_t handle[CXL_MAX_EVENTS];
		uint64_t timestamp[CXL_MAX_EVENTS];
	} ev[CXL_EV_NLOGS];
};

struct cxl_func {
	struct hw_pci_addr addr;
	uint8_t port_type;            /* PCI Express capability Device/Port Type */
	int parent;                   /* index in the pcie scan, -1 */
	struct {
		int present;
		uint16_t offset, cap, ctrl, status;
		uint8_t mem_capable, hdm_count;
		struct { uint64_t base, size; uint32_t size_lo; uint8_t valid, active; } range[CXL_DVSEC_NRANGES];
	} dev;
	struct {
		int present;
		uint16_t cap, ctrl, status;
	} flexbus;
	int nblocks;
	struct cxl_regblock block[CXL_MAX_REGBLOCKS];
	struct cxl_component comp;
	struct cxl_devregs devregs;
	int ncpmu;                    /* CPMU blocks probed (read only: capability, counters, event groups) */
	struct { int ok; struct cxl_cpmu pmu; } cpmu[CXL_MAX_CPMU];
	int ndefects;
	char defects[CXL_MAX_DEFECTS][CXL_DEFECT_LEN];
};

/* 1 when f carries any CXL DVSEC (vendor 0x1E98). */
int cxl_is_cxl(const struct pcie_func *f);

/* Reads everything above for one function; f is its pcie_probe_func result. Mailbox commands
 * are sent only to functions with a Memory Device capability whose Mailbox Interfaces Ready
 * bit is set. Never fails as a whole: what could not be read is in out's defects and whys. */
void cxl_probe(const struct cxl_env *env, const struct pcie_func *f, struct cxl_func *out);

/* The component registers of a CHBS (CXL 2.0+ host bridge): [base, base + length). */
void cxl_read_component(const struct cxl_env *env, uint64_t base, uint64_t length,
			struct cxl_component *c, char *defect, size_t n);

/* One mailbox command (8.2.8.4): in/in_len input payload, out/out_cap output buffer. Checks that
 * the doorbell is clear, writes the payload, Command and Doorbell, waits up to
 * CXL_MBOX_TIMEOUT_MS for the doorbell to clear, reads Status and the output. */
void cxl_mbox_cmd(const struct cxl_env *env, const struct cxl_devregs *d, uint64_t mbox, uint16_t opcode,
		  const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_cap, struct cxl_mbox_result *r);

/* Decoded HDM Decoder Count (8.2.4.20.1: 0 -> 1, 1..8 -> 2n, 9..0xC -> 20, 24, 28, 32). */
uint32_t cxl_hdm_decoder_count(uint32_t enc);
/* Block identifier name: "empty", "component", "bar_virtualization", "memdev", "cpmu", NULL. */
const char *cxl_block_name(uint8_t id);
/* Mailbox return code name (8.2.8.4.5.1 Table 8-34): "Success", "Unsupported", ...; NULL. */
const char *cxl_rc_name(uint16_t rc);

#endif
