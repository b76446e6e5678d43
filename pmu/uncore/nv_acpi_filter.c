/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uncore_events strings of the NVIDIA ACPI-namespace PMUs (pmu/uncore/nv_acpi_pmu.h
 * nv_apmu_filter): which events are read and, for a GPU-peer NVLink-C2C / NV-CLink, which GPU
 * peers' instances are summed. Linux drivers/perf/nvidia_t410_c2c_pmu.c: format gpu_mask =
 * config1:0-1; get_filter_mask keeps the bits of the device's peers and takes all of them for 0;
 * nv_c2c_pmu_read_counter sums the instances of each selected peer's gpu<p>_en_mask. efiperf
 * refuses a bit beyond the device's GPU peers instead of dropping it.
 */
#include "pmu/uncore/nv_acpi_pmu.h"
#include "arch/lib/fmt.h"

#include <string.h>

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct nv_apmu_type *ty = g->ctx;
	for (uint8_t e = 0; e < ty->nev; e++)
		if (strlen(ty->ev[e].name) == len && !memcmp(ty->ev[e].name, name, len))
			return ev_set_named(g, t, "event", ty->ev[e].id, err, n) ? NULL : &ty->ev[e];
	fmt_snprintf(err, n, "unknown event '%.*s' (%s has:", (int)len, name, ty->pmu);
	for (uint8_t e = 0; e < ty->nev; e++)
		fmt_snprintf(err + strlen(err), n - strlen(err), " %s", ty->ev[e].name);
	fmt_snprintf(err + strlen(err), n - strlen(err), ")");
	return NULL;
}

static int term_of(const struct ev_grammar *g, const struct ev_terms *t, const char *field, uint64_t *v)
{
	int i = ev_field_index(g, field);
	if (i < 0 || !(t->set & (1u << i)))
		return 0;
	*v = t->v[i];
	return 1;
}

/* The event of code id the device's peer exposes, as an index; -1 with why. */
static int event_index(const struct nv_apmu_dev *d, uint64_t id, const char *tok, size_t len, char *why, size_t n)
{
	const struct nv_apmu_type *t = d->type;
	for (uint8_t e = 0; e < t->nev; e++) {
		if (t->ev[e].id != id)
			continue;
		if (nv_apmu_visible(d, &t->ev[e]))
			return e;
		fmt_snprintf(why, n, "%.*s: %s is not counted on %s (its peer exposes no such event)", (int)len, tok,
			     t->ev[e].name, d->name);
		return -1;
	}
	fmt_snprintf(why, n, "%.*s: event=0x%llx is not an event of %s", (int)len, tok, (unsigned long long)id,
		     d->name);
	return -1;
}

static int gpu_mask(struct nv_apmu_dev *d, uint64_t m, const char *tok, size_t len, char *why, size_t n)
{
	if (d->peer != NV_PEER_GPU) {
		fmt_snprintf(why, n, "%.*s: gpu_mask applies to a GPU peer; %s's peer is %s", (int)len, tok, d->name,
			     d->peer == NV_PEER_CPU ? "a CPU (_DSD cpu_en_mask)" : "CXL memory");
		return -1;
	}
	if (m >> d->npeers) {
		fmt_snprintf(why, n, "%.*s: gpu_mask=0x%llx selects GPU peers beyond the %u of %s (_DSD gpu0_en_mask, "
			     "gpu1_en_mask; valid bits 0x%x)", (int)len, tok, (unsigned long long)m, d->npeers, d->name,
			     (1u << d->npeers) - 1);
		return -1;
	}
	uint8_t sel = m ? (uint8_t)m : (uint8_t)((1u << d->npeers) - 1);
	if (d->gpu_mask_given && sel != d->gpu_mask) {
		fmt_snprintf(why, n, "%.*s: gpu_mask 0x%x differs from the 0x%x of an earlier string; efiperf takes one "
			     "gpu_mask per PMU", (int)len, tok, sel, d->gpu_mask);
		return -1;
	}
	d->gpu_mask = sel;
	d->gpu_mask_given = 1;
	d->inst_mask = 0;
	for (uint8_t p = 0; p < d->npeers; p++)
		if (sel >> p & 1)
			d->inst_mask |= d->peer_mask[p];
	return 0;
}

static int apply(struct nv_apmu_dev *d, const char *events, char *why, size_t n)
{
	const struct nv_apmu_type *t = d->type;
	struct ev_grammar g = { .pmu = { d->name }, .fields = t->fields, .nfields = t->nfields, .what = t->pmu,
				.lookup = lookup, .ctx = t };
	size_t nl = strlen(d->name), len;
	const char *s = events ? events : "", *tok;
	while ((len = ev_next_token(&s, &tok)) != 0) {
		if (len <= nl || memcmp(tok, d->name, nl) || tok[nl] != '/')
			continue;
		struct ev_terms terms;
		uint64_t v;
		if (ev_parse(&g, tok, len, 0, &terms, why, n))
			return -1;
		if (term_of(&g, &terms, "event", &v)) {
			int e = event_index(d, v, tok, len, why, n);
			if (e < 0)
				return -1;
			d->ev_sel |= (uint16_t)(1u << e);
		}
		if (term_of(&g, &terms, "gpu_mask", &v) && gpu_mask(d, v, tok, len, why, n))
			return -1;
	}
	/* latency needs the cycle counter: a selection always reads it */
	if (d->ev_sel)
		d->ev_sel |= (uint16_t)(1u << t->cycles);
	return 0;
}

int nv_apmu_filter(struct nv_apmu_dev *d, const char *events, char *why, size_t n)
{
	struct nv_apmu_dev next = *d;     /* d changes only when every string is good */
	if (apply(&next, events, why, n))
		return -1;
	*d = next;
	return 0;
}
