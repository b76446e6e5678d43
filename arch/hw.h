/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one hardware-access interface of efiperf.
 *
 * Everything that touches a CPU or platform register goes through a struct hw: cpuid,
 * rdmsr/wrmsr, rdpmc, Arm system registers, 32/64-bit MMIO, PCI config space and
 * run-on-CPU. Every call returns an hw_status instead of faulting, so pmu/ code can probe a
 * register and report "#GP" rather than crash the machine.
 *
 * Backends (same ops table, different ctx):
 *   - real firmware backend:  efi/hw_efi.c + arch/<arch>/ primitives
 *   - register model:         tests/model/hw_model.c (host tests; counters advance)
 *   - recorder:               arch/hw_trace.c wraps any backend and records each access
 *
 * Pure header: no EFI types, builds on the host.
 */
#ifndef EFIPERF_HW_H
#define EFIPERF_HW_H

#include <stdint.h>
#include <stddef.h>

typedef enum {
	HW_OK = 0,
	HW_FAULT_GP,      /* x86 #GP (vector 13): e.g. rdmsr of an MSR that does not exist   */
	HW_FAULT_UD,      /* x86 #UD (vector 6): e.g. rdpmc where the CPU does not implement it */
	HW_FAULT_SYNC,    /* aarch64 synchronous exception (UNDEFINED system register access) */
	HW_UNSUPPORTED,   /* this backend / architecture has no such operation             */
	HW_BAD_ARG,       /* argument out of range (CPU index, PCI address, alignment)     */
	HW_ERROR,         /* firmware service failed                                        */
	HW_FAULT_PF,      /* x86 #PF (vector 14): a memory access to an address not mapped     */
	HW_FAULT_ABORT,   /* aarch64 Data Abort taken at the current EL (ESR_ELx.EC 0x25)     */
} hw_status;

/* Short name of a status for logs: "ok", "#GP", "#UD", "sync-exception", ... */
const char *hw_status_name(hw_status st);

struct hw_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

/* PCI function address; offset is the config-space byte offset (0..4095). */
struct hw_pci_addr {
	uint16_t segment;
	uint8_t bus, dev, func;
};

typedef void (*hw_cpu_fn)(void *arg);

struct hw_ops {
	const char *name;
	hw_status (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, struct hw_cpuid *out);
	hw_status (*rdmsr)(void *ctx, uint32_t msr, uint64_t *val);
	hw_status (*wrmsr)(void *ctx, uint32_t msr, uint64_t val);
	hw_status (*rdpmc)(void *ctx, uint32_t counter, uint64_t *val);
	/* aarch64 system registers, named by their MRS/MSR encoding (see arch/aarch64/sysreg.h). */
	hw_status (*sysreg_read)(void *ctx, uint32_t enc, uint64_t *val);
	hw_status (*sysreg_write)(void *ctx, uint32_t enc, uint64_t val);
	hw_status (*mmio_read32)(void *ctx, uint64_t addr, uint32_t *val);
	hw_status (*mmio_read64)(void *ctx, uint64_t addr, uint64_t *val);
	hw_status (*mmio_write32)(void *ctx, uint64_t addr, uint32_t val);
	hw_status (*mmio_write64)(void *ctx, uint64_t addr, uint64_t val);
	/* x86 I/O port space (e.g. the ACPI PM timer block); HW_UNSUPPORTED elsewhere. */
	hw_status (*io_read32)(void *ctx, uint16_t port, uint32_t *val);
	hw_status (*pci_read32)(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *val);
	hw_status (*pci_write32)(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t val);
	/* Run fn(arg) on logical CPU `cpu` (0 = boot CPU) and wait for it to return. */
	hw_status (*run_on_cpu)(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg);
};

struct hw {
	const struct hw_ops *ops;
	void *ctx;
};

/* Wrappers: a NULL op means HW_UNSUPPORTED, so backends fill in only what they have. */
#define HW_CALL(h, op, ...) \
	((h)->ops->op ? (h)->ops->op((h)->ctx, __VA_ARGS__) : HW_UNSUPPORTED)

static inline hw_status hw_cpuid(const struct hw *h, uint32_t leaf, uint32_t sub, struct hw_cpuid *o)
{ return HW_CALL(h, cpuid, leaf, sub, o); }
static inline hw_status hw_rdmsr(const struct hw *h, uint32_t msr, uint64_t *v)
{ return HW_CALL(h, rdmsr, msr, v); }
static inline hw_status hw_wrmsr(const struct hw *h, uint32_t msr, uint64_t v)
{ return HW_CALL(h, wrmsr, msr, v); }
static inline hw_status hw_rdpmc(const struct hw *h, uint32_t ctr, uint64_t *v)
{ return HW_CALL(h, rdpmc, ctr, v); }
static inline hw_status hw_sysreg_read(const struct hw *h, uint32_t enc, uint64_t *v)
{ return HW_CALL(h, sysreg_read, enc, v); }
static inline hw_status hw_sysreg_write(const struct hw *h, uint32_t enc, uint64_t v)
{ return HW_CALL(h, sysreg_write, enc, v); }
static inline hw_status hw_mmio_read32(const struct hw *h, uint64_t a, uint32_t *v)
{ return HW_CALL(h, mmio_read32, a, v); }
static inline hw_status hw_mmio_read64(const struct hw *h, uint64_t a, uint64_t *v)
{ return HW_CALL(h, mmio_read64, a, v); }
static inline hw_status hw_mmio_write32(const struct hw *h, uint64_t a, uint32_t v)
{ return HW_CALL(h, mmio_write32, a, v); }
static inline hw_status hw_mmio_write64(const struct hw *h, uint64_t a, uint64_t v)
{ return HW_CALL(h, mmio_write64, a, v); }
static inline hw_status hw_io_read32(const struct hw *h, uint16_t port, uint32_t *v)
{ return HW_CALL(h, io_read32, port, v); }
static inline hw_status hw_pci_read32(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint32_t *v)
{ return HW_CALL(h, pci_read32, a, off, v); }
static inline hw_status hw_pci_write32(const struct hw *h, struct hw_pci_addr a, uint16_t off, uint32_t v)
{ return HW_CALL(h, pci_write32, a, off, v); }
static inline hw_status hw_run_on_cpu(const struct hw *h, uint32_t cpu, hw_cpu_fn fn, void *arg)
{ return HW_CALL(h, run_on_cpu, cpu, fn, arg); }

#endif
