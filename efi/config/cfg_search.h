/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cfg_search: which config file a machine uses. Pure. The candidates, first found wins:
 *   \efiperf\<serial>.cfg             the SMBIOS system serial (type 1), as it names the logs
 *   \efiperf\<baseboard product>.cfg  the SMBIOS baseboard product (type 2)
 *   \efiperf\efiperf.cfg              every other machine
 * A missing or placeholder serial ("noserial") or an empty product skips its candidate; a
 * product's characters outside [A-Za-z0-9 ._+()-] become '_' (FAT long names refuse
 * " * / : < > ? \ |), its blanks and dots at either end are dropped.
 */
#ifndef EFIPERF_CFG_SEARCH_H
#define EFIPERF_CFG_SEARCH_H

#include <stddef.h>

#define CFG_SEARCH_MAX 3
#define CFG_SEARCH_PATH_LEN 96

/* Fill paths[] in search order; returns how many (1..CFG_SEARCH_MAX). serial: the log serial
 * ("noserial" when there is none), product: the baseboard product (NULL or "" when none). */
int cfg_search_paths(const char *serial, const char *product, char paths[][CFG_SEARCH_PATH_LEN]);

#endif
