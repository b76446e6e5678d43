/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "efi/measure/stream_measure.h"
#include "efi/measure/measure.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "efi/measure/window.h"
#include "arch/arch.h"
#include "arch/kernel.h"
#include "arch/kernel_tune.h"
#include "efi/measure/vec_run.h"
#include "pmu/metrics.h"

#define TRIAD_SCALAR 3.0
#define STORE_VALUE 1.0
#define LINE_BYTES 64u
#define CHASE_SEED 0x5EEDull
#define MAX_SIZES 32

static const enum kernel_kind stream_kinds[] = {
	KERNEL_LOAD, KERNEL_STORE, KERNEL_NTSTORE, KERNEL_COPY, KERNEL_NTCOPY, KERNEL_TRIAD,
};

/* MB/s (10^6 bytes/s) = bytes per microsecond: bytes x 1000 / ns, 0 for no time. */
static uint64_t mbps_of(uint64_t bytes, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)bytes * 1000u / ns) : 0;
}

static uint64_t run_kernel(void *arg)
{
	struct kernel_run *r = arg;
	kernel_run(r);
	return r->result;
}

/* ---- the tuner, per CPU class -----------------------------------------------------------------
 * CPUs of one class (arch_cpu_class: hybrid core type, Arm MIDR part) share one choice, tuned
 * on the first selected CPU of the class inside an interrupt-masked window over that CPU's
 * own stream arrays. */
#define MAX_CLASSES 8
#define MS_PER_S 1000u
#define TUNE_SLICES 8                 /* the probe in slices taken in turn (arch/kernel_tune.h) ... */
#define TUNE_SLICE_MIN (64u * 1024u)  /* ... when each slice of an array is at least this long */

struct stream_classes {
	int n;
	uint32_t id[MAX_CLASSES];
	int first[MAX_CLASSES];          /* index into the selection */
	int of[WINDOW_MAX_CPUS];         /* each selected CPU's class index */
};

static void class_entry(void *arg)
{
	*(uint32_t *)arg = arch_cpu_class();
}

static void classes_find(const struct hw *hw, const struct window_cpu *cpus, int n, struct stream_classes *cl)
{
	cl->n = 0;
	for (int i = 0; i < n; i++) {
		uint32_t id = 0;
		hw_run_on_cpu(hw, cpus[i].cpu, class_entry, &id);
		int c = 0;
		while (c < cl->n && cl->id[c] != id)
			c++;
		if (c == cl->n && cl->n < MAX_CLASSES) {
			cl->id[cl->n] = id;
			cl->first[cl->n++] = i;
		}
		cl->of[i] = c < cl->n ? c : 0;
	}
}

static uint32_t tune_isa_only;   /* `kernel = <ISA>`: only that ISA's variants; 0: all */

static uint64_t run_tune(void *arg)
{
	struct kernel_tune *t = arg;
	t->isa = arch_kernel_isa();   /* asked on the CPU that tunes */
	if (tune_isa_only)
		t->isa &= tune_isa_only;
	kernel_tune(t);
	return (uint64_t)t->status;
}

