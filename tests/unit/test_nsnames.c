// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Namespace names: cgroup -> container id, mountinfo -> ip netns name/path. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "enrich/nsnames.h"
#include "enrich/nsnames_impl.h"
#include "tracer/attribution.h"

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HEX64B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static const char *cid(const char *path)
{
	static char id[128];

	return cgroup_container_id(path, id, sizeof(id)) ? id : NULL;
}

Test(nsnames, cgroup_docker_systemd)
{
	cr_assert_str_eq(cid("/system.slice/docker-" HEX64 ".scope"), HEX64);
	/* docker in a nested cgroup (init.scope below the container's) */
	cr_assert_str_eq(cid("/system.slice/docker-" HEX64 ".scope/init.scope"), HEX64);
	cr_assert_str_eq(cid("/system.slice/docker-" HEX64 ".scope/\n"), HEX64);
}

Test(nsnames, cgroup_cgroupfs_drivers)
{
	cr_assert_str_eq(cid("/docker/" HEX64), HEX64);
	cr_assert_str_eq(cid("/kubepods/besteffort/pod1a2b3c4d-0000-1111-2222-333344445555/" HEX64),
			 HEX64);
	cr_assert_str_eq(cid("/libpod_parent/libpod-" HEX64), HEX64);
}

Test(nsnames, cgroup_podman_containerd_crio_k8s)
{
	cr_assert_str_eq(cid("/machine.slice/libpod-" HEX64 ".scope/container"), HEX64);
	cr_assert_str_eq(cid("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" HEX64
			     ".scope"), HEX64);
	cr_assert_str_eq(cid("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b_3c4d"
			     ".slice/cri-containerd-" HEX64 ".scope"), HEX64);
	cr_assert_str_eq(cid("/kubepods.slice/kubepods-pod1a2b.slice/crio-" HEX64 ".scope"), HEX64);
	cr_assert_str_eq(cid("/lxc.payload.web1"), "web1");
}

Test(nsnames, cgroup_not_containers)
{
	cr_assert_null(cid("/"));
	cr_assert_null(cid(""));
	cr_assert_null(cid("/user.slice/user-0.slice/session-3.scope"));
	cr_assert_null(cid("/system.slice/docker.service"));
	cr_assert_null(cid("/system.slice/containerd.service"));
	/* conmon runs beside a container, it is not one */
	cr_assert_null(cid("/machine.slice/libpod-conmon-" HEX64 ".scope"));
	cr_assert_null(cid("/kubepods.slice/crio-conmon-" HEX64 ".scope"));
	/* podman's cgroupfs pods: the pod's id is no container's, its conmon's
	 * cgroup (and the runtimes conmon runs) names none */
	cr_assert_null(cid("/libpod_parent/" HEX64 "/conmon"));
	cr_assert_null(cid("/libpod_parent/" HEX64));
	cr_assert_str_eq(cid("/libpod_parent/" HEX64 "/libpod-" HEX64B), HEX64B);
	/* a child cgroup named conmon a container made is still a container's */
	cr_assert_not_null(cid("/libpod_parent/libpod-" HEX64B "/" HEX64 "/conmon"));
	cr_assert_str_eq(cid("/docker/" HEX64 "/conmon"), HEX64);
	/* too short, not hex, upper case */
	cr_assert_null(cid("/system.slice/docker-abc.scope"));
	cr_assert_null(cid("/system.slice/docker-" "0123456789abcdefg123456789abcdef0123456789abcdef"
			   "0123456789abcdef.scope"));
	cr_assert_null(cid("/docker/0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"));
	cr_assert_null(cid("/process_api/d9d178ebab27fa3d28f88f5fa4fb9355"));
	/* pod-level slice alone names no container */
	cr_assert_null(cid("/kubepods.slice/kubepods-besteffort.slice"));
}

static FILE *str_file(const char *s)
{
	return fmemopen((char *)s, strlen(s), "r");
}

