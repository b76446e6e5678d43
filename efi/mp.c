/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/mp.h"
#include "efi/pi_protocols.h"
#include "efi/cleanup.h"
#include "efi/fw/acpi.h"
#include "efi/pages.h"
#include "efi/exceptions.h"
#include "arch/arch.h"
#include "arch/lib/fmt.h"

static EFI_MP_SERVICES_PROTOCOL *mp;
static struct mp_info mpi = { .logical = 1, .enabled = 1, .packages = 1, .package_source = "none",
			       .package_why = "boot CPU only" };
static const struct acpi_madt *acpi_madt;
static const struct acpi_fadt *acpi_fadt;
static const struct acpi_pptt *acpi_pptt;

#define MP_MAX_PACKAGES 64
/* A job's AP has this long to finish, and then to be reported off (10 us polls). */
#define MP_JOB_TIMEOUT_POLLS  (600u * 100000u)   /* 600 s */
#define MP_OFF_TIMEOUT_POLLS  (2u * 100000u)     /* 2 s */
#define MP_POLL_US 10
#define PSCI_MIN_VERSION 0x00000002              /* PSCI 0.2: the first with CPU_ON/AFFINITY_INFO IDs fixed */

/* The PSCI backend: one arch_ap block and stack per CPU (the boot CPU's unused). */
static struct {
	int on;
	struct arch_ap *ap;
	uint8_t *busy;           /* a job was started and its AP has not been seen off */
	char (*why)[160];
	int cleanup;
	volatile uint32_t abort;
} ps = { .cleanup = -1 };

void mp_use_acpi(const struct acpi_madt *madt, const struct acpi_fadt *fadt, const struct acpi_pptt *pptt)
{
	acpi_madt = madt;
	acpi_fadt = fadt;
	acpi_pptt = pptt;
}

/* Packages, clusters and cores of the n PSCI CPUs from the PPTT, by their GICC UIDs; without a
 * usable PPTT every CPU stays in package 0 and package_why says why. */
static void psci_packages(struct cpu_desc *cpu, const uint32_t *uid, uint32_t n)
{
	struct acpi_cpu_topo *t = AllocatePool(n * sizeof(*t));
	int np = t ? acpi_pptt_topology(acpi_pptt, uid, n, t, mpi.package_why, sizeof(mpi.package_why)) : -1;
	if (!t)
		fmt_snprintf(mpi.package_why, sizeof(mpi.package_why), "cannot allocate the topology of %u CPUs", n);
	if (np <= 0) {
		mpi.package_source = "none";
		if (t)
			FreePool(t);
		return;
	}
	mpi.package_source = "PPTT";
	mpi.package_why[0] = 0;
	mpi.packages = 0;
	for (uint32_t i = 0; i < n; i++) {
		cpu[i].package = t[i].package;
		if (t[i].package == mpi.packages && mpi.packages < MP_MAX_PACKAGES)
			mpi.package_cpu[mpi.packages++] = i;
	}
	mpi.topo = t;   /* kept for the run: the cpus record and c2c read cluster and core */
}

static const char *psci_err(int32_t r)
{
	static const char *const names[] = { "SUCCESS", "NOT_SUPPORTED", "INVALID_PARAMETERS", "DENIED",
					     "ALREADY_ON", "ON_PENDING", "INTERNAL_FAILURE", "NOT_PRESENT",
					     "DISABLED", "INVALID_ADDRESS" };
	return r <= 0 && -r < (int32_t)(sizeof(names) / sizeof(names[0])) ? names[-r] : "unknown";
}

