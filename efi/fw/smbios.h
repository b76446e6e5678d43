/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smbios: pure parser of the SMBIOS structure table (DMTF DSP0134 SMBIOS 3.7), reading physical
 * memory only through a struct physmem. No EFI header, no allocation.
 *
 *   smbios_parse(pm, ep, &info)   ep: the SMBIOS 3.0 ("_SM3_") or 2.1 ("_SM_" + "_DMI_") entry
 *                                 point. 0: the entry point was valid (structure defects are
 *                                 listed in info.defects); -1: info.defect says why not.
 *   smbios_to_json(&info, &j)     members of an open JSON object.
 *   smbios_log_serial(&info, ...) the system serial made safe for a file name, or "noserial".
 */
#ifndef EFIPERF_SMBIOS_H
#define EFIPERF_SMBIOS_H

#include <stddef.h>
#include <stdint.h>
#include "efi/fw/physmem.h"
#include "efi/out/jsonl.h"

#define SMBIOS_STR_LEN       65      /* strings kept up to 64 characters */
#define SMBIOS_DEFECT_LEN    96
#define SMBIOS_MAX_DEFECTS   8
#define SMBIOS_MAX_PROCS     4
#define SMBIOS_UUID_LEN      37      /* 36 characters + NUL */
#define SMBIOS_LOG_SERIAL_MAX 32

struct smbios_proc {
	char socket[SMBIOS_STR_LEN], manufacturer[SMBIOS_STR_LEN], version[SMBIOS_STR_LEN];
	uint16_t max_mhz, current_mhz;
};

struct smbios_info {
	const char *entry;               /* "_SM3_" or "_SM_" */
	uint8_t major, minor, docrev;
	uint64_t table_addr;
	uint32_t table_len;              /* 3.0: maximum size; 2.1: exact length */
	uint32_t declared_structs;       /* 2.1 entry point's count; 0 for 3.0 */
	uint32_t nstructs;               /* structures walked */
	int end_found;                   /* type 127 reached */
	char defect[SMBIOS_DEFECT_LEN];  /* set when smbios_parse returns -1 */
	uint32_t ndefects, defects_dropped;
	char defects[SMBIOS_MAX_DEFECTS][SMBIOS_DEFECT_LEN];

	struct { int present; char vendor[SMBIOS_STR_LEN], version[SMBIOS_STR_LEN],
		 date[SMBIOS_STR_LEN]; } bios;                                   /* type 0 */
	struct { int present; char manufacturer[SMBIOS_STR_LEN], product[SMBIOS_STR_LEN],
		 version[SMBIOS_STR_LEN], serial[SMBIOS_STR_LEN];
		 char uuid[SMBIOS_UUID_LEN]; } system;                            /* type 1 */
	struct { int present; char manufacturer[SMBIOS_STR_LEN], product[SMBIOS_STR_LEN],
		 serial[SMBIOS_STR_LEN]; } board;                                 /* type 2 */
	uint32_t nprocs_total, nprocs;                                            /* type 4 */
	struct smbios_proc proc[SMBIOS_MAX_PROCS];
	struct { uint32_t devices, populated, unknown_size;                      /* type 17 */
		 uint64_t total_mib;
		 uint32_t speed_mts, configured_mts;          /* highest over populated devices */
		 /* the claimed peak: over populated devices, configured (else rated) MT/s x Data
		  * Width / 8, in MB/s (10^6 B/s), as if each were on a channel of its own;
		  * peak_unknown counts devices without a speed or width */
		 uint64_t peak_mbps;
		 uint32_t peak_unknown; } mem;
};

int smbios_parse(const struct physmem *pm, uint64_t ep_addr, struct smbios_info *out);
void smbios_to_json(const struct smbios_info *s, struct json *j);
void smbios_log_serial(const struct smbios_info *s, char *out, size_t n);

#endif