Test(nsnames, cgroup_file_v2_first_then_v1)
{
	char id[128];
	FILE *f;

	f = str_file("12:memory:/docker/" HEX64 "\n0::/system.slice/docker-"
		     "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210.scope\n");
	cr_assert(cgroup_file_container_id(f, id, sizeof(id)));
	cr_assert_str_eq(id, "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
	fclose(f);
	/* hybrid hierarchy, container only visible in a v1 controller */
	f = str_file("4:memory:/docker/" HEX64 "\n0::/\n");
	cr_assert(cgroup_file_container_id(f, id, sizeof(id)));
	cr_assert_str_eq(id, HEX64);
	fclose(f);
	f = str_file("0::/init.scope\n");
	cr_assert_not(cgroup_file_container_id(f, id, sizeof(id)));
	fclose(f);
}

Test(nsnames, ns_links)
{
	int type;
	uint32_t inum;

	cr_assert(ns_link_parse("net:[4026531840]", &type, &inum));
	cr_assert_eq(type, NSAUDIT_NS_NET);
	cr_assert_eq(inum, 4026531840u);
	cr_assert(ns_link_parse("pid_for_children:[4026531836]", &type, &inum));
	cr_assert_eq(type, NSAUDIT_NS_PID);
	cr_assert_not(ns_link_parse("net:[]", &type, &inum));
	cr_assert_not(ns_link_parse("net:[12x]", &type, &inum));
	cr_assert_not(ns_link_parse("bogus:[1]", &type, &inum));
	cr_assert_not(ns_link_parse("net:[99999999999]", &type, &inum));
	cr_assert_not(ns_link_parse("net", &type, &inum));
}

Test(nsnames, netns_paths)
{
	cr_assert_str_eq(netns_name_from_path("/run/netns/blue"), "blue");
	cr_assert_null(netns_name_from_path("/run/netns/"));
	cr_assert_null(netns_name_from_path("/run/netns"));
	cr_assert_null(netns_name_from_path("/run/netns/a/b"));
	cr_assert_null(netns_name_from_path("/run/netnsx/a"));
	cr_assert_null(netns_name_from_path("/var/run/docker/netns/abc"));
}

/* Inodes far above any this machine hands out: the table also holds the
 * machine's own live nsfs mounts, and those must not collide. */
static const char mountinfo[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"48 45 0:4 net:[4294900174] /run/netns/red rw shared:2 - nsfs nsfs rw\n"
	"49 22 0:4 net:[4294900174] /tmp/also\\040red rw - nsfs nsfs rw\n"
	"50 22 0:4 uts:[4294900300] /tmp/pin\\040uts rw - nsfs nsfs rw\n"
	"51 22 0:4 net:[4294900400] /var/run/docker/netns/0a1b2c rw - nsfs nsfs rw\n"
	"52 22 0:4 uts:[4294900500] /run/netns/notnet rw - nsfs nsfs rw\n"
	"53 22 0:40 / /run/netns rw,nosuid shared:5 - tmpfs tmpfs rw\n";

Test(nsnames, mountinfo_table)
{
	struct nsnames *n = nsnames_new();
	FILE *f = fmemopen((char *)mountinfo, sizeof(mountinfo) - 1, "r");

	cr_assert_not_null(n);
	cr_assert_eq(nsnames_add_mountinfo(n, f), 5);
	fclose(f);
	/* the ip netns name wins over another bind mount of the same netns */
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_NET, 4294900174u), "red");
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_UTS, 4294900300u), "/tmp/pin uts");
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_NET, 4294900400u),
			 "/var/run/docker/netns/0a1b2c");
	/* /run/netns names are ip netns names only for network namespaces */
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_UTS, 4294900500u), "/run/netns/notnet");
	/* same inode, other type: not the same namespace */
	cr_assert_null(nsnames_mount_name(n, NSAUDIT_NS_UTS, 4294900174u));
	cr_assert_null(nsnames_mount_name(n, NSAUDIT_NS_NET, 4026539999u));

	/* ip netns del: the name goes, the other path remains */
	nsnames_remove_mount(n, "/run/netns/red");
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_NET, 4294900174u), "/tmp/also red");
	nsnames_remove_mount(n, "/tmp/also red");
	cr_assert_null(nsnames_mount_name(n, NSAUDIT_NS_NET, 4294900174u));
	nsnames_add_mount(n, "/run/netns/blue", NSAUDIT_NS_NET, 4294900174u);
	nsnames_add_mount(n, "/run/netns/blue", NSAUDIT_NS_NET, 4294900174u);
	cr_assert_str_eq(nsnames_mount_name(n, NSAUDIT_NS_NET, 4294900174u), "blue");
	nsnames_free(n);
}

