/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel IMC and IIO platforms and box types as data (pmu/uncore/intel_uncore.h). Register
 * facts: Linux arch/x86/events/intel/uncore_snbep.c (SNBEP_PMON_BOX_CTL_*, SNBEP_PCI_PMON_*,
 * skx_uncore_imc, skx_uncore_pci_ids, SKX_IIO0_MSR_PMON_*, skx_uncore_iio_constraints,
 * icx_msr_offsets, ICX_IIO_MSR_PMON_*, icx_uncore_iio_constraints, SNR_IMC_MMIO_*,
 * icx_uncore_imc, SKX_MSR_CPU_BUS_NUMBER, SAD_CONTROL_CFG, icx_sad_pmon_mapping); Intel PCM
 * src/cpucounters.cpp (UncorePMU freeze = FRZ_EN | FRZ) and src/pcm-iio-topology.cpp (root
 * port device of each part); Intel Xeon Scalable uncore PMON reference manual 336274 (unit
 * control, U_MSR_PMON_GLOBAL_CTL 0x700 bit 61 unfreeze). CPU models: Linux
 * arch/x86/include/asm/intel-family.h (SKYLAKE_X 0x55, ICELAKE_X 0x6A, ICELAKE_D 0x6C).
 */
#include "pmu/uncore/intel_uncore.h"
#include "pmu/events/gen_events.h"
#include "arch/lib/fmt.h"

#include <stdarg.h>
#include <string.h>

#define N8(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))
#define EN22 (1ull << 22)                     /* SNBEP_PMON_CTL_EN */
#define FRZ (1ull << 8)                       /* SNBEP_PMON_BOX_CTL_FRZ */
#define FRZ_EN (1ull << 16)                   /* SNBEP_PMON_BOX_CTL_FRZ_EN */
#define RST_CTRL (1ull << 0)
#define RST_CTRS (1ull << 1)
#define CTL_BASE 0xFF84FFFFull                /* event, umask, edge 18, inv 23, thresh 31:24 */
#define INTEL_VENDOR 0x8086

/* unit control frozen with FRZ_EN | FRZ (PCM UncorePMU::freeze), resets never set */
#define SNBEP_UNIT .box_frz = FRZ | FRZ_EN, .box_rst_ctrl = RST_CTRL, .box_rst_ctrs = RST_CTRS, .ctl_en = EN22

/* SKX IMC (PCI): BOX_CTL 0xF4, CTL0 0xD8 (+4), CTR0 0xA0 (+8, two dwords); offsets below are
 * from the box control, in bytes. 48-bit counters, 4 per channel. */
static const struct uncore_box_type skx_imc_type = {
	.name = "IMC", .access = BOX_ACCESS_PCI, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 4,
	.ctr_step = 8, .max_boxes = 6, .box_ctl = 0xF4, .unit_ctl = 0, .ctl0 = 0xD8 - 0xF4, .ctr0 = 0xA0 - 0xF4,
	.filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG, .ctr_split32 = 1, SNBEP_UNIT,
	.event_mask = CTL_BASE,
};
/* ICX IMC (MMIO): box at base + 0x22800 (+ 0x4000 per channel, in the site), CTL0 +0x40 (+4,
 * 32-bit), CTR0 +0x08 (+8, 64-bit) */
static const struct uncore_box_type icx_imc_type = {
	.name = "IMC", .access = BOX_ACCESS_MMIO, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 4,
	.ctr_step = 8, .max_boxes = 12, .box_ctl = 0x22800, .unit_ctl = 0, .ctl0 = 0x40, .ctr0 = 0x08,
	.filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG, .mmio_ctl32 = 1, SNBEP_UNIT,
	.event_mask = CTL_BASE,
};

/* IIO: DATA_REQ_OF_CPU (0x83) on counters 0-1, DATA_REQ_BY_CPU (0xC0) on 2-3 */
static const struct box_constraint iio_constraints[] = { { 0x83, 0x3 }, { 0xC0, 0xC } };
static const uint32_t icx_iio_box_ctl[6] = { 0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20 };
#define IIO_BOX .name = "IIO", .access = BOX_ACCESS_MSR, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, \
	.max_boxes = 6, .unit_ctl = 0, .ctl0 = 8, .ctr0 = 1, .filter = { BOX_NO_REG, BOX_NO_REG }, \
	.status = BOX_NO_REG, SNBEP_UNIT, .constraints = iio_constraints, .nconstraints = N8(iio_constraints), \
	.global_ctl = 0x700, .global_unfreeze = 1ull << 61
static const struct uncore_box_type skx_iio_type = {
	IIO_BOX, .box_ctl = 0xA40, .box_stride = 0x20,
	.event_mask = (CTL_BASE & ~0xFF000000ull) | 0xFFFull << 24 | 0xFFull << 36 | 0x7ull << 44,
};
static const struct uncore_box_type icx_iio_type = {
	IIO_BOX, .box_ctl_table = icx_iio_box_ctl,
	.event_mask = (CTL_BASE & ~0xFF000000ull) | 0xFFFull << 24 | 0xFFFull << 36 | 0x7ull << 48,
};

/* SPR and later: every IMC channel and IIO stack is a unit of the discovery table
 * (pmu/uncore/intel_discovery.h), its unit control at the address the table gives (MMIO
 * physical address / MSR, carried in the unit's site), the counter count, width and CTL0 /
 * CTR0 offsets from the table (the values below are only defaults the table replaces). Unit
 * control bits of the generic PMON (Linux uncore_discovery.h GENERIC_PMON_BOX_CTL_FRZ bit 0,
 * RST_CTRL bit 8, RST_CTRS bit 9); event select enable bit 22 and MMIO 32-bit selects /
 * 64-bit counters as on ICX (Intel Sapphire Rapids uncore PMON reference manual, "Unit Counter
 * Control": en bit 22; Linux uncore_discovery.c intel_generic_uncore_mmio_* writel / readq).
 * No package control is written: Linux's generic driver leaves the global control alone too. */
