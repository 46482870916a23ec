// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_damaged.c - damaged segments (cut, garbage, binary, empty)
 * give verify a clear answer and search a skip, never a crash; the
 * subcommands' exit statuses; search filters.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "cmd/commands.h"
#include "fields.h"
#include "search.h"

static struct tlog t;

static void setup(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
	t.o.max_size = 2048;
	tlog_write(&t, 30); /* several segments */
}

static void teardown(void)
{
	tlog_cleanup(&t);
}

TestSuite(audit_damaged, .init = setup, .fini = teardown);

/* Run a subcommand with stdout and stderr sent to files; its exit status. */
static int run(char *out, size_t outlen, char *errbuf, size_t errlen, int argc, char **argv,
	       int (*fn)(int, char **))
{
	char po[160], pe[160];
	int so = dup(1), se = dup(2), fo, fe, rc;
	size_t n;
	char *d;

	snprintf(po, sizeof(po), "%s/out", t.root);
	snprintf(pe, sizeof(pe), "%s/err", t.root);
	fflush(stdout);
	fflush(stderr);
	fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	d = tslurp(po, &n);
	snprintf(out, outlen, "%s", d);
	free(d);
	d = tslurp(pe, &n);
	snprintf(errbuf, errlen, "%s", d);
	free(d);
	return rc;
}

static char out[1 << 16], err[4096];

static int verify_cmd(void)
{
	char *argv[] = {"verify", "--log-dir", t.dir, "--key", t.key, NULL};

	return run(out, sizeof(out), err, sizeof(err), 5, argv, cmd_verify);
}

static int search_cmd(int extra, char **more)
{
	char *argv[16] = {"search", "--log-dir", t.dir};
	int i;

	for (i = 0; i < extra; i++)
		argv[3 + i] = more[i];
	return run(out, sizeof(out), err, sizeof(err), 3 + extra, argv, cmd_search);
}

static void damage(unsigned int seg, const char *data, size_t len)
{
	char path[128];

	tseg_path(&t, seg, path, sizeof(path));
	tspit(path, data, len);
}

Test(audit_damaged, verify_cmd_intact_summary)
{
	cr_assert_eq(verify_cmd(), 0, "%s", err);
	cr_expect(strstr(out, "intact") && strstr(out, "records"), "%s", out);
	cr_expect_eq(strchr(out, '\n'), out + strlen(out) - 1, "one line: %s", out);
}

Test(audit_damaged, middle_segment_cut_mid_line)
{
	char path[128];
	size_t len, s, l;
	char *d;

	tseg_path(&t, 2, path, sizeof(path));
	d = tslurp(path, &len);
	cr_assert(tline(d, len, 3, &s, &l));
	tspit(path, d, s + l / 2); /* the rest of the segment gone, mid-record */
	free(d);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000002.log line 3") && strstr(err, "cut short"), "%s", err);
	cr_expect_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
}

Test(audit_damaged, garbage_segment)
{
	static const char junk[] = "this is not\na log\n\n{{{{\n";

	damage(2, junk, sizeof(junk) - 1);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000002.log line 1") && strstr(err, "not a record"), "%s",
		  err);
	/* search still finds what is in the good segments, and says it skipped */
	cr_assert_eq(search_cmd(0, NULL), 0);
	cr_expect(strstr(err, "skipped"), "%s", err);
	cr_expect(strstr(out, "setns"));
}

Test(audit_damaged, binary_segment)
{
	char bin[4096];
	size_t i;

	for (i = 0; i < sizeof(bin); i++)
		bin[i] = (char)(i * 7 + (i >> 3));
	damage(1, bin, sizeof(bin));
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000001.log line 1"), "%s", err);
	search_cmd(0, NULL); /* must just not crash */
}

Test(audit_damaged, empty_segment)
{
	damage(2, "", 0);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000002.log") && strstr(err, "empty"), "%s", err);
}

Test(audit_damaged, huge_line_without_newline)
{
	size_t n = 3u << 20;
	char *d = malloc(n);

	memset(d, '{', n);
	damage(3, d, n);
	free(d);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000003.log line 1"), "%s", err);
}

