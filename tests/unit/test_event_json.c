// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Records as JSON and text: fields, escaping of hostile bytes, time format. */
#include <criterion/criterion.h>
#include <string.h>

#include "codec.h"
#include "output/event_json.h"

static struct nsaudit_event base(void)
{
	struct nsaudit_event e = { 0 };

	e.op = NSAUDIT_OP_SETNS;
	e.ns_type = NSAUDIT_NS_NET;
	e.ns_inum = 4026532289u;
	e.old_inum = 4026531840u;
	e.flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_HAS_OLD;
	e.pid = e.tid = 42;
	e.fd = 3;
	e.via = NSAUDIT_VIA_PROC;
	e.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	strcpy(e.comm, "ip");
	return e;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

Test(event_json, setns_fields)
{
	struct nsaudit_event e = base();
	struct event_extra x = { .seq = 7, .realtime_ns = 0 };
	struct json_object *o = event_to_json(&e, &x);

	cr_assert_str_eq(str(o, "op"), "setns");
	cr_assert_str_eq(str(o, "ns_type"), "net");
	cr_assert_str_eq(str(o, "ns_inum"), "4026532289");
	cr_assert_str_eq(str(o, "old_inum"), "4026531840");
	cr_assert_str_eq(str(o, "via"), "proc");
	cr_assert_str_eq(str(o, "fd"), "3");
	cr_assert_str_eq(str(o, "seq"), "7");
	cr_assert_str_eq(str(o, "time"), "1970-01-01T00:00:00.000000000Z");
	cr_assert_str_eq(str(o, "probe"), "tracepoint/syscalls");
	cr_assert_null(str(o, "error"), "no error field on success");
	json_object_put(o);
}

Test(event_json, failure_has_errno_name)
{
	struct nsaudit_event e = base();
	struct event_extra x = { 0 };
	struct json_object *o;

	e.result = -1;	/* EPERM */
	o = event_to_json(&e, &x);
	cr_assert_str_eq(str(o, "result"), "-1");
	cr_assert_str_eq(str(o, "error"), "EPERM");
	json_object_put(o);
}

Test(event_json, absent_fields_are_absent)
{
	struct nsaudit_event e = base();
	struct event_extra x = { 0 };
	struct json_object *o;

	e.flags = 0;
	e.fd = -1;
	e.via = 0;
	o = event_to_json(&e, &x);
	cr_assert_null(str(o, "ns_inum"));
	cr_assert_null(str(o, "old_inum"));
	cr_assert_null(str(o, "fd"));
	cr_assert_null(str(o, "via"));
	json_object_put(o);
}

/* The object holds the exact bytes; the JSON line escapes them the one way. */
Test(event_json, hostile_comm_round_trips)
{
	struct nsaudit_event e = base();
	struct event_extra x = { 0 };
	struct json_object *o, *back;
	struct sbuf line = { 0 };

	memcpy(e.comm, "a\"b\nc\\\x01\xff", 9);
	e.comm[9] = '\0';
	o = event_to_json(&e, &x);
	cr_assert_str_eq(str(o, "comm"), "a\"b\nc\\\x01\xff");
	record_json_line(&line, &e, &x);
	cr_assert_eq(strchr(line.p, '\n'), line.p + line.len - 1, "a record is one line");
	cr_assert_not_null(strstr(line.p, "\"comm\":\"a\\\"b\\nc\\\\\\u0001\\u00ff\","), "%s",
			   line.p);
	back = json_tokener_parse(line.p);
	cr_assert_not_null(back, "the line is valid JSON");
	/* a generic reader sees U+00FF for the byte 0xff (nsaudit's: the byte) */
	cr_assert_str_eq(str(back, "comm"), "a\"b\nc\\\x01\xc3\xbf");
	cr_assert_null(str(back, "comm_hex"), "one policy: no _hex twin");
	json_object_put(back);
	json_object_put(o);
	sb_free(&line);
}

Test(event_json, rfc3339)
{
	char buf[64];

	format_rfc3339(1796286000123456789LL, buf, sizeof(buf));
	cr_assert_str_eq(buf, "2026-12-03T08:20:00.123456789Z");
}

/* The text line of a record, as trace prints it (caller frees). */
static char *text_line(const struct nsaudit_event *e, size_t *len)
{
	struct event_extra x = { 0 };
	struct json_object *o = event_to_json(e, &x);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	record_print_text(f, o, false);
	fclose(f);
	json_object_put(o);
	return buf;
}

Test(event_json, text_line_escapes)
{
	struct nsaudit_event e = base();
	size_t len;
	char *buf;

	strcpy(e.comm, "x\ny");
	buf = text_line(&e, &len);
	cr_assert_not_null(strstr(buf, "setns   net:[4026532289] from net:[4026531840]"), "%s", buf);
	cr_assert_not_null(strstr(buf, "comm=\"x\\x0ay\""), "%s", buf);
	cr_assert_eq(strchr(buf, '\n'), buf + len - 1, "one line");
	free(buf);
}

Test(event_json, text_line_says_for_children)
{
	struct nsaudit_event e = base();
	size_t len;
	char *buf;

	e.op = NSAUDIT_OP_UNSHARE;
	e.ns_type = NSAUDIT_NS_PID;
	e.flags |= NSAUDIT_F_FOR_CHILDREN;
	buf = text_line(&e, &len);
	cr_assert_not_null(strstr(buf, "unshare pid:[4026532289] from pid:[4026531840] "
				       "(for children) pid=42"), "%s", buf);
	free(buf);
}

Test(event_json, text_line_escapes_bytes_that_are_not_utf8)
{
	struct nsaudit_event e = base();
	size_t len;
	char *buf;

	strcpy(e.comm, "caf\xc3\xa9\xff\xc3");
	buf = text_line(&e, &len);
	/* the terminal rule: every byte that is not printable ASCII as \xNN */
	cr_assert_not_null(strstr(buf, "comm=\"caf\\xc3\\xa9\\xff\\xc3\""), "%s", buf);
	free(buf);
}

/* A container's namespace reads as docker ps names it; JSON keeps the id. */
Test(event_json, text_line_names_containers)
{
	static const char id[] = "c1f69d1c01baf7da755cfcc545b914511b6b4ec566c8f7d8e522897f4f182840";
	struct nsaudit_event e = base();
	struct event_extra x = { 0 };
	char ns_name[80], *buf = NULL;
	struct json_object *o;
	size_t len;
	FILE *f;

	snprintf(ns_name, sizeof(ns_name), "container:%s", id);
	x.ns_name = ns_name;
	x.container = id;
	x.container_name = "web";
	o = event_to_json(&e, &x);
	cr_assert_str_eq(str(o, "ns_name"), ns_name, "JSON: the id");
	f = open_memstream(&buf, &len);
	record_print_text(f, o, false);
	fclose(f);
	cr_assert(strstr(buf, "container:web"), "%s", buf);
	cr_assert_null(strstr(buf, "container:c1f6"), "%s", buf);
	free(buf);
	json_object_put(o);
}
