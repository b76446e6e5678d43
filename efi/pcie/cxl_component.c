/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL component registers, read-only (CXL 3.1 8.2.4): the CXL.cache/mem capability array at
 * +0x1000 (8.2.4.1), then the RAS (8.2.4.17), link (8.2.4.19) and HDM decoder (8.2.4.20)
 * capability structures it points at. See efi/pcie/cxl.h.
 */
#include <string.h>

#include "efi/pcie/cxl.h"
#include "efi/pcie/cxl_internal.h"
#include "efi/fw/acpi_cedt.h"
#include "arch/lib/fmt.h"

/* 8.2.4.20.1 Decoder Count: 0 -> 1 decoder, 1..8 -> 2..16, 9..0xC -> 20, 24, 28, 32. */
#define HDM_COUNT_LINEAR_MAX 8
#define HDM_COUNT_STEP4_BASE 16
#define HDM_COUNT_MAX_ENC    0xC

uint32_t cxl_hdm_decoder_count(uint32_t enc)
{
	if (enc == 0)
		return 1;
	if (enc <= HDM_COUNT_LINEAR_MAX)
		return 2 * enc;
	if (enc <= HDM_COUNT_MAX_ENC)
		return HDM_COUNT_STEP4_BASE + 4 * (enc - HDM_COUNT_LINEAR_MAX);
	return 0;
}

struct reader { const struct hw *hw; uint64_t base; hw_status st; };

static uint32_t r32(struct reader *r, uint64_t off)
{
	uint32_t v = 0;
	if (r->st == HW_OK)
		r->st = hw_mmio_read32(r->hw, r->base + off, &v);
	return r->st == HW_OK ? v : 0;
}

static uint64_t r64(struct reader *r, uint64_t off)
{
	uint64_t lo = r32(r, off), hi = r32(r, off + 4);
	return hi << 32 | lo;
}

/* fit: decoders whose registers lie inside the CXL.cache/mem range. */
static void read_hdm(const struct cxl_env *env, struct reader *r, struct cxl_component *c, uint32_t fit,
		     char *defect, size_t n)
{
	c->hdm.cap = r32(r, CXL_HDM_CAP);
	c->hdm.global_ctrl = r32(r, CXL_HDM_GLOBAL_CTRL);
	c->hdm.count = cxl_hdm_decoder_count(c->hdm.cap & CXL_HDM_CAP_COUNT_MASK);
	c->hdm.targets = (c->hdm.cap >> CXL_HDM_CAP_TARGETS_SHIFT) & CXL_HDM_CAP_TARGETS_MASK;
	if (c->hdm.count > fit) {
		fmt_snprintf(defect, n, "HDM Decoder Count %u runs past the CXL.cache/mem range: %u read",
			     c->hdm.count, fit);
		c->hdm.count = fit;
	}
	for (uint32_t k = 0; k < c->hdm.count && k < CXL_HDM_MAX_DECODERS && r->st == HW_OK; k++) {
		struct cxl_hdm_decoder *d = &c->hdm.dec[k];
		uint32_t blo = r32(r, CXL_HDM_DEC_BASE_LO(k)), bhi = r32(r, CXL_HDM_DEC_BASE_HI(k));
		uint32_t slo = r32(r, CXL_HDM_DEC_SIZE_LO(k)), shi = r32(r, CXL_HDM_DEC_SIZE_HI(k));
		d->base = (uint64_t)bhi << 32 | (blo & CXL_HDM_ADDR_LO_MASK);
		d->size = (uint64_t)shi << 32 | (slo & CXL_HDM_ADDR_LO_MASK);
		d->ctrl = r32(r, CXL_HDM_DEC_CTRL(k));
		d->tl_lo = r32(r, CXL_HDM_DEC_TL_LO(k));
		d->tl_hi = r32(r, CXL_HDM_DEC_TL_HI(k));
		d->ig = (uint8_t)(d->ctrl & CXL_HDM_CTRL_IG_MASK);
		d->iw = (uint8_t)((d->ctrl >> CXL_HDM_CTRL_IW_SHIFT) & CXL_HDM_CTRL_IW_MASK);
		/* IG and IW are encoded as the CEDT's HBIG and ENIW (8.2.4.20.7). */
		d->granularity = cedt_granularity(d->ig);
		d->ways = cedt_interleave_ways(d->iw);
		d->lock_on_commit = !!(d->ctrl & CXL_HDM_CTRL_LOCK_ON_COMMIT);
		d->commit = !!(d->ctrl & CXL_HDM_CTRL_COMMIT);
		d->committed = !!(d->ctrl & CXL_HDM_CTRL_COMMITTED);
		d->error = !!(d->ctrl & CXL_HDM_CTRL_ERR_NOT_COMMITTED);
		d->host_only = !!(d->ctrl & CXL_HDM_CTRL_TARGET_TYPE);
		uint64_t at;
		if (d->committed && d->size && cxl_overlaps_ram(env, d->base, d->size, &at))
			fmt_snprintf(d->overlap, sizeof(d->overlap),
				     "committed range 0x%llx+0x%llx overlaps system RAM at 0x%llx",
				     (unsigned long long)d->base, (unsigned long long)d->size, (unsigned long long)at);
	}
}

