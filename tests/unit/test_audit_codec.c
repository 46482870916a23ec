// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_codec.c - records <-> lines: hostile strings round-trip in
 * both formats, auditd hex encoding, and the parser survives garbage.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "codec.h"
#include "search.h"

static const uint8_t key[AUDIT_KEY_LEN] = {1, 2, 3};
static const uint8_t zero[AUDIT_MAC_LEN];

/* Encode an event with this comm, parse the line back, compare bytes. */
static void roundtrip(enum audit_format fmt, const char *comm, size_t n)
{
	struct json_object *e = json_object_new_object();
	uint8_t mac[AUDIT_MAC_LEN], again[AUDIT_MAC_LEN];
	struct sbuf line = {0};
	struct audit_rec r;
	const char *got;
	size_t glen;
	char err[200];

	json_object_object_add(e, "op", json_object_new_string("open"));
	json_object_object_add(e, "comm", json_object_new_string_len(comm, (int)n));
	json_object_object_add(e, "path", json_object_new_string_len(comm, (int)n));
	json_object_object_add(e, "pid", json_object_new_int(7));
	cr_assert_eq(audit_encode(fmt, e, 42, key, zero, &line, mac), 0);
	/* one line, exactly: a newline in a string can never split a record */
	cr_assert_eq(memchr(line.p, '\n', line.len), line.p + line.len - 1);
	cr_assert_null(memchr(line.p, '\r', line.len));
	cr_assert_eq(audit_rec_parse(line.p, line.len - 1, &r, err, sizeof(err)), 0, "%s: %s", err,
		     line.p);
	cr_expect_eq(r.seq, 42);
	cr_expect_eq(r.fmt, fmt);
	got = audit_rec_str(&r, "comm", &glen);
	cr_assert_not_null(got);
	cr_assert_eq(glen, n, "length %zu, want %zu: %s", glen, n, line.p);
	cr_assert_eq(memcmp(got, comm, n), 0, "bytes differ: %s", line.p);
	got = audit_rec_str(&r, "path", &glen);
	cr_assert(got && glen == n && !memcmp(got, comm, n));
	/* and the MAC stored in the line is the one over its body */
	audit_mac(key, zero, line.p, r.body_len, again);
	cr_expect_eq(memcmp(again, r.mac, AUDIT_MAC_LEN), 0);
	cr_expect_eq(memcmp(mac, r.mac, AUDIT_MAC_LEN), 0);
	audit_rec_free(&r);
	json_object_put(e);
	sb_free(&line);
}

static const struct {
	const char *s;
	size_t n;
} hostile[] = {
    {"ip", 2},
    {"", 0},
    {"a\"b", 3},
    {"back\\slash", 10},
    {"new\nline", 8},
    {"x\n{\"seq\":5,\"op\":\"setns\"}", 25},
    {"cr\rtab\tbell\a", 12},
    {"\x1b[31mred", 8},
    {"del\x7f", 4},
    {"\xff\xfe\x80", 3},
    {"caf\xc3\xa9", 5},	     /* valid UTF-8 stays raw */
    {"\xc3\x28", 2},	     /* invalid 2-byte */
    {"\xed\xa0\x80", 3},     /* a UTF-16 surrogate in UTF-8: invalid */
    {"\xf0\x9f\x98\x80", 4}, /* emoji */
    {"\xe2\x80\xa8sep", 6},  /* U+2028 */
    {"nul\0byte", 8},
    {" mac=00 ", 8},
    {"type=NSAUDIT msg=nsaudit(1:1):", 30},
    {"(null)", 6},
    {"1234", 4},
    {"ABCDEF", 6},
};

Test(audit_codec, hostile_strings_roundtrip_json)
{
	size_t i;

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		roundtrip(AUDIT_FMT_JSON, hostile[i].s, hostile[i].n);
}

Test(audit_codec, hostile_strings_roundtrip_audit)
{
	size_t i;

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		roundtrip(AUDIT_FMT_AUDIT, hostile[i].s, hostile[i].n);
}

