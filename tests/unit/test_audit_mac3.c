// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_mac3.c - the record MAC of format version 3 (chain.h): one
 * Poly1305 key per record from ChaCha20, chained over the previous tag.
 *
 * The known answers were computed independently, with Python's hashlib
 * (keyed BLAKE2b) and pyca/cryptography (ChaCha20 with the 16-byte
 * counter||nonce block, Poly1305), not with libsodium:
 *
 *   R   = blake2b(b"nsaudit record mac v3", key=K, digest_size=32)
 *   ks  = ChaCha20(R, pack("<Q", seq // 2) + run).update(64 zero bytes)
 *   k   = ks[32 * (seq % 2):][:32]
 *   tag = Poly1305.generate_tag(k, prev + body)
 *
 * with K = 00 01 .. 1f, run = 01 02 .. 08, prev = a0 a1 .. af and the body
 * below with its seq. The old formats (1: static key, 2: sealed; BLAKE2b)
 * still verify: tests/unit/fixtures holds logs the previous version wrote.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "chain.h"
#include "codec.h"
#include "log.h"
#include "seal.h"
#include "verify.h"

static const struct {
	uint64_t seq;
	const char *tag;
} kat[] = {
    {1, "a54742654694e08549aca13f5d0d364f"},  {2, "3081016e200e0b719d5de80918b2822b"},
    {63, "3dee80d247eac2104d27f6ea0d0bceb4"}, {64, "4ea05dfbddc10e6d1ce48807e3112537"},
    {65, "57c4b0d4bf9d4b401524d95511ee170c"}, {1000001, "cc7ef196b7def9b41f73d189fe5a4f93"},
};

static void kat_inputs(uint8_t key[AUDIT_KEY_LEN], uint8_t run[AUDIT_RUN_LEN],
		       uint8_t prev[AUDIT_TAG_LEN])
{
	int i;

	for (i = 0; i < AUDIT_KEY_LEN; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < AUDIT_RUN_LEN; i++)
		run[i] = (uint8_t)(i + 1);
	for (i = 0; i < AUDIT_TAG_LEN; i++)
		prev[i] = (uint8_t)(0xa0 + i);
}

static size_t kat_body(char *b, size_t n, uint64_t seq)
{
	return (size_t)snprintf(b, n,
				"{\"seq\":%llu,\"time\":\"2026-12-04T18:00:00.000000000Z\",\"op\":"
				"\"setns\",\"comm\":\"ip\"",
				(unsigned long long)seq);
}

static void check_kat(struct audit_chain *c, size_t i)
{
	uint8_t key[AUDIT_KEY_LEN], run[AUDIT_RUN_LEN], prev[AUDIT_TAG_LEN], mac[AUDIT_MAC_LEN];
	char body[200], hex[AUDIT_MAC_HEX + 1];
	size_t n;

	kat_inputs(key, run, prev);
	n = kat_body(body, sizeof(body), kat[i].seq);
	audit_chain_mac(c, kat[i].seq, prev, body, n, mac);
	audit_hex(mac, AUDIT_TAG_LEN, hex);
	cr_expect_str_eq(hex, kat[i].tag, "seq %llu", (unsigned long long)kat[i].seq);
}

Test(audit_mac3, known_answers_in_order_and_backwards)
{
	uint8_t key[AUDIT_KEY_LEN], run[AUDIT_RUN_LEN], prev[AUDIT_TAG_LEN];
	struct audit_chain c;
	size_t i, n = sizeof(kat) / sizeof(kat[0]);

	kat_inputs(key, run, prev);
	audit_chain_init(&c, AUDIT_MAC_POLY1305, key, run);
	cr_assert_eq(audit_chain_maclen(c.kind), 16);
	for (i = 0; i < n; i++)
		check_kat(&c, i);
	/* the keystream window moves back as well as forward */
	for (i = n; i-- > 0;)
		check_kat(&c, i);
	audit_chain_wipe(&c);
}

Test(audit_mac3, run_seq_key_and_prev_all_matter)
{
	uint8_t key[AUDIT_KEY_LEN], run[AUDIT_RUN_LEN], prev[AUDIT_TAG_LEN];
	uint8_t a[AUDIT_MAC_LEN], b[AUDIT_MAC_LEN];
	struct audit_chain c;
	char body[200];
	size_t n;

	kat_inputs(key, run, prev);
	n = kat_body(body, sizeof(body), 5);
	audit_chain_init(&c, AUDIT_MAC_POLY1305, key, run);
	audit_chain_mac(&c, 5, prev, body, n, a);
	audit_chain_mac(&c, 6, prev, body, n, b); /* another seq: another one-time key */
	cr_expect_neq(memcmp(a, b, AUDIT_TAG_LEN), 0);
	run[0] ^= 1;
	audit_chain_set_run(&c, run);
	audit_chain_mac(&c, 5, prev, body, n, b);
	cr_expect_neq(memcmp(a, b, AUDIT_TAG_LEN), 0, "the run id is in the key");
	run[0] ^= 1;
	audit_chain_set_run(&c, run);
	audit_chain_mac(&c, 5, prev, body, n, b);
	cr_expect_eq(memcmp(a, b, AUDIT_TAG_LEN), 0);
	prev[15] ^= 1;
	audit_chain_mac(&c, 5, prev, body, n, b);
	cr_expect_neq(memcmp(a, b, AUDIT_TAG_LEN), 0, "chained over the previous tag");
	prev[15] ^= 1;
	key[0] ^= 1;
	audit_chain_use(&c, AUDIT_MAC_POLY1305, key); /* another epoch key */
	audit_chain_mac(&c, 5, prev, body, n, b);
	cr_expect_neq(memcmp(a, b, AUDIT_TAG_LEN), 0);
	audit_chain_wipe(&c);
	cr_expect_eq(c.ks_n, 0);
}

/* --- logs of format version 3 ------------------------------------------- */

static struct tlog t;
static struct audit_verify v;

static void setup(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
}

static void teardown(void)
{
	tlog_cleanup(&t);
}

TestSuite(audit_log3, .init = setup, .fini = teardown);

/* The run ids in a segment, in order (at most max). */
static int runs_of(const char *seg, char out[][AUDIT_RUN_HEX + 1], int max)
{
	size_t len, s, l;
	char *d = tslurp(seg, &len), err[128];
	int i, n = tlines(d, len), k = 0;

	for (i = 1; i <= n; i++) {
		struct audit_rec r;
		uint8_t run[AUDIT_RUN_LEN];

		cr_assert(tline(d, len, i, &s, &l));
		cr_assert_eq(audit_rec_parse(d + s, l - 1, &r, err, sizeof(err)), 0, "%s", err);
		cr_expect_eq(r.mac_len, AUDIT_TAG_LEN, "line %d", i);
		if (audit_rec_run(&r, run) && k < max)
			audit_hex(run, sizeof(run), out[k++]);
		audit_rec_free(&r);
	}
	free(d);
	return k;
}

Test(audit_log3, new_logs_are_version_3_with_16_byte_tags)
{
	char seg[128], *d;
	size_t len;

	tlog_write(&t, 5);
	tseg_path(&t, 1, seg, sizeof(seg));
	d = tslurp(seg, &len);
	cr_expect_not_null(strstr(d, "\"log_version\":3"));
	cr_expect_not_null(strstr(d, "\"prev_mac\":\"00000000000000000000000000000000\""));
	free(d);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.log_version, 3);
	cr_expect_eq(v.records, 8);
}

/* Every start (a clean one or after a crash) draws a run id of its own, so
 * that a record a crash lost and the one written at its seq afterwards never
 * share a one-time key. */
Test(audit_log3, every_start_is_a_new_run)
{
	char seg[128], runs[8][AUDIT_RUN_HEX + 1];
	int n, i, j, status;
	pid_t pid;

	tlog_write(&t, 2);
	tlog_write(&t, 2);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		char err[256];
		struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));
		struct json_object *e = tevent(1, "ip", 2);

		if (!l || audit_log_append(l, e) || audit_log_flush(l))
			_exit(1);
		_exit(0); /* killed: no close record, the next start recovers */
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed");
	tlog_write(&t, 2);
	tseg_path(&t, 1, seg, sizeof(seg));
	n = runs_of(seg, runs, 8);
	/* the header and the first start: one run; then one per start (the
	 * one after the crash says it in its recover record) */
	cr_expect_eq(n, 4, "%d run ids", n);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			cr_expect_str_neq(runs[i], runs[j], "runs %d and %d", i, j);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.recoveries, 1);
	cr_expect_eq(v.starts, 4);
}

