/* SPDX-License-Identifier: BSD-2-Clause */
/* arch/hw_trace.c over the register model: every op forwarded and recorded, ring limits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/hw_trace.h"
#include "tests/model/hw_model.h"

#define MSR_A 0x186u
#define MSR_MISSING 0x1A2u
#define PMC1 1u
#define SYSREG_A 0xDCE0u
#define RING 8

static struct hw_model m;
static struct hw_trace t;
static struct hw_trace_entry ring[RING];
static struct hw h;

static int setup(void **state)
{
	(void)state;
	hw_model_init(&m);
	hw_model_reg(&m, HWM_MSR, MSR_A, HWM_PLAIN, 0x55);
	hw_model_reg(&m, HWM_MSR, 0xC1u + PMC1, HWM_PLAIN, 0x77);
	hw_model_reg(&m, HWM_SYSREG, SYSREG_A, HWM_PLAIN, 0x99);
	hw_model_cpuid(&m, 0xA, 0, 0x11, 0x22, 0x33, 0x44);
	memset(ring, 0xEE, sizeof(ring));
	h = hw_trace_wrap(&t, hw_model_hw(&m), ring, RING);
	return 0;
}

static struct hw_trace_entry drained[4 * RING];
static size_t ndrained;

static void collect(void *arg, const struct hw_trace_entry *e)
{
	(void)arg;
	assert_true(ndrained < sizeof(drained) / sizeof(drained[0]));
	drained[ndrained++] = *e;
}

static size_t drain(void)
{
	ndrained = 0;
	return hw_trace_drain(&t, collect, NULL);
}

static void expect(size_t i, uint64_t seq, enum hw_trace_op op, hw_status st, uint32_t reg, uint64_t val)
{
	assert_true(i < ndrained);
	assert_int_equal(drained[i].seq, seq);
	assert_int_equal(drained[i].op, op);
	assert_int_equal(drained[i].status, st);
	assert_int_equal(drained[i].reg, reg);
	assert_int_equal(drained[i].val, val);
}

static void test_register_ops(void **state)
{
	uint64_t v;
	struct hw_cpuid r;
	(void)state;
	assert_int_equal(hw_cpuid(&h, 0xA, 0, &r), HW_OK);
	assert_int_equal(r.ebx, 0x22);
	assert_int_equal(hw_rdmsr(&h, MSR_A, &v), HW_OK);
	assert_int_equal(v, 0x55);
	assert_int_equal(hw_wrmsr(&h, MSR_A, 0x66), HW_OK);
	assert_int_equal(hw_rdmsr(&h, MSR_MISSING, &v), HW_FAULT_GP);
	assert_int_equal(hw_rdpmc(&h, PMC1, &v), HW_FAULT_UD);
	hw_model_rdpmc(&m, 1);
	assert_int_equal(hw_rdpmc(&h, PMC1, &v), HW_OK);
	assert_int_equal(hw_sysreg_read(&h, SYSREG_A, &v), HW_OK);
	assert_int_equal(hw_sysreg_write(&h, SYSREG_A, 0xAA), HW_OK);
	assert_string_equal(h.ops->name, "trace");

	assert_int_equal(drain(), 8);
	assert_int_equal(t.count, 0);
	expect(0, 0, HWT_CPUID, HW_OK, 0xA, 0x11 | 0x22ull << 32);
	assert_int_equal(drained[0].sub, 0);
	assert_int_equal(drained[0].val2, 0x33 | 0x44ull << 32);
	expect(1, 1, HWT_RDMSR, HW_OK, MSR_A, 0x55);
	expect(2, 2, HWT_WRMSR, HW_OK, MSR_A, 0x66);
	expect(3, 3, HWT_RDMSR, HW_FAULT_GP, MSR_MISSING, 0);  /* failed read records 0 */
	expect(4, 4, HWT_RDPMC, HW_FAULT_UD, PMC1, 0);
	expect(5, 5, HWT_RDPMC, HW_OK, PMC1, 0x77);
	expect(6, 6, HWT_SYSREG_READ, HW_OK, SYSREG_A, 0x99);
	expect(7, 7, HWT_SYSREG_WRITE, HW_OK, SYSREG_A, 0xAA);
	/* the writes really reached the model */
	assert_int_equal(hw_model_find(&m, HWM_MSR, MSR_A)->value, 0x66);
	assert_int_equal(hw_model_find(&m, HWM_SYSREG, SYSREG_A)->value, 0xAA);
}