#define GENERIC_UNIT .box_frz = 1ull << 0, .box_rst_ctrl = 1ull << 8, .box_rst_ctrs = 1ull << 9, .ctl_en = EN22
static const struct uncore_box_type spr_imc_type = {
	.name = "IMC", .access = BOX_ACCESS_MMIO, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .ctl_step = 4,
	.ctr_step = 8, .max_boxes = 32, .unit_ctl = 0, .ctl0 = 0x40, .ctr0 = 0x08, .filter = { BOX_NO_REG, BOX_NO_REG },
	.status = BOX_NO_REG, .mmio_ctl32 = 1, GENERIC_UNIT, .event_mask = CTL_BASE,
};
/* SPR IIO: ch_mask config 36-47, fc_mask 48-50 as ICX (Linux spr_uncore_iio uses
 * snr_uncore_iio_format_group: ch_mask2, fc_mask2; perfmon UMaskExt of the DATA_REQ events:
 * PortMask << 4 | FCMask << 16, i.e. config bits 36 and 48); constraints as ICX (Linux
 * spr_uncore_iio .constraints = icx_uncore_iio_constraints) */
static const struct uncore_box_type spr_iio_type = {
	.name = "IIO", .access = BOX_ACCESS_MSR, .num_counters = 4, .ctr_bits = 48, .reg_step = 1, .max_boxes = 16,
	.unit_ctl = 0, .ctl0 = 8, .ctr0 = 1, .filter = { BOX_NO_REG, BOX_NO_REG }, .status = BOX_NO_REG, GENERIC_UNIT,
	.constraints = iio_constraints, .nconstraints = N8(iio_constraints),
	.event_mask = (CTL_BASE & ~0xFF000000ull) | 0xFFFull << 24 | 0xFFFull << 36 | 0x7ull << 48,
};

/* Linux sysfs format names: imc event, umask, edge, inv, thresh8 (config:24-31); iio thresh9
 * (config:24-35), ch_mask config:36-43 / ch_mask2 36-47, fc_mask 44-46 / fc_mask2 48-50 */
static const struct ev_field imc_fields[] = {
	{ .name = "event", .shift = 0, .bits = 8 }, { .name = "umask", .shift = 8, .bits = 8 },
	{ .name = "edge", .shift = 18, .bits = 1 }, { .name = "inv", .shift = 23, .bits = 1 },
	{ .name = "thresh", .shift = 24, .bits = 8 },
};
static const struct ev_field skx_iio_fields[] = {
	{ .name = "event", .shift = 0, .bits = 8 }, { .name = "umask", .shift = 8, .bits = 8 },
	{ .name = "edge", .shift = 18, .bits = 1 }, { .name = "inv", .shift = 23, .bits = 1 },
	{ .name = "thresh", .shift = 24, .bits = 12 }, { .name = "ch_mask", .shift = 36, .bits = 8 },
	{ .name = "fc_mask", .shift = 44, .bits = 3 },
};
static const struct ev_field icx_iio_fields[] = {
	{ .name = "event", .shift = 0, .bits = 8 }, { .name = "umask", .shift = 8, .bits = 8 },
	{ .name = "edge", .shift = 18, .bits = 1 }, { .name = "inv", .shift = 23, .bits = 1 },
	{ .name = "thresh", .shift = 24, .bits = 12 }, { .name = "ch_mask", .shift = 36, .bits = 12 },
	{ .name = "fc_mask", .shift = 48, .bits = 3 },
};

/* SKX channel functions (Linux skx_uncore_pci_ids: 10.2 / 10.6 / 11.2 MC0, 12.2 / 12.6 / 13.2 MC1) */
static const struct intel_imc_pci skx_imc_pci[] = {
	{ 10, 2, 0x2042 }, { 10, 6, 0x2046 }, { 11, 2, 0x204A }, { 12, 2, 0x2042 }, { 12, 6, 0x2046 }, { 13, 2, 0x204A },
};
/* ICX memory-controller device 8086:3451 (Linux SNR_MC_DEVICE_ID via icx_uncore_imc_init_box;
 * PCM: device 0 function 1 of the UBOX bus): SNR_IMC_MMIO_BASE_OFFSET 0xD0 / MASK 0x1FFFFFFF
 * << 23, SNR_IMC_MMIO_MEM0_OFFSET 0xD8 + ICX_IMC_MEM_STRIDE 4 per IMC / MASK 0x7FF << 12;
 * ICX_NUMBER_IMC_CHN 3 boxes per IMC at SNR_IMC_MMIO_OFFSET 0x4000 apart, 12 boxes */
static const struct intel_imc_mmio icx_imc_mmio = {
	.dev = 0, .func = 1, .device = 0x3451, .base_reg = 0xD0, .base_mask = 0x1FFFFFFF, .base_shift = 23,
	.mem0_reg = 0xD8, .mem_step = 4, .mem_mask = 0x7FF, .mem_shift = 12, .nimc = 4, .chan_per_imc = 3,
	.box_off = 0x22800, .chan_stride = 0x4000,
};

#define IMC(ty, ev, nev, src) { .pmu = "uncore_imc", .type = ty, .fields = imc_fields, .nfields = N8(imc_fields), \
	.events = ev, .nevents = nev, .bytes = 64, .prefix = "UNC_M_", .source = src }
#define IIO(ty, fl, ev, nev, src) { .pmu = "uncore_iio", .type = ty, .fields = fl, .nfields = N8(fl), \
	.events = ev, .nevents = nev, .bytes = 4, .prefix = "UNC_IIO_", .source = src }

/* SPR and later: the stacks' buses from the MSM function (struct intel_msm); CPU bus -> IIO
 * PMON box per die as PCM lists them (src/pcm-iio-pmu.h; PCM marks two of the MCC entries as
 * assumptions: the check against the PCI tree names a disagreement) */
