// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* The nsfs pin table: keyed by mount namespace, moves, copies, deaths. */
#include <criterion/criterion.h>
#include <string.h>

#include "enrich/mounttab.h"

#define MNT_A 4026531841u
#define MNT_B 4026532500u
#define NET_X 4026532600u
#define NET_Y 4026532601u

Test(mounttab, same_path_in_two_mount_namespaces)
{
	struct mounttab m;
	int type;
	uint32_t inum;

	mounttab_init(&m);
	cr_assert(mounttab_add(&m, MNT_A, "/run/netns/x", 0, NET_X));
	cr_assert(mounttab_add(&m, MNT_B, "/run/netns/x", 0, NET_Y));
	cr_assert_eq(mounttab_find(&m, MNT_A, "/run/netns/x")->inum, NET_X);
	cr_assert_eq(mounttab_find(&m, MNT_B, "/run/netns/x")->inum, NET_Y);
	/* an umount in B removes B's pin, A's stays */
	cr_assert(mounttab_remove(&m, MNT_B, "/run/netns/x", &type, &inum));
	cr_assert_eq(inum, NET_Y);
	cr_assert_not(mounttab_remove(&m, MNT_B, "/run/netns/x", &type, &inum));
	cr_assert_eq(mounttab_find(&m, MNT_A, "/run/netns/x")->inum, NET_X);
	/* a re-add updates, it does not duplicate */
	cr_assert(mounttab_add(&m, MNT_A, "/run/netns/x", 0, NET_Y));
	cr_assert_eq(m.n, 1);
	cr_assert_eq(mounttab_find(&m, MNT_A, "/run/netns/x")->inum, NET_Y);
	mounttab_free(&m);
}

Test(mounttab, move_takes_the_pin_and_those_below)
{
	struct mounttab m;
	uint32_t inum = 0;
	size_t below;
	int type = -1;

	mounttab_init(&m);
	mounttab_add(&m, MNT_A, "/a/pin", 1, NET_X);
	mounttab_add(&m, MNT_A, "/dir/x", 0, NET_X);
	mounttab_add(&m, MNT_A, "/dir/sub/y", 0, NET_Y);
	mounttab_add(&m, MNT_A, "/dirx", 0, NET_Y);  /* not below /dir */
	mounttab_add(&m, MNT_B, "/a/pin", 1, NET_Y); /* another namespace */
	cr_assert(mounttab_move(&m, MNT_A, "/a/pin", "/b/pin", &type, &inum, &below));
	cr_assert_eq(type, 1);
	cr_assert_eq(inum, NET_X);
	cr_assert_eq(below, 0);
	cr_assert_null(mounttab_find(&m, MNT_A, "/a/pin"));
	cr_assert_not_null(mounttab_find(&m, MNT_A, "/b/pin"));
	cr_assert_not_null(mounttab_find(&m, MNT_B, "/a/pin"), "B's pin does not move");
	/* moving a directory mount: not a pin itself, its pins move along */
	cr_assert_not(mounttab_move(&m, MNT_A, "/dir", "/new", &type, &inum, &below));
	cr_assert_eq(below, 2);
	cr_assert_not_null(mounttab_find(&m, MNT_A, "/new/x"));
	cr_assert_not_null(mounttab_find(&m, MNT_A, "/new/sub/y"));
	cr_assert_not_null(mounttab_find(&m, MNT_A, "/dirx"), "/dirx is not below /dir");
	mounttab_free(&m);
}

static int seen;

static void count(void *ctx, const struct mount_pin *p)
{
	cr_assert_eq(p->mntns, MNT_B);
	seen++;
}

Test(mounttab, copy_and_drop_a_namespace)
{
	struct mounttab m;

	mounttab_init(&m);
	mounttab_add(&m, MNT_A, "/run/netns/x", 0, NET_X);
	mounttab_add(&m, MNT_A, "/pin", 1, NET_Y);
	/* a pin B made, learned before the unshare's record: kept */
	mounttab_add(&m, MNT_B, "/run/netns/x", 0, NET_Y);
	/* unshare -m: B starts with A's pins */
	mounttab_copy_ns(&m, MNT_A, MNT_B);
	cr_assert_eq(mounttab_find(&m, MNT_B, "/run/netns/x")->inum, NET_Y);
	cr_assert_not(mounttab_find(&m, MNT_B, "/run/netns/x")->copied);
	cr_assert_eq(mounttab_find(&m, MNT_B, "/pin")->inum, NET_Y);
	cr_assert(mounttab_has_ns(&m, MNT_B));
	/* B dies: its pins go (and are reported), A's stay */
	seen = 0;
	cr_assert_eq(mounttab_drop_ns(&m, MNT_B, count, NULL), 2);
	cr_assert_eq(seen, 2);	/* the callback decides about copied ones */
	cr_assert_not(mounttab_has_ns(&m, MNT_B));
	cr_assert_eq(m.n, 2);
	mounttab_free(&m);
}
