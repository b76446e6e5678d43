/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How many CHAs each socket has, as the platform table says to find out:
 *   - CAPID (SKX, ICX): the capability registers CAPID6 (0x9C) and, on ICX, CAPID7 (0xA0) of
 *     the Intel device on device 30 function 3 of each socket's uncore bus; one bit per enabled
 *     CHA (Linux arch/x86/events/intel/uncore_snbep.c skx_count_chabox, icx_count_chabox).
 *   - discovery table (SPR, EMR, GNR): the PMON DVSEC (extended capability 0x23, DVSEC ID 1)
 *     of device 8086:09A7 points through a BAR at an MMIO table of units, read and parsed by
 *     the one discovery-table reader (pmu/uncore/intel_discovery.h); units of box type 0 are
 *     CHAs (Linux arch/x86/events/intel/uncore_discovery.h). A CBo-count MSR read on a CPU of the
 *     socket cross-checks it: Linux trusts a non-zero MSR over the table (38776cc45eb7) and
 *     keeps the table when the MSR reads 0 (6f7f984fa85b).
 * Devices found in ascending (segment, bus) order are sockets 0, 1, ...; their number must
 * equal the socket count, otherwise discovery fails: never a guess.
 */
#include "pmu/uncore/intel_cha.h"
#include "pmu/uncore/intel_discovery.h"
#include "arch/lib/fmt.h"

#define PCI_VENDOR_INTEL 0x8086u
#define PCI_ID_OFF 0x00u
#define PCI_HEADER_TYPE_DW 0x0Cu            /* header type is byte 0x0E: bits 23:16 of dword 0x0C */
#define PCI_MULTI_FUNCTION (1u << 23)
#define DISC_BOX_TYPE_CHA 0u                /* unit q2 box_type [15:0] (Linux uncore_snbep.c UNCORE_SPR_CHA) */

static size_t popcount32(uint32_t v)
{
	size_t c = 0;
	for (; v; v &= v - 1)
		c++;
	return c;
}

struct found { struct hw_pci_addr a; };

/* Every function with Intel:device in the scope, up to max, in (segment, bus) order. Only
 * device/function `dev`/`func` when fixed, else every function of every device. */
static size_t scan(const struct hw *hw, const struct cha_pci_scope *scope, size_t nscope, uint16_t device,
		   int fixed, uint8_t dev, uint8_t func, struct found *f, size_t max)
{
	size_t k = 0;
	const uint32_t want = PCI_VENDOR_INTEL | (uint32_t)device << 16;
	for (size_t s = 0; s < nscope; s++)
		for (unsigned bus = scope[s].bus_start; bus <= scope[s].bus_end; bus++)
			for (unsigned d = fixed ? dev : 0; d <= (fixed ? dev : 31u); d++)
				for (unsigned fn = fixed ? func : 0; fn <= (fixed ? func : 7u); fn++) {
					struct hw_pci_addr a = { scope[s].segment, (uint8_t)bus, (uint8_t)d, (uint8_t)fn };
					uint32_t id, ht;
					if (hw_pci_read32(hw, a, PCI_ID_OFF, &id) != HW_OK || (id & 0xFFFF) == 0xFFFF) {
						if (!fixed && fn == 0)
							break;           /* no function 0: no device */
						continue;
					}
					if (id == want && k < max)
						f[k++].a = a;
					if (!fixed && fn == 0 && (hw_pci_read32(hw, a, PCI_HEADER_TYPE_DW, &ht) != HW_OK ||
								 !(ht & PCI_MULTI_FUNCTION)))
						break;               /* single-function device */
				}
	return k;
}

static void scope_text(const struct cha_pci_scope *scope, size_t nscope, char *buf, size_t n)
{
	if (!nscope) {
		fmt_snprintf(buf, n, "no PCI bus ranges given");
		return;
	}
	fmt_snprintf(buf, n, "buses %02x-%02x of segment %04x%s", scope[0].bus_start, scope[0].bus_end,
		     scope[0].segment, nscope > 1 ? " and further ranges" : "");
}

static int count_found(const struct cha_platform *p, size_t k, uint32_t nsockets, const char *what,
		       const struct cha_pci_scope *scope, size_t nscope, char *why, size_t n)
{
	if (k == nsockets)
		return 0;
	char where[64];
	scope_text(scope, nscope, where, sizeof(where));
	if (!k)
		fmt_snprintf(why, n, "%s device 8086:%04x not found on %s", what, p->pci_device, where);
	else
		fmt_snprintf(why, n, "%s device 8086:%04x found %u times on %s for %u sockets", what,
			     p->pci_device, (unsigned)k, where, nsockets);
	return -1;
}