#define MSM_NONE_4 0xFF, 0xFF, 0xFF, 0xFF
#define MSM_TAIL MSM_NONE_4, MSM_NONE_4, MSM_NONE_4, MSM_NONE_4, MSM_NONE_4
#define MSM_REGS .device = 0x09A6, .valid_reg = 0x1A0, .busno_reg = { 0x190, 0x1C0 }
static const struct intel_msm spr_msm = {
	MSM_REGS, .chop_device = 0x325B, .chop_dev = 0x1E, .chop_func = 3, .chop_reg = 0x94, .chop_shift = 6,
	.nmaps = 2, .map = {
		{ 3, "XCC", { 1, 2, 4, 6, 7, 9, 0xFF, 0xFF, 0, 3, 5, 8, MSM_TAIL } },
		{ 1, "MCC", { 0, 1, 2, 10, 4, 5, 0xFF, 0xFF, 3, 0xFF, 0xFF, 0xFF, MSM_TAIL } },
	},
};
static const struct intel_msm emr_msm = {
	MSM_REGS, .nmaps = 1, .map = { { MSM_NO_CHOP, "EMR", { 7, 1, 2, 3, 8, 6, 0xFF, 0xFF, 0, 4, 5, 9, MSM_TAIL } } },
};
/* GNR (PCM src/pcm-iio-topology.cpp, commit 0fae0de1af65bc82f1c80dceb4e5bed25cc369da:
 * BirchStreamPlatform, used for GNR and SRF, reads the same MSM registers (8086:09A6) and maps
 * SAD bus id k to PMON id by srf_sad_to_pmu_id_mapping: 0 PE6 -> 0, 1 PE2 -> 2, 2 PE0 -> 3,
 * 3 PE1 -> 4, 4 PE3 -> 5, 5 PE7 -> 7, 8 HC0 -> 1, 12 HC1 -> 6, 16 HC3 -> 14, 20 HC2 -> 9,
 * 26 PE5 -> 12, 28 PE8 -> 8, 29 PE4 -> 11. Buses 1-2 after each HC root (its accelerators) and
 * 30-31 (UBOX A/B) are no IIO root; PCM calls any other id unknown. Its FlexUPI boxes (FLEX_PE4
 * 13, FLEX_PE5 10) share the SAD ids 29 and 26 and its map keeps the first entry of each, as
 * this one does: on a FlexUPI configuration buses 26 and 29 may be given the wrong box. */
#define NI MSM_NOT_IIO
#define NB MSM_NO_BOX
static const struct intel_msm gnr_msm = {
	MSM_REGS, .nmaps = 1, .map = { { MSM_NO_CHOP, "GNR", {
		0, 2, 3, 4, 5, 7, NB, NB, 1, NI, NI, NB, 6, NI, NI, NB,
		14, NI, NI, NB, 9, NI, NI, NB, NB, NB, 12, NB, 8, 11, NI, NI } } },
};
#undef NI
#undef NB

/* Linux uncore_snbep.c UNCORE_SPR_IIO 1, UNCORE_SPR_IMC 6 (also GNR's gnr_uncores[1], [6]) */
#define SPR_DISCOVERY(dev0) .discovery = 1, .disc_box_type = { [INTEL_BOX_IMC] = 6, [INTEL_BOX_IIO] = 1 }, \
	.iio_map = IIO_MAP_DISCOVERY, .nstacks = 16, .part_dev0 = dev0, .nparts = 8

const struct intel_uncore_platform intel_uncore_platforms[] = {
	{
		.name = "SKX", .cpus = "Skylake-SP, Cascade Lake-SP", .models = { 0x55 },
		.box = { IMC(&skx_imc_type, intel_imc_skx, 4, "SKX/events/skylakex_uncore.json 1.37"),
			 IIO(&skx_iio_type, skx_iio_fields, intel_iio_skx, 17, "SKX/events/skylakex_uncore.json 1.37") },
		.imc_pci = skx_imc_pci, .nimc_pci = N8(skx_imc_pci),
		/* 6 IIO boxes; MSR 0x300 CPU_BUS_NUMBER; root ports of parts 0-3 are devices 0-3 of
		 * the stack bus (PCM pcm-iio-topology.cpp PurleyPlatformMapping) */
		.nstacks = 6, .iio_map = IIO_MAP_CPUBUSNO_MSR, .cpubusno_msr = 0x300, .part_dev0 = 0, .nparts = 4,
	},
	{
		.name = "ICX", .cpus = "Ice Lake-SP, Ice Lake-D", .models = { 0x6A, 0x6C },
		.box = { IMC(&icx_imc_type, intel_imc_icx, 4, "ICX/events/icelakex_uncore.json 1.30"),
			 IIO(&icx_iio_type, icx_iio_fields, intel_iio_icx, 33, "ICX/events/icelakex_uncore.json 1.30") },
		.imc_mmio = &icx_imc_mmio,
		/* SAD_CONTROL_CFG 0x3F4 of each 8086:09A2, stack id [6:4], socket [3:0]; SAD stack id
		 * -> PMON box {5, 0, 1, 2, 3, 4} (Linux icx_sad_pmon_mapping); parts 0-7 are root
		 * ports at devices 2-5 (PCM WhitleyPlatformMapping: part = device - 2) */
		.nstacks = 6, .iio_map = IIO_MAP_SAD_CONTROL, .sad_device = 0x09A2, .sad_reg = 0x3F4,
		.sad_to_pmon = { 5, 0, 1, 2, 3, 4, 0xFF, 0xFF }, .part_dev0 = 2, .nparts = 8,
	},
	/* root ports of parts 0-7: devices 1-8 of the stack bus (PCM pcm-iio.cpp
	 * EagleStreamPlatformMapping: part = device - 1) */
	{
		.name = "SPR", .cpus = "Sapphire Rapids", .models = { 0x8F },
		.box = { IMC(&spr_imc_type, intel_imc_spr, 4, "SPR/events/sapphirerapids_uncore.json 1.39"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "SPR/events/sapphirerapids_uncore.json 1.39") },
		SPR_DISCOVERY(1), .msm = &spr_msm,
	},
	{
		.name = "EMR", .cpus = "Emerald Rapids", .models = { 0xCF },
		.box = { IMC(&spr_imc_type, intel_imc_spr, 4, "EMR/events/emeraldrapids_uncore.json 1.24"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "EMR/events/emeraldrapids_uncore.json 1.24") },
		SPR_DISCOVERY(1), .msm = &emr_msm,
	},
	{
		.name = "GNR", .cpus = "Granite Rapids", .models = { 0xAD },
		.box = { IMC(&spr_imc_type, intel_imc_gnr, 7, "GNR/events/graniterapids_uncore.json 1.20"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "GNR/events/graniterapids_uncore.json 1.20") },
		/* root ports A-H of a PCIe stack: devices 2-9 of its bus, part = device - 2 (PCM
		 * pcm-iio-topology.cpp birchStreamPciStackProbe) */
		SPR_DISCOVERY(2), .msm = &gnr_msm,
	},
	/* Granite Rapids-D: Intel's mapfile.csv serves it with GNR's files (no file of its own), so
	 * GNR's events; but PCM gives GNR_D no stack mapping of its own ("only initial support
	 * (without attribution to PCIe devices)", src/pcm-iio-topology.cpp getPlatformMapping,
	 * commit 0fae0de1af65), so GNR's SAD-to-PMON map is not assumed: its IIO map says so */
	{
		.name = "GNR-D", .cpus = "Granite Rapids-D", .models = { 0xAE },
		.box = { IMC(&spr_imc_type, intel_imc_gnr, 7, "GNR/events/graniterapids_uncore.json 1.20"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "GNR/events/graniterapids_uncore.json 1.20") },
		SPR_DISCOVERY(2), .msm = NULL, .events_of = "GNR",
	},
	/* Sierra Forest (Crestmont E-cores) and Clearwater Forest (Darkmont): Linux
	 * arch/x86/events/intel/uncore.c gives INTEL_ATOM_CRESTMONT_X and INTEL_ATOM_DARKMONT_X
	 * gnr_uncore_init (GNR's discovery-table boxes); Intel's SRF and CWF uncore files encode
	 * every IMC/IIO event of GNR's tables the same (tests/oracle/perfmon srf_imc_iio.json,
	 * cwf_imc_iio.json). SRF's stack buses: PCM's BirchStreamPlatform serves GNR and SRF with
	 * the one srf_sad_to_pmu_id_mapping (gnr_msm above). PCM has no Clearwater Forest mapping
	 * (src/pcm-iio-topology.cpp, commit 0fae0de1af65), so CWF's IIO units have no
	 * CPU-bus-to-box table and say so. */
	{
		.name = "SRF", .cpus = "Sierra Forest (Xeon 6 E-cores)", .models = { 0xAF },
		.box = { IMC(&spr_imc_type, intel_imc_gnr, 7, "SRF/events/sierraforest_uncore.json 1.18"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "SRF/events/sierraforest_uncore.json 1.18") },
		SPR_DISCOVERY(2), .msm = &gnr_msm,
	},
	{
		.name = "CWF", .cpus = "Clearwater Forest", .models = { 0xDD },
		.box = { IMC(&spr_imc_type, intel_imc_gnr, 7, "CWF/events/clearwaterforest_uncore.json 1.04"),
			 IIO(&spr_iio_type, icx_iio_fields, intel_iio_icx, 33, "CWF/events/clearwaterforest_uncore.json 1.04") },
		SPR_DISCOVERY(2), .msm = NULL,
	},
};
const size_t intel_uncore_nplatforms = sizeof(intel_uncore_platforms) / sizeof(intel_uncore_platforms[0]);

