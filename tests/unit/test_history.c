// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Holders over time and the leak judgement (nsaudit/lifetime/history.c)
 * from hand-written records. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lifetime/history.h"
#include "lifetime/lifetime.h"
#include "nstype.h"

static void feed(struct lt_timeline *tl, const char *s)
{
	json_object *o = json_tokener_parse(s);

	cr_assert_not_null(o, "bad test record %s", s);
	lt_add(tl, o);
	json_object_put(o);
}

#define R(seq, t, rest) \
	"{\"seq\":" #seq ",\"time\":\"2026-12-03T09:17:" t "Z\",\"result\":0," rest "}"

/* ip netns add blue; ip netns exec blue sleep; ip netns del blue; the
 * sleep exits last (op freed names it) */
static const char *const story[] = {
    R(4, "30.000", "\"op\":\"unshare\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"old_inum\":4026531833,\"pid\":100,\"comm\":\"ip\""),
    R(5, "30.001", "\"op\":\"mount\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"pid\":100,\"comm\":\"ip\",\"path\":\"/run/netns/blue\""),
    R(6, "30.002", "\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026531833,"
		   "\"old_inum\":4026532289,\"pid\":100,\"comm\":\"ip\""),
    R(7, "31.000", "\"op\":\"open\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"pid\":200,\"comm\":\"ip\",\"fd\":5,\"path\":\"/run/netns/blue\""),
    R(8, "31.001", "\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"old_inum\":4026531833,\"pid\":200,\"comm\":\"ip\""),
    R(9, "32.000", "\"op\":\"umount\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"pid\":300,\"comm\":\"ip\",\"path\":\"/run/netns/blue\""),
    R(10, "35.500", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		    "\"stage\":\"last_ref\",\"holder\":\"task\",\"pid\":200,\"comm\":\"sleep\""),
    R(11, "35.600", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		    "\"stage\":\"cleanup\",\"holder\":\"kernel\""),
};

static void load(struct lt_timeline *tl, size_t n)
{
	size_t i;

	lt_init(tl, NSAUDIT_NS_NET, 4026532289u);
	for (i = 0; i < n; i++)
		feed(tl, story[i]);
	lt_finish(tl);
}

Test(history, spans_of_an_ip_netns)
{
	struct lt_timeline tl;
	struct lh_history h;

	load(&tl, sizeof(story) / sizeof(story[0]));
	cr_assert_eq(tl.ninc, 1);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 4, "creator, mount, fd, task: %zu", h.n);
	/* the creator: from its unshare to its setns away */
	cr_assert_eq(h.v[0].kind, LH_TASK);
	cr_assert_eq(h.v[0].pid, 100);
	cr_assert_eq(tl.ev[h.v[0].to].kind, LT_LEFT);
	cr_assert_eq(h.creator, 0);
	/* the name: from the mount to the umount, by path */
	cr_assert_eq(h.v[1].kind, LH_MOUNT);
	cr_assert_str_eq(h.v[1].path, "/run/netns/blue");
	cr_assert_eq(tl.ev[h.v[1].to].kind, LT_UNPINNED);
	/* the fd: its close is not recorded */
	cr_assert_eq(h.v[2].kind, LH_FD);
	cr_assert_eq(h.v[2].fd, 5);
	cr_assert_eq(h.v[2].to, SIZE_MAX);
	/* the task that entered and let go last (op freed) */
	cr_assert_eq(h.v[3].kind, LH_TASK);
	cr_assert_eq(h.v[3].pid, 200);
	cr_assert(h.v[3].last);
	cr_assert_eq(tl.ev[h.v[3].to].seq, 10);
	cr_assert_eq(tl.ev[h.freed].seq, 10);
	cr_assert_eq(tl.ev[h.unnamed].seq, 9);
	lh_free(&h);
	lt_free(&tl);
}

