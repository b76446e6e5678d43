/* SPDX-License-Identifier: BSD-2-Clause */
/* Window and buffer members of the records (efi/out/window_json.h). */
#include <efi.h>
#include "efi/out/window_json.h"

void rec_quiet_json(struct json *j, int masked, hw_status smi_st, uint64_t smi_delta)
{
	json_bool(j, "interrupts_masked", masked);
	if (smi_st == HW_OK)
		json_u64(j, "smi_delta", smi_delta);
	else
		json_str(j, "smi_delta", hw_status_name(smi_st));
}

void rec_window_json(struct json *j, const char *key, uint64_t ticks, uint64_t ns, int masked, hw_status smi_st,
		     uint64_t smi_delta)
{
	json_obj(j, key);
	json_u64(j, "ticks", ticks);
	json_u64(j, "ns", ns);
	rec_quiet_json(j, masked, smi_st, smi_delta);
	json_close(j);
}

void rec_place_json(struct json *j, int32_t node, int local, const void *buf)
{
	if (node >= 0)
		json_u64(j, "node", (uint64_t)node);
	else
		json_null(j, "node");
	json_bool(j, "node_local", local);
	json_hex(j, "buffer", (uint64_t)(uintptr_t)buf);
	rec_target_json(j, buf);
}

static void (*target_writer)(struct json *j, const void *buf);

void rec_target_writer(void (*fn)(struct json *j, const void *buf))
{
	target_writer = fn;
}

void rec_target_json(struct json *j, const void *buf)
{
	if (target_writer)
		target_writer(j, buf);
}