static void tune_json(struct json *j, const struct kernel_tune *t, uint32_t class_id, uint32_t cpu, uint64_t hz)
{
	json_obj(j, NULL);
	json_hex(j, "class", class_id);
	json_u64(j, "cpu", cpu);
	json_str(j, "choice", t->choice >= 0 ? t->cand[t->choice].k->name : NULL);
	json_u64(j, "probe_bytes", t->probe_bytes);
	json_u64(j, "slices", t->slices > 1 ? t->slices : 1);
	json_u64(j, "budget_ns", metric_ticks_to_ns(t->budget_ticks, hz));
	json_u64(j, "spent_ns", metric_ticks_to_ns(t->spent_ticks, hz));
	json_arr(j, "candidates");
	for (uint32_t i = 0; i < t->ncand; i++) {
		const struct kernel_tune_cand *c = &t->cand[i];
		json_obj(j, NULL);
		json_str(j, "kernel", c->k->name);
		json_bool(j, "verified", c->verified);
		json_u64(j, "passes", c->passes);
		if (c->passes)
			json_u64(j, "mbps", kernel_tune_mbps(c, hz));
		else
			json_null(j, "mbps");
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->stream)
		return 0;
	static struct window_cpu cpus[WINDOW_MAX_CPUS];
	static struct kernel_run runs[WINDOW_MAX_CPUS];
	static void *buf[WINDOW_MAX_CPUS][3];
	static struct cpu_place place[WINDOW_MAX_CPUS];
	static uint64_t cpu_mbps[WINDOW_MAX_CPUS];
	static uint8_t outlier[WINDOW_MAX_CPUS];
	static struct vec_run vec;
	static struct stream_classes cl;
	static struct kernel_tune tunes[MAX_CLASSES];
	static const struct kernel_desc *use[WINDOW_MAX_CPUS];
	uint64_t size = cfg->stream_size;
	int n = cpus_selected(cpus), rc = 0, vec_on = 0;
	uint32_t isa = arch_kernel_isa();
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			struct cpu_place pl;
			buf[i][k] = cpus_alloc(i, size, &pl);
			place[i] = k ? (struct cpu_place){ pl.node, place[i].local && pl.local } : pl;
			if (!buf[i][k]) {
				rep_error("stream", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
					  (unsigned long long)size, n);
				rc = -1;
				goto out;
			}
		}
	/* The wider vector state on every CPU of the run, for the masked windows below; given back
	 * at `out` (and by the cleanup registry on a fatal exception). */
	vec_run_enable(hw, &vec, cpus, n);
	vec_on = 1;
	isa = arch_kernel_isa();
	classes_find(hw, cpus, n, &cl);
	char isas[64];
	const uint64_t llc = arch_llc_bytes(hw);
	tune_isa_only = kernel_isa_bit(cfg->kernel);
	const int auto_kernel = strcmp(cfg->kernel, "auto") == 0 || tune_isa_only;
	const struct kernel_desc *pinned = auto_kernel ? NULL : kernel_by_name(arch_kernels, arch_nkernels, cfg->kernel, isa);
	if ((!auto_kernel && !pinned) || (tune_isa_only && !(tune_isa_only & isa))) {
		rep_error("stream", "kernel = %s: this CPU does not offer its ISA (offered: %s); the tuner chooses among all",
			  cfg->kernel, vec_isa_list(isa, isas, sizeof(isas)));
		tune_isa_only = 0;
	}
	const uint64_t budget_ticks = (uint64_t)cfg->kernel_budget * p->timer_hz / MS_PER_S;
	uint64_t tuned_ticks = 0;   /* the budget counts the tuner's own time only */
	rep_line("stream:     %d CPU(s), %llu bytes per array, %u passes, ISA %s, %d CPU class(es), kernel = %s, budget %u ms",
		 n, (unsigned long long)size, cfg->stream_passes, vec_isa_list(isa, isas, sizeof(isas)), cl.n, cfg->kernel,
		 cfg->kernel_budget);
	rep_line("            Function    Best Rate MB/s  Avg time     Min time     Max time   (kernel)");
	const unsigned nkinds = sizeof(stream_kinds) / sizeof(stream_kinds[0]);
	for (unsigned s = 0; s < nkinds; s++) {
		const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, stream_kinds[s],
							  tune_isa_only ? tune_isa_only & isa : isa);
		if (!k)
			continue;
		for (int i = 0; i < n; i++) {
			memset(buf[i][0], 0, size);
			for (uint64_t w = 0; w < size / 8; w++) {
				((double *)buf[i][1])[w] = (double)(w & 0xFF);
				((double *)buf[i][2])[w] = (double)((w >> 8) & 0xFF);
			}
		}
		/* the kernel of each class: pinned, tuned, or (budget 0) the widest default shape */
		const uint32_t streams = kernel_streams(stream_kinds[s]);
		const uint64_t probe = llc ? 2 * llc : (uint64_t)streams * size;
		const int tuning = !(pinned && pinned->kind == stream_kinds[s]) && cfg->kernel_budget > 0;
		for (int c = 0; tuning && c < cl.n; c++) {
			struct kernel_tune *t = &tunes[c];
			const int i = cl.first[c];
			const uint64_t spent = tuned_ticks;
			const uint64_t pb = probe < (uint64_t)streams * size ? probe : (uint64_t)streams * size;
			*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = stream_kinds[s],
						   .a = buf[i][0], .b = buf[i][1], .c = buf[i][2], .probe_bytes = pb,
						   .slices = pb / streams / TUNE_SLICES >= TUNE_SLICE_MIN ? TUNE_SLICES : 1,
						   .timer = arch_timer_read, .scalar = TRIAD_SCALAR,
						   .budget_ticks = spent < budget_ticks ? (budget_ticks - spent) / ((nkinds - s) * cl.n - c) : 0 };
			struct window_cpu tcpu = { .cpu = cpus[i].cpu, .arg = t };
			struct window_spec tspec = { .kernel = run_tune, .cpus = &tcpu, .ncpus = 1, .mask_interrupts = 1 };
			struct window_result tw;
			int wrc = window_run(hw, &tspec, &tw);
			tuned_ticks += t->spent_ticks;
			if (wrc != 0 || t->status != 0)
				rep_error("stream", "%s: the tuner found no variant on CPU %u (status %d): using %s",
					  kernel_kind_name(stream_kinds[s]), cpus[i].cpu, t->status, k->name);
		}
		for (int i = 0; i < n; i++) {
			const struct kernel_tune *t = &tunes[cl.of[i]];
			use[i] = pinned && pinned->kind == stream_kinds[s] ? pinned
				 : tuning && t->status == 0 ? t->cand[t->choice].k : k;
		}
		for (int i = 0; i < n; i++) {
			for (uint64_t w = 0; w < KERNEL_TUNE_VERIFY_BYTES / 8; w++) {   /* the tuner's check wrote these */
				((double *)buf[i][1])[w] = (double)(w & 0xFF);
				((double *)buf[i][2])[w] = (double)((w >> 8) & 0xFF);
			}
			memset(buf[i][0], 0, size);
			runs[i] = (struct kernel_run){ .k = use[i], .a = buf[i][0], .b = buf[i][1], .c = buf[i][2], .bytes = size,
						       .scalar = stream_kinds[s] == KERNEL_TRIAD ? TRIAD_SCALAR : STORE_VALUE,
						       .passes = cfg->stream_passes, .timer = arch_timer_read };
			cpus[i].arg = &runs[i];
		}
		struct window_spec spec = { .kernel = run_kernel, .cpus = cpus, .ncpus = n, .mask_interrupts = 1 };
		struct window_result w, floor;
		window_noise_floor(hw, &spec, &floor);
		window_run(hw, &spec, &w);
		/* STREAM: rates from the best pass; all CPUs moved their bytes at once. */
		uint64_t app = 0, tmin = ~0ull, tmax = 0, tsum = 0;
		int bad = 0, ok = 0;
		for (int i = 0; i < n; i++) {
			const struct kernel_run *r = &runs[i];
			cpu_mbps[i] = 0;
			if (r->status) {
				bad = 1;
				continue;
			}
			ok++;
			app += r->app_bytes / cfg->stream_passes;
			cpu_mbps[i] = mbps_of(r->app_bytes / cfg->stream_passes, metric_ticks_to_ns(r->ticks_min, p->timer_hz));
			tmin = r->ticks_min < tmin ? r->ticks_min : tmin;
			tmax = r->ticks_max > tmax ? r->ticks_max : tmax;
			tsum += r->ticks_total;
		}
		if ((stream_kinds[s] == KERNEL_COPY || stream_kinds[s] == KERNEL_NTCOPY))
			for (int i = 0; i < n; i++)
				bad |= memcmp(buf[i][0], buf[i][1], size) != 0;
		uint64_t min_ns = metric_ticks_to_ns(tmin, p->timer_hz), max_ns = metric_ticks_to_ns(tmax, p->timer_hz);
		uint64_t avg_ns = ok ? metric_ticks_to_ns(tsum / ((uint64_t)ok * cfg->stream_passes), p->timer_hz) : 0;
		/* MB/s (10^6 bytes/s) = bytes per microsecond; tenths for STREAM's one decimal */
		uint64_t mbps10 = mbps_of(app * 10u, min_ns);
		uint64_t mbps = mbps10 / 10;
		uint64_t median = 0;
		int nout = metric_outliers(cpu_mbps, n, MEASURE_OUTLIER_PCT, outlier, &median);
		k = use[0];
		struct json *j = rep_begin("stream");
		json_str(j, "function", kernel_kind_name(stream_kinds[s]));
		json_str(j, "kernel", k->name);
		json_str(j, "kernel_isa", kernel_isa_name(k->isa));
		json_str(j, "kernel_from", pinned && pinned->kind == stream_kinds[s] ? "pinned" : tuning ? "tuner" : "default");
		json_obj(j, "tune");
		json_u64(j, "budget_ms", cfg->kernel_budget);
		if (llc)
			json_u64(j, "llc_bytes", llc);
		else
			json_null(j, "llc_bytes");
		json_bool(j, "probe_above_llc", llc && tunes[0].probe_bytes > llc);
		json_arr(j, "classes");
		for (int c = 0; tuning && c < cl.n; c++)
			tune_json(j, &tunes[c], cl.id[c], cpus[cl.first[c]].cpu, p->timer_hz);
		json_close(j);
		json_close(j);
		json_u64(j, "cpus", (uint64_t)n);
		json_u64(j, "array_bytes", size);
		json_u64(j, "app_bytes_per_pass", app);
		json_u64(j, "passes", cfg->stream_passes);
		json_u64(j, "best_rate_mbps", mbps);
		json_u64(j, "avg_ns", avg_ns);
		json_u64(j, "min_ns", min_ns);
		json_u64(j, "max_ns", max_ns);
		measure_quiet_json(j, &w);
		measure_window_json(j, "noise_floor", &floor, p->timer_hz);
		json_arr(j, "per_cpu");
		for (int i = 0; i < n; i++) {
			json_obj(j, NULL);
			json_u64(j, "cpu", cpus[i].cpu);
			json_u64(j, "best_rate_mbps", runs[i].status ? 0 : cpu_mbps[i]);
			json_str(j, "kernel", use[i]->name);
			json_bool(j, "outlier", outlier[i]);
			measure_place_json(j, &place[i], buf[i][0]);
			json_close(j);
		}
		json_close(j);
		json_u64(j, "median_cpu_mbps", median);
		json_u64(j, "outliers", (uint64_t)nout);
		json_bool(j, "verified", !bad);
		rep_end();
		rep_line("            %-10s %12llu.%llu %10llu ns %10llu ns %10llu ns  (%s)", kernel_kind_name(stream_kinds[s]),
			 (unsigned long long)mbps, (unsigned long long)(mbps10 % 10), (unsigned long long)avg_ns,
			 (unsigned long long)min_ns,
			 (unsigned long long)max_ns, k->name);
		if (bad) {
			rep_error("stream", "%s: a CPU did not run it or its result is wrong", k->name);
			rc = -1;
		}
	}
