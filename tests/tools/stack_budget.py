#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Static stack budget of efiperf (python3 standard library only).

    tests/tools/stack_budget.py --arch ARCH [--src ROOT] [--top N] [--verbose] [--partial] CI_DIR...

Reads the .ci files GCC writes with -fcallgraph-info=su (one per object: a VCG graph whose nodes
are the functions of the file with their frame size, "N bytes (static)", and whose edges are
the calls, each labelled with the call's file:line:col; an indirect call goes to
"__indirect_call"), joins them into one call graph and computes the worst-case stack depth from
each entry point:

  boot   efi_main, on the firmware's DXE stack (budget BUDGETS[arch]["boot"]);
  ap     every function the boot CPU sends to another CPU (AP_ENTRIES below, each with why),
         on the AP stack the firmware gave (budget BUDGETS[arch]["ap"]).

Indirect calls are resolved by the source line of the call (INDIRECT below: a regex on the line
and the functions it may reach, a class or the functions assigned to that struct field in the
sources); one no rule resolves is reported and fails the check. Recursion is reported and fails,
except the cycles KNOWN_CYCLES names (a wrapper that never wraps itself). A function without a
.ci node (assembly, gnu-efi, picolibc) costs what EXTERNAL says; one missing there is reported and
fails. A frame GCC calls dynamic (alloca, a VLA) and not bounded fails too.

