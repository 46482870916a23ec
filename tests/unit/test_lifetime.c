// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* The lifetime timeline (nsaudit/lifetime/timeline.c) from hand-written records. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lifetime/lifetime.h"
#include "nstype.h"
#include "search.h"

#define NET 4026532289u

static json_object *rec(const char *s)
{
	json_object *o = json_tokener_parse(s);

	cr_assert_not_null(o, "bad test record %s", s);
	return o;
}

/* Feed a record; returns the kind it got (LT_NONE when not added). */
static enum lt_kind feed(struct lt_timeline *tl, const char *s)
{
	json_object *o = rec(s);
	const struct lt_event *e = lt_add(tl, o);
	enum lt_kind k = e ? e->kind : LT_NONE;

	json_object_put(o); /* the timeline keeps its own reference */
	return k;
}

static char *event_text(const struct lt_timeline *tl, size_t i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lt_print_event(f, tl, &tl->ev[i]);
	fclose(f);
	return buf;
}

static char *end_text(const struct lt_timeline *tl, size_t i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lt_print_inc_end(f, tl, i);
	fclose(f);
	return buf;
}

/* An ip netns add / exec / del, as recorded on 6.18 (umount has no ns_id). */
static const char *const ipnetns[] = {
    "{\"seq\":1,\"time\":\"2026-12-03T09:17:36.000000000Z\",\"op\":\"log\",\"action\":\"start\"}",
    "{\"seq\":4,\"time\":\"2026-12-03T09:17:37.650458958Z\",\"op\":\"unshare\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":26356,\"old_inum\":4026531833,"
    "\"old_ns_id\":3,\"pid\":16098,\"comm\":\"ip\",\"uid\":0}",
    "{\"seq\":5,\"time\":\"2026-12-03T09:17:37.650675130Z\",\"op\":\"mount\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":26356,\"pid\":16098,\"comm\":\"ip\","
    "\"uid\":0,\"path\":\"/run/netns/blue\"}",
    "{\"seq\":6,\"time\":\"2026-12-03T09:17:37.650684608Z\",\"op\":\"setns\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026531833,\"ns_id\":3,\"old_inum\":4026532289,"
    "\"old_ns_id\":26356,\"pid\":16098,\"comm\":\"ip\",\"uid\":0,\"fd\":5,\"via\":\"proc\"}",
    "{\"seq\":7,\"time\":\"2026-12-03T09:17:38.1Z\",\"op\":\"open\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":26356,\"pid\":16100,\"comm\":\"ip\","
    "\"uid\":0,\"fd\":5,\"via\":\"bind\",\"path\":\"/run/netns/blue\"}",
    "{\"seq\":8,\"time\":\"2026-12-03T09:17:38.2Z\",\"op\":\"setns\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":26356,\"old_inum\":4026531833,"
    "\"old_ns_id\":3,\"pid\":16100,\"comm\":\"ip\",\"uid\":0,\"fd\":5,\"via\":\"bind\"}",
    /* another namespace, and a uts one with the same inode: not ours */
    "{\"seq\":9,\"op\":\"setns\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532300,"
    "\"old_inum\":4026531833,\"pid\":1,\"comm\":\"x\"}",
    "{\"seq\":10,\"op\":\"unshare\",\"result\":0,\"ns_type\":\"uts\",\"ns_inum\":4026532289,"
    "\"pid\":1,\"comm\":\"x\"}",
    "{\"seq\":11,\"time\":\"2026-12-03T09:17:39.000Z\",\"op\":\"umount\",\"result\":0,"
    "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"pid\":16101,\"comm\":\"ip\",\"uid\":0,"
    "\"path\":\"/run/netns/blue\"}",
};

static void feed_ipnetns(struct lt_timeline *tl)
{
	size_t i;

	for (i = 0; i < sizeof(ipnetns) / sizeof(ipnetns[0]); i++)
		feed(tl, ipnetns[i]);
}

