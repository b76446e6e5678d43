/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * efiperf entry point: one straight path
 *   config + shell args -> platform discovery -> quiesced measurement windows -> records -> exit.
 * Every exit path restores the PMU (each measurement restores its own registers), unregisters
 * the exception handlers, restores the C environment, closes the logs and honours `exit`.
 */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "arch/arch.h"
#include "arch/hw_trace.h"
#include "efi/config/config.h"
#include "efi/config/cfg_search.h"
#include "efi/discovery.h"
#include "efi/exceptions.h"
#include "efi/cleanup.h"
#include "efi/collector.h"
#include "efi/hw_efi.h"
#include "efi/netboot.h"
#include "efi/measure/measure.h"
#include "efi/measure/c2c.h"
#include "efi/measure/numa_matrix.h"
#include "efi/cxl_memory.h"
#include "efi/measure/cache_bw.h"
#include "efi/measure/loaded_latency.h"
#include "efi/cpus.h"
#include "efi/measure/mmio_measure.h"
#include "efi/measure/dma_engine.h"
#include "efi/measure/cha_run.h"
#include "efi/measure/uncore_run.h"
#include "efi/measure/stream_measure.h"
#include "efi/measure/blockio_measure.h"
#include "efi/measure/nvme_measure.h"
#include "efi/measure/dma_window.h"
#include "efi/measure/corepmu_run.h"
#include "efi/measure/run_plan.h"
#include "efi/measure/ddio_measure.h"
#include "efi/measure/dma_cpu.h"
#include "efi/measure/window.h"
#include "efi/platform.h"
#include "efi/pages.h"
#include "efi/out/report.h"
#include "efi/out/volume.h"
#include "efi/verdict/run_verdict.h"
#include "efi/verdict/run_state.h"
#include "pmu/cpu_tables.h"
#include "pmu/metrics.h"
#include "pmu/core/core_mux.h"

#ifndef EFIPERF_VERSION
#define EFIPERF_VERSION "unknown"
#endif

#define CFG_PATH "\\efiperf\\efiperf.cfg"   /* the last of the per-machine candidates (cfg_search.h) */
#define MAX_ARGS 64          /* the program's path and 63 settings; more are an error */
#define CMDLINE_BYTES 2048   /* characters of the command line, with its NUL; more are an error */
#define TRACE_ENTRIES 4096
#define HELP_BYTES 16384   /* --help: cfg_help of every key, from the pool */
#define SCHEMA_VERSION 1
#define CFG_NET_MAX_BYTES (256u << 10)   /* a config file from the boot server, at most */
#define NS_PER_MS 1000000u

/* The run's config, its errors, the platform and the firmware's tables: pool memory taken first
 * thing in efi_main (together about 45 KiB; gnu-efi keeps .bss in the image file). */
static struct efiperf_config *cfg;
static struct cfg_errors *cfg_errs;
static int want_help;
static char *cmdline = "";   /* pool (CMDLINE_BYTES) once there are load options */
static char cmdline_note[96];
static char cfg_paths[CFG_SEARCH_MAX][CFG_SEARCH_PATH_LEN];
static int cfg_npaths, cfg_used = -1;   /* candidates searched; the one read, -1 none */
static char cfg_url[160];               /* the boot server's copy read, when netbooted */
static char run_started[32] = "unknown";
static struct hw_trace tracer;
static uint64_t t_start;
static struct platform *plat;
static struct discovery *disc;

/* --- configuration: file, then arguments ----------------------------------------------- */

/* LoadOptions: the shell passes the command line as UCS-2 text (program name first); the boot
 * manager may pass nothing or binary data, which is reported and ignored. */
