/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/hw.h"

const char *hw_status_name(hw_status st)
{
	static const char *const names[] = {
		[HW_OK] = "ok",
		[HW_FAULT_GP] = "#GP",
		[HW_FAULT_UD] = "#UD",
		[HW_FAULT_SYNC] = "sync-exception",
		[HW_UNSUPPORTED] = "unsupported",
		[HW_BAD_ARG] = "bad-argument",
		[HW_ERROR] = "firmware-error",
		[HW_FAULT_PF] = "#PF",
		[HW_FAULT_ABORT] = "data-abort",
	};
	if ((unsigned)st < sizeof(names) / sizeof(names[0]) && names[st])
		return names[st];
	return "unknown-status";
}
