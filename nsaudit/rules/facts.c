// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * facts.c - a record's facts for the rules, in one place: the actor's
 * namespaces and container, the owner of the namespace acted on, trust.
 *
 * The actor's pid namespace never changes for a process, so it is read
 * once from /proc and cached (a second, for pid reuse); its mount
 * namespace is the record's own old_inum when the call changed it (a
 * setns or unshare of mnt: the value before the call), else /proc's. Its
 * container comes from the cgroup the kernel side read at the call (a
 * setns does not change it), else from the runtimes' state for its pid or
 * mount namespace. A process gone before it is looked at keeps what the
 * cgroup says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "enrich/nsnames.h"
#include "nstype.h"
#include "rules_impl.h"
#include "clock.h"
#include "hash.h"

#define FACTS_TTL_NS 1000000000LL
/* forced re-reads of the runtimes' state at most this often */
#define REFRESH_MIN_NS 50000000LL

/* include/linux/proc_ns.h: the initial namespaces' fixed inodes */
static const uint32_t init_inum[NSAUDIT_NS_MAX] = {
	[NSAUDIT_NS_NET] = 0xeffffff9u,	 [NSAUDIT_NS_UTS] = 0xeffffffeu,
	[NSAUDIT_NS_IPC] = 0xefffffffu,	 [NSAUDIT_NS_MNT] = 0xeffffff8u,
	[NSAUDIT_NS_PID] = 0xeffffffcu,	 [NSAUDIT_NS_USER] = 0xeffffffdu,
	[NSAUDIT_NS_CGROUP] = 0xeffffffbu, [NSAUDIT_NS_TIME] = 0xeffffffau,
};

struct facts_ctx *facts_new(void)
{
	return calloc(1, sizeof(struct facts_ctx));
}

void facts_free(struct facts_ctx *fx)
{
	free(fx);
}

void facts_set_names(struct facts_ctx *fx, struct nsnames *names)
{
	fx->names = names;
}

struct nsnames *facts_names(struct facts_ctx *fx)
{
	return fx->names;
}

bool facts_host_ns(const struct facts_ctx *fx, int type, uint32_t inum)
{
	if (type < 0 || type >= NSAUDIT_NS_MAX || !inum)
		return false;
	if (fx && fx->names)
		return nsnames_is_host(fx->names, type, inum);
	return inum == init_inum[type];
}

uint32_t facts_proc_ns(uint32_t pid, const char *type)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%u/ns/%s", pid, type);
	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/* The actor's pid and mount namespaces as /proc shows them (cached). */
static const struct actor_ent *actor_ns(struct facts_ctx *fx, uint32_t pid, int64_t now)
{
	struct actor_ent *a = &fx->actors[pid % ACTOR_SLOTS];

	if (!pid)
		return NULL;
	if (a->pid != pid || now - a->at_ns > FACTS_TTL_NS) {
		a->pid = pid;
		a->at_ns = now;
		a->pidns = facts_proc_ns(pid, "pid");
		a->mntns = facts_proc_ns(pid, "mnt");
	}
	return a;
}

/*
 * The container a cgroup path is a container's (by the runtime's id in it,
 * or a path component that is a known container's id), cached by id and
 * path. Not by id alone: the id is the v2 hierarchy's, and where runtimes
 * place containers on v1 controllers only (hybrid, v1) the path is the
 * v1 line of /proc/PID/cgroup (enrich_cgroup.c) while the id is v2's root
 * (1) for every process: a container's path cached under id 1 made every
 * host process that container's actor for a second.
 */
static const struct cgroup_ent *cgroup_ctr(struct facts_ctx *fx, uint64_t id, const char *path,
					   int64_t now)
{
	struct cgroup_ent *c;
	const struct container_info *ci = NULL;
	const char *last;

	if (!id || !path)
		return NULL;
	c = &fx->cgroups[(id ^ fnv64_str(FNV64_OFFSET_BASIS, path)) % CGROUP_SLOTS];
	if (c->id == id && !strcmp(c->path, path) && now - c->at_ns <= FACTS_TTL_NS)
		return c->ctr[0] ? c : NULL;
	/* (a path too long to keep is never found again: looked at each time) */
	c->id = strlen(path) < sizeof(c->path) ? id : 0;
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->at_ns = now;
	c->ctr[0] = c->name[0] = '\0';
	if (!cgroup_container_id(path, c->ctr, sizeof(c->ctr))) {
		/* runc and crun with a bundle: cgroupsPath ends in the id */
		last = strrchr(path, '/');
		if (fx->names && last && last[1] && strlen(last + 1) < CONTAINER_ID_LEN) {
			ci = nsnames_find_container(fx->names, last + 1);
			if (ci && strcmp(ci->id, last + 1))
				ci = NULL; /* a name or prefix is no proof */
		}
		if (ci)
			snprintf(c->ctr, sizeof(c->ctr), "%s", ci->id);
	}
	if (c->ctr[0] && !ci && fx->names)
		ci = nsnames_find_container(fx->names, c->ctr);
	if (ci)
		snprintf(c->name, sizeof(c->name), "%s", ci->name);
	return c->ctr[0] ? c : NULL;
}

