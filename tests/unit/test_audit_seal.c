// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_seal.c - forward-secure sealing and the holes of issue 14:
 * each test is an attack (or a crash) that the log of version 1 let pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <sodium.h>

#include "anchor.h"
#include "audit_util.h"
#include "chain.h"
#include "codec.h"
#include "log_test.h"
#include "seal.h"
#include "state.h"

static struct tlog t;
static struct audit_verify v;
static char vk[AUDIT_VK_LEN + 1];

static void setup(void)
{
	char err[256];

	tlog_init(&t, AUDIT_FMT_JSON);
	unlink(t.key);
	cr_assert_eq(audit_seal_keygen(t.key, false, vk, err, sizeof(err)), 0, "%s", err);
	t.o.seal_interval = 1; /* epochs of a second: a few pass in a test */
}

static void teardown(void)
{
	audit_log_write_fn = NULL;
	tlog_cleanup(&t);
}

TestSuite(audit_seal, .init = setup, .fini = teardown);

/* An event that happened now (sealed logs bind times to epochs). */
static struct json_object *now_event(int pid, const char *comm)
{
	struct json_object *e = tevent(pid, comm, strlen(comm));
	char now[40];

	audit_time_now(now);
	json_object_object_add(e, "time", json_object_new_string(now));
	return e;
}

static struct audit_log *sopen(void)
{
	char err[512];
	struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

	cr_assert_not_null(l, "open: %s", err);
	return l;
}

static void append(struct audit_log *l, int n, const char *comm)
{
	int i;

	for (i = 0; i < n; i++) {
		struct json_object *e = now_event(3000 + i, comm);

		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	audit_log_flush(l);
}

/* Let the sealing timer see the next epoch. */
static void next_epoch(struct audit_log *l)
{
	usleep(1100 * 1000);
	cr_assert_eq(audit_log_tick(l), 0, "%s", audit_log_error(l));
}

static int vverify(void)
{
	struct audit_verify_opts o = {.dir = t.dir, .vk = vk};
	char err[512];
	int rc = audit_verify(&o, &v, err, sizeof(err));

	cr_assert_geq(rc, 0, "verify could not run: %s", err);
	return rc;
}

static char *state_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", t.dir, AUDIT_STATE_FILE);
	return buf;
}

/* Cut a segment back to just after its first line holding needle. */
static void cut_after(unsigned int seg, const char *needle)
{
	char path[128];
	size_t len, s, l;
	char *d;
	int i;

	tseg_path(&t, seg, path, sizeof(path));
	d = tslurp(path, &len);
	for (i = 1; tline(d, len, i, &s, &l); i++)
		if (memmem(d + s, l, needle, strlen(needle))) {
			tspit(path, d, s + l);
			free(d);
			return;
		}
	cr_assert_fail("no %s in %s", needle, path);
}