Test(lifetime, classifies_an_ip_netns)
{
	static const enum lt_kind want[] = {LT_CREATED, LT_PINNED,  LT_LEFT,
					    LT_PINNED,	LT_ENTERED, LT_UNPINNED};
	struct lt_timeline tl;
	size_t i;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed_ipnetns(&tl);
	cr_assert_eq(tl.nev, 6);
	for (i = 0; i < 6; i++)
		cr_assert_eq(tl.ev[i].kind, want[i], "event %zu: %s", i,
			     lt_kind_name(tl.ev[i].kind));
	cr_assert_eq(tl.ninc, 1, "the id-less umount belongs to the same namespace");
	cr_assert_eq(tl.inc[0].ns_id, 26356);
	cr_assert_eq(tl.inc[0].created, 0);
	cr_assert_eq(tl.inc[0].count[LT_PINNED], 2);
	cr_assert_eq(tl.records, 9);
	cr_assert_eq(tl.first_seq, 1);
	lt_finish(&tl);
	cr_assert_eq(tl.inc[0].state, LT_OPEN, "the last one is for the caller to check");
	lt_free(&tl);
}

Test(lifetime, event_lines)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed_ipnetns(&tl);
	s = event_text(&tl, 0);
	cr_assert_str_eq(s, "2026-12-03T09:17:37.650Z created  by unshare pid=16098 (ip) uid=0 "
			    "seq=4\n");
	free(s);
	s = event_text(&tl, 1);
	cr_assert_str_eq(s, "2026-12-03T09:17:37.650Z pinned   by mount at /run/netns/blue "
			    "pid=16098 (ip) uid=0 seq=5\n");
	free(s);
	s = event_text(&tl, 2);
	cr_assert_str_eq(s, "2026-12-03T09:17:37.650Z left     by setns to net:[4026531833] "
			    "pid=16098 (ip) uid=0 seq=6\n");
	free(s);
	s = event_text(&tl, 3);
	cr_assert_str_eq(s,
			 "2026-12-03T09:17:38.1Z pinned   by open of /run/netns/blue fd=5 "
			 "pid=16100 (ip) uid=0 seq=7\n",
			 "a short fraction is kept as it is");
	free(s);
	s = event_text(&tl, 4);
	cr_assert_str_eq(s, "2026-12-03T09:17:38.2Z entered  by setns from net:[4026531833] fd=5 "
			    "via bind pid=16100 (ip) uid=0 seq=8\n");
	free(s);
	s = event_text(&tl, 5);
	cr_assert_str_eq(s, "2026-12-03T09:17:39.000Z unpinned by umount of /run/netns/blue "
			    "pid=16101 (ip) uid=0 seq=11\n");
	free(s);
	lt_free(&tl);
}

Test(lifetime, hostile_names_are_escaped)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_UTS, 4026532239u);
	cr_assert_eq(feed(&tl, "{\"seq\":3,\"time\":\"t\",\"op\":\"unshare\",\"result\":0,"
			       "\"ns_type\":\"uts\",\"ns_inum\":4026532239,\"pid\":7,"
			       "\"comm\":\"a\\nb\\u001b[2J\",\"uid\":1000}"),
		     LT_CREATED);
	s = event_text(&tl, 0);
	cr_assert_str_eq(s, "t created  by unshare pid=7 (a\\x0ab\\x1b[2J) uid=1000 seq=3\n");
	free(s);
	lt_free(&tl);
}