Test(history, printed_spans)
{
	struct lt_timeline tl;
	struct lh_history h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	load(&tl, sizeof(story) / sizeof(story[0]));
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	lh_print(f, &tl, &h);
	fclose(f);
	cr_assert(strstr(buf, "task  pid=100 (ip)  2026-12-03T09:17:30.000Z -> "
			      "2026-12-03T09:17:30.002Z (0.002 s)  created it; left"),
		  "%s", buf);
	cr_assert(strstr(buf, "mount /run/netns/blue  2026-12-03T09:17:30.001Z -> "
			      "2026-12-03T09:17:32.000Z (1.999 s)  named (bind mount); umount"),
		  "%s", buf);
	cr_assert(strstr(buf, "fd    pid=200 fd=5 (ip)  2026-12-03T09:17:31.000Z -> ?  opened "
			      "its file; end not in the log (closes are not recorded)"),
		  "%s", buf);
	cr_assert(strstr(buf, "task  pid=200 (ip)  2026-12-03T09:17:31.001Z -> "
			      "2026-12-03T09:17:35.500Z (4.499 s)  entered (setns); exited, "
			      "exec'd or moved away: let go last"),
		  "%s", buf);
	free(buf);
	lh_free(&h);
	lt_free(&tl);
}

/* a holder whose beginning is not in the log (a forked child) that let go
 * last: one span, its start '?' */
Test(history, inherited_last_holder)
{
	struct lt_timeline tl;
	struct lh_history h;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, story[0]);
	feed(&tl, R(12, "40.000", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
				  "\"stage\":\"last_ref\",\"holder\":\"task\",\"pid\":101,"
				  "\"comm\":\"child\""));
	lt_finish(&tl);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 2);
	cr_assert_eq(h.v[1].pid, 101);
	cr_assert_eq(h.v[1].from, SIZE_MAX);
	cr_assert(h.v[1].last);
	/* the creator (pid 100) never left per the log */
	cr_assert_eq(h.v[0].to, SIZE_MAX);
	lh_free(&h);
	lt_free(&tl);
}

#define T(s) (1796289450.0 + (s)) /* 2026-12-03T09:17:30Z + s */

Test(history, leak_after_the_name_and_the_creator)
{
	struct lt_timeline tl;
	struct lh_leak l;

	/* alive (no freed record): the first six records */
	load(&tl, 6);
	cr_assert_eq(lh_creator_pid(&tl, 0), 100);
	/* 2 s after the umount (at +2 s): 60 s later a leak, 1 s later not */
	cr_assert(lh_leak(&tl, 0, false, 0, T(62), 60, &l));
	cr_assert_float_eq(l.since, T(2), 1e-6);
	cr_assert(l.creator_left);
	cr_assert_eq(l.named, 1);
	cr_assert_eq(tl.ev[l.unnamed].seq, 9);
	cr_assert_not(lh_leak(&tl, 0, false, 0, T(3), 60, &l));
	/* still named now, or the creator still holds it: no leak */
	cr_assert_not(lh_leak(&tl, 0, false, 1, T(1000), 60, &l));
	cr_assert_not(lh_leak(&tl, 0, true, 0, T(1000), 60, &l));
	lt_free(&tl);
}

Test(history, leak_needs_its_creation_in_the_log)
{
	struct lt_timeline tl;
	struct lh_leak l;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, story[3]);
	lt_finish(&tl);
	cr_assert_eq(lh_creator_pid(&tl, 0), -1);
	cr_assert_not(lh_leak(&tl, 0, false, 0, T(1000), 0, &l));
	lt_free(&tl);
}

/* never named, the creator's leaving not recorded (it exited): the age
 * counts from the creation, and says so (creator_left false) */
Test(history, leak_of_an_unnamed_namespace)
{
	struct lt_timeline tl;
	struct lh_leak l;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, story[0]);
	lt_finish(&tl);
	cr_assert(lh_leak(&tl, 0, false, 0, T(100), 60, &l));
	cr_assert_float_eq(l.since, T(0), 1e-6);
	cr_assert_not(l.creator_left);
	cr_assert_eq(l.named, 0);
	cr_assert_eq(l.unnamed, SIZE_MAX);
	lt_free(&tl);
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

