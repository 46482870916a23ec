// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* anchor.c - tail anchors: their syslog text, and reading them back. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "anchor.h"
#include "array.h"
#include "regfile.h"

static const char *str_of(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
		   ? json_object_get_string(v)
		   : NULL;
}

static bool u64_of(struct json_object *o, const char *k, uint64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

static bool hexlen(const char *s, size_t n)
{
	return s && strlen(s) == n && strspn(s, "0123456789abcdef") == n;
}

static bool word(const char *s)
{
	return s && *s && strlen(s) < 16 && strspn(s, "abcdefghijklmnopqrstuvwxyz") == strlen(s);
}

int audit_anchor_text(struct json_object *rec, char *out, size_t outlen)
{
	const char *action = str_of(rec, "action"), *log_id = str_of(rec, "log_id"),
		   *key_id = str_of(rec, "key_id"), *mac = str_of(rec, "mac"),
		   *why = str_of(rec, "why"), *amac = str_of(rec, "amac"),
		   *prev = str_of(rec, "prev");
	uint64_t seq, segment, epoch, first = 0, n, first_seq;

	if (!action || strcmp(action, "anchor") || !hexlen(log_id, AUDIT_KEY_ID_HEX) ||
	    !hexlen(key_id, AUDIT_KEY_ID_HEX) ||
	    !(hexlen(mac, AUDIT_MAC_HEX) || hexlen(mac, 2 * AUDIT_TAG_LEN)) || !word(why) ||
	    !u64_of(rec, "seq", &seq) || !u64_of(rec, "segment", &segment) ||
	    !u64_of(rec, "epoch", &epoch) || !hexlen(amac, 2 * AUDIT_TAG_LEN) ||
	    !u64_of(rec, "first_segment", &first))
		return -1;
	if (u64_of(rec, "n", &n) && u64_of(rec, "first_seq", &first_seq) &&
	    hexlen(prev, 2 * AUDIT_TAG_LEN)) {
		snprintf(out, outlen,
			 "nsaudit-anchor log_id=%s key_id=%s seq=%" PRIu64 " segment=%" PRIu64
			 " epoch=%" PRIu64 " first_segment=%" PRIu64 " first_seq=%" PRIu64
			 " n=%" PRIu64 " mac=%s why=%s prev=%s amac=%s",
			 log_id, key_id, seq, segment, epoch, first, first_seq, n, mac, why, prev,
			 amac);
		return 0;
	}
	snprintf(out, outlen,
		 "nsaudit-anchor log_id=%s key_id=%s seq=%" PRIu64 " segment=%" PRIu64
		 " epoch=%" PRIu64 " first_segment=%" PRIu64 " mac=%s why=%s amac=%s",
		 log_id, key_id, seq, segment, epoch, first, mac, why, amac);
	return 0;
}

int audit_anchor_canon(const struct audit_anchor *a, char out[AUDIT_ANCHOR_CANON_MAX])
{
	char hex[AUDIT_MAC_HEX + 1];

	audit_hex(a->mac, a->mac_len, hex);
	if (a->chained) {
		char prev[2 * AUDIT_TAG_LEN + 1];

		audit_hex(a->prev, AUDIT_TAG_LEN, prev);
		return snprintf(out, AUDIT_ANCHOR_CANON_MAX,
				"nsaudit anchor v3 log_id=%s key_id=%s seq=%" PRIu64 " segment=%u "
				"epoch=%" PRIu64 " first_segment=%u first_seq=%" PRIu64
				" n=%" PRIu64 " mac=%s why=%s prev=%s",
				a->log_id, a->key_id, a->seq, a->segment, a->epoch,
				a->first_segment, a->first_seq, a->n, hex, a->why, prev);
	}
	if (a->why[0])
		return snprintf(out, AUDIT_ANCHOR_CANON_MAX,
				"nsaudit anchor v2 log_id=%s key_id=%s seq=%" PRIu64 " segment=%u "
				"epoch=%" PRIu64 " first_segment=%u mac=%s why=%s",
				a->log_id, a->key_id, a->seq, a->segment, a->epoch,
				a->first_segment, hex, a->why);
	return snprintf(out, AUDIT_ANCHOR_CANON_MAX,
			"nsaudit anchor v1 log_id=%s key_id=%s seq=%" PRIu64 " segment=%u "
			"epoch=%" PRIu64 " first_segment=%u mac=%s",
			a->log_id, a->key_id, a->seq, a->segment, a->epoch, a->first_segment,
			hex);
}

void audit_anchor_mac(const struct audit_anchor *a, const uint8_t key[AUDIT_KEY_LEN],
		      uint8_t out[AUDIT_TAG_LEN])
{
	char canon[AUDIT_ANCHOR_CANON_MAX];
	int n = audit_anchor_canon(a, canon);

	crypto_generichash(out, AUDIT_TAG_LEN, (const uint8_t *)canon, (size_t)n, key,
			   AUDIT_KEY_LEN);
}

/* key=VALUE or key="VALUE" at *p (after one space); advances *p. */
static bool field(const char **p, const char *end, const char *key, char *val, size_t vcap)
{
	size_t klen = strlen(key), n = 0;
	const char *s = *p;
	bool quoted;

	if ((size_t)(end - s) < klen + 1 || memcmp(s, key, klen) || s[klen] != '=')
		return false;
	s += klen + 1;
	quoted = s < end && *s == '"';
	if (quoted)
		s++;
	while (s < end && *s != ' ' && *s != '"' && *s != '\'' && n + 1 < vcap)
		val[n++] = *s++;
	val[n] = '\0';
	if (quoted) {
		if (s >= end || *s != '"')
			return false;
		s++;
	}
	if (s < end && *s != ' ' && *s != '\'')
		return false;
	*p = s;
	return n > 0;
}

static bool decimal(const char *s, uint64_t *v)
{
	char *e;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19)
		return false;
	*v = strtoull(s, &e, 10);
	return true;
}