Test(audit_codec, every_byte_roundtrips)
{
	char all[256];
	int i;

	for (i = 0; i < 256; i++)
		all[i] = (char)i;
	roundtrip(AUDIT_FMT_JSON, all, 256);
	roundtrip(AUDIT_FMT_AUDIT, all, 256);
	for (i = 0; i < 256; i++) {
		char one = (char)i;

		roundtrip(AUDIT_FMT_JSON, &one, 1);
		roundtrip(AUDIT_FMT_AUDIT, &one, 1);
	}
}

Test(audit_codec, json_output_is_valid_utf8_json)
{
	struct json_object *e = json_object_new_object(), *back;
	uint8_t mac[AUDIT_MAC_LEN];
	struct sbuf line = {0};

	json_object_object_add(e, "comm", json_object_new_string("\xff\xfe\"\n"));
	cr_assert_eq(audit_encode(AUDIT_FMT_JSON, e, 1, key, zero, &line, mac), 0);
	cr_expect(strstr(line.p, "\"comm\":\"\\u00ff\\u00fe\\\"\\n\""), "%s", line.p);
	/* any JSON reader accepts it (json-c checks UTF-8 strictly enough) */
	back = json_tokener_parse(line.p);
	cr_assert_not_null(back, "%s", line.p);
	json_object_put(back);
	json_object_put(e);
	sb_free(&line);
}

static void untrusted_is(const char *in, size_t n, const char *want)
{
	struct sbuf b = {0};

	audit_untrusted(&b, in, n);
	sb_put(&b, "", 0);
	cr_expect_str_eq(b.p, want);
	sb_free(&b);
}

Test(audit_codec, auditd_hex_encoding)
{
	untrusted_is("ip", 2, "\"ip\"");
	untrusted_is("/usr/bin/ip", 11, "\"/usr/bin/ip\"");
	untrusted_is("", 0, "\"\"");
	untrusted_is("a b", 3, "612062");  /* space: hex, as auditd */
	untrusted_is("a\"b", 3, "612262"); /* a quote: hex */
	untrusted_is("x\n", 2, "780A");	   /* uppercase */
	untrusted_is("\xff", 1, "FF");
	untrusted_is("~!", 2, "\"~!\"");
	untrusted_is("\x7f", 1, "7F");
}

Test(audit_codec, audit_line_shape)
{
	struct json_object *e = json_object_new_object();
	uint8_t mac[AUDIT_MAC_LEN];
	struct sbuf line = {0};

	json_object_object_add(e, "time", json_object_new_string("2026-12-03T08:40:00.123456789Z"));
	json_object_object_add(e, "op", json_object_new_string("setns"));
	json_object_object_add(e, "pid", json_object_new_int(123));
	json_object_object_add(e, "comm", json_object_new_string("my prog"));
	cr_assert_eq(audit_encode(AUDIT_FMT_AUDIT, e, 17, key, zero, &line, mac), 0);
	cr_expect_eq(strncmp(line.p, "type=NSAUDIT msg=nsaudit(1796287200.123:17): time=", 50), 0,
		     "%s", line.p);
	cr_expect(strstr(line.p, " op=\"setns\" pid=123 comm=6D792070726F67 mac="), "%s", line.p);
	json_object_put(e);
	sb_free(&line);
}

static void must_fail(const char *line, size_t len)
{
	struct audit_rec r;
	char err[200] = "";

	cr_expect_eq(audit_rec_parse(line, len, &r, err, sizeof(err)), -1, "parsed: %.*s", (int)len,
		     line);
	cr_expect_neq(err[0], '\0', "no error message");
	cr_expect_null(r.obj);
}

/* sizeof: the literals hold NULs and must not be measured with strlen */
#define MUST_FAIL(lit) must_fail(lit, sizeof(lit) - 1)
#define MAC64	       "0000000000000000000000000000000000000000000000000000000000000000"

