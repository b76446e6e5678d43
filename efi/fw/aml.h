/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aml: a bounded reader of static Device objects in AML definition blocks (DSDT, SSDT), after
 * the AML grammar of ACPI 6.5 section 20.2. Pure code: no EFI header; memory only through the
 * caller's pool_alloc / pool_release; every byte read lies inside the table given, every
 * PkgLength is checked against the scope that encloses it, and nesting is bounded
 * (AML_MAX_DEPTH scopes, AML_MAX_TERM_DEPTH nested operands).
 *
 * It reads every term of a TermList the way ACPICA's parser sizes it (one opcode table of
 * operand shapes, ACPI 6.5 20.2.5): named objects, statements and expressions alike, also at
 * scope level (a ZeroOp padding byte is a constant statement there), and it walks the bodies
 * of Scope, Device, Processor, PowerResource, ThermalZone, If, Else and While. A NameString in
 * operand position is a method invocation when it names a Method (or External MethodObj, or
 * the predefined \_OSI) declared so far in the tables read, found by the namespace search rules
 * of ACPI 6.5 5.3 (a nearer Name, Device, Processor, PowerResource, ThermalZone, OperationRegion,
 * DataTableRegion, Mutex or Event of that name makes it none); its arguments follow. Field units
 * and CreateXField names are not recorded. A name not (yet) declared is a plain reference, as
 * ACPICA's loader takes it. Method bodies are not read (their objects exist only while they run).
 *
 * What it keeps, per Device (name path "\_SB_.CM00"):
 *   Name(_HID, "NVDA2021") or Name(_HID, EISAID("PNP0A08"))  -> hid, whole; hid_odd when a
 *     string _HID is neither a PNP ID (3 letters, 4 hex digits) nor an ACPI ID (4 letters or
 *     digits, 4 hex digits), ACPI 6.5 6.1.5
 *   Name(_UID, n) (integer, or a string, whole)               -> uid
 *   Name(_CRS, ResourceTemplate(){...}): Memory32Fixed, DWordMemory, QWordMemory and
 *     ExtendedMemory descriptors (ACPI 6.5 6.4.3.5) -> ranges {base, length} in _CRS order
 *   Name(_DSD, Package(){ToUUID("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
 *     Package(){Package(){"name", value}...}}) (ACPI 6.5 6.2.5, UEFI device-properties
 *     UUID) -> properties whose value is an integer, a string, a package (its element count),
 *     a buffer (its size) or a reference (the name as written)
 * Names inside If / Else / While bodies of a Device count as the Device's (the last one read
 * wins). Only Name objects with constant data are seen: a _CRS / _HID returned by a Method is not.
 *
 * Defects (info->defect, "SIG[index] @0xOFFSET \SCOPE: what") name the opcode, its offset in
 * the table and the scope: an opcode that is no AML term ("opcode 0xNN is not an AML term
 * opcode"), an object whose PkgLength or operands run past the object or scope around it, a
 * malformed PkgLength or NameString, nesting deeper than the bounds, a _HID / _UID string
 * longer than AML_STR_LEN - 1 (kept cut), and memory the pool did not give. The rest of that
 * scope is not read; the walk goes on in the outer scopes.
 * A device is kept only when it has a _HID (one of info->want_hid when the caller sets it).
 */
#ifndef EFIPERF_AML_H
#define EFIPERF_AML_H

#include <stddef.h>
#include <stdint.h>

#define AML_MAX_DEPTH     16        /* nested Scope / Device / If / Else / While levels */
#define AML_MAX_TERM_DEPTH 32       /* operands nested in one term (Add (Add (...))) */
#define AML_PATH_LEN      96        /* "\_SB_.PCI0.S08_.CM00": 18 NameSegs */
#define AML_STR_LEN       64        /* a _HID or _UID string and its NUL */
#define AML_MAX_RANGES    24        /* memory ranges of one _CRS (NV-DLink: 16 + broadcast) */
#define AML_MAX_PROPS     16        /* _DSD device properties of one device */
#define AML_PROP_NAME     48
#define AML_MAX_DEFECTS   16
#define AML_DEFECT_LEN    160
#define AML_MAX_TABLES    32        /* definition blocks listed in info.table[] */

enum aml_range_kind { AML_MEM32_FIXED, AML_DWORD_MEM, AML_QWORD_MEM, AML_EXT_MEM };

struct aml_range {
	uint64_t base, length;      /* bytes */
	uint8_t kind;               /* enum aml_range_kind */
};

enum aml_prop_kind { AML_PROP_INT, AML_PROP_STR, AML_PROP_PKG, AML_PROP_BUF, AML_PROP_REF };

struct aml_prop {
	char name[AML_PROP_NAME];
	uint8_t kind;               /* enum aml_prop_kind */
	uint8_t is_string;          /* kind == AML_PROP_STR */
	uint64_t value;             /* INT: the value; PKG: NumElements; BUF: BufferSize */
	char str[AML_PROP_NAME];    /* STR: the string; REF: the name as written (both cut) */
};

struct aml_device {
	char table[5];              /* "SSDT" */
	uint32_t table_index;       /* which definition block (caller's numbering) */
	uint32_t offset;            /* DeviceOp's offset in the table */
	char path[AML_PATH_LEN];
	char hid[AML_STR_LEN];      /* string _HID, or EISAID decoded ("PNP0A08") */
	uint8_t hid_odd;            /* a string _HID that is no PNP or ACPI ID (ACPI 6.5 6.1.5) */
	uint8_t has_uid, uid_is_string;
	uint64_t uid;
	char uid_str[AML_STR_LEN];
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

/* One declared name: its path's hash (FNV-1a 64 of "\\_SB_.PCI0._DSM") and ArgCount + 1 for a
 * method, 9 for an object that is no method (0: an empty slot). */
struct aml_method {
	uint64_t hash;
	uint8_t argc1;
};

struct aml_info {
	/* Set by the caller before the first table: the pool. pool_alloc gives zeroed memory of
	 * the size asked or NULL; pool_release takes it back (aml_info_free). Without them no
	 * device is kept (all counted in dev_dropped) and no method is known. */
	void *(*pool_alloc)(size_t bytes);
	void (*pool_release)(void *p);
	/* Set by the caller before the first table (optional): keep only devices whose _HID is
	 * one of want_hid[0..nwant); the others with a _HID are only counted in dev_other. */
	const char *const *want_hid;
	uint32_t nwant;
	uint32_t dev_other;
	uint32_t ntables;           /* definition blocks given; the first AML_MAX_TABLES listed */
	struct aml_table table[AML_MAX_TABLES];
	uint32_t ndev, dev_cap, dev_dropped;   /* dev_dropped: the pool gave no room */
	struct aml_device *dev;     /* dev[0..ndev), from the pool */
	uint32_t nmethod, method_cap, method_dropped;   /* declared names (methods and others) */
	struct aml_method *method;  /* open-addressed by hash, method_cap a power of two */
	uint32_t ndefects, defects_dropped;
	char defect[AML_MAX_DEFECTS][AML_DEFECT_LEN];
};

/* Walk one definition block (tbl[0..len): the 36-byte ACPI header and its TermList) and add
 * its devices and defects to *info (zeroed by the caller before the first table).
 * table_index numbers the block in messages. Returns 0, or -1 when the table itself is
 * unusable (too short, Length field disagreeing with len: a defect says which). */
int aml_parse_table(const uint8_t *tbl, uint32_t len, uint32_t table_index, struct aml_info *info);

/* Gives back what the reader took from the pool; the info can be zeroed and used again. */
void aml_info_free(struct aml_info *info);

/* The first device with _HID hid, starting at index *from (updated past it), or NULL. */
const struct aml_device *aml_find_hid(const struct aml_info *info, const char *hid, uint32_t *from);
/* Gives back what the reader took from the pool; the info can be zeroed and used again. */
void aml_info_free(struct aml_info *info);

/* The first device with _HID hid and _UID uid (an integer _UID, or a string of its decimal
 * digits, as Linux's acpi_dev_uid_match compares them), or NULL. */
const struct aml_device *aml_find_hid_uid(const struct aml_info *info, const char *hid, uint64_t uid);
/* The integer property `name` of d: 1 and *value, or 0 when absent or not an integer. */
int aml_prop_u64(const struct aml_device *d, const char *name, uint64_t *value);

#endif
