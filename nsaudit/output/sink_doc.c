// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sink_doc.c - a record as the JSON document a sink's ",format=" asks for:
 * the flat record, OCSF (ocsf.c) or ECS (ecs.c), one line with the log's
 * JSON escaping (never invalid UTF-8), the same bytes "trace --format"
 * writes.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "ecs.h"
#include "host_id.h"
#include "ocsf.h"
#include "record_fmt.h"
#include "sink_impl.h"

static void add_str(struct json_object *o, const char *k, const char *v)
{
	if (v[0] && !json_object_object_get_ex(o, k, NULL))
		json_object_object_add(o, k, json_object_new_string(v));
}

/*
 * The log's anchors and the sink's own messages are not tracer records and
 * carry no host identity: a file shipped off a fleet's host must still say
 * whose they are (the syslog sink puts the same in its structured data). A
 * copy of rec with it at the end, as record_fields() puts it, or rec.
 */
static struct json_object *with_host(struct json_object *rec)
{
	const struct host_id *h = record_host();
	struct json_object *c;

	if (!h || !h->machine_id[0] || json_object_object_get_ex(rec, "machine_id", NULL))
		return json_object_get(rec);
	c = json_object_new_object();
	if (!c)
		return NULL;
	json_object_object_foreach(rec, k, v)
		json_object_object_add(c, k, json_object_get(v));
	add_str(c, "host", h->name);
	add_str(c, "machine_id", h->machine_id);
	add_str(c, "boot_id", h->boot_id);
	return c;
}

char *sink_doc(struct json_object *rec, enum sink_fmt fmt, size_t *len)
{
	struct json_object *doc;
	struct sbuf b = { 0 };

	rec = with_host(rec);
	if (!rec)
		return NULL;
	if (fmt == SINK_FMT_OCSF)
		doc = ocsf_event(rec);
	else if (fmt == SINK_FMT_ECS)
		doc = ecs_event(rec);
	else
		doc = json_object_get(rec);
	json_object_put(rec);
	if (!doc)
		return NULL;
	audit_json_object(&b, doc);
	json_object_put(doc);
	sb_put(&b, "", 1);
	if (b.oom) {
		sb_free(&b);
		return NULL;
	}
	*len = b.len - 1;
	return b.p;
}