void cxl_read_component(const struct cxl_env *env, uint64_t base, uint64_t length, struct cxl_component *c,
			char *defect, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->addr = base;
	if (!cxl_window_ok(env, base + CXL_CM_OFFSET, CXL_CM_RANGE_LEN, base, base + length, defect, n))
		return;
	struct reader r = { env->hw, base + CXL_CM_OFFSET, HW_OK };
	uint32_t hdr = r32(&r, 0);
	if (r.st != HW_OK) {
		fmt_snprintf(defect, n, "read at 0x%llx: %s", (unsigned long long)r.base, hw_status_name(r.st));
		c->st = r.st;
		return;
	}
	c->present = 1;
	if ((hdr & CXL_CAP_ID_MASK) != CXL_CM_CAP_ID_ARRAY) {
		fmt_snprintf(defect, n, "CXL Capability Header 0x%08x: ID is not 1", hdr);
		return;
	}
	c->cap_version = (uint8_t)((hdr >> CXL_CAP_VERSION_SHIFT) & CXL_CAP_VERSION_MASK);
	c->cm_version = (uint8_t)((hdr >> CXL_CM_VERSION_SHIFT) & CXL_CAP_VERSION_MASK);
	uint32_t nelem = hdr >> CXL_CM_ARRAY_SIZE_SHIFT;
	for (uint32_t i = 1; i <= nelem && r.st == HW_OK; i++) {
		uint32_t e = r32(&r, 4 * i);
		if (c->ncaps >= CXL_MAX_CM_CAPS) {
			fmt_snprintf(defect, n, "more than %d capabilities: the rest are not read", CXL_MAX_CM_CAPS);
			break;
		}
		struct cxl_cm_cap *k = &c->caps[c->ncaps++];
		k->id = (uint16_t)(e & CXL_CAP_ID_MASK);
		k->version = (uint8_t)((e >> CXL_CAP_VERSION_SHIFT) & CXL_CAP_VERSION_MASK);
		k->offset = (uint16_t)(e >> CXL_CAP_PTR_SHIFT);
	}
	for (int i = 0; i < c->ncaps && r.st == HW_OK; i++) {
		const struct cxl_cm_cap *k = &c->caps[i];
		/* Each structure must lie in the 4 KiB CXL.cache/mem range (Table 8-21). */
		uint32_t need = k->id == CXL_CM_CAP_RAS ? CXL_RAS_LEN : k->id == CXL_CM_CAP_LINK ? CXL_LINK_LEN :
				k->id == CXL_CM_CAP_HDM ? (uint32_t)CXL_HDM_DEC_TL_HI(0) + 4 : 4;
		if (k->offset + need > CXL_CM_RANGE_LEN) {
			fmt_snprintf(defect, n, "capability %u at 0x%x runs past the CXL.cache/mem range", k->id, k->offset);
			continue;
		}
		struct reader s = { env->hw, r.base + k->offset, HW_OK };
		if (k->id == CXL_CM_CAP_HDM && !c->hdm.present) {
			c->hdm.present = 1;
			uint32_t fit = (CXL_CM_RANGE_LEN - k->offset - CXL_HDM_DEC_BASE_LO(0)) / CXL_HDM_DEC_STRIDE;
			read_hdm(env, &s, c, fit < CXL_HDM_MAX_DECODERS ? fit : CXL_HDM_MAX_DECODERS, defect, n);
		} else if (k->id == CXL_CM_CAP_RAS && !c->ras.present) {
			c->ras.present = 1;
			c->ras.ue_status = r32(&s, CXL_RAS_UE_STATUS);
			c->ras.ue_mask = r32(&s, CXL_RAS_UE_MASK);
			c->ras.ue_severity = r32(&s, CXL_RAS_UE_SEVERITY);
			c->ras.ce_status = r32(&s, CXL_RAS_CE_STATUS);
			c->ras.ce_mask = r32(&s, CXL_RAS_CE_MASK);
			c->ras.cap_ctrl = r32(&s, CXL_RAS_CAP_CTRL);
			for (int w = 0; w < CXL_RAS_HEADER_LOG_DWORDS; w++)
				c->ras.header_log[w] = r32(&s, CXL_RAS_HEADER_LOG + 4u * (unsigned)w);
		} else if (k->id == CXL_CM_CAP_LINK && !c->link.present) {
			c->link.present = 1;
			c->link.ll_cap = r64(&s, CXL_LINK_LL_CAP);
			c->link.ll_ctrl_status = r64(&s, CXL_LINK_LL_CTRL_STATUS);
		}
		if (s.st != HW_OK) {
			c->st = s.st;
			fmt_snprintf(defect, n, "capability %u at 0x%llx: %s", k->id, (unsigned long long)s.base,
				     hw_status_name(s.st));
		}
	}
	if (r.st != HW_OK) {
		c->st = r.st;
		fmt_snprintf(defect, n, "capability array at 0x%llx: %s", (unsigned long long)r.base, hw_status_name(r.st));
	}
}
