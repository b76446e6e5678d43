/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/out/volume.h"
#include "arch/lib/fmt.h"

#define PATH_UNITS 260
#define MAX_UNIQUE_SUFFIX 999

static EFI_FILE_HANDLE root;

void ascii_to_ucs2(CHAR16 *dst, size_t dst_units, const char *src)
{
	size_t i = 0;
	for (; src[i] && i + 1 < dst_units; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	if (dst_units)
		dst[i] = 0;
}

void ucs2_to_ascii(char *dst, size_t dst_len, const CHAR16 *src, size_t src_units)
{
	size_t i = 0;
	for (; i < src_units && src[i] && i + 1 < dst_len; i++)
		dst[i] = src[i] < 0x80 ? (char)src[i] : '?';
	if (dst_len)
		dst[i] = 0;
}

static const char *efi_why(EFI_STATUS st)
{
	switch (st) {
	case EFI_WRITE_PROTECTED: return "write-protected";
	case EFI_VOLUME_FULL: return "volume full";
	case EFI_ACCESS_DENIED: return "access denied";
	case EFI_NOT_FOUND: return "not found";
	case EFI_MEDIA_CHANGED: return "media changed";
	case EFI_NO_MEDIA: return "no media";
	case EFI_DEVICE_ERROR: return "device error";
	case EFI_VOLUME_CORRUPTED: return "volume corrupted";
	case EFI_OUT_OF_RESOURCES: return "out of resources";
	default: return "file system error";
	}
}

int vol_open(EFI_HANDLE image, const char **why)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_IO_INTERFACE *fs;
	if (BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li) != EFI_SUCCESS) {
		*why = "no EFI_LOADED_IMAGE_PROTOCOL on the image";
		return -1;
	}
	if (BS->HandleProtocol(li->DeviceHandle, &FileSystemProtocol, (VOID **)&fs) != EFI_SUCCESS) {
		*why = "the boot device has no FAT file system";
		return -1;
	}
	EFI_STATUS st = fs->OpenVolume(fs, &root);
	if (st != EFI_SUCCESS) {
		root = NULL;
		*why = efi_why(st);
		return -1;
	}
	return 0;
}

static EFI_STATUS open_path(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *f)
{
	CHAR16 p[PATH_UNITS];
	if (!root)
		return EFI_NOT_READY;
	ascii_to_ucs2(p, PATH_UNITS, path);
	return root->Open(root, f, p, mode, attr);
}

int vol_read_file(const char *path, char **buf, size_t *len, const char **why)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS st = open_path(path, EFI_FILE_MODE_READ, 0, &f);
	if (st == EFI_NOT_FOUND)
		return 1;
	if (st != EFI_SUCCESS) {
		*why = efi_why(st);
		return -1;
	}
	EFI_FILE_INFO *info = LibFileInfo(f);
	if (!info) {
		f->Close(f);
		*why = "cannot read file size";
		return -1;
	}
	UINTN size = info->FileSize;
	FreePool(info);
	char *b = AllocatePool(size + 1);
	if (!b) {
		f->Close(f);
		*why = "out of memory";
		return -1;
	}
	st = f->Read(f, &size, b);
	f->Close(f);
	if (st != EFI_SUCCESS) {
		FreePool(b);
		*why = efi_why(st);
		return -1;
	}
	b[size] = 0;
	*buf = b;
	*len = size;
	return 0;
}

int vol_mkdir_p(const char *dir, const char **why)
{
	char part[PATH_UNITS];
	size_t n = 0;
	for (size_t i = 0;; i++) {
		char c = dir[i];
		if ((c == '\\' || c == 0) && n > 0) {
			part[n] = 0;
			EFI_FILE_HANDLE f;
			EFI_STATUS st = open_path(part, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
						  EFI_FILE_DIRECTORY, &f);
			if (st != EFI_SUCCESS) {
				/* A read-only volume refuses the create even for an existing dir. */
				if (open_path(part, EFI_FILE_MODE_READ, 0, &f) != EFI_SUCCESS || st == EFI_WRITE_PROTECTED) {
					*why = efi_why(st);
					return -1;
				}
			}
			f->Close(f);
		}
		if (!c)
			return 0;
		if (n + 1 < sizeof(part))
			part[n++] = c;
	}
}

static int exists(const char *path)
{
	EFI_FILE_HANDLE f;
	if (open_path(path, EFI_FILE_MODE_READ, 0, &f) != EFI_SUCCESS)
		return 0;
	f->Close(f);
	return 1;
}

int vol_create_unique(const char *dir, const char *base, const char *const ext[], int n,
		      EFI_FILE_HANDLE out[], char *stem, size_t stem_len, const char **why)
{
	char path[PATH_UNITS];
	for (int sfx = 0; sfx <= MAX_UNIQUE_SUFFIX; sfx++) {
		if (sfx)
			fmt_snprintf(stem, stem_len, "%s-%d", base, sfx);
		else
			fmt_snprintf(stem, stem_len, "%s", base);
		int taken = 0;
		for (int i = 0; i < n && !taken; i++) {
			fmt_snprintf(path, sizeof(path), "%s\\%s.%s", dir, stem, ext[i]);
			taken = exists(path);
		}
		if (taken)
			continue;
		for (int i = 0; i < n; i++) {
			fmt_snprintf(path, sizeof(path), "%s\\%s.%s", dir, stem, ext[i]);
			EFI_STATUS st = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
						  0, &out[i]);
			if (st != EFI_SUCCESS) {
				while (i-- > 0)
					out[i]->Close(out[i]);
				*why = efi_why(st);
				return -1;
			}
		}
		return 0;
	}
	*why = "more than 999 logs with the same name";
	return -1;
}

int vol_write_flush(EFI_FILE_HANDLE f, const void *data, size_t len, const char **why)
{
	UINTN n = len;
	EFI_STATUS st = f->Write(f, &n, (VOID *)data);
	if (st == EFI_SUCCESS && n != len)
		st = EFI_VOLUME_FULL;
	if (st == EFI_SUCCESS)
		st = f->Flush(f);
	if (st != EFI_SUCCESS) {
		*why = efi_why(st);
		return -1;
	}
	return 0;
}

void vol_close(EFI_FILE_HANDLE f)
{
	if (f)
		f->Close(f);
}

int vol_delete(const char *path, const char **why)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS st = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
	if (st == EFI_NOT_FOUND)
		return 1;
	if (st == EFI_SUCCESS)
		st = f->Delete(f);   /* closes the handle, also when it fails (UEFI 2.10 13.5) */
	if (st != EFI_SUCCESS) {
		*why = st == EFI_WARN_DELETE_FAILURE ? "delete failed" : efi_why(st);
		return -1;
	}
	return 0;
}

int vol_write_file(const char *path, const void *data, size_t len, const char **why)
{
	EFI_FILE_HANDLE f;
	if (vol_delete(path, why) < 0)
		return -1;
	EFI_STATUS st = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0, &f);
	if (st != EFI_SUCCESS) {
		*why = efi_why(st);
		return -1;
	}
	int r = vol_write_flush(f, data, len, why);
	f->Close(f);
	return r;
}
