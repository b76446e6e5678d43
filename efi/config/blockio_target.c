/* SPDX-License-Identifier: BSD-2-Clause */
/* blockio_target: parsing `dma_write_lba` (efi/config/blockio_target.h). */
#include "efi/config/blockio_target.h"

#include <string.h>
#include "efi/config/bdf.h"
#include "arch/lib/fmt.h"
#include "arch/lib/parse_num.h"

#define SHAPE "none, or 'BDF[/nsN|/portN] FIRST-LAST' such as '0000:00:07.0 2048-4095'"
#define UNIT_NS "ns"
#define UNIT_PORT "port"

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* "nsN" or "portN" (decimal) into t->unit and t->unit_no. 0 or -1. */
static int parse_unit(const char *u, size_t n, struct blockio_target *t)
{
	uint64_t no;
	size_t ns = sizeof(UNIT_NS) - 1, port = sizeof(UNIT_PORT) - 1;
	if (n > ns && memcmp(u, UNIT_NS, ns) == 0 && u[ns] >= '0' && u[ns] <= '9' &&
	    num_parse_u64(u + ns, n - ns, BLOCKIO_NSID_MAX, &no) == 0 && no >= 1) {
		t->unit = BLOCKIO_UNIT_NS;
	} else if (n > port && memcmp(u, UNIT_PORT, port) == 0 && u[port] >= '0' && u[port] <= '9' &&
		   num_parse_u64(u + port, n - port, BLOCKIO_PORT_MAX, &no) == 0) {
		t->unit = BLOCKIO_UNIT_PORT;
	} else {
		return -1;
	}
	t->unit_no = (uint32_t)no;
	return 0;
}

int blockio_target_parse(const char *v, size_t n, struct blockio_target *t, char *msg, size_t msgsz)
{
	*t = (struct blockio_target){ 0 };
	while (n && is_blank(*v))
		v++, n--;
	while (n && is_blank(v[n - 1]))
		n--;
	if (n == 4 && memcmp(v, "none", 4) == 0)
		return 0;
	size_t b = 0;
	while (b < n && !is_blank(v[b]))
		b++;
	if (b == n) {
		fmt_snprintf(msg, msgsz, "expected %s", SHAPE);
		return -1;
	}
	size_t slash = 0;
	while (slash < b && v[slash] != '/')
		slash++;
	if (cfg_parse_bdf(v, slash, &t->bdf) != 0) {
		fmt_snprintf(msg, msgsz, "'%.*s' is not a PCI function (expected %s)", (int)(slash < 16 ? slash : 16), v, SHAPE);
		return -1;
	}
	if (slash < b && parse_unit(v + slash + 1, b - slash - 1, t) != 0) {
		fmt_snprintf(msg, msgsz, "'%.*s' is not a disk of the function (expected nsN, an NVMe namespace 1..%u, or "
			     "portN, a SATA port 0..%u)", (int)(b - slash - 1 < 16 ? b - slash - 1 : 16), v + slash + 1,
			     BLOCKIO_NSID_MAX, BLOCKIO_PORT_MAX);
		t->unit = BLOCKIO_UNIT_ANY;
		return -1;
	}
	const char *r = v + b;
	size_t rn = n - b;
	while (rn && is_blank(*r))
		r++, rn--;
	size_t dash = 0;
	while (dash < rn && r[dash] != '-')
		dash++;
	if (num_parse_u64(r, dash, BLOCKIO_LBA_MAX, &t->first) != 0 || (dash < rn && num_parse_u64(r + dash + 1, rn - dash - 1, BLOCKIO_LBA_MAX, &t->last) != 0)) {
		fmt_snprintf(msg, msgsz, "'%.*s' is not a block range FIRST-LAST (decimal or 0x hex; expected %s)",
			     (int)(rn < 24 ? rn : 24), r, SHAPE);
		return -1;
	}
	if (dash == rn)
		t->last = t->first;
	if (t->last < t->first) {
		fmt_snprintf(msg, msgsz, "block range runs backwards (%llu-%llu)", (unsigned long long)t->first,
			     (unsigned long long)t->last);
		return -1;
	}
	t->set = 1;
	return 0;
}
