// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders_now.c - what "nsaudit holders" finds about one namespace, for
 * other commands (lifetime): the model (holders_model.c) rendered
 * (holders_json.c, holders_text.c). The one place that calls both: the
 * model never calls its renderers.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "holders_model.h"
#include "enrich/nsnames.h"
#include "nstype.h"

int holders_now(int type, uint32_t inum, const char *indent, json_object **json, uint64_t *ns_id,
		char *err, size_t errlen)
{
	struct model m = {0};
	struct ns_ent *e;
	int ret = 0;

	*ns_id = 0;
	if (json)
		*json = NULL;
	if (model_load(&m, err, errlen)) {
		model_free(&m);
		return -1;
	}
	e = ns_find(&m, type, inum);
	if (e) {
		ret = 1;
		if (e->known)
			*ns_id = e->k.ns_id;
		if (json)
			*json = ns_json(&m, e);
		else {
			print_ns(&m, e, indent, false);
			print_notes(&m, stdout);
		}
	}
	model_free(&m);
	return ret;
}
