/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * event_json.h - a kernel record, enriched, as a flat JSON object, and the
 * readable one-line text form of such an object.
 */
#ifndef NSAUDIT_EVENT_JSON_H
#define NSAUDIT_EVENT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "nsaudit.h"

/* What user space adds to a kernel record (see enrich.h). */
struct event_extra {
	uint64_t seq;
	int64_t realtime_ns;	/* wall-clock time of the event */
	const char *exe;	/* NULL if unknown */
	const char *cgroup;	/* NULL if unknown */
	const char *ns_name;	/* NULL if unnamed */
	const char *old_name;
	const char *container;	/* the container the record is about (id), or NULL */
	const char *container_name; /* podman's name of it, or NULL */
	const char *unresolved;	/* what enrichment could not complete, and why */
	const char *cause;	/* a record user space made: what happened */
};

/* A new json object for the record; never NULL except on ENOMEM. */
struct json_object *event_to_json(const struct nsaudit_event *e, const struct event_extra *x);

/*
 * Add a string field from untrusted bytes (comm, paths). Valid UTF-8 is
 * stored as is (json-c escapes quotes, backslashes and control bytes);
 * otherwise invalid bytes become U+FFFD and KEY_hex carries the exact bytes,
 * so nothing is lost and the output is always valid JSON.
 */
void json_add_bytes(struct json_object *o, const char *key, const char *s, size_t maxlen);

/* RFC 3339 UTC with nanoseconds: 2026-12-03T08:40:00.123456789Z */
void format_rfc3339(int64_t realtime_ns, char *buf, size_t len);

/* The one-line JSON text of a record (no newline inside, ever). */
const char *record_to_json_line(struct json_object *rec);

/* One readable line (with newline), lsns vocabulary: net:[4026531833]. */
void record_print_text(FILE *f, struct json_object *rec, bool colour);

#endif