/* No MP services: the MADT's GICC CPUs through PSCI, or the boot CPU alone with a reason. */
static void psci_init(void)
{
	mpi.backend = mpi.count_source = "boot CPU only";
	uint32_t ngicc = 0;
	for (uint32_t i = 0; acpi_madt && acpi_madt->present && i < acpi_madt->ncpu; i++)
		ngicc += acpi_madt->cpu[i].kind == ACPI_CPU_GICC;
	if (!ngicc) {
		fmt_snprintf(mpi.why, sizeof(mpi.why), "no EFI_MP_SERVICES_PROTOCOL and no MADT GICC entries");
		return;
	}
	if (!acpi_fadt || !acpi_fadt->present || !acpi_fadt->psci_compliant) {
		fmt_snprintf(mpi.why, sizeof(mpi.why),
			     "no EFI_MP_SERVICES_PROTOCOL and the FADT does not say PSCI_COMPLIANT (ARM_BOOT_ARCH)");
		return;
	}
	int conduit = acpi_fadt->psci_use_hvc ? ARCH_AP_HVC : ARCH_AP_SMC;
	int32_t ver = arch_psci_version(conduit);
	if (ver < PSCI_MIN_VERSION) {
		fmt_snprintf(mpi.why, sizeof(mpi.why), "PSCI_VERSION over %s returned 0x%x: CPU_ON needs PSCI 0.2 or later",
			     conduit == ARCH_AP_HVC ? "HVC" : "SMC", (uint32_t)ver);
		return;
	}
	struct cpu_desc *cpu = AllocateZeroPool(ngicc * sizeof(*cpu));
	uint32_t *uid = AllocateZeroPool(ngicc * sizeof(*uid));
	ps.ap = pages_alloc(ngicc * sizeof(struct arch_ap));
	ps.busy = AllocateZeroPool(ngicc);
	ps.why = AllocateZeroPool(ngicc * sizeof(*ps.why));
	if (!cpu || !uid || !ps.ap || !ps.busy || !ps.why) {
		fmt_snprintf(mpi.why, sizeof(mpi.why), "cannot allocate the PSCI CPU table for %u CPUs", ngicc);
		return;
	}
	uint64_t me = arch_cpu_hwid();
	uint32_t n = 0;
	int found = 0;
	for (uint32_t i = 0; i < acpi_madt->ncpu; i++) {
		if (acpi_madt->cpu[i].kind != ACPI_CPU_GICC)
			continue;
		/* The MADT does not say packages: psci_packages() below takes them from the PPTT. */
		cpu[n] = (struct cpu_desc){ .proc_id = acpi_madt->cpu[i].id, .package = 0, .enabled = 1 };
		uid[n] = acpi_madt->cpu[i].uid;
		ps.ap[n] = (struct arch_ap){ .hwid = acpi_madt->cpu[i].id };
		if (acpi_madt->cpu[i].id == me) {
			mpi.bsp = n;
			found = 1;
		}
		n++;
	}
	if (!found) {
		FreePool(uid);
		fmt_snprintf(mpi.why, sizeof(mpi.why), "no MADT GICC entry has this CPU's MPIDR 0x%llx",
			     (unsigned long long)me);
		return;
	}
	mpi.logical = mpi.enabled = n;
	mpi.packages = 1;
	mpi.package_cpu[0] = mpi.bsp;
	psci_packages(cpu, uid, n);
	FreePool(uid);
	mpi.cpu = cpu;
	mpi.backend = "PSCI";
	mpi.count_source = "MADT GICC entries";
	mpi.psci = 1;
	mpi.psci_conduit = conduit;
	mpi.psci_version = ver;
	mpi.why[0] = 0;
	ps.on = 1;
}

int mp_init(struct mp_info *info)
{
	static EFI_GUID guid = EFI_MP_SERVICES_PROTOCOL_GUID;
	static int done;
	if (done) {              /* asked once per window: the firmware's answer does not change */
		*info = mpi;
		return mpi.present ? 0 : -1;
	}
	done = 1;
	if (!mp && BS->LocateProtocol(&guid, NULL, (VOID **)&mp) != EFI_SUCCESS)
		mp = NULL;
	if (mp) {
		UINTN n = 0, en = 0, me = 0;
		if (mp->GetNumberOfProcessors(mp, &n, &en) == EFI_SUCCESS && n) {
			mpi.present = 1;
			mpi.backend = mpi.count_source = mpi.package_source = "EFI_MP_SERVICES_PROTOCOL";
			mpi.package_why[0] = 0;
			mpi.logical = (uint32_t)n;
			mpi.enabled = (uint32_t)en;
			if (mp->WhoAmI(mp, &me) == EFI_SUCCESS)
				mpi.bsp = (uint32_t)me;
			uint32_t pkgs[MP_MAX_PACKAGES], np = 0;
			struct cpu_desc *cpu = AllocateZeroPool(n * sizeof(*cpu));
			for (UINTN i = 0; i < n; i++) {
				EFI_PROCESSOR_INFORMATION pi;
				if (mp->GetProcessorInfo(mp, i, &pi) != EFI_SUCCESS)
					continue;
				if (cpu)
					cpu[i] = (struct cpu_desc){ .proc_id = pi.ProcessorId, .package = pi.Location.Package,
								    .enabled = (pi.StatusFlag & PROCESSOR_ENABLED_BIT) != 0 };
				uint32_t k = 0;
				while (k < np && pkgs[k] != pi.Location.Package)
					k++;
				if (k == np && np < MP_MAX_PACKAGES) {
					mpi.package_cpu[np] = (uint32_t)i;
					pkgs[np++] = pi.Location.Package;
				}
			}
			mpi.packages = np ? np : 1;
			mpi.cpu = cpu;
			ps.why = AllocateZeroPool(n * sizeof(*ps.why));   /* mp_cpu_why of a faulted job */
		}
	}
	if (!mpi.present)
		psci_init();
	*info = mpi;
	return mpi.present || ps.on ? 0 : -1;
}

