/* SPDX-License-Identifier: BSD-2-Clause */
/* CoreSight PMUs of the APMT around the copy window and DMA windows (efi/measure/cspmu_run.h). */
#include <efi.h>
#include <efilib.h>
#include "efi/measure/cspmu_run.h"
#include "efi/pages.h"
#include "efi/out/cspmu_json.h"
#include "efi/out/pmu_out.h"
#include "efi/out/report.h"
#include "efi/pcie/pcie.h"
#include "efi/fw/firmware_tables.h"
#include "arch/lib/fmt.h"

#include <string.h>

/* edk2-nvidia's APMT parser writes processor-container UIDs as 1 << 28 | socket << 24
 * (ProcHierarchyInfoParser.h GEN_CONTAINER_UID); Linux takes the NUMA node of the CPU. */
#define CONTAINER_LEVEL_SHIFT 28
#define CONTAINER_SOCKET_SHIFT 24
#define CONTAINER_FIELD_MASK 0xFu

/* The self-check of a PMU counting the copy's memory bytes (UCF mem_bytes_rd / mem_bytes_wr). */
static const char convention[] =
	"copy of N bytes: memory reads 2N (source + destination write-allocate), writes N; "
	"self_check = (mem_bytes_rd + mem_bytes_wr) / 3N";

struct rp_sel {
	int on;
	char bdf[16];
	struct pcie_nvidia_map m;
};

/* The address-filter block spans the 8 slots (nvidia_cspmu.c maps the whole resource). */
#define TGT_BLOCK_END (NV_TGT_SLOT0 + NV_TGT_SLOTS * NV_TGT_SLOT_STRIDE)

/* One PMU instance through one window. */
struct cspmu_pmu {
	struct cspmu_node n;
	struct cspmu_info info;
	struct nv_cspmu_req req;
	struct cspmu_run run;
	struct nv_cspmu_metrics met;
	struct self_check sc;
	struct cspmu_record r;
	const struct nv_cspmu_desc *d;
	char why[200], name[NV_CSPMU_NAME_MAX];
	int started;
	int comp_read;              /* the ACPI namespace was read (struct cspmu_plan) */
	const char *absent_why;     /* a DMA window that moves no DMA bytes: why */
	char rc_src[160], filt_why[200];
	struct saveset slot_save;
	struct saved_reg slot_saved[5 * NV_TGT_SLOTS];
	int restored;
};

/* The PMUs of one DMA window (cspmu_dma_start .. cspmu_dma_report). */
struct cspmu_set {
	uint32_t n;
	int stopped;
	struct cspmu_pmu pmu[ACPI_MAX_APMT];
};

uint32_t cspmu_companion_hids(const struct platform *p, char (*hid)[9], const char **want, uint32_t max)
{
	return apmt_companion_hids(p->apmt, hid, want, max < ACPI_MAX_APMT ? max : ACPI_MAX_APMT);
}

void cspmu_companions(struct cspmu_plan *cp, const struct platform *p, const struct aml_info *aml)
{
	const struct acpi_apmt *t = p->apmt;
	cp->ncomp = 0;
	cp->comp_read = 1;
	uint32_t nacpi = 0;
	for (uint32_t i = 0; t && i < t->nnodes && i < ACPI_MAX_APMT; i++)
		nacpi += t->node[i].type == APMT_NODE_ACPI;
	pool_free(cp->comp);
	cp->comp = pool_zalloc(nacpi * sizeof(*cp->comp));
	if (nacpi && !cp->comp) {
		rep_error("uncore", "cannot allocate the %u APMT companion devices", nacpi);
		return;
	}
	for (uint32_t i = 0; t && i < t->nnodes && i < ACPI_MAX_APMT; i++) {
		if (t->node[i].type != APMT_NODE_ACPI)
			continue;
		struct apmt_companion *c = &cp->comp[cp->ncomp++];
		apmt_companion_of(&t->node[i], aml, c);
		rep_line("uncore:     APMT node %u: companion _HID \"%s\" _UID %u: %s%s%s", c->apmt_id, c->hid, c->uid,
			 c->found ? c->path : "not found", c->why[0] ? ": " : "", c->why);
	}
}

