/* SPDX-License-Identifier: BSD-2-Clause */
/* NVIDIA Tegra410 ACPI-namespace PMUs: setup from ACPI and the one programming sequence
 * (pmu/uncore/nv_acpi_pmu.h). */
#include "pmu/uncore/nv_acpi_pmu.h"
#include "arch/lib/fmt.h"

#include <string.h>

static const struct nv_apmu_type *const types[] = {
	&nv_cmem_latency_type, &nv_nvdlink_type, &nv_nvclink_type, &nv_nvlink_c2c_type,
};

const struct nv_apmu_type *nv_apmu_for_hid(const char *hid)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i]->hid, hid))
			return types[i];
	return NULL;
}

uint32_t nv_apmu_hids(const char **hid, uint32_t max)
{
	uint32_t n = 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]) && n < max; i++)
		hid[n++] = types[i]->hid;
	return n;
}

int nv_apmu_setup(const struct nv_apmu_type *t, uint32_t socket, const uint64_t *base, uint32_t nbase,
		  const struct nv_apmu_props *props, struct nv_apmu_dev *d, char *why, size_t n)
{
	memset(d, 0, sizeof(*d));
	d->type = t;
	d->socket = socket;
	fmt_snprintf(d->name, sizeof(d->name), "%s_%u", t->pmu, socket);
	if (nbase < (uint32_t)t->ninst + 1u) {
		fmt_snprintf(why, n, "%s (%s) needs %u memory resources in _CRS (%u instances, then the broadcast "
			     "region), found %u", d->name, t->hid, t->ninst + 1u, t->ninst, nbase);
		return -1;
	}
	for (uint8_t i = 0; i < t->ninst; i++)
		d->inst_base[i] = base[i];
	d->bcast_base = base[t->ninst];
	uint32_t all = (uint32_t)((1ull << t->ninst) - 1);
	if (!t->dsd_peers) {
		d->peer = t->fixed_peer;
		d->npeers = 1;
		d->peer_mask[0] = d->inst_mask = all;
		d->gpu_mask = 1;
		return 0;
	}
	if (props->has_cpu_en && props->cpu_en) {
		d->peer = NV_PEER_CPU;
		d->npeers = 1;
		d->peer_mask[0] = props->cpu_en & all;
	} else {
		d->peer = NV_PEER_GPU;
		for (int g = 0; g < 2; g++)
			if (props->has_gpu_en[g] && props->gpu_en[g])
				d->peer_mask[d->npeers++] = props->gpu_en[g] & all;
	}
	d->gpu_mask = (uint8_t)((1u << d->npeers) - 1);
	for (uint8_t p = 0; p < d->npeers; p++)
		d->inst_mask |= d->peer_mask[p];
	if (!d->inst_mask) {
		fmt_snprintf(why, n, "%s (%s): _DSD enables no peer (cpu_en_mask, gpu0_en_mask and gpu1_en_mask "
			     "absent or selecting no instance)", d->name, t->hid);
		return -1;
	}
	return 0;
}

int nv_apmu_visible(const struct nv_apmu_dev *d, const struct nv_apmu_event *e)
{
	return (e->peers & d->peer) != 0;
}

struct seq {
	const struct hw *hw;
	const struct nv_apmu_dev *d;
	struct nv_apmu_result *res;
};

static struct reg_ref ref(const struct nv_apmu_dev *d, uint64_t addr)
{
	return d->type->regs64 ? reg_mmio64(addr) : reg_mmio32(addr);
}

/* A control register of the broadcast region: saved, then written. */
static int control(struct seq *s, uint16_t off, uint64_t value, const char *reg)
{
	uint64_t addr = s->d->bcast_base + off;
	s->res->accesses++;
	hw_status st = saveset_write(s->hw, &s->res->save, ref(s->d, addr), value);
	if (st == HW_OK)
		return 0;
	s->res->fault = st;
	s->res->fault_at = addr;
	fmt_snprintf(s->res->why, sizeof(s->res->why), "%s: writing %s = 0x%llx (broadcast region, MMIO 0x%llx) "
		     "failed: %s", s->d->name, reg, (unsigned long long)value, (unsigned long long)addr,
		     hw_status_name(st));
	return -1;
}

