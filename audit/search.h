/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* search.h - the record filter of "nsaudit search", and its time syntax. */
#ifndef NSAUDIT_AUDIT_SEARCH_H
#define NSAUDIT_AUDIT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codec.h"

/* --ns of a name that is gone: every namespace once mounted there */
#define AUDIT_FILTER_NS_MAX 64

struct audit_filter {
	uint32_t ops; /* 1 << enum nsaudit_op; 0 = any */
	bool op_log;  /* the log's own records ("op":"log") */
	bool op_alert; /* detections ("op":"alert", loader/rules/) */
	const char *rule; /* an alert's rule id, exact (implies alerts) */
	const char *severity; /* alerts at this syslog level or more urgent */
	size_t n_ns;	/* 0 = any; else any of these, as ns_inum or old_inum */
	struct {
		int type; /* -1: any type */
		uint32_t inum;
	} ns[AUDIT_FILTER_NS_MAX];
	bool has_pid, has_uid;
	long pid, uid;
	const char *comm; /* exact */
	const char *container; /* id, 12+ id prefix, podman name (fields
				* container, container_name, ns_name/old_name) */
	bool has_since, has_until;
	int64_t since_ns, until_ns;
};

/*
 * RFC 3339 ("2026-12-03T08:40:00Z", fraction and offset allowed), "@EPOCH"
 * (seconds, fraction allowed), "now", or a span ago: "90s", "10m", "2h",
 * "7d". now_ns is the reference for spans. 0 or -1.
 */
int audit_time_arg(const char *s, int64_t now_ns, int64_t *ns);

bool audit_filter_match(const struct audit_filter *f, const struct audit_rec *r);
/*
 * Whether the unparsed line may match f: false only when it cannot (see
 * search_prefilter.c), so that most lines of a search are never parsed.
 * audit_filter_match still decides for every line this lets through.
 */
bool audit_filter_may_match(const struct audit_filter *f, const char *line, size_t len);
/* "crit" -> 2 ... "debug" -> 7 (syslog levels); -1 if none. */
int audit_severity_level(const char *s);
/* Whether rec is a successful mount whose path is exactly path; then its
 * namespace in *type and *inum (for a name that no longer exists: search
 * and lifetime look it up in the log). */
bool audit_rec_mount_at(struct json_object *rec, const char *path, int *type, uint32_t *inum);
/* One readable line, lsns vocabulary ("net:[4026531840]"), escaped. */
void audit_print_text(FILE *out, const struct audit_rec *r);

#endif
