/* SPDX-License-Identifier: BSD-2-Clause */
/* Committing HDM decoder 0 along one path for a CFMWS window: see efi/pcie/cxl_commit.h. */
#include "efi/pcie/cxl_commit.h"
#include "arch/lib/fmt.h"

#define ALIGN_256M (256ull << 20)
#define CM(h)      ((h)->comp + CXL_CM_OFFSET)

/* The HDM decoder capability's offset in the CXL.cache/mem range, 0 when there is none. */
static uint32_t hdm_offset(const struct cxl_env *env, const struct cxl_commit_hop *h, hw_status *st)
{
	uint32_t hdr;
	if ((*st = hw_mmio_read32(env->hw, CM(h), &hdr)) != HW_OK)
		return 0;
	uint32_t nelem = hdr >> CXL_CM_ARRAY_SIZE_SHIFT;
	for (uint32_t i = 1; i <= nelem && i < CXL_CM_RANGE_LEN / 4; i++) {
		uint32_t e;
		if ((*st = hw_mmio_read32(env->hw, CM(h) + 4 * i, &e)) != HW_OK)
			return 0;
		if ((e & CXL_CAP_ID_MASK) == CXL_CM_CAP_HDM && (e >> CXL_CAP_PTR_SHIFT) + CXL_HDM_DEC_TL_HI(0) + 4 <= CXL_CM_RANGE_LEN)
			return e >> CXL_CAP_PTR_SHIFT;
	}
	return 0;
}

static int w32(const struct cxl_env *env, struct saveset *s, uint64_t a, uint32_t v, const char *hop, const char *what,
	       char *why, size_t n)
{
	hw_status st = saveset_write(env->hw, s, reg_mmio32(a), v);
	if (st != HW_OK)
		fmt_snprintf(why, n, "%s: %s write at 0x%llx: %s", hop, what, (unsigned long long)a, hw_status_name(st));
	return st == HW_OK ? 0 : -1;
}

int cxl_commit_window(const struct cxl_env *env, uint64_t base, uint64_t size, const struct cxl_commit_hop *hop, int nhops,
		      struct saveset *s, char *why, size_t n)
{
	uint32_t off[CXL_COMMIT_MAX_HOPS];
	hw_status st = HW_OK;
	if (nhops <= 0 || nhops > CXL_COMMIT_MAX_HOPS) {
		fmt_snprintf(why, n, "%d hops: 1 to %d", nhops, CXL_COMMIT_MAX_HOPS);
		return -1;
	}
	if (!size || base % ALIGN_256M || size % ALIGN_256M) {
		fmt_snprintf(why, n, "window 0x%llx+0x%llx is not 256 MiB aligned", (unsigned long long)base,
			     (unsigned long long)size);
		return -1;
	}
	/* Refuse before writing anything: a committed or locked decoder 0 is the firmware's. */
	for (int i = 0; i < nhops; i++) {
		uint32_t ctrl;
		off[i] = hdm_offset(env, &hop[i], &st);
		if (!off[i]) {
			fmt_snprintf(why, n, "%s: %s", hop[i].name, st != HW_OK ? hw_status_name(st) : "no HDM decoder capability");
			return -1;
		}
		if ((st = hw_mmio_read32(env->hw, CM(&hop[i]) + off[i] + CXL_HDM_DEC_CTRL(0), &ctrl)) != HW_OK) {
			fmt_snprintf(why, n, "%s: decoder 0 control: %s", hop[i].name, hw_status_name(st));
			return -1;
		}
		if (ctrl & (CXL_HDM_CTRL_COMMITTED | CXL_HDM_CTRL_COMMIT | CXL_HDM_CTRL_LOCK_ON_COMMIT)) {
			fmt_snprintf(why, n, "%s: decoder 0 already %s (control 0x%x): not changed", hop[i].name,
				     ctrl & CXL_HDM_CTRL_LOCK_ON_COMMIT ? "locked" : "committed", ctrl);
			return -1;
		}
	}
	/* Host bridge first, the device last (8.2.4.20.12): each committed before the next. */
	for (int i = 0; i < nhops; i++) {
		const struct cxl_commit_hop *h = &hop[i];
		uint64_t d = CM(h) + off[i];
		uint32_t g;
		if ((st = saveset_save(env->hw, s, reg_mmio32(d + CXL_HDM_GLOBAL_CTRL), NULL)) != HW_OK ||
		    (st = hw_mmio_read32(env->hw, d + CXL_HDM_GLOBAL_CTRL, &g)) != HW_OK) {
			fmt_snprintf(why, n, "%s: Global Control: %s", h->name, hw_status_name(st));
			return -1;
		}
		if (w32(env, s, d + CXL_HDM_GLOBAL_CTRL, g | CXL_HDM_GLOBAL_ENABLE, h->name, "Global Control", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_BASE_LO(0), (uint32_t)base & CXL_HDM_ADDR_LO_MASK, h->name, "Base Low", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_BASE_HI(0), (uint32_t)(base >> 32), h->name, "Base High", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_SIZE_LO(0), (uint32_t)size & CXL_HDM_ADDR_LO_MASK, h->name, "Size Low", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_SIZE_HI(0), (uint32_t)(size >> 32), h->name, "Size High", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_TL_LO(0), h->is_device ? 0 : h->target_port, h->name,
			h->is_device ? "DPA Skip Low" : "Target List Low", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_TL_HI(0), 0, h->name, h->is_device ? "DPA Skip High" : "Target List High", why, n) ||
		    w32(env, s, d + CXL_HDM_DEC_CTRL(0), CXL_HDM_CTRL_TARGET_TYPE | CXL_HDM_CTRL_COMMIT, h->name, "Control", why, n))
			return -1;
		uint64_t t0 = env->now(env->arg), limit = env->hz / 1000 * CXL_COMMIT_TIMEOUT_MS;
		for (;;) {
			uint32_t ctrl;
			if ((st = hw_mmio_read32(env->hw, d + CXL_HDM_DEC_CTRL(0), &ctrl)) != HW_OK) {
				fmt_snprintf(why, n, "%s: decoder 0 control: %s", h->name, hw_status_name(st));
				return -1;
			}
			if (ctrl & CXL_HDM_CTRL_ERR_NOT_COMMITTED) {
				fmt_snprintf(why, n, "%s: decoder 0 Error Not Committed (control 0x%x)", h->name, ctrl);
				return -1;
			}
			if (ctrl & CXL_HDM_CTRL_COMMITTED)
				break;
			if (env->now(env->arg) - t0 > limit) {
				fmt_snprintf(why, n, "%s: decoder 0 not Committed after %u ms", h->name, CXL_COMMIT_TIMEOUT_MS);
				return -1;
			}
		}
	}
	return 0;
}
