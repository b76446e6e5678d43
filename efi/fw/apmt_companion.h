/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The companion ACPI device of an APMT node of type 3 (ACPI device; ARM DEN0117 table 2): the
 * node's Instance primary holds the device's _HID as 8 ASCII bytes and Instance secondary its
 * _UID, and Linux (drivers/perf/arm_cspmu/arm_cspmu.c arm_cspmu_acpi_dev_get) takes the device
 * acpi_dev_get_first_match_dev(hid, "%u" of uid). The NVIDIA Tegra410 PCIE and PCIE-TGT PMUs
 * (drivers/perf/arm_cspmu/nvidia_cspmu.c) read from it the _DSD device property "instance_id"
 * (the root complex number of the PMU's name ..._rc_<n>) and, PCIE-TGT, the address-filter
 * block: the device's first memory resource of _CRS. Pure: the devices come from the bounded
 * AML reader (efi/fw/aml.h).
 */
#ifndef EFIPERF_APMT_COMPANION_H
#define EFIPERF_APMT_COMPANION_H

#include <stddef.h>
#include <stdint.h>
#include "efi/fw/acpi.h"
#include "efi/fw/aml.h"

/* The _HID of an ACPI-device node: Instance primary's 8 bytes (little-endian, so the first
 * character is bits [7:0]), NUL-terminated; a shorter HID ends at its first NUL byte. */
void apmt_node_hid(uint64_t inst_primary, char hid[9]);

/* The distinct _HIDs of t's ACPI-device nodes with a printable HID, into store[0..max) and
 * want[] (pointers into store) for aml_info.want_hid. Returns how many. */
uint32_t apmt_companion_hids(const struct acpi_apmt *t, char store[][9], const char **want, uint32_t max);

struct apmt_companion {
	uint32_t apmt_id;            /* the node's Identifier */
	char hid[9];
	uint32_t uid;
	uint8_t found;               /* a device with that _HID and _UID was read */
	char path[AML_PATH_LEN];     /* its namespace path */
	uint8_t has_instance_id;
	uint64_t instance_id;        /* _DSD "instance_id" */
	uint8_t has_block;
	uint64_t block;              /* first _CRS memory resource: base (bytes) */
	uint64_t block_len;          /* its length (bytes) */
	char why[160];               /* what is missing: no device, no _CRS, no instance_id */
};

/* The companion of ACPI-device node n among the devices aml read (aml_find_hid_uid). Always
 * fills c; c->found 0 (why names the HID/UID looked for) when there is none. */
void apmt_companion_of(const struct acpi_apmt_node *n, const struct aml_info *aml, struct apmt_companion *c);

#endif
