/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxl_decoders = commit, the run step (efi/cxl_memory.h): commit the planned window's decoders,
 * run STREAM and the latency curve with their buffers in the window's memory, put every decoder
 * register back, one `cxl_commit` record.
 */
#include <efi.h>
#include <efilib.h>
#include "efi/cxl_memory.h"
#include "efi/cxl_discovery.h"
#include "efi/cleanup.h"
#include "efi/pages.h"
#include "efi/fw/memmap.h"
#include "efi/fw/cxl_numa.h"
#include "efi/fw/numa.h"
#include "efi/measure/stream_measure.h"
#include "efi/measure/cxl_cpmu_attach.h"
#include "efi/measure/window.h"
#include "efi/out/dma_json.h"
#include "arch/kernel.h"
#include "pmu/metrics.h"
#include "efi/out/report.h"
#include "efi/out/pmu_json.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"

#define COMMIT_SAVES 64
#define NHOPS 3

static uint64_t now_ticks(void *arg)
{
	(void)arg;
	return arch_timer_read();
}

/* Decoder 0 of a component block re-read: 1 when Committed (0 also when unreadable); *ctrl the
 * address of its Control register. */
static int decoder0_committed(const struct cxl_env *env, uint64_t base, uint64_t len, struct cxl_component *tmp,
			      uint64_t *ctrl)
{
	char why[CXL_DEFECT_LEN] = "";
	cxl_read_component(env, base, len, tmp, why, sizeof(why));
	*ctrl = 0;
	for (int k = 0; k < tmp->ncaps; k++)
		if (tmp->caps[k].id == CXL_CM_CAP_HDM)
			*ctrl = base + CXL_CM_OFFSET + tmp->caps[k].offset + CXL_HDM_DEC_CTRL(0);
	return tmp->hdm.present && tmp->hdm.count && tmp->hdm.dec[0].committed;
}

/* The fatal-exception path (efi/cleanup.h): the decoders put back before the end record. */
struct commit_undo { const struct hw *hw; struct saveset *ss; };

static void undo(void *arg)
{
	struct commit_undo *u = arg;
	saveset_restore(u->hw, u->ss);
}

static const char *step_state(int on, int rc)
{
	return !on ? "off" : rc ? "failed" : "ok";
}

/* The SRAT domain of the window's memory (efi/fw/cxl_numa.h: an SRAT range inside the window;
 * -1 when none, as for a window efiperf committed itself) and the boot CPU's. */
static void window_domains(const struct platform *p, uint32_t window, int32_t *domain, int32_t *initiator)
{
	struct cxl_numa_node n[CXL_NUMA_MAX];
	int nn = p->acpi ? cxl_numa_nodes(p->srat, &p->acpi->cedt, NULL, 0, n, CXL_NUMA_MAX) : 0;
	uint32_t d;
	*domain = -1;
	for (int i = nn - 1; i >= 0; i--)
		if (n[i].window == window && n[i].domain >= 0)
			*domain = n[i].domain;
	*initiator = p->mp.cpu && numa_cpu_domain(p->srat, p->madt, p->mp.cpu[p->mp.bsp].proc_id, &d) == 0 ? (int32_t)d : -1;
}

/* STREAM and the latency curve with every buffer in [base, base + size) of the window. */
static void measure_on_window(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
			      const struct cxl_commit_plan *pl, struct pages_target *t, int *rs, int *rl)
{
	*t = (struct pages_target){ .device = pl->name[2], .window = pl->window, .base = pl->base, .size = pl->size,
				   .link_mbps = pl->link.up ? pl->link.mgbps : 0,
				   .hmat = p->acpi && p->acpi->hmat.present ? &p->acpi->hmat : NULL };
	window_domains(p, pl->window, &t->domain, &t->initiator);
	rep_line("cxl memory: window %u 0x%llx + 0x%llx behind %s: STREAM %s, latency %s", pl->window,
		 (unsigned long long)pl->base, (unsigned long long)pl->size, pl->name[2], cfg->stream ? "on" : "off",
		 cfg->latency ? "on" : "off");
	pages_target_set(t);
	*rs = measure_stream(hw, p, cfg);
	*rl = measure_latency(hw, p, cfg);
	pages_target_set(NULL);
}

/* The window's own bandwidth window: non-temporal stores over a buffer in the window (whole
 * lines written, no read for ownership), then loads of it (the stores left no line cached), on
 * the boot CPU, with the device's CPMU attached when it has one. */
#define LINK_BYTES (4u << 20)
struct link_traffic { struct kernel_run st, ld; };

static uint64_t link_kernel(void *arg)
{
	struct link_traffic *t = arg;
	kernel_run(&t->st);
	kernel_run(&t->ld);
	return t->st.status | t->ld.status;
}

/* What the window gave: rates (milli-GB/s) against the device link's raw rate per direction,
 * and the CPMU's counts (cpmu_why: what kept it from counting). */
