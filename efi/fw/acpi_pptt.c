/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PPTT (Processor Properties Topology Table), ACPI 6.5 section 5.2.30: which physical package,
 * cluster and core each processor (by its ACPI Processor UID, the MADT GICC's / x2APIC's UID)
 * belongs to. Pure and bounded: every structure is checked against the table's Length, every
 * parent reference against the table and against a processor hierarchy node, and each walk up
 * the parents stops after PPTT_MAX_DEPTH levels or at the first node seen twice (a loop).
 *
 * A processor is a type 0 node with "ACPI Processor ID valid" that is a leaf: "Node is a Leaf"
 * set (table revision 2 and later), or no other node names it as parent. Its package is the
 * first node up its parents with "Physical package" set; its core is itself, or its parent when
 * it is a thread ("Processor is a Thread"); its cluster is the node above the core when that is
 * not the package (else the package). Each is identified as Linux does it
 * (drivers/acpi/pptt.c, find_acpi_cpu_topology_tag): the node's ACPI Processor ID when that
 * node says it is valid, else the node's offset in the table. Cache type structures (type 1,
 * 5.2.30.2) are counted and their lengths checked.
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/le.h"
#include "arch/lib/fmt.h"

#define PPTT_OFF_ENTRIES      ACPI_HEADER_LEN   /* structures follow the header directly */
#define PPTT_ENTRY_HDR        4                 /* Type @0, Length @1, Reserved @2 */

#define PPTT_TYPE_PROC        0      /* 5.2.30.1 Processor Hierarchy Node Structure */
#define PPTT_TYPE_CACHE       1      /* 5.2.30.2 Cache Type Structure */
/* 5.2.30.1 (table 5.159): Flags @4, Parent @8, ACPI Processor ID @12, Number of Private
 * Resources @16, Private Resources (4 bytes each) @20. */
#define PROC_OFF_FLAGS        4
#define PROC_OFF_PARENT       8
#define PROC_OFF_ACPI_ID      12
#define PROC_OFF_NPRIV        16
#define PROC_LEN              20
#define PROC_F_PACKAGE        (1u << 0)   /* Physical package */
#define PROC_F_ID_VALID       (1u << 1)   /* ACPI Processor ID valid */
#define PROC_F_THREAD         (1u << 2)   /* Processor is a Thread */
#define PROC_F_LEAF           (1u << 3)   /* Node is a Leaf (ACPI 6.3, PPTT revision 2) */
/* 5.2.30.2 (table 5.162): 24 bytes up to Line Size, 28 with Cache ID (ACPI 6.4, revision 3). */
#define CACHE_LEN             24

#define PPTT_MAX_DEPTH        32     /* levels walked up from a processor before calling it a loop */

/* The processor hierarchy node at table offset off, or NULL (defect set) when off does not
 * hold one inside the table. `who` is the offset naming it, for the defect. */
static const uint8_t *node_at(const uint8_t *t, uint32_t len, uint32_t off, uint32_t who, struct acpi_pptt *p)
{
	if (off < PPTT_OFF_ENTRIES || off > len || len - off < PROC_LEN) {
		acpi_set_defect(p->defect, "node @0x%x: parent 0x%x outside the table (Length %u)", who, off, len);
		return NULL;
	}
	const uint8_t *e = t + off;
	if (e[0] != PPTT_TYPE_PROC || e[1] < PROC_LEN || e[1] > len - off) {
		acpi_set_defect(p->defect, "node @0x%x: parent 0x%x is not a processor hierarchy node", who, off);
		return NULL;
	}
	return e;
}

static uint32_t tag(const uint8_t *e, uint32_t off)
{
	return (le32(e + PROC_OFF_FLAGS) & PROC_F_ID_VALID) ? le32(e + PROC_OFF_ACPI_ID) : off;
}

/* 1 when some processor hierarchy node names off as its parent. */
static int has_child(const uint8_t *t, uint32_t len, uint32_t off)
{
	for (uint32_t o = PPTT_OFF_ENTRIES; len - o >= PPTT_ENTRY_HDR && t[o + 1] >= PPTT_ENTRY_HDR && t[o + 1] <= len - o;
	     o += t[o + 1])
		if (t[o] == PPTT_TYPE_PROC && t[o + 1] >= PROC_LEN && le32(t + o + PROC_OFF_PARENT) == off)
			return 1;
	return 0;
}

/* Walk up from processor node `off`; fill c. 0, or -1 with p->defect set. */
static int walk(const uint8_t *t, uint32_t len, uint32_t off, struct acpi_pptt_cpu *c, struct acpi_pptt *p)
{
	uint32_t seen[PPTT_MAX_DEPTH], n = 0, cur = off, core = off, above_core = 0;
	const uint8_t *e = t + off;
	if (le32(e + PROC_OFF_FLAGS) & PROC_F_THREAD) {
		c->thread = 1;
		core = le32(e + PROC_OFF_PARENT);
	}
	for (;;) {
		for (uint32_t i = 0; i < n; i++)
			if (seen[i] == cur) {
				acpi_set_defect(p->defect, "processor @0x%x: loop in parents at node 0x%x", off, cur);
				return -1;
			}
		if (n == PPTT_MAX_DEPTH) {
			acpi_set_defect(p->defect, "processor @0x%x: more than %u levels of parents", off, PPTT_MAX_DEPTH);
			return -1;
		}
		seen[n++] = cur;
		if (cur != off && !(e = node_at(t, len, cur, seen[n > 1 ? n - 2 : 0], p)))
			return -1;
		uint32_t flags = le32(e + PROC_OFF_FLAGS), parent = le32(e + PROC_OFF_PARENT);
		if (cur == core) {
			c->core = tag(e, cur);
			above_core = parent;
		}
		if (flags & PROC_F_PACKAGE) {
			c->package = tag(e, cur);
			c->package_off = cur;
			c->cluster = c->package;
			if (above_core && above_core != cur) {
				const uint8_t *a = node_at(t, len, above_core, core, p);
				if (!a)
					return -1;
				c->cluster = tag(a, above_core);
			}
			return 0;
		}
		if (!parent) {
			acpi_set_defect(p->defect, "processor @0x%x: no physical package above it", off);
			return -1;
		}
		cur = parent;
	}
}

