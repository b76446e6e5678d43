/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcie: enumeration of PCI / PCI Express functions and decoding of what their configuration
 * space says: header, capability lists, the PCI Express capability (port type, payload sizes,
 * link speed/width and raw bandwidth) and DVSECs (NVIDIA root-complex map, CXL names).
 *
 * Pure C over the hardware interface (arch/hw.h, hw_pci_read32 only: every byte and word is a
 * dword read plus a shift), so it runs on the host against tests/model/pci_model.c. The glue
 * gives it a struct hw whose PCI ops reach ECAM (arch/hw_ecam.h) or the firmware's
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL. Every walk is bounded: malformed config space produces
 * defect strings in the function's record, never a hang.
 *
 *   struct pcie_func funcs[PCIE_MAX_FUNCS];   (caller storage; ~1.5 KiB each)
 *   struct pcie_scan s;
 *   pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
 *   pcie_enumerate(&hw, &s, ranges, nranges);  ranges: one per MCFG allocation
 *   for (i < s.n) { pcie_func_line(&s.funcs[i], ...); pcie_func_to_json(&s.funcs[i], j); }
 */
#ifndef EFIPERF_PCIE_H
#define EFIPERF_PCIE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "efi/out/jsonl.h"

#define PCIE_MAX_FUNCS     512  /* suggested bound of the caller's array */
#define PCIE_MAX_CAPS      24   /* standard capabilities recorded per function */
#define PCIE_MAX_EXT_CAPS  32   /* extended capabilities recorded per function */
#define PCIE_MAX_DVSEC     8    /* DVSEC instances recorded per function */
#define PCIE_MAX_DEFECTS   4    /* defect strings kept per function (ndefects counts all) */
#define PCIE_DEFECT_LEN    80

/* A bus range of one PCI segment to scan (one MCFG allocation, or 0:00-ff without MCFG). */
struct pcie_bus_range {
	uint16_t segment;
	uint8_t bus_start, bus_end;
};

struct pcie_cap {
	uint16_t id;
	uint16_t offset;
	uint8_t version;   /* extended capabilities only */
};

struct pcie_nvidia_map {   /* NVIDIA DVSEC ID 4: root port -> root complex and socket */
	uint8_t bus, segment, rp, rc, socket;
};

struct pcie_dvsec {
	uint16_t offset;   /* of the extended capability header */
	uint16_t vendor;   /* DVSEC Vendor ID (header 1 [15:0]) */
	uint16_t id;       /* DVSEC ID (header 2 [15:0]) */
	uint8_t rev;       /* DVSEC Revision (header 1 [19:16]) */
	uint16_t length;   /* DVSEC Length in bytes (header 1 [31:20]) */
	uint8_t has_nvidia;
	struct pcie_nvidia_map nv;
};

struct pcie_link {
	uint8_t present;        /* a port or endpoint whose LnkCap width is > 0 */
	uint8_t up;             /* LnkSta: negotiated width > 0 and a known speed */
	uint8_t max_code, code; /* LnkCap Max Link Speed / LnkSta Current Link Speed encodings */
	uint8_t max_width, width;
	uint8_t speeds_vector;  /* LnkCap2 Supported Link Speeds Vector (0: not implemented) */
	uint8_t port_number;    /* LnkCap [31:24] */
	uint32_t max_mgts, mgts;   /* speeds in milli-GT/s (0 = unknown encoding) */
	uint64_t max_mgbps, mgbps; /* raw bandwidth per direction, milli-GB/s */
	uint8_t downtrained;    /* trained below what both ends support (own LnkCap until the
				   partner is known, see pcie_link_partners) */
	/* The other end of the link (pcie_link_partners): a port's device 0 function 0 on its
	 * secondary bus, or an upstream-facing function's parent port. */
	uint8_t has_partner;
	uint8_t limited_by_partner;  /* below own LnkCap only because the partner supports less */
	struct hw_pci_addr partner;
	uint32_t partner_max_mgts;
	uint8_t partner_max_width;
};

struct pcie_exp {          /* PCI Express capability (PCIe 6.0 7.5.3) */
	uint8_t present;
	uint16_t offset;
	uint8_t version, port_type;
	uint16_t mps_supported, mps, mrrs; /* bytes */
	struct pcie_link link;
};

struct pcie_func {
	struct hw_pci_addr addr;
	uint16_t vendor, device;
	uint32_t class_code;     /* 24 bits: base class, sub-class, programming interface */
	uint8_t revision;
	uint8_t header_type;     /* raw byte, bit 7 = multi-function */
	uint8_t primary, secondary, subordinate; /* header type 1 only */
	int parent;              /* index in the scan of the bridge whose secondary bus this is, -1 */
	struct hw_pci_addr parent_addr;
	struct pcie_cap caps[PCIE_MAX_CAPS];
	int ncaps;               /* recorded; more are counted as a defect */
	struct pcie_cap ext[PCIE_MAX_EXT_CAPS];
	int next;
	struct pcie_exp exp;
	struct pcie_dvsec dvsec[PCIE_MAX_DVSEC];
	int ndvsec;
	char defects[PCIE_MAX_DEFECTS][PCIE_DEFECT_LEN];
	int ndefects;            /* all defects found; only the first PCIE_MAX_DEFECTS are kept */
};

struct pcie_scan {
	struct pcie_func *funcs;
	int cap;                 /* entries of funcs */
	int n;                   /* entries filled */
	uint32_t overflow;       /* functions found beyond cap (not recorded) */
	uint32_t read_errors;    /* Vendor ID reads that returned a status other than HW_OK */
	hw_status first_error;
};

