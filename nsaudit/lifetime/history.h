/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * history.h - a namespace's holders over time, from its timeline
 * (history.c, pure): who held it from when to when, which holder let go
 * last, and the leak judgement of "nsaudit holders --leaks" (alive long
 * after its creator and its names were gone).
 */
#ifndef NSAUDIT_HISTORY_H
#define NSAUDIT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lifetime.h"

enum lh_kind {
	LH_TASK,  /* a task's nsproxy (or creds: user) names it */
	LH_FD,	  /* an open nsfs file */
	LH_MOUNT, /* a bind mount of its nsfs file (a name) */
	LH_NSFS,  /* its nsfs dentry, which all its fds and bind mounts share
		   * (op freed let_go: it went while the namespace lived on) */
};

/* One holder's span. from/to are event indexes of tl; SIZE_MAX: that end
 * is not in the log (inherited by fork; an exit or a close). */
struct lh_span {
	enum lh_kind kind;
	int64_t pid;	  /* LH_TASK, LH_FD: the holder process */
	int64_t fd;	  /* LH_FD: -1 when not known */
	const char *path; /* LH_MOUNT: the mount point (the record's string) */
	const char *comm; /* the process name, when a record gave it */
	size_t from, to;
	bool last; /* the freed record names it as the holder that let go last */
	int64_t refs_left; /* to is an op freed let_go: the count it left; else -1 */
	size_t by; /* LH_FD with no end: its nsfs dentry went at event by (the
		    * close was then or before), or SIZE_MAX */
};

struct lh_history {
	struct lh_span *v;
	size_t n, cap;
	size_t freed;	 /* event index of its first LT_FREED, or SIZE_MAX */
	size_t unnamed;	 /* the last umount of a name, or SIZE_MAX */
	size_t creator;	 /* span index of the creator's, or SIZE_MAX */
	bool oom;
};

/* The spans of incarnation inc of tl (in the order they began). 0, or -1
 * (out of memory). */
int lh_build(struct lh_history *h, const struct lt_timeline *tl, size_t inc);
void lh_free(struct lh_history *h);

/* "holders over time:" and one line per span, then how it ended. */
void lh_print(FILE *out, const struct lt_timeline *tl, const struct lh_history *h);
/* The spans as a JSON array, each with what the text line says (kind,
 * pid, fd, path, comm, from and to as brief records or null, seconds,
 * began, ended, let_go_last, refs_left, closed_by). The caller puts it. */
struct json_object *lh_json(const struct lt_timeline *tl, const struct lh_history *h);

/* The pid that created incarnation inc (its creation record's), or -1. */
int64_t lh_creator_pid(const struct lt_timeline *tl, size_t inc);

/*
 * The leak judgement, for incarnation inc alive now (the caller's scan):
 * creator_here says whether the creator's pid holds it now (a task or an
 * fd), names_now how many bind mounts of it there are now. A candidate
 * needs a creation in the log, the creator not holding it, no name left,
 * and at least older seconds at time now since out->since: the latest of
 * its last name's umount and the creator's leaving it (setns or unshare
 * away, or with op freed the let_go of the creator's nsproxy: an exit or
 * exec too), where the log has them, else its creation. When the
 * creator's leaving is not in the log (creator_left false), since is the
 * other moments' and the caller must say so.
 */
struct lh_leak {
	double since;	   /* seconds since the epoch */
	bool creator_left; /* the creator's setns/unshare away is in the log */
	size_t named;	   /* bind mounts of it in the log */
	size_t unnamed;	   /* event index of the last umount of one, or SIZE_MAX */
	size_t left;	   /* event index of the creator's leaving, or SIZE_MAX */
};
bool lh_leak(const struct lt_timeline *tl, size_t inc, bool creator_here, size_t names_now,
	     double now, double older, struct lh_leak *out);
/* A leak as JSON: ns_type, ns_inum, ns_id, alive_seconds (at now), since,
 * created, creator_left and unnamed (brief records or null),
 * creator_pid, creator_left_in_log. The caller adds holders_now. */
struct json_object *lh_leak_json(const struct lt_timeline *tl, const struct lh_leak *l,
				 double now);

#endif
