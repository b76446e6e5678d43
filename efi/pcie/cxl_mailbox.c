/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CXL device registers and the primary mailbox (CXL 3.1 8.2.8), read-only commands only:
 * Identify Memory Device (8.2.9.9.1.1), Get Partition Info (8.2.9.9.2.1), Get Health Info
 * (8.2.9.9.3.1) and Get Event Records (8.2.9.2.2) of each of the four logs, without Clear Event
 * Records, so the device's logs are as found after the run. See efi/pcie/cxl.h.
 */
#include <string.h>

#include "efi/pcie/cxl.h"
#include "efi/pcie/cxl_internal.h"
#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

static const char *const rc_names[] = {
	"Success", "Background Command Started", "Invalid Input", "Unsupported", "Internal Error",
	"Retry Required", "Busy", "Media Disabled", "FW Transfer in Progress", "FW Transfer Out of Order",
	"FW Verification Failed", "Invalid Slot", "Activation Failed, FW Rolled Back",
	"Activation Failed, Cold Reset Required", "Invalid Handle", "Invalid Physical Address",
	"Inject Poison Limit Reached", "Permanent Media Failure", "Aborted", "Invalid Security State",
	"Incorrect Passphrase", "Unsupported Mailbox or CCI", "Invalid Payload Length",
};

const char *cxl_rc_name(uint16_t rc)
{
	return rc < sizeof(rc_names) / sizeof(rc_names[0]) ? rc_names[rc] : NULL;
}

#define DWORD 4u

void cxl_mbox_cmd(const struct cxl_env *env, const struct cxl_devregs *d, uint64_t mbox, uint16_t opcode,
		  const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_cap, struct cxl_mbox_result *r)
{
	const struct hw *h = env->hw;
	memset(r, 0, sizeof(*r));
	r->tried = 1;
	uint32_t ctrl;
	hw_status st;
	if (in_len > d->payload_bytes) {
		fmt_snprintf(r->why, sizeof(r->why), "input of %u bytes exceeds the %u-byte payload", in_len, d->payload_bytes);
		return;
	}
	/* 8.2.8.4: software writes a command only while the doorbell is clear. */
	if ((st = hw_mmio_read32(h, mbox + CXL_MBOX_CTRL, &ctrl)) != HW_OK) {
		fmt_snprintf(r->why, sizeof(r->why), "Mailbox Control read: %s", hw_status_name(st));
		return;
	}
	if (ctrl & CXL_MBOX_CTRL_DOORBELL) {
		fmt_snprintf(r->why, sizeof(r->why), "mailbox busy: doorbell already set");
		return;
	}
	for (uint32_t o = 0; o < in_len; o += DWORD) {
		uint8_t w[DWORD] = { 0 };
		memcpy(w, in + o, in_len - o < DWORD ? in_len - o : DWORD);
		if ((st = hw_mmio_write32(h, mbox + CXL_MBOX_PAYLOAD + o, le32(w))) != HW_OK) {
			fmt_snprintf(r->why, sizeof(r->why), "payload write: %s", hw_status_name(st));
			return;
		}
	}
	uint64_t cmd = opcode | ((uint64_t)in_len & CXL_MBOX_CMD_LEN_MASK) << CXL_MBOX_CMD_LEN_SHIFT;
	if ((st = hw_mmio_write64(h, mbox + CXL_MBOX_CMD, cmd)) != HW_OK ||
	    (st = hw_mmio_write32(h, mbox + CXL_MBOX_CTRL, ctrl | CXL_MBOX_CTRL_DOORBELL)) != HW_OK) {
		fmt_snprintf(r->why, sizeof(r->why), "Command/Doorbell write: %s", hw_status_name(st));
		return;
	}
	uint64_t t0 = env->now(env->arg), limit = env->hz / 1000 * CXL_MBOX_TIMEOUT_MS;
	for (;;) {
		if ((st = hw_mmio_read32(h, mbox + CXL_MBOX_CTRL, &ctrl)) != HW_OK) {
			fmt_snprintf(r->why, sizeof(r->why), "Mailbox Control read: %s", hw_status_name(st));
			return;
		}
		if (!(ctrl & CXL_MBOX_CTRL_DOORBELL))
			break;
		if (env->now(env->arg) - t0 > limit) {
			fmt_snprintf(r->why, sizeof(r->why), "doorbell still set after %u ms", CXL_MBOX_TIMEOUT_MS);
			return;
		}
	}
	uint64_t status;
	if ((st = hw_mmio_read64(h, mbox + CXL_MBOX_STATUS, &status)) != HW_OK ||
	    (st = hw_mmio_read64(h, mbox + CXL_MBOX_CMD, &cmd)) != HW_OK) {
		fmt_snprintf(r->why, sizeof(r->why), "Status/Command read: %s", hw_status_name(st));
		return;
	}
	r->rc = (uint16_t)((status >> CXL_MBOX_STATUS_RC_SHIFT) & CXL_MBOX_STATUS_RC_MASK);
	if (r->rc) {
		const char *n = cxl_rc_name(r->rc);
		fmt_snprintf(r->why, sizeof(r->why), "return code 0x%x (%s)", r->rc, n ? n : "reserved");
		return;
	}
	r->out_len = (uint32_t)((cmd >> CXL_MBOX_CMD_LEN_SHIFT) & CXL_MBOX_CMD_LEN_MASK);
	if (r->out_len > d->payload_bytes) {
		fmt_snprintf(r->why, sizeof(r->why), "output length %u exceeds the %u-byte payload", r->out_len, d->payload_bytes);
		return;
	}
	memset(out, 0, out_cap);
	uint32_t take = r->out_len < out_cap ? r->out_len : out_cap;
	for (uint32_t o = 0; o < take; o += DWORD) {
		uint32_t v;
		if ((st = hw_mmio_read32(h, mbox + CXL_MBOX_PAYLOAD + o, &v)) != HW_OK) {
			fmt_snprintf(r->why, sizeof(r->why), "payload read: %s", hw_status_name(st));
			return;
		}
		uint8_t w[DWORD] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
		memcpy(out + o, w, take - o < DWORD ? take - o : DWORD);
	}
	r->ok = 1;
}

