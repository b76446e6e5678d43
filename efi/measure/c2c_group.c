/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/measure/c2c_group.h"

enum c2c_rel c2c_relation(const struct c2c_cpu *a, const struct c2c_cpu *b)
{
	if (a->cpu == b->cpu)
		return C2C_SELF;
	if (a->package != b->package)
		return C2C_REMOTE;
	if (a->core == b->core)
		return C2C_SMT;
	return a->l3 == b->l3 ? C2C_L3 : C2C_PACKAGE;
}

enum c2c_node_rel c2c_node_relation(const struct c2c_cpu *a, const struct c2c_cpu *b)
{
	if (a->node < 0 || b->node < 0)
		return C2C_NODE_UNKNOWN;
	return a->node == b->node ? C2C_NODE_SAME : C2C_NODE_OTHER;
}

const char *c2c_rel_name(enum c2c_rel r)
{
	static const char *const names[C2C_NREL] = { "self", "smt", "l3", "package", "remote" };
	return (unsigned)r < C2C_NREL ? names[r] : "?";
}

const char *c2c_node_rel_name(enum c2c_node_rel r)
{
	static const char *const names[C2C_NNODE] = { "same_node", "other_node", "node_unknown" };
	return (unsigned)r < C2C_NNODE ? names[r] : "?";
}

uint32_t c2c_apic_shift(uint32_t count)
{
	uint32_t s = 0;
	while (s < 32 && (1ull << s) < count)
		s++;
	return s;
}

void c2c_sort_u64(uint64_t *v, uint32_t n)
{
	static const uint32_t gaps[] = { 10681, 4711, 1750, 701, 301, 132, 57, 23, 10, 4, 1 };  /* Ciura, extended */
	for (uint32_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++)
		for (uint32_t i = gaps[g]; i < n; i++) {
			uint64_t x = v[i];
			uint32_t j = i;
			for (; j >= gaps[g] && v[j - gaps[g]] > x; j -= gaps[g])
				v[j] = v[j - gaps[g]];
			v[j] = x;
		}
}

/* Summary of the values of pairs whose class (rel or node relation) is `want`. */
static struct c2c_summary summarise_one(const struct c2c_cpu *cpu, int n, const uint64_t *m, uint64_t *scratch,
					int by_node, int want)
{
	uint32_t k = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int cls = by_node ? (int)c2c_node_relation(&cpu[i], &cpu[j]) : (int)c2c_relation(&cpu[i], &cpu[j]);
			if (cls == want && m[i * n + j])
				scratch[k++] = m[i * n + j];
		}
	struct c2c_summary s = { .pairs = k };
	if (!k)
		return s;
	c2c_sort_u64(scratch, k);
	s.min = scratch[0];
	s.median = k % 2 ? scratch[k / 2] : (scratch[k / 2 - 1] + scratch[k / 2]) / 2;
	return s;
}

void c2c_summarise(const struct c2c_cpu *cpu, int n, const uint64_t *m, uint64_t *scratch,
		   struct c2c_summary rel[C2C_NREL], struct c2c_summary node[C2C_NNODE])
{
	for (int r = 0; r < C2C_NREL; r++)
		rel[r] = summarise_one(cpu, n, m, scratch, 0, r);
	for (int r = 0; r < C2C_NNODE; r++)
		node[r] = summarise_one(cpu, n, m, scratch, 1, r);
}
