/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/platform.h"
#include "efi/out/report.h"
#include "efi/timer.h"
#include "efi/fw/pmtimer.h"
#include "efi/out/volume.h"
#include "efi/exceptions.h"
#include "arch/arch.h"
#include "efi/measure/vec_run.h"
#include "efi/pages.h"

#define CALIBRATE_STALL_US 20000u
#define CALIBRATE_TRIES 5
#define PMTIMER_CALIBRATE_MS 100u
#define PCI_VENDOR_DEVICE 0x00u
#define PCI_VENDOR_NONE 0xFFFFu

static struct hw_pci_addr host_bridge = { 0, 0, 0, 0 };
static uint32_t pci_id;
static hw_status pci_st;

/* The vector state on every enabled CPU: what the firmware left, enabled as the stream kernels
 * will have it, then restored and read back, so the platform record shows all three. */
static void vector_state_check(const struct hw *hw, struct platform *p)
{
	/* the trial lives as long as the platform (p->vec); both from the pool, not .bss */
	struct vec_run *trial = pool_zalloc(sizeof(*trial));
	struct window_cpu *cpus = pool_zalloc(WINDOW_MAX_CPUS * sizeof(*cpus));
	if (!trial || !cpus) {
		pool_free(trial);
		pool_free(cpus);
		p->vec = NULL;
		return;
	}
	int n = 0;
	/* With the PSCI backend the other CPUs start from the boot CPU's system registers for
	 * every job and are off between jobs: their vector state is the boot CPU's, so the boot
	 * CPU alone is enabled and restored. */
	for (uint32_t i = 0; i < p->mp.logical && n < WINDOW_MAX_CPUS && !p->mp.psci; i++)
		if (!p->mp.cpu || p->mp.cpu[i].enabled)
			cpus[n++].cpu = i;
	if (!n)
		cpus[n++].cpu = p->mp.bsp;
	vec_run_enable(hw, trial, cpus, n);
	vec_run_restore(trial);
	pool_free(cpus);
	p->vec = trial;
}

void platform_discover(const struct hw *hw, struct platform *p)
{
	arch_cpu_info(hw, &p->cpu);
	mp_use_acpi(p->madt, p->fadt, p->pptt);
	mp_init(&p->mp);
	/* CPUID 0x15/0x16 (or CNTFRQ_EL0) when the CPU says; else the ACPI PM timer over 100 ms
	 * (ACPI 6.5 4.8.3.3: 3.579545 MHz); else gBS->Stall. The Stall measurement is kept beside as a cross-check. */
	p->timer_hz = p->cpu.tsc_hz;
	p->timer_source = p->cpu.tsc_source;
	if (!p->timer_hz) {
		p->timer_hz = timer_calibrate_pmtimer(hw, p->fadt, PMTIMER_CALIBRATE_MS, &p->pm_why);
		p->timer_source = "calibrated against the ACPI PM timer (FADT), 100 ms";
	}
	p->stall_hz = timer_calibrate_hz(CALIBRATE_STALL_US, CALIBRATE_TRIES);
	if (!p->timer_hz) {
		p->timer_hz = p->stall_hz;
		p->timer_source = "calibrated against gBS->Stall";
	}
	p->stall_ppm = pmtimer_ppm(p->stall_hz, p->timer_hz);
	p->core_known = core_probe(hw, &p->core) == 0;
	if (p->core.pmu && p->core.pmu->probe_name && p->core.probe[0])
		cpuinfo_probe(&p->cpu, p->core.pmu->probe_name, "%s", p->core.probe);
	pci_st = hw_pci_read32(hw, host_bridge, PCI_VENDOR_DEVICE, &pci_id);
	vector_state_check(hw, p);
}

