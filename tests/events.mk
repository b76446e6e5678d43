# SPDX-License-Identifier: BSD-2-Clause
# `make events` (top-level: $(MAKE) -C tests -f events.mk run): build tests/tools/events.c on
# the host with the pure CHA sources and print every event of every platform, one line each
# (CHA, then AMD amd_df/amd_l3/amd_umc, then Intel uncore_imc/uncore_iio).
B       := ../build/host
HOST_CC := gcc
CFLAGS  := -std=gnu11 -Wall -Wextra -Werror -O1 -I..
# Every uncore source and what they use, by wildcard, so a new file there needs no change here
# (a missing one was the fresh-clone link failure this list once had).
# (pmu/cpu_tables.c asks the core-PMU chooser too, which the event lister does not link)
SRC     := tools/events.c $(filter-out ../pmu/cpu_tables.c,$(wildcard ../pmu/*.c ../pmu/uncore/*.c ../pmu/events/*.c)) \
           ../arch/hw.c $(wildcard ../arch/lib/*.c)

.PHONY: run
run: $(B)/events
	@$(B)/events

$(B)/events: $(SRC) $(wildcard ../pmu/uncore/*.h ../pmu/events/*.h ../pmu/*.h ../arch/lib/*.h)
	@mkdir -p $(B)
	$(HOST_CC) $(CFLAGS) $(SRC) -o $@
