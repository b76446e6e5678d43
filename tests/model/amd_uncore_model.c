/* SPDX-License-Identifier: BSD-2-Clause */
/* AMD Zen uncore register model (tests/model/amd_uncore_model.h). */
#include "tests/model/amd_uncore_model.h"

#include <string.h>

#define DF_CTL 0xC0010240u
#define L3_CTL 0xC0010230u
#define UMC_CTL 0xC0010800u
#define MASK48 0xFFFFFFFFFFFFull

static uint64_t msr(struct hw_model *m, uint32_t id)
{
	struct hw_model_reg *r = hw_model_find(m, HWM_MSR, id);
	return r ? r->value : 0;
}

static void bump(struct hw_model *m, uint32_t id, uint64_t v)
{
	struct hw_model_reg *r = hw_model_find(m, HWM_MSR, id);
	if (r)
		r->value = (r->value + v) & MASK48;
}

static void tick(struct hw_model *m, unsigned n, void *arg)
{
	struct amd_uncore_model *a = arg;
	for (unsigned i = 0; i < a->ndf; i++) {
		uint64_t c = msr(m, DF_CTL + 2 * i);
		if (!(c & (1ull << 22)))
			continue;
		uint32_t ev = a->v2 ? (uint32_t)((c & 0xFF) | ((c >> 32) & 0x3F) << 8)
				    : (uint32_t)((c & 0xFF) | ((c >> 32) & 0xF) << 8 | ((c >> 59) & 3) << 12);
		uint32_t um = a->v2 ? (uint32_t)(((c >> 8) & 0xFF) | ((c >> 24) & 0xF) << 8) : (uint32_t)((c >> 8) & 0xFF);
		for (unsigned t = 0; t < a->ntraffic; t++)
			if (a->t[t].box == AMD_MODEL_DF && a->t[t].event == ev && a->t[t].umask == um)
				bump(m, DF_CTL + 2 * i + 1, a->t[t].per_tick * n);
	}
	for (unsigned i = 0; i < 6; i++) {
		uint64_t c = msr(m, L3_CTL + 2 * i);
		uint64_t threads = a->fam17 ? (c >> 56) & 0xFF : (c >> 56) & 3;
		if (!(c & (1ull << 22)) || !threads)
			continue;
		for (unsigned t = 0; t < a->ntraffic; t++)
			if (a->t[t].box == AMD_MODEL_L3 && a->t[t].event == (c & 0xFF) && a->t[t].umask == ((c >> 8) & 0xFF))
				bump(m, L3_CTL + 2 * i + 1, a->t[t].per_tick * n);
	}
	unsigned per = a->nactive ? a->numc / a->nactive : 0;
	for (unsigned k = 0; per && k < a->numc; k++) {
		uint64_t c = msr(m, UMC_CTL + 2 * k);
		if (!(c & (1ull << 31)))
			continue;
		for (unsigned t = 0; t < a->ntraffic; t++)
			if (a->t[t].box == AMD_MODEL_UMC && a->t[t].umc == k / per && a->t[t].event == (c & 0xFF) &&
			    a->t[t].umask == ((c >> 8) & 3))
				bump(m, UMC_CTL + 2 * k + 1, a->t[t].per_tick * n);
	}
}

int amd_model_is_counter(uint32_t id)
{
	return ((id >= DF_CTL && id < DF_CTL + 32) || (id >= L3_CTL && id < L3_CTL + 12) ||
		(id >= UMC_CTL && id < UMC_CTL + 128)) && (id & 1);
}

void amd_model_init(struct amd_uncore_model *a, struct hw_model *m, uint32_t family, uint32_t model, int v2,
		    unsigned ndf, unsigned numc, unsigned nactive)
{
	memset(a, 0, sizeof(*a));
	a->m = m;
	a->v2 = (uint8_t)v2;
	a->fam17 = family == 0x17;
	a->ndf = ndf;
	a->numc = numc;
	a->nactive = nactive;
	for (unsigned i = 0; i < 2 * ndf; i++)
		hw_model_reg(m, HWM_MSR, DF_CTL + i, HWM_PLAIN, 0);
	for (unsigned i = 0; i < 12; i++)
		hw_model_reg(m, HWM_MSR, L3_CTL + i, HWM_PLAIN, 0);
	for (unsigned i = 0; i < 2 * numc; i++)
		hw_model_reg(m, HWM_MSR, UMC_CTL + i, HWM_PLAIN, 0);
	/* leaf 1 EAX: family 0xF + extended family, model low nibble [7:4], extended model [19:16] */
	uint32_t eax1 = 0xF00u | (family - 0xF) << 20 | (model & 0xF) << 4 | (model >> 4) << 16;
	hw_model_cpuid(m, 1, 0, eax1, 0, 0, 0);
	hw_model_cpuid(m, 0x80000000u, 0, v2 ? 0x80000022u : 0x80000021u, 0, 0, 0);
	hw_model_cpuid(m, 0x80000001u, 0, 0, 0, 1u << 24 | 1u << 28, 0);
	if (v2)
		hw_model_cpuid(m, 0x80000022u, 0, 1, ndf << 10 | numc << 16 | 6, (1u << nactive) - 1, 0);
	m->tick_hook = tick;
	m->tick_arg = a;
}

void amd_model_add(struct amd_uncore_model *a, struct amd_model_traffic t)
{
	if (a->ntraffic < AMD_MODEL_MAX_TRAFFIC)
		a->t[a->ntraffic++] = t;
}
