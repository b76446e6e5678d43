/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The FAT volume efiperf was loaded from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle ->
 * EFI_SIMPLE_FILE_SYSTEM_PROTOCOL): reading the config file, creating the log directory and
 * log files that never overwrite an existing one. Paths are ASCII with '\' separators.
 */
#ifndef EFIPERF_VOLUME_H
#define EFIPERF_VOLUME_H

#include <efi.h>
#include <stddef.h>

/* Open the root directory of the image's volume. Returns 0, or -1 with *why set. */
int vol_open(EFI_HANDLE image, const char **why);

/* Read a whole file into pool memory (*buf, *len bytes; caller FreePool()s). Returns 0,
 * 1 when the file does not exist, -1 on another error (*why set). */
int vol_read_file(const char *path, char **buf, size_t *len, const char **why);

/* Make every directory of `dir` (e.g. "\efiperf\logs"). Returns 0 or -1 (*why). */
int vol_mkdir_p(const char *dir, const char **why);

/* Create new, empty files dir\base<sfx>.<ext[i]> for i < n, where <sfx> is "", "-1", "-2" ...
 * the first suffix for which none of the n files exists yet (existing logs are never
 * overwritten). Writes the chosen stem ("base" or "base-2") to stem. Returns 0 or -1 (*why;
 * "write-protected" for a read-only volume). */
int vol_create_unique(const char *dir, const char *base, const char *const ext[], int n,
		      EFI_FILE_HANDLE out[], char *stem, size_t stem_len, const char **why);

/* Write len bytes and flush them to the medium. Returns 0, or -1 (*why: "volume full", ...). */
int vol_write_flush(EFI_FILE_HANDLE f, const void *data, size_t len, const char **why);

void vol_close(EFI_FILE_HANDLE f);

/* Replace the file at path with data[0..len) (its directory must exist), flushed to the medium.
 * Returns 0 or -1 (*why). */
int vol_write_file(const char *path, const void *data, size_t len, const char **why);

/* Delete the file at path. Returns 0, 1 when there is none, -1 (*why) when it cannot be. */
int vol_delete(const char *path, const char **why);

/* ASCII <-> UCS-2 helpers (non-ASCII code units become '?'). */
void ascii_to_ucs2(CHAR16 *dst, size_t dst_units, const char *src);
void ucs2_to_ascii(char *dst, size_t dst_len, const CHAR16 *src, size_t src_units);

#endif
