// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * The log's budgets (issue 47): a flooding thread group is cut to its
 * rate and its excess counted exactly, naming it; a quiet process of the
 * same uid keeps its records (rare first); a fork flood's children share
 * their parent's allowance; another uid is untouched. And a record nsaudit
 * inferred says so and names the pin's maker, never an actor.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <string.h>

#include "tracer/log_budget.h"
#include "output/event_json.h"
#include "nstype.h"

#define MS 1000000ULL

static struct nsaudit_event ev(uint32_t pid, uint32_t ppid, uint32_t uid, const char *comm)
{
	struct nsaudit_event e;

	memset(&e, 0, sizeof(e));
	e.op = NSAUDIT_OP_NSFD;
	e.pid = e.tid = pid;
	e.ppid = ppid;
	e.uid = uid;
	e.actor_userns = 0xEFFFFFFDU;
	strcpy(e.comm, comm);
	return e;
}

struct tally {
	uint64_t by_pid[8];
	uint64_t unnamed;
	uint32_t pid[8];
	size_t n;
};

static void tally(void *ctx, const struct actor_loss *a, uint64_t n)
{
	struct tally *t = ctx;

	if (!a) {
		t->unnamed += n;
		return;
	}
	cr_assert_lt(t->n, 8);
	t->pid[t->n] = a->k.pid;
	t->by_pid[t->n++] = n;
}

Test(log_budget, a_flooder_is_cut_and_counted_a_quiet_sibling_is_not)
{
	struct log_budget_rates r = { .tgid = 256, .uid = 1024, .reserve = 128, .parent = 64 };
	struct log_budget *b = log_budget_new(&r);
	struct nsaudit_event flood[8], quiet = ev(200, 2, 0, "quiet"),
				       other = ev(300, 3, 65534, "other");
	uint64_t now = 1000 * MS, calls = 0, written = 0, quiet_ok = 0, other_ok = 0, lost = 0;
	struct tally t = { 0 };
	int i, k;

	cr_assert_not_null(b);
	for (k = 0; k < 8; k++)
		flood[k] = ev(100 + k, 1, 0, "flood");
	/* 10 s: eight flooders of uid 0, 100k records/s in all (coalesced
	 * ones too), a quiet process of the same uid 1 a second, another uid
	 * 50 a second */
	for (i = 0; i < 10000; i++, now += MS) {
		for (k = 0; k < 100; k++) {
			struct nsaudit_event *f = &flood[k % 8];

			f->repeat = k % 10 == 0 ? 7 : 0;
			calls += f->repeat ? 7 : 1;
			written += log_budget_take(b, f, 0, now) ? (f->repeat ? 7 : 1) : 0;
		}
		if (i % 1000 == 500)
			quiet_ok += log_budget_take(b, &quiet, 0, now);
		if (i % 20 == 0)
			other_ok += log_budget_take(b, &other, 0, now);
	}
	cr_assert_eq(quiet_ok, 10, "the quiet sibling kept %lu of 10", (unsigned long)quiet_ok);
	cr_assert_eq(other_ok, 500);
	/* the flooders: their uid's burst and rate (and the reserve), no more */
	cr_assert_leq(written, 7 * (1024 * 12 + 128 * 12), "written %lu", (unsigned long)written);
	log_budget_flush(b, now, true, tally, &t);
	cr_assert_eq(t.n, 8);
	for (k = 0; k < 8; k++) {
		cr_assert(t.pid[k] >= 100 && t.pid[k] < 108);
		lost += t.by_pid[k];
	}
	cr_assert_eq(lost + written, calls, "records + lost = calls");
	cr_assert_eq(t.unnamed, 0);
	cr_assert_eq(log_budget_refused(b), lost);
	log_budget_free(b);
}