/* One counter: a 64-bit read, or two 32-bit halves high-low-high until the high half holds
 * (Linux nvidia_t410_c2c_pmu.c read_reg64_hilohi). */
static hw_status counter(struct seq *s, uint64_t addr, uint64_t *v)
{
	if (s->d->type->regs64) {
		s->res->accesses++;
		return hw_mmio_read64(s->hw, addr, v);
	}
	for (uint32_t poll = 0; poll < NV_APMU_HILOHI_POLLS; poll++) {
		uint32_t hi, lo, hi2;
		hw_status st;
		s->res->accesses += 3;
		if ((st = hw_mmio_read32(s->hw, addr + 4, &hi)) || (st = hw_mmio_read32(s->hw, addr, &lo)) ||
		    (st = hw_mmio_read32(s->hw, addr + 4, &hi2)))
			return st;
		if (hi == hi2) {
			*v = (uint64_t)hi << 32 | lo;
			return HW_OK;
		}
	}
	return HW_ERROR;
}

/* The overflow status registers of every selected instance (Linux nv_c2c_pmu_check_status,
 * cmem_lat_pmu_read_status): read, never written. */
static int read_status(struct seq *s)
{
	const struct nv_apmu_type *t = s->d->type;
	struct nv_apmu_result *r = s->res;
	for (uint8_t i = 0; i < t->ninst; i++) {
		if (!(s->d->inst_mask >> i & 1))
			continue;
		for (uint8_t k = 0; k < t->nstatus; k++) {
			uint64_t addr = s->d->inst_base[i] + t->status[k], v = 0;
			hw_status st;
			r->accesses++;
			if (t->regs64) {
				st = hw_mmio_read64(s->hw, addr, &v);
			} else {
				uint32_t v32 = 0;
				st = hw_mmio_read32(s->hw, addr, &v32);
				v = v32;
			}
			if (st) {
				r->fault = st;
				r->fault_at = addr;
				fmt_snprintf(r->why, sizeof(r->why), "%s: reading the overflow status of instance %u "
					     "(MMIO 0x%llx) failed: %s", s->d->name, i, (unsigned long long)addr,
					     hw_status_name(st));
				return -1;
			}
			r->ovf_status[i][k] = v;
		}
	}
	r->nstatus = t->nstatus;
	return 0;
}

static int read_counts(struct seq *s)
{
	const struct nv_apmu_type *t = s->d->type;
	struct nv_apmu_result *r = s->res;
	for (uint8_t e = 0; e < t->nev; e++) {
		const struct nv_apmu_event *ev = &t->ev[e];
		if (!nv_apmu_visible(s->d, ev) || (s->d->ev_sel && !(s->d->ev_sel >> e & 1)) ||
		    r->nev >= NV_APMU_MAX_EVENTS)
			continue;
		uint32_t k = r->nev++;
		r->ev[k] = e;
		for (uint8_t i = 0; i < t->ninst; i++) {
			if (!(s->d->inst_mask >> i & 1))
				continue;
			for (uint8_t g = 0; g < ev->nreg; g++) {
				uint64_t addr = s->d->inst_base[i] + ev->reg[g], v = 0;
				hw_status st = counter(s, addr, &v);
				if (st) {
					r->fault = st;
					r->fault_at = addr;
					fmt_snprintf(r->why, sizeof(r->why), "%s: reading %s of instance %u (MMIO 0x%llx) "
						     "failed: %s", s->d->name, ev->name, i, (unsigned long long)addr,
						     hw_status_name(st));
					return -1;
				}
				r->inst[k][i] += v;
				r->count[k] += v;
			}
			if (ev->first_only)
				break;
		}
	}
	return read_status(s);
}