Test(lifetime, failures_and_other_ops)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	cr_assert_eq(feed(&tl, "{\"op\":\"setns\",\"result\":-1,\"error\":\"EPERM\","
			       "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"old_inum\":1}"),
		     LT_REFUSED);
	cr_assert_eq(feed(&tl, "{\"op\":\"open\",\"result\":-13,\"error\":\"EACCES\","
			       "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"pid\":8,"
			       "\"comm\":\"cat\",\"uid\":65534,\"path\":\"/proc/9/ns/net\"}"),
		     LT_REFUSED, "a refused open pins nothing, but is shown");
	s = event_text(&tl, 1);
	cr_assert_str_eq(s, "- refused  by open of /proc/9/ns/net (failed: EACCES) pid=8 (cat) "
			    "uid=65534\n");
	free(s);
	cr_assert_eq(feed(&tl, "{\"op\":\"clone\",\"result\":0,\"ns_type\":\"net\","
			       "\"ns_inum\":5,\"old_inum\":4026532289,\"target_pid\":9}"),
		     LT_NONE, "clone: the parent stays in its namespace");
	cr_assert_eq(feed(&tl, "{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\","
			       "\"ns_inum\":5,\"old_inum\":4026532289}"),
		     LT_LEFT);
	cr_assert_eq(feed(&tl, "{\"op\":\"nsfd\",\"result\":0,\"ns_type\":\"net\","
			       "\"ns_inum\":4026532289,\"target_pid\":9,\"fd\":3}"),
		     LT_PINNED);
	cr_assert_eq(feed(&tl, "{\"op\":\"lost\",\"count\":7,\"why\":\"ring buffer full\"}"),
		     LT_LOST, "a gap while it lives is shown");
	cr_assert_eq(feed(&tl, "{\"op\":\"ns_free\",\"ns_type\":\"net\",\"ns_inum\":4026532289}"),
		     LT_FREED);
	cr_assert_eq(feed(&tl, "{\"op\":\"lost\",\"count\":2}"), LT_NONE,
		     "a gap after it was freed is not about it");
	cr_assert_eq(tl.ninc, 1);
	cr_assert_eq(tl.inc[0].lost, 7);
	lt_finish(&tl);
	cr_assert_eq(tl.inc[0].state, LT_FREED_SEEN);
	lt_free(&tl);
}

Test(lifetime, inode_reuse_split_by_ns_id)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed_ipnetns(&tl);
	/* the same inode, a new namespace (no creation record: it came in
	 * through an open), then one more id-less umount */
	feed(&tl, "{\"seq\":20,\"time\":\"2026-12-03T10:00:00Z\",\"op\":\"open\",\"result\":0,"
		  "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":27001,\"pid\":5}");
	feed(&tl, "{\"seq\":21,\"op\":\"umount\",\"result\":0,\"ns_type\":\"net\","
		  "\"ns_inum\":4026532289,\"path\":\"/x\"}");
	cr_assert_eq(tl.ninc, 2);
	cr_assert_eq(tl.inc[1].ns_id, 27001);
	cr_assert(tl.ev[6].new_inc);
	cr_assert_eq(tl.ev[7].inc, 1);
	cr_assert_eq(tl.inc[1].created, SIZE_MAX);
	lt_finish(&tl);
	cr_assert_eq(tl.inc[0].state, LT_REUSED);
	s = end_text(&tl, 0);
	cr_assert_str_eq(s, "freed: after 2026-12-03T09:17:39.000Z (its last record: unpinned, "
			    "seq=11; inferred) and before 2026-12-03T10:00:00Z, when the inode was "
			    "used by another namespace, ns_id 27001)\n");
	free(s);
	tl.inc[1].state = LT_GONE;
	s = end_text(&tl, 1);
	cr_assert(!strncmp(s, "no holders now: freed after ", 28), "%s", s);
	cr_assert(strstr(s, "inferred: this kernel records no ns_free"), "%s", s);
	free(s);
	lt_free(&tl);
}

Test(lifetime, inode_reuse_without_ids)
{
	struct lt_timeline tl;

	/* 6.1: no ns_id; a second creation means a second namespace */
	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed(&tl, "{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289}");
	feed(&tl, "{\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289}");
	feed(&tl, "{\"op\":\"clone\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289}");
	cr_assert_eq(tl.ninc, 2);
	cr_assert_eq(tl.inc[1].created, 2);
	lt_free(&tl);
}

Test(lifetime, type_from_first_match)
{
	struct lt_timeline tl;

	lt_init(&tl, -1, NET);
	cr_assert_eq(feed(&tl, "{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"uts\","
			       "\"ns_inum\":4026532289}"),
		     LT_CREATED);
	cr_assert_eq(tl.type, NSAUDIT_NS_UTS);
	cr_assert_eq(feed(&tl, "{\"op\":\"setns\",\"result\":0,\"ns_type\":\"net\","
			       "\"ns_inum\":4026532289}"),
		     LT_NONE);
	lt_free(&tl);
}

