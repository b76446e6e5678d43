/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intel Xeon IMC (DRAM CAS) and IIO (per-stack, per-part PCIe bandwidth) as box types
 * (pmu/uncore/box.h) on the one box sequence, driven through the generic uncore request
 * (pmu/uncore/uncore.h). Per platform, as data:
 *
 *   uncore_imc  SKX/CLX: PCI configuration space of each channel's function (MC0 10.2, 10.6,
 *               11.2; MC1 12.2, 12.6, 13.2; 8086:2042/2046/204A): BOX_CTL 0xF4, CTL0-3
 *               0xD8 + 4i (32-bit), CTR0-3 0xA0 + 8i (48 bits read as two dwords).
 *               ICX: MMIO. The memory-controller device 8086:3451 gives the base:
 *               (cfg[0xD0] & 0x1FFFFFFF) << 23 | (cfg[0xD8 + 4 m] & 0x7FF) << 12 for IMC m, and
 *               channel c's box sits at base + 0x22800 + 0x4000 c: BOX_CTL +0, CTL0 +0x40
 *               (32-bit, step 4), CTR0 +0x08 (64-bit, step 8).
 *               (Linux arch/x86/events/intel/uncore_snbep.c skx_uncore_imc, skx_uncore_pci_ids,
 *               SNBEP_PCI_PMON_*, icx_uncore_imc, SNR_IMC_MMIO_*, ICX_NUMBER_IMC_CHN 3 (commit
 *               "perf/x86/intel/uncore: Fix the number of ICX IMC boxes" era, num_boxes 12);
 *               Intel Xeon Scalable (Skylake-SP) uncore PMON reference manual 336274, IMC chapter.)
 *   uncore_iio  MSRs, package scope. SKX: BOX_CTL 0xA40 + 0x20 i, CTL0 +8, CTR0 +1 (Linux
 *               SKX_IIO0_MSR_PMON_*); ICX: BOX_CTL {0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20}
 *               (Linux icx_msr_offsets + ICX_IIO_MSR_PMON_*). ch_mask/fc_mask: SKX config
 *               36-43 / 44-46, ICX config 36-47 / 48-50 (Linux format attributes ch_mask,
 *               fc_mask, ch_mask2, fc_mask2). 0x83 counts on counters 0-1, 0xC0 on 2-3 (Linux
 *               skx_/icx_uncore_iio_constraints; perfmon "Counter").
 *
 *   SPR, EMR, GNR: no fixed addresses. Each socket's uncore discovery table
 *               (pmu/uncore/intel_discovery.h) lists the IMC channels (box type 6, MMIO) and IIO
 *               stacks (box type 1, MSR) with their unit control address and geometry
 *               (intel_disc_units); the types here give the bits (generic unit control: FRZ bit
 *               0, RST bits 8 and 9; EN bit 22; IIO ch_mask / fc_mask as ICX).
 *
 * Events are named and encoded as Intel's perfmon files give them (github.com/intel/perfmon
 * SKX/events/skylakex_uncore.json v1.37, ICX/events/icelakex_uncore.json v1.30): CAS_COUNT.RD /
 * WR x 64 bytes; DATA_REQ_OF_CPU.MEM_READ / MEM_WRITE.PARTp (a device reads / writes memory)
 * and DATA_REQ_BY_CPU.MEM_READ / MEM_WRITE.PARTp (the CPU reads / writes the device) in 4-byte
 * units ("Number of DWs (4 bytes)"). Event strings use Linux's sysfs PMU and format names:
 * uncore_imc/event=0x4,umask=0x3/, uncore_iio_0/event=0x83,umask=0x4,ch_mask=0x1,fc_mask=0x7/.
 */
#ifndef EFIPERF_INTEL_UNCORE_H
#define EFIPERF_INTEL_UNCORE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/hw.h"
#include "pmu/uncore/uncore.h"
#include "pmu/event_string.h"

enum intel_box { INTEL_BOX_IMC, INTEL_BOX_IIO, INTEL_NBOX };

