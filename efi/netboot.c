/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * netboot: the configuration of a machine that booted efiperf over PXE (efi/netboot.h).
 */
#include <efi.h>
#include <efilib.h>
#include "arch/lib/fmt.h"
#include "efi/netboot.h"

#define TFTP_PATH_LEN 128
#define TFTP_ERROR_FILE_NOT_FOUND 1   /* RFC 1350 section 5, error code 1 */

int netboot_open(EFI_HANDLE image, struct netboot *nb, const char **why)
{
	EFI_LOADED_IMAGE *li;
	EFI_PXE_BASE_CODE *pxe;
	if (BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li) != EFI_SUCCESS) {
		*why = "no EFI_LOADED_IMAGE_PROTOCOL on the image";
		return -1;
	}
	if (BS->HandleProtocol(li->DeviceHandle, &PxeBaseCodeProtocol, (VOID **)&pxe) != EFI_SUCCESS) {
		*why = "not loaded over PXE";
		return -1;
	}
	EFI_PXE_BASE_CODE_MODE *m = pxe->Mode;
	if (!m || !m->Started) {
		*why = "the PXE Base Code protocol is not started";
		return -1;
	}
	if (m->UsingIpv6) {
		*why = "PXE over IPv6: efiperf reads its configuration over IPv4 only";
		return -1;
	}
	const UINT8 *si = NULL;
	if (m->ProxyOfferReceived && (m->ProxyOffer.Dhcpv4.BootpSiAddr[0] | m->ProxyOffer.Dhcpv4.BootpSiAddr[1] |
				      m->ProxyOffer.Dhcpv4.BootpSiAddr[2] | m->ProxyOffer.Dhcpv4.BootpSiAddr[3]))
		si = m->ProxyOffer.Dhcpv4.BootpSiAddr;   /* a proxy DHCP server names the boot server */
	else if (m->DhcpAckReceived)
		si = m->DhcpAck.Dhcpv4.BootpSiAddr;
	if (!si || !(si[0] | si[1] | si[2] | si[3])) {
		*why = "the DHCP acknowledgement names no boot server (siaddr 0.0.0.0)";
		return -1;
	}
	nb->pxe = pxe;
	nb->server = (EFI_IP_ADDRESS){ 0 };
	for (int i = 0; i < 4; i++)
		nb->server.v4.Addr[i] = si[i];
	fmt_snprintf(nb->server_text, sizeof(nb->server_text), "%u.%u.%u.%u", si[0], si[1], si[2], si[3]);
	return 0;
}

/* A TFTP error that says the file does not exist: code 1 (RFC 1350 section 5), or code 0 "not
 * defined" whose text says "not found", which is how dnsmasq answers a missing file. */
static int tftp_not_found(const EFI_PXE_BASE_CODE_TFTP_ERROR *e)
{
	if (e->ErrorCode == TFTP_ERROR_FILE_NOT_FOUND)
		return 1;
	if (e->ErrorCode != 0)
		return 0;
	static const char nf[] = "not found";
	for (size_t i = 0; i + sizeof(nf) - 1 <= sizeof(e->ErrorString) && e->ErrorString[i]; i++) {
		size_t k = 0;
		while (k < sizeof(nf) - 1 && e->ErrorString[i + k] == (CHAR8)nf[k])
			k++;
		if (k == sizeof(nf) - 1)
			return 1;
	}
	return 0;
}

/* "\efiperf\X.cfg" -> "efiperf/X.cfg". Returns 0, or -1 when it does not fit. */
static int tftp_path(const char *vol_path, char *out, size_t n)
{
	size_t o = 0;
	while (*vol_path == '\\' || *vol_path == '/')
		vol_path++;
	for (; *vol_path; vol_path++) {
		if (o + 1 >= n)
			return -1;
		out[o++] = *vol_path == '\\' ? '/' : *vol_path;
	}
	out[o] = 0;
	return 0;
}

int netboot_read_file(struct netboot *nb, const char *vol_path, size_t max, char **buf, size_t *len,
		      char *url, size_t url_len, const char **why)
{
	static char tftp_why[160];
	char path[TFTP_PATH_LEN];
	if (tftp_path(vol_path, path, sizeof(path)) != 0) {
		*why = "path longer than 127 bytes";
		return -1;
	}
	fmt_snprintf(url, url_len, "tftp://%s/%s", nb->server_text, path);
	UINT64 size = 0;
	EFI_STATUS st = nb->pxe->Mtftp(nb->pxe, EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE, NULL, FALSE, &size, NULL,
				       &nb->server, (UINT8 *)path, NULL, FALSE);
	if (st == EFI_NOT_FOUND || (st == EFI_TFTP_ERROR && nb->pxe->Mode->TftpErrorReceived &&
				    tftp_not_found(&nb->pxe->Mode->TftpError)))
		return 1;
	if (st != EFI_SUCCESS) {
		if (st == EFI_TFTP_ERROR && nb->pxe->Mode->TftpErrorReceived) {
			/* the server's error text, NUL-terminated within its 127 bytes (UEFI 2.10 24.3) */
			fmt_snprintf(tftp_why, sizeof(tftp_why), "TFTP error %u from %s: %.100s",
				     (unsigned)nb->pxe->Mode->TftpError.ErrorCode, nb->server_text,
				     nb->pxe->Mode->TftpError.ErrorString);
			*why = tftp_why;
		} else {
			fmt_snprintf(tftp_why, sizeof(tftp_why), "TFTP from %s: EFI status 0x%lx", nb->server_text,
				     (unsigned long)st);
			*why = tftp_why;
		}
		return -1;
	}
	if (size > max) {
		*why = "larger than a configuration file may be";
		return -1;
	}
	char *b = AllocatePool((UINTN)size + 1);
	if (!b) {
		*why = "out of memory";
		return -1;
	}
	UINT64 got = size;
	st = nb->pxe->Mtftp(nb->pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, b, FALSE, &got, NULL, &nb->server,
			    (UINT8 *)path, NULL, FALSE);
	if (st != EFI_SUCCESS || got != size) {
		FreePool(b);
		fmt_snprintf(tftp_why, sizeof(tftp_why), "TFTP read from %s: EFI status 0x%lx, %lu of %lu bytes",
			     nb->server_text, (unsigned long)st, (unsigned long)got, (unsigned long)size);
		*why = tftp_why;
		return -1;
	}
	b[size] = 0;
	*buf = b;
	*len = (size_t)size;
	return 0;
}
