/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * collector: every record of the run also goes to an efiperf-collector (boot/collector), when
 * the config sets `collector = http://A.B.C.D[:PORT]/`.
 *
 * The protocol is the collector's (boot/collector/ingest.py): POST PATHapi/v1/runs/RUN_ID/records
 * with `Authorization: Bearer TOKEN` and a body of JSON Lines {"seq":N,"record":{...}}, N counting
 * the run's records from 0 (the run record); the answer's "next_seq" says how far it has them, so
 * a retried batch is deduplicated there. RUN_ID is SERIAL-YYYYMMDDTHHMMSS-XXXX.
 *
 * Records are copied into a bounded pool buffer (COLL_QUEUE_BYTES) as they are written
 * (efi/out/report.h rep_set_sink) and sent, in order, only when no record is open (between
 * measurements: no window is ever open then) and at most once per COLL_BATCH_MS, or at the end.
 * A failed send (no connection, a timeout, an HTTP error) is said once on the console and
 * retried after 1, 2, 4, 8, 16, 16 ... s. A 401 (wrong token) is said once and streaming stops.
 * At the end the run waits at most `collector_wait` seconds for the rest, then says
 * "collector: N records not delivered" on the console and in the .txt log.
 *
 * Transport: HTTP/1.1 (RFC 9112), one request per connection, over the firmware's
 * EFI_TCP4_PROTOCOL (UEFI 2.10 section 28.1), a child of the EFI_TCP4_SERVICE_BINDING_PROTOCOL
 * of the device efiperf was loaded from, else of the first handle that has one. The station
 * address is the default one (UseDefaultAddress): after a PXE boot the one the PXE Base Code's
 * DHCP configured.
 */
#ifndef EFIPERF_COLLECTOR_H
#define EFIPERF_COLLECTOR_H

#include <efi.h>
#include <stdint.h>

/* Start streaming when url is an http URL (efi/config/url.h; "none" or "" does nothing).
 * serial names the run id. A setup failure is said on the console; the run goes on without. */
void collector_start(EFI_HANDLE image, const char *url, const char *token, uint32_t wait_s, const char *serial);

#endif
