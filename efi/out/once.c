// SPDX-License-Identifier: BSD-2-Clause
#include <efi.h>
#include <efilib.h>
#include <stdarg.h>
#include "efi/out/once.h"
#include "efi/out/once_book.h"
#include "efi/out/report.h"
#include "arch/lib/fmt.h"

static struct once_book *book;   /* pool on first use (.bss is stored in the image) */

int rep_once(const char *key, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!book)
		book = AllocateZeroPool(sizeof(*book));
	if (book && !once_note(book, key ? key : line, line))
		return 0;   /* without a book every line is shown */
	rep_line("%s", line);
	return 1;
}

void rep_once_summary(void)
{
	int head = 0;
	for (int i = 0; book && i < book->n; i++) {
		if (book->k[i].count < 2)
			continue;
		if (!head)
			rep_line("said once:  these held in every window; the console showed each the first time only (every "
				 "value is in the log). Under an emulator they are what it cannot show: counters that do not "
				 "count, links faster than their negotiated speed:");
		head = 1;
		rep_line("            %3ux  %s", book->k[i].count, book->k[i].text);
	}
}
