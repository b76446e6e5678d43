# SPDX-License-Identifier: BSD-2-Clause
# efiperf: bare-metal UEFI performance measurement.
#
#   make                 build/x86_64/efiperf.efi           (gnu-efi, Debian)
#   make ARCH=aarch64    build/aarch64/efiperf.efi          (gnu-efi arm64 sysroot + picolibc)
#   make image           build/<arch>/efiperf.img           (FAT: \EFI\BOOT\BOOT*.EFI, \efiperf\efiperf.cfg, startup.nsh)
#   make image SIGN_KEY=KEY.pem SIGN_CERT=CERT.pem   both arches' images with Secure Boot signed
#                        loaders (boot/sign.sh, sbsign; SIGN_PASS=... for an encrypted key)
#   make run             boot the image's main job under QEMU/OVMF: logs in build/<arch>/logs/, HTML report in build/<arch>/report/
#   make test            host unit tests + QEMU integration tests, 'N passed, N failed'
#   make bench-dma       efiperf's own NVMe queues against the firmware's Block IO, one QEMU boot
#   make layering        check which folders and files depend on which (tests/tools/layering.py)
#   make stack           worst-case stack depth from efi_main and every AP entry, both arches (tests/tools/stack_budget.py)
#   make deps            install every Debian package the build, run and tests need
#   make usb DEV=/dev/sdX  write build/<arch>/efiperf.img to a USB stick and verify it (FORCE=1: see boot/usb.sh)
#   make bench-collector the fleet collector ingesting 1,000 simulated machines, SQLite and PostgreSQL
#   make netboot         build/netboot/: both arches' loaders, the config, a DHCP/TFTP server configuration (boot/netboot.sh)
#   make report          boot/efiperf-report over build/<arch>/logs/*.jsonl: results, HTML in build/<arch>/report/

ARCH ?= x86_64
B    := build/$(ARCH)
Q    ?= @

