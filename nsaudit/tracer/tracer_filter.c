// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_filter.c - trace and record filter with search's filter
 * (audit/search.h): an event and what user space added, seen under the
 * log's field names, so that --pid, --uid, --comm mean the same in all
 * three commands, and apply to every record kind the tracer makes (those
 * of the kernel and those user space makes, as the umounts of a mount
 * namespace that died). A record without the field does not match: an
 * empty comm is not "ip". Lost records pass: a filter never hides a loss.
 */
#include <stdio.h>
#include <string.h>

#include "enrich/containers.h"
#include "enrich/nsnames.h"
#include "nstype.h"
#include "search.h"
#include "tracer_impl.h"

static const char *ev_str(const void *rec, const char *key, size_t *len)
{
	const struct enriched_event *r = rec;
	const struct nsaudit_event *e = r->e;
	const struct event_extra *x = r->x;
	const char *v = NULL;

	if (!strcmp(key, "op"))
		v = op_name(e->op);
	else if (!strcmp(key, "ns_type"))
		v = e->ns_type < NSAUDIT_NS_MAX ? nstype_name(e->ns_type) : NULL;
	else if (!strcmp(key, "comm"))
		v = e->op == NSAUDIT_OP_LOST ? NULL : e->comm;
	else if (!strcmp(key, "exe"))
		v = x->exe;
	else if (!strcmp(key, "container"))
		v = x->container;
	else if (!strcmp(key, "container_name"))
		v = x->container_name;
	else if (!strcmp(key, "ns_name"))
		v = x->ns_name;
	else if (!strcmp(key, "old_name"))
		v = x->old_name;
	if (v && len)
		*len = key[0] == 'c' && key[1] == 'o' && key[2] == 'm' ?
			       strnlen(v, sizeof(e->comm)) : strlen(v);
	return v;
}

static bool ev_num(const void *rec, const char *key, int64_t *v)
{
	const struct nsaudit_event *e = ((const struct enriched_event *)rec)->e;
	bool has_ns = e->flags & NSAUDIT_F_HAS_NS, has_old = e->flags & NSAUDIT_F_HAS_OLD;

	if (e->op != NSAUDIT_OP_LOST && !strcmp(key, "pid"))
		*v = e->pid;
	else if (e->op != NSAUDIT_OP_LOST && !strcmp(key, "uid"))
		*v = e->uid;
	else if (!strcmp(key, "result"))
		*v = e->op == NSAUDIT_OP_OPEN && e->result > 0 ? 0 : e->result;
	else if (has_ns && !strcmp(key, "ns_inum"))
		*v = e->ns_inum;
	else if (has_ns && e->ns_id && !strcmp(key, "ns_id"))
		*v = (int64_t)e->ns_id;
	else if (has_old && !strcmp(key, "old_inum"))
		*v = e->old_inum;
	else if (has_old && e->old_ns_id && !strcmp(key, "old_ns_id"))
		*v = (int64_t)e->old_ns_id;
	else
		return false;
	return true;
}

bool stream_filter_match(const struct tracer *t, const struct nsaudit_event *e,
			 const struct event_extra *x)
{
	struct enriched_event r = { .e = e, .x = x };
	struct audit_view v = { .str = ev_str, .num = ev_num, .rec = &r, .seq = x->seq };

	if (e->op == NSAUDIT_OP_LOST)
		return true;
	return audit_filter_match_view(&t->o.filter, &v);
}

bool stream_comm_may_match(const struct tracer *t, const char *comm)
{
	size_t i;

	if (!t->o.filter.n_comm)
		return true;
	for (i = 0; i < t->o.filter.n_comm; i++)
		if (!strncmp(comm, t->o.filter.comm[i], NSAUDIT_COMM_LEN))
			return true;
	return false;
}

int containers_resolve(struct containers *c, const char *want,
		       const struct container_info **out, char *list, size_t len)
{
	const struct container_info *ci;
	size_t wl = strlen(want), used = 0;
	int i, hits = 0, n = containers_count(c);
	bool ambiguous;

	*out = containers_find(c, want);
	if (*out)
		return 0;
	for (i = 0; wl && i < n; i++)
		if (!strncmp(containers_at(c, i)->id, want, wl)) {
			*out = containers_at(c, i);
			hits++;
		}
	if (hits == 1)
		return 0;
	ambiguous = hits > 1;
	*out = NULL;
	list[0] = '\0';
	for (i = 0; i < n && used + 100 < len; i++) {
		ci = containers_at(c, i);
		if (ambiguous && strncmp(ci->id, want, wl))
			continue;
		used += (size_t)snprintf(list + used, len - used, "%s%s%s%.12s%s", used ? ", " : "",
					 ci->name, ci->name[0] ? " (" : "", ci->id,
					 ci->name[0] ? ")" : "");
	}
	if (!used)
		snprintf(list, len, "none running");
	return ambiguous ? -2 : -1;
}

int tracer_container_resolve(struct tracer *t, char *err, size_t errlen)
{
	const struct container_info *ci;
	char list[512];
	int rc;

	if (!t->o.container[0])
		return 0;
	nsnames_refresh_containers(t->names);
	rc = nsnames_containers(t->names) ?
		     containers_resolve(nsnames_containers(t->names), t->o.container, &ci, list,
					sizeof(list)) :
		     (snprintf(list, sizeof(list), "no runtime state here"), -1);
	if (rc == -2) {
		snprintf(err, errlen, "--container %.64s: several containers have that id prefix: %s",
			 t->o.container, list);
		return -1;
	}
	/*
	 * Not there yet: it may be the one to watch start. The first container
	 * that starts with that name, that id or a 12+ character prefix of it
	 * is the one traced, by its id from then on (stream_container_started): a
	 * later one that reuses the name is another container.
	 */
	if (rc) {
		t->stream.container_waiting = true;
		fprintf(stderr, "nsaudit: --container %.64s: not running now (running: %s); "
			"waiting: the first container to start with that name, or that id (12+ "
			"characters of it), is the one traced, by its id; said when it starts\n",
			t->o.container, list);
	} else {
		snprintf(t->o.container, sizeof(t->o.container), "%s", ci->id);
	}
	return 0;
}

bool stream_container_started(struct tracer *t, const struct event_extra *x)
{
	const char *want = t->o.container;
	const struct container_info *ci;
	size_t n = strlen(want);

	if (!x->container)	/* not known yet to be a container's */
		return false;
	if (strcmp(x->container, want) && (n < 12 || strncmp(x->container, want, n)) &&
	    !(x->container_name && !strcmp(x->container_name, want))) {
		/* a record that knows the id only, of a container named so */
		ci = nsnames_find_container(t->names, want);
		if (!ci || strcmp(ci->id, x->container))
			return false;
	}
	fprintf(stderr, "nsaudit: --container %.64s: it started: container %.64s%s%.64s%s; "
		"tracing that one, by its id\n", want, x->container,
		x->container_name ? " (" : "", x->container_name ? x->container_name : "",
		x->container_name ? ")" : "");
	snprintf(t->o.container, sizeof(t->o.container), "%s", x->container);
	t->stream.container_waiting = false;
	return true;
}
