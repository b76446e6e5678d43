/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AMD uncore families and box types as data (pmu/uncore/amd_uncore.h). Register facts: Linux
 * arch/x86/events/amd/uncore.c (amd_uncore_df_ctx_init, amd_uncore_l3_ctx_init,
 * amd_uncore_umc_ctx_init, amd_uncore_l3_event_init, the format attributes),
 * include/asm/msr-index.h (MSR_F15H_NB_PERF_CTL, MSR_F16H_L2I_PERF_CTL, MSR_F19H_UMC_PERF_CTL),
 * include/asm/perf_event.h (AMD64_L3_*, AMD64_PERFMON_V2_*_UMC, cpuid_0x80000022_ebx),
 * include/asm/cpufeatures.h (PERFCTR_NB, PERFCTR_LLC). CPU families and models: Linux
 * arch/x86/kernel/cpu/amd.c (Zen 2: Family 17h models 30h+, Zen 3: Family 19h models 00h-0Fh
 * and 20h-5Fh, Zen 4: 10h-1Fh and 60h-AFh; Family 1Ah: Zen 5 00h-2Fh, 40h-4Fh, 60h-7Fh and Zen 6
 * (X86_FEATURE_ZEN6) 50h-5Fh, 80h-AFh, C0h-CFh, as of Linux commit 847ebc447671 "x86/CPU/AMD:
 * Extend Zen6 model range"), restricted to the models where
 * the events' own oracle agrees: Linux tools/perf/pmu-events/arch/x86/mapfile.csv serves
 * AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]]) with amdzen3 and every other Family 19h
 * model with amdzen4, so it gives Family 19h models 30h-3Fh the Zen 4 files where amd.c says
 * Zen 3. With the two disagreeing (and no product of those models known), they get no table:
 * Family 1Ah likewise: the mapfile (Linux commit 2c3cd43d27c1 "perf vendor events amd: Add Zen 6
 * mapping") gives AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]]) amdzen5 and every other
 * model amdzen6, where amd.c names 30h-3Fh, B0h-BFh and D0h-FFh neither: those get no table.
 * tests/unit/test_amd_uncore_oracle.c checks every served model against the mapfile and amd.c.
 */
#include "pmu/uncore/amd_uncore.h"
#include "arch/regs/x86_amd_msr.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define N8(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))
#define EN22 (1ull << 22)        /* ARCH_PERFMON_EVENTSEL_ENABLE */

/* DF and L3: PERF_CTL i at base + 2i, PERF_CTR i at base + 1 + 2i, 48-bit counters (uncore.c
 * COUNTER_SHIFT 16), no unit or package control. */
static const struct uncore_box_type df_type = {
	.name = "DF", .access = BOX_ACCESS_MSR, .num_counters = AMD_NB_LEGACY_COUNTERS, .ctr_bits = 48,
	.reg_step = 1, .ctl_step = 2, .ctr_step = 2, .max_boxes = 1, .box_ctl = MSR_F15H_NB_PERF_CTL,
	.unit_ctl = BOX_NO_REG, .ctl0 = 0, .ctr0 = 1, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG,
	.ctl_en = EN22, .event_mask = ~EN22,
};
static const struct uncore_box_type l3_type = {
	.name = "L3", .access = BOX_ACCESS_MSR, .num_counters = AMD_L3_COUNTERS, .ctr_bits = 48,
	.reg_step = 1, .ctl_step = 2, .ctr_step = 2, .max_boxes = 1, .box_ctl = MSR_F16H_L2I_PERF_CTL,
	.unit_ctl = BOX_NO_REG, .ctl0 = 0, .ctr0 = 1, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG,
	.ctl_en = EN22, .event_mask = ~EN22,
};
/* UMC: counters and boxes from CPUID at run time (amd_uncore_request); enable bit 31 */
static const struct uncore_box_type umc_type = {
	.name = "UMC", .access = BOX_ACCESS_MSR, .num_counters = 0, .ctr_bits = 48,
	.reg_step = 1, .ctl_step = 2, .ctr_step = 2, .max_boxes = UNC_MAX_BOXES, .box_ctl = MSR_F19H_UMC_PERF_CTL,
	.unit_ctl = BOX_NO_REG, .ctl0 = 0, .ctr0 = 1, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG,
	.ctl_en = AMD64_PERFMON_V2_ENABLE_UMC, .event_mask = 0x3FF,
};

/* Grammar registers: 0 the CTL, 1 the event number, 2 the umask; pieces move 1 and 2 into 0. */
static const struct ev_field df_fields[] = {
	{ .name = "event", .reg = 1, .shift = 0, .bits = 14 },
	{ .name = "umask", .reg = 2, .shift = 0, .bits = 8 },
};
static const struct amd_piece df_pieces[] = { { 1, 0, 8, 0 }, { 1, 8, 4, 32 }, { 1, 12, 2, 59 }, { 2, 0, 8, 8 } };
static const struct ev_field df_v2_fields[] = {
	{ .name = "event", .reg = 1, .shift = 0, .bits = 14 },
	{ .name = "umask", .reg = 2, .shift = 0, .bits = 12 },
};
static const struct amd_piece df_v2_pieces[] = { { 1, 0, 8, 0 }, { 1, 8, 6, 32 }, { 2, 0, 8, 8 }, { 2, 8, 4, 24 } };

/* L3 Family 17h: slicemask and threadmask all ones unless given (amd_uncore_l3_event_init) */
#define L3_17_SLICES (0xFull << 48)
#define L3_17_THREADS (0xFFull << 56)
static const struct ev_field l3_17_fields[] = {
	{ .name = "event", .reg = 1, .shift = 0, .bits = 8 },
	{ .name = "umask", .reg = 2, .shift = 0, .bits = 8 },
	{ .name = "slicemask", .reg = 0, .shift = 48, .bits = 4, .clears = L3_17_SLICES },
	{ .name = "threadmask", .reg = 0, .shift = 56, .bits = 8, .clears = L3_17_THREADS },
};
/* L3 Family 19h+: ThreadMask 3 with EnAllSlices and EnAllCores unless a thread mask is given */
#define L3_19_DEFAULT (3ull << 56 | 1ull << 46 | 1ull << 47)
static const struct ev_field l3_19_fields[] = {
	{ .name = "event", .reg = 1, .shift = 0, .bits = 8 },
	{ .name = "umask", .reg = 2, .shift = 0, .bits = 8 },
	{ .name = "coreid", .reg = 0, .shift = 42, .bits = 3 },
	{ .name = "enallslices", .reg = 0, .shift = 46, .bits = 1 },
	{ .name = "enallcores", .reg = 0, .shift = 47, .bits = 1 },
	{ .name = "sliceid", .reg = 0, .shift = 48, .bits = 3 },
	{ .name = "threadmask", .reg = 0, .shift = 56, .bits = 2, .clears = L3_19_DEFAULT },
};
static const struct amd_piece l3_pieces[] = { { 1, 0, 8, 0 }, { 2, 0, 8, 8 } };
static const struct ev_field umc_fields[] = {
	{ .name = "event", .reg = 1, .shift = 0, .bits = 8 },
	{ .name = "rdwrmask", .reg = 2, .shift = 0, .bits = 2 },
};
static const struct amd_piece umc_pieces[] = { { 1, 0, 8, 0 }, { 2, 0, 2, 8 } };

#define BOX(pmu_, ty, fl, pc, def, ev, nev, bit, src) \
	{ .pmu = pmu_, .type = ty, .fields = fl, .nfields = N8(fl), .pieces = pc, .npieces = N8(pc), \
	  .ctl_default = def, .events = ev, .nevents = nev, .cpuid_ecx_bit = bit, .bytes = 64, .source = src }

/* One generation's boxes, shared by its model ranges. */
#define ZEN3_BOXES \
	BOX("amd_df", &df_type, df_fields, df_pieces, 0, amd_df_zen3, 8, 24, "amdzen3/data-fabric.json"), \
	BOX("amd_l3", &l3_type, l3_19_fields, l3_pieces, L3_19_DEFAULT, amd_l3_zen3, 6, 28, "amdzen3/cache.json"),
#define ZEN4_BOXES \
	BOX("amd_df", &df_type, df_v2_fields, df_v2_pieces, 0, amd_df_zen4, 32, 24, "amdzen4/data-fabric.json"), \
	BOX("amd_l3", &l3_type, l3_19_fields, l3_pieces, L3_19_DEFAULT, amd_l3_zen4, 17, 28, "amdzen4/cache.json"), \
	BOX("amd_umc", &umc_type, umc_fields, umc_pieces, 0, amd_umc_zen4, 13, 0, "amdzen4/memory-controller.json"),

#define ZEN5_BOXES \
	BOX("amd_df", &df_type, df_v2_fields, df_v2_pieces, 0, amd_df_zen5, 40, 24, "amdzen5/data-fabric.json"), \
	BOX("amd_l3", &l3_type, l3_19_fields, l3_pieces, L3_19_DEFAULT, amd_l3_zen5, 3, 28, "amdzen5/l3-cache.json"), \
	BOX("amd_umc", &umc_type, umc_fields, umc_pieces, 0, amd_umc_zen4, 13, 0, "amdzen5/memory-controller.json"),
#define ZEN6_BOXES \
	{ .absent = AMD_ZEN6_NO_DF }, \
	BOX("amd_l3", &l3_type, l3_19_fields, l3_pieces, L3_19_DEFAULT, amd_l3_zen5, 3, 28, "amdzen6/l3-cache.json"), \
	BOX("amd_umc", &umc_type, umc_fields, umc_pieces, 0, amd_umc_zen4, 13, 0, "amdzen6/memory-controller.json"),

const char *const amd_box_pmu[AMD_NBOX] = { "amd_df", "amd_l3", "amd_umc" };

const char AMD_ZEN6_NO_DF[] = "no Zen 6 Data Fabric event table: Linux perf's amdzen6 event folder has no "
	"data-fabric.json (its uncore files are l3-cache.json and memory-controller.json), and Zen 5's DF "
	"encodings are not assumed to hold";

const struct amd_uncore_family amd_uncore_families[] = {
	{ "Zen2", "EPYC 7002 (Rome), Ryzen 3000/4000", 0x17, 0x30, 0xFF, {
		BOX("amd_df", &df_type, df_fields, df_pieces, 0, amd_df_zen3, 8, 24,
		    "amdzen3/data-fabric.json (Zen 2: amdzen2/recommended.json nps1_die_to_dram)"),
		BOX("amd_l3", &l3_type, l3_17_fields, l3_pieces, L3_17_SLICES | L3_17_THREADS, amd_l3_zen2, 6, 28,
		    "amdzen2/cache.json"),
	} },
	{ "Zen3", "EPYC 7003 (Milan, Milan-X), Threadripper 5000", 0x19, 0x00, 0x0F, {
		ZEN3_BOXES
	} },
	/* 30h-3Fh: none (perf's mapfile.csv says amdzen4, amd.c Zen 3; see the top of this file) */
	{ "Zen3", "Ryzen 5000 (Vermeer)", 0x19, 0x20, 0x2F, {
		ZEN3_BOXES
	} },
	{ "Zen3", "Ryzen 5000/6000 (Cezanne, Rembrandt)", 0x19, 0x40, 0x5F, {
		ZEN3_BOXES
	} },
	{ "Zen4", "EPYC 9004 (Genoa, Bergamo), Ryzen 7000", 0x19, 0x10, 0x1F, {
		ZEN4_BOXES
	} },
	{ "Zen4", "Ryzen 7000/8000 (Raphael, Phoenix), EPYC 8004 (Siena)", 0x19, 0x60, 0xAF, {
		ZEN4_BOXES
	} },
	{ "Zen5", "EPYC 9005 (Turin), Zen 5 models 00h-2Fh", 0x1A, 0x00, 0x2F, { ZEN5_BOXES } },
	{ "Zen5", "Ryzen 9000 (Granite Ridge), Zen 5 models 40h-4Fh", 0x1A, 0x40, 0x4F, { ZEN5_BOXES } },
	{ "Zen5", "Zen 5 models 60h-7Fh", 0x1A, 0x60, 0x7F, { ZEN5_BOXES } },
	/* Zen 6 (Venice): Linux perf's amdzen6 folder has l3-cache.json and memory-controller.json
	 * but no data-fabric.json, so no DF table: Zen 5's DF encodings are not assumed to hold */
	{ "Zen6", "EPYC (Venice)", 0x1A, 0x50, 0x5F, { ZEN6_BOXES } },
	{ "Zen6", "Zen 6 models 80h-AFh", 0x1A, 0x80, 0xAF, { ZEN6_BOXES } },
	{ "Zen6", "Zen 6 models C0h-CFh", 0x1A, 0xC0, 0xCF, { ZEN6_BOXES } },
};
const size_t amd_uncore_nfamilies = sizeof(amd_uncore_families) / sizeof(amd_uncore_families[0]);

const struct amd_uncore_family *amd_uncore_family_for(uint32_t family, uint32_t model)
{
	for (size_t i = 0; i < amd_uncore_nfamilies; i++) {
		const struct amd_uncore_family *f = &amd_uncore_families[i];
		if (f->family == family && model >= f->model_lo && model <= f->model_hi)
			return f;
	}
	return NULL;
}

const struct amd_uncore_family *amd_uncore_family_by_name(const char *name)
{
	for (size_t i = 0; i < amd_uncore_nfamilies; i++)
		if (!strcmp(amd_uncore_families[i].name, name))
			return &amd_uncore_families[i];
	return NULL;
}

const struct amd_uncore_event *amd_uncore_event_find(const struct amd_box_desc *b, const char *name, size_t len)
{
	for (uint16_t i = 0; i < b->nevents; i++)
		if (strlen(b->events[i].name) == len && !memcmp(b->events[i].name, name, len))
			return &b->events[i];
	return NULL;
}

struct amd_grammar {
	struct ev_grammar g;
	char what[32];
};

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct amd_box_desc *b = g->ctx;
	const struct amd_uncore_event *e = amd_uncore_event_find(b, name, len);
	if (!e)
		return NULL;
	if (ev_set_named(g, t, b->fields[0].name, e->event, err, n) ||
	    ev_set_named(g, t, b->fields[1].name, e->umask, err, n))
		return NULL;
	return e;
}

