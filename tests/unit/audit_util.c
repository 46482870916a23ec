// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_util.c - helpers for the audit log unit tests (no tests here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "chain.h"
#include "seal.h"
#include "segment.h"

void tlog_init(struct tlog *t, enum audit_format fmt)
{
	char err[256];

	memset(t, 0, sizeof(*t));
	strcpy(t->root, "/tmp/nsaudit-unit.XXXXXX");
	cr_assert_not_null(mkdtemp(t->root));
	snprintf(t->dir, sizeof(t->dir), "%s/log", t->root);
	snprintf(t->key, sizeof(t->key), "%s/key", t->root);
	cr_assert_eq(audit_key_generate(t->key, false, err, sizeof(err)), 0, "%s", err);
	audit_log_opts_init(&t->o);
	t->o.dir = t->dir;
	t->o.key_path = t->key;
	t->o.format = fmt;
	t->o.sync = AUDIT_SYNC_NONE; /* fast; durability is not under test */
}

void tlog_cleanup(struct tlog *t)
{
	char cmd[128];

	if (!t->root[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (system(cmd))
		fprintf(stderr, "cleanup of %s failed\n", t->root);
}

struct json_object *tevent(int pid, const char *comm, size_t comm_len)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "seq", json_object_new_int(1));
	json_object_object_add(r, "time", json_object_new_string("2026-12-03T08:40:00.123456789Z"));
	json_object_object_add(r, "op", json_object_new_string("setns"));
	json_object_object_add(r, "result", json_object_new_int(0));
	json_object_object_add(r, "ns_type", json_object_new_string("net"));
	json_object_object_add(r, "ns_inum", json_object_new_int64(4026532289LL));
	json_object_object_add(r, "ns_id", json_object_new_int(41));
	json_object_object_add(r, "old_inum", json_object_new_int64(4026531840LL));
	json_object_object_add(r, "pid", json_object_new_int(pid));
	json_object_object_add(r, "tid", json_object_new_int(pid));
	json_object_object_add(r, "uid", json_object_new_int(0));
	json_object_object_add(r, "auid", json_object_new_int64(4294967295LL));
	json_object_object_add(r, "comm", json_object_new_string_len(comm, (int)comm_len));
	json_object_object_add(r, "exe", json_object_new_string("/usr/bin/ip"));
	json_object_object_add(r, "via", json_object_new_string("proc"));
	return r;
}

void tlog_write(struct tlog *t, int n)
{
	struct audit_log *l;
	char err[512];
	int i;

	l = audit_log_open(&t->o, err, sizeof(err));
	cr_assert_not_null(l, "open: %s", err);
	for (i = 0; i < n; i++) {
		struct json_object *e = tevent(1000 + i, "ip", 2);

		cr_assert_eq(audit_log_append(l, e), 0, "append: %s", audit_log_error(l));
		json_object_put(e);
	}
	cr_assert_eq(audit_log_close(l), 0);
}

int tlog_verify(struct tlog *t, struct audit_verify *v)
{
	char err[512];
	int rc = audit_verify_dir(t->dir, t->key, false, v, err, sizeof(err));

	cr_assert_geq(rc, 0, "verify could not run: %s", err);
	return rc;
}

void tseg_path(struct tlog *t, unsigned int n, char *out, size_t len)
{
	char name[AUDIT_SEG_NAME_MAX];

	audit_seg_name(n, name);
	snprintf(out, len, "%s/%s", t->dir, name);
}

char *tslurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

void tspit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

int tlines(const char *data, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += data[i] == '\n';
	return n;
}

bool tline(const char *data, size_t len, int want, size_t *start, size_t *llen)
{
	size_t i, s = 0;
	int n = 1;

	for (i = 0; i < len; i++) {
		if (data[i] != '\n')
			continue;
		if (n == want) {
			*start = s;
			*llen = i + 1 - s; /* with its newline */
			return true;
		}
		n++;
		s = i + 1;
	}
	return false;
}

static void rebuild(const char *path, int del, int swap_a, int swap_b, int dup, int before)
{
	size_t len, s, l, s2, l2, o = 0;
	char *d = tslurp(path, &len), *out = malloc(2 * len + 1);
	int i, n = tlines(d, len);

	for (i = 1; i <= n; i++) {
		int src = i;

		if (i == before && dup > 0) {
			cr_assert(tline(d, len, dup, &s2, &l2));
			memcpy(out + o, d + s2, l2);
			o += l2;
		}
		if (i == del)
			continue;
		if (i == swap_a)
			src = swap_b;
		else if (i == swap_b)
			src = swap_a;
		cr_assert(tline(d, len, src, &s, &l));
		memcpy(out + o, d + s, l);
		o += l;
	}
	tspit(path, out, o);
	free(d);
	free(out);
}

void tdel_line(const char *path, int i)
{
	rebuild(path, i, 0, 0, 0, 0);
}

void tswap_lines(const char *path, int i, int j)
{
	rebuild(path, 0, i, j, 0, 0);
}

void tdup_line(const char *path, int i, int j)
{
	rebuild(path, 0, 0, 0, i, j);
}

int tseg_count(struct tlog *t)
{
	char path[128];
	unsigned int n, count = 0;

	for (n = 1; n < 2000; n++) {
		tseg_path(t, n, path, sizeof(path));
		count += access(path, F_OK) == 0;
	}
	return (int)count;
}

bool tfinding(const struct audit_verify *v, const char *what)
{
	unsigned int i;

	for (i = 0; i < v->nfindings && i < AUDIT_VERIFY_FINDINGS; i++)
		if (strstr(v->findings[i].what, what))
			return true;
	return false;
}
