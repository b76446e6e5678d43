/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * once_book: the bookkeeping of rep_once() (efi/out/once.h), pure so the host tests run it.
 *
 *   once_note(b, key, text)  1 when key is new (text kept: its indent dropped, runs of blanks
 *                            as one, cut to ONCE_TEXT - 1 bytes), 0 when key was met before
 *                            (counted); 1 also when the book is full (ONCE_KEYS keys), so a
 *                            line beyond them is printed every time and nothing is lost.
 * Keys compare by their 64-bit FNV-1a hash (a collision would fold two different lines: at
 * ONCE_KEYS keys, about 2^-55).
 */
#ifndef EFIPERF_ONCE_BOOK_H
#define EFIPERF_ONCE_BOOK_H

#define ONCE_KEYS 24
#define ONCE_TEXT 120

struct once_book {
	struct once_key {
		unsigned long long hash;   /* FNV-1a of the key */
		char text[ONCE_TEXT];
		unsigned count;   /* times noted, the first included */
	} k[ONCE_KEYS];
	int n;
};

int once_note(struct once_book *b, const char *key, const char *text);

#endif