static const struct apmt_companion *companion_of(const struct cspmu_plan *cp, uint32_t apmt_id)
{
	for (uint32_t i = 0; i < cp->ncomp; i++)
		if (cp->comp[i].apmt_id == apmt_id)
			return &cp->comp[i];
	return NULL;
}

/* The RC number of a per-RC PMU: the companion's _DSD instance_id (Linux nvidia_cspmu.c
 * names the PMU ..._rc_<instance_id>), else the APMT _UID saying why. */
static void rc_of(struct cspmu_pmu *pm, const struct apmt_companion *c)
{
	struct cspmu_record *r = &pm->r;
	if (c && c->has_instance_id) {
		r->rc = (uint32_t)c->instance_id;
		r->rc_source = "_DSD instance_id";
		return;
	}
	r->rc = pm->n.inst_secondary;
	fmt_snprintf(pm->rc_src, sizeof(pm->rc_src), "APMT instance secondary (_UID): %s",
		     pm->n.type != APMT_NODE_ACPI ? "the node is not an ACPI device"
		     : !pm->comp_read ? "the ACPI namespace was not read"
		     : !c || !c->found ? "no companion device"
		     : "its companion device has no _DSD instance_id");
	r->rc_source = pm->rc_src;
}

/* PCIE-TGT events with dst_addr_en: their slots go to the companion's first _CRS memory
 * resource; without one (or one the address checker refuses, efi/fw/fwaddr.h: reported by the
 * copy window, `first`) the PMU runs without the address filter, saying why. */
static void filter_of(struct cspmu_pmu *pm, const struct apmt_companion *c, int first)
{
	struct cspmu_record *r = &pm->r;
	if (!pm->req.nslots)
		return;
	char field[AML_PATH_LEN + 32];
	if (c && c->found)
		fmt_snprintf(field, sizeof(field), "%s _CRS memory resource 0", c->path);
	const char *why = !c || !c->found ? "no companion ACPI device"
			  : !c->has_block ? "the companion device has no _CRS memory resource"
			  : c->block_len < TGT_BLOCK_END ? "the companion's first _CRS memory resource is shorter than the "
							   "8 slots (0xDD8 bytes)"
			  : fw_addr_use(first ? "AML" : NULL, field, c->block, TGT_BLOCK_END)
				? "the companion's first _CRS memory resource is refused (firmware_defect record)"
			  : NULL;
	if (why) {
		fmt_snprintf(pm->filt_why, sizeof(pm->filt_why), "%s: runs without the address filter", why);
		r->filter_why = pm->filt_why;
		nv_cspmu_drop_slots(&pm->req);
		return;
	}
	r->tgt_block = c->block;
	r->tgt_slots = pm->req.slot;
	r->tgt_n = pm->req.nslots;
}

static void socket_of(const struct cspmu_node *n, uint32_t *socket, const char **how)
{
	if ((n->flags & CSPMU_APMT_AFF_CONTAINER) &&
	    ((n->affinity >> CONTAINER_LEVEL_SHIFT) & CONTAINER_FIELD_MASK) == 1) {
		*socket = (n->affinity >> CONTAINER_SOCKET_SHIFT) & CONTAINER_FIELD_MASK;
		*how = "processor container UID (1 << 28 | socket << 24)";
	} else {
		*socket = 0;
		*how = "0: the APMT affinity names no socket container";
	}
}

/* The root port pcie_pmu_rp names (the run plan checked it). -1 after reporting. */
static int rp_select(const struct hw *hw, const struct efiperf_config *cfg, struct rp_sel *rp)
{
	memset(rp, 0, sizeof(*rp));
	if (cfg->pcie_pmu_rp == CFG_BDF_NONE)
		return 0;
	struct hw_pci_addr a = { CFG_BDF_SEG(cfg->pcie_pmu_rp), CFG_BDF_BUS(cfg->pcie_pmu_rp),
				 CFG_BDF_DEV(cfg->pcie_pmu_rp), CFG_BDF_FN(cfg->pcie_pmu_rp) };
	char why[160];
	pcie_bdf_str(a, rp->bdf, sizeof(rp->bdf));
	struct pcie_func *f = pool_zalloc(sizeof(*f));   /* the probe (~1.5 KiB): off the firmware stack */
	rp->on = f && !pcie_nvidia_rp_lookup(hw, a, f, &rp->m, why, sizeof(why));
	if (!f)
		fmt_snprintf(why, sizeof(why), "cannot allocate %u bytes for the root port's probe", (unsigned)sizeof(*f));
	pool_free(f);
	if (!rp->on)
		rep_error("uncore", "pcie_pmu_rp: %s", why);
	return rp->on ? 0 : -1;
}

