/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * once: a console line that would be the same under every window (a counter the CPU lacks, an
 * emulated link faster than its negotiated limit, a PMU that does not count under an emulator)
 * said once, plainly, instead of under every line. The JSONL records keep every value; only the
 * console text is folded.
 *
 *   rep_once(key, fmt, ...)  the first call with `key` prints the line (rep_line()); later calls
 *                            with the same key print nothing and are counted. key NULL: the
 *                            formatted text is its own key. Returns 1 when it printed.
 *   rep_once_summary()       after the run: for every key met more than once, one line saying
 *                            what was said once and how often it held.
 * At most ONCE_KEYS keys are kept; a key beyond them is printed every time (nothing is lost):
 * efi/out/once_book.h.
 */
#ifndef EFIPERF_ONCE_H
#define EFIPERF_ONCE_H

int rep_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_once_summary(void);

#endif
