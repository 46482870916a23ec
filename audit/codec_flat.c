// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_flat.c - a JSON line taken as a record without building a json-c
 * object, when the line is spelled exactly as the writer spells it.
 *
 * A search that matches a million records spent most of its time parsing
 * each into json-c objects and writing them out again, byte for byte as
 * they were. A line in the writer's spelling (codec_json.c: no white space,
 * integers in plain decimal, strings escaped exactly as audit_json_escape
 * escapes, "mac" last) is its own JSON output, and its fields can be looked
 * at where they lie. So this walk accepts a line only when both hold:
 *   - audit_rec_parse would accept it and give the same fields, the same
 *     values, in the same order;
 *   - writing the parsed record out again (audit_json_object) would give
 *     the line's bytes before ,"mac".
 * Anything else (white space, a double, a nested value, an escape the
 * writer would not make, a key that is not plain ASCII, a duplicate key,
 * an integer of 19+ digits) is refused, and the caller parses it in full:
 * the answer is the same either way, only the time differs
 * (tests/unit/test_audit_flat.c checks both paths against each other).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codec_impl.h"

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull
/* bytes of w below n (n <= 128), or any byte 0x80 or more */
#define BELOW(w, n) (((w) - ONES * (n)) & ~(w) & HIGH)

/*
 * Whether every byte is printable ASCII (0x20..0x7e) and none a backslash:
 * then every string of the line is its own value, and ends at the next
 * '"'. Eight bytes at a time: this and the walk are the search's hot path.
 */
static bool plain_bytes(const char *s, size_t n)
{
	uint64_t bad = 0, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		bad |= BELOW(w, 0x20) | (w & HIGH) | BELOW(w ^ (ONES * 0x7f), 1) |
		       BELOW(w ^ (ONES * '\\'), 1);
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		bad |= c < 0x20 || c >= 0x7f || c == '\\';
	}
	return !bad;
}

/* Make room for a copy of len bytes and their decoded strings. */
static int flat_reserve(struct audit_flat *fl, size_t len)
{
	char *p;

	if (len + 1 <= fl->cap)
		return 0;
	p = realloc(fl->buf, len + 1);
	if (!p)
		return -1;
	fl->buf = p;
	fl->cap = len + 1;
	return 0;
}

/*
 * A string whose bytes are not all plain printable ASCII: decoded as the
 * parser decodes it, and accepted only if escaping the result again gives
 * the same bytes. Decoded into the copy at the same offset (a decoded
 * string is never longer than its spelling) and NUL-terminated there.
 */
static const char *flat_string_slow(struct audit_flat *fl, const char *line, const char *q,
				    const char *end, struct audit_flat_field *fd)
{
	char err[8];
	struct cur c = { q, end, err, sizeof(err), line };
	size_t raw;
	char *dst;

	if (codec_json_string(&c, &fl->dec))
		return NULL;
	raw = (size_t)(c.p - q) - 2;
	fl->esc.len = 0;
	audit_json_escape(&fl->esc, fl->dec.p, fl->dec.len);
	if (fl->dec.oom || fl->esc.oom || fl->esc.len != raw || memcmp(fl->esc.p, q + 1, raw))
		return NULL;
	dst = fl->buf + (q + 1 - line);
	memcpy(dst, fl->dec.p, fl->dec.len);
	dst[fl->dec.len] = '\0';
	fd->val = dst;
	fd->vlen = (uint32_t)fl->dec.len;
	return c.p;
}

/*
 * Past the plain bytes at p (printable ASCII but '"' and '\\'): at the
 * string's closing quote if it is plain, else at what needs decoding, or
 * at end. On a plain line (fl->plain) the string's quote stops this.
 */
static inline const char *flat_plain_end(const struct audit_flat *fl, const char *p,
					 const char *end)
{
	unsigned char ch;

	if (fl->plain)
		while (*p != '"')
			p++;
	else
		while (p < end && (ch = (unsigned char)*p) >= 0x20 && ch < 0x7f && ch != '"' &&
		       ch != '\\')
			p++;
	return p;
}

/* A string value at q (its opening quote): past its end, or NULL. */
static const char *flat_string(struct audit_flat *fl, const char *line, const char *q,
			       const char *end, struct audit_flat_field *fd)
{
	const char *p = flat_plain_end(fl, q + 1, end);

	if (p >= end)
		return NULL;
	if (*p != '"')
		return flat_string_slow(fl, line, q, end, fd);
	fd->val = fl->buf + (q + 1 - line);
	fd->vlen = (uint32_t)(p - q - 1);
	fl->buf[p - line] = '\0';
	return p + 1;
}

/* n decimal digits at d into *v: false if they overflow uint64 */
static bool digits_u64(const char *d, size_t n, uint64_t *v)
{
	*v = 0;
	while (n--)
		if (__builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (uint64_t)(*d++ - '0'), v))
			return false;
	return true;
}

/*
 * An integer as json-c prints one: no leading zero, no "-0", within what
 * the parser takes (int64, or uint64 when not negative). Its value is
 * worked out when asked for (audit_flat_int); only 19 digits and more can
 * overflow, so only they are worked out here.
 */
static const char *flat_int(const char *p, const char *end)
{
	const char *d = p + (*p == '-'), *q = d;
	uint64_t v;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == d || q - d > 20 || (*d == '0' && (q - d > 1 || d != p)))
		return NULL;
	if (q - d >= 19 && (!digits_u64(d, (size_t)(q - d), &v) ||
			    (d != p && v > (uint64_t)INT64_MAX + 1)))
		return NULL;
	return q;
}