static int load_args(EFI_HANDLE image, char *argv[])
{
	EFI_LOADED_IMAGE *li;
	if (BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li) != EFI_SUCCESS || !li->LoadOptions ||
	    li->LoadOptionsSize < sizeof(CHAR16))
		return 0;
	const CHAR16 *w = li->LoadOptions;
	size_t units = li->LoadOptionsSize / sizeof(CHAR16);
	for (size_t i = 0; i < units && w[i]; i++)
		if (w[i] < 0x20 && w[i] != '\t') {
			fmt_snprintf(cmdline_note, sizeof(cmdline_note), "%u bytes of non-text load options ignored",
				     (unsigned)li->LoadOptionsSize);
			return 0;
		}
	/* cmdline keeps the line as given for the run record; the split works on a copy (the
	 * arguments point into it for the whole run). Both from the pool, not .bss. */
	char *line = pool_zalloc(CMDLINE_BYTES), *split = pool_zalloc(CMDLINE_BYTES);
	if (!line || !split) {
		pool_free(line);
		pool_free(split);
		fmt_snprintf(cmdline_note, sizeof(cmdline_note), "no pool memory for the load options: ignored");
		return 0;
	}
	size_t full = 0;
	while (full < units && w[full])
		full++;
	ucs2_to_ascii(line, CMDLINE_BYTES, w, units);
	memcpy(split, line, CMDLINE_BYTES);
	cmdline = line;
	return cfg_cmdline_args(split, full, argv, MAX_ARGS, 1, cfg_errs);   /* every limit: an error */
}

/* The first config file of this machine's candidates (serial, baseboard product, efiperf.cfg)
 * that exists, then the arguments. */
static void load_config(EFI_HANDLE image, int have_volume)
{
	cfg_defaults(cfg);
	cfg_npaths = cfg_search_paths(disc->serial, disc->smbios_status == 0 && disc->smbios.board.present ?
					  disc->smbios.board.product : NULL, cfg_paths);
	/* No FAT volume but loaded over PXE: the same candidates from the boot server (TFTP). */
	struct netboot net;
	const char *net_why = NULL;
	int have_net = !have_volume && netboot_open(image, &net, &net_why) == 0;
	for (int i = 0; (have_volume || have_net) && i < cfg_npaths && cfg_used < 0; i++) {
		char *text = NULL;
		size_t len = 0;
		const char *why = NULL;
		int r = have_volume ? vol_read_file(cfg_paths[i], &text, &len, &why) :
				      netboot_read_file(&net, cfg_paths[i], CFG_NET_MAX_BYTES, &text, &len, cfg_url,
							sizeof(cfg_url), &why);
		if (r == 0) {
			cfg_used = i;
			cfg_parse_text(cfg, text, len, have_volume ? cfg_paths[i] : cfg_url, cfg_errs);
			FreePool(text);
		} else if (r < 0) {
			struct cfg_error *e = &cfg_errs->e[cfg_errs->count < CFG_MAX_ERRORS ? cfg_errs->count : 0];
			fmt_snprintf(e->where, sizeof(e->where), "%s", have_volume ? cfg_paths[i] : cfg_url);
			fmt_snprintf(e->message, sizeof(e->message), "cannot read: %s", why);
			cfg_errs->count++;
			break;
		}
	}
	char *argv[MAX_ARGS];
	int argc = load_args(image, argv);
	cfg_parse_args(cfg, argc, argv, &want_help, cfg_errs);
}

/* --- records ---------------------------------------------------------------------------- */

static void run_record(void)
{
	struct json *j = rep_begin("run");
	json_u64(j, "schema", SCHEMA_VERSION);
	json_str(j, "tool", "efiperf");
	json_str(j, "version", EFIPERF_VERSION);
#if defined(EFIPERF_ARCH_x86_64)
	json_str(j, "arch", "x86_64");
#else
	json_str(j, "arch", "aarch64");
#endif
	EFI_TIME t;
	char *when = run_started;
	if (RT->GetTime(&t, NULL) == EFI_SUCCESS)
		fmt_snprintf(when, sizeof(run_started), "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day, t.Hour,
			     t.Minute, t.Second);
	json_str(j, "started", when);
	json_str(j, "log", rep_log_stem());
	json_str(j, "cmdline", cmdline);
	if (cmdline_note[0])
		json_str(j, "cmdline_note", cmdline_note);
	json_str(j, "config_file", cfg_used < 0 ? NULL : cfg_url[0] ? cfg_url : cfg_paths[cfg_used]);
	json_arr(j, "config_search");
	for (int i = 0; i < cfg_npaths; i++)
		json_str(j, NULL, cfg_paths[i]);
	json_close(j);
	json_obj(j, "config");
	cfg_to_json(cfg, j);
	json_close(j);
	rep_end();
}

