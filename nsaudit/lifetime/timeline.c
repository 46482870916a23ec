// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * timeline.c - build and print the timeline of one namespace from
 * recorded records (see lifetime.h). Pure: no BPF, no files.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "codec.h"
#include "lifetime.h"
#include "nstype.h"
#include "array.h"
#include "death.h"

static const char *const kind_names[LT_KIND_MAX] = {
    [LT_NONE] = "none",		[LT_CREATED] = "created", [LT_PINNED] = "pinned",
    [LT_ENTERED] = "entered",	[LT_REFUSED] = "refused", [LT_LEFT] = "left",
    [LT_UNPINNED] = "unpinned", [LT_LET_GO] = "let_go",   [LT_FREED] = "freed",
    [LT_LOST] = "lost",
};

const char *lt_kind_name(enum lt_kind k)
{
	return (unsigned int)k < LT_KIND_MAX ? kind_names[k] : "?";
}

const char *lt_state_name(enum lt_state s)
{
	switch (s) {
	case LT_OPEN:
		return "open";
	case LT_FREED_SEEN:
		return "freed";
	case LT_REUSED:
		return "freed-inferred";
	case LT_ALIVE:
		return "alive";
	case LT_GONE:
		return "gone";
	case LT_GONE_REUSED:
		return "gone-inode-reused";
	case LT_UNKNOWN:
		return "unknown";
	}
	return "?";
}

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool jint(json_object *o, const char *k, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static bool jtrue(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

void lt_init(struct lt_timeline *tl, int type, uint32_t inum)
{
	memset(tl, 0, sizeof(*tl));
	tl->type = type;
	tl->inum = inum;
}

void lt_free(struct lt_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nev; i++)
		json_object_put(tl->ev[i].rec);
	for (i = 0; i < tl->ninc; i++)
		json_object_put(tl->inc[i].holders);
	free(tl->ev);
	free(tl->inc);
	memset(tl, 0, sizeof(*tl));
}

enum lt_kind lt_classify(const struct lt_timeline *tl, json_object *rec, uint64_t *ns_id)
{
	const char *op = jstr(rec, "op"), *type, *stage;
	int64_t inum, old, result = 0, id;
	int o;

	*ns_id = 0;
	if (!op)
		return LT_NONE;
	if (!strcmp(op, "lost"))
		return LT_LOST;
	type = jstr(rec, "ns_type");
	if (!type)
		return LT_NONE;
	if (tl->type >= 0 && strcmp(type, nstype_name((unsigned int)tl->type)))
		return LT_NONE;
	o = op_from_name(op);
	jint(rec, "result", &result);
	if (jint(rec, "ns_inum", &inum) && inum == tl->inum) {
		enum lt_kind k;

		switch (o) {
		case NSAUDIT_OP_UNSHARE:
		case NSAUDIT_OP_CLONE:
			k = result ? LT_NONE : LT_CREATED;
			break;
		case NSAUDIT_OP_OPEN:
		case NSAUDIT_OP_NSFD:
			/* a pin the access check refused: who tried matters */
			k = result ? LT_REFUSED : LT_PINNED;
			break;
		case NSAUDIT_OP_MOUNT:
			k = result ? LT_NONE : LT_PINNED;
			break;
		case NSAUDIT_OP_SETNS:
			k = result ? LT_REFUSED : LT_ENTERED;
			break;
		case NSAUDIT_OP_UMOUNT:
			k = result ? LT_NONE : LT_UNPINNED;
			break;
		case NSAUDIT_OP_FREED:	/* stock kernels: a holder gone, or its death */
			k = LT_FREED;
			stage = jstr(rec, "stage");
			if (stage && !strcmp(stage, "let_go"))
				k = LT_LET_GO;
			break;
		case NSAUDIT_OP_NS_FREE:
			k = LT_FREED;
			break;
		default:
			k = LT_NONE;
		}
		if (k != LT_NONE && jint(rec, "ns_id", &id) && id > 0)
			*ns_id = (uint64_t)id;
		return k;
	}
	/* left it: setns elsewhere, or unshare into a new one (clone's
	 * old_inum is the parent's namespace, which the parent keeps) */
	if (jint(rec, "old_inum", &old) && old == tl->inum && !result &&
	    (o == NSAUDIT_OP_SETNS || o == NSAUDIT_OP_UNSHARE)) {
		if (jint(rec, "old_ns_id", &id) && id > 0)
			*ns_id = (uint64_t)id;
		return LT_LEFT;
	}
	return LT_NONE;
}

static void note_log(struct lt_timeline *tl, json_object *rec)
{
	const char *op = jstr(rec, "op"), *act, *t;
	int64_t seq;

	tl->records++;
	if (!tl->first_seq && jint(rec, "seq", &seq) && seq > 0) {
		tl->first_seq = (uint64_t)seq;
		t = jstr(rec, "time");
		snprintf(tl->first_time, sizeof(tl->first_time), "%s", t ? t : "");
	}
	if (op && !strcmp(op, "log") && (act = jstr(rec, "action")) && !strcmp(act, "drop"))
		tl->dropped = true;
}

static struct lt_inc *inc_new(struct lt_timeline *tl, uint64_t id)
{
	struct lt_inc *v;

	if (ARRAY_RESERVE(&tl->inc, &tl->capinc, tl->ninc + 1))
		return NULL;
	v = &tl->inc[tl->ninc++];
	memset(v, 0, sizeof(*v));
	v->ns_id = id;
	v->first = tl->nev;
	v->created = SIZE_MAX;
	v->last_real = SIZE_MAX;
	return v;
}

/* Another stage of the death already seen (op freed: last_ref, cleanup,
 * released), not a new namespace: the same ns_id, or neither has one. */
static bool later_stage(const struct lt_inc *cur, enum lt_kind k, uint64_t id)
{
	return k == LT_FREED && (id ? id == cur->ns_id : !cur->ns_id);
}

const struct lt_event *lt_add(struct lt_timeline *tl, json_object *rec)
{
	struct lt_inc *cur = tl->ninc ? &tl->inc[tl->ninc - 1] : NULL;
	struct lt_event *e;
	enum lt_kind k;
	uint64_t id;
	int64_t v;
	bool fresh = false;

	note_log(tl, rec);
	k = lt_classify(tl, rec, &id);
	if (k == LT_NONE)
		return NULL;
	if (k == LT_LOST) {
		/* only a gap in a namespace known to be alive matters here */
		if (!cur || cur->count[LT_FREED])
			return NULL;
	} else if (!cur || (cur->count[LT_FREED] && !later_stage(cur, k, id)) ||
		   (id && cur->ns_id && id != cur->ns_id) ||
		   (k == LT_CREATED && !(id && id == cur->ns_id))) {
		/* a creation after other records is another namespace, unless
		 * the ids say it is the same one */
		cur = inc_new(tl, id);
		if (!cur) {
			tl->oom = true;
			return NULL;
		}
		fresh = true;
	} else if (!cur->ns_id && id) {
		cur->ns_id = id;
	}
	if (ARRAY_RESERVE(&tl->ev, &tl->cap, tl->nev + 1)) {
		tl->oom = true;
		if (fresh)
			tl->ninc--;
		return NULL;
	}
	if (tl->type < 0 && k != LT_LOST) {
		const char *t = jstr(rec, "ns_type");

		tl->type = t ? nstype_from_name(t) : -1;
	}
	e = &tl->ev[tl->nev];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->rec = json_object_get(rec);
	e->seq = jint(rec, "seq", &v) && v > 0 ? (uint64_t)v : 0;
	e->ns_id = id;
	e->named_by = SIZE_MAX;	/* lt_link_names, at lt_finish */
	e->inc = tl->ninc - 1;
	e->new_inc = fresh;
	cur->last = tl->nev;
	cur->count[k]++;
	if (k == LT_LOST)
		cur->lost += jint(rec, "count", &v) && v > 0 ? (uint64_t)v : 0;
	else
		cur->last_real = tl->nev;
	if (k == LT_CREATED && cur->created == SIZE_MAX)
		cur->created = tl->nev;
	tl->nev++;
	return e;
}

void lt_finish(struct lt_timeline *tl)
{
	size_t i;

	lt_link_names(tl);
	for (i = 0; i < tl->ninc; i++) {
		if (tl->inc[i].count[LT_FREED])
			tl->inc[i].state = LT_FREED_SEEN;
		else if (i + 1 < tl->ninc)
			tl->inc[i].state = LT_REUSED;
	}
}

/* ---- text -------------------------------------------------------------- */

static void put_esc(FILE *out, const char *s)
{
	audit_text_escape(out, s, strlen(s));
}

/* "2026-12-03T09:51:22.650458958Z" -> "2026-12-03T09:51:22.650Z" */
static void print_time(FILE *out, json_object *rec)
{
	const char *t = jstr(rec, "time");
	size_t n;

	if (!t) {
		fputs("-", out);
		return;
	}
	n = strlen(t);
	if (n > 24 && t[19] == '.' && t[n - 1] == 'Z' && strspn(t + 20, "0123456789") == n - 21) {
		fprintf(out, "%.23sZ", t);
		return;
	}
	put_esc(out, t);
}

static void print_who(FILE *out, json_object *rec)
{
	const char *comm = jstr(rec, "comm");
	int64_t pid, uid;

	if (jint(rec, "pid", &pid))
		fprintf(out, " pid=%" PRId64, pid);
	if (comm) {
		fputs(" (", out);
		put_esc(out, comm);
		fputc(')', out);
	}
	if (jint(rec, "uid", &uid))
		fprintf(out, " uid=%" PRId64, uid);
}

static void print_ns(FILE *out, const struct lt_timeline *tl, json_object *rec, const char *key)
{
	char lab[48];
	int64_t v;

	if (jint(rec, key, &v)) {
		nstype_label(lab, sizeof(lab), tl->type, (uint32_t)v);
		fputs(lab, out);
	} else {
		fputs("?", out);
	}
}

/* "by open of /proc/9/ns/net", "by nsfd of pid 9": a pin by fd, or its attempt */
static void print_pin(FILE *out, const char *op, const char *path, json_object *r)
{
	int64_t tp;

	fprintf(out, "by %s", op);
	if (path) {
		fputs(" of ", out);
		put_esc(out, path);
	} else if (jint(r, "target_pid", &tp)) {
		fprintf(out, " of pid %" PRId64, tp);
	}
}

/* ", named blue by the mount at seq=5": created_seq ties them */
static void print_named(FILE *out, const struct lt_timeline *tl, const struct lt_event *e)
{
	const struct lt_event *m = lt_named_by(tl, e);
	const char *name, *path;

	if (!m)
		return;
	name = jstr(m->rec, "ns_name");
	path = jstr(m->rec, "path");
	fputs(", named ", out);
	put_esc(out, name ? name : path ? path : "?");
	fprintf(out, " by the mount at seq=%" PRIu64, m->seq);
}

void lt_print_event(FILE *out, const struct lt_timeline *tl, const struct lt_event *e)
{
	json_object *r = e->rec;
	const char *op = jstr(r, "op"), *path = jstr(r, "path"), *via = jstr(r, "via");
	const char *err = jstr(r, "error"), *why;
	int64_t fd = 0, tp, v;
	bool has_fd = jint(r, "fd", &fd);

	if (!op)
		op = "?";
	print_time(out, r);
	fprintf(out, " %-8s ", lt_kind_name(e->kind));
	switch (e->kind) {
	case LT_CREATED:
		fprintf(out, "by %s", op);
		print_who(out, r);
		if (!strcmp(op, "clone") && jint(r, "target_pid", &tp))
			fprintf(out, " for child pid=%" PRId64, tp);
		if (jtrue(r, "for_children"))
			fputs(" (for its children)", out);
		print_named(out, tl, e);
		break;
	case LT_PINNED:
		if (!strcmp(op, "mount")) {
			fputs("by mount at ", out);
			put_esc(out, path ? path : "?");
		} else {
			print_pin(out, op, path, r);
			if (has_fd)
				fprintf(out, " fd=%" PRId64, fd);
		}
		print_who(out, r);
		break;
	case LT_REFUSED:
		if (strcmp(op, "setns")) {
			print_pin(out, op, path, r);
			fprintf(out, " (failed: %s)", err ? err : "error");
			print_who(out, r);
			break;
		}
		/* fall through */
	case LT_ENTERED:
		fputs("by setns", out);
		if (e->kind == LT_REFUSED)
			fprintf(out, " (failed: %s)", err ? err : "error");
		if (jint(r, "old_inum", &v) && v && v != tl->inum) {
			fputs(" from ", out);
			print_ns(out, tl, r, "old_inum");
		}
		if (has_fd)
			fprintf(out, " fd=%" PRId64, fd);
		if (via)
			fprintf(out, " via %s", via);
		print_who(out, r);
		if (jtrue(r, "for_children"))
			fputs(" (for its children)", out);
		break;
	case LT_LEFT:
		if (!strcmp(op, "unshare")) {
			fputs("by unshare into a new ", out);
			print_ns(out, tl, r, "ns_inum");
		} else {
			fputs("by setns to ", out);
			print_ns(out, tl, r, "ns_inum");
		}
		print_who(out, r);
		if (jtrue(r, "for_children"))
			fputs(" (for its children)", out);
		break;
	case LT_UNPINNED:
		fputs("by umount of ", out);
		put_esc(out, path ? path : "?");
		print_who(out, r);
		break;
	case LT_LET_GO:
		if (lt_print_let_go(out, r))
			print_who(out, r);
		break;
	case LT_FREED:
		if (lt_print_freed(out, r)) {
			fputs(" last holder:", out);
			print_who(out, r);
		}
		break;
	case LT_LOST:
		why = jstr(r, "why");
		fprintf(out, "%" PRId64 " records lost", jint(r, "count", &v) ? v : 0);
		if (why) {
			fputs(" (", out);
			put_esc(out, why);
			fputc(')', out);
		}
		fputs(": events of this namespace may be missing here", out);
		break;
	default:
		break;
	}
	if (e->seq)
		fprintf(out, " seq=%" PRIu64, e->seq);
	fputc('\n', out);
}

void lt_print_inc_head(FILE *out, const struct lt_timeline *tl, size_t i)
{
	const struct lt_inc *c = &tl->inc[i];
	char lab[48];

	nstype_label(lab, sizeof(lab), tl->type, tl->inum);
	fprintf(out, "-- %s", lab);
	if (c->ns_id)
		fprintf(out, " ns_id %" PRIu64, c->ns_id);
	if (tl->ninc > 1)
		fprintf(out, " (namespace %zu of %zu with this inode)", i + 1, tl->ninc);
	fputc('\n', out);
	if (c->created == SIZE_MAX) {
		fputs("(creation not in the log: ", out);
		if (i == 0 && tl->first_seq) {
			fputs("before its first record, ", out);
			put_esc(out, tl->first_time);
			fprintf(out, " seq=%" PRIu64 "%s", tl->first_seq,
				tl->dropped ? ", older segments were deleted" : "");
		} else {
			fputs("its record was lost or not traced", out);
		}
		fputs(")\n", out);
	}
}

/* "2026-12-03T09:51:22.657Z (its last record: unpinned, seq=11" */
static void print_last(FILE *out, const struct lt_timeline *tl, const struct lt_inc *c)
{
	const struct lt_event *e = c->last_real != SIZE_MAX ? &tl->ev[c->last_real] : NULL;

	if (!e) {
		fputs("? (no record of it but lost ones", out);
		return;
	}
	print_time(out, e->rec);
	fprintf(out, " (its last record: %s, seq=%" PRIu64, lt_kind_name(e->kind), e->seq);
}

void lt_print_inc_end(FILE *out, const struct lt_timeline *tl, size_t i)
{
	const struct lt_inc *c = &tl->inc[i];

	switch (c->state) {
	case LT_FREED_SEEN:
		lt_print_death_spans(out, tl, c);
		break;
	case LT_REUSED:
		fputs("freed: after ", out);
		print_last(out, tl, c);
		fputs("; inferred) and before ", out);
		print_time(out, tl->ev[tl->inc[i + 1].first].rec);
		fputs(", when the inode was used by another namespace", out);
		if (tl->inc[i + 1].ns_id)
			fprintf(out, ", ns_id %" PRIu64, tl->inc[i + 1].ns_id);
		fputs(")\n", out);
		break;
	case LT_GONE:
	case LT_GONE_REUSED:
		fputs("no holders now: freed after ", out);
		print_last(out, tl, c);
		fputs("; inferred: this kernel records no ns_free, so when the last "
		      "holder let go is not known",
		      out);
		if (c->state == LT_GONE_REUSED)
			fprintf(out, "; the inode now belongs to another namespace, ns_id %" PRIu64,
				c->now_id);
		fputs(")\n", out);
		break;
	case LT_ALIVE:
		fputs("alive now, held by:\n", out);
		break;
	case LT_UNKNOWN:
		fputs("holders now: not known (the scan failed)\n", out);
		break;
	case LT_OPEN:
		break;
	}
}

/* ---- JSON -------------------------------------------------------------- */

json_object *lt_event_json(const struct lt_timeline *tl, const struct lt_event *e)
{
	json_object *o = NULL;

	if (json_object_deep_copy(e->rec, &o, NULL) || !o)
		return NULL;
	json_object_object_add(o, "event", json_object_new_string(lt_kind_name(e->kind)));
	json_object_object_add(o, "incarnation", json_object_new_int64((int64_t)e->inc + 1));
	if (lt_named_by(tl, e))	/* the mount that named it (created_seq) */
		json_object_object_add(o, "named_by_seq",
				       json_object_new_int64((int64_t)lt_named_by(tl, e)->seq));
	return o;
}

json_object *lt_event_brief(const struct lt_event *e)
{
	static const char *const keys[] = {"time", "op",	 "pid",	      "comm",
					   "uid",  "path", "target_pid", "ns_name"};
	json_object *o = json_object_new_object(), *v;
	size_t i;

	json_object_object_add(o, "seq", json_object_new_int64((int64_t)e->seq));
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_object_object_get_ex(e->rec, keys[i], &v))
			json_object_object_add(o, keys[i], json_object_get(v));
	return o;
}

