/* SPDX-License-Identifier: BSD-2-Clause */
#include "efi/out/dma_json.h"

static void opt_u64(struct json *j, const char *key, int have, uint64_t v)
{
	if (have)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

static void opt_milli(struct json *j, const char *key, int have, uint64_t v)
{
	if (have)
		json_milli(j, key, v);
	else
		json_null(j, key);
}

void self_check_json(struct json *j, const char *key, const struct self_check *sc)
{
	json_obj(j, key);
	json_str(j, "state", self_check_state_name(sc->state));
	json_u64(j, "expected_read_bytes", sc->expected_read);
	json_u64(j, "expected_write_bytes", sc->expected_write);
	opt_u64(j, "counted_read_bytes", sc->have_counted_read, sc->counted_read);
	opt_u64(j, "counted_write_bytes", sc->have_counted_write, sc->counted_write);
	opt_milli(j, "ratio_read", sc->have_ratio_read, sc->ratio_read_milli);
	opt_milli(j, "ratio_write", sc->have_ratio_write, sc->ratio_write_milli);
	json_milli(j, "tolerance", sc->tolerance_milli);
	if (sc->why[0])
		json_str(j, "why", sc->why);
	else
		json_null(j, "why");
	json_close(j);
}

/* port, device, gts, width of one link */
static void link_members(struct json *j, const struct link_limit *ll, const struct link_seg *s)
{
	char b[16];
	pcie_bdf_str(ll->path[s->port].addr, b, sizeof(b));
	json_str(j, "port", b);
	pcie_bdf_str(ll->path[s->dev].addr, b, sizeof(b));
	json_str(j, "device", b);
	json_milli(j, "gts", s->mgts);
	json_u64(j, "width", s->width);
}

static const char *dir_name(uint8_t dir)
{
	return dir == LINK_DIR_READ ? "device reads memory" : dir == LINK_DIR_WRITE ? "device writes memory" : NULL;
}

void link_limit_json(struct json *j, const char *key, const struct link_limit *ll)
{
	char b[16];
	json_obj(j, key);
	json_str(j, "status", ll->status ? "absent" : "ok");
	if (ll->why[0])
		json_str(j, "why", ll->why);
	json_arr(j, "path");
	for (uint32_t i = 0; i < ll->npath; i++) {
		pcie_bdf_str(ll->path[i].addr, b, sizeof(b));
		json_str(j, NULL, b);
	}
	json_close(j);
	json_arr(j, "links");
	for (uint32_t k = 0; k < ll->nlinks; k++) {
		const struct link_seg *s = &ll->links[k];
		json_obj(j, NULL);
		link_members(j, ll, s);
		json_milli(j, "raw_gbps", s->raw_mgbps);
		json_bool(j, "ends_disagree", s->ends_disagree);
		json_close(j);
	}
	json_close(j);
	int ok = !ll->status;
	if (ok) {
		json_obj(j, "bottleneck");
		link_members(j, ll, &ll->links[ll->bottleneck]);
		json_close(j);
	} else {
		json_null(j, "bottleneck");
	}
	opt_milli(j, "raw_gbps", ok, ll->raw_mgbps);
	opt_u64(j, "mps", ok && ll->mps, ll->mps);
	opt_u64(j, "mrrs", ok && ll->mrrs, ll->mrrs);
	opt_milli(j, "effective_read_gbps", ok && ll->have_effective, ll->eff_read_mgbps);
	opt_milli(j, "effective_write_gbps", ok && ll->have_effective, ll->eff_write_mgbps);
	if (ll->have_fraction)
		json_str(j, "direction", dir_name(ll->dir));
	else
		json_null(j, "direction");
	opt_milli(j, "effective_gbps", ll->have_fraction, ll->effective_mgbps);
	opt_milli(j, "fraction", ll->have_fraction, ll->fraction_milli);
	if (ll->impossible)
		json_str(j, "impossible", "emulated link or counting error");
	json_close(j);
}

void ddio_ratio_json(struct json *j, const char *key, const struct ddio_ratio *r)
{
	json_obj(j, key);
	json_str(j, "state", ddio_state_name(r->state));
	json_u64(j, "hits", r->hits);
	json_u64(j, "misses", r->misses);
	opt_milli(j, "ratio", r->state == DDIO_RATIO_OK, r->ratio_milli);
	if (r->why[0])
		json_str(j, "why", r->why);
	else
		json_null(j, "why");
	json_close(j);
}
