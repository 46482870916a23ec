// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * libFuzzer: hostile bytes as comm, path and names must always give one
 * line of valid JSON (trace), log lines in both formats that nsaudit's
 * reader parses back to the exact bytes with a MAC that verifies, and a
 * text line without a raw newline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

#include "codec.h"
#include "enrich/enrich.h"
#include "output/event_json.h"
#include "fields.h"
#include "enrich/mountinfo.h"
#include "output/record_fmt.h"

static const uint8_t key[AUDIT_KEY_LEN] = { 9 };

/* The record as a log line in fmt, parsed back: the same bytes, a good MAC. */
static void log_round_trip(enum audit_format fmt, const struct nsaudit_event *e,
			   const struct event_extra *x)
{
	static const uint8_t zero[AUDIT_MAC_LEN];
	uint8_t mac[AUDIT_MAC_LEN], again[AUDIT_MAC_LEN];
	struct audit_fields f;
	struct sbuf b = { 0 };
	struct audit_rec r;
	const char *s;
	size_t n;
	char err[200];

	audit_line_begin(&b, fmt, 1, x->realtime_ns);
	audit_fields_line(&f, &b, fmt);
	record_fields(&f, e, x);
	if (audit_line_end(&b, 0, fmt, key, zero, mac))
		abort();
	if (memchr(b.p, '\n', b.len) != b.p + b.len - 1)
		abort();
	if (audit_rec_parse(b.p, b.len - 1, &r, err, sizeof(err)))
		abort();
	audit_mac(key, zero, b.p, r.body_len, again);
	if (memcmp(again, r.mac, sizeof(again)) || memcmp(mac, r.mac, sizeof(mac)))
		abort();
	s = audit_rec_str(&r, "comm", &n);
	if (!s || n != strlen(e->comm) || memcmp(s, e->comm, n))
		abort();
	s = audit_rec_str(&r, "path", &n);
	if (e->path[0] && (!s || n != strlen(e->path) || memcmp(s, e->path, n)))
		abort();
	s = audit_rec_str(&r, "ns_name", &n);
	if (!s || n != strlen(x->ns_name) || memcmp(s, x->ns_name, n))
		abort();
	audit_rec_free(&r);
	sb_free(&b);
}

/*
 * What a generic JSON reader (here json-c, no nsaudit decoding) gets for an
 * untrusted string: valid UTF-8 as is and no twin; anything else has a
 * KEY_b64 twin that decodes to the exact bytes.
 */
static void generic_exact(struct json_object *rec, const char *key, const char *want)
{
	struct json_object *v;
	unsigned char bytes[512];
	size_t n = 0, wn = strlen(want);
	char twin[64];

	snprintf(twin, sizeof(twin), "%s_b64", key);
	if (audit_utf8_valid(want, wn)) {
		if (json_object_object_get_ex(rec, twin, &v))
			abort();
		if (!json_object_object_get_ex(rec, key, &v) ||
		    (size_t)json_object_get_string_len(v) != wn ||
		    memcmp(json_object_get_string(v), want, wn))
			abort();
		return;
	}
	if (!json_object_object_get_ex(rec, twin, &v) ||
	    sodium_base642bin(bytes, sizeof(bytes), json_object_get_string(v),
			      (size_t)json_object_get_string_len(v), NULL, &n, NULL,
			      sodium_base64_VARIANT_ORIGINAL) ||
	    n != wn || memcmp(bytes, want, n))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { 0 };
	struct json_object *o, *back;
	struct sbuf line = { 0 };
	char mnt[256], *buf = NULL, *s, name[64];
	size_t n = 0, half = size / 2;
	uint32_t inum;
	int type;
	FILE *f;

	e.op = NSAUDIT_OP_OPEN;
	e.ns_type = NSAUDIT_NS_NET;
	e.flags = NSAUDIT_F_HAS_NS;
	e.fd = 3;
	memcpy(e.comm, data, half < sizeof(e.comm) - 1 ? half : sizeof(e.comm) - 1);
	memcpy(e.path, data + half,
	       size - half < sizeof(e.path) - 1 ? size - half : sizeof(e.path) - 1);
	snprintf(name, sizeof(name), "%.*s", (int)(size < 63 ? size : 63), (const char *)data);
	x.ns_name = name;

	record_json_line(&line, &e, &x);
	if (line.oom || memchr(line.p, '\n', line.len) != line.p + line.len - 1)
		abort();
	back = json_tokener_parse(line.p);
	if (!back)
		abort();
	generic_exact(back, "comm", e.comm);
	if (e.path[0])
		generic_exact(back, "path", e.path);
	generic_exact(back, "ns_name", name);
	json_object_put(back);
	sb_free(&line);
	log_round_trip(AUDIT_FMT_JSON, &e, &x);
	log_round_trip(AUDIT_FMT_AUDIT, &e, &x);

	o = event_to_json(&e, &x);
	f = open_memstream(&buf, &n);
	record_print_text(f, o, true);
	fclose(f);
	if (strchr(buf, '\n') != buf + n - 1)
		abort();
	free(buf);
	json_object_put(o);

	/* and the same bytes as a mountinfo line */
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	mountinfo_nsfs_line(s, mnt, sizeof(mnt), &type, &inum);
	proc_ns_path_pid(s, 1);
	free(s);
	return 0;
}