Test(lifetime, summary_json)
{
	struct lt_timeline tl;
	json_object *s, *l, *inc, *v;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed_ipnetns(&tl);
	lt_finish(&tl);
	tl.inc[0].state = LT_GONE;
	s = lt_summary_json(&tl);
	cr_assert(json_object_object_get_ex(s, "lifetime", &l));
	cr_assert(json_object_object_get_ex(l, "incarnations", &inc));
	cr_assert_eq(json_object_array_length(inc), 1);
	inc = json_object_array_get_idx(inc, 0);
	cr_assert(json_object_object_get_ex(inc, "state", &v));
	cr_assert_str_eq(json_object_get_string(v), "gone");
	cr_assert(json_object_object_get_ex(inc, "ns_id", &v));
	cr_assert_eq(json_object_get_int64(v), 26356);
	cr_assert(json_object_object_get_ex(inc, "freed", &v));
	cr_assert(json_object_object_get_ex(v, "inferred", &v));
	cr_assert(json_object_get_boolean(v));
	cr_assert(json_object_object_get_ex(inc, "events", &v));
	cr_assert(json_object_object_get_ex(v, "entered", &v));
	cr_assert_eq(json_object_get_int64(v), 1);
	json_object_put(s);

	s = lt_event_json(&tl, &tl.ev[1]);
	cr_assert(json_object_object_get_ex(s, "event", &v));
	cr_assert_str_eq(json_object_get_string(v), "pinned");
	cr_assert(json_object_object_get_ex(s, "path", &v), "the record itself is kept");
	json_object_put(s);
	lt_free(&tl);
}

Test(lifetime, mount_at_for_a_gone_name)
{
	json_object *o;
	uint32_t inum = 0;
	int type = -1;

	o = rec(ipnetns[2]);
	cr_assert(audit_rec_mount_at(o, "/run/netns/blue", &type, &inum));
	cr_assert_eq(type, NSAUDIT_NS_NET);
	cr_assert_eq(inum, NET);
	cr_assert(!audit_rec_mount_at(o, "/run/netns/blu", &type, &inum));
	json_object_put(o);
	o = rec(ipnetns[8]); /* umount at the same path */
	cr_assert(!audit_rec_mount_at(o, "/run/netns/blue", &type, &inum));
	json_object_put(o);
}

/* 6.1, no ids: the inode was reused; each mount's created_seq ties the name
 * to its own creation, by seq, whatever the inode says */
Test(lifetime, created_seq_ties_names_to_creations)
{
	struct lt_timeline tl;
	json_object *s, *l, *inc, *v;
	char *t;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed(&tl, "{\"seq\":4,\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\","
		  "\"ns_inum\":4026532289,\"pid\":10,\"comm\":\"ip\",\"uid\":0}");
	feed(&tl, "{\"seq\":5,\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		  "\"ns_name\":\"blue\",\"path\":\"/run/netns/blue\",\"created_seq\":4}");
	feed(&tl, "{\"seq\":9,\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\","
		  "\"ns_inum\":4026532289,\"pid\":11,\"comm\":\"ip\",\"uid\":0}");
	feed(&tl, "{\"seq\":10,\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		  "\"ns_name\":\"red\",\"path\":\"/run/netns/red\",\"created_seq\":9}");
	/* a mount naming a creation that is not in the log: no tie */
	feed(&tl, "{\"seq\":12,\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		  "\"ns_name\":\"green\",\"path\":\"/run/netns/green\",\"created_seq\":2}");
	lt_finish(&tl);
	cr_assert_eq(tl.ninc, 2);
	cr_assert_eq(lt_named_by(&tl, &tl.ev[0])->seq, 5, "blue named the first");
	cr_assert_eq(lt_named_by(&tl, &tl.ev[2])->seq, 10, "red named the second");
	cr_assert_null(lt_named_by(&tl, &tl.ev[1]), "a mount is named by nothing");
	cr_assert_eq(tl.name_conflicts, 0);
	t = event_text(&tl, 2);
	cr_assert_str_eq(t, "- created  by unshare pid=11 (ip) uid=0, named red by the mount at "
			    "seq=10 seq=9\n");
	free(t);
	s = lt_event_json(&tl, &tl.ev[0]);
	cr_assert(json_object_object_get_ex(s, "named_by_seq", &v));
	cr_assert_eq(json_object_get_int64(v), 5);
	json_object_put(s);
	s = lt_summary_json(&tl);
	cr_assert(json_object_object_get_ex(s, "lifetime", &l));
	cr_assert(json_object_object_get_ex(l, "incarnations", &inc));
	inc = json_object_array_get_idx(inc, 1);
	cr_assert(json_object_object_get_ex(inc, "named", &v));
	cr_assert(json_object_object_get_ex(v, "ns_name", &v));
	cr_assert_str_eq(json_object_get_string(v), "red");
	json_object_put(s);
	lt_free(&tl);
}

