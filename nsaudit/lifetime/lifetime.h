/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * lifetime.h - the timeline of one namespace, built from recorded records
 * (json-c objects as audit_rec_parse() gives them). No BPF, no files: the
 * command (cmd_lifetime.c) feeds records in log order and prints.
 *
 * Inode numbers are reused once a namespace is freed. Records of 6.18+
 * kernels carry ns_id (never reused), so one TYPE:INODE can yield several
 * "incarnations": a new one starts at a record whose id differs from the
 * current one's, at a creation after other records (ids unknown), or after
 * an ns_free record.
 */
#ifndef NSAUDIT_LIFETIME_H
#define NSAUDIT_LIFETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

enum lt_kind {
	LT_NONE = 0, /* not about this namespace */
	LT_CREATED,  /* unshare/clone whose ns_inum it is */
	LT_PINNED,   /* open, mount, nsfd of it */
	LT_ENTERED,  /* setns into it */
	LT_REFUSED,  /* setns into it that failed */
	LT_LEFT,     /* setns/unshare away from it (old_inum) */
	LT_UNPINNED, /* umount of a bind mount of it */
	LT_LET_GO,   /* op freed let_go: a holder went, it lives on (stock kernels) */
	LT_FREED,    /* ns_free (patched kernel), op freed's stages of its death */
	LT_LOST,     /* records lost while it was alive: there may be gaps */
	LT_KIND_MAX,
};

/* "created", "pinned", ... */
const char *lt_kind_name(enum lt_kind k);

/* How an incarnation ended, as far as is known. */
enum lt_state {
	LT_OPEN = 0,	/* last incarnation, nothing known yet */
	LT_FREED_SEEN,	/* an ns_free record */
	LT_REUSED,	/* freed (inferred): a later namespace has its inode */
	LT_ALIVE,	/* exists now (holders found it) */
	LT_GONE,	/* no holders now: freed (inferred) after its last record */
	LT_GONE_REUSED, /* gone, and another namespace (other ns_id) has the inode now */
	LT_UNKNOWN,	/* could not be checked (holders scan failed) */
};
const char *lt_state_name(enum lt_state s);

struct lt_event {
	enum lt_kind kind;
	struct json_object *rec; /* a reference is held */
	uint64_t seq;
	uint64_t ns_id; /* the id the record gives this namespace; 0: none */
	size_t inc;	/* incarnation index */
	bool new_inc;	/* first event of its incarnation */
	size_t named_by; /* LT_CREATED: the mount that named it (created_seq), or
			  * SIZE_MAX (lt_link_names) */
};

struct lt_inc {
	uint64_t ns_id;	    /* 0: not known (older kernel, or only id-less records) */
	size_t first, last; /* event indexes */
	size_t last_real;   /* last event that is not LT_LOST */
	size_t created;	    /* event index of the creation, or SIZE_MAX */
	size_t count[LT_KIND_MAX];
	uint64_t lost; /* sum of "count" of lost records in its span */
	enum lt_state state;
	uint64_t now_id;	     /* LT_GONE_REUSED: the id found now */
	struct json_object *holders; /* LT_ALIVE with JSON: holders' object (owned) */
};

struct lt_timeline {
	int type; /* enum nsaudit_ns_type; -1: take it from the first match */
	uint32_t inum;
	struct lt_event *ev;
	size_t nev, cap;
	struct lt_inc *inc;
	size_t ninc, capinc;
	/* about the log as a whole (lt_note_log) */
	uint64_t records;    /* records seen */
	uint64_t first_seq;  /* of the first record seen (0: none) */
	char first_time[48]; /* its time */
	bool dropped;	     /* the log says older segments were deleted */
	bool oom;
	/* mounts whose created_seq names a creation in another incarnation */
	size_t name_conflicts;
};

void lt_init(struct lt_timeline *tl, int type, uint32_t inum);
void lt_free(struct lt_timeline *tl);

/* Which kind of event rec is for tl's namespace, and the id it gives it. */
enum lt_kind lt_classify(const struct lt_timeline *tl, struct json_object *rec, uint64_t *ns_id);

/*
 * Feed one record, in log order (every record: lt_add also keeps the log
 * statistics). Returns the event appended, or NULL when rec is not about
 * this namespace (or out of memory: tl->oom).
 */
const struct lt_event *lt_add(struct lt_timeline *tl, struct json_object *rec);

/* After the last record: LT_FREED_SEEN / LT_REUSED for every incarnation
 * but the last one, which stays LT_OPEN unless it saw an ns_free; and each
 * creation tied to the mount that named it (lt_link_names). */
void lt_finish(struct lt_timeline *tl);

/*
 * names.c: every creation event's named_by, from the mounts' created_seq
 * (the seq of the creation record a mount named; nsaudit/tracer/
 * name_link.c), matched by seq, never by inode. lt_named_by(): that mount's
 * event for a creation, or NULL.
 */
void lt_link_names(struct lt_timeline *tl);
const struct lt_event *lt_named_by(const struct lt_timeline *tl, const struct lt_event *created);


/*
 * One readable line (with '\n') for an event: short time, kind, what, who:
 * "2026-12-03T09:17:37.650Z created  by unshare pid=16098 (unshare) uid=0".
 */
void lt_print_event(FILE *out, const struct lt_timeline *tl, const struct lt_event *e);
/* The heading line of incarnation i ("-- ns_id 26356 (1 of 2)" etc.), and
 * the line that says how it ended (nothing for LT_FREED_SEEN, whose event
 * says it; LT_ALIVE prints "alive now, held by:"). */
void lt_print_inc_head(FILE *out, const struct lt_timeline *tl, size_t i);
void lt_print_inc_end(FILE *out, const struct lt_timeline *tl, size_t i);

/* The record annotated for JSON output: a copy of rec plus "event" and
 * "incarnation" (1-based). The caller puts it. */
struct json_object *lt_event_json(const struct lt_timeline *tl, const struct lt_event *e);
/* {"seq", "time", "op", "pid", "comm", ...}: the record's few fields that say
 * what it was. The caller puts it. */
struct json_object *lt_event_brief(const struct lt_event *e);
/* {"lifetime":{...}}: the summary object. The caller puts it. */
struct json_object *lt_summary_json(const struct lt_timeline *tl);


#endif