Test(nsnames, host_namespaces_by_fixed_inode)
{
	struct nsnames *n = nsnames_new();

	cr_assert_not_null(n);
	/* include/linux/proc_ns.h: PROC_UTS_INIT_INO, PROC_USER_INIT_INO */
	cr_assert_str_eq(nsnames_lookup(n, NSAUDIT_NS_UTS, 0xeffffffeu, 0) ?: "(null)", "host");
	cr_assert_str_eq(nsnames_lookup(n, NSAUDIT_NS_USER, 0xeffffffdu, 0) ?: "(null)", "host");
	cr_assert_null(nsnames_lookup(n, NSAUDIT_NS_UTS, 0, 0));
	cr_assert_null(nsnames_lookup(n, 99, 0xeffffffeu, 0));
	nsnames_free(n);
}

/*
 * The mount table's duplicate check goes through an index
 * (nsnames_scan.c): after each of 20,000 random adds, removals and clears
 * on few paths and inodes, the table holds each (type, inode, path) once,
 * and exactly those a set kept beside it holds.
 */
Test(nsnames, mount_table_index_keeps_each_mount_once)
{
	static const char *const paths[6] = { "/run/netns/a", "/run/netns/b", "/p",
					      "/p/q",	      "/q",	      "/run/netns/c" };
	bool want[6][3][4] = { 0 };
	struct nsnames *n = nsnames_new();
	unsigned int seed = 48;

	cr_assert_not_null(n);
	clear_mounts(n);
	for (int step = 0; step < 20000; step++) {
		unsigned int r = (unsigned int)rand_r(&seed), p = r % 6, t = (r >> 4) % 3,
			     i = (r >> 8) % 4;
		size_t count = 0;

		if ((r >> 12) % 5 < 3) {
			nsnames_add_mount(n, paths[p], (int)t, 4294900000u + i);
			want[p][t][i] = true;
		} else if ((r >> 12) % 50 < 49) {
			nsnames_remove_mount(n, paths[p]);
			memset(want[p], 0, sizeof(want[p]));
		} else {
			clear_mounts(n);
			memset(want, 0, sizeof(want));
		}
		for (p = 0; p < 6; p++)
			for (t = 0; t < 3; t++)
				for (i = 0; i < 4; i++)
					count += want[p][t][i];
		cr_assert_eq(n->nmounts, count, "step %d: %zu mounts, %zu expected", step,
			     n->nmounts, count);
		for (size_t k = 0; k < n->nmounts; k++) {
			for (p = 0; strcmp(paths[p], n->mounts[k].path); p++)
				;
			cr_assert(want[p][n->mounts[k].type][n->mounts[k].inum - 4294900000u],
				  "step %d: %s is in the table and should not be", step, paths[p]);
		}
	}
	nsnames_free(n);
}

/* A pid that was a process and is gone: a runtime's stage after its call. */
static uint32_t gone_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	cr_assert_gt(p, 0);
	cr_assert_eq(waitpid(p, NULL, 0), p);
	return (uint32_t)p;
}

static const char *made_r(struct nsnames *n, int op, int result, uint32_t pid, uint32_t inum,
			  uint64_t nsid, const char *cgroup)
{
	struct nsaudit_event e = { 0 };
	const char *name, *old;

	e.op = op;
	e.result = result;
	e.ns_type = NSAUDIT_NS_UTS;
	e.flags = NSAUDIT_F_HAS_NS;
	e.ns_inum = inum;
	e.ns_id = nsid;
	e.pid = e.tid = pid;
	strcpy(e.comm, "runc:[1:CHILD]");
	nsnames_for_event(n, &e, cgroup, &name, &old);
	return name;
}

static const char *made(struct nsnames *n, int op, uint32_t pid, uint32_t inum, uint64_t nsid,
			const char *cgroup)
{
	return made_r(n, op, 0, pid, inum, nsid, cgroup);
}

/*
 * issue 41: a namespace a runtime's stage made by unshare, the stage gone
 * before its record is read (runc:[1:CHILD] exits at once; no runtime
 * state knows the container yet): named by the cgroup the record says the
 * stage was in at the call, not left unnamed; a later record of the same
 * namespace (ns_id) keeps the name after the maker is gone; the same inode
 * made again outside any container is not the dead one's.
 */