static void trace_line(void *arg, const struct hw_trace_entry *e)
{
	(void)arg;
	struct json *j = rep_begin("hw");
	json_u64(j, "seq", e->seq);
	json_str(j, "op", hw_trace_op_name(e->op));
	json_hex(j, "reg", e->reg);
	if (e->sub)
		json_hex(j, "sub", e->sub);
	if (e->addr)
		json_hex(j, "addr", e->addr);
	json_hex(j, "val", e->val);
	if (e->op == HWT_CPUID)
		json_hex(j, "val2", e->val2);
	json_str(j, "status", hw_status_name((hw_status)e->status));
	rep_end();
}

/* Write the recorder's entries (between phases, never inside a measurement window). */
static void trace_drain(void)
{
	if (cfg->trace == CFG_TRACE_HW)
		hw_trace_drain(&tracer, trace_line, NULL);
}

static void end_record(void)
{
	trace_drain();
	run_verdict_record();   /* the verdict comes before the end */
	struct json *j = rep_begin("end");
	json_str(j, "status", rep_failed() ? "error" : "ok");
	if (plat && plat->timer_hz)
		json_u64(j, "elapsed_ms", metric_ticks_to_ns(arch_timer_read() - t_start, plat->timer_hz) / NS_PER_MS);
	json_u64(j, "faults_recovered", exceptions_recovered());
	if (cfg->trace == CFG_TRACE_HW)
		json_u64(j, "trace_dropped", tracer.dropped);
	json_str(j, "exit", cfg_exit_name(cfg->exit));
	rep_end();
	run_state_end();   /* the log has its end: no marker */
	rep_line("efiperf: run %s; log %s", rep_failed() ? "FAILED" : "ok", rep_log_stem() ? rep_log_stem() : "(console only)");
	run_verdict_banner(disc->serial);   /* its last line: EFIPERF RESULT: ... */
}

static void leave(void)
{
	exceptions_unregister();
	rep_close();
	arch_env_leave();
}

static EFI_HANDLE self;

/* A fault that was not at a fault-safe access (a bug): log it, end the run, honour `exit`
 * (`return` cannot return from an exception: the CPU spins with the message shown). */
static void on_fatal(const char *vector, uintptr_t ip)
{
	rep_error("exception", "unexpected %s at IP 0x%lx (efiperf.so+0x%lx): not a fault-safe access",
		  vector, (unsigned long)ip, (unsigned long)exceptions_image_offset(ip));
	cleanup_run_all();   /* e.g. NVMe controllers go back to the firmware driver */
	end_record();
	leave();
	if (cfg->exit != CFG_EXIT_RETURN)
		RT->ResetSystem(cfg->exit == CFG_EXIT_REBOOT ? EfiResetCold : EfiResetShutdown, EFI_ABORTED, 0, NULL);
}

static EFI_STATUS finish(void)
{
	EFI_STATUS st = rep_failed() ? EFI_ABORTED : EFI_SUCCESS;
	end_record();
	leave();
	switch (cfg->exit) {
	case CFG_EXIT_SHUTDOWN:
		RT->ResetSystem(EfiResetShutdown, st, 0, NULL);
		break;
	case CFG_EXIT_REBOOT:
		RT->ResetSystem(EfiResetCold, st, 0, NULL);
		break;
	case CFG_EXIT_RETURN:
		break;
	}
	return st;
}

/* The run after the plan: a table of measurements (efi/measure/measurement.h), each traffic
 * sources + counter sets + a window -> a result struct -> its record, in this order. A row
 * runs when enabled (no enabled: its function returns at once when its keys are off); a
 * failure is an error record and the next measurement still runs; `trace = hw` records are
 * written between them, never inside a window. */
#define RUN_STEP(fn) \
	static int run_##fn(const struct run_plan *c) { return fn(c->hw, c->p, c->cfg); }