static void set_ctr(char *id, size_t idlen, char *name, size_t namelen, const char *i,
		    const char *n)
{
	snprintf(id, idlen, "%s", i);
	snprintf(name, namelen, "%s", n ? n : "");
}

/* the container whose pid, else mount, namespace the actor runs in */
static const struct container_info *ns_owner(struct facts_ctx *fx, const struct rule_facts *f)
{
	const struct container_info *ci = NULL;

	if (f->actor_pidns && !facts_host_ns(fx, NSAUDIT_NS_PID, f->actor_pidns))
		ci = nsnames_owner(fx->names, NSAUDIT_NS_PID, f->actor_pidns,
				   f->actor_pidns == f->e->actor_pidns ? f->e->actor_pidns_id : 0);
	if (!ci && f->actor_mntns && !facts_host_ns(fx, NSAUDIT_NS_MNT, f->actor_mntns))
		ci = nsnames_owner(fx->names, NSAUDIT_NS_MNT, f->actor_mntns,
				   f->actor_mntns == f->e->actor_mntns ? f->e->actor_mntns_id : 0);
	return ci;
}

static bool host_pidns(const struct facts_ctx *fx, const struct rule_facts *f)
{
	return !f->actor_pidns || facts_host_ns(fx, NSAUDIT_NS_PID, f->actor_pidns);
}

static bool host_ns_both(const struct facts_ctx *fx, const struct rule_facts *f)
{
	return host_pidns(fx, f) &&
	       (!f->actor_mntns || facts_host_ns(fx, NSAUDIT_NS_MNT, f->actor_mntns));
}

static void actor_facts(struct facts_ctx *fx, const struct nsaudit_event *e,
			const struct event_extra *x, struct rule_facts *f)
{
	const struct actor_ent *a = e->actor_pidns && e->actor_mntns ? NULL
					: actor_ns(fx, e->pid, f->now_ns);
	const struct cgroup_ent *cg = cgroup_ctr(fx, e->cgroup_id, x->cgroup, f->now_ns);
	const struct container_info *ci = NULL;
	bool known = false;
	bool changes_mnt = e->ns_type == NSAUDIT_NS_MNT && (e->flags & NSAUDIT_F_HAS_OLD) &&
			   (e->op == NSAUDIT_OP_SETNS || e->op == NSAUDIT_OP_UNSHARE);

	/* read in BPF at the call where the kernel side has them
	 * (docs/attribution.md), else from /proc now */
	f->actor_pidns = e->actor_pidns ?: a ? a->pidns : 0;
	f->actor_mntns = e->actor_mntns ?: changes_mnt ? e->old_inum : a ? a->mntns : 0;
	if (x->actor_container && strcmp(x->actor_container, "host")) {
		set_ctr(fx->actor_id, sizeof(fx->actor_id), fx->actor_name, sizeof(fx->actor_name),
			x->actor_container, x->actor_container_name);
		known = true;
	} else if (cg) {
		set_ctr(fx->actor_id, sizeof(fx->actor_id), fx->actor_name, sizeof(fx->actor_name),
			cg->ctr, cg->name);
	} else if (fx->names) {
		ci = ns_owner(fx, f);
		/* a container that started moments ago: its state, read now
		 * (rarely: only for what a rule may fire on) */
		if (!ci && (f->target_host || f->target_ctr) && !host_ns_both(fx, f) &&
		    f->now_ns - fx->refreshed_ns > REFRESH_MIN_NS) {
			fx->refreshed_ns = f->now_ns;
			nsnames_refresh_containers(fx->names);
			ci = ns_owner(fx, f);
		}
		if (ci)
			set_ctr(fx->actor_id, sizeof(fx->actor_id), fx->actor_name,
				sizeof(fx->actor_name), ci->id, ci->name);
	}
	if (known || cg || ci) {
		f->actor_ctr = fx->actor_id;
		f->actor_ctr_name = fx->actor_name[0] ? fx->actor_name : NULL;
	}
	/* what only a container has decides: its cgroup, a runtime's state
	 * naming its namespaces, its descent from a runtime's workload (the
	 * kernel side's lineage, at the call). A mount namespace of its own
	 * alone is what any host service gets (PrivateTmp=, unshare -m), and
	 * a pid namespace of its own (unshare -pf) what any root can make:
	 * a process the kernel side followed from its birth that no runtime
	 * made stays the host. Without the kernel's word (it predates the
	 * load), a pid namespace of its own is taken for a container's. */
	if (f->actor_ctr || (e->lineage & NSAUDIT_LINEAGE_CONTAINED))
		f->actor_host = false;
	else if ((e->lineage & NSAUDIT_LINEAGE_FOLLOWED) && !fx->lineage_lost)
		f->actor_host = true;
	else
		f->actor_host = host_pidns(fx, f);
}

/*
 * The owner of the namespace acted on: the record's container when its
 * namespace of that type is this one (docs/attribution.md: by namespace
 * identity), else the runtimes' state. An init that has just entered a
 * namespace does not own it: a container whose init is the actor is no
 * owner (the runtime's first look may have come after the setns).
 */
