/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make events`: every named CHA event of every platform, one line each:
 *   platform  event  perf-style-string  ctl=0x...  filter0=0x...|-  filter1=0x...|-
 * then every named AMD uncore event of every family and box (amd_df, amd_l3, amd_umc):
 *   family  pmu  event  perf-style-string  ctl=0x...
 * then every named Intel IMC / IIO event of every platform:
 *   platform  pmu  event  perf-style-string  ctl=0x...
 * then every event of Intel's generated catalogue (pmu/events/gen_events.h) per platform and
 * unit, through the same encoders a config string goes through (cha/NAME/, uncore_imc/NAME/;
 * UPI, M2M, B2CMI: pmu/uncore/intel_upi.h upi_encode):
 *   platform  unit  EventName  fields  ctl=0x...
 * then every event of every NVIDIA CoreSight PMU (APMT) and ACPI-namespace PMU:
 *   soc  pmu  event  perf-style-string  (the perf config value; these PMUs' PMEVTYPER holds it)
 * Register values are what efiperf writes (CTL with the platform's enable bit; a filter that
 * the event does not program is "-"), so encodings can be compared with any outside table.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/nvidia_cspmu.h"
#include "pmu/uncore/nv_acpi_pmu.h"
#include "pmu/events/gen_events.h"
#include "pmu/uncore/intel_upi.h"

/* One catalogue row r of platform plat as encoded for spec; prints it, or returns 1 when the
 * encoder refused it (a row efiperf cannot program: counted, not listed). */
static int gen_line(const char *plat, const char *unit, const struct gen_row *r, int fail, uint64_t ctl)
{
	if (fail)
		return 1;
	char f[96];
	int k = snprintf(f, sizeof(f), "event=0x%x,umask=0x%x", r->event, r->umask);
	if (r->umask_ext)
		k += snprintf(f + k, sizeof(f) - (size_t)k, ",umask_ext=0x%x", r->umask_ext);
	if (r->port_mask || r->fc_mask)
		snprintf(f + k, sizeof(f) - (size_t)k, ",ch_mask=0x%x,fc_mask=0x%x", r->port_mask, r->fc_mask);
	printf("%-5s %-4s %-58s %-60s ctl=0x%016llx\n", plat, unit, r->name, f, (unsigned long long)ctl);
	return 0;
}

/* Every catalogue row of every CHA and IMC/IIO platform, then UPI / M2M / B2CMI; *skipped:
 * rows the CHA encoder refused (SKX rows that need a CHA filter value), *lskip: link-unit rows
 * upi_encode refused. Returns the rows listed. */
static unsigned gen_events(unsigned *skipped, unsigned *lskip)
{
	unsigned n = 0;
	struct gen_iter it;
	struct gen_row r;
	char spec[128], why[160];
	for (size_t k = 0; k < cha_nplatforms; k++) {
		const struct cha_platform *p = &cha_platforms[k];
		int pi = gen_platform_index(p->name);
		for (gen_iter_start(&it, gen_unit_by_name("cha")); pi >= 0 && gen_iter_next(&it, &r);) {
			if (!(r.plats >> pi & 1))
				continue;
			struct cha_encoding x;
			snprintf(spec, sizeof(spec), "cha/%s/", r.name);
			int bad = cha_encode(p, spec, strlen(spec), &x, why, sizeof(why)) != 0;
			*skipped += (unsigned)gen_line(p->name, "cha", &r, bad, x.ctl);
			n += !bad;
		}
	}
	for (size_t k = 0; k < intel_uncore_nplatforms; k++) {
		const struct intel_uncore_platform *p = &intel_uncore_platforms[k];
		int pi = gen_platform_index(p->events_of ? p->events_of : p->name);
		for (int b = 0; b < INTEL_NBOX; b++) {
			const struct intel_box_desc *d = &p->box[b];
			const char *unit = b == INTEL_BOX_IMC ? "imc" : "iio";
			for (gen_iter_start(&it, gen_unit_by_name(unit)); pi >= 0 && gen_iter_next(&it, &r);) {
				if (!(r.plats >> pi & 1))
					continue;
				uint64_t ctl = 0;
				snprintf(spec, sizeof(spec), "%s/%s/", d->pmu, r.name);
				int bad = intel_uncore_encode(d, spec, strlen(spec), &ctl, NULL, NULL, why, sizeof(why)) != 0;
				*skipped += (unsigned)gen_line(p->name, unit, &r, bad, ctl);
				n += !bad;
			}
		}
	}
	/* the socket-link units: UPI link layer, M2M / B2CMI, per catalogue platform */
	static const char *const link_units[] = { "upi", "m2m", "b2cmi" };
	for (int pi = 0; pi < GEN_INTEL_NPLAT; pi++) {
		const struct upi_platform *p = upi_platform_by_name(gen_intel_platforms[pi].name);
		for (size_t u = 0; p && u < sizeof(link_units) / sizeof(link_units[0]); u++)
			for (gen_iter_start(&it, gen_unit_by_name(link_units[u])); gen_iter_next(&it, &r);) {
				if (!(r.plats >> pi & 1))
					continue;
				uint64_t ctl = 0;
				int bad = upi_encode(p, link_units[u], &r, &ctl, why, sizeof(why)) != 0;
				*lskip += (unsigned)gen_line(p->name, link_units[u], &r, bad, ctl);
				n += !bad;
			}
	}
	return n;
}

/* NVIDIA: CoreSight PMUs of the table, then the ACPI-namespace PMU types; returns the count. */
static unsigned nvidia_events(void)
{
	unsigned n = 0;
	char pmu[NV_CSPMU_NAME_MAX + 8], spec[128];
	const struct nv_cspmu_desc *d;
	for (unsigned i = 0; (d = nv_cspmu_entry(i)) != NULL; i++) {
		snprintf(pmu, sizeof(pmu), "%s_0%s", d->pmu, d->per_rc ? "_rc_0" : "");
		for (unsigned e = 0; e < d->nevents; e++, n++) {
			snprintf(spec, sizeof(spec), "%s/event=0x%llx/", pmu, (unsigned long long)d->events[e].event);
			printf("%-8s %-24s %-28s %-56s\n", d->soc, d->unit, d->events[e].name, spec);
		}
	}
	const struct nv_apmu_type *const types[] = { &nv_cmem_latency_type, &nv_nvdlink_type, &nv_nvclink_type,
						     &nv_nvlink_c2c_type };
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (unsigned e = 0; e < types[t]->nev; e++, n++) {
			snprintf(spec, sizeof(spec), "%s_0/event=0x%x/", types[t]->pmu, types[t]->ev[e].id);
			printf("%-8s %-24s %-28s %-56s\n", "Tegra410", types[t]->hid, types[t]->ev[e].name, spec);
		}
	return n;
}

int main(void)
{
	unsigned n = 0, bad = 0;
	for (size_t k = 0; k < cha_nplatforms; k++) {
		const struct cha_platform *p = &cha_platforms[k];
		for (const struct cha_event *e = p->events; e->name; e++) {
			char spec[128], why[160], f[2][24];
			struct cha_encoding x;
			cha_event_spec(p, e, spec, sizeof(spec));
			if (cha_encode(p, spec, strlen(spec), &x, why, sizeof(why))) {
				fprintf(stderr, "%s %s: %s\n", p->name, e->name, why);
				bad++;
				continue;
			}
			for (int i = 0; i < 2; i++)
				if (x.uses & (1u << i))
					snprintf(f[i], sizeof(f[i]), "0x%llx", (unsigned long long)x.filter[i]);
				else
					snprintf(f[i], sizeof(f[i]), "-");
			printf("%-4s %-34s %-62s ctl=0x%016llx filter0=%s filter1=%s\n", p->name, e->name, spec,
			       (unsigned long long)x.ctl, f[0], f[1]);
			n++;
		}
	}
	unsigned na = 0;
	for (size_t k = 0; k < amd_uncore_nfamilies; k++) {
		const struct amd_uncore_family *f = &amd_uncore_families[k];
		if (k && !strcmp(amd_uncore_families[k - 1].name, f->name))
			continue;                      /* another model range of the same tables */
		for (int b = 0; b < AMD_NBOX; b++) {
			const struct amd_box_desc *d = &f->box[b];
			for (uint16_t i = 0; d->pmu && i < d->nevents; i++) {
				char spec[128], why[160];
				uint64_t ctl;
				amd_uncore_event_spec(d, &d->events[i], spec, sizeof(spec));
				if (amd_uncore_encode(d, spec, strlen(spec), &ctl, NULL, why, sizeof(why))) {
					fprintf(stderr, "%s %s %s: %s\n", f->name, d->pmu, d->events[i].name, why);
					bad++;
					continue;
				}
				printf("%-4s %-7s %-46s %-36s ctl=0x%016llx\n", f->name, d->pmu, d->events[i].name, spec,
				       (unsigned long long)ctl);
				na++;
			}
		}
	}
	unsigned ni = 0;
	for (size_t k = 0; k < intel_uncore_nplatforms; k++) {
		const struct intel_uncore_platform *p = &intel_uncore_platforms[k];
		for (int b = 0; b < INTEL_NBOX; b++) {
			const struct intel_box_desc *d = &p->box[b];
			for (uint16_t i = 0; i < d->nevents; i++) {
				char spec[128], why[160];
				uint64_t ctl;
				intel_uncore_event_spec(d, &d->events[i], spec, sizeof(spec));
				if (intel_uncore_encode(d, spec, strlen(spec), &ctl, NULL, NULL, why, sizeof(why))) {
					fprintf(stderr, "%s %s %s: %s\n", p->name, d->pmu, d->events[i].name, why);
					bad++;
					continue;
				}
				printf("%-4s %-10s %-34s %-62s ctl=0x%016llx\n", p->name, d->pmu, d->events[i].name, spec,
				       (unsigned long long)ctl);
				ni++;
			}
		}
	}
	unsigned nskip = 0, lskip = 0, ng = gen_events(&nskip, &lskip);
	unsigned nn = nvidia_events();
	fflush(stdout);
	fprintf(stderr, "events: %u events of %zu CHA platforms, %u AMD uncore events of 4 families, "
		"%u Intel IMC/IIO events of %zu platforms, %u NVIDIA PMU events, %u Intel catalogue events "
		"(perfmon %.12s; %u SKX rows needing a CHA filter value not listed; %u UPI/M2M/B2CMI rows with "
		"fields the box has no bits for not listed)\n", n, cha_nplatforms, na, ni,
		intel_uncore_nplatforms, nn, ng, gen_intel_commit, nskip, lskip);
	return bad ? 1 : 0;
}