/* ---- PSCI: one CPU_ON per job, the AP ends it with CPU_OFF ------------------------------ */

/* Wait until AP `cpu` is reported off (AFFINITY_INFO), at most `polls` x 10 us. */
static int psci_wait_off(uint32_t cpu, uint32_t polls)
{
	for (uint32_t k = 0; k < polls; k++) {
		if (arch_ap_is_off(ps.ap[cpu].hwid, mpi.psci_conduit) == 1)
			return 1;
		BS->Stall(MP_POLL_US);
	}
	return 0;
}

/* Fatal-exception path (efi/cleanup.h): tell every AP to leave its wait (mp_aborting) and
 * give each started one time to reach CPU_OFF. */
static void psci_cleanup(void *arg)
{
	(void)arg;
	__atomic_store_n(&ps.abort, 1, __ATOMIC_RELEASE);
	for (uint32_t i = 0; i < mpi.logical; i++)
		if (ps.busy[i] && psci_wait_off(i, MP_OFF_TIMEOUT_POLLS))
			ps.busy[i] = 0;
}

int mp_aborting(void)
{
	return (int)__atomic_load_n(&ps.abort, __ATOMIC_ACQUIRE);
}

const char *mp_cpu_why(uint32_t cpu)
{
	return ps.why && cpu < mpi.logical && ps.why[cpu][0] ? ps.why[cpu] : NULL;
}

static hw_status psci_start(uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	struct arch_ap *ap = &ps.ap[cpu];
	ps.why[cpu][0] = 0;
	if (ps.busy[cpu]) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "CPU %u was not seen off after its last job", cpu);
		return HW_ERROR;
	}
	if (!ap->stack && !(ap->stack = pages_alloc(ARCH_AP_STACK_BYTES))) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "no memory for CPU %u's stack", cpu);
		return HW_ERROR;
	}
	ap->fn = fn;
	ap->arg = arg;
	if (ps.cleanup < 0)
		ps.cleanup = cleanup_push(psci_cleanup, NULL);
	hw_status st = arch_ap_start(ap, mpi.psci_conduit);
	if (st != HW_OK) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "PSCI CPU_ON of MPIDR 0x%llx returned %d (%s)",
			     (unsigned long long)ap->hwid, ap->psci_status, psci_err(ap->psci_status));
		return st;
	}
	ps.busy[cpu] = 1;
	return HW_OK;
}

static hw_status psci_wait(uint32_t cpu)
{
	struct arch_ap *ap = &ps.ap[cpu];
	uint32_t k = 0, s;
	while ((s = __atomic_load_n(&ap->state, __ATOMIC_ACQUIRE)) != ARCH_AP_DONE && s != ARCH_AP_FAULTED &&
	       k++ < MP_JOB_TIMEOUT_POLLS)
		BS->Stall(MP_POLL_US);
	int off = psci_wait_off(cpu, MP_OFF_TIMEOUT_POLLS);
	if (off)
		ps.busy[cpu] = 0;
	int any_busy = 0;
	for (uint32_t i = 0; i < mpi.logical; i++)
		any_busy |= ps.busy[i];
	if (!any_busy && ps.cleanup >= 0) {
		cleanup_pop(ps.cleanup);
		ps.cleanup = -1;
	}
	if (s == ARCH_AP_FAULTED) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "exception on CPU %u: ESR 0x%llx at 0x%llx%s", cpu,
			     (unsigned long long)ap->fault_esr, (unsigned long long)ap->fault_ip,
			     off ? ", then CPU_OFF" : ", and it was not seen off");
		return HW_ERROR;
	}
	if (s != ARCH_AP_DONE) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "CPU %u did not finish its job (state %u)%s", cpu, s,
			     off ? "" : ", not seen off");
		return HW_ERROR;
	}
	if (!off) {
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]), "CPU %u finished but AFFINITY_INFO never said OFF", cpu);
		return HW_ERROR;
	}
	return HW_OK;
}

/* ---- the one interface ------------------------------------------------------------------ */

struct ap_call { hw_cpu_fn fn; void *arg; int faulted; struct exc_ap_fault fault; };