static const char *name_at(const struct ev_grammar *g, size_t i)
{
	const struct amd_box_desc *b = g->ctx;
	return i < b->nevents ? b->events[i].name : NULL;
}

static void grammar(const struct amd_box_desc *b, struct amd_grammar *ag)
{
	fmt_snprintf(ag->what, sizeof(ag->what), "%s", b->pmu);
	ag->g = (struct ev_grammar){ .pmu = { b->pmu }, .fields = b->fields, .nfields = b->nfields, .bare_name = 1,
				     .what = ag->what, .lookup = lookup, .ctx = b, .name_at = name_at };
}

int amd_uncore_encode(const struct amd_box_desc *b, const char *spec, size_t len, uint64_t *ctl,
		      const struct amd_uncore_event **named, char *why, size_t n)
{
	struct amd_grammar ag;
	struct ev_terms t;
	grammar(b, &ag);
	if (ev_parse(&ag.g, spec, len, 0, &t, why, n))
		return -1;
	uint64_t reg[EV_MAX_REGS] = { b->ctl_default, 0, 0 };
	ev_encode(&ag.g, &t, reg);
	uint64_t v = reg[0];
	for (uint8_t i = 0; i < b->npieces; i++) {
		const struct amd_piece *p = &b->pieces[i];
		v |= ((reg[p->reg] >> p->src) & ((1ull << p->bits) - 1)) << p->dst;
	}
	*ctl = v | b->type->ctl_en;
	if (named)
		*named = t.named;
	return 0;
}