static void edit(const char *seg, int line, const char *from, const char *to)
{
	size_t len, s, l;
	char *d = tslurp(seg, &len), *p;

	cr_assert(tline(d, len, line, &s, &l));
	p = memmem(d + s, l, from, strlen(from));
	cr_assert_not_null(p, "line %d has no %s", line, from);
	cr_assert_eq(strlen(from), strlen(to));
	memcpy(p, to, strlen(to));
	tspit(seg, d, len);
	free(d);
}

Test(audit_log3, a_changed_run_id_does_not_verify)
{
	char seg[128], runs[4][AUDIT_RUN_HEX + 1], other[AUDIT_RUN_HEX + 1];

	tlog_write(&t, 5);
	tseg_path(&t, 1, seg, sizeof(seg));
	cr_assert_eq(runs_of(seg, runs, 4), 1);
	memcpy(other, runs[0], sizeof(other));
	other[0] = other[0] == '0' ? '1' : '0';
	edit(seg, 1, runs[0], other);
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.where, "line 1"), "%s", v.where);
}

Test(audit_log3, a_header_claiming_version_2_does_not_verify)
{
	char seg[128];

	tlog_write(&t, 3);
	tseg_path(&t, 1, seg, sizeof(seg));
	edit(seg, 1, "\"log_version\":3", "\"log_version\":2");
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.where, "line 1"), "%s", v.where);
}

