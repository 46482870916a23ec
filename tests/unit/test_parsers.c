// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Argument and spec parsers: every bad value is refused with a reason. */
#include <criterion/criterion.h>
#include <string.h>

#include "enrich/enrich.h"
#include "enrich/mountinfo.h"
#include "nstype.h"
#include "tracer/tracer.h"

Test(nstype, names_round_trip)
{
	for (int t = 0; t < NSAUDIT_NS_MAX; t++) {
		cr_assert_eq(nstype_from_name(nstype_name(t)), t);
		cr_assert_eq(nstype_from_clone_flag(nstype_clone_flag(t)), t);
	}
	cr_assert_eq(nstype_from_name("bogus"), -1);
	cr_assert_eq(nstype_from_clone_flag(0x40000000 | 0x04000000), -1, "two bits");
	cr_assert_str_eq(nstype_proc_name(NSAUDIT_NS_PID, true), "pid_for_children");
}

Test(nstype, lists)
{
	char err[128];
	uint32_t m;

	cr_assert_eq(parse_nstype_list("net,uts", &m, err, sizeof(err)), 0);
	cr_assert_eq(m, (1u << NSAUDIT_NS_NET) | (1u << NSAUDIT_NS_UTS));
	cr_assert_eq(parse_nstype_list("net,,foo", &m, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "unknown namespace type 'foo'");
	cr_assert_eq(parse_nstype_list("", &m, err, sizeof(err)), -1);
	cr_assert_eq(parse_op_list("setns,umount", &m, err, sizeof(err)), 0);
	cr_assert_eq(m, (1u << NSAUDIT_OP_SETNS) | (1u << NSAUDIT_OP_UMOUNT));
	cr_assert_eq(parse_op_list("setns,nope", &m, err, sizeof(err)), -1);
}

Test(nstype, parse_long_strict)
{
	long v;

	cr_assert_eq(parse_long("123", 1, 200, &v), 0);
	cr_assert_eq(v, 123);
	cr_assert_eq(parse_long("12a", 1, 200, &v), -1);
	cr_assert_eq(parse_long("", 1, 200, &v), -1);
	cr_assert_eq(parse_long("+5", 1, 200, &v), -1);
	cr_assert_eq(parse_long("201", 1, 200, &v), -1);
	cr_assert_eq(parse_long("99999999999999999999", 1, 200, &v), -1);
}

Test(nsspec, type_inode_forms)
{
	struct nsspec s;
	char err[256];

	cr_assert_eq(nsspec_parse("net:4026531840", false, &s, err, sizeof(err)), 0);
	cr_assert_eq(s.type, NSAUDIT_NS_NET);
	cr_assert_eq(s.inum, 4026531840u);
	cr_assert_eq(nsspec_parse("uts:[4026531838]", false, &s, err, sizeof(err)), 0);
	cr_assert_eq(s.type, NSAUDIT_NS_UTS);
	cr_assert_eq(s.inum, 4026531838u);
}

Test(nsspec, bad_specs_say_why)
{
	struct nsspec s;
	char err[256];

	cr_assert_eq(nsspec_parse("net:notanumber", false, &s, err, sizeof(err)), -1);
	cr_assert(strstr(err, "inode must be a number"), "%s", err);
	cr_assert_eq(nsspec_parse("bogus:12", false, &s, err, sizeof(err)), -1);
	cr_assert(strstr(err, "unknown namespace type"), "%s", err);
	cr_assert_eq(nsspec_parse("1:bogus", false, &s, err, sizeof(err)), -1);
	cr_assert(strstr(err, "unknown namespace type 'bogus'"), "%s", err);
	cr_assert_eq(nsspec_parse("", false, &s, err, sizeof(err)), -1);
	cr_assert_eq(nsspec_parse("net:[]", false, &s, err, sizeof(err)), -1);
	cr_assert_eq(nsspec_parse("net:99999999999", false, &s, err, sizeof(err)), -1);
	cr_assert_eq(nsspec_parse("/etc/passwd", false, &s, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not a namespace file"), "%s", err);
	cr_assert_eq(nsspec_parse("/nonexistent/x", false, &s, err, sizeof(err)), -1);
	/* above pid_max: cannot exist */
	cr_assert_eq(nsspec_parse("999999999:net", false, &s, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no such process 999999999"), "%s", err);
}

Test(nsspec, proc_path_resolves)
{
	struct nsspec s;
	char err[256];

	/* /proc/self/ns/net exists without privileges */
	cr_assert_eq(nsspec_parse("/proc/self/ns/net", false, &s, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(s.type, NSAUDIT_NS_NET);
	cr_assert_neq(s.inum, 0);
}

Test(enrich, proc_ns_path_pid)
{
	cr_assert_eq(proc_ns_path_pid("/proc/123/ns/net", 9), 123);
	cr_assert_eq(proc_ns_path_pid("/proc/123/task/124/ns/net", 9), 123);
	cr_assert_eq(proc_ns_path_pid("/proc/self/ns/uts", 9), 9);
	cr_assert_eq(proc_ns_path_pid("/proc/thread-self/ns/uts", 9), 9);
	cr_assert_eq(proc_ns_path_pid("/run/netns/blue", 9), 0);
	cr_assert_eq(proc_ns_path_pid("/proc/x/ns/net", 9), 0);
}

Test(enrich, proc_ns_path_type)
{
	bool ch = true;

	cr_assert_eq(proc_ns_path_type("/proc/123/ns/net", &ch), NSAUDIT_NS_NET);
	cr_assert(!ch);
	cr_assert_eq(proc_ns_path_type("/proc/123/task/124/ns/cgroup", &ch), NSAUDIT_NS_CGROUP);
	cr_assert_eq(proc_ns_path_type("/proc/self/ns/pid_for_children", &ch), NSAUDIT_NS_PID);
	cr_assert(ch);
	cr_assert_eq(proc_ns_path_type("/proc/thread-self/ns/time_for_children", &ch),
		     NSAUDIT_NS_TIME);
	/* not namespace files, or not only one */
	cr_assert_eq(proc_ns_path_type("/proc/123/ns/net_for_children", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/proc/123/ns/", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/proc/123/ns/net/x", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/proc/123/environ", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/proc/123/task/x/ns/net", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/proc/123/fd/ns/net", &ch), -1);
	cr_assert_eq(proc_ns_path_type("/run/netns/blue", &ch), -1);
}

Test(enrich, mountinfo_nsfs)
{
	char mnt[256];
	uint32_t inum;
	int type;

	cr_assert(mountinfo_nsfs_line("48 45 0:4 net:[4026532174] /run/netns/red rw shared:2 - "
				      "nsfs nsfs rw\n", mnt, sizeof(mnt), &type, &inum));
	cr_assert_str_eq(mnt, "/run/netns/red");
	cr_assert_eq(type, NSAUDIT_NS_NET);
	cr_assert_eq(inum, 4026532174u);
	cr_assert(mountinfo_nsfs_line("9 1 0:4 uts:[1] /tmp/a\\040b rw - nsfs nsfs rw\n", mnt,
				      sizeof(mnt), &type, &inum));
	cr_assert_str_eq(mnt, "/tmp/a b", "octal escapes undone");
	cr_assert_not(mountinfo_nsfs_line("25 1 8:1 / / rw - ext4 /dev/sda1 rw\n", mnt,
					  sizeof(mnt), &type, &inum));
	cr_assert_not(mountinfo_nsfs_line("garbage", mnt, sizeof(mnt), &type, &inum));
}

static int parse(struct tracer_opts *o, const char *a, const char *v, char *err)
{
	char *argv[] = { (char *)a, (char *)v, NULL };
	int used;

	return tracer_parse_opt(o, v ? 2 : 1, argv, &used, err, 128);
}

Test(tracer_opts, values)
{
	struct tracer_opts o;
	char err[128];

	tracer_opts_init(&o);
	cr_assert_eq(parse(&o, "--pid", "42", err), 1);
	cr_assert_eq(o.pid, 42);
	cr_assert_eq(parse(&o, "--pid", "abc", err), -1);
	cr_assert_eq(parse(&o, "--pid", "0", err), -1);
	cr_assert_eq(parse(&o, "--comm", "0123456789abcdef", err), -1, "16 bytes is too long");
	cr_assert_eq(parse(&o, "--comm", "ip", err), 1);
	cr_assert_str_eq(o.filter.comm[0], "ip");
	cr_assert_eq(parse(&o, "--comm", "unshare", err), 1);
	cr_assert_eq(o.filter.n_comm, 2, "repeated --comm: both kept");
	cr_assert_eq(parse(&o, "--pid", "1", err), 1);
	cr_assert(o.filter.n_pid == 2 && o.pid == 0, "two pids: user space filters, not the kernel");
	cr_assert_eq(parse(&o, "--uid", "1000", err), 1);
	cr_assert(o.filter.n_uid == 1 && o.filter.uid[0] == 1000);
	cr_assert_eq(parse(&o, "--uid", "x", err), -1);
	cr_assert_eq(parse(&o, "--ring-size", "8M", err), 1);
	cr_assert_eq(o.ring_size, 8u << 20);
	cr_assert_eq(parse(&o, "--ring-size", "3000", err), -1);
	cr_assert_eq(parse(&o, "--type", "net", err), 1);
	cr_assert_eq(o.type_mask, 1u << NSAUDIT_NS_NET);
	cr_assert_eq(parse(&o, "--pid", NULL, err), -1);
	cr_assert_str_eq(err, "--pid needs a value");
	cr_assert_eq(parse(&o, "--other", "x", err), 0);
}

Test(nstype, label)
{
	char buf[48];

	nstype_label(buf, sizeof(buf), NSAUDIT_NS_NET, 4026531840u);
	cr_expect_str_eq(buf, "net:[4026531840]");
	nstype_label(buf, sizeof(buf), -1, 7);
	cr_expect_str_eq(buf, "ns:[7]");
}

/* issue 41: refused opens through any procfs mount */
Test(enrich, ns_path_part_any_procfs)
{
	bool ch;
	long pid;
	int type;

	cr_assert_not_null(ns_path_part("/hp/123/ns/net", &type, &ch, &pid));
	cr_assert_eq(type, NSAUDIT_NS_NET);
	cr_assert_eq(pid, 123);
	cr_assert_str_eq(ns_path_part("/a/b/77/task/78/ns/uts", &type, &ch, &pid), "ns/uts");
	cr_assert_eq(pid, 77);
	cr_assert_not_null(ns_path_part("ns/mnt", &type, &ch, &pid));
	cr_assert_eq(pid, 0);
	cr_assert_eq(type, NSAUDIT_NS_MNT);
	cr_assert_not_null(ns_path_part("/proc/self/ns/pid_for_children", &type, &ch, &pid));
	cr_assert_eq(pid, -1);
	cr_assert(ch);
	cr_assert_null(ns_path_part("/etc/ns/net", &type, &ch, &pid));
	cr_assert_null(ns_path_part("/proc/1/ns/", &type, &ch, &pid));
	cr_assert_null(ns_path_part("/proc/1/ns/net/x", &type, &ch, &pid));
	cr_assert_null(ns_path_part("/proc/1/ns/bogus", &type, &ch, &pid));
	cr_assert_null(ns_path_part("/proc/1/ns/net_for_children", &type, &ch, &pid));
}
