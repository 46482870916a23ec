// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_holders_history.c - "nsaudit holders NS --history --log-dir DIR" (who
 * held it from when to when, which holder let go last, how it ended) and
 * "nsaudit holders --leaks --log-dir DIR" (namespaces alive now long after
 * their creator and their names were gone, with their holders). The log
 * is read by lifetime's reader and timeline; the spans and the leak
 * judgement are history.c's; the holders now are holders_model.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "commands.h"
#include "holders_history.h"
#include "holders/holders_lib.h"
#include "holders/holders_model.h"
#include "lifetime/death.h"
#include "lifetime/history.h"
#include "lifetime/lifetime.h"
#include "lifetime/log_reader.h"
#include "clock.h"
#include "nstype.h"

#define ERR(...) cmd_error("holders", 0, __VA_ARGS__)

static int open_log(struct log_reader *rd, const char *dir)
{
	memset(rd, 0, sizeof(*rd));
	rd->dir = dir;
	rd->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->dirfd < 0) {
		ERR("%.200s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void add_one(void *ctx, json_object *rec)
{
	lt_add(ctx, rec);
}

/* The end of incarnation i: its death as recorded, or its holders now. */
static void print_end(const struct lt_timeline *tl, size_t i)
{
	const struct lt_inc *c = &tl->inc[i];
	char err[512] = "";
	uint64_t id;
	size_t j;

	for (j = c->first; j <= c->last; j++)
		if (tl->ev[j].inc == i && tl->ev[j].kind == LT_FREED)
			lt_print_event(stdout, tl, &tl->ev[j]);
	lt_print_inc_end(stdout, tl, i);
	if (c->state != LT_ALIVE)
		return;
	fflush(stdout);
	if (holders_now(tl->type, tl->inum, "  ", NULL, &id, err, sizeof(err)) <= 0)
		printf("  (gone since: %s)\n", *err ? err : "no holders left now");
}

/* Whether incarnation i (the last) is alive now; sets its state. */
static void state_now(struct lt_timeline *tl)
{
	struct lt_inc *c = &tl->inc[tl->ninc - 1];
	char err[512];
	uint64_t id = 0;
	int r;

	if (c->state != LT_OPEN)
		return;
	r = holders_now(tl->type, tl->inum, "", &c->holders, &id, err, sizeof(err));
	if (r < 0) {
		ERR("holders now: %s", err);
		c->state = LT_UNKNOWN;
	} else if (r == 0 || (id && c->ns_id && id != c->ns_id)) {
		c->state = r ? LT_GONE_REUSED : LT_GONE;
		c->now_id = id;
		json_object_put(c->holders);
		c->holders = NULL;
	} else {
		c->state = LT_ALIVE;
	}
}

/* {"history": {ns_type, ns_inum, log_dir, verified: false, incarnations:
 * [{incarnation, ns_id, state, spans, death (the records), holders_now}]}} */
static void history_json(const struct lt_timeline *tl, const char *dir,
			 json_object *incs)
{
	json_object *top = json_object_new_object(), *o = json_object_new_object();
	const char *type = tl->type >= 0 ? nstype_name((unsigned int)tl->type) : NULL;

	json_object_object_add(top, "history", o);
	json_object_object_add(o, "ns_type", type ? json_object_new_string(type) : NULL);
	json_object_object_add(o, "ns_inum", json_object_new_int64(tl->inum));
	json_object_object_add(o, "log_dir", json_object_new_string(dir));
	json_object_object_add(o, "verified", json_object_new_boolean(false));
	json_object_object_add(o, "incarnations", incs);
	puts(json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
}

static json_object *inc_json(const struct lt_timeline *tl, size_t i, const struct lh_history *h)
{
	const struct lt_inc *c = &tl->inc[i];
	json_object *o = json_object_new_object(), *death = json_object_new_array();
	size_t j;

	json_object_object_add(o, "incarnation", json_object_new_int64((int64_t)i + 1));
	json_object_object_add(o, "ns_id", c->ns_id ? json_object_new_int64((int64_t)c->ns_id)
						     : NULL);
	json_object_object_add(o, "state", json_object_new_string(lt_state_name(c->state)));
	json_object_object_add(o, "spans", lh_json(tl, h));
	for (j = c->first; j <= c->last && j < tl->nev; j++)
		if (tl->ev[j].inc == i && tl->ev[j].kind == LT_FREED)
			json_object_array_add(death, lt_event_json(tl, &tl->ev[j]));
	json_object_object_add(o, "death", death);
	json_object_object_add(o, "holders_now",
			       c->state == LT_ALIVE && c->holders ? json_object_get(c->holders)
								  : NULL);
	return o;
}

int holders_history(const char *dir, const struct nsspec *spec, bool json)
{
	json_object *incs = json ? json_object_new_array() : NULL;
	struct audit_filter about = {0};
	struct lt_timeline tl;
	struct log_reader rd;
	char lab[48];
	size_t i;
	int ret = 1;

	if (open_log(&rd, dir))
		return 1;
	lt_init(&tl, spec->type, spec->inum);
	about.n_ns = 1;
	about.ns[0].type = spec->type;
	about.ns[0].inum = spec->inum;
	rd.about = &about;
	if (log_read(&rd, add_one, &tl)) {
		ERR("%.200s: %s", dir, strerror(errno));
		goto out;
	}
	if (!rd.seg)
		ERR("%.200s: no log segments (nsaudit-NNNNNN.log)", dir);
	lt_finish(&tl);
	nstype_label(lab, sizeof(lab), tl.type, tl.inum);
	if (!tl.ninc) {
		ERR("%s: not in the log %.200s (%" PRIu64 " records): no history to show", lab,
		    dir, tl.records + rd.unread);
		goto out;
	}
	state_now(&tl);
	if (!json)
		printf("%s: holders over time from %s (not verified here: 'nsaudit verify')\n",
		       lab, dir);
	for (i = 0; i < tl.ninc; i++) {
		struct lh_history h;

		if (!json)
			lt_print_inc_head(stdout, &tl, i);
		if (lh_build(&h, &tl, i)) {
			ERR("%s", strerror(ENOMEM));
			lh_free(&h);
			goto out;
		}
		if (json) {
			json_object_array_add(incs, inc_json(&tl, i, &h));
		} else {
			lh_print(stdout, &tl, &h);
			print_end(&tl, i);
		}
		lh_free(&h);
	}
	if (json) {
		history_json(&tl, dir, incs);
		incs = NULL;
	}
	ret = fflush(stdout) ? 1 : 0;
out:
	json_object_put(incs);
	lt_free(&tl);
	close(rd.dirfd);
	return ret;
}

/* ---- --leaks ----------------------------------------------------------- */

/* A timeline per namespace alive now, sorted by (type, inum). */
struct leak_set {
	struct lt_timeline *tl;
	size_t n;
	uint64_t records;
};

static int tl_cmp(const void *a, const void *b)
{
	const struct lt_timeline *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->inum < y->inum ? -1 : x->inum > y->inum;
}

static struct lt_timeline *set_find(struct leak_set *s, int type, uint32_t inum)
{
	struct lt_timeline k = {.type = type, .inum = inum};

	return bsearch(&k, s->tl, s->n, sizeof(*s->tl), tl_cmp);
}

/* A record goes to the timelines of the namespaces it names (ns_inum,
 * old_inum); lost records to every one (a gap may hide anything). */
static void leak_add(void *ctx, json_object *rec)
{
	struct leak_set *s = ctx;
	json_object *v;
	const char *t;
	struct lt_timeline *tl;
	int type;
	size_t i;

	s->records++;
	if (json_object_object_get_ex(rec, "op", &v) &&
	    !strcmp(json_object_get_string(v), "lost")) {
		for (i = 0; i < s->n; i++)
			lt_add(&s->tl[i], rec);
		return;
	}
	if (!json_object_object_get_ex(rec, "ns_type", &v) || !(t = json_object_get_string(v)))
		return;
	type = nstype_from_name(t);
	if (json_object_object_get_ex(rec, "ns_inum", &v) &&
	    (tl = set_find(s, type, (uint32_t)json_object_get_int64(v))))
		lt_add(tl, rec);
	if (json_object_object_get_ex(rec, "old_inum", &v) &&
	    (tl = set_find(s, type, (uint32_t)json_object_get_int64(v))))
		lt_add(tl, rec);
}

/* The creator's pid holds it now (a thread in it, or an fd on it). */
static bool creator_holds(const struct model *m, const struct ns_ent *e, int64_t pid)
{
	size_t i;
	int slot;

	for (i = 0; i < m->scan.ntasks; i++) {
		const struct holders_task *t = &m->scan.tasks[i];

		if ((int64_t)t->pid != pid)
			continue;
		for (slot = 0; slot < HOLDERS_SLOTS; slot++)
			if (t->ns[slot].inum == e->inum && slot_type(slot) == e->type)
				return true;
	}
	for (i = 0; i < m->scan.nfiles; i++) {
		const struct holders_file *f = &m->scan.files[i];

		if ((int64_t)f->pid == pid && f->kind == HOLDERS_FILE_NSFS &&
		    f->ns.inum == e->inum && type_of_flag(f->ns.clone_flag) == e->type)
			return true;
	}
	return false;
}

static size_t names_now(const struct model *m, const struct ns_ent *e)
{
	size_t i, n = 0;

	for (i = 0; i < m->mounts.n; i++)
		n += m->mounts.v[i].type == e->type && m->mounts.v[i].inum == e->inum;
	return n;
}

/* One leak: what the log says and its holders now; json: a {"leak": ...}
 * line. */
static void print_leak(struct model *m, struct ns_ent *e, const struct lt_timeline *tl,
		       const struct lh_leak *l, double now, bool json)
{
	const struct lt_inc *c = &tl->inc[tl->ninc - 1];
	char lab[48];

	if (json) {
		json_object *top = json_object_new_object(), *o = lh_leak_json(tl, l, now);

		json_object_object_add(o, "holders_now", ns_json(m, e));
		json_object_object_add(top, "leak", o);
		puts(json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
		json_object_put(top);
		return;
	}
	nstype_label(lab, sizeof(lab), e->type, e->inum);
	printf("%s", lab);
	if (c->ns_id)
		printf(" ns_id %" PRIu64, c->ns_id);
	printf(": alive %.1f s after its creator and names were gone\n", now - l->since);
	/* in the log's order: created, the creator left, the last name went */
	lt_print_event(stdout, tl, &tl->ev[c->created]);
	if (l->left != SIZE_MAX && (l->unnamed == SIZE_MAX || l->left < l->unnamed))
		lt_print_event(stdout, tl, &tl->ev[l->left]);
	if (l->unnamed != SIZE_MAX)
		lt_print_event(stdout, tl, &tl->ev[l->unnamed]);
	else
		printf("  (never named by a bind mount in the log)\n");
	if (l->left != SIZE_MAX && l->unnamed != SIZE_MAX && l->left > l->unnamed)
		lt_print_event(stdout, tl, &tl->ev[l->left]);
	if (l->left == SIZE_MAX)
		printf("  (the creator pid %" PRId64 " holds it no more; when it let go is not in "
		       "the log: exits are recorded only by --op freed, the age counts from %s)\n",
		       lh_creator_pid(tl, tl->ninc - 1),
		       l->unnamed != SIZE_MAX ? "the last name's removal" : "its creation");
	print_ns(m, e, "  ", false);
}

static int leaks_scan(struct model *m, struct leak_set *s, double older, bool json)
{
	size_t i, judged = 0, leaks = 0;
	double now;

	now = (double)realtime_ns() / NSEC_PER_SEC;
	for (i = 0; i < m->nns; i++) {
		struct ns_ent *e = &m->ns[i];
		struct lt_timeline *tl = set_find(s, e->type, e->inum);
		const struct lt_inc *c;
		struct lh_leak l;

		if (!tl || !tl->ninc)
			continue;
		c = &tl->inc[tl->ninc - 1];
		/* the log's last namespace with this inode is this one */
		if (c->created == SIZE_MAX || c->count[LT_FREED] ||
		    (e->known && e->k.ns_id && c->ns_id && e->k.ns_id != c->ns_id))
			continue;
		judged++;
		if (!lh_leak(tl, tl->ninc - 1,
			     creator_holds(m, e, lh_creator_pid(tl, tl->ninc - 1)),
			     names_now(m, e), now, older, &l))
			continue;
		leaks++;
		print_leak(m, e, tl, &l, now, json);
	}
	if (json) {
		json_object *top = json_object_new_object(), *o = json_object_new_object();

		json_object_object_add(o, "alive", json_object_new_int64((int64_t)m->nns));
		json_object_object_add(o, "judged", json_object_new_int64((int64_t)judged));
		json_object_object_add(o, "leaks", json_object_new_int64((int64_t)leaks));
		json_object_object_add(o, "older", json_object_new_double(older));
		json_object_object_add(o, "records", json_object_new_int64((int64_t)s->records));
		json_object_object_add(o, "verified", json_object_new_boolean(false));
		json_object_object_add(top, "leaks", o);
		puts(json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
		json_object_put(top);
		print_notes(m, stderr);
		return 0;
	}
	printf("%zu alive now; %zu with their creation in the log (the others cannot be "
	       "judged); %zu alive at least %.1f s after their creator and names were gone\n",
	       m->nns, judged, leaks, older);
	print_notes(m, stdout);
	return 0;
}

int holders_leaks(const char *dir, double older, bool json)
{
	struct leak_set s = {0};
	struct log_reader rd;
	struct model m = {0};
	char err[512];
	size_t i;
	int ret = 1;

	if (open_log(&rd, dir))
		return 1;
	if (model_load(&m, err, sizeof(err))) {
		ERR("%s", err);
		goto out;
	}
	s.tl = calloc(m.nns ? m.nns : 1, sizeof(*s.tl));
	if (!s.tl) {
		ERR("%s", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < m.nns; i++)
		lt_init(&s.tl[s.n++], m.ns[i].type, m.ns[i].inum);
	qsort(s.tl, s.n, sizeof(*s.tl), tl_cmp);
	if (log_read(&rd, leak_add, &s)) {
		ERR("%.200s: %s", dir, strerror(errno));
		goto out;
	}
	if (!rd.seg)
		ERR("%.200s: no log segments (nsaudit-NNNNNN.log): nothing can be judged", dir);
	for (i = 0; i < s.n; i++) {
		if (s.tl[i].oom) {
			ERR("%s", strerror(ENOMEM));
			goto out;
		}
		lt_finish(&s.tl[i]);
	}
	if (!json)
		printf("leaks in %s (%" PRIu64 " records; not verified here: 'nsaudit verify'):\n",
		       dir, s.records);
	ret = leaks_scan(&m, &s, older, json);
	if (fflush(stdout))
		ret = 1;
out:
	for (i = 0; i < s.n; i++)
		lt_free(&s.tl[i]);
	free(s.tl);
	model_free(&m);
	close(rd.dirfd);
	return ret;
}