Test(nsnames, made_by_a_gone_process_named_by_its_cgroup_at_the_call)
{
	struct nsnames *n = nsnames_new();
	uint32_t inum = 4026599001u;
	struct cache_ent *c;

	cr_assert_not_null(n);
	cr_assert_str_eq(made(n, NSAUDIT_OP_UNSHARE, gone_pid(), inum, 7001, "/docker/" HEX64) ?:
				 "(null)",
			 "container:" HEX64);
	c = slot(n, NSAUDIT_NS_UTS, inum);
	c->checked_ns -= 10 * REVALIDATE_NS;	/* its maker was looked at long ago */
	cr_assert_str_eq(made(n, NSAUDIT_OP_SETNS, gone_pid(), inum, 7001, "/") ?: "(null)",
			 "container:" HEX64, "a later record of the same ns_id keeps the name");
	cr_assert_null(made(n, NSAUDIT_OP_UNSHARE, gone_pid(), inum, 7002, "/user.slice"),
		       "the inode made again by a host process is no container's");
	/* kernels without ns_id: the creation alone says the inode is new */
	cr_assert_str_eq(made(n, NSAUDIT_OP_UNSHARE, gone_pid(), inum + 1, 0, "/docker/" HEX64B) ?:
				 "(null)",
			 "container:" HEX64B);
	cr_assert_null(made(n, NSAUDIT_OP_UNSHARE, gone_pid(), inum + 1, 0, "/user.slice"));
	/* a failed unshare made nothing */
	cr_assert_null(made_r(n, NSAUDIT_OP_UNSHARE, -1, gone_pid(), inum + 2, 0, "/docker/" HEX64));
	nsnames_free(n);
}

/*
 * issue 41: a namespace a runtime's process made (lineage runtime at the
 * call) that nothing names (its maker gone, its cgroup gone) says it
 * cannot tell whose it is (unresolved), beside what else was unresolved;
 * one its maker's cgroup names has its container and says nothing more;
 * a host process's unnamed one says nothing (it is nobody's container's).
 */
Test(nsnames, unnamed_runtime_made_namespace_says_it_cannot_tell)
{
	struct nsnames *n = nsnames_new();
	struct nsaudit_event e = { .op = NSAUDIT_OP_UNSHARE, .ns_type = NSAUDIT_NS_NET,
				   .flags = NSAUDIT_F_HAS_NS, .ns_inum = 4026599101u, .ns_id = 9101,
				   .lineage = NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_RUNTIME,
				   .actor_pidns = 0xeffffffcu };
	struct event_extra x = { .unresolved = "exe: gone" };
	const char *old;

	cr_assert_not_null(n);
	e.pid = e.tid = gone_pid();
	nsnames_for_event(n, &e, NULL, &x.ns_name, &old);
	attribution_target(n, &e, &x);
	cr_assert_null(x.ns_container);
	cr_assert(x.unresolved &&
			  strstr(x.unresolved, "exe: gone; ns_container: made by a container "
					       "runtime's process") &&
			  strstr(x.unresolved, "its maker's cgroup was gone"),
		  "got %s", x.unresolved ?: "(null)");

	memset(&x, 0, sizeof(x));
	e.ns_inum++;
	e.ns_id++;
	x.cgroup = "/docker/" HEX64;
	nsnames_for_event(n, &e, x.cgroup, &x.ns_name, &old);
	attribution_target(n, &e, &x);
	cr_assert_str_eq(x.ns_container ?: "(null)", HEX64);
	cr_assert_null(x.unresolved);

	memset(&x, 0, sizeof(x));
	e.ns_inum++;
	e.ns_id++;
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED;
	nsnames_for_event(n, &e, "/user.slice", &x.ns_name, &old);
	attribution_target(n, &e, &x);
	cr_assert_null(x.ns_container);
	cr_assert_null(x.unresolved, "a host process's namespace: nothing to tell");
	nsnames_free(n);
}

/*
 * A namespace a runtime's stage made in a container's cgroup, which a bind
 * mount names first when its record is read (docker's netns mount, in the
 * mount table by then on a loaded machine): ns_name is the mount's, and
 * ns_container is still the container the maker's cgroup said at the
 * call. Another namespace that has the inode later (another ns_id, made
 * by a host process) is no container's.
 */