static struct cspmu_node node_of(const struct acpi_apmt_node *an)
{
	return (struct cspmu_node){ .id = an->id, .type = an->type, .flags = an->flags, .base0 = an->base0,
				    .base1 = an->base1, .inst_primary = an->inst_primary,
				    .inst_secondary = an->inst_secondary, .affinity = an->proc_affinity,
				    .impl_id = an->impl_id };
}

/* The node before an in t whose register pages an shares, or NULL. */
static const struct acpi_apmt_node *shares_pages(const struct acpi_apmt *t, const struct acpi_apmt_node *an)
{
	struct cspmu_node a = node_of(an);
	for (const struct acpi_apmt_node *o = t->node; o < an; o++) {
		struct cspmu_node b = node_of(o);
		if (cspmu_pages_shared(&a, &b))
			return o;
	}
	return NULL;
}

/* The APMT field an MMIO address of node n lies in ("node 3 Base Address 1"). */
static void page_field(const struct cspmu_node *n, uint64_t at, char *buf, size_t len)
{
	int page1 = (n->flags & CSPMU_APMT_DUAL_PAGE) && at / CSPMU_PAGE_SIZE == n->base1 / CSPMU_PAGE_SIZE;
	fmt_snprintf(buf, len, "node %u Base Address %d", n->id, page1);
}

/* Whether node an's register pages may be used: 1 yes; 0 left out (first: the record says why:
 * pages another node has, or an address efi/fw/fwaddr.h refuses). */
static int pages_usable(const struct acpi_apmt *t, const struct acpi_apmt_node *an, int first, struct cspmu_pmu *pm)
{
	char field[48];
	const struct acpi_apmt_node *twin = shares_pages(t, an);
	if (twin) {
		if (!first)
			return 0;
		pm->r.status = "off";
		fmt_snprintf(pm->why, sizeof(pm->why), "registers at 0x%llx are APMT node %u's too: measured once, as that node",
			     (unsigned long long)an->base0, twin->id);
		page_field(&pm->n, an->base0, field, sizeof(field));
		fw_addr_defect("APMT", field, an->base0, CSPMU_PAGE_SIZE, "duplicate", pm->why);
		cspmu_record_write(&pm->r);
		return 0;
	}
	for (int pg = 0; pg < 1 + !!(pm->n.flags & CSPMU_APMT_DUAL_PAGE); pg++) {
		uint64_t base = pg ? pm->n.base1 : pm->n.base0;
		fmt_snprintf(field, sizeof(field), "node %u Base Address %d", pm->n.id, pg);
		if (fw_addr_use(first ? "APMT" : NULL, field, base, CSPMU_PAGE_SIZE)) {
			if (!first)
				return 0;
			fmt_snprintf(pm->why, sizeof(pm->why), "APMT %s 0x%llx refused: not a register address (firmware_defect record)",
				     field, (unsigned long long)base);
			cspmu_record_write(&pm->r);
			return 0;
		}
	}
	return 1;
}

/* pcie_pmu_rp on a PMU with a root-port filter: 1 set (or nothing to set); 0 the root port is
 * another socket's or RC's (record: off). */
static int rp_filter(const struct rp_sel *rp, struct cspmu_pmu *pm)
{
	struct cspmu_record *r = &pm->r;
	if (!rp->on || !pm->d->rp_reg)
		return 1;
	if (rp->m.socket != r->socket || rp->m.rc != r->rc) {
		r->status = "off";
		fmt_snprintf(pm->why, sizeof(pm->why), "pcie_pmu_rp %s is socket %u RC %u", rp->bdf, rp->m.socket, rp->m.rc);
		cspmu_record_write(r);
		return 0;
	}
	nv_cspmu_set_rp(&pm->req, rp->m.rp);
	r->rp_bdf = rp->bdf;
	r->rp_socket = rp->m.socket;
	r->rp_rc = rp->m.rc;
	r->rp = rp->m.rp;
	return 1;
}