Test(log_budget, a_fork_floods_children_share_their_parents_allowance)
{
	struct log_budget *b = log_budget_new(NULL);
	struct nsaudit_event child, quiet = ev(50000, 2, 0, "quiet");
	uint64_t now = 1000 * MS, quiet_ok = 0, kids_ok = 0;
	uint32_t pid = 1000;
	int i, k;

	/* 1000 children a second, each 100 records at once, for 5 s */
	for (i = 0; i < 5000; i++, now += MS) {
		child = ev(pid++, 999, 0, "kid");
		for (k = 0; k < 100; k++)
			kids_ok += log_budget_take(b, &child, 0, now);
		if (i % 500 == 250)
			quiet_ok += log_budget_take(b, &quiet, 0, now);
	}
	cr_assert_eq(quiet_ok, 10, "the quiet process kept %lu of 10", (unsigned long)quiet_ok);
	/* the uid's rate and burst, the reserve's share of the parent */
	cr_assert_leq(kids_ok, LOG_BUDGET_UID * 7 + LOG_BUDGET_PARENT * 7, "kids wrote %lu",
		      (unsigned long)kids_ok);
	log_budget_free(b);
}

/*
 * Several fork floods of one uid at once (four parents, each forking
 * light children): each parent's children together are bounded by the
 * parent's allowance, but four of those are more than the reserve. A
 * quiet parent's children (the rare process's: one child per operation,
 * 8 operations a round, 4 rounds a second) keep every record: flooding
 * parents have only the reserve's shared quarter. (Before: 4 x N/16 took the
 * whole reserve and the quiet children kept about a third.)
 */
Test(log_budget, parallel_fork_floods_leave_a_quiet_parents_children_their_records)
{
	struct log_budget *b = log_budget_new(NULL);
	struct nsaudit_event child, rare;
	uint64_t now = 1000 * MS, rare_ok = 0, rare_calls = 0, kids_ok = 0;
	uint32_t pid = 1000, rare_pid = 60000;
	int i, k, p;

	/* 5 s: each parent forks a child a ms, each child 20 records */
	for (i = 0; i < 5000; i++, now += MS) {
		for (p = 0; p < 4; p++) {
			child = ev(pid++, 900 + p, 0, "kid");
			for (k = 0; k < 20; k++)
				kids_ok += log_budget_take(b, &child, 0, now);
		}
		if (i % 250 == 100) {
			for (k = 0; k < 8; k++, rare_calls++) {
				rare = ev(rare_pid++, 899, 0, "nsrare");
				rare_ok += log_budget_take(b, &rare, 0, now);
			}
		}
	}
	cr_assert_eq(rare_ok, rare_calls, "the quiet parent's children kept %lu of %lu",
		     (unsigned long)rare_ok, (unsigned long)rare_calls);
	/* the uid's rate and burst, the reserve's rate and burst, no more */
	cr_assert_leq(kids_ok, LOG_BUDGET_UID * 7 + LOG_BUDGET_RESERVE * 7, "kids wrote %lu",
		      (unsigned long)kids_ok);
	log_budget_free(b);
}

/*
 * A fork tree: P forks a middle per caller, so each caller's parent is
 * new and quiet (nsstorm forktree). The kernel side's anchor names P's
 * young trees for all of them (NSAUDIT_ANCHOR_TREE): one parent to rare
 * first, whatever the middles. The rare process's children (anchor: the
 * rare process) keep every record. (By ppid, as before the anchor: the
 * tree took the whole reserve.)
 */
Test(log_budget, a_tree_of_young_middles_is_one_parent)
{
	struct log_budget *b = log_budget_new(NULL);
	struct nsaudit_event child, rare;
	uint64_t now = 1000 * MS, rare_ok = 0, rare_calls = 0, kids_ok = 0;
	uint32_t pid = 1000, rare_pid = 60000;
	int i, k, p;

	/* 5 s: 4 callers a ms, each the only child of a middle of its own */
	for (i = 0; i < 5000; i++, now += MS) {
		for (p = 0; p < 4; p++) {
			child = ev(pid + 1, pid, 0, "kid");
			child.anchor = 900 | NSAUDIT_ANCHOR_TREE;
			pid += 2;
			for (k = 0; k < 20; k++)
				kids_ok += log_budget_take(b, &child, 0, now);
		}
		if (i % 250 == 100) {
			for (k = 0; k < 8; k++, rare_calls++) {
				rare = ev(rare_pid++, 899, 0, "nsrare");
				rare.anchor = 899;
				rare_ok += log_budget_take(b, &rare, 0, now);
			}
		}
	}
	cr_assert_eq(rare_ok, rare_calls, "the rare process's children kept %lu of %lu",
		     (unsigned long)rare_ok, (unsigned long)rare_calls);
	cr_assert_leq(kids_ok, LOG_BUDGET_UID * 7 + LOG_BUDGET_PARENT * 7, "the tree wrote %lu",
		      (unsigned long)kids_ok);
	log_budget_free(b);
}

