/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* audit_util.h - helpers for the audit log unit tests: scratch log
 * directories, events, and surgery on segment files. */
#ifndef NSAUDIT_TEST_AUDIT_UTIL_H
#define NSAUDIT_TEST_AUDIT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "verify.h"

struct json_object;

/* A fresh directory under /tmp with a key file "key" next to "log/". */
struct tlog {
	char root[64], dir[96], key[96];
	struct audit_log_opts o;
};
void tlog_init(struct tlog *t, enum audit_format fmt);
void tlog_cleanup(struct tlog *t);

/* A setns event like the tracer's; comm may hold any bytes. */
struct json_object *tevent(int pid, const char *comm, size_t comm_len);
/* Open, append n events (pid 1000+i), close; asserts success. */
void tlog_write(struct tlog *t, int n);

/* 0 intact, 1 not; v filled. */
int tlog_verify(struct tlog *t, struct audit_verify *v);
/* Does any finding of v say what? */
bool tfinding(const struct audit_verify *v, const char *what);

/* Segment file path for number n. */
void tseg_path(struct tlog *t, unsigned int n, char *out, size_t len);
/* Whole file in memory (malloc'ed, NUL-terminated). */
char *tslurp(const char *path, size_t *len);
void tspit(const char *path, const char *data, size_t len);
/* Number of lines in a file; the bytes of line i (from 1) via start and llen. */
int tlines(const char *data, size_t len);
bool tline(const char *data, size_t len, int i, size_t *start, size_t *llen);
/* Rewrite a file without line i / with lines i and j swapped / with a copy
 * of line i inserted before line j. */
void tdel_line(const char *path, int i);
void tswap_lines(const char *path, int i, int j);
void tdup_line(const char *path, int i, int j);
/* Number of segment files in t->dir. */
int tseg_count(struct tlog *t);

#endif