static void firmware(struct json *j)
{
	char vendor[64];
	ucs2_to_ascii(vendor, sizeof(vendor), ST->FirmwareVendor, 63);
	json_obj(j, "firmware");
	json_str(j, "vendor", vendor);
	json_hex(j, "revision", ST->FirmwareRevision);
	char uefi[16];
	fmt_snprintf(uefi, sizeof(uefi), "%u.%u", ST->Hdr.Revision >> 16, (ST->Hdr.Revision & 0xFFFF) / 10);
	json_str(j, "uefi", uefi);
	json_close(j);
	rep_line("firmware:   %s rev 0x%x, UEFI %s", vendor, ST->FirmwareRevision, uefi);
}

void platform_report(const struct platform *p)
{
	const struct cpu_info *c = &p->cpu;
	struct json *j = rep_begin("platform");
	json_str(j, "arch", c->arch);
	json_obj(j, "cpu");
	json_str(j, "vendor", c->vendor);
	json_str(j, "brand", c->brand);
	json_hex(j, "signature", c->signature);
	char ident[160];
	struct strbuf sb;
	sb_init(&sb, ident, sizeof(ident));
	for (uint32_t i = 0; i < arch_nident_fields; i++) {
		const struct cpu_ident_field *f = &arch_ident_fields[i];
		uint32_t v = *(const uint32_t *)((const char *)c + f->offset);
		json_u64(j, f->key, v);
		sb_printf(&sb, f->hex ? "%s%s 0x%x" : "%s%s %u", i ? ", " : "", f->key, v);
	}
	if (c->microcode_valid)
		json_hex(j, "microcode", c->microcode);
	else
		json_null(j, "microcode");
	json_close(j);

	if (p->smbios && p->smbios->system.present) {
		const struct smbios_info *sm = p->smbios;
		json_obj(j, "system");
		json_str(j, "manufacturer", sm->system.manufacturer);
		json_str(j, "product", sm->system.product);
		json_str(j, "serial", sm->system.serial);
		json_str(j, "bios_vendor", sm->bios.present ? sm->bios.vendor : NULL);
		json_str(j, "bios_version", sm->bios.present ? sm->bios.version : NULL);
		json_close(j);
	} else {
		json_null(j, "system");
	}

	json_obj(j, "topology");
	json_bool(j, "mp_services", p->mp.present);
	json_u64(j, "logical_cpus", p->mp.logical);
	json_u64(j, "enabled_cpus", p->mp.enabled);
	json_u64(j, "packages", p->mp.packages);
	json_u64(j, "boot_cpu", p->mp.bsp);
	json_str(j, "mp_backend", p->mp.backend);
	json_str(j, "cpu_count_source", p->mp.count_source);
	if (p->mp.why[0])
		json_str(j, "mp_why", p->mp.why);
	if (p->mp.psci) {
		json_str(j, "psci_conduit", p->mp.psci_conduit == ARCH_AP_HVC ? "HVC" : "SMC");
		char v[16];
		fmt_snprintf(v, sizeof(v), "%u.%u", (uint32_t)p->mp.psci_version >> 16, (uint32_t)p->mp.psci_version & 0xffff);
		json_str(j, "psci_version", v);
	}
	json_u64(j, "threads_per_core", c->threads_per_core);
	json_u64(j, "logical_per_package", c->logical_per_package);
	json_close(j);

	json_obj(j, "timer");
	json_str(j, "counter", arch_timer_name);
	json_bool(j, "invariant", c->tsc_invariant);
	json_u64(j, "hz", p->timer_hz);
	json_str(j, "source", p->timer_source);
	if (p->pm_why)
		json_str(j, "pm_timer", p->pm_why);
	json_u64(j, "stall_hz", p->stall_hz);
	json_i64(j, "stall_ppm", p->stall_ppm);
	json_close(j);

	rep_line("cpu:        %s %s, %s", c->arch, c->vendor, c->brand[0] ? c->brand : "(no brand string)");
	if (c->microcode_valid)
		rep_line("            %s; signature 0x%x; microcode 0x%llx", ident, c->signature,
			 (unsigned long long)c->microcode);
	else
		rep_line("            %s; signature 0x%x", ident, c->signature);
	rep_line("cpus:       %u logical (%u enabled), %u package(s), boot CPU %u%s", p->mp.logical,
		 p->mp.enabled, p->mp.packages, p->mp.bsp,
		 p->mp.present ? "" : p->mp.why[0] ? " (boot CPU only)" : " (no EFI_MP_SERVICES_PROTOCOL: MADT GICC CPUs started with PSCI CPU_ON)");
	rep_line("timer:      %s %llu Hz (%s)%s", arch_timer_name,
		 (unsigned long long)p->timer_hz, p->timer_source, c->tsc_invariant ? ", invariant" : ", NOT invariant");
	rep_line("            gBS->Stall measures %llu Hz (%lld ppm)%s%s", (unsigned long long)p->stall_hz,
		 (long long)p->stall_ppm, p->pm_why ? "; PM timer: " : "", p->pm_why ? p->pm_why : "");
	firmware(j);

	json_obj(j, "exceptions");
	json_u64(j, "vectors_registered", (uint64_t)p->exc_vectors);
	json_u64(j, "vectors_wanted", arch_nfault_vectors);
	json_str(j, "why", p->exc_why);
	json_close(j);
	rep_line("faults:     %d of %u exception vectors hooked for fault-safe register access%s%s",
		 p->exc_vectors, arch_nfault_vectors, p->exc_why ? ": " : "", p->exc_why ? p->exc_why : "");

	if (!p->vec)
		json_str(j, "vector_state", "no pool memory for the trial");
	else {
		vec_run_json(j, "vector_state", p->vec);
		const struct vec_run *v = p->vec;
		char fw[64], on[64];
		vec_isa_list(v->isa_firmware, fw, sizeof(fw));
		vec_isa_list(v->isa_enabled, on, sizeof(on));
		if (v->plan.why)
			rep_line("vector:     firmware %s=0x%llx: kernels %s; %s", v->plan.ctl_name,
				 (unsigned long long)(v->n ? v->jobs[0].c.ctl_fw : 0), fw, v->plan.why);
		else
			rep_line("vector:     firmware %s=0x%llx %s=0x%llx (kernels %s); efiperf enables %s=0x%llx %s=0x%llx "
				 "(kernels %s) on %d of %d CPUs for its windows; restored on %d, read back",
				 v->plan.ctl_name, (unsigned long long)v->jobs[0].c.ctl_fw, v->plan.xcr_name,
				 (unsigned long long)v->jobs[0].c.xcr_fw, fw, v->plan.ctl_name,
				 (unsigned long long)v->jobs[0].c.ctl_on, v->plan.xcr_name,
				 (unsigned long long)v->jobs[0].c.xcr_on, on, v->enabled, v->n, v->restored);
	}

	json_obj(j, "core_pmu");
	json_str(j, "name", p->core_known ? p->core.pmu->name : NULL);
	json_str(j, "probe", p->core.probe);
	json_close(j);
	rep_line("core pmu:   %s: %s", p->core_known ? p->core.pmu->name : "none", p->core.probe);

	json_obj(j, "probes");
	for (int i = 0; i < c->nprobes; i++) {
		json_str(j, c->probe[i].name, c->probe[i].result);
		rep_line("probe:      %-20s %s", c->probe[i].name, c->probe[i].result);
	}
	json_close(j);

	json_obj(j, "pci");
	json_str(j, "access", "EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL");
	if (pci_st == HW_OK && (pci_id & PCI_VENDOR_NONE) != PCI_VENDOR_NONE) {
		char id[16];
		fmt_snprintf(id, sizeof(id), "%04x:%04x", pci_id & 0xFFFF, pci_id >> 16);
		json_str(j, "0000:00:00.0", id);
		rep_line("pci:        0000:00:00.0 %s", id);
	} else {
		json_str(j, "0000:00:00.0", pci_st == HW_OK ? "no device" : hw_status_name(pci_st));
		rep_line("pci:        0000:00:00.0 %s", pci_st == HW_OK ? "no device" : hw_status_name(pci_st));
	}
	json_close(j);
	rep_end();
}
