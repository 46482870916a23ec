// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * ocsf.c - a record as an OCSF event (ocsf.h). Class and attribute names
 * follow the schema's own definitions (events/findings/detection_finding.json,
 * events/system/process_activity.json and objects/ of ocsf-schema 1.8.0).
 */
#include <stdio.h>
#include <string.h>

#include "host_id.h"
#include "ocsf.h"
#include "record_fmt.h"
#include "schema_map.h"

#define CLASS_BASE 0
#define CLASS_PROCESS_ACTIVITY 1007
#define CLASS_DETECTION_FINDING 2004
#define ACTIVITY_CREATE 1
#define ACTIVITY_OTHER 99

/* An alert's syslog severity as OCSF's severity_id, and its caption. */
static int severity_id(const char *sev, const char **caption)
{
	static const struct { const char *syslog; int id; const char *caption; } map[] = {
		{ "emerg", 6, "Fatal" },	{ "alert", 5, "Critical" },
		{ "crit", 5, "Critical" },	{ "err", 4, "High" },
		{ "warning", 3, "Medium" },	{ "notice", 2, "Low" },
		{ "info", 1, "Informational" }, { "debug", 1, "Informational" },
	};
	size_t i;

	for (i = 0; sev && i < sizeof(map) / sizeof(map[0]); i++) {
		if (!strcmp(sev, map[i].syslog)) {
			*caption = map[i].caption;
			return map[i].id;
		}
	}
	*caption = "Unknown";
	return 0;
}

/* The ATT&CK technique a rule detects, where one fits exactly: a process
 * leaving its container for the host's namespaces is T1611 (Escape to
 * Host, tactic Privilege Escalation); the other rules have none. */
static void attacks(struct json_object *fi, const char *rule)
{
	struct json_object *arr, *a, *t;

	if (strcmp(rule, "container-escape") && strcmp(rule, "attempted-escape"))
		return;
	arr = json_object_new_array();
	a = json_object_new_object();
	put_str(a, "version", "v18");
	t = put_obj(a, "technique");
	put_str(t, "uid", "T1611");
	put_str(t, "name", "Escape to Host");
	put_str(t, "src_url", "https://attack.mitre.org/techniques/T1611/");
	t = put_obj(a, "tactic");
	put_str(t, "uid", "TA0004");
	put_str(t, "name", "Privilege Escalation");
	json_object_array_add(arr, a);
	json_object_object_add(fi, "attacks", arr);
}

static void metadata(struct json_object *ev, struct schema_map *m, bool container)
{
	struct json_object *md = put_obj(ev, "metadata"), *p, *profiles;
	int64_t seq;
	char uid[96];

	put_str(md, "version", OCSF_VERSION);
	p = put_obj(md, "product");
	put_str(p, "name", "nsaudit");
	put_str(p, "vendor_name", "nsaudit");
	put_str(p, "version", NSAUDIT_VERSION);
	put_str(md, "log_name", "nsaudit");
	if (map_int(m, "seq", &seq)) {
		put_int(md, "sequence", seq);
		/* seq counts per run: with the boot and the machine, unique */
		snprintf(uid, sizeof(uid), "%s:%s:%lld", map_str(m, "machine_id") ?: "-",
			 map_str(m, "boot_id") ?: "-", (long long)seq);
		put_str(md, "uid", uid);
	}
	profiles = json_object_new_array();
	json_object_array_add(profiles, json_object_new_string("host"));
	json_object_array_add(profiles, json_object_new_string("datetime"));
	if (container)
		json_object_array_add(profiles, json_object_new_string("container"));
	json_object_object_add(md, "profiles", profiles);
}

/* The host (Host profile): machine id as uid, boot id as boot_uid; its
 * type and OS as this host says, only for a record of this host. */
