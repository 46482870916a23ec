// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sink_doc.c - a record as the JSON document a sink's ",format=" asks for:
 * the flat record, OCSF (ocsf.c) or ECS (ecs.c), one line with the log's
 * JSON escaping (never invalid UTF-8), the same bytes "trace --format"
 * writes.
 */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "ecs.h"
#include "ocsf.h"
#include "sink_impl.h"

char *sink_doc(struct json_object *rec, enum sink_fmt fmt, size_t *len)
{
	struct json_object *doc = rec;
	struct sbuf b = { 0 };

	if (fmt == SINK_FMT_OCSF)
		doc = ocsf_event(rec);
	else if (fmt == SINK_FMT_ECS)
		doc = ecs_event(rec);
	if (!doc)
		return NULL;
	audit_json_object(&b, doc);
	if (doc != rec)
		json_object_put(doc);
	sb_put(&b, "", 1);
	if (b.oom) {
		sb_free(&b);
		return NULL;
	}
	*len = b.len - 1;
	return b.p;
}
