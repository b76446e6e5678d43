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

/* The next comma-separated element of v[*pos..n), trimmed; 0 at the end. */
static int next_item(const char *v, size_t n, size_t *pos, const char **s, size_t *len)
{
	if (*pos > n)
		return 0;
	size_t b = *pos, e = b;
	while (e < n && v[e] != ',')
		e++;
	*pos = e + 1;
	while (b < e && blank(v[b]))
		b++;
	while (e > b && blank(v[e - 1]))
		e--;
	*s = v + b;
	*len = e - b;
	return 1;
}

/* A list of values of key k: 1..NVME_LIST_MAX of them, none twice. */
static int parse_list(const struct cfg_key *k, const char *v, size_t n, uint32_t *out, int *count, char *msg,
		      size_t msgsz)
{
	size_t pos = 0, len;
	const char *s;
	*count = 0;
	while (next_item(v, n, &pos, &s, &len)) {
		uint64_t x;
		char why[160];
		if (*count == NVME_LIST_MAX) {
			fmt_snprintf(msg, msgsz, "more than %d values", NVME_LIST_MAX);
			return -1;
		}
		if (cfg_value_parse(k, s, len, &x, why, sizeof(why)) != 0) {
			fmt_snprintf(msg, msgsz, "value %d: %s", *count + 1, why);
			return -1;
		}
		for (int i = 0; i < *count; i++)
			if (out[i] == x) {
				fmt_snprintf(msg, msgsz, "value %d: %.*s is listed twice", *count + 1, (int)(len < 24 ? len : 24), s);
				return -1;
			}
		out[(*count)++] = (uint32_t)x;
	}
	return 0;
}

int nvme_parse_bs(const char *v, size_t n, uint32_t *bs, int *count, char *msg, size_t msgsz)
{
	return parse_list(&bs_key, v, n, bs, count, msg, msgsz);
}

int nvme_parse_iodepth(const char *v, size_t n, uint32_t *depth, int *count, char *msg, size_t msgsz)
{
	return parse_list(&depth_key, v, n, depth, count, msg, msgsz);
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
	while (next_item(v, n, &pos, &s, &len)) {
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