Test(log_budget, a_container_of_many_uids_shares_its_user_namespace_budget)
{
	struct log_budget *b = log_budget_new(NULL);
	struct nsaudit_event e;
	uint64_t now = 1000 * MS, ok = 0;
	int i;

	for (i = 0; i < 100000; i++) {
		e = ev(2000 + i % 1000, 1, 100000 + i % 1000, "ctr");
		e.actor_userns = 4026532999u;
		ok += log_budget_take(b, &e, 0, now + (uint64_t)i * 10000);	/* 1 s */
	}
	cr_assert_leq(ok, 3 * LOG_BUDGET_UID + LOG_BUDGET_RESERVE * 3, "wrote %lu",
		      (unsigned long)ok);
	log_budget_free(b);
}

/*
 * The runtime's container (by its cgroup-derived id), not the user
 * namespace: a container whose 1000 uids run in 10 user namespaces (a
 * pod's members, nested user namespaces) is one budget; a host process
 * of the same uids outside it keeps its own.
 */
Test(log_budget, a_container_is_one_budget_across_its_user_namespaces)
{
	struct log_budget *b = log_budget_new(NULL);
	const uint64_t ctr = 0x5eedc0de;
	struct nsaudit_event e, host = ev(90000, 2, 100005, "host");
	uint64_t now = 1000 * MS, ok = 0, host_ok = 0, t;
	int i;

	for (i = 0; i < 100000; i++) {
		t = now + (uint64_t)i * 10000;	/* 1 s in all */
		e = ev(2000 + i % 1000, 1, 100000 + i % 1000, "ctr");
		e.actor_userns = 4026532900u + i % 10;
		ok += log_budget_take(b, &e, ctr, t);
		if (i % 10000 == 5000)
			host_ok += log_budget_take(b, &host, 0, t);
	}
	cr_assert_leq(ok, 3 * LOG_BUDGET_UID + LOG_BUDGET_RESERVE * 3, "wrote %lu",
		      (unsigned long)ok);
	cr_assert_eq(host_ok, 10, "the host process kept %lu of 10", (unsigned long)host_ok);
	log_budget_free(b);
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

Test(log_budget, an_inferred_record_names_the_maker_not_an_actor)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };
	struct json_object *o;

	memset(&e, 0, sizeof(e));
	e.op = NSAUDIT_OP_UMOUNT;
	e.ns_type = NSAUDIT_NS_IPC;
	e.ns_inum = 4026531839u;
	e.fd = -1;
	e.probe = NSAUDIT_PROBE_USER;
	e.flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_INFERRED;
	x.maker_comm = "mount";
	x.maker_pid = 4242;
	x.maker_uid = 65534;
	o = event_to_json(&e, &x);
	cr_assert_str_eq(str(o, "origin"), "inferred");
	cr_assert_str_eq(str(o, "uid"), "65534");
	cr_assert_str_eq(str(o, "maker_pid"), "4242");
	cr_assert_str_eq(str(o, "maker_comm"), "mount");
	cr_assert_null(str(o, "pid"));
	cr_assert_null(str(o, "euid"));
	cr_assert_null(str(o, "comm"));
	json_object_put(o);
	/* a pin whose maker is not known: no uid at all, never 0 */
	x.maker_comm = NULL;
	o = event_to_json(&e, &x);
	cr_assert_str_eq(str(o, "origin"), "inferred");
	cr_assert_null(str(o, "uid"));
	json_object_put(o);
}
