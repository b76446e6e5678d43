/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aarch64 cpu_info: MIDR_EL1 decode, CurrentEL, generic-timer frequency and PMU probes, all
 * read through struct hw. Pure: no asm, no EFI headers (host unit tests build it).
 */
#include "arch/aarch64/cpuinfo_pure.h"
#include "arch/regs/arm_sysreg.h"
#include "arch/lib/fmt.h"

/* MIDR_EL1.Implementer codes (Arm ARM D23.2 MIDR_EL1, "Implementer" field list). */
static const struct { uint32_t code; const char *name; } implementers[] = {
	{ 0x00, "software" },  /* "Reserved for software use": QEMU's -cpu max uses it */
	{ 0x41, "ARM" },
	{ 0x42, "Broadcom" },
	{ 0x43, "Cavium" },
	{ 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" },
	{ 0x4E, "NVIDIA" },
	{ 0x50, "AppliedMicro" },
	{ 0x51, "Qualcomm" },
	{ 0x56, "Marvell" },
	{ 0x61, "Apple" },
	{ 0x69, "Intel" },
	{ 0x6D, "Microsoft" },
	{ 0xC0, "Ampere" },
};

/* MIDR_EL1.PartNum per implementer: each core's Technical Reference Manual, "MIDR_EL1"
 * (the same values as Linux arch/arm64/include/asm/cputype.h). */
static const struct { uint32_t impl, part; const char *name; } parts[] = {
	{ 0x41, 0xD03, "Cortex-A53" },
	{ 0x41, 0xD07, "Cortex-A57" },
	{ 0x41, 0xD08, "Cortex-A72" },
	{ 0x41, 0xD09, "Cortex-A73" },
	{ 0x41, 0xD0A, "Cortex-A75" },
	{ 0x41, 0xD0B, "Cortex-A76" },
	{ 0x41, 0xD0C, "Neoverse-N1" },
	{ 0x41, 0xD0D, "Cortex-A77" },
	{ 0x41, 0xD40, "Neoverse-V1" },
	{ 0x41, 0xD41, "Cortex-A78" },
	{ 0x41, 0xD44, "Cortex-X1" },
	{ 0x41, 0xD46, "Cortex-A510" },
	{ 0x41, 0xD47, "Cortex-A710" },
	{ 0x41, 0xD48, "Cortex-X2" },
	{ 0x41, 0xD49, "Neoverse-N2" },
	{ 0x41, 0xD4A, "Neoverse-E1" },
	{ 0x41, 0xD4F, "Neoverse-V2" },
	{ 0x41, 0xD83, "Neoverse-V3AE" },
	{ 0x41, 0xD84, "Neoverse-V3" },
	{ 0x41, 0xD8E, "Neoverse-N3" },
	{ 0x4E, 0x003, "Denver" },
	{ 0x4E, 0x004, "Carmel" },
	{ 0x46, 0x001, "A64FX" },
	{ 0x48, 0xD01, "TSV110" },
	{ 0x51, 0xC00, "Falkor" },
	{ 0xC0, 0xAC3, "AmpereOne" },
	/* QEMU target/arm/cpu64.c, aarch64_max_initfn: Implementer 0, Architecture 0xF,
	 * PartNum 'Q' (0x051). */
	{ 0x00, 0x051, "QEMU -cpu max" },
};

const char *arm_implementer_name(uint32_t implementer)
{
	for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++)
		if (implementers[i].code == implementer)
			return implementers[i].name;
	return NULL;
}

const char *arm_part_name(uint32_t implementer, uint32_t partnum)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].impl == implementer && parts[i].part == partnum)
			return parts[i].name;
	return NULL;
}

#define FIELD(v, f) (((v) >> f##_SHIFT) & f##_MASK)
#define QEMU_MAX_IMPLEMENTER 0x00u   /* the parts table's "QEMU -cpu max" row */
#define QEMU_MAX_PARTNUM 0x051u

uint32_t arm_clidr_ctype(uint64_t clidr, uint32_t level)
{
	if (level < 1 || level > CLIDR_MAX_LEVEL)
		return 0;
	return (uint32_t)(clidr >> (CLIDR_CTYPE_BITS * (level - 1))) & CLIDR_CTYPE_MASK;
}

