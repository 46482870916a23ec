// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * The rules engine (nsaudit/rules/) on synthetic records: which rule fires
 * for which facts, once per operation, trust by executable identity (not
 * name), and the alert record's fields.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/alert_fmt.h"
#include "output/event_json.h"
#include "fields.h"
#include "rules/rules_impl.h"

#define CTR_A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HOST_NET 0xeffffff9u
#define HOST_MNT 0xeffffff8u
#define HOST_PID 0xeffffffcu

struct got {
	int n;
	struct rule_alert a[8];
};

static int collect(void *ctx, const struct rule_alert *a, const struct nsaudit_event *e)
{
	struct got *g = ctx;

	if (g->n < 8)
		g->a[g->n] = *a;
	g->n++;
	return 0;
}

/* a process of container CTR_A (pid and mnt namespaces its own) */
static void in_container(struct nsaudit_event *e, struct event_extra *x)
{
	memset(e, 0, sizeof(*e));
	memset(x, 0, sizeof(*x));
	e->pid = e->tid = 999999;	/* no such process: nothing read from /proc */
	e->actor_pidns = 0xf0000100u;
	e->actor_mntns = 0xf0000101u;
	e->fd = -1;
	e->kseq = 41;
	snprintf(e->comm, sizeof(e->comm), "nsenter");
	x->actor_container = CTR_A;
	x->actor_container_name = "web";
}

static void setns_host_net(struct nsaudit_event *e)
{
	e->op = NSAUDIT_OP_SETNS;
	e->ns_type = NSAUDIT_NS_NET;
	e->ns_inum = HOST_NET;
	e->flags = NSAUDIT_F_HAS_NS;
	e->via = NSAUDIT_VIA_PROC;
}

Test(rules, container_escape_once_per_operation)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	cr_assert(r);
	in_container(&e, &x);
	setns_host_net(&e);
	cr_assert_eq(rules_eval(r, &e, &x, 7, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "container-escape");
	cr_assert_eq(g.a[0].severity, RULE_SEV_CRIT);
	cr_assert_str_eq(g.a[0].actor, CTR_A);
	cr_assert_str_eq(g.a[0].actor_name, "web");
	cr_assert_str_eq(g.a[0].target, "host");
	cr_assert_eq(g.a[0].about_seq, 7);
	cr_assert_eq(g.a[0].about_kseq, 41);
	cr_assert(strstr(g.a[0].summary, "host's net namespace net:[4026531833]"), "%s",
		  g.a[0].summary);
	/* the open before it, the setns after: the same operation */
	e.op = NSAUDIT_OP_OPEN;
	cr_assert_eq(rules_eval(r, &e, &x, 8, collect, &g), 0);
	/* another process of the same container: an operation of its own */
	e.pid = 999998;
	cr_assert_eq(rules_eval(r, &e, &x, 9, collect, &g), 1);
	rules_free(r);
}

Test(rules, host_actor_and_own_namespaces_are_quiet)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	setns_host_net(&e);
	/* the host's admin entering the host's namespace */
	x.actor_container = NULL;
	e.actor_pidns = HOST_PID;
	e.actor_mntns = HOST_MNT;
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 0);
	/* a container process entering a namespace that is no one's */
	in_container(&e, &x);
	setns_host_net(&e);
	e.ns_inum = 0xf0000555u;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0);
	/* a record of the kernel's losses is about no one */
	e.op = NSAUDIT_OP_LOST;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 0);
	cr_assert_eq(g.n, 0);
	rules_free(r);
}

Test(rules, unknown_container_actor_still_escapes)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	setns_host_net(&e);
	x.actor_container = x.actor_container_name = NULL;
	/* a sandbox's pid namespace, no runtime knows it */
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "container-escape");
	cr_assert_str_eq(g.a[0].actor, "pid:[4026532096]");
	rules_free(r);
}

Test(rules, attempted_escape_names_the_errno)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	setns_host_net(&e);
	e.op = NSAUDIT_OP_OPEN;
	e.result = -EACCES;
	e.target_pid = 1;
	cr_assert_eq(rules_eval(r, &e, &x, 5, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "attempted-escape");
	cr_assert_eq(g.a[0].severity, RULE_SEV_WARNING);
	cr_assert(strstr(g.a[0].summary, "refused (EACCES)"), "%s", g.a[0].summary);
	/* EINVAL is a mistake, not an attempt */
	e.pid = 999997;
	e.result = -EINVAL;
	cr_assert_eq(rules_eval(r, &e, &x, 6, collect, &g), 0);
	rules_free(r);
}

