/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PCI Express Capability (PCIe 6.0 7.5.3): Device/Port Type, payload and read-request sizes,
 * and the link: LnkCap (7.5.3.6) maximum speed and width, LnkSta (7.5.3.8) current speed and
 * negotiated width, LnkCap2 (7.5.3.18) Supported Link Speeds Vector, and the raw bandwidth per
 * direction that follows from them.
 *
 * Speed encodings: LnkCap Max Link Speed and LnkSta Current Link Speed "specify a bit location in
 * the Supported Link Speeds Vector" (value n -> vector bit n-1); the vector's bits are
 * 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 GT/s. A function without LnkCap2 (capability version 1,
 * or a zero vector) uses the same values directly (PCIe 2.x: 1 = 2.5, 2 = 5.0 GT/s).
 *
 * Line encodings (PCIe 6.0 4.2.2, 4.2.3): 8b/10b at 2.5 and 5.0 GT/s, 128b/130b at 8.0 to
 * 32.0 GT/s; 64.0 GT/s runs in Flit Mode with PAM4 and 1b/1b encoding, counted here as 1.0
 * (FEC/CRC overhead of the flit is not subtracted: this is the raw rate).
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

/* Supported Link Speeds Vector bit i (= encoding i + 1) in milli-GT/s. */
static const uint32_t speed_mgts[] = { 2500, 5000, 8000, 16000, 32000, 64000 };
#define NSPEEDS (sizeof(speed_mgts) / sizeof(speed_mgts[0]))

#define MGTS_128B130B_FROM 8000u    /* 8.0 GT/s: first 128b/130b rate */
#define MGTS_FLIT_FROM     64000u   /* 64.0 GT/s: Flit Mode, 1b/1b */
#define BITS_PER_BYTE      8u
#define MILLI              1000u
#define DECI_IN_MILLI      100u

/* Payload bits per line bits of each encoding. */
#define ENC_8B10B_NUM      8u
#define ENC_8B10B_DEN      10u
#define ENC_128B130B_NUM   128u
#define ENC_128B130B_DEN   130u
#define ENC_FLIT_NUM       1u
#define ENC_FLIT_DEN       1u

uint32_t pcie_speed_mgts(uint8_t code, uint8_t speeds_vector)
{
	if (code == 0 || code > NSPEEDS)
		return 0;
	if (speeds_vector && !(speeds_vector & (1u << (code - 1))))
		return 0;
	return speed_mgts[code - 1];
}

uint64_t pcie_link_mgbps(uint32_t mgts, unsigned width)
{
	uint64_t num, den;
	if (mgts >= MGTS_FLIT_FROM) {
		num = ENC_FLIT_NUM; den = ENC_FLIT_DEN;
	} else if (mgts >= MGTS_128B130B_FROM) {
		num = ENC_128B130B_NUM; den = ENC_128B130B_DEN;
	} else {
		num = ENC_8B10B_NUM; den = ENC_8B10B_DEN;
	}
	/* milli-GT/s * lanes * efficiency / 8 bits, rounded to the nearest milli-GB/s */
	uint64_t scaled = (uint64_t)mgts * width * num;
	uint64_t div = den * BITS_PER_BYTE;
	return (scaled + div / 2) / div;
}

void pcie_speed_str(char *buf, size_t n, uint32_t mgts)
{
	if (mgts % MILLI)
		fmt_snprintf(buf, n, "%u.%u", mgts / MILLI, (mgts % MILLI) / DECI_IN_MILLI);
	else
		fmt_snprintf(buf, n, "%u", mgts / MILLI);
}

/* PCIe 6.0 7.5.3.2 Device/Port Type. */
const char *pcie_port_type_name(uint8_t type)
{
	switch (type) {
	case PCI_EXP_TYPE_ENDPOINT:    return "Endpoint";
	case PCI_EXP_TYPE_LEG_END:     return "Legacy Endpoint";
	case PCI_EXP_TYPE_ROOT_PORT:   return "Root Port";
	case PCI_EXP_TYPE_UPSTREAM:    return "Upstream Switch Port";
	case PCI_EXP_TYPE_DOWNSTREAM:  return "Downstream Switch Port";
	case PCI_EXP_TYPE_PCI_BRIDGE:  return "PCIe-to-PCI Bridge";
	case PCI_EXP_TYPE_PCIE_BRIDGE: return "PCI-to-PCIe Bridge";
	case PCI_EXP_TYPE_RC_END:      return "RCiEP";
	case PCI_EXP_TYPE_RC_EC:       return "RC Event Collector";
	default:                       return "Reserved";
	}
}

/* Functions that own a Link: everything but the Root Complex integrated ones (7.5.3.6 says
 * LnkCap is not applicable to RCiEPs and RCECs). */
static int has_link(uint8_t type)
{
	return type != PCI_EXP_TYPE_RC_END && type != PCI_EXP_TYPE_RC_EC;
}

