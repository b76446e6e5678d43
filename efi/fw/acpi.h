/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acpi: pure parser of the ACPI tables reachable from the RSDP (ACPI 6.5 chapter 5.2), reading
 * physical memory only through a struct physmem. No EFI header, no allocation: everything lands
 * in fixed-size arrays of struct acpi_info; what does not fit is counted, never written past.
 *
 *   acpi_parse(pm, rsdp, &info)   0: the RSDP was valid (table defects are listed in info);
 *                                 -1: info.defect says why the RSDP was refused.
 *   acpi_to_json(&info, &j)       members of an open JSON object: "rsdp", "tables", "mcfg",
 *                                 "madt", "srat", "fadt", "hpet", "slit", "apmt", "pptt", "cedt", "hmat",
 *                                 "duplicates", "limits".
 *
 * Every table the root table (XSDT, else RSDT) lists is validated (ACPI 6.5 5.2.6: signature,
 * Length >= 36 and mappable, 8-bit checksum over Length bytes == 0). A table that fails is listed
 * with its defect and never parsed. Parsed: MCFG, MADT, SRAT, FADT, HPET, SLIT, APMT, PPTT, CEDT, HMAT
 * (latency/bandwidth claims; the `cxl_node` records repeat a CXL node's) (first
 * valid instance of each in root table order, the instance Linux's acpi_get_table() returns
 * too); a later valid instance is listed with a note and described in "duplicates": both
 * addresses, which one was parsed and why, and every field in which they differ.
 */
#ifndef EFIPERF_ACPI_H
#define EFIPERF_ACPI_H

#include <stddef.h>
#include <stdint.h>
#include "efi/fw/physmem.h"
#include "efi/out/jsonl.h"
#include "efi/fw/acpi_cedt.h"
#include "efi/fw/acpi_hmat.h"

#define ACPI_DEFECT_LEN      96
/* Limits sit well above real machines (a large server's XSDT lists ~50 tables; multi-segment
 * Arm servers approach 16 MCFG allocations). What goes beyond one is counted and reported in
 * info.limit[] by the limit's name, never dropped silently. */
#define ACPI_MAX_TABLES      256
#define ACPI_MAX_MCFG        64
#define ACPI_MAX_CPU_IDS     1024
#define ACPI_MAX_SRAT_CPUS   1024
#define ACPI_MAX_SRAT_MEM    256
#define ACPI_SLIT_MAX        64
#define ACPI_MAX_APMT        32
#define ACPI_MAX_DUPS        16      /* duplicate tables described in info.dup[] */
#define ACPI_DUP_FIELDS      8       /* differing fields listed per duplicate */
#define ACPI_DUP_NAME_LEN    40
#define ACPI_DUP_VALUE_LEN   24
#define ACPI_MAX_LIMITS      11      /* one entry per limit (acpi.c: limits[]) */

/* ACPI 6.5 5.2.6: the System Description Table header and its 4-character Signature. */
#define ACPI_HEADER_LEN      36
#define ACPI_SIG_LEN         4
/* Refuse absurd Length fields before summing them (largest real tables, DSDTs, are ~1 MiB). */
#define ACPI_MAX_TABLE_LEN   (64u << 20)

struct acpi_table {
	char sig[ACPI_SIG_LEN + 1];
	uint64_t addr;
	uint32_t length;
	uint8_t revision;
	char oem_id[7];
	char oem_table_id[9];
	int valid;                       /* passed validation */
	int parsed;                      /* its parser ran (first valid instance of a known sig) */
	char defect[ACPI_DEFECT_LEN];    /* why it is invalid, or a note ("duplicate: not parsed") */
};

struct acpi_mcfg_seg {                   /* PCI Firmware 3.3 4.1.2 table 4-3 */
	uint64_t base;                   /* ECAM base: corresponds to bus 0 of the segment */
	uint16_t segment;
	uint8_t start_bus, end_bus;
};

/* MADT interrupt controller structures, by their Enabled / Online Capable flags. */
struct acpi_madt_count { uint32_t enabled, online_capable, disabled; };

enum acpi_cpu_kind { ACPI_CPU_LAPIC, ACPI_CPU_X2APIC, ACPI_CPU_GICC };

struct acpi_cpu_id {
	uint64_t id;                     /* APIC ID, x2APIC ID or MPIDR */
	uint32_t uid;                    /* ACPI Processor UID */
	uint8_t kind;                    /* enum acpi_cpu_kind */
};

struct acpi_madt {
	int present;
	uint32_t lapic_addr, flags;
	struct acpi_madt_count lapic, x2apic, gicc;
	uint32_t other;                  /* entries of other types */
	uint32_t ncpu;                   /* enabled CPUs stored in cpu[] */
	uint32_t cpu_dropped;            /* enabled CPUs beyond ACPI_MAX_CPU_IDS */
	struct acpi_cpu_id cpu[ACPI_MAX_CPU_IDS];
	char defect[ACPI_DEFECT_LEN];
};