out:
	if (vec_on) {
		int not_restored = vec_run_restore(&vec);
		struct json *j = rep_begin("vector_state");
		json_str(j, "for", "stream");
		vec_run_json(j, "state", &vec);
		rep_end();
		rep_line("            vector state: %d of %d CPUs enabled, %d restored and read back%s%s", vec.enabled, vec.n,
			 vec.restored, vec.plan.why ? "; " : "", vec.plan.why ? vec.plan.why : "");
		if (not_restored) {
			rep_error("stream", "vector state not restored on %d CPU(s): see the vector_state record", not_restored);
			rc = -1;
		}
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			pages_free(buf[i][k], size);
			buf[i][k] = NULL;
		}
	return rc;
}

int measure_latency(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->latency)
		return 0;
	uint64_t sizes[MAX_SIZES];
	uint32_t ns = kernel_chase_sizes(cfg->latency_max, sizes, MAX_SIZES);
	void *b = pages_alloc(cfg->latency_max);
	if (!b || !ns) {
		rep_error("latency", "cannot allocate %llu bytes (latency_max)", (unsigned long long)cfg->latency_max);
		return -1;
	}
	const struct kernel_desc *chase = kernel_best(arch_kernels, arch_nkernels, KERNEL_CHASE, arch_kernel_isa());
	if (!chase)
		chase = &kernel_ref_set[KERNEL_CHASE];
	struct json *j = rep_begin("latency");
	json_str(j, "kernel", chase->name);
	json_u64(j, "line_bytes", LINE_BYTES);
	struct window_cpu fcpu = { .cpu = p->mp.bsp };
	struct window_spec fspec = { .kernel = NULL, .cpus = &fcpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result floor;
	window_noise_floor(hw, &fspec, &floor);
	measure_window_json(j, "noise_floor", &floor, p->timer_hz);
	json_arr(j, "points");
	rep_line("latency:    pointer chase, random cyclic permutation of %u-byte lines, boot CPU, masked", LINE_BYTES);
	int rc = 0;
	for (uint32_t i = 0; i < ns; i++) {
		kernel_chase_build(b, sizes[i], LINE_BYTES, CHASE_SEED + i);
		struct kernel_run r = { .k = chase, .a = NULL, .b = b, .c = NULL, .bytes = sizes[i], .passes = 2,
					.timer = arch_timer_read };
		struct window_cpu cpu = { .cpu = p->mp.bsp, .arg = &r };
		struct window_spec spec = { .kernel = run_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
		struct window_result w;
		window_run(hw, &spec, &w);
		uint64_t lines = sizes[i] / LINE_BYTES;
		uint64_t ps = kernel_ps_per_load(r.ticks_min, p->timer_hz, lines);
		uint64_t tpl = kernel_ticks_per_load_milli(r.ticks_min, lines);
		int full = r.status == 0 && r.result == (uint64_t)(uintptr_t)b;  /* a whole cycle ends where it began */
		json_obj(j, NULL);
		json_u64(j, "bytes", sizes[i]);
		json_milli(j, "ns_per_load", ps);
		json_milli(j, "ticks_per_load", tpl);
		json_bool(j, "cycle_complete", full);
		json_close(j);
		rep_line("            %10llu bytes  %8llu.%03llu ns/load", (unsigned long long)sizes[i],
			 (unsigned long long)(ps / 1000), (unsigned long long)(ps % 1000));
		if (!full)
			rc = -1;
	}
	json_close(j);
	rep_end();
	pages_free(b, cfg->latency_max);
	if (rc)
		rep_error("latency", "a pointer chase did not come back to its start (the permutation is not one cycle)");
	return rc;
}