static int parse_fields(const char *p, const char *end, struct audit_anchor *a, bool syslog)
{
	char v[80];
	const char *q;
	uint64_t n;

	/* log_id key_id seq segment [epoch] [first_segment] mac [why] [amac],
	 * in this order */
	if (!field(&p, end, "log_id", v, sizeof(v)) || !hexlen(v, AUDIT_KEY_ID_HEX))
		return -1;
	memcpy(a->log_id, v, sizeof(a->log_id));
	if (*p++ != ' ' || !field(&p, end, "key_id", v, sizeof(v)) || !hexlen(v, AUDIT_KEY_ID_HEX))
		return -1;
	memcpy(a->key_id, v, sizeof(a->key_id));
	if (*p++ != ' ' || !field(&p, end, "seq", v, sizeof(v)) || !decimal(v, &a->seq))
		return -1;
	if (*p++ != ' ' || !field(&p, end, "segment", v, sizeof(v)) || !decimal(v, &n) ||
	    n > UINT32_MAX)
		return -1;
	a->segment = (unsigned int)n;
	q = p;
	if (q < end && *q++ == ' ' && field(&q, end, "epoch", v, sizeof(v))) {
		if (!decimal(v, &a->epoch))
			return -1;
		p = q;
	} else if (syslog) {
		return -1;
	}
	q = p;
	if (q < end && *q++ == ' ' && field(&q, end, "first_segment", v, sizeof(v))) {
		if (!decimal(v, &n) || n > UINT32_MAX)
			return -1;
		a->first_segment = (unsigned int)n;
		p = q;
		/* v3: first_seq and n, both or neither */
		q = p;
		if (q < end && *q++ == ' ' && field(&q, end, "first_seq", v, sizeof(v))) {
			if (!decimal(v, &a->first_seq) || *q++ != ' ' ||
			    !field(&q, end, "n", v, sizeof(v)) || !decimal(v, &a->n) || !a->n)
				return -1;
			a->chained = true;
			p = q;
		}
	}
	/* 64 hex digits (BLAKE2b) or 32 (Poly1305, format version 3) */
	if (*p++ != ' ' || !field(&p, end, "mac", v, sizeof(v)))
		return -1;
	a->mac_len = strlen(v) / 2;
	if ((a->mac_len != AUDIT_MAC_LEN && a->mac_len != AUDIT_TAG_LEN) ||
	    audit_unhex(v, strlen(v), a->mac, a->mac_len))
		return -1;
	q = p;
	if (q < end && *q++ == ' ' && field(&q, end, "why", v, sizeof(v))) {
		if (!word(v))
			return -1;
		memcpy(a->why, v, strlen(v) + 1);
		p = q;
	} else if (syslog || a->chained) {
		return -1;
	}
	if (a->chained) { /* prev, after why */
		if (*p++ != ' ' || !field(&p, end, "prev", v, sizeof(v)) ||
		    strlen(v) != 2 * AUDIT_TAG_LEN || audit_unhex(v, strlen(v), a->prev, AUDIT_TAG_LEN))
			return -1;
	}
	q = p;
	if (q < end && *q++ == ' ' && field(&q, end, "amac", v, sizeof(v))) {
		if (audit_unhex(v, strlen(v), a->amac, AUDIT_TAG_LEN) ||
		    strlen(v) != 2 * AUDIT_TAG_LEN)
			return -1;
		a->has_amac = true;
		p = q;
	}
	if (syslog) {
		/* nothing after it */
		while (p < end && (*p == ' ' || *p == '\r'))
			p++;
		return p == end ? 0 : -1;
	}
	return 0;
}

