// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* codec.c - one record <-> one line, JSON lines and auditd style. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "codec.h"

/* --- byte buffer ----------------------------------------------------------- */

static bool sb_grow(struct sbuf *b, size_t need)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->len + need + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + need + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void sb_put(struct sbuf *b, const void *s, size_t n)
{
	if (!sb_grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(tmp)) {
		sb_put(b, tmp, (size_t)n);
		return;
	}
	if (n < 0 || !sb_grow(b, (size_t)n)) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* --- escaping ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (overlongs, surrogates and values
 * past U+10FFFF are invalid), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void audit_json_escape(struct sbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t u, run;

		/* plain printable ASCII goes in one piece: this is the
		 * recorder's hot path, one call per byte was a tenth of it */
		for (run = i; run < n && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' &&
			      s[run] != '\\';
		     run++)
			;
		if (run > i) {
			sb_put(b, s + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '"':
			sb_put(b, "\\\"", 2);
			break;
		case '\\':
			sb_put(b, "\\\\", 2);
			break;
		case '\n':
			sb_put(b, "\\n", 2);
			break;
		case '\r':
			sb_put(b, "\\r", 2);
			break;
		case '\t':
			sb_put(b, "\\t", 2);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				sb_printf(b, "\\u%04x", c);
				break;
			}
			u = c < 0x80 ? 1 : utf8_len(s + i, n - i);
			if (!u) { /* a stray byte: keep it, as \u00XX */
				sb_printf(b, "\\u%04x", c);
				break;
			}
			sb_put(b, s + i, u);
			i += u;
			continue;
		}
		i++;
	}
}

void audit_untrusted(struct sbuf *b, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '"' || s[i] < 0x21 || s[i] > 0x7e)
			break;
	if (i == n) {
		sb_put(b, "\"", 1);
		sb_put(b, s, n);
		sb_put(b, "\"", 1);
		return;
	}
	for (i = 0; i < n; i++) {
		char two[2] = {hex[s[i] >> 4], hex[s[i] & 15]};

		sb_put(b, two, 2);
	}
}

void audit_text_escape(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\\\", f);
		else if (s[i] >= 0x20 && s[i] < 0x7f)
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", s[i]);
	}
}

/* --- time ---------------------------------------------------------------------- */

static int digits(const char **s, int n, int *out)
{
	int v = 0;

	while (n--) {
		if (!isdigit((unsigned char)**s))
			return -1;
		v = v * 10 + (*(*s)++ - '0');
	}
	*out = v;
	return 0;
}

int audit_time_parse(const char *s, int64_t *ns)
{
	int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0;
	int64_t frac = 0, scale = 100000000;
	struct tm tm = {0};
	time_t t;

	if (!s || digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) || *s++ != '-' ||
	    digits(&s, 2, &d) || (*s != 'T' && *s != 't' && *s != ' '))
		return -1;
	s++;
	if (digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi) || *s++ != ':' ||
	    digits(&s, 2, &sec))
		return -1;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		for (; isdigit((unsigned char)*s); s++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (digits(&s, 2, &oh) || *s++ != ':' || digits(&s, 2, &om) || oh > 23 || om > 59)
			return -1;
	} else {
		return -1;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	t -= sign * (oh * 3600 + om * 60);
	*ns = (int64_t)t * 1000000000 + frac;
	return 0;
}

void audit_time_now(char buf[40])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 40, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), 12, ".%09uZ", (unsigned int)(ts.tv_nsec % 1000000000));
}

/* --- encoding -------------------------------------------------------------------- */

static void json_value(struct sbuf *b, struct json_object *v, int depth)
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
			json_value(b, json_object_array_get_idx(v, i), depth + 1);
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
			json_value(b, val, depth + 1);
		}
		sb_put(b, "}", 1);
		break;
	}
	}
}

void audit_json_object(struct sbuf *b, struct json_object *o)
{
	json_value(b, o, 0);
}

/* Field types in the audit format, where a bare value could be read as a
 * number or as hex. Unknown keys: bare decimal is a number, else hex. */