Test(audit_codec, garbage_is_an_error_not_a_crash)
{
	static const char bin[] = "\x7f"
				  "ELF\x02\x01\x01\0\0\0\0";

	MUST_FAIL("");
	MUST_FAIL("hello");
	must_fail(bin, sizeof(bin) - 1);
	MUST_FAIL("{");
	MUST_FAIL("{\"seq\":1");
	MUST_FAIL("{\"seq\":1,\"mac\":\"" MAC64 "\"");
	MUST_FAIL("{\"seq\":1,\"mac\":\"" MAC64 "\"}x");
	MUST_FAIL("{\"mac\":\"" MAC64 "\"}"); /* no seq */
	MUST_FAIL("{\"seq\":-1,\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("{\"seq\":1,\"seq\":2,\"mac\":\"" MAC64 "\"}"); /* duplicate */
	MUST_FAIL("{\"seq\":1,\"a\":\"\\ud800\",\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("{\"seq\":1,\"a\":\"x\ny\",\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("{\"seq\":99999999999999999999999,\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("{\"seq\":1,\"a\":[1,2,,],\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("{\"seq\":1 \"a\":1,\"mac\":\"" MAC64 "\"}");
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:5) mac=" MAC64);
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:): mac=" MAC64);
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:5): pid=abc mac=" MAC64);
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:5): comm=XYZ mac=" MAC64);
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:5): comm=\"a mac=" MAC64);
	MUST_FAIL("type=NSAUDIT msg=nsaudit(1.0:5):  a=1 mac=" MAC64);
	MUST_FAIL("type=SYSCALL msg=audit(1.0:5): a=1 mac=" MAC64);
}

Test(audit_codec, parser_survives_mutations)
{
	struct json_object *e = json_object_new_object();
	uint8_t mac[AUDIT_MAC_LEN];
	struct sbuf line = {0};
	int fmt, i, j;

	json_object_object_add(e, "op", json_object_new_string("setns"));
	json_object_object_add(e, "comm", json_object_new_string("i\"p\n\xff"));
	json_object_object_add(e, "ns_inum", json_object_new_int64(4026531840LL));
	json_object_object_add(e, "x", json_object_new_double(1.5));
	json_object_object_add(e, "b", json_object_new_boolean(1));
	json_object_object_add(e, "n", NULL);
	srand(1);
	for (fmt = 0; fmt < 2; fmt++) {
		cr_assert_eq(audit_encode((enum audit_format)fmt, e, 3, key, zero, &line, mac), 0);
		for (i = 0; i < 20000; i++) {
			char *m = malloc(line.len);
			size_t len = line.len - 1;
			struct audit_rec r;
			char err[200];

			memcpy(m, line.p, line.len);
			for (j = rand() % 4; j >= 0; j--)
				m[rand() % len] = (char)(rand() % 256);
			if (rand() % 4 == 0)
				len = (size_t)rand() % len;
			if (!audit_rec_parse(m, len, &r, err, sizeof(err)))
				audit_rec_free(&r);
			free(m);
		}
	}
	json_object_put(e);
	sb_free(&line);
}

Test(audit_codec, time_parsing)
{
	int64_t ns;

	cr_assert_eq(audit_time_parse("2026-12-03T08:40:00Z", &ns), 0);
	cr_expect_eq(ns, 1796287200LL * 1000000000);
	cr_assert_eq(audit_time_parse("2026-12-03T08:40:00.5Z", &ns), 0);
	cr_expect_eq(ns, 1796287200LL * 1000000000 + 500000000);
	cr_assert_eq(audit_time_parse("2026-12-03T09:40:00.123456789+01:00", &ns), 0);
	cr_expect_eq(ns, 1796287200LL * 1000000000 + 123456789);
	cr_expect_eq(audit_time_parse("2026-12-03", &ns), -1);
	cr_expect_eq(audit_time_parse("2026-13-03T08:40:00Z", &ns), -1);
	cr_expect_eq(audit_time_parse("2026-12-03T08:40:00", &ns), -1);
	cr_expect_eq(audit_time_parse("yesterday", &ns), -1);

	cr_assert_eq(audit_time_arg("@1796287200", 0, &ns), 0);
	cr_expect_eq(ns, 1796287200LL * 1000000000);
	cr_assert_eq(audit_time_arg("10m", 3600LL * 1000000000, &ns), 0);
	cr_expect_eq(ns, 3000LL * 1000000000);
	cr_assert_eq(audit_time_arg("2h", 3LL * 3600 * 1000000000, &ns), 0);
	cr_expect_eq(ns, 3600LL * 1000000000);
	cr_assert_eq(audit_time_arg("now", 77, &ns), 0);
	cr_expect_eq(ns, 77);
	cr_expect_eq(audit_time_arg("10x", 0, &ns), -1);
	cr_expect_eq(audit_time_arg("@", 0, &ns), -1);
	cr_expect_eq(audit_time_arg("@abc", 0, &ns), -1);
	cr_expect_eq(audit_time_arg("", 0, &ns), -1);
	cr_expect_eq(audit_time_arg("m", 0, &ns), -1);
}