size_t amd_uncore_event_spec(const struct amd_box_desc *b, const struct amd_uncore_event *e, char *buf, size_t n)
{
	return fmt_snprintf(buf, n, "%s/%s=0x%x,%s=0x%x/", b->pmu, b->fields[0].name, e->event, b->fields[1].name,
			    e->umask);
}

void amd_uncore_caps_read(const struct hw *hw, struct amd_uncore_caps *c)
{
	struct hw_cpuid r = { 0 }, max = { 0 };
	memset(c, 0, sizeof(*c));
	hw_cpuid(hw, 0x80000000u, 0, &max);
	if (max.eax >= CPUID_AMD_EXT_FEATURES) {
		hw_cpuid(hw, CPUID_AMD_EXT_FEATURES, 0, &r);
		c->perfctr_nb = !!(r.ecx & AMD_EXT_ECX_PERFCTR_NB);
		c->perfctr_llc = !!(r.ecx & AMD_EXT_ECX_PERFCTR_LLC);
	}
	c->num_df = AMD_NB_LEGACY_COUNTERS;
	if (max.eax >= CPUID_AMD_PERFMON_V2) {
		hw_cpuid(hw, CPUID_AMD_PERFMON_V2, 0, &r);
		c->perfmon_v2 = !!(r.eax & AMD_PMV2_EAX_PERFMON_V2);
		if (c->perfmon_v2) {
			uint8_t df = (uint8_t)((r.ebx >> AMD_PMV2_EBX_NUM_DF_SHIFT) & AMD_PMV2_EBX_NUM_DF_MASK);
			if (df)
				c->num_df = df;
			c->num_umc = (uint8_t)((r.ebx >> AMD_PMV2_EBX_NUM_UMC_SHIFT) & AMD_PMV2_EBX_NUM_UMC_MASK);
			c->umc_mask = r.ecx;
		}
	}
}