static uint64_t count_of(const struct nv_apmu_result *r, uint8_t e, int *found)
{
	for (uint32_t k = 0; k < r->nev; k++)
		if (r->ev[k] == e) {
			*found = 1;
			return r->count[k];
		}
	*found = 0;
	return 0;
}

static void latencies(const struct nv_apmu_dev *d, struct nv_apmu_result *r)
{
	const struct nv_apmu_type *t = d->type;
	int fc, fq, fy;
	uint64_t cycles = count_of(r, t->cycles, &fy);
	for (uint8_t l = 0; l < t->nlat && r->nlat < NV_APMU_MAX_LAT; l++) {
		uint64_t cum = count_of(r, t->lat[l].cum_outs, &fc), req = count_of(r, t->lat[l].req, &fq);
		if (!fc || !fq || !fy)
			continue;
		r->lat_direction[r->nlat] = t->lat[l].direction;
		latency_compute(cum, req, cycles, r->window_ns, &r->lat[r->nlat++]);
	}
	r->state = cycles ? NV_APMU_COUNTING : NV_APMU_NOT_ADVANCING;
}

int nv_apmu_begin(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res)
{
	const struct nv_apmu_type *t = d->type;
	memset(res, 0, sizeof(*res));
	saveset_init(&res->save, res->saved, NV_APMU_SAVE_CAP);
	struct seq s = { hw, d, res };
	int rc = 0;
	if (t->cg_ctrl != NV_APMU_NO_REG)
		rc = control(&s, t->cg_ctrl, t->cg_enable, "CG_CTRL");
	if (!rc && t->has_clear)
		rc = control(&s, t->ctrl, t->ctrl_clear, "CTRL");
	res->status = rc;
	return rc;
}

int nv_apmu_start(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res)
{
	struct seq s = { hw, d, res };
	if (!res->status)
		res->status = control(&s, d->type->ctrl, d->type->ctrl_enable, "CTRL");
	return res->status;
}

void nv_apmu_stop(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res, uint64_t ns)
{
	struct seq s = { hw, d, res };
	res->window_ns = ns;
	res->status = control(&s, d->type->ctrl, d->type->ctrl_disable, "CTRL");
}

int nv_apmu_read(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res)
{
	struct seq s = { hw, d, res };
	int rc = res->status;
	if (!rc)
		rc = read_counts(&s);
	if (!rc && d->type->has_clear)
		rc = control(&s, d->type->ctrl, d->type->ctrl_clear, "CTRL");
	res->status = rc;
	return rc;
}

int nv_apmu_restore(const struct hw *hw, const struct nv_apmu_dev *d, struct nv_apmu_result *res)
{
	int rc = res->status;
	hw_status st = saveset_restore(hw, &res->save);
	saveset_report_add(&res->save, &res->restore);
	if (st != HW_OK) {
		char name[48] = "";
		for (uint32_t i = 0; i < res->save.n; i++)
			if (res->save.e[i].restore_st != HW_OK) {
				reg_name(res->save.e[i].r, name, sizeof(name));
				break;
			}
		fmt_snprintf(res->restore_why, sizeof(res->restore_why), "%s: restoring %s failed: %s", d->name, name,
			     hw_status_name(st));
		if (!rc)
			memcpy(res->why, res->restore_why, sizeof(res->why));
		rc = -1;
	}
	res->status = rc;
	if (!rc)
		latencies(d, res);
	return rc;
}

int nv_apmu_measure(const struct hw *hw, const struct nv_apmu_dev *d, nv_apmu_window_fn window, void *arg,
		    struct nv_apmu_result *res)
{
	if (!nv_apmu_begin(hw, d, res) && !nv_apmu_start(hw, d, res))
		nv_apmu_stop(hw, d, res, window(arg));
	nv_apmu_read(hw, d, res);
	return nv_apmu_restore(hw, d, res);
}
