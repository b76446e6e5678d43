/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/uncore_disc.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"
#include "pmu/uncore/intel_discovery.h"

#include <string.h>

/* Bytes read of one table at most: 1024 entries of 32 bytes (the global entry's max_units is
 * 10 bits); a table that claims more is read this far and named short by the parser. */
#define TABLE_MAX (1024u * 32u)

/* The table of socket s parsed into *t (defects reported). 0, or -1 with why. */
static int table_of(const struct hw *hw, const struct intel_pci_fn *scan, uint32_t nscan, uint32_t s,
		    struct disc_table *t, char *why, size_t wn)
{
	uint32_t seen = 0;
	const struct intel_pci_fn *f = NULL;
	for (uint32_t i = 0; i < nscan && !f; i++)
		if (scan[i].vendor == 0x8086 && scan[i].device == DISC_DEVICE && seen++ == s)
			f = &scan[i];
	if (!f) {
		if (!seen)
			fmt_snprintf(why, wn, "no uncore discovery table found: no function 8086:%04x in the PCI scan", DISC_DEVICE);
		else
			fmt_snprintf(why, wn, "no uncore discovery table found for socket %u: %u function(s) 8086:%04x in the "
				     "PCI scan", s, seen, DISC_DEVICE);
		return -1;
	}
	uint8_t *buf = AllocatePool(TABLE_MAX);
	if (!buf) {
		fmt_snprintf(why, wn, "cannot allocate %u bytes for the uncore discovery table", TABLE_MAX);
		return -1;
	}
	size_t len = 0;
	uint64_t base = 0;
	char rwhy[160] = "";
	int rc = disc_read(hw, f->a, buf, TABLE_MAX, &len, &base, rwhy, sizeof(rwhy));
	if (rc) {
		fmt_snprintf(why, wn, "no uncore discovery table found: %s", rwhy);
	} else {
		static uint32_t reported;          /* a socket's table defects are reported once */
		int say = s >= 32 || !(reported >> s & 1);
		if (s < 32)
			reported |= 1u << s;
		if (rwhy[0] && say)
			rep_error("uncore", "uncore discovery table of socket %u: %s", s, rwhy);
		rc = disc_parse(buf, len, t);
		for (uint32_t d = 0; say && d < t->ndefects && d < DISC_MAX_DEFECTS; d++)
			rep_error("uncore", "uncore discovery table of socket %u at 0x%llx: %s", s, (unsigned long long)base,
				  t->defect[d]);
		if (say && t->ndefects > DISC_MAX_DEFECTS)
			rep_error("uncore", "uncore discovery table of socket %u: %u more defects", s,
				  t->ndefects - DISC_MAX_DEFECTS);
		if (rc)
			fmt_snprintf(why, wn, "uncore discovery table of socket %u at 0x%llx unusable: %s", s,
				     (unsigned long long)base, t->defect[0]);
	}
	FreePool(buf);
	return rc;
}

int uncore_disc_units(const struct hw *hw, const struct intel_uncore_platform *ip, enum intel_box bx,
		      const struct intel_pci_fn *scan, uint32_t nscan, uint32_t nsock, struct intel_unit *units,
		      uint32_t max, uint32_t *n, struct uncore_box_type *ty, char *why, size_t wn)
{
	struct disc_table *t = AllocatePool(sizeof(*t));
	*n = 0;
	if (!t) {
		fmt_snprintf(why, wn, "cannot allocate the discovery table (%u bytes)", (unsigned)sizeof(*t));
		return -1;
	}
	for (uint32_t s = 0; s < nsock && *n < max; s++) {
		uint32_t k = 0;
		char uwhy[160] = "";
		struct uncore_box_type sty;
		if (table_of(hw, scan, nscan, s, t, why, wn))
			continue;
		if (intel_disc_units(ip, bx, t, (uint16_t)s, units + *n, max - *n, &k, &sty, uwhy, sizeof(uwhy))) {
			fmt_snprintf(why, wn, "%s", uwhy);
			continue;
		}
		if (uwhy[0])
			rep_error("uncore", "socket %u: %s", s, uwhy);
		if (*n && (sty.num_counters != ty->num_counters || sty.ctl0 != ty->ctl0 || sty.ctr0 != ty->ctr0 ||
			   sty.ctr_bits != ty->ctr_bits)) {
			rep_error("uncore", "socket %u: %s units differ from socket 0's in the discovery table; left out", s,
				  sty.name);
			continue;
		}
		*ty = sty;
		*n += k;
	}
	FreePool(t);
	return *n ? 0 : -1;
}

void uncore_disc_iio_map(const struct hw *hw, const struct intel_uncore_platform *ip, const struct intel_pci_fn *scan,
			 uint32_t nscan, uint32_t s, struct iio_map *m)
{
	struct disc_table *t = AllocatePool(sizeof(*t));
	char why[160] = "cannot allocate the discovery table";
	if (t && !table_of(hw, scan, nscan, s, t, why, sizeof(why))) {
		intel_iio_map_disc(hw, ip, scan, nscan, t, s, m);
	} else {
		memset(m, 0, sizeof(*m));
		m->method = IIO_MAP_DISCOVERY;
		fmt_snprintf(m->why, sizeof(m->why), "%s", why);
	}
	if (t)
		FreePool(t);
}