void arm_ccsidr_decode(uint64_t ccsidr, int ccidx, uint32_t level, enum cache_type t, struct cache_desc *c)
{
	uint64_t assoc = (ccsidr >> CCSIDR_ASSOC_SHIFT) & (ccidx ? CCSIDR_CCIDX_ASSOC_MASK : CCSIDR_ASSOC_MASK);
	uint64_t sets = ccidx ? (ccsidr >> CCSIDR_CCIDX_SETS_SHIFT) & CCSIDR_CCIDX_SETS_MASK
			      : (ccsidr >> CCSIDR_SETS_SHIFT) & CCSIDR_SETS_MASK;
	*c = (struct cache_desc){
		.level = level, .type = t, .partitions = 1,
		.line_bytes = 1u << ((ccsidr & CCSIDR_LINESIZE_MASK) + CCSIDR_LINESIZE_BIAS),
		.ways = (uint32_t)assoc + 1, .sets = (uint32_t)sets + 1,
	};
	c->bytes = (uint64_t)c->ways * c->sets * c->line_bytes;
}

/* The cache(s) a CLIDR_EL1 Ctype stands for: CSSELR_EL1.InD and the type recorded. */
static const struct { uint32_t ctype; uint32_t ind; enum cache_type t; } ctype_caches[] = {
	{ CLIDR_CTYPE_DATA, 0, CACHE_DATA },
	{ CLIDR_CTYPE_SEPARATE, 0, CACHE_DATA },
	{ CLIDR_CTYPE_SEPARATE, CSSELR_IND, CACHE_INST },
	{ CLIDR_CTYPE_INST, CSSELR_IND, CACHE_INST },
	{ CLIDR_CTYPE_UNIFIED, 0, CACHE_UNIFIED },
};

void arm_caches(const struct hw *hw, struct cpu_info *ci)
{
	uint64_t clidr, mmfr2 = 0, saved, v;
	ci->ncaches = 0;
	ci->cache_source = NULL;
	if (hw_sysreg_read(hw, SYSREG_CLIDR_EL1, &clidr) != HW_OK || hw_sysreg_read(hw, SYSREG_CSSELR_EL1, &saved) != HW_OK)
		return;
	hw_sysreg_read(hw, SYSREG_ID_AA64MMFR2_EL1, &mmfr2);   /* absent: no FEAT_CCIDX */
	int ccidx = FIELD(mmfr2, ID_AA64MMFR2_CCIDX) == 1;
	for (uint32_t level = 1; level <= CLIDR_MAX_LEVEL; level++) {
		uint32_t ct = arm_clidr_ctype(clidr, level);
		if (!ct)
			break;   /* "no cache at this level or any further level" */
		for (size_t k = 0; k < sizeof(ctype_caches) / sizeof(ctype_caches[0]); k++) {
			if (ctype_caches[k].ctype != ct || ci->ncaches >= CPUINFO_MAX_CACHES)
				continue;
			uint64_t sel = ((uint64_t)(level - 1) << CSSELR_LEVEL_SHIFT) | ctype_caches[k].ind;
			if (hw_sysreg_write(hw, SYSREG_CSSELR_EL1, sel) != HW_OK ||
			    hw_sysreg_read(hw, SYSREG_CCSIDR_EL1, &v) != HW_OK)
				goto restore;
			arm_ccsidr_decode(v, ccidx, level, ctype_caches[k].t, &ci->cache[ci->ncaches++]);
		}
	}
restore:
	if (hw_sysreg_write(hw, SYSREG_CSSELR_EL1, saved) != HW_OK)
		cpuinfo_probe(ci, "CSSELR_EL1", "not restored to 0x%llx", (unsigned long long)saved);
	if (ci->ncaches)
		ci->cache_source = "CLIDR_EL1/CCSIDR_EL1";
}

