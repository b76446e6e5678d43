/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recorder backend (arch/hw_trace.h): every op forwards to the wrapped struct hw and then
 * appends one entry to the ring. A full ring never overwrites: the access still happens, only
 * its record is dropped (and its sequence number skipped, so the log shows the gap).
 */
#include "arch/hw_trace.h"

#define PCI_SEG_SHIFT 16u
#define PCI_BUS_SHIFT 8u
#define PCI_DEV_SHIFT 3u
#define HALF_SHIFT 32u   /* cpuid: two 32-bit registers per 64-bit value */

/* Next free entry filled with seq/op/status, or NULL when the ring is full (counted dropped).
 * CPUs of a window may record at the same time: reserving a slot is done under a spinlock;
 * the slot is then the caller's alone (entries are only drained between windows). */
static struct hw_trace_entry *record(struct hw_trace *t, enum hw_trace_op op, hw_status st)
{
	while (__atomic_test_and_set(&t->lock, __ATOMIC_ACQUIRE))
		;
	uint64_t seq = t->seq++;
	struct hw_trace_entry *e = NULL;
	if (t->count >= t->cap) {
		t->dropped++;
	} else {
		e = &t->ring[(t->head + t->count) % t->cap];
		t->count++;
	}
	__atomic_clear(&t->lock, __ATOMIC_RELEASE);
	if (e)
		*e = (struct hw_trace_entry){ .seq = seq, .op = (uint8_t)op, .status = (uint8_t)st };
	return e;
}

/* The value to record: what was written, or what was read when the read succeeded (a failed
 * read records 0: the backend need not have stored anything). */
#define READ_VAL(st, p) ((st) == HW_OK ? (uint64_t)*(p) : 0)

/* Records a register access (MSR, PMC, system register): reg and value. Returns st. */
static hw_status record_reg(struct hw_trace *t, enum hw_trace_op op, hw_status st, uint32_t reg,
			    uint64_t val)
{
	struct hw_trace_entry *e = record(t, op, st);
	if (e) {
		e->reg = reg;
		e->val = val;
	}
	return st;
}

static hw_status record_mmio(struct hw_trace *t, enum hw_trace_op op, hw_status st, uint64_t addr,
			     uint64_t val)
{
	struct hw_trace_entry *e = record(t, op, st);
	if (e) {
		e->addr = addr;
		e->val = val;
	}
	return st;
}

static hw_status record_pci(struct hw_trace *t, enum hw_trace_op op, hw_status st,
			    struct hw_pci_addr a, uint16_t off, uint64_t val)
{
	struct hw_trace_entry *e = record(t, op, st);
	if (e) {
		e->reg = off;
		e->sub = (uint32_t)a.segment << PCI_SEG_SHIFT | (uint32_t)a.bus << PCI_BUS_SHIFT |
			 (uint32_t)a.dev << PCI_DEV_SHIFT | a.func;
		e->val = val;
	}
	return st;
}

static hw_status tr_cpuid(void *ctx, uint32_t leaf, uint32_t sub, struct hw_cpuid *out)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_cpuid(&t->inner, leaf, sub, out);
	struct hw_trace_entry *e = record(t, HWT_CPUID, st);
	if (e) {
		e->reg = leaf;
		e->sub = sub;
		if (st == HW_OK) {
			e->val = out->eax | (uint64_t)out->ebx << HALF_SHIFT;
			e->val2 = out->ecx | (uint64_t)out->edx << HALF_SHIFT;
		}
	}
	return st;
}

static hw_status tr_rdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_rdmsr(&t->inner, msr, val);
	return record_reg(t, HWT_RDMSR, st, msr, READ_VAL(st, val));
}

static hw_status tr_wrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	struct hw_trace *t = ctx;
	return record_reg(t, HWT_WRMSR, hw_wrmsr(&t->inner, msr, val), msr, val);
}

static hw_status tr_rdpmc(void *ctx, uint32_t ctr, uint64_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_rdpmc(&t->inner, ctr, val);
	return record_reg(t, HWT_RDPMC, st, ctr, READ_VAL(st, val));
}

static hw_status tr_sysreg_read(void *ctx, uint32_t enc, uint64_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_sysreg_read(&t->inner, enc, val);
	return record_reg(t, HWT_SYSREG_READ, st, enc, READ_VAL(st, val));
}

static hw_status tr_sysreg_write(void *ctx, uint32_t enc, uint64_t val)
{
	struct hw_trace *t = ctx;
	return record_reg(t, HWT_SYSREG_WRITE, hw_sysreg_write(&t->inner, enc, val), enc, val);
}

static hw_status tr_io_read32(void *ctx, uint16_t port, uint32_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_io_read32(&t->inner, port, val);
	return record_reg(t, HWT_IO_READ32, st, port, READ_VAL(st, val));
}

