/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uncore_events' bare names against the CPU's uncore tables, before any window: a name that is
 * no event of any of the CPU's Intel IMC/IIO boxes or AMD DF/L3/UMC boxes is an error naming it
 * and the closest names those tables know (ev_closest_names). Terms with a PMU
 * (`uncore_imc/event=.../`) are left to the box that takes them; a CPU with no such table
 * (other PMUs: NVIDIA, APMT) is not checked here.
 */
#ifndef EFIPERF_UNCORE_NAMES_H
#define EFIPERF_UNCORE_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* events: the ';'-separated uncore_events value. 0, or -1 with why[n] naming the first unknown
 * name ("'CAS_COUNT.RDD': no uncore event of ICX by that name (closest: CAS_COUNT.RD, ...)"). */
int uncore_names_check(const char *vendor, uint32_t family, uint32_t model, const char *events, char *why,
		       size_t n);

#endif