/* A command whose output must hold at least `need` bytes. */
static int run(const struct cxl_env *env, struct cxl_devregs *d, uint64_t mbox, uint16_t op, const uint8_t *in,
	       uint32_t in_len, uint8_t *out, uint32_t cap, uint32_t need, struct cxl_mbox_result *r)
{
	cxl_mbox_cmd(env, d, mbox, op, in, in_len, out, cap, r);
	if (r->ok && r->out_len < need) {
		r->ok = 0;
		fmt_snprintf(r->why, sizeof(r->why), "output of %u bytes is short of %u", r->out_len, need);
	}
	return r->ok;
}

#define OUT_CAP (CXL_EV_RECORDS + CXL_MAX_EVENTS * CXL_EV_RECORD_LEN)

static void mailbox_commands(const struct cxl_env *env, struct cxl_devregs *d, uint64_t mbox)
{
	uint8_t out[OUT_CAP];
	if (run(env, d, mbox, CXL_OP_IDENTIFY_MEMDEV, NULL, 0, out, sizeof(out), CXL_ID_LSA_SIZE + 4, &d->cmd_identify)) {
		memcpy(d->id.fw_revision, out + CXL_ID_FW_REVISION, CXL_ID_FW_REVISION_LEN);
		d->id.fw_revision[CXL_ID_FW_REVISION_LEN] = 0;
		for (int i = 0; i < CXL_ID_FW_REVISION_LEN; i++)   /* printable ASCII only: the record is UTF-8 */
			if (d->id.fw_revision[i] && (d->id.fw_revision[i] < 0x20 || d->id.fw_revision[i] > 0x7e))
				d->id.fw_revision[i] = '?';
		d->id.total = le64(out + CXL_ID_TOTAL_CAPACITY) * CXL_CAPACITY_UNIT;
		d->id.volatile_only = le64(out + CXL_ID_VOLATILE_ONLY) * CXL_CAPACITY_UNIT;
		d->id.persistent_only = le64(out + CXL_ID_PERSISTENT_ONLY) * CXL_CAPACITY_UNIT;
		d->id.partition_align = le64(out + CXL_ID_PARTITION_ALIGN) * CXL_CAPACITY_UNIT;
		for (int i = 0; i < CXL_EV_NLOGS; i++)
			d->id.log_size[i] = le16(out + CXL_ID_INFO_LOG_SIZE + 2 * i);
		d->id.lsa_size = le32(out + CXL_ID_LSA_SIZE);
	}
	if (run(env, d, mbox, CXL_OP_GET_PARTITION_INFO, NULL, 0, out, sizeof(out), CXL_PI_LEN, &d->cmd_partition)) {
		d->part.active_volatile = le64(out + CXL_PI_ACTIVE_VOLATILE) * CXL_CAPACITY_UNIT;
		d->part.active_persistent = le64(out + CXL_PI_ACTIVE_PERSISTENT) * CXL_CAPACITY_UNIT;
		d->part.next_volatile = le64(out + CXL_PI_NEXT_VOLATILE) * CXL_CAPACITY_UNIT;
		d->part.next_persistent = le64(out + CXL_PI_NEXT_PERSISTENT) * CXL_CAPACITY_UNIT;
	}
	if (run(env, d, mbox, CXL_OP_GET_HEALTH_INFO, NULL, 0, out, sizeof(out), CXL_HI_LEN, &d->cmd_health)) {
		d->health.health_status = out[CXL_HI_HEALTH_STATUS];
		d->health.media_status = out[CXL_HI_MEDIA_STATUS];
		d->health.additional_status = out[CXL_HI_ADDITIONAL_STATUS];
		d->health.life_used = out[CXL_HI_LIFE_USED];
		d->health.temperature = (int16_t)le16(out + CXL_HI_TEMPERATURE);
		d->health.dirty_shutdowns = le32(out + CXL_HI_DIRTY_SHUTDOWNS);
		d->health.corrected_volatile = le32(out + CXL_HI_CORR_VOLATILE);
		d->health.corrected_persistent = le32(out + CXL_HI_CORR_PERSISTENT);
	}
	for (uint8_t log = 0; log < CXL_EV_NLOGS; log++) {
		if (!run(env, d, mbox, CXL_OP_GET_EVENT_RECORDS, &log, 1, out, sizeof(out), CXL_EV_RECORDS, &d->cmd_events[log]))
			continue;
		d->ev[log].flags = out[CXL_EV_FLAGS];
		d->ev[log].overflow_count = le16(out + CXL_EV_OVERFLOW_COUNT);
		d->ev[log].count = le16(out + CXL_EV_RECORD_COUNT);
		uint32_t kept = (d->cmd_events[log].out_len - CXL_EV_RECORDS) / CXL_EV_RECORD_LEN;
		for (uint32_t k = 0; k < d->ev[log].count && k < kept && k < CXL_MAX_EVENTS; k++) {
			const uint8_t *rec = out + CXL_EV_RECORDS + k * CXL_EV_RECORD_LEN;
			d->ev[log].handle[k] = le16(rec + CXL_EV_REC_HANDLE);
			d->ev[log].timestamp[k] = le64(rec + CXL_EV_REC_TIMESTAMP);
		}
	}
}

