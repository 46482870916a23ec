// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Names every JSON reader tells apart (issue 25): a string that is not
 * valid UTF-8 gets a KEY_b64 twin with its exact bytes, in the trace line,
 * the json-c object (sinks, the log) and through nsaudit's own reader.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <sodium.h>
#include <string.h>

#include "codec.h"
#include "output/event_json.h"

static struct nsaudit_event rec(const char *comm, const char *path)
{
	struct nsaudit_event e = {0};

	e.op = NSAUDIT_OP_UMOUNT;
	e.ns_type = NSAUDIT_NS_NET;
	e.fd = -1;
	e.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	snprintf(e.path, sizeof(e.path), "%s", path);
	return e;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

/* base64 text -> bytes (NUL-terminated), as any reader would decode it */
static const char *unb64(const char *b64, char *out, size_t len)
{
	size_t n = 0;

	cr_assert_not_null(b64);
	cr_assert_eq(sodium_base642bin((unsigned char *)out, len - 1, b64, strlen(b64), NULL, &n,
				       NULL, sodium_base64_VARIANT_ORIGINAL),
		     0, "valid base64: %s", b64);
	out[n] = '\0';
	return out;
}

Test(json_twin, stray_byte_and_its_utf8_lookalike_differ_for_a_generic_reader)
{
	struct nsaudit_event a = rec("x\xff", "/run/netns/\xff"), b = rec("x\xc3\xbf", "/run/y");
	struct event_extra x = {0};
	struct sbuf la = {0}, lb = {0};
	struct json_object *ga, *gb;
	char buf[300];

	record_json_line(&la, &a, &x);
	record_json_line(&lb, &b, &x);
	ga = json_tokener_parse(la.p);
	gb = json_tokener_parse(lb.p);
	cr_assert_not_null(ga, "valid JSON: %s", la.p);
	cr_assert_not_null(gb, "valid JSON: %s", lb.p);
	/* the readable field alone is the same string for both ... */
	cr_assert_str_eq(str(ga, "comm"), str(gb, "comm"));
	/* ... the twin tells them apart, with the exact bytes */
	cr_assert_str_eq(unb64(str(ga, "comm_b64"), buf, sizeof(buf)), "x\xff");
	cr_assert_null(str(gb, "comm_b64"), "valid UTF-8: no twin");
	cr_assert_str_eq(unb64(str(ga, "path_b64"), buf, sizeof(buf)), "/run/netns/\xff");
	cr_assert_null(str(gb, "path_b64"));
	json_object_put(ga);
	json_object_put(gb);
	sb_free(&la);
	sb_free(&lb);
}

Test(json_twin, object_for_sinks_and_the_log_has_the_twin)
{
	struct nsaudit_event e = rec("ok", "/a\x80z");
	struct event_extra x = {0};
	struct json_object *o = event_to_json(&e, &x);
	char buf[64];

	cr_assert_str_eq(str(o, "path"), "/a\x80z");
	cr_assert_str_eq(unb64(str(o, "path_b64"), buf, sizeof(buf)), "/a\x80z");
	cr_assert_null(str(o, "comm_b64"));
	json_object_put(o);
}

Test(json_twin, invalid_forms_get_a_twin_valid_ones_do_not)
{
	cr_assert(audit_utf8_valid("plain", 5));
	cr_assert(audit_utf8_valid("\xc3\xbf\xe2\x82\xac\xf0\x9f\x98\x80", 9));
	cr_assert(audit_utf8_valid("\x01\x7f", 2), "controls are valid UTF-8");
	cr_assert_not(audit_utf8_valid("\xc0\xaf", 2), "overlong");
	cr_assert_not(audit_utf8_valid("\xed\xa0\x80", 3), "surrogate");
	cr_assert_not(audit_utf8_valid("\xc3", 1), "cut short");
	cr_assert_not(audit_utf8_valid("\xf4\x90\x80\x80", 4), "past U+10FFFF");
}

/* nsaudit's reader: the stray byte back as that byte, the twin kept, and
 * the record written again byte for byte the same. */
Test(json_twin, own_reader_round_trips_both)
{
	struct nsaudit_event e = rec("c\xfe", "/p\xff");
	struct event_extra x = {.seq = 3};
	struct json_object *o = event_to_json(&e, &x);
	struct sbuf line = {0}, again = {0};
	uint8_t key[AUDIT_KEY_LEN] = {1}, prev[AUDIT_MAC_LEN] = {0}, mac[AUDIT_MAC_LEN];
	struct audit_rec r;
	char err[128];
	size_t n;

	cr_assert_eq(audit_encode(AUDIT_FMT_JSON, o, 3, key, prev, &line, mac), 0);
	cr_assert_eq(audit_rec_parse(line.p, line.len - 1, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(audit_rec_str(&r, "comm", &n), "c\xfe");
	cr_assert_str_eq(audit_rec_str(&r, "path", &n), "/p\xff");
	cr_assert_not_null(audit_rec_str(&r, "path_b64", &n));
	json_object_object_del(r.obj, "seq");
	cr_assert_eq(audit_encode(AUDIT_FMT_JSON, r.obj, 3, key, prev, &again, mac), 0);
	cr_assert_str_eq(again.p, line.p);
	audit_rec_free(&r);
	json_object_put(o);
	sb_free(&line);
	sb_free(&again);
}
