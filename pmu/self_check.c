/* SPDX-License-Identifier: BSD-2-Clause */
#include "pmu/self_check.h"
#include "pmu/metrics.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define MILLI 1000u

const char *self_check_state_name(uint8_t state)
{
	static const char *const names[] = { "ok", "off", "not-advancing", "absent" };
	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "unknown";
}

/* Ratio counted / expected of one direction; 1 when it is judged and outside tolerance. */
static int judge(const char *dir, uint64_t expected, uint64_t counted, uint8_t have, uint64_t *ratio,
		 uint8_t *have_ratio, uint32_t tol, char *why, size_t n)
{
	if (!expected || !have)
		return 0;
	*ratio = metric_ratio_milli(counted, expected);
	*have_ratio = 1;
	/* |counted - expected| <= expected x tol / 1000, in integers (no rounding of the ratio) */
	unsigned __int128 diff = counted > expected ? counted - expected : expected - counted;
	if (diff * MILLI <= (unsigned __int128)expected * tol)
		return 0;
	if (!why[0]) {
		char r[24], t[24];
		fmt_milli(r, sizeof(r), *ratio);
		fmt_milli(t, sizeof(t), tol);
		fmt_snprintf(why, n, "%s: counted %llu bytes of %llu expected (ratio %s), outside 1 +- %s", dir,
			     (unsigned long long)counted, (unsigned long long)expected, r, t);
	}
	return 1;
}

void self_check_compute(const struct self_check_bytes *expected, const struct self_check_bytes *counted,
			uint32_t tolerance_milli, const char *absent_why, struct self_check *out)
{
	memset(out, 0, sizeof(*out));
	out->tolerance_milli = tolerance_milli ? tolerance_milli : SELF_CHECK_TOLERANCE_MILLI;
	out->expected_read = expected->read;
	out->expected_write = expected->write;
	out->state = SELF_CHECK_ABSENT;
	if (!counted) {
		fmt_snprintf(out->why, sizeof(out->why), "%s", absent_why && *absent_why ? absent_why : "no counters ran");
		return;
	}
	out->counted_read = counted->read;
	out->counted_write = counted->write;
	out->have_counted_read = counted->have_read;
	out->have_counted_write = counted->have_write;
	if (!expected->read && !expected->write) {
		fmt_snprintf(out->why, sizeof(out->why), "%s",
			     absent_why && *absent_why ? absent_why : "the window moves no DMA bytes");
		return;
	}
	int judged_read = expected->read && counted->have_read, judged_write = expected->write && counted->have_write;
	if (!judged_read && !judged_write) {
		fmt_snprintf(out->why, sizeof(out->why), "the counters give no PCIe %s bytes (their events were not counted)",
			     expected->write ? "write" : "read");
		return;
	}
	uint64_t seen = (counted->have_read ? counted->read : 0) + (counted->have_write ? counted->write : 0);
	if (!seen) {
		out->state = SELF_CHECK_NOT_ADVANCING;
		fmt_snprintf(out->why, sizeof(out->why), "the counters counted 0 bytes where %llu were expected",
			     (unsigned long long)(expected->read + expected->write));
		return;
	}
	int off = judge("read", expected->read, counted->read, counted->have_read, &out->ratio_read_milli,
			&out->have_ratio_read, out->tolerance_milli, out->why, sizeof(out->why));
	off |= judge("write", expected->write, counted->write, counted->have_write, &out->ratio_write_milli,
		     &out->have_ratio_write, out->tolerance_milli, out->why, sizeof(out->why));
	out->state = off ? SELF_CHECK_OFF : SELF_CHECK_OK;
	if (!off && (expected->read && !counted->have_read))
		fmt_snprintf(out->why, sizeof(out->why), "read not judged: its events were not counted");
	else if (!off && (expected->write && !counted->have_write))
		fmt_snprintf(out->why, sizeof(out->why), "write not judged: its events were not counted");
}