Test(audit_log3, a_blake2b_mac_in_a_version_3_log_does_not_verify)
{
	static const uint8_t zero[AUDIT_MAC_LEN];
	char seg[128], *d, err[128];
	struct sbuf line = {0};
	uint8_t key[AUDIT_KEY_LEN], mac[AUDIT_MAC_LEN];
	size_t len, s, l;
	struct audit_rec r;
	FILE *f;

	tlog_write(&t, 3);
	tseg_path(&t, 1, seg, sizeof(seg));
	cr_assert_eq(audit_key_load(t.key, key, err, sizeof(err)), 0, "%s", err);
	/* line 4 again, with a correct old-style MAC: still not a v3 record */
	d = tslurp(seg, &len);
	cr_assert(tline(d, len, 4, &s, &l));
	cr_assert_eq(audit_rec_parse(d + s, l - 1, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(audit_encode(AUDIT_FMT_JSON, r.obj, r.seq, key, zero, &line, mac), 0);
	f = fopen(seg, "w");
	cr_assert_not_null(f);
	fwrite(d, 1, s, f);
	fwrite(line.p, 1, line.len, f);
	fwrite(d + s + l, 1, len - s - l, f);
	fclose(f);
	audit_rec_free(&r);
	sb_free(&line);
	free(d);
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.where, "line 4"), "%s", v.where);
	cr_expect(strstr(v.what, "changed or forged"), "%s", v.what);
	cr_expect_eq(v.bad_seq, 4);
}

/* --- logs of the previous versions ----------------------------------------- */

static char fixdir[256];

/* A copy of tests/unit/fixtures/NAME in the scratch directory, with the
 * modes verify and record insist on (git keeps neither). */
