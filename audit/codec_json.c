// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_json.c - the JSON lines format, writing: any JSON value with the
 * escaping of codec_escape.c, a record encoded as one line. The one reader
 * of such a line is codec_json_read.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "codec.h"
#include "codec_impl.h"

/* --- writing ------------------------------------------------------------- */

void codec_json_value(struct sbuf *b, struct json_object *v, int depth)
{
	if (depth > 16) { /* the tracer's records are flat; refuse to recurse forever */
		sb_puts(b, "null");
		return;
	}
	switch (json_object_get_type(v)) {
	case json_type_null:
		sb_puts(b, "null");
		break;
	case json_type_boolean:
		sb_puts(b, json_object_get_boolean(v) ? "true" : "false");
		break;
	case json_type_int: /* json-c prints int64 and uint64 exactly */
		sb_puts(b, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		break;
	case json_type_double:
		if (isfinite(json_object_get_double(v)))
			sb_printf(b, "%.17g", json_object_get_double(v));
		else
			sb_puts(b, "null");
		break;
	case json_type_string:
		sb_put(b, "\"", 1);
		audit_json_escape(b, json_object_get_string(v),
				  (size_t)json_object_get_string_len(v));
		sb_put(b, "\"", 1);
		break;
	case json_type_array: {
		size_t i, n = json_object_array_length(v);

		sb_put(b, "[", 1);
		for (i = 0; i < n; i++) {
			if (i)
				sb_put(b, ",", 1);
			codec_json_value(b, json_object_array_get_idx(v, i), depth + 1);
		}
		sb_put(b, "]", 1);
		break;
	}
	case json_type_object: {
		bool first = true;

		sb_put(b, "{", 1);
		json_object_object_foreach(v, k, val)
		{
			if (!first)
				sb_put(b, ",", 1);
			first = false;
			sb_put(b, "\"", 1);
			audit_json_escape(b, k, strlen(k));
			sb_put(b, "\":", 2);
			codec_json_value(b, val, depth + 1);
		}
		sb_put(b, "}", 1);
		break;
	}
	}
}

void audit_json_object(struct sbuf *b, struct json_object *o)
{
	codec_json_value(b, o, 0);
}

/* {"seq":N,...,"mac":"HEX"}: the MAC covers everything before ,"mac" */
void codec_encode_json(struct json_object *rec, uint64_t seq, struct audit_chain *c,
		       const uint8_t *prev, struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN])
{
	char machex[AUDIT_MAC_HEX + 1];
	size_t body;

	sb_printf(out, "{\"seq\":%" PRIu64, seq);
	json_object_object_foreach(rec, k, v)
	{
		if (!strcmp(k, "seq") || !strcmp(k, "mac"))
			continue;
		sb_put(out, ",\"", 2);
		audit_json_escape(out, k, strlen(k));
		sb_put(out, "\":", 2);
		codec_json_value(out, v, 0);
	}
	body = out->len;
	audit_chain_mac(c, seq, prev, out->p, body, mac);
	audit_hex(mac, audit_chain_maclen(c->kind), machex);
	sb_printf(out, ",\"mac\":\"%s\"}\n", machex);
}