int audit_anchor_parse_line(const char *line, size_t len, struct audit_anchor *a)
{
	static const char text[] = "nsaudit-anchor ";
	static const char audit[] = "op=\"log\" action=\"anchor\" ";
	const char *end, *p;
	char doc[512];

	memset(a, 0, sizeof(*a));
	/* a JSON document (a file sink's line, journalctl -o json): read by
	 * its structure alone (anchor_json.c), then as the anchor's text */
	if (len && line[0] == '{') {
		if (audit_anchor_json_text(line, len, doc, sizeof(doc)))
			return -1;
		line = doc;
		len = strlen(doc);
	}
	end = line + len;
	/* syslog: the message text, after "TAG: " or at the start */
	p = memmem(line, len, text, sizeof(text) - 1);
	if (p && (p == line || (p - line >= 2 && p[-1] == ' ' && (p[-2] == ':' || p[-2] == ']'))))
		return parse_fields(p + sizeof(text) - 1, end, a, true);
	/* auditd: an AUDIT_USER record whose text is ours */
	p = memmem(line, len, audit, sizeof(audit) - 1);
	if (p && p > line && (p[-1] == ' ' || p[-1] == '\'') && len > 10 &&
	    !memcmp(line, "type=USER ", 10))
		return parse_fields(p + sizeof(audit) - 1, end, a, false);
	return -1;
}

int audit_anchor_read(const char *path, struct audit_anchor **out, size_t *n, char *err,
		      size_t errlen)
{
	int fd = audit_open_regular(AT_FDCWD, path, O_RDONLY, 0);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
	struct audit_anchor a, *v = NULL;
	size_t cap = 0, cnt = 0, blen = 0;
	uint64_t lineno = 0;
	char *buf = NULL;
	ssize_t got;

	*out = NULL;
	*n = 0;
	if (!f) {
		snprintf(err, errlen, "anchor file %.200s: %s", path, audit_regfile_why(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((got = getline(&buf, &blen, f)) >= 0) {
		size_t len = (size_t)got;

		lineno++;
		if (len && buf[len - 1] == '\n')
			len--;
		if (audit_anchor_parse_line(buf, len, &a))
			continue;
		a.line = lineno;
		if (ARRAY_RESERVE(&v, &cap, cnt + 1)) {
			snprintf(err, errlen, "out of memory");
			free(v);
			free(buf);
			fclose(f);
			return -1;
		}
		v[cnt++] = a;
	}
	free(buf);
	fclose(f);
	*out = v;
	*n = cnt;
	return 0;
}
