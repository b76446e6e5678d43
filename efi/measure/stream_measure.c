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
#include "efi/measure/tune_run.h"
#include "efi/out/tune_json.h"
#include "efi/measure/vec_run.h"
#include "pmu/metrics.h"
#include "efi/measure/knees.h"
#include "efi/measure/ldsrc_run.h"
#include "efi/out/pmu_json.h"
#include "efi/measure/health_window.h"
#include "efi/out/health_json.h"

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

/* STREAM's arrays: a zeroed, b and c with values (any finite doubles). */
static void stream_arrays_init(void *const buf[3], uint64_t size)
{
	memset(buf[0], 0, size);
	for (uint64_t w = 0; w < size / 8; w++) {
		((double *)buf[1])[w] = (double)(w & 0xFF);
		((double *)buf[2])[w] = (double)((w >> 8) & 0xFF);
	}
}

/* The arrays initialised, and one pass of k over them. */
static void stream_fill(struct kernel_run *r, const struct kernel_desc *k, void *const buf[3], uint64_t size)
{
	stream_arrays_init(buf, size);
	*r = (struct kernel_run){ .k = k, .a = buf[0], .b = buf[1], .c = buf[2], .bytes = size,
				  .scalar = k->kind == KERNEL_TRIAD ? TRIAD_SCALAR : STORE_VALUE, .passes = 1,
				  .timer = arch_timer_read };
}

const char *stream_beside_prepare(struct stream_beside *s, enum kernel_kind kind, void *a, void *b, void *c,
				  uint64_t bytes, const volatile uint32_t *stop)
{
	const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, kind, arch_kernel_isa());
	if (!k)
		return NULL;
	void *const buf[3] = { a, b, c };
	*s = (struct stream_beside){ .stop = stop };
	stream_fill(&s->r, k, buf, bytes);
	return k->name;
}

