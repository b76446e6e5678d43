/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of Intel IMC and IIO PMON boxes for host tests: one struct hw that answers
 * MSRs (IIO, global control, CPU_BUS_NUMBER) through tests/model/hw_model, PCI configuration
 * space (SKX IMC channels, the ICX memory-controller and SAD functions, root ports) through
 * tests/model/pci_model, and MMIO (ICX IMC boxes) from its own table. Addresses are written
 * here on their own from Linux arch/x86/events/intel/uncore_snbep.c (literal numbers, not
 * pmu/uncore/intel_uncore.c's tables):
 *
 *   SKX IMC (PCI, per channel function): BOX_CTL 0xF4, CTL i 0xD8 + 4i, CTR i 0xA0 + 8i (low
 *           dword) and + 4 (high dword); 48-bit counters.
 *   ICX IMC (MMIO): box of channel c of IMC m at base_m + 0x22800 + 0x4000 c: BOX_CTL +0 and
 *           CTL i +0x40 + 4i (32-bit), CTR i +0x08 + 8i (64-bit).
 *   IIO (MSR): SKX BOX_CTL 0xA40 + 0x20 s, ICX {0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20}[s],
 *           SPR 0x3000 + 0x10 s (Intel SPR uncore PMON manual, IIO MSRs); CTL i at +8 + i,
 *           CTR i at +1 + i.
 *   SPR discovery (Linux arch/x86/events/intel/uncore_discovery.h): a function 8086:09A7 with
 *           a DVSEC (extended capability 0x23 at 0x100, DVSEC ID 1 at 0x108, BIR 0 at 0x10C)
 *           and BAR 0 = the table: global entry (stride 4 x 8 bytes, max_units [25:16]), then
 *           one entry per unit: q0 num_regs 4 | ctl_offset << 8 | width 48 << 16 |
 *           ctr_offset << 24 | access << 62, q1 the unit control, q2 box_type | box_id << 16.
 *           IMC units (type 6, MMIO) are boxes laid out as ICX's (CTL +0x40, CTR +0x08); IIO
 *           units (type 1, MSR) as above; one CHA unit (type 0, id 1) the code must pass over. The
 *           generic unit control freezes with bit 0 (Linux GENERIC_PMON_BOX_CTL_FRZ).
 *           MSM 8086:09A6: CPUBUSNO_VALID 0x1A0, CPUBUSNO0-3 0x190 + 4 i, 4-7 0x1C0 + 4 i; PCU
 *           8086:325B at device 0x1E function 3: CAPID4 0x94 (Intel PCM src/pcm-iio-pmu.h).
 *
 *   ICX IMC free-running counters (icx_imc_freerunning, icx_uncore_imc_free_running): one box
 *           per memory controller m at base_m itself: DDR read +0x2290, DDR write +0x2298, DCLK
 *           +0x22B0, 64-bit, read-only (a write is refused and counted in free_writes), 48 bits.
 *
 * Every PCI and MMIO access is numbered and fault-injected with hw_model's fail_at /
 * fail_sticky / fail_writes_only, in one sequence with the MSR accesses.
 *
 * Scripted traffic: each hw_model_tick() adds per_tick to every counter that counts its class:
 * the box not frozen (BOX_CTL FRZ bit 8 with FRZ_EN bit 16), CTL EN bit 22, CTL event and umask
 * equal to the class's, and for IIO the class's part bit set in ch_mask (SKX CTL 43:36, ICX
 * 47:36) with fc_mask (SKX 46:44, ICX 50:48) 7. Counters wrap at 48 bits.
 */
#ifndef EFIPERF_INTEL_UNCORE_MODEL_H
#define EFIPERF_INTEL_UNCORE_MODEL_H

#include "tests/model/hw_model.h"
#include "tests/model/pci_model.h"

#define IU_MODEL_MAX_MMIO 256
#define IU_MODEL_MAX_TRAFFIC 32

enum iu_layout { IU_SKX, IU_ICX, IU_SPR };
enum iu_box { IU_IMC, IU_IIO, IU_IMC_FREE };
/* IU_IMC_FREE traffic: umask as Linux's imc_free_running events (read 0x20, write 0x21), unit =
 * the memory controller's position in imc_free_base[]; per_tick counts (64 bytes each). */
#define IU_FREE_READ 0x20
#define IU_FREE_WRITE 0x21

struct iu_traffic {
	uint8_t box;           /* enum iu_box */
	uint8_t socket;        /* IIO: socket (the MSRs of the CPU doing the work) */
	uint8_t unit;          /* IMC channel index (position in the model's channel list) / IIO stack */
	uint8_t part;          /* IIO part */
	uint8_t event, umask;
	uint64_t per_tick;
};

struct iu_mmio { uint64_t addr; uint64_t value; uint8_t wide; };

struct intel_uncore_model {
	struct hw_model m;
	struct pci_model pci;
	enum iu_layout layout;
	struct iu_mmio mmio[IU_MODEL_MAX_MMIO];
	unsigned nmmio;
	/* IMC channel boxes in order: PCI function (SKX) or MMIO box base (ICX) */
	struct hw_pci_addr imc_fn[16];
	uint64_t imc_base[16];
	unsigned nimc;
	uint64_t imc_free_base[4];      /* ICX: each populated memory controller's MMIO block */
	unsigned nimc_free;
	unsigned free_writes;           /* writes to a free-running counter (refused) */
	struct iu_traffic t[IU_MODEL_MAX_TRAFFIC];
	unsigned ntraffic;
	unsigned pci_accesses, mmio_accesses;
};

void iu_model_init(struct intel_uncore_model *u, enum iu_layout layout);
struct hw iu_model_hw(struct intel_uncore_model *u);
/* SKX: an IMC channel function at bus:dev.fn with Device ID did (registers zero). */
void iu_model_skx_channel(struct intel_uncore_model *u, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t did);
/* ICX: the memory-controller function 8086:3451 at bus:00.1 with base register 0xD0 = base_reg
 * and IMC offset registers 0xD8 + 4 m = mem[m] (m < 4); a non-zero mem[m] adds 3 channel boxes. */
void iu_model_icx_mc(struct intel_uncore_model *u, uint8_t bus, uint32_t base_reg, const uint32_t mem[4]);
/* IIO boxes of nstacks stacks (MSRs), and the global control 0x700 and MSR 0x300 = cpubusno. */
void iu_model_iio(struct intel_uncore_model *u, unsigned nstacks, uint64_t cpubusno);
/* SPR: the discovery function at bus:00.1 with its table at table_base listing nimc IMC units
 * (box i at imc_base + 0x4000 i, ids 0..) and nstacks IIO units (MSRs as iu_model_iio, which
 * this calls), plus a CHA unit. */
void iu_model_spr_discovery(struct intel_uncore_model *u, uint8_t bus, uint64_t table_base, unsigned nimc,
			    uint64_t imc_base, unsigned nstacks);
/* SPR: the MSM function at bus:03.0 with CPUBUSNO_VALID = valid and CPUBUSNO0-7 = busno[], and
 * the PCU function 8086:325B at bus:1E.3 with CAPID4 (0x94) = capid4 (physical chop bits 7:6). */
void iu_model_spr_msm(struct intel_uncore_model *u, uint8_t bus, uint32_t valid, const uint32_t busno[8],
		      uint32_t capid4);
void iu_model_add(struct intel_uncore_model *u, struct iu_traffic t);
/* The MMIO register at addr, or NULL. */
struct iu_mmio *iu_model_mmio(struct intel_uncore_model *u, uint64_t addr);
/* 1 when MSR id / MMIO addr / PCI offset off is a counter (read only by the code: never restored). */
int iu_model_is_counter_msr(const struct intel_uncore_model *u, uint32_t id);
int iu_model_is_counter_off(uint64_t off_in_box);

#endif
