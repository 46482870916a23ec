// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_json_read.c - the one reader of a JSON log line.
 *
 * verify's fast path (verify_light.c) checks a record without building it,
 * search's prefilter (search_prefilter.c) looks for needles in the raw
 * bytes, and the full parser builds json-c objects. Were these three
 * readings of a line to differ, a line could verify as intact and be
 * skipped by search as damaged, or be found by one filter and missed by
 * another (`"pid":0123`). So there is one walker over the line, and two
 * ways to run it: audit_json_check() only walks (no allocation but for the
 * key set), codec_parse_json() also builds. What one accepts, so does the
 * other, by construction. audit_json_check() takes a plain, flat line the
 * short way first (codec_json_plain.c), which accepts no line this walk
 * refuses.
 *
 * What it accepts is the writer's spelling (codec_json.c, fields.c) and
 * nothing looser:
 *   - one object, no white space outside strings, "mac" last;
 *   - every key once per object (compared as decoded bytes; a key set
 *     with a keyed hash, so that no crafted line costs more than linear);
 *   - strings: JSON escapes, raw bytes only as valid UTF-8, no raw control
 *     byte (so no raw NUL), no NUL in a key;
 *   - numbers: JSON's grammar, integers without leading zeros and without
 *     "-0", within int64/uint64; fractions finite;
 *   - nesting: containers at most 17 deep inside a field value (the
 *     writer writes anything deeper as null).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "codec_impl.h"

#define MAX_DEPTH 16 /* codec_json_value() writes null below this */

static uint8_t hash_key[crypto_shorthash_KEYBYTES];

__attribute__((constructor)) static void hash_key_init(void)
{
	if (sodium_init() >= 0)
		randombytes_buf(hash_key, sizeof(hash_key));
}

static int fail(struct cur *c, const char *what)
{
	if (c->err)
		snprintf(c->err, c->errlen, "%s at byte %td", what, c->p - c->start + 1);
	return -1;
}

/* --- the keys of one object ---------------------------------------------- */

struct keyset {
	struct sbuf names;	/* each key, then a NUL */
	uint32_t *slot;		/* 0: empty; else offset + 1 into names */
	size_t cap, n;
};

static uint64_t key_hash(const char *s, size_t n)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v;

	crypto_shorthash(h, (const unsigned char *)s, n, hash_key);
	memcpy(&v, h, sizeof(v));
	return v;
}

static void keyset_put(uint32_t *slot, size_t cap, uint64_t h, uint32_t off)
{
	size_t i;

	for (i = h & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
		;
	slot[i] = off + 1;
}

static int keyset_grow(struct keyset *k)
{
	size_t cap = k->cap ? k->cap * 2 : 64, i;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < k->cap; i++) {
		const char *s;

		if (!k->slot[i])
			continue;
		s = k->names.p + k->slot[i] - 1;
		keyset_put(slot, cap, key_hash(s, strlen(s)), k->slot[i] - 1);
	}
	free(k->slot);
	k->slot = slot;
	k->cap = cap;
	return 0;
}

/* 1: new (now in the set), 0: already there, -1: out of memory */
static int keyset_add(struct keyset *k, const char *s, size_t n)
{
	uint64_t h = key_hash(s, n);
	size_t i, off;

	if ((k->n + 1) * 2 > k->cap && keyset_grow(k))
		return -1;
	for (i = h & (k->cap - 1); k->slot[i]; i = (i + 1) & (k->cap - 1)) {
		const char *t = k->names.p + k->slot[i] - 1;

		if (!strncmp(t, s, n) && t[n] == '\0') /* s has no NUL */
			return 0;
	}
	off = k->names.len;
	sb_put(&k->names, s, n);
	sb_put(&k->names, "", 1);
	if (k->names.oom)
		return -1;
	k->slot[i] = (uint32_t)off + 1;
	k->n++;
	return 1;
}

static void keyset_free(struct keyset *k)
{
	sb_free(&k->names);
	free(k->slot);
	memset(k, 0, sizeof(*k));
}

/* --- strings and numbers -------------------------------------------------- */

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

