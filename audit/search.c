// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * search.c - the search engine of the log library: which records a filter
 * matches, the time syntax of --since/--until, a record as one readable
 * line, and the mount records that name a path. "nsaudit search" (in
 * nsaudit/cmd/cmd_search.c) drives it over a log's segments.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nstype.h"
#include "search.h"
#include "array.h"
#include "fields.h"

/* A string field equal to want (or, prefix, starting with it). */
static bool field_is(const struct audit_view *r, const char *key, const char *pfx, const char *want,
		     bool prefix)
{
	size_t len, pl = strlen(pfx), wl = strlen(want);
	const char *v = r->str(r->rec, key, &len);

	if (!v || len < pl + wl || memcmp(v, pfx, pl) || memcmp(v + pl, want, wl))
		return false;
	return prefix || len == pl + wl;
}

/* --container: the record is about that container (see tracer.c). */
static bool container_match(const struct audit_view *r, const char *want)
{
	bool prefix = strlen(want) >= 12;

	return field_is(r, "container", "", want, prefix) ||
	       field_is(r, "container_name", "", want, false) ||
	       field_is(r, "ns_name", "container:", want, prefix) ||
	       field_is(r, "old_name", "container:", want, prefix);
}

/* syslog level names, most urgent first: the alerts' "severity" */
static int severity_level(const char *s, size_t len)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };
	int i;

	for (i = 0; s && i < 8; i++)
		if (len == strlen(names[i]) && !memcmp(s, names[i], len))
			return i;
	return -1;
}

int audit_severity_level(const char *s)
{
	return s ? severity_level(s, strlen(s)) : -1;
}

/* --rule, --severity: an alert of that rule, at that level or above */
static bool alert_match(const struct audit_filter *f, const struct audit_view *r)
{
	size_t len;
	const char *v;
	int lvl;

	if (!field_is(r, "op", "", "alert", false))
		return false;
	if (f->rule && !field_is(r, "rule", "", f->rule, false))
		return false;
	if (f->severity) {
		v = r->str(r->rec, "severity", &len);
		lvl = severity_level(v, v ? len : 0);
		if (lvl < 0 || lvl > audit_severity_level(f->severity))
			return false;
	}
	return true;
}

/* A number field equal to one of want[0..n). */
static bool int_any(const struct audit_view *r, const char *key, const long *want, size_t n)
{
	int64_t v;
	size_t i;

	if (!r->num(r->rec, key, &v))
		return false;
	for (i = 0; i < n; i++)
		if (v == want[i])
			return true;
	return false;
}

/* A string field, not empty, equal to one of want[0..n). */
static bool str_any(const struct audit_view *r, const char *key, const char *const *want,
		    size_t n)
{
	size_t len, i;
	const char *v = r->str(r->rec, key, &len);

	if (!v || !len)
		return false;
	for (i = 0; i < n; i++)
		if (len == strlen(want[i]) && !memcmp(v, want[i], len))
			return true;
	return false;
}

static bool op_match(const struct audit_filter *f, const char *op)
{
	int o = op ? op_from_name(op) : -1;

	return (o > 0 && (f->ops & (1u << o))) || (f->op_log && op && !strcmp(op, "log")) ||
	       (f->op_alert && op && !strcmp(op, "alert"));
}

static bool result_match(const struct audit_filter *f, const struct audit_view *r)
{
	int64_t v;

	if (!r->num(r->rec, "result", &v))
		return false;
	if (f->result == AUDIT_RESULT_OK)
		return v >= 0;
	if (f->result == AUDIT_RESULT_FAIL)
		return v < 0;
	return v == f->result;
}

static bool time_match(const struct audit_filter *f, const struct audit_view *r)
{
	const char *t = r->str(r->rec, "time", NULL);
	int64_t ns;

	if (!t || audit_time_parse(t, &ns))
		return false;
	return !(f->has_since && ns < f->since_ns) && !(f->has_until && ns > f->until_ns);
}