/* The PMU's name and event request (uncore_events). 1 built; 0 off (names none of its events:
 * record); -1 error (reported). */
static int request_of(const struct efiperf_config *cfg, struct cspmu_pmu *pm, const struct apmt_companion *c)
{
	struct cspmu_record *r = &pm->r;
	r->companion = c;
	if (pm->d->per_rc)
		rc_of(pm, c);
	nv_cspmu_name(pm->d, r->socket, r->rc, pm->n.id, pm->name, sizeof(pm->name));
	r->pmu = pm->name;
	int rc = nv_cspmu_request(pm->d, pm->name, &pm->info, cfg->uncore_events, &pm->req, pm->why, sizeof(pm->why));
	if (rc == 1) {
		r->status = "off";
		fmt_snprintf(pm->why, sizeof(pm->why), "uncore_events names none of its events");
		cspmu_record_write(r);
		return 0;
	}
	if (rc) {
		cspmu_record_write(r);
		rep_error("uncore", "%s", pm->why);
		return -1;
	}
	r->req = &pm->req;
	return 1;
}

/* Probe and build the request of node an of t. 1 ready to run; 0 left out (a record says why,
 * unless quiet_skip and it is not a PMU of kind `want`); -1 error (reported). want: NVC_NONE =
 * any: the copy window, the first use of every node, which alone writes the records of nodes
 * left out for their addresses (a refusal by efi/fw/fwaddr.h, a fault, pages another node has). */
static int prepare(const struct hw *hw, const struct efiperf_config *cfg, const struct cspmu_plan *cp,
		   const struct acpi_apmt *t, const struct acpi_apmt_node *an, const struct rp_sel *rp, uint8_t want, const char *window,
		   struct cspmu_pmu *pm)
{
	memset(pm, 0, sizeof(*pm));
	pm->n = node_of(an);
	pm->comp_read = cp->comp_read;
	struct cspmu_record *r = &pm->r;
	*r = (struct cspmu_record){ .node = an, .status = "error", .why = pm->why, .window = window };
	socket_of(&pm->n, &r->socket, &r->socket_source);
	int first = want == NVC_NONE;
	if (!pages_usable(t, an, first, pm))
		return 0;
	if (cspmu_probe(hw, &pm->n, &pm->info, pm->why, sizeof(pm->why))) {
		if (!first)
			return 0;          /* the copy window's record named it already */
		char field[48];
		page_field(&pm->n, pm->info.read_at, field, sizeof(field));
		fw_addr_fault("APMT", field, pm->info.read_at, pm->info.read_status);
		cspmu_record_write(r);
		rep_error("uncore", "%s", pm->why);
		return -1;
	}
	r->info = &pm->info;
	pm->d = nv_cspmu_match(pm->info.pmiidr);
	if (want != NVC_NONE && pm->d->check != want)
		return 0;
	const struct apmt_companion *c = pm->n.type == APMT_NODE_ACPI ? companion_of(cp, pm->n.id) : NULL;
	int k = request_of(cfg, pm, c);
	if (k != 1)
		return k;
	filter_of(pm, c, first);
	return rp_filter(rp, pm);
}

static void start(const struct hw *hw, struct cspmu_pmu *pm)
{
	saveset_init(&pm->slot_save, pm->slot_saved, 5 * NV_TGT_SLOTS);
	pm->r.slot_save = &pm->slot_save;
	if (pm->r.tgt_n) {
		hw_status st = nv_tgt_program_slots(hw, &pm->slot_save, pm->r.tgt_block, pm->r.tgt_slots, pm->r.tgt_n);
		if (st != HW_OK) {
			pm->run.status = -1;
			fmt_snprintf(pm->run.why, sizeof(pm->run.why), "address-filter slots at 0x%llx: %s",
				     (unsigned long long)pm->r.tgt_block, hw_status_name(st));
			return;
		}
	}
	pm->started = !cspmu_start(hw, &pm->info, pm->req.ev, pm->req.nev, &pm->run);
}

