/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* search.h - the record filter of "nsaudit search", and its time syntax. */
#ifndef NSAUDIT_AUDIT_SEARCH_H
#define NSAUDIT_AUDIT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codec.h"

/* --ns of a name: every namespace the log saw mounted there */
#define AUDIT_FILTER_NS_MAX 64

/*
 * One namespace --ns selects. Identity is its ns_id where the kernel has
 * ids: a record with an id matches by id alone, never by its inode, which
 * the kernel hands to the next namespace as soon as this one dies. Without
 * ids (Linux before 6.18) the inode is all there is; then the life of the
 * namespace in the log, from its creation record to the next creation of
 * that inode, bounds what matches (seq in [from_seq, to_seq), to_seq 0 =
 * open), as found by audit_ns_scan_births().
 */
struct audit_filter_ns {
	int type; /* -1: any type */
	uint32_t inum;
	uint64_t id;	     /* ns_id, 0 if not known */
	uint64_t seen_seq;   /* id-less: a seq at which it was alive (0: now) */
	uint64_t from_seq, to_seq;
	bool whole;	     /* id-less TYPE:INODE: every life of the inode */
};

/* repeated --pid, --uid, --comm, --exe: any of them */
#define AUDIT_FILTER_ANY_MAX 16

/*
 * What a search keeps: a record matches when it meets every condition
 * given. A record without the field a condition asks about does not meet
 * it (--comm ip never passes a record with no comm, or an empty one).
 */
struct audit_filter {
	uint32_t ops; /* 1 << enum nsaudit_op; 0 = any */
	bool op_log;  /* the log's own records ("op":"log") */
	bool op_alert; /* detections ("op":"alert", nsaudit/rules/) */
	uint32_t types; /* 1 << enum nsaudit_ns_type of ns_type; 0 = any */
	const char *rule; /* an alert's rule id, exact (implies alerts) */
	const char *severity; /* alerts at this syslog level or more urgent */
	size_t n_ns;	/* 0 = any; else any of these, acted on or left (old_) */
	struct audit_filter_ns ns[AUDIT_FILTER_NS_MAX];
	size_t n_pid, n_uid, n_comm, n_exe;
	long pid[AUDIT_FILTER_ANY_MAX], uid[AUDIT_FILTER_ANY_MAX];
	const char *comm[AUDIT_FILTER_ANY_MAX]; /* exact, never empty */
	const char *exe[AUDIT_FILTER_ANY_MAX];	/* exact path */
	int result;	/* 0 any; AUDIT_RESULT_OK, _FAIL; else -errno */
	const char *container; /* id, 12+ id prefix, podman name (fields
				* container, container_name, ns_name/old_name) */
	bool has_since, has_until;
	int64_t since_ns, until_ns;
};

#define AUDIT_RESULT_OK 1	/* result >= 0 */
#define AUDIT_RESULT_FAIL 2	/* result < 0 */

/*
 * A time as users type it (search_time.c): RFC 3339 ("2026-12-03T08:40:00Z",
 * fraction and offset allowed); "@EPOCH" (seconds, fraction allowed);
 * "now", "recent" (10 minutes ago), "today", "yesterday", "tomorrow"
 * (local midnight); a local date or time without zone ("2026-12-07",
 * "2026-12-07 08:40:05", "08:40"); or a span ago: "90s", "10m", "2h",
 * "7d", "-2h", "5 min ago", "3 hours ago". now_ns is the reference for
 * spans and today. 0 or -1.
 */
int audit_time_arg(const char *s, int64_t now_ns, int64_t *ns);

/*
 * A record as the filter sees it: its string and number fields by key
 * (the log's names: "op", "pid", "comm", "ns_id"...), whatever holds them.
 * search reads a parsed line (audit_view_of_rec); trace and record their
 * events before they are written (nsaudit/tracer/tracer_filter.c): one
 * filter for all three.
 */
