/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/ldsrc_run.h"
#include "efi/measure/corepmu_run.h"
#include "pmu/core/core_mux.h"
#include "arch/lib/fmt.h"
#include "efi/out/report.h"
#include "efi/out/once.h"

struct ldsrc {
	const struct ls_table *t;
	struct corepmu *cp;          /* x86 */
	struct core_set arm;         /* Arm PMUv3: the configured set (copied per window) */
	struct core_set run;         /* Arm: this window's */
	int idx[LS_MAX_EVENTS];      /* Arm: counter of event i in arm.c[], -1 absent */
	char why[LS_MAX_EVENTS][LS_WHY];
};

#define ERR_BYTES 160

static void names(const struct ls_table *t, char *events, size_t n)
{
	size_t k = 0;
	events[0] = 0;
	for (int i = 0; t && i < t->n && k < n; i++)
		k += (size_t)fmt_snprintf(events + k, n - k, "%s%s", i ? " " : "", t->ev[i].name);
}

/* x86: the event strings to program (Intel: the names; AMD: raw encodings of the rows). */
static void x86_program(const struct ls_table *t, char *s, size_t n)
{
	size_t k = 0;
	s[0] = 0;
	for (int i = 0; i < t->n && k < n; i++)
		k += t->vendor == LS_AMD
			? (size_t)fmt_snprintf(s + k, n - k, "%score/event=0x%x,umask=0x%x/", i ? " " : "", t->ev[i].event, t->ev[i].umask)
			: (size_t)fmt_snprintf(s + k, n - k, "%s%s", i ? " " : "", t->ev[i].name);
}

/* The drivers name the `core_events` key in their errors; here no key was set. */
static const char *unprefixed(const char *err)
{
	static const char prefix[] = "core_events: ";
	return strncmp(err, prefix, sizeof(prefix) - 1) ? err : err + sizeof(prefix) - 1;
}

static int setup_x86(const struct hw *hw, const struct platform *p, struct ldsrc *l, char *why, size_t n)
{
	const struct corepmu *cp = p->corepmu;
	if (cp->backend == CP_AMD_CORE) {
		l->t = load_source_amd(cp->family, cp->model);
		if (!l->t) {
			fmt_snprintf(why, n, "no load-source table for AMD family 0x%x model 0x%x (Zen 2 to Zen 5, as Linux perf's mapfile.csv assigns them, "
				     "but not Family 19h models 30h-3Fh: Zen 3 to Linux amd.c and libpfm4)",
				     cp->family, cp->model);
			return 0;
		}
	} else {
		l->t = &ls_intel;
	}
	char prog[LS_MAX_EVENTS * 40];
	x86_program(l->t, prog, sizeof(prog));
	l->cp = corepmu_setup_events(hw, p->timer_hz, prog, why, n);
	if (!l->cp)
		memmove(why, unprefixed(why), strlen(unprefixed(why)) + 1);
	return l->cp != NULL;
}

static int setup_arm(const struct platform *p, struct ldsrc *l)
{
	l->t = &ls_arm;
	l->arm = p->core;
	core_mux_keep_group(&l->arm, 0);   /* one window each: the first group's events only */
	const char *denom = NULL;
	for (int i = 0; i < l->t->n; i++) {
		char err[ERR_BYTES];
		l->idx[i] = -1;
		if (l->t->ev[i].kind == LS_ACCESSES && denom) {   /* a fallback denominator: keep the counter */
			fmt_snprintf(l->why[i], LS_WHY, "not programmed: %s is the denominator", denom);
			continue;
		}
		int n0 = l->arm.n;
		if (armv8_pmuv3_configure(&l->arm, l->t->ev[i].name, err, sizeof(err)) == 0 &&
		    l->arm.c[l->arm.n - 1].group != 0) {   /* it would need a second group: not multiplexed here */
			l->arm.n = n0;
			l->arm.ngroups = 1;
			fmt_snprintf(err, sizeof(err), "core_events: no event counter left (PMCR_EL0.N; the load-source evidence is not multiplexed)");
		} else if (l->arm.n > n0) {
			if (l->t->ev[i].kind == LS_ACCESSES)
				denom = l->t->ev[i].name;
			l->idx[i] = l->arm.n - 1;
			continue;
		}
		fmt_snprintf(l->why[i], LS_WHY, "%s", unprefixed(err));
	}
	l->run = l->arm;
	return 1;
}

int ldsrc_setup(const struct hw *hw, const struct platform *p, struct ldsrc **out, char *events, size_t en, char *why,
		size_t n)
{
	*out = NULL;
	events[0] = 0;
	struct ldsrc *l = AllocateZeroPool(sizeof(*l));
	if (!l) {
		fmt_snprintf(why, n, "cannot allocate the load-source state");
		return 0;
	}
	int ok;
	if (p->corepmu)
		ok = setup_x86(hw, p, l, why, n);
	else if (p->core.pmu == &pmu_armv8_pmuv3)
		ok = setup_arm(p, l);
	else {
		fmt_snprintf(why, n, "no core PMU efiperf can program on this CPU");
		ok = 0;
	}
	names(l->t, events, en);
	if (!ok) {
		FreePool(l);
		return 0;
	}
	*out = l;
	return 1;
}