static hw_status tr_mmio_read32(void *ctx, uint64_t addr, uint32_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_mmio_read32(&t->inner, addr, val);
	return record_mmio(t, HWT_MMIO_READ32, st, addr, READ_VAL(st, val));
}

static hw_status tr_mmio_read64(void *ctx, uint64_t addr, uint64_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_mmio_read64(&t->inner, addr, val);
	return record_mmio(t, HWT_MMIO_READ64, st, addr, READ_VAL(st, val));
}

static hw_status tr_mmio_write32(void *ctx, uint64_t addr, uint32_t val)
{
	struct hw_trace *t = ctx;
	return record_mmio(t, HWT_MMIO_WRITE32, hw_mmio_write32(&t->inner, addr, val), addr, val);
}

static hw_status tr_mmio_write64(void *ctx, uint64_t addr, uint64_t val)
{
	struct hw_trace *t = ctx;
	return record_mmio(t, HWT_MMIO_WRITE64, hw_mmio_write64(&t->inner, addr, val), addr, val);
}

static hw_status tr_pci_read32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t *val)
{
	struct hw_trace *t = ctx;
	hw_status st = hw_pci_read32(&t->inner, a, off, val);
	return record_pci(t, HWT_PCI_READ32, st, a, off, READ_VAL(st, val));
}

static hw_status tr_pci_write32(void *ctx, struct hw_pci_addr a, uint16_t off, uint32_t val)
{
	struct hw_trace *t = ctx;
	return record_pci(t, HWT_PCI_WRITE32, hw_pci_write32(&t->inner, a, off, val), a, off, val);
}

/* Recorded before the call so that the accesses fn makes follow it in the trace; the status
 * is filled in when it returns (the entry stays put: nothing drains during a call). */
static hw_status tr_run_on_cpu(void *ctx, uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	struct hw_trace *t = ctx;
	struct hw_trace_entry *e = record(t, HWT_RUN_ON_CPU, HW_OK);
	if (e)
		e->reg = cpu;
	hw_status st = hw_run_on_cpu(&t->inner, cpu, fn, arg);
	if (e)
		e->status = (uint8_t)st;
	return st;
}

static const struct hw_ops hw_trace_ops = {
	.name = "trace",
	.cpuid = tr_cpuid,
	.rdmsr = tr_rdmsr,
	.wrmsr = tr_wrmsr,
	.rdpmc = tr_rdpmc,
	.sysreg_read = tr_sysreg_read,
	.sysreg_write = tr_sysreg_write,
	.mmio_read32 = tr_mmio_read32,
	.io_read32 = tr_io_read32,
	.mmio_read64 = tr_mmio_read64,
	.mmio_write32 = tr_mmio_write32,
	.mmio_write64 = tr_mmio_write64,
	.pci_read32 = tr_pci_read32,
	.pci_write32 = tr_pci_write32,
	.run_on_cpu = tr_run_on_cpu,
};

struct hw hw_trace_wrap(struct hw_trace *t, struct hw inner, struct hw_trace_entry *ring, size_t cap)
{
	*t = (struct hw_trace){ .inner = inner, .ring = ring, .cap = ring ? cap : 0 };
	return (struct hw){ .ops = &hw_trace_ops, .ctx = t };
}

size_t hw_trace_drain(struct hw_trace *t, void (*fn)(void *arg, const struct hw_trace_entry *e), void *arg)
{
	size_t n = 0;
	while (t->count) {
		const struct hw_trace_entry *e = &t->ring[t->head];
		t->head = (t->head + 1) % t->cap;
		t->count--;
		fn(arg, e);
		n++;
	}
	return n;
}

const char *hw_trace_op_name(uint8_t op)
{
	static const char *const names[] = {
		[HWT_CPUID] = "cpuid",
		[HWT_RDMSR] = "rdmsr",
		[HWT_WRMSR] = "wrmsr",
		[HWT_RDPMC] = "rdpmc",
		[HWT_SYSREG_READ] = "sysreg_read",
		[HWT_SYSREG_WRITE] = "sysreg_write",
		[HWT_MMIO_READ32] = "mmio_read32",
		[HWT_MMIO_READ64] = "mmio_read64",
		[HWT_MMIO_WRITE32] = "mmio_write32",
		[HWT_MMIO_WRITE64] = "mmio_write64",
		[HWT_PCI_READ32] = "pci_read32",
		[HWT_PCI_WRITE32] = "pci_write32",
		[HWT_RUN_ON_CPU] = "run_on_cpu",
		[HWT_IO_READ32] = "io_read32",
	};
	if (op < sizeof(names) / sizeof(names[0]) && names[op])
		return names[op];
	return "unknown";
}
