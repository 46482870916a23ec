// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * anchor_json.c - the log's anchors read back from JSON lines: what a
 * "file:" sink writes (one document a line: the flat record, OCSF or ECS)
 * and what "journalctl -o json" prints of the journal sink. A fleet that
 * ships files (Filebeat, Fluent Bit, a SIEM's own agent) keeps its anchors
 * in these forms, not as syslog text.
 *
 * Each form keeps the anchor's fields in a place of its own (docs/formats.md):
 *   flat  {"op":"log","action":"anchor","seq":N,"log_id":...}
 *   OCSF  Base Event, activity_name "log", metadata.sequence N, the rest
 *         under "unmapped"
 *   ECS   event.action "log", event.sequence N, the rest under "nsaudit"
 *   journal  MESSAGE is the anchor's syslog text
 * They are put back into the flat record and turned into the anchor's text
 * (audit_anchor_text), which the same strict parser as a syslog line reads:
 * a document that is not exactly one of the log's anchors is no anchor.
 * Only the document's structure is looked at, never a value's text: a
 * process name spelling an anchor stays a string in a record.
 */
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "anchor.h"

#define DOC_DEPTH 8	/* the deepest of the three forms is 3 */

static struct json_object *member(struct json_object *o, const char *k, enum json_type t)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) && json_object_is_type(v, t) ? v : NULL;
}

static const char *member_str(struct json_object *o, const char *k)
{
	struct json_object *v = member(o, k, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

/*
 * The flat anchor record of doc (a new object), or NULL: fields from bag,
 * with op and seq from where the form keeps them.
 */
static struct json_object *flat_anchor(struct json_object *bag, const char *op,
				       struct json_object *seq)
{
	struct json_object *rec;

	if (!bag || !op || strcmp(op, "log") || !seq)
		return NULL;
	rec = json_object_new_object();
	if (!rec)
		return NULL;
	json_object_object_foreach(bag, k, v)
	{
		if (strcmp(k, "seq"))
			json_object_object_add(rec, k, json_object_get(v));
	}
	json_object_object_add(rec, "seq", json_object_get(seq));
	return rec;
}

static struct json_object *doc_anchor(struct json_object *doc)
{
	struct json_object *bag, *ev;

	if ((bag = member(doc, "unmapped", json_type_object)) &&
	    member(doc, "class_uid", json_type_int))	/* OCSF */
		return flat_anchor(bag, member_str(doc, "activity_name"),
				   member(member(doc, "metadata", json_type_object), "sequence",
					  json_type_int));
	if ((bag = member(doc, "nsaudit", json_type_object)) &&
	    member(doc, "ecs", json_type_object)) {	/* ECS */
		ev = member(doc, "event", json_type_object);
		return flat_anchor(bag, member_str(ev, "action"),
				   member(ev, "sequence", json_type_int));
	}
	return flat_anchor(doc, member_str(doc, "op"), member(doc, "seq", json_type_int));
}

int audit_anchor_json_text(const char *line, size_t len, char *out, size_t outlen)
{
	struct json_tokener *tok;
	struct json_object *doc, *rec;
	const char *msg;
	size_t used;
	int rc = -1;

	/* most lines of a file sink are records: no parse for them */
	if (!memmem(line, len, "anchor", 6) || len > INT32_MAX)
		return -1;
	tok = json_tokener_new_ex(DOC_DEPTH);
	if (!tok)
		return -1;
	doc = json_tokener_parse_ex(tok, line, (int)len);
	used = json_tokener_get_parse_end(tok);
	if (!doc || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(doc, json_type_object))
		goto out;
	while (used < len && strchr(" \r\n", line[used]) && line[used])
		used++;
	if (used != len)	/* one document a line, nothing after it */
		goto out;
	msg = member_str(doc, "MESSAGE");
	if (msg && member_str(doc, "__CURSOR")) {	/* journalctl -o json */
		if (strlen(msg) < outlen && !strncmp(msg, "nsaudit-anchor ", 15)) {
			memcpy(out, msg, strlen(msg) + 1);
			rc = 0;
		}
		goto out;
	}
	rec = doc_anchor(doc);
	if (rec) {
		rc = audit_anchor_text(rec, out, outlen);
		json_object_put(rec);
	}
out:
	json_object_put(doc);
	json_tokener_free(tok);
	return rc;
}