static const struct container_info *owner_of(struct facts_ctx *fx,
					     const struct nsaudit_event *e,
					     const struct event_extra *x)
{
	const struct container_info *ci = NULL;
	int type = (int)e->ns_type;

	if (x->container)
		ci = nsnames_find_container(fx->names, x->container);
	if (ci && ci->inum[type] == e->ns_inum && ci->pid != e->pid)
		return ci;
	ci = nsnames_owner(fx->names, type, e->ns_inum, e->ns_id);
	return ci && ci->pid != e->pid ? ci : NULL;
}

static void target_facts(struct facts_ctx *fx, const struct nsaudit_event *e,
			 const struct event_extra *x, struct rule_facts *f)
{
	const struct container_info *ci;
	int type = (int)e->ns_type;

	f->has_target = (e->flags & NSAUDIT_F_HAS_NS) && e->ns_inum && type < NSAUDIT_NS_MAX;
	if (!f->has_target)
		return;
	f->target_host = facts_host_ns(fx, type, e->ns_inum);
	if (f->target_host || !fx->names)
		return;
	ci = owner_of(fx, e, x);
	/* entered or pinned: a container that started moments ago is read
	 * now (rare: namespaces neither the host's nor a known container's) */
	if (!ci && (e->op == NSAUDIT_OP_SETNS || e->op == NSAUDIT_OP_OPEN ||
		    e->op == NSAUDIT_OP_NSFD || e->op == NSAUDIT_OP_MOUNT) &&
	    f->now_ns - fx->refreshed_ns > REFRESH_MIN_NS) {
		fx->refreshed_ns = f->now_ns;
		nsnames_refresh_containers(fx->names);
		ci = owner_of(fx, e, x);
	}
	if (!ci) {
		/* no runtime's state knows it (a runtime whose state we are not
		 * given, a container being made): its processes' cgroup names
		 * the owner (attribution_target(): "container:ID") */
		if (!x->ns_container || !x->ns_name || strncmp(x->ns_name, "container:", 10))
			return;
		set_ctr(fx->target_id, sizeof(fx->target_id), fx->target_name,
			sizeof(fx->target_name), x->ns_container, x->ns_container_name);
	} else {
		set_ctr(fx->target_id, sizeof(fx->target_id), fx->target_name,
			sizeof(fx->target_name), ci->id, ci->name);
	}
	f->target_ctr = fx->target_id;
	f->target_ctr_name = fx->target_name[0] ? fx->target_name : NULL;
}

/*
 * Whether the actor's container itself runs in the namespace acted on: its
 * init process is in it now and was when the runtime's state was first
 * read, and the actor is another process (an init that enters a host
 * namespace before anyone looked is escaping, not sharing).
 */
static bool own_ns(struct facts_ctx *fx, const char *ctr, const struct nsaudit_event *e)
{
	const struct container_info *ci;

	if (!fx->names || e->ns_type >= NSAUDIT_NS_MAX)
		return false;
	ci = nsnames_find_container(fx->names, ctr);
	/* the init itself entering it is how it got there: an escape */
	return ci && ci->pid && ci->pid != e->pid && ci->inum[e->ns_type] == e->ns_inum &&
	       facts_proc_ns(ci->pid, nstype_name(e->ns_type)) == e->ns_inum;
}

void facts_fill(struct facts_ctx *fx, const struct nsaudit_event *e, const struct event_extra *x,
		uint64_t seq, struct rule_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->e = e;
	f->x = x;
	f->seq = seq;
	/* a few ms of resolution is plenty for caches of a second and a
	 * de-duplication window of ten; the coarse clock costs a third */
	f->now_ns = now_coarse_ns();
	f->enters = e->op == NSAUDIT_OP_SETNS;
	f->pins = e->op == NSAUDIT_OP_OPEN || e->op == NSAUDIT_OP_NSFD ||
		  e->op == NSAUDIT_OP_MOUNT;
	if (e->op == NSAUDIT_OP_LOST || e->op == NSAUDIT_OP_NS_FREE || e->op == NSAUDIT_OP_FREED)
		return;
	target_facts(fx, e, x, f);
	/* the actor matters only where a rule looks: entering or pinning
	 * something not its own, or making namespaces */
	if (f->enters || f->pins || e->op == NSAUDIT_OP_UNSHARE || e->op == NSAUDIT_OP_CLONE ||
	    e->op == NSAUDIT_OP_QUERY)
		actor_facts(fx, e, x, f);
	else
		f->actor_host = true;
	f->target_own = f->has_target && f->actor_ctr && own_ns(fx, f->actor_ctr, e);
	/* trust costs a look at /proc: only where a rule would fire without
	 * it (a container's actor, or the host pinning a container's) */
	f->trusted = (f->enters || f->pins) && (f->target_host || f->target_ctr || e->result < 0) &&
		     (!f->actor_host || (f->pins && f->target_ctr)) &&
		     facts_trusted(fx, e,
				   !f->actor_host && f->actor_mntns &&
					   !facts_host_ns(fx, NSAUDIT_NS_MNT, f->actor_mntns));
}
