// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* A lost record names whose calls it was (issue 32): pid, uid, comm and
 * the op of the calls, next to reason and count; one without an actor
 * (the anonymous rest of the kernel's counters) names nobody. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <string.h>

#include "tracer/actor_lost.h"
#include "output/event_json.h"
#include "nstype.h"

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

static struct json_object *as_json(const struct actor_loss *a, unsigned int reason, uint64_t n)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };

	actor_lost_record(&e, a, reason, n, 1000);
	e.arg = 1234;
	return event_to_json(&e, &x);
}

Test(actor_lost, names_the_flooder)
{
	struct actor_loss a = { .k = { .pid = 4242, .uid = 65534, .op = NSAUDIT_OP_OPEN,
				       .reason = NSAUDIT_LOST_BUDGET },
				.v = { .count = 200000 } };
	struct json_object *o;

	strcpy(a.v.comm, "nsflood");
	o = as_json(&a, a.k.reason, a.v.count);
	cr_assert_str_eq(str(o, "op"), "lost");
	cr_assert_str_eq(str(o, "pid"), "4242");
	cr_assert_str_eq(str(o, "uid"), "65534");
	cr_assert_str_eq(str(o, "comm"), "nsflood");
	cr_assert_str_eq(str(o, "lost_op"), "open");
	cr_assert_str_eq(str(o, "reason"), "actor_budget");
	cr_assert_str_eq(str(o, "count"), "200000");
	cr_assert_str_eq(str(o, "lost_total"), "1234");
	cr_assert_null(str(o, "ns_refs"), "the lost op is not a reference count");
	json_object_put(o);
}

Test(actor_lost, root_is_uid_0_not_absent)
{
	struct actor_loss a = { .k = { .pid = 7, .uid = 0, .op = NSAUDIT_OP_MOUNT,
				       .reason = NSAUDIT_LOST_RARE_RING },
				.v = { .count = 1 } };
	struct json_object *o;

	strcpy(a.v.comm, "mount");
	o = as_json(&a, a.k.reason, 1);
	cr_assert_str_eq(str(o, "uid"), "0");
	cr_assert_str_eq(str(o, "lost_op"), "mount");
	cr_assert_str_eq(str(o, "reason"), "reserve_ring_full");
	json_object_put(o);
}

Test(actor_lost, anonymous_rest_names_nobody)
{
	struct json_object *o = as_json(NULL, NSAUDIT_LOST_RING, 3);

	cr_assert_null(str(o, "pid"));
	cr_assert_null(str(o, "comm"));
	cr_assert_null(str(o, "lost_op"));
	cr_assert_str_eq(str(o, "reason"), "ring_full");
	cr_assert_str_eq(str(o, "count"), "3");
	json_object_put(o);
}

Test(actor_lost, a_pass_without_the_maps_takes_nothing)
{
	struct actor_loss out[2];

	cr_assert_eq(actor_lost_pass(-1, -1, out, 2), 0);
}