static void device(struct json_object *ev, struct schema_map *m)
{
	struct json_object *d = put_obj(ev, "device"), *os;
	const char *h = map_str(m, "host"), *mid = map_str(m, "machine_id");
	const struct host_id *me = record_host();

	if (host_id_is_local(me, mid)) {
		put_int(d, "type_id", me->type_id);
		put_str(d, "type", me->type);
		os = put_obj(d, "os");
		put_str(os, "name", me->os_name[0] ? me->os_name : "Linux");
		put_int(os, "type_id", 200);
		put_str(os, "type", "Linux");
		if (me->os_version[0])
			put_str(os, "version", me->os_version);
	} else {
		put_int(d, "type_id", 0);
		put_str(d, "type", "Unknown");
	}
	put_str(d, "hostname", h);
	put_str(d, "name", h);
	put_str(d, "uid", mid);
	put_str(d, "boot_uid", map_str(m, "boot_id"));
}

static struct json_object *container_of(struct schema_map *m, const char *id_key,
					const char *name_key)
{
	const char *id = json_object_get_string(json_object_object_get(m->rec, id_key)), *name;
	struct json_object *c;

	/* the host, nobody, or namespaces of its own no runtime claims
	 * ("pid:[N]", "mnt:[N]"): no container; the field stays in unmapped */
	if (!id || !strcmp(id, "host") || !strcmp(id, "none") || strchr(id, ':'))
		return NULL;
	map_use(m, id_key);
	name = map_str(m, name_key);
	c = json_object_new_object();
	put_str(c, "uid", id);
	put_str(c, "name", name ?: id);
	return c;
}

/* The actor: its process (with user, parent, executable file, container). */
static struct json_object *process(struct schema_map *m)
{
	struct json_object *p = json_object_new_object(), *o;
	const char *exe = map_str(m, "exe"), *comm = map_str(m, "comm");
	int64_t v;
	char uid[24];

	if (map_int(m, "pid", &v))
		put_int(p, "pid", v);
	if (map_int(m, "tid", &v))
		put_int(p, "tid", v);
	put_str(p, "name", comm);
	if (exe) {
		o = put_obj(p, "file");
		put_str(o, "name", map_basename(exe));
		put_str(o, "path", exe);
		put_int(o, "type_id", 1);
		put_str(o, "type", "Regular File");
	}
	if (map_int(m, "uid", &v)) {
		o = put_obj(p, "user");
		snprintf(uid, sizeof(uid), "%lld", (long long)v);
		put_str(o, "uid", uid);
	}
	if (map_int(m, "ppid", &v))
		put_int(put_obj(p, "parent_process"), "pid", v);
	return p;
}

/* The namespace acted on, as an affected resource. */
static struct json_object *ns_resource(struct schema_map *m)
{
	struct json_object *r;
	const char *type = map_str(m, "ns_type"), *name = map_str(m, "ns_name");
	int64_t inum, id;
	char uid[64];

	if (!type || !map_int(m, "ns_inum", &inum))
		return NULL;
	r = json_object_new_object();
	/* the kernel's ns_id where it has one: inodes are reused */
	if (map_int(m, "ns_id", &id))
		snprintf(uid, sizeof(uid), "%s:%lld", type, (long long)id);
	else
		snprintf(uid, sizeof(uid), "%s:[%lld]", type, (long long)inum);
	put_str(r, "uid", uid);
	snprintf(uid, sizeof(uid), "%s:[%lld]", type, (long long)inum);
	put_str(r, "name", name ?: uid);
	put_str(r, "type", "linux_namespace");
	put_str(r, "hostname", json_object_get_string(json_object_object_get(m->rec, "host")));
	return r;
}