Test(audit_damaged, segment_is_a_directory)
{
	char path[128];

	tseg_path(&t, 2, path, sizeof(path));
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(mkdir(path, 0700), 0);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "nsaudit-000002.log"), "%s", err);
	rmdir(path);
}

Test(audit_damaged, verify_usage_errors)
{
	char *a1[] = {"verify", NULL};
	char *a2[] = {"verify", "--log-dir", t.dir, "--bogus", NULL};
	char *a3[] = {"verify", "--log-dir", NULL};
	char *a4[] = {"verify", "--log-dir", "/nonexistent/dir", NULL};
	char *a5[] = {"verify", "--help", NULL};

	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 1, a1, cmd_verify), 2);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 4, a2, cmd_verify), 2);
	cr_expect(strstr(err, "--bogus"), "%s", err);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 2, a3, cmd_verify), 2);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 3, a4, cmd_verify), 1);
	cr_expect(!strncmp(err, "nsaudit verify: ", 16) && strstr(err, "/nonexistent/dir"), "%s",
		  err);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 2, a5, cmd_verify), 0);
	cr_expect(strstr(out, "Examples:"), "%s", out);
}

Test(audit_damaged, search_filters_and_exit_status)
{
	char *op[] = {"--op", "setns", "--pid", "1007", "--format", "json"};
	char *none[] = {"--pid", "424242"};
	char *ns[] = {"--ns", "net:[4026531840]", "--op", "setns"};
	char *ns_other[] = {"--ns", "uts:4026531840"};
	char *since[] = {
	    "--since", "2026-12-03T08:39:00Z", "--until", "@1796287201", "--uid", "0", "--comm",
	    "ip"};
	char *future[] = {"--since", "@1999999999"};
	char *logops[] = {"--op", "log"};
	struct json_object *o, *pid;

	cr_assert_eq(search_cmd(6, op), 0, "%s", err);
	cr_expect_eq(strchr(out, '\n'), out + strlen(out) - 1, "exactly one match: %s", out);
	o = json_tokener_parse(out);
	cr_assert_not_null(o, "%s", out);
	cr_assert(json_object_object_get_ex(o, "pid", &pid));
	cr_expect_eq(json_object_get_int(pid), 1007);
	json_object_put(o);

	cr_expect_eq(search_cmd(2, none), 1);
	cr_expect_eq(out[0], '\0');

	cr_assert_eq(search_cmd(4, ns), 0, "%s", err);
	cr_expect_eq(tlines(out, strlen(out)), 30, "%s", out);
	cr_expect(strstr(out, "setns net:[4026532289] from net:[4026531840]"), "%s", out);
	cr_expect_eq(search_cmd(2, ns_other), 1, "type must match too");

	cr_assert_eq(search_cmd(8, since), 0, "%s", err);
	cr_expect_eq(tlines(out, strlen(out)), 30);
	cr_expect_eq(search_cmd(2, future), 1);

	cr_assert_eq(search_cmd(2, logops), 0);
	cr_expect(strstr(out, "action=segment") && strstr(out, "action=close"), "%s", out);
}

Test(audit_damaged, search_usage_errors)
{
	char *bad[][2] = {
	    {"--pid", "abc"},		{"--uid", "-1"},	  {"--op", "fork"},
	    {"--ns", "net:notanumber"}, {"--since", "the day before"}, {"--format", "xml"},
	    {"--colour", "red"},
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(search_cmd(2, bad[i]), 2, "%s %s", bad[i][0], bad[i][1]);
		cr_expect(!strncmp(err, "nsaudit search: ", 16), "%s", err);
		cr_expect_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
	}
}