/* a mount namespace held last by a bind mount: op freed sees its memory
 * go (released) but no last_ref: the last holder is "cannot tell", never
 * a guess; with a last_ref nothing of the kind is said */
Test(history, no_last_ref_cannot_tell)
{
	struct lt_timeline tl;
	char *s;

	lt_init(&tl, NSAUDIT_NS_MNT, 4026532120u);
	feed(&tl, R(1, "30.000", "\"op\":\"unshare\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":100,\"comm\":\"unshare\""));
	feed(&tl, R(2, "31.000", "\"op\":\"mount\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":101,\"comm\":\"mount\",\"path\":\"/tmp/m\""));
	feed(&tl, R(3, "33.000", "\"op\":\"freed\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"stage\":\"released\",\"holder\":\"kernel\",\"pid\":102,"
				 "\"comm\":\"umount\""));
	lt_finish(&tl);
	s = end_text(&tl, 0);
	cr_assert(strstr(s, "last holder: cannot tell (no last_ref"), "%s", s);
	cr_assert(strstr(s, "lived 3.000 s"), "%s", s);
	free(s);
	lt_free(&tl);

	load(&tl, sizeof(story) / sizeof(story[0]));
	s = end_text(&tl, 0);
	cr_assert_null(strstr(s, "cannot tell"), "%s", s);
	cr_assert(strstr(s, "died 3.500 s after its last name was removed"), "%s", s);
	free(s);
	lt_free(&tl);
}

/* a mount namespace let go last by a bind mount (op freed's holder mount,
 * the umounter the actor): the bind mount's span, the one the actor's
 * umount ended, let go last; not an earlier bind mount's; no "cannot tell" */
Test(history, a_bind_mount_lets_go_last)
{
	struct lt_timeline tl;
	struct lh_history h;
	char *s;

	lt_init(&tl, NSAUDIT_NS_MNT, 4026532120u);
	feed(&tl, R(1, "30.000", "\"op\":\"unshare\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":100,\"comm\":\"unshare\""));
	feed(&tl, R(2, "31.000", "\"op\":\"mount\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":101,\"comm\":\"mount\",\"path\":\"/tmp/a\""));
	feed(&tl, R(3, "31.500", "\"op\":\"mount\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":101,\"comm\":\"mount\",\"path\":\"/tmp/m\""));
	feed(&tl, R(4, "32.000", "\"op\":\"umount\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":102,\"comm\":\"umount\",\"path\":\"/tmp/a\""));
	feed(&tl, R(5, "33.000", "\"op\":\"umount\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"pid\":103,\"comm\":\"umount\",\"path\":\"/tmp/m\""));
	feed(&tl, R(6, "33.020", "\"op\":\"freed\",\"ns_type\":\"mnt\",\"ns_inum\":4026532120,"
				 "\"stage\":\"last_ref\",\"holder\":\"mount\",\"pid\":103,"
				 "\"comm\":\"umount\""));
	lt_finish(&tl);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 3, "creator, two mounts: %zu", h.n);
	cr_assert_eq(h.v[1].kind, LH_MOUNT);
	cr_assert_str_eq(h.v[1].path, "/tmp/a");
	cr_assert_not(h.v[1].last, "the earlier bind mount did not let go last");
	cr_assert_eq(h.v[2].kind, LH_MOUNT);
	cr_assert_str_eq(h.v[2].path, "/tmp/m");
	cr_assert(h.v[2].last);
	cr_assert_eq(tl.ev[h.v[2].to].seq, 5, "its span ends at its umount");
	s = end_text(&tl, 0);
	cr_assert_null(strstr(s, "cannot tell"), "%s", s);
	free(s);
	lh_free(&h);
	lt_free(&tl);
}

