/* SPDX-License-Identifier: BSD-2-Clause */
/* NVIDIA CoreSight PMUs: names, event strings, formulas (pmu/uncore/nvidia_cspmu.h; the PCIE-TGT
 * address-filter slots: pmu/uncore/nv_tgt_filter.c). */
#include "pmu/uncore/nvidia_cspmu.h"
#include "arch/lib/fmt.h"
#include "pmu/latency.h"

#include <string.h>

size_t nv_cspmu_name(const struct nv_cspmu_desc *d, uint32_t socket, uint32_t rc, uint32_t apmt_id, char *buf,
		     size_t n)
{
	if (!d->match)
		return fmt_snprintf(buf, n, "%s_%u", d->pmu, apmt_id);
	if (d->per_rc)
		return fmt_snprintf(buf, n, "%s_%u_rc_%u", d->pmu, socket, rc);
	return fmt_snprintf(buf, n, "%s_%u", d->pmu, socket);
}

static const struct nv_cspmu_event *find(const struct nv_cspmu_desc *d, const char *name, size_t len)
{
	for (unsigned i = 0; i < d->nevents; i++)
		if (strlen(d->events[i].name) == len && !memcmp(d->events[i].name, name, len))
			return &d->events[i];
	return NULL;
}

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct nv_cspmu_event *e = find(g->ctx, name, len);
	if (!e || ev_set_named(g, t, "event", e->event, err, n))
		return NULL;
	return e;
}

static uint64_t term(const struct ev_grammar *g, const struct ev_terms *t, const char *field)
{
	int i = field ? ev_field_index(g, field) : -1;
	return i >= 0 && (t->set & (1u << i)) ? t->v[i] : 0;
}

/* nv_cspmu_encode, also giving the encoding's registers (3, 4: PCIE-TGT dst_addr_base / mask). */
static int encode(const struct nv_cspmu_desc *d, const char *name, const char *spec, size_t len,
		  struct cspmu_event *ev, const struct nv_cspmu_event **named, uint64_t reg[EV_MAX_REGS], char *why,
		  size_t n)
{
	struct ev_grammar g = { .pmu = { name }, .fields = d->fields, .nfields = d->nfields, .what = d->unit,
				.lookup = lookup, .ctx = d };
	struct ev_terms t;
	if (ev_parse(&g, spec, len, 0, &t, why, n))
		return -1;
	if (d->excl[0] && term(&g, &t, d->excl[0]) && term(&g, &t, d->excl[1])) {
		fmt_snprintf(why, n, "%.*s: %s and %s are mutually exclusive", (int)len, spec, d->excl[0], d->excl[1]);
		return -1;
	}
	memset(reg, 0, EV_MAX_REGS * sizeof(reg[0]));
	ev_encode(&g, &t, reg);
	for (unsigned i = 0; i < d->ndflt; i++)
		if (!(reg[d->dflt[i].reg] & d->dflt[i].test))
			reg[d->dflt[i].reg] |= d->dflt[i].set;
	const struct nv_cspmu_event *cyc = find(d, "cycles", 6);
	*ev = (struct cspmu_event){ .type = (uint32_t)reg[0], .filt = (uint32_t)reg[1], .filt2 = (uint32_t)reg[2],
				    .use_filt = !d->no_filt, .use_filt2 = d->use_filt2 };
	if (cyc && reg[0] == cyc->event) {
		ev->cycles = 1;
		ev->type = 0;
		if (!d->cc_filt)
			ev->filt = 0;
	}
	if (named)
		*named = t.named;
	return 0;
}

int nv_cspmu_encode(const struct nv_cspmu_desc *d, const char *name, const char *spec, size_t len,
		    struct cspmu_event *ev, const struct nv_cspmu_event **named, char *why, size_t n)
{
	uint64_t reg[EV_MAX_REGS];
	return encode(d, name, spec, len, ev, named, reg, why, n);
}

/* A PCIE-TGT event with dst_addr_en: its slot (shared with an earlier event of the same base
 * and mask, compared as given, as Linux's pcie_tgt_find_addr_idx does) selected by
 * PMEVFILT2R[15:8]. 0, or -1 with why when the 8 slots are taken. */
static int take_slot(struct nv_cspmu_req *req, struct cspmu_event *ev, uint64_t base, uint64_t mask, char *why,
		     size_t n)
{
	uint32_t s = 0;
	while (s < req->nslots && !(req->slot[s].mask == mask && req->slot[s].base == base))
		s++;
	if (s == NV_TGT_SLOTS) {
		fmt_snprintf(why, n, "%s: more than %u distinct dst_addr_base/dst_addr_mask pairs; the PCIE-TGT PMU has "
			     "%u address-filter slots", req->name, NV_TGT_SLOTS, NV_TGT_SLOTS);
		return -1;
	}
	if (s == req->nslots)
		req->slot[req->nslots++] = (struct nv_tgt_slot){ base, mask };
	ev->filt2 = nv_tgt_filt2(ev->filt2 & NV_TGT_FILT2_RP, 1u << s);
	return 0;
}

