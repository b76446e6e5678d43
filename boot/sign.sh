#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# sign.sh --key KEY --cert CERT IN.efi OUT.efi: an Authenticode signature for UEFI Secure Boot
# (Debian's sbsigntool), checked with sbverify against the same certificate before OUT is written.
# KEY is a PEM private key; an encrypted one is opened with the passphrase in SIGN_PASS (from the
# environment, never the command line), into a temporary file only this user can read, removed on
# every path. CERT is the PEM certificate the firmware trusts (in db, or through a shim's MOK).
set -euo pipefail
key= cert=
while [ $# -gt 2 ]; do
	case $1 in
	--key) key=$2; shift 2 ;;
	--cert) cert=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# != 2 ] || [ -z "$key" ] || [ -z "$cert" ]; then
	echo "usage: $0 --key KEY.pem --cert CERT.pem IN.efi OUT.efi   (SIGN_PASS=... for an encrypted key)" >&2; exit 2
fi
in=$1 out=$2
for f in "$key" "$cert" "$in"; do [ -r "$f" ] || { echo "sign.sh: cannot read '$f'" >&2; exit 2; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
if grep -q "ENCRYPTED" "$key"; then
	[ -n "${SIGN_PASS+set}" ] || { echo "sign.sh: '$key' is encrypted: set SIGN_PASS to its passphrase" >&2; exit 2; }
	(umask 077; openssl pkey -in "$key" -passin env:SIGN_PASS -out "$work/key.pem") ||
		{ echo "sign.sh: cannot open '$key' with SIGN_PASS" >&2; exit 2; }
	key=$work/key.pem
fi
sbsign --key "$key" --cert "$cert" --output "$work/signed.efi" "$in" >"$work/err" 2>&1 ||
	{ cat "$work/err" >&2; echo "sign.sh: sbsign failed" >&2; exit 1; }
# sbsign's notes (e.g. bytes of the file outside any PE section) stay visible.
grep -v "^Signing Unsigned original image" "$work/err" >&2 || true
sbverify --cert "$cert" "$work/signed.efi" >/dev/null || { echo "sign.sh: sbverify does not accept the signature" >&2; exit 1; }
mv "$work/signed.efi" "$out"
echo "signed $out ($(stat -c %s "$out") bytes; $(openssl x509 -in "$cert" -noout -subject))"
