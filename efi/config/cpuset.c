/* SPDX-License-Identifier: BSD-2-Clause */
/* cpuset: parsing and resolving the `cpus` setting (efi/cpuset.h). */
#include "efi/config/cpuset.h"

#include <string.h>
#include "arch/lib/fmt.h"

#define SOCKET_WORD "socket"
#define SOCKET_WORD_LEN 6u
#define ITEM_SHOWN_MAX 24
#define PACKAGES_LISTED 8

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static int equal_word(const char *s, size_t n, const char *z)
{
	return strlen(z) == n && memcmp(s, z, n) == 0;
}

/* A decimal number filling s[0..n) exactly, at most CPUSET_MAX_CPU. */
static int parse_dec(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10u + (uint32_t)(s[i] - '0');
		if (v > CPUSET_MAX_CPU)
			return -1;
	}
	*out = v;
	return 0;
}

/* One comma-separated item s[0..n), blanks already trimmed. */
static int parse_item(const char *s, size_t n, struct cpuset_item *it, char *msg, size_t msgsz)
{
	int shown = (int)(n < ITEM_SHOWN_MAX ? n : ITEM_SHOWN_MAX);
	*it = (struct cpuset_item){ 0 };
	if (n > SOCKET_WORD_LEN && memcmp(s, SOCKET_WORD, SOCKET_WORD_LEN) == 0) {
		it->socket = 1;
		if (parse_dec(s + SOCKET_WORD_LEN, n - SOCKET_WORD_LEN, &it->first) != 0) {
			fmt_snprintf(msg, msgsz, "'%.*s' is not socketN (N a package number 0..%u)", shown, s, CPUSET_MAX_CPU);
			return -1;
		}
		it->last = it->first;
		return 0;
	}
	size_t dash = 0;
	while (dash < n && s[dash] != '-')
		dash++;
	if (parse_dec(s, dash, &it->first) != 0 ||
	    (dash < n && parse_dec(s + dash + 1, n - dash - 1, &it->last) != 0)) {
		fmt_snprintf(msg, msgsz, "'%.*s' is not a CPU number, a range N-M or socketN (numbers 0..%u)", shown, s,
			     CPUSET_MAX_CPU);
		return -1;
	}
	if (dash == n)
		it->last = it->first;
	if (it->last < it->first) {
		fmt_snprintf(msg, msgsz, "range '%.*s' runs backwards (write %u-%u)", shown, s, it->last, it->first);
		return -1;
	}
	return 0;
}

int cpuset_parse(const char *s, size_t n, struct cpuset *out, char *msg, size_t msgsz)
{
	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	*out = (struct cpuset){ .kind = CPUSET_LIST };
	if (equal_word(s, n, "boot") || equal_word(s, n, "all")) {
		out->kind = s[0] == 'b' ? CPUSET_BOOT : CPUSET_ALL;
		return 0;
	}
	if (!n) {
		fmt_snprintf(msg, msgsz, "no CPUs given (accepted: boot, all, or a list like 0,2,5 4-7 socket1)");
		return -1;
	}
	size_t pos = 0;
	while (pos <= n) {
		size_t end = pos;
		while (end < n && s[end] != ',')
			end++;
		const char *it = s + pos;
		size_t len = end - pos;
		while (len && is_blank(*it))
			it++, len--;
		while (len && is_blank(it[len - 1]))
			len--;
		if (!len) {
			fmt_snprintf(msg, msgsz, "empty item at character %zu (items are separated by single commas)", pos + 1);
			return -1;
		}
		if (out->n == CPUSET_MAX_ITEMS) {
			fmt_snprintf(msg, msgsz, "more than %d items (use ranges N-M)", CPUSET_MAX_ITEMS);
			return -1;
		}
		if (parse_item(it, len, &out->item[out->n], msg, msgsz) != 0)
			return -1;
		out->n++;
		pos = end + 1;
	}
	return 0;
}