Test(nsnames, made_namespace_named_by_a_mount_first_keeps_its_container)
{
	struct nsnames *n = nsnames_new();
	struct nsaudit_event e = { .op = NSAUDIT_OP_UNSHARE, .ns_type = NSAUDIT_NS_NET,
				   .flags = NSAUDIT_F_HAS_NS, .ns_inum = 4026599201u, .ns_id = 9201,
				   .lineage = NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_RUNTIME,
				   .actor_pidns = 0xeffffffcu };
	struct event_extra x = { .cgroup = "/docker/" HEX64 };
	const char *old;

	cr_assert_not_null(n);
	e.pid = e.tid = gone_pid();
	nsnames_add_mount(n, "/run/docker/netns/0123456789ab", NSAUDIT_NS_NET, e.ns_inum);
	nsnames_for_event(n, &e, x.cgroup, &x.ns_name, &old);
	attribution_target(n, &e, &x);
	cr_assert(x.ns_name && strncmp(x.ns_name, "container:", 10), "the mount names it: %s",
		  x.ns_name ?: "(null)");
	cr_assert_str_eq(x.ns_container ?: "(null)", HEX64);
	cr_assert_null(x.unresolved);

	memset(&x, 0, sizeof(x));
	e.ns_id = 9202;
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED;
	nsnames_for_event(n, &e, "/user.slice", &x.ns_name, &old);
	attribution_target(n, &e, &x);
	cr_assert_null(x.ns_container, "another namespace with the inode: %s",
		       x.ns_container ?: "(null)");
	nsnames_free(n);
}

/* the name nsnames gives a net namespace record of op at path (bind/proc
 * via, result, the actor's user namespace: 0 for not said) */
static const char *named(struct nsnames *n, int op, int via, int result, uint32_t userns,
			 const char *path, uint32_t inum)
{
	struct nsaudit_event e = { .op = op, .ns_type = NSAUDIT_NS_NET,
				   .flags = NSAUDIT_F_HAS_NS, .ns_inum = inum, .ns_id = inum - 4026500000u,
				   .via = via, .result = result, .fd = 3, .actor_userns = userns };
	const char *name, *old;

	e.pid = e.tid = gone_pid();
	snprintf(e.path, sizeof(e.path), "%s", path);
	nsnames_for_event(n, &e, "/user.slice", &name, &old);
	return name;
}

static const char *opened(struct nsnames *n, int via, int result, const char *path, uint32_t inum)
{
	return named(n, NSAUDIT_OP_OPEN, via, result, 0, path, inum);
}

/*
 * An open of /run/netns/NAME read after `ip netns del NAME` ran (the mount
 * table re-read without it): the record still names NAME, which it opened.
 * A name the mount table has for the namespace comes first; an open
 * through /proc, a failed one and a path outside /run/netns name nothing.
 */
