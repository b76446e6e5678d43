/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HMAT, the Heterogeneous Memory Attribute Table (ACPI 6.5 5.2.28): the latency and bandwidth
 * the firmware claims from each initiator proximity domain to each memory (target) domain, from
 * its System Locality Latency and Bandwidth Information Structures (type 1, 5.2.28.4, Table
 * 5.150): Flags [3:0] memory hierarchy (0: the memory itself, 1..3: a memory-side cache level),
 * Data Type (0 access latency, 1 read latency, 2 write latency, 3 access bandwidth, 4 read
 * bandwidth, 5 write bandwidth), the initiator and target domain lists and one 16-bit entry per
 * pair, times the Entry Base Unit: picoseconds for latencies, MB/s for bandwidths. An entry of 0
 * (no information) or 0xFFFF (unreachable) is no claim. Other structures are skipped.
 * Pure: acpi_parse_hmat() reads a validated table of len bytes (efi/fw/acpi.c dispatches it);
 * host-tested on a crafted table.
 */
#ifndef EFIPERF_ACPI_HMAT_H
#define EFIPERF_ACPI_HMAT_H

#include <stdint.h>
#include "efi/out/jsonl.h"

#define ACPI_MAX_HMAT_CLAIMS 32
#define ACPI_HMAT_NTYPES 6

struct acpi_hmat_claim {
	uint32_t initiator, target;   /* proximity domains */
	uint8_t data_type;            /* 0..5 as above */
	uint64_t value;               /* ps (latencies) or MB/s (bandwidths) */
};

struct acpi_hmat {
	int present;
	uint32_t n, dropped;          /* claims kept (memory hierarchy 0 only), claims over the bound */
	struct acpi_hmat_claim claim[ACPI_MAX_HMAT_CLAIMS];
	char defect[80];              /* the first structure whose length disagrees with its lists */
};

void acpi_parse_hmat(const uint8_t *t, uint32_t len, struct acpi_hmat *h);

/* "access_latency", "read_latency", "write_latency", "access_bandwidth", "read_bandwidth",
 * "write_bandwidth"; NULL past them. */
const char *acpi_hmat_type_name(uint8_t data_type);

/* The claims of h for memory domain target into out[0..max-1]; how many. */
int acpi_hmat_claims_for(const struct acpi_hmat *h, uint32_t target, struct acpi_hmat_claim *out, int max);

/* claims[0..n-1] as the array `key` of {initiator, target, claim, value, unit ("ps" or "MB/s")}. */
void acpi_hmat_claims_json(struct json *j, const char *key, const struct acpi_hmat_claim *c, int n);

/* "hmat" beside a measurement on target's memory from initiator's CPUs: measured[t] the value
 * of data type t in HMAT's unit (ps, MB/s), 0 not measured. Writes key as {initiator, target,
 * claims: [{claim, claimed, measured (null: not measured), unit, fraction = measured / claimed
 * (3 decimals; null when not measured)}], missing: [each measured data type HMAT makes no claim
 * for]}; or key null and key_why when h is NULL or absent, or either domain is -1. */
void acpi_hmat_compare_json(struct json *j, const char *key, const char *key_why, const struct acpi_hmat *h,
			    int32_t initiator, int32_t target, const uint64_t measured[ACPI_HMAT_NTYPES]);

/* "hmat" in the acpi record: null when absent, else {claims, dropped, defect}. */
void acpi_json_hmat(const struct acpi_hmat *h, struct json *j);

#endif
