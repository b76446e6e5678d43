/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVMe measurement's list settings (efi/nvme/nvme_params.h). Each element is one value of
 * the config's own types (efi/config/config_value.h), so sizes and numbers read as everywhere
 * else in efiperf.cfg. */
#include "efi/nvme/nvme_params.h"
#include "efi/config/bdf.h"
#include "efi/config/config_value.h"
#include "arch/lib/fmt.h"
#include <string.h>

static const struct cfg_key bs_key = { "nvme_bs", CFG_T_BYTES, "BYTES", NULL, 0, NVME_BS_MIN, NVME_BS_MAX,
				       NVME_BS_MIN, 0, 4, NULL, NULL, NULL };
static const struct cfg_key depth_key = { "nvme_iodepth", CFG_T_UINT, "N", NULL, 0, 1, NVME_IODEPTH_MAX, 0, 0, 4,
					  NULL, NULL, NULL };

static int blank(char ch) { return ch == ' ' || ch == '\t'; }

int nvme_parse_bs(const char *v, size_t n, uint32_t *bs, int *count, char *msg, size_t msgsz)
{
	return cfg_value_list(&bs_key, v, n, bs, NVME_LIST_MAX, count, msg, msgsz);
}

int nvme_parse_iodepth(const char *v, size_t n, uint32_t *depth, int *count, char *msg, size_t msgsz)
{
	return cfg_value_list(&depth_key, v, n, depth, NVME_LIST_MAX, count, msg, msgsz);
}

int nvme_parse_ctrls(const char *v, size_t n, struct nvme_ctrl_list *l, char *msg, size_t msgsz)
{
	*l = (struct nvme_ctrl_list){ 0 };
	size_t pos = 0, len;
	const char *s;
	while (n && blank(*v))
		v++, n--;
	while (n && blank(v[n - 1]))
		n--;
	if ((n == 4 && memcmp(v, "none", 4) == 0) || n == 0)
		return 0;
	if (n == 3 && memcmp(v, "all", 3) == 0) {
		l->all = 1;
		return 0;
	}
	while (cfg_next_item(v, n, &pos, &s, &len)) {
		uint64_t bdf;
		if (l->count == NVME_MAX_CTRLS) {
			fmt_snprintf(msg, msgsz, "more than %d controllers", NVME_MAX_CTRLS);
			return -1;
		}
		if (cfg_parse_bdf(s, len, &bdf) != 0) {
			fmt_snprintf(msg, msgsz, "'%.*s' is not a PCI function (expected none, all, or BDF[,BDF...] such as 0000:01:00.0)",
				     (int)(len < 24 ? len : 24), s);
			return -1;
		}
		for (int i = 0; i < l->count; i++)
			if (l->bdf[i] == bdf) {
				fmt_snprintf(msg, msgsz, "'%.*s' is listed twice", (int)(len < 24 ? len : 24), s);
				return -1;
			}
		l->bdf[l->count++] = bdf;
	}
	return 0;
}

int nvme_ctrls_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	struct nvme_ctrl_list l;
	return nvme_parse_ctrls(v, n, &l, msg, msgsz);
}

int nvme_bs_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	uint32_t x[NVME_LIST_MAX];
	int c;
	return nvme_parse_bs(v, n, x, &c, msg, msgsz);
}

int nvme_iodepth_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	uint32_t x[NVME_LIST_MAX];
	int c;
	return nvme_parse_iodepth(v, n, x, &c, msg, msgsz);
}
