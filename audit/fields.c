// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* fields.c - one record straight into its line (or a json-c object). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

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

char *audit_fields_room(struct sbuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return b->p + b->len;
	return sb_reserve(b, n) ? b->p + b->len : NULL;
}

size_t audit_fields_dec(char *out, uint64_t v)
{
	static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
				       "25262728293031323334353637383940414243444546474849"
				       "50515253545556575859606162636465666768697071727374"
				       "75767778798081828384858687888990919293949596979899";
	uint64_t t = v;
	size_t n = 1;
	char *p;

	/* the length first, then the digits in place from the end: no
	 * buffer and copy (a variable-length memcpy call per number) */
	while (t >= 10) {
		t /= 10;
		n++;
	}
	p = out + n;
	while (v >= 100) {
		unsigned int d = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	}
	if (v >= 10) {
		*--p = pairs[v * 2 + 1];
		*--p = pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return n;
}

static void add(struct audit_fields *f, const char *k, struct json_object *v)
{
	json_object_object_add_ex(f->obj, k, v,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

void audit_fields_obj_str(struct audit_fields *f, const char *k, const char *s, size_t n)
{
	add(f, k, json_object_new_string_len(s, (int)n));
}

void audit_fields_obj_u64(struct audit_fields *f, const char *k, uint64_t v)
{
	add(f, k, json_object_new_uint64(v));
}

void audit_fields_obj_i64(struct audit_fields *f, const char *k, int64_t v)
{
	add(f, k, json_object_new_int64(v));
}

void audit_fields_obj_bool(struct audit_fields *f, const char *k, bool v)
{
	add(f, k, json_object_new_boolean(v));
}

void audit_fields_twin(struct audit_fields *f, const char *key, const char *s, size_t n)
{
	size_t blen = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
	char name[64], *b64 = malloc(blen);

	if (!b64)
		return;
	sodium_bin2base64(b64, blen, (const unsigned char *)s, n, sodium_base64_VARIANT_ORIGINAL);
	snprintf(name, sizeof(name), "%s_b64", key);
	if (f->obj) {
		/* not add(): the key is not a literal that outlives the object */
		json_object_object_add(f->obj, name, json_object_new_string(b64));
	} else {
		sb_printf(f->b, ",\"%s\":\"%s\"", name, b64);
	}
	free(b64);
}

void audit_line_begin(struct sbuf *b, enum audit_format fmt, uint64_t seq, int64_t ns)
{
	static const char head[] = "type=NSAUDIT msg=nsaudit(";
	char *p;

	if (fmt == AUDIT_FMT_JSON) {
		p = audit_fields_room(b, 7 + 20);
		if (!p)
			return;
		memcpy(p, "{\"seq\":", 7);
		p += 7;
		p += audit_fields_dec(p, seq);
		b->len = (size_t)(p - b->p);
		*p = '\0';
		return;
	}
	if (ns < 0) { /* C's division rounds toward zero: write it the way audit_encode does */
		sb_printf(b, "%s%" PRId64 ".%03d:%" PRIu64 "):", head, ns / 1000000000,
			  (int)(ns % 1000000000 / 1000000), seq);
		return;
	}
	p = audit_fields_room(b, sizeof(head) + 20 + 4 + 20 + 2);
	if (!p)
		return;
	memcpy(p, head, sizeof(head) - 1);
	p += sizeof(head) - 1;
	p += audit_fields_dec(p, (uint64_t)ns / 1000000000);
	{
		unsigned int ms = (unsigned int)((uint64_t)ns % 1000000000 / 1000000);

		*p++ = '.';
		*p++ = (char)('0' + ms / 100);
		*p++ = (char)('0' + ms / 10 % 10);
		*p++ = (char)('0' + ms % 10);
	}
	*p++ = ':';
	p += audit_fields_dec(p, seq);
	*p++ = ')';
	*p++ = ':';
	b->len = (size_t)(p - b->p);
	*p = '\0';
}

int audit_line_end_chain(struct sbuf *b, size_t start, enum audit_format fmt, struct audit_chain *c,
			 uint64_t seq, const uint8_t *prev, uint8_t mac[AUDIT_MAC_LEN])
{
	size_t ml = audit_chain_maclen(c->kind), hl = 2 * ml;
	char *p;

	if (b->oom)
		return -1;
	audit_chain_mac(c, seq, prev, b->p + start, b->len - start, mac);
	p = audit_fields_room(b, 8 + hl + 3);
	if (!p)
		return -1;
	if (fmt == AUDIT_FMT_JSON) {
		memcpy(p, ",\"mac\":\"", 8);
		audit_hex(mac, ml, p + 8);
		memcpy(p + 8 + hl, "\"}\n", 4); /* with the NUL */
		b->len += 8 + hl + 3;
	} else {
		memcpy(p, " mac=", 5);
		audit_hex(mac, ml, p + 5);
		memcpy(p + 5 + hl, "\n", 2);
		b->len += 5 + hl + 1;
	}
	return b->len - start > AUDIT_MAX_LINE ? -1 : 0;
}

int audit_line_end(struct sbuf *b, size_t start, enum audit_format fmt,
		   const uint8_t key[AUDIT_KEY_LEN], const uint8_t prev[AUDIT_MAC_LEN],
		   uint8_t mac[AUDIT_MAC_LEN])
{
	struct audit_chain c;
	int rc;

	audit_chain_init(&c, AUDIT_MAC_BLAKE2B, key, NULL);
	rc = audit_line_end_chain(b, start, fmt, &c, 0, prev, mac);
	audit_chain_wipe(&c);
	return rc;
}

void audit_line_close(struct sbuf *b)
{
	sb_put(b, "}\n", 2);
}