/* A named event (perfmon EventName without its UNC_M_ / UNC_IIO_ prefix). */
struct intel_uncore_event {
	const char *name;
	uint8_t event, umask;
	uint16_t ch_mask;             /* perfmon PortMask */
	uint8_t fc_mask;              /* perfmon FCMask */
	uint8_t role;                 /* enum unc_role */
	uint8_t part;                 /* IIO part (root port) of a per-part event */
	uint8_t dflt;                 /* in the default set */
};

struct intel_box_desc {
	const char *pmu;                          /* Linux sysfs prefix: "uncore_imc", "uncore_iio" */
	const struct uncore_box_type *type;
	const struct ev_field *fields;
	uint8_t nfields;
	const struct intel_uncore_event *events;
	uint16_t nevents;
	uint8_t bytes;                            /* bytes per count: 64 (CAS), 4 (IIO DW) */
	const char *prefix;                       /* perfmon name prefix: "UNC_M_", "UNC_IIO_" */
	const char *source;                       /* the perfmon file and version */
};

/* SKX IMC channel c: PCI function dev.func with this Device ID on the socket's bus. */
struct intel_imc_pci { uint8_t dev, func; uint16_t device; };

/* ICX IMC: the memory-controller function and its base registers. */
struct intel_imc_mmio {
	uint8_t dev, func;
	uint16_t device;
	uint16_t base_reg;                        /* 0xD0: base bits [28:0] << 23 */
	uint32_t base_mask;
	uint8_t base_shift;
	uint16_t mem0_reg;                        /* 0xD8 + 4 m: IMC m offset bits [10:0] << 12 */
	uint8_t mem_step;
	uint32_t mem_mask;
	uint8_t mem_shift;
	uint8_t nimc, chan_per_imc;
	uint32_t box_off, chan_stride;            /* channel c at base + box_off + c chan_stride */
};

enum intel_iio_map { IIO_MAP_NONE, IIO_MAP_CPUBUSNO_MSR, IIO_MAP_SAD_CONTROL, IIO_MAP_DISCOVERY };

/* SPR and later: the stacks' root buses, as the mesh-to-IIO (MSM) function holds them (Intel
 * PCM src/types.h SPR_MSM_*, src/utils.cpp get_cpu_bus: device 8086:09A6; CPUBUSNO_VALID
 * 0x1A0, bit k: CPU bus k is enabled; CPUBUSNO0-3 at 0x190 + 4 i and CPUBUSNO4-7 at 0x1C0 + 4 i,
 * one bus per byte: bus k in byte k % 4 of register k / 4). CPU bus k belongs to IIO PMON box
 * to_pmon[k] of the map for the die (MSM_NO_BOX: none, a defect when valid; MSM_NOT_IIO: a
 * bus the source names as no IIO stack's root, e.g. GNR's UBOX and accelerator sub-buses).
 * SPR's XCC and MCC dies number their boxes differently, told apart by the physical chop in
 * CAPID4 of the PCU function (PCM src/pcm-iio-pmu.h SPR_PCU_CR3_DID 8086:325B device 0x1E
 * function 3, SPR_CAPID4_OFFSET 0x94, chop bits 7:6: 3 XCC, 1 MCC; spr_xcc_ / spr_mcc_ /
 * emr_sad_to_pmu_id_mapping; GNR: src/pcm-iio-topology.cpp srf_sad_to_pmu_id_mapping). */
#define MSM_MAX_BUSES 32
#define MSM_MAX_MAPS 2
#define MSM_NO_CHOP 0xFF                          /* the platform has one map, no chop read */
#define MSM_NO_BOX 0xFF                           /* to_pmon: no box; valid bus = defect */
#define MSM_NOT_IIO 0xFE                          /* to_pmon: a known non-IIO bus, skipped */
struct intel_msm {
	uint16_t device;
	uint16_t valid_reg, busno_reg[2];         /* CPUBUSNO0 (buses 0-15), CPUBUSNO4 (16-31) */
	uint16_t chop_device;                     /* 0: one map, map[0] */
	uint8_t chop_dev, chop_func, chop_shift;
	uint16_t chop_reg;
	uint8_t nmaps;
	struct { uint8_t chop; const char *die; uint8_t to_pmon[MSM_MAX_BUSES]; } map[MSM_MAX_MAPS];
};

