/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aml: a bounded reader of static Device objects in AML definition blocks (DSDT, SSDT), after
 * the AML grammar of ACPI 6.5 section 20.2. Pure code: no allocation, no EFI header; every
 * byte read lies inside the table given, every PkgLength is checked against the scope that
 * encloses it, and nesting is bounded by AML_MAX_DEPTH.
 *
 * What it reads, inside Scope / Device nesting (tracking the name path "\_SB_.CM00"):
 *   Name(_HID, "NVDA2021") or Name(_HID, EISAID("PNP0A08"))  -> hid
 *   Name(_UID, n) (integer, or a string of digits)         -> uid
 *   Name(_CRS, ResourceTemplate(){...}): Memory32Fixed, DWordMemory, QWordMemory and
 *     ExtendedMemory descriptors (ACPI 6.5 6.4.3.5) -> ranges {base, length} in _CRS order
 *   Name(_DSD, Package(){ToUUID("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
 *     Package(){Package(){"name", value}...}}) (ACPI 6.5 6.2.5, UEFI device-properties
 *     UUID) -> integer and string properties
 * Methods, fields, regions, processors and If/Else/While are skipped by their PkgLength (or
 * their fixed shape). An opcode the reader cannot size ends the walk of its scope with a
 * named defect; an object whose PkgLength runs past its enclosing scope is a defect naming
 * the table, offset and device path, and is not used. The walk goes on in the outer scopes.
 * A device is kept only when it has a _HID (one of info->want_hid when the caller sets it). Only Name objects with constant data are seen:
 * a _CRS / _HID returned by a Method is not.
 */
#ifndef EFIPERF_AML_H
#define EFIPERF_AML_H

#include <stddef.h>
#include <stdint.h>

#define AML_MAX_DEPTH     16        /* nested Scope / Device / Package levels */
#define AML_PATH_LEN      64        /* "\_SB_.PCI0.S08_.CM00" */
#define AML_MAX_DEVICES   32        /* devices with a _HID kept, over all tables */
#define AML_MAX_RANGES    24        /* memory ranges of one _CRS (NV-DLink: 16 + broadcast) */
#define AML_MAX_PROPS     8         /* _DSD device properties of one device */
#define AML_PROP_NAME     24
#define AML_MAX_DEFECTS   16
#define AML_DEFECT_LEN    160
#define AML_MAX_TABLES    32        /* definition blocks listed in info.table[] */

enum aml_range_kind { AML_MEM32_FIXED, AML_DWORD_MEM, AML_QWORD_MEM, AML_EXT_MEM };

struct aml_range {
	uint64_t base, length;      /* bytes */
	uint8_t kind;               /* enum aml_range_kind */
};

struct aml_prop {
	char name[AML_PROP_NAME];
	uint8_t is_string;
	uint64_t value;             /* integer value */
	char str[AML_PROP_NAME];    /* string value (truncated) */
};

struct aml_device {
	char table[5];              /* "SSDT" */
	uint32_t table_index;       /* which definition block (caller's numbering) */
	uint32_t offset;            /* DeviceOp's offset in the table */
	char path[AML_PATH_LEN];
	char hid[9];                /* string _HID, or EISAID decoded ("PNP0A08") */
	uint8_t has_uid, uid_is_string;
	uint64_t uid;
	char uid_str[16];
	uint8_t has_crs, has_dsd;
	uint32_t nranges, ranges_dropped;
	struct aml_range range[AML_MAX_RANGES];
	uint32_t nprops, props_dropped;
	struct aml_prop prop[AML_MAX_PROPS];
};

/* A definition block as read: its signature, the caller's index and address, its length and
 * aml_parse_table's result. */
struct aml_table {
	char sig[5];
	uint32_t index;
	uint64_t addr;              /* set by the caller (0: not known) */
	uint32_t length;
	int rc;
};

struct aml_info {
	/* Set by the caller before the first table (optional): keep only devices whose _HID is
	 * one of want_hid[0..nwant); the others with a _HID are only counted in dev_other. */
	const char *const *want_hid;
	uint32_t nwant;
	uint32_t dev_other;
	uint32_t ntables;           /* definition blocks given; the first AML_MAX_TABLES listed */
	struct aml_table table[AML_MAX_TABLES];
	uint32_t ndev, dev_dropped;
	struct aml_device dev[AML_MAX_DEVICES];
	uint32_t ndefects, defects_dropped;
	char defect[AML_MAX_DEFECTS][AML_DEFECT_LEN];
};

/* Walk one definition block (tbl[0..len): the 36-byte ACPI header and its TermList) and add
 * its devices and defects to *info (zeroed by the caller before the first table).
 * table_index numbers the block in messages. Returns 0, or -1 when the table itself is
 * unusable (too short, Length field disagreeing with len: a defect says which). */
int aml_parse_table(const uint8_t *tbl, uint32_t len, uint32_t table_index, struct aml_info *info);

/* The first device with _HID hid, starting at index *from (updated past it), or NULL. */
const struct aml_device *aml_find_hid(const struct aml_info *info, const char *hid, uint32_t *from);
/* The first device with _HID hid and _UID uid (an integer _UID, or a string of its decimal
 * digits, as Linux's acpi_dev_uid_match compares them), or NULL. */
const struct aml_device *aml_find_hid_uid(const struct aml_info *info, const char *hid, uint64_t uid);
/* The integer property `name` of d: 1 and *value, or 0 when absent or a string. */
int aml_prop_u64(const struct aml_device *d, const char *name, uint64_t *value);

#endif
