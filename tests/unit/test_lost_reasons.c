// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* "lost" records say why, one reason each: a sink's says sink only, a
 * program the kernel skipped says recursion, neither has the kernel's
 * running lost_total (issue 25). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <string.h>

#include "output/event_json.h"
#include "nstype.h"

static struct json_object *lost(unsigned int reason, const char *cause)
{
	struct nsaudit_event e = {0};
	struct event_extra x = {.cause = cause};

	e.op = NSAUDIT_OP_LOST;
	e.ns_type = NSAUDIT_NS_UNKNOWN;
	e.fd = -1;
	e.probe = NSAUDIT_PROBE_USER;
	e.lost_reason = reason;
	e.count = 5;
	e.arg = 77;
	return event_to_json(&e, &x);
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

Test(lost_reasons, sink_says_sink_only)
{
	struct json_object *o = lost(NSAUDIT_LOST_SINK, "sink syslog:unix:/x: queue full");

	cr_assert_str_eq(str(o, "reason"), "sink");
	cr_assert_null(str(o, "lost_total"));
	cr_assert_str_eq(str(o, "count"), "5");
	json_object_put(o);
}

Test(lost_reasons, recursion_names_the_program)
{
	struct json_object *o =
	    lost(NSAUDIT_LOST_RECURSION,
		 "program tp_exit_mount skipped by the kernel (recursion_misses)");

	cr_assert_str_eq(str(o, "reason"), "recursion");
	cr_assert_null(str(o, "lost_total"));
	cr_assert_not_null(strstr(str(o, "cause"), "tp_exit_mount"));
	json_object_put(o);
}

Test(lost_reasons, kernel_ring_keeps_its_total)
{
	struct json_object *o = lost(NSAUDIT_LOST_RING, NULL);

	cr_assert_str_eq(str(o, "reason"), "ring_full");
	cr_assert_str_eq(str(o, "lost_total"), "77");
	json_object_put(o);
}
