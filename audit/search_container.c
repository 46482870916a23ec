// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search_container.c - which container --container means: its id, its
 * name, or a prefix of its id as docker accepts them (12 characters and
 * fewer), among the containers the log saw. A prefix two containers share
 * and a container the log never saw are errors that list the candidates,
 * never a silent empty answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "search.h"

static void add(struct audit_containers *c, const char *id, size_t il, const char *name,
		size_t nl)
{
	size_t i;

	if (!id || !il || il >= sizeof(c->v[0].id) || nl >= sizeof(c->v[0].name))
		return;
	for (i = 0; i < c->n; i++)
		if (strlen(c->v[i].id) == il && !memcmp(c->v[i].id, id, il)) {
			if (name && nl && !c->v[i].name[0])
				memcpy(c->v[i].name, name, nl);
			return;
		}
	if (c->n >= 4096 || ARRAY_RESERVE(&c->v, &c->cap, c->n + 1))
		return;
	memset(&c->v[c->n], 0, sizeof(c->v[0]));
	memcpy(c->v[c->n].id, id, il);
	if (name && nl)
		memcpy(c->v[c->n].name, name, nl);
	c->n++;
}

void audit_containers_add_rec(struct audit_containers *c, const struct audit_rec *r)
{
	static const char *const pairs[][2] = { { "container", "container_name" },
						{ "ns_container", "ns_container_name" },
						{ "actor_container", "actor_container_name" } };
	size_t i, il, nl = 0;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *id = audit_rec_str(r, pairs[i][0], &il);
		const char *name = audit_rec_str(r, pairs[i][1], &nl);

		if (id && strcmp(id, "host"))
			add(c, id, il, name, name ? nl : 0);
	}
}

/* "name (id12), ..." of the containers whose index is in which, into err */
static void list(const struct audit_containers *c, const bool *which, char *err, size_t errlen)
{
	size_t i, used = strlen(err), shown = 0;

	for (i = 0; i < c->n && used + 100 < errlen; i++) {
		if (which && !which[i])
			continue;
		used += (size_t)snprintf(err + used, errlen - used, "%s%s%s%.12s%s",
					 shown++ ? ", " : "", c->v[i].name,
					 c->v[i].name[0] ? " (" : "", c->v[i].id,
					 c->v[i].name[0] ? ")" : "");
	}
	if (i < c->n)
		snprintf(err + used, errlen - used, ", ...");
}

int audit_containers_resolve(const struct audit_containers *c, const char *want,
			     const char **id, char *err, size_t errlen)
{
	size_t i, wl = strlen(want), hits = 0, hit = 0;
	bool *which;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].id, want) || !strcmp(c->v[i].name, want)) {
			*id = c->v[i].id;
			return 0;
		}
	which = calloc(c->n + 1, sizeof(*which));
	if (!which) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < c->n; i++)
		if (!strncmp(c->v[i].id, want, wl)) {
			which[i] = true;
			hits++;
			hit = i;
		}
	if (hits == 1) {
		*id = c->v[hit].id;
		free(which);
		return 0;
	}
	if (hits) {
		snprintf(err, errlen, "--container %.64s: %zu containers have that id prefix: ", want,
			 hits);
		list(c, which, err, errlen);
	} else if (c->n) {
		snprintf(err, errlen, "--container %.64s: no such container in this log; it saw: ",
			 want);
		list(c, NULL, err, errlen);
	} else {
		snprintf(err, errlen, "--container %.64s: this log has no container records", want);
	}
	free(which);
	return hits ? -2 : -1;
}

void audit_containers_free(struct audit_containers *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