static int by_capid(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		    size_t nscope, uint32_t nsockets, struct cha_topology *out, char *why, size_t n)
{
	struct found f[CHA_MAX_SOCKETS + 1];
	size_t k = scan(hw, scope, nscope, p->pci_device, 1, p->capid_dev, p->capid_func, f, CHA_MAX_SOCKETS + 1);
	char what[48];
	fmt_snprintf(what, sizeof(what), "CAPID6 (device %u function %u)", p->capid_dev, p->capid_func);
	if (count_found(p, k, nsockets, what, scope, nscope, why, n))
		return -1;
	for (uint32_t s = 0; s < nsockets; s++) {
		uint32_t v[2] = { 0, 0 };
		size_t cnt = 0;
		for (int r = 0; r < 2 && p->capid_off[r]; r++) {
			hw_status st = hw_pci_read32(hw, f[s].a, p->capid_off[r], &v[r]);
			if (st != HW_OK) {
				fmt_snprintf(why, n, "CAPID%d read at %04x:%02x:%02x.%x offset 0x%x: %s", 6 + r,
					     f[s].a.segment, f[s].a.bus, f[s].a.dev, f[s].a.func, p->capid_off[r],
					     hw_status_name(st));
				return -1;
			}
			cnt += popcount32(v[r] & p->capid_mask[r]);
		}
		if (!cnt || cnt > p->box.max_boxes) {
			fmt_snprintf(why, n, "CAPID6/7 of socket %u give %u CHAs, outside 1..%u", s, (unsigned)cnt, p->box.max_boxes);
			return -1;
		}
		out->ncha[s] = (uint16_t)cnt;
		size_t w = fmt_snprintf(out->how[s], sizeof(out->how[s]), "CAPID6 %04x:%02x:%02x.%x = 0x%08x",
					f[s].a.segment, f[s].a.bus, f[s].a.dev, f[s].a.func, v[0]);
		if (p->capid_off[1] && w < sizeof(out->how[s]))
			fmt_snprintf(out->how[s] + w, sizeof(out->how[s]) - w, ", CAPID7 = 0x%08x", v[1]);
	}
	return 0;
}

/* The CHA units of the table behind function a: *count, each checked to be an MSR unit at the
 * BOX_CTL the platform table gives. A table read short (a fault, or fewer bytes than its global
 * entry spans) or holding more units than the parser keeps gives no count: -1 with why. */
static int table_count(const struct hw *hw, const struct cha_platform *p, struct hw_pci_addr a,
		       struct cha_disc_ws *ws, uint32_t *count, char *why, size_t n)
{
	if (!ws) {
		fmt_snprintf(why, n, "the discovery table: no working memory for it (%u bytes)", (unsigned)sizeof(*ws));
		return -1;
	}
	size_t len = 0;
	uint64_t base = 0;
	char rwhy[120] = "";
	if (disc_read(hw, a, ws->buf, sizeof(ws->buf), &len, &base, rwhy, sizeof(rwhy))) {
		fmt_snprintf(why, n, "%s", rwhy);
		return -1;
	}
	int bad = disc_parse(ws->buf, len, &ws->t);
	if (rwhy[0]) {
		fmt_snprintf(why, n, "%s", rwhy);           /* a read that faulted midway */
		return -1;
	}
	if (bad || len < disc_table_bytes(ws->buf, len)) {
		fmt_snprintf(why, n, "discovery table at 0x%llx: %s", (unsigned long long)base,
			     ws->t.ndefects ? ws->t.defect[0] : "read short");
		return -1;
	}
	if (ws->t.nunits >= DISC_MAX_UNITS) {
		fmt_snprintf(why, n, "discovery table at 0x%llx: more than the %u units read, its CHA count is unknown",
			     (unsigned long long)base, DISC_MAX_UNITS);
		return -1;
	}
	uint32_t idx[DISC_MAX_UNITS], k = disc_units_of(&ws->t, DISC_BOX_TYPE_CHA, idx, DISC_MAX_UNITS);
	for (uint32_t i = 0; i < k; i++) {
		const struct disc_unit *u = &ws->t.unit[idx[i]];
		if (u->access != DISC_MSR || u->box_id >= p->box.max_boxes || u->ctl != cha_box_ctl(p, u->box_id)) {
			fmt_snprintf(why, n, "discovery table CHA %u: BOX_CTL 0x%llx (access type %u), %s expects MSR 0x%x",
				     u->box_id, (unsigned long long)u->ctl, u->access, p->name,
				     u->box_id < p->box.max_boxes ? cha_box_ctl(p, u->box_id) : 0);
			return -1;
		}
	}
	*count = k;
	return 0;
}

