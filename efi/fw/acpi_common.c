/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi_common: the defect helpers of the efi/fw/acpi*.c files (efi/fw/acpi_common.h). */
#include <stdarg.h>

#include "efi/fw/acpi.h"
#include "efi/fw/acpi_common.h"
#include "arch/lib/fmt.h"

void acpi_set_defect(char *defect, const char *fmt, ...)
{
	if (defect[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(defect, ACPI_DEFECT_LEN, fmt, ap);
	va_end(ap);
}

void acpi_json_defect(struct json *j, const char *defect)
{
	if (defect[0])
		json_str(j, "defect", defect);
	else
		json_null(j, "defect");
}
