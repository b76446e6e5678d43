/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aml_dump: the AML reader (efi/fw/aml.c) over definition-block files, one JSON object per line,
 * for tests/tools/test_aml_real.py (which compares it with `iasl -d`). tests/unit.mk builds it
 * with the unit tests' AddressSanitizer / UndefinedBehaviorSanitizer flags, so a read past a
 * table or undefined behaviour on any table given ends it with a report and a non-zero status.
 *
 *   aml_dump TABLE...      tables read in order into one namespace (a DSDT first, then SSDTs),
 *                          table i numbered i
 *
 * Lines: {"dev": {"table", "path", "hid", "hid_odd", "uid" (integer, string or null), "crs",
 * "ranges": [[base, length]...], "ranges_dropped", "props": [[name, kind, value, str]...]}}
 * for every device kept, {"defect": "..."} for each defect, then {"summary": {"tables", "ndev",
 * "dev_dropped", "ndefects", "methods"}}. Exit status 0, or 2 when a file cannot be read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/aml_file.h"

/* s as a JSON string: printable ASCII as is, '"' and '\\' escaped, every other byte \u00XX. */
static void jstr(const char *s)
{
	putchar('"');
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c >= 0x20 && *c < 0x7F)
			putchar(*c);
		else
			printf("\\u%04x", *c);
	}
	putchar('"');
}

static uint8_t *slurp(const char *path, uint32_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	for (size_t r; b && (r = fread(b + n, 1, cap - n, f)) > 0;) {
		n += r;
		if (n == cap) {
			uint8_t *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	/* exactly the file's size, so that the sanitizer sees any read past the table */
	uint8_t *t = b ? malloc(n ? n : 1) : NULL;
	if (t)
		memcpy(t, b, n);
	free(b);
	*len = (uint32_t)n;
	return t;
}

int main(int argc, char **argv)
{
	static struct aml_info info;
	aml_host_reset(&info);
	for (int i = 1; i < argc; i++) {
		uint32_t len;
		uint8_t *t = slurp(argv[i], &len);
		if (!t) {
			fprintf(stderr, "aml_dump: cannot read %s\n", argv[i]);
			aml_info_free(&info);
			return 2;
		}
		aml_parse_table(t, len, (uint32_t)(i - 1), &info);
		free(t);
	}
	for (uint32_t i = 0; i < info.ndev; i++) {
		const struct aml_device *d = &info.dev[i];
		printf("{\"dev\": {\"table\": %u, \"path\": ", d->table_index);
		jstr(d->path);
		printf(", \"hid\": ");
		jstr(d->hid);
		printf(", \"hid_odd\": %u, \"uid\": ", d->hid_odd);
		if (!d->has_uid)
			printf("null");
		else if (d->uid_is_string)
			jstr(d->uid_str);
		else
			printf("%llu", (unsigned long long)d->uid);
		printf(", \"crs\": %u, \"ranges\": [", d->has_crs);
		for (uint32_t r = 0; r < d->nranges; r++)
			printf("%s[%llu, %llu]", r ? ", " : "", (unsigned long long)d->range[r].base,
			       (unsigned long long)d->range[r].length);
		printf("], \"ranges_dropped\": %u, \"props\": [", d->ranges_dropped);
		for (uint32_t k = 0; k < d->nprops; k++) {
			printf("%s[", k ? ", " : "");
			jstr(d->prop[k].name);
			printf(", %u, %llu, ", d->prop[k].kind, (unsigned long long)d->prop[k].value);
			jstr(d->prop[k].str);
			printf("]");
		}
		printf("]}}\n");
	}
	for (uint32_t i = 0; i < info.ndefects; i++) {
		printf("{\"defect\": ");
		jstr(info.defect[i]);
		printf("}\n");
	}
	printf("{\"summary\": {\"tables\": %u, \"ndev\": %u, \"dev_dropped\": %u, \"ndefects\": %u, \"methods\": %u}}\n",
	       info.ntables, info.ndev, info.dev_dropped, info.ndefects + info.defects_dropped, info.nmethod);
	aml_info_free(&info);
	return 0;
}
