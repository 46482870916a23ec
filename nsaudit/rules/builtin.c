// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * builtin.c - the built-in rules: what each matches and its summary line.
 * Ids are stable (alerts are searched and tuned by them); docs/rules.md
 * has a section per rule. Facts come from facts.h only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nstype.h"
#include "rules_impl.h"
#include "array.h"

const char rules_help[] =
	"container-escape (crit), cross-container (err), attempted-escape (warning),\n"
	"persistence (warning), userns-privilege (info)";

/* "container web (0123456789ab)", "the host", "a process in pid:[N]" */
static void who(const struct rule_facts *f, char *buf, size_t len)
{
	if (f->actor_ctr)
		snprintf(buf, len, "container %s%s%.12s%s", f->actor_ctr_name ?: "",
			 f->actor_ctr_name ? " (" : "", f->actor_ctr, f->actor_ctr_name ? ")" : "");
	else if (f->actor_host)
		snprintf(buf, len, "the host");
	else
		snprintf(buf, len, "a process in pid:[%u] mnt:[%u]", f->actor_pidns,
			 f->actor_mntns);
}

static void whose(const struct rule_facts *f, char *buf, size_t len)
{
	if (f->target_host)
		snprintf(buf, len, "the host's");
	else if (f->target_ctr)
		snprintf(buf, len, "container %s%s%.12s%s's", f->target_ctr_name ?: "",
			 f->target_ctr_name ? " (" : "", f->target_ctr,
			 f->target_ctr_name ? ")" : "");
	else	/* "a net namespace", "an ipc namespace" */
		snprintf(buf, len, "%s", f->e->ns_type == NSAUDIT_NS_IPC ? "an" : "a");
}

/* "entered" / "pinned (open)" ... */
static const char *verb(const struct nsaudit_event *e)
{
	switch (e->op) {
	case NSAUDIT_OP_SETNS:
		return "entered";
	case NSAUDIT_OP_OPEN:
		return "opened (pinned)";
	case NSAUDIT_OP_MOUNT:
		return "bind-mounted (pinned)";
	case NSAUDIT_OP_NSFD:
		return "got an fd to (pinned)";
	default:
		return op_name(e->op) ?: "touched";
	}
}

static void what(const struct rule_facts *f, char *buf, size_t len)
{
	const struct nsaudit_event *e = f->e;
	const char *type = nstype_name(e->ns_type) ?: "ns", *via = via_name(e->via);
	char ns[48];

	/* without its inode: "an ipc namespace via proc", the type said once */
	if (f->has_target)
		snprintf(ns, sizeof(ns), " %s:[%u]", type, e->ns_inum);
	else
		ns[0] = '\0';
	snprintf(buf, len, "%s namespace%s%s%s", type, ns, via ? " via " : "", via ?: "");
}

static bool escape(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		   struct rule_alert *a)
{
	const struct nsaudit_event *e = f->e;
	char w[CONTAINER_NAME_LEN + 64], n[96];

	/* a namespace its own container runs in (podman shares the host's
	 * cgroup namespace on hybrid hosts; --pid=host) is no way out */
	if (!(f->enters || f->pins) || e->result < 0 || f->actor_host || !f->target_host ||
	    f->target_own || f->trusted)
		return false;
	who(f, w, sizeof(w));
	what(f, n, sizeof(n));
	snprintf(a->summary, sizeof(a->summary), "%s: pid %u (%.16s) %s the host's %s", w, e->pid,
		 e->comm, verb(e), n);
	return true;
}

static bool cross(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		  struct rule_alert *a)
{
	const struct nsaudit_event *e = f->e;
	char w[CONTAINER_NAME_LEN + 64], t[CONTAINER_NAME_LEN + 64], n[96];

	if (!(f->enters || f->pins) || e->result < 0 || !f->actor_ctr || !f->target_ctr ||
	    !strcmp(f->actor_ctr, f->target_ctr) || f->trusted)
		return false;
	who(f, w, sizeof(w));
	whose(f, t, sizeof(t));
	what(f, n, sizeof(n));
	snprintf(a->summary, sizeof(a->summary), "%s: pid %u (%.16s) %s %s %s", w, e->pid, e->comm,
		 verb(e), t, n);
	return true;
}

static bool attempted(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		      struct rule_alert *a)
{
	const struct nsaudit_event *e = f->e;
	char w[CONTAINER_NAME_LEN + 64], t[CONTAINER_NAME_LEN + 64], n[96], tp[32] = "";
	bool own;

	/* ESTALE: a handle naming a namespace the caller may not see (a
	 * cap-less container's handle of the host's): an attempt by handle
	 * is an attempt, when the handle names whose it is */
	bool stale = e->result == -ESTALE && e->via == NSAUDIT_VIA_HANDLE &&
		     (f->target_host || f->target_ctr);

	if (!(f->enters || f->pins || e->op == NSAUDIT_OP_QUERY) ||
	    (e->result != -EPERM && e->result != -EACCES && !stale) || f->actor_host ||
	    f->trusted)
		return false;
	/* its own container's namespace: no escape, whatever the reason */
	own = f->target_own ||
	      (f->has_target && f->actor_ctr && f->target_ctr && !strcmp(f->actor_ctr, f->target_ctr));
	if (own)
		return false;
	who(f, w, sizeof(w));
	whose(f, t, sizeof(t));
	what(f, n, sizeof(n));
	if (e->target_pid)
		snprintf(tp, sizeof(tp), " of pid %d", e->target_pid);
	snprintf(a->summary, sizeof(a->summary), "%s: pid %u (%.16s) was refused (%s) %s %s %s%s",
		 w, e->pid, e->comm, strerrorname_np(-e->result) ?: "?",
		 e->op == NSAUDIT_OP_SETNS ? "entering" : "pinning", t, n, tp);
	return true;
}

static bool userns(struct rules *r, const struct rule *rule, const struct rule_facts *f,
		   struct rule_alert *a)
{
	const struct nsaudit_event *e = f->e;

	if ((e->op != NSAUDIT_OP_UNSHARE && e->op != NSAUDIT_OP_CLONE) || e->result < 0 ||
	    (e->ns_type != NSAUDIT_NS_MNT && e->ns_type != NSAUDIT_NS_CGROUP) || !e->uid)
		return false;
	/* an unprivileged user can make these only in a user namespace of its own */
	snprintf(a->summary, sizeof(a->summary),
		 "uid %u: pid %u (%.16s) made a %s namespace in a user namespace of its own "
		 "(first step of cgroup release_agent / mount escapes; rootless containers do the "
		 "same)",
		 e->uid, e->pid, e->comm, nstype_name(e->ns_type) ?: "?");
	return true;
}

static const struct {
	const char *id;
	int severity;
	bool enabled;
	rule_match_fn match;
} builtin[] = {
	{ "container-escape", RULE_SEV_CRIT, true, escape },
	{ "cross-container", RULE_SEV_ERR, true, cross },
	{ "attempted-escape", RULE_SEV_WARNING, true, attempted },
	/* time-driven (persist.c): no per-record test */
	{ "persistence", RULE_SEV_WARNING, true, NULL },
	{ "userns-privilege", RULE_SEV_INFO, true, userns },
};

void builtin_rules_add(struct rules *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtin); i++) {
		struct rule *ru = rules_add(r, builtin[i].id);

		if (!ru)
			return;
		ru->severity = builtin[i].severity;
		ru->enabled = builtin[i].enabled;
		ru->builtin = true;
		ru->match = builtin[i].match;
	}
}