static void finding(struct json_object *ev, struct schema_map *m)
{
	const char *rule = map_str(m, "rule") ?: "?", *sev = map_str(m, "severity"), *cap;
	const char *summary = map_str(m, "summary") ?: "";
	struct json_object *fi = put_obj(ev, "finding_info"), *an, *evs, *e1, *e2, *res, *r;
	struct json_object *actor_ctr, *target_ctr;
	char uid[200];
	int64_t t = map_time_ms(m), about;
	int id = severity_id(sev, &cap);

	put_int(ev, "severity_id", id);
	put_str(ev, "severity", cap);
	put_str(ev, "message", summary);
	put_int(ev, "status_id", 1);
	put_str(ev, "status", "New");
	put_bool(ev, "is_alert", true);
	/* a rule matched what the kernel reported; no confidence is claimed */
	put_int(ev, "confidence_id", 0);
	put_str(ev, "confidence", "Unknown");
	/* the finding: rule, host, boot and the record it is about */
	if (!map_int(m, "about_kseq", &about))
		about = t;
	snprintf(uid, sizeof(uid), "%s:%s:%s:%lld", rule, map_str(m, "machine_id") ?: "-",
		 json_object_get_string(json_object_object_get(m->rec, "boot_id")) ?: "-",
		 (long long)about);
	put_str(fi, "uid", uid);
	put_str(fi, "title", summary);
	put_str(fi, "desc", summary);
	put_int(fi, "created_time", t);
	an = put_obj(fi, "analytic");
	put_str(an, "uid", rule);
	put_str(an, "name", rule);
	put_int(an, "type_id", 1);
	put_str(an, "type", "Rule");
	attacks(fi, rule);

	actor_ctr = container_of(m, "actor_container", "actor_container_name");
	target_ctr = container_of(m, "target_container", "target_container_name");
	evs = json_object_new_array();
	e1 = json_object_new_object();		/* who acted */
	r = process(m);
	if (actor_ctr)
		json_object_object_add(r, "container", json_object_get(actor_ctr));
	json_object_object_add(put_obj(e1, "actor"), "process", json_object_get(r));
	json_object_object_add(e1, "process", r);
	if (actor_ctr)
		json_object_object_add(e1, "container", actor_ctr);
	json_object_array_add(evs, e1);
	r = ns_resource(m);			/* on what */
	if (r) {
		e2 = json_object_new_object();
		res = json_object_new_array();
		json_object_array_add(res, json_object_get(r));
		json_object_object_add(e2, "resources", res);
		if (target_ctr)
			json_object_object_add(e2, "container", json_object_get(target_ctr));
		json_object_array_add(evs, e2);
		res = json_object_new_array();
		json_object_array_add(res, r);
		json_object_object_add(ev, "resources", res);
	}
	json_object_put(target_ctr);
	json_object_object_add(ev, "evidences", evs);
}

static void classify(struct json_object *ev, int class_uid, int activity_id,
		     const char *class_name, const char *activity_name)
{
	char tn[96];

	put_int(ev, "category_uid", class_uid / 1000);
	put_str(ev, "category_name", class_uid == CLASS_DETECTION_FINDING ? "Findings"
				     : class_uid ? "System Activity" : "Uncategorized");
	put_int(ev, "class_uid", class_uid);
	put_str(ev, "class_name", class_name);
	put_int(ev, "activity_id", activity_id);
	put_str(ev, "activity_name", activity_name);
	put_int(ev, "type_uid", (int64_t)class_uid * 100 + activity_id);
	snprintf(tn, sizeof(tn), "%s: %s", class_name, activity_id == ACTIVITY_OTHER
		 ? "Other" : activity_name);
	put_str(ev, "type_name", tn);
}

/* A namespace operation of a process, or a record of nsaudit's own. */
static void activity(struct json_object *ev, struct schema_map *m, const char *op)
{
	const char *err = map_str(m, "error");
	struct json_object *p, *c;
	int64_t pid, result = 0;
	char msg[160];

	map_int(m, "result", &result);
	if (json_object_object_get_ex(m->rec, "pid", NULL) && strcmp(op, "lost")) {
		classify(ev, CLASS_PROCESS_ACTIVITY, ACTIVITY_OTHER, "Process Activity", op);
		p = process(m);
		c = container_of(m, "actor_container", "actor_container_name");
		if (c)		/* the Container profile's place */
			json_object_object_add(p, "container", c);
		json_object_object_add(put_obj(ev, "actor"), "process", json_object_get(p));
		/* the process whose namespace file was opened, or the actor */
		if (map_int(m, "target_pid", &pid)) {
			json_object_put(p);
			p = json_object_new_object();
			put_int(p, "pid", pid);
		}
		json_object_object_add(ev, "process", p);
	} else {
		classify(ev, CLASS_BASE, ACTIVITY_OTHER, "Base Event", op);
	}
	put_int(ev, "severity_id", result < 0 || !strcmp(op, "lost") ? 3 : 1);
	put_str(ev, "severity", result < 0 || !strcmp(op, "lost") ? "Medium" : "Informational");
	put_int(ev, "status_id", result < 0 ? 2 : 1);
	put_str(ev, "status", result < 0 ? "Failure" : "Success");
	if (err)
		put_str(ev, "status_code", err);
	snprintf(msg, sizeof(msg), "%s %s", op,
		 json_object_get_string(json_object_object_get(m->rec, "ns_type")) ?: "");
	put_str(ev, "message", msg);
}