/* a hostile process name or mount path is escaped, never printed raw */
Test(history, hostile_names_escaped)
{
	struct lt_timeline tl;
	struct lh_history h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, R(1, "30.000", "\"op\":\"unshare\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
				 "\"pid\":100,\"comm\":\"a\\u001b[31m\\nb\""));
	feed(&tl, R(2, "30.001", "\"op\":\"mount\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
				 "\"pid\":100,\"comm\":\"ip\",\"path\":\"/run/netns/x\\ny\""));
	lt_finish(&tl);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	lh_print(f, &tl, &h);
	fclose(f);
	cr_assert_null(strchr(buf, '\033'), "%s", buf);
	/* the heading and one line per span: no newline of the records' */
	{
		size_t n = 0;
		const char *p;

		for (p = buf; *p; p++)
			n += *p == '\n';
		cr_assert_eq(n, 3, "%s", buf);
	}
	cr_assert_null(strstr(buf, "x\ny"), "%s", buf);
	cr_assert_null(strstr(buf, "a\033"), "%s", buf);
	free(buf);
	lh_free(&h);
	lt_free(&tl);
}

/*
 * op freed's let_go (stock kernels): each holder's going with the count it
 * left. ip netns add (pid 100) exits, a sleep (pid 200) entered and an fd
 * of pid 300 hold it; the name and the fd go (the nsfs dentry), the sleep
 * goes last.
 */
static const char *const let_go_story[] = {
    R(4, "30.000", "\"op\":\"unshare\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"ns_id\":77,\"pid\":100,\"comm\":\"ip\""),
    R(5, "30.001", "\"op\":\"mount\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
		   "\"ns_id\":77,\"pid\":100,\"comm\":\"ip\",\"path\":\"/run/netns/blue\""),
    R(6, "30.005", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		   "\"stage\":\"let_go\",\"holder\":\"task\",\"pid\":100,\"comm\":\"ip\","
		   "\"ns_refs\":1"),
    R(7, "31.000", "\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		   "\"pid\":200,\"comm\":\"sleep\""),
    R(8, "31.500", "\"op\":\"open\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		   "\"pid\":300,\"comm\":\"cat\",\"fd\":3"),
    R(9, "32.000", "\"op\":\"umount\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		   "\"pid\":400,\"comm\":\"ip\",\"path\":\"/run/netns/blue\""),
    R(10, "33.020", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		    "\"stage\":\"let_go\",\"holder\":\"nsfs\",\"ns_refs\":1"),
    R(11, "35.000", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,\"ns_id\":77,"
		    "\"stage\":\"last_ref\",\"holder\":\"task\",\"pid\":200,\"comm\":\"sleep\""),
};

static void load_let_go(struct lt_timeline *tl, size_t n)
{
	size_t i;

	lt_init(tl, NSAUDIT_NS_NET, 4026532289u);
	for (i = 0; i < n; i++)
		feed(tl, let_go_story[i]);
	lt_finish(tl);
}