/*
 * A refused open of /proc/1/ns/ipc whose namespace nobody could read (a
 * sandbox's PID 1: /proc and the task iterator both keep it from us): the
 * summary says the type once, with its article ("an ipc namespace via
 * proc", not "a ipc namespace ipc").
 */
Test(rules, attempted_escape_without_the_namespace_says_its_type_once)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	e.op = NSAUDIT_OP_OPEN;
	e.ns_type = NSAUDIT_NS_IPC;
	e.via = NSAUDIT_VIA_PROC;
	e.result = -EACCES;
	e.target_pid = 1;
	cr_assert_eq(rules_eval(r, &e, &x, 5, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "attempted-escape");
	cr_assert(strstr(g.a[0].summary, "was refused (EACCES) pinning an ipc namespace via proc "
					 "of pid 1"),
		  "%s", g.a[0].summary);
	/* the alert keeps the record's type (search --type finds it), no inode */
	{
		struct json_object *o = json_object_new_object(), *v;
		struct audit_fields f;

		audit_fields_object(&f, o);
		alert_fields(&f, &e, &g.a[0], NULL, "2026-12-08T01:00:00Z", 20);
		cr_assert(json_object_object_get_ex(o, "ns_type", &v), "%s",
			  json_object_to_json_string(o));
		cr_assert_str_eq(json_object_get_string(v), "ipc");
		cr_assert_not(json_object_object_get_ex(o, "ns_inum", NULL));
		json_object_put(o);
	}
	rules_free(r);
}

/*
 * persistence watches an ip netns name the host deleted: an umount of
 * /run/netns/NAME by the host (or inferred, no actor); not one by a
 * process in a user namespace of its own (any user's private /run/netns
 * over a tmpfs), which would raise a warning about nobody's name.
 */
Test(rules, persistence_watches_only_the_hosts_ip_netns_names)
{
	struct nsaudit_event e = { .op = NSAUDIT_OP_UMOUNT, .ns_type = NSAUDIT_NS_NET,
				   .flags = NSAUDIT_F_HAS_NS, .ns_inum = 0xf0000900u,
				   .actor_userns = 0xeffffffdu };

	snprintf(e.path, sizeof(e.path), "/run/netns/blue");
	cr_assert_str_eq(persist_netns_deleted(&e) ?: "(null)", "blue");
	e.actor_userns = 0;	/* inferred: no actor */
	cr_assert_str_eq(persist_netns_deleted(&e) ?: "(null)", "blue");
	e.actor_userns = 0xf0000901u;
	cr_assert_null(persist_netns_deleted(&e));
	e.actor_userns = 0xeffffffdu;
	snprintf(e.path, sizeof(e.path), "/tmp/pin");
	cr_assert_null(persist_netns_deleted(&e));
}

Test(rules, userns_privilege_is_informational)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	x.actor_container = NULL;
	e.actor_pidns = HOST_PID;
	e.actor_mntns = HOST_MNT;
	e.op = NSAUDIT_OP_UNSHARE;
	e.ns_type = NSAUDIT_NS_MNT;
	e.ns_inum = 0xf0000777u;
	e.flags = NSAUDIT_F_HAS_NS;
	e.uid = 1000;
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "userns-privilege");
	cr_assert_eq(g.a[0].severity, RULE_SEV_INFO);
	/* root making a mount namespace: no game */
	e.uid = 0;
	e.pid = 999996;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0);
	rules_free(r);
}

Test(rules, trust_is_the_executable_identity_not_the_name)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };
	struct stat st;

	cr_assert_eq(stat("/proc/self/exe", &st), 0);
	in_container(&e, &x);
	setns_host_net(&e);
	e.actor_mntns = HOST_MNT;	/* run from the host's mount namespace */
	snprintf(e.comm, sizeof(e.comm), "runc");
	/* called runc, some other file: not trusted */
	e.exe_ino = st.st_ino + 1;
	e.exe_dev = facts_kdev(st.st_dev);
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	/* the trusted file itself, whatever its name */
	cr_assert_eq(facts_trust_exe(r->fx, "/proc/self/exe"), 0);
	snprintf(e.comm, sizeof(e.comm), "anything");
	e.exe_ino = st.st_ino;
	e.pid = 999995;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0);
	/* the same file run from a container's mount namespace: not trusted */
	e.actor_mntns = 0xf0000101u;
	e.pid = 999994;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 1);
	cr_assert_eq(g.n, 2);
	rules_free(r);
}

