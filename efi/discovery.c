/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/discovery.h"
#include "efi/pcie/pcie.h"
#include "efi/cxl_discovery.h"
#include "efi/out/report.h"
#include "efi/fw/firmware_tables.h"
#include "arch/hw_ecam.h"
#include "arch/lib/fmt.h"

#define LINE 256
#define NO_TABLE (-2)
#define ROOT_BRIDGE_SEGMENT 0
#define ROOT_BRIDGE_LAST_BUS 0xFF

void discovery_firmware(struct discovery *d)
{
	fw_tables_find(&d->fw);
	struct physmem pm = fw_physmem();
	d->acpi = AllocateZeroPool(sizeof(*d->acpi));
	d->acpi_status = NO_TABLE;
	if (d->fw.rsdp && d->acpi)
		d->acpi_status = acpi_parse(&pm, d->fw.rsdp, d->acpi);
	d->smbios_status = NO_TABLE;
	if (d->fw.smbios)
		d->smbios_status = smbios_parse(&pm, d->fw.smbios, &d->smbios);
	smbios_log_serial(&d->smbios, d->serial, sizeof(d->serial));
}

static uint32_t madt_enabled(const struct acpi_madt *m)
{
	return m->lapic.enabled + m->x2apic.enabled + m->gicc.enabled;
}

static void acpi_summary(const struct acpi_info *a, const struct mp_info *mp)
{
	char sigs[LINE];
	struct strbuf sb;
	sb_init(&sb, sigs, sizeof(sigs));
	uint32_t invalid = 0;
	for (uint32_t i = 0; i < a->ntables; i++) {
		sb_printf(&sb, "%s%s%s", i ? " " : "", a->table[i].sig, a->table[i].valid ? "" : "(invalid)");
		invalid += !a->table[i].valid;
	}
	rep_line("acpi:       RSDP rev %u OEM '%s', %s: %s", a->rsdp_revision, a->oem_id, a->root ? a->root : "no root table", sigs);
	for (uint32_t i = 0; i < a->ntables; i++)
		if (a->table[i].defect[0])
			rep_line("            %s at 0x%llx: %s", a->table[i].sig, (unsigned long long)a->table[i].addr,
				 a->table[i].defect);
	for (uint32_t i = 0; i < a->nmcfg; i++)
		rep_line("            MCFG: segment %u buses %02x-%02x, ECAM at 0x%llx", a->mcfg[i].segment,
			 a->mcfg[i].start_bus, a->mcfg[i].end_bus, (unsigned long long)a->mcfg[i].base);
	if (a->madt.present)
		rep_line("            MADT: %u CPUs enabled (LAPIC %u, x2APIC %u, GICC %u), %u online-capable; "
			 "MP services %u: %s", madt_enabled(&a->madt), a->madt.lapic.enabled, a->madt.x2apic.enabled,
			 a->madt.gicc.enabled, a->madt.lapic.online_capable + a->madt.x2apic.online_capable +
			 a->madt.gicc.online_capable, mp->logical,
			 !mp->present ? "no MP services to compare" :
			 madt_enabled(&a->madt) == mp->enabled ? "agree" : "DISAGREE");
	if (a->fadt.present && a->fadt.pm_timer_present)
		rep_line("            FADT: ACPI PM timer %s 0x%llx (%s), %d-bit", a->fadt.pm_timer.space_id == ACPI_GAS_SPACE_IO ?
			 "I/O port" : "MMIO", (unsigned long long)a->fadt.pm_timer.address, a->fadt.pm_timer_source,
			 a->fadt.tmr_bits);
	else if (a->fadt.present)
		rep_line("            FADT: no ACPI PM timer%s", a->fadt.hw_reduced ? " (hardware-reduced ACPI)" : "");
	if (a->hpet.present)
		rep_line("            HPET: 0x%llx, %u comparators, %s counter, min tick %u",
			 (unsigned long long)a->hpet.base.address, a->hpet.comparators,
			 a->hpet.counter_64bit ? "64-bit" : "32-bit", a->hpet.min_tick);
	if (a->srat.present)
		rep_line("            SRAT: %u CPU and %u memory affinity entries", a->srat.ncpu, a->srat.nmem);
	if (a->slit.present)
		rep_line("            SLIT: %llu localities%s%s", (unsigned long long)a->slit.n,
			 a->slit.defect[0] ? ": " : "", a->slit.defect);
	if (a->apmt.present)
		rep_line("            APMT: %u PMU nodes%s%s", a->apmt.nnodes, a->apmt.defect[0] ? ": " : "", a->apmt.defect);
	if (invalid)
		rep_line("            %u table(s) failed validation and were skipped", invalid);
	for (uint32_t i = 0; i < a->ndups && i < ACPI_MAX_DUPS; i++) {
		const struct acpi_dup *d = &a->dup[i];
		rep_line("            duplicate %s: 0x%llx used (%s), 0x%llx not parsed: %s%u field(s) differ",
			 d->sig, (unsigned long long)d->used, d->why, (unsigned long long)d->other,
			 d->ndiff ? "" : "identical, ", d->ndiff);
		for (uint32_t k = 0; k < d->ndiff && k < ACPI_DUP_FIELDS; k++)
			rep_line("              %s: %s vs %s", d->diff[k].name, d->diff[k].used[0] ? d->diff[k].used : "-",
				 d->diff[k].other[0] ? d->diff[k].other : "-");
	}
	for (uint32_t i = 0; i < a->nlimits && i < ACPI_MAX_LIMITS; i++)
		rep_line("            defect: limit %s (%u) reached: %u %s not kept", a->limit[i].limit, a->limit[i].max,
			 a->limit[i].not_kept, a->limit[i].what);
}

