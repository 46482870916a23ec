// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search --ns by identity (audit/search_ns.c): an inode the kernel handed
 * to later namespaces never brings their records in; where a log has no
 * ids, a namespace's life in the log (creation to the next creation of
 * the inode) bounds what its inode matches.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "codec.h"
#include "nstype.h"
#include "search.h"

#define INUM 4026532174u

struct log {
	struct audit_rec r[16];
	size_t n;
};

static void add(struct log *l, const char *json)
{
	struct audit_rec *r = &l->r[l->n];

	memset(r, 0, sizeof(*r));
	r->obj = json_tokener_parse(json);
	cr_assert_not_null(r->obj, "%s", json);
	r->seq = l->n + 1;
	l->n++;
}

static void put(struct log *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		json_object_put(l->r[i].obj);
}

/* "ip netns add a; del a", then three namespaces reuse the inode, one of
 * them left by a setns; with_ids: as Linux 6.18 writes them */
static void reused_log(struct log *l, bool with_ids)
{
	static const char *const fmt[] = {
		"{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":%u%s}",
		"{\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":%u%s,"
		"\"path\":\"/run/netns/a\"}",
		"{\"op\":\"umount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":%u%s,"
		"\"path\":\"/run/netns/a\"}",
		"{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":%u%s}",
		"{\"op\":\"setns\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026531833,"
		"\"old_inum\":%u%s}",
		"{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":%u%s}",
	};
	static const char *const ids[] = { ",\"ns_id\":6", ",\"ns_id\":6", ",\"ns_id\":6",
					   ",\"ns_id\":7", ",\"old_ns_id\":7", ",\"ns_id\":8" };
	char buf[512];
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < 6; i++) {
		snprintf(buf, sizeof(buf), fmt[i], INUM, with_ids ? ids[i] : "");
		add(l, buf);
	}
}

/* The seqs of l's records that --ns path (a mount there) matches. */
static unsigned int by_path(struct log *l, const char *path)
{
	struct audit_filter f = { 0 };
	struct audit_ns_scan sc = { .f = &f, .path = path };
	unsigned int seqs = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		audit_ns_scan_rec(&sc, &l->r[i]);
	for (i = 0; i < l->n; i++)
		audit_ns_scan_births(&f, &l->r[i]);
	for (i = 0; i < l->n; i++)
		if (audit_filter_match(&f, &l->r[i]))
			seqs |= 1u << l->r[i].seq;
	return seqs;
}

Test(search_ns, a_deleted_name_matches_its_namespace_not_the_inode)
{
	struct log l;

	reused_log(&l, true);
	/* records 1..3 are namespace 6; 4..6 belong to 7 and 8 */
	cr_assert_eq(by_path(&l, "/run/netns/a"), (1u << 1) | (1u << 2) | (1u << 3));
	put(&l);
}

/*
 * Any user can bind its own netns at /run/netns/a in a mount namespace of
 * its own (unshare -r -m, a tmpfs on /run/netns): made from another user
 * namespace, that mount is not the host's /run/netns/a, and --ns a (or
 * lifetime a) does not bring its namespace in.
 */
Test(search_ns, a_name_mounted_from_another_user_namespace_is_not_the_hosts)
{
	struct log l = { 0 };

	add(&l, "{\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532587,"
		"\"ns_id\":6,\"actor_userns\":4026531837,\"path\":\"/run/netns/a\"}");
	add(&l, "{\"op\":\"unshare\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532654,"
		"\"ns_id\":9,\"actor_userns\":4026531837}");
	add(&l, "{\"op\":\"mount\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532654,"
		"\"ns_id\":9,\"actor_userns\":4026532655,\"path\":\"/run/netns/a\"}");
	add(&l, "{\"op\":\"setns\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532654,"
		"\"ns_id\":9,\"actor_userns\":4026532655}");
	add(&l, "{\"op\":\"setns\",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026532587,"
		"\"ns_id\":6,\"actor_userns\":4026531837}");
	cr_assert_eq(by_path(&l, "/run/netns/a"), (1u << 1) | (1u << 5));
	put(&l);
}

Test(search_ns, without_ids_its_life_in_the_log_bounds_the_inode)
{
	struct log l;

	reused_log(&l, false);
	cr_assert_eq(by_path(&l, "/run/netns/a"), (1u << 1) | (1u << 2) | (1u << 3));
	put(&l);
}

Test(search_ns, an_inode_names_every_namespace_that_had_it)
{
	struct audit_filter f = { 0 };
	struct audit_ns_scan sc = { .f = &f, .by_inode = true, .type = NSAUDIT_NS_NET,
				    .inum = INUM };
	struct log l;
	size_t i;

	reused_log(&l, true);
	for (i = 0; i < l.n; i++)
		audit_ns_scan_rec(&sc, &l.r[i]);
	cr_assert_eq(f.n_ns, 3, "ids 6, 7, 8: %zu", f.n_ns);
	/* and one of them by its id: the setns that left 7 is 7's */
	memset(&f, 0, sizeof(f));
	f.n_ns = 1;
	f.ns[0].type = -1;
	f.ns[0].id = 7;
	for (i = 0; i < l.n; i++)
		cr_assert_eq(audit_filter_match(&f, &l.r[i]), i == 3 || i == 4, "record %zu", i);
	put(&l);
}

/* Every filter applies to every record kind: no field, no match. */
Test(search_ns, a_record_without_the_field_does_not_match)
{
	struct audit_filter f = { 0 };
	struct log l = { 0 };

	add(&l, "{\"op\":\"umount\",\"result\":0,\"comm\":\"\",\"pid\":5}");
	add(&l, "{\"op\":\"lost\",\"count\":3}");
	add(&l, "{\"op\":\"setns\",\"result\":-1,\"comm\":\"ip\",\"pid\":6,\"uid\":0}");
	f.n_comm = 1;
	f.comm[0] = "ip";
	cr_assert_not(audit_filter_match(&f, &l.r[0]), "an empty comm is not ip");
	cr_assert_not(audit_filter_match(&f, &l.r[1]), "no comm at all");
	cr_assert(audit_filter_match(&f, &l.r[2]));
	memset(&f, 0, sizeof(f));
	f.n_pid = 2, f.pid[0] = 5, f.pid[1] = 6;	/* repeated --pid: any */
	cr_assert(audit_filter_match(&f, &l.r[0]) && audit_filter_match(&f, &l.r[2]));
	cr_assert_not(audit_filter_match(&f, &l.r[1]));
	memset(&f, 0, sizeof(f));
	f.result = AUDIT_RESULT_FAIL;
	cr_assert(!audit_filter_match(&f, &l.r[0]) && audit_filter_match(&f, &l.r[2]));
	cr_assert_not(audit_filter_match(&f, &l.r[1]), "lost has no result");
	memset(&f, 0, sizeof(f));
	f.types = 1u << NSAUDIT_NS_NET;
	cr_assert_not(audit_filter_match(&f, &l.r[0]), "no ns_type");
	put(&l);
}
