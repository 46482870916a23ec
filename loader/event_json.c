// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* event_json.c - records as JSON objects and as readable lines. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "event_json.h"
#include "nstype.h"

void format_rfc3339(int64_t realtime_ns, char *buf, size_t len)
{
	time_t sec = realtime_ns / 1000000000;
	long nsec = realtime_ns % 1000000000;
	struct tm tm;

	if (nsec < 0) {
		sec--;
		nsec += 1000000000;
	}
	gmtime_r(&sec, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, nsec);
}

void json_add_bytes(struct json_object *o, const char *key, const char *s, size_t maxlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, maxlen), i = 0, out = 0, k;
	char fixed[4 * 4096 + 1], hex[2 * 4096 + 1], hexkey[64];
	bool valid = true;

	if (n > 4096)
		n = 4096;
	while (i < n) {
		k = utf8_len(u + i, n - i);
		if (k) {
			memcpy(fixed + out, u + i, k);
			out += k;
			i += k;
		} else {
			memcpy(fixed + out, "\xef\xbf\xbd", 3); /* U+FFFD */
			out += 3;
			i++;
			valid = false;
		}
	}
	fixed[out] = '\0';
	json_object_object_add(o, key, json_object_new_string_len(fixed, (int)out));
	if (valid)
		return;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", u[i]);
	snprintf(hexkey, sizeof(hexkey), "%s_hex", key);
	json_object_object_add(o, hexkey, json_object_new_string(hex));
}

/*
 * Keys are string literals and each is added once: telling json-c so saves
 * a strdup and a lookup per field, a good part of the consumer's per-record
 * cost (the ring-buffer reader is a hot path).
 */
static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add_ex(o, k, v,
				  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	add(o, k, json_object_new_uint64(v));
}

static void add_i64(struct json_object *o, const char *k, int64_t v)
{
	add(o, k, json_object_new_int64(v));
}

struct json_object *event_to_json(const struct nsaudit_event *e, const struct event_extra *x)
{
	struct json_object *o = json_object_new_object();
	const char *type = nstype_name(e->ns_type), *via = via_name(e->via);
	char ts[64];

