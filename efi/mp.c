/* SPDX-License-Identifier: BSD-2-Clause */
#include <efi.h>
#include <efilib.h>
#include "efi/mp.h"
#include "efi/pi_protocols.h"

static EFI_MP_SERVICES_PROTOCOL *mp;
static struct mp_info mpi = { .logical = 1, .enabled = 1, .packages = 1 };

#define MP_MAX_PACKAGES 64

int mp_init(struct mp_info *info)
{
	static EFI_GUID guid = EFI_MP_SERVICES_PROTOCOL_GUID;
	if (mpi.present) {       /* asked once per window: the firmware's answer does not change */
		*info = mpi;
		return 0;
	}
	if (!mp && BS->LocateProtocol(&guid, NULL, (VOID **)&mp) != EFI_SUCCESS)
		mp = NULL;
	if (mp) {
		UINTN n = 0, en = 0, me = 0;
		if (mp->GetNumberOfProcessors(mp, &n, &en) == EFI_SUCCESS && n) {
			mpi.present = 1;
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
		}
	}
	*info = mpi;
	return mpi.present ? 0 : -1;
}

struct ap_call { hw_cpu_fn fn; void *arg; };

static VOID EFIAPI ap_trampoline(VOID *p)
{
	struct ap_call *c = p;
	c->fn(c->arg);
}

hw_status mp_run_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg)
{
	if (cpu == mpi.bsp) {
		fn(arg);
		return HW_OK;
	}
	if (!mpi.present)
		return HW_UNSUPPORTED;
	if (cpu >= mpi.logical)
		return HW_BAD_ARG;
	struct ap_call c = { fn, arg };
	EFI_STATUS st = mp->StartupThisAP(mp, ap_trampoline, cpu, NULL, 0, &c, NULL);
	return st == EFI_SUCCESS ? HW_OK : HW_ERROR;
}

static VOID EFIAPI pending_trampoline(VOID *arg)
{
	struct mp_pending *p = arg;
	p->fn(p->arg);
}

hw_status mp_start_on_cpu(uint32_t cpu, hw_cpu_fn fn, void *arg, struct mp_pending *p)
{
	*p = (struct mp_pending){ .fn = fn, .arg = arg };
	if (!mpi.present)
		return HW_UNSUPPORTED;
	if (cpu >= mpi.logical || cpu == mpi.bsp)
		return HW_BAD_ARG;
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
	UINTN index;
	EFI_STATUS st = BS->WaitForEvent(1, (EFI_EVENT *)&p->event, &index);
	BS->CloseEvent(p->event);
	p->started = 0;
	return st == EFI_SUCCESS ? HW_OK : HW_ERROR;
}
