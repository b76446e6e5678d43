/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "efi/out/cxl_json.h"
#include "efi/pcie/cxl_regs.h"
#include "arch/lib/fmt.h"

static const char *const log_names[CXL_EV_NLOGS] = { "informational", "warning", "failure", "fatal" };
/* 8.2.8.5.1.1 Media Status. */
static const char *const media_names[] = { "not_ready", "ready", "error", "disabled" };

static void json_mbox(struct json *j, const struct cxl_mbox_result *r)
{
	json_bool(j, "ok", r->ok);
	if (r->tried && !r->ok && r->rc)
		json_hex(j, "return_code", r->rc);
	json_str(j, "why", r->ok ? NULL : r->why[0] ? r->why : "not sent");
}

static void json_decoders(struct json *j, const struct cxl_component *c)
{
	json_obj(j, "hdm");
	json_bool(j, "present", c->hdm.present);
	if (c->hdm.present) {
		json_hex(j, "capability", c->hdm.cap);
		json_u64(j, "decoder_count", c->hdm.count);
		json_u64(j, "target_count", c->hdm.targets);
		json_bool(j, "enabled", c->hdm.global_ctrl & CXL_HDM_GLOBAL_ENABLE);
		json_arr(j, "decoders");
		for (uint32_t n = 0; n < c->hdm.count && n < CXL_HDM_MAX_DECODERS; n++) {
			const struct cxl_hdm_decoder *d = &c->hdm.dec[n];
			json_obj(j, NULL);
			json_u64(j, "index", n);
			json_hex(j, "base", d->base);
			json_hex(j, "size", d->size);
			json_hex(j, "control", d->ctrl);
			json_u64(j, "ig", d->ig);
			json_u64(j, "granularity", d->granularity);
			json_u64(j, "iw", d->iw);
			json_u64(j, "ways", d->ways);
			json_bool(j, "lock_on_commit", d->lock_on_commit);
			json_bool(j, "commit", d->commit);
			json_bool(j, "committed", d->committed);
			json_bool(j, "error_not_committed", d->error);
			json_str(j, "target_type", d->host_only ? "host_only_coherent" : "device_coherent");
			json_hex(j, "target_list_or_skip_low", d->tl_lo);
			json_hex(j, "target_list_or_skip_high", d->tl_hi);
			json_str(j, "overlap", d->overlap[0] ? d->overlap : NULL);
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

void cxl_component_to_json(const struct cxl_component *c, const char *key, struct json *j)
{
	json_obj(j, key);
	json_bool(j, "present", c->present);
	json_hex(j, "addr", c->addr);
	if (c->present) {
		json_u64(j, "cache_mem_version", c->cm_version);
		json_arr(j, "capabilities");
		for (int i = 0; i < c->ncaps; i++) {
			json_obj(j, NULL);
			json_hex(j, "id", c->caps[i].id);
			json_u64(j, "version", c->caps[i].version);
			json_hex(j, "offset", c->caps[i].offset);
			json_close(j);
		}
		json_close(j);
		json_decoders(j, c);
		json_obj(j, "link");
		json_bool(j, "present", c->link.present);
		if (c->link.present) {
			json_hex(j, "ll_capability", c->link.ll_cap);
			json_hex(j, "ll_control_status", c->link.ll_ctrl_status);
		}
		json_close(j);
	}
	if (c->st != HW_OK)
		json_str(j, "read_error", hw_status_name(c->st));
	json_close(j);
}

static void json_ras(struct json *j, const struct cxl_component *c)
{
	if (!c->ras.present) {
		json_null(j, "ras");
		return;
	}
	json_obj(j, "ras");
	json_hex(j, "uncorrectable_status", c->ras.ue_status);
	json_hex(j, "uncorrectable_mask", c->ras.ue_mask);
	json_hex(j, "uncorrectable_severity", c->ras.ue_severity);
	json_hex(j, "correctable_status", c->ras.ce_status);
	json_hex(j, "correctable_mask", c->ras.ce_mask);
	/* Status bits set, as numbers a check can compare with 0. */
	json_u64(j, "uncorrectable", (uint64_t)__builtin_popcount(c->ras.ue_status));
	json_u64(j, "correctable", (uint64_t)__builtin_popcount(c->ras.ce_status));
	json_u64(j, "first_error_pointer", c->ras.cap_ctrl & CXL_RAS_FIRST_ERROR_MASK);
	json_arr(j, "header_log");
	for (int w = 0; w < CXL_RAS_HEADER_LOG_DWORDS; w++)
		json_hex(j, NULL, c->ras.header_log[w]);
	json_close(j);
	json_close(j);
}

static void json_devregs(struct json *j, const struct cxl_devregs *d)
{
	json_obj(j, "memdev");
	json_bool(j, "present", d->present);
	json_hex(j, "addr", d->addr);
	json_arr(j, "capabilities");
	for (int i = 0; i < d->ncaps; i++) {
		json_obj(j, NULL);
		json_hex(j, "id", d->caps[i].id);
		json_u64(j, "version", d->caps[i].version);
		json_hex(j, "offset", d->caps[i].offset);
		json_hex(j, "length", d->caps[i].length);
		json_close(j);
	}
	json_close(j);
	if (d->has_event_status)
		json_hex(j, "event_status", d->event_status);
	if (d->has_memdev) {
		json_hex(j, "status", d->memdev_status);
		json_bool(j, "device_fatal", d->memdev_status & CXL_MEMDEV_FATAL);
		json_bool(j, "fw_halt", d->memdev_status & CXL_MEMDEV_FW_HALT);
		json_str(j, "media_status", media_names[(d->memdev_status >> CXL_MEMDEV_MEDIA_SHIFT) & CXL_MEMDEV_MEDIA_MASK]);
		json_bool(j, "mailbox_ready", d->memdev_status & CXL_MEMDEV_MBOX_READY);
		json_u64(j, "reset_needed", (d->memdev_status >> CXL_MEMDEV_RESET_SHIFT) & CXL_MEMDEV_RESET_MASK);
	}
	json_bool(j, "mailbox", d->has_mbox);
	if (d->has_mbox)
		json_u64(j, "payload_bytes", d->payload_bytes);
	json_close(j);
	if (!d->present)
		return;
	json_obj(j, "identify");
	json_mbox(j, &d->cmd_identify);
	if (d->cmd_identify.ok) {
		json_str(j, "fw_revision", d->id.fw_revision);
		json_u64(j, "total_capacity_bytes", d->id.total);
		json_u64(j, "volatile_only_bytes", d->id.volatile_only);
		json_u64(j, "persistent_only_bytes", d->id.persistent_only);
		json_u64(j, "partition_alignment_bytes", d->id.partition_align);
		json_u64(j, "lsa_size_bytes", d->id.lsa_size);
		json_obj(j, "event_log_size");
		for (int i = 0; i < CXL_EV_NLOGS; i++)
			json_u64(j, log_names[i], d->id.log_size[i]);
		json_close(j);
	}
	json_close(j);
	json_obj(j, "partition");
	json_mbox(j, &d->cmd_partition);
	if (d->cmd_partition.ok) {
		json_u64(j, "active_volatile_bytes", d->part.active_volatile);
		json_u64(j, "active_persistent_bytes", d->part.active_persistent);
		json_u64(j, "next_volatile_bytes", d->part.next_volatile);
		json_u64(j, "next_persistent_bytes", d->part.next_persistent);
	}
	json_close(j);
	json_obj(j, "health");
	json_mbox(j, &d->cmd_health);
	if (d->cmd_health.ok) {
		json_hex(j, "health_status", d->health.health_status);
		json_hex(j, "media_status", d->health.media_status);
		json_hex(j, "additional_status", d->health.additional_status);
		if (d->health.life_used == CXL_HI_LIFE_NOT_IMPL)
			json_null(j, "life_used_pct");
		else
			json_u64(j, "life_used_pct", d->health.life_used);
		if ((uint16_t)d->health.temperature == CXL_HI_TEMP_NOT_IMPL)
			json_null(j, "temperature_c");
		else
			json_i64(j, "temperature_c", d->health.temperature);
		json_u64(j, "dirty_shutdowns", d->health.dirty_shutdowns);
		json_u64(j, "corrected_volatile_errors", d->health.corrected_volatile);
		json_u64(j, "corrected_persistent_errors", d->health.corrected_persistent);
	}
	json_close(j);
	json_obj(j, "events");
	for (int l = 0; l < CXL_EV_NLOGS; l++) {
		json_obj(j, log_names[l]);
		json_mbox(j, &d->cmd_events[l]);
		if (d->cmd_events[l].ok) {
			json_u64(j, "count", d->ev[l].count);
			json_bool(j, "overflow", d->ev[l].flags & CXL_EV_FLAG_OVERFLOW);
			json_bool(j, "more", d->ev[l].flags & CXL_EV_FLAG_MORE);
			json_u64(j, "overflow_count", d->ev[l].overflow_count);
			json_arr(j, "handles");
			for (int k = 0; k < d->ev[l].count && k < CXL_MAX_EVENTS; k++)
				json_u64(j, NULL, d->ev[l].handle[k]);
			json_close(j);
		}
		json_close(j);
	}
	json_close(j);
}

static const char *role(uint8_t port_type)
{
	/* PCIe 6.0 7.5.3.2 Device/Port Type. */
	switch (port_type) {
	case 0x0: return "device";
	case 0x4: return "root_port";
	case 0x5: return "switch_upstream";
	case 0x6: return "switch_downstream";
	case 0x9: return "rcied";
	default: return "other";
	}
}

void cxl_func_to_json(const struct cxl_func *c, const char *parent_bdf, struct json *j)
{
	char bdf[16];
	pcie_bdf_str(c->addr, bdf, sizeof(bdf));
	json_str(j, "bdf", bdf);
	json_str(j, "role", role(c->port_type));
	json_str(j, "parent", parent_bdf[0] ? parent_bdf : NULL);
	if (c->dev.present) {
		json_obj(j, "device_dvsec");
		json_hex(j, "capability", c->dev.cap);
		json_hex(j, "control", c->dev.ctrl);
		json_bool(j, "mem_capable", c->dev.mem_capable);
		json_bool(j, "mem_enable", c->dev.ctrl & CXL_DEV_CTRL_MEM_ENABLE);
		json_u64(j, "hdm_count", c->dev.hdm_count);
		json_arr(j, "ranges");
		for (int i = 0; i < CXL_DVSEC_NRANGES; i++) {
			json_obj(j, NULL);
			json_hex(j, "base", c->dev.range[i].base);
			json_hex(j, "size", c->dev.range[i].size);
			json_bool(j, "memory_info_valid", c->dev.range[i].valid);
			json_bool(j, "memory_active", c->dev.range[i].active);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	if (c->flexbus.present) {
		json_obj(j, "flexbus");
		json_hex(j, "capability", c->flexbus.cap);
		json_hex(j, "control", c->flexbus.ctrl);
		json_hex(j, "status", c->flexbus.status);
		json_bool(j, "cache", c->flexbus.status & CXL_FLEXBUS_CACHE);
		json_bool(j, "io", c->flexbus.status & CXL_FLEXBUS_IO);
		json_bool(j, "mem", c->flexbus.status & CXL_FLEXBUS_MEM);
		json_close(j);
	}
	json_arr(j, "register_blocks");
	for (int k = 0; k < c->nblocks; k++) {
		const struct cxl_regblock *b = &c->block[k];
		json_obj(j, NULL);
		json_u64(j, "bir", b->bir);
		json_u64(j, "block_id", b->id);
		json_str(j, "name", cxl_block_name(b->id) ? cxl_block_name(b->id) : "reserved");
		json_hex(j, "offset", b->offset);
		json_hex(j, "bar_base", b->bar_base);
		json_hex(j, "bar_size", b->bar_size);
		json_hex(j, "addr", b->addr);
		json_str(j, "defect", b->defect[0] ? b->defect : NULL);
		json_close(j);
	}
	json_close(j);
	cxl_component_to_json(&c->comp, "component", j);
	json_ras(j, &c->comp);
	json_arr(j, "cpmu");
	for (int k = 0; k < c->ncpmu && k < CXL_MAX_CPMU; k++) {
		const struct cxl_cpmu *p = &c->cpmu[k].pmu;
		json_obj(j, NULL);
		json_hex(j, "addr", p->base);
		json_bool(j, "usable", c->cpmu[k].ok);
		json_hex(j, "capability", p->cap);
		json_u64(j, "counters", p->ncounters);
		json_u64(j, "counter_width", p->width);
		json_u64(j, "event_capabilities", p->nevcaps);
		json_hex(j, "filters", p->filters);
		json_arr(j, "counter_types");
		for (int n = 0; n < p->ncounters && n < CXL_CPMU_MAX_COUNTERS; n++)
			json_str(j, NULL, p->ctr[n].type == CXL_CPMU_FIXED ? "fixed" : p->ctr[n].type == CXL_CPMU_CONFIGURABLE ?
				 "configurable" : p->ctr[n].type == CXL_CPMU_FREE_RUNNING ? "free_running" : "reserved");
		json_close(j);
		json_arr(j, "event_groups");
		for (int e = 0; e < p->nevcaps && e < CXL_CPMU_MAX_EVCAPS; e++) {
			json_obj(j, NULL);
			json_hex(j, "vid", p->evcap[e].vid);
			json_hex(j, "gid", p->evcap[e].gid);
			json_hex(j, "supported", p->evcap[e].supported);
			json_close(j);
		}
		json_close(j);
		json_str(j, "why", p->why[0] ? p->why : NULL);
		json_close(j);
	}
	json_close(j);
	json_devregs(j, &c->devregs);
	json_arr(j, "defects");
	for (int i = 0; i < c->ndefects && i < CXL_MAX_DEFECTS; i++)
		json_str(j, NULL, c->defects[i]);
	json_close(j);
	json_u64(j, "ndefects", (uint64_t)c->ndefects);
}

void cxl_host_bridge_to_json(const struct acpi_cedt_chbs *h, const struct cxl_component *c, const char *defect,
			     struct json *j)
{
	json_hex(j, "uid", h->uid);
	json_u64(j, "cxl_version", h->version);
	json_hex(j, "base", h->base);
	json_hex(j, "length", h->length);
	cxl_component_to_json(c, "component", j);
	json_str(j, "defect", defect && defect[0] ? defect : NULL);
}

static void size_str(char *b, size_t n, uint64_t v)
{
	if (v && !(v % (1ull << 30)))
		fmt_snprintf(b, n, "%llu GiB", (unsigned long long)(v >> 30));
	else if (v && !(v % (1ull << 20)))
		fmt_snprintf(b, n, "%llu MiB", (unsigned long long)(v >> 20));
	else
		fmt_snprintf(b, n, "0x%llx", (unsigned long long)v);
}

int cxl_decoder_line(const struct cxl_component *c, int depth, int i, char *buf, size_t n)
{
	if (!c->hdm.present || i < 0 || (uint32_t)i >= c->hdm.count || i >= CXL_HDM_MAX_DECODERS)
		return 0;
	const struct cxl_hdm_decoder *d = &c->hdm.dec[i];
	char sz[24];
	size_str(sz, sizeof(sz), d->size);
	fmt_snprintf(buf, n, "%*sdecoder %d: 0x%llx + %s, %u way(s) x %u B, %s%s%s%s", depth * 2, "", i,
		     (unsigned long long)d->base, sz, d->ways, d->granularity,
		     d->committed ? "committed" : "not committed", d->error ? ", commit error" : "",
		     d->overlap[0] ? ", " : "", d->overlap);
	return 1;
}

int cxl_func_line(const struct cxl_func *c, int depth, int i, char *buf, size_t n)
{
	char bdf[16];
	pcie_bdf_str(c->addr, bdf, sizeof(bdf));
	int pad = depth * 2;
	if (i == 0) {
		char blocks[96] = "";
		struct strbuf sb;
		sb_init(&sb, blocks, sizeof(blocks));
		for (int k = 0, shown = 0; k < c->nblocks; k++)
			if (c->block[k].id != CXL_RBI_EMPTY)   /* an unused Register Locator entry */
				sb_printf(&sb, "%s%s@BAR%u+0x%llx%s", shown++ ? " " : "", cxl_block_name(c->block[k].id) ?
					  cxl_block_name(c->block[k].id) : "reserved", c->block[k].bir,
					  (unsigned long long)c->block[k].offset, c->block[k].defect[0] ? "(unread)" : "");
		fmt_snprintf(buf, n, "%*s%s %s%s%s  blocks: %s", pad, "", bdf, role(c->port_type),
			     c->flexbus.present ? (c->flexbus.status & CXL_FLEXBUS_MEM ? "  CXL.io+mem" : "  CXL.io") : "",
			     c->dev.present && c->dev.mem_capable ? "  Mem_Capable" : "", blocks[0] ? blocks : "none");
		return 1;
	}
	i--;
	if (c->comp.present && i < (int)c->comp.hdm.count && i < CXL_HDM_MAX_DECODERS)
		return cxl_decoder_line(&c->comp, depth + 1, i, buf, n);
	if (c->comp.present && c->comp.hdm.present)
		i -= (int)c->comp.hdm.count;
	const struct cxl_devregs *d = &c->devregs;
	if (i == 0 && d->present) {
		char cap[24], vol[24];
		size_str(cap, sizeof(cap), d->id.total);
		size_str(vol, sizeof(vol), d->id.volatile_only);
		if (d->cmd_identify.ok)
			fmt_snprintf(buf, n, "%*smemdev: %s total (volatile-only %s), FW '%s', LSA %u B, media %s", pad + 2, "",
				     cap, vol, d->id.fw_revision, d->id.lsa_size,
				     media_names[(d->memdev_status >> CXL_MEMDEV_MEDIA_SHIFT) & CXL_MEMDEV_MEDIA_MASK]);
		else
			fmt_snprintf(buf, n, "%*smemdev: Identify Memory Device: %s", pad + 2, "", d->cmd_identify.why);
		return 1;
	}
	if (i == 1 && d->present) {
		if (d->cmd_health.ok)
			fmt_snprintf(buf, n, "%*shealth: life used %u%%, %d C, corrected errors %u volatile %u persistent; "
				     "events %u/%u/%u/%u", pad + 2, "", d->health.life_used, d->health.temperature,
				     d->health.corrected_volatile, d->health.corrected_persistent, d->ev[0].count,
				     d->ev[1].count, d->ev[2].count, d->ev[3].count);
		else
			fmt_snprintf(buf, n, "%*shealth: Get Health Info: %s; events %u/%u/%u/%u", pad + 2, "", d->cmd_health.why,
				     d->ev[0].count, d->ev[1].count, d->ev[2].count, d->ev[3].count);
		return 1;
	}
	if (d->present)
		i -= 2;
	if (i >= 0 && i < c->ncpmu && i < CXL_MAX_CPMU) {
		const struct cxl_cpmu *p = &c->cpmu[i].pmu;
		if (c->cpmu[i].ok)
			fmt_snprintf(buf, n, "%*scpmu at 0x%llx: %u counters x %u bits, %u event groups, filters 0x%x", pad + 2, "",
				     (unsigned long long)p->base, p->ncounters, p->width, p->nevcaps, p->filters);
		else
			fmt_snprintf(buf, n, "%*scpmu at 0x%llx: not usable: %s", pad + 2, "", (unsigned long long)p->base, p->why);
		return 1;
	}
	i -= c->ncpmu < CXL_MAX_CPMU ? c->ncpmu : CXL_MAX_CPMU;
	if (i >= 0 && i < c->ndefects && i < CXL_MAX_DEFECTS) {
		fmt_snprintf(buf, n, "%*sdefect: %s", pad + 2, "", c->defects[i]);
		return 1;
	}
	return 0;
}