	if (!o)
		return NULL;
	format_rfc3339(x->realtime_ns, ts, sizeof(ts));
	add_u64(o, "seq", x->seq);
	add(o, "time", json_object_new_string(ts));
	if (e->repeat > 1) {
		/* coalesced: repeat identical calls, the first at time */
		add_u64(o, "repeat", e->repeat);
		format_rfc3339(x->realtime_ns + (int64_t)(e->last_ts_boot_ns - e->ts_boot_ns), ts,
			       sizeof(ts));
		add(o, "last_time", json_object_new_string(ts));
	}
	add(o, "op", json_object_new_string(op_name(e->op) ?: "unknown"));
	add_i64(o, "result", e->op == NSAUDIT_OP_OPEN && e->result > 0 ? 0 : e->result);
	if (e->result < 0)
		add(o, "error",
				       json_object_new_string(strerrorname_np(-e->result) ?: "E?"));
	if (type)
		add(o, "ns_type", json_object_new_string(type));
	if (e->flags & NSAUDIT_F_HAS_NS) {
		add_u64(o, "ns_inum", e->ns_inum);
		if (e->ns_id)
			add_u64(o, "ns_id", e->ns_id);
	}
	if (x->ns_name)
		json_add_bytes(o, "ns_name", x->ns_name, 4096);
	if (e->flags & NSAUDIT_F_HAS_OLD) {
		add_u64(o, "old_inum", e->old_inum);
		if (e->old_ns_id)
			add_u64(o, "old_ns_id", e->old_ns_id);
		if (x->old_name)
			json_add_bytes(o, "old_name", x->old_name, 4096);
	}
	if (e->flags & NSAUDIT_F_FOR_CHILDREN)
		add(o, "for_children", json_object_new_boolean(1));
	if (e->op != NSAUDIT_OP_LOST) {
		add_u64(o, "pid", e->pid);
		add_u64(o, "tid", e->tid);
		add_u64(o, "ppid", e->ppid);
		add_u64(o, "uid", e->uid);
		add_u64(o, "euid", e->euid);
		add_u64(o, "auid", e->auid);
		json_add_bytes(o, "comm", e->comm, sizeof(e->comm));
		if (x->exe)
			json_add_bytes(o, "exe", x->exe, 4096);
		if (x->cgroup)
			json_add_bytes(o, "cgroup", x->cgroup, 4096);
		add_u64(o, "cgroup_id", e->cgroup_id);
	}
	if (e->target_pid)
		add_i64(o, "target_pid", e->target_pid);
	if (e->fd >= 0)
		add_i64(o, "fd", e->fd);
	if (via)
		add(o, "via", json_object_new_string(via));
	if (e->path[0])
		json_add_bytes(o, "path", e->path, sizeof(e->path));
	if (e->src_path[0])
		json_add_bytes(o, "src_path", e->src_path, sizeof(e->src_path));
	if (e->flags & NSAUDIT_F_MOVE)
		add(o, "move", json_object_new_boolean(1));
	if (e->mnt_ns_inum)
		add_u64(o, "mnt_ns", e->mnt_ns_inum);
	if ((e->op == NSAUDIT_OP_NSFD || e->op == NSAUDIT_OP_QUERY) && e->arg &&
	    e->probe == NSAUDIT_PROBE_TP_SYSCALLS && e->via != NSAUDIT_VIA_PIDFD_GETFD &&
	    e->via != NSAUDIT_VIA_HANDLE)
		add_u64(o, "ioctl", e->arg);
	if (e->op == NSAUDIT_OP_LOST) {
		add(o, "reason", json_object_new_string(lost_reason_name(e->lost_reason) ?: "?"));
		add_u64(o, "count", e->count);
		add_u64(o, "lost_total", e->arg);	/* the kernel's running count */
	}
	/* a thread other than the leader: a setns or unshare changed that
	 * thread's namespaces only */
	if (e->op != NSAUDIT_OP_LOST && e->tid && e->tid != e->pid)
		add(o, "thread", json_object_new_boolean(1));
	if (x->container)
		json_add_bytes(o, "container", x->container, 4096);
	if (x->container_name)
		json_add_bytes(o, "container_name", x->container_name, 4096);
	if (x->unresolved)
		add(o, "unresolved", json_object_new_string(x->unresolved));
	if (x->cause)
		add(o, "cause", json_object_new_string(x->cause));
	if (e->kseq)
		add_u64(o, "kseq", e->kseq);
	if (e->ns_refs)
		add_u64(o, "ns_refs", e->ns_refs);
	add(o, "probe",
			       json_object_new_string(probe_name(e->probe) ?: "unknown"));
	return o;
}

const char *record_to_json_line(struct json_object *rec)
{
	/* PLAIN: one line; json-c escapes every control byte, so no newline
	 * from a hostile comm or path can ever split the record. */
	return json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE);
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

/* Print untrusted bytes C-style so a line stays one line and readable. */
void record_print_text(FILE *f, struct json_object *rec, bool colour)
{
	const char *op = get_str(rec, "op") ?: "?", *type = get_str(rec, "ns_type");
	const char *s, *on = colour ? "\033[1m" : "", *off = colour ? "\033[0m" : "";
	const char *red = colour ? "\033[31m" : "";
	int64_t v, result = 0;

	fprintf(f, "%s %s%-7s%s", get_str(rec, "time") ?: "-", on, op, off);
	if (type && get_i64(rec, "ns_inum", &v))
		fprintf(f, " %s:[%lld]", type, (long long)v);
	else if (type)
		fprintf(f, " %s:[?]", type);
	if ((s = get_str(rec, "ns_name"))) {
		fputc(' ', f);
		audit_text_quote(f, s);
	}
	if (type && get_i64(rec, "old_inum", &v))
		fprintf(f, " from %s:[%lld]", type, (long long)v);
	if (get_bool(rec, "for_children"))
		fputs(" (for children)", f);
	if (get_i64(rec, "count", &v))
		fprintf(f, " count=%lld", (long long)v);
	if ((s = get_str(rec, "reason")))
		fprintf(f, " reason=%s", s);
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
	fputc('\n', f);
}