const struct ls_table *ldsrc_table(const struct ldsrc *l) { return l->t; }
const struct corepmu *ldsrc_corepmu(const struct ldsrc *l) { return l->cp; }
const struct core_set *ldsrc_core_set(const struct ldsrc *l) { return l->cp ? NULL : &l->run; }

void ldsrc_prepare(struct ldsrc *l)
{
	if (!l->cp)
		l->run = l->arm;   /* each window starts from the configured set */
}

void ldsrc_start(const struct hw *hw, struct ldsrc *l)
{
	if (l->cp) {
		corepmu_run_start(hw, l->cp);
		return;
	}
	l->run.pmu->start(hw, &l->run);
}

void ldsrc_stop(const struct hw *hw, struct ldsrc *l)
{
	if (l->cp)
		corepmu_run_stop(hw, l->cp);
	else
		l->run.pmu->stop(hw, &l->run);
}

/* The x86 counter of table event i (the events were added in table order). */
static const struct x86_ctr *x86_counter(const struct corepmu *cp, int i)
{
	if (cp->backend == CP_AMD_CORE)
		return i < cp->ac.nused ? &cp->ac.c[i] : NULL;
	return i < cp->ic.ngp_used ? &cp->ic.gp[i] : NULL;
}

void ldsrc_collect(const struct hw *hw, struct ldsrc *l, uint32_t cpu, uint64_t loads, struct ls_window *w)
{
	memset(w, 0, sizeof(*w));
	w->t = l->t;
	w->loads = loads;
	if (l->cp)
		corepmu_run_restore(hw, l->cp, cpu);
	else
		l->run.pmu->restore(hw, &l->run);
	for (int i = 0; i < l->t->n; i++) {
		if (l->cp) {
			const struct x86_ctr *c = x86_counter(l->cp, i);
			w->c[i] = c ? (struct ls_count){ c->state, c->scaled } : (struct ls_count){ CTR_ABSENT, 0 };
			fmt_snprintf(w->why[i], LS_WHY, "%s", c ? c->why : "not programmed");
		} else if (l->idx[i] < 0) {
			w->c[i] = (struct ls_count){ CTR_ABSENT, 0 };
			fmt_snprintf(w->why[i], LS_WHY, "%s", l->why[i]);
		} else {
			const struct core_counter *c = &l->run.c[l->idx[i]];
			w->c[i] = (struct ls_count){ c->state, c->delta };
			fmt_snprintf(w->why[i], LS_WHY, "%s", c->why);
		}
	}
	load_source_compute(l->t, w->c, loads, &w->r);
}

void ldsrc_free(struct ldsrc *l)
{
	if (!l)
		return;
	if (l->cp)
		FreePool(l->cp);
	FreePool(l);
}

void ldsrc_text(const struct ls_window *w)
{
	char line[160];
	size_t k = 0;
	line[0] = 0;
	for (int i = 0; i < w->r.nlevels && k < sizeof(line); i++) {
		const struct ls_level_out *o = &w->r.lv[i];
		if (o->known && o->has_milli)
			k += fmt_snprintf(line + k, sizeof(line) - k, " %s %u.%03u", load_source_level_name(o->level),
					  o->milli / 1000, o->milli % 1000);
		else
			k += fmt_snprintf(line + k, sizeof(line) - k, " %s -", load_source_level_name(o->level));
	}
	if (w->r.valid)
		rep_line("              served by:%s", line);
	else
		rep_once(w->r.why, "              served by:%s (%s)", line, w->r.why);
}

static int att_prepare(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	struct ldsrc_attach *e = a->self;
	e->point = 0;
	ldsrc_prepare(e->ls);
	return 0;
}

static void att_start(struct attachment *a, const struct hw *hw)
{
	ldsrc_start(hw, ((struct ldsrc_attach *)a->self)->ls);
}

static void att_stop(struct attachment *a, const struct hw *hw)
{
	ldsrc_stop(hw, ((struct ldsrc_attach *)a->self)->ls);
}

static int att_read(struct attachment *a, const struct hw *hw)
{
	struct ldsrc_attach *e = a->self;
	if (e->point >= e->npoints)
		return -1;
	struct ldsrc_point *pt = &e->pt[e->point];
	pt->loads = e->loads[e->point++];
	ldsrc_collect(hw, e->ls, e->cpu, pt->loads, &pt->lsw);
	pt->x86 = e->ls->cp != NULL;
	if (e->ls->cp)
		pt->cp = *e->ls->cp;
	else
		pt->set = e->ls->run;
	ldsrc_prepare(e->ls);   /* the next window starts from the configured set */
	return 0;
}

const struct attachment_ops ldsrc_attach_ops = { .kind = "load_source", .prepare = att_prepare, .start = att_start,
						 .stop = att_stop, .read = att_read };
