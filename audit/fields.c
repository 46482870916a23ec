// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fields.c - one record straight into its line (or a json-c object). */
#include <inttypes.h>
#include <string.h>

#include <json-c/json.h>

#include "chain.h"
#include "fields.h"

void audit_fields_line(struct audit_fields *f, struct sbuf *b, enum audit_format fmt)
{
	f->b = b;
	f->fmt = fmt;
	f->obj = NULL;
}

void audit_fields_object(struct audit_fields *f, struct json_object *obj)
{
	f->b = NULL;
	f->fmt = AUDIT_FMT_JSON;
	f->obj = obj;
}

/* Decimal digits of v into out (at least 20 bytes); their count. */
static size_t dec(char *out, uint64_t v)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* ,"key":  or  ' key=' */
static void key(struct audit_fields *f, const char *k)
{
	size_t n = strlen(k);
	char buf[64];

	if (n > sizeof(buf) - 4)
		n = sizeof(buf) - 4;
	if (f->fmt == AUDIT_FMT_JSON) {
		buf[0] = ',';
		buf[1] = '"';
		memcpy(buf + 2, k, n);
		buf[n + 2] = '"';
		buf[n + 3] = ':';
		sb_put(f->b, buf, n + 4);
	} else {
		buf[0] = ' ';
		memcpy(buf + 1, k, n);
		buf[n + 1] = '=';
		sb_put(f->b, buf, n + 2);
	}
}

static void add(struct audit_fields *f, const char *k, struct json_object *v)
{
	json_object_object_add_ex(f->obj, k, v,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

void audit_f_str(struct audit_fields *f, const char *k, const char *s, size_t n)
{
	n = strnlen(s, n);
	if (f->obj) {
		add(f, k, json_object_new_string_len(s, (int)n));
		return;
	}
	key(f, k);
	if (f->fmt == AUDIT_FMT_JSON) {
		sb_put(f->b, "\"", 1);
		audit_json_escape(f->b, s, n);
		sb_put(f->b, "\"", 1);
	} else {
		audit_untrusted(f->b, s, n);
	}
}

void audit_f_u64(struct audit_fields *f, const char *k, uint64_t v)
{
	char num[24];

	if (f->obj) {
		add(f, k, json_object_new_uint64(v));
		return;
	}
	key(f, k);
	sb_put(f->b, num, dec(num, v));
}

void audit_f_i64(struct audit_fields *f, const char *k, int64_t v)
{
	char num[24];

	if (f->obj) {
		add(f, k, json_object_new_int64(v));
		return;
	}
	key(f, k);
	if (v < 0) {
		num[0] = '-';
		sb_put(f->b, num, 1 + dec(num + 1, -(uint64_t)v));
	} else {
		sb_put(f->b, num, dec(num, (uint64_t)v));
	}
}

void audit_f_bool(struct audit_fields *f, const char *k, bool v)
{
	if (f->obj) {
		add(f, k, json_object_new_boolean(v));
		return;
	}
	key(f, k);
	if (v)
		sb_put(f->b, "true", 4);
	else
		sb_put(f->b, "false", 5);
}

void audit_line_begin(struct sbuf *b, enum audit_format fmt, uint64_t seq, int64_t ns)
{
	static const char head[] = "type=NSAUDIT msg=nsaudit(";
	char buf[96];
	size_t n;

	if (fmt == AUDIT_FMT_JSON) {
		memcpy(buf, "{\"seq\":", 7);
		n = 7 + dec(buf + 7, seq);
		sb_put(b, buf, n);
		return;
	}
	if (ns < 0) { /* C's division rounds toward zero: say it the way audit_encode does */
		sb_printf(b, "%s%" PRId64 ".%03d:%" PRIu64 "):", head, ns / 1000000000,
			  (int)(ns % 1000000000 / 1000000), seq);
		return;
	}
	memcpy(buf, head, sizeof(head) - 1);
	n = sizeof(head) - 1;
	n += dec(buf + n, (uint64_t)ns / 1000000000);
	buf[n++] = '.';
	n += (size_t)snprintf(buf + n, 4, "%03d", (int)((uint64_t)ns % 1000000000 / 1000000));
	buf[n++] = ':';
	n += dec(buf + n, seq);
	buf[n++] = ')';
	buf[n++] = ':';
	sb_put(b, buf, n);
}

int audit_line_end(struct sbuf *b, size_t start, enum audit_format fmt,
		   const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		   uint8_t mac[AUDIT_MAC_LEN])
{
	char tail[16 + AUDIT_MAC_HEX];
	size_t n;

	if (b->oom)
		return -1;
	audit_mac(key, prev, b->p + start, b->len - start, mac);
	if (fmt == AUDIT_FMT_JSON) {
		memcpy(tail, ",\"mac\":\"", 8);
		audit_hex(mac, AUDIT_MAC_LEN, tail + 8);
		memcpy(tail + 8 + AUDIT_MAC_HEX, "\"}\n", 3);
		n = 8 + AUDIT_MAC_HEX + 3;
	} else {
		memcpy(tail, " mac=", 5);
		audit_hex(mac, AUDIT_MAC_LEN, tail + 5);
		tail[5 + AUDIT_MAC_HEX] = '\n';
		n = 5 + AUDIT_MAC_HEX + 1;
	}
	sb_put(b, tail, n);
	if (b->oom || b->len - start > AUDIT_MAX_LINE) {
		if (!b->oom)
			b->len = start;
		return -1;
	}
	return 0;
}

void audit_line_close(struct sbuf *b)
{
	sb_put(b, "}\n", 2);
}