const struct intel_uncore_platform *intel_uncore_platform_for(uint32_t family, uint32_t model)
{
	if (family != 6)
		return NULL;
	for (size_t i = 0; i < intel_uncore_nplatforms; i++)
		for (size_t k = 0; k < sizeof(intel_uncore_platforms[i].models); k++)
			if (intel_uncore_platforms[i].models[k] && intel_uncore_platforms[i].models[k] == model)
				return &intel_uncore_platforms[i];
	return NULL;
}

const struct intel_uncore_platform *intel_uncore_platform_by_name(const char *name)
{
	for (size_t i = 0; i < intel_uncore_nplatforms; i++)
		if (!strcmp(intel_uncore_platforms[i].name, name))
			return &intel_uncore_platforms[i];
	return NULL;
}

const struct intel_uncore_event *intel_uncore_event_find(const struct intel_box_desc *b, const char *name,
							 size_t len)
{
	size_t pl = strlen(b->prefix);
	if (len > pl && !memcmp(name, b->prefix, pl)) {
		name += pl;
		len -= pl;
	}
	for (uint16_t i = 0; i < b->nevents; i++)
		if (strlen(b->events[i].name) == len && !memcmp(b->events[i].name, name, len))
			return &b->events[i];
	return NULL;
}

int intel_uncore_gen_unit(const struct intel_box_desc *b, const char **unit, const char **plat)
{
	for (size_t i = 0; i < intel_uncore_nplatforms; i++)
		for (int k = 0; k < INTEL_NBOX; k++)
			if (&intel_uncore_platforms[i].box[k] == b) {
				const struct intel_uncore_platform *p = &intel_uncore_platforms[i];
				*unit = k == INTEL_BOX_IMC ? "imc" : "iio";
				*plat = p->events_of ? p->events_of : p->name;
				return 1;
			}
	return 0;
}

int intel_uncore_gen_find(const struct intel_box_desc *b, const char *name, size_t len, struct gen_row *r)
{
	const char *unit, *plat;
	return intel_uncore_gen_unit(b, &unit, &plat) && gen_lookup(unit, plat, name, len, r);
}

static const void *lookup(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t, char *err,
			  size_t n)
{
	const struct intel_box_desc *b = g->ctx;
	const struct intel_uncore_event *e = intel_uncore_event_find(b, name, len);
	struct gen_row r;
	if (!e && intel_uncore_gen_find(b, name, len, &r)) {
		/* not in the hand table: Intel's catalogue (pmu/events/gen_events.h). IIO from ICX:
		 * UMaskExt is CTL bits 63:32, i.e. ch_mask (config:36-47) and fc_mask (config:48-50).
		 * Where Intel's files also give PortMask or FCMask they win over UMaskExt, as Intel's
		 * converter to Linux perf JSON decides (intel/perfmon scripts/create_perf_json.py: "Unset
		 * UMaskExt if PortMask or FCMask are set"); SPR/EMR COMP_BUF_OCCUPANCY.CMPD.* and GNR/SRF/
		 * CWF NUM_OUTSTANDING_REQ_OF_CPU.* are rows where the two disagree. */
		uint32_t ch = r.port_mask, fc = r.fc_mask;
		if (!ch && !fc && r.umask_ext) {
			ch = (r.umask_ext >> 4) & 0xFFF;
			fc = (r.umask_ext >> 16) & 0x7;
		}
		if (ev_set_named(g, t, "event", r.event, err, n) || ev_set_named(g, t, "umask", r.umask, err, n) ||
		    (ev_field_index(g, "ch_mask") >= 0 && (ev_set_named(g, t, "ch_mask", ch, err, n) ||
							   ev_set_named(g, t, "fc_mask", fc, err, n))))
			return NULL;
		return &gen_named_marker;
	}
	if (!e)
		return NULL;
	if (ev_set_named(g, t, "event", e->event, err, n) || ev_set_named(g, t, "umask", e->umask, err, n))
		return NULL;
	if (ev_field_index(g, "ch_mask") >= 0 && (ev_set_named(g, t, "ch_mask", e->ch_mask, err, n) ||
						  ev_set_named(g, t, "fc_mask", e->fc_mask, err, n)))
		return NULL;
	return e;
}

