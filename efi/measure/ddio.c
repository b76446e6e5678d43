/* SPDX-License-Identifier: BSD-2-Clause */
/* The DDIO sweep's sizes and per-point hit ratio (efi/measure/ddio.h). Pure. */
#include "efi/measure/ddio.h"
#include "efi/config/config_value.h"
#include "arch/lib/fmt.h"
#include "pmu/metrics.h"

#include <string.h>

static const struct cfg_key size_key = { "ddio_sweep", CFG_T_BYTES, "BYTES", NULL, 0, DDIO_BUF_MIN, DDIO_BUF_MAX,
					 DDIO_BUF_MIN, 0, 4, NULL, NULL, NULL };

int ddio_parse_sizes(const char *v, size_t n, uint32_t *sizes, int *count, char *msg, size_t msgsz)
{
	*count = 0;
	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n == 0 || (n == 4 && memcmp(v, "none", 4) == 0))
		return 0;
	return cfg_value_list(&size_key, v, n, sizes, DDIO_MAX_POINTS, count, msg, msgsz);
}

int ddio_sizes_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	uint32_t sizes[DDIO_MAX_POINTS];
	int count;
	return ddio_parse_sizes(v, n, sizes, &count, msg, msgsz);
}

void ddio_ratio_of(const struct cha_metric_values *m, uint64_t moved_bytes, const char *absent_why,
		   struct ddio_ratio *r)
{
	memset(r, 0, sizeof(*r));
	r->state = DDIO_RATIO_ABSENT;
	if (!m) {
		fmt_snprintf(r->why, sizeof(r->why), "%s", absent_why ? absent_why : "no CHA counters");
		return;
	}
	r->hits = m->hits;
	r->misses = m->misses;
	if (!m->hit_miss_counted) {
		fmt_snprintf(r->why, sizeof(r->why), "cha_events count no IO hit and miss pair "
			     "(TOR_INSERTS.IO_HIT and TOR_INSERTS.IO_MISS, or one request type's hit and miss)");
		return;
	}
	if (!moved_bytes) {
		fmt_snprintf(r->why, sizeof(r->why), "the device moved no bytes in the window");
		return;
	}
	if (r->hits + r->misses == 0) {
		r->state = DDIO_RATIO_NOT_ADVANCING;
		fmt_snprintf(r->why, sizeof(r->why), "no IO hit or miss counted while the device moved %llu bytes",
			     (unsigned long long)moved_bytes);
		return;
	}
	r->state = DDIO_RATIO_OK;
	r->ratio_milli = metric_ratio_milli(r->hits, r->hits + r->misses);
}

const char *ddio_state_name(uint8_t state)
{
	static const char *const names[] = { "ok", "not-advancing", "absent" };
	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}
