/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NVMe measurement's settings, in fio's vocabulary: which controllers (`nvme` = none | all |
 * a comma-separated list of PCI functions), block sizes (`nvme_bs` = 4K,128K: bytes per command,
 * K/M binary suffixes) and queue depths (`nvme_iodepth` = 1,32: commands in flight per
 * controller). Pure parsers: the config checks a value's shape with them when it is read, the
 * measurement parses it again when it runs. Limits the device sets (CAP.MQES, MDTS, the LBA
 * size) are checked against the controller at run time.
 */
#ifndef EFIPERF_NVME_PARAMS_H
#define EFIPERF_NVME_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define NVME_MAX_CTRLS 8          /* controllers in one run */
#define NVME_LIST_MAX 8           /* values of nvme_bs / nvme_iodepth */
#define NVME_BS_MIN 512u          /* the smallest LBA size (LBADS 9, NVMe 1.4 5.15.2.2) */
#define NVME_BS_MAX (1u << 20)    /* efiperf's per-command cap (NVME_MAX_XFER) */
#define NVME_IODEPTH_MAX 65535u   /* CAP.MQES at most (NVMe 1.4 3.1.1: 16 bits, 0's based); the device's
				   * MQES and efiperf's queue size cap it further at run time */

struct nvme_ctrl_list {
	int all;                          /* `all`: every NVMe controller but the boot one */
	int count;                        /* PCI functions named (0 with all, or for none) */
	uint64_t bdf[NVME_MAX_CTRLS];     /* CFG_BDF() packing (efi/config/bdf.h) */
};

/* `nvme` in v[0..n): none, all, or "BDF[,BDF...]" (no function twice). 0, or -1 with msg. */
int nvme_parse_ctrls(const char *v, size_t n, struct nvme_ctrl_list *l, char *msg, size_t msgsz);
/* `nvme_bs`: 1..NVME_LIST_MAX sizes, each a multiple of 512 in 512..1M, no size twice. */
int nvme_parse_bs(const char *v, size_t n, uint32_t *bs, int *count, char *msg, size_t msgsz);
/* `nvme_iodepth`: 1..NVME_LIST_MAX depths, each 1..65535, no depth twice. */
int nvme_parse_iodepth(const char *v, size_t n, uint32_t *depth, int *count, char *msg, size_t msgsz);

/* The same, as config shape checks (efi/config/config_value.h cfg_key.check). */
int nvme_ctrls_check(const char *v, size_t n, char *msg, size_t msgsz);
int nvme_bs_check(const char *v, size_t n, char *msg, size_t msgsz);
int nvme_iodepth_check(const char *v, size_t n, char *msg, size_t msgsz);

#endif