static void stop(const struct hw *hw, struct cspmu_pmu *pm)
{
	if (pm->started)
		cspmu_stop(hw, &pm->info, pm->req.ev, pm->req.nev, &pm->run);
}

/* Every register the PMU's start wrote back (also after a start that failed midway); once. */
static void restore_regs(const struct hw *hw, struct cspmu_pmu *pm)
{
	if (pm->restored)
		return;
	cspmu_restore(hw, &pm->info, &pm->run);
	saveset_restore(hw, &pm->slot_save);
	pm->restored = 1;
}

/* Restore, metrics, self-check, record. dma: the DMA window's known bytes, or NULL (the copy of
 * copy_bytes). 1 measured, 0 busy, -1 error (reported). */
static int finish(const struct hw *hw, struct cspmu_pmu *pm, uint64_t ns, const struct self_check_bytes *dma,
		  uint64_t copy_bytes)
{
	struct cspmu_record *r = &pm->r;
	restore_regs(hw, pm);
	r->run = &pm->run;
	r->window_ns = ns;
	struct saveset_report rep = { 0 };
	saveset_report_add(&pm->run.save, &rep);
	saveset_report_add(&pm->slot_save, &rep);
	if (pm->run.status || rep.nfailed || rep.dropped) {
		r->status = pm->run.busy ? "busy" : "error";
		fmt_snprintf(pm->why, sizeof(pm->why), "%s: %s", pm->name,
			     pm->run.status ? pm->run.why : "registers not restored (see restore)");
		r->check_why = pm->why;
		cspmu_record_write(r);
		if (!pm->run.busy)
			rep_error("uncore", "%s", pm->why);
		return pm->run.busy ? 0 : -1;
	}
	r->status = "ok";
	r->why = NULL;
	for (uint32_t i = 0; i < pm->req.nev; i++)
		r->counting |= pm->run.raw[i] != 0;
	nv_cspmu_metrics(&pm->req, pm->run.raw, ns, &pm->met);
	r->metrics = &pm->met;
	if (dma) {
		struct self_check_bytes c;
		nv_cspmu_bytes(&pm->req, pm->run.raw, &c);
		self_check_compute(dma, &c, 0, pm->absent_why, &pm->sc);
		r->sc = &pm->sc;
	} else if (!r->counting)
		r->check_why = "no counter advanced in the window";
	else if (pm->d->check == NVC_CPU && pm->met.have_bytes && copy_bytes) {
		r->check_ok = 1;
		r->check_milli = (uint64_t)(((unsigned __int128)pm->met.bytes * 1000 + copy_bytes * 3 / 2) / (copy_bytes * 3));
		r->check_how = convention;
	} else if (pm->d->check == NVC_DMA)
		r->check_why = "the copy window moves no PCIe bytes (DMA windows carry their own record)";
	else
		r->check_why = "no event of this PMU counts the copy's memory bytes";
	cspmu_record_write(r);
	return 1;
}

static int apmt_defect_line(const struct acpi_apmt *t)
{
	if (t->defect[0] || t->dropped)
		rep_line("uncore:     APMT defect (acpi record apmt_defects): %s%s; the %u node(s) before it are measured",
			 t->defect[0] ? t->defect : "", t->dropped ? " nodes beyond ACPI_MAX_APMT dropped" : "", t->nnodes);
	return 0;
}

int measure_cspmu(const struct hw *hw, const struct platform *p, const struct efiperf_config *cfg,
		  const struct cspmu_plan *cp, unc_window_fn window, void *arg, uint64_t copy_bytes)
{
	const struct acpi_apmt *t = p->apmt;
	if (!t || !t->present)
		return 0;
	apmt_defect_line(t);
	struct cspmu_pmu *pm = AllocateZeroPool(sizeof(*pm));
	if (!pm) {
		rep_error("uncore", "cannot allocate %u bytes for a CoreSight PMU", (unsigned)sizeof(*pm));
		return -1;
	}
	struct rp_sel rp;
	int rc = rp_select(hw, cfg, &rp), measured = 0;
	for (uint32_t i = 0; i < t->nnodes && i < ACPI_MAX_APMT; i++) {
		int k = prepare(hw, cfg, cp, t, &t->node[i], &rp, NVC_NONE, "copy", pm);
		if (k == 1) {
			uint64_t ns = 0;
			start(hw, pm);
			if (pm->started)
				ns = window(arg, 0, 1);
			stop(hw, pm);
			k = finish(hw, pm, ns, NULL, copy_bytes);
		}
		if (k < 0)
			rc = -1;
		else
			measured += k;
	}
	FreePool(pm);
	return rc ? -1 : measured;
}

