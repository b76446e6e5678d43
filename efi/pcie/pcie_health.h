/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A function's error and link evidence: Device Status (PCIe 6.0 7.5.3.5), Link Status
 * (7.5.3.8) and, with an AER capability (7.8.4), the Uncorrectable and Correctable Error
 * Status registers (7.8.4.2, 7.8.4.5), read as a snapshot; the delta of two snapshots is the
 * bits set in the second and not in the first, named as lspci names them (RxErr, BadTLP ...;
 * LBMS, LABS for Link Bandwidth Management / Autonomous Bandwidth Status). Every error bit is
 * RW1C and sticky: it reports that an error of that kind happened, not how many, so a count is
 * the number of distinct kinds newly set; a bit already set before is invisible (listed as
 * already set). pcie_health_clear writes back the RW1C bits a snapshot found set (the only
 * write here; efiperf calls it only with aer_clear = on).
 *
 * Pure over struct hw (pci_read32/pci_write32): host-tested on tests/model/pci_model.c.
 */
#ifndef EFIPERF_PCIE_HEALTH_H
#define EFIPERF_PCIE_HEALTH_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"

/* Device Status (PCIe 6.0 7.5.3.5): error bits [3:0], RW1C */
#define PCI_EXP_DEVSTA_ERR_MASK   0x000fu
/* Link Status (7.5.3.8): Link Bandwidth Management Status [14], Link Autonomous Bandwidth
 * Status [15], both RW1C */
#define PCI_EXP_LNKSTA_LBMS       0x4000u
#define PCI_EXP_LNKSTA_LABS       0x8000u
#define PCI_CFG_ALL_ONES          0xffffffffu   /* a read of a function that is gone */
#define PCI_CFG_LOW_HALF          0x0000ffffu   /* the control register below a status one */
/* AER capability registers (7.8.4), offsets from its header */
#define PCI_ERR_UNCOR_STATUS      0x04u
#define PCI_ERR_COR_STATUS        0x10u

struct pcie_bit_name {
	uint8_t bit;
	const char *name;
};

extern const struct pcie_bit_name pcie_devsta_names[];   /* CorrErr NonFatalErr FatalErr UnsupReq */
extern const struct pcie_bit_name pcie_lnksta_names[];   /* LBMS LABS */
extern const struct pcie_bit_name pcie_cor_names[];      /* RxErr BadTLP BadDLLP Rollover Timeout ... */
extern const struct pcie_bit_name pcie_uncor_names[];    /* DLP SDES TLP FCP CmpltTO ... */

struct pcie_health_snap {
	struct hw_pci_addr addr;
	const char *why;          /* NULL: read; else why not (no function, no PCIe capability) */
	uint16_t exp, aer;        /* capability offsets; aer 0: none */
	uint16_t devsta, lnksta;
	uint32_t uncor, cor;
};

/* Find the PCI Express and AER capabilities of a (pcie_probe_func) and read the registers. */
void pcie_health_locate(const struct hw *h, struct hw_pci_addr a, struct pcie_health_snap *s);
/* Read the registers again at the offsets s holds. 0, or -1 with s->why. */
int pcie_health_read(const struct hw *h, struct pcie_health_snap *s);

struct pcie_health_delta {
	uint16_t devsta_new, lnksta_new;     /* error / LBMS-LABS bits set now and not before */
	uint32_t cor_new, uncor_new;
	uint32_t cor_before, uncor_before;   /* already set before (new ones of those kinds unseen) */
	uint8_t speed_before, speed_after;   /* Current Link Speed encodings */
	uint8_t width_before, width_after;
	uint32_t correctable, uncorrectable; /* kinds newly set (bit counts) */
	uint32_t link_events;                /* LBMS/LABS newly set, plus 1 if speed or width changed */
};

void pcie_health_delta(const struct pcie_health_snap *a, const struct pcie_health_snap *b,
		       struct pcie_health_delta *d);

/* How many named bits of t are set in bits. */
int pcie_bit_count(const struct pcie_bit_name *t, uint32_t bits);
/* The name of the k-th (from 0) named bit of t set in bits, in bit order; NULL past the last. */
const char *pcie_bit_name(const struct pcie_bit_name *t, uint32_t bits, int k);

/* Write 1 to every RW1C error bit s found set (Device Status, LBMS/LABS, AER status), leaving
 * Device Control and Link Control as read. 0, or -1 when a write failed. */
int pcie_health_clear(const struct hw *h, const struct pcie_health_snap *s);

#endif
