// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * codec_audit.c - the auditd-style format: type=NSAUDIT msg=nsaudit(...):
 * key=value pairs with auditd's rule for untrusted strings, written and
 * parsed back into the same record.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "clock.h"
#include "codec.h"
#include "codec_impl.h"

/* --- writing ------------------------------------------------------------- */

/* Field types in the audit format, where a bare value could be read as a
 * number or as hex. Unknown keys: bare decimal is a number, else hex. */
static const char *const numeric_keys[] = {
    "seq",
    "epoch",
    "next_epoch",
    "seal_t0",
    "seal_interval",
    "log_version",
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
    "time",   "op",	"error",   "ns_type",  "comm",	 "exe",	   "path", "cgroup",
    "via",    "probe",	"ns_name", "old_name", "action", "reason", "why",  "prev_mac",
    "key_id", "format", "version", "log_id",   "state",	 "run",	   "lost_op", NULL,
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
		codec_json_value(b, v, 0);
		break;
	case json_type_string:
		audit_untrusted(b, json_object_get_string(v),
				(size_t)json_object_get_string_len(v));
		break;
	default: /* nested: its JSON text, as an untrusted string */
		codec_json_value(&tmp, v, 0);
		if (tmp.oom)
			b->oom = true;
		else
			audit_untrusted(b, tmp.p, tmp.len);
		sb_free(&tmp);
		break;
	}
}

/* type=NSAUDIT msg=nsaudit(SEC.MSEC:SEQ): key=value ... mac=HEX */
void codec_encode_audit(struct json_object *rec, uint64_t seq, struct audit_chain *c,
			const uint8_t *prev, struct sbuf *out, uint8_t mac[AUDIT_MAC_LEN])
{
	char machex[AUDIT_MAC_HEX + 1];
	struct json_object *t;
	size_t body;
	int64_t ns = 0;

	if (!json_object_object_get_ex(rec, "time", &t) ||
	    audit_time_parse(json_object_get_string(t), &ns))
		ns = clock_ns(CLOCK_REALTIME);
	sb_printf(out, "type=NSAUDIT msg=nsaudit(%" PRId64 ".%03d:%" PRIu64 "):", ns / 1000000000,
		  (int)(ns % 1000000000 / 1000000), seq);
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
	audit_chain_mac(c, seq, prev, out->p, body, mac);
	audit_hex(mac, audit_chain_maclen(c->kind), machex);
	sb_printf(out, " mac=%s\n", machex);
}

/* --- parsing ------------------------------------------------------------- */

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
	struct json_object *v = codec_json_number(&c);

	if (v && c.p != s + n) {
		json_object_put(v);
		return NULL;
	}
	return v;
}

/* " mac=HEX" ends the line: the MAC into r, and where the body ends. */
static int parse_mac(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	static const char pre[] = " mac=";
	size_t ml, tail = 0;

	/* 64 hex digits (BLAKE2b) or 32 (Poly1305, format version 3) */
	for (ml = AUDIT_MAC_LEN; ml >= AUDIT_TAG_LEN; ml -= AUDIT_MAC_LEN - AUDIT_TAG_LEN) {
		tail = sizeof(pre) - 1 + 2 * ml;
		if (len >= tail && !memcmp(line + len - tail, pre, sizeof(pre) - 1) &&
		    !audit_unhex(line + len - 2 * ml, 2 * ml, r->mac, ml))
			break;
	}
	if (ml < AUDIT_TAG_LEN) {
		snprintf(err, errlen,
			 "no MAC at the end of the record (cut short or not a record)");
		return -1;
	}
	r->mac_len = ml;
	r->body_len = len - tail;
	return 0;
}

/* "type=NSAUDIT msg=nsaudit(TIME:SEQ):": SEQ, and *p after the header. */
static int parse_header(const char *line, const char *end, uint64_t *seq, const char **p, char *err,
			size_t errlen)
{
	static const char head[] = "type=NSAUDIT msg=nsaudit(";
	const char *colon, *q;
	char num[24], *e;
	size_t n = 0;

	if ((size_t)(end - line) < sizeof(head) || memcmp(line, head, sizeof(head) - 1)) {
		snprintf(err, errlen, "not a type=NSAUDIT record");
		return -1;
	}
	q = line + sizeof(head) - 1;
	colon = memchr(q, ':', (size_t)(end - q));
	if (!colon || colon + 2 > end || colon[1] == ')' || !all_decimal(colon + 1, 1))
		goto bad;
	q = colon + 1;
	while (q < end && isdigit((unsigned char)*q) && n < sizeof(num) - 1)
		num[n++] = *q++;
	num[n] = '\0';
	errno = 0;
	*seq = strtoull(num, &e, 10);
	if (errno || end - q < 2 || q[0] != ')' || q[1] != ':')
		goto bad;
	*p = q + 2;
	return 0;
bad:
	snprintf(err, errlen, "bad msg=nsaudit(TIME:SEQ) header");
	return -1;
}

/*
 * An unquoted value v (n bytes) of field key (klen bytes): by the key's
 * type where it is known, else a number if it looks like one, true/false,
 * (null), or uppercase hex. 0 with *jv, 1 for (null) (json-c's null is
 * NULL), -1 when it is none of these.
 */
static int bare_value(const char *key, size_t klen, const char *v, size_t n, struct sbuf *tmp,
		      struct json_object **jv)
{
	*jv = NULL;
	if (in_list(numeric_keys, key, klen)) {
		*jv = decimal(v, n);
	} else if (in_list(string_keys, key, klen)) {
		if (!unhex_upper(v, n, tmp))
			*jv = json_object_new_string_len(tmp->p, (int)tmp->len);
	} else if (n == 6 && !memcmp(v, "(null)", 6)) {
		*jv = json_object_new_null();
		if (!*jv)
			return 1;
	} else if ((n == 4 && !memcmp(v, "true", 4)) || (n == 5 && !memcmp(v, "false", 5))) {
		*jv = json_object_new_boolean(*v == 't');
	} else if (all_decimal(v, n) || memchr(v, '.', n)) {
		*jv = decimal(v, n);
	} else if (!unhex_upper(v, n, tmp)) {
		*jv = json_object_new_string_len(tmp->p, (int)tmp->len);
	}
	return *jv ? 0 : -1;
}

int codec_parse_audit(const char *line, size_t len, struct audit_rec *r, char *err, size_t errlen)
{
	const char *p, *end;
	struct sbuf key = {0}, val = {0};
	uint64_t seq;
	int rc = -1;

	if (parse_mac(line, len, r, err, errlen))
		return -1;
	end = line + r->body_len;
	if (parse_header(line, end, &seq, &p, err, errlen))
		return -1;
	r->obj = json_object_new_object();
	if (!r->obj) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	json_object_object_add(r->obj, "seq", json_object_new_uint64(seq));
	/* " key=value" pairs: "quoted" or bare */
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
			int b;

			ve = memchr(v, ' ', (size_t)(end - v));
			if (!ve)
				ve = end;
			p = ve;
			b = bare_value(key.p, key.len, v, (size_t)(ve - v), &val, &jv);
			if (b > 0) { /* json-c's null is NULL: store it as such */
				json_object_object_add(r->obj, key.p, NULL);
				continue;
			}
			if (b < 0) {
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