void discovery_report(const struct discovery *d, const struct mp_info *mp)
{
	struct json *j = rep_begin("acpi");
	if (d->acpi_status == NO_TABLE || !d->acpi) {
		json_str(j, "error", d->acpi ? "no ACPI RSDP in the EFI configuration table" : "out of memory");
		rep_end();
		rep_line("acpi:       %s", d->acpi ? "no ACPI RSDP in the EFI configuration table" : "out of memory");
	} else {
		json_hex(j, "rsdp_addr", d->fw.rsdp);
		json_bool(j, "rsdp_acpi20_guid", d->fw.rsdp_acpi20);
		acpi_to_json(d->acpi, j);
		if (d->acpi->madt.present) {
			json_obj(j, "cpu_count_check");
			json_u64(j, "madt_enabled", madt_enabled(&d->acpi->madt));
			json_bool(j, "mp_services", mp->present);
			json_u64(j, "mp_enabled", mp->enabled);
			if (mp->present)
				json_bool(j, "agree", madt_enabled(&d->acpi->madt) == mp->enabled);
			json_close(j);
		}
		rep_end();
		if (d->acpi_status < 0)
			rep_error("acpi", "RSDP at 0x%llx rejected: %s", (unsigned long long)d->fw.rsdp, d->acpi->defect);
		else
			acpi_summary(d->acpi, mp);
	}

	const struct smbios_info *s = &d->smbios;
	j = rep_begin("smbios");
	if (d->smbios_status == NO_TABLE) {
		json_str(j, "error", "no SMBIOS entry point in the EFI configuration table");
		rep_end();
		rep_line("smbios:     no SMBIOS entry point in the EFI configuration table");
		return;
	}
	json_hex(j, "entry_addr", d->fw.smbios);
	smbios_to_json(s, j);
	json_str(j, "log_serial", d->serial);
	rep_end();
	if (d->smbios_status < 0) {
		rep_error("smbios", "entry point at 0x%llx rejected: %s", (unsigned long long)d->fw.smbios, s->defect);
		return;
	}
	rep_line("smbios:     %s %u.%u: %s %s, serial '%s' (logs: %s)", s->entry, s->major, s->minor,
		 s->system.manufacturer, s->system.product, s->system.serial, d->serial);
	rep_line("            BIOS %s %s (%s); %u memory devices populated, %llu MiB", s->bios.vendor,
		 s->bios.version, s->bios.date, s->mem.populated, (unsigned long long)s->mem.total_mib);
	for (uint32_t i = 0; i < s->ndefects && i < SMBIOS_MAX_DEFECTS; i++)
		rep_line("            defect: %s", s->defects[i]);
}

/* Every MCFG allocation kept must fit the ECAM backend. */
_Static_assert(ACPI_MAX_MCFG <= HW_ECAM_MAX_SEGMENTS, "ECAM backend holds fewer segments than MCFG");

/* ECAM: 4 KiB of configuration space per function, 1 MiB per bus from the allocation's base
 * (PCI Firmware Specification 3.3, 4.1.2 "MCFG Table Description", Table 4-3). */
#define ECAM_BUS_SHIFT 20

/* MCFG allocation i's ECAM window [*win, *win + *len) and its field name for defect records. */
static void mcfg_window(const struct acpi_mcfg_seg *m, uint32_t i, uint64_t *win, uint64_t *len, char *field, size_t n)
{
	*win = m->base + ((uint64_t)m->start_bus << ECAM_BUS_SHIFT);
	*len = (uint64_t)(m->end_bus - m->start_bus + 1) << ECAM_BUS_SHIFT;
	fmt_snprintf(field, n, "allocation %u Base Address (segment %u buses %02x-%02x)", i, m->segment, m->start_bus,
		     m->end_bus);
}

/* The ECAM window of MCFG allocation i: the checker (efi/fw/fwaddr.h) and one fault-safe read of
 * its first Vendor ID before the scan. 1 usable; 0 dropped after a firmware_defect record. */