bool audit_filter_match_view(const struct audit_filter *f, const struct audit_view *r)
{
	if ((f->ops || f->op_log || f->op_alert) && !op_match(f, r->str(r->rec, "op", NULL)))
		return false;
	if (f->types) {
		const char *t = r->str(r->rec, "ns_type", NULL);
		int type = t ? nstype_from_name(t) : -1;

		if (type < 0 || !(f->types & (1u << type)))
			return false;
	}
	if ((f->rule || f->severity) && !alert_match(f, r))
		return false;
	if (f->n_ns && !audit_filter_ns_match(f, r))
		return false;
	if (f->n_pid && !int_any(r, "pid", f->pid, f->n_pid))
		return false;
	if (f->n_uid && !int_any(r, "uid", f->uid, f->n_uid))
		return false;
	if (f->n_comm && !str_any(r, "comm", f->comm, f->n_comm))
		return false;
	if (f->n_exe && !str_any(r, "exe", f->exe, f->n_exe))
		return false;
	if (f->result && !result_match(f, r))
		return false;
	if (f->container && !container_match(r, f->container))
		return false;
	if ((f->has_since || f->has_until) && !time_match(f, r))
		return false;
	return true;
}

static const char *rec_str(const void *rec, const char *key, size_t *len)
{
	return audit_rec_str(rec, key, len);
}

static bool rec_num(const void *rec, const char *key, int64_t *v)
{
	return audit_rec_int(rec, key, v);
}

void audit_view_of_rec(struct audit_view *v, const struct audit_rec *r)
{
	v->str = rec_str;
	v->num = rec_num;
	v->rec = r;
	v->seq = r->seq;
}

bool audit_filter_match(const struct audit_filter *f, const struct audit_rec *r)
{
	struct audit_view v;

	audit_view_of_rec(&v, r);
	return audit_filter_match_view(f, &v);
}

static void put_value(struct sbuf *b, struct json_object *v)
{
	if (json_object_is_type(v, json_type_string)) {
		audit_text_value_sb(b, json_object_get_string(v),
				    (size_t)json_object_get_string_len(v));
	} else {
		struct sbuf j = {0};

		audit_json_object(&j, v);
		if (!j.oom)
			audit_text_value_sb(b, j.p, j.len);
		sb_free(&j);
	}
}

/* key (klen bytes) is one of the fields the head of a text line shows */
static bool skip_field(const char *k, size_t klen, bool ns_shown, bool old_shown)
{
	switch (klen) {
	case 2:
		return !memcmp(k, "op", 2);
	case 3:
		return !memcmp(k, "seq", 3);
	case 4:
		return !memcmp(k, "time", 4);
	case 7:
		return (ns_shown && (!memcmp(k, "ns_type", 7) || !memcmp(k, "ns_inum", 7)));
	case 8:
		return old_shown && !memcmp(k, "old_inum", 8);
	}
	return false;
}

/* " key=value" into b, both escaped, the value quoted if it has a space */
static void put_field(struct sbuf *b, const char *k, size_t klen, const char *v, size_t vlen)
{
	sb_put(b, " ", 1);
	audit_text_escape_sb(b, k, klen);
	sb_put(b, "=", 1);
	audit_text_value_sb(b, v, vlen);
}

/* prefix, then v (negative when neg) in decimal */
static void put_num(struct sbuf *b, const char *prefix, bool neg, uint64_t v)
{
	char d[24];
	size_t n = 0;

	sb_puts(b, prefix);
	if (neg)
		d[n++] = '-';
	n += audit_fields_dec(d + n, v);
	sb_put(b, d, n);
}

static void put_ns(struct sbuf *b, const char *prefix, const char *type, int64_t inum)
{
	sb_puts(b, prefix);
	audit_text_escape_sb(b, type, strlen(type));
	put_num(b, ":[", inum < 0, inum < 0 ? -(uint64_t)inum : (uint64_t)inum);
	sb_put(b, "]", 1);
}

/*
 * The head of a text line: time, seq, op and the namespace acted on (and
 * the one left); then every other field, a flat record's from where they
 * lie (a string's decoded bytes, any other value as spelled, which is how
 * json-c would write it: codec_flat.c).
 */