uint64_t stream_beside_kernel(void *arg)
{
	struct stream_beside *s = arg;
	do {
		kernel_run(&s->r);
		if (s->r.status) {
			s->status = s->r.status;
			break;
		}
		s->passes++;
		s->app_bytes += s->r.app_bytes;
		s->ticks += s->r.ticks_total;
	} while (!*s->stop);
	return s->r.result;
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

/* STREAM's working state: pool memory for the run of measure_stream (about 110 KiB), not .bss. */
struct stream_work {
	struct window_cpu cpus[WINDOW_MAX_CPUS];
	struct kernel_run runs[WINDOW_MAX_CPUS];
	void *buf[WINDOW_MAX_CPUS][3];
	struct cpu_place place[WINDOW_MAX_CPUS];
	uint64_t cpu_mbps[WINDOW_MAX_CPUS];
	uint8_t outlier[WINDOW_MAX_CPUS];
	struct vec_run vec;
	struct stream_classes cl;
	struct kernel_tune tunes[MAX_CLASSES];
	const struct kernel_desc *use[WINDOW_MAX_CPUS];
};

static int stream_run(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg, struct stream_work *wk)
{
	struct window_cpu *cpus = wk->cpus;
	struct kernel_run *runs = wk->runs;
	void *(*buf)[3] = wk->buf;
	struct cpu_place *place = wk->place;
	uint64_t *cpu_mbps = wk->cpu_mbps;
	uint8_t *outlier = wk->outlier;
	struct vec_run *vec = &wk->vec;
	struct stream_classes *cl = &wk->cl;
	struct kernel_tune *tunes = wk->tunes;
	const struct kernel_desc **use = wk->use;
	uint64_t size = cfg->stream_size;
	int n = cpus_selected(cpus), rc = 0, vec_on = 0;
	uint32_t isa = arch_kernel_isa();
	for (int i = 0; i < n; i++)
		if (cpus_alloc_arrays(i, size, 3, buf[i], &place[i]) != 0) {
			rep_error("stream", "cannot allocate 3 x %llu bytes for each of %d CPUs (stream_size, cpus)",
				  (unsigned long long)size, n);
			rc = -1;
			goto out;
		}
	/* The wider vector state on every CPU of the run, for the masked windows below; given back
	 * at `out` (and by the cleanup registry on a fatal exception). */
	/* With the PSCI backend the other CPUs start from the boot CPU's system registers for every
	 * job (efi/mp.h): enabling and restoring the boot CPU is what gives them the state. */
	struct window_cpu boot = { .cpu = p->mp.bsp };
	if (p->mp.psci)
		vec_run_enable(hw, vec, &boot, 1);
	else
		vec_run_enable(hw, vec, cpus, n);
	vec_on = 1;
	isa = arch_kernel_isa();
	classes_find(hw, cpus, n, cl);
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
		 n, (unsigned long long)size, cfg->stream_passes, vec_isa_list(isa, isas, sizeof(isas)), cl->n, cfg->kernel,
		 cfg->kernel_budget);
	rep_line("            Function    Best Rate MB/s  Avg time     Min time     Max time   (kernel)");
	const unsigned nkinds = sizeof(stream_kinds) / sizeof(stream_kinds[0]);
	for (unsigned s = 0; s < nkinds; s++) {
		const struct kernel_desc *k = kernel_best(arch_kernels, arch_nkernels, stream_kinds[s],
							  tune_isa_only ? tune_isa_only & isa : isa);
		if (!k)
			continue;
		for (int i = 0; i < n; i++)
			stream_arrays_init(buf[i], size);
		/* the kernel of each class: pinned, tuned, or (budget 0) the widest default shape */
		const uint32_t streams = kernel_streams(stream_kinds[s]);
		const uint64_t probe = llc ? 2 * llc : (uint64_t)streams * size;
		const int tuning = !(pinned && pinned->kind == stream_kinds[s]) && cfg->kernel_budget > 0;
		for (int c = 0; tuning && c < cl->n; c++) {
			struct kernel_tune *t = &tunes[c];
			const int i = cl->first[c];
			const uint64_t spent = tuned_ticks;
			const uint64_t pb = probe < (uint64_t)streams * size ? probe : (uint64_t)streams * size;
			*t = (struct kernel_tune){ .table = arch_kernels, .n = arch_nkernels, .kind = stream_kinds[s],
						   .a = buf[i][0], .b = buf[i][1], .c = buf[i][2], .probe_bytes = pb,
						   .slices = pb / streams / TUNE_SLICES >= TUNE_SLICE_MIN ? TUNE_SLICES : 1,
						   .timer = arch_timer_read, .scalar = TRIAD_SCALAR,
						   .budget_ticks = spent < budget_ticks ? (budget_ticks - spent) / ((nkinds - s) * cl->n - c) : 0 };
			int wrc = tune_run_on(hw, cpus[i].cpu, t, tune_isa_only);
			tuned_ticks += t->spent_ticks;
			if (wrc != 0)
				rep_error("stream", "%s: the tuner found no variant on CPU %u (status %d): using %s",
					  kernel_kind_name(stream_kinds[s]), cpus[i].cpu, t->status, k->name);
		}
		for (int i = 0; i < n; i++) {
			const struct kernel_tune *t = &tunes[cl->of[i]];
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
		struct health_run *health = health_window_begin(hw, p, cfg, NULL, 0);
		spec.counters = health_counters(health);
		window_run(hw, &spec, &w);
		health_window_end(health);
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
		for (int c = 0; tuning && c < cl->n; c++)
			tune_json(j, NULL, &tunes[c], cl->id[c], cpus[cl->first[c]].cpu, p->timer_hz);
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
		health_json(j, health, "no memory for its state");
		dram_peak_json(j, p->smbios, mbps);
		health_window_free(health);
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
		int not_restored = vec_run_restore(vec);
		struct json *j = rep_begin("vector_state");
		json_str(j, "for", "stream");
		vec_run_json(j, "state", vec);
		rep_end();
		rep_line("            vector state: %d of %d CPUs enabled, %d restored and read back%s%s", vec->enabled, vec->n,
			 vec->restored, vec->plan.why ? "; " : "", vec->plan.why ? vec->plan.why : "");
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

int measure_stream(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg)
{
	if (!cfg->stream)
		return 0;
	struct stream_work *wk = measure_work(sizeof(*wk), "stream");
	if (!wk)
		return -1;
	int rc = stream_run(hw, p, cfg, wk);
	pool_free(wk);
	return rc;
}

static void bytes_text(char *out, size_t n, uint64_t b)
{
	if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		fmt_snprintf(out, n, "%llu MiB", (unsigned long long)(b >> 20));
	else
		fmt_snprintf(out, n, "%llu KiB", (unsigned long long)(b >> 10));
}

/* The curve's knees beside the cache levels the CPU reports (efi/measure/knees.h), in the open
 * latency record, and one console line per level: "L2: CPUID 2 MiB, knee at 2 MiB, 14.1 ns". */
static void knees_json(struct json *j, const struct platform *p, const uint64_t *sizes, const uint64_t *ps, int n)
{
	struct knee k[KNEES_MAX];
	struct knee_level lv[CPUINFO_MAX_CACHES];
	uint8_t taken[KNEES_MAX];
	uint64_t mem_ps;
	int dis;
	int nk = knees_find(sizes, ps, n, k, KNEES_MAX, &mem_ps);
	int nl = knees_match(&p->cpu, k, nk, n ? sizes[n - 1] : 0, lv, taken, &dis);
	json_bool(j, "emulated", p->cpu.virtual_machine);
	if (p->cpu.hypervisor[0])
		json_str(j, "hypervisor", p->cpu.hypervisor);
	json_str(j, "cache_source", p->cpu.cache_source);
	json_arr(j, "cpu_caches");
	for (int c = 0; c < p->cpu.ncaches; c++) {
		const struct cache_desc *d = &p->cpu.cache[c];
		json_obj(j, NULL);
		json_u64(j, "level", d->level);
		json_str(j, "cache_type", cache_type_name(d->type));
		json_u64(j, "bytes", d->bytes);
		json_u64(j, "ways", d->ways);
		json_u64(j, "line_bytes", d->line_bytes);
		if (d->sharing)
			json_u64(j, "sharing", d->sharing);
		json_close(j);
	}
	json_close(j);
	json_arr(j, "knees");
	for (int i = 0; i < nk; i++) {
		json_obj(j, NULL);
		json_u64(j, "bytes", k[i].bytes);
		json_milli(j, "ns_per_load", k[i].ps);
		json_bool(j, "reported_level", taken[i]);
		json_close(j);
	}
	json_close(j);
	if (mem_ps)
		json_milli(j, "memory_ns_per_load", mem_ps);
	else
		json_null(j, "memory_ns_per_load");
	json_arr(j, "levels");
	for (int i = 0; i < nl; i++) {
		char rb[24], kb[24] = "none", kns[32] = "-";
		bytes_text(rb, sizeof(rb), lv[i].reported_bytes);
		json_obj(j, NULL);
		json_u64(j, "level", lv[i].level);
		json_u64(j, "reported_bytes", lv[i].reported_bytes);
		if (lv[i].knee >= 0) {
			json_u64(j, "knee_bytes", k[lv[i].knee].bytes);
			json_milli(j, "knee_ns_per_load", k[lv[i].knee].ps);
			bytes_text(kb, sizeof(kb), k[lv[i].knee].bytes);
			fmt_milli(kns, sizeof(kns), k[lv[i].knee].ps);
		} else {
			json_null(j, "knee_bytes");
		}
		json_bool(j, "agrees", lv[i].agrees);
		if (lv[i].why)
			json_str(j, "why", lv[i].why);
		json_close(j);
		rep_line("            L%u: %s %s, knee at %s, %s ns%s%s", lv[i].level, p->cpu.cache_source, rb, kb, kns,
			 lv[i].why ? ": disagrees, " : "", lv[i].why ? lv[i].why : "");
	}
	json_close(j);
	for (int i = 0; i < nk; i++)
		if (!taken[i]) {
			char kb[24], kns[32];
			bytes_text(kb, sizeof(kb), k[i].bytes);
			fmt_milli(kns, sizeof(kns), k[i].ps);
			rep_line("            knee at %s, %s ns: no level the CPU reports (disagrees)", kb, kns);
		}
	json_u64(j, "disagreements", (uint64_t)dis);
	if (p->cpu.virtual_machine)
		rep_line("            emulated or virtual CPU%s%s: the knees say little about the real caches",
			 p->cpu.hypervisor[0] ? " " : "", p->cpu.hypervisor);
}

struct evidence_ctx { const struct hw *hw; struct ldsrc *ls; };

static void ev_start(void *ctx, int i)
{
	(void)i;
	struct evidence_ctx *c = ctx;
	ldsrc_start(c->hw, c->ls);
}

static void ev_stop(void *ctx, int i)
{
	(void)i;
	struct evidence_ctx *c = ctx;
	ldsrc_stop(c->hw, c->ls);
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
	/* evidence: the core counters of the level that served the loads, per point */
	char why[256] = "", events[LS_MAX_EVENTS * 64];
	struct ldsrc *ev = NULL;
	ldsrc_setup(hw, p, &ev, events, sizeof(events), why, sizeof(why));
	struct evidence_ctx evc = { hw, ev };
	struct window_counters wcnt = { NULL, NULL, &evc, ev_start, ev_stop };
	json_obj(j, "evidence");
	json_str(j, "events", events[0] ? events : NULL);
	json_str(j, "table", ev ? ldsrc_table(ev)->name : NULL);
	json_str(j, "state", ev ? "counting" : "absent");
	if (!ev)
		json_str(j, "why", why);
	json_close(j);
	json_arr(j, "points");
	rep_line("latency:    pointer chase, random cyclic permutation of %u-byte lines, boot CPU, masked", LINE_BYTES);
	int rc = 0;
	uint64_t curve_ps[MAX_SIZES];
	for (uint32_t i = 0; i < ns; i++) {
		kernel_chase_build(b, sizes[i], LINE_BYTES, CHASE_SEED + i);
		struct kernel_run r = { .k = chase, .a = NULL, .b = b, .c = NULL, .bytes = sizes[i], .passes = 2,
					.timer = arch_timer_read };
		struct window_cpu cpu = { .cpu = p->mp.bsp, .arg = &r };
		struct window_spec spec = { .kernel = run_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1,
					    .counters = ev ? &wcnt : NULL };
		struct window_result w;
		if (ev)
			ldsrc_prepare(ev);
		window_run(hw, &spec, &w);
		static struct ls_window lsw;
		if (ev)
			ldsrc_collect(hw, ev, p->mp.bsp, sizes[i] / LINE_BYTES * r.passes, &lsw);
		uint64_t lines = sizes[i] / LINE_BYTES;
		uint64_t ps = kernel_ps_per_load(r.ticks_min, p->timer_hz, lines);
		uint64_t tpl = kernel_ticks_per_load_milli(r.ticks_min, lines);
		int full = r.status == 0 && r.result == (uint64_t)(uintptr_t)b;  /* a whole cycle ends where it began */
		json_obj(j, NULL);
		json_u64(j, "bytes", sizes[i]);
		json_milli(j, "ns_per_load", ps);
		json_milli(j, "ticks_per_load", tpl);
		json_bool(j, "cycle_complete", full);
		measure_quiet_json(j, &w);
		if (ev) {
			json_u64(j, "loads_in_window", lines * r.passes);
			json_obj(j, "core_counters");
			if (ldsrc_corepmu(ev))
				corepmu_json_counters(j, ldsrc_corepmu(ev));
			else {
				json_str(j, "backend", ldsrc_core_set(ev)->pmu->name);
				core_set_json(j, ldsrc_core_set(ev));
			}
			json_close(j);
			load_source_json(j, &lsw);
			ldsrc_text(&lsw);
		}
		json_close(j);
		curve_ps[i] = ps;
		rep_line("            %10llu bytes  %8llu.%03llu ns/load", (unsigned long long)sizes[i],
			 (unsigned long long)(ps / 1000), (unsigned long long)(ps % 1000));
		if (!full)
			rc = -1;
	}
	json_close(j);
	knees_json(j, p, sizes, curve_ps, (int)ns);
	rep_end();
	pages_free(b, cfg->latency_max);
	ldsrc_free(ev);
	if (rc)
		rep_error("latency", "a pointer chase did not come back to its start (the permutation is not one cycle)");
	return rc;
}
