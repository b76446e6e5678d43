# SPDX-License-Identifier: BSD-2-Clause
# `make events` (top-level: $(MAKE) -C tests -f events.mk run): build tests/tools/events.c on
# the host with the pure CHA sources and print every event of every platform, one line each.
B       := ../build/host
HOST_CC := gcc
CFLAGS  := -std=gnu11 -Wall -Wextra -Werror -O1 -I..
SRC     := tools/events.c ../pmu/uncore/intel_cha_encode.c ../pmu/events/intel_cha_events.c \
           ../pmu/uncore/intel_cha_platforms.c ../arch/lib/fmt.c ../arch/lib/parse_num.c

.PHONY: run
run: $(B)/events
	@$(B)/events

$(B)/events: $(SRC) $(wildcard ../pmu/uncore/*.h ../arch/lib/*.h)
	@mkdir -p $(B)
	$(HOST_CC) $(CFLAGS) $(SRC) -o $@
