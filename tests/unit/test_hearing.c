// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * A recorder that hears nothing says so (nsaudit/tracer/hearing.c), and
 * verify reports a log whose recorder said it (exit status 5).
 *
 * The tracer here has no programs at all: it truly hears nothing, which is
 * what a recorder whose programs went away is. The canaries it sends are
 * real processes opening /proc/self/task/PID/ns/net.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit_util.h"
#include "clock.h"
#include "tracer/tracer_impl.h"

static struct tracer *deaf_tracer(void)
{
	struct tracer *t = calloc(1, sizeof(*t));

	cr_assert_not_null(t);
	t->o.type_mask = 0xffffffff;
	t->o.op_mask = 0xffffffff;
	return t;
}

static int hearing_tick_every(struct tracer *t, int64_t interval_ns, char *why,
				     size_t len)
{
	t->o.hearing_ns = interval_ns;
	return tracer_hearing_tick(t, why, len);
}

/* Tick every 20 ms for at most ms: the first non-zero answer, or 0. */
static int tick_for(struct tracer *t, int64_t interval_ns, int ms, char *why, size_t len,
		    bool answer_canaries)
{
	struct timespec ts = { 0, 20 * 1000000L };
	int i, rc;

	for (i = 0; i < ms / 20; i++) {
		if (answer_canaries && t->stream.hearing.pid > 0) {
			struct nsaudit_event e = { .op = NSAUDIT_OP_OPEN };

			/* the kernel's pid is not the tracer's (a pid namespace):
			 * the path the canary opened is what tells it */
			e.pid = (uint32_t)t->stream.hearing.pid + 100000;
			snprintf(e.path, sizeof(e.path), "%s", t->stream.hearing.path);
			stream_hearing_saw(&t->stream, &e);
		}
		rc = hearing_tick_every(t, interval_ns, why, len);
		if (rc)
			return rc;
		nanosleep(&ts, NULL);
	}
	return 0;
}

Test(hearing, nothing_heard_is_deaf, .timeout = 30)
{
	struct tracer *t = deaf_tracer();
	uint64_t sent, heard;
	int64_t last;
	char why[320] = "";

	/* interval 0.2 s, deadline 1 s (the least): deaf after two misses */
	cr_assert_eq(tick_for(t, 200 * NSEC_PER_MSEC, 6000, why, sizeof(why), false), -1,
		     "two canaries unheard: deaf");
	cr_expect(strstr(why, "never came from the kernel"), "%s", why);
	tracer_hearing_counts(t, &sent, &heard, &last);
	cr_expect_eq(sent, 2);
	cr_expect_eq(heard, 0);
	cr_expect_eq(last, 0);
	free(t);
}

Test(hearing, heard_is_not_deaf, .timeout = 30)
{
	struct tracer *t = deaf_tracer();
	uint64_t sent, heard;
	int64_t last;
	char why[320] = "";

	cr_assert_eq(tick_for(t, 200 * NSEC_PER_MSEC, 3000, why, sizeof(why), true), 0, "%s",
		     why);
	tracer_hearing_counts(t, &sent, &heard, &last);
	cr_expect_geq(sent, 5, "a canary every 0.2 s");
	cr_expect_geq(heard, sent - 1, "each one heard (the last may be out)");
	cr_expect_gt(last, 0);
	free(t);
}

/* a loss counted meanwhile cannot tell: never deaf for it */
Test(hearing, a_loss_cannot_tell, .timeout = 30)
{
	struct tracer *t = deaf_tracer();
	char why[320] = "";
	int i, rc = 0;
	struct timespec ts = { 0, 20 * 1000000L };

	for (i = 0; i < 200 && !rc; i++) {
		t->stream.stats.lost++;	/* the kernel counts lost calls all along */
		rc = hearing_tick_every(t, 200 * NSEC_PER_MSEC, why, sizeof(why));
		nanosleep(&ts, NULL);
	}
	cr_expect_eq(rc, 0, "%s", why);
	free(t);
}

Test(hearing, kernel_filters_cannot_tell)
{
	struct tracer *t = deaf_tracer();
	char why[320] = "";

	t->o.pid = 1;
	cr_expect_eq(hearing_tick_every(t, NSEC_PER_SEC, why, sizeof(why)), 1);
	cr_expect(strstr(why, "--pid"), "%s", why);
	cr_expect_eq(hearing_tick_every(t, NSEC_PER_SEC, why, sizeof(why)), 0, "said once");
	t->stream.hearing.off = false;
	t->o.pid = 0;
	t->o.op_mask = 1u << NSAUDIT_OP_SETNS;
	cr_expect_eq(hearing_tick_every(t, NSEC_PER_SEC, why, sizeof(why)), 1);
	cr_expect(strstr(why, "--op"), "%s", why);
	free(t);
}

static void deaf_fields(struct audit_fields *f, const void *ctx)
{
	audit_f_str(f, "time", "2026-12-07T06:00:00.000000000Z", 30);
	audit_f_str(f, "op", "log", 3);
	audit_f_str(f, "action", "deaf", 4);
	audit_f_str(f, "reason", "2 calls never came", 18);
	audit_f_str(f, "heard_until", "2026-12-07T05:59:00.000000000Z", 30);
}

Test(hearing, verify_reports_a_deaf_recorder)
{
	struct tlog t;
	struct audit_verify v;
	struct audit_log *l;
	char err[512];

	tlog_init(&t, AUDIT_FMT_JSON);
	tlog_write(&t, 3);
	cr_assert_eq(tlog_verify(&t, &v), AUDIT_VERIFY_INTACT);
	cr_expect_eq(v.deaf, 0);
	l = audit_log_open(&t.o, err, sizeof(err));
	cr_assert_not_null(l, "%s", err);
	cr_assert_geq(audit_log_append_fields(l, clock_ns(CLOCK_REALTIME), deaf_fields, NULL), 0);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), AUDIT_VERIFY_DEAF, "%s %s", v.where, v.what);
	cr_expect_eq(v.deaf, 1);
	cr_expect_gt(v.deaf_seq, 3);
	cr_expect_str_eq(v.deaf_since, "2026-12-07T05:59:00.000000000Z");
	cr_expect_str_eq(v.deaf_reason, "2 calls never came");
	tlog_cleanup(&t);
}