static const char *fixture(const char *name)
{
	char cmd[1024], src[512];

	snprintf(src, sizeof(src), "%.*s/fixtures/%s", (int)(strrchr(__FILE__, '/') - __FILE__),
		 __FILE__, name);
	snprintf(fixdir, sizeof(fixdir), "%s/%s", t.root, name);
	snprintf(cmd, sizeof(cmd),
		 "cp -r '%s' '%s' && chmod 700 '%s' && chmod 600 '%s'/.[a-z]* '%s'/*", src, fixdir,
		 fixdir, fixdir, fixdir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	return fixdir;
}

Test(audit_log3, version_1_logs_still_verify)
{
	const char *names[] = {"v1", "v1audit"};
	size_t i;
	char err[256];

	for (i = 0; i < 2; i++) {
		const char *d = fixture(names[i]);

		cr_assert_eq(audit_verify_dir(d, NULL, false, &v, err, sizeof(err)), 0, "%s: %s %s",
			     names[i], v.where, v.what);
		cr_expect_eq(v.log_version, 1);
		cr_expect_eq(v.records, 13);
		cr_expect_eq(v.starts, 2);
		cr_expect(v.closed);
	}
}

Test(audit_log3, version_2_sealed_logs_still_verify)
{
	struct audit_verify_opts o = {0};
	char vk[200], path[512], err[256];
	size_t n;
	FILE *f;

	o.dir = fixture("v2");
	snprintf(path, sizeof(path), "%s/verification-key", o.dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(vk, 1, sizeof(vk) - 1, f);
	fclose(f);
	vk[n] = '\0';
	vk[strcspn(vk, "\n")] = '\0';
	o.vk = vk;
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 0, "%s %s %s", err, v.where, v.what);
	cr_expect_eq(v.log_version, 2);
	cr_expect(v.sealed_log);
	cr_expect_eq(v.seals, 1);
	cr_expect_eq(v.records, 14);
}

Test(audit_log3, a_changed_record_in_a_version_1_log_is_caught)
{
	const char *d = fixture("v1");
	char seg[512], err[256];

	snprintf(seg, sizeof(seg), "%s/nsaudit-000001.log", d);
	edit(seg, 5, "\"pid\":1002", "\"pid\":1003");
	cr_assert_eq(audit_verify_dir(d, NULL, false, &v, err, sizeof(err)), 1);
	cr_expect(strstr(v.where, "line 5"), "%s", v.where);
	cr_expect(strstr(v.what, "changed or forged"), "%s", v.what);
}

/* A recorder of this version continues an old log in its own version: the
 * chain of a log never changes its MAC. */
Test(audit_log3, an_old_log_goes_on_in_its_version)
{
	struct audit_log_opts o;
	struct audit_log *l;
	char err[256], key[512], seg[512], *dd;
	size_t len;
	int i;

	audit_log_opts_init(&o);
	o.dir = fixture("v1");
	o.sync = AUDIT_SYNC_NONE;
	snprintf(key, sizeof(key), "%s/.key", o.dir);
	o.key_path = key;
	l = audit_log_open(&o, err, sizeof(err));
	cr_assert_not_null(l, "%s", err);
	for (i = 0; i < 3; i++) {
		struct json_object *e = tevent(4000 + i, "ip", 2);

		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	cr_assert_eq(audit_log_close(l), 0);
	snprintf(seg, sizeof(seg), "%s/nsaudit-000001.log", o.dir);
	dd = tslurp(seg, &len);
	cr_expect_null(strstr(dd, "\"run\""));
	cr_expect_null(strstr(dd, "\"log_version\""));
	free(dd);
	cr_assert_eq(audit_verify_dir(o.dir, NULL, false, &v, err, sizeof(err)), 0, "%s %s",
		     v.where, v.what);
	cr_expect_eq(v.log_version, 1);
	cr_expect_eq(v.records, 13 + 5);
}

/* --- the hot path's plain-string test, eight bytes at a time ------------- */

#include "fields.h"

static bool plain_ref(enum audit_format fmt, const unsigned char *u, size_t n)
{
	unsigned char lo = fmt == AUDIT_FMT_JSON ? 0x20 : 0x21;
	size_t i;

	for (i = 0; i < n; i++)
		if (u[i] < lo || u[i] > 0x7e || u[i] == '"' ||
		    (u[i] == '\\' && fmt == AUDIT_FMT_JSON))
			return false;
	return true;
}

Test(audit_fields, plain_word_at_a_time_is_the_byte_rule)
{
	enum audit_format fmts[] = {AUDIT_FMT_JSON, AUDIT_FMT_AUDIT};
	unsigned char s[24];
	size_t k, pos, len;
	int b, c;

	for (k = 0; k < 2; k++)
		for (len = 1; len <= sizeof(s); len++)
			for (pos = 0; pos < len; pos++)
				for (b = 0; b < 256; b++) {
					memset(s, 'a', sizeof(s));
					s[pos] = (unsigned char)b;
					cr_assert_eq(audit_fields_plain(fmts[k], (char *)s, len),
						     plain_ref(fmts[k], s, len),
						     "fmt %zu len %zu byte %#x at %zu", k, len, b,
						     pos);
				}
	/* two odd bytes in one word (borrows and carries between them) */
	for (b = 0; b < 256; b++)
		for (c = 0; c < 256; c += 7) {
			memset(s, 'a', sizeof(s));
			s[3] = (unsigned char)b;
			s[4] = (unsigned char)c;
			for (k = 0; k < 2; k++)
				cr_assert_eq(audit_fields_plain(fmts[k], (char *)s, 8),
					     plain_ref(fmts[k], s, 8), "%#x %#x", b, c);
		}
}

/* every record's numbers: the digits written in place are printf's */
Test(audit_fields, decimal_is_printf)
{
	char got[24], want[24];
	uint64_t p = 1, v;
	size_t n;
	int i, d;

	for (i = 0; i <= 20; i++) {
		for (d = -1; d <= 1; d++) {
			v = p + (uint64_t)(int64_t)d; /* 10^i - 1, 10^i, 10^i + 1 */
			memset(got, 'x', sizeof(got));
			n = audit_fields_dec(got, v);
			snprintf(want, sizeof(want), "%" PRIu64, v);
			cr_assert_eq(n, strlen(want), "%s", want);
			cr_assert(!memcmp(got, want, n), "%.*s != %s", (int)n, got, want);
			cr_assert_eq(got[n], 'x', "wrote past the digits of %s", want);
		}
		if (i < 19)
			p *= 10;
		else
			p = UINT64_MAX; /* 2^64-1 and its neighbours (wrapping to 0) */
	}
}
