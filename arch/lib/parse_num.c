/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/lib/parse_num.h"

#define DEC 10u
#define HEX 16u

int num_parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	unsigned base = DEC;
	uint64_t v = 0;
	int big = 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = HEX;
		s += 2;
		n -= 2;
	}
	if (!n)
		return NUM_NOT_A_NUMBER;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a') + DEC :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A') + DEC : HEX;
		if (d >= base)
			return NUM_NOT_A_NUMBER;
		if (big || max < d || v > (max - d) / base)
			big = 1;   /* keep reading: a later bad character makes it not a number */
		else
			v = v * base + d;
	}
	if (big)
		return NUM_TOO_LARGE;
	*out = v;
	return 0;
}
