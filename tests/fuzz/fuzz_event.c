/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the perf-style event-string parser (pmu/event_string.c) through every grammar
 * built on it, over arbitrary bytes: Intel and AMD core events (four CPU generations), the Intel
 * uncore boxes of every platform, the AMD uncore boxes of every family, and every NVIDIA CoreSight
 * PMU entry. The first byte picks the grammar (one parse per execution keeps the rate up), the
 * rest is the string. Beyond not crashing: a refused string leaves a terminated, non-empty reason,
 * an accepted core event a terminated name.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "pmu/core/x86_event.h"
#include "pmu/uncore/intel_uncore.h"
#include "pmu/uncore/amd_uncore.h"
#include "pmu/uncore/nvidia_cspmu.h"

enum kind { K_CORE, K_INTEL_UNCORE, K_AMD_UNCORE, K_NV_CSPMU };
struct grammar { enum kind kind; const void *desc; };

#define MAX_GRAMMARS 256
static struct grammar grammars[MAX_GRAMMARS];
static unsigned ngrammars;

static const struct x86_event_caps caps[] = {
	{ .vendor = X86_EV_INTEL, .gens = X86_GEN_ARCH | X86_GEN_SKL, .any_ok = 1, .arch_len = 7 },
	{ .vendor = X86_EV_INTEL, .gens = X86_GEN_ARCH | X86_GEN_GLC, .arch_len = 8, .arch_unavail = 0x5 },
	{ .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN | X86_GEN_ZEN4 },
	{ .vendor = X86_EV_AMD, .gens = X86_GEN_ZEN5 },
};

static void add(enum kind k, const void *d)
{
	assert(ngrammars < MAX_GRAMMARS);
	grammars[ngrammars++] = (struct grammar){ k, d };
}

static void collect(void)
{
	for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
		add(K_CORE, &caps[k]);
	for (size_t p = 0; p < intel_uncore_nplatforms; p++)
		for (int b = 0; b < INTEL_NBOX; b++)
			if (intel_uncore_platforms[p].box[b].pmu)
				add(K_INTEL_UNCORE, &intel_uncore_platforms[p].box[b]);
	for (size_t f = 0; f < amd_uncore_nfamilies; f++)
		for (int b = 0; b < AMD_NBOX; b++)
			if (amd_uncore_families[f].box[b].pmu)
				add(K_AMD_UNCORE, &amd_uncore_families[f].box[b]);
	const struct nv_cspmu_desc *d;
	for (unsigned i = 0; (d = nv_cspmu_entry(i)) != NULL; i++)
		add(K_NV_CSPMU, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ngrammars)
		collect();
	if (size < 1)
		return 0;
	const struct grammar *g = &grammars[data[0] % ngrammars];
	const char *s = (const char *)data + 1;
	size--;
	char why[160];
	memset(why, 'x', sizeof(why));
	int rc;
	switch (g->kind) {
	case K_CORE: {
		struct x86_event ev;
		rc = x86_event_parse(s, size, g->desc, &ev, why, sizeof(why));
		if (rc == 0)
			assert(memchr(ev.name, 0, sizeof(ev.name)));
		break;
	}
	case K_INTEL_UNCORE: {
		uint64_t ctl = 0;
		int box = 0;
		const struct intel_uncore_event *named = NULL;
		rc = intel_uncore_encode(g->desc, s, size, &ctl, &box, &named, why, sizeof(why));
		break;
	}
	case K_AMD_UNCORE: {
		uint64_t ctl = 0;
		const struct amd_uncore_event *named = NULL;
		rc = amd_uncore_encode(g->desc, s, size, &ctl, &named, why, sizeof(why));
		break;
	}
	default: {
		char name[64];
		nv_cspmu_name(g->desc, 0, 1, 0, name, sizeof(name));
		struct cspmu_event ev;
		const struct nv_cspmu_event *named = NULL;
		rc = nv_cspmu_encode(g->desc, name, s, size, &ev, &named, why, sizeof(why));
		break;
	}
	}
	if (rc != 0)
		assert(memchr(why, 0, sizeof(why)) && why[0]);
	return 0;
}