json_object *lt_summary_json(const struct lt_timeline *tl)
{
	json_object *top = json_object_new_object(), *o = json_object_new_object();
	json_object *incs = json_object_new_array();
	size_t i;
	int k;

	json_object_object_add(top, "lifetime", o);
	json_object_object_add(o, "ns_type",
			       tl->type >= 0 && nstype_name((unsigned int)tl->type)
				   ? json_object_new_string(nstype_name((unsigned int)tl->type))
				   : NULL);
	json_object_object_add(o, "ns_inum", json_object_new_int64(tl->inum));
	json_object_object_add(o, "records_read", json_object_new_int64((int64_t)tl->records));
	json_object_object_add(o, "records_matched", json_object_new_int64((int64_t)tl->nev));
	json_object_object_add(o, "log_first_seq", json_object_new_int64((int64_t)tl->first_seq));
	json_object_object_add(o, "log_dropped_segments", json_object_new_boolean(tl->dropped));
	if (tl->name_conflicts)	/* a mount's created_seq names another incarnation's creation */
		json_object_object_add(o, "name_conflicts",
				       json_object_new_int64((int64_t)tl->name_conflicts));
	for (i = 0; i < tl->ninc; i++) {
		const struct lt_inc *c = &tl->inc[i];
		json_object *j = json_object_new_object(), *n = json_object_new_object(), *f;

		json_object_object_add(j, "incarnation", json_object_new_int64((int64_t)i + 1));
		json_object_object_add(j, "ns_id",
				       c->ns_id ? json_object_new_int64((int64_t)c->ns_id) : NULL);
		json_object_object_add(j, "first", lt_event_brief(&tl->ev[c->first]));
		json_object_object_add(j, "last", lt_event_brief(&tl->ev[c->last]));
		json_object_object_add(
		    j, "created", c->created != SIZE_MAX ? lt_event_brief(&tl->ev[c->created]) : NULL);
		if (c->created != SIZE_MAX && lt_named_by(tl, &tl->ev[c->created]))
			json_object_object_add(j, "named",
					       lt_event_brief(lt_named_by(tl, &tl->ev[c->created])));
		for (k = LT_CREATED; k < LT_KIND_MAX; k++)
			json_object_object_add(n, kind_names[k],
					       json_object_new_int64((int64_t)c->count[k]));
		json_object_object_add(j, "events", n);
		json_object_object_add(j, "lost", json_object_new_int64((int64_t)c->lost));
		json_object_object_add(j, "state", json_object_new_string(lt_state_name(c->state)));
		f = NULL;
		if (c->state == LT_FREED_SEEN || c->state == LT_REUSED || c->state == LT_GONE ||
		    c->state == LT_GONE_REUSED) {
			f = json_object_new_object();
			json_object_object_add(f, "inferred",
					       json_object_new_boolean(c->state != LT_FREED_SEEN));
			if (c->last_real != SIZE_MAX)
				json_object_object_add(f, "after",
						       lt_event_brief(&tl->ev[c->last_real]));
			if (c->state == LT_REUSED)
				json_object_object_add(f, "before",
						       lt_event_brief(&tl->ev[tl->inc[i + 1].first]));
			if (c->state == LT_GONE_REUSED)
				json_object_object_add(f, "inode_now_ns_id",
						       json_object_new_int64((int64_t)c->now_id));
		}
		json_object_object_add(j, "freed", f);
		if (c->holders)
			json_object_object_add(j, "holders_now", json_object_get(c->holders));
		json_object_array_add(incs, j);
	}
	json_object_object_add(o, "incarnations", incs);
	return top;
}
