// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* attribution.c - the actor's own container, from its namespaces at the call. */
#include <stdio.h>
#include <string.h>

#include "attribution.h"
#include "nsnames.h"

/* The last answer: a copy (a refresh of the runtimes' state moves their
 * table). One tracer per process reads records, on one thread. */
static struct container_info actor_ci;
static char cg_id[CONTAINER_ID_LEN];

static const char *nonempty(const char *s)
{
	return s && s[0] ? s : NULL;
}

void attribution_pod(const struct container_info *ci, struct event_extra *x)
{
	if (!ci)
		return;
	x->pod = nonempty(ci->pod);
	x->pod_namespace = nonempty(ci->pod_ns);
}

/* A runtime's container one of the actor's namespaces of type t belongs to. */
static const struct container_info *by_ns(struct nsnames *n, struct containers *c, int t,
					  uint32_t inum, uint64_t id)
{
	if (!inum || nsnames_is_host(n, t, inum))
		return NULL;
	return containers_by_ns(c, t, inum, id);
}

void attribution_actor(struct nsnames *n, const struct nsaudit_event *e, struct event_extra *x)
{
	struct containers *c = nsnames_containers(n);
	const struct container_info *ci = NULL;

	if (e->op == NSAUDIT_OP_LOST || e->probe == NSAUDIT_PROBE_USER || !e->actor_pidns)
		return;	/* no actor, or the kernel side did not say */
	if (c) {
		ci = by_ns(n, c, NSAUDIT_NS_PID, e->actor_pidns, e->actor_pidns_id);
		if (!ci)
			ci = by_ns(n, c, NSAUDIT_NS_MNT, e->actor_mntns, e->actor_mntns_id);
	}
	if (ci) {
		actor_ci = *ci;
		x->actor_container = actor_ci.id;
		x->actor_container_name = nonempty(actor_ci.name);
		x->actor_pod = nonempty(actor_ci.pod);
		x->actor_pod_namespace = nonempty(actor_ci.pod_ns);
		return;
	}
	/* a runtime nsaudit does not read: the container id its cgroup names */
	if (x->cgroup && cgroup_container_id(x->cgroup, cg_id, sizeof(cg_id)) &&
	    !nsnames_is_host(n, NSAUDIT_NS_PID, e->actor_pidns)) {
		x->actor_container = cg_id;
		return;
	}
	if (nsnames_is_host(n, NSAUDIT_NS_PID, e->actor_pidns) &&
	    nsnames_is_host(n, NSAUDIT_NS_MNT, e->actor_mntns))
		x->actor_container = "host";
}
