/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * attribution.h - the actor's own container of a record, from what the
 * kernel said of the actor at the call (docs/attribution.md): its active
 * pid namespace (a process never leaves it: a container's init that
 * enters host namespaces stays its container's), matched by ns_id where
 * the kernel has one; in the host's pid namespace its cgroup (--pid=host
 * containers); else "host", also for a host process that joined some of a
 * container's namespaces (a runtime, nsenter: actor_mntns and exe_mntns
 * say which). Never from the actor's comm or exe path.
 */
#ifndef NSAUDIT_ATTRIBUTION_H
#define NSAUDIT_ATTRIBUTION_H

#include "nsaudit.h"
#include "enrich/nsnames.h"
#include "output/record_fmt.h"

/* Fill x->actor_container (and _name, actor_pod, actor_pod_namespace) for
 * the record e; x->cgroup must be set already. The strings stay valid
 * until the next call. */
void attribution_actor(struct nsnames *n, const struct nsaudit_event *e, struct event_extra *x);

/*
 * x->ns_container (and _name): the owner of the namespace the record is
 * about, by its identity (ns_id where the kernel has one): "host" for the
 * host's, a container's id (from the runtimes' state, else from the
 * cgroup of a process in it); NULL when neither. Also fills x->container
 * from it when the runtimes' state gave none. x->ns_name must be set.
 */
void attribution_target(struct nsnames *n, const struct nsaudit_event *e, struct event_extra *x);

/* x->pod and x->pod_namespace of the record's container ci (may be NULL). */
void attribution_pod(const struct container_info *ci, struct event_extra *x);

#endif
