/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The attachment list (efi/measure/attach.c) on the host: three fake attachments log every call
 * into one trace string; the expected traces are written out by hand from attach.h's contract
 * (start in list order, stop and restore in reverse, an unusable one skipped but restored).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "efi/measure/attach.h"

static char trace[256];
static void note(const char *what, const struct attachment *a)
{
	strcat(trace, what);
	strcat(trace, (const char *)a->self);
	strcat(trace, " ");
}

static int fail_prepare_of_b, fail_read_of_c, fail_restore_of_a;

static int prep(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	note("p", a);
	if (fail_prepare_of_b && !strcmp(a->self, "b")) {
		a->st = HW_UNSUPPORTED;
		a->why = "b has no such unit";
		return -1;
	}
	return 0;
}
static void start(struct attachment *a, const struct hw *hw) { (void)hw; note("s", a); }
static void stop(struct attachment *a, const struct hw *hw) { (void)hw; note("t", a); }
static void cstart(struct attachment *a, const struct hw *hw, int i) { (void)hw; (void)i; note("cs", a); }
static int rd(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	note("r", a);
	return fail_read_of_c && !strcmp(a->self, "c") ? -1 : 0;
}
static int rest(struct attachment *a, const struct hw *hw)
{
	(void)hw;
	note("x", a);
	return fail_restore_of_a && !strcmp(a->self, "a") ? -1 : 0;
}

static const struct attachment_ops full = { "full", prep, start, stop, cstart, NULL, rd, rest };
static const struct attachment_ops bare = { "bare", NULL, start, stop, NULL, NULL, NULL, NULL };

static void setup(struct attachment a[3], struct attach_list *l)
{
	trace[0] = 0;
	a[0] = (struct attachment){ .ops = &full, .self = "a" };
	a[1] = (struct attachment){ .ops = &full, .self = "b" };
	a[2] = (struct attachment){ .ops = &bare, .self = "c" };
	*l = (struct attach_list){ .a = a, .n = 3 };
}

static void life_in_order(void **state)
{
	(void)state;
	struct attachment a[3];
	struct attach_list l;
	fail_prepare_of_b = fail_read_of_c = fail_restore_of_a = 0;
	setup(a, &l);
	assert_int_equal(attach_prepare_all(&l), 3);
	const struct window_counters *wc = attach_counters(&l);
	wc->start(wc->ctx);
	wc->cpu_start(wc->ctx, 0);
	wc->cpu_stop(wc->ctx, 0);   /* nobody has cpu_stop: nothing */
	wc->stop(wc->ctx);
	assert_int_equal(attach_read_all(&l), 3);   /* c has no read: counted as read */
	assert_int_equal(attach_restore_all(&l), 0);
	assert_string_equal(trace, "pa pb sa sb sc csa csb tc tb ta ra rb xb xa ");
	assert_ptr_equal(attach_find(&l, "bare"), &a[2]);
	assert_ptr_equal(attach_find(&l, "full"), &a[0]);
	assert_null(attach_find(&l, "aer"));
}

static void unusable_is_skipped_but_restored(void **state)
{
	(void)state;
	struct attachment a[3];
	struct attach_list l;
	fail_prepare_of_b = 1;
	fail_read_of_c = fail_restore_of_a = 0;
	setup(a, &l);
	assert_int_equal(attach_prepare_all(&l), 2);
	assert_int_equal(a[1].st, HW_UNSUPPORTED);
	assert_string_equal(a[1].why, "b has no such unit");
	const struct window_counters *wc = attach_counters(&l);
	wc->start(wc->ctx);
	wc->stop(wc->ctx);
	assert_int_equal(attach_read_all(&l), 2);
	assert_int_equal(attach_restore_all(&l), 0);
	/* b: prepared half way, so restored; never started, stopped or read */
	assert_string_equal(trace, "pa pb sa sc tc ta ra xb xa ");
	/* a second restore does nothing: restore is once per prepare */
	trace[0] = 0;
	assert_int_equal(attach_restore_all(&l), 0);
	assert_string_equal(trace, "");
}

static void failures_are_named(void **state)
{
	(void)state;
	struct attachment a[3];
	struct attach_list l;
	fail_prepare_of_b = 0;
	fail_restore_of_a = 1;
	setup(a, &l);
	a[2].ops = &full;   /* c reads, and fails */
	fail_read_of_c = 1;
	assert_int_equal(attach_prepare_all(&l), 3);
	assert_int_equal(attach_read_all(&l), 2);
	assert_int_equal(a[2].st, HW_ERROR);
	assert_string_equal(a[2].why, "read failed");
	assert_int_equal(attach_restore_all(&l), -1);
	/* no ops at all */
	struct attachment none = { 0 };
	struct attach_list l2 = { .a = &none, .n = 1 };
	assert_int_equal(attach_prepare_all(&l2), 0);
	assert_int_equal(none.st, HW_UNSUPPORTED);
	assert_int_equal(attach_restore_all(&l2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(life_in_order),
		cmocka_unit_test(unusable_is_skipped_but_restored),
		cmocka_unit_test(failures_are_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