struct acpi_srat_cpu {
	uint32_t id;                     /* APIC ID, x2APIC ID, or ACPI Processor UID (GICC) */
	uint32_t domain;
	uint8_t kind;                    /* enum acpi_cpu_kind */
};

struct acpi_srat_mem {
	uint64_t base, length;
	uint32_t domain;
	uint32_t flags;                  /* bit 1 hot-pluggable, bit 2 non-volatile */
};

struct acpi_srat {
	int present;
	uint8_t revision;                /* table revision: below 2 (ACPI 2.0), 8-bit domains */
	uint8_t domain_bits;             /* 8 or 32: the proximity domain width read */
	uint32_t domain_upper_ignored;   /* revision 1 entries with reserved upper domain bits set */
	uint32_t ncpu, cpu_dropped, cpu_disabled;
	struct acpi_srat_cpu cpu[ACPI_MAX_SRAT_CPUS];
	uint32_t nmem, mem_dropped, mem_disabled;
	struct acpi_srat_mem mem[ACPI_MAX_SRAT_MEM];
	uint32_t other;
	char defect[ACPI_DEFECT_LEN];
};

/* PPTT (ACPI 6.5 5.2.30, efi/fw/acpi_pptt.c): one processor. package / cluster / core are the
 * node's ACPI Processor ID when that node's flags say it is valid, else its table offset. */
struct acpi_pptt_cpu {
	uint32_t uid;                    /* ACPI Processor UID (MADT GICC / x2APIC / LAPIC UID) */
	uint32_t package, cluster, core;
	uint32_t package_off;            /* the package node's offset (tells packages apart) */
	uint8_t thread;                  /* "Processor is a Thread" */
};

struct acpi_pptt {
	int present;
	uint8_t revision;
	uint32_t nnodes, ncaches, other; /* processor hierarchy nodes, cache structures, others */
	uint32_t npackages;              /* distinct packages of the processors kept */
	uint32_t ncpu, cpu_dropped;
	struct acpi_pptt_cpu cpu[ACPI_MAX_CPU_IDS];
	char defect[ACPI_DEFECT_LEN];    /* set: the topology is not used */
};

/* Index in p->cpu of ACPI Processor UID uid, or -1 (also when p is NULL, absent or has a
 * defect: a table with a defect gives no topology). */
int acpi_pptt_find(const struct acpi_pptt *p, uint32_t uid);

/* The topology of n CPUs given by their ACPI Processor UIDs: package numbers 0..P-1 in the
 * order first seen, cluster and core as the PPTT identifies them (struct acpi_pptt_cpu).
 * Returns P, or -1 with why (no PPTT, its defect, or the first UID it does not list): then out
 * is not to be used. */
struct acpi_cpu_topo { uint32_t package, cluster, core; };
int acpi_pptt_topology(const struct acpi_pptt *p, const uint32_t *uid, uint32_t n, struct acpi_cpu_topo *out,
		       char *why, size_t whylen);

/* ACPI 6.5 5.2.3.2 Generic Address Structure. */
struct acpi_gas {
	uint8_t space_id, bit_width, bit_offset, access_size;
	uint64_t address;
};
#define ACPI_GAS_SPACE_MEMORY 0
#define ACPI_GAS_SPACE_IO     1

struct acpi_fadt {
	int present;
	uint8_t revision, minor_revision;
	uint32_t flags;
	int hw_reduced;                  /* flags bit 20 HW_REDUCED_ACPI */
	int pm_timer_present;
	const char *pm_timer_source;     /* "X_PM_TMR_BLK" or "PM_TMR_BLK" */
	struct acpi_gas pm_timer;        /* the block used; PM_TMR_BLK becomes an I/O GAS */
	uint32_t pm_tmr_blk;             /* raw PM_TMR_BLK */
	uint8_t pm_tmr_len;
	int tmr_bits;                    /* 32 when TMR_VAL_EXT (flags bit 8), else 24 */
	int has_arm_boot_arch;           /* the table is long enough for ARM_BOOT_ARCH (ACPI 5.1+) */
	uint16_t arm_boot_arch;          /* ACPI 6.5 5.2.9 offset 129, flags in 5.2.9.4 */
	int psci_compliant;              /* ARM_BOOT_ARCH bit 0 PSCI_COMPLIANT */
	int psci_use_hvc;                /* ARM_BOOT_ARCH bit 1 PSCI_USE_HVC (else SMC) */
	char defect[ACPI_DEFECT_LEN];
};