void audit_text_line(struct sbuf *b, const struct audit_rec *r)
{
	const char *time = audit_rec_str(r, "time", NULL), *op = audit_rec_str(r, "op", NULL);
	const char *type = audit_rec_str(r, "ns_type", NULL);
	size_t i;
	int64_t inum, old;
	bool ns_shown = type && audit_rec_int(r, "ns_inum", &inum),
	     old_shown = type && audit_rec_int(r, "old_inum", &old) && old;

	/* up to a NUL, as before (a string may hold one: \u0000) */
	if (time)
		audit_text_escape_sb(b, time, strlen(time));
	else
		sb_put(b, "-", 1);
	put_num(b, " seq=", false, r->seq);
	sb_put(b, " ", 1);
	if (op)
		audit_text_escape_sb(b, op, strlen(op));
	else
		sb_put(b, "?", 1);
	if (ns_shown)
		put_ns(b, " ", type, inum);
	if (old_shown)
		put_ns(b, " from ", type, old);
	for (i = 0; r->flat && i < r->flat->n; i++) {
		const struct audit_flat_field *f = &r->flat->f[i];

		if (!skip_field(f->key, f->klen, ns_shown, old_shown))
			put_field(b, f->key, f->klen, f->val, f->vlen);
	}
	if (!r->flat) {
		json_object_object_foreach(r->obj, k, v)
		{
			size_t kl = strlen(k);

			if (skip_field(k, kl, ns_shown, old_shown))
				continue;
			sb_put(b, " ", 1);
			audit_text_escape_sb(b, k, kl);
			sb_put(b, "=", 1);
			put_value(b, v);
		}
	}
	sb_put(b, "\n", 1);
}

/* line (its len bytes) to out, made whole: false if it could not be */
static bool put_line(FILE *out, struct sbuf *line)
{
	bool ok = !line->oom && fwrite(line->p, 1, line->len, out) == line->len;

	line->oom = false; /* the next line may fit */
	return ok;
}

bool audit_print_json(FILE *out, struct sbuf *line, const struct audit_rec *r)
{
	/* the line as it lies on disk, without its MAC: no re-serialising */
	if (r->flat || r->raw)
		return fwrite(r->raw ? r->raw : r->flat->line, 1, r->body_len, out) == r->body_len &&
		       fputs("}\n", out) >= 0;
	line->len = 0;
	audit_json_object(line, r->obj);
	sb_put(line, "\n", 1);
	return put_line(out, line);
}

bool audit_print_text(FILE *out, struct sbuf *line, const struct audit_rec *r)
{
	line->len = 0;
	audit_text_line(line, r);
	return put_line(out, line);
}

static const char *json_str(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* the initial user namespace's fixed inode (the kernel's PROC_USER_INIT_INO) */
#define USERNS_INIT_INUM 0xeffffffdLL

bool audit_rec_mount_at(struct json_object *rec, const char *path, int *type, uint32_t *inum)
{
	const char *op = json_str(rec, "op"), *p = json_str(rec, "path");
	const char *t = json_str(rec, "ns_type");
	struct json_object *v, *res;
	int64_t i;

	if (!op || strcmp(op, "mount") || !p || strcmp(p, path) || !t ||
	    !json_object_object_get_ex(rec, "ns_inum", &v) || !json_object_is_type(v, json_type_int))
		return false;
	if (json_object_object_get_ex(rec, "result", &res) && json_object_get_int64(res))
		return false;
	/*
	 * Made from a user namespace other than the initial one: a mount in
	 * a mount namespace that user namespace owns, never at the host's
	 * path (any user's `unshare -r -m` with a tmpfs on /run/netns and its
	 * own netns bound at /run/netns/NAME is not the host's NAME).
	 */
	if (json_object_object_get_ex(rec, "actor_userns", &res) &&
	    json_object_is_type(res, json_type_int) &&
	    json_object_get_int64(res) != USERNS_INIT_INUM)
		return false;
	i = json_object_get_int64(v);
	if (i <= 0 || i > UINT32_MAX)
		return false;
	*type = nstype_from_name(t);
	*inum = (uint32_t)i;
	return *type >= 0;
}

