// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_verify_first.c - search and lifetime with --key verify the log
 * first and say the verdict as verify does. A sealing key after the
 * recorder stopped has erased its older epochs' keys, so the README's own
 * "--key /etc/nsaudit/seal" gives verify's 4 (intact as far as the key
 * reaches); both commands said "NOT INTACT: : " for it, with nothing named.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "cmd/commands.h"
#include "codec.h"
#include "seal.h"

static struct tlog t;
static char vk[AUDIT_VK_LEN + 1];
static char out[1 << 16], err[4096];

/* A sealed log, closed cleanly, of n setns records made now. */
static void setup(void)
{
	struct audit_log *l;
	char e[512], now[40];
	int i;

	tlog_init(&t, AUDIT_FMT_JSON);
	unlink(t.key);
	cr_assert_eq(audit_seal_keygen(t.key, false, vk, e, sizeof(e)), 0, "%s", e);
	l = audit_log_open(&t.o, e, sizeof(e));
	cr_assert_not_null(l, "open: %s", e);
	for (i = 0; i < 3; i++) {
		struct json_object *r = tevent(3000 + i, "ip", 2);

		audit_time_now(now);
		json_object_object_add(r, "time", json_object_new_string(now));
		cr_assert_eq(audit_log_append(l, r), 0, "%s", audit_log_error(l));
		json_object_put(r);
	}
	cr_assert_eq(audit_log_close(l), 0);
}

static void teardown(void)
{
	tlog_cleanup(&t);
}

TestSuite(verify_first, .init = setup, .fini = teardown);

/* Run a command with stdout and stderr in out and err; its exit status. */
static int run(int (*fn)(int, char **), char **argv)
{
	char po[160], pe[160];
	int so = dup(1), se = dup(2), fo, fe, rc, argc = 0;
	size_t n;
	char *d;

	while (argv[argc])
		argc++;
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
	snprintf(out, sizeof(out), "%s", d);
	free(d);
	d = tslurp(pe, &n);
	snprintf(err, sizeof(err), "%s", d);
	free(d);
	return rc;
}

Test(verify_first, the_sealing_key_after_a_stop_is_verify_4_not_tampering)
{
	char *verify[] = {"verify", "--log-dir", t.dir, "--key", t.key, NULL};
	char *search[] = {"search", "--log-dir", t.dir, "--key", t.key, NULL};
	char *life[] = {"lifetime", "net:4026532289", "--log-dir", t.dir, "--key", t.key, NULL};

	/* the ground truth: verify's own verdict for this key */
	cr_assert_eq(run(cmd_verify, verify), 4, "%s%s", out, err);
	cr_assert_eq(run(cmd_search, search), 0, "%s", err);
	cr_expect_null(strstr(err, "NOT INTACT"), "%s", err);
	cr_expect(strstr(err, "nsaudit search: note: the log is intact as far as the key reaches"),
		  "%s", err);
	cr_expect_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);

	cr_assert_eq(run(cmd_lifetime, life), 0, "%s", err);
	cr_expect_null(strstr(err, "not intact"), "%s", err);
	cr_expect_null(strstr(out, "NOT INTACT"), "%s", out);
	cr_expect(strstr(out, "(verified intact as far as the key reaches"), "%s", out);
	cr_expect(strstr(err, "note: the log is intact as far as the key reaches"), "%s", err);
}

Test(verify_first, the_verification_key_says_intact)
{
	char *search[] = {"search", "--log-dir", t.dir, "--verification-key", vk, NULL};
	char *life[] = {"lifetime",	    "net:4026532289", "--log-dir", t.dir,
			"--verification-key", vk,		NULL};

	cr_assert_eq(run(cmd_search, search), 0, "%s", err);
	cr_expect_eq(err[0], '\0', "%s", err);
	cr_assert_eq(run(cmd_lifetime, life), 0, "%s", err);
	cr_expect(strstr(out, "(verified intact)\n"), "%s", out);
}

Test(verify_first, a_changed_record_is_not_intact_and_named)
{
	char *search[] = {"search", "--log-dir", t.dir, "--verification-key", vk, NULL};
	char *life[] = {"lifetime",	    "net:4026532289", "--log-dir", t.dir,
			"--verification-key", vk,		NULL};
	char seg[128], *d, *p;
	size_t n;

	tseg_path(&t, 1, seg, sizeof(seg));
	d = tslurp(seg, &n);
	p = strstr(d, "\"comm\":\"ip\"");
	cr_assert_not_null(p);
	p[9] = 'x';
	tspit(seg, d, n);
	free(d);
	cr_assert_eq(run(cmd_search, search), 0, "%s", err);
	cr_expect(strstr(err, "warning: the log is NOT INTACT: nsaudit-000001.log line "), "%s",
		  err);
	cr_assert_eq(run(cmd_lifetime, life), 0, "%s", err);
	cr_expect(strstr(out, "(NOT INTACT: see stderr)"), "%s", out);
	cr_expect(strstr(err, "warning: the log is NOT INTACT: nsaudit-000001.log line "), "%s",
		  err);
}
