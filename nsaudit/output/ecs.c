// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* ecs.c - a record as an ECS document (ecs.h). */
#include <stdio.h>
#include <string.h>

#include "ecs.h"
#include "host_id.h"
#include "record_fmt.h"
#include "schema_map.h"

static struct json_object *strings(const char *a, const char *b)
{
	struct json_object *arr = json_object_new_array();

	json_object_array_add(arr, json_object_new_string(a));
	if (b)
		json_object_array_add(arr, json_object_new_string(b));
	return arr;
}

/* An alert's syslog level as a number, ECS's event.severity. */
static int syslog_level(const char *sev)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };
	int i;

	for (i = 0; sev && i < 8; i++)
		if (!strcmp(sev, names[i]))
			return i;
	return 5;
}

static void host(struct json_object *doc, struct schema_map *m)
{
	struct json_object *h = put_obj(doc, "host");
	const char *name = map_str(m, "host"), *boot = map_str(m, "boot_id");
	const char *mid = map_str(m, "machine_id");
	const struct host_id *me = record_host();
	struct json_object *os;

	put_str(h, "name", name);
	put_str(h, "hostname", name);
	put_str(h, "id", mid);
	if (boot)
		put_str(put_obj(h, "boot"), "id", boot);
	os = put_obj(h, "os");
	put_str(os, "type", "linux");
	if (host_id_is_local(me, mid)) {	/* never this host's for another's record */
		if (me->os_name[0])
			put_str(os, "name", me->os_name);
		if (me->os_version[0])
			put_str(os, "version", me->os_version);
		if (me->kernel[0])
			put_str(os, "kernel", me->kernel);
		if (me->type_id)
			put_str(h, "type", me->type);
	}
}

static void uid_str(struct json_object *o, const char *k, int64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "%lld", (long long)v);
	put_str(o, k, s);
}

/* The actor: process.* and user.* (uid, effective uid). */
static void actor(struct json_object *doc, struct schema_map *m)
{
	struct json_object *p, *u;
	const char *exe = map_str(m, "exe"), *comm = map_str(m, "comm");
	int64_t v;

	if (!json_object_object_get_ex(m->rec, "pid", NULL))
		return;
	p = put_obj(doc, "process");
	if (map_int(m, "pid", &v))
		put_int(p, "pid", v);
	if (map_int(m, "tid", &v))
		put_int(put_obj(p, "thread"), "id", v);
	put_str(p, "name", comm);
	put_str(p, "executable", exe);
	if (map_int(m, "ppid", &v))
		put_int(put_obj(p, "parent"), "pid", v);
	u = put_obj(doc, "user");
	if (map_int(m, "uid", &v)) {
		uid_str(u, "id", v);
		uid_str(put_obj(p, "user"), "id", v);
	}
	if (map_int(m, "euid", &v))
		uid_str(put_obj(u, "effective"), "id", v);
}

/* container.*: the actor's own container (an alert's, or a record's). */
static void container(struct json_object *doc, struct schema_map *m)
{
	const char *id = json_object_get_string(json_object_object_get(m->rec, "actor_container"));
	const char *pod = map_str(m, "actor_pod"), *podns = map_str(m, "actor_pod_namespace");
	struct json_object *c, *o;

	/* not the host, and not namespaces of its own no runtime claims
	 * ("pid:[N]": those stay in nsaudit.actor_container) */
	if (id && strcmp(id, "host") && !strchr(id, ':')) {
		c = put_obj(doc, "container");
		put_str(c, "id", map_str(m, "actor_container"));
		put_str(c, "name", map_str(m, "actor_container_name"));
	}
	if (pod) {
		o = put_obj(doc, "orchestrator");
		put_str(o, "type", "kubernetes");
		put_str(o, "namespace", podns);
		o = put_obj(o, "resource");
		put_str(o, "type", "pod");
		put_str(o, "name", pod);
	}
}