static void add_processor(const uint8_t *t, uint32_t len, uint32_t off, struct acpi_pptt *p)
{
	struct acpi_pptt_cpu c = { .uid = le32(t + off + PROC_OFF_ACPI_ID) };
	if (walk(t, len, off, &c, p) != 0)
		return;
	if (p->ncpu >= ACPI_MAX_CPU_IDS) {
		p->cpu_dropped++;
		return;
	}
	uint32_t k = 0;
	while (k < p->ncpu && p->cpu[k].package_off != c.package_off)
		k++;
	p->npackages += k == p->ncpu;
	p->cpu[p->ncpu++] = c;
}

void acpi_parse_pptt(const uint8_t *t, uint32_t len, struct acpi_pptt *p)
{
	memset(p, 0, sizeof(*p));
	p->present = 1;
	p->revision = t[8];
	uint32_t off = PPTT_OFF_ENTRIES;
	while (off < len) {
		if (len - off < PPTT_ENTRY_HDR) {
			acpi_set_defect(p->defect, "structure @0x%x: header runs past Length %u", off, len);
			break;
		}
		const uint8_t *e = t + off;
		uint8_t type = e[0], elen = e[1];
		if (elen < PPTT_ENTRY_HDR || elen > len - off) {
			acpi_set_defect(p->defect, "structure @0x%x: Length %u invalid", off, elen);
			break;
		}
		if (type == PPTT_TYPE_PROC) {
			if (elen < PROC_LEN || (uint32_t)(elen - PROC_LEN) / 4 < le32(e + PROC_OFF_NPRIV)) {
				acpi_set_defect(p->defect, "node @0x%x: Length %u too short for its %u private resources",
						off, elen, elen < PROC_LEN ? 0 : le32(e + PROC_OFF_NPRIV));
				break;
			}
			p->nnodes++;
			uint32_t flags = le32(e + PROC_OFF_FLAGS);
			if ((flags & PROC_F_ID_VALID) && ((flags & PROC_F_LEAF) || !has_child(t, len, off)))
				add_processor(t, len, off, p);
		} else if (type == PPTT_TYPE_CACHE) {
			if (elen < CACHE_LEN) {
				acpi_set_defect(p->defect, "cache @0x%x: Length %u < %u", off, elen, CACHE_LEN);
				break;
			}
			p->ncaches++;
		} else {
			p->other++;
		}
		off += elen;
	}
}

int acpi_pptt_find(const struct acpi_pptt *p, uint32_t uid)
{
	for (uint32_t i = 0; p && p->present && !p->defect[0] && i < p->ncpu && i < ACPI_MAX_CPU_IDS; i++)
		if (p->cpu[i].uid == uid)
			return (int)i;
	return -1;
}

void acpi_json_pptt(const struct acpi_pptt *p, struct json *j)
{
	json_obj(j, "pptt");
	json_bool(j, "present", p->present);
	if (p->present) {
		json_u64(j, "revision", p->revision);
		json_u64(j, "processor_nodes", p->nnodes);
		json_u64(j, "cache_nodes", p->ncaches);
		json_u64(j, "packages", p->npackages);
		json_arr(j, "processors");
		for (uint32_t i = 0; i < p->ncpu && i < ACPI_MAX_CPU_IDS; i++) {
			json_obj(j, NULL);
			json_u64(j, "uid", p->cpu[i].uid);
			json_u64(j, "package", p->cpu[i].package);
			json_u64(j, "cluster", p->cpu[i].cluster);
			json_u64(j, "core", p->cpu[i].core);
			json_bool(j, "thread", p->cpu[i].thread);
			json_close(j);
		}
		json_close(j);
		acpi_json_defect(j, p->defect);
	}
	json_close(j);
}

int acpi_pptt_topology(const struct acpi_pptt *p, const uint32_t *uid, uint32_t n, struct acpi_cpu_topo *out,
		       char *why, size_t whylen)
{
	if (!p || !p->present) {
		fmt_snprintf(why, whylen, "no PPTT");
		return -1;
	}
	if (p->defect[0]) {
		fmt_snprintf(why, whylen, "PPTT defect: %s", p->defect);
		return -1;
	}
	uint32_t pkg_off[ACPI_MAX_CPU_IDS], np = 0;
	for (uint32_t i = 0; i < n; i++) {
		int k = acpi_pptt_find(p, uid[i]);
		if (k < 0) {
			fmt_snprintf(why, whylen, "the PPTT has no processor with ACPI Processor UID %u", uid[i]);
			return -1;
		}
		const struct acpi_pptt_cpu *c = &p->cpu[k];
		uint32_t j = 0;
		while (j < np && pkg_off[j] != c->package_off)
			j++;
		if (j == np)
			pkg_off[np++] = c->package_off;   /* np <= i + 1 <= n, and p->ncpu bounds distinct packages */
		out[i] = (struct acpi_cpu_topo){ .package = j, .cluster = c->cluster, .core = c->core };
	}
	return (int)np;
}