struct intel_uncore_platform {
	const char *name;                         /* "SKX" */
	const char *cpus;
	uint8_t models[4];                        /* family 6 */
	struct intel_box_desc box[INTEL_NBOX];
	const struct intel_imc_pci *imc_pci;      /* PCI-config IMC, or NULL */
	uint8_t nimc_pci;
	const struct intel_imc_mmio *imc_mmio;    /* MMIO IMC, or NULL */
	uint8_t nstacks;                          /* IIO stacks (PMON boxes) per socket */
	uint8_t iio_map;                          /* enum intel_iio_map */
	uint32_t cpubusno_msr;                    /* SKX: MSR 0x300 */
	uint16_t sad_device, sad_reg;             /* ICX: 8086:09A2, SAD_CONTROL_CFG 0x3F4 */
	uint8_t sad_to_pmon[8];                   /* ICX: SAD stack id -> IIO PMON box */
	uint8_t part_dev0, nparts;                /* root port of part p: device part_dev0 + p on the stack bus */
	/* discovery (SPR and later): IMC channels and IIO stacks are the units of these box types
	 * in each socket's uncore discovery table (pmu/uncore/intel_discovery.h); their counter
	 * count, width and CTL / CTR offsets come from the table, the bits from box[].type */
	uint8_t discovery;
	uint16_t disc_box_type[INTEL_NBOX];
	const struct intel_msm *msm;              /* IIO_MAP_DISCOVERY: the stacks' buses */
	const char *events_of;                    /* another row whose Intel files serve this one, or NULL */
};

extern const struct intel_uncore_platform intel_uncore_platforms[];
extern const size_t intel_uncore_nplatforms;
extern const struct intel_uncore_event intel_imc_skx[], intel_imc_icx[], intel_iio_skx[], intel_iio_icx[],
	intel_imc_spr[], intel_imc_gnr[];
extern const uint16_t intel_imc_skx_n, intel_imc_icx_n, intel_iio_skx_n, intel_iio_icx_n, intel_imc_spr_n,
	intel_imc_gnr_n;

const struct intel_uncore_platform *intel_uncore_platform_for(uint32_t family, uint32_t model);
const struct intel_uncore_platform *intel_uncore_platform_by_name(const char *name);
const struct intel_uncore_event *intel_uncore_event_find(const struct intel_box_desc *b, const char *name,
							 size_t len);

/* Box b's row of Intel's generated catalogue (pmu/events/gen_events.h: unit "imc" or "iio" of
 * the platform b belongs to) named name[0..len), with or without its UNC_M_ / UNC_IIO_ prefix:
 * 1 with *r filled, 0 when none. */
struct gen_row;
int intel_uncore_gen_find(const struct intel_box_desc *b, const char *name, size_t len, struct gen_row *r);
/* The catalogue unit ("imc", "iio") and platform (its events_of where set) of box b: 1, or 0
 * when b is no platform's box. */
int intel_uncore_gen_unit(const struct intel_box_desc *b, const char **unit, const char **plat);
/* `uncore_imc/TERMS/`, `uncore_iio_3/TERMS/` or a bare event name -> the CTL with the enable
 * bit; *box gets the N of a uncore_iio_N / uncore_imc_N prefix, or -1. 0, or -1 with why
 * naming the field. */
int intel_uncore_encode(const struct intel_box_desc *b, const char *spec, size_t len, uint64_t *ctl, int *box,
			const struct intel_uncore_event **named, char *why, size_t n);
/* The perf-style string of a named event ("uncore_iio/event=0x83,umask=0x4,ch_mask=0x1,fc_mask=0x7/"). */
size_t intel_uncore_event_spec(const struct intel_box_desc *b, const struct intel_uncore_event *e, char *buf,
			       size_t n);

/* One unit (IMC channel, IIO stack) to program: its socket, number and where its registers are. */
struct intel_unit {
	uint16_t socket, unit;
	struct box_site site;
};

