// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* attribution.c - the actor's own container, from its namespaces at the call. */
#include <stdio.h>
#include <string.h>

#include "attribution.h"
#include "enrich/nsnames.h"

/* The last answer: a copy (a refresh of the runtimes' state moves their
 * table). One tracer per process reads records, on one thread. */
static struct container_info actor_ci, ns_ci;
static char cg_id[CONTAINER_ID_LEN], cg_looked[CONTAINER_ID_LEN], cg_name[CONTAINER_NAME_LEN];

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

void attribution_actor(struct nsnames *n, const struct nsaudit_event *e, struct event_extra *x)
{
	struct containers *c = nsnames_containers(n);
	const struct container_info *ci = NULL;
	bool host_pid;

	if (e->op == NSAUDIT_OP_LOST || e->probe == NSAUDIT_PROBE_USER || !e->actor_pidns)
		return;	/* no actor, or the kernel side did not say */
	host_pid = nsnames_is_host(n, NSAUDIT_NS_PID, e->actor_pidns);
	if (c && !host_pid)
		ci = containers_by_ns(c, NSAUDIT_NS_PID, e->actor_pidns, e->actor_pidns_id);
	/* a process of the host's pid namespace (--pid=host, or a host
	 * process that joined some of a container's namespaces: a runtime,
	 * nsenter): its cgroup says whether a container runs it */
	if (!ci && x->cgroup && cgroup_container_id(x->cgroup, cg_id, sizeof(cg_id))) {
		ci = nsnames_find_container(n, cg_id);
		if (!ci) {
			/* not in a runtime's state (yet, or any more: a short
			 * --rm container): docker's own config names it */
			x->actor_container = cg_id;
			if (c && strcmp(cg_id, cg_looked)) {	/* once per id in a row */
				snprintf(cg_looked, sizeof(cg_looked), "%s", cg_id);
				if (!containers_docker_name(c, cg_id, cg_name, sizeof(cg_name)))
					cg_name[0] = '\0';
			}
			x->actor_container_name = nonempty(cg_name);
			return;
		}
	}
	if (ci) {
		actor_ci = *ci;
		x->actor_container = actor_ci.id;
		x->actor_container_name = nonempty(actor_ci.name);
		x->actor_pod = nonempty(actor_ci.pod);
		x->actor_pod_namespace = nonempty(actor_ci.pod_ns);
		return;
	}
	if (host_pid)
		x->actor_container = "host";
}

/* The container of id (a namespace named from its processes' cgroup, now
 * or when it was made), with its name when the runtimes know it. */
static const char *container_of_id(struct nsnames *n, const char *id, const char **name)
{
	const struct container_info *ci;

	if (!id || !*id)
		return NULL;
	ci = nsnames_find_container(n, id);
	if (ci) {
		ns_ci = *ci;
		*name = nonempty(ns_ci.name);
		return ns_ci.id;
	}
	memset(&ns_ci, 0, sizeof(ns_ci));
	snprintf(ns_ci.id, sizeof(ns_ci.id), "%s", id);
	/* not in a runtime's state yet (being made): docker names it already */
	*name = nsnames_containers(n) && containers_docker_name(nsnames_containers(n), id,
								 ns_ci.name, sizeof(ns_ci.name))
			? ns_ci.name
			: NULL;
	return ns_ci.id;
}

/*
 * A namespace a runtime's process made (lineage runtime, at the call) is
 * for a container, or the runtime's own: when nothing named it (no
 * runtime state yet, its maker gone, its cgroup gone or no container's),
 * the record says it cannot tell, not just nothing (issue 41).
 */
static void unnamed_made(const struct nsaudit_event *e, struct event_extra *x)
{
	static char buf[640];

	if ((e->op != NSAUDIT_OP_UNSHARE && e->op != NSAUDIT_OP_CLONE) || e->result < 0 ||
	    !(e->lineage & NSAUDIT_LINEAGE_RUNTIME) || x->ns_name)
		return;
	snprintf(buf, sizeof(buf), "%s%sns_container: made by a container runtime's process; "
		 "whose it is could not be told when the record was read (%s)",
		 x->unresolved ?: "", x->unresolved ? "; " : "",
		 x->cgroup ? "no runtime's state, nor its maker's cgroup, named a container"
			   : "its maker's cgroup was gone");
	x->unresolved = buf;
}

void attribution_target(struct nsnames *n, const struct nsaudit_event *e, struct event_extra *x)
{
	struct containers *c = nsnames_containers(n);
	const struct container_info *ci = NULL;
	int type = (int)e->ns_type;

	if (!(e->flags & NSAUDIT_F_HAS_NS) || type < 0 || type >= NSAUDIT_NS_MAX ||
	    e->op == NSAUDIT_OP_LOST)
		return;
	if (nsnames_is_host(n, type, e->ns_inum)) {
		x->ns_container = "host";
		return;
	}
	if (c)
		ci = containers_by_ns(c, type, e->ns_inum, e->ns_id);
	if (ci) {
		ns_ci = *ci;
		x->ns_container = ns_ci.id;
		x->ns_container_name = nonempty(ns_ci.name);
	} else {
		if (x->ns_name && !strncmp(x->ns_name, "container:", 10))
			x->ns_container = container_of_id(n, x->ns_name + 10,
							  &x->ns_container_name);
	}
	/* named by something else first (docker's bind mount of the netns it
	 * made, already in the mount table when the record is read): whose it
	 * is, the cache still knows (its maker's cgroup at the call) */
	if (!x->ns_container) {
		const char *id = nsnames_cached_container(n, type, e->ns_inum, e->ns_id);

		x->ns_container = container_of_id(n, id, &x->ns_container_name);
	}
	/* the record's container: its namespace's owner when the runtimes'
	 * state did not say (yet: a container being made) */
	if (!x->container && x->ns_container) {
		x->container = x->ns_container;
		x->container_name = x->ns_container_name;
	}
	if (!x->ns_container)
		unnamed_made(e, x);
}
