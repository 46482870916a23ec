// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_json.c - the JSON lines format: any JSON value written with the
 * escaping of codec_escape.c, a record encoded as one line, and a strict
 * parser for one line that turns \u0000..\u00ff back into single bytes.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --- parsing ------------------------------------------------------------- */

static int fail(struct cur *c, const char *what)
{
	snprintf(c->err, c->errlen, "%s at byte %td", what, c->p - c->start + 1);
	return -1;
}

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static int hex4(const char *p, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char ch = p[i];

		*v <<= 4;
		if (ch >= '0' && ch <= '9')
			*v |= (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			*v |= (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			*v |= (unsigned)(ch - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void put_utf8(struct sbuf *b, unsigned int cp)
{
	char u[4];

	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		sb_put(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		sb_put(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		sb_put(b, u, 4);
	}
}

/* A JSON string at c->p (on the opening quote) into b. \u0000..\u00ff are
 * single bytes: that is how the writer keeps bytes that are not UTF-8. */
int codec_json_string(struct cur *c, struct sbuf *b)
{
	b->len = 0;
	sb_put(b, "", 0);
	if (c->p >= c->end || *c->p != '"')
		return fail(c, "expected a string");
	c->p++;
	while (c->p < c->end) {
		unsigned char ch = (unsigned char)*c->p;
		unsigned int cp, lo;

		if (ch == '"') {
			c->p++;
			return b->oom ? fail(c, "out of memory") : 0;
		}
		if (ch < 0x20)
			return fail(c, "raw control byte in a string");
		if (ch != '\\') {
			sb_put(b, c->p++, 1);
			continue;
		}
		if (c->end - c->p < 2)
			break;
		c->p++;
		switch (*c->p++) {
		case '"':
			sb_put(b, "\"", 1);
			break;
		case '\\':
			sb_put(b, "\\", 1);
			break;
		case '/':
			sb_put(b, "/", 1);
			break;
		case 'b':
			sb_put(b, "\b", 1);
			break;
		case 'f':
			sb_put(b, "\f", 1);
			break;
		case 'n':
			sb_put(b, "\n", 1);
			break;
		case 'r':
			sb_put(b, "\r", 1);
			break;
		case 't':
			sb_put(b, "\t", 1);
			break;
		case 'u':
			if (c->end - c->p < 4 || hex4(c->p, &cp))
				return fail(c, "bad \\u escape");
			c->p += 4;
			if (cp <= 0xff) {
				char byte = (char)cp;

				sb_put(b, &byte, 1);
				break;
			}
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(c, "lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
				    hex4(c->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
					return fail(c, "lone high surrogate");
				c->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			put_utf8(b, cp);
			break;
		default:
			c->p--;
			return fail(c, "bad escape");
		}
	}
	return fail(c, "unterminated string");
}

struct json_object *codec_json_number(struct cur *c)
{
	const char *s = c->p;
	char buf[64];
	bool is_double = false;
	size_t n;

	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p >= c->end || !isdigit((unsigned char)*c->p))
		return NULL;
	while (c->p < c->end && (isdigit((unsigned char)*c->p) || strchr(".eE+-", *c->p))) {
		if (!isdigit((unsigned char)*c->p))
			is_double = true;
		c->p++;
	}
	n = (size_t)(c->p - s);
	if (n >= sizeof(buf))
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	if (!is_double) {
		char *end;

		if (buf[0] == '-') {
			long long v = strtoll(buf, &end, 10);

			if (!errno && !*end)
				return json_object_new_int64(v);
		} else {
			unsigned long long v = strtoull(buf, &end, 10);

			if (!errno && !*end)
				return v > INT64_MAX ? json_object_new_uint64(v)
						     : json_object_new_int64((int64_t)v);
		}
		return NULL;
	}
	{
		char *end;
		double d = strtod(buf, &end);

		return *end ? NULL : json_object_new_double(d);
	}
}

static int json_value_parse(struct cur *c, struct sbuf *tmp, struct json_object **out)
{
	*out = NULL;
	if (c->p >= c->end)
		return fail(c, "missing value");
	switch (*c->p) {
	case '"':
		if (codec_json_string(c, tmp))
			return -1;
		*out = json_object_new_string_len(tmp->p, (int)tmp->len);
		break;
	case 't':
	case 'f':
	case 'n': {
		static const char *const words[] = {"true", "false", "null"};
		int i;

		for (i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);

			if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, words[i], n)) {
				c->p += n;
				if (i < 2)
					*out = json_object_new_boolean(i == 0);
				return 0;
			}
		}
		return fail(c, "bad value");
	}
	case '{':
	case '[': { /* nested values: only the tracer's future fields, json-c is fine */
		struct json_tokener *tok = json_tokener_new_ex(16);
		int n;

		if (!tok)
			return fail(c, "out of memory");
		*out = json_tokener_parse_ex(tok, c->p, (int)(c->end - c->p));
		n = (int)json_tokener_get_parse_end(tok);
		json_tokener_free(tok);
		if (!*out)
			return fail(c, "bad nested value");
		c->p += n;
		return 0;
	}
	default:
		*out = codec_json_number(c);
		if (!*out)
			return fail(c, "bad value");
	}
	return *out ? 0 : fail(c, "out of memory");
}

int codec_json_mac_tail(const char *line, size_t len, struct audit_rec *r, size_t *tail)
{
	/* ,"mac":"<64 hex>"} (BLAKE2b) or ,"mac":"<32 hex>"} (Poly1305): the
	 * two cannot be mistaken for each other (the longer window would hold
	 * the quotes and colon of the shorter one's prefix) */
	static const char pre[] = ",\"mac\":\"";
	size_t ml;

	for (ml = AUDIT_MAC_LEN; ml >= AUDIT_TAG_LEN; ml -= AUDIT_MAC_LEN - AUDIT_TAG_LEN) {
		*tail = sizeof(pre) - 1 + 2 * ml + 2;
		if (len >= *tail + 2 && !memcmp(line + len - *tail, pre, sizeof(pre) - 1) &&
		    !memcmp(line + len - 2, "\"}", 2) &&
		    !audit_unhex(line + len - 2 * ml - 2, 2 * ml, r->mac, ml))
			break;
	}
	if (ml < AUDIT_TAG_LEN)
		return -1;
	r->mac_len = ml;
	r->body_len = len - *tail;
	return 0;
}

int codec_parse_json(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	struct cur c = {line, line + len, err, errlen, line};
	struct sbuf key = {0}, tmp = {0};
	struct json_object *v;
	bool have_mac = false;
	int rc = -1;
	size_t tail;

	if (codec_json_mac_tail(line, len, r, &tail)) {
		snprintf(err, errlen,
			 "no MAC at the end of the record (cut short or not a record)");
		return -1;
	}
	r->obj = json_object_new_object();
	if (!r->obj)
		return fail(&c, "out of memory");
	if (*c.p++ != '{')
		return fail(&c, "not a JSON object");
	ws(&c);
	for (;;) {
		if (codec_json_string(&c, &key))
			goto out;
		if (memchr(key.p, '\0', key.len)) {
			fail(&c, "NUL in a field name");
			goto out;
		}
		ws(&c);
		if (c.p >= c.end || *c.p++ != ':') {
			fail(&c, "expected ':'");
			goto out;
		}
		ws(&c);
		if (json_value_parse(&c, &tmp, &v))
			goto out;
		if (!strcmp(key.p, "mac")) {
			/* only as the last member, where the MAC check looked */
			json_object_put(v);
			if (c.p != c.end - 1) {
				fail(&c, "\"mac\" before the end of the record");
				goto out;
			}
			have_mac = true;
		} else {
			if (json_object_object_get_ex(r->obj, key.p, NULL)) {
				json_object_put(v);
				snprintf(err, errlen, "duplicate field \"%.40s\"", key.p);
				goto out;
			}
			json_object_object_add(r->obj, key.p, v);
		}
		ws(&c);
		if (c.p < c.end && *c.p == ',') {
			c.p++;
			ws(&c);
			continue;
		}
		if (c.p < c.end && *c.p == '}' && c.p + 1 == c.end)
			break;
		fail(&c, "expected ',' or the end of the object");
		goto out;
	}
	if (!have_mac) {
		fail(&c, "no MAC field");
		goto out;
	}
	r->fmt = AUDIT_FMT_JSON;
	rc = 0;
out:
	sb_free(&key);
	sb_free(&tmp);
	return rc;
}