static int add(const struct nv_cspmu_desc *d, struct nv_cspmu_req *req, const char *spec, size_t len, char *why,
	       size_t n)
{
	if (req->nev >= CSPMU_MAX_EVENTS) {
		fmt_snprintf(why, n, "%s: more than %u events", req->name, CSPMU_MAX_EVENTS);
		return -1;
	}
	const struct nv_cspmu_event *e = NULL;
	uint32_t i = req->nev;
	uint64_t reg[EV_MAX_REGS];
	if (encode(d, req->name, spec, len, &req->ev[i], &e, reg, why, n))
		return -1;
	if (d->addr_slots && !req->ev[i].cycles && (req->ev[i].filt2 & NV_TGT_FILT2_ADDR_EN) &&
	    take_slot(req, &req->ev[i], reg[3], reg[4], why, n))
		return -1;
	fmt_snprintf(req->spec[i], sizeof(req->spec[i]), "%.*s", (int)len, spec);
	req->evname[i] = e ? e->name : NULL;
	if (!e)   /* a raw event=N: the table's event of that code, if any */
		for (unsigned k = 0; k < d->nevents; k++)
			if (d->events[k].event == (req->ev[i].cycles ? find(d, "cycles", 6)->event : req->ev[i].type))
				e = &d->events[k];
	req->role[i] = e ? e->role : NVR_NONE;
	req->chk[i] = e ? e->chk : 0;
	req->nev++;
	return 0;
}

static int one_per_pmu(const struct nv_cspmu_desc *d, const struct nv_cspmu_req *req, char *why, size_t n)
{
	int first = -1;
	for (uint32_t i = 0; d->one_per_pmu_en && i < req->nev; i++) {
		if (!(req->ev[i].filt & d->one_per_pmu_en))
			continue;
		if (first < 0)
			first = (int)i;
		else if ((req->ev[i].filt ^ req->ev[first].filt) & d->one_per_pmu_mask) {
			fmt_snprintf(why, n, "%s: events %d and %u filter different BDFs; the PMU has one BDF filter",
				     req->name, first + 1, i + 1);
			return -1;
		}
	}
	return 0;
}

int nv_cspmu_request(const struct nv_cspmu_desc *d, const char *name, const struct cspmu_info *info,
		     const char *events, struct nv_cspmu_req *req, char *why, size_t n)
{
	memset(req, 0, sizeof(*req));
	req->d = d;
	fmt_snprintf(req->name, sizeof(req->name), "%s", name);
	size_t nl = strlen(req->name);
	const char *s = events ? events : "", *tok;
	size_t len;
	int any = 0;
	while ((len = ev_next_token(&s, &tok)) != 0) {
		any = 1;
		if (len <= nl || memcmp(tok, req->name, nl) || tok[nl] != '/')
			continue;
		if (add(d, req, tok, len, why, n))
			return -1;
	}
	if (any && !req->nev)
		return 1;
	if (!req->nev) {
		/* the default set: the cycle counter when there is one, then as many events as the
		 * PMU has event counters */
		uint32_t room = info->nevcntr;
		for (unsigned k = 0; k < d->nevents; k++) {
			const struct nv_cspmu_event *e = &d->events[k];
			int cyc = e->role == NVR_CYCLES;
			if (!e->dflt)
				continue;
			if (cyc ? !info->cc : !room) {
				req->dropped++;
				continue;
			}
			char spec[96];
			size_t sl = fmt_snprintf(spec, sizeof(spec), "%s/%s/", req->name, e->name);
			if (add(d, req, spec, sl, why, n))
				return -1;
			if (!cyc)
				room--;
		}
		if (!req->nev) {
			fmt_snprintf(why, n, "%s: no default event fits (%u event counters, cycle counter %s)", req->name,
				     info->nevcntr, info->cc ? "present" : "absent");
			return -1;
		}
	}
	if (one_per_pmu(d, req, why, n))
		return -1;
	return cspmu_assign(info, req->ev, req->nev, why, n);
}

#define NV_RP_MASK 0xFFu
#define NV_PCIE_BDF_BITS 0x01FFFF00u     /* PCIE PMEVFILTR src_bdf [23:8] and src_bdf_en [24] */