Test(rules, alert_record_fields)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x, ax = { 0 };
	struct got g = { 0 };
	struct json_object *o, *v;

	in_container(&e, &x);
	setns_host_net(&e);
	cr_assert_eq(rules_eval(r, &e, &x, 12, collect, &g), 1);
	ax.seq = 13;
	ax.alert = &g.a[0];
	o = event_to_json(&e, &ax);
	cr_assert(o);
	cr_assert(json_object_object_get_ex(o, "op", &v));
	cr_assert_str_eq(json_object_get_string(v), "alert");
	cr_assert(json_object_object_get_ex(o, "rule", &v));
	cr_assert_str_eq(json_object_get_string(v), "container-escape");
	cr_assert(json_object_object_get_ex(o, "severity", &v));
	cr_assert_str_eq(json_object_get_string(v), "crit");
	cr_assert(json_object_object_get_ex(o, "about_seq", &v));
	cr_assert_eq(json_object_get_int64(v), 12);
	cr_assert(json_object_object_get_ex(o, "actor_container", &v));
	cr_assert_str_eq(json_object_get_string(v), CTR_A);
	cr_assert(json_object_object_get_ex(o, "target_container", &v));
	cr_assert_str_eq(json_object_get_string(v), "host");
	json_object_put(o);
	rules_free(r);
}

Test(rules, severity_names)
{
	cr_assert_eq(rule_severity_parse("crit"), 2);
	cr_assert_eq(rule_severity_parse("warning"), 4);
	cr_assert_eq(rule_severity_parse("error"), 3);
	cr_assert_eq(rule_severity_parse("7"), 7);
	cr_assert_eq(rule_severity_parse("loud"), -1);
	cr_assert_eq(rule_severity_parse("8"), -1);
	cr_assert_str_eq(rule_severity_name(RULE_SEV_INFO), "info");
}

/* issue 41: a host service with a mount namespace of its own (PrivateTmp=,
 * unshare -m) entering or pinning the host's namespaces is the host */
Test(rules, private_mount_namespace_alone_is_no_container)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	x.actor_container = "host";
	x.actor_container_name = NULL;
	e.actor_pidns = HOST_PID;
	e.actor_mntns = 0xf0000201u;	/* its own */
	setns_host_net(&e);
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 0);
	e.op = NSAUDIT_OP_OPEN;
	e.pid = 999993;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0);
	/* back into the host's mount namespace */
	e.op = NSAUDIT_OP_SETNS;
	e.ns_type = NSAUDIT_NS_MNT;
	e.ns_inum = HOST_MNT;
	e.pid = 999992;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 0);
	/* the same process in a pid namespace of its own still alerts */
	e.actor_pidns = 0xf0000202u;
	x.actor_container = NULL;
	e.pid = 999991;
	cr_assert_eq(rules_eval(r, &e, &x, 4, collect, &g), 1);
	cr_assert_str_eq(g.a[0].actor, "pid:[4026532354]");
	rules_free(r);
}

/* issue 41: who is a container when no cgroup or runtime state names it:
 * the kernel side's lineage, read at the call */
Test(rules, own_pid_namespace_no_runtime_made_is_host)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	x.actor_container = NULL;	/* no cgroup, no runtime's state */
	x.actor_container_name = NULL;
	e.actor_mntns = HOST_MNT;
	setns_host_net(&e);
	/* unshare -pf by root: followed from its birth, no runtime's workload */
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED;
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 0);
	/* a runtime's workload (a container's program), unnamed: it escapes */
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_CONTAINED;
	e.pid = 999990;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 1);
	cr_assert_str_eq(g.a[0].rule, "container-escape");
	cr_assert_str_eq(g.a[0].actor, "pid:[4026532096]");
	/* the same in the host's pid namespace (--pid=host): still a container's */
	e.actor_pidns = HOST_PID;
	e.pid = 999989;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 1);
	/* the kernel missed marks: followed is no answer, the pid namespace is */
	rules_lineage_lost(r);
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED;
	e.actor_pidns = 0xf0000100u;
	e.pid = 999988;
	cr_assert_eq(rules_eval(r, &e, &x, 4, collect, &g), 1);
	cr_assert_eq(g.n, 3);
	rules_free(r);
}

