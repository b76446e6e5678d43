/* SPDX-License-Identifier: BSD-2-Clause */
/* Companion ACPI devices of APMT ACPI-device nodes (efi/fw/apmt_companion.h). */
#include "efi/fw/apmt_companion.h"
#include "arch/lib/fmt.h"

#include <string.h>

#define HID_LEN 8

void apmt_node_hid(uint64_t inst_primary, char hid[9])
{
	memset(hid, 0, 9);
	for (int i = 0; i < HID_LEN; i++) {
		char c = (char)(inst_primary >> (8 * i));
		if (!c)
			break;
		hid[i] = c;
	}
}

static int printable(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7E)
			return 0;
	return 1;
}

uint32_t apmt_companion_hids(const struct acpi_apmt *t, char store[][9], const char **want, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; t && i < t->nnodes && i < ACPI_MAX_APMT && n < max; i++) {
		if (t->node[i].type != APMT_NODE_ACPI)
			continue;
		apmt_node_hid(t->node[i].inst_primary, store[n]);
		if (!printable(store[n]))
			continue;
		uint32_t k = 0;
		while (k < n && strcmp(store[k], store[n]))
			k++;
		if (k == n) {
			want[n] = store[n];
			n++;
		}
	}
	return n;
}

void apmt_companion_of(const struct acpi_apmt_node *n, const struct aml_info *aml, struct apmt_companion *c)
{
	memset(c, 0, sizeof(*c));
	c->apmt_id = n->id;
	c->uid = n->inst_secondary;
	apmt_node_hid(n->inst_primary, c->hid);
	if (!printable(c->hid)) {
		fmt_snprintf(c->why, sizeof(c->why), "the node's instance primary 0x%llx is no _HID",
			     (unsigned long long)n->inst_primary);
		return;
	}
	const struct aml_device *d = aml ? aml_find_hid_uid(aml, c->hid, c->uid) : NULL;
	if (!d) {
		fmt_snprintf(c->why, sizeof(c->why), "no ACPI device with _HID \"%s\" and _UID %u in the namespace read",
			     c->hid, c->uid);
		return;
	}
	c->found = 1;
	memcpy(c->path, d->path, sizeof(c->path));
	c->has_instance_id = (uint8_t)aml_prop_u64(d, "instance_id", &c->instance_id);
	if (d->nranges) {
		c->has_block = 1;
		c->block = d->range[0].base;
		c->block_len = d->range[0].length;
	}
	if (!c->has_instance_id || !c->has_block)
		fmt_snprintf(c->why, sizeof(c->why), "%s (_HID \"%s\", _UID %u) has %s%s%s", c->path, c->hid, c->uid,
			     c->has_instance_id ? "" : "no _DSD instance_id",
			     !c->has_instance_id && !c->has_block ? " and " : "",
			     c->has_block ? "" : d->has_crs ? "no memory resource in _CRS" : "no _CRS");
}