/* The box's grammar and, for name_at, its catalogue names after the hand table's. */
struct box_grammar {
	struct ev_grammar g;      /* first: name_at gets back to gen from it */
	struct gen_names gen;
};

static const char *name_at(const struct ev_grammar *g, size_t i)
{
	const struct intel_box_desc *b = g->ctx;
	struct box_grammar *bg = (struct box_grammar *)(uintptr_t)g;   /* g is bg->g, on the caller's stack */
	return i < b->nevents ? b->events[i].name : gen_names_at(&bg->gen, i - b->nevents);
}

/* The first '/' of s[0..len), or NULL (no memchr in the firmware build's C library). */
static const char *slash_in(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/')
			return s + i;
	return NULL;
}

/* The `pmu` or `pmu_N` before the first '/' of s: *box = N or -1; the length of the prefix, 0
 * when it is not this PMU's. */
static size_t pmu_prefix(const struct intel_box_desc *b, const char *s, size_t len, int *box)
{
	size_t pl = strlen(b->pmu), i;
	*box = -1;
	const char *slash = slash_in(s, len);
	if (!slash || (size_t)(slash - s) < pl || memcmp(s, b->pmu, pl))
		return 0;
	size_t k = (size_t)(slash - s);
	if (k == pl)
		return k;
	if (s[pl] != '_' || k == pl + 1 || k > pl + 3)
		return 0;
	int v = 0;
	for (i = pl + 1; i < k; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*box = v;
	return k;
}

int intel_uncore_encode(const struct intel_box_desc *b, const char *spec, size_t len, uint64_t *ctl, int *box,
			const struct intel_uncore_event **named, char *why, size_t n)
{
	char buf[UNC_SPEC_MAX + 8], what[32];
	int bx = -1;
	size_t k = slash_in(spec, len) ? pmu_prefix(b, spec, len, &bx) : 0;
	if (slash_in(spec, len) && !k) {
		fmt_snprintf(why, n, "%.*s: not a %s or %s_N event", (int)(len > 40 ? 40 : len), spec, b->pmu, b->pmu);
		return -1;
	}
	if (k) {
		size_t pl = strlen(b->pmu);
		if (pl + len - k >= sizeof(buf)) {
			fmt_snprintf(why, n, "%s event longer than %u bytes", b->pmu, UNC_SPEC_MAX - 1);
			return -1;
		}
		memcpy(buf, b->pmu, pl);
		memcpy(buf + pl, spec + k, len - k);
		spec = buf;
		len = pl + len - k;
	}
	if (bx >= 0 && bx >= b->type->max_boxes) {
		fmt_snprintf(why, n, "%s_%d: the platform has %s_0..%u", b->pmu, bx, b->pmu, b->type->max_boxes - 1);
		return -1;
	}
	fmt_snprintf(what, sizeof(what), "%s", b->pmu);
	struct box_grammar bg = { .g = { .pmu = { b->pmu }, .fields = b->fields, .nfields = b->nfields, .bare_name = 1,
					 .what = what, .lookup = lookup, .ctx = b, .name_at = name_at } };
	const char *unit = "", *plat = "";
	intel_uncore_gen_unit(b, &unit, &plat);
	gen_names_start(&bg.gen, unit, plat);
	struct ev_terms t;
	if (ev_parse(&bg.g, spec, len, 0, &t, why, n))
		return -1;
	uint64_t reg[EV_MAX_REGS] = { 0 };
	ev_encode(&bg.g, &t, reg);
	*ctl = reg[0] | b->type->ctl_en;
	if (box)
		*box = bx;
	if (named)
		*named = t.named == &gen_named_marker ? NULL : t.named;
	return 0;
}

size_t intel_uncore_event_spec(const struct intel_box_desc *b, const struct intel_uncore_event *e, char *buf,
			       size_t n)
{
	if (e->fc_mask || e->ch_mask)
		return fmt_snprintf(buf, n, "%s/event=0x%x,umask=0x%x,ch_mask=0x%x,fc_mask=0x%x/", b->pmu, e->event,
				    e->umask, e->ch_mask, e->fc_mask);
	return fmt_snprintf(buf, n, "%s/event=0x%x,umask=0x%x/", b->pmu, e->event, e->umask);
}

/* ---- PCI scan and IMC discovery ------------------------------------------------------------ */

static uint32_t cfg32(const struct hw *hw, struct hw_pci_addr a, uint16_t off)
{
	uint32_t v = 0xFFFFFFFFu;
	if (hw_pci_read32(hw, a, off, &v) != HW_OK)
		return 0xFFFFFFFFu;
	return v;
}

static int probe(const struct hw *hw, struct hw_pci_addr a, struct intel_pci_fn *f, uint8_t *ht)
{
	uint32_t id = cfg32(hw, a, 0x00);
	if ((id & 0xFFFF) == 0xFFFF || (id & 0xFFFF) == 0)
		return 0;
	uint32_t hdr = cfg32(hw, a, 0x0C);                /* header type: bits 23:16 */
	*ht = (uint8_t)(hdr >> 16);
	*f = (struct intel_pci_fn){ .a = a, .vendor = (uint16_t)id, .device = (uint16_t)(id >> 16) };
	if ((*ht & 0x7F) == 1) {                          /* type 1: bus numbers at 0x18 */
		uint32_t b = cfg32(hw, a, 0x18);
		f->bridge = 1;
		f->secondary = (uint8_t)(b >> 8);
		f->subordinate = (uint8_t)(b >> 16);
	}
	return 1;
}

uint32_t intel_pci_scan(const struct hw *hw, uint16_t seg, uint8_t lo, uint8_t hi, struct intel_pci_fn *out,
			uint32_t max)
{
	uint32_t n = 0;
	for (unsigned bus = lo; bus <= hi; bus++)
		for (unsigned dev = 0; dev < 32; dev++) {
			struct intel_pci_fn f;
			uint8_t ht = 0;
			struct hw_pci_addr a = { seg, (uint8_t)bus, (uint8_t)dev, 0 };
			if (!probe(hw, a, &f, &ht))
				continue;
			if (n < max)
				out[n++] = f;
			for (unsigned fn = 1; (ht & 0x80) && fn < 8; fn++) {
				uint8_t h2;
				a.func = (uint8_t)fn;
				if (probe(hw, a, &f, &h2) && n < max)
					out[n++] = f;
			}
		}
	return n;
}

/* Rank of bus among the distinct buses of the matching functions (socket number). */
static uint16_t bus_rank(const uint8_t *buses, uint32_t nb, uint8_t bus)
{
	uint16_t r = 0;
	for (uint32_t i = 0; i < nb; i++)
		r += buses[i] < bus;
	return r;
}

static void add_bus(uint8_t *buses, uint32_t *nb, uint8_t bus)
{
	for (uint32_t i = 0; i < *nb; i++)
		if (buses[i] == bus)
			return;
	buses[(*nb)++] = bus;
}

int intel_imc_find(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		   uint32_t nfns, struct intel_unit *u, uint32_t max, uint32_t *n, char *why, size_t wn)
{
	uint8_t buses[256];
	uint32_t nb = 0;
	*n = 0;
	if (p->imc_pci) {
		for (uint32_t i = 0; i < nfns; i++)
			for (uint8_t c = 0; c < p->nimc_pci; c++)
				if (fns[i].vendor == INTEL_VENDOR && fns[i].device == p->imc_pci[c].device &&
				    fns[i].a.dev == p->imc_pci[c].dev && fns[i].a.func == p->imc_pci[c].func)
					add_bus(buses, &nb, fns[i].a.bus);
		for (uint32_t i = 0; i < nfns; i++)
			for (uint8_t c = 0; c < p->nimc_pci; c++)
				if (fns[i].vendor == INTEL_VENDOR && fns[i].device == p->imc_pci[c].device &&
				    fns[i].a.dev == p->imc_pci[c].dev && fns[i].a.func == p->imc_pci[c].func && *n < max)
					u[(*n)++] = (struct intel_unit){ bus_rank(buses, nb, fns[i].a.bus), c,
									 { .pci = fns[i].a } };
		if (!*n)
			fmt_snprintf(why, wn, "no IMC channel function in the PCI scan (%s: 8086:%04x at device %u function %u, "
				     "and %u more per socket)", p->name, p->imc_pci[0].device, p->imc_pci[0].dev,
				     p->imc_pci[0].func, p->nimc_pci - 1);
		return *n ? 0 : -1;
	}
	uint32_t nblk = 0;
	struct intel_imc_block blk[INTEL_IMC_MAX_BLOCKS];
	if (intel_imc_blocks(hw, p, fns, nfns, blk, INTEL_IMC_MAX_BLOCKS, &nblk, why, wn))
		return -1;
	const struct intel_imc_mmio *mm = p->imc_mmio;
	for (uint32_t b = 0; b < nblk; b++)
		for (uint8_t c = 0; c < mm->chan_per_imc && *n < max; c++)
			u[(*n)++] = (struct intel_unit){ blk[b].socket, (uint16_t)(blk[b].imc * mm->chan_per_imc + c),
							 { .mmio_base = blk[b].base + (uint64_t)c * mm->chan_stride } };
	return *n ? 0 : -1;
}

int intel_imc_blocks(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		     uint32_t nfns, struct intel_imc_block *out, uint32_t max, uint32_t *n, char *why, size_t wn)
{
	uint8_t buses[256];
	uint32_t nb = 0;
	*n = 0;
	const struct intel_imc_mmio *mm = p->imc_mmio;
	if (!mm) {
		fmt_snprintf(why, wn, "%s: no IMC access method in the table", p->name);
		return -1;
	}
	for (uint32_t i = 0; i < nfns; i++)
		if (fns[i].vendor == INTEL_VENDOR && fns[i].device == mm->device && fns[i].a.dev == mm->dev &&
		    fns[i].a.func == mm->func)
			add_bus(buses, &nb, fns[i].a.bus);
	why[0] = 0;
	for (uint32_t i = 0; i < nfns; i++) {
		const struct intel_pci_fn *f = &fns[i];
		if (f->vendor != INTEL_VENDOR || f->device != mm->device || f->a.dev != mm->dev || f->a.func != mm->func)
			continue;
		uint32_t b = cfg32(hw, f->a, mm->base_reg);
		uint64_t base = (uint64_t)(b & mm->base_mask) << mm->base_shift;
		if (b == 0xFFFFFFFFu || !base) {
			fmt_snprintf(why, wn, "8086:%04x at %02x:%02x.%x: memory-controller base register 0x%x reads 0x%x",
				     mm->device, f->a.bus, f->a.dev, f->a.func, mm->base_reg, b);
			continue;
		}
		for (uint8_t m = 0; m < mm->nimc && *n < max; m++) {
			uint32_t o = cfg32(hw, f->a, (uint16_t)(mm->mem0_reg + m * mm->mem_step));
			if (o == 0xFFFFFFFFu || !(o & mm->mem_mask))
				continue;         /* IMC m not populated */
			out[(*n)++] = (struct intel_imc_block){ bus_rank(buses, nb, f->a.bus), m,
								base | (uint64_t)(o & mm->mem_mask) << mm->mem_shift };
		}
	}
	if (!*n && !why[0])
		fmt_snprintf(why, wn, "no memory-controller function 8086:%04x at device %u function %u in the PCI scan",
			     mm->device, mm->dev, mm->func);
	return *n ? 0 : -1;
}

/* ---- IIO stack map ------------------------------------------------------------------------- */

void iio_map_defect(struct iio_map *m, const char *fmt, ...)
{
	if (m->ndefects < IIO_MAX_DEFECTS) {
		va_list ap;
		va_start(ap, fmt);
		fmt_vsnprintf(m->defect[m->ndefects], sizeof(m->defect[0]), fmt, ap);
		va_end(ap);
	}
	if (m->ndefects < 255)
		m->ndefects++;
}

void iio_map_from_cpubusno(const struct intel_uncore_platform *p, uint64_t msr, struct iio_map *m)
{
	memset(m, 0, sizeof(*m));
	m->nstacks = p->nstacks < IIO_MAX_STACKS ? p->nstacks : IIO_MAX_STACKS;
	m->method = IIO_MAP_CPUBUSNO_MSR;
	fmt_snprintf(m->source, sizeof(m->source), "MSR 0x%x CPU_BUS_NUMBER = 0x%016llx", p->cpubusno_msr,
		     (unsigned long long)msr);
	if (!(msr >> 63)) {
		fmt_snprintf(m->why, sizeof(m->why), "MSR 0x%x CPU_BUS_NUMBER bit 63 (valid) is clear: 0x%llx",
			     p->cpubusno_msr, (unsigned long long)msr);
		return;
	}
	m->valid = 1;
	for (uint8_t k = 0; k < m->nstacks; k++) {
		uint8_t bus = (uint8_t)(msr >> (8 * k));
		/* bus 0 names a stack only for box 0 (Linux skx_iio_mapping_visible) */
		m->stack[k].present = bus || !k;
		m->stack[k].bus = bus;
	}
}

void iio_map_from_sad(const struct intel_uncore_platform *p, const uint8_t *bus, const uint32_t *sad, uint32_t n,
		      struct iio_map *m)
{
	memset(m, 0, sizeof(*m));
	m->nstacks = p->nstacks < IIO_MAX_STACKS ? p->nstacks : IIO_MAX_STACKS;
	m->method = IIO_MAP_SAD_CONTROL;
	fmt_snprintf(m->source, sizeof(m->source), "SAD_CONTROL_CFG (0x%x) of %u 8086:%04x function(s)", p->sad_reg, n,
		     p->sad_device);
	if (!n) {
		fmt_snprintf(m->why, sizeof(m->why), "no 8086:%04x (SAD_CONTROL_CFG 0x%x) function in the PCI scan",
			     p->sad_device, p->sad_reg);
		return;
	}
	m->valid = 1;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t sid = (uint8_t)((sad[i] >> 4) & 7), pmon = p->sad_to_pmon[sid];
		if (pmon >= m->nstacks) {
			iio_map_defect(m, "bus %02x: SAD_CONTROL_CFG 0x%x names stack id %u, which has no IIO PMON box", bus[i], sad[i], sid);
			continue;
		}
		if (m->stack[pmon].present) {
			iio_map_defect(m, "buses %02x and %02x both claim IIO stack %u (SAD stack id %u)", m->stack[pmon].bus, bus[i],
			       pmon, sid);
			continue;
		}
		m->stack[pmon].present = 1;
		m->stack[pmon].bus = bus[i];
	}
}