/* One observable: where in the event (name), its type, its value. */
static void observable(struct json_object *arr, const char *name, int type_id, const char *type,
		       struct json_object *v)
{
	struct json_object *o;

	if (!v)
		return;
	o = json_object_new_object();
	put_str(o, "name", name);
	put_int(o, "type_id", type_id);
	put_str(o, "type", type);
	/* the value as a string, whatever the attribute's type */
	put_str(o, "value", json_object_get_string(v));
	json_object_array_add(arr, o);
}

static struct json_object *at(struct json_object *o, const char *a, const char *b, const char *c)
{
	struct json_object *v = o;

	if (a && !json_object_object_get_ex(v, a, &v))
		return NULL;
	if (b && !json_object_object_get_ex(v, b, &v))
		return NULL;
	if (c && !json_object_object_get_ex(v, c, &v))
		return NULL;
	return v;
}

/*
 * The pivots a SIEM indexes (base_event "observables", type ids from the
 * schema's dictionary: hostname_t 1, process_name_t 9, pid 15, file_path_t
 * 45, resource_uid_t 10), pointing at where the event holds them.
 */
static void observables(struct json_object *ev)
{
	struct json_object *arr = json_object_new_array(), *p, *r;
	const char *pp = "actor.process";

	p = at(ev, "actor", "process", NULL);
	if (!p && (r = at(ev, "evidences", NULL, NULL)) && json_object_array_length(r)) {
		p = at(json_object_array_get_idx(r, 0), "process", NULL, NULL);
		pp = "evidences[0].process";
	}
	observable(arr, "device.hostname", 1, "Hostname", at(ev, "device", "hostname", NULL));
	if (p) {
		char n[48];

		snprintf(n, sizeof(n), "%s.name", pp);
		observable(arr, n, 9, "Process Name", at(p, "name", NULL, NULL));
		snprintf(n, sizeof(n), "%s.pid", pp);
		observable(arr, n, 15, "Process ID", at(p, "pid", NULL, NULL));
		snprintf(n, sizeof(n), "%s.file.path", pp);
		observable(arr, n, 45, "File Path", at(p, "file", "path", NULL));
	}
	r = at(ev, "resources", NULL, NULL);
	if (r && json_object_array_length(r))
		observable(arr, "resources[0].uid", 10, "Resource UID",
			   at(json_object_array_get_idx(r, 0), "uid", NULL, NULL));
	json_object_object_add(ev, "observables", arr);
}

struct json_object *ocsf_event(struct json_object *rec)
{
	struct schema_map m = { .rec = rec };
	struct json_object *ev = json_object_new_object();
	const char *op, *t;
	bool ctr;

	if (!ev)
		return NULL;
	op = map_str(&m, "op") ?: "unknown";
	t = json_object_get_string(json_object_object_get(rec, "time"));
	put_int(ev, "time", map_time_ms(&m));
	put_str(ev, "time_dt", t);
	put_int(ev, "timezone_offset", 0);	/* nsaudit's times are UTC */
	if (!strcmp(op, "alert")) {
		classify(ev, CLASS_DETECTION_FINDING, ACTIVITY_CREATE, "Detection Finding",
			 "Create");
		finding(ev, &m);
	} else {
		activity(ev, &m, op);
	}
	ctr = json_object_object_get_ex(rec, "actor_container", NULL) ||
	      json_object_object_get_ex(rec, "container", NULL);
	metadata(ev, &m, ctr);
	put_str(put_obj(ev, "metadata"), "original_time", t);
	device(ev, &m);
	observables(ev);
	map_rest(&m, put_obj(ev, "unmapped"));
	return ev;
}