RUN_STEP(measure_copy)
RUN_STEP(measure_stream)
RUN_STEP(measure_latency)
RUN_STEP(cxl_memory_run)
RUN_STEP(measure_c2c)
RUN_STEP(measure_numa_matrix)
RUN_STEP(measure_cache_bw)
RUN_STEP(measure_loaded_latency)
/* the DMA windows' measurements also take the plan's DMA part (efi/measure/dma_window.h) */
#define RUN_DMA(fn) \
	static int run_##fn(const struct run_plan *c) { return fn(c->hw, c->p, c->cfg, c->dma); }
RUN_DMA(measure_cha)
RUN_DMA(measure_mmio)
RUN_DMA(measure_dma_engine)
RUN_DMA(measure_blockio)
RUN_DMA(measure_ddio)
RUN_DMA(measure_dma_cpu)
RUN_STEP(measure_loop)
static int run_uncore_run_plan(const struct run_plan *c) { return uncore_run_plan(c->hw, c->p, c->cfg, c->uncore); }
static int run_measure_uncore(const struct run_plan *c) { return measure_uncore(c->hw, c->p, c->cfg, c->uncore, c->dma); }
static int run_measure_blockio_write(const struct run_plan *c) { return measure_blockio_write(c->p, c->cfg, c->image); }
static int run_measure_nvme(const struct run_plan *c) { return measure_nvme(c->hw, c->p, c->dma, &c->nvme, c->image); }
static int nvme_enabled(const struct run_plan *c) { return c->nvme.on; }

/* The fault_test test hook (config fault_test = ap): one undefined instruction on the first
 * enabled AP, as a job and then as a window's kernel. The AP's job ends at the exception (efi/exceptions.c exceptions_ap_call, never the
 * boot CPU's fatal path) and this reports it as an `exception` error record; the run goes on. */
static uint64_t fault_kernel(void *arg)
{
	arch_undefined_insn(arg);
	return 0;
}

static void fault_test_report(uint32_t cpu, hw_status st, const char *how)
{
	const char *why = mp_cpu_why(cpu);
	if (st == HW_OK)
		rep_error("fault_test", "CPU %u ran the undefined instruction (%s) and no exception was seen", cpu, how);
	else
		rep_error("exception", "%s", why ? why : hw_status_name(st));   /* why names the CPU */
}

static int fault_test_enabled(const struct run_plan *c) { return c->cfg->fault_test == CFG_FAULT_TEST_AP; }

static int run_fault_test(const struct run_plan *c)
{
	const struct mp_info *mp = &c->p->mp;
	uint32_t cpu = 0;
	while (cpu < mp->logical && (cpu == mp->bsp || (mp->cpu && !mp->cpu[cpu].enabled)))
		cpu++;
	if (cpu >= mp->logical) {
		rep_error("fault_test", "no AP to fault on (%u CPUs, backend %s)", mp->logical, mp->backend);
		return -1;
	}
	hw_status st = hw_run_on_cpu(c->hw, cpu, arch_undefined_insn, NULL);
	fault_test_report(cpu, st, "job");
	/* the same inside a quiesced window (mp_start_on_cpu / mp_wait, the window's barrier) */
	struct window_cpu wc = { .cpu = cpu };
	struct window_spec ws = { .kernel = fault_kernel, .cpus = &wc, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result wr;
	window_run(c->hw, &ws, &wr);
	fault_test_report(cpu, wc.st, "window");
	return -1;
}

static const struct measurement run_table[] = {
	{ "fault_test", fault_test_enabled, run_fault_test },                /* test hook: off unless fault_test = ap */
	{ "copy", NULL, run_measure_copy },                    /* + core counters, the known loop's set */
	{ "cha", NULL, run_measure_cha },                      /* CHA around a copy window */
	{ "uncore plan", NULL, run_uncore_run_plan },          /* IIO stack map against the PCIe tree */
	{ "uncore", NULL, run_measure_uncore },
	{ "stream", NULL, run_measure_stream },
	{ "latency", NULL, run_measure_latency },
	{ "cxl memory", NULL, run_cxl_memory_run },            /* cxl_decoders = commit: STREAM, latency on the window */
	{ "c2c", NULL, run_measure_c2c },
	{ "numa_matrix", NULL, run_measure_numa_matrix },
	{ "cache_bw", NULL, run_measure_cache_bw },
	{ "loaded_latency", NULL, run_measure_loaded_latency },
	{ "mmio", NULL, run_measure_mmio },                    /* DMA windows from here: counters, self_check, link_limit */
	{ "dma_engine", NULL, run_measure_dma_engine },
	{ "blockio write", NULL, run_measure_blockio_write },  /* before the read, so a read of the disk sees the pattern */
	{ "blockio", NULL, run_measure_blockio },
	{ "ddio_sweep", NULL, run_measure_ddio },
	{ "dma_cpu_traffic", NULL, run_measure_dma_cpu },
	{ "nvme", nvme_enabled, run_measure_nvme },
	{ "loop", NULL, run_measure_loop },
};

/* The `--help` text: cfg_help of every key, one console line each. */
static void show_help(void)
{
	char *help = pool_zalloc(HELP_BYTES);   /* cfg_help of every key: about 8 KiB today */
	struct strbuf sb;
	sb_init(&sb, help ? help : (char *)"", help ? HELP_BYTES : 1);
	if (help)
		cfg_help(&sb);
	rep_line("usage: efiperf.efi [key=value ...] [--help]; keys (also in %s):", CFG_PATH);
	for (char *line = help ? help : (char *)"", *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			rep_line("%s", line);
			break;
		}
		rep_line("%.*s", (int)(nl - line), line);
	}
	pool_free(help);
}

