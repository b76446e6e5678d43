/* SPDX-License-Identifier: BSD-2-Clause */
/* Vector state across the CPUs efiperf uses (efi/measure/vec_run.h). Uses the arch backend
 * (arch_vec_ops, arch_vec_plan): firmware-side only, not in the host tests. */
#include <string.h>
#include "arch/arch.h"
#include "efi/measure/vec_run.h"
#include "efi/cleanup.h"
#include "arch/kernel.h"
#include "arch/lib/fmt.h"

static void cleanup(void *arg)
{
	vec_run_restore(arg);
}

int vec_run_enable(const struct hw *hw, struct vec_run *v, const struct window_cpu *cpus, int n)
{
	memset(v, 0, sizeof(*v));
	v->hw = hw;
	v->slot = -1;
	v->n = n > WINDOW_MAX_CPUS ? WINDOW_MAX_CPUS : n;
	arch_vec_plan(hw, &v->plan);
	v->isa_firmware = arch_kernel_isa();
	int failed = 0;
	v->active = 1;
	v->slot = cleanup_push(cleanup, v);
	for (int i = 0; i < v->n; i++) {
		struct vec_job *jb = &v->jobs[i];
		jb->ops = &arch_vec_ops;
		jb->plan = &v->plan;
		jb->c.cpu = cpus[i].cpu;
		hw_status st = hw_run_on_cpu(hw, cpus[i].cpu, vec_enable_entry, jb);
		if (st != HW_OK && !jb->ran) {
			jb->c.st = st;
			jb->c.failed = "run on the CPU";
		}
		if (jb->c.enabled)
			v->enabled++;
		else if (!v->plan.why || jb->c.failed)
			failed++;
	}
	v->isa_enabled = arch_kernel_isa();
	return failed;
}

int vec_run_restore(struct vec_run *v)
{
	if (!v->active)
		return v->n - v->restored;
	v->active = 0;
	v->restored = 0;
	for (int i = 0; i < v->n; i++) {
		struct vec_job *jb = &v->jobs[i];
		jb->ran = 0;
		if (!jb->c.ctl_written && !jb->c.xcr_written) {
			jb->c.restored = 1;   /* nothing written on it */
			jb->c.ctl_back = jb->c.ctl_fw;
			jb->c.xcr_back = jb->c.xcr_fw;
		} else {
			hw_status st = hw_run_on_cpu(v->hw, jb->c.cpu, vec_restore_entry, jb);
			if (st != HW_OK && !jb->ran) {
				jb->c.restored = 0;
				jb->c.st = st;
				jb->c.failed = "run restore on the CPU";
			}
		}
		v->restored += jb->c.restored;
	}
	if (v->slot >= 0)
		cleanup_pop(v->slot);
	v->slot = -1;
	v->isa_after = arch_kernel_isa();
	return v->n - v->restored;
}

const char *vec_isa_list(uint32_t mask, char *buf, unsigned size)
{
	size_t at = 0;
	buf[0] = 0;
	for (uint32_t bit = 1; bit && at < size; bit <<= 1)
		if (mask & bit)
			at += fmt_snprintf(buf + at, size - at, "%s%s", at ? " " : "", kernel_isa_name(bit));
	return buf;
}

void vec_run_json(struct json *j, const char *key, const struct vec_run *v)
{
	char isa[64];
	const struct vec_cpu *b = v->n ? &v->jobs[0].c : NULL;
	json_obj(j, key);
	json_str(j, "ctl_register", v->plan.ctl_name);
	json_str(j, "xcr_register", v->plan.xcr_name);
	json_hex(j, "supported", v->plan.supported);
	json_str(j, "why_not", v->plan.why);
	json_u64(j, "cpus", (uint64_t)v->n);
	json_obj(j, "firmware");
	if (b) {
		json_hex(j, "ctl", b->ctl_fw);
		if (b->xcr_fw_valid)
			json_hex(j, "xcr", b->xcr_fw);
		else
			json_null(j, "xcr");
	}
	json_str(j, "kernel_isa", vec_isa_list(v->isa_firmware, isa, sizeof(isa)));
	json_close(j);
	json_obj(j, "efiperf_enabled");
	json_hex(j, "ctl_set", v->plan.ctl_set);
	json_hex(j, "ctl_clear", v->plan.ctl_clear);
	json_hex(j, "xcr_set", v->plan.xcr_set);
	if (b && (b->ctl_written || b->xcr_written || b->enabled)) {
		json_hex(j, "ctl", b->ctl_on);
		json_hex(j, "xcr", b->xcr_on);
	}
	json_bool(j, "changed", b && b->enabled && (b->ctl_on != b->ctl_fw || b->xcr_on != b->xcr_fw));
	json_u64(j, "cpus", (uint64_t)v->enabled);
	json_str(j, "kernel_isa", vec_isa_list(v->isa_enabled, isa, sizeof(isa)));
	json_close(j);
	json_obj(j, "restored");
	json_bool(j, "all", !v->active && v->restored == v->n);
	json_u64(j, "cpus", (uint64_t)v->restored);
	if (b && !v->active) {
		json_hex(j, "ctl_read_back", b->ctl_back);
		if (b->xcr_fw_valid)
			json_hex(j, "xcr_read_back", b->xcr_back);
		json_str(j, "kernel_isa", vec_isa_list(v->isa_after, isa, sizeof(isa)));
	}
	json_close(j);
	json_arr(j, "failures");
	for (int i = 0; i < v->n; i++) {
		const struct vec_cpu *c = &v->jobs[i].c;
		if (!c->failed)
			continue;
		json_obj(j, NULL);
		json_u64(j, "cpu", c->cpu);
		json_str(j, "step", c->failed);
		json_str(j, "status", hw_status_name(c->st));
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

static int attach_enable(struct attachment *a, const struct hw *hw)
{
	struct vec_attach *va = a->self;
	vec_run_enable(hw, &va->v, va->cpus, va->n);
	return 0;
}

static int attach_restore(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	struct vec_attach *va = a->self;
	va->not_restored = vec_run_restore(&va->v);
	return va->not_restored ? -1 : 0;
}

const struct attachment_ops vec_attach_ops = { .kind = "vector_state", .prepare = attach_enable,
					       .restore = attach_restore };
