/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel IMC and IIO events per platform, named and encoded as Intel's perfmon event files give
 * them (github.com/intel/perfmon: SKX/events/skylakex_uncore.json v1.37, which Cascade Lake-SP's
 * CLX/events/cascadelakex_uncore.json v1.25 repeats; ICX/events/icelakex_uncore.json v1.30).
 * SPR/events/sapphirerapids_uncore.json v1.39, EMR/events/emeraldrapids_uncore.json v1.24,
 * GNR/events/graniterapids_uncore.json v1.20 with their _experimental files).
 * Names drop perfmon's UNC_M_ / UNC_IIO_ prefix. tests/unit/test_intel_uncore_oracle.c compares
 * every row with the extract of those files under tests/oracle/perfmon/.
 *
 * IMC: CAS_COUNT.RD / WR count 64-byte CAS commands. ICX moved the umasks (0x0F / 0x30, Linux
 * commit 96fd2e89 "perf/x86/intel/uncore: Fix the ICX IMC umasks", citing the Ice Lake Xeon
 * uncore PMON reference manual). SPR/EMR: event 0x05, RD 0xCF, WR 0xF0 (the umask's high bits
 * select the subchannel pair, perfmon PCH0 0x40 / PCH1 0x80). GNR counts each of a channel's two
 * subchannels with its own event: CAS_COUNT_SCH0 0x05, CAS_COUNT_SCH1 0x06 (same umasks); both
 * are DRAM reads / writes and their bytes add up. IIO: DATA_REQ_OF_CPU counts what a device moves to (MEM_WRITE)
 * or from (MEM_READ) memory, DATA_REQ_BY_CPU what the CPU moves to / from the device, in
 * 4-byte DWs, per part (root port; PortMask 1 << p, FCMask 7).
 */
#include "pmu/uncore/intel_uncore.h"

#define N(a) (uint16_t)(sizeof(a) / sizeof((a)[0]))

/* name, event, umask, ch_mask, fc_mask, role, part, default */
const struct intel_uncore_event intel_imc_skx[] = {
	{ "CAS_COUNT.RD", 0x04, 0x03, 0, 0, UNC_ROLE_DRAM_RD, 0, 1 },
	{ "CAS_COUNT.WR", 0x04, 0x0C, 0, 0, UNC_ROLE_DRAM_WR, 0, 1 },
	{ "CAS_COUNT.ALL", 0x04, 0x0F, 0, 0, UNC_ROLE_NONE, 0, 0 },
	{ "CLOCKTICKS", 0x00, 0x00, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_imc_skx_n = N(intel_imc_skx);

const struct intel_uncore_event intel_imc_icx[] = {
	{ "CAS_COUNT.RD", 0x04, 0x0F, 0, 0, UNC_ROLE_DRAM_RD, 0, 1 },
	{ "CAS_COUNT.WR", 0x04, 0x30, 0, 0, UNC_ROLE_DRAM_WR, 0, 1 },
	{ "CAS_COUNT.ALL", 0x04, 0x3F, 0, 0, UNC_ROLE_NONE, 0, 0 },
	{ "CLOCKTICKS", 0x00, 0x00, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_imc_icx_n = N(intel_imc_icx);

const struct intel_uncore_event intel_imc_spr[] = {
	{ "CAS_COUNT.RD", 0x05, 0xCF, 0, 0, UNC_ROLE_DRAM_RD, 0, 1 },
	{ "CAS_COUNT.WR", 0x05, 0xF0, 0, 0, UNC_ROLE_DRAM_WR, 0, 1 },
	{ "CAS_COUNT.ALL", 0x05, 0xFF, 0, 0, UNC_ROLE_NONE, 0, 0 },
	{ "CLOCKTICKS", 0x01, 0x01, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_imc_spr_n = N(intel_imc_spr);

const struct intel_uncore_event intel_imc_gnr[] = {
	{ "CAS_COUNT_SCH0.RD", 0x05, 0xCF, 0, 0, UNC_ROLE_DRAM_RD, 0, 1 },
	{ "CAS_COUNT_SCH0.WR", 0x05, 0xF0, 0, 0, UNC_ROLE_DRAM_WR, 0, 1 },
	{ "CAS_COUNT_SCH1.RD", 0x06, 0xCF, 0, 0, UNC_ROLE_DRAM_RD, 0, 1 },
	{ "CAS_COUNT_SCH1.WR", 0x06, 0xF0, 0, 0, UNC_ROLE_DRAM_WR, 0, 1 },
	{ "CAS_COUNT_SCH0.ALL", 0x05, 0xFF, 0, 0, UNC_ROLE_NONE, 0, 0 },
	{ "CAS_COUNT_SCH1.ALL", 0x06, 0xFF, 0, 0, UNC_ROLE_NONE, 0, 0 },
	{ "CLOCKTICKS", 0x01, 0x01, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_imc_gnr_n = N(intel_imc_gnr);

#define IN_RD(p) { "DATA_REQ_OF_CPU.MEM_READ.PART" #p, 0x83, 0x04, 1u << p, 7, UNC_ROLE_IO_RD, p, 1 }
#define IN_WR(p) { "DATA_REQ_OF_CPU.MEM_WRITE.PART" #p, 0x83, 0x01, 1u << p, 7, UNC_ROLE_IO_WR, p, 1 }
#define OB_RD(p) { "DATA_REQ_BY_CPU.MEM_READ.PART" #p, 0xC0, 0x04, 1u << p, 7, UNC_ROLE_OB_RD, p, 1 }
#define OB_WR(p) { "DATA_REQ_BY_CPU.MEM_WRITE.PART" #p, 0xC0, 0x01, 1u << p, 7, UNC_ROLE_OB_WR, p, 1 }
#define PARTS4(m) m(0), m(1), m(2), m(3)
#define PARTS8(m) PARTS4(m), m(4), m(5), m(6), m(7)

const struct intel_uncore_event intel_iio_skx[] = {
	PARTS4(IN_RD), PARTS4(IN_WR), PARTS4(OB_RD), PARTS4(OB_WR),
	{ "CLOCKTICKS", 0x01, 0x00, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_iio_skx_n = N(intel_iio_skx);

/* ICX, and as perfmon gives them for SPR, EMR and GNR too (same codes, umasks, PortMask, FCMask;
 * tests/unit/test_intel_uncore_oracle.c checks each platform's file) */
const struct intel_uncore_event intel_iio_icx[] = {
	PARTS8(IN_RD), PARTS8(IN_WR), PARTS8(OB_RD), PARTS8(OB_WR),
	{ "CLOCKTICKS", 0x01, 0x00, 0, 0, UNC_ROLE_CLOCKS, 0, 0 },
};
const uint16_t intel_iio_icx_n = N(intel_iio_icx);