/* The config file's and the arguments' errors as `error` records; the count. */
static int config_errors(void)
{
	for (int i = 0; i < cfg_errs->count && i < CFG_MAX_ERRORS; i++) {
		const struct cfg_error *e = &cfg_errs->e[i];
		rep_error("config", "%s: %s%s%s", e->where, e->key[0] ? e->key : "", e->key[0] ? ": " : "", e->message);
	}
	if (cfg_errs->count > CFG_MAX_ERRORS)
		rep_error("config", "%d more configuration errors not shown", cfg_errs->count - CFG_MAX_ERRORS);
	return cfg_errs->count;
}

/* The platform from the firmware's tables and the hardware, the `cpus` selection and the core
 * counters' plan (core_events resolved with the parser the measurement uses). 0, or -1 after a
 * config error: nothing is measured. */
static int platform_setup(const struct hw *hw)
{
	plat->smbios = disc->smbios_status == 0 ? &disc->smbios : NULL;
	plat->fadt = disc->acpi && disc->acpi_status == 0 ? &disc->acpi->fadt : NULL;
	plat->srat = disc->acpi && disc->acpi_status == 0 ? &disc->acpi->srat : NULL;
	plat->madt = disc->acpi && disc->acpi_status == 0 ? &disc->acpi->madt : NULL;
	plat->apmt = disc->acpi && disc->acpi_status == 0 && disc->acpi->apmt.present ? &disc->acpi->apmt : NULL;
	plat->pptt = disc->acpi && disc->acpi_status == 0 ? &disc->acpi->pptt : NULL;
	plat->acpi = disc->acpi && disc->acpi_status == 0 ? disc->acpi : NULL;
	platform_discover(hw, plat);
	char cpu_note[160];
	if (cpu_tables_note(plat->cpu.vendor, plat->cpu.family, plat->cpu.model, cpu_note, sizeof(cpu_note))) {
		rep_set_cpu_note(cpu_note);
		rep_line("cpu:        %s", cpu_note);
	}
	platform_report(plat);
	discovery_report(disc, &plat->mp);
	if (cpus_init(plat, cfg) != 0)
		return -1;   /* a `cpus` this machine does not have: a config error */
	/* Before the first window: every key naming hardware is resolved with the parser the
	 * measurement uses (cpus above, core_events here, the rest in plan_build); a bad value is
	 * a config error naming where it was set, and nothing is measured. */
	int core_cfg_error;
	plat->corepmu = corepmu_setup(hw, cfg, plat->timer_hz, &core_cfg_error);
	trace_drain();
	if (core_cfg_error)
		return -1;
	char arm_err[160];   /* Arm PMUv3: core_events on event counters 1..N-1 of every CPU */
	if (plat->core.pmu == &pmu_armv8_pmuv3 && cfg->core_events[0] &&
	    armv8_pmuv3_configure(&plat->core, cfg->core_events, arm_err, sizeof(arm_err)) != 0) {
		rep_error("config", "%s: %s", cfg->origin[CFG_CORE_EVENTS], arm_err);
		return -1;
	}
	if (plat->core.pmu == &pmu_armv8_pmuv3) {   /* TopDown inputs first, then the default set */
		int user = cfg->core_events[0] != 0;
		if (cfg->topdown)
			armv8_pmuv3_add_topdown(&plat->core);
		if (!user)
			armv8_pmuv3_add_defaults(&plat->core);
		plat->core.event_set = user ? (cfg->topdown ? "core_events + topdown" : "core_events")
					   : (cfg->topdown ? "topdown + default" : "default");
		core_mux_pack(&plat->core);   /* more events than counters: TopDown's inputs in one group, multiplexed */
	}
	return 0;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	cfg = pool_zalloc(sizeof(*cfg));
	plat = pool_zalloc(sizeof(*plat));
	cfg_errs = pool_zalloc(sizeof(*cfg_errs));
	disc = pool_zalloc(sizeof(*disc));
	if (!cfg || !plat || !cfg_errs || !disc) {
		ST->ConOut->OutputString(ST->ConOut, L"efiperf: the firmware has no pool memory for the config and platform\r\n");
		return EFI_OUT_OF_RESOURCES;
	}
	arch_env_enter();
	t_start = arch_timer_read();
	BS->SetWatchdogTimer(0, 0, 0, NULL);

	plat->exc_vectors = exceptions_register(&plat->exc_why);
	self = image;
	exceptions_on_fatal(on_fatal);

	const char *why = NULL;
	int have_volume = vol_open(image, &why) == 0;
	/* ACPI and SMBIOS first: the SMBIOS serial and baseboard pick the config and name the logs. */
	discovery_firmware(disc);
	load_config(image, have_volume);
	run_verdict_start(cfg);
	if (!have_volume && cfg_url[0] && cfg_used >= 0)
		rep_line("log: no boot volume (%s): configuration from %s, console only", why, cfg_url);
	else if (!have_volume)
		rep_line("log: no boot volume (%s): configuration defaults, console only", why);

	rep_line("efiperf %s: bare-metal performance measurement", EFIPERF_VERSION);
	EFI_TIME now;
	if (RT->GetTime(&now, NULL) != EFI_SUCCESS)
		now = (EFI_TIME){ .Year = 1970, .Month = 1, .Day = 1 };
	if (have_volume)
		rep_open_logs(disc->serial, &now);
	collector_start(image, cfg->collector, cfg->collector_token, cfg->collector_wait, disc->serial);
	run_record();
	run_state_begin(disc->serial, run_started);   /* an earlier run that never ended: `incomplete` */

	if (config_errors())
		return finish();

	if (want_help) {
		show_help();
		return finish();
	}

	struct hw hw = hw_efi();
	if (cfg->trace == CFG_TRACE_HW) {
		/* Pool memory, not a static array: gnu-efi's linker script stores .bss in the file. */
		struct hw_trace_entry *ring = AllocateZeroPool(TRACE_ENTRIES * sizeof(*ring));
		if (!ring) {
			rep_error("trace", "cannot allocate %u trace entries", TRACE_ENTRIES);
			return finish();
		}
		hw = hw_trace_wrap(&tracer, hw, ring, TRACE_ENTRIES);
	}

	if (platform_setup(&hw) != 0)
		return finish();
	if (cfg->pcie) {
		disc->cxl_commit = cfg->cxl_decoders;
		discovery_pcie(&hw, disc, plat->timer_hz);
		trace_drain();
	}
	struct run_plan *plan = pool_zalloc(sizeof(*plan));
	if (!plan) {
		rep_error("config", "no memory for the run plan");
		return finish();
	}
	if (plan_build(plan, &hw, plat, disc, cfg, self, trace_drain) != 0)
		return finish();
	for (size_t i = 0; i < sizeof(run_table) / sizeof(run_table[0]); i++) {
		if (run_table[i].enabled && !run_table[i].enabled(plan))
			continue;
		run_table[i].run(plan);   /* a failure is in the log as an error record: the run goes on */
		trace_drain();
	}
	return finish();
}
