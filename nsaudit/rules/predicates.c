// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * predicates.c - the conditions of one's own rules and of exceptions, over
 * a record's facts (facts.h): every given condition must hold.
 */
#include <string.h>

#include "rules_impl.h"

void cond_init(struct rule_cond *c)
{
	memset(c, 0, sizeof(*c));
	c->ns_type = -1;
}

/* "host", a container's id, a 12+ character id prefix, or its name */
static bool ctr_is(const char *want, const char *id, const char *name, bool host)
{
	size_t n = strlen(want);

	if (!strcmp(want, "host"))
		return host;
	if (!id)
		return false;
	return !strcmp(want, id) || (n >= 12 && !strncmp(want, id, n)) ||
	       (name && !strcmp(want, name));
}

static bool tri(enum cond_bool c, bool v)
{
	return c == COND_ANY || (c == COND_TRUE) == v;
}

static bool same_container(const struct rule_facts *f)
{
	if (f->actor_host)
		return f->target_host;
	return f->actor_ctr && f->target_ctr && !strcmp(f->actor_ctr, f->target_ctr);
}

/* the record's own fields */
static bool record_match(const struct rule_cond *c, const struct rule_facts *f)
{
	const struct nsaudit_event *e = f->e;

	if (c->op && (int)e->op != c->op)
		return false;
	if (c->ns_type >= 0 && (int)e->ns_type != c->ns_type)
		return false;
	if (!tri(c->result, e->result >= 0))
		return false;
	if (c->error && e->result != -c->error)
		return false;
	if (c->has_uid && e->uid != c->uid)
		return false;
	if (c->has_euid && e->euid != c->euid)
		return false;
	if (c->ns_inum && !(f->has_target && e->ns_inum == c->ns_inum) &&
	    !((e->flags & NSAUDIT_F_HAS_OLD) && e->old_inum == c->ns_inum))
		return false;
	if (c->comm[0] && strncmp(e->comm, c->comm, sizeof(e->comm)))
		return false;
	if (c->exe[0] && !(f->x->exe && !strcmp(f->x->exe, c->exe)))
		return false;
	return true;
}

bool cond_match(const struct rule_cond *c, const struct rule_facts *f)
{
	if (!record_match(c, f))
		return false;
	if (c->actor_container[0] &&
	    !ctr_is(c->actor_container, f->actor_ctr, f->actor_ctr_name, f->actor_host))
		return false;
	if (c->target_container[0] &&
	    !ctr_is(c->target_container, f->target_ctr, f->target_ctr_name, f->target_host))
		return false;
	if (c->container[0] &&
	    !ctr_is(c->container, f->actor_ctr, f->actor_ctr_name, f->actor_host) &&
	    !ctr_is(c->container, f->target_ctr, f->target_ctr_name, f->target_host))
		return false;
	return tri(c->host, f->target_host) && tri(c->actor_host, f->actor_host) &&
	       tri(c->same_container, same_container(f)) && tri(c->trusted, f->trusted);
}