static int mcfg_usable(const struct hw *hw, const struct acpi_mcfg_seg *m, uint32_t i)
{
	uint64_t win, len;
	char field[80];
	mcfg_window(m, i, &win, &len, field, sizeof(field));
	if (fw_addr_use("MCFG", field, win, len))
		return 0;
	uint32_t v;
	hw_status st = hw_mmio_read32(hw, win, &v);
	if (st != HW_OK) {
		fw_addr_fault("MCFG", field, win, st);
		return 0;
	}
	return 1;
}

int discovery_pcie(const struct hw *hw, const struct discovery *d, uint64_t timer_hz)
{
	struct ecam_segment segs[ACPI_MAX_MCFG];
	struct pcie_bus_range ranges[ACPI_MAX_MCFG];
	uint8_t alloc[ACPI_MAX_MCFG];     /* the MCFG allocation of each kept segment */
	_Static_assert(ACPI_MAX_MCFG <= 256, "an MCFG allocation index fits alloc[]");
	int n = 0;
	if (d->acpi && d->acpi_status == 0)
		for (uint32_t i = 0; i < d->acpi->nmcfg && i < ACPI_MAX_MCFG; i++) {
			const struct acpi_mcfg_seg *m = &d->acpi->mcfg[i];
			if (!mcfg_usable(hw, m, i))
				continue;
			alloc[n] = (uint8_t)i;
			segs[n] = (struct ecam_segment){ .base = m->base, .segment = m->segment,
							 .bus_start = m->start_bus, .bus_end = m->end_bus };
			ranges[n] = (struct pcie_bus_range){ m->segment, m->start_bus, m->end_bus };
			n++;
		}
	int ecam_segments = n;
	const char *method = n ? "ECAM (MCFG)" : "EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (no MCFG)";
	static struct hw_ecam ecam;
	struct hw h = *hw;
	if (n)
		h = hw_ecam_wrap(&ecam, *hw, segs, n);
	else {
		ranges[0] = (struct pcie_bus_range){ ROOT_BRIDGE_SEGMENT, 0, ROOT_BRIDGE_LAST_BUS };
		n = 1;
	}

	struct pcie_func *funcs = AllocatePool(PCIE_MAX_FUNCS * sizeof(*funcs));
	if (!funcs) {
		rep_error("pcie", "cannot allocate %u function records", PCIE_MAX_FUNCS);
		return 0;
	}
	struct pcie_scan s;
	pcie_scan_init(&s, funcs, PCIE_MAX_FUNCS);
	pcie_enumerate(&h, &s, ranges, n);
	/* An allocation no function answers in: every Vendor ID read all-ones (or zero), which a wrong
	 * base or an undecoded segment gives (a host bridge or root port answers in any used segment). */
	for (int r = 0; r < ecam_segments; r++) {
		int found = 0;
		for (int i = 0; i < s.n && !found; i++)
			found = funcs[i].addr.segment == ranges[r].segment && funcs[i].addr.bus >= ranges[r].bus_start &&
				funcs[i].addr.bus <= ranges[r].bus_end;
		uint64_t win, len;
		char field[80];
		mcfg_window(&d->acpi->mcfg[alloc[r]], alloc[r], &win, &len, field, sizeof(field));
		if (!found)
			fw_addr_defect("MCFG", field, win, len, "no functions",
				       "no Vendor ID in the ECAM window names a function (each read all-ones 0xFFFF or 0): a wrong "
				       "base address, or the segment is not decoded there");
	}

	rep_line("pcie:       %d functions through %s", s.n, method);
	char line[LINE * 2];
	for (int i = 0; i < s.n; i++) {
		struct json *j = rep_begin("pcie");
		pcie_func_to_json(&funcs[i], j);
		rep_end();
		pcie_func_line(&funcs[i], line, sizeof(line));
		rep_line("  %s", line);
	}
	int nv = 0;
	for (int i = 0; i < s.n; i++)
		if (pcie_nvidia_map_line(&funcs[i], line, sizeof(line))) {
			if (!nv++)
				rep_line("pcie:       NVIDIA root-complex map (DVSEC 0x10de id 0x4):");
			rep_line("%s", line);
		}

	struct json *j = rep_begin("pcie_scan");
	json_str(j, "method", method);
	json_arr(j, "ranges");
	for (int i = 0; i < n; i++) {
		json_obj(j, NULL);
		json_u64(j, "segment", ranges[i].segment);
		json_u64(j, "bus_start", ranges[i].bus_start);
		json_u64(j, "bus_end", ranges[i].bus_end);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "functions", (uint64_t)s.n);
	json_u64(j, "overflow", s.overflow);
	json_u64(j, "read_errors", s.read_errors);
	if (s.read_errors)
		json_str(j, "first_error", hw_status_name(s.first_error));
	json_u64(j, "nvidia_map_lines", (uint64_t)nv);
	rep_end();
	if (s.overflow)
		rep_error("pcie", "%u functions beyond the %u recorded were not reported", s.overflow, PCIE_MAX_FUNCS);
	discovery_cxl(&h, d, funcs, s.n, timer_hz);
	FreePool(funcs);
	return s.n;
}
