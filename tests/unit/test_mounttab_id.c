// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* The pin table by mount identity (issue 25): exact pins keyed by a
 * never-reused id, pins that predate the tracer by mount id; moves by
 * identity; a dead namespace's inode and mount id reused at once. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "enrich/mounttab.h"

#define MNT_A 4026531841u
#define NET_X 4026532600u
#define NET_Y 4026532601u

Test(mounttab_id, exact_pin_moves_and_goes_by_identity)
{
	struct mounttab m;
	char *path = NULL;
	uint32_t inum;
	int type;

	mounttab_init(&m);
	cr_assert(mounttab_add_id(&m, MNT_A, "/a/pin", 0, NET_X, 80, 5000));
	cr_assert(mounttab_find(&m, MNT_A, "/a/pin")->exact);
	/* moved (move_mount by fd): same mount, new path, no second entry */
	cr_assert(mounttab_add_id(&m, MNT_A, "/b/pin", 0, NET_X, 80, 5000));
	cr_assert_null(mounttab_find(&m, MNT_A, "/a/pin"));
	cr_assert_eq(m.n, 1);
	/* gone, whatever spelling the umount had: found by id */
	cr_assert(mounttab_remove_id(&m, MNT_A, 80, 5000, &type, &inum, &path));
	cr_assert_eq(inum, NET_X);
	cr_assert_str_eq(path, "/b/pin");
	free(path);
	cr_assert_eq(m.n, 0);
	mounttab_free(&m);
}

Test(mounttab_id, reused_namespace_inode_and_mount_id_are_other_pins)
{
	struct mounttab m;
	uint32_t inum;
	int type;

	mounttab_init(&m);
	/* a pin in a mount namespace that died, and the next namespace with
	 * the same inode, a mount with the same mount id, another path */
	cr_assert(mounttab_add_id(&m, MNT_A, "/p7", 0, NET_X, 78, 7001));
	cr_assert(mounttab_add_id(&m, MNT_A, "/h1", 0, NET_Y, 78, 7050));
	cr_assert_eq(m.n, 2, "two pins, not one moved");
	cr_assert(mounttab_remove_id(&m, MNT_A, 78, 7001, &type, &inum, NULL));
	cr_assert_eq(inum, NET_X);
	cr_assert_eq(mounttab_find(&m, MNT_A, "/h1")->inum, NET_Y);
	cr_assert_not(mounttab_remove_id(&m, MNT_A, 78, 7001, &type, &inum, NULL), "reported once");
	mounttab_free(&m);
}

Test(mounttab_id, older_pin_by_mount_id_and_stacked_mounts)
{
	struct mounttab m;
	uint32_t inum;
	int type;

	mounttab_init(&m);
	/* from mountinfo at start: mount id, no unique id */
	cr_assert(mounttab_add_id(&m, MNT_A, "/run/netns/x", 0, NET_X, 33, 0));
	cr_assert_not(mounttab_find(&m, MNT_A, "/run/netns/x")->exact);
	/* an exact pin mounted over it at the same path: its own entry */
	cr_assert(mounttab_add_id(&m, MNT_A, "/run/netns/x", 0, NET_Y, 90, 9000));
	cr_assert_eq(m.n, 2);
	/* an exact key never matches the older pin, nor the reverse */
	cr_assert_not(mounttab_remove_id(&m, MNT_A, 33, 9001, &type, &inum, NULL));
	cr_assert(mounttab_remove_id(&m, MNT_A, 33, 0, &type, &inum, NULL));
	cr_assert_eq(inum, NET_X);
	cr_assert(mounttab_remove_id(&m, MNT_A, 90, 9000, &type, &inum, NULL));
	cr_assert_eq(inum, NET_Y);
	mounttab_free(&m);
}

Test(mounttab_id, namespace_death_leaves_exact_pins_to_the_kernel_side)
{
	struct mounttab m;

	mounttab_init(&m);
	cr_assert(mounttab_add(&m, MNT_A, "/old", 0, NET_X));
	cr_assert(mounttab_add_id(&m, MNT_A, "/new", 0, NET_Y, 5, 100));
	cr_assert_eq(mounttab_drop_ns(&m, MNT_A, NULL, NULL), 1);
	cr_assert_not_null(mounttab_find(&m, MNT_A, "/new"));
	mounttab_free(&m);
}

/* A pin another mount namespace holds as a copy of one of ours (seen at
 * start) is marked copied: its namespace's death unpins nothing anyone
 * made. Only that namespace's entry: ours, same path and id, stays. */
Test(mounttab_id, copy_seen_at_start_is_marked_copied)
{
	struct mounttab m;

	mounttab_init(&m);
	cr_assert(mounttab_add_id(&m, MNT_A, "/a/pin", 0, NET_X, 80, 0));
	cr_assert(mounttab_add_id(&m, MNT_A + 1, "/a/pin", 0, NET_X, 81, 0));
	mounttab_mark_copied(&m, MNT_A + 1, 81);
	cr_assert(mounttab_find(&m, MNT_A + 1, "/a/pin")->copied);
	cr_assert_not(mounttab_find(&m, MNT_A, "/a/pin")->copied);
	/* an id of another namespace marks nothing */
	mounttab_mark_copied(&m, MNT_A + 1, 80);
	cr_assert_not(mounttab_find(&m, MNT_A, "/a/pin")->copied);
	mounttab_free(&m);
}