static const char *const numeric_keys[] = {
    "seq",
    "result",
    "ns_inum",
    "ns_id",
    "old_inum",
    "old_ns_id",
    "pid",
    "tid",
    "ppid",
    "uid",
    "euid",
    "auid",
    "target_pid",
    "fd",
    "count",
    "segment",
    "dropped",
    "last_seq",
    "discarded_bytes",
    "missing",
    "missing_segment",
    "cgroup_id",
    "ns_refs",
    "arg",
    NULL,
};
static const char *const string_keys[] = {
    "time",   "op",	  "error",  "ns_type", "comm",	   "exe",    "path",
    "cgroup", "via",	  "probe",  "ns_name", "old_name", "action", "reason",
    "why",    "prev_mac", "key_id", "format",  "version",  NULL,
};

static bool in_list(const char *const *list, const char *k, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, k, n))
			return true;
	return false;
}

static void audit_key(struct sbuf *b, const char *k)
{
	/* Our own and the tracer's keys are [a-z0-9_]; anything else would
	 * break the key=value syntax, so it is made to fit. */
	for (; *k; k++)
		sb_put(b, isalnum((unsigned char)*k) || *k == '_' ? k : "_", 1);
}

static void audit_value(struct sbuf *b, struct json_object *v)
{
	struct sbuf tmp = {0};

	switch (json_object_get_type(v)) {
	case json_type_null:
		sb_puts(b, "(null)");
		break;
	case json_type_boolean:
		sb_puts(b, json_object_get_boolean(v) ? "true" : "false");
		break;
	case json_type_int:
	case json_type_double:
		json_value(b, v, 0);
		break;
	case json_type_string:
		audit_untrusted(b, json_object_get_string(v),
				(size_t)json_object_get_string_len(v));
		break;
	default: /* nested: its JSON text, as an untrusted string */
		json_value(&tmp, v, 0);
		if (tmp.oom)
			b->oom = true;
		else
			audit_untrusted(b, tmp.p, tmp.len);
		sb_free(&tmp);
		break;
	}
}

int audit_encode(enum audit_format fmt, struct json_object *rec, uint64_t seq,
		 const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		 struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN])
{
	char machex[AUDIT_MAC_HEX + 1];
	struct json_object *t;
	size_t body;

	out->len = 0;
	if (fmt == AUDIT_FMT_JSON) {
		sb_printf(out, "{\"seq\":%" PRIu64, seq);
		json_object_object_foreach(rec, k, v)
		{
			if (!strcmp(k, "seq") || !strcmp(k, "mac"))
				continue;
			sb_put(out, ",\"", 2);
			audit_json_escape(out, k, strlen(k));
			sb_put(out, "\":", 2);
			json_value(out, v, 0);
		}
		body = out->len;
		audit_mac(key, prev, out->p, body, mac);
		audit_hex(mac, AUDIT_MAC_LEN, machex);
		sb_printf(out, ",\"mac\":\"%s\"}\n", machex);
	} else {
		int64_t ns = 0;

		if (!json_object_object_get_ex(rec, "time", &t) ||
		    audit_time_parse(json_object_get_string(t), &ns)) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		}
		sb_printf(out, "type=NSAUDIT msg=nsaudit(%" PRId64 ".%03d:%" PRIu64 "):",
			  ns / 1000000000, (int)(ns % 1000000000 / 1000000), seq);
		json_object_object_foreach(rec, k, v)
		{
			if (!strcmp(k, "seq") || !strcmp(k, "mac"))
				continue;
			sb_put(out, " ", 1);
			audit_key(out, k);
			sb_put(out, "=", 1);
			audit_value(out, v);
		}
		body = out->len;
		audit_mac(key, prev, out->p, body, mac);
		audit_hex(mac, AUDIT_MAC_HEX / 2, machex);
		sb_printf(out, " mac=%s\n", machex);
	}
	if (out->oom || out->len > AUDIT_MAX_LINE)
		return -1;
	return 0;
}

/* --- parsing: JSON lines ---------------------------------------------------------- */