static void test_mmio_pci_unsupported_recorded(void **state)
{
	uint32_t v32 = 0;
	uint64_t v64 = 0;
	struct hw_pci_addr pa = { .segment = 1, .bus = 0x3a, .dev = 0x1f, .func = 7 };
	(void)state;
	assert_int_equal(hw_mmio_read32(&h, 0xfed00000, &v32), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_read64(&h, 0xfed00008, &v64), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_write32(&h, 0xfed00010, 5), HW_UNSUPPORTED);
	assert_int_equal(hw_mmio_write64(&h, 0xfed00018, 6), HW_UNSUPPORTED);
	assert_int_equal(hw_pci_read32(&h, pa, 0x100, &v32), HW_UNSUPPORTED);
	assert_int_equal(hw_pci_write32(&h, pa, 0xffc, 9), HW_UNSUPPORTED);
	assert_int_equal(drain(), 6);
	static const enum hw_trace_op ops[] = { HWT_MMIO_READ32, HWT_MMIO_READ64, HWT_MMIO_WRITE32,
						HWT_MMIO_WRITE64, HWT_PCI_READ32, HWT_PCI_WRITE32 };
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(drained[i].op, ops[i]);
		assert_int_equal(drained[i].status, HW_UNSUPPORTED);
	}
	assert_int_equal(drained[0].addr, 0xfed00000);
	assert_int_equal(drained[0].val, 0);
	assert_int_equal(drained[2].val, 5);  /* a write records the value it tried */
	assert_int_equal(drained[3].addr, 0xfed00018);
	assert_int_equal(drained[3].val, 6);
	assert_int_equal(drained[4].reg, 0x100);
	assert_int_equal(drained[4].sub, 1u << 16 | 0x3au << 8 | 0x1fu << 3 | 7u);
	assert_int_equal(drained[5].reg, 0xffc);
	assert_int_equal(drained[5].val, 9);
}

/* Accesses fn makes through the trace come after the run_on_cpu entry. */
static void on_cpu(void *arg)
{
	uint64_t v;
	hw_rdmsr(arg, MSR_A, &v);
}

static void test_run_on_cpu_order(void **state)
{
	(void)state;
	m.ncpus = 2;
	assert_int_equal(hw_run_on_cpu(&h, 1, on_cpu, &h), HW_OK);
	assert_int_equal(hw_run_on_cpu(&h, 2, on_cpu, &h), HW_BAD_ARG);
	assert_int_equal(drain(), 3);
	expect(0, 0, HWT_RUN_ON_CPU, HW_OK, 1, 0);
	expect(1, 1, HWT_RDMSR, HW_OK, MSR_A, 0x55);
	expect(2, 2, HWT_RUN_ON_CPU, HW_BAD_ARG, 2, 0);
}

static void test_full_ring_drops_but_forwards(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < RING + 3; i++)
		assert_int_equal(hw_wrmsr(&h, MSR_A, i), HW_OK);
	assert_int_equal(t.count, RING);
	assert_int_equal(t.dropped, 3);
	assert_int_equal(hw_model_find(&m, HWM_MSR, MSR_A)->value, RING + 2);  /* all forwarded */
	assert_int_equal(m.nlog, RING + 3);

	/* the held entries are the oldest; after the drop, sequence numbers show the gap */
	assert_int_equal(drain(), RING);
	expect(RING - 1, RING - 1, HWT_WRMSR, HW_OK, MSR_A, RING - 1);
	for (uint64_t i = 0; i < 3; i++)
		hw_wrmsr(&h, MSR_A, 100 + i);
	assert_int_equal(drain(), 3);
	expect(0, RING + 3, HWT_WRMSR, HW_OK, MSR_A, 100);
	expect(2, RING + 5, HWT_WRMSR, HW_OK, MSR_A, 102);
	assert_int_equal(t.dropped, 3);
}

static void drain_one(void *arg, const struct hw_trace_entry *e)
{
	(void)arg;
	(void)e;
}

static void test_wraparound_order(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < RING - 2; i++)
		hw_wrmsr(&h, MSR_A, i);
	assert_int_equal(hw_trace_drain(&t, drain_one, NULL), RING - 2);
	assert_int_equal(t.head, RING - 2);
	for (uint64_t i = 0; i < RING; i++)  /* fills the ring across its end */
		hw_wrmsr(&h, MSR_A, 1000 + i);
	assert_int_equal(t.dropped, 0);
	assert_int_equal(drain(), RING);
	for (size_t i = 0; i < RING; i++)
		expect(i, RING - 2 + i, HWT_WRMSR, HW_OK, MSR_A, 1000 + i);
}

static void test_no_ring(void **state)
{
	uint64_t v;
	(void)state;
	h = hw_trace_wrap(&t, hw_model_hw(&m), NULL, 0);
	assert_int_equal(hw_rdmsr(&h, MSR_A, &v), HW_OK);
	assert_int_equal(v, 0x55);
	assert_int_equal(t.dropped, 1);
	assert_int_equal(drain(), 0);
}

static void test_op_names(void **state)
{
	static const char *const want[] = {
		"cpuid", "rdmsr", "wrmsr", "rdpmc", "sysreg_read", "sysreg_write", "mmio_read32",
		"mmio_read64", "mmio_write32", "mmio_write64", "pci_read32", "pci_write32", "run_on_cpu",
		"io_read32",
	};
	(void)state;
	for (uint8_t op = HWT_CPUID; op <= HWT_IO_READ32; op++)
		assert_string_equal(hw_trace_op_name(op), want[op]);
	assert_string_equal(hw_trace_op_name(HWT_IO_READ32 + 1), "unknown");
	assert_string_equal(hw_trace_op_name(255), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_register_ops, setup),
		cmocka_unit_test_setup(test_mmio_pci_unsupported_recorded, setup),
		cmocka_unit_test_setup(test_run_on_cpu_order, setup),
		cmocka_unit_test_setup(test_full_ring_drops_but_forwards, setup),
		cmocka_unit_test_setup(test_wraparound_order, setup),
		cmocka_unit_test_setup(test_no_ring, setup),
		cmocka_unit_test_setup(test_op_names, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
