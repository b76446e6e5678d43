/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * c2c_group: how two CPUs of a core-to-core latency matrix are related, and the matrix
 * summarised per relation. Relations, closest shared level first:
 *   smt      the same core (SMT siblings),
 *   l3       the same L3 domain (CCX/die: the CPUs sharing the CPU's last-level cache),
 *   package  the same package, different L3 domains,
 *   remote   different packages.
 * Independently, each pair is on the same SRAT node or not (unknown where SRAT says nothing).
 * Pure arithmetic: no EFI calls, host-tested on synthetic topologies.
 */
#ifndef EFIPERF_C2C_GROUP_H
#define EFIPERF_C2C_GROUP_H

#include <stdint.h>

/* One CPU of the matrix. core and l3 are identifiers only compared for equality within a
 * package (x86: the APIC ID shifted right by c2c_apic_shift of the sharing count). */
struct c2c_cpu {
	uint32_t cpu;       /* MP-services processor number */
	uint32_t package;
	uint32_t core;
	uint32_t l3;
	int32_t node;       /* SRAT proximity domain, -1 unknown */
};

enum c2c_rel { C2C_SELF, C2C_SMT, C2C_L3, C2C_PACKAGE, C2C_REMOTE, C2C_NREL };
enum c2c_node_rel { C2C_NODE_SAME, C2C_NODE_OTHER, C2C_NODE_UNKNOWN, C2C_NNODE };

enum c2c_rel c2c_relation(const struct c2c_cpu *a, const struct c2c_cpu *b);
enum c2c_node_rel c2c_node_relation(const struct c2c_cpu *a, const struct c2c_cpu *b);
const char *c2c_rel_name(enum c2c_rel r);            /* "self", "smt", "l3", "package", "remote" */
const char *c2c_node_rel_name(enum c2c_node_rel r);  /* "same_node", "other_node", "node_unknown" */

/* Bits of an x86 APIC ID that tell apart `count` logical CPUs sharing something: the smallest
 * s with 2^s >= count (SDM Vol.2A CPUID leaf 04H EAX[25:14] note: "the nearest power-of-2 integer
 * that is not smaller than"). 0 for count <= 1. */
uint32_t c2c_apic_shift(uint32_t count);

/* Pairs of one relation: how many were measured (value non-zero off the diagonal), the lowest
 * and the median of their values (the unit of the matrix, e.g. ps). */
struct c2c_summary {
	uint32_t pairs;
	uint64_t min, median;
};

/* Summaries of the n x n matrix m (row-major; m[i*n+j] = 0: not measured) per relation and per
 * node relation, each unordered pair once (i < j). scratch holds n*(n-1)/2 values. */
void c2c_summarise(const struct c2c_cpu *cpu, int n, const uint64_t *m, uint64_t *scratch,
		   struct c2c_summary rel[C2C_NREL], struct c2c_summary node[C2C_NNODE]);

/* Sort v[0..n-1] ascending (Shell sort: no allocation, n up to the pairs of 256 CPUs). */
void c2c_sort_u64(uint64_t *v, uint32_t n);

#endif