static int cpu_enabled(const struct cpuset_topo *t, uint32_t c)
{
	return !t->cpu || t->cpu[c].enabled;
}

static uint32_t cpu_package(const struct cpuset_topo *t, uint32_t c)
{
	return t->cpu ? t->cpu[c].package : 0;
}

static int selected(const struct cpuset *set, const struct cpuset_topo *t, uint32_t c)
{
	if (!cpu_enabled(t, c))
		return 0;
	if (set->kind == CPUSET_ALL)
		return 1;
	for (int i = 0; i < set->n; i++) {
		const struct cpuset_item *it = &set->item[i];
		if (it->socket ? cpu_package(t, c) == it->first : c >= it->first && c <= it->last)
			return 1;
	}
	return 0;
}

/* "0, 1" : the packages that have an enabled CPU, for messages. */
static void packages_text(const struct cpuset_topo *t, char *buf, size_t n)
{
	struct strbuf sb;
	uint32_t seen[PACKAGES_LISTED];
	int ns = 0;
	sb_init(&sb, buf, n);
	for (uint32_t c = 0; c < t->ncpus; c++) {
		uint32_t p = cpu_package(t, c);
		int k = 0;
		while (k < ns && seen[k] != p)
			k++;
		if (k < ns || !cpu_enabled(t, c))
			continue;
		if (ns == PACKAGES_LISTED) {
			sb_puts(&sb, ", ...");
			return;
		}
		sb_printf(&sb, "%s%u", ns ? ", " : "", p);
		seen[ns++] = p;
	}
}

/* Every item names something that exists: CPUs below ncpus and enabled, packages with a CPU. */
static int check_items(const struct cpuset *set, const struct cpuset_topo *t, char *msg, size_t msgsz)
{
	for (int i = 0; i < set->n; i++) {
		const struct cpuset_item *it = &set->item[i];
		if (it->socket) {
			uint32_t c = 0;
			while (c < t->ncpus && !(cpu_enabled(t, c) && cpu_package(t, c) == it->first))
				c++;
			if (c == t->ncpus) {
				char pk[64];
				packages_text(t, pk, sizeof(pk));
				fmt_snprintf(msg, msgsz, "socket%u: no enabled CPU is in package %u (packages here: %s)",
					     it->first, it->first, pk);
				return -1;
			}
			continue;
		}
		if (it->last >= t->ncpus) {
			fmt_snprintf(msg, msgsz, "CPU %u does not exist (the firmware knows CPUs 0..%u%s)",
				     it->first >= t->ncpus ? it->first : t->ncpus, t->ncpus - 1,
				     t->cpu ? "" : "; it has no MP services");
			return -1;
		}
		for (uint32_t c = it->first; c <= it->last; c++)
			if (!cpu_enabled(t, c)) {
				fmt_snprintf(msg, msgsz, "CPU %u is disabled (MP services StatusFlag)", c);
				return -1;
			}
	}
	return 0;
}

int cpuset_resolve(const struct cpuset *set, const struct cpuset_topo *t, uint32_t *out, int max, char *msg,
		   size_t msgsz)
{
	if (set->kind == CPUSET_BOOT) {
		if (max < 1) {
			fmt_snprintf(msg, msgsz, "more than %d CPUs selected: one window runs at most %d (name fewer)", max,
				     max);
			return -1;
		}
		out[0] = t->bsp;
		return 1;
	}
	if (check_items(set, t, msg, msgsz) != 0)
		return -1;
	int n = 0;
	for (uint32_t c = 0; c < t->ncpus; c++) {
		if (!selected(set, t, c))
			continue;
		if (n == max) {
			fmt_snprintf(msg, msgsz, "more than %d CPUs selected: one window runs at most %d (name fewer)", max,
				     max);
			return -1;
		}
		out[n++] = c;
	}
	if (!n) {
		fmt_snprintf(msg, msgsz, "no enabled CPU selected");
		return -1;
	}
	return n;
}
