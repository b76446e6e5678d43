/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the uncore discovery table parser (pmu/uncore/intel_discovery.c) over
 * arbitrary bytes as the table, then the IMC / IIO units and the IIO map of every discovery
 * platform (pmu/uncore/intel_uncore_disc.c) from what it kept. Beyond not crashing: counts stay
 * within their arrays, every kept unit is well-formed (known access, 1..64-bit counters, no
 * (type, id) twice), units of a type come out in ascending box id, and every defect and reason
 * is a terminated string.
 *   bytes 0..3   the MSM CPUBUSNO_VALID value for the map; bytes 4..35 the eight CPUBUSNO dwords
 *   bytes 36..   the table (little-endian 64-bit words from the global entry on)
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "pmu/uncore/intel_discovery.h"
#include "pmu/uncore/intel_uncore.h"

#define HDR 36

static struct disc_table t;

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < HDR)
		return 0;
	uint32_t valid = rd32(data), busno[8];
	for (int i = 0; i < 8; i++)
		busno[i] = rd32(data + 4 + 4 * i);
	disc_table_bytes(data + HDR, size - HDR);
	int rc = disc_parse(data + HDR, size - HDR, &t);
	assert(t.nunits <= DISC_MAX_UNITS);
	for (uint32_t d = 0; d < t.ndefects && d < DISC_MAX_DEFECTS; d++)
		assert(memchr(t.defect[d], 0, sizeof(t.defect[d])));
	if (rc)
		assert(t.ndefects && !t.nunits);
	for (uint32_t i = 0; i < t.nunits; i++) {
		const struct disc_unit *u = &t.unit[i];
		assert(u->access < DISC_ACCESS_UNKNOWN && u->num_regs && u->bit_width && u->bit_width <= 64);
		assert(disc_find(&t, u->box_type, u->box_id) == (int)i);
	}
	uint32_t idx[DISC_MAX_UNITS];
	uint32_t n = disc_units_of(&t, 1, idx, DISC_MAX_UNITS);
	for (uint32_t i = 1; i < n; i++)
		assert(t.unit[idx[i - 1]].box_id < t.unit[idx[i]].box_id);
	for (size_t k = 0; k < intel_uncore_nplatforms; k++) {
		const struct intel_uncore_platform *p = &intel_uncore_platforms[k];
		if (!p->discovery)
			continue;
		for (int b = 0; b < INTEL_NBOX; b++) {
			struct intel_unit u[32];
			struct uncore_box_type ty;
			uint32_t nu = 0;
			char why[200];
			memset(why, 'x', sizeof(why));
			int r = intel_disc_units(p, (enum intel_box)b, &t, 0, u, 32, &nu, &ty, why, sizeof(why));
			assert(memchr(why, 0, sizeof(why)));
			assert(r ? !nu && why[0] : nu >= 1 && nu <= 32);
			assert(ty.num_counters <= BOX_MAX_COUNTERS);
			for (uint32_t i = 0; i < nu; i++)
				assert(u[i].unit < p->box[b].type->max_boxes);
		}
		struct iio_map m;
		iio_map_from_discovery(p, &t, (uint8_t)(valid >> 30), valid, busno, &m);
		assert(m.nstacks <= IIO_MAX_STACKS && memchr(m.why, 0, sizeof(m.why)));
		for (uint32_t d = 0; d < m.ndefects && d < IIO_MAX_DEFECTS; d++)
			assert(memchr(m.defect[d], 0, sizeof(m.defect[d])));
	}
	return 0;
}