static void parse_err_has(const char *line, size_t len, const char *want)
{
	struct audit_rec r;
	char err[200] = "";

	cr_assert_eq(audit_rec_parse(line, len, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, want), "error '%s' lacks '%s'", err, want);
}
#define ERR_HAS(lit, want) parse_err_has(lit, sizeof(lit) - 1, want)

Test(audit_codec, minimal_records_parse_and_errors_say_why)
{
	static const char j[] = "{\"seq\":1,\"mac\":\"" MAC64 "\"}";
	static const char a[] = "type=NSAUDIT msg=nsaudit(1.000:1): mac=" MAC64;
	struct audit_rec r;
	char err[200];

	cr_assert_eq(audit_rec_parse(j, sizeof(j) - 1, &r, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(r.seq, 1);
	cr_expect_eq(r.body_len, 8);
	audit_rec_free(&r);
	cr_assert_eq(audit_rec_parse(a, sizeof(a) - 1, &r, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(r.seq, 1);
	cr_expect_eq(r.body_len, sizeof(a) - 1 - 69);
	audit_rec_free(&r);

	ERR_HAS("{\"seq\":1,\"seq\":2,\"mac\":\"" MAC64 "\"}", "duplicate");
	ERR_HAS("{\"seq\":1", "no MAC");
	ERR_HAS("abc\0def", "NUL");
	ERR_HAS("{\"seq\":1,\"a\":\"x\ny\",\"mac\":\"" MAC64 "\"}", "control byte");
	ERR_HAS("{\"seq\":1,\"a\":\"\\ud800\",\"mac\":\"" MAC64 "\"}", "surrogate");
	ERR_HAS("{\"a\":1,\"mac\":\"" MAC64 "\",\"b\":2,\"mac\":\"" MAC64 "\"}", "mac");
	ERR_HAS("type=NSAUDIT msg=nsaudit(1.0:5): pid=abc mac=" MAC64, "pid");
}

/* --- the one terminal rule ------------------------------------------------------- */

static char *quoted(const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");

	audit_text_quote(f, s);
	fclose(f);
	return out;
}

Test(audit_codec, terminal_escaping_one_rule)
{
	char buf[64];

	/* control bytes, DEL, C1 and any non-ASCII byte are \xNN; a backslash
	 * doubled; quotes only inside quotes */
	cr_expect_str_eq(quoted("a\"b\\c\n\x1b[2J\x7f\xc2\x9b\xc3\xa9"),
			 "\"a\\\"b\\\\c\\x0a\\x1b[2J\\x7f\\xc2\\x9b\\xc3\\xa9\"");
	cr_expect_str_eq(audit_text_escape_buf("a\"b\\\x01", buf, sizeof(buf)),
			 "a\"b\\\\\\x01");
	/* truncated at a whole escape, never in the middle of one */
	cr_expect_str_eq(audit_text_escape_buf("ab\x01", buf, 6), "ab");
	cr_expect_str_eq(audit_text_escape_buf("ab\x01", buf, 7), "ab\\x01");
}

Test(audit_codec, utf8_validator)
{
	cr_expect_eq(utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);
	cr_expect_eq(utf8_len((const unsigned char *)"\xe2\x82\xac", 3), 3);
	cr_expect_eq(utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	cr_expect_eq(utf8_len((const unsigned char *)"\xc0\xaf", 2), 0, "overlong");
	cr_expect_eq(utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0, "surrogate");
	cr_expect_eq(utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0, "past U+10FFFF");
	cr_expect_eq(utf8_len((const unsigned char *)"\xe2\x82", 2), 0, "cut short");
}