struct msr_read { const struct hw *hw; uint32_t msr; uint64_t v; hw_status st; };
static void read_msr_fn(void *arg)
{
	struct msr_read *r = arg;
	r->st = hw_rdmsr(r->hw, r->msr, &r->v);
}

static int by_table(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		    size_t nscope, uint32_t nsockets, const uint32_t *cpu, struct cha_disc_ws *ws,
		    struct cha_topology *out, char *why, size_t n)
{
	struct found f[CHA_MAX_SOCKETS + 1];
	size_t k = scan(hw, scope, nscope, p->pci_device, 0, 0, 0, f, CHA_MAX_SOCKETS + 1);
	if (count_found(p, k, nsockets, "uncore discovery", scope, nscope, why, n))
		return -1;
	for (uint32_t s = 0; s < nsockets; s++) {
		uint32_t cnt;
		if (table_count(hw, p, f[s].a, ws, &cnt, why, n))
			return -1;
		struct msr_read r = { hw, p->cbo_count_msr, 0, HW_UNSUPPORTED };
		hw_status st = hw_run_on_cpu(hw, cpu ? cpu[s] : 0, read_msr_fn, &r);
		uint64_t m = r.v & p->cbo_count_mask;
		const char *note = "";
		if (st != HW_OK || r.st != HW_OK)
			note = hw_status_name(st != HW_OK ? st : r.st);
		else if (m && m != cnt) {
			note = "MSR used";    /* the table is wrong on some SPR parts: 38776cc45eb7 */
			cnt = (uint32_t)(m > 0xFFFF ? 0xFFFF : m);
		} else
			note = m ? "agrees" : "reads 0, table used";
		if (!cnt || cnt > p->box.max_boxes) {
			fmt_snprintf(why, n, "socket %u: %u CHAs (discovery table, MSR 0x%x = 0x%llx), outside 1..%u", s, cnt,
				     p->cbo_count_msr, (unsigned long long)m, p->box.max_boxes);
			return -1;
		}
		out->ncha[s] = (uint16_t)cnt;
		fmt_snprintf(out->how[s], sizeof(out->how[s]), "discovery table %04x:%02x:%02x.%x; MSR 0x%x %s",
			     f[s].a.segment, f[s].a.bus, f[s].a.dev, f[s].a.func, p->cbo_count_msr, note);
	}
	return 0;
}

int cha_discover_on(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		    size_t nscope, uint32_t nsockets, const uint32_t *cpu, struct cha_disc_ws *ws,
		    struct cha_topology *out, char *why, size_t n)
{
	*out = (struct cha_topology){ .nsockets = nsockets };
	if (!nsockets || nsockets > CHA_MAX_SOCKETS) {
		fmt_snprintf(why, n, "%u sockets: outside 1..%u", nsockets, CHA_MAX_SOCKETS);
		return -1;
	}
	if (p->count_method == CHA_COUNT_CAPID)
		return by_capid(hw, p, scope, nscope, nsockets, out, why, n);
	return by_table(hw, p, scope, nscope, nsockets, cpu, ws, out, why, n);
}

int cha_discover(const struct hw *hw, const struct cha_platform *p, const struct cha_pci_scope *scope,
		 size_t nscope, uint32_t nsockets, struct cha_disc_ws *ws, struct cha_topology *out, char *why,
		 size_t n)
{
	return cha_discover_on(hw, p, scope, nscope, nsockets, NULL, ws, out, why, n);
}

int cha_topology_from_count(const struct cha_platform *p, uint32_t nsockets, uint32_t count,
			    struct cha_topology *out, char *why, size_t n)
{
	*out = (struct cha_topology){ .nsockets = nsockets };
	if (!nsockets || nsockets > CHA_MAX_SOCKETS || !count || count > p->box.max_boxes) {
		fmt_snprintf(why, n, "cha_count %u with %u sockets: %s has 1..%u CHAs per socket, 1..%u sockets", count,
			     nsockets, p->name, p->box.max_boxes, CHA_MAX_SOCKETS);
		return -1;
	}
	for (uint32_t s = 0; s < nsockets; s++) {
		out->ncha[s] = (uint16_t)count;
		fmt_snprintf(out->how[s], sizeof(out->how[s]), "config cha_count");
	}
	return 0;
}
