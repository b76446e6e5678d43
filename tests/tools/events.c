/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make events`: every named CHA event of every platform, one line each:
 *   platform  event  perf-style-string  ctl=0x...  filter0=0x...|-  filter1=0x...|-
 * Register values are what efiperf writes (CTL with the platform's enable bit; a filter that
 * the event does not program is "-"), so encodings can be compared with any outside table.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/uncore/intel_cha.h"

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
	fflush(stdout);
	fprintf(stderr, "events: %u events of %zu platforms\n", n, cha_nplatforms);
	return bad ? 1 : 0;
}