Prints the entry points with their worst depth, the top paths with each frame, and a last line
"stack ARCH: boot N bytes of B, ap N bytes of B (entry), E entries, F failures".
Exits 0 when nothing failed, 1 otherwise, 2 on bad usage.
"""
import argparse
import os
import re
import sys

# ---- the stack facts (tianocore/edk2) ------------------------------------------------------
# Boot CPU: DxeIpl gives the DXE core, and every UEFI application it starts, one stack of
#   STACK_SIZE = 0x20000 (128 KiB): MdeModulePkg/Core/DxeIplPeim/DxeIpl.h, allocated in
#   X64/DxeLoadFunc.c and DxeHandoff.c (AArch64, ArmVirtPkg's ArmVirtQemu uses DxeIpl too).
# APs, x86_64: the MP services (UefiCpuPkg MpInitLib) give each AP PcdCpuApStackSize bytes, default
#   0x8000 (32 KiB) in UefiCpuPkg/UefiCpuPkg.dec; OvmfPkg does not override it.
# APs, aarch64: ArmVirtPkg (AAVMF) has no MP services, so efiperf starts APs through PSCI on its
#   own ARCH_AP_STACK_BYTES (64 KiB, arch/arch.h). Firmware that has ArmPkg's
#   ArmPsciMpServicesDxe gives each AP AP_STACK_SIZE = 0x1000 (4 KiB):
#   ArmPkg/Drivers/ArmPsciMpServicesDxe/MpServicesInternal.h. efiperf prefers MP services when
#   present, so the aarch64 AP budget is taken from the smaller one.
# A safe fraction. Boot CPU: half of the DXE stack is efiperf's; the other half is the
# firmware's (the DXE dispatcher, BDS and the shell below efi_main, and the UEFI services
# efiperf calls, whose frames the .ci files do not have). APs: three quarters; an AP stack
# starts empty under the firmware's own AP loop (MpInitLib's ApWakeupFunction, or
# ArmPsciMpServicesDxe's MpFuncs.S: sp = top of the AP's stack, then ApProcedure) and the
# quarter left covers that loop's frames and an exception's saved context.
DXE_STACK = 0x20000
AP_STACK = {"x86_64": 0x8000, "aarch64": 0x1000}
BUDGETS = {arch: {"boot": DXE_STACK // 2, "ap": AP_STACK[arch] * 3 // 4} for arch in AP_STACK}

BOOT_ENTRIES = [("efi_main", "the UEFI entry point (gnu-efi crt0 calls it on the DXE stack)")]

# Functions that run on an AP: each is passed as the hw_cpu_fn of hw_run_on_cpu /
# mp_start_on_cpu (efi/mp.c starts it through StartupThisAP or PSCI CPU_ON), or is the
# firmware-facing trampoline that calls it. Names of static functions are matched in any file.
# One missing from the .ci files fails (a renamed callback must be renamed here), unless its why
# ends with the other architecture in brackets.
AP_ENTRIES = [
    ("ap_trampoline", "efi/mp.c: the EFI_AP_PROCEDURE StartupThisAP runs for mp_run_on_cpu"),
    ("pending_trampoline", "efi/mp.c: the EFI_AP_PROCEDURE of mp_start_on_cpu (windows)"),
    ("arm_ap_main", "arch/aarch64/psci.c: C entry of a PSCI CPU_ON AP (ap_entry.S calls it) [aarch64]"),
    ("run_one", "efi/measure/window_seq.c: every window CPU's job (window.c's start: mp_start_on_cpu)"),
    ("class_entry", "efi/measure/stream_measure.c: hw_run_on_cpu per CPU"),
    ("arm_restore_here", "efi/measure/measure.c: hw_run_on_cpu per CPU"),
    ("loop_on_cpu", "efi/measure/loop_run.c: hw_run_on_cpu per CPU"),
    ("corepmu_call", "pmu/core: hw_run_on_cpu from efi/measure/corepmu_run.c"),
    ("vec_enable_entry", "arch/vecstate: hw_run_on_cpu from efi/measure/vec_run.c"),
    ("vec_restore_entry", "arch/vecstate: hw_run_on_cpu from efi/measure/vec_run.c"),
    ("on_cpu", "pmu/uncore/box_program.c: box_step on a CPU of the package"),
    ("read_on_cpu", "pmu/uncore/intel_uncore.c: an MSR read on a CPU of the package"),
    ("read_msr_fn", "pmu/uncore/intel_cha_discover.c: an MSR read on a CPU of the package"),
    ("kernel_run_entry", "arch/kernel.c: a kernel run as a hw_cpu_fn (arch/kernel.h)"),
]

# Exception handlers efiperf installs: the firmware calls them on the stack of the CPU that
# faulted (efiperf's safe MSR / system-register accessors fault by design, on APs too: MpInitLib
# APs share the boot CPU's IDT). The deepest is added to every path above: a fault may come at
# its deepest point. The firmware's own exception stub and saved context are its share.
EXCEPTION_ENTRIES = [
    ("on_exception", "efi/exceptions.c: registered through EFI_CPU_ARCH_PROTOCOL RegisterInterruptHandler"),
    ("arm_ap_exception", "arch/aarch64/psci.c: the PSCI APs' vectors (ap_entry.S) call it [aarch64]"),
]

# The fatal-exception path: on_exception calls it (exceptions_on_fatal) for a fault no fixup
# covers on the boot CPU; it writes the error record and the log, runs the cleanups and ends
# the run. Budgeted against the boot CPU's stack only: on an AP on_exception never calls it (it
# ends the AP's job through the resume point exceptions_ap_call set, arch_fault_escape, or parks
# an AP that has none), so an AP's fault path is on_exception alone, which EXCEPTION_ENTRIES
# adds to every AP path.
FATAL_ENTRIES = [("on_fatal", "efi/main.c: the fatal-exception path (exceptions_on_fatal)")]

# The first three are what the firmware (or ap_entry.S) calls; the rest are the hw_cpu_fn
# functions they call (INDIRECT's "hw_cpu_fn").
AP_TRAMPOLINES = {"ap_trampoline", "pending_trampoline", "arm_ap_main"}

# The window kernels (window_spec.kernel, run by run_one on every window CPU): the assignments
# ".kernel = f" in the sources, found by INDIRECT's field rule, and these, passed through a
# table of their own (efi/measure/mmio_measure.c: mmio_kernel.fn).
KERNEL_FN_RE = r"^(kernel_(load|store|ntstore|copy|ntcopy|triad|chase)_\w+|ref_(load|store|copy|triad))$"

# Indirect calls: (what, regex on the call's source line, targets). Targets: "ap" (every
# AP_ENTRIES function), "field:NAME" (every function assigned to .NAME / ->NAME in the sources,
# NAME = the regex's group "field" when NAME is "*"), "re:REGEX" (functions whose name matches),
# "field:NAME#TYPE" (only TYPE's brace initializers), "hw_cpu_fn" (the AP_ENTRIES that are not AP_TRAMPOLINES), a function name,
# "firmware" (a UEFI service: its frames are the firmware's half of the stack), or a list.
INDIRECT = [
    ("hw_ops (arch/hw.h HW_CALL)", r"HW_CALL\(\s*\w+\s*,\s*(?P<field>\w+)", ["field:*"]),
    ("hw_cpu_fn (efi/mp.c, psci.c)", r"\b(c|p|ap)->fn\((c|p|ap)->arg\)|^\s*fn\(arg\);", ["hw_cpu_fn"]),
    ("kernel_fn (arch/kernel.c, kernel_tune.c)", r"->fn\(|\bfn\(r->a|\bref\(", ["re:" + KERNEL_FN_RE]),
    ("window_kernel (efi/measure/window_seq.c)", r"->kernel\(",
     ["field:kernel", "field:fn#mmio_kernel"]),
    ("efi/main.c run_table", r"run_table\[i\]\.run\(", ["re:^(run_measure_\\w+|run_uncore_run_plan)$"]),
    ("cha_window_fn (efi/measure/cha_run.c, cspmu_run.c): the window functions and dma_window's kernels",
     r"\bwindow\(arg, ", ["copy_slices_window", "field:kernel"]),
    ("attach_run_slices' traffic (efi/measure/attach.c): dma_window's fn, cha_run_window's window, the copy",
     r"\btraffic\(arg, k, n\)", ["field:fn#dma_window", "copy_slices_window", "nv_whole"]),
    # The fatal path is budgeted on its own (FATAL_ENTRIES), not inside every path: see there.
    ("exceptions_on_fatal's callback (efi/main.c passes on_fatal): FATAL_ENTRIES", r"^\s*fatal_fn\(", ["firmware"]),
    ("cleanup_push's functions (efi/mp.c, nvme_measure.c, vec_run.c)", r"^\s*fn\(slots\[i\]\.arg\);",
     ["psci_cleanup", "nvme_run_abort", "cleanup", "undo"]),
    ("hw_trace_drain's callback (efi/main.c passes trace_line)", r"^\s*fn\(arg, e\);", ["trace_line"]),
    ("verdict_banner's callback (efi/verdict/run_verdict.c passes banner_line)", r"^\s*line\(arg, buf\);",
     ["banner_line"]),
    ("efi/fw/acpi.c parsers[]", r"parsers\[k\]\.parse\(", ["re:^p_[a-z]+$"]),
    ("efi/out/pmu_out.c corepmu_window_record's fill (corepmu_json_counters / _topdown / _ibs)", r"^\s*fill\(j, cp\);",
     ["re:^corepmu_json_(counters|topdown|ibs)$"]),
    ("efi/config/config.c key checks (cfg_key.check)", r"k->check\(", ["re:^[a-z_]+_check$"]),
    ("efi/out/report.c observer (rep_on_record: efi/verdict/run_verdict.c passes offer)", r"^\s*observer\(",
     ["offer"]),
    ("nv_apmu_window_fn (efi/measure/nv_acpi_run.c)", r"\bwindow\(arg\)", ["copy_slices_whole"]),
    # An op no attachment kind sets yet has no target in this image: the call cannot happen
    # (attach.c skips a NULL op), so the rule resolves it to nothing (EMPTY_OK).
    ("attachment_ops (efi/measure/attach.c): every attachment kind's ops", r"\bops->(?P<field>\w+)\(&l->a\[i\]",
     ["field:*#attachment_ops"]),
    ("rec_target_json's writer (efi/out/window_json.c; efi/measure/measure.c registers measure_target_json)",
     r"^\s*target_writer\(j, buf\);", ["measure_target_json"]),
    ("window_counters.cpu_start / cpu_stop (efi/measure/window_seq.c)", r"wc->cpu_(start|stop)\(",
     # named: the one window_counters (efi/measure/attach.c attach_counters) is positional and
     # lists its boot-CPU start/stop too, which never run here
     ["each_cpu_start", "each_cpu_stop"]),
    ("the report's sink (efi/out/report.c; efi/collector.c passes on_record, on_idle, on_close)",
     r"^\s*sink_(record|idle|close)\(", ["on_record", "on_idle", "on_close"]),
    ("loaded latency's shared clock (efi/measure/loaded_latency_run.c: the ctx's clock)", r"\bsh->clock\(\)",
     ["field:clock#measure_ctx"]),
    ("plan_build's between-steps callback (efi/main.c passes trace_drain)", r"^\s*between\(\);", ["trace_drain"]),
    ("arch/aarch64/cpu_ops.c system-register accessors (sysreg_acc.S)", r"\ba->(rd|wr)\(val\)",
     ["arm_sysreg_rd_any", "arm_sysreg_wr_any"]),
    # The attachments (efi/measure/attach.h) through attach.c's list: each kind's own functions
    # (their ops tables are positional, so the generic field rule below does not join them to
    # every other ".start =" or ".stop ="). No kind has per-CPU hooks yet: ATTACH_NO_CPU_HOOK.
    ("attachment_ops per-CPU hooks (efi/measure/attach.c)", r"ops->cpu_(start|stop)\(", ["attach_no_cpu_hook"]),
    ("attachment_ops.prepare (efi/measure/attach.c): box_attach.c, corepmu_run.c, cspmu_run.c", r"ops->prepare\(",
     ["re:^((cha|unc|iio|nv)_prepare_a|cp_prepare|set_prepare)$"]),
    ("attachment_ops.start (efi/measure/attach.c): box_attach.c, corepmu_run.c, cspmu_run.c", r"ops->start\(",
     ["re:^((cha|unc|iio|nv)_start_a|cp_start|set_start)$"]),
    ("attachment_ops.stop (efi/measure/attach.c): box_attach.c, corepmu_run.c, cspmu_run.c", r"ops->stop\(",
     ["re:^((cha|unc|iio|nv)_stop_a|cp_stop|set_stop)$"]),
    ("attachment_ops.read (efi/measure/attach.c): box_attach.c, corepmu_run.c, cspmu_run.c", r"ops->read\(",
     ["re:^((cha|unc|iio|nv)_read_a|cp_read|set_read)$"]),
    ("attachment_ops.restore (efi/measure/attach.c): box_attach.c, corepmu_run.c, cspmu_run.c", r"ops->restore\(",
     ["re:^((cha|unc|iio|nv)_restore_a|cp_restore|set_restore)$"]),
    # Reached once DMA windows run their traffic through attach_run_slices (dma_engine.c passes
    # arch_timer_read as the copy's clock).
    ("dma_engine copy's clock (efi/measure/dma_edu.c)", r"\bnow\(\)", ["arch_timer_read"]),
    # A window's firmware side (efi/measure/window.c's positional struct window_mp).
    ("window_mp (efi/measure/window_seq.c)", r"\bmp->[a-z_]+\(",
     ["re:^efi_(begin|end|bsp|start|wait|stalled|mask_boot|unmask_boot)$", "arch_cpu_relax", "arch_irq_disable",
      "arch_irq_restore", "arch_timer_read", "arch_smi_count", "pool_zalloc", "pool_free"]),
    # UEFI protocol members are CamelCase (UEFI 2.10), efiperf's own fields lower_case.
    ("UEFI services (BS/RT, protocols)", r"(->|\.)\s*[A-Z][A-Za-z0-9]*\s*\(", ["firmware"]),
    ("struct field call", r"(?:(?P<obj>\w+)\s*(?:\[[^\]]*\])?\s*)?(->|\.)\s*(?P<field>\w+)\s*\(", ["field:*"]),
]

# Rules whose call may have no target in an image (an optional op nobody sets yet).
EMPTY_OK = {"attachment_ops (efi/measure/attach.c): every attachment kind's ops"}

# Known cycles: (regex every function of the cycle matches, times, why). A path may go round one of them `times` times in all:
# the DFS does not re-enter it and adds (times - 1) x the frames of one round. Any other cycle
# is recursion and fails.
KNOWN_CYCLES = [
    (r"^(tr|ec)_\w+$", 1,
     "arch/hw_trace.c and arch/hw_ecam.c wrap an inner struct hw and call the same op of it: each "
     "layer once, never itself"),
    (r"^(child|value|container)$", 32 + 1,
     "efi/verdict/jsonget.c: JSON nesting, value() refuses depth > MAX_NESTING (32)"),
    (r"^(walk|device)$", 16 + 1, "efi/fw/aml.c: AML scopes, walk() refuses depth > AML_MAX_DEPTH (16)"),
    (r"^(aml_term|sized_object)$", 32 + 1,
     "efi/fw/aml_term.c: AML operands, aml_term() refuses depth > AML_MAX_TERM_DEPTH (32)"),
]

# Functions without a .ci node: name regex -> (bytes, why). The gnu-efi frames were read from
# the disassembly of Debian's libefi.a (x86_64: at most 0x48 bytes below 4 pushes); each gets
# a rounded-up bound that covers the gnu-efi helpers it calls; the UEFI services under them
# are the firmware's share.
EXTERNAL = [
    (r"^(memset|memcpy|memmove|memcmp|strlen|strcmp|strncmp|strchr|strlena|strcmpa)$", 64,
     "a leaf string/memory routine (gnu-efi or picolibc)"),
    (r"^__(u?(div|mod|divmod)ti[34]|popcountdi2)$", 64, "a libgcc arithmetic leaf"),
    (r"^attach_no_cpu_hook$", 0,
     "no attachment kind (efi/measure/attach.h) has cpu_start / cpu_stop yet: one that does adds its "
     "functions to INDIRECT's per-CPU hook rule"),
    (r"^(InitializeLib|AllocatePool|AllocateZeroPool|FreePool|CompareGuid|CompareMem|DevicePathSize|"
     r"DevicePathFromHandle|LibFileInfo)$", 512, "a gnu-efi helper over boot services"),
    (r"^(arm_sysreg_(rd|wr)_\w+|arm_psci_(smc|hvc)|arm_ap_self|arm_mmio_(rd|wr)\d+|arm_clean_to_poc|x86_\w+_safe|arch_copy|"
     r"x86_known_loop|arm_known_loop|arch_undefined_insn)$", 0,
     "arch/*/*.S: a leaf that pushes nothing (a register access, SMC/HVC, a cache clean, a copy, the known loop "
     "or the fault_test hook's undefined instruction)"),
]


# Assembly functions that call C: (regex on the name, their own bytes, the INDIRECT-style targets
# they call, why). Their depth is their bytes plus the deepest target.
ASM_CALLERS = [
    (r"^arch_guarded_call$", 16, ["hw_cpu_fn"],
     "arch/*/guard.S: the AP job's resume point (efi/exceptions.c exceptions_ap_call) calls the job; "
     "16 bytes: x86_64 the return address and an alignment slot, aarch64 its frame record"),
]


def asm_caller(name):
    for rx, size, tgts, why in ASM_CALLERS:
        if re.search(rx, name):
            return size, tgts, why
    return None


def external(name):
    for rx, size, why in EXTERNAL:
        if re.search(rx, name):
            return size, why
    return None


def base(title):
    """The C name of a .ci title: GCC writes a static function as "file:name" and a clone as
    "name.constprop.0" / "name.isra.0"."""
    return title.rsplit(":", 1)[-1].split(".")[0]

# ---- the .ci files ---------------------------------------------------------------------------
NODE_RE = re.compile(r'node:\s*\{\s*title:\s*"(?P<title>[^"]*)"\s*label:\s*"(?P<label>[^"]*)"(?P<rest>[^}]*)\}')
EDGE_RE = re.compile(r'edge:\s*\{\s*sourcename:\s*"(?P<src>[^"]*)"\s*targetname:\s*"(?P<dst>[^"]*)"'
                     r'(?:\s*label:\s*"(?P<label>[^"]*)")?[^}]*\}')
SIZE_RE = re.compile(r"(\d+) bytes \(([a-z,]+)\)")
INDIRECT_NAME = "__indirect_call"


class Func:
    def __init__(self, title, ci, loc, size, kind):
        self.title, self.ci, self.loc, self.size, self.kind = title, ci, loc, size, kind
        self.calls = []   # (callee title or INDIRECT_NAME, call location)

    def key(self):
        return "%s@%s" % (self.title, self.loc.split(":")[0] if self.loc else self.ci)


def parse_ci(path, text):
    """-> list of Func defined in the file (nodes with a frame size), edges attached."""
    funcs = {}
    for m in NODE_RE.finditer(text):
        parts = m.group("label").split("\\n")
        size = SIZE_RE.search(m.group("label"))
        if not size:
            continue   # a callee defined elsewhere (shape: ellipse)
        loc = parts[1] if len(parts) > 1 and ":" in parts[1] else ""
        funcs[m.group("title")] = Func(m.group("title"), path, loc, int(size.group(1)), size.group(2))
    for m in EDGE_RE.finditer(text):
        f = funcs.get(m.group("src"))
        if f is not None:
            f.calls.append((m.group("dst"), m.group("label") or ""))
    return list(funcs.values())


def load(ci_dirs):
    out = []
    for d in ci_dirs:
        for base, subdirs, files in os.walk(d):
            subdirs.sort()
            for name in sorted(files):
                if name.endswith(".ci"):
                    p = os.path.join(base, name)
                    with open(p, encoding="utf-8", errors="replace") as fh:
                        out.extend(parse_ci(p, fh.read()))
    return out


# ---- the sources: call lines and field assignments -------------------------------------------
class Sources:
    def __init__(self, root):
        self.root, self.lines, self._assign = root, {}, None

    def line(self, loc):
        """The source text of a call at "file:line:col" ('' when unknown)."""
        parts = loc.split(":")
        if len(parts) < 2 or not parts[1].isdigit():
            return ""
        path = parts[0] if os.path.isabs(parts[0]) else os.path.join(self.root, parts[0])
        if path not in self.lines:
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    self.lines[path] = fh.read().split("\n")
            except OSError:
                self.lines[path] = []
        text = self.lines[path]
        n = int(parts[1])
        return text[n - 1] if 0 < n <= len(text) else ""

    def _scan(self):
        """Function-pointer fields and what is stored in them, from the C sources:
        _assign: (file, field, identifier) of ".field = x" / "->field = x";
        _types:  struct name -> its function-pointer fields ("(*f)(" or a typedef'd pointer type);
        _pos:    (file, struct name, identifiers) of each brace initializer of that struct, whose
                 members may be positional: every identifier in it may be in any of its fields."""
        self._assign, self._types, self._pos, self._decl, self._assign_type = [], {}, [], {}, {}
        texts = []
        for top in ("efi", "pmu", "arch"):
            for base, subdirs, files in os.walk(os.path.join(self.root, top)):
                subdirs.sort()
                for name in sorted(files):
                    if name.endswith((".c", ".h")):
                        p = os.path.join(base, name)
                        with open(p, encoding="utf-8", errors="replace") as fh:
                            texts.append((os.path.relpath(p, self.root), re.sub(r"/\*.*?\*/|//[^\n]*", " ",
                                                                                 fh.read(), flags=re.S)))
        fptypes = {"hw_cpu_fn"}
        for rel, t in texts:
            fptypes |= set(re.findall(r"typedef[^;{}]*\(\s*\*\s*(\w+)\s*\)\s*\(", t))
            fptypes |= set(re.findall(r"typedef\s+[\w\s\*]+?\b(\w+)\s*\([^;{}]*\)\s*;", t))
        for rel, t in texts:   # every struct's function-pointer fields first: the initializers need them
            for m in re.finditer(r"struct\s+(\w+)\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", t):
                body = m.group(2)
                fields = set(re.findall(r"\(\s*\*\s*(\w+)\s*\)\s*\(", body))
                for ty, fld in re.findall(r"\b(\w+)\s*\*?\s*(\w+)\s*;", body):
                    if ty in fptypes:
                        fields.add(fld)
                if fields:
                    self._types.setdefault(m.group(1), set()).update(fields)
        for rel, t in texts:
            for ty, name in re.findall(r"struct\s+(\w+)\s*(?:const\s*)?\*?\s*(?:const\s*)?\*?\s*(\w+)\s*[;,)=\[]", t):
                self._decl.setdefault(name, set()).add(ty)
            for m in re.finditer(r"(?:\.|->)\s*(\w+)\s*=\s*&?\s*([A-Za-z_]\w*)\s*[,;})]", t):
                self._assign.append((rel, m.group(1), m.group(2)))
            for m in re.finditer(r"(?:struct\s+(\w+)\s+\w+(?:\s*\[[^\]]*\])?\s*=|\(\s*struct\s+(\w+)\s*\))\s*\{", t):
                depth, i = 1, m.end()
                while i < len(t) and depth:
                    depth += {"{": 1, "}": -1}.get(t[i], 0)
                    i += 1
                body = t[m.end():i]
                positional = re.sub(r"\.\s*\w+\s*=\s*&?\s*[A-Za-z_]\w*", " ", body)   # designated: _assign
                self._pos.append((rel, m.group(1) or m.group(2), set(re.findall(r"[A-Za-z_]\w*", positional))))
                # designated members of a typed initializer: that type's field only (_assign_type)
                # (a nested member, `.win = { .run = f }` inside a measure_ctx, is left untyped: it
                # is the inner struct's, whose type the initializer does not name)
                ty = m.group(1) or m.group(2)
                for d in re.finditer(r"\.\s*(\w+)\s*=\s*&?\s*([A-Za-z_]\w*)\s*[,;})]", body):
                    if d.group(1) in self._types.get(ty, ()):
                        self._assign_type.setdefault((rel, d.group(1), d.group(2)), set()).add(ty)

    def assigned(self, field, only_file=None, obj=None, only_type=None):
        """Identifiers that may be stored in a field named `field`: assigned by name, or in a
        brace initializer of a struct that has such a function-pointer field (of the struct
        types `obj` is declared with anywhere, when that is known: s.pmu->start is a
        core_pmu's start, s->counters->start a window_counters')."""
        if self._assign is None:
            self._scan()
        types = {ty for ty, fields in self._types.items() if field in fields}
        if obj and types & self._decl.get(obj, set()):
            types &= self._decl[obj]
        if only_type:
            types &= {only_type}
        # ".field = x" anywhere; one inside an initializer of struct T only where T is one of types
        # (an attachment_ops' .start is no core_pmu's start)
        out = {v for rel, f, v in self._assign if f == field and (only_file is None or rel == only_file)
               and (not self._assign_type.get((rel, f, v)) or self._assign_type[(rel, f, v)] & types)}
        for rel, ty, idents in self._pos:
            if ty in types and (only_file is None or rel == only_file):
                out |= idents
        return sorted(out)


# ---- the graph -------------------------------------------------------------------------------
class Graph:
    def __init__(self, funcs, src):
        self.src = src
        self.by_title, self.by_base = {}, {}
        for f in funcs:
            self.by_title.setdefault(f.title, []).append(f)
            self.by_base.setdefault(base(f.title), []).append(f)
        self.problems = []        # (kind, text): each fails the check
        self.notes = []           # resolved indirect calls, known cycles
        self._seen_problem = set()
        self.memo = {}
        self.rules = {}           # INDIRECT rule -> indirect calls it resolved (walks included)

    def problem(self, kind, text):
        if (kind, text) not in self._seen_problem:
            self._seen_problem.add((kind, text))
            self.problems.append((kind, text))

    def note(self, text):
        key = text.split(" (e.g. ")[0]
        if key not in [n.split(" (e.g. ")[0] for n in self.notes]:
            self.notes.append(text)

    def defs(self, title, caller=None):
        """The Funcs a call from `caller` to `title` may reach: the caller's file's own
        (a static function), else every definition (the worst is taken)."""
        fs = self.by_title.get(title, [])
        if caller is not None:
            same = [f for f in fs if f.ci == caller.ci]
            if same:
                return same
        return fs

    def named(self, name):
        """Definitions of `name` or of its GCC clones (name.constprop.0, name.isra.0, ...)."""
        return list(self.by_base.get(name, []))

    def targets_of(self, t):
        """An ASM_CALLERS target's function names ("hw_cpu_fn" as in INDIRECT, else a name)."""
        if t == "hw_cpu_fn":
            return [n for n, _ in AP_ENTRIES if n in self.by_base and n not in AP_TRAMPOLINES]
        return [t]

    def targets(self, caller, loc):
        """Titles an indirect call at loc may reach, or None when no rule resolves it."""
        line = self.src.line(loc)
        for what, rx, tgts in INDIRECT:
            m = re.search(rx, line)
            if not m:
                continue
            out, empty = [], False
            for t in tgts:
                if t == "hw_cpu_fn":
                    out += [n for n, _ in AP_ENTRIES if n in self.by_base and n not in AP_TRAMPOLINES]
                elif t == "firmware":
                    out.append(None)
                elif t.startswith("re:"):
                    out += sorted({b for b in self.by_base if re.search(t[3:], b)})
                elif t.startswith("field:"):
                    spec = t[6:]
                    field, _, only = spec.partition("@")
                    field, _, only_type = field.partition("#")
                    if field == "*":
                        field = m.groupdict().get("field") or ""
                    obj = m.groupdict().get("obj") if spec.startswith("*") else None
                    names = [v for v in self.src.assigned(field, only or None, obj, only_type or None)
                             if v in self.by_base or external(v)]
                    empty = empty or not names
                    out += names
                else:
                    out.append(t)
            if not out and what in EMPTY_OK:
                self.note("indirect %s: %s -> nothing (no such op in this image)" % (loc, what))
                return []
            if not out or (empty and what == "struct field call"):
                continue
            self.note("indirect %s: %s -> %s" % (loc, what, ", ".join(sorted({o or "firmware" for o in out}))))
            self.rules[what] = self.rules.get(what, 0) + 1
            return out
        return None

    def worst(self, f, stack):
        """(bytes, path) of the deepest call chain from f; path = [(Func or name, frame)].
        stack: the Funcs from the entry point down to f's caller."""
        if f.key() in self.memo:
            return self.memo[f.key()]
        if f.kind.startswith("dynamic") and "bounded" not in f.kind:
            self.problem("dynamic", "%s (%s): frame size %s" % (f.title, f.loc, f.kind))
        stack = stack + [f]
        best = (0, [])
        for callee, loc in f.calls:
            if callee == INDIRECT_NAME:
                names = self.targets(f, loc)
                if names is None:
                    self.problem("indirect", "%s: unresolved indirect call in %s: %s"
                                 % (loc, f.title, self.src.line(loc).strip() or "(source line not found)"))
                    continue
                cands = [d for n in names if n is not None for d in self.named(n)]
                missing = [n for n in names if n is not None and not self.named(n)]
            else:
                # name.localalias: GCC's local alias of a global function (a call to itself)
                cands = self.defs(callee, f) or ([d for d in self.named(base(callee)) if d.ci == f.ci]
                                                 if callee.endswith(".localalias") else [])
                missing = [] if cands else [callee]
            for name in missing:
                asm = asm_caller(name)
                if asm:
                    for t in asm[1]:
                        for n in (self.targets_of(t) or []):
                            for d in self.named(n):
                                sub = self.reenter(stack, d) if d in stack else self.worst(d, stack)
                                if asm[0] + sub[0] > best[0]:
                                    best = (asm[0] + sub[0], [(name, asm[0])] + sub[1])
                    continue
                ext = external(name)
                if ext is None:
                    self.problem("external", "%s: %s calls %s, which has no .ci frame and no EXTERNAL entry"
                                 % (loc, f.title, name))
                elif ext[0] > best[0]:
                    best = (ext[0], [(name, ext[0])])
            for d in cands:
                sub = self.reenter(stack, d) if d in stack else self.worst(d, stack)
                if sub[0] > best[0]:
                    best = sub
        res = (f.size + best[0], [(f, f.size)] + best[1])
        self.memo[f.key()] = res
        return res

    def reenter(self, stack, d):
        """A call back into d, already on the stack: a known cycle's remaining rounds, or
        recursion (reported, 0 bytes)."""
        ring = stack[stack.index(d):]
        names = " -> ".join(x.title for x in ring + [d])
        for known, times, why in KNOWN_CYCLES:
            if all(re.search(known, base(x.title)) for x in ring):
                self.note("known cycle, at most %d round(s): %s (e.g. %s)" % (times, why, names))
                extra = (times - 1) * sum(x.size for x in ring)
                return (extra, [("(%d more rounds of %s)" % (times - 1, names), extra)] if extra else [])
        self.problem("recursion", names)
        return (0, [])


def check(funcs, src, arch, top=5, out=sys.stdout, verbose=False, partial=False):
    """Print the report; return the number of failures."""
    g = Graph(funcs, src)
    budget = BUDGETS[arch]
    rows = []
    for kind, entries in (("exc", EXCEPTION_ENTRIES), ("fatal", FATAL_ENTRIES), ("boot", BOOT_ENTRIES),
                          ("ap", AP_ENTRIES)):
        for name, why in entries:
            ds = g.named(name)
            other = re.search(r"\[(\w+)\]$", why)
            if not ds and not partial and not (other and other.group(1) != arch):
                g.problem("entry", "%s entry %s is in no .ci file (renamed? update the table)" % (kind, name))
            for d in ds:
                g.memo.clear()   # the memo may hide a cycle first met from another entry
                depth, path = g.worst(d, [])
                rows.append((kind, depth, d, path, why))
    exc = max([r for r in rows if r[0] == "exc"], key=lambda r: r[1], default=None)
    fatal = [r for r in rows if r[0] == "fatal"]
    rows = [r for r in rows if r[0] not in ("exc", "fatal")]
    if exc:
        print("stack %s: exception handler %s: %d bytes, added to every path (%s)" % (arch, exc[2].title, exc[1], exc[4]),
              file=out)
        rows = [(k, depth + exc[1], d, path + [("(a fault here: %s)" % exc[2].title, 0)] + exc[3], why)
                for k, depth, d, path, why in rows]
    fails = 0
    for kind, depth, d, path, why in fatal:
        total = depth + (exc[1] if exc else 0)
        print("stack %s: fatal-exception path %s: %d bytes with the handler, on the boot CPU's budget of %d; "
              "on an AP it is never taken (on_exception ends the AP's job instead: the handler above, within every ap path)" % (arch, d.title, total, budget["boot"]),
              file=out)
        if total > budget["boot"]:
            fails += 1
            print("stack %s: FAIL fatal path %s: %d bytes, over the boot budget of %d" % (arch, d.title, total, budget["boot"]),
                  file=out)
    for kind, depth, d, path, why in rows:
        if depth > budget[kind]:
            fails += 1
            print("stack %s: FAIL %s entry %s (%s): %d bytes, over its budget of %d"
                  % (arch, kind, d.title, d.loc, depth, budget[kind]), file=out)
    for kind, text in g.problems:
        fails += 1
        print("stack %s: FAIL %s: %s" % (arch, kind, text), file=out)
    for n in g.notes:
        if verbose or not n.startswith("indirect "):
            print("stack %s: %s" % (arch, n), file=out)
    ncalls = len([n for n in g.notes if n.startswith("indirect ")])
    print("stack %s: %d indirect call sites resolved (--verbose lists them), by rule:" % (arch, ncalls), file=out)
    for what, _, _ in INDIRECT:
        if what in g.rules:
            print("  %s" % what, file=out)
    rows.sort(key=lambda r: -r[1])
    print("stack %s: entries (worst depth in bytes, budget boot %d, ap %d)" % (arch, budget["boot"], budget["ap"]),
          file=out)
    for kind, depth, d, path, why in rows:
        print("  %-4s %7d  %s  (%s)" % (kind, depth, d.title, why), file=out)
    for kind in ("boot", "ap"):
        for r in [r for r in rows if r[0] == kind][:top]:
            print("stack %s: %s path of %s, %d bytes:" % (arch, kind, r[2].title, r[1]), file=out)
            for fr, size in r[3]:
                name, loc = ((fr.title, fr.loc) if isinstance(fr, Func) else
                             (fr, "" if fr.startswith("(a fault") else "known cycle" if fr.startswith("(") else "external"))
                print("    %6d  %s  %s" % (size, name, loc), file=out)
    worst = {k: max([r for r in rows if r[0] == k], key=lambda r: r[1], default=None) for k in ("boot", "ap")}
    missing = [k for k in worst if worst[k] is None]
    for k in missing:
        fails += 1
        print("stack %s: FAIL no %s entry point found in the .ci files" % (arch, k), file=out)
    print("stack %s: boot %d bytes of %d, ap %d bytes of %d (%s), %d entries, %d failures"
          % (arch, worst["boot"][1] if worst["boot"] else 0, budget["boot"],
             worst["ap"][1] if worst["ap"] else 0, budget["ap"], worst["ap"][2].title if worst["ap"] else "none",
             len(rows), fails), file=out)
    return fails


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], usage=__doc__.split("\n\n")[1].strip())
    ap.add_argument("--arch", required=True, choices=sorted(BUDGETS))
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--verbose", action="store_true", help="list every indirect call site and its targets")
    ap.add_argument("--partial", action="store_true",
                    help="the .ci files hold part of a program (tests): entry points missing are not failures")
    ap.add_argument("ci_dirs", nargs="+")
    a = ap.parse_args(argv)
    funcs = load(a.ci_dirs)
    if not funcs:
        print("stack %s: no .ci files with frames under %s" % (a.arch, " ".join(a.ci_dirs)), file=sys.stderr)
        return 1
    return 1 if check(funcs, Sources(a.src), a.arch, a.top, verbose=a.verbose, partial=a.partial) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