static int json_escape_at(struct cur *c, struct sbuf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned int cp, lo;

	if (c->end - c->p < 2)
		return fail(c, "unterminated string");
	c->p++;
	e = *c->p ? strchr(from, *c->p) : NULL;
	if (e) {
		sb_put(b, to + (e - from), 1);
		c->p++;
		return 0;
	}
	if (*c->p++ != 'u') {
		c->p--;
		return fail(c, "bad escape");
	}
	if (c->end - c->p < 4 || hex4(c->p, &cp))
		return fail(c, "bad \\u escape");
	c->p += 4;
	if (cp <= 0xff) { /* a single byte: how the writer keeps non-UTF-8 */
		char byte = (char)cp;

		sb_put(b, &byte, 1);
		return 0;
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
	return 0;
}

/* A JSON string at c->p (on the opening quote), decoded into b. */
int codec_json_string(struct cur *c, struct sbuf *b)
{
	b->len = 0;
	sb_put(b, "", 0);
	if (c->p >= c->end || *c->p != '"')
		return fail(c, "expected a string");
	c->p++;
	while (c->p < c->end) {
		const char *run = c->p;
		unsigned char ch;
		size_t u;

		/* the common case: plain ASCII, copied in one piece */
		while (c->p < c->end && (unsigned char)*c->p >= 0x20 &&
		       (unsigned char)*c->p < 0x80 && *c->p != '"' && *c->p != '\\')
			c->p++;
		sb_put(b, run, (size_t)(c->p - run));
		if (c->p >= c->end)
			break;
		ch = (unsigned char)*c->p;
		if (ch == '"') {
			c->p++;
			return b->oom ? fail(c, "out of memory") : 0;
		}
		if (ch < 0x20)
			return fail(c, "raw control byte in a string");
		if (ch == '\\') {
			if (json_escape_at(c, b))
				return -1;
			continue;
		}
		u = utf8_len((const unsigned char *)c->p, (size_t)(c->end - c->p));
		if (!u)
			return fail(c, "bytes that are not UTF-8 in a string");
		sb_put(b, c->p, u);
		c->p += u;
	}
	return fail(c, "unterminated string");
}

static bool digit(const struct cur *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

/* One digit or more at c->p: past them; false (c->p unmoved) if none. */
static bool digits(struct cur *c)
{
	if (!digit(c))
		return false;
	while (digit(c))
		c->p++;
	return true;
}

/* JSON's number grammar, integers in their one spelling (no leading zero,
 * no -0) and range, fractions finite; built into *out unless out is NULL.
 * 0, or -1 with c->p unmoved. */
static int scan_number(struct cur *c, struct json_object **out)
{
	const char *s = c->p;
	bool neg = false, frac = false;
	char buf[64], *end;
	size_t n;

	if (c->p < c->end && *c->p == '-') {
		neg = true;
		c->p++;
	}
	if (!digit(c))
		goto bad;
	if (*c->p == '0' && (c->p++, digit(c)))
		goto bad; /* 0123 */
	while (digit(c))
		c->p++;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!digits(c))
			goto bad;
		frac = true;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!digits(c))
			goto bad;
		frac = true;
	}
	n = (size_t)(c->p - s);
	if (n >= sizeof(buf))
		goto bad;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	if (frac) {
		double d = strtod(buf, &end);

		if (*end || !isfinite(d))
			goto bad;
		if (out)
			*out = json_object_new_double(d);
	} else if (neg) {
		long long v = strtoll(buf, &end, 10);

		if (errno || *end || !v)
			goto bad; /* out of range, or -0 */
		if (out)
			*out = json_object_new_int64(v);
	} else {
		unsigned long long v = strtoull(buf, &end, 10);

		if (errno || *end)
			goto bad;
		if (out)
			*out = v > INT64_MAX ? json_object_new_uint64(v)
					     : json_object_new_int64((int64_t)v);
	}
	return 0;
bad:
	c->p = s;
	return -1;
}

struct json_object *codec_json_number(struct cur *c)
{
	struct json_object *v = NULL;

	return scan_number(c, &v) ? NULL : v; /* NULL also when out of memory */
}

/* --- values and objects --------------------------------------------------- */

