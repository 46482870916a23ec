// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Unit tests: mountinfo parsing and socket names used by "nsaudit holders". */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/socket.h>

#include "holders/holders_fmt.h"
#include "holders/holders_lib.h"
#include "enrich/mountinfo.h"
#include "nsaudit.h"

Test(holders_mountinfo, nsfs_line)
{
	struct mountinfo_line ml;

	cr_assert_eq(
	    mountinfo_parse_line("612 29 0:4 net:[4026532289] /run/netns/blue rw shared:1 - "
				 "nsfs nsfs rw\n",
				 &ml),
	    0);
	cr_assert_eq(ml.mount_id, 612);
	cr_assert_str_eq(ml.root, "net:[4026532289]");
	cr_assert_str_eq(ml.path, "/run/netns/blue");
	cr_assert_str_eq(ml.fstype, "nsfs");
}

Test(holders_mountinfo, no_optional_fields_and_escapes)
{
	struct mountinfo_line ml;

	cr_assert_eq(
	    mountinfo_parse_line("7 1 0:4 mnt:[1] /tmp/a\\040b\\012c rw - nsfs nsfs rw", &ml), 0);
	cr_assert_str_eq(ml.path, "/tmp/a b\nc");
	cr_assert_str_eq(ml.fstype, "nsfs");
}

Test(holders_mountinfo, malformed)
{
	struct mountinfo_line ml;

	cr_assert_eq(mountinfo_parse_line("", &ml), -1);
	cr_assert_eq(mountinfo_parse_line("x 1 0:4 / / rw - ext4 /dev/sda rw", &ml), -1);
	cr_assert_eq(mountinfo_parse_line("1 1 0:4 / / rw shared:1", &ml), -1);
	cr_assert_eq(mountinfo_parse_line("1 1 04 / / rw - ext4 x rw", &ml), -1);
	cr_assert_eq(mountinfo_parse_line("1 1 0:4 / relative rw - ext4 x rw", &ml), -1);
}

Test(holders_mountinfo, nsfs_root)
{
	uint32_t inum;
	int type;

	cr_assert_eq(nsfs_root_parse("net:[4026532289]", &type, &inum), 0);
	cr_assert_eq(type, NSAUDIT_NS_NET);
	cr_assert_eq(inum, 4026532289u);
	cr_assert_eq(nsfs_root_parse("pid_for_children:[4]", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("mnt:[4026531841]", &type, &inum), 0);
	cr_assert_eq(type, NSAUDIT_NS_MNT);
	cr_assert_eq(nsfs_root_parse("net:[]", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("net:[0]", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("net:[12", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("net:[12]x", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("net:12", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("/", &type, &inum), -1);
	cr_assert_eq(nsfs_root_parse("net:[99999999999]", &type, &inum), -1);
}

Test(holders_fmt, sockets)
{
	char buf[64];

	sock_describe(buf, sizeof(buf), AF_INET, SOCK_STREAM, 6);
	cr_assert_str_eq(buf, "inet stream tcp");
	sock_describe(buf, sizeof(buf), AF_INET6, SOCK_DGRAM, 17);
	cr_assert_str_eq(buf, "inet6 dgram udp");
	sock_describe(buf, sizeof(buf), AF_UNIX, SOCK_DGRAM, 0);
	cr_assert_str_eq(buf, "unix dgram");
	sock_describe(buf, sizeof(buf), AF_NETLINK, SOCK_RAW, 0);
	cr_assert_str_eq(buf, "netlink raw route");
	sock_describe(buf, sizeof(buf), 43, 9, 7);
	cr_assert_str_eq(buf, "family 43 type 9 protocol 7");
	sock_describe(buf, 6, AF_INET, SOCK_STREAM, 6);
	cr_assert_str_eq(buf, "inet ");
}