/* The stack whose range holds bus, or -1. */
static int stack_of(const struct iio_map *m, uint8_t bus)
{
	for (int k = 0; k < m->nstacks; k++)
		if (m->stack[k].present && bus >= m->stack[k].bus && bus <= m->stack[k].bus_end)
			return k;
	return -1;
}

/* The root port (a bridge on a stack's root bus) whose secondary..subordinate holds bus, or -1. */
static int root_port_of(const struct iio_map *m, const struct intel_pci_fn *fns, uint32_t nfns, uint8_t bus)
{
	for (uint32_t i = 0; i < nfns; i++) {
		const struct intel_pci_fn *f = &fns[i];
		if (!f->bridge || f->secondary <= f->a.bus || bus < f->secondary || bus > f->subordinate)
			continue;
		for (int k = 0; k < m->nstacks; k++)
			if (m->stack[k].present && f->a.bus == m->stack[k].bus)
				return (int)i;
	}
	return -1;
}

uint32_t iio_map_check(const struct intel_uncore_platform *p, const struct intel_pci_fn *fns, uint32_t nfns,
		       struct iio_map *m)
{
	if (!m->valid)
		return 0;
	for (int k = 0; k < m->nstacks; k++) {
		if (!m->stack[k].present)
			continue;
		uint8_t end = 0xFF;
		for (int j = 0; j < m->nstacks; j++) {
			if (j == k || !m->stack[j].present)
				continue;
			if (m->stack[j].bus == m->stack[k].bus && j > k)
				iio_map_defect(m, "IIO stacks %d and %d both have root bus %02x", k, j, m->stack[k].bus);
			if (m->stack[j].bus > m->stack[k].bus && m->stack[j].bus - 1 < end)
				end = (uint8_t)(m->stack[j].bus - 1);
		}
		m->stack[k].bus_end = end;
	}
	for (int k = 0; k < m->nstacks; k++) {
		if (!m->stack[k].present)
			continue;
		int seen = 0;
		for (uint32_t i = 0; i < nfns; i++) {
			const struct intel_pci_fn *f = &fns[i];
			if (f->a.bus != m->stack[k].bus)
				continue;
			seen = 1;
			if (!f->bridge || f->a.func || f->a.dev < p->part_dev0 || f->a.dev >= p->part_dev0 + p->nparts ||
			    m->stack[k].nports >= UNC_MAX_PARTS)
				continue;
			m->stack[k].port[m->stack[k].nports++] = (typeof(m->stack[k].port[0])){
				(uint8_t)(f->a.dev - p->part_dev0), f->a.dev, f->a.func, f->secondary, f->subordinate };
		}
		if (!seen)
			iio_map_defect(m, "IIO stack %d: no function on its root bus %02x in the PCI scan", k, m->stack[k].bus);
	}
	/* every function below a root port must be on a bus the map gives to that port's stack */
	for (uint32_t i = 0; i < nfns; i++) {
		const struct intel_pci_fn *f = &fns[i];
		int rp = root_port_of(m, fns, nfns, f->a.bus);
		if (rp < 0)
			continue;
		int want = stack_of(m, fns[rp].a.bus), got = stack_of(m, f->a.bus);
		if (want != got)
			iio_map_defect(m, "%02x:%02x.%x is behind root port %02x:%02x.%x of IIO stack %d, but the map gives bus %02x to %s%d",
			       f->a.bus, f->a.dev, f->a.func, fns[rp].a.bus, fns[rp].a.dev, fns[rp].a.func, want, f->a.bus,
			       got < 0 ? "no stack " : "stack ", got);
	}
	return m->ndefects;
}