/* A PCI function as a light scan of configuration space sees it (enough to find the IMC
 * functions and to check the IIO map against the tree). */
struct intel_pci_fn {
	struct hw_pci_addr a;
	uint16_t vendor, device;
	uint8_t bridge;                           /* header type 1 */
	uint8_t secondary, subordinate;
};

/* Scan segment `seg` buses lo..hi (vendor ID at offset 0, header type, bridge bus numbers):
 * up to max functions into out; returns how many. */
uint32_t intel_pci_scan(const struct hw *hw, uint16_t seg, uint8_t lo, uint8_t hi, struct intel_pci_fn *out,
			uint32_t max);

/* The IMC channels of the platform among the scanned functions: PCI (SKX: each channel's
 * function; sockets are the buses that have them, in ascending order) or MMIO (ICX: each
 * 8086:3451 function's base; an IMC whose offset register reads 0 is not populated). Up to
 * max units, *n of them. 0, or -1 with why saying what was looked for and not found. */
int intel_imc_find(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		   uint32_t nfns, struct intel_unit *u, uint32_t max, uint32_t *n, char *why, size_t wn);

/* ICX: one memory controller's MMIO block (base register | IMC m's offset register, before the
 * per-channel box offsets): the socket (rank of its bus), IMC number m and base address. */
#define INTEL_IMC_MAX_BLOCKS 16
struct intel_imc_block { uint16_t socket, imc; uint64_t base; };
/* The MMIO blocks of the populated IMCs of an MMIO platform (p->imc_mmio) among the scanned
 * functions, up to max, *n of them. 0, or -1 with why (as intel_imc_find). */
int intel_imc_blocks(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		     uint32_t nfns, struct intel_imc_block *out, uint32_t max, uint32_t *n, char *why, size_t wn);

/* IIO stack -> PCIe bus map of one socket. */
#define IIO_MAX_STACKS 16
#define IIO_MAX_DEFECTS 8
struct iio_map {
	uint8_t valid;                            /* the source gave a map */
	uint8_t method;                           /* enum intel_iio_map: where the map came from */
	char source[96];                          /* "MSR 0x300 CPU_BUS_NUMBER = 0x...", "SAD_CONTROL_CFG ..." */
	char why[120];                            /* when not valid */
	uint8_t nstacks;
	struct {
		uint8_t present;                  /* the map names a bus for this stack */
		uint8_t bus, bus_end;             /* root bus and the last bus before the next stack's */
		uint8_t nports;
		struct { uint8_t part, dev, func, secondary, subordinate; } port[UNC_MAX_PARTS];
	} stack[IIO_MAX_STACKS];
	uint8_t ndefects;
	char defect[IIO_MAX_DEFECTS][120];
};

