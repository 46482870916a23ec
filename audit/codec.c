// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec.c - one record <-> one line: picks the format's encoder and parser
 * and gives typed access to a parsed record. The parts, one concern each:
 *
 *   codec_buf.c     growable byte buffer
 *   codec_escape.c  untrusted bytes for JSON, auditd fields, terminals
 *   codec_time.c    RFC 3339 timestamps
 *   codec_json.c    JSON lines: writer and parser
 *   codec_audit.c   auditd style: writer and parser
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "codec.h"
#include "codec_impl.h"

int audit_encode_chain(enum audit_format fmt, struct json_object *rec, uint64_t seq,
		       struct audit_chain *c, const uint8_t *prev, struct sbuf *out,
		       uint8_t mac[AUDIT_MAC_LEN])
{
	out->len = 0;
	if (fmt == AUDIT_FMT_JSON)
		codec_encode_json(rec, seq, c, prev, out, mac);
	else
		codec_encode_audit(rec, seq, c, prev, out, mac);
	if (out->oom || out->len > AUDIT_MAX_LINE)
		return -1;
	return 0;
}

int audit_encode(enum audit_format fmt, struct json_object *rec, uint64_t seq,
		 const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		 struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN])
{
	struct audit_chain c;
	int rc;

	audit_chain_init(&c, AUDIT_MAC_BLAKE2B, key, NULL);
	rc = audit_encode_chain(fmt, rec, seq, &c, prev, out, mac);
	audit_chain_wipe(&c);
	return rc;
}

int audit_rec_parse(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	struct json_object *seq;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!len) {
		snprintf(err, errlen, "empty line");
		return -1;
	}
	if (len > AUDIT_MAX_LINE) {
		snprintf(err, errlen, "line longer than %u bytes", AUDIT_MAX_LINE);
		return -1;
	}
	if (memchr(line, '\0', len)) {
		snprintf(err, errlen, "NUL byte in the line (binary data, not a record)");
		return -1;
	}
	if (line[0] == '{')
		rc = codec_parse_json(line, len, r, err, errlen);
	else if (line[0] == 't')
		rc = codec_parse_audit(line, len, r, err, errlen);
	else {
		snprintf(err, errlen, "not a record (starts with neither '{' nor 'type=')");
		rc = -1;
	}
	if (!rc && (!json_object_object_get_ex(r->obj, "seq", &seq) ||
		    !json_object_is_type(seq, json_type_int) || json_object_get_int64(seq) < 1)) {
		snprintf(err, errlen, "no valid \"seq\"");
		rc = -1;
	}
	if (rc) {
		audit_rec_free(r);
		return -1;
	}
	r->seq = json_object_get_uint64(seq);
	return 0;
}

void audit_rec_free(struct audit_rec *r)
{
	json_object_put(r->obj);
	r->obj = NULL;
}

const char *audit_rec_str(const struct audit_rec *r, const char *key, size_t *len)
{
	struct json_object *v;
	const char *s = NULL;

	if (r->raw) /* no field read: none to answer */
		return NULL;
	if (r->flat) {
		const struct audit_flat_field *f = audit_flat_get(r->flat, key);

		if (!f || f->type != AUDIT_FLAT_STR)
			return NULL;
		if (len)
			*len = f->vlen;
		return f->val;
	}
	if (!r->obj) {	/* a light record: time and op only */
		if (!strcmp(key, "time"))
			s = r->light_time;
		else if (!strcmp(key, "op"))
			s = r->light_op;
		if (s && len)
			*len = strlen(s);
		return s;
	}
	if (!json_object_object_get_ex(r->obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	if (len)
		*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

bool audit_rec_int(const struct audit_rec *r, const char *key, int64_t *out)
{
	struct json_object *v;

	if (r->raw)
		return false;
	if (r->flat) {
		const struct audit_flat_field *f = audit_flat_get(r->flat, key);

		if (!f || f->type != AUDIT_FLAT_INT)
			return false;
		*out = audit_flat_int(f);
		/* beyond int64: no int64 (as below), never INT64_MAX */
		if (*out == INT64_MAX && strcmp(f->val, "9223372036854775807"))
			return false;
		return true;
	}
	if (!json_object_object_get_ex(r->obj, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	/* a uint64 beyond int64 is no int64: never clamped to INT64_MAX */
	if (json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > INT64_MAX)
		return false;
	*out = json_object_get_int64(v);
	return true;
}

bool audit_rec_run(const struct audit_rec *r, uint8_t run[AUDIT_RUN_LEN])
{
	size_t n;
	const char *s = audit_rec_str(r, "run", &n);

	return s && !audit_unhex(s, n, run, AUDIT_RUN_LEN);
}