Test(audit_seal, sealed_log_verifies_with_the_verification_key)
{
	struct audit_log *l = sopen();

	append(l, 3, "ip");
	next_epoch(l);
	append(l, 3, "ip");
	next_epoch(l);
	append(l, 3, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect(v.sealed_log);
	cr_expect_geq(v.seals, 2);
	cr_expect_eq(v.unsealed, 0, "the close seals the last epoch (issue 40)");
	cr_expect_eq(v.unchecked, 0);
}

Test(audit_seal, the_state_file_holds_only_the_current_epoch_key)
{
	struct audit_seal before, after;
	struct audit_log *l = sopen();
	char err[256];

	cr_assert_eq(audit_seal_load(t.key, &before, err, sizeof(err)), 0, "%s", err);
	cr_expect(before.scheduled, "the first start fixes the schedule and erases the seed");
	next_epoch(l);
	cr_assert_eq(audit_seal_load(t.key, &after, err, sizeof(err)), 0, "%s", err);
	cr_expect_gt(after.epoch, before.epoch);
	audit_seal_evolve_to(&before, after.epoch);
	cr_expect_eq(memcmp(before.key, after.key, AUDIT_KEY_LEN), 0,
		     "K(e+1) is the one-way evolution of K(e)");
	cr_assert_eq(audit_log_close(l), 0);
}

/*
 * The attack of the issue: a clean session, a second one killed, the
 * segment cut back to the first close, the state file removed, a clean
 * restart. verify used to say "intact".
 */
Test(audit_seal, issue_attack_cut_to_first_close_rm_state_restart)
{
	struct audit_log *l = sopen();
	char sp[160];
	pid_t pid;
	int status;

	append(l, 50, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	pid = fork();
	if (!pid) {
		struct audit_log *k = sopen();

		append(k, 30, "ceosecret");
		_exit(0); /* SIGKILL: no close */
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cut_after(1, "\"action\":\"close\"");
	cr_assert_eq(unlink(state_path(sp, sizeof(sp))), 0);
	l = sopen();
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 1, "verify said intact");
	/* named among the findings; when an epoch ended during the test (1 s
	 * epochs, a loaded machine) the cut took its seal, and the restart in
	 * the later epoch is what gives the cut away */
	if (v.last_epoch == v.first_epoch)
		cr_expect(tfinding(&v, "state missing"), "%s: %s", v.where, v.what);
	else
		cr_expect(tfinding(&v, "state missing") || tfinding(&v, "epoch key misuse"), "%s: %s",
			  v.where, v.what);
}

Test(audit_seal, segments_without_state_file_is_not_intact)
{
	struct audit_log *l = sopen();
	char sp[160];

	append(l, 5, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(unlink(state_path(sp, sizeof(sp))), 0);
	l = sopen(); /* used to chain on as if nothing happened */
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 1);
	cr_expect(strstr(v.what, "state missing"), "%s", v.what);
	cr_expect(strstr(v.where, "line"), "names the record: %s", v.where);
}

/*
 * What a holder of key does after editing a segment's lines: the chain
 * re-MAC'd from line from on (the lines before keep their MACs). The
 * one-time keys come from key, the run ids from the records.
 */
static void remac(char *d, size_t len, const uint8_t key[AUDIT_KEY_LEN], int from)
{
	uint8_t prev[AUDIT_MAC_LEN] = { 0 }, mac[AUDIT_MAC_LEN], run[AUDIT_RUN_LEN];
	char err[256], hex[AUDIT_MAC_HEX + 1];
	struct audit_chain c;
	int i, n = tlines(d, len);
	size_t s, ll;

	audit_chain_init(&c, AUDIT_MAC_POLY1305, key, NULL);
	for (i = 1; i <= n; i++) {
		struct audit_rec r;

		cr_assert(tline(d, len, i, &s, &ll));
		cr_assert_eq(audit_rec_parse(d + s, ll - 1, &r, err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(r.mac_len, AUDIT_TAG_LEN);
		if (audit_rec_run(&r, run))
			audit_chain_set_run(&c, run);
		if (i >= from) {
			audit_chain_mac(&c, r.seq, prev, d + s, r.body_len, mac);
			audit_hex(mac, AUDIT_TAG_LEN, hex);
			memcpy(d + s + r.body_len + 8, hex, 2 * AUDIT_TAG_LEN);
		} else {
			memcpy(mac, r.mac, sizeof(mac));
		}
		memcpy(prev, mac, sizeof(prev));
		audit_rec_free(&r);
	}
}

Test(audit_seal, a_later_epoch_key_cannot_rewrite_an_earlier_record)
{
	struct audit_seal stolen;
	struct audit_log *l = sopen();
	char err[256], seg[128], *d, *p;
	size_t len, s, ll;
	int i, n;

	append(l, 3, "ip"); /* epoch 0: lines 3..5 */
	next_epoch(l);
	next_epoch(l);
	/* the host is taken now: the attacker copies the sealing state */
	cr_assert_eq(audit_seal_load(t.key, &stolen, err, sizeof(err)), 0, "%s", err);
	cr_assert_gt(stolen.epoch, 0);
	append(l, 3, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	/* change pid 3000 -> 3009 in epoch 0 and re-MAC the whole rest of the
	 * chain with the stolen key: everything but the key matches */
	tseg_path(&t, 1, seg, sizeof(seg));
	d = tslurp(seg, &len);
	n = tlines(d, len);
	for (i = 1; i <= n; i++) {
		cr_assert(tline(d, len, i, &s, &ll));
		if ((p = memmem(d + s, ll, "\"pid\":3000,", 11)))
			p[9] = '9';
	}
	remac(d, len, stolen.key, 3);
	tspit(seg, d, len);
	free(d);
	cr_assert_eq(vverify(), 1, "a later key vouched for an earlier record");
	/* the record's own epoch, before the stolen one (0, or 1 when a loaded
	 * machine let the first second pass before the first append) */
	p = strstr(v.what, "key of epoch ");
	cr_assert(p, "%s", v.what);
	cr_expect_lt(strtoull(p + 13, NULL, 10), stolen.epoch, "%s", v.what);
	cr_expect(strstr(v.where, "line 3"), "%s", v.where);
}

Test(audit_seal, a_log_rewritten_with_a_stolen_state_is_epoch_key_misuse)
{
	struct audit_log *l = sopen();
	char old[256], cmd[600];
	int i;

	append(l, 3, "ip");
	next_epoch(l);
	next_epoch(l);
	cr_assert_eq(audit_log_close(l), 0);
	/* the attacker, with the state of a later epoch, writes a log of
	 * their own that tells the same past: events with the old times */
	snprintf(old, sizeof(old), "%s/stolen", t.root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/* '%s'/.nsaudit-state; cp '%s' '%s'", t.dir, t.dir,
		 t.key, old);
	cr_assert_eq(system(cmd), 0);
	l = sopen();
	for (i = 0; i < 3; i++) {
		struct json_object *e = tevent(3000 + i, "ip", 2); /* time in the past */

		cr_assert_eq(audit_log_append(l, e), 0);
		json_object_put(e);
	}
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 1);
	cr_expect(strstr(v.what, "epoch key misuse"), "%s", v.what);
}

Test(audit_seal, verify_with_the_sealing_state_checks_order_of_erased_epochs)
{
	struct audit_log *l = sopen();
	char err[256];
	struct audit_verify_opts o = {.dir = t.dir, .key_path = t.key};

	append(l, 3, "ip");
	next_epoch(l);
	append(l, 3, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	/* intact as far as the key reaches: a verdict of its own */
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), AUDIT_VERIFY_PARTIAL, "%s: %s",
		     v.where, v.what);
	cr_expect_gt(v.unchecked, 0);
	/* a deleted record is still found without the epoch's key */
	{
		char seg[128];

		tseg_path(&t, 1, seg, sizeof(seg));
		tdel_line(seg, 4);
	}
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 1);
	cr_expect(strstr(v.what, "missing"), "%s", v.what);
}

Test(audit_seal, torn_header_of_a_new_segment_is_recovered)
{
	struct audit_log *l = sopen();
	char seg2[128];

	append(l, 3, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	/* crash while the next segment's header was being written */
	tseg_path(&t, 2, seg2, sizeof(seg2));
	tspit(seg2, "{\"seq\":7,\"time\":\"2026-", 22);
	l = sopen(); /* used to leave it in place: every later verify failed */
	append(l, 2, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.recoveries, 1);
}

Test(audit_seal, restart_reads_kseq_and_lost_total_with_the_codec)
{
	struct audit_log *l = sopen();
	struct json_object *e;
	uint64_t kseqs[8], lost_total = 0;
	size_t n;

	e = now_event(1, "x");
	json_object_object_add(e, "op", json_object_new_string("lost"));
	json_object_object_add(e, "count", json_object_new_int(2));
	json_object_object_add(e, "lost_total", json_object_new_int(5));
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	audit_log_note_lost_total(l, 5);
	/* a process named so, and a mount path holding the same */
	e = now_event(2, "lost_total=9999");
	json_object_object_add(e, "kseq", json_object_new_int(77));
	json_object_object_add(e, "path", json_object_new_string("/x\"kseq\":123456"));
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	audit_log_flush(l);
	cr_assert_eq(audit_log_close(l), 0);
	l = sopen();
	n = audit_log_resume(l, kseqs, 8, &lost_total);
	cr_expect_eq(lost_total, 5);
	cr_expect_eq(n, 1);
	cr_expect_eq(kseqs[0], 77);
	cr_assert_eq(audit_log_close(l), 0);
}

/*
 * The recorder's last batch may straddle a rotation: a restart right after
 * one skips the kseqs of the segment before too, not only the new one's.
 */
Test(audit_seal, restart_after_a_rotation_reads_kseq_of_the_segment_before)
{
	struct audit_log *l;
	uint64_t kseqs[AUDIT_RESUME_MAX], lost_total = 0;
	char path[256];
	char *data;
	size_t n, len, i, j;
	int segs, newest_kseqs = 0;
	bool have;

	t.o.max_size = 4096;
	l = sopen();
	for (i = 1; i <= 40; i++) {
		struct json_object *e = now_event(4000, "rot");

		json_object_object_add(e, "kseq", json_object_new_int((int)i));
		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	audit_log_flush(l);
	cr_assert_eq(audit_log_close(l), 0);
	segs = tseg_count(&t);
	cr_assert_geq(segs, 3, "rotation happened");
	tseg_path(&t, (unsigned int)segs, path, sizeof(path));
	data = tslurp(path, &len);
	for (i = 0; i + 6 < len; i++)
		newest_kseqs += !memcmp(data + i, "\"kseq\"", 6);
	free(data);
	l = sopen();
	n = audit_log_resume(l, kseqs, AUDIT_RESUME_MAX, &lost_total);
	cr_expect_gt(n, (size_t)newest_kseqs, "%zu kseqs, %d in the newest segment", n,
		     newest_kseqs);
	/* the newest n are all there: 40, 39, ... */
	for (j = 0; j < n; j++) {
		have = false;
		for (i = 0; i < n; i++)
			have |= kseqs[i] == 40 - j;
		cr_expect(have, "kseq %zu missing", 40 - j);
	}
	cr_assert_eq(audit_log_close(l), 0);
}

/*
 * Issue 40: the newest header's lost_total raised (the calls lost while
 * the recorder was down would go unreported): a restarted recorder resumes
 * from the chain's last report, not from the header, and says so.
 */
Test(audit_seal, restart_resumes_lost_from_the_chain_not_a_raised_header)
{
	struct audit_log *l;
	struct json_object *e;
	uint64_t kseqs[AUDIT_RESUME_MAX], lost_total = 0;
	char path[256], *d, *p, *q, *nd;
	size_t len, i;
	int segs, pass;

	t.o.max_size = 4096;
	for (pass = 0; pass < 2; pass++) {
		l = sopen();
		if (!pass) {
			e = now_event(1, "x");
			json_object_object_add(e, "op", json_object_new_string("lost"));
			json_object_object_add(e, "count", json_object_new_int(5));
			json_object_object_add(e, "lost_total", json_object_new_int(5));
			cr_assert_eq(audit_log_append(l, e), 0);
			json_object_put(e);
			audit_log_note_lost_total(l, 5);
			for (i = 0; i < 40; i++) {
				e = now_event(4000, "rot");
				cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
				json_object_put(e);
			}
			audit_log_flush(l);
		}
		audit_log_resume(l, kseqs, AUDIT_RESUME_MAX, &lost_total);
		cr_expect_eq(lost_total, 5, "pass %d: resumed from %" PRIu64, pass, lost_total);
		cr_assert_eq(audit_log_close(l), 0);
		segs = tseg_count(&t);
		cr_assert_geq(segs, 3, "rotation happened");
		if (pass)
			break;
		/* an honest restart first: nothing to say about the counter */
		tseg_path(&t, (unsigned int)segs, path, sizeof(path));
		d = tslurp(path, &len);
		cr_expect_null(strstr(d, "lost counter changed"));
		/* the newest header raised (its epoch's key is erased by the
		 * close: the recorder takes it on its seq, verify checks it) */
		p = strstr(d, "\"lost_total\":5");
		cr_assert(p);
		q = p + strlen("\"lost_total\":5");
		nd = malloc(len + 16);
		len = (size_t)sprintf(nd, "%.*s\"lost_total\":99937%s", (int)(p - d), d, q);
		tspit(path, nd, len);
		free(nd);
		free(d);
	}
	tseg_path(&t, (unsigned int)segs, path, sizeof(path));
	d = tslurp(path, &len);
	cr_expect(strstr(d, "lost counter changed: segment") &&
		  strstr(d, "says the kernel lost 99937 calls in all, the chain's last report 5"),
		  "the recover record says why");
	free(d);
}

Test(audit_seal, default_on_full_is_suspend_and_interval_parses)
{
	struct audit_log_opts o;
	uint64_t s;

	audit_log_opts_init(&o);
	cr_expect_eq(o.on_full, AUDIT_FULL_SUSPEND);
	cr_expect_eq(o.seal_interval, 15 * 60);
	cr_expect_eq(audit_parse_duration("15m", &s), 0);
	cr_expect_eq(s, 900);
	cr_expect_eq(audit_parse_duration("2s", &s), 0);
	cr_expect_eq(s, 2);
	cr_expect_eq(audit_parse_duration("900", &s), 0);
	cr_expect_eq(s, 900);
	cr_expect_eq(audit_parse_duration("1h", &s), 0);
	cr_expect_eq(s, 3600);
	cr_expect_eq(audit_parse_duration("0", &s), -1);
	cr_expect_eq(audit_parse_duration("5x", &s), -1);
	cr_expect_eq(audit_parse_duration("-1", &s), -1);
}

/* --- key files ---------------------------------------------------------------- */

Test(audit_seal, key_file_mode_and_owner_are_checked)
{
	struct audit_seal s;
	char err[256];

	chmod(t.key, 0644);
	cr_expect_eq(audit_seal_load(t.key, &s, err, sizeof(err)), -1);
	cr_expect(strstr(err, "0644") && strstr(err, "chmod 600"), "%s", err);
	chmod(t.key, 0600);
	cr_expect_eq(audit_seal_load(t.key, &s, err, sizeof(err)), 0, "%s", err);
	if (geteuid() == 0) {
		cr_assert_eq(chown(t.key, 12345, 12345), 0);
		cr_expect_eq(audit_seal_load(t.key, &s, err, sizeof(err)), -1);
		cr_expect(strstr(err, "owned by uid 12345"), "%s", err);
	}
}

Test(audit_seal, keygen_force_replaces_atomically)
{
	char lnk[160], err[256], vk2[AUDIT_VK_LEN + 1];
	struct stat a, b;
	size_t len;
	char *before, *after, *old;

	snprintf(lnk, sizeof(lnk), "%s/old-link", t.root);
	cr_assert_eq(stat(t.key, &a), 0);
	before = tslurp(t.key, &len);
	cr_assert_eq(link(t.key, lnk), 0);
	cr_assert_eq(audit_seal_keygen(t.key, false, vk2, err, sizeof(err)), -1);
	cr_expect(strstr(err, "--force"), "%s", err);
	cr_assert_eq(audit_seal_keygen(t.key, true, vk2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(stat(t.key, &b), 0);
	/* a new file renamed over the old (truncating in place could leave a
	 * half-written key after a crash): the old inode is untouched */
	cr_expect_neq(a.st_ino, b.st_ino);
	old = tslurp(lnk, &len);
	cr_expect_str_eq(old, before);
	after = tslurp(t.key, &len);
	cr_expect_str_neq(after, before);
	cr_expect_eq(b.st_mode & 0777, 0600);
	cr_expect_str_neq(vk, vk2);
	free(before);
	free(after);
	free(old);
}

Test(audit_seal, mac_hash_state_is_wiped)
{
	static const uint8_t key[AUDIT_KEY_LEN] = {1, 2, 3}, prev[AUDIT_MAC_LEN];
	uint8_t mac[AUDIT_MAC_LEN], mac2[AUDIT_MAC_LEN];
	crypto_generichash_state st;
	size_t i;
	bool zero = true;

	memset(&st, 0xa5, sizeof(st));
	audit_mac_st(&st, key, prev, "abc", 3, mac);
	for (i = 0; i < sizeof(st); i++)
		zero &= ((const uint8_t *)&st)[i] == 0;
	cr_expect(zero, "the hash state that held the key was left in memory");
	audit_mac(key, prev, "abc", 3, mac2);
	cr_expect_eq(memcmp(mac, mac2, sizeof(mac)), 0);
}

Test(audit_seal, verification_key_parses_from_text_and_file)
{
	uint8_t seed[AUDIT_KEY_LEN];
	char err[256], path[160];
	FILE *f;

	cr_expect_eq(audit_vk_parse(vk, seed, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/vk", t.root);
	f = fopen(path, "w");
	fprintf(f, "%s\n", vk);
	fclose(f);
	cr_expect_eq(audit_vk_parse(path, seed, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(audit_vk_parse("nsaudit-vk2-abc", seed, err, sizeof(err)), -1);
	cr_expect_eq(audit_vk_parse("/nonexistent", seed, err, sizeof(err)), -1);
}

/* --- anchors ---------------------------------------------------------------- */

static char anchor_line[512];

static void keep_anchor(void *ctx, struct json_object *a)
{
	char text[300];

	if (!audit_anchor_text(a, text, sizeof(text)))
		snprintf(anchor_line, sizeof(anchor_line), "Dec  4 15:30:00 host nsaudit[42]: %s",
			 text);
}

Test(audit_seal, anchor_catches_a_tail_cut_with_a_forged_state)
{
	struct audit_log *l = sopen();
	char path[160], seg[128], *d, err[256];
	const char *anchors[2] = {path, NULL};
	struct audit_verify_opts o = {.dir = t.dir, .vk = vk, .anchors = anchors};
	size_t len;
	FILE *f;

	audit_log_set_anchor(l, keep_anchor, NULL);
	append(l, 10, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert(strstr(anchor_line, "nsaudit-anchor "));
	snprintf(path, sizeof(path), "%s/messages", t.root);
	f = fopen(path, "w");
	fprintf(f, "Dec  4 15:29:59 host sshd[1]: nsaudit-anchor log_id=0 fake\n%s\n", anchor_line);
	fclose(f);
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 0, "%s %s", err, v.what);
	cr_expect_eq(v.anchors, 1);
	/* root in the current epoch cuts the tail and rewrites the state: only
	 * the anchor off the host still knows */
	tseg_path(&t, 1, seg, sizeof(seg));
	d = tslurp(seg, &len);
	tdel_line(seg, tlines(d, len));
	free(d);
	{
		char sp[160];

		unlink(state_path(sp, sizeof(sp)));
	}
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 1, "%s", err);
	cr_expect(strstr(v.what, "tail cut"), "%s", v.what);
}

Test(audit_seal, anchor_lines_from_syslog_and_auditd)
{
	struct audit_anchor a;
	const char *sys =
	    "Dec  4 15:30:00 host nsaudit[42]: nsaudit-anchor log_id=0123456789abcdef "
	    "key_id=fedcba9876543210 seq=17 segment=2 epoch=3 mac="
	    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff why=seal";
	const char *aud =
	    "type=USER msg=audit(1796398460.123:456): pid=1 uid=0 auid=4294967295 "
	    "ses=4294967295 msg='time=\"x\" op=\"log\" action=\"anchor\" "
	    "log_id=\"0123456789abcdef\" key_id=\"fedcba9876543210\" seq=17 segment=2 "
	    "mac=\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\" "
	    "epoch=3 why=\"seal\" exe=\"/usr/sbin/nsaudit\" res=success'";
	const char *fake =
	    "Dec  4 15:30:00 host nsaudit[42]: setns net:[1] comm=\"x: nsaudit-anchor "
	    "log_id=0123456789abcdef key_id=fedcba9876543210 seq=99 segment=2 epoch=3 "
	    "mac=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff "
	    "why=seal\" pid=1";

	cr_assert_eq(audit_anchor_parse_line(sys, strlen(sys), &a), 0);
	cr_expect_eq(a.seq, 17);
	cr_expect_eq(a.segment, 2);
	cr_expect_str_eq(a.log_id, "0123456789abcdef");
	cr_assert_eq(audit_anchor_parse_line(aud, strlen(aud), &a), 0);
	cr_expect_eq(a.seq, 17);
	cr_expect_eq(audit_anchor_parse_line(fake, strlen(fake), &a), -1,
		     "a process name cannot forge an anchor");
}

/* Format version 3: the run a record of an erased epoch declared is still
 * the run of the records after the seal; a restart's scan (which holds
 * only the newer key) must take it from there, or it would call the
 * newer records damaged. */
Test(audit_seal, a_clean_restart_after_a_seal_is_clean)
{
	struct audit_log *l = sopen();

	append(l, 2, "ip");
	next_epoch(l);
	append(l, 2, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	l = sopen();
	append(l, 1, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.log_version, 3);
	cr_expect_eq(v.recoveries, 0, "a clean stop, no recovery");
	cr_expect_eq(v.starts, 2);
}

/*
 * verify's fast path (verify_light.c) takes an ordinary record whose MAC
 * matches without parsing it: its time must still be held to its epoch.
 * Records in the recorder's order (seq, time, op first), one re-dated into
 * the future and the chain re-MAC'd with the right key (a holder of the
 * current key): found, as the full parse finds it.
 */
Test(audit_seal, a_light_record_is_held_to_its_epoch)
{
	struct audit_seal cur;
	struct audit_log *l;
	char err[256], seg[128], now[40], *d, *p;
	size_t len, s, ll;
	int i;

	t.o.seal_interval = 3600; /* one epoch for the whole test */
	l = sopen();
	for (i = 0; i < 5; i++) {
		struct json_object *e = json_object_new_object();

		audit_time_now(now);
		json_object_object_add(e, "time", json_object_new_string(now));
		json_object_object_add(e, "op", json_object_new_string("setns"));
		json_object_object_add(e, "pid", json_object_new_int(4000 + i));
		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	/* the key of epoch 0 as the host held it before the close (the close
	 * erases it: issue 40) */
	cr_assert_eq(audit_seal_load(t.key, &cur, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cur.epoch, 0);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s", v.what);
	{
		struct audit_seal after;

		cr_assert_eq(audit_seal_load(t.key, &after, err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(after.epoch, 1, "closing ends the key of epoch 0");
	}
	tseg_path(&t, 1, seg, sizeof(seg));
	d = tslurp(seg, &len);
	cr_assert(tline(d, len, 4, &s, &ll));
	cr_assert((p = memmem(d + s, ll, "\"time\":\"20", 10)));
	memcpy(p + 8, "21", 2); /* 21xx: a century ahead */
	remac(d, len, cur.key, 1);
	tspit(seg, d, len);
	free(d);
	cr_assert_eq(vverify(), 1, "a re-dated record passed");
	cr_expect(tfinding(&v, "in the future"), "%s", v.what);
	cr_expect(strstr(v.where, "line 4"), "%s", v.where);
}

/*
 * Issue 40: a new log started on a pinned ring that holds older events
 * (drained first, dated before the log's first epoch began) is intact,
 * the events counted as late; after its first seal, an event older than
 * its epoch still is key misuse.
 */
Test(audit_seal, a_new_log_drains_older_events_from_a_pinned_ring)
{
	struct audit_log *l;
	char old[40];
	struct timespec ts;
	int i;

	t.o.seal_interval = 3600;
	l = sopen();
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec -= 90; /* held in the ring while no recorder ran */
	strftime(old, sizeof(old), "%Y-%m-%dT%H:%M:%S.000000000Z", gmtime(&ts.tv_sec));
	for (i = 0; i < 3; i++) {
		struct json_object *e = tevent(5000 + i, "ringold", 7);

		json_object_object_add(e, "time", json_object_new_string(old));
		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	append(l, 2, "ip");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.late, 3);
}