/* issue 41: a runtime's own process is trusted by its mark at the call,
 * whatever /proc says later; a container's program never is */
Test(rules, runtime_lineage_at_the_call)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };
	struct stat st;

	in_container(&e, &x);	/* away: the container's mount namespace */
	setns_host_net(&e);
	/* followed, not a runtime's: no /proc walk makes it one */
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED;
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	/* marked (crun's child whose parents have exited: pid 999999 has no /proc) */
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_RUNTIME;
	e.pid = 999987;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0);
	/* a container's program running the trusted file from the host's
	 * mount namespace: the kernel says workload, not runtime */
	cr_assert_eq(stat("/proc/self/exe", &st), 0);
	cr_assert_eq(facts_trust_exe(r->fx, "/proc/self/exe"), 0);
	e.exe_ino = st.st_ino;
	e.exe_dev = facts_kdev(st.st_dev);
	e.actor_mntns = HOST_MNT;
	e.lineage = NSAUDIT_LINEAGE_FOLLOWED | NSAUDIT_LINEAGE_CONTAINED;
	e.pid = 999986;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 1);
	/* without the kernel's word, the file's identity in the host's mount
	 * namespace trusts it, as before */
	e.lineage = 0;
	e.pid = 999985;
	cr_assert_eq(rules_eval(r, &e, &x, 4, collect, &g), 0);
	cr_assert_eq(g.n, 2);
	rules_free(r);
}

/* an alert whose target is no one's says so, never what another left */
Test(rules, alert_without_target_says_none)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	in_container(&e, &x);
	setns_host_net(&e);
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	cr_assert_str_eq(g.a[0].target, "host");
	x.actor_container = NULL;
	e.actor_pidns = HOST_PID;
	e.actor_mntns = HOST_MNT;
	e.op = NSAUDIT_OP_UNSHARE;
	e.ns_type = NSAUDIT_NS_MNT;
	e.ns_inum = 0xf0000777u;
	e.uid = 1000;
	e.pid = 999990;
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 1);
	cr_assert_str_eq(g.a[1].rule, "userns-privilege");
	cr_assert_str_eq(g.a[1].target, "");
	rules_free(r);
}

/*
 * issue 41: a container known by its cgroup path does not make every
 * other record with the same cgroup id its own. On hybrid and v1 layouts
 * the path is a v1 controller's line of /proc/PID/cgroup while the id is
 * the v2 hierarchy's, the same (the root, 1) for the container's process
 * and for every host process: found on this machine, a host process right
 * after a pod's conmon raised container-escape crit naming the pod.
 */
Test(rules, cgroup_id_shared_by_host_and_container_paths)
{
	struct rules *r = rules_new();
	struct nsaudit_event e;
	struct event_extra x;
	struct got g = { 0 };

	/* a container's process, known only by its cgroup's path */
	in_container(&e, &x);
	setns_host_net(&e);
	x.actor_container = NULL;
	x.actor_container_name = NULL;
	x.cgroup = "/libpod_parent/libpod-" CTR_A;
	e.cgroup_id = 1;
	cr_assert_eq(rules_eval(r, &e, &x, 1, collect, &g), 1);
	cr_assert_str_eq(g.a[0].actor, CTR_A);
	/* a host process in the v2 root (id 1 too), a moment later */
	e.pid = 999980;
	e.actor_pidns = HOST_PID;
	e.actor_mntns = HOST_MNT;
	x.cgroup = "/";
	cr_assert_eq(rules_eval(r, &e, &x, 2, collect, &g), 0, "%s",
		     g.n > 1 ? g.a[1].summary : "");
	/* and the container's next record is still the container's */
	in_container(&e, &x);
	setns_host_net(&e);
	x.actor_container = NULL;
	x.cgroup = "/libpod_parent/libpod-" CTR_A;
	e.cgroup_id = 1;
	e.pid = 999979;
	cr_assert_eq(rules_eval(r, &e, &x, 3, collect, &g), 1);
	cr_assert_str_eq(g.a[1].actor, CTR_A);
	rules_free(r);
}