struct cur {
	const char *p, *end;
	char *err;
	size_t errlen;
	const char *start;
};

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
static int json_string(struct cur *c, struct sbuf *b)
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

static struct json_object *json_number(struct cur *c)
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
		if (json_string(c, tmp))
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
		*out = json_number(c);
		if (!*out)
			return fail(c, "bad value");
	}
	return *out ? 0 : fail(c, "out of memory");
}

static int parse_json(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	/* ,"mac":"<64 hex>"} */
	static const char pre[] = ",\"mac\":\"";
	const size_t tail = sizeof(pre) - 1 + AUDIT_MAC_HEX + 2;
	struct cur c = {line, line + len, err, errlen, line};
	struct sbuf key = {0}, tmp = {0};
	struct json_object *v;
	bool have_mac = false;
	int rc = -1;

	if (len < tail + 2 || memcmp(line + len - tail, pre, sizeof(pre) - 1) ||
	    memcmp(line + len - 2, "\"}", 2) ||
	    audit_unhex(line + len - AUDIT_MAC_HEX - 2, AUDIT_MAC_HEX, r->mac, AUDIT_MAC_LEN)) {
		snprintf(err, errlen,
			 "no MAC at the end of the record (cut short or not a record)");
		return -1;
	}
	r->body_len = len - tail;
	r->obj = json_object_new_object();
	if (!r->obj)
		return fail(&c, "out of memory");
	if (*c.p++ != '{')
		return fail(&c, "not a JSON object");
	ws(&c);
	for (;;) {
		if (json_string(&c, &key))
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

/* --- parsing: audit lines ---------------------------------------------------------- */

static int unhex_upper(const char *s, size_t n, struct sbuf *b)
{
	size_t i;

	b->len = 0;
	sb_put(b, "", 0);
	if (n % 2)
		return -1;
	for (i = 0; i < n; i += 2) {
		int hi = isxdigit((unsigned char)s[i]) && !islower((unsigned char)s[i]),
		    lo = isxdigit((unsigned char)s[i + 1]) && !islower((unsigned char)s[i + 1]);
		char byte;

		if (!hi || !lo)
			return -1;
		hi = isdigit((unsigned char)s[i]) ? s[i] - '0' : s[i] - 'A' + 10;
		lo = isdigit((unsigned char)s[i + 1]) ? s[i + 1] - '0' : s[i + 1] - 'A' + 10;
		byte = (char)(hi << 4 | lo);
		sb_put(b, &byte, 1);
	}
	return b->oom ? -1 : 0;
}

static bool all_decimal(const char *s, size_t n)
{
	size_t i = (n && s[0] == '-') ? 1 : 0;

	if (i == n || n > 20)
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static struct json_object *decimal(const char *s, size_t n)
{
	struct cur c = {s, s + n, NULL, 0, s};
	struct json_object *v = json_number(&c);

	if (v && c.p != s + n) {
		json_object_put(v);
		return NULL;
	}
	return v;
}

static int parse_audit(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	static const char head[] = "type=NSAUDIT msg=nsaudit(";
	static const char pre[] = " mac=";
	const size_t tail = sizeof(pre) - 1 + AUDIT_MAC_HEX;
	const char *p, *end, *colon;
	struct sbuf key = {0}, val = {0};
	uint64_t seq;
	int rc = -1;

	if (len < tail || memcmp(line + len - tail, pre, sizeof(pre) - 1) ||
	    audit_unhex(line + len - AUDIT_MAC_HEX, AUDIT_MAC_HEX, r->mac, AUDIT_MAC_LEN)) {
		snprintf(err, errlen,
			 "no MAC at the end of the record (cut short or not a record)");
		return -1;
	}
	r->body_len = len - tail;
	end = line + r->body_len;
	if (r->body_len < sizeof(head) || memcmp(line, head, sizeof(head) - 1)) {
		snprintf(err, errlen, "not a type=NSAUDIT record");
		return -1;
	}
	p = line + sizeof(head) - 1;
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || colon + 2 > end || colon[1] == ')' || !all_decimal(colon + 1, 1)) {
		snprintf(err, errlen, "bad msg=nsaudit(TIME:SEQ) header");
		return -1;
	}
	{
		const char *q = colon + 1;
		char *e;
		char num[24];
		size_t n = 0;

		while (q < end && isdigit((unsigned char)*q) && n < sizeof(num) - 1)
			num[n++] = *q++;
		num[n] = '\0';
		errno = 0;
		seq = strtoull(num, &e, 10);
		if (errno || end - q < 2 || q[0] != ')' || q[1] != ':') {
			snprintf(err, errlen, "bad msg=nsaudit(TIME:SEQ) header");
			return -1;
		}
		p = q + 2;
	}
	r->obj = json_object_new_object();
	if (!r->obj) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	json_object_object_add(r->obj, "seq", json_object_new_uint64(seq));
	while (p < end) {
		const char *k, *eq, *v, *ve;
		struct json_object *jv = NULL;

		if (*p++ != ' ') {
			snprintf(err, errlen, "expected ' ' at byte %td", p - line);
			goto out;
		}
		k = p;
		eq = memchr(k, '=', (size_t)(end - k));
		if (!eq || eq == k) {
			snprintf(err, errlen, "expected key=value at byte %td", k - line + 1);
			goto out;
		}
		key.len = 0;
		sb_put(&key, k, (size_t)(eq - k));
		if (strpbrk(key.p, " \"") || memchr(key.p, '\0', key.len)) {
			snprintf(err, errlen, "bad field name at byte %td", k - line + 1);
			goto out;
		}
		v = eq + 1;
		if (v < end && *v == '"') {
			ve = memchr(v + 1, '"', (size_t)(end - v - 1));
			if (!ve || (ve + 1 < end && ve[1] != ' ')) {
				snprintf(err, errlen, "bad quoted value of %.40s", key.p);
				goto out;
			}
			jv = json_object_new_string_len(v + 1, (int)(ve - v - 1));
			p = ve + 1;
		} else {
			ve = memchr(v, ' ', (size_t)(end - v));
			if (!ve)
				ve = end;
			p = ve;
			if (in_list(numeric_keys, key.p, key.len)) {
				jv = decimal(v, (size_t)(ve - v));
			} else if (in_list(string_keys, key.p, key.len)) {
				if (!unhex_upper(v, (size_t)(ve - v), &val))
					jv = json_object_new_string_len(val.p, (int)val.len);
			} else if ((size_t)(ve - v) == 6 && !memcmp(v, "(null)", 6)) {
				jv = json_object_new_null();
				if (!jv) { /* json-c's null is NULL: store it as such */
					json_object_object_add(r->obj, key.p, NULL);
					continue;
				}
			} else if ((ve - v == 4 && !memcmp(v, "true", 4)) ||
				   (ve - v == 5 && !memcmp(v, "false", 5))) {
				jv = json_object_new_boolean(*v == 't');
			} else if (all_decimal(v, (size_t)(ve - v)) ||
				   memchr(v, '.', (size_t)(ve - v))) {
				jv = decimal(v, (size_t)(ve - v));
			} else if (!unhex_upper(v, (size_t)(ve - v), &val)) {
				jv = json_object_new_string_len(val.p, (int)val.len);
			}
			if (!jv) {
				snprintf(err, errlen, "bad value of %.40s", key.p);
				goto out;
			}
		}
		if (!strcmp(key.p, "seq") || json_object_object_get_ex(r->obj, key.p, NULL)) {
			json_object_put(jv);
			snprintf(err, errlen, "duplicate field \"%.40s\"", key.p);
			goto out;
		}
		json_object_object_add(r->obj, key.p, jv);
	}
	r->fmt = AUDIT_FMT_AUDIT;
	rc = 0;
out:
	sb_free(&key);
	sb_free(&val);
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
		rc = parse_json(line, len, r, err, errlen);
	else if (line[0] == 't')
		rc = parse_audit(line, len, r, err, errlen);
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

	if (!json_object_object_get_ex(r->obj, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}