/* One walk over a line; build: make json-c objects, else only check. */
struct walker {
	struct cur c;
	struct sbuf tmp;
	bool build;
};

static int value(struct walker *w, int depth, struct json_object **out);

static int add(struct walker *w, struct json_object *to, const char *key, struct json_object *v)
{
	if (!w->build)
		return 0;
	if (json_object_is_type(to, json_type_array) ? json_object_array_add(to, v)
						      : json_object_object_add(to, key, v)) {
		json_object_put(v);
		return fail(&w->c, "out of memory");
	}
	return 0;
}

/* "KEY": at w->c.p into k (new, no NUL); its name stays at *off in k */
static int member_key(struct walker *w, struct keyset *k, size_t *off)
{
	int added;

	if (codec_json_string(&w->c, &w->tmp))
		return -1;
	if (memchr(w->tmp.p, '\0', w->tmp.len))
		return fail(&w->c, "NUL in a field name");
	*off = k->names.len;
	added = keyset_add(k, w->tmp.p, w->tmp.len);
	if (added < 0)
		return fail(&w->c, "out of memory");
	if (!added) {
		if (w->c.err)
			snprintf(w->c.err, w->c.errlen, "duplicate field \"%.40s\"", w->tmp.p);
		return -1;
	}
	if (w->c.p >= w->c.end || *w->c.p++ != ':')
		return fail(&w->c, "expected ':'");
	return 0;
}

/* { or [ at w->c.p: its members, each checked like the record's */
static int container(struct walker *w, int depth, struct json_object *to)
{
	bool obj = *w->c.p++ == '{';
	char close = obj ? '}' : ']';
	struct keyset k = {0};
	int rc = -1;

	if (w->c.p < w->c.end && *w->c.p == close) {
		w->c.p++;
		return 0;
	}
	for (;;) {
		struct json_object *v = NULL;
		size_t off = 0;

		if (obj && member_key(w, &k, &off))
			goto out;
		if (value(w, depth + 1, w->build ? &v : NULL) ||
		    add(w, to, obj ? k.names.p + off : NULL, v))
			goto out;
		if (w->c.p < w->c.end && *w->c.p == ',') {
			w->c.p++;
			continue;
		}
		if (w->c.p < w->c.end && *w->c.p == close) {
			w->c.p++;
			rc = 0;
			goto out;
		}
		fail(&w->c, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		goto out;
	}
out:
	keyset_free(&k);
	return rc;
}

static int value(struct walker *w, int depth, struct json_object **out)
{
	static const char *const words[] = {"true", "false", "null"};
	struct cur *c = &w->c;
	int i;

	if (c->p >= c->end)
		return fail(c, "missing value");
	switch (*c->p) {
	case '"':
		if (codec_json_string(c, &w->tmp))
			return -1;
		if (out && !(*out = json_object_new_string_len(w->tmp.p, (int)w->tmp.len)))
			return fail(c, "out of memory");
		return 0;
	case '{':
	case '[':
		if (depth > MAX_DEPTH + 1) /* a field value is at depth 1 */
			return fail(c, "values nested too deep");
		if (out && !(*out = *c->p == '{' ? json_object_new_object()
						 : json_object_new_array()))
			return fail(c, "out of memory");
		if (container(w, depth, out ? *out : NULL)) {
			if (out) {
				json_object_put(*out);
				*out = NULL;
			}
			return -1;
		}
		return 0;
	}
	for (i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, words[i], n)) {
			c->p += n;
			if (out)
				*out = i < 2 ? json_object_new_boolean(i == 0) : NULL;
			return out && i < 2 && !*out ? fail(c, "out of memory") : 0;
		}
	}
	if (scan_number(c, out)) {
		const char *d = c->p + (c->p < c->end && *c->p == '-');

		return fail(c, d + 1 < c->end && *d == '0' && d[1] >= '0' && d[1] <= '9'
				   ? "a number with a leading zero"
				   : "bad value");
	}
	return out && !*out ? fail(c, "out of memory") : 0;
}

