/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HMAT latency/bandwidth claims (efi/fw/acpi_hmat.c) from a crafted table laid out as ACPI 6.5
 * 5.2.28 gives it: a 40-byte header, a Memory Proximity Domain Attributes structure (type 0,
 * length 40, skipped), and System Locality Latency and Bandwidth Information structures
 * (type 1, Table 5.150: Flags @8 (memory hierarchy [3:0]), Data Type @9, initiator count @12,
 * target count @16, Entry Base Unit @24, the lists @32, 16-bit entries initiator-major).
 * The platform: initiator domain 0 (CPUs), targets 0 (DRAM) and 1 (a CXL node); read latency
 * 100 ps units: 800 -> 80 ns to DRAM, 2500 -> 250 ns to CXL; read bandwidth in MB/s; a
 * memory-side-cache structure (hierarchy 1) and the no-claim entries 0 and 0xFFFF.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/fw/acpi_hmat.h"

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* type 1, one initiator (0), two targets (0, 1): 32 + 4 x 1 + 4 x 2 + 2 x 2 = 48 bytes */
static uint32_t sllbi(uint8_t *e, uint8_t flags, uint8_t type, uint64_t unit, uint16_t to0, uint16_t to1)
{
	e[0] = 1;
	put(e + 4, 48, 4);
	e[8] = flags;
	e[9] = type;
	put(e + 12, 1, 4);
	put(e + 16, 2, 4);
	put(e + 24, unit, 8);
	put(e + 32, 0, 4);      /* initiator 0 */
	put(e + 36, 0, 4);      /* target 0 */
	put(e + 40, 1, 4);      /* target 1 */
	put(e + 44, to0, 2);
	put(e + 46, to1, 2);
	return 48;
}

static uint8_t table[40 + 40 + 4 * 48];

static uint32_t build(void)
{
	memset(table, 0, sizeof(table));
	memcpy(table, "HMAT", 4);
	uint32_t off = 40;
	table[off] = 0;                       /* Memory Proximity Domain Attributes: skipped */
	put(table + off + 4, 40, 4);
	off += 40;
	off += sllbi(table + off, 0, 1, 100, 800, 2500);          /* read latency, 100 ps units */
	off += sllbi(table + off, 0, 4, 1, 20000, 0xFFFF);        /* read bandwidth MB/s; CXL unreachable */
	off += sllbi(table + off, 1, 1, 100, 50, 60);             /* memory-side cache: not the memory */
	off += sllbi(table + off, 0, 2, 1000, 0, 300);            /* write latency, ns units; DRAM none */
	put(table + 4, off, 4);
	return off;
}

static void test_claims(void **state)
{
	(void)state;
	static struct acpi_hmat h;
	acpi_parse_hmat(table, build(), &h);
	assert_true(h.present);
	assert_string_equal(h.defect, "");
	assert_int_equal(h.n, 4);   /* 80 ns, 250 ns, 20000 MB/s, 300 ns */
	struct acpi_hmat_claim c[8];
	assert_int_equal(acpi_hmat_claims_for(&h, 1, c, 8), 2);
	assert_int_equal(c[0].initiator, 0);
	assert_string_equal(acpi_hmat_type_name(c[0].data_type), "read_latency");
	assert_int_equal(c[0].value, 250000);          /* ps: 2500 x 100 */
	assert_string_equal(acpi_hmat_type_name(c[1].data_type), "write_latency");
	assert_int_equal(c[1].value, 300000);          /* ps: 300 x 1000 */
	assert_int_equal(acpi_hmat_claims_for(&h, 0, c, 8), 2);
	assert_int_equal(c[0].value, 80000);
	assert_string_equal(acpi_hmat_type_name(c[1].data_type), "read_bandwidth");
	assert_int_equal(c[1].value, 20000);
	assert_int_equal(acpi_hmat_claims_for(&h, 7, c, 8), 0);
	assert_null(acpi_hmat_type_name(6));
}