int amd_uncore_present(const struct amd_box_desc *b, const struct amd_uncore_caps *c, char *why, size_t n)
{
	if (b->cpuid_ecx_bit) {
		uint8_t on = b->cpuid_ecx_bit == 24 ? c->perfctr_nb : c->perfctr_llc;
		if (!on)
			fmt_snprintf(why, n, "CPUID 0x80000001 ECX bit %u (%s) is clear", b->cpuid_ecx_bit,
				     b->cpuid_ecx_bit == 24 ? "PerfCtrExtNB" : "PerfCtrExtLLC");
		return on;
	}
	if (!c->perfmon_v2 || !c->num_umc || !c->umc_mask) {
		fmt_snprintf(why, n, "CPUID 0x80000022: PerfMonV2 %u, UMC counters %u, active UMC mask 0x%x",
			     c->perfmon_v2, c->num_umc, c->umc_mask);
		return 0;
	}
	return 1;
}

/* The first '/' of s[0..len), or NULL. */
static const char *slash_in(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/')
			return s + i;
	return NULL;
}

static int add_event(const struct amd_box_desc *b, struct unc_request *req, const char *s, size_t len, char *why,
		     size_t n)
{
	if (req->nevents >= UNC_MAX_EVENTS) {
		fmt_snprintf(why, n, "more than %u %s events", UNC_MAX_EVENTS, b->pmu);
		return -1;
	}
	struct unc_event *ev = &req->ev[req->nevents];
	const struct amd_uncore_event *named = NULL;
	char err[120];
	if (len >= sizeof(ev->spec)) {
		fmt_snprintf(why, n, "%s event %.40s...: longer than %u bytes", b->pmu, s, UNC_SPEC_MAX - 1);
		return -1;
	}
	if (amd_uncore_encode(b, s, len, &ev->ctl, &named, err, sizeof(err))) {
		fmt_snprintf(why, n, "%s event %u (%.*s): %s", b->pmu, req->nevents + 1, (int)(len > 60 ? 60 : len), s, err);
		return -1;
	}
	if (named && !slash_in(s, len))
		amd_uncore_event_spec(b, named, ev->spec, sizeof(ev->spec));
	else {
		memcpy(ev->spec, s, len);
		ev->spec[len] = 0;
	}
	ev->name = named ? named->name : NULL;
	ev->role = named ? named->role : UNC_ROLE_NONE;
	ev->channel = named ? named->channel : 0;
	ev->bytes = b->bytes;
	req->nevents++;
	return 0;
}