int64_t audit_flat_int(const struct audit_flat_field *f)
{
	bool neg = f->val[0] == '-';
	uint64_t v;

	digits_u64(f->val + neg, f->vlen - neg, &v);
	if (neg) /* INT64_MIN too, without overflow */
		return v ? -(int64_t)(v - 1) - 1 : 0;
	return v > INT64_MAX ? INT64_MAX : (int64_t)v; /* as json-c's get_int64 */
}

/* One value at p: past its end (on the ',' that must follow), or NULL. */
static const char *flat_value(struct audit_flat *fl, const char *line, const char *p,
			      const char *end, struct audit_flat_field *fd)
{
	static const char *const lits[] = { "true", "false", "null" };
	size_t i, n;

	fd->val = fl->buf + (p - line);
	if (*p == '"') {
		fd->type = AUDIT_FLAT_STR;
		p = flat_string(fl, line, p, end, fd);
		return p && p < end && *p == ',' ? p : NULL;
	}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		fd->type = AUDIT_FLAT_INT;
		p = flat_int(p, end);
	} else {
		fd->type = AUDIT_FLAT_LIT;
		for (i = 0; i < 3; i++) {
			n = strlen(lits[i]);
			if ((size_t)(end - p) >= n && !memcmp(p, lits[i], n))
				break;
		}
		if (i == 3)
			return NULL;
		p += n;
	}
	if (!p || p >= end || *p != ',')
		return NULL;
	fd->vlen = (uint32_t)(fl->buf + (p - line) - fd->val);
	fl->buf[p - line] = '\0';
	return p;
}

/* Whether key (klen bytes) came before; seen: a 256-bit filter of them. */
static bool flat_dup(const struct audit_flat *fl, const char *key, size_t klen, uint64_t *seen)
{
	const unsigned char *k = (const unsigned char *)key;
	unsigned int h = (klen * 67 + k[0] * 31 + k[klen / 2] * 7 + k[klen - 1]) & 255;
	uint64_t bit = 1ull << (h & 63);
	size_t i;

	if (seen[h >> 6] & bit) {
		for (i = 0; i < fl->n; i++)
			if (fl->f[i].klen == klen && !memcmp(fl->f[i].key, key, klen))
				return true;
	}
	seen[h >> 6] |= bit;
	return false;
}

/* One member "key":value at p: past it, or NULL. */
static const char *flat_member(struct audit_flat *fl, const char *line, const char *p,
			       const char *end, uint64_t *seen)
{
	struct audit_flat_field *fd = &fl->f[fl->n];
	const char *k;

	if (*p != '"')
		return NULL;
	k = ++p;
	p = flat_plain_end(fl, p, end);
	/* a plain key of one byte or more, and not "mac" (last, apart) */
	if (p == k || end - p < 3 || p[0] != '"' || p[1] != ':' ||
	    (p - k == 3 && !memcmp(k, "mac", 3)))
		return NULL;
	fd->key = fl->buf + (k - line);
	fd->klen = (uint32_t)(p - k);
	fl->buf[p - line] = '\0';
	if (flat_dup(fl, fd->key, fd->klen, seen))
		return NULL;
	p = flat_value(fl, line, p + 2, end, fd);
	if (p)
		fl->n++;
	return p;
}

int audit_rec_flat(const char *line, size_t len, struct audit_flat *fl, struct audit_rec *r)
{
	const char *p = line + 1, *body;
	uint64_t seen[4] = { 0 }, seq;
	size_t tail, i;

	memset(r, 0, sizeof(*r));
	fl->n = 0;
	if (len < 2 || len > AUDIT_MAX_LINE || line[0] != '{' ||
	    codec_json_mac_tail(line, len, r, &tail) || flat_reserve(fl, len))
		return -1;
	memcpy(fl->buf, line, len);
	body = line + len - tail; /* on the ',' of ,"mac" */
	fl->plain = plain_bytes(line, (size_t)(body - line));
	for (;;) { /* a member, then the ',' before the next or before "mac" */
		if (fl->n == AUDIT_FLAT_FIELDS)
			return -1;
		p = flat_member(fl, line, p, body + 1, seen);
		if (!p)
			return -1;
		if (p == body)
			break;
		p++;
	}
	for (i = 0; i < fl->n; i++)
		if (fl->f[i].klen == 3 && !memcmp(fl->f[i].key, "seq", 3))
			break;
	/* the seq as the parser reads it: a uint64 (audit_flat_int would stop
	 * at INT64_MAX, and the two readings would name different records) */
	if (i == fl->n || fl->f[i].type != AUDIT_FLAT_INT || fl->f[i].val[0] == '-' ||
	    !digits_u64(fl->f[i].val, fl->f[i].vlen, &seq) || !seq)
		return -1;
	fl->line = line;
	r->flat = fl;
	r->seq = seq;
	r->fmt = AUDIT_FMT_JSON;
	return 0;
}

const struct audit_flat_field *audit_flat_get(const struct audit_flat *fl, const char *key)
{
	size_t i, kl = strlen(key);

	for (i = 0; i < fl->n; i++)
		if (fl->f[i].klen == kl && !memcmp(fl->f[i].key, key, kl))
			return &fl->f[i];
	return NULL;
}

void audit_flat_free(struct audit_flat *fl)
{
	free(fl->buf);
	sb_free(&fl->dec);
	sb_free(&fl->esc);
	memset(fl, 0, sizeof(*fl));
}