/* Add a defect to the map (the first IIO_MAX_DEFECTS are kept, all are counted). */
void iio_map_defect(struct iio_map *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* SKX: decode MSR 0x300 (bit 63 valid; byte k = root bus of IIO box k; Linux uncore_snbep.c
 * SKX_MSR_CPU_BUS_NUMBER, skx_iio_stack). */
void iio_map_from_cpubusno(const struct intel_uncore_platform *p, uint64_t msr, struct iio_map *m);
/* ICX: each SAD function (bus, SAD_CONTROL_CFG value) of one socket: stack id [6:4] -> PMON box
 * through sad_to_pmon (Linux uncore_snbep.c sad_cfg_iio_topology, icx_sad_pmon_mapping). */
void iio_map_from_sad(const struct intel_uncore_platform *p, const uint8_t *bus, const uint32_t *sad, uint32_t n,
		      struct iio_map *m);
/* Bus ranges (each stack up to the next stack's root bus), root ports and parts from the
 * scanned tree, and the cross-check: a root port whose buses reach into another stack's range,
 * a part's root port missing, two stacks on one bus, bus 0 given to a stack other than 0 (SKX).
 * Each finding is a defect string; nothing is re-attributed. Returns the number of defects. */
uint32_t iio_map_check(const struct intel_uncore_platform *p, const struct intel_pci_fn *fns, uint32_t nfns,
		       struct iio_map *m);

/* The map of each socket s < nsock (at most UNC_MAX_PKGS): SKX reads the CPU_BUS_NUMBER MSR on
 * cpu[s] (hw_run_on_cpu: the MSR is per package); ICX reads SAD_CONTROL_CFG of every SAD
 * function among fns, socket = bits [3:0]. Each map is then checked (iio_map_check). */
void intel_iio_maps(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
		    uint32_t nfns, const uint32_t *cpu, uint32_t nsock, struct iio_map *maps);

/* Build a request for box b over units[nunits] (cpu[socket]: the CPU doing that socket's
 * register work), events as for amd_uncore_request (NULL/"": the default set). A
 * uncore_iio_N / uncore_imc_N prefix keeps only unit N (every event must name the same N).
 * 0, or -1 with why. */
int intel_uncore_request(const struct intel_uncore_platform *p, enum intel_box b, const struct intel_unit *units,
			 uint32_t nunits, const uint32_t *cpu, const char *events, struct unc_request *req, char *why,
			 size_t n);
/* Append one package per unit (only >= 0: unit `only` alone) to req: socket, cpu[socket],
 * one box numbered by the unit, its site. 0, or -1 with why past UNC_MAX_PKGS. */
int intel_units_to_pkgs(struct unc_request *req, const struct intel_unit *units, uint32_t nunits, const uint32_t *cpu,
			int only, char *why, size_t n);
/* The same with the box type given (a discovered unit's geometry: intel_disc_units). */
int intel_uncore_request_as(const struct intel_uncore_platform *p, enum intel_box b, const struct uncore_box_type *type,
			    const struct intel_unit *units, uint32_t nunits, const uint32_t *cpu, const char *events,
			    struct unc_request *req, char *why, size_t n);

/* ---- SPR and later: units and the IIO map from the discovery table (intel_uncore_disc.c) ---- */

struct disc_table;
/* The units of box b (type p->disc_box_type[b]) in socket `socket`'s table t, ascending box
 * id: unit = box id, site = the unit control (MMIO address or MSR). *ty gets the platform's
 * type with the table's geometry of the first unit (counters = num_regs, at most
 * BOX_MAX_COUNTERS; width; CTL0 / CTR0 offsets). A unit with another geometry, another access
 * type than the platform's, or a box id of max_boxes or more is left out and named in why (the
 * others are kept). 0 with *n >= 1, or -1 with why (none of that type). */
int intel_disc_units(const struct intel_uncore_platform *p, enum intel_box b, const struct disc_table *t,
		     uint16_t socket, struct intel_unit *u, uint32_t max, uint32_t *n, struct uncore_box_type *ty,
		     char *why, size_t wn);
/* The IIO map of one socket from its discovery table (the stacks: IIO units present) and the
 * MSM CPU-bus registers (valid bits, the 8 CPUBUSNO dwords): bus k, when valid, is the root bus
 * of PMON box to_pmon[k] of the map for `chop` (MSM_NO_CHOP on a platform without chop). A
 * valid bus of no PMON box, or of a box the table lacks, is a defect. No msm table, or no map
 * for the chop: not valid, why says so. method = IIO_MAP_DISCOVERY. */
void iio_map_from_discovery(const struct intel_uncore_platform *p, const struct disc_table *t, uint8_t chop,
			    uint32_t valid, const uint32_t busno[8], struct iio_map *m);
/* Firmware glue: the MSM function of socket s (the s-th 8086:msm->device among fns, in scan
 * order) read, iio_map_from_discovery, then iio_map_check against the tree. */
void intel_iio_map_disc(const struct hw *hw, const struct intel_uncore_platform *p, const struct intel_pci_fn *fns,
			uint32_t nfns, const struct disc_table *t, uint32_t socket, struct iio_map *m);
/* The name of where a map came from, as records give it: "cpubusno_msr", "sad_control_cfg",
 * "discovery_table", "none". */
const char *iio_map_source_name(uint8_t method);

#endif
