/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure.h"
#include "efi/report.h"
#include "arch/arch.h"
#include "pmu/metrics.h"

#define PAGE_BYTES 4096u
#define FILL_PATTERN 0x9E3779B97F4A7C15ull  /* any non-repeating 64-bit pattern */

static void *alloc_bytes(uint64_t bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	if (BS->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(bytes), &a) != EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)a;
}

static void free_bytes(void *p, uint64_t bytes)
{
	if (p)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(bytes));
}

static void counters_json(struct json *j, const struct core_set *s)
{
	json_arr(j, "counters");
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		json_obj(j, NULL);
		json_str(j, "event", c->event);
		json_str(j, "unit", c->unit);
		json_str(j, "state", ctr_state_name(c->state));
		if (c->state == CTR_COUNTED || c->state == CTR_NOT_ADVANCING) {
			json_u64(j, "before", c->before);
			json_u64(j, "after", c->after);
		}
		if (c->state == CTR_COUNTED)
			json_u64(j, "delta", c->delta);
		if (c->why[0])
			json_str(j, "why", c->why);
		json_close(j);
	}
	json_close(j);
}

static void counters_text(const struct core_set *s)
{
	for (int i = 0; i < s->n; i++) {
		const struct core_counter *c = &s->c[i];
		if (c->state == CTR_COUNTED)
			rep_line("            %-26s %llu %s", c->event, (unsigned long long)c->delta, c->unit);
		else
			rep_line("            %-26s %s%s%s", c->event, ctr_state_name(c->state), c->why[0] ? ": " : "", c->why);
	}
}

/* One quiesced window: counters on, copy, counters off. Returns elapsed ticks. */
static uint64_t copy_window(const struct hw *hw, struct core_set *s, void *dst, const void *src, uint64_t bytes)
{
	uint64_t flags = arch_irq_disable();
	if (s->pmu)
		s->pmu->start(hw, s);
	uint64_t t0 = arch_timer_read();
	arch_copy(dst, src, bytes);
	uint64_t t1 = arch_timer_read();
	if (s->pmu)
		s->pmu->stop(hw, s);
	arch_irq_restore(flags);
	if (s->pmu)
		s->pmu->restore(hw, s);
	return t1 - t0;
}

int measure_copy(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	uint64_t size = cfg->copy_size;
	uint64_t *src = alloc_bytes(size), *dst = alloc_bytes(size);
	if (!src || !dst) {
		free_bytes(src, size);
		free_bytes(dst, size);
		rep_error("measurement.copy", "cannot allocate 2 x %llu bytes for the copy buffers (copy_size)",
			  (unsigned long long)size);
		return -1;
	}
	for (uint64_t i = 0; i < size / 8; i++) {
		src[i] = FILL_PATTERN * (i + 1);
		dst[i] = 0;
	}
	/* STREAM counts a copy as read + write: bytes moved = 2 x buffer (anchors.md, STREAM). */
	uint64_t moved = 2 * size, best_ns = ~0ull, total_ns = 0;
	struct json *j = rep_begin("measurement");
	json_str(j, "kernel", "copy");
	json_str(j, "cpu", "boot");
	json_str(j, "window", "interrupts masked");
	json_u64(j, "buffer_bytes", size);
	json_u64(j, "bytes_moved_per_pass", moved);
	json_u64(j, "timer_hz", p->timer_hz);
	json_arr(j, "passes");
	rep_line("measure:    copy %llu bytes, %u passes, interrupts masked, boot CPU", (unsigned long long)size,
		 cfg->copy_passes);
	for (uint32_t pass = 0; pass < cfg->copy_passes; pass++) {
		struct core_set s = p->core;
		uint64_t ticks = copy_window(hw, &s, dst, src, size);
		uint64_t ns = metric_ticks_to_ns(ticks, p->timer_hz);
		uint64_t gbps = metric_gbps_milli(moved, ns);
		char rate[32];
		fmt_milli(rate, sizeof(rate), gbps);
		json_obj(j, NULL);
		json_u64(j, "pass", pass);
		json_u64(j, "ticks", ticks);
		json_u64(j, "ns", ns);
		json_milli(j, "gbps", gbps);
		counters_json(j, &s);
		json_close(j);
		rep_line("  pass %u:   %llu ns, %s GB/s", pass, (unsigned long long)ns, rate);
		counters_text(&s);
		if (ns < best_ns)
			best_ns = ns;
		total_ns += ns;
	}
	json_close(j);
	int bad = memcmp(src, dst, size) != 0;
	json_u64(j, "best_ns", best_ns);
	json_milli(j, "best_gbps", metric_gbps_milli(moved, best_ns));
	json_milli(j, "mean_gbps", metric_gbps_milli(moved * cfg->copy_passes, total_ns));
	json_bool(j, "verified", !bad);
	rep_end();
	char rate[32];
	fmt_milli(rate, sizeof(rate), metric_gbps_milli(moved, best_ns));
	rep_line("  best:     %s GB/s (bytes moved = 2 x buffer, STREAM convention)", rate);
	free_bytes(src, size);
	free_bytes(dst, size);
	if (bad) {
		rep_error("measurement.copy", "destination differs from source after the copy kernel");
		return -1;
	}
	return 0;
}

static void loop_json(struct json *j, const char *key, const struct known_loop_result *r)
{
	json_obj(j, key);
	json_u64(j, "counted", r->counted);
	json_i64(j, "extra", (int64_t)(r->counted - r->expected));
	json_close(j);
}

int measure_loop(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	struct known_loop_result r[2] = { 0 };  /* [0] interrupts masked, [1] unmasked */
	for (int k = 0; k < 2; k++) {
		struct core_set s = p->core;
		if (s.pmu && s.pmu->start(hw, &s) != HW_OK) {
			fmt_snprintf(r[k].why, sizeof(r[k].why), "core counters could not be started");
			s.pmu->restore(hw, &s);
			continue;
		}
		arch_known_loop(hw, &s, cfg->loop_iterations, k == 0, &r[k]);
		if (s.pmu) {
			s.pmu->stop(hw, &s);
			s.pmu->restore(hw, &s);
		}
	}
	struct json *j = rep_begin("loop");
	json_str(j, "counter", "instructions retired");
	json_u64(j, "iterations", cfg->loop_iterations);
	json_bool(j, "valid", r[0].valid && r[1].valid);
	if (r[0].valid) {
		json_u64(j, "expected", r[0].expected);
		loop_json(j, "masked", &r[0]);
		if (r[1].valid)
			loop_json(j, "unmasked", &r[1]);
		rep_line("loop:       %llu iterations: expected %llu instructions, counted %llu with interrupts masked "
			 "(%lld extra), %llu unmasked (%lld extra)",
			 (unsigned long long)cfg->loop_iterations, (unsigned long long)r[0].expected,
			 (unsigned long long)r[0].counted, (long long)(r[0].counted - r[0].expected),
			 (unsigned long long)r[1].counted, (long long)(r[1].counted - r[1].expected));
	} else {
		json_str(j, "why", r[0].why);
		rep_line("loop:       not run: %s", r[0].why);
	}
	rep_end();
	return 0;
}