/* The AP procedures StartupThisAP runs: the job under exceptions_ap_call, so a fault no fixup
 * covers ends the job here (the AP may not take the boot CPU's fatal path: it would call boot
 * services) and the boot CPU reports it through mp_cpu_why. */
static volatile uint32_t ap_job_faults;   /* MP-services jobs that ended at an exception */

/* fn(arg) on this AP under exceptions_ap_call: 1 when it faulted (*fault filled, counted). */
static int guarded_job(hw_cpu_fn fn, void *arg, struct exc_ap_fault *fault)
{
	int faulted = exceptions_ap_call(fn, arg, fault);
	if (faulted)
		__atomic_add_fetch(&ap_job_faults, 1, __ATOMIC_ACQ_REL);
	return faulted;
}

static VOID EFIAPI ap_trampoline(VOID *p)
{
	struct ap_call *c = p;
	c->faulted = guarded_job(c->fn, c->arg, &c->fault);
}

uint32_t mp_jobs_faulted(void)
{
	uint32_t n = __atomic_load_n(&ap_job_faults, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; ps.on && i < mpi.logical; i++)
		n += ps.busy[i] && __atomic_load_n(&ps.ap[i].state, __ATOMIC_ACQUIRE) == ARCH_AP_FAULTED;
	return n;
}

/* The MP-services counterpart of psci_wait's "exception on CPU" reason. */
static hw_status ap_fault_why(uint32_t cpu, const struct exc_ap_fault *f)
{
	if (ps.why)
		fmt_snprintf(ps.why[cpu], sizeof(ps.why[cpu]),
			     "CPU %u: unexpected %s at IP 0x%lx (efiperf.so+0x%lx) on an AP (hwid 0x%llx); its job ended there",
			     cpu, f->vector, (unsigned long)f->ip, (unsigned long)exceptions_image_offset(f->ip),
			     (unsigned long long)f->hwid);
	return HW_ERROR;
}

hw_status mp_run_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	if (cpu == mpi.bsp) {
		fn(arg);
		return HW_OK;
	}
	if (cpu >= mpi.logical)
		return HW_BAD_ARG;
	if (ps.on) {
		hw_status st = psci_start(cpu, fn, arg);
		return st == HW_OK ? psci_wait(cpu) : st;
	}
	if (!mpi.present)
		return HW_UNSUPPORTED;
	struct ap_call c = { fn, arg, 0, { 0 } };
	if (ps.why)
		ps.why[cpu][0] = 0;
	EFI_STATUS st = mp->StartupThisAP(mp, ap_trampoline, cpu, NULL, 0, &c, NULL);
	if (st == EFI_SUCCESS && c.faulted)
		return ap_fault_why(cpu, &c.fault);
	return st == EFI_SUCCESS ? HW_OK : HW_ERROR;
}

static VOID EFIAPI pending_trampoline(VOID *arg)
{
	struct mp_pending *p = arg;
	p->faulted = guarded_job(p->fn, p->arg, &p->fault);
}

hw_status mp_start_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg, struct mp_pending *p)
{
	*p = (struct mp_pending){ .fn = fn, .arg = arg, .cpu = cpu };
	if (!mpi.present && !ps.on)
		return HW_UNSUPPORTED;
	if (cpu >= mpi.logical || cpu == mpi.bsp)
		return HW_BAD_ARG;
	if (ps.on) {
		hw_status st = psci_start(cpu, fn, arg);
		p->started = st == HW_OK;
		return st;
	}
	if (ps.why)
		ps.why[cpu][0] = 0;
	EFI_EVENT ev;
	if (BS->CreateEvent(0, 0, NULL, NULL, &ev) != EFI_SUCCESS)
		return HW_ERROR;
	if (mp->StartupThisAP(mp, pending_trampoline, cpu, ev, 0, p, NULL) != EFI_SUCCESS) {
		BS->CloseEvent(ev);
		return HW_ERROR;
	}
	p->event = ev;
	p->started = 1;
	return HW_OK;
}

hw_status mp_wait(struct mp_pending *p)
{
	if (!p->started)
		return HW_BAD_ARG;
	p->started = 0;
	if (ps.on)
		return psci_wait(p->cpu);
	UINTN index;
	EFI_STATUS st = BS->WaitForEvent(1, (EFI_EVENT *)&p->event, &index);
	BS->CloseEvent(p->event);
	if (st == EFI_SUCCESS && p->faulted)
		return ap_fault_why(p->cpu, &p->fault);
	return st == EFI_SUCCESS ? HW_OK : HW_ERROR;
}