static void decode_link(struct pcie_func *f, uint32_t lnkcap, uint32_t lnkctl_sta, uint32_t lnkcap2)
{
	struct pcie_link *l = &f->exp.link;
	uint16_t lnksta = (uint16_t)(lnkctl_sta >> PCI_EXP_LNKSTA_SHIFT);

	l->max_width = (uint8_t)((lnkcap >> PCI_EXP_LNKCAP_MLW_SHIFT) & PCI_EXP_LNK_WIDTH_MASK);
	if (!has_link(f->exp.port_type) || l->max_width == 0)
		return;
	l->present = 1;
	l->max_code = (uint8_t)(lnkcap & PCI_EXP_LNKCAP_SLS);
	l->port_number = (uint8_t)(lnkcap >> PCI_EXP_LNKCAP_PN_SHIFT);
	l->speeds_vector = (uint8_t)((lnkcap2 >> PCI_EXP_LNKCAP2_SLS_SHIFT) & PCI_EXP_LNKCAP2_SLS_MASK);
	l->code = (uint8_t)(lnksta & PCI_EXP_LNKSTA_CLS);
	l->width = (uint8_t)((lnksta >> PCI_EXP_LNKSTA_NLW_SHIFT) & PCI_EXP_LNK_WIDTH_MASK);
	l->max_mgts = pcie_speed_mgts(l->max_code, l->speeds_vector);
	l->mgts = pcie_speed_mgts(l->code, l->speeds_vector);
	if (!l->max_mgts)
		pcie_defect(f, "LnkCap Max Link Speed %u not in Supported Link Speeds 0x%02x",
			    l->max_code, l->speeds_vector);
	l->max_mgbps = pcie_link_mgbps(l->max_mgts, l->max_width);
	l->up = l->width > 0 && l->mgts > 0;
	if (!l->up)
		return; /* link down (e.g. an empty slot): neither trained nor downtrained */
	l->mgbps = pcie_link_mgbps(l->mgts, l->width);
	if ((l->max_mgts && l->mgts < l->max_mgts) || l->width < l->max_width) {
		char s[8], ms[8];
		l->downtrained = 1;
		pcie_speed_str(s, sizeof(s), l->mgts);
		pcie_speed_str(ms, sizeof(ms), l->max_mgts);
		pcie_defect(f, "downtrained: %s GT/s x%u of %s GT/s x%u", s, l->width, ms, l->max_width);
	}
}

void pcie_decode_exp(const struct hw *h, struct pcie_func *f)
{
	const struct pcie_cap *c = pcie_find_cap(f, PCI_CAP_ID_EXP);
	struct pcie_exp *e = &f->exp;
	uint32_t flags, devcap, devctl, lnkcap, lnksta, lnkcap2 = 0;

	if (!c)
		return;
	e->present = 1;
	e->offset = c->offset;
	/* The structure must lie in the PCI-compatible 256 bytes (PCIe 6.0 7.5.3). */
	if (c->offset + PCI_EXP_V1_SIZEOF > PCI_CFG_SPACE_SIZE) {
		pcie_defect(f, "PCI Express capability at 0x%02x runs past 256 bytes", c->offset);
		return;
	}
	if (pcie_cfg_read32(h, f->addr, c->offset, &flags) != HW_OK ||
	    pcie_cfg_read32(h, f->addr, (uint16_t)(c->offset + PCI_EXP_DEVCAP), &devcap) != HW_OK ||
	    pcie_cfg_read32(h, f->addr, (uint16_t)(c->offset + PCI_EXP_DEVCTL), &devctl) != HW_OK ||
	    pcie_cfg_read32(h, f->addr, (uint16_t)(c->offset + PCI_EXP_LNKCAP), &lnkcap) != HW_OK ||
	    pcie_cfg_read32(h, f->addr, (uint16_t)(c->offset + PCI_EXP_LNKCTL), &lnksta) != HW_OK) {
		pcie_defect(f, "PCI Express capability read failed at 0x%02x", c->offset);
		return;
	}
	flags >>= PCI_EXP_FLAGS * PCI_BYTE_BITS;
	e->version = (uint8_t)(flags & PCI_EXP_FLAGS_VERS);
	e->port_type = (uint8_t)((flags >> PCI_EXP_FLAGS_TYPE_SHIFT) & PCI_EXP_FLAGS_TYPE_MASK);
	e->mps_supported = (uint16_t)(PCI_EXP_SIZE_MIN_BYTES << (devcap & PCI_EXP_DEVCAP_PAYLOAD));
	e->mps = (uint16_t)(PCI_EXP_SIZE_MIN_BYTES <<
			    ((devctl >> PCI_EXP_DEVCTL_PAYLOAD_SHIFT) & PCI_EXP_DEVCTL_SIZE_MASK));
	e->mrrs = (uint16_t)(PCI_EXP_SIZE_MIN_BYTES <<
			     ((devctl >> PCI_EXP_DEVCTL_READRQ_SHIFT) & PCI_EXP_DEVCTL_SIZE_MASK));
	/* Link Capabilities 2 exists from capability version 2 on (PCIe 6.0 7.5.3.18). */
	if (e->version >= 2) {
		if (c->offset + PCI_EXP_V2_SIZEOF > PCI_CFG_SPACE_SIZE)
			pcie_defect(f, "PCI Express capability at 0x%02x: LnkCap2 past 256 bytes", c->offset);
		else if (pcie_cfg_read32(h, f->addr, (uint16_t)(c->offset + PCI_EXP_LNKCAP2), &lnkcap2) != HW_OK)
			lnkcap2 = 0;
	}
	decode_link(f, lnkcap, lnksta, lnkcap2);
}
