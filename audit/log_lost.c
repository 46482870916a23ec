// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * log_lost.c - lost records a full disk held back (--on-full suspend).
 *
 * A dropped record is counted in the disk-full lost record, which names
 * no one. For an ordinary record that is all there is to say (its calls,
 * one actor's). A dropped *lost* record is different: it already counts
 * calls of a named actor (a flooder's, another process's that no --comm
 * filter hides, a sink's), often thousands. Folded into the disk-full
 * count, those calls would read as the workload's own and the names would
 * be gone: a reader summing "this actor's records + lost" would count
 * another actor's calls as this one's. So a dropped lost record is held,
 * merged with an earlier held one of the same actor and reason, and
 * written as soon as there is space again, before the disk-full count.
 * Written late, it says so ("why") and is stamped when written (a time
 * before the epoch it is sealed in would read as key misuse).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "log_impl.h"

/* Fields that differ between two lost records of one actor and reason. */
static const char *const varying[] = { "seq", "time", "mac", "run", "count", "lost_total",
				       "why" };

static bool is_lost(struct json_object *rec)
{
	struct json_object *op;

	return json_object_object_get_ex(rec, "op", &op) &&
	       !strcmp(json_object_get_string(op) ?: "", "lost");
}

/* What a held lost record is keyed by: everything but the varying fields. */
static char *lost_identity(struct json_object *rec)
{
	struct json_object *k = json_object_new_object();
	char *s = NULL;
	size_t i;

	if (!k)
		return NULL;
	json_object_object_foreach(rec, key, val) {
		for (i = 0; i < sizeof(varying) / sizeof(varying[0]); i++)
			if (!strcmp(key, varying[i]))
				break;
		if (i == sizeof(varying) / sizeof(varying[0]))
			json_object_object_add(k, key, json_object_get(val));
	}
	s = strdup(json_object_to_json_string_ext(k, JSON_C_TO_STRING_PLAIN));
	json_object_put(k);
	return s;
}

static uint64_t count_of(struct json_object *rec)
{
	struct json_object *v;

	return json_object_object_get_ex(rec, "count", &v) ? json_object_get_uint64(v) : 0;
}

bool alog_hold_lost(struct audit_log *l, struct json_object *rec)
{
	struct json_object *copy = NULL, *v;
	char *id;
	size_t i;

	if (!is_lost(rec) || !count_of(rec) || !(id = lost_identity(rec)))
		return false;
	for (i = 0; i < l->nheld; i++)
		if (!strcmp(l->held_id[i], id))
			break;
	if (i < l->nheld) {
		struct json_object *h = l->held[i];
		uint64_t sum = count_of(h) + count_of(rec);

		free(id);
		if (sum < count_of(h))
			return false; /* would wrap: the disk-full count takes it */
		json_object_object_add(h, "count", json_object_new_uint64(sum));
		/* the kernel's running total: the newer one; and the record
		 * moves last, so that the newest report is written last (what
		 * a restarted recorder resumes from, log_recover.c) */
		if (json_object_object_get_ex(rec, "lost_total", &v))
			json_object_object_add(h, "lost_total", json_object_get(v));
		id = l->held_id[i];
		memmove(l->held + i, l->held + i + 1, (l->nheld - i - 1) * sizeof(*l->held));
		memmove(l->held_id + i, l->held_id + i + 1,
			(l->nheld - i - 1) * sizeof(*l->held_id));
		l->held[l->nheld - 1] = h;
		l->held_id[l->nheld - 1] = id;
		return true;
	}
	if (l->nheld == ALOG_HELD_LOST || json_object_deep_copy(rec, &copy, NULL)) {
		free(id);
		return false;
	}
	for (i = 0; i < sizeof(varying) / sizeof(varying[0]); i++)
		if (strcmp(varying[i], "count") && strcmp(varying[i], "lost_total"))
			json_object_object_del(copy, varying[i]);
	json_object_object_add(copy, "why",
			       json_object_new_string("disk full: held back, written when "
						      "space was back"));
	l->held[l->nheld] = copy;
	l->held_id[l->nheld++] = id;
	return true;
}

int alog_write_held_lost(struct audit_log *l)
{
	size_t i;
	int rc;

	for (i = 0; i < l->nheld; i++) {
		/* stamped now, also after a failed attempt stamped it */
		json_object_object_del(l->held[i], "time");
		rc = alog_write_rec(l, l->held[i], false);
		if (rc) {
			/* the ones written are gone from the list, the rest wait */
			memmove(l->held, l->held + i, (l->nheld - i) * sizeof(*l->held));
			memmove(l->held_id, l->held_id + i, (l->nheld - i) * sizeof(*l->held_id));
			l->nheld -= i;
			return rc;
		}
		json_object_put(l->held[i]);
		free(l->held_id[i]);
	}
	if (l->nheld)
		fprintf(stderr,
			"nsaudit record: disk space is back: wrote the %zu lost record%s "
			"held back, each naming its actor\n",
			l->nheld, l->nheld == 1 ? "" : "s");
	l->nheld = 0;
	return 0;
}

uint64_t alog_held_calls(const struct audit_log *l)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < l->nheld; i++)
		n += count_of(l->held[i]);
	return n;
}

void alog_free_held_lost(struct audit_log *l)
{
	size_t i;

	for (i = 0; i < l->nheld; i++) {
		json_object_put(l->held[i]);
		free(l->held_id[i]);
	}
	l->nheld = 0;
}
