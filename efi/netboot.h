/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Network boot: when efiperf was loaded over PXE, its configuration comes from the boot server.
 * The device efiperf was loaded from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle) then carries the
 * PXE Base Code protocol that loaded it (UEFI 2.10 section 24.3), already started, with the DHCP
 * acknowledgement in Mode->DhcpAck; Mtftp() reads a file from the TFTP server it names
 * (BOOTP siaddr, RFC 951). Paths on the server are the stick's paths with '/' for '\' and no
 * leading separator: "\efiperf\LAB1.cfg" is "efiperf/LAB1.cfg" under the TFTP root.
 */
#ifndef EFIPERF_NETBOOT_H
#define EFIPERF_NETBOOT_H

#include <efi.h>
#include <stddef.h>

struct netboot {
	EFI_PXE_BASE_CODE *pxe;
	EFI_IP_ADDRESS server;
	char server_text[16];   /* dotted quad */
};

/* Find the PXE Base Code protocol efiperf was loaded through. Returns 0 (nb filled), or -1 with
 * *why: not loaded over the network, PXE not started, no DHCP acknowledgement, IPv6 only. */
int netboot_open(EFI_HANDLE image, struct netboot *nb, const char **why);

/* Read the server's copy of the stick path `vol_path` ("\efiperf\X.cfg") into pool memory (*buf,
 * *len bytes, NUL-terminated; caller FreePool()s), at most `max` bytes. Writes the file's URL
 * ("tftp://SERVER/efiperf/X.cfg") to url. Returns 0, 1 when the server has no such file, -1 on
 * another error (*why: TFTP error text, too large, out of memory). */
int netboot_read_file(struct netboot *nb, const char *vol_path, size_t max, char **buf, size_t *len,
		      char *url, size_t url_len, const char **why);

#endif