void cxl_read_devregs(const struct cxl_env *env, struct cxl_func *c, uint64_t addr, uint64_t len)
{
	struct cxl_devregs *d = &c->devregs;
	const struct hw *h = env->hw;
	hw_status st;
	uint64_t arr;
	d->addr = addr;
	if ((st = hw_mmio_read64(h, addr + CXL_DEV_CAP_ARRAY, &arr)) != HW_OK) {
		d->st = st;
		cxl_defect(c, "device registers at 0x%llx: %s", (unsigned long long)addr, hw_status_name(st));
		return;
	}
	d->present = 1;
	uint32_t n = (uint32_t)((arr >> CXL_DEV_CAP_COUNT_SHIFT) & CXL_DEV_CAP_COUNT_MASK);
	uint64_t mbox = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (d->ncaps >= CXL_MAX_DEV_CAPS) {
			cxl_defect(c, "more than %d device capabilities: the rest are not read", CXL_MAX_DEV_CAPS);
			break;
		}
		uint32_t id, off, clen;
		uint64_t hdr = CXL_DEV_CAP_HDR(i);
		if (hdr + CXL_DEV_CAP_HDR(0) > len) {
			cxl_defect(c, "device capability header %u runs past the BAR", i);
			break;
		}
		if ((st = hw_mmio_read32(h, addr + hdr, &id)) != HW_OK ||
		    (st = hw_mmio_read32(h, addr + hdr + CXL_DEV_CAP_HDR_OFFSET, &off)) != HW_OK ||
		    (st = hw_mmio_read32(h, addr + hdr + CXL_DEV_CAP_HDR_LENGTH, &clen)) != HW_OK) {
			d->st = st;
			cxl_defect(c, "device capability header %u: %s", i, hw_status_name(st));
			return;
		}
		int k = d->ncaps++;
		d->caps[k].id = (uint16_t)id;
		d->caps[k].version = (uint8_t)(id >> 16);
		d->caps[k].offset = off;
		d->caps[k].length = clen;
		if (off >= len || clen > len - off) {
			cxl_defect(c, "device capability 0x%x at 0x%x+0x%x runs past the BAR", d->caps[k].id, off, clen);
			continue;
		}
		uint64_t a = addr + off;
		uint64_t *v = d->caps[k].id == CXL_DEV_CAP_STATUS ? &d->event_status :
			      d->caps[k].id == CXL_DEV_CAP_MEMDEV ? &d->memdev_status : NULL;
		uint64_t reg = d->caps[k].id == CXL_DEV_CAP_STATUS ? CXL_DEV_EVENT_STATUS : CXL_MEMDEV_STATUS;
		if (v && (st = hw_mmio_read64(h, a + reg, v)) != HW_OK) {
			d->st = st;
			cxl_defect(c, "device capability 0x%x at 0x%llx: %s", d->caps[k].id, (unsigned long long)a,
				   hw_status_name(st));
			continue;
		}
		if (d->caps[k].id == CXL_DEV_CAP_STATUS)
			d->has_event_status = 1;
		else if (d->caps[k].id == CXL_DEV_CAP_MEMDEV)
			d->has_memdev = 1;
		else if (d->caps[k].id == CXL_DEV_CAP_PRIMARY_MBOX && !mbox && clen > CXL_MBOX_PAYLOAD)
			mbox = a;
	}
	if (!mbox)
		return;
	if ((st = hw_mmio_read32(h, mbox + CXL_MBOX_CAP, &d->mbox_cap)) != HW_OK) {
		cxl_defect(c, "Mailbox Capabilities read: %s", hw_status_name(st));
		return;
	}
	uint32_t lg = d->mbox_cap & CXL_MBOX_CAP_PAYLOAD_MASK;
	d->has_mbox = 1;
	d->payload_bytes = lg >= CXL_MBOX_PAYLOAD_MIN_LOG2 && lg <= CXL_MBOX_PAYLOAD_MAX_LOG2 ? 1u << lg : 0;
	uint64_t mbox_len = 0;
	for (int k = 0; k < d->ncaps; k++)
		if (addr + d->caps[k].offset == mbox)
			mbox_len = d->caps[k].length;
	if (!d->payload_bytes || CXL_MBOX_PAYLOAD + d->payload_bytes > mbox_len) {
		cxl_defect(c, "mailbox Payload Size 2^%u does not fit its capability (0x%llx bytes)", lg,
			   (unsigned long long)mbox_len);
		return;
	}
	if (!d->has_memdev || !(d->memdev_status & CXL_MEMDEV_MBOX_READY)) {
		const char *why = d->has_memdev ? "Mailbox Interfaces Ready is clear" : "no Memory Device Status register";
		struct cxl_mbox_result *all[] = { &d->cmd_identify, &d->cmd_partition, &d->cmd_health, &d->cmd_events[0],
						  &d->cmd_events[1], &d->cmd_events[2], &d->cmd_events[3] };
		for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			fmt_snprintf(all[i]->why, sizeof(all[i]->why), "not sent: %s", why);
		return;
	}
	if (!env->now || !env->hz) {
		cxl_defect(c, "no clock to bound the mailbox: commands not sent");
		return;
	}
	mailbox_commands(env, d, mbox);
}
