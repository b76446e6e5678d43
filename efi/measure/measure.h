/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The first measurement: a memory copy kernel (arch_copy) over copy_size bytes on the boot CPU,
 * copy_passes times, each pass in a quiesced window (interrupts masked) bracketed by the time
 * base and the core counters. Writes one `measurement` record.
 * Then the known instruction-count loop (arch_known_loop) with interrupts masked and unmasked:
 * one `loop` record.
 */
#ifndef EFIPERF_MEASURE_H
#define EFIPERF_MEASURE_H

#include "arch/hw.h"
#include "efi/config/config.h"
#include "efi/platform.h"

#include "efi/cpus.h"
#include "efi/out/jsonl.h"
#include "efi/measure/window.h"
#include "efi/measure/shape.h"


/* How quiet a window was, as members of the open JSON object: interrupts_masked, smi_delta
 * (a count, or why it is unknown). */
void measure_quiet_json(struct json *j, const struct window_result *w);
/* A window as an object named key: ticks, ns (at hz ticks per second) and its quietness. The
 * noise floor of every measurement is written with it. */
void measure_window_json(struct json *j, const char *key, const struct window_result *w, uint64_t hz);
/* Where a CPU's buffer lies: node (SRAT proximity domain or null), node_local, buffer address. */
void measure_place_json(struct json *j, const struct cpu_place *place, const void *buf);
/* When buf lies in a memory target (efi/pages.h: a committed CXL window), "cxl": {device,
 * window, window_base, offset (bytes from the window's base: the device's DPA with DPA skip 0)};
 * nothing otherwise. measure_place_json writes it too. */
void measure_target_json(struct json *j, const void *buf);
/* The CXL window set now (efi/pages.h pages_target_of), device NULL when none. */
void measure_cxl(struct mem_cxl *c);

/* `bytes` of zeroed pool memory for a measurement's working state (its per-CPU arrays and
 * matrices: not .bss, which gnu-efi keeps in the image). NULL after an error record under
 * `where` naming the size. Give it back with pool_free (efi/pages.h). */
void *measure_work(uint64_t bytes, const char *where);

/* The firmware's measure_ctx (efi/measure/shape.h): windows by window_run on MP services
 * CPUs, the UEFI pool, arch_timer_read at timer_hz. */
struct measure_ctx;
void measure_ctx_efi(struct measure_ctx *ctx, const struct hw *hw, uint64_t timer_hz);

/* measure_copy: the copy's request (the selected CPUs with their buffers in their nodes' memory,
 * copy_size, copy_passes), its core counters as an attachment (efi/measure/copy_counters.h),
 * copy_measure (efi/measure/copy_run.h) on the firmware's windows, then copy_record
 * (efi/out/copy_out.h). Returns 0, or -1 after reporting an error (allocation, a CPU that did
 * not run, wrong copy result). */
int measure_copy(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg);
int measure_loop(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg);

#endif