void arm_cpu_info(const struct hw *hw, struct cpu_info *ci)
{
	uint64_t v = 0;
	ci->arch = "aarch64";
	hw_status st = hw_sysreg_read(hw, SYSREG_MIDR_EL1, &v);
	if (st == HW_OK) {
		uint32_t midr = (uint32_t)v;
		ci->signature = midr;
		ci->implementer = FIELD(midr, MIDR_EL1_IMPLEMENTER);
		ci->variant = FIELD(midr, MIDR_EL1_VARIANT);
		ci->architecture = FIELD(midr, MIDR_EL1_ARCHITECTURE);
		ci->partnum = FIELD(midr, MIDR_EL1_PARTNUM);
		ci->revision = FIELD(midr, MIDR_EL1_REVISION);
		const char *impl = arm_implementer_name(ci->implementer);
		const char *part = arm_part_name(ci->implementer, ci->partnum);
		if (impl)
			fmt_snprintf(ci->vendor, sizeof(ci->vendor), "%s", impl);
		else
			fmt_snprintf(ci->vendor, sizeof(ci->vendor), "impl 0x%02x", ci->implementer);
		if (part)
			fmt_snprintf(ci->brand, sizeof(ci->brand), "%s r%up%u", part, ci->variant,
				     ci->revision);
		else
			fmt_snprintf(ci->brand, sizeof(ci->brand), "unknown part 0x%03x r%up%u",
				     ci->partnum, ci->variant, ci->revision);
		cpuinfo_probe(ci, "MIDR_EL1", "0x%08x", midr);
		/* QEMU's own "max" CPU has no real part behind it: the run is emulated (Arm has no
		 * architected "hypervisor present" bit to tell other cases). */
		if (ci->implementer == QEMU_MAX_IMPLEMENTER && ci->partnum == QEMU_MAX_PARTNUM) {
			ci->virtual_machine = 1;
			fmt_snprintf(ci->hypervisor, sizeof(ci->hypervisor), "QEMU");
		}
	} else {
		fmt_snprintf(ci->vendor, sizeof(ci->vendor), "unknown");
		fmt_snprintf(ci->brand, sizeof(ci->brand), "MIDR_EL1 unreadable");
		cpuinfo_probe(ci, "MIDR_EL1", "%s", hw_status_name(st));
	}

	st = hw_sysreg_read(hw, SYSREG_CurrentEL, &v);
	if (st == HW_OK) {
		ci->current_el = FIELD(v, CurrentEL_EL);
		cpuinfo_probe(ci, "CurrentEL", "EL%u", ci->current_el);
	} else {
		cpuinfo_probe(ci, "CurrentEL", "%s", hw_status_name(st));
	}

	/* CNTFRQ_EL0 holds the system counter frequency in Hz, programmed by firmware (Arm ARM
	 * D23 CNTFRQ_EL0). The system counter is always on and fixed-frequency ("The Generic
	 * Timer in AArch64 state": the count is not affected by power states). */
	ci->tsc_invariant = 1;
	ci->tsc_source = "CNTFRQ_EL0";
	st = hw_sysreg_read(hw, SYSREG_CNTFRQ_EL0, &v);
	ci->tsc_hz = st == HW_OK ? (uint32_t)v : 0;  /* [31:0]; upper bits RES0 */
	if (st != HW_OK)
		cpuinfo_probe(ci, "CNTFRQ_EL0", "%s", hw_status_name(st));
	else if (!ci->tsc_hz)
		cpuinfo_probe(ci, "CNTFRQ_EL0", "0 (firmware did not program it)");

	arm_caches(hw, ci);
	st = hw_sysreg_read(hw, SYSREG_ID_AA64DFR0_EL1, &v);
	if (st == HW_OK)
		cpuinfo_probe(ci, "ID_AA64DFR0_EL1", "0x%016llx", (unsigned long long)v);
	else
		cpuinfo_probe(ci, "ID_AA64DFR0_EL1", "%s", hw_status_name(st));

	/* PMSWINC_EL0 is write-only: an MRS of it is UNDEFINED (Arm ARM D23, PMSWINC_EL0
	 * "Accessing PMSWINC_EL0"), so the read must come back as a recovered synchronous
	 * exception. Checks the CPU and efiperf's fault recovery on every boot. */
	st = hw_sysreg_read(hw, SYSREG_PMSWINC_EL0, &v);
	cpuinfo_probe(ci, "PMSWINC_EL0 read", "%s%s", hw_status_name(st),
		      st == HW_FAULT_SYNC ? " (write-only, as the Arm ARM specifies)"
					  : " (the Arm ARM specifies UNDEFINED for a read)");
}