Test(history, let_go_ends_each_holder)
{
	struct lt_timeline tl;
	struct lh_history h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	load_let_go(&tl, sizeof(let_go_story) / sizeof(let_go_story[0]));
	cr_assert_eq(tl.ninc, 1, "a let_go is not a death: one namespace");
	cr_assert_eq(tl.inc[0].count[LT_LET_GO], 2);
	cr_assert_eq(tl.inc[0].count[LT_FREED], 1);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 5, "creator, mount, sleep, fd, nsfs: %zu", h.n);
	/* the creator's exit is in the log now, with the count it left */
	cr_assert_eq(h.v[0].pid, 100);
	cr_assert_eq(tl.ev[h.v[0].to].seq, 6);
	cr_assert_eq(h.v[0].refs_left, 1);
	cr_assert_not(h.v[0].last);
	/* the fd's close is bounded by the nsfs dentry's going */
	cr_assert_eq(h.v[3].kind, LH_FD);
	cr_assert_eq(h.v[3].to, SIZE_MAX);
	cr_assert_eq(tl.ev[h.v[3].by].seq, 10);
	/* the nsfs dentry: from the first pin (the mount) to its going */
	cr_assert_eq(h.v[4].kind, LH_NSFS);
	cr_assert_eq(tl.ev[h.v[4].from].seq, 5);
	cr_assert_eq(tl.ev[h.v[4].to].seq, 10);
	cr_assert_eq(h.v[4].refs_left, 1);
	/* the sleep let go last */
	cr_assert_eq(h.v[2].pid, 200);
	cr_assert(h.v[2].last);
	f = open_memstream(&buf, &len);
	lh_print(f, &tl, &h);
	fclose(f);
	cr_assert(strstr(buf, "task  pid=100 (ip)  2026-12-03T09:17:30.000Z -> "
			      "2026-12-03T09:17:30.005Z (0.005 s)  created it; exited, exec'd or "
			      "moved away: let go (1 reference left)"),
		  "%s", buf);
	cr_assert(strstr(buf, "fd    pid=300 fd=3 (cat)  2026-12-03T09:17:31.500Z -> ?  opened "
			      "its file; closed by the time its nsfs file went"),
		  "%s", buf);
	cr_assert(strstr(buf, "nsfs  (its fds and bind mounts)  2026-12-03T09:17:30.001Z -> "
			      "2026-12-03T09:17:33.020Z (3.019 s)  from its first fd or bind mount; "
			      "its last fd closed and its last bind mount gone: let go "
			      "(1 reference left)"),
		  "%s", buf);
	free(buf);
	lh_free(&h);
	lt_free(&tl);
}

/* a setns away, then the old nsproxy's let_go: one going, not two spans */
Test(history, let_go_after_setns_away_is_the_same_going)
{
	struct lt_timeline tl;
	struct lh_history h;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, let_go_story[0]);
	feed(&tl, R(6, "30.002", "\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026531833,"
				 "\"old_inum\":4026532289,\"old_ns_id\":77,\"pid\":100,"
				 "\"comm\":\"ip\""));
	feed(&tl, R(7, "30.003", "\"op\":\"freed\",\"ns_type\":\"net\",\"ns_inum\":4026532289,"
				 "\"ns_id\":77,\"stage\":\"let_go\",\"holder\":\"task\","
				 "\"pid\":100,\"comm\":\"ip\",\"ns_refs\":1"));
	lt_finish(&tl);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 1, "%zu spans", h.n);
	cr_assert_eq(tl.ev[h.v[0].to].kind, LT_LEFT);
	lh_free(&h);
	lt_free(&tl);
}

/* the let_go is sent inside setns, its record at the call's end: the
 * let_go first, then the setns away, still one going */
Test(history, let_go_before_its_setns_away_is_the_same_going)
{
	struct lt_timeline tl;
	struct lh_history h;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, let_go_story[0]);
	feed(&tl, let_go_story[2]);
	feed(&tl, R(7, "30.005", "\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026531833,"
				 "\"old_inum\":4026532289,\"old_ns_id\":77,\"pid\":100,"
				 "\"comm\":\"ip\""));
	lt_finish(&tl);
	cr_assert_eq(lh_build(&h, &tl, 0), 0);
	cr_assert_eq(h.n, 1, "%zu spans", h.n);
	cr_assert_eq(tl.ev[h.v[0].to].kind, LT_LEFT, "the setns says more");
	cr_assert_eq(h.v[0].refs_left, 1, "the count its let_go left");
	lh_free(&h);
	lt_free(&tl);
}

/* the creator's exit (its nsproxy's let_go) counts as its leaving */
Test(history, leak_counts_from_the_creators_let_go)
{
	struct lt_timeline tl;
	struct lh_leak l;

	lt_init(&tl, NSAUDIT_NS_NET, 4026532289u);
	feed(&tl, let_go_story[0]);
	feed(&tl, let_go_story[2]);
	lt_finish(&tl);
	cr_assert(lh_leak(&tl, 0, false, 0, T(100), 60, &l));
	cr_assert(l.creator_left);
	cr_assert_eq(tl.ev[l.left].seq, 6);
	cr_assert_float_eq(l.since, T(0.005), 1e-6);
	lt_free(&tl);
}