static void test_bad_lengths(void **state)
{
	(void)state;
	static struct acpi_hmat h;
	uint32_t len = build();
	put(table + 80 + 16, 1000, 4);   /* the first list structure claims 1000 targets */
	acpi_parse_hmat(table, len, &h);
	assert_string_equal(h.defect, "latency/bandwidth structure of 48 bytes: 1 x 1000 domains do not fit");
	assert_int_equal(h.n, 2);        /* the others still read: 20000 MB/s and 300 ns */
	build();
	put(table + 80 + 12, 0xFFFFFFFFu, 4);   /* 2^32 - 1 initiators x 2 targets: no wrap-around */
	acpi_parse_hmat(table, len, &h);
	assert_string_equal(h.defect, "latency/bandwidth structure of 48 bytes: 4294967295 x 2 domains do not fit");
	build();
	put(table + 80 + 12, 20, 4);            /* 20 x 20: each count under the length, the product not */
	put(table + 80 + 16, 20, 4);
	acpi_parse_hmat(table, len, &h);
	assert_string_equal(h.defect, "latency/bandwidth structure of 48 bytes: 20 x 20 domains do not fit");
	build();
	put(table + 80 + 4, 12, 4);      /* too short for its own counts: nothing past its 12 bytes read */
	acpi_parse_hmat(table, len, &h);
	assert_string_equal(h.defect, "latency/bandwidth structure of 12 bytes: 0 x 0 domains do not fit");
	build();
	put(table + 80 + 4, 4, 4);       /* a structure length under 8 stops the walk */
	acpi_parse_hmat(table, len, &h);
	assert_string_equal(h.defect, "structure at offset 80: length 4");
	assert_int_equal(h.n, 0);
}

static char out[2048];

static const char *compare(const struct acpi_hmat *h, int32_t initiator, int32_t target, const uint64_t m[6])
{
	struct strbuf sb;
	struct json j;
	sb_init(&sb, out, sizeof(out));
	json_begin(&j, &sb);
	acpi_hmat_compare_json(&j, "hmat", "hmat_why", h, initiator, target, m);
	json_end(&j);
	out[sb.len < sizeof(out) ? sb.len : sizeof(out) - 1] = 0;
	return out;
}

/* Claims beside measured values, worked by hand from the table above. CXL node 1 from
 * initiator 0: read latency claimed 250 ns, measured 320 ns -> 1.280; write latency claimed
 * 300 ns, not measured; access latency measured, no claim: missing. DRAM node 0: read
 * bandwidth claimed 20000 MB/s, measured 15000 -> 0.750; access and write bandwidth measured
 * with no claim: missing. No claim can name a memory without a domain, nor any without HMAT. */
static void test_compare(void **state)
{
	(void)state;
	static struct acpi_hmat h;
	acpi_parse_hmat(table, build(), &h);
	const uint64_t lat[6] = { 320000, 320000, 0, 0, 0, 0 }, bw[6] = { 0, 0, 0, 18000, 15000, 3000 };
	assert_string_equal(compare(&h, 0, 1, lat),
			    "{\"hmat\":{\"initiator\":0,\"target\":1,\"claims\":["
			    "{\"claim\":\"read_latency\",\"claimed\":250000,\"measured\":320000,\"unit\":\"ps\",\"fraction\":1.280},"
			    "{\"claim\":\"write_latency\",\"claimed\":300000,\"measured\":null,\"unit\":\"ps\",\"fraction\":null}],"
			    "\"missing\":[\"access_latency\"]}}");
	assert_string_equal(compare(&h, 0, 0, bw),
			    "{\"hmat\":{\"initiator\":0,\"target\":0,\"claims\":["
			    "{\"claim\":\"read_latency\",\"claimed\":80000,\"measured\":null,\"unit\":\"ps\",\"fraction\":null},"
			    "{\"claim\":\"read_bandwidth\",\"claimed\":20000,\"measured\":15000,\"unit\":\"MB/s\",\"fraction\":0.750}],"
			    "\"missing\":[\"access_bandwidth\",\"write_bandwidth\"]}}");
	assert_string_equal(compare(&h, 1, 1, lat),   /* initiator 1: no claim at all */
			    "{\"hmat\":{\"initiator\":1,\"target\":1,\"claims\":[],\"missing\":[\"access_latency\",\"read_latency\"]}}");
	assert_string_equal(compare(&h, 0, -1, lat),
			    "{\"hmat\":null,\"hmat_why\":\"the memory has no SRAT proximity domain: no HMAT claim can name it\"}");
	assert_string_equal(compare(NULL, 0, 1, lat), "{\"hmat\":null,\"hmat_why\":\"the firmware has no HMAT\"}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_compare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
