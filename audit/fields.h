/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fields.h - one record written straight into its line, without an
 * object tree: the seq prefix, the fields as JSON ("key":value) or
 * auditd style (key=value), the chained MAC suffix. This is the hot path
 * of "nsaudit record" and "nsaudit trace --format json".
 *
 * The bytes are exactly those audit_encode() writes for the same record:
 * untrusted strings go through the one JSON escaper (audit_json_escape:
 * quotes, backslash and control bytes escaped, valid UTF-8 kept, every
 * other byte as \u00XX) or auditd's rule (audit_untrusted); numbers are
 * plain decimal. Strings that need no escaping at all (the common case)
 * are copied as they are without calling them: the same bytes, faster.
 *
 * The same calls can fill a json-c object instead (audit_fields_object),
 * for the consumers that want one (sinks, the text renderer): one
 * definition of a record's fields for every output.
 *
 * The per-field functions are inline: called with a literal key, the
 * compiler copies the key with a fixed-size move.
 */
#ifndef NSAUDIT_AUDIT_FIELDS_H
#define NSAUDIT_AUDIT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"

struct json_object;

/* Where the fields of one record go. */
struct audit_fields {
	struct sbuf *b;		 /* a line being written in format fmt, or */
	enum audit_format fmt;
	struct json_object *obj; /* non-NULL: members of this object */
};

/* Fields into the line being written in b (after audit_line_begin). */
void audit_fields_line(struct audit_fields *f, struct sbuf *b, enum audit_format fmt);
/* Fields as members of obj (values hold the exact bytes, unescaped). */
void audit_fields_object(struct audit_fields *f, struct json_object *obj);

/* A record's fields produced on demand: audit_fields_fn in log.h. */

/*
 * Start a record at the end of b: {"seq":N (JSON) or
 * type=NSAUDIT msg=nsaudit(SEC.MSEC:N): (audit; time_ns is the record's
 * time). The fields follow, then audit_line_end or audit_line_close.
 */
void audit_line_begin(struct sbuf *b, enum audit_format fmt, uint64_t seq, int64_t time_ns);

/*
 * Seal the record that starts at offset start of b: the chained MAC over
 * prev || its bytes so far (the definition in chain.h), then the mac field
 * and '\n'. 0, or -1 when out of memory or past AUDIT_MAX_LINE.
 */
int audit_line_end(struct sbuf *b, size_t start, enum audit_format fmt,
		   const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		   uint8_t mac[AUDIT_MAC_LEN]);

/* The same with any record MAC (chain.h) for the record with this seq:
 * audit_line_end is the BLAKE2b one (format versions 1 and 2). */
int audit_line_end_chain(struct sbuf *b, size_t start, enum audit_format fmt, struct audit_chain *c,
			 uint64_t seq, const uint8_t *prev, uint8_t mac[AUDIT_MAC_LEN]);

/* End a JSON record without a MAC ("nsaudit trace --format json"): "}\n". */
void audit_line_close(struct sbuf *b);

/* --- one field each ---------------------------------------------------------
 * key is a string literal of [a-z0-9_] (written as is). audit_f_str takes
 * untrusted bytes: at most n, and never past a NUL.
 */

/* Internal: room for n more bytes at the end of b (NULL: out of memory). */
char *audit_fields_room(struct sbuf *b, size_t n);
void audit_fields_obj_str(struct audit_fields *f, const char *key, const char *s, size_t n);
void audit_fields_obj_u64(struct audit_fields *f, const char *key, uint64_t v);
void audit_fields_obj_i64(struct audit_fields *f, const char *key, int64_t v);
void audit_fields_obj_bool(struct audit_fields *f, const char *key, bool v);
size_t audit_fields_dec(char *out, uint64_t v);

/* ,"key": or ' key=' at p; returns the end. */
static inline char *audit_fields_key(const struct audit_fields *f, char *p, const char *key,
				     size_t klen)
{
	if (f->fmt == AUDIT_FMT_JSON) {
		*p++ = ',';
		*p++ = '"';
		memcpy(p, key, klen);
		p += klen;
		*p++ = '"';
		*p++ = ':';
	} else {
		*p++ = ' ';
		memcpy(p, key, klen);
		p += klen;
		*p++ = '=';
	}
	return p;
}

static inline void audit_f_u64(struct audit_fields *f, const char *key, uint64_t v)
{
	size_t klen = strlen(key);
	char *p;

	if (f->obj) {
		audit_fields_obj_u64(f, key, v);
		return;
	}
	p = audit_fields_room(f->b, klen + 4 + 20);
	if (!p)
		return;
	p = audit_fields_key(f, p, key, klen);
	p += audit_fields_dec(p, v);
	f->b->len = (size_t)(p - f->b->p);
	*p = '\0';
}

