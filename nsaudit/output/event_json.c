// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* event_json.c - records as json-c objects (sinks) and as readable lines. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "event_json.h"
#include "nstype.h"

struct json_object *event_to_json(const struct nsaudit_event *e, const struct event_extra *x)
{
	struct json_object *o = json_object_new_object();
	struct audit_fields f;

	if (!o)
		return NULL;
	json_object_object_add_ex(o, "seq", json_object_new_uint64(x->seq),
				  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
	audit_fields_object(&f, o);
	record_fields(&f, e, x);
	return o;
}

static const char *get_str(struct json_object *rec, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(rec, k, &v) ? json_object_get_string(v) : NULL;
}

static bool get_i64(struct json_object *rec, const char *k, int64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(rec, k, &v))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static bool get_bool(struct json_object *rec, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(rec, k, &v) && json_object_get_boolean(v);
}

/* An alert: its severity, rule and summary, then whom it is about. */
static void alert_text(FILE *f, struct json_object *rec, bool colour)
{
	const char *on = colour ? "\033[1;31m" : "", *off = colour ? "\033[0m" : "", *s;
	int64_t v;

	fprintf(f, "%s %sALERT %s %s%s ", get_str(rec, "time") ?: "-", on,
		get_str(rec, "severity") ?: "?", get_str(rec, "rule") ?: "?", off);
	audit_text_quote(f, get_str(rec, "summary") ?: "");
	if ((s = get_str(rec, "actor_container"))) {
		fputs(" actor=", f);
		audit_text_quote(f, s);
	}
	if ((s = get_str(rec, "target_container"))) {
		fputs(" target=", f);
		audit_text_quote(f, s);
	}
	if (get_i64(rec, "about_seq", &v))
		fprintf(f, " about_seq=%lld", (long long)v);
	fputc('\n', f);
}

/*
 * A namespace named after its container ("container:<64 hex>"): the
 * container's name where the record has it, as docker ps shows it
 * ("container:web"); JSON keeps the id, which is what identifies it.
 */
static const char *container_label(struct json_object *rec, const char *ns_name)
{
	static __thread char buf[320];
	const char *id = get_str(rec, "container"), *name = get_str(rec, "container_name");

	if (strncmp(ns_name, "container:", 10) || !id || !name || !*name ||
	    strcmp(ns_name + 10, id))
		return ns_name;
	snprintf(buf, sizeof(buf), "container:%s", name);
	return buf;
}

/* One readable line; untrusted bytes through the one terminal escaper. */
void record_print_text(FILE *f, struct json_object *rec, bool colour)
{
	const char *op = get_str(rec, "op") ?: "?", *type = get_str(rec, "ns_type");
	const char *s, *on = colour ? "\033[1m" : "", *off = colour ? "\033[0m" : "";
	const char *red = colour ? "\033[31m" : "";
	int64_t v, result = 0;

	if (!strcmp(op, "alert")) {
		alert_text(f, rec, colour);
		return;
	}
	fprintf(f, "%s %s%-7s%s", get_str(rec, "time") ?: "-", on, op, off);
	if (type && get_i64(rec, "ns_inum", &v))
		fprintf(f, " %s:[%lld]", type, (long long)v);
	else if (type)
		fprintf(f, " %s:[?]", type);
	if ((s = get_str(rec, "ns_name"))) {
		fputc(' ', f);
		audit_text_quote(f, container_label(rec, s));
	}
	if (type && get_i64(rec, "old_inum", &v))
		fprintf(f, " from %s:[%lld]", type, (long long)v);
	if (get_bool(rec, "for_children"))
		fputs(" (for children)", f);
	if (get_i64(rec, "count", &v))
		fprintf(f, " count=%lld", (long long)v);
	if ((s = get_str(rec, "reason")))
		fprintf(f, " reason=%s", s);
	if ((s = get_str(rec, "lost_op")))
		fprintf(f, " lost_op=%s", s);
	if (get_i64(rec, "repeat", &v))
		fprintf(f, " x%lld", (long long)v);
	if (get_i64(rec, "pid", &v)) {
		int64_t tid;

		fprintf(f, " pid=%lld", (long long)v);
		/* a thread's own setns/unshare: only that thread changed */
		if (get_i64(rec, "tid", &tid) && tid != v)
			fprintf(f, " tid=%lld", (long long)tid);
	}
	if ((s = get_str(rec, "comm"))) {
		fputs(" comm=", f);
		audit_text_quote(f, s);
	}
	if (get_i64(rec, "uid", &v))
		fprintf(f, " uid=%lld", (long long)v);
	if (get_i64(rec, "target_pid", &v))
		fprintf(f, " target_pid=%lld", (long long)v);
	if (get_i64(rec, "fd", &v))
		fprintf(f, " fd=%lld", (long long)v);
	if ((s = get_str(rec, "via")))
		fprintf(f, " via=%s", s);
	if ((s = get_str(rec, "src_path"))) {
		fputs(get_bool(rec, "move") ? " moved_from=" : " source=", f);
		audit_text_quote(f, s);
	}
	if ((s = get_str(rec, "path"))) {
		fputs(" path=", f);
		audit_text_quote(f, s);
	}
	get_i64(rec, "result", &result);
	if (result < 0)
		fprintf(f, " %s%s%s", red, get_str(rec, "error") ?: "error", off);
	if ((s = get_str(rec, "refused_by")))
		fprintf(f, " refused_by=%s", s);
	fputc('\n', f);
}
