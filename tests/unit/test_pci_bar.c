/* SPDX-License-Identifier: BSD-2-Clause */
/* efi/pci_bar.c: decode and size memory BARs (PCI 3.0 6.2.5.1) on the PCI model, refuse I/O
 * and absent BARs, and leave every register (BARs, Command) as found. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/model/pci_model.h"
#include "efi/pcie/pci_bar.h"

static struct pci_model m;
static struct pci_model_func *f;
static struct hw h;

static void dev(void)
{
	pci_model_init(&m);
	h = pci_model_hw(&m);
	/* ivshmem-plain-like: BAR0 256 B registers, BAR2 1 MiB 64-bit prefetchable */
	f = pci_model_add(&m, 0, 0, 4, 0, 0x1af4, 0x1110, 0x050000, 0);
	pci_model_w32(f, 0x04, 0x0007);                    /* Command: I/O, memory, bus master */
	pci_model_set_bar(f, 0, 0xfe000000, 0x100, 0);
	pci_model_set_bar(f, 2, 0x800000000ull, 1 << 20, 0xC);
	pci_model_w32(f, 0x10 + 4 * 4, 0xc001);            /* BAR4: an I/O BAR */
}

static void test_32_and_64_bit(void **state)
{
	(void)state;
	dev();
	uint8_t before[256];
	memcpy(before, f->cfg, sizeof(before));
	struct pci_bar b;
	const char *why = NULL;
	assert_int_equal(pci_bar_probe(&h, f->addr, 0, &b, &why), 0);
	assert_true(b.base == 0xfe000000 && b.size == 0x100 && !b.is64 && !b.prefetch);
	assert_int_equal(pci_bar_probe(&h, f->addr, 2, &b, &why), 0);
	assert_true(b.base == 0x800000000ull && b.size == (1u << 20) && b.is64 && b.prefetch);
	assert_memory_equal(before, f->cfg, sizeof(before));   /* everything restored */
}

static void test_refusals(void **state)
{
	(void)state;
	dev();
	struct pci_bar b;
	const char *why = NULL;
	assert_int_equal(pci_bar_probe(&h, f->addr, 4, &b, &why), -1);
	assert_string_equal(why, "I/O BAR");
	assert_int_equal(pci_bar_probe(&h, f->addr, 1, &b, &why), -1);  /* nothing decodes there */
	assert_string_equal(why, "no such BAR");
	assert_int_equal(pci_bar_probe(&h, f->addr, 6, &b, &why), -1);
	assert_string_equal(why, "no such BAR");
	pci_model_set_bar(f, 5, 0, 0x1000, 0x4);                         /* 64-bit at index 5 */
	assert_int_equal(pci_bar_probe(&h, f->addr, 5, &b, &why), -1);
	assert_string_equal(why, "index 5 cannot start a 64-bit BAR");
	pci_model_set_bar(f, 3, 0, 0x1000, 0);                           /* sized but unassigned */
	assert_int_equal(pci_bar_probe(&h, f->addr, 3, &b, &why), -1);
	assert_string_equal(why, "BAR not assigned");
	struct hw_pci_addr none = { 0, 0, 9, 0 };
	assert_int_equal(pci_bar_probe(&h, none, 0, &b, &why), -1);     /* reads all ones: I/O bit */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_32_and_64_bit),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