static void rule(struct json_object *doc, struct schema_map *m)
{
	const char *id = map_str(m, "rule") ?: "?", *summary = map_str(m, "summary");
	struct json_object *r = put_obj(doc, "rule"), *t, *o;

	put_str(r, "id", id);
	put_str(r, "name", id);
	put_str(r, "description", summary);
	put_str(r, "ruleset", "nsaudit");
	put_str(r, "reference", "docs/rules.md");
	put_str(doc, "message", summary);
	put_str(put_obj(doc, "event"), "reason", summary);
	/* only where a technique fits exactly: escapes are T1611 */
	if (strcmp(id, "container-escape") && strcmp(id, "attempted-escape"))
		return;
	t = put_obj(doc, "threat");
	put_str(t, "framework", "MITRE ATT&CK");
	o = put_obj(t, "technique");
	json_object_object_add(o, "id", strings("T1611", NULL));
	json_object_object_add(o, "name", strings("Escape to Host", NULL));
	json_object_object_add(o, "reference",
			       strings("https://attack.mitre.org/techniques/T1611/", NULL));
	o = put_obj(t, "tactic");
	json_object_object_add(o, "id", strings("TA0004", NULL));
	json_object_object_add(o, "name", strings("Privilege Escalation", NULL));
	json_object_object_add(o, "reference",
			       strings("https://attack.mitre.org/tactics/TA0004/", NULL));
}

static void event(struct json_object *doc, struct schema_map *m, const char *op, bool alert)
{
	struct json_object *ev = put_obj(doc, "event");
	const char *err = map_str(m, "error");
	int64_t v, result = 0;
	bool lost = !strcmp(op, "lost");

	map_int(m, "result", &result);
	put_str(ev, "kind", alert ? "alert" : "event");
	json_object_object_add(ev, "category", alert ? strings("intrusion_detection", "process")
							: strings("process", NULL));
	json_object_object_add(ev, "type", strings(alert ? "info" : lost ? "info" : "change",
						     NULL));
	put_str(ev, "action", op);
	put_str(ev, "outcome", alert || lost ? "unknown" : result < 0 ? "failure" : "success");
	put_str(ev, "module", "nsaudit");
	put_str(ev, "dataset", alert ? "nsaudit.alert" : "nsaudit.record");
	put_str(ev, "provider", "nsaudit");
	if (map_int(m, "seq", &v))
		put_int(ev, "sequence", v);
	if (alert)
		put_int(ev, "severity", syslog_level(map_str(m, "severity")));
	else
		put_int(ev, "severity", result < 0 || lost ? 4 : 6);
	if (err)
		put_str(put_obj(doc, "error"), "code", err);
}

struct json_object *ecs_event(struct json_object *rec)
{
	struct schema_map m = { .rec = rec };
	struct json_object *doc = json_object_new_object(), *o;
	const char *op, *t;
	bool alert;

	if (!doc)
		return NULL;
	t = map_str(&m, "time");
	put_str(doc, "@timestamp", t);
	op = map_str(&m, "op") ?: "unknown";
	alert = !strcmp(op, "alert");
	event(doc, &m, op, alert);
	if (alert) {
		rule(doc, &m);
	} else {
		char msg[96];

		snprintf(msg, sizeof(msg), "%s %s", op,
			 json_object_get_string(json_object_object_get(rec, "ns_type")) ?: "");
		put_str(doc, "message", msg);
	}
	actor(doc, &m);
	container(doc, &m);
	host(doc, &m);
	put_str(put_obj(doc, "ecs"), "version", ECS_VERSION);
	o = put_obj(doc, "observer");
	put_str(o, "vendor", "nsaudit");
	put_str(o, "product", "nsaudit");
	put_str(o, "version", NSAUDIT_VERSION);
	put_str(o, "type", "host");
	map_rest(&m, put_obj(doc, "nsaudit"));
	return doc;
}