/* ---- enumeration (efi/pcie_enum.c) ---------------------------------------------------------- */
void pcie_scan_init(struct pcie_scan *s, struct pcie_func *storage, int cap);
/* Scans every bus of every range: device 0..31, function 0, and functions 1..7 when function 0
 * has the multi-function bit. Vendor ID 0xffff or 0x0000 = absent. Links each function to the
 * bridge whose secondary bus it sits on. Returns the number of functions recorded. */
int pcie_enumerate(const struct hw *h, struct pcie_scan *s, const struct pcie_bus_range *ranges, int nranges);

/* Pair each link's two ends (run by pcie_enumerate after the parents are known): a link is
 * downtrained only when it runs below min(own LnkCap, partner's LnkCap) in speed or width;
 * one below its own LnkCap because the partner supports less is limited_by_partner instead,
 * and its "downtrained" defect is withdrawn. */
void pcie_link_partners(struct pcie_scan *s);
/* Reads and decodes one function (header, both capability lists, PCIe capability, DVSECs).
 * Returns HW_OK, or the status of the Vendor ID read; f->vendor is 0xffff when absent. */
hw_status pcie_probe_func(const struct hw *h, struct hw_pci_addr a, struct pcie_func *f);

/* Byte / word / dword config reads, all through hw_pci_read32 of the containing dword
 * (efi/pcie/pcie_cfg.c, as are pcie_defect and pcie_bdf_str). */
hw_status pcie_cfg_read32(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint32_t *v);
hw_status pcie_cfg_read16(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint16_t *v);
hw_status pcie_cfg_read8(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint8_t *v);

/* Appends a defect ("extended capability loop at 0x140") to f. */
void pcie_defect(struct pcie_func *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- capability lists (efi/pcie_caps.c) ---------------------------------------------------- */
void pcie_walk_caps(const struct hw *h, struct pcie_func *f);
void pcie_walk_ext_caps(const struct hw *h, struct pcie_func *f);
const struct pcie_cap *pcie_find_cap(const struct pcie_func *f, uint16_t id);
const struct pcie_cap *pcie_find_ext_cap(const struct pcie_func *f, uint16_t id);
const char *pcie_cap_name(uint16_t id);       /* "PM", "MSI", "PCIe", "MSI-X"...; NULL unknown */
const char *pcie_ext_cap_name(uint16_t id);   /* "AER", "VC", "DSN", "DVSEC", "DOE"...; NULL */

/* ---- PCI Express capability and link (efi/pcie_link.c) ------------------------------------- */
void pcie_decode_exp(const struct hw *h, struct pcie_func *f);
const char *pcie_port_type_name(uint8_t type);   /* "Endpoint", "Root Port", ... */
/* Speed encoding (LnkCap / LnkSta) -> milli-GT/s through the LnkCap2 vector when non-zero;
 * 0 when unknown or not in the vector. */
uint32_t pcie_speed_mgts(uint8_t code, uint8_t speeds_vector);
/* Raw bandwidth per direction in milli-GB/s, rounded: GT/s * width * efficiency / 8 with
 * 8b/10b below 8 GT/s, 128b/130b from 8 to 32 GT/s, 1b/1b (flit mode) at 64 GT/s. */
uint64_t pcie_link_mgbps(uint32_t mgts, unsigned width);
/* "2.5", "8", "16" (GT/s, without unit) into buf. */
void pcie_speed_str(char *buf, size_t n, uint32_t mgts);

/* ---- DVSEC (efi/pcie_dvsec.c) --------------------------------------------------------------- */
void pcie_decode_dvsec(const struct hw *h, struct pcie_func *f, uint16_t off);
/* Name of a DVSEC by vendor and ID ("CXL Register Locator", "NVIDIA RC map"); NULL unknown. */
const char *pcie_dvsec_name(uint16_t vendor, uint16_t id);
/* One line as in the example output of Linux Documentation/admin-guide/perf/
 * nvidia-tegra410-pmu.rst: "0001:00:00.0: Bus=00, Segment=01, RP=00, RC=00, Socket=00".
 * Returns the number of lines written (0 when f has no NVIDIA DVSEC ID 4). */
int pcie_nvidia_map_line(const struct pcie_func *f, char *buf, size_t n);
/* ---- the NVIDIA root-port lookup (efi/pcie/pcie_nvidia_rp.c) ---------------------------------
 * The root port at a for the NVIDIA PCIE / PCIE-TGT PMU root-port filter: probes the function
 * and returns its NVIDIA DVSEC ID 4 map entry (socket, RC#, RP#) in *m. -1 with why when
 * nothing answers there, the function is not a PCI Express Root Port, has no NVIDIA RC-map
 * DVSEC (not an NVIDIA root port), or the map places it at another segment and bus than its
 * own (the map does not describe it). f: caller storage for the probe. */
int pcie_nvidia_rp_lookup(const struct hw *h, struct hw_pci_addr a, struct pcie_func *f, struct pcie_nvidia_map *m,
			  char *why, size_t n);

/* ---- output (efi/pcie_out.c) ------------------------------------------------------------------ */
/* Members of a `pcie` record (the caller opened it with its "type"). */
void pcie_func_to_json(const struct pcie_func *f, struct json *j);
/* One lspci-like line, e.g.
 * "0000:00:01.0 8086:29c0 [0604] PCIe Root Port  8 GT/s x4 (max 16 GT/s x4)  caps: PCIe MSI-X AER DVSEC" */
void pcie_func_line(const struct pcie_func *f, char *buf, size_t n);
/* "0000:00:01.0" */
void pcie_bdf_str(struct hw_pci_addr a, char *buf, size_t n);

#endif
