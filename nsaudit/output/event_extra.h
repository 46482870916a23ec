/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * event_extra.h - what user space adds to a kernel record: the record's
 * second half for every formatter (record_fmt.h, record_span.h).
 */
#ifndef NSAUDIT_EVENT_EXTRA_H
#define NSAUDIT_EVENT_EXTRA_H

#include <stdbool.h>
#include <stdint.h>

struct rule_alert;

/* What user space adds to a kernel record (see enrich.h). */
struct event_extra {
	uint64_t seq;
	int64_t realtime_ns;	/* wall-clock time of the event */
	const char *exe;	/* NULL if unknown */
	const char *cgroup;	/* NULL if unknown */
	const char *ns_name;	/* NULL if unnamed */
	const char *old_name;
	uint32_t exe_mntns;	/* the mount namespace exe is relative to (0: unknown) */
	uint64_t exe_mntns_id;
	bool exe_cut;		/* exe holds the first bytes of a longer path */
	const char *container;	/* the container the record is about (id), or NULL */
	const char *container_name; /* its name (podman's, docker's ...), or NULL */
	const char *ns_container; /* the owner of ns_inum: "host", a container id, or NULL */
	const char *ns_container_name;
	const char *pod;	/* kubernetes pod name and namespace of it, or NULL */
	const char *pod_namespace;
	/* the actor's own container, from its namespaces at the call ("host"
	 * for the host's), and its name; NULL: not known */
	const char *actor_container;
	const char *actor_container_name;
	const char *actor_pod;
	const char *actor_pod_namespace;
	const char *unresolved;	/* what enrichment could not complete, and why */
	const char *cause;	/* a record user space made: what happened */
	/* a record user space made about a pin: who made the pin (the mount
	 * call's caller, from the kernel side); maker_comm NULL: not known */
	const char *maker_comm;
	uint32_t maker_pid;
	uint32_t maker_uid;
	/* a mount that names a namespace whose creation record came out
	 * without a name (ip netns add: unshare, then the bind mount): that
	 * record's seq in the log, linking the name to it; 0: none */
	uint64_t created_seq;
	const struct rule_alert *alert; /* an alert ("op":"alert", nsaudit/rules/)
					 * about the record e: e's actor fields */
};

#endif