Test(audit_damaged, search_audit_format_and_hostile_comm)
{
	struct audit_log *l;
	struct json_object *e;
	char errb[256];
	char *comm[] = {"--comm", "evil\n{\"seq\":1}", "--format", "json"};
	char *text[] = {"--comm", "evil\n{\"seq\":1}"};

	tlog_cleanup(&t);
	tlog_init(&t, AUDIT_FMT_AUDIT);
	l = audit_log_open(&t.o, errb, sizeof(errb));
	cr_assert_not_null(l, "%s", errb);
	e = tevent(77, "evil\n{\"seq\":1}", 14);
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	cr_assert_eq(audit_log_close(l), 0);

	cr_assert_eq(search_cmd(4, comm), 0, "%s", err);
	cr_expect(strstr(out, "\"comm\":\"evil\\n{\\\"seq\\\":1}\""), "%s", out);
	cr_assert_eq(search_cmd(2, text), 0, "%s", err);
	/* a quote in it: the value in quotes, \" (no value opens a quote) */
	cr_expect(strstr(out, "comm=\"evil\\x0a{\\\"seq\\\":1}\""), "%s", out);
	cr_expect_eq(tlines(out, strlen(out)), 1, "%s", out);
}

Test(audit_damaged, keygen_cmd)
{
	char path[128];
	char *a[] = {"keygen", path, NULL};
	char *f[] = {"keygen", "--force", path, NULL};
	char *none[] = {"keygen", NULL};
	struct stat st;

	snprintf(path, sizeof(path), "%s/k", t.root);
	cr_assert_eq(run(out, sizeof(out), err, sizeof(err), 2, a, cmd_keygen), 0, "%s", err);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
	/* a sealing state in FILE, the verification key (one line) on stdout */
	cr_expect(!strncmp(out, "nsaudit-vk2-", 12) && strlen(out) == 12 + 64 + 1, "%s", out);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 2, a, cmd_keygen), 1);
	cr_expect(strstr(err, "--force"), "%s", err);
	chmod(path, 0644);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 3, f, cmd_keygen), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
	cr_expect_eq(run(out, sizeof(out), err, sizeof(err), 1, none, cmd_keygen), 2);
}

Test(audit_damaged, key_file_garbage_is_a_clear_error)
{
	tspit(t.key, "not a key\n", 10);
	cr_assert_eq(verify_cmd(), 1);
	cr_expect(strstr(err, "not a key"), "%s", err);
}

/*
 * A state line whose " smac=" lost its space still satisfies sscanf (a
 * space in a format matches no white space too): found by fuzz_verify, it
 * used to hash from a NULL strstr() result. Now it is a damaged state file.
 */
Test(audit_damaged, state_line_without_space_before_smac)
{
	struct tlog t;
	struct audit_verify v;
	char path[160], *s, *p;
	size_t len;

	tlog_init(&t, AUDIT_FMT_JSON);
	tlog_write(&t, 3);
	snprintf(path, sizeof(path), "%s/.nsaudit-state", t.dir);
	s = tslurp(path, &len);
	p = strstr(s, " smac=");
	cr_assert_not_null(p);
	memmove(p, p + 1, strlen(p));	/* "clean=1smac=..." */
	tspit(path, s, len - 1);
	cr_assert_eq(tlog_verify(&t, &v), 1, "a damaged state file is not intact");
	free(s);
	tlog_cleanup(&t);
}

static void deaf_fields(struct audit_fields *f, const void *ctx)
{
	audit_f_str(f, "time", "2026-12-07T06:00:00.000000000Z", 30);
	audit_f_str(f, "op", "log", 3);
	audit_f_str(f, "action", "deaf", 4);
	audit_f_str(f, "reason", "2 calls never came", 18);
	audit_f_str(f, "heard_until", "2026-12-07T05:59:00.000000000Z", 30);
}

/* a recorder that said it went deaf: verify exits 5 and says from when */
Test(audit_damaged, verify_exits_5_for_a_deaf_recorder)
{
	struct audit_log *l;
	char e[256];

	cr_assert_eq(verify_cmd(), 0, "%s%s", out, err);
	l = audit_log_open(&t.o, e, sizeof(e));
	cr_assert_not_null(l, "%s", e);
	cr_assert_geq(audit_log_append_fields(l, 1796623200000000000LL, deaf_fields, NULL), 0);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(verify_cmd(), 5, "%s%s", out, err);
	cr_expect(strstr(out, "DEAF: the recorder heard nothing from the kernel after "
			      "2026-12-07T05:59:00.000000000Z (2 calls never came) and stopped"),
		  "%s", out);
	cr_expect(strstr(out, ": intact, but its recorder was deaf for a while: "), "%s", out);
}