struct audit_view {
	const char *(*str)(const void *rec, const char *key, size_t *len);
	bool (*num)(const void *rec, const char *key, int64_t *v);
	const void *rec;
	uint64_t seq;
};
void audit_view_of_rec(struct audit_view *v, const struct audit_rec *r);
bool audit_filter_match_view(const struct audit_filter *f, const struct audit_view *v);
bool audit_filter_match(const struct audit_filter *f, const struct audit_rec *r);
/*
 * Whether the unparsed line may match f: false only when it cannot (see
 * search_prefilter.c), so that most lines of a search are never parsed.
 * audit_filter_match still decides for every line this lets through.
 */
bool audit_filter_may_match(const struct audit_filter *f, const char *line, size_t len);
/* Whether f is all zeros, no condition set: every record matches (any
 * doubt, as a byte of padding, says no: only a shortcut is lost). */
bool audit_filter_is_empty(const struct audit_filter *f);
/* "crit" -> 2 ... "debug" -> 7 (syslog levels); -1 if none. */
int audit_severity_level(const char *s);
/* Whether rec is a successful mount whose path is exactly path; then its
 * namespace in *type and *inum (for a name that no longer exists: search
 * and lifetime look it up in the log). A mount made from a user namespace
 * other than the initial one (its actor_userns) is in a mount namespace
 * of that user's, never at the host's path: not taken. */
bool audit_rec_mount_at(struct json_object *rec, const char *path, int *type, uint32_t *inum);
/*
 * --ns, looked up in the log. Before the search, every record goes to
 * audit_ns_scan_rec(): a successful mount at path (a name the user knows)
 * adds the namespace mounted there; with by_inode, every ns_id the log
 * saw with type:inum is added (an inode names as many namespaces as have
 * had it). Then, only if an entry has no id, every record goes once more
 * to audit_ns_scan_births() to bound the id-less entries' lives.
 */
struct audit_ns_scan {
	struct audit_filter *f;
	const char *path;	/* or NULL */
	bool by_inode;
	int type;
	uint32_t inum;
	bool full;		/* more namespaces than AUDIT_FILTER_NS_MAX */
};
void audit_ns_scan_rec(struct audit_ns_scan *s, const struct audit_rec *r);
void audit_ns_scan_births(struct audit_filter *f, const struct audit_rec *r);
/* Add a namespace to f unless it is there: false if f is full. */
/* Whether r is about (or left) one of f's namespaces. */
bool audit_filter_ns_match(const struct audit_filter *f, const struct audit_view *r);
bool audit_filter_add_ns(struct audit_filter *f, const struct audit_filter_ns *ns);

/*
 * --container among the containers a log saw (search_container.c): add
 * every record; then resolve an id, a name or a unique id prefix to the
 * id (*id points into c): 0; -1 none such, -2 a prefix several share,
 * with err listing the candidates ("web (c1f69d1c01ba), ...").
 */
struct audit_containers {
	struct {
		char id[72];
		char name[128];
	} *v;
	size_t n, cap;
};
void audit_containers_add_rec(struct audit_containers *c, const struct audit_rec *r);
int audit_containers_resolve(const struct audit_containers *c, const char *want,
			     const char **id, char *err, size_t errlen);
void audit_containers_free(struct audit_containers *c);

/* One readable line, lsns vocabulary ("net:[4026531840]"), escaped, with
 * its newline, appended to b (made whole: one write per record). */
void audit_text_line(struct sbuf *b, const struct audit_rec *r);
/* The line made in line (kept from one record to the next) and written to
 * out: false if it could not be (out of memory, or a write error). */
bool audit_print_text(FILE *out, struct sbuf *line, const struct audit_rec *r);
/* The record as a JSON line: a flat one's bytes as on disk without the MAC,
 * any other written again; false as above. */
bool audit_print_json(FILE *out, struct sbuf *line, const struct audit_rec *r);

#endif
