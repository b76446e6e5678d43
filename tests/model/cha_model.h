/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of Intel CHA uncore boxes (SKX and ICX layouts) on top of tests/model/hw_model:
 * BOX_CTL, CTL0-3, FILTER0 (+FILTER1 on SKX), STATUS, CTR0-3 per CHA and the uncore global
 * control, at the MSR addresses Linux arch/x86/events/intel/uncore_snbep.c and PCM src/types.h give,
 * computed here on their own (not from pmu/intel_cha_platforms.c), so the tests compare two
 * independent readings of those sources.
 *
 * Scripted IO traffic: each hw_model_tick() adds, for every traffic class, `per_tick` x
 * (CHA index + 1) requests to each CHA. A counter counts a class when its box is not frozen
 * (BOX_CTL frz, bit 8), its CTL has EN (bit 22) and event 0x35 (TOR_INSERTS), and:
 *   SKX: umask has the class's queue (IRQ 0x01 for core, PRQ 0x04 for IO) and its HIT 0x10 /
 *        MISS 0x20 bit; FILTER1 matches: all_opc (bit 3) or opc0 [18:9] / opc1 [28:19] equal
 *        to the opcode, nc (bit 30) equal to the class's nc, and loc (bit 1) set;
 *   ICX: umask 0x04 (IO) or 0x01 (IA) as the class; umask_ext (CTL 57:32) low byte bit 0 HIT /
 *        bit 1 MISS covers the class; umask_ext >> 8 equals the class's opcode key, or 0xC001
 *        (all requests). Keys: the Ice Lake uncore manual's Table 2-132 codes (0xC8F3 PCIRdCur, 0xCC43 ItoM, ...).
 * TOR_OCCUPANCY (event 0x36) matches the same requests and adds, per tick, per_tick x latency
 * (each request stays `latency` CHA cycles in the TOR), on counter 0 only: the other counters
 * count nothing for it (Intel's uncore manuals and perfmon: "Counter": "0"). CLOCKTICKS (event
 * 0x00) adds clk_per_tick on every box per tick.
 * Counters are 48 bits wide and wrap.
 */
#ifndef EFIPERF_CHA_MODEL_H
#define EFIPERF_CHA_MODEL_H

#include "tests/model/hw_model.h"

#define CHA_MODEL_MAX_BOXES 8
#define CHA_MODEL_MAX_TRAFFIC 16

enum cha_model_layout { CHA_MODEL_SKX, CHA_MODEL_ICX };

struct cha_model_traffic {
	uint8_t ia;          /* 1: from cores (IRQ), 0: from IO (PRQ) */
	uint8_t hit;         /* 1: hit the LLC */
	uint8_t nc;          /* SKX: non-coherent (MMIO) */
	uint16_t opc;        /* SKX opcode (FILTER1) */
	uint32_t key;        /* ICX umask_ext >> 8 */
	uint64_t per_tick;   /* requests per tick on CHA 0 (CHA n: x (n + 1)) */
	uint32_t latency;    /* CHA cycles each request stays in the TOR (occupancy) */
};

struct cha_model {
	struct hw_model *m;
	enum cha_model_layout layout;
	unsigned nboxes;
	struct cha_model_traffic t[CHA_MODEL_MAX_TRAFFIC];
	unsigned ntraffic;
	uint64_t clk_per_tick;   /* CHA clock cycles per tick on every box */
};

/* Define nboxes CHA boxes (registers zero, counters at ctr_start) and the global control;
 * installs the tick hook. */
void cha_model_init(struct cha_model *c, struct hw_model *m, enum cha_model_layout layout, unsigned nboxes,
		    uint64_t ctr_start);
/* A one-CPU machine of nboxes CHA boxes (counters from 0): hw_model_init, cha_model_init, and
 * the hardware interface over it. */
struct hw cha_model_machine(struct cha_model *c, struct hw_model *m, enum cha_model_layout layout, unsigned nboxes);
void cha_model_add(struct cha_model *c, struct cha_model_traffic t);
/* MSR of a box register, from those sources: reg 0 BOX_CTL, 1..4 CTL0..3, 5 FILTER0,
 * 6 FILTER1 (SKX), 7 STATUS, 8..11 CTR0..3. */
uint32_t cha_model_msr(enum cha_model_layout layout, unsigned box, unsigned reg);
/* Requests of classes matching (ia, hit, opc/key, nc) over all boxes per tick (the truth). */
uint64_t cha_model_truth(const struct cha_model *c, int (*match)(const struct cha_model_traffic *, void *), void *arg);

#endif