Test(nsnames, open_of_a_netns_name_deleted_right_after_keeps_it)
{
	struct nsnames *n = nsnames_new();

	cr_assert_not_null(n);
	cr_assert_str_eq(opened(n, NSAUDIT_VIA_BIND, 3, "/run/netns/rt-gone", 4026599301u) ?:
				 "(null)",
			 "rt-gone");
	nsnames_add_mount(n, "/run/netns/rt-still", NSAUDIT_NS_NET, 4026599302u);
	cr_assert_str_eq(opened(n, NSAUDIT_VIA_BIND, 3, "/run/netns/rt-other", 4026599302u) ?:
				 "(null)",
			 "rt-still");
	cr_assert_null(opened(n, NSAUDIT_VIA_PROC, 3, "/proc/self/ns/net", 4026599303u));
	cr_assert_null(opened(n, NSAUDIT_VIA_BIND, -2, "/run/netns/rt-none", 4026599304u));
	cr_assert_null(opened(n, NSAUDIT_VIA_BIND, 3, "/tmp/pin", 4026599305u));
	cr_assert_null(opened(n, NSAUDIT_VIA_BIND, 3, "/run/netns/a/b", 4026599306u));
	nsnames_free(n);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static const char *made_by(struct nsnames *n, uint32_t pid, uint32_t lineage, uint32_t inum)
{
	struct nsaudit_event e = { .op = NSAUDIT_OP_UNSHARE, .ns_type = NSAUDIT_NS_NET,
				   .flags = NSAUDIT_F_HAS_NS, .ns_inum = inum, .lineage = lineage };
	const char *name, *old;

	e.pid = e.tid = pid;
	strcpy(e.comm, "runc");
	nsnames_for_event(n, &e, "/user.slice", &name, &old);
	return name;
}

/*
 * A process called runc whose command line names a running container
 * ("web") makes a namespace: it is that container's only when the process
 * is a runtime's (lineage runtime), or when its lineage was not followed.
 * A process the kernel side followed and saw run no trusted runtime (any
 * user's copy of unshare named runc) names no container by its arguments.
 */
Test(nsnames, a_command_line_names_a_container_only_for_a_runtime)
{
	char root[] = "/tmp/nsaudit-ctr-XXXXXX", p[512];
	struct nsnames *n = nsnames_new();
	const char *name;
	pid_t kid;
	int i;

	cr_assert_not_null(n);
	cr_assert(mkdtemp(root));
	snprintf(p, sizeof(p), "mkdir -p %s/run/runc/%s %s/var/lib/containers/storage/overlay-containers",
		 root, HEX64, root);
	cr_assert_eq(system(p), 0);
	snprintf(p, sizeof(p), "%s/run/runc/%s/state.json", root, HEX64);
	put_file(p, "{\"id\":\"" HEX64 "\",\"init_process_pid\":1}");
	snprintf(p, sizeof(p), "%s/var/lib/containers/storage/overlay-containers/containers.json",
		 root);
	put_file(p, "[{\"id\":\"" HEX64 "\",\"names\":[\"web\"]}]");
	containers_free(n->ctr);
	n->ctr = containers_new(root);
	cr_assert_not_null(n->ctr);
	kid = fork();
	cr_assert_geq(kid, 0);
	if (kid == 0) {
		execl("/bin/sh", "sh", "-c", "sleep 30", "runc", "web", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 100; i++) {	/* until its command line is the exec'd one */
		char cl[256] = "";
		FILE *f;

		snprintf(p, sizeof(p), "/proc/%d/cmdline", kid);
		f = fopen(p, "r");
		if (f) {
			size_t k = fread(cl, 1, sizeof(cl) - 1, f);

			fclose(f);
			if (k > 3 && !strcmp(cl, "sh"))
				break;
		}
		usleep(10000);
	}
	name = made_by(n, (uint32_t)kid, NSAUDIT_LINEAGE_FOLLOWED, 4026599401u);
	cr_assert(!name || strncmp(name, "container:", 10), "followed, no runtime: %s", name);
	cr_assert_str_eq(made_by(n, (uint32_t)kid, NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_RUNTIME,
				 4026599402u) ?: "(null)",
			 "container:" HEX64);
	cr_assert_str_eq(made_by(n, (uint32_t)kid, 0, 4026599403u) ?: "(null)", "container:" HEX64,
			 "lineage not followed: by its command line, as before");
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	cr_assert_eq(system(p), 0);
	nsnames_free(n);
}

static const char *by_user(struct nsnames *n, int op, uint32_t userns, const char *path,
			   uint32_t inum)
{
	return named(n, op, NSAUDIT_VIA_BIND, 0, userns, path, inum);
}

/*
 * Any user's `unshare -r -m`, a tmpfs on /run/netns and its own netns
 * bound at /run/netns/NAME (the host's ip netns name): its mount, open and
 * umount there name nothing, and the umount leaves the host's NAME named.
 * The same calls from the host's user namespace (its initial inode) do.
 */
Test(nsnames, a_path_from_another_user_namespace_names_nothing)
{
	const uint32_t init_userns = 0xeffffffdu, user_ns = 4026599400u;
	struct nsnames *n = nsnames_new();

	cr_assert_not_null(n);
	nsnames_add_mount(n, "/run/netns/rtblue", NSAUDIT_NS_NET, 4026599401u);
	cr_assert_null(by_user(n, NSAUDIT_OP_MOUNT, user_ns, "/run/netns/rtblue", 4026599402u));
	cr_assert_null(by_user(n, NSAUDIT_OP_OPEN, user_ns, "/run/netns/rtblue", 4026599402u));
	cr_assert_null(by_user(n, NSAUDIT_OP_UMOUNT, user_ns, "/run/netns/rtblue", 4026599402u));
	cr_assert_str_eq(nsnames_lookup(n, NSAUDIT_NS_NET, 4026599401u, 0) ?: "(null)", "rtblue");
	cr_assert_str_eq(by_user(n, NSAUDIT_OP_MOUNT, init_userns, "/run/netns/rtred",
				 4026599403u) ?: "(null)", "rtred");
	cr_assert_str_eq(by_user(n, NSAUDIT_OP_UMOUNT, init_userns, "/run/netns/rtblue",
				 4026599401u) ?: "(null)", "rtblue");
	cr_assert_null(nsnames_lookup(n, NSAUDIT_NS_NET, 4026599401u, 0));
	nsnames_free(n);
}
