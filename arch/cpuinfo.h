/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu_info: what the platform report says about the boot CPU. Filled by the arch's
 * arch_cpu_info() through the hardware interface (so it runs against the register model on
 * the host), completed by efi/ (MP services, firmware, TSC calibration). Pure struct.
 */
#ifndef EFIPERF_CPUINFO_H
#define EFIPERF_CPUINFO_H

#include <stddef.h>
#include <stdint.h>

#define CPUINFO_MAX_PROBES 16
#define CPUINFO_MAX_CACHES 8

/* Cache types as CPUID leaf 4 / 0x8000001D EAX[4:0] number them (SDM Vol.2A CPUID leaf 04H;
 * AMD APM Vol.3 E.4.15 Fn8000_001D); Arm CLIDR_EL1 Ctype<n> values are mapped onto them. */
enum cache_type { CACHE_NONE = 0, CACHE_DATA = 1, CACHE_INST = 2, CACHE_UNIFIED = 3 };

/* One cache the CPU reports: level 1.., its type, geometry and size in bytes. */
struct cache_desc {
	uint32_t level;          /* 1 = L1 */
	enum cache_type type;
	uint32_t line_bytes;     /* coherency line size, bytes */
	uint32_t ways, sets, partitions;
	uint64_t bytes;          /* ways x partitions x line_bytes x sets */
	uint32_t sharing;        /* logical CPUs sharing it at most (x86 EAX[25:14] + 1), 0 unknown */
};

struct cpu_probe {
	char name[32];     /* what was probed: "rdpmc", "IA32_BIOS_SIGN_ID", "PMUv3" */
	char result[96];   /* what it found: "#UD", "ok", "6 counters, PMUv3p5" */
};

struct cpu_info {
	const char *arch;        /* "x86_64" | "aarch64" */
	char vendor[16];         /* x86: "GenuineIntel"; aarch64: implementer name "ARM" */
	char brand[49];          /* x86: CPUID 0x80000002-4; aarch64: part name where known */
	uint32_t signature;      /* x86: CPUID.1:EAX; aarch64: MIDR_EL1 */
	uint32_t family, model, stepping;   /* x86 display values (SDM Vol.2A CPUID, Fig. 3-6) */
	/* aarch64 MIDR_EL1 fields (Arm ARM D23.2 MIDR_EL1) and CurrentEL */
	uint32_t implementer, variant, architecture, partnum, revision, current_el;
	int microcode_valid;     /* 1 when the revision below was read */
	uint64_t microcode;      /* IA32_BIOS_SIGN_ID[63:32] (x86) */
	uint32_t max_leaf, max_ext_leaf;
	/* topology from CPUID leaf 0x1F or 0xB (x86) */
	uint32_t threads_per_core, logical_per_package;
	int tsc_invariant;       /* CPUID.80000007H:EDX[8]; aarch64: generic timer (always) */
	uint64_t tsc_hz;         /* 0 when the CPU does not tell: efi/ calibrates */
	const char *tsc_source;  /* "cpuid-0x15", "cpuid-0x16", "calibrated-stall", "CNTFRQ_EL0" */
	struct cpu_probe probe[CPUINFO_MAX_PROBES];
	int nprobes;
	/* caches as the CPU reports them: CPUID leaf 4 or 0x8000001D, CLIDR_EL1/CCSIDR_EL1 */
	struct cache_desc cache[CPUINFO_MAX_CACHES];
	int ncaches;
	const char *cache_source;   /* "CPUID.04H", "CPUID.8000001DH", "CLIDR_EL1/CCSIDR_EL1", or NULL */
	/* x86: CPUID.1:ECX[31] says a hypervisor or emulator runs efiperf; its CPUID 0x40000000
	 * signature ("TCGTCGTCGTCG", "KVMKVMKVM") */
	int virtual_machine;
	char hypervisor[13];
};

/* Name of a cache type: "data", "instruction", "unified", "none". */
const char *cache_type_name(enum cache_type t);

/* The data or unified cache of a level in ci (NULL when the CPU does not report one). */
const struct cache_desc *cache_of_level(const struct cpu_info *ci, uint32_t level);

/* One identity field of the report (x86: family, model, stepping; aarch64: the MIDR_EL1
 * fields and CurrentEL): each arch lists its own in a table (arch_ident_fields, arch/arch.h),
 * the report prints whatever the table names. */
struct cpu_ident_field {
	const char *key;   /* JSON key and console label */
	size_t offset;     /* offsetof(struct cpu_info, <uint32_t field>) */
	int hex;           /* print as 0x... */
};

/* Append a probe line (silently ignored past CPUINFO_MAX_PROBES). */
void cpuinfo_probe(struct cpu_info *ci, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
