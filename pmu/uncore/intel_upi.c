/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel UPI link layer and M2M/B2CMI as data (pmu/uncore/intel_upi.h: every fact's source). */
#include "pmu/uncore/intel_upi.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define EN22 (1ull << 22)            /* SNBEP_PMON_CTL_EN */
#define CTL_BASE 0xFF84FFFFull       /* event, umask, edge 18, inv 23, thresh 31:24 */
#define UMASK_EXT_SHIFT 32           /* umask_ext / umask_ext3/4: config:32- */
/* SNBEP_PMON_BOX_CTL_RST_CTRL bit 0, RST_CTRS bit 1, FRZ bit 8, FRZ_EN bit 16 */
#define SNBEP_UNIT .box_frz = 1ull << 8 | 1ull << 16, .box_rst_ctrl = 1ull << 0, .box_rst_ctrs = 1ull << 1, \
	.ctl_en = EN22
#define UPI_PCI .access = BOX_ACCESS_PCI, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 8, \
	.ctr_step = 8, .max_boxes = 3, .unit_ctl = 0, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG, \
	.ctr_split32 = 1, SNBEP_UNIT

#define SKX_UPI_BOX_CTL 0x378        /* SKX_UPI_PCI_PMON_BOX_CTL */
#define SKX_UPI_CTL0 0x350           /* SKX_UPI_PCI_PMON_CTL0 */
#define SKX_UPI_CTR0 0x318           /* SKX_UPI_PCI_PMON_CTR0 */
#define ICX_UPI_BOX_CTL 0x318        /* ICX_UPI_PCI_PMON_BOX_CTL */
#define ICX_UPI_CTL0 0x350           /* ICX_UPI_PCI_PMON_CTL0 */
#define ICX_UPI_CTR0 0x320           /* ICX_UPI_PCI_PMON_CTR0 */

static const struct uncore_box_type skx_upi_type = {
	.name = "UPI", UPI_PCI, .box_ctl = SKX_UPI_BOX_CTL, .ctl0 = SKX_UPI_CTL0 - SKX_UPI_BOX_CTL,
	.ctr0 = SKX_UPI_CTR0 - SKX_UPI_BOX_CTL, .event_mask = CTL_BASE | 0xFFFull << UMASK_EXT_SHIFT,
};
static const struct uncore_box_type icx_upi_type = {
	.name = "UPI", UPI_PCI, .box_ctl = ICX_UPI_BOX_CTL, .ctl0 = ICX_UPI_CTL0 - ICX_UPI_BOX_CTL,
	.ctr0 = ICX_UPI_CTR0 - ICX_UPI_BOX_CTL, .event_mask = CTL_BASE | 0xFFFFFFull << UMASK_EXT_SHIFT,
};
/* SPR and later: unit control, CTL0 / CTR0 offsets and counter geometry from the discovery
 * table (the values here are defaults it replaces); generic unit control (Linux
 * uncore_discovery.h GENERIC_PMON_BOX_CTL_FRZ bit 0, RST_CTRL bit 8, RST_CTRS bit 9) */
static const struct uncore_box_type spr_upi_type = {
	.name = "UPI", .access = BOX_ACCESS_PCI, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 8,
	.ctr_step = 8, .max_boxes = 6, .unit_ctl = 0, .ctl0 = ICX_UPI_CTL0 - ICX_UPI_BOX_CTL,
	.ctr0 = ICX_UPI_CTR0 - ICX_UPI_BOX_CTL, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG,
	.ctr_split32 = 1, .box_frz = 1ull << 0, .box_rst_ctrl = 1ull << 8, .box_rst_ctrs = 1ull << 9, .ctl_en = EN22,
	.event_mask = CTL_BASE | 0xFFFFFFull << UMASK_EXT_SHIFT,
};

#define SKX_UPI_DID 0x2058
#define ICX_UPI_DID 0x3441
static const struct upi_link_pci skx_links[] = { { SKX_UPI_DID, 14, 0 }, { SKX_UPI_DID, 15, 0 }, { SKX_UPI_DID, 16, 0 } };
static const struct upi_link_pci icx_links[] = { { ICX_UPI_DID, 2, 1 }, { ICX_UPI_DID, 3, 1 }, { ICX_UPI_DID, 4, 1 } };
#define UNCORE_SPR_UPI 8             /* discovery box type of the UPI link layer */
#define SPR_PLUS(n) { n, &spr_upi_type, NULL, 0, UNCORE_SPR_UPI, 24, 24 }

const struct upi_platform upi_platforms[] = {
	{ "SKX", &skx_upi_type, skx_links, 3, 0, 12, 0 },
	{ "ICX", &icx_upi_type, icx_links, 3, 0, 24, 8 },
	SPR_PLUS("SPR"), SPR_PLUS("EMR"), SPR_PLUS("GNR"), SPR_PLUS("SRF"), SPR_PLUS("CWF"),
};
const unsigned upi_nplatforms = sizeof(upi_platforms) / sizeof(upi_platforms[0]);

const struct upi_platform *upi_platform_by_name(const char *name)
{
	for (unsigned i = 0; i < upi_nplatforms; i++)
		if (!strcmp(upi_platforms[i].name, name))
			return &upi_platforms[i];
	return NULL;
}

int upi_encode(const struct upi_platform *p, const char *unit, const struct gen_row *r, uint64_t *ctl,
	       char *why, size_t n)
{
	unsigned bits = !strcmp(unit, "upi") ? p->upi_ext_bits : p->m2m_ext_bits;
	const char *bad = r->port_mask || r->fc_mask ? "PortMask/FCMask"
			  : r->filter ? "FILTER_VALUE" : r->umask_ext >> bits ? "UMaskExt" : NULL;
	if (bad) {
		fmt_snprintf(why, n, "%s %s %s: %s has no field in this box's event select", p->name, unit, r->name, bad);
		return -1;
	}
	*ctl = r->event | (uint64_t)r->umask << 8 | EN22 | (uint64_t)r->umask_ext << UMASK_EXT_SHIFT;
	return 0;
}

uint64_t upi_flits_bytes(uint64_t flits)
{
	return flits / UPI_BYTES_PER_FLIT_DEN * UPI_BYTES_PER_FLIT_NUM +
	       flits % UPI_BYTES_PER_FLIT_DEN * UPI_BYTES_PER_FLIT_NUM / UPI_BYTES_PER_FLIT_DEN;
}

uint64_t upi_milli_gbps(uint64_t flits, uint64_t ns)
{
	return ns ? upi_flits_bytes(flits) * 1000 / ns : 0;
}