int nv_cspmu_set_rp(struct nv_cspmu_req *req, unsigned rp)
{
	if (!req->d->rp_reg || rp > 7)
		return -1;
	for (uint32_t i = 0; i < req->nev; i++) {
		struct cspmu_event *e = &req->ev[i];
		if (e->cycles)
			continue;
		uint32_t *f = req->d->rp_reg == 1 ? &e->filt : &e->filt2;
		*f = (*f & ~NV_RP_MASK) | (1u << rp);
		if (req->d->rp_reg == 1)
			*f &= ~NV_PCIE_BDF_BITS;
	}
	return 0;
}

/* ---- formulas ------------------------------------------------------------------------- */

static uint64_t milli(uint64_t a, uint64_t b)
{
	return b ? (uint64_t)(((unsigned __int128)a * 1000 + b / 2) / b) : 0;
}

static void put(struct nv_cspmu_metrics *o, const char *name, const char *suffix, uint64_t v, const char *formula)
{
	if (o->n >= NV_CSPMU_MAX_METRICS)
		return;
	struct nv_cspmu_metric *m = &o->m[o->n++];
	fmt_snprintf(m->name, sizeof(m->name), "%s%s", name, suffix);
	m->milli = v;
	fmt_snprintf(m->formula, sizeof(m->formula), "%s", formula);
}

static const char *find_str(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (; s && *s; s++)
		if (!strncmp(s, w, n))
			return s;
	return NULL;
}

/* The request event paired with a cum_outs event: its name with "cum_outs" read as "req". */
static int pair_req(const struct nv_cspmu_req *req, uint32_t c)
{
	const char *cn = req->evname[c];
	const char *at = find_str(cn, "cum_outs");
	for (uint32_t i = 0; at && i < req->nev; i++) {
		const char *rn = req->evname[i];
		size_t pre = (size_t)(at - cn);
		if (req->role[i] == NVR_REQ_RD && rn && !strncmp(rn, cn, pre) && !strncmp(rn + pre, "req", 3) &&
		    !strcmp(rn + pre + 3, at + 8))
			return (int)i;
	}
	return -1;
}

void nv_cspmu_metrics(const struct nv_cspmu_req *req, const uint64_t *raw, uint64_t window_ns,
		      struct nv_cspmu_metrics *o)
{
	memset(o, 0, sizeof(*o));
	int cyc = -1;
	char f[96];
	for (uint32_t i = 0; i < req->nev; i++)
		if (req->role[i] == NVR_CYCLES)
			cyc = (int)i;
	if (cyc >= 0 && window_ns)
		put(o, "freq_ghz", "", milli(raw[cyc], window_ns), "cycles / window_ns");
	for (uint32_t i = 0; i < req->nev; i++) {
		const char *nm = req->evname[i] ? req->evname[i] : req->spec[i];
		switch (req->role[i]) {
		case NVR_BYTES_RD:
		case NVR_BYTES_WR:
			if (req->chk[i]) {
				o->bytes += raw[i];
				o->have_bytes = 1;
			}
			if (window_ns) {
				fmt_snprintf(f, sizeof(f), "%s / window_ns (bytes per ns = GB/s)", nm);
				put(o, nm, "_gbps", milli(raw[i], window_ns), f);
			}
			break;
		case NVR_REQ_RD:
		case NVR_REQ_WR:
			if (cyc >= 0 && raw[cyc]) {
				fmt_snprintf(f, sizeof(f), "%s / cycles", nm);
				put(o, nm, "_per_cycle", milli(raw[i], raw[cyc]), f);
			}
			break;
		case NVR_CUM_OUTS_RD: {
			int r = pair_req(req, i);
			if (r < 0 || !raw[r])
				break;
			struct latency lat;   /* pmu/latency.h: the formula every NVIDIA latency PMU shares */
			latency_compute(raw[i], raw[r], cyc >= 0 ? raw[cyc] : 0, window_ns, &lat);
			if (!lat.valid)
				break;      /* no cycles or no window: the latency needs both */
			fmt_snprintf(f, sizeof(f), "%s / %s", nm, req->evname[r]);
			put(o, nm, "_latency_cycles", lat.cycles_milli, f);
			fmt_snprintf(f, sizeof(f), "(%s / %s) / freq_ghz", nm, req->evname[r]);
			put(o, nm, "_latency_ns", lat.ns_milli, f);
			break;
		}
		default:
			break;
		}
	}
}

void nv_cspmu_bytes(const struct nv_cspmu_req *req, const uint64_t *raw, struct self_check_bytes *c)
{
	memset(c, 0, sizeof(*c));
	for (uint32_t i = 0; i < req->nev; i++) {
		if (!req->chk[i])
			continue;
		if (req->role[i] == NVR_BYTES_RD) {
			c->read += raw[i];
			c->have_read = 1;
		} else if (req->role[i] == NVR_BYTES_WR) {
			c->write += raw[i];
			c->have_write = 1;
		}
	}
}