# --- sources ---------------------------------------------------------------------------------
# Pure C (also built on the host for tests) and firmware glue; arch/<arch>/ holds CPU primitives.
COMMON_SRC := $(wildcard efi/*.c efi/*/*.c pmu/*.c pmu/*/*.c arch/*.c arch/lib/*.c)
ARCH_SRC   := $(wildcard arch/$(ARCH)/*.c) $(wildcard arch/$(ARCH)/*.S)
OBJS       := $(patsubst %,$(B)/obj/%.o,$(COMMON_SRC) $(ARCH_SRC))

WARN := -Wall -Wextra -Werror=implicit-function-declaration
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
COMMON_CFLAGS := -O2 -g $(WARN) -std=gnu11 -I. -ffreestanding -fpic -fshort-wchar \
                 -fno-stack-protector -fno-stack-check -fno-strict-aliasing \
                 -DEFIPERF_VERSION=\"$(VERSION)\" -DEFIPERF_ARCH_$(ARCH)=1

ifeq ($(ARCH),x86_64)
CC       := gcc
LD       := ld
OBJCOPY  := objcopy
EFIINC   := /usr/include/efi
EFILIB   := /usr/lib
ARCH_CFLAGS := -mno-red-zone -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI \
               -I$(EFIINC) -I$(EFIINC)/x86_64 -I$(EFIINC)/protocol
# -z pack-relative-relocs: the R_X86_64_RELATIVE relocations (one per pointer in initialised data,
# about 3,400: 81 KiB of Elf64_Rela) go into DT_RELR (about 1 KiB), which arch/x86_64/reloc.c's
# _relocate applies (gnu-efi's own reads DT_RELA only).
LDFLAGS  := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined -z pack-relative-relocs \
            -T $(EFILIB)/elf_x86_64_efi.lds
CRT0     := $(EFILIB)/crt0-efi-x86_64.o
LIBS     := -L$(EFILIB) -lgnuefi -lefi $(shell gcc -print-libgcc-file-name)
# --strip-all: no COFF symbol table in the image (about 57 KiB): the PE/COFF specification
# says images should carry none (PointerToSymbolTable 0; COFF debugging information is
# deprecated) and the firmware's loader reads none; efiperf.so keeps the symbols for nm.
PE_FLAGS := --target efi-app-x86_64 --subsystem=10 --strip-all
# No .dynsym in the image (about 22 KiB): gnu-efi's _relocate (reloc_x86_64.c) applies the
# R_X86_64_RELATIVE entries of DT_RELA and looks up no symbol.
PE_DYNSYM :=
BOOTNAME := BOOTX64.EFI
STAMP    := /usr/lib/libefi.a
else ifeq ($(ARCH),aarch64)
CC       := aarch64-linux-gnu-gcc
LD       := aarch64-linux-gnu-ld
OBJCOPY  := aarch64-linux-gnu-objcopy
SYSROOT  := build/sysroot-aarch64
EFIINC   := $(SYSROOT)/usr/include/efi
EFILIB   := $(SYSROOT)/usr/lib
PICOLIBC := /usr/lib/picolibc/aarch64-linux-gnu
ARCH_CFLAGS := -mno-outline-atomics --specs=$(PICOLIBC)/picolibc.specs -I$(EFIINC) -I$(EFIINC)/aarch64 -I$(EFIINC)/protocol
# -Bsymbolic: crt0's ImageBase relocation needs it; -lefi before -lc: both define memset/memcpy.
LDFLAGS  := -nostdlib -znocombreloc -shared -Bsymbolic -z norelro --no-undefined --no-warn-rwx-segments \
            --defsym=EFI_SUBSYSTEM=0xa -T $(EFILIB)/elf_aarch64_efi.lds
CRT0     := $(EFILIB)/crt0-efi-aarch64.o
LIBS     := -L$(EFILIB) -L$(PICOLIBC)/lib -lefi -lgnuefi -lc $(shell aarch64-linux-gnu-gcc -print-libgcc-file-name 2>/dev/null)
# The PE/COFF header lives in gnu-efi's crt0-efi-aarch64.S: copy raw (gnu-efi 3.0.15;
# objcopy --target efi-app-aarch64 would write a second, conflicting header).
PE_FLAGS := -O binary
PE_DYNSYM := -j .dynsym   # -O binary: the sections as the linker laid them out, header included
BOOTNAME := BOOTAA64.EFI
STAMP    := $(SYSROOT)/.unpacked
else
$(error ARCH must be x86_64 or aarch64, not '$(ARCH)')
endif

PE_SECTIONS := -j .text -j .sdata -j .data -j .dynamic $(PE_DYNSYM) -j .rel -j .rela \
               -j .rel.* -j .rela.* -j .relr.dyn -j .reloc

.PHONY: all image run test unit fuzz fuzz-long layering stack stack-ci events bench bench-dma bench-collector deps clean report usb netboot
all: $(B)/efiperf.efi

# Missing packages? Install them first (the two README commands work on a fresh machine).
$(STAMP):
	$(Q)boot/deps.sh $(ARCH)

# Size, not speed, outside arch/: the firmware layers (efi/, pmu/) run between windows, never
# inside the timed loops, and gnu-efi's image carries every byte (goal: at most 700 KB). The
# kernels, the known loop and the fault-safe accessors in arch/ keep -O2.
SIZE_OPT = $(if $(filter arch/%,$<),,-Os)
$(B)/obj/%.c.o: %.c $(STAMP) $(wildcard */*.h */*/*.h */*/*/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(COMMON_CFLAGS) $(SIZE_OPT) $(ARCH_CFLAGS) -c $< -o $@

$(B)/obj/%.S.o: %.S $(STAMP) $(wildcard */*.h */*/*.h */*/*/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(COMMON_CFLAGS) $(ARCH_CFLAGS) -c $< -o $@

$(B)/efiperf.so: $(OBJS)
	$(Q)$(LD) $(LDFLAGS) $(CRT0) $(OBJS) -o $@ $(LIBS)

$(B)/efiperf.efi: $(B)/efiperf.so
	$(Q)$(OBJCOPY) $(PE_SECTIONS) $(PE_FLAGS) $< $@
	@echo "built $@ ($$(stat -c %s $@) bytes)"

# Test-only UEFI app (tests/efi/acpi_install.c): installs \ssdt.aml, \apmt.dat, \ssdt2.aml through
# EFI_ACPI_TABLE_PROTOCOL before efiperf starts (the aarch64 QEMU test: virt refuses -acpitable).
$(B)/acpi_install.so: $(B)/obj/tests/efi/acpi_install.c.o
	$(Q)$(LD) $(LDFLAGS) $(CRT0) $< -o $@ $(LIBS)

$(B)/acpi_install.efi: $(B)/acpi_install.so
	$(Q)$(OBJCOPY) $(PE_SECTIONS) $(PE_FLAGS) $< $@

# FAT image: \EFI\BOOT\BOOT*.EFI, \efiperf\efiperf.cfg, \startup.nsh.
# The images make run/test build set exit = shutdown so QEMU powers off (boot/efiperf.cfg).
ifeq ($(SIGN_KEY),)
image: $(B)/efiperf.img $(B)/acpi_install.efi
$(B)/efiperf.img: $(B)/efiperf.efi boot/efiperf.cfg boot/startup.nsh boot/mkimage.sh
	$(Q)boot/deps.sh $(ARCH)
	$(Q)boot/mkimage.sh $@ $< $(BOOTNAME) boot/efiperf.cfg
else
# Signed: both arches, each loader signed (build/<arch>/efiperf.signed.efi) and put in the image.
image:
	$(Q)$(MAKE) --no-print-directory signed-image ARCH=x86_64
	$(Q)$(MAKE) --no-print-directory signed-image ARCH=aarch64
endif
.PHONY: signed-image
signed-image: $(B)/efiperf.efi boot/efiperf.cfg boot/startup.nsh boot/mkimage.sh
	$(Q)boot/deps.sh --check sign
	$(Q)test -n "$(SIGN_CERT)" || { echo "make image: SIGN_KEY needs SIGN_CERT (the certificate the firmware trusts)" >&2; exit 2; }
	$(Q)boot/sign.sh --key "$(SIGN_KEY)" --cert "$(SIGN_CERT)" $< $(B)/efiperf.signed.efi
	$(Q)boot/mkimage.sh $(B)/efiperf.img $(B)/efiperf.signed.efi $(BOOTNAME) boot/efiperf.cfg

# make run: the image's main job (boot/efiperf.cfg) on QEMU's machine for it (two NVMe
# controllers with pattern disks, Ice Lake-SP; qemu.sh --main-job), then the HTML report of its log.
run: $(B)/efiperf.img
	$(Q)boot/deps.sh --check run $(ARCH)
	$(Q)boot/deps.sh report
	$(Q)boot/qemu.sh --arch $(ARCH) --image $< --logs $(B)/logs --main-job --report $(B)/report

# --- tests -------------------------------------------------------------------------------------
test:
	$(Q)boot/deps.sh --check test
	$(Q)tests/run-all.sh

unit:
	$(Q)$(MAKE) -C tests -f unit.mk run

fuzz:
	$(Q)$(MAKE) -C tests -f unit.mk fuzz

fuzz-long:
	$(Q)$(MAKE) -C tests -f unit.mk fuzz-long

# Include layers (pmu/ never includes efi/, arch/ neither), include cycles, and pairs of .c
# files that each use a function the other defines: one line per violation.
layering:
	$(Q)/usr/bin/python3 tests/tools/layering.py --self-test
	$(Q)/usr/bin/python3 tests/tools/layering.py

# Stack budget: the C objects of both architectures compiled again with GCC's
# -fcallgraph-info=su (a .ci file per object: each function's frame and its calls) under
# build/stack/<arch>/ (the shipped objects and image are not touched), then
# tests/tools/stack_budget.py: the worst depth from efi_main and from every AP entry, against
# half the DXE stack and half the firmware's AP stack (the facts are in the tool).
STACK_B  := build/stack/$(ARCH)
STACK_CI := $(patsubst %,$(STACK_B)/%.o,$(filter %.c,$(COMMON_SRC) $(ARCH_SRC)))
$(STACK_B)/%.c.o: %.c $(STAMP) $(wildcard */*.h */*/*.h */*/*/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(COMMON_CFLAGS) $(SIZE_OPT) $(ARCH_CFLAGS) -fcallgraph-info=su -c $< -o $@

stack-ci: $(STACK_CI)

stack:
	$(Q)$(MAKE) --no-print-directory stack-ci ARCH=x86_64
	$(Q)$(MAKE) --no-print-directory stack-ci ARCH=aarch64
	$(Q)rc=0; for a in x86_64 aarch64; do \
		/usr/bin/python3 tests/tools/stack_budget.py --arch $$a build/stack/$$a || rc=1; done; exit $$rc

# Every named uncore event of every platform: platform, name, perf-style string, raw values.
events:
	$(Q)boot/deps.sh --check test
	$(Q)$(MAKE) --no-print-directory -C tests -f events.mk run

# Our memory kernels next to likwid-bench on the host (1 GB, median of 5, ratio per kernel).
# A benchmark, not a test: it never fails. BENCH_ARGS="--reps 5 --isa avx2 --kernel ntcopy"
bench:
	$(Q)$(MAKE) --no-print-directory -C tests -f bench.mk run

# One QEMU boot: efiperf's own NVMe queues (bs 128K, iodepth 32) against the firmware's Block IO
# reading the same bytes; both rates and their ratio. A benchmark, not a test. BENCH_DMA_SIZE=64M
bench-dma:
	$(Q)$(MAKE) --no-print-directory image ARCH=x86_64
	$(Q)boot/deps.sh --check run x86_64
	$(Q)/usr/bin/python3 tests/bench/bench_dma.py --image build/x86_64/efiperf.img $(if $(BENCH_DMA_SIZE),--size $(BENCH_DMA_SIZE))

# boot/efiperf-collector over loopback: 1,000 machines' records, 64 at a time, one record per POST;
# records/s, p50/p99 latency, lost and duplicated records. A benchmark, not a test.
# BENCH_COLLECTOR_ARGS="--machines 100 --db sqlite"
bench-collector:
	$(Q)boot/deps.sh --check test
	$(Q)/usr/bin/python3 tests/bench/bench_collector.py $(BENCH_COLLECTOR_ARGS)

# A lab network's boot root and its DHCP/TFTP server configuration (NETBOOT_ARGS="--server IP --interface IF ...").
netboot:
	$(Q)$(MAKE) --no-print-directory all ARCH=x86_64
	$(Q)$(MAKE) --no-print-directory all ARCH=aarch64
	$(Q)boot/netboot.sh $(NETBOOT_ARGS)

deps:
	$(Q)boot/deps.sh all

# A USB stick: refuses a device that is not removable, mounted, or larger than 256 GiB (FORCE=1
# overrides all but mounted); reads the image back.
usb: $(B)/efiperf.img
	$(Q)boot/usb.sh --image $< --dev "$(DEV)" $(if $(filter 1,$(FORCE)),--force)

# The logs `make run` copied out, classified and reported (LOGS= other logs; exit status as the tool's).
LOGS ?= $(wildcard $(B)/logs/*.jsonl)
report:
	$(Q)boot/deps.sh --check report
	$(Q)test -n "$(strip $(LOGS))" || { echo "report: no logs in $(B)/logs (make run first, or LOGS=...)" >&2; exit 3; }
	$(Q)boot/efiperf-report $(LOGS) --html $(B)/report --junit $(B)/report/junit.xml

clean:
	rm -rf build
