// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* runtime_state.c - runtime state roots and the parsers of their files. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "runtime_state.h"

static const char *const kind_name[RT_ROOT_MAX] = {
	[RT_ROOT_RUNC] = "runc",		[RT_ROOT_CRUN] = "crun",
	[RT_ROOT_DOCKER_EXEC] = "docker-exec",	[RT_ROOT_DOCKER_DATA] = "docker-data",
	[RT_ROOT_CONTAINERD] = "containerd",	[RT_ROOT_PODMAN] = "podman",
};

static const char *const kind_default[RT_ROOT_MAX] = {
	[RT_ROOT_RUNC] = "/run/runc",
	[RT_ROOT_CRUN] = "/run/crun",
	[RT_ROOT_DOCKER_EXEC] = "/run/docker",
	[RT_ROOT_DOCKER_DATA] = "/var/lib/docker",
	[RT_ROOT_CONTAINERD] = "/run/containerd",
	[RT_ROOT_PODMAN] = "/var/lib/containers/storage",
};

const char runtime_root_help[] =
	"      --runtime-root KIND=DIR  where a container runtime keeps its state\n"
	"                       (repeatable): runc (/run/runc), crun (/run/crun),\n"
	"                       docker-exec (dockerd --exec-root, /run/docker),\n"
	"                       docker-data (dockerd --data-root, /var/lib/docker),\n"
	"                       containerd (its state dir, /run/containerd),\n"
	"                       podman (containers/storage root, /var/lib/containers/storage)\n";

/* Set once at start-up, from the command line. */
static char kind_root[RT_ROOT_MAX][512];

int runtime_root_set(const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	size_t kl;
	int k;

	if (!eq) {
		snprintf(err, errlen, "--runtime-root: KIND=DIR expected, got '%s'", spec);
		return -1;
	}
	kl = (size_t)(eq - spec);
	for (k = 0; k < RT_ROOT_MAX; k++)
		if (strlen(kind_name[k]) == kl && !strncmp(spec, kind_name[k], kl))
			break;
	if (k == RT_ROOT_MAX) {
		snprintf(err, errlen, "--runtime-root: unknown kind '%.*s' (runc, crun, docker-exec, "
			 "docker-data, containerd, podman)", (int)kl, spec);
		return -1;
	}
	if (eq[1] != '/' || strlen(eq + 1) >= sizeof(kind_root[k])) {
		snprintf(err, errlen, "--runtime-root: %s needs an absolute directory (under %zu bytes)",
			 kind_name[k], sizeof(kind_root[k]));
		return -1;
	}
	snprintf(kind_root[k], sizeof(kind_root[k]), "%s", eq + 1);
	return 0;
}

void runtime_root(enum runtime_root_kind k, const char *prefix, char *out, size_t len)
{
	if (kind_root[k][0])
		snprintf(out, len, "%s", kind_root[k]);
	else
		snprintf(out, len, "%s%s", prefix, kind_default[k]);
}

static const char *str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool runc_state_parse(const char *json, uint32_t *pid, char *bundle, size_t len)
{
	struct json_object *o = json_tokener_parse(json), *v, *cfg, *labels;
	int64_t p = 0;
	size_t i, n;

	*pid = 0;
	bundle[0] = '\0';
	if (!o)
		return false;
	if (json_object_object_get_ex(o, "init_process_pid", &v))
		p = json_object_get_int64(v);
	if (p > 0 && p <= INT32_MAX)
		*pid = (uint32_t)p;
	/* runc: config.labels ["bundle=/dir", ...] */
	if (json_object_object_get_ex(o, "config", &cfg) &&
	    json_object_object_get_ex(cfg, "labels", &labels) &&
	    json_object_is_type(labels, json_type_array)) {
		n = json_object_array_length(labels);
		for (i = 0; i < n; i++) {
			const char *l = json_object_get_string(json_object_array_get_idx(labels, i));

			if (l && !strncmp(l, "bundle=", 7) && l[7] == '/') {
				snprintf(bundle, len, "%s", l + 7);
				break;
			}
		}
	}
	json_object_put(o);
	return true;
}

bool oci_config_meta(const char *json, struct oci_meta *m)
{
	struct json_object *o = json_tokener_parse(json), *a;
	const char *s;

	memset(m, 0, sizeof(*m));
	if (!o)
		return false;
	if (json_object_object_get_ex(o, "annotations", &a) &&
	    json_object_is_type(a, json_type_object)) {
		if ((s = str_member(a, "io.kubernetes.pod.name")))
			snprintf(m->pod, sizeof(m->pod), "%s", s);
		if ((s = str_member(a, "io.kubernetes.pod.namespace")))
			snprintf(m->pod_ns, sizeof(m->pod_ns), "%s", s);
		if ((s = str_member(a, "nerdctl/name")) ||
		    (s = str_member(a, "io.kubernetes.cri.container-name")) ||
		    (s = str_member(a, "io.kubernetes.container.name")))
			snprintf(m->name, sizeof(m->name), "%s", s);
	}
	json_object_put(o);
	return true;
}

bool docker_config_name(const char *json, char *name, size_t len)
{
	struct json_object *o = json_tokener_parse(json);
	const char *s = str_member(o, "Name");
	bool ok = s && *s;

	if (ok)
		snprintf(name, len, "%s", s[0] == '/' ? s + 1 : s);
	json_object_put(o);
	return ok && *name;
}

/* a directory name a runtime may have made: no "", ".", "..", no '/' */
static bool dir_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!isgraph((unsigned char)s[i]) || s[i] == '/')
			return false;
	return true;
}

/*
 * containerd's own cgroup for a task (ctr, cgroupfs): /NAMESPACE/ID, with
 * an ID the user chose (no id to recognise in it). containerd's shim makes
 * the task's bundle, ROOT/io.containerd.runtime.v2.task/NAMESPACE/ID,
 * before runc runs: while runc's stage makes the container's namespaces
 * (no runc state yet), that directory says whose they are.
 */
bool containerd_task_of_cgroup(const char *root, const char *cgpath, char *id, size_t len)
{
	char path[PATH_MAX * 2];
	size_t nl, tl;
	const char *a, *b;
	struct stat st;

	if (!cgpath || cgpath[0] != '/')
		return false;
	a = cgpath + 1;
	b = strchr(a, '/');
	if (!b)
		return false;
	nl = (size_t)(b - a);
	tl = strcspn(b + 1, "/\n");
	/* nothing after ID but a '/' or a newline */
	if (b[1 + tl] && strcmp(b + 1 + tl, "/") && strcmp(b + 1 + tl, "\n"))
		return false;
	if (!dir_name_ok(a, nl) || !dir_name_ok(b + 1, tl) || tl + 1 > len || nl + tl > PATH_MAX)
		return false;
	snprintf(path, sizeof(path), "%s/io.containerd.runtime.v2.task/%.*s/%.*s", root, (int)nl, a,
		 (int)tl, b + 1);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	memcpy(id, b + 1, tl);
	id[tl] = '\0';
	return true;
}
