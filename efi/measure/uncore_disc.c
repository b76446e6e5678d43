/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/uncore_disc.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"
#include "pmu/uncore/intel_discovery.h"

#include <string.h>

/* Each socket's table, read and parsed once per run (the IMC, the IIO and the map use it). */
struct uncore_disc_table { struct disc_table t; int rc; char why[160]; };

/* Read and parse the table of socket s into c (defects reported). */
static void load(const struct hw *hw, const struct intel_pci_fn *scan, uint32_t nscan, uint32_t s, struct uncore_disc_table *c)
{
	uint32_t seen = 0;
	const struct intel_pci_fn *f = NULL;
	c->rc = -1;
	for (uint32_t i = 0; i < nscan && !f; i++)
		if (scan[i].vendor == 0x8086 && scan[i].device == DISC_DEVICE && seen++ == s)
			f = &scan[i];
	if (!f) {
		if (!seen)
			fmt_snprintf(c->why, sizeof(c->why), "no uncore discovery table found: no function 8086:%04x in the "
				     "PCI scan", DISC_DEVICE);
		else
			fmt_snprintf(c->why, sizeof(c->why), "no uncore discovery table found for socket %u: %u function(s) "
				     "8086:%04x in the PCI scan", s, seen, DISC_DEVICE);
		return;
	}
	uint8_t *buf = AllocatePool(DISC_READ_MAX);
	if (!buf) {
		fmt_snprintf(c->why, sizeof(c->why), "cannot allocate %u bytes for the uncore discovery table", DISC_READ_MAX);
		return;
	}
	size_t len = 0;
	uint64_t base = 0;
	char rwhy[160] = "";
	if (disc_read(hw, f->a, buf, DISC_READ_MAX, &len, &base, rwhy, sizeof(rwhy))) {
		fmt_snprintf(c->why, sizeof(c->why), "no uncore discovery table found: %s", rwhy);
	} else {
		if (rwhy[0])
			rep_error("uncore", "uncore discovery table of socket %u: %s", s, rwhy);
		c->rc = disc_parse(buf, len, &c->t);
		for (uint32_t d = 0; d < c->t.ndefects && d < DISC_MAX_DEFECTS; d++)
			rep_error("uncore", "uncore discovery table of socket %u at 0x%llx: %s", s, (unsigned long long)base,
				  c->t.defect[d]);
		if (c->t.ndefects > DISC_MAX_DEFECTS)
			rep_error("uncore", "uncore discovery table of socket %u: %u more defects", s,
				  c->t.ndefects - DISC_MAX_DEFECTS);
		if (c->rc)
			fmt_snprintf(c->why, sizeof(c->why), "uncore discovery table of socket %u at 0x%llx unusable: %s", s,
				     (unsigned long long)base, c->t.defect[0]);
	}
	FreePool(buf);
}

/* The parsed table of socket s, or NULL with why. */
static const struct disc_table *table_of(const struct hw *hw, struct uncore_scan *sc, uint32_t s, char *why, size_t wn)
{
	struct uncore_disc_table **cache = sc->table;
	if (s >= UNC_MAX_PKGS) {
		fmt_snprintf(why, wn, "socket %u: beyond %u sockets", s, UNC_MAX_PKGS);
		return NULL;
	}
	if (!cache[s]) {
		cache[s] = AllocateZeroPool(sizeof(*cache[s]));
		if (!cache[s]) {
			fmt_snprintf(why, wn, "cannot allocate the discovery table (%u bytes)", (unsigned)sizeof(*cache[s]));
			return NULL;
		}
		load(hw, sc->fn, sc->n, s, cache[s]);
	}
	if (cache[s]->rc) {
		fmt_snprintf(why, wn, "%s", cache[s]->why);
		return NULL;
	}
	return &cache[s]->t;
}

void uncore_disc_free(struct uncore_scan *sc)
{
	for (uint32_t s = 0; s < UNC_MAX_PKGS; s++)
		if (sc->table[s]) {
			FreePool(sc->table[s]);
			sc->table[s] = NULL;
		}
	if (sc->fn)
		FreePool(sc->fn);
	sc->fn = NULL;
	sc->n = 0;
}

int uncore_disc_units(const struct hw *hw, const struct intel_uncore_platform *ip, enum intel_box bx,
		      struct uncore_scan *sc, uint32_t nsock, struct intel_unit *units,
		      uint32_t max, uint32_t *n, struct uncore_box_type *ty, char *why, size_t wn)
{
	*n = 0;
	for (uint32_t s = 0; s < nsock && *n < max; s++) {
		uint32_t k = 0;
		char uwhy[160] = "";
		struct uncore_box_type sty;
		const struct disc_table *t = table_of(hw, sc, s, why, wn);
		if (!t)
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
	return *n ? 0 : -1;
}

void uncore_disc_iio_map(const struct hw *hw, const struct intel_uncore_platform *ip, struct uncore_scan *sc,
			 uint32_t s, struct iio_map *m)
{
	char why[160] = "";
	const struct disc_table *t = table_of(hw, sc, s, why, sizeof(why));
	if (t) {
		intel_iio_map_disc(hw, ip, sc->fn, sc->n, t, s, m);
		return;
	}
	memset(m, 0, sizeof(*m));
	m->method = IIO_MAP_DISCOVERY;
	fmt_snprintf(m->why, sizeof(m->why), "%s", why);
}