/* The DMA-counting PMUs of the APMT, probed and built (NULL when none, or uncore = off). */
static struct cspmu_set *dma_set(const struct hw *hw, const struct platform *p, const struct cspmu_plan *cp,
				 const char *kernel)
{
	const struct acpi_apmt *t = p->apmt;
	if (!cp || !cp->cfg || !t || !t->nnodes)
		return NULL;
	struct cspmu_set *s = AllocateZeroPool(sizeof(*s));
	if (!s) {
		rep_error("uncore", "cannot allocate %u bytes for the CoreSight PMUs of %s", (unsigned)sizeof(*s), kernel);
		return NULL;
	}
	struct rp_sel rp;
	rp_select(hw, cp->cfg, &rp);
	for (uint32_t i = 0; i < t->nnodes && i < ACPI_MAX_APMT; i++)
		if (prepare(hw, cp->cfg, cp, t, &t->node[i], &rp, NVC_DMA, kernel, &s->pmu[s->n]) == 1)
			s->n++;
	if (!s->n) {
		FreePool(s);
		return NULL;
	}
	return s;
}

static int set_prepare(struct attachment *a, const struct hw *hw)
{
	struct cspmu_attach *x = a->self;
	x->s = dma_set(hw, x->p, x->cp, x->kernel);
	x->ns = 0;
	if (x->s)
		return 0;
	a->st = HW_UNSUPPORTED;
	a->why = "no CoreSight PMU counts this window's PCIe bytes";
	return -1;
}

static void set_start(struct attachment *a, const struct hw *hw)
{
	struct cspmu_attach *x = a->self;
	for (uint32_t i = 0; a->slice->k == 0 && i < x->s->n; i++)
		start(hw, &x->s->pmu[i]);
}

static void set_stop(struct attachment *a, const struct hw *hw)
{
	struct cspmu_attach *x = a->self;
	x->ns += a->slice->ns;
	for (uint32_t i = 0; a->slice->k + 1 >= a->slice->n && !x->s->stopped && i < x->s->n; i++)
		stop(hw, &x->s->pmu[x->s->n - 1 - i]);
	if (a->slice->k + 1 >= a->slice->n)
		x->s->stopped = 1;
}

static int set_restore(struct attachment *a, const struct hw *hw)
{
	struct cspmu_attach *x = a->self;
	int rc = 0;
	/* a window cut short: stopped here, before the restore */
	for (uint32_t i = 0; x->s && !x->s->stopped && i < x->s->n; i++)
		stop(hw, &x->s->pmu[x->s->n - 1 - i]);
	for (uint32_t i = 0; x->s && i < x->s->n; i++) {
		struct cspmu_pmu *pm = &x->s->pmu[i];
		restore_regs(hw, pm);
		struct saveset_report rep = { 0 };
		saveset_report_add(&pm->run.save, &rep);
		saveset_report_add(&pm->slot_save, &rep);
		rc |= rep.nfailed || rep.dropped ? -1 : 0;
	}
	if (x->s)
		x->s->stopped = 1;
	return rc;
}

const struct attachment_ops cspmu_attach_ops = { .kind = "cspmu", .prepare = set_prepare,
	.start = set_start, .stop = set_stop, .restore = set_restore };

int cspmu_dma_report(const struct hw *hw, const struct cspmu_attach *x, const struct self_check_bytes *expected,
		     const char *absent_why)
{
	struct cspmu_set *s = x->s;
	if (!s)
		return 0;
	static const struct self_check_bytes none;
	int rc = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		s->pmu[i].absent_why = absent_why;
		if (finish(hw, &s->pmu[i], x->ns, expected ? expected : &none, 0) < 0)
			rc = -1;
	}
	FreePool(s);
	return rc;
}
