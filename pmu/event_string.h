/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one perf-style event-string parser of every PMU (perf's syntax, tools/perf/Documentation/
 * perf-list.txt "RAW HARDWARE EVENT DESCRIPTOR" and the sysfs format/ files under
 * /sys/bus/event_source/devices/<pmu>/format, Documentation/ABI/testing/sysfs-bus-event_source-
 * devices-format):
 *
 *   PMU/TERM,TERM,.../      TERM = field=value (0x hex or decimal) or, first, a named event
 *   NAME                    a named event alone, where the grammar allows it (core events)
 *
 * A PMU's grammar is data: the names it answers to, its fields (named as Linux's format/ files
 * name them: event, umask, umask_ext, cmask, inv, edge, any, host, guest, filter_opc ...), each
 * with the register it lands in and its bit positions, and a lookup of named events. A named
 * event sets field values; explicit fields after it override them; a field given twice, an
 * unknown field, a value wider than its field, or a field the CPU lacks is an error that names
 * the field. Pure and bounded: every byte is looked at once.
 */
#ifndef EFIPERF_PMU_EVENT_STRING_H
#define EFIPERF_PMU_EVENT_STRING_H

#include <stddef.h>
#include <stdint.h>

#define EV_MAX_FIELDS 24
#define EV_MAX_REGS 5

struct ev_field {
	const char *name;       /* sysfs format/ name */
	uint8_t reg;            /* register of the encoding it lands in (0: the control register) */
	uint8_t shift, bits;    /* value bits [bits-1:0] at [shift+bits-1:shift] */
	uint8_t hi_shift, hi_bits;  /* split field: value bits [bits+hi_bits-1:bits] at hi_shift */
	uint64_t clears;        /* bits of reg cleared when the field is set (defaults it replaces) */
	uint32_t need;          /* capability bits a non-zero value needs (0: none) */
	const char *need_why;   /* the error's reason when they are missing */
};

struct ev_terms {
	uint64_t v[EV_MAX_FIELDS];
	uint32_t set;           /* fields with a value (from the named event or given) */
	uint32_t given;         /* fields given explicitly */
	const void *named;      /* what lookup returned for the named event, or NULL */
};

struct ev_grammar {
	const char *pmu[3];     /* names accepted before '/', NULL-terminated; [0] is canonical */
	const struct ev_field *fields;
	uint8_t nfields;
	uint8_t bare_name;      /* NAME alone (no PMU/.../) is accepted */
	const char *what;       /* for messages: "CHA on SPR", "Intel core" */
	/* Named event: set its fields with ev_set_named and return the event (opaque), or NULL
	 * with err filled when it is unknown or unavailable. */
	const void *(*lookup)(const struct ev_grammar *g, const char *name, size_t len, struct ev_terms *t,
			      char *err, size_t n);
	const void *ctx;        /* the lookup's table (platform, vendor + generation ...) */
	/* The i-th named event this grammar knows (i = 0, 1, ... until NULL), or no function: an
	 * unknown name's error then lists the closest known names (ev_closest_names). */
	const char *(*name_at)(const struct ev_grammar *g, size_t i);
};

#define EV_CLOSEST 3
/* Append " (closest: A, B, C)" to err[n] (after its text): the EV_CLOSEST names of g->name_at
 * nearest to s[0..len) by edit distance (case-insensitive, names compared over their first 64
 * characters), among those within len / 2 + 2 edits; nothing when none is or g has no names. */
void ev_closest_names(const struct ev_grammar *g, const char *s, size_t len, char *err, size_t n);

/* Parse s[0..len). caps: capability bits of this CPU (ev_field.need). 0, or -1 with err naming
 * the field, term or name. */
int ev_parse(const struct ev_grammar *g, const char *s, size_t len, uint32_t caps, struct ev_terms *t,
	     char *err, size_t n);
/* For lookup: set field `name` from a named event (range-checked like a given field). */
int ev_set_named(const struct ev_grammar *g, struct ev_terms *t, const char *name, uint64_t v, char *err,
		 size_t n);
/* The next ';'-separated event string of a list such as uncore_events (spaces and tabs around
 * it trimmed): *tok points at it, *s moves past it; returns its length, 0 at the end. */
size_t ev_next_token(const char **s, const char **tok);
/* Index of field `name`, or -1. */
int ev_field_index(const struct ev_grammar *g, const char *name);
/* The largest value field f holds. */
uint64_t ev_field_max(const struct ev_field *f);
/* Register values: regs[] holds each register's defaults on entry; each set field's `clears`
 * are cleared, then its value is placed. */
void ev_encode(const struct ev_grammar *g, const struct ev_terms *t, uint64_t regs[EV_MAX_REGS]);

#endif
