// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * history.c - a namespace's holders over time, from its timeline (see
 * history.h). Pure: no BPF, no files; unit tested from hand-written
 * records.
 *
 * What the log has: a holder's beginning (created, entered, pinned by an
 * fd or a bind mount) and some ends (setns or unshare away, umount; with
 * op freed each task's nsproxy gone (let_go: exit, exec, setns/unshare
 * away), the nsfs dentry gone (all fds and bind mounts), and the holder
 * that let go last). A close is not recorded by itself: such an end is
 * printed as not in the log (or bounded by the nsfs dentry's going),
 * never guessed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array.h"
#include "codec.h"
#include "death.h"
#include "history.h"
#include "nstype.h"

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int64_t jint_or(json_object *o, const char *k, int64_t dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int64(v);
}

static bool streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The holder process a creation names: the caller of unshare, the child
 * of clone (the namespace is made for it; the parent keeps its own). */
static int64_t created_pid(json_object *rec)
{
	if (streq(jstr(rec, "op"), "clone"))
		return jint_or(rec, "target_pid", -1);
	return jint_or(rec, "pid", -1);
}

int64_t lh_creator_pid(const struct lt_timeline *tl, size_t inc)
{
	if (inc >= tl->ninc || tl->inc[inc].created == SIZE_MAX)
		return -1;
	return created_pid(tl->ev[tl->inc[inc].created].rec);
}

static struct lh_span *span_add(struct lh_history *h, enum lh_kind kind, json_object *rec,
				int64_t pid, size_t from)
{
	struct lh_span *s;

	if (ARRAY_RESERVE(&h->v, &h->cap, h->n + 1)) {
		h->oom = true;
		return NULL;
	}
	s = &h->v[h->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->pid = pid;
	s->fd = -1;
	s->comm = jstr(rec, "comm");
	s->from = from;
	s->to = SIZE_MAX;
	s->by = SIZE_MAX;
	s->refs_left = -1;
	return s;
}

/* The holder's span still open: a task or an fd of pid, a mount at path
 * (the latest one). */
static struct lh_span *span_open(struct lh_history *h, enum lh_kind kind, int64_t pid,
				 const char *path)
{
	size_t i;

	for (i = h->n; i-- > 0;) {
		struct lh_span *s = &h->v[i];

		if (s->kind != kind || s->to != SIZE_MAX)
			continue;
		if (kind == LH_MOUNT ? streq(s->path, path) : s->pid == pid)
			return s;
	}
	return NULL;
}

/* The holder's span ends at event j: the open one, or one whose beginning
 * is not in the log (inherited by fork, opened before the recording). */
static struct lh_span *span_end(struct lh_history *h, enum lh_kind kind, json_object *rec,
				int64_t pid, const char *path, size_t j)
{
	struct lh_span *s = span_open(h, kind, pid, path);

	if (!s) {
		s = span_add(h, kind, rec, pid, SIZE_MAX);
		if (!s)
			return NULL;
		s->path = path;
	}
	s->to = j;
	return s;
}

/* pid's latest task span, if it ended at an event of kind k: a setns or
 * unshare away and its old nsproxy's let_go are one going, whichever of
 * the two records came first (the let_go is sent inside the call, the
 * setns at its end). */
static struct lh_span *task_ended_by(struct lh_history *h, const struct lt_timeline *tl,
				     int64_t pid, enum lt_kind k)
{
	size_t i;

	for (i = h->n; i-- > 0;) {
		struct lh_span *s = &h->v[i];

		if (s->kind == LH_TASK && s->pid == pid && s->to != SIZE_MAX)
			return tl->ev[s->to].kind == k ? s : NULL;
	}
	return NULL;
}

/*
 * A let_go: a task's nsproxy went (its span ends here, unless a setns or
 * unshare away ended it already), or the nsfs dentry went: every fd and
 * bind mount of it is gone by now, the one span of the dentry ends here
 * (from its first pin since the last such going).
 */
static void on_let_go(struct lh_history *h, const struct lt_timeline *tl, size_t j)
{
	json_object *r = tl->ev[j].rec;
	const char *holder = jstr(r, "holder");
	int64_t pid = jint_or(r, "pid", -1), refs = jint_or(r, "ns_refs", -1);
	struct lh_span *s = NULL;
	size_t i, from = SIZE_MAX;

	if (streq(holder, "task") && pid > 0) {
		/* after its setns or unshare away: that span, with the count */
		s = span_open(h, LH_TASK, pid, NULL) ? NULL : task_ended_by(h, tl, pid, LT_LEFT);
		if (!s)
			s = span_end(h, LH_TASK, r, pid, NULL, j);
	} else if (streq(holder, "nsfs")) {
		for (i = 0; i < h->n; i++) {
			struct lh_span *f = &h->v[i];

			if (f->kind == LH_NSFS)
				from = SIZE_MAX;
			else if ((f->kind == LH_FD || f->kind == LH_MOUNT) && from == SIZE_MAX &&
				 f->from != SIZE_MAX)
				from = f->from;
			if (f->kind == LH_FD && f->to == SIZE_MAX && f->by == SIZE_MAX)
				f->by = j;
		}
		s = span_add(h, LH_NSFS, r, -1, from);
		if (s)
			s->to = j;
	}
	if (s)
		s->refs_left = refs;
}

/* A last_ref of holder mount: the bind mount the actor's umount removed
 * (the mount span that umount ended), else the latest one still open (its
 * umount not in the log) ends here; none: none is invented. */
static struct lh_span *mount_let_go_last(struct lh_history *h, const struct lt_timeline *tl,
					 int64_t pid, size_t j)
{
	struct lh_span *open = NULL;
	size_t i;

	for (i = h->n; i-- > 0;) {
		struct lh_span *s = &h->v[i];

		if (s->kind != LH_MOUNT)
			continue;
		if (s->to == SIZE_MAX) {
			if (!open)
				open = s;
		} else if (jint_or(tl->ev[s->to].rec, "pid", -1) == pid) {
			return s;
		}
	}
	if (open)
		open->to = j;
	return open;
}

/* A freed record: the first is the death; a last_ref names the holder. */
static void on_freed(struct lh_history *h, const struct lt_timeline *tl, json_object *r,
		     size_t j)
{
	const char *holder = jstr(r, "holder");
	int64_t pid = jint_or(r, "pid", -1);
	struct lh_span *s = NULL;

	if (h->freed == SIZE_MAX)
		h->freed = j;
	if (!streq(jstr(r, "op"), "freed") || !streq(jstr(r, "stage"), "last_ref") || pid <= 0)
		return;
	if (streq(holder, "task"))
		s = span_end(h, LH_TASK, r, pid, NULL, j);
	else if (streq(holder, "fd"))
		s = span_end(h, LH_FD, r, pid, NULL, j);
	else if (streq(holder, "mount"))
		s = mount_let_go_last(h, tl, pid, j);
	if (s)
		s->last = true;
}

static void on_event(struct lh_history *h, const struct lt_timeline *tl, size_t j)
{
	const struct lt_event *e = &tl->ev[j];
	json_object *r = e->rec;
	const char *op = jstr(r, "op");
	int64_t pid = jint_or(r, "pid", -1);
	struct lh_span *s;

	switch (e->kind) {
	case LT_CREATED:
		s = span_add(h, LH_TASK, r, created_pid(r), j);
		if (s && h->creator == SIZE_MAX)
			h->creator = (size_t)(s - h->v);
		break;
	case LT_ENTERED:
		if (!span_open(h, LH_TASK, pid, NULL))
			span_add(h, LH_TASK, r, pid, j);
		break;
	case LT_PINNED:
		if (streq(op, "mount")) {
			s = span_add(h, LH_MOUNT, r, pid, j);
			if (s)
				s->path = jstr(r, "path");
		} else {
			s = span_add(h, LH_FD, r, pid, j);
			if (s)
				s->fd = jint_or(r, "fd", -1);
		}
		break;
	case LT_LEFT:
		/* after its let_go: the setns or unshare says more */
		s = span_open(h, LH_TASK, pid, NULL) ? NULL : task_ended_by(h, tl, pid, LT_LET_GO);
		if (s)
			s->to = j;
		else
			span_end(h, LH_TASK, r, pid, NULL, j);
		break;
	case LT_UNPINNED:
		span_end(h, LH_MOUNT, r, pid, jstr(r, "path"), j);
		h->unnamed = j;
		break;
	case LT_LET_GO:
		on_let_go(h, tl, j);
		break;
	case LT_FREED:
		on_freed(h, tl, r, j);
		break;
	default:
		break;
	}
}

int lh_build(struct lh_history *h, const struct lt_timeline *tl, size_t inc)
{
	const struct lt_inc *c;
	size_t j;

	memset(h, 0, sizeof(*h));
	h->freed = h->unnamed = h->creator = SIZE_MAX;
	if (inc >= tl->ninc)
		return 0;
	c = &tl->inc[inc];
	for (j = c->first; j <= c->last && j < tl->nev; j++)
		if (tl->ev[j].inc == inc)
			on_event(h, tl, j);
	return h->oom ? -1 : 0;
}

void lh_free(struct lh_history *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* ---- text -------------------------------------------------------------- */

static void put_esc(FILE *out, const char *s)
{
	audit_text_escape(out, s, strlen(s));
}

/* "2026-12-03T09:51:22.650Z", or "?" for an end not in the log */
static void put_when(FILE *out, const struct lt_timeline *tl, size_t j)
{
	const char *t = j != SIZE_MAX ? jstr(tl->ev[j].rec, "time") : NULL;
	size_t n = t ? strlen(t) : 0;

	if (!t)
		fputs("?", out);
	else if (n > 24 && t[19] == '.' && t[n - 1] == 'Z')
		fprintf(out, "%.23sZ", t);
	else
		put_esc(out, t);
}

static const char *began(const struct lt_timeline *tl, const struct lh_span *s)
{
	if (s->from == SIZE_MAX)
		return s->kind == LH_TASK ? "held (inherited or entered before the log)"
		       : s->kind == LH_NSFS ? "made by a look-up not in the log (a stat, lsns)"
					    : "held (opened before the log)";
	if (s->kind == LH_NSFS)
		return "from its first fd or bind mount";
	switch (tl->ev[s->from].kind) {
	case LT_CREATED:
		return "created it";
	case LT_ENTERED:
		return "entered (setns)";
	default:
		return s->kind == LH_MOUNT ? "named (bind mount)" : "opened its file";
	}
}

static const char *ended(const struct lt_timeline *tl, const struct lh_span *s)
{
	if (s->last && s->kind == LH_FD)
		return "closed it: let go last";
	if (s->last && s->kind == LH_MOUNT)
		return "umount: let go last";
	if (s->last)
		return "exited, exec'd or moved away: let go last";
	if (s->to == SIZE_MAX && s->kind == LH_FD && s->by != SIZE_MAX)
		return "closed by the time its nsfs file went (closes are not recorded)";
	if (s->to == SIZE_MAX)
		return s->kind == LH_TASK ? "end not in the log (only --op freed records exits)"
		       : s->kind == LH_FD ? "end not in the log (closes are not recorded)"
					  : "still mounted per the log";
	if (s->kind == LH_NSFS)
		return "its last fd closed and its last bind mount gone: let go";
	switch (tl->ev[s->to].kind) {
	case LT_UNPINNED:
		return "umount";
	case LT_LET_GO:
		return "exited, exec'd or moved away: let go";
	default:
		return "left (setns or unshare away)";
	}
}

static void print_span(FILE *out, const struct lt_timeline *tl, const struct lh_span *s)
{
	double a, b;

	switch (s->kind) {
	case LH_TASK:
		fprintf(out, "  task  pid=%" PRId64, s->pid);
		break;
	case LH_FD:
		fprintf(out, "  fd    pid=%" PRId64, s->pid);
		if (s->fd >= 0)
			fprintf(out, " fd=%" PRId64, s->fd);
		break;
	case LH_MOUNT:
		fputs("  mount ", out);
		put_esc(out, s->path ? s->path : "?");
		break;
	case LH_NSFS:
		fputs("  nsfs  (its fds and bind mounts)", out);
		break;
	}
	if (s->comm && s->kind != LH_MOUNT) {
		fputs(" (", out);
		put_esc(out, s->comm);
		fputc(')', out);
	}
	fputs("  ", out);
	put_when(out, tl, s->from);
	fputs(" -> ", out);
	put_when(out, tl, s->to);
	if (s->from != SIZE_MAX && s->to != SIZE_MAX) {
		a = lt_rec_time(tl->ev[s->from].rec);
		b = lt_rec_time(tl->ev[s->to].rec);
		if (a >= 0 && b >= a)
			fprintf(out, " (%.3f s)", b - a);
	}
	fprintf(out, "  %s; %s", began(tl, s), ended(tl, s));
	if (s->refs_left >= 0)
		fprintf(out, " (%" PRId64 " reference%s left)", s->refs_left,
			s->refs_left == 1 ? "" : "s");
	fputc('\n', out);
}

void lh_print(FILE *out, const struct lt_timeline *tl, const struct lh_history *h)
{
	size_t i;

	if (!h->n) {
		fputs("holders over time: none in the log\n", out);
		return;
	}
	fputs("holders over time (from the log; '?': not in it):\n", out);
	for (i = 0; i < h->n; i++)
		print_span(out, tl, &h->v[i]);
}

/* ---- JSON -------------------------------------------------------------- */

static const char *const kind_json[] = {
	[LH_TASK] = "task", [LH_FD] = "fd", [LH_MOUNT] = "mount", [LH_NSFS] = "nsfs",
};

static json_object *brief_or_null(const struct lt_timeline *tl, size_t j)
{
	return j != SIZE_MAX ? lt_event_brief(&tl->ev[j]) : NULL;
}

static json_object *span_json(const struct lt_timeline *tl, const struct lh_span *s)
{
	json_object *o = json_object_new_object();
	double a, b;

	json_object_object_add(o, "kind", json_object_new_string(kind_json[s->kind]));
	if (s->kind == LH_TASK || s->kind == LH_FD)
		json_object_object_add(o, "pid", json_object_new_int64(s->pid));
	if (s->kind == LH_FD && s->fd >= 0)
		json_object_object_add(o, "fd", json_object_new_int64(s->fd));
	if (s->kind == LH_MOUNT && s->path)
		json_object_object_add(o, "path", json_object_new_string(s->path));
	if (s->comm && s->kind != LH_MOUNT)
		json_object_object_add(o, "comm", json_object_new_string(s->comm));
	json_object_object_add(o, "from", brief_or_null(tl, s->from));
	json_object_object_add(o, "to", brief_or_null(tl, s->to));
	if (s->from != SIZE_MAX && s->to != SIZE_MAX) {
		a = lt_rec_time(tl->ev[s->from].rec);
		b = lt_rec_time(tl->ev[s->to].rec);
		if (a >= 0 && b >= a)
			json_object_object_add(o, "seconds", json_object_new_double(b - a));
	}
	json_object_object_add(o, "began", json_object_new_string(began(tl, s)));
	json_object_object_add(o, "ended", json_object_new_string(ended(tl, s)));
	json_object_object_add(o, "let_go_last", json_object_new_boolean(s->last));
	if (s->refs_left >= 0)
		json_object_object_add(o, "refs_left", json_object_new_int64(s->refs_left));
	if (s->kind == LH_FD && s->to == SIZE_MAX && s->by != SIZE_MAX)
		json_object_object_add(o, "closed_by", lt_event_brief(&tl->ev[s->by]));
	return o;
}

json_object *lh_json(const struct lt_timeline *tl, const struct lh_history *h)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < h->n; i++)
		json_object_array_add(a, span_json(tl, &h->v[i]));
	return a;
}

json_object *lh_leak_json(const struct lt_timeline *tl, const struct lh_leak *l, double now)
{
	const struct lt_inc *c = &tl->inc[tl->ninc - 1];
	json_object *o = json_object_new_object();
	const char *type = tl->type >= 0 ? nstype_name((unsigned int)tl->type) : NULL;

	json_object_object_add(o, "ns_type", type ? json_object_new_string(type) : NULL);
	json_object_object_add(o, "ns_inum", json_object_new_int64(tl->inum));
	json_object_object_add(o, "ns_id", c->ns_id ? json_object_new_int64((int64_t)c->ns_id)
						     : NULL);
	json_object_object_add(o, "alive_seconds", json_object_new_double(now - l->since));
	json_object_object_add(o, "since", json_object_new_double(l->since));
	json_object_object_add(o, "created", brief_or_null(tl, c->created));
	json_object_object_add(o, "creator_pid",
			       json_object_new_int64(lh_creator_pid(tl, tl->ninc - 1)));
	json_object_object_add(o, "creator_left_in_log", json_object_new_boolean(l->creator_left));
	json_object_object_add(o, "creator_left", brief_or_null(tl, l->left));
	json_object_object_add(o, "names_in_log", json_object_new_int64((int64_t)l->named));
	json_object_object_add(o, "unnamed", brief_or_null(tl, l->unnamed));
	return o;
}

/* ---- leaks ------------------------------------------------------------- */

bool lh_leak(const struct lt_timeline *tl, size_t inc, bool creator_here, size_t names_now,
	     double now, double older, struct lh_leak *out)
{
	const struct lt_inc *c;
	int64_t creator;
	double t;
	size_t j;

	memset(out, 0, sizeof(*out));
	out->unnamed = out->left = SIZE_MAX;
	if (inc >= tl->ninc || tl->inc[inc].created == SIZE_MAX || creator_here || names_now)
		return false;
	c = &tl->inc[inc];
	creator = created_pid(tl->ev[c->created].rec);
	out->since = lt_rec_time(tl->ev[c->created].rec);
	for (j = c->created; j <= c->last && j < tl->nev; j++) {
		const struct lt_event *e = &tl->ev[j];

		if (e->inc != inc)
			continue;
		if (e->kind == LT_PINNED && streq(jstr(e->rec, "op"), "mount"))
			out->named++;
		else if (e->kind == LT_UNPINNED)
			out->unnamed = j;
		else if ((e->kind == LT_LEFT ||
			  (e->kind == LT_LET_GO && streq(jstr(e->rec, "holder"), "task"))) &&
			 jint_or(e->rec, "pid", -1) == creator)
			out->left = j;
		else
			continue;
		t = lt_rec_time(e->rec);
		if (e->kind != LT_PINNED && t > out->since)
			out->since = t;
	}
	out->creator_left = out->left != SIZE_MAX;
	return out->since >= 0 && now - out->since >= older;
}