/* Events of `list` for PMU b: entries for other PMUs (another prefix before '/') are skipped. */
static int add_events(const struct amd_box_desc *b, struct unc_request *req, const char *list, char *why, size_t n)
{
	size_t plen = strlen(b->pmu);
	const char *s = list, *a;
	size_t len;
	while ((len = ev_next_token(&s, &a)) != 0) {
		const char *slash = slash_in(a, len);
		int mine = slash ? (size_t)(slash - a) == plen && !memcmp(a, b->pmu, plen)
				 : amd_uncore_event_find(b, a, len) != NULL;
		if (mine && add_event(b, req, a, len, why, n))
			return -1;
	}
	return 0;
}

int amd_uncore_request(const struct amd_uncore_family *f, enum amd_box bx, const struct amd_uncore_caps *caps,
		       uint32_t npkgs, const uint32_t *cpu, const uint32_t *socket, const char *events,
		       struct unc_request *req, char *why, size_t n)
{
	const struct amd_box_desc *b = &f->box[bx];
	memset(req, 0, sizeof(*req));
	if (!b->pmu) {
		fmt_snprintf(why, n, "%s has no %s counters", f->name, bx == AMD_BOX_UMC ? "UMC" : "uncore");
		return -1;
	}
	req->type = *b->type;
	req->pmu = b->pmu;
	req->platform = f->name;
	req->rounds = 1;
	req->scope = bx == AMD_BOX_L3 ? "ccx" : bx == AMD_BOX_UMC ? "umc" : "socket";
	uint32_t boxes = 1, per_socket = 1;
	if (bx == AMD_BOX_DF)
		req->type.num_counters = caps->num_df < BOX_MAX_COUNTERS ? caps->num_df : BOX_MAX_COUNTERS;
	if (bx == AMD_BOX_UMC) {
		uint32_t active = (uint32_t)__builtin_popcount(caps->umc_mask);
		uint32_t per = active ? caps->num_umc / active : 0;
		if (!per) {
			fmt_snprintf(why, n, "amd_umc: %u counters for %u active UMCs (CPUID 0x80000022)", caps->num_umc,
				     active);
			return -1;
		}
		req->type.num_counters = (uint8_t)(per < BOX_MAX_COUNTERS ? per : BOX_MAX_COUNTERS);
		req->type.box_stride = 2 * per;       /* UMC j's counters follow UMC j-1's */
		per_socket = active;
	}
	if (!npkgs || npkgs * per_socket > UNC_MAX_PKGS) {
		fmt_snprintf(why, n, "%s: %u %ss x %u: outside 1..%u", b->pmu, npkgs, bx == AMD_BOX_L3 ? "CCX" : "socket",
			     per_socket, UNC_MAX_PKGS);
		return -1;
	}
	for (uint32_t p = 0; p < npkgs; p++)
		for (uint32_t j = 0; j < per_socket; j++) {
			uint32_t k = req->npkgs++;
			req->cpu[k] = cpu ? cpu[p] : 0;
			req->socket[k] = socket ? socket[p] : p;
			req->nboxes[k] = (uint16_t)boxes;
			req->first_box[k] = (uint16_t)j;
		}
	if (events && *events) {
		if (add_events(b, req, events, why, n))
			return -1;
	} else {
		for (uint16_t i = 0; i < b->nevents; i++)
			if (b->events[i].dflt &&
			    add_event(b, req, b->events[i].name, strlen(b->events[i].name), why, n))
				return -1;
	}
	if (!req->nevents) {
		fmt_snprintf(why, n, "%s: no event of the list is for this PMU", b->pmu);
		return -1;
	}
	return unc_form_groups(req, why, n);
}
