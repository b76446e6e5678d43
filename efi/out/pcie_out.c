/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Output of one enumerated function (efi/pcie.h): the members of its `pcie` JSONL record and an
 * lspci-like console line. Formatting only; every value was decoded by pcie_probe_func().
 */
#include "efi/pcie/pcie.h"
#include "efi/pcie/pcie_regs.h"
#include "arch/lib/fmt.h"

#define CLASS_BASE_SUB_SHIFT 8   /* class code [23:8] = base class and sub-class */

static int is_bridge(const struct pcie_func *f)
{
	return (f->header_type & PCI_HEADER_TYPE_LAYOUT) == PCI_HEADER_TYPE_BRIDGE;
}

static void cap_list_json(struct json *j, const char *key, const struct pcie_cap *c, int n, int ext)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++) {
		json_obj(j, NULL);
		json_str(j, "name", ext ? pcie_ext_cap_name(c[i].id) : pcie_cap_name(c[i].id));
		json_hex(j, "id", c[i].id);
		if (ext)
			json_u64(j, "version", c[i].version);
		json_hex(j, "offset", c[i].offset);
		json_close(j);
	}
	json_close(j);
}

static void link_json(const struct pcie_link *l, struct json *j)
{
	json_obj(j, "link");
	json_milli(j, "max_speed_gts", l->max_mgts);
	json_u64(j, "max_width", l->max_width);
	json_milli(j, "max_gbps", l->max_mgbps);
	json_bool(j, "up", l->up);
	if (l->up) {
		json_milli(j, "speed_gts", l->mgts);
		json_u64(j, "width", l->width);
		json_milli(j, "gbps", l->mgbps);
	} else {
		json_null(j, "speed_gts");
		json_null(j, "width");
		json_null(j, "gbps");
	}
	json_bool(j, "downtrained", l->downtrained);
	json_bool(j, "limited_by_partner", l->limited_by_partner);
	if (l->has_partner) {
		char bdf[16];
		pcie_bdf_str(l->partner, bdf, sizeof(bdf));
		json_obj(j, "partner");
		json_str(j, "bdf", bdf);
		json_milli(j, "max_speed_gts", l->partner_max_mgts);
		json_u64(j, "max_width", l->partner_max_width);
		json_close(j);
	}
	json_hex(j, "supported_speeds", l->speeds_vector);
	json_u64(j, "port_number", l->port_number);
	json_close(j);
}