struct msr_read { const struct hw *hw; uint32_t msr; uint64_t v; hw_status st; };

static void read_on_cpu(void *arg)
{
	struct msr_read *r = arg;
	r->st = hw_rdmsr(r->hw, r->msr, &r->v);
}

void intel_iio_maps(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		    uint32_t nfns, const uint32_t *cpu, uint32_t nsock, struct iio_map *maps)
{
	for (uint32_t s = 0; s < nsock; s++) {
		struct iio_map *m = &maps[s];
		if (p->iio_map == IIO_MAP_CPUBUSNO_MSR) {
			struct msr_read r = { hw, p->cpubusno_msr, 0, HW_OK };
			hw_status st = hw_run_on_cpu(hw, cpu[s], read_on_cpu, &r);
			if (st == HW_OK && r.st == HW_OK)
				iio_map_from_cpubusno(p, r.v, m);
			else {
				memset(m, 0, sizeof(*m));
				m->method = IIO_MAP_CPUBUSNO_MSR;
				fmt_snprintf(m->why, sizeof(m->why), "read MSR 0x%x CPU_BUS_NUMBER on CPU %u: %s", p->cpubusno_msr,
					     cpu[s], hw_status_name(st != HW_OK ? st : r.st));
			}
		} else if (p->iio_map == IIO_MAP_SAD_CONTROL) {
			uint8_t bus[IIO_MAX_STACKS];
			uint32_t sad[IIO_MAX_STACKS], n = 0;
			for (uint32_t i = 0; i < nfns && n < IIO_MAX_STACKS; i++) {
				if (fns[i].vendor != INTEL_VENDOR || fns[i].device != p->sad_device)
					continue;
				uint32_t v = cfg32(hw, fns[i].a, p->sad_reg);
				if (v == 0xFFFFFFFFu || (v & 0xF) != s)
					continue;
				bus[n] = fns[i].a.bus;
				sad[n++] = v;
			}
			iio_map_from_sad(p, bus, sad, n, m);
		} else {
			memset(m, 0, sizeof(*m));
			fmt_snprintf(m->why, sizeof(m->why), "%s: no IIO stack map method in the table", p->name);
		}
		iio_map_check(p, fns, nfns, m);
	}
}