/* with ids, a created_seq that names a creation of another namespace (ids
 * differ) is counted as a conflict, not shown as a name */
Test(lifetime, created_seq_across_ids_is_a_conflict)
{
	struct lt_timeline tl;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	feed(&tl, "{\"seq\":4,\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\","
		  "\"ns_inum\":4026532289,\"ns_id\":40}");
	feed(&tl, "{\"seq\":9,\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\","
		  "\"ns_inum\":4026532289,\"ns_id\":41}");
	feed(&tl, "{\"seq\":10,\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		  "\"ns_id\":41,\"ns_name\":\"red\",\"path\":\"/run/netns/red\",\"created_seq\":4}");
	lt_finish(&tl);
	cr_assert_eq(tl.ninc, 2);
	cr_assert_eq(tl.name_conflicts, 1);
	cr_assert_null(lt_named_by(&tl, &tl.ev[0]), "not named by another's mount");
	cr_assert_null(lt_named_by(&tl, &tl.ev[1]));
	lt_free(&tl);
}

/* op freed's let_go: a holder gone while the namespace lives on, with the
 * count left; not a death (no new incarnation, the state stays open) */
/* A socket of a net namespace: a let_go with the count left, and the
 * holder that let go last (no actor: freed by its closer, a timer or RCU). */
Test(lifetime, a_socket_lets_go)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	cr_assert_eq(feed(&tl, "{\"seq\":4,\"time\":\"2026-12-03T09:17:37.650Z\",\"op\":\"unshare\","
			       "\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
			       "\"ns_id\":9,\"pid\":7,\"comm\":\"ip\"}"),
		     LT_CREATED);
	cr_assert_eq(feed(&tl, "{\"seq\":5,\"time\":\"2026-12-03T09:17:38.000Z\",\"op\":\"freed\","
			       "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":9,"
			       "\"stage\":\"let_go\",\"holder\":\"socket\",\"ns_refs\":2}"),
		     LT_LET_GO);
	s = event_text(&tl, 1);
	cr_assert_str_eq(s, "2026-12-03T09:17:38.000Z let_go   a socket in it was freed; "
			    "2 references left seq=5\n");
	free(s);
	lt_free(&tl);
}

/* A user namespace let go by its child user namespace (holder child, the
 * child in old_inum/old_ns_id): the child is named, not the worker that ran
 * the free work; so too for owner_work (no holder named) */
Test(lifetime, a_child_user_namespace_lets_go)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_USER, 4026532174u);
	cr_assert_eq(feed(&tl, "{\"seq\":4,\"time\":\"2026-12-07T18:16:29.000Z\",\"op\":\"unshare\","
			       "\"result\":0,\"ns_type\":\"user\",\"ns_inum\":4026532174,"
			       "\"ns_id\":35,\"pid\":7,\"comm\":\"unshare\"}"),
		     LT_CREATED);
	cr_assert_eq(feed(&tl, "{\"seq\":5,\"time\":\"2026-12-07T18:16:30.072928174Z\",\"op\":\"freed\","
			       "\"ns_type\":\"user\",\"ns_inum\":4026532174,\"ns_id\":35,"
			       "\"stage\":\"let_go\",\"holder\":\"child\",\"old_inum\":4026532177,"
			       "\"old_ns_id\":38,\"ns_refs\":7,\"pid\":9431,\"comm\":\"kworker/0:19\"}"),
		     LT_LET_GO);
	cr_assert_eq(feed(&tl, "{\"seq\":6,\"time\":\"2026-12-07T18:16:31.508899710Z\",\"op\":\"freed\","
			       "\"ns_type\":\"user\",\"ns_inum\":4026532174,\"ns_id\":35,"
			       "\"stage\":\"last_ref\",\"holder\":\"child\",\"old_inum\":4026532175,"
			       "\"old_ns_id\":36,\"pid\":10300,\"comm\":\"kworker/1:2\"}"),
		     LT_FREED);
	lt_finish(&tl);
	s = event_text(&tl, 1);
	cr_assert_str_eq(s, "2026-12-07T18:16:30.072Z let_go   its child user namespace "
			    "user:[4026532177] ns_id=38 (freed at 18:16:30.072928174Z, in the same "
			    "free work) let go of it; 7 references left seq=5\n");
	free(s);
	s = event_text(&tl, 2);
	cr_assert_str_eq(s, "2026-12-07T18:16:31.508Z freed    (its last reference went: a child "
			    "user namespace that held it was freed) its last holder: child user "
			    "namespace user:[4026532175] ns_id=36 (freed at 18:16:31.508899710Z, in "
			    "the same free work) seq=6\n");
	free(s);
	lt_free(&tl);
	lt_init(&tl, NSAUDIT_NS_USER, 4026532176u);
	feed(&tl, "{\"seq\":7,\"time\":\"2026-12-07T18:16:32.120Z\",\"op\":\"freed\","
		  "\"ns_type\":\"user\",\"ns_inum\":4026532176,\"ns_id\":37,\"stage\":\"last_ref\","
		  "\"holder\":\"owner_work\",\"pid\":10300,\"comm\":\"kworker/1:2\"}");
	lt_finish(&tl);
	s = event_text(&tl, 0);
	cr_assert_null(strstr(s, "kworker"), "the worker is no holder: %s", s);
	free(s);
	lt_free(&tl);
}