static void dvsec_json(const struct pcie_func *f, struct json *j)
{
	json_arr(j, "dvsec");
	for (int i = 0; i < f->ndvsec && i < PCIE_MAX_DVSEC; i++) {
		const struct pcie_dvsec *d = &f->dvsec[i];
		json_obj(j, NULL);
		json_hex(j, "vendor", d->vendor);
		json_hex(j, "id", d->id);
		json_u64(j, "rev", d->rev);
		json_u64(j, "length", d->length);
		json_hex(j, "offset", d->offset);
		json_str(j, "name", pcie_dvsec_name(d->vendor, d->id));
		if (d->has_nvidia) {
			json_obj(j, "nvidia");
			json_u64(j, "bus", d->nv.bus);
			json_u64(j, "segment", d->nv.segment);
			json_u64(j, "rp", d->nv.rp);
			json_u64(j, "rc", d->nv.rc);
			json_u64(j, "socket", d->nv.socket);
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

void pcie_func_to_json(const struct pcie_func *f, struct json *j)
{
	char s[32];
	pcie_bdf_str(f->addr, s, sizeof(s));
	json_str(j, "bdf", s);
	fmt_snprintf(s, sizeof(s), "%04x:%04x", f->vendor, f->device);
	json_str(j, "vendor_device", s);
	fmt_snprintf(s, sizeof(s), "0x%06x", f->class_code);
	json_str(j, "class", s);
	json_u64(j, "revision", f->revision);
	json_u64(j, "header_type", f->header_type & PCI_HEADER_TYPE_LAYOUT);
	json_bool(j, "multi_function", (f->header_type & PCI_HEADER_TYPE_MFD) != 0);
	if (is_bridge(f)) {
		json_obj(j, "bridge");
		json_u64(j, "primary", f->primary);
		json_u64(j, "secondary", f->secondary);
		json_u64(j, "subordinate", f->subordinate);
		json_close(j);
	}
	if (f->parent >= 0) {
		pcie_bdf_str(f->parent_addr, s, sizeof(s));
		json_str(j, "upstream", s);
	}
	cap_list_json(j, "capabilities", f->caps, f->ncaps < PCIE_MAX_CAPS ? f->ncaps : PCIE_MAX_CAPS, 0);
	cap_list_json(j, "ext_capabilities", f->ext, f->next < PCIE_MAX_EXT_CAPS ? f->next : PCIE_MAX_EXT_CAPS, 1);
	if (f->exp.present) {
		json_obj(j, "express");
		json_str(j, "port_type", pcie_port_type_name(f->exp.port_type));
		json_u64(j, "version", f->exp.version);
		json_u64(j, "mps_supported", f->exp.mps_supported);
		json_u64(j, "mps", f->exp.mps);
		json_u64(j, "mrrs", f->exp.mrrs);
		json_close(j);
		if (f->exp.link.present)
			link_json(&f->exp.link, j);
	}
	dvsec_json(f, j);
	json_arr(j, "defects");
	for (int i = 0; i < f->ndefects && i < PCIE_MAX_DEFECTS; i++)
		json_str(j, NULL, f->defects[i]);
	json_close(j);
	if (f->ndefects > PCIE_MAX_DEFECTS)
		json_u64(j, "defects_total", (uint64_t)f->ndefects);
}

static void put_cap(struct strbuf *sb, const char *name, uint16_t id)
{
	if (name)
		sb_printf(sb, " %s", name);
	else
		sb_printf(sb, " 0x%02x", id);
}

void pcie_func_line(const struct pcie_func *f, char *buf, size_t n)
{
	struct strbuf sb;
	char bdf[16], s[8], ms[8];
	const struct pcie_link *l = &f->exp.link;

	sb_init(&sb, buf, n);
	pcie_bdf_str(f->addr, bdf, sizeof(bdf));
	sb_printf(&sb, "%s %04x:%04x [%04x] ", bdf, f->vendor, f->device,
		  f->class_code >> CLASS_BASE_SUB_SHIFT);
	if (f->exp.present)
		sb_printf(&sb, "PCIe %s", pcie_port_type_name(f->exp.port_type));
	else
		sb_puts(&sb, is_bridge(f) ? "PCI bridge" : "PCI");
	if (l->present) {
		pcie_speed_str(ms, sizeof(ms), l->max_mgts);
		if (l->up) {
			pcie_speed_str(s, sizeof(s), l->mgts);
			sb_printf(&sb, "  %s GT/s x%u (max %s GT/s x%u)", s, l->width, ms, l->max_width);
		} else {
			sb_printf(&sb, "  link down (max %s GT/s x%u)", ms, l->max_width);
		}
		if (l->downtrained)
			sb_puts(&sb, " DOWNTRAINED");
		if (l->limited_by_partner) {
			pcie_speed_str(ms, sizeof(ms), l->partner_max_mgts);
			sb_printf(&sb, " (partner max %s GT/s x%u)", ms, l->partner_max_width);
		}
	}
	if (f->ncaps || f->next) {
		sb_puts(&sb, "  caps:");
		for (int i = 0; i < f->ncaps && i < PCIE_MAX_CAPS; i++)
			put_cap(&sb, pcie_cap_name(f->caps[i].id), f->caps[i].id);
		for (int i = 0; i < f->next && i < PCIE_MAX_EXT_CAPS; i++)
			put_cap(&sb, pcie_ext_cap_name(f->ext[i].id), f->ext[i].id);
	}
	if (is_bridge(f))
		sb_printf(&sb, "  bus %02x-%02x", f->secondary, f->subordinate);
	if (f->ndefects)
		sb_printf(&sb, "  defects: %d", f->ndefects);
}