/* ---- requests ------------------------------------------------------------------------------- */

/* 1 when entry s[0..len) is for box b: its PMU prefix, or a bare name of its table or of its
 * unit in Intel's catalogue. */
static int mine(const struct intel_box_desc *b, const char *s, size_t len)
{
	int bx;
	struct gen_row r;
	if (slash_in(s, len))
		return pmu_prefix(b, s, len, &bx) != 0;
	return intel_uncore_event_find(b, s, len) != NULL || intel_uncore_gen_find(b, s, len, &r);
}

static int add_event(const struct intel_box_desc *b, struct unc_request *req, const char *s, size_t len,
		     int *only, char *why, size_t n)
{
	if (req->nevents >= UNC_MAX_EVENTS) {
		fmt_snprintf(why, n, "more than %u %s events", UNC_MAX_EVENTS, b->pmu);
		return -1;
	}
	if (len >= UNC_SPEC_MAX) {
		fmt_snprintf(why, n, "%s event %.40s...: longer than %u bytes", b->pmu, s, UNC_SPEC_MAX - 1);
		return -1;
	}
	struct unc_event *ev = &req->ev[req->nevents];
	const struct intel_uncore_event *named = NULL;
	char err[120];
	int bx;
	if (intel_uncore_encode(b, s, len, &ev->ctl, &bx, &named, err, sizeof(err))) {
		fmt_snprintf(why, n, "%s event %u (%.*s): %s", b->pmu, req->nevents + 1, (int)(len > 60 ? 60 : len), s, err);
		return -1;
	}
	if (bx >= 0 && *only >= 0 && bx != *only) {
		fmt_snprintf(why, n, "%s events name %s_%d and %s_%d: one unit per run, or %s/ for every unit", b->pmu,
			     b->pmu, *only, b->pmu, bx, b->pmu);
		return -1;
	}
	if (bx >= 0)
		*only = bx;
	if (named && !slash_in(s, len))
		intel_uncore_event_spec(b, named, ev->spec, sizeof(ev->spec));
	else {
		memcpy(ev->spec, s, len);
		ev->spec[len] = 0;
	}
	ev->name = named ? named->name : NULL;
	ev->role = named ? named->role : UNC_ROLE_NONE;
	ev->channel = named ? named->part : 0;
	ev->per_part = named && named->ch_mask;
	ev->bytes = b->bytes;
	req->nevents++;
	return 0;
}

int intel_uncore_request(const struct intel_uncore_platform *p, enum intel_box bx, const struct intel_unit *units,
			 uint32_t nunits, const uint32_t *cpu, const char *events, struct unc_request *req, char *why,
			 size_t n)
{
	return intel_uncore_request_as(p, bx, p->box[bx].type, units, nunits, cpu, events, req, why, n);
}

int intel_units_to_pkgs(struct unc_request *req, const struct intel_unit *units, uint32_t nunits, const uint32_t *cpu,
			int only, char *why, size_t n)
{
	for (uint32_t i = 0; i < nunits; i++) {
		if (only >= 0 && units[i].unit != only)
			continue;
		if (req->npkgs >= UNC_MAX_PKGS) {
			fmt_snprintf(why, n, "%s: more than %u units", req->pmu, UNC_MAX_PKGS);
			return -1;
		}
		uint32_t k = req->npkgs++;
		req->cpu[k] = cpu ? cpu[units[i].socket] : 0;
		req->socket[k] = units[i].socket;
		req->nboxes[k] = 1;
		req->first_box[k] = units[i].unit;
		req->site[k] = units[i].site;
	}
	return 0;
}

int intel_uncore_request_as(const struct intel_uncore_platform *p, enum intel_box bx, const struct uncore_box_type *type,
			    const struct intel_unit *units, uint32_t nunits, const uint32_t *cpu, const char *events,
			    struct unc_request *req, char *why, size_t n)
{
	const struct intel_box_desc *b = &p->box[bx];
	int only = -1;
	memset(req, 0, sizeof(*req));
	req->type = *type;
	req->pmu = b->pmu;
	req->platform = p->name;
	req->rounds = 1;
	req->scope = bx == INTEL_BOX_IMC ? "channel" : "stack";
	req->sited = type->access != BOX_ACCESS_MSR || p->discovery;
	if (events && *events) {
		const char *s = events, *a;
		size_t len;
		while ((len = ev_next_token(&s, &a)) != 0)
			if (mine(b, a, len) && add_event(b, req, a, len, &only, why, n))
				return -1;
	} else {
		for (uint16_t i = 0; i < b->nevents; i++)
			if (b->events[i].dflt && add_event(b, req, b->events[i].name, strlen(b->events[i].name), &only, why, n))
				return -1;
	}
	if (!req->nevents) {
		fmt_snprintf(why, n, "%s: no event of the list is for this PMU", b->pmu);
		return -1;
	}
	if (intel_units_to_pkgs(req, units, nunits, cpu, only, why, n))
		return -1;
	if (!req->npkgs) {
		fmt_snprintf(why, n, "%s: no %s %d on this machine", b->pmu, req->scope, only);
		return -1;
	}
	return unc_form_groups(req, why, n);
}