struct acpi_hpet {
	int present;
	uint32_t block_id;
	struct acpi_gas base;
	uint8_t number;
	uint16_t min_tick;
	uint32_t comparators;            /* NUM_TIM_CAP + 1 */
	int counter_64bit;               /* COUNT_SIZE_CAP */
	uint16_t vendor;
	char defect[ACPI_DEFECT_LEN];
};

struct acpi_slit {
	int present;
	uint64_t n;                      /* Number of System Localities as the table says */
	uint8_t dist[ACPI_SLIT_MAX * ACPI_SLIT_MAX];   /* valid only when defect is empty */
	char defect[ACPI_DEFECT_LEN];
};

/* ARM DEN0117 APMT node types (table 2). */
#define APMT_NODE_MC          0
#define APMT_NODE_SMMU        1
#define APMT_NODE_PCIE_ROOT   2
#define APMT_NODE_ACPI        3
#define APMT_NODE_CACHE       4

struct acpi_apmt_node {
	uint16_t length;
	uint8_t flags, type;
	uint32_t id;
	uint64_t inst_primary;
	uint32_t inst_secondary;
	uint64_t base0, base1;
	uint32_t ovflw_gsiv, ovflw_flags;
	uint32_t proc_affinity;
	uint32_t impl_id;                /* PMIIDR override when non-zero */
};

struct acpi_apmt {
	int present;
	uint32_t nnodes, dropped;
	struct acpi_apmt_node node[ACPI_MAX_APMT];
	char defect[ACPI_DEFECT_LEN];
};

/* One field that differs between the table that was parsed and a duplicate of it. */
struct acpi_dup_field {
	char name[ACPI_DUP_NAME_LEN];    /* "oem_revision", "allocation[0].end_bus", "structures @0x2c-0x5f" */
	char used[ACPI_DUP_VALUE_LEN];   /* value in the parsed table, "absent" past its end; */
	char other[ACPI_DUP_VALUE_LEN];  /* ... in the duplicate; both empty for a byte range */
};

/* A second valid table with the signature of a parsed table (two HPETs, two MCFGs). */
struct acpi_dup {
	char sig[ACPI_SIG_LEN + 1];
	uint64_t used, other;            /* addresses: the parsed table, the duplicate */
	uint32_t used_entry, other_entry;/* their positions in the root table */
	char why[64];                    /* why `used` was parsed */
	uint32_t ndiff;                  /* differing fields; beyond ACPI_DUP_FIELDS only counted */
	struct acpi_dup_field diff[ACPI_DUP_FIELDS];
};

/* A fixed limit something went beyond: what was not kept, counted. */
struct acpi_limit {
	const char *limit;               /* the limit's name, "ACPI_MAX_TABLES" */
	uint32_t max;                    /* its value */
	uint32_t not_kept;               /* how many went beyond it */
	const char *what;                /* what was counted, "root table entries" */
};

struct acpi_info {
	/* RSDP (ACPI 6.5 5.2.5.3) */
	uint8_t rsdp_revision;
	char oem_id[7];
	uint32_t rsdt_addr;
	uint64_t xsdt_addr;
	const char *root;                /* "XSDT", "RSDT" or NULL when neither was usable */
	char root_note[ACPI_DEFECT_LEN]; /* why the RSDT was used, or the root table's defect */
	char defect[ACPI_DEFECT_LEN];    /* set when acpi_parse returns -1 */

	uint32_t ntables, tables_dropped;
	struct acpi_table table[ACPI_MAX_TABLES];

	uint32_t nmcfg, mcfg_dropped, mcfg_rejected;
	int mcfg_present;
	struct acpi_mcfg_seg mcfg[ACPI_MAX_MCFG];
	char mcfg_defect[ACPI_DEFECT_LEN];

	struct acpi_madt madt;
	struct acpi_srat srat;
	struct acpi_fadt fadt;
	struct acpi_hpet hpet;
	struct acpi_slit slit;
	struct acpi_apmt apmt;
	struct acpi_pptt pptt;
	struct acpi_cedt cedt;           /* CXL Early Discovery Table (efi/fw/acpi_cedt.h) */
	struct acpi_hmat hmat;           /* latency/bandwidth claims (efi/fw/acpi_hmat.h) */

	uint32_t ndups, dups_dropped, dup_fields_dropped;
	struct acpi_dup dup[ACPI_MAX_DUPS];

	uint32_t nlimits;                /* limits something went beyond, set by acpi_parse */
	struct acpi_limit limit[ACPI_MAX_LIMITS];
};

int acpi_parse(const struct physmem *pm, uint64_t rsdp_addr, struct acpi_info *out);
void acpi_to_json(const struct acpi_info *a, struct json *j);

/* The first valid table with signature sig, or NULL. */
const struct acpi_table *acpi_find(const struct acpi_info *a, const char *sig);

#endif