struct link_meas {
	const char *why;                  /* the window did not run */
	uint64_t write_mgbps, read_mgbps;
	const char *cpmu_why;
	struct cxl_cpmu_attach cpmu;
};

static void link_window(const struct hw *hw, const struct platform *p, const struct cxl_commit_plan *pl,
			struct link_meas *m)
{
	m->cpmu_why = pl->cpmu ? NULL : "the device has no CPMU register block (Register Block Identifier 4)";
	struct link_traffic *t = pool_zalloc(sizeof(*t));
	void *buf = pages_alloc(LINK_BYTES);
	uint32_t isa = arch_kernel_isa();
	const struct kernel_desc *ks = kernel_best(arch_kernels, arch_nkernels, KERNEL_NTSTORE, isa);
	const struct kernel_desc *kl = kernel_best(arch_kernels, arch_nkernels, KERNEL_LOAD, isa);
	m->why = !t ? "no pool memory" : !buf ? "no room left in the window" : !ks || !kl ? "no store/load kernel" : NULL;
	if (m->why) {
		m->cpmu_why = m->why;
		pool_free(t);
		return;
	}
	m->cpmu.base = pl->cpmu;
	struct attachment a = { .ops = &cxl_cpmu_attach_ops, .self = &m->cpmu };
	struct attach_list l = { .a = &a, .n = pl->cpmu ? 1 : 0, .hw = hw };
	t->st = (struct kernel_run){ .k = ks, .a = buf, .bytes = LINK_BYTES, .scalar = 1.0, .passes = 1, .timer = arch_timer_read };
	t->ld = (struct kernel_run){ .k = kl, .a = buf, .b = buf, .c = buf, .bytes = LINK_BYTES, .passes = 1,
				     .timer = arch_timer_read };
	struct window_cpu cpu = { .cpu = p->mp.bsp, .arg = t };
	struct window_spec spec = { .kernel = link_kernel, .cpus = &cpu, .ncpus = 1, .mask_interrupts = 1 };
	struct window_result w;
	attach_prepare_all(&l);
	spec.counters = attach_counters(&l);
	if (window_run(hw, &spec, &w) != 0 || t->st.status || t->ld.status)
		m->why = "the boot CPU did not run the store and load kernels";
	m->write_mgbps = metric_gbps_milli(t->st.app_bytes, metric_ticks_to_ns(t->st.ticks_min, p->timer_hz));
	m->read_mgbps = metric_gbps_milli(t->ld.app_bytes, metric_ticks_to_ns(t->ld.ticks_min, p->timer_hz));
	m->cpmu.expected_write = t->st.app_bytes;
	m->cpmu.expected_read = t->ld.app_bytes;
	attach_read_all(&l);
	attach_restore_all(&l);
	if (pl->cpmu && a.st != HW_OK)
		m->cpmu_why = a.why ? a.why : hw_status_name(a.st);
	pool_free(t);
}

/* "link": the device's negotiated link and the fraction of its raw rate per direction the
 * window's reads and writes reached (CXL.mem flit overhead not subtracted: the raw rate bounds
 * the data rate from above, so the fraction is a lower bound). */
static void link_json(struct json *j, const struct cxl_commit_plan *pl, const struct link_meas *m)
{
	json_obj(j, "link");
	json_bool(j, "up", pl->link.up);
	json_milli(j, "speed_gts", pl->link.mgts);
	json_u64(j, "width", pl->link.width);
	json_milli(j, "raw_gbps", pl->link.mgbps);
	json_str(j, "why", m->why);
	if (!m->why) {
		json_u64(j, "bytes", LINK_BYTES);
		json_milli(j, "write_gbps", m->write_mgbps);
		json_milli(j, "read_gbps", m->read_mgbps);
	}
	if (!m->why && pl->link.up && pl->link.mgbps) {
		json_milli(j, "write_fraction", m->write_mgbps * 1000 / pl->link.mgbps);
		json_milli(j, "read_fraction", m->read_mgbps * 1000 / pl->link.mgbps);
	} else {
		json_null(j, "write_fraction");
		json_null(j, "read_fraction");
	}
	json_close(j);
	json_obj(j, "cpmu");
	if (pl->cpmu)
		json_hex(j, "block", pl->cpmu);
	json_str(j, "state", m->cpmu_why ? "absent" : "counted");
	json_str(j, "why", m->cpmu_why);
	if (!m->cpmu_why)
		self_check_json(j, "self_check", &m->cpmu.check);
	if (pl->cpmu && m->cpmu.restore.registers)
		json_restore_report(j, &m->cpmu.restore, NULL);
	json_close(j);
}