/* A mount namespace let go last by a bind mount: holder mount, the
 * umounter named as the last holder */
Test(lifetime, a_bind_mount_lets_go_last)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_MNT, 4026532174u);
	cr_assert_eq(feed(&tl, "{\"seq\":6,\"time\":\"2026-12-07T21:13:01.989Z\",\"op\":\"freed\","
			       "\"ns_type\":\"mnt\",\"ns_inum\":4026532174,\"ns_id\":38,"
			       "\"stage\":\"last_ref\",\"holder\":\"mount\",\"pid\":27561,"
			       "\"comm\":\"umount\",\"uid\":0}"),
		     LT_FREED);
	lt_finish(&tl);
	s = event_text(&tl, 0);
	cr_assert_str_eq(s, "2026-12-07T21:13:01.989Z freed    (its last reference went: its last "
			    "bind mount was removed, by the umount of the actor) last holder: "
			    "pid=27561 (umount) uid=0 seq=6\n");
	free(s);
	lt_free(&tl);
}

Test(lifetime, let_go_is_a_holder_gone)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_NET, NET);
	cr_assert_eq(feed(&tl, "{\"seq\":4,\"time\":\"2026-12-03T09:17:37.650Z\",\"op\":\"unshare\","
			       "\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532289,"
			       "\"ns_id\":9,\"pid\":7,\"comm\":\"ip\"}"),
		     LT_CREATED);
	cr_assert_eq(feed(&tl, "{\"seq\":5,\"time\":\"2026-12-03T09:17:38.000Z\",\"op\":\"freed\","
			       "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":9,"
			       "\"stage\":\"let_go\",\"holder\":\"task\",\"pid\":7,\"comm\":\"ip\","
			       "\"ns_refs\":2}"),
		     LT_LET_GO);
	cr_assert_eq(feed(&tl, "{\"seq\":6,\"time\":\"2026-12-03T09:17:39.000Z\",\"op\":\"freed\","
			       "\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":9,"
			       "\"stage\":\"let_go\",\"holder\":\"nsfs\",\"ns_refs\":1}"),
		     LT_LET_GO);
	lt_finish(&tl);
	cr_assert_eq(tl.ninc, 1);
	cr_assert_eq(tl.inc[0].state, LT_OPEN, "let go, not freed");
	s = event_text(&tl, 1);
	cr_assert_str_eq(s, "2026-12-03T09:17:38.000Z let_go   a task holding it exited, exec'd "
			    "or moved away; 2 references left pid=7 (ip) seq=5\n");
	free(s);
	s = event_text(&tl, 2);
	cr_assert_str_eq(s, "2026-12-03T09:17:39.000Z let_go   its nsfs file went: its last fd "
			    "was closed, its last bind mount removed; 1 reference left seq=6\n");
	free(s);
	lt_free(&tl);
}