static inline void audit_f_i64(struct audit_fields *f, const char *key, int64_t v)
{
	size_t klen = strlen(key);
	char *p;

	if (f->obj) {
		audit_fields_obj_i64(f, key, v);
		return;
	}
	p = audit_fields_room(f->b, klen + 4 + 21);
	if (!p)
		return;
	p = audit_fields_key(f, p, key, klen);
	if (v < 0) {
		*p++ = '-';
		p += audit_fields_dec(p, -(uint64_t)v);
	} else {
		p += audit_fields_dec(p, (uint64_t)v);
	}
	f->b->len = (size_t)(p - f->b->p);
	*p = '\0';
}

static inline void audit_f_bool(struct audit_fields *f, const char *key, bool v)
{
	size_t klen = strlen(key);
	char *p;

	if (f->obj) {
		audit_fields_obj_bool(f, key, v);
		return;
	}
	p = audit_fields_room(f->b, klen + 4 + 5);
	if (!p)
		return;
	p = audit_fields_key(f, p, key, klen);
	memcpy(p, v ? "true" : "false", v ? 4 : 5);
	p += v ? 4 : 5;
	f->b->len = (size_t)(p - f->b->p);
	*p = '\0';
}

/*
 * Bytes the escapers copy as they are: JSON 0x20..0x7e but '"' and '\';
 * audit 0x21..0x7e but '"'. Eight bytes at a time (every name of every
 * record goes through here): with ONES = 0x0101..01 and HIGH = 0x8080..80,
 * (x - ONES*c) & ~x & HIGH is non-zero iff some byte of x is below c (c <=
 * 0x80), the same on x ^ ONES*c iff some byte equals c, and (x + ONES) | x
 * has a high bit iff some byte is 0x7f or more (a carry out of a byte only
 * comes from 0xff, itself caught).
 */
static inline bool audit_fields_word_plain(enum audit_format fmt, uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t lo = ones * (fmt == AUDIT_FMT_JSON ? 0x20 : 0x21), q = x ^ (ones * '"'),
		 bs = x ^ (ones * '\\');

	if ((((x - lo) & ~x) | ((x + ones) | x) | ((q - ones) & ~q)) & high)
		return false;
	return fmt != AUDIT_FMT_JSON || !((bs - ones) & ~bs & high);
}

static inline bool audit_fields_plain(enum audit_format fmt, const char *s, size_t n)
{
	uint64_t x;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if (!audit_fields_word_plain(fmt, x))
			return false;
	}
	if (i == n)
		return true;
	if (n >= 8) { /* the rest: the last eight bytes again (overlapping) */
		memcpy(&x, s + n - 8, 8);
		return audit_fields_word_plain(fmt, x);
	}
	/* a short string byte by byte: copied into a word, its bytes were
	 * stored apart and loaded as one, a store-forwarding stall (perf: 40 %
	 * of this function's time in a flooded recorder) */
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < (fmt == AUDIT_FMT_JSON ? 0x20 : 0x21) || c >= 0x7f || c == '"' ||
		    (fmt == AUDIT_FMT_JSON && c == '\\'))
			return false;
	}
	return true;
}

/*
 * JSON: a string that is not valid UTF-8 (its stray bytes written as
 * \u00XX, which a generic reader takes for U+00XX) gets a twin field
 * "KEY_b64" with its exact bytes in base64, right after it. Never for valid
 * UTF-8: the common case costs nothing more.
 */
void audit_fields_twin(struct audit_fields *f, const char *key, const char *s, size_t n);

static inline void audit_f_str(struct audit_fields *f, const char *key, const char *s, size_t n)
{
	size_t klen = strlen(key);
	char *p;

	n = strnlen(s, n);
	if (f->obj) {
		audit_fields_obj_str(f, key, s, n);
		if (!audit_utf8_valid(s, n))
			audit_fields_twin(f, key, s, n);
		return;
	}
	p = audit_fields_room(f->b, klen + 4 + n + 2);
	if (!p)
		return;
	p = audit_fields_key(f, p, key, klen);
	f->b->len = (size_t)(p - f->b->p);
	if (!audit_fields_plain(f->fmt, s, n)) {
		/* the one escaper (or auditd's rule) decides */
		if (f->fmt == AUDIT_FMT_JSON) {
			sb_put(f->b, "\"", 1);
			audit_json_escape(f->b, s, n);
			sb_put(f->b, "\"", 1);
			if (!audit_utf8_valid(s, n))
				audit_fields_twin(f, key, s, n);
		} else {
			audit_untrusted(f->b, s, n);
		}
		return;
	}
	*p++ = '"';
	memcpy(p, s, n);
	p += n;
	*p++ = '"';
	f->b->len = (size_t)(p - f->b->p);
	*p = '\0';
}

#endif