int cxl_memory_run(const struct hw *hw, struct platform *p, const struct efiperf_config *cfg)
{
	const struct cxl_commit_plan *pl = cxl_commit_plan();
	if (!pl)
		return 0;
	struct json *j;
	if (pl->why[0]) {
		j = rep_begin("cxl_commit");
		json_str(j, "why", pl->why);
		rep_end();
		rep_line("cxl commit: not done: %s", pl->why);
		return 0;
	}
	int nram = 0;
	struct memrange *ram = memmap_read(&nram, MEMMAP_RAM);
	struct cxl_env env = { .hw = hw, .ram = ram, .nram = ram ? nram : 0, .now = now_ticks, .hz = p->timer_hz };
	struct cxl_component *tmp = pool_zalloc(sizeof(*tmp));
	struct saved_reg *store = pool_zalloc(COMMIT_SAVES * sizeof(*store));
	if (!tmp || !store) {
		pool_free(tmp);
		pool_free(store);
		if (ram)
			FreePool(ram);
		rep_error("cxl_commit", "cannot allocate the decoder save-set");
		return -1;
	}
	struct saveset ss;
	saveset_init(&ss, store, COMMIT_SAVES);
	struct commit_undo u = { hw, &ss };
	int slot = cleanup_push(undo, &u);
	char why[160] = "";
	int rc = cxl_commit_window(&env, pl->base, pl->size, pl->hop, NHOPS, &ss, why, sizeof(why));
	int committed[NHOPS], after[NHOPS], rs = 0, rl = 0;
	uint64_t ctrl;
	for (int h = 0; h < NHOPS; h++)
		committed[h] = decoder0_committed(&env, pl->hop[h].comp, pl->len[h], tmp, &ctrl);
	struct pages_target t = { 0 };
	struct link_meas *lm = pool_zalloc(sizeof(*lm));
	/* nothing is written to the device's memory unless a memory measurement is on */
	int measure = rc == 0 && lm && (cfg->stream || cfg->latency);
	if (measure) {
		measure_on_window(hw, p, cfg, pl, &t, &rs, &rl);
		pages_target_set(&t);   /* the link window's buffer after the measurements' */
		link_window(hw, p, pl, lm);
		pages_target_set(NULL);
	}
	hw_status rst = saveset_restore(hw, &ss);
	cleanup_pop(slot);
	/* A write-back can succeed and leave the decoder committed (a device that cannot uncommit,
	 * as QEMU 7.2's, whose Committed bit only a reset clears): read back, and name it. */
	for (int h = 0; h < NHOPS; h++) {
		after[h] = decoder0_committed(&env, pl->hop[h].comp, pl->len[h], tmp, &ctrl);
		if (after[h] && ctrl && saveset_mark_failed(&ss, reg_mmio32(ctrl), HW_ERROR) == 0 && rst == HW_OK)
			rst = HW_ERROR;
	}
	struct saveset_report rep = { 0 };
	saveset_report_add(&ss, &rep);
	j = rep_begin("cxl_commit");
	json_hex(j, "window_base", pl->base);
	json_hex(j, "size", pl->size);
	json_arr(j, "hops");
	for (int h = 0; h < NHOPS; h++) {
		json_obj(j, NULL);
		json_str(j, "name", pl->hop[h].name);
		json_hex(j, "component", pl->hop[h].comp);
		json_bool(j, "committed", committed[h]);
		json_bool(j, "committed_after_restore", after[h]);
		json_close(j);
	}
	json_close(j);
	json_bool(j, "ok", rc == 0);
	json_str(j, "why", rc ? why : NULL);
	json_obj(j, "memory");   /* the measurements on the window (stream and latency records name it) */
	json_str(j, "device", pl->name[2]);
	json_u64(j, "window", pl->window);
	json_str(j, "stream", rc ? "not run" : step_state(cfg->stream, rs));
	json_str(j, "latency", rc ? "not run" : step_state(cfg->latency, rl));
	json_u64(j, "bytes_used", t.used);
	/* HMAT claims name SRAT domains; a window efiperf committed itself is none */
	json_str(j, "hmat_why", "the window was committed by efiperf, not described in the SRAT: no HMAT claim names it");
	json_close(j);
	if (measure)
		link_json(j, pl, lm);
	json_restore_report(j, &rep, NULL);
	rep_end();
	rep_line("cxl commit: window 0x%llx + 0x%llx via %s, %s, %s: %s; restore %s, decoders %s after it",
		 (unsigned long long)pl->base, (unsigned long long)pl->size, pl->name[0], pl->name[1], pl->name[2],
		 rc ? why : "committed", rst == HW_OK ? "ok" : "incomplete",
		 after[0] || after[1] || after[2] ? "STILL COMMITTED (named in restore.failed)" : "uncommitted");
	if (measure && !lm->why) {
		char wr[24], rd[24];
		fmt_milli(wr, sizeof(wr), lm->write_mgbps);
		fmt_milli(rd, sizeof(rd), lm->read_mgbps);
		rep_line("            window: write %s GB/s, read %s GB/s on a %s link; CPMU: %s", wr, rd,
			 pl->link.up ? "trained" : "down", lm->cpmu_why ? lm->cpmu_why : self_check_state_name(lm->cpmu.check.state));
	}
	pool_free(lm);
	pool_free(tmp);
	pool_free(store);
	if (ram)
		FreePool(ram);
	return rc || rs || rl ? -1 : 0;
}