/* A positive integer "seq" at the top: r->seq */
static void take_seq(struct audit_rec *r, const char *key, const char *v, const char *end)
{
	struct json_object *n = NULL;
	struct cur c = {v, end, NULL, 0, v};

	if (strcmp(key, "seq") || *v == '-' || scan_number(&c, &n))
		return;
	if (json_object_is_type(n, json_type_int) && json_object_get_uint64(n) >= 1)
		r->seq = json_object_get_uint64(n);
	json_object_put(n);
}

/* The record: the walk over its members, "mac" last where the MAC was found */
static int walk_record(struct walker *w, struct audit_rec *r)
{
	struct keyset k = {0};
	struct cur *c = &w->c;
	int rc = -1;

	if (*c->p++ != '{')
		return fail(c, "not a JSON object");
	for (;;) {
		struct json_object *v = NULL;
		const char *at;
		size_t off;

		if (member_key(w, &k, &off))
			goto out;
		at = c->p;
		if (value(w, 1, w->build ? &v : NULL))
			goto out;
		if (!strcmp(k.names.p + off, "mac")) {
			json_object_put(v); /* only as the last member: see codec_parse_json */
			if (c->p != c->end - 1) {
				fail(c, "\"mac\" before the end of the record");
				goto out;
			}
			rc = 0;
			break;
		}
		take_seq(r, k.names.p + off, at, c->p);
		if (add(w, r->obj, k.names.p + off, v))
			goto out;
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		fail(c, c->p < c->end && *c->p == '}' && c->p + 1 == c->end
				? "no MAC field" : "expected ',' or the end of the object");
		goto out;
	}
out:
	keyset_free(&k);
	return rc;
}

/* ,"mac":"<64 hex>"} (BLAKE2b) or ,"mac":"<32 hex>"} (Poly1305): the two
 * cannot be mistaken for each other (the longer window would hold the
 * quotes and colon of the shorter one's prefix) */
int codec_json_mac_tail(const char *line, size_t len, struct audit_rec *r, size_t *tail)
{
	static const char pre[] = ",\"mac\":\"";
	size_t ml;

	for (ml = AUDIT_MAC_LEN; ml >= AUDIT_TAG_LEN; ml -= AUDIT_MAC_LEN - AUDIT_TAG_LEN) {
		*tail = sizeof(pre) - 1 + 2 * ml + 2;
		if (len >= *tail + 2 && !memcmp(line + len - *tail, pre, sizeof(pre) - 1) &&
		    !memcmp(line + len - 2, "\"}", 2) &&
		    (r ? !audit_unhex(line + len - 2 * ml - 2, 2 * ml, r->mac, ml)
		       : audit_is_hex(line + len - 2 * ml - 2, 2 * ml))) {
			if (r) {
				r->mac_len = ml;
				r->body_len = len - *tail;
			}
			return 0;
		}
	}
	return -1;
}

static int read_line(const char *line, size_t len, struct audit_rec *r, bool build, char *err,
		     size_t errlen)
{
	struct walker w = {{line, line + len, err, errlen, line}, {0}, build};
	size_t tail;
	int rc;

	if (codec_json_mac_tail(line, len, r, &tail)) {
		snprintf(err, errlen, "no MAC at the end of the record (cut short or not a record)");
		return -1;
	}
	if (build && !(r->obj = json_object_new_object())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = walk_record(&w, r);
	sb_free(&w.tmp);
	if (!rc)
		r->fmt = AUDIT_FMT_JSON;
	return rc;
}

int codec_parse_json(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	return read_line(line, len, r, true, err, errlen);
}

int audit_json_check(const char *line, size_t len, uint64_t *seq, char *err, size_t errlen)
{
	struct audit_rec r;
	uint64_t s;

	if (!len || len > AUDIT_MAX_LINE || line[0] != '{') {
		snprintf(err, errlen, "not a JSON record");
		return -1;
	}
	/* a plain, flat line: the structure alone (codec_json_plain.c) */
	if (!codec_json_plain_check(line, len, &s)) {
		if (seq)
			*seq = s;
		return 0;
	}
	memset(&r, 0, sizeof(r));
	if (read_line(line, len, &r, false, err, errlen))
		return -1;
	if (!r.seq) {
		snprintf(err, errlen, "no valid \"seq\"");
		return -1;
	}
	if (seq)
		*seq = r.seq;
	return 0;
}
