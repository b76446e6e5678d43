/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * APMT (Arm Performance Monitoring Unit Table), ARM DEN0117 1.0: the node list only, one node
 * per CoreSight PMU (memory controller, SMMU, PCIe root complex, ACPI device, CPU cache). The
 * PMUs behind the nodes are programmed elsewhere (pmu/).
 */
#include <string.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "efi/fw/acpi_parsers.h"
#include "arch/lib/le.h"

/* DEN0117 table 1: the standard 36-byte header, then the PMU nodes. */
#define APMT_OFF_NODES        ACPI_HEADER_LEN

/* DEN0117 table 2: PMU node layout (packed, 56 bytes). */
#define NODE_OFF_LENGTH       0x00   /* u16 */
#define NODE_OFF_FLAGS        0x02
#define NODE_OFF_TYPE         0x03
#define NODE_OFF_ID           0x04   /* u32 */
#define NODE_OFF_INST_PRI     0x08   /* u64 */
#define NODE_OFF_INST_SEC     0x10   /* u32 */
#define NODE_OFF_BASE0        0x14   /* u64 */
#define NODE_OFF_BASE1        0x1C   /* u64, valid when flags bit 0 (dual page) */
#define NODE_OFF_OVFLW_GSIV   0x24   /* u32, 0 = none */
#define NODE_OFF_OVFLW_FLAGS  0x2C   /* u32 */
#define NODE_OFF_AFFINITY     0x30   /* u32 */
#define NODE_OFF_IMPL_ID      0x34   /* u32 */
#define NODE_LEN              0x38

/* DEN0117 table 2 node flags. */
#define APMT_F_DUAL_PAGE      (1u << 0)
#define APMT_F_AFF_CONTAINER  (1u << 1)
#define APMT_F_ATOMIC         (1u << 2)

void acpi_parse_apmt(const uint8_t *t, uint32_t len, struct acpi_apmt *p)
{
	p->present = 1;
	/* Every step advances by a node Length >= NODE_LEN or stops: bounded by len / 56. */
	for (uint32_t off = APMT_OFF_NODES; off < len;) {
		const uint8_t *e = t + off;
		if (len - off < NODE_LEN) {
			acpi_set_defect(p->defect, "node at 0x%x: %u bytes left < node %u", off,
					len - off, NODE_LEN);
			return;
		}
		uint16_t nlen = le16(e + NODE_OFF_LENGTH);
		if (nlen < NODE_LEN) {
			acpi_set_defect(p->defect, "node at 0x%x: length %u < %u stops the walk", off,
					nlen, NODE_LEN);
			return;
		}
		if (nlen > len - off) {
			acpi_set_defect(p->defect, "node at 0x%x: length %u runs past the end %u", off,
					nlen, len);
			return;
		}
		if (p->nnodes < ACPI_MAX_APMT) {
			struct acpi_apmt_node n = {
				.length = nlen, .flags = e[NODE_OFF_FLAGS], .type = e[NODE_OFF_TYPE],
				.id = le32(e + NODE_OFF_ID), .inst_primary = le64(e + NODE_OFF_INST_PRI),
				.inst_secondary = le32(e + NODE_OFF_INST_SEC),
				.base0 = le64(e + NODE_OFF_BASE0), .base1 = le64(e + NODE_OFF_BASE1),
				.ovflw_gsiv = le32(e + NODE_OFF_OVFLW_GSIV),
				.ovflw_flags = le32(e + NODE_OFF_OVFLW_FLAGS),
				.proc_affinity = le32(e + NODE_OFF_AFFINITY),
				.impl_id = le32(e + NODE_OFF_IMPL_ID),
			};
			p->node[p->nnodes++] = n;
		} else {
			p->dropped++;
		}
		off += nlen;
	}
}

/* DEN0117 table 2 node types; 5..0xFF are reserved. */
static const char *const type_name[] = { "mc", "smmu", "pcie_root", "acpi", "cache" };
#define NTYPES (sizeof(type_name) / sizeof(type_name[0]))

void acpi_json_apmt_node(const struct acpi_apmt_node *n, struct json *j)
{
	json_u64(j, "length", n->length);
	json_u64(j, "id", n->id);
	json_u64(j, "type", n->type);
	json_str(j, "type_name", n->type < NTYPES ? type_name[n->type] : "reserved");
	json_hex(j, "flags", n->flags);
	json_bool(j, "dual_page", n->flags & APMT_F_DUAL_PAGE);
	json_bool(j, "affinity_container", n->flags & APMT_F_AFF_CONTAINER);
	json_bool(j, "atomic64", n->flags & APMT_F_ATOMIC);
	json_hex(j, "inst_primary", n->inst_primary);
	json_u64(j, "inst_secondary", n->inst_secondary);
	json_hex(j, "base0", n->base0);
	json_hex(j, "base1", n->base1);
	json_u64(j, "ovflw_gsiv", n->ovflw_gsiv);
	json_hex(j, "ovflw_flags", n->ovflw_flags);
	json_hex(j, "proc_affinity", n->proc_affinity);
	json_hex(j, "impl_id", n->impl_id);
}

void acpi_json_apmt(const struct acpi_apmt *p, struct json *j)
{
	json_arr(j, "apmt");
	for (uint32_t i = 0; i < p->nnodes && i < ACPI_MAX_APMT; i++) {
		json_obj(j, NULL);
		acpi_json_apmt_node(&p->node[i], j);
		json_close(j);
	}
	json_close(j);
	if (p->present && (p->defect[0] || p->dropped)) {
		json_obj(j, "apmt_defects");
		json_u64(j, "dropped", p->dropped);
		acpi_json_defect(j, p->defect);
		json_close(j);
	}
}
